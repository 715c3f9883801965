/*
 * ir/tensor/create.c — creation: BUFFERs (empty, from host data, on a
 * device tuple, symbolic), CONST/full, arange (the spec's composition), eye,
 * and THREEFRY-based random tensors.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "ir/tensor/tensor_internal.h"

static const rdx_tensor *make_buffer(rdx_graph *g, rdx_dtype dt, const rdx_uop_device *dev,
                                     const rdx_uop *shape)
{
    if (!shape)
        return t_irfail(g, "empty");
    rdx_uop_arg a = rdx_uop_arg_none();
    a.i = t_slot(g);
    a.dtype = rdx_dtype_scalar(dt);
    a.device = dev;
    a.addrspace = RDX_ADDR_GLOBAL;
    return t_chk(g, "BUFFER", rdx_ir_node(g->ir, RDX_OP_BUFFER, &shape, 1, &a));
}

static int check_dims(rdx_graph *g, const char *op, uint32_t ndim, const int64_t *dims)
{
    if (ndim > TMAXD) {
        t_fail(g, RDX_ERR_INVALID, "%s: rank %u exceeds %d", op, ndim, TMAXD);
        return 0;
    }
    for (uint32_t k = 0; k < ndim; k++)
        if (dims[k] < 0) {
            t_fail(g, RDX_ERR_INVALID, "%s: dimension %u is negative (%" PRId64 ")", op, k,
                   dims[k]);
            return 0;
        }
    return 1;
}

const rdx_tensor *rdx_tensor_empty(rdx_graph *g, rdx_dtype dt, uint32_t ndim, const int64_t *dims)
{
    if (g->err || !check_dims(g, "empty", ndim, dims))
        return NULL;
    if (dt.scalar == RDX_VOID)
        return t_fail(g, RDX_ERR_INVALID, "empty: void dtype");
    return make_buffer(g, dt, g->dev, rdx_ir_shape(g->ir, dims, ndim));
}

const rdx_tensor *rdx_tensor_empty_sym(rdx_graph *g, rdx_dtype dt, uint32_t ndim,
                                       const rdx_uop *const *dims)
{
    if (g->err)
        return NULL;
    for (uint32_t k = 0; k < ndim; k++)
        if (!dims[k])
            return t_fail(g, RDX_ERR_INVALID, "empty_sym: dimension %u is NULL", k);
    return make_buffer(g, dt, g->dev, rdx_ir_shape_u(g->ir, dims, ndim));
}

const rdx_tensor *rdx_tensor_from_data_on(rdx_graph *g, rdx_dtype dt, uint32_t ndim,
                                          const int64_t *dims, const void *data,
                                          const char *const *devices, size_t ndev)
{
    if (g->err || !check_dims(g, "from_data", ndim, dims))
        return NULL;
    if (dt.scalar == RDX_VOID)
        return t_fail(g, RDX_ERR_INVALID, "from_data: void dtype");
    const rdx_uop_device *dev = g->dev;
    if (devices) {
        if (!ndev)
            return t_fail(g, RDX_ERR_INVALID, "from_data: empty device tuple");
        dev = rdx_ir_device(g->ir, devices, ndev);
        if (!dev)
            return t_irfail(g, "from_data");
        if (ndev > 1 && (ndim == 0 || dims[0] % (int64_t)ndev))
            return t_fail(g, RDX_ERR_INVALID,
                          "from_data: axis 0 (size %" PRId64 ") does not split over %zu devices",
                          ndim ? dims[0] : 0, ndev);
    }
    const rdx_tensor *t = make_buffer(g, dt, dev, rdx_ir_shape(g->ir, dims, ndim));
    if (!t)
        return NULL;
    int64_t n = 1;
    for (uint32_t k = 0; k < ndim; k++)
        n *= dims[k];
    size_t nb = (size_t)n * rdx_dtype_itemsize(rdx_dtype_scalar(dt));
    if (nb && !data)
        return t_fail(g, RDX_ERR_INVALID, "from_data: data is NULL");
    if (t_status(g, rdx_interp_bind(g->ip, t, data, nb)))
        return NULL;
    return t;
}

const rdx_tensor *rdx_tensor_from_data(rdx_graph *g, rdx_dtype dt, uint32_t ndim,
                                       const int64_t *dims, const void *data)
{
    return rdx_tensor_from_data_on(g, dt, ndim, dims, data, NULL, 0);
}

const rdx_tensor *rdx_tensor_const(rdx_graph *g, rdx_dtype dt, double v)
{
    if (g->err)
        return NULL;
    if (dt.scalar == RDX_VOID)
        return t_fail(g, RDX_ERR_INVALID, "const: void dtype");
    return t_chk(g, "const", rdx_ir_const_like(g->ir, rdx_dtype_scalar(dt), v));
}

const rdx_tensor *rdx_tensor_full(rdx_graph *g, rdx_dtype dt, uint32_t ndim, const int64_t *dims,
                                  double v)
{
    if (g->err || !check_dims(g, "full", ndim, dims))
        return NULL;
    const rdx_tensor *c = rdx_tensor_const(g, dt, v);
    if (!ndim)
        return c;
    int64_t ones[TMAXD];
    for (uint32_t k = 0; k < ndim; k++)
        ones[k] = 1;
    return rdx_tensor_expand(g, rdx_tensor_reshape(g, c, ndim, ones), ndim, dims);
}

const rdx_tensor *rdx_tensor_zeros(rdx_graph *g, rdx_dtype dt, uint32_t ndim, const int64_t *dims)
{
    return rdx_tensor_full(g, dt, ndim, dims, 0);
}

const rdx_tensor *rdx_tensor_ones(rdx_graph *g, rdx_dtype dt, uint32_t ndim, const int64_t *dims)
{
    return rdx_tensor_full(g, dt, ndim, dims, 1);
}

const rdx_tensor *rdx_tensor_full_like(rdx_graph *g, const rdx_tensor *t, double v)
{
    if (!t || g->err)
        return NULL;
    const rdx_tensor *c = rdx_tensor_const(g, t->dtype, v);
    if (!t->ndim)
        return c;
    return t_broadcast_to(g, c, t->ndim, t->shape);
}

const rdx_tensor *rdx_tensor_arange(rdx_graph *g, int64_t n)
{
    if (g->err)
        return NULL;
    if (n < 0)
        return t_fail(g, RDX_ERR_INVALID, "arange: negative length %" PRId64, n);
    rdx_dtype i32 = rdx_dtype_of(RDX_INT32);
    if (n == 0)
        return rdx_tensor_empty(g, i32, 1, &n);
    /* prefix_sum(Tensor(1).reshape(1).expand(n)) - 1 */
    int64_t one = 1;
    const rdx_tensor *ones =
        rdx_tensor_expand(g, rdx_tensor_reshape(g, rdx_tensor_const(g, i32, 1), 1, &one), 1, &n);
    return rdx_tensor_adds(g, rdx_tensor_cumsum(g, ones, 0), -1);
}

