/* tests/tensor/semantics_test.c — the tensor layer's semantic rules (docs/tensor.md
 * "Semantics rules"): WHERE broadcasting all three operands in any order, the
 * dtypes of reductions and pow of negative bases, as tinygrad's Tensor does. */
#include "tests/tensor/tensor_test.h"

/* where(mask, CONST, x) and every other order and rank mix: the result has the broadcast
   shape of all three operands, a scalar CONST expanded with the rest */
START_TEST(where_broadcasts_all_three_operands)
{
    rdx_graph *g = tgraph();
    float xv[12 * 17];
    for (int k = 0; k < 12 * 17; k++)
        xv[k] = (float)k;
    int32_t mv[17];
    for (int k = 0; k < 17; k++)
        mv[k] = k % 3 == 0;
    const rdx_tensor *x = tf32(g, 2, (int64_t[]){ 12, 17 }, xv);
    const rdx_tensor *m2 = rdx_tensor_cmpne(g, ti32(g, 2, (int64_t[]){ 1, 17 }, mv),
                                            rdx_tensor_const(g, rdx_dtype_of(RDX_INT32), 0));
    const rdx_tensor *m1 = rdx_tensor_reshape(g, m2, 1, (int64_t[]){ 17 });
    const rdx_tensor *c = rdx_tensor_const(g, rdx_dtype_of(RDX_FLOAT32), -1);
    const rdx_tensor *col = tf32(g, 2, (int64_t[]){ 12, 1 }, xv); /* 0..11 */
    for (int q = 0; q < 6; q++) {
        const rdx_tensor *m = q & 1 ? m1 : m2;
        const rdx_tensor *t = q < 2   ? rdx_tensor_where(g, m, c, x)
                              : q < 4 ? rdx_tensor_where(g, m, x, c)
                                      : rdx_tensor_where(g, m, col, c);
        ck_assert_msg(t != NULL, "case %d: %s", q, rdx_graph_error(g));
        ck_assert_uint_eq(t->ndim, 2);
        ck_assert_int_eq(rdx_tensor_dim(t, 0), 12);
        ck_assert_int_eq(rdx_tensor_dim(t, 1), 17);
        rdx_array r = treal(g, t);
        for (int i = 0; i < 12; i++)
            for (int j = 0; j < 17; j++) {
                double xe = q < 4 ? xv[i * 17 + j] : (double)i;
                double want = q < 2 ? (mv[j] ? -1 : xe) : (mv[j] ? xe : -1);
                ck_assert_double_eq(rdx_array_get(&r, i * 17 + j), want);
            }
    }
    /* the mask smaller than both branches, both branches CONSTs */
    const rdx_tensor *cc = rdx_tensor_where(g, m1, c, rdx_tensor_const(g, c->dtype, 2));
    ck_assert_ptr_nonnull(cc);
    ck_assert_uint_eq(cc->ndim, 1);
    rdx_array r = treal(g, cc);
    for (int j = 0; j < 17; j++)
        ck_assert_double_eq(rdx_array_get(&r, j), mv[j] ? -1 : 2);
    rdx_graph_destroy(g);
}
END_TEST

/* sums follow tinygrad's sum_acc_dtype: int8/int16/bool -> int32, uint8/uint16 -> uint32,
   64-bit and float32/float64 keep theirs, float16/bfloat16 are accumulated in float32 and
   rounded back once; mean of a half is computed in float32 too */
