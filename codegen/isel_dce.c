/*
 * codegen/isel_dce.c — dead-code removal after instruction selection.
 *
 * Instruction selection lowers the pure values a scope can compute before the
 * effects that use them (hoisting); some of them end up unused, typically
 * index arithmetic whose constant part an access folded into its offset
 * field.  An instruction is removed when it is a plain ALU op (VOP1/VOP2/VOP3/
 * VOP3P, or an SALU move/multiply, which leave SCC alone), carries no flags
 * (memory, branch, barrier, gated) and every register it writes is a virtual
 * register that no instruction reads.  Repeated until nothing changes.
 */
#include <stdlib.h>

#include "codegen/isel.h"

static int removable(const cg_prog *p, const cg_inst *in, const uint32_t *reads)
{
    if (in->flags || in->ndef == 0)
        return 0;
    /* a def still read (the common case) before the op's class */
    for (int k = 0; k < in->ndef; k++)
        if (!in->vr[k] || reads[in->vr[k]])
            return 0;
    switch (in->in.op) {
    case RDX_ISA_OP_S_MOV_B32:
    case RDX_ISA_OP_S_MOV_B64:
    case RDX_ISA_OP_S_MUL_I32:
        break;
    default: {
        const rdx_isa_form_info *fi =
            cg_form(p->tgt, (rdx_isa_op)in->in.op, (rdx_isa_form)in->in.form);
        if (!fi)
            return 0;
        if (fi->enc != RDX_ISA_ENC_VOP1 && fi->enc != RDX_ISA_ENC_VOP2 &&
            fi->enc != RDX_ISA_ENC_VOP3 && fi->enc != RDX_ISA_ENC_VOP3P)
            return 0;
    }
    }
    return 1;
}

unsigned cg_dce(cg_prog *p)
{
    uint32_t *reads = calloc(p->nvregs + 1, sizeof *reads);
    if (!reads)
        return 0; /* an optimisation only: keep everything */
    for (size_t b = 0; b < p->nblocks; b++)
        for (size_t i = 0; i < p->blocks[b].n; i++) {
            const cg_inst *in = &p->blocks[b].insts[i];
            for (int k = in->ndef; k < in->in.nopnd; k++)
                if (in->vr[k])
                    reads[in->vr[k]]++;
        }
    /* Removal only lowers read counts, so what ends up removed does not depend on the order
       the instructions are looked at: backwards (blocks and instructions), a chain of dead
       values goes in one pass, its users before the values they read. */
    size_t maxn = 0;
    for (size_t b = 0; b < p->nblocks; b++)
        maxn = p->blocks[b].n > maxn ? p->blocks[b].n : maxn;
    uint8_t *dead = malloc(maxn + 1);
    if (!dead) {
        free(reads);
        return 0;
    }
    unsigned removed = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t b = p->nblocks; b-- > 0;) {
            cg_block *bl = &p->blocks[b];
            int any = 0;
            for (size_t i = bl->n; i-- > 0;) {
                const cg_inst *in = &bl->insts[i];
                dead[i] = (uint8_t)removable(p, in, reads);
                if (!dead[i])
                    continue;
                for (int k = in->ndef; k < in->in.nopnd; k++)
                    if (in->vr[k])
                        reads[in->vr[k]]--;
                removed++;
                any = changed = 1;
            }
            if (!any)
                continue;
            size_t o = 0;
            for (size_t i = 0; i < bl->n; i++)
                if (!dead[i]) {
                    if (o != i)
                        bl->insts[o] = bl->insts[i];
                    o++;
                }
            bl->n = o;
        }
    }
    free(dead);
    free(reads);
    return removed;
}
