/*
 * ir/derive.c — derived properties (dtype, shape, device, addrspace, shard
 * axis, min_max) of a node from its op, sources and arg, by the spec's table,
 * and every per-node rule of the verifier.  Called once per new node by
 * rdx_ir_make; a broken rule fails the construction.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir_internal.h"

#define FAIL(rule, ...) return rdx_ir_rule_fail(u, RDX_RULE_##rule, __VA_ARGS__)
#define TRY(x)                \
    do {                      \
        rdx_status st_ = (x); \
        if (st_)              \
            return st_;       \
    } while (0)

static rdx_status cint(rdx_ir_ctx *ctx, int64_t v, const rdx_uop **out)
{
    rdx_uop_arg a = rdx_uop_arg_none();
    a.dtype = rdx_dtype_of(RDX_INDEX);
    a.i = v;
    return rdx_ir_make(ctx, RDX_OP_CONST, NULL, 0, &a, 0, out);
}

static int is_one(const rdx_uop *d)
{
    int64_t v;
    return rdx_uop_const_int(d, &v) && v == 1;
}

/* ------------------------------------------------------------ min_max */

static void range_of_dtype(rdx_uop *u)
{
    rdx_dtype_range(u->dtype, &u->vmin, &u->vmax, &u->fmin, &u->fmax);
}

static void range_copy(rdx_uop *u, const rdx_uop *s)
{
    if (rdx_dtype_is_float(u->dtype) == rdx_dtype_is_float(s->dtype)) {
        u->vmin = s->vmin, u->vmax = s->vmax, u->fmin = s->fmin, u->fmax = s->fmax;
    } else {
        range_of_dtype(u);
    }
}

/* Set an integer range, widening to the dtype range when it does not fit. */
static void range_int(rdx_uop *u, int64_t lo, int64_t hi, int overflow)
{
    int64_t dlo, dhi;
    rdx_dtype_range(u->dtype, &dlo, &dhi, NULL, NULL);
    if (overflow || lo < dlo || hi > dhi || lo > hi) {
        u->vmin = dlo, u->vmax = dhi;
    } else {
        u->vmin = lo, u->vmax = hi;
    }
}

static void range_float(rdx_uop *u, double lo, double hi)
{
    if (isnan(lo) || isnan(hi)) {
        range_of_dtype(u);
        return;
    }
    u->fmin = lo, u->fmax = hi;
}

static int64_t min4(int64_t a, int64_t b, int64_t c, int64_t d)
{
    int64_t m = a < b ? a : b;
    m = m < c ? m : c;
    return m < d ? m : d;
}

static int64_t max4(int64_t a, int64_t b, int64_t c, int64_t d)
{
    int64_t m = a > b ? a : b;
    m = m > c ? m : c;
    return m > d ? m : d;
}

static void range_binary(rdx_uop *u, const rdx_uop *a, const rdx_uop *b)
{
    rdx_op op = (rdx_op)u->op;
    if (op == RDX_OP_CMPLT || op == RDX_OP_CMPNE) {
        double al, ah, bl, bh;
        if (rdx_dtype_is_float(a->dtype))
            al = a->fmin, ah = a->fmax, bl = b->fmin, bh = b->fmax;
        else
            al = (double)a->vmin, ah = (double)a->vmax, bl = (double)b->vmin, bh = (double)b->vmax;
        int64_t lo = 0, hi = 1;
        if (op == RDX_OP_CMPLT) {
            if (ah < bl)
                lo = 1;
            else if (al >= bh)
                hi = 0;
        } else {
            if (ah < bl || bh < al)
                lo = 1;
            else if (al == ah && bl == bh && al == bl)
                hi = 0;
        }
        if (!rdx_dtype_is_float(a->dtype)) { /* exact integer compare */
            if (op == RDX_OP_CMPLT)
                lo = a->vmax < b->vmin, hi = !(a->vmin >= b->vmax);
            else
                lo = a->vmax < b->vmin || b->vmax < a->vmin,
                hi = !(a->vmin == a->vmax && b->vmin == b->vmax && a->vmin == b->vmin);
        }
        u->vmin = lo, u->vmax = hi;
        return;
    }
    if (rdx_dtype_is_float(u->dtype)) {
        switch (op) {
        case RDX_OP_ADD:
            range_float(u, a->fmin + b->fmin, a->fmax + b->fmax);
            return;
        case RDX_OP_MUL: {
            double p[4] = { a->fmin * b->fmin, a->fmin * b->fmax, a->fmax * b->fmin,
                            a->fmax * b->fmax };
            double lo = p[0], hi = p[0];
            for (int k = 1; k < 4; k++) {
                if (isnan(p[k])) {
                    range_of_dtype(u);
                    return;
                }
                lo = p[k] < lo ? p[k] : lo, hi = p[k] > hi ? p[k] : hi;
            }
            range_float(u, lo, hi);
            return;
        }
        case RDX_OP_MAX:
            range_float(u, fmax(a->fmin, b->fmin), fmax(a->fmax, b->fmax));
            return;
        default:
            range_of_dtype(u);
            return;
        }
    }
    int64_t r0, r1, r2, r3;
    int ov = 0;
    switch (op) {
    case RDX_OP_ADD:
        ov |= __builtin_add_overflow(a->vmin, b->vmin, &r0);
        ov |= __builtin_add_overflow(a->vmax, b->vmax, &r1);
        range_int(u, r0, r1, ov);
        return;
    case RDX_OP_MUL:
        ov |= __builtin_mul_overflow(a->vmin, b->vmin, &r0);
        ov |= __builtin_mul_overflow(a->vmin, b->vmax, &r1);
        ov |= __builtin_mul_overflow(a->vmax, b->vmin, &r2);
        ov |= __builtin_mul_overflow(a->vmax, b->vmax, &r3);
        range_int(u, min4(r0, r1, r2, r3), max4(r0, r1, r2, r3), ov);
        return;
    case RDX_OP_MAX:
        range_int(u, a->vmin > b->vmin ? a->vmin : b->vmin, a->vmax > b->vmax ? a->vmax : b->vmax,
                  0);
        return;
    /* Refinements beyond the spec's "dtype range" (sound, needed by div/mod folding). */
    case RDX_OP_IDIV:
        if (b->vmin > 0 && a->vmin >= 0) {
            range_int(u, a->vmin / b->vmax, a->vmax / b->vmin, 0);
            return;
        }
        if (b->vmin == b->vmax && b->vmin > 0) { /* truncating division is monotonic */
            range_int(u, a->vmin / b->vmin, a->vmax / b->vmin, 0);
            return;
        }
        break;
    case RDX_OP_MOD:
        if (b->vmin > 0) {
            int64_t m = b->vmax - 1;
            if (a->vmin >= 0)
                range_int(u, 0, a->vmax < m ? a->vmax : m, 0);
            else
                range_int(u, a->vmin > -m ? a->vmin : -m,
                          a->vmax < m ? (a->vmax > 0 ? a->vmax : 0) : m, 0);
            return;
        }
        break;
    case RDX_OP_AND:
        if (u->dtype.scalar == RDX_BOOL) {
            range_int(u, a->vmin & b->vmin, a->vmax & b->vmax, 0);
            return;
        }
        if (a->vmin >= 0 && b->vmin >= 0) {
            range_int(u, 0, a->vmax < b->vmax ? a->vmax : b->vmax, 0);
            return;
        }
        break;
    case RDX_OP_OR:
        if (u->dtype.scalar == RDX_BOOL) {
            range_int(u, a->vmin | b->vmin, a->vmax | b->vmax, 0);
            return;
        }
        break;
    default:
        break;
    }
    range_of_dtype(u);
}

