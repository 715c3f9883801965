/* tests/codegen_front/gpudims_test.c — more GLOBAL axes than the GPU's 3 grid dimensions
 * (user SPLITs of GLOBAL axes into GLOBAL axes, with and without LOCAL, UPCAST and WARP axes):
 * the slowest share gidx2 and the results match the reference interpreter on the host
 * evaluator and the emulated GPU; the lowering (one SPECIAL per grid dimension); a
 * symbolic axis that would have to be divided out of gidx2 is refused with its axis. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/codegen_front/cgf_test.h"
#include "util/error.h"

#define F32 rdx_dtype_of(RDX_FLOAT32)
#define I32 rdx_dtype_of(RDX_INT32)

START_TEST(gpudims_merged_globals)
{
    uint64_t seed = 71;
    rdx_graph *g = cgf_graph();
    /* axes: 0 = 3 (LOOP: only the three innermost become GLOBAL), 1 = 6, 2 = 8, 3 = 10 */
    const rdx_tensor *x = cgf_random(g, I32, 4, (int64_t[]){ 3, 6, 8, 10 }, &seed);
    const rdx_tensor *t = rdx_tensor_add(g, rdx_tensor_mul(g, x, x), rdx_tensor_const(g, I32, 5));
    const cgf_seq seqs[] = {
        { { SPLIT(1, 2, GLOBAL) }, 1 },                      /* 4 GLOBAL axes */
        { { SPLIT(1, 3, GLOBAL), SPLIT(2, 4, GLOBAL) }, 2 }, /* 5 */
        { { SPLITTOP(1, 2, GLOBAL), SPLIT(3, 5, GLOBAL) }, 2 },
        { { SPLIT(1, 2, GLOBAL), SWAP(1, 4) }, 2 },          /* merged axes out of id order */
        { { SPLIT(1, 2, GLOBAL), SPLIT(2, 4, LOCAL) }, 2 },  /* with a workgroup */
        { { SPLIT(1, 2, GLOBAL), SPLIT(3, 2, UPCAST) }, 2 }, /* with an upcast */
        { { SPLIT(1, 3, GLOBAL), SPLIT(3, 5, WARP), SPLIT(2, 2, LOCAL) }, 3 },
    };
    cgf_run_seqs(g, t, seqs, sizeof seqs / sizeof *seqs, 1);
    /* floats and a reduction: out[a,b,c] = sum_k y[a,b,c,k], its three output axes split */
    const rdx_tensor *y = cgf_random(g, F32, 4, (int64_t[]){ 4, 6, 9, 7 }, &seed);
    const rdx_tensor *s = rdx_tensor_sum(g, y, 1, (int[]){ 3 }, 0);
    const cgf_seq red[] = {
        { { SPLIT(0, 2, GLOBAL), SPLIT(1, 3, GLOBAL) }, 2 }, /* 5 GLOBAL axes */
        { { SPLIT(0, 2, GLOBAL), SPLIT(2, 3, LOCAL) }, 2 },
    };
    cgf_run_seqs(g, s, red, sizeof red / sizeof *red, 1);
    rdx_graph_destroy(g);
}
END_TEST

