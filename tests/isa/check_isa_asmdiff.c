/*
 * tests/isa/check_isa_asmdiff.c — the randomized assembler differential test.
 *
 * Random encodings of every op of the target are built from rdx's own tables
 * (a random instruction value the encoder accepts; half of them then mutated:
 * random bits or whole fields outside the class and opcode bits rewritten, a
 * random literal dword appended), so that they also cover what rdx's encoder
 * would not produce.  One `llvm-mc --disassemble -show-encoding` run per batch
 * turns them into LLVM's text and canonical bytes, and one `llvm-mc
 * -show-encoding` run assembles that text again: a line is valid when LLVM's
 * assembler gives back LLVM's bytes (operands LLVM marks invalid with a
 * comment are dropped).  Every valid line must assemble with
 * rdx_asm_assemble_inst to exactly those bytes; a rejection or other bytes is a
 * failure, printed with the seed.
 *
 * `make check` runs a fixed seed and a few thousand valid lines per target of
 * the table.  Long runs (scripts/asm-diff, `make fuzz-asm`) set the
 * environment: RDX_ASMDIFF_SEED, RDX_ASMDIFF_COUNT (valid lines per target),
 * RDX_ASMDIFF_TARGETS (comma-separated names), RDX_ASMDIFF_LLVM (LLVM major
 * version of the oracle, default 19), RDX_ASMDIFF_LOG (a file that gets every
 * failure, one per line).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>
#include <rdx/isa.h>

#include "isa/isa_internal.h"
#include "tests/harness/harness.h"
#include "tests/isa/isa_test.h"

#define DEFAULT_SEED  0x5eed2026u
#define DEFAULT_COUNT 3000
#define SHOW_MAX      12

/* splitmix64: the whole stream follows from the seed. */
typedef struct rng {
    uint64_t s;
} rng;
static uint64_t next64(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static uint32_t rnd(rng *r)
{
    return (uint32_t)(next64(r) >> 32);
}
static uint32_t below(rng *r, uint32_t n)
{
    return n ? rnd(r) % n : 0;
}

/* A literal value: random bits, or one near a choice LLVM makes (inline
 * integers and floats of every width, 16-bit values, sign-extended ones). */
static uint32_t random_literal(rng *r)
{
    static const uint32_t floats[] = {
        0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000,
        0xc0800000, 0x3e22f983, 0x3800,     0xb800,     0x3c00,     0xbc00,     0x4000,
        0xc000,     0x4400,     0xc400,     0x3118,     0x3fe00000, 0x3ff00000, 0xbff00000,
        0x40100000, 0x3fc45f30, 0x3f00,     0x3f80,     0x4000,     0x3e23,     0xbf80,
    };
    switch (below(r, 8)) {
    case 0:
        return floats[below(r, sizeof floats / sizeof floats[0])];
    case 1:
        return (uint32_t)((int32_t)below(r, 81) - 16);
    case 2:
        return rnd(r) & 0xffff;
    case 3:
        return 0xffff0000u | (rnd(r) & 0xffff);
    case 4:
        return floats[below(r, sizeof floats / sizeof floats[0])] << 16;
    case 5:
        return rnd(r) & 0xff;
    default:
        return rnd(r);
    }
}

static rdx_isa_opnd random_opnd(rng *r, const rdx_isa_opnd_info *si)
{
    unsigned kinds[RDX_ISA_OPND_KIND_COUNT], nk = 0;
    for (unsigned k = 1; k < RDX_ISA_OPND_KIND_COUNT; k++)
        if (si->kinds & RDX_ISA_KIND_BIT(k))
            kinds[nk++] = k;
    if (!nk)
        return rdx_isa_imm(0);
    unsigned kind = kinds[below(r, nk)];
    unsigned count = si->bits <= 32 || si->fmt == RDX_ISA_FMT_LANEMASK ? 1 : si->bits / 32;
    if (below(r, 4) == 0)
        count = 1 + below(r, 16); /* image data and odd sizes */
    unsigned align = count >= 4 ? 4 : count;
    switch (kind) {
    case RDX_ISA_OPND_SGPR:
        return rdx_isa_sgpr((below(r, 106 - count + 1)) / align * align, count);
    case RDX_ISA_OPND_VGPR:
        return rdx_isa_vgpr(below(r, 256 - count + 1), count);
    case RDX_ISA_OPND_TTMP:
        return rdx_isa_ttmp((below(r, 16 - count + 1)) / align * align, count);
    case RDX_ISA_OPND_SPECIAL: {
        static const unsigned codes[] = {
            RDX_ISA_REG_VCC_LO,
            RDX_ISA_REG_VCC_HI,
            RDX_ISA_REG_NULL,
            RDX_ISA_REG_M0,
            RDX_ISA_REG_EXEC_LO,
            RDX_ISA_REG_EXEC_HI,
            RDX_ISA_REG_SHARED_BASE,
            RDX_ISA_REG_SHARED_LIMIT,
            RDX_ISA_REG_PRIVATE_BASE,
            RDX_ISA_REG_PRIVATE_LIMIT,
            RDX_ISA_REG_POPS_EXITING_WAVE,
            RDX_ISA_REG_VCCZ,
            RDX_ISA_REG_EXECZ,
            RDX_ISA_REG_SCC,
            RDX_ISA_REG_LDS_DIRECT,
        };
        return rdx_isa_special(codes[below(r, sizeof codes / sizeof codes[0])], count == 2 ? 2 : 1);
    }
    case RDX_ISA_OPND_INT:
        return rdx_isa_int((int)below(r, 81) - 16);
    case RDX_ISA_OPND_FLOAT:
        return rdx_isa_float((rdx_isa_fconst)below(r, RDX_ISA_FCONST_COUNT));
    case RDX_ISA_OPND_LITERAL:
        return rdx_isa_literal(random_literal(r));
    case RDX_ISA_OPND_IMM:
        return rdx_isa_imm(si->bits >= 31 ? (int32_t)(rnd(r) & (below(r, 2) ? 0xfff : 0xfffff))
                                          : (int32_t)(rnd(r) & ((1u << si->bits) - 1)));
    case RDX_ISA_OPND_BRANCH:
        return (rdx_isa_opnd){ RDX_ISA_OPND_BRANCH, 0, 0, (int16_t)rnd(r) };
    case RDX_ISA_OPND_OFF:
    default:
        return rdx_isa_off();
    }
}

static int32_t random_mod(rng *r, rdx_isa_mod m)
{
    if (m == RDX_ISA_MOD_DPP8)
        return (int32_t)(rnd(r) & 0xffffff);
    switch (below(r, 6)) {
    case 0:
    case 1:
        return 1;
    case 2:
        return (int32_t)below(r, 4);
    case 3:
        return (int32_t)below(r, 16);
    case 4:
        return (int32_t)below(r, 512);
    default:
        return (int32_t)(rnd(r) % 8192) - 4096;
    }
}

/* The (op, form) pairs and VOPD ops a target has. */
typedef struct target_ops {
    struct {
        uint16_t op;
        uint8_t form;
    } *pairs;
    size_t npairs;
    uint16_t vopd[128];
    unsigned nvopd;
} target_ops;

static void collect_ops(const rdx_isa_target *t, target_ops *to)
{
    memset(to, 0, sizeof *to);
    to->pairs = calloc((size_t)RDX_ISA_OP_COUNT * RDX_ISA_FORM_COUNT, sizeof to->pairs[0]);
    ck_assert_ptr_nonnull(to->pairs);
    for (unsigned op = 1; op < RDX_ISA_OP_COUNT; op++) {
        if (!rdx_isa_op_available(t, (rdx_isa_op)op))
            continue;
        for (unsigned f = 1; f < RDX_ISA_FORM_COUNT; f++) {
            const rdx_isa_form_info *fi = isa_form_of(t, (rdx_isa_op)op, (rdx_isa_form)f);
            if (!fi)
                continue;
            if (fi->enc == RDX_ISA_ENC_VOPD) {
                if (to->nvopd < 128)
                    to->vopd[to->nvopd++] = (uint16_t)op;
                continue;
            }
            to->pairs[to->npairs].op = (uint16_t)op;
            to->pairs[to->npairs].form = (uint8_t)f;
            to->npairs++;
        }
    }
}

/* One random instruction the encoder accepts (false after many refusals). */
static bool random_inst(rng *r, const rdx_isa_target *t, const target_ops *to, uint8_t *out,
                        size_t *len, unsigned *enc)
{
    for (int tries = 0; tries < 64; tries++) {
        rdx_isa_inst in;
        memset(&in, 0, sizeof in);
        if (to->nvopd && below(r, 10) == 0) {
            rdx_isa_op x = to->vopd[below(r, to->nvopd)], y = to->vopd[below(r, to->nvopd)];
            const rdx_isa_form_info *fx = isa_form_of(t, x, RDX_ISA_FORM_NATIVE);
            const rdx_isa_form_info *fy = isa_form_of(t, y, RDX_ISA_FORM_NATIVE);
            unsigned nx = fx->nopnd / 2, ny = fy->nopnd / 2;
            in.op = (uint16_t)x;
            in.op_y = (uint16_t)y;
            in.form = RDX_ISA_FORM_NATIVE;
            in.nx = (uint8_t)nx;
            in.nopnd = (uint8_t)(nx + ny);
            uint32_t k = random_literal(r);
            for (unsigned i = 0; i < nx; i++)
                in.opnd[i] = random_opnd(r, &fx->opnd[i]);
            for (unsigned i = 0; i < ny; i++)
                in.opnd[nx + i] = random_opnd(r, &fy->opnd[fy->nopnd - ny + i]);
            for (unsigned i = 0; i < in.nopnd; i++)
                if (in.opnd[i].kind == RDX_ISA_OPND_LITERAL && below(r, 4))
                    in.opnd[i].value = (int32_t)k;
            *enc = RDX_ISA_ENC_VOPD;
        } else {
            size_t pi = below(r, (uint32_t)to->npairs);
            rdx_isa_op op = (rdx_isa_op)to->pairs[pi].op;
            rdx_isa_form form = (rdx_isa_form)to->pairs[pi].form;
            const rdx_isa_form_info *fi = isa_form_of(t, op, form);
            in.op = (uint16_t)op;
            in.form = (uint8_t)form;
            in.nopnd = fi->nopnd;
            for (unsigned i = 0; i < fi->nopnd; i++)
                in.opnd[i] = random_opnd(r, &fi->opnd[i]);
            for (unsigned m = 0; m < RDX_ISA_MOD_COUNT; m++)
                if (below(r, 3) == 0 && rdx_isa_mod_allowed(t, op, form, (rdx_isa_mod)m))
                    in.mod[m] = random_mod(r, (rdx_isa_mod)m);
            *enc = fi->enc;
        }
        if (rdx_isa_encode(t, &in, out, len) == RDX_OK)
            return true;
    }
    return false;
}

/*
 * Mutate an encoding of class `enc`: flip a few bits, or rewrite a whole field
 * of the class, never touching the class bits and the op field of the first
 * dword; sometimes append a literal dword.
 */
static void mutate(rng *r, const rdx_isa_target *t, unsigned enc, uint8_t *b, size_t *len)
{
    const isa_layout *lay = &isa_families[t->family].layouts[enc];
    uint32_t keep = lay->mask;
    if (lay->op.width)
        keep |= (uint32_t)(((1ull << lay->op.width) - 1) << lay->op.lo);
    unsigned nbits = (unsigned)*len * 8;
    unsigned n = 1 + below(r, 3);
    for (unsigned k = 0; k < n; k++) {
        if (below(r, 2)) {
            unsigned bit = below(r, nbits);
            if (bit < 32 && (keep >> bit) & 1)
                continue;
            b[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        } else {
            unsigned f = 1 + below(r, FLD_COUNT - 1);
            const isa_field *fl = &lay->f[f];
            if (!fl->width || fl->lo + fl->width > nbits)
                continue;
            uint32_t v = rnd(r);
            for (unsigned i = 0; i < fl->width; i++) {
                unsigned bit = fl->lo + i;
                if (bit < 32 && (keep >> bit) & 1)
                    continue;
                b[bit / 8] = (uint8_t)((b[bit / 8] & ~(1u << (bit % 8))) |
                                       (((v >> (i % 32)) & 1u) << (bit % 8)));
            }
        }
    }
    if (*len + 4 <= RDX_ISA_MAX_BYTES && below(r, 3) == 0) {
        uint32_t lit = random_literal(r);
        memcpy(b + *len, &lit, 4);
        *len += 4;
    }
}

/* One candidate: the bytes to show llvm-mc. */
typedef struct cand {
    uint8_t b[RDX_ISA_MAX_BYTES];
    size_t len;
} cand;

/* A valid line: LLVM's text and bytes. */
typedef struct vline {
    char *text;
    uint8_t b[RDX_ISA_MAX_BYTES];
    size_t len;
} vline;

static const uint8_t sep[4] = { 0x34, 0x12, 0x80, 0xbf }; /* s_nop 0x1234 */

/* "text ; encoding: [0x..,...]" -> text (trimmed, in place) and bytes; false otherwise. */
static bool parse_enc_line(char *line, char **text, uint8_t *b, size_t *len)
{
    char *e = strstr(line, "; encoding: [");
    if (!e)
        return false;
    char *p = e + strlen("; encoding: [");
    *len = 0;
    while (*p && *p != ']') {
        char *end;
        unsigned long v = strtoul(p, &end, 16);
        if (end == p || *len >= RDX_ISA_MAX_BYTES)
            return false;
        b[(*len)++] = (uint8_t)v;
        p = *end == ',' ? end + 1 : end;
    }
    while (e > line && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    *e = 0;
    while (*line == ' ' || *line == '\t')
        line++;
    *text = line;
    return true;
}

static bool is_sep(const uint8_t *b, size_t len)
{
    return len == 4 && memcmp(b, sep, 4) == 0;
}

const char *isa_mc_path(int major)
{
    const char *mc = rdx_test_llvm_tool_version("llvm-mc", major);
    if (!mc && major == 19)
        mc = rdx_test_llvm_tool("llvm-mc");
    ck_assert_msg(mc != NULL, "llvm-mc %d is not installed (scripts/setup installs it)", major);
    return mc;
}

static void run_mc(const char *mc, const rdx_isa_target *t, bool dis, const char *in, size_t n,
                   rdx_test_proc *p)
{
    char cpu[64];
    snprintf(cpu, sizeof cpu, "-mcpu=%s", t->name);
    const char *argv[] = {
        mc, "-triple=amdgcn-amd-amdhsa", cpu, "-show-encoding", dis ? "--disassemble" : NULL, NULL
    };
    /* llvm-mc exits 1 when some input is invalid: that is expected here; the
       disassembler of LLVM 22 crashes on some encodings (the caller splits) */
    rdx_test_run(argv, in, n, p);
    ck_assert_msg(p->status == 0 || p->status == 1 || (dis && p->status >= 128),
                  "%s failed to run: %.400s", mc, p->err);
}

/*
 * llvm-mc's text for each candidate (each in its own [..] block, followed by
 * the separator): appends to *lines the valid ones (first instruction of the
 * block, no comment LLVM marks invalid operands with).  Returns how many
 * were appended.
 */
static size_t disassemble(const char *mc, const rdx_isa_target *t, const cand *c, size_t nc,
                          vline *lines, size_t *crashes)
{
    size_t cap = nc * 2 * (RDX_ISA_MAX_BYTES * 5 + 4) + 16, n = 0;
    char *in = malloc(cap), *q = in;
    ck_assert_ptr_nonnull(in);
    for (size_t i = 0; i < nc; i++) {
        *q++ = '[';
        for (size_t k = 0; k < c[i].len; k++)
            q += sprintf(q, "%s0x%02x", k ? "," : "", c[i].b[k]);
        q += sprintf(q, "]\n[0x34,0x12,0x80,0xbf]\n");
    }
    rdx_test_proc p;
    run_mc(mc, t, true, in, (size_t)(q - in), &p);
    if (p.status >= 128) { /* llvm-mc crashed: find the encoding by halves, drop it */
        rdx_test_proc_free(&p);
        free(in);
        if (nc == 1) {
            (*crashes)++;
            return 0;
        }
        size_t h = nc / 2, n1 = disassemble(mc, t, c, h, lines, crashes);
        return n1 + disassemble(mc, t, c + h, nc - h, lines + n1, crashes);
    }
    char *save = p.out, *line;
    size_t ci = 0;
    bool first = true;
    while ((line = strtok_r(save, "\n", &save)) != NULL) {
        char *text;
        uint8_t b[RDX_ISA_MAX_BYTES];
        size_t len;
        if (!parse_enc_line(line, &text, b, &len))
            continue;
        if (is_sep(b, len)) {
            ci++;
            first = true;
            continue;
        }
        if (!first)
            continue;
        first = false;
        ck_assert_uint_lt(ci, nc);
        if (strstr(text, "/*") || len > c[ci].len)
            continue;
        lines[n].text = strdup(text);
        memcpy(lines[n].b, b, len);
        lines[n].len = len;
        n++;
    }
    ck_assert_msg(ci == nc, "llvm-mc output does not line up (%zu separators for %zu blocks)", ci,
                  nc);
    rdx_test_proc_free(&p);
    free(in);
    return n;
}

/*
 * llvm-mc's bytes for each of lines[0..n) (one run, each line followed by the
 * separator): ok[i] says whether it assembled, b[i]/len[i] its bytes.
 */
void isa_mc_assemble_lines(const char *mc, const rdx_isa_target *t, char *const *lines, size_t n,
                           bool *ok, uint8_t (*b)[RDX_ISA_MAX_BYTES], size_t *len)
{
    size_t cap = 64, used = 0;
    for (size_t i = 0; i < n; i++)
        cap += strlen(lines[i]) + 16;
    char *in = malloc(cap);
    ck_assert_ptr_nonnull(in);
    for (size_t i = 0; i < n; i++)
        used += (size_t)sprintf(in + used, "%s\ns_nop 0x1234\n", lines[i]);
    rdx_test_proc p;
    run_mc(mc, t, false, in, used, &p);
    memset(ok, 0, n * sizeof *ok);
    char *save = p.out, *line;
    size_t li = 0;
    while ((line = strtok_r(save, "\n", &save)) != NULL) {
        char *text;
        uint8_t lb[RDX_ISA_MAX_BYTES];
        size_t bl;
        if (!parse_enc_line(line, &text, lb, &bl))
            continue;
        if (is_sep(lb, bl)) {
            li++;
            continue;
        }
        if (li < n && !ok[li]) {
            ok[li] = true;
            memcpy(b[li], lb, bl);
            len[li] = bl;
        }
    }
    ck_assert_msg(li == n, "llvm-mc assembly does not line up (%zu separators, %zu lines)", li, n);
    free(in);
    rdx_test_proc_free(&p);
}

/* Keep the lines llvm-mc assembles to their own bytes; returns how many are left. */
static size_t reassemble(const char *mc, const rdx_isa_target *t, vline *lines, size_t n)
{
    char **texts = malloc((n + 1) * sizeof *texts);
    bool *ok = calloc(n + 1, sizeof *ok);
    uint8_t(*b)[RDX_ISA_MAX_BYTES] = calloc(n + 1, sizeof *b);
    size_t *len = calloc(n + 1, sizeof *len);
    ck_assert(texts && ok && b && len);
    for (size_t i = 0; i < n; i++)
        texts[i] = lines[i].text;
    isa_mc_assemble_lines(mc, t, texts, n, ok, b, len);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (ok[i] && len[i] == lines[i].len && memcmp(b[i], lines[i].b, len[i]) == 0)
            lines[k++] = lines[i];
        else
            free(lines[i].text);
    }
    free(texts);
    free(ok);
    free(b);
    free(len);
    return k;
}

/*
 * A register mutant of a valid line: one register operand (v5, s[4:7], ttmp3 ...)
 * renumbered at random within its file, same size.  NULL when the line has no
 * register.  malloc'd.
 */
/* The line without its mnemonic's encoding suffix (_e32, _e64, _dpp, _e64_dpp),
 * so that the assembler chooses the form; NULL when it has none.  malloc'd. */
static char *suffix_mutant(const char *text)
{
    static const char *const sfx[] = { "_e64_dpp", "_e32", "_e64", "_dpp" };
    size_t ml = strcspn(text, " ");
    for (size_t k = 0; k < sizeof sfx / sizeof sfx[0]; k++) {
        size_t sl = strlen(sfx[k]);
        if (ml > sl && !strncmp(text + ml - sl, sfx[k], sl)) {
            char *out = malloc(strlen(text) + 1);
            ck_assert_ptr_nonnull(out);
            memcpy(out, text, ml - sl);
            strcpy(out + ml - sl, text + ml);
            return out;
        }
    }
    return NULL;
}

static char *register_mutant(rng *r, const char *text)
{
    size_t pos[32], n = 0, len = strlen(text);
    for (size_t i = 0; i < len && n < 32; i++) {
        bool start = i == 0 || !(isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_');
        if (!start)
            continue;
        size_t k = !strncmp(text + i, "ttmp", 4) ? 4 : (text[i] == 'v' || text[i] == 's') ? 1 : 0;
        if (k && (isdigit((unsigned char)text[i + k]) || text[i + k] == '['))
            pos[n++] = i;
    }
    if (!n)
        return NULL;
    size_t at = pos[below(r, (uint32_t)n)];
    size_t k = !strncmp(text + at, "ttmp", 4) ? 4 : 1;
    unsigned limit = k == 4 ? 16 : text[at] == 'v' ? 256 : 106;
    const char *p = text + at + k;
    unsigned a, b;
    char *end;
    if (*p == '[') {
        a = (unsigned)strtoul(p + 1, &end, 10);
        if (*end != ':')
            return NULL;
        b = (unsigned)strtoul(end + 1, &end, 10);
        if (*end != ']' || b < a)
            return NULL;
        end++;
    } else {
        a = b = (unsigned)strtoul(p, &end, 10);
    }
    unsigned w = b - a, na = below(r, limit - w);
    char reg[32];
    if (*p == '[')
        snprintf(reg, sizeof reg, "[%u:%u]", na, na + w);
    else
        snprintf(reg, sizeof reg, "%u", na);
    size_t head = (size_t)(p - text), tail = strlen(end);
    char *out = malloc(head + strlen(reg) + tail + 1);
    ck_assert_ptr_nonnull(out);
    memcpy(out, text, head);
    strcpy(out + head, reg);
    strcat(out, end);
    return out;
}

static void hex(const uint8_t *b, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        out += sprintf(out, "%s%02x", i ? " " : "", b[i]);
    *out = 0;
}

typedef struct diff_result {
    size_t candidates, valid, rejected, different, skipped;
    size_t hw_rule; /* valid for llvm-mc, rejected by rdx by a hardware rule llvm-mc lacks */
    size_t crashes; /* encodings llvm-mc --disassemble crashed on (LLVM 22), dropped */
    size_t mutants, mutant_accepted, mutant_bad; /* register mutants of valid lines */
} diff_result;

/* Whether llvm-mc's bytes break an operand rule llvm-mc does not enforce (rdx_isa_check:
   wmma-overlap) and rdx's rejection `why` names that rule: a deliberate difference
   (docs/asm.md), counted, not a failure. */
static bool hw_rule_rejection(const rdx_isa_target *t, const uint8_t *b, size_t n, const char *why)
{
    rdx_isa_inst dec;
    size_t len;
    rdx_isa_rule rule;
    if (rdx_isa_decode(t, b, n, &dec, &len) != RDX_OK ||
        rdx_isa_check(t, &dec, 0, &rule) == RDX_OK || rdx_isa_rule_llvm(rule))
        return false;
    char tag[64];
    snprintf(tag, sizeof tag, "[rule %s]", rdx_isa_rule_name(rule));
    return strstr(why, tag) != NULL;
}

/* Run the differential test on `t` until `count` valid lines were checked. */
static diff_result run_target(const rdx_isa_target *t, uint64_t seed, size_t count, int major,
                              FILE *log)
{
    const char *mc = isa_mc_path(major);
    target_ops to;
    collect_ops(t, &to);
    rng r = { seed };
    for (const char *p = t->name; *p; p++) /* one stream per target */
        r.s = r.s * 31 + (uint8_t)*p;
    diff_result res = { 0 };
    size_t shown = 0;
    while (res.valid < count) {
        size_t want = count - res.valid, nc = want * 2 + 64;
        if (nc > 40000)
            nc = 40000;
        cand *c = calloc(nc, sizeof *c);
        vline *lines = calloc(nc, sizeof *lines);
        ck_assert(c && lines);
        size_t k = 0;
        while (k < nc) {
            unsigned enc;
            if (!random_inst(&r, t, &to, c[k].b, &c[k].len, &enc))
                continue;
            if (below(&r, 2))
                mutate(&r, t, enc, c[k].b, &c[k].len);
            k++;
        }
        res.candidates += nc;
        size_t n = disassemble(mc, t, c, nc, lines, &res.crashes);
        n = reassemble(mc, t, lines, n);
        for (size_t i = 0; i < n && res.valid < count; i++) {
            uint8_t out[RDX_ISA_MAX_BYTES];
            size_t len = 0;
            /* llvm-mc 19 prints and re-assembles a DPP instruction whose source is
               the literal code (255) with no literal dword: not a valid line (rdx
               rejects a literal with DPP; docs/asm.md) */
            rdx_isa_inst dec;
            if (rdx_isa_decode(t, lines[i].b, lines[i].len, &dec, &len) != RDX_OK &&
                strstr(rdx_error_message(), "literal with DPP")) {
                res.skipped++;
                continue;
            }
            rdx_status st = rdx_asm_assemble_inst(t, lines[i].text, out, &len);
            bool same = st == RDX_OK && len == lines[i].len && memcmp(out, lines[i].b, len) == 0;
            res.valid++;
            if (!same && st != RDX_OK &&
                hw_rule_rejection(t, lines[i].b, lines[i].len, rdx_error_message())) {
                res.hw_rule++;
                continue;
            }
            if (!same) {
                char want_hex[RDX_ISA_MAX_BYTES * 3 + 1], got_hex[RDX_ISA_MAX_BYTES * 3 + 1];
                hex(lines[i].b, lines[i].len, want_hex);
                hex(out, st == RDX_OK ? len : 0, got_hex);
                char msg[1024];
                if (st != RDX_OK) {
                    res.rejected++;
                    snprintf(msg, sizeof msg, "%s\trejected\t%s\t%s\t%s", t->name, lines[i].text,
                             want_hex, rdx_error_message());
                } else {
                    res.different++;
                    snprintf(msg, sizeof msg, "%s\tdifferent\t%s\t%s\t%s", t->name, lines[i].text,
                             want_hex, got_hex);
                }
                if (shown++ < SHOW_MAX)
                    printf("asm-diff seed 0x%" PRIx64 ": %s\n", seed, msg);
                if (log)
                    fprintf(log, "%s\n", msg);
            }
        }
        /* mutants (a register renumbered, or the suffix dropped): llvm-mc decides
           which are valid (operand constraints: alignment, overlaps, banks,
           constant bus) and which form a suffix-less line takes; rdx must accept
           exactly those, with llvm-mc's bytes, and reject the rest */
        char **mut = calloc(n + 1, sizeof *mut);
        size_t nm = 0;
        ck_assert_ptr_nonnull(mut);
        for (size_t i = 0; i < n; i++) {
            /* a third of them without the encoding suffix: the assembler picks
               the form (e64 for 16-bit operands above v127 ...) */
            char *m = NULL;
            if (below(&r, 3) == 0)
                m = suffix_mutant(lines[i].text);
            if (!m)
                m = register_mutant(&r, lines[i].text);
            if (m)
                mut[nm++] = m;
        }
        bool *ok = calloc(nm + 1, sizeof *ok);
        uint8_t(*mb)[RDX_ISA_MAX_BYTES] = calloc(nm + 1, sizeof *mb);
        size_t *ml = calloc(nm + 1, sizeof *ml);
        ck_assert(ok && mb && ml);
        if (nm)
            isa_mc_assemble_lines(mc, t, mut, nm, ok, mb, ml);
        for (size_t i = 0; i < nm; i++) {
            uint8_t out[RDX_ISA_MAX_BYTES];
            size_t len = 0;
            rdx_isa_inst dec;
            res.mutants++;
            res.mutant_accepted += ok[i];
            if (ok[i] && rdx_isa_decode(t, mb[i], ml[i], &dec, &len) != RDX_OK &&
                strstr(rdx_error_message(), "literal with DPP")) {
                res.skipped++;
                free(mut[i]);
                continue;
            }
            rdx_status st = rdx_asm_assemble_inst(t, mut[i], out, &len);
            bool same =
                ok[i] ? st == RDX_OK && len == ml[i] && !memcmp(out, mb[i], len) : st != RDX_OK;
            if (!same && ok[i] && st != RDX_OK &&
                hw_rule_rejection(t, mb[i], ml[i], rdx_error_message())) {
                res.hw_rule++;
                same = true;
            }
            if (!same) {
                char want_hex[RDX_ISA_MAX_BYTES * 3 + 1], got_hex[RDX_ISA_MAX_BYTES * 3 + 1];
                hex(mb[i], ok[i] ? ml[i] : 0, want_hex);
                hex(out, st == RDX_OK ? len : 0, got_hex);
                char msg[1024];
                snprintf(msg, sizeof msg, "%s	mutant	%s	%s	%s", t->name, mut[i],
                         ok[i] ? want_hex : "llvm-mc rejects it",
                         st == RDX_OK ? got_hex : rdx_error_message());
                res.mutant_bad++;
                if (shown++ < SHOW_MAX)
                    printf("asm-diff seed 0x%" PRIx64 ": %s\n", seed, msg);
                if (log)
                    fprintf(log, "%s\n", msg);
            }
            free(mut[i]);
        }
        free(mut);
        free(ok);
        free(mb);
        free(ml);
        for (size_t i = 0; i < n; i++)
            free(lines[i].text);
        free(lines);
        free(c);
    }
    free(to.pairs);
    return res;
}

static uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtoull(v, NULL, 0) : dflt;
}

START_TEST(asm_diff_random_llvm_lines)
{
    uint64_t seed = env_u64("RDX_ASMDIFF_SEED", DEFAULT_SEED);
    size_t count = (size_t)env_u64("RDX_ASMDIFF_COUNT", DEFAULT_COUNT);
    int major = (int)env_u64("RDX_ASMDIFF_LLVM", 19);
    const char *only = getenv("RDX_ASMDIFF_TARGETS");
    const char *logpath = getenv("RDX_ASMDIFF_LOG");
    FILE *log = logpath && *logpath ? fopen(logpath, "w") : NULL;
    size_t bad = 0;
    for (size_t ti = 0; ti < rdx_isa_target_count(); ti++) {
        const rdx_isa_target *t = rdx_isa_target_at(ti);
        if (only && *only) {
            const char *p = strstr(only, t->name);
            size_t nl = strlen(t->name);
            if (!p || (p != only && p[-1] != ',') || (p[nl] && p[nl] != ','))
                continue;
        }
        diff_result res = run_target(t, seed, count, major, log);
        printf("asm-diff %s (llvm-mc %d, seed 0x%" PRIx64 "): %zu valid lines of %zu random "
               "encodings: %zu rejected, %zu different (%zu DPP lines with a dropped literal "
               "skipped)\n",
               t->name, major, seed, res.valid, res.candidates, res.rejected, res.different,
               res.skipped);
        if (res.hw_rule)
            printf("asm-diff %s: %zu lines valid for llvm-mc rejected by rdx for a hardware rule "
                   "llvm-mc does not enforce (wmma-overlap; deliberate)\n",
                   t->name, res.hw_rule);
        if (res.crashes)
            printf("asm-diff %s: %zu encodings crashed llvm-mc --disassemble (dropped)\n", t->name,
                   res.crashes);
        printf("asm-diff %s: %zu mutants of those lines (%zu valid for llvm-mc): %zu "
               "accepted or rejected otherwise than llvm-mc\n",
               t->name, res.mutants, res.mutant_accepted, res.mutant_bad);
        fflush(stdout);
        bad += res.rejected + res.different + res.mutant_bad;
    }
    if (log)
        fclose(log);
    ck_assert_msg(bad == 0,
                  "%zu random llvm-mc lines rdx assembles differently (seed 0x%" PRIx64
                  "; rerun with RDX_ASMDIFF_SEED)",
                  bad, seed);
}
END_TEST

void isa_add_asmdiff_tests(Suite *s)
{
    TCase *tc = tcase_create("asmdiff");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, asm_diff_random_llvm_lines);
    suite_add_tcase(s, tc);
}
