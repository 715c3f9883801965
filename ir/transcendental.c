/*
 * ir/transcendental.c — EXP2, LOG2 and SIN as graphs of primitives
 * (polynomial approximations with argument reduction), and SQRT, POW from
 * them as the spec decomposes them.  float16/bfloat16 compute in float32 and
 * round once at the end; float32 and float64 compute in their own precision.
 */
#include <math.h>

#include "ir/ir_internal.h"

typedef struct fb {
    rdx_ir_ctx *ctx;
    rdx_dtype d; /* compute dtype (float32 or float64), with the input's lanes */
    rdx_dtype i; /* same-width signed int */
    int f64;
} fb;

static const rdx_uop *C(fb *b, double v)
{
    rdx_uop_arg a = rdx_uop_arg_none();
    a.dtype = rdx_dtype_scalar(b->d);
    a.f = rdx_ir_round_float(a.dtype, v);
    return rdx_ir_node(b->ctx, RDX_OP_CONST, NULL, 0, &a); /* scalars only: see begin() */
}

static const rdx_uop *I(fb *b, int64_t v)
{
    return rdx_ir_const_int(b->ctx, b->i, v);
}

static const rdx_uop *add(fb *b, const rdx_uop *x, const rdx_uop *y)
{
    return rdx_ir_add(b->ctx, x, y);
}

static const rdx_uop *mul(fb *b, const rdx_uop *x, const rdx_uop *y)
{
    return rdx_ir_mul(b->ctx, x, y);
}

static const rdx_uop *lt(fb *b, const rdx_uop *x, const rdx_uop *y)
{
    return rdx_ir_cmplt(b->ctx, x, y);
}

static const rdx_uop *sel(fb *b, const rdx_uop *c, const rdx_uop *x, const rdx_uop *y)
{
    return rdx_ir_where(b->ctx, c, x, y);
}

/* Horner: c[0] + x*(c[1] + x*(...)) */
static const rdx_uop *poly(fb *b, const rdx_uop *x, const double *c, int n)
{
    const rdx_uop *acc = C(b, c[n - 1]);
    for (int k = n - 2; k >= 0; k--)
        acc = add(b, mul(b, acc, x), C(b, c[k]));
    return acc;
}

/* Round to nearest integer (ties away from zero), as a float. */
static const rdx_uop *round_f(fb *b, const rdx_uop *x)
{
    return rdx_ir_alu1(b->ctx, RDX_OP_TRUNC,
                       add(b, x, sel(b, lt(b, x, C(b, 0)), C(b, -0.5), C(b, 0.5))));
}

/* 2^n for an integer-valued float n with |n| <= emax (exact, via exponent bits). */
static const rdx_uop *pow2i(fb *b, const rdx_uop *n)
{
    int mant = b->f64 ? 52 : 23, bias = b->f64 ? 1023 : 127;
    const rdx_uop *ni = rdx_ir_cast(b->ctx, n, b->i);
    const rdx_uop *e = rdx_ir_alu2(b->ctx, RDX_OP_SHL, add(b, ni, I(b, bias)), I(b, mant));
    return rdx_ir_bitcast(b->ctx, e, b->d);
}

static int begin(fb *b, rdx_ir_ctx *ctx, const rdx_uop *a, const char *what)
{
    b->ctx = ctx;
    if (!a)
        return 0;
    if (!rdx_dtype_is_float(a->dtype) || a->dtype.count != 1) {
        rdx_fail(RDX_ERR_INVALID, "%s needs a scalar float dtype", what);
        return 0;
    }
    b->f64 = a->dtype.scalar == RDX_FLOAT64;
    b->d = rdx_dtype_of(b->f64 ? RDX_FLOAT64 : RDX_FLOAT32);
    b->i = rdx_dtype_of(b->f64 ? RDX_INT64 : RDX_INT32);
    return 1;
}

static const rdx_uop *to_compute(fb *b, const rdx_uop *a)
{
    return rdx_dtype_eq(a->dtype, b->d) ? a : rdx_ir_cast(b->ctx, a, b->d);
}

static const rdx_uop *from_compute(fb *b, const rdx_uop *a, rdx_dtype d)
{
    return !a || rdx_dtype_eq(d, b->d) ? a : rdx_ir_cast(b->ctx, a, d);
}