/* The lowering: three grid dimensions, whatever the number of GLOBAL axes. */
START_TEST(gpudims_lowering)
{
    uint64_t seed = 72;
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_tensor *x = cgf_random(g, I32, 3, (int64_t[]){ 6, 8, 10 }, &seed);
    const rdx_tensor *t = rdx_tensor_add(g, x, rdx_tensor_const(g, I32, 1));
    const rdx_uop *k = cgf_kernel_of(g, t);
    rdx_opt o[2] = { SPLIT(0, 2, GLOBAL), SPLIT(1, 4, GLOBAL) };
    const rdx_uop *a, *b;
    ck_assert_msg(rdx_cg_apply_opts(ctx, k, o, 2, &a) == RDX_OK, "%s", rdx_error_message());
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t n, ng = 0;
    ck_assert_int_eq(rdx_cg_axes(a, ax, &n), RDX_OK);
    for (size_t i = 0; i < n; i++)
        ng += ax[i].type == RDX_AXIS_GLOBAL;
    ck_assert_uint_eq(ng, 5);
    ck_assert_msg(rdx_cg_expand(ctx, a, &b) == RDX_OK, "%s", rdx_error_message());
    char *txt = NULL;
    ck_assert_int_eq(rdx_ir_print(&b, 1, 0, &txt), RDX_OK);
    ck_assert_int_eq(cgf_count(txt, "SPECIAL"), 3);
    ck_assert_int_eq(cgf_count(txt, "\"gidx2\""), 1);
    ck_assert_int_eq(cgf_count(txt, "RANGE"), 0);
    /* axes 0 = 3, 1 = 2, 2 = 10, 3 = 2, 4 = 4: gidx0 = axis 4, gidx1 = axis 3, and gidx2 the
       other three, axis 2 fastest: 10 * 2 * 3 = 60; axis 2 = gidx2 % 10 */
    ck_assert_msg(strstr(txt, "value=60\n") != NULL, "gidx2's size 60 not in:\n%s", txt);
    ck_assert_int_eq(cgf_count(txt, "MOD"), 2); /* axes 2 and 1; axis 0 = gidx2 / 20 */
    free(txt);
    rdx_graph_destroy(g);
}
END_TEST

/* A symbolic axis merged into gidx2 other than as its slowest part is refused. */
START_TEST(gpudims_symbolic)
{
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_uop *nv = rdx_graph_var(g, "n", 1, 64);
    const rdx_uop *dims[3] = { rdx_ir_int(ctx, 6), nv, rdx_ir_int(ctx, 8) };
    const rdx_tensor *x = rdx_tensor_empty_sym(g, F32, 3, dims);
    const rdx_tensor *t = rdx_tensor_muls(g, x, 2);
    const rdx_uop *k = cgf_kernel_of(g, t);
    /* axes 0 = 3, 1 = n, 2 = 8, 3 = 2: gidx0 = axis 3, gidx1 = axis 2, gidx2 = axes 1 and 0 */
    rdx_opt o[1] = { SPLIT(0, 2, GLOBAL) };
    const rdx_uop *a, *b;
    ck_assert_msg(rdx_cg_apply_opts(ctx, k, o, 1, &a) == RDX_OK, "%s", rdx_error_message());
    ck_assert_int_eq(rdx_cg_expand(ctx, a, &b), RDX_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(rdx_error_message(), "GLOBAL axis 1 has a symbolic size") != NULL, "%s",
                  rdx_error_message());
    /* the symbolic axis as the slowest part of gidx2 is fine: run it for two sizes */
    const rdx_uop *dims2[3] = { nv, rdx_ir_int(ctx, 6), rdx_ir_int(ctx, 8) };
    const rdx_tensor *y = rdx_tensor_empty_sym(g, F32, 3, dims2);
    const rdx_tensor *u = rdx_tensor_adds(g, rdx_tensor_muls(g, y, 3), 1);
    rdx_opt o2[1] = { SPLIT(1, 2, GLOBAL) };
    static const int64_t vals[] = { 1, 5 };
    for (size_t i = 0; i < 2; i++) {
        int64_t v = vals[i];
        float *d = malloc((size_t)v * 48 * sizeof *d);
        for (int64_t e = 0; e < v * 48; e++)
            d[e] = (float)(e % 11) - 3.0f;
        ck_assert_int_eq(rdx_interp_bind(rdx_graph_interp(g), y, d, (size_t)v * 48 * 4), RDX_OK);
        free(d);
        cgf_run r = { 0 };
        r.mode = CGF_OPTS;
        r.opts = o2;
        r.nopts = 1;
        r.vars = &nv;
        r.varvals = &v;
        r.nvars = 1;
        r.on_emu = 1;
        cgf_check(g, &u, 1, &r);
    }
    rdx_graph_destroy(g);
}
END_TEST

