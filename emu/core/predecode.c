/*
 * emu/core/predecode.c — turning one decoded rdx_isa_inst (isa/ decoder)
 * into the emulator's pre-decoded form: handler, operands resolved to
 * register indices or constants in the operand's format, modifiers.
 * Done once per PC; the executor caches the result.
 */
#include <stdio.h>

#include "emu/core/emu_int.h"
#include "emu/core/exec.h"
#include "emu/core/ops.h"
#include "util/error.h"

/* Inline float constants 0.5, -0.5, 1, -1, 2, -2, 4, -4, 1/(2*pi) per format. */
static const uint16_t fconst16[RDX_ISA_FCONST_COUNT] = { 0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000,
                                                         0xc000, 0x4400, 0xc400, 0x3118 };
static const uint16_t fconstbf16[RDX_ISA_FCONST_COUNT] = { 0x3f00, 0xbf00, 0x3f80, 0xbf80, 0x4000,
                                                           0xc000, 0x4080, 0xc080, 0x3e22 };
static const uint32_t fconst32[RDX_ISA_FCONST_COUNT] = { 0x3f000000, 0xbf000000, 0x3f800000,
                                                         0xbf800000, 0x40000000, 0xc0000000,
                                                         0x40800000, 0xc0800000, 0x3e22f983 };
static const uint64_t fconst64[RDX_ISA_FCONST_COUNT] = {
    0x3fe0000000000000ull, 0xbfe0000000000000ull, 0x3ff0000000000000ull,
    0xbff0000000000000ull, 0x4000000000000000ull, 0xc000000000000000ull,
    0x4010000000000000ull, 0xc010000000000000ull, 0x3fc45f306dc9c882ull,
};

static void conv(emu_opnd *o, const rdx_isa_opnd *x, const rdx_isa_opnd_info *info, bool e32)
{
    memset(o, 0, sizeof *o);
    unsigned bits = info ? info->bits : 32;
    unsigned fmt = info ? info->fmt : RDX_ISA_FMT_ANY;
    o->bits = (uint16_t)bits;
    o->fmt = (uint8_t)fmt;
    o->count = x->count;
    switch (x->kind) {
    case RDX_ISA_OPND_SGPR:
        o->kind = EMU_K_SGPR;
        o->reg = x->reg;
        break;
    case RDX_ISA_OPND_TTMP:
        o->kind = EMU_K_SGPR;
        o->reg = (uint16_t)(108 + x->reg);
        break;
    case RDX_ISA_OPND_VGPR:
        o->kind = EMU_K_VGPR;
        o->reg = x->reg;
        if (e32 && bits == 16 && x->reg >= 128) { /* true16 .h half */
            o->kind = EMU_K_VHI;
            o->reg = (uint16_t)(x->reg - 128);
        }
        break;
    case RDX_ISA_OPND_SPECIAL:
        switch (x->reg) {
        case RDX_ISA_REG_SCC:
            o->kind = EMU_K_SCC;
            break;
        case RDX_ISA_REG_VCCZ:
            o->kind = EMU_K_VCCZ;
            break;
        case RDX_ISA_REG_EXECZ:
            o->kind = EMU_K_EXECZ;
            break;
        case RDX_ISA_REG_SHARED_BASE:
            o->kind = EMU_K_CONST;
            o->val = bits == 64 ? (uint64_t)EMU_SHARED_APERTURE_HI << 32 : EMU_SHARED_APERTURE_HI;
            break;
        case RDX_ISA_REG_SHARED_LIMIT:
            o->kind = EMU_K_CONST;
            o->val = bits == 64 ? ((uint64_t)EMU_SHARED_APERTURE_HI << 32) | 0xffffffffu
                                : EMU_SHARED_APERTURE_HI;
            break;
        case RDX_ISA_REG_PRIVATE_BASE:
            o->kind = EMU_K_CONST;
            o->val = bits == 64 ? (uint64_t)EMU_PRIVATE_APERTURE_HI << 32 : EMU_PRIVATE_APERTURE_HI;
            break;
        case RDX_ISA_REG_PRIVATE_LIMIT:
            o->kind = EMU_K_CONST;
            o->val = bits == 64 ? ((uint64_t)EMU_PRIVATE_APERTURE_HI << 32) | 0xffffffffu
                                : EMU_PRIVATE_APERTURE_HI;
            break;
        case RDX_ISA_REG_POPS_EXITING_WAVE:
            o->kind = EMU_K_CONST;
            o->val = 0;
            break;
        default:
            o->kind = EMU_K_SGPR;
            o->reg = x->reg < 128 ? x->reg : EMU_NULL;
            break;
        }
        break;
    case RDX_ISA_OPND_INT: {
        int64_t v = x->value;
        o->kind = EMU_K_CONST;
        /* silicon, for 16-bit and packed operands too: the sign-extended 32-bit value
           (LLVM AMDGPUBaseInfo getInlineEncodingV216: the ISA guide "is misleading") */
        o->val = bits == 64 ? (uint64_t)v : (uint32_t)(int32_t)v;
        break;
    }
    case RDX_ISA_OPND_FLOAT: {
        /* f16 operands (packed too): the f16 value in bits 15:0, 0 in 31:16, so a packed op
           with op_sel_hi reads 0 in the high half (silicon: tinygrad test/amd/hw
           test_vop3p.py, v_pk_add_f16 / v_pk_mul_f16 with an inline constant; LLVM
           getInlineEncodingV216); 16-bit integer operands: the f32 value */
        unsigned c = (unsigned)x->value % RDX_ISA_FCONST_COUNT;
        o->kind = EMU_K_CONST;
        if (fmt == RDX_ISA_FMT_F16 || fmt == RDX_ISA_FMT_PK_F16)
            o->val = fconst16[c];
        else if (fmt == RDX_ISA_FMT_BF16)
            o->val = fconstbf16[c];
        else if (bits == 64)
            o->val = fconst64[c];
        else
            o->val = fconst32[c];
        break;
    }
    case RDX_ISA_OPND_LITERAL: {
        uint32_t v = (uint32_t)x->value;
        o->kind = EMU_K_CONST;
        if (bits == 64)
            o->val = fmt == RDX_ISA_FMT_F64 ? (uint64_t)v << 32 : (uint64_t)v;
        else
            o->val = v;
        break;
    }
    case RDX_ISA_OPND_IMM:
    case RDX_ISA_OPND_BRANCH:
        o->kind = EMU_K_CONST;
        o->val = (uint64_t)(int64_t)x->value;
        break;
    default:
        o->kind = EMU_K_NONE;
        break;
    }
}

