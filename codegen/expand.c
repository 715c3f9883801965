/* codegen/expand.c — the expand stage: UPCAST and UNROLL ranges are unrolled
 * (expand_unroll.c: the body duplicated per value; a REDUCE over an UNROLL
 * range becomes the op over the copies), GROUP_REDUCE is lowered; first the gpudims step
 * turns GLOBAL/LOCAL/WARP ranges into SPECIAL gidx/lidx when the kernel has workgroup
 * (LOCAL or WARP) axes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/front_internal.h"
#include "util/error.h"

static int closes(const rdx_uop *u, const rdx_uop *r)
{
    for (uint32_t k = 1; k < u->nsrc; k++)
        if (u->src[k] == r)
            return 1;
    return 0;
}

static const rdx_uop *without(rdx_ir_ctx *ctx, const rdx_uop *u, const rdx_uop *r,
                              const rdx_uop *first)
{
    const rdx_uop **s = malloc(u->nsrc * sizeof *s);
    if (!s)
        return NULL;
    size_t n = 0;
    s[n++] = first;
    for (uint32_t k = 1; k < u->nsrc; k++)
        if (u->src[k] != r)
            s[n++] = u->src[k];
    const rdx_uop *o = n == 1 ? first : rdx_ir_replace_src(ctx, u, s, n);
    free(s);
    return o;
}

/* Gate every global STORE whose address does not depend on the lane id (gate_state.lid)
   under gate_state.gate. */
typedef struct gate_state {
    const rdx_uop *lid, *gate;
} gate_state;

static const rdx_uop *gate_stores(rdx_ir_ctx *ctx, const rdx_uop *u, void *user)
{
    const gate_state *G = user;
    if (u->op != RDX_OP_STORE || u->src[0]->op != RDX_OP_INDEX ||
        u->src[0]->src[0]->op != RDX_OP_PARAM || cg_depends(u->src[0], G->lid))
        return NULL;
    const rdx_uop *s[3] = { u->src[0], u->src[1],
                            cg_and(ctx, u->nsrc == 3 ? u->src[2] : NULL, G->gate) };
    return rdx_ir_node(ctx, RDX_OP_STORE, s, 3, NULL);
}

/* The REDUCE of kernel k closing range g (exactly one), or NULL with the failure recorded. */
static const rdx_uop *closing_reduce(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_uop *g,
                                     size_t axis, rdx_status *st)
{
    const rdx_uop **order = NULL, *red = NULL;
    size_t no = 0;
    *st = rdx_ir_toposort_ctx(ctx, k, &order, &no); /* the context's cache: one walk per k */
    for (size_t i = 0; i < no && !*st; i++)
        if (order[i]->op == RDX_OP_REDUCE && closes(order[i], g)) {
            if (red)
                *st = rdx_fail(RDX_ERR_UNSUPPORTED,
                               "expand: GROUP_REDUCE axis %zu closed by two REDUCEs", axis);
            red = order[i];
        }
    free(order);
    if (!*st && !red)
        *st = rdx_fail(RDX_ERR_INVALID, "expand: GROUP_REDUCE axis %zu closed by no REDUCE", axis);
    return *st ? NULL : red;
}

/* The k partials in LDS (read through `after`) combined with op: every one loaded with a
   constant index (the back end merges them into wide ds_loads and waits once) and added
   as a balanced tree (a loop over the partials waited for each load in turn: k LDS
   latencies per grouped reduction). */
static const rdx_uop *combine_partials(rdx_ir_ctx *ctx, const rdx_uop *after, int64_t k,
                                       rdx_redop op)
{
    const rdx_uop **v = malloc((size_t)k * sizeof *v);
    if (!v)
        return NULL;
    const rdx_uop *r = NULL;
    int64_t n = k;
    for (int64_t i = 0; i < k; i++) {
        const rdx_uop *ix = cg_idx(ctx, i);
        ix = ix ? rdx_ir_index(ctx, after, &ix, 1) : NULL;
        v[i] = ix ? rdx_ir_node(ctx, RDX_OP_LOAD, &ix, 1, NULL) : NULL;
        if (!v[i])
            n = 0;
    }
    while (n > 1) {
        int64_t h = 0;
        for (int64_t i = 0; i + 1 < n; i += 2)
            if (!(v[h++] = cg_combine(ctx, op, v[i], v[i + 1])))
                n = 0;
        if (n % 2)
            v[h++] = v[n - 1];
        n = n ? h : 0;
    }
    if (n == 1)
        r = v[0];
    free(v);
    return r;
}

