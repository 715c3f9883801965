/*
 * tests/codegen_back/examples_test.c — the example kernels of
 * tests/data/codegen compiled and run on the emulator, checked against host
 * loops computing the same values in the same order (so floats are exact).
 */
#include <stdlib.h>
#include <string.h>

#include <rdx/emu.h>

#include "tests/codegen_back/cgb_test.h"
#include "util/error.h"

static uint32_t rng = 12345;
static uint32_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
    return rng;
}
static float rndf(void)
{
    return (float)((int)(rnd() % 20001) - 10000) / 997.0f;
}

#define RUN(ctx, sink, bufs, sizes, values, vars, nvars)                                   \
    do {                                                                                   \
        rdx_status st_ = cgb_run(ctx, sink, NULL, bufs, sizes, values, vars, nvars, NULL); \
        ck_assert_msg(!st_, "run: %s", rdx_error_message());                               \
    } while (0)

START_TEST(example_add)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *k = cgb_parse_file(ctx, "add.uop");
    enum { N = 1000 };
    float *a = malloc(N * 4), *b = malloc(N * 4), *c = calloc(N, 4);
    for (int i = 0; i < N; i++)
        a[i] = rndf(), b[i] = rndf();
    void *bufs[3] = { a, b, c };
    size_t sizes[3] = { N * 4, N * 4, N * 4 };
    RUN(ctx, k, bufs, sizes, NULL, NULL, 0);
    for (int i = 0; i < N; i++)
        ck_assert_msg(c[i] == a[i] + b[i], "c[%d] = %g, expected %g", i, c[i], a[i] + b[i]);
    free(a), free(b), free(c);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

START_TEST(example_saxpy)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *k = cgb_parse_file(ctx, "saxpy.uop");
    static const int64_t ns[] = { 1, 31, 257, 777 };
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        int64_t n = ns[t];
        float *x = malloc((size_t)n * 4), *y = malloc((size_t)n * 4), *y0 = malloc((size_t)n * 4);
        for (int i = 0; i < n; i++)
            x[i] = rndf(), y[i] = y0[i] = rndf();
        float a = 2.5f;
        uint64_t values[3] = { 0 };
        memcpy(&values[2], &a, 4);
        void *bufs[2] = { x, y };
        size_t sizes[2] = { (size_t)n * 4, (size_t)n * 4 };
        RUN(ctx, k, bufs, sizes, values, &n, 1);
        for (int i = 0; i < n; i++) {
            float e = a * x[i];
            e = e + y0[i];
            ck_assert_msg(y[i] == e, "n=%lld y[%d] = %g, expected %g", (long long)n, i, y[i], e);
        }
        free(x), free(y), free(y0);
    }
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

START_TEST(example_sum)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *k = cgb_parse_file(ctx, "sum.uop");
    enum { R = 37, C = 129 };
    int32_t *in = malloc(R * C * 4), *out = calloc(R, 4);
    for (int i = 0; i < R * C; i++)
        in[i] = (int32_t)rnd();
    void *bufs[2] = { in, out };
    size_t sizes[2] = { R * C * 4, R * 4 };
    RUN(ctx, k, bufs, sizes, NULL, NULL, 0);
    for (int i = 0; i < R; i++) {
        uint32_t s = 0;
        for (int j = 0; j < C; j++)
            s += (uint32_t)in[i * C + j];
        ck_assert_int_eq(out[i], (int32_t)s);
    }
    free(in), free(out);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

START_TEST(example_matmul)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *k = cgb_parse_file(ctx, "matmul.uop");
    enum { M = 20, N = 33, K = 17 };
    float *A = malloc(M * K * 4), *B = malloc(K * N * 4), *C = calloc(M * N, 4);
    for (int i = 0; i < M * K; i++)
        A[i] = rndf();
    for (int i = 0; i < K * N; i++)
        B[i] = rndf();
    void *bufs[3] = { A, B, C };
    size_t sizes[3] = { M * K * 4, K * N * 4, M * N * 4 };
    RUN(ctx, k, bufs, sizes, NULL, NULL, 0);
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            float acc = 0;
            for (int kk = 0; kk < K; kk++) {
                float p = A[m * K + kk] * B[kk * N + n];
                acc = acc + p;
            }
            ck_assert_msg(C[m * N + n] == acc, "C[%d,%d] = %g, expected %g", m, n, C[m * N + n],
                          acc);
        }
    free(A), free(B), free(C);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

START_TEST(example_gated)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *k = cgb_parse_file(ctx, "gated.uop");
    enum { N = 300 };
    int32_t *in = malloc(N * 4), *out = calloc(N, 4);
    for (int i = 0; i < N; i++)
        in[i] = (int32_t)(rnd() % 2001) - 1000;
    void *bufs[2] = { in, out };
    size_t sizes[2] = { N * 4, N * 4 }; /* exact: an ungated lane 300..319 would fault */
    RUN(ctx, k, bufs, sizes, NULL, NULL, 0);
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(out[i], (in[i] < 0 ? -in[i] : in[i]) * 3);
    free(in), free(out);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

START_TEST(example_lds_reduce)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *k = cgb_parse_file(ctx, "lds_reduce.uop");
    float *in = malloc(512 * 4), *out = calloc(8, 4);
    for (int i = 0; i < 512; i++)
        in[i] = rndf();
    void *bufs[2] = { in, out };
    size_t sizes[2] = { 512 * 4, 8 * 4 };
    RUN(ctx, k, bufs, sizes, NULL, NULL, 0);
    for (int g = 0; g < 8; g++) {
        float s = 0;
        for (int j = 0; j < 64; j++)
            s = s + in[g * 64 + j];
        ck_assert_msg(out[g] == s, "out[%d] = %g, expected %g", g, out[g], s);
    }
    free(in), free(out);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

TCase *cgb_tcase_examples(void)
{
    TCase *tc = tcase_create("examples");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, example_add);
    tcase_add_test(tc, example_saxpy);
    tcase_add_test(tc, example_sum);
    tcase_add_test(tc, example_matmul);
    tcase_add_test(tc, example_gated);
    tcase_add_test(tc, example_lds_reduce);
    return tc;
}
