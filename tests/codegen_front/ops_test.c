/* tests/codegen_front/ops_test.c — every tensor API operation and the spec's
 * compositions, scheduled, evaluated on the host and compared with the
 * interpreter (raw kernels and with the heuristics' OptOps). */
#include <stdio.h>
#include <stdlib.h>

#include "tests/codegen_front/cgf_test.h"

#define F32 rdx_dtype_of(RDX_FLOAT32)
#define I32 rdx_dtype_of(RDX_INT32)

/* cgf_check1 on each of ts[0..n) (CGF_DEBUG set: the case number on stderr first). */
static void check_each(rdx_graph *g, const rdx_tensor *const *ts, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (getenv("CGF_DEBUG"))
            fprintf(stderr, "case %zu\n", i);
        cgf_check1(g, ts[i]);
    }
}

START_TEST(elementwise_binary)
{
    uint64_t seed = 1;
    rdx_graph *g = cgf_graph();
    int64_t d[2] = { 5, 7 };
    const rdx_tensor *a = cgf_random(g, F32, 2, d, &seed), *b = cgf_random(g, F32, 2, d, &seed);
    const rdx_tensor *ia = cgf_random(g, I32, 2, d, &seed), *ib = cgf_random(g, I32, 2, d, &seed);
    const rdx_tensor *ibn = rdx_tensor_adds(g, rdx_tensor_mul(g, ib, ib), 1); /* > 0 */
    const rdx_tensor *ts[] = {
        rdx_tensor_add(g, a, b),
        rdx_tensor_sub(g, a, b),
        rdx_tensor_mul(g, a, b),
        rdx_tensor_div(g, a, b),
        rdx_tensor_maximum(g, a, b),
        rdx_tensor_minimum(g, a, b),
        rdx_tensor_cmplt(g, a, b),
        rdx_tensor_cmpge(g, a, b),
        rdx_tensor_cmpeq(g, ia, ib),
        rdx_tensor_cmpne(g, ia, ib),
        rdx_tensor_idiv(g, ia, ibn),
        rdx_tensor_mod(g, ia, ibn),
        rdx_tensor_xor(g, ia, ib),
        rdx_tensor_or(g, ia, ib),
        rdx_tensor_and(g, ia, ib),
        rdx_tensor_shl(g, ia, rdx_tensor_const(g, I32, 3)),
        rdx_tensor_shr(g, ia, rdx_tensor_const(g, I32, 1)),
        rdx_tensor_where(g, rdx_tensor_cmplt(g, a, b), a, b),
    };
    check_each(g, ts, sizeof ts / sizeof *ts);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(elementwise_unary)
{
    uint64_t seed = 2;
    rdx_graph *g = cgf_graph();
    int64_t d[1] = { 13 };
    const rdx_tensor *a = cgf_random(g, F32, 1, d, &seed);
    const rdx_tensor *pos = rdx_tensor_adds(g, rdx_tensor_abs(g, a), 0.5);
    const rdx_tensor *ts[] = {
        rdx_tensor_neg(g, a),
        rdx_tensor_recip(g, pos),
        rdx_tensor_trunc(g, a),
        rdx_tensor_exp2(g, a),
        rdx_tensor_log2(g, pos),
        rdx_tensor_exp(g, a),
        rdx_tensor_log(g, pos),
        rdx_tensor_sin(g, a),
        rdx_tensor_cos(g, a),
        rdx_tensor_sqrt(g, pos),
        rdx_tensor_rsqrt(g, pos),
        rdx_tensor_relu(g, a),
        rdx_tensor_sigmoid(g, a),
        rdx_tensor_tanh(g, a),
        rdx_tensor_gelu(g, a),
        rdx_tensor_clamp(g, a, -0.5, 0.5),
        rdx_tensor_cast(g, a, I32),
        rdx_tensor_bitcast(g, a, I32),
        rdx_tensor_not(g, rdx_tensor_cmplt(g, a, pos)),
        rdx_tensor_pow(g, pos, a),
    };
    check_each(g, ts, sizeof ts / sizeof *ts);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(movement)
{
    uint64_t seed = 3;
    rdx_graph *g = cgf_graph();
    int64_t d[3] = { 3, 4, 5 };
    const rdx_tensor *a = cgf_random(g, F32, 3, d, &seed);
    int64_t r2[2] = { 12, 5 }, r3[3] = { 2, 30, 1 }, e4[4] = { 2, 3, 4, 5 };
    int64_t before[3] = { 1, 0, 2 }, after[3] = { 0, 2, 1 }, st[3] = { 1, 0, 1 },
            en[3] = { 3, 3, 4 };
    const rdx_tensor *ts[] = {
        rdx_tensor_reshape(g, a, 2, r2),
        rdx_tensor_reshape(g, rdx_tensor_permute(g, a, (int[]){ 2, 0, 1 }), 3, r3),
        rdx_tensor_permute(g, a, (int[]){ 1, 2, 0 }),
        rdx_tensor_transpose(g, a, 0, 2),
        rdx_tensor_expand(g, rdx_tensor_reshape(g, a, 4, (int64_t[]){ 1, 3, 4, 5 }), 4, e4),
        rdx_tensor_pad(g, a, before, after, 0.0),
        rdx_tensor_pad(g, a, before, after, -3.5),
        rdx_tensor_shrink(g, a, st, en),
        rdx_tensor_slice(g, a, 2, 1, 5, 2),
        rdx_tensor_flip(g, a, 2, (int[]){ 0, 2 }),
        rdx_tensor_stack(g, (const rdx_tensor *[]){ a, rdx_tensor_neg(g, a) }, 2, 1),
        rdx_tensor_cat(g, (const rdx_tensor *[]){ a, rdx_tensor_muls(g, a, 2) }, 2, 2),
        rdx_tensor_pad(g, rdx_tensor_flip(g, rdx_tensor_transpose(g, a, 1, 2), 1, (int[]){ 1 }),
                       before, after, 1.0),
    };
    check_each(g, ts, sizeof ts / sizeof *ts);
    const rdx_tensor *outs[2];
    ck_assert_int_eq(rdx_tensor_split(g, a, 1, (int64_t[]){ 1, 3 }, 2, outs), RDX_OK);
    cgf_check1(g, outs[1]);
    int32_t iv[3] = { 2, 0, 1 };
    const rdx_tensor *idx = rdx_tensor_from_data(g, I32, 1, (int64_t[]){ 3 }, iv);
    cgf_check1(g, rdx_tensor_index(g, a, 1, &idx));
    const rdx_tensor *i0 = rdx_tensor_const(g, I32, 1);
    cgf_check1(g, rdx_tensor_index(g, a, 1, &i0));
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(reductions)
{
    uint64_t seed = 4;
    rdx_graph *g = cgf_graph();
    int64_t d[3] = { 3, 7, 5 };
    const rdx_tensor *a = cgf_random(g, F32, 3, d, &seed);
    const rdx_tensor *ia = cgf_random(g, I32, 3, d, &seed);
    const rdx_tensor *ts[] = {
        rdx_tensor_sum(g, a, 0, NULL, 0),
        rdx_tensor_sum(g, a, 1, (int[]){ 1 }, 0),
        rdx_tensor_sum(g, a, 2, (int[]){ 0, 2 }, 1),
        rdx_tensor_max(g, a, 1, (int[]){ 2 }, 0),
        rdx_tensor_min(g, ia, 1, (int[]){ 0 }, 0),
        rdx_tensor_prod(g, rdx_tensor_adds(g, rdx_tensor_muls(g, a, 0.1), 1), 1, (int[]){ 1 }, 0),
        rdx_tensor_mean(g, a, 1, (int[]){ 1 }, 0),
        rdx_tensor_var(g, a, 1, (int[]){ 2 }, 0, 1),
        rdx_tensor_std(g, a, 1, (int[]){ 1 }, 1, 1),
        rdx_tensor_argmax(g, a, 1, 0),
        rdx_tensor_cumsum(g, a, 2),
        rdx_tensor_sum(g, rdx_tensor_cmplt(g, a, rdx_tensor_const(g, F32, 0)), 0, NULL, 0),
        rdx_tensor_adds(g, rdx_tensor_sum(g, a, 1, (int[]){ 2 }, 0), 1.0),
    };
    check_each(g, ts, sizeof ts / sizeof *ts);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(creation)
{
    rdx_graph *g = cgf_graph();
    const rdx_tensor *ts[] = {
        rdx_tensor_arange(g, 7),
        rdx_tensor_arange_range(g, 1, 4, 0.5, F32),
        rdx_tensor_eye(g, 5, F32),
        rdx_tensor_full(g, F32, 2, (int64_t[]){ 3, 2 }, 2.5),
        rdx_tensor_rand(g, F32, 2, (int64_t[]){ 3, 5 }, 7),
        rdx_tensor_randn(g, F32, 1, (int64_t[]){ 6 }, 3),
        rdx_tensor_randint(g, -4, 9, 1, (int64_t[]){ 9 }, 5),
    };
    check_each(g, ts, sizeof ts / sizeof *ts);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(composites)
{
    uint64_t seed = 5;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *A = cgf_random(g, F32, 2, (int64_t[]){ 6, 5 }, &seed);
    const rdx_tensor *B = cgf_random(g, F32, 2, (int64_t[]){ 5, 7 }, &seed);
    const rdx_tensor *x = cgf_random(g, F32, 4, (int64_t[]){ 1, 2, 6, 6 }, &seed);
    const rdx_tensor *w = cgf_random(g, F32, 4, (int64_t[]){ 3, 2, 3, 3 }, &seed);
    const rdx_tensor *bias = cgf_random(g, F32, 1, (int64_t[]){ 3 }, &seed);
    int32_t tv[6] = { 0, 3, 6, 1, 2, 6 }, iv[4] = { 1, 4, 0, 4 };
    const rdx_tensor *tgt = rdx_tensor_from_data(g, I32, 1, (int64_t[]){ 6 }, tv);
    const rdx_tensor *idx = rdx_tensor_from_data(g, I32, 1, (int64_t[]){ 4 }, iv);
    const rdx_tensor *t5 = cgf_random(g, F32, 1, (int64_t[]){ 5 }, &seed);
    const rdx_tensor *v4 = cgf_random(g, F32, 1, (int64_t[]){ 4 }, &seed);
    rdx_conv_opts co = { { 1, 1 }, { 1, 1 }, { 1, 1 }, 1 };
    const rdx_tensor *ts[] = {
        rdx_tensor_matmul(g, A, B),
        rdx_tensor_softmax(g, A, 1),
        rdx_tensor_log_softmax(g, A, 0),
        rdx_tensor_layernorm(g, A, 1, NULL, NULL, 1e-5),
        rdx_tensor_conv2d(g, x, w, bias, &co),
        rdx_tensor_max_pool2d(g, x, (int64_t[]){ 2, 2 }, (int64_t[]){ 2, 2 }, (int64_t[]){ 0, 0 }),
        rdx_tensor_avg_pool2d(g, x, (int64_t[]){ 3, 3 }, (int64_t[]){ 1, 1 }, (int64_t[]){ 1, 1 }),
        rdx_tensor_cross_entropy(g, rdx_tensor_matmul(g, A, B), tgt),
        rdx_tensor_gather(g, t5, idx),
        rdx_tensor_scatter_add(g, t5, idx, v4),
        rdx_tensor_one_hot(g, idx, 5, F32),
        rdx_tensor_embedding(g, B, idx),
        rdx_tensor_contiguous(g, rdx_tensor_transpose(g, A, 0, 1)),
        rdx_tensor_detach(g, A),
    };
    check_each(g, ts, sizeof ts / sizeof *ts);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(multi_device)
{
    uint64_t seed = 6;
    rdx_graph *g = cgf_graph();
    const char *devs[2] = { "AMD:0", "AMD:1" };
    const rdx_tensor *t = cgf_random(g, F32, 1, (int64_t[]){ 6 }, &seed);
    const rdx_tensor *sh =
        rdx_tensor_scatter(g, cgf_random(g, F32, 1, (int64_t[]){ 8 }, &seed), devs, 2);
    const rdx_tensor *ts[] = {
        rdx_tensor_copy(g, t, devs, 1),
        rdx_tensor_broadcast(g, t, devs, 2),
        sh,
        rdx_tensor_gather_dev(g, sh),
        rdx_tensor_reduce_dev(g, sh),
        rdx_tensor_allgather(g, sh),
        rdx_tensor_reduce_scatter(g, sh),
        rdx_tensor_allreduce(g, sh),
        rdx_tensor_muls(g, rdx_tensor_copy(g, rdx_tensor_adds(g, t, 1), devs, 1), 2),
    };
    check_each(g, ts, sizeof ts / sizeof *ts);
    rdx_graph_destroy(g);
}
END_TEST

TCase *cgf_tcase_ops(void)
{
    TCase *tc = tcase_create("ops");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, elementwise_binary);
    tcase_add_test(tc, elementwise_unary);
    tcase_add_test(tc, movement);
    tcase_add_test(tc, reductions);
    tcase_add_test(tc, creation);
    tcase_add_test(tc, composites);
    tcase_add_test(tc, multi_device);
    return tc;
}
