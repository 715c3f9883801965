/*
 * tests/ir/derive_test.c — derived properties of every op (dtype, shape,
 * device, addrspace, shard axis, min_max) against hand-written
 * expectations from the spec's table, and hash-consing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/ir/ir_test.h"

static int covered[RDX_OP_COUNT];

/* Assert u's description; marks its op covered. */
#define DESC(u, want)                                                \
    do {                                                             \
        const rdx_uop *u_ = IR_OK(u);                                \
        char b_[512];                                                \
        ck_assert_str_eq(rdx_uop_describe(u_, b_, sizeof b_), want); \
        covered[u_->op] = 1;                                         \
    } while (0)

typedef struct fx {
    rdx_ir_ctx *c;
    rdx_dtype f32, i32, idx, b;
    const rdx_uop *B, *B4, *Bi, *n;
} fx;

static void fx_init(fx *f)
{
    f->c = ir_ctx();
    f->f32 = rdx_dtype_of(RDX_FLOAT32);
    f->i32 = rdx_dtype_of(RDX_INT32);
    f->idx = rdx_dtype_of(RDX_INDEX);
    f->b = rdx_dtype_of(RDX_BOOL);
    int64_t d[2] = { 3, 4 };
    f->B = IR_OK(rdx_ir_buffer(f->c, 0, f->f32, "AMD", d, 2));
    f->B4 = IR_OK(rdx_ir_buffer(f->c, 1, f->f32, "AMD", d + 1, 1));
    f->Bi = IR_OK(rdx_ir_buffer(f->c, 2, f->i32, "AMD", d, 2));
    f->n = IR_OK(rdx_ir_var(f->c, "n", 1, 8));
}

static const rdx_uop *ints_node(fx *f, rdx_op op, const rdx_uop *s, const int64_t *v, size_t n)
{
    rdx_uop_arg a = rdx_uop_arg_none();
    a.ints = v;
    a.nints = (uint32_t)n;
    return rdx_ir_node(f->c, op, &s, 1, &a);
}

static const rdx_uop *ci(fx *f, rdx_dtype d, int64_t v)
{
    return IR_OK(rdx_ir_const_int(f->c, d, v));
}

static const rdx_uop *shape(fx *f, int64_t a, int64_t b, int n)
{
    int64_t d[2] = { a, b };
    return IR_OK(rdx_ir_shape(f->c, d, (size_t)n));
}

static const rdx_uop *N(fx *f, rdx_op op, const rdx_uop *a, const rdx_uop *b, const rdx_uop *c,
                        const rdx_uop_arg *arg)
{
    const rdx_uop *s[3] = { a, b, c };
    size_t n = c ? 3 : b ? 2 : a ? 1 : 0;
    return rdx_ir_node(f->c, op, s, n, arg);
}

static void d_sources(void)
{
    fx f;
    fx_init(&f);
    DESC(f.B, "float32[3,4] device=AMD addr=global min_max=[-inf,inf]");
    const char *devs[2] = { "AMD:0", "AMD:1" };
    rdx_uop_arg a = rdx_uop_arg_none();
    a.i = 3, a.dtype = f.f32, a.device = rdx_ir_device(f.c, devs, 2);
    DESC(N(&f, RDX_OP_BUFFER, shape(&f, 8, 2, 2), NULL, NULL, &a),
         "float32[8,2] device=(AMD:0,AMD:1) addr=global axis=0 min_max=[-inf,inf]");
    const rdx_uop *sym[2] = { ci(&f, f.idx, 2), f.n };
    a = rdx_uop_arg_none();
    a.i = 1, a.dtype = rdx_dtype_of(RDX_FLOAT16);
    DESC(N(&f, RDX_OP_PARAM, rdx_ir_shape_u(f.c, sym, 2), NULL, NULL, &a),
         "float16[2,n] min_max=[-inf,inf]");
    DESC(ci(&f, f.i32, 5), "int32[] min_max=[5,5]");
    DESC(rdx_ir_const_float(f.c, f.f32, 1.5), "float32[] min_max=[1.5,1.5]");
    a = rdx_uop_arg_none();
    a.str = "abc", a.len = 3;
    DESC(N(&f, RDX_OP_BINARY, NULL, NULL, NULL, &a), "uint8[3] min_max=[0,255]");
    DESC(f.n, "index[] min_max=[1,8]");
    DESC(N(&f, RDX_OP_BIND, f.n, ci(&f, f.idx, 4), NULL, NULL), "index[] min_max=[1,8]");
    a = rdx_uop_arg_none();
    a.i = 0, a.dtype = f.f32;
    DESC(N(&f, RDX_OP_DEFINE_LOCAL, shape(&f, 16, 0, 1), NULL, NULL, &a),
         "float32[16] addr=local min_max=[-inf,inf]");
    DESC(N(&f, RDX_OP_DEFINE_REG, shape(&f, 1, 0, 1), NULL, NULL, &a),
         "float32[1] addr=reg min_max=[-inf,inf]");
    rdx_ir_ctx_destroy(f.c);
}
/* end d_sources */

