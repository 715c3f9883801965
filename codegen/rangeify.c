/* codegen/rangeify.c — rangeify's lowering: a tensor node read at an index
 * vector (one scalar index node per axis) under a gate becomes a scalar
 * expression.  Movement ops turn into index arithmetic, PAD into gated
 * loads with the pad value, REDUCE into REDUCE over new RANGEs, buffers and
 * materialised nodes into LOADs of a PARAM. */
#include <stdlib.h>
#include <string.h>

#include "codegen/rangeify_internal.h"
#include "util/error.h"

static const rdx_uop *lw(cg_lower *L, const rdx_uop *u, const rdx_uop *const *idx,
                         const rdx_uop *gate);

static int dim_is(const rdx_uop *u, uint32_t k, int64_t v)
{
    int64_t d;
    return rdx_uop_dim(u, k, &d) && d == v;
}

static const rdx_uop *param_for(cg_lower *L, uint32_t buf)
{
    for (uint32_t k = 0; k < L->nparams; k++)
        if (L->params[k] == buf)
            return L->param_nodes[k];
    if (L->nparams == CG_MAX_PARAMS) {
        L->err = rdx_fail(RDX_ERR_UNSUPPORTED, "rangeify: a kernel reading more than %d buffers",
                          CG_MAX_PARAMS);
        return NULL;
    }
    const rdx_sched_buffer *b = &L->bufs[buf];
    rdx_uop_arg a = rdx_uop_arg_none();
    a.i = L->nparams;
    a.dtype = b->dtype;
    a.addrspace = RDX_ADDR_GLOBAL;
    const rdx_uop *sh = rdx_ir_shape_u(L->ctx, &b->numel, 1);
    const rdx_uop *p = rdx_ir_node(L->ctx, RDX_OP_PARAM, &sh, 1, &a);
    if (!p)
        return NULL;
    L->params[L->nparams] = buf;
    L->param_nodes[L->nparams++] = p;
    return p;
}

static const rdx_uop *load(cg_lower *L, uint32_t buf, const rdx_uop *u, const rdx_uop *const *idx,
                           const rdx_uop *gate)
{
    rdx_ir_ctx *c = L->ctx;
    const rdx_uop *p = param_for(L, buf);
    const rdx_uop *flat = cg_flat(c, u->shape, idx, u->ndim);
    const rdx_uop *ix = p && flat ? rdx_ir_index(c, p, &flat, 1) : NULL;
    if (!ix)
        return NULL;
    if (!gate)
        return rdx_ir_node(c, RDX_OP_LOAD, &ix, 1, NULL);
    const rdx_uop *s[3] = { ix, cg_zero(c, u->dtype), gate };
    return rdx_ir_node(c, RDX_OP_LOAD, s, 3, NULL);
}

static int computed_here(const cg_lower *L, const rdx_uop *u)
{
    for (size_t k = 0; k < L->ncompute; k++)
        if (L->compute[k] == u)
            return 1;
    return 0;
}

/* Index of source s (right-aligned broadcast) from the output index of u. */
static void bcast_idx(cg_lower *L, const rdx_uop *u, const rdx_uop *s, const rdx_uop *const *idx,
                      const rdx_uop **out)
{
    uint32_t off = u->ndim - s->ndim;
    for (uint32_t k = 0; k < s->ndim; k++)
        out[k] = (dim_is(s, k, 1) && !dim_is(u, off + k, 1)) ? cg_idx(L->ctx, 0) : idx[off + k];
}

static const rdx_uop *as_index(rdx_ir_ctx *c, const rdx_uop *v)
{
    return v && v->dtype.scalar != RDX_INDEX ? rdx_ir_cast(c, v, rdx_dtype_of(RDX_INDEX)) : v;
}

/* lo <= x < hi as a bool node (both index nodes). */
static const rdx_uop *in_range(rdx_ir_ctx *c, const rdx_uop *x, const rdx_uop *lo,
                               const rdx_uop *hi)
{
    const rdx_uop *a = rdx_ir_cmplt(c, rdx_ir_add(c, lo, cg_idx(c, -1)), x);
    const rdx_uop *b = rdx_ir_cmplt(c, x, hi);
    return cg_and(c, a, b);
}

