/* tests/codegen_front/split_reduce_test.c — the scheduler's split of large reductions
 * into two kernels (codegen/split_reduce.c) and the heuristics' grouped reductions
 * (codegen/opt_heuristic.c): every reduce op and dtype class against the reference
 * interpreter (host evaluator, and on the emulated GPU), the kernel count telling
 * whether a split happened; sizes that are 1, prime, not divisible by 8..1024, or
 * symbolic are never split; the opts chosen for row reductions and whole-tensor sums. */
#include <stdio.h>
#include <stdlib.h>

#include "codegen/front_internal.h"
#include "tests/codegen_front/cgf_test.h"

#define F32 rdx_dtype_of(RDX_FLOAT32)

typedef enum { R_SUM, R_MAX, R_MIN, R_PROD } red_kind;

static const rdx_tensor *reduce(rdx_graph *g, red_kind k, const rdx_tensor *x, uint32_t n,
                                const int *axes, int keep)
{
    switch (k) {
    case R_SUM:
        return rdx_tensor_sum(g, x, n, axes, keep);
    case R_MAX:
        return rdx_tensor_max(g, x, n, axes, keep);
    case R_MIN:
        return rdx_tensor_min(g, x, n, axes, keep);
    default:
        return rdx_tensor_prod(g, x, n, axes, keep);
    }
}

/* Schedule t, check it against the interpreter (host evaluator, raw and heuristic
   opts, or on the emulated GPU with the heuristics); returns the kernel count. */
static size_t check(rdx_graph *g, const rdx_tensor *t, int on_emu, double tol)
{
    cgf_run r = { 0 };
    r.tol = tol;
    r.on_emu = on_emu;
    r.mode = on_emu ? CGF_HEURISTIC : CGF_RAW;
    cgf_check(g, &t, 1, &r);
    if (!on_emu) {
        cgf_run h = r;
        h.mode = CGF_HEURISTIC;
        cgf_check(g, &t, 1, &h);
    }
    return r.nkernels;
}

/* The default threshold (32768): a sum of 2^16 floats becomes two kernels, correct on
   the emulated GPU; the same count of a prime size, or fewer elements, stays one. */
START_TEST(split_default_threshold)
{
    uint64_t seed = 301;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, F32, 1, (int64_t[]){ 65536 }, &seed);
    ck_assert_uint_eq(check(g, rdx_tensor_sum(g, x, 1, (int[]){ 0 }, 0), 1, 1e-4), 2);
    const rdx_tensor *p = cgf_random(g, F32, 1, (int64_t[]){ 32771 }, &seed); /* prime */
    ck_assert_uint_eq(check(g, rdx_tensor_max(g, p, 1, (int[]){ 0 }, 0), 0, 0), 1);
    const rdx_tensor *s = cgf_random(g, F32, 1, (int64_t[]){ 16384 }, &seed); /* below */
    ck_assert_uint_eq(check(g, rdx_tensor_sum(g, s, 1, (int[]){ 0 }, 1), 0, 1e-4), 1);
    /* many outputs: no split (the heuristics group each row instead); max, since float
       sums of 32768 terms with cancellation differ by order beyond a tight tolerance */
    const rdx_tensor *m = cgf_random(g, F32, 2, (int64_t[]){ 128, 32768 }, &seed);
    ck_assert_uint_eq(check(g, rdx_tensor_max(g, m, 1, (int[]){ 1 }, 0), 0, 0), 1);
    rdx_graph_destroy(g);
}
END_TEST

/* Every op and dtype class with a low threshold (256): sizes the split factors (3000 =
   8 x 375, 4096, 2048 x 3 over axis 0) are two kernels, 1 / primes / 2 x odd sizes one. */
