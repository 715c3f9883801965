/*
 * tests/ir/eval_test.c — the scalar evaluator (the oracle of the symbolic
 * tests) against host C arithmetic on every integer width and float32.
 */
#include <math.h>
#include <string.h>

#include "tests/ir/ir_test.h"

static const rdx_uop *leaf(rdx_ir_ctx *c, rdx_scalar d, int slot)
{
    const rdx_uop *shape = IR_OK(rdx_ir_shape(c, NULL, 0));
    rdx_uop_arg a = rdx_uop_arg_none();
    a.i = slot, a.dtype = rdx_dtype_of(d);
    return IR_OK(rdx_ir_node(c, RDX_OP_PARAM, &shape, 1, &a));
}

static rdx_value run2(const rdx_uop *g, const rdx_uop *a, const rdx_uop *b, rdx_value va,
                      rdx_value vb)
{
    const rdx_uop *l[2] = { a, b };
    rdx_value v[2] = { va, vb }, r;
    ck_assert_msg(rdx_ir_eval(g, l, v, b ? 2 : 1, &r) == RDX_OK, "%s", rdx_error_message());
    return r;
}

/* Wrap to the width (independent of the library): sign- or zero-extend the low bits. */
static int64_t rdx_ir_wrap_test(rdx_scalar t, int64_t v)
{
    switch (t) {
    case RDX_INT8:
        return (int8_t)v;
    case RDX_UINT8:
        return (uint8_t)v;
    case RDX_INT16:
        return (int16_t)v;
    case RDX_UINT16:
        return (uint16_t)v;
    case RDX_INT32:
        return (int32_t)v;
    case RDX_UINT32:
        return (uint32_t)v;
    default:
        return v;
    }
}

static rdx_value I(int64_t i)
{
    rdx_value v = { i, 0 };
    return v;
}

/* host C semantics per width, as int64 results */
#define HOST_INT_OPS(T, x, y, out)                          \
    do {                                                    \
        T a_ = (T)(x), b_ = (T)(y);                         \
        out[0] = (int64_t)(T)((uint64_t)a_ + (uint64_t)b_); \
        out[1] = (int64_t)(T)((uint64_t)a_ * (uint64_t)b_); \
        out[2] = (int64_t)(a_ > b_ ? a_ : b_);              \
        out[3] = b_ ? (int64_t)(T)(a_ / b_) : 0;            \
        out[4] = b_ ? (int64_t)(T)(a_ % b_) : 0;            \
        out[5] = a_ < b_;                                   \
        out[6] = a_ != b_;                                  \
        out[7] = (int64_t)(T)(a_ ^ b_);                     \
        out[8] = (int64_t)(T)(a_ | b_);                     \
        out[9] = (int64_t)(T)(a_ & b_);                     \
    } while (0)

