/* tests/codegen_front/tc_test.c — the TC OptOp with a K loop on the emulated GPU: float16 and
 * bfloat16 matmuls (K from one tile to 1024), several tilings (tiles per wave, waves per
 * workgroup, K unrolling), batched matmuls, a fused epilogue; each output compared with the
 * reference interpreter.  Kernels that do not fit fall back with a clear reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codegen.h>

#include "tests/codegen_front/cgf_test.h"
#include "util/error.h"

#define F32 rdx_dtype_of(RDX_FLOAT32)

/* Run t (one kernel) with TC(amount) on the emulator against the interpreter. */
static uint64_t run_tc(rdx_graph *g, const rdx_tensor *t, int axis, int64_t amount, double tol)
{
    rdx_opt tc[1] = { { RDX_OPTOP_TC, axis, amount, RDX_AXIS_WARP, 0 } };
    cgf_run run = { 0 };
    run.mode = CGF_OPTS;
    run.opts = tc;
    run.nopts = 1;
    run.on_emu = 1;
    run.tol = tol;
    cgf_check(g, &t, 1, &run);
    return run.cycles;
}

/* float32-accumulated matmul of random half inputs (compares tightly: WMMA accumulates in
   float32 too, only the summation order differs) */
static const rdx_tensor *mm32(rdx_graph *g, rdx_dtype h, int64_t M, int64_t K, int64_t N,
                              uint64_t *seed)
{
    const rdx_tensor *A = cgf_random(g, h, 2, (int64_t[]){ M, K }, seed);
    const rdx_tensor *B = cgf_random(g, h, 2, (int64_t[]){ K, N }, seed);
    return rdx_tensor_matmul(g, rdx_tensor_cast(g, A, F32), rdx_tensor_cast(g, B, F32));
}

START_TEST(tc_k_loop)
{
    uint64_t seed = 91;
    static const rdx_scalar types[2] = { RDX_FLOAT16, RDX_BFLOAT16 };
    static const int64_t ks[4] = { 16, 48, 512, 1024 };
    for (int ti = 0; ti < 2; ti++)
        for (int ki = 0; ki < 4; ki++) {
            rdx_graph *g = cgf_graph();
            int64_t M = ks[ki] >= 512 ? 64 : 32, N = 32;
            const rdx_tensor *t = mm32(g, rdx_dtype_of(types[ti]), M, ks[ki], N, &seed);
            uint64_t c = run_tc(g, t, 2, 0, 1e-3);
            if (getenv("CGF_DEBUG"))
                fprintf(stderr, "TC %s %lldx%lldx%lld: %llu cycles\n", ti ? "bf16" : "f16",
                        (long long)M, (long long)ks[ki], (long long)N, (unsigned long long)c);
            rdx_graph_destroy(g);
        }
}
END_TEST

