/*
 * tests/codegen_back/examples_test.c — the example kernels of
 * tests/data/codegen compiled and run on the emulator, checked against host
 * loops computing the same values in the same order (so floats are exact).
 */
#include <math.h>
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

/* The targets the examples run on, on the emulator of that target: gfx1100 and gfx1151
   (RDNA3.5: the emulator runs the RDNA3 family).  gfx12 kernels are checked by encoding
   (tools_test.c) until the emulator runs gfx12. */
const char *const cgb_run_targets[CGB_RUN_TARGETS] = { "gfx1100", "gfx1151", "gfx1201" };

#define RUN(ctx, sink, bufs, sizes, values, vars, nvars)                                   \
    do {                                                                                   \
        rdx_status st_ = cgb_run(ctx, sink, NULL, bufs, sizes, values, vars, nvars, NULL); \
        ck_assert_msg(!st_, "run: %s", rdx_error_message());                               \
    } while (0)

START_TEST(example_add)
{
    cgb_target = cgb_run_targets[_i];
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
    cgb_target = cgb_run_targets[_i];
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
    cgb_target = cgb_run_targets[_i];
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
    cgb_target = cgb_run_targets[_i];
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
    cgb_target = cgb_run_targets[_i];
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
    cgb_target = cgb_run_targets[_i];
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

/* A loop over a symbolic bound (may be 0: the guard skips the body) and a MAX reduction. */
START_TEST(symbolic_loop)
{
    cgb_target = cgb_run_targets[_i];
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *k = cgb_parse_text(
        ctx, "%m = DEFINE_VAR name=\"m\" min=0 max=50\n%r = CONST dtype=index value=9\n"
             "%c = CONST dtype=index value=50\n%shi = STACK %r, %c\n%sho = STACK %r\n"
             "%in = PARAM %shi slot=0 dtype=float32 addr=global\n"
             "%out = PARAM %sho slot=1 dtype=float32 addr=global\n"
             "%out2 = PARAM %sho slot=2 dtype=int32 addr=global\n"
             "%i = RANGE %r axis=0 type=GLOBAL\n%j = RANGE %m axis=1 type=REDUCE\n"
             "%ix = INDEX %in, %i, %j\n%v = LOAD %ix\n%mx = REDUCE %v, %j op=MAX axes=()\n"
             "%j2 = RANGE %m axis=2 type=LOOP\n%ji = CAST %j2 dtype=int32\n"
             "%cnt = REDUCE %ji, %j2 op=ADD axes=()\n"
             "%io = INDEX %out, %i\n%st = STORE %io, %mx\n%io2 = INDEX %out2, %i\n"
             "%st2 = STORE %io2, %cnt\n%g = GROUP %st, %st2\n%e = END %g, %i\n%k = SINK %e\n");
    enum { R = 9, C = 50 };
    float *in = malloc(R * C * 4), *out = calloc(R, 4);
    int32_t *out2 = calloc(R, 4);
    for (int i = 0; i < R * C; i++)
        in[i] = (float)((i * 37) % 101) - 50.0f;
    static const int64_t ms[] = { 0, 1, 17, 50 };
    for (size_t t = 0; t < 4; t++) {
        int64_t m = ms[t];
        void *bufs[3] = { in, out, out2 };
        size_t sizes[3] = { R * C * 4, R * 4, R * 4 };
        rdx_status st = cgb_run(ctx, k, NULL, bufs, sizes, NULL, &m, 1, NULL);
        ck_assert_msg(!st, "m=%lld: %s", (long long)m, rdx_error_message());
        for (int i = 0; i < R; i++) {
            float e = -INFINITY;
            for (int j = 0; j < m; j++)
                e = in[i * C + j] > e ? in[i * C + j] : e;
            ck_assert_msg(out[i] == e, "m=%lld out[%d] = %g, expected %g", (long long)m, i, out[i],
                          e);
            ck_assert_int_eq(out2[i], (int32_t)(m * (m - 1) / 2));
        }
    }
    free(in), free(out), free(out2);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

/* Three GLOBAL dimensions (workgroup ids x, y, z; thread ids packed in v0) and one LOCAL
   split in the SPECIAL form with two dimensions. */
START_TEST(three_dims)
{
    cgb_target = cgb_run_targets[_i];
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *k = cgb_parse_text(
        ctx, "%a = CONST dtype=index value=5\n%b = CONST dtype=index value=7\n"
             "%c = CONST dtype=index value=9\n%sh = STACK %a, %b, %c\n"
             "%o = PARAM %sh slot=0 dtype=int32 addr=global\n"
             "%i = RANGE %a axis=0 type=GLOBAL\n%j = RANGE %b axis=1 type=GLOBAL\n"
             "%k = RANGE %c axis=2 type=GLOBAL\n%c100 = CONST dtype=index value=100\n"
             "%c10 = CONST dtype=index value=10\n%i1 = MUL %i, %c100\n%j1 = MUL %j, %c10\n"
             "%s1 = ADD %i1, %j1\n%s2 = ADD %s1, %k\n%v = CAST %s2 dtype=int32\n"
             "%x = INDEX %o, %i, %j, %k\n%st = STORE %x, %v\n%e = END %st, %i, %j, %k\n"
             "%r = SINK %e\n");
    int32_t out[5 * 7 * 9];
    memset(out, 0xff, sizeof out);
    void *bufs[1] = { out };
    size_t sizes[1] = { sizeof out };
    rdx_codegen_options o;
    memset(&o, 0, sizeof o);
    o.wg_size = 16; /* small workgroups: several in every dimension */
    ck_assert_msg(!cgb_run(ctx, k, &o, bufs, sizes, NULL, NULL, 0, NULL), "%s",
                  rdx_error_message());
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 7; j++)
            for (int kk = 0; kk < 9; kk++)
                ck_assert_int_eq(out[(i * 7 + j) * 9 + kk], i * 100 + j * 10 + kk);
    const rdx_uop *k2 = cgb_parse_text(
        ctx,
        "%g0 = CONST dtype=index value=3\n%l0 = CONST dtype=index value=8\n"
        "%g1 = CONST dtype=index value=4\n%l1 = CONST dtype=index value=2\n"
        "%n0 = CONST dtype=index value=24\n%n1 = CONST dtype=index value=8\n"
        "%sh = STACK %n1, %n0\n%o = PARAM %sh slot=0 dtype=int32 addr=global\n"
        "%gx = SPECIAL %g0 str=\"gidx0\"\n%lx = SPECIAL %l0 str=\"lidx0\"\n"
        "%gy = SPECIAL %g1 str=\"gidx1\"\n%ly = SPECIAL %l1 str=\"lidx1\"\n"
        "%x0 = MUL %gx, %l0\n%x = ADD %x0, %lx\n%y0 = MUL %gy, %l1\n%y = ADD %y0, %ly\n"
        "%c1000 = CONST dtype=index value=1000\n%v0 = MUL %y, %c1000\n%v1 = ADD %v0, %x\n"
        "%v = CAST %v1 dtype=int32\n%ix = INDEX %o, %y, %x\n%st = STORE %ix, %v\n%r = SINK %st\n");
    int32_t o2[8 * 24];
    memset(o2, 0xff, sizeof o2);
    bufs[0] = o2;
    sizes[0] = sizeof o2;
    ck_assert_msg(!cgb_run(ctx, k2, NULL, bufs, sizes, NULL, NULL, 0, NULL), "%s",
                  rdx_error_message());
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 24; x++)
            ck_assert_int_eq(o2[y * 24 + x], y * 1000 + x);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

static void target_reset(void)
{
    cgb_target = NULL; /* the other cases compile for the default target */
}

TCase *cgb_tcase_examples(void)
{
    TCase *tc = tcase_create("examples");
    tcase_add_checked_fixture(tc, NULL, target_reset);
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, example_add, 0, CGB_RUN_TARGETS);
    tcase_add_loop_test(tc, example_saxpy, 0, CGB_RUN_TARGETS);
    tcase_add_loop_test(tc, example_sum, 0, CGB_RUN_TARGETS);
    tcase_add_loop_test(tc, example_matmul, 0, CGB_RUN_TARGETS);
    tcase_add_loop_test(tc, example_gated, 0, CGB_RUN_TARGETS);
    tcase_add_loop_test(tc, example_lds_reduce, 0, CGB_RUN_TARGETS);
    tcase_add_loop_test(tc, symbolic_loop, 0, CGB_RUN_TARGETS);
    tcase_add_loop_test(tc, three_dims, 0, CGB_RUN_TARGETS);
    return tc;
}
