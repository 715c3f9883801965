/*
 * kfd/drm_queue.c — queues and events on the DRM path.
 *
 * A queue is an amdgpu context with an IB buffer (GTT, the queue's ring size; like every buffer
 * of the path VM_ALWAYS_VALID, so submissions carry no BO list) used as a ring of
 * IBs: rdx_kfd_queue_submit copies the dwords into it and submits them as one IB on the
 * compute ring (AMDGPU_HW_IP_COMPUTE) or the DMA ring (AMDGPU_HW_IP_DMA) with amdgpu_cs_submit
 * — one ioctl per submission (no user-mode doorbell).  Space comes back as the submissions'
 * fences signal (amdgpu_cs_query_fence_status, asked only when the buffer is full).  Queues are
 * spread over the GPU's rings round-robin, so that two queues waiting on each other on the GPU
 * do not share a ring.
 *
 * Events: a signal event has a mailbox slot in a GTT event page (4096 slots of 64 bits, all
 * ones when clear) that the GPU (RELEASE_MEM / SDMA FENCE) or the host writes; there is no
 * interrupt-driven wait, so rdx_kfd_event_wait checks the mailboxes and sleeps on the queues'
 * last fences (amdgpu_cs_wait_fences).  Memory-fault and hardware-exception events fire when a
 * queue's context was reset as guilty (amdgpu_cs_query_reset_state2: GUILTY) or a submission
 * was refused because it was (ECANCELED); amdgpu reports neither the address nor the kind.
 */
#include "kfd/drm_internal.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <amdgpu.h>
#include <libdrm/amdgpu_drm.h>

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint32_t pick_ring(uint32_t mask, uint32_t *next)
{
    uint32_t n = (uint32_t)__builtin_popcount(mask);
    uint32_t want = n ? (*next)++ % n : 0;
    for (uint32_t r = 0; r < 32; r++)
        if ((mask >> r & 1) && want-- == 0)
            return r;
    return 0;
}

rdx_status rdx_kfd_drm_queue_create(rdx_kfd *k, uint32_t gpu, rdx_kfd_queue_kind kind,
                                    uint32_t ring_bytes, rdx_kfd_queue **out)
{
    rdx_kfd_gpu_state *g = &k->gpus[gpu];
    if (gpu != 0)
        return rdx_fail(RDX_ERR_UNSUPPORTED,
                        "rdx_kfd_queue_create: gpu index %u on the DRM path: queues run on the "
                        "first GPU only (each render node is its own VM, and the signal "
                        "mailboxes live in the first one's)",
                        gpu);
    rdx_kfd_queue *q = calloc(1, sizeof *q);
    struct rdx_kfd_drm_queue *dq = calloc(1, sizeof *dq);
    if (!q || !dq) {
        free(q);
        free(dq);
        return rdx_fail(RDX_ERR_NOMEM, "rdx_kfd_queue_create: out of memory");
    }
    q->gpu = gpu;
    q->kind = kind;
    q->drm = dq;
    dq->kq = q;
    rdx_kfd_mem_desc d = {
        .kind = RDX_KFD_MEM_GTT, .size = ring_bytes, .flags = 0, .userptr = NULL
    };
    rdx_status st = rdx_kfd_drm_mem_alloc(k, gpu, &d, &q->ring);
    amdgpu_context_handle ctx = NULL;
    int r = 0;
    if (st == RDX_OK && (r = amdgpu_cs_ctx_create(g->amdgpu, &ctx)))
        st = rdx_kfd_drm_fail(r, "amdgpu_cs_ctx_create (DRM_IOCTL_AMDGPU_CTX)");
    if (st) {
        if (q->ring)
            rdx_kfd_drm_mem_free(k, q->ring);
        free(q);
        free(dq);
        return rdx_fail_context(st, "creating a queue on gpu %u", g->info.gpu_id);
    }
    dq->ctx = ctx;
    /* RDX_DRM_RING=gfx: compute work on the GFX ring (one ring: every compute queue shares it) */
    const char *gfx = getenv("RDX_DRM_RING");
    int on_gfx = kind == RDX_KFD_QUEUE_COMPUTE && gfx && !strcmp(gfx, "gfx");
    dq->ip = kind == RDX_KFD_QUEUE_SDMA ? AMDGPU_HW_IP_DMA
             : on_gfx                   ? AMDGPU_HW_IP_GFX
                                        : AMDGPU_HW_IP_COMPUTE;
    q->ring_cpu = rdx_kfd_mem_cpu(q->ring);
    q->ring_dw = ring_bytes / 4;
    pthread_mutex_lock(&k->drm->lock);
    dq->ring = on_gfx ? 0
                      : pick_ring(kind == RDX_KFD_QUEUE_SDMA ? g->sdma_rings : g->compute_rings,
                                  &g->next_ring);
    q->id = k->drm->next_queue_id++;
    dq->next = k->drm->queues;
    k->drm->queues = dq;
    pthread_mutex_unlock(&k->drm->lock);
    pthread_mutex_lock(&k->lock);
    k->live_queues++;
    pthread_mutex_unlock(&k->lock);
    *out = q;
    return RDX_OK;
}

