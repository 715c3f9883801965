/*
 * emu/dev/cp.c — the command processors and the GPU's view of memory.
 *
 * Each emulated GPU has its own command processor thread, which serves that
 * GPU's queues (compute and SDMA): it reads each queue's doorbell (the 64-bit
 * write pointer the client stored), runs the queue's packets up to it (PM4
 * for compute queues, SDMA for copy queues), and publishes the read pointer.
 * So the GPUs of one machine run their dispatches at the same time; all
 * share the device model and its lock, which a dispatch drops while it runs.
 * A queue that faults is stopped (error state) and raises memory-fault /
 * hardware-exception events of its GPU.
 *
 * Waking (docs/kfd.md, "Waking the command processor"): after the last work
 * the thread busy-polls its GPU's doorbells (dropping the lock between passes) for
 * twice the recent gaps between work, 50 to 250 µs, so back-to-back
 * submissions cost no wake-up.  Then, with no queue waiting on memory, it
 * write-protects every client mapping of its GPU's doorbell page with a
 * userfaultfd of its own and sleeps without a timeout in ppoll on that userfaultfd and
 * an eventfd: a client's doorbell store (a plain store, no system call)
 * stops on the protection and wakes the thread, which lifts the protection
 * (letting the store complete) and serves the queues; WAIT_EVENTS and device
 * teardown kick the eventfd.  A queue parked on WAIT_REG_MEM / POLL_REGMEM
 * waits for memory nobody announces, so then the thread sleeps with a
 * backoff from 20 µs to 1 ms and re-checks, as the hardware polls; so it
 * does where userfaultfd is unavailable (or RDX_EMU_DOORBELL_WATCH=0), where
 * WAIT_EVENTS' kick is the prompt path.
 */
#include "emu/dev/emudev.h"
#include "kfd/compat/kfd_ioctl_flags.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/userfaultfd.h>

#include <rdx/emu.h>
#include <rdx/pm4.h>

#define SPIN_MIN_NS  50000  /* busy-poll at least this long after the last work, */
#define SPIN_MAX_NS  250000 /* at most this long (twice the recent gaps between work) */
#define SLEEP_MIN_NS 20000  /* backoff while a queue waits on memory */
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

/* ---- the doorbell watch: userfaultfd write protection of the client's doorbell pages ---- */

static int wp_range(int uffd, uint64_t va, uint64_t len, int on)
{
    struct uffdio_writeprotect w = { .range = { .start = va, .len = len },
                                     .mode = on ? UFFDIO_WRITEPROTECT_MODE_WP : 0 };
    return ioctl(uffd, UFFDIO_WRITEPROTECT, &w) < 0 ? -errno : 0;
}

static void *probe_store(void *page)
{
    __atomic_store_n((uint64_t *)page, 1, __ATOMIC_RELAXED);
    return NULL;
}

/* Whether a store to a write-protected shared page of uffd really stops until the
 * protection is lifted (shared-memory write protection needs Linux 5.19+; a kernel that
 * let the store through would leave a sleeping command processor deaf). */
