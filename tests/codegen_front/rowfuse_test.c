/* tests/codegen_front/rowfuse_test.c — row fusion (codegen/schedule.c, rangeify.c): row
 * reductions read through a broadcast are inlined into their elementwise consumer when
 * there are enough rows of bounded length (softmax, layernorm: one kernel), else
 * materialised (few rows, long rows, a root output, a consumer that would recompute
 * them); the fused kernel's rows are GLOBAL and its columns LOOP.  Expand's grouped
 * reductions sharing the lanes of a LOCAL axis (codegen/expand.c) on hand-chosen opts,
 * and its refusals.  Every result against the reference interpreter (host evaluator and
 * the emulated GPU). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/codegen_front/cgf_test.h"

#define F32 rdx_dtype_of(RDX_FLOAT32)

static size_t nkernels(rdx_graph *g, const rdx_tensor *const *roots, size_t n)
{
    rdx_schedule *s = NULL;
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(roots[i] != NULL, "%s", rdx_graph_error(g));
    ck_assert_msg(rdx_cg_schedule(rdx_graph_ir(g), roots, n, &s) == RDX_OK, "%s",
                  rdx_error_message());
    size_t k = s->nkernels;
    rdx_schedule_free(s);
    return k;
}

/* Raw and heuristic opts against the interpreter: on the host evaluator for small
   tensors (it re-evaluates a row's reductions for every column: quadratic), on the
   emulated GPU always; the schedule's kernel count. */
static size_t check_all(rdx_graph *g, const rdx_tensor *const *roots, size_t n, double tol)
{
    int64_t numel = 1, d;
    for (uint32_t k = 0; k < roots[0]->ndim; k++)
        numel *= rdx_uop_dim(roots[0], k, &d) ? d : 1 << 20;
    size_t nk = 0;
    for (int e = numel <= 1024 ? 0 : 1; e <= 1; e++)
        for (int m = 0; m < 2; m++) {
            cgf_run r = { 0 };
            r.mode = m ? CGF_HEURISTIC : CGF_RAW;
            r.tol = tol;
            r.on_emu = e;
            cgf_check(g, roots, n, &r);
            ck_assert(!nk || r.nkernels == nk);
            nk = r.nkernels;
        }
    return nk;
}

/* cgf_run_seqs on the emulated GPU only (the host evaluator re-evaluates every lane's
   partials for each LDS read: too slow for these sizes) */
static void run_seqs_emu(rdx_graph *g, const rdx_tensor *t, const cgf_seq *seqs, size_t n,
                         double tol)
{
    for (size_t i = 0; i < n; i++) {
        cgf_run r = {
            .mode = CGF_OPTS, .opts = seqs[i].o, .nopts = seqs[i].n, .on_emu = 1, .tol = tol
        };
        cgf_check(g, &t, 1, &r);
        ck_assert_uint_eq(r.nkernels, 1);
    }
}

static const rdx_tensor *layernorm(rdx_graph *g, const rdx_tensor *x)
{
    return rdx_tensor_layernorm(g, x, 1, NULL, NULL, 1e-5);
}

/* x - mean(x) over the last axis */
static const rdx_tensor *center(rdx_graph *g, const rdx_tensor *x)
{
    return rdx_tensor_sub(g, x, rdx_tensor_mean(g, x, 1, (int[]){ -1 }, 1));
}

/* softmax, logsoftmax, layernorm, x - mean: one kernel from 64 rows on */
START_TEST(fused_patterns)
{
    uint64_t seed = 801;
    rdx_graph *g = cgf_graph();
    static const int64_t shapes[][2] = { { 64, 64 }, { 67, 13 }, { 96, 97 }, { 64, 256 } };
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        const rdx_tensor *x = cgf_random(g, F32, 2, shapes[i], &seed);
        const rdx_tensor *sm = rdx_tensor_softmax(g, x, -1);
        const rdx_tensor *ls = rdx_tensor_log_softmax(g, x, -1);
        const rdx_tensor *ln = layernorm(g, x);
        const rdx_tensor *ce = center(g, x);
        ck_assert_uint_eq(check_all(g, &sm, 1, 1e-5), 1);
        ck_assert_uint_eq(check_all(g, &ls, 1, 1e-5), 1);
        ck_assert_uint_eq(check_all(g, &ln, 1, 1e-4), 1);
        ck_assert_uint_eq(check_all(g, &ce, 1, 1e-5), 1);
    }
    rdx_graph_destroy(g);
}
END_TEST

