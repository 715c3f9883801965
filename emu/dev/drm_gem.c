/*
 * emu/dev/drm_gem.c — amdgpu GEM objects on the render node: DRM_IOCTL_AMDGPU_GEM_CREATE,
 * GEM_MMAP, GEM_VA, DRM_IOCTL_GEM_CLOSE and DRM_IOCTL_AMDGPU_BO_LIST, checked as
 * amdgpu_gem_create_ioctl, amdgpu_mode_dumb_mmap, amdgpu_gem_va_ioctl / amdgpu_vm_bo_map,
 * drm_gem_close_ioctl and amdgpu_bo_list_ioctl check them (Linux 6.x).
 *
 * A GEM object is an emu_bo of the same memory model as KFD's (docs/kfd.md), made, backed and
 * freed by mem.c's code (emu_bo_new, emu_bo_update_backing, emu_bo_free): pool memory,
 * GPU address == host address.  It has no GPU address until GEM_VA maps it; the emulator then
 * maps its pool pages at that address, which must be VA the client reserved (an anonymous
 * PROT_NONE mapping, as for KFD; rdx's DRM backend reserves it and passes it to
 * amdgpu_va_range_alloc).  Emulator limits: one mapping per object, of the whole object at
 * offset 0 (EOPNOTSUPP otherwise); no userptr objects (GEM_USERPTR is not served).
 */
#include "emu/dev/emudev.h"
#include "kfd/compat/kfd_ioctl_flags.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <libdrm/amdgpu_drm.h>

/* The GEM create flags amdgpu_gem_create_ioctl accepts (those this header names). */
#define GEM_VALID_FLAGS                                                        \
    (AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED | AMDGPU_GEM_CREATE_NO_CPU_ACCESS | \
     AMDGPU_GEM_CREATE_CPU_GTT_USWC | AMDGPU_GEM_CREATE_VRAM_CLEARED |         \
     AMDGPU_GEM_CREATE_VM_ALWAYS_VALID | AMDGPU_GEM_CREATE_EXPLICIT_SYNC |     \
     AMDGPU_GEM_CREATE_ENCRYPTED)
#define VA_VALID_FLAGS                                                             \
    (AMDGPU_VM_DELAY_UPDATE | AMDGPU_VM_PAGE_READABLE | AMDGPU_VM_PAGE_WRITEABLE | \
     AMDGPU_VM_PAGE_EXECUTABLE | AMDGPU_VM_MTYPE_MASK)
#define VA_PRT_FLAGS (AMDGPU_VM_DELAY_UPDATE | AMDGPU_VM_PAGE_PRT)
/* The low half of the 48-bit GPU VM below the hole (AMDGPU_GMC_HOLE_START), the bottom the
 * device info reports (virtual_address_offset). */
#define VA_BOTTOM     0x200000ull
#define VA_HOLE_START 0x0000800000000000ull
#define VA_HOLE_END   0xffff800000000000ull
#define VA_TOP        0x0000800000000000ull

static uint64_t page_align(uint64_t x)
{
    return (x + EMU_PAGE - 1) & ~(EMU_PAGE - 1);
}

emu_bo *emu_drm_gem_lookup(rdx_emudev *dev, int fd, uint32_t handle)
{
    if (!handle)
        return NULL;
    for (emu_bo *b = dev->bos; b; b = b->next)
        if (b->gem == handle && b->gem_fd == fd)
            return b;
    return NULL;
}

static int gem_create(rdx_emudev *dev, int fd, uint32_t gpu, union drm_amdgpu_gem_create *a)
{
    uint64_t flags = a->in.domain_flags, domains = a->in.domains;
    if (flags & ~(uint64_t)GEM_VALID_FLAGS)
        return -EINVAL; /* "reject invalid gem flags" */
    if (domains & ~(uint64_t)AMDGPU_GEM_DOMAIN_MASK)
        return -EINVAL; /* "reject invalid gem domains" */
    if (flags & AMDGPU_GEM_CREATE_ENCRYPTED)
        return -EINVAL; /* no TMZ on this device */
    /* The emulated device serves VRAM and GTT objects only (no GDS/GWS/OA, no CPU domain). */
    if (domains & ~(uint64_t)(AMDGPU_GEM_DOMAIN_VRAM | AMDGPU_GEM_DOMAIN_GTT) || !domains)
        return -EINVAL;
    if (a->in.bo_size == 0)
        return -EINVAL;
    uint64_t size = page_align(a->in.bo_size);
    int vram = (domains & AMDGPU_GEM_DOMAIN_VRAM) != 0;
    /* amdgpu_bo_validate_size: larger than the domain is ENOMEM */
    if (vram && !(domains & AMDGPU_GEM_DOMAIN_GTT) && size > dev->gpus[gpu].vram_size)
        return -ENOMEM;
    if (vram && size > dev->gpus[gpu].vram_size - dev->gpus[gpu].vram_used) {
        if (!(domains & AMDGPU_GEM_DOMAIN_GTT))
            return -ENOMEM;
        vram = 0; /* placed in the other domain asked for */
    }
    emu_bo *b = emu_bo_new(dev, gpu, size,
                           vram ? KFD_IOC_ALLOC_MEM_FLAGS_VRAM : KFD_IOC_ALLOC_MEM_FLAGS_GTT);
    if (!b)
        return -ENOMEM;
    b->gem = ++dev->drm.next_gem;
    b->gem_fd = fd;
    b->gem_flags = (uint32_t)flags;
    b->handle = EMU_DRM_HANDLE_TAG | b->gem;
    memset(a, 0, sizeof *a);
    a->out.handle = b->gem;
    return 0;
}

