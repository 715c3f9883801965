/*
 * codegen/isel_merge.c — the last step of instruction selection: 32-bit
 * global loads of one block from the same base and VGPR offset at constant
 * offsets c, c+4, c+8 (, c+12) become one global_load_b64/b96/b128 (what an
 * upcast axis produces).  The merged load issues at the first load's place;
 * the scan stops at any global store, EXEC write or redefinition of the
 * address registers, so no load moves past a write it could depend on.  The
 * loads' destinations become dwords of the merged destination.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/cg.h"

static int writes(const cg_inst *in, uint32_t vr)
{
    for (int k = 0; k < in->ndef; k++)
        if (in->vr[k] == vr)
            return 1;
    return 0;
}

static int writes_exec(const cg_inst *in)
{
    if (in->in.op == RDX_ISA_OP_S_AND_SAVEEXEC_B32)
        return 1;
    for (int k = 0; k < in->ndef; k++)
        if (in->in.opnd[k].kind == RDX_ISA_OPND_SPECIAL &&
            in->in.opnd[k].reg == RDX_ISA_REG_EXEC_LO)
            return 1;
    return 0;
}

static int plain_load(const cg_inst *in)
{
    return in->in.op == RDX_ISA_OP_GLOBAL_LOAD_B32 && !(in->flags & CG_F_PARTIAL) && in->vr[0] &&
           in->vr[1] && in->vr[2];
}

static void rename_all(cg_prog *p, uint32_t from, uint32_t to, unsigned sub)
{
    for (size_t b = 0; b < p->nblocks; b++) {
        cg_block *bl = &p->blocks[b];
        for (size_t i = 0; i < bl->n; i++) {
            cg_inst *in = &bl->insts[i];
            for (int k = 0; k < in->in.nopnd; k++)
                if (in->vr[k] == from) {
                    in->vr[k] = to;
                    in->in.opnd[k].reg = (uint16_t)(in->in.opnd[k].reg + sub);
                }
        }
    }
}

unsigned cg_merge_loads(cg_prog *p)
{
    unsigned merged = 0;
    for (size_t bi = 0; bi < p->nblocks; bi++) {
        cg_block *b = &p->blocks[bi];
        for (size_t i = 0; i < b->n; i++) {
            cg_inst *first = &b->insts[i];
            if (!plain_load(first))
                continue;
            uint32_t va = first->vr[1], sa = first->vr[2];
            int32_t c = first->in.mod[RDX_ISA_MOD_OFFSET];
            size_t at[4] = { i, 0, 0, 0 };
            for (size_t j = i + 1; j < b->n; j++) {
                const cg_inst *in = &b->insts[j];
                if ((in->flags & (CG_F_VMEM_STORE | CG_F_BRANCH)) || writes_exec(in) ||
                    writes(in, va) || writes(in, sa))
                    break;
                if (!plain_load(in) || in->vr[1] != va || in->vr[2] != sa ||
                    in->in.opnd[1].reg != first->in.opnd[1].reg)
                    continue;
                int32_t d = in->in.mod[RDX_ISA_MOD_OFFSET] - c;
                if (d > 0 && d <= 12 && d % 4 == 0 && !at[d / 4])
                    at[d / 4] = j;
            }
            unsigned n = 1;
            while (n < 4 && at[n])
                n++;
            if (n < 2 || c + 4 * (int32_t)(n - 1) > 4095)
                continue;
            uint32_t dst = cg_vreg_new(p, CG_V, n);
            if (!dst)
                return merged;
            first = &b->insts[i];
            uint32_t old[4];
            for (unsigned k = 0; k < n; k++)
                old[k] = b->insts[at[k]].vr[0];
            first->in.op = n == 2   ? RDX_ISA_OP_GLOBAL_LOAD_B64
                           : n == 3 ? RDX_ISA_OP_GLOBAL_LOAD_B96
                                    : RDX_ISA_OP_GLOBAL_LOAD_B128;
            first->in.opnd[0] = cg_vopnd(p, dst, 0, n);
            first->vr[0] = dst;
            /* drop the other loads, highest position first */
            for (unsigned k = n - 1; k >= 1; k--) {
                size_t m = k;
                for (unsigned q = 1; q < n; q++)
                    if (at[q] > at[m])
                        m = q;
                size_t pos = at[m];
                memmove(&b->insts[pos], &b->insts[pos + 1], (b->n - pos - 1) * sizeof *b->insts);
                b->n--;
                at[m] = 0;
            }
            for (unsigned k = 0; k < n; k++)
                rename_all(p, old[k], dst, k);
            merged++;
        }
    }
    return merged;
}
