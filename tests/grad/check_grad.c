/* tests/grad/check_grad.c — every differentiable op's gradient (rdx_gradient) against central
 * finite differences in float64, computed by re-running the interpreter on perturbed inputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/tensor.h>

#include "tests/harness/harness.h"

#define MAXP 3
/* forward: used by the CALL case */
static const rdx_tensor *f_function(rdx_graph *g, const rdx_tensor *const *p);

typedef struct gcase {
    const char *name;
    int np;
    uint32_t nd[MAXP];
    int64_t dims[MAXP][4];
    /* builds the function of the parameters */
    const rdx_tensor *(*f)(rdx_graph *g, const rdx_tensor *const *p);
    double lo, hi; /* parameter values drawn from [lo, hi) */
    double tol;    /* relative tolerance */
} gcase;

static uint64_t rs = 12345;
static double uni(double lo, double hi)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return lo + (hi - lo) * (double)(z >> 11) * 0x1p-53;
}

static rdx_dtype F64(void)
{
    return rdx_dtype_of(RDX_FLOAT64);
}

static const rdx_tensor *cst(rdx_graph *g, double v)
{
    return rdx_tensor_const(g, F64(), v);
}

/* ---- the functions under test */
#define U(NAME, EXPR)                                                       \
    static const rdx_tensor *NAME(rdx_graph *g, const rdx_tensor *const *p) \
    {                                                                       \
        return EXPR;                                                        \
    }

U(f_neg, rdx_tensor_neg(g, p[0]))
U(f_recip, rdx_tensor_recip(g, p[0]))
U(f_exp, rdx_tensor_exp(g, p[0]))
U(f_exp2, rdx_tensor_exp2(g, p[0]))
U(f_log, rdx_tensor_log(g, p[0]))
U(f_log2, rdx_tensor_log2(g, p[0]))
U(f_sin, rdx_tensor_sin(g, p[0]))
U(f_cos, rdx_tensor_cos(g, p[0]))
U(f_sqrt, rdx_tensor_sqrt(g, p[0]))
U(f_rsqrt, rdx_tensor_rsqrt(g, p[0]))
U(f_sigmoid, rdx_tensor_sigmoid(g, p[0]))
U(f_tanh, rdx_tensor_tanh(g, p[0]))
U(f_gelu, rdx_tensor_gelu(g, p[0]))
U(f_relu, rdx_tensor_relu(g, p[0]))
U(f_abs, rdx_tensor_abs(g, p[0]))
U(f_clamp, rdx_tensor_clamp(g, p[0], -0.5, 0.5))
U(f_pow, rdx_tensor_pow(g, p[0], p[1]))
U(f_cast,
  rdx_tensor_muls(g, rdx_tensor_cast(g, rdx_tensor_cast(g, p[0], rdx_dtype_of(RDX_FLOAT32)), F64()),
                  3))
U(f_add, rdx_tensor_add(g, p[0], p[1]))
U(f_sub, rdx_tensor_sub(g, p[0], p[1]))
U(f_mul, rdx_tensor_mul(g, p[0], p[1]))
U(f_div, rdx_tensor_div(g, p[0], p[1]))
U(f_max, rdx_tensor_maximum(g, p[0], p[1]))
U(f_min, rdx_tensor_minimum(g, p[0], p[1]))
U(f_where,
  rdx_tensor_where(g, rdx_tensor_cmplt(g, p[0], cst(g, 0)), rdx_tensor_mul(g, p[0], p[1]), p[1]))
U(f_reshape, rdx_tensor_mul(g, rdx_tensor_reshape(g, p[0], 2, (int64_t[]){ 3, 4 }), p[1]))
U(f_permute, rdx_tensor_mul(g, rdx_tensor_permute(g, p[0], (int[]){ 2, 0, 1 }), p[1]))
U(f_expand, rdx_tensor_mul(g, rdx_tensor_expand(g, p[0], 2, (int64_t[]){ 3, 4 }), p[1]))
U(f_pad, rdx_tensor_pad(g, p[0], (int64_t[]){ 1, 0 }, (int64_t[]){ 2, 1 }, 0.5))
U(f_shrink, rdx_tensor_shrink(g, p[0], (int64_t[]){ 1, 1 }, (int64_t[]){ 3, 3 }))
U(f_flip, rdx_tensor_mul(g, rdx_tensor_flip(g, p[0], 1, (int[]){ 1 }), p[1]))
U(f_slice, rdx_tensor_slice(g, p[0], 1, 1, 6, 2))
U(f_stack, rdx_tensor_stack(g, (const rdx_tensor *[]){ p[0], rdx_tensor_mul(g, p[0], p[1]) }, 2, 1))
U(f_cat, rdx_tensor_cat(g, (const rdx_tensor *[]){ p[0], p[1] }, 2, 0))
U(f_index, rdx_tensor_index(g, p[0], 2,
                            (const rdx_tensor *[]){ rdx_tensor_const(g, rdx_dtype_of(RDX_INT32), 1),
                                                    rdx_tensor_from_data(g, rdx_dtype_of(RDX_INT32),
                                                                         1, (int64_t[]){ 3 },
                                                                         (int32_t[]){ 2, 0, 2 }) }))