static const rdx_uop *lw_reduce(cg_lower *L, const rdx_uop *u, const rdx_uop *const *idx,
                                const rdx_uop *gate)
{
    rdx_ir_ctx *c = L->ctx;
    const rdx_uop *s = u->src[0];
    const rdx_uop *sidx[RDX_INTERP_MAX_DIMS_CG], *rs[1 + RDX_INTERP_MAX_DIMS_CG];
    uint32_t nr = 0;
    for (uint32_t k = 0; k < s->ndim; k++) {
        int red = 0;
        for (uint32_t j = 0; j < u->arg.nints; j++)
            red |= u->arg.ints[j] == (int64_t)k;
        if (!red) {
            sidx[k] = idx[k];
        } else if (dim_is(s, k, 1)) {
            sidx[k] = cg_idx(c, 0);
        } else {
            sidx[k] = cg_range(c, s->shape[k], L->next_axis++, RDX_AXIS_REDUCE);
            rs[1 + nr++] = sidx[k];
        }
    }
    const rdx_uop *v = lw(L, s, sidx, gate);
    if (!nr || !v)
        return v;
    rs[0] = v;
    rdx_uop_arg a = rdx_uop_arg_none();
    a.sub = u->arg.sub;
    const rdx_uop *r = rdx_ir_node(c, RDX_OP_REDUCE, rs, 1 + nr, &a);
    if (r && L->row_fused && L->row_fused(L->user, u)) {
        if (L->nfused + 2 > L->capfused) {
            size_t cap = L->capfused ? 2 * L->capfused : 16;
            const rdx_uop **nf = realloc(L->fused, cap * sizeof *nf);
            if (!nf) {
                L->err = rdx_fail(RDX_ERR_NOMEM, "rangeify: out of memory");
                return NULL;
            }
            L->fused = nf;
            L->capfused = cap;
        }
        L->fused[L->nfused++] = u;
        L->fused[L->nfused++] = r;
    }
    return r;
}

static const rdx_uop *lw_index(cg_lower *L, const rdx_uop *u, const rdx_uop *const *idx,
                               const rdx_uop *gate)
{
    rdx_ir_ctx *c = L->ctx;
    const rdx_uop *t = u->src[0];
    const rdx_uop *tidx[RDX_INTERP_MAX_DIMS_CG];
    const rdx_uop *valid = NULL;
    uint32_t p = 0, k;
    for (k = 0; k + 1 < u->nsrc; k++) {
        const rdx_uop *ix = u->src[1 + k];
        const rdx_uop *v = ix->ndim == 0 ? lw(L, ix, NULL, gate) : lw(L, ix, &idx[p++], gate);
        v = as_index(c, v);
        tidx[k] = v;
        const rdx_uop *ok = in_range(c, v, cg_idx(c, 0), t->shape[k]);
        valid = cg_and(c, valid, ok);
    }
    for (; k < t->ndim; k++)
        tidx[k] = idx[p++];
    const rdx_uop *g2 = cg_and(c, gate, valid);
    const rdx_uop *v = lw(L, t, tidx, g2);
    return valid ? rdx_ir_where(c, valid, v, cg_zero(c, u->dtype)) : v;
}

static const rdx_uop *lw_stack(cg_lower *L, const rdx_uop *u, const rdx_uop *const *idx,
                               const rdx_uop *gate)
{
    rdx_ir_ctx *c = L->ctx;
    int64_t sel;
    if (u->nsrc == 0)
        return cg_zero(c, u->dtype);
    if (rdx_uop_const_int(idx[0], &sel) && sel >= 0 && sel < (int64_t)u->nsrc)
        return lw(L, u->src[sel], idx + 1, gate);
    const rdx_uop *acc = NULL;
    for (uint32_t k = u->nsrc; k-- > 0;) {
        const rdx_uop *is = rdx_ir_cmpeq(c, idx[0], cg_idx(c, k));
        const rdx_uop *v = lw(L, u->src[k], idx + 1, cg_and(c, gate, is));
        acc = acc ? rdx_ir_where(c, is, v, acc) : v;
    }
    return acc;
}

