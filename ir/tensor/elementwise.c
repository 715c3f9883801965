/*
 * ir/tensor/elementwise.c — elementwise ops: broadcasting, dtype promotion,
 * the primitives and the spec's decomposed ops, casts, WHERE, and the
 * activation functions composed from them.  Transcendentals are FUNCTIONs
 * over the IR's decompositions (see t_wrap_unary).
 */
#include <math.h>
#include <string.h>

#include "ir/tensor/tensor_internal.h"

/* ------------------------------------------------------------- broadcasting */

const rdx_tensor *t_broadcast_to(rdx_graph *g, const rdx_tensor *a, uint32_t n,
                                 const rdx_uop *const *dims)
{
    if (!a)
        return NULL;
    if (a->ndim > n) {
        char s[128];
        return t_fail(g, RDX_ERR_INVALID, "broadcast: shape %s has more axes than the target %u",
                      t_shape_str(a, s, sizeof s), n);
    }
    const rdx_uop *rs[TMAXD];
    const rdx_uop *one = rdx_ir_int(g->ir, 1);
    uint32_t sh = n - a->ndim;
    int same = a->ndim == n;
    for (uint32_t k = 0; k < n; k++) {
        rs[k] = k < sh ? one : a->shape[k - sh];
        if (rs[k] != dims[k])
            same = 0;
    }
    if (same)
        return a;
    if (sh)
        a = t_reshape_u(g, a, n, rs);
    return t_expand_u(g, a, n, dims);
}

/* Broadcast shape of a and b into dims; 0 with an error naming op and both shapes. */
static int bshape(rdx_graph *g, const char *op, const rdx_tensor *a, const rdx_tensor *b,
                  uint32_t *n, const rdx_uop **dims)
{
    uint32_t nd = a->ndim > b->ndim ? a->ndim : b->ndim;
    if (nd > TMAXD) {
        t_fail(g, RDX_ERR_INVALID, "%s: rank %u exceeds %d", op, nd, TMAXD);
        return 0;
    }
    const rdx_uop *one = rdx_ir_int(g->ir, 1);
    for (uint32_t k = 0; k < nd; k++) {
        const rdx_uop *da = k + a->ndim >= nd ? a->shape[k + a->ndim - nd] : one;
        const rdx_uop *db = k + b->ndim >= nd ? b->shape[k + b->ndim - nd] : one;
        if (da == db || db == one)
            dims[k] = da;
        else if (da == one)
            dims[k] = db;
        else {
            char sa[128], sb[128];
            t_fail(g, RDX_ERR_INVALID, "%s: shapes %s and %s do not broadcast (axis %u)", op,
                   t_shape_str(a, sa, sizeof sa), t_shape_str(b, sb, sizeof sb), k);
            return 0;
        }
    }
    *n = nd;
    return 1;
}

/* Shape-() CONSTs broadcast implicitly; everything else is expanded explicitly. */
static const rdx_tensor *bcast(rdx_graph *g, const rdx_tensor *a, uint32_t n,
                               const rdx_uop *const *dims)
{
    if (a->op == RDX_OP_CONST)
        return a;
    return t_broadcast_to(g, a, n, dims);
}

typedef enum { PROMOTE, TO_FLOAT, INT_ONLY } promo;

