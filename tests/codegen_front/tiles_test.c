/* tests/codegen_front/tiles_test.c — the heuristics' register tiles (upcast output axes,
 * unrolled reductions, workgroups) for reductions into several outputs, on the emulated
 * GPU against the reference interpreter: matmuls and convolutions of sizes the tiles fit
 * and of sizes they do not (1, primes, non-multiples), batched matmuls, row reductions;
 * the opts chosen for a tile-friendly matmul and convolution; the tiles beat the old
 * workgroup-only choice. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/codegen_front/cgf_test.h"

#define F32 rdx_dtype_of(RDX_FLOAT32)

/* Heuristic opts on the emulator vs the interpreter; returns the estimated cycles. */
static uint64_t on_emu(rdx_graph *g, const rdx_tensor *t, cgf_mode mode)
{
    cgf_run r = { 0 };
    r.on_emu = 1;
    r.mode = mode;
    r.tol = 1e-4;
    cgf_check(g, &t, 1, &r);
    return r.cycles;
}

static const rdx_tensor *mm(rdx_graph *g, int64_t m, int64_t k, int64_t n, uint64_t *seed)
{
    const rdx_tensor *a = cgf_random(g, F32, 2, (int64_t[]){ m, k }, seed);
    const rdx_tensor *b = cgf_random(g, F32, 2, (int64_t[]){ k, n }, seed);
    return rdx_tensor_matmul(g, a, b);
}

START_TEST(tiles_matmul_sizes)
{
    static const int64_t sizes[][3] = {
        { 64, 64, 64 }, { 1, 1, 1 },  { 7, 13, 5 },   { 17, 31, 3 },  { 33, 48, 20 },
        { 1, 40, 64 },  { 64, 9, 1 }, { 12, 100, 8 }, { 40, 17, 36 },
    };
    uint64_t seed = 81;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        rdx_graph *g = cgf_graph();
        const rdx_tensor *t = mm(g, sizes[i][0], sizes[i][1], sizes[i][2], &seed);
        uint64_t c = on_emu(g, t, CGF_HEURISTIC);
        if (getenv("CGF_DEBUG"))
            fprintf(stderr, "tiles matmul %lldx%lldx%lld: %llu cycles\n", (long long)sizes[i][0],
                    (long long)sizes[i][1], (long long)sizes[i][2], (unsigned long long)c);
        rdx_graph_destroy(g);
    }
}
END_TEST

START_TEST(tiles_batched_and_rows)
{
    uint64_t seed = 82;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *a = cgf_random(g, F32, 3, (int64_t[]){ 3, 8, 12 }, &seed);
    const rdx_tensor *b = cgf_random(g, F32, 3, (int64_t[]){ 3, 12, 16 }, &seed);
    on_emu(g, rdx_tensor_matmul(g, a, b), CGF_HEURISTIC);
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 13, 37 }, &seed);
    on_emu(g, rdx_tensor_sum(g, x, 1, (int[]){ 1 }, 0), CGF_HEURISTIC);
    const rdx_tensor *y = cgf_random(g, F32, 2, (int64_t[]){ 64, 100 }, &seed);
    on_emu(g, rdx_tensor_max(g, y, 1, (int[]){ 1 }, 0), CGF_HEURISTIC);
    /* a reduction whose terms are not plain products (no fma contraction) */
    const rdx_tensor *e =
        rdx_tensor_exp2(g, rdx_tensor_mul(g, rdx_tensor_reshape(g, x, 3, (int64_t[]){ 13, 37, 1 }),
                                          rdx_tensor_reshape(g, x, 3, (int64_t[]){ 1, 37, 13 })));
    on_emu(g, rdx_tensor_sum(g, e, 1, (int[]){ 1 }, 0), CGF_HEURISTIC);
    rdx_graph_destroy(g);
}
END_TEST

static const rdx_tensor *conv(rdx_graph *g, int64_t n, int64_t c, int64_t h, int64_t w, int64_t o,
                              int64_t k, int64_t pad, uint64_t *seed)
{
    const rdx_tensor *x = cgf_random(g, F32, 4, (int64_t[]){ n, c, h, w }, seed);
    const rdx_tensor *wt = cgf_random(g, F32, 4, (int64_t[]){ o, c, k, k }, seed);
    rdx_conv_opts opt = { { 1, 1 }, { pad, pad }, { 1, 1 }, 1 };
    return rdx_tensor_conv2d(g, x, wt, NULL, &opt);
}

