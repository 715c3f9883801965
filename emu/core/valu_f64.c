/* emu/core/valu_f64.c — 64-bit float VALU ops and the f64 division helpers. */
#include <float.h>

#include "emu/core/valu.h"

#define DBL_MAX_ DBL_MAX

#define D2(NAME, EXPR)                                               \
    void NAME(emu_wave *w, const emu_inst *in)                       \
    {                                                                \
        double a[EMU_MAX_LANES], b[EMU_MAX_LANES], r[EMU_MAX_LANES]; \
        vsrcd(w, in, 0, a);                                          \
        vsrcd(w, in, 1, b);                                          \
        int rs_ = f64_round_enter(w, a, b, b);                       \
        LANES                                                        \
        {                                                            \
            double x = a[l], y = b[l];                               \
            r[l] = (EXPR);                                           \
        }                                                            \
        f64_round_leave(w, rs_, r);                                  \
        vdstd(w, in, r);                                             \
    }
#define D1(NAME, EXPR)                             \
    void NAME(emu_wave *w, const emu_inst *in)     \
    {                                              \
        double a[EMU_MAX_LANES], r[EMU_MAX_LANES]; \
        vsrcd(w, in, 0, a);                        \
        int rs_ = f64_round_enter(w, a, a, a);     \
        LANES                                      \
        {                                          \
            double x = a[l];                       \
            r[l] = (EXPR);                         \
        }                                          \
        f64_round_leave(w, rs_, r);                \
        vdstd(w, in, r);                           \
    }
#define D3(NAME, EXPR)                                                                 \
    void NAME(emu_wave *w, const emu_inst *in)                                         \
    {                                                                                  \
        double a[EMU_MAX_LANES], b[EMU_MAX_LANES], c[EMU_MAX_LANES], r[EMU_MAX_LANES]; \
        vsrcd(w, in, 0, a);                                                            \
        vsrcd(w, in, 1, b);                                                            \
        vsrcd(w, in, 2, c);                                                            \
        int rs_ = f64_round_enter(w, a, b, c);                                         \
        LANES                                                                          \
        {                                                                              \
            double x = a[l], y = b[l], z = c[l];                                       \
            r[l] = (EXPR);                                                             \
        }                                                                              \
        f64_round_leave(w, rs_, r);                                                    \
        vdstd(w, in, r);                                                               \
    }

static inline double dmin(const emu_wave *w, double x, double y)
{
    (void)w;
    if (x != x)
        return y;
    if (y != y)
        return x;
    if (x == y)
        return signbit(x) ? x : y;
    return x < y ? x : y;
}
static inline double dmax(const emu_wave *w, double x, double y)
{
    (void)w;
    if (x != x)
        return y;
    if (y != y)
        return x;
    if (x == y)
        return signbit(x) ? y : x;
    return x > y ? x : y;
}
static double dfrexp_mant(double x)
{
    if (isinf(x) || x != x)
        return x;
    int e;
    return frexp(x, &e);
}

D2(emu_v_add_f64, x + y)
D2(emu_v_mul_f64, x *y)
D2(emu_v_min_f64, dmin(w, x, y))
D2(emu_v_max_f64, dmax(w, x, y))
D3(emu_v_fma_f64, fma(x, y, z))
D1(emu_v_trunc_f64, trunc(x))
D1(emu_v_ceil_f64, ceil(x))
D1(emu_v_floor_f64, floor(x))
D1(emu_v_rndne_f64, fp_rne(x))
D1(emu_v_fract_f64, x != x ? x : isinf(x) ? 0.0 * x : fmin(x - floor(x), 0x1.fffffffffffffp-1))
D1(emu_v_rcp_f64, 1.0 / x)
D1(emu_v_rsq_f64, 1.0 / sqrt(x))
D1(emu_v_sqrt_f64, sqrt(x))
D1(emu_v_frexp_mant_f64, dfrexp_mant(x))

void emu_v_ldexp_f64(emu_wave *w, const emu_inst *in)
{
    double a[EMU_MAX_LANES], r[EMU_MAX_LANES];
    uint32_t tb[EMU_MAX_LANES];
    vsrcd(w, in, 0, a);
    const uint32_t *b = vsrc(w, in, 1, tb);
    int rs = f64_round_enter(w, a, b, b);
    LANES
    {
        int32_t e = (int32_t)b[l];
        e = e < -3000 ? -3000 : e > 3000 ? 3000 : e;
        r[l] = ldexp(a[l], e);
    }
    f64_round_leave(w, rs, r);
    vdstd(w, in, r);
}

void emu_v_frexp_exp_i32_f64(emu_wave *w, const emu_inst *in)
{
    double a[EMU_MAX_LANES];
    uint32_t r[EMU_MAX_LANES];
    vsrcd(w, in, 0, a);
    LANES
    {
        int e = 0;
        if (!isinf(a[l]) && a[l] == a[l])
            frexp(a[l], &e);
        r[l] = (uint32_t)e;
    }
    vdst(w, in, r);
}

static int exp64(double x)
{
    return (int)((u64_of(x) >> 52) & 0x7ff);
}

