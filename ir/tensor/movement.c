/*
 * ir/tensor/movement.c — movement ops, all lazy: RESHAPE, PERMUTE, EXPAND,
 * PAD (with a value via WHERE over a padded mask), SHRINK, strided slices
 * (PAD/RESHAPE/SHRINK), FLIP, INDEX, STACK, cat (PAD + ADD) and split.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ir/tensor/tensor_internal.h"

const rdx_tensor *t_reshape_u(rdx_graph *g, const rdx_tensor *a, uint32_t n,
                              const rdx_uop *const *dims)
{
    if (!a)
        return NULL;
    const rdx_uop *s[2] = { a, rdx_ir_shape_u(g->ir, dims, n) };
    return t_chk(g, "reshape", rdx_ir_node(g->ir, RDX_OP_RESHAPE, s, 2, NULL));
}

const rdx_tensor *t_expand_u(rdx_graph *g, const rdx_tensor *a, uint32_t n,
                             const rdx_uop *const *dims)
{
    if (!a)
        return NULL;
    const rdx_uop *s[2] = { a, rdx_ir_shape_u(g->ir, dims, n) };
    return t_chk(g, "expand", rdx_ir_node(g->ir, RDX_OP_EXPAND, s, 2, NULL));
}

const rdx_tensor *rdx_tensor_reshape(rdx_graph *g, const rdx_tensor *a, uint32_t ndim,
                                     const int64_t *dims)
{
    if (!a || g->err)
        return NULL;
    if (ndim > TMAXD)
        return t_fail(g, RDX_ERR_INVALID, "reshape: rank %u exceeds %d", ndim, TMAXD);
    int64_t d[TMAXD], have = rdx_tensor_numel(a), prod = 1;
    int infer = -1;
    char sa[128];
    for (uint32_t k = 0; k < ndim; k++) {
        d[k] = dims[k];
        if (dims[k] == -1 && infer < 0)
            infer = (int)k;
        else if (dims[k] < 0)
            return t_fail(g, RDX_ERR_INVALID,
                          "reshape: bad target dimension %" PRId64 " for shape %s", dims[k],
                          t_shape_str(a, sa, sizeof sa));
        else
            prod *= dims[k];
    }
    if (infer >= 0) {
        if (have < 0 || prod == 0 || have % prod)
            return t_fail(g, RDX_ERR_INVALID, "reshape: cannot infer -1 for shape %s",
                          t_shape_str(a, sa, sizeof sa));
        d[infer] = have / prod;
        prod = have;
    }
    if (have >= 0 && have != prod) {
        char sb[256];
        size_t p = (size_t)snprintf(sb, sizeof sb, "[");
        for (uint32_t k = 0; k < ndim && p < sizeof sb; k++)
            p += (size_t)snprintf(sb + p, sizeof sb - p, "%s%" PRId64, k ? "," : "", d[k]);
        if (p < sizeof sb)
            snprintf(sb + p, sizeof sb - p, "]");
        return t_fail(g, RDX_ERR_INVALID,
                      "reshape: shape %s (%" PRId64 " elements) cannot become %s (%" PRId64
                      " elements)",
                      t_shape_str(a, sa, sizeof sa), have, sb, prod);
    }
    const rdx_uop *s[2] = { a, rdx_ir_shape(g->ir, d, ndim) };
    return t_chk(g, "reshape", rdx_ir_node(g->ir, RDX_OP_RESHAPE, s, 2, NULL));
}

const rdx_tensor *rdx_tensor_permute(rdx_graph *g, const rdx_tensor *a, const int *order)
{
    if (!a || g->err)
        return NULL;
    int64_t o[TMAXD];
    int seen[TMAXD] = { 0 };
    char sa[128];
    if (a->ndim > TMAXD)
        return t_fail(g, RDX_ERR_INVALID, "permute: rank %u too large", a->ndim);
    for (uint32_t k = 0; k < a->ndim; k++) {
        int ax = order[k] < 0 ? order[k] + (int)a->ndim : order[k];
        if (ax < 0 || ax >= (int)a->ndim || seen[ax]++)
            return t_fail(g, RDX_ERR_INVALID,
                          "permute: order is not a permutation of the %u axes of %s", a->ndim,
                          t_shape_str(a, sa, sizeof sa));
        o[k] = ax;
    }
    rdx_uop_arg arg = rdx_uop_arg_none();
    arg.ints = rdx_ir_ints(g->ir, o, a->ndim);
    arg.nints = a->ndim;
    return t_chk(g, "permute", rdx_ir_node(g->ir, RDX_OP_PERMUTE, &a, 1, &arg));
}

const rdx_tensor *rdx_tensor_transpose(rdx_graph *g, const rdx_tensor *a, int ax0, int ax1)
{
    if (!a || g->err)
        return NULL;
    int x = t_axis(g, "transpose", a, ax0), y = t_axis(g, "transpose", a, ax1);
    if (x < 0 || y < 0)
        return NULL;
    int order[TMAXD];
    for (uint32_t k = 0; k < a->ndim; k++)
        order[k] = (int)k;
    order[x] = y, order[y] = x;
    return rdx_tensor_permute(g, a, order);
}

const rdx_tensor *rdx_tensor_expand(rdx_graph *g, const rdx_tensor *a, uint32_t ndim,
                                    const int64_t *dims)
{
    if (!a || g->err)
        return NULL;
    char sa[128];
    if (ndim < a->ndim || ndim > TMAXD)
        return t_fail(g, RDX_ERR_INVALID, "expand: cannot expand %s to rank %u",
                      t_shape_str(a, sa, sizeof sa), ndim);
    const rdx_uop *d[TMAXD];
    uint32_t sh = ndim - a->ndim;
    for (uint32_t k = 0; k < ndim; k++) {
        d[k] = rdx_ir_int(g->ir, dims[k]);
        if (k >= sh) {
            int64_t v;
            int known = rdx_uop_dim(a, k - sh, &v);
            if (dims[k] < 0 || (known && v != 1 && v != dims[k]))
                return t_fail(g, RDX_ERR_INVALID, "expand: axis %u of %s is neither 1 nor %" PRId64,
                              k - sh, t_shape_str(a, sa, sizeof sa), dims[k]);
        }
    }
    return t_broadcast_to(g, a, ndim, d);
}

const rdx_tensor *rdx_tensor_pad(rdx_graph *g, const rdx_tensor *a, const int64_t *before,
                                 const int64_t *after, double value)
{
    if (!a || g->err)
        return NULL;
    int64_t dims[TMAXD], out[TMAXD];
    if (!t_dims(g, "pad", a, dims))
        return NULL;
    for (uint32_t k = 0; k < a->ndim; k++) {
        if (before[k] < 0 || after[k] < 0)
            return t_fail(g, RDX_ERR_INVALID, "pad: negative padding on axis %u", k);
        out[k] = dims[k] + before[k] + after[k];
    }
    const rdx_uop *s[3] = { a, rdx_ir_shape(g->ir, before, a->ndim),
                            rdx_ir_shape(g->ir, out, a->ndim) };
    const rdx_tensor *p = t_chk(g, "pad", rdx_ir_node(g->ir, RDX_OP_PAD, s, 3, NULL));
    if (!p || value == 0)
        return p;
    /* the padded region holds `value`: WHERE(PAD(true), padded, value) */
    rdx_dtype b = rdx_dtype_of(RDX_BOOL);
    const rdx_tensor *t = rdx_tensor_full(g, b, a->ndim, dims, 1);
    const rdx_uop *ms[3] = { t, s[1], s[2] };
    const rdx_tensor *mask =
        t ? t_chk(g, "pad", rdx_ir_node(g->ir, RDX_OP_PAD, ms, 3, NULL)) : NULL;
    return rdx_tensor_where(g, mask, p, rdx_tensor_const(g, a->dtype, value));
}