/* ------------------------------------------------------------- shapes */

static int shape_eq(const rdx_uop *a, const rdx_uop *b)
{
    if (a->ndim != b->ndim)
        return 0;
    for (uint32_t k = 0; k < a->ndim; k++)
        if (a->shape[k] != b->shape[k])
            return 0;
    return 1;
}

/* Broadcast srcs' shapes into u (right-aligned, each axis equal or 1). */
static rdx_status broadcast(rdx_uop *u, const rdx_uop **dims)
{
    uint32_t nd = 0;
    int same = 1;
    for (uint32_t s = 0; s < u->nsrc; s++) {
        if (u->src[s]->ndim > nd)
            nd = u->src[s]->ndim;
        if (!shape_eq(u->src[s], u->src[0]))
            same = 0;
    }
    if (same) {
        u->ndim = u->src[0]->ndim;
        u->shape = u->src[0]->shape;
        return RDX_OK;
    }
    for (uint32_t k = 0; k < nd; k++) {
        const rdx_uop *d = NULL;
        for (uint32_t s = 0; s < u->nsrc; s++) {
            const rdx_uop *x = u->src[s];
            if (k + x->ndim < nd)
                continue;
            const rdx_uop *xd = x->shape[k + x->ndim - nd];
            if (!d || is_one(d))
                d = xd;
            else if (xd != d && !is_one(xd)) {
                char a[128], b[128];
                rdx_ir_shape_str(u->src[0], a, sizeof a);
                rdx_ir_shape_str(x, b, sizeof b);
                FAIL(BROADCAST, "axis %u: shapes %s and %s are neither equal nor 1", k, a, b);
            }
        }
        dims[k] = d;
    }
    u->ndim = nd;
    return RDX_OK;
}

/* Dims of a shape operand: a STACK of scalar integer nodes. */
static rdx_status shape_operand(rdx_uop *u, uint32_t k, const rdx_uop *const **dims, uint32_t *n)
{
    const rdx_uop *s = u->src[k];
    if (s->op != RDX_OP_STACK || s->ndim != 1)
        FAIL(SHAPE_OPERAND, "source %u must be a STACK of scalar index values, got %s", k,
             rdx_op_name((rdx_op)s->op));
    for (uint32_t j = 0; j < s->nsrc; j++) {
        if (s->src[j]->ndim != 0 || !rdx_dtype_is_int(s->src[j]->dtype) ||
            s->src[j]->dtype.count != 1)
            FAIL(SHAPE_OPERAND, "source %u: element %u is not a scalar integer", k, j);
        if (s->src[j]->vmax < 0)
            FAIL(SHAPE_OPERAND, "source %u: element %u is negative", k, j);
    }
    if (s->nsrc > RDX_IR_MAX_DIMS)
        FAIL(SHAPE_OPERAND, "source %u: %u dims (at most %d)", k, s->nsrc, RDX_IR_MAX_DIMS);
    *dims = s->src;
    *n = s->nsrc;
    return RDX_OK;
}

/* Copy dims; CONST dims are re-made as index CONSTs so equal sizes are the same node. */
static rdx_status set_dims(rdx_ir_ctx *ctx, rdx_uop *u, const rdx_uop **dims,
                           const rdx_uop *const *from, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        int64_t v;
        if (rdx_uop_const_int(from[k], &v) && from[k]->dtype.scalar != RDX_INDEX)
            TRY(cint(ctx, v, &dims[k]));
        else
            dims[k] = from[k];
    }
    u->ndim = n;
    return RDX_OK;
}

/* ---------------------------------------------------------- devices */

static const rdx_uop_device *first_device(const rdx_uop *u)
{
    for (uint32_t k = 0; k < u->nsrc; k++)
        if (u->src[k]->device)
            return u->src[k]->device;
    return NULL;
}

static rdx_status devices_agree(rdx_uop *u)
{
    const rdx_uop_device *d = first_device(u);
    for (uint32_t k = 0; k < u->nsrc; k++)
        if (u->src[k]->device && u->src[k]->device != d)
            FAIL(DEVICE_MISMATCH, "source %u is on %s, source 0 on %s", k,
                 u->src[k]->device->names[0], d->names[0]);
    u->device = d;
    for (uint32_t k = 0; k < u->nsrc; k++)
        if (u->src[k]->axis >= 0) {
            u->axis = u->src[k]->axis;
            break;
        }
    return RDX_OK;
}

/* ---------------------------------------------------------- per-op */

static int dt_same(rdx_dtype a, rdx_dtype b)
{
    return rdx_dtype_eq(a, b);
}

static rdx_status need_void_free(rdx_uop *u)
{
    for (uint32_t k = 0; k < u->nsrc; k++)
        if (u->src[k]->dtype.scalar == RDX_VOID)
            FAIL(VOID_OPERAND, "source %u (%s) has no value", k,
                 rdx_op_name((rdx_op)u->src[k]->op));
    return RDX_OK;
}

