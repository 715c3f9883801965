/* ir/dtype.c — dtypes: sizes, ranges, promotion, text form. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ir/ir_internal.h"

typedef struct scalar_row {
    const char *name;
    unsigned size;
    rdx_dkind kind;
    int prio;
} scalar_row;

static const scalar_row scalars[] = {
#define ROW_(n, t, s, k, p) { t, s, k, p },
    RDX_SCALAR_LIST(ROW_)
#undef ROW_
};

static const char *const addr_names[] = {
#define ROW_(n, t) t,
    RDX_ADDR_LIST(ROW_)
#undef ROW_
};

rdx_dtype rdx_dtype_of(rdx_scalar s)
{
    rdx_dtype d = { (uint8_t)s, RDX_ADDR_NONE, 1 };
    return d;
}

rdx_dtype rdx_dtype_vec(rdx_dtype d, unsigned count)
{
    d.count = (uint16_t)(count ? count : 1);
    return d;
}

rdx_dtype rdx_dtype_scalar(rdx_dtype d)
{
    return rdx_dtype_of((rdx_scalar)d.scalar);
}

rdx_dtype rdx_dtype_ptr(rdx_dtype d, rdx_addrspace a)
{
    d.ptr = (uint8_t)a;
    return d;
}

int rdx_dtype_eq(rdx_dtype a, rdx_dtype b)
{
    return a.scalar == b.scalar && a.ptr == b.ptr && a.count == b.count;
}

unsigned rdx_dtype_itemsize(rdx_dtype d)
{
    if (d.ptr != RDX_ADDR_NONE)
        return 8;
    return scalars[d.scalar].size * d.count;
}

rdx_dkind rdx_dtype_kind(rdx_dtype d)
{
    return scalars[d.scalar].kind;
}

int rdx_dtype_is_float(rdx_dtype d)
{
    return d.ptr == RDX_ADDR_NONE && scalars[d.scalar].kind == RDX_DK_FLOAT;
}

int rdx_dtype_is_int(rdx_dtype d)
{
    rdx_dkind k = scalars[d.scalar].kind;
    return d.ptr == RDX_ADDR_NONE &&
           (k == RDX_DK_BOOL || k == RDX_DK_SINT || k == RDX_DK_UINT || k == RDX_DK_INDEX);
}

int rdx_dtype_is_intlike(rdx_dtype d)
{
    return rdx_dtype_is_int(d);
}

int rdx_dtype_is_unsigned(rdx_dtype d)
{
    return d.ptr == RDX_ADDR_NONE && scalars[d.scalar].kind == RDX_DK_UINT;
}

void rdx_dtype_range(rdx_dtype d, int64_t *imin, int64_t *imax, double *fmin, double *fmax)
{
    int64_t lo = 0, hi = 0;
    double flo = 0, fhi = 0;
    unsigned bits = scalars[d.scalar].size * 8;
    switch (scalars[d.scalar].kind) {
    case RDX_DK_BOOL:
        lo = 0, hi = 1;
        break;
    case RDX_DK_SINT:
        lo = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
        hi = bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
        break;
    case RDX_DK_UINT:
        lo = 0;
        hi = bits == 64 ? INT64_MAX : (int64_t)(((uint64_t)1 << bits) - 1);
        break;
    case RDX_DK_INDEX:
        lo = INT64_MIN, hi = INT64_MAX;
        break;
    case RDX_DK_FLOAT:
        flo = -INFINITY, fhi = INFINITY;
        break;
    case RDX_DK_VOID:
        break;
    }
    if (imin)
        *imin = lo;
    if (imax)
        *imax = hi;
    if (fmin)
        *fmin = flo;
    if (fmax)
        *fmax = fhi;
}

/* Direct parents in tinygrad's promotion lattice, as bit sets of scalars. */
#define B_(s) (1u << RDX_##s)
static unsigned lattice_parents(rdx_scalar s)
{
    switch (s) {
    case RDX_BOOL:
        return B_(INT8) | B_(UINT8);
    case RDX_INT8:
        return B_(INT16);
    case RDX_INT16:
        return B_(INT32);
    case RDX_INT32:
        return B_(INT64);
    case RDX_INT64:
        return B_(FP8E4M3) | B_(FP8E5M2);
    case RDX_UINT8:
        return B_(INT16) | B_(UINT16);
    case RDX_UINT16:
        return B_(INT32) | B_(UINT32);
    case RDX_UINT32:
        return B_(INT64) | B_(UINT64);
    case RDX_UINT64:
        return B_(FP8E4M3) | B_(FP8E5M2);
    case RDX_FP8E4M3:
    case RDX_FP8E5M2:
        return B_(FLOAT16) | B_(BFLOAT16);
    case RDX_FLOAT16:
    case RDX_BFLOAT16:
        return B_(FLOAT32);
    case RDX_FLOAT32:
        return B_(FLOAT64);
    default:
        return 0;
    }
}