START_TEST(split_ops_dtypes_sizes)
{
    int64_t old = cg_split_reduce_threshold(256);
    static const rdx_scalar dts[] = { RDX_FLOAT32, RDX_FLOAT16, RDX_INT32, RDX_INT8 };
    static const struct {
        int64_t n;
        int split;
    } sizes[] = { { 3000, 1 }, { 4096, 1 }, { 1, 0 }, { 4099, 0 }, { 2 * 1531, 0 } };
    uint64_t seed = 302;
    for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
        rdx_dtype dt = rdx_dtype_of(dts[d]);
        for (int k = R_SUM; k <= R_PROD; k++) {
            /* float sums in half precision round too coarsely for thousands of terms;
               float products of random values under/overflow: ints cover those */
            if (rdx_dtype_is_float(dt) && (k == R_PROD || (k == R_SUM && dts[d] == RDX_FLOAT16)))
                continue;
            for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
                rdx_graph *g = cgf_graph();
                const rdx_tensor *x = cgf_random(g, dt, 1, (int64_t[]){ sizes[i].n }, &seed);
                size_t nk = check(g, reduce(g, (red_kind)k, x, 1, (int[]){ 0 }, i & 1), 0, 1e-4);
                ck_assert_msg(nk == (size_t)(1 + sizes[i].split),
                              "dtype %d op %d size %lld: %zu kernels", (int)dts[d], k,
                              (long long)sizes[i].n, nk);
                rdx_graph_destroy(g);
            }
        }
    }
    /* a reduction over axis 0 of a 2-D tensor into 3 outputs, and over both axes */
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, rdx_dtype_of(RDX_INT32), 2, (int64_t[]){ 2048, 3 }, &seed);
    ck_assert_uint_eq(check(g, rdx_tensor_sum(g, x, 1, (int[]){ 0 }, 0), 0, 0), 2);
    ck_assert_uint_eq(check(g, rdx_tensor_max(g, x, 2, (int[]){ 0, 1 }, 1), 0, 0), 2);
    /* feeding an elementwise consumer (softmax-like: x - max over everything) */
    const rdx_tensor *y = cgf_random(g, F32, 1, (int64_t[]){ 4096 }, &seed);
    const rdx_tensor *mx = rdx_tensor_max(g, y, 1, (int[]){ 0 }, 1);
    ck_assert(check(g, rdx_tensor_exp(g, rdx_tensor_sub(g, y, mx)), 0, 1e-5) >= 2);
    rdx_graph_destroy(g);
    cg_split_reduce_threshold(old);
}
END_TEST

/* On the emulated GPU with the heuristics: MAX of int32 and MIN of float16 split, and a
   product of int8 (wrapping, order-independent). */
START_TEST(split_on_emu)
{
    int64_t old = cg_split_reduce_threshold(256);
    uint64_t seed = 303;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *a = cgf_random(g, rdx_dtype_of(RDX_INT32), 1, (int64_t[]){ 8192 }, &seed);
    ck_assert_uint_eq(check(g, rdx_tensor_max(g, a, 1, (int[]){ 0 }, 0), 1, 0), 2);
    const rdx_tensor *h = cgf_random(g, rdx_dtype_of(RDX_FLOAT16), 1, (int64_t[]){ 3000 }, &seed);
    ck_assert_uint_eq(check(g, rdx_tensor_min(g, h, 1, (int[]){ 0 }, 0), 1, 0), 2);
    const rdx_tensor *b = cgf_random(g, rdx_dtype_of(RDX_INT8), 1, (int64_t[]){ 4096 }, &seed);
    ck_assert_uint_eq(check(g, rdx_tensor_prod(g, b, 1, (int[]){ 0 }, 0), 1, 0), 2);
    rdx_graph_destroy(g);
    cg_split_reduce_threshold(old);
}
END_TEST