START_TEST(tiles_conv_sizes)
{
    static const int64_t sizes[][7] = {
        /* n, c, h, w, o, k, pad */
        { 1, 8, 16, 16, 8, 3, 1 }, { 1, 3, 7, 9, 5, 3, 1 },   { 2, 4, 5, 5, 3, 3, 0 },
        { 1, 5, 6, 10, 4, 1, 0 },  { 1, 2, 11, 13, 7, 3, 1 },
    };
    uint64_t seed = 83;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        const int64_t *s = sizes[i];
        rdx_graph *g = cgf_graph();
        const rdx_tensor *t = conv(g, s[0], s[1], s[2], s[3], s[4], s[5], s[6], &seed);
        uint64_t c = on_emu(g, t, CGF_HEURISTIC);
        if (getenv("CGF_DEBUG"))
            fprintf(stderr, "tiles conv %zu: %llu cycles\n", i, (unsigned long long)c);
        rdx_graph_destroy(g);
    }
}
END_TEST

/* The opts the heuristic picks for the (only) kernel of t. */
static size_t heuristic_of(rdx_graph *g, const rdx_tensor *t, rdx_opt *h, const rdx_uop **typed)
{
    rdx_schedule *s = NULL;
    ck_assert_int_eq(rdx_cg_schedule(rdx_graph_ir(g), &t, 1, &s), RDX_OK);
    ck_assert_uint_eq(s->nkernels, 1);
    ck_assert_int_eq(rdx_cg_axis_types(rdx_graph_ir(g), s->kernels[0].sink, typed), RDX_OK);
    size_t nh = 0;
    ck_assert_int_eq(rdx_cg_heuristic(*typed, h, 16, &nh), RDX_OK);
    rdx_schedule_free(s);
    return nh;
}

static int has(const rdx_opt *h, size_t n, int axis, int64_t amount, rdx_axistype t)
{
    for (size_t i = 0; i < n; i++)
        if (h[i].op == RDX_OPTOP_SPLIT && h[i].axis == axis && h[i].amount == amount &&
            h[i].target == t)
            return 1;
    return 0;
}

START_TEST(tiles_choice)
{
    uint64_t seed = 84;
    rdx_graph *g = cgf_graph();
    rdx_opt h[16];
    const rdx_uop *k;
    /* matmul: axes 0 = m, 1 = n (GLOBAL), 2 = k (REDUCE): 4x4 outputs per work-item,
       a 16x16 workgroup (256^2 outputs: 4096 work-items remain), the tiles staged through
       LDS 16 deep: k unrolled by 16 (8 for the register tiles alone; the staged tile's
       depth doubled while 16 x k <= 256 updates and staging still pays) */
    size_t nh = heuristic_of(g, mm(g, 256, 64, 256, &seed), h, &k);
    ck_assert(has(h, nh, 1, 4, RDX_AXIS_UPCAST));
    ck_assert(has(h, nh, 0, 4, RDX_AXIS_UPCAST));
    ck_assert(has(h, nh, 2, 16, RDX_AXIS_UNROLL));
    ck_assert(nh > 0 && h[nh - 1].op == RDX_OPTOP_LDS);
    ck_assert(has(h, nh, 1, 16, RDX_AXIS_LOCAL));
    ck_assert(has(h, nh, 0, 16, RDX_AXIS_LOCAL));
    /* they apply */
    const rdx_uop *o;
    ck_assert_int_eq(rdx_cg_apply_opts(rdx_graph_ir(g), k, h, nh, &o), RDX_OK);
    /* prime sizes: nothing divides, no split at all */
    nh = heuristic_of(g, mm(g, 7, 13, 5, &seed), h, &k);
    ck_assert_uint_eq(nh, 1);
    ck_assert(has(h, nh, 2, 13, RDX_AXIS_UNROLL)); /* a short reduction is unrolled fully */
    /* conv 3x3: the 9 taps unrolled, the output pixels upcast (64 x 32 x 32 outputs: the
       4x4 tile leaves 4096 work-items) */
    const rdx_tensor *c = conv(g, 1, 16, 32, 32, 64, 3, 1, &seed);
    nh = heuristic_of(g, c, h, &k);
    int unroll9 = 0, upcasts = 0;
    for (size_t i = 0; i < nh; i++) {
        unroll9 |= h[i].target == RDX_AXIS_UNROLL && h[i].amount == 9;
        upcasts += h[i].target == RDX_AXIS_UPCAST;
    }
    ck_assert(unroll9);
    ck_assert_int_eq(upcasts, 2);
    rdx_graph_destroy(g);
}
END_TEST