static bool form_is_e32(unsigned form)
{
    return form == RDX_ISA_FORM_E32 || form == RDX_ISA_FORM_DPP16 || form == RDX_ISA_FORM_DPP8;
}

/* Assign operand slot i of `ii` by its role. */
static void assign(emu_inst *in, unsigned role, const rdx_isa_opnd *x,
                   const rdx_isa_opnd_info *info, bool e32)
{
    emu_opnd o;
    conv(&o, x, info, e32);
    switch (role) {
    case RDX_ISA_ROLE_VDST:
        in->dst = o;
        break;
    case RDX_ISA_ROLE_SDST:
        in->sdst = o;
        break;
    case RDX_ISA_ROLE_SRC0:
    case RDX_ISA_ROLE_VSRC0:
        in->src[0] = o;
        break;
    case RDX_ISA_ROLE_SRC1:
    case RDX_ISA_ROLE_VSRC1:
        in->src[1] = o;
        break;
    case RDX_ISA_ROLE_SRC2:
    case RDX_ISA_ROLE_VSRC2:
        in->src[2] = o;
        break;
    case RDX_ISA_ROLE_K: /* the literal K of fmamk/fmaak and s_setreg_imm32 */
        in->src[2] = o;
        break;
    case RDX_ISA_ROLE_SIMM16:
        in->imm = x->value;
        if (x->kind != RDX_ISA_OPND_IMM && x->kind != RDX_ISA_OPND_BRANCH)
            in->src[0] = o;
        break;
    case RDX_ISA_ROLE_SDATA:
        in->dst = o;
        in->data0 = o;
        break;
    case RDX_ISA_ROLE_SBASE:
        in->sbase = o;
        break;
    case RDX_ISA_ROLE_SOFFSET:
        if (x->kind == RDX_ISA_OPND_IMM)
            in->offset = x->value;
        else
            in->soffset = o;
        break;
    case RDX_ISA_ROLE_ADDR:
    case RDX_ISA_ROLE_VADDR:
        in->addr = o;
        break;
    case RDX_ISA_ROLE_DATA0:
        in->data0 = o;
        break;
    case RDX_ISA_ROLE_DATA1:
        in->data1 = o;
        break;
    case RDX_ISA_ROLE_SADDR:
        in->saddr = o;
        break;
    case RDX_ISA_ROLE_VDATA:
        in->dst = o;
        in->data0 = o;
        break;
    case RDX_ISA_ROLE_SRSRC:
        in->srsrc = o;
        break;
    case RDX_ISA_ROLE_VCC:
        if (in->sdst.kind == EMU_K_NONE) {
            in->sdst = o;
            in->flags |= EMU_F_VCC_DST;
        }
        if (in->src[2].kind == EMU_K_NONE)
            in->src[2] = o;
        break;
    default:
        break;
    }
}

