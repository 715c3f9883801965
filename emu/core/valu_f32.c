/*
 * emu/core/valu_f32.c — 32-bit float VALU ops (VOP1/VOP2/VOP3): arithmetic,
 * fma (exact, single rounding), IEEE min/max with the hardware's NaN rules,
 * rounding ops, transcendental ops (host libm in the hardware's documented
 * 1 ULP class of accuracy), and the division helpers v_div_scale/fmas/fixup.
 */
#include "emu/core/valu.h"

#define F2(NAME, EXPR)                                              \
    void NAME(emu_wave *w, const emu_inst *in)                      \
    {                                                               \
        float a[EMU_MAX_LANES], b[EMU_MAX_LANES], r[EMU_MAX_LANES]; \
        vsrcf(w, in, 0, a);                                         \
        vsrcf(w, in, 1, b);                                         \
        LANES                                                       \
        {                                                           \
            float x = a[l], y = b[l];                               \
            r[l] = (EXPR);                                          \
        }                                                           \
        vdstf(w, in, r);                                            \
    }
#define F1(NAME, EXPR)                            \
    void NAME(emu_wave *w, const emu_inst *in)    \
    {                                             \
        float a[EMU_MAX_LANES], r[EMU_MAX_LANES]; \
        vsrcf(w, in, 0, a);                       \
        LANES                                     \
        {                                         \
            float x = a[l];                       \
            r[l] = (EXPR);                        \
        }                                         \
        vdstf(w, in, r);                          \
    }
#define F3(NAME, EXPR)                                                                \
    void NAME(emu_wave *w, const emu_inst *in)                                        \
    {                                                                                 \
        float a[EMU_MAX_LANES], b[EMU_MAX_LANES], c[EMU_MAX_LANES], r[EMU_MAX_LANES]; \
        vsrcf(w, in, 0, a);                                                           \
        vsrcf(w, in, 1, b);                                                           \
        vsrcf(w, in, 2, c);                                                           \
        LANES                                                                         \
        {                                                                             \
            float x = a[l], y = b[l], z = c[l];                                       \
            r[l] = (EXPR);                                                            \
        }                                                                             \
        vdstf(w, in, r);                                                              \
    }

static inline float dx9mul(float x, float y)
{
    return (x == 0.0f || y == 0.0f) ? 0.0f : x * y;
}
static inline float fmin_hw(const emu_wave *w, float x, float y)
{
    return f32_of(f32_min_hw(u32_of(x), u32_of(y), emu_ieee(w)));
}
static inline float fmax_hw(const emu_wave *w, float x, float y)
{
    return f32_of(f32_max_hw(u32_of(x), u32_of(y), emu_ieee(w)));
}
static inline float med3(const emu_wave *w, float x, float y, float z)
{
    if (x != x || y != y || z != z)
        return fmin_hw(w, fmin_hw(w, x, y), z);
    float mx = fmax_hw(w, fmax_hw(w, x, y), z);
    if (mx == x)
        return fmax_hw(w, y, z);
    if (mx == y)
        return fmax_hw(w, x, z);
    return fmax_hw(w, x, y);
}

/* F2 with a fast path (valu.h FAST_F2) */
#define F2V(NAME, EXPR, VEXPR)                                      \
    void NAME(emu_wave *w, const emu_inst *in)                      \
    {                                                               \
        FAST_F2(VEXPR)                                              \
        float a[EMU_MAX_LANES], b[EMU_MAX_LANES], r[EMU_MAX_LANES]; \
        vsrcf(w, in, 0, a);                                         \
        vsrcf(w, in, 1, b);                                         \
        LANES                                                       \
        {                                                           \
            float x = a[l], y = b[l];                               \
            r[l] = (EXPR);                                          \
        }                                                           \
        vdstf(w, in, r);                                            \
    }

/* min / max of non-NaN lanes as f32_min_hw / f32_max_hw: equal values (-0, +0) by sign;
   a NaN source leaves the instruction to the general path */
static inline emu_v4u vmin_hw(emu_v4u a, emu_v4u b, emu_v4i *bad)
{
    emu_v4f x = (emu_v4f)a, y = (emu_v4f)b;
    *bad |= vnan(a) | vnan(b);
    emu_v4u lt = (emu_v4u)(x < y), eq = (emu_v4u)(x == y), neg = (emu_v4u)((emu_v4i)a < 0);
    emu_v4u pick = lt | (eq & neg); /* a when a < b, or equal and a has the sign */
    return (a & pick) | (b & ~pick);
}
static inline emu_v4u vmax_hw(emu_v4u a, emu_v4u b, emu_v4i *bad)
{
    emu_v4f x = (emu_v4f)a, y = (emu_v4f)b;
    *bad |= vnan(a) | vnan(b);
    emu_v4u gt = (emu_v4u)(x > y), eq = (emu_v4u)(x == y), neg = (emu_v4u)((emu_v4i)a < 0);
    emu_v4u pick = gt | (eq & ~neg); /* a when a > b, or equal and a lacks the sign */
    return (a & pick) | (b & ~pick);
}

