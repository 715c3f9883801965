/*
 * codegen/hw.c — what the gfx11 pipeline sees of one machine instruction:
 * its issue class (SALU, VALU, TRANS, SMEM, VMEM, DS, ...), the latency of its
 * results (LLVM's GFX11 scheduling model: VALU 5 cycles, 64-bit VALU 6,
 * integer multiply 8, f64 38, TRANS 10 (f64 TRANS 40), SALU 2), its issue
 * cycles, and the register units it reads and writes (s0..s127 by operand
 * code, so vcc_lo = 106, m0 = 125, exec_lo = 126; VGPRs from 256).  Reads and
 * writes come from the operand roles of the ISA tables, so the hazard and
 * s_delay_alu passes work on any instruction, physical operands only.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/cg.h"
#include "util/scratch.h"

static int is_trans(rdx_isa_op op, int *f64)
{
    *f64 = 0;
    switch (op) {
    case RDX_ISA_OP_V_RCP_F64:
    case RDX_ISA_OP_V_RSQ_F64:
    case RDX_ISA_OP_V_SQRT_F64:
        *f64 = 1;
        return 1;
    case RDX_ISA_OP_V_EXP_F32:
    case RDX_ISA_OP_V_LOG_F32:
    case RDX_ISA_OP_V_RCP_F32:
    case RDX_ISA_OP_V_RCP_IFLAG_F32:
    case RDX_ISA_OP_V_RSQ_F32:
    case RDX_ISA_OP_V_SQRT_F32:
    case RDX_ISA_OP_V_SIN_F32:
    case RDX_ISA_OP_V_COS_F32:
    case RDX_ISA_OP_V_EXP_F16:
    case RDX_ISA_OP_V_LOG_F16:
    case RDX_ISA_OP_V_RCP_F16:
    case RDX_ISA_OP_V_RSQ_F16:
    case RDX_ISA_OP_V_SQRT_F16:
    case RDX_ISA_OP_V_SIN_F16:
    case RDX_ISA_OP_V_COS_F16:
        return 1;
    default:
        return 0;
    }
}

/* Per-op name facts, each computed on first use and kept (cg_hw_classify runs for every
   instruction of every kernel; matching names each time was a visible share of compile
   time).  0 = not yet known; relaxed atomics: racing threads store the same value. */
enum { NAME_KNOWN = 1, NAME_ACC = 2, NAME_LOAD = 4, NAME_FLOAT = 8 };
static _Atomic uint8_t name_facts[RDX_ISA_OP_COUNT];

static int name_fact(rdx_isa_op op, int fact)
{
    if ((unsigned)op >= RDX_ISA_OP_COUNT)
        return 0;
    unsigned f = atomic_load_explicit(&name_facts[op], memory_order_relaxed);
    if (!f) {
        const char *n = rdx_isa_op_name(op);
        f = NAME_KNOWN;
        if (n &&
            (strstr(n, "fmac") || strstr(n, "dot2acc") || strstr(n, "dot2c") || strstr(n, "_mac_")))
            f |= NAME_ACC;
        if (n && strstr(n, "_load"))
            f |= NAME_LOAD;
        if (n && (strstr(n, "_f32") || strstr(n, "_f16")))
            f |= NAME_FLOAT;
        atomic_store_explicit(&name_facts[op], (uint8_t)f, memory_order_relaxed);
    }
    return (f & (unsigned)fact) != 0;
}

static int accumulates(rdx_isa_op op)
{
    return name_fact(op, NAME_ACC);
}

static unsigned valu_latency(rdx_isa_op op, const rdx_isa_form_info *fi)
{
    switch (op) {
    case RDX_ISA_OP_V_MUL_LO_U32:
    case RDX_ISA_OP_V_MUL_HI_U32:
    case RDX_ISA_OP_V_MUL_HI_I32:
    case RDX_ISA_OP_V_MAD_U64_U32:
    case RDX_ISA_OP_V_MAD_I64_I32:
        return 8;
    case RDX_ISA_OP_V_LSHLREV_B64:
    case RDX_ISA_OP_V_LSHRREV_B64:
    case RDX_ISA_OP_V_ASHRREV_I64:
        return 6;
    default:
        break;
    }
    for (unsigned k = 0; fi && k < fi->nopnd; k++)
        if (fi->opnd[k].fmt == RDX_ISA_FMT_F64)
            return 38;
    return 5;
}

static void add_units(cg_hw *h, int def, const rdx_isa_opnd *o)
{
    int base;
    unsigned n = o->count ? o->count : 1;
    if (o->kind == RDX_ISA_OPND_VGPR)
        base = 256 + o->reg;
    else if (o->kind == RDX_ISA_OPND_SGPR)
        base = o->reg;
    else if (o->kind == RDX_ISA_OPND_SPECIAL && o->reg < 128 && o->reg != RDX_ISA_REG_NULL)
        base = o->reg;
    else
        return;
    for (unsigned w = 0; w < n; w++) {
        int u = base + (int)w;
        if (u >= CG_HW_UNITS)
            return;
        if (def && h->ndef < CG_HW_MAXU)
            h->def[h->ndef++] = (uint16_t)u;
        else if (!def && h->nuse < CG_HW_MAXU)
            h->use[h->nuse++] = (uint16_t)u;
    }
}

