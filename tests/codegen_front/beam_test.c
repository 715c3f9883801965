/* tests/codegen_front/beam_test.c — BEAM search with a deterministic fake timer: the
 * result is never worse than its start (the heuristics' opts), no kernel is timed twice,
 * every timing gets the budget (factor x the best cost so far) and runs past it are
 * discarded, the time limit ends the search with the best so far (not cached in the file),
 * row actions for a row-fused kernel, and bad input (width, steps, budget, time limit,
 * cache file) refused with clear messages. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codegen/front_internal.h"
#include "util/error.h"
#include "tests/codegen_front/cgf_test.h"

#define F32 rdx_dtype_of(RDX_FLOAT32)

/* The fake timer: cost = node count x 100 / work-items per workgroup (capped at 64); past
   the limit it answers RDX_ERR_TIMEOUT as a real timer stops a run.  Records every kernel
   it is given and checks each limit against the best cost it returned so far. */
typedef struct fake {
    const rdx_uop *seen[4096];
    size_t n, timeouts, bad_limits;
    double best, factor;
} fake;

static rdx_status fake_timer(const rdx_uop *k, void *user, double limit, double *cost)
{
    fake *f = user;
    ck_assert_uint_lt(f->n, 4096);
    f->seen[f->n++] = k;
    double want = f->best > 0 && f->factor > 0 ? f->factor * f->best : 0;
    if (limit != want)
        f->bad_limits++;
    double c = cgf_toy_cost(k);
    if (limit > 0 && c > limit) {
        f->timeouts++;
        return rdx_fail(RDX_ERR_TIMEOUT, "fake timer: over the budget");
    }
    if (f->best <= 0 || c < f->best)
        f->best = c;
    *cost = c;
    return RDX_OK;
}

/* sum(x * x, axis 1) of 32 x 24, axis-typed */
static const rdx_uop *sum_kernel(rdx_graph *g, const rdx_tensor **t, rdx_schedule **s)
{
    uint64_t seed = 15;
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 32, 24 }, &seed);
    *t = rdx_tensor_sum(g, rdx_tensor_mul(g, x, x), 1, (int[]){ 1 }, 0);
    ck_assert_int_eq(rdx_cg_schedule(ctx, t, 1, s), RDX_OK);
    const rdx_uop *k;
    ck_assert_int_eq(rdx_cg_axis_types(ctx, (*s)->kernels[0].sink, &k), RDX_OK);
    return k;
}

static double seq_cost(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_opt *o, size_t n)
{
    const rdx_uop *a, *e;
    ck_assert_int_eq(rdx_cg_apply_opts(ctx, k, o, n, &a), RDX_OK);
    ck_assert_int_eq(rdx_cg_expand(ctx, a, &e), RDX_OK);
    return cgf_toy_cost(e);
}