F2V(emu_v_add_f32, x + y, x + y)
F2V(emu_v_sub_f32, x - y, x - y)
F2V(emu_v_subrev_f32, y - x, y - x)
F2V(emu_v_mul_f32, x *y, x *y)
F2(emu_v_mul_dx9_zero_f32, dx9mul(x, y))
F2V(emu_v_min_f32, fmin_hw(w, x, y), vmin_hw(a, b, &bad))
F2V(emu_v_max_f32, fmax_hw(w, x, y), vmax_hw(a, b, &bad))
F3(emu_v_fma_dx9_zero_f32, (x == 0.0f || y == 0.0f) ? z : fmaf(x, y, z))
F3(emu_v_min3_f32, fmin_hw(w, fmin_hw(w, x, y), z))
F3(emu_v_max3_f32, fmax_hw(w, fmax_hw(w, x, y), z))
F3(emu_v_med3_f32, med3(w, x, y, z))
F3(emu_v_minmax_f32, fmax_hw(w, fmin_hw(w, x, y), z))
F3(emu_v_maxmin_f32, fmin_hw(w, fmax_hw(w, x, y), z))

/* The fast path of the FMAs: r = A * B + C; returns 0 (nothing written) when a result is a
   NaN. */
static int fast_fma(emu_wave *w, const emu_inst *in, const uint32_t *A, const uint32_t *B,
                    const uint32_t *C)
{
    uint32_t r[EMU_MAX_LANES];
    if (in->dst.kind != EMU_K_VGPR)
        return 0;
    uint32_t *d = w->v[in->dst.reg];
    /* as FAST_F2: straight into the VGPR when every lane is written and it is no source */
    bool direct = w->wm_lanes == NL && A != d && B != d && C != d;
    if (emu_fma_lanes(direct ? d : r, A, B, C, NL))
        return 0;
    if (!direct)
        fdst32(w, in, r);
    return 1;
}

void emu_v_fma_f32(emu_wave *w, const emu_inst *in)
{
    if (emu_f32_plain(w, in)) {
        uint32_t ta[EMU_MAX_LANES], tb[EMU_MAX_LANES], tc[EMU_MAX_LANES];
        if (fast_fma(w, in, fsrc32(w, &in->src[0], ta), fsrc32(w, &in->src[1], tb),
                     fsrc32(w, &in->src[2], tc)))
            return;
    }
    float a[EMU_MAX_LANES], b[EMU_MAX_LANES], c[EMU_MAX_LANES], r[EMU_MAX_LANES];
    vsrcf(w, in, 0, a);
    vsrcf(w, in, 1, b);
    vsrcf(w, in, 2, c);
    LANES
    r[l] = fmaf(a[l], b[l], c[l]);
    vdstf(w, in, r);
}

/* v_fmac_f32: D = S0 * S1 + D */
void emu_v_fmac_f32(emu_wave *w, const emu_inst *in)
{
    if (!in->param && emu_f32_plain(w, in)) {
        uint32_t ta[EMU_MAX_LANES], tb[EMU_MAX_LANES];
        if (fast_fma(w, in, fsrc32(w, &in->src[0], ta), fsrc32(w, &in->src[1], tb),
                     w->v[in->dst.reg]))
            return;
    }
    float a[EMU_MAX_LANES], b[EMU_MAX_LANES], r[EMU_MAX_LANES];
    vsrcf(w, in, 0, a);
    vsrcf(w, in, 1, b);
    const uint32_t *d = w->v[in->dst.reg];
    if (in->param) /* dx9 zero */
        LANES
    r[l] = (a[l] == 0.0f || b[l] == 0.0f) ? f32_of(d[l]) : fmaf(a[l], b[l], f32_of(d[l]));
    else LANES r[l] = fmaf(a[l], b[l], f32_of(d[l]));
    vdstf(w, in, r);
}

