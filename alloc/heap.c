/*
 * alloc/heap.c — the sub-allocator: per-kind heaps of backing blocks, each
 * block an address-ordered array of segments (free or used) that exactly
 * cover it.  Allocation picks a free segment (best or first fit), splits off
 * alignment padding and the tail; free coalesces with free neighbours and
 * releases blocks that become empty.  Cost per call is linear in the number
 * of segments of the kind, which stays small because kernels allocate few
 * large buffers; replace the arrays with trees if that ever changes.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/alloc.h>

#include "util/error.h"

typedef struct seg {
    uint64_t off, size; /* within the block */
    bool used;
} seg;

typedef struct block {
    rdx_alloc_block b;
    seg *segs;
    size_t nseg, cap;
    uint64_t nalloc; /* used segments */
} block;

typedef struct heap {
    block **blocks; /* sorted by address */
    size_t n, cap;
    uint64_t in_use, peak_in_use, backing, peak_backing, allocations;
} heap;

struct rdx_alloc {
    rdx_alloc_backing backing;
    rdx_alloc_config cfg;
    pthread_mutex_t mu;
    heap heaps[RDX_ALLOC_MAX_KINDS];
};

static bool pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

/* Round v up to a multiple of a (power of two); false on overflow. */
static bool round_up(uint64_t v, uint64_t a, uint64_t *out)
{
    if (v > UINT64_MAX - (a - 1))
        return false;
    *out = (v + a - 1) & ~(a - 1);
    return true;
}

rdx_status rdx_alloc_create(const rdx_alloc_backing *backing, const rdx_alloc_config *cfg,
                            rdx_alloc **out)
{
    *out = NULL;
    if (!backing || !backing->obtain || !backing->release)
        return rdx_fail(RDX_ERR_INVALID, "rdx_alloc_create: backing callbacks missing");
    rdx_alloc_config c = cfg ? *cfg : (rdx_alloc_config){ 0 };
    if (!c.block_align)
        c.block_align = 4096;
    if (!c.block_size)
        c.block_size = 64ull << 20;
    if (!pow2(c.block_align))
        return rdx_fail(RDX_ERR_INVALID, "rdx_alloc_create: block_align %llu is not a power of two",
                        (unsigned long long)c.block_align);
    if (c.fit != RDX_ALLOC_BEST_FIT && c.fit != RDX_ALLOC_FIRST_FIT)
        return rdx_fail(RDX_ERR_INVALID, "rdx_alloc_create: unknown fit policy %d", (int)c.fit);
    if (!round_up(c.block_size, c.block_align, &c.block_size))
        return rdx_fail(RDX_ERR_INVALID, "rdx_alloc_create: block_size too large");
    rdx_alloc *a = calloc(1, sizeof *a);
    if (!a)
        return rdx_fail(RDX_ERR_NOMEM, "rdx_alloc_create: out of memory");
    a->backing = *backing;
    a->cfg = c;
    pthread_mutex_init(&a->mu, NULL);
    *out = a;
    return RDX_OK;
}

/* Give b back to the backing and free it; the backing's error, with the
 * block named. */
static rdx_status block_release(rdx_alloc *a, uint32_t kind, block *b)
{
    rdx_alloc_block rb = b->b;
    rdx_status st = a->backing.release(a->backing.user, kind, &rb);
    free(b->segs);
    free(b);
    if (st)
        return rdx_fail_context(st, "releasing the %llu-byte backing block at 0x%llx of kind %u",
                                (unsigned long long)rb.size, (unsigned long long)rb.addr, kind);
    return RDX_OK;
}

rdx_status rdx_alloc_destroy(rdx_alloc *a)
{
    if (!a)
        return RDX_OK;
    rdx_status first = RDX_OK;
    char msg[256] = "";
    for (uint32_t k = 0; k < RDX_ALLOC_MAX_KINDS; k++) {
        heap *h = &a->heaps[k];
        for (size_t i = 0; i < h->n; i++) {
            rdx_status st = block_release(a, k, h->blocks[i]);
            if (st && !first) {
                first = st;
                snprintf(msg, sizeof msg, "%s", rdx_error_message());
            }
        }
        free(h->blocks);
    }
    pthread_mutex_destroy(&a->mu);
    free(a);
    if (first)
        return rdx_fail(first, "%s", msg);
    return RDX_OK;
}

