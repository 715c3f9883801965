/*
 * ir/tensor/composite.c — composite ops built from the spec's compositions:
 * matmul (gemm), conv2d and pooling (strided windows + STACK + gemm-style
 * multiply-reduce), softmax/log_softmax, layernorm, cross-entropy, gather,
 * scatter_add, one_hot, embedding and the marker ops.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "ir/tensor/tensor_internal.h"

const rdx_tensor *rdx_tensor_matmul(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b)
{
    if (!a || !b || g->err)
        return NULL;
    char sa[128], sb[128];
    if (a->ndim == 0 || b->ndim == 0)
        return t_fail(g, RDX_ERR_INVALID, "matmul: scalar operand: %s @ %s",
                      t_shape_str(a, sa, sizeof sa), t_shape_str(b, sb, sizeof sb));
    int va = a->ndim == 1, vb = b->ndim == 1;
    const rdx_uop *one = rdx_ir_int(g->ir, 1);
    const rdx_uop *d[TMAXD + 2];
    if (va) {
        d[0] = one, d[1] = a->shape[0];
        a = t_reshape_u(g, a, 2, d);
    }
    if (vb) {
        d[0] = b->shape[0], d[1] = one;
        b = t_reshape_u(g, b, 2, d);
    }
    if (!a || !b)
        return NULL;
    if (a->shape[a->ndim - 1] != b->shape[b->ndim - 2])
        return t_fail(g, RDX_ERR_INVALID, "matmul: inner dimensions differ: %s @ %s",
                      t_shape_str(a, sa, sizeof sa), t_shape_str(b, sb, sizeof sb));
    if (a->ndim + 1 > TMAXD || b->ndim + 1 > TMAXD)
        return t_fail(g, RDX_ERR_INVALID, "matmul: rank too large");
    /* A[..., M, K, 1] * B[..., 1, K, N] summed over K (the spec's gemm) */
    uint32_t na = a->ndim, nb = b->ndim;
    memcpy(d, a->shape, na * sizeof *d);
    d[na] = one;
    const rdx_tensor *ar = t_reshape_u(g, a, na + 1, d);
    memcpy(d, b->shape, (nb - 2) * sizeof *d);
    d[nb - 2] = one, d[nb - 1] = b->shape[nb - 2], d[nb] = b->shape[nb - 1];
    const rdx_tensor *br = t_reshape_u(g, b, nb + 1, d);
    int k = -2;
    const rdx_tensor *c = rdx_tensor_sum(g, rdx_tensor_mul(g, ar, br), 1, &k, 0);
    if (!c)
        return NULL;
    if (va || vb) { /* drop the added unit axes */
        uint32_t m = 0;
        for (uint32_t j = 0; j < c->ndim; j++) {
            if ((va && j == c->ndim - 2) || (vb && j == c->ndim - 1))
                continue;
            d[m++] = c->shape[j];
        }
        c = t_reshape_u(g, c, m, d);
    }
    return c;
}

/* x[..., i*dil : +span : stride] along the last two axes: (..., Ho, Wo). */
static const rdx_tensor *window(rdx_graph *g, const rdx_tensor *x, int64_t i, int64_t j,
                                const int64_t *dil, const int64_t *str, int64_t ho, int64_t wo)
{
    int r = (int)x->ndim;
    const rdx_tensor *w =
        rdx_tensor_slice(g, x, r - 2, i * dil[0], i * dil[0] + (ho - 1) * str[0] + 1, str[0]);
    return rdx_tensor_slice(g, w, r - 1, j * dil[1], j * dil[1] + (wo - 1) * str[1] + 1, str[1]);
}

