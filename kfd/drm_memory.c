/*
 * kfd/drm_memory.c — GPU memory on the DRM path: a PROT_NONE reservation, amdgpu_bo_alloc
 * (VM_ALWAYS_VALID, so no submission has to list it), amdgpu_va_range_alloc at the reserved
 * address, amdgpu_bo_va_op MAP, and for CPU-visible kinds DRM_IOCTL_AMDGPU_GEM_MMAP and an
 * mmap of the render node at the same address: CPU pointer == GPU address, as on KFD.
 */
#include "kfd/drm_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <amdgpu.h>
#include <libdrm/amdgpu_drm.h>

static uint64_t page_align(uint64_t x)
{
    return (x + RDX_KFD_PAGE - 1) & ~(RDX_KFD_PAGE - 1);
}

rdx_status rdx_kfd_drm_mem_alloc(rdx_kfd *k, uint32_t gpu, const rdx_kfd_mem_desc *d,
                                 rdx_kfd_mem **out)
{
    if (d->kind != RDX_KFD_MEM_VRAM && d->kind != RDX_KFD_MEM_VRAM_HOST &&
        d->kind != RDX_KFD_MEM_GTT)
        return rdx_fail(RDX_ERR_UNSUPPORTED,
                        "rdx_kfd_mem_alloc: memory kind %d on the DRM path (VRAM, host-visible "
                        "VRAM and GTT only: no doorbells, no userptr)",
                        (int)d->kind);
    const rdx_os *os = k->os;
    rdx_kfd_gpu_state *g = &k->gpus[gpu];
    amdgpu_device_handle dev = g->amdgpu;
    uint64_t size = page_align(d->size);
    rdx_kfd_mem *m = calloc(1, sizeof *m);
    if (!m)
        return rdx_fail(RDX_ERR_NOMEM, "rdx_kfd_mem_alloc: out of memory");
    m->gpu = gpu;
    m->kind = d->kind;
    m->size = size;
    void *res = NULL;
    rdx_status st =
        rdx_kfd_os_mmap(os, NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
                        0, &res, "a VA reservation");
    if (st) {
        free(m);
        return st;
    }
    m->reserved = res;
    struct amdgpu_bo_alloc_request req;
    memset(&req, 0, sizeof req);
    req.alloc_size = size;
    req.phys_alignment = RDX_KFD_PAGE;
    req.preferred_heap =
        d->kind == RDX_KFD_MEM_GTT ? AMDGPU_GEM_DOMAIN_GTT : AMDGPU_GEM_DOMAIN_VRAM;
    req.flags = AMDGPU_GEM_CREATE_VM_ALWAYS_VALID |
                (d->kind == RDX_KFD_MEM_VRAM ? AMDGPU_GEM_CREATE_NO_CPU_ACCESS : 0) |
                (d->kind == RDX_KFD_MEM_VRAM_HOST ? AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED : 0);
    amdgpu_bo_handle bo = NULL;
    amdgpu_va_handle vah = NULL;
    uint64_t va = 0;
    int r = amdgpu_bo_alloc(dev, &req, &bo);
    if (r) {
        st = rdx_kfd_drm_fail(r, "amdgpu_bo_alloc (DRM_IOCTL_AMDGPU_GEM_CREATE)");
        goto fail;
    }
    m->bo = bo;
    r = amdgpu_va_range_alloc(dev, amdgpu_gpu_va_range_general, size, RDX_KFD_PAGE,
                              (uint64_t)(uintptr_t)res, &va, &vah, 0);
    if (r || va != (uint64_t)(uintptr_t)res) {
        if (!r)
            amdgpu_va_range_free(vah);
        st = r ? rdx_kfd_drm_fail(r, "amdgpu_va_range_alloc")
               : rdx_fail(RDX_ERR_DEVICE, "amdgpu_va_range_alloc: 0x%llx given for 0x%llx",
                          (unsigned long long)va, (unsigned long long)(uintptr_t)res);
        goto fail;
    }
    m->va_range = vah;
    uint64_t flags = AMDGPU_VM_PAGE_READABLE |
                     (d->flags & RDX_KFD_MEM_READONLY ? 0 : AMDGPU_VM_PAGE_WRITEABLE) |
                     (d->flags & RDX_KFD_MEM_EXECUTABLE ? AMDGPU_VM_PAGE_EXECUTABLE : 0);
    r = amdgpu_bo_va_op_raw(dev, bo, 0, size, va, flags, AMDGPU_VA_OP_MAP);
    if (r) {
        st = rdx_kfd_drm_fail(r, "amdgpu_bo_va_op (DRM_IOCTL_AMDGPU_GEM_VA map)");
        goto fail;
    }
    m->gpu_addr = va;
    if (d->kind != RDX_KFD_MEM_VRAM) {
        uint32_t handle = 0;
        r = amdgpu_bo_export(bo, amdgpu_bo_handle_type_kms, &handle);
        union drm_amdgpu_gem_mmap mm;
        memset(&mm, 0, sizeof mm);
        mm.in.handle = handle;
        st = r ? rdx_kfd_drm_fail(r, "amdgpu_bo_export")
               : RDX_KFD_IOCTL(os, g->drm_fd, DRM_IOCTL_AMDGPU_GEM_MMAP, &mm);
        void *p = NULL;
        if (st == RDX_OK)
            st = rdx_kfd_os_mmap(os, res, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                                 g->drm_fd, mm.out.addr_ptr, &p, "a buffer object");
        if (st) {
            (void)amdgpu_bo_va_op_raw(dev, bo, 0, size, va, 0, AMDGPU_VA_OP_UNMAP);
            goto fail;
        }
        m->cpu = p;
        m->map_off = mm.out.addr_ptr;
        m->handle = handle;
    }
    pthread_mutex_lock(&k->lock);
    k->live_mem++;
    pthread_mutex_unlock(&k->lock);
    *out = m;
    return RDX_OK;
fail: {
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", rdx_error_message());
    if (vah)
        amdgpu_va_range_free(vah);
    if (bo)
        amdgpu_bo_free(bo);
    rdx_kfd_os_munmap(os, res, size);
    free(m);
    return rdx_fail(st, "allocating %llu bytes of %s on gpu %u: %s", (unsigned long long)size,
                    d->kind == RDX_KFD_MEM_GTT ? "GTT" : "VRAM", k->gpus[gpu].info.gpu_id, msg);
}
}

rdx_status rdx_kfd_drm_mem_free(rdx_kfd *k, rdx_kfd_mem *m)
{
    amdgpu_device_handle dev = k->gpus[m->gpu].amdgpu;
    rdx_status st = RDX_OK;
    int r = amdgpu_bo_va_op_raw(dev, m->bo, 0, m->size, m->gpu_addr, 0, AMDGPU_VA_OP_UNMAP);
    if (r)
        st = rdx_kfd_drm_fail(r, "amdgpu_bo_va_op (DRM_IOCTL_AMDGPU_GEM_VA unmap)");
    amdgpu_va_range_free(m->va_range);
    r = amdgpu_bo_free(m->bo);
    if (r && !st)
        st = rdx_kfd_drm_fail(r, "amdgpu_bo_free (DRM_IOCTL_GEM_CLOSE)");
    rdx_kfd_os_munmap(k->os, m->reserved, m->size);
    pthread_mutex_lock(&k->lock);
    k->live_mem--;
    pthread_mutex_unlock(&k->lock);
    free(m);
    return st;
}