static void mods(emu_inst *in, const rdx_isa_inst *ii)
{
    const int32_t *m = ii->mod;
    in->neg = (uint8_t)m[RDX_ISA_MOD_NEG];
    in->abs = (uint8_t)m[RDX_ISA_MOD_ABS];
    in->neg_hi = (uint8_t)m[RDX_ISA_MOD_NEG_HI];
    in->opsel = (uint8_t)m[RDX_ISA_MOD_OP_SEL];
    in->opsel_hi = (uint8_t)m[RDX_ISA_MOD_OP_SEL_HI];
    in->clamp = (uint8_t)m[RDX_ISA_MOD_CLAMP];
    in->omod = (uint8_t)m[RDX_ISA_MOD_OMOD];
    if (m[RDX_ISA_MOD_OFFSET])
        in->offset = m[RDX_ISA_MOD_OFFSET];
    in->offset = in->offset ? in->offset : m[RDX_ISA_MOD_OFFSET0];
    if (m[RDX_ISA_MOD_OFFSET0] || m[RDX_ISA_MOD_OFFSET1]) {
        in->offset = m[RDX_ISA_MOD_OFFSET0];
        in->offset1 = m[RDX_ISA_MOD_OFFSET1];
    }
    in->glc = (uint16_t)m[RDX_ISA_MOD_GLC];
    in->slc = (uint16_t)m[RDX_ISA_MOD_SLC];
    in->dlc = (uint16_t)m[RDX_ISA_MOD_DLC];
    in->gds = (uint16_t)m[RDX_ISA_MOD_GDS];
    in->idxen = (uint16_t)m[RDX_ISA_MOD_IDXEN];
    in->offen = (uint16_t)m[RDX_ISA_MOD_OFFEN];
    in->format = (uint16_t)m[RDX_ISA_MOD_FORMAT];
    in->dpp_ctrl = (uint32_t)m[RDX_ISA_MOD_DPP_CTRL];
    in->row_mask = (uint32_t)m[RDX_ISA_MOD_ROW_MASK];
    in->bank_mask = (uint32_t)m[RDX_ISA_MOD_BANK_MASK];
    in->bound_ctrl = (uint32_t)m[RDX_ISA_MOD_BOUND_CTRL];
    in->fi = (uint32_t)m[RDX_ISA_MOD_FI];
    in->dpp8 = (uint32_t)m[RDX_ISA_MOD_DPP8];
}

/* The raw VOP3P op_sel_hi bits (bit 14 for src2, bits 59..60 for src0/1). */
static uint8_t raw_opsel_hi(const uint8_t *b)
{
    uint64_t q = 0;
    for (int i = 0; i < 8; i++)
        q |= (uint64_t)b[i] << (8 * i);
    return (uint8_t)(((q >> 59) & 3) | ((q >> 14) & 1) << 2);
}

