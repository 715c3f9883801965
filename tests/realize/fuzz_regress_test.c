/* tests/realize/fuzz_regress_test.c — reduced cases found by the differential
 * fuzzer (fuzz/fuzz_realize.c), each realized on the default device and
 * compared with the interpreter; the comment of each test names the seed and
 * what was wrong. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/realize/rz_test.h"

/* seed 3340: a float16 matmul (TC by the heuristics, 2x4 WMMA tiles per wave) with a
   softmax epilogue spills a 64-dword accumulator; one v_mov_b32 writing part of it
   needed more spill code than the spiller's per-instruction limit (96): "regalloc: too
   much spill code around one v_mov_b32". */
START_TEST(tc_softmax_epilogue_spills)
{
    uint64_t seed = 3340;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_tensor *a = rz_random(g, F16, 2, (int64_t[]){ 64, 32 }, &seed);
    const rdx_tensor *b = rz_random(g, F16, 2, (int64_t[]){ 32, 64 }, &seed);
    const rdx_tensor *y = rdx_tensor_matmul(g, rdx_tensor_cast(g, a, F32), b);
    const rdx_tensor *out = rdx_tensor_softmax(g, y, 1);
    rz_check_free(g, dev, &out, 1, NULL, 1e-3);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

/* seed 20435: MIN over a bool axis kept in a loop (a symbolic size) started its accumulator,
   a lane mask in an SGPR, at 1 (lane 0 only) instead of every lane: all but lane 0 of
   each wave came out false. */
START_TEST(bool_min_loop_identity)
{
    uint64_t seed = 20435;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_uop *n = rdx_graph_var(g, "n", 1, 600);
    const rdx_uop *dims[2] = { rdx_ir_int(rdx_graph_ir(g), 40), n };
    rdx_dtype b = rdx_dtype_of(RDX_BOOL);
    const rdx_tensor *x = rdx_tensor_empty_sym(g, b, 2, dims);
    const rdx_tensor *outs[2] = { rdx_tensor_min(g, x, 1, (int[]){ 1 }, 0),
                                  rdx_tensor_max(g, x, 1, (int[]){ 1 }, 0) };
    static const int64_t vals[] = { 1, 2, 9 };
    for (size_t k = 0; k < 3; k++) {
        int64_t v = vals[k];
        /* mostly true, so the MIN is true in some rows */
        uint8_t *data = rz_random_data(rdx_dtype_of(RDX_UINT8), 40 * v, &seed);
        for (int64_t i = 0; i < 40 * v; i++)
            data[i] = data[i] % 5 != 0;
        ck_assert_int_eq(rdx_interp_bind(rdx_graph_interp(g), x, data, (size_t)(40 * v)), RDX_OK);
        free(data);
        ck_assert_int_eq(rdx_interp_bind_var(rdx_graph_interp(g), n, v), RDX_OK);
        const char *names[1] = { "n" };
        rdx_realize_options o = { .var_names = names, .var_values = &v, .nvars = 1 };
        rdx_array want;
        ck_assert_int_eq(rdx_tensor_realize(g, outs[0], &want), RDX_OK);
        int64_t ntrue = 0;
        for (int64_t i = 0; i < 40; i++)
            ntrue += ((uint8_t *)want.data)[i] != 0;
        ck_assert_int_gt(ntrue, 0);
        rz_check_free(g, dev, outs, 2, &o, 0);
    }
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

/* seed 30067: a cumulative sum of randn (THREEFRY + Box-Muller per element) upcast by 4
   and unrolled by 8 by the heuristics has a loop body of ~140 KiB; its backward
   s_cbranch_scc1 was out of the 16-bit dword offset's reach ("render: branch of -35527
   dwords").  Such branches now jump through s_getpc/s_setpc.  256 rows (not the seed's
   4): the heuristics upcast only when 4096 work-items remain. */
START_TEST(far_branch)
{
    uint64_t seed = 30067;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_tensor *x = rz_random(g, F32, 2, (int64_t[]){ 256, 64 }, &seed);
    const rdx_tensor *r = rdx_tensor_randn(g, F32, 2, (int64_t[]){ 256, 64 }, 5);
    const rdx_tensor *out = rdx_tensor_cumsum(g, rdx_tensor_add(g, x, r), 1);
    rdx_realize_options o = { .keep_isa = 1 };
    ck_assert_ptr_nonnull(out);
    rdx_realize_report *rep = rz_check(g, dev, &out, 1, &o, 1e-3);
    int far = 0;
    for (size_t k = 0; k < rep->nkernels; k++)
        far |= rep->kernels[k].code_bytes > 131072 && strstr(rep->kernels[k].isa, "s_setpc_b64");
    ck_assert_msg(far, "no kernel over 128 KiB with a long branch");
    rdx_realize_report_free(rep);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

/* seed 31420: PADTO after TC.  With TC's K loop of one 16-deep tile, padding it to 32
   iterations made the WMMA accumulate the same product 32 times (every output 32x too
   big).  After TC its K loop (and WARP lanes) are fixed: PADTO of the K axis is refused;
   PADTO of an output-tile axis is allowed (warp_test runs that against the interpreter). */
START_TEST(padto_after_tc)
{
    uint64_t seed = 31420;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_tensor *a = rz_random(g, F16, 2, (int64_t[]){ 64, 16 }, &seed);
    const rdx_tensor *b = rz_random(g, F16, 2, (int64_t[]){ 16, 16 }, &seed);
    const rdx_tensor *y = rdx_tensor_matmul(g, rdx_tensor_cast(g, a, F32), b);
    rdx_schedule *s = NULL;
    ck_assert_int_eq(rdx_cg_schedule(ctx, &y, 1, &s), RDX_OK);
    ck_assert_uint_eq(s->nkernels, 1);
    const rdx_uop *typed, *k;
    ck_assert_int_eq(rdx_cg_axis_types(ctx, s->kernels[0].sink, &typed), RDX_OK);
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t na = 0;
    ck_assert_int_eq(rdx_cg_axes(typed, ax, &na), RDX_OK);
    int red = -1;
    for (size_t i = 0; i < na; i++)
        if (ax[i].type == RDX_AXIS_REDUCE)
            red = (int)i;
    ck_assert_int_ge(red, 0);
    rdx_opt o[2] = { { RDX_OPTOP_TC, red, 0, RDX_AXIS_WARP, 0 },
                     { RDX_OPTOP_PADTO, 0, 32, RDX_AXIS_LOOP, 0 } };
    ck_assert_int_eq(rdx_cg_apply_opts(ctx, typed, o, 1, &k), RDX_OK);
    /* the axes after TC: find its K loop and an output-tile axis */
    ck_assert_int_eq(rdx_cg_axes(k, ax, &na), RDX_OK);
    int kax = -1, gax = -1;
    for (size_t i = 0; i < na; i++) {
        if (ax[i].type == RDX_AXIS_REDUCE)
            kax = (int)i;
        if (ax[i].type == RDX_AXIS_GLOBAL && gax < 0)
            gax = (int)i;
    }
    ck_assert_int_ge(gax, 0);
    ck_assert_int_ge(kax, 0);
    o[1].axis = kax;
    ck_assert_int_eq(rdx_cg_apply_opts(ctx, typed, o, 2, &k), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "K loop"), "%s", rdx_error_message());
    o[1].axis = gax;
    ck_assert_msg(!rdx_cg_apply_opts(ctx, typed, o, 2, &k), "%s", rdx_error_message());
    rdx_schedule_free(s);
    /* the heuristics (TC) on the device */
    rz_check_free(g, dev, &y, 1, NULL, 1e-3);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

/* seed 33963: an output that simplifies to a constant (it reads only the padding of a
   padded reduction of x) leaves x, of symbolic size n, an input of the schedule that no
   kernel reads; the schedule's variables came from the kernels only, so realize could not
   size x ("size of buffer 0: eval: DEFINE_VAR #9 has no value"). */
START_TEST(symbolic_input_not_read)
{
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_uop *n = rdx_graph_var(g, "n", 1, 600);
    const rdx_uop *dims[2] = { n, rdx_ir_int(rdx_graph_ir(g), 4) };
    const rdx_tensor *x = rdx_tensor_empty_sym(g, I32, 2, dims);
    const rdx_tensor *t =
        rdx_tensor_reshape(g, rdx_tensor_sum(g, x, 0, NULL, 0), 1, (int64_t[]){ 1 });
    const rdx_tensor *p = rdx_tensor_pad(g, t, (int64_t[]){ 0 }, (int64_t[]){ 2 }, 7);
    const rdx_tensor *out = rdx_tensor_shrink(g, p, (int64_t[]){ 1 }, (int64_t[]){ 2 });
    int64_t v = 3;
    int32_t data[12] = { 0 };
    ck_assert_int_eq(rdx_interp_bind(rdx_graph_interp(g), x, data, sizeof data), RDX_OK);
    ck_assert_int_eq(rdx_interp_bind_var(rdx_graph_interp(g), n, v), RDX_OK);
    const char *names[1] = { "n" };
    rdx_realize_options o = { .var_names = names, .var_values = &v, .nvars = 1 };
    rz_check_free(g, dev, &out, 1, &o, 0);
    rdx_array got;
    ck_assert_int_eq(rdx_tensor_realize_on(g, dev, &out, 1, &o, &got, NULL), RDX_OK);
    ck_assert_int_eq(got.numel, 1);
    ck_assert_int_eq(((int32_t *)got.data)[0], 7);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

/* seed 900016: gelu of float64 values whose exp2 term reaches ~1.3e308: 1.0/x for |x| >
   2^1022 (a subnormal quotient) came out NaN.  v_div_scale_f64 of the denominator scaled
   it by 2^128 (the ISA guide's pcode for "1/S1 and S2/S1 subnormal"), overflowing to inf;
   the emulator now scales it by 2^-128, which makes the fdiv sequence correctly rounded.
   Oracle: the host's IEEE division, bit for bit (a / b is a * RECIP(b) in the graph). */
START_TEST(f64_recip_subnormal_quotient)
{
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    static const double xs[] = { 0x1.0000000000001p+1022,
                                 0x1.6a09e667f3bcdp+1022,
                                 1.27e308,
                                 -1.5e308,
                                 0x1.fffffffffffffp+1023,
                                 -0x1p+1023,
                                 0x1p+1022,
                                 3.0,
                                 -7.25e300,
                                 0x1p-1022,
                                 5e-324,
                                 1e-310 };
    enum { N = sizeof xs / sizeof *xs };
    rdx_dtype f64 = rdx_dtype_of(RDX_FLOAT64);
    const rdx_tensor *x = rdx_tensor_from_data(g, f64, 1, (int64_t[]){ N }, xs);
    const rdx_tensor *outs[2] = { rdx_tensor_recip(g, x),
                                  rdx_tensor_div(g, rdx_tensor_full_like(g, x, 3.0), x) };
    for (int raw = 0; raw < 2; raw++) {
        rdx_realize_options o = { .raw = raw };
        rdx_array got[2];
        ck_assert_int_eq(rdx_tensor_realize_on(g, dev, outs, 2, &o, got, NULL), RDX_OK);
        for (int k = 0; k < N; k++) {
            double want[2] = { 1.0 / xs[k], 3.0 * (1.0 / xs[k]) };
            for (int r = 0; r < 2; r++) {
                double d = ((const double *)got[r].data)[k];
                ck_assert_msg(!memcmp(&d, &want[r], sizeof d), "output %d, x = %a: %a, want %a", r,
                              xs[k], d, want[r]);
            }
        }
    }
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

/* seeds 908509 and 903143 (not a bug): bfloat16 row sums unrolled by the heuristics
   (SPLIT(.., 8, UNROLL) in a loop) differ from the interpreter's, which rounds every partial
   sum in sequence; in 908509 a layernorm of a constant row (exactly 0) turned that rounding
   noise into +-1.  Any summation order of n terms in a dtype of unit roundoff u is within
   (n - 1) u sum |x_i| of the exact sum (Higham, eq. 4.4), and so are both results here:
   32 copies of -1.859375 (exactly -59.5; sequential bfloat16: -58) and random rows, against
   the exact sum on the host.  The fuzzer's float64 shadow uses the same bound. */
START_TEST(bf16_unrolled_sum_within_bound)
{
    uint64_t seed = 908509;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    enum { R = 64, C = 32 };
    rdx_dtype bf = rdx_dtype_of(RDX_BFLOAT16);
    uint16_t *d = rz_random_data(bf, R * C, &seed);
    for (int i = 0; i < R * C / 2; i++)
        d[i] = rdx_f64_to_bf16(-1.859375);
    const rdx_tensor *x = rdx_tensor_from_data(g, bf, 2, (int64_t[]){ R, C }, d);
    const rdx_tensor *s = rdx_tensor_sum(g, x, 1, (int[]){ 1 }, 0);
    rdx_realize_options o = { .keep_isa = 1 };
    rdx_realize_report *rep = NULL;
    rdx_array got, want;
    ck_assert_int_eq(rdx_tensor_realize_on(g, dev, &s, 1, &o, &got, &rep), RDX_OK);
    ck_assert_int_eq(rdx_graph_realize(g, &s, 1, &want), RDX_OK);
    int unrolled = 0;
    for (size_t k = 0; k < rep->nkernels; k++)
        for (size_t i = 0; i < rep->kernels[k].nopts; i++)
            unrolled |= rep->kernels[k].opts[i].target == RDX_AXIS_UNROLL;
    ck_assert_msg(unrolled, "the heuristics no longer unroll this reduction");
    rdx_realize_report_free(rep);
    /* rdx_tensor_sum now accumulates bfloat16 in float32 (tinygrad's rule) and rounds once:
       the exact -59.5 where the sequential bfloat16 sum gave -58 */
    ck_assert_double_eq(rdx_array_get(&want, 0), -59.5);
    ck_assert_double_eq(rdx_array_get(&got, 0), -59.5);
    for (int r = 0; r < R; r++) {
        double exact = 0, mag = 0;
        for (int c = 0; c < C; c++) {
            double v = rdx_bf16_to_f64(d[r * C + c]);
            exact += v; /* exact: 32 bfloat16 values need far fewer than 53 bits */
            mag += fabs(v);
        }
        double bound = (C - 1) * 0x1p-8 * mag;
        double dv = rdx_array_get(&got, r), iv = rdx_array_get(&want, r);
        ck_assert_msg(fabs(dv - exact) <= bound, "row %d: device %g, exact %g, bound %g", r, dv,
                      exact, bound);
        ck_assert_msg(fabs(iv - exact) <= bound, "row %d: interpreter %g, exact %g, bound %g", r,
                      iv, exact, bound);
    }
    free(d);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

/* seeds 1102298, 1102777, 1100576: a matmul's output m read through a RESHAPE by a MIN (or
   MAX) and by the elementwise epilogue was fused into both kernels; the copies were optimized
   differently (WMMA with float32 accumulation vs a float16 loop; different unrolls) and
   rounded differently, so m - min(m) came out negative (-0.5 where the row's minimum is) and a
   softmax over an axis of size 1 gave 0.998 instead of 1.  A REDUCE read by several users
   behind a movement op is now materialised.  Oracles: m - min(m) >= 0 with a 0 in every row;
   a softmax over one element is exactly 1. */
START_TEST(reduce_behind_reshape_rounds_once)
{
    uint64_t seed = 1102298;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_tensor *a = rz_random(g, F16, 2, (int64_t[]){ 64, 64 }, &seed);
    const rdx_tensor *b = rz_random(g, F16, 2, (int64_t[]){ 64, 32 }, &seed);
    const rdx_tensor *m = rdx_tensor_matmul(g, a, b);
    const rdx_tensor *mn = rdx_tensor_min(g, m, 1, (int[]){ 1 }, 1);
    const rdx_tensor *outs[2] = {
        rdx_tensor_sub(g, m, mn),
        rdx_tensor_softmax(g,
                           rdx_tensor_reshape(g, rdx_tensor_cast(g, m, rdx_dtype_of(RDX_FLOAT32)),
                                              3, (int64_t[]){ 64, 32, 1 }),
                           2),
    };
    for (int k = 0; k < 2; k++) {
        ck_assert_ptr_nonnull(outs[k]);
        rdx_array got;
        ck_assert_int_eq(rdx_tensor_realize_on(g, dev, &outs[k], 1, NULL, &got, NULL), RDX_OK);
        for (int r = 0; r < 64; r++) {
            int zero = 0;
            for (int c = 0; c < 32; c++) {
                double v = rdx_array_get(&got, r * 32 + c);
                if (k == 0) {
                    ck_assert_msg(v >= 0, "m - min(m) [%d, %d] = %g", r, c, v);
                    zero |= v == 0;
                } else {
                    ck_assert_msg(v == 1, "softmax of one element [%d, %d] = %.9g", r, c, v);
                }
            }
            ck_assert_msg(k || zero, "row %d of m - min(m) has no 0", r);
        }
    }
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

/* seed 1200151: a 3x3 conv2d (x 2x3x3x7, 2 filters, padding (0, 1)) with the heuristics
   failed to compile ("optimize: opt 2: LDS: more than 8 loads to stage"): the LDS rule
   (cg_lds_pays) chose to stage the 9 shifted loads of the taps, more than cg_lds_stage takes.
   It now counts them.  Oracle: the interpreter. */
START_TEST(conv3x3_lds_taps)
{
    uint64_t seed = 1200151;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_tensor *x = rz_random(g, F32, 4, (int64_t[]){ 2, 3, 3, 7 }, &seed);
    const rdx_tensor *w = rz_random(g, F32, 4, (int64_t[]){ 2, 3, 3, 3 }, &seed);
    const rdx_tensor *b = rz_random(g, F32, 1, (int64_t[]){ 2 }, &seed);
    rdx_conv_opts co = { { 1, 1 }, { 0, 1 }, { 1, 1 }, 1 };
    const rdx_tensor *y = rdx_tensor_conv2d(g, x, w, b, &co);
    rz_check_free(g, dev, &y, 1, NULL, 1e-4);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

/* seed 2200396 (after row fusion): a float64 (1, 33) x (33, 31) matmul with SPLIT(1, 3,
   GROUP_REDUCE) SPLIT(2, 3, GROUP_REDUCE) PADTO(0, 64, GLOBAL) PADTO(2, 3, GLOBAL) gave
   wrong sums: expand lowered the two GROUP_REDUCE axes of the one REDUCE onto the same
   lanes (lidx0), so only 3 of the 9 lane pairs were added.  Such a kernel is now refused
   (the axes of grouped reductions share one set of lanes). */
START_TEST(two_group_reduce_axes_one_reduce)
{
    uint64_t seed = 2200396;
    rdx_graph *g = rz_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    rdx_dtype f64 = rdx_dtype_of(RDX_FLOAT64);
    const rdx_tensor *a = rz_random(g, f64, 2, (int64_t[]){ 1, 33 }, &seed);
    const rdx_tensor *b = rz_random(g, f64, 2, (int64_t[]){ 33, 31 }, &seed);
    const rdx_tensor *y = rdx_tensor_matmul(g, a, b);
    rdx_schedule *s = NULL;
    ck_assert_int_eq(rdx_cg_schedule(ctx, &y, 1, &s), RDX_OK);
    ck_assert_uint_eq(s->nkernels, 1);
    const rdx_uop *typed, *k, *e;
    ck_assert_int_eq(rdx_cg_axis_types(ctx, s->kernels[0].sink, &typed), RDX_OK);
    rdx_opt o[4] = { { RDX_OPTOP_SPLIT, 1, 3, RDX_AXIS_GROUP_REDUCE, 0 },
                     { RDX_OPTOP_SPLIT, 2, 3, RDX_AXIS_GROUP_REDUCE, 0 },
                     { RDX_OPTOP_PADTO, 0, 64, RDX_AXIS_GLOBAL, 0 },
                     { RDX_OPTOP_PADTO, 2, 3, RDX_AXIS_GLOBAL, 0 } };
    ck_assert_msg(!rdx_cg_apply_opts(ctx, typed, o, 4, &k), "%s", rdx_error_message());
    ck_assert_int_eq(rdx_cg_expand(ctx, k, &e), RDX_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(rdx_error_message(), "close the same REDUCE"), "%s", rdx_error_message());
    rdx_schedule_free(s);
    rdx_graph_destroy(g);
}
END_TEST

/* seed 1795849035 (heur): the variance of one element (n = 1: 0 * (1 / 0), NaN) fed a max
   over an axis of size 1; the device dropped the size-1 reduction (NaN), the interpreter
   folded it from the identity (fmax(-inf, NaN) = -inf).  A reduction over size-1 axes is
   its source (tinygrad never builds one): the interpreter was wrong.  Reduced: max and
   min over a size-1 axis of data with NaNs, beside a symbolic axis bound to 1 (a loop
   from the identity on both sides). */
START_TEST(max_over_size_one_axis_keeps_nan)
{
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    float v[4] = { NAN, -1.5f, 2.5f, NAN };
    const rdx_tensor *x = rdx_tensor_from_data(g, F32, 2, (int64_t[]){ 4, 1 }, v);
    int ax1[1] = { 1 };
    const rdx_tensor *outs[2] = { rdx_tensor_max(g, x, 1, ax1, 0),
                                  rdx_tensor_min(g, x, 1, ax1, 1) };
    rz_check_free(g, dev, outs, 2, NULL, 0);
    rdx_array want;
    ck_assert_int_eq(rdx_tensor_realize(g, outs[0], &want), RDX_OK);
    ck_assert(isnan(rdx_array_get(&want, 0)));
    rdx_realize_options raw = { .raw = 1 };
    rz_check_free(g, dev, outs, 2, &raw, 0);
    /* symbolic: n = 1 at run time, still a reduction */
    const rdx_uop *n = rdx_graph_var(g, "n", 1, 8);
    const rdx_uop *dims[2] = { rdx_ir_int(rdx_graph_ir(g), 4), n };
    const rdx_tensor *y = rdx_tensor_empty_sym(g, F32, 2, dims);
    ck_assert_int_eq(rdx_interp_bind(rdx_graph_interp(g), y, v, sizeof v), RDX_OK);
    ck_assert_int_eq(rdx_interp_bind_var(rdx_graph_interp(g), n, 1), RDX_OK);
    const rdx_tensor *ym = rdx_tensor_max(g, y, 1, ax1, 0);
    const char *names[1] = { "n" };
    int64_t one = 1;
    rdx_realize_options o = { .var_names = names, .var_values = &one, .nvars = 1 };
    rz_check_free(g, dev, &ym, 1, &o, 0);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

TCase *rz_tcase_fuzz_regress(void)
{
    TCase *tc = tcase_create("fuzz_regress");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, tc_softmax_epilogue_spills);
    tcase_add_test(tc, bool_min_loop_identity);
    tcase_add_test(tc, far_branch);
    tcase_add_test(tc, padto_after_tc);
    tcase_add_test(tc, symbolic_input_not_read);
    tcase_add_test(tc, f64_recip_subnormal_quotient);
    tcase_add_test(tc, bf16_unrolled_sum_within_bound);
    tcase_add_test(tc, reduce_behind_reshape_rounds_once);
    tcase_add_test(tc, conv3x3_lds_taps);
    tcase_add_test(tc, two_group_reduce_axes_one_reduce);
    tcase_add_test(tc, max_over_size_one_axis_keeps_nan);
    return tc;
}