static rdx_status derive_alu(rdx_ir_ctx *ctx, rdx_uop *u, const rdx_uop **dims)
{
    (void)ctx;
    rdx_op op = (rdx_op)u->op;
    /* need_void_free, broadcast, devices_agree (in that order of failure), the common case
       of scalar sources on no device in one pass */
    uint32_t plain = 1;
    for (uint32_t k = 0; k < u->nsrc; k++) {
        const rdx_uop *x = u->src[k];
        plain &= x->dtype.scalar != RDX_VOID && !x->ndim && !x->device && x->axis < 0;
    }
    if (plain) {
        u->ndim = 0;
        u->shape = NULL;
        u->device = NULL;
        u->axis = -1;
    } else {
        TRY(need_void_free(u));
        TRY(broadcast(u, dims));
        TRY(devices_agree(u));
    }
    const rdx_uop *a = u->src[0];
    char d0[48], d1[48];
    switch (op) {
    case RDX_OP_RECIP:
        if (!rdx_dtype_is_float(a->dtype))
            FAIL(DTYPE_MISMATCH, "RECIP needs a float, got %s",
                 rdx_dtype_str(a->dtype, d0, sizeof d0));
        /* fall through */
    case RDX_OP_TRUNC:
        u->dtype = a->dtype;
        if (op == RDX_OP_TRUNC && rdx_dtype_is_int(a->dtype))
            range_copy(u, a);
        else
            range_of_dtype(u);
        return RDX_OK;
    case RDX_OP_CAST: {
        rdx_dtype t = u->arg.dtype;
        if (t.scalar == RDX_VOID || t.ptr)
            FAIL(ARG, "cannot CAST to %s", rdx_dtype_str(t, d0, sizeof d0));
        if (t.count != a->dtype.count)
            FAIL(VECTOR_LANES, "CAST changes lanes %u -> %u", a->dtype.count, t.count);
        u->dtype = t;
        /* min_max: the source range clamped to the target dtype */
        if (rdx_dtype_is_float(t)) {
            double lo = rdx_dtype_is_float(a->dtype) ? a->fmin : (double)a->vmin;
            double hi = rdx_dtype_is_float(a->dtype) ? a->fmax : (double)a->vmax;
            if (a->dtype.scalar == RDX_BOOL || rdx_dtype_is_int(a->dtype) ||
                rdx_dtype_is_float(a->dtype))
                range_float(u, rdx_ir_round_float(t, lo), rdx_ir_round_float(t, hi));
        } else {
            int64_t dlo, dhi;
            rdx_dtype_range(t, &dlo, &dhi, NULL, NULL);
            if (t.scalar == RDX_BOOL) {
                u->vmin = 0, u->vmax = 1;
                if (!rdx_dtype_is_float(a->dtype) && (a->vmin > 0 || a->vmax < 0))
                    u->vmin = 1;
                if (!rdx_dtype_is_float(a->dtype) && a->vmin == 0 && a->vmax == 0)
                    u->vmax = 0;
            } else if (rdx_dtype_is_float(a->dtype)) {
                double lo = trunc(a->fmin), hi = trunc(a->fmax);
                u->vmin = lo <= (double)dlo ? dlo : lo >= (double)dhi ? dhi : (int64_t)lo;
                u->vmax = hi >= (double)dhi ? dhi : hi <= (double)dlo ? dlo : (int64_t)hi;
            } else if (a->vmin >= dlo && a->vmax <= dhi &&
                       !(a->dtype.scalar == RDX_UINT64 && a->vmax == INT64_MAX)) {
                u->vmin = a->vmin, u->vmax = a->vmax;
            } else { /* integer narrowing wraps: clamping would be unsound */
                u->vmin = dlo, u->vmax = dhi;
            }
        }
        return RDX_OK;
    }
    case RDX_OP_WHERE: {
        const rdx_uop *b = u->src[1], *c = u->src[2];
        if (a->dtype.scalar != RDX_BOOL)
            FAIL(GATE_DTYPE, "condition must be bool, got %s",
                 rdx_dtype_str(a->dtype, d0, sizeof d0));
        if (!dt_same(b->dtype, c->dtype))
            FAIL(DTYPE_MISMATCH, "branches differ: %s vs %s",
                 rdx_dtype_str(b->dtype, d0, sizeof d0), rdx_dtype_str(c->dtype, d1, sizeof d1));
        u->dtype = b->dtype;
        if (a->vmin == 1)
            range_copy(u, b);
        else if (a->vmax == 0)
            range_copy(u, c);
        else {
            u->vmin = b->vmin < c->vmin ? b->vmin : c->vmin;
            u->vmax = b->vmax > c->vmax ? b->vmax : c->vmax;
            u->fmin = fmin(b->fmin, c->fmin);
            u->fmax = fmax(b->fmax, c->fmax);
        }
        return RDX_OK;
    }
    default:
        break;
    }
    const rdx_uop *b = u->src[1];
    if (!dt_same(a->dtype, b->dtype))
        FAIL(DTYPE_MISMATCH, "operands %s and %s differ", rdx_dtype_str(a->dtype, d0, sizeof d0),
             rdx_dtype_str(b->dtype, d1, sizeof d1));
    if (a->dtype.ptr)
        FAIL(DTYPE_MISMATCH, "arithmetic on pointer %s", rdx_dtype_str(a->dtype, d0, sizeof d0));
    if ((op == RDX_OP_MOD || op == RDX_OP_IDIV || op == RDX_OP_XOR || op == RDX_OP_OR ||
         op == RDX_OP_AND || op == RDX_OP_SHL || op == RDX_OP_SHR) &&
        !rdx_dtype_is_int(a->dtype))
        FAIL(DTYPE_MISMATCH, "%s needs integer operands, got %s", rdx_op_name(op),
             rdx_dtype_str(a->dtype, d0, sizeof d0));
    if (rdx_op_info(op)->flags & RDX_OPF_CMP)
        u->dtype = rdx_dtype_vec(rdx_dtype_of(RDX_BOOL), a->dtype.count);
    else
        u->dtype = a->dtype;
    range_binary(u, a, b);
    return RDX_OK;
}

static rdx_status need_storage(rdx_uop *u, uint32_t k)
{
    if (u->src[k]->addrspace == RDX_ADDR_NONE)
        FAIL(NOT_STORAGE, "source %u (%s) is a value, not a buffer", k,
             rdx_op_name((rdx_op)u->src[k]->op));
    return RDX_OK;
}

static rdx_status need_bool(rdx_uop *u, uint32_t k)
{
    char d[48];
    if (u->src[k]->dtype.scalar != RDX_BOOL)
        FAIL(GATE_DTYPE, "gate (source %u) must be bool, got %s", k,
             rdx_dtype_str(u->src[k]->dtype, d, sizeof d));
    return RDX_OK;
}

static rdx_status need_range(rdx_uop *u, uint32_t from)
{
    for (uint32_t k = from; k < u->nsrc; k++)
        if (u->src[k]->op != RDX_OP_RANGE)
            FAIL(REDUCE_AXES, "source %u must be a RANGE, got %s", k,
                 rdx_op_name((rdx_op)u->src[k]->op));
    return RDX_OK;
}

static rdx_status need_scalar_int(rdx_uop *u, uint32_t k)
{
    char d[48];
    const rdx_uop *s = u->src[k];
    if (!rdx_dtype_is_int(s->dtype) || s->dtype.count != 1 || s->dtype.scalar == RDX_BOOL)
        FAIL(DTYPE_MISMATCH, "source %u must be an integer, got %s", k,
             rdx_dtype_str(s->dtype, d, sizeof d));
    if (s->ndim)
        FAIL(SHAPE_MISMATCH, "source %u must have shape ()", k);
    return RDX_OK;
}

/*
 * Product of the non-zero concrete dims of d[0..n) in *p; 0 when it exceeds
 * INT64_MAX.  Every node's shape keeps this product in int64 (rule
 * NUMEL_OVERFLOW), so element counts, strides and offsets computed from a
 * valid shape never overflow.
 */
static int nonzero_product(const rdx_uop *const *d, uint32_t n, int64_t *p)
{
    *p = 1;
    for (uint32_t k = 0; k < n; k++) {
        int64_t v;
        if (rdx_uop_const_int(d[k], &v) && v > 0 && __builtin_mul_overflow(*p, v, p))
            return 0;
    }
    return 1;
}

/* The NUMEL_OVERFLOW rule for dims d[0..n) of u (what names them in the message). */
static rdx_status dims_fit(rdx_uop *u, const char *what, const rdx_uop *const *d, uint32_t n)
{
    int64_t p;
    if (nonzero_product(d, n, &p))
        return RDX_OK;
    char b[256];
    size_t o = 0;
    b[0] = 0;
    for (uint32_t k = 0; k < n && o + 24 < sizeof b; k++) {
        int64_t v;
        if (rdx_uop_const_int(d[k], &v))
            o += (size_t)snprintf(b + o, sizeof b - o, "%s%" PRId64, k ? "," : "", v);
        else
            o += (size_t)snprintf(b + o, sizeof b - o, "%s?", k ? "," : "");
    }
    FAIL(NUMEL_OVERFLOW, "%s [%s] is too large: its element count exceeds INT64_MAX", what, b);
}

/* Element count of a dims list split into a constant product and symbolic factors. */
static int numel_parts(const rdx_uop *const *d, uint32_t n, int64_t *c, const rdx_uop **sym,
                       uint32_t *nsym)
{
    int zero = 0;
    *nsym = 0;
    for (uint32_t k = 0; k < n; k++) {
        int64_t v;
        if (rdx_uop_const_int(d[k], &v))
            zero |= v == 0;
        else
            sym[(*nsym)++] = d[k];
    }
    if (!nonzero_product(d, n, c))
        return 0;
    if (zero)
        *c = 0;
    return 1;
}

