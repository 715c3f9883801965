/*
 * kfd/drm.c — amdgpu device info from the render node.
 *
 * libdrm_amdgpu's amdgpu_device_initialize()/amdgpu_query_gpu_info() issue
 * their ioctls on the fd directly (drmIoctl), which would bypass the OS
 * interface; so the same DRM_IOCTL_AMDGPU_INFO / AMDGPU_INFO_DEV_INFO query
 * is made here with the structures of <libdrm/amdgpu_drm.h>.
 */
#include "kfd/internal.h"

#include <string.h>

#include <libdrm/amdgpu_drm.h>

rdx_status rdx_kfd_drm_query(const rdx_os *os, int drm_fd, rdx_kfd_gpu_info *info)
{
    struct drm_amdgpu_info_device dev;
    struct drm_amdgpu_info req;
    memset(&dev, 0, sizeof dev);
    memset(&req, 0, sizeof req);
    req.return_pointer = (uint64_t)(uintptr_t)&dev;
    req.return_size = sizeof dev;
    req.query = AMDGPU_INFO_DEV_INFO;
    rdx_status st = RDX_KFD_IOCTL(os, drm_fd, DRM_IOCTL_AMDGPU_INFO, &req);
    if (st != RDX_OK)
        return rdx_fail_context(st, "render node of gpu %u, AMDGPU_INFO_DEV_INFO", info->gpu_id);
    info->drm_family = dev.family;
    info->drm_device_id = dev.device_id;
    info->drm_num_shader_engines = dev.num_shader_engines;
    info->drm_cu_active = dev.cu_active_number;
    info->gpu_counter_freq_khz = dev.gpu_counter_freq;
    info->drm_max_engine_clock_khz = dev.max_engine_clock;
    return RDX_OK;
}