/* Symbolic sizes are never split (bound to several values, even above the threshold). */
START_TEST(split_symbolic)
{
    int64_t old = cg_split_reduce_threshold(256);
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_uop *n = rdx_graph_var(g, "n", 1, 8192);
    const rdx_uop *dims[1] = { n };
    const rdx_tensor *x = rdx_tensor_empty_sym(g, F32, 1, dims);
    const rdx_tensor *t = rdx_tensor_sum(g, x, 1, (int[]){ 0 }, 0);
    static const int64_t vals[] = { 1, 7, 4096 };
    for (size_t i = 0; i < 3; i++) {
        int64_t v = vals[i];
        float *data = malloc((size_t)v * sizeof *data);
        for (int64_t k = 0; k < v; k++)
            data[k] = (float)((k * 5) % 13) * 0.5f - 3.0f;
        ck_assert_int_eq(rdx_interp_bind(rdx_graph_interp(g), x, data, (size_t)v * 4), RDX_OK);
        free(data);
        cgf_run r = { 0 };
        r.vars = &n;
        r.varvals = &v;
        r.nvars = 1;
        r.mode = CGF_HEURISTIC;
        cgf_check(g, &t, 1, &r);
        ck_assert_uint_eq(r.nkernels, 1);
    }
    (void)ctx;
    rdx_graph_destroy(g);
    cg_split_reduce_threshold(old);
}
END_TEST

/* The opts of kernel k of t's schedule (the heuristics', on the axis-typed kernel). */
static size_t heuristic_of(rdx_graph *g, const rdx_tensor *t, size_t k, size_t nk, rdx_opt *h)
{
    rdx_schedule *s = NULL;
    ck_assert_int_eq(rdx_cg_schedule(rdx_graph_ir(g), &t, 1, &s), RDX_OK);
    ck_assert_uint_eq(s->nkernels, nk);
    const rdx_uop *typed;
    ck_assert_int_eq(rdx_cg_axis_types(rdx_graph_ir(g), s->kernels[k].sink, &typed), RDX_OK);
    size_t nh = 0;
    ck_assert_int_eq(rdx_cg_heuristic(typed, h, 16, &nh), RDX_OK);
    const rdx_uop *o;
    ck_assert_int_eq(rdx_cg_apply_opts(rdx_graph_ir(g), typed, h, nh, &o), RDX_OK);
    rdx_schedule_free(s);
    return nh;
}

static int has(const rdx_opt *h, size_t n, rdx_optop op, int64_t amount, rdx_axistype t)
{
    for (size_t i = 0; i < n; i++)
        if (h[i].op == op && h[i].amount == amount && h[i].target == t)
            return 1;
    return 0;
}

static int split_at(const rdx_opt *h, size_t n, int axis, int64_t amount, rdx_axistype t);

/* Rule-based choices: rows of 1024 get two waves per row (GROUP_REDUCE 64: shares of 16,
   unrolled whole); a sum of 2^20 splits into 1024 partials of 1024, each such a group; a
   sum of 16384 into one output gets 256 lanes (shares of 64, UNROLL 16); a matmul
   with many outputs keeps its register tiles; rows too short stay per work-item. */
