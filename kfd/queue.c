/*
 * kfd/queue.c — user-mode queues: AMDKFD_IOC_CREATE_QUEUE / DESTROY_QUEUE,
 * the doorbell slice (a DOORBELL allocation mapped through /dev/kfd at the
 * offset CREATE_QUEUE returns) and submission with 64-bit doorbell writes.
 *
 * Pointers: the read/write pointer page holds the 64-bit read pointer at
 * byte 0 and the write pointer at byte 8; both count dwords for PM4 queues
 * and bytes for SDMA queues since creation (never wrapped), and the doorbell
 * carries the write pointer.
 */
#include "kfd/drm_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kfd_ioctl.h>

#include "kfd/memory.h"

static rdx_status alloc(rdx_kfd *k, uint32_t gpu, rdx_kfd_mem_kind kind, uint64_t size,
                        uint32_t flags, rdx_kfd_mem **out)
{
    rdx_kfd_mem_desc d = { .kind = kind, .size = size, .flags = flags, .userptr = NULL };
    return rdx_kfd_mem_alloc(k, gpu, &d, out);
}

/* Map the GPU's doorbell slice on first use (refcounted per GPU). */
static rdx_status doorbells_get(rdx_kfd *k, uint32_t gpu, uint64_t doorbell_offset)
{
    rdx_kfd_gpu_state *g = &k->gpus[gpu];
    rdx_status st = RDX_OK;
    pthread_mutex_lock(&k->lock);
    if (!g->doorbells) {
        rdx_kfd_mem_desc d = { .kind = RDX_KFD_MEM_DOORBELL,
                               .size = RDX_KFD_DOORBELL_SLICE,
                               .flags = 0,
                               .userptr = NULL };
        pthread_mutex_unlock(&k->lock);
        rdx_kfd_mem *m;
        st = rdx_kfd_mem_alloc_at(k, gpu, &d, k->fd,
                                  doorbell_offset & ~(RDX_KFD_DOORBELL_SLICE - 1), &m);
        pthread_mutex_lock(&k->lock);
        if (st == RDX_OK) {
            if (g->doorbells) { /* another thread won */
                pthread_mutex_unlock(&k->lock);
                rdx_kfd_mem_free(k, m);
                pthread_mutex_lock(&k->lock);
            } else {
                g->doorbells = m;
            }
        }
    }
    if (st == RDX_OK)
        g->doorbell_users++;
    pthread_mutex_unlock(&k->lock);
    return st;
}

static rdx_status doorbells_put(rdx_kfd *k, uint32_t gpu)
{
    rdx_kfd_gpu_state *g = &k->gpus[gpu];
    rdx_kfd_mem *m = NULL;
    pthread_mutex_lock(&k->lock);
    if (--g->doorbell_users == 0) {
        m = g->doorbells;
        g->doorbells = NULL;
    }
    pthread_mutex_unlock(&k->lock);
    return rdx_kfd_mem_free(k, m);
}

/* Free the queue's buffers; returns the first failure (all are released). */
static rdx_status free_buffers(rdx_kfd *k, rdx_kfd_queue *q)
{
    rdx_kfd_mem *m[4] = { q->ctx, q->eop, q->ptrs, q->ring };
    rdx_status first = RDX_OK;
    char msg[512] = "";
    for (int i = 0; i < 4; i++) {
        rdx_status st = rdx_kfd_mem_free(k, m[i]);
        if (st != RDX_OK && first == RDX_OK) {
            first = st;
            snprintf(msg, sizeof msg, "%s", rdx_error_message());
        }
    }
    if (first != RDX_OK)
        rdx_fail(first, "%s", msg);
    return first;
}