/* Where `size` bytes aligned to `align` would go inside free segment s of b. */
static bool seg_fit(const block *b, const seg *s, uint64_t size, uint64_t align, uint64_t *start)
{
    uint64_t addr = b->b.addr + s->off, aligned;
    if (!round_up(addr, align, &aligned))
        return false;
    uint64_t pad = aligned - addr;
    if (pad > s->size || s->size - pad < size)
        return false;
    *start = s->off + pad;
    return true;
}

static bool seg_reserve(block *b, size_t extra)
{
    if (b->nseg + extra <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap * 2 : 8;
    while (cap < b->nseg + extra)
        cap *= 2;
    seg *p = realloc(b->segs, cap * sizeof *p);
    if (!p)
        return false;
    b->segs = p;
    b->cap = cap;
    return true;
}

/* Carve [start, start+size) out of free segment i (room for 2 more segments
 * must be reserved). */
static void seg_take(block *b, size_t i, uint64_t start, uint64_t size)
{
    seg s = b->segs[i];
    seg parts[3];
    int n = 0;
    if (start > s.off)
        parts[n++] = (seg){ s.off, start - s.off, false };
    parts[n++] = (seg){ start, size, true };
    if (start + size < s.off + s.size)
        parts[n++] = (seg){ start + size, s.off + s.size - start - size, false };
    memmove(&b->segs[i + n], &b->segs[i + 1], (b->nseg - i - 1) * sizeof(seg));
    memcpy(&b->segs[i], parts, n * sizeof(seg));
    b->nseg += n - 1;
    b->nalloc++;
}

static void account_alloc(heap *h, uint64_t size)
{
    h->in_use += size;
    h->allocations++;
    if (h->in_use > h->peak_in_use)
        h->peak_in_use = h->in_use;
}

static rdx_status new_block(rdx_alloc *a, uint32_t kind, uint64_t size, uint64_t align, block **out)
{
    heap *h = &a->heaps[kind];
    uint64_t need = size, bytes;
    if (align > a->cfg.block_align && need > UINT64_MAX - align)
        return rdx_fail(RDX_ERR_INVALID, "rdx_alloc_alloc: %llu bytes aligned to %llu overflow",
                        (unsigned long long)size, (unsigned long long)align);
    if (align > a->cfg.block_align)
        need += align;
    if (!round_up(need, a->cfg.block_align, &bytes))
        return rdx_fail(RDX_ERR_INVALID, "rdx_alloc_alloc: %llu bytes overflow",
                        (unsigned long long)size);
    if (bytes < a->cfg.block_size)
        bytes = a->cfg.block_size;
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 4;
        block **p = realloc(h->blocks, cap * sizeof *p);
        if (!p)
            return rdx_fail(RDX_ERR_NOMEM, "rdx_alloc_alloc: out of memory");
        h->blocks = p;
        h->cap = cap;
    }
    block *b = calloc(1, sizeof *b);
    if (!b || !seg_reserve(b, 3)) {
        free(b);
        return rdx_fail(RDX_ERR_NOMEM, "rdx_alloc_alloc: out of memory");
    }
    rdx_status st = a->backing.obtain(a->backing.user, kind, bytes, &b->b);
    if (st) {
        free(b->segs);
        free(b);
        return rdx_fail_context(st, "allocating a %llu-byte backing block of kind %u",
                                (unsigned long long)bytes, kind);
    }
    if (b->b.size != bytes || b->b.addr & (a->cfg.block_align - 1) ||
        b->b.addr > UINT64_MAX - bytes) {
        rdx_alloc_block got = b->b;
        (void)block_release(a, kind, b); /* the bad block is the error reported */
        return rdx_fail(RDX_ERR_DEVICE,
                        "backing returned block 0x%llx+%llu for a request of %llu bytes aligned "
                        "to %llu",
                        (unsigned long long)got.addr, (unsigned long long)got.size,
                        (unsigned long long)bytes, (unsigned long long)a->cfg.block_align);
    }
    b->segs[0] = (seg){ 0, bytes, false };
    b->nseg = 1;
    size_t i = h->n;
    while (i > 0 && h->blocks[i - 1]->b.addr > b->b.addr) {
        h->blocks[i] = h->blocks[i - 1];
        i--;
    }
    h->blocks[i] = b;
    h->n++;
    h->backing += bytes;
    if (h->backing > h->peak_backing)
        h->peak_backing = h->backing;
    *out = b;
    return RDX_OK;
}

