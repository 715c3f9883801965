/*
 * ir/verify.c — the graph verifier: per-node rules (re-derived, as at
 * construction) and the scope rules of RANGE.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir_internal.h"

/* Re-derive a node and compare with what it carries: catches stale or corrupted nodes. */
static rdx_status recheck(rdx_ir_ctx *ctx, const rdx_uop *u)
{
    rdx_uop t = *u;
    const rdx_uop *dims[RDX_IR_MAX_DIMS];
    t.ndim = 0;
    t.shape = NULL;
    t.device = NULL;
    t.addrspace = 0;
    t.axis = -1;
    t.vmin = t.vmax = 0;
    t.fmin = t.fmax = 0;
    rdx_status st = rdx_ir_derive(ctx, &t, dims);
    if (st)
        return st;
    const rdx_uop *const *sh = t.shape ? t.shape : dims;
    int same = rdx_dtype_eq(t.dtype, u->dtype) && t.ndim == u->ndim && t.device == u->device &&
               t.addrspace == u->addrspace && t.vmin == u->vmin && t.vmax == u->vmax;
    for (uint32_t k = 0; same && k < t.ndim; k++)
        same = sh[k] == u->shape[k];
    if (!same)
        return rdx_ir_rule_fail(u, RDX_RULE_ARG, "derived properties differ from the node's");
    return RDX_OK;
}

rdx_status rdx_ir_verify(rdx_ir_ctx *ctx, const rdx_uop *root)
{
    const rdx_uop **order;
    size_t n;
    rdx_status st = rdx_ir_toposort(root, &order, &n);
    if (st)
        return st;
    for (size_t i = 0; i < n && !st; i++)
        st = recheck(ctx, order[i]);
    /* number the ranges */
    rdx_pmap idx = { 0 }, rix = { 0 };
    size_t nr = 0;
    const rdx_uop **ranges = NULL;
    for (size_t i = 0; i < n && !st; i++) {
        st = rdx_pmap_put(&idx, order[i], (void *)(uintptr_t)(i + 1));
        if (!st && order[i]->op == RDX_OP_RANGE) {
            const rdx_uop **nrg = realloc(ranges, (nr + 1) * sizeof *ranges);
            if (!nrg) {
                st = rdx_fail(RDX_ERR_NOMEM, "verify: out of memory");
                break;
            }
            ranges = nrg;
            ranges[nr] = order[i];
            st = rdx_pmap_put(&rix, order[i], (void *)(uintptr_t)(nr + 1));
            nr++;
        }
    }
    size_t words = (nr + 63) / 64;
    uint64_t *open = NULL, *ended = NULL;
    if (!st && nr) {
        open = calloc(n * words, sizeof *open);
        ended = calloc(n * words, sizeof *ended);
        if (!open || !ended)
            st = rdx_fail(RDX_ERR_NOMEM, "verify: out of memory");
    }
    uint64_t *uo = NULL, *ue = NULL, *cl = NULL;
    if (!st && nr) {
        uo = calloc(3 * words, sizeof *uo);
        if (!uo)
            st = rdx_fail(RDX_ERR_NOMEM, "verify: out of memory");
        ue = uo + words, cl = ue + words;
    }
    for (size_t i = 0; i < n && !st && nr; i++) {
        const rdx_uop *u = order[i];
        memset(uo, 0, 3 * words * sizeof *uo);
        for (uint32_t k = 0; k < u->nsrc; k++) {
            size_t j = (size_t)(uintptr_t)rdx_pmap_get(&idx, u->src[k]) - 1;
            for (size_t w = 0; w < words; w++) {
                uo[w] |= open[j * words + w];
                ue[w] |= ended[j * words + w];
            }
        }
        for (size_t w = 0; w < words; w++) {
            uint64_t bad = uo[w] & ue[w];
            if (bad) {
                const rdx_uop *r = ranges[w * 64 + (size_t)__builtin_ctzll(bad)];
                st = rdx_ir_rule_fail(u, RDX_RULE_RANGE_SCOPE,
                                      "RANGE axis=%" PRId64 " is used here after an END/REDUCE "
                                      "that closed it",
                                      r->arg.i);
                break;
            }
        }
        if (st)
            break;
        if (u->op == RDX_OP_RANGE) {
            size_t r = (size_t)(uintptr_t)rdx_pmap_get(&rix, u) - 1;
            uo[r / 64] |= 1ull << (r % 64);
        }
        if (rdx_op_info((rdx_op)u->op)->flags & RDX_OPF_ENDS_RANGE)
            for (uint32_t k = 1; k < u->nsrc; k++)
                if (u->src[k]->op == RDX_OP_RANGE) {
                    size_t r = (size_t)(uintptr_t)rdx_pmap_get(&rix, u->src[k]) - 1;
                    cl[r / 64] |= 1ull << (r % 64);
                }
        for (size_t w = 0; w < words; w++) {
            open[i * words + w] = uo[w] & ~cl[w];
            ended[i * words + w] = ue[w] | cl[w];
        }
        if (u->op == RDX_OP_SINK)
            for (size_t w = 0; w < words; w++)
                if (open[i * words + w]) {
                    const rdx_uop *r =
                        ranges[w * 64 + (size_t)__builtin_ctzll(open[i * words + w])];
                    st = rdx_ir_rule_fail(u, RDX_RULE_RANGE_UNCLOSED,
                                          "RANGE axis=%" PRId64 " reaches the SINK without an "
                                          "END or REDUCE",
                                          r->arg.i);
                    break;
                }
    }
    free(uo);
    free(open);
    free(ended);
    free(ranges);
    free(order);
    rdx_pmap_free(&idx);
    rdx_pmap_free(&rix);
    return st;
}
