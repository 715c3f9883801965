/* codegen/beam.c — BEAM search over OptOp sequences with a pluggable timing
 * callback (the emulator's cycle estimate once the back end runs kernels),
 * a progress display and a result cache (in memory, and optionally a text
 * file: one line per kernel key). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/front_internal.h"
#include "util/error.h"

#define BEAM_MAX_STEPS 12
/* bumped whenever the timers' cost changes meaning (part of every cache key) */
#define RDX_CG_BEAM_OBJECTIVE "objective-v2-kernel-cycles"

#define BEAM_MAX_WIDTH 16

typedef struct beam_seq {
    rdx_opt ops[BEAM_MAX_STEPS];
    size_t n;
    double cost;
} beam_seq;

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

static int cache_file_get(const char *path, uint64_t key, beam_seq *out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[1024];
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long k;
        double cost;
        unsigned n;
        int off = 0;
        if (sscanf(line, "%llx %lf %u%n", &k, &cost, &n, &off) != 3 || k != key ||
            n > BEAM_MAX_STEPS)
            continue;
        beam_seq s = { .n = n, .cost = cost };
        int ok = 1;
        for (unsigned i = 0; i < n && ok; i++) {
            int op, axis, target, top, used = 0;
            long long amt;
            ok = sscanf(line + off, " %d %d %lld %d %d%n", &op, &axis, &amt, &target, &top,
                        &used) == 5 &&
                 op >= 0 && op < RDX_OPTOP_COUNT && target >= 0 && target < RDX_AXIS_COUNT;
            off += used;
            if (ok) {
                rdx_opt o = { (rdx_optop)op, axis, amt, (rdx_axistype)target, top };
                s.ops[i] = o;
            }
        }
        if (ok) {
            *out = s;
            found = 1;
        }
    }
    fclose(f);
    return found;
}

static rdx_status cache_put(const rdx_beam_opts *bo, uint64_t key, const beam_seq *s)
{
    cache_ent *e = calloc(1, sizeof *e);
    if (!e)
        return rdx_fail(RDX_ERR_NOMEM, "beam: out of memory");
    e->key = key;
    e->seq = *s;
    e->next = g_cache;
    g_cache = e;
    if (!bo || !bo->cache_path)
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

/* Time seq applied to the axis-typed kernel k; nonzero when it cannot be built or timed. */
static int time_seq(rdx_ir_ctx *ctx, const rdx_uop *k, beam_seq *s, rdx_cg_timer timer, void *user)
{
    const rdx_uop *o, *e;
    if (rdx_cg_apply_opts(ctx, k, s->ops, s->n, &o) || rdx_cg_expand(ctx, o, &e))
        return 1;
    return timer(e, user, &s->cost) != RDX_OK;
}

/* Candidate next opts for the kernel after seq. */
static size_t candidates(rdx_ir_ctx *ctx, const rdx_uop *k, const beam_seq *seq, rdx_opt *c,
                         size_t cap)
{
    const rdx_uop *o;
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t na, n = 0;
    if (rdx_cg_apply_opts(ctx, k, seq->ops, seq->n, &o) || rdx_cg_axes(o, ax, &na))
        return 0;
    int nolocals = 0, locals = 0;
    for (size_t i = 0; i < seq->n; i++)
        nolocals |= seq->ops[i].op == RDX_OPTOP_NOLOCALS;
    for (size_t i = 0; i < na; i++)
        locals |= ax[i].type == RDX_AXIS_LOCAL;
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
            /* lanes sharing a reduction: a power of two 16..256 (a row-fused kernel reaches
               its workgroup per row in valid steps: LOCAL of the columns, then each row
               reduction grouped with that size; expand refuses other combinations) */
            if (t == RDX_AXIS_REDUCE && f[j] >= 16 && (f[j] & (f[j] - 1)) == 0)
                tg[ntg++] = RDX_AXIS_GROUP_REDUCE;
            for (size_t q = 0; q < ntg && n < cap; q++) {
                rdx_opt x = { RDX_OPTOP_SPLIT, (int32_t)i, f[j], tg[q], 0 };
                c[n++] = x;
            }
        }
        if (t == RDX_AXIS_GLOBAL && sz > 32 && sz % 32 && n < cap) {
            rdx_opt x = { RDX_OPTOP_PADTO, (int32_t)i, 32, t, 0 };
            c[n++] = x;
        }
    }
    if (!nolocals && !locals && n < cap) {
        rdx_opt x = { RDX_OPTOP_NOLOCALS, 0, 0, RDX_AXIS_LOOP, 0 };
        c[n++] = x;
    }
    n += cg_lds_candidates(ax, na, seq->ops, seq->n, c + n, cap - n); /* LDS (lds_stage.c) */
    if (seq->n == 0 && n < cap) /* TC (first opt only): its tilings (opt_tc.c) */
        n += cg_tc_candidates(k, c + n, cap - n);
    return n;
}

