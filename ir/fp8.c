/*
 * ir/fp8.c — the two OCP 8-bit float formats (fp8e4m3 = E4M3FN, fp8e5m2 = E5M2) as
 * tinygrad defines the conversions: round to nearest even, a finite overflow saturates
 * to the largest finite code, infinities and NaNs as docs/tensor.md says.
 */
#include <assert.h>
#include <math.h>

#include "ir/ir_internal.h"

typedef struct fp8_fmt {
    unsigned mb;   /* explicit mantissa bits */
    int emin;      /* exponent of the smallest normal */
    unsigned maxc; /* the largest finite code (magnitude) */
    uint8_t inf;   /* what +inf becomes */
} fp8_fmt;

static fp8_fmt fmt_of(rdx_scalar s)
{
    assert(s == RDX_FP8E4M3 || s == RDX_FP8E5M2);
    if (s == RDX_FP8E5M2)
        return (fp8_fmt){ 2, -14, 0x7b, 0x7c };
    return (fp8_fmt){ 3, -6, 0x7e, 0x7f };
}

uint8_t rdx_f64_to_fp8(double v, rdx_scalar s)
{
    fp8_fmt f = fmt_of(s);
    uint8_t sign = signbit(v) ? 0x80 : 0;
    if (isnan(v))
        return sign | 0x7f;
    if (isinf(v))
        return sign | f.inf;
    double a = fabs(v);
    if (a == 0)
        return sign;
    if (a >= 131072.0) /* beyond twice either format's largest value */
        return sign | (uint8_t)f.maxc;
    int e;
    frexp(a, &e);
    int exp = e - 1 < f.emin ? f.emin : e - 1; /* denormals share the smallest quantum */
    /* a / 2^(exp - mb) is exact; rounding it to an integer (ties to even) gives the
       significand in quanta, 2^mb..2^(mb+1) for a normal (2^(mb+1): carry into the exponent) */
    double n = nearbyint(ldexp(a, (int)f.mb - exp));
    unsigned code = (unsigned)((exp - f.emin) << f.mb) + (unsigned)n;
    if (code > f.maxc)
        code = f.maxc;
    return (uint8_t)(sign | code);
}

double rdx_fp8_to_f64(uint8_t c, rdx_scalar s)
{
    fp8_fmt f = fmt_of(s);
    double sg = (c & 0x80) ? -1.0 : 1.0;
    unsigned m = c & ((1u << f.mb) - 1), e = (c & 0x7fu) >> f.mb;
    if (s == RDX_FP8E4M3 && (c & 0x7f) == 0x7f)
        return copysign(NAN, sg);
    if (s == RDX_FP8E5M2 && e == 31)
        return m ? copysign(NAN, sg) : sg * INFINITY;
    if (e == 0)
        return sg * ldexp((double)m, f.emin - (int)f.mb);
    return sg * ldexp((double)((1u << f.mb) | m), (int)e - 1 + f.emin - (int)f.mb);
}
