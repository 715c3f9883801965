/*
 * tests/ir/fp8_test.c — the fp8 dtypes (fp8e4m3 = OCP E4M3FN, fp8e5m2 = OCP E5M2): the table
 * row, text form, promotion, and the conversions with tinygrad's semantics (round to nearest
 * even, finite overflow saturates, inf/NaN as docs/tensor.md), against known codes from the
 * OCP 8-bit float specification and a brute-force nearest-code search.
 */
#include <math.h>
#include <string.h>

#include "tests/ir/ir_test.h"

/* Known codes: OCP "8-bit Floating Point Specification (OFP8)" v1.0, tables 1 and 2. */
START_TEST(fp8_known_codes)
{
    static const struct {
        rdx_scalar s;
        uint8_t c;
        double v;
    } t[] = {
        { RDX_FP8E4M3, 0x00, 0.0 },       { RDX_FP8E4M3, 0x01, 0x1p-9 }, /* smallest subnormal */
        { RDX_FP8E4M3, 0x07, 0x1.cp-7 },  /* largest subnormal 0.875 * 2^-6 */
        { RDX_FP8E4M3, 0x08, 0x1p-6 },    /* smallest normal */
        { RDX_FP8E4M3, 0x38, 1.0 },       /* bias 7 */
        { RDX_FP8E4M3, 0x3c, 1.5 },       /* */
        { RDX_FP8E4M3, 0x40, 2.0 },       /* */
        { RDX_FP8E4M3, 0x77, 240.0 },     /* S.1110.111 */
        { RDX_FP8E4M3, 0x78, 256.0 },     /* S.1111.000: a number in E4M3FN */
        { RDX_FP8E4M3, 0x7e, 448.0 },     /* largest normal S.1111.110 */
        { RDX_FP8E4M3, 0x80, -0.0 },      /* */
        { RDX_FP8E4M3, 0xfe, -448.0 },    /* */
        { RDX_FP8E4M3, 0xb8, -1.0 },      /* */
        { RDX_FP8E5M2, 0x00, 0.0 },       /* */
        { RDX_FP8E5M2, 0x01, 0x1p-16 },   /* smallest subnormal */
        { RDX_FP8E5M2, 0x03, 0x1.8p-15 }, /* largest subnormal 0.75 * 2^-14 */
        { RDX_FP8E5M2, 0x04, 0x1p-14 },   /* smallest normal */
        { RDX_FP8E5M2, 0x3c, 1.0 },       /* bias 15 */
        { RDX_FP8E5M2, 0x7b, 57344.0 },   /* largest normal */
        { RDX_FP8E5M2, 0x7c, INFINITY },  /* */
        { RDX_FP8E5M2, 0xfc, -INFINITY }, /* */
        { RDX_FP8E5M2, 0xc0, -2.0 },      /* */
    };
    for (size_t k = 0; k < sizeof t / sizeof *t; k++) {
        double v = rdx_fp8_to_f64(t[k].c, t[k].s);
        ck_assert_msg(v == t[k].v && !!signbit(v) == !!signbit(t[k].v), "%s 0x%02x: %a",
                      rdx_scalar_name(t[k].s), t[k].c, v);
        ck_assert_uint_eq(rdx_f64_to_fp8(t[k].v, t[k].s), t[k].c);
    }
    /* the NaN codes: E4M3FN only S.1111.111, E5M2 S.11111.{01,10,11} */
    for (unsigned c = 0; c < 256; c++) {
        int nan4 = (c & 0x7f) == 0x7f, nan5 = (c & 0x7f) > 0x7c;
        ck_assert_int_eq(!!isnan(rdx_fp8_to_f64((uint8_t)c, RDX_FP8E4M3)), nan4);
        ck_assert_int_eq(!!isnan(rdx_fp8_to_f64((uint8_t)c, RDX_FP8E5M2)), nan5);
    }
}
END_TEST

/* The nearest code of v by search over all finite codes (ties: the even code), then
   tinygrad's rules for what lies beyond the largest finite value. */
static uint8_t nearest_code(double v, rdx_scalar s)
{
    unsigned maxc = s == RDX_FP8E4M3 ? 0x7e : 0x7b;
    uint8_t sign = signbit(v) ? 0x80 : 0;
    double a = fabs(v), best = INFINITY;
    unsigned bc = 0;
    for (unsigned c = 0; c <= maxc; c++) {
        double d = fabs(rdx_fp8_to_f64((uint8_t)c, s) - a);
        if (d < best || (d == best && !(c & 1)))
            best = d, bc = c;
    }
    return (uint8_t)(sign | bc); /* beyond the largest: it is the nearest (saturation) */
}

