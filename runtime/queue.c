/*
 * runtime/queue.c — queues: creation over KFD user queues, the timeline
 * (a signal slot + a KFD signal event the end-of-pipe packet raises),
 * submission with waits for ring space, host waits with fault detection and
 * timeouts, and recreation of a queue after a fault.
 */
#include "runtime/internal.h"

#include <assert.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CONTAINER(ptr, type) ((type *)(void *)((char *)(ptr) - offsetof(type, link)))

uint64_t rt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint32_t qid(const rdx_queue *q)
{
    return q && q->kq ? rdx_kfd_queue_id(q->kq) : 0;
}

#define RT_SPIN_NS 20000u /* how long a waiter spins before it sleeps */

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static rdx_status kq_create(rdx_queue *q)
{
    rdx_kfd_queue_kind kind =
        q->kind == RDX_QUEUE_COPY ? RDX_KFD_QUEUE_SDMA : RDX_KFD_QUEUE_COMPUTE;
    return rdx_kfd_queue_create(q->dev->kfd, q->dev->gpu, kind, RT_RING_BYTES, &q->kq);
}

/* Free q and its memory; the first failure to give GPU memory back. */
static rdx_status free_parts(rdx_queue *q)
{
    rdx_device *dev = q->dev;
    rt_queue_prof_release(q);
    rdx_status st = rt_heap_free(dev, RT_HEAP_DEVICE, &q->scratch);
    char msg[1024] = "";
    if (st)
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
    rdx_kernarg_ring_destroy(q->kernargs);
    rdx_status st2 = rt_heap_free(dev, RT_HEAP_SYNC, &q->aux);
    if (st2 && !st) {
        st = st2;
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
    }
    if (q->timeline.slot) {
        pthread_mutex_lock(&dev->lock);
        rdx_signal_pool_release(dev->signals, &q->timeline);
        pthread_mutex_unlock(&dev->lock);
    }
    pthread_mutex_destroy(&q->lock);
    free(q);
    return st ? rdx_fail(st, "%s", msg) : RDX_OK;
}

rdx_status rdx_queue_create(rdx_device *dev, rdx_queue_kind kind, rdx_queue **out)
{
    *out = NULL;
    if (kind != RDX_QUEUE_COMPUTE && kind != RDX_QUEUE_COPY)
        return rdx_fail(RDX_ERR_INVALID, "rdx_queue_create: unknown queue kind %d", (int)kind);
    rdx_queue *q = calloc(1, sizeof *q);
    if (!q)
        return rdx_fail(RDX_ERR_NOMEM, "rdx_queue_create: out of memory");
    q->dev = dev;
    q->kind = kind;
    rt_list_init(&q->link);
    pthread_mutex_init(&q->lock, NULL);
    rdx_status st = rdx_kfd_event_create(dev->kfd, RDX_KFD_EVENT_SIGNAL, 1, &q->ev);
    if (st == RDX_OK) {
        pthread_mutex_lock(&dev->lock);
        st = rdx_signal_pool_acquire(dev->signals, 0, rdx_kfd_event_id(q->ev), &q->timeline);
        pthread_mutex_unlock(&dev->lock);
        if (st)
            st = rdx_fail_context(st, "rdx_queue_create: signal pool");
    }
    if (st == RDX_OK && kind == RDX_QUEUE_COMPUTE) {
        uint64_t ts_bytes = RT_TS_SLOTS * 16;
        st = rt_heap_alloc(dev, RT_HEAP_SYNC, RT_KERNARG_BYTES + ts_bytes + 256, 256, &q->aux);
        if (st == RDX_OK) {
            memset(q->aux.cpu, 0, q->aux.size);
            st = rdx_kernarg_ring_create(q->aux.addr, q->aux.cpu, RT_KERNARG_BYTES, &q->kernargs);
            q->ts_gpu = q->aux.addr + RT_KERNARG_BYTES;
            q->ts_cpu = (uint64_t *)((char *)q->aux.cpu + RT_KERNARG_BYTES);
            q->queue_block = q->ts_gpu + ts_bytes;
        }
    }
    if (st == RDX_OK)
        st = kq_create(q);
    if (st) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
        if (q->ev)
            rdx_kfd_event_destroy(dev->kfd, q->ev);
        (void)free_parts(q); /* the creation error is the one reported */
        return rdx_fail(st, "%s", msg);
    }
    pthread_mutex_lock(&dev->lock);
    rt_list_add(&dev->queues, &q->link);
    dev->counts.queues++;
    pthread_mutex_unlock(&dev->lock);
    *out = q;
    return RDX_OK;
}

