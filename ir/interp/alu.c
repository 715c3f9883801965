/*
 * ir/interp/alu.c — elementwise kernels: every primitive ALU op in every
 * dtype it is defined for, with the dtype's exact semantics (wrap-around
 * integers, truncating division, IEEE float32/float64; float16/bfloat16 are
 * computed in float32 and rounded once).  Inner loops are specialised for
 * contiguous and broadcast (stride 0) operands so the compiler vectorises them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/interp/interp_internal.h"

/* GCC's -O2 vectoriser ("very cheap" model) skips loops whose trip count is not a known
 * multiple of the vector width; the kernels here all have run-time lengths. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif

enum { E_SHIFT = 2 };

static inline int is_neg(int64_t v)
{
    return v < 0;
}

#define LD(T, P, I, S) (*(const T *)((P) + (I) * (S)))

#define BIN_FN(NAME, TI, TO, EXPR)                                                   \
    static void NAME(int64_t n, char *const *p, const int64_t *s, void *aux)         \
    {                                                                                \
        int *err = aux;                                                              \
        (void)err;                                                                   \
        TO *restrict o = (TO *)p[0];                                                 \
        if (s[1] == (int64_t)sizeof(TI) && s[2] == (int64_t)sizeof(TI)) {            \
            const TI *restrict A = (const TI *)p[1], *restrict B = (const TI *)p[2]; \
            for (int64_t i = 0; i < n; i++) {                                        \
                TI x = A[i], y = B[i];                                               \
                o[i] = (TO)(EXPR);                                                   \
            }                                                                        \
        } else if (s[1] == 0 && s[2] == (int64_t)sizeof(TI)) {                       \
            const TI x = *(const TI *)p[1];                                          \
            const TI *restrict B = (const TI *)p[2];                                 \
            for (int64_t i = 0; i < n; i++) {                                        \
                TI y = B[i];                                                         \
                o[i] = (TO)(EXPR);                                                   \
            }                                                                        \
        } else if (s[2] == 0 && s[1] == (int64_t)sizeof(TI)) {                       \
            const TI y = *(const TI *)p[2];                                          \
            const TI *restrict A = (const TI *)p[1];                                 \
            for (int64_t i = 0; i < n; i++) {                                        \
                TI x = A[i];                                                         \
                o[i] = (TO)(EXPR);                                                   \
            }                                                                        \
        } else {                                                                     \
            for (int64_t i = 0; i < n; i++) {                                        \
                TI x = LD(TI, p[1], i, s[1]), y = LD(TI, p[2], i, s[2]);             \
                o[i] = (TO)(EXPR);                                                   \
            }                                                                        \
        }                                                                            \
    }

#define UN_FN(NAME, T, EXPR)                                                 \
    static void NAME(int64_t n, char *const *p, const int64_t *s, void *aux) \
    {                                                                        \
        (void)aux;                                                           \
        T *restrict o = (T *)p[0];                                           \
        if (s[1] == (int64_t)sizeof(T)) {                                    \
            const T *restrict A = (const T *)p[1];                           \
            for (int64_t i = 0; i < n; i++) {                                \
                T x = A[i];                                                  \
                o[i] = (T)(EXPR);                                            \
            }                                                                \
        } else {                                                             \
            for (int64_t i = 0; i < n; i++) {                                \
                T x = LD(T, p[1], i, s[1]);                                  \
                o[i] = (T)(EXPR);                                            \
            }                                                                \
        }                                                                    \
    }

/* Integer kernels: arithmetic in uint64 (wrap-around), then truncated to T. */
#define INT_KERNELS(S, T, BITS, SIGNED)                                                      \
    BIN_FN(add_##S, T, T, (T)((uint64_t)x + (uint64_t)y))                                    \
    BIN_FN(mul_##S, T, T, (T)((uint64_t)x * (uint64_t)y))                                    \
    BIN_FN(max_##S, T, T, x > y ? x : y)                                                     \
    BIN_FN(cmplt_##S, T, uint8_t, x < y)                                                     \
    BIN_FN(cmpne_##S, T, uint8_t, x != y)                                                    \
    BIN_FN(xor_##S, T, T, x ^ y)                                                             \
    BIN_FN(or_##S, T, T, x | y)                                                              \
    BIN_FN(and_##S, T, T, x &y)                                                              \
    BIN_FN(idiv_##S, T, T,                                                                   \
           y == 0                     ? (T)0 /* tinygrad's cdiv: x // 0 = 0 */               \
           : (SIGNED && y == (T) - 1) ? (T)(0 - (uint64_t)x)                                 \
                                      : (T)(x / y))                                          \
    BIN_FN(mod_##S, T, T,                                                                    \
           y == 0                     ? x /* x - (x // 0) * 0 */                             \
           : (SIGNED && y == (T) - 1) ? (T)0                                                 \
                                      : (T)(x % y))                                          \
    BIN_FN(shl_##S, T, T,                                                                    \
           (SIGNED && is_neg((int64_t)y)) ? (*err |= E_SHIFT, (T)0)                          \
           : (uint64_t)y >= BITS          ? (T)0                                             \
                                          : (T)((uint64_t)x << (unsigned)y))                          \
    BIN_FN(shr_##S, T, T,                                                                    \
           (SIGNED && is_neg((int64_t)y)) ? (*err |= E_SHIFT, (T)0)                          \
           : SIGNED              ? (T)((int64_t)x >> ((uint64_t)y >= 63 ? 63 : (unsigned)y)) \
           : (uint64_t)y >= BITS ? (T)0                                                      \
                                 : (T)((uint64_t)x >> (unsigned)y))                          \
    UN_FN(trunc_##S, T, x)

INT_KERNELS(i8, int8_t, 8, 1)
INT_KERNELS(u8, uint8_t, 8, 0)
INT_KERNELS(i16, int16_t, 16, 1)
INT_KERNELS(u16, uint16_t, 16, 0)
INT_KERNELS(i32, int32_t, 32, 1)
INT_KERNELS(u32, uint32_t, 32, 0)
INT_KERNELS(i64, int64_t, 64, 1)
INT_KERNELS(u64, uint64_t, 64, 0)

/* bool: ADD is OR, MUL is AND, MAX is OR (values stay 0/1). */
BIN_FN(add_b, uint8_t, uint8_t, x | y)
BIN_FN(mul_b, uint8_t, uint8_t, x &y)
BIN_FN(cmplt_b, uint8_t, uint8_t, !x && y)
BIN_FN(cmpne_b, uint8_t, uint8_t, x != y)
BIN_FN(xor_b, uint8_t, uint8_t, x ^ y)

#define FLT_KERNELS(S, T, TRUNCF, FMAXF)  \
    BIN_FN(add_##S, T, T, x + y)          \
    BIN_FN(mul_##S, T, T, x *y)           \
    BIN_FN(max_##S, T, T, FMAXF(x, y))    \
    BIN_FN(cmplt_##S, T, uint8_t, x < y)  \
    BIN_FN(cmpne_##S, T, uint8_t, x != y) \
    UN_FN(recip_##S, T, (T)1 / x)         \
    UN_FN(trunc_##S, T, TRUNCF(x))

FLT_KERNELS(f32, float, truncf, fmaxf)
FLT_KERNELS(f64, double, trunc, fmax)

#define WH_FN(NAME, T)                                                                           \
    static void NAME(int64_t n, char *const *p, const int64_t *s, void *aux)                     \
    {                                                                                            \
        (void)aux;                                                                               \
        T *restrict o = (T *)p[0];                                                               \
        if (s[1] == 1 && s[2] == (int64_t)sizeof(T) && s[3] == (int64_t)sizeof(T)) {             \
            const uint8_t *restrict C = (const uint8_t *)p[1];                                   \
            const T *restrict A = (const T *)p[2], *restrict B = (const T *)p[3];                \
            for (int64_t i = 0; i < n; i++)                                                      \
                o[i] = C[i] ? A[i] : B[i];                                                       \
        } else {                                                                                 \
            for (int64_t i = 0; i < n; i++)                                                      \
                o[i] = LD(uint8_t, p[1], i, s[1]) ? LD(T, p[2], i, s[2]) : LD(T, p[3], i, s[3]); \
        }                                                                                        \
    }
WH_FN(where1, uint8_t)
WH_FN(where2, uint16_t)
WH_FN(where4, uint32_t)
WH_FN(where8, uint64_t)

#define INT_CASES(OPNAME)    \
    case RDX_INT8:           \
        return OPNAME##_i8;  \
    case RDX_UINT8:          \
        return OPNAME##_u8;  \
    case RDX_INT16:          \
        return OPNAME##_i16; \
    case RDX_UINT16:         \
        return OPNAME##_u16; \
    case RDX_INT32:          \
        return OPNAME##_i32; \
    case RDX_UINT32:         \
        return OPNAME##_u32; \
    case RDX_INT64:          \
    case RDX_INDEX:          \
        return OPNAME##_i64; \
    case RDX_UINT64:         \
        return OPNAME##_u64;

#define FLT_CASES(OPNAME)    \
    case RDX_FLOAT32:        \
        return OPNAME##_f32; \
    case RDX_FLOAT64:        \
        return OPNAME##_f64;

/* The kernel of op on scalar dtype s (float16/bfloat16 use float32's), or NULL. */
static inner_fn kernel(rdx_op op, rdx_scalar s)
{
    switch (op) {
    case RDX_OP_ADD:
        switch (s) {
            INT_CASES(add)
            FLT_CASES(add)
        case RDX_BOOL:
            return add_b;
        default:
            return NULL;
        }
    case RDX_OP_MUL:
        switch (s) {
            INT_CASES(mul)
            FLT_CASES(mul)
        case RDX_BOOL:
            return mul_b;
        default:
            return NULL;
        }
    case RDX_OP_MAX:
        switch (s) {
            INT_CASES(max)
            FLT_CASES(max)
        case RDX_BOOL:
            return add_b;
        default:
            return NULL;
        }
    case RDX_OP_CMPLT:
        switch (s) {
            INT_CASES(cmplt)
            FLT_CASES(cmplt)
        case RDX_BOOL:
            return cmplt_b;
        default:
            return NULL;
        }
    case RDX_OP_CMPNE:
        switch (s) {
            INT_CASES(cmpne)
            FLT_CASES(cmpne)
        case RDX_BOOL:
            return cmpne_b;
        default:
            return NULL;
        }
    case RDX_OP_XOR:
        switch (s) {
            INT_CASES(xor)
        case RDX_BOOL:
            return xor_b;
        default:
            return NULL;
        }
    case RDX_OP_OR:
        switch (s) {
            INT_CASES(or)
        case RDX_BOOL:
            return add_b;
        default:
            return NULL;
        }
    case RDX_OP_AND:
        switch (s) {
            INT_CASES(and)
        case RDX_BOOL:
            return mul_b;
        default:
            return NULL;
        }
    case RDX_OP_IDIV:
        switch (s) {
            INT_CASES(idiv)
        default:
            return NULL;
        }
    case RDX_OP_MOD:
        switch (s) {
            INT_CASES(mod)
        default:
            return NULL;
        }
    case RDX_OP_SHL:
        switch (s) {
            INT_CASES(shl)
        default:
            return NULL;
        }
    case RDX_OP_SHR:
        switch (s) {
            INT_CASES(shr)
        default:
            return NULL;
        }
    case RDX_OP_TRUNC:
        switch (s) {
            INT_CASES(trunc)
            FLT_CASES(trunc)
        case RDX_BOOL:
            return trunc_u8;
        default:
            return NULL;
        }
    case RDX_OP_RECIP:
        switch (s) {
            FLT_CASES(recip)
        default:
            return NULL;
        }
    default:
        return NULL;
    }
}

static rdx_status run_err(int err, rdx_op op)
{
    (void)op;
    if (err & E_SHIFT)
        return rdx_fail(RDX_ERR_INVALID, "negative shift amount");
    return RDX_OK;
}

rdx_status k_alu(rdx_op op, const ival *const *srcs, uint32_t nsrc, ival *out)
{
    nditer it;
    int err = 0;
    if (op == RDX_OP_WHERE) {
        const ival *ops[4] = { out, srcs[0], srcs[1], srcs[2] };
        nd_init(&it, out->nd, out->dims, 4, ops);
        unsigned es = dt_size(out->dt);
        nd_run(&it, es == 1 ? where1 : es == 2 ? where2 : es == 4 ? where4 : where8, NULL);
        return RDX_OK;
    }
    rdx_dtype in = srcs[0]->dt;
    if (dt_ishalf(in)) {
        /* compute in float32, round once */
        rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32);
        ival tmp[3], res;
        const ival *tp[3];
        uint32_t made = 0;
        rdx_status st = RDX_OK;
        for (; made < nsrc && !st; made++) {
            st = iv_cast(srcs[made], f32, &tmp[made]);
            tp[made] = &tmp[made];
        }
        int cmp = op == RDX_OP_CMPLT || op == RDX_OP_CMPNE;
        if (!st)
            st = iv_new(&res, cmp ? out->dt : f32, out->nd, out->dims);
        if (!st) {
            st = k_alu(op, tp, nsrc, &res);
            if (!st) {
                ival conv;
                st = cmp ? iv_dense(&res, &conv) : iv_cast(&res, out->dt, &conv);
                if (!st) {
                    memcpy(iv_ptr(out, 0), iv_ptr(&conv, 0),
                           (size_t)iv_numel(out) * dt_size(out->dt));
                    iv_release(&conv);
                }
            }
            iv_release(&res);
        }
        for (uint32_t k = 0; k < made; k++)
            iv_release(&tmp[k]);
        return st;
    }
    inner_fn fn = kernel(op, (rdx_scalar)in.scalar);
    if (!fn) {
        char d[32];
        return rdx_fail(RDX_ERR_UNSUPPORTED, "%s is not defined on %s", rdx_op_name(op),
                        rdx_dtype_str(in, d, sizeof d));
    }
    const ival *ops[3] = { out, srcs[0], nsrc > 1 ? srcs[1] : srcs[0] };
    nd_init(&it, out->nd, out->dims, nsrc + 1, ops);
    if (nsrc == 1) {
        it.nop = 3; /* unary kernels ignore p[2] */
        memcpy(it.str[2], it.str[1], sizeof it.str[1]);
        it.base[2] = it.base[1];
    }
    nd_run(&it, fn, &err);
    return run_err(err, op);
}