const rdx_tensor *rdx_tensor_shrink(rdx_graph *g, const rdx_tensor *a, const int64_t *start,
                                    const int64_t *end)
{
    if (!a || g->err)
        return NULL;
    int64_t dims[TMAXD], sz[TMAXD];
    if (!t_dims(g, "shrink", a, dims))
        return NULL;
    char sa[128];
    for (uint32_t k = 0; k < a->ndim; k++) {
        if (start[k] < 0 || end[k] < start[k] || end[k] > dims[k])
            return t_fail(g, RDX_ERR_INVALID,
                          "shrink: [%" PRId64 ", %" PRId64 ") is outside axis %u of %s", start[k],
                          end[k], k, t_shape_str(a, sa, sizeof sa));
        sz[k] = end[k] - start[k];
    }
    const rdx_uop *s[3] = { a, rdx_ir_shape(g->ir, start, a->ndim),
                            rdx_ir_shape(g->ir, sz, a->ndim) };
    return t_chk(g, "shrink", rdx_ir_node(g->ir, RDX_OP_SHRINK, s, 3, NULL));
}

const rdx_tensor *rdx_tensor_slice(rdx_graph *g, const rdx_tensor *a, int axis, int64_t start,
                                   int64_t end, int64_t step)
{
    if (!a || g->err)
        return NULL;
    int ax = t_axis(g, "slice", a, axis);
    int64_t dims[TMAXD];
    if (ax < 0 || !t_dims(g, "slice", a, dims))
        return NULL;
    int64_t n = dims[ax];
    if (start < 0)
        start += n;
    if (end < 0)
        end += n;
    if (step < 1 || start < 0 || end > n || end < start)
        return t_fail(g, RDX_ERR_INVALID,
                      "slice: [%" PRId64 ":%" PRId64 ":%" PRId64
                      "] is invalid for axis %d of size %" PRId64,
                      start, end, step, axis, n);
    int64_t st[TMAXD] = { 0 }, en[TMAXD];
    memcpy(en, dims, sizeof en);
    int64_t len = (end - start + step - 1) / step;
    if (step == 1 || len == 0) {
        st[ax] = start, en[ax] = start + len;
        return rdx_tensor_shrink(g, a, st, en);
    }
    /* pad to start + len*step, shrink to that window, view as (len, step), keep column 0 */
    int64_t need = start + len * step, before[TMAXD] = { 0 }, after[TMAXD] = { 0 };
    const rdx_tensor *x = a;
    if (need > n) {
        after[ax] = need - n;
        x = rdx_tensor_pad(g, x, before, after, 0);
        en[ax] = need;
    }
    st[ax] = start, en[ax] = need;
    x = rdx_tensor_shrink(g, x, st, en);
    int64_t r[TMAXD + 1];
    uint32_t m = 0;
    for (uint32_t k = 0; k < a->ndim; k++) {
        if ((int)k == ax) {
            r[m++] = len;
            r[m++] = step;
        } else {
            r[m++] = dims[k];
        }
    }
    x = rdx_tensor_reshape(g, x, m, r);
    int64_t s2[TMAXD + 1] = { 0 }, e2[TMAXD + 1];
    memcpy(e2, r, sizeof(int64_t) * m);
    e2[ax + 1] = 1;
    x = rdx_tensor_shrink(g, x, s2, e2);
    int64_t o[TMAXD];
    memcpy(o, dims, sizeof o);
    o[ax] = len;
    return rdx_tensor_reshape(g, x, a->ndim, o);
}

