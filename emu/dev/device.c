/* emu/dev/device.c — the emulated driver's lifetime, fds, ioctl dispatch and fault injection. */
#include "emu/dev/emudev.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <libdrm/amdgpu_drm.h>

#include <rdx/emu.h>

#include "util/error.h"

void emu_set_error(rdx_emudev *dev, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dev->last_error, sizeof dev->last_error, fmt, ap);
    va_end(ap);
}

void emu_wait_gpus_idle(rdx_emudev *dev, uint32_t mask)
{
    /* The command processors concerned start no dispatch while a thread waits here
     * (dispatch.c), so that dispatches on several GPUs cannot keep it waiting for ever. */
    for (uint32_t g = 0; g < dev->num_gpus; g++)
        if (mask & (1u << g))
            dev->gpus[g].idle_waiters++;
    for (uint32_t g = 0; g < dev->num_gpus; g++)
        while ((mask & (1u << g)) && dev->gpus[g].dispatching)
            pthread_cond_wait(&dev->idle, &dev->lock);
    for (uint32_t g = 0; g < dev->num_gpus; g++)
        if (mask & (1u << g))
            dev->gpus[g].idle_waiters--;
    pthread_cond_broadcast(&dev->idle);
}

void emu_wait_idle(rdx_emudev *dev)
{
    emu_wait_gpus_idle(dev, EMU_ALL_GPUS);
}

int emu_gpu_by_id(rdx_emudev *dev, uint32_t gpu_id)
{
    for (uint32_t i = 0; i < dev->num_gpus; i++)
        if (dev->gpus[i].gpu_id == gpu_id)
            return (int)i;
    return -1;
}

int emu_fd_kind_of(rdx_emudev *dev, int fd, uint32_t *gpu)
{
    if (fd < EMU_FD_BASE || fd >= EMU_FD_BASE + EMU_MAX_FDS)
        return EMU_FD_FREE;
    int i = fd - EMU_FD_BASE;
    if (gpu)
        *gpu = dev->fd_gpu[i];
    return dev->fds[i];
}

/* Consume an injection rule for `request`; returns -err when this call must fail. */
/* Whether an injected failure names `request`: a KFD request is known by its number alone
 * (kfd_ioctl picks the handler by _IOC_NR, so a request of another size or direction with
 * the same number is the same call); any other request by its whole code. */
static int same_request(unsigned long a, unsigned long b)
{
    if (_IOC_TYPE(a) == AMDKFD_IOCTL_BASE && _IOC_TYPE(b) == AMDKFD_IOCTL_BASE)
        return _IOC_NR(a) == _IOC_NR(b);
    return a == b;
}

static int inject_check(rdx_emudev *dev, unsigned long request)
{
    for (int i = 0; i < EMU_MAX_INJECT; i++) {
        emu_inject *r = &dev->inject[i];
        if (r->remaining && same_request(r->request, request) && --r->remaining == 0)
            return -r->err;
    }
    return 0;
}

static int emu_open(void *ctx, const char *path, int flags)
{
    rdx_emudev *dev = ctx;
    (void)flags;
    emu_fd_kind kind;
    uint32_t gpu = 0;
    unsigned minor;
    char tail;
    if (!strcmp(path, "/dev/kfd")) {
        kind = EMU_FD_KFD;
    } else if (sscanf(path, "/dev/dri/renderD%u%c", &minor, &tail) == 1 &&
               minor >= EMU_RENDER_MINOR_BASE && minor < EMU_RENDER_MINOR_BASE + dev->num_gpus) {
        kind = EMU_FD_RENDER;
        gpu = minor - EMU_RENDER_MINOR_BASE;
    } else {
        return -ENOENT;
    }
    pthread_mutex_lock(&dev->lock);
    int r = inject_check(dev, RDX_EMUDEV_OP_OPEN);
    if (r == 0) {
        r = -EMFILE;
        for (int i = 0; i < EMU_MAX_FDS; i++) {
            if (dev->fds[i] == EMU_FD_FREE) {
                dev->fds[i] = kind;
                dev->fd_gpu[i] = gpu;
                dev->stats.open_fds++;
                r = EMU_FD_BASE + i;
                break;
            }
        }
    }
    pthread_mutex_unlock(&dev->lock);
    return r;
}