START_TEST(beam_fake_timer)
{
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_tensor *t;
    rdx_schedule *s;
    const rdx_uop *k = sum_kernel(g, &t, &s);
    char *plog = NULL;
    size_t plen = 0;
    FILE *prog = open_memstream(&plog, &plen);
    fake *f = calloc(1, sizeof *f);
    f->factor = 3;
    rdx_beam_opts bo = { .width = 2, .max_steps = 4, .progress = prog, .device = "fake" };
    rdx_opt best[16], h[16];
    size_t nb = 0, nh = 0;
    double cost;
    rdx_cg_beam_cache_clear();
    ck_assert_int_eq(rdx_cg_beam(ctx, k, fake_timer, f, &bo, best, 16, &nb, &cost), RDX_OK);
    fflush(prog);
    /* no worse than its start: the heuristics' opts, and no opts */
    ck_assert_int_eq(rdx_cg_heuristic(k, h, 16, &nh), RDX_OK);
    ck_assert(cost <= seq_cost(ctx, k, h, nh));
    ck_assert(cost <= seq_cost(ctx, k, NULL, 0));
    ck_assert(cost == seq_cost(ctx, k, best, nb)); /* the reported cost is the result's */
    ck_assert(cost == f->best);
    /* every kernel timed once; each timing had the budget 3 x the best so far */
    for (size_t i = 0; i < f->n; i++)
        for (size_t j = i + 1; j < f->n; j++)
            ck_assert_msg(f->seen[i] != f->seen[j], "kernel timed twice (%zu, %zu)", i, j);
    ck_assert_uint_eq(f->bad_limits, 0);
    ck_assert_uint_gt(f->timeouts, 0); /* some candidates were over budget ... */
    ck_assert_ptr_nonnull(strstr(plog, "over budget"));
    ck_assert_ptr_nonnull(strstr(plog, "duplicates")); /* ... and counted in the progress */
    ck_assert_ptr_nonnull(strstr(plog, "beam: start:"));
    ck_assert_ptr_nonnull(strstr(plog, "beam step 1:"));
    /* the result computes the same values */
    cgf_run r = { 0 };
    r.mode = CGF_OPTS;
    r.opts = best;
    r.nopts = nb;
    cgf_check(g, &t, 1, &r);
    /* no budget: every limit 0, none over budget, the same result or a better one */
    memset(f, 0, sizeof *f);
    bo.no_budget = 1;
    rdx_opt b2[16];
    size_t n2;
    double c2;
    rdx_cg_beam_cache_clear();
    ck_assert_int_eq(rdx_cg_beam(ctx, k, fake_timer, f, &bo, b2, 16, &n2, &c2), RDX_OK);
    ck_assert_uint_eq(f->bad_limits, 0);
    ck_assert_uint_eq(f->timeouts, 0);
    ck_assert(c2 <= cost);
    /* a larger factor: limits follow it */
    memset(f, 0, sizeof *f);
    f->factor = 10;
    bo.no_budget = 0;
    bo.budget = 10;
    rdx_cg_beam_cache_clear();
    ck_assert_int_eq(rdx_cg_beam(ctx, k, fake_timer, f, &bo, b2, 16, &n2, &c2), RDX_OK);
    ck_assert_uint_eq(f->bad_limits, 0);
    rdx_cg_beam_cache_clear();
    fclose(prog);
    free(plog);
    free(f);
    rdx_schedule_free(s);
    rdx_graph_destroy(g);
}
END_TEST

/* A time limit ends the search after the start with the best so far (the heuristics' opts
   here: they beat no opts under the fake timer), which stays out of the cache file. */
START_TEST(beam_time_limit)
{
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_tensor *t;
    rdx_schedule *s;
    const rdx_uop *k = sum_kernel(g, &t, &s);
    char path[] = "/tmp/rdx_beam_timeXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char *plog = NULL;
    size_t plen = 0;
    FILE *prog = open_memstream(&plog, &plen);
    fake *f = calloc(1, sizeof *f);
    f->factor = 3;
    rdx_beam_opts bo = {
        .width = 2, .progress = prog, .cache_path = path, .device = "fake", .time_limit = 1e-9
    };
    rdx_opt best[16], h[16];
    size_t nb = 0, nh = 0;
    double cost;
    rdx_cg_beam_cache_clear();
    ck_assert_int_eq(rdx_cg_beam(ctx, k, fake_timer, f, &bo, best, 16, &nb, &cost), RDX_OK);
    fflush(prog);
    ck_assert_uint_eq(f->n, 2); /* the heuristics' opts and no opts */
    ck_assert_int_eq(rdx_cg_heuristic(k, h, 16, &nh), RDX_OK);
    ck_assert(cost == fmin(seq_cost(ctx, k, h, nh), seq_cost(ctx, k, NULL, 0)));
    ck_assert_msg(strstr(plog, "time limit") && strstr(plog, "not written to the cache file"), "%s",
                  plog);
    struct stat sb;
    ck_assert_int_eq(stat(path, &sb), 0);
    ck_assert_int_eq(sb.st_size, 0);
    /* from scratch: the empty sequence is the only start */
    memset(f, 0, sizeof *f);
    f->factor = 3;
    bo.from_scratch = 1;
    rdx_cg_beam_cache_clear();
    ck_assert_int_eq(rdx_cg_beam(ctx, k, fake_timer, f, &bo, best, 16, &nb, &cost), RDX_OK);
    ck_assert_uint_eq(f->n, 1);
    ck_assert_uint_eq(nb, 0);
    ck_assert(cost == seq_cost(ctx, k, NULL, 0));
    fclose(prog);
    free(plog);
    free(f);
    unlink(path);
    rdx_cg_beam_cache_clear();
    rdx_schedule_free(s);
    rdx_graph_destroy(g);
}
END_TEST