static void d_movement(void)
{
    fx f;
    fx_init(&f);
    const int64_t perm[2] = { 1, 0 }, flip[2] = { 1, 0 };
    DESC(ints_node(&f, RDX_OP_PERMUTE, f.B, perm, 2),
         "float32[4,3] device=AMD addr=global min_max=[-inf,inf]");
    DESC(ints_node(&f, RDX_OP_FLIP, f.B, flip, 2),
         "float32[3,4] device=AMD addr=global min_max=[-inf,inf]");
    DESC(N(&f, RDX_OP_RESHAPE, f.B, shape(&f, 2, 6, 2), NULL, NULL),
         "float32[2,6] device=AMD addr=global min_max=[-inf,inf]");
    const rdx_uop *r14 = IR_OK(N(&f, RDX_OP_RESHAPE, f.B4, shape(&f, 1, 4, 2), NULL, NULL));
    DESC(N(&f, RDX_OP_EXPAND, r14, shape(&f, 3, 4, 2), NULL, NULL),
         "float32[3,4] device=AMD addr=global min_max=[-inf,inf]");
    DESC(N(&f, RDX_OP_PAD, f.B4, shape(&f, 1, 0, 1), shape(&f, 7, 0, 1), NULL),
         "float32[7] device=AMD addr=global min_max=[-inf,inf]");
    DESC(N(&f, RDX_OP_SHRINK, f.B, shape(&f, 1, 0, 2), shape(&f, 2, 4, 2), NULL),
         "float32[2,4] device=AMD addr=global min_max=[-inf,inf]");
    const rdx_uop *r = IR_OK(rdx_ir_range(f.c, ci(&f, f.idx, 3), 0, RDX_AXIS_LOOP));
    DESC(N(&f, RDX_OP_INDEX, f.Bi, r, NULL, NULL),
         "int32[4] device=AMD addr=global min_max=[-2147483648,2147483647]");
    const rdx_uop *iv = IR_OK(rdx_ir_node(f.c, RDX_OP_STACK, (const rdx_uop *[]){ r, r }, 2, NULL));
    DESC(N(&f, RDX_OP_INDEX, f.Bi, iv, NULL, NULL),
         "int32[2,4] device=AMD addr=global min_max=[-2147483648,2147483647]");
    DESC(N(&f, RDX_OP_INDEX, f.Bi, r, r, NULL),
         "int32[] device=AMD addr=global min_max=[-2147483648,2147483647]");
    DESC(N(&f, RDX_OP_STACK, ci(&f, f.i32, 1), ci(&f, f.i32, 2), NULL, NULL),
         "int32[2] min_max=[1,2]");
    DESC(rdx_ir_node(f.c, RDX_OP_STACK, NULL, 0, NULL), "index[0] min_max=[0,0]");
    DESC(rdx_ir_bitcast(f.c, f.B, f.i32),
         "int32[3,4] device=AMD addr=global min_max=[-2147483648,2147483647]");
    DESC(rdx_ir_bitcast(f.c, f.B, rdx_dtype_of(RDX_FLOAT16)),
         "float16[3,8] device=AMD addr=global min_max=[-inf,inf]");
    /* REPLICATED(k): the spec's broadcast, T.reshape(1,s).expand(n,s).copy(D).replicated(0) */
    {
        const char *devs[2] = { "AMD:0", "AMD:1" };
        rdx_uop_arg cp = rdx_uop_arg_none();
        cp.device = rdx_ir_device(f.c, devs, 2), cp.addrspace = RDX_ADDR_GLOBAL;
        const rdx_uop *x = IR_OK(N(&f, RDX_OP_EXPAND, r14, shape(&f, 2, 4, 2), NULL, NULL));
        const rdx_uop *onD = IR_OK(N(&f, RDX_OP_LOAD, x, NULL, NULL, &cp));
        ck_assert_int_eq(onD->axis, 0);
        rdx_uop_arg k = rdx_uop_arg_none();
        DESC(N(&f, RDX_OP_REPLICATED, onD, NULL, NULL, &k),
             "float32[4] device=(AMD:0,AMD:1) addr=global min_max=[-inf,inf]");
        /* not the shard axis, no device tuple, a copy count other than the device count */
        k.i = 1;
        ck_assert_ptr_null(N(&f, RDX_OP_REPLICATED, onD, NULL, NULL, &k));
        ck_assert_ptr_nonnull(strstr(rdx_error_message(), "[device mismatch] axis 1 is not the "
                                                          "shard axis of a device tuple"));
        k.i = 2;
        ck_assert_ptr_null(N(&f, RDX_OP_REPLICATED, onD, NULL, NULL, &k));
        ck_assert_ptr_nonnull(strstr(rdx_error_message(), "[arg] axis 2 of a rank-2 source"));
        k.i = 0;
        ck_assert_ptr_null(N(&f, RDX_OP_REPLICATED, f.B, NULL, NULL, &k));
        ck_assert_ptr_nonnull(strstr(rdx_error_message(), "[device mismatch]"));
        const rdx_uop *x3 = IR_OK(N(&f, RDX_OP_EXPAND, r14, shape(&f, 3, 4, 2), NULL, NULL));
        const rdx_uop *on3 = IR_OK(N(&f, RDX_OP_LOAD, x3, NULL, NULL, &cp));
        ck_assert_ptr_null(N(&f, RDX_OP_REPLICATED, on3, NULL, NULL, &k));
        ck_assert_ptr_nonnull(strstr(rdx_error_message(),
                                     "[shape mismatch] axis 0 must have one copy per device (2)"));
    }
    /* symbolic reshape: [2,n] -> [n,2] */
    const rdx_uop *sym[2] = { ci(&f, f.idx, 2), f.n }, *sym2[2] = { f.n, ci(&f, f.idx, 2) };
    rdx_uop_arg a = rdx_uop_arg_none();
    a.dtype = f.f32;
    const rdx_uop *p = IR_OK(N(&f, RDX_OP_PARAM, rdx_ir_shape_u(f.c, sym, 2), NULL, NULL, &a));
    DESC(N(&f, RDX_OP_RESHAPE, p, rdx_ir_shape_u(f.c, sym2, 2), NULL, NULL),
         "float32[n,2] min_max=[-inf,inf]");
    /* movement keeps min_max of the source */
    const rdx_uop *k =
        IR_OK(N(&f, RDX_OP_RESHAPE, ci(&f, f.i32, 7), shape(&f, 1, 0, 1), NULL, NULL));
    DESC(k, "int32[1] min_max=[7,7]");
    rdx_ir_ctx_destroy(f.c);
}
/* end d_movement */