START_TEST(fp8_encode_is_nearest_even_saturating)
{
    static const rdx_scalar ss[] = { RDX_FP8E4M3, RDX_FP8E5M2 };
    uint64_t seed = 21;
    for (int f = 0; f < 2; f++) {
        rdx_scalar s = ss[f];
        /* every code decodes and encodes back */
        for (unsigned c = 0; c < 256; c++) {
            double v = rdx_fp8_to_f64((uint8_t)c, s);
            if (!isnan(v))
                ck_assert_uint_eq(rdx_f64_to_fp8(v, s), c);
        }
        /* every midpoint between neighbouring finite codes, and just either side of it */
        unsigned maxc = s == RDX_FP8E4M3 ? 0x7e : 0x7b;
        for (unsigned c = 0; c < maxc; c++) {
            double lo = rdx_fp8_to_f64((uint8_t)c, s), hi = rdx_fp8_to_f64((uint8_t)(c + 1), s);
            double mid = (lo + hi) / 2;
            double pts[] = { mid, nextafter(mid, 0), nextafter(mid, INFINITY) };
            for (int k = 0; k < 3; k++)
                for (int sg = 0; sg < 2; sg++) {
                    double v = sg ? -pts[k] : pts[k];
                    ck_assert_msg(rdx_f64_to_fp8(v, s) == nearest_code(v, s), "%s %a: 0x%02x",
                                  rdx_scalar_name(s), v, rdx_f64_to_fp8(v, s));
                }
        }
        /* random doubles over the whole range and beyond */
        for (int k = 0; k < 20000; k++) {
            uint64_t r = ir_rand(&seed);
            double v = ldexp((double)(r >> 11) / 9007199254740992.0, (int)(r % 44) - 26);
            if (r & 1024)
                v = -v;
            ck_assert_msg(rdx_f64_to_fp8(v, s) == nearest_code(v, s), "%s %a", rdx_scalar_name(s),
                          v);
        }
    }
}
END_TEST

START_TEST(fp8_edges_follow_tinygrad)
{
    static const struct {
        rdx_scalar s;
        double v;
        uint8_t c;
    } t[] = {
        /* finite overflow saturates (IEEE rounding would give NaN / inf) */
        { RDX_FP8E4M3, 449.0, 0x7e },
        { RDX_FP8E4M3, 464.0, 0x7e }, /* the tie to 480: even is 448 */
        { RDX_FP8E4M3, 465.0, 0x7e },
        { RDX_FP8E4M3, 1e30, 0x7e },
        { RDX_FP8E4M3, -1e300, 0xfe },
        { RDX_FP8E4M3, 0x1.fffffep127, 0x7e }, /* float32's largest */
        { RDX_FP8E5M2, 61439.0, 0x7b },
        { RDX_FP8E5M2, 61440.0, 0x7b }, /* the tie to 65536 (IEEE: inf) */
        { RDX_FP8E5M2, -1e30, 0xfb },
        /* infinities: E4M3FN has none (NaN with the sign), E5M2 keeps them */
        { RDX_FP8E4M3, INFINITY, 0x7f },
        { RDX_FP8E4M3, -INFINITY, 0xff },
        { RDX_FP8E5M2, INFINITY, 0x7c },
        { RDX_FP8E5M2, -INFINITY, 0xfc },
        /* NaN: 0x7f with its sign */
        { RDX_FP8E4M3, NAN, 0x7f },
        { RDX_FP8E4M3, -NAN, 0xff },
        { RDX_FP8E5M2, NAN, 0x7f },
        { RDX_FP8E5M2, -NAN, 0xff },
        /* zeros and underflow keep the sign */
        { RDX_FP8E4M3, -0.0, 0x80 },
        { RDX_FP8E4M3, 0x1p-10, 0x00 },  /* half the smallest subnormal: tie to 0 */
        { RDX_FP8E4M3, -0x1p-10, 0x80 }, /* */
        { RDX_FP8E4M3, 0x1.000001p-10, 0x01 },
        { RDX_FP8E4M3, 0x1p-149, 0x00 },  /* float32's smallest denormal */
        { RDX_FP8E4M3, 0x3p-10, 0x02 },   /* subnormal ties to even: 1.5 quanta -> 2 */
        { RDX_FP8E4M3, 0x5p-10, 0x02 },   /* 2.5 quanta -> 2 */
        { RDX_FP8E4M3, 0xfp-10, 0x08 },   /* 7.5 quanta: up into the smallest normal */
        { RDX_FP8E4M3, 1.0625, 0x38 },    /* normal tie 1 + 1/16: to 1.0 */
        { RDX_FP8E4M3, 1.1875, 0x3a },    /* 1 + 3/16: to 1.25 */
        { RDX_FP8E4M3, 0x1.fp0, 0x40 },   /* 1.9375: carry into the exponent */
        { RDX_FP8E5M2, 0x1p-17, 0x00 },   /* */
        { RDX_FP8E5M2, 0x3p-17, 0x02 },   /* */
        { RDX_FP8E5M2, 1.125, 0x3c },     /* 1 + 1/8: to 1.0 */
        { RDX_FP8E5M2, 1.375, 0x3e },     /* 1 + 3/8: to 1.5 */
        { RDX_FP8E5M2, 0x1.cp-15, 0x04 }, /* 3.5 subnormal quanta -> the smallest normal */
    };
    for (size_t k = 0; k < sizeof t / sizeof *t; k++)
        ck_assert_msg(rdx_f64_to_fp8(t[k].v, t[k].s) == t[k].c, "%s %a: 0x%02x, want 0x%02x",
                      rdx_scalar_name(t[k].s), t[k].v, rdx_f64_to_fp8(t[k].v, t[k].s), t[k].c);
}
END_TEST