/* Unmap b from the GPU: the pool pages leave its address unless the client maps them there. */
static void gem_unmap(rdx_emudev *dev, emu_bo *b)
{
    if (!b->gpu_mapped)
        return;
    emu_gpu_map_notify(dev, b, b->gpu, 0);
    b->gpu_mapped = 0;
    dev->stats.gpu_mapped--;
    (void)emu_bo_update_backing(dev, b);
}

static int gem_va(rdx_emudev *dev, int fd, struct drm_amdgpu_gem_va *a)
{
    if (a->va_address < VA_BOTTOM)
        return -EINVAL; /* in the reserved area */
    if (a->va_address >= VA_HOLE_START && a->va_address < VA_HOLE_END)
        return -EINVAL;                             /* in the VA hole */
    uint64_t va = a->va_address & (VA_TOP * 2 - 1); /* AMDGPU_GMC_HOLE_MASK */
    if (va + a->map_size > VA_TOP * 2 - EMU_PAGE || va + a->map_size < va)
        return -EINVAL;
    if ((a->flags & ~VA_VALID_FLAGS) && (a->flags & ~VA_PRT_FLAGS))
        return -EINVAL;
    if (a->operation != AMDGPU_VA_OP_MAP && a->operation != AMDGPU_VA_OP_UNMAP &&
        a->operation != AMDGPU_VA_OP_CLEAR && a->operation != AMDGPU_VA_OP_REPLACE)
        return -EINVAL;
    if (a->flags & AMDGPU_VM_PAGE_PRT)
        return -EOPNOTSUPP; /* emulator: no partially resident textures */
    emu_bo *b = NULL;
    if (a->operation != AMDGPU_VA_OP_CLEAR && !(b = emu_drm_gem_lookup(dev, fd, a->handle)))
        return -ENOENT;
    if (a->operation == AMDGPU_VA_OP_CLEAR || a->operation == AMDGPU_VA_OP_REPLACE)
        return -EOPNOTSUPP; /* emulator: not served (nothing in libdrm_amdgpu's path uses them) */
    if (a->operation == AMDGPU_VA_OP_UNMAP) {
        if (!b->gpu_mapped || b->va != va)
            return -ENOENT; /* amdgpu_vm_bo_unmap: no such mapping */
        gem_unmap(dev, b);
        return 0;
    }
    /* amdgpu_vm_bo_map: page-aligned address, offset and size, inside the object, no
     * conflict with another mapping of this VM. */
    if ((va | a->offset_in_bo | a->map_size) & (EMU_PAGE - 1) || !a->map_size)
        return -EINVAL;
    if (a->offset_in_bo + a->map_size > b->size || a->offset_in_bo + a->map_size < a->offset_in_bo)
        return -EINVAL;
    for (emu_bo *o = dev->bos; o; o = o->next)
        if (o->gpu == b->gpu && o->gpu_mapped && va < o->va + o->size && o->va < va + a->map_size)
            return -EINVAL; /* conflicts with an existing mapping */
    if (b->gpu_mapped || a->offset_in_bo || a->map_size != b->size)
        return -EOPNOTSUPP; /* emulator: one mapping of the whole object */
    /* emulator: the pool pages go at the GPU address, which the client must have reserved
     * (mem.c's backing, as for KFD buffers); one address per object */
    if (b->backed && b->va != va)
        return -EOPNOTSUPP; /* the client still maps it at an earlier GPU address */
    if (!b->backed && !emu_reserved(dev, va, b->size))
        return -EINVAL;
    b->va = va;
    b->gpu_mapped = 1 << b->gpu;
    int r = emu_bo_update_backing(dev, b);
    if (r) {
        b->gpu_mapped = 0;
        return r == -EINVAL ? -EINVAL : -ENOMEM;
    }
    b->gem_va_flags = a->flags;
    uint32_t keep = b->flags & (KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_GTT);
    b->flags = keep | (a->flags & AMDGPU_VM_PAGE_WRITEABLE ? RDX_KFD_ALLOC_WRITABLE : 0) |
               (a->flags & AMDGPU_VM_PAGE_EXECUTABLE ? KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE : 0);
    dev->stats.gpu_mapped++;
    emu_gpu_map_notify(dev, b, b->gpu, 1);
    return 0;
}