/* Fill one VALU op (also a VOPD half) after its operands were assigned. */
static void finish_valu(emu_inst *in, unsigned enc, unsigned form)
{
    if (form == RDX_ISA_FORM_DPP16 || form == RDX_ISA_FORM_E64_DPP16) {
        in->flags |= EMU_F_DPP16;
        if (in->src[0].kind == EMU_K_VGPR)
            in->src[0].kind = EMU_K_DPP;
    } else if (form == RDX_ISA_FORM_DPP8 || form == RDX_ISA_FORM_E64_DPP8) {
        in->flags |= EMU_F_DPP8;
        if (in->src[0].kind == EMU_K_VGPR)
            in->src[0].kind = EMU_K_DPP;
    }
    if (form == RDX_ISA_FORM_E64 || form == RDX_ISA_FORM_E64_DPP16 || form == RDX_ISA_FORM_E64_DPP8)
        in->flags |= EMU_F_E64;
    /* VOP3 16-bit operands: op_sel picks the high half (VOP3P reads op_sel itself). */
    if (enc != RDX_ISA_ENC_VOP3P && (in->flags & EMU_F_E64)) {
        for (int i = 0; i < 3; i++) {
            if ((in->opsel >> i & 1) && in->src[i].bits == 16 && in->src[i].kind == EMU_K_VGPR)
                in->src[i].kind = EMU_K_VHI;
            /* a constant is a 32-bit value (see conv): op_sel reads its bits 31:16 */
            if ((in->opsel >> i & 1) && in->src[i].bits == 16 && in->src[i].kind == EMU_K_CONST)
                in->src[i].val = (in->src[i].val >> 16) & 0xffff;
        }
        if ((in->opsel >> 3 & 1) && in->dst.bits == 16 && in->dst.kind == EMU_K_VGPR)
            in->dst.kind = EMU_K_VHI;
    }
}

/* A scalar source code of a 9-bit VOP3-style field (no literal): 0 when it has none. */
static int scalar_code_opnd(unsigned code, rdx_isa_opnd *o)
{
    if (code < 106)
        *o = rdx_isa_sgpr(code, 1);
    else if (code >= 108 && code < 124)
        *o = rdx_isa_ttmp(code - 108, 1);
    else if (code < 128)
        *o = rdx_isa_special(code, 1);
    else if (code <= 192)
        *o = rdx_isa_int((int)code - 128);
    else if (code <= 208)
        *o = rdx_isa_int(192 - (int)code);
    else if (code >= 240 && code < 240 + RDX_ISA_FCONST_COUNT)
        *o = rdx_isa_float((rdx_isa_fconst)(code - 240));
    else
        return 0;
    return 1;
}

/*
 * VINTERP's sources are 9-bit VOP3-style fields.  AMD's instruction data (and LLVM's
 * assembler) allow VGPRs only, so the decoder rejects anything else, but silicon reads an
 * SGPR or inline constant there as a VOP3 source (tinygrad's hardware-validated
 * test/amd/hw/test_vinterp.py gives v_interp_p10_f32 s2 as S1 on gfx1100).  Decode a copy
 * with v0 in those fields and put the scalar operands (vdst, src0, src1, src2) back.
 */
static rdx_status decode_vinterp_scalar(const rdx_isa_target *t, const uint8_t *bytes, size_t avail,
                                        rdx_isa_inst *ii, size_t *len)
{
    if (avail < 8 || bytes[3] != 0xcd)
        return RDX_ERR_INVALID;
    uint64_t q = 0;
    for (int i = 0; i < 8; i++)
        q |= (uint64_t)bytes[i] << (8 * i);
    unsigned code[3];
    int any = 0;
    for (int i = 0; i < 3; i++) {
        unsigned sh = 32 + 9 * (unsigned)i;
        code[i] = (unsigned)(q >> sh) & 0x1ff;
        if (code[i] < 256) {
            q = (q & ~(0x1ffull << sh)) | 256ull << sh;
            any = 1;
        }
    }
    if (!any)
        return RDX_ERR_INVALID;
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(q >> (8 * i));
    if (rdx_isa_decode(t, b, 8, ii, len) != RDX_OK || *len != 8)
        return RDX_ERR_INVALID;
    for (int i = 0; i < 3; i++) {
        if (code[i] >= 256)
            continue;
        rdx_isa_opnd *o = &ii->opnd[1 + i];
        if (o->kind != RDX_ISA_OPND_VGPR || o->reg != 0 || !scalar_code_opnd(code[i], o))
            return RDX_ERR_INVALID;
    }
    return RDX_OK;
}