rdx_status rdx_kfd_queue_create(rdx_kfd *k, uint32_t gpu, rdx_kfd_queue_kind kind,
                                uint32_t ring_bytes, rdx_kfd_queue **out)
{
    if (gpu >= k->gpu_count)
        return rdx_fail(RDX_ERR_INVALID, "rdx_kfd_queue_create: gpu index %u, have %u", gpu,
                        k->gpu_count);
    if (ring_bytes < KFD_MIN_QUEUE_RING_SIZE || (ring_bytes & (ring_bytes - 1)))
        return rdx_fail(RDX_ERR_INVALID,
                        "rdx_kfd_queue_create: ring of %u bytes (a power of two >= %d needed)",
                        ring_bytes, KFD_MIN_QUEUE_RING_SIZE);
    if (kind != RDX_KFD_QUEUE_COMPUTE && kind != RDX_KFD_QUEUE_SDMA)
        return rdx_fail(RDX_ERR_INVALID, "rdx_kfd_queue_create: unknown queue kind %d", kind);
    if (k->drm)
        return rdx_kfd_drm_queue_create(k, gpu, kind, ring_bytes, out);
    const rdx_kfd_gpu_info *info = &k->gpus[gpu].info;
    rdx_kfd_queue *q = calloc(1, sizeof *q);
    if (!q)
        return rdx_fail(RDX_ERR_NOMEM, "rdx_kfd_queue_create: out of memory");
    q->gpu = gpu;
    q->kind = kind;
    rdx_status st;
    if ((st = alloc(k, gpu, RDX_KFD_MEM_GTT, ring_bytes, RDX_KFD_MEM_UNCACHED, &q->ring)) ||
        (st = alloc(k, gpu, RDX_KFD_MEM_GTT, RDX_KFD_PAGE, RDX_KFD_MEM_UNCACHED, &q->ptrs)))
        goto fail;
    if (kind == RDX_KFD_QUEUE_COMPUTE &&
        ((st = alloc(k, gpu, RDX_KFD_MEM_VRAM, info->eop_buffer_size, 0, &q->eop)) ||
         (st = alloc(k, gpu, RDX_KFD_MEM_GTT, (uint64_t)info->cwsr_size + info->debug_memory_size,
                     0, &q->ctx))))
        goto fail;
    q->ring_cpu = rdx_kfd_mem_cpu(q->ring);
    q->ring_dw = ring_bytes / 4;
    memset(q->ring_cpu, 0, ring_bytes);
    uint64_t *ptrs = rdx_kfd_mem_cpu(q->ptrs);
    ptrs[0] = ptrs[1] = 0;
    q->rptr = &ptrs[0];
    q->wptr = &ptrs[1];

    struct kfd_ioctl_create_queue_args a = { 0 };
    a.ring_base_address = rdx_kfd_mem_gpu_addr(q->ring);
    a.read_pointer_address = rdx_kfd_mem_gpu_addr(q->ptrs);
    a.write_pointer_address = rdx_kfd_mem_gpu_addr(q->ptrs) + 8;
    a.ring_size = ring_bytes;
    a.gpu_id = info->gpu_id;
    a.queue_type =
        kind == RDX_KFD_QUEUE_COMPUTE ? KFD_IOC_QUEUE_TYPE_COMPUTE : KFD_IOC_QUEUE_TYPE_SDMA;
    a.queue_percentage = KFD_MAX_QUEUE_PERCENTAGE;
    a.queue_priority = 7;
    if (kind == RDX_KFD_QUEUE_COMPUTE) {
        a.eop_buffer_address = rdx_kfd_mem_gpu_addr(q->eop);
        a.eop_buffer_size = info->eop_buffer_size;
        a.ctx_save_restore_address = rdx_kfd_mem_gpu_addr(q->ctx);
        a.ctx_save_restore_size = info->cwsr_size;
        a.ctl_stack_size = info->ctl_stack_size;
    }
    if ((st = RDX_KFD_IOCTL(k->os, k->fd, AMDKFD_IOC_CREATE_QUEUE, &a)) != RDX_OK)
        goto fail;
    q->id = a.queue_id;
    if ((st = doorbells_get(k, gpu, a.doorbell_offset)) != RDX_OK) {
        struct kfd_ioctl_destroy_queue_args d = { .queue_id = q->id, .pad = 0 };
        (void)RDX_KFD_IOCTL(k->os, k->fd, AMDKFD_IOC_DESTROY_QUEUE, &d);
        goto fail;
    }
    q->doorbell = (volatile uint64_t *)((char *)rdx_kfd_mem_cpu(k->gpus[gpu].doorbells) +
                                        (a.doorbell_offset & (RDX_KFD_DOORBELL_SLICE - 1)));
    pthread_mutex_lock(&k->lock);
    k->live_queues++;
    pthread_mutex_unlock(&k->lock);
    *out = q;
    return RDX_OK;
fail:
    free_buffers(k, q);
    free(q);
    return rdx_fail_context(st, "creating a %s queue on gpu %u",
                            kind == RDX_KFD_QUEUE_COMPUTE ? "compute" : "SDMA", info->gpu_id);
}