void emu_v_div_scale_f64(emu_wave *w, const emu_inst *in)
{
    double a[EMU_MAX_LANES], b[EMU_MAX_LANES], c[EMU_MAX_LANES], r[EMU_MAX_LANES];
    vsrcd(w, in, 0, a);
    vsrcd(w, in, 1, b);
    vsrcd(w, in, 2, c);
    uint64_t vcc = 0;
    LANES
    {
        double s0 = a[l], s1 = b[l], s2 = c[l], d = s0;
        int v = 0, e1 = exp64(s1), e2 = exp64(s2);
        if (s2 == 0.0 || s1 == 0.0) {
            v = 1; /* silicon (test/amd/hw TestDivScaleF64); the pcode leaves VCC 0 */
            d = NAN;
        } else if (e2 - e1 >= 768) {
            v = 1;
            if (s0 == s1)
                d = ldexp(s0, 128);
        } else if (e1 == 0) {
            d = ldexp(s0, 128);
        } else if (fpclassify(1.0 / s1) == FP_SUBNORMAL) {
            if (fpclassify(s2 / s1) == FP_SUBNORMAL) {
                /* The guide's pcode says ldexp(S0, 128) here, as in the near-MAX case; but
                   1/S1 is subnormal only for |S1| > 2^1022, which that overflows to inf,
                   and fdiv's sequence (v_div_fmas scales back by 2^-128 as the quotient
                   estimate is small) then gives NaN for 1.0/x.  The denominator is scaled
                   down, which makes that sequence correctly rounded (fuzz seed 900016). */
                v = 1;
                if (s0 == s1)
                    d = ldexp(s0, -128);
            } else {
                d = ldexp(s0, -128);
            }
        } else if (fpclassify(s2 / s1) == FP_SUBNORMAL) {
            v = 1;
            if (s0 == s2)
                d = ldexp(s0, 128);
        } else if (e2 <= 53) {
            d = ldexp(s0, 128);
        }
        r[l] = d;
        vcc |= (uint64_t)v << l;
    }
    vdstd(w, in, r);
    sdst_mask(w, in, vcc);
}

void emu_v_div_fmas_f64(emu_wave *w, const emu_inst *in)
{
    double a[EMU_MAX_LANES], b[EMU_MAX_LANES], c[EMU_MAX_LANES], r[EMU_MAX_LANES];
    vsrcd(w, in, 0, a);
    vsrcd(w, in, 1, b);
    vsrcd(w, in, 2, c);
    uint64_t vcc = w->s[EMU_VCC] | (w->nl == 64 ? (uint64_t)w->s[EMU_VCC + 1] << 32 : 0);
    int rs = f64_round_enter(w, a, b, c);
    LANES
    r[l] = ((vcc >> l) & 1) ? (exp64(c[l]) > 1023 ? 0x1p128 : 0x1p-128) * fma(a[l], b[l], c[l])
                            : fma(a[l], b[l], c[l]);
    f64_round_leave(w, rs, r);
    vdstd(w, in, r);
}

void emu_v_div_fixup_f64(emu_wave *w, const emu_inst *in)
{
    double a[EMU_MAX_LANES], b[EMU_MAX_LANES], c[EMU_MAX_LANES], r[EMU_MAX_LANES];
    vsrcd(w, in, 0, a);
    vsrcd(w, in, 1, b);
    vsrcd(w, in, 2, c);
    LANES
    {
        double s0 = a[l], s1 = b[l], s2 = c[l], d;
        int sign = signbit(s1) != signbit(s2);
        if (s2 != s2)
            d = s2;
        else if (s1 != s1)
            d = s1;
        else if ((s1 == 0.0 && s2 == 0.0) || (isinf(s1) && isinf(s2)))
            d = f64_of(0xfff8000000000000ull);
        else if (s1 == 0.0 || isinf(s2))
            d = sign ? -INFINITY : INFINITY;
        else if (isinf(s1) || s2 == 0.0)
            d = sign ? -0.0 : 0.0;
        else if (exp64(s2) - exp64(s1) < -1075)
            d = sign ? -0x1p-1074 : 0x1p-1074;
        else if (exp64(s1) == 2047)
            d = sign ? -DBL_MAX_ : DBL_MAX_;
        else
            d = sign ? -fabs(s0) : fabs(s0);
        r[l] = d;
    }
    vdstd(w, in, r);
}

/* The fraction bits of 2/pi, most significant first (0.a2f9836e... in hex). */
static const uint32_t two_over_pi[38] = {
    0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab, 0xdebbc561,
    0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c, 0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484,
    0xe99c7026, 0xb45f7e41, 0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f,
    0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7, 0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b,
    0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08, 0x56033046, 0xfc7b6bab,
};

/* 53 bits of 2/pi starting at fraction bit `pos` (0 = the first bit after the point). */
static uint64_t two_over_pi_bits(unsigned pos)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 53; i++) {
        unsigned b = pos + i;
        unsigned bit = b < 1201 ? (two_over_pi[b / 32] >> (31 - b % 32)) & 1 : 0;
        v = v << 1 | bit;
    }
    return v;
}

/*
 * v_trig_preop_f64: the 53-bit segment S1[4:0] of 2/pi (shifted further for huge S0),
 * scaled so that it lines up with its position: D = bits * 2^(-53 - shift).
 */
void emu_v_trig_preop_f64(emu_wave *w, const emu_inst *in)
{
    double a[EMU_MAX_LANES], r[EMU_MAX_LANES];
    uint32_t tb[EMU_MAX_LANES];
    vsrcd(w, in, 0, a);
    const uint32_t *b = vsrc(w, in, 1, tb);
    LANES
    {
        int e = exp64(a[l]);
        unsigned shift = (b[l] & 31) * 53;
        if (e > 1077)
            shift += (unsigned)(e - 1077);
        int scale = -53 - (int)shift;
        if (e >= 1968)
            scale += 128;
        r[l] = ldexp((double)two_over_pi_bits(shift), scale);
    }
    vdstd(w, in, r);
}