rdx_status rdx_alloc_alloc(rdx_alloc *a, uint32_t kind, uint64_t size, uint64_t align,
                           rdx_alloc_region *out)
{
    memset(out, 0, sizeof *out);
    if (kind >= RDX_ALLOC_MAX_KINDS)
        return rdx_fail(RDX_ERR_INVALID, "rdx_alloc_alloc: kind %u, expected < %d", kind,
                        RDX_ALLOC_MAX_KINDS);
    if (!size)
        return rdx_fail(RDX_ERR_INVALID, "rdx_alloc_alloc: size 0");
    if (!align)
        align = 1;
    if (!pow2(align))
        return rdx_fail(RDX_ERR_INVALID, "rdx_alloc_alloc: alignment %llu is not a power of two",
                        (unsigned long long)align);
    pthread_mutex_lock(&a->mu);
    heap *h = &a->heaps[kind];
    block *best_b = NULL;
    size_t best_i = 0;
    uint64_t best_start = 0, best_left = UINT64_MAX;
    for (size_t bi = 0; bi < h->n; bi++) {
        block *b = h->blocks[bi];
        for (size_t i = 0; i < b->nseg; i++) {
            uint64_t start;
            if (b->segs[i].used || !seg_fit(b, &b->segs[i], size, align, &start))
                continue;
            uint64_t left = b->segs[i].size - size;
            if (left < best_left) {
                best_b = b;
                best_i = i;
                best_start = start;
                best_left = left;
                if (a->cfg.fit == RDX_ALLOC_FIRST_FIT || left == 0)
                    goto found;
            }
        }
    }
    if (!best_b) {
        rdx_status st = new_block(a, kind, size, align, &best_b);
        if (st) {
            pthread_mutex_unlock(&a->mu);
            return st;
        }
        best_i = 0;
        bool ok = seg_fit(best_b, &best_b->segs[0], size, align, &best_start);
        (void)ok;
    }
found:
    if (!seg_reserve(best_b, 2)) {
        pthread_mutex_unlock(&a->mu);
        /* a fresh block stays as an empty cached block; released by trim/destroy */
        return rdx_fail(RDX_ERR_NOMEM, "rdx_alloc_alloc: out of memory");
    }
    seg_take(best_b, best_i, best_start, size);
    account_alloc(h, size);
    out->addr = best_b->b.addr + best_start;
    out->cpu = best_b->b.cpu ? (char *)best_b->b.cpu + best_start : NULL;
    out->size = size;
    out->kind = kind;
    pthread_mutex_unlock(&a->mu);
    return RDX_OK;
}

/* Index of the block of h containing addr, or h->n. */
static size_t find_block(const heap *h, uint64_t addr)
{
    size_t lo = 0, hi = h->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const block *b = h->blocks[mid];
        if (addr < b->b.addr)
            hi = mid;
        else if (addr - b->b.addr >= b->b.size)
            lo = mid + 1;
        else
            return mid;
    }
    return h->n;
}

static size_t empty_blocks(const heap *h)
{
    size_t n = 0;
    for (size_t i = 0; i < h->n; i++)
        n += h->blocks[i]->nalloc == 0;
    return n;
}

static rdx_status heap_remove_block(rdx_alloc *a, uint32_t kind, size_t bi)
{
    heap *h = &a->heaps[kind];
    block *b = h->blocks[bi];
    h->backing -= b->b.size;
    memmove(&h->blocks[bi], &h->blocks[bi + 1], (h->n - bi - 1) * sizeof *h->blocks);
    h->n--;
    return block_release(a, kind, b);
}

