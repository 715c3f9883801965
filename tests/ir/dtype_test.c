/* tests/ir/dtype_test.c — dtypes (sizes, ranges, promotion, text) and the op table. */
#include <math.h>
#include <string.h>

#include "tests/ir/ir_test.h"

static rdx_dtype D(rdx_scalar s)
{
    return rdx_dtype_of(s);
}

START_TEST(sizes_and_ranges)
{
    static const struct {
        rdx_scalar s;
        unsigned size;
        int64_t lo, hi;
    } t[] = {
        { RDX_BOOL, 1, 0, 1 },
        { RDX_INT8, 1, -128, 127 },
        { RDX_UINT8, 1, 0, 255 },
        { RDX_INT16, 2, -32768, 32767 },
        { RDX_UINT16, 2, 0, 65535 },
        { RDX_INT32, 4, INT32_MIN, INT32_MAX },
        { RDX_UINT32, 4, 0, UINT32_MAX },
        { RDX_INT64, 8, INT64_MIN, INT64_MAX },
        { RDX_UINT64, 8, 0, INT64_MAX }, /* saturated: documented */
        { RDX_INDEX, 8, INT64_MIN, INT64_MAX },
    };
    for (size_t k = 0; k < sizeof t / sizeof *t; k++) {
        int64_t lo, hi;
        rdx_dtype_range(D(t[k].s), &lo, &hi, NULL, NULL);
        ck_assert_uint_eq(rdx_dtype_itemsize(D(t[k].s)), t[k].size);
        ck_assert_int_eq(lo, t[k].lo);
        ck_assert_int_eq(hi, t[k].hi);
        ck_assert(rdx_dtype_is_int(D(t[k].s)));
    }
    static const rdx_scalar fl[] = { RDX_FLOAT16, RDX_BFLOAT16, RDX_FLOAT32, RDX_FLOAT64 };
    static const unsigned fs[] = { 2, 2, 4, 8 };
    for (int k = 0; k < 4; k++) {
        double lo, hi;
        rdx_dtype_range(D(fl[k]), NULL, NULL, &lo, &hi);
        ck_assert(lo == -INFINITY && hi == INFINITY);
        ck_assert_uint_eq(rdx_dtype_itemsize(D(fl[k])), fs[k]);
        ck_assert(rdx_dtype_is_float(D(fl[k])) && !rdx_dtype_is_int(D(fl[k])));
    }
    ck_assert_uint_eq(rdx_dtype_itemsize(rdx_dtype_vec(D(RDX_FLOAT16), 8)), 16);
    ck_assert_uint_eq(rdx_dtype_itemsize(rdx_dtype_ptr(D(RDX_FLOAT16), RDX_ADDR_LOCAL)), 8);
    ck_assert(!rdx_dtype_is_float(rdx_dtype_ptr(D(RDX_FLOAT32), RDX_ADDR_GLOBAL)));
}
END_TEST

START_TEST(promotion_follows_tinygrad_lattice)
{
    static const rdx_scalar t[][3] = {
        { RDX_BOOL, RDX_INT8, RDX_INT8 },         { RDX_INT8, RDX_UINT8, RDX_INT16 },
        { RDX_UINT8, RDX_UINT16, RDX_UINT16 },    { RDX_INT32, RDX_UINT32, RDX_INT64 },
        { RDX_INT64, RDX_UINT64, RDX_FLOAT16 },   { RDX_FLOAT16, RDX_BFLOAT16, RDX_FLOAT32 },
        { RDX_INT32, RDX_FLOAT16, RDX_FLOAT16 },  { RDX_FLOAT32, RDX_FLOAT64, RDX_FLOAT64 },
        { RDX_BOOL, RDX_FLOAT32, RDX_FLOAT32 },   { RDX_UINT16, RDX_INT16, RDX_INT32 },
        { RDX_INDEX, RDX_INT32, RDX_INDEX },      { RDX_INDEX, RDX_FLOAT32, RDX_FLOAT32 },
        { RDX_BFLOAT16, RDX_INT8, RDX_BFLOAT16 },
    };
    for (size_t k = 0; k < sizeof t / sizeof *t; k++) {
        rdx_dtype a = D(t[k][0]), b = D(t[k][1]);
        ck_assert_msg(rdx_dtype_promote(a, b).scalar == t[k][2], "%s + %s",
                      rdx_scalar_name(t[k][0]), rdx_scalar_name(t[k][1]));
        ck_assert(rdx_dtype_promote(b, a).scalar == t[k][2]); /* symmetric */
        ck_assert(rdx_dtype_promote(a, a).scalar == t[k][0]);
    }
}
END_TEST

