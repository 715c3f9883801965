/* codegen/beam.c — BEAM search over OptOp sequences with a pluggable timing
 * callback (the emulator's kernel time estimate, or GPU timestamps on a
 * device), a progress display and a result cache (in memory, and optionally a
 * text file: one line per kernel key).  What keeps a search short: candidates
 * whose optimized kernel is identical to one already timed are not timed again
 * (the IR is hash-consed, so identical kernels are the same node), each timing
 * gets a budget of `budget` x the best cost so far (the timer stops the run
 * past it: the emulator's cycle limit, a fence wait timeout on a device), and
 * an optional wall-clock limit on the whole search. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "codegen/front_internal.h"
#include "util/error.h"

#define BEAM_MAX_STEPS 12
/* bumped whenever the timers' cost changes meaning (part of every cache key) */
#define RDX_CG_BEAM_OBJECTIVE "objective-v2-kernel-cycles"

#define BEAM_MAX_WIDTH  16
#define BEAM_MAX_CAND   768             /* candidate actions per sequence */
#define BEAM_ACT_OPS    CG_BEAM_ACT_OPS /* a row action: the columns + up to 3 reductions */
#define BEAM_BUDGET_DEF 3.0             /* default budget: 3 x the best cost so far */

typedef struct beam_seq {
    rdx_opt ops[BEAM_MAX_STEPS];
    size_t n;
    double cost;
} beam_seq;

typedef cg_beam_act beam_act;

typedef struct cache_ent {
    struct cache_ent *next;
    uint64_t key;
    beam_seq seq;
} cache_ent;

static cache_ent *g_cache;

void rdx_cg_beam_cache_clear(void)
{
    while (g_cache) {
        cache_ent *n = g_cache->next;
        free(g_cache);
        g_cache = n;
    }
}

static uint64_t fnv(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (uint8_t)*s;
        h *= 1099511628211ull;
    }
    return h;
}

static rdx_status kernel_key(const rdx_uop *k, const char *device, uint64_t *key)
{
    char *txt = NULL;
    rdx_status st = rdx_ir_print(&k, 1, 0, &txt);
    if (st)
        return st;
    /* the objective's version: cache entries timed by another objective (v1: cycles summed
       over waves; v2: the emulator's kernel time estimate) never match */
    *key = fnv(fnv(fnv(1469598103934665603ull, RDX_CG_BEAM_OBJECTIVE), device), txt);
    free(txt);
    return RDX_OK;
}

/* Look key up in the cache file: *found 1 and *out when a line has it (the last one wins).
   A missing file is a miss; an unreadable file or a malformed line is an error. */
static rdx_status cache_file_get(const char *path, uint64_t key, beam_seq *out, int *found)
{
    *found = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT ? RDX_OK
                               : rdx_fail_errno(RDX_ERR_IO, errno, "beam: cache file '%s'", path);
    char line[1024];
    unsigned lineno = 0;
    rdx_status st = RDX_OK;
    while (!st && fgets(line, sizeof line, f)) {
        lineno++;
        unsigned long long k;
        double cost;
        unsigned n;
        int off = 0;
        if (line[0] == '\n')
            continue;
        if (!strchr(line, '\n') && !feof(f)) {
            st = rdx_fail(RDX_ERR_PARSE, "beam: cache file '%s' line %u: longer than %zu bytes",
                          path, lineno, sizeof line - 1);
            break;
        }
        if (sscanf(line, "%llx %lf %u%n", &k, &cost, &n, &off) != 3 || n > BEAM_MAX_STEPS) {
            st = rdx_fail(RDX_ERR_PARSE,
                          "beam: cache file '%s' line %u: expected 'KEY COST N' with N <= %d "
                          "opts, then N x 'OP AXIS AMOUNT TYPE TOP'",
                          path, lineno, BEAM_MAX_STEPS);
            break;
        }
        beam_seq s = { .n = n, .cost = cost };
        for (unsigned i = 0; i < n && !st; i++) {
            int op, axis, target, top, used = 0;
            long long amt;
            if (sscanf(line + off, " %d %d %lld %d %d%n", &op, &axis, &amt, &target, &top, &used) !=
                    5 ||
                op < 0 || op >= RDX_OPTOP_COUNT || target < 0 || target >= RDX_AXIS_COUNT) {
                st = rdx_fail(RDX_ERR_PARSE,
                              "beam: cache file '%s' line %u: opt %u of %u: expected 'OP AXIS "
                              "AMOUNT TYPE TOP' (OP 0..%d, TYPE 0..%d)",
                              path, lineno, i + 1, n, RDX_OPTOP_COUNT - 1, RDX_AXIS_COUNT - 1);
                break;
            }
            off += used;
            rdx_opt o = { (rdx_optop)op, axis, amt, (rdx_axistype)target, top };
            s.ops[i] = o;
        }
        if (!st && k == key) {
            *out = s;
            *found = 1;
        }
    }
    if (!st && ferror(f))
        st = rdx_fail_errno(RDX_ERR_IO, errno, "beam: reading cache file '%s'", path);
    fclose(f);
    return st;
}

