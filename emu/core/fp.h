/*
 * emu/core/fp.h — floating-point helpers shared by the VALU semantics:
 * bit casts, f16/bf16 conversions with round-to-nearest-even (and the other
 * rounding modes), denormal flushing, IEEE min/max with the hardware's NaN
 * rules.
 */
#ifndef RDX_EMU_CORE_FP_H
#define RDX_EMU_CORE_FP_H

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static inline float f32_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint32_t u32_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline double f64_of(uint64_t u)
{
    double f;
    memcpy(&f, &u, 8);
    return f;
}
static inline uint64_t u64_of(double f)
{
    uint64_t u;
    memcpy(&u, &f, 8);
    return u;
}

static inline int f32_is_snan(uint32_t u)
{
    return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu) && !(u & 0x400000u);
}
static inline int f32_is_nan(uint32_t u)
{
    return (u & 0x7fffffffu) > 0x7f800000u;
}
static inline uint32_t f32_flush(uint32_t u)
{
    return (u & 0x7f800000u) == 0 ? (u & 0x80000000u) : u;
}
static inline uint64_t f64_flush(uint64_t u)
{
    return (u & 0x7ff0000000000000ull) == 0 ? (u & 0x8000000000000000ull) : u;
}
static inline uint16_t f16_flush(uint16_t u)
{
    return (u & 0x7c00u) == 0 ? (uint16_t)(u & 0x8000u) : u;
}

/* f16 -> f32 (exact). */
static inline float f16_to_f32(uint16_t h)
{
    uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 31, m = h & 0x3ffu;
    uint32_t u;
    if (e == 31)
        u = s | 0x7f800000u | (m << 13) | (m ? 0x400000u : 0);
    else if (e)
        u = s | ((e + 112) << 23) | (m << 13);
    else if (m) {
        float f = (float)m * 0x1p-24f;
        return s ? -f : f;
    } else
        u = s;
    return f32_of(u);
}

/*
 * f32 -> f16 with rounding mode rm (0 nearest-even, 1 +inf, 2 -inf, 3 zero).
 * NaN stays NaN (quiet); overflow gives inf or max-finite per the mode.
 */
/* Whether a truncated magnitude q rounds up under MODE round mode rm (0 nearest-even,
   1 +inf, 2 -inf, 3 zero): cmp is the dropped part against half an ulp (<0, 0, >0), any
   whether it is nonzero. */
static inline int fp_round_up(unsigned rm, int neg, int cmp, int any, int q_odd)
{
    if (rm == 0)
        return cmp > 0 || (cmp == 0 && any && q_odd);
    return (rm == 1 && !neg && any) || (rm == 2 && neg && any);
}

static inline uint16_t f32_to_f16_rm(float f, unsigned rm)
{
    uint32_t u = u32_of(f);
    uint32_t s = (u >> 16) & 0x8000u;
    uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u)
        return (uint16_t)(s | 0x7e00u | ((a >> 13) & 0x3ffu));
    if (a == 0x7f800000u)
        return (uint16_t)(s | 0x7c00u);
    int neg = s != 0;
    /* value = m * 2^(e) with 24-bit m */
    int e = (int)(a >> 23);
    uint32_t m = a & 0x7fffffu;
    if (e == 0) {
        if (m == 0)
            return (uint16_t)s;
        e = 1;
    } else
        m |= 0x800000u;
    /* target exponent: f16 normal has bias 15; shift so that result mantissa fits 11 bits */
    int fe = e - 127 + 15; /* f16 biased exponent */
    int shift;
    if (fe >= 1)
        shift = 13;
    else
        shift = 13 + (1 - fe), fe = 0;
    uint32_t q, rem, half;
    if (shift >= 32) {
        q = 0;
        rem = m;
        half = 0xffffffffu;
        int up;
        if (rm == 0)
            up = 0;
        else
            up = (rm == 1 && !neg) || (rm == 2 && neg);
        q += (uint32_t)(up && m);
        return (uint16_t)(s | q);
    }
    q = m >> shift;
    rem = m & ((1u << shift) - 1);
    half = 1u << (shift - 1);
    int up = fp_round_up(rm, neg, rem > half ? 1 : rem < half ? -1 : 0, rem != 0, q & 1);
    q += (uint32_t)up;
    /* q includes the implicit bit for normals (bit 10) */
    uint32_t r;
    if (fe == 0) {
        r = q; /* subnormal (may round up into the smallest normal: 0x400) */
    } else {
        if (q >= 0x800u) {
            q >>= 1;
            fe++;
        }
        if (fe >= 31) {
            int toinf = rm == 0 || (rm == 1 && !neg) || (rm == 2 && neg);
            return (uint16_t)(s | (toinf ? 0x7c00u : 0x7bffu));
        }
        r = ((uint32_t)fe << 10) | (q & 0x3ffu);
    }
    return (uint16_t)(s | r);
}