START_TEST(text_form)
{
    char buf[64];
    ck_assert_str_eq(rdx_dtype_str(D(RDX_BFLOAT16), buf, sizeof buf), "bfloat16");
    ck_assert_str_eq(rdx_dtype_str(rdx_dtype_vec(D(RDX_FLOAT32), 4), buf, sizeof buf), "float32x4");
    ck_assert_str_eq(rdx_dtype_str(rdx_dtype_ptr(D(RDX_INT8), RDX_ADDR_LOCAL), buf, sizeof buf),
                     "int8*local");
    ck_assert_str_eq(rdx_dtype_str(rdx_dtype_ptr(D(RDX_INT8), RDX_ADDR_GLOBAL), buf, sizeof buf),
                     "int8*");
    static const char *ok[] = { "void",      "bool",        "uint64",         "index",
                                "float16x2", "float32*reg", "uint8x16*local", "float64*" };
    for (size_t k = 0; k < sizeof ok / sizeof *ok; k++) {
        rdx_dtype d;
        ck_assert_int_eq(rdx_dtype_parse(ok[k], strlen(ok[k]), &d), RDX_OK);
        ck_assert_str_eq(rdx_dtype_str(d, buf, sizeof buf), ok[k]);
    }
    static const char *bad[] = { "float", "int32x0", "int32x", "float32*heap", "Int32" };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        rdx_dtype d;
        ck_assert_int_eq(rdx_dtype_parse(bad[k], strlen(bad[k]), &d), RDX_ERR_PARSE);
        ck_assert(strstr(rdx_error_message(), bad[k]));
    }
}
END_TEST

START_TEST(op_table)
{
    ck_assert_int_eq(RDX_OP_COUNT, 68);
    for (int op = 0; op < RDX_OP_COUNT; op++) {
        const rdx_opinfo *i = rdx_op_info((rdx_op)op);
        ck_assert_ptr_nonnull(i);
        ck_assert_int_eq(rdx_op_lookup(i->name, strlen(i->name)), op);
        ck_assert(i->max_src < 0 || i->max_src >= i->min_src);
        if (i->flags & RDX_OPF_COMMUTATIVE)
            ck_assert_int_eq(i->min_src, 2);
    }
    ck_assert_ptr_null(rdx_op_info(RDX_OP_COUNT));
    ck_assert_int_eq(rdx_op_lookup("add", 3), -1);
    ck_assert_str_eq(rdx_op_name((rdx_op)999), "?");
    /* the ops the issue lists are all there */
    static const char *names[] = {
        "PARAM",        "BUFFER",
        "CONST",        "BINARY",
        "PERMUTE",      "FLIP",
        "RESHAPE",      "EXPAND",
        "PAD",          "SHRINK",
        "INDEX",        "STACK",
        "BITCAST",      "REDUCE",
        "FUNCTION",     "CALL",
        "TUPLE",        "GETTUPLE",
        "LOAD",         "STORE",
        "RANGE",        "END",
        "AFTER",        "GROUP",
        "SINK",         "LINEAR",
        "RECIP",        "TRUNC",
        "CAST",         "ADD",
        "MUL",          "MAX",
        "MOD",          "IDIV",
        "CMPLT",        "CMPNE",
        "XOR",          "OR",
        "AND",          "SHR",
        "SHL",          "WHERE",
        "CONTIGUOUS",   "CONTIGUOUSBACKWARD",
        "DETACH",       "BARRIER",
        "INS",          "SPECIAL",
        "IF",           "ENDIF",
        "WMMA",         "CUSTOM",
        "ATOMICADD",    "CUSTOMFUNCTION",
        "PROGRAM",      "SOURCE",
        "DEFINE_VAR",   "BIND",
        "DEFINE_LOCAL", "DEFINE_REG",
        "VECTORIZE",    "GEP",
        "VCONST",       "CAT",
        "UNROLL",       "CONTRACT",
        "BUFFERIZE",
    };
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        ck_assert_msg(rdx_op_lookup(names[k], strlen(names[k])) >= 0, "missing %s", names[k]);
    ck_assert_str_eq(rdx_redop_name(RDX_RED_MIN), "MIN");
    ck_assert_str_eq(rdx_axistype_name(RDX_AXIS_GROUP_REDUCE), "GROUP_REDUCE");
}
END_TEST

TCase *ir_tcase_dtype(void)
{
    TCase *tc = tcase_create("dtype");
    tcase_add_test(tc, sizes_and_ranges);
    tcase_add_test(tc, promotion_follows_tinygrad_lattice);
    tcase_add_test(tc, text_form);
    tcase_add_test(tc, op_table);
    return tc;
}