const rdx_tensor *rdx_tensor_arange_range(rdx_graph *g, double start, double stop, double step,
                                          rdx_dtype dt)
{
    if (g->err)
        return NULL;
    if (step == 0 || !isfinite(start) || !isfinite(stop) || !isfinite(step))
        return t_fail(g, RDX_ERR_INVALID, "arange: bad range start=%g stop=%g step=%g", start, stop,
                      step);
    double cnt = ceil((stop - start) / step);
    int64_t n = cnt > 0 ? (int64_t)cnt : 0;
    const rdx_tensor *a = rdx_tensor_cast(g, rdx_tensor_arange(g, n), dt);
    return rdx_tensor_adds(g, rdx_tensor_muls(g, a, step), start);
}

const rdx_tensor *rdx_tensor_eye(rdx_graph *g, int64_t n, rdx_dtype dt)
{
    const rdx_tensor *a = rdx_tensor_arange(g, n);
    int64_t r[2] = { n, 1 }, c[2] = { 1, n };
    return rdx_tensor_cast(
        g, rdx_tensor_cmpeq(g, rdx_tensor_reshape(g, a, 2, r), rdx_tensor_reshape(g, a, 2, c)), dt);
}

const rdx_uop *rdx_graph_var(rdx_graph *g, const char *name, int64_t lo, int64_t hi)
{
    if (g->err)
        return NULL;
    if (!name || lo > hi || lo < 0)
        return t_fail(g, RDX_ERR_INVALID, "var: bad variable '%s' in [%" PRId64 ", %" PRId64 "]",
                      name ? name : "(null)", lo, hi);
    return t_chk(g, "var", rdx_ir_var(g->ir, name, lo, hi));
}

/* ------------------------------------------------------------- random */

/* Element index of every position of shape dims as uint64: sum_k arange(d_k) * stride_k
 * (per-axis aranges keep the spec's O(d^2) arange composition small). */