static void d_reduce_call_memory_order(void)
{
    fx f;
    fx_init(&f);
    rdx_uop_arg a = rdx_uop_arg_none();
    const int64_t ax[1] = { 1 };
    a.sub = RDX_RED_ADD, a.ints = ax, a.nints = 1;
    DESC(N(&f, RDX_OP_REDUCE, f.B, NULL, NULL, &a), "float32[3,1] device=AMD min_max=[-inf,inf]");
    /* FUNCTION(TUPLE(PARAM0 + PARAM0), B) and its GETTUPLE */
    rdx_uop_arg pa = rdx_uop_arg_none();
    pa.dtype = f.f32;
    const rdx_uop *p0 = IR_OK(N(&f, RDX_OP_PARAM, shape(&f, 3, 4, 2), NULL, NULL, &pa));
    const rdx_uop *tup = IR_OK(N(&f, RDX_OP_TUPLE, rdx_ir_add(f.c, p0, p0), NULL, NULL, NULL));
    DESC(tup, "void[]");
    const rdx_uop *fn = IR_OK(N(&f, RDX_OP_FUNCTION, tup, f.B, NULL, NULL));
    DESC(fn, "void[] device=AMD");
    DESC(N(&f, RDX_OP_CALL, tup, f.B, NULL, NULL), "void[] device=AMD");
    rdx_uop_arg gi = rdx_uop_arg_none();
    DESC(N(&f, RDX_OP_GETTUPLE, fn, NULL, NULL, &gi), "float32[3,4] device=AMD min_max=[-inf,inf]");
    /* symbolic PARAM shape is replaced by the argument's */
    const rdx_uop *psh[1] = { f.n };
    const rdx_uop *ps = IR_OK(N(&f, RDX_OP_PARAM, rdx_ir_shape_u(f.c, psh, 1), NULL, NULL, &pa));
    const rdx_uop *fs =
        IR_OK(N(&f, RDX_OP_FUNCTION,
                N(&f, RDX_OP_TUPLE, rdx_ir_alu1(f.c, RDX_OP_RECIP, ps), NULL, NULL, NULL), f.B4,
                NULL, NULL));
    DESC(N(&f, RDX_OP_GETTUPLE, fs, NULL, NULL, &gi), "float32[4] device=AMD min_max=[-inf,inf]");
    /* LOAD / STORE / BUFFERIZE / AFTER */
    rdx_uop_arg la = rdx_uop_arg_none();
    la.addrspace = RDX_ADDR_REG;
    DESC(N(&f, RDX_OP_LOAD, f.B, NULL, NULL, &la),
         "float32[3,4] device=AMD addr=reg min_max=[-inf,inf]");
    const char *devs[2] = { "AMD:0", "AMD:1" };
    la.device = rdx_ir_device(f.c, devs, 2), la.addrspace = RDX_ADDR_GLOBAL;
    DESC(N(&f, RDX_OP_LOAD, f.B, NULL, NULL, &la),
         "float32[3,4] device=(AMD:0,AMD:1) addr=global axis=0 min_max=[-inf,inf]");
    /* LOAD of a computed value: the spec's CONTIGUOUS (a new anonymous buffer) */
    const rdx_uop *sum = IR_OK(rdx_ir_add(f.c, f.Bi, ci(&f, f.i32, 1)));
    la.device = NULL, la.addrspace = RDX_ADDR_GLOBAL;
    DESC(N(&f, RDX_OP_LOAD, sum, NULL, NULL, &la),
         "int32[3,4] device=AMD addr=global min_max=[-2147483648,2147483647]");
    la.addrspace = RDX_ADDR_NONE;
    DESC(N(&f, RDX_OP_LOAD, sum, rdx_ir_cmplt(f.c, f.Bi, ci(&f, f.i32, 3)), NULL, &la),
         "int32[3,4] device=AMD min_max=[-2147483648,2147483647]");
    const rdx_uop *st = IR_OK(N(&f, RDX_OP_STORE, f.B, rdx_ir_add(f.c, f.B, f.B), NULL, NULL));
    ck_assert_ptr_null(N(&f, RDX_OP_LOAD, st, NULL, NULL, NULL)); /* but not of a void */
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "[void operand]"));
    DESC(st, "void[] device=AMD");
    DESC(N(&f, RDX_OP_AFTER, f.B, st, NULL, NULL),
         "float32[3,4] device=AMD addr=global min_max=[-inf,inf]");
    const rdx_uop *r0 = IR_OK(rdx_ir_range(f.c, ci(&f, f.idx, 4), 0, RDX_AXIS_GLOBAL));
    const rdx_uop *r1 = IR_OK(rdx_ir_range(f.c, ci(&f, f.idx, 3), 1, RDX_AXIS_LOOP));
    DESC(r0, "index[] min_max=[0,3]");
    rdx_uop_arg ba = rdx_uop_arg_none();
    DESC(N(&f, RDX_OP_BUFFERIZE, rdx_ir_add(f.c, r0, r1), r0, r1, &ba),
         "index[4,3] addr=global min_max=[0,5]");
    rdx_uop_arg ra = rdx_uop_arg_none();
    ra.sub = RDX_RED_MAX;
    const rdx_uop *red = IR_OK(N(&f, RDX_OP_REDUCE, rdx_ir_cast(f.c, r1, f.f32), r1, NULL, &ra));
    DESC(red, "float32[] min_max=[-inf,inf]");
    DESC(N(&f, RDX_OP_END, st, r0, NULL, NULL), "void[] device=AMD");
    DESC(N(&f, RDX_OP_GROUP, st, st, NULL, NULL), "void[] device=AMD");
    DESC(N(&f, RDX_OP_SINK, st, NULL, NULL, NULL), "void[] device=AMD");
    DESC(N(&f, RDX_OP_LINEAR, r0, st, NULL, NULL), "void[] device=AMD");
    DESC(N(&f, RDX_OP_CONTIGUOUS, f.B, NULL, NULL, NULL),
         "float32[3,4] device=AMD addr=global min_max=[-inf,inf]");
    DESC(N(&f, RDX_OP_CONTIGUOUSBACKWARD, r0, NULL, NULL, NULL), "index[] min_max=[0,3]");
    DESC(N(&f, RDX_OP_DETACH, r0, NULL, NULL, NULL), "index[] min_max=[0,3]");
    rdx_ir_ctx_destroy(f.c);
}
/* end d_reduce_call_memory_order */

