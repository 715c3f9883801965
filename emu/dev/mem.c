/*
 * emu/dev/mem.c — buffer objects: AMDKFD_IOC_{ALLOC,FREE}_MEMORY_OF_GPU,
 * {MAP,UNMAP}_MEMORY_{TO,FROM}_GPU, and mmap/munmap of device fds.
 *
 * GPU address == host address.  VRAM/GTT/doorbell memory lives in the
 * device's pool memfd; while a buffer is mapped to a GPU (or the client
 * mapped it at its own address) the pool pages are mapped at its GPU address,
 * replacing the client's PROT_NONE reservation, which is put back when both
 * are gone.  USERPTR buffers are the client's memory itself.
 *
 * Invariant: bo->backed implies the pool pages are mapped at bo->va now (a
 * client munmap or MAP_FIXED over the range clears it).
 *
 * Bounds: a buffer object the client declared a pool (RDX_OS_MEM_POOL note,
 * rdx/os.h) shows the wave emulator only its allocations (the extents of
 * RDX_OS_MEM_ALLOC notes, labelled), so a kernel's access to any other byte
 * of it faults; in the "block" mode (RDX_EMU_BOUNDS=block) the emulator sees
 * the whole object as before.  The command processor and SDMA engine check
 * whole objects either way.
 */
#include "emu/dev/emudev.h"
#include "kfd/compat/kfd_ioctl_flags.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rdx/emu.h>

#define DOMAIN_MASK                                                       \
    (KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_GTT |         \
     KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL | \
     KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP)
#define GPUVM_BASE  0x200000ull
#define GPUVM_LIMIT 0x00007fffffffffffull

static uint64_t page_align(uint64_t x)
{
    return (x + EMU_PAGE - 1) & ~(EMU_PAGE - 1);
}

emu_bo *emu_bo_by_handle(rdx_emudev *dev, uint64_t handle)
{
    for (emu_bo *b = dev->bos; b; b = b->next)
        if (b->handle == handle)
            return b;
    return NULL;
}

emu_bo *emu_bo_find(rdx_emudev *dev, uint32_t gpu, uint64_t va, uint64_t len)
{
    for (emu_bo *b = dev->bos; b; b = b->next) {
        if (!(b->gpu_mapped & (1 << gpu)))
            continue;
        if (!(b->flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) && !b->backed)
            continue;
        if (va >= b->va && len <= b->size && va - b->va <= b->size - len)
            return b;
    }
    return NULL;
}

/* Show (map = 1) or hide b from gpu g's wave emulator: the whole object, or
 * only its extents when it is a pool and bounds are exact. */
static void bo_emu_map(rdx_emudev *dev, emu_bo *b, uint32_t g, int map)
{
    if (!b->pool || !dev->bounds_exact) {
        emu_gpu_map_notify(dev, b, g, map);
        return;
    }
    rdx_emu *emu = dev->gpus[g].emu;
    if (!emu)
        return;
    unsigned access = RDX_EMU_READ | (b->flags & RDX_KFD_ALLOC_WRITABLE ? RDX_EMU_WRITE : 0);
    for (emu_extent *e = b->extents; e; e = e->next) {
        if (map)
            (void)rdx_emu_map_labeled(emu, e->addr, e->size, access, e->label);
        else
            (void)rdx_emu_unmap(emu, e->addr); /* absent after forget_range: ignored */
    }
}

/* The wave emulator of gpu g may see b now (mapped there, memory present). */
static int bo_visible(const emu_bo *b, uint32_t g)
{
    return (b->gpu_mapped & (1 << g)) &&
           ((b->flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) || b->backed);
}

int emu_reserved(rdx_emudev *dev, uint64_t va, uint64_t len)
{
    for (emu_reservation *r = dev->reservations; r; r = r->next)
        if (va >= r->start && len <= r->len && va - r->start <= r->len - len)
            return 1;
    return 0;
}

static void forget_range(rdx_emudev *dev, uint64_t start, uint64_t len);

/* Map the pool pages of b at its GPU address (MAP_FIXED: only where the client
 * asked for it or reserved the range). */
