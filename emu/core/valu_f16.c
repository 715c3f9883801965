/*
 * emu/core/valu_f16.c — 16-bit float VALU ops.  Sources are widened to double
 * (exact), the operation is done in double — exactly for add/sub/mul, rounded
 * to odd at 53 bits for fma (f16_fma_rto) — and rounded once to f16 with
 * MODE's f16/f64 rounding mode (FP_ROUND[3:2]); the result goes to the
 * destination half (the other half is preserved, as gfx11 16-bit ops do).
 */
#include "emu/core/valu.h"

#define H2(NAME, EXPR)                            \
    void NAME(emu_wave *w, const emu_inst *in)    \
    {                                             \
        float a[EMU_MAX_LANES], b[EMU_MAX_LANES]; \
        double r[EMU_MAX_LANES];                  \
        unsigned rm = emu_round64(w);             \
        (void)rm;                                 \
        vsrch(w, in, 0, a);                       \
        vsrch(w, in, 1, b);                       \
        LANES                                     \
        {                                         \
            double x = a[l], y = b[l];            \
            r[l] = (EXPR);                        \
        }                                         \
        vdsthd(w, in, r);                         \
    }
#define H1(NAME, EXPR)                         \
    void NAME(emu_wave *w, const emu_inst *in) \
    {                                          \
        float a[EMU_MAX_LANES];                \
        double r[EMU_MAX_LANES];               \
        vsrch(w, in, 0, a);                    \
        LANES                                  \
        {                                      \
            double x = a[l];                   \
            r[l] = (EXPR);                     \
        }                                      \
        vdsthd(w, in, r);                      \
    }
#define H3(NAME, EXPR)                                              \
    void NAME(emu_wave *w, const emu_inst *in)                      \
    {                                                               \
        float a[EMU_MAX_LANES], b[EMU_MAX_LANES], c[EMU_MAX_LANES]; \
        double r[EMU_MAX_LANES];                                    \
        unsigned rm = emu_round64(w);                               \
        (void)rm;                                                   \
        vsrch(w, in, 0, a);                                         \
        vsrch(w, in, 1, b);                                         \
        vsrch(w, in, 2, c);                                         \
        LANES                                                       \
        {                                                           \
            double x = a[l], y = b[l], z = c[l];                    \
            r[l] = (EXPR);                                          \
        }                                                           \
        vdsthd(w, in, r);                                           \
    }

static inline double hmin(double x, double y)
{
    return f32_of(f32_min_hw(u32_of((float)x), u32_of((float)y), 0));
}
static inline double hmax(double x, double y)
{
    return f32_of(f32_max_hw(u32_of((float)x), u32_of((float)y), 0));
}
static inline double hmed3(double x, double y, double z)
{
    if (x != x || y != y || z != z)
        return hmin(hmin(x, y), z);
    return hmax(hmin(x, y), hmin(hmax(x, y), z));
}
static double hsin(double x)
{
    return isinf(x) || x != x ? NAN : sin((x - fp_rne(x)) * 6.283185307179586);
}
static double hcos(double x)
{
    return isinf(x) || x != x ? NAN : cos((x - fp_rne(x)) * 6.283185307179586);
}
static double hfrexp_mant(double x)
{
    int e;
    return isinf(x) || x != x ? x : frexp(x, &e);
}

H2(emu_v_add_f16, f16_fma_rto(x, 1.0, y, rm)) /* exact, and -0 under RD */
H2(emu_v_sub_f16, f16_fma_rto(x, 1.0, -y, rm))
H2(emu_v_subrev_f16, f16_fma_rto(y, 1.0, -x, rm))
H2(emu_v_mul_f16, x *y)
H2(emu_v_max_f16, hmax(x, y))
H2(emu_v_min_f16, hmin(x, y))
H3(emu_v_fma_f16, f16_fma_rto(x, y, z, rm))
H3(emu_v_min3_f16, hmin(hmin(x, y), z))
H3(emu_v_max3_f16, hmax(hmax(x, y), z))
H3(emu_v_med3_f16, hmed3(x, y, z))
H3(emu_v_minmax_f16, hmax(hmin(x, y), z))
H3(emu_v_maxmin_f16, hmin(hmax(x, y), z))
H1(emu_v_rcp_f16, 1.0 / x)
H1(emu_v_sqrt_f16, sqrt(x))
H1(emu_v_rsq_f16, 1.0 / sqrt(x))
H1(emu_v_log_f16, log2(x))
H1(emu_v_exp_f16, exp2(x))
H1(emu_v_floor_f16, floor(x))
H1(emu_v_ceil_f16, ceil(x))
H1(emu_v_trunc_f16, trunc(x))
H1(emu_v_rndne_f16, fp_rne(x))
H1(emu_v_fract_f16, x != x ? x : isinf(x) ? 0.0 * x : fmin(x - floor(x), 0x1.ffcp-1))
H1(emu_v_sin_f16, hsin(x))
H1(emu_v_cos_f16, hcos(x))
H1(emu_v_frexp_mant_f16, hfrexp_mant(x))