static void expect_beam_error(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_beam_opts *bo,
                              rdx_status want, const char *msg)
{
    fake *f = calloc(1, sizeof *f);
    rdx_opt best[16];
    size_t nb = 0;
    rdx_cg_beam_cache_clear();
    ck_assert_int_eq(rdx_cg_beam(ctx, k, fake_timer, f, bo, best, 16, &nb, NULL), want);
    ck_assert_msg(strstr(rdx_error_message(), msg), "'%s' lacks '%s'", rdx_error_message(), msg);
    ck_assert_uint_eq(f->n, 0); /* refused before timing anything */
    free(f);
}

START_TEST(beam_bad_input)
{
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_tensor *t;
    rdx_schedule *s;
    const rdx_uop *k = sum_kernel(g, &t, &s);
    rdx_beam_opts bo = { .width = 17 };
    expect_beam_error(ctx, k, &bo, RDX_ERR_INVALID, "width 17: expected 1..16");
    bo = (rdx_beam_opts){ .max_steps = 13 };
    expect_beam_error(ctx, k, &bo, RDX_ERR_INVALID, "13 steps: expected 1..12");
    bo = (rdx_beam_opts){ .budget = 0.5 };
    expect_beam_error(ctx, k, &bo, RDX_ERR_INVALID, "budget 0.5");
    bo = (rdx_beam_opts){ .time_limit = -1 };
    expect_beam_error(ctx, k, &bo, RDX_ERR_INVALID, "time limit -1 s");
    /* a malformed cache file: the line named */
    char path[] = "/tmp/rdx_beam_badXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char *txt = "00000000000000aa 12.5 1 0 1 4 5 0\nnot a cache line\n";
    ck_assert_int_eq(write(fd, txt, strlen(txt)), (ssize_t)strlen(txt));
    close(fd);
    bo = (rdx_beam_opts){ .cache_path = path };
    expect_beam_error(ctx, k, &bo, RDX_ERR_PARSE, "line 2: expected 'KEY COST N'");
    /* an opt out of range */
    FILE *w = fopen(path, "w");
    fprintf(w, "00000000000000aa 12.5 1 99 1 4 5 0\n");
    fclose(w);
    expect_beam_error(ctx, k, &bo, RDX_ERR_PARSE, "line 1: opt 1 of 1");
    unlink(path);
    /* a cache path that is a directory */
    char dir[] = "/tmp/rdx_beam_dirXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    bo = (rdx_beam_opts){ .cache_path = dir };
    expect_beam_error(ctx, k, &bo, RDX_ERR_IO, "cache file");
    rmdir(dir);
    /* NULL arguments */
    rdx_opt best[4];
    size_t nb;
    ck_assert_int_eq(rdx_cg_beam(ctx, k, NULL, NULL, NULL, best, 4, &nb, NULL), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "NULL timer"));
    rdx_cg_beam_cache_clear();
    rdx_schedule_free(s);
    rdx_graph_destroy(g);
}
END_TEST

