/* tests/realize/program_test.c — a tensor program that calls a kernel written as machine
 * instructions (CALL of a PROGRAM of INS, rdx_tensor_call_program): its argument computed by
 * an earlier kernel of the same schedule, its result read by a later one; the expected values
 * are computed on the host (the interpreter cannot run INS).  Bad calls are refused naming
 * the node. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>

#include "tests/realize/rz_test.h"
#include "util/error.h"

/* y[i] = 2 x[i] + 1 for i < 200 of 256 (tests/data/codegen_front/axpb.uop) */
static const rdx_uop *axpb(rdx_graph *g)
{
    char *text = rdx_test_read_file("tests/data/codegen_front/axpb.uop", NULL);
    const rdx_uop **r = NULL;
    size_t n = 0;
    rdx_status st = rdx_ir_parse(rdx_graph_ir(g), "axpb.uop", text, strlen(text), &r, &n);
    ck_assert_msg(!st, "%s", rdx_error_message());
    free(text);
    const rdx_uop *p = r[0];
    free(r);
    return p;
}

START_TEST(call_hand_written_kernel)
{
    rdx_device *dev = rz_device_arch("gfx1100"); /* the kernel is gfx1100 code */
    rdx_graph *g = rz_graph();
    float xv[256];
    for (int i = 0; i < 256; i++)
        xv[i] = (float)(i % 37) * 0.5f - 4.0f;
    const rdx_tensor *x = rdx_tensor_from_data(g, F32, 1, (int64_t[]){ 256 }, xv);
    const rdx_tensor *y = rdx_tensor_empty(g, F32, 1, (int64_t[]){ 256 });
    /* the argument is computed by a kernel before the call, the result used after it */
    const rdx_tensor *x3 = rdx_tensor_mul(g, x, rdx_tensor_const(g, F32, 3));
    const rdx_tensor *args[2] = { x3, y };
    const rdx_tensor *called = rdx_tensor_call_program(g, axpb(g), args, 2, 1);
    ck_assert_msg(called, "%s", rdx_graph_error(g));
    const rdx_tensor *z = rdx_tensor_add(g, called, rdx_tensor_const(g, F32, 1));
    const rdx_tensor *roots[2] = { z, called };
    rdx_array out[2];
    rdx_realize_report *rep = NULL;
    ck_assert_msg(!rdx_tensor_realize_on(g, dev, roots, 2, NULL, out, &rep), "%s",
                  rdx_error_message());
    int prog = 0;
    for (size_t k = 0; k < rep->nkernels; k++)
        prog += !strncmp(rep->kernels[k].name, "program_", 8);
    ck_assert_int_eq(prog, 1);
    ck_assert_uint_ge(rep->nkernels, 3); /* x*3, the program, +1 */
    const float *zv = out[0].data, *cv = out[1].data;
    for (int i = 0; i < 256; i++) {
        float want = i < 200 ? 2.0f * (xv[i] * 3.0f) + 1.0f : 0.0f; /* y starts zero */
        ck_assert_msg(cv[i] == want, "called[%d] = %g, want %g", i, (double)cv[i], (double)want);
        ck_assert_msg(zv[i] == want + 1.0f, "z[%d] = %g, want %g", i, (double)zv[i],
                      (double)(want + 1.0f));
    }
    /* the interpreter cannot run machine code: it says so, naming the CALL */
    rdx_array a;
    ck_assert_int_eq(rdx_tensor_realize(g, z, &a), RDX_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(rdx_error_message(), "machine code, which the interpreter cannot run"),
                  "%s", rdx_error_message());
    rdx_realize_report_free(rep);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

/* A foreign code object (assembled from text with its own .amdhsa_kernel descriptor, as clang
   or llvm-mc would write it) wrapped in PROGRAM(sink, LINEAR(), BINARY) and called the same
   way; a descriptor that disagrees with the sink is refused naming the PROGRAM. */
static const char *const axpb_asm =
    ".amdgcn_target \"amdgcn-amd-amdhsa--gfx1100\"\n"
    ".text\n.globl axpb\n.p2align 8\naxpb:\n"
    "  s_load_b128 s[4:7], s[0:1], 0x0\n"
    "  v_and_b32 v0, 0x3ff, v0\n"
    "  s_lshl_b32 s2, s2, 6\n" /* 2 user SGPRs: the workgroup id x in s2 */
    "  v_add_nc_u32 v1, s2, v0\n"
    "  v_cmp_gt_u32 vcc_lo, 0xc8, v1\n"
    "  s_and_saveexec_b32 s9, vcc_lo\n"
    "  s_cbranch_execz .Ldone\n"
    "  v_lshlrev_b32 v1, 2, v1\n"
    "  s_waitcnt lgkmcnt(0)\n"
    "  global_load_b32 v2, v1, s[4:5]\n"
    "  s_waitcnt vmcnt(0)\n"
    "  v_fma_f32 v2, v2, 2.0, 1.0\n"
    "  global_store_b32 v1, v2, s[6:7]\n"
    ".Ldone:\n  s_endpgm\n"
    ".rodata\n.p2align 6\n.amdhsa_kernel axpb\n"
    ".amdhsa_user_sgpr_kernarg_segment_ptr 1\n.amdhsa_system_sgpr_workgroup_id_x 1\n"
    ".amdhsa_kernarg_size %d\n.amdhsa_next_free_vgpr 4\n.amdhsa_next_free_sgpr 12\n"
    ".amdhsa_wavefront_size32 1\n.end_amdhsa_kernel\n";

static const rdx_uop *binary_program(rdx_graph *g, int kernarg_size)
{
    char text[2048];
    snprintf(text, sizeof text, axpb_asm, kernarg_size);
    rdx_asm_result *r = NULL;
    uint8_t *co = NULL;
    size_t len = 0;
    ck_assert_msg(!rdx_asm_assemble(text, strlen(text), NULL, &r), "%s", rdx_error_message());
    ck_assert_msg(!rdx_asm_write_codeobj(r, &co, &len), "%s", rdx_error_message());
    rdx_asm_free(r);
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_uop *prog = axpb(g); /* its sink: the signature and launch */
    rdx_uop_arg ba = rdx_uop_arg_none();
    ba.str = (const char *)co, ba.len = (uint32_t)len;
    const rdx_uop *src[3] = { prog->src[0], rdx_ir_node(ctx, RDX_OP_LINEAR, NULL, 0, NULL),
                              rdx_ir_node(ctx, RDX_OP_BINARY, NULL, 0, &ba) };
    free(co);
    const rdx_uop *p = rdx_ir_node(ctx, RDX_OP_PROGRAM, src, 3, NULL);
    ck_assert_msg(p, "%s", rdx_error_message());
    return p;
}

START_TEST(call_foreign_code_object)
{
    rdx_device *dev = rz_device_arch("gfx1100"); /* the kernel is gfx1100 code */
    rdx_graph *g = rz_graph();
    float xv[256];
    for (int i = 0; i < 256; i++)
        xv[i] = (float)i - 100.0f;
    const rdx_tensor *x = rdx_tensor_from_data(g, F32, 1, (int64_t[]){ 256 }, xv);
    const rdx_tensor *args[2] = { rdx_tensor_neg(g, x),
                                  rdx_tensor_empty(g, F32, 1, (int64_t[]){ 256 }) };
    const rdx_tensor *y = rdx_tensor_call_program(g, binary_program(g, 16), args, 2, 1);
    ck_assert_msg(y, "%s", rdx_graph_error(g));
    rdx_array out;
    ck_assert_msg(!rdx_tensor_realize_on(g, dev, &y, 1, NULL, &out, NULL), "%s",
                  rdx_error_message());
    const float *yv = out.data;
    for (int i = 0; i < 256; i++)
        ck_assert_msg(yv[i] == (i < 200 ? 2.0f * -xv[i] + 1.0f : 0.0f), "y[%d] = %g", i,
                      (double)yv[i]);
    /* a descriptor whose kernarg segment is too small for the sink's two buffers */
    args[1] = rdx_tensor_empty(g, F32, 1, (int64_t[]){ 256 });
    y = rdx_tensor_call_program(g, binary_program(g, 8), args, 2, 1);
    ck_assert_int_ne(rdx_tensor_realize_on(g, dev, &y, 1, NULL, &out, NULL), RDX_OK);
    ck_assert_msg(strstr(rdx_error_message(), "PROGRAM node #") &&
                      strstr(rdx_error_message(), "kernel descriptor of 'axpb' disagrees: "
                                                  "kernarg segment of 8 bytes"),
                  "%s", rdx_error_message());
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

START_TEST(call_errors)
{
    rdx_graph *g = rz_graph();
    const rdx_uop *p = axpb(g);
    const rdx_tensor *x = rdx_tensor_empty(g, F32, 1, (int64_t[]){ 256 });
    const rdx_tensor *y = rdx_tensor_empty(g, F32, 1, (int64_t[]){ 256 });
    const rdx_tensor *args[3] = { x, y, y };
    ck_assert_ptr_null(rdx_tensor_call_program(g, p, args, 3, 1));
    ck_assert_msg(strstr(rdx_graph_error(g), "CALL(") &&
                      strstr(rdx_graph_error(g), "the PROGRAM takes 2 buffers (PARAM slots 0..1), "
                                                 "the CALL passes 3"),
                  "%s", rdx_graph_error(g));
    rdx_graph_destroy(g);
    g = rz_graph();
    p = axpb(g);
    x = rdx_tensor_empty(g, rdx_dtype_of(RDX_INT32), 1, (int64_t[]){ 256 });
    y = rdx_tensor_empty(g, F32, 1, (int64_t[]){ 256 });
    args[0] = x, args[1] = y;
    ck_assert_ptr_null(rdx_tensor_call_program(g, p, args, 2, 1));
    ck_assert_msg(strstr(rdx_graph_error(g), "argument 0 is int32, the PROGRAM's PARAM slot 0 "
                                             "is float32"),
                  "%s", rdx_graph_error(g));
    rdx_graph_destroy(g);
    g = rz_graph();
    p = axpb(g);
    x = rdx_tensor_empty(g, F32, 1, (int64_t[]){ 100 });
    y = rdx_tensor_empty(g, F32, 1, (int64_t[]){ 256 });
    args[0] = x, args[1] = y;
    ck_assert_ptr_null(rdx_tensor_call_program(g, p, args, 2, 1));
    ck_assert_msg(strstr(rdx_graph_error(g), "argument 0 has 100 elements, the PROGRAM's PARAM "
                                             "slot 0 256"),
                  "%s", rdx_graph_error(g));
    rdx_graph_destroy(g);
    g = rz_graph();
    p = axpb(g);
    x = rdx_tensor_empty(g, F32, 1, (int64_t[]){ 256 });
    args[0] = x, args[1] = rdx_tensor_add(g, x, x);
    ck_assert_ptr_null(rdx_tensor_call_program(g, p, args, 2, 1));
    ck_assert_msg(strstr(rdx_graph_error(g), "argument 1 (the one written) is ADD node #"), "%s",
                  rdx_graph_error(g));
    rdx_graph_destroy(g);
}
END_TEST

/* examples/asm_kernel (make examples): the hand-written kernel between generated ones checks
 * itself against the interpreter's equivalent tensor program; a mismatch exits 1 */
START_TEST(example_asm_kernel)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/examples/asm_kernel", rdx_test_build_dir());
    const char *argv[] = { path, NULL };
    rdx_test_proc p;
    rdx_test_run(argv, NULL, 0, &p);
    ck_assert_msg(p.status == 0, "%s%s", p.out, p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "%6 = INS asm=\"s_cbranch_execz bb1\""));
    ck_assert_ptr_nonnull(strstr(p.out, "y     matches the interpreter's equivalent"));
    ck_assert_ptr_nonnull(strstr(p.out, "loss  matches the interpreter's equivalent"));
    rdx_test_proc_free(&p);
}
END_TEST

TCase *rz_tcase_program(void)
{
    TCase *tc = tcase_create("program");
    tcase_add_test(tc, call_hand_written_kernel);
    tcase_add_test(tc, call_foreign_code_object);
    tcase_add_test(tc, call_errors);
    tcase_add_test(tc, example_asm_kernel);
    tcase_set_timeout(tc, 120);
    return tc;
}
