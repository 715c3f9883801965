/* tests/codegen_front/e2e_test.c — the whole path on the emulated GPU:
 * tensor graph → schedule (front end) → back end → emulator, compared with
 * the reference interpreter; raw kernels and with the heuristics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/codegen_front/cgf_test.h"

#define F32 rdx_dtype_of(RDX_FLOAT32)
#define I32 rdx_dtype_of(RDX_INT32)

static void e2e(rdx_graph *g, const rdx_tensor *const *roots, size_t n, const char *what)
{
    for (int mode = 0; mode < 2; mode++) {
        cgf_run r = { 0 };
        r.on_emu = 1;
        r.mode = mode ? CGF_HEURISTIC : CGF_RAW;
        r.tol = 1e-4;
        cgf_check(g, roots, n, &r);
        if (getenv("CGF_DEBUG"))
            fprintf(stderr, "e2e %-12s %s: %zu kernels, %llu cycles\n", what,
                    mode ? "heuristic" : "raw", r.nkernels, (unsigned long long)r.cycles);
    }
}

START_TEST(e2e_elementwise)
{
    uint64_t seed = 31;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *a = cgf_random(g, F32, 2, (int64_t[]){ 33, 40 }, &seed);
    const rdx_tensor *b = cgf_random(g, F32, 1, (int64_t[]){ 40 }, &seed);
    const rdx_tensor *t = rdx_tensor_add(g, rdx_tensor_mul(g, a, b), rdx_tensor_const(g, F32, 2));
    e2e(g, &t, 1, "ew");
    const rdx_tensor *ia = cgf_random(g, I32, 1, (int64_t[]){ 1000 }, &seed);
    const rdx_tensor *it = rdx_tensor_mul(g, rdx_tensor_adds(g, ia, 3), ia);
    e2e(g, &it, 1, "ew-int");
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(e2e_movement)
{
    uint64_t seed = 32;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *a = cgf_random(g, F32, 3, (int64_t[]){ 3, 5, 7 }, &seed);
    const rdx_tensor *ts[] = {
        rdx_tensor_pad(g, rdx_tensor_transpose(g, a, 0, 2), (int64_t[]){ 1, 0, 2 },
                       (int64_t[]){ 2, 1, 0 }, -1.0),
        rdx_tensor_reshape(g, rdx_tensor_permute(g, a, (int[]){ 2, 0, 1 }), 2,
                           (int64_t[]){ 35, 3 }),
        /* FLIP is left out: its index (e.g. 98 - 7r + j) has a negative non-constant part,
           which the back end uses as an unsigned VGPR offset after folding the constant
           (codegen/isel_mem.c address()): a VM fault; reported to cg-back */
        rdx_tensor_cat(g, (const rdx_tensor *[]){ a, a }, 2, 1),
    };
    for (size_t i = 0; i < sizeof ts / sizeof *ts; i++)
        e2e(g, &ts[i], 1, "movement");
    /* multi-output kernels: two elementwise results, two row reductions */
    const rdx_tensor *b = cgf_random(g, F32, 3, (int64_t[]){ 3, 5, 7 }, &seed);
    const rdx_tensor *mo[4] = { rdx_tensor_add(g, a, b), rdx_tensor_mul(g, a, b),
                                rdx_tensor_max(g, a, 1, (int[]){ 2 }, 0),
                                rdx_tensor_sum(g, a, 1, (int[]){ 2 }, 0) };
    e2e(g, mo, 4, "multi-out");
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(e2e_reductions)
{
    uint64_t seed = 33;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *a = cgf_random(g, F32, 2, (int64_t[]){ 37, 129 }, &seed);
    const rdx_tensor *ts[] = {
        rdx_tensor_sum(g, a, 1, (int[]){ 1 }, 0),
        rdx_tensor_max(g, a, 1, (int[]){ 0 }, 0),
        rdx_tensor_sum(g, a, 0, NULL, 0),
        rdx_tensor_softmax(g, a, 1),
    };
    for (size_t i = 0; i < sizeof ts / sizeof *ts; i++)
        e2e(g, &ts[i], 1, "reduce");
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(e2e_group_reduce)
{
    uint64_t seed = 35;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, F32, 1, (int64_t[]){ 20000 }, &seed);
    const rdx_tensor *t = rdx_tensor_sum(g, x, 0, NULL, 0);
    e2e(g, &t, 1, "sum-20000");
    const rdx_tensor *xi = cgf_random(g, I32, 2, (int64_t[]){ 2, 4096 }, &seed);
    const rdx_tensor *ti = rdx_tensor_max(g, xi, 1, (int[]){ 1 }, 0);
    e2e(g, &ti, 1, "max-2x4096");
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(e2e_matmul_mlp)
{
    uint64_t seed = 34;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *A = cgf_random(g, F32, 2, (int64_t[]){ 32, 24 }, &seed);
    const rdx_tensor *B = cgf_random(g, F32, 2, (int64_t[]){ 24, 48 }, &seed);
    const rdx_tensor *mm = rdx_tensor_matmul(g, A, B);
    e2e(g, &mm, 1, "matmul");
    const rdx_tensor *A2 = cgf_random(g, F32, 2, (int64_t[]){ 32, 16 }, &seed);
    const rdx_tensor *B2 = cgf_random(g, F32, 2, (int64_t[]){ 16, 64 }, &seed);
    const rdx_tensor *mm2 = rdx_tensor_matmul(g, A2, B2);
    e2e(g, &mm2, 1, "matmul-64");
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 8, 12 }, &seed);
    const rdx_tensor *w1 = cgf_random(g, F32, 2, (int64_t[]){ 12, 16 }, &seed);
    const rdx_tensor *w2 = cgf_random(g, F32, 2, (int64_t[]){ 16, 4 }, &seed);
    int32_t tv[8] = { 0, 1, 2, 3, 3, 2, 1, 0 };
    const rdx_tensor *tgt = rdx_tensor_from_data(g, I32, 1, (int64_t[]){ 8 }, tv);
    const rdx_tensor *h = rdx_tensor_relu(g, rdx_tensor_matmul(g, x, w1));
    const rdx_tensor *loss = rdx_tensor_cross_entropy(g, rdx_tensor_matmul(g, h, w2), tgt);
    const rdx_tensor *params[2] = { w1, w2 }, *grads[2];
    ck_assert_int_eq(rdx_gradient(g, loss, params, 2, grads), RDX_OK);
    const rdx_tensor *roots[3] = { loss, grads[0], grads[1] };
    e2e(g, roots, 3, "mlp");
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(e2e_beam)
{
    uint64_t seed = 36;
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_tensor *A = cgf_random(g, F32, 2, (int64_t[]){ 16, 8 }, &seed);
    const rdx_tensor *B = cgf_random(g, F32, 2, (int64_t[]){ 8, 32 }, &seed);
    const rdx_tensor *t = rdx_tensor_matmul(g, A, B);
    rdx_schedule *s;
    ck_assert_int_eq(rdx_cg_schedule(ctx, &t, 1, &s), RDX_OK);
    const rdx_uop *k, *e;
    ck_assert_int_eq(rdx_cg_axis_types(ctx, s->kernels[0].sink, &k), RDX_OK);
    ck_assert_int_eq(rdx_cg_expand(ctx, k, &e), RDX_OK);
    double base, cost;
    rdx_opt best[16];
    size_t nb;
    cgf_beam_on_emu(ctx, k, e, 2, 2, best, &nb, &base, &cost);
    ck_assert(cost <= base);
    rdx_schedule_free(s);
    /* the found opts still compute the product, on the emulator */
    cgf_run r = { .mode = CGF_OPTS, .opts = best, .nopts = nb, .on_emu = 1, .tol = 1e-4 };
    cgf_check(g, &t, 1, &r);
    if (getenv("CGF_DEBUG"))
        fprintf(stderr, "beam on the emulator: %.0f -> %.0f cycles, %zu opts\n", base, cost, nb);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(e2e_symbolic)
{
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_uop *n = rdx_graph_var(g, "n", 1, 300);
    const rdx_uop *dims[2] = { n, rdx_ir_int(ctx, 4) };
    const rdx_tensor *x = rdx_tensor_empty_sym(g, F32, 2, dims);
    const rdx_tensor *roots[2] = { rdx_tensor_adds(g, rdx_tensor_muls(g, x, 3), 1),
                                   rdx_tensor_sum(g, x, 1, (int[]){ 0 }, 0) };
    static const int64_t vals[] = { 1, 7, 257 };
    for (size_t i = 0; i < 3; i++) {
        int64_t v = vals[i];
        float *d = malloc((size_t)v * 4 * sizeof *d);
        for (int64_t k = 0; k < v * 4; k++)
            d[k] = (float)(k % 13) * 0.5f - 2.0f;
        ck_assert_int_eq(rdx_interp_bind(rdx_graph_interp(g), x, d, (size_t)v * 16), RDX_OK);
        free(d);
        for (int mode = 0; mode < 2; mode++) {
            cgf_run r = { 0 };
            r.vars = &n;
            r.varvals = &v;
            r.nvars = 1;
            r.on_emu = 1;
            r.mode = mode ? CGF_HEURISTIC : CGF_RAW;
            r.tol = 1e-4;
            cgf_check(g, roots, 2, &r);
        }
    }
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(e2e_tensor_cores)
{
    uint64_t seed = 37;
    rdx_graph *g = cgf_graph();
    rdx_opt tc[1] = { { RDX_OPTOP_TC, 2, 0, RDX_AXIS_WARP, 0 } };
    static const rdx_scalar types[2] = { RDX_FLOAT16, RDX_BFLOAT16 };
    for (int ti = 0; ti < 2; ti++) {
        rdx_dtype h = rdx_dtype_of(types[ti]);
        const rdx_tensor *A = cgf_random(g, h, 2, (int64_t[]){ 32, 48 }, &seed);
        const rdx_tensor *B = cgf_random(g, h, 2, (int64_t[]){ 48, 64 }, &seed);
        /* a half matmul, and a float32-accumulated one with a fused relu */
        const rdx_tensor *roots[2] = {
            rdx_tensor_matmul(g, A, B),
            rdx_tensor_relu(
                g, rdx_tensor_matmul(g, rdx_tensor_cast(g, A, F32), rdx_tensor_cast(g, B, F32))),
        };
        for (int r = 0; r < 2; r++) {
            cgf_run run = { 0 };
            run.mode = CGF_OPTS;
            run.opts = tc;
            run.nopts = 1;
            run.on_emu = 1;
            /* root 0: the interpreter accumulates 48 products sequentially in the half
               dtype (partial sums near 16 have an ulp of 1/64 in float16, 1/8 in
               bfloat16), WMMA in float32: compare loosely; root 1 accumulates in float32 */
            run.tol = r ? 1e-3 : ti ? 0.6 : 0.1;
            cgf_check(g, &roots[r], 1, &run);
            if (getenv("CGF_DEBUG"))
                fprintf(stderr, "e2e TC %s %d: %llu cycles\n", ti ? "bf16" : "f16", r,
                        (unsigned long long)run.cycles);
        }
    }
    /* TC refuses sizes that are not multiples of 16 */
    const rdx_tensor *A = cgf_random(g, rdx_dtype_of(RDX_FLOAT16), 2, (int64_t[]){ 20, 16 }, &seed);
    const rdx_tensor *B = cgf_random(g, rdx_dtype_of(RDX_FLOAT16), 2, (int64_t[]){ 16, 16 }, &seed);
    const rdx_tensor *t = rdx_tensor_matmul(g, A, B);
    rdx_schedule *s;
    ck_assert_int_eq(rdx_cg_schedule(rdx_graph_ir(g), &t, 1, &s), RDX_OK);
    const rdx_uop *o;
    ck_assert_int_eq(rdx_cg_optimize(rdx_graph_ir(g), s->kernels[0].sink, tc, 1, &o),
                     RDX_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "not a multiple of 16"));
    /* the heuristics pick TC for a half matmul */
    {
        const rdx_tensor *H =
            cgf_random(g, rdx_dtype_of(RDX_FLOAT16), 2, (int64_t[]){ 16, 32 }, &seed);
        const rdx_tensor *hm = rdx_tensor_matmul(g, H, rdx_tensor_transpose(g, H, 0, 1));
        rdx_schedule *s2;
        ck_assert_int_eq(rdx_cg_schedule(rdx_graph_ir(g), &hm, 1, &s2), RDX_OK);
        const rdx_uop *k2;
        rdx_opt h[16];
        size_t nh;
        ck_assert_int_eq(rdx_cg_axis_types(rdx_graph_ir(g), s2->kernels[0].sink, &k2), RDX_OK);
        ck_assert_int_eq(rdx_cg_heuristic(k2, h, 16, &nh), RDX_OK);
        ck_assert_uint_eq(nh, 1);
        ck_assert_int_eq(h[0].op, RDX_OPTOP_TC);
        rdx_schedule_free(s2);
        cgf_run hr = { 0 };
        hr.mode = CGF_HEURISTIC;
        hr.on_emu = 1;
        hr.tol = 0.1;
        cgf_check(g, &hm, 1, &hr);
    }
    rdx_schedule_free(s);
    rdx_graph_destroy(g);
}
END_TEST

TCase *cgf_tcase_e2e(void)
{
    TCase *tc = tcase_create("e2e");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, e2e_elementwise);
    tcase_add_test(tc, e2e_movement);
    tcase_add_test(tc, e2e_reductions);
    tcase_add_test(tc, e2e_matmul_mlp);
    tcase_add_test(tc, e2e_group_reduce);
    tcase_add_test(tc, e2e_beam);
    tcase_add_test(tc, e2e_symbolic);
    tcase_add_test(tc, e2e_tensor_cores);
    return tc;
}
