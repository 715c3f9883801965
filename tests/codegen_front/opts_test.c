/* tests/codegen_front/opts_test.c — every OptOp applied to sample kernels
 * keeps the result identical (host evaluation vs the interpreter); bad opts
 * are refused with a clear message; BEAM search with a toy timer: progress,
 * memory and file cache, result never worse and still correct. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/codegen_front/cgf_test.h"

#define F32 rdx_dtype_of(RDX_FLOAT32)
#define I32 rdx_dtype_of(RDX_INT32)

START_TEST(opts_elementwise)
{
    uint64_t seed = 11;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *a = cgf_random(g, F32, 2, (int64_t[]){ 48, 64 }, &seed);
    const rdx_tensor *b = cgf_random(g, F32, 2, (int64_t[]){ 64, 48 }, &seed);
    const rdx_tensor *t = rdx_tensor_add(g, rdx_tensor_mul(g, a, rdx_tensor_transpose(g, b, 0, 1)),
                                         rdx_tensor_const(g, F32, 1.5));
    /* axes: 0 = rows (48, GLOBAL), 1 = columns (64, GLOBAL) */
    const cgf_seq seqs[] = {
        { { SPLIT(1, 4, UPCAST) }, 1 },
        { { SPLIT(1, 32, LOCAL) }, 1 },
        { { SPLITTOP(0, 16, LOCAL) }, 1 },
        { { SPLIT(1, 16, LOCAL), SPLIT(0, 4, LOCAL), SPLIT(2, 2, UPCAST) }, 3 },
        { { PADTO(0, 20) }, 1 },
        { { PADTO(0, 20), SPLIT(0, 20, LOCAL) }, 2 },
        { { SWAP(0, 1) }, 1 },
        { { NOLOCALS, SPLIT(0, 3, UPCAST) }, 2 },
        { { SPLIT(1, 8, UPCAST), SPLIT(0, 16, LOCAL), SWAP(0, 1) }, 3 },
        { { SPLIT(0, 48, LOCAL) }, 1 },
    };
    cgf_run_seqs(g, t, seqs, sizeof seqs / sizeof *seqs, 0);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(opts_reduce)
{
    uint64_t seed = 12;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, I32, 2, (int64_t[]){ 37, 128 }, &seed);
    const rdx_tensor *t = rdx_tensor_sum(g, rdx_tensor_mul(g, x, x), 1, (int[]){ 1 }, 0);
    /* axes: 0 = rows (37, GLOBAL), 1 = reduce (128) */
    const cgf_seq seqs[] = {
        { { SPLIT(1, 4, UNROLL) }, 1 },
        { { SPLITTOP(1, 8, UNROLL) }, 1 },
        { { PADTO(1, 40) }, 1 },
        { { PADTO(1, 40), SPLIT(1, 8, UNROLL) }, 2 },
        { { PADTO(0, 32), SPLIT(0, 32, LOCAL) }, 2 },
        { { PADTO(0, 16), SPLIT(0, 16, LOCAL), SPLIT(1, 2, UNROLL), SPLIT(2, 4, UPCAST) }, 4 },
        { { SPLIT(1, 64, REDUCE) }, 1 },
        { { SPLIT(1, 2, REDUCE), SWAP(1, 2) }, 2 },
    };
    cgf_run_seqs(g, t, seqs, sizeof seqs / sizeof *seqs, 0);
    const rdx_tensor *xf = cgf_random(g, F32, 2, (int64_t[]){ 37, 128 }, &seed);
    const rdx_tensor *m = rdx_tensor_max(g, xf, 1, (int[]){ 1 }, 0);
    const cgf_seq ms[] = {
        { { PADTO(1, 48) }, 1 },
        { { PADTO(1, 48), SPLIT(1, 3, UNROLL) }, 2 },
        { { SPLIT(1, 8, UNROLL), PADTO(0, 8), SPLIT(0, 8, LOCAL) }, 3 },
    };
    cgf_run_seqs(g, m, ms, sizeof ms / sizeof *ms, 0);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(opts_group_reduce)
{
    uint64_t seed = 16;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, I32, 1, (int64_t[]){ 1000 }, &seed);
    const rdx_tensor *t = rdx_tensor_sum(g, x, 0, NULL, 0);
    /* axis 0 = the reduction (1000) */
    const cgf_seq seqs[] = {
        { { SPLIT(0, 8, GROUP_REDUCE) }, 1 },
        { { PADTO(0, 256), SPLIT(0, 256, GROUP_REDUCE) }, 2 },
        { { PADTO(0, 256), SPLIT(0, 64, GROUP_REDUCE), SPLIT(0, 4, UNROLL) }, 3 },
    };
    cgf_run_seqs(g, t, seqs, sizeof seqs / sizeof *seqs, 0);
    const rdx_tensor *xf = cgf_random(g, F32, 2, (int64_t[]){ 3, 640 }, &seed);
    const rdx_tensor *m = rdx_tensor_max(g, xf, 1, (int[]){ 1 }, 0);
    const cgf_seq ms[] = {
        { { SPLIT(1, 32, GROUP_REDUCE) }, 1 },
        { { SPLIT(1, 128, GROUP_REDUCE), SPLIT(1, 5, UNROLL) }, 2 },
    };
    cgf_run_seqs(g, m, ms, sizeof ms / sizeof *ms, 0);
    /* the heuristic picks a grouped reduction for a large sum */
    const rdx_tensor *big = cgf_random(g, F32, 1, (int64_t[]){ 5000 }, &seed);
    const rdx_tensor *bs = rdx_tensor_sum(g, big, 0, NULL, 0);
    rdx_schedule *s;
    ck_assert_int_eq(rdx_cg_schedule(rdx_graph_ir(g), &bs, 1, &s), RDX_OK);
    const rdx_uop *k;
    rdx_opt h[16];
    size_t nh;
    ck_assert_int_eq(rdx_cg_axis_types(rdx_graph_ir(g), s->kernels[0].sink, &k), RDX_OK);
    ck_assert_int_eq(rdx_cg_heuristic(k, h, 16, &nh), RDX_OK);
    ck_assert_uint_ge(nh, 2);
    ck_assert_int_eq(h[0].op, RDX_OPTOP_PADTO);
    ck_assert_int_eq(h[1].target, RDX_AXIS_GROUP_REDUCE);
    rdx_schedule_free(s);
    cgf_run hr = { 0 };
    hr.mode = CGF_HEURISTIC;
    hr.tol = 1e-4;
    cgf_check(g, &bs, 1, &hr);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(opts_matmul)
{
    uint64_t seed = 13;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *A = cgf_random(g, I32, 2, (int64_t[]){ 24, 20 }, &seed);
    const rdx_tensor *B = cgf_random(g, I32, 2, (int64_t[]){ 20, 16 }, &seed);
    const rdx_tensor *t = rdx_tensor_matmul(g, A, B);
    /* axes: 0 = M (24), 1 = N (16), 2 = K (20) */
    const cgf_seq seqs[] = {
        { { SPLIT(0, 8, LOCAL), SPLIT(1, 8, LOCAL) }, 2 },
        { { SPLIT(2, 4, UNROLL), SPLIT(0, 8, LOCAL), SPLIT(1, 4, LOCAL), SPLIT(1, 2, UPCAST) }, 4 },
        { { SPLIT(1, 4, UPCAST), SPLIT(0, 3, UPCAST), SPLIT(2, 5, UNROLL) }, 3 },
        { { PADTO(2, 32), SPLIT(2, 4, UNROLL) }, 2 },
        { { SWAP(0, 1), SPLIT(0, 4, LOCAL) }, 2 },
    };
    cgf_run_seqs(g, t, seqs, sizeof seqs / sizeof *seqs, 0);
    rdx_graph_destroy(g);
}
END_TEST

