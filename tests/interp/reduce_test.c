/* tests/interp/reduce_test.c — REDUCE in the node's own dtype, sequential order, against
 * closed forms and host loops. */
#include <stdlib.h>

#include "tests/interp/interp_test.h"

START_TEST(sum_of_arange_is_the_closed_form)
{
    rdx_graph *g = ig();
    for (int64_t n = 1; n <= 600; n = n * 3 + 1) {
        rdx_array s = ireal(g, rdx_tensor_sum(g, rdx_tensor_arange(g, n), 0, NULL, 0));
        ck_assert_int_eq(s.ndim, 0);
        ck_assert_int_eq(rdx_array_get_int(&s, 0), n * (n - 1) / 2);
    }
    rdx_graph_destroy(g);
}
END_TEST

/* REDUCE(ADD) over axis 0 as a node of the IR (rdx_tensor_sum casts to tinygrad's
   accumulation dtypes first: tests/tensor semantics) */
static const rdx_tensor *raw_sum(rdx_graph *g, const rdx_tensor *t)
{
    return rdx_ir_reduce(rdx_graph_ir(g), t, RDX_RED_ADD, (int64_t[]){ 0 }, 1);
}

START_TEST(accumulation_happens_in_the_node_dtype)
{
    rdx_graph *g = ig();
    /* float16: 2048 + 1 is a tie and rounds to even, so 2049 ones sum to 2048 */
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
    rdx_array s = ireal(g, raw_sum(g, rdx_tensor_ones(g, h, 1, (int64_t[]){ 2049 })));
    ck_assert_double_eq(rdx_array_get(&s, 0), 2048.0);
    s = ireal(g, raw_sum(g, rdx_tensor_ones(g, h, 1, (int64_t[]){ 2047 })));
    ck_assert_double_eq(rdx_array_get(&s, 0), 2047.0);
    /* float32, sequential: 2^24 + 1 + 1 stays 2^24 (double would give 2^24 + 2) */
    float v[3] = { 16777216.0f, 1, 1 };
    s = ireal(g, raw_sum(g, buf_f32(g, 1, (int64_t[]){ 3 }, v)));
    ck_assert_double_eq(rdx_array_get(&s, 0), 16777216.0);
    /* int8 wraps */
    int8_t iv[2] = { 100, 100 };
    const rdx_tensor *i8 = rdx_tensor_from_data(g, rdx_dtype_of(RDX_INT8), 1, (int64_t[]){ 2 }, iv);
    s = ireal(g, raw_sum(g, i8));
    ck_assert_int_eq(rdx_array_get_int(&s, 0), -56);
    /* the tensor sum accumulates int8 in int32 (tinygrad) */
    s = ireal(g, rdx_tensor_sum(g, i8, 0, NULL, 0));
    ck_assert_int_eq(rdx_array_get_int(&s, 0), 200);
    /* bool sum counts (cast to int32 first) */
    uint8_t bv[5] = { 1, 0, 1, 1, 0 };
    const rdx_tensor *bt = rdx_tensor_from_data(g, rdx_dtype_of(RDX_BOOL), 1, (int64_t[]){ 5 }, bv);
    s = ireal(g, rdx_tensor_sum(g, bt, 0, NULL, 0));
    ck_assert_int_eq(rdx_array_get_int(&s, 0), 3);
    rdx_graph_destroy(g);
}
END_TEST

/* fuzz seed 1795849035: a REDUCE over axes of constant size 1 reduces nothing (tinygrad
   never builds one: its tensor is the result): max/min of one NaN is that NaN, not
   fmax(-inf, NaN) = -inf.  An axis of size 1 beside a longer one, or a symbolic one bound
   to 1, is still folded from the identity (a NaN loses). */