const rdx_tensor *rdx_tensor_flip(rdx_graph *g, const rdx_tensor *a, uint32_t naxes,
                                  const int *axes)
{
    if (!a || g->err)
        return NULL;
    int64_t f[TMAXD] = { 0 };
    for (uint32_t k = 0; k < naxes; k++) {
        int ax = t_axis(g, "flip", a, axes[k]);
        if (ax < 0)
            return NULL;
        f[ax] = 1;
    }
    rdx_uop_arg arg = rdx_uop_arg_none();
    arg.ints = rdx_ir_ints(g->ir, f, a->ndim);
    arg.nints = a->ndim;
    return t_chk(g, "flip", rdx_ir_node(g->ir, RDX_OP_FLIP, &a, 1, &arg));
}

const rdx_tensor *rdx_tensor_index(rdx_graph *g, const rdx_tensor *a, uint32_t nidx,
                                   const rdx_tensor *const *idx)
{
    if (!a || g->err)
        return NULL;
    char sa[128];
    if (nidx > a->ndim || nidx > TMAXD)
        return t_fail(g, RDX_ERR_INVALID, "index: %u indices for shape %s", nidx,
                      t_shape_str(a, sa, sizeof sa));
    const rdx_uop *s[TMAXD + 1];
    s[0] = a;
    for (uint32_t k = 0; k < nidx; k++) {
        if (!idx[k])
            return NULL;
        if (!rdx_dtype_is_int(idx[k]->dtype) || idx[k]->dtype.scalar == RDX_BOOL ||
            idx[k]->ndim > 1)
            return t_fail(g, RDX_ERR_INVALID,
                          "index: index %u must be an integer tensor of rank 0 or 1, got %s", k,
                          t_shape_str(idx[k], sa, sizeof sa));
        s[k + 1] = idx[k];
    }
    return t_chk(g, "index", rdx_ir_node(g->ir, RDX_OP_INDEX, s, nidx + 1, NULL));
}