void emu_v_fmac_f16(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES], b[EMU_MAX_LANES];
    double r[EMU_MAX_LANES];
    unsigned rm = emu_round64(w);
    vsrch(w, in, 0, a);
    vsrch(w, in, 1, b);
    uint32_t tmp[EMU_MAX_LANES];
    const uint32_t *d = emu_v32(w, &in->dst, tmp);
    LANES
    r[l] = f16_fma_rto(a[l], b[l], f16_to_f32((uint16_t)d[l]), rm);
    vdsthd(w, in, r);
}

/* v_fmamk_f16 D = S0 * K + S1; v_fmaak_f16 D = S0 * S1 + K (K: the f16 in the literal's
   bits 15:0, in src[2]) */
static void fma_k_f16(emu_wave *w, const emu_inst *in, int k_mul)
{
    float a[EMU_MAX_LANES], b[EMU_MAX_LANES];
    double r[EMU_MAX_LANES];
    unsigned rm = emu_round64(w);
    vsrch(w, in, 0, a);
    vsrch(w, in, 1, b);
    uint16_t kh = (uint16_t)in->src[2].val;
    if (!(emu_denorm64(w) & 1))
        kh = f16_flush(kh);
    double k = f16_to_f32(kh);
    LANES
    r[l] = k_mul ? f16_fma_rto(a[l], k, b[l], rm) : f16_fma_rto(a[l], b[l], k, rm);
    vdsthd(w, in, r);
}
void emu_v_fmamk_f16(emu_wave *w, const emu_inst *in)
{
    fma_k_f16(w, in, 1);
}
void emu_v_fmaak_f16(emu_wave *w, const emu_inst *in)
{
    fma_k_f16(w, in, 0);
}

void emu_v_ldexp_f16(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES], r[EMU_MAX_LANES];
    uint32_t tb[EMU_MAX_LANES];
    vsrch(w, in, 0, a);
    const uint32_t *b = vsrc(w, in, 1, tb);
    LANES
    {
        int32_t e = (int16_t)b[l];
        e = e < -100 ? -100 : e > 100 ? 100 : e;
        r[l] = ldexpf(a[l], e);
    }
    vdsth(w, in, r);
}

void emu_v_frexp_exp_i16_f16(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES];
    uint32_t r[EMU_MAX_LANES];
    vsrch(w, in, 0, a);
    LANES
    {
        int e = 0;
        if (!isinf(a[l]) && a[l] == a[l])
            frexpf(a[l], &e);
        r[l] = (uint32_t)e & 0xffff;
    }
    vdst16(w, in, r);
}

void emu_v_div_fixup_f16(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES], b[EMU_MAX_LANES], c[EMU_MAX_LANES], r[EMU_MAX_LANES];
    vsrch(w, in, 0, a);
    vsrch(w, in, 1, b);
    vsrch(w, in, 2, c);
    LANES
    {
        float s0 = a[l], s1 = b[l], s2 = c[l], d;
        int sign = signbit(s1) != signbit(s2);
        if (s2 != s2)
            d = s2;
        else if (s1 != s1)
            d = s1;
        else if ((s1 == 0.0f && s2 == 0.0f) || (isinf(s1) && isinf(s2)))
            d = NAN;
        else if (s1 == 0.0f || isinf(s2))
            d = sign ? -INFINITY : INFINITY;
        else if (isinf(s1) || s2 == 0.0f)
            d = sign ? -0.0f : 0.0f;
        else
            d = sign ? -fabsf(s0) : fabsf(s0);
        r[l] = d;
    }
    vdsth(w, in, r);
}
