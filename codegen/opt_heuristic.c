/* codegen/opt_heuristic.c — hand-coded OptOps that give a good kernel
 * without search: unrolled reductions, upcast elementwise axes, workgroups
 * of 32..256 work-items (wave32 multiples), 16x16 tiles (and 4 outputs per
 * work-item) for matmul-like kernels. */
#include <stdlib.h>

#include "codegen/front_internal.h"
#include "util/error.h"

static void push(rdx_opt *o, size_t cap, size_t *n, rdx_optop op, int axis, int64_t amt,
                 rdx_axistype t)
{
    if (*n >= cap)
        return;
    rdx_opt x = { op, axis, amt, t, 0 };
    o[(*n)++] = x;
}

/* Does some global load of the kernel not depend on range r (r is a broadcast axis of an
   input: upcasting it reuses that load across the copies)? */
static int reuse_axis(const rdx_uop *const *loads, size_t nl, const rdx_uop *r)
{
    for (size_t i = 0; i < nl; i++)
        if (!cg_depends(loads[i]->src[0], r))
            return 1;
    return 0;
}

/* Largest of the factors f[] (descending) dividing size, or 0. */
static int64_t divisor(int64_t size, const int64_t *f, size_t nf)
{
    for (size_t i = 0; i < nf; i++)
        if (size > 0 && size % f[i] == 0 && size >= f[i])
            return f[i];
    return 0;
}

/*
 * A reduction into several outputs (matmul, convolution, row reductions).
 * Register tiles: each work-item computes up to 4x4 outputs (UPCAST by 4 of
 * up to two output axes some input does not depend on, so each loaded value
 * feeds several accumulators; b128 loads along the innermost axis), the
 * innermost reduction unrolled (fully when at most 16 long, else by 8/4/2),
 * so one iteration issues all its loads before the first FMA waits (the
 * emulator charges 400 cycles of latency per wait, and the sum over waves
 * does not hide it); then a 2-D workgroup of up to 16x16 over what remains.
 * Sizes that nothing divides get no split on that axis (odd sizes fall back
 * to plain loops).
 */
static rdx_status reduce_tiles(const rdx_uop *kernel, const rdx_kaxis *ax, size_t na, const int *g,
                               int ng, rdx_opt *opts, size_t cap, size_t *n)
{
    const rdx_uop **order = NULL, **loads = NULL;
    size_t no = 0, nl = 0;
    rdx_status st = rdx_ir_toposort(kernel, &order, &no);
    if (!st && !(loads = malloc((no + 1) * sizeof *loads)))
        st = rdx_fail(RDX_ERR_NOMEM, "heuristic: out of memory");
    for (size_t i = 0; i < no && !st; i++)
        if (order[i]->op == RDX_OP_LOAD && order[i]->src[0]->op == RDX_OP_INDEX &&
            order[i]->src[0]->src[0]->op == RDX_OP_PARAM)
            loads[nl++] = order[i];
    free(order);
    if (st)
        return st;
    int64_t left[RDX_CG_MAX_AXES];
    for (size_t i = 0; i < na; i++)
        left[i] = ax[i].size;
    /* upcast: innermost output axes first, up to two, 4 (else 2) each */
    static const int64_t up_f[] = { 4, 2 };
    int nup = 0;
    for (int j = ng - 1; j >= 0 && nup < 2; j--) {
        int a = g[j];
        int64_t f = divisor(left[a], up_f, 2);
        if (!f || left[a] < 2 * f || !reuse_axis(loads, nl, ax[a].range))
            continue;
        push(opts, cap, n, RDX_OPTOP_SPLIT, a, f, RDX_AXIS_UPCAST);
        left[a] /= f;
        nup++;
    }
    free(loads);
    /* unroll the innermost reduction: fully up to 16, else by 8/4/2 */
    int red = -1;
    for (size_t i = 0; i < na; i++)
        if (ax[i].type == RDX_AXIS_REDUCE && ax[i].size > 1)
            red = (int)i;
    if (red >= 0) {
        static const int64_t un_f[] = { 8, 4, 2 };
        int64_t f = ax[red].size <= 16 ? ax[red].size : divisor(ax[red].size, un_f, 3);
        if (f > 1)
            push(opts, cap, n, RDX_OPTOP_SPLIT, red, f, RDX_AXIS_UNROLL);
    }
    /* workgroup: up to 16x16 over the two innermost output axes */
    static const int64_t wg_f[] = { 16, 8, 4, 2 };
    int64_t wg = 1;
    for (int j = ng - 1; j >= 0 && j >= ng - 2; j--) {
        int a = g[j];
        int64_t f = divisor(left[a], wg_f, 4);
        if (!f || wg * f > 256)
            continue;
        push(opts, cap, n, RDX_OPTOP_SPLIT, a, f, RDX_AXIS_LOCAL);
        wg *= f;
    }
    /* LDS staging of the tiles the workgroup shares, when it pays (lds_stage.c) */
    int lr = cg_lds_pays(kernel, ax, na, opts, *n);
    if (lr >= 0)
        push(opts, cap, n, RDX_OPTOP_LDS, lr, 0, RDX_AXIS_LOOP);
    return RDX_OK;
}

