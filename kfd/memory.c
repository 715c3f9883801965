/*
 * kfd/memory.c — GPU memory: reserve VA, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU,
 * AMDKFD_IOC_MAP_MEMORY_TO_GPU and the CPU mapping at the same address (as
 * libhsakmt does on gfx9+: the GPUVM aperture covers the user address space,
 * so a PROT_NONE reservation gives an address valid for both).
 */
#include "kfd/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "kfd/compat/kfd_ioctl_flags.h"

#include "kfd/memory.h"

static uint64_t page_align(uint64_t x)
{
    return (x + RDX_KFD_PAGE - 1) & ~(RDX_KFD_PAGE - 1);
}

static const char *kind_name(rdx_kfd_mem_kind kind)
{
    switch (kind) {
    case RDX_KFD_MEM_VRAM:
        return "VRAM";
    case RDX_KFD_MEM_VRAM_HOST:
        return "host-visible VRAM";
    case RDX_KFD_MEM_GTT:
        return "GTT";
    case RDX_KFD_MEM_USERPTR:
        return "USERPTR";
    case RDX_KFD_MEM_DOORBELL:
        return "DOORBELL";
    }
    return "?";
}

static uint32_t ioc_flags(const rdx_kfd_mem_desc *d)
{
    uint32_t f = 0;
    switch (d->kind) {
    case RDX_KFD_MEM_VRAM:
        f = KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_NO_SUBSTITUTE;
        break;
    case RDX_KFD_MEM_VRAM_HOST:
        f = KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC |
            KFD_IOC_ALLOC_MEM_FLAGS_NO_SUBSTITUTE;
        break;
    case RDX_KFD_MEM_GTT:
        f = KFD_IOC_ALLOC_MEM_FLAGS_GTT;
        break;
    case RDX_KFD_MEM_USERPTR:
        f = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR;
        break;
    case RDX_KFD_MEM_DOORBELL:
        f = KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL | KFD_IOC_ALLOC_MEM_FLAGS_NO_SUBSTITUTE |
            KFD_IOC_ALLOC_MEM_FLAGS_COHERENT;
        break;
    }
    if (!(d->flags & RDX_KFD_MEM_READONLY))
        f |= RDX_KFD_ALLOC_WRITABLE;
    if (d->flags & RDX_KFD_MEM_EXECUTABLE)
        f |= KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE;
    if (d->flags & RDX_KFD_MEM_UNCACHED)
        f |= KFD_IOC_ALLOC_MEM_FLAGS_UNCACHED | KFD_IOC_ALLOC_MEM_FLAGS_COHERENT;
    return f;
}

/* (Un)map m in its GPU's VM, or in every GPU's (owner first). */
rdx_status rdx_kfd_mem_map(rdx_kfd *k, rdx_kfd_mem *m, int map)
{
    uint32_t stack_ids[8], *ids = stack_ids, n = m->all_gpus ? k->gpu_count : 1;
    if (n > 8 && !(ids = malloc(n * sizeof *ids)))
        return rdx_fail(RDX_ERR_NOMEM, "mapping memory: out of memory");
    ids[0] = k->gpus[m->gpu].info.gpu_id;
    for (uint32_t i = 0, j = 1; j < n; i++)
        if (i != m->gpu)
            ids[j++] = k->gpus[i].info.gpu_id;
    struct kfd_ioctl_map_memory_to_gpu_args a = { .handle = m->handle,
                                                  .device_ids_array_ptr = (uint64_t)(uintptr_t)ids,
                                                  .n_devices = n };
    rdx_status st;
    if (map)
        st = RDX_KFD_IOCTL(k->os, k->fd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &a);
    else
        st = RDX_KFD_IOCTL(k->os, k->fd, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &a);
    if (map && st != RDX_OK && a.n_success) {
        /* Undo the devices that did map (the kernel reports how many). */
        char msg[512];
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
        struct kfd_ioctl_unmap_memory_from_gpu_args u = { .handle = m->handle,
                                                          .device_ids_array_ptr =
                                                              a.device_ids_array_ptr,
                                                          .n_devices = a.n_success };
        (void)RDX_KFD_IOCTL(k->os, k->fd, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &u);
        rdx_fail(st, "%s", msg);
    }
    if (ids != stack_ids)
        free(ids);
    return st;
}

