/*
 * ir/interp/reduce.c — REDUCE (ADD, MUL, MAX, MIN) accumulating in the
 * node's own dtype, sequentially in increasing index order of the reduced
 * axes, and the fused REDUCE(ADD, MUL(a, b)) (dot products / matmul without
 * materialising the product).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ir/interp/interp_internal.h"

/* GCC's -O2 vectoriser ("very cheap" model) skips loops whose trip count is not a known
 * multiple of the vector width; the kernels here all have run-time lengths. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif

#define RED_FN(NAME, T, INIT_UNUSED, STEP)                                   \
    static void NAME(int64_t n, char *const *p, const int64_t *s, void *aux) \
    {                                                                        \
        (void)aux;                                                           \
        if (s[0] == 0) {                                                     \
            T acc = *(T *)p[0];                                              \
            if (s[1] == (int64_t)sizeof(T)) {                                \
                const T *restrict A = (const T *)p[1];                       \
                for (int64_t i = 0; i < n; i++) {                            \
                    T x = A[i];                                              \
                    acc = STEP(acc, x);                                      \
                }                                                            \
            } else {                                                         \
                for (int64_t i = 0; i < n; i++) {                            \
                    T x = *(const T *)(p[1] + i * s[1]);                     \
                    acc = STEP(acc, x);                                      \
                }                                                            \
            }                                                                \
            *(T *)p[0] = acc;                                                \
            return;                                                          \
        }                                                                    \
        if (s[0] == (int64_t)sizeof(T) && s[1] == (int64_t)sizeof(T)) {      \
            T *restrict O = (T *)p[0];                                       \
            const T *restrict A = (const T *)p[1];                           \
            for (int64_t i = 0; i < n; i++) {                                \
                T x = A[i];                                                  \
                O[i] = STEP(O[i], x);                                        \
            }                                                                \
            return;                                                          \
        }                                                                    \
        for (int64_t i = 0; i < n; i++) {                                    \
            T *o = (T *)(p[0] + i * s[0]);                                   \
            T x = *(const T *)(p[1] + i * s[1]);                             \
            *o = STEP(*o, x);                                                \
        }                                                                    \
    }

#define S_ADDU(a, b)  (a + b)
#define S_MUL(a, b)   (a * b)
#define S_MAX(a, b)   (a > b ? a : b)
#define S_MIN(a, b)   (a < b ? a : b)
#define S_FMAX(a, b)  fmax(a, b)
#define S_FMIN(a, b)  fmin(a, b)
#define S_FMAXF(a, b) fmaxf(a, b)
#define S_FMINF(a, b) fminf(a, b)
#define S_OR(a, b)    (uint8_t)(a | b)
#define S_AND(a, b)   (uint8_t)(a & b)

#define INT_RED(S, T)                          \
    static T S##_wadd(T a, T b)                \
    {                                          \
        return (T)((uint64_t)a + (uint64_t)b); \
    }                                          \
    static T S##_wmul(T a, T b)                \
    {                                          \
        return (T)((uint64_t)a * (uint64_t)b); \
    }                                          \
    RED_FN(radd_##S, T, 0, S##_wadd)           \
    RED_FN(rmul_##S, T, 1, S##_wmul)           \
    RED_FN(rmax_##S, T, 0, S_MAX)              \
    RED_FN(rmin_##S, T, 0, S_MIN)

INT_RED(i8, int8_t)
INT_RED(u8, uint8_t)
INT_RED(i16, int16_t)
INT_RED(u16, uint16_t)
INT_RED(i32, int32_t)
INT_RED(u32, uint32_t)
INT_RED(i64, int64_t)
INT_RED(u64, uint64_t)

RED_FN(radd_f32, float, 0, S_ADDU)
RED_FN(rmul_f32, float, 1, S_MUL)
RED_FN(rmax_f32, float, 0, S_FMAXF)
RED_FN(rmin_f32, float, 0, S_FMINF)
RED_FN(radd_f64, double, 0, S_ADDU)
RED_FN(rmul_f64, double, 1, S_MUL)
RED_FN(rmax_f64, double, 0, S_FMAX)
RED_FN(rmin_f64, double, 0, S_FMIN)
RED_FN(ror_b, uint8_t, 0, S_OR)
RED_FN(rand_b, uint8_t, 0, S_AND)

/* float16/bfloat16: each step is exact in double and rounded once to the dtype. */
typedef struct half_aux {
    rdx_redop op;
    rdx_dtype dt;
} half_aux;

