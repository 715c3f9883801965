/*
 * codegen/render_vopd.c — VOPD dual issue: after the register plan, two
 * independent VALU instructions that have a v_dual_* form are fused into one
 * VOPD instruction.  A partner is looked for among the next few VALU
 * instructions of the block (moving it up past VALU instructions it does not
 * depend on and that do not depend on it).  The encoder has the last word on
 * the hardware's rules (even/odd destinations, VGPR banks, one literal): a
 * pair it rejects stays two instructions.  v_fma_f32 whose destination is its
 * addend (an accumulator updated in place) pairs as v_dual_fmac_f32 (the same fused
 * multiply-add, D = S0 * S1 + D); commutative sources are swapped when that puts the
 * two halves' sources in different banks.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/cg.h"

typedef struct dual {
    rdx_isa_op op, dual;
    int x_ok;    /* may be the X (first) op */
    int commute; /* sources may be swapped */
    int nsrc;
    int acc; /* one more source, the destination itself (fma -> fmac) */
} dual;

static const dual duals[] = {
    { RDX_ISA_OP_V_ADD_F32, RDX_ISA_OP_V_DUAL_ADD_F32, 1, 1, 2, 0 },
    { RDX_ISA_OP_V_MUL_F32, RDX_ISA_OP_V_DUAL_MUL_F32, 1, 1, 2, 0 },
    { RDX_ISA_OP_V_MAX_F32, RDX_ISA_OP_V_DUAL_MAX_F32, 1, 1, 2, 0 },
    { RDX_ISA_OP_V_MIN_F32, RDX_ISA_OP_V_DUAL_MIN_F32, 1, 1, 2, 0 },
    { RDX_ISA_OP_V_SUB_F32, RDX_ISA_OP_V_DUAL_SUB_F32, 1, 0, 2, 0 },
    { RDX_ISA_OP_V_MOV_B32, RDX_ISA_OP_V_DUAL_MOV_B32, 1, 0, 1, 0 },
    { RDX_ISA_OP_V_ADD_NC_U32, RDX_ISA_OP_V_DUAL_ADD_NC_U32, 0, 1, 2, 0 },
    { RDX_ISA_OP_V_LSHLREV_B32, RDX_ISA_OP_V_DUAL_LSHLREV_B32, 0, 0, 2, 0 },
    { RDX_ISA_OP_V_AND_B32, RDX_ISA_OP_V_DUAL_AND_B32, 0, 1, 2, 0 },
    { RDX_ISA_OP_V_FMA_F32, RDX_ISA_OP_V_DUAL_FMAC_F32, 1, 1, 2, 1 },
};

static const dual *dual_of(const cg_inst *in)
{
    if (in->flags & (CG_F_BRANCH | CG_F_WAITCNT))
        return NULL;
    if (in->in.form != RDX_ISA_FORM_E64 && in->in.form != RDX_ISA_FORM_E32)
        return NULL;
    for (size_t k = 0; k < sizeof duals / sizeof duals[0]; k++)
        if (duals[k].op == in->in.op) {
            /* no modifier but op_sel_hi */
            static const int32_t zero[RDX_ISA_MOD_COUNT];
            const int32_t *md = in->in.mod;
            if (memcmp(md, zero, RDX_ISA_MOD_OP_SEL_HI * sizeof *md) ||
                memcmp(md + RDX_ISA_MOD_OP_SEL_HI + 1, zero,
                       (RDX_ISA_MOD_COUNT - RDX_ISA_MOD_OP_SEL_HI - 1) * sizeof *md))
                return NULL;
            if (in->ndef != 1 || in->in.nopnd != 1 + duals[k].nsrc + duals[k].acc ||
                in->in.opnd[0].kind != RDX_ISA_OPND_VGPR || in->in.opnd[0].count != 1)
                return NULL;
            if (duals[k].acc) { /* the addend is the destination register */
                const rdx_isa_opnd *d = &in->in.opnd[0], *c = &in->in.opnd[1 + duals[k].nsrc];
                if (c->kind != RDX_ISA_OPND_VGPR || c->reg != d->reg ||
                    (c->count ? c->count : 1) != 1)
                    return NULL;
            }
            return &duals[k];
        }
    return NULL;
}