static void d_elementwise(void)
{
    fx f;
    fx_init(&f);
    const rdx_uop *x = IR_OK(rdx_ir_var(f.c, "x", -3, 5)), *y = IR_OK(rdx_ir_var(f.c, "y", 2, 4));
    DESC(rdx_ir_add(f.c, x, y), "index[] min_max=[-1,9]");
    DESC(rdx_ir_mul(f.c, x, y), "index[] min_max=[-12,20]");
    DESC(rdx_ir_max(f.c, x, y), "index[] min_max=[2,5]");
    DESC(rdx_ir_mod(f.c, y, ci(&f, f.idx, 3)), "index[] min_max=[0,2]");
    DESC(rdx_ir_idiv(f.c, y, ci(&f, f.idx, 2)), "index[] min_max=[1,2]");
    DESC(rdx_ir_cmplt(f.c, x, y), "bool[] min_max=[0,1]");
    DESC(rdx_ir_cmplt(f.c, y, ci(&f, f.idx, 5)), "bool[] min_max=[1,1]");
    DESC(rdx_ir_cmpne(f.c, y, ci(&f, f.idx, 7)), "bool[] min_max=[1,1]");
    DESC(rdx_ir_alu2(f.c, RDX_OP_XOR, x, y),
         "index[] min_max=[-9223372036854775808,9223372036854775807]");
    DESC(rdx_ir_alu2(f.c, RDX_OP_OR, x, y),
         "index[] min_max=[-9223372036854775808,9223372036854775807]");
    DESC(rdx_ir_alu2(f.c, RDX_OP_AND, y, y), "index[] min_max=[0,4]");
    DESC(rdx_ir_alu2(f.c, RDX_OP_SHL, x, y),
         "index[] min_max=[-9223372036854775808,9223372036854775807]");
    DESC(rdx_ir_alu2(f.c, RDX_OP_SHR, x, y),
         "index[] min_max=[-9223372036854775808,9223372036854775807]");
    DESC(rdx_ir_where(f.c, rdx_ir_cmplt(f.c, x, y), x, rdx_ir_int(f.c, 9)),
         "index[] min_max=[-3,9]");
    DESC(rdx_ir_alu1(f.c, RDX_OP_RECIP, f.B), "float32[3,4] device=AMD min_max=[-inf,inf]");
    DESC(rdx_ir_alu1(f.c, RDX_OP_TRUNC, x), "index[] min_max=[-3,5]");
    DESC(rdx_ir_cast(f.c, y, rdx_dtype_of(RDX_UINT8)), "uint8[] min_max=[2,4]");
    DESC(rdx_ir_cast(f.c, x, rdx_dtype_of(RDX_UINT8)), "uint8[] min_max=[0,255]");
    DESC(rdx_ir_cast(f.c, rdx_ir_const_float(f.c, f.f32, 1e10), f.i32),
         "int32[] min_max=[2147483647,2147483647]");
    DESC(rdx_ir_cast(f.c, y, f.f32), "float32[] min_max=[2,4]");
    /* broadcasting: [3,4] + [4] and [3,1] * [1,4] */
    DESC(rdx_ir_add(f.c, f.B, f.B4), "float32[3,4] device=AMD min_max=[-inf,inf]");
    const rdx_uop *c31 = IR_OK(N(&f, RDX_OP_RESHAPE, f.B4, shape(&f, 1, 4, 2), NULL, NULL));
    rdx_uop_arg a = rdx_uop_arg_none();
    const int64_t ax[1] = { 1 };
    a.ints = ax, a.nints = 1;
    const rdx_uop *r31 = IR_OK(N(&f, RDX_OP_REDUCE, f.B, NULL, NULL, &a));
    DESC(rdx_ir_mul(f.c, r31, c31), "float32[3,4] device=AMD min_max=[-inf,inf]");
    /* float ranges */
    DESC(rdx_ir_add(f.c, rdx_ir_const_float(f.c, f.f32, 1.5), rdx_ir_cast(f.c, y, f.f32)),
         "float32[] min_max=[3.5,5.5]");
    rdx_ir_ctx_destroy(f.c);
}
/* end d_elementwise */

