/*
 * tests/codegen_back/bind_args_test.c — rdx_codegen_bind_args: the kernarg
 * segment against the layout docs/codegen-kernel-form.md documents (PARAMs by
 * slot, then DEFINE_VARs by name; buffers 8 bytes, by-value scalars their
 * dtype's size, variables int32 when [min, max] fits it and int64 otherwise;
 * each aligned to its size; the segment rounded up to 8), worked out by hand
 * below, and the error for every kind of missing or wrong binding.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/codegen_back/cgb_test.h"

/* out[0] = p0 + p2 + p3 + p4 + p5 + a + b (as int64; p0 a bool, p2 a float16); without_half:
 * p0 + p0 + p3 + ..., so there is no p2 argument (p3 then sits at 16, not 18). */
static const rdx_uop *kernel(rdx_ir_ctx *ctx, int without_half)
{
    char text[2048];
    snprintf(text, sizeof text,
             "%%one = CONST dtype=index value=1\n%%sh = STACK %%one\n%%e0 = STACK\n"
             "%%a = DEFINE_VAR name=\"a\" min=0 max=2147483648\n"
             "%%b = DEFINE_VAR name=\"b\" min=-2147483648 max=2147483647\n"
             "%%p0 = PARAM %%e0 slot=0 dtype=bool\n"
             "%%O = PARAM %%sh slot=1 dtype=int64 addr=global\n"
             "%%p2 = PARAM %%e0 slot=2 dtype=float16\n"
             "%%p3 = PARAM %%e0 slot=3 dtype=int8\n"
             "%%p4 = PARAM %%e0 slot=4 dtype=int32\n"
             "%%p5 = PARAM %%e0 slot=5 dtype=int64\n"
             "%%i = RANGE %%one axis=0 type=GLOBAL\n"
             "%%c0 = CAST %%p0 dtype=int64\n%%f2 = CAST %%p2 dtype=float32\n"
             "%%c2 = CAST %%f2 dtype=int64\n%%c3 = CAST %%p3 dtype=int64\n"
             "%%c4 = CAST %%p4 dtype=int64\n%%ca = CAST %%a dtype=int64\n"
             "%%cb = CAST %%b dtype=int64\n%%s0 = ADD %%c0, %s\n%%s1 = ADD %%s0, %%c3\n"
             "%%s2 = ADD %%s1, %%c4\n%%s3 = ADD %%s2, %%p5\n%%s4 = ADD %%s3, %%ca\n"
             "%%s5 = ADD %%s4, %%cb\n%%x = INDEX %%O, %%i\n%%st = STORE %%x, %%s5\n"
             "%%e = END %%st, %%i\n%%k = SINK %%e\nreturn %%k\n",
             without_half ? "%c0" : "%c2");
    return cgb_parse_text(ctx, text);
}

/* The layout by the documented rules. */
static const struct {
    rdx_codegen_argkind kind;
    int64_t slot;
    uint32_t offset, size;
} want_args[] = {
    { RDX_CG_ARG_VALUE, 0, 0, 1 },  /* bool */
    { RDX_CG_ARG_BUFFER, 1, 8, 8 }, /* pointer, aligned to 8 */
    { RDX_CG_ARG_VALUE, 2, 16, 2 }, /* float16 */
    { RDX_CG_ARG_VALUE, 3, 18, 1 }, /* int8 */
    { RDX_CG_ARG_VALUE, 4, 20, 4 }, /* int32: 19 aligned to 4 */
    { RDX_CG_ARG_VALUE, 5, 24, 8 }, /* int64 */
    { RDX_CG_ARG_VAR, -1, 32, 8 },  /* a: max 2^31 does not fit int32 */
    { RDX_CG_ARG_VAR, -1, 40, 4 },  /* b: exactly int32's range */
};
enum { WANT_SEGMENT = 48 }; /* 44 rounded up to 8 */