static int emu_close(void *ctx, int fd)
{
    rdx_emudev *dev = ctx;
    pthread_mutex_lock(&dev->lock);
    if (emu_fd_kind_of(dev, fd, NULL) == EMU_FD_KFD) {
        int kfd_open = 0;
        for (int j = 0; j < EMU_MAX_FDS; j++)
            kfd_open += dev->fds[j] == EMU_FD_KFD;
        if (kfd_open == 1) /* the process's queues go: stop what they run */
            emu_queue_cancel_all(dev);
    }
    emu_wait_idle(dev);
    int r = -EBADF;
    int closing = emu_fd_kind_of(dev, fd, NULL);
    if (closing == EMU_FD_RENDER)
        emu_drm_gem_release(dev, fd), emu_drm_cs_release(dev, fd); /* the DRM file's objects */
    if (closing != EMU_FD_FREE) {
        int i = fd - EMU_FD_BASE;
        dev->fds[i] = EMU_FD_FREE;
        dev->stats.open_fds--;
        /* The VM keeps the file ACQUIRE_VM gave it (KFD's process device data holds a
         * reference until the process goes), so it outlives this fd. */
        for (uint32_t g = 0; g < dev->num_gpus; g++)
            if (dev->gpus[g].vm_fd == fd)
                dev->gpus[g].vm_file_closed = 1;
        int kfd_left = 0;
        for (int j = 0; j < EMU_MAX_FDS; j++)
            kfd_left += dev->fds[j] == EMU_FD_KFD;
        int any_left = 0;
        for (int j = 0; j < EMU_MAX_FDS; j++)
            any_left += dev->fds[j] != EMU_FD_FREE;
        if (!kfd_left && (closing == EMU_FD_KFD || !any_left)) {
            for (uint32_t g = 0; g < dev->num_gpus; g++) {
                dev->gpus[g].vm_fd = -1;
                dev->gpus[g].vm_file_closed = 0;
            }
            emu_process_teardown(dev);
        }
        r = 0;
    }
    pthread_mutex_unlock(&dev->lock);
    return r;
}

static int emu_ioctl(void *ctx, int fd, unsigned long request, void *user_arg)
{
    rdx_emudev *dev = ctx;
    uint32_t gpu;
    request = (unsigned int)request; /* the kernel's cmd is an unsigned int */
    pthread_mutex_lock(&dev->lock);
    int kind = emu_fd_kind_of(dev, fd, &gpu);
    int r;
    if (kind == EMU_FD_FREE) {
        r = -EBADF;
    } else if ((r = inject_check(dev, request)) != 0) {
        /* injected */
    } else if (kind == EMU_FD_KFD) {
        r = emu_kfd_ioctl(dev, request, user_arg); /* kfd_ioctl: by number, ioctl.c */
    } else if (!user_arg) {
        r = -EFAULT;
    } else {
        /* drm_ioctl: the caller's size copied in, the rest zeroed, copied back (an _IOC_READ
         * argument whatever the result) */
        _Alignas(16) unsigned char arg[256];
        size_t usize = _IOC_SIZE(request);
        if (usize > sizeof arg) {
            r = -EINVAL;
        } else {
            memset(arg, 0, sizeof arg);
            if ((_IOC_DIR(request) & _IOC_WRITE) &&
                emu_copy_from_user(arg, (uint64_t)(uintptr_t)user_arg, usize)) {
                r = -EFAULT;
            } else {
                dev->stats.ioctls++;
                r = emu_ioctl_drm(dev, fd, gpu, request, arg);
                if ((_IOC_DIR(request) & _IOC_READ) &&
                    emu_copy_to_user((uint64_t)(uintptr_t)user_arg, arg, usize))
                    r = -EFAULT;
            }
        }
    }
    pthread_mutex_unlock(&dev->lock);
    return r;
}

static int os_mmap(void *ctx, void *addr, size_t len, int prot, int flags, int fd, uint64_t off,
                   void **out)
{
    rdx_emudev *dev = ctx;
    pthread_mutex_lock(&dev->lock);
    emu_wait_idle(dev);
    int r = 0;
    if (fd >= 0 && emu_fd_kind_of(dev, fd, NULL) != EMU_FD_FREE)
        r = inject_check(dev, RDX_EMUDEV_OP_MMAP);
    if (r == 0)
        r = emu_mmap(dev, addr, len, prot, flags, fd, off, out);
    pthread_mutex_unlock(&dev->lock);
    return r;
}