U(f_sum, rdx_tensor_sum(g, rdx_tensor_mul(g, p[0], p[0]), 1, (int[]){ 1 }, 0))
U(f_rmax, rdx_tensor_max(g, p[0], 1, (int[]){ 0 }, 1))
U(f_rmin, rdx_tensor_min(g, p[0], 1, (int[]){ 1 }, 0))
U(f_prod, rdx_tensor_prod(g, p[0], 1, (int[]){ 1 }, 0))
U(f_mean, rdx_tensor_mean(g, p[0], 1, (int[]){ 0 }, 0))
U(f_var, rdx_tensor_var(g, p[0], 1, (int[]){ 1 }, 0, 1))
U(f_std, rdx_tensor_std(g, p[0], 0, NULL, 0, 0))
U(f_cumsum, rdx_tensor_mul(g, rdx_tensor_cumsum(g, p[0], 1), p[0]))
U(f_softmax, rdx_tensor_softmax(g, p[0], 1))
U(f_logsoftmax, rdx_tensor_log_softmax(g, p[0], 0))
U(f_layernorm, rdx_tensor_layernorm(g, p[0], 1, p[1], NULL, 1e-5))
U(f_matmul, rdx_tensor_matmul(g, p[0], p[1]))
U(f_bmm, rdx_tensor_matmul(g, p[0], p[1]))
U(f_gather, rdx_tensor_gather(g, p[0],
                              rdx_tensor_from_data(g, rdx_dtype_of(RDX_INT32), 1, (int64_t[]){ 4 },
                                                   (int32_t[]){ 3, 0, 3, 1 })))
U(f_scatter, rdx_tensor_scatter_add(g, p[0],
                                    rdx_tensor_from_data(g, rdx_dtype_of(RDX_INT32), 1,
                                                         (int64_t[]){ 3 }, (int32_t[]){ 1, 1, 4 }),
                                    p[1]))
U(f_embedding, rdx_tensor_embedding(g, p[0],
                                    rdx_tensor_from_data(g, rdx_dtype_of(RDX_INT32), 1,
                                                         (int64_t[]){ 3 }, (int32_t[]){ 2, 0, 2 })))
U(f_xent, rdx_tensor_cross_entropy(g, p[0],
                                   rdx_tensor_from_data(g, rdx_dtype_of(RDX_INT32), 1,
                                                        (int64_t[]){ 3 }, (int32_t[]){ 1, 0, 3 })))
U(f_cbackward, rdx_tensor_mul(g, rdx_tensor_contiguous_backward(g, rdx_tensor_exp(g, p[0])), p[0]))

static const char *const DEV2[2] = { "GPU:0", "GPU:1" };
U(f_allreduce,
  rdx_tensor_allreduce(g, rdx_tensor_scatter(g, rdx_tensor_mul(g, p[0], p[0]), DEV2, 2)))
U(f_reduce_dev, rdx_tensor_reduce_dev(g, rdx_tensor_scatter(g, rdx_tensor_sin(g, p[0]), DEV2, 2)))
U(f_broadcast,
  rdx_tensor_mul(g, rdx_tensor_broadcast(g, p[0], DEV2, 2), rdx_tensor_broadcast(g, p[0], DEV2, 2)))

static const rdx_tensor *f_conv(rdx_graph *g, const rdx_tensor *const *p)
{
    rdx_conv_opts o = { { 2, 1 }, { 1, 1 }, { 1, 2 }, 2 };
    return rdx_tensor_conv2d(g, p[0], p[1], p[2], &o);
}