static unsigned ancestors(rdx_scalar s)
{
    unsigned set = 1u << s, done = 0;
    while (set != done) {
        unsigned todo = set & ~done;
        done = set;
        for (int k = 0; k < RDX_SCALAR_COUNT; k++)
            if (todo & (1u << k))
                set |= lattice_parents((rdx_scalar)k);
    }
    return set;
}

rdx_dtype rdx_dtype_promote(rdx_dtype a, rdx_dtype b)
{
    rdx_scalar sa = (rdx_scalar)a.scalar, sb = (rdx_scalar)b.scalar;
    rdx_scalar r = sa;
    if (sa == sb) {
        r = sa;
    } else if (sa == RDX_INDEX || sb == RDX_INDEX) {
        rdx_scalar o = sa == RDX_INDEX ? sb : sa;
        r = scalars[o].kind == RDX_DK_FLOAT ? o : RDX_INDEX;
    } else if (sa == RDX_VOID || sb == RDX_VOID) {
        r = RDX_VOID;
    } else {
        unsigned common = ancestors(sa) & ancestors(sb);
        /* tinygrad's weak float sits below the fp8s: two non-fp8 dtypes never meet in one */
        common &= ~((B_(FP8E4M3) | B_(FP8E5M2)) & ~((1u << sa) | (1u << sb)));
        int best = -1;
        for (int k = 0; k < RDX_SCALAR_COUNT; k++)
            if ((common & (1u << k)) && (best < 0 || scalars[k].prio < scalars[best].prio))
                best = k;
        r = best < 0 ? RDX_FLOAT64 : (rdx_scalar)best;
    }
    rdx_dtype d = rdx_dtype_of(r);
    d.count = a.count > b.count ? a.count : b.count;
    return d;
}

const char *rdx_scalar_name(rdx_scalar s)
{
    if ((unsigned)s >= RDX_SCALAR_COUNT)
        return "?";
    return scalars[s].name;
}

const char *rdx_addrspace_name(rdx_addrspace a)
{
    if ((unsigned)a >= RDX_ADDR_COUNT)
        return "?";
    return addr_names[a];
}

const char *rdx_dtype_str(rdx_dtype d, char *buf, size_t n)
{
    int k = snprintf(buf, n, "%s", rdx_scalar_name((rdx_scalar)d.scalar));
    if (d.count != 1 && k >= 0 && (size_t)k < n)
        k += snprintf(buf + k, n - k, "x%u", (unsigned)d.count);
    if (d.ptr != RDX_ADDR_NONE && k >= 0 && (size_t)k < n)
        snprintf(buf + k, n - k, "*%s", d.ptr == RDX_ADDR_GLOBAL ? "" : addr_names[d.ptr]);
    return buf;
}