static int os_munmap(void *ctx, void *addr, size_t len)
{
    rdx_emudev *dev = ctx;
    pthread_mutex_lock(&dev->lock);
    emu_wait_gpus_idle(dev, emu_range_gpus(dev, (uint64_t)(uintptr_t)addr, len));
    int r = emu_munmap(dev, addr, len);
    pthread_mutex_unlock(&dev->lock);
    return r;
}

static int os_read_file(void *ctx, const char *path, char *buf, size_t cap, size_t *len)
{
    return emu_sysfs_read(ctx, path, buf, cap, len);
}

static int os_list_dir(void *ctx, const char *path, rdx_os_dir_fn fn, void *user)
{
    return emu_sysfs_list(ctx, path, fn, user);
}

static int os_mem_note(void *ctx, rdx_os_mem_op op, uint64_t addr, uint64_t size, const char *label)
{
    rdx_emudev *dev = ctx;
    pthread_mutex_lock(&dev->lock);
    emu_wait_idle(dev); /* the wave emulator's memory map changes */
    int r = emu_mem_note(dev, op, addr, size, label);
    pthread_mutex_unlock(&dev->lock);
    return r;
}

/* The bounds mode: the configuration's, else RDX_EMU_BOUNDS, else exact. */
static rdx_status bounds_mode(const rdx_emudev_config *cfg, int *exact)
{
    rdx_emudev_bounds b = cfg ? cfg->bounds : RDX_EMUDEV_BOUNDS_DEFAULT;
    if (b == RDX_EMUDEV_BOUNDS_DEFAULT) {
        const char *env = getenv("RDX_EMU_BOUNDS");
        if (!env || !*env || !strcmp(env, "exact"))
            b = RDX_EMUDEV_BOUNDS_EXACT;
        else if (!strcmp(env, "block"))
            b = RDX_EMUDEV_BOUNDS_BLOCK;
        else
            return rdx_fail(RDX_ERR_INVALID, "RDX_EMU_BOUNDS='%s': expected 'exact' or 'block'",
                            env);
    }
    if (b != RDX_EMUDEV_BOUNDS_EXACT && b != RDX_EMUDEV_BOUNDS_BLOCK)
        return rdx_fail(RDX_ERR_INVALID, "emulated device: bounds mode %d, expected 0, 1 or 2",
                        (int)b);
    *exact = b == RDX_EMUDEV_BOUNDS_EXACT;
    return RDX_OK;
}

/* The kernel modelled: the configuration's legacy flag, else RDX_EMU_KERNEL ("current" or
 * "6.1"), else current. */
static rdx_status kernel_model(const rdx_emudev_config *cfg, int *legacy)
{
    *legacy = cfg ? cfg->legacy_sysfs != 0 : 0;
    const char *env = getenv("RDX_EMU_KERNEL");
    if (*legacy || !env || !*env || !strcmp(env, "current"))
        return RDX_OK;
    if (strcmp(env, "6.1"))
        return rdx_fail(RDX_ERR_INVALID, "RDX_EMU_KERNEL='%s': expected 'current' or '6.1'", env);
    *legacy = 1;
    return RDX_OK;
}

void emu_process_teardown(rdx_emudev *dev)
{
    emu_drm_release_all(dev);
    emu_queue_release_all(dev);
    emu_smi_release_all(dev);
    dev->runtime_enabled = 0;
    emu_event_release_all(dev);
    emu_mem_release_all(dev, 0);
    for (uint32_t g = 0; g < dev->num_gpus; g++)
        dev->gpus[g].vram_used = 0;
}