/* 81 windows: a STACK with more sources than any fixed-size buffer */
static const rdx_tensor *f_conv9(rdx_graph *g, const rdx_tensor *const *p)
{
    return rdx_tensor_conv2d(g, p[0], p[1], NULL, NULL);
}

static const rdx_tensor *f_pool(rdx_graph *g, const rdx_tensor *const *p)
{
    int64_t k[2] = { 2, 2 }, s[2] = { 1, 2 };
    return rdx_tensor_add(g, rdx_tensor_max_pool2d(g, p[0], k, s, NULL),
                          rdx_tensor_avg_pool2d(g, p[0], k, s, NULL));
}

static rdx_status fbody(rdx_graph *g, const rdx_tensor *const *in, size_t nin,
                        const rdx_tensor **outs, size_t *nout, void *user)
{
    (void)nin;
    outs[0] = rdx_tensor_mul(g, rdx_tensor_sin(g, in[0]), (const rdx_tensor *)user);
    *nout = 1;
    return RDX_OK;
}

static const rdx_tensor *f_function(rdx_graph *g, const rdx_tensor *const *p)
{
    const rdx_tensor *o[RDX_FUNCTION_MAX_OUT];
    size_t n;
    if (rdx_function_apply(g, fbody, (void *)p[1], p, 1, o, &n))
        return NULL;
    return rdx_tensor_mul(g, o[0], p[0]);
}

/* The same function invoked through CALL (opaque invocation) instead of FUNCTION. */
static const rdx_tensor *f_call(rdx_graph *g, const rdx_tensor *const *p)
{
    const rdx_tensor *r = f_function(g, p);
    if (!r)
        return NULL;
    const rdx_uop *gt = r->src[0]; /* MUL(GETTUPLE(FUNCTION ...), p0) */
    if (gt->op != RDX_OP_GETTUPLE)
        gt = r->src[1];
    const rdx_uop *fn = gt->src[0];
    const rdx_uop *call = rdx_ir_node(rdx_graph_ir(g), RDX_OP_CALL, fn->src, fn->nsrc, NULL);
    rdx_uop_arg a = rdx_uop_arg_none();
    const rdx_uop *res = rdx_ir_node(rdx_graph_ir(g), RDX_OP_GETTUPLE, &call, 1, &a);
    return rdx_tensor_mul(g, res, p[0]);
}