static bool lost(const rdx_queue *q, uint64_t ticket);

rdx_status rdx_queue_destroy(rdx_queue *q)
{
    if (!q)
        return RDX_OK;
    rdx_device *dev = q->dev;
    rdx_status first = RDX_OK;
    char msg[1024] = "";
    /* Finish the work in flight — unless a wait on this queue already timed
     * out: the caller has seen the hang, destroying the queue abandons that
     * work (the KFD queue is destroyed, which preempts it) instead of waiting
     * for it once more. */
    bool hung = __atomic_load_n(&q->timed_out, __ATOMIC_ACQUIRE) &&
                rdx_queue_completed(q) < rdx_queue_submitted(q);
    if (!q->faulted && q->kq && !lost(q, q->submitted) && !hung) {
        first = rdx_queue_finish(q, RT_INTERNAL_WAIT_MS);
        if (first)
            snprintf(msg, sizeof msg, "rdx_queue_destroy: %s", rdx_error_message());
    }
    pthread_mutex_lock(&dev->lock);
    rt_list_del(&q->link);
    dev->counts.queues--;
    pthread_mutex_unlock(&dev->lock);
    rdx_status st = rdx_kfd_queue_destroy(dev->kfd, q->kq);
    if (st && !first) {
        first = st;
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
    }
    st = rdx_kfd_event_destroy(dev->kfd, q->ev);
    if (st && !first) {
        first = st;
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
    }
    st = free_parts(q);
    if (st && !first) {
        first = st;
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
    }
    return first ? rdx_fail(first, "%s", msg) : RDX_OK;
}

uint64_t rdx_queue_submitted(const rdx_queue *q)
{
    return __atomic_load_n(&q->submitted, __ATOMIC_ACQUIRE);
}

uint64_t rdx_queue_completed(const rdx_queue *q)
{
    return __atomic_load_n(&q->timeline.slot->value, __ATOMIC_ACQUIRE);
}

rdx_status rt_queue_ready(rdx_queue *q)
{
    if (!__atomic_load_n(&q->faulted, __ATOMIC_ACQUIRE))
        return RDX_OK;
    /* The queue stopped at a fault: replace the KFD queue, abandon the work
     * it held (its tickets fail with the fault report). */
    rdx_device *dev = q->dev;
    rdx_status st = rdx_kfd_queue_destroy(dev->kfd, q->kq);
    q->kq = NULL;
    if (st == RDX_OK)
        st = kq_create(q);
    if (st)
        return rdx_fail_context(st, "recreating queue after a fault");
    pthread_mutex_lock(&dev->lock);
    __atomic_store_n(&q->timeline.slot->value, q->submitted, __ATOMIC_RELEASE);
    if (q->kernargs)
        rdx_kernarg_ring_complete(q->kernargs, q->submitted);
    __atomic_store_n(&q->faulted, 0, __ATOMIC_RELEASE);
    dev->counts.queue_recoveries++;
    pthread_mutex_unlock(&dev->lock);
    return RDX_OK;
}

rdx_status rdx_queue_reset(rdx_queue *q)
{
    rdx_device *dev = q->dev;
    pthread_mutex_lock(&q->lock);
    /* Destroy the KFD queue first (preempting what it runs; the emulated GPU
     * stops its dispatch at once): a fault detail that appears meanwhile is
     * where the GPU stopped the abandoned work, and it goes into the report
     * of the abandoned tickets before anyone can see them fail. */
    char before[RT_DETAIL_BYTES] = "", after[RT_DETAIL_BYTES] = "";
    if (dev->fault_detail)
        dev->fault_detail(dev->fault_detail_user, before, sizeof before);
    rdx_status dst = rdx_kfd_queue_destroy(dev->kfd, q->kq);
    q->kq = NULL;
    if (dev->fault_detail)
        dev->fault_detail(dev->fault_detail_user, after, sizeof after);
    bool stopped = *after && strcmp(before, after) != 0;
    pthread_mutex_lock(&dev->lock);
    uint64_t done = rdx_queue_completed(q), sub = q->submitted;
    if (sub > done && !q->faulted) {
        snprintf(q->fault_msg, sizeof q->fault_msg, "abandoned by rdx_queue_reset%s%s",
                 stopped ? "; the GPU stopped it: " : "", stopped ? after : "");
        __atomic_store_n(&q->failed_from, done + 1, __ATOMIC_RELEASE);
        __atomic_store_n(&q->failed_upto, sub, __ATOMIC_RELEASE);
    }
    __atomic_store_n(&q->faulted, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&q->timed_out, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&dev->lock);
    rdx_status st = dst ? rdx_fail_context(dst, "rdx_queue_reset") : rt_queue_ready(q);
    pthread_mutex_unlock(&q->lock);
    return st;
}

