/* codegen/expand.c — the expand stage: UPCAST and UNROLL ranges are unrolled
 * (expand_unroll.c: the body duplicated per value; a REDUCE over an UNROLL
 * range becomes the op over the copies), GROUP_REDUCE is lowered, then the gpudims step turns
 * GLOBAL/LOCAL ranges into SPECIAL gidx/lidx when the kernel has workgroup (LOCAL) axes. */
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

/* Gate every global STORE under `gate`. */
static const rdx_uop *gate_stores(rdx_ir_ctx *ctx, const rdx_uop *u, void *user)
{
    const rdx_uop *gate = user;
    if (u->op != RDX_OP_STORE || u->src[0]->op != RDX_OP_INDEX ||
        u->src[0]->src[0]->op != RDX_OP_PARAM)
        return NULL;
    const rdx_uop *s[3] = { u->src[0], u->src[1],
                            cg_and(ctx, u->nsrc == 3 ? u->src[2] : NULL, gate) };
    return rdx_ir_node(ctx, RDX_OP_STORE, s, 3, NULL);
}

/*
 * GROUP_REDUCE g (size k): work-item lidx0 = g reduces its share, writes the
 * partial result to LDS, a barrier, then every work-item reduces the k
 * partials from LDS; only work-item 0 stores.
 */
static rdx_status group_reduce(rdx_ir_ctx *ctx, const rdx_uop *kernel, const rdx_kaxis *ax,
                               size_t n, size_t gi, const rdx_uop **out)
{
    const rdx_uop *g = ax[gi].range, *red = NULL;
    int64_t k = ax[gi].size, maxid = 0;
    for (size_t i = 0; i < n; i++) {
        if (ax[i].type == RDX_AXIS_LOCAL || ax[i].type == RDX_AXIS_LOOP ||
            (ax[i].type == RDX_AXIS_GROUP_REDUCE && i != gi))
            return rdx_fail(RDX_ERR_UNSUPPORTED,
                            "expand: GROUP_REDUCE is lowered only in kernels without LOCAL, LOOP "
                            "or other GROUP_REDUCE axes (axis %zu is %s)",
                            i, rdx_axistype_name(ax[i].type));
        maxid = ax[i].id > maxid ? ax[i].id : maxid;
    }
    const rdx_uop **order = NULL;
    size_t no = 0;
    rdx_status st = rdx_ir_toposort(kernel, &order, &no);
    for (size_t i = 0; i < no && !st; i++)
        if (order[i]->op == RDX_OP_REDUCE && closes(order[i], g)) {
            if (red)
                st = rdx_fail(RDX_ERR_UNSUPPORTED, "expand: GROUP_REDUCE closed by two REDUCEs");
            red = order[i];
        }
    free(order);
    if (st)
        return st;
    if (!red)
        return rdx_fail(RDX_ERR_INVALID, "expand: GROUP_REDUCE axis closed by no REDUCE");
    rdx_uop_arg a = rdx_uop_arg_none();
    a.str = rdx_ir_str(ctx, "lidx0", 5);
    const rdx_uop *lid = rdx_ir_node(ctx, RDX_OP_SPECIAL, &g->src[0], 1, &a);
    const rdx_uop *part = NULL;
    if (lid && !rdx_ir_substitute(ctx, red->src[0], &g, &lid, 1, &part))
        part = without(ctx, red, g, part);
    rdx_uop_arg la = rdx_uop_arg_none();
    la.i = 0;
    la.dtype = rdx_dtype_scalar(red->dtype);
    const rdx_uop *sh = rdx_ir_shape(ctx, &k, 1);
    const rdx_uop *lds = sh ? rdx_ir_node(ctx, RDX_OP_DEFINE_LOCAL, &sh, 1, &la) : NULL;
    const rdx_uop *st_l =
        lds && part ? rdx_ir_store(ctx, rdx_ir_index(ctx, lds, &lid, 1), part) : NULL;
    const rdx_uop *bar = st_l ? rdx_ir_node(ctx, RDX_OP_BARRIER, &st_l, 1, NULL) : NULL;
    const rdx_uop *as[2] = { lds, bar };
    const rdx_uop *after = bar ? rdx_ir_node(ctx, RDX_OP_AFTER, as, 2, NULL) : NULL;
    const rdx_uop *j = rdx_ir_range(ctx, g->src[0], maxid + 1, RDX_AXIS_REDUCE);
    const rdx_uop *ld =
        after && j ? rdx_ir_node(ctx, RDX_OP_LOAD,
                                 (const rdx_uop *[]){ rdx_ir_index(ctx, after, &j, 1) }, 1, NULL)
                   : NULL;
    rdx_uop_arg ra = rdx_uop_arg_none();
    ra.sub = red->arg.sub;
    const rdx_uop *tot =
        ld ? rdx_ir_node(ctx, RDX_OP_REDUCE, (const rdx_uop *[]){ ld, j }, 2, &ra) : NULL;
    const rdx_uop *k2;
    if (!tot || rdx_ir_substitute(ctx, kernel, &red, &tot, 1, &k2))
        return rdx_fail_context(RDX_ERR_INVALID, "expand: lowering GROUP_REDUCE");
    const rdx_uop *first = rdx_ir_cmplt(ctx, lid, cg_idx(ctx, 1));
    return cg_replace_ranges(ctx, k2, NULL, NULL, NULL, NULL, 0, gate_stores, (void *)first, out);
}

static rdx_status gpudims(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_kaxis *ax, size_t n,
                          const rdx_uop **out)
{
    const rdx_uop *from[RDX_CG_MAX_AXES], *to[RDX_CG_MAX_AXES];
    uint32_t ne[RDX_CG_MAX_AXES] = { 0 };
    const rdx_uop *const *ends[RDX_CG_MAX_AXES] = { 0 };
    size_t nf = 0;
    int ng = 0, nl = 0;
    for (size_t i = n; i-- > 0;) {
        rdx_axistype t = ax[i].type;
        if (t != RDX_AXIS_GLOBAL && t != RDX_AXIS_LOCAL)
            continue;
        int *cnt = t == RDX_AXIS_GLOBAL ? &ng : &nl;
        if (*cnt == 3)
            return rdx_fail(RDX_ERR_UNSUPPORTED, "expand: more than 3 %s axes",
                            rdx_axistype_name(t));
        char name[16];
        snprintf(name, sizeof name, "%s%d", t == RDX_AXIS_GLOBAL ? "gidx" : "lidx", (*cnt)++);
        rdx_uop_arg a = rdx_uop_arg_none();
        a.str = rdx_ir_str(ctx, name, strlen(name));
        from[nf] = ax[i].range;
        to[nf] = rdx_ir_node(ctx, RDX_OP_SPECIAL, &ax[i].range->src[0], 1, &a);
        if (!to[nf])
            return RDX_ERR_INVALID;
        nf++;
    }
    return cg_replace_ranges(ctx, k, from, to, ends, ne, nf, NULL, NULL, out);
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
    rdx_status st = rdx_cg_axes(k, ax, &n);
    int locals = 0, gr = -1;
    for (size_t i = 0; i < n && !st; i++) {
        rdx_axistype t = ax[i].type;
        if (t == RDX_AXIS_WARP || t == RDX_AXIS_THREAD)
            return rdx_fail(RDX_ERR_UNSUPPORTED, "expand: %s axes are not lowered by the front end",
                            rdx_axistype_name(t));
        locals |= t == RDX_AXIS_LOCAL;
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
        st = group_reduce(ctx, k, ax, n, (size_t)gr, &k);
    if (!st)
        st = cg_simplify_unrolled(ctx, k, out);
    return st;
}