START_TEST(sum_dtypes_follow_tinygrad)
{
    rdx_graph *g = tgraph();
    static const struct {
        rdx_scalar in, out;
    } rule[] = { { RDX_BOOL, RDX_INT32 },        { RDX_INT8, RDX_INT32 },
                 { RDX_INT16, RDX_INT32 },       { RDX_UINT8, RDX_UINT32 },
                 { RDX_UINT16, RDX_UINT32 },     { RDX_INT32, RDX_INT32 },
                 { RDX_UINT32, RDX_UINT32 },     { RDX_INT64, RDX_INT64 },
                 { RDX_UINT64, RDX_UINT64 },     { RDX_FLOAT16, RDX_FLOAT16 },
                 { RDX_BFLOAT16, RDX_BFLOAT16 }, { RDX_FLOAT32, RDX_FLOAT32 },
                 { RDX_FLOAT64, RDX_FLOAT64 } };
    for (size_t k = 0; k < sizeof rule / sizeof *rule; k++) {
        const rdx_tensor *x = rdx_tensor_ones(g, rdx_dtype_of(rule[k].in), 1, (int64_t[]){ 297 });
        const rdx_tensor *s = rdx_tensor_sum(g, x, 0, NULL, 0);
        ck_assert_ptr_nonnull(s);
        ck_assert_msg(s->dtype.scalar == rule[k].out, "sum of dtype %d gives %d", rule[k].in,
                      s->dtype.scalar);
        rdx_array r = treal(g, s);
        ck_assert_double_eq(rdx_array_get(&r, 0), rule[k].in == RDX_BFLOAT16 ? 296 : 297);
    }
    /* 1000 x 0.1 in float16: sequential float16 sums drift by ~2.7, one rounding does not */
    const rdx_tensor *h =
        rdx_tensor_full(g, rdx_dtype_of(RDX_FLOAT16), 1, (int64_t[]){ 1000 }, 0.1);
    double tenth = rdx_f16_to_f64(rdx_f64_to_f16(0.1));
    rdx_array hs = treal(g, rdx_tensor_sum(g, h, 0, NULL, 0));
    ck_assert_double_eq(rdx_array_get(&hs, 0), rdx_f16_to_f64(rdx_f64_to_f16(1000 * tenth)));
    rdx_array hm = treal(g, rdx_tensor_mean(g, h, 0, NULL, 0));
    ck_assert_uint_eq(hm.dtype.scalar, RDX_FLOAT16);
    ck_assert_double_eq(rdx_array_get(&hm, 0), tenth);
    /* prod keeps the dtype (tinygrad): a bool product is a bool, their AND */
    int32_t pv[4] = { 1, 1, 0, 1 };
    const rdx_tensor *pb = rdx_tensor_cmpne(g, ti32(g, 2, (int64_t[]){ 2, 2 }, pv),
                                            rdx_tensor_const(g, rdx_dtype_of(RDX_INT32), 0));
    const rdx_tensor *pp = rdx_tensor_prod(g, pb, 1, (int[]){ 1 }, 0);
    ck_assert_uint_eq(pp->dtype.scalar, RDX_BOOL);
    rdx_array pr = treal(g, pp);
    ck_assert_int_eq(rdx_array_get_int(&pr, 0), 1);
    ck_assert_int_eq(rdx_array_get_int(&pr, 1), 0);
    /* int8 values over the int8 range sum without wrapping */
    int32_t iv[3] = { 100, 100, 97 };
    const rdx_tensor *i8 =
        rdx_tensor_cast(g, ti32(g, 1, (int64_t[]){ 3 }, iv), rdx_dtype_of(RDX_INT8));
    rdx_array is = treal(g, rdx_tensor_sum(g, i8, 0, NULL, 0));
    ck_assert_int_eq(rdx_array_get_int(&is, 0), 297);
    rdx_graph_destroy(g);
}
END_TEST

/* pow as tinygrad's: |a|^b, negated for a negative base and an odd integer exponent, NaN for
   a negative base and a non-integer exponent, 1 for b = 0 */
START_TEST(pow_of_negative_bases)
{
    rdx_graph *g = tgraph();
    float a[] = { -2, -2, -2, -2, -2, 0, 2, -3, -INFINITY, -1.5f, 0, INFINITY };
    float b[] = { 2, 3, 0.5f, -1, 0, 0, -1, -2, 0.5f, 2, 2, 0 };
    double want[] = { 4, -8, NAN, -0.5, 1, 1, 0.5, 1.0 / 9, INFINITY, 2.25, 0, 1 };
    int64_t n = sizeof a / sizeof *a;
    rdx_array r = treal(g, rdx_tensor_pow(g, tf32(g, 1, &n, a), tf32(g, 1, &n, b)));
    for (int64_t k = 0; k < n; k++) {
        double v = rdx_array_get(&r, k);
        if (isnan(want[k]))
            ck_assert_msg(isnan(v), "pow(%g, %g) = %g, want NaN", a[k], b[k], v);
        else
            ck_assert_msg(fabs(v - want[k]) <= 1e-6 * fabs(want[k]) || v == want[k],
                          "pow(%g, %g) = %g, want %g", a[k], b[k], v, want[k]);
    }
    rdx_graph_destroy(g);
}
END_TEST

/* integer pow as tinygrad's (an integer result, exact, wrapping): pow(-2, 2) = 4 in int32,
   negative exponents truncate 1 / a^|b| */
