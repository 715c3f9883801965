/*
 * ir/tensor/reduce.c — reductions (REDUCE ADD/MAX/MIN/MUL along any axes,
 * keepdim), mean/var/std, argmax, and cumsum by the spec's prefix_sum.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "ir/tensor/tensor_internal.h"

const rdx_tensor *t_reduce(rdx_graph *g, const rdx_tensor *a, rdx_redop op, uint32_t naxes,
                           const int64_t *axes)
{
    if (!a)
        return NULL;
    rdx_uop_arg arg = rdx_uop_arg_none();
    arg.sub = (uint8_t)op;
    arg.ints = rdx_ir_ints(g->ir, axes, naxes);
    arg.nints = naxes;
    return t_chk(g, "reduce", rdx_ir_node(g->ir, RDX_OP_REDUCE, &a, 1, &arg));
}

/* Normalised, sorted, unique axes (naxes 0 = all) into ax; count or -1. */
static int norm_axes(rdx_graph *g, const char *op, const rdx_tensor *a, uint32_t naxes,
                     const int *axes, int64_t *ax)
{
    int used[TMAXD] = { 0 };
    if (a->ndim > TMAXD) {
        t_fail(g, RDX_ERR_INVALID, "%s: rank too large", op);
        return -1;
    }
    if (naxes == 0) {
        for (uint32_t k = 0; k < a->ndim; k++)
            used[k] = 1;
    }
    for (uint32_t k = 0; k < naxes; k++) {
        int x = t_axis(g, op, a, axes[k]);
        if (x < 0)
            return -1;
        if (used[x]++) {
            t_fail(g, RDX_ERR_INVALID, "%s: axis %d given twice", op, axes[k]);
            return -1;
        }
    }
    int n = 0;
    for (uint32_t k = 0; k < a->ndim; k++)
        if (used[k])
            ax[n++] = k;
    return n;
}

static const rdx_tensor *reduce_op(rdx_graph *g, const char *op, const rdx_tensor *a, rdx_redop r,
                                   uint32_t naxes, const int *axes, int keepdim)
{
    if (!a || g->err)
        return NULL;
    int64_t ax[TMAXD];
    int n = norm_axes(g, op, a, naxes, axes, ax);
    if (n < 0)
        return NULL;
    if (n == 0)
        return a; /* rank 0: nothing to reduce */
    const rdx_tensor *res = t_reduce(g, a, r, (uint32_t)n, ax);
    if (!res || keepdim)
        return res;
    const rdx_uop *d[TMAXD];
    uint32_t m = 0;
    for (uint32_t k = 0, j = 0; k < a->ndim; k++) {
        if (j < (uint32_t)n && ax[j] == k) {
            j++;
            continue;
        }
        d[m++] = a->shape[k];
    }
    return t_reshape_u(g, res, m, d);
}

static const rdx_tensor *sum_input(rdx_graph *g, const rdx_tensor *a)
{
    if (a && a->dtype.scalar == RDX_BOOL)
        return rdx_tensor_cast(g, a, rdx_dtype_of(RDX_INT32));
    return a;
}

/* tinygrad's sum_acc_dtype: unsigned integers accumulate in at least uint32, signed ones and
   bool in at least int32, floats in at least float32. */
static rdx_dtype sum_acc(rdx_dtype d)
{
    if (rdx_dtype_is_unsigned(d))
        return rdx_dtype_promote(d, rdx_dtype_of(RDX_UINT32));
    if (rdx_dtype_is_int(d) || d.scalar == RDX_BOOL)
        return rdx_dtype_promote(d, rdx_dtype_of(RDX_INT32));
    return rdx_dtype_promote(d, t_f32());
}

/* a cast to its accumulation dtype and summed: the sum's dtype is sum_acc(a) */
static const rdx_tensor *acc_sum(rdx_graph *g, const rdx_tensor *a, uint32_t naxes, const int *axes,
                                 int keepdim)
{
    if (!a || g->err)
        return NULL;
    rdx_dtype acc = sum_acc(a->dtype);
    if (!rdx_dtype_eq(acc, a->dtype))
        a = rdx_tensor_cast(g, a, acc);
    return reduce_op(g, "sum", a, RDX_RED_ADD, naxes, axes, keepdim);
}

