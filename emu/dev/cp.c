/*
 * emu/dev/cp.c — the command processor thread and the GPU's view of memory.
 *
 * One thread per emulated device serves every queue: it reads each queue's
 * doorbell (the 64-bit write pointer the client stored), runs the queue's
 * packets up to it (PM4 for compute queues, SDMA for copy queues), and
 * publishes the read pointer.  For 50 µs after the last work it busy-polls
 * (dropping the lock between passes), then sleeps with a backoff from 20 µs
 * to 1 ms; WAIT_EVENTS kicks it awake at once.  A queue that faults is stopped (error state)
 * and raises memory-fault / hardware-exception events.
 */
#include "emu/dev/emudev.h"
#include "kfd/compat/kfd_ioctl_flags.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdx/pm4.h>

#define SPIN_NS      50000 /* busy-poll this long after the last work */
#define SLEEP_MIN_NS 20000
#define SLEEP_MAX_NS 1000000

uint64_t emu_gpu_clock(void)
{
    /* The 100 MHz GPU timestamp counter. */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) / 10;
}

/* One encoding serves both engines (PM4 WAIT_REG_MEM.FUNCTION, SDMA POLL_REGMEM.FUNC). */
_Static_assert(RDX_PM4_V_SDMA_FUNC_ALWAYS == RDX_PM4_V_WAIT_FUNC_ALWAYS &&
                   RDX_PM4_V_SDMA_FUNC_LT == RDX_PM4_V_WAIT_FUNC_LT &&
                   RDX_PM4_V_SDMA_FUNC_LE == RDX_PM4_V_WAIT_FUNC_LE &&
                   RDX_PM4_V_SDMA_FUNC_EQ == RDX_PM4_V_WAIT_FUNC_EQ &&
                   RDX_PM4_V_SDMA_FUNC_NE == RDX_PM4_V_WAIT_FUNC_NE &&
                   RDX_PM4_V_SDMA_FUNC_GE == RDX_PM4_V_WAIT_FUNC_GE &&
                   RDX_PM4_V_SDMA_FUNC_GT == RDX_PM4_V_WAIT_FUNC_GT,
               "SDMA and PM4 wait functions differ");

int emu_wait_compare(uint32_t func, uint64_t v, uint64_t ref)
{
    switch (func) {
    case RDX_PM4_V_WAIT_FUNC_ALWAYS:
        return 1;
    case RDX_PM4_V_WAIT_FUNC_LT:
        return v < ref;
    case RDX_PM4_V_WAIT_FUNC_LE:
        return v <= ref;
    case RDX_PM4_V_WAIT_FUNC_EQ:
        return v == ref;
    case RDX_PM4_V_WAIT_FUNC_NE:
        return v != ref;
    case RDX_PM4_V_WAIT_FUNC_GE:
        return v >= ref;
    case RDX_PM4_V_WAIT_FUNC_GT:
        return v > ref;
    }
    return -1;
}

