/*
 * emu/dev/drm_cs.c — amdgpu command submission on the render node: DRM_IOCTL_AMDGPU_CTX,
 * DRM_IOCTL_AMDGPU_CS, WAIT_CS, WAIT_FENCES and the DRM sync objects (CREATE, DESTROY, WAIT),
 * checked as amdgpu_ctx_ioctl, amdgpu_cs_ioctl (pass 1 and 2), amdgpu_cs_wait_ioctl,
 * amdgpu_cs_wait_fences_ioctl and drm_syncobj.c check them.
 *
 * Execution is the same command processor and packet executor as KFD's user queues: each GPU
 * has kernel rings (4 compute, 2 SDMA, 1 gfx, made on first use), emu_queues whose packets the
 * driver writes — for every IB an INDIRECT_BUFFER (SDMA: INDIRECT) and then an end-of-pipe
 * fence of the ring's own sequence with an interrupt — and whose doorbell it rings, as amdgpu's
 * rings do.  A context has one entity per ring: its sequence numbers are what CS returns and
 * WAIT_CS waits for.
 *
 * Faults and hangs: a job whose ring stops (a memory fault, a bad packet, a dispatch hang or
 * over its budget) or that stays at the ring's head longer than the job timeout
 * (amdgpu's lockup_timeout: 60 s for compute, 10 s for the other rings; RDX_EMU_JOB_TIMEOUT_MS
 * sets one value for all) resets the ring as
 * amdgpu's job timeout handler does: its context becomes guilty (later CS: ECANCELED, QUERY_STATE2:
 * GUILTY|RESET), its sequence fails with ETIME and the context's later jobs on that ring with
 * ECANCELED, every context sees the reset counter move (QUERY_STATE2: RESET), and the other
 * contexts' jobs run again.  Freeing a context drops its unfinished jobs at once (a job not
 * started becomes a NOP, a running one is stopped: no reset for anyone); the kernel would let a
 * job already on the ring run until it ends or times out.
 */
#include "emu/dev/emudev.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <libdrm/amdgpu_drm.h>
#include <rdx/pm4.h>

#include "kfd/compat/kfd_ioctl_flags.h"

#define KIND_COMPUTE 0
#define KIND_DMA     1
#define KIND_GFX     2
#define MAX_IBS      4
#define JOB_DW       24 /* ring dwords of one job at most (IB + fence) */

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* amdgpu's lockup_timeout on bare metal: 60 s for compute jobs, 10 s for the others;
 * RDX_EMU_JOB_TIMEOUT_MS (read at the first job) sets one value for all. */
static uint64_t job_timeout(rdx_emudev *dev, const emu_kring *kr)
{
    if (!dev->drm.job_timeout_ns) {
        const char *e = getenv("RDX_EMU_JOB_TIMEOUT_MS");
        unsigned long long ms = e && *e ? strtoull(e, NULL, 10) : 0;
        dev->drm.job_timeout_ns = ms ? ms * 1000000ull : UINT64_MAX;
    }
    if (dev->drm.job_timeout_ns != UINT64_MAX)
        return dev->drm.job_timeout_ns;
    return (kr->kind == KIND_COMPUTE ? 60000ull : 10000ull) * 1000000ull;
}

/* The ring kind of an AMDGPU_HW_IP_* and its number of entities; -1 when not served. */
static int ip_kind(uint32_t ip, uint32_t *rings)
{
    switch (ip) {
    case AMDGPU_HW_IP_COMPUTE:
        *rings = EMU_DRM_COMPUTE_RINGS;
        return KIND_COMPUTE;
    case AMDGPU_HW_IP_DMA:
        *rings = EMU_DRM_SDMA_RINGS;
        return KIND_DMA;
    case AMDGPU_HW_IP_GFX:
        *rings = 1;
        return KIND_GFX;
    }
    return -1;
}

/* amdgpu_ctx_get_entity: a known IP, instance 0, a ring below the IP's entity count. */
static int entity(uint32_t ip, uint32_t instance, uint32_t ring, int *kind)
{
    uint32_t n;
    if (ip >= AMDGPU_HW_IP_NUM || instance != 0)
        return -EINVAL;
    *kind = ip_kind(ip, &n);
    if (*kind < 0)
        return -EINVAL; /* emulator: multimedia engines have no rings here */
    return ring < n ? 0 : -EINVAL;
}

static emu_drm_ctx *ctx_lookup(rdx_emudev *dev, int fd, uint32_t id)
{
    for (emu_drm_ctx *c = dev->drm.ctxs; c; c = c->next)
        if (c->id == id && c->fd == fd)
            return c;
    return NULL;
}

static emu_drm_syncobj *syncobj_lookup(rdx_emudev *dev, int fd, uint32_t h)
{
    for (emu_drm_syncobj *s = dev->drm.syncobjs; s; s = s->next)
        if (s->handle == h && s->fd == fd)
            return s;
    return NULL;
}