/*
 * GROUP_REDUCE axes (each of size k, one REDUCE closing each): work-item lidx0 = g
 * reduces its share, writes the partial result to its own LDS array (a DEFINE_LOCAL per
 * axis), a barrier, then every work-item combines the k partials from LDS (each has the
 * whole result; combine_partials).  A LOCAL axis may share the lanes (a row-fused kernel: the row's
 * reductions grouped over the lanes that then store the row's columns): it must have the
 * same size k and be the only one, and no grouped REDUCE may depend on it or on a LOOP
 * range (a barrier in a loop would let the next iteration overwrite partials still being
 * read).  Global stores that do not depend on the lanes are made by work-item 0 only.
 */
static rdx_status group_reduce(rdx_ir_ctx *ctx, const rdx_uop *kernel, const rdx_kaxis *ax,
                               size_t n, const rdx_uop **out)
{
    int64_t k = -1, slot = 0;
    int nlocal = 0;
    for (size_t i = 0; i < n; i++) {
        if (ax[i].type == RDX_AXIS_GROUP_REDUCE) {
            if (k >= 0 && ax[i].size != k)
                return rdx_fail(RDX_ERR_UNSUPPORTED,
                                "expand: GROUP_REDUCE axis %zu has %lld lanes, another %lld "
                                "(grouped reductions share the workgroup's lanes: one size)",
                                i, (long long)ax[i].size, (long long)k);
            k = ax[i].size;
        }
    }
    for (size_t i = 0; i < n; i++) {
        rdx_axistype t = ax[i].type;
        if (t == RDX_AXIS_WARP)
            return rdx_fail(RDX_ERR_UNSUPPORTED,
                            "expand: GROUP_REDUCE in a kernel with WARP axes (axis %zu)", i);
        if (t == RDX_AXIS_LOCAL && (ax[i].size != k || nlocal++))
            return rdx_fail(RDX_ERR_UNSUPPORTED,
                            "expand: GROUP_REDUCE lanes (%lld) shared with LOCAL axis %zu of size "
                            "%lld: only one LOCAL axis, of the GROUP_REDUCE size",
                            (long long)k, i, (long long)ax[i].size);
    }
    const rdx_uop **order = NULL;
    size_t no = 0;
    rdx_status st = rdx_ir_toposort_ctx(ctx, kernel, &order, &no);
    for (size_t i = 0; i < no && !st; i++)
        if (order[i]->op == RDX_OP_DEFINE_LOCAL && order[i]->arg.i >= slot)
            slot = order[i]->arg.i + 1;
    free(order);
    if (st)
        return st;
    rdx_uop_arg a = rdx_uop_arg_none();
    a.str = rdx_ir_str(ctx, "lidx0", 5);
    const rdx_uop *kc = cg_idx(ctx, k);
    const rdx_uop *lid = kc ? rdx_ir_node(ctx, RDX_OP_SPECIAL, &kc, 1, &a) : NULL;
    if (!lid)
        return RDX_ERR_INVALID;
    const rdx_uop *kern = kernel, *reds[RDX_CG_MAX_AXES] = { 0 };
    for (size_t gi = 0; gi < n; gi++) {
        if (ax[gi].type != RDX_AXIS_GROUP_REDUCE)
            continue;
        const rdx_uop *g = ax[gi].range;
        /* checked on the kernel before any lowering (after it every value read from the
           partials depends on the lanes through the barrier) */
        const rdx_uop *red = closing_reduce(ctx, kernel, g, gi, &st);
        if (!red)
            return st;
        /* two axes of one REDUCE would both become lidx0: only the diagonal summed */
        for (size_t j = 0; j < gi && gi < RDX_CG_MAX_AXES; j++)
            if (reds[j] == red)
                return rdx_fail(RDX_ERR_UNSUPPORTED,
                                "expand: GROUP_REDUCE axes %zu and %zu close the same REDUCE "
                                "(grouped reductions share one set of lanes)",
                                j, gi);
        if (gi < RDX_CG_MAX_AXES)
            reds[gi] = red;
        for (size_t i = 0; i < n; i++) {
            rdx_axistype t = ax[i].type;
            if ((t == RDX_AXIS_LOCAL || t == RDX_AXIS_LOOP) &&
                cg_depends(red, t == RDX_AXIS_LOCAL ? lid : ax[i].range))
                return rdx_fail(RDX_ERR_UNSUPPORTED,
                                "expand: the REDUCE of GROUP_REDUCE axis %zu depends on %s axis "
                                "%zu (its lanes' partials would be overwritten or mixed)",
                                gi, rdx_axistype_name(t), i);
        }
        if (!(red = closing_reduce(ctx, kern, g, gi, &st)))
            return st;
        const rdx_uop *part = NULL;
        if (!rdx_ir_substitute(ctx, red->src[0], &g, &lid, 1, &part))
            part = without(ctx, red, g, part);
        rdx_uop_arg la = rdx_uop_arg_none();
        la.i = slot++;
        la.dtype = rdx_dtype_scalar(red->dtype);
        const rdx_uop *sh = rdx_ir_shape(ctx, &k, 1);
        const rdx_uop *lds = sh ? rdx_ir_node(ctx, RDX_OP_DEFINE_LOCAL, &sh, 1, &la) : NULL;
        const rdx_uop *st_l =
            lds && part ? rdx_ir_store(ctx, rdx_ir_index(ctx, lds, &lid, 1), part) : NULL;
        const rdx_uop *bar = st_l ? rdx_ir_node(ctx, RDX_OP_BARRIER, &st_l, 1, NULL) : NULL;
        const rdx_uop *as[2] = { lds, bar };
        const rdx_uop *after = bar ? rdx_ir_node(ctx, RDX_OP_AFTER, as, 2, NULL) : NULL;
        const rdx_uop *tot =
            after ? combine_partials(ctx, after, k, (rdx_redop)red->arg.sub) : NULL;
        if (!tot || rdx_ir_substitute(ctx, kern, &red, &tot, 1, &kern))
            return rdx_fail_context(RDX_ERR_INVALID, "expand: lowering GROUP_REDUCE");
    }
    gate_state G = { lid, rdx_ir_cmplt(ctx, lid, cg_idx(ctx, 1)) };
    return cg_replace_ranges(ctx, kern, NULL, NULL, NULL, NULL, 0, gate_stores, &G, out);
}