static rdx_status cache_put(const rdx_beam_opts *bo, uint64_t key, const beam_seq *s, int to_file)
{
    cache_ent *e = calloc(1, sizeof *e);
    if (!e)
        return rdx_fail(RDX_ERR_NOMEM, "beam: out of memory");
    e->key = key;
    e->seq = *s;
    e->next = g_cache;
    g_cache = e;
    if (!bo || !bo->cache_path || !to_file)
        return RDX_OK;
    FILE *f = fopen(bo->cache_path, "a");
    if (!f)
        return rdx_fail_errno(RDX_ERR_IO, errno, "beam: cache file '%s'", bo->cache_path);
    fprintf(f, "%016llx %.17g %zu", (unsigned long long)key, s->cost, s->n);
    for (size_t i = 0; i < s->n; i++)
        fprintf(f, " %d %d %lld %d %d", (int)s->ops[i].op, s->ops[i].axis,
                (long long)s->ops[i].amount, (int)s->ops[i].target, s->ops[i].top);
    fprintf(f, "\n");
    int bad = fclose(f) != 0;
    return bad ? rdx_fail(RDX_ERR_IO, "beam: writing cache file '%s'", bo->cache_path) : RDX_OK;
}

/* ------------------------------------------------------------ the search */

/* What a timed kernel gave: seen once, never timed again (identical kernels are one node). */
enum { SEEN_OK, SEEN_FAILED, SEEN_OVER };
typedef struct seen_ent {
    const rdx_uop *k; /* NULL: empty slot */
    double cost;
    int what;
} seen_ent;

typedef struct beam_run {
    rdx_ir_ctx *ctx;
    const rdx_uop *kernel;
    rdx_cg_timer timer;
    void *user;
    double factor; /* budget factor (0: none) */
    double best;   /* best cost so far (0: none yet) */
    seen_ent *seen;
    size_t nseen, cap;
    size_t timed, dups, over, failed; /* per step */
} beam_run;

static double wall_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static seen_ent *seen_slot(beam_run *r, const rdx_uop *k)
{
    size_t h = ((uintptr_t)k >> 4) * 0x9E3779B97F4A7C15ull;
    for (size_t i = h & (r->cap - 1);; i = (i + 1) & (r->cap - 1))
        if (!r->seen[i].k || r->seen[i].k == k)
            return &r->seen[i];
}

static int seen_grow(beam_run *r)
{
    if (2 * (r->nseen + 1) <= r->cap)
        return 0;
    size_t ocap = r->cap;
    seen_ent *old = r->seen;
    r->cap = ocap ? 2 * ocap : 256;
    r->seen = calloc(r->cap, sizeof *r->seen);
    if (!r->seen) {
        r->seen = old;
        r->cap = ocap;
        return -1;
    }
    for (size_t i = 0; i < ocap; i++)
        if (old[i].k)
            *seen_slot(r, old[i].k) = old[i];
    free(old);
    return 0;
}

/* Time seq applied to the axis-typed kernel; nonzero when it cannot be built or timed, is
   over the budget (factor x the best so far) or is a duplicate of a kernel timed before
   (*dup 1; its cost is in s->cost). */