/* ---- kernel rings ---- */

static void kring_free(rdx_emudev *dev, emu_kring *kr)
{
    while (kr->jobs) {
        emu_drm_job *j = kr->jobs;
        kr->jobs = j->next;
        free(j);
    }
    kr->tail = &kr->jobs;
    if (kr->q) {
        dev->queues[kr->q->id] = NULL;
        free(kr->q->uconfig_regs);
        free(kr->q->linear);
        free(kr->q);
        kr->q = NULL;
    }
    if (kr->bo) {
        for (emu_bo **pp = &dev->bos; *pp; pp = &(*pp)->next)
            if (*pp == kr->bo) {
                *pp = kr->bo->next;
                break;
            }
        munmap((void *)(uintptr_t)kr->bo->va, kr->bo->size);
        fallocate(dev->pool_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)kr->bo->pool_off,
                  (off_t)kr->bo->size);
        free(kr->bo);
        kr->bo = NULL;
    }
    memset(kr, 0, sizeof *kr);
}

/* The kernel ring (gpu, kind, ring), made on first use: its memory is driver memory mapped
 * to the GPU (ring, then a page: read pointer at 0, write pointer at 8, fence at 64). */
static emu_kring *kring_get(rdx_emudev *dev, uint32_t gpu, int kind, uint32_t ring)
{
    emu_kring *kr = &dev->drm.rings[gpu][kind][ring];
    if (kr->q)
        return kr;
    uint32_t id = EMU_MAX_QUEUES;
    while (id > 0 && dev->queues[id - 1])
        id--;
    if (id == 0)
        return NULL;
    id--;
    uint64_t size = EMU_DRM_RING_BYTES + EMU_PAGE;
    if (size > EMU_POOL_SIZE - dev->pool_next)
        return NULL;
    emu_bo *b = calloc(1, sizeof *b);
    emu_queue *q = calloc(1, sizeof *q);
    void *p = MAP_FAILED;
    if (b && q)
        p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, dev->pool_fd,
                 (off_t)dev->pool_next);
    if (p == MAP_FAILED) {
        free(b);
        free(q);
        return NULL;
    }
    b->pool_off = dev->pool_next;
    dev->pool_next += size;
    b->va = (uint64_t)(uintptr_t)p;
    b->size = size;
    b->gpu = gpu;
    b->flags = KFD_IOC_ALLOC_MEM_FLAGS_GTT | RDX_KFD_ALLOC_WRITABLE;
    b->handle = EMU_DRM_HANDLE_TAG | (1ull << 62) | id; /* no client's handle */
    b->gpu_mapped = 1 << gpu;
    b->backed = 1;
    b->next = dev->bos;
    dev->bos = b;
    q->id = id;
    q->gpu = gpu;
    q->type = kind == KIND_DMA ? KFD_IOC_QUEUE_TYPE_SDMA : KFD_IOC_QUEUE_TYPE_COMPUTE;
    q->ring = b->va;
    q->ring_size = EMU_DRM_RING_BYTES;
    q->rptr_addr = b->va + EMU_DRM_RING_BYTES;
    q->wptr_addr = q->rptr_addr + 8;
    q->doorbell_index = id;
    q->kernel = 1;
    dev->gpus[gpu].doorbell[id] = 0;
    dev->queues[id] = q;
    kr->q = q;
    kr->bo = b;
    kr->ring = p;
    kr->fence = (volatile uint64_t *)(uintptr_t)(q->rptr_addr + 64);
    kr->tail = &kr->jobs;
    kr->kind = kind;
    return kr;
}

/* Dwords free in the ring (PM4 and SDMA alike: the write pointer counts bytes for SDMA). */
static uint64_t kring_free_dw(const emu_kring *kr)
{
    uint64_t unit = kr->q->type == KFD_IOC_QUEUE_TYPE_SDMA ? 4 : 1;
    return EMU_DRM_RING_BYTES / 4 - (kr->wptr - kr->q->rptr) / unit;
}

static void kring_write(emu_kring *kr, const uint32_t *dw, size_t n)
{
    uint64_t unit = kr->q->type == KFD_IOC_QUEUE_TYPE_SDMA ? 4 : 1;
    size_t ring_dw = EMU_DRM_RING_BYTES / 4;
    for (size_t i = 0; i < n; i++)
        kr->ring[(kr->wptr / unit + i) % ring_dw] = dw[i];
    kr->wptr += n * unit;
}