rdx_status rdx_kfd_mem_alloc_at(rdx_kfd *k, uint32_t gpu, const rdx_kfd_mem_desc *d, int cpu_fd,
                                uint64_t cpu_off, rdx_kfd_mem **out)
{
    if (gpu >= k->gpu_count)
        return rdx_fail(RDX_ERR_INVALID, "rdx_kfd_mem_alloc: gpu index %u, have %u", gpu,
                        k->gpu_count);
    if (!d || d->size == 0 || (unsigned)d->kind > RDX_KFD_MEM_DOORBELL)
        return rdx_fail(RDX_ERR_INVALID, "rdx_kfd_mem_alloc: %s",
                        !d             ? "no descriptor"
                        : d->size == 0 ? "size 0"
                                       : "unknown memory kind");
    if (d->size > (1ull << 47))
        return rdx_fail(RDX_ERR_RANGE, "rdx_kfd_mem_alloc: size %llu exceeds the address space",
                        (unsigned long long)d->size);
    if (d->kind == RDX_KFD_MEM_USERPTR && !d->userptr)
        return rdx_fail(RDX_ERR_INVALID, "rdx_kfd_mem_alloc: USERPTR without a pointer");
    if (d->kind == RDX_KFD_MEM_DOORBELL && d->size != RDX_KFD_DOORBELL_SLICE)
        return rdx_fail(RDX_ERR_INVALID, "rdx_kfd_mem_alloc: DOORBELL size must be %llu",
                        (unsigned long long)RDX_KFD_DOORBELL_SLICE);
    rdx_kfd_gpu_state *g = &k->gpus[gpu];
    rdx_kfd_mem *m = calloc(1, sizeof *m);
    if (!m)
        return rdx_fail(RDX_ERR_NOMEM, "rdx_kfd_mem_alloc: out of memory");
    m->gpu = gpu;
    m->kind = d->kind;
    m->all_gpus = (d->flags & RDX_KFD_MEM_ALL_GPUS) != 0;
    rdx_status st;
    struct kfd_ioctl_alloc_memory_of_gpu_args a = { 0 };
    if (d->kind == RDX_KFD_MEM_USERPTR) {
        uint64_t p = (uint64_t)(uintptr_t)d->userptr;
        uint64_t start = p & ~(RDX_KFD_PAGE - 1);
        m->size = page_align(p + d->size) - start;
        a.va_addr = start;
        a.mmap_offset = start; /* the CPU address of the user pages */
        m->gpu_addr = p;
        m->cpu = d->userptr;
    } else {
        m->size = page_align(d->size);
        st = rdx_kfd_os_mmap(k->os, NULL, m->size, PROT_NONE,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0, &m->reserved,
                             "a GPU VA reservation");
        if (st != RDX_OK) {
            free(m);
            return st;
        }
        a.va_addr = (uint64_t)(uintptr_t)m->reserved;
        m->gpu_addr = a.va_addr;
    }
    if (a.va_addr < g->info.gpuvm_base || a.va_addr + m->size - 1 > g->info.gpuvm_limit) {
        st = rdx_fail(RDX_ERR_DEVICE, "GPU VA 0x%llx+0x%llx outside gpu %u's GPUVM aperture",
                      (unsigned long long)a.va_addr, (unsigned long long)m->size, g->info.gpu_id);
        goto fail_reserved;
    }
    a.size = m->size;
    a.gpu_id = g->info.gpu_id;
    a.flags = ioc_flags(d);
    if ((st = RDX_KFD_IOCTL(k->os, k->fd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a)) != RDX_OK)
        goto fail_reserved;
    m->handle = a.handle;
    m->map_off = a.mmap_offset;
    if ((st = rdx_kfd_mem_map(k, m, 1)) != RDX_OK)
        goto fail_alloc;
    if (cpu_fd < 0 && (d->kind == RDX_KFD_MEM_VRAM_HOST || d->kind == RDX_KFD_MEM_GTT)) {
        cpu_fd = g->drm_fd;
        cpu_off = a.mmap_offset;
    }
    if (cpu_fd >= 0) {
        void *p;
        st = rdx_kfd_os_mmap(k->os, m->reserved, m->size, PROT_READ | PROT_WRITE,
                             MAP_SHARED | MAP_FIXED, cpu_fd, cpu_off, &p, kind_name(d->kind));
        if (st != RDX_OK)
            goto fail_map;
        m->cpu = p;
        m->map_off = cpu_off;
    }
    pthread_mutex_lock(&k->lock);
    k->live_mem++;
    pthread_mutex_unlock(&k->lock);
    *out = m;
    return RDX_OK;

fail_map:
    (void)rdx_kfd_mem_map(k, m, 0);
fail_alloc: {
    struct kfd_ioctl_free_memory_of_gpu_args f = { .handle = m->handle };
    (void)RDX_KFD_IOCTL(k->os, k->fd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f);
}
fail_reserved:
    if (m->reserved)
        rdx_kfd_os_munmap(k->os, m->reserved, m->size);
    free(m);
    return rdx_fail_context(st, "allocating %llu bytes of %s on gpu %u",
                            (unsigned long long)d->size, kind_name(d->kind), g->info.gpu_id);
}