const rdx_tensor *rdx_tensor_stack(rdx_graph *g, const rdx_tensor *const *ts, size_t n, int axis)
{
    if (g->err)
        return NULL;
    if (n == 0 || n > 4096)
        return t_fail(g, RDX_ERR_INVALID, "stack: needs 1..4096 tensors, got %zu", n);
    for (size_t k = 0; k < n; k++) {
        if (!ts[k])
            return NULL;
        int same = ts[k]->ndim == ts[0]->ndim && rdx_dtype_eq(ts[k]->dtype, ts[0]->dtype);
        for (uint32_t j = 0; same && j < ts[0]->ndim; j++)
            same = ts[k]->shape[j] == ts[0]->shape[j];
        if (!same) {
            char s0[128], s1[128];
            return t_fail(g, RDX_ERR_INVALID, "stack: tensor %zu has shape %s, tensor 0 %s", k,
                          t_shape_str(ts[k], s1, sizeof s1), t_shape_str(ts[0], s0, sizeof s0));
        }
    }
    int nd = (int)ts[0]->ndim + 1;
    int ax = axis < 0 ? axis + nd : axis;
    if (ax < 0 || ax >= nd)
        return t_fail(g, RDX_ERR_INVALID, "stack: axis %d out of range for rank %d", axis, nd);
    const rdx_tensor *s =
        t_chk(g, "stack", rdx_ir_node(g->ir, RDX_OP_STACK, (const rdx_uop *const *)ts, n, NULL));
    if (!s || ax == 0)
        return s;
    int order[TMAXD + 1];
    for (int k = 0, m = 1; k < nd; k++)
        order[k] = k == ax ? 0 : m++;
    return rdx_tensor_permute(g, s, order);
}

const rdx_tensor *rdx_tensor_cat(rdx_graph *g, const rdx_tensor *const *ts, size_t n, int axis)
{
    if (g->err)
        return NULL;
    if (n == 0)
        return t_fail(g, RDX_ERR_INVALID, "cat: no tensors");
    for (size_t k = 0; k < n; k++)
        if (!ts[k])
            return NULL;
    int ax = t_axis(g, "cat", ts[0], axis);
    int64_t d0[TMAXD];
    if (ax < 0 || !t_dims(g, "cat", ts[0], d0))
        return NULL;
    int64_t total = 0;
    for (size_t k = 0; k < n; k++) {
        int64_t dk[TMAXD];
        if (!t_dims(g, "cat", ts[k], dk))
            return NULL;
        int ok = ts[k]->ndim == ts[0]->ndim && rdx_dtype_eq(ts[k]->dtype, ts[0]->dtype);
        for (uint32_t j = 0; ok && j < ts[0]->ndim; j++)
            ok = (int)j == ax || dk[j] == d0[j];
        if (!ok) {
            char s0[128], s1[128];
            return t_fail(g, RDX_ERR_INVALID,
                          "cat: tensor %zu (%s) does not match tensor 0 (%s) off axis %d", k,
                          t_shape_str(ts[k], s1, sizeof s1), t_shape_str(ts[0], s0, sizeof s0), ax);
        }
        total += dk[ax];
    }
    const rdx_tensor *acc = NULL;
    int64_t off = 0;
    for (size_t k = 0; k < n; k++) {
        int64_t before[TMAXD] = { 0 }, after[TMAXD] = { 0 };
        int64_t sz = rdx_tensor_dim(ts[k], ax);
        before[ax] = off;
        after[ax] = total - off - sz;
        off += sz;
        const rdx_tensor *p = rdx_tensor_pad(g, ts[k], before, after, 0);
        acc = acc ? t_chk(g, "cat", rdx_ir_add(g->ir, acc, p)) : p;
    }
    return acc;
}

rdx_status rdx_tensor_split(rdx_graph *g, const rdx_tensor *a, int axis, const int64_t *sizes,
                            size_t n, const rdx_tensor **outs)
{
    for (size_t k = 0; k < n; k++)
        outs[k] = NULL;
    if (!a || g->err)
        return g->err ? g->err : rdx_fail(RDX_ERR_INVALID, "split: NULL tensor");
    int ax = t_axis(g, "split", a, axis);
    int64_t dims[TMAXD];
    if (ax < 0 || !t_dims(g, "split", a, dims))
        return g->err;
    int64_t sum = 0;
    for (size_t k = 0; k < n; k++) {
        if (sizes[k] < 0)
            return t_status(g,
                            rdx_fail(RDX_ERR_INVALID, "split: negative size %" PRId64, sizes[k]));
        sum += sizes[k];
    }
    if (sum != dims[ax]) {
        char sa[128];
        return t_status(g, rdx_fail(RDX_ERR_INVALID,
                                    "split: sizes sum to %" PRId64 ", axis %d of %s has %" PRId64,
                                    sum, axis, t_shape_str(a, sa, sizeof sa), dims[ax]));
    }
    int64_t off = 0;
    for (size_t k = 0; k < n; k++) {
        int64_t st[TMAXD] = { 0 }, en[TMAXD];
        memcpy(en, dims, sizeof en);
        st[ax] = off, en[ax] = off + sizes[k];
        off += sizes[k];
        outs[k] = rdx_tensor_shrink(g, a, st, en);
        if (!outs[k])
            return g->err;
    }
    return RDX_OK;
}
