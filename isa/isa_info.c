/* isa/isa_info.c — targets, names and op metadata over the generated tables. */
#include <pthread.h>
#include <string.h>

#include <rdx/isa.h>

#include "isa/isa_internal.h"
#include "util/error.h"

const rdx_isa_target *rdx_isa_target_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < ISA_NTARGETS; i++)
        if (strcmp(isa_targets[i].name, name) == 0)
            return &isa_targets[i];
    return NULL;
}

size_t rdx_isa_target_count(void)
{
    return ISA_NTARGETS;
}

const rdx_isa_target *rdx_isa_target_at(size_t i)
{
    return i < ISA_NTARGETS ? &isa_targets[i] : NULL;
}

unsigned rdx_isa_target_default_wave_size(const rdx_isa_target *t)
{
    (void)t;
    return 32;
}

bool rdx_isa_target_supports_wave_size(const rdx_isa_target *t, unsigned wave_size)
{
    if (!t)
        return false;
    if (wave_size == 32)
        return (t->features & RDX_ISA_FEATURE_WAVE32) != 0;
    if (wave_size == 64)
        return (t->features & RDX_ISA_FEATURE_WAVE64) != 0;
    return false;
}

static const char *const enc_names[RDX_ISA_ENC_COUNT] = {
#define RDX_ISA_ENC_NAME_(n) #n,
    RDX_ISA_ENC_LIST(RDX_ISA_ENC_NAME_)
#undef RDX_ISA_ENC_NAME_
};

const char *rdx_isa_enc_name(rdx_isa_enc enc)
{
    return (unsigned)enc < RDX_ISA_ENC_COUNT ? enc_names[enc] : "?";
}

static const char *const form_names[RDX_ISA_FORM_COUNT] = {
    "auto", "native", "e32", "e64", "dpp", "dpp8", "e64_dpp", "e64_dpp8",
};

const char *rdx_isa_form_name(rdx_isa_form form)
{
    return (unsigned)form < RDX_ISA_FORM_COUNT ? form_names[form] : "?";
}

static const char *const role_names[RDX_ISA_ROLE_COUNT] = {
#define RDX_ISA_ROLE_NAME_(n) #n,
    RDX_ISA_ROLE_LIST(RDX_ISA_ROLE_NAME_)
#undef RDX_ISA_ROLE_NAME_
};

/* Lower-case copies of the role names, built once (pthread_once: thread-safe). */
static char role_lower[RDX_ISA_ROLE_COUNT][16];
static pthread_once_t role_once = PTHREAD_ONCE_INIT;