/* v_fmamk_f32 D = S0 * K + S1; v_fmaak_f32 D = S0 * S1 + K (K in src[2]) */
void emu_v_fmamk_f32(emu_wave *w, const emu_inst *in)
{
    if (emu_f32_plain(w, in)) {
        uint32_t ta[EMU_MAX_LANES], tb[EMU_MAX_LANES], tk[EMU_MAX_LANES];
        if (fast_fma(w, in, fsrc32(w, &in->src[0], ta), fsrc32(w, &in->src[2], tk),
                     fsrc32(w, &in->src[1], tb)))
            return;
    }
    float a[EMU_MAX_LANES], b[EMU_MAX_LANES], r[EMU_MAX_LANES];
    vsrcf(w, in, 0, a);
    vsrcf(w, in, 1, b);
    float k = f32_of((uint32_t)in->src[2].val);
    LANES
    r[l] = fmaf(a[l], k, b[l]);
    vdstf(w, in, r);
}
void emu_v_fmaak_f32(emu_wave *w, const emu_inst *in)
{
    if (emu_f32_plain(w, in)) {
        uint32_t ta[EMU_MAX_LANES], tb[EMU_MAX_LANES], tk[EMU_MAX_LANES];
        if (fast_fma(w, in, fsrc32(w, &in->src[0], ta), fsrc32(w, &in->src[1], tb),
                     fsrc32(w, &in->src[2], tk)))
            return;
    }
    float a[EMU_MAX_LANES], b[EMU_MAX_LANES], r[EMU_MAX_LANES];
    vsrcf(w, in, 0, a);
    vsrcf(w, in, 1, b);
    float k = f32_of((uint32_t)in->src[2].val);
    LANES
    r[l] = fmaf(a[l], b[l], k);
    vdstf(w, in, r);
}

void emu_v_ldexp_f32(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES], r[EMU_MAX_LANES];
    uint32_t tb[EMU_MAX_LANES];
    vsrcf(w, in, 0, a);
    const uint32_t *b = vsrc(w, in, 1, tb);
    LANES
    {
        int32_t e = (int32_t)b[l];
        e = e < -300 ? -300 : e > 300 ? 300 : e;
        r[l] = ldexpf(a[l], e);
    }
    vdstf(w, in, r);
}

F1(emu_v_trunc_f32, truncf(x))
F1(emu_v_ceil_f32, ceilf(x))
F1(emu_v_floor_f32, floorf(x))
F1(emu_v_rndne_f32, fp_rnef(x))
F1(emu_v_fract_f32, x != x ? x : isinf(x) ? 0.0f * x : fminf(x - floorf(x), 0x1.fffffep-1f))
F1(emu_v_exp_f32, exp2f(x))
F1(emu_v_log_f32, log2f(x))
F1(emu_v_rcp_f32, 1.0f / x)
F1(emu_v_rsq_f32, 1.0f / sqrtf(x))
F1(emu_v_sqrt_f32, sqrtf(x))

static float sin_rev(float x)
{
    if (isinf(x) || x != x)
        return NAN;
    double f = (double)x - nearbyint((double)x);
    return (float)sin(f * 6.283185307179586476925286766559);
}
static float cos_rev(float x)
{
    if (isinf(x) || x != x)
        return NAN;
    double f = (double)x - nearbyint((double)x);
    return (float)cos(f * 6.283185307179586476925286766559);
}
F1(emu_v_sin_f32, sin_rev(x))
F1(emu_v_cos_f32, cos_rev(x))

static float frexp_mant(float x)
{
    if (isinf(x) || x != x)
        return x;
    int e;
    return frexpf(x, &e);
}
F1(emu_v_frexp_mant_f32, frexp_mant(x))

void emu_v_frexp_exp_i32_f32(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES];
    uint32_t r[EMU_MAX_LANES];
    vsrcf(w, in, 0, a);
    LANES
    {
        int e = 0;
        if (!isinf(a[l]) && a[l] == a[l])
            frexpf(a[l], &e);
        r[l] = (uint32_t)e;
    }
    vdst(w, in, r);
}

static int exp32(float x)
{
    return (int)((u32_of(x) >> 23) & 0xff);
}

static int denorm32(float x)
{
    return fpclassify(x) == FP_SUBNORMAL;
}

/*
 * v_div_scale_f32 (VOP3SD): D = S0 scaled, VCC bit = "the quotient is off by 2^±64".  The
 * guide's pcode, with what gfx1100 silicon does instead (tinygrad's hardware-validated
 * test/amd/hw/test_vop3.py TestDivScale; docs/emu.md, "Where rdx follows silicon"):
 * - a zero operand sets VCC with the NaN;
 * - the denormal tests are f32 ones: 1/S1 denormal (|S1| > 2^126) with a denormal quotient
 *   sets VCC, leaves the numerator (1/2^127: D = 1.0) and scales the denominator by 2^-64;
 * - "the quotient would be denormal" is also taken from the exponents alone (e2 - e1 <=
 *   -126: 2^-126 / 1.0, whose quotient is normal, sets VCC and scales the numerator).
 * Each choice keeps LLVM's fdiv sequence (scale, rcp, fma chain, v_div_fmas, v_div_fixup)
 * correctly rounded; a tiny numerator with a normal quotient keeps the pcode (both
 * operands x 2^64, VCC 0), as that sequence needs.
 */
