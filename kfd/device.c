/*
 * kfd/device.c — opening the KFD process: discovery, /dev/kfd, version,
 * render nodes, VM acquisition and process apertures.
 */
#include "kfd/internal.h"
#include "kfd/memory.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kfd_ioctl.h>

static rdx_status open_path(const rdx_os *os, const char *path, int *fd)
{
    int r, tries = 0;
    do {
        r = os->open(os->ctx, path, O_RDWR | O_CLOEXEC);
    } while (r == -EINTR && ++tries < 10000);
    if (r < 0)
        return rdx_fail_errno(r == -ENOENT ? RDX_ERR_NOT_FOUND : RDX_ERR_DEVICE, -r,
                              "open %s (%s) failed", path, os->name);
    *fd = r;
    return RDX_OK;
}

static rdx_status open_gpus(rdx_kfd *k)
{
    rdx_status st;
    for (uint32_t i = 0; i < k->gpu_count; i++) {
        rdx_kfd_gpu_state *g = &k->gpus[i];
        char path[64];
        snprintf(path, sizeof path, "/dev/dri/renderD%u", g->info.drm_render_minor);
        if ((st = open_path(k->os, path, &g->drm_fd)) != RDX_OK)
            return st;
        if ((st = rdx_kfd_drm_query(k->os, g->drm_fd, &g->info)) != RDX_OK)
            return st;
        struct kfd_ioctl_acquire_vm_args vm = { .drm_fd = (uint32_t)g->drm_fd,
                                                .gpu_id = g->info.gpu_id };
        if ((st = RDX_KFD_IOCTL(k->os, k->fd, AMDKFD_IOC_ACQUIRE_VM, &vm)) != RDX_OK)
            return rdx_fail_context(st, "gpu %u", g->info.gpu_id);
    }
    /* Apertures of every GPU of the process. */
    struct kfd_ioctl_get_process_apertures_new_args ap = { 0 };
    if ((st = RDX_KFD_IOCTL(k->os, k->fd, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &ap)) != RDX_OK)
        return st;
    uint32_t n = ap.num_of_nodes;
    struct kfd_process_device_apertures *a = calloc(n ? n : 1, sizeof *a);
    if (!a)
        return rdx_fail(RDX_ERR_NOMEM, "process apertures: out of memory");
    ap.kfd_process_device_apertures_ptr = (uint64_t)(uintptr_t)a;
    ap.num_of_nodes = n;
    st = RDX_KFD_IOCTL(k->os, k->fd, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &ap);
    for (uint32_t i = 0; st == RDX_OK && i < ap.num_of_nodes && i < n; i++) {
        for (uint32_t j = 0; j < k->gpu_count; j++) {
            rdx_kfd_gpu_info *g = &k->gpus[j].info;
            if (g->gpu_id == a[i].gpu_id) {
                g->gpuvm_base = a[i].gpuvm_base;
                g->gpuvm_limit = a[i].gpuvm_limit;
                g->lds_base = a[i].lds_base;
                g->scratch_base = a[i].scratch_base;
            }
        }
    }
    free(a);
    for (uint32_t j = 0; st == RDX_OK && j < k->gpu_count; j++)
        if (!k->gpus[j].info.gpuvm_limit)
            st = rdx_fail(RDX_ERR_DEVICE,
                          "AMDKFD_IOC_GET_PROCESS_APERTURES_NEW: no aperture for "
                          "gpu %u",
                          k->gpus[j].info.gpu_id);
    return st;
}

/* RDX_SUBMIT: "drm" (the amdgpu DRM path), "kfd", or unset/empty (KFD, else DRM). */
static rdx_status submit_mode(int *mode)
{
    const char *s = getenv("RDX_SUBMIT");
    if (!s || !*s)
        *mode = 0;
    else if (!strcmp(s, "kfd"))
        *mode = 1;
    else if (!strcmp(s, "drm"))
        *mode = 2;
    else
        return rdx_fail(RDX_ERR_INVALID, "RDX_SUBMIT='%s': expected 'kfd' or 'drm'", s);
    return RDX_OK;
}

static rdx_status kfd_open(const rdx_os *os, rdx_kfd **out);

rdx_status rdx_kfd_open(const rdx_os *os, rdx_kfd **out)
{
    int mode;
    rdx_status st = submit_mode(&mode);
    if (st)
        return st;
    /* libdrm_amdgpu makes its ioctls on the fd itself: the DRM path runs on the libc table
     * only (other tables, e.g. an in-process emulated device, keep KFD). */
    int drm_ok = os == rdx_os_linux();
    if (mode == 2 && drm_ok)
        return rdx_kfd_drm_open(os, out);
    st = kfd_open(os, out);
    if (st == RDX_ERR_NOT_FOUND && mode == 0 && drm_ok) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
        if (rdx_kfd_drm_open(os, out) == RDX_OK)
            return RDX_OK; /* no KFD, but an amdgpu render node */
        return rdx_fail(st, "%s", msg);
    }
    return st;
}

