/*
 * emu/dev/drm.c — the render node's ioctls: DRM_IOCTL_VERSION (as drm_version
 * answers it for amdgpu: strings copied up to the caller's lengths, the full
 * lengths returned) and DRM_IOCTL_AMDGPU_INFO with AMDGPU_INFO_DEV_INFO,
 * MEMORY, VRAM_GTT, ACCEL_WORKING and READ_MMR_REG (GB_ADDR_CONFIG only),
 * as amdgpu_info_ioctl answers them (the copy is limited
 * to return_size; unknown queries are EINVAL).
 */
#include "emu/dev/emudev.h"

#include <errno.h>
#include <sys/ioctl.h>
#include <string.h>

#include <libdrm/amdgpu_drm.h>

/* AMDGPU_FAMILY_GC_11_0_0, _GC_11_5_0, _GC_12_0_0: newer amdgpu_drm.h than this system's has
 * them.  AMDGPU_IDS_FLAGS_FUSION marks an APU. */
#define EMU_AMDGPU_FAMILY_GC_11_0_0 145u
#define EMU_AMDGPU_FAMILY_GC_11_5_0 150u
#define EMU_AMDGPU_FAMILY_GC_12_0_0 152u
#define EMU_AMDGPU_IDS_FLAGS_FUSION 0x1u

static void dev_info(rdx_emudev *dev, uint32_t gpu, struct drm_amdgpu_info_device *d)
{
    const emu_target *t = dev->gpus[gpu].t;
    memset(d, 0, sizeof *d);
    d->device_id = t->device_id;
    d->chip_rev = 0;
    d->external_rev = 0x01;
    d->pci_rev = t->revision;
    d->family = t->gc[0] == 12  ? EMU_AMDGPU_FAMILY_GC_12_0_0
                : t->gc[1] == 5 ? EMU_AMDGPU_FAMILY_GC_11_5_0
                                : EMU_AMDGPU_FAMILY_GC_11_0_0;
    d->ids_flags = t->apu ? EMU_AMDGPU_IDS_FLAGS_FUSION : 0;
    d->num_shader_engines = t->shader_engines;
    d->num_shader_arrays_per_engine = t->arrays_per_engine;
    d->gpu_counter_freq = 100000; /* kHz: the 100 MHz GPU timestamp clock */
    d->max_engine_clock = t->max_clk_mhz * 1000ull;
    d->max_memory_clock = t->mem_clk_mhz * 1000ull;
    d->cu_active_number = emu_target_cus(t);
    for (uint32_t se = 0; se < d->num_shader_engines && se < 4; se++)
        for (uint32_t sa = 0; sa < t->arrays_per_engine && sa < 4; sa++)
            d->cu_bitmap[se][sa] = (1u << t->cu_per_array) - 1;
    d->num_rb_pipes = 24;
    d->enabled_rb_pipes_mask = 0xffffff;
    d->num_hw_gfx_contexts = 8;
    d->virtual_address_offset = 0x200000;
    d->virtual_address_max = 0x00007fffffffffffull;
    d->virtual_address_alignment = 4096;
    d->pte_fragment_size = 2 * 1024 * 1024;
    d->gart_page_size = 4096;
    d->vram_type = t->apu ? AMDGPU_VRAM_TYPE_DDR5 : AMDGPU_VRAM_TYPE_GDDR6;
    d->vram_bit_width = t->mem_width;
    d->wave_front_size = 32;
    d->num_shader_visible_vgprs = t->vgprs_per_simd;
    d->num_cu_per_sh = t->cu_per_array;
    d->num_tcc_blocks = 24;
}

/* Copy string s to the caller's (ptr, *len) buffer as drm_copy_field does: at most *len
 * bytes, then *len = strlen(s). */
static int copy_field(uint64_t ptr, size_t *len, const char *s)
{
    size_t n = strlen(s), c = *len < n ? *len : n;
    *len = n;
    if (c && ptr && emu_copy_to_user(ptr, s, c))
        return -EFAULT;
    return 0;
}

/* DRM_IOCTL_VERSION: amdgpu's KMS interface 3.x (KMS_DRIVER_MAJOR 3). */
static int drm_version(struct drm_version *v)
{
    v->version_major = 3;
    v->version_minor = 54;
    v->version_patchlevel = 0;
    int r = copy_field((uint64_t)(uintptr_t)v->name, &v->name_len, "amdgpu");
    if (!r)
        r = copy_field((uint64_t)(uintptr_t)v->date, &v->date_len, "20150101");
    if (!r)
        r = copy_field((uint64_t)(uintptr_t)v->desc, &v->desc_len, "AMD GPU");
    return r;
}

