/* codegen/opt_heuristic.c — hand-coded OptOps that give a good kernel
 * without search: unrolled reductions, upcast elementwise axes, workgroups
 * of 32..256 work-items (wave32 multiples), 16x16 tiles (and 4 outputs per
 * work-item) for matmul-like kernels. */
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
    /* reductions: unroll the innermost by 4 */
    if (red >= 0 && ax[red].size >= 8 && ax[red].size % 4 == 0)
        push(opts, cap, n, RDX_OPTOP_SPLIT, red, 4, RDX_AXIS_UNROLL);
    /* matmul-like: two global axes and a reduction: 16x16 (or 8x8) workgroup tiles */
    if (red >= 0 && ng >= 2) {
        int a = g[ng - 1], b = g[ng - 2];
        for (int64_t t = 16; t >= 8; t /= 2) {
            if (ax[a].size > 0 && ax[b].size > 0 && ax[a].size % t == 0 && ax[b].size % t == 0) {
                /* 4 consecutive outputs per work-item when the sizes allow (the A element
                   is loaded once for the four, B's four are adjacent): ~6% fewer cycles */
                if (ax[a].size % (4 * t) == 0)
                    push(opts, cap, n, RDX_OPTOP_SPLIT, a, 4, RDX_AXIS_UPCAST);
                push(opts, cap, n, RDX_OPTOP_SPLIT, a, t, RDX_AXIS_LOCAL);
                push(opts, cap, n, RDX_OPTOP_SPLIT, b, t, RDX_AXIS_LOCAL);
                return RDX_OK;
            }
        }
    }
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