static int time_seq(beam_run *r, beam_seq *s, int *dup)
{
    const rdx_uop *o, *e;
    *dup = 0;
    if (rdx_cg_apply_opts(r->ctx, r->kernel, s->ops, s->n, &o) || rdx_cg_expand(r->ctx, o, &e)) {
        r->failed++;
        return 1;
    }
    if (seen_grow(r)) {
        r->failed++;
        return 1;
    }
    seen_ent *se = seen_slot(r, e);
    if (se->k) {
        r->dups++;
        *dup = 1;
        s->cost = se->cost;
        return se->what != SEEN_OK;
    }
    double limit = r->factor > 0 && r->best > 0 ? r->factor * r->best : 0;
    r->timed++;
    rdx_status st = r->timer(e, r->user, limit, &s->cost);
    /* a run past the limit, stopped or not, is over budget (a timeout without a limit is
       a hang: invalid) */
    int what = limit > 0 && (st == RDX_ERR_TIMEOUT || (!st && s->cost > limit)) ? SEEN_OVER
               : st                                                             ? SEEN_FAILED
                                                                                : SEEN_OK;
    r->over += what == SEEN_OVER;
    r->failed += what == SEEN_FAILED;
    *se = (seen_ent){ e, s->cost, what };
    r->nseen++;
    if (what == SEEN_OK && (r->best <= 0 || s->cost < r->best))
        r->best = s->cost;
    return what != SEEN_OK;
}

/* Row actions (a row-fused kernel, docs/codegen-frontend.md "Row fusion"): with two or more
   REDUCE axes of one size s, for each other axis of size s (the row's columns) one action
   splits them all by the same amount f — LOCAL f of the columns and GROUP_REDUCE f of the
   reductions (a workgroup per row), or UPCAST f and UNROLL f (each lane's share of the row
   in registers, read once). */
static size_t row_actions(const rdx_kaxis *ax, size_t na, size_t nseq, int nolocals, beam_act *c,
                          size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < na; i++) {
        if (ax[i].type != RDX_AXIS_REDUCE || ax[i].size < 2)
            continue;
        int64_t s = ax[i].size;
        size_t red[BEAM_ACT_OPS - 1], nr = 0, first = 1;
        for (size_t j = 0; j < i; j++)
            if (ax[j].type == RDX_AXIS_REDUCE && ax[j].size == s)
                first = 0;
        if (!first)
            continue; /* each size once */
        for (size_t j = i; j < na; j++)
            if (ax[j].type == RDX_AXIS_REDUCE && ax[j].size == s) {
                if (nr == BEAM_ACT_OPS - 1) {
                    nr = 0;
                    break;
                }
                red[nr++] = j;
            }
        if (nr < 2)
            continue;
        for (size_t a = 0; a < na; a++) {
            rdx_axistype t = ax[a].type;
            if (ax[a].size != s || (t != RDX_AXIS_GLOBAL && t != RDX_AXIS_LOOP))
                continue;
            for (int64_t f = 2; f <= 256 && f <= s; f *= 2) {
                if (s % f)
                    continue;
                for (int kind = 0; kind < 2 && n < cap; kind++) {
                    /* kind 0: a workgroup of f lanes per row; 1: f elements per lane */
                    if (kind == 0 && (nolocals || f < 16))
                        continue;
                    if (kind == 1 && f > 32)
                        continue;
                    if (nseq + 1 + nr > BEAM_MAX_STEPS)
                        continue;
                    beam_act *x = &c[n++];
                    x->n = 0;
                    x->ops[x->n++] = (rdx_opt){ RDX_OPTOP_SPLIT, (int32_t)a, f,
                                                kind ? RDX_AXIS_UPCAST : RDX_AXIS_LOCAL, 0 };
                    for (size_t q = 0; q < nr; q++)
                        x->ops[x->n++] =
                            (rdx_opt){ RDX_OPTOP_SPLIT, (int32_t)red[q], f,
                                       kind ? RDX_AXIS_UNROLL : RDX_AXIS_GROUP_REDUCE, 0 };
                }
            }
        }
    }
    return n;
}

