/* ir/build.c — convenience builders over rdx_ir_make (NULL on error, NULL-propagating). */
#include <math.h>
#include <string.h>

#include "ir/ir_internal.h"

const rdx_uop *rdx_ir_node(rdx_ir_ctx *ctx, rdx_op op, const rdx_uop *const *src, size_t nsrc,
                           const rdx_uop_arg *arg)
{
    for (size_t k = 0; k < nsrc; k++)
        if (!src[k])
            return NULL;
    const rdx_uop *out;
    if (rdx_ir_make(ctx, op, src, nsrc, arg, 0, &out))
        return NULL;
    return out;
}

const rdx_uop *rdx_ir_replace_src(rdx_ir_ctx *ctx, const rdx_uop *u, const rdx_uop *const *src,
                                  size_t nsrc)
{
    for (size_t k = 0; k < nsrc; k++)
        if (!src[k])
            return NULL;
    const rdx_uop *out;
    if (rdx_ir_make(ctx, (rdx_op)u->op, src, nsrc, &u->arg, u->tag, &out))
        return NULL;
    return out;
}

const rdx_uop *rdx_ir_with_tag(rdx_ir_ctx *ctx, const rdx_uop *u, int32_t tag)
{
    if (!u)
        return NULL;
    const rdx_uop *out;
    if (rdx_ir_make(ctx, (rdx_op)u->op, u->src, u->nsrc, &u->arg, tag, &out))
        return NULL;
    return out;
}

const rdx_uop *rdx_ir_const_int(rdx_ir_ctx *ctx, rdx_dtype d, int64_t v)
{
    if (rdx_dtype_is_float(d))
        return rdx_ir_const_float(ctx, d, (double)v);
    rdx_uop_arg a = rdx_uop_arg_none();
    a.dtype = d;
    a.i = d.scalar == RDX_BOOL ? v != 0 : v;
    return rdx_ir_node(ctx, RDX_OP_CONST, NULL, 0, &a);
}

const rdx_uop *rdx_ir_const_float(rdx_ir_ctx *ctx, rdx_dtype d, double v)
{
    if (!rdx_dtype_is_float(d))
        return rdx_ir_const_int(ctx, d, (int64_t)v);
    rdx_uop_arg a = rdx_uop_arg_none();
    a.dtype = d;
    a.f = rdx_ir_round_float(d, v);
    return rdx_ir_node(ctx, RDX_OP_CONST, NULL, 0, &a);
}

const rdx_uop *rdx_ir_const_like(rdx_ir_ctx *ctx, rdx_dtype d, double v)
{
    d = rdx_dtype_scalar(d);
    if (rdx_dtype_is_float(d))
        return rdx_ir_const_float(ctx, d, v);
    if (isnan(v))
        v = 0;
    int64_t lo, hi;
    rdx_dtype_range(d, &lo, &hi, NULL, NULL);
    int64_t i = v <= (double)lo ? lo : v >= (double)hi ? hi : (int64_t)v;
    return rdx_ir_const_int(ctx, d, i);
}

const rdx_uop *rdx_ir_int(rdx_ir_ctx *ctx, int64_t v)
{
    return rdx_ir_const_int(ctx, rdx_dtype_of(RDX_INDEX), v);
}

const rdx_uop *rdx_ir_var(rdx_ir_ctx *ctx, const char *name, int64_t lo, int64_t hi)
{
    rdx_uop_arg a = rdx_uop_arg_none();
    a.str = name;
    a.len = (uint32_t)strlen(name);
    a.i = lo, a.j = hi;
    return rdx_ir_node(ctx, RDX_OP_DEFINE_VAR, NULL, 0, &a);
}

const rdx_uop *rdx_ir_range(rdx_ir_ctx *ctx, const rdx_uop *bound, int64_t axis_id,
                            rdx_axistype type)
{
    rdx_uop_arg a = rdx_uop_arg_none();
    a.i = axis_id;
    a.sub = (uint8_t)type;
    return rdx_ir_node(ctx, RDX_OP_RANGE, &bound, 1, &a);
}

const rdx_uop *rdx_ir_shape(rdx_ir_ctx *ctx, const int64_t *dims, size_t n)
{
    const rdx_uop *d[RDX_IR_MAX_DIMS];
    if (n > RDX_IR_MAX_DIMS) {
        rdx_fail(RDX_ERR_INVALID, "shape: %zu dims (at most %d)", n, RDX_IR_MAX_DIMS);
        return NULL;
    }
    for (size_t k = 0; k < n; k++)
        if (!(d[k] = rdx_ir_int(ctx, dims[k])))
            return NULL;
    return rdx_ir_node(ctx, RDX_OP_STACK, d, n, NULL);
}