static void expect_opt_error(rdx_graph *g, const rdx_uop *k, rdx_opt o, rdx_status want,
                             const char *frag)
{
    const rdx_uop *out;
    rdx_status st = rdx_cg_apply_opts(rdx_graph_ir(g), k, &o, 1, &out);
    ck_assert_int_eq(st, want);
    ck_assert_msg(strstr(rdx_error_message(), frag), "message '%s' lacks '%s'", rdx_error_message(),
                  frag);
}

START_TEST(opts_errors)
{
    uint64_t seed = 14;
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 6, 10 }, &seed);
    const rdx_tensor *t = rdx_tensor_sum(g, x, 1, (int[]){ 1 }, 0);
    rdx_schedule *s;
    ck_assert_int_eq(rdx_cg_schedule(ctx, &t, 1, &s), RDX_OK);
    const rdx_uop *k;
    ck_assert_int_eq(rdx_cg_axis_types(ctx, s->kernels[0].sink, &k), RDX_OK);
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t n;
    ck_assert_int_eq(rdx_cg_axes(k, ax, &n), RDX_OK);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(ax[0].type, RDX_AXIS_GLOBAL);
    ck_assert_int_eq(ax[1].type, RDX_AXIS_REDUCE);
    expect_opt_error(g, k, (rdx_opt)SPLIT(0, 4, LOCAL), RDX_ERR_INVALID, "does not divide");
    expect_opt_error(g, k, (rdx_opt)SPLIT(1, 2, LOCAL), RDX_ERR_INVALID, "cannot come from");
    expect_opt_error(g, k, (rdx_opt)SPLIT(0, 2, UNROLL), RDX_ERR_INVALID, "cannot come from");
    expect_opt_error(g, k, (rdx_opt)SPLIT(5, 2, UPCAST), RDX_ERR_INVALID, "axis 5 of 2");
    expect_opt_error(g, k, (rdx_opt)SWAP(0, 1), RDX_ERR_INVALID, "differ in kind");
    expect_opt_error(g, k, (rdx_opt)PADTO(0, 0), RDX_ERR_INVALID, "multiple 0");
    rdx_opt tc = { RDX_OPTOP_TC, 1, 0, RDX_AXIS_WARP, 0 };
    expect_opt_error(g, k, tc, RDX_ERR_UNSUPPORTED, "TC: needs a kernel with two GLOBAL axes");
    rdx_opt two[2] = { NOLOCALS, SPLIT(0, 2, LOCAL) };
    const rdx_uop *out;
    ck_assert_int_eq(rdx_cg_apply_opts(ctx, k, two, 2, &out), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "LOCAL after NOLOCALS"));
    rdx_opt tc2[2] = { SPLIT(0, 2, UPCAST), tc };
    ck_assert_int_eq(rdx_cg_apply_opts(ctx, k, tc2, 2, &out), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "TC must be first"));
    ck_assert_str_eq(rdx_optop_name(RDX_OPTOP_PADTO), "PADTO");
    rdx_schedule_free(s);
    rdx_graph_destroy(g);
}
END_TEST