/* Poll the fault events without blocking; records a fault when one fired. */
static rdx_status poll_faults(rdx_device *dev)
{
    rdx_kfd_event *evs[2] = { dev->ev_memory, dev->ev_hw };
    rdx_status st = rdx_kfd_event_wait(dev->kfd, evs, 2, 0, 0);
    if (st == RDX_ERR_FAULT) {
        (void)rt_device_record_fault(dev);
        return RDX_OK;
    }
    return st == RDX_ERR_TIMEOUT ? RDX_OK : st;
}

/* With q->lock held: the error of a queue that faulted with work in flight. */
static rdx_status fault_error(rdx_queue *q, uint64_t ticket)
{
    return rdx_fail(RDX_ERR_FAULT, "queue %u, submission %llu: %s", qid(q),
                    (unsigned long long)ticket, q->fault_msg);
}

void rt_emit_signal(rdx_pm4_cmdbuf *cb, rdx_queue_kind kind, uint64_t addr, uint64_t value,
                    rdx_kfd_event *ev)
{
    /* The value, then the event id into the event's mailbox slot and the
     * interrupt: KFD raises a signal event only when its slot was written. */
    uint64_t mailbox = rdx_kfd_event_mailbox(ev);
    uint32_t id = rdx_kfd_event_id(ev);
    if (kind == RDX_QUEUE_COMPUTE) {
        rdx_pm4_signal(cb, addr, value, false, 0);
        rdx_pm4_signal(cb, mailbox, id, true, id);
    } else {
        rdx_sdma_fence(cb, addr, (uint32_t)value);
        rdx_sdma_fence(cb, mailbox, id);
        rdx_sdma_trap(cb, id);
    }
}

rdx_status rt_queue_submit(rdx_queue *q, rdx_pm4_cmdbuf *cb, uint64_t *ticket)
{
    uint64_t t = q->submitted + 1;
    rdx_status st;
    rt_emit_signal(cb, q->kind, q->timeline.gpu_addr, t, q->ev);
    st = rdx_pm4_cmdbuf_status(cb);
    if (st)
        return st;
    uint64_t start = 0;
    for (;;) {
        st = rdx_kfd_queue_submit(q->kq, cb->dw, cb->len);
        if (st != RDX_ERR_RANGE)
            break;
        /* The ring is full: wait for the GPU to read further. */
        if (!start)
            start = rt_now_ns();
        else if (rt_now_ns() - start > (uint64_t)RT_INTERNAL_WAIT_MS * 1000000u)
            return rdx_fail(RDX_ERR_TIMEOUT,
                            "queue %u: no ring space after %u ms (the GPU is not progressing)",
                            qid(q), RT_INTERNAL_WAIT_MS);
        rdx_status f = poll_faults(q->dev);
        if (f)
            return f;
        if (__atomic_load_n(&q->faulted, __ATOMIC_ACQUIRE))
            return fault_error(q, t);
        sched_yield();
    }
    if (st)
        return st;
    __atomic_store_n(&q->submitted, t, __ATOMIC_RELEASE);
    if (ticket)
        *ticket = t;
    return RDX_OK;
}

/* Whether `ticket` of q was lost to the last fault. */
static bool lost(const rdx_queue *q, uint64_t ticket)
{
    return q && ticket && ticket >= __atomic_load_n(&q->failed_from, __ATOMIC_ACQUIRE) &&
           ticket <= __atomic_load_n(&q->failed_upto, __ATOMIC_ACQUIRE);
}