/* Emit the IB of job j and the ring's fence, ring the doorbell. */
static void kring_emit(rdx_emudev *dev, emu_kring *kr, emu_drm_job *j)
{
    uint32_t mem[JOB_DW];
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init_fixed(&cb, mem, JOB_DW);
    uint64_t fence = (uint64_t)(uintptr_t)kr->fence;
    j->kseq = ++kr->kseq;
    j->ring_at = kr->wptr;
    if (kr->q->type == KFD_IOC_QUEUE_TYPE_SDMA) {
        uint32_t ib[6] = {
            4u /* INDIRECT */, (uint32_t)j->ib, (uint32_t)(j->ib >> 32), (uint32_t)j->ib_dw, 0, 0
        };
        kring_write(kr, ib, 6);
        (void)rdx_sdma_fence(&cb, fence + 4, (uint32_t)(j->kseq >> 32));
        (void)rdx_sdma_fence(&cb, fence, (uint32_t)j->kseq);
        (void)rdx_sdma_trap(&cb, 0);
    } else {
        (void)rdx_pm4_indirect_buffer(&cb, j->ib, (uint32_t)j->ib_dw, 0);
        (void)rdx_pm4_signal(&cb, fence, j->kseq, true, 0);
    }
    kring_write(kr, cb.dw, cb.len);
    __atomic_store_n((uint64_t *)(uintptr_t)kr->q->wptr_addr, kr->wptr, __ATOMIC_RELEASE);
    __atomic_store_n(&dev->gpus[kr->q->gpu].doorbell[kr->q->doorbell_index], kr->wptr,
                     __ATOMIC_RELEASE);
    emu_cp_kick(dev, kr->q->gpu);
}

static void job_done(rdx_emudev *dev, emu_drm_job *j)
{
    emu_drm_syncobj *s = j->syncobj_out ? syncobj_lookup(dev, j->fd, j->syncobj_out) : NULL;
    if (s) {
        s->signaled = 1;
        s->pending = 0;
    }
}

/* Restart the ring empty, dropping every job of context `drop` (fd, id) and running the
 * others again; the ring's next job (the head) is the one that failed when `guilty`. */
static void kring_reset(rdx_emudev *dev, emu_kring *kr, int fd, uint32_t drop, int guilty)
{
    emu_queue *q = kr->q;
    q->error = 0;
    __atomic_store_n(&q->destroying, 0, __ATOMIC_RELEASE);
    memset(q->ib_pos, 0, sizeof q->ib_pos);
    q->rptr = kr->wptr;
    emu_drm_job *jobs = kr->jobs;
    kr->jobs = NULL;
    kr->tail = &kr->jobs;
    __atomic_store_n(kr->fence, kr->kseq, __ATOMIC_RELEASE);
    if (guilty)
        dev->drm.reset_counter++; /* a GPU reset every context sees (not a freed context's) */
    int first = 1;
    while (jobs) {
        emu_drm_job *j = jobs;
        jobs = j->next;
        emu_drm_ctx *c = ctx_lookup(dev, j->fd, j->ctx);
        if (j->fd == fd && j->ctx == drop) {
            if (c) {
                if (!c->lost_from[j->kind][j->ring])
                    c->lost_from[j->kind][j->ring] = j->seq;
                if (guilty && first) {
                    c->guilty = 1;
                    c->hung[j->kind][j->ring] = j->seq;
                }
            }
            job_done(dev, j); /* a dropped job's sync object signals (with an error) */
            free(j);
        } else {
            j->next = NULL;
            *kr->tail = j;
            kr->tail = &j->next;
            kring_emit(dev, kr, j);
        }
        first = 0;
    }
    kr->head_since_ns = now_ns();
}

/* Retire finished jobs of a ring; reset it when it stopped or its head ran too long. */
/* Retire the jobs the ring's fence says are done. */
static void kring_retire(rdx_emudev *dev, emu_kring *kr)
{
    uint64_t done = __atomic_load_n(kr->fence, __ATOMIC_ACQUIRE);
    int moved = 0;
    while (kr->jobs && kr->jobs->kseq <= done) {
        emu_drm_job *j = kr->jobs;
        kr->jobs = j->next;
        if (!kr->jobs)
            kr->tail = &kr->jobs;
        job_done(dev, j);
        free(j);
        moved = 1;
    }
    if (moved)
        kr->head_since_ns = now_ns();
}

static void kring_update(rdx_emudev *dev, emu_kring *kr)
{
    if (!kr->q)
        return;
    kring_retire(dev, kr);
    if (!kr->jobs)
        return;
    emu_drm_job *head = kr->jobs;
    if (kr->q->error) {
        kring_reset(dev, kr, head->fd, head->ctx, 1);
        return;
    }
    if (now_ns() - kr->head_since_ns > job_timeout(dev, kr)) {
        /* amdgpu_job_timedout: stop what runs (a dispatch is cancelled), reset the ring */
        __atomic_store_n(&kr->q->destroying, 1, __ATOMIC_RELEASE);
        emu_wait_gpus_idle(dev, 1u << kr->q->gpu);
        emu_set_error(dev, "gpu %u ring %u: job %llu of context %u timed out",
                      dev->gpus[kr->q->gpu].gpu_id, kr->q->id, (unsigned long long)head->seq,
                      head->ctx);
        if (kr->jobs == head)
            kring_reset(dev, kr, head->fd, head->ctx, 1);
    }
}