rdx_status rdx_kfd_drm_queue_destroy(rdx_kfd *k, rdx_kfd_queue *q)
{
    struct rdx_kfd_drm_queue *dq = q->drm;
    pthread_mutex_lock(&k->drm->lock);
    for (struct rdx_kfd_drm_queue **pp = &k->drm->queues; *pp; pp = &(*pp)->next)
        if (*pp == dq) {
            *pp = dq->next;
            break;
        }
    /* a waiter may be sleeping on this queue's context (at most one wait slice) */
    while (k->drm->waiters)
        pthread_cond_wait(&k->drm->idle, &k->drm->lock);
    pthread_mutex_unlock(&k->drm->lock);
    rdx_status st = RDX_OK;
    /* Freeing the context stops its work (the kernel lets a job already on the ring run to
     * its end or its timeout); the IB buffer goes after it. */
    int r = amdgpu_cs_ctx_free(dq->ctx);
    if (r)
        st = rdx_kfd_drm_fail(r, "amdgpu_cs_ctx_free (DRM_IOCTL_AMDGPU_CTX)");
    rdx_status s2 = rdx_kfd_drm_mem_free(k, q->ring);
    if (s2 && !st)
        st = s2;
    pthread_mutex_lock(&k->lock);
    k->live_queues--;
    pthread_mutex_unlock(&k->lock);
    free(dq);
    free(q);
    return st;
}

/* Whether submission `seq` of dq finished (or failed): a fence query that does not wait. */
static int seq_done(struct rdx_kfd_drm_queue *dq, uint64_t seq)
{
    if (seq <= __atomic_load_n(&dq->done_seq, __ATOMIC_RELAXED))
        return 1;
    struct amdgpu_cs_fence f = {
        .context = dq->ctx, .ip_type = dq->ip, .ip_instance = 0, .ring = dq->ring, .fence = seq
    };
    uint32_t expired = 0;
    int r = amdgpu_cs_query_fence_status(&f, 0, 0, &expired);
    if (r == 0 && !expired)
        return 0;
    if (r && r != -ETIME && r != -ECANCELED && r != -ENODEV)
        return 0; /* the query failed: the IB may still be read, keep its space */
    __atomic_store_n(&dq->done_seq, seq, __ATOMIC_RELAXED); /* done or failed: space is free */
    return 1;
}