/* Consecutive SPLITs are composed into one rebuild of the kernel (optimize.c's split run).
   The same SPLITs with a PADTO that changes nothing (a multiple the axis already has)
   after each are rebuilt one by one (the run ends at any other opt): both give the same
   kernel node, and a bad SPLIT inside a run gives the message it gives alone. */
static const rdx_uop *apply_ok(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_opt *o, size_t n)
{
    const rdx_uop *out = NULL;
    rdx_status st = rdx_cg_apply_opts(ctx, k, o, n, &out);
    ck_assert_msg(st == RDX_OK, "apply: %s", rdx_error_message());
    return out;
}

static void same_as_one_by_one(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_opt *o, size_t n)
{
    rdx_opt sep[32];
    size_t m = 0;
    ck_assert_uint_le(2 * n, 32);
    for (size_t i = 0; i < n; i++) {
        sep[m++] = o[i];
        sep[m++] = (rdx_opt)PADTO(0, 1);
    }
    ck_assert_ptr_eq(apply_ok(ctx, k, o, n), apply_ok(ctx, k, sep, m));
}

START_TEST(opts_split_runs)
{
    uint64_t seed = 15;
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_tensor *A = cgf_random(g, F32, 2, (int64_t[]){ 64, 48 }, &seed);
    const rdx_tensor *B = cgf_random(g, F32, 2, (int64_t[]){ 48, 96 }, &seed);
    const rdx_uop *mm = cgf_kernel_of(g, rdx_tensor_matmul(g, A, B));
    /* axes: 0 = M (64, GLOBAL), 1 = N (96, GLOBAL), 2 = K (48, REDUCE) */
    const rdx_opt a[] = { SPLIT(1, 8, UPCAST), SPLIT(0, 4, UPCAST), SPLIT(2, 4, UNROLL),
                          SPLIT(0, 16, LOCAL), SPLIT(1, 4, LOCAL) };
    same_as_one_by_one(ctx, mm, a, 5);
    /* splits of the ranges a split made (inner and outer again, top splits), a swap */
    const rdx_opt b[] = { SPLIT(1, 32, LOCAL),  SPLIT(3, 4, UPCAST), SPLITTOP(1, 3, UPCAST),
                          SPLIT(4, 2, UPCAST),  SPLIT(2, 6, UNROLL), SPLIT(7, 2, UNROLL),
                          SPLITTOP(0, 2, LOCAL) };
    same_as_one_by_one(ctx, mm, b, 7);
    const rdx_opt c[] = { SPLIT(2, 3, REDUCE), SPLIT(2, 4, GROUP_REDUCE), SWAP(0, 1),
                          SPLIT(0, 2, UPCAST), SPLIT(4, 2, UNROLL) };
    same_as_one_by_one(ctx, mm, c, 5);
    /* a row kernel: two reductions, each grouped and unrolled, the columns upcast */
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 64, 256 }, &seed);
    const rdx_uop *sm = cgf_kernel_of(g, rdx_tensor_softmax(g, x, -1));
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t na;
    ck_assert_int_eq(rdx_cg_axes(sm, ax, &na), RDX_OK);
    ck_assert_uint_eq(na, 4); /* rows, columns, the two reductions */
    const rdx_opt d[] = { SPLIT(1, 4, UPCAST), SPLIT(1, 32, LOCAL),
                          SPLIT(2, 2, UNROLL), SPLIT(2, 32, GROUP_REDUCE),
                          SPLIT(3, 2, UNROLL), SPLIT(3, 32, GROUP_REDUCE) };
    same_as_one_by_one(ctx, sm, d, 6);
    /* a bad SPLIT in a run: the message it gives alone (the axes as the run sees them) */
    const rdx_opt bad[] = { SPLIT(1, 8, UPCAST), SPLIT(3, 3, UPCAST) };
    const rdx_uop *out;
    ck_assert_int_eq(rdx_cg_apply_opts(ctx, mm, bad, 2, &out), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "opt 1 SPLIT: 3 does not divide axis 3 of size 8"),
                  "message '%s'", rdx_error_message());
    const rdx_opt bad2[] = { SPLIT(1, 8, UPCAST), SPLIT(0, 4, LOCAL), SPLIT(4, 2, GROUP_REDUCE) };
    ck_assert_int_eq(rdx_cg_apply_opts(ctx, mm, bad2, 3, &out), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "opt 2 SPLIT: a GROUP_REDUCE axis cannot come from"),
                  "message '%s'", rdx_error_message());
    const rdx_opt bad3[] = { SPLIT(1, 8, UPCAST), SPLIT(4, 2, UPCAST) };
    ck_assert_int_eq(rdx_cg_apply_opts(ctx, mm, bad3, 2, &out), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "opt 1 SPLIT: axis 4 of 4"), "message '%s'",
                  rdx_error_message());
    rdx_graph_destroy(g);
}
END_TEST