static int gem_mmap(rdx_emudev *dev, int fd, union drm_amdgpu_gem_mmap *a)
{
    emu_bo *b = emu_drm_gem_lookup(dev, fd, a->in.handle);
    if (!b)
        return -ENOENT;
    if (b->gem_flags & AMDGPU_GEM_CREATE_NO_CPU_ACCESS)
        return -EPERM;
    memset(a, 0, sizeof *a);
    a->out.addr_ptr = b->mmap_offset;
    return 0;
}

static emu_drm_bolist *list_lookup(rdx_emudev *dev, int fd, uint32_t id)
{
    for (emu_drm_bolist *l = dev->drm.lists; l; l = l->next)
        if (l->id == id && l->fd == fd)
            return l;
    return NULL;
}

static void list_free(rdx_emudev *dev, emu_drm_bolist *l)
{
    for (emu_drm_bolist **pp = &dev->drm.lists; *pp; pp = &(*pp)->next)
        if (*pp == l) {
            *pp = l->next;
            break;
        }
    free(l->handles);
    free(l);
}

static int bo_list(rdx_emudev *dev, int fd, union drm_amdgpu_bo_list *a)
{
    uint32_t op = a->in.operation;
    if (op == AMDGPU_BO_LIST_OP_DESTROY) {
        emu_drm_bolist *l = list_lookup(dev, fd, a->in.list_handle);
        if (l)
            list_free(dev, l); /* idr_remove of an unknown handle is no error */
        memset(a, 0, sizeof *a);
        return 0;
    }
    if (op != AMDGPU_BO_LIST_OP_CREATE && op != AMDGPU_BO_LIST_OP_UPDATE)
        return -EINVAL;
    uint32_t n = a->in.bo_number, esize = a->in.bo_info_size;
    if (n > 0xffff)
        return -EINVAL; /* emulator bound (amdgpu: the allocation would fail) */
    uint32_t *handles = calloc(n ? n : 1, sizeof *handles);
    if (!handles)
        return -ENOMEM;
    /* amdgpu_bo_create_list_entry_array: entries of the caller's size, the common prefix */
    for (uint32_t i = 0; i < n; i++) {
        struct drm_amdgpu_bo_list_entry e = { 0 };
        size_t c = esize < sizeof e ? esize : sizeof e;
        if (emu_copy_from_user(&e, a->in.bo_info_ptr + (uint64_t)i * esize, c)) {
            free(handles);
            return -EFAULT;
        }
        if (!emu_drm_gem_lookup(dev, fd, e.bo_handle)) {
            free(handles);
            return -ENOENT;
        }
        handles[i] = e.bo_handle;
    }
    emu_drm_bolist *l;
    if (op == AMDGPU_BO_LIST_OP_UPDATE) {
        if (!(l = list_lookup(dev, fd, a->in.list_handle))) {
            free(handles);
            return -ENOENT;
        }
        free(l->handles);
    } else if (!(l = calloc(1, sizeof *l))) {
        free(handles);
        return -ENOMEM;
    } else {
        l->fd = fd;
        l->id = ++dev->drm.next_id;
        l->next = dev->drm.lists;
        dev->drm.lists = l;
    }
    l->handles = handles;
    l->n = n;
    memset(a, 0, sizeof *a);
    a->out.list_handle = l->id;
    return 0;
}

int emu_drm_gem_ioctl(rdx_emudev *dev, int fd, uint32_t gpu, unsigned long request, void *arg)
{
    switch (request) {
    case DRM_IOCTL_AMDGPU_GEM_CREATE:
        return gem_create(dev, fd, gpu, arg);
    case DRM_IOCTL_AMDGPU_GEM_MMAP:
        return gem_mmap(dev, fd, arg);
    case DRM_IOCTL_AMDGPU_GEM_VA:
        emu_wait_idle(dev); /* the wave emulator's memory map changes */
        return gem_va(dev, fd, arg);
    case DRM_IOCTL_AMDGPU_BO_LIST:
        return bo_list(dev, fd, arg);
    case DRM_IOCTL_GEM_CLOSE: {
        struct drm_gem_close *c = arg;
        emu_bo *b = emu_drm_gem_lookup(dev, fd, c->handle);
        if (!b)
            return -EINVAL; /* drm_gem_handle_delete */
        emu_wait_idle(dev);
        emu_bo_free(dev, b);
        return 0;
    }
    }
    return -EINVAL;
}

void emu_drm_gem_release(rdx_emudev *dev, int fd)
{
    for (emu_drm_bolist *l = dev->drm.lists, *n; l; l = n) {
        n = l->next;
        if (fd < 0 || l->fd == fd)
            list_free(dev, l);
    }
    for (emu_bo *b = dev->bos, *n; b; b = n) {
        n = b->next;
        if (b->gem && (fd < 0 || b->gem_fd == fd))
            emu_bo_free(dev, b);
    }
}