rdx_status rdx_alloc_free(rdx_alloc *a, uint32_t kind, uint64_t addr)
{
    if (kind >= RDX_ALLOC_MAX_KINDS)
        return rdx_fail(RDX_ERR_INVALID, "rdx_alloc_free: kind %u, expected < %d", kind,
                        RDX_ALLOC_MAX_KINDS);
    pthread_mutex_lock(&a->mu);
    heap *h = &a->heaps[kind];
    size_t bi = find_block(h, addr);
    block *b = bi < h->n ? h->blocks[bi] : NULL;
    size_t i = 0;
    if (b) {
        uint64_t off = addr - b->b.addr;
        size_t lo = 0, hi = b->nseg;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (b->segs[mid].off < off)
                lo = mid + 1;
            else
                hi = mid;
        }
        i = lo;
        if (i == b->nseg || b->segs[i].off != off || !b->segs[i].used)
            b = NULL;
    }
    if (!b) {
        pthread_mutex_unlock(&a->mu);
        return rdx_fail(RDX_ERR_INVALID,
                        "rdx_alloc_free: 0x%llx is not the start of a live allocation of kind %u",
                        (unsigned long long)addr, kind);
    }
    h->in_use -= b->segs[i].size;
    h->allocations--;
    b->nalloc--;
    b->segs[i].used = false;
    if (i + 1 < b->nseg && !b->segs[i + 1].used) {
        b->segs[i].size += b->segs[i + 1].size;
        memmove(&b->segs[i + 1], &b->segs[i + 2], (b->nseg - i - 2) * sizeof(seg));
        b->nseg--;
    }
    if (i > 0 && !b->segs[i - 1].used) {
        b->segs[i - 1].size += b->segs[i].size;
        memmove(&b->segs[i], &b->segs[i + 1], (b->nseg - i - 1) * sizeof(seg));
        b->nseg--;
    }
    rdx_status st = RDX_OK;
    if (b->nalloc == 0 && empty_blocks(h) > a->cfg.keep_empty)
        st = heap_remove_block(a, kind, bi);
    pthread_mutex_unlock(&a->mu);
    return st;
}

rdx_status rdx_alloc_trim(rdx_alloc *a)
{
    rdx_status first = RDX_OK;
    char msg[256] = "";
    pthread_mutex_lock(&a->mu);
    for (uint32_t k = 0; k < RDX_ALLOC_MAX_KINDS; k++) {
        heap *h = &a->heaps[k];
        for (size_t i = h->n; i-- > 0;)
            if (h->blocks[i]->nalloc == 0) {
                rdx_status st = heap_remove_block(a, k, i);
                if (st && !first) {
                    first = st;
                    snprintf(msg, sizeof msg, "%s", rdx_error_message());
                }
            }
    }
    pthread_mutex_unlock(&a->mu);
    if (first)
        return rdx_fail(first, "%s", msg);
    return RDX_OK;
}

static void add_stats(const heap *h, rdx_alloc_stats *s)
{
    s->in_use += h->in_use;
    s->peak_in_use += h->peak_in_use;
    s->backing += h->backing;
    s->peak_backing += h->peak_backing;
    s->allocations += h->allocations;
    s->blocks += h->n;
    for (size_t bi = 0; bi < h->n; bi++) {
        const block *b = h->blocks[bi];
        for (size_t i = 0; i < b->nseg; i++) {
            if (b->segs[i].used)
                continue;
            s->free_bytes += b->segs[i].size;
            if (b->segs[i].size > s->largest_free)
                s->largest_free = b->segs[i].size;
        }
    }
}

void rdx_alloc_get_stats(rdx_alloc *a, uint32_t kind, rdx_alloc_stats *out)
{
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&a->mu);
    for (uint32_t k = 0; k < RDX_ALLOC_MAX_KINDS; k++)
        if (kind == UINT32_MAX || kind == k)
            add_stats(&a->heaps[k], out);
    pthread_mutex_unlock(&a->mu);
    out->fragmentation =
        out->free_bytes ? 1.0 - (double)out->largest_free / (double)out->free_bytes : 0.0;
}