/* The bound values. */
static const int64_t val_a = 2147483648ll, val_b = -2147483647ll - 1;
static const uint16_t half_3_5 = 0x4300; /* 3.5 as float16 */

typedef struct fixture {
    rdx_ir_ctx *ctx;
    rdx_codegen_kernel *k;
    int64_t out;
    uint64_t ptrs[2], values[6];
    const rdx_uop *vars[2];
    int64_t vals[2];
    rdx_codegen_bindings b;
} fixture;

static void setup(fixture *f)
{
    memset(f, 0, sizeof *f);
    ck_assert_int_eq(rdx_ir_ctx_create(&f->ctx), RDX_OK);
    ck_assert_msg(!rdx_codegen_compile(f->ctx, kernel(f->ctx, 0), NULL, &f->k), "%s",
                  rdx_error_message());
    ck_assert_uint_eq(f->k->nargs, 8);
    f->ptrs[1] = (uint64_t)(uintptr_t)&f->out;
    f->values[0] = 1;
    f->values[2] = half_3_5;
    f->values[3] = (uint64_t)(int64_t)-7; /* sign-extended, as the API says */
    f->values[4] = (uint64_t)(int64_t)-100000;
    f->values[5] = 0x0123456789abcdefull;
    /* by node, in the other order than the kernel's */
    f->vars[0] = f->k->args[7].node;
    f->vars[1] = f->k->args[6].node;
    f->vals[0] = val_b;
    f->vals[1] = val_a;
    f->b = (rdx_codegen_bindings){ .ptrs = f->ptrs,
                                   .nptrs = 2,
                                   .values = f->values,
                                   .nvalues = 6,
                                   .vars = f->vars,
                                   .vals = f->vals,
                                   .nvals = 2 };
}

static void teardown(fixture *f)
{
    rdx_codegen_kernel_free(f->k);
    rdx_ir_ctx_destroy(f->ctx);
}

/* The expected segment, byte by byte from the table above (little-endian). */
static void expected_segment(const fixture *f, uint8_t seg[WANT_SEGMENT])
{
    memset(seg, 0, WANT_SEGMENT);
    seg[0] = 1;
    for (int i = 0; i < 8; i++)
        seg[8 + i] = (uint8_t)(f->ptrs[1] >> (8 * i));
    seg[16] = 0x00, seg[17] = 0x43;
    seg[18] = 0xf9; /* -7 */
    uint32_t m = (uint32_t)-100000;
    for (int i = 0; i < 4; i++)
        seg[20 + i] = (uint8_t)(m >> (8 * i));
    for (int i = 0; i < 8; i++)
        seg[24 + i] = (uint8_t)(0x0123456789abcdefull >> (8 * i));
    seg[32 + 3] = 0x80, seg[32 + 4] = 0; /* a = 2^31: 00 00 00 80 00 00 00 00 */
    seg[40 + 3] = 0x80;                  /* b = -2^31 in 4 bytes: 00 00 00 80 */
}