static int map_at_va(rdx_emudev *dev, emu_bo *b)
{
    void *p = mmap((void *)(uintptr_t)b->va, b->size, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_FIXED, dev->pool_fd, (off_t)b->pool_off);
    if (p == MAP_FAILED)
        return -errno;
    b->backed = 1;
    b->released = 0;
    if (b->flags & KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL)
        emu_cp_watch_doorbells(dev, b->gpu, b->va, b->size);
    return 0;
}

/* Make the pool pages present at bo->va exactly while the GPU or the client needs them. */
int emu_bo_update_backing(rdx_emudev *dev, emu_bo *b)
{
    if (b->flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR)
        return 0;
    int want = b->gpu_mapped || b->cpu_at_va;
    if (want && !b->backed) {
        if (!emu_reserved(dev, b->va, b->size))
            return -EINVAL; /* the client no longer reserves this VA */
        return map_at_va(dev, b);
    }
    if (!want && b->backed) {
        b->backed = 0;
        if (b->released || !emu_reserved(dev, b->va, b->size)) {
            /* The client unmapped the range while the GPU used it: finish that now. */
            munmap((void *)(uintptr_t)b->va, b->size);
            forget_range(dev, b->va, b->size);
            b->released = 0;
            return 0;
        }
        void *p = mmap((void *)(uintptr_t)b->va, b->size, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            return -errno;
    }
    return 0;
}

/* Client memory [va, va+len) is readable and writable (for USERPTR). */
static int user_range_ok(uint64_t va, uint64_t len)
{
    unsigned char vec[64];
    for (uint64_t off = 0; off < len; off += 64 * EMU_PAGE) {
        uint64_t n = len - off < 64 * EMU_PAGE ? len - off : 64 * EMU_PAGE;
        if (mincore((void *)(uintptr_t)(va + off), n, vec) < 0)
            return 0;
    }
    return 1;
}

void emu_bo_free(rdx_emudev *dev, emu_bo *b)
{
    if (b->gpu_mapped)
        dev->stats.gpu_mapped--;
    for (uint32_t g = 0; g < dev->num_gpus; g++)
        if (b->gpu_mapped & (1 << g))
            bo_emu_map(dev, b, g, 0);
    while (b->extents) {
        emu_extent *e = b->extents;
        b->extents = e->next;
        free(e->label);
        free(e);
    }
    b->gpu_mapped = 0;
    b->cpu_at_va = 0;
    emu_bo_update_backing(dev, b);
    if (!(b->flags & (KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL)))
        fallocate(dev->pool_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)b->pool_off,
                  (off_t)b->size);
    if (b->flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM)
        dev->gpus[b->gpu].vram_used -= b->size;
    if (dev->event_page_bo == b)
        emu_event_page_release(dev);
    for (emu_bo **pp = &dev->bos; *pp; pp = &(*pp)->next) {
        if (*pp == b) {
            *pp = b->next;
            break;
        }
    }
    dev->stats.bos--;
    free(b);
}

/* The memory domain of ALLOC_MEMORY_OF_GPU's flags, by the driver's precedence
 * (amdgpu_amdkfd_gpuvm_alloc_memory_of_gpu: VRAM, then GTT, then USERPTR, doorbell or MMIO),
 * or 0 when none is set. */