void emu_v_div_scale_f32(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES], b[EMU_MAX_LANES], c[EMU_MAX_LANES], r[EMU_MAX_LANES];
    vsrcf(w, in, 0, a);
    vsrcf(w, in, 1, b);
    vsrcf(w, in, 2, c);
    uint64_t vcc = 0;
    LANES
    {
        float s0 = a[l], s1 = b[l], s2 = c[l], d = s0;
        int v = 0;
        int e1 = exp32(s1), e2 = exp32(s2);
        if (s2 == 0.0f || s1 == 0.0f) {
            v = 1; /* silicon; the pcode leaves VCC 0 */
            d = NAN;
        } else if (e2 - e1 >= 96) {
            v = 1;
            if (s0 == s1)
                d = ldexpf(s0, 64);
        } else if (e1 == 0) { /* S1 denormal (kept by the denorm mode) */
            d = ldexpf(s0, 64);
        } else if (denorm32(1.0f / s1)) {
            if (denorm32(s2 / s1)) {
                v = 1;
                if (s0 == s1)
                    d = ldexpf(s0, -64);
            } else {
                d = ldexpf(s0, -64);
            }
        } else if (denorm32(s2 / s1) || e2 - e1 <= -126) {
            v = 1;
            if (s0 == s2)
                d = ldexpf(s0, 64);
        } else if (e2 <= 23) {
            d = ldexpf(s0, 64);
        }
        r[l] = d;
        vcc |= (uint64_t)v << l;
    }
    vdstf(w, in, r);
    sdst_mask(w, in, vcc);
}

/*
 * v_div_fmas_f32: fma, and where VCC is set scaled by 2^64 when exponent(S2) > 127, else by
 * 2^-64 (the hardware's behaviour; the guide's pcode line "2.0F ** 32 * fma" is known to be
 * incomplete).
 */
void emu_v_div_fmas_f32(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES], b[EMU_MAX_LANES], c[EMU_MAX_LANES], r[EMU_MAX_LANES];
    vsrcf(w, in, 0, a);
    vsrcf(w, in, 1, b);
    vsrcf(w, in, 2, c);
    uint64_t vcc = w->s[EMU_VCC] | (w->nl == 64 ? (uint64_t)w->s[EMU_VCC + 1] << 32 : 0);
    LANES
    {
        if ((vcc >> l) & 1)
            r[l] = (float)((exp32(c[l]) > 127 ? 0x1p64 : 0x1p-64) * (double)fmaf(a[l], b[l], c[l]));
        else
            r[l] = fmaf(a[l], b[l], c[l]);
    }
    vdstf(w, in, r);
}

void emu_v_div_fixup_f32(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES], b[EMU_MAX_LANES], c[EMU_MAX_LANES], r[EMU_MAX_LANES];
    vsrcf(w, in, 0, a);
    vsrcf(w, in, 1, b);
    vsrcf(w, in, 2, c);
    LANES
    {
        float s0 = a[l], s1 = b[l], s2 = c[l], d;
        int sign = signbit(s1) != signbit(s2);
        if (s2 != s2)
            d = f32_of(u32_of(s2) | 0x400000u);
        else if (s1 != s1)
            d = f32_of(u32_of(s1) | 0x400000u);
        else if (s1 == 0.0f && s2 == 0.0f)
            d = f32_of(0xffc00000u);
        else if (isinf(s1) && isinf(s2))
            d = f32_of(0xffc00000u);
        else if (s1 == 0.0f || isinf(s2))
            d = sign ? -INFINITY : INFINITY;
        else if (isinf(s1) || s2 == 0.0f)
            d = sign ? -0.0f : 0.0f;
        else if (exp32(s2) - exp32(s1) < -150)
            d = sign ? -0.0f : 0.0f; /* below half the smallest denormal: rounds to 0 */
        else if (exp32(s1) == 255)
            d = sign ? -0x1.fffffep127f : 0x1.fffffep127f;
        else if (s0 != s0) /* a NaN estimate: silicon gives the overflow, +-inf (test/amd/hw
                              TestDivFixup nan_estimate: (NaN, +-1, 1) -> +-inf) */
            d = sign ? -INFINITY : INFINITY;
        else
            d = sign ? -fabsf(s0) : fabsf(s0);
        r[l] = d;
    }
    vdstf(w, in, r);
}