rdx_status rdx_kfd_queue_destroy(rdx_kfd *k, rdx_kfd_queue *q)
{
    if (!q)
        return RDX_OK;
    if (q->drm)
        return rdx_kfd_drm_queue_destroy(k, q);
    struct kfd_ioctl_destroy_queue_args d = { .queue_id = q->id, .pad = 0 };
    rdx_status st = RDX_KFD_IOCTL(k->os, k->fd, AMDKFD_IOC_DESTROY_QUEUE, &d);
    char msg[512] = "";
    if (st != RDX_OK)
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
    rdx_status st2 = doorbells_put(k, q->gpu);
    if (st == RDX_OK && st2 != RDX_OK) {
        st = st2;
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
    }
    st2 = free_buffers(k, q);
    if (st == RDX_OK && st2 != RDX_OK) {
        st = st2;
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
    }
    pthread_mutex_lock(&k->lock);
    k->live_queues--;
    pthread_mutex_unlock(&k->lock);
    free(q);
    if (st != RDX_OK)
        return rdx_fail(st, "destroying queue %u: %s", d.queue_id, msg);
    return RDX_OK;
}

/* The GPU's read pointer in dwords since creation.  An SDMA engine reports a 64-bit byte count
 * that never wraps; the compute CP reports a 32-bit dword offset that wraps at the ring's size
 * (Linux's gfx_v11_0_ring_get_rptr_compute reads 32 bits; AMD's kfdtest PM4Queue::Rptr), so
 * the count is rebuilt from the write pointer: at most a ring behind it. */
static uint64_t read_rptr(const rdx_kfd_queue *q)
{
    if (q->kind == RDX_KFD_QUEUE_SDMA)
        return __atomic_load_n(q->rptr, __ATOMIC_ACQUIRE) / 4;
    uint32_t off = __atomic_load_n((const uint32_t *)q->rptr, __ATOMIC_ACQUIRE);
    return q->wptr_dw - ((q->wptr_dw - off) & (q->ring_dw - 1));
}

rdx_status rdx_kfd_queue_submit(rdx_kfd_queue *q, const uint32_t *dw, size_t ndw)
{
    if (q->drm)
        return rdx_kfd_drm_queue_submit(q, dw, ndw);
    if (ndw == 0)
        return RDX_OK;
    uint64_t unit = q->kind == RDX_KFD_QUEUE_SDMA ? 4 : 1;
    uint64_t used = q->wptr_dw - read_rptr(q);
    /* One dword stays free: with a wrapping read pointer a full ring would read as empty. */
    if (ndw > q->ring_dw - 1 - used)
        return rdx_fail(RDX_ERR_RANGE,
                        "queue %u: %zu dwords do not fit (ring %u dwords, %llu in flight)", q->id,
                        ndw, q->ring_dw, (unsigned long long)used);
    size_t at = (size_t)(q->wptr_dw % q->ring_dw), first = q->ring_dw - at;
    if (first > ndw)
        first = ndw;
    memcpy(q->ring_cpu + at, dw, first * 4);
    memcpy(q->ring_cpu, dw + first, (ndw - first) * 4);
    q->wptr_dw += ndw;
    __atomic_store_n(q->wptr, q->wptr_dw * unit, __ATOMIC_RELEASE);
    __atomic_store_n(q->doorbell, q->wptr_dw * unit, __ATOMIC_RELEASE);
    return RDX_OK;
}

uint64_t rdx_kfd_queue_wptr(const rdx_kfd_queue *q)
{
    return q->wptr_dw;
}

uint64_t rdx_kfd_queue_rptr(const rdx_kfd_queue *q)
{
    if (q->drm)
        return q->drm->rptr_dw; /* IB space given back so far */
    return read_rptr(q);
}

uint32_t rdx_kfd_queue_id(const rdx_kfd_queue *q)
{
    return q->id;
}