static void d_codegen_and_vectors(void)
{
    fx f;
    fx_init(&f);
    const rdx_uop *st = IR_OK(N(&f, RDX_OP_STORE, f.B, rdx_ir_add(f.c, f.B, f.B), NULL, NULL));
    DESC(N(&f, RDX_OP_BARRIER, st, NULL, NULL, NULL), "void[] device=AMD");
    rdx_uop_arg a = rdx_uop_arg_label(3);
    DESC(N(&f, RDX_OP_INS, NULL, NULL, NULL, &a), "void[]");
    a = rdx_uop_arg_none();
    const rdx_uop *k1 = rdx_ir_const_float(f.c, f.f32, 1);
    rdx_uop_arg sa = rdx_uop_arg_none();
    sa.str = "gidx0";
    DESC(N(&f, RDX_OP_SPECIAL, ci(&f, f.idx, 64), NULL, NULL, &sa), "index[] min_max=[0,63]");
    const rdx_uop *iff =
        IR_OK(N(&f, RDX_OP_IF, rdx_ir_cmplt(f.c, f.n, rdx_ir_int(f.c, 4)), NULL, NULL, NULL));
    DESC(iff, "void[]");
    DESC(N(&f, RDX_OP_ENDIF, iff, NULL, NULL, NULL), "void[]");
    const rdx_uop *lanes[8];
    for (int k = 0; k < 8; k++)
        lanes[k] = k1;
    const rdx_uop *v8 = IR_OK(rdx_ir_node(f.c, RDX_OP_VECTORIZE, lanes, 8, NULL));
    DESC(v8, "float32x8[] min_max=[1,1]");
    a.str = "WMMA_16_16_16", a.dtype = rdx_dtype_vec(f.f32, 8);
    DESC(N(&f, RDX_OP_WMMA, v8, v8, v8, &a), "float32x8[] min_max=[-inf,inf]");
    a.str = "{0}+{1}", a.dtype = f.i32;
    DESC(N(&f, RDX_OP_CUSTOM, k1, NULL, NULL, &a), "int32[] min_max=[-2147483648,2147483647]");
    DESC(N(&f, RDX_OP_ATOMICADD, f.B, f.B, NULL, NULL), "void[] device=AMD");
    sa.str = "hevc_decode";
    DESC(N(&f, RDX_OP_CUSTOMFUNCTION, k1, NULL, NULL, &sa), "void[]");
    sa.str = "kernel void k() {}";
    const rdx_uop *src = IR_OK(N(&f, RDX_OP_SOURCE, NULL, NULL, NULL, &sa));
    DESC(src, "void[]");
    rdx_uop_arg ba = rdx_uop_arg_none();
    ba.str = "\x7f"
             "ELF",
    ba.len = 4;
    const rdx_uop *bin = IR_OK(N(&f, RDX_OP_BINARY, NULL, NULL, NULL, &ba));
    const rdx_uop *lin = IR_OK(N(&f, RDX_OP_LINEAR, st, NULL, NULL, NULL));
    DESC(N(&f, RDX_OP_PROGRAM, lin, src, bin, NULL), "void[] device=AMD");
    const int64_t g02[2] = { 0, 2 };
    DESC(ints_node(&f, RDX_OP_GEP, v8, g02, 2), "float32x2[] min_max=[1,1]");
    DESC(ints_node(&f, RDX_OP_GEP, v8, g02, 1), "float32[] min_max=[1,1]");
    rdx_uop_arg va = rdx_uop_arg_none();
    const int64_t vals[2] = { 1, 5 };
    va.dtype = rdx_dtype_vec(f.i32, 2), va.ints = vals, va.nints = 2;
    DESC(N(&f, RDX_OP_VCONST, NULL, NULL, NULL, &va), "int32x2[] min_max=[1,5]");
    DESC(N(&f, RDX_OP_CAT, v8, v8, NULL, NULL), "float32x16[] min_max=[-inf,inf]");
    const int64_t pair[2] = { 0, 4 };
    const rdx_uop *v4 = IR_OK(rdx_ir_node(f.c, RDX_OP_VECTORIZE, lanes, 4, NULL));
    DESC(ints_node(&f, RDX_OP_UNROLL, v4, pair, 2), "float32[] min_max=[1,1]");
    DESC(ints_node(&f, RDX_OP_CONTRACT, k1, pair, 2), "float32x4[] min_max=[1,1]");
    rdx_ir_ctx_destroy(f.c);
}
/* end d_codegen_and_vectors */