static const rdx_uop *isnan_(fb *b, const rdx_uop *x)
{
    return rdx_ir_cmpne(b->ctx, x, x);
}

/* ------------------------------------------------------------------ EXP2 */

static const rdx_uop *exp2_c(fb *b, const rdx_uop *x)
{
    /* Taylor coefficients of 2^f = e^(f ln2) on |f| <= 1/2 */
    double c[14];
    int n = b->f64 ? 14 : 8;
    double t = 1;
    for (int k = 0; k < n; k++) {
        c[k] = t;
        t *= M_LN2 / (k + 1);
    }
    double lim = b->f64 ? 1100 : 160;
    const rdx_uop *xc = rdx_ir_max(b->ctx, x, C(b, -lim));
    xc = rdx_ir_neg(b->ctx, rdx_ir_max(b->ctx, rdx_ir_neg(b->ctx, xc), C(b, -lim)));
    const rdx_uop *nf = round_f(b, xc);
    const rdx_uop *f = rdx_ir_sub(b->ctx, xc, nf);
    const rdx_uop *p = poly(b, f, c, n);
    /* 2^n = 2^(n>>1) * 2^(n - (n>>1)): both halves stay normal */
    const rdx_uop *ni = rdx_ir_cast(b->ctx, nf, b->i);
    const rdx_uop *n1 = rdx_ir_alu2(b->ctx, RDX_OP_SHR, ni, I(b, 1));
    const rdx_uop *n2 = rdx_ir_sub(b->ctx, ni, n1);
    const rdx_uop *s1 = pow2i(b, rdx_ir_cast(b->ctx, n1, b->d));
    const rdx_uop *s2 = pow2i(b, rdx_ir_cast(b->ctx, n2, b->d));
    const rdx_uop *r = mul(b, mul(b, p, s1), s2);
    return sel(b, isnan_(b, x), x, r);
}

const rdx_uop *rdx_ir_exp2(rdx_ir_ctx *ctx, const rdx_uop *a)
{
    fb b;
    if (!begin(&b, ctx, a, "EXP2"))
        return NULL;
    return from_compute(&b, exp2_c(&b, to_compute(&b, a)), a->dtype);
}

/* ------------------------------------------------------------------ LOG2 */

static const rdx_uop *log2_c(fb *b, const rdx_uop *x)
{
    rdx_ir_ctx *ctx = b->ctx;
    int mant = b->f64 ? 52 : 23, bias = b->f64 ? 1023 : 127;
    int64_t emask = b->f64 ? 0x7ff : 0xff;
    int64_t mmask = ((int64_t)1 << mant) - 1, one = (int64_t)bias << mant;
    double tiny = ldexp(1.0, 1 - bias);
    /* subnormals: scale into the normal range first */
    const rdx_uop *sub = lt(b, x, C(b, tiny));
    const rdx_uop *xs = sel(b, sub, mul(b, x, C(b, ldexp(1.0, mant))), x);
    const rdx_uop *adj = sel(b, sub, C(b, -mant), C(b, 0));
    const rdx_uop *bits = rdx_ir_bitcast(ctx, xs, b->i);
    const rdx_uop *e = rdx_ir_sub(
        ctx,
        rdx_ir_alu2(ctx, RDX_OP_AND, rdx_ir_alu2(ctx, RDX_OP_SHR, bits, I(b, mant)), I(b, emask)),
        I(b, bias));
    const rdx_uop *m = rdx_ir_bitcast(
        ctx,
        rdx_ir_alu2(ctx, RDX_OP_OR, rdx_ir_alu2(ctx, RDX_OP_AND, bits, I(b, mmask)), I(b, one)),
        b->d);
    /* m in [1,2): fold to [sqrt(1/2), sqrt(2)) */
    const rdx_uop *big = lt(b, C(b, M_SQRT2), m);
    m = sel(b, big, mul(b, m, C(b, 0.5)), m);
    const rdx_uop *ef = add(b, rdx_ir_cast(ctx, e, b->d), sel(b, big, C(b, 1), C(b, 0)));
    /* log2(m) = 2/ln2 * atanh(s), s = (m-1)/(m+1) */
    const rdx_uop *s =
        mul(b, add(b, m, C(b, -1)), rdx_ir_alu1(ctx, RDX_OP_RECIP, add(b, m, C(b, 1))));
    const rdx_uop *s2 = mul(b, s, s);
    double c[12];
    int n = b->f64 ? 12 : 6;
    for (int k = 0; k < n; k++)
        c[k] = 2.0 / M_LN2 / (2 * k + 1);
    const rdx_uop *lm = mul(b, s, poly(b, s2, c, n));
    const rdx_uop *r = add(b, add(b, ef, adj), lm);
    /* specials */
    r = sel(b, rdx_ir_cmpne(ctx, x, C(b, INFINITY)), r, C(b, INFINITY));
    r = sel(b, rdx_ir_cmpne(ctx, x, C(b, 0)), r, C(b, -INFINITY));
    r = sel(b, lt(b, x, C(b, 0)), C(b, NAN), r);
    return sel(b, isnan_(b, x), x, r);
}