static int same_multiset(const rdx_uop **a, uint32_t na, const rdx_uop **b, uint32_t nb)
{
    if (na != nb)
        return 0;
    char used[RDX_IR_MAX_DIMS] = { 0 };
    for (uint32_t i = 0; i < na; i++) {
        uint32_t j = 0;
        while (j < nb && (used[j] || b[j] != a[i]))
            j++;
        if (j == nb)
            return 0;
        used[j] = 1;
    }
    return 1;
}

/* Shard axis after a reshape: the output axis starting at the same element offset with the same
 * size. */
static int reshape_axis(const rdx_uop *src, const rdx_uop **dims, uint32_t n)
{
    if (src->axis < 0)
        return -1;
    int64_t pre = 1, sz, v;
    for (int k = 0; k < src->axis; k++) {
        if (!rdx_uop_dim(src, (uint32_t)k, &v) || __builtin_mul_overflow(pre, v, &pre))
            return -1;
    }
    if (!rdx_uop_dim(src, (uint32_t)src->axis, &sz))
        return -1;
    int64_t p = 1;
    for (uint32_t k = 0; k < n; k++) {
        if (!rdx_uop_const_int(dims[k], &v))
            return -1;
        if (p == pre && v == sz)
            return (int)k;
        if (__builtin_mul_overflow(p, v, &p))
            return -1;
    }
    return -1;
}

static rdx_status derive_movement(rdx_ir_ctx *ctx, rdx_uop *u, const rdx_uop **dims)
{
    if (u->nsrc == 0) { /* the empty STACK: the shape () */
        u->dtype = rdx_dtype_of(RDX_INDEX);
        u->ndim = 1;
        return cint(ctx, 0, &dims[0]);
    }
    const rdx_uop *t = u->src[0];
    const rdx_uop *const *sd;
    uint32_t n;
    u->dtype = t->dtype;
    u->device = t->device;
    u->addrspace = t->addrspace;
    u->axis = t->axis;
    range_copy(u, t);
    switch ((rdx_op)u->op) {
    case RDX_OP_PERMUTE: {
        if (u->arg.nints != t->ndim)
            FAIL(PERMUTE_AXES, "order has %u axes for a rank-%u source", u->arg.nints, t->ndim);
        char seen[RDX_IR_MAX_DIMS] = { 0 };
        for (uint32_t k = 0; k < t->ndim; k++) {
            int64_t p = u->arg.ints[k];
            if (p < 0 || p >= t->ndim || seen[p])
                FAIL(PERMUTE_AXES, "order is not a permutation of 0..%u (entry %u = %" PRId64 ")",
                     t->ndim - 1, k, p);
            seen[p] = 1;
            dims[k] = t->shape[p];
            if (p == t->axis)
                u->axis = (int8_t)k;
        }
        u->ndim = t->ndim;
        return RDX_OK;
    }
    case RDX_OP_FLIP:
        if (u->arg.nints != t->ndim)
            FAIL(FLIP_AXES, "%u flags for a rank-%u source", u->arg.nints, t->ndim);
        for (uint32_t k = 0; k < t->ndim; k++)
            if (u->arg.ints[k] != 0 && u->arg.ints[k] != 1)
                FAIL(FLIP_AXES, "flag %u is %" PRId64 ", not 0 or 1", k, u->arg.ints[k]);
        u->ndim = t->ndim, u->shape = t->shape;
        return RDX_OK;
    case RDX_OP_RESHAPE: {
        TRY(shape_operand(u, 1, &sd, &n));
        TRY(set_dims(ctx, u, dims, sd, n));
        int64_t c0, c1;
        const rdx_uop *s0[RDX_IR_MAX_DIMS], *s1[RDX_IR_MAX_DIMS];
        uint32_t n0, n1;
        TRY(dims_fit(u, "source shape", t->shape, t->ndim));
        TRY(dims_fit(u, "target shape", dims, n));
        if (!numel_parts(t->shape, t->ndim, &c0, s0, &n0) || !numel_parts(dims, n, &c1, s1, &n1))
            FAIL(NUMEL_OVERFLOW, "element count overflows");
        if (c0 != c1 || !same_multiset(s0, n0, s1, n1)) {
            char a[128], b[128];
            rdx_ir_shape_str(t, a, sizeof a);
            u->shape = dims;
            rdx_ir_shape_str(u, b, sizeof b);
            u->shape = NULL;
            FAIL(RESHAPE_NUMEL, "%s has %" PRId64 "%s elements, target has %" PRId64 "%s", a, c0,
                 n0 ? "*symbolic" : "", c1, n1 ? "*symbolic" : "");
        }
        u->axis = (int8_t)reshape_axis(t, dims, n);
        return RDX_OK;
    }
    case RDX_OP_EXPAND:
        TRY(shape_operand(u, 1, &sd, &n));
        if (n != t->ndim)
            FAIL(EXPAND_DIM, "target rank %u differs from source rank %u", n, t->ndim);
        TRY(set_dims(ctx, u, dims, sd, n));
        for (uint32_t k = 0; k < n; k++)
            if (t->shape[k] != dims[k] && !is_one(t->shape[k]))
                FAIL(EXPAND_DIM, "axis %u: source size is neither 1 nor the target size", k);
        return RDX_OK;
    case RDX_OP_PAD:
    case RDX_OP_SHRINK: {
        const rdx_uop *const *od;
        uint32_t on;
        int pad = u->op == RDX_OP_PAD;
        TRY(shape_operand(u, 1, &od, &on));
        TRY(shape_operand(u, 2, &sd, &n));
        if (on != t->ndim || n != t->ndim) {
            if (pad)
                FAIL(PAD_RANGE, "offsets/sizes ranks %u/%u differ from source rank %u", on, n,
                     t->ndim);
            FAIL(SHRINK_RANGE, "offsets/sizes ranks %u/%u differ from source rank %u", on, n,
                 t->ndim);
        }
        TRY(set_dims(ctx, u, dims, sd, n));
        for (uint32_t k = 0; k < n; k++) {
            int64_t o, s, big;
            if (!rdx_uop_const_int(od[k], &o))
                o = od[k]->vmin;
            const rdx_uop *small = pad ? t->shape[k] : dims[k];
            const rdx_uop *large = pad ? dims[k] : t->shape[k];
            if (!rdx_uop_const_int(small, &s))
                s = small->vmin;
            int known = rdx_uop_const_int(large, &big);
            if (!known)
                big = large->vmax;
            int64_t end;
            int ov = __builtin_add_overflow(o, s, &end); /* offset + size past INT64_MAX */
            if (o < 0 || (known && (ov || end > big)) || (!known && small == large && o != 0)) {
                if (pad)
                    FAIL(PAD_RANGE,
                         "axis %u: offset %" PRId64 " + size %" PRId64
                         " exceeds output size %" PRId64,
                         k, o, s, big);
                FAIL(SHRINK_RANGE,
                     "axis %u: offset %" PRId64 " + size %" PRId64 " exceeds source size %" PRId64,
                     k, o, s, big);
            }
        }
        return RDX_OK;
    }
    case RDX_OP_INDEX: {
        uint32_t ni = u->nsrc - 1, nd = 0;
        if (ni > t->ndim)
            FAIL(INDEX_RANK, "%u indices for a rank-%u source", ni, t->ndim);
        for (uint32_t k = 1; k < u->nsrc; k++) {
            const rdx_uop *ix = u->src[k];
            char d[48];
            if (!rdx_dtype_is_int(ix->dtype) || ix->dtype.scalar == RDX_BOOL)
                FAIL(DTYPE_MISMATCH, "index %u must be an integer, got %s", k - 1,
                     rdx_dtype_str(ix->dtype, d, sizeof d));
            if (ix->ndim > 1)
                FAIL(INDEX_RANK, "index %u has rank %u (0 or 1 allowed)", k - 1, ix->ndim);
            if (ix->ndim == 1)
                dims[nd++] = ix->shape[0];
        }
        for (uint32_t k = ni; k < t->ndim; k++)
            dims[nd++] = t->shape[k];
        u->ndim = nd;
        u->axis = -1;
        return RDX_OK;
    }
    case RDX_OP_STACK: {
        for (uint32_t k = 1; k < u->nsrc; k++) {
            char d0[48], d1[48];
            if (!shape_eq(u->src[k], t)) {
                char a[128], b[128];
                rdx_ir_shape_str(t, a, sizeof a);
                rdx_ir_shape_str(u->src[k], b, sizeof b);
                FAIL(SHAPE_MISMATCH, "source %u has shape %s, source 0 %s", k, b, a);
            }
            if (!dt_same(u->src[k]->dtype, t->dtype))
                FAIL(DTYPE_MISMATCH, "source %u is %s, source 0 %s", k,
                     rdx_dtype_str(u->src[k]->dtype, d1, sizeof d1),
                     rdx_dtype_str(t->dtype, d0, sizeof d0));
            const rdx_uop *s = u->src[k];
            u->vmin = s->vmin < u->vmin ? s->vmin : u->vmin;
            u->vmax = s->vmax > u->vmax ? s->vmax : u->vmax;
            u->fmin = fmin(s->fmin, u->fmin), u->fmax = fmax(s->fmax, u->fmax);
        }
        if (u->nsrc && t->ndim + 1 > RDX_IR_MAX_DIMS)
            FAIL(SHAPE_OPERAND, "too many dims");
        TRY(cint(ctx, u->nsrc, &dims[0]));
        for (uint32_t k = 0; u->nsrc && k < t->ndim; k++)
            dims[k + 1] = t->shape[k];
        u->ndim = 1 + (u->nsrc ? t->ndim : 0);
        if (u->nsrc)
            TRY(devices_agree(u));
        u->axis = u->axis >= 0 ? u->axis + 1 : -1;
        return RDX_OK;
    }
    case RDX_OP_REPLICATED: {
        /* the spec's replicated(k): the shard axis k of a tensor on an n-tuple device holds n
         * identical copies; the result drops it (each device holds the whole rest), no axis */
        int64_t k = u->arg.i, dk;
        uint32_t nd = t->device ? t->device->n : 0;
        if (k < 0 || k >= (int64_t)t->ndim)
            FAIL(ARG, "axis %" PRId64 " of a rank-%u source", k, t->ndim);
        if (nd < 2 || t->axis != k)
            FAIL(DEVICE_MISMATCH, "axis %" PRId64 " is not the shard axis of a device tuple", k);
        if (!rdx_uop_dim(t, (uint32_t)k, &dk) || dk != (int64_t)nd)
            FAIL(SHAPE_MISMATCH, "axis %" PRId64 " must have one copy per device (%u)", k, nd);
        for (uint32_t j = 0, o = 0; j < t->ndim; j++)
            if (j != (uint32_t)k)
                dims[o++] = t->shape[j];
        u->ndim = t->ndim - 1;
        u->axis = -1;
        return RDX_OK;
    }
    case RDX_OP_BITCAST: {
        rdx_dtype to = u->arg.dtype;
        char d0[48], d1[48];
        if (to.scalar == RDX_VOID || t->dtype.scalar == RDX_VOID)
            FAIL(BITCAST_SIZE, "cannot bitcast %s to %s", rdx_dtype_str(t->dtype, d0, sizeof d0),
                 rdx_dtype_str(to, d1, sizeof d1));
        u->dtype = to;
        range_of_dtype(u);
        unsigned a = rdx_dtype_itemsize(t->dtype), b = rdx_dtype_itemsize(to);
        if (a == b) {
            u->ndim = t->ndim, u->shape = t->shape;
            return RDX_OK;
        }
        /* last * a / b without overflow: with g = gcd(a, b), last must be a multiple of b/g */
        unsigned g = a, r = b;
        while (r) {
            unsigned x = g % r;
            g = r, r = x;
        }
        int64_t last = 0, out;
        if (!t->ndim || !rdx_uop_dim(t, t->ndim - 1, &last) || last % (int64_t)(b / g))
            FAIL(BITCAST_SIZE,
                 "%s (%u bytes) to %s (%u bytes) needs a constant last axis "
                 "whose byte size divides",
                 rdx_dtype_str(t->dtype, d0, sizeof d0), a, rdx_dtype_str(to, d1, sizeof d1), b);
        if (__builtin_mul_overflow(last / (int64_t)(b / g), (int64_t)(a / g), &out))
            FAIL(NUMEL_OVERFLOW,
                 "last axis of %" PRId64
                 " x %u bytes holds more than INT64_MAX elements of %u bytes",
                 last, a, b);
        for (uint32_t k = 0; k + 1 < t->ndim; k++)
            dims[k] = t->shape[k];
        TRY(cint(ctx, out, &dims[t->ndim - 1]));
        u->ndim = t->ndim;
        return RDX_OK;
    }
    default:
        return RDX_OK;
    }
}