size_t cg_beam_actions(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_opt *seq, size_t nseq,
                       cg_beam_act *c, size_t cap)
{
    const rdx_uop *o;
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t na, n = 0;
    if (nseq >= BEAM_MAX_STEPS || rdx_cg_apply_opts(ctx, k, seq, nseq, &o) ||
        rdx_cg_axes(o, ax, &na))
        return 0;
    int nolocals = 0, locals = 0;
    for (size_t i = 0; i < nseq; i++)
        nolocals |= seq[i].op == RDX_OPTOP_NOLOCALS;
    for (size_t i = 0; i < na; i++)
        locals |= ax[i].type == RDX_AXIS_LOCAL;
    rdx_opt one[BEAM_MAX_CAND];
    size_t n1 = 0;
    static const int64_t f[] = { 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 32, 64, 128, 256 };
    for (size_t i = 0; i < na; i++) {
        rdx_axistype t = ax[i].type;
        int64_t sz = ax[i].size;
        if (sz <= 1)
            continue;
        for (size_t j = 0; j < sizeof f / sizeof *f; j++) {
            if (sz % f[j] || f[j] > sz)
                continue;
            rdx_axistype tg[4];
            size_t ntg = 0;
            if ((t == RDX_AXIS_GLOBAL || t == RDX_AXIS_LOOP) && !nolocals && f[j] >= 2)
                tg[ntg++] = RDX_AXIS_LOCAL;
            if ((t == RDX_AXIS_GLOBAL || t == RDX_AXIS_LOCAL || t == RDX_AXIS_LOOP) && f[j] <= 8)
                tg[ntg++] = RDX_AXIS_UPCAST;
            if (t == RDX_AXIS_REDUCE && f[j] <= 16)
                tg[ntg++] = RDX_AXIS_UNROLL; /* up to 16: a 3x3 window's 9 taps, k by 16 */
            /* lanes sharing a reduction: a power of two 16..256 (expand refuses other
               combinations; a row-fused kernel's workgroup per row is a row action) */
            if (t == RDX_AXIS_REDUCE && f[j] >= 16 && (f[j] & (f[j] - 1)) == 0)
                tg[ntg++] = RDX_AXIS_GROUP_REDUCE;
            for (size_t q = 0; q < ntg && n1 < BEAM_MAX_CAND; q++)
                one[n1++] = (rdx_opt){ RDX_OPTOP_SPLIT, (int32_t)i, f[j], tg[q], 0 };
        }
        if (t == RDX_AXIS_GLOBAL && sz > 32 && sz % 32 && n1 < BEAM_MAX_CAND)
            one[n1++] = (rdx_opt){ RDX_OPTOP_PADTO, (int32_t)i, 32, t, 0 };
    }
    if (!nolocals && !locals && n1 < BEAM_MAX_CAND)
        one[n1++] = (rdx_opt){ RDX_OPTOP_NOLOCALS, 0, 0, RDX_AXIS_LOOP, 0 };
    n1 += cg_lds_candidates(ax, na, seq, nseq, one + n1, BEAM_MAX_CAND - n1); /* LDS */
    if (nseq == 0 && n1 < BEAM_MAX_CAND) /* TC (first opt only): its tilings (opt_tc.c) */
        n1 += cg_tc_candidates(k, one + n1, BEAM_MAX_CAND - n1);
    /* the row actions first: when they pay, the budget shrinks before the single opts run */
    n = row_actions(ax, na, nseq, nolocals, c, cap);
    for (size_t i = 0; i < n1 && n < cap; i++) {
        c[n].ops[0] = one[i];
        c[n++].n = 1;
    }
    return n;
}

static int seq_cmp(const void *a, const void *b)
{
    double x = ((const beam_seq *)a)->cost, y = ((const beam_seq *)b)->cost;
    if (x != y)
        return x < y ? -1 : 1;
    size_t p = ((const beam_seq *)a)->n, q = ((const beam_seq *)b)->n;
    return p < q ? -1 : p > q; /* equal cost: the shorter sequence first */
}

static void progress(FILE *prog, const beam_run *r, const char *what, double t0)
{
    if (prog)
        fprintf(prog, "%s: %zu timed, %zu duplicates, %zu over budget, %zu invalid; %.1f s\n", what,
                r->timed, r->dups, r->over, r->failed, wall_now() - t0);
}

/* The search proper (no cache): the best sequence into *win; *cut 1 when the time limit
   ended it early. */