START_TEST(tc_tilings)
{
    uint64_t seed = 5;
    rdx_graph *g = cgf_graph();
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
    const rdx_tensor *t = mm32(g, h, 64, 64, 64, &seed);
    static const int64_t tl[][5] = { { 1, 1, 1, 1, 1 }, { 2, 2, 1, 1, 2 }, { 4, 1, 1, 1, 4 },
                                     { 1, 4, 1, 1, 1 }, { 2, 1, 2, 2, 1 }, { 1, 2, 4, 1, 2 },
                                     { 4, 2, 1, 2, 2 }, { 4, 2, 1, 1, 2 }, { 2, 4, 1, 1, 1 } };
    for (size_t i = 0; i < sizeof tl / sizeof tl[0]; i++) {
        uint64_t c =
            run_tc(g, t, 2, RDX_TC_TILING(tl[i][0], tl[i][1], tl[i][2], tl[i][3], tl[i][4]), 1e-3);
        if (getenv("CGF_DEBUG"))
            fprintf(stderr, "TC tiling %lld %lld %lld %lld %lld: %llu cycles\n",
                    (long long)tl[i][0], (long long)tl[i][1], (long long)tl[i][2],
                    (long long)tl[i][3], (long long)tl[i][4], (unsigned long long)c);
    }
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(tc_half_out)
{
    uint64_t seed = 17;
    rdx_graph *g = cgf_graph();
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
    const rdx_tensor *A = cgf_random(g, h, 2, (int64_t[]){ 64, 64 }, &seed);
    const rdx_tensor *B = cgf_random(g, h, 2, (int64_t[]){ 64, 64 }, &seed);
    /* half output of 8 tiles per wave: the epilogue's casts land in VGPRs >= 128 */
    run_tc(g, rdx_tensor_matmul(g, A, B), 2, 0, 0.1);
    rdx_graph_destroy(g);
}
END_TEST

/* The heuristics' opts for the (single) kernel of t. */
static size_t heuristic_of(rdx_graph *g, const rdx_tensor *t, rdx_opt *h)
{
    rdx_schedule *s;
    const rdx_uop *k;
    size_t nh = 0;
    ck_assert_int_eq(rdx_cg_schedule(rdx_graph_ir(g), &t, 1, &s), RDX_OK);
    ck_assert_uint_eq(s->nkernels, 1);
    ck_assert_int_eq(rdx_cg_axis_types(rdx_graph_ir(g), s->kernels[0].sink, &k), RDX_OK);
    ck_assert_int_eq(rdx_cg_heuristic(k, h, 16, &nh), RDX_OK);
    rdx_schedule_free(s);
    return nh;
}

START_TEST(tc_batched)
{
    uint64_t seed = 23;
    static const rdx_scalar types[2] = { RDX_FLOAT16, RDX_BFLOAT16 };
    for (int ti = 0; ti < 2; ti++) {
        rdx_graph *g = cgf_graph();
        rdx_dtype h = rdx_dtype_of(types[ti]);
        /* [3, 32, 48] @ [3, 48, 64]: the batch is a third GLOBAL axis (gidx2) */
        const rdx_tensor *A = cgf_random(g, h, 3, (int64_t[]){ 3, 32, 48 }, &seed);
        const rdx_tensor *B = cgf_random(g, h, 3, (int64_t[]){ 3, 48, 64 }, &seed);
        const rdx_tensor *t =
            rdx_tensor_matmul(g, rdx_tensor_cast(g, A, F32), rdx_tensor_cast(g, B, F32));
        rdx_opt o[16];
        ck_assert_uint_eq(heuristic_of(g, t, o), 1);
        ck_assert_int_eq(o[0].op, RDX_OPTOP_TC);
        ck_assert_int_eq(o[0].axis, 3);
        run_tc(g, t, 3, 0, 1e-3);
        run_tc(g, t, 3, RDX_TC_TILING(1, 2, 2, 1, 1), 1e-3);
        /* a batch only A has: [2, 32, 32] @ [32, 48] */
        const rdx_tensor *A2 = cgf_random(g, h, 3, (int64_t[]){ 2, 32, 32 }, &seed);
        const rdx_tensor *B2 = cgf_random(g, h, 2, (int64_t[]){ 32, 48 }, &seed);
        run_tc(g, rdx_tensor_matmul(g, rdx_tensor_cast(g, A2, F32), rdx_tensor_cast(g, B2, F32)), 3,
               0, 1e-3);
        rdx_graph_destroy(g);
    }
}
END_TEST

/* operand layouts: B transposed (its columns contiguous: b128 fragments), A transposed (u16
   fragments), and a fused epilogue reading a bias per column */
START_TEST(tc_layouts_epilogue)
{
    uint64_t seed = 29;
    rdx_graph *g = cgf_graph();
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
    const rdx_tensor *X = cgf_random(g, h, 2, (int64_t[]){ 64, 96 }, &seed);
    const rdx_tensor *W = cgf_random(g, h, 2, (int64_t[]){ 32, 96 }, &seed);
    const rdx_tensor *bias = cgf_random(g, F32, 1, (int64_t[]){ 32 }, &seed);
    /* relu(X @ W^T + bias): a linear layer */
    const rdx_tensor *lin = rdx_tensor_relu(
        g,
        rdx_tensor_add(g,
                       rdx_tensor_matmul(g, rdx_tensor_cast(g, X, F32),
                                         rdx_tensor_transpose(g, rdx_tensor_cast(g, W, F32), 0, 1)),
                       bias));
    run_tc(g, lin, 2, 0, 1e-3);
    run_tc(g, lin, 2, RDX_TC_TILING(2, 2, 1, 1, 2), 1e-3);
    /* X^T @ X: A read down its columns */
    const rdx_tensor *xtx = rdx_tensor_matmul(
        g, rdx_tensor_transpose(g, rdx_tensor_cast(g, X, F32), 0, 1), rdx_tensor_cast(g, X, F32));
    run_tc(g, xtx, 2, 0, 1e-3);
    rdx_graph_destroy(g);
}
END_TEST

/* A larger half matmul through the heuristics (TC with its default tiling and a K loop of 16
   iterations) on the emulator. */
START_TEST(tc_heuristic_large)
{
    uint64_t seed = 31;
    rdx_graph *g = cgf_graph();
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
    const rdx_tensor *A = cgf_random(g, h, 2, (int64_t[]){ 256, 512 }, &seed);
    const rdx_tensor *B = cgf_random(g, h, 2, (int64_t[]){ 512, 256 }, &seed);
    const rdx_tensor *t =
        rdx_tensor_matmul(g, rdx_tensor_cast(g, A, F32), rdx_tensor_cast(g, B, F32));
    rdx_opt o[16];
    ck_assert_uint_eq(heuristic_of(g, t, o), 1);
    ck_assert_int_eq(o[0].op, RDX_OPTOP_TC);
    cgf_run run = { 0 };
    run.mode = CGF_HEURISTIC;
    run.on_emu = 1;
    run.tol = 1e-3;
    cgf_check(g, &t, 1, &run);
    if (getenv("CGF_DEBUG"))
        fprintf(stderr, "TC heuristic 256x512x256: %llu cycles\n", (unsigned long long)run.cycles);
    rdx_graph_destroy(g);
}
END_TEST

static void expect_tc_error(rdx_graph *g, const rdx_tensor *t, int axis, int64_t amount,
                            const char *frag)
{
    rdx_schedule *s;
    const rdx_uop *k, *out;
    ck_assert_int_eq(rdx_cg_schedule(rdx_graph_ir(g), &t, 1, &s), RDX_OK);
    ck_assert_int_eq(rdx_cg_axis_types(rdx_graph_ir(g), s->kernels[s->nkernels - 1].sink, &k),
                     RDX_OK);
    rdx_opt o = { RDX_OPTOP_TC, axis, amount, RDX_AXIS_WARP, 0 };
    ck_assert_int_eq(rdx_cg_apply_opts(rdx_graph_ir(g), k, &o, 1, &out), RDX_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(rdx_error_message(), frag), "message '%s' lacks '%s'", rdx_error_message(),
                  frag);
    rdx_schedule_free(s);
}

/* Kernels TC does not fit are refused with the reason; the heuristics then fall back to the
   other opts and the result is still right. */
START_TEST(tc_fallbacks)
{
    uint64_t seed = 37;
    rdx_graph *g = cgf_graph();
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
    const rdx_tensor *A = cgf_random(g, h, 2, (int64_t[]){ 32, 48 }, &seed);
    const rdx_tensor *B = cgf_random(g, h, 2, (int64_t[]){ 48, 32 }, &seed);
    /* sizes not multiples of 16 (M = 20, K = 24) */
    const rdx_tensor *odd = rdx_tensor_matmul(g, cgf_random(g, h, 2, (int64_t[]){ 20, 24 }, &seed),
                                              cgf_random(g, h, 2, (int64_t[]){ 24, 16 }, &seed));
    expect_tc_error(g, odd, 2, 0, "not a multiple of 16");
    /* ... which RDX_TC_PAD pads (PADTO 16: gated loads and stores); the heuristics use it */
    rdx_opt o[16];
    ck_assert_uint_eq(heuristic_of(g, odd, o), 1);
    ck_assert_int_eq(o[0].op, RDX_OPTOP_TC);
    ck_assert_int_eq(o[0].amount, RDX_TC_PAD);
    cgf_run run = { 0 };
    run.mode = CGF_HEURISTIC;
    run.on_emu = 1;
    run.tol = 0.1;
    cgf_check(g, &odd, 1, &run);
    /* padded M, N and K with float32 accumulation, several tilings, a batch */
    const rdx_tensor *podd = mm32(g, h, 60, 24, 36, &seed);
    run_tc(g, podd, 2, RDX_TC_PAD, 1e-3);
    run_tc(g, podd, 2, RDX_TC_PAD | RDX_TC_TILING(1, 1, 1, 1, 2), 1e-3);
    run_tc(g, podd, 2, RDX_TC_PAD | RDX_TC_TILING(2, 1, 2, 1, 1), 1e-3);
    const rdx_tensor *pb = rdx_tensor_matmul(
        g, rdx_tensor_cast(g, cgf_random(g, h, 3, (int64_t[]){ 2, 17, 33 }, &seed), F32),
        rdx_tensor_cast(g, cgf_random(g, h, 3, (int64_t[]){ 2, 33, 5 }, &seed), F32));
    run_tc(g, pb, 3, RDX_TC_PAD, 1e-3);
    /* float32 operands */
    const rdx_tensor *f32 =
        rdx_tensor_matmul(g, cgf_random(g, F32, 2, (int64_t[]){ 16, 16 }, &seed),
                          cgf_random(g, F32, 2, (int64_t[]){ 16, 16 }, &seed));
    expect_tc_error(g, f32, 2, 0, "must both be float16 or both bfloat16");
    /* mixed float16 and bfloat16 operands */
    const rdx_tensor *mixed = rdx_tensor_matmul(
        g, rdx_tensor_cast(g, A, F32),
        rdx_tensor_cast(
            g, cgf_random(g, rdx_dtype_of(RDX_BFLOAT16), 2, (int64_t[]){ 48, 32 }, &seed), F32));
    expect_tc_error(g, mixed, 2, 0, "must both be float16 or both bfloat16");
    /* a plain reduction, not a product of two operands */
    const rdx_tensor *sum = rdx_tensor_sum(g, A, 1, (int[]){ 1 }, 0);
    expect_tc_error(g, sum, 1, 0, "needs a kernel with two GLOBAL axes");
    /* a max-reduction of a product */
    const rdx_tensor *mx =
        rdx_tensor_max(g,
                       rdx_tensor_mul(g, rdx_tensor_reshape(g, A, 3, (int64_t[]){ 32, 48, 1 }),
                                      rdx_tensor_reshape(g, B, 3, (int64_t[]){ 1, 48, 32 })),
                       1, (int[]){ 1 }, 0);
    expect_tc_error(g, mx, 2, 0, "REDUCE(ADD) of a product");
    /* two batch axes: the fourth output axis stays a LOOP */
    const rdx_tensor *b2 =
        rdx_tensor_matmul(g, cgf_random(g, h, 4, (int64_t[]){ 2, 2, 16, 16 }, &seed),
                          cgf_random(g, h, 4, (int64_t[]){ 2, 2, 16, 16 }, &seed));
    expect_tc_error(g, b2, 4, 0, "an axis of another type");
    /* bad tilings */
    const rdx_tensor *mm = rdx_tensor_matmul(g, A, B);
    expect_tc_error(g, mm, 2, RDX_TC_TILING(3, 1, 1, 1, 1), "must be 1, 2, 4 or 8");
    expect_tc_error(g, mm, 2, RDX_TC_TILING(4, 4, 1, 1, 1), "more than 8 output tiles");
    expect_tc_error(g, mm, 2, RDX_TC_TILING(4, 1, 1, 1, 1), "tm*wm must divide M/16");
    expect_tc_error(g, mm, 2, RDX_TC_TILING(1, 1, 1, 1, 2), "ku K/16");
    expect_tc_error(g, mm, 2, -1, "bad tiling amount");
    expect_tc_error(g, mm, 1, 0, "needs a kernel with two GLOBAL axes");
    rdx_graph_destroy(g);
}
END_TEST

/* BEAM's first step offers the TC tilings; on a half matmul it picks one, at most as slow as
   the heuristics' default, and the result is right. */
START_TEST(tc_beam)
{
    uint64_t seed = 41;
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
    const rdx_tensor *t = mm32(g, h, 64, 64, 64, &seed);
    rdx_schedule *s;
    const rdx_uop *k, *o, *e;
    ck_assert_int_eq(rdx_cg_schedule(ctx, &t, 1, &s), RDX_OK);
    ck_assert_int_eq(rdx_cg_axis_types(ctx, s->kernels[0].sink, &k), RDX_OK);
    rdx_opt d = { RDX_OPTOP_TC, 2, 0, RDX_AXIS_WARP, 0 };
    double dcost, cost;
    ck_assert_int_eq(rdx_cg_apply_opts(ctx, k, &d, 1, &o), RDX_OK);
    ck_assert_int_eq(rdx_cg_expand(ctx, o, &e), RDX_OK);
    rdx_opt best[16];
    size_t nb;
    cgf_beam_on_emu(ctx, k, e, 2, 1, best, &nb, &dcost, &cost);
    ck_assert_uint_ge(nb, 1);
    ck_assert_int_eq(best[0].op, RDX_OPTOP_TC);
    ck_assert(cost <= dcost);
    rdx_schedule_free(s);
    cgf_run r = { .mode = CGF_OPTS, .opts = best, .nopts = nb, .on_emu = 1, .tol = 1e-3 };
    cgf_check(g, &t, 1, &r);
    if (getenv("CGF_DEBUG"))
        fprintf(stderr, "TC beam: default %.0f, best %.0f cycles (amount %llx)\n", dcost, cost,
                (unsigned long long)best[0].amount);
    rdx_graph_destroy(g);
}
END_TEST

/* The heuristics' TC (default tilings, padded or not) compiles for a spread of shapes: the
   tiling fits the 256 VGPRs. */
START_TEST(tc_default_shapes)
{
    static const int m16[] = { 1, 3, 4, 8 }, n16[] = { 1, 2, 3, 8 }, k16[] = { 1, 3, 64 };
    int n = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            for (int c = 0; c < 3; c++)
                for (int pad = 0; pad < 2; pad++) {
                    rdx_graph *g = cgf_graph();
                    rdx_ir_ctx *ctx = rdx_graph_ir(g);
                    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
                    int64_t M = 16 * m16[a] - 3 * pad, N = 16 * n16[b], K = 16 * k16[c] - 5 * pad;
                    const rdx_tensor *t =
                        rdx_tensor_matmul(g, rdx_tensor_empty(g, h, 2, (int64_t[]){ M, K }),
                                          rdx_tensor_empty(g, h, 2, (int64_t[]){ K, N }));
                    rdx_schedule *s;
                    const rdx_uop *k, *o;
                    rdx_opt h16[16];
                    size_t nh;
                    rdx_codegen_kernel *ck = NULL;
                    ck_assert_int_eq(rdx_cg_schedule(ctx, &t, 1, &s), RDX_OK);
                    ck_assert_int_eq(rdx_cg_axis_types(ctx, s->kernels[0].sink, &k), RDX_OK);
                    ck_assert_int_eq(rdx_cg_heuristic(k, h16, 16, &nh), RDX_OK);
                    ck_assert_int_eq(h16[0].op, RDX_OPTOP_TC);
                    ck_assert_int_eq(rdx_cg_optimize(ctx, s->kernels[0].sink, NULL, 0, &o), RDX_OK);
                    rdx_status st = rdx_codegen_compile(ctx, o, NULL, &ck);
                    ck_assert_msg(st == RDX_OK, "%lldx%lldx%lld: %s", (long long)M, (long long)K,
                                  (long long)N, rdx_error_message());
                    rdx_codegen_kernel_free(ck);
                    rdx_schedule_free(s);
                    rdx_graph_destroy(g);
                    n++;
                }
    ck_assert_int_eq(n, 96);
}
END_TEST

TCase *cgf_tcase_tc(void)
{
    TCase *tc = tcase_create("tc");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, tc_k_loop);
    tcase_add_test(tc, tc_tilings);
    tcase_add_test(tc, tc_half_out);
    tcase_add_test(tc, tc_batched);
    tcase_add_test(tc, tc_layouts_epilogue);
    tcase_add_test(tc, tc_heuristic_large);
    tcase_add_test(tc, tc_fallbacks);
    tcase_add_test(tc, tc_beam);
    tcase_add_test(tc, tc_default_shapes);
    return tc;
}