/* What cg_hw_classify decides from the op alone (op, form, VOPD Y op and X slot count): the
   class, latency, WMMA flag and per operand slot whether it is written / read.  Memoised per
   thread, direct-mapped (a pure function of its key). */
typedef struct hw_plan {
    const rdx_isa_target *t; /* NULL: empty */
    uint16_t op, op_y;
    uint8_t form, nx;
    uint8_t type, latency, wmma, has_fi;
    uint8_t def_mask, use_mask; /* bit k: slot k (slots beyond the table's: read) */
} hw_plan;

#define HW_PLANS 256
static _Thread_local hw_plan hw_plans[HW_PLANS];

static void make_plan(const rdx_isa_target *t, const rdx_isa_inst *in, hw_plan *pl)
{
    rdx_isa_op op = (rdx_isa_op)in->op;
    const rdx_isa_form_info *fi = cg_form(t, op, (rdx_isa_form)in->form);
    int enc = fi ? fi->enc : -1;
    int f64 = 0;
    pl->latency = 0;
    switch (enc) {
    case RDX_ISA_ENC_SOP1:
    case RDX_ISA_ENC_SOP2:
    case RDX_ISA_ENC_SOPC:
    case RDX_ISA_ENC_SOPK:
    case RDX_ISA_ENC_SOPP:
        pl->type = CG_HW_SALU;
        /* the SALU float ops of gfx115x/gfx12 (s_cvt_f32_u32, s_mul_f32, ...) take 4
           cycles: clang-19's s_delay_alu for them (tests/codegen_back/hazard_test.c) */
        pl->latency = name_fact(op, NAME_FLOAT) ? 4 : 2;
        break;
    case RDX_ISA_ENC_SMEM:
        pl->type = CG_HW_SMEM;
        break;
    case RDX_ISA_ENC_VOP1:
    case RDX_ISA_ENC_VOP2:
    case RDX_ISA_ENC_VOPC:
    case RDX_ISA_ENC_VOP3:
    case RDX_ISA_ENC_VOP3SD:
    case RDX_ISA_ENC_VOP3P:
    case RDX_ISA_ENC_VOPD:
    case RDX_ISA_ENC_VINTERP:
        if (is_trans(op, &f64)) {
            pl->type = CG_HW_TRANS;
            pl->latency = f64 ? 40 : 10;
        } else {
            pl->type = CG_HW_VALU;
            pl->latency = (uint8_t)valu_latency(op, fi);
        }
        break;
    case RDX_ISA_ENC_DS:
        pl->type = CG_HW_DS;
        break;
    case RDX_ISA_ENC_FLAT:
    case RDX_ISA_ENC_GLOBAL:
    case RDX_ISA_ENC_SCRATCH:
    case RDX_ISA_ENC_MUBUF:
    case RDX_ISA_ENC_MTBUF:
    case RDX_ISA_ENC_MIMG:
    case RDX_ISA_ENC_VBUFFER: /* gfx12's memory encodings */
    case RDX_ISA_ENC_VFLAT:
    case RDX_ISA_ENC_VGLOBAL:
    case RDX_ISA_ENC_VSCRATCH:
    case RDX_ISA_ENC_VIMAGE:
    case RDX_ISA_ENC_VSAMPLE:
        pl->type = CG_HW_VMEM;
        break;
    case RDX_ISA_ENC_EXP:
    case RDX_ISA_ENC_VEXPORT:
        pl->type = CG_HW_EXP;
        break;
    default:
        pl->type = CG_HW_OTHER;
        break;
    }
    pl->wmma =
        op == RDX_ISA_OP_V_WMMA_F32_16X16X16_F16 || op == RDX_ISA_OP_V_WMMA_F32_16X16X16_BF16 ||
        op == RDX_ISA_OP_V_WMMA_F16_16X16X16_F16 || op == RDX_ISA_OP_V_WMMA_BF16_16X16X16_BF16 ||
        op == RDX_ISA_OP_V_WMMA_I32_16X16X16_IU8 || op == RDX_ISA_OP_V_WMMA_I32_16X16X16_IU4;
    pl->has_fi = fi != NULL;
    pl->def_mask = pl->use_mask = 0;
    if (!fi)
        return;
    /* a VOPD pair's operand slots are X's then Y's; the roles come from both ops */
    const rdx_isa_form_info *fy = NULL;
    if (enc == RDX_ISA_ENC_VOPD && in->op_y)
        fy = cg_form(t, (rdx_isa_op)in->op_y, RDX_ISA_FORM_NATIVE);
    /* accumulating ops read their destination too (LLVM: src2 tied to vdst) */
    int acc_x = accumulates(op), acc_y = in->op_y && accumulates((rdx_isa_op)in->op_y);
    for (int k = 0; k < RDX_ISA_MAX_OPNDS; k++) {
        const rdx_isa_opnd_info *oi = NULL;
        if (enc == RDX_ISA_ENC_VOPD && k >= in->nx) {
            if (fy && (unsigned)(k - in->nx) < fy->nopnd)
                oi = &fy->opnd[k - in->nx];
        } else if ((unsigned)k < fi->nopnd)
            oi = &fi->opnd[k];
        int role = oi ? oi->role : -1;
        int def = 0, use = 1;
        switch (role) {
        case RDX_ISA_ROLE_VDST:
        case RDX_ISA_ROLE_SDST:
            def = 1, use = role == RDX_ISA_ROLE_VDST && acc_x;
            break;
        case RDX_ISA_ROLE_VDSTY:
            def = 1, use = acc_y;
            break;
        case RDX_ISA_ROLE_SDATA: /* SMEM loads */
            def = pl->type == CG_HW_SMEM && name_fact(op, NAME_LOAD);
            use = !def;
            break;
        case RDX_ISA_ROLE_VCC:
            /* the implied vcc of e32 compares, carries and cndmask: not tracked (LLVM's model
               treats it as an implicit operand; this back end allocates no VCC) */
            def = use = 0;
            break;
        default:
            break;
        }
        if (role == RDX_ISA_ROLE_SDST && enc == RDX_ISA_ENC_SOPK &&
            strstr(rdx_isa_op_name(op), "s_cmpk") != NULL)
            def = 0, use = 1;
        pl->def_mask |= (uint8_t)(def << k);
        pl->use_mask |= (uint8_t)(use << k);
    }
}