START_TEST(integer_ops_match_c)
{
    static const rdx_scalar types[] = { RDX_INT8,  RDX_UINT8,  RDX_INT16, RDX_UINT16,
                                        RDX_INT32, RDX_UINT32, RDX_INT64, RDX_UINT64 };
    static const rdx_op ops[] = { RDX_OP_ADD,   RDX_OP_MUL,   RDX_OP_MAX, RDX_OP_IDIV, RDX_OP_MOD,
                                  RDX_OP_CMPLT, RDX_OP_CMPNE, RDX_OP_XOR, RDX_OP_OR,   RDX_OP_AND };
    rdx_ir_ctx *c = ir_ctx();
    uint64_t st = 11;
    for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
        const rdx_uop *a = leaf(c, types[t], 0), *b = leaf(c, types[t], 1);
        rdx_evalplan *p[10];
        for (int k = 0; k < 10; k++) {
            const rdx_uop *g = IR_OK(rdx_ir_alu2(c, ops[k], a, b)), *l[2] = { a, b };
            ck_assert_int_eq(rdx_evalplan_create(g, l, 2, &p[k]), RDX_OK);
        }
        for (int i = 0; i < 3000; i++) {
            uint64_t x = ir_rand(&st), y = ir_rand(&st);
            if (i % 3 == 0)
                y = (uint64_t)ir_rand_range(&st, -3, 3);
            int64_t want[10];
            switch (types[t]) {
            case RDX_INT8:
                HOST_INT_OPS(int8_t, x, y, want);
                break;
            case RDX_UINT8:
                HOST_INT_OPS(uint8_t, x, y, want);
                break;
            case RDX_INT16:
                HOST_INT_OPS(int16_t, x, y, want);
                break;
            case RDX_UINT16:
                HOST_INT_OPS(uint16_t, x, y, want);
                break;
            case RDX_INT32:
                if ((int32_t)x == INT32_MIN && (int32_t)y == -1)
                    continue; /* UB in C */
                HOST_INT_OPS(int32_t, x, y, want);
                break;
            case RDX_UINT32:
                HOST_INT_OPS(uint32_t, x, y, want);
                break;
            case RDX_INT64:
                if ((int64_t)x == INT64_MIN && (int64_t)y == -1)
                    continue; /* UB in C */
                HOST_INT_OPS(int64_t, x, y, want);
                break;
            default:
                HOST_INT_OPS(uint64_t, x, y, want);
                break;
            }
            /* the evaluator holds values wrapped to the dtype */
            rdx_value v[2] = { I(rdx_ir_wrap_test(types[t], (int64_t)x)),
                               I(rdx_ir_wrap_test(types[t], (int64_t)y)) };
            for (int k = 0; k < 10; k++) {
                rdx_value r;
                rdx_status s = rdx_evalplan_run(p[k], v, &r);
                if ((ops[k] == RDX_OP_IDIV || ops[k] == RDX_OP_MOD) && v[1].i == 0) {
                    ck_assert_int_eq(s, RDX_ERR_INVALID);
                    continue;
                }
                ck_assert_int_eq(s, RDX_OK);
                ck_assert_msg(r.i == want[k], "%s %s(%lld, %lld) = %lld, C gives %lld",
                              rdx_scalar_name(types[t]), rdx_op_name(ops[k]), (long long)v[0].i,
                              (long long)v[1].i, (long long)r.i, (long long)want[k]);
            }
        }
        for (int k = 0; k < 10; k++)
            rdx_evalplan_free(p[k]);
    }
    rdx_ir_ctx_destroy(c);
}
END_TEST

