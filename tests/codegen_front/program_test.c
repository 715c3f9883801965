/* tests/codegen_front/program_test.c — PROGRAM(sink, LINEAR(INS ...)[, BINARY]) as a kernel
 * (rdx_codegen_program_kernel): the back end's own output assembles back to the same code
 * and prints/parses back to the same nodes; a hand-written INS kernel runs on the wave
 * emulator (expected values computed on the host); malformed programs are refused naming
 * the node. */
#include <stdlib.h>
#include <string.h>

#include <rdx/codeobj.h>
#include <rdx/realize.h>

#include "tests/codegen_front/cgf_test.h"
#include "util/error.h"

static const rdx_uop *parse1(rdx_ir_ctx *ctx, const char *text)
{
    const rdx_uop **r = NULL;
    size_t n = 0;
    rdx_status st = rdx_ir_parse(ctx, "<test>", text, strlen(text), &r, &n);
    ck_assert_msg(!st, "parse: %s", rdx_error_message());
    ck_assert_uint_eq(n, 1);
    const rdx_uop *u = r[0];
    free(r);
    return u;
}

static const rdx_uop *parse_file(rdx_ir_ctx *ctx, const char *path)
{
    char *text = rdx_test_read_file(path, NULL);
    const rdx_uop *u = parse1(ctx, text);
    free(text);
    return u;
}

static rdx_codeobj *read_co(const rdx_codegen_kernel *k)
{
    rdx_codeobj *co = NULL;
    ck_assert_msg(!rdx_codeobj_read(k->code_object, k->code_object_size, "k", &co), "%s",
                  rdx_error_message());
    ck_assert_uint_eq(co->num_kernels, 1);
    return co;
}

/* The back end's PROGRAM (structured INS) assembles to the same code and descriptor, and its
   text reads back as the same nodes. */
START_TEST(backend_program_roundtrip)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *sink = parse_file(ctx, "tests/data/codegen/lds_reduce.uop");
    rdx_codegen_options o;
    memset(&o, 0, sizeof o);
    o.keep_stages = 1u << RDX_CG_STAGE_ASM;
    o.name = "lds_reduce";
    rdx_codegen_kernel *k, *k2;
    const rdx_uop *prog;
    ck_assert_msg(!rdx_codegen_compile(ctx, sink, &o, &k), "%s", rdx_error_message());
    ck_assert_msg(!rdx_codegen_program(ctx, sink, k, &prog), "%s", rdx_error_message());
    const rdx_uop *lin = prog->src[1];
    int branches = 0;
    for (uint32_t i = 0; i < lin->nsrc; i++) {
        rdx_isa_inst in;
        branches += rdx_uop_ins(lin->src[i], &in) && in.opnd[0].kind == RDX_ISA_OPND_BRANCH;
    }
    ck_assert_int_gt(branches, 0); /* a loop: labels and branches */
    /* text round trip of every instruction the back end wrote */
    char *t = NULL;
    ck_assert_msg(!rdx_ir_print(&lin, 1, 0, &t), "%s", rdx_error_message());
    const rdx_uop *lin2 = parse1(ctx, t);
    ck_assert_msg(lin2 == lin, "the LINEAR read back differs:\n%s", t);
    free(t);
    /* assembled again, without the BINARY */
    const rdx_uop *src[2] = { sink, lin };
    const rdx_uop *p2 = rdx_ir_node(ctx, RDX_OP_PROGRAM, src, 2, NULL);
    ck_assert_ptr_nonnull(p2);
    ck_assert_msg(!rdx_codegen_program_kernel(ctx, p2, "lds_reduce", &k2), "%s",
                  rdx_error_message());
    rdx_codeobj *a = read_co(k), *b = read_co(k2);
    ck_assert_uint_eq(a->text_size, b->text_size);
    ck_assert_mem_eq(a->text, b->text, a->text_size);
    ck_assert_mem_eq(&a->kernels[0].kd, &b->kernels[0].kd, sizeof a->kernels[0].kd);
    ck_assert_uint_eq(k2->kernarg_size, k->kernarg_size);
    ck_assert_uint_eq(k2->nargs, k->nargs);
    ck_assert_str_eq(k2->symbol, "lds_reduce");
    /* the BINARY as it is: the same code object */
    rdx_codegen_kernel *k3;
    ck_assert_msg(!rdx_codegen_program_kernel(ctx, prog, NULL, &k3), "%s", rdx_error_message());
    ck_assert_uint_eq(k3->code_object_size, k->code_object_size);
    ck_assert_mem_eq(k3->code_object, k->code_object, k->code_object_size);
    ck_assert_str_eq(k3->symbol, "lds_reduce");
    rdx_codeobj_free(a);
    rdx_codeobj_free(b);
    rdx_codegen_kernel_free(k);
    rdx_codegen_kernel_free(k2);
    rdx_codegen_kernel_free(k3);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