rdx_status rdx_dtype_parse(const char *s, size_t len, rdx_dtype *out)
{
    size_t i = 0;
    while (i < len && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9'))) {
        /* "float32x4": the scalar name ends before an 'x' followed by a digit */
        if (s[i] == 'x' && i + 1 < len && s[i + 1] >= '0' && s[i + 1] <= '9')
            break;
        i++;
    }
    int found = -1;
    for (int k = 0; k < RDX_SCALAR_COUNT; k++)
        if (strlen(scalars[k].name) == i && !memcmp(scalars[k].name, s, i))
            found = k;
    if (found < 0)
        return rdx_fail(RDX_ERR_PARSE,
                        "unknown dtype '%.*s' (expected bool, int8..int64, "
                        "uint8..uint64, fp8e4m3, fp8e5m2, float16, bfloat16, float32, "
                        "float64, "
                        "index or void)",
                        (int)len, s);
    rdx_dtype d = rdx_dtype_of((rdx_scalar)found);
    if (i < len && s[i] == 'x') {
        unsigned long c = 0;
        i++;
        size_t st = i;
        while (i < len && s[i] >= '0' && s[i] <= '9' && c < 100000)
            c = c * 10 + (unsigned long)(s[i++] - '0');
        if (i == st || c < 1 || c > 65535)
            return rdx_fail(RDX_ERR_PARSE, "dtype '%.*s': vector count must be 1..65535", (int)len,
                            s);
        d.count = (uint16_t)c;
    }
    if (i < len && s[i] == '*') {
        i++;
        d.ptr = RDX_ADDR_GLOBAL;
        for (int a = RDX_ADDR_GLOBAL; a < RDX_ADDR_COUNT; a++) {
            size_t al = strlen(addr_names[a]);
            if (len - i == al && !memcmp(s + i, addr_names[a], al)) {
                d.ptr = (uint8_t)a;
                i += al;
            }
        }
    }
    if (i != len)
        return rdx_fail(RDX_ERR_PARSE, "dtype '%.*s': unexpected '%c' at offset %zu", (int)len, s,
                        s[i], i);
    *out = d;
    return RDX_OK;
}

int64_t rdx_ir_wrap(rdx_dtype d, int64_t v)
{
    unsigned bits = scalars[d.scalar].size * 8;
    switch (scalars[d.scalar].kind) {
    case RDX_DK_BOOL:
        return v != 0;
    case RDX_DK_SINT:
        if (bits < 64) {
            uint64_t m = ((uint64_t)1 << bits) - 1;
            uint64_t u = (uint64_t)v & m;
            if (u >> (bits - 1))
                u |= ~m;
            return (int64_t)u;
        }
        return v;
    case RDX_DK_UINT:
        if (bits < 64)
            return (int64_t)((uint64_t)v & (((uint64_t)1 << bits) - 1));
        return v;
    default:
        return v;
    }
}

/* Round to nearest even with `mant` explicit mantissa bits and exponent range. */
static double round_to_format(double v, int mant, int emin, int emax)
{
    if (isnan(v) || isinf(v) || v == 0)
        return v;
    int e;
    double m = frexp(fabs(v), &e); /* v = m * 2^e, m in [0.5, 1) */
    int exp = e - 1;               /* v = 1.xxx * 2^exp */
    if (exp < emin)
        exp = emin; /* subnormal: fixed quantum */
    double q = ldexp(1.0, exp - mant);
    double r = nearbyint(fabs(v) / q) * q; /* default rounding mode: nearest even */
    (void)m;
    if (r >= ldexp(2.0 - ldexp(1.0, -mant), emax) + ldexp(1.0, emax - mant - 1))
        r = INFINITY;
    else if (r > ldexp(2.0 - ldexp(1.0, -mant), emax))
        r = ldexp(2.0 - ldexp(1.0, -mant), emax);
    return v < 0 ? -r : r;
}

double rdx_ir_round_float(rdx_dtype d, double v)
{
    switch (d.scalar) {
    case RDX_FLOAT16:
        return round_to_format(v, 10, -14, 15);
    case RDX_BFLOAT16:
        return round_to_format(v, 7, -126, 127);
    case RDX_FLOAT32:
        return (double)(float)v;
    case RDX_FP8E4M3:
    case RDX_FP8E5M2:
        return rdx_fp8_to_f64(rdx_f64_to_fp8(v, (rdx_scalar)d.scalar), (rdx_scalar)d.scalar);
    default:
        return v;
    }
}
