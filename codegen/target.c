/*
 * codegen/target.c — the per-target facts of codegen/target.def and the gfx12 spellings
 * of the ops the back end builds.
 *
 * The back end builds every instruction in gfx11 terms (RDX_ISA_OP_S_ADD_I32,
 * V_MAX_F32, ...); on gfx12 (RDNA4) some of those ops carry new names for the same
 * operation and operands (AMD's RDNA4 ISA guide; llvm-mc-19 -mcpu=gfx1201 accepts only
 * the new names).  cg_form answers for the gfx12 op, and the encoder and the listing
 * take the gfx12 op (cg_target_op), so no stage has to know the renames.  What is not a
 * rename on gfx12 is built for it where it is made: the split wait counters
 * (linearize.c), the split barrier and the workgroup ids in ttmp registers (isel.c),
 * WMMA's register layout (isel_wmma.c).
 */
#include <string.h>

#include "codegen/cg.h"

static const cg_target targets[] = {
#define X(n, maj, vg, gr, i16, tr) \
    { .name = #n, .major = maj, .vgprs = vg, .granule = gr, .init16 = i16, .trans_hazard = tr },
#include "codegen/target.def"
#undef X
};

const cg_target *cg_target_find(const char *name)
{
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
        if (name && !strcmp(targets[i].name, name))
            return &targets[i];
    return NULL;
}

size_t cg_target_count(void)
{
    return sizeof targets / sizeof targets[0];
}

const cg_target *cg_target_at(size_t i)
{
    return i < cg_target_count() ? &targets[i] : NULL;
}

const char *rdx_codegen_target_name(size_t i)
{
    return i < cg_target_count() ? targets[i].name : NULL;
}

/* ", gfx1100, gfx1101, ..." from the table's rows (the text starts after the first ", "). */
static const char target_list[] = ""
#define X(n, maj, vg, gr, i16, tr) ", " #n
#include "codegen/target.def"
#undef X
    ;

const char *rdx_codegen_target_list(void)
{
    return target_list + 2;
}

/* gfx11 op → the gfx12 op of the same operation and operands.  The min/max renames:
   gfx12 has no IEEE mode; v_max_num/v_min_num return the number when one operand is a
   NaN (quiet or signalling), what gfx11's v_max/v_min do with IEEE mode off (render.c). */
static const struct {
    uint16_t from, to;
} gfx12_ops[] = {
    { RDX_ISA_OP_S_ADD_I32, RDX_ISA_OP_S_ADD_CO_I32 },
    { RDX_ISA_OP_S_SUB_I32, RDX_ISA_OP_S_SUB_CO_I32 },
    { RDX_ISA_OP_S_ADD_U32, RDX_ISA_OP_S_ADD_CO_U32 },
    { RDX_ISA_OP_S_SUB_U32, RDX_ISA_OP_S_SUB_CO_U32 },
    { RDX_ISA_OP_S_ADDC_U32, RDX_ISA_OP_S_ADD_CO_CI_U32 },
    { RDX_ISA_OP_V_MAX_F32, RDX_ISA_OP_V_MAX_NUM_F32 },
    { RDX_ISA_OP_V_MIN_F32, RDX_ISA_OP_V_MIN_NUM_F32 },
    { RDX_ISA_OP_V_MAX_F16, RDX_ISA_OP_V_MAX_NUM_F16 },
    { RDX_ISA_OP_V_MIN_F16, RDX_ISA_OP_V_MIN_NUM_F16 },
    { RDX_ISA_OP_V_MAX_F64, RDX_ISA_OP_V_MAX_NUM_F64 },
    { RDX_ISA_OP_V_MIN_F64, RDX_ISA_OP_V_MIN_NUM_F64 },
    { RDX_ISA_OP_V_PK_MAX_F16, RDX_ISA_OP_V_PK_MAX_NUM_F16 },
    { RDX_ISA_OP_V_PK_MIN_F16, RDX_ISA_OP_V_PK_MIN_NUM_F16 },
    { RDX_ISA_OP_V_DUAL_MAX_F32, RDX_ISA_OP_V_DUAL_MAX_NUM_F32 },
    { RDX_ISA_OP_V_DUAL_MIN_F32, RDX_ISA_OP_V_DUAL_MIN_NUM_F32 },
    { RDX_ISA_OP_V_MAD_U64_U32, RDX_ISA_OP_V_MAD_CO_U64_U32 },
    { RDX_ISA_OP_V_MAD_I64_I32, RDX_ISA_OP_V_MAD_CO_I64_I32 },
    { RDX_ISA_OP_S_WAITCNT_DEPCTR, RDX_ISA_OP_S_WAIT_ALU },
};

unsigned cg_target_op(const rdx_isa_target *t, unsigned op)
{
    if (!t || t->family != RDX_ISA_FAMILY_RDNA4)
        return op;
    for (size_t i = 0; i < sizeof gfx12_ops / sizeof gfx12_ops[0]; i++)
        if (gfx12_ops[i].from == op)
            return gfx12_ops[i].to;
    return op;
}

void cg_target_inst(const rdx_isa_target *t, rdx_isa_inst *in)
{
    in->op = (uint16_t)cg_target_op(t, in->op);
    if (in->op_y)
        in->op_y = (uint16_t)cg_target_op(t, in->op_y);
}
