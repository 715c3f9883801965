/* codegen/split_reduce.c — the scheduler's split of a large reduction into two
 * kernels, so a sum of a million floats runs on many workgroups instead of one.
 *
 * A tensor REDUCE whose reduced elements R = prod(reduced dims) reach the
 * threshold (CG_SPLIT_REDUCE_MIN, 32768) and whose outputs are few (at most
 * CG_SPLIT_REDUCE_MAX_OUT, 64) is rewritten, on the callified function before
 * the kernel split is decided:
 *     REDUCE(x, op, axes)
 *  -> RESHAPE(REDUCE(CONTIGUOUS(REDUCE(RESHAPE(x, [.., k, s/k, ..]), op, axes')), op, {d}))
 * where d is the outermost reduced axis of size s that a k in 1024, 512, ..., 8
 * divides with s/k >= 256 (k outer: partial j reduces the contiguous chunk j),
 * axes' = the reduced axes with d replaced by its inner half.  The CONTIGUOUS
 * materialises the k partials per output as a temporary: kernel 1 computes
 * them, kernel 2 (usually fused with the consumer) reduces them.  Every op
 * (ADD, MUL, MAX, MIN) is associative and commutative on its dtype (floats
 * up to rounding, the same as any reordered accumulation), and the split
 * only happens when k divides the axis, so no padding and no identity is
 * needed: sizes that 8..256 do not divide (primes, odd sizes) and symbolic
 * sizes are never split.  Repeated to a fixed point: a partial still above the
 * threshold is split again.  A sum of 2^20 floats: 1024 partials of 1024
 * (1024 one-wave workgroups, opt_heuristic.c), then one wave over the 1024. */
#include <stdlib.h>

#include "codegen/front_internal.h"
#include "codegen/rangeify_internal.h"
#include "util/error.h"

#define CG_SPLIT_REDUCE_MIN     32768
#define CG_SPLIT_REDUCE_MAX_OUT 64
#define CG_SPLIT_REDUCE_MAX_K   1024
#define CG_SPLIT_REDUCE_PASSES  16

static int64_t g_min = CG_SPLIT_REDUCE_MIN;

int64_t cg_split_reduce_threshold(int64_t min)
{
    int64_t old = g_min;
    g_min = min > 0 ? min : CG_SPLIT_REDUCE_MIN;
    return old;
}

static int reduced(const rdx_uop *u, uint32_t k)
{
    for (uint32_t j = 0; j < u->arg.nints; j++)
        if (u->arg.ints[j] == (int64_t)k)
            return 1;
    return 0;
}

/* The axis to split and its factor k for REDUCE u (0: u is not split). */
static int split_point(const rdx_uop *u, uint32_t *axis, int64_t *k)
{
    const rdx_uop *x = u->src[0];
    int64_t outs, r = 1, d;
    if (u->op != RDX_OP_REDUCE || u->nsrc != 1 || !x->ndim || !rdx_uop_numel(u, &outs) ||
        outs > CG_SPLIT_REDUCE_MAX_OUT || x->ndim >= RDX_INTERP_MAX_DIMS_CG)
        return 0;
    for (uint32_t a = 0; a < x->ndim; a++) {
        if (!rdx_uop_dim(x, a, &d))
            return 0; /* symbolic: never split */
        if (reduced(u, a))
            r *= d;
    }
    if (r < g_min)
        return 0;
    for (uint32_t a = 0; a < x->ndim; a++) {
        if (!reduced(u, a) || !rdx_uop_dim(x, a, &d))
            continue;
        for (int64_t f = CG_SPLIT_REDUCE_MAX_K; f >= 8; f /= 2)
            if (d % f == 0 && d / f >= 256) {
                *axis = a;
                *k = f;
                return 1;
            }
    }
    return 0;
}

/* The two-kernel form of REDUCE u split at axis d by k (sticky NULL on error). */
static const rdx_uop *split_one(rdx_ir_ctx *c, const rdx_uop *u, uint32_t d, int64_t k)
{
    const rdx_uop *x = u->src[0];
    int64_t dims[RDX_INTERP_MAX_DIMS_CG + 1], axes[RDX_INTERP_MAX_DIMS_CG + 1],
        outd[RDX_INTERP_MAX_DIMS_CG];
    uint32_t n = 0, na = 0;
    for (uint32_t a = 0; a < x->ndim; a++) {
        int64_t s;
        rdx_uop_dim(x, a, &s);
        if (a == d) {
            dims[n++] = k;
            s /= k;
        }
        if (reduced(u, a))
            axes[na++] = n;
        dims[n++] = s;
    }
    for (uint32_t a = 0; a < u->ndim; a++)
        rdx_uop_dim(u, a, &outd[a]);
    rdx_redop op = (rdx_redop)u->arg.sub;
    const rdx_uop *v = rdx_ir_reshape(c, x, dims, n);
    v = rdx_ir_reduce(c, v, op, axes, na);
    v = rdx_ir_node(c, RDX_OP_CONTIGUOUS, &v, v ? 1 : 0, NULL);
    int64_t outer = d;
    v = rdx_ir_reduce(c, v, op, &outer, 1);
    return rdx_ir_reshape(c, v, outd, u->ndim);
}

rdx_status cg_split_reduces(rdx_ir_ctx *ctx, const rdx_uop *fn, const rdx_uop **out)
{
    *out = fn;
    for (int pass = 0; pass < CG_SPLIT_REDUCE_PASSES; pass++) {
        const rdx_uop **order = NULL;
        size_t no = 0;
        rdx_status st = rdx_ir_toposort(fn->src[0], &order, &no);
        if (st)
            return st;
        const rdx_uop *from = NULL, *to = NULL;
        for (size_t i = 0; i < no && !from; i++) {
            uint32_t d;
            int64_t k;
            if (split_point(order[i], &d, &k)) {
                from = order[i];
                to = split_one(ctx, from, d, k);
            }
        }
        free(order);
        if (!from)
            return RDX_OK;
        if (!to)
            return rdx_fail_context(RDX_ERR_INVALID, "schedule: splitting REDUCE node #%u",
                                    from->id);
        const rdx_uop *body = NULL, **src = malloc(fn->nsrc * sizeof *src);
        if (!src)
            return rdx_fail(RDX_ERR_NOMEM, "schedule: out of memory");
        st = rdx_ir_substitute(ctx, fn->src[0], &from, &to, 1, &body);
        if (st) {
            free(src);
            return st;
        }
        src[0] = body;
        for (uint32_t a = 1; a < fn->nsrc; a++)
            src[a] = fn->src[a];
        fn = rdx_ir_replace_src(ctx, fn, src, fn->nsrc);
        free(src);
        if (!fn)
            return rdx_fail_context(RDX_ERR_INVALID, "schedule: splitting a reduction");
        *out = fn;
    }
    return RDX_OK;
}