/* Unflatten `flat` over dims d[0..n) into out[0..n). */
static void unflatten(rdx_ir_ctx *c, const rdx_uop *flat, const rdx_uop *const *d, uint32_t n,
                      const rdx_uop **out)
{
    const rdx_uop *stride = cg_idx(c, 1);
    for (uint32_t k = n; k-- > 0;) {
        const rdx_uop *q = rdx_ir_idiv(c, flat, stride);
        out[k] = k ? rdx_ir_mod(c, q, d[k]) : q;
        stride = rdx_ir_mul(c, stride, d[k]);
    }
}

/*
 * RESHAPE u (of s): the index of s from u's.  Axes are matched in groups of
 * equal size products (size-1 axes aside), so only the axes a reshape really
 * merges or splits get div/mod; symbolic sizes match only when equal.
 * Nonzero when a size cannot be read (the whole index is then re-split).
 */
static int reshape_idx(rdx_ir_ctx *c, const rdx_uop *u, const rdx_uop *s, const rdx_uop *const *idx,
                       const rdx_uop **sidx)
{
    uint32_t po = 0, pi = 0;
    for (uint32_t k = 0; k < s->ndim; k++)
        sidx[k] = cg_idx(c, 0);
    for (;;) {
        while (po < u->ndim && dim_is(u, po, 1))
            po++;
        while (pi < s->ndim && dim_is(s, pi, 1))
            pi++;
        if (po == u->ndim || pi == s->ndim)
            break;
        uint32_t o0 = po, i0 = pi;
        if (u->shape[po] == s->shape[pi]) {
            sidx[pi++] = idx[po++];
            continue;
        }
        int64_t a, b;
        if (!rdx_uop_dim(u, po, &a) || !rdx_uop_dim(s, pi, &b))
            goto fallback;
        po++, pi++;
        while (a != b) {
            int64_t d;
            if (a < b) {
                if (po == u->ndim || !rdx_uop_dim(u, po, &d))
                    goto fallback;
                a *= d;
                po++;
            } else {
                if (pi == s->ndim || !rdx_uop_dim(s, pi, &d))
                    goto fallback;
                b *= d;
                pi++;
            }
        }
        const rdx_uop *flat = cg_flat(c, u->shape + o0, idx + o0, po - o0);
        unflatten(c, flat, s->shape + i0, pi - i0, sidx + i0);
    }
    /* what is left on either side has size 1 */
    return 0;
fallback:
    unflatten(c, cg_flat(c, u->shape, idx, u->ndim), s->shape, s->ndim, sidx);
    return 0;
}

static rdx_dtype uint_of(unsigned bytes)
{
    return rdx_dtype_of(bytes == 1   ? RDX_UINT8
                        : bytes == 2 ? RDX_UINT16
                        : bytes == 4 ? RDX_UINT32
                                     : RDX_UINT64);
}

/* The value's bits as the unsigned integer of its size. */
static const rdx_uop *as_bits(rdx_ir_ctx *c, const rdx_uop *v)
{
    if (!v) /* the error of the node that made v stands */
        return NULL;
    rdx_dtype ut = uint_of(rdx_dtype_itemsize(v->dtype));
    return !rdx_dtype_eq(v->dtype, ut) ? rdx_ir_bitcast(c, v, ut) : v;
}

/*
 * BITCAST that changes the item size (the last axis rescaled, little-endian as the
 * interpreter and the GPU's memory): a narrower result takes its piece of a source element
 * (shift right, truncate), a wider one ORs the shifted bits of the source elements it
 * covers.
 */
