/*
 * ir/interp/value.c — storage, views, element load/store and the IEEE
 * conversions (float16/bfloat16 with round-to-nearest-even, CAST semantics).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/interp/interp_internal.h"

unsigned dt_size(rdx_dtype d)
{
    return d.scalar == RDX_INDEX ? 8 : rdx_dtype_itemsize(rdx_dtype_scalar(d));
}

int dt_isfloat(rdx_dtype d)
{
    return rdx_dtype_is_float(d);
}

int dt_ishalf(rdx_dtype d)
{
    return d.scalar == RDX_FLOAT16 || d.scalar == RDX_BFLOAT16 || d.scalar == RDX_FP8E4M3 ||
           d.scalar == RDX_FP8E5M2;
}

_Thread_local iscache *is_cache;

enum { IS_CACHE_MIN = 1 << 20 };

istore *is_alloc(size_t nbytes)
{
    iscache *c = is_cache;
    if (c && nbytes >= IS_CACHE_MIN) {
        for (size_t k = 0; k < c->n; k++) {
            istore *s = c->blk[k];
            if (s->cap >= nbytes && s->cap / 2 <= nbytes) {
                c->blk[k] = c->blk[--c->n];
                memset(s->data, 0, nbytes);
                s->refs = 1;
                s->nbytes = nbytes;
                return s;
            }
        }
    }
    istore *s = calloc(1, sizeof *s + nbytes + 1);
    if (!s) {
        rdx_fail(RDX_ERR_NOMEM, "interp: out of memory allocating %zu bytes", nbytes);
        return NULL;
    }
    s->refs = 1;
    s->nbytes = s->cap = nbytes;
    return s;
}

void is_unref(istore *s)
{
    if (!s || --s->refs)
        return;
    iscache *c = is_cache;
    if (c && s->cap >= IS_CACHE_MIN) {
        if (c->n == IS_CACHE_N) { /* drop the smallest */
            size_t m = 0;
            for (size_t k = 1; k < c->n; k++)
                if (c->blk[k]->cap < c->blk[m]->cap)
                    m = k;
            free(c->blk[m]);
            c->blk[m] = c->blk[--c->n];
        }
        c->blk[c->n++] = s;
        return;
    }
    free(s);
}

void is_cache_free(iscache *c)
{
    for (size_t k = 0; k < c->n; k++)
        free(c->blk[k]);
    c->n = 0;
}

void iv_release(ival *v)
{
    if (v->tup) {
        for (uint32_t k = 0; k < v->ntup; k++)
            iv_release(&v->tup[k]);
        free(v->tup);
    }
    is_unref(v->st);
    memset(v, 0, sizeof *v);
}

ival iv_ref(const ival *v)
{
    ival r = *v;
    if (v->st)
        v->st->refs++;
    if (v->ntup) {
        r.tup = calloc(v->ntup, sizeof *r.tup);
        if (!r.tup)
            abort(); /* tuples are tiny; treat as fatal like a stack overflow */
        for (uint32_t k = 0; k < v->ntup; k++)
            r.tup[k] = iv_ref(&v->tup[k]);
    }
    return r;
}

int64_t iv_numel(const ival *v)
{
    int64_t n = 1;
    for (uint32_t k = 0; k < v->nd; k++)
        n *= v->dims[k];
    return n;
}

int iv_contig(const ival *v)
{
    int64_t s = 1;
    for (uint32_t k = v->nd; k-- > 0;) {
        if (v->dims[k] != 1 && v->str[k] != s)
            return 0;
        s *= v->dims[k];
    }
    return 1;
}

rdx_status iv_new(ival *v, rdx_dtype dt, uint32_t nd, const int64_t *dims)
{
    memset(v, 0, sizeof *v);
    v->dt = rdx_dtype_scalar(dt);
    v->nd = nd;
    int64_t n = 1;
    for (uint32_t k = nd; k-- > 0;) {
        v->dims[k] = dims[k];
        v->str[k] = n;
        if (dims[k] < 0 || (dims[k] && n > IV_MAX_BYTES / 8 / dims[k]))
            return rdx_fail(RDX_ERR_NOMEM,
                            "interp: a value of shape with dimension %lld is too large",
                            (long long)dims[k]);
        n *= dims[k];
    }
    v->st = is_alloc((size_t)n * dt_size(v->dt));
    return v->st ? RDX_OK : RDX_ERR_NOMEM;
}

void iv_broadcast(const ival *v, uint32_t nd, const int64_t *dims, ival *out)
{
    *out = *v;
    out->nd = nd;
    uint32_t sh = nd - v->nd;
    for (uint32_t k = 0; k < nd; k++) {
        out->dims[k] = dims[k];
        if (k < sh || (v->dims[k - sh] == 1 && dims[k] != 1))
            out->str[k] = 0;
        else
            out->str[k] = v->str[k - sh];
    }
}