static void update_all(rdx_emudev *dev)
{
    for (uint32_t g = 0; g < dev->num_gpus; g++)
        for (int k = 0; k < 3; k++)
            for (int r = 0; r < EMU_DRM_COMPUTE_RINGS; r++)
                kring_update(dev, &dev->drm.rings[g][k][r]);
}

/* 1 done, 0 pending, -errno failed (ETIME: the job that hung, ECANCELED: dropped by a reset). */
static int seq_state(rdx_emudev *dev, emu_drm_ctx *c, int kind, uint32_t ring, uint64_t seq)
{
    emu_kring *kr = &dev->drm.rings[c->gpu][kind][ring];
    for (emu_drm_job *j = kr->jobs; j; j = j->next)
        if (j->fd == c->fd && j->ctx == c->id && j->seq == seq)
            return 0;
    if (c->hung[kind][ring] == seq)
        return -ETIME;
    if (c->lost_from[kind][ring] && seq >= c->lost_from[kind][ring])
        return -ECANCELED;
    return 1;
}

/* Wait (dropping the lock) until `deadline` (CLOCK_MONOTONIC ns; UINT64_MAX forever) or a
 * ring makes progress, at most 1 ms (the rings' job timeouts are checked in between). */
static void wait_a_while(rdx_emudev *dev, uint64_t deadline)
{
    uint64_t t = now_ns() + 1000000u;
    if (deadline < t)
        t = deadline;
    struct timespec ts = { .tv_sec = (time_t)(t / 1000000000u),
                           .tv_nsec = (long)(t % 1000000000u) };
    emu_cp_kick(dev, EMU_ALL_GPUS);
    pthread_cond_timedwait(&dev->ev_cond, &dev->lock, &ts);
}

/* amdgpu_gem_timeout: an absolute CLOCK_MONOTONIC time; negative as signed is forever. */
static uint64_t deadline_of(uint64_t timeout)
{
    return (int64_t)timeout < 0 ? UINT64_MAX : timeout;
}

/* ---- contexts ---- */

/* Turn job j's IB packet in the ring into a NOP of the same length (the ring's fence after it
 * stays, so the ring's sequence goes on): j has not started, the command processor reads the
 * packet only when it gets there. */
static void kring_nop(emu_kring *kr, const emu_drm_job *j)
{
    uint32_t mem[8];
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init_fixed(&cb, mem, 8);
    int sdma = kr->q->type == KFD_IOC_QUEUE_TYPE_SDMA;
    uint32_t n = sdma ? 6 : 4; /* SDMA INDIRECT, PM4 INDIRECT_BUFFER */
    if (sdma)
        (void)rdx_sdma_nop(&cb, n);
    else
        (void)rdx_pm4_nop(&cb, n);
    uint64_t unit = sdma ? 4 : 1;
    size_t ring_dw = EMU_DRM_RING_BYTES / 4;
    for (uint32_t i = 0; i < n && i < cb.len; i++)
        kr->ring[(j->ring_at / unit + i) % ring_dw] = mem[i];
}

/* Drop the unfinished jobs of context c (it is being freed): one not started becomes a NOP in
 * its ring; one running (a ring's head) is stopped — a dispatch cancelled — and the ring
 * restarted with the other contexts' jobs behind it, none of them guilty. */
static void ctx_drop_jobs(rdx_emudev *dev, emu_drm_ctx *c)
{
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < EMU_DRM_COMPUTE_RINGS; r++) {
            emu_kring *kr = &dev->drm.rings[c->gpu][k][r];
            if (!kr->q)
                continue;
            kring_retire(dev, kr);
            /* jobs of c behind another context's head: NOPs */
            emu_drm_job **pp = kr->jobs ? &kr->jobs->next : NULL;
            while (pp && *pp) {
                emu_drm_job *j = *pp;
                if (j->fd == c->fd && j->ctx == c->id) {
                    kring_nop(kr, j);
                    *pp = j->next;
                    if (kr->tail == &j->next)
                        kr->tail = pp;
                    job_done(dev, j);
                    free(j);
                } else {
                    pp = &j->next;
                }
            }
            emu_drm_job *head = kr->jobs;
            if (!head || head->fd != c->fd || head->ctx != c->id)
                continue;
            __atomic_store_n(&kr->q->destroying, 1, __ATOMIC_RELEASE);
            emu_wait_gpus_idle(dev, 1u << kr->q->gpu);
            kring_retire(dev, kr);
            if (kr->jobs == head)
                kring_reset(dev, kr, c->fd, c->id, 0);
            else if (kr->q)
                __atomic_store_n(&kr->q->destroying, 0, __ATOMIC_RELEASE);
        }
}