static const rdx_uop *lw_bitcast_resize(cg_lower *L, const rdx_uop *u, const rdx_uop *const *idx,
                                        const rdx_uop *gate)
{
    rdx_ir_ctx *c = L->ctx;
    const rdx_uop *s = u->src[0];
    unsigned si = rdx_dtype_itemsize(s->dtype), so = rdx_dtype_itemsize(u->dtype);
    if (u->ndim == 0 || s->dtype.scalar == RDX_BOOL || u->dtype.scalar == RDX_BOOL) {
        L->err = rdx_fail(RDX_ERR_UNSUPPORTED,
                          "rangeify: BITCAST node #%u changes the item size (%u -> %u bytes) of "
                          "%s",
                          u->id, si, so, u->ndim ? "a bool" : "a shape-() value");
        return NULL;
    }
    const rdx_uop *sidx[RDX_INTERP_MAX_DIMS_CG];
    uint32_t last = u->ndim - 1;
    for (uint32_t k = 0; k < last; k++)
        sidx[k] = idx[k];
    const rdx_uop *bits = NULL;
    if (si > so) {
        int64_t r = si / so;
        sidx[last] = rdx_ir_idiv(c, idx[last], cg_idx(c, r));
        const rdx_uop *w = as_bits(c, lw(L, s, sidx, gate));
        const rdx_uop *sh =
            rdx_ir_mul(c, rdx_ir_mod(c, idx[last], cg_idx(c, r)), cg_idx(c, (int64_t)so * 8));
        sh = sh && w ? rdx_ir_cast(c, sh, w->dtype) : NULL;
        bits = rdx_ir_cast(c, rdx_ir_alu2(c, RDX_OP_SHR, w, sh), uint_of(so));
    } else {
        int64_t r = so / si;
        rdx_dtype wide = uint_of(so);
        for (int64_t j = 0; j < r; j++) {
            sidx[last] = rdx_ir_add(c, rdx_ir_mul(c, idx[last], cg_idx(c, r)), cg_idx(c, j));
            const rdx_uop *part = rdx_ir_cast(c, as_bits(c, lw(L, s, sidx, gate)), wide);
            if (j)
                part = rdx_ir_alu2(c, RDX_OP_SHL, part,
                                   rdx_ir_const_like(c, wide, (double)(j * si * 8)));
            bits = j ? rdx_ir_alu2(c, RDX_OP_OR, bits, part) : part;
        }
    }
    if (!bits) {
        if (!L->err)
            L->err = rdx_fail_context(RDX_ERR_INVALID, "rangeify: BITCAST node #%u", u->id);
        return NULL;
    }
    return rdx_dtype_eq(bits->dtype, u->dtype) ? bits : rdx_ir_bitcast(c, bits, u->dtype);
}

static const rdx_uop *lw_movement(cg_lower *L, const rdx_uop *u, const rdx_uop *const *idx,
                                  const rdx_uop *gate)
{
    rdx_ir_ctx *c = L->ctx;
    const rdx_uop *s = u->src[0];
    const rdx_uop *sidx[RDX_INTERP_MAX_DIMS_CG];
    switch (u->op) {
    case RDX_OP_PERMUTE:
        for (uint32_t k = 0; k < u->ndim; k++)
            sidx[u->arg.ints[k]] = idx[k];
        return lw(L, s, sidx, gate);
    case RDX_OP_FLIP:
        for (uint32_t k = 0; k < u->ndim; k++)
            sidx[k] = u->arg.ints[k] ? rdx_ir_add(c, rdx_ir_add(c, u->shape[k], cg_idx(c, -1)),
                                                  rdx_ir_mul(c, idx[k], cg_idx(c, -1)))
                                     : idx[k];
        return lw(L, s, sidx, gate);
    case RDX_OP_EXPAND:
        bcast_idx(L, u, s, idx, sidx);
        return lw(L, s, sidx, gate);
    case RDX_OP_SHRINK:
        for (uint32_t k = 0; k < u->ndim; k++)
            sidx[k] = rdx_ir_add(c, idx[k], u->src[1]->src[k]);
        return lw(L, s, sidx, gate);
    case RDX_OP_RESHAPE:
        if (reshape_idx(c, u, s, idx, sidx))
            return NULL;
        for (uint32_t k = 0; k < s->ndim; k++) {
            const rdx_uop *simp;
            if (sidx[k] && !rdx_ir_simplify(c, sidx[k], &simp))
                sidx[k] = simp;
        }
        return lw(L, s, sidx, gate);
    case RDX_OP_PAD: {
        const rdx_uop *valid = NULL;
        for (uint32_t k = 0; k < u->ndim; k++) {
            const rdx_uop *o = u->src[1]->src[k];
            int64_t ov;
            sidx[k] = rdx_ir_sub(c, idx[k], o);
            if (rdx_uop_const_int(o, &ov) && ov == 0 && s->shape[k] == u->shape[k])
                continue;
            valid = cg_and(c, valid, in_range(c, idx[k], o, rdx_ir_add(c, o, s->shape[k])));
        }
        const rdx_uop *v = lw(L, s, sidx, cg_and(c, gate, valid));
        return valid ? rdx_ir_where(c, valid, v, cg_zero(c, u->dtype)) : v;
    }
    case RDX_OP_INDEX:
        return lw_index(L, u, idx, gate);
    case RDX_OP_STACK:
        return lw_stack(L, u, idx, gate);
    case RDX_OP_REPLICATED: { /* identical copies along shard axis k: read copy 0 */
        uint32_t k = (uint32_t)u->arg.i;
        for (uint32_t j = 0; j < s->ndim; j++)
            sidx[j] = j < k ? idx[j] : j == k ? cg_idx(c, 0) : idx[j - 1];
        return lw(L, s, sidx, gate);
    }
    case RDX_OP_BITCAST:
        if (rdx_dtype_itemsize(u->dtype) != rdx_dtype_itemsize(s->dtype))
            return lw_bitcast_resize(L, u, idx, gate);
        {
            const rdx_uop *v = lw(L, s, idx, gate);
            return v ? rdx_ir_bitcast(c, v, u->dtype) : NULL;
        }
    default:
        L->err = rdx_fail(RDX_ERR_UNSUPPORTED, "rangeify: movement op %s (node #%u) is not lowered",
                          rdx_op_name((rdx_op)u->op), u->id);
        return NULL;
    }
}

