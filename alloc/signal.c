/* alloc/signal.c — a pool of 64-byte signal slots with a LIFO free list. */
#include <stdlib.h>
#include <string.h>

#include <rdx/alloc.h>

#include "util/error.h"

_Static_assert(sizeof(rdx_signal_slot) == RDX_SIGNAL_SLOT_BYTES, "signal slot layout");

struct rdx_signal_pool {
    uint64_t gpu;
    rdx_signal_slot *slots;
    uint32_t n, in_use;
    uint32_t *free_list; /* stack of free slot indices */
    uint32_t nfree;
    uint32_t *generation; /* per slot; odd while held */
};

rdx_status rdx_signal_pool_create(uint64_t gpu_addr, void *cpu, uint64_t size,
                                  rdx_signal_pool **out)
{
    *out = NULL;
    uint64_t n = size / RDX_SIGNAL_SLOT_BYTES;
    if (!cpu || !n || gpu_addr % RDX_SIGNAL_SLOT_BYTES ||
        (uintptr_t)cpu % _Alignof(rdx_signal_slot))
        return rdx_fail(RDX_ERR_INVALID,
                        "rdx_signal_pool_create: need a 64-byte aligned region of at least one "
                        "64-byte slot (gpu 0x%llx, %llu bytes%s)",
                        (unsigned long long)gpu_addr, (unsigned long long)size,
                        cpu ? "" : ", no CPU mapping");
    if (n > UINT32_MAX / 2)
        n = UINT32_MAX / 2;
    rdx_signal_pool *p = calloc(1, sizeof *p);
    if (p) {
        p->free_list = malloc(n * sizeof *p->free_list);
        p->generation = calloc(n, sizeof *p->generation);
    }
    if (!p || !p->free_list || !p->generation) {
        if (p) {
            free(p->free_list);
            free(p->generation);
        }
        free(p);
        return rdx_fail(RDX_ERR_NOMEM, "rdx_signal_pool_create: out of memory");
    }
    p->gpu = gpu_addr;
    p->slots = cpu;
    p->n = (uint32_t)n;
    for (uint32_t i = 0; i < p->n; i++)
        p->free_list[i] = p->n - 1 - i; /* slot 0 is handed out first */
    p->nfree = p->n;
    *out = p;
    return RDX_OK;
}

void rdx_signal_pool_destroy(rdx_signal_pool *p)
{
    if (!p)
        return;
    free(p->free_list);
    free(p->generation);
    free(p);
}

rdx_status rdx_signal_pool_acquire(rdx_signal_pool *p, uint64_t initial, uint32_t event_id,
                                   rdx_signal *out)
{
    memset(out, 0, sizeof *out);
    if (!p->nfree)
        return rdx_fail(RDX_ERR_RANGE, "signal pool exhausted: all %u slots in use", p->n);
    uint32_t i = p->free_list[--p->nfree];
    p->generation[i]++; /* odd: held */
    rdx_signal_slot *s = &p->slots[i];
    memset(s, 0, sizeof *s);
    s->event_id = event_id;
    s->value = initial;
    p->in_use++;
    out->index = i;
    out->generation = p->generation[i];
    out->gpu_addr = p->gpu + (uint64_t)i * RDX_SIGNAL_SLOT_BYTES;
    out->slot = s;
    return RDX_OK;
}

rdx_status rdx_signal_pool_release(rdx_signal_pool *p, const rdx_signal *s)
{
    if (s->index >= p->n || p->generation[s->index] != s->generation || !(s->generation & 1))
        return rdx_fail(RDX_ERR_INVALID,
                        "rdx_signal_pool_release: signal slot %u generation %u is not held "
                        "(double release or stale handle)",
                        s->index, s->generation);
    p->generation[s->index]++; /* even: free */
    p->free_list[p->nfree++] = s->index;
    p->in_use--;
    return RDX_OK;
}

uint32_t rdx_signal_pool_in_use(const rdx_signal_pool *p)
{
    return p->in_use;
}

uint32_t rdx_signal_pool_capacity(const rdx_signal_pool *p)
{
    return p->n;
}
