/* isa/isa_decode.c — machine code -> rdx_isa_inst, table-driven. */
#include <string.h>

#include <rdx/isa.h>

#include "isa/isa_codec.h"
#include "util/error.h"

typedef struct dec {
    const rdx_isa_target *t;
    const isa_family *fam;
    const uint8_t *bytes;
    size_t avail;
    uint32_t w[ISA_MAX_WORDS];
    unsigned nwords; /* words loaded */
    rdx_isa_inst *out;
    bool lit_used;
    bool wave64; /* lane masks are SGPR pairs */
} dec;

static rdx_status bad(const dec *d, const char *what)
{
    return rdx_fail(RDX_ERR_PARSE, "decode %s: %s (first dword 0x%08x)", d->t->name, what, d->w[0]);
}

/* Make sure `n` words are loaded; false if the input is too short. */
static bool need_words(dec *d, unsigned n)
{
    if (n > ISA_MAX_WORDS - 1 || (size_t)n * 4 > d->avail)
        return false;
    for (; d->nwords < n; d->nwords++) {
        const uint8_t *p = d->bytes + 4 * d->nwords;
        d->w[d->nwords] =
            (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
    return true;
}

/* Decode one slot into *o.  `lit_at` is the word index where a literal would be. */
static rdx_status dec_slot(dec *d, const isa_row *row, const isa_layout *L,
                           const rdx_isa_opnd_info *si, const isa_slot *sl, rdx_isa_opnd *o,
                           rdx_isa_form form, unsigned lit_at)
{
    const isa_field *f = &L->f[sl->fld];
    unsigned count = isa_expect_count(row, si, d->out);
    if (count == 0)
        count = 1;
    if (si->fmt == RDX_ISA_FMT_LANEMASK)
        count = d->wave64 ? 2 : 1;
    uint32_t v = sl->fld ? isa_get(d->w, f->lo, f->width) : 0;
    memset(o, 0, sizeof *o);
    switch (sl->how) {
    case HOW_SRC:
    case HOW_SREG:
    case HOW_SADDR:
        if (sl->how == HOW_SADDR && v == RDX_ISA_REG_NULL) {
            o->kind = RDX_ISA_OPND_OFF;
            return RDX_OK;
        }
        if (sl->how == HOW_SRC && sl->fld == FLD_SRC0 &&
            (isa_is_dpp16(form) || isa_is_dpp8(form))) {
            const isa_field *vf =
                isa_is_dpp16(form) ? &d->fam->dpp16[FLD_VSRC0] : &d->fam->dpp8[FLD_VSRC0];
            v = 256 + isa_get(d->w, L->bits + vf->lo, vf->width);
        }
        if (sl->how == HOW_SRC && f->width == 8 && v >= 256)
            return bad(d, "scalar source out of range");
        if (!isa_code_to_opnd(v, count, o))
            return bad(d, "invalid operand code");
        if (o->kind == RDX_ISA_OPND_LITERAL) {
            if (isa_is_dpp16(form) || isa_is_dpp8(form))
                return bad(d, "literal with DPP");
            if (!need_words(d, lit_at + 1))
                return bad(d, "truncated literal");
            o->value = (int32_t)d->w[lit_at];
            d->lit_used = true;
        }
        break;
    case HOW_VGPR:
    case HOW_FLAT_VADDR:
        if (sl->how == HOW_FLAT_VADDR && !isa_get(d->w, L->f[FLD_SVE].lo, 1)) {
            o->kind = RDX_ISA_OPND_OFF;
            return RDX_OK;
        }
        o->kind = RDX_ISA_OPND_VGPR;
        o->reg = (uint16_t)v;
        o->count = (uint8_t)count;
        if (v + count > 256)
            return bad(d, "VGPR range past v255");
        break;
    case HOW_SBASE:
    case HOW_SRSRC:
    case HOW_SRSRC9: {
        unsigned r = sl->how == HOW_SBASE ? v * 2 : sl->how == HOW_SRSRC ? v * 4 : v;
        if (sl->how == HOW_SRSRC9 && (r % 4))
            return bad(d, "misaligned resource register");
        if (!isa_code_to_opnd(r, count, o))
            return bad(d, "invalid scalar base register");
        if (o->kind == RDX_ISA_OPND_SPECIAL && sl->how == HOW_SBASE && count == 2 &&
            (r == RDX_ISA_REG_VCC_LO || r == RDX_ISA_REG_NULL || r == RDX_ISA_REG_EXEC_LO))
            o->count = 2; /* SMEM base vcc, null, exec */
        else if (o->kind != RDX_ISA_OPND_SGPR && o->kind != RDX_ISA_OPND_TTMP)
            return bad(d, "invalid scalar base register");
        break;
    }
    case HOW_IMM:
        o->kind = RDX_ISA_OPND_IMM;
        o->value = (int32_t)v;
        break;
    case HOW_SIMM:
    case HOW_BRANCH:
        o->kind = sl->how == HOW_BRANCH ? RDX_ISA_OPND_BRANCH : RDX_ISA_OPND_IMM;
        o->value = (int32_t)(v << (32 - f->width)) >> (32 - f->width);
        break;
    case HOW_IMPLICIT:
        *o = rdx_isa_special(RDX_ISA_REG_VCC_LO, d->wave64 ? 2 : 1);
        break;
    case HOW_K:
        if (!need_words(d, lit_at + 1))
            return bad(d, "truncated literal constant");
        o->kind = RDX_ISA_OPND_LITERAL;
        o->value = (int32_t)d->w[lit_at];
        d->lit_used = true;
        break;
    case HOW_SMEM_OFF: {
        const isa_field *off = &L->f[L->mod[RDX_ISA_MOD_OFFSET]];
        int32_t ov =
            (int32_t)(isa_get(d->w, off->lo, off->width) << (32 - off->width)) >> (32 - off->width);
        if (v == RDX_ISA_REG_NULL && (ov != 0 || d->t->family != RDX_ISA_FAMILY_RDNA3)) {
            /* LLVM prints the offset as the operand (RDNA3 prints a zero one as null) */
            o->kind = RDX_ISA_OPND_IMM;
            o->value = ov;
            d->out->mod[RDX_ISA_MOD_OFFSET] = 0;
        } else {
            if (!isa_code_to_opnd(v, 1, o))
                return bad(d, "invalid SMEM soffset");
            d->out->mod[RDX_ISA_MOD_OFFSET] = ov;
        }
        break;
    }
    case HOW_VDSTY: {
        unsigned x = d->out->opnd[0].reg;
        o->kind = RDX_ISA_OPND_VGPR;
        o->reg = (uint16_t)((v << 1) | ((x & 1) ^ 1));
        o->count = 1;
        break;
    }
    case HOW_BUF_VADDR:
        if (!d->out->mod[RDX_ISA_MOD_IDXEN] && !d->out->mod[RDX_ISA_MOD_OFFEN]) {
            o->kind = RDX_ISA_OPND_OFF;
            return RDX_OK;
        }
        o->kind = RDX_ISA_OPND_VGPR;
        o->reg = (uint16_t)v;
        o->count = (uint8_t)count;
        if (v + count > 256)
            return bad(d, "VGPR range past v255");
        break;
    case HOW_EXP_SRC: {
        unsigned bit = (unsigned)(si->role - RDX_ISA_ROLE_VSRC0);
        if (!isa_get(d->w, L->f[FLD_EN].lo + bit, 1)) {
            o->kind = RDX_ISA_OPND_OFF;
            return RDX_OK;
        }
        o->kind = RDX_ISA_OPND_VGPR;
        o->reg = (uint16_t)v;
        o->count = 1;
        break;
    }
    case HOW_ATTR:
        o->kind = RDX_ISA_OPND_IMM;
        o->value = (int32_t)(isa_get(d->w, L->f[FLD_ATTR].lo, L->f[FLD_ATTR].width) << 2 |
                             isa_get(d->w, L->f[FLD_ATTR_CHAN].lo, L->f[FLD_ATTR_CHAN].width));
        break;
    default:
        return bad(d, "operand encoding not implemented");
    }
    if (!(si->kinds & RDX_ISA_KIND_BIT(o->kind)) &&
        !(sl->how == HOW_SBASE && o->kind == RDX_ISA_OPND_SPECIAL))
        return bad(d, "operand kind not valid for this instruction");
    return RDX_OK;
}

static void dec_mods(dec *d, const isa_row *row, const isa_layout *L, rdx_isa_form form)
{
    rdx_isa_inst *in = d->out;
    bool dpp = isa_is_dpp16(form) || isa_is_dpp8(form);
    /* candidates: the layout's plain fields plus modifiers with their own rule in
     * isa_mod_ok (DPP words, split fields, DS offsets); isa_mod_ok decides */
    uint64_t cand = L->mods;
    if (dpp)
        cand |= 1ull << RDX_ISA_MOD_DPP_CTRL | 1ull << RDX_ISA_MOD_ROW_MASK |
                1ull << RDX_ISA_MOD_BANK_MASK | 1ull << RDX_ISA_MOD_BOUND_CTRL |
                1ull << RDX_ISA_MOD_FI | 1ull << RDX_ISA_MOD_DPP8 | 1ull << RDX_ISA_MOD_NEG |
                1ull << RDX_ISA_MOD_ABS;
    if (L->f[FLD_OPSEL_HI].width)
        cand |= 1ull << RDX_ISA_MOD_OP_SEL_HI;
    if (row->enc == RDX_ISA_ENC_DS)
        cand |= 1ull << RDX_ISA_MOD_OFFSET;
    /* Modifiers without a rule of their own in isa_mod_ok are the layout's plain
     * field (isa_mod_ok's default case): read them directly, the hot path. */
    const uint64_t ruled =
        1ull << RDX_ISA_MOD_DPP_CTRL | 1ull << RDX_ISA_MOD_ROW_MASK |
        1ull << RDX_ISA_MOD_BANK_MASK | 1ull << RDX_ISA_MOD_BOUND_CTRL | 1ull << RDX_ISA_MOD_FI |
        1ull << RDX_ISA_MOD_DPP8 | 1ull << RDX_ISA_MOD_NEG | 1ull << RDX_ISA_MOD_ABS |
        1ull << RDX_ISA_MOD_FORMAT | 1ull << RDX_ISA_MOD_OP_SEL_HI | 1ull << RDX_ISA_MOD_OFFSET |
        1ull << RDX_ISA_MOD_OFFSET0 | 1ull << RDX_ISA_MOD_OFFSET1;
    const uint64_t bvh_fixed = 1ull << RDX_ISA_MOD_DMASK | 1ull << RDX_ISA_MOD_DIM |
                               1ull << RDX_ISA_MOD_UNORM | 1ull << RDX_ISA_MOD_R128;
    uint64_t rule = ruled;
    /* ... and those whose rule comes down to the plain field for this row */
    if (!isa_is_e32_enc(row->enc))
        rule &= ~(1ull << RDX_ISA_MOD_NEG | 1ull << RDX_ISA_MOD_ABS);
    if (!(row->flags & ROW_OFFSET_OPND) && row->enc != RDX_ISA_ENC_DS)
        rule &= ~(1ull << RDX_ISA_MOD_OFFSET);
    if (!(row->flags & ROW_FMT1))
        rule &= ~(1ull << RDX_ISA_MOD_FORMAT);
    uint64_t plain = cand & ~rule;
    if (isa_bvh_row(row))
        plain &= ~bvh_fixed;
    cand &= rule;
    for (; plain; plain &= plain - 1) {
        unsigned m = (unsigned)__builtin_ctzll(plain);
        if (L->mod[m] == FLD_NONE)
            continue;
        const isa_field *f = &L->f[L->mod[m]];
        if (!f->width)
            continue;
        uint32_t v = isa_get(d->w, f->lo, f->width);
        in->mod[m] = f->sign ? (int32_t)(v << (32 - f->width)) >> (32 - f->width) : (int32_t)v;
    }
    for (; cand; cand &= cand - 1) {
        unsigned m = (unsigned)__builtin_ctzll(cand);
        const isa_field *f;
        unsigned base;
        if (!isa_mod_ok(d->fam, row, form, (rdx_isa_mod)m, &f, &base))
            continue;
        if (f) {
            if (!f->width)
                continue;
            uint32_t v = isa_get(d->w, base + f->lo, f->width);
            in->mod[m] = f->sign ? (int32_t)(v << (32 - f->width)) >> (32 - f->width) : (int32_t)v;
            continue;
        }
        switch (m) {
        case RDX_ISA_MOD_NEG:
        case RDX_ISA_MOD_ABS: {
            bool neg = m == RDX_ISA_MOD_NEG;
            const isa_field *f0 = &d->fam->dpp16[neg ? FLD_SRC0_NEG : FLD_SRC0_ABS];
            const isa_field *f1 = &d->fam->dpp16[neg ? FLD_SRC1_NEG : FLD_SRC1_ABS];
            in->mod[m] = (int32_t)(isa_get(d->w, L->bits + f0->lo, 1) |
                                   isa_get(d->w, L->bits + f1->lo, 1) << 1);
            break;
        }
        case RDX_ISA_MOD_OP_SEL_HI:
            in->mod[m] = (int32_t)(isa_get(d->w, L->f[FLD_OPSEL_HI].lo, 2) |
                                   isa_get(d->w, L->f[FLD_OPSEL_HI2].lo, 1) << 2);
            break;
        case RDX_ISA_MOD_DPP8:
            in->mod[m] = (int32_t)isa_get(d->w, L->bits + d->fam->dpp8[FLD_LANE_SEL_0].lo, 24);
            break;
        case RDX_ISA_MOD_FI: /* DPP8 */
            in->mod[m] = isa_get(d->w, L->f[FLD_SRC0].lo, 9) == ISA_SRC_DPP8_FI;
            break;
        case RDX_ISA_MOD_OFFSET: /* DS */
            in->mod[m] = (int32_t)(isa_get(d->w, L->f[FLD_OFFSET0].lo, 8) |
                                   isa_get(d->w, L->f[FLD_OFFSET1].lo, 8) << 8);
            break;
        default:
            break;
        }
    }
}

static rdx_status dec_vopd(dec *d, const isa_layout *L, size_t *len)
{
    rdx_isa_inst *in = d->out;
    const isa_dmap *dm = &d->fam->dmaps[RDX_ISA_ENC_VOPD];
    unsigned ox = isa_get(d->w, L->f[FLD_OPX].lo, L->f[FLD_OPX].width);
    unsigned oy = isa_get(d->w, L->f[FLD_OPY].lo, L->f[FLD_OPY].width);
    if (!dm->map || ox >= dm->size || oy >= dm->size || dm->map[ox] < 0 || dm->map[oy] < 0)
        return bad(d, "unknown VOPD opcode");
    const isa_row *rx = &d->fam->rows[dm->map[ox]], *ry = &d->fam->rows[dm->map[oy]];
    if (!isa_op_avail(d->t, rx->op) || !isa_op_avail(d->t, ry->op))
        return rdx_fail(RDX_ERR_UNSUPPORTED, "decode %s: VOPD op not available on this target",
                        d->t->name);
    in->op = rx->op;
    in->op_y = ry->op;
    in->form = RDX_ISA_FORM_NATIVE;
    in->nx = rx->nx;
    in->nopnd = (uint8_t)(rx->nx + ry->nopnd - ry->nx);
    unsigned lit_at = L->bits / 32;
    rdx_status st;
    for (unsigned i = 0; i < rx->nx; i++)
        if ((st = dec_slot(d, rx, L, &isa_slot_info[rx->first + i], &isa_slot_enc[rx->first + i],
                           &in->opnd[i], RDX_ISA_FORM_NATIVE, lit_at)))
            return st;
    for (unsigned i = 0; i < (unsigned)(ry->nopnd - ry->nx); i++) {
        unsigned s = ry->first + ry->nx + i;
        if ((st = dec_slot(d, ry, L, &isa_slot_info[s], &isa_slot_enc[s], &in->opnd[rx->nx + i],
                           RDX_ISA_FORM_NATIVE, lit_at)))
            return st;
    }
    *len = 4u * (lit_at + (d->lit_used ? 1u : 0u));
    return RDX_OK;
}

rdx_status rdx_isa_decode(const rdx_isa_target *t, const uint8_t *bytes, size_t avail,
                          rdx_isa_inst *out, size_t *len)
{
    return rdx_isa_decode_wave(t, 32, bytes, avail, out, len);
}

rdx_status rdx_isa_decode_wave(const rdx_isa_target *t, unsigned wave_size, const uint8_t *bytes,
                               size_t avail, rdx_isa_inst *out, size_t *len)
{
    if (!t || !bytes || !out || !len)
        return rdx_fail(RDX_ERR_INVALID, "rdx_isa_decode: NULL argument");
    if (!rdx_isa_target_supports_wave_size(t, wave_size))
        return rdx_fail(RDX_ERR_INVALID, "rdx_isa_decode: %s has no wave size %u", t->name,
                        wave_size);
    dec d;
    memset(&d, 0, sizeof d);
    /* copied from a zero object, not memset: compilers turn a memset of this
     * size into `rep stos`, slow to start, on the decoder's hot path */
    static const rdx_isa_inst zero_inst;
    memcpy(out, &zero_inst, sizeof *out);
    d.wave64 = wave_size == 64;
    d.t = t;
    d.fam = &isa_families[t->family];
    d.bytes = bytes;
    d.avail = avail;
    d.out = out;
    if (!need_words(&d, 1))
        return rdx_fail(RDX_ERR_PARSE, "decode %s: truncated instruction (%zu bytes)", t->name,
                        avail);
    unsigned enc = d.fam->dclass[d.w[0] >> 23];
    if (enc == ISA_ENC_NONE)
        return bad(&d, "unknown encoding");
    const isa_layout *L = &d.fam->layouts[enc];
    unsigned base_words = L->bits / 32;
    if (!need_words(&d, base_words))
        return bad(&d, "truncated instruction");
    if ((d.w[0] & L->mask & 0xff800000u) != (L->val & 0xff800000u))
        return bad(&d, "unknown encoding");
    if (enc == RDX_ISA_ENC_VOPD)
        return dec_vopd(&d, L, len);
    const isa_dmap *dm = &d.fam->dmaps[enc];
    unsigned key = isa_get(d.w, L->op.lo, L->op.width);
    if (enc == RDX_ISA_ENC_FLAT)
        key |= isa_get(d.w, L->f[FLD_SEG].lo, 2) << L->op.width;
    if (!dm->map || key >= dm->size || dm->map[key] < 0)
        return bad(&d, "unknown opcode");
    const isa_row *row = &d.fam->rows[dm->map[key]];
    if (!isa_op_avail(t, row->op))
        return rdx_fail(RDX_ERR_UNSUPPORTED, "decode %s: %s is not available on this target",
                        t->name, rdx_isa_op_name((rdx_isa_op)row->op));
    L = &d.fam->layouts[row->enc]; /* VOP3SD / GLOBAL / SCRATCH share the class's bits */
    if ((d.w[0] & L->mask) != L->val)
        return bad(&d, "fixed bits do not match the encoding");

    /* form */
    rdx_isa_form form = (rdx_isa_form)row->form;
    unsigned dpp_words = 0;
    if (form == RDX_ISA_FORM_E32 || form == RDX_ISA_FORM_E64) {
        unsigned s0 = L->f[FLD_SRC0].width ? isa_get(d.w, L->f[FLD_SRC0].lo, 9) : 0;
        bool e64 = form == RDX_ISA_FORM_E64;
        if (s0 == ISA_SRC_DPP16)
            form = e64 ? RDX_ISA_FORM_E64_DPP16 : RDX_ISA_FORM_DPP16;
        else if (s0 == ISA_SRC_DPP8 || s0 == ISA_SRC_DPP8_FI)
            form = e64 ? RDX_ISA_FORM_E64_DPP8 : RDX_ISA_FORM_DPP8;
        if (form != row->form) {
            const uint32_t *ok = isa_target_dpp[t->index][e64 ? 1 : 0];
            if (!(ok[row->op / 32] >> (row->op % 32) & 1u))
                return bad(&d, "DPP is not valid for this op");
            dpp_words = 1;
            if (!need_words(&d, base_words + 1))
                return bad(&d, "truncated DPP dword");
        }
    }
    out->op = row->op;
    out->form = (uint8_t)form;
    dec_mods(&d, row, L, form);

    /* MIMG NSA: the first address in vaddr, up to four more in one extra
     * dword; with more addresses than fields the last field holds a range */
    unsigned nimg = 1, nsa_words = 0;
    uint8_t fcounts[5] = { 1, 1, 1, 1, 1 };
    if (row->enc == RDX_ISA_ENC_MIMG && isa_get(d.w, L->f[FLD_NSA].lo, 1)) {
        nimg = isa_image_fields(row, out, 5, fcounts);
        if (nimg < 2)
            return bad(&d, "NSA with a single address");
        nsa_words = 1;
        if (!need_words(&d, base_words + nsa_words))
            return bad(&d, "truncated NSA address dword");
        if (row->nopnd - 1 + nimg > RDX_ISA_MAX_OPNDS)
            return bad(&d, "too many NSA addresses");
    }
    unsigned first_slot = (row->flags & ROW_ATOMIC) && !isa_atomic_returns(t, out->mod) ? 1 : 0;
    if ((row->flags & ROW_OPTIMM) && isa_get(d.w, L->f[FLD_SIMM16].lo, 16) == 0)
        first_slot = 1;
    out->nopnd = (uint8_t)(row->nopnd - first_slot);
    if ((row->enc == RDX_ISA_ENC_GLOBAL || row->enc == RDX_ISA_ENC_VGLOBAL) && out->nopnd &&
        isa_slot_enc[row->first + row->nopnd - 1].how == HOW_SADDR) {
        /* the vaddr width depends on saddr, which comes later in the list */
        if (isa_get(d.w, L->f[FLD_SADDR].lo, L->f[FLD_SADDR].width) == RDX_ISA_REG_NULL)
            out->opnd[out->nopnd - 1].kind = RDX_ISA_OPND_OFF;
    }
    unsigned lit_at = base_words + dpp_words + nsa_words;
    unsigned oi = 0;
    rdx_status st;
    for (unsigned i = first_slot; i < row->nopnd; i++) {
        const rdx_isa_opnd_info *si = &isa_slot_info[row->first + i];
        const isa_slot *sl = &isa_slot_enc[row->first + i];
        if (sl->how == HOW_MIMG_VADDR) {
            unsigned cnt = isa_expect_count(row, si, out);
            for (unsigned k = 0; k < nimg; k++) {
                rdx_isa_opnd *o = &out->opnd[oi++];
                unsigned r = k == 0 ? isa_get(d.w, L->f[FLD_VADDR].lo, 8)
                                    : isa_get(d.w, L->bits + 8 * (k - 1), 8);
                (void)cnt;
                *o = rdx_isa_vgpr(r, nimg > 1 ? fcounts[k] : isa_image_addr_count(row, out));
                if (o->reg + o->count > 256)
                    return bad(&d, "VGPR range past v255");
            }
            continue;
        }
        if (sl->how == HOW_VIMG_VADDR) {
            static const uint8_t flds[5] = { FLD_VADDR0, FLD_VADDR1, FLD_VADDR2, FLD_VADDR3,
                                             FLD_VADDR4 };
            uint8_t vc[5];
            unsigned na = isa_image_fields(row, out, L->f[FLD_VADDR4].width ? 5 : 4, vc);
            if (row->nopnd - 1 + na > RDX_ISA_MAX_OPNDS)
                return bad(&d, "too many image addresses");
            for (unsigned k = 0; k < na; k++) {
                unsigned r = isa_get(d.w, L->f[flds[k]].lo, 8);
                if (r + vc[k] > 256)
                    return bad(&d, "VGPR range past v255");
                out->opnd[oi++] = rdx_isa_vgpr(r, vc[k]);
            }
            continue;
        }
        if ((st = dec_slot(&d, row, L, si, sl, &out->opnd[oi], form, lit_at)))
            return st;
        oi++;
    }
    out->nopnd = (uint8_t)oi;
    *len = 4u * (lit_at + (d.lit_used ? 1u : 0u));
    return RDX_OK;
}
