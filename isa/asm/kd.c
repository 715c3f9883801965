/*
 * isa/asm/kd.c — `.amdhsa_kernel NAME` ... `.end_amdhsa_kernel`: the fields of
 * kd_fields.def into a 64-byte kernel descriptor, as LLVM 19 lays it out for
 * gfx11 and gfx12.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm/state.h"

enum kd_where {
    KD_AT_GROUP,
    KD_AT_PRIVATE,
    KD_AT_KERNARG,
    KD_AT_RSRC1,
    KD_AT_RSRC2,
    KD_AT_RSRC3,
    KD_AT_PROPS,
    KD_AT_SPECIAL,
    KD_AT_REJECT,
};

enum kd_targets { KD_T_ALL, KD_T_PRE12, KD_T_GFX12, KD_T_ARCH_FLAT_SCRATCH, KD_T_GFX90A };

typedef struct kd_field {
    const char *name;
    enum kd_where where;
    unsigned lo, width;
    enum kd_targets targets;
    uint32_t def;
    unsigned user_sgprs;
} kd_field;

static const kd_field kd_fields[] = {
#define KD_FIELD(name, where, lo, width, targets, def, usgprs) \
    { #name, where, lo, width, targets, def, usgprs },
#include "isa/asm/kd_fields.def"
#undef KD_FIELD
};
#define KD_NFIELDS (sizeof kd_fields / sizeof kd_fields[0])

typedef struct rdx_kd_parse {
    char *name;
    unsigned line, col;
    bool seen[KD_NFIELDS];
    uint64_t val[KD_NFIELDS];
    unsigned vline[KD_NFIELDS], vcol[KD_NFIELDS];
} rdx_kd_parse;

static int field_index(const char *name)
{
    for (size_t i = 0; i < KD_NFIELDS; i++)
        if (!strcmp(kd_fields[i].name, name))
            return (int)i;
    return -1;
}

bool rdx_asm_kd_begin(rdx_asm_state *st, const char *name, size_t len, unsigned col)
{
    rdx_kd_parse *kd = calloc(1, sizeof *kd);
    if (!kd) {
        st->nomem = true;
        return false;
    }
    kd->name = rdx_asm_strndup(st, name, len);
    if (!kd->name) {
        free(kd);
        return false;
    }
    kd->line = st->line;
    kd->col = col;
    st->kd = kd;
    st->kd_open = true;
    return true;
}

void rdx_asm_kd_discard(rdx_asm_state *st)
{
    if (st->kd) {
        free(st->kd->name);
        free(st->kd);
    }
    st->kd = NULL;
    st->kd_open = false;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t field_value(const rdx_kd_parse *kd, const char *name)
{
    int i = field_index(name);
    assert(i >= 0);
    return kd->seen[i] ? (uint32_t)kd->val[i] : kd_fields[i].def;
}

/* Build the descriptor; errors for missing required fields. */
static void kd_finish(rdx_asm_state *st, unsigned end_col)
{
    rdx_kd_parse *kd = st->kd;
    int ivgpr = field_index("next_free_vgpr"), isgpr = field_index("next_free_sgpr");
    bool ok = true;
    if (!kd->seen[ivgpr]) {
        rdx_asm_error(st, end_col, ".amdhsa_next_free_vgpr directive is required");
        ok = false;
    }
    if (!kd->seen[isgpr]) {
        rdx_asm_error(st, end_col, ".amdhsa_next_free_sgpr directive is required");
        ok = false;
    }
    uint32_t rsrc1 = 0, rsrc2 = 0, rsrc3 = 0, props = 0;
    uint32_t group = 0, priv = 0, kernarg = 0;
    unsigned implied_user_sgprs = 0;
    for (size_t i = 0; i < KD_NFIELDS; i++) {
        const kd_field *f = &kd_fields[i];
        if (f->where == KD_AT_SPECIAL || f->where == KD_AT_REJECT)
            continue;
        if (f->targets == KD_T_PRE12 && st->gfx >= 1200)
            continue;
        if (f->targets == KD_T_GFX12 && st->gfx < 1200)
            continue;
        uint32_t v = kd->seen[i] ? (uint32_t)kd->val[i] : f->def;
        if (f->user_sgprs && v)
            implied_user_sgprs += f->user_sgprs;
        uint32_t bits = f->width >= 32 ? v : (v & ((1u << f->width) - 1)) << f->lo;
        switch (f->where) {
        case KD_AT_GROUP:
            group = v;
            break;
        case KD_AT_PRIVATE:
            priv = v;
            break;
        case KD_AT_KERNARG:
            kernarg = v;
            break;
        case KD_AT_RSRC1:
            rsrc1 |= bits;
            break;
        case KD_AT_RSRC2:
            rsrc2 |= bits;
            break;
        case KD_AT_RSRC3:
            rsrc3 |= bits;
            break;
        case KD_AT_PROPS:
            props |= bits;
            break;
        default:
            break;
        }
    }
    int iusgpr = field_index("user_sgpr_count");
    unsigned user_sgprs = implied_user_sgprs;
    if (kd->seen[iusgpr]) {
        if (kd->val[iusgpr] < implied_user_sgprs)
            rdx_asm_error_at(st, kd->vline[iusgpr], kd->vcol[iusgpr],
                             "amdgpu_user_sgpr_count smaller than than implied by enabled "
                             "user SGPRs");
        user_sgprs = (unsigned)kd->val[iusgpr];
    }
    if (user_sgprs > 32) {
        rdx_asm_error(st, end_col, "too many user SGPRs enabled (%u, at most 32)", user_sgprs);
        ok = false;
    }
    rsrc2 |= (user_sgprs & 31u) << 1;
    bool wave32 = field_value(kd, "wavefront_size32") != 0;
    uint32_t vgprs = (uint32_t)(kd->seen[ivgpr] ? kd->val[ivgpr] : 0);
    if (vgprs == 0)
        vgprs = 1;
    unsigned granule = wave32 ? 8 : 4;
    uint32_t vblocks = (vgprs + granule - 1) / granule - 1;
    if (vblocks > 63) {
        rdx_asm_error_at(st, kd->vline[ivgpr], kd->vcol[ivgpr],
                         "too many VGPRs: .amdhsa_next_free_vgpr %u", vgprs);
        ok = false;
    }
    rsrc1 |= vblocks & 63;
    uint32_t sgprs = (uint32_t)(kd->seen[isgpr] ? kd->val[isgpr] : 0);
    if (sgprs > 106) {
        rdx_asm_error_at(st, kd->vline[isgpr], kd->vcol[isgpr],
                         "too many SGPRs: .amdhsa_next_free_sgpr %u (at most 106)", sgprs);
        ok = false;
    }
    /* GFX10+: GRANULATED_WAVEFRONT_SGPR_COUNT is reserved (0). */
    if (!ok)
        return;
    if (!rdx_asm_grow(st, (void **)&st->kernels, &st->capkernels, st->nkernels,
                      sizeof *st->kernels))
        return;
    for (size_t k = 0; k < st->nkernels; k++)
        if (!strcmp(st->kernels[k].name, kd->name)) {
            rdx_asm_error_at(st, kd->line, kd->col, "kernel '%s' is described twice", kd->name);
            return;
        }
    rdx_asm_kernel *k = &st->kernels[st->nkernels];
    memset(k, 0, sizeof *k);
    put32(k->descriptor + 0, group);
    put32(k->descriptor + 4, priv);
    put32(k->descriptor + 8, kernarg);
    put32(k->descriptor + 44, rsrc3);
    put32(k->descriptor + 48, rsrc1);
    put32(k->descriptor + 52, rsrc2);
    k->descriptor[56] = (uint8_t)props;
    k->descriptor[57] = (uint8_t)(props >> 8);
    k->name = kd->name;
    kd->name = NULL;
    k->line = kd->line;
    k->next_free_vgpr = vgprs;
    k->next_free_sgpr = sgprs;
    k->group_segment_fixed_size = group;
    k->private_segment_fixed_size = priv;
    k->kernarg_size = kernarg;
    k->wavefront_size32 = wave32;
    st->nkernels++;
}