/* Promote and broadcast a, b for op; 0 on error. */
static int prepare(rdx_graph *g, const char *op, const rdx_tensor **a, const rdx_tensor **b,
                   promo p)
{
    if (!*a || !*b || g->err)
        return 0;
    rdx_dtype d = rdx_dtype_promote((*a)->dtype, (*b)->dtype);
    char da[32], db[32];
    if (d.scalar == RDX_VOID || (*a)->dtype.scalar == RDX_VOID || (*b)->dtype.scalar == RDX_VOID) {
        t_fail(g, RDX_ERR_INVALID, "%s: dtypes %s and %s do not promote", op,
               rdx_dtype_str((*a)->dtype, da, sizeof da),
               rdx_dtype_str((*b)->dtype, db, sizeof db));
        return 0;
    }
    if (p == TO_FLOAT && !rdx_dtype_is_float(d))
        d = t_f32();
    if (p == INT_ONLY && rdx_dtype_is_float(d)) {
        t_fail(g, RDX_ERR_INVALID, "%s: needs integer operands, got %s and %s", op,
               rdx_dtype_str((*a)->dtype, da, sizeof da),
               rdx_dtype_str((*b)->dtype, db, sizeof db));
        return 0;
    }
    if (!rdx_dtype_eq((*a)->dtype, d))
        *a = rdx_tensor_cast(g, *a, d);
    if (!rdx_dtype_eq((*b)->dtype, d))
        *b = rdx_tensor_cast(g, *b, d);
    uint32_t n;
    const rdx_uop *dims[TMAXD];
    if (!*a || !*b || !bshape(g, op, *a, *b, &n, dims))
        return 0;
    *a = bcast(g, *a, n, dims);
    *b = bcast(g, *b, n, dims);
    return *a && *b;
}