/* Collect PARAM nodes of a FUNCTION body (for substituting symbolic shapes). */
static void collect_params(const rdx_uop *u, rdx_pmap *seen, const rdx_uop **params, size_t np)
{
    if (rdx_pmap_get(seen, u) || rdx_pmap_put(seen, u, u))
        return;
    if (u->op == RDX_OP_PARAM && u->arg.i >= 0 && (size_t)u->arg.i < np)
        params[u->arg.i] = u;
    for (uint32_t k = 0; k < u->nsrc; k++)
        collect_params(u->src[k], seen, params, np);
}

/* CALL(PROGRAM, args...): one argument per PARAM slot of the PROGRAM's sink, each a buffer
   of the PARAM's dtype and element count (the kernel reads and writes them in place). */
static rdx_status call_program(const rdx_uop *u)
{
    const rdx_uop **order = NULL, *param[64] = { 0 };
    size_t n = 0, np = 0;
    rdx_status st = rdx_ir_toposort(u->src[0]->src[0], &order, &n);
    if (st)
        return st;
    for (size_t i = 0; i < n; i++)
        if (order[i]->op == RDX_OP_PARAM && order[i]->arg.i >= 0 && order[i]->arg.i < 64) {
            param[order[i]->arg.i] = order[i];
            np = (size_t)order[i]->arg.i + 1 > np ? (size_t)order[i]->arg.i + 1 : np;
        }
    free(order);
    char d0[48], d1[48];
    if (u->nsrc - 1 != np)
        FAIL(ARITY, "the PROGRAM takes %zu buffers (PARAM slots 0..%zu), the CALL passes %u", np,
             np ? np - 1 : 0, u->nsrc - 1);
    for (uint32_t k = 1; k < u->nsrc; k++) {
        const rdx_uop *a = u->src[k], *p = param[k - 1];
        int64_t na = 1, npe = 1, d;
        for (uint32_t j = 0; j < a->ndim; j++)
            na = na >= 0 && rdx_uop_dim(a, j, &d) ? na * d : -1;
        for (uint32_t j = 0; p && j < p->ndim; j++)
            npe = npe >= 0 && rdx_uop_dim(p, j, &d) ? npe * d : -1;
        if (!p)
            FAIL(ARG, "the PROGRAM's sink has no PARAM of slot %u", k - 1);
        if (!dt_same(rdx_dtype_scalar(a->dtype), rdx_dtype_scalar(p->arg.dtype)))
            FAIL(DTYPE_MISMATCH, "argument %u is %s, the PROGRAM's PARAM slot %u is %s", k - 1,
                 rdx_dtype_str(a->dtype, d0, sizeof d0), k - 1,
                 rdx_dtype_str(p->arg.dtype, d1, sizeof d1));
        if (na != npe)
            FAIL(SHAPE_MISMATCH, "argument %u has %lld elements, the PROGRAM's PARAM slot %u %lld",
                 k - 1, (long long)na, k - 1, (long long)npe);
    }
    return RDX_OK;
}