/* AMDGPU_INFO_HW_IP_INFO as amdgpu_hw_ip_info answers it: the major and minor of the GC and
 * SDMA IP discovery versions of the target, the rings the emulated driver runs
 * (emu/dev/drm_cs.c); other engines exist with no ring. */
static int hw_ip_info(const emu_target *t, const struct drm_amdgpu_info *q,
                      struct drm_amdgpu_info_hw_ip *ip)
{
    memset(ip, 0, sizeof *ip);
    if (q->query_hw_ip.type >= AMDGPU_HW_IP_NUM ||
        q->query_hw_ip.ip_instance >= AMDGPU_HW_IP_INSTANCE_MAX_COUNT)
        return -EINVAL;
    switch (q->query_hw_ip.type) {
    case AMDGPU_HW_IP_GFX:
        *ip = (struct drm_amdgpu_info_hw_ip){ .hw_ip_version_major = t->gc[0],
                                              .hw_ip_version_minor = t->gc[1],
                                              .ib_start_alignment = 32,
                                              .ib_size_alignment = 32,
                                              .available_rings = 0x1 };
        break;
    case AMDGPU_HW_IP_COMPUTE:
        *ip = (struct drm_amdgpu_info_hw_ip){ .hw_ip_version_major = t->gc[0],
                                              .hw_ip_version_minor = t->gc[1],
                                              .ib_start_alignment = 32,
                                              .ib_size_alignment = 32,
                                              .available_rings = 0xf };
        break;
    case AMDGPU_HW_IP_DMA:
        *ip = (struct drm_amdgpu_info_hw_ip){ .hw_ip_version_major = t->sdma[0],
                                              .hw_ip_version_minor = t->sdma[1],
                                              .ib_start_alignment = 256,
                                              .ib_size_alignment = 4,
                                              .available_rings = 0x3 };
        break;
    }
    ip->capabilities_flags = 0;
    return 0;
}

/* drm_ioctl finds the handler by number and copies in / out only what both the caller's and
 * the driver's direction bits ask for: libdrm issues GEM_VA as read-write, the kernel's is
 * write-only.  The request of the served handler with that number. */
static unsigned long drm_canonical(unsigned long request)
{
    static const unsigned long served[] = {
        DRM_IOCTL_VERSION,         DRM_IOCTL_GEM_CLOSE,          DRM_IOCTL_SYNCOBJ_CREATE,
        DRM_IOCTL_SYNCOBJ_DESTROY, DRM_IOCTL_SYNCOBJ_WAIT,       DRM_IOCTL_AMDGPU_GEM_CREATE,
        DRM_IOCTL_AMDGPU_GEM_MMAP, DRM_IOCTL_AMDGPU_CTX,         DRM_IOCTL_AMDGPU_BO_LIST,
        DRM_IOCTL_AMDGPU_CS,       DRM_IOCTL_AMDGPU_INFO,        DRM_IOCTL_AMDGPU_GEM_VA,
        DRM_IOCTL_AMDGPU_WAIT_CS,  DRM_IOCTL_AMDGPU_WAIT_FENCES,
    };
    if (_IOC_TYPE(request) != DRM_IOCTL_BASE)
        return request;
    for (size_t i = 0; i < sizeof served / sizeof served[0]; i++)
        if (_IOC_NR(served[i]) == _IOC_NR(request))
            return served[i];
    return request;
}