/* The fused kernel: rows GLOBAL, columns LOOP (rdx_cg_axis_types keeps them), the
   reductions outside the column loop; with the heuristics a LOCAL column axis of the
   GROUP_REDUCE size (256: 8 waves per row, combined by expand's log-step tree), 4 columns
   and 4 elements per lane: the lane's whole share, kept in registers (ROW_REGS). */
START_TEST(fused_axes)
{
    uint64_t seed = 802;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 128, 1024 }, &seed);
    const rdx_uop *k = cgf_kernel_of(g, rdx_tensor_softmax(g, x, -1));
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t n;
    ck_assert_int_eq(rdx_cg_axes(k, ax, &n), RDX_OK);
    ck_assert_uint_eq(n, 4);
    ck_assert_int_eq(ax[0].type, RDX_AXIS_GLOBAL);
    ck_assert_int_eq(ax[0].size, 128);
    ck_assert_int_eq(ax[1].type, RDX_AXIS_LOOP);
    ck_assert_int_eq(ax[1].size, 1024);
    ck_assert_int_eq(ax[2].type, RDX_AXIS_REDUCE);
    ck_assert_int_eq(ax[3].type, RDX_AXIS_REDUCE);
    rdx_opt o[16];
    size_t no;
    ck_assert_int_eq(rdx_cg_heuristic(k, o, 16, &no), RDX_OK);
    char buf[256];
    rdx_opts_format(o, no, buf, sizeof buf);
    ck_assert_str_eq(buf, "SPLIT(1,4,UPCAST) SPLIT(1,256,LOCAL) SPLIT(2,4,UNROLL) "
                          "SPLIT(2,256,GROUP_REDUCE) SPLIT(3,4,UNROLL) "
                          "SPLIT(3,256,GROUP_REDUCE)");
    /* axis types are idempotent on it */
    const rdx_uop *k2;
    ck_assert_int_eq(rdx_cg_axis_types(rdx_graph_ir(g), k, &k2), RDX_OK);
    ck_assert_ptr_eq(k, k2);
    rdx_graph_destroy(g);
}
END_TEST

/* Not fused: a single row (no row axis for the grid), rows of more than 16384, a row reduction that
   is also a result, a reduction read inside another reduction's loop (a column sum of x - the row
   mean: the mean would be recomputed per column), a reduction of computed values only (arange's
   cumsum reads no buffer). */