static rdx_status derive_call(rdx_ir_ctx *ctx, rdx_uop *u, const rdx_uop **dims)
{
    (void)ctx;
    switch ((rdx_op)u->op) {
    case RDX_OP_TUPLE:
        u->dtype = rdx_dtype_of(RDX_VOID);
        u->device = first_device(u);
        return RDX_OK;
    case RDX_OP_FUNCTION:
    case RDX_OP_CALL: {
        const rdx_uop *b = u->src[0];
        if (u->op == RDX_OP_FUNCTION && b->op != RDX_OP_TUPLE)
            FAIL(ARG, "FUNCTION body must be a TUPLE, got %s", rdx_op_name((rdx_op)b->op));
        if (u->op == RDX_OP_CALL && b->op == RDX_OP_PROGRAM)
            TRY(call_program(u));
        u->dtype = b->dtype;
        u->ndim = b->ndim, u->shape = b->shape;
        u->device = u->nsrc > 1 ? u->src[1]->device : b->device;
        range_of_dtype(u);
        return RDX_OK;
    }
    case RDX_OP_GETTUPLE: {
        const rdx_uop *t = u->src[0], *tup = t;
        if (t->op == RDX_OP_FUNCTION || t->op == RDX_OP_CALL)
            tup = t->src[0];
        if (tup->op != RDX_OP_TUPLE)
            FAIL(TUPLE_INDEX, "source is %s, not a TUPLE or a FUNCTION/CALL returning one",
                 rdx_op_name((rdx_op)tup->op));
        if (u->arg.i < 0 || u->arg.i >= tup->nsrc)
            FAIL(TUPLE_INDEX, "index %" PRId64 " out of range for %u elements", u->arg.i,
                 tup->nsrc);
        const rdx_uop *e = tup->src[u->arg.i];
        u->dtype = e->dtype;
        u->addrspace = e->addrspace;
        if (tup == t) {
            u->device = e->device;
            u->ndim = e->ndim, u->shape = e->shape;
            range_copy(u, e);
            return RDX_OK;
        }
        u->device = t->nsrc > 1 ? t->src[1]->device : e->device;
        range_of_dtype(u);
        u->ndim = e->ndim, u->shape = e->shape;
        /* substitute PARAM shapes: a symbolic dim of the result that is dim j of PARAM k
         * becomes dim j of argument k */
        int sym = 0;
        for (uint32_t k = 0; k < e->ndim; k++)
            if (e->shape[k]->op != RDX_OP_CONST)
                sym = 1;
        if (!sym || t->nsrc < 2)
            return RDX_OK;
        size_t np = t->nsrc - 1;
        const rdx_uop *params[64] = { 0 };
        if (np > 64)
            np = 64;
        rdx_pmap seen = { 0 };
        collect_params(tup, &seen, params, np);
        rdx_pmap_free(&seen);
        for (uint32_t k = 0; k < e->ndim; k++) {
            dims[k] = e->shape[k];
            for (size_t p = 0; p < np && dims[k] == e->shape[k]; p++) {
                const rdx_uop *pa = params[p], *arg = t->src[1 + p];
                if (!pa || pa->ndim != arg->ndim)
                    continue;
                for (uint32_t j = 0; j < pa->ndim; j++)
                    if (pa->shape[j] == e->shape[k]) {
                        dims[k] = arg->shape[j];
                        break;
                    }
            }
        }
        u->shape = NULL;
        return RDX_OK;
    }
    default:
        return RDX_OK;
    }
}

static rdx_status derive_source(rdx_ir_ctx *ctx, rdx_uop *u, const rdx_uop **dims)
{
    char d0[48];
    rdx_uop_arg *a = &u->arg;
    switch ((rdx_op)u->op) {
    case RDX_OP_CONST:
        if (a->dtype.scalar == RDX_VOID || a->dtype.ptr || a->dtype.count != 1)
            FAIL(ARG, "CONST dtype must be a scalar value type, got %s",
                 rdx_dtype_str(a->dtype, d0, sizeof d0));
        u->dtype = a->dtype;
        if (rdx_dtype_is_float(a->dtype)) {
            double r = rdx_ir_round_float(a->dtype, a->f);
            if (!(r == a->f || (isnan(r) && isnan(a->f))))
                FAIL(CONST_RANGE, "%.17g is not representable in %s", a->f,
                     rdx_dtype_str(a->dtype, d0, sizeof d0));
            u->fmin = u->fmax = a->f;
        } else {
            if (rdx_ir_wrap(a->dtype, a->i) != a->i)
                FAIL(CONST_RANGE, "%" PRId64 " does not fit %s", a->i,
                     rdx_dtype_str(a->dtype, d0, sizeof d0));
            u->vmin = u->vmax = a->i;
        }
        return RDX_OK;
    case RDX_OP_BINARY:
        u->dtype = rdx_dtype_of(RDX_UINT8);
        range_of_dtype(u);
        TRY(cint(ctx, a->len, &dims[0]));
        u->ndim = 1;
        return RDX_OK;
    case RDX_OP_DEFINE_VAR:
        if (a->i > a->j)
            FAIL(ARG, "variable '%s' has min %" PRId64 " > max %" PRId64, a->str, a->i, a->j);
        u->dtype = rdx_dtype_of(RDX_INDEX);
        u->vmin = a->i, u->vmax = a->j;
        return RDX_OK;
    case RDX_OP_BIND:
        if (u->src[0]->op != RDX_OP_DEFINE_VAR)
            FAIL(ARG, "source 0 must be a DEFINE_VAR, got %s", rdx_op_name((rdx_op)u->src[0]->op));
        TRY(need_scalar_int(u, 1));
        if (u->src[1]->vmin < u->src[0]->vmin || u->src[1]->vmax > u->src[0]->vmax)
            FAIL(CONST_RANGE,
                 "value [%" PRId64 ",%" PRId64 "] outside the variable's [%" PRId64 ",%" PRId64 "]",
                 u->src[1]->vmin, u->src[1]->vmax, u->src[0]->vmin, u->src[0]->vmax);
        u->dtype = u->src[0]->dtype;
        range_copy(u, u->src[0]);
        return RDX_OK;
    default:
        break;
    }
    /* PARAM, BUFFER, DEFINE_LOCAL, DEFINE_REG: shaped storage */
    const rdx_uop *const *sd;
    uint32_t n;
    TRY(shape_operand(u, 0, &sd, &n));
    TRY(set_dims(ctx, u, dims, sd, n));
    if (a->dtype.scalar == RDX_VOID)
        FAIL(ARG, "%s needs a value dtype", rdx_op_name((rdx_op)u->op));
    u->dtype = a->dtype;
    range_of_dtype(u);
    u->device = a->device;
    switch ((rdx_op)u->op) {
    case RDX_OP_BUFFER:
        if (!a->device)
            FAIL(ARG, "BUFFER needs a device");
        u->addrspace = a->addrspace ? a->addrspace : RDX_ADDR_GLOBAL;
        if (a->device->n > 1)
            u->axis = 0;
        break;
    case RDX_OP_PARAM:
        u->addrspace = a->addrspace;
        if (a->device && a->device->n > 1)
            u->axis = 0;
        break;
    case RDX_OP_DEFINE_LOCAL:
        u->addrspace = RDX_ADDR_LOCAL;
        break;
    default:
        u->addrspace = RDX_ADDR_REG;
        break;
    }
    return RDX_OK;
}

