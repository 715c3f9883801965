/*
 * tests/oracle/compare.c — comparing a device's output buffers with the host's:
 * bit-exact integers, floats by ulp distance or absolute error; half and bfloat16
 * conversions.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests/oracle/oracle_int.h"

uint16_t rdx_oracle_f32_to_f16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    uint32_t sign = (u >> 16) & 0x8000u;
    uint32_t exp = (u >> 23) & 0xffu, man = u & 0x7fffffu;
    if (exp == 0xff)
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        /* denormal or zero: shift the full significand, round to nearest even */
        if (e < -10)
            return (uint16_t)sign;
        uint32_t m = man | 0x800000u;
        int shift = 14 - e;
        uint32_t half = 1u << (shift - 1), rest = m & ((1u << shift) - 1);
        uint32_t r = m >> shift;
        if (rest > half || (rest == half && (r & 1)))
            r++;
        return (uint16_t)(sign | r);
    }
    uint32_t r = ((uint32_t)e << 10) | (man >> 13);
    uint32_t rest = man & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (r & 1)))
        r++; /* may carry into the exponent, up to infinity: correct */
    return (uint16_t)(sign | r);
}

double rdx_oracle_f16_to_double(uint16_t h)
{
    int sign = h >> 15, exp = (h >> 10) & 31, man = h & 1023;
    double v;
    if (exp == 31)
        v = man ? NAN : INFINITY;
    else if (exp == 0)
        v = ldexp(man, -24);
    else
        v = ldexp(man | 1024, exp - 25);
    return sign ? -v : v;
}

uint16_t rdx_oracle_f32_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40u);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

