/*
 * ir/eval.c — a small evaluator for scalar elementwise graphs with the
 * dtype's exact semantics; used by constant folding and by tests.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir_internal.h"

/* IEEE binary16 bits <-> double (the double must already be representable for to_half). */
static uint16_t to_half(double v)
{
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    double a = fabs(v);
    if (isnan(v))
        return 0x7e00;
    if (isinf(a) || a >= 65520.0)
        return sign | 0x7c00;
    if (a < ldexp(1.0, -14)) /* subnormal: multiples of 2^-24 */
        return sign | (uint16_t)nearbyint(a * ldexp(1.0, 24));
    int e;
    double m = frexp(a, &e); /* a = m 2^e, m in [0.5,1) */
    int exp = e - 1 + 15;
    uint16_t mant = (uint16_t)nearbyint((m * 2 - 1) * 1024);
    if (mant == 1024)
        mant = 0, exp++;
    return sign | (uint16_t)(exp << 10) | mant;
}

static double from_half(uint16_t h)
{
    int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    double s = (h & 0x8000) ? -1 : 1;
    if (exp == 0x1f)
        return mant ? NAN : s * INFINITY;
    if (exp == 0)
        return s * ldexp(mant, -24);
    return s * ldexp(1024 + mant, exp - 25);
}