void cg_hw_classify(const rdx_isa_target *t, const rdx_isa_inst *in, cg_hw *h)
{
    unsigned key = ((unsigned)in->op * 31u + in->op_y * 7u + in->form * 3u + in->nx) % HW_PLANS;
    hw_plan *pl = &hw_plans[key];
    if (pl->t != t || pl->op != in->op || pl->op_y != in->op_y || pl->form != in->form ||
        pl->nx != in->nx) {
        make_plan(t, in, pl);
        pl->t = t, pl->op = in->op, pl->op_y = in->op_y, pl->form = in->form, pl->nx = in->nx;
    }
    /* def[] / use[] are filled up to ndef / nuse: only the counts and flags start at 0 */
    h->type = pl->type;
    h->latency = pl->latency;
    h->wmma = pl->wmma;
    h->ndef = h->nuse = 0;
    h->cycles = 1;
    if (in->op == RDX_ISA_OP_S_NOP && in->nopnd >= 1)
        h->cycles = (uint8_t)((in->opnd[0].value & 15) + 1);
    if (!pl->has_fi)
        return;
    for (int k = 0; k < in->nopnd && k < RDX_ISA_MAX_OPNDS; k++) {
        if (pl->def_mask >> k & 1)
            add_units(h, 1, &in->opnd[k]);
        if (pl->use_mask >> k & 1)
            add_units(h, 0, &in->opnd[k]);
    }
}

cg_hw **cg_hw_classify_prog(const cg_prog *p)
{
    cg_hw **hw = rdx_scratch_calloc(p->nblocks + 1, sizeof *hw);
    for (size_t b = 0; hw && b < p->nblocks; b++) {
        const cg_block *bl = &p->blocks[b];
        if (!(hw[b] = rdx_scratch_alloc((bl->n + 1) * sizeof *hw[b]))) {
            cg_hw_free_prog(hw, p->nblocks);
            return NULL;
        }
        for (size_t i = 0; i < bl->n; i++)
            cg_hw_classify(p->tgt, &bl->insts[i].in, &hw[b][i]);
    }
    return hw;
}

void cg_hw_free_prog(cg_hw **hw, size_t nblocks)
{
    for (size_t b = 0; hw && b < nblocks; b++)
        rdx_scratch_free(hw[b]);
    rdx_scratch_free(hw);
}

uint32_t cg_user_sgprs(const cg_prog *p)
{
    /* clang-19 for gfx1100 wave32 writes .amdhsa_user_sgpr_count 16 - (workgroup ids) and
       reads the ids from s[count..15] (tests/codeobj_oracle compares) */
    uint32_t sys = p->wgid_enable[0] + p->wgid_enable[1] + p->wgid_enable[2];
    if (p->ct->major >= 12 || !p->ct->init16)
        return 2; /* no padding (gfx12: the ids are in ttmp registers) */
    return 16 - sys;
}

uint32_t cg_max_vgprs(const cg_prog *p)
{
    /* a workgroup's waves share the 4 SIMD32 of one WGP (WGP_MODE 1): ceil(waves / 4)
       waves per SIMD, each allocated in granules of 24 VGPRs of the SIMD's 1536 (gfx1100,
       wave32); clang-19 limits a kernel to the same (tests/codeobj_oracle) */
    uint32_t items = p->wg_items ? p->wg_items : 1024;
    uint32_t waves = (items + 31) / 32, per_simd = (waves + 3) / 4;
    uint32_t v = p->ct->vgprs / per_simd / p->ct->granule * p->ct->granule;
    return v < 256 ? v : 256;
}