static const rdx_uop *lw_compute(cg_lower *L, const rdx_uop *u, const rdx_uop *const *idx,
                                 const rdx_uop *gate)
{
    rdx_ir_ctx *c = L->ctx;
    const rdx_opinfo *oi = rdx_op_info((rdx_op)u->op);
    if (oi->flags & RDX_OPF_ELEMENTWISE) {
        const rdx_uop *src[3], *sidx[RDX_INTERP_MAX_DIMS_CG];
        for (uint32_t k = 0; k < u->nsrc; k++) {
            bcast_idx(L, u, u->src[k], idx, sidx);
            src[k] = lw(L, u->src[k], sidx, gate);
            if (!src[k])
                return NULL;
        }
        const rdx_uop *r = rdx_ir_replace_src(c, u, src, u->nsrc);
        /* a divisor that may be 0: tinygrad's x // 0 = 0 and x % 0 = x (docs/tensor.md), the
           same as the interpreter, whatever the machine's division gives */
        if (r && (u->op == RDX_OP_IDIV || u->op == RDX_OP_MOD) && u->src[1]->vmin <= 0 &&
            u->src[1]->vmax >= 0) {
            const rdx_uop *nz = rdx_ir_cmpne(c, src[1], cg_zero(c, src[1]->dtype));
            r = rdx_ir_where(c, nz, r, u->op == RDX_OP_IDIV ? cg_zero(c, r->dtype) : src[0]);
        }
        return r;
    }
    switch (u->op) {
    case RDX_OP_CONST:
    case RDX_OP_DEFINE_VAR:
        return u;
    case RDX_OP_REDUCE:
        return lw_reduce(L, u, idx, gate);
    case RDX_OP_CONTIGUOUS:
    case RDX_OP_CONTIGUOUSBACKWARD:
    case RDX_OP_DETACH:
        return lw(L, u->src[0], idx, gate);
    case RDX_OP_AFTER:
        /* computing an assignment: the stored value (its buffer is the target's) */
        if ((L->err = cg_check_assign(u)))
            return NULL;
        return lw(L, u->src[1]->src[1], idx, gate);
    case RDX_OP_LOAD: {
        /* (buf), (buf, gate), (buf, alt, gate): tensor-level gates are tensors */
        const rdx_uop *g = u->nsrc >= 2 ? u->src[u->nsrc - 1] : NULL;
        const rdx_uop *sidx[RDX_INTERP_MAX_DIMS_CG];
        const rdx_uop *gv = NULL;
        if (g) {
            bcast_idx(L, u, g, idx, sidx);
            gv = lw(L, g, sidx, gate);
        }
        const rdx_uop *v = lw(L, u->src[0], idx, cg_and(c, gate, gv));
        if (!g)
            return v;
        const rdx_uop *alt = cg_zero(c, u->dtype);
        if (u->nsrc == 3) {
            bcast_idx(L, u, u->src[1], idx, sidx);
            alt = lw(L, u->src[1], sidx, gate);
        }
        return rdx_ir_where(c, gv, v, alt);
    }
    default:
        if (oi->cat == RDX_CAT_MOVEMENT)
            return lw_movement(L, u, idx, gate);
        L->err = rdx_fail(RDX_ERR_UNSUPPORTED, "rangeify: cannot lower %s node #%u (%s)",
                          rdx_op_name((rdx_op)u->op), u->id,
                          u->op == RDX_OP_STORE
                              ? "a STORE is scheduled only as AFTER(buffer, STORE(buffer, v))"
                              : "not a tensor-level op");
        return NULL;
    }
}

