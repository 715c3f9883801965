/*
 * alloc/kernarg.c — the kernel-argument ring.  Allocations are carved in
 * order from a circular region; a FIFO of (start, end, fence) records which
 * bytes the GPU may still read.  When a request does not fit before the end
 * of the region, the tail is skipped (and counted in that allocation's
 * record) and the request starts over at offset 0.
 */
#include <stdlib.h>
#include <string.h>

#include <rdx/alloc.h>

#include "util/error.h"

typedef struct rec {
    uint64_t start, end; /* busy ring offsets [start, end), start < end (never wraps) */
    uint64_t fence;
} rec;

struct rdx_kernarg_ring {
    uint64_t gpu, size;
    char *cpu;
    uint64_t head; /* next free offset */
    uint64_t last_fence;
    rec *q; /* circular FIFO of records */
    size_t qcap, qhead, qlen;
    uint64_t busy;
};

rdx_status rdx_kernarg_ring_create(uint64_t gpu_addr, void *cpu, uint64_t size,
                                   rdx_kernarg_ring **out)
{
    *out = NULL;
    if (!size || !cpu)
        return rdx_fail(RDX_ERR_INVALID, "rdx_kernarg_ring_create: %s",
                        !size ? "size 0" : "no CPU mapping");
    if (gpu_addr > UINT64_MAX - size)
        return rdx_fail(RDX_ERR_INVALID, "rdx_kernarg_ring_create: region wraps the address space");
    rdx_kernarg_ring *r = calloc(1, sizeof *r);
    if (!r)
        return rdx_fail(RDX_ERR_NOMEM, "rdx_kernarg_ring_create: out of memory");
    r->gpu = gpu_addr;
    r->cpu = cpu;
    r->size = size;
    *out = r;
    return RDX_OK;
}

void rdx_kernarg_ring_destroy(rdx_kernarg_ring *r)
{
    if (!r)
        return;
    free(r->q);
    free(r);
}

static rec *q_at(const rdx_kernarg_ring *r, size_t i)
{
    return &r->q[(r->qhead + i) % r->qcap];
}

static bool q_reserve(rdx_kernarg_ring *r, size_t extra)
{
    if (r->qlen + extra <= r->qcap)
        return true;
    size_t cap = r->qcap ? r->qcap * 2 : 64;
    while (cap < r->qlen + extra)
        cap *= 2;
    rec *q = malloc(cap * sizeof *q);
    if (!q)
        return false;
    for (size_t i = 0; i < r->qlen; i++)
        q[i] = *q_at(r, i);
    free(r->q);
    r->q = q;
    r->qcap = cap;
    r->qhead = 0;
    return true;
}

static void q_push(rdx_kernarg_ring *r, uint64_t start, uint64_t end, uint64_t fence)
{
    *q_at(r, r->qlen) = (rec){ start, end, fence };
    r->qlen++;
    r->busy += end - start;
}

/* Offset of the first aligned byte at or after `off`, or UINT64_MAX. */
static uint64_t align_off(const rdx_kernarg_ring *r, uint64_t off, uint64_t align)
{
    uint64_t addr = r->gpu + off;
    if (addr > UINT64_MAX - (align - 1))
        return UINT64_MAX;
    return ((addr + align - 1) & ~(align - 1)) - r->gpu;
}

rdx_status rdx_kernarg_ring_alloc(rdx_kernarg_ring *r, uint64_t size, uint64_t align,
                                  uint64_t fence, uint64_t *gpu_addr, void **cpu)
{
    if (!align)
        align = 16;
    if (!size || (align & (align - 1)))
        return rdx_fail(RDX_ERR_INVALID, "rdx_kernarg_ring_alloc: size %llu, align %llu",
                        (unsigned long long)size, (unsigned long long)align);
    if (fence < r->last_fence)
        return rdx_fail(RDX_ERR_INVALID,
                        "rdx_kernarg_ring_alloc: fence %llu is below the previous fence %llu",
                        (unsigned long long)fence, (unsigned long long)r->last_fence);
    uint64_t first0 = align_off(r, 0, align);
    if (first0 == UINT64_MAX || first0 > r->size || r->size - first0 < size)
        return rdx_fail(RDX_ERR_RANGE,
                        "rdx_kernarg_ring_alloc: %llu bytes aligned to %llu never fit a %llu-byte "
                        "ring",
                        (unsigned long long)size, (unsigned long long)align,
                        (unsigned long long)r->size);
    if (!q_reserve(r, 2))
        return rdx_fail(RDX_ERR_NOMEM, "rdx_kernarg_ring_alloc: out of memory");
    if (!r->qlen)
        r->head = 0; /* idle: start from the beginning, no wrap needed */
    /* Busy bytes run from the oldest record's start (tail) to head.  When
     * head > tail (or the ring is idle) the free space is [head, size) and
     * [0, tail); when head < tail it is the gap [head, tail); head == tail
     * with records means the ring is exactly full. */
    uint64_t tail = r->qlen ? q_at(r, 0)->start : 0;
    bool full = r->qlen && r->head == tail;
    bool gap = r->qlen && r->head < tail;
    uint64_t limit = gap ? tail : r->size;
    uint64_t start = align_off(r, r->head, align);
    if (!full && start != UINT64_MAX && start <= limit && limit - start >= size) {
        q_push(r, r->head, start + size, fence); /* alignment padding counts as busy */
    } else if (!full && !gap && first0 <= tail && tail - first0 >= size) {
        if (r->head < r->size)
            q_push(r, r->head, r->size, fence); /* the skipped tail of the ring */
        start = first0;
        q_push(r, 0, start + size, fence);
    } else {
        return rdx_fail(RDX_ERR_RANGE,
                        "kernarg ring full: %llu of %llu bytes busy, need %llu; wait for fence "
                        "%llu",
                        (unsigned long long)r->busy, (unsigned long long)r->size,
                        (unsigned long long)size, (unsigned long long)q_at(r, 0)->fence);
    }
    r->head = start + size;
    if (r->head == r->size)
        r->head = 0;
    r->last_fence = fence;
    *gpu_addr = r->gpu + start;
    *cpu = r->cpu + start;
    return RDX_OK;
}

void rdx_kernarg_ring_complete(rdx_kernarg_ring *r, uint64_t completed)
{
    while (r->qlen && q_at(r, 0)->fence <= completed) {
        rec *e = q_at(r, 0);
        r->busy -= e->end - e->start;
        r->qhead = (r->qhead + 1) % r->qcap;
        r->qlen--;
    }
}

uint64_t rdx_kernarg_ring_oldest_fence(const rdx_kernarg_ring *r)
{
    return r->qlen ? q_at(r, 0)->fence : UINT64_MAX;
}

uint64_t rdx_kernarg_ring_busy(const rdx_kernarg_ring *r)
{
    return r->busy;
}