START_TEST(bind_layout)
{
    fixture f;
    setup(&f);
    const rdx_codegen_kernel *k = f.k;
    ck_assert_uint_eq(k->nargs, sizeof want_args / sizeof want_args[0]);
    for (size_t a = 0; a < k->nargs; a++) {
        ck_assert_int_eq(k->args[a].kind, want_args[a].kind);
        ck_assert_int_eq(k->args[a].slot, want_args[a].slot);
        ck_assert_uint_eq(k->args[a].offset, want_args[a].offset);
        ck_assert_uint_eq(k->args[a].size, want_args[a].size);
    }
    ck_assert_str_eq(k->args[6].name, "a");
    ck_assert_str_eq(k->args[7].name, "b");
    ck_assert_uint_eq(k->kernarg_size, WANT_SEGMENT);

    uint8_t seg[WANT_SEGMENT], want[WANT_SEGMENT];
    memset(seg, 0xaa, sizeof seg); /* padding must come out zero */
    int64_t kv[8] = { 0 };
    size_t nkv = 99;
    ck_assert_msg(!rdx_codegen_bind_args(k, &f.b, seg, kv, &nkv), "%s", rdx_error_message());
    expected_segment(&f, want);
    for (int i = 0; i < WANT_SEGMENT; i++)
        ck_assert_msg(seg[i] == want[i], "byte %d: %02x, expected %02x", i, seg[i], want[i]);
    ck_assert_uint_eq(nkv, 2);
    ck_assert_int_eq(kv[0], val_a); /* kernarg order: a, then b */
    ck_assert_int_eq(kv[1], val_b);

    /* the same values in kernarg order give the same segment */
    int64_t in_order[2] = { val_a, val_b };
    rdx_codegen_bindings ordered = f.b;
    ordered.vars = NULL;
    ordered.vals = in_order;
    memset(seg, 0x55, sizeof seg);
    ck_assert_msg(!rdx_codegen_bind_args(k, &ordered, seg, NULL, NULL), "%s", rdx_error_message());
    ck_assert_mem_eq(seg, want, WANT_SEGMENT);
    /* out NULL: the bindings are only checked */
    ck_assert_int_eq(rdx_codegen_bind_args(k, &ordered, NULL, NULL, NULL), RDX_OK);
    teardown(&f);
}
END_TEST

/* The kernel reads what the segment holds: its sum, on the emulator, equals the host's. */
START_TEST(bind_run)
{
    fixture f;
    setup(&f);
    void *bufs[2] = { NULL, &f.out };
    size_t sizes[2] = { 0, sizeof f.out };
    int64_t in_order[2] = { val_a, val_b };
    rdx_codegen_kernel *k = NULL;
    f.out = 12345;
    ck_assert_msg(!cgb_run(f.ctx, kernel(f.ctx, 1), NULL, bufs, sizes, f.values, in_order, 2, &k),
                  "%s", rdx_error_message());
    /* without p2, p3 (int8) moves to offset 16, p4 stays at 20 */
    ck_assert_int_eq(k->args[2].slot, 3);
    ck_assert_uint_eq(k->args[2].offset, 16);
    ck_assert_uint_eq(k->args[3].offset, 20);
    rdx_codegen_kernel_free(k);
    ck_assert_int_eq(f.out, 1 + 1 + (-7) + (-100000) + 0x0123456789abcdefll + val_a + val_b);
    /* with p2: the int8 at offset 18 is byte 2 of the dword at 16 (SMEM ignores an offset's
       low bits), the float16 its low half; 3.5 truncates to 3 */
    f.out = 12345;
    ck_assert_msg(!cgb_run(f.ctx, kernel(f.ctx, 0), NULL, bufs, sizes, f.values, in_order, 2, &k),
                  "%s", rdx_error_message());
    ck_assert_uint_eq(k->args[3].offset, 18);
    rdx_codegen_kernel_free(k);
    ck_assert_int_eq(f.out, 1 + 3 + (-7) + (-100000) + 0x0123456789abcdefll + val_a + val_b);
    teardown(&f);
}
END_TEST

/* One failing binding: status st, message naming `needle`, nothing written. */
static void expect_fail(const fixture *f, const rdx_codegen_bindings *b, rdx_status st,
                        const char *needle)
{
    uint8_t seg[WANT_SEGMENT];
    memset(seg, 0xaa, sizeof seg);
    int64_t kv[8] = { -1, -1 };
    size_t nkv = 99;
    ck_assert_int_eq(rdx_codegen_bind_args(f->k, b, seg, kv, &nkv), st);
    ck_assert_msg(strstr(rdx_error_message(), needle), "'%s' lacks '%s'", rdx_error_message(),
                  needle);
    for (int i = 0; i < WANT_SEGMENT; i++)
        ck_assert_uint_eq(seg[i], 0xaa);
    ck_assert_int_eq(kv[0], -1);
    ck_assert_uint_eq(nkv, 99);
}