rdx_status rdx_kfd_drm_queue_submit(rdx_kfd_queue *q, const uint32_t *dw, size_t ndw)
{
    struct rdx_kfd_drm_queue *dq = q->drm;
    if (ndw == 0)
        return RDX_OK;
    if (ndw >= q->ring_dw)
        return rdx_fail(RDX_ERR_INVALID, "rdx_kfd_queue_submit: %zu dwords, the IB buffer holds %u",
                        ndw, q->ring_dw - 1);
    uint64_t off = q->wptr_dw % q->ring_dw;
    uint64_t start = off + ndw > q->ring_dw ? q->wptr_dw + (q->ring_dw - off) : q->wptr_dw;
    uint64_t end = start + ndw;
    while (dq->fl_count && (end - dq->rptr_dw > q->ring_dw || dq->fl_count == RDX_DRM_INFLIGHT)) {
        uint32_t h = dq->fl_head;
        if (!seq_done(dq, dq->fl[h].seq))
            break;
        dq->rptr_dw = dq->fl[h].end;
        dq->fl_head = (h + 1) % RDX_DRM_INFLIGHT;
        dq->fl_count--;
    }
    if (!dq->fl_count)
        dq->rptr_dw = q->wptr_dw;
    if (end - dq->rptr_dw > q->ring_dw || dq->fl_count == RDX_DRM_INFLIGHT)
        return rdx_fail(RDX_ERR_RANGE, "queue %u: no IB space for %zu dwords", q->id, ndw);
    memcpy(q->ring_cpu + start % q->ring_dw, dw, ndw * 4);
    struct amdgpu_cs_ib_info ib = { .flags = 0,
                                    .ib_mc_address =
                                        rdx_kfd_mem_gpu_addr(q->ring) + start % q->ring_dw * 4,
                                    .size = (uint32_t)ndw };
    struct amdgpu_cs_request req;
    memset(&req, 0, sizeof req);
    req.ip_type = dq->ip;
    req.ring = dq->ring;
    req.resources = NULL; /* every buffer, the IB buffer too, is VM_ALWAYS_VALID: no list */
    req.number_of_ibs = 1;
    req.ibs = &ib;
    __atomic_thread_fence(__ATOMIC_RELEASE);
    int r = amdgpu_cs_submit(dq->ctx, 0, &req, 1);
    q->wptr_dw = end;
    if (r == -ECANCELED) {
        /* The context was reset as guilty: the work is lost, as on a stopped KFD queue; the
         * fault surfaces through the fault events (rdx_kfd_event_wait). */
        __atomic_store_n(&dq->lost, 1, __ATOMIC_RELEASE);
        return RDX_OK;
    }
    if (r)
        return rdx_kfd_drm_fail(r, "amdgpu_cs_submit (DRM_IOCTL_AMDGPU_CS)");
    uint32_t t = (dq->fl_head + dq->fl_count) % RDX_DRM_INFLIGHT;
    dq->fl[t].seq = req.seq_no;
    dq->fl[t].end = end;
    dq->fl_count++;
    __atomic_store_n(&dq->last_seq, req.seq_no, __ATOMIC_RELEASE);
    return RDX_OK;
}

/* ---- events ---- */

rdx_status rdx_kfd_drm_event_create(rdx_kfd *k, rdx_kfd_event_kind kind, int auto_reset,
                                    rdx_kfd_event **out)
{
    if (kind != RDX_KFD_EVENT_SIGNAL && kind != RDX_KFD_EVENT_MEMORY &&
        kind != RDX_KFD_EVENT_HW_EXCEPTION)
        return rdx_fail(RDX_ERR_INVALID, "rdx_kfd_event_create: unknown event kind %d", kind);
    rdx_kfd_event *e = calloc(1, sizeof *e);
    if (!e)
        return rdx_fail(RDX_ERR_NOMEM, "rdx_kfd_event_create: out of memory");
    e->kind = kind;
    e->auto_reset = auto_reset != 0;
    pthread_mutex_lock(&k->event_lock);
    rdx_status st = RDX_OK;
    if (kind == RDX_KFD_EVENT_SIGNAL && !k->event_page) {
        rdx_kfd_mem_desc d = { .kind = RDX_KFD_MEM_GTT,
                               .size = RDX_DRM_EVENT_SLOTS * 8,
                               .flags = RDX_KFD_MEM_UNCACHED,
                               .userptr = NULL };
        st = rdx_kfd_drm_mem_alloc(k, 0, &d, &k->event_page);
        if (st == RDX_OK)
            memset(rdx_kfd_mem_cpu(k->event_page), 0xff, RDX_DRM_EVENT_SLOTS * 8);
        else
            st = rdx_fail_context(st, "event page");
    }
    pthread_mutex_lock(&k->drm->lock);
    if (st == RDX_OK && kind == RDX_KFD_EVENT_SIGNAL) {
        uint32_t s = 0;
        while (s < RDX_DRM_EVENT_SLOTS && k->drm->slot_used[s])
            s++;
        if (s == RDX_DRM_EVENT_SLOTS) {
            st = rdx_fail(RDX_ERR_NOMEM, "rdx_kfd_event_create: all %u signal events in use",
                          RDX_DRM_EVENT_SLOTS);
        } else {
            k->drm->slot_used[s] = 1;
            e->id = e->slot = s;
            e->mailbox = rdx_kfd_mem_gpu_addr(k->event_page) + 8ull * s;
            __atomic_store_n((uint64_t *)rdx_kfd_mem_cpu(k->event_page) + s, UINT64_MAX,
                             __ATOMIC_RELEASE);
        }
    } else if (st == RDX_OK) {
        e->id = k->drm->next_nonsignal++;
    }
    pthread_mutex_unlock(&k->drm->lock);
    pthread_mutex_unlock(&k->event_lock);
    if (st) {
        free(e);
        return st;
    }
    pthread_mutex_lock(&k->lock);
    k->live_events++;
    pthread_mutex_unlock(&k->lock);
    *out = e;
    return RDX_OK;
}

