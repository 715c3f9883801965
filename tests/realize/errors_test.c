/* tests/realize/errors_test.c — bad input to rdx_tensor_realize_on /
 * rdx_realize_run: a clear error, nothing left allocated on the device (the
 * suite's ASan run checks host leaks), and the device and graph usable after. */
#include <stdlib.h>
#include <string.h>

#include "tests/realize/rz_test.h"

static void expect(rdx_status got, rdx_status want, const char *text)
{
    ck_assert_msg(got == want, "status %d, expected %d (%s)", got, want, rdx_error_message());
    ck_assert_msg(strstr(rdx_error_message(), text), "message '%s' lacks '%s'", rdx_error_message(),
                  text);
}

START_TEST(null_arguments)
{
    uint64_t seed = 31;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_tensor *a = rz_random(g, F32, 1, (int64_t[]){ 8 }, &seed);
    rdx_array out[2];
    expect(rdx_tensor_realize_on(g, NULL, &a, 1, NULL, out, NULL), RDX_ERR_INVALID, "no device");
    const rdx_tensor *two[2] = { a, NULL };
    expect(rdx_tensor_realize_on(g, dev, two, 2, NULL, out, NULL), RDX_ERR_INVALID,
           "tensor 1 is NULL");
    expect(rdx_tensor_realize_on(NULL, dev, &a, 1, NULL, out, NULL), RDX_ERR_INVALID, "no graph");
    expect(rdx_tensor_realize_on(g, dev, &a, 0, NULL, out, NULL), RDX_ERR_INVALID, "no tensors");
    rdx_realize_result *res = (rdx_realize_result *)1;
    expect(rdx_realize_run(rdx_graph_ir(g), NULL, NULL, &a, 1, NULL, &res), RDX_ERR_INVALID,
           "no device");
    ck_assert_ptr_null(res);
    expect(rdx_realize_run(NULL, NULL, dev, &a, 1, NULL, &res), RDX_ERR_INVALID, "no graph");
    rdx_realize_options wide = { .beam = 17 };
    expect(rdx_tensor_realize_on(g, dev, &a, 1, &wide, out, NULL), RDX_ERR_INVALID,
           "BEAM width 17");
    /* the graph and device still work */
    rz_check_free(g, dev, &a, 1, NULL, 0);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

START_TEST(graph_with_error)
{
    uint64_t seed = 32;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_tensor *a = rz_random(g, F32, 2, (int64_t[]){ 2, 3 }, &seed);
    const rdx_tensor *b = rz_random(g, F32, 2, (int64_t[]){ 4, 5 }, &seed);
    const rdx_tensor *bad = rdx_tensor_matmul(g, a, b);
    ck_assert_ptr_null(bad);
    rdx_array out;
    expect(rdx_tensor_realize_on(g, dev, &a, 1, NULL, &out, NULL), rdx_graph_status(g),
           "inner dimensions differ");
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

START_TEST(cannot_lower)
{
    uint64_t seed = 33;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_tensor *a = rz_random(g, F32, 1, (int64_t[]){ 8 }, &seed);
    /* BITCAST of bools that changes the item size: the interpreter computes it, the code
       generator refuses it, naming the op (other item size changes are lowered:
       semantics_test.c) */
    const rdx_tensor *bc = rdx_tensor_bitcast(
        g, rdx_tensor_cmpgt(g, a, rdx_tensor_const(g, F32, 0)), rdx_dtype_of(RDX_UINT16));
    ck_assert_ptr_nonnull(bc);
    rdx_array want, got;
    ck_assert_int_eq(rdx_tensor_realize(g, bc, &want), RDX_OK);
    rdx_realize_report *rep = (rdx_realize_report *)1;
    expect(rdx_tensor_realize_on(g, dev, &bc, 1, NULL, &got, &rep), RDX_ERR_UNSUPPORTED, "BITCAST");
    ck_assert_ptr_null(rep);
    /* with a good output next to it: still refused as a whole */
    const rdx_tensor *two[2] = { rdx_tensor_exp(g, a), bc };
    expect(rdx_tensor_realize_on(g, dev, two, 2, NULL, &got, NULL), RDX_ERR_UNSUPPORTED,
           "changes the item size");
    ck_assert_int_eq(rdx_graph_status(g), RDX_OK); /* not recorded in the graph */
    rz_check_free(g, dev, two, 1, NULL, 1e-5);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

START_TEST(variables)
{
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_uop *n = rdx_graph_var(g, "n", 1, 100);
    const rdx_tensor *x = rdx_tensor_empty_sym(g, F32, 1, &n);
    const rdx_tensor *y = rdx_tensor_muls(g, x, 3);
    rdx_array out;
    expect(rdx_tensor_realize_on(g, dev, &y, 1, NULL, &out, NULL), RDX_ERR_INVALID,
           "variable 'n' needs a value");
    const char *names[1] = { "n" };
    int64_t v = 101;
    rdx_realize_options o = { .var_names = names, .var_values = &v, .nvars = 1 };
    expect(rdx_tensor_realize_on(g, dev, &y, 1, &o, &out, NULL), RDX_ERR_INVALID,
           "outside [1, 100]");
    const char *other[1] = { "m" };
    rdx_realize_options om = { .var_names = other, .var_values = &v, .nvars = 1 };
    expect(rdx_tensor_realize_on(g, dev, &y, 1, &om, &out, NULL), RDX_ERR_INVALID,
           "variable 'n' needs a value");
    /* unbound data reads as zeros, as in the interpreter */
    v = 5;
    ck_assert_int_eq(rdx_tensor_realize_on(g, dev, &y, 1, &o, &out, NULL), RDX_OK);
    ck_assert_int_eq(out.numel, 5);
    for (int i = 0; i < 5; i++)
        ck_assert_float_eq(((float *)out.data)[i], 0.0f);
    /* bound data of the wrong size for n = 5 */
    float d[4] = { 1, 2, 3, 4 };
    ck_assert_int_eq(rdx_interp_bind(rdx_graph_interp(g), x, d, sizeof d), RDX_OK);
    expect(rdx_tensor_realize_on(g, dev, &y, 1, &o, &out, NULL), RDX_ERR_INVALID,
           "has 16 bytes of data, its shape needs 20");
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

START_TEST(timeout_mid_schedule)
{
    /* a dispatch that runs out of time (1 ms for a raw 2^18-element sum on one work-item
       per output): the error names the kernel; the queue and arena are gone, the device
       still runs the next realization */
    uint64_t seed = 34;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_tensor *x = rz_random(g, F32, 1, (int64_t[]){ 1 << 18 }, &seed);
    const rdx_tensor *s = rdx_tensor_sum(g, rdx_tensor_exp(g, x), 0, NULL, 0);
    rdx_realize_options o = { .raw = 1, .timeout_ms = 1 };
    rdx_array out;
    rdx_status st = rdx_tensor_realize_on(g, dev, &s, 1, &o, &out, NULL);
    ck_assert_msg(st == RDX_ERR_TIMEOUT || st == RDX_ERR_FAULT, "status %d (%s)", st,
                  rdx_error_message());
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "kernel 0"));
    const rdx_tensor *small = rdx_tensor_muls(g, rz_random(g, F32, 1, (int64_t[]){ 9 }, &seed), 2);
    rz_check_free(g, dev, &small, 1, NULL, 0);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

START_TEST(compare_helper)
{
    float a[3] = { 1, 2, 3 }, b[3] = { 1, 2.5f, 3 };
    int32_t i[3] = { 1, 2, 3 }, j[3] = { 1, 2, 4 };
    rdx_array A = { .dtype = F32, .ndim = 1, .dims = { 3 }, .numel = 3, .data = a };
    rdx_array B = A, I = A, J = A;
    B.data = b;
    I.dtype = J.dtype = I32;
    I.data = i;
    J.data = j;
    int64_t first = 7;
    ck_assert_int_eq(rdx_realize_compare(&A, &A, 0, &first), 0);
    ck_assert_int_eq(first, -1);
    ck_assert_int_eq(rdx_realize_compare(&A, &B, 1e-3, &first), 1);
    ck_assert_int_eq(first, 1);
    ck_assert_int_eq(rdx_realize_compare(&A, &B, 0.3, NULL), 0);
    ck_assert_int_eq(rdx_realize_compare(&I, &J, 0.5, &first), 1);
    ck_assert_int_eq(first, 2);
    ck_assert_int_eq(rdx_realize_compare(&A, &I, 1, NULL), 3); /* dtypes differ */
    J.numel = 2;
    ck_assert_int_eq(rdx_realize_compare(&I, &J, 0, NULL), 3);
}
END_TEST

/* A kernel-form kernel: o[i] = i for i < n; *var the DEFINE_VAR n. */
static const rdx_uop *iota_kernel(rdx_ir_ctx *ctx, const rdx_uop **var)
{
    static const char text[] = "%n = DEFINE_VAR name=\"n\" min=1 max=64\n%sh = STACK %n\n"
                               "%o = PARAM %sh slot=0 dtype=int32 addr=global\n"
                               "%i = RANGE %n axis=0 type=GLOBAL\n%v = CAST %i dtype=int32\n"
                               "%x = INDEX %o, %i\n%st = STORE %x, %v\n%e = END %st, %i\n"
                               "%k = SINK %e\nreturn %k\n";
    const rdx_uop **roots = NULL;
    size_t n = 0;
    ck_assert_int_eq(rdx_ir_parse(ctx, "<t>", text, strlen(text), &roots, &n), RDX_OK);
    const rdx_uop *k = roots[0];
    free(roots);
    ck_assert_int_eq(rdx_ir_toposort(k, &roots, &n), RDX_OK);
    *var = NULL;
    for (size_t i = 0; i < n; i++)
        if (roots[i]->op == RDX_OP_DEFINE_VAR)
            *var = roots[i];
    free(roots);
    ck_assert_ptr_nonnull(*var);
    return k;
}

/* rdx_realize_emu_run: bad arguments, unbound arguments, memory outside the registered sizes. */
START_TEST(emu_run_args)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *var;
    rdx_codegen_kernel *k = NULL;
    ck_assert_int_eq(rdx_codegen_compile(ctx, iota_kernel(ctx, &var), NULL, &k), RDX_OK);
    int32_t out[40];
    memset(out, 0xff, sizeof out);
    uint64_t ptr = (uint64_t)(uintptr_t)out;
    int64_t forty = 40;
    size_t size = sizeof out, small = 100;
    rdx_codegen_bindings b = { .ptrs = &ptr, .nptrs = 1, .vars = &var, .vals = &forty, .nvals = 1 };
    expect(rdx_realize_emu_run(NULL, &b, &size, 0, NULL), RDX_ERR_INVALID, "NULL kernel");
    expect(rdx_realize_emu_run(k, NULL, &size, 0, NULL), RDX_ERR_INVALID, "NULL bindings");
    expect(rdx_realize_emu_run(k, &b, NULL, 0, NULL), RDX_ERR_INVALID, "NULL buffer sizes");
    b.nvals = 0;
    expect(rdx_realize_emu_run(k, &b, &size, 0, NULL), RDX_ERR_INVALID, "variable 'n'");
    b.nvals = 1;
    /* 100 of the 160 bytes the kernel writes registered: a fault, out unchanged past them */
    ck_assert_int_ne(rdx_realize_emu_run(k, &b, &small, 0, NULL), RDX_OK);
    ck_assert_msg(strstr(rdx_error_message(), "VM fault: write"), "%s", rdx_error_message());
    ck_assert_int_eq(out[39], -1);
    rdx_realize_emu_stats es = { 0, 0, 0, 0 };
    ck_assert_msg(!rdx_realize_emu_run(k, &b, &size, 0, &es), "%s", rdx_error_message());
    for (int i = 0; i < 40; i++)
        ck_assert_int_eq(out[i], i);
    ck_assert_uint_gt(es.cycles, 0);
    ck_assert_uint_gt(es.wave_insts, 0);
    ck_assert_uint_gt(es.kernel_cycles, 0);
    rdx_codegen_kernel_free(k);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

/* rdx_realize_beam_timer_create: bad arguments, and a candidate's own error passed on. */
START_TEST(beam_timer_args)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    rdx_device *dev = rz_device();
    rdx_cg_timer fn = NULL;
    rdx_realize_beam_timer *t = (rdx_realize_beam_timer *)1;
    expect(rdx_realize_beam_timer_create(NULL, NULL, NULL, NULL, NULL, 0, 0, &fn, &t),
           RDX_ERR_INVALID, "NULL IR context");
    expect(rdx_realize_beam_timer_create(ctx, dev, NULL, NULL, NULL, 0, 0, &fn, &t),
           RDX_ERR_INVALID, "got a device without a queue");
    expect(rdx_realize_beam_timer_create(ctx, NULL, NULL, NULL, NULL, 2, 0, &fn, &t),
           RDX_ERR_INVALID, "2 variables without their nodes");
    ck_assert_ptr_eq(t, (rdx_realize_beam_timer *)1); /* untouched on error */
    const rdx_uop *var, *k = iota_kernel(ctx, &var);
    /* no value for n: the candidate fails with the reason */
    double cost = -1;
    ck_assert_int_eq(rdx_realize_beam_timer_create(ctx, NULL, NULL, NULL, NULL, 0, 0, &fn, &t),
                     RDX_OK);
    ck_assert_int_ne(fn(k, t, 0, &cost), RDX_OK);
    ck_assert_msg(strstr(rdx_error_message(), "dimension 0 of PARAM slot 0") &&
                      strstr(rdx_error_message(), "has no value"),
                  "%s", rdx_error_message());
    rdx_realize_beam_timer_free(t);
    /* n = 40: timed on the wave emulator */
    int64_t forty = 40;
    ck_assert_int_eq(rdx_realize_beam_timer_create(ctx, NULL, NULL, &var, &forty, 1, 0, &fn, &t),
                     RDX_OK);
    ck_assert_msg(fn(k, t, 0, &cost) == RDX_OK, "%s", rdx_error_message());
    ck_assert(cost > 0);
    /* the emulator's target: a named one is used (gfx1151 runs), an unknown one fails the
       candidate with the compiler's message */
    expect(rdx_realize_beam_timer_set_target(t, NULL), RDX_ERR_INVALID, "NULL target");
    expect(rdx_realize_beam_timer_set_target(NULL, "gfx1151"), RDX_ERR_INVALID, "NULL timer");
    ck_assert_int_eq(rdx_realize_beam_timer_set_target(t, "gfx1151"), RDX_OK);
    ck_assert_msg(fn(k, t, 0, &cost) == RDX_OK, "%s", rdx_error_message());
    ck_assert_int_eq(rdx_realize_beam_timer_set_target(t, "gfx1030"), RDX_OK);
    ck_assert_int_ne(fn(k, t, 0, &cost), RDX_OK);
    ck_assert_msg(strstr(rdx_error_message(), "'gfx1030'"), "%s", rdx_error_message());
    rdx_realize_beam_timer_free(t);
    rdx_realize_beam_timer_free(NULL);
    rz_device_close(dev);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

TCase *rz_tcase_errors(void)
{
    TCase *tc = tcase_create("errors");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, null_arguments);
    tcase_add_test(tc, graph_with_error);
    tcase_add_test(tc, cannot_lower);
    tcase_add_test(tc, variables);
    tcase_add_test(tc, timeout_mid_schedule);
    tcase_add_test(tc, compare_helper);
    tcase_add_test(tc, beam_timer_args);
    tcase_add_test(tc, emu_run_args);
    return tc;
}