START_TEST(reduce_over_size_one_axes_is_its_source)
{
    rdx_graph *g = ig();
    float v[4] = { NAN, -0.0f, 2.5f, NAN };
    const rdx_tensor *col = buf_f32(g, 2, (int64_t[]){ 4, 1 }, v);
    int ax1[1] = { 1 };
    rdx_array mx = ireal(g, rdx_tensor_max(g, col, 1, ax1, 0));
    rdx_array mn = ireal(g, rdx_tensor_min(g, col, 1, ax1, 1));
    rdx_array sm = ireal(g, rdx_tensor_sum(g, col, 1, ax1, 0));
    ck_assert_int_eq(mx.ndim, 1);
    ck_assert_int_eq(mn.ndim, 2);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(isnan(rdx_array_get(&mx, i)), isnan(v[i]));
        ck_assert_int_eq(isnan(rdx_array_get(&mn, i)), isnan(v[i]));
        if (!isnan(v[i])) {
            ck_assert_double_eq(rdx_array_get(&mx, i), v[i]);
            ck_assert_double_eq(rdx_array_get(&mn, i), v[i]);
        }
    }
    ck_assert(signbit(rdx_array_get(&sm, 1))); /* -0.0 itself, not 0 + -0.0 */
    /* (1, 2): axis 0 alone passes, both axes fold from the identity */
    float w[2] = { NAN, NAN };
    const rdx_tensor *row = buf_f32(g, 2, (int64_t[]){ 1, 2 }, w);
    int ax0[1] = { 0 }, both[2] = { 0, 1 };
    rdx_array r0 = ireal(g, rdx_tensor_max(g, row, 1, ax0, 0));
    rdx_array r01 = ireal(g, rdx_tensor_max(g, row, 2, both, 0));
    ck_assert(isnan(rdx_array_get(&r0, 0)) && isnan(rdx_array_get(&r0, 1)));
    ck_assert_double_eq(rdx_array_get(&r01, 0), -INFINITY);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(max_min_prod_over_axes_match_host_loops)
{
    rdx_graph *g = ig();
    enum { P = 4, Q = 5, R = 6 };
    float v[P * Q * R];
    uint64_t seed = 5;
    for (int k = 0; k < P * Q * R; k++)
        v[k] = (float)iuni(&seed, 0.5, 1.5);
    v[7] = NAN; /* MAX/MIN follow fmax/fmin: a NaN loses */
    const rdx_tensor *t = buf_f32(g, 3, (int64_t[]){ P, Q, R }, v);
    int ax[2] = { 0, 2 };
    rdx_array mx = ireal(g, rdx_tensor_max(g, t, 2, ax, 0));
    rdx_array mn = ireal(g, rdx_tensor_min(g, t, 2, ax, 1));
    rdx_array pr = ireal(g, rdx_tensor_prod(g, t, 2, ax, 0));
    rdx_array sm = ireal(g, rdx_tensor_sum(g, t, 2, ax, 0));
    ck_assert_int_eq(mx.ndim, 1);
    ck_assert_int_eq(mn.ndim, 3);
    ck_assert_int_eq(mn.dims[0], 1);
    for (int q = 0; q < Q; q++) {
        float m = -INFINITY, n = INFINITY, p = 1, s = 0;
        for (int a = 0; a < P; a++)
            for (int r = 0; r < R; r++) {
                float x = v[(a * Q + q) * R + r];
                m = fmaxf(m, x);
                n = fminf(n, x);
                p = p * x;
                s = s + x;
            }
        ck_assert_double_eq(rdx_array_get(&mx, q), m);
        ck_assert_double_eq(rdx_array_get(&mn, q), n);
        if (isnan(p)) {
            ck_assert(isnan(rdx_array_get(&pr, q)));
            ck_assert(isnan(rdx_array_get(&sm, q)));
        } else {
            ck_assert_double_eq(rdx_array_get(&pr, q), p);
            ck_assert_double_eq(rdx_array_get(&sm, q), s);
        }
    }
    /* integer max/min identities: the dtype's min/max */
    int16_t iv[3] = { -5, -9, -7 };
    const rdx_tensor *it =
        rdx_tensor_from_data(g, rdx_dtype_of(RDX_INT16), 1, (int64_t[]){ 3 }, iv);
    rdx_array im = ireal(g, rdx_tensor_max(g, it, 0, NULL, 0));
    ck_assert_int_eq(rdx_array_get_int(&im, 0), -5);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(mean_var_std_argmax_and_cumsum)
{
    rdx_graph *g = ig();
    float v[8] = { 2, 4, 4, 4, 5, 5, 7, 9 };
    const rdx_tensor *t = buf_f32(g, 1, (int64_t[]){ 8 }, v);
    rdx_array m = ireal(g, rdx_tensor_mean(g, t, 0, NULL, 0));
    rdx_array va = ireal(g, rdx_tensor_var(g, t, 0, NULL, 0, 0));
    rdx_array sd = ireal(g, rdx_tensor_std(g, t, 0, NULL, 0, 0));
    rdx_array vu = ireal(g, rdx_tensor_var(g, t, 0, NULL, 0, 1));
    ck_assert_double_eq(rdx_array_get(&m, 0), 5.0);
    ck_assert_double_eq(rdx_array_get(&va, 0), 4.0);
    ck_assert_double_eq_tol(rdx_array_get(&sd, 0), 2.0, 2e-6);
    ck_assert_double_eq_tol(rdx_array_get(&vu, 0), 32.0 / 7, 1e-6);
    float w[6] = { 1, 9, 9, 3, 2, 3 };
    rdx_array am = ireal(g, rdx_tensor_argmax(g, buf_f32(g, 2, (int64_t[]){ 2, 3 }, w), 1, 0));
    ck_assert_int_eq(rdx_array_get_int(&am, 0), 1); /* first of the tied maxima */
    ck_assert_int_eq(rdx_array_get_int(&am, 1), 0);
    rdx_array cs = ireal(g, rdx_tensor_cumsum(g, buf_f32(g, 2, (int64_t[]){ 2, 3 }, w), 1));
    float cw[6] = { 1, 10, 19, 3, 5, 8 };
    for (int k = 0; k < 6; k++)
        ck_assert_double_eq(rdx_array_get(&cs, k), cw[k]);
    rdx_array c0 = ireal(g, rdx_tensor_cumsum(g, buf_f32(g, 2, (int64_t[]){ 2, 3 }, w), 0));
    float c0w[6] = { 1, 9, 9, 4, 11, 12 };
    for (int k = 0; k < 6; k++)
        ck_assert_double_eq(rdx_array_get(&c0, k), c0w[k]);
    rdx_graph_destroy(g);
}
END_TEST

/* a reduction to an empty result (a zero-size tensor's max over its other axis) writes
   nothing: the identity was stored into the empty result's storage (found by ASan through
   tests/realize semantics zero_size_tensors; a plain build does not notice) */
START_TEST(reduce_to_an_empty_result)
{
    rdx_graph *g = ig();
    float v[1] = { 0 };
    const rdx_tensor *x = buf_f32(g, 2, (int64_t[]){ 0, 5 }, v);
    rdx_array m = ireal(g, rdx_tensor_max(g, x, 1, (int[]){ 1 }, 0));
    ck_assert_int_eq(m.ndim, 1);
    ck_assert_int_eq(m.dims[0], 0);
    ck_assert_int_eq(m.numel, 0);
    rdx_array s = ireal(g, rdx_tensor_sum(g, x, 1, (int[]){ 0 }, 0)); /* empty axis: zeros */
    ck_assert_int_eq(s.numel, 5);
    for (int k = 0; k < 5; k++)
        ck_assert_double_eq(rdx_array_get(&s, k), 0);
    rdx_graph_destroy(g);
}
END_TEST

TCase *interp_tcase_reduce(void)
{
    TCase *tc = tcase_create("reduce");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, sum_of_arange_is_the_closed_form);
    tcase_add_test(tc, accumulation_happens_in_the_node_dtype);
    tcase_add_test(tc, reduce_to_an_empty_result);
    tcase_add_test(tc, max_min_prod_over_axes_match_host_loops);
    tcase_add_test(tc, reduce_over_size_one_axes_is_its_source);
    tcase_add_test(tc, mean_var_std_argmax_and_cumsum);
    return tc;
}