START_TEST(bind_errors)
{
    fixture f;
    setup(&f);
    rdx_codegen_bindings b = f.b;
    b.nptrs = 1; /* slot 1 out of the bound slots */
    expect_fail(&f, &b, RDX_ERR_INVALID, "PARAM slot 1 (int64 buffer)");
    b = f.b;
    f.ptrs[1] = 0; /* bound, but no address */
    expect_fail(&f, &b, RDX_ERR_INVALID, "PARAM slot 1 (int64 buffer): expected a nonzero");
    f.ptrs[1] = (uint64_t)(uintptr_t)&f.out;
    b.nvalues = 4; /* slots 4 and 5 unbound */
    expect_fail(&f, &b, RDX_ERR_INVALID, "PARAM slot 4 (int32 by value): expected a value");
    b = f.b;
    b.values = NULL;
    expect_fail(&f, &b, RDX_ERR_INVALID, "PARAM slot 0 (bool by value)");
    b = f.b;
    b.nvals = 1; /* only b has a value */
    expect_fail(&f, &b, RDX_ERR_INVALID, "variable 'a': no value");
    b = f.b;
    int64_t one[1] = { 5 };
    b.vars = NULL; /* kernarg order: one value for two variables */
    b.vals = one;
    b.nvals = 1;
    expect_fail(&f, &b, RDX_ERR_INVALID,
                "1 variable values given in kernarg order, the kernel "
                "takes 2");
    int64_t three[3] = { 5, 6, 7 };
    b.vals = three;
    b.nvals = 3;
    expect_fail(&f, &b, RDX_ERR_INVALID, "3 variable values given");
    b = f.b;
    f.vals[1] = -1; /* a below its min */
    expect_fail(&f, &b, RDX_ERR_RANGE,
                "variable 'a' = -1: expected a value in its range [0, "
                "2147483648]");
    f.vals[1] = val_a;
    f.vals[0] = 2147483648ll; /* b past int32 */
    expect_fail(&f, &b, RDX_ERR_RANGE, "variable 'b' = 2147483648");
    f.vals[0] = val_b;
    b.vals = NULL;
    expect_fail(&f, &b, RDX_ERR_INVALID, "2 variable values bound, expected their array");
    b.vals = f.vals;
    ck_assert_int_eq(rdx_codegen_bind_args(NULL, &b, NULL, NULL, NULL), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "NULL kernel"));
    ck_assert_int_eq(rdx_codegen_bind_args(f.k, NULL, NULL, NULL, NULL), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "NULL bindings"));
    /* and with every value back in place it binds */
    ck_assert_int_eq(rdx_codegen_bind_args(f.k, &b, NULL, NULL, NULL), RDX_OK);
    teardown(&f);
}
END_TEST

/* A kernel with no arguments: an empty segment, nothing required. */
START_TEST(bind_empty)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    rdx_codegen_kernel *k = NULL;
    ck_assert_msg(
        !rdx_codegen_compile(ctx, cgb_parse_text(ctx, "%k = SINK\nreturn %k\n"), NULL, &k), "%s",
        rdx_error_message());
    ck_assert_uint_eq(k->nargs, 0);
    ck_assert_uint_eq(k->kernarg_size, 0);
    rdx_codegen_bindings b = { 0 };
    size_t nkv = 99;
    ck_assert_int_eq(rdx_codegen_bind_args(k, &b, NULL, NULL, &nkv), RDX_OK);
    ck_assert_uint_eq(nkv, 0);
    int64_t extra[1] = { 1 };
    b.vals = extra;
    b.nvals = 1;
    ck_assert_int_eq(rdx_codegen_bind_args(k, &b, NULL, NULL, NULL), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "the kernel takes 0"));
    rdx_codegen_kernel_free(k);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

TCase *cgb_tcase_bind(void)
{
    const TTest *const tests[] = { bind_layout, bind_run, bind_errors, bind_empty };
    TCase *tc = tcase_create("bind_args");
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
        tcase_add_test(tc, tests[i]);
    return tc;
}