/*
 * What the emulator lacks on gfx12 although a handler exists for the op's name (gfx11
 * semantics that gfx12 changed): the VIMAGE / VSAMPLE encodings (mimg.c reads gfx11's
 * MIMG fields).  NULL when none; *fn gets gfx12's WMMA handler (wmma12.c) in place of
 * gfx11's for the WMMAs both have.
 */
static const char *gfx12_gap(const rdx_isa_target *t, unsigned enc, const emu_opinfo *oi,
                             emu_fn *fn)
{
    if (t->family != RDX_ISA_FAMILY_RDNA4)
        return NULL;
    if (enc == RDX_ISA_ENC_VIMAGE || enc == RDX_ISA_ENC_VSAMPLE)
        return "gfx12's VIMAGE/VSAMPLE image encodings are not emulated";
    if (oi->fn == emu_v_wmma) /* the same param (wmma12.c) */
        *fn = emu_v_wmma12;
    return NULL;
}

rdx_emu_fault_kind emu_predecode(emu_worker *wk, const rdx_isa_target *t, uint64_t pc, size_t avail,
                                 emu_inst *in, const char **why)
{
    static __thread char msg[256];
    rdx_isa_inst ii;
    size_t len = 0;
    const uint8_t *bytes = (const uint8_t *)(uintptr_t)pc;
    memset(&ii, 0, sizeof ii);
    in->pc = pc;
    if (rdx_isa_decode(t, bytes, avail, &ii, &len) != RDX_OK) {
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
        memset(&ii, 0, sizeof ii);
        if (decode_vinterp_scalar(t, bytes, avail, &ii, &len) != RDX_OK) {
            *why = msg;
            in->size = 4;
            return RDX_EMU_FAULT_INVALID_INST;
        }
    }
    in->size = (uint8_t)len;
    memcpy(in->raw, bytes, len < 16 ? len : 16);
    in->op = ii.op;
    in->form = ii.form;
    /* operand rules of the hardware (isa/isa_check.c): code silicon would corrupt faults */
    if (rdx_isa_check(t, &ii,
                      RDX_ISA_CHECK_SILICON | (wk->ctx->nl == 64 ? RDX_ISA_CHECK_WAVE64 : 0),
                      NULL) != RDX_OK) {
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
        *why = msg;
        return RDX_EMU_FAULT_OPERAND_RULE;
    }
    const emu_opinfo *oi = emu_op_info(ii.op);
    if (!oi || !oi->fn || (ii.op_y && !(emu_op_info(ii.op_y) && emu_op_info(ii.op_y)->fn))) {
        unsigned op = oi && oi->fn ? ii.op_y : ii.op;
        const char *gap = emu_op_gap(op, t->family);
        snprintf(msg, sizeof msg, "the emulator has no semantics for %s%s%s", emu_op_name(op),
                 gap ? ": " : "", gap ? gap : "");
        *why = msg;
        return RDX_EMU_FAULT_UNIMPLEMENTED;
    }
    in->fn = oi->fn;
    in->param = oi->param;
    in->cls = oi->cls;
    const rdx_isa_form_info *fi = NULL;
    if (rdx_isa_op_form(t, ii.op, ii.form, &fi) != RDX_OK || !fi) {
        snprintf(msg, sizeof msg, "no form information: %s", rdx_error_message());
        *why = msg;
        return RDX_EMU_FAULT_INVALID_INST;
    }
    in->enc = fi->enc;
    const char *gap = gfx12_gap(t, fi->enc, oi, &in->fn);
    if (gap) {
        snprintf(msg, sizeof msg, "the emulator has no semantics for %s on %s: %s",
                 emu_op_name(ii.op), t->name, gap);
        *why = msg;
        return RDX_EMU_FAULT_UNIMPLEMENTED;
    }
    mods(in, &ii);
    /* gfx12 memory: th[0] of an atomic is TH_ATOMIC_RETURN (gfx11's glc); the rest of th
       and scope are cache policies, which the emulator (no caches) ignores */
    if (fi->enc == RDX_ISA_ENC_VFLAT || fi->enc == RDX_ISA_ENC_VGLOBAL ||
        fi->enc == RDX_ISA_ENC_VSCRATCH || fi->enc == RDX_ISA_ENC_VBUFFER)
        in->glc = (uint16_t)(ii.mod[RDX_ISA_MOD_TH] & 1);
    if (fi->enc == RDX_ISA_ENC_VOP3P)
        in->opsel_hi = raw_opsel_hi(bytes);
    bool e32 = form_is_e32(ii.form);

    if (fi->enc == RDX_ISA_ENC_VOPD) {
        /* VOPD: two VALU ops; the handler runs both halves. */
        emu_inst *x = emu_worker_inst(wk), *y = emu_worker_inst(wk);
        const rdx_isa_form_info *fy = NULL;
        if (!x || !y || rdx_isa_op_form(t, ii.op_y, RDX_ISA_FORM_NATIVE, &fy) != RDX_OK) {
            snprintf(msg, sizeof msg, "VOPD: cannot resolve the Y op");
            *why = msg;
            return RDX_EMU_FAULT_INVALID_INST;
        }
        const emu_opinfo *oy = emu_op_info(ii.op_y);
        *x = *in;
        *y = *in;
        y->op = ii.op_y;
        y->fn = oy->fn;
        y->param = oy->param;
        unsigned nx = ii.nx ? ii.nx : fi->nopnd;
        for (unsigned i = 0; i < ii.nopnd; i++) {
            emu_inst *h = i < nx ? x : y;
            const rdx_isa_form_info *f = i < nx ? fi : fy;
            unsigned k = i < nx ? i : i - nx;
            const rdx_isa_opnd_info *info = f && k < f->nopnd ? &f->opnd[k] : NULL;
            unsigned role = info ? info->role : RDX_ISA_ROLE_COUNT;
            switch (role) {
            case RDX_ISA_ROLE_VDSTY:
                role = RDX_ISA_ROLE_VDST;
                break;
            case RDX_ISA_ROLE_SRCY0:
                role = RDX_ISA_ROLE_SRC0;
                break;
            case RDX_ISA_ROLE_VSRCY1:
                role = RDX_ISA_ROLE_SRC1;
                break;
            case RDX_ISA_ROLE_KY:
                role = RDX_ISA_ROLE_K;
                break;
            default:
                break;
            }
            assign(h, role, &ii.opnd[i], info, false);
        }
        x->flags = y->flags = 0;
        finish_valu(x, RDX_ISA_ENC_VOP2, RDX_ISA_FORM_E32);
        finish_valu(y, RDX_ISA_ENC_VOP2, RDX_ISA_FORM_E32);
        in->vx = x;
        in->vy = y;
        in->fn = emu_vopd;
        in->flags |= EMU_F_VOPD;
        return RDX_EMU_FAULT_NONE;
    }

    /* memory forms without a return value (atomics without glc) omit the leading vdst slot */
    unsigned skip = 0;
    if (ii.nopnd < fi->nopnd && fi->nopnd && fi->opnd[0].role == RDX_ISA_ROLE_VDST &&
        (fi->enc == RDX_ISA_ENC_FLAT || fi->enc == RDX_ISA_ENC_GLOBAL ||
         fi->enc == RDX_ISA_ENC_SCRATCH || fi->enc == RDX_ISA_ENC_DS ||
         fi->enc == RDX_ISA_ENC_VFLAT || fi->enc == RDX_ISA_ENC_VGLOBAL ||
         fi->enc == RDX_ISA_ENC_VSCRATCH))
        skip = 1;
    for (unsigned i = 0; i < ii.nopnd && i + skip < fi->nopnd; i++)
        assign(in, fi->opnd[i + skip].role, &ii.opnd[i], &fi->opnd[i + skip], e32);
    switch (fi->enc) {
    case RDX_ISA_ENC_VOP1:
    case RDX_ISA_ENC_VOP2:
    case RDX_ISA_ENC_VOPC:
    case RDX_ISA_ENC_VOP3:
    case RDX_ISA_ENC_VOP3SD:
    case RDX_ISA_ENC_VOP3P:
        finish_valu(in, fi->enc, ii.form);
        break;
    default:
        break;
    }
    return RDX_EMU_FAULT_NONE;
}