static rdx_status search(beam_run *r, unsigned width, unsigned steps, double time_limit,
                         int from_scratch, FILE *prog, beam_seq *win, int *cut)
{
    beam_seq beam[BEAM_MAX_WIDTH];
    size_t nbeam = 0;
    int dup;
    double t0 = wall_now();
    *cut = 0;
    /* the heuristics' opts first (the search never ends worse than them, and the budget
       starts from their cost), then the empty sequence within that budget */
    beam_seq h = { .n = 0 }, z = { .n = 0 };
    int hok = 0, zok = 0;
    if (!from_scratch && !rdx_cg_heuristic(r->kernel, h.ops, BEAM_MAX_STEPS, &h.n) && h.n &&
        !time_seq(r, &h, &dup))
        beam[nbeam++] = h, hok = 1;
    size_t over0 = r->over;
    if (!time_seq(r, &z, &dup) && !dup)
        beam[nbeam++] = z, zok = 1;
    if (!nbeam)
        return rdx_fail(RDX_ERR_INVALID,
                        "beam: the kernel cannot be timed (neither with no opts "
                        "nor with the heuristics' opts): %s",
                        rdx_error_message());
    if (prog) {
        fprintf(prog, "beam: start: no opts ");
        if (zok)
            fprintf(prog, "%.1f", z.cost);
        else
            fprintf(prog, "%s",
                    dup               ? "= the heuristics"
                    : r->over > over0 ? "over budget"
                                      : "invalid");
        if (hok)
            fprintf(prog, ", heuristics %.1f", h.cost);
        if (r->factor > 0)
            fprintf(prog, "; budget %.3g x the best cost (runs past it are stopped)", r->factor);
        if (time_limit > 0)
            fprintf(prog, "; time limit %.1f s", time_limit);
        fprintf(prog, "\n");
    }
    qsort(beam, nbeam, sizeof *beam, seq_cmp);
    nbeam = nbeam < width ? nbeam : width;
    *win = beam[0];
    rdx_error_clear();
    beam_act *cand = malloc(BEAM_MAX_CAND * sizeof *cand);
    beam_seq *pool = malloc((size_t)BEAM_MAX_WIDTH * BEAM_MAX_CAND * sizeof *pool);
    if (!cand || !pool) {
        free(cand);
        free(pool);
        return rdx_fail(RDX_ERR_NOMEM, "beam: out of memory");
    }
    /* the live line: only when the progress goes to a terminal */
    int live = prog && isatty(fileno(prog));
    for (unsigned step = 0; step < steps && !*cut; step++) {
        size_t npool = 0;
        r->timed = r->dups = r->over = r->failed = 0;
        for (size_t b = 0; b < nbeam && !*cut; b++) {
            size_t nc =
                cg_beam_actions(r->ctx, r->kernel, beam[b].ops, beam[b].n, cand, BEAM_MAX_CAND);
            for (size_t c = 0; c < nc; c++) {
                if (time_limit > 0 && wall_now() - t0 > time_limit) {
                    *cut = 1;
                    break;
                }
                beam_seq s = beam[b];
                if (s.n + cand[c].n > BEAM_MAX_STEPS)
                    continue;
                memcpy(s.ops + s.n, cand[c].ops, cand[c].n * sizeof *s.ops);
                s.n += cand[c].n;
                if (live) /* a terminal: one line rewritten per candidate */
                    fprintf(prog,
                            "\rbeam step %u: sequence %zu/%zu, candidate %zu/%zu, best %.1f, "
                            "%.0f s ",
                            step + 1, b + 1, nbeam, c + 1, nc, r->best, wall_now() - t0);
                if (!time_seq(r, &s, &dup) && !dup)
                    pool[npool++] = s;
            }
        }
        if (live)
            fprintf(prog, "\r\033[K");
        char what[96];
        snprintf(what, sizeof what, "beam step %u%s", step + 1, *cut ? " (time limit)" : "");
        if (!npool) {
            progress(prog, r, what, t0);
            break;
        }
        qsort(pool, npool, sizeof *pool, seq_cmp);
        /* a kernel reached by two sequences is in the pool once (the second is a duplicate) */
        nbeam = npool < width ? npool : width;
        memcpy(beam, pool, nbeam * sizeof *beam);
        int better = beam[0].cost < win->cost;
        if (prog) {
            fprintf(prog, "beam step %u: best %.1f%s; ", step + 1, beam[0].cost,
                    better ? " (improved)" : "");
            progress(prog, r, what, t0);
        }
        if (better)
            *win = beam[0];
        if (!better)
            break;
    }
    if (*cut && prog)
        fprintf(prog,
                "beam: time limit %.1f s reached: the best so far is kept (%zu opts, cost "
                "%.1f; not written to the cache file)\n",
                time_limit, win->n, win->cost);
    free(cand);
    free(pool);
    rdx_error_clear();
    return RDX_OK;
}