static const rdx_uop *special_node(rdx_ir_ctx *ctx, const char *prefix, int d, const rdx_uop *bound)
{
    char name[16];
    snprintf(name, sizeof name, "%s%d", prefix, d);
    rdx_uop_arg a = rdx_uop_arg_none();
    a.str = rdx_ir_str(ctx, name, strlen(name));
    return bound ? rdx_ir_node(ctx, RDX_OP_SPECIAL, &bound, 1, &a) : NULL;
}

/*
 * GLOBAL ranges become SPECIAL gidxN, LOCAL and WARP ranges the work-item id
 * lidxN, numbered by decreasing axis id.  The WARP axes (lanes of a wave) come
 * first: all of them share lidx0 (the fastest-varying part of the work-item
 * id, so a WARP group of 32 lanes, or of a divisor of 32, lies within one
 * wave32), the highest axis id fastest: axis w = lidx0 / (product of the
 * faster WARP sizes) % size (no division for the fastest, no modulo for the
 * slowest).  The LOCAL axes follow in lidx1, lidx2 (lidx0.. without WARP).
 * The nodes are made in a fixed order (gidx, lidx0, the WARP and LOCAL axes):
 * canonical sums order their terms by node id.
 */
rdx_status cg_gpudims_map(rdx_ir_ctx *ctx, const rdx_kaxis *ax, size_t n, const rdx_uop **from,
                          const rdx_uop **to, size_t *nf)
{
    size_t nw = 0;
    int64_t wsize = 1;
    int ng = 0, nl = 0;
    *nf = 0;
    for (size_t i = 0; i < n; i++)
        if (ax[i].type == RDX_AXIS_WARP) {
            if (ax[i].size < 1)
                return rdx_fail(RDX_ERR_UNSUPPORTED,
                                "expand: WARP axis %zu has a symbolic size (lanes need a "
                                "constant)",
                                i);
            if (wsize * ax[i].size > 1024)
                return rdx_fail(RDX_ERR_UNSUPPORTED,
                                "expand: WARP axes of %lld lanes and more (max 1024 per "
                                "workgroup)",
                                (long long)(wsize * ax[i].size));
            wsize *= ax[i].size;
            nw++;
        }
    for (size_t i = n; i-- > 0;) {
        if (ax[i].type != RDX_AXIS_GLOBAL)
            continue;
        if (ng == 3)
            return rdx_fail(RDX_ERR_UNSUPPORTED, "expand: more than 3 GLOBAL axes");
        from[*nf] = ax[i].range;
        if (!(to[(*nf)++] = special_node(ctx, "gidx", ng++, ax[i].range->src[0])))
            return RDX_ERR_INVALID;
    }
    const rdx_uop *lane = nw ? special_node(ctx, "lidx", nl++, cg_idx(ctx, wsize)) : NULL;
    int64_t stride = 1;
    size_t seen = 0;
    for (size_t i = n; i-- > 0;) {
        rdx_axistype t = ax[i].type;
        const rdx_uop *v;
        if (t == RDX_AXIS_WARP) {
            v = lane;
            if (stride > 1)
                v = rdx_ir_idiv(ctx, v, cg_idx(ctx, stride));
            if (++seen < nw)
                v = rdx_ir_mod(ctx, v, cg_idx(ctx, ax[i].size));
            stride *= ax[i].size;
        } else if (t == RDX_AXIS_LOCAL) {
            if (nl == 3)
                return rdx_fail(RDX_ERR_UNSUPPORTED,
                                nw ? "expand: more than 2 LOCAL axes besides WARP axes (lidx0 "
                                     "holds the WARP lanes; 3 work-item dimensions)"
                                   : "expand: more than 3 LOCAL axes");
            v = special_node(ctx, "lidx", nl++, ax[i].range->src[0]);
        } else
            continue;
        from[*nf] = ax[i].range;
        if (!(to[(*nf)++] = v))
            return RDX_ERR_INVALID;
    }
    return RDX_OK;
}