/* Axis types: the three innermost LOOP output ranges of a 4-d kernel become GLOBAL ranges
   of the same ids and sizes, the outermost stays LOOP, the REDUCE range REDUCE: the kernel
   is the rangeified one with exactly those ranges substituted. */
START_TEST(axis_types_innermost_global)
{
    uint64_t seed = 16;
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_tensor *x = cgf_random(g, F32, 5, (int64_t[]){ 3, 4, 5, 6, 7 }, &seed);
    const rdx_tensor *t = rdx_tensor_sum(g, rdx_tensor_mul(g, x, x), 1, (int[]){ 4 }, 0);
    rdx_schedule *s;
    ck_assert_int_eq(rdx_cg_schedule(ctx, &t, 1, &s), RDX_OK);
    const rdx_uop *k = s->kernels[0].sink, *typed;
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t n;
    ck_assert_int_eq(rdx_cg_axes(k, ax, &n), RDX_OK);
    ck_assert_uint_eq(n, 5);
    const rdx_uop *from[3], *to[3];
    size_t nf = 0;
    for (size_t i = n; i-- > 0 && nf < 3;)
        if (ax[i].type == RDX_AXIS_LOOP) {
            from[nf] = ax[i].range;
            to[nf++] = rdx_ir_range(ctx, ax[i].range->src[0], ax[i].id, RDX_AXIS_GLOBAL);
        }
    ck_assert_uint_eq(nf, 3);
    const rdx_uop *want;
    ck_assert_int_eq(rdx_ir_substitute(ctx, k, from, to, nf, &want), RDX_OK);
    ck_assert_int_eq(rdx_cg_axis_types(ctx, k, &typed), RDX_OK);
    ck_assert_ptr_eq(typed, want);
    ck_assert_int_eq(rdx_cg_axes(typed, ax, &n), RDX_OK);
    int types[5] = { 0 };
    for (size_t i = 0; i < n; i++)
        types[ax[i].type == RDX_AXIS_GLOBAL ? 0 : ax[i].type == RDX_AXIS_LOOP ? 1 : 2]++;
    ck_assert_int_eq(types[0], 3);
    ck_assert_int_eq(types[1], 1);
    ck_assert_int_eq(types[2], 1);
    rdx_schedule_free(s);
    rdx_graph_destroy(g);
}
END_TEST

