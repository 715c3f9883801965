/*
 * alloc/plan.c — the memory planner: offsets in one arena for buffers with
 * known lifetimes.  Greedy by size: the largest buffers are placed first; each
 * goes into the smallest gap (between buffers already placed whose lifetimes
 * overlap its own) that holds it, or above them all.  O(n^2 log n).  When
 * alignment padding makes that worse than no reuse, the no-reuse layout
 * (end to end, largest alignment first) is returned instead.
 */
#include <stdlib.h>
#include <string.h>

#include <rdx/alloc.h>

#include "util/error.h"

typedef struct item {
    uint64_t size, align;
    uint32_t first, last;
    size_t index;
} item;

static int by_size_desc(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    return x->index < y->index ? -1 : (x->index > y->index);
}

static int by_align_desc(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->align != y->align)
        return x->align > y->align ? -1 : 1;
    return x->index < y->index ? -1 : (x->index > y->index);
}

typedef struct span {
    uint64_t off, end;
} span;

static int by_off(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return x->off < y->off ? -1 : (x->off > y->off);
}

/* Lifetime events for the lower bound: +size at first, -size after last. */
typedef struct event {
    uint64_t t; /* 2*step, +1 for "after last" so ends sort after starts of the same step */
    uint64_t size;
    int add;
} event;

static int by_time(const void *a, const void *b)
{
    const event *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return 0;
}

static bool align_up(uint64_t v, uint64_t a, uint64_t *out)
{
    if (v > UINT64_MAX - (a - 1))
        return false;
    *out = (v + a - 1) & ~(a - 1);
    return true;
}

rdx_status rdx_alloc_plan(const rdx_plan_buffer *bufs, size_t n, uint64_t *offsets,
                          rdx_plan_stats *stats)
{
    rdx_plan_stats st = { 0 };
    if (stats)
        *stats = st;
    if (!n)
        return RDX_OK;
    if (n > SIZE_MAX / (2 * sizeof(event)))
        return rdx_fail(RDX_ERR_INVALID, "rdx_alloc_plan: too many buffers (%zu)", n);
    for (size_t i = 0; i < n; i++) {
        uint64_t a = bufs[i].align ? bufs[i].align : 1, r;
        if (a & (a - 1))
            return rdx_fail(RDX_ERR_INVALID,
                            "rdx_alloc_plan: buffer %zu: alignment %llu is not a power of two", i,
                            (unsigned long long)a);
        if (bufs[i].first > bufs[i].last)
            return rdx_fail(RDX_ERR_INVALID,
                            "rdx_alloc_plan: buffer %zu: lifetime [%u, %u] ends before it starts",
                            i, bufs[i].first, bufs[i].last);
        if (!align_up(bufs[i].size, a, &r) || r > UINT64_MAX - st.no_reuse)
            return rdx_fail(RDX_ERR_INVALID, "rdx_alloc_plan: buffer %zu: sizes overflow", i);
        st.no_reuse += r;
    }
    item *it = malloc(n * sizeof *it);
    span *sp = malloc(n * sizeof *sp);
    event *ev = malloc(2 * n * sizeof *ev);
    size_t *placed = malloc(n * sizeof *placed); /* indices into it[], in placement order */
    if (!it || !sp || !ev || !placed) {
        free(it);
        free(sp);
        free(ev);
        free(placed);
        return rdx_fail(RDX_ERR_NOMEM, "rdx_alloc_plan: out of memory for %zu buffers", n);
    }
    for (size_t i = 0; i < n; i++) {
        it[i] = (item){ bufs[i].size, bufs[i].align ? bufs[i].align : 1, bufs[i].first,
                        bufs[i].last, i };
        ev[2 * i] = (event){ 2 * (uint64_t)bufs[i].first, bufs[i].size, 1 };
        ev[2 * i + 1] = (event){ 2 * (uint64_t)bufs[i].last + 1, bufs[i].size, 0 };
    }
    qsort(it, n, sizeof *it, by_size_desc);
    uint64_t live = 0;
    qsort(ev, 2 * n, sizeof *ev, by_time);
    for (size_t i = 0; i < 2 * n; i++) {
        live = ev[i].add ? live + ev[i].size : live - ev[i].size;
        if (live > st.lower_bound)
            st.lower_bound = live;
    }

    size_t nplaced = 0;
    for (size_t k = 0; k < n; k++) {
        item *b = &it[k];
        uint64_t off = 0;
        if (b->size) {
            size_t ns = 0;
            for (size_t j = 0; j < nplaced; j++) {
                const item *p = &it[placed[j]];
                if (p->size && p->first <= b->last && b->first <= p->last)
                    sp[ns++] = (span){ offsets[p->index], offsets[p->index] + p->size };
            }
            qsort(sp, ns, sizeof *sp, by_off);
            uint64_t cursor = 0, best = UINT64_MAX, best_gap = UINT64_MAX;
            for (size_t j = 0; j <= ns; j++) {
                uint64_t cand, gap_end = j < ns ? sp[j].off : UINT64_MAX;
                if (align_up(cursor, b->align, &cand) && cand <= gap_end &&
                    gap_end - cand >= b->size) {
                    uint64_t gap = gap_end - cursor;
                    if (j == ns) { /* above everything: only if no gap fits */
                        if (best == UINT64_MAX)
                            best = cand;
                    } else if (gap < best_gap) {
                        best_gap = gap;
                        best = cand;
                    }
                }
                if (j < ns && sp[j].end > cursor)
                    cursor = sp[j].end;
            }
            off = best;
            if (off == UINT64_MAX || off > UINT64_MAX - b->size) {
                free(it);
                free(sp);
                free(ev);
                free(placed);
                return rdx_fail(RDX_ERR_INVALID, "rdx_alloc_plan: arena offset overflow");
            }
            if (off + b->size > st.arena)
                st.arena = off + b->size;
        }
        offsets[b->index] = off;
        placed[nplaced++] = k;
    }
    if (st.arena > st.no_reuse) {
        /* Alignment padding made the greedy plan worse than no reuse at all:
         * lay the buffers end to end instead, largest alignment first, so
         * every offset stays aligned and the arena is exactly no_reuse. */
        for (size_t i = 0; i < n; i++)
            it[i] = (item){ bufs[i].size, bufs[i].align ? bufs[i].align : 1, 0, 0, i };
        qsort(it, n, sizeof *it, by_align_desc);
        uint64_t cursor = 0;
        for (size_t i = 0; i < n; i++) {
            offsets[it[i].index] = it[i].size ? cursor : 0;
            cursor += (it[i].size + it[i].align - 1) & ~(it[i].align - 1);
        }
        st.arena = cursor;
    }
    free(it);
    free(sp);
    free(ev);
    free(placed);
    if (stats)
        *stats = st;
    return RDX_OK;
}
