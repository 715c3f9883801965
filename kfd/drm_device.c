/*
 * kfd/drm_device.c — the amdgpu DRM submission path: opening the render nodes with
 * libdrm_amdgpu (amdgpu_device_initialize), the GPU description from AMDGPU_INFO queries
 * (DEV_INFO, HW_IP_INFO, VRAM_GTT) and the IP discovery version in sysfs, clocks.
 *
 * Chosen by rdx_kfd_open with RDX_SUBMIT=drm, or when /dev/kfd has no topology but an
 * amdgpu render node opens.  libdrm_amdgpu makes its ioctls on the fd itself, not through
 * the rdx_os table, so the path needs the libc table (a real card, or the emulated GPU under
 * `rdx emu`).  docs/drm.md describes the path and what is unverified on a card.
 */
#include "kfd/drm_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <amdgpu.h>
#include <xf86drm.h>
#include <libdrm/amdgpu_drm.h>

rdx_status rdx_kfd_drm_fail(int r, const char *call)
{
    int e = r < 0 ? -r : r;
    return rdx_fail_errno(e == ENOMEM ? RDX_ERR_NOMEM : RDX_ERR_DEVICE, e, "%s (drm) failed", call);
}

/* The gfx target version of a GC IP version, as amdkfd's kgd2kfd_probe maps it: the compiler's
 * processor is not always the IP's (GC 11.0.3 is gfx1101, 11.0.1 and 11.0.4 are gfx1103);
 * other versions map digit for digit. */
uint32_t rdx_kfd_gc_target_version(uint32_t major, uint32_t minor, uint32_t rev)
{
    if (major == 11 && minor == 0 && rev == 3)
        return 110001;
    if (major == 11 && minor == 0 && (rev == 1 || rev == 4))
        return 110003;
    return major * 10000 + minor * 100 + rev;
}

/* The gfx target version of the GC IP from sysfs (ip_discovery), else of HW_IP_INFO's
 * major.minor with revision 0. */
static uint32_t gc_version(const rdx_os *os, uint32_t minor,
                           const struct drm_amdgpu_info_hw_ip *gfx)
{
    uint32_t v[3] = { gfx->hw_ip_version_major, gfx->hw_ip_version_minor, 0 };
    static const char *const names[3] = { "major", "minor", "revision" };
    for (int i = 0; i < 3; i++) {
        char path[128], buf[32];
        size_t len;
        snprintf(path, sizeof path, "/sys/class/drm/renderD%u/device/ip_discovery/die/0/GC/0/%s",
                 minor, names[i]);
        if (os->read_file(os->ctx, path, buf, sizeof buf, &len) != 0)
            return rdx_kfd_gc_target_version(gfx->hw_ip_version_major, gfx->hw_ip_version_minor, 0);
        v[i] = (uint32_t)strtoul(buf, NULL, 10);
    }
    return rdx_kfd_gc_target_version(v[0], v[1], v[2]);
}