static const rdx_tensor *counters(rdx_graph *g, uint32_t ndim, const int64_t *dims)
{
    rdx_dtype u64 = rdx_dtype_of(RDX_UINT64);
    const rdx_tensor *acc = NULL;
    int64_t stride = 1;
    for (uint32_t k = ndim; k-- > 0;) {
        int64_t sh[TMAXD];
        for (uint32_t j = 0; j < ndim; j++)
            sh[j] = j == k ? dims[k] : 1;
        const rdx_tensor *a = rdx_tensor_cast(g, rdx_tensor_arange(g, dims[k]), u64);
        a = rdx_tensor_muls(g, rdx_tensor_reshape(g, a, ndim, sh), (double)stride);
        acc = acc ? rdx_tensor_add(g, acc, a) : a;
        stride *= dims[k];
    }
    if (!acc)
        return rdx_tensor_const(g, u64, 0);
    return rdx_tensor_expand(g, acc, ndim, dims);
}

static const rdx_tensor *rand_f32(rdx_graph *g, uint32_t ndim, const int64_t *dims, uint64_t seed)
{
    rdx_dtype u64 = rdx_dtype_of(RDX_UINT64), u32 = rdx_dtype_of(RDX_UINT32);
    const rdx_tensor *ctr = counters(g, ndim, dims);
    if (!ctr)
        return NULL;
    const rdx_uop *key = rdx_ir_const_int(g->ir, u64, (int64_t)seed);
    const rdx_tensor *bits = t_chk(g, "rand", rdx_ir_threefry(g->ir, ctr, key));
    /* low 32 bits -> 23-bit mantissa of a float in [1, 2) -> minus 1 */
    const rdx_tensor *lo = rdx_tensor_cast(g, bits, u32);
    const rdx_tensor *m = rdx_tensor_shr(g, lo, rdx_tensor_const(g, u32, 9));
    m = rdx_tensor_or(g, m, rdx_tensor_const(g, u32, 0x3f800000));
    return rdx_tensor_adds(g, rdx_tensor_bitcast(g, m, t_f32()), -1.0);
}

const rdx_tensor *rdx_tensor_rand(rdx_graph *g, rdx_dtype dt, uint32_t ndim, const int64_t *dims,
                                  uint64_t seed)
{
    if (g->err || !check_dims(g, "rand", ndim, dims))
        return NULL;
    if (!rdx_dtype_is_float(dt))
        return t_fail(g, RDX_ERR_INVALID, "rand: dtype must be a float");
    return rdx_tensor_cast(g, rand_f32(g, ndim, dims, seed), dt);
}

const rdx_tensor *rdx_tensor_randn(rdx_graph *g, rdx_dtype dt, uint32_t ndim, const int64_t *dims,
                                   uint64_t seed)
{
    if (g->err || !check_dims(g, "randn", ndim, dims))
        return NULL;
    if (!rdx_dtype_is_float(dt))
        return t_fail(g, RDX_ERR_INVALID, "randn: dtype must be a float");
    int64_t d2[TMAXD + 1];
    d2[0] = 2;
    memcpy(d2 + 1, dims, ndim * sizeof *dims);
    const rdx_tensor *r = rand_f32(g, ndim + 1, d2, seed);
    const rdx_tensor *parts[2];
    int64_t sz[2] = { 1, 1 };
    if (t_status(g, rdx_tensor_split(g, r, 0, sz, 2, parts)))
        return NULL;
    const rdx_tensor *u1 = rdx_tensor_reshape(g, parts[0], ndim, dims);
    const rdx_tensor *u2 = rdx_tensor_reshape(g, parts[1], ndim, dims);
    u1 = rdx_tensor_adds(g, rdx_tensor_neg(g, u1), 1.0); /* (0, 1] */
    const rdx_tensor *rad = rdx_tensor_sqrt(g, rdx_tensor_muls(g, rdx_tensor_log(g, u1), -2.0));
    const rdx_tensor *ang = rdx_tensor_cos(g, rdx_tensor_muls(g, u2, 2 * M_PI));
    return rdx_tensor_cast(g, rdx_tensor_mul(g, rad, ang), dt);
}

const rdx_tensor *rdx_tensor_randint(rdx_graph *g, int64_t lo, int64_t hi, uint32_t ndim,
                                     const int64_t *dims, uint64_t seed)
{
    if (g->err || !check_dims(g, "randint", ndim, dims))
        return NULL;
    if (hi <= lo || hi - lo > (int64_t)1 << 24)
        return t_fail(g, RDX_ERR_INVALID,
                      "randint: need lo < hi with hi - lo <= 2^24, got [%" PRId64 ", %" PRId64 ")",
                      lo, hi);
    const rdx_tensor *r = rand_f32(g, ndim, dims, seed);
    r = rdx_tensor_trunc(g, rdx_tensor_muls(g, r, (double)(hi - lo)));
    return rdx_tensor_adds(g, rdx_tensor_cast(g, r, rdx_dtype_of(RDX_INT32)), (double)lo);
}