START_TEST(pow_of_integers)
{
    rdx_graph *g = tgraph();
    int32_t a[] = { -2, -2, 3, 7, 0, 5, 1, -1, -1, 2, 3, -3 };
    int32_t b[] = { 2, 3, 0, 1, 0, 13, -4, -3, -2, -1, 19, 21 };
    int64_t n = sizeof a / sizeof *a;
    const rdx_tensor *p = rdx_tensor_pow(g, ti32(g, 1, &n, a), ti32(g, 1, &n, b));
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(p->dtype.scalar, RDX_INT32);
    rdx_array r = treal(g, p);
    for (int64_t k = 0; k < n; k++) {
        int64_t want = 1;
        if (b[k] < 0)
            want = a[k] == 1 ? 1 : a[k] == -1 ? (b[k] % 2 ? -1 : 1) : 0;
        else
            for (int32_t e = 0; e < b[k]; e++)
                want = (int32_t)(uint32_t)((uint64_t)want * (uint64_t)(int64_t)a[k]);
        ck_assert_msg(rdx_array_get_int(&r, k) == want, "pow(%d, %d) = %lld, want %lld", a[k], b[k],
                      (long long)rdx_array_get_int(&r, k), (long long)want);
    }
    /* uint8 wraps */
    const rdx_tensor *u =
        rdx_tensor_pow(g, rdx_tensor_cast(g, ti32(g, 1, &n, a), rdx_dtype_of(RDX_UINT8)),
                       rdx_tensor_const(g, rdx_dtype_of(RDX_UINT8), 3));
    rdx_array ru = treal(g, u);
    ck_assert_uint_eq(ru.dtype.scalar, RDX_UINT8);
    ck_assert_int_eq(rdx_array_get_int(&ru, 0), (uint8_t)(254 * 254 * 254));
    rdx_graph_destroy(g);
}
END_TEST

/* An fp8 code's value by the OCP formula: (-1)^s 2^(e - bias) 1.m, e = 0: 2^(1 - bias) 0.m */
static double ocp_value(unsigned c, int e5m2)
{
    unsigned mb = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7, e = (c >> mb) & (e5m2 ? 31 : 15);
    double m = (double)(c & ((1u << mb) - 1)) / (double)(1u << mb), sg = c & 0x80 ? -1 : 1;
    if (e5m2 && e == 31)
        return m ? NAN : sg * INFINITY;
    if (!e5m2 && (c & 0x7f) == 0x7f)
        return NAN;
    return sg * (e ? (1 + m) * pow(2, (double)e - bias) : m * pow(2, 1.0 - bias));
}

/* CASTs to and from fp8 realized by the interpreter: every code to float32, float32 edges
   (saturation, inf, NaN, ties, denormals) and other dtypes to fp8, fp8 sums and arithmetic
   computed in float32 and rounded back once (tinygrad's rules, docs/tensor.md) */