void k_copy_row(int64_t n, char *const *p, const int64_t *s, void *aux)
{
    size_t es = *(const size_t *)aux;
    if (s[0] == (int64_t)es && s[1] == (int64_t)es) {
        memcpy(p[0], p[1], (size_t)n * es);
        return;
    }
    for (int64_t i = 0; i < n; i++)
        memcpy(p[0] + i * s[0], p[1] + i * s[1], es);
}

rdx_status iv_dense(const ival *v, ival *out)
{
    rdx_status st = iv_new(out, v->dt, v->nd, v->dims);
    if (st)
        return st;
    nditer it;
    const ival *ops[2] = { out, v };
    nd_init(&it, v->nd, v->dims, 2, ops);
    size_t es = dt_size(v->dt);
    nd_run(&it, k_copy_row, &es);
    return RDX_OK;
}

void iv_copy(ival *dst, const ival *src)
{
    nditer it;
    const ival *ops[2] = { dst, src };
    nd_init(&it, dst->nd, dst->dims, 2, ops);
    size_t es = dt_size(dst->dt);
    nd_run(&it, k_copy_row, &es);
}

/* ------------------------------------------------------------ float16/bfloat16 */

/* Round |v| (finite, non-negative double) to a binary format with mbits fraction bits and
 * ebits exponent bits, nearest-even; returns the exponent/mantissa field bits. */
static uint32_t round_small(double a, int mbits, int ebits)
{
    int bias = (1 << (ebits - 1)) - 1, emin = 1 - bias;
    uint32_t inf = (uint32_t)((1 << ebits) - 1) << mbits;
    if (isinf(a))
        return inf;
    if (a == 0)
        return 0;
    int e;
    frexp(a, &e);
    e -= 1; /* a = m 2^e, m in [1, 2) */
    if (e < emin)
        e = emin;
    if (e > bias + 1)
        return inf;
    double q = ldexp(a, mbits - e); /* exact: a power-of-two scaling */
    double r = nearbyint(q);        /* the one rounding, to nearest even */
    uint64_t m = (uint64_t)r;
    if (m >= (uint64_t)2 << mbits) {
        m >>= 1;
        e++;
    }
    if (e > bias)
        return inf;
    if (m < ((uint64_t)1 << mbits))
        return (uint32_t)m; /* subnormal (or zero) */
    return ((uint32_t)(e + bias) << mbits) | (uint32_t)(m - ((uint64_t)1 << mbits));
}

uint16_t rdx_f64_to_f16(double v)
{
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    if (isnan(v))
        return sign | 0x7e00;
    return sign | (uint16_t)round_small(fabs(v), 10, 5);
}

uint16_t rdx_f64_to_bf16(double v)
{
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    if (isnan(v))
        return sign | 0x7fc0;
    return sign | (uint16_t)round_small(fabs(v), 7, 8);
}

double rdx_f16_to_f64(uint16_t h)
{
    int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    double s = (h & 0x8000) ? -1 : 1;
    if (exp == 0x1f)
        return mant ? NAN : s * INFINITY;
    if (exp == 0)
        return s * ldexp(mant, -24);
    return s * ldexp(1024 + mant, exp - 25);
}

double rdx_bf16_to_f64(uint16_t h)
{
    uint32_t w = (uint32_t)h << 16;
    float f;
    memcpy(&f, &w, 4);
    return f;
}

/* ------------------------------------------------------------- elements */

ielem el_load(rdx_dtype d, const void *p)
{
    ielem e = { 0, 0 };
    switch (d.scalar) {
#define L_(S, T)                 \
    case S: {                    \
        T x;                     \
        memcpy(&x, p, sizeof x); \
        e.i = (int64_t)x;        \
        break;                   \
    }
        L_(RDX_BOOL, uint8_t)
        L_(RDX_INT8, int8_t)
        L_(RDX_UINT8, uint8_t)
        L_(RDX_INT16, int16_t)
        L_(RDX_UINT16, uint16_t)
        L_(RDX_INT32, int32_t)
        L_(RDX_UINT32, uint32_t)
        L_(RDX_INT64, int64_t)
        L_(RDX_UINT64, uint64_t)
        L_(RDX_INDEX, int64_t)
#undef L_
    case RDX_FLOAT16: {
        uint16_t h;
        memcpy(&h, p, 2);
        e.f = rdx_f16_to_f64(h);
        break;
    }
    case RDX_BFLOAT16: {
        uint16_t h;
        memcpy(&h, p, 2);
        e.f = rdx_bf16_to_f64(h);
        break;
    }
    case RDX_FP8E4M3:
    case RDX_FP8E5M2:
        e.f = rdx_fp8_to_f64(*(const uint8_t *)p, (rdx_scalar)d.scalar);
        break;
    case RDX_FLOAT32: {
        float f;
        memcpy(&f, p, 4);
        e.f = f;
        break;
    }
    case RDX_FLOAT64:
        memcpy(&e.f, p, 8);
        break;
    default:
        break;
    }
    return e;
}