static const gcase cases[] = {
    { "neg", 1, { 1 }, { { 5 } }, f_neg, -2, 2, 1e-6 },
    { "recip", 1, { 1 }, { { 5 } }, f_recip, 0.5, 2, 1e-6 },
    { "exp", 1, { 1 }, { { 5 } }, f_exp, -2, 2, 1e-6 },
    { "exp2", 1, { 1 }, { { 5 } }, f_exp2, -2, 2, 1e-6 },
    { "log", 1, { 1 }, { { 5 } }, f_log, 0.2, 3, 1e-6 },
    { "log2", 1, { 1 }, { { 5 } }, f_log2, 0.2, 3, 1e-6 },
    { "sin", 1, { 1 }, { { 5 } }, f_sin, -4, 4, 1e-6 },
    { "cos", 1, { 1 }, { { 5 } }, f_cos, -4, 4, 1e-6 },
    { "sqrt", 1, { 1 }, { { 5 } }, f_sqrt, 0.3, 3, 1e-6 },
    { "rsqrt", 1, { 1 }, { { 5 } }, f_rsqrt, 0.3, 3, 1e-6 },
    { "sigmoid", 1, { 1 }, { { 5 } }, f_sigmoid, -3, 3, 1e-6 },
    { "tanh", 1, { 1 }, { { 5 } }, f_tanh, -2, 2, 1e-6 },
    { "gelu", 1, { 1 }, { { 5 } }, f_gelu, -2, 2, 1e-6 },
    { "relu", 1, { 1 }, { { 6 } }, f_relu, -2, 2, 1e-6 },
    { "abs", 1, { 1 }, { { 6 } }, f_abs, -2, 2, 1e-6 },
    { "clamp", 1, { 1 }, { { 6 } }, f_clamp, -1, 1, 1e-6 },
    { "pow", 2, { 1, 1 }, { { 4 }, { 4 } }, f_pow, 0.5, 2, 1e-6 },
    { "cast", 1, { 1 }, { { 4 } }, f_cast, -2, 2, 1e-3 },
    { "add_broadcast", 2, { 2, 2 }, { { 3, 1 }, { 1, 4 } }, f_add, -2, 2, 1e-6 },
    { "sub_broadcast", 2, { 2, 1 }, { { 3, 4 }, { 4 } }, f_sub, -2, 2, 1e-6 },
    { "mul_broadcast", 2, { 2, 2 }, { { 3, 1 }, { 1, 4 } }, f_mul, -2, 2, 1e-6 },
    { "div", 2, { 1, 1 }, { { 4 }, { 4 } }, f_div, 0.5, 2, 1e-6 },
    { "maximum", 2, { 1, 1 }, { { 6 }, { 6 } }, f_max, -2, 2, 1e-6 },
    { "minimum", 2, { 1, 1 }, { { 6 }, { 6 } }, f_min, -2, 2, 1e-6 },
    { "where", 2, { 1, 1 }, { { 6 }, { 6 } }, f_where, -2, 2, 1e-6 },
    { "reshape", 2, { 1, 2 }, { { 12 }, { 3, 4 } }, f_reshape, -2, 2, 1e-6 },
    { "permute", 2, { 3, 3 }, { { 2, 3, 4 }, { 4, 2, 3 } }, f_permute, -2, 2, 1e-6 },
    { "expand", 2, { 2, 2 }, { { 3, 1 }, { 3, 4 } }, f_expand, -2, 2, 1e-6 },
    { "pad", 1, { 2 }, { { 2, 3 } }, f_pad, -2, 2, 1e-6 },
    { "shrink", 1, { 2 }, { { 4, 4 } }, f_shrink, -2, 2, 1e-6 },
    { "flip", 2, { 2, 2 }, { { 2, 3 }, { 2, 3 } }, f_flip, -2, 2, 1e-6 },
    { "slice_step", 1, { 2 }, { { 2, 7 } }, f_slice, -2, 2, 1e-6 },
    { "stack", 2, { 1, 1 }, { { 3 }, { 3 } }, f_stack, -2, 2, 1e-6 },
    { "cat", 2, { 2, 2 }, { { 1, 3 }, { 2, 3 } }, f_cat, -2, 2, 1e-6 },
    { "index", 1, { 3 }, { { 2, 3, 2 } }, f_index, -2, 2, 1e-6 },
    { "sum", 1, { 2 }, { { 3, 4 } }, f_sum, -2, 2, 1e-6 },
    { "reduce_max", 1, { 2 }, { { 3, 4 } }, f_rmax, -2, 2, 1e-6 },
    { "reduce_min", 1, { 2 }, { { 3, 4 } }, f_rmin, -2, 2, 1e-6 },
    { "prod", 1, { 2 }, { { 3, 4 } }, f_prod, 0.5, 2, 1e-6 },
    { "mean", 1, { 2 }, { { 3, 4 } }, f_mean, -2, 2, 1e-6 },
    { "var", 1, { 2 }, { { 3, 4 } }, f_var, -2, 2, 1e-6 },
    { "std", 1, { 2 }, { { 3, 4 } }, f_std, -2, 2, 1e-6 },
    { "cumsum", 1, { 2 }, { { 2, 5 } }, f_cumsum, -2, 2, 1e-6 },
    { "softmax", 1, { 2 }, { { 3, 4 } }, f_softmax, -2, 2, 1e-6 },
    { "log_softmax", 1, { 2 }, { { 3, 4 } }, f_logsoftmax, -2, 2, 1e-6 },
    { "layernorm", 2, { 2, 1 }, { { 3, 5 }, { 5 } }, f_layernorm, -2, 2, 1e-5 },
    { "matmul", 2, { 2, 2 }, { { 3, 4 }, { 4, 2 } }, f_matmul, -2, 2, 1e-6 },
    { "batched_matmul", 2, { 3, 2 }, { { 2, 3, 4 }, { 4, 2 } }, f_bmm, -2, 2, 1e-6 },
    { "conv2d", 3, { 4, 4, 1 }, { { 1, 4, 5, 5 }, { 4, 2, 2, 2 }, { 4 } }, f_conv, -1, 1, 1e-6 },
    { "conv2d_9x9", 2, { 4, 4 }, { { 1, 1, 10, 10 }, { 1, 1, 9, 9 } }, f_conv9, -1, 1, 1e-6 },
    { "pooling", 1, { 4 }, { { 1, 2, 4, 4 } }, f_pool, -2, 2, 1e-6 },
    { "gather", 1, { 1 }, { { 5 } }, f_gather, -2, 2, 1e-6 },
    { "scatter_add", 2, { 1, 1 }, { { 5 }, { 3 } }, f_scatter, -2, 2, 1e-6 },
    { "embedding", 1, { 2 }, { { 4, 3 } }, f_embedding, -2, 2, 1e-6 },
    { "cross_entropy", 1, { 2 }, { { 3, 4 } }, f_xent, -2, 2, 1e-6 },
    { "contiguous_backward", 1, { 1 }, { { 4 } }, f_cbackward, -1, 1, 1e-6 },
    { "allreduce", 1, { 1 }, { { 8 } }, f_allreduce, -2, 2, 1e-6 },
    { "reduce_dev", 1, { 1 }, { { 6 } }, f_reduce_dev, -2, 2, 1e-6 },
    { "broadcast", 1, { 1 }, { { 3 } }, f_broadcast, -2, 2, 1e-6 },
    { "call", 2, { 1, 1 }, { { 4 }, { 4 } }, f_call, -2, 2, 1e-6 },
    { "function", 2, { 1, 1 }, { { 4 }, { 4 } }, f_function, -2, 2, 1e-6 },
};