START_TEST(not_fused)
{
    uint64_t seed = 803;
    rdx_graph *g = cgf_graph();
    /* few rows are fused too (issue 22: 8 x 33 and 3 x 1000 were three kernels) */
    static const int64_t few_shapes[][2] = { { 63, 40 }, { 8, 33 }, { 3, 1000 }, { 2, 7 } };
    for (size_t k = 0; k < 4; k++) {
        const rdx_tensor *few = cgf_random(g, F32, 2, few_shapes[k], &seed);
        const rdx_tensor *sm = rdx_tensor_softmax(g, few, -1);
        const rdx_tensor *ln = rdx_tensor_layernorm(g, few, 1, NULL, NULL, 1e-5);
        ck_assert_uint_eq(check_all(g, &sm, 1, 1e-5), 1);
        ck_assert_uint_eq(check_all(g, &ln, 1, 1e-4), 1);
    }
    const rdx_tensor *one = cgf_random(g, F32, 2, (int64_t[]){ 1, 40 }, &seed);
    const rdx_tensor *s1 = rdx_tensor_softmax(g, one, -1);
    ck_assert_uint_eq(check_all(g, &s1, 1, 1e-5), 3);
    const rdx_tensor *lng = rdx_tensor_empty(g, F32, 2, (int64_t[]){ 64, 16385 });
    const rdx_tensor *sl = rdx_tensor_softmax(g, lng, -1);
    ck_assert_uint_eq(nkernels(g, &sl, 1), 3);
    const rdx_tensor *ok = rdx_tensor_empty(g, F32, 2, (int64_t[]){ 64, 16384 });
    const rdx_tensor *so = rdx_tensor_softmax(g, ok, -1);
    ck_assert_uint_eq(nkernels(g, &so, 1), 1);
    /* the row max a result too: materialised (its kernel), the sum fused */
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 64, 48 }, &seed);
    const rdx_tensor *m = rdx_tensor_max(g, x, 1, (int[]){ 1 }, 1);
    const rdx_tensor *e = rdx_tensor_exp(g, rdx_tensor_sub(g, x, m));
    const rdx_tensor *roots[2] = { m,
                                   rdx_tensor_div(g, e, rdx_tensor_sum(g, e, 1, (int[]){ 1 }, 1)) };
    ck_assert_uint_eq(check_all(g, roots, 2, 1e-5), 2);
    /* column sums of x - row mean: the mean materialised */
    const rdx_tensor *cs = rdx_tensor_sum(g, center(g, x), 1, (int[]){ 0 }, 0);
    ck_assert_uint_eq(check_all(g, &cs, 1, 1e-4), 2);
    /* the row max read at two rows of each output (flipped): two copies in one kernel
       could round differently; materialised */
    const rdx_tensor *mx = rdx_tensor_max(g, x, 1, (int[]){ 1 }, 1);
    const rdx_tensor *fl =
        rdx_tensor_sub(g, rdx_tensor_sub(g, x, mx), rdx_tensor_flip(g, mx, 1, (int[]){ 0 }));
    ck_assert_uint_eq(check_all(g, &fl, 1, 1e-5), 2);
    /* arange (a cumsum of ones) broadcast over rows: materialised */
    const rdx_tensor *ar = rdx_tensor_cast(g, rdx_tensor_arange(g, 64), F32);
    const rdx_tensor *y = cgf_random(g, F32, 2, (int64_t[]){ 64, 64 }, &seed);
    const rdx_tensor *ya = rdx_tensor_add(g, y, ar);
    ck_assert_uint_eq(check_all(g, &ya, 1, 1e-5), 2);
    rdx_graph_destroy(g);
}
END_TEST

/* Chains: softmax of a softmax and layernorm then softmax (one kernel each: the inner
   result is recomputed from x in every reduction of the outer one), softmax over
   the first axis (rows are the columns: the fused kernel's row axis is the inner one),
   a 3-D softmax over the middle axis, and softmax and logsoftmax of one x as two results
   (each fused, not merged). */
START_TEST(fused_chains)
{
    uint64_t seed = 804;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 64, 96 }, &seed);
    const rdx_tensor *ss = rdx_tensor_softmax(g, rdx_tensor_softmax(g, x, -1), -1);
    ck_assert_uint_eq(check_all(g, &ss, 1, 1e-5), 1);
    const rdx_tensor *ls = rdx_tensor_softmax(g, layernorm(g, x), -1);
    ck_assert_uint_eq(check_all(g, &ls, 1, 1e-4), 1);
    const rdx_tensor *s0 = rdx_tensor_softmax(g, x, 0);
    ck_assert_uint_eq(check_all(g, &s0, 1, 1e-5), 1);
    const rdx_tensor *x3 = cgf_random(g, F32, 3, (int64_t[]){ 8, 32, 24 }, &seed);
    const rdx_tensor *s3 = rdx_tensor_softmax(g, x3, 1);
    ck_assert_uint_eq(check_all(g, &s3, 1, 1e-5), 1);
    /* a row sum of row sums: the inner sums are read inside the outer's loop (they
       would be recomputed per row element of every column): materialised */
    const rdx_tensor *y = cgf_random(g, F32, 3, (int64_t[]){ 64, 32, 32 }, &seed);
    const rdx_tensor *inner = rdx_tensor_sum(g, y, 1, (int[]){ 2 }, 1);
    const rdx_tensor *nest = rdx_tensor_sub(g, y, rdx_tensor_sum(g, inner, 1, (int[]){ 1 }, 1));
    ck_assert_uint_eq(check_all(g, &nest, 1, 1e-4), 2);
    const rdx_tensor *two[2] = { rdx_tensor_softmax(g, x, -1), rdx_tensor_log_softmax(g, x, -1) };
    ck_assert_uint_eq(check_all(g, two, 2, 1e-5), 2);
    rdx_graph_destroy(g);
}
END_TEST