static int probe(int uffd)
{
    int ok = 0, mfd = memfd_create("rdx-emu-probe", MFD_CLOEXEC);
    void *page = MAP_FAILED;
    if (mfd >= 0 && ftruncate(mfd, (off_t)EMU_PAGE) == 0)
        page = mmap(NULL, EMU_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
    if (page == MAP_FAILED) {
        if (mfd >= 0)
            close(mfd);
        return 0;
    }
    uint64_t va = (uint64_t)(uintptr_t)page;
    struct uffdio_register r = { .range = { .start = va, .len = EMU_PAGE },
                                 .mode = UFFDIO_REGISTER_MODE_WP };
    pthread_t t;
    if (ioctl(uffd, UFFDIO_REGISTER, &r) == 0 && wp_range(uffd, va, EMU_PAGE, 1) == 0 &&
        pthread_create(&t, NULL, probe_store, page) == 0) {
        struct pollfd pf = { .fd = uffd, .events = POLLIN };
        struct uffd_msg m;
        if (poll(&pf, 1, 2000) == 1 && read(uffd, &m, sizeof m) == (ssize_t)sizeof m &&
            m.event == UFFD_EVENT_PAGEFAULT && (m.arg.pagefault.flags & UFFD_PAGEFAULT_FLAG_WP))
            ok = 1;
        wp_range(uffd, va, EMU_PAGE, 0); /* lets the store finish either way */
        pthread_join(t, NULL);
    }
    munmap(page, EMU_PAGE);
    close(mfd);
    return ok;
}

/* Open the command processor's userfaultfd (first doorbell mapping of its GPU): 1 usable,
 * -1 not. */
static int watch_open(emu_cp *cp)
{
    const char *env = getenv("RDX_EMU_DOORBELL_WATCH");
    if (env && !strcmp(env, "0"))
        return -1;
#if defined(SYS_userfaultfd) && defined(UFFD_USER_MODE_ONLY) && \
    defined(UFFD_FEATURE_WP_HUGETLBFS_SHMEM)
    /* User-mode faults only: no privilege needed (vm.unprivileged_userfaultfd=0), and the
     * driver's own kernel-mode accesses (process_vm_writev) fail instead of waiting. */
    int fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
    if (fd < 0)
        return -1;
    struct uffdio_api api = { .api = UFFD_API,
                              .features = UFFD_FEATURE_PAGEFAULT_FLAG_WP |
                                          UFFD_FEATURE_WP_HUGETLBFS_SHMEM };
    if (ioctl(fd, UFFDIO_API, &api) < 0 || !probe(fd)) {
        close(fd);
        return -1;
    }
    cp->uffd = fd;
    return 1;
#else
    (void)cp;
    return -1;
#endif
}

/* Give up on the watch: the command processor polls from now on (it closes the fd). */
static void watch_fail(rdx_emudev *dev, emu_cp *cp)
{
    cp->watch = -2;
    dev->stats.doorbell_watch = 0;
    emu_cp_kick(dev, cp->gpu);
}

void emu_cp_watch_doorbells(rdx_emudev *dev, uint32_t g, uint64_t va, uint64_t len)
{
    assert(g < dev->num_gpus);
    emu_cp *cp = &dev->gpus[g].cp;
    if (cp->watch == 0) {
        cp->watch = watch_open(cp);
        dev->stats.doorbell_watch = cp->watch == 1;
    }
    if (cp->watch != 1)
        return;
    struct uffdio_register r = { .range = { .start = va, .len = len },
                                 .mode = UFFDIO_REGISTER_MODE_WP };
    if (ioctl(cp->uffd, UFFDIO_REGISTER, &r) < 0) {
        watch_fail(dev, cp);
        return;
    }
    uint32_t slot = EMU_MAX_WATCH;
    for (uint32_t i = 0; i < EMU_MAX_WATCH; i++) {
        if (cp->watched[i].len && cp->watched[i].va == va) {
            slot = i;
            break;
        }
        if (!cp->watched[i].len && slot == EMU_MAX_WATCH)
            slot = i;
    }
    if (slot == EMU_MAX_WATCH) {
        watch_fail(dev, cp);
        return;
    }
    cp->watched[slot].va = va;
    cp->watched[slot].len = len;
    emu_cp_kick(dev, g); /* a sleeping command processor protects the new mapping too */
}

/* Protect (on) or release every watched range; a range the client unmapped is dropped.
 * Returns 0, or -1 when a live range could not be protected (sleep with a timeout). */
static int watch_arm(emu_cp *cp, int on)
{
    int r = 0;
    for (uint32_t i = 0; i < EMU_MAX_WATCH; i++) {
        if (!cp->watched[i].len)
            continue;
        int e = wp_range(cp->uffd, cp->watched[i].va, cp->watched[i].len, on);
        if (e == -ENOENT || e == -EINVAL)
            cp->watched[i].len = 0; /* no longer a registered mapping */
        else if (e)
            r = -1;
    }
    return r;
}

static void kick_one(emu_cp *cp)
{
    cp->kick = 1;
    if (cp->sleeping) {
        uint64_t one = 1;
        if (write(cp->evfd, &one, sizeof one) < 0) {
            /* EAGAIN: the counter is already non-zero, the thread wakes anyway */
        }
        cp->sleeping = 0;
    }
}

void emu_cp_kick(rdx_emudev *dev, uint32_t g)
{
    if (g != EMU_ALL_GPUS) {
        assert(g < dev->num_gpus);
        kick_one(&dev->gpus[g].cp);
        return;
    }
    for (uint32_t i = 0; i < dev->num_gpus; i++)
        kick_one(&dev->gpus[i].cp);
}

/* Whether a queue of the command processor's GPU has work it cannot run yet (its doorbell
 * is ahead of its read pointer). */
static int pending(rdx_emudev *dev, const emu_cp *cp)
{
    for (uint32_t i = 0; i < EMU_MAX_QUEUES; i++) {
        emu_queue *q = dev->queues[i];
        if (q && q->gpu == cp->gpu && !q->error &&
            __atomic_load_n(&dev->gpus[q->gpu].doorbell[q->doorbell_index], __ATOMIC_ACQUIRE) !=
                q->rptr)
            return 1;
    }
    return 0;
}

/* Whether the command processor's GPU has a queue (a GPU without one has nothing to poll:
 * creating a queue kicks its command processor). */
static int has_queues(rdx_emudev *dev, const emu_cp *cp)
{
    for (uint32_t i = 0; i < EMU_MAX_QUEUES; i++)
        if (dev->queues[i] && dev->queues[i]->gpu == cp->gpu)
            return 1;
    return 0;
}

/* Sleep (lock held, dropped meanwhile) until a doorbell store, a kick or, when a queue
 * waits on memory or nothing can announce work, the backoff's timeout. */
static void cp_sleep(rdx_emudev *dev, emu_cp *cp, unsigned *sleeps)
{
    if (cp->watch == -2) {
        close(cp->uffd);
        cp->watch = -1;
    }
    int watch = cp->watch == 1 && cp->evfd >= 0 && !pending(dev, cp);
    if (watch && watch_arm(cp, 1) < 0) {
        watch_arm(cp, 0);
        watch = 0;
    }
    if (watch && pending(dev, cp)) { /* a store landed before the protection */
        watch_arm(cp, 0);
        return;
    }
    long ns = (long)SLEEP_MIN_NS << (*sleeps < 6 ? *sleeps : 6);
    if (ns > SLEEP_MAX_NS)
        ns = SLEEP_MAX_NS;
    struct timespec ts = { 0, ns };
    if (!watch)
        ++*sleeps;
    struct pollfd pf[2] = { { .fd = cp->evfd, .events = POLLIN },
                            { .fd = watch ? cp->uffd : -1, .events = POLLIN } };
    int forever = watch || !has_queues(dev, cp);
    cp->sleeping = cp->evfd >= 0;
    pthread_mutex_unlock(&dev->lock);
    if (cp->evfd >= 0)
        ppoll(pf, 2, forever ? NULL : &ts, NULL);
    else
        nanosleep(&ts, NULL);
    pthread_mutex_lock(&dev->lock);
    cp->sleeping = 0;
    dev->stats.cp_wakeups++;
    if (watch) {
        /* First lift the protection: that completes the store waiting on it and wakes its
         * thread, which then runs while this one serves the queue. */
        watch_arm(cp, 0);
        if (pf[1].revents & POLLIN) {
            struct uffd_msg m[8]; /* the faults the release just resolved, in one read */
            while (read(cp->uffd, m, sizeof m) == (ssize_t)sizeof m) {
            }
        }
        cp->kick = 1; /* spin while the woken store completes */
    }
    uint64_t n;
    if ((pf[0].revents & POLLIN) && read(cp->evfd, &n, sizeof n) < 0) {
        /* EAGAIN: another kick consumed it */
    }
}

/* The wave emulator allocates each dispatch's wave state (~70 KiB a wave) in this thread and
 * frees it afterwards.  With glibc that memory returns to the top of this thread's malloc
 * arena, which is then trimmed (madvise) and faulted in again by the next dispatch: a TLB
 * shootdown across the process's CPUs per dispatch, most of an empty round trip's cost.
 * Freed blocks below a live one are not at the top and are never trimmed: leave 672 KiB
 * of them, kept by the last block allocated (returned, freed when the thread ends). */
static void *arena_pin(void)
{
    enum { N = 8, BLOCK = 96 << 10 };
    void *blocks[N];
    for (int i = 0; i < N; i++)
        blocks[i] = malloc(BLOCK);
    for (int i = 0; i < N - 1; i++)
        free(blocks[i]);
    return blocks[N - 1];
}

/* GPU cp->gpu's command processor: serves the queues of that GPU until dev->stop. */
static void *cp_main(void *arg)
{
    emu_cp *cp = arg;
    rdx_emudev *dev = cp->dev;
    void *pin = arena_pin();
    /* The host thread count once: the wave emulator would otherwise ask the system
     * (sysconf, reading /sys) on every dispatch. */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (dev->gpus[cp->gpu].emu)
        rdx_emu_set_threads(dev->gpus[cp->gpu].emu, cores > 0 ? (unsigned)cores : 1);
    unsigned sleeps = 0;
    uint64_t last_progress = mono_ns(), spin = SPIN_MIN_NS;
    int idle_pass = 0; /* a pass without progress since the last work */
    pthread_mutex_lock(&dev->lock);
    while (!dev->stop) {
        int progress = 0;
        for (uint32_t i = 0; i < EMU_MAX_QUEUES; i++)
            if (dev->queues[i] && dev->queues[i]->gpu == cp->gpu)
                progress |= serve(dev, dev->queues[i]);
        if (progress || cp->kick) {
            uint64_t t = mono_ns();
            if (progress && idle_pass) {
                /* Adapt the spin to the gaps between work: twice the last gap (slowly
                 * shrinking), back to the minimum after a gap longer than the maximum. */
                uint64_t gap = t - last_progress;
                spin = gap > SPIN_MAX_NS ? SPIN_MIN_NS : spin - spin / 4;
                if (gap <= SPIN_MAX_NS && 2 * gap > spin)
                    spin = 2 * gap > SPIN_MAX_NS ? SPIN_MAX_NS : 2 * gap;
                if (spin < SPIN_MIN_NS)
                    spin = SPIN_MIN_NS;
            }
            cp->kick = 0;
            sleeps = 0;
            idle_pass = 0;
            last_progress = t;
            continue;
        }
        idle_pass = 1;
        /* Busy-poll for a short while after the last work, so back-to-back
         * submissions are picked up at once; yielding, so that on a busy machine
         * the client (on the same CPU) runs rather than this loop. */
        if (mono_ns() - last_progress < spin) {
            pthread_mutex_unlock(&dev->lock);
            for (int i = 0; i < 64; i++)
                cpu_relax();
            sched_yield();
            pthread_mutex_lock(&dev->lock);
            continue;
        }
        cp_sleep(dev, cp, &sleeps);
    }
    if (cp->watch == 1 || cp->watch == -2)
        close(cp->uffd); /* also releases any store still waiting */
    cp->watch = -1;
    dev->stats.doorbell_watch = 0;
    pthread_mutex_unlock(&dev->lock);
    free(pin);
    return NULL;
}

int emu_cp_start(rdx_emudev *dev)
{
    for (uint32_t g = 0; g < dev->num_gpus; g++) {
        emu_cp *cp = &dev->gpus[g].cp;
        cp->dev = dev;
        cp->gpu = g;
        cp->uffd = cp->evfd = -1;
    }
    for (uint32_t g = 0; g < dev->num_gpus; g++) {
        emu_cp *cp = &dev->gpus[g].cp;
        cp->evfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        if (cp->evfd < 0)
            return errno;
        int e = pthread_create(&cp->thread, NULL, cp_main, cp);
        if (e)
            return e;
        cp->started = 1;
    }
    return 0;
}

void emu_cp_join(rdx_emudev *dev)
{
    for (uint32_t g = 0; g < dev->num_gpus; g++) {
        emu_cp *cp = &dev->gpus[g].cp;
        if (cp->started)
            pthread_join(cp->thread, NULL);
        cp->started = 0;
        if (cp->dev && cp->evfd >= 0)
            close(cp->evfd);
        cp->evfd = -1;
    }
}