/* (dual_of is NULL unless the form is E64 or E32, so those forms are the VALU ones here) */
static int is_valu(const cg_inst *in)
{
    return in->in.form == RDX_ISA_FORM_E64 || in->in.form == RDX_ISA_FORM_E32;
}

static int overlap(const rdx_isa_opnd *a, const rdx_isa_opnd *b)
{
    if (a->kind != b->kind)
        return 0;
    if (a->kind == RDX_ISA_OPND_SPECIAL)
        return a->reg == b->reg;
    if (a->kind != RDX_ISA_OPND_VGPR && a->kind != RDX_ISA_OPND_SGPR)
        return 0;
    unsigned ac = a->count ? a->count : 1, bc = b->count ? b->count : 1;
    return a->reg < b->reg + bc && b->reg < a->reg + ac;
}

/* Does `later` depend on `earlier` (RAW, WAR or WAW)?  Pairs where one of the two
   operands is a def: earlier's defs against all of later's operands, earlier's uses
   against later's defs. */
static int depends(const cg_inst *earlier, const cg_inst *later)
{
    int en = earlier->in.nopnd, ln = later->in.nopnd;
    int ed = earlier->ndef < en ? earlier->ndef : en, ld = later->ndef < ln ? later->ndef : ln;
    for (int i = 0; i < ed; i++)
        for (int j = 0; j < ln; j++)
            if (overlap(&earlier->in.opnd[i], &later->in.opnd[j]))
                return 1;
    for (int i = ed; i < en; i++)
        for (int j = 0; j < ld; j++)
            if (overlap(&earlier->in.opnd[i], &later->in.opnd[j]))
                return 1;
    /* v_div_fmas reads VCC implicitly, v_div_scale writes it explicitly: keep them ordered */
    return 0;
}

/* The dual form of `in` with src1 a VGPR (swapping commutative sources; swap: swap them
   when both are VGPRs, for the bank rules). */
static int dual_operands(const cg_inst *in, const dual *d, int swap, rdx_isa_opnd *o)
{
    o[0] = in->in.opnd[0];
    o[1] = in->in.opnd[1];
    if (d->nsrc == 1)
        return !swap;
    o[2] = in->in.opnd[2];
    if (swap && (!d->commute || o[1].kind != RDX_ISA_OPND_VGPR || o[2].kind != RDX_ISA_OPND_VGPR))
        return 0;
    if (o[2].kind != RDX_ISA_OPND_VGPR || swap) {
        if (!d->commute || o[1].kind != RDX_ISA_OPND_VGPR)
            return 0;
        rdx_isa_opnd t = o[1];
        o[1] = o[2];
        o[2] = t;
    }
    return 1;
}

/* a and b (dual forms da, db) as one VOPD instruction in *out; 0 when they cannot pair. */
static int try_pair(const cg_prog *p, const cg_inst *a, const dual *da, const cg_inst *b,
                    const dual *db, cg_inst *out)
{
    if (!da || !db || (a->flags & CG_F_PARTIAL) != (b->flags & CG_F_PARTIAL))
        return 0;
    /* a came first.  Dual issue reads every source before writing: X may read
       Y's destination, Y must not read X's.  With a as X, b must not read a's
       destination; with b as X, neither may read the other's. */
    int waw = overlap(&a->in.opnd[0], &b->in.opnd[0]), raw_ab = 0, raw_ba = 0;
    for (int k = b->ndef; k < b->in.nopnd; k++)
        raw_ab |= overlap(&a->in.opnd[0], &b->in.opnd[k]);
    for (int k = a->ndef; k < a->in.nopnd; k++)
        raw_ba |= overlap(&b->in.opnd[0], &a->in.opnd[k]);
    if (waw || raw_ab)
        return 0;
    for (int variant = 0; variant < 8; variant++) {
        int order = variant & 1, sx = variant >> 1 & 1, sy = variant >> 2;
        if (order == 1 && raw_ba)
            continue;
        const cg_inst *x = order ? b : a, *y = order ? a : b;
        const dual *dx = order ? db : da, *dy = order ? da : db;
        if (!dx->x_ok)
            continue;
        rdx_isa_opnd ox[3], oy[3];
        if (!dual_operands(x, dx, sx, ox) || !dual_operands(y, dy, sy, oy))
            continue;
        /* what the encoder is sure to reject, told apart before it formats its message:
           destinations of one parity, and on RDNA3 sources of one VGPR bank */
        if ((ox[0].reg & 1) == (oy[0].reg & 1))
            continue;
        int clash = 0;
        for (int k = 1; k <= dx->nsrc && k <= dy->nsrc; k++)
            clash |= p->tgt->family == RDX_ISA_FAMILY_RDNA3 && ox[k].kind == RDX_ISA_OPND_VGPR &&
                     oy[k].kind == RDX_ISA_OPND_VGPR && ox[k].reg % 4 == oy[k].reg % 4;
        if (clash)
            continue;
        cg_inst m;
        memset(&m, 0, sizeof m);
        m.in.op = (uint16_t)dx->dual;
        m.in.op_y = (uint16_t)dy->dual;
        m.in.form = RDX_ISA_FORM_NATIVE;
        m.in.nx = (uint8_t)(1 + dx->nsrc);
        int n = 0;
        for (int k = 0; k <= dx->nsrc; k++)
            m.in.opnd[n++] = ox[k];
        for (int k = 0; k <= dy->nsrc; k++)
            m.in.opnd[n++] = oy[k];
        m.in.nopnd = (uint8_t)n;
        m.target = -1;
        m.flags = a->flags & CG_F_PARTIAL;
        /* defs are the two destinations: keep them first for later dependence checks */
        m.ndef = 0;
        uint8_t bytes[RDX_ISA_MAX_BYTES];
        size_t len;
        rdx_isa_inst tx = m.in;
        cg_target_inst(p->tgt, &tx); /* the target's spelling (gfx12: v_dual_max_num_f32) */
        if (rdx_isa_encode(p->tgt, &tx, bytes, &len))
            continue;
        *out = m;
        return 1;
    }
    return 0;
}