rdx_status rdx_kfd_mem_alloc(rdx_kfd *k, uint32_t gpu, const rdx_kfd_mem_desc *desc,
                             rdx_kfd_mem **out)
{
    if (k->drm && gpu < k->gpu_count && desc && desc->size)
        return rdx_kfd_drm_mem_alloc(k, gpu, desc, out);
    return rdx_kfd_mem_alloc_at(k, gpu, desc, -1, 0, out);
}

rdx_status rdx_kfd_mem_free(rdx_kfd *k, rdx_kfd_mem *m)
{
    if (!m)
        return RDX_OK;
    if (k->drm)
        return rdx_kfd_drm_mem_free(k, m);
    rdx_kfd_mem_kind m_kind = m->kind;
    uint64_t m_addr = m->gpu_addr;
    rdx_status first = rdx_kfd_mem_map(k, m, 0);
    char msg[512] = "";
    if (first != RDX_OK)
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
    struct kfd_ioctl_free_memory_of_gpu_args f = { .handle = m->handle };
    rdx_status st = RDX_KFD_IOCTL(k->os, k->fd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f);
    if (first == RDX_OK && st != RDX_OK) {
        first = st;
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
    }
    /* On Linux this also drops the CPU mapping and the reservation. */
    if (m->reserved)
        rdx_kfd_os_munmap(k->os, m->reserved, m->size);
    pthread_mutex_lock(&k->lock);
    k->live_mem--;
    pthread_mutex_unlock(&k->lock);
    free(m);
    if (first != RDX_OK)
        return rdx_fail(first, "freeing %s at 0x%llx: %s", kind_name(m_kind),
                        (unsigned long long)m_addr, msg);
    return RDX_OK;
}

uint64_t rdx_kfd_mem_gpu_addr(const rdx_kfd_mem *m)
{
    return m->gpu_addr;
}

void *rdx_kfd_mem_cpu(const rdx_kfd_mem *m)
{
    return m->cpu;
}

uint64_t rdx_kfd_mem_size(const rdx_kfd_mem *m)
{
    return m->size;
}

uint64_t rdx_kfd_mem_handle(const rdx_kfd_mem *m)
{
    return m->handle;
}

rdx_status rdx_kfd_mem_note(rdx_kfd *k, rdx_os_mem_op op, uint64_t addr, uint64_t size,
                            const char *label)
{
    if (!k->os->mem_note)
        return RDX_OK; /* nobody checks GPU memory accesses: nothing to tell */
    int r = k->os->mem_note(k->os->ctx, op, addr, size, label);
    if (r < 0)
        return rdx_fail_errno(RDX_ERR_DEVICE, -r, "memory note %s of 0x%llx+0x%llx%s%s%s",
                              op == RDX_OS_MEM_POOL    ? "POOL"
                              : op == RDX_OS_MEM_ALLOC ? "ALLOC"
                                                       : "FREE",
                              (unsigned long long)addr, (unsigned long long)size,
                              label ? " ('" : "", label ? label : "", label ? "')" : "");
    return RDX_OK;
}
