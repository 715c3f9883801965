/*
 * codegen/regalloc.c — the register plan: liveness over the control-flow
 * graph (block live-in/live-out sets, iterated to a fixed point), one live
 * interval per virtual register (from its first to its last live position,
 * covering whole loops it is live around), and linear-scan assignment.
 *
 * Files: SGPRs s0..s105 (VCC is not allocated), VGPRs v0..v255.  SGPR
 * ranges of 2 dwords are even-aligned, 4 and more 4-aligned; VGPR ranges
 * need no alignment on gfx11.  Pre-coloured ABI registers (kernarg pointer,
 * workgroup ids, v0) keep their registers for the whole kernel.  A write of a
 * register's first dword that is not under a narrowed EXEC kills the old
 * value.  No spilling: running out is RDX_ERR_RANGE naming the file.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/cg.h"
#include "util/error.h"

#define NSGPR 106
#define NVGPR 256

typedef struct iv {
    uint32_t vr;
    uint32_t start, end;
} iv;

static int cmp_iv(const void *a, const void *b)
{
    const iv *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->vr < y->vr ? -1 : x->vr > y->vr;
}

rdx_status cg_regalloc(cg_prog *p)
{
    size_t nv = p->nvregs, nb = p->nblocks;
    size_t words = (nv + 63) / 64;
    uint64_t *mem = calloc(words * nb * 4 + 1, sizeof(uint64_t));
    uint32_t *start = malloc((nv + 1) * sizeof *start), *end = malloc((nv + 1) * sizeof *end);
    iv *ivs = malloc((nv + 1) * sizeof *ivs);
    rdx_status st = RDX_OK;
    if (!mem || !start || !end || !ivs) {
        st = rdx_fail(RDX_ERR_NOMEM, "regalloc: out of memory");
        goto out;
    }
    uint64_t *use = mem, *def = mem + words * nb, *lin = mem + 2 * words * nb,
             *lout = mem + 3 * words * nb;
#define BIT(s, b, v) ((s)[(size_t)(b) * words + (v) / 64] & (1ull << ((v) % 64)))
#define SET(s, b, v) ((s)[(size_t)(b) * words + (v) / 64] |= (1ull << ((v) % 64)))
    for (size_t b = 0; b < nb; b++) {
        const cg_block *bl = &p->blocks[b];
        for (size_t i = 0; i < bl->n; i++) {
            const cg_inst *in = &bl->insts[i];
            for (int k = in->ndef; k < in->in.nopnd; k++)
                if (in->vr[k] && !BIT(def, b, in->vr[k]))
                    SET(use, b, in->vr[k]);
            for (int k = 0; k < in->ndef; k++) {
                uint32_t v = in->vr[k];
                if (!v)
                    continue;
                int kills = !(in->flags & CG_F_PARTIAL) && in->in.opnd[k].reg == 0;
                if (kills)
                    SET(def, b, v);
                else if (!BIT(def, b, v))
                    SET(use, b, v);
            }
        }
    }
    /* live-in = use | (live-out & ~def); live-out = union of successors' live-in */
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t bb = nb; bb-- > 0;) {
            const cg_block *bl = &p->blocks[bb];
            for (size_t w = 0; w < words; w++) {
                uint64_t o = 0;
                for (int s = 0; s < 2; s++)
                    if (bl->succ[s] >= 0)
                        o |= lin[(size_t)bl->succ[s] * words + w];
                uint64_t in = use[bb * words + w] | (o & ~def[bb * words + w]);
                if (o != lout[bb * words + w] || in != lin[bb * words + w])
                    changed = 1;
                lout[bb * words + w] = o;
                lin[bb * words + w] = in;
            }
        }
    }
    for (size_t v = 0; v < nv; v++)
        start[v] = UINT32_MAX, end[v] = 0;
    for (size_t b = 0; b < nb; b++) {
        const cg_block *bl = &p->blocks[b];
        uint32_t b0 = 2 * bl->start, b1 = 2 * (bl->start + (uint32_t)bl->n);
        for (size_t v = 1; v < nv; v++) {
            if (BIT(lin, b, v)) {
                start[v] = b0 < start[v] ? b0 : start[v];
                end[v] = b0 > end[v] ? b0 : end[v];
            }
            if (BIT(lout, b, v)) {
                end[v] = b1 > end[v] ? b1 : end[v];
                start[v] = b1 < start[v] ? b1 : start[v];
            }
        }
        for (size_t i = 0; i < bl->n; i++) {
            const cg_inst *in = &bl->insts[i];
            uint32_t pos = 2 * (bl->start + (uint32_t)i);
            for (int k = 0; k < in->in.nopnd; k++) {
                uint32_t v = in->vr[k];
                if (!v)
                    continue;
                uint32_t q = k < in->ndef ? pos + 1 : pos;
                start[v] = q < start[v] ? q : start[v];
                end[v] = q > end[v] ? q : end[v];
            }
        }
    }
    /* linear scan */
    size_t n = 0;
    for (size_t v = 1; v < nv; v++)
        if (start[v] != UINT32_MAX && !p->vregs[v].fixed)
            ivs[n++] = (iv){ (uint32_t)v, start[v], end[v] };
    qsort(ivs, n, sizeof *ivs, cmp_iv);
    uint32_t busy_until[2][NVGPR]; /* position after which the register is free */
    uint8_t fixed[2][NVGPR];
    memset(busy_until, 0, sizeof busy_until);
    memset(fixed, 0, sizeof fixed);
    uint32_t hi[2] = { 0, 0 };
    for (size_t v = 1; v < nv; v++) {
        const cg_vreg *r = &p->vregs[v];
        if (!r->fixed)
            continue;
        for (unsigned w = 0; w < r->size; w++)
            fixed[r->file][r->phys + w] = 1;
        uint32_t top = (uint32_t)r->phys + r->size;
        hi[r->file] = top > hi[r->file] ? top : hi[r->file];
    }
    for (size_t i = 0; i < n; i++) {
        cg_vreg *r = &p->vregs[ivs[i].vr];
        int f = r->file;
        unsigned lim = f == CG_S ? NSGPR : NVGPR, al = r->align ? r->align : 1;
        int found = -1;
        for (unsigned reg = 0; reg + r->size <= lim; reg += al) {
            int ok = 1;
            for (unsigned w = 0; w < r->size && ok; w++)
                ok = !fixed[f][reg + w] && busy_until[f][reg + w] <= ivs[i].start;
            if (ok) {
                found = (int)reg;
                break;
            }
        }
        if (found < 0) {
            st = rdx_fail(RDX_ERR_RANGE,
                          "regalloc: the kernel needs more than %u %s live at once "
                          "(spilling is not implemented)",
                          lim, f == CG_S ? "SGPRs" : "VGPRs");
            goto out;
        }
        r->phys = (int16_t)found;
        for (unsigned w = 0; w < r->size; w++)
            busy_until[f][found + w] = ivs[i].end + 1;
        uint32_t top = (uint32_t)found + r->size;
        hi[f] = top > hi[f] ? top : hi[f];
    }
    /* rewrite operands */
    for (size_t b = 0; b < nb; b++) {
        cg_block *bl = &p->blocks[b];
        for (size_t i = 0; i < bl->n; i++) {
            cg_inst *in = &bl->insts[i];
            for (int k = 0; k < in->in.nopnd; k++) {
                uint32_t v = in->vr[k];
                if (!v)
                    continue;
                if (p->vregs[v].phys < 0) {
                    st = rdx_fail(RDX_ERR_INVALID, "regalloc: register %%%u has no assignment", v);
                    goto out;
                }
                in->in.opnd[k].reg = (uint16_t)(in->in.opnd[k].reg + p->vregs[v].phys);
            }
        }
    }
    p->num_sgprs = hi[CG_S];
    p->num_vgprs = hi[CG_V] ? hi[CG_V] : 1;
out:
    free(mem);
    free(start);
    free(end);
    free(ivs);
    return st;
}