/* A LOOP axis (the fourth output axis: the grid has three) around UPCAST axes: the copies of
   the store share one loop (one END of a GROUP), not one loop each; values unchanged on the
   host evaluator and the emulated GPU.  (Before: a conv2d of batch 8 was 16 loop nests, 41 KB
   of code and 25 ms to compile.) */
START_TEST(loop_around_upcasts_is_one_loop)
{
    uint64_t seed = 73;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, F32, 4, (int64_t[]){ 3, 6, 8, 10 }, &seed);
    const rdx_tensor *t = rdx_tensor_add(g, rdx_tensor_mul(g, x, x), rdx_tensor_const(g, F32, 5));
    const rdx_uop *k = cgf_kernel_of(g, t);
    const rdx_opt o[2] = { SPLIT(2, 2, UPCAST), SPLIT(3, 2, UPCAST) };
    const rdx_uop *opt = NULL, *exp = NULL;
    ck_assert_msg(!rdx_cg_apply_opts(rdx_graph_ir(g), k, o, 2, &opt), "%s", rdx_error_message());
    ck_assert_msg(!rdx_cg_expand(rdx_graph_ir(g), opt, &exp), "%s", rdx_error_message());
    const rdx_uop **order = NULL;
    size_t n = 0;
    ck_assert_int_eq(rdx_ir_toposort(exp, &order, &n), RDX_OK);
    int loops = 0, ends = 0, stores = 0;
    for (size_t i = 0; i < n; i++) {
        loops += order[i]->op == RDX_OP_RANGE && order[i]->arg.sub == RDX_AXIS_LOOP;
        ends += order[i]->op == RDX_OP_END;
        stores += order[i]->op == RDX_OP_STORE;
    }
    free(order);
    ck_assert_int_eq(loops, 1);
    ck_assert_int_eq(stores, 4);
    ck_assert_int_eq(ends, 1);
    const cgf_seq seqs[] = { { { SPLIT(2, 2, UPCAST), SPLIT(3, 2, UPCAST) }, 2 } };
    cgf_run_seqs(g, t, seqs, 1, 1);
    rdx_graph_destroy(g);
}
END_TEST

/* sin/cos over arguments that take every path of the reduction (small, the Cody-Waite
   range, the Payne-Hanek range up to float32's largest, ±0, subnormals, inf, NaN) on the
   emulated GPU against the interpreter: the compare steps of that integer arithmetic are not
   simplified with the kernel's index conditions (schedule_util.c), and the result must stay
   the same. */
START_TEST(trig_every_range_on_the_gpu)
{
    rdx_graph *g = cgf_graph();
    static const float v[] = {
        0.0f,    -0.0f,       1e-40f,      0.5f,     -1.25f,      3.14159265f, 100.0f,   -1234.5f,
        4096.0f, 65536.0f,    1e5f,        -3.5e6f,  1.6e7f,      1e9f,        -7.7e12f, 1e20f,
        3.0e30f, -1e35f,      3.4e38f,     -3.4e38f, INFINITY,    -INFINITY,   NAN,      201.06193f,
        1e-20f,  -8388609.0f, 12345678.0f, 2.5e-5f,  -6.2831855f, 1.5707964f,  3e4f,     -4.7e25f
    };
    const int64_t n = (int64_t)(sizeof v / sizeof *v);
    const rdx_tensor *x = rdx_tensor_from_data(g, F32, 1, &n, v);
    const rdx_tensor *ts[2] = { rdx_tensor_sin(g, x), rdx_tensor_cos(g, x) };
    for (int k = 0; k < 2; k++) {
        cgf_run r;
        memset(&r, 0, sizeof r);
        r.on_emu = 1;
        cgf_check(g, &ts[k], 1, &r);
    }
    rdx_graph_destroy(g);
}
END_TEST

TCase *cgf_tcase_gpudims(void)
{
    TCase *tc = tcase_create("gpudims");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, gpudims_merged_globals);
    tcase_add_test(tc, gpudims_lowering);
    tcase_add_test(tc, gpudims_symbolic);
    tcase_add_test(tc, loop_around_upcasts_is_one_loop);
    tcase_add_test(tc, trig_every_range_on_the_gpu);
    return tc;
}