static void run_case(const gcase *c)
{
    rdx_graph *g;
    ck_assert_int_eq(rdx_graph_create(&g, NULL), RDX_OK);
    const rdx_tensor *p[MAXP];
    double *data[MAXP];
    int64_t numel[MAXP];
    for (int k = 0; k < c->np; k++) {
        numel[k] = 1;
        for (uint32_t d = 0; d < c->nd[k]; d++)
            numel[k] *= c->dims[k][d];
        data[k] = malloc(sizeof(double) * (size_t)numel[k]);
        for (int64_t i = 0; i < numel[k]; i++)
            data[k][i] = uni(c->lo, c->hi);
        p[k] = rdx_tensor_from_data(g, F64(), c->nd[k], c->dims[k], data[k]);
    }
    const rdx_tensor *y = c->f(g, p);
    ck_assert_msg(y != NULL, "%s: %s", c->name, rdx_graph_error(g));
    /* loss = sum(y * R) with a fixed random R, so the seed gradient is not uniform */
    int64_t yn = rdx_tensor_numel(y);
    double *rw = malloc(sizeof(double) * (size_t)(yn ? yn : 1));
    int64_t yd[16];
    for (uint32_t d = 0; d < y->ndim; d++)
        yd[d] = rdx_tensor_dim(y, (int)d);
    for (int64_t i = 0; i < yn; i++)
        rw[i] = uni(0.5, 1.5);
    const rdx_tensor *R = rdx_tensor_from_data(g, F64(), y->ndim, yd, rw);
    if (y->device && strcmp(y->device->names[0], "CPU")) /* weights on the result's devices */
        R = y->device->n > 1 ? rdx_tensor_broadcast(g, R, y->device->names, y->device->n)
                             : rdx_tensor_copy(g, R, y->device->names, 1);
    const rdx_tensor *loss = rdx_tensor_sum(g, rdx_tensor_mul(g, y, R), 0, NULL, 0);
    const rdx_tensor *gr[MAXP];
    ck_assert_msg(rdx_gradient(g, loss, p, (size_t)c->np, gr) == RDX_OK, "%s: %s", c->name,
                  rdx_graph_error(g));
    rdx_array ga[MAXP];
    for (int k = 0; k < c->np; k++) {
        ck_assert_msg(rdx_tensor_realize(g, gr[k], &ga[k]) == RDX_OK, "%s: %s", c->name,
                      rdx_error_message());
        ck_assert_int_eq(ga[k].numel, numel[k]);
    }
    double h = c->tol > 1e-4 ? 1e-3 : 1e-6;
    for (int k = 0; k < c->np; k++)
        for (int64_t i = 0; i < numel[k]; i++) {
            double x0 = data[k][i], l[2];
            for (int s = 0; s < 2; s++) {
                data[k][i] = x0 + (s ? -h : h);
                ck_assert_int_eq(
                    rdx_tensor_assign_data(g, p[k], data[k], sizeof(double) * (size_t)numel[k]),
                    RDX_OK);
                rdx_array la;
                ck_assert_int_eq(rdx_tensor_realize(g, loss, &la), RDX_OK);
                l[s] = rdx_array_get(&la, 0);
            }
            data[k][i] = x0;
            ck_assert_int_eq(
                rdx_tensor_assign_data(g, p[k], data[k], sizeof(double) * (size_t)numel[k]),
                RDX_OK);
            double fd = (l[0] - l[1]) / (2 * h), an = rdx_array_get(&ga[k], i);
            ck_assert_msg(fabs(fd - an) <= c->tol * (1 + fabs(fd)) + 2e-7,
                          "%s: d/dp%d[%lld] analytic %.12g, finite difference %.12g", c->name, k,
                          (long long)i, an, fd);
        }
    rdx_interp_release(rdx_graph_interp(g));
    for (int k = 0; k < c->np; k++)
        free(data[k]);
    free(rw);
    rdx_graph_destroy(g);
}