int emu_ioctl_drm(rdx_emudev *dev, int fd, uint32_t gpu, unsigned long request, void *arg)
{
    request = drm_canonical(request);
    if (request == DRM_IOCTL_VERSION)
        return drm_version(arg);
    switch (request) {
    case DRM_IOCTL_AMDGPU_GEM_CREATE:
    case DRM_IOCTL_AMDGPU_GEM_MMAP:
    case DRM_IOCTL_AMDGPU_GEM_VA:
    case DRM_IOCTL_AMDGPU_BO_LIST:
    case DRM_IOCTL_GEM_CLOSE:
        return emu_drm_gem_ioctl(dev, fd, gpu, request, arg);
    case DRM_IOCTL_AMDGPU_CTX:
    case DRM_IOCTL_AMDGPU_CS:
    case DRM_IOCTL_AMDGPU_WAIT_CS:
    case DRM_IOCTL_AMDGPU_WAIT_FENCES:
    case DRM_IOCTL_SYNCOBJ_CREATE:
    case DRM_IOCTL_SYNCOBJ_DESTROY:
    case DRM_IOCTL_SYNCOBJ_WAIT:
        return emu_drm_cs_ioctl(dev, fd, gpu, request, arg);
    }
    if (request != DRM_IOCTL_AMDGPU_INFO)
        return -EINVAL;
    struct drm_amdgpu_info *q = arg;
    if (!q->return_pointer || !q->return_size)
        return -EINVAL;
    if (q->query == AMDGPU_INFO_DEV_INFO) {
        struct drm_amdgpu_info_device d;
        dev_info(dev, gpu, &d);
        return emu_copy_to_user(q->return_pointer, &d,
                                q->return_size < sizeof d ? q->return_size : sizeof d);
    }
    if (q->query == AMDGPU_INFO_ACCEL_WORKING) {
        uint32_t one = 1;
        return emu_copy_to_user(q->return_pointer, &one, q->return_size < 4 ? q->return_size : 4);
    }
    if (q->query == AMDGPU_INFO_VRAM_GTT) {
        struct drm_amdgpu_info_vram_gtt v = { .vram_size = dev->gpus[gpu].vram_size,
                                              .vram_cpu_accessible_size = dev->gpus[gpu].vram_size,
                                              .gtt_size = 64ull << 30 };
        return emu_copy_to_user(q->return_pointer, &v,
                                q->return_size < sizeof v ? q->return_size : sizeof v);
    }
    if (q->query == AMDGPU_INFO_READ_MMR_REG) {
        /* Only registers on amdgpu's allow list for gfx11 are readable; the emulated GPU
         * answers GB_ADDR_CONFIG (gfx11 offset 0x263e), which libdrm reads at init. */
        if (q->read_mmr_reg.dword_offset != 0x263e || q->read_mmr_reg.count != 1 ||
            q->return_size < 4)
            return -EINVAL;
        /* nothing in rdx or libdrm's gfx11 path depends on its value */
        uint32_t gb_addr_config = EMU_GB_ADDR_CONFIG;
        return emu_copy_to_user(q->return_pointer, &gb_addr_config, 4);
    }
    if (q->query == AMDGPU_INFO_HW_IP_INFO) {
        struct drm_amdgpu_info_hw_ip ip;
        int r = hw_ip_info(dev->gpus[gpu].t, q, &ip);
        if (r)
            return r;
        return emu_copy_to_user(q->return_pointer, &ip,
                                q->return_size < sizeof ip ? q->return_size : sizeof ip);
    }
    if (q->query == AMDGPU_INFO_HW_IP_COUNT) {
        uint32_t type = q->query_hw_ip.type;
        if (type >= AMDGPU_HW_IP_NUM)
            return -EINVAL;
        uint32_t n =
            type == AMDGPU_HW_IP_GFX || type == AMDGPU_HW_IP_COMPUTE || type == AMDGPU_HW_IP_DMA;
        return emu_copy_to_user(q->return_pointer, &n, q->return_size < 4 ? q->return_size : 4);
    }
    if (q->query == AMDGPU_INFO_TIMESTAMP) {
        uint64_t t = emu_gpu_clock();
        return emu_copy_to_user(q->return_pointer, &t, q->return_size < 8 ? q->return_size : 8);
    }
    if (q->query == AMDGPU_INFO_MEMORY) {
        struct drm_amdgpu_memory_info m;
        memset(&m, 0, sizeof m);
        m.vram.total_heap_size = dev->gpus[gpu].vram_size;
        m.vram.usable_heap_size = dev->gpus[gpu].vram_size;
        m.vram.heap_usage = dev->gpus[gpu].vram_used;
        m.vram.max_allocation = dev->gpus[gpu].vram_size;
        m.cpu_accessible_vram = m.vram;
        m.gtt.total_heap_size = 64ull << 30;
        m.gtt.usable_heap_size = 64ull << 30;
        m.gtt.max_allocation = 64ull << 30;
        return emu_copy_to_user(q->return_pointer, &m,
                                q->return_size < sizeof m ? q->return_size : sizeof m);
    }
    return -EINVAL;
}