START_TEST(sources)
{
    d_sources();
}
END_TEST

START_TEST(movement)
{
    d_movement();
}
END_TEST

START_TEST(reduce_call_memory_order)
{
    d_reduce_call_memory_order();
}
END_TEST

START_TEST(elementwise)
{
    d_elementwise();
}
END_TEST

START_TEST(codegen_and_vectors)
{
    d_codegen_and_vectors();
}
END_TEST

START_TEST(every_op_is_covered)
{
    memset(covered, 0, sizeof covered);
    d_sources();
    d_movement();
    d_reduce_call_memory_order();
    d_elementwise();
    d_codegen_and_vectors();
    for (int op = 0; op < RDX_OP_COUNT; op++)
        ck_assert_msg(covered[op], "no derivation test for %s", rdx_op_name((rdx_op)op));
}
END_TEST

START_TEST(shard_axis)
{
    fx f;
    fx_init(&f);
    const char *devs[2] = { "AMD:0", "AMD:1" };
    rdx_uop_arg a = rdx_uop_arg_none();
    a.dtype = f.f32, a.device = rdx_ir_device(f.c, devs, 2);
    const rdx_uop *b = IR_OK(N(&f, RDX_OP_BUFFER, shape(&f, 8, 2, 2), NULL, NULL, &a));
    ck_assert_int_eq(b->axis, 0);
    const int64_t perm[2] = { 1, 0 };
    ck_assert_int_eq(IR_OK(ints_node(&f, RDX_OP_PERMUTE, b, perm, 2))->axis, 1);
    const int64_t d3[3] = { 8, 1, 2 }, d4[2] = { 4, 4 };
    ck_assert_int_eq(IR_OK(N(&f, RDX_OP_RESHAPE, b, rdx_ir_shape(f.c, d3, 3), NULL, NULL))->axis,
                     0);
    /* [8,2] -> [4,4]: no output axis starts at offset 0 with size 8 */
    ck_assert_int_eq(IR_OK(N(&f, RDX_OP_RESHAPE, b, rdx_ir_shape(f.c, d4, 2), NULL, NULL))->axis,
                     -1);
    rdx_uop_arg r = rdx_uop_arg_none();
    const int64_t ax0[1] = { 0 }, ax1[1] = { 1 };
    r.ints = ax0, r.nints = 1;
    ck_assert_int_eq(IR_OK(N(&f, RDX_OP_REDUCE, b, NULL, NULL, &r))->axis, -1);
    r.ints = ax1;
    ck_assert_int_eq(IR_OK(N(&f, RDX_OP_REDUCE, b, NULL, NULL, &r))->axis, 0);
    ck_assert_int_eq(IR_OK(rdx_ir_add(f.c, b, b))->axis, 0);
    rdx_uop_arg l = rdx_uop_arg_none();
    l.device = rdx_ir_device(f.c, devs, 1);
    ck_assert_int_eq(IR_OK(N(&f, RDX_OP_LOAD, b, NULL, NULL, &l))->axis, -1); /* copy: none */
    rdx_ir_ctx_destroy(f.c);
}
END_TEST