const rdx_uop *rdx_ir_log2(rdx_ir_ctx *ctx, const rdx_uop *a)
{
    fb b;
    if (!begin(&b, ctx, a, "LOG2"))
        return NULL;
    return from_compute(&b, log2_c(&b, to_compute(&b, a)), a->dtype);
}

/* ------------------------------------------------------------------ SIN */

/* Binary digits of pi/2 (= hex digits of pi, shifted right by one), 32 per word. */
static const uint32_t pi_words[] = { 0x3243F6A8u, 0x885A308Du, 0x313198A2u, 0xE0370734u,
                                     0x4A409382u, 0x2299F31Du, 0x0082EFA9u, 0x8EC4E6C8u };

/* Bit k of the words (k = 0: the 2^3 bit of pi). */
static int pi_bit(int k)
{
    return (int)(pi_words[k / 32] >> (31 - k % 32)) & 1;
}

/* Split pi/2 into `parts` chunks of `bits` bits each (exactly representable). */
static void pio2_parts(int bits, int parts, double *out)
{
    int pos = 0; /* bit k of the words weighs 2^(3-k) in pi, 2^(2-k) in pi/2 */
    for (int p = 0; p < parts; p++) {
        double v = 0;
        for (int j = 0; j < bits; j++, pos++)
            v += pi_bit(pos) ? ldexp(1.0, 2 - pos) : 0;
        out[p] = v;
    }
}

/* Binary digits of 2/pi after the point, 32 per word, preceded by a zero word. */
static const uint32_t two_over_pi[9] = { 0,           0xA2F9836Eu, 0x4E441529u,
                                         0xFC2757D1u, 0xF534DDC0u, 0xDB629599u,
                                         0x3C439041u, 0xFE5163ABu, 0xDEBBC561u };

static const rdx_uop *u64c(fb *b, uint64_t v)
{
    return rdx_ir_const_int(b->ctx, rdx_dtype_of(RDX_UINT64), (int64_t)v);
}

/* two_over_pi[i] for a computed index (a WHERE chain: the table is small). */
static const rdx_uop *table_at(fb *b, const rdx_uop *i)
{
    const rdx_uop *v = u64c(b, two_over_pi[8]);
    for (int k = 7; k >= 0; k--)
        v = sel(b, rdx_ir_cmpne(b->ctx, i, u64c(b, (uint64_t)k)), v, u64c(b, two_over_pi[k]));
    return v;
}

/*
 * Payne-Hanek reduction of |x| (float32, |x| >= 2^15): |x| = m 2^e with a
 * 24-bit m; |x| * 2/pi mod 4 = m * W / 2^94 where W is the 96-bit window of
 * 2/pi's digits starting at digit e-1 (earlier digits give multiples of 4).
 * Returns r in float32 (|r| <= pi/4) and the quadrant q (int32, 0..3).
 */