/* Symbolic rows and row lengths bound to several values (1 included: one row, one
   column), raw and heuristic opts on the host evaluator and the emulated GPU. */
START_TEST(fused_symbolic)
{
    uint64_t seed = 805;
    rdx_graph *g = cgf_graph();
    const rdx_uop *r = rdx_graph_var(g, "r", 1, 512), *c = rdx_graph_var(g, "c", 1, 512);
    const rdx_uop *dims[2] = { r, c };
    const rdx_tensor *x = rdx_tensor_empty_sym(g, F32, 2, dims);
    const rdx_tensor *sm = rdx_tensor_softmax(g, x, -1);
    const rdx_tensor *ln = layernorm(g, x);
    ck_assert_uint_eq(nkernels(g, &sm, 1), 1);
    static const int64_t vals[][2] = { { 1, 1 }, { 7, 13 }, { 70, 33 } };
    for (size_t i = 0; i < 3; i++) {
        int64_t n = vals[i][0] * vals[i][1];
        float *d = malloc((size_t)n * sizeof *d);
        for (int64_t j = 0; j < n; j++)
            d[j] = (float)(cgf_rand(&seed) % 4001) / 1000.0f - 2.0f;
        ck_assert_int_eq(rdx_interp_bind(rdx_graph_interp(g), x, d, (size_t)n * sizeof(float)),
                         RDX_OK);
        free(d);
        const rdx_uop *vars[2] = { r, c };
        for (int t = 0; t < 2; t++) {
            const rdx_tensor *root = t ? ln : sm;
            cgf_run h = { .vars = vars, .varvals = vals[i], .nvars = 2, .tol = 1e-4 };
            h.on_emu = n > 1024; /* the host evaluator is quadratic in the row length */
            cgf_check(g, &root, 1, &h);
            h.mode = CGF_HEURISTIC;
            h.on_emu = 1;
            cgf_check(g, &root, 1, &h);
            ck_assert_uint_eq(h.nkernels, 1);
        }
    }
    rdx_graph_destroy(g);
}
END_TEST

/* Expand: grouped reductions sharing the lanes of the LOCAL column axis, on hand-chosen
   opts (softmax 64 x 64: axis 0 the rows, 1 the columns, 2 the max, 3 the sum). */