rdx_status rt_wait_value(rdx_device *dev, rdx_queue *q, const volatile uint64_t *value,
                         uint64_t target, rdx_kfd_event *ev, uint32_t timeout_ms)
{
    /* Spin for about a card's round trip of a short dispatch (10-20 us), then sleep in
     * WAIT_EVENTS: a wait that ends soon ends without a system call, and a spinning waiter
     * does not hold a CPU that the GPU's work (or the emulated GPU's thread) needs. */
    uint64_t spin_end = rt_now_ns() + RT_SPIN_NS;
    for (int i = 0; !lost(q, target); i++) {
        if (__atomic_load_n(value, __ATOMIC_ACQUIRE) >= target)
            return RDX_OK;
        cpu_relax();
        if ((i & 63) == 63 && rt_now_ns() >= spin_end)
            break;
    }
    uint64_t start = rt_now_ns();
    uint64_t limit = (uint64_t)timeout_ms * 1000000u;
    for (;;) {
        if (lost(q, target))
            return rdx_fail(RDX_ERR_FAULT, "submission %llu: %s", (unsigned long long)target,
                            q->fault_msg);
        if (__atomic_load_n(value, __ATOMIC_ACQUIRE) >= target)
            return RDX_OK;
        uint64_t el = rt_now_ns() - start;
        if (timeout_ms != UINT32_MAX && el >= limit) {
            char who[32] = "fence";
            if (q) {
                snprintf(who, sizeof who, "queue %u", qid(q));
                __atomic_store_n(&q->timed_out, 1, __ATOMIC_RELEASE);
            }
            return rdx_fail(RDX_ERR_TIMEOUT,
                            "%s: value %llu not reached after %u ms (it is %llu): the GPU seems "
                            "hung",
                            who, (unsigned long long)target, timeout_ms,
                            (unsigned long long)__atomic_load_n(value, __ATOMIC_ACQUIRE));
        }
        uint32_t slice = 20;
        if (timeout_ms != UINT32_MAX && (limit - el) / 1000000u < slice)
            slice = (uint32_t)((limit - el) / 1000000u) + 1;
        rdx_kfd_event *evs[3] = { ev, dev->ev_memory, dev->ev_hw };
        rdx_status st = rdx_kfd_event_wait(dev->kfd, evs, 3, 0, slice);
        if (st == RDX_ERR_FAULT && !rt_device_record_fault(dev))
            st = RDX_ERR_TIMEOUT; /* another GPU's fault */
        else if (st && st != RDX_ERR_FAULT && st != RDX_ERR_TIMEOUT)
            return st;
        if (!q && st == RDX_ERR_FAULT && __atomic_load_n(value, __ATOMIC_ACQUIRE) < target)
            return rdx_fail(RDX_ERR_FAULT, "while waiting for a fence: %s", rdx_error_message());
    }
}

rdx_status rdx_queue_wait(rdx_queue *q, uint64_t ticket, uint32_t timeout_ms)
{
    if (ticket > rdx_queue_submitted(q))
        return rdx_fail(RDX_ERR_INVALID,
                        "rdx_queue_wait: ticket %llu was never submitted (last %llu)",
                        (unsigned long long)ticket, (unsigned long long)rdx_queue_submitted(q));
    rdx_status st = rt_wait_value(q->dev, q, &q->timeline.slot->value, ticket, q->ev, timeout_ms);
    if (st == RDX_OK && rdx_queue_completed(q) >= rdx_queue_submitted(q))
        __atomic_store_n(&q->timed_out, 0, __ATOMIC_RELEASE); /* it caught up after all */
    if (st == RDX_OK && q->kernargs) {
        pthread_mutex_lock(&q->lock);
        rdx_kernarg_ring_complete(q->kernargs, rdx_queue_completed(q));
        pthread_mutex_unlock(&q->lock);
    }
    return st;
}

rdx_status rdx_queue_finish(rdx_queue *q, uint32_t timeout_ms)
{
    return rdx_queue_wait(q, rdx_queue_submitted(q), timeout_ms);
}

rdx_status rdx_queue_wait_queue(rdx_queue *q, rdx_queue *other, uint64_t ticket)
{
    if (!rdx_device_can_access_peer(q->dev, other->dev))
        return rdx_fail(RDX_ERR_INVALID,
                        "rdx_queue_wait_queue: the queue of GPU %u cannot see GPU %u's memory",
                        q->dev->gpu, other->dev->gpu);
    uint32_t mem[48];
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init_fixed(&cb, mem, 48);
    pthread_mutex_lock(&q->lock);
    rdx_status st = rt_queue_ready(q);
    if (st == RDX_OK) {
        if (q->kind == RDX_QUEUE_COMPUTE)
            rdx_pm4_wait_mem64(&cb, other->timeline.gpu_addr, ticket, UINT64_MAX,
                               RDX_PM4_V_WAIT_FUNC_GE, 10);
        else
            rdx_sdma_poll_mem(&cb, other->timeline.gpu_addr, (uint32_t)ticket, 0xffffffffu,
                              RDX_PM4_V_SDMA_FUNC_GE, 10, 0xfff);
        st = rt_queue_submit(q, &cb, NULL);
    }
    pthread_mutex_unlock(&q->lock);
    return st;
}
