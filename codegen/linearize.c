/*
 * codegen/linearize.c — the instruction order: blocks are laid out in the
 * order isel created them (structured loops: pre-header, body with the back
 * edge at its end, exit), successors come from each block's terminator, and
 * s_waitcnt is placed as late as the data dependencies allow.
 *
 * s_waitcnt: within a block, VMEM loads (vmcnt) and LDS/SMEM accesses
 * (lgkmcnt) are tracked in issue order; an instruction that reads or writes a
 * register a pending load writes waits until that load is done (vmcnt(n) with
 * n = loads issued after it; SMEM returns out of order, so lgkmcnt(0) while
 * one is pending).  s_barrier waits for every LDS access.  At the end of a
 * block everything pending is waited for (loop headers start clean).
 * gfx12 counts them apart: the same placement, written as s_wait_loadcnt N
 * (vmcnt), s_wait_dscnt N (lgkmcnt with only LDS pending) and s_wait_kmcnt 0
 * (lgkmcnt while an SMEM is pending, which is always 0 here).
 * Linearizing again first drops the waits placed before (after spill code).
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/cg.h"
#include "util/error.h"
#include "util/scratch.h"

#define MAXQ 64

typedef struct wq {
    uint32_t vm[MAXQ];
    int nvm;
    struct {
        uint32_t vr;
        uint8_t smem;
    } lg[MAXQ];
    int nlg;
    int nsmem;               /* SMEM entries in lg[] */
    uint16_t *vmcnt, *lgcnt; /* per vreg: its entries in vm[] / lg[] (0: no queue scan) */
} wq;

static cg_inst wait_op(rdx_isa_op op, int imm)
{
    cg_inst w;
    memset(&w, 0, sizeof w);
    w.in.op = (uint16_t)op;
    w.in.form = RDX_ISA_FORM_NATIVE;
    w.in.nopnd = 1;
    w.in.opnd[0] = rdx_isa_imm(imm);
    w.flags = CG_F_WAITCNT;
    w.target = -1;
    return w;
}

static cg_inst waitcnt(int vm, int lgkm)
{
    return wait_op(RDX_ISA_OP_S_WAITCNT, (vm << 10) | (lgkm << 4) | 7);
}

static void drop_vm(wq *q, int keep)
{
    int drop = q->nvm - keep;
    if (drop <= 0)
        return;
    for (int j = 0; j < drop; j++)
        q->vmcnt[q->vm[j]]--;
    memmove(q->vm, q->vm + drop, (size_t)keep * sizeof q->vm[0]);
    q->nvm = keep;
}

static void drop_lg(wq *q, int keep)
{
    int drop = q->nlg - keep;
    if (drop <= 0)
        return;
    for (int j = 0; j < drop; j++) {
        q->lgcnt[q->lg[j].vr]--;
        q->nsmem -= q->lg[j].smem;
    }
    memmove(q->lg, q->lg + drop, (size_t)keep * sizeof q->lg[0]);
    q->nlg = keep;
}