static int seq_cmp(const void *a, const void *b)
{
    double x = ((const beam_seq *)a)->cost, y = ((const beam_seq *)b)->cost;
    return x < y ? -1 : x > y;
}

rdx_status rdx_cg_beam(rdx_ir_ctx *ctx, const rdx_uop *kernel, rdx_cg_timer timer, void *user,
                       const rdx_beam_opts *bo, rdx_opt *best, size_t cap, size_t *nbest,
                       double *best_cost)
{
    unsigned width = bo && bo->width ? bo->width : 4,
             steps = bo && bo->max_steps ? bo->max_steps : 6;
    width = width > BEAM_MAX_WIDTH ? BEAM_MAX_WIDTH : width;
    steps = steps > BEAM_MAX_STEPS ? BEAM_MAX_STEPS : steps;
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
    if (!hit && bo && bo->cache_path && cache_file_get(bo->cache_path, key, &win)) {
        hit = 1;
        cache_ent *e = calloc(1, sizeof *e);
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
        beam_seq beam[BEAM_MAX_WIDTH], *pool = NULL;
        size_t nbeam = 1, npool = 0;
        beam[0].n = 0;
        if (time_seq(ctx, kernel, &beam[0], timer, user))
            return rdx_fail(RDX_ERR_INVALID, "beam: the unoptimized kernel cannot be timed: %s",
                            rdx_error_message());
        win = beam[0];
        /* the heuristics' opts start in the beam too: the search never ends worse */
        beam_seq h = { .n = 0 };
        if (!rdx_cg_heuristic(kernel, h.ops, BEAM_MAX_STEPS, &h.n) && h.n &&
            !time_seq(ctx, kernel, &h, timer, user)) {
            beam[nbeam++] = h;
            qsort(beam, nbeam, sizeof *beam, seq_cmp);
            nbeam = nbeam < width ? nbeam : width;
            win = beam[0];
        }
        rdx_error_clear();
        rdx_opt *cand = malloc(512 * sizeof *cand);
        pool = malloc(BEAM_MAX_WIDTH * 512 * sizeof *pool);
        if (!cand || !pool) {
            free(cand);
            free(pool);
            return rdx_fail(RDX_ERR_NOMEM, "beam: out of memory");
        }
        for (unsigned step = 0; step < steps; step++) {
            npool = 0;
            size_t tried = 0;
            for (size_t b = 0; b < nbeam; b++) {
                size_t nc = candidates(ctx, kernel, &beam[b], cand, 512);
                for (size_t c = 0; c < nc; c++) {
                    beam_seq s = beam[b];
                    s.ops[s.n++] = cand[c];
                    tried++;
                    if (!time_seq(ctx, kernel, &s, timer, user))
                        pool[npool++] = s;
                }
            }
            if (!npool)
                break;
            qsort(pool, npool, sizeof *pool, seq_cmp);
            nbeam = npool < width ? npool : width;
            memcpy(beam, pool, nbeam * sizeof *beam);
            int better = beam[0].cost < win.cost;
            if (prog)
                fprintf(prog, "beam step %u: %zu candidates timed, %zu valid, best %.1f%s\n",
                        step + 1, tried, npool, beam[0].cost, better ? " (improved)" : "");
            if (!better)
                break;
            win = beam[0];
            if (win.n >= BEAM_MAX_STEPS)
                break;
        }
        free(cand);
        free(pool);
        rdx_error_clear();
        st = cache_put(bo, key, &win);
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
