/*
 * codegen/isel_merge.c — the last step of instruction selection: 32-bit
 * global (and LDS: ds_load) loads of one block from the same base and VGPR offset at constant
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

/* ds_load_b32 (LDS, e.g. the LDS OptOp's staged tiles): merged the same way into
   ds_load_b64/b96/b128 (the merged access may be unaligned: the driver runs gfx11 in
   SH_MEM_CONFIG's unaligned mode); the scan stops at any other LDS access and at barriers. */
static int plain_ds_load(const cg_inst *in)
{
    return in->in.op == RDX_ISA_OP_DS_LOAD_B32 && !(in->flags & CG_F_PARTIAL) && in->vr[0] &&
           in->vr[1];
}

/* The renaming of merged loads' destinations: vreg v becomes dword sub[v] of to[v]
   (to[v] == 0: unchanged).  Collected while merging and applied once at the end: a
   merged destination is a fresh vreg and no longer a plain load, so no chains form, and
   the merge decisions only compare (vreg, register) pairs, which a renaming that is one
   to one on them leaves equal or unequal as they were. */
typedef struct renames {
    uint32_t *to;
    uint8_t *sub;
    size_t n;
} renames;

static void rename_apply(cg_prog *p, const renames *r)
{
    for (size_t b = 0; b < p->nblocks; b++) {
        cg_block *bl = &p->blocks[b];
        for (size_t i = 0; i < bl->n; i++) {
            cg_inst *in = &bl->insts[i];
            for (int k = 0; k < in->in.nopnd; k++) {
                uint32_t v = in->vr[k];
                if (v && v < r->n && r->to[v]) {
                    in->vr[k] = r->to[v];
                    in->in.opnd[k].reg = (uint16_t)(in->in.opnd[k].reg + r->sub[v]);
                }
            }
        }
    }
}

unsigned cg_merge_loads(cg_prog *p)
{
    unsigned merged = 0;
    /* the vregs that exist now: only they can be renamed (merging adds new ones) */
    renames r = { calloc(p->nvregs + 1, sizeof *r.to), calloc(p->nvregs + 1, 1), p->nvregs };
    if (!r.to || !r.sub) {
        free(r.to);
        free(r.sub);
        return 0; /* no memory: the loads stay unmerged (correct, only slower) */
    }
    for (size_t bi = 0; bi < p->nblocks; bi++) {
        cg_block *b = &p->blocks[bi];
        /* loads merged into an earlier one: dead, the block compacted at its end */
        uint8_t *dead = b->n > 1 ? calloc(b->n, 1) : NULL;
        if (!dead)
            continue;
        for (size_t i = 0; i < b->n; i++) {
            cg_inst *first = &b->insts[i];
            int ds = plain_ds_load(first);
            if (dead[i] || (!ds && !plain_load(first)))
                continue;
            uint32_t va = first->vr[1], sa = ds ? 0 : first->vr[2];
            int32_t c = first->in.mod[RDX_ISA_MOD_OFFSET];
            size_t at[4] = { i, 0, 0, 0 };
            for (size_t j = i + 1; j < b->n && !(at[1] && at[2] && at[3]); j++) {
                const cg_inst *in = &b->insts[j];
                if (dead[j])
                    continue;
                if ((in->flags & (CG_F_VMEM_STORE | CG_F_BRANCH)) || writes_exec(in) ||
                    writes(in, va) || (sa && writes(in, sa)) ||
                    (ds && (in->flags & (CG_F_LGKM | CG_F_BARRIER)) && !plain_ds_load(in)))
                    break;
                if (ds ? !plain_ds_load(in) || in->vr[1] != va
                       : !plain_load(in) || in->vr[1] != va || in->vr[2] != sa)
                    continue;
                if (in->in.opnd[1].reg != first->in.opnd[1].reg)
                    continue;
                int32_t d = in->in.mod[RDX_ISA_MOD_OFFSET] - c;
                if (d > 0 && d <= 12 && d % 4 == 0 && !at[d / 4])
                    at[d / 4] = j;
            }
            unsigned n = 1;
            while (n < 4 && at[n])
                n++;
            if (n < 2 || c + 4 * (int32_t)(n - 1) > (ds ? 65535 : 4095))
                continue;
            uint32_t dst = cg_vreg_new(p, CG_V, n);
            if (!dst)
                break;
            first = &b->insts[i];
            for (unsigned k = 0; k < n; k++) {
                uint32_t old = b->insts[at[k]].vr[0];
                if (old < r.n) {
                    r.to[old] = dst;
                    r.sub[old] = (uint8_t)k;
                }
            }
            if (ds)
                first->in.op = n == 2   ? RDX_ISA_OP_DS_LOAD_B64
                               : n == 3 ? RDX_ISA_OP_DS_LOAD_B96
                                        : RDX_ISA_OP_DS_LOAD_B128;
            else
                first->in.op = n == 2   ? RDX_ISA_OP_GLOBAL_LOAD_B64
                               : n == 3 ? RDX_ISA_OP_GLOBAL_LOAD_B96
                                        : RDX_ISA_OP_GLOBAL_LOAD_B128;
            first->in.opnd[0] = cg_vopnd(p, dst, 0, n);
            first->vr[0] = dst;
            for (unsigned k = 1; k < n; k++)
                dead[at[k]] = 1;
            merged++;
        }
        size_t m = 0;
        for (size_t i = 0; i < b->n; i++)
            if (!dead[i])
                b->insts[m++] = b->insts[i];
        b->n = m;
        free(dead);
    }
    rename_apply(p, &r);
    free(r.to);
    free(r.sub);
    return merged;
}