static rdx_status derive_vector(rdx_ir_ctx *ctx, rdx_uop *u, const rdx_uop **dims)
{
    (void)ctx, (void)dims;
    const rdx_uop *s = u->nsrc ? u->src[0] : NULL;
    char d0[48], d1[48];
    if (s)
        TRY(need_void_free(u));
    switch ((rdx_op)u->op) {
    case RDX_OP_VCONST: {
        rdx_dtype d = u->arg.dtype;
        if (d.scalar == RDX_VOID || d.ptr || u->arg.nints != d.count)
            FAIL(VECTOR_LANES, "%u values for dtype %s", u->arg.nints,
                 rdx_dtype_str(d, d0, sizeof d0));
        u->dtype = d;
        int fl = rdx_dtype_is_float(d);
        for (uint32_t k = 0; k < u->arg.nints; k++) {
            int64_t iv = u->arg.ints[k];
            double fv;
            memcpy(&fv, &iv, sizeof fv);
            if (fl) {
                u->fmin = k ? fmin(u->fmin, fv) : fv;
                u->fmax = k ? fmax(u->fmax, fv) : fv;
            } else {
                if (rdx_ir_wrap(d, iv) != iv)
                    FAIL(CONST_RANGE, "lane %u: %" PRId64 " does not fit %s", k, iv,
                         rdx_dtype_str(d, d0, sizeof d0));
                u->vmin = k && u->vmin < iv ? u->vmin : iv;
                u->vmax = k && u->vmax > iv ? u->vmax : iv;
            }
        }
        return RDX_OK;
    }
    case RDX_OP_VECTORIZE:
        for (uint32_t k = 0; k < u->nsrc; k++) {
            if (u->src[k]->dtype.count != 1 || !dt_same(u->src[k]->dtype, s->dtype))
                FAIL(VECTOR_LANES, "source %u is %s; all must be the scalar %s", k,
                     rdx_dtype_str(u->src[k]->dtype, d0, sizeof d0),
                     rdx_dtype_str(s->dtype, d1, sizeof d1));
            if (!shape_eq(u->src[k], s))
                FAIL(SHAPE_MISMATCH, "source %u has a different shape", k);
        }
        if (u->nsrc > 65535)
            FAIL(VECTOR_LANES, "too many lanes");
        u->dtype = rdx_dtype_vec(s->dtype, u->nsrc);
        u->ndim = s->ndim, u->shape = s->shape;
        range_copy(u, s);
        for (uint32_t k = 1; k < u->nsrc; k++) {
            const rdx_uop *x = u->src[k];
            u->vmin = x->vmin < u->vmin ? x->vmin : u->vmin;
            u->vmax = x->vmax > u->vmax ? x->vmax : u->vmax;
            u->fmin = fmin(x->fmin, u->fmin), u->fmax = fmax(x->fmax, u->fmax);
        }
        TRY(devices_agree(u));
        return RDX_OK;
    case RDX_OP_GEP:
        if (!u->arg.nints || u->arg.nints > 65535)
            FAIL(VECTOR_LANES, "GEP needs 1..65535 lanes");
        for (uint32_t k = 0; k < u->arg.nints; k++)
            if (u->arg.ints[k] < 0 || u->arg.ints[k] >= s->dtype.count)
                FAIL(VECTOR_LANES, "lane %" PRId64 " out of range for %s", u->arg.ints[k],
                     rdx_dtype_str(s->dtype, d0, sizeof d0));
        u->dtype = rdx_dtype_vec(rdx_dtype_scalar(s->dtype), u->arg.nints);
        u->ndim = s->ndim, u->shape = s->shape;
        u->device = s->device;
        range_copy(u, s);
        return RDX_OK;
    case RDX_OP_CAT: {
        unsigned total = 0;
        for (uint32_t k = 0; k < u->nsrc; k++) {
            if (u->src[k]->dtype.scalar != s->dtype.scalar || u->src[k]->dtype.ptr != s->dtype.ptr)
                FAIL(DTYPE_MISMATCH, "source %u is %s, source 0 %s", k,
                     rdx_dtype_str(u->src[k]->dtype, d0, sizeof d0),
                     rdx_dtype_str(s->dtype, d1, sizeof d1));
            total += u->src[k]->dtype.count;
        }
        if (total > 65535)
            FAIL(VECTOR_LANES, "too many lanes");
        u->dtype = rdx_dtype_vec(s->dtype, total);
        u->ndim = s->ndim, u->shape = s->shape;
        TRY(devices_agree(u));
        range_of_dtype(u);
        return RDX_OK;
    }
    case RDX_OP_UNROLL:
    case RDX_OP_CONTRACT: {
        if (u->arg.nints % 2)
            FAIL(ARG, "%s takes (axis, size) pairs", rdx_op_name((rdx_op)u->op));
        int64_t prod = 1;
        for (uint32_t k = 1; k < u->arg.nints; k += 2) {
            if (u->arg.ints[k] < 1 || u->arg.ints[k] > 65535)
                FAIL(ARG, "size %" PRId64 " out of range", u->arg.ints[k]);
            prod *= u->arg.ints[k];
            if (prod > 65535)
                FAIL(VECTOR_LANES, "too many lanes");
        }
        if (u->op == RDX_OP_UNROLL) {
            if (s->dtype.count % prod)
                FAIL(VECTOR_LANES, "%u lanes do not split into %" PRId64, s->dtype.count, prod);
            u->dtype = rdx_dtype_vec(s->dtype, (unsigned)(s->dtype.count / prod));
        } else {
            if (s->dtype.count * prod > 65535)
                FAIL(VECTOR_LANES, "too many lanes");
            u->dtype = rdx_dtype_vec(s->dtype, (unsigned)(s->dtype.count * prod));
        }
        u->ndim = s->ndim, u->shape = s->shape;
        u->device = s->device;
        range_copy(u, s);
        return RDX_OK;
    }
    default:
        return RDX_OK;
    }
}