/* y[i] = 2 x[i] + 1 (i < 200) written as INS: run on the wave emulator, checked on the host. */
START_TEST(hand_written_ins_kernel)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *prog = parse_file(ctx, "tests/data/codegen_front/axpb.uop");
    rdx_codegen_kernel *k;
    ck_assert_msg(!rdx_codegen_program_kernel(ctx, prog, "axpb", &k), "%s", rdx_error_message());
    ck_assert_uint_eq(k->nargs, 2);
    ck_assert_uint_eq(k->kernarg_size, 16);
    uint32_t grid[3], wg[3];
    ck_assert_int_eq(rdx_codegen_launch(k, NULL, 0, grid, wg), RDX_OK);
    ck_assert_uint_eq(grid[0], 256);
    ck_assert_uint_eq(wg[0], 64);
    float *x = calloc(256 + 16, sizeof *x), *y = calloc(256 + 16, sizeof *y);
    for (int i = 0; i < 256; i++)
        x[i] = (float)i * 0.25f - 7.0f, y[i] = -99.0f;
    uint64_t ptrs[2] = { (uint64_t)(uintptr_t)x, (uint64_t)(uintptr_t)y };
    size_t sizes[2] = { 256 * sizeof *x, 256 * sizeof *y };
    rdx_codegen_bindings bd;
    memset(&bd, 0, sizeof bd);
    bd.ptrs = ptrs, bd.nptrs = 2;
    ck_assert_msg(!rdx_realize_emu_run(k, &bd, sizes, 0, NULL), "%s", rdx_error_message());
    for (int i = 0; i < 256; i++)
        ck_assert_msg(y[i] == (i < 200 ? 2.0f * x[i] + 1.0f : -99.0f), "y[%d] = %g", i,
                      (double)y[i]);
    free(x);
    free(y);
    rdx_codegen_kernel_free(k);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

static void expect_error(const char *text, rdx_status want, const char *msg)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *prog = parse1(ctx, text);
    rdx_codegen_kernel *k = NULL;
    rdx_status st = rdx_codegen_program_kernel(ctx, prog, NULL, &k);
    ck_assert_msg(st == want, "got %d (%s), want %d", st, rdx_error_message(), want);
    ck_assert_msg(strstr(rdx_error_message(), msg), "got '%s'\nwant '%s'", rdx_error_message(),
                  msg);
    ck_assert_msg(strstr(rdx_error_message(), "PROGRAM node #"), "%s", rdx_error_message());
    ck_assert_ptr_null(k);
    rdx_ir_ctx_destroy(ctx);
}

#define SIG                                                                                  \
    "%c4 = CONST dtype=index value=4\n%c64 = CONST dtype=index value=64\n%sh = STACK %c64\n" \
    "%x = PARAM %sh slot=0 dtype=float32 addr=global\n%g = SPECIAL %c4 str=\"gidx0\"\n"      \
    "%l = SPECIAL %c64 str=\"lidx0\"\n%sig = SINK %x, %g, %l\n"
#define END "%e = INS asm=\"s_endpgm\"\n"