static void ctx_free(rdx_emudev *dev, emu_drm_ctx *c)
{
    ctx_drop_jobs(dev, c);
    for (emu_drm_ctx **pp = &dev->drm.ctxs; *pp; pp = &(*pp)->next)
        if (*pp == c) {
            *pp = c->next;
            break;
        }
    free(c);
}

static int ctx_ioctl(rdx_emudev *dev, int fd, uint32_t gpu, union drm_amdgpu_ctx *a)
{
    int32_t prio = a->in.priority;
    uint32_t op = a->in.op, id = a->in.ctx_id;
    /* amdgpu_ctx_priority_is_valid */
    if (prio != AMDGPU_CTX_PRIORITY_UNSET && prio != AMDGPU_CTX_PRIORITY_VERY_LOW &&
        prio != AMDGPU_CTX_PRIORITY_LOW && prio != AMDGPU_CTX_PRIORITY_NORMAL &&
        prio != AMDGPU_CTX_PRIORITY_HIGH && prio != AMDGPU_CTX_PRIORITY_VERY_HIGH)
        return -EINVAL;
    update_all(dev);
    memset(a, 0, sizeof *a);
    if (op == AMDGPU_CTX_OP_ALLOC_CTX) {
        emu_drm_ctx *c = calloc(1, sizeof *c);
        if (!c)
            return -ENOMEM;
        c->fd = fd;
        c->gpu = gpu;
        c->id = ++dev->drm.next_id;
        c->reset_counter = dev->drm.reset_counter;
        c->next = dev->drm.ctxs;
        dev->drm.ctxs = c;
        a->out.alloc.ctx_id = c->id;
        return 0;
    }
    emu_drm_ctx *c = ctx_lookup(dev, fd, id);
    if (op == AMDGPU_CTX_OP_FREE_CTX) {
        if (!c)
            return -EINVAL;
        ctx_free(dev, c);
        return 0;
    }
    if (op == AMDGPU_CTX_OP_QUERY_STATE || op == AMDGPU_CTX_OP_QUERY_STATE2) {
        if (!c)
            return -EINVAL;
        int reset = c->reset_counter != dev->drm.reset_counter;
        if (op == AMDGPU_CTX_OP_QUERY_STATE) {
            /* amdgpu_ctx_query: the reset status once per reset */
            a->out.state.reset_status = !reset      ? AMDGPU_CTX_NO_RESET
                                        : c->guilty ? AMDGPU_CTX_GUILTY_RESET
                                                    : AMDGPU_CTX_INNOCENT_RESET;
            c->reset_counter = dev->drm.reset_counter;
            return 0;
        }
        a->out.state.flags = (reset || c->guilty ? AMDGPU_CTX_QUERY2_FLAGS_RESET : 0) |
                             (c->guilty ? AMDGPU_CTX_QUERY2_FLAGS_GUILTY : 0);
        return 0;
    }
    return -EINVAL;
}

/* ---- CS ---- */

static int in_list(const uint32_t *h, uint32_t n, uint32_t handle)
{
    for (uint32_t i = 0; i < n; i++)
        if (h[i] == handle)
            return 1;
    return 0;
}

