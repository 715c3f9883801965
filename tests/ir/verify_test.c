/*
 * tests/ir/verify_test.c — one rejection per verifier rule: the node (or
 * graph) is refused with a message naming the op, its sources and the rule.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/ir/ir_test.h"

typedef struct vf {
    rdx_ir_ctx *c;
    const rdx_uop *B, *B4, *Bcpu;
} vf;

static const rdx_uop *shp(vf *v, int64_t a, int64_t b, int n)
{
    int64_t d[2] = { a, b };
    return IR_OK(rdx_ir_shape(v->c, d, (size_t)n));
}

/* rdx_ir_make with up to 3 sources; returns the status. */
static rdx_status mk(vf *v, rdx_op op, const rdx_uop *a, const rdx_uop *b, const rdx_uop *c,
                     const rdx_uop_arg *arg)
{
    const rdx_uop *s[3] = { a, b, c }, *out;
    size_t n = c ? 3 : b ? 2 : a ? 1 : 0;
    return rdx_ir_make(v->c, op, s, n, arg, 0, &out);
}

static rdx_status ints(vf *v, rdx_op op, const rdx_uop *s, const int64_t *vals, uint32_t n)
{
    rdx_uop_arg a = rdx_uop_arg_none();
    a.ints = vals, a.nints = n;
    return mk(v, op, s, NULL, NULL, &a);
}