static uint32_t domain_of(uint32_t flags)
{
    static const uint32_t order[] = { KFD_IOC_ALLOC_MEM_FLAGS_VRAM, KFD_IOC_ALLOC_MEM_FLAGS_GTT,
                                      KFD_IOC_ALLOC_MEM_FLAGS_USERPTR,
                                      KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL,
                                      KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (flags & order[i])
            return order[i];
    return 0;
}

emu_bo *emu_bo_new(rdx_emudev *dev, uint32_t g, uint64_t size, uint32_t domain)
{
    int pooled = domain == KFD_IOC_ALLOC_MEM_FLAGS_VRAM || domain == KFD_IOC_ALLOC_MEM_FLAGS_GTT;
    if (pooled && size > EMU_POOL_SIZE - dev->pool_next)
        return NULL;
    emu_bo *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->gpu = g;
    b->size = size;
    b->flags = domain;
    if (domain == KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL) {
        b->pool_off = dev->gpus[g].doorbell_off;
    } else if (domain == KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP) {
        b->pool_off = dev->gpus[g].mmio_off;
    } else if (pooled) {
        b->pool_off = dev->pool_next;
        dev->pool_next += size;
    }
    if (domain != KFD_IOC_ALLOC_MEM_FLAGS_USERPTR && domain != KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP) {
        b->mmap_offset = dev->next_mmap_offset;
        dev->next_mmap_offset += size;
    }
    if (domain == KFD_IOC_ALLOC_MEM_FLAGS_VRAM)
        dev->gpus[g].vram_used += size;
    b->next = dev->bos;
    dev->bos = b;
    dev->stats.bos++;
    return b;
}

static int alloc_bo(rdx_emudev *dev, struct kfd_ioctl_alloc_memory_of_gpu_args *a)
{
    if (a->size == 0)
        return -EINVAL;
    int g = emu_gpu_by_id(dev, a->gpu_id);
    if (g < 0)
        return -EINVAL;
    if (!emu_vm_bound(dev, (uint32_t)g))
        return -ENODEV; /* kfd_bind_process_to_device: no VM acquired */
    /* kfd_ioctl_alloc_memory_of_gpu's checks of the special kinds, by flag */
    if ((a->flags & KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL) && a->size != EMU_DOORBELL_SLICE)
        return -EINVAL;
    if (!(a->flags & KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL) &&
        (a->flags & KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP) && a->size != EMU_PAGE)
        return -EINVAL;
    uint32_t domain = domain_of(a->flags);
    if (domain == 0)
        return -EINVAL;
    uint64_t size = page_align(a->size);
    if (size < a->size)
        return -EINVAL;
    if (domain == KFD_IOC_ALLOC_MEM_FLAGS_VRAM &&
        size > dev->gpus[g].vram_size - dev->gpus[g].vram_used)
        return -ENOMEM;
    if (domain == KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) {
        if (!a->mmap_offset)
            return -EINVAL;
        if ((a->mmap_offset & (EMU_PAGE - 1)) || a->mmap_offset != a->va_addr)
            return -EINVAL; /* emulator: GPU address == CPU address, page aligned */
        if (!user_range_ok(a->mmap_offset, size))
            return -EFAULT;
    } else if (!(domain == KFD_IOC_ALLOC_MEM_FLAGS_VRAM && a->va_addr == 0) &&
               !emu_reserved(dev, a->va_addr, size)) {
        return -EINVAL; /* emulator: the GPU address must be reserved VA of the client */
    }
    if ((domain == KFD_IOC_ALLOC_MEM_FLAGS_VRAM || domain == KFD_IOC_ALLOC_MEM_FLAGS_GTT) &&
        size > EMU_POOL_SIZE - dev->pool_next)
        return -ENOMEM;
    emu_bo *b = emu_bo_new(dev, (uint32_t)g, size, domain);
    if (!b)
        return -ENOMEM;
    b->va = a->va_addr;
    /* the kind the driver made of it, whatever other domain bits were set */
    b->flags = (a->flags & ~DOMAIN_MASK) | domain;
    b->handle = ((uint64_t)a->gpu_id << 32) | dev->next_idr++;
    if (domain == KFD_IOC_ALLOC_MEM_FLAGS_USERPTR)
        a->mmap_offset = a->va_addr;
    else if (domain == KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP)
        a->mmap_offset = EMU_MMAP_TYPE_MMIO | EMU_MMAP_GPU_ID(a->gpu_id); /* mapped via /dev/kfd */
    else
        a->mmap_offset = b->mmap_offset;
    a->handle = b->handle;
    return 0;
}

/* amdgpu_vm_bo_map's checks of a new mapping of b in gpu g's VM: a page-aligned GPU address
 * (not 0) inside the GPUVM aperture, overlapping no other mapping of that VM. */
static int vm_map_ok(rdx_emudev *dev, const emu_bo *b, uint32_t g)
{
    if (!b->va || (b->va & (EMU_PAGE - 1)) || b->va < GPUVM_BASE || b->size > GPUVM_LIMIT ||
        b->va > GPUVM_LIMIT + 1 - b->size)
        return 0;
    for (const emu_bo *o = dev->bos; o; o = o->next)
        if (o != b && (o->gpu_mapped & (1 << g)) && b->va < o->va + o->size &&
            o->va < b->va + b->size)
            return 0;
    return 1;
}

static int map_bo(rdx_emudev *dev, void *arg, int map)
{
    /* The map and unmap argument structures have the same layout. */
    struct kfd_ioctl_map_memory_to_gpu_args *a = arg;
    if (a->n_devices == 0 || a->n_success > a->n_devices)
        return -EINVAL;
    uint32_t ids[EMU_MAX_GPUS + 1];
    uint32_t n = a->n_devices;
    if (n > EMU_MAX_GPUS + 1)
        n = EMU_MAX_GPUS + 1; /* an array longer than the GPUs repeats or names unknown ones */
    if (emu_copy_from_user(ids, a->device_ids_array_ptr, n * sizeof ids[0]))
        return -EFAULT;
    int hg = emu_gpu_by_id(dev, (uint32_t)(a->handle >> 32));
    if (hg < 0)
        return -EINVAL; /* the handle's gpu */
    if (map && !emu_vm_bound(dev, (uint32_t)hg))
        return -ENODEV;
    emu_bo *b = emu_bo_by_handle(dev, a->handle);
    if (!b)
        return -ENOMEM; /* kfd_process_device_translate_handle found nothing */
    for (uint32_t i = a->n_success; i < a->n_devices; i++) {
        int g = i < n ? emu_gpu_by_id(dev, ids[i]) : -1;
        if (g < 0)
            return -EINVAL;
        uint32_t bit = 1u << g;
        int was = b->gpu_mapped != 0;
        if (map) {
            if (!emu_vm_bound(dev, (uint32_t)g))
                return -ENODEV;
            if (b->gpu_mapped & (int)bit) {
                a->n_success = i + 1; /* mapped already: nothing to do */
                continue;
            }
            if (!vm_map_ok(dev, b, (uint32_t)g))
                return -EINVAL;
            b->gpu_mapped |= (int)bit;
        } else {
            if (!(b->gpu_mapped & (int)bit))
                return -EINVAL;
            if (b->queue_refs)
                return -EBUSY; /* a live queue uses it (unmap_bo_from_gpuvm) */
            b->gpu_mapped &= ~(int)bit;
        }
        int r = emu_bo_update_backing(dev, b);
        if (r) {
            b->gpu_mapped ^= (int)bit;
            return r;
        }
        bo_emu_map(dev, b, (uint32_t)g, map);
        if (!was && b->gpu_mapped)
            dev->stats.gpu_mapped++;
        else if (was && !b->gpu_mapped)
            dev->stats.gpu_mapped--;
        a->n_success = i + 1;
    }
    return 0;
}

int emu_ioctl_mem(rdx_emudev *dev, unsigned long request, void *arg)
{
    if (request == AMDKFD_IOC_ALLOC_MEMORY_OF_GPU)
        return alloc_bo(dev, arg);
    if (request == AMDKFD_IOC_FREE_MEMORY_OF_GPU) {
        struct kfd_ioctl_free_memory_of_gpu_args *a = arg;
        if (dev->event_page_bo && a->handle == dev->event_page_bo->handle)
            return -EPERM; /* "Free signal BO is not allowed" */
        emu_bo *b = emu_bo_by_handle(dev, a->handle);
        if (!b)
            return -EINVAL;
        if (b->gpu_mapped)
            return -EBUSY;
        emu_bo_free(dev, b);
        return 0;
    }
    return map_bo(dev, arg, request == AMDKFD_IOC_MAP_MEMORY_TO_GPU);
}

uint32_t emu_mem_ioctl_gpus(rdx_emudev *dev, unsigned long request, const void *arg)
{
    /* A new buffer is on no GPU yet, and only a buffer no GPU maps can be freed: neither
     * changes what a running dispatch sees. */
    if (request == AMDKFD_IOC_ALLOC_MEMORY_OF_GPU || request == AMDKFD_IOC_FREE_MEMORY_OF_GPU)
        return 0;
    const struct kfd_ioctl_map_memory_to_gpu_args *a = arg; /* unmap's has the same layout */
    uint32_t ids[EMU_MAX_GPUS + 1], mask = 0;
    uint32_t n = a->n_devices < EMU_MAX_GPUS + 1 ? a->n_devices : EMU_MAX_GPUS + 1;
    if (n == 0 || emu_copy_from_user(ids, a->device_ids_array_ptr, n * sizeof ids[0]))
        return EMU_ALL_GPUS;
    for (uint32_t i = 0; i < n; i++) {
        int g = emu_gpu_by_id(dev, ids[i]);
        if (g < 0)
            return EMU_ALL_GPUS;
        mask |= 1u << g;
    }
    return mask;
}

uint32_t emu_range_gpus(rdx_emudev *dev, uint64_t start, uint64_t len)
{
    uint32_t mask = 0;
    for (emu_bo *b = dev->bos; b; b = b->next)
        if (b->backed && b->va < start + len && start < b->va + b->size)
            mask |= (uint32_t)b->gpu_mapped;
    return mask;
}

static void forget_range(rdx_emudev *dev, uint64_t start, uint64_t len)
{
    for (emu_bo *b = dev->bos; b; b = b->next)
        if (b->backed && b->va < start + len && start < b->va + b->size) {
            b->backed = 0, b->cpu_at_va = 0, b->released = 0;
            /* The memory is gone from under the GPU: the emulator must not touch it. */
            for (uint32_t g = 0; g < dev->num_gpus; g++)
                if (b->gpu_mapped & (1 << g))
                    bo_emu_map(dev, b, g, 0);
        }
    /* The reservations lose [start, start+len): trimmed, split, or dropped when covered (a
     * client reserves more than it needs and unmaps the ends to align, as libhsakmt does). */
    uint64_t end = start + len;
    for (emu_reservation **pp = &dev->reservations; *pp;) {
        emu_reservation *r = *pp;
        uint64_t rend = r->start + r->len;
        if (!(r->start < end && start < rend)) {
            pp = &r->next;
            continue;
        }
        if (r->start < start && end < rend) { /* a hole in the middle: split */
            emu_reservation *tail = malloc(sizeof *tail);
            if (tail) {
                tail->start = end;
                tail->len = rend - end;
                tail->next = r->next;
                r->next = tail;
            }
            r->len = start - r->start;
            pp = &r->next;
        } else if (r->start < start) { /* the end goes */
            r->len = start - r->start;
            pp = &r->next;
        } else if (end < rend) { /* the beginning goes */
            r->start = end;
            r->len = rend - end;
            pp = &r->next;
        } else {
            *pp = r->next;
            free(r);
        }
    }
}

int emu_mmap(rdx_emudev *dev, void *addr, size_t len, int prot, int flags, int fd, uint64_t off,
             void **out)
{
    uint64_t va = (uint64_t)(uintptr_t)addr;
    if (fd < 0) { /* anonymous: pass through, remember PROT_NONE reservations */
        void *p = mmap(addr, len, prot, flags, -1, 0);
        if (p == MAP_FAILED)
            return -errno;
        if (flags & MAP_FIXED)
            forget_range(dev, (uint64_t)(uintptr_t)p, len);
        if (prot == PROT_NONE) {
            emu_reservation *r = malloc(sizeof *r);
            if (!r) {
                munmap(p, len);
                return -ENOMEM;
            }
            r->start = (uint64_t)(uintptr_t)p;
            r->len = page_align(len); /* mmap maps whole pages */
            r->next = dev->reservations;
            dev->reservations = r;
        }
        *out = p;
        return 0;
    }
    uint32_t fgpu = 0;
    int kind = emu_fd_kind_of(dev, fd, &fgpu);
    if (kind == EMU_FD_FREE)
        return -EBADF;
    emu_bo *bo = NULL;
    uint64_t pool_off;
    int doorbell = kind == EMU_FD_KFD;
    uint32_t dgpu = fgpu; /* the GPU whose doorbells a doorbell mapping shows */
    if (kind == EMU_FD_KFD) {
        /* kfd_mmap: the type and gpu id in the offset; a gpu id naming no device is ENODEV */
        uint32_t id = EMU_MMAP_GET_GPU_ID(off);
        int g = id ? emu_gpu_by_id(dev, id) : -1;
        dgpu = g < 0 ? 0 : (uint32_t)g;
        uint64_t type = off & EMU_MMAP_TYPE_MASK;
        if (type == EMU_MMAP_TYPE_EVENTS)
            return emu_event_mmap(dev, addr, len, prot, flags, out);
        if (g < 0)
            return -ENODEV;
        uint32_t want_flag;
        if (type == EMU_MMAP_TYPE_DOORBELL) {
            if (len != EMU_DOORBELL_SLICE) /* kfd_doorbell_mmap */
                return -EINVAL;
            pool_off = dev->gpus[g].doorbell_off;
            want_flag = KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL;
        } else if (type == EMU_MMAP_TYPE_MMIO) {
            if (len != EMU_PAGE) /* kfd_mmio_mmap */
                return -EINVAL;
            pool_off = dev->gpus[g].mmio_off;
            want_flag = KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP;
        } else {
            return -EINVAL; /* emulator: no reserved-memory (RESERVED_MEM) mappings */
        }
        for (emu_bo *b = dev->bos; b; b = b->next)
            if ((b->flags & want_flag) && b->gpu == (uint32_t)g && b->va == va)
                bo = b;
    } else {
        for (emu_bo *b = dev->bos; b; b = b->next)
            if (b->gpu == fgpu && b->mmap_offset && b->mmap_offset == off)
                bo = b;
        if (!bo || len > bo->size)
            return -EINVAL;
        /* VRAM without PUBLIC is mapped too: KFD creates it without
         * AMDGPU_GEM_CREATE_NO_CPU_ACCESS (amdgpu_amdkfd_gpuvm_alloc_memory_of_gpu),
         * and tinygrad's driver maps every VRAM buffer. */
        pool_off = bo->pool_off;
        doorbell = (bo->flags & KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL) != 0;
        if (bo->va != va)
            bo = NULL; /* a second CPU view elsewhere: a plain shared mapping */
    }
    if (bo && page_align(len) == bo->size) { /* mmap maps whole pages */
        if (!bo->backed || bo->released) {
            int r = map_at_va(dev, bo);
            if (r)
                return r;
        }
        bo->cpu_at_va = 1;
        *out = addr;
        return 0;
    }
    void *p = mmap(addr, len, prot, flags | MAP_SHARED, dev->pool_fd, (off_t)pool_off);
    if (p == MAP_FAILED)
        return -errno;
    if (flags & MAP_FIXED)
        forget_range(dev, va, len);
    if (doorbell)
        emu_cp_watch_doorbells(dev, dgpu, (uint64_t)(uintptr_t)p, page_align(len));
    *out = p;
    return 0;
}

int emu_munmap(rdx_emudev *dev, void *addr, size_t len)
{
    uint64_t va = (uint64_t)(uintptr_t)addr;
    for (emu_bo *b = dev->bos; b; b = b->next) {
        if (b->cpu_at_va && b->va == va && b->size == page_align(len)) {
            b->cpu_at_va = 0;
            if (b->gpu_mapped) {
                b->released = 1; /* the GPU keeps its view until it is unmapped */
                return 0;
            }
            b->backed = 0;
            break;
        }
    }
    if (munmap(addr, len) < 0)
        return -errno;
    forget_range(dev, va, len);
    return 0;
}

void emu_mem_release_all(rdx_emudev *dev, int reservations_too)
{
    emu_event_page_release(dev); /* the process is going away: the event page too */
    while (dev->bos)
        emu_bo_free(dev, dev->bos);
    while (reservations_too && dev->reservations) {
        emu_reservation *r = dev->reservations;
        dev->reservations = r->next;
        free(r);
    }
}

/* ---- memory notes: a sub-allocator's pools and allocations ---- */

int emu_gpu_read_only_at(rdx_emudev *dev, uint32_t gpu, uint64_t va)
{
    emu_bo *b = emu_bo_find(dev, gpu, va, 1);
    if (!b || (b->flags & RDX_KFD_ALLOC_WRITABLE))
        return 0;
    if (!b->pool || !dev->bounds_exact)
        return 1;
    for (emu_extent *e = b->extents; e; e = e->next)
        if (va >= e->addr && va - e->addr < e->size)
            return 1;
    return 0;
}

static int note_pool(rdx_emudev *dev, uint64_t addr)
{
    int found = 0;
    for (emu_bo *b = dev->bos; b; b = b->next) {
        if (b->va != addr || b->pool)
            continue;
        found = 1;
        if (dev->bounds_exact)
            for (uint32_t g = 0; g < dev->num_gpus; g++)
                if (bo_visible(b, g))
                    emu_gpu_map_notify(dev, b, g, 0);
        b->pool = 1; /* no extents yet: nothing of it is visible (exact bounds) */
    }
    return found ? 0 : -EINVAL;
}

static int note_alloc(rdx_emudev *dev, uint64_t addr, uint64_t size, const char *label)
{
    int found = 0;
    for (emu_bo *b = dev->bos; b; b = b->next) {
        if (!b->pool || addr < b->va || size > b->size || addr - b->va > b->size - size)
            continue;
        for (emu_extent *e = b->extents; e; e = e->next)
            if (addr < e->addr + e->size && e->addr < addr + size)
                return -EINVAL; /* overlaps a live allocation */
        emu_extent *e = calloc(1, sizeof *e);
        if (!e || (label && !(e->label = strdup(label)))) {
            free(e);
            return -ENOMEM;
        }
        e->addr = addr;
        e->size = size;
        e->next = b->extents;
        b->extents = e;
        found = 1;
        if (!dev->bounds_exact)
            continue;
        unsigned access = RDX_EMU_READ | (b->flags & RDX_KFD_ALLOC_WRITABLE ? RDX_EMU_WRITE : 0);
        for (uint32_t g = 0; g < dev->num_gpus; g++)
            if (bo_visible(b, g) && dev->gpus[g].emu)
                (void)rdx_emu_map_labeled(dev->gpus[g].emu, addr, size, access, e->label);
    }
    return found ? 0 : -EINVAL;
}

static int note_free(rdx_emudev *dev, uint64_t addr)
{
    int found = 0;
    for (emu_bo *b = dev->bos; b; b = b->next) {
        for (emu_extent **pp = &b->extents; *pp; pp = &(*pp)->next) {
            emu_extent *e = *pp;
            if (e->addr != addr)
                continue;
            if (dev->bounds_exact)
                for (uint32_t g = 0; g < dev->num_gpus; g++)
                    if (bo_visible(b, g) && dev->gpus[g].emu)
                        (void)rdx_emu_unmap(dev->gpus[g].emu, addr);
            *pp = e->next;
            free(e->label);
            free(e);
            found = 1;
            break;
        }
    }
    return found ? 0 : -EINVAL;
}

int emu_mem_note(rdx_emudev *dev, rdx_os_mem_op op, uint64_t addr, uint64_t size, const char *label)
{
    switch (op) {
    case RDX_OS_MEM_POOL:
        return note_pool(dev, addr);
    case RDX_OS_MEM_ALLOC:
        if (size == 0 || addr + size < addr)
            return -EINVAL;
        return note_alloc(dev, addr, size, label);
    case RDX_OS_MEM_FREE:
        return note_free(dev, addr);
    }
    return -EINVAL;
}