static void red_half(int64_t n, char *const *p, const int64_t *s, void *aux)
{
    const half_aux *h = aux;
    for (int64_t i = 0; i < n; i++) {
        char *o = p[0] + i * s[0];
        ielem a = el_load(h->dt, o), x = el_load(h->dt, p[1] + i * s[1]);
        switch (h->op) {
        case RDX_RED_ADD:
            a.f = a.f + x.f;
            break;
        case RDX_RED_MUL:
            a.f = a.f * x.f;
            break;
        case RDX_RED_MAX:
            a.f = fmax(a.f, x.f);
            break;
        default:
            a.f = fmin(a.f, x.f);
            break;
        }
        el_store(h->dt, o, a);
    }
}

#define RED_CASES(OP)    \
    case RDX_INT8:       \
        return OP##_i8;  \
    case RDX_UINT8:      \
        return OP##_u8;  \
    case RDX_INT16:      \
        return OP##_i16; \
    case RDX_UINT16:     \
        return OP##_u16; \
    case RDX_INT32:      \
        return OP##_i32; \
    case RDX_UINT32:     \
        return OP##_u32; \
    case RDX_INT64:      \
    case RDX_INDEX:      \
        return OP##_i64; \
    case RDX_UINT64:     \
        return OP##_u64; \
    case RDX_FLOAT32:    \
        return OP##_f32; \
    case RDX_FLOAT64:    \
        return OP##_f64;

static inner_fn red_kernel(rdx_redop op, rdx_scalar s)
{
    switch (op) {
    case RDX_RED_ADD:
        switch (s) {
            RED_CASES(radd)
        case RDX_BOOL:
            return ror_b;
        default:
            return NULL;
        }
    case RDX_RED_MUL:
        switch (s) {
            RED_CASES(rmul)
        case RDX_BOOL:
            return rand_b;
        default:
            return NULL;
        }
    case RDX_RED_MAX:
        switch (s) {
            RED_CASES(rmax)
        case RDX_BOOL:
            return ror_b;
        default:
            return NULL;
        }
    case RDX_RED_MIN:
        switch (s) {
            RED_CASES(rmin)
        case RDX_BOOL:
            return rand_b;
        default:
            return NULL;
        }
    default:
        return NULL;
    }
}

/* Fill the dense out with the identity of op. */
static void fill_identity(rdx_redop op, ival *out)
{
    ielem e = { 0, 0 };
    rdx_dtype d = out->dt;
    if (op == RDX_RED_MUL) {
        e.i = 1, e.f = 1;
    } else if (op == RDX_RED_MAX || op == RDX_RED_MIN) {
        int mx = op == RDX_RED_MAX;
        if (dt_isfloat(d)) {
            e.f = mx ? -INFINITY : INFINITY;
        } else if (d.scalar == RDX_BOOL) {
            e.i = mx ? 0 : 1;
        } else if (d.scalar == RDX_UINT64) {
            e.i = mx ? 0 : -1;
        } else {
            int64_t lo, hi;
            rdx_dtype_range(d, &lo, &hi, NULL, NULL);
            e.i = mx ? lo : hi;
        }
    }
    int64_t n = iv_numel(out);
    if (n <= 0) /* an empty result (a zero-size tensor): nothing to fill */
        return;
    unsigned es = dt_size(d);
    char *p = iv_ptr(out, 0);
    el_store(d, p, e);
    for (int64_t k = 1; k < n; k++)
        memcpy(p + k * es, p, es);
}

/* out viewed over src's shape: stride 0 on the reduced axes. */
static void out_view(const ival *src, const ival *out, ival *ov)
{
    *ov = *out;
    ov->nd = src->nd;
    for (uint32_t k = 0; k < src->nd; k++) {
        ov->dims[k] = src->dims[k];
        if (out->dims[k] != src->dims[k])
            ov->str[k] = 0;
    }
}