static rdx_status place_waits(cg_prog *p, int bi, uint16_t *cnt)
{
    wq q;
    memset(&q, 0, sizeof q);
    q.vmcnt = cnt, q.lgcnt = cnt + p->nvregs + 1;
    cg_block *b = &p->blocks[bi];
    /* the waits go in with one rebuild of the block at the end */
    size_t nw = 0, wcap = 0;
    struct {
        size_t at;
        cg_inst w;
    } *ws = NULL;
    for (size_t i = 0; i <= b->n; i++) {
        const cg_inst *in = i < b->n ? &b->insts[i] : NULL;
        int term = !in || (in->flags & CG_F_BRANCH) || in->in.op == RDX_ISA_OP_S_ENDPGM;
        int vm = 63, lg = 63;
        if (in && in->in.op == RDX_ISA_OP_S_ENDPGM)
            term = 0; /* nothing to wait for at the end */
        if (term) {
            vm = 0, lg = 0;
        } else if (in) {
            int smem_pending = q.nsmem > 0;
            for (int k = 0; k < in->in.nopnd && (q.nvm || q.nlg); k++) {
                uint32_t vr = in->vr[k];
                if (!vr)
                    continue;
                /* VMEM loads return in order: a load writing (or, d16, merging into) the
                   register of a pending load needs no wait for it */
                int vm_waw = (in->flags & CG_F_VMEM_LOAD) && k < in->ndef;
                for (int j = 0; j < q.nvm && !vm_waw && q.vmcnt[vr]; j++)
                    if (q.vm[j] == vr && q.nvm - j - 1 < vm)
                        vm = q.nvm - j - 1;
                for (int j = 0; j < q.nlg && q.lgcnt[vr]; j++)
                    if (q.lg[j].vr == vr) {
                        int n = smem_pending ? 0 : q.nlg - j - 1;
                        lg = n < lg ? n : lg;
                    }
            }
            if (in->flags & CG_F_BARRIER)
                lg = 0;
            /* the queues hold at most MAXQ entries */
            if ((in->flags & CG_F_VMEM_LOAD) && q.nvm >= MAXQ - 1 && vm > MAXQ / 2)
                vm = MAXQ / 2;
            if ((in->flags & CG_F_LGKM) && q.nlg >= MAXQ - 1 && lg > 0)
                lg = smem_pending ? 0 : MAXQ / 2;
        }
        if ((vm < q.nvm) || (lg < q.nlg)) {
            if (nw == wcap) {
                wcap = wcap ? 2 * wcap : 16;
                void *nws = realloc(ws, wcap * sizeof *ws);
                if (!nws) {
                    free(ws);
                    return rdx_fail(RDX_ERR_NOMEM, "linearize: out of memory");
                }
                ws = nws;
            }
            if (p->ct->major >= 12) { /* split counters: up to three waits here */
                cg_inst w3[3];
                int n3 = 0;
                if (vm < q.nvm)
                    w3[n3++] = wait_op(RDX_ISA_OP_S_WAIT_LOADCNT, vm);
                if (lg < q.nlg && q.nlg > q.nsmem)
                    w3[n3++] = wait_op(RDX_ISA_OP_S_WAIT_DSCNT, q.nsmem ? 0 : lg);
                if (lg < q.nlg && q.nsmem)
                    w3[n3++] = wait_op(RDX_ISA_OP_S_WAIT_KMCNT, 0);
                for (int j = 0; j < n3; j++) {
                    if (nw == wcap) {
                        wcap = 2 * wcap;
                        void *nws = realloc(ws, wcap * sizeof *ws);
                        if (!nws) {
                            free(ws);
                            return rdx_fail(RDX_ERR_NOMEM, "linearize: out of memory");
                        }
                        ws = nws;
                    }
                    ws[nw].at = i, ws[nw].w = w3[j], nw++;
                }
            } else {
                ws[nw].at = i;
                ws[nw].w = waitcnt(vm < q.nvm ? vm : 63, lg < q.nlg ? lg : 63);
                nw++;
            }
            if (vm < q.nvm)
                drop_vm(&q, vm);
            if (lg < q.nlg)
                drop_lg(&q, lg);
        }
        if (!in)
            break;
        in = &b->insts[i];
        if (in->flags & CG_F_VMEM_LOAD) {
            q.vm[q.nvm++] = in->vr[0];
            q.vmcnt[in->vr[0]]++;
        }
        if (in->flags & CG_F_LGKM) {
            q.lg[q.nlg].vr = in->ndef ? in->vr[0] : 0;
            q.lg[q.nlg].smem = (in->flags & CG_F_SMEM) != 0;
            q.lgcnt[q.lg[q.nlg].vr]++;
            q.nsmem += q.lg[q.nlg].smem;
            q.nlg++;
        }
    }
    if (nw) {
        cg_inst *out = rdx_scratch_alloc((b->n + nw) * sizeof *out);
        if (!out) {
            free(ws);
            return rdx_fail(RDX_ERR_NOMEM, "linearize: out of memory");
        }
        size_t m = 0, k = 0;
        for (size_t i = 0; i <= b->n; i++) {
            while (k < nw && ws[k].at == i)
                out[m++] = ws[k++].w;
            if (i < b->n)
                out[m++] = b->insts[i];
        }
        rdx_scratch_free(b->insts);
        b->insts = out, b->n = m, b->cap = m;
    }
    free(ws);
    return RDX_OK;
}

rdx_status cg_linearize(cg_prog *p)
{
    /* idempotent: the register plan re-linearizes after inserting spill code */
    for (size_t bi = 0; bi < p->nblocks; bi++) {
        cg_block *b = &p->blocks[bi];
        size_t n = 0;
        for (size_t i = 0; i < b->n; i++)
            if (!(b->insts[i].flags & CG_F_WAITCNT)) {
                if (n != i)
                    b->insts[n] = b->insts[i];
                n++;
            }
        b->n = n;
    }
    /* per vreg: its entries in the wait queues (every block ends with them empty) */
    uint16_t *cnt = calloc(2 * (p->nvregs + 1), sizeof *cnt);
    if (!cnt)
        return rdx_fail(RDX_ERR_NOMEM, "linearize: out of memory");
    for (size_t bi = 0; bi < p->nblocks; bi++) {
        rdx_status st = place_waits(p, (int)bi, cnt);
        if (st) {
            free(cnt);
            return st;
        }
    }
    free(cnt);
    uint32_t pos = 0;
    for (size_t bi = 0; bi < p->nblocks; bi++) {
        cg_block *b = &p->blocks[bi];
        b->start = pos;
        pos += (uint32_t)b->n;
        b->succ[0] = b->succ[1] = -1;
        const cg_inst *last = b->n ? &b->insts[b->n - 1] : NULL;
        int next = bi + 1 < p->nblocks ? (int)bi + 1 : -1;
        if (last && last->in.op == RDX_ISA_OP_S_ENDPGM)
            continue;
        if (last && (last->flags & CG_F_BRANCH)) {
            if (last->target < 0 || (size_t)last->target >= p->nblocks)
                return rdx_fail(RDX_ERR_INVALID, "linearize: block %zu branches to no block", bi);
            if (last->in.op == RDX_ISA_OP_S_BRANCH) {
                b->succ[0] = last->target;
                continue;
            }
            b->succ[0] = next;
            b->succ[1] = last->target;
            continue;
        }
        b->succ[0] = next;
    }
    return RDX_OK;
}