rdx_status rdx_cg_beam(rdx_ir_ctx *ctx, const rdx_uop *kernel, rdx_cg_timer timer, void *user,
                       const rdx_beam_opts *bo, rdx_opt *best, size_t cap, size_t *nbest,
                       double *best_cost)
{
    if (!ctx || !kernel || !timer || !best || !nbest)
        return rdx_fail(RDX_ERR_INVALID, "beam: NULL %s",
                        !ctx      ? "IR context"
                        : !kernel ? "kernel"
                        : !timer  ? "timer"
                        : !best   ? "opts output"
                                  : "opts count output");
    if (bo && bo->width > BEAM_MAX_WIDTH)
        return rdx_fail(RDX_ERR_INVALID, "beam: width %u: expected 1..%d (0: the default 4)",
                        bo->width, BEAM_MAX_WIDTH);
    if (bo && bo->max_steps > BEAM_MAX_STEPS)
        return rdx_fail(RDX_ERR_INVALID, "beam: %u steps: expected 1..%d (0: the default 6)",
                        bo->max_steps, BEAM_MAX_STEPS);
    if (bo && (bo->budget < 0 || (bo->budget > 0 && bo->budget < 1) || bo->budget != bo->budget))
        return rdx_fail(RDX_ERR_INVALID,
                        "beam: budget %g: expected 0 (the default %.0f x the best cost), >= 1 "
                        "(that factor); no_budget turns it off",
                        bo->budget, BEAM_BUDGET_DEF);
    if (bo && (bo->time_limit < 0 || bo->time_limit != bo->time_limit))
        return rdx_fail(RDX_ERR_INVALID, "beam: time limit %g s: expected >= 0 (0: none)",
                        bo->time_limit);
    unsigned width = bo && bo->width ? bo->width : 4,
             steps = bo && bo->max_steps ? bo->max_steps : 6;
    FILE *prog = bo ? bo->progress : NULL;
    const char *dev = bo && bo->device ? bo->device : "default";
    uint64_t key;
    rdx_status st = kernel_key(kernel, dev, &key);
    if (st)
        return st;
    beam_seq win = { .n = 0 };
    int hit = 0;
    for (cache_ent *e = g_cache; e && !hit; e = e->next)
        if (e->key == key) {
            win = e->seq;
            hit = 1;
        }
    if (!hit && bo && bo->cache_path) {
        st = cache_file_get(bo->cache_path, key, &win, &hit);
        if (st)
            return st;
        cache_ent *e = hit ? calloc(1, sizeof *e) : NULL;
        if (e) {
            e->key = key;
            e->seq = win;
            e->next = g_cache;
            g_cache = e;
        }
    }
    if (hit) {
        if (prog)
            fprintf(prog, "beam: cache hit %016llx: %zu opts, cost %.1f\n", (unsigned long long)key,
                    win.n, win.cost);
    } else {
        double factor = bo && bo->budget > 0 ? bo->budget : BEAM_BUDGET_DEF;
        beam_run r = { ctx, kernel, timer, user, bo && bo->no_budget ? 0 : factor, 0, NULL, 0, 0,
                       0,   0,      0,     0 };
        int cut = 0;
        st = search(&r, width, steps, bo ? bo->time_limit : 0, bo && bo->from_scratch, prog, &win,
                    &cut);
        free(r.seen);
        if (st)
            return st;
        st = cache_put(bo, key, &win, !cut); /* a time-boxed result stays in memory only */
        if (st)
            return st;
    }
    if (win.n > cap)
        return rdx_fail(RDX_ERR_INVALID, "beam: %zu opts do not fit in %zu", win.n, cap);
    memcpy(best, win.ops, win.n * sizeof *best);
    *nbest = win.n;
    if (best_cost)
        *best_cost = win.cost;
    return RDX_OK;
}