START_TEST(shifts_casts_bitcasts_floats)
{
    rdx_ir_ctx *c = ir_ctx();
    rdx_dtype u32 = rdx_dtype_of(RDX_UINT32), i32 = rdx_dtype_of(RDX_INT32);
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32), f16 = rdx_dtype_of(RDX_FLOAT16);
    const rdx_uop *a = leaf(c, RDX_UINT32, 0), *s = leaf(c, RDX_UINT32, 1);
    const rdx_uop *shl = IR_OK(rdx_ir_alu2(c, RDX_OP_SHL, a, s));
    const rdx_uop *shr = IR_OK(rdx_ir_alu2(c, RDX_OP_SHR, a, s));
    const rdx_uop *ia = leaf(c, RDX_INT32, 2), *is = leaf(c, RDX_INT32, 3);
    const rdx_uop *sar = IR_OK(rdx_ir_alu2(c, RDX_OP_SHR, ia, is));
    uint64_t st = 5;
    for (int i = 0; i < 3000; i++) {
        uint32_t x = (uint32_t)ir_rand(&st), n = (uint32_t)ir_rand_range(&st, 0, 31);
        ck_assert_int_eq(run2(shl, a, s, I(x), I(n)).i, (uint32_t)(x << n));
        ck_assert_int_eq(run2(shr, a, s, I(x), I(n)).i, x >> n);
        ck_assert_int_eq(run2(sar, ia, is, I((int32_t)x), I(n)).i, (int32_t)x >> n);
    }
    (void)u32;
    /* float32 arithmetic rounds like the host's float */
    const rdx_uop *fa = leaf(c, RDX_FLOAT32, 4), *fb = leaf(c, RDX_FLOAT32, 5);
    const rdx_uop *fadd = IR_OK(rdx_ir_add(c, fa, fb)), *fmul = IR_OK(rdx_ir_mul(c, fa, fb));
    const rdx_uop *frc = IR_OK(rdx_ir_alu1(c, RDX_OP_RECIP, fa));
    for (int i = 0; i < 3000; i++) {
        uint32_t bx = (uint32_t)ir_rand(&st), by = (uint32_t)ir_rand(&st);
        float x, y;
        memcpy(&x, &bx, 4);
        memcpy(&y, &by, 4);
        rdx_value vx = { 0, x }, vy = { 0, y };
        double r1 = run2(fadd, fa, fb, vx, vy).f, r2 = run2(fmul, fa, fb, vx, vy).f;
        double r3 = run2(frc, fa, NULL, vx, vy).f;
        float w1 = x + y, w2 = x * y, w3 = 1.0f / x;
        ck_assert(r1 == w1 || (isnan(r1) && isnan(w1)));
        ck_assert(r2 == w2 || (isnan(r2) && isnan(w2)));
        ck_assert(r3 == w3 || (isnan(r3) && isnan(w3)));
    }
    /* casts: float -> int truncates and saturates, NaN -> 0; int -> float16 rounds */
    const rdx_uop *ci = IR_OK(rdx_ir_cast(c, fa, i32));
    static const double fin[] = { 2.7, -2.7, 3e9, -3e9, NAN, 0.5, -0.0 };
    static const int64_t fout[] = { 2, -2, INT32_MAX, INT32_MIN, 0, 0, 0 };
    for (int k = 0; k < 7; k++) {
        rdx_value v = { 0, fin[k] };
        ck_assert_int_eq(run2(ci, fa, NULL, v, v).i, fout[k]);
    }
    const rdx_uop *ch = IR_OK(rdx_ir_cast(c, ia, f16));
    for (int32_t k = -70000; k <= 70000; k += 7) {
        double got = run2(ch, ia, NULL, I(k), I(0)).f;
        double want = (double)(_Float16)(float)k; /* exact in float for |k| < 2^24 */
        ck_assert_msg(got == want, "cast %d -> float16: %a, want %a", k, got, want);
    }
    /* bitcast float32 <-> int32 matches memcpy */
    const rdx_uop *bc = IR_OK(rdx_ir_bitcast(c, fa, i32));
    for (int i = 0; i < 1000; i++) {
        uint32_t b = (uint32_t)ir_rand(&st);
        float f;
        memcpy(&f, &b, 4);
        if (isnan(f))
            continue;
        rdx_value v = { 0, f };
        ck_assert_int_eq(run2(bc, fa, NULL, v, v).i, (int32_t)b);
    }
    (void)f32;
    rdx_ir_ctx_destroy(c);
}
END_TEST

/* rdx_ir_fold_const: one op over CONSTs, against host C; not folded: other nodes, x / 0 */
START_TEST(fold_const_one_op)
{
    rdx_ir_ctx *c = ir_ctx();
    rdx_dtype i32 = rdx_dtype_of(RDX_INT32), u8 = rdx_dtype_of(RDX_UINT8);
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32);
    const rdx_uop *a = IR_OK(rdx_ir_const_int(c, i32, -7)), *b = IR_OK(rdx_ir_const_int(c, i32, 3));
    rdx_value v;
    ck_assert(rdx_ir_fold_const(IR_OK(rdx_ir_idiv(c, a, b)), &v));
    ck_assert_int_eq(v.i, -7 / 3);
    ck_assert(rdx_ir_fold_const(IR_OK(rdx_ir_mod(c, a, b)), &v));
    ck_assert_int_eq(v.i, -7 % 3);
    const rdx_uop *x = IR_OK(rdx_ir_const_int(c, u8, 200)),
                  *y = IR_OK(rdx_ir_const_int(c, u8, 100));
    ck_assert(rdx_ir_fold_const(IR_OK(rdx_ir_add(c, x, y)), &v));
    ck_assert_int_eq(v.i, (uint8_t)(200 + 100));
    const rdx_uop *lt = IR_OK(rdx_ir_cmplt(c, a, b));
    const rdx_uop *w = IR_OK(rdx_ir_where(c, lt, a, b));
    ck_assert(!rdx_ir_fold_const(w, &v)); /* its condition is not a CONST */
    ck_assert(rdx_ir_fold_const(lt, &v) && v.i == 1);
    ck_assert(rdx_ir_fold_const(
        IR_OK(rdx_ir_where(c, IR_OK(rdx_ir_const_int(c, rdx_dtype_of(RDX_BOOL), 1)), a, b)), &v));
    ck_assert_int_eq(v.i, -7);
    const rdx_uop *f = IR_OK(rdx_ir_const_float(c, f32, 0.1)),
                  *g = IR_OK(rdx_ir_const_float(c, f32, 0.2));
    ck_assert(rdx_ir_fold_const(IR_OK(rdx_ir_add(c, f, g)), &v));
    ck_assert(v.f == (double)(0.1f + 0.2f));
    /* not folded: a CONST, a non-CONST source, a division by zero (its message recorded) */
    ck_assert(!rdx_ir_fold_const(a, &v));
    const rdx_uop *p = leaf(c, RDX_INT32, 0);
    ck_assert(!rdx_ir_fold_const(IR_OK(rdx_ir_add(c, p, b)), &v));
    const rdx_uop *z = IR_OK(rdx_ir_const_int(c, i32, 0));
    rdx_error_clear();
    ck_assert(!rdx_ir_fold_const(IR_OK(rdx_ir_idiv(c, a, z)), &v));
    ck_assert_msg(strstr(rdx_error_message(), "zero") != NULL, "%s", rdx_error_message());
    rdx_ir_ctx_destroy(c);
}
END_TEST