START_TEST(grouped_choice)
{
    uint64_t seed = 304;
    rdx_graph *g = cgf_graph();
    rdx_opt h[16];
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 1024, 1024 }, &seed);
    size_t nh = heuristic_of(g, rdx_tensor_max(g, x, 1, (int[]){ 1 }, 0), 0, 1, h);
    ck_assert(has(h, nh, RDX_OPTOP_SPLIT, 64, RDX_AXIS_GROUP_REDUCE));
    ck_assert(has(h, nh, RDX_OPTOP_SPLIT, 16, RDX_AXIS_UNROLL));
    const rdx_tensor *w = cgf_random(g, F32, 1, (int64_t[]){ 16384 }, &seed);
    nh = heuristic_of(g, rdx_tensor_sum(g, w, 1, (int[]){ 0 }, 0), 0, 1, h);
    ck_assert(has(h, nh, RDX_OPTOP_SPLIT, 256, RDX_AXIS_GROUP_REDUCE));
    ck_assert(has(h, nh, RDX_OPTOP_SPLIT, 16, RDX_AXIS_UNROLL));
    const rdx_tensor *v = cgf_random(g, F32, 1, (int64_t[]){ 1 << 20 }, &seed);
    const rdx_tensor *sum = rdx_tensor_sum(g, v, 1, (int[]){ 0 }, 0);
    for (size_t k = 0; k < 2; k++) {
        nh = heuristic_of(g, sum, k, 2, h);
        ck_assert(has(h, nh, RDX_OPTOP_SPLIT, 64, RDX_AXIS_GROUP_REDUCE));
        ck_assert(has(h, nh, RDX_OPTOP_SPLIT, 16, RDX_AXIS_UNROLL));
    }
    /* a long sum to few outputs that nothing divides: padded to 256 lanes */
    const rdx_tensor *p = cgf_random(g, F32, 1, (int64_t[]){ 300007 }, &seed);
    nh = heuristic_of(g, rdx_tensor_sum(g, p, 1, (int[]){ 0 }, 0), 0, 1, h);
    ck_assert(has(h, nh, RDX_OPTOP_PADTO, 256, RDX_AXIS_REDUCE));
    ck_assert(has(h, nh, RDX_OPTOP_SPLIT, 256, RDX_AXIS_GROUP_REDUCE));
    /* a 128^3 matmul (16384 outputs): tiles, no grouped reduction */
    const rdx_tensor *a = cgf_random(g, F32, 2, (int64_t[]){ 128, 128 }, &seed);
    nh = heuristic_of(g, rdx_tensor_matmul(g, a, a), 0, 1, h);
    for (size_t i = 0; i < nh; i++)
        ck_assert(h[i].target != RDX_AXIS_GROUP_REDUCE);
    /* nested reductions to one output (a loss: 32 rows x 10), each axis short alone: the
       outer axis of 32 is grouped (320 >= 256 serial steps); 16 x 10 (160) stays serial */
    const rdx_tensor *l = cgf_random(g, F32, 2, (int64_t[]){ 32, 10 }, &seed);
    nh = heuristic_of(g, rdx_tensor_sum(g, l, 2, (int[]){ 0, 1 }, 0), 0, 1, h);
    ck_assert_int_ge(split_at(h, nh, 0, 32, RDX_AXIS_GROUP_REDUCE), 0);
    const rdx_tensor *l2 = cgf_random(g, F32, 2, (int64_t[]){ 16, 10 }, &seed);
    nh = heuristic_of(g, rdx_tensor_sum(g, l2, 2, (int[]){ 0, 1 }, 0), 0, 1, h);
    for (size_t i = 0; i < nh; i++)
        ck_assert(h[i].target != RDX_AXIS_GROUP_REDUCE);
    /* rows of 100: shorter than 256, one work-item per row */
    const rdx_tensor *r = cgf_random(g, F32, 2, (int64_t[]){ 64, 100 }, &seed);
    nh = heuristic_of(g, rdx_tensor_sum(g, r, 1, (int[]){ 1 }, 0), 0, 1, h);
    for (size_t i = 0; i < nh; i++)
        ck_assert(h[i].target != RDX_AXIS_GROUP_REDUCE);
    rdx_graph_destroy(g);
}
END_TEST

static int split_at(const rdx_opt *h, size_t n, int axis, int64_t amount, rdx_axistype t)
{
    for (size_t i = 0; i < n; i++)
        if (h[i].op == RDX_OPTOP_SPLIT && h[i].axis == axis && h[i].amount == amount &&
            h[i].target == t)
            return (int)i;
    return -1;
}