void emu_queue_fail(rdx_emudev *dev, emu_queue *q, const char *fmt, ...)
{
    char msg[2400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    emu_set_error(dev, "gpu %u queue %u: %s", dev->gpus[q->gpu].gpu_id, q->id, msg);
    if (!q->error) {
        q->error = 1;
        emu_event_hw_exception(dev, q->gpu);
    }
}

void *emu_cp_access(rdx_emudev *dev, emu_queue *q, uint64_t va, uint64_t len, int write)
{
    emu_bo *b = len ? emu_bo_find(dev, q->gpu, va, len) : NULL;
    if (b && (!write || (b->flags & RDX_KFD_ALLOC_WRITABLE)))
        return (void *)(uintptr_t)va;
    /* Report the first byte the access could not reach. */
    uint64_t bad = va;
    if (!b)
        for (uint64_t off = 0; off < len; off += EMU_PAGE - ((va + off) & (EMU_PAGE - 1)))
            if (!emu_bo_find(dev, q->gpu, va + off, 1)) {
                bad = va + off;
                break;
            }
    emu_event_memory_fault(dev, q->gpu, bad, write, b != NULL);
    q->error = 1; /* reported as a memory fault, not as a hardware exception */
    emu_queue_fail(dev, q, "GPU memory fault: %s of %llu bytes at 0x%llx (%s at 0x%llx)",
                   write ? "write" : "read", (unsigned long long)len, (unsigned long long)va,
                   b ? "read-only page" : "page not mapped", (unsigned long long)bad);
    return NULL;
}

const uint32_t *emu_ring_pending(rdx_emudev *dev, emu_queue *q, size_t start, size_t n)
{
    const uint32_t *ring = emu_cp_access(dev, q, q->ring, q->ring_size, 0);
    size_t ring_dw = q->ring_size / 4;
    if (!ring || start + n <= ring_dw)
        return ring ? ring + start : NULL;
    if (!q->linear && !(q->linear = malloc(q->ring_size))) {
        emu_queue_fail(dev, q, "out of host memory");
        return NULL;
    }
    memcpy(q->linear, ring + start, (ring_dw - start) * 4);
    memcpy(q->linear + (ring_dw - start), ring, (n - (ring_dw - start)) * 4);
    return q->linear;
}

void emu_ring_advance(rdx_emudev *dev, emu_queue *q, uint64_t by)
{
    q->rptr += by;
    if (!by)
        return;
    if (q->type == KFD_IOC_QUEUE_TYPE_COMPUTE) {
        /* The compute CP reports a 32-bit dword offset that wraps at the ring's size (what
         * Linux's gfx_v11_0_ring_get_rptr_compute reads); the upper half is not written. */
        uint32_t *rp = emu_cp_access(dev, q, q->rptr_addr, 4, 1);
        if (rp)
            __atomic_store_n(rp, (uint32_t)(q->rptr % (q->ring_size / 4)), __ATOMIC_RELEASE);
        return;
    }
    /* SDMA: a 64-bit byte count that never wraps. */
    uint64_t *rp = emu_cp_access(dev, q, q->rptr_addr, 8, 1);
    if (rp)
        __atomic_store_n(rp, q->rptr, __ATOMIC_RELEASE);
}

/* Run queue q if its doorbell moved; returns 1 when it made progress. */
static int serve(rdx_emudev *dev, emu_queue *q)
{
    if (q->error || q->inactive) /* inactive: UPDATE_QUEUE took its ring away (queue.c) */
        return 0;
    uint64_t wptr =
        __atomic_load_n(&dev->gpus[q->gpu].doorbell[q->doorbell_index], __ATOMIC_ACQUIRE);
    if (wptr == q->rptr)
        return 0;
    /* The doorbell is read through the device's own mapping of it, the client
     * wrote it through another: the same memory, but to a race detector two
     * unrelated addresses.  The client stores the write pointer to the queue's
     * write-pointer memory (a buffer at one address for both) with a release
     * store before it rings the doorbell; an acquire load of it here is the
     * edge that orders the client's ring writes before the packets are read
     * (hardware polls that memory too).  Its value is not used: the doorbell's is. */
    const emu_bo *wb = emu_bo_find(dev, q->gpu, q->wptr_addr, 8);
    if (wb && !(q->wptr_addr & 7))
        (void)__atomic_load_n((const uint64_t *)(uintptr_t)q->wptr_addr, __ATOMIC_ACQUIRE);
    uint64_t before = q->rptr;
    uint64_t packets = dev->stats.packets;
    if (q->type == KFD_IOC_QUEUE_TYPE_SDMA)
        emu_sdma_run(dev, q, wptr);
    else
        emu_pm4_run(dev, q, wptr);
    return q->rptr != before || dev->stats.packets != packets;
}

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

void *emu_cp_main(void *arg)
{
    rdx_emudev *dev = arg;
    unsigned sleeps = 0;
    uint64_t last_progress = mono_ns();
    pthread_mutex_lock(&dev->lock);
    while (!dev->stop) {
        int progress = 0;
        for (uint32_t i = 0; i < EMU_MAX_QUEUES; i++)
            if (dev->queues[i])
                progress |= serve(dev, dev->queues[i]);
        if (progress || dev->kick) {
            dev->kick = 0;
            sleeps = 0;
            last_progress = mono_ns();
            continue;
        }
        /* Busy-poll (without giving the CPU away) for a short while after the
         * last work, so back-to-back submissions are picked up at once. */
        if (mono_ns() - last_progress < SPIN_NS) {
            pthread_mutex_unlock(&dev->lock);
            for (int i = 0; i < 64; i++)
                cpu_relax();
            pthread_mutex_lock(&dev->lock);
            continue;
        }
        long ns = (long)SLEEP_MIN_NS << (sleeps < 6 ? sleeps : 6);
        if (ns > SLEEP_MAX_NS)
            ns = SLEEP_MAX_NS;
        sleeps++;
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += ns;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&dev->cp_wake, &dev->lock, &ts);
    }
    pthread_mutex_unlock(&dev->lock);
    return NULL;
}