rdx_status rdx_emudev_create(const rdx_emudev_config *cfg, rdx_emudev **out)
{
    uint32_t n = cfg && cfg->num_gpus ? cfg->num_gpus : 1;
    if (n > EMU_MAX_GPUS)
        return rdx_fail(RDX_ERR_RANGE, "emulated device: %u GPUs requested, at most %d", n,
                        EMU_MAX_GPUS);
    int exact = 1;
    rdx_status bst = bounds_mode(cfg, &exact);
    if (bst)
        return bst;
    int legacy = 0;
    if ((bst = kernel_model(cfg, &legacy)) != RDX_OK)
        return bst;
    const emu_target *targets[EMU_MAX_GPUS];
    if (cfg && cfg->arch && *cfg->arch)
        bst = emu_target_parse("rdx_emudev_config.arch", cfg->arch, n, targets);
    else
        bst = emu_target_parse("RDX_EMU_ARCH", getenv("RDX_EMU_ARCH"), n, targets);
    if (bst)
        return bst;
    rdx_emudev *dev = calloc(1, sizeof *dev);
    if (!dev)
        return rdx_fail(RDX_ERR_NOMEM, "emulated device: out of memory");
    dev->events = calloc(EMU_MAX_EVENTS, sizeof *dev->events);
    dev->pool_fd = memfd_create("rdx-emu-memory", MFD_CLOEXEC);
    if (!dev->events || dev->pool_fd < 0 || ftruncate(dev->pool_fd, (off_t)EMU_POOL_SIZE) < 0) {
        int e = errno;
        if (dev->pool_fd >= 0)
            close(dev->pool_fd);
        free(dev->events);
        free(dev);
        return rdx_fail_errno(RDX_ERR_NOMEM, e, "emulated device: creating its memory pool");
    }
    dev->num_gpus = n;
    dev->legacy_sysfs = legacy;
    for (uint32_t g = 0; g < EMU_MAX_GPUS; g++)
        dev->smi_fds[g] = -1;
    dev->wave_budget = cfg ? cfg->wave_budget : 0;
    dev->bounds_exact = exact;
    dev->dispatch_budget = cfg ? cfg->dispatch_budget : 0;
    dev->next_idr = 1;
    dev->next_mmap_offset = EMU_DRM_OFFSET_START;
    dev->next_nonsignal = EMU_NONSIGNAL_ID;
    dev->internal_off = dev->pool_next;
    dev->pool_next += KFD_SIGNAL_EVENT_LIMIT * 8;
    void *ip = mmap(NULL, KFD_SIGNAL_EVENT_LIMIT * 8, PROT_READ | PROT_WRITE, MAP_SHARED,
                    dev->pool_fd, (off_t)dev->internal_off);
    if (ip == MAP_FAILED) {
        int e = errno;
        rdx_emudev_destroy(dev);
        return rdx_fail_errno(RDX_ERR_NOMEM, e, "emulated device: mapping the event page");
    }
    dev->internal_page = ip;
    for (uint32_t i = 0; i < n; i++) {
        emu_gpu *g = &dev->gpus[i];
        g->gpu_id = 0x3a8cu + 0x1111u * i; /* arbitrary, non-zero and distinct like KFD's hash */
        g->t = targets[i];
        g->vram_size = cfg && cfg->vram_size ? cfg->vram_size : g->t->local_mem;
        g->render_minor = EMU_RENDER_MINOR_BASE + i;
        g->vm_fd = -1;
        g->doorbell_off = dev->pool_next;
        dev->pool_next += EMU_DOORBELL_SLICE;
        g->mmio_off =
            dev->pool_next; /* one page: HDP_MEM_FLUSH_CNTL at 0, HDP_REG_FLUSH_CNTL at 4 */
        dev->pool_next += EMU_PAGE;
        void *p = mmap(NULL, EMU_DOORBELL_SLICE, PROT_READ | PROT_WRITE, MAP_SHARED, dev->pool_fd,
                       (off_t)g->doorbell_off);
        if (p == MAP_FAILED) {
            int e = errno;
            rdx_emudev_destroy(dev);
            return rdx_fail_errno(RDX_ERR_NOMEM, e, "emulated device: mapping doorbells");
        }
        g->doorbell = p;
        rdx_status st = rdx_emu_create(g->t->name, &g->emu);
        if (st == RDX_ERR_UNSUPPORTED) { /* the GPU exists; its dispatches fail, saying why */
            snprintf(g->emu_error, sizeof g->emu_error, "%s", rdx_error_message());
            rdx_error_clear();
            g->emu = NULL;
        } else if (st != RDX_OK) {
            rdx_emudev_destroy(dev);
            return rdx_fail_context(st, "emulated device: wave emulator");
        }
    }
    dev->os = (rdx_os){ .name = "emu",
                        .ctx = dev,
                        .open = emu_open,
                        .close = emu_close,
                        .ioctl = emu_ioctl,
                        .mmap = os_mmap,
                        .munmap = os_munmap,
                        .read_file = os_read_file,
                        .list_dir = os_list_dir,
                        .mem_note = os_mem_note };
    pthread_mutex_init(&dev->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&dev->ev_cond, &ca);
    pthread_cond_init(&dev->idle, &ca);
    pthread_condattr_destroy(&ca);
    int e = emu_cp_start(dev);
    if (e) {
        rdx_emudev_destroy(dev);
        return rdx_fail_errno(RDX_ERR_DEVICE, e, "emulated device: starting the command processor");
    }
    *out = dev;
    return RDX_OK;
}