static void payne_hanek(fb *b, const rdx_uop *ax, const rdx_uop **r_out, const rdx_uop **q_out)
{
    rdx_ir_ctx *ctx = b->ctx;
    rdx_dtype u64 = rdx_dtype_of(RDX_UINT64);
    const rdx_uop *bits = rdx_ir_cast(ctx, rdx_ir_bitcast(ctx, ax, rdx_dtype_of(RDX_UINT32)), u64);
    const rdx_uop *ex = rdx_ir_alu2(ctx, RDX_OP_AND,
                                    rdx_ir_alu2(ctx, RDX_OP_SHR, bits, u64c(b, 23)), u64c(b, 0xff));
    const rdx_uop *m = rdx_ir_alu2(
        ctx, RDX_OP_OR, rdx_ir_alu2(ctx, RDX_OP_AND, bits, u64c(b, 0x7fffff)), u64c(b, 0x800000));
    /* stream index of digit e-1 = exp - 120 (digit 1 is at index 32); clamp for small |x| */
    const rdx_uop *t = rdx_ir_max(ctx, ex, u64c(b, 120));
    t = rdx_ir_sub(ctx, t, u64c(b, 120));
    const rdx_uop *q = rdx_ir_alu2(ctx, RDX_OP_SHR, t, u64c(b, 5));
    const rdx_uop *o = rdx_ir_alu2(ctx, RDX_OP_AND, t, u64c(b, 31));
    const rdx_uop *ro = rdx_ir_sub(ctx, u64c(b, 32), o);
    const rdx_uop *w[4], *ww[3];
    for (int j = 0; j < 4; j++)
        w[j] = table_at(b, rdx_ir_add(ctx, q, u64c(b, (uint64_t)j)));
    for (int j = 0; j < 3; j++) /* 32 window bits: (w[j] << o | w[j+1] >> (32-o)) & 0xffffffff */
        ww[j] = rdx_ir_alu2(ctx, RDX_OP_AND,
                            rdx_ir_alu2(ctx, RDX_OP_OR, rdx_ir_alu2(ctx, RDX_OP_SHL, w[j], o),
                                        rdx_ir_alu2(ctx, RDX_OP_SHR, w[j + 1], ro)),
                            u64c(b, 0xffffffffu));
    const rdx_uop *p0 = rdx_ir_mul(ctx, m, ww[0]), *p1 = rdx_ir_mul(ctx, m, ww[1]);
    const rdx_uop *p2 = rdx_ir_mul(ctx, m, ww[2]);
    /* Y = p0 2^64 + p1 2^32 + p2 = hi 2^64 + lo */
    const rdx_uop *lo = rdx_ir_add(
        ctx, p2,
        rdx_ir_alu2(ctx, RDX_OP_SHL, rdx_ir_alu2(ctx, RDX_OP_AND, p1, u64c(b, 0xffffffffu)),
                    u64c(b, 32)));
    const rdx_uop *carry = rdx_ir_cast(ctx, rdx_ir_cmplt(ctx, lo, p2), u64);
    const rdx_uop *hi =
        rdx_ir_add(ctx, rdx_ir_add(ctx, p0, rdx_ir_alu2(ctx, RDX_OP_SHR, p1, u64c(b, 32))), carry);
    /* integer part mod 4: bits 94..95 of Y; a 62-bit fraction below them */
    const rdx_uop *k =
        rdx_ir_alu2(ctx, RDX_OP_AND, rdx_ir_alu2(ctx, RDX_OP_SHR, hi, u64c(b, 30)), u64c(b, 3));
    const rdx_uop *f = rdx_ir_alu2(
        ctx, RDX_OP_OR,
        rdx_ir_alu2(ctx, RDX_OP_SHL, rdx_ir_alu2(ctx, RDX_OP_AND, hi, u64c(b, 0x3fffffffu)),
                    u64c(b, 32)),
        rdx_ir_alu2(ctx, RDX_OP_SHR, lo, u64c(b, 32)));
    const rdx_uop *half =
        rdx_ir_cmpne(ctx, rdx_ir_alu2(ctx, RDX_OP_SHR, f, u64c(b, 61)), u64c(b, 0));
    k = rdx_ir_alu2(ctx, RDX_OP_AND, rdx_ir_add(ctx, k, rdx_ir_cast(ctx, half, u64)), u64c(b, 3));
    rdx_dtype i64 = rdx_dtype_of(RDX_INT64);
    const rdx_uop *fs = rdx_ir_sub(
        ctx, rdx_ir_bitcast(ctx, f, i64),
        sel(b, half, rdx_ir_const_int(ctx, i64, (int64_t)1 << 62), rdx_ir_const_int(ctx, i64, 0)));
    *r_out = mul(b, rdx_ir_cast(ctx, fs, b->d), C(b, ldexp(M_PI / 2, -62)));
    *q_out = rdx_ir_cast(ctx, k, b->i);
}