/* One violation per rule; returns the status of the failing call. */
static rdx_status violate(vf *v, rdx_rule r)
{
    rdx_ir_ctx *c = v->c;
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32), i32 = rdx_dtype_of(RDX_INT32);
    rdx_uop_arg a = rdx_uop_arg_none();
    switch (r) {
    case RDX_RULE_ARITY:
        return mk(v, RDX_OP_ADD, v->B, NULL, NULL, NULL);
    case RDX_RULE_ARG:
        a.str = "n", a.i = 5, a.j = 1;
        return mk(v, RDX_OP_DEFINE_VAR, NULL, NULL, NULL, &a);
    case RDX_RULE_DTYPE_MISMATCH:
        return mk(v, RDX_OP_ADD, rdx_ir_const_int(c, i32, 1), rdx_ir_const_float(c, f32, 1), NULL,
                  NULL);
    case RDX_RULE_BROADCAST:
        return mk(v, RDX_OP_ADD, v->B, rdx_ir_buffer(c, 5, f32, "AMD", (int64_t[]){ 3 }, 1), NULL,
                  NULL);
    case RDX_RULE_SHAPE_MISMATCH:
        return mk(v, RDX_OP_STACK, v->B, v->B4, NULL, NULL);
    case RDX_RULE_SHAPE_OPERAND:
        return mk(v, RDX_OP_RESHAPE, v->B, rdx_ir_int(c, 12), NULL, NULL);
    case RDX_RULE_RESHAPE_NUMEL:
        return mk(v, RDX_OP_RESHAPE, v->B, shp(v, 5, 2, 2), NULL, NULL);
    case RDX_RULE_EXPAND_DIM:
        return mk(v, RDX_OP_EXPAND, v->B, shp(v, 6, 4, 2), NULL, NULL);
    case RDX_RULE_PAD_RANGE:
        return mk(v, RDX_OP_PAD, v->B4, shp(v, 2, 0, 1), shp(v, 5, 0, 1), NULL);
    case RDX_RULE_SHRINK_RANGE:
        return mk(v, RDX_OP_SHRINK, v->B, shp(v, 2, 0, 2), shp(v, 2, 4, 2), NULL);
    case RDX_RULE_PERMUTE_AXES:
        return ints(v, RDX_OP_PERMUTE, v->B, (int64_t[]){ 0, 0 }, 2);
    case RDX_RULE_FLIP_AXES:
        return ints(v, RDX_OP_FLIP, v->B, (int64_t[]){ 0, 1, 0 }, 3);
    case RDX_RULE_INDEX_RANK: {
        const rdx_uop *i = rdx_ir_int(c, 0), *s[4] = { v->B, i, i, i }, *out;
        return rdx_ir_make(c, RDX_OP_INDEX, s, 4, NULL, 0, &out);
    }
    case RDX_RULE_BITCAST_SIZE:
        a.dtype = rdx_dtype_of(RDX_FLOAT16);
        return mk(v, RDX_OP_BITCAST, rdx_ir_const_float(c, f32, 1), NULL, NULL, &a);
    case RDX_RULE_REDUCE_AXES:
        a.ints = (int64_t[]){ 5 }, a.nints = 1;
        return mk(v, RDX_OP_REDUCE, v->B, NULL, NULL, &a);
    case RDX_RULE_STORE_SHAPE:
        return mk(v, RDX_OP_STORE, v->B, v->B4, NULL, NULL);
    case RDX_RULE_GATE_DTYPE:
        return mk(v, RDX_OP_WHERE, rdx_ir_int(c, 1), v->B, v->B, NULL);
    case RDX_RULE_CONST_RANGE:
        a.dtype = rdx_dtype_of(RDX_UINT8), a.i = 300;
        return mk(v, RDX_OP_CONST, NULL, NULL, NULL, &a);
    case RDX_RULE_DEVICE_MISMATCH:
        return mk(v, RDX_OP_ADD, v->B, v->Bcpu, NULL, NULL);
    case RDX_RULE_NOT_STORAGE: /* a value can be loaded, but not stored into */
        return mk(v, RDX_OP_STORE, rdx_ir_add(c, v->B, v->B), v->B, NULL, NULL);
    case RDX_RULE_TUPLE_INDEX:
        a.i = 3;
        return mk(v, RDX_OP_GETTUPLE, rdx_ir_node(c, RDX_OP_TUPLE, &v->B, 1, NULL), NULL, NULL, &a);
    case RDX_RULE_VECTOR_LANES: {
        const rdx_uop *k = rdx_ir_const_float(c, f32, 1), *l[2] = { k, k };
        const rdx_uop *v2 = rdx_ir_node(c, RDX_OP_VECTORIZE, l, 2, NULL);
        return ints(v, RDX_OP_GEP, v2, (int64_t[]){ 9 }, 1);
    }
    case RDX_RULE_VOID_OPERAND: {
        const rdx_uop *st =
            rdx_ir_node(c, RDX_OP_STORE, (const rdx_uop *[]){ v->B, v->B }, 2, NULL);
        return mk(v, RDX_OP_ADD, st, st, NULL, NULL);
    }
    case RDX_RULE_RANGE_SCOPE:
    case RDX_RULE_RANGE_UNCLOSED: {
        const rdx_uop *buf = v->B4;
        const rdx_uop *rg = rdx_ir_range(c, rdx_ir_int(c, 4), 0, RDX_AXIS_LOOP);
        const rdx_uop *ix = rdx_ir_node(c, RDX_OP_INDEX, (const rdx_uop *[]){ buf, rg }, 2, NULL);
        const rdx_uop *val = rdx_ir_const_float(c, f32, 2);
        const rdx_uop *st = rdx_ir_node(c, RDX_OP_STORE, (const rdx_uop *[]){ ix, val }, 2, NULL);
        const rdx_uop *end = rdx_ir_node(c, RDX_OP_END, (const rdx_uop *[]){ st, rg }, 2, NULL);
        /* the well-formed loop verifies */
        const rdx_uop *ok = IR_OK(rdx_ir_node(c, RDX_OP_SINK, &end, 1, NULL));
        ck_assert_msg(rdx_ir_verify(c, ok) == RDX_OK, "%s", rdx_error_message());
        const rdx_uop *ix2 = rdx_ir_node(c, RDX_OP_INDEX, (const rdx_uop *[]){ v->B, rg }, 2, NULL);
        const rdx_uop *st2 = rdx_ir_node(
            c, RDX_OP_STORE, (const rdx_uop *[]){ ix2, rdx_ir_add(c, ix2, ix2) }, 2, NULL);
        const rdx_uop *sink =
            r == RDX_RULE_RANGE_SCOPE
                ? rdx_ir_node(c, RDX_OP_SINK, (const rdx_uop *[]){ end, st2 }, 2, NULL)
                : rdx_ir_node(c, RDX_OP_SINK, &st, 1, NULL);
        IR_OK(sink);
        return rdx_ir_verify(c, sink);
    }
    case RDX_RULE_NUMEL_OVERFLOW: /* 2^62 * 4 elements */
        return mk(v, RDX_OP_RESHAPE, v->B, shp(v, INT64_C(1) << 62, 4, 2), NULL, NULL);
    default:
        ck_abort_msg("no violation written for rule %s", rdx_rule_name(r));
        return RDX_OK;
    }
}