static rdx_status describe(const rdx_os *os, rdx_kfd_gpu_state *g, uint32_t index)
{
    amdgpu_device_handle dev = g->amdgpu;
    struct drm_amdgpu_info_device d;
    struct drm_amdgpu_info_hw_ip gfx, comp, dma;
    struct drm_amdgpu_info_vram_gtt vg;
    memset(&d, 0, sizeof d);
    int r = amdgpu_query_info(dev, AMDGPU_INFO_DEV_INFO, sizeof d, &d);
    if (r)
        return rdx_kfd_drm_fail(r, "amdgpu_query_info(AMDGPU_INFO_DEV_INFO)");
    if ((r = amdgpu_query_hw_ip_info(dev, AMDGPU_HW_IP_GFX, 0, &gfx)) ||
        (r = amdgpu_query_hw_ip_info(dev, AMDGPU_HW_IP_COMPUTE, 0, &comp)) ||
        (r = amdgpu_query_hw_ip_info(dev, AMDGPU_HW_IP_DMA, 0, &dma)))
        return rdx_kfd_drm_fail(r, "amdgpu_query_hw_ip_info");
    if ((r = amdgpu_query_info(dev, AMDGPU_INFO_VRAM_GTT, sizeof vg, &vg)))
        return rdx_kfd_drm_fail(r, "amdgpu_query_info(AMDGPU_INFO_VRAM_GTT)");
    if (!comp.available_rings)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "render node renderD%u: no compute ring available",
                        g->info.drm_render_minor);
    rdx_kfd_gpu_info *i = &g->info;
    i->node_id = index + 1;
    i->gpu_id = i->drm_render_minor; /* no KFD gpu_id: the render minor names the GPU */
    i->gfx_target_version = gc_version(os, i->drm_render_minor, &gfx);
    rdx_kfd_target_name(i->gfx_target_version, i->target, sizeof i->target);
    snprintf(i->name, sizeof i->name, "amdgpu %04x", d.device_id);
    i->vendor_id = 0x1002;
    i->device_id = d.device_id;
    i->simd_per_cu = 2; /* RDNA: two SIMD32 per CU */
    i->cu_count = d.cu_active_number;
    i->simd_count = i->cu_count * i->simd_per_cu;
    i->simd_arrays_per_engine = d.num_shader_arrays_per_engine;
    i->array_count = d.num_shader_engines * d.num_shader_arrays_per_engine;
    i->cu_per_simd_array = d.num_cu_per_sh;
    i->max_waves_per_simd = 16;
    i->wave_front_size = d.wave_front_size ? d.wave_front_size : 32;
    i->lds_size_kb = 64;
    i->num_sdma_engines = (uint32_t)__builtin_popcount(dma.available_rings);
    i->num_xcc = 1;
    i->max_engine_clk_mhz = (uint32_t)(d.max_engine_clock / 1000);
    i->vram_size = vg.vram_size;
    i->num_mem_banks = 1;
    i->mem_banks[0] =
        (rdx_kfd_mem_bank){ .heap_type = 1,
                            .size_bytes = vg.vram_size,
                            .width_bits = d.vram_bit_width,
                            .mem_clk_max_mhz = (uint32_t)(d.max_memory_clock / 1000) };
    i->drm_family = d.family;
    i->drm_device_id = d.device_id;
    i->drm_num_shader_engines = d.num_shader_engines;
    i->drm_cu_active = d.cu_active_number;
    i->gpu_counter_freq_khz = (uint32_t)d.gpu_counter_freq;
    i->drm_max_engine_clock_khz = d.max_engine_clock;
    i->gpuvm_base = d.virtual_address_offset;
    i->gpuvm_limit = d.virtual_address_max;
    /* The apertures amdgpu programs into SH_MEM_BASES for its own VMIDs (gmc v9+:
     * private at 0x1000000000000000, shared at 0x2000000000000000). */
    i->scratch_base = 0x1000000000000000ull;
    i->lds_base = 0x2000000000000000ull;
    g->compute_rings = comp.available_rings;
    g->sdma_rings = dma.available_rings;
    return RDX_OK;
}