void rdx_asm_kd_line(rdx_asm_state *st, rdx_lexer *lx)
{
    const rdx_tok *t = &lx->tok;
    if (t->kind == RDX_TOK_END)
        return;
    if (rdx_tok_ident_is(t, ".end_amdhsa_kernel")) {
        unsigned col = t->col;
        rdx_lex_next(lx);
        rdx_asm_expect_end(st, lx);
        kd_finish(st, col);
        rdx_asm_kd_discard(st);
        return;
    }
    if (t->kind != RDX_TOK_IDENT || t->len < 8 || strncmp(t->text, ".amdhsa_", 8) != 0) {
        rdx_asm_error(st, t->col, "expected .amdhsa_ directive or .end_amdhsa_kernel");
        return;
    }
    char name[64];
    size_t n = t->len - 8 < sizeof name - 1 ? t->len - 8 : sizeof name - 1;
    memcpy(name, t->text + 8, n);
    name[n] = 0;
    int i = field_index(name);
    unsigned col = t->col;
    if (i < 0 || t->len - 8 >= sizeof name) {
        rdx_asm_error(st, col, "unknown .amdhsa_kernel directive");
        return;
    }
    const kd_field *f = &kd_fields[i];
    if (st->kd->seen[i]) {
        rdx_asm_error(st, rdx_lex_peek(lx).col, ".amdhsa_ directives cannot be repeated");
        return;
    }
    if (f->where == KD_AT_REJECT) {
        rdx_asm_error(st, col, "%s",
                      f->targets == KD_T_GFX90A
                          ? "directive requires gfx90a+"
                          : "directive is not supported with architected flat "
                            "scratch");
        return;
    }
    if (f->targets == KD_T_PRE12 && st->gfx >= 1200) {
        rdx_asm_error(st, col, "%s",
                      f->where == KD_AT_RSRC3 ? "directive requires gfx10 or gfx11"
                                              : "directive unsupported on gfx12+");
        return;
    }
    if (f->targets == KD_T_GFX12 && st->gfx < 1200) {
        rdx_asm_error(st, col, "directive requires gfx12+");
        return;
    }
    rdx_lex_next(lx);
    unsigned vcol = lx->tok.col;
    int64_t v;
    if (!rdx_asm_abs_expr(st, lx, &v))
        return;
    if (!rdx_asm_expect_end(st, lx))
        return;
    uint64_t maxv = f->width >= 32 ? UINT32_MAX : (1ull << f->width) - 1;
    if (v < 0 || (uint64_t)v > maxv) {
        rdx_asm_error(st, vcol, "value out of range");
        return;
    }
    if (!strcmp(name, "reserve_xnack_mask") && v != 0) {
        rdx_asm_error(st, col, ".amdhsa_reserve_xnack_mask does not match target id");
        return;
    }
    st->kd->seen[i] = true;
    st->kd->val[i] = (uint64_t)v;
    st->kd->vline[i] = st->line;
    st->kd->vcol[i] = vcol;
}

void rdx_asm_kd_unterminated(rdx_asm_state *st)
{
    rdx_asm_error_at(st, st->kd->line, st->kd->col, "missing .end_amdhsa_kernel");
    rdx_asm_kd_discard(st);
}