START_TEST(group_reduce_with_local)
{
    uint64_t seed = 806;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 64, 64 }, &seed);
    const rdx_tensor *sm = rdx_tensor_softmax(g, x, -1);
    static const cgf_seq seqs[] = {
        { { SPLIT(1, 32, LOCAL), SPLIT(2, 32, GROUP_REDUCE), SPLIT(3, 32, GROUP_REDUCE) }, 3 },
        { { SPLIT(1, 2, UPCAST), SPLIT(1, 32, LOCAL), SPLIT(2, 2, UNROLL),
            SPLIT(2, 32, GROUP_REDUCE), SPLIT(3, 2, UNROLL), SPLIT(3, 32, GROUP_REDUCE) },
          6 },
        /* only the max grouped: the sum is reduced whole by every lane */
        { { SPLIT(1, 16, LOCAL), SPLIT(2, 16, GROUP_REDUCE), SPLIT(3, 4, UNROLL) }, 3 },
        /* lanes for the reductions only: the columns stay a loop of each lane, stored by
           lane 0 alone */
        { { SPLIT(2, 64, GROUP_REDUCE), SPLIT(3, 64, GROUP_REDUCE) }, 2 },
    };
    run_seqs_emu(g, sm, seqs, sizeof seqs / sizeof *seqs, 1e-5);
    /* layernorm: mean and variance */
    const rdx_tensor *ln = layernorm(g, x);
    static const cgf_seq lseqs[] = {
        { { SPLIT(1, 8, LOCAL), SPLIT(2, 8, GROUP_REDUCE), SPLIT(3, 8, GROUP_REDUCE) }, 3 },
    };
    run_seqs_emu(g, ln, lseqs, 1, 1e-4);
    /* a small one on the host evaluator too */
    const rdx_tensor *xs = cgf_random(g, F32, 2, (int64_t[]){ 64, 8 }, &seed);
    static const cgf_seq sseqs[] = {
        { { SPLIT(1, 4, LOCAL), SPLIT(2, 4, GROUP_REDUCE), SPLIT(3, 4, GROUP_REDUCE) }, 3 },
    };
    cgf_run_seqs(g, rdx_tensor_softmax(g, xs, -1), sseqs, 1, 1);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(group_reduce_refusals)
{
    uint64_t seed = 807;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 64, 64 }, &seed);
    const rdx_uop *k = cgf_kernel_of(g, rdx_tensor_softmax(g, x, -1));
    rdx_opt a[3] = { SPLIT(1, 16, LOCAL), SPLIT(2, 32, GROUP_REDUCE) };
    cgf_expect_expand_error(g, k, a, 2, "shared with LOCAL axis 4 of size 16");
    rdx_opt b[2] = { SPLIT(2, 16, GROUP_REDUCE), SPLIT(3, 32, GROUP_REDUCE) };
    cgf_expect_expand_error(g, k, b, 2, "has 32 lanes, another 16");
    rdx_opt c[3] = { SPLIT(1, 2, LOCAL), SPLIT(1, 2, LOCAL), SPLIT(2, 2, GROUP_REDUCE) };
    cgf_expect_expand_error(g, k, c, 3, "only one LOCAL axis");
    /* a row sum grouped while its rows are LOCAL lanes: the REDUCE depends on them */
    const rdx_uop *k2 = cgf_kernel_of(g, rdx_tensor_sum(g, x, 1, (int[]){ 1 }, 0));
    rdx_opt d[2] = { SPLIT(0, 32, LOCAL), SPLIT(1, 32, GROUP_REDUCE) };
    cgf_expect_expand_error(g, k2, d, 2, "depends on LOCAL axis 2");
    /* a fourth output axis is a LOOP the reduction is inside of */
    const rdx_tensor *x5 = cgf_random(g, F32, 5, (int64_t[]){ 2, 2, 2, 2, 64 }, &seed);
    const rdx_uop *k3 = cgf_kernel_of(g, rdx_tensor_sum(g, x5, 1, (int[]){ 4 }, 0));
    rdx_opt e[1] = { SPLIT(4, 32, GROUP_REDUCE) };
    cgf_expect_expand_error(g, k3, e, 1, "depends on LOOP axis 0");
    rdx_graph_destroy(g);
}
END_TEST

TCase *cgf_tcase_rowfuse(void)
{
    TCase *tc = tcase_create("rowfuse");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, fused_patterns);
    tcase_add_test(tc, fused_axes);
    tcase_add_test(tc, not_fused);
    tcase_add_test(tc, fused_chains);
    tcase_add_test(tc, fused_symbolic);
    tcase_add_test(tc, group_reduce_with_local);
    tcase_add_test(tc, group_reduce_refusals);
    return tc;
}
