/*
 * ir/decomp.c — builders for the spec's decomposed ops that are plain
 * compositions of primitives: NEG, SUB, DIV, CMPGT/GE/LE/EQ, NOT, MULACC and
 * the Threefry-2x32 PRNG.  (EXP2, LOG2, SIN, SQRT, POW: ir/transcendental.c.)
 */
#include "ir/ir_internal.h"

/* A constant with a's dtype (a VECTORIZE of it for vectors), broadcasting against a. */
const rdx_uop *rdx_ir_const_of(rdx_ir_ctx *ctx, const rdx_uop *a, double v)
{
    if (!a)
        return NULL;
    rdx_dtype d = rdx_dtype_scalar(a->dtype);
    const rdx_uop *c;
    if (rdx_dtype_is_float(d)) {
        c = rdx_ir_const_float(ctx, d, v);
    } else {
        int64_t lo, hi;
        rdx_dtype_range(d, &lo, &hi, NULL, NULL);
        int64_t iv = (int64_t)v;
        c = rdx_ir_const_int(ctx, d, iv < lo || iv > hi ? rdx_ir_wrap(d, iv) : iv);
    }
    if (!c || a->dtype.count == 1)
        return c;
    const rdx_uop *lanes[256];
    if (a->dtype.count > 256) {
        rdx_fail(RDX_ERR_INVALID, "constant for %u lanes (at most 256)", a->dtype.count);
        return NULL;
    }
    for (unsigned k = 0; k < a->dtype.count; k++)
        lanes[k] = c;
    return rdx_ir_node(ctx, RDX_OP_VECTORIZE, lanes, a->dtype.count, NULL);
}

const rdx_uop *rdx_ir_neg(rdx_ir_ctx *ctx, const rdx_uop *a)
{
    return rdx_ir_mul(ctx, a, rdx_ir_const_of(ctx, a, -1));
}

const rdx_uop *rdx_ir_sub(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b)
{
    return rdx_ir_add(ctx, a, rdx_ir_neg(ctx, b));
}

const rdx_uop *rdx_ir_div(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b)
{
    return rdx_ir_mul(ctx, a, rdx_ir_alu1(ctx, RDX_OP_RECIP, b));
}

const rdx_uop *rdx_ir_cmpgt(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b)
{
    return rdx_ir_cmplt(ctx, b, a);
}

static const rdx_uop *is_false(rdx_ir_ctx *ctx, const rdx_uop *p)
{
    return rdx_ir_cmpne(ctx, p, rdx_ir_const_of(ctx, p, 1));
}

const rdx_uop *rdx_ir_cmpge(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b)
{
    return is_false(ctx, rdx_ir_cmplt(ctx, a, b));
}

const rdx_uop *rdx_ir_cmple(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b)
{
    return is_false(ctx, rdx_ir_cmplt(ctx, b, a));
}

const rdx_uop *rdx_ir_cmpeq(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b)
{
    return is_false(ctx, rdx_ir_cmpne(ctx, a, b));
}

const rdx_uop *rdx_ir_not(rdx_ir_ctx *ctx, const rdx_uop *a)
{
    return is_false(ctx, a);
}

const rdx_uop *rdx_ir_mulacc(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b, const rdx_uop *c)
{
    return rdx_ir_add(ctx, rdx_ir_mul(ctx, a, b), c);
}

/* ---------------------------------------------------------------- threefry */

static const rdx_uop *u32c(rdx_ir_ctx *ctx, uint32_t v)
{
    return rdx_ir_const_int(ctx, rdx_dtype_of(RDX_UINT32), v);
}

static const rdx_uop *rotl32(rdx_ir_ctx *ctx, const rdx_uop *x, int r)
{
    return rdx_ir_alu2(ctx, RDX_OP_OR, rdx_ir_alu2(ctx, RDX_OP_SHL, x, u32c(ctx, (uint32_t)r)),
                       rdx_ir_alu2(ctx, RDX_OP_SHR, x, u32c(ctx, (uint32_t)(32 - r))));
}

const rdx_uop *rdx_ir_threefry(rdx_ir_ctx *ctx, const rdx_uop *x, const rdx_uop *key)
{
    if (!x || !key)
        return NULL;
    rdx_dtype u64 = rdx_dtype_of(RDX_UINT64), u32 = rdx_dtype_of(RDX_UINT32);
    if (!rdx_dtype_eq(x->dtype, u64) || !rdx_dtype_eq(key->dtype, u64)) {
        rdx_fail(RDX_ERR_INVALID, "THREEFRY needs uint64 counter and key");
        return NULL;
    }
    const rdx_uop *c32 = rdx_ir_const_int(ctx, u64, 32);
    const rdx_uop *mask = rdx_ir_const_int(ctx, u64, 0xffffffffll);
    const rdx_uop *x0 = rdx_ir_cast(ctx, rdx_ir_alu2(ctx, RDX_OP_AND, x, mask), u32);
    const rdx_uop *x1 = rdx_ir_cast(ctx, rdx_ir_alu2(ctx, RDX_OP_SHR, x, c32), u32);
    const rdx_uop *ks[3];
    ks[0] = rdx_ir_cast(ctx, rdx_ir_alu2(ctx, RDX_OP_AND, key, mask), u32);
    ks[1] = rdx_ir_cast(ctx, rdx_ir_alu2(ctx, RDX_OP_SHR, key, c32), u32);
    ks[2] = rdx_ir_alu2(ctx, RDX_OP_XOR, rdx_ir_alu2(ctx, RDX_OP_XOR, ks[0], ks[1]),
                        u32c(ctx, 0x1BD11BDA));
    static const int rot[2][4] = { { 13, 15, 26, 6 }, { 17, 29, 16, 24 } };
    x0 = rdx_ir_add(ctx, x0, ks[0]);
    x1 = rdx_ir_add(ctx, x1, ks[1]);
    for (int i = 0; i < 5; i++) {
        for (int j = 0; j < 4; j++) {
            x0 = rdx_ir_add(ctx, x0, x1);
            x1 = rdx_ir_alu2(ctx, RDX_OP_XOR, rotl32(ctx, x1, rot[i % 2][j]), x0);
        }
        x0 = rdx_ir_add(ctx, x0, ks[(i + 1) % 3]);
        x1 = rdx_ir_add(ctx, rdx_ir_add(ctx, x1, ks[(i + 2) % 3]), u32c(ctx, (uint32_t)(i + 1)));
    }
    return rdx_ir_alu2(ctx, RDX_OP_OR, rdx_ir_alu2(ctx, RDX_OP_SHL, rdx_ir_cast(ctx, x1, u64), c32),
                       rdx_ir_cast(ctx, x0, u64));
}