START_TEST(gradient_matches_central_differences)
{
    run_case(&cases[_i]);
}
END_TEST

START_TEST(detach_stops_and_unused_params_get_zeros)
{
    rdx_graph *g;
    ck_assert_int_eq(rdx_graph_create(&g, NULL), RDX_OK);
    double a[3] = { 1, 2, 3 }, b[3] = { 4, 5, 6 };
    const rdx_tensor *A = rdx_tensor_from_data(g, F64(), 1, (int64_t[]){ 3 }, a);
    const rdx_tensor *B = rdx_tensor_from_data(g, F64(), 1, (int64_t[]){ 3 }, b);
    const rdx_tensor *C = rdx_tensor_from_data(g, F64(), 1, (int64_t[]){ 3 }, b);
    /* loss = sum(detach(a) * b + a): d/da = 1 (not b + 1), d/db = a, d/dc = 0 */
    const rdx_tensor *loss = rdx_tensor_sum(
        g, rdx_tensor_add(g, rdx_tensor_mul(g, rdx_tensor_detach(g, A), B), A), 0, NULL, 0);
    const rdx_tensor *gr[3];
    ck_assert_int_eq(rdx_gradient(g, loss, (const rdx_tensor *[]){ A, B, C }, 3, gr), RDX_OK);
    rdx_array ra, rb, rc;
    ck_assert_int_eq(rdx_tensor_realize(g, gr[0], &ra), RDX_OK);
    ck_assert_int_eq(rdx_tensor_realize(g, gr[1], &rb), RDX_OK);
    ck_assert_int_eq(rdx_tensor_realize(g, gr[2], &rc), RDX_OK);
    for (int k = 0; k < 3; k++) {
        ck_assert_double_eq(rdx_array_get(&ra, k), 1);
        ck_assert_double_eq(rdx_array_get(&rb, k), a[k]);
        ck_assert_double_eq(rdx_array_get(&rc, k), 0);
    }
    /* CONTIGUOUSBACKWARD puts a CONTIGUOUS on the gradient path */
    const rdx_tensor *l2 =
        rdx_tensor_sum(g, rdx_tensor_contiguous_backward(g, rdx_tensor_mul(g, A, A)), 0, NULL, 0);
    ck_assert_int_eq(rdx_gradient(g, l2, &A, 1, gr), RDX_OK);
    const rdx_uop **order;
    size_t n, seen = 0;
    ck_assert_int_eq(rdx_ir_toposort(gr[0], &order, &n), RDX_OK);
    for (size_t k = 0; k < n; k++)
        seen += order[k]->op == RDX_OP_CONTIGUOUS;
    free(order);
    ck_assert_uint_eq(seen, 1);
    /* errors: integer loss, NULL parameter */
    const rdx_tensor *il = rdx_tensor_sum(g, rdx_tensor_arange(g, 3), 0, NULL, 0);
    ck_assert_int_eq(rdx_gradient(g, il, &A, 1, gr), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_graph_error(g), "float"));
    rdx_graph_clear_error(g);
    ck_assert_int_eq(rdx_gradient(g, loss, (const rdx_tensor *[]){ NULL }, 1, gr), RDX_ERR_INVALID);
    ck_assert_ptr_null(gr[0]);
    rdx_graph_destroy(g);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("grad");
    TCase *tc = tcase_create("finite_differences");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, gradient_matches_central_differences, 0,
                        (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, detach_stops_and_unused_params_get_zeros);
    suite_add_tcase(s, tc);
    return rdx_test_main(s);
}