START_TEST(fp8_dtype_row)
{
    rdx_dtype e4 = rdx_dtype_of(RDX_FP8E4M3), e5 = rdx_dtype_of(RDX_FP8E5M2);
    ck_assert_uint_eq(rdx_dtype_itemsize(e4), 1);
    ck_assert_uint_eq(rdx_dtype_itemsize(rdx_dtype_vec(e5, 4)), 4);
    ck_assert(rdx_dtype_is_float(e4) && rdx_dtype_is_float(e5) && !rdx_dtype_is_int(e4));
    char buf[64];
    static const char *ok[] = { "fp8e4m3", "fp8e5m2", "fp8e4m3x16", "fp8e5m2*local" };
    for (size_t k = 0; k < sizeof ok / sizeof *ok; k++) {
        rdx_dtype d;
        ck_assert_int_eq(rdx_dtype_parse(ok[k], strlen(ok[k]), &d), RDX_OK);
        ck_assert_str_eq(rdx_dtype_str(d, buf, sizeof buf), ok[k]);
    }
    /* promotion as tinygrad's lattice: ints < fp8 < float16/bfloat16; the two fp8s meet in
       float16; two non-fp8 dtypes never give an fp8 */
    static const rdx_scalar p[][3] = {
        { RDX_INT32, RDX_FP8E4M3, RDX_FP8E4M3 },     { RDX_UINT64, RDX_FP8E5M2, RDX_FP8E5M2 },
        { RDX_BOOL, RDX_FP8E4M3, RDX_FP8E4M3 },      { RDX_FP8E4M3, RDX_FP8E5M2, RDX_FLOAT16 },
        { RDX_FP8E4M3, RDX_BFLOAT16, RDX_BFLOAT16 }, { RDX_FP8E5M2, RDX_FLOAT32, RDX_FLOAT32 },
        { RDX_INT64, RDX_UINT64, RDX_FLOAT16 },      { RDX_INDEX, RDX_FP8E4M3, RDX_FP8E4M3 },
    };
    for (size_t k = 0; k < sizeof p / sizeof *p; k++) {
        ck_assert_msg(rdx_dtype_promote(rdx_dtype_of(p[k][0]), rdx_dtype_of(p[k][1])).scalar ==
                          p[k][2],
                      "%s + %s", rdx_scalar_name(p[k][0]), rdx_scalar_name(p[k][1]));
        ck_assert(rdx_dtype_promote(rdx_dtype_of(p[k][1]), rdx_dtype_of(p[k][0])).scalar ==
                  p[k][2]);
    }
}
END_TEST

TCase *ir_tcase_fp8(void)
{
    TCase *tc = tcase_create("fp8");
    tcase_add_test(tc, fp8_known_codes);
    tcase_add_test(tc, fp8_encode_is_nearest_even_saturating);
    tcase_add_test(tc, fp8_edges_follow_tinygrad);
    tcase_add_test(tc, fp8_dtype_row);
    return tc;
}