static int is_half(rdx_dtype d)
{
    return d.scalar == RDX_FLOAT16 || d.scalar == RDX_BFLOAT16 || d.scalar == RDX_FP8E4M3 ||
           d.scalar == RDX_FP8E5M2;
}

const rdx_tensor *rdx_tensor_sum(rdx_graph *g, const rdx_tensor *a, uint32_t naxes, const int *axes,
                                 int keepdim)
{
    /* as tinygrad's Tensor.sum: small integers and bool give int32/uint32; halves and fp8s are
       summed in float32 and rounded back once */
    const rdx_tensor *s = acc_sum(g, a, naxes, axes, keepdim);
    return s && is_half(a->dtype) ? rdx_tensor_cast(g, s, a->dtype) : s;
}

const rdx_tensor *rdx_tensor_max(rdx_graph *g, const rdx_tensor *a, uint32_t naxes, const int *axes,
                                 int keepdim)
{
    return reduce_op(g, "max", a, RDX_RED_MAX, naxes, axes, keepdim);
}

const rdx_tensor *rdx_tensor_min(rdx_graph *g, const rdx_tensor *a, uint32_t naxes, const int *axes,
                                 int keepdim)
{
    return reduce_op(g, "min", a, RDX_RED_MIN, naxes, axes, keepdim);
}

const rdx_tensor *rdx_tensor_prod(rdx_graph *g, const rdx_tensor *a, uint32_t naxes,
                                  const int *axes, int keepdim)
{
    /* as tinygrad's Tensor.prod: the dtype is kept (a bool product is their AND) */
    return reduce_op(g, "prod", a, RDX_RED_MUL, naxes, axes, keepdim);
}

/* Number of elements reduced, as a scalar of dtype dt (symbolic sizes become a CAST). */
static const rdx_tensor *count_of(rdx_graph *g, const char *op, const rdx_tensor *a, uint32_t naxes,
                                  const int *axes, rdx_dtype dt, int correction)
{
    int64_t ax[TMAXD];
    int n = norm_axes(g, op, a, naxes, axes, ax);
    if (n < 0)
        return NULL;
    const rdx_uop *cnt = rdx_ir_int(g->ir, 1);
    for (int k = 0; k < n; k++)
        cnt = rdx_ir_mul(g->ir, cnt, a->shape[ax[k]]);
    int64_t v;
    if (cnt && rdx_ir_simplify(g->ir, cnt, &cnt))
        return t_irfail(g, op);
    if (cnt && rdx_uop_const_int(cnt, &v))
        return rdx_tensor_const(g, dt, (double)(v - correction));
    const rdx_tensor *c = t_chk(g, op, rdx_ir_cast(g->ir, cnt, dt));
    return correction ? rdx_tensor_adds(g, c, -correction) : c;
}

static const rdx_tensor *float_of(rdx_graph *g, const rdx_tensor *a)
{
    if (!a)
        return NULL;
    return rdx_dtype_is_float(a->dtype) ? a : rdx_tensor_cast(g, a, t_f32());
}

const rdx_tensor *rdx_tensor_mean(rdx_graph *g, const rdx_tensor *a, uint32_t naxes,
                                  const int *axes, int keepdim)
{
    a = float_of(g, a);
    if (!a || g->err)
        return NULL;
    const rdx_tensor *s = acc_sum(g, a, naxes, axes, keepdim);
    if (!s)
        return NULL;
    const rdx_tensor *m = rdx_tensor_div(g, s, count_of(g, "mean", a, naxes, axes, s->dtype, 0));
    return m && !rdx_dtype_eq(m->dtype, a->dtype) ? rdx_tensor_cast(g, m, a->dtype) : m;
}

const rdx_tensor *rdx_tensor_var(rdx_graph *g, const rdx_tensor *a, uint32_t naxes, const int *axes,
                                 int keepdim, int correction)
{
    a = float_of(g, a);
    if (!a || g->err)
        return NULL;
    const rdx_tensor *m = rdx_tensor_mean(g, a, naxes, axes, 1);
    const rdx_tensor *d = rdx_tensor_sub(g, a, m);
    const rdx_tensor *s = acc_sum(g, rdx_tensor_mul(g, d, d), naxes, axes, keepdim);
    if (!s)
        return NULL;
    const rdx_tensor *v =
        rdx_tensor_div(g, s, count_of(g, "var", a, naxes, axes, s->dtype, correction));
    return v && !rdx_dtype_eq(v->dtype, a->dtype) ? rdx_tensor_cast(g, v, a->dtype) : v;
}