static rdx_status derive_other(rdx_ir_ctx *ctx, rdx_uop *u, const rdx_uop **dims)
{
    const rdx_uop *s = u->nsrc ? u->src[0] : NULL;
    char d0[48], d1[48];
    int flags = rdx_op_info((rdx_op)u->op)->flags;
    if (flags & RDX_OPF_VOID)
        u->dtype = rdx_dtype_of(RDX_VOID);
    switch ((rdx_op)u->op) {
    case RDX_OP_REDUCE: {
        if (u->arg.sub >= RDX_RED_COUNT)
            FAIL(ARG, "reduce op %u unknown", u->arg.sub);
        TRY(need_void_free(u));
        TRY(need_range(u, 1));
        u->dtype = s->dtype;
        u->device = s->device;
        u->axis = s->axis;
        range_of_dtype(u);
        char seen[RDX_IR_MAX_DIMS] = { 0 };
        for (uint32_t k = 0; k < s->ndim; k++)
            dims[k] = s->shape[k];
        for (uint32_t k = 0; k < u->arg.nints; k++) {
            int64_t ax = u->arg.ints[k];
            if (ax < 0 || ax >= s->ndim || seen[ax])
                FAIL(REDUCE_AXES, "axis %" PRId64 " out of range or repeated for rank %u", ax,
                     s->ndim);
            seen[ax] = 1;
            TRY(cint(ctx, 1, &dims[ax]));
            if (ax == s->axis)
                u->axis = -1;
        }
        u->ndim = s->ndim;
        if (!u->arg.nints)
            u->shape = s->shape;
        return RDX_OK;
    }
    case RDX_OP_LOAD: /* from storage or, as the spec's CONTIGUOUS/COPY, from a computed value */
        if (s->dtype.scalar == RDX_VOID)
            FAIL(VOID_OPERAND, "loaded source has no value");
        if (u->nsrc == 2)
            TRY(need_bool(u, 1));
        if (u->nsrc == 3) {
            TRY(need_bool(u, 2));
            if (!dt_same(u->src[1]->dtype, s->dtype))
                FAIL(DTYPE_MISMATCH, "alt value is %s, buffer %s",
                     rdx_dtype_str(u->src[1]->dtype, d0, sizeof d0),
                     rdx_dtype_str(s->dtype, d1, sizeof d1));
        }
        u->dtype = s->dtype;
        u->ndim = s->ndim, u->shape = s->shape;
        u->device = u->arg.device ? u->arg.device : s->device;
        u->addrspace = u->arg.addrspace;
        u->axis = u->arg.device ? (u->arg.device->n > 1 ? 0 : -1) : s->axis;
        range_copy(u, s);
        return RDX_OK;
    case RDX_OP_STORE:
        TRY(need_storage(u, 0));
        if (u->src[1]->dtype.scalar == RDX_VOID)
            FAIL(VOID_OPERAND, "stored value has no value");
        if (!shape_eq(s, u->src[1])) {
            char a[128], b[128];
            rdx_ir_shape_str(s, a, sizeof a);
            rdx_ir_shape_str(u->src[1], b, sizeof b);
            FAIL(STORE_SHAPE, "buffer shape %s differs from value shape %s", a, b);
        }
        if (!dt_same(u->src[1]->dtype, s->dtype))
            FAIL(DTYPE_MISMATCH, "value is %s, buffer %s",
                 rdx_dtype_str(u->src[1]->dtype, d0, sizeof d0),
                 rdx_dtype_str(s->dtype, d1, sizeof d1));
        if (u->nsrc == 3)
            TRY(need_bool(u, 2));
        u->device = s->device;
        return RDX_OK;
    case RDX_OP_BUFFERIZE:
        TRY(need_range(u, 1));
        if (s->dtype.scalar == RDX_VOID)
            FAIL(VOID_OPERAND, "computation has no value");
        u->dtype = s->dtype;
        if (u->nsrc - 1 > RDX_IR_MAX_DIMS)
            FAIL(SHAPE_OPERAND, "too many ranges");
        for (uint32_t k = 1; k < u->nsrc; k++)
            dims[k - 1] = u->src[k]->src[0];
        TRY(set_dims(ctx, u, dims, dims, u->nsrc - 1));
        u->device = u->arg.device ? u->arg.device : s->device;
        u->addrspace = u->arg.addrspace ? u->arg.addrspace : RDX_ADDR_GLOBAL;
        range_copy(u, s);
        return RDX_OK;
    case RDX_OP_RANGE:
    case RDX_OP_SPECIAL:
        TRY(need_scalar_int(u, 0));
        u->dtype = s->dtype;
        u->vmin = 0;
        u->vmax = s->vmax > 0 ? s->vmax - 1 : 0;
        if (u->op == RDX_OP_RANGE && u->arg.sub >= RDX_AXIS_COUNT)
            FAIL(ARG, "axis type %u unknown", u->arg.sub);
        return RDX_OK;
    case RDX_OP_END:
        TRY(need_range(u, 1));
        u->device = s->device;
        return RDX_OK;
    case RDX_OP_AFTER:
        u->dtype = s->dtype;
        u->ndim = s->ndim, u->shape = s->shape;
        u->device = s->device, u->addrspace = s->addrspace, u->axis = s->axis;
        range_copy(u, s);
        return RDX_OK;
    case RDX_OP_CONTIGUOUS:
    case RDX_OP_CONTIGUOUSBACKWARD:
    case RDX_OP_DETACH:
        u->dtype = s->dtype;
        u->ndim = s->ndim, u->shape = s->shape;
        u->device = s->device, u->addrspace = s->addrspace, u->axis = s->axis;
        range_copy(u, s);
        return RDX_OK;
    case RDX_OP_IF:
        TRY(need_bool(u, 0));
        return RDX_OK;
    case RDX_OP_ENDIF:
        if (s->op != RDX_OP_IF)
            FAIL(ARG, "ENDIF source must be an IF, got %s", rdx_op_name((rdx_op)s->op));
        return RDX_OK;
    case RDX_OP_INS: {
        char m[160];
        if (ir_ins_problem(&u->arg, m, sizeof m))
            FAIL(ARG, "%s", m);
        return RDX_OK;
    }
    case RDX_OP_CUSTOM:
    case RDX_OP_WMMA:
        u->dtype = u->arg.dtype;
        u->device = first_device(u);
        range_of_dtype(u);
        return RDX_OK;
    case RDX_OP_ATOMICADD:
        TRY(need_storage(u, 0));
        if (!dt_same(u->src[1]->dtype, s->dtype))
            FAIL(DTYPE_MISMATCH, "value is %s, buffer %s",
                 rdx_dtype_str(u->src[1]->dtype, d0, sizeof d0),
                 rdx_dtype_str(s->dtype, d1, sizeof d1));
        u->device = s->device;
        return RDX_OK;
    default: /* GROUP, SINK, LINEAR, BARRIER, CUSTOMFUNCTION, PROGRAM, SOURCE */
        u->device = first_device(u);
        return RDX_OK;
    }
}

rdx_status rdx_ir_derive(rdx_ir_ctx *ctx, rdx_uop *u, const rdx_uop **dims)
{
    const rdx_opinfo *info = rdx_op_info((rdx_op)u->op);
    if ((int)u->nsrc < info->min_src || (info->max_src >= 0 && (int)u->nsrc > info->max_src)) {
        if (info->max_src < 0)
            FAIL(ARITY, "%u sources, needs at least %d", u->nsrc, info->min_src);
        if (info->min_src == info->max_src)
            FAIL(ARITY, "%u sources, needs %d", u->nsrc, info->min_src);
        FAIL(ARITY, "%u sources, needs %d..%d", u->nsrc, info->min_src, info->max_src);
    }
    u->dtype = rdx_dtype_of(RDX_VOID);
    u->shape = NULL;
    rdx_status st;
    switch (info->cat) {
    case RDX_CAT_SOURCE:
        st = derive_source(ctx, u, dims);
        break;
    case RDX_CAT_MOVEMENT:
        if (u->op != RDX_OP_STACK && (st = need_void_free(u)))
            return st;
        st = derive_movement(ctx, u, dims);
        break;
    case RDX_CAT_UNARY:
    case RDX_CAT_BINARY:
    case RDX_CAT_TERNARY:
        st = derive_alu(ctx, u, dims);
        break;
    case RDX_CAT_CALL:
        st = derive_call(ctx, u, dims);
        break;
    case RDX_CAT_VECTOR:
        st = derive_vector(ctx, u, dims);
        break;
    default:
        st = derive_other(ctx, u, dims);
        break;
    }
    if (st)
        return st;
    if (u->ndim == 0)
        u->shape = NULL;
    else
        TRY(dims_fit(u, "shape", u->shape ? u->shape : dims, u->ndim));
    return RDX_OK;
}