unsigned cg_vopd(cg_prog *p)
{
    unsigned pairs = 0;
    for (size_t bi = 0; bi < p->nblocks; bi++) {
        cg_block *b = &p->blocks[bi];
        /* an instruction paired into an earlier one is marked dead and the block is
           compacted once at the end (the window counts live instructions only, as if each
           pairing had removed it at once) */
        /* per instruction: dead (paired into an earlier one), has a dual form, is VALU
           (classified once; a pair's VOPD is reclassified) */
        uint8_t *dead = b->n > 1 ? calloc(2 * b->n, 1) : NULL;
        const dual **has_dual = dead ? malloc(b->n * sizeof *has_dual) : NULL;
        if (!has_dual) {
            free(dead);
            continue; /* nothing to pair, or no memory: the block stays unpaired */
        }
        uint8_t *valu = dead + b->n;
        for (size_t i = 0; i < b->n; i++) {
            has_dual[i] = dual_of(&b->insts[i]);
            valu[i] = is_valu(&b->insts[i]);
        }
        for (size_t i = 0; i + 1 < b->n; i++) {
            if (dead[i] || !has_dual[i])
                continue;
            int live = 0;
            for (size_t j = i + 1; j < b->n && live < 6; j++) {
                if (dead[j])
                    continue;
                live++;
                const cg_inst *cj = &b->insts[j];
                if (!valu[j])
                    break;
                if (!has_dual[j])
                    continue;
                /* what try_pair is sure to reject, told before the walk below: one EXEC
                   state and destinations of different parity are needed in either order */
                const cg_inst *ci = &b->insts[i];
                if ((ci->flags & CG_F_PARTIAL) != (cj->flags & CG_F_PARTIAL) ||
                    (ci->in.opnd[0].reg & 1) == (cj->in.opnd[0].reg & 1))
                    continue;
                /* j must move up past the live i+1..j-1 */
                int blocked = 0;
                for (size_t k = i + 1; k < j && !blocked; k++)
                    blocked = !dead[k] && (!valu[k] || depends(&b->insts[k], cj));
                if (blocked)
                    continue;
                cg_inst m;
                if (!try_pair(p, &b->insts[i], has_dual[i], cj, has_dual[j], &m))
                    continue;
                b->insts[i] = m;
                has_dual[i] = dual_of(&m);
                valu[i] = is_valu(&m);
                dead[j] = 1;
                pairs++;
                break;
            }
        }
        size_t n = 0;
        for (size_t i = 0; i < b->n; i++)
            if (!dead[i]) {
                if (n != i)
                    b->insts[n] = b->insts[i];
                n++;
            }
        b->n = n;
        free(dead);
        free(has_dual);
    }
    return pairs;
}