/* Raw bits of a scalar value of dtype d. */
static uint64_t to_bits(rdx_dtype d, rdx_value v)
{
    switch (d.scalar) {
    case RDX_FLOAT16:
        return to_half(v.f);
    case RDX_BFLOAT16: {
        float f = (float)v.f;
        uint32_t b;
        memcpy(&b, &f, 4);
        return b >> 16;
    }
    case RDX_FP8E4M3:
    case RDX_FP8E5M2:
        return rdx_f64_to_fp8(v.f, (rdx_scalar)d.scalar);
    case RDX_FLOAT32: {
        float f = (float)v.f;
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    case RDX_FLOAT64: {
        uint64_t b;
        memcpy(&b, &v.f, 8);
        return b;
    }
    default: {
        unsigned bits = rdx_dtype_itemsize(d) * 8;
        uint64_t u = (uint64_t)v.i;
        return bits >= 64 ? u : u & (((uint64_t)1 << bits) - 1);
    }
    }
}

static rdx_value from_bits(rdx_dtype d, uint64_t b)
{
    rdx_value r = { 0, 0 };
    switch (d.scalar) {
    case RDX_FLOAT16:
        r.f = from_half((uint16_t)b);
        break;
    case RDX_BFLOAT16: {
        uint32_t w = (uint32_t)b << 16;
        float f;
        memcpy(&f, &w, 4);
        r.f = f;
        break;
    }
    case RDX_FP8E4M3:
    case RDX_FP8E5M2:
        r.f = rdx_fp8_to_f64((uint8_t)b, (rdx_scalar)d.scalar);
        break;
    case RDX_FLOAT32: {
        uint32_t w = (uint32_t)b;
        float f;
        memcpy(&f, &w, 4);
        r.f = f;
        break;
    }
    case RDX_FLOAT64:
        memcpy(&r.f, &b, 8);
        break;
    default:
        r.i = rdx_ir_wrap(d, (int64_t)b);
        break;
    }
    return r;
}

static int is_u64(rdx_dtype d)
{
    return d.scalar == RDX_UINT64;
}

/* Float -> integer dtype: truncate, saturate, NaN -> 0. */
static int64_t f2i(rdx_dtype d, double f)
{
    if (d.scalar == RDX_BOOL)
        return f != 0;
    if (isnan(f))
        return 0;
    f = trunc(f);
    if (is_u64(d)) {
        if (f <= 0)
            return 0;
        if (f >= 18446744073709551616.0)
            return -1; /* all ones */
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

rdx_status rdx_ir_alu_eval(rdx_op op, rdx_dtype out, rdx_dtype in, const rdx_value *a, rdx_value *r)
{
    r->i = 0, r->f = 0;
    int fl = rdx_dtype_is_float(in);
    int64_t x = a[0].i, y = a[1].i;
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    unsigned bits = rdx_dtype_itemsize(in) * 8;
    switch (op) {
    case RDX_OP_CAST:
        if (rdx_dtype_is_float(out)) {
            double v = fl ? a[0].f : is_u64(in) ? (double)ux : (double)x;
            r->f = rdx_ir_round_float(out, v);
        } else {
            r->i = fl ? f2i(out, a[0].f) : rdx_ir_wrap(out, x);
        }
        return RDX_OK;
    case RDX_OP_BITCAST:
        *r = from_bits(out, to_bits(in, a[0]));
        return RDX_OK;
    case RDX_OP_WHERE:
        *r = a[0].i ? a[1] : a[2];
        return RDX_OK;
    case RDX_OP_CMPLT:
        r->i = fl ? a[0].f < a[1].f : is_u64(in) ? ux < uy : x < y;
        return RDX_OK;
    case RDX_OP_CMPNE:
        r->i = fl ? a[0].f != a[1].f : x != y;
        return RDX_OK;
    default:
        break;
    }
    if (fl) {
        double v;
        switch (op) {
        case RDX_OP_RECIP:
            v = 1.0 / a[0].f;
            break;
        case RDX_OP_TRUNC:
            v = trunc(a[0].f);
            break;
        case RDX_OP_ADD:
            v = a[0].f + a[1].f;
            break;
        case RDX_OP_MUL:
            v = a[0].f * a[1].f;
            break;
        case RDX_OP_MAX:
            v = fmax(a[0].f, a[1].f);
            break;
        default:
            return rdx_fail(RDX_ERR_UNSUPPORTED, "eval: %s on floats", rdx_op_name(op));
        }
        r->f = rdx_ir_round_float(out, v);
        return RDX_OK;
    }
    uint64_t v;
    switch (op) {
    case RDX_OP_TRUNC:
        v = ux;
        break;
    case RDX_OP_ADD:
        v = ux + uy;
        break;
    case RDX_OP_MUL:
        v = ux * uy;
        break;
    case RDX_OP_MAX:
        v = is_u64(in) ? (ux > uy ? ux : uy) : (uint64_t)(x > y ? x : y);
        break;
    case RDX_OP_IDIV:
    case RDX_OP_MOD:
        if (y == 0)
            return rdx_fail(RDX_ERR_INVALID, "eval: integer %s by zero",
                            op == RDX_OP_IDIV ? "division" : "modulo");
        if (is_u64(in))
            v = op == RDX_OP_IDIV ? ux / uy : ux % uy;
        else if (x == INT64_MIN && y == -1)
            v = op == RDX_OP_IDIV ? ux : 0;
        else
            v = (uint64_t)(op == RDX_OP_IDIV ? x / y : x % y);
        break;
    case RDX_OP_XOR:
        v = ux ^ uy;
        break;
    case RDX_OP_OR:
        v = ux | uy;
        break;
    case RDX_OP_AND:
        v = ux & uy;
        break;
    case RDX_OP_SHL:
        if (y < 0)
            return rdx_fail(RDX_ERR_INVALID, "eval: negative shift %" PRId64, y);
        v = (uint64_t)y >= bits ? 0 : ux << y;
        break;
    case RDX_OP_SHR:
        if (y < 0)
            return rdx_fail(RDX_ERR_INVALID, "eval: negative shift %" PRId64, y);
        if (rdx_dtype_is_unsigned(in) || in.scalar == RDX_BOOL)
            v = (uint64_t)y >= 64 ? 0 : to_bits(in, a[0]) >> y;
        else
            v = (uint64_t)(x >> ((uint64_t)y >= 63 ? 63 : y));
        break;
    default:
        return rdx_fail(RDX_ERR_UNSUPPORTED, "eval: %s on integers", rdx_op_name(op));
    }
    r->i = rdx_ir_wrap(out, (int64_t)v);
    return RDX_OK;
}

struct rdx_evalplan {
    size_t n;
    const rdx_uop **order;
    uint32_t *src; /* 3 operand slots per node: indices into vals */
    int32_t *leaf; /* leaf number or -1 */
    rdx_value *vals;
};

void rdx_evalplan_free(rdx_evalplan *p)
{
    if (!p)
        return;
    free(p->order);
    free(p->src);
    free(p->leaf);
    free(p->vals);
    free(p);
}

static int evaluable(rdx_op op)
{
    switch (op) {
    case RDX_OP_CONST:
    case RDX_OP_BIND:
    case RDX_OP_RECIP:
    case RDX_OP_TRUNC:
    case RDX_OP_CAST:
    case RDX_OP_BITCAST:
    case RDX_OP_ADD:
    case RDX_OP_MUL:
    case RDX_OP_MAX:
    case RDX_OP_MOD:
    case RDX_OP_IDIV:
    case RDX_OP_CMPLT:
    case RDX_OP_CMPNE:
    case RDX_OP_XOR:
    case RDX_OP_OR:
    case RDX_OP_AND:
    case RDX_OP_SHR:
    case RDX_OP_SHL:
    case RDX_OP_WHERE:
        return 1;
    default:
        return 0;
    }
}

rdx_status rdx_evalplan_create(const rdx_uop *root, const rdx_uop *const *leaves, size_t nleaves,
                               rdx_evalplan **out)
{
    rdx_evalplan *p = calloc(1, sizeof *p);
    if (!p)
        return rdx_fail(RDX_ERR_NOMEM, "eval: out of memory");
    rdx_status st = rdx_ir_toposort(root, &p->order, &p->n);
    rdx_pmap idx = { 0 }, need = { 0 };
    /* keep only what the root needs without looking inside leaves */
    if (!st && p->n)
        st = rdx_pmap_put(&need, root, root);
    for (size_t i = p->n; i-- > 0 && !st;) {
        const rdx_uop *u = p->order[i];
        int is_leaf = 0;
        for (size_t k = 0; k < nleaves; k++)
            is_leaf |= leaves[k] == u;
        if (!rdx_pmap_get(&need, u) || is_leaf)
            continue;
        for (uint32_t k = 0; k < u->nsrc && !st; k++)
            st = rdx_pmap_put(&need, u->src[k], u);
    }
    size_t kept = 0;
    for (size_t i = 0; i < p->n && !st; i++)
        if (rdx_pmap_get(&need, p->order[i]))
            p->order[kept++] = p->order[i];
    p->n = kept;
    rdx_pmap_free(&need);
    if (!st) {
        p->src = calloc(p->n * 3, sizeof *p->src);
        p->leaf = calloc(p->n, sizeof *p->leaf);
        p->vals = calloc(p->n, sizeof *p->vals);
        if (!p->src || !p->leaf || !p->vals)
            st = rdx_fail(RDX_ERR_NOMEM, "eval: out of memory");
    }
    for (size_t i = 0; i < p->n && !st; i++) {
        const rdx_uop *u = p->order[i];
        if ((st = rdx_pmap_put(&idx, u, (void *)(uintptr_t)(i + 1))))
            break;
        p->leaf[i] = -1;
        for (size_t k = 0; k < nleaves; k++)
            if (leaves[k] == u)
                p->leaf[i] = (int32_t)k;
        if (u->ndim || u->dtype.count != 1) {
            st = rdx_fail(RDX_ERR_UNSUPPORTED, "eval: %s node #%u is not a scalar",
                          rdx_op_name((rdx_op)u->op), u->id);
            break;
        }
        if (p->leaf[i] >= 0)
            continue;
        if (u->op == RDX_OP_DEFINE_VAR || u->op == RDX_OP_RANGE || u->op == RDX_OP_SPECIAL) {
            st = rdx_fail(RDX_ERR_INVALID, "eval: %s #%u has no value", rdx_op_name((rdx_op)u->op),
                          u->id);
            break;
        }
        if (!evaluable((rdx_op)u->op)) {
            st = rdx_fail(RDX_ERR_UNSUPPORTED, "eval: %s is not a scalar elementwise op",
                          rdx_op_name((rdx_op)u->op));
            break;
        }
        for (uint32_t k = 0; k < u->nsrc && k < 3; k++)
            p->src[i * 3 + k] = (uint32_t)(uintptr_t)rdx_pmap_get(&idx, u->src[k]) - 1;
        if (u->op == RDX_OP_CONST) {
            p->vals[i].i = u->arg.i;
            p->vals[i].f = u->arg.f;
        }
    }
    rdx_pmap_free(&idx);
    if (st) {
        rdx_evalplan_free(p);
        return st;
    }
    *out = p;
    return RDX_OK;
}

rdx_status rdx_evalplan_run(rdx_evalplan *p, const rdx_value *vals, rdx_value *out)
{
    for (size_t i = 0; i < p->n; i++) {
        const rdx_uop *u = p->order[i];
        if (p->leaf[i] >= 0) {
            p->vals[i] = vals[p->leaf[i]];
            continue;
        }
        if (u->op == RDX_OP_CONST)
            continue;
        const uint32_t *s = &p->src[i * 3];
        if (u->op == RDX_OP_BIND) {
            p->vals[i] = p->vals[s[1]];
            continue;
        }
        rdx_value a[3] = { p->vals[s[0]], p->vals[s[1]], p->vals[s[2]] };
        rdx_status st = rdx_ir_alu_eval((rdx_op)u->op, u->dtype,
                                        u->op == RDX_OP_WHERE ? u->src[1]->dtype : u->src[0]->dtype,
                                        a, &p->vals[i]);
        if (st)
            return st;
    }
    *out = p->vals[p->n - 1];
    return RDX_OK;
}

int rdx_ir_fold_srcs(const rdx_uop *u, const rdx_uop *const *src, rdx_value *out)
{
    if (u->op == RDX_OP_CONST || u->op == RDX_OP_BIND || !evaluable((rdx_op)u->op) || u->ndim ||
        u->dtype.count != 1 || u->nsrc > 3)
        return 0;
    rdx_value a[3] = { { 0, 0 }, { 0, 0 }, { 0, 0 } };
    for (uint32_t k = 0; k < u->nsrc; k++) {
        const rdx_uop *c = src[k];
        if (c->op != RDX_OP_CONST || c->ndim || c->dtype.count != 1 ||
            memcmp(&c->dtype, &u->src[k]->dtype, sizeof c->dtype))
            return 0;
        a[k].i = c->arg.i;
        a[k].f = c->arg.f;
    }
    return !rdx_ir_alu_eval((rdx_op)u->op, u->dtype,
                            u->op == RDX_OP_WHERE ? u->src[1]->dtype : u->src[0]->dtype, a, out);
}

int rdx_ir_fold_const(const rdx_uop *u, rdx_value *out)
{
    return rdx_ir_fold_srcs(u, u->src, out);
}

rdx_status rdx_ir_eval(const rdx_uop *root, const rdx_uop *const *leaves, const rdx_value *vals,
                       size_t nleaves, rdx_value *out)
{
    rdx_evalplan *p;
    rdx_status st = rdx_evalplan_create(root, leaves, nleaves, &p);
    if (st)
        return st;
    st = rdx_evalplan_run(p, vals, out);
    rdx_evalplan_free(p);
    return st;
}