static const rdx_uop *lw(cg_lower *L, const rdx_uop *u, const rdx_uop *const *idx,
                         const rdx_uop *gate)
{
    if (!u)
        return NULL;
    if (u->ndim > RDX_INTERP_MAX_DIMS_CG) {
        L->err = rdx_fail(RDX_ERR_UNSUPPORTED, "rangeify: rank %u > %d", u->ndim,
                          RDX_INTERP_MAX_DIMS_CG);
        return NULL;
    }
    const void *key[CG_KEY_MAX];
    key[0] = u;
    key[1] = gate;
    for (uint32_t k = 0; k < u->ndim; k++) {
        if (!idx[k])
            return NULL;
        key[2 + k] = idx[k];
    }
    const rdx_uop *m = cg_map_get(&L->memo, key, 2 + u->ndim);
    if (m)
        return m;
    const rdx_uop *v;
    int b = computed_here(L, u) && u->op != RDX_OP_PARAM ? -1 : L->buffer_of(L->user, u);
    if (b >= 0)
        v = load(L, (uint32_t)b, u, idx, gate);
    else
        v = lw_compute(L, u, idx, gate);
    if (v && cg_map_put(&L->memo, key, 2 + u->ndim, v))
        return NULL;
    return v;
}

/* Bit k set when the row-fused REDUCE r depends on output range rng[k] (k < nr); -1 when it
   depends on another range (a reduction loop of its consumer: recomputed per iteration). */
static int64_t free_ranges(const rdx_uop *r, const rdx_uop *const *rng, uint32_t nr)
{
    const rdx_uop **order = NULL;
    size_t n = 0;
    if (rdx_ir_toposort(r, &order, &n))
        return -1;
    int64_t mask = 0;
    for (size_t i = 0; i < n && mask >= 0; i++) {
        const rdx_uop *u = order[i];
        if (u->op != RDX_OP_RANGE)
            continue;
        int closed = 0;
        for (size_t j = i + 1; j < n && !closed; j++)
            if (order[j]->op == RDX_OP_REDUCE)
                for (uint32_t k = 1; k < order[j]->nsrc; k++)
                    closed |= order[j]->src[k] == u;
        if (closed)
            continue;
        uint32_t k;
        for (k = 0; k < nr && rng[k] != u; k++)
            ;
        mask = k < nr ? mask | (int64_t)1 << k : -1;
    }
    free(order);
    return mask;
}