static const char *expected_op(rdx_rule r)
{
    switch (r) {
    case RDX_RULE_ARITY:
    case RDX_RULE_DTYPE_MISMATCH:
    case RDX_RULE_BROADCAST:
    case RDX_RULE_DEVICE_MISMATCH:
    case RDX_RULE_VOID_OPERAND:
        return "ADD(";
    case RDX_RULE_ARG:
        return "DEFINE_VAR(";
    case RDX_RULE_SHAPE_MISMATCH:
        return "STACK(float32[3,4], float32[4])";
    case RDX_RULE_SHAPE_OPERAND:
    case RDX_RULE_RESHAPE_NUMEL:
    case RDX_RULE_NUMEL_OVERFLOW:
        return "RESHAPE(float32[3,4]";
    case RDX_RULE_EXPAND_DIM:
        return "EXPAND(";
    case RDX_RULE_PAD_RANGE:
        return "PAD(float32[4]";
    case RDX_RULE_SHRINK_RANGE:
        return "SHRINK(";
    case RDX_RULE_PERMUTE_AXES:
        return "PERMUTE(";
    case RDX_RULE_FLIP_AXES:
        return "FLIP(";
    case RDX_RULE_INDEX_RANK:
        return "INDEX(";
    case RDX_RULE_BITCAST_SIZE:
        return "BITCAST(float32[])";
    case RDX_RULE_REDUCE_AXES:
        return "REDUCE(";
    case RDX_RULE_STORE_SHAPE:
        return "STORE(float32[3,4], float32[4])";
    case RDX_RULE_GATE_DTYPE:
        return "WHERE(index[]";
    case RDX_RULE_CONST_RANGE:
        return "CONST(";
    case RDX_RULE_NOT_STORAGE:
        return "STORE(";
    case RDX_RULE_TUPLE_INDEX:
        return "GETTUPLE(";
    case RDX_RULE_VECTOR_LANES:
        return "GEP(float32x2[])";
    case RDX_RULE_RANGE_SCOPE:
    case RDX_RULE_RANGE_UNCLOSED:
        return "SINK(";
    default:
        return "?";
    }
}

START_TEST(each_rule_rejects)
{
    rdx_rule r = (rdx_rule)_i;
    vf v;
    v.c = ir_ctx();
    int64_t d[2] = { 3, 4 };
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32);
    v.B = IR_OK(rdx_ir_buffer(v.c, 0, f32, "AMD", d, 2));
    v.B4 = IR_OK(rdx_ir_buffer(v.c, 1, f32, "AMD", d + 1, 1));
    v.Bcpu = IR_OK(rdx_ir_buffer(v.c, 2, f32, "CPU", d, 2));
    rdx_error_clear();
    rdx_status st = violate(&v, r);
    const char *msg = rdx_error_message();
    ck_assert_msg(st == RDX_ERR_INVALID, "rule %s: status %d, message '%s'", rdx_rule_name(r), st,
                  msg);
    char want[128];
    snprintf(want, sizeof want, "[%s]", rdx_rule_name(r));
    ck_assert_msg(strstr(msg, want), "rule %s: message '%s' lacks '%s'", rdx_rule_name(r), msg,
                  want);
    ck_assert_msg(strstr(msg, expected_op(r)), "rule %s: message '%s' lacks '%s'", rdx_rule_name(r),
                  msg, expected_op(r));
    rdx_ir_ctx_destroy(v.c);
}
END_TEST