void el_store(rdx_dtype d, void *p, ielem e)
{
    switch (d.scalar) {
#define S_(S, T)                 \
    case S: {                    \
        T x = (T)e.i;            \
        memcpy(p, &x, sizeof x); \
        break;                   \
    }
        S_(RDX_INT8, int8_t)
        S_(RDX_UINT8, uint8_t)
        S_(RDX_INT16, int16_t)
        S_(RDX_UINT16, uint16_t)
        S_(RDX_INT32, int32_t)
        S_(RDX_UINT32, uint32_t)
        S_(RDX_INT64, int64_t)
        S_(RDX_UINT64, uint64_t)
        S_(RDX_INDEX, int64_t)
#undef S_
    case RDX_BOOL: {
        uint8_t b = e.i != 0;
        memcpy(p, &b, 1);
        break;
    }
    case RDX_FLOAT16: {
        uint16_t h = rdx_f64_to_f16(e.f);
        memcpy(p, &h, 2);
        break;
    }
    case RDX_BFLOAT16: {
        uint16_t h = rdx_f64_to_bf16(e.f);
        memcpy(p, &h, 2);
        break;
    }
    case RDX_FP8E4M3:
    case RDX_FP8E5M2:
        *(uint8_t *)p = rdx_f64_to_fp8(e.f, (rdx_scalar)d.scalar);
        break;
    case RDX_FLOAT32: {
        float f = (float)e.f;
        memcpy(p, &f, 4);
        break;
    }
    case RDX_FLOAT64:
        memcpy(p, &e.f, 8);
        break;
    default:
        break;
    }
}

/* An integer as a double rounded to odd (dropped bits set the last kept bit): a later rounding
 * to a format of at most 51 bits is then exactly the correctly rounded one. */
static double int_to_odd_double(int64_t v, int is_unsigned)
{
    int neg = !is_unsigned && v < 0;
    uint64_t m = neg ? 0 - (uint64_t)v : (uint64_t)v;
    int shift = 0;
    while ((m >> shift) >= ((uint64_t)1 << 53))
        shift++;
    uint64_t kept = m >> shift;
    if (shift && (m & ((((uint64_t)1) << shift) - 1)))
        kept |= 1;
    double d = ldexp((double)kept, shift);
    return neg ? -d : d;
}

/* Float -> integer dtype: truncate, saturate, NaN -> 0. */
static int64_t f2i(rdx_dtype d, double f)
{
    if (d.scalar == RDX_BOOL)
        return f != 0;
    if (isnan(f))
        return 0;
    f = trunc(f);
    if (d.scalar == RDX_UINT64) {
        if (f <= 0)
            return 0;
        if (f >= 18446744073709551616.0)
            return -1;
        return (int64_t)(uint64_t)f;
    }
    int64_t lo, hi;
    rdx_dtype_range(d, &lo, &hi, NULL, NULL);
    if (f <= (double)lo)
        return lo;
    if (f >= (double)hi)
        return hi;
    return (int64_t)f;
}

ielem el_convert(rdx_dtype from, rdx_dtype to, ielem e)
{
    ielem r = { 0, 0 };
    int ff = dt_isfloat(from), tf = dt_isfloat(to);
    if (ff && tf) {
        r.f = e.f; /* el_store rounds once to the target format */
        if (to.scalar == RDX_FLOAT32)
            r.f = (double)(float)e.f;
    } else if (ff) {
        r.i = f2i(to, e.f);
    } else if (tf) {
        /* one correctly rounded conversion: int -> float32 directly, others via double
         * (exact below 2^53; float16 overflows long before that) */
        if (to.scalar == RDX_FLOAT32)
            r.f = from.scalar == RDX_UINT64 ? (double)(float)(uint64_t)e.i : (double)(float)e.i;
        else if (to.scalar == RDX_FLOAT64)
            r.f = from.scalar == RDX_UINT64 ? (double)(uint64_t)e.i : (double)e.i;
        else
            r.f = int_to_odd_double(e.i, from.scalar == RDX_UINT64);
    } else {
        r.i = to.scalar == RDX_BOOL ? e.i != 0 : e.i; /* el_store truncates (wraps) */
        if (to.scalar != RDX_BOOL && to.scalar != RDX_INDEX) {
            unsigned bits = dt_size(to) * 8;
            if (bits < 64) {
                uint64_t m = ((uint64_t)1 << bits) - 1, u = (uint64_t)e.i & m;
                if (!rdx_dtype_is_unsigned(to) && (u >> (bits - 1)))
                    u |= ~m;
                r.i = (int64_t)u;
            }
        }
    }
    return r;
}