/* rdx_ir_fold_srcs: u's op over other CONST sources, no node built; against host C */
START_TEST(fold_srcs_without_a_node)
{
    rdx_ir_ctx *c = ir_ctx();
    rdx_dtype i32 = rdx_dtype_of(RDX_INT32), i64 = rdx_dtype_of(RDX_INT64);
    const rdx_uop *p = leaf(c, RDX_INT32, 0), *q = leaf(c, RDX_INT32, 1);
    const rdx_uop *sub = IR_OK(rdx_ir_idiv(c, p, q)), *lt = IR_OK(rdx_ir_cmplt(c, p, q));
    const rdx_uop *s[2] = { IR_OK(rdx_ir_const_int(c, i32, -23)),
                            IR_OK(rdx_ir_const_int(c, i32, 5)) };
    size_t n0 = rdx_ir_node_count(c);
    rdx_value v;
    ck_assert(rdx_ir_fold_srcs(sub, s, &v));
    ck_assert_int_eq(v.i, -23 / 5);
    ck_assert(rdx_ir_fold_srcs(lt, s, &v) && v.i == 1);
    ck_assert_uint_eq(rdx_ir_node_count(c), n0); /* nothing built */
    const rdx_uop *w = IR_OK(rdx_ir_where(c, lt, p, q));
    const rdx_uop *ws[3] = { IR_OK(rdx_ir_const_int(c, rdx_dtype_of(RDX_BOOL), 0)), s[0], s[1] };
    ck_assert(rdx_ir_fold_srcs(w, ws, &v) && v.i == 5);
    /* not folded: a source not a CONST, a CONST of another dtype, a division by zero */
    const rdx_uop *mixed[2] = { s[0], q };
    ck_assert(!rdx_ir_fold_srcs(sub, mixed, &v));
    const rdx_uop *wide[2] = { s[0], IR_OK(rdx_ir_const_int(c, i64, 5)) };
    ck_assert(!rdx_ir_fold_srcs(sub, wide, &v));
    const rdx_uop *byzero[2] = { s[0], IR_OK(rdx_ir_const_int(c, i32, 0)) };
    rdx_error_clear();
    ck_assert(!rdx_ir_fold_srcs(sub, byzero, &v));
    ck_assert_msg(strstr(rdx_error_message(), "zero") != NULL, "%s", rdx_error_message());
    rdx_ir_ctx_destroy(c);
}
END_TEST

TCase *ir_tcase_eval(void)
{
    TCase *tc = tcase_create("eval");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, integer_ops_match_c);
    tcase_add_test(tc, shifts_casts_bitcasts_floats);
    tcase_add_test(tc, fold_const_one_op);
    tcase_add_test(tc, fold_srcs_without_a_node);
    return tc;
}