#define BINARY(NAME, P, BUILD)                                                                  \
    const rdx_tensor *rdx_tensor_##NAME(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b) \
    {                                                                                           \
        if (!prepare(g, #NAME, &a, &b, P))                                                      \
            return NULL;                                                                        \
        return t_chk(g, #NAME, BUILD);                                                          \
    }

BINARY(add, PROMOTE, rdx_ir_add(g->ir, a, b))
BINARY(sub, PROMOTE, rdx_ir_sub(g->ir, a, b))
BINARY(mul, PROMOTE, rdx_ir_mul(g->ir, a, b))
BINARY(div, TO_FLOAT, rdx_ir_div(g->ir, a, b))
BINARY(maximum, PROMOTE, rdx_ir_max(g->ir, a, b))
BINARY(minimum, PROMOTE, rdx_ir_where(g->ir, rdx_ir_cmplt(g->ir, a, b), a, b))
/* Floor division and modulo (tinygrad's Tensor // and %, the spec's floor(a/b)) from the IR's
   truncating IDIV/MOD: where the remainder is nonzero and its sign differs from the
   divisor's, the quotient is one less and the remainder gains the divisor.  A zero divisor
   keeps x // 0 = 0 and x % 0 = x (docs/tensor.md). */
static const rdx_uop *floor_divmod(rdx_ir_ctx *c, const rdx_uop *a, const rdx_uop *b, int mod)
{
    const rdx_uop *q = rdx_ir_idiv(c, a, b), *r = rdx_ir_mod(c, a, b);
    if (!q || !r || rdx_dtype_is_unsigned(a->dtype))
        return mod ? r : q;
    const rdx_uop *zero = rdx_ir_const_like(c, a->dtype, 0);
    const rdx_uop *fix = rdx_ir_alu2(
        c, RDX_OP_AND,
        rdx_ir_alu2(c, RDX_OP_AND, rdx_ir_cmpne(c, r, zero),
                    rdx_ir_cmpne(c, rdx_ir_cmplt(c, r, zero), rdx_ir_cmplt(c, b, zero))),
        rdx_ir_cmpne(c, b, zero));
    return mod ? rdx_ir_where(c, fix, rdx_ir_add(c, r, b), r)
               : rdx_ir_where(c, fix, rdx_ir_add(c, q, rdx_ir_const_like(c, a->dtype, -1)), q);
}

BINARY(idiv, INT_ONLY, floor_divmod(g->ir, a, b, 0))
BINARY(mod, INT_ONLY, floor_divmod(g->ir, a, b, 1))
BINARY(cmplt, PROMOTE, rdx_ir_cmplt(g->ir, a, b))
BINARY(cmpgt, PROMOTE, rdx_ir_cmpgt(g->ir, a, b))
BINARY(cmple, PROMOTE, rdx_ir_cmple(g->ir, a, b))
BINARY(cmpge, PROMOTE, rdx_ir_cmpge(g->ir, a, b))
BINARY(cmpeq, PROMOTE, rdx_ir_cmpeq(g->ir, a, b))
BINARY(cmpne, PROMOTE, rdx_ir_cmpne(g->ir, a, b))
BINARY(xor, INT_ONLY, rdx_ir_alu2(g->ir, RDX_OP_XOR, a, b))
BINARY(or, INT_ONLY, rdx_ir_alu2(g->ir, RDX_OP_OR, a, b))
BINARY(and, INT_ONLY, rdx_ir_alu2(g->ir, RDX_OP_AND, a, b))
BINARY(shl, INT_ONLY, rdx_ir_alu2(g->ir, RDX_OP_SHL, a, b))
BINARY(shr, INT_ONLY, rdx_ir_alu2(g->ir, RDX_OP_SHR, a, b))

/* Integer a^b, exact with wrap-around (tinygrad's repeated squaring of an integer base):
   the product over the exponent's bits k of WHERE(bit k, a^(2^k), 1); a negative exponent
   truncates 1 / a^|b|: 1 for a = 1, +-1 for a = -1, else 0. */
static const rdx_tensor *int_pow(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b)
{
    rdx_dtype dt = a->dtype;
    const rdx_tensor *one = rdx_tensor_const(g, dt, 1), *zero = rdx_tensor_const(g, dt, 0);
    const rdx_tensor *neg = rdx_dtype_is_unsigned(dt) ? NULL : rdx_tensor_cmplt(g, b, zero);
    const rdx_tensor *e = neg ? rdx_tensor_where(g, neg, rdx_tensor_neg(g, b), b) : b;
    const rdx_tensor *r = one, *sq = a;
    unsigned bits = 8 * rdx_dtype_itemsize(dt) - (neg ? 1 : 0);
    for (unsigned k = 0; k < bits && r; k++) {
        const rdx_tensor *bit = rdx_tensor_cmpne(
            g, rdx_tensor_and(g, rdx_tensor_shr(g, e, rdx_tensor_const(g, dt, k)), one), zero);
        r = rdx_tensor_mul(g, r, rdx_tensor_where(g, bit, sq, one));
        if (k + 1 < bits)
            sq = rdx_tensor_mul(g, sq, sq);
    }
    if (!neg)
        return r;
    /* a^-n: 1 for a = 1, (-1)^n for a = -1, 0 otherwise */
    const rdx_tensor *minus1 = rdx_tensor_const(g, dt, -1);
    const rdx_tensor *odd = rdx_tensor_cmpne(g, rdx_tensor_and(g, e, one), zero);
    const rdx_tensor *inv =
        rdx_tensor_where(g, rdx_tensor_cmpeq(g, a, one), one,
                         rdx_tensor_where(g, rdx_tensor_cmpeq(g, a, minus1),
                                          rdx_tensor_where(g, odd, minus1, one), zero));
    return rdx_tensor_where(g, neg, inv, r);
}

const rdx_tensor *rdx_tensor_pow(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b)
{
    rdx_dtype pd = a && b ? rdx_dtype_promote(a->dtype, b->dtype) : rdx_dtype_of(RDX_VOID);
    if (!g->err && rdx_dtype_is_int(pd) && pd.scalar != RDX_BOOL && pd.scalar != RDX_INDEX) {
        if (!prepare(g, "pow", &a, &b, PROMOTE))
            return NULL;
        return int_pow(g, a, b);
    }
    if (!prepare(g, "pow", &a, &b, TO_FLOAT))
        return NULL;
    /* EXP2(LOG2(|a|) * b), with EXP2/LOG2 as the wrapped decompositions; then, as tinygrad's
       xpow: a negative base gives NaN for a non-integer exponent (|a|^b for -inf), -|a|^b
       for an odd one, |a|^b for an even one; b = 0 gives 1 (0^0, inf^0, NaN^0 too) */
    rdx_dtype dt = a->dtype, i32 = rdx_dtype_of(RDX_INT32);
    const rdx_tensor *zero = rdx_tensor_const(g, dt, 0);
    const rdx_tensor *neg = rdx_tensor_cmplt(g, a, zero);
    const rdx_tensor *mag = rdx_tensor_where(g, neg, rdx_tensor_neg(g, a), a);
    const rdx_tensor *r = rdx_tensor_exp2(g, rdx_tensor_mul(g, rdx_tensor_log2(g, mag), b));
    const rdx_tensor *non_int =
        rdx_tensor_cmpne(g, b, rdx_tensor_cast(g, rdx_tensor_cast(g, b, i32), dt));
    const rdx_tensor *babs =
        rdx_tensor_where(g, rdx_tensor_cmplt(g, b, zero), rdx_tensor_neg(g, b), b);
    const rdx_tensor *odd = rdx_tensor_cmpne(
        g, rdx_tensor_mod(g, rdx_tensor_cast(g, babs, i32), rdx_tensor_const(g, i32, 2)),
        rdx_tensor_const(g, i32, 0));
    const rdx_tensor *neg_r = rdx_tensor_where(
        g, non_int,
        rdx_tensor_where(g, rdx_tensor_cmpne(g, a, rdx_tensor_const(g, dt, -INFINITY)),
                         rdx_tensor_const(g, dt, NAN), r),
        rdx_tensor_where(g, odd, rdx_tensor_neg(g, r), r));
    return rdx_tensor_where(g, rdx_tensor_cmpeq(g, b, zero), rdx_tensor_const(g, dt, 1),
                            rdx_tensor_where(g, neg, neg_r, r));
}

const rdx_tensor *rdx_tensor_mulacc(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b,
                                    const rdx_tensor *c)
{
    if (!prepare(g, "mulacc", &a, &b, PROMOTE))
        return NULL;
    const rdx_tensor *m = t_chk(g, "mulacc", rdx_ir_mul(g->ir, a, b));
    if (!prepare(g, "mulacc", &m, &c, PROMOTE))
        return NULL;
    return t_chk(g, "mulacc", rdx_ir_add(g->ir, m, c));
}

const rdx_tensor *rdx_tensor_threefry(rdx_graph *g, const rdx_tensor *x, const rdx_tensor *key)
{
    if (!x || !key || g->err)
        return NULL;
    rdx_dtype u64 = rdx_dtype_of(RDX_UINT64);
    if (!rdx_dtype_eq(x->dtype, u64) || !rdx_dtype_eq(key->dtype, u64))
        return t_fail(g, RDX_ERR_INVALID, "threefry: counters and key must be uint64");
    if (!prepare(g, "threefry", &x, &key, PROMOTE))
        return NULL;
    return t_chk(g, "threefry", rdx_ir_threefry(g->ir, x, key));
}

const rdx_tensor *rdx_tensor_where(rdx_graph *g, const rdx_tensor *c, const rdx_tensor *a,
                                   const rdx_tensor *b)
{
    if (!c || !prepare(g, "where", &a, &b, PROMOTE))
        return NULL;
    if (c->dtype.scalar != RDX_BOOL)
        c = rdx_tensor_cmpne(g, c, rdx_tensor_const(g, c->dtype, 0));
    /* after prepare, a and b share their broadcast shape unless one is a shape-() CONST:
       the other then carries it (both CONSTs: shape ()) */
    const rdx_tensor *ab = a->op == RDX_OP_CONST ? b : a;
    uint32_t n;
    const rdx_uop *dims[TMAXD];
    if (!c || !bshape(g, "where", c, ab, &n, dims))
        return NULL;
    c = bcast(g, c, n, dims);
    a = bcast(g, a, n, dims);
    b = bcast(g, b, n, dims);
    return t_chk(g, "where", rdx_ir_where(g->ir, c, a, b));
}

const rdx_tensor *rdx_tensor_adds(rdx_graph *g, const rdx_tensor *a, double v)
{
    if (!a)
        return NULL;
    return rdx_tensor_add(g, a, rdx_tensor_const(g, a->dtype, v));
}

const rdx_tensor *rdx_tensor_muls(rdx_graph *g, const rdx_tensor *a, double v)
{
    if (!a)
        return NULL;
    return rdx_tensor_mul(g, a, rdx_tensor_const(g, a->dtype, v));
}

/* ------------------------------------------------------------- unary */

static const rdx_tensor *to_float(rdx_graph *g, const rdx_tensor *a)
{
    if (!a)
        return NULL;
    return rdx_dtype_is_float(a->dtype) ? a : rdx_tensor_cast(g, a, t_f32());
}

const rdx_tensor *rdx_tensor_neg(rdx_graph *g, const rdx_tensor *a)
{
    if (!a || g->err)
        return NULL;
    if (a->dtype.scalar == RDX_BOOL)
        return t_fail(g, RDX_ERR_INVALID, "neg: bool tensor (use not)");
    return t_chk(g, "neg", rdx_ir_neg(g->ir, a));
}

const rdx_tensor *rdx_tensor_recip(rdx_graph *g, const rdx_tensor *a)
{
    a = to_float(g, a);
    return a ? t_chk(g, "recip", rdx_ir_alu1(g->ir, RDX_OP_RECIP, a)) : NULL;
}

const rdx_tensor *rdx_tensor_trunc(rdx_graph *g, const rdx_tensor *a)
{
    return a ? t_chk(g, "trunc", rdx_ir_alu1(g->ir, RDX_OP_TRUNC, a)) : NULL;
}

const rdx_tensor *rdx_tensor_not(rdx_graph *g, const rdx_tensor *a)
{
    if (!a)
        return NULL;
    if (a->dtype.scalar != RDX_BOOL)
        a = rdx_tensor_cmpne(g, a, rdx_tensor_const(g, a->dtype, 0));
    return a ? t_chk(g, "not", rdx_ir_not(g->ir, a)) : NULL;
}

const rdx_tensor *rdx_tensor_cast(rdx_graph *g, const rdx_tensor *a, rdx_dtype dt)
{
    if (!a || g->err)
        return NULL;
    if (dt.scalar == RDX_VOID || dt.count != 1 || dt.ptr)
        return t_fail(g, RDX_ERR_INVALID, "cast: target must be a scalar value dtype");
    if (rdx_dtype_eq(a->dtype, dt))
        return a;
    return t_chk(g, "cast", rdx_ir_cast(g->ir, a, dt));
}

const rdx_tensor *rdx_tensor_bitcast(rdx_graph *g, const rdx_tensor *a, rdx_dtype dt)
{
    if (!a || g->err)
        return NULL;
    if (dt.scalar == RDX_VOID || dt.count != 1 || dt.ptr)
        return t_fail(g, RDX_ERR_INVALID, "bitcast: target must be a scalar value dtype");
    return t_chk(g, "bitcast", rdx_ir_bitcast(g->ir, a, dt));
}

const rdx_uop *t_unary_param(rdx_graph *g, const rdx_tensor *a)
{
    rdx_uop_arg arg = rdx_uop_arg_none();
    arg.i = 0;
    arg.dtype = a->dtype;
    arg.device = a->device;
    const rdx_uop *shape = rdx_ir_shape_u(g->ir, a->shape, a->ndim);
    return shape ? rdx_ir_node(g->ir, RDX_OP_PARAM, &shape, 1, &arg) : NULL;
}

const rdx_tensor *t_wrap_unary(rdx_graph *g, const char *op, t_unary_decomp f, const rdx_tensor *a)
{
    a = to_float(g, a);
    if (!a || g->err)
        return NULL;
    const rdx_uop *p = t_unary_param(g, a);
    const rdx_uop *body = f(g->ir, p);
    if (!body)
        return t_irfail(g, op);
    const rdx_uop *tup = rdx_ir_node(g->ir, RDX_OP_TUPLE, &body, 1, NULL);
    const rdx_uop *fs[2] = { tup, a };
    const rdx_uop *fn = rdx_ir_node(g->ir, RDX_OP_FUNCTION, fs, 2, NULL);
    rdx_uop_arg gi = rdx_uop_arg_none();
    gi.i = 0;
    return t_chk(g, op, rdx_ir_node(g->ir, RDX_OP_GETTUPLE, &fn, 1, &gi));
}

const rdx_tensor *rdx_tensor_exp2(rdx_graph *g, const rdx_tensor *a)
{
    return t_wrap_unary(g, "exp2", rdx_ir_exp2, a);
}

const rdx_tensor *rdx_tensor_log2(rdx_graph *g, const rdx_tensor *a)
{
    return t_wrap_unary(g, "log2", rdx_ir_log2, a);
}

const rdx_tensor *rdx_tensor_sin(rdx_graph *g, const rdx_tensor *a)
{
    return t_wrap_unary(g, "sin", rdx_ir_sin, a);
}

const rdx_tensor *rdx_tensor_sqrt(rdx_graph *g, const rdx_tensor *a)
{
    return t_wrap_unary(g, "sqrt", rdx_ir_sqrt, a);
}

const rdx_tensor *rdx_tensor_exp(rdx_graph *g, const rdx_tensor *a)
{
    return rdx_tensor_exp2(g, rdx_tensor_muls(g, to_float(g, a), 1.0 / M_LN2));
}

const rdx_tensor *rdx_tensor_log(rdx_graph *g, const rdx_tensor *a)
{
    return rdx_tensor_muls(g, rdx_tensor_log2(g, a), M_LN2);
}

const rdx_tensor *rdx_tensor_cos(rdx_graph *g, const rdx_tensor *a)
{
    a = to_float(g, a);
    return rdx_tensor_sin(g, rdx_tensor_adds(g, rdx_tensor_neg(g, a), M_PI / 2));
}

const rdx_tensor *rdx_tensor_rsqrt(rdx_graph *g, const rdx_tensor *a)
{
    return rdx_tensor_recip(g, rdx_tensor_sqrt(g, a));
}

const rdx_tensor *rdx_tensor_abs(rdx_graph *g, const rdx_tensor *a)
{
    if (!a)
        return NULL;
    if (a->dtype.scalar == RDX_BOOL || rdx_dtype_is_unsigned(a->dtype))
        return a;
    return rdx_tensor_where(g, rdx_tensor_cmplt(g, a, rdx_tensor_const(g, a->dtype, 0)),
                            rdx_tensor_neg(g, a), a);
}

const rdx_tensor *rdx_tensor_relu(rdx_graph *g, const rdx_tensor *a)
{
    if (!a)
        return NULL;
    return rdx_tensor_maximum(g, a, rdx_tensor_const(g, a->dtype, 0));
}

const rdx_tensor *rdx_tensor_sigmoid(rdx_graph *g, const rdx_tensor *a)
{
    a = to_float(g, a);
    return rdx_tensor_recip(g, rdx_tensor_adds(g, rdx_tensor_exp(g, rdx_tensor_neg(g, a)), 1.0));
}

const rdx_tensor *rdx_tensor_tanh(rdx_graph *g, const rdx_tensor *a)
{
    a = to_float(g, a);
    return rdx_tensor_adds(
        g, rdx_tensor_muls(g, rdx_tensor_sigmoid(g, rdx_tensor_muls(g, a, 2)), 2), -1);
}

const rdx_tensor *rdx_tensor_gelu(rdx_graph *g, const rdx_tensor *a)
{
    a = to_float(g, a);
    const rdx_tensor *x3 = rdx_tensor_mul(g, rdx_tensor_mul(g, a, a), a);
    const rdx_tensor *in =
        rdx_tensor_muls(g, rdx_tensor_add(g, a, rdx_tensor_muls(g, x3, 0.044715)), sqrt(2 / M_PI));
    return rdx_tensor_mul(g, rdx_tensor_muls(g, a, 0.5),
                          rdx_tensor_adds(g, rdx_tensor_tanh(g, in), 1.0));
}

const rdx_tensor *rdx_tensor_clamp(rdx_graph *g, const rdx_tensor *a, double lo, double hi)
{
    if (!a || g->err)
        return NULL;
    if (lo > hi)
        return t_fail(g, RDX_ERR_INVALID, "clamp: lo %g > hi %g", lo, hi);
    return rdx_tensor_minimum(g, rdx_tensor_maximum(g, a, rdx_tensor_const(g, a->dtype, lo)),
                              rdx_tensor_const(g, a->dtype, hi));
}