rdx_status rdx_kfd_drm_event_destroy(rdx_kfd *k, rdx_kfd_event *e)
{
    pthread_mutex_lock(&k->drm->lock);
    if (e->kind == RDX_KFD_EVENT_SIGNAL)
        k->drm->slot_used[e->slot] = 0;
    pthread_mutex_unlock(&k->drm->lock);
    pthread_mutex_lock(&k->lock);
    k->live_events--;
    pthread_mutex_unlock(&k->lock);
    free(e);
    return RDX_OK;
}

static uint64_t *mailbox(rdx_kfd *k, const rdx_kfd_event *e)
{
    return (uint64_t *)rdx_kfd_mem_cpu(k->event_page) + e->slot;
}

rdx_status rdx_kfd_drm_event_set(rdx_kfd *k, rdx_kfd_event *e, int set)
{
    if (e->kind != RDX_KFD_EVENT_SIGNAL)
        return rdx_fail(RDX_ERR_INVALID, "rdx_kfd_event_set: not a signal event");
    __atomic_store_n(mailbox(k, e), set ? e->id : UINT64_MAX, __ATOMIC_RELEASE);
    return RDX_OK;
}

/* A queue whose last submission failed (its fence has an error: amdgpu reset the context) or
 * that had a submission refused: reported once, with the context's reset state.  Only queues
 * with work in flight cost an ioctl (a fence query that does not wait). */
static rdx_status check_faults(rdx_kfd *k)
{
    rdx_status st = RDX_OK;
    pthread_mutex_lock(&k->drm->lock);
    for (struct rdx_kfd_drm_queue *dq = k->drm->queues; dq && !st; dq = dq->next) {
        if (dq->reported)
            continue;
        int lost = __atomic_load_n(&dq->lost, __ATOMIC_ACQUIRE);
        uint64_t last = __atomic_load_n(&dq->last_seq, __ATOMIC_ACQUIRE);
        if (!lost) {
            if (last <= __atomic_load_n(&dq->done_seq, __ATOMIC_RELAXED))
                continue;
            struct amdgpu_cs_fence f = { .context = dq->ctx,
                                         .ip_type = dq->ip,
                                         .ip_instance = 0,
                                         .ring = dq->ring,
                                         .fence = last };
            uint32_t expired = 0;
            int r = amdgpu_cs_query_fence_status(&f, 0, 0, &expired);
            if (r == 0) {
                if (expired)
                    __atomic_store_n(&dq->done_seq, last, __ATOMIC_RELAXED);
                continue;
            }
            if (r != -ETIME && r != -ECANCELED && r != -ENODEV) {
                st = rdx_kfd_drm_fail(r, "amdgpu_cs_query_fence_status (DRM_IOCTL_AMDGPU_WAIT_CS)");
                break;
            }
        }
        uint64_t flags = 0;
        int r = amdgpu_cs_query_reset_state2(dq->ctx, &flags);
        if (r) {
            st = rdx_kfd_drm_fail(r, "amdgpu_cs_query_reset_state2 (AMDGPU_CTX_OP_QUERY_STATE2)");
            break;
        }
        dq->reported = 1;
        st = rdx_fail(RDX_ERR_FAULT,
                      "GPU fault or hang on gpu %u: amdgpu reset the context of queue %u "
                      "(AMDGPU_CTX_OP_QUERY_STATE2 flags 0x%llx:%s%s%s); the DRM interface "
                      "reports neither the faulting address nor the kind of fault",
                      k->gpus[dq->kq->gpu].info.gpu_id, dq->kq->id, (unsigned long long)flags,
                      flags & AMDGPU_CTX_QUERY2_FLAGS_GUILTY ? " guilty" : "",
                      flags & AMDGPU_CTX_QUERY2_FLAGS_RESET ? " reset" : "",
                      flags & AMDGPU_CTX_QUERY2_FLAGS_VRAMLOST ? " VRAM lost" : "");
    }
    pthread_mutex_unlock(&k->drm->lock);
    return st;
}