/* A toy timer: cgf_toy_cost; counts calls. */
static int g_calls;
static rdx_status toy_timer(const rdx_uop *k, void *user, double limit, double *cost)
{
    (void)user;
    (void)limit;
    g_calls++;
    *cost = cgf_toy_cost(k);
    return RDX_OK;
}

START_TEST(beam_search)
{
    uint64_t seed = 15;
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 32, 24 }, &seed);
    const rdx_tensor *t = rdx_tensor_sum(g, rdx_tensor_mul(g, x, x), 1, (int[]){ 1 }, 0);
    rdx_schedule *s;
    ck_assert_int_eq(rdx_cg_schedule(ctx, &t, 1, &s), RDX_OK);
    const rdx_uop *k;
    ck_assert_int_eq(rdx_cg_axis_types(ctx, s->kernels[0].sink, &k), RDX_OK);
    char path[] = "/tmp/rdx_beam_cacheXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char *plog = NULL;
    size_t plen = 0;
    FILE *prog = open_memstream(&plog, &plen);
    rdx_beam_opts bo = {
        .width = 3, .max_steps = 3, .progress = prog, .cache_path = path, .device = "emu"
    };
    rdx_opt best[16];
    size_t nb = 0;
    double cost, base;
    rdx_cg_beam_cache_clear();
    g_calls = 0;
    ck_assert_int_eq(rdx_cg_beam(ctx, k, toy_timer, NULL, &bo, best, 16, &nb, &cost), RDX_OK);
    ck_assert_int_gt(g_calls, 10);
    const rdx_uop *e;
    ck_assert_int_eq(rdx_cg_expand(ctx, k, &e), RDX_OK);
    ck_assert_int_eq(toy_timer(e, NULL, 0, &base), RDX_OK);
    ck_assert(cost < base); /* a workgroup always helps the toy timer */
    ck_assert_uint_ge(nb, 1);
    fflush(prog);
    ck_assert_ptr_nonnull(strstr(plog, "beam step 1:"));
    /* the best sequence computes the same result */
    cgf_run r = { 0 };
    r.mode = CGF_OPTS;
    r.opts = best;
    r.nopts = nb;
    cgf_check(g, &t, 1, &r);
    /* memory cache: no timing */
    g_calls = 0;
    rdx_opt again[16];
    size_t na;
    double c2;
    ck_assert_int_eq(rdx_cg_beam(ctx, k, toy_timer, NULL, &bo, again, 16, &na, &c2), RDX_OK);
    ck_assert_int_eq(g_calls, 0);
    ck_assert_uint_eq(na, nb);
    ck_assert(memcmp(again, best, nb * sizeof *best) == 0);
    /* file cache after forgetting the memory cache */
    rdx_cg_beam_cache_clear();
    ck_assert_int_eq(rdx_cg_beam(ctx, k, toy_timer, NULL, &bo, again, 16, &na, &c2), RDX_OK);
    ck_assert_int_eq(g_calls, 0);
    ck_assert_uint_eq(na, nb);
    ck_assert(c2 == cost);
    for (size_t i = 0; i < nb; i++) {
        ck_assert_int_eq(again[i].op, best[i].op);
        ck_assert_int_eq(again[i].amount, best[i].amount);
        ck_assert_int_eq(again[i].target, best[i].target);
    }
    fflush(prog);
    ck_assert_ptr_nonnull(strstr(plog, "cache hit"));
    /* another device is another key */
    bo.device = "other";
    ck_assert_int_eq(rdx_cg_beam(ctx, k, toy_timer, NULL, &bo, again, 16, &na, &c2), RDX_OK);
    ck_assert_int_gt(g_calls, 0);
    fclose(prog);
    free(plog);
    unlink(path);
    rdx_cg_beam_cache_clear();
    rdx_schedule_free(s);
    rdx_graph_destroy(g);
}
END_TEST

TCase *cgf_tcase_opts(void)
{
    TCase *tc = tcase_create("opts");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, opts_elementwise);
    tcase_add_test(tc, opts_reduce);
    tcase_add_test(tc, opts_matmul);
    tcase_add_test(tc, opts_group_reduce);
    tcase_add_test(tc, opts_errors);
    tcase_add_test(tc, opts_split_runs);
    tcase_add_test(tc, axis_types_innermost_global);
    tcase_add_test(tc, beam_search);
    return tc;
}