rdx_status rdx_cg_heuristic(const rdx_uop *kernel, rdx_opt *opts, size_t cap, size_t *n)
{
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t na;
    *n = 0;
    rdx_status st = rdx_cg_axes(kernel, ax, &na);
    if (st)
        return st;
    /* float16/bfloat16 matmul tiles: tensor cores */
    int tca = cg_tc_axis(kernel), tcp = tca < 0 ? cg_tc_pad_axis(kernel) : -1;
    if (tca >= 0 || tcp >= 0) { /* tcp: sizes padded to multiples of 16 */
        push(opts, cap, n, RDX_OPTOP_TC, tca >= 0 ? tca : tcp, tca >= 0 ? 0 : RDX_TC_PAD,
             RDX_AXIS_WARP);
        return RDX_OK;
    }
    int g[3], ng = 0, red = -1;
    for (size_t i = 0; i < na; i++) {
        if (ax[i].type == RDX_AXIS_GLOBAL && ng < 3)
            g[ng++] = (int)i;
        if (ax[i].type == RDX_AXIS_REDUCE && ax[i].size > 0)
            red = (int)i;
    }
    /* large reductions to few outputs: a 256-wide grouped reduction (LDS), then unroll by 4 */
    int64_t outs = 1;
    int loops = 0;
    for (size_t i = 0; i < na; i++) {
        loops |= ax[i].type == RDX_AXIS_LOOP;
        if (ax[i].type == RDX_AXIS_GLOBAL)
            outs *= ax[i].size > 0 ? ax[i].size : 1 << 20;
    }
    if (red >= 0 && !loops && ax[red].size >= 2048 && outs <= 64) {
        int64_t s = ax[red].size;
        if (s % 256)
            push(opts, cap, n, RDX_OPTOP_PADTO, red, 256, RDX_AXIS_REDUCE);
        s = (s + 255) / 256 * 256;
        push(opts, cap, n, RDX_OPTOP_SPLIT, red, 256, RDX_AXIS_GROUP_REDUCE);
        if ((s / 256) % 4 == 0)
            push(opts, cap, n, RDX_OPTOP_SPLIT, red, 4, RDX_AXIS_UNROLL);
        return RDX_OK;
    }
    /* reductions into several outputs (matmul, convolution, row reductions) */
    if (red >= 0 && ng >= 1)
        return reduce_tiles(kernel, ax, na, g, ng, opts, cap, n);
    /* reductions: unroll the innermost by 4 */
    if (red >= 0 && ax[red].size >= 8 && ax[red].size % 4 == 0)
        push(opts, cap, n, RDX_OPTOP_SPLIT, red, 4, RDX_AXIS_UNROLL);
    if (!ng)
        return RDX_OK;
    int a = g[ng - 1];
    int64_t s = ax[a].size;
    if (s <= 0)
        return RDX_OK; /* symbolic: the back end picks the workgroup */
    /* elementwise: upcast by 4 when plenty of work remains */
    if (red < 0 && s % 4 == 0 && s / 4 >= 64) {
        push(opts, cap, n, RDX_OPTOP_SPLIT, a, 4, RDX_AXIS_UPCAST);
        s /= 4;
    }
    for (int64_t w = 256; w >= 32; w /= 2) {
        if (s % w == 0 && s / w >= 1) {
            push(opts, cap, n, RDX_OPTOP_SPLIT, a, w, RDX_AXIS_LOCAL);
            return RDX_OK;
        }
    }
    /* nothing divides: pad to a multiple of 32 when it is big enough to matter */
    if (s >= 64 && *n == 0) {
        int64_t p = (s + 31) / 32 * 32;
        push(opts, cap, n, RDX_OPTOP_PADTO, a, 32, RDX_AXIS_GLOBAL);
        int64_t w = 32;
        while (w * 2 <= 256 && p % (w * 2) == 0)
            w *= 2;
        push(opts, cap, n, RDX_OPTOP_SPLIT, a, w, RDX_AXIS_LOCAL);
    }
    return RDX_OK;
}