START_TEST(messages_are_specific)
{
    vf v;
    v.c = ir_ctx();
    int64_t d[2] = { 3, 4 };
    v.B = IR_OK(rdx_ir_buffer(v.c, 0, rdx_dtype_of(RDX_FLOAT32), "AMD", d, 2));
    ck_assert_int_eq(mk(&v, RDX_OP_RESHAPE, v.B, shp(&v, 5, 2, 2), NULL, NULL), RDX_ERR_INVALID);
    ck_assert_str_eq(rdx_error_message(),
                     "RESHAPE(float32[3,4], index[2]): [reshape element count] [3,4] has 12 "
                     "elements, target has 10");
    v.B4 = IR_OK(rdx_ir_buffer(v.c, 1, rdx_dtype_of(RDX_FLOAT32), "AMD", d + 1, 1));
    ck_assert_int_eq(mk(&v, RDX_OP_PAD, v.B4, shp(&v, 2, 0, 1), shp(&v, 5, 0, 1), NULL),
                     RDX_ERR_INVALID);
    ck_assert_str_eq(rdx_error_message(),
                     "PAD(float32[4], index[1], index[1]): [pad out of range] axis 0: offset 2 + "
                     "size 4 exceeds output size 5");
    /* nothing was created by the failed calls */
    size_t n = rdx_ir_node_count(v.c);
    ck_assert_int_eq(mk(&v, RDX_OP_ADD, v.B, v.B4, v.B, NULL), RDX_ERR_INVALID);
    ck_assert_uint_eq(rdx_ir_node_count(v.c), n);
    rdx_ir_ctx_destroy(v.c);
}
END_TEST

/* ------------------------------------------------- int64 shape arithmetic */

/* st must be RDX_ERR_INVALID with exactly message want. */
static void rejects(rdx_status st, const char *want)
{
    ck_assert_msg(st == RDX_ERR_INVALID, "status %d (message '%s'), want '%s'", st,
                  rdx_error_message(), want);
    ck_assert_str_eq(rdx_error_message(), want);
}

static rdx_status buffer(vf *v, rdx_dtype d, const int64_t *dims, size_t n, const rdx_uop **out)
{
    rdx_uop_arg a = rdx_uop_arg_none();
    const char *dev = "AMD";
    a.dtype = d, a.i = 7, a.device = rdx_ir_device(v->c, &dev, 1);
    a.addrspace = RDX_ADDR_GLOBAL;
    const rdx_uop *sh = IR_OK(rdx_ir_shape(v->c, dims, n));
    return rdx_ir_make(v->c, RDX_OP_BUFFER, &sh, 1, &a, 0, out);
}

/*
 * Every node's shape keeps the product of its non-zero dims within int64:
 * built directly, by RESHAPE/EXPAND/INDEX/broadcasting or from text.  The
 * arithmetic of PAD/SHRINK bounds and BITCAST sizes near INT64_MAX is checked
 * without overflowing (make asan runs this under UBSan).
 */