static inline uint16_t f32_to_f16(float f)
{
    return f32_to_f16_rm(f, 0);
}

/* Number of significant bits of m (0 for 0). */
static inline int fp_bitlen128(unsigned __int128 m)
{
    uint64_t hi = (uint64_t)(m >> 64), lo = (uint64_t)m;
    return hi ? 128 - __builtin_clzll(hi) : lo ? 64 - __builtin_clzll(lo) : 0;
}

/*
 * The f16 nearest to (-1)^neg * m * 2^e (m != 0) in rounding mode rm (0 nearest-even,
 * 1 +inf, 2 -inf, 3 zero): one rounding, denormal results included; overflow gives inf or
 * max-finite per the mode.
 */
static inline uint16_t f16_round_exact(int neg, unsigned __int128 m, int e, unsigned rm)
{
    uint16_t s = neg ? 0x8000u : 0;
    int n = fp_bitlen128(m);
    int top = e + n - 1;                 /* value in [2^top, 2^(top+1)) */
    int t = top >= -14 ? top - 10 : -24; /* exponent of the result's lsb */
    uint64_t q;
    int up = 0;
    if (t <= e) {
        if (e - t > 20)
            q = 1u << 12; /* far beyond the range: overflow below */
        else
            q = (uint64_t)(m << (e - t));
    } else {
        unsigned sh = (unsigned)(t - e);
        unsigned __int128 rem, half;
        if (sh >= 128) {
            q = 0;
            rem = m;
            half = 0; /* rem < half in effect */
            up = rm == 0 ? 0 : (rm == 1 && !neg) || (rm == 2 && neg);
        } else {
            q = (uint64_t)(m >> sh);
            rem = m & (((unsigned __int128)1 << sh) - 1);
            half = (unsigned __int128)1 << (sh - 1);
            up = fp_round_up(rm, neg, rem > half ? 1 : rem < half ? -1 : 0, rem != 0, (int)(q & 1));
        }
    }
    q += (uint64_t)up;
    if (q >= 0x800u) { /* the rounding carried into a new binade */
        q >>= 1;
        t++;
    }
    if (q < 0x400u) /* denormal (t == -24) or zero */
        return (uint16_t)(s | q);
    int fe = t + 25;
    if (fe >= 31 || q >= 0x800u) {
        int toinf = rm == 0 || (rm == 1 && !neg) || (rm == 2 && neg);
        return (uint16_t)(s | (toinf ? 0x7c00u : 0x7bffu));
    }
    return (uint16_t)(s | (uint32_t)fe << 10 | (q & 0x3ffu));
}

/* f64 -> f16 with rounding mode rm, one rounding (NaN stays NaN, quiet). */
static inline uint16_t f64_to_f16_rm(double d, unsigned rm)
{
    uint64_t u = u64_of(d);
    int neg = (int)(u >> 63);
    uint64_t a = u & 0x7fffffffffffffffull;
    if (a > 0x7ff0000000000000ull)
        return (uint16_t)((neg ? 0x8000u : 0) | 0x7e00u | ((a >> 42) & 0x3ffu));
    if (a == 0x7ff0000000000000ull)
        return (uint16_t)((neg ? 0x8000u : 0) | 0x7c00u);
    if (a == 0)
        return neg ? 0x8000u : 0;
    int be = (int)(a >> 52);
    uint64_t m = a & 0xfffffffffffffull;
    if (be)
        m |= 1ull << 52;
    else
        be = 1;
    return f16_round_exact(neg, m, be - 1075, rm);
}

/*
 * fma of three f16 values (given exactly as doubles) rounded to odd at 53 bits: the
 * returned double rounds to the correctly rounded f16 result in any mode (53 >= 11 + 2),
 * so f16 fma needs only f64_to_f16_rm after it.  rm decides the sign of an exact zero.
 */