static rdx_status gpudims(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_kaxis *ax, size_t n,
                          const rdx_uop **out)
{
    const rdx_uop *from[RDX_CG_MAX_AXES], *to[RDX_CG_MAX_AXES];
    uint32_t ne[RDX_CG_MAX_AXES] = { 0 };
    const rdx_uop *const *ends[RDX_CG_MAX_AXES] = { 0 };
    size_t nf;
    rdx_status st = cg_gpudims_map(ctx, ax, n, from, to, &nf);
    return st ? st : cg_replace_ranges(ctx, k, from, to, ends, ne, nf, NULL, NULL, out);
}

/*
 * The axes are listed once, on the kernel before unrolling: gpudims rewrites
 * the small kernel, the unrolling copies the result, GROUP_REDUCE is lowered
 * on the copies (its range is not unrolled), and one simplification pass
 * folds the constants the unrolling substituted (cg_simplify_unrolled).
 */
rdx_status rdx_cg_expand(rdx_ir_ctx *ctx, const rdx_uop *kernel, const rdx_uop **out)
{
    const rdx_uop *k = kernel;
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t n;
    rdx_status st = cg_axes(ctx, k, ax, &n);
    int locals = 0, gr = -1;
    for (size_t i = 0; i < n && !st; i++) {
        rdx_axistype t = ax[i].type;
        if (t == RDX_AXIS_THREAD)
            return rdx_fail(RDX_ERR_UNSUPPORTED,
                            "expand: axis %zu is THREAD (CPU threads): not lowered for the GPU", i);
        locals |= t == RDX_AXIS_LOCAL || t == RDX_AXIS_WARP;
        if (t == RDX_AXIS_GROUP_REDUCE && gr < 0) {
            if (ax[i].size < 0)
                return rdx_fail(RDX_ERR_INVALID, "expand: GROUP_REDUCE axis with a symbolic size");
            gr = (int)i;
            locals = 1;
        }
    }
    if (!st && locals)
        st = gpudims(ctx, k, ax, n, &k);
    if (!st)
        st = cg_expand_unroll(ctx, k, ax, n, &k);
    if (!st && gr >= 0)
        st = group_reduce(ctx, k, ax, n, &k);
    if (!st)
        st = cg_simplify_unrolled(ctx, k, out);
    return st;
}