/* The spec's gemm through the builders: (A.reshape(M,K,1) * B.reshape(1,K,N)).sum(1) */
START_TEST(builders_gemm_and_prefix_sum)
{
    rdx_ir_ctx *c = ir_ctx();
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32);
    const int64_t da[2] = { 4, 5 }, db[2] = { 5, 6 }, ra[3] = { 4, 5, 1 }, rb[3] = { 1, 5, 6 };
    const int64_t full[3] = { 4, 5, 6 }, ax1[1] = { 1 }, out[2] = { 4, 6 };
    const rdx_uop *A = IR_OK(rdx_ir_buffer(c, 0, f32, "AMD", da, 2));
    const rdx_uop *B = IR_OK(rdx_ir_buffer(c, 1, f32, "AMD", db, 2));
    const rdx_uop *prod =
        IR_OK(rdx_ir_mul(c, rdx_ir_expand(c, rdx_ir_reshape(c, A, ra, 3), full, 3),
                         rdx_ir_expand(c, rdx_ir_reshape(c, B, rb, 3), full, 3)));
    const rdx_uop *C =
        IR_OK(rdx_ir_reshape(c, rdx_ir_reduce(c, prod, RDX_RED_ADD, ax1, 1), out, 2));
    char d[256];
    ck_assert_str_eq(rdx_uop_describe(C, d, sizeof d),
                     "float32[4,6] device=AMD min_max=[-inf,inf]");
    /* the same graph as the data file */
    size_t len, n;
    char *t = rdx_test_read_file("tests/data/ir/gemm.uop", &len);
    const rdx_uop **r;
    ck_assert_int_eq(rdx_ir_parse(c, "gemm", t, len, &r, &n), RDX_OK);
    ck_assert_ptr_eq(r[0], C);
    free(r), free(t);
    /* prefix_sum, n = 4 */
    const int64_t d4[1] = { 4 }, o3[1] = { 3 }, s7[1] = { 7 }, s17[2] = { 1, 7 }, s57[2] = { 5, 7 };
    const int64_t s35[1] = { 35 }, o0[2] = { 0, 0 }, s32[1] = { 32 }, s48[2] = { 4, 8 };
    const int64_t s44[2] = { 4, 4 };
    const rdx_uop *T = IR_OK(rdx_ir_buffer(c, 0, f32, "AMD", d4, 1));
    const rdx_uop *x = rdx_ir_pad(c, T, o3, s7, 1);
    x = rdx_ir_expand(c, rdx_ir_reshape(c, x, s17, 2), s57, 2);
    x = rdx_ir_shrink(c, rdx_ir_reshape(c, x, s35, 1), o0, s32, 1);
    x = rdx_ir_shrink(c, rdx_ir_reshape(c, x, s48, 2), o0, s44, 2);
    x = IR_OK(rdx_ir_reduce(c, x, RDX_RED_ADD, ax1, 1));
    t = rdx_test_read_file("tests/data/ir/prefix_sum.uop", &len);
    ck_assert_int_eq(rdx_ir_parse(c, "prefix", t, len, &r, &n), RDX_OK);
    ck_assert_ptr_eq(r[0], x);
    free(r), free(t);
    /* PERMUTE, INDEX, STORE, SINK builders */
    const int64_t perm[2] = { 1, 0 };
    ck_assert_uint_eq(IR_OK(rdx_ir_permute(c, A, perm, 2))->shape[0]->arg.i, 5);
    const rdx_uop *i0 = IR_OK(rdx_ir_range(c, rdx_ir_int(c, 4), 0, RDX_AXIS_LOOP));
    const rdx_uop *ix = IR_OK(rdx_ir_index(c, A, &i0, 1));
    ck_assert_uint_eq(ix->ndim, 1);
    const rdx_uop *st = IR_OK(rdx_ir_store(c, ix, ix));
    ck_assert_int_eq(IR_OK(rdx_ir_sink(c, &st, 1))->op, RDX_OP_SINK);
    ck_assert_ptr_null(rdx_ir_reshape(c, A, s7, 1)); /* 20 elements into 7 */
    rdx_ir_ctx_destroy(c);
}
END_TEST