rdx_status rdx_kfd_drm_open(const rdx_os *os, rdx_kfd **out)
{
    rdx_kfd *k = calloc(1, sizeof *k);
    if (k) {
        k->gpus = calloc(RDX_DRM_MAX_GPUS, sizeof *k->gpus);
        k->drm = calloc(1, sizeof *k->drm);
    }
    if (!k || !k->gpus || !k->drm) {
        if (k) {
            free(k->gpus);
            free(k->drm);
        }
        free(k);
        return rdx_fail(RDX_ERR_NOMEM, "rdx_kfd_open (drm): out of memory");
    }
    k->os = os;
    k->fd = -1;
    pthread_mutex_init(&k->lock, NULL);
    pthread_mutex_init(&k->event_lock, NULL);
    pthread_mutex_init(&k->drm->lock, NULL);
    pthread_cond_init(&k->drm->idle, NULL);
    k->drm->next_nonsignal = 0x80000000u;
    rdx_status st = RDX_OK;
    for (uint32_t minor = 128; minor < 128 + RDX_DRM_MAX_GPUS && st == RDX_OK; minor++) {
        char path[64];
        snprintf(path, sizeof path, "/dev/dri/renderD%u", minor);
        int fd = os->open(os->ctx, path, O_RDWR | O_CLOEXEC);
        if (fd == -ENOENT || fd == -ENXIO || fd == -ENODEV)
            continue;
        if (fd < 0) {
            st = rdx_fail_errno(RDX_ERR_DEVICE, -fd, "open %s (%s) failed", path, os->name);
            break;
        }
        drmVersionPtr v = drmGetVersion(fd);
        int amdgpu = v && v->name && !strcmp(v->name, "amdgpu");
        drmFreeVersion(v);
        if (!amdgpu) { /* another driver's render node */
            os->close(os->ctx, fd);
            continue;
        }
        uint32_t major, minor_ver;
        amdgpu_device_handle dev;
        int r = amdgpu_device_initialize(fd, &major, &minor_ver, &dev);
        if (r) {
            os->close(os->ctx, fd);
            st = rdx_fail_context(rdx_kfd_drm_fail(r, "amdgpu_device_initialize"), "%s", path);
            break;
        }
        rdx_kfd_gpu_state *g = &k->gpus[k->gpu_count++];
        g->drm_fd = fd;
        g->amdgpu = dev;
        g->info.drm_render_minor = minor;
        k->major = major;
        k->minor = minor_ver;
        st = describe(os, g, k->gpu_count - 1);
        if (st)
            st = rdx_fail_context(st, "%s", path);
    }
    if (st == RDX_OK && k->gpu_count == 0)
        st = rdx_fail(RDX_ERR_NOT_FOUND, "no amdgpu render node (/dev/dri/renderD128..%u, %s)",
                      128 + RDX_DRM_MAX_GPUS - 1, os->name);
    if (st) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
        rdx_kfd_drm_close(k);
        return rdx_fail(st, "%s", msg);
    }
    *out = k;
    return RDX_OK;
}

void rdx_kfd_drm_close(rdx_kfd *k)
{
    if (k->event_page) {
        (void)rdx_kfd_drm_mem_free(k, k->event_page);
        k->event_page = NULL;
    }
    if (k->live_mem || k->live_queues || k->live_events)
        fprintf(stderr, "rdx_kfd_close: %u memory, %u queues, %u events still alive\n", k->live_mem,
                k->live_queues, k->live_events);
    for (uint32_t i = 0; i < k->gpu_count; i++) {
        if (k->gpus[i].amdgpu)
            amdgpu_device_deinitialize(k->gpus[i].amdgpu);
        if (k->gpus[i].drm_fd >= 0)
            k->os->close(k->os->ctx, k->gpus[i].drm_fd);
    }
    pthread_cond_destroy(&k->drm->idle);
    pthread_mutex_destroy(&k->drm->lock);
    pthread_mutex_destroy(&k->lock);
    pthread_mutex_destroy(&k->event_lock);
    free(k->drm);
    free(k->gpus);
    free(k);
}

rdx_status rdx_kfd_drm_clock_counters(rdx_kfd *k, uint32_t gpu, rdx_kfd_clocks *out)
{
    uint64_t t = 0;
    int r = amdgpu_query_info(k->gpus[gpu].amdgpu, AMDGPU_INFO_TIMESTAMP, sizeof t, &t);
    if (r)
        return rdx_kfd_drm_fail(r, "amdgpu_query_info(AMDGPU_INFO_TIMESTAMP)");
    struct timespec raw, boot;
    clock_gettime(CLOCK_MONOTONIC_RAW, &raw);
    clock_gettime(CLOCK_BOOTTIME, &boot);
    out->gpu_counter = t;
    out->cpu_raw_ns = (uint64_t)raw.tv_sec * 1000000000u + (uint64_t)raw.tv_nsec;
    out->boottime_ns = (uint64_t)boot.tv_sec * 1000000000u + (uint64_t)boot.tv_nsec;
    return RDX_OK;
}