/* Row fusion's check (see cg_build_kernel); the D ranges made GLOBAL in *sink. */
static rdx_status row_ranges(cg_lower *L, const rdx_uop *const *rng, uint32_t nr,
                             const rdx_uop **sink)
{
    int64_t d = -2;
    for (size_t i = 0; i < L->nfused; i += 2) {
        int64_t m = free_ranges(L->fused[i + 1], rng, nr);
        int64_t rows = 1, ev = 1;
        const rdx_uop *t = L->fused[i];
        for (uint32_t k = 0; k < t->ndim && rows > 0; k++) {
            int64_t v;
            rows = rdx_uop_dim(t, k, &v) ? rows * v : -1;
        }
        for (uint32_t k = 0; k < nr && m > 0; k++)
            if (m >> k & 1) {
                int64_t v;
                ev = ev > 0 && rdx_uop_const_int(rng[k]->src[0], &v) ? ev * v : -1;
            }
        int n1 = 0;
        for (uint32_t k = 0; k < nr && m > 0; k++)
            n1 += (int)(m >> k & 1);
        int twice = 0; /* read at two indices: two copies, each rounding its own way */
        for (size_t j = 0; j < i && !twice; j += 2)
            twice = L->fused[j] == t && L->fused[j + 1] != L->fused[i + 1];
        if (m <= 0 || (d != -2 && m != d) || n1 > 3 || (rows > 0 && (ev < 0 || ev > rows)) ||
            twice) {
            L->refuse = t;
            return RDX_ERR_UNSUPPORTED;
        }
        d = m;
    }
    if (d < 0)
        return RDX_OK;
    const rdx_uop *from[3], *to[3];
    size_t nf = 0;
    for (uint32_t k = 0; k < nr; k++)
        if (d >> k & 1) {
            from[nf] = rng[k];
            to[nf] = cg_range(L->ctx, rng[k]->src[0], rng[k]->arg.i, RDX_AXIS_GLOBAL);
            if (!to[nf++])
                return rdx_fail(RDX_ERR_INVALID, "rangeify: GLOBAL range");
        }
    return rdx_ir_substitute(L->ctx, *sink, from, to, nf, sink);
}

rdx_status cg_build_kernel(cg_lower *L, const rdx_uop *const *nodes, size_t n,
                           const uint32_t *outbufs, const rdx_uop **sink)
{
    rdx_ir_ctx *c = L->ctx;
    const rdx_uop *u0 = nodes[0];
    const rdx_uop *idx[RDX_INTERP_MAX_DIMS_CG], *rng[1 + RDX_INTERP_MAX_DIMS_CG];
    const rdx_uop **eff = calloc(n, sizeof *eff);
    if (!eff)
        return rdx_fail(RDX_ERR_NOMEM, "rangeify: out of memory");
    L->compute = nodes;
    L->ncompute = n;
    rdx_status st = RDX_OK;
    if (u0->ndim > RDX_INTERP_MAX_DIMS_CG)
        st = rdx_fail(RDX_ERR_UNSUPPORTED, "rangeify: rank %u > %d", u0->ndim,
                      RDX_INTERP_MAX_DIMS_CG);
    for (size_t i = 0; i < n && !st; i++)
        if (!param_for(L, outbufs[i]))
            st = RDX_ERR_UNSUPPORTED;
    uint32_t nr = 0;
    for (uint32_t k = 0; k < u0->ndim && !st; k++) {
        if (dim_is(u0, k, 1)) {
            idx[k] = cg_idx(c, 0);
        } else {
            idx[k] = cg_range(c, u0->shape[k], L->next_axis++, RDX_AXIS_LOOP);
            rng[1 + nr++] = idx[k];
        }
    }
    for (size_t i = 0; i < n && !st; i++) {
        const rdx_uop *v = lw(L, nodes[i], idx, NULL);
        const rdx_uop *flat = cg_flat(c, u0->shape, idx, u0->ndim);
        const rdx_uop *ix = flat ? rdx_ir_index(c, L->param_nodes[i], &flat, 1) : NULL;
        const rdx_uop *s = v && ix ? rdx_ir_store(c, ix, v) : NULL;
        if (s && nr) {
            rng[0] = s;
            s = rdx_ir_node(c, RDX_OP_END, rng, 1 + nr, NULL);
        }
        if (!s)
            st = rdx_fail_context(L->err ? L->err : RDX_ERR_INVALID,
                                  "rangeify: kernel for %s node #%u",
                                  rdx_op_name((rdx_op)nodes[i]->op), nodes[i]->id);
        eff[i] = s;
    }
    const rdx_uop *k = st ? NULL : rdx_ir_sink(c, eff, n);
    if (!st && !k)
        st = rdx_fail_context(RDX_ERR_INVALID, "rangeify: kernel sink");
    if (!st && L->nfused)
        st = row_ranges(L, rng + 1, nr, &k);
    if (!st)
        st = cg_simplify_kernel(c, k, sink);
    free(eff);
    return st;
}