START_TEST(shapes_keep_int64_element_counts)
{
    vf v;
    v.c = ir_ctx();
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32), i64 = rdx_dtype_of(RDX_INT64);
    const int64_t big = INT64_C(1) << 62, m = INT64_MAX;
    const rdx_uop *u;
    /* the largest shapes that fit are fine */
    int64_t fit[2] = { INT64_C(1) << 31, INT64_C(1) << 31 };
    ck_assert_int_eq(buffer(&v, f32, fit, 2, &u), RDX_OK);
    ck_assert_int_eq(buffer(&v, f32, &m, 1, &u), RDX_OK);
    const rdx_uop *Bmax = u;
    int64_t zero[3] = { 0, INT64_C(1) << 40, INT64_C(1) << 20 };
    ck_assert_int_eq(buffer(&v, f32, zero, 3, &u), RDX_OK);
    /* BUFFER */
    int64_t d[3] = { big, 4 };
    rejects(buffer(&v, f32, d, 2, &u),
            "BUFFER(index[2]): [element count overflow] shape [4611686018427387904,4] is too "
            "large: its element count exceeds INT64_MAX");
    int64_t dz[3] = { big, 0, 4 }; /* a zero dim does not make the others' strides fit */
    rejects(buffer(&v, f32, dz, 3, &u),
            "BUFFER(index[3]): [element count overflow] shape [4611686018427387904,0,4] is too "
            "large: its element count exceeds INT64_MAX");
    /* RESHAPE, also when a zero dim keeps the element count equal */
    int64_t d34[2] = { 3, 4 };
    v.B = IR_OK(rdx_ir_buffer(v.c, 0, f32, "AMD", d34, 2));
    rejects(mk(&v, RDX_OP_RESHAPE, v.B, shp(&v, big, 8, 2), NULL, NULL),
            "RESHAPE(float32[3,4], index[2]): [element count overflow] target shape "
            "[4611686018427387904,8] is too large: its element count exceeds INT64_MAX");
    int64_t d0[2] = { 0, 4 };
    const rdx_uop *B0 = IR_OK(rdx_ir_buffer(v.c, 1, f32, "AMD", d0, 2));
    int64_t t0[3] = { big, 8, 0 };
    ck_assert_ptr_null(rdx_ir_reshape(v.c, B0, t0, 3));
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "[element count overflow] target shape"));
    /* EXPAND */
    int64_t d11[2] = { 1, 1 };
    const rdx_uop *B11 = IR_OK(rdx_ir_buffer(v.c, 2, f32, "AMD", d11, 2));
    rejects(mk(&v, RDX_OP_EXPAND, B11, shp(&v, big, 4, 2), NULL, NULL),
            "EXPAND(float32[1,1], index[2]): [element count overflow] shape "
            "[4611686018427387904,4] is too large: its element count exceeds INT64_MAX");
    /* broadcasting two shapes that fit each */
    int64_t col[2] = { INT64_C(1) << 40, 1 }, row[2] = { 1, INT64_C(1) << 40 };
    const rdx_uop *C = IR_OK(rdx_ir_buffer(v.c, 3, f32, "AMD", col, 2));
    const rdx_uop *R = IR_OK(rdx_ir_buffer(v.c, 4, f32, "AMD", row, 2));
    rejects(
        mk(&v, RDX_OP_ADD, C, R, NULL, NULL),
        "ADD(float32[1099511627776,1], float32[1,1099511627776]): [element count overflow] "
        "shape [1099511627776,1099511627776] is too large: its element count exceeds INT64_MAX");
    /* INDEX with two index vectors */
    int64_t sq[2] = { 4, 4 }, n40 = INT64_C(1) << 40;
    const rdx_uop *S = IR_OK(rdx_ir_buffer(v.c, 5, f32, "AMD", sq, 2));
    const rdx_uop *I = IR_OK(rdx_ir_buffer(v.c, 6, rdx_dtype_of(RDX_INT32), "AMD", &n40, 1));
    const rdx_uop *ix[2] = { I, I };
    ck_assert_ptr_null(rdx_ir_index(v.c, S, ix, 2));
    ck_assert_ptr_nonnull(strstr(rdx_error_message(),
                                 "[element count overflow] shape [1099511627776,1099511627776]"));
    /* PAD / SHRINK: offset + size past INT64_MAX is out of range, not a wrapped sum */
    v.B4 = IR_OK(rdx_ir_buffer(v.c, 8, f32, "AMD", d34 + 1, 1));
    rejects(mk(&v, RDX_OP_PAD, v.B4, shp(&v, m - 1, 0, 1), shp(&v, m, 0, 1), NULL),
            "PAD(float32[4], index[1], index[1]): [pad out of range] axis 0: offset "
            "9223372036854775806 + size 4 exceeds output size 9223372036854775807");
    rejects(mk(&v, RDX_OP_SHRINK, Bmax, shp(&v, m, 0, 1), shp(&v, 2, 0, 1), NULL),
            "SHRINK(float32[9223372036854775807], index[1], index[1]): [shrink out of range] "
            "axis 0: offset 9223372036854775807 + size 2 exceeds source size "
            "9223372036854775807");
    ck_assert_int_eq(mk(&v, RDX_OP_SHRINK, Bmax, shp(&v, m - 2, 0, 1), shp(&v, 2, 0, 1), NULL),
                     RDX_OK);
    /* BITCAST to a narrower dtype multiplies the last axis */
    int64_t n61 = INT64_C(1) << 61;
    const rdx_uop *W = IR_OK(rdx_ir_buffer(v.c, 9, i64, "AMD", &n61, 1));
    rdx_uop_arg a = rdx_uop_arg_none();
    a.dtype = rdx_dtype_of(RDX_UINT8);
    rejects(mk(&v, RDX_OP_BITCAST, W, NULL, NULL, &a),
            "BITCAST(int64[2305843009213693952]): [element count overflow] last axis of "
            "2305843009213693952 x 8 bytes holds more than INT64_MAX elements of 1 bytes");
    a.dtype = rdx_dtype_of(RDX_INT32);
    const rdx_uop *W32 = IR_OK(rdx_ir_bitcast(v.c, W, a.dtype)); /* 2^62 int32: fits */
    int64_t n62;
    ck_assert(rdx_uop_dim(W32, 0, &n62));
    ck_assert_int_eq(n62, big);
    /* and back: 2^62 x 4 bytes as 2^61 int64 */
    ck_assert_ptr_eq(IR_OK(rdx_ir_bitcast(v.c, rdx_ir_bitcast(v.c, W, a.dtype), i64))->shape[0],
                     W->shape[0]);
    rdx_ir_ctx_destroy(v.c);
}
END_TEST