const rdx_uop *rdx_ir_shape_u(rdx_ir_ctx *ctx, const rdx_uop *const *dims, size_t n)
{
    return rdx_ir_node(ctx, RDX_OP_STACK, dims, n, NULL);
}

const rdx_uop *rdx_ir_buffer(rdx_ir_ctx *ctx, int64_t slot, rdx_dtype d, const char *device,
                             const int64_t *dims, size_t n)
{
    const rdx_uop *s = rdx_ir_shape(ctx, dims, n);
    if (!s)
        return NULL;
    rdx_uop_arg a = rdx_uop_arg_none();
    a.i = slot;
    a.dtype = d;
    a.device = rdx_ir_device(ctx, &device, 1);
    a.addrspace = RDX_ADDR_GLOBAL;
    if (!a.device)
        return NULL;
    return rdx_ir_node(ctx, RDX_OP_BUFFER, &s, 1, &a);
}

const rdx_uop *rdx_ir_alu1(rdx_ir_ctx *ctx, rdx_op op, const rdx_uop *a)
{
    return rdx_ir_node(ctx, op, &a, 1, NULL);
}

const rdx_uop *rdx_ir_alu2(rdx_ir_ctx *ctx, rdx_op op, const rdx_uop *a, const rdx_uop *b)
{
    const rdx_uop *s[2] = { a, b };
    return rdx_ir_node(ctx, op, s, 2, NULL);
}

const rdx_uop *rdx_ir_add(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b)
{
    return rdx_ir_alu2(ctx, RDX_OP_ADD, a, b);
}

const rdx_uop *rdx_ir_mul(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b)
{
    return rdx_ir_alu2(ctx, RDX_OP_MUL, a, b);
}

const rdx_uop *rdx_ir_idiv(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b)
{
    return rdx_ir_alu2(ctx, RDX_OP_IDIV, a, b);
}

const rdx_uop *rdx_ir_mod(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b)
{
    return rdx_ir_alu2(ctx, RDX_OP_MOD, a, b);
}

const rdx_uop *rdx_ir_max(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b)
{
    return rdx_ir_alu2(ctx, RDX_OP_MAX, a, b);
}

const rdx_uop *rdx_ir_cmplt(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b)
{
    return rdx_ir_alu2(ctx, RDX_OP_CMPLT, a, b);
}

const rdx_uop *rdx_ir_cmpne(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b)
{
    return rdx_ir_alu2(ctx, RDX_OP_CMPNE, a, b);
}

const rdx_uop *rdx_ir_where(rdx_ir_ctx *ctx, const rdx_uop *c, const rdx_uop *a, const rdx_uop *b)
{
    const rdx_uop *s[3] = { c, a, b };
    return rdx_ir_node(ctx, RDX_OP_WHERE, s, 3, NULL);
}

const rdx_uop *rdx_ir_cast(rdx_ir_ctx *ctx, const rdx_uop *a, rdx_dtype d)
{
    rdx_uop_arg arg = rdx_uop_arg_none();
    arg.dtype = d;
    return rdx_ir_node(ctx, RDX_OP_CAST, &a, 1, &arg);
}

const rdx_uop *rdx_ir_bitcast(rdx_ir_ctx *ctx, const rdx_uop *a, rdx_dtype d)
{
    rdx_uop_arg arg = rdx_uop_arg_none();
    arg.dtype = d;
    return rdx_ir_node(ctx, RDX_OP_BITCAST, &a, 1, &arg);
}

const rdx_uop *rdx_ir_alu2c(rdx_ir_ctx *ctx, rdx_op op, const rdx_uop *a, double v)
{
    if (!a)
        return NULL;
    const rdx_uop *c = rdx_ir_const_like(ctx, a->dtype, v);
    if (c && a->dtype.count > 1) {
        const rdx_uop *lanes[256];
        if (a->dtype.count > 256) {
            rdx_fail(RDX_ERR_INVALID, "alu2c: %u lanes", a->dtype.count);
            return NULL;
        }
        for (unsigned k = 0; k < a->dtype.count; k++)
            lanes[k] = c;
        c = rdx_ir_node(ctx, RDX_OP_VECTORIZE, lanes, a->dtype.count, NULL);
    }
    return rdx_ir_alu2(ctx, op, a, c);
}