/* Stack the kh*kw strided windows of x (..., H, W) padded by p: (..., KK, Ho, Wo). */
static const rdx_tensor *unfold(rdx_graph *g, const char *op, const rdx_tensor *x, const int64_t *k,
                                const int64_t *s, const int64_t *p, const int64_t *dil,
                                double padval, int64_t *ho, int64_t *wo)
{
    int64_t dims[TMAXD];
    if (!t_dims(g, op, x, dims))
        return NULL;
    uint32_t r = x->ndim;
    if (r < 2)
        return t_fail(g, RDX_ERR_INVALID, "%s: input needs at least 2 axes", op);
    for (int q = 0; q < 2; q++)
        if (k[q] < 1 || s[q] < 1 || p[q] < 0 || dil[q] < 1)
            return t_fail(g, RDX_ERR_INVALID, "%s: bad kernel/stride/padding/dilation", op);
    int64_t hp = dims[r - 2] + 2 * p[0], wp = dims[r - 1] + 2 * p[1];
    *ho = (hp - dil[0] * (k[0] - 1) - 1) / s[0] + 1;
    *wo = (wp - dil[1] * (k[1] - 1) - 1) / s[1] + 1;
    if (hp - dil[0] * (k[0] - 1) - 1 < 0 || wp - dil[1] * (k[1] - 1) - 1 < 0) {
        char sx[128];
        return t_fail(g, RDX_ERR_INVALID,
                      "%s: kernel %" PRId64 "x%" PRId64
                      " does not fit input %s with padding %" PRId64 "x%" PRId64,
                      op, k[0], k[1], t_shape_str(x, sx, sizeof sx), p[0], p[1]);
    }
    if (k[0] * k[1] > 4096)
        return t_fail(g, RDX_ERR_INVALID, "%s: kernel too large", op);
    if (p[0] || p[1]) {
        int64_t b[TMAXD] = { 0 };
        b[r - 2] = p[0], b[r - 1] = p[1];
        x = rdx_tensor_pad(g, x, b, b, padval);
    }
    const rdx_tensor *ws[4096];
    size_t n = 0;
    for (int64_t i = 0; i < k[0]; i++)
        for (int64_t j = 0; j < k[1]; j++)
            ws[n++] = window(g, x, i, j, dil, s, *ho, *wo);
    return rdx_tensor_stack(g, ws, n, (int)r - 2);
}

const rdx_tensor *rdx_tensor_conv2d(rdx_graph *g, const rdx_tensor *x, const rdx_tensor *w,
                                    const rdx_tensor *bias, const rdx_conv_opts *opts)
{
    if (!x || !w || g->err)
        return NULL;
    rdx_conv_opts o = { { 1, 1 }, { 0, 0 }, { 1, 1 }, 1 };
    if (opts)
        o = *opts;
    char sx[128], sw[128];
    int64_t xd[TMAXD], wd[TMAXD];
    if (x->ndim != 4 || w->ndim != 4)
        return t_fail(g, RDX_ERR_INVALID,
                      "conv2d: needs x (N,C,H,W) and w (O,C/g,KH,KW), got %s and %s",
                      t_shape_str(x, sx, sizeof sx), t_shape_str(w, sw, sizeof sw));
    if (!t_dims(g, "conv2d", x, xd) || !t_dims(g, "conv2d", w, wd))
        return NULL;
    int64_t G = o.groups;
    if (G < 1 || xd[1] % G || wd[0] % G || wd[1] * G != xd[1])
        return t_fail(g, RDX_ERR_INVALID,
                      "conv2d: channels do not match: x %s, w %s, groups %" PRId64,
                      t_shape_str(x, sx, sizeof sx), t_shape_str(w, sw, sizeof sw), G);
    int64_t ho, wo, k[2] = { wd[2], wd[3] };
    const rdx_tensor *cols =
        unfold(g, "conv2d", x, k, o.stride, o.padding, o.dilation, 0, &ho, &wo);
    if (!cols)
        return NULL;
    int64_t N = xd[0], Cg = wd[1], O = wd[0], Og = O / G, KK = k[0] * k[1];
    int64_t cs[7] = { N, G, 1, Cg, KK, ho, wo };
    int64_t ws[7] = { 1, G, Og, Cg, KK, 1, 1 };
    const rdx_tensor *c = rdx_tensor_reshape(g, cols, 7, cs);
    const rdx_tensor *wr = rdx_tensor_reshape(g, w, 7, ws);
    int ax[2] = { 3, 4 };
    const rdx_tensor *out = rdx_tensor_sum(g, rdx_tensor_mul(g, c, wr), 2, ax, 0);
    int64_t os[4] = { N, O, ho, wo };
    out = rdx_tensor_reshape(g, out, 4, os);
    if (bias) {
        int64_t bs[4] = { 1, O, 1, 1 };
        if (bias->ndim != 1 || rdx_tensor_dim(bias, 0) != O)
            return t_fail(g, RDX_ERR_INVALID, "conv2d: bias %s does not match %" PRId64 " outputs",
                          t_shape_str(bias, sx, sizeof sx), O);
        out = rdx_tensor_add(g, out, rdx_tensor_reshape(g, bias, 4, bs));
    }
    return out;
}