/* Row actions: for softmax's row-fused kernel, one action splits the columns and both row
   reductions alike (LOCAL + GROUP_REDUCE, UPCAST + UNROLL); the whole-row form is two
   actions from no opts, and it computes the same values. */
START_TEST(beam_row_actions)
{
    uint64_t seed = 5;
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 64, 256 }, &seed);
    const rdx_tensor *t = rdx_tensor_softmax(g, x, -1);
    rdx_schedule *s;
    ck_assert_int_eq(rdx_cg_schedule(ctx, &t, 1, &s), RDX_OK);
    ck_assert_uint_eq(s->nkernels, 1);
    const rdx_uop *k;
    ck_assert_int_eq(rdx_cg_axis_types(ctx, s->kernels[0].sink, &k), RDX_OK);
    cg_beam_act *a = malloc(1024 * sizeof *a);
    size_t n = cg_beam_actions(ctx, k, NULL, 0, a, 1024);
    rdx_opt seq[8];
    size_t nseq = 0;
    int group = 0, share = 0;
    for (size_t i = 0; i < n; i++) {
        if (a[i].n != 3)
            continue;
        ck_assert_int_eq(a[i].ops[1].amount, a[i].ops[0].amount);
        ck_assert_int_eq(a[i].ops[2].amount, a[i].ops[0].amount);
        if (a[i].ops[0].target == RDX_AXIS_LOCAL && a[i].ops[0].amount == 32) {
            ck_assert_int_eq(a[i].ops[1].target, RDX_AXIS_GROUP_REDUCE);
            if (a[i].ops[0].axis == 1) { /* the columns (axis 0: the rows) */
                group = 1;
                memcpy(seq, a[i].ops, 3 * sizeof *seq);
                nseq = 3;
            }
        }
    }
    ck_assert(group);
    n = cg_beam_actions(ctx, k, seq, nseq, a, 1024);
    for (size_t i = 0; i < n; i++)
        if (a[i].n == 3 && a[i].ops[0].target == RDX_AXIS_UPCAST && a[i].ops[0].amount == 8 &&
            a[i].ops[0].axis == 1) {
            ck_assert_int_eq(a[i].ops[1].target, RDX_AXIS_UNROLL);
            ck_assert_int_eq(a[i].ops[2].target, RDX_AXIS_UNROLL);
            share = 1;
            memcpy(seq + nseq, a[i].ops, 3 * sizeof *seq);
            nseq += 3;
        }
    ck_assert(share);
    free(a);
    /* 32 lanes x 8 elements: the row whole in registers, no loop left */
    const rdx_uop *o, *e, **order;
    size_t no;
    ck_assert_int_eq(rdx_cg_apply_opts(ctx, k, seq, nseq, &o), RDX_OK);
    ck_assert_int_eq(rdx_cg_expand(ctx, o, &e), RDX_OK);
    ck_assert_int_eq(rdx_ir_toposort(e, &order, &no), RDX_OK);
    size_t loops = 0;
    for (size_t i = 0; i < no; i++) {
        int64_t bound;
        loops += order[i]->op == RDX_OP_RANGE &&
                 !(rdx_uop_const_int(order[i]->src[0], &bound) && bound == 1);
    }
    free(order);
    ck_assert_uint_eq(loops, 0);
    cgf_run r = { 0 };
    r.mode = CGF_OPTS;
    r.opts = seq;
    r.nopts = nseq;
    r.on_emu = 1; /* the host evaluator is slow on the unrolled lanes */
    cgf_check(g, &t, 1, &r);
    rdx_schedule_free(s);
    rdx_graph_destroy(g);
}
END_TEST

TCase *cgf_tcase_beam(void)
{
    TCase *tc = tcase_create("beam");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, beam_fake_timer);
    tcase_add_test(tc, beam_time_limit);
    tcase_add_test(tc, beam_bad_input);
    tcase_add_test(tc, beam_row_actions);
    return tc;
}