static const rdx_uop *shaped(rdx_ir_ctx *ctx, rdx_op op, const rdx_uop *a, const int64_t *off,
                             const int64_t *dims, size_t n)
{
    const rdx_uop *s[3] = { a, NULL, NULL };
    size_t k = 1;
    if (off && !(s[k++] = rdx_ir_shape(ctx, off, n)))
        return NULL;
    if (!(s[k++] = rdx_ir_shape(ctx, dims, n)))
        return NULL;
    return rdx_ir_node(ctx, op, s, k, NULL);
}

const rdx_uop *rdx_ir_reshape(rdx_ir_ctx *ctx, const rdx_uop *a, const int64_t *dims, size_t n)
{
    return shaped(ctx, RDX_OP_RESHAPE, a, NULL, dims, n);
}

const rdx_uop *rdx_ir_expand(rdx_ir_ctx *ctx, const rdx_uop *a, const int64_t *dims, size_t n)
{
    return shaped(ctx, RDX_OP_EXPAND, a, NULL, dims, n);
}

const rdx_uop *rdx_ir_pad(rdx_ir_ctx *ctx, const rdx_uop *a, const int64_t *off,
                          const int64_t *dims, size_t n)
{
    return shaped(ctx, RDX_OP_PAD, a, off, dims, n);
}

const rdx_uop *rdx_ir_shrink(rdx_ir_ctx *ctx, const rdx_uop *a, const int64_t *off,
                             const int64_t *dims, size_t n)
{
    return shaped(ctx, RDX_OP_SHRINK, a, off, dims, n);
}

const rdx_uop *rdx_ir_permute(rdx_ir_ctx *ctx, const rdx_uop *a, const int64_t *order, size_t n)
{
    rdx_uop_arg arg = rdx_uop_arg_none();
    arg.ints = order, arg.nints = (uint32_t)n;
    return rdx_ir_node(ctx, RDX_OP_PERMUTE, &a, 1, &arg);
}

const rdx_uop *rdx_ir_reduce(rdx_ir_ctx *ctx, const rdx_uop *a, rdx_redop op, const int64_t *axes,
                             size_t n)
{
    rdx_uop_arg arg = rdx_uop_arg_none();
    arg.sub = (uint8_t)op, arg.ints = axes, arg.nints = (uint32_t)n;
    return rdx_ir_node(ctx, RDX_OP_REDUCE, &a, 1, &arg);
}

const rdx_uop *rdx_ir_index(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *const *idx, size_t n)
{
    const rdx_uop *s[RDX_IR_MAX_DIMS + 1];
    if (n > RDX_IR_MAX_DIMS) {
        rdx_fail(RDX_ERR_INVALID, "INDEX: %zu indices (at most %d)", n, RDX_IR_MAX_DIMS);
        return NULL;
    }
    s[0] = a;
    for (size_t k = 0; k < n; k++)
        s[k + 1] = idx[k];
    return rdx_ir_node(ctx, RDX_OP_INDEX, s, n + 1, NULL);
}

const rdx_uop *rdx_ir_store(rdx_ir_ctx *ctx, const rdx_uop *buf, const rdx_uop *val)
{
    return rdx_ir_alu2(ctx, RDX_OP_STORE, buf, val);
}

const rdx_uop *rdx_ir_sink(rdx_ir_ctx *ctx, const rdx_uop *const *src, size_t n)
{
    return rdx_ir_node(ctx, RDX_OP_SINK, src, n, NULL);
}

int rdx_uop_const_int(const rdx_uop *u, int64_t *v)
{
    if (!u || u->op != RDX_OP_CONST || rdx_dtype_is_float(u->dtype))
        return 0;
    *v = u->arg.i;
    return 1;
}

int rdx_uop_const_val(const rdx_uop *u, double *v)
{
    if (!u || u->op != RDX_OP_CONST)
        return 0;
    *v = rdx_dtype_is_float(u->dtype) ? u->arg.f : (double)u->arg.i;
    return 1;
}

int rdx_uop_dim(const rdx_uop *u, uint32_t k, int64_t *v)
{
    if (k >= u->ndim)
        return 0;
    return rdx_uop_const_int(u->shape[k], v);
}

int rdx_uop_numel(const rdx_uop *u, int64_t *v)
{
    int64_t p = 1, d;
    for (uint32_t k = 0; k < u->ndim; k++) {
        if (!rdx_uop_dim(u, k, &d) || __builtin_mul_overflow(p, d, &p))
            return 0;
    }
    *v = p;
    return 1;
}