static rdx_status kfd_open(const rdx_os *os, rdx_kfd **out)
{
    rdx_kfd_topology *topo;
    rdx_status st = rdx_kfd_topology_read(os, &topo);
    if (st != RDX_OK)
        return st;
    if (topo->gpu_count == 0) {
        rdx_kfd_topology_free(topo);
        return rdx_fail(RDX_ERR_NOT_FOUND, "KFD topology (%s) has no GPU node", os->name);
    }
    rdx_kfd *k = calloc(1, sizeof *k);
    if (k)
        k->gpus = calloc(topo->gpu_count, sizeof *k->gpus);
    if (!k || !k->gpus) {
        free(k);
        rdx_kfd_topology_free(topo);
        return rdx_fail(RDX_ERR_NOMEM, "rdx_kfd_open: out of memory");
    }
    k->os = os;
    k->fd = -1;
    k->gpu_count = topo->gpu_count;
    for (uint32_t i = 0; i < topo->gpu_count; i++) {
        k->gpus[i].info = topo->gpus[i];
        k->gpus[i].drm_fd = -1;
    }
    rdx_kfd_topology_free(topo);
    pthread_mutex_init(&k->lock, NULL);
    pthread_mutex_init(&k->event_lock, NULL);

    if ((st = open_path(os, "/dev/kfd", &k->fd)) != RDX_OK)
        goto fail;
    struct kfd_ioctl_get_version_args ver = { 0 };
    if ((st = RDX_KFD_IOCTL(os, k->fd, AMDKFD_IOC_GET_VERSION, &ver)) != RDX_OK)
        goto fail;
    k->major = ver.major_version;
    k->minor = ver.minor_version;
    if (k->major != KFD_IOCTL_MAJOR_VERSION) {
        st = rdx_fail(RDX_ERR_UNSUPPORTED, "KFD ioctl interface %u.%u: major version %d needed",
                      k->major, k->minor, KFD_IOCTL_MAJOR_VERSION);
        goto fail;
    }
    if ((st = open_gpus(k)) != RDX_OK)
        goto fail;
    *out = k;
    return RDX_OK;
fail: {
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", rdx_error_message());
    rdx_kfd_close(k);
    return rdx_fail(st, "%s", msg);
}
}

rdx_status rdx_kfd_close(rdx_kfd *k)
{
    if (!k)
        return RDX_OK;
    if (k->drm) {
        rdx_kfd_drm_close(k);
        return RDX_OK;
    }
    rdx_status st = RDX_OK;
    if (k->event_page) {
        /* The kernel refuses to free the signal page (EPERM); unmap it and let
         * closing /dev/kfd release it with the process. */
        rdx_kfd_mem *m = k->event_page;
        st = rdx_kfd_mem_map(k, m, 0);
        if (st != RDX_OK)
            rdx_fail_context(st, "rdx_kfd_close: event page");
        rdx_kfd_os_munmap(k->os, m->reserved, m->size);
        free(m);
        k->event_page = NULL;
        k->live_mem--;
    }
    if (k->live_mem || k->live_queues || k->live_events)
        fprintf(stderr, "rdx_kfd_close: %u memory, %u queues, %u events still alive\n", k->live_mem,
                k->live_queues, k->live_events);
    for (uint32_t i = 0; i < k->gpu_count; i++)
        if (k->gpus[i].drm_fd >= 0)
            k->os->close(k->os->ctx, k->gpus[i].drm_fd);
    if (k->fd >= 0)
        k->os->close(k->os->ctx, k->fd);
    pthread_mutex_destroy(&k->lock);
    pthread_mutex_destroy(&k->event_lock);
    free(k->gpus);
    free(k);
    return st;
}

const char *rdx_kfd_interface(const rdx_kfd *k)
{
    return k->drm ? "drm" : "kfd";
}

void rdx_kfd_version(const rdx_kfd *k, uint32_t *major, uint32_t *minor)
{
    *major = k->major;
    *minor = k->minor;
}

uint32_t rdx_kfd_gpu_count(const rdx_kfd *k)
{
    return k->gpu_count;
}

const rdx_kfd_gpu_info *rdx_kfd_gpu(const rdx_kfd *k, uint32_t index)
{
    return index < k->gpu_count ? &k->gpus[index].info : NULL;
}

rdx_status rdx_kfd_clock_counters(rdx_kfd *k, uint32_t gpu, rdx_kfd_clocks *out)
{
    if (gpu >= k->gpu_count)
        return rdx_fail(RDX_ERR_INVALID, "rdx_kfd_clock_counters: gpu index %u, have %u", gpu,
                        k->gpu_count);
    if (k->drm)
        return rdx_kfd_drm_clock_counters(k, gpu, out);
    struct kfd_ioctl_get_clock_counters_args a = { 0 };
    a.gpu_id = k->gpus[gpu].info.gpu_id;
    rdx_status st = RDX_KFD_IOCTL(k->os, k->fd, AMDKFD_IOC_GET_CLOCK_COUNTERS, &a);
    if (st != RDX_OK)
        return st;
    out->gpu_counter = a.gpu_clock_counter;
    out->cpu_raw_ns = a.cpu_clock_counter;
    /* system_clock_freq is 1 GHz on Linux: the counter is already in ns. */
    out->boottime_ns = a.system_clock_freq == 1000000000ull
                           ? a.system_clock_counter
                           : (uint64_t)((double)a.system_clock_counter * 1e9 /
                                        (double)(a.system_clock_freq ? a.system_clock_freq : 1));
    return RDX_OK;
}