START_TEST(program_errors_named)
{
    expect_error(SIG "%b = INS asm=\"s_branch bb3\"\n%lin = LINEAR %b\n"
                     "%p = PROGRAM %sig, %lin\nreturn %p",
                 RDX_ERR_INVALID, "s_branch bb3: no INS label=3 in the LINEAR");
    expect_error(SIG "%b = INS asm=\"s_mov_b32 s0, s1\"\n%lin = LINEAR %b\n"
                     "%p = PROGRAM %sig, %lin\nreturn %p",
                 RDX_ERR_INVALID, "does not end in s_endpgm");
    expect_error(SIG END "%a = INS label=2\n%b = INS label=2\n%lin = LINEAR %a, %e, %b, %e\n"
                         "%p = PROGRAM %sig, %lin\nreturn %p",
                 RDX_ERR_INVALID, "label bb2 defined twice");
    expect_error(SIG END "%lin = LINEAR %e\n%p = PROGRAM %sig, %sig\nreturn %p", RDX_ERR_INVALID,
                 "expected PROGRAM(SINK, LINEAR[, BINARY]), got PROGRAM(SINK, SINK)");
    expect_error(SIG "%lin = LINEAR\n%p = PROGRAM %sig, %lin\nreturn %p", RDX_ERR_INVALID,
                 "no code: an empty LINEAR and no BINARY");
    expect_error("%c4 = CONST dtype=index value=4\n%sh = STACK %c4\n"
                 "%x = PARAM %sh slot=1 dtype=float32 addr=global\n%sig = SINK %x\n" END
                 "%lin = LINEAR %e\n%p = PROGRAM %sig, %lin\nreturn %p",
                 RDX_ERR_INVALID, "no PARAM of slot 0");
    expect_error("%c4 = CONST dtype=index value=4\n%sh = STACK %c4\n"
                 "%x = PARAM %sh slot=0 dtype=float32 addr=global\n"
                 "%r = RANGE %c4 axis=0 type=GLOBAL\n%ix = INDEX %x, %r\n"
                 "%f = CONST dtype=float32 value=1\n%st = STORE %ix, %f\n%en = END %st, %r\n"
                 "%sig = SINK %en\n" END "%lin = LINEAR %e\n%p = PROGRAM %sig, %lin\nreturn %p",
                 RDX_ERR_UNSUPPORTED, "is a GLOBAL axis");
    expect_error("%c4 = CONST dtype=index value=4\n%g = SPECIAL %c4 str=\"idx0\"\n"
                 "%sig = SINK %g\n" END "%lin = LINEAR %e\n%p = PROGRAM %sig, %lin\nreturn %p",
                 RDX_ERR_UNSUPPORTED, "SPECIAL node #");
    /* an instruction built by hand that the encoder refuses (a VGPR past v255) */
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *sig = parse1(ctx, SIG "return %sig");
    rdx_isa_inst in;
    memset(&in, 0, sizeof in);
    in.op = RDX_ISA_OP_V_ADD_F32, in.form = RDX_ISA_FORM_E32, in.nopnd = 3;
    in.opnd[0] = rdx_isa_vgpr(300, 1), in.opnd[1] = rdx_isa_vgpr(2, 1),
    in.opnd[2] = rdx_isa_vgpr(3, 1);
    rdx_isa_inst end;
    memset(&end, 0, sizeof end);
    end.op = RDX_ISA_OP_S_ENDPGM, end.form = RDX_ISA_FORM_NATIVE;
    rdx_uop_arg a = rdx_uop_arg_ins(&in), e = rdx_uop_arg_ins(&end);
    const rdx_uop *ins[2] = { rdx_ir_node(ctx, RDX_OP_INS, NULL, 0, &a),
                              rdx_ir_node(ctx, RDX_OP_INS, NULL, 0, &e) };
    const rdx_uop *lin = rdx_ir_node(ctx, RDX_OP_LINEAR, ins, 2, NULL);
    const rdx_uop *src[2] = { sig, lin };
    const rdx_uop *prog = rdx_ir_node(ctx, RDX_OP_PROGRAM, src, 2, NULL);
    ck_assert_ptr_nonnull(prog);
    rdx_codegen_kernel *k = NULL;
    ck_assert_int_ne(rdx_codegen_program_kernel(ctx, prog, NULL, &k), RDX_OK);
    char want[64];
    snprintf(want, sizeof want, "INS node #%u (LINEAR line 0, ", ins[0]->id);
    ck_assert_msg(strstr(rdx_error_message(), want), "%s", rdx_error_message());
    ck_assert_ptr_null(k);
    /* a BINARY whose descriptor disagrees with the sink: 2 buffers compiled, 3 declared */
    const rdx_uop *sink = parse_file(ctx, "tests/data/codegen/lds_reduce.uop");
    ck_assert_msg(!rdx_codegen_compile(ctx, sink, NULL, &k), "%s", rdx_error_message());
    rdx_uop_arg ba = rdx_uop_arg_none();
    ba.str = (const char *)k->code_object, ba.len = (uint32_t)k->code_object_size;
    const rdx_uop *sig3 = parse1(ctx, "%c4 = CONST dtype=index value=4\n%sh = STACK %c4\n"
                                      "%a = PARAM %sh slot=0 dtype=float32 addr=global\n"
                                      "%b = PARAM %sh slot=1 dtype=float32 addr=global\n"
                                      "%c = PARAM %sh slot=2 dtype=float32 addr=global\n"
                                      "%s = SINK %a, %b, %c\nreturn %s");
    const rdx_uop *bsrc[3] = { sig3, rdx_ir_node(ctx, RDX_OP_LINEAR, NULL, 0, NULL),
                               rdx_ir_node(ctx, RDX_OP_BINARY, NULL, 0, &ba) };
    rdx_codegen_kernel_free(k);
    k = NULL;
    prog = rdx_ir_node(ctx, RDX_OP_PROGRAM, bsrc, 3, NULL);
    ck_assert_ptr_nonnull(prog);
    ck_assert_int_eq(rdx_codegen_program_kernel(ctx, prog, NULL, &k), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "kernel descriptor of 'kernel' disagrees: kernarg "
                                              "segment of 16 bytes, the sink's 3 buffers need 24"),
                  "%s", rdx_error_message());
    ck_assert_ptr_null(k);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

TCase *cgf_tcase_program(void)
{
    TCase *tc = tcase_create("program");
    tcase_add_test(tc, backend_program_roundtrip);
    tcase_add_test(tc, hand_written_ins_kernel);
    tcase_add_test(tc, program_errors_named);
    tcase_set_timeout(tc, 60);
    return tc;
}