static void role_lower_init(void)
{
    for (int i = 0; i < RDX_ISA_ROLE_COUNT; i++) {
        size_t n = strlen(role_names[i]);
        for (size_t j = 0; j < n && j < sizeof role_lower[i] - 1; j++) {
            char ch = role_names[i][j];
            role_lower[i][j] = (char)(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
        }
    }
}

const char *rdx_isa_role_name(rdx_isa_role role)
{
    if ((unsigned)role >= RDX_ISA_ROLE_COUNT)
        return "?";
    pthread_once(&role_once, role_lower_init);
    return role_lower[role];
}

static const char *const mod_names[RDX_ISA_MOD_COUNT] = {
#define RDX_ISA_MOD_NAME_(n, s) s,
    RDX_ISA_MOD_LIST(RDX_ISA_MOD_NAME_)
#undef RDX_ISA_MOD_NAME_
};

const char *rdx_isa_mod_name(rdx_isa_mod mod)
{
    return (unsigned)mod < RDX_ISA_MOD_COUNT ? mod_names[mod] : "?";
}

const char *rdx_isa_op_name(rdx_isa_op op)
{
    if ((unsigned)op == 0 || (unsigned)op >= RDX_ISA_OP_COUNT)
        return NULL;
    return isa_op_names[op];
}

/* Mnemonic -> op: an open-addressing hash of isa_op_names, built once
 * (pthread_once: thread-safe); the assembler looks up every mnemonic. */
#define OP_HASH_SIZE 8192u
_Static_assert(OP_HASH_SIZE >= 2 * RDX_ISA_OP_COUNT, "op hash load factor");
static uint16_t op_hash[OP_HASH_SIZE];
static pthread_once_t op_hash_once = PTHREAD_ONCE_INIT;

static uint32_t name_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static void op_hash_init(void)
{
    for (unsigned op = 1; op < RDX_ISA_OP_COUNT; op++) {
        uint32_t h = name_hash(isa_op_names[op], strlen(isa_op_names[op]));
        while (op_hash[h % OP_HASH_SIZE])
            h++;
        op_hash[h % OP_HASH_SIZE] = (uint16_t)op;
    }
}

static int find_exact(const char *name, size_t len)
{
    pthread_once(&op_hash_once, op_hash_init);
    for (uint32_t h = name_hash(name, len);; h++) {
        unsigned op = op_hash[h % OP_HASH_SIZE];
        if (!op)
            return 0;
        if (!strncmp(isa_op_names[op], name, len) && isa_op_names[op][len] == 0)
            return (int)op;
    }
}

static bool ends_with(const char *s, size_t n, const char *suf, size_t *base)
{
    size_t m = strlen(suf);
    if (n > m && memcmp(s + n - m, suf, m) == 0) {
        *base = n - m;
        return true;
    }
    return false;
}

rdx_status rdx_isa_op_find(const char *name, rdx_isa_op *op, rdx_isa_form *form)
{
    if (!name)
        return rdx_fail(RDX_ERR_INVALID, "rdx_isa_op_find: NULL mnemonic");
    size_t n = strlen(name), b;
    int id = find_exact(name, n);
    rdx_isa_form f = RDX_ISA_FORM_AUTO;
    if (!id) {
        static const struct {
            const char *suf;
            rdx_isa_form form;
        } sufs[] = { { "_e64_dpp", RDX_ISA_FORM_E64_DPP16 },
                     { "_e32", RDX_ISA_FORM_E32 },
                     { "_e64", RDX_ISA_FORM_E64 },
                     { "_dpp", RDX_ISA_FORM_DPP16 } };
        for (size_t i = 0; i < sizeof sufs / sizeof sufs[0] && !id; i++)
            if (ends_with(name, n, sufs[i].suf, &b)) {
                id = find_exact(name, b);
                f = sufs[i].form;
            }
    }
    if (!id)
        return rdx_fail(RDX_ERR_NOT_FOUND, "unknown mnemonic '%s'", name);
    if (op)
        *op = (rdx_isa_op)id;
    if (form)
        *form = f;
    return RDX_OK;
}

bool rdx_isa_op_available(const rdx_isa_target *t, rdx_isa_op op)
{
    if (!t || t->index >= ISA_NTARGETS || (unsigned)op == 0 || (unsigned)op >= RDX_ISA_OP_COUNT)
        return false;
    return (isa_target_avail[t->index][op / 32] >> (op % 32)) & 1u;
}

const isa_row *isa_row_of(const rdx_isa_target *t, rdx_isa_op op, rdx_isa_form form)
{
    if (!t || !isa_op_avail(t, op))
        return NULL;
    const isa_family *fam = &isa_families[t->family];
    const int16_t *r = fam->oprows[op];
    int idx;
    switch (form) {
    case RDX_ISA_FORM_AUTO:
        idx = r[0] >= 0 ? r[0] : r[1];
        break;
    case RDX_ISA_FORM_NATIVE:
        idx = r[0] >= 0 && fam->rows[r[0]].form == RDX_ISA_FORM_NATIVE ? r[0] : -1;
        break;
    case RDX_ISA_FORM_E32:
        idx = r[0] >= 0 && fam->rows[r[0]].form == RDX_ISA_FORM_E32 ? r[0] : -1;
        break;
    case RDX_ISA_FORM_DPP16:
    case RDX_ISA_FORM_DPP8:
        idx = r[0] >= 0 && fam->rows[r[0]].form == RDX_ISA_FORM_E32 &&
                      (isa_target_dpp[t->index][0][op / 32] >> (op % 32) & 1u)
                  ? r[0]
                  : -1;
        break;
    case RDX_ISA_FORM_E64:
        idx = r[1];
        break;
    case RDX_ISA_FORM_E64_DPP16:
    case RDX_ISA_FORM_E64_DPP8:
        idx = isa_target_dpp[t->index][1][op / 32] >> (op % 32) & 1u ? r[1] : -1;
        break;
    default:
        idx = -1;
    }
    return idx >= 0 ? &fam->rows[idx] : NULL;
}

const rdx_isa_form_info *isa_form_of(const rdx_isa_target *t, rdx_isa_op op, rdx_isa_form form)
{
    const isa_row *row = t ? isa_row_of(t, op, form) : NULL;
    return row ? &isa_form_infos[t->family][row - isa_families[t->family].rows] : NULL;
}

rdx_status rdx_isa_op_form(const rdx_isa_target *t, rdx_isa_op op, rdx_isa_form form,
                           const rdx_isa_form_info **out)
{
    if (!t || !out)
        return rdx_fail(RDX_ERR_INVALID, "rdx_isa_op_form: NULL argument");
    const isa_row *row = isa_row_of(t, op, form); /* NULL unless op is valid and available */
    if (row) {
        *out = &isa_form_infos[t->family][row - isa_families[t->family].rows];
        return RDX_OK;
    }
    const char *name = rdx_isa_op_name(op);
    if (!name)
        return rdx_fail(RDX_ERR_INVALID, "rdx_isa_op_form: op %d out of range", (int)op);
    if (!rdx_isa_op_available(t, op))
        return rdx_fail(RDX_ERR_UNSUPPORTED, "%s: not available on %s", name, t->name);
    return rdx_fail(RDX_ERR_UNSUPPORTED, "%s: no %s form on %s", name, rdx_isa_form_name(form),
                    t->name);
}

bool rdx_isa_mod_allowed(const rdx_isa_target *t, rdx_isa_op op, rdx_isa_form form, rdx_isa_mod mod)
{
    const isa_row *row = isa_row_of(t, op, form);
    if (!row || (unsigned)mod >= RDX_ISA_MOD_COUNT)
        return false;
    if (form == RDX_ISA_FORM_AUTO)
        form = (rdx_isa_form)row->form;
    return isa_mod_ok(&isa_families[t->family], row, form, mod, NULL, NULL);
}