static const rdx_tensor *pool(rdx_graph *g, const char *op, const rdx_tensor *x, const int64_t *k,
                              const int64_t *s, const int64_t *p, int is_max)
{
    if (!x || g->err)
        return NULL;
    int64_t ho, wo, dil[2] = { 1, 1 }, zero[2] = { 0, 0 };
    const int64_t *st = s ? s : k, *pd = p ? p : zero;
    double padval = is_max ? (rdx_dtype_is_float(x->dtype) ? -INFINITY : -1e18) : 0;
    if (is_max && !rdx_dtype_is_float(x->dtype) && (pd[0] || pd[1]))
        return t_fail(g, RDX_ERR_UNSUPPORTED, "%s: padding needs a float tensor", op);
    const rdx_tensor *cols = unfold(g, op, x, k, st, pd, dil, padval, &ho, &wo);
    if (!cols)
        return NULL;
    int ax = (int)x->ndim - 2;
    if (is_max)
        return rdx_tensor_max(g, cols, 1, &ax, 0);
    return rdx_tensor_mean(g, cols, 1, &ax, 0);
}

const rdx_tensor *rdx_tensor_max_pool2d(rdx_graph *g, const rdx_tensor *x, const int64_t k[2],
                                        const int64_t s[2], const int64_t p[2])
{
    return pool(g, "max_pool2d", x, k, s, p, 1);
}

const rdx_tensor *rdx_tensor_avg_pool2d(rdx_graph *g, const rdx_tensor *x, const int64_t k[2],
                                        const int64_t s[2], const int64_t p[2])
{
    return pool(g, "avg_pool2d", x, k, s, p, 0);
}

const rdx_tensor *rdx_tensor_softmax(rdx_graph *g, const rdx_tensor *a, int axis)
{
    if (!a || g->err)
        return NULL;
    int ax = t_axis(g, "softmax", a, axis);
    if (ax < 0)
        return NULL;
    const rdx_tensor *m = rdx_tensor_detach(g, rdx_tensor_max(g, a, 1, &ax, 1));
    const rdx_tensor *e = rdx_tensor_exp(g, rdx_tensor_sub(g, a, m));
    return rdx_tensor_div(g, e, rdx_tensor_sum(g, e, 1, &ax, 1));
}

const rdx_tensor *rdx_tensor_log_softmax(rdx_graph *g, const rdx_tensor *a, int axis)
{
    if (!a || g->err)
        return NULL;
    int ax = t_axis(g, "log_softmax", a, axis);
    if (ax < 0)
        return NULL;
    const rdx_tensor *m = rdx_tensor_detach(g, rdx_tensor_max(g, a, 1, &ax, 1));
    const rdx_tensor *sh = rdx_tensor_sub(g, a, m);
    const rdx_tensor *lse = rdx_tensor_log(g, rdx_tensor_sum(g, rdx_tensor_exp(g, sh), 1, &ax, 1));
    return rdx_tensor_sub(g, sh, lse);
}