/* The text form goes through the same rule and names the line. */
START_TEST(parsed_shape_overflow_names_the_line)
{
    rdx_ir_ctx *c = ir_ctx();
    static const char t2[] = "%a = CONST dtype=index value=4611686018427387904\n"
                             "%b = CONST dtype=index value=4\n"
                             "%s = STACK %a, %b\n"
                             "%buf = BUFFER %s slot=0 dtype=float32 device=AMD\n";
    const rdx_uop **roots = NULL;
    size_t n = 0;
    ck_assert_int_eq(rdx_ir_parse(c, "big.uop", t2, sizeof t2 - 1, &roots, &n), RDX_ERR_INVALID);
    const char *msg = rdx_error_message();
    ck_assert_msg(strstr(msg, "big.uop:4") && strstr(msg, "BUFFER(index[2])") &&
                      strstr(msg, "[element count overflow] shape [4611686018427387904,4]"),
                  "%s", msg);
    free(roots);
    rdx_ir_ctx_destroy(c);
}
END_TEST

TCase *ir_tcase_verify(void)
{
    TCase *tc = tcase_create("verify");
    tcase_add_loop_test(tc, each_rule_rejects, 0, RDX_RULE_COUNT);
    tcase_add_test(tc, messages_are_specific);
    tcase_add_test(tc, shapes_keep_int64_element_counts);
    tcase_add_test(tc, parsed_shape_overflow_names_the_line);
    return tc;
}