static int cs_ioctl(rdx_emudev *dev, int fd, uint32_t gpu, union drm_amdgpu_cs *a)
{
    if (a->in.num_chunks == 0)
        return -EINVAL;
    emu_drm_ctx *c = ctx_lookup(dev, fd, a->in.ctx_id);
    if (!c)
        return -EINVAL;
    update_all(dev);
    if (c->guilty)
        return -ECANCELED;
    if (a->in.num_chunks > 64)
        return -EINVAL; /* emulator bound */
    uint64_t ptrs[64];
    if (emu_copy_from_user(ptrs, a->in.chunks, a->in.num_chunks * sizeof ptrs[0]))
        return -EFAULT;
    struct drm_amdgpu_cs_chunk_ib ibs[MAX_IBS];
    uint32_t nib = 0, sync_out = 0, *chunk_handles = NULL, nchunk_handles = 0;
    int have_bo_chunk = 0, r = 0;
    for (uint32_t i = 0; i < a->in.num_chunks && !r; i++) {
        struct drm_amdgpu_cs_chunk ch;
        if (emu_copy_from_user(&ch, ptrs[i], sizeof ch)) {
            r = -EFAULT;
            break;
        }
        uint64_t size = (uint64_t)ch.length_dw * 4;
        switch (ch.chunk_id) {
        case AMDGPU_CHUNK_ID_IB:
            if (size < sizeof ibs[0])
                r = -EINVAL;
            else if (nib == MAX_IBS)
                r = -EINVAL; /* emulator bound */
            else if (emu_copy_from_user(&ibs[nib], ch.chunk_data, sizeof ibs[0]))
                r = -EFAULT;
            else
                nib++;
            break;
        case AMDGPU_CHUNK_ID_FENCE:
            r = size < sizeof(struct drm_amdgpu_cs_chunk_fence) ? -EINVAL : -EOPNOTSUPP;
            break; /* emulator: user fences are not served */
        case AMDGPU_CHUNK_ID_BO_HANDLES: {
            struct drm_amdgpu_bo_list_in in;
            if (size < sizeof in) {
                r = -EINVAL;
                break;
            }
            if (emu_copy_from_user(&in, ch.chunk_data, sizeof in)) {
                r = -EFAULT;
                break;
            }
            have_bo_chunk = 1;
            free(chunk_handles);
            chunk_handles = NULL;
            if (in.bo_number > 0xffff) { /* checked before anything is allocated for it */
                r = -EINVAL;
                break;
            }
            chunk_handles = calloc(in.bo_number ? in.bo_number : 1, sizeof *chunk_handles);
            if (!chunk_handles) {
                r = -ENOMEM;
                break;
            }
            for (uint32_t k = 0; k < in.bo_number && !r; k++) {
                struct drm_amdgpu_bo_list_entry e = { 0 };
                size_t cs = in.bo_info_size < sizeof e ? in.bo_info_size : sizeof e;
                if (emu_copy_from_user(&e, in.bo_info_ptr + (uint64_t)k * in.bo_info_size, cs))
                    r = -EFAULT;
                else if (!emu_drm_gem_lookup(dev, fd, e.bo_handle))
                    r = -ENOENT;
                else
                    chunk_handles[nchunk_handles++] = e.bo_handle;
            }
            break;
        }
        case AMDGPU_CHUNK_ID_SYNCOBJ_OUT: {
            struct drm_amdgpu_cs_chunk_sem s;
            if (size < sizeof s) {
                r = size ? -EINVAL : 0;
                break;
            }
            if (size / sizeof s != 1) {
                r = -EOPNOTSUPP; /* emulator: one sync object out */
                break;
            }
            if (emu_copy_from_user(&s, ch.chunk_data, sizeof s))
                r = -EFAULT;
            else if (!syncobj_lookup(dev, fd, s.handle))
                r = -EINVAL;
            else
                sync_out = s.handle;
            break;
        }
        case AMDGPU_CHUNK_ID_DEPENDENCIES:
        case AMDGPU_CHUNK_ID_SYNCOBJ_IN:
        case AMDGPU_CHUNK_ID_SCHEDULED_DEPENDENCIES:
        case AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_WAIT:
        case AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_SIGNAL:
            r = size ? -EOPNOTSUPP : 0; /* emulator: dependencies are not served */
            break;
        default:
            r = -EINVAL;
            break;
        }
    }
    if (!r && nib == 0)
        r = -EINVAL; /* no IB */
    if (!r && have_bo_chunk && a->in.bo_list_handle)
        r = -EINVAL; /* a list handle and a BO_HANDLES chunk */
    const uint32_t *handles = chunk_handles;
    uint32_t nhandles = nchunk_handles;
    if (!r && a->in.bo_list_handle) {
        emu_drm_bolist *l = NULL;
        for (emu_drm_bolist *x = dev->drm.lists; x; x = x->next)
            if (x->id == a->in.bo_list_handle && x->fd == fd)
                l = x;
        if (!l)
            r = -ENOENT;
        else
            handles = l->handles, nhandles = l->n;
    }
    int kind = 0;
    for (uint32_t i = 0; i < nib && !r; i++) {
        int k;
        r = entity(ibs[i].ip_type, ibs[i].ip_instance, ibs[i].ring, &k);
        if (!r && i && (k != kind || ibs[i].ring != ibs[0].ring))
            r = -EOPNOTSUPP; /* emulator: no gang submission */
        kind = k;
        if (r)
            break;
        /* amdgpu_cs_find_mapping: the IB inside a mapping whose object this CS reserved */
        emu_bo *b =
            ibs[i].ib_bytes ? emu_bo_find(dev, gpu, ibs[i].va_start, ibs[i].ib_bytes) : NULL;
        if (!b || !b->gem || b->gem_fd != fd)
            r = -EINVAL;
        else if (!(b->gem_flags & AMDGPU_GEM_CREATE_VM_ALWAYS_VALID) &&
                 !in_list(handles, nhandles, b->gem))
            r = -EINVAL;
        else if (ibs[i].va_start & 3)
            r = -EINVAL;
    }
    emu_kring *kr = NULL;
    if (!r && !(kr = kring_get(dev, gpu, kind, ibs[0].ring)))
        r = -ENOMEM;
    if (!r && kring_free_dw(kr) < (uint64_t)JOB_DW * nib + 16)
        r = -EAGAIN; /* drmIoctl submits again */
    emu_drm_job *jobs[MAX_IBS] = { 0 };
    for (uint32_t i = 0; i < nib && !r; i++)
        if (!(jobs[i] = calloc(1, sizeof *jobs[i])))
            r = -ENOMEM;
    free(chunk_handles);
    if (r) {
        for (uint32_t i = 0; i < nib; i++)
            free(jobs[i]);
        return r;
    }
    uint64_t seq = ++c->seq[kind][ibs[0].ring];
    for (uint32_t i = 0; i < nib; i++) {
        emu_drm_job *j = jobs[i];
        j->fd = fd;
        j->ctx = c->id;
        j->kind = (uint32_t)kind;
        j->ring = ibs[0].ring;
        j->seq = seq;
        j->ib = ibs[i].va_start;
        j->ib_dw = ibs[i].ib_bytes / 4;
        j->syncobj_out = i + 1 == nib ? sync_out : 0;
        if (!kr->jobs)
            kr->head_since_ns = now_ns();
        *kr->tail = j;
        kr->tail = &j->next;
        kring_emit(dev, kr, j);
    }
    emu_drm_syncobj *so = sync_out ? syncobj_lookup(dev, fd, sync_out) : NULL;
    if (so) {
        so->signaled = 0;
        so->pending = 1;
    }
    memset(a, 0, sizeof *a);
    a->out.handle = seq;
    return 0;
}

