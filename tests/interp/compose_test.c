/* tests/interp/compose_test.c — compositions evaluated by the interpreter against naive loops
 * written here (gemm, batched matmul, conv2d, pooling) and numerical identities (softmax rows,
 * layernorm moments, transcendentals against libm); FUNCTION scopes and symbolic sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tests/interp/interp_test.h"

static void fill(float *v, int n, uint64_t *s)
{
    for (int k = 0; k < n; k++)
        v[k] = (float)iuni(s, -1, 1);
}

START_TEST(gemm_equals_a_naive_triple_loop_bit_for_bit)
{
    enum { M = 37, K = 53, N = 29 };
    static float a[M * K], b[K * N];
    uint64_t s = 1;
    fill(a, M * K, &s);
    fill(b, K * N, &s);
    rdx_graph *g = ig();
    rdx_array c = ireal(g, rdx_tensor_matmul(g, buf_f32(g, 2, (int64_t[]){ M, K }, a),
                                             buf_f32(g, 2, (int64_t[]){ K, N }, b)));
    ck_assert_int_eq(c.dims[0], M);
    ck_assert_int_eq(c.dims[1], N);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float acc = 0;
            for (int k = 0; k < K; k++) {
                float p = a[i * K + k] * b[k * N + j];
                acc = acc + p;
            }
            ck_assert_msg(rdx_array_get(&c, i * N + j) == acc, "C[%d,%d] = %.9g, naive %.9g", i, j,
                          rdx_array_get(&c, i * N + j), acc);
        }
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(batched_matmul_broadcasts_batch_axes)
{
    enum { BT = 3, M = 4, K = 5, N = 2 };
    float a[BT * M * K], b[K * N];
    uint64_t s = 2;
    fill(a, BT * M * K, &s);
    fill(b, K * N, &s);
    rdx_graph *g = ig();
    rdx_array c = ireal(g, rdx_tensor_matmul(g, buf_f32(g, 3, (int64_t[]){ BT, M, K }, a),
                                             buf_f32(g, 2, (int64_t[]){ K, N }, b)));
    ck_assert_int_eq(c.ndim, 3);
    for (int t = 0; t < BT; t++)
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                float acc = 0;
                for (int k = 0; k < K; k++) {
                    float p = a[(t * M + i) * K + k] * b[k * N + j];
                    acc = acc + p;
                }
                ck_assert_double_eq(rdx_array_get(&c, (t * M + i) * N + j), acc);
            }
    /* vector @ matrix and matrix @ vector drop the unit axes */
    rdx_array vm = ireal(g, rdx_tensor_matmul(g, buf_f32(g, 1, (int64_t[]){ K }, a),
                                              buf_f32(g, 2, (int64_t[]){ K, N }, b)));
    ck_assert_int_eq(vm.ndim, 1);
    ck_assert_int_eq(vm.dims[0], N);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(matmul_512_is_fast_enough_to_be_an_oracle)
{
    enum { S = 512 };
    float *a = malloc(sizeof(float) * S * S), *b = malloc(sizeof(float) * S * S);
    uint64_t s = 3;
    fill(a, S * S, &s);
    fill(b, S * S, &s);
    rdx_graph *g = ig();
    const rdx_tensor *c = rdx_tensor_matmul(g, buf_f32(g, 2, (int64_t[]){ S, S }, a),
                                            buf_f32(g, 2, (int64_t[]){ S, S }, b));
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rdx_array r = ireal(g, c);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double sec = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("interp: 512x512 float32 matmul in %.3f s\n", sec);
    /* spot-check a few entries against the naive sum */
    for (int q = 0; q < 8; q++) {
        int i = (int)(irand(&s) % S), j = (int)(irand(&s) % S);
        float acc = 0;
        for (int k = 0; k < S; k++) {
            float p = a[i * S + k] * b[k * S + j];
            acc = acc + p;
        }
        ck_assert_double_eq(rdx_array_get(&r, i * S + j), acc);
    }
    rdx_graph_destroy(g);
    free(a);
    free(b);
}
END_TEST