rdx_status k_reduce(rdx_redop op, const ival *src, ival *out)
{
    fill_identity(op, out);
    ival ov;
    out_view(src, out, &ov);
    nditer it;
    const ival *ops[2] = { &ov, src };
    nd_init(&it, src->nd, src->dims, 2, ops);
    if (dt_ishalf(src->dt)) {
        half_aux h = { op, src->dt };
        nd_run(&it, red_half, &h);
        return RDX_OK;
    }
    inner_fn fn = red_kernel(op, (rdx_scalar)src->dt.scalar);
    if (!fn) {
        char d[32];
        return rdx_fail(RDX_ERR_UNSUPPORTED, "REDUCE %s is not defined on %s", rdx_redop_name(op),
                        rdx_dtype_str(src->dt, d, sizeof d));
    }
    nd_run(&it, fn, NULL);
    return RDX_OK;
}

/* ------------------------------------------------------------ fused multiply-reduce */

#define MR_FN(NAME, T, MULX, ADDX)                                                      \
    static void NAME(int64_t n, char *const *p, const int64_t *s, void *aux)            \
    {                                                                                   \
        (void)aux;                                                                      \
        const int64_t es = (int64_t)sizeof(T);                                          \
        if (s[0] == 0) {                                                                \
            T acc = *(T *)p[0];                                                         \
            for (int64_t i = 0; i < n; i++) {                                           \
                T x = *(const T *)(p[1] + i * s[1]), y = *(const T *)(p[2] + i * s[2]); \
                T prod = MULX(x, y);                                                    \
                acc = ADDX(acc, prod);                                                  \
            }                                                                           \
            *(T *)p[0] = acc;                                                           \
        } else if (s[0] == es && s[1] == 0 && s[2] == es) {                             \
            T *restrict o = (T *)p[0];                                                  \
            const T x = *(const T *)p[1];                                               \
            const T *restrict B = (const T *)p[2];                                      \
            for (int64_t i = 0; i < n; i++) {                                           \
                T prod = MULX(x, B[i]);                                                 \
                o[i] = ADDX(o[i], prod);                                                \
            }                                                                           \
        } else if (s[0] == es && s[2] == 0 && s[1] == es) {                             \
            T *restrict o = (T *)p[0];                                                  \
            const T y = *(const T *)p[2];                                               \
            const T *restrict A = (const T *)p[1];                                      \
            for (int64_t i = 0; i < n; i++) {                                           \
                T prod = MULX(A[i], y);                                                 \
                o[i] = ADDX(o[i], prod);                                                \
            }                                                                           \
        } else {                                                                        \
            for (int64_t i = 0; i < n; i++) {                                           \
                T *o = (T *)(p[0] + i * s[0]);                                          \
                T x = *(const T *)(p[1] + i * s[1]), y = *(const T *)(p[2] + i * s[2]); \
                T prod = MULX(x, y);                                                    \
                *o = ADDX(*o, prod);                                                    \
            }                                                                           \
        }                                                                               \
    }

#define F_MUL(a, b) ((a) * (b))
#define F_ADD(a, b) ((a) + (b))
MR_FN(mr_f32, float, F_MUL, F_ADD)
MR_FN(mr_f64, double, F_MUL, F_ADD)
MR_FN(mr_i32, int32_t, i32_wmul, i32_wadd)
MR_FN(mr_u32, uint32_t, u32_wmul, u32_wadd)
MR_FN(mr_i64, int64_t, i64_wmul, i64_wadd)

rdx_status k_mulreduce(const ival *a, const ival *b, ival *out)
{
    inner_fn fn;
    switch (a->dt.scalar) {
    case RDX_FLOAT32:
        fn = mr_f32;
        break;
    case RDX_FLOAT64:
        fn = mr_f64;
        break;
    case RDX_INT32:
        fn = mr_i32;
        break;
    case RDX_UINT32:
        fn = mr_u32;
        break;
    case RDX_INT64:
    case RDX_INDEX:
        fn = mr_i64;
        break;
    default:
        return RDX_ERR_UNSUPPORTED; /* the caller falls back to MUL then REDUCE */
    }
    fill_identity(RDX_RED_ADD, out);
    ival ov;
    out_view(a, out, &ov);
    nditer it;
    const ival *ops[3] = { &ov, a, b };
    nd_init(&it, a->nd, a->dims, 3, ops);
    nd_run(&it, fn, NULL);
    return RDX_OK;
}
