/*
 * emu/dev/drm.c — the render node's ioctls rdx uses: DRM_IOCTL_AMDGPU_INFO
 * with AMDGPU_INFO_DEV_INFO and AMDGPU_INFO_MEMORY, as amdgpu_info_ioctl
 * answers them (the copy is limited to return_size; unknown queries are
 * EINVAL).
 */
#include "emu/dev/emudev.h"

#include <errno.h>
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

int emu_ioctl_drm(rdx_emudev *dev, uint32_t gpu, unsigned long request, void *arg)
{
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