const rdx_tensor *rdx_tensor_std(rdx_graph *g, const rdx_tensor *a, uint32_t naxes, const int *axes,
                                 int keepdim, int correction)
{
    return rdx_tensor_sqrt(g, rdx_tensor_var(g, a, naxes, axes, keepdim, correction));
}

const rdx_tensor *rdx_tensor_argmax(rdx_graph *g, const rdx_tensor *a, int axis, int keepdim)
{
    if (!a || g->err)
        return NULL;
    int ax = t_axis(g, "argmax", a, axis);
    if (ax < 0)
        return NULL;
    int64_t n = rdx_tensor_dim(a, ax);
    if (n <= 0)
        return t_fail(g, RDX_ERR_INVALID, "argmax: axis %d must have a concrete size >= 1", axis);
    rdx_dtype i32 = rdx_dtype_of(RDX_INT32);
    const rdx_tensor *m = rdx_tensor_max(g, a, 1, &ax, 1);
    const rdx_tensor *mask = rdx_tensor_cast(g, rdx_tensor_cmpeq(g, a, m), i32);
    /* n - arange(n) along the axis: the first maximum has the largest weight */
    int64_t sh[TMAXD];
    for (uint32_t k = 0; k < a->ndim; k++)
        sh[k] = (int)k == ax ? n : 1;
    const rdx_tensor *w =
        rdx_tensor_reshape(g,
                           rdx_tensor_add(g, rdx_tensor_neg(g, rdx_tensor_arange(g, n)),
                                          rdx_tensor_const(g, i32, (double)n)),
                           a->ndim, sh);
    const rdx_tensor *best = rdx_tensor_max(g, rdx_tensor_mul(g, mask, w), 1, &ax, keepdim);
    return rdx_tensor_sub(g, rdx_tensor_const(g, i32, (double)n), best);
}

/* prefix_sum over the last axis (the spec's composition, with leading batch axes). */
static const rdx_tensor *prefix_sum_last(rdx_graph *g, const rdx_tensor *x)
{
    int64_t d[TMAXD + 1];
    if (!t_dims(g, "cumsum", x, d))
        return NULL;
    uint32_t nd = x->ndim, L = nd - 1;
    int64_t n = d[L];
    if (n == 0)
        return x;
    int64_t before[TMAXD] = { 0 }, after[TMAXD] = { 0 };
    before[L] = n - 1;
    x = rdx_tensor_pad(g, x, before, after, 0); /* (..., 2n-1) */
    int64_t s[TMAXD + 1];
    memcpy(s, d, sizeof(int64_t) * L);
    s[L] = 1, s[L + 1] = 2 * n - 1;
    x = rdx_tensor_reshape(g, x, nd + 1, s);
    s[L] = n + 1;
    x = rdx_tensor_expand(g, x, nd + 1, s); /* tile */
    s[L] = (n + 1) * (2 * n - 1);
    x = rdx_tensor_reshape(g, x, nd, s);
    int64_t st[TMAXD] = { 0 }, en[TMAXD];
    memcpy(en, s, sizeof(int64_t) * nd);
    en[L] = 2 * n * n;
    x = rdx_tensor_shrink(g, x, st, en); /* trim */
    s[L] = n, s[L + 1] = 2 * n;
    x = rdx_tensor_reshape(g, x, nd + 1, s);
    int64_t st2[TMAXD + 1] = { 0 }, en2[TMAXD + 1];
    memcpy(en2, s, sizeof(int64_t) * (nd + 1));
    en2[L + 1] = n;
    x = rdx_tensor_shrink(g, x, st2, en2); /* windows */
    int last = (int)nd;
    return rdx_tensor_sum(g, x, 1, &last, 0); /* reduce */
}

const rdx_tensor *rdx_tensor_cumsum(rdx_graph *g, const rdx_tensor *a, int axis)
{
    if (!a || g->err)
        return NULL;
    a = sum_input(g, a);
    int ax = t_axis(g, "cumsum", a, axis);
    if (ax < 0)
        return NULL;
    int last = (int)a->ndim - 1;
    if (ax == last)
        return prefix_sum_last(g, a);
    const rdx_tensor *t = rdx_tensor_transpose(g, a, ax, last);
    return rdx_tensor_transpose(g, prefix_sum_last(g, t), ax, last);
}