void rdx_emudev_destroy(rdx_emudev *dev)
{
    if (!dev)
        return;
    if (dev->os.ctx) {
        pthread_mutex_lock(&dev->lock);
        dev->stop = 1;
        emu_queue_cancel_all(dev); /* running dispatches end promptly */
        emu_cp_kick(dev, EMU_ALL_GPUS);
        pthread_mutex_unlock(&dev->lock);
        emu_cp_join(dev);
        pthread_cond_destroy(&dev->ev_cond);
        pthread_cond_destroy(&dev->idle);
        pthread_mutex_destroy(&dev->lock);
    }
    emu_drm_release_all(dev);
    emu_queue_release_all(dev);
    emu_smi_release_all(dev);
    emu_mem_release_all(dev, 1);
    for (uint32_t i = 0; i < dev->num_gpus; i++) {
        if (dev->gpus[i].doorbell)
            munmap((void *)dev->gpus[i].doorbell, EMU_DOORBELL_SLICE);
        rdx_emu_destroy(dev->gpus[i].emu);
        emu_perf_free(dev->gpus[i].perf);
    }
    if (dev->internal_page)
        munmap(dev->internal_page, KFD_SIGNAL_EVENT_LIMIT * 8);
    close(dev->pool_fd);
    free(dev->events);
    free(dev);
}

const rdx_os *rdx_emudev_os(rdx_emudev *dev)
{
    return &dev->os;
}

rdx_status rdx_emudev_inject(rdx_emudev *dev, unsigned long request, uint32_t nth, int err)
{
    if (nth == 0 || err <= 0)
        return rdx_fail(RDX_ERR_INVALID, "rdx_emudev_inject: nth must be >= 1 and errno > 0");
    rdx_status st = RDX_ERR_RANGE;
    pthread_mutex_lock(&dev->lock);
    for (int i = 0; i < EMU_MAX_INJECT; i++) {
        if (!dev->inject[i].remaining) {
            dev->inject[i] = (emu_inject){ request, nth, err };
            st = RDX_OK;
            break;
        }
    }
    pthread_mutex_unlock(&dev->lock);
    if (st != RDX_OK)
        return rdx_fail(st, "rdx_emudev_inject: all %d rules in use", EMU_MAX_INJECT);
    return RDX_OK;
}

void rdx_emudev_inject_clear(rdx_emudev *dev)
{
    pthread_mutex_lock(&dev->lock);
    memset(dev->inject, 0, sizeof dev->inject);
    pthread_mutex_unlock(&dev->lock);
}

uint32_t rdx_emudev_inject_pending(rdx_emudev *dev)
{
    uint32_t n = 0;
    pthread_mutex_lock(&dev->lock);
    for (int i = 0; i < EMU_MAX_INJECT; i++)
        n += dev->inject[i].remaining != 0;
    pthread_mutex_unlock(&dev->lock);
    return n;
}

void rdx_emudev_get_stats(rdx_emudev *dev, rdx_emudev_stats *out)
{
    pthread_mutex_lock(&dev->lock);
    *out = dev->stats;
    out->dispatches_running = (uint32_t)dev->dispatching;
    out->reservations = 0;
    for (emu_reservation *r = dev->reservations; r; r = r->next)
        out->reservations++;
    pthread_mutex_unlock(&dev->lock);
}

void rdx_emudev_last_error(rdx_emudev *dev, char *buf, size_t size)
{
    if (!size)
        return;
    pthread_mutex_lock(&dev->lock);
    snprintf(buf, size, "%s", dev->last_error);
    pthread_mutex_unlock(&dev->lock);
}