static inline double f16_fma_rto(double x, double y, double z, unsigned rm)
{
    if (!isfinite(x) || !isfinite(y) || !isfinite(z))
        return fma(x, y, z); /* inf / NaN results are exact */
    int64_t mx = (int64_t)(x * 0x1p24), my = (int64_t)(y * 0x1p24), mz = (int64_t)(z * 0x1p24);
    __int128 p = (__int128)mx * my, sz = (__int128)mz * ((__int128)1 << 24), s = p + sz;
    if (s == 0) {
        int sp = signbit(x) != signbit(y), sgz = signbit(z) != 0;
        int neg = (p == 0 && sz == 0) ? ((sp && sgz) || (rm == 2 && (sp || sgz))) : rm == 2;
        return neg ? -0.0 : 0.0;
    }
    int neg = s < 0;
    unsigned __int128 m = neg ? (unsigned __int128)(-s) : (unsigned __int128)s;
    int n = fp_bitlen128(m), e = -48;
    if (n > 53) {
        unsigned sh = (unsigned)(n - 53);
        int sticky = (m & (((unsigned __int128)1 << sh) - 1)) != 0;
        m = (m >> sh) | (unsigned)sticky;
        e += (int)sh;
    }
    double r = ldexp((double)(uint64_t)m, e);
    return neg ? -r : r;
}

/* Round to the nearest integer, ties to even, whatever the host rounding mode. */
static inline double fp_rne(double x)
{
    if (!(fabs(x) < 0x1p52))
        return x; /* already an integer, inf or NaN */
    double r = floor(x), d = x - r;
    if (d > 0.5 || (d == 0.5 && fmod(r, 2.0) != 0.0))
        r += 1.0;
    return copysign(r, x);
}
static inline float fp_rnef(float x)
{
    return (float)fp_rne((double)x);
}

/*
 * fma(x, y, z) in double rounded to odd (inexact results get their last bit set), for
 * results that are rounded again to a narrower type in mode rm (f16, f32: 53 >= p + 2
 * makes that second rounding correct in every mode).  The host FPU is switched to round-toward-zero
 * around the operation; volatile operands keep the operation between the flag clear and
 * the flag test.
 */
static inline double fma_rto(double x, double y, double z, unsigned rm)
{
    int old = fegetround();
    /* an exact zero takes its sign from the target mode (-0 only when rounding down) */
    fesetround(rm == 2 ? FE_DOWNWARD : FE_TOWARDZERO);
    feclearexcept(FE_INEXACT);
    volatile double vx = x, vy = y, vz = z;
    volatile double r = fma(vx, vy, vz);
    int inexact = fetestexcept(FE_INEXACT) != 0;
    double d = r;
    if (inexact && rm == 2) { /* rounded down: redo toward zero for the odd rounding */
        fesetround(FE_TOWARDZERO);
        r = fma(vx, vy, vz);
        d = r;
    }
    fesetround(old);
    if (inexact && isfinite(d))
        d = f64_of(u64_of(d) | 1);
    return d;
}

/* bf16 <-> f32 */
static inline float bf16_to_f32(uint16_t h)
{
    return f32_of((uint32_t)h << 16);
}
static inline uint16_t f32_to_bf16(float f)
{
    uint32_t u = u32_of(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1);
    return (uint16_t)(u >> 16);
}

/* IEEE-mode min/max: a signalling NaN gives a quiet NaN, one quiet NaN gives the other value. */
static inline uint32_t f32_min_hw(uint32_t a, uint32_t b, int ieee)
{
    if (ieee && (f32_is_snan(a) || f32_is_snan(b)))
        return 0x7fc00000u;
    if (f32_is_nan(a))
        return f32_is_nan(b) ? 0x7fc00000u : b;
    if (f32_is_nan(b))
        return a;
    float x = f32_of(a), y = f32_of(b);
    if (x == y) /* -0 < +0 */
        return (a & 0x80000000u) ? a : b;
    return x < y ? a : b;
}
static inline uint32_t f32_max_hw(uint32_t a, uint32_t b, int ieee)
{
    if (ieee && (f32_is_snan(a) || f32_is_snan(b)))
        return 0x7fc00000u;
    if (f32_is_nan(a))
        return f32_is_nan(b) ? 0x7fc00000u : b;
    if (f32_is_nan(b))
        return a;
    float x = f32_of(a), y = f32_of(b);
    if (x == y)
        return (a & 0x80000000u) ? b : a;
    return x > y ? a : b;
}

/* Quiet a NaN result the way the hardware does (canonical positive qNaN for generated NaNs). */
static inline uint32_t f32_canon(uint32_t r)
{
    return (r & 0x7fffffffu) > 0x7f800000u ? (r | 0x400000u) : r;
}

#endif /* RDX_EMU_CORE_FP_H */
