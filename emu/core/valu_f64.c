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
        LANES                                                        \
        {                                                            \
            double x = a[l], y = b[l];                               \
            r[l] = (EXPR);                                           \
        }                                                            \
        vdstd(w, in, r);                                             \
    }
#define D1(NAME, EXPR)                             \
    void NAME(emu_wave *w, const emu_inst *in)     \
    {                                              \
        double a[EMU_MAX_LANES], r[EMU_MAX_LANES]; \
        vsrcd(w, in, 0, a);                        \
        LANES                                      \
        {                                          \
            double x = a[l];                       \
            r[l] = (EXPR);                         \
        }                                          \
        vdstd(w, in, r);                           \
    }
#define D3(NAME, EXPR)                                                                 \
    void NAME(emu_wave *w, const emu_inst *in)                                         \
    {                                                                                  \
        double a[EMU_MAX_LANES], b[EMU_MAX_LANES], c[EMU_MAX_LANES], r[EMU_MAX_LANES]; \
        vsrcd(w, in, 0, a);                                                            \
        vsrcd(w, in, 1, b);                                                            \
        vsrcd(w, in, 2, c);                                                            \
        LANES                                                                          \
        {                                                                              \
            double x = a[l], y = b[l], z = c[l];                                       \
            r[l] = (EXPR);                                                             \
        }                                                                              \
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
D1(emu_v_rndne_f64, rint(x))
D1(emu_v_fract_f64, isinf(x) ? (x != x ? x : 0.0 * x) : fmin(x - floor(x), 0x1.fffffffffffffp-1))
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
    LANES
    {
        int32_t e = (int32_t)b[l];
        e = e < -3000 ? -3000 : e > 3000 ? 3000 : e;
        r[l] = ldexp(a[l], e);
    }
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
            d = NAN;
        } else if (e2 - e1 >= 768) {
            v = 1;
            if (s0 == s1)
                d = ldexp(s0, 128);
        } else if (e1 == 0) {
            d = ldexp(s0, 128);
        } else if (fpclassify(1.0 / s1) == FP_SUBNORMAL) {
            if (fpclassify(s2 / s1) == FP_SUBNORMAL) {
                v = 1;
                if (s0 == s1)
                    d = ldexp(s0, 128);
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
    LANES
    r[l] = ((vcc >> l) & 1) ? (exp64(c[l]) > 1023 ? 0x1p128 : 0x1p-128) * fma(a[l], b[l], c[l])
                            : fma(a[l], b[l], c[l]);
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