/* Sleep until a queue's last submission completes or `ns` passed. */
static void wait_some(rdx_kfd *k, uint64_t ns)
{
    struct amdgpu_cs_fence f[16];
    uint32_t n = 0;
    pthread_mutex_lock(&k->drm->lock);
    for (struct rdx_kfd_drm_queue *dq = k->drm->queues; dq && n < 16; dq = dq->next) {
        uint64_t last = __atomic_load_n(&dq->last_seq, __ATOMIC_ACQUIRE);
        if (last > __atomic_load_n(&dq->done_seq, __ATOMIC_RELAXED) && !dq->reported)
            f[n++] = (struct amdgpu_cs_fence){ .context = dq->ctx,
                                               .ip_type = dq->ip,
                                               .ip_instance = 0,
                                               .ring = dq->ring,
                                               .fence = last };
    }
    if (n)
        k->drm->waiters++; /* the contexts stay alive until the wait is over */
    pthread_mutex_unlock(&k->drm->lock);
    if (n) {
        uint32_t status = 0, first = 0;
        /* returns when one is done, failed (the fault check sees it) or after ns */
        (void)amdgpu_cs_wait_fences(f, n, false, ns, &status, &first);
        pthread_mutex_lock(&k->drm->lock);
        if (--k->drm->waiters == 0)
            pthread_cond_broadcast(&k->drm->idle);
        pthread_mutex_unlock(&k->drm->lock);
        return;
    }
    struct timespec ts = { 0, (long)(ns < 200000 ? ns : 200000) };
    nanosleep(&ts, NULL);
}

rdx_status rdx_kfd_drm_event_wait(rdx_kfd *k, rdx_kfd_event *const *events, uint32_t n,
                                  int wait_all, uint32_t timeout_ms)
{
    if (n == 0 || !events)
        return rdx_fail(RDX_ERR_INVALID, "rdx_kfd_event_wait: no events");
    int faults = 0;
    for (uint32_t i = 0; i < n; i++)
        faults |= events[i]->kind != RDX_KFD_EVENT_SIGNAL;
    uint64_t start = now_ns();
    uint64_t limit = timeout_ms == UINT32_MAX ? UINT64_MAX : (uint64_t)timeout_ms * 1000000u;
    for (;;) {
        if (faults) {
            rdx_status st = check_faults(k);
            if (st)
                return st;
        }
        uint32_t set = 0, signals = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (events[i]->kind != RDX_KFD_EVENT_SIGNAL)
                continue;
            signals++;
            set += __atomic_load_n(mailbox(k, events[i]), __ATOMIC_ACQUIRE) != UINT64_MAX;
        }
        if (signals && (wait_all ? set == signals : set > 0)) {
            for (uint32_t i = 0; i < n; i++)
                if (events[i]->kind == RDX_KFD_EVENT_SIGNAL && events[i]->auto_reset)
                    __atomic_store_n(mailbox(k, events[i]), UINT64_MAX, __ATOMIC_RELEASE);
            return RDX_OK;
        }
        uint64_t el = now_ns() - start;
        if (el >= limit)
            return rdx_fail(RDX_ERR_TIMEOUT,
                            "rdx_kfd_event_wait (drm): %u event(s) not signaled "
                            "after %u ms",
                            n, timeout_ms);
        uint64_t left = limit - el;
        wait_some(k, left < 20000000u ? left : 20000000u);
    }
}