/* Register tiles sized for occupancy: a 1024^3 matmul (axes 0 = m, 1 = n, 2 = k) gets 8
   (n) x 4 (m) outputs per work-item, a 16x16 workgroup with n (contiguous) lane-fastest,
   i.e. its LOCAL split last, and its tiles staged through LDS 8 deep: k unrolled by 8
   (256 updates per iteration; 4 before the staged tiles were deepened, which left the
   kernel waiting for a global load every 4 k steps); a 64^3 matmul (4096 outputs) gets no
   upcast (it would leave fewer than 4096 work-items). */
START_TEST(tile_occupancy_choice)
{
    uint64_t seed = 306;
    rdx_graph *g = cgf_graph();
    rdx_opt h[16];
    const rdx_tensor *a = cgf_random(g, F32, 2, (int64_t[]){ 1024, 1024 }, &seed);
    size_t nh = heuristic_of(g, rdx_tensor_matmul(g, a, a), 0, 1, h);
    ck_assert_int_ge(split_at(h, nh, 1, 8, RDX_AXIS_UPCAST), 0);
    ck_assert_int_ge(split_at(h, nh, 0, 4, RDX_AXIS_UPCAST), 0);
    ck_assert_int_ge(split_at(h, nh, 2, 8, RDX_AXIS_UNROLL), 0);
    int lm = split_at(h, nh, 0, 16, RDX_AXIS_LOCAL), ln = split_at(h, nh, 1, 16, RDX_AXIS_LOCAL);
    ck_assert(lm >= 0 && ln > lm);
    ck_assert(nh > 0 && h[nh - 1].op == RDX_OPTOP_LDS && h[nh - 1].axis == 2);
    const rdx_tensor *b = cgf_random(g, F32, 2, (int64_t[]){ 64, 64 }, &seed);
    nh = heuristic_of(g, rdx_tensor_matmul(g, b, b), 0, 1, h);
    for (size_t i = 0; i < nh; i++)
        ck_assert(h[i].target != RDX_AXIS_UPCAST);
    ck_assert_int_ge(split_at(h, nh, 2, 8, RDX_AXIS_UNROLL), 0);
    rdx_graph_destroy(g);
}
END_TEST

/* Grouped rows on the emulated GPU: softmax-shaped max / sum rows of 1024 and of 4096
   (G = 32 vs 64) against the interpreter. */
START_TEST(grouped_rows_on_emu)
{
    uint64_t seed = 305;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 8, 1024 }, &seed);
    const rdx_tensor *mx = rdx_tensor_max(g, x, 1, (int[]){ 1 }, 1);
    const rdx_tensor *e = rdx_tensor_exp(g, rdx_tensor_sub(g, x, mx));
    check(g, rdx_tensor_div(g, e, rdx_tensor_sum(g, e, 1, (int[]){ 1 }, 1)), 1, 1e-5);
    const rdx_tensor *y = cgf_random(g, rdx_dtype_of(RDX_INT32), 2, (int64_t[]){ 3, 4096 }, &seed);
    check(g, rdx_tensor_sum(g, y, 1, (int[]){ 1 }, 0), 1, 0);
    /* nested: a max over 40 rows (padded to 64, 32 lanes) of row sums of 13 */
    const rdx_tensor *z = cgf_random(g, rdx_dtype_of(RDX_INT32), 2, (int64_t[]){ 40, 13 }, &seed);
    check(g, rdx_tensor_max(g, rdx_tensor_sum(g, z, 1, (int[]){ 1 }, 0), 1, (int[]){ 0 }, 0), 1, 0);
    rdx_graph_destroy(g);
}
END_TEST

TCase *cgf_tcase_split_reduce(void)
{
    TCase *tc = tcase_create("split_reduce");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, split_default_threshold);
    tcase_add_test(tc, split_ops_dtypes_sizes);
    tcase_add_test(tc, split_on_emu);
    tcase_add_test(tc, split_symbolic);
    tcase_add_test(tc, grouped_choice);
    tcase_add_test(tc, grouped_rows_on_emu);
    tcase_add_test(tc, tile_occupancy_choice);
    return tc;
}