const rdx_tensor *rdx_tensor_layernorm(rdx_graph *g, const rdx_tensor *x, uint32_t naxes,
                                       const rdx_tensor *weight, const rdx_tensor *bias, double eps)
{
    if (!x || g->err)
        return NULL;
    if (naxes == 0 || naxes > x->ndim)
        return t_fail(g, RDX_ERR_INVALID, "layernorm: %u axes for rank %u", naxes, x->ndim);
    int ax[TMAXD];
    for (uint32_t k = 0; k < naxes; k++)
        ax[k] = (int)(x->ndim - naxes + k);
    const rdx_tensor *m = rdx_tensor_mean(g, x, naxes, ax, 1);
    const rdx_tensor *v = rdx_tensor_var(g, x, naxes, ax, 1, 0);
    const rdx_tensor *y =
        rdx_tensor_mul(g, rdx_tensor_sub(g, x, m), rdx_tensor_rsqrt(g, rdx_tensor_adds(g, v, eps)));
    if (weight)
        y = rdx_tensor_mul(g, y, weight);
    if (bias)
        y = rdx_tensor_add(g, y, bias);
    return y;
}

const rdx_tensor *rdx_tensor_one_hot(rdx_graph *g, const rdx_tensor *idx, int64_t classes,
                                     rdx_dtype dt)
{
    if (!idx || g->err)
        return NULL;
    if (!rdx_dtype_is_int(idx->dtype) || idx->dtype.scalar == RDX_BOOL)
        return t_fail(g, RDX_ERR_INVALID, "one_hot: indices must be integers");
    if (classes < 1 || idx->ndim + 1 > TMAXD)
        return t_fail(g, RDX_ERR_INVALID, "one_hot: bad class count %" PRId64, classes);
    const rdx_uop *d[TMAXD];
    memcpy(d, idx->shape, idx->ndim * sizeof *d);
    d[idx->ndim] = rdx_ir_int(g->ir, 1);
    const rdx_tensor *col = t_reshape_u(g, idx, idx->ndim + 1, d);
    return rdx_tensor_cast(g, rdx_tensor_cmpeq(g, col, rdx_tensor_arange(g, classes)), dt);
}

const rdx_tensor *rdx_tensor_cross_entropy(rdx_graph *g, const rdx_tensor *logits,
                                           const rdx_tensor *target)
{
    if (!logits || !target || g->err)
        return NULL;
    char sl[128], st[128];
    int64_t n = rdx_tensor_dim(logits, 0), c = rdx_tensor_dim(logits, 1);
    if (logits->ndim != 2 || target->ndim != 1 || n < 0 || c < 1 || rdx_tensor_dim(target, 0) != n)
        return t_fail(g, RDX_ERR_INVALID,
                      "cross_entropy: needs logits (N,C) and target (N,), got %s and %s",
                      t_shape_str(logits, sl, sizeof sl), t_shape_str(target, st, sizeof st));
    const rdx_tensor *ls = rdx_tensor_log_softmax(g, logits, 1);
    const rdx_tensor *oh = rdx_tensor_one_hot(g, target, c, ls ? ls->dtype : t_f32());
    int one = 1;
    return rdx_tensor_neg(
        g,
        rdx_tensor_mean(g, rdx_tensor_sum(g, rdx_tensor_mul(g, ls, oh), 1, &one, 0), 0, NULL, 0));
}

