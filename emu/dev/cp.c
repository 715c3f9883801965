/*
 * emu/dev/cp.c — the command processor thread and the GPU's view of memory.
 *
 * One thread per emulated device serves every queue: it reads each queue's
 * doorbell (the 64-bit write pointer the client stored), runs the queue's
 * packets up to it (PM4 for compute queues, SDMA for copy queues), and
 * publishes the read pointer.  After a pass without progress it spins
 * briefly (yielding), then sleeps with a backoff from 20 µs to 1 ms;
 * WAIT_EVENTS kicks it awake.  A queue that faults is stopped (error state)
 * and raises memory-fault / hardware-exception events.
 */
#include "emu/dev/emudev.h"
#include "kfd/compat/kfd_ioctl_flags.h"

#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#define SPIN_PASSES  64
#define SLEEP_MIN_NS 20000
#define SLEEP_MAX_NS 1000000

uint64_t emu_gpu_clock(void)
{
    /* The 100 MHz GPU timestamp counter. */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) / 10;
}

void emu_queue_fail(rdx_emudev *dev, emu_queue *q, const char *fmt, ...)
{
    char msg[200];
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

/* Run queue q if its doorbell moved; returns 1 when it made progress. */
static int serve(rdx_emudev *dev, emu_queue *q)
{
    if (q->error)
        return 0;
    uint64_t wptr =
        __atomic_load_n(&dev->gpus[q->gpu].doorbell[q->doorbell_index], __ATOMIC_ACQUIRE);
    if (wptr == q->rptr)
        return 0;
    uint64_t before = q->rptr;
    uint64_t packets = dev->stats.packets;
    if (q->type == KFD_IOC_QUEUE_TYPE_SDMA)
        emu_sdma_run(dev, q, wptr);
    else
        emu_pm4_run(dev, q, wptr);
    return q->rptr != before || dev->stats.packets != packets;
}

void *emu_cp_main(void *arg)
{
    rdx_emudev *dev = arg;
    unsigned idle = 0;
    pthread_mutex_lock(&dev->lock);
    while (!dev->stop) {
        int progress = 0;
        for (uint32_t i = 0; i < EMU_MAX_QUEUES; i++)
            if (dev->queues[i])
                progress |= serve(dev, dev->queues[i]);
        if (progress || dev->kick) {
            dev->kick = 0;
            idle = progress ? 0 : idle;
            if (progress)
                continue;
        }
        if (++idle < SPIN_PASSES) {
            pthread_mutex_unlock(&dev->lock);
            sched_yield();
            pthread_mutex_lock(&dev->lock);
            continue;
        }
        unsigned shift = idle - SPIN_PASSES < 6 ? idle - SPIN_PASSES : 6;
        long ns = (long)SLEEP_MIN_NS << shift;
        if (ns > SLEEP_MAX_NS)
            ns = SLEEP_MAX_NS;
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += ns;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&dev->cp_wake, &dev->lock, &ts);
        if (dev->kick)
            idle = SPIN_PASSES; /* woken on purpose: poll at the fastest sleep again */
    }
    pthread_mutex_unlock(&dev->lock);
    return NULL;
}