/* ---- waits ---- */

/* State of one fence: 1 done, 0 pending, -errno. */
static int fence_state(rdx_emudev *dev, int fd, uint32_t ctx_id, uint32_t ip, uint32_t inst,
                       uint32_t ring, uint64_t seq)
{
    emu_drm_ctx *c = ctx_lookup(dev, fd, ctx_id);
    if (!c)
        return -EINVAL;
    int kind;
    int r = entity(ip, inst, ring, &kind);
    if (r)
        return r;
    if (seq > c->seq[kind][ring])
        return -EINVAL; /* amdgpu_ctx_get_fence: not submitted yet */
    return seq_state(dev, c, kind, ring, seq);
}

static int wait_cs(rdx_emudev *dev, int fd, union drm_amdgpu_wait_cs *a)
{
    uint64_t deadline = deadline_of(a->in.timeout);
    int r;
    for (;;) {
        update_all(dev);
        r = fence_state(dev, fd, a->in.ctx_id, a->in.ip_type, a->in.ip_instance, a->in.ring,
                        a->in.handle);
        if (r != 0 || now_ns() >= deadline)
            break;
        wait_a_while(dev, deadline);
    }
    if (r < 0 && r != -ETIME && r != -ECANCELED)
        return r;
    memset(a, 0, sizeof *a);
    a->out.status = r == 0; /* busy */
    return r < 0 ? r : 0;
}

static int wait_fences(rdx_emudev *dev, int fd, union drm_amdgpu_wait_fences *a)
{
    uint32_t n = a->in.fence_count;
    if (n == 0 || n > 1024)
        return -EINVAL; /* emulator bound above */
    struct drm_amdgpu_fence *f = calloc(n, sizeof *f);
    if (!f)
        return -ENOMEM;
    if (emu_copy_from_user(f, a->in.fences, n * sizeof *f)) {
        free(f);
        return -EFAULT;
    }
    uint64_t deadline = deadline_of(a->in.timeout_ns);
    int r = 0;
    uint32_t first = 0, done = 0;
    for (;;) {
        update_all(dev);
        done = 0;
        first = UINT32_MAX;
        for (uint32_t i = 0; i < n && r >= 0; i++) {
            int s = fence_state(dev, fd, f[i].ctx_id, f[i].ip_type, f[i].ip_instance, f[i].ring,
                                f[i].seq_no);
            if (s == -EINVAL) {
                r = s;
                break;
            }
            if (s != 0) {
                done++;
                if (first == UINT32_MAX)
                    first = i;
                if (s < 0 && !a->in.wait_all)
                    r = s;
            }
        }
        if (r < 0 || (a->in.wait_all ? done == n : done > 0) || now_ns() >= deadline)
            break;
        wait_a_while(dev, deadline);
    }
    free(f);
    if (r == -EINVAL)
        return r;
    int all = a->in.wait_all;
    memset(a, 0, sizeof *a);
    a->out.status = all ? done == n : done > 0;
    a->out.first_signaled = first == UINT32_MAX ? 0 : first;
    return r < 0 ? r : 0;
}

/* ---- sync objects ---- */