const rdx_tensor *rdx_tensor_gather(rdx_graph *g, const rdx_tensor *t, const rdx_tensor *idx)
{
    if (!t || !idx || g->err)
        return NULL;
    char s1[128], s2[128];
    int64_t K = rdx_tensor_dim(t, 0), D = rdx_tensor_dim(idx, 0);
    if (t->ndim != 1 || idx->ndim != 1 || K < 1 || D < 0 || !rdx_dtype_is_int(idx->dtype))
        return t_fail(g, RDX_ERR_INVALID,
                      "gather: needs t (K,) and integer idx (D,), got %s and %s",
                      t_shape_str(t, s1, sizeof s1), t_shape_str(idx, s2, sizeof s2));
    int64_t k1[2] = { K, 1 }, d1[2] = { 1, D };
    const rdx_tensor *pos = rdx_tensor_reshape(g, rdx_tensor_arange(g, K), 2, k1);
    const rdx_tensor *mask =
        rdx_tensor_cast(g, rdx_tensor_cmpeq(g, pos, rdx_tensor_reshape(g, idx, 2, d1)), t->dtype);
    int zero = 0;
    return rdx_tensor_sum(g, rdx_tensor_mul(g, rdx_tensor_reshape(g, t, 2, k1), mask), 1, &zero, 0);
}

const rdx_tensor *rdx_tensor_scatter_add(rdx_graph *g, const rdx_tensor *t, const rdx_tensor *idx,
                                         const rdx_tensor *val)
{
    if (!t || !idx || !val || g->err)
        return NULL;
    char s1[128], s2[128], s3[128];
    int64_t K = rdx_tensor_dim(t, 0), D = rdx_tensor_dim(idx, 0);
    if (t->ndim != 1 || idx->ndim != 1 || val->ndim != 1 || K < 1 || D < 0 ||
        rdx_tensor_dim(val, 0) != D || !rdx_dtype_is_int(idx->dtype))
        return t_fail(g, RDX_ERR_INVALID,
                      "scatter_add: needs t (K,), integer idx (D,), val (D,), got %s, %s, %s",
                      t_shape_str(t, s1, sizeof s1), t_shape_str(idx, s2, sizeof s2),
                      t_shape_str(val, s3, sizeof s3));
    int64_t k1[2] = { K, 1 }, d1[2] = { 1, D };
    const rdx_tensor *pos = rdx_tensor_reshape(g, rdx_tensor_arange(g, K), 2, k1);
    const rdx_tensor *mask =
        rdx_tensor_cast(g, rdx_tensor_cmpeq(g, pos, rdx_tensor_reshape(g, idx, 2, d1)), t->dtype);
    int one = 1;
    return rdx_tensor_add(
        g, t,
        rdx_tensor_sum(g, rdx_tensor_mul(g, mask, rdx_tensor_reshape(g, val, 2, d1)), 1, &one, 0));
}

const rdx_tensor *rdx_tensor_embedding(rdx_graph *g, const rdx_tensor *weight,
                                       const rdx_tensor *idx)
{
    if (!weight || !idx || g->err)
        return NULL;
    char s1[128];
    int64_t V = rdx_tensor_dim(weight, 0);
    if (weight->ndim != 2 || V < 1)
        return t_fail(g, RDX_ERR_INVALID, "embedding: weight must be (V, E), got %s",
                      t_shape_str(weight, s1, sizeof s1));
    return rdx_tensor_matmul(g, rdx_tensor_one_hot(g, idx, V, weight->dtype), weight);
}

static const rdx_tensor *marker(rdx_graph *g, rdx_op op, const rdx_tensor *a)
{
    if (!a || g->err)
        return NULL;
    return t_chk(g, rdx_op_name(op), rdx_ir_node(g->ir, op, &a, 1, NULL));
}

const rdx_tensor *rdx_tensor_detach(rdx_graph *g, const rdx_tensor *a)
{
    return marker(g, RDX_OP_DETACH, a);
}

const rdx_tensor *rdx_tensor_contiguous(rdx_graph *g, const rdx_tensor *a)
{
    return marker(g, RDX_OP_CONTIGUOUS, a);
}

const rdx_tensor *rdx_tensor_contiguous_backward(rdx_graph *g, const rdx_tensor *a)
{
    return marker(g, RDX_OP_CONTIGUOUSBACKWARD, a);
}