START_TEST(conv2d_and_pooling_match_naive_loops)
{
    enum { N = 2, CI = 4, H = 7, W = 6, O = 6, G = 2, KH = 3, KW = 2 };
    float x[N * CI * H * W], w[O * (CI / G) * KH * KW], bias[O];
    uint64_t s = 4;
    fill(x, N * CI * H * W, &s);
    fill(w, O * (CI / G) * KH * KW, &s);
    fill(bias, O, &s);
    rdx_conv_opts o = { { 2, 1 }, { 1, 1 }, { 1, 2 }, G };
    rdx_graph *g = ig();
    rdx_array r = ireal(g, rdx_tensor_conv2d(g, buf_f32(g, 4, (int64_t[]){ N, CI, H, W }, x),
                                             buf_f32(g, 4, (int64_t[]){ O, CI / G, KH, KW }, w),
                                             buf_f32(g, 1, (int64_t[]){ O }, bias), &o));
    int ho = (H + 2 - 1 * (KH - 1) - 1) / 2 + 1, wo = (W + 2 - 2 * (KW - 1) - 1) / 1 + 1;
    ck_assert_int_eq(r.dims[2], ho);
    ck_assert_int_eq(r.dims[3], wo);
    int cg = CI / G, og = O / G;
    for (int n = 0; n < N; n++)
        for (int oc = 0; oc < O; oc++)
            for (int i = 0; i < ho; i++)
                for (int j = 0; j < wo; j++) {
                    double acc = 0;
                    int grp = oc / og;
                    for (int c = 0; c < cg; c++)
                        for (int ki = 0; ki < KH; ki++)
                            for (int kj = 0; kj < KW; kj++) {
                                int y = i * 2 - 1 + ki * 1, z = j * 1 - 1 + kj * 2;
                                if (y < 0 || y >= H || z < 0 || z >= W)
                                    continue;
                                acc += (double)x[((n * CI + grp * cg + c) * H + y) * W + z] *
                                       w[((oc * cg + c) * KH + ki) * KW + kj];
                            }
                    acc += bias[oc];
                    ck_assert_double_eq_tol(rdx_array_get(&r, ((n * O + oc) * ho + i) * wo + j),
                                            acc, 1e-5);
                }
    /* max / avg pooling 2x2 stride 2 */
    const rdx_tensor *xt = buf_f32(g, 4, (int64_t[]){ N, CI, H, W }, x);
    int64_t k2[2] = { 2, 2 };
    rdx_array mp = ireal(g, rdx_tensor_max_pool2d(g, xt, k2, k2, NULL));
    rdx_array ap = ireal(g, rdx_tensor_avg_pool2d(g, xt, k2, k2, NULL));
    ck_assert_int_eq(mp.dims[2], H / 2);
    ck_assert_int_eq(mp.dims[3], W / 2);
    for (int p = 0; p < N * CI; p++)
        for (int i = 0; i < H / 2; i++)
            for (int j = 0; j < W / 2; j++) {
                float m = -INFINITY;
                double sum = 0;
                for (int a = 0; a < 2; a++)
                    for (int b = 0; b < 2; b++) {
                        float e = x[(p * H + 2 * i + a) * W + 2 * j + b];
                        m = fmaxf(m, e);
                        sum += e;
                    }
                int idx = (p * (H / 2) + i) * (W / 2) + j;
                ck_assert_double_eq(rdx_array_get(&mp, idx), m);
                ck_assert_double_eq_tol(rdx_array_get(&ap, idx), sum / 4, 1e-6);
            }
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(softmax_rows_sum_to_one_and_layernorm_normalises)
{
    enum { R = 5, C = 17 };
    float v[R * C];
    uint64_t s = 6;
    for (int k = 0; k < R * C; k++)
        v[k] = (float)iuni(&s, -20, 20);
    rdx_graph *g = ig();
    const rdx_tensor *t = buf_f32(g, 2, (int64_t[]){ R, C }, v);
    rdx_array sm = ireal(g, rdx_tensor_softmax(g, t, 1));
    rdx_array ls = ireal(g, rdx_tensor_log_softmax(g, t, -1));
    rdx_array ln = ireal(g, rdx_tensor_layernorm(g, t, 1, NULL, NULL, 1e-5));
    for (int r = 0; r < R; r++) {
        double sum = 0, sl = 0, mu = 0, m2 = 0;
        for (int c = 0; c < C; c++) {
            double p = rdx_array_get(&sm, r * C + c);
            ck_assert(p >= 0 && p <= 1);
            sum += p;
            sl += exp(rdx_array_get(&ls, r * C + c));
            ck_assert_double_eq_tol(log(p > 0 ? p : 1e-300), rdx_array_get(&ls, r * C + c),
                                    p > 1e-30 ? 1e-4 : 1e30);
            mu += rdx_array_get(&ln, r * C + c);
        }
        mu /= C;
        for (int c = 0; c < C; c++)
            m2 += pow(rdx_array_get(&ln, r * C + c) - mu, 2);
        ck_assert_double_eq_tol(sum, 1.0, 1e-5);
        ck_assert_double_eq_tol(sl, 1.0, 1e-5);
        ck_assert_double_eq_tol(mu, 0.0, 1e-5);
        ck_assert_double_eq_tol(m2 / C, 1.0, 1e-3);
    }
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(transcendentals_track_libm)
{
    enum { N = 400 };
    float v[N];
    uint64_t s = 8;
    for (int k = 0; k < N; k++)
        v[k] = (float)iuni(&s, 0.01, 30);
    rdx_graph *g = ig();
    const rdx_tensor *t = buf_f32(g, 1, (int64_t[]){ N }, v);
    rdx_array ex = ireal(g, rdx_tensor_exp(g, rdx_tensor_muls(g, t, -1)));
    rdx_array lg = ireal(g, rdx_tensor_log(g, t));
    rdx_array sn = ireal(g, rdx_tensor_sin(g, t));
    rdx_array cs = ireal(g, rdx_tensor_cos(g, t));
    rdx_array sq = ireal(g, rdx_tensor_sqrt(g, t));
    rdx_array th = ireal(g, rdx_tensor_tanh(g, rdx_tensor_muls(g, t, 0.1)));
    rdx_array sg = ireal(g, rdx_tensor_sigmoid(g, rdx_tensor_adds(g, t, -15)));
    for (int k = 0; k < N; k++) {
        double x = v[k];
        ck_assert_double_eq_tol(rdx_array_get(&ex, k), exp(-x), 4e-6 * exp(-x) + 1e-30);
        ck_assert_double_eq_tol(rdx_array_get(&lg, k), log(x), 2e-6 * fabs(log(x)) + 1e-6);
        ck_assert_double_eq_tol(rdx_array_get(&sn, k), sin(x), 2e-6);
        ck_assert_double_eq_tol(rdx_array_get(&cs, k), cos(x), 2e-6);
        ck_assert_double_eq_tol(rdx_array_get(&sq, k), sqrt(x), 5e-6 * sqrt(x));
        ck_assert_double_eq_tol(rdx_array_get(&th, k), tanh(0.1 * x), 2e-6);
        ck_assert_double_eq_tol(rdx_array_get(&sg, k), 1 / (1 + exp(-(x - 15))), 2e-6);
    }
    rdx_graph_destroy(g);
}
END_TEST

static rdx_status affine(rdx_graph *g, const rdx_tensor *const *in, size_t nin,
                         const rdx_tensor **outs, size_t *nout, void *user)
{
    (void)nin;
    (void)user;
    outs[0] = rdx_tensor_adds(g, rdx_tensor_muls(g, in[0], 3), 1);
    outs[1] = rdx_tensor_sum(g, in[0], 0, NULL, 0);
    outs[2] = rdx_tensor_mean(g, in[0], 0, NULL, 0); /* count from the symbolic size */
    *nout = 3;
    return RDX_OK;
}

START_TEST(functions_bind_symbolic_sizes_per_call)
{
    rdx_graph *g = ig();
    const rdx_uop *n = rdx_graph_var(g, "n", 1, 100);
    const rdx_uop *dims[1] = { n };
    const rdx_tensor *ph = rdx_tensor_empty_sym(g, rdx_dtype_of(RDX_FLOAT32), 1, dims);
    rdx_function *f;
    ck_assert_int_eq(rdx_function_capture(g, affine, NULL, &ph, 1, &f), RDX_OK);
    float a[3] = { 1, 2, 3 }, b[5] = { 1, 1, 1, 1, 10 };
    const rdx_tensor *o1[3], *o2[3];
    const rdx_tensor *A = buf_f32(g, 1, (int64_t[]){ 3 }, a),
                     *B = buf_f32(g, 1, (int64_t[]){ 5 }, b);
    ck_assert_int_eq(rdx_function_call(g, f, &A, 1, o1, 3), RDX_OK);
    ck_assert_int_eq(rdx_function_call(g, f, &B, 1, o2, 3), RDX_OK);
    ck_assert_ptr_eq(o1[0]->src[0]->src[0], o2[0]->src[0]->src[0]); /* one body, two calls */
    ck_assert_int_eq(rdx_tensor_dim(o1[0], 0), 3);
    ck_assert_int_eq(rdx_tensor_dim(o2[0], 0), 5);
    rdx_array r1 = ireal(g, o1[0]), s1 = ireal(g, o1[1]), r2 = ireal(g, o2[0]),
              s2 = ireal(g, o2[1]);
    ck_assert_double_eq(rdx_array_get(&r1, 2), 10);
    ck_assert_double_eq(rdx_array_get(&s1, 0), 6);
    ck_assert_double_eq(rdx_array_get(&r2, 4), 31);
    ck_assert_double_eq(rdx_array_get(&s2, 0), 14);
    rdx_array m1 = ireal(g, o1[2]), m2 = ireal(g, o2[2]);
    ck_assert_double_eq(rdx_array_get(&m1, 0), 2);
    ck_assert_double_eq_tol(rdx_array_get(&m2, 0), 14.0 / 5, 1e-6);
    /* out of the variable's range */
    float big[101] = { 0 };
    const rdx_tensor *C = buf_f32(g, 1, (int64_t[]){ 101 }, big);
    ck_assert_int_eq(rdx_function_call(g, f, &C, 1, o2, 1), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_graph_error(g), "outside 'n'"));
    rdx_graph_destroy(g);
}
END_TEST

TCase *interp_tcase_compose(void)
{
    TCase *tc = tcase_create("compose");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, gemm_equals_a_naive_triple_loop_bit_for_bit);
    tcase_add_test(tc, batched_matmul_broadcasts_batch_axes);
    tcase_add_test(tc, matmul_512_is_fast_enough_to_be_an_oracle);
    tcase_add_test(tc, conv2d_and_pooling_match_naive_loops);
    tcase_add_test(tc, softmax_rows_sum_to_one_and_layernorm_normalises);
    tcase_add_test(tc, transcendentals_track_libm);
    tcase_add_test(tc, functions_bind_symbolic_sizes_per_call);
    return tc;
}
