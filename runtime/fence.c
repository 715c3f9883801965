/*
 * runtime/fence.c — fences: a 64-bit value in a signal-pool slot with a KFD
 * signal event, set by the host or by a queue (RELEASE_MEM / SDMA fence +
 * trap) and waited for by the host or by a queue (WAIT_REG_MEM64 /
 * POLL_REGMEM).
 */
#include "runtime/internal.h"

#include <stdio.h>
#include <stdlib.h>

rdx_status rdx_fence_create(rdx_device *dev, uint64_t initial, rdx_fence **out)
{
    *out = NULL;
    rdx_fence *f = calloc(1, sizeof *f);
    if (!f)
        return rdx_fail(RDX_ERR_NOMEM, "rdx_fence_create: out of memory");
    f->dev = dev;
    rt_list_init(&f->link);
    rdx_status st = rdx_kfd_event_create(dev->kfd, RDX_KFD_EVENT_SIGNAL, 1, &f->ev);
    if (st) {
        free(f);
        return st;
    }
    pthread_mutex_lock(&dev->lock);
    st = rdx_signal_pool_acquire(dev->signals, initial, rdx_kfd_event_id(f->ev), &f->sig);
    if (st == RDX_OK) {
        rt_list_add(&dev->fences, &f->link);
        dev->counts.fences++;
    }
    pthread_mutex_unlock(&dev->lock);
    if (st) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
        rdx_kfd_event_destroy(dev->kfd, f->ev);
        free(f);
        return rdx_fail(st, "rdx_fence_create: %s", msg);
    }
    *out = f;
    return RDX_OK;
}

void rdx_fence_destroy(rdx_fence *f)
{
    if (!f)
        return;
    rdx_device *dev = f->dev;
    pthread_mutex_lock(&dev->lock);
    rt_list_del(&f->link);
    dev->counts.fences--;
    rdx_signal_pool_release(dev->signals, &f->sig);
    pthread_mutex_unlock(&dev->lock);
    if (rdx_kfd_event_destroy(dev->kfd, f->ev))
        fprintf(stderr, "rdx: destroying a fence: %s\n", rdx_error_message());
    free(f);
}

uint64_t rdx_fence_value(const rdx_fence *f)
{
    return __atomic_load_n(&f->sig.slot->value, __ATOMIC_ACQUIRE);
}

rdx_status rdx_fence_set(rdx_fence *f, uint64_t value)
{
    __atomic_store_n(&f->sig.slot->value, value, __ATOMIC_RELEASE);
    return rdx_kfd_event_set(f->dev->kfd, f->ev);
}

rdx_status rdx_fence_wait(rdx_fence *f, uint64_t value, uint32_t timeout_ms)
{
    return rt_wait_value(f->dev, NULL, &f->sig.slot->value, value, f->ev, timeout_ms);
}

static rdx_status submit(rdx_queue *q, rdx_pm4_cmdbuf *cb, uint64_t *ticket)
{
    pthread_mutex_lock(&q->lock);
    rdx_status st = rt_queue_ready(q);
    if (st == RDX_OK)
        st = rt_queue_submit(q, cb, ticket);
    pthread_mutex_unlock(&q->lock);
    return st;
}

rdx_status rdx_queue_signal(rdx_queue *q, rdx_fence *f, uint64_t value, uint64_t *ticket)
{
    if (!rdx_device_can_access_peer(q->dev, f->dev))
        return rdx_fail(RDX_ERR_INVALID,
                        "rdx_queue_signal: fence of GPU %u, which GPU %u cannot access",
                        f->dev->gpu, q->dev->gpu);
    uint32_t mem[64];
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init_fixed(&cb, mem, 64);
    if (q->kind == RDX_QUEUE_COPY && value > UINT32_MAX)
        return rdx_fail(RDX_ERR_RANGE, "rdx_queue_signal: copy queues write 32-bit values");
    rt_emit_signal(&cb, q->kind, f->sig.gpu_addr, value, f->ev);
    return submit(q, &cb, ticket);
}

rdx_status rdx_queue_wait_fence(rdx_queue *q, rdx_fence *f, uint64_t value)
{
    if (!rdx_device_can_access_peer(q->dev, f->dev))
        return rdx_fail(RDX_ERR_INVALID,
                        "rdx_queue_wait_fence: fence of GPU %u, which GPU %u cannot access",
                        f->dev->gpu, q->dev->gpu);
    uint32_t mem[64];
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init_fixed(&cb, mem, 64);
    if (q->kind == RDX_QUEUE_COMPUTE) {
        rdx_pm4_wait_mem64(&cb, f->sig.gpu_addr, value, UINT64_MAX, RDX_PM4_V_WAIT_FUNC_GE, 10);
    } else {
        if (value > UINT32_MAX)
            return rdx_fail(RDX_ERR_RANGE, "rdx_queue_wait_fence: copy queues poll 32-bit values");
        rdx_sdma_poll_mem(&cb, f->sig.gpu_addr, (uint32_t)value, 0xffffffffu,
                          RDX_PM4_V_SDMA_FUNC_GE, 10, 0xfff);
    }
    return submit(q, &cb, NULL);
}
