/* isa/isa_encode.c — rdx_isa_inst -> machine code, checking every operand. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rdx/isa.h>

#include "isa/isa_codec.h"
#include "util/error.h"

typedef struct enc {
    const rdx_isa_target *t;
    const isa_family *fam;
    const rdx_isa_inst *in;
    const char *name;
    uint32_t w[ISA_MAX_WORDS];
    bool has_lit;
    uint32_t lit;
    unsigned extra_words; /* NSA address dwords (MIMG) */
    bool all;             /* rdx_isa_encode_checked: every rule of `flags` */
    unsigned flags;       /* its rdx_isa_check flags */
    bool checked;         /* the rules ran at the encoder's point */
    bool later;           /* ...and broke one the encoder alone does not check */
} enc;

static rdx_status bad_opnd(const enc *e, unsigned i, const rdx_isa_opnd_info *si, rdx_status st,
                           const char *what)
{
    return rdx_fail(st, "%s: operand %u (%s): %s", e->name, i, rdx_isa_role_name(si->role), what);
}

/* bad_opnd with a formatted message (out of line: the hot paths keep no message buffer). */
static rdx_status __attribute__((noinline, cold, format(printf, 5, 6)))
bad_opndf(const enc *e, unsigned i, const rdx_isa_opnd_info *si, rdx_status st, const char *fmt,
          ...)
{
    char msg[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return bad_opnd(e, i, si, st, msg);
}

/* Take a literal value; only one distinct value per instruction. */
static rdx_status take_literal(enc *e, unsigned i, const rdx_isa_opnd_info *si, uint32_t v)
{
    if (e->has_lit && e->lit != v)
        return bad_opnd(e, i, si, RDX_ERR_INVALID,
                        "a second distinct literal (only one 32-bit literal per instruction)");
    e->has_lit = true;
    e->lit = v;
    return RDX_OK;
}

/* check_range's verdict on a range it found wrong (out of line: the check itself is on
   every register operand's path). */
static rdx_status __attribute__((noinline, cold)) range_error(const enc *e, unsigned i,
                                                              const rdx_isa_opnd_info *si,
                                                              const rdx_isa_opnd *o,
                                                              unsigned expect)
{
    char msg[160];
    unsigned c = o->count;
    bool lanemask = si->fmt == RDX_ISA_FMT_LANEMASK;
    if (c == 0) {
        snprintf(msg, sizeof msg, "register count 0 (expected %u)", expect ? expect : 1);
        return bad_opnd(e, i, si, RDX_ERR_INVALID, msg);
    }
    if (expect && c != expect && !(lanemask && c == 2)) {
        snprintf(msg, sizeof msg, "%s range of %u registers, expected %u", isa_kind_name(o->kind),
                 c, expect);
        return bad_opnd(e, i, si, RDX_ERR_INVALID, msg);
    }
    unsigned limit = o->kind == RDX_ISA_OPND_SGPR ? 106 : o->kind == RDX_ISA_OPND_TTMP ? 16 : 256;
    if (o->kind == RDX_ISA_OPND_SPECIAL)
        return RDX_OK;
    if ((unsigned)o->reg + c > limit) {
        snprintf(msg, sizeof msg, "register %u..%u out of range (max %u)", o->reg, o->reg + c - 1,
                 limit - 1);
        return bad_opnd(e, i, si, RDX_ERR_RANGE, msg);
    }
    if (o->kind == RDX_ISA_OPND_TTMP && c == 3)
        return bad_opnd(e, i, si, RDX_ERR_INVALID, "no 3-register TTMP ranges");
    if (o->kind != RDX_ISA_OPND_VGPR) {
        unsigned align = c >= 3 ? 4 : c == 2 ? 2 : 1;
        if (o->reg % align) {
            snprintf(msg, sizeof msg,
                     "misaligned %s range starting at %u (must be a multiple of %u) [rule %s]",
                     o->kind == RDX_ISA_OPND_SGPR ? "SGPR" : "TTMP", o->reg, align,
                     rdx_isa_rule_name(RDX_ISA_RULE_SGPR_ALIGN));
            return bad_opnd(e, i, si, RDX_ERR_INVALID, msg);
        }
    }
    return RDX_OK;
}

/* Check a register range: count, bounds and alignment. */
static inline rdx_status check_range(const enc *e, unsigned i, const rdx_isa_opnd_info *si,
                                     const rdx_isa_opnd *o, unsigned expect)
{
    unsigned c = o->count;
    if (c == 0 || (expect && c != expect && !(si->fmt == RDX_ISA_FMT_LANEMASK && c == 2)))
        return range_error(e, i, si, o, expect);
    if (o->kind == RDX_ISA_OPND_SPECIAL)
        return RDX_OK;
    unsigned limit = o->kind == RDX_ISA_OPND_SGPR ? 106 : o->kind == RDX_ISA_OPND_TTMP ? 16 : 256;
    if ((unsigned)o->reg + c > limit)
        return range_error(e, i, si, o, expect);
    if (o->kind != RDX_ISA_OPND_VGPR) {
        /* pairs even, 3+ registers (RDNA4's s_load_b96) on multiples of 4;
           there are no 3-register TTMP ranges (as llvm-mc) */
        unsigned align = c >= 3 ? 4 : c == 2 ? 2 : 1;
        if (o->reg % align || (c == 3 && o->kind == RDX_ISA_OPND_TTMP))
            return range_error(e, i, si, o, expect);
    }
    return RDX_OK;
}

/* Operand -> 9-bit source code (or 8-bit when !vgpr_ok). */
static inline __attribute__((always_inline)) rdx_status src_code(enc *e, unsigned i,
                                                                 const rdx_isa_opnd_info *si,
                                                                 const rdx_isa_opnd *o,
                                                                 unsigned expect, bool vgpr_ok,
                                                                 unsigned *code)
{
    rdx_status st;
    switch (o->kind) {
    case RDX_ISA_OPND_SGPR:
        if ((st = check_range(e, i, si, o, expect)))
            return st;
        *code = o->reg;
        return RDX_OK;
    case RDX_ISA_OPND_TTMP:
        if ((st = check_range(e, i, si, o, expect)))
            return st;
        *code = 108u + o->reg;
        return RDX_OK;
    case RDX_ISA_OPND_VGPR:
        if (!vgpr_ok)
            return bad_opnd(e, i, si, RDX_ERR_INVALID, "a VGPR where only scalar operands fit");
        if ((st = check_range(e, i, si, o, expect)))
            return st;
        *code = 256u + o->reg;
        return RDX_OK;
    case RDX_ISA_OPND_SPECIAL:
        if (!isa_special_known(o->reg)) {
            return bad_opndf(e, i, si, RDX_ERR_INVALID, "unknown special register code %u", o->reg);
        }
        if ((st = check_range(e, i, si, o, expect)))
            return st;
        *code = o->reg;
        return RDX_OK;
    case RDX_ISA_OPND_INT:
        if (o->value < -16 || o->value > 64) {
            return bad_opndf(e, i, si, RDX_ERR_RANGE, "inline integer %d out of range -16..64",
                             (int)o->value);
        }
        *code = o->value >= 0 ? 128u + (unsigned)o->value : 192u + (unsigned)(-o->value);
        return RDX_OK;
    case RDX_ISA_OPND_FLOAT:
        if (o->value < 0 || o->value >= RDX_ISA_FCONST_COUNT) {
            return bad_opndf(e, i, si, RDX_ERR_RANGE, "inline float code %d out of range",
                             (int)o->value);
        }
        *code = 240u + (unsigned)o->value;
        return RDX_OK;
    case RDX_ISA_OPND_LITERAL:
        if ((st = take_literal(e, i, si, (uint32_t)o->value)))
            return st;
        *code = ISA_SRC_LITERAL;
        return RDX_OK;
    default:
        return bad_opnd(e, i, si, RDX_ERR_INVALID, "not a source operand");
    }
}

static rdx_status put_field(enc *e, unsigned i, const rdx_isa_opnd_info *si, const isa_field *f,
                            int64_t v, bool is_signed)
{
    if (!f->width)
        return bad_opnd(e, i, si, RDX_ERR_INVALID, "field missing in this encoding");
    int64_t lo = is_signed ? -((int64_t)1 << (f->width - 1)) : 0;
    int64_t hi = is_signed ? ((int64_t)1 << (f->width - 1)) - 1 : ((int64_t)1 << f->width) - 1;
    if (v < lo || v > hi) {
        return bad_opndf(e, i, si, RDX_ERR_RANGE, "value %lld out of range %lld..%lld",
                         (long long)v, (long long)lo, (long long)hi);
    }
    isa_put(e->w, f->lo, f->width, (uint32_t)v);
    return RDX_OK;
}

static bool kind_ok(const rdx_isa_opnd_info *si, unsigned kind)
{
    return kind < RDX_ISA_OPND_KIND_COUNT && (si->kinds & RDX_ISA_KIND_BIT(kind));
}

/* Encode one operand slot. */
static inline __attribute__((always_inline)) rdx_status
enc_slot(enc *e, const isa_row *row, const isa_layout *L, unsigned i, const rdx_isa_opnd_info *si,
         const isa_slot *sl, const rdx_isa_opnd *o, rdx_isa_form form)
{
    rdx_status st;
    if (!kind_ok(si, o->kind) && !(sl->how == HOW_SBASE && o->kind == RDX_ISA_OPND_SPECIAL)) {
        return bad_opndf(e, i, si, RDX_ERR_INVALID, "%s is not accepted here",
                         isa_kind_name(o->kind));
    }
    const isa_field *f = &L->f[sl->fld];
    unsigned expect = isa_expect_count_fast(row, si, e->in);
    unsigned code = 0;
    switch (sl->how) {
    case HOW_SRC: {
        bool vgpr_ok = f->width == 9;
        if (sl->fld == FLD_SRC1 && !(e->t->features & RDX_ISA_FEATURE_DPP_SRC1_SGPR) &&
            (form == RDX_ISA_FORM_E64_DPP16 || form == RDX_ISA_FORM_E64_DPP8) &&
            o->kind != RDX_ISA_OPND_VGPR)
            return bad_opnd(e, i, si, RDX_ERR_INVALID, "VOP3 DPP on gfx110x needs a VGPR src1");
        if ((st = src_code(e, i, si, o, expect, vgpr_ok, &code)))
            return st;
        /* a scalar destination in a source-coded field (v_readfirstlane_b32's e64
           vdst) takes src_scc but no other register above exec_hi, as llvm-mc */
        if ((si->role == RDX_ISA_ROLE_VDST || si->role == RDX_ISA_ROLE_SDST) && code > 127 &&
            code < 256 && code != RDX_ISA_REG_SCC)
            return bad_opnd(e, i, si, RDX_ERR_INVALID,
                            "needs an SGPR, TTMP, vcc, null, m0 or exec register");
        if (sl->fld == FLD_SRC0 && (isa_is_dpp16(form) || isa_is_dpp8(form))) {
            if (o->kind != RDX_ISA_OPND_VGPR)
                return bad_opnd(e, i, si, RDX_ERR_INVALID, "DPP needs a VGPR as src0");
            const isa_field *vf =
                isa_is_dpp16(form) ? &e->fam->dpp16[FLD_VSRC0] : &e->fam->dpp8[FLD_VSRC0];
            isa_put(e->w, L->bits + vf->lo, vf->width, o->reg);
            code = isa_is_dpp16(form)           ? ISA_SRC_DPP16
                   : e->in->mod[RDX_ISA_MOD_FI] ? ISA_SRC_DPP8_FI
                                                : ISA_SRC_DPP8;
        }
        isa_put(e->w, f->lo, f->width, code);
        return RDX_OK;
    }
    case HOW_SREG:
        if ((st = src_code(e, i, si, o, expect, false, &code)))
            return st;
        /* sgpr fields: s0-s105, vcc, ttmp, null, m0, exec; an 8-bit VALU scalar
           destination also takes src_scc, and a compare's lane mask the
           src_shared/private_base/limit registers, as llvm-mc accepts them */
        if (code > 127 &&
            !(f->width == 8 && (code == RDX_ISA_REG_SCC || (si->fmt == RDX_ISA_FMT_LANEMASK &&
                                                            code >= RDX_ISA_REG_SHARED_BASE &&
                                                            code <= RDX_ISA_REG_PRIVATE_LIMIT))))
            return bad_opnd(e, i, si, RDX_ERR_INVALID,
                            "needs an SGPR, TTMP, vcc, null, m0 or exec register");
        isa_put(e->w, f->lo, f->width, code);
        return RDX_OK;
    case HOW_VGPR:
        if ((st = check_range(e, i, si, o, expect)))
            return st;
        isa_put(e->w, f->lo, f->width, o->reg);
        return RDX_OK;
    case HOW_SBASE:
    case HOW_SRSRC:
    case HOW_SRSRC9: {
        unsigned need = sl->how == HOW_SBASE ? 2 : 4;
        if (o->kind == RDX_ISA_OPND_SPECIAL && si->bits == 64) {
            /* an SMEM base pair may be vcc, exec or null (llvm-mc accepts them) */
            bool pair = o->reg == RDX_ISA_REG_VCC_LO || o->reg == RDX_ISA_REG_EXEC_LO;
            if (!(pair && o->count == 2) && !(o->reg == RDX_ISA_REG_NULL && o->count <= 2))
                return bad_opnd(e, i, si, RDX_ERR_INVALID,
                                "a base pair must be SGPRs, TTMPs, vcc, exec or null");
            isa_put(e->w, f->lo, f->width, o->reg / 2u);
            return RDX_OK;
        }
        if (o->kind == RDX_ISA_OPND_SPECIAL)
            return bad_opnd(e, i, si, RDX_ERR_INVALID, "a special register is not accepted here");
        if ((st = check_range(e, i, si, o, expect)))
            return st;
        unsigned r = o->kind == RDX_ISA_OPND_TTMP ? 108u + o->reg : o->reg;
        if (r % need) {
            return bad_opndf(e, i, si, RDX_ERR_INVALID, "register base %u must be a multiple of %u",
                             o->reg, need);
        }
        isa_put(e->w, f->lo, f->width, sl->how == HOW_SRSRC9 ? r : r / need);
        return RDX_OK;
    }
    case HOW_IMM:
        return put_field(e, i, si, f, o->value, false);
    case HOW_SIMM:
    case HOW_BRANCH:
        return put_field(e, i, si, f, o->value, true);
    case HOW_IMPLICIT:
        if (o->kind != RDX_ISA_OPND_SPECIAL || o->reg != RDX_ISA_REG_VCC_LO ||
            (o->count != 1 && o->count != 2))
            return bad_opnd(e, i, si, RDX_ERR_INVALID, "must be vcc_lo (wave32) or vcc (wave64)");
        return RDX_OK;
    case HOW_K:
        return take_literal(e, i, si, (uint32_t)o->value);
    case HOW_SMEM_OFF: {
        const isa_field *off = &L->f[L->mod[RDX_ISA_MOD_OFFSET]];
        if (o->kind == RDX_ISA_OPND_IMM) {
            if (e->in->mod[RDX_ISA_MOD_OFFSET])
                return bad_opnd(e, i, si, RDX_ERR_INVALID,
                                "immediate offset given both as operand and as offset:");
            isa_put(e->w, f->lo, f->width, RDX_ISA_REG_NULL);
            return put_field(e, i, si, off, o->value, true);
        }
        if ((st = src_code(e, i, si, o, 1, false, &code)))
            return st;
        if (code > 127)
            return bad_opnd(e, i, si, RDX_ERR_INVALID,
                            "soffset needs an SGPR, TTMP, vcc, null, m0 or exec register");
        if (code == RDX_ISA_REG_NULL && e->in->mod[RDX_ISA_MOD_OFFSET])
            return bad_opnd(e, i, si, RDX_ERR_INVALID,
                            "null soffset with an offset: give the offset as the operand");
        isa_put(e->w, f->lo, f->width, code);
        return RDX_OK;
    }
    case HOW_VDSTY: {
        /* vdsty's low bit is implied: the opposite of vdstx's */
        /* the vopd-dst rule (one even, one odd) is rdx_isa_check's, after every slot */
        if ((st = check_range(e, i, si, o, expect)))
            return st;
        isa_put(e->w, f->lo, f->width, o->reg >> 1);
        return RDX_OK;
    }
    case HOW_SADDR:
        if (o->kind == RDX_ISA_OPND_OFF) {
            isa_put(e->w, f->lo, f->width, RDX_ISA_REG_NULL);
            return RDX_OK;
        }
        if ((st = src_code(e, i, si, o, expect, false, &code)))
            return st;
        if (code == RDX_ISA_REG_NULL)
            return bad_opnd(e, i, si, RDX_ERR_INVALID, "write off (RDX_ISA_OPND_OFF), not null");
        if (code > 127)
            return bad_opnd(e, i, si, RDX_ERR_INVALID,
                            "needs an SGPR, TTMP, vcc, m0 or exec register");
        isa_put(e->w, f->lo, f->width, code);
        return RDX_OK;
    case HOW_FLAT_VADDR:
        if (o->kind == RDX_ISA_OPND_OFF)
            return RDX_OK; /* sve stays 0 */
        if ((st = check_range(e, i, si, o, expect)))
            return st;
        isa_put(e->w, f->lo, f->width, o->reg);
        isa_put(e->w, L->f[FLD_SVE].lo, 1, 1);
        return RDX_OK;
    case HOW_BUF_VADDR: {
        bool any = e->in->mod[RDX_ISA_MOD_IDXEN] || e->in->mod[RDX_ISA_MOD_OFFEN];
        if (o->kind == RDX_ISA_OPND_OFF) {
            if (any)
                return bad_opnd(e, i, si, RDX_ERR_INVALID, "off, but idxen/offen is set");
            return RDX_OK;
        }
        if (!any)
            return bad_opnd(e, i, si, RDX_ERR_INVALID, "a VGPR needs idxen or offen");
        if ((st = check_range(e, i, si, o, expect)))
            return st;
        isa_put(e->w, f->lo, f->width, o->reg);
        return RDX_OK;
    }
    case HOW_EXP_SRC: {
        unsigned bit = (unsigned)(si->role - RDX_ISA_ROLE_VSRC0);
        if (o->kind == RDX_ISA_OPND_OFF)
            return RDX_OK;
        if ((st = check_range(e, i, si, o, 1)))
            return st;
        isa_put(e->w, f->lo, f->width, o->reg);
        isa_put(e->w, L->f[FLD_EN].lo + bit, 1, 1);
        return RDX_OK;
    }
    case HOW_ATTR:
        if (o->value < 0 || o->value > 255)
            return bad_opnd(e, i, si, RDX_ERR_RANGE,
                            "attribute out of range (attr*4+chan, 0..255)");
        isa_put(e->w, L->f[FLD_ATTR].lo, L->f[FLD_ATTR].width, (uint32_t)o->value >> 2);
        isa_put(e->w, L->f[FLD_ATTR_CHAN].lo, L->f[FLD_ATTR_CHAN].width, (uint32_t)o->value & 3);
        return RDX_OK;
    default:
        return bad_opnd(e, i, si, RDX_ERR_UNSUPPORTED, "operand encoding not implemented");
    }
}

/*
 * Image address operands: the op, dim and a16 fix the number of addresses
 * (isa_image_addr_count); they are one range (n == 1, non-NSA) or a list of
 * single VGPRs, one per address field, where the last field takes a range when
 * there are more addresses than `nfields`.
 */
static rdx_status check_image_addrs(enc *e, const isa_row *row, unsigned i,
                                    const rdx_isa_opnd_info *si, const rdx_isa_opnd *o, unsigned n,
                                    unsigned nfields)
{
    rdx_status st;
    char msg[128];
    unsigned na = isa_image_addr_count(row, e->in);
    for (unsigned k = 0; k < n; k++)
        if (o[k].kind != RDX_ISA_OPND_VGPR)
            return bad_opnd(e, i + k, si, RDX_ERR_INVALID, "image addresses must be VGPRs");
    if (n == 1)
        return check_range(e, i, si, &o[0], na);
    uint8_t counts[5];
    unsigned want = isa_image_fields(row, e->in, nfields, counts);
    if (n != want) {
        snprintf(msg, sizeof msg, "%u address operands, expected %u (%u addresses)", n, want, na);
        return bad_opnd(e, i, si, RDX_ERR_INVALID, msg);
    }
    for (unsigned k = 0; k < n; k++)
        if ((st = check_range(e, i + k, si, &o[k], counts[k])))
            return st;
    return RDX_OK;
}

/* MIMG vaddr: a contiguous range, or (NSA) a list of up to five VGPR operands
 * (the first in vaddr, the rest in one extra dword; the last may be a range). */
static rdx_status enc_mimg_vaddr(enc *e, const isa_row *row, const isa_layout *L, unsigned i,
                                 const rdx_isa_opnd_info *si, const rdx_isa_opnd *o, unsigned n)
{
    rdx_status st;
    if ((st = check_image_addrs(e, row, i, si, o, n, 5)))
        return st;
    isa_put(e->w, L->f[FLD_VADDR].lo, 8, o[0].reg);
    if (n > 1) {
        isa_put(e->w, L->f[FLD_NSA].lo, L->f[FLD_NSA].width, 1);
        for (unsigned k = 1; k < n; k++)
            isa_put(e->w, (unsigned)L->bits + 8 * (k - 1), 8, o[k].reg);
        e->extra_words = 1;
    }
    return RDX_OK;
}

/* RDNA4 image addresses: vaddr0..4 fields (VSAMPLE: vaddr0..3), one operand
 * each (isa_image_fields gives their sizes). */
static rdx_status enc_vimg_vaddr(enc *e, const isa_row *row, const isa_layout *L, unsigned i,
                                 const rdx_isa_opnd_info *si, const rdx_isa_opnd *o, unsigned n)
{
    static const uint8_t flds[5] = { FLD_VADDR0, FLD_VADDR1, FLD_VADDR2, FLD_VADDR3, FLD_VADDR4 };
    unsigned nf = L->f[FLD_VADDR4].width ? 5 : 4;
    rdx_status st;
    if ((st = check_image_addrs(e, row, i, si, o, n, nf)))
        return st;
    if (n == 1 && o[0].count > 1)
        return bad_opnd(e, i, si, RDX_ERR_INVALID,
                        "RDNA4 image addresses are one operand per address field");
    for (unsigned k = 0; k < n; k++)
        isa_put(e->w, L->f[flds[k]].lo, 8, o[k].reg);
    return RDX_OK;
}

/* Whether every modifier of `in` is 0 (most instructions): one comparison instead of a
   walk over RDX_ISA_MOD_COUNT slots. */
static bool no_mods(const rdx_isa_inst *in)
{
    static const int32_t zero[RDX_ISA_MOD_COUNT];
    return !memcmp(in->mod, zero, sizeof zero);
}

static rdx_status enc_mods(enc *e, const isa_row *row, const isa_layout *L, rdx_isa_form form)
{
    const rdx_isa_inst *in = e->in;
    char msg[160];
    if (no_mods(in))
        return RDX_OK;
    for (unsigned m = 0; m < RDX_ISA_MOD_COUNT; m++) {
        int32_t v = in->mod[m];
        if (!v)
            continue;
        const isa_field *f;
        unsigned base;
        if (!isa_mod_ok(e->fam, row, form, (rdx_isa_mod)m, &f, &base))
            return rdx_fail(RDX_ERR_INVALID, "%s: modifier %s not available in the %s form",
                            e->name, rdx_isa_mod_name((rdx_isa_mod)m), rdx_isa_form_name(form));
        if (f) {
            int64_t lo = f->sign ? -((int64_t)1 << (f->width - 1)) : 0;
            int64_t hi =
                f->sign ? ((int64_t)1 << (f->width - 1)) - 1 : ((int64_t)1 << f->width) - 1;
            if (v < lo || v > hi)
                return rdx_fail(RDX_ERR_RANGE, "%s: modifier %s value %d out of range %lld..%lld",
                                e->name, rdx_isa_mod_name((rdx_isa_mod)m), (int)v, (long long)lo,
                                (long long)hi);
            isa_put(e->w, base + f->lo, f->width, (uint32_t)v);
            continue;
        }
        /* modifiers without a single plain field */
        uint32_t u = (uint32_t)v;
        switch (m) {
        case RDX_ISA_MOD_NEG:
        case RDX_ISA_MOD_ABS: {
            if (u > 3)
                goto range;
            bool neg = m == RDX_ISA_MOD_NEG;
            const isa_field *f0 = &e->fam->dpp16[neg ? FLD_SRC0_NEG : FLD_SRC0_ABS];
            const isa_field *f1 = &e->fam->dpp16[neg ? FLD_SRC1_NEG : FLD_SRC1_ABS];
            isa_put(e->w, L->bits + f0->lo, 1, u & 1);
            isa_put(e->w, L->bits + f1->lo, 1, (u >> 1) & 1);
            break;
        }
        case RDX_ISA_MOD_OP_SEL_HI:
            if (u > 7)
                goto range;
            isa_put(e->w, L->f[FLD_OPSEL_HI].lo, 2, u & 3);
            isa_put(e->w, L->f[FLD_OPSEL_HI2].lo, 1, u >> 2);
            break;
        case RDX_ISA_MOD_DPP8:
            if (u > 0xffffff)
                goto range;
            isa_put(e->w, L->bits + e->fam->dpp8[FLD_LANE_SEL_0].lo, 24, u);
            break;
        case RDX_ISA_MOD_FI:
            if (u > 1)
                goto range;
            break;               /* DPP8: carried by the src0 marker */
        case RDX_ISA_MOD_OFFSET: /* DS single-address: offset1:offset0 */
            if (u > 0xffff)
                goto range;
            isa_put(e->w, L->f[FLD_OFFSET0].lo, 8, u & 0xff);
            isa_put(e->w, L->f[FLD_OFFSET1].lo, 8, u >> 8);
            break;
        default:
            return rdx_fail(RDX_ERR_UNSUPPORTED, "%s: modifier %s not encodable", e->name,
                            rdx_isa_mod_name((rdx_isa_mod)m));
        }
        continue;
    range:
        snprintf(msg, sizeof msg, "%s: modifier %s value %d out of range", e->name,
                 rdx_isa_mod_name((rdx_isa_mod)m), (int)v);
        return rdx_fail(RDX_ERR_RANGE, "%s", msg);
    }
    return RDX_OK;
}

static rdx_status finish(enc *e, unsigned base_bytes, bool dpp, uint8_t *out, size_t *len)
{
    size_t n = base_bytes + (dpp ? 4 : 0) + 4 * e->extra_words;
    if (e->has_lit) {
        if (dpp)
            return rdx_fail(RDX_ERR_INVALID, "%s: a literal cannot be used with DPP", e->name);
        e->w[n / 4] = e->lit;
        n += 4;
    }
    if (n > RDX_ISA_MAX_BYTES)
        return rdx_fail(RDX_ERR_RANGE, "%s: encoding longer than %d bytes", e->name,
                        RDX_ISA_MAX_BYTES);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(out, e->w, n); /* the words are little-endian already */
#else
    for (size_t k = 0; k < n; k++)
        out[k] = (uint8_t)(e->w[k / 4] >> (8 * (k % 4)));
#endif
    *len = n;
    return RDX_OK;
}

/*
 * The operand rules at the encoder's point (isa/isa_check.c): rdx_isa_encode checks the
 * rules llvm-mc enforces.  rdx_isa_encode_checked checks every rule of its flags here, in
 * one rdx_isa_check; a rule the encoder alone does not check (vgpr16-e32 with register
 * numbers, wmma-overlap: the last ones rdx_isa_check tries) is reported only once the
 * encoding has succeeded, as a check after rdx_isa_encode would report it.
 */
static rdx_status enc_rules(enc *e)
{
    if (!e->all)
        return rdx_isa_check(e->t, e->in, RDX_ISA_CHECK_LLVM_ONLY, NULL);
    rdx_isa_rule rule;
    rdx_status st = rdx_isa_check(e->t, e->in, e->flags, &rule);
    e->checked = true;
    if (st && (rule == RDX_ISA_RULE_VGPR16_E32 || rule == RDX_ISA_RULE_WMMA_OVERLAP)) {
        e->later = true;
        return RDX_OK;
    }
    return st;
}

static rdx_status enc_vopd(enc *e, const isa_row *rx, uint8_t *out, size_t *len)
{
    const rdx_isa_inst *in = e->in;
    const isa_row *ry = isa_row_of(e->t, (rdx_isa_op)in->op_y, RDX_ISA_FORM_NATIVE);
    const char *ny = rdx_isa_op_name((rdx_isa_op)in->op_y);
    if (!ry || ry->enc != RDX_ISA_ENC_VOPD)
        return rdx_fail(RDX_ERR_INVALID, "%s: VOPD second op %s is not a VOPD op on %s", e->name,
                        ny ? ny : "(none)", e->t->name);
    const isa_layout *L = &e->fam->layouts[RDX_ISA_ENC_VOPD];
    const isa_field *fx = &L->f[FLD_OPX];
    if (rx->opcode >= (1u << fx->width))
        return rdx_fail(RDX_ERR_INVALID, "%s: cannot be the first (X) op of a VOPD pair", e->name);
    unsigned nx = rx->nx, ny_ = (unsigned)(ry->nopnd - ry->nx);
    if (in->nx != nx || in->nopnd != nx + ny_)
        return rdx_fail(RDX_ERR_INVALID, "%s :: %s: expects %u + %u operands, got nx=%u nopnd=%u",
                        e->name, ny, nx, ny_, in->nx, in->nopnd);
    for (unsigned m = 0; m < RDX_ISA_MOD_COUNT && !no_mods(in); m++)
        if (in->mod[m])
            return rdx_fail(RDX_ERR_INVALID, "%s: VOPD takes no modifier (%s given)", e->name,
                            rdx_isa_mod_name((rdx_isa_mod)m));
    e->w[0] = L->val;
    isa_put(e->w, fx->lo, fx->width, rx->opcode);
    isa_put(e->w, L->f[FLD_OPY].lo, L->f[FLD_OPY].width, ry->opcode);
    rdx_status st;
    for (unsigned i = 0; i < nx; i++) {
        const rdx_isa_opnd_info *si = &isa_slot_info[rx->first + i];
        if ((st = enc_slot(e, rx, L, i, si, &isa_slot_enc[rx->first + i], &in->opnd[i],
                           RDX_ISA_FORM_NATIVE)))
            return st;
    }
    for (unsigned i = 0; i < ny_; i++) {
        unsigned s = ry->first + ry->nx + i;
        e->name = ny;
        if ((st = enc_slot(e, ry, L, nx + i, &isa_slot_info[s], &isa_slot_enc[s], &in->opnd[nx + i],
                           RDX_ISA_FORM_NATIVE)))
            return st;
    }
    /* destination parity, VGPR banks, the pair's constant bus (isa/isa_check.c) */
    if ((st = enc_rules(e)))
        return st;
    return finish(e, L->bits / 8, false, out, len);
}

/* After a successful encoding: the rule enc_rules kept for later, or every rule when the
   encoder had no reason to check (not a VALU or VOPD instruction). */
static rdx_status checked_tail(const enc *e, rdx_status st)
{
    if (st || !e->all || (e->checked && !e->later))
        return st;
    return rdx_isa_check(e->t, e->in, e->flags, NULL);
}

/* rdx_isa_encode; with `all`, every operand rule of `flags` too (rdx_isa_encode_checked). */
static rdx_status encode(const rdx_isa_target *t, const rdx_isa_inst *in, bool all, unsigned flags,
                         uint8_t out[RDX_ISA_MAX_BYTES], size_t *len)
{
    if (in->op == 0 || in->op >= RDX_ISA_OP_COUNT)
        return rdx_fail(RDX_ERR_INVALID, "rdx_isa_encode: op %u out of range", in->op);
    const char *name = isa_op_names[in->op];
    if (!isa_op_avail(t, in->op))
        return rdx_fail(RDX_ERR_UNSUPPORTED, "%s: not available on %s", name, t->name);
    rdx_isa_form form = (rdx_isa_form)in->form;
    const isa_row *row = isa_row_of(t, (rdx_isa_op)in->op, form);
    if (!row)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "%s: no %s form on %s", name, rdx_isa_form_name(form),
                        t->name);
    if (form == RDX_ISA_FORM_AUTO)
        form = (rdx_isa_form)row->form;
    enc e;
    memset(&e, 0, sizeof e);
    e.t = t;
    e.fam = &isa_families[t->family];
    e.in = in;
    e.name = name;
    e.all = all;
    e.flags = flags;
    if (row->enc == RDX_ISA_ENC_VOPD)
        return checked_tail(&e, enc_vopd(&e, row, out, len));
    if (in->op_y || in->nx)
        return rdx_fail(RDX_ERR_INVALID, "%s: op_y/nx are only for VOPD pairs", name);

    const isa_layout *L = &e.fam->layouts[row->enc];
    bool dpp = isa_is_dpp16(form) || isa_is_dpp8(form);
    if (dpp && row->enc != RDX_ISA_ENC_VOP1 && row->enc != RDX_ISA_ENC_VOP2 &&
        row->enc != RDX_ISA_ENC_VOPC && row->enc != RDX_ISA_ENC_VOP3 &&
        row->enc != RDX_ISA_ENC_VOP3SD && row->enc != RDX_ISA_ENC_VOP3P)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "%s: no DPP form", name);
    unsigned nslots = row->nopnd, nimg = 1, first_slot = 0;
    if ((row->flags & ROW_OPTIMM) && in->nopnd == 0) {
        first_slot = 1; /* immediate omitted: 0 */
        nslots--;
    } else if ((row->flags & ROW_ATOMIC) && !isa_atomic_returns(t, in->mod)) {
        first_slot = 1; /* no return value: no vdst */
        nslots--;
    }
    bool mimg = row->enc == RDX_ISA_ENC_MIMG || row->enc == RDX_ISA_ENC_VIMAGE ||
                row->enc == RDX_ISA_ENC_VSAMPLE;
    if (mimg && in->nopnd >= nslots && in->nopnd <= RDX_ISA_MAX_OPNDS)
        nimg = in->nopnd - nslots + 1;
    else if (in->nopnd != nslots)
        return rdx_fail(RDX_ERR_INVALID, "%s: expects %u operands, got %u", name, nslots,
                        in->nopnd);
    e.w[0] = L->val;
    isa_put(e.w, L->op.lo, L->op.width, row->opcode);
    if (L->f[FLD_SADDR].width) {
        /* rows without a saddr slot (FLAT, global_inv, ...) carry null there */
        bool has = false;
        for (unsigned i = 0; i < row->nopnd; i++)
            has |= isa_slot_enc[row->first + i].how == HOW_SADDR;
        if (!has)
            isa_put(e.w, L->f[FLD_SADDR].lo, L->f[FLD_SADDR].width, RDX_ISA_REG_NULL);
    }
    if (row->flags & ROW_FMT1)
        isa_put(e.w, L->f[FLD_FORMAT].lo, L->f[FLD_FORMAT].width, 1);
    if (row->flags & ROW_CMPX)
        isa_put(e.w, L->f[FLD_VDST].lo, 8, RDX_ISA_REG_EXEC_LO);
    if (isa_bvh_row(row))
        isa_bvh_fixed_bits(e.fam, row, e.w);
    rdx_status st = enc_mods(&e, row, L, form);
    if (st)
        return st;
    unsigned oi = 0;
    for (unsigned i = first_slot; i < row->nopnd; i++) {
        const rdx_isa_opnd_info *si = &isa_slot_info[row->first + i];
        const isa_slot *sl = &isa_slot_enc[row->first + i];
        if (sl->how == HOW_MIMG_VADDR || sl->how == HOW_VIMG_VADDR) {
            st = sl->how == HOW_MIMG_VADDR
                     ? enc_mimg_vaddr(&e, row, L, oi, si, &in->opnd[oi], nimg)
                     : enc_vimg_vaddr(&e, row, L, oi, si, &in->opnd[oi], nimg);
            oi += nimg;
        } else {
            st = enc_slot(&e, row, L, oi, si, sl, &in->opnd[oi], form);
            oi++;
        }
        if (st)
            return st;
    }
    if (row->enc == RDX_ISA_ENC_VOP1 || row->enc == RDX_ISA_ENC_VOP2 ||
        row->enc == RDX_ISA_ENC_VOPC || row->enc == RDX_ISA_ENC_VOP3 ||
        row->enc == RDX_ISA_ENC_VOP3SD || row->enc == RDX_ISA_ENC_VOP3P) {
        /* the constant bus (isa/isa_check.c) */
        if ((st = enc_rules(&e)))
            return st;
    }
    return checked_tail(&e, finish(&e, L->bits / 8, dpp, out, len));
}

rdx_status rdx_isa_encode(const rdx_isa_target *t, const rdx_isa_inst *in,
                          uint8_t out[RDX_ISA_MAX_BYTES], size_t *len)
{
    if (!t || !in || !out || !len)
        return rdx_fail(RDX_ERR_INVALID, "rdx_isa_encode: NULL argument");
    return encode(t, in, false, 0, out, len);
}

rdx_status rdx_isa_encode_checked(const rdx_isa_target *t, const rdx_isa_inst *in, unsigned flags,
                                  uint8_t out[RDX_ISA_MAX_BYTES], size_t *len)
{
    if (!t || !in || !out || !len)
        return rdx_fail(RDX_ERR_INVALID, "rdx_isa_encode_checked: NULL argument");
    if (flags & (RDX_ISA_CHECK_LLVM_ONLY | RDX_ISA_CHECK_SILICON))
        return rdx_fail(RDX_ERR_INVALID,
                        "rdx_isa_encode_checked: flags 0x%x: LLVM_ONLY and SILICON are not "
                        "encoding checks",
                        flags);
    return encode(t, in, true, flags, out, len);
}