/* ------------------------------------------------------------- casts */

typedef struct cast_aux {
    rdx_dtype from, to;
} cast_aux;

static void cast_row(int64_t n, char *const *p, const int64_t *s, void *aux)
{
    const cast_aux *c = aux;
    if (c->from.scalar == RDX_FLOAT32 && c->to.scalar == RDX_BFLOAT16 && s[0] == 2) {
        uint16_t *o = (uint16_t *)p[0];
        for (int64_t i = 0; i < n; i++) {
            uint32_t b;
            memcpy(&b, p[1] + i * s[1], 4);
            if ((b & 0x7fffffff) > 0x7f800000)
                o[i] = (uint16_t)((b >> 16) | 0x40);
            else
                o[i] = (uint16_t)((b + 0x7fff + ((b >> 16) & 1)) >> 16);
        }
        return;
    }
    if (c->from.scalar == RDX_FLOAT32 && c->to.scalar == RDX_FLOAT32 && s[0] == 4) {
        for (int64_t i = 0; i < n; i++)
            memcpy(p[0] + 4 * i, p[1] + i * s[1], 4);
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        ielem e = el_load(c->from, p[1] + i * s[1]);
        el_store(c->to, p[0] + i * s[0], el_convert(c->from, c->to, e));
    }
}

rdx_status iv_cast(const ival *v, rdx_dtype to, ival *out)
{
    to = rdx_dtype_scalar(to);
    rdx_status st = iv_new(out, to, v->nd, v->dims);
    if (st)
        return st;
    nditer it;
    const ival *ops[2] = { out, v };
    nd_init(&it, v->nd, v->dims, 2, ops);
    cast_aux c = { v->dt, to };
    nd_run(&it, cast_row, &c);
    return RDX_OK;
}

/* ------------------------------------------------------------- iteration */

void nd_init(nditer *it, uint32_t nd, const int64_t *dims, uint32_t nop, const ival *const *ops)
{
    memset(it, 0, sizeof *it);
    it->nd = nd;
    it->nop = nop;
    for (uint32_t k = 0; k < nd; k++)
        it->dims[k] = dims[k];
    for (uint32_t o = 0; o < nop; o++) {
        int64_t es = dt_size(ops[o]->dt);
        it->base[o] = iv_ptr(ops[o], 0);
        for (uint32_t k = 0; k < nd; k++)
            it->str[o][k] = ops[o]->str[k] * es;
    }
}

static void nd_coalesce(nditer *it)
{
    uint32_t m = 0;
    for (uint32_t k = 0; k < it->nd; k++) {
        if (it->dims[k] == 1)
            continue;
        if (m > 0) {
            int ok = 1;
            for (uint32_t o = 0; o < it->nop; o++)
                if (it->str[o][m - 1] != it->str[o][k] * it->dims[k])
                    ok = 0;
            if (ok) {
                it->dims[m - 1] *= it->dims[k];
                for (uint32_t o = 0; o < it->nop; o++)
                    it->str[o][m - 1] = it->str[o][k];
                continue;
            }
        }
        it->dims[m] = it->dims[k];
        for (uint32_t o = 0; o < it->nop; o++)
            it->str[o][m] = it->str[o][k];
        m++;
    }
    it->nd = m;
}

void nd_run(nditer *it, inner_fn fn, void *aux)
{
    for (uint32_t k = 0; k < it->nd; k++)
        if (it->dims[k] == 0)
            return;
    nd_coalesce(it);
    char *p[NOPS];
    int64_t s[NOPS] = { 0 };
    for (uint32_t o = 0; o < it->nop; o++)
        p[o] = it->base[o];
    if (it->nd == 0) {
        fn(1, p, s, aux);
        return;
    }
    uint32_t in = it->nd - 1;
    for (uint32_t o = 0; o < it->nop; o++)
        s[o] = it->str[o][in];
    int64_t idx[MAXD] = { 0 };
    for (;;) {
        fn(it->dims[in], p, s, aux);
        uint32_t k = in;
        for (;;) {
            if (k == 0)
                return;
            k--;
            idx[k]++;
            for (uint32_t o = 0; o < it->nop; o++)
                p[o] += it->str[o][k];
            if (idx[k] < it->dims[k])
                break;
            for (uint32_t o = 0; o < it->nop; o++)
                p[o] -= it->str[o][k] * it->dims[k];
            idx[k] = 0;
        }
    }
}