double rdx_oracle_bf16_to_double(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

double rdx_oracle_load_double(rdx_oracle_type t, const void *p, size_t i)
{
    switch (t) {
    case RDX_ORACLE_I8:
        return ((const int8_t *)p)[i];
    case RDX_ORACLE_U8:
        return ((const uint8_t *)p)[i];
    case RDX_ORACLE_I16:
        return ((const int16_t *)p)[i];
    case RDX_ORACLE_U16:
        return ((const uint16_t *)p)[i];
    case RDX_ORACLE_I32:
        return ((const int32_t *)p)[i];
    case RDX_ORACLE_U32:
        return ((const uint32_t *)p)[i];
    case RDX_ORACLE_I64:
        return (double)((const int64_t *)p)[i];
    case RDX_ORACLE_U64:
        return (double)((const uint64_t *)p)[i];
    case RDX_ORACLE_F16:
        return rdx_oracle_f16_to_double(((const uint16_t *)p)[i]);
    case RDX_ORACLE_BF16:
        return rdx_oracle_bf16_to_double(((const uint16_t *)p)[i]);
    case RDX_ORACLE_F32:
        return ((const float *)p)[i];
    default:
        return ((const double *)p)[i];
    }
}

static uint64_t raw_bits(rdx_oracle_type t, const void *p, size_t i)
{
    switch (rdx_oracle_type_size(t)) {
    case 1:
        return ((const uint8_t *)p)[i];
    case 2:
        return ((const uint16_t *)p)[i];
    case 4:
        return ((const uint32_t *)p)[i];
    default:
        return ((const uint64_t *)p)[i];
    }
}

void rdx_oracle_format(rdx_oracle_type t, const void *p, size_t i, char *out, size_t len)
{
    uint64_t bits = raw_bits(t, p, i);
    int hex = (int)rdx_oracle_type_size(t) * 2;
    if (rdx_oracle_type_is_float(t))
        snprintf(out, len, "%.*g (0x%0*" PRIx64 ")", t == RDX_ORACLE_F64 ? 17 : 9,
                 rdx_oracle_load_double(t, p, i), hex, bits);
    else if (t == RDX_ORACLE_I64)
        snprintf(out, len, "%" PRId64 " (0x%0*" PRIx64 ")", (int64_t)bits, hex, bits);
    else if (t == RDX_ORACLE_U64)
        snprintf(out, len, "%" PRIu64 " (0x%0*" PRIx64 ")", bits, hex, bits);
    else
        snprintf(out, len, "%.0f (0x%0*" PRIx64 ")", rdx_oracle_load_double(t, p, i), hex, bits);
}

/* Map a float's bits to a line where adjacent floats are adjacent integers and
 * +0 and -0 are both 0. */
static int64_t ordered(uint64_t bits, int width)
{
    uint64_t sign = 1ull << (width - 1);
    uint64_t mag = bits & (sign - 1);
    return (bits & sign) ? -(int64_t)mag : (int64_t)mag;
}

static int is_nan_bits(rdx_oracle_type t, uint64_t b)
{
    switch (t) {
    case RDX_ORACLE_F16:
        return (b & 0x7c00u) == 0x7c00u && (b & 0x3ffu);
    case RDX_ORACLE_BF16:
        return (b & 0x7f80u) == 0x7f80u && (b & 0x7fu);
    case RDX_ORACLE_F32:
        return (b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu);
    default:
        return (b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (b & 0xfffffffffffffull);
    }
}

uint64_t rdx_oracle_ulp_distance(rdx_oracle_type t, const void *a, const void *b)
{
    if (!rdx_oracle_type_is_float(t))
        return UINT64_MAX;
    uint64_t x = raw_bits(t, a, 0), y = raw_bits(t, b, 0);
    int nx = is_nan_bits(t, x), ny = is_nan_bits(t, y);
    if (nx || ny)
        return nx && ny ? 0 : UINT64_MAX;
    int width = (int)rdx_oracle_type_size(t) * 8;
    int64_t ox = ordered(x, width), oy = ordered(y, width);
    return ox > oy ? (uint64_t)ox - (uint64_t)oy : (uint64_t)oy - (uint64_t)ox;
}

static int element_ok(rdx_oracle_type t, rdx_oracle_cmp c, const void *got, const void *want,
                      size_t i, uint64_t *ulp)
{
    size_t sz = rdx_oracle_type_size(t);
    const char *g = (const char *)got + i * sz, *w = (const char *)want + i * sz;
    *ulp = 0;
    if (c.kind == RDX_ORACLE_CMP_NONE)
        return 1;
    if (!rdx_oracle_type_is_float(t))
        return memcmp(g, w, sz) == 0;
    *ulp = rdx_oracle_ulp_distance(t, g, w);
    switch (c.kind) {
    case RDX_ORACLE_CMP_EXACT:
        return *ulp == 0;
    case RDX_ORACLE_CMP_ULP:
        return *ulp != UINT64_MAX && (double)*ulp <= c.tol;
    default: {
        if (*ulp == 0)
            return 1;
        double dg = rdx_oracle_load_double(t, g, 0), dw = rdx_oracle_load_double(t, w, 0);
        if (isnan(dg) || isnan(dw) || isinf(dg) || isinf(dw))
            return 0;
        return fabs(dg - dw) <= c.tol;
    }
    }
}

size_t rdx_oracle_compare(rdx_oracle_type t, rdx_oracle_cmp c, const void *got, const void *want,
                          size_t count, const char *name, char *report, size_t reportlen,
                          int max_report)
{
    size_t bad = 0, used = report && reportlen ? strlen(report) : 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t ulp;
        if (element_ok(t, c, got, want, i, &ulp))
            continue;
        if (report && (int)bad < max_report && used + 1 < reportlen) {
            char gs[64], ws[64], us[48] = "";
            rdx_oracle_format(t, got, i, gs, sizeof gs);
            rdx_oracle_format(t, want, i, ws, sizeof ws);
            if (rdx_oracle_type_is_float(t) && ulp != UINT64_MAX)
                snprintf(us, sizeof us, " (%" PRIu64 " ulp)", ulp);
            int n = snprintf(report + used, reportlen - used, "  %s[%zu]: got %s, want %s%s\n",
                             name, i, gs, ws, us);
            if (n > 0)
                used = used + (size_t)n < reportlen ? used + (size_t)n : reportlen - 1;
        }
        bad++;
    }
    return bad;
}
