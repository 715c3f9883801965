/* codegen/expand.c — the expand stage: UPCAST and UNROLL ranges are unrolled
 * (the body duplicated per value; a REDUCE over an UNROLL range becomes the
 * op over the copies), then the gpudims step turns GLOBAL/LOCAL ranges into
 * SPECIAL gidx/lidx when the kernel has workgroup (LOCAL) axes. */
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

/* node with range r (bound k) substituted by i, for each i */
static const rdx_uop *subst(rdx_ir_ctx *ctx, const rdx_uop *u, const rdx_uop *r, int64_t i)
{
    const rdx_uop *c = cg_idx(ctx, i), *out;
    if (!c || rdx_ir_substitute(ctx, u, &r, &c, 1, &out))
        return NULL;
    return out;
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

static rdx_status unroll(rdx_ir_ctx *ctx, const rdx_uop *kernel, const rdx_uop *r, int64_t n,
                         const rdx_uop **out)
{
    const rdx_uop **order = NULL;
    size_t no = 0;
    const rdx_uop *k = kernel;
    rdx_status st = rdx_ir_toposort(kernel, &order, &no);
    /* REDUCEs closing r: the op over the copies (all replaced in one substitution) */
    size_t nred = 0;
    const rdx_uop **from = st ? NULL : malloc(2 * (no + 1) * sizeof *from), **to = from + no + 1;
    if (!st && !from)
        st = rdx_fail(RDX_ERR_NOMEM, "expand: out of memory");
    for (size_t i = 0; i < no && !st; i++) {
        const rdx_uop *u = order[i];
        if (u->op != RDX_OP_REDUCE || !closes(u, r))
            continue;
        const rdx_uop *acc = NULL;
        for (int64_t v = 0; v < n; v++) {
            const rdx_uop *c = subst(ctx, u->src[0], r, v);
            acc = acc ? cg_combine(ctx, (rdx_redop)u->arg.sub, acc, c) : c;
        }
        const rdx_uop *nr = acc ? without(ctx, u, r, acc) : NULL;
        if (!nr)
            st = rdx_fail_context(RDX_ERR_INVALID, "expand: unrolling REDUCE node #%u", u->id);
        from[nred] = u;
        to[nred++] = nr;
    }
    if (!st && nred && rdx_ir_substitute(ctx, k, from, to, nred, &k))
        st = rdx_fail_context(RDX_ERR_INVALID, "expand: unrolling REDUCEs");
    free(from);
    free(order);
    if (st)
        return st;
    /* SINK sources closing r: one copy per value */
    if (k->op != RDX_OP_SINK)
        return rdx_fail(RDX_ERR_INVALID, "expand: kernel root is %s, not SINK",
                        rdx_op_name((rdx_op)k->op));
    size_t cap = (size_t)k->nsrc * (size_t)n + 1, ns = 0;
    const rdx_uop **s = malloc(cap * sizeof *s);
    if (!s)
        return rdx_fail(RDX_ERR_NOMEM, "expand: out of memory");
    for (uint32_t j = 0; j < k->nsrc && !st; j++) {
        const rdx_uop *e = k->src[j];
        if (e->op != RDX_OP_END || !closes(e, r)) {
            s[ns++] = e;
            continue;
        }
        for (int64_t v = 0; v < n && !st; v++) {
            const rdx_uop *b = subst(ctx, e->src[0], r, v);
            const rdx_uop *ne = b ? without(ctx, e, r, b) : NULL;
            if (!ne)
                st = rdx_fail_context(RDX_ERR_INVALID, "expand: unrolling END node #%u", e->id);
            s[ns++] = ne;
        }
    }
    if (!st) {
        *out = rdx_ir_sink(ctx, s, ns);
        if (!*out)
            st = RDX_ERR_INVALID;
    }
    free(s);
    return st;
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

rdx_status rdx_cg_expand(rdx_ir_ctx *ctx, const rdx_uop *kernel, const rdx_uop **out)
{
    const rdx_uop *k = kernel;
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t n;
    rdx_status st = rdx_cg_axes(k, ax, &n);
    /* UNROLL axes first (inside the REDUCEs, before upcasts copy them), then UPCAST */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n && !st; i++) {
            rdx_axistype t = ax[i].type;
            if (t == RDX_AXIS_WARP || t == RDX_AXIS_THREAD)
                return rdx_fail(RDX_ERR_UNSUPPORTED,
                                "expand: %s axes are not lowered by the front end",
                                rdx_axistype_name(t));
            if (t != (pass ? RDX_AXIS_UPCAST : RDX_AXIS_UNROLL))
                continue;
            if (ax[i].size < 0)
                return rdx_fail(RDX_ERR_INVALID, "expand: %s axis with a symbolic size",
                                rdx_axistype_name(t));
            st = unroll(ctx, k, ax[i].range, ax[i].size, &k);
        }
    int locals = 0;
    if (!st)
        st = rdx_cg_axes(k, ax, &n);
    for (size_t i = 0; i < n && !st; i++)
        if (ax[i].type == RDX_AXIS_GROUP_REDUCE) {
            if (ax[i].size < 0)
                return rdx_fail(RDX_ERR_INVALID, "expand: GROUP_REDUCE axis with a symbolic size");
            st = group_reduce(ctx, k, ax, n, i, &k);
            locals = 1;
            if (!st)
                st = rdx_cg_axes(k, ax, &n);
            break;
        }
    for (size_t i = 0; i < n && !st; i++)
        locals |= ax[i].type == RDX_AXIS_LOCAL;
    if (!st && locals)
        st = gpudims(ctx, k, ax, n, &k);
    if (!st)
        st = cg_simplify_kernel(ctx, k, out);
    return st;
}