START_TEST(hash_consing)
{
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *x = IR_OK(rdx_ir_var(c, "x", 0, 9));
    const rdx_uop *a = IR_OK(rdx_ir_add(c, x, rdx_ir_int(c, 1)));
    size_t n = rdx_ir_node_count(c);
    const rdx_uop *b = IR_OK(rdx_ir_add(c, rdx_ir_var(c, "x", 0, 9), rdx_ir_int(c, 1)));
    ck_assert_ptr_eq(a, b);
    ck_assert_uint_eq(rdx_ir_node_count(c), n);
    ck_assert_ptr_ne(rdx_ir_var(c, "x", 0, 10), x); /* different arg */
    ck_assert_ptr_ne(rdx_ir_with_tag(c, a, 7), a);  /* different tag */
    ck_assert_ptr_eq(rdx_ir_with_tag(c, rdx_ir_with_tag(c, a, 7), 0), a);
    ck_assert_ptr_ne(rdx_ir_add(c, rdx_ir_int(c, 1), x), a); /* source order matters */
    /* float constants compare by bits: 0.0 and -0.0 differ, NaN equals itself */
    rdx_dtype f = rdx_dtype_of(RDX_FLOAT32);
    ck_assert_ptr_ne(rdx_ir_const_float(c, f, 0.0), rdx_ir_const_float(c, f, -0.0));
    ck_assert_ptr_eq(rdx_ir_const_float(c, f, NAN), rdx_ir_const_float(c, f, NAN));
    /* many nodes: table growth keeps identity */
    const rdx_uop *first = NULL;
    for (int i = 0; i < 20000; i++) {
        const rdx_uop *k = IR_OK(rdx_ir_int(c, i));
        if (i == 1234)
            first = k;
    }
    ck_assert_ptr_eq(rdx_ir_int(c, 1234), first);
    ck_assert_int_eq(first->arg.i, 1234);
    rdx_ir_ctx_destroy(c);
}
END_TEST

TCase *ir_tcase_derive(void)
{
    TCase *tc = tcase_create("derive");
    tcase_add_test(tc, sources);
    tcase_add_test(tc, movement);
    tcase_add_test(tc, reduce_call_memory_order);
    tcase_add_test(tc, elementwise);
    tcase_add_test(tc, codegen_and_vectors);
    tcase_add_test(tc, every_op_is_covered);
    tcase_add_test(tc, shard_axis);
    tcase_add_test(tc, builders_gemm_and_prefix_sum);
    tcase_add_test(tc, hash_consing);
    return tc;
}