START_TEST(fp8_casts_follow_tinygrad)
{
    rdx_graph *g = tgraph();
    uint8_t codes[256];
    for (int k = 0; k < 256; k++)
        codes[k] = (uint8_t)k;
    rdx_dtype u8 = rdx_dtype_of(RDX_UINT8), f32 = rdx_dtype_of(RDX_FLOAT32);
    static const float in[] = { 0.0f,     -0.0f,     1.0f,     1.0625f,    1.1875f,
                                449.0f,   464.0f,    1e30f,    -1e30f,     61440.0f,
                                INFINITY, -INFINITY, NAN,      -NAN,       0x1p-10f,
                                0x3p-10f, 0x1p-17f,  0x3p-17f, 0x1.cp-15f, -0x1p-149f };
    static const uint8_t want4[] = { 0x00, 0x80, 0x38, 0x38, 0x3a, 0x7e, 0x7e, 0x7e, 0xfe, 0x7e,
                                     0x7f, 0xff, 0x7f, 0xff, 0x00, 0x02, 0x00, 0x00, 0x00, 0x80 };
    static const uint8_t want5[] = { 0x00, 0x80, 0x3c, 0x3c, 0x3d, 0x5f, 0x5f, 0x7b, 0xfb, 0x7b,
                                     0x7c, 0xfc, 0x7f, 0xff, 0x14, 0x1a, 0x00, 0x02, 0x04, 0x80 };
    int64_t n = (int64_t)(sizeof in / sizeof *in);
    for (int f = 0; f < 2; f++) {
        rdx_dtype d = rdx_dtype_of(f ? RDX_FP8E5M2 : RDX_FP8E4M3);
        const rdx_tensor *c =
            rdx_tensor_bitcast(g, rdx_tensor_from_data(g, u8, 1, (int64_t[]){ 256 }, codes), d);
        rdx_array r = treal(g, rdx_tensor_cast(g, c, f32));
        ck_assert_uint_eq(r.dtype.scalar, RDX_FLOAT32);
        for (int k = 0; k < 256; k++) {
            float got = ((const float *)r.data)[k];
            double want = ocp_value((unsigned)k, f);
            ck_assert_msg(isnan(want) ? isnan(got)
                                      : (double)got == want && !signbit(got) == !(k & 0x80),
                          "%s 0x%02x: %a, want %a", rdx_scalar_name((rdx_scalar)d.scalar), k,
                          (double)got, want);
        }
        const rdx_tensor *x = tf32(g, 1, &n, in);
        rdx_array e = treal(g, rdx_tensor_bitcast(g, rdx_tensor_cast(g, x, d), u8));
        const uint8_t *w = f ? want5 : want4;
        for (int64_t k = 0; k < n; k++)
            ck_assert_msg(((const uint8_t *)e.data)[k] == w[k], "%s of %a: 0x%02x, want 0x%02x",
                          rdx_scalar_name((rdx_scalar)d.scalar), (double)in[k],
                          ((const uint8_t *)e.data)[k], w[k]);
        /* float64 rounds once (not through float32); int32 and float16 through their values */
        double dv[] = { 1.0625 + 0x1p-40, 464.0, 0x1.0000001p-10 };
        rdx_array dr = treal(
            g, rdx_tensor_bitcast(g,
                                  rdx_tensor_cast(g,
                                                  rdx_tensor_from_data(g, rdx_dtype_of(RDX_FLOAT64),
                                                                       1, (int64_t[]){ 3 }, dv),
                                                  d),
                                  u8));
        const uint8_t dw[2][3] = { { 0x39, 0x7e, 0x01 }, { 0x3c, 0x5f, 0x14 } };
        for (int k = 0; k < 3; k++)
            ck_assert_uint_eq(((const uint8_t *)dr.data)[k], dw[f][k]);
        int32_t iv[] = { 17, 1000, -70000 };
        rdx_array ir = treal(
            g, rdx_tensor_bitcast(g, rdx_tensor_cast(g, ti32(g, 1, (int64_t[]){ 3 }, iv), d), u8));
        const uint8_t iw[2][3] = { { 0x58, 0x7e, 0xfe }, { 0x4c, 0x64, 0xfb } };
        for (int k = 0; k < 3; k++)
            ck_assert_uint_eq(((const uint8_t *)ir.data)[k], iw[f][k]);
        /* sum of 297 ones: float32 297 rounded once (E4M3: 288, E5M2: 320) */
        const rdx_tensor *s =
            rdx_tensor_sum(g, rdx_tensor_ones(g, d, 1, (int64_t[]){ 297 }), 0, NULL, 0);
        ck_assert_uint_eq(s->dtype.scalar, d.scalar);
        rdx_array sr = treal(g, s);
        ck_assert_double_eq(rdx_array_get(&sr, 0), f ? 320.0 : 288.0);
        /* 1 + 1/16 in fp8: float32 1.0625 rounded to even (1.0 in both) */
        const rdx_tensor *a = rdx_tensor_add(g, rdx_tensor_ones(g, d, 1, (int64_t[]){ 1 }),
                                             rdx_tensor_full(g, d, 1, (int64_t[]){ 1 }, 0.0625));
        rdx_array ar = treal(g, a);
        ck_assert_uint_eq(ar.dtype.scalar, d.scalar);
        ck_assert_double_eq(rdx_array_get(&ar, 0), 1.0);
    }
    rdx_graph_destroy(g);
}
END_TEST

TCase *tensor_tcase_semantics(void)
{
    TCase *tc = tcase_create("semantics");
    tcase_add_test(tc, where_broadcasts_all_three_operands);
    tcase_add_test(tc, sum_dtypes_follow_tinygrad);
    tcase_add_test(tc, pow_of_negative_bases);
    tcase_add_test(tc, pow_of_integers);
    tcase_add_test(tc, fp8_casts_follow_tinygrad);
    return tc;
}