static const rdx_uop *sin_c(fb *b, const rdx_uop *x)
{
    rdx_ir_ctx *ctx = b->ctx;
    /* k = round(x * 2/pi); r = x - k*pi/2 with pi/2 in exact pieces (Cody-Waite):
     * pieces of (mantissa - kbits) bits keep k*piece exact for |k| < 2^kbits */
    int kbits = b->f64 ? 32 : 16, bits = (b->f64 ? 53 : 24) - kbits, parts = b->f64 ? 7 : 9;
    double pc[10];
    pio2_parts(bits, parts, pc);
    const rdx_uop *k = round_f(b, mul(b, x, C(b, 2 / M_PI)));
    const rdx_uop *r = x;
    for (int p = 0; p < parts; p++)
        r = add(b, r, mul(b, k, C(b, -pc[p])));
    const rdx_uop *q = rdx_ir_alu2(ctx, RDX_OP_AND, rdx_ir_cast(ctx, k, b->i), I(b, 3));
    const rdx_uop *big = NULL;
    if (!b->f64) { /* float32: Payne-Hanek beyond 2^15 */
        const rdx_uop *neg = lt(b, x, C(b, 0));
        const rdx_uop *ax = sel(b, neg, rdx_ir_neg(ctx, x), x);
        const rdx_uop *rp, *qp;
        payne_hanek(b, ax, &rp, &qp);
        /* sin(-|x|): quadrant -q, remainder -r */
        rp = sel(b, neg, rdx_ir_neg(ctx, rp), rp);
        qp = sel(b, neg, rdx_ir_alu2(ctx, RDX_OP_AND, rdx_ir_sub(ctx, I(b, 4), qp), I(b, 3)), qp);
        big = rdx_ir_cmplt(ctx, C(b, 32768), ax);
        r = sel(b, big, rp, r);
        q = sel(b, big, qp, q);
    }
    const rdx_uop *s = mul(b, r, r);
    double sc[10], cc[10];
    int n = b->f64 ? 10 : 6;
    double t = 1;
    for (int j = 0; j < n; j++) { /* sin: r * sum (-1)^j s^j/(2j+1)!, cos: sum (-1)^j s^j/(2j)! */
        cc[j] = (j % 2 ? -1 : 1) * t;
        t /= 2 * j + 1;
        sc[j] = (j % 2 ? -1 : 1) * t;
        t /= 2 * j + 2;
    }
    const rdx_uop *sn = mul(b, r, poly(b, s, sc, n));
    const rdx_uop *cs = poly(b, s, cc, n);
    const rdx_uop *odd = rdx_ir_cmpne(ctx, rdx_ir_alu2(ctx, RDX_OP_AND, q, I(b, 1)), I(b, 0));
    const rdx_uop *negq = rdx_ir_cmpne(ctx, rdx_ir_alu2(ctx, RDX_OP_AND, q, I(b, 2)), I(b, 0));
    const rdx_uop *v = sel(b, odd, cs, sn);
    v = sel(b, negq, rdx_ir_neg(ctx, v), v);
    /* inf and NaN give NaN (x - x) */
    const rdx_uop *z = rdx_ir_sub(ctx, x, x);
    return sel(b, isnan_(b, z), z, v);
}

const rdx_uop *rdx_ir_sin(rdx_ir_ctx *ctx, const rdx_uop *a)
{
    fb b;
    if (!begin(&b, ctx, a, "SIN"))
        return NULL;
    return from_compute(&b, sin_c(&b, to_compute(&b, a)), a->dtype);
}

/* ------------------------------------------------------------- SQRT, POW */

const rdx_uop *rdx_ir_sqrt(rdx_ir_ctx *ctx, const rdx_uop *a)
{
    return rdx_ir_exp2(ctx, rdx_ir_mul(ctx, rdx_ir_const_of(ctx, a, 0.5), rdx_ir_log2(ctx, a)));
}

const rdx_uop *rdx_ir_pow(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b)
{
    return rdx_ir_exp2(ctx, rdx_ir_mul(ctx, rdx_ir_log2(ctx, a), b));
}