static int syncobj_ioctl(rdx_emudev *dev, int fd, unsigned long request, void *arg)
{
    if (request == DRM_IOCTL_SYNCOBJ_CREATE) {
        struct drm_syncobj_create *a = arg;
        if (a->flags & ~DRM_SYNCOBJ_CREATE_SIGNALED)
            return -EINVAL;
        emu_drm_syncobj *s = calloc(1, sizeof *s);
        if (!s)
            return -ENOMEM;
        s->fd = fd;
        s->handle = ++dev->drm.next_id;
        s->signaled = (a->flags & DRM_SYNCOBJ_CREATE_SIGNALED) != 0;
        s->next = dev->drm.syncobjs;
        dev->drm.syncobjs = s;
        a->handle = s->handle;
        return 0;
    }
    if (request == DRM_IOCTL_SYNCOBJ_DESTROY) {
        struct drm_syncobj_destroy *a = arg;
        if (a->pad)
            return -EINVAL;
        for (emu_drm_syncobj **pp = &dev->drm.syncobjs; *pp; pp = &(*pp)->next)
            if ((*pp)->handle == a->handle && (*pp)->fd == fd) {
                emu_drm_syncobj *s = *pp;
                *pp = s->next;
                free(s);
                return 0;
            }
        return -EINVAL;
    }
    /* DRM_IOCTL_SYNCOBJ_WAIT */
    struct drm_syncobj_wait *a = arg;
    uint32_t valid = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL | DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
    if (a->flags & ~valid || a->count_handles == 0 || a->pad)
        return -EINVAL;
    if (a->count_handles > 1024)
        return -EINVAL; /* emulator bound */
    uint32_t *h = calloc(a->count_handles, sizeof *h);
    if (!h)
        return -ENOMEM;
    if (emu_copy_from_user(h, a->handles, a->count_handles * sizeof *h)) {
        free(h);
        return -EFAULT;
    }
    int r = 0;
    for (uint32_t i = 0; i < a->count_handles && !r; i++) {
        emu_drm_syncobj *s = syncobj_lookup(dev, fd, h[i]);
        if (!s)
            r = -ENOENT;
        else if (!s->signaled && !s->pending &&
                 !(a->flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT))
            r = -EINVAL; /* no fence to wait for */
    }
    uint64_t deadline = a->timeout_nsec < 0 ? 0 : (uint64_t)a->timeout_nsec;
    while (!r) {
        update_all(dev);
        uint32_t done = 0, first = UINT32_MAX;
        for (uint32_t i = 0; i < a->count_handles; i++) {
            emu_drm_syncobj *s = syncobj_lookup(dev, fd, h[i]);
            if (!s) {
                r = -ENOENT;
                break;
            }
            if (s->signaled) {
                done++;
                if (first == UINT32_MAX)
                    first = i;
            }
        }
        if (r)
            break;
        if ((a->flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL) ? done == a->count_handles : done > 0) {
            a->first_signaled = first == UINT32_MAX ? 0 : first;
            break;
        }
        if (now_ns() >= deadline) {
            r = -ETIME;
            break;
        }
        wait_a_while(dev, deadline);
    }
    free(h);
    return r;
}

int emu_drm_cs_ioctl(rdx_emudev *dev, int fd, uint32_t gpu, unsigned long request, void *arg)
{
    switch (request) {
    case DRM_IOCTL_AMDGPU_CTX:
        return ctx_ioctl(dev, fd, gpu, arg);
    case DRM_IOCTL_AMDGPU_CS:
        return cs_ioctl(dev, fd, gpu, arg);
    case DRM_IOCTL_AMDGPU_WAIT_CS:
        return wait_cs(dev, fd, arg);
    case DRM_IOCTL_AMDGPU_WAIT_FENCES:
        return wait_fences(dev, fd, arg);
    case DRM_IOCTL_SYNCOBJ_CREATE:
    case DRM_IOCTL_SYNCOBJ_DESTROY:
    case DRM_IOCTL_SYNCOBJ_WAIT:
        return syncobj_ioctl(dev, fd, request, arg);
    }
    return -EINVAL;
}

void emu_drm_cs_release(rdx_emudev *dev, int fd)
{
    for (emu_drm_ctx *c = dev->drm.ctxs, *n; c; c = n) {
        n = c->next;
        if (fd < 0 || c->fd == fd)
            ctx_free(dev, c);
    }
    for (emu_drm_syncobj **pp = &dev->drm.syncobjs; *pp;) {
        emu_drm_syncobj *s = *pp;
        if (fd < 0 || s->fd == fd) {
            *pp = s->next;
            free(s);
        } else {
            pp = &s->next;
        }
    }
    if (fd >= 0)
        return;
    for (uint32_t g = 0; g < EMU_MAX_GPUS; g++)
        for (int k = 0; k < 3; k++)
            for (int r = 0; r < EMU_DRM_COMPUTE_RINGS; r++) {
                emu_kring *kr = &dev->drm.rings[g][k][r];
                if (kr->q) {
                    __atomic_store_n(&kr->q->destroying, 1, __ATOMIC_RELEASE);
                    emu_wait_gpus_idle(dev, 1u << kr->q->gpu);
                    kring_free(dev, kr);
                }
            }
}

void emu_drm_release_all(rdx_emudev *dev)
{
    emu_drm_cs_release(dev, -1);
    emu_drm_gem_release(dev, -1);
}
