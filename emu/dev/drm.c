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

/* AMDGPU_FAMILY_GC_11_0_0: newer amdgpu_drm.h than this system's has it. */
#define EMU_AMDGPU_FAMILY_GC_11_0_0 145u

static void dev_info(rdx_emudev *dev, struct drm_amdgpu_info_device *d)
{
    memset(d, 0, sizeof *d);
    (void)dev;
    d->device_id = 0x744c;
    d->chip_rev = 0;
    d->external_rev = 0x01;
    d->pci_rev = 0xc8;
    d->family = EMU_AMDGPU_FAMILY_GC_11_0_0;
    d->num_shader_engines = EMU_ARRAY_COUNT / EMU_ARRAYS_PER_ENGINE;
    d->num_shader_arrays_per_engine = EMU_ARRAYS_PER_ENGINE;
    d->gpu_counter_freq = 100000; /* kHz: the 100 MHz GPU timestamp clock */
    d->max_engine_clock = 2482000;
    d->max_memory_clock = 1249000;
    d->cu_active_number = EMU_CU_COUNT;
    for (uint32_t se = 0; se < d->num_shader_engines && se < 4; se++)
        for (uint32_t sa = 0; sa < EMU_ARRAYS_PER_ENGINE; sa++)
            d->cu_bitmap[se][sa] = (1u << EMU_CU_PER_ARRAY) - 1;
    d->num_rb_pipes = 24;
    d->enabled_rb_pipes_mask = 0xffffff;
    d->num_hw_gfx_contexts = 8;
    d->virtual_address_offset = 0x200000;
    d->virtual_address_max = 0x00007fffffffffffull;
    d->virtual_address_alignment = 4096;
    d->pte_fragment_size = 2 * 1024 * 1024;
    d->gart_page_size = 4096;
    d->vram_type = AMDGPU_VRAM_TYPE_GDDR6;
    d->vram_bit_width = 384;
    d->wave_front_size = 32;
    d->num_shader_visible_vgprs = 1536;
    d->num_cu_per_sh = EMU_CU_PER_ARRAY;
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

/* AMDGPU_INFO_HW_IP_INFO as amdgpu_hw_ip_info answers it for gfx11 (GC 11.0, SDMA 6.0): the
 * rings the emulated driver runs (emu/dev/drm_cs.c); other engines exist with no ring. */
static int hw_ip_info(const struct drm_amdgpu_info *q, struct drm_amdgpu_info_hw_ip *ip)
{
    memset(ip, 0, sizeof *ip);
    if (q->query_hw_ip.type >= AMDGPU_HW_IP_NUM ||
        q->query_hw_ip.ip_instance >= AMDGPU_HW_IP_INSTANCE_MAX_COUNT)
        return -EINVAL;
    switch (q->query_hw_ip.type) {
    case AMDGPU_HW_IP_GFX:
        *ip = (struct drm_amdgpu_info_hw_ip){ .hw_ip_version_major = 11,
                                              .ib_start_alignment = 32,
                                              .ib_size_alignment = 32,
                                              .available_rings = 0x1 };
        break;
    case AMDGPU_HW_IP_COMPUTE:
        *ip = (struct drm_amdgpu_info_hw_ip){ .hw_ip_version_major = 11,
                                              .ib_start_alignment = 32,
                                              .ib_size_alignment = 32,
                                              .available_rings = 0xf };
        break;
    case AMDGPU_HW_IP_DMA:
        *ip = (struct drm_amdgpu_info_hw_ip){ .hw_ip_version_major = 6,
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
        dev_info(dev, &d);
        return emu_copy_to_user(q->return_pointer, &d,
                                q->return_size < sizeof d ? q->return_size : sizeof d);
    }
    if (q->query == AMDGPU_INFO_ACCEL_WORKING) {
        uint32_t one = 1;
        return emu_copy_to_user(q->return_pointer, &one, q->return_size < 4 ? q->return_size : 4);
    }
    if (q->query == AMDGPU_INFO_VRAM_GTT) {
        struct drm_amdgpu_info_vram_gtt v = { .vram_size = dev->vram_size,
                                              .vram_cpu_accessible_size = dev->vram_size,
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
        int r = hw_ip_info(q, &ip);
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
        m.vram.total_heap_size = dev->vram_size;
        m.vram.usable_heap_size = dev->vram_size;
        m.vram.heap_usage = dev->gpus[gpu].vram_used;
        m.vram.max_allocation = dev->vram_size;
        m.cpu_accessible_vram = m.vram;
        m.gtt.total_heap_size = 64ull << 30;
        m.gtt.usable_heap_size = 64ull << 30;
        m.gtt.max_allocation = 64ull << 30;
        return emu_copy_to_user(q->return_pointer, &m,
                                q->return_size < sizeof m ? q->return_size : sizeof m);
    }
    return -EINVAL;
}