/* The tiles must beat the plain heuristics of before (workgroup tiles only): a 64^3 matmul
   with LOCAL 16x16 + UPCAST 4 + UNROLL 4 (the old choice) against the new one. */
START_TEST(tiles_faster)
{
    uint64_t seed = 85;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *t = mm(g, 64, 64, 64, &seed);
    cgf_run r = { 0 };
    r.on_emu = 1;
    r.mode = CGF_OPTS;
    r.tol = 1e-4;
    rdx_opt old[] = {
        { RDX_OPTOP_SPLIT, 2, 4, RDX_AXIS_UNROLL, 0 },
        { RDX_OPTOP_SPLIT, 1, 4, RDX_AXIS_UPCAST, 0 },
        { RDX_OPTOP_SPLIT, 1, 16, RDX_AXIS_LOCAL, 0 },
        { RDX_OPTOP_SPLIT, 0, 16, RDX_AXIS_LOCAL, 0 },
    };
    r.opts = old;
    r.nopts = 4;
    cgf_check(g, &t, 1, &r);
    uint64_t before = r.cycles, now = on_emu(g, t, CGF_HEURISTIC);
    if (getenv("CGF_DEBUG"))
        fprintf(stderr, "tiles 64^3: old opts %llu cycles, heuristic %llu\n",
                (unsigned long long)before, (unsigned long long)now);
    ck_assert_uint_lt(now, before);
    rdx_graph_destroy(g);
}
END_TEST

/* Elementwise upcast: a light kernel is upcast by 4, a transcendental-heavy one (sin: its
   Payne-Hanek reduction, hundreds of nodes) is not (4 copies made 30 KB of code and
   15 ms of compile time over 1M elements, and ran slower on the emulator) */
static size_t upcasts(rdx_graph *g, const rdx_tensor *t)
{
    rdx_schedule *s = NULL;
    ck_assert_int_eq(rdx_cg_schedule(rdx_graph_ir(g), &t, 1, &s), RDX_OK);
    ck_assert_uint_eq(s->nkernels, 1);
    const rdx_uop *k;
    ck_assert_int_eq(rdx_cg_axis_types(rdx_graph_ir(g), s->kernels[0].sink, &k), RDX_OK);
    rdx_schedule_free(s);
    rdx_opt h[16];
    size_t nh = 0, up = 0;
    ck_assert_int_eq(rdx_cg_heuristic(k, h, 16, &nh), RDX_OK);
    for (size_t i = 0; i < nh; i++)
        up += h[i].op == RDX_OPTOP_SPLIT && h[i].target == RDX_AXIS_UPCAST;
    return up;
}

START_TEST(upcast_only_light_elementwise)
{
    rdx_graph *g = cgf_graph();
    const int64_t n = 1 << 20;
    const rdx_tensor *x = rdx_tensor_empty(g, F32, 1, &n);
    ck_assert_uint_eq(upcasts(g, rdx_tensor_adds(g, rdx_tensor_muls(g, x, 2), 1)), 1);
    ck_assert_uint_eq(upcasts(g, rdx_tensor_exp(g, x)), 1);
    ck_assert_uint_eq(upcasts(g, rdx_tensor_sin(g, x)), 0);
    rdx_graph_destroy(g);
}
END_TEST

TCase *cgf_tcase_tiles(void)
{
    TCase *tc = tcase_create("tiles");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, tiles_matmul_sizes);
    tcase_add_test(tc, tiles_batched_and_rows);
    tcase_add_test(tc, tiles_conv_sizes);
    tcase_add_test(tc, tiles_choice);
    tcase_add_test(tc, tiles_faster);
    tcase_add_test(tc, upcast_only_light_elementwise);
    return tc;
}
