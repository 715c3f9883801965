/*
 * emu/dev/queue.c — AMDKFD_IOC_CREATE_QUEUE / DESTROY_QUEUE / UPDATE_QUEUE.
 *
 * Argument checks follow the kernel: set_queue_properties_from_user (percentage, priority,
 * addresses below the user limit, a power-of-two ring, the queue type), the device and its
 * VM, the SDMA engine id, and kfd_queue_acquire_buffers (Linux 6.12+; not on the Linux 6.1
 * model): the write and read pointers each at the start of a GPU-mapped buffer of one page,
 * the ring a buffer of exactly its size, and for compute queues the EOP buffer (when given) of
 * the node's EOP size, the node's control-stack and context-save sizes and a context-save
 * buffer of exactly their page-aligned total.  Those buffers cannot be unmapped from the GPU
 * while the queue lives (EBUSY).  The emulated command processor runs PM4 compute rings and
 * SDMA rings; AQL queues are refused (EOPNOTSUPP, an emulator limit).
 */
#include "emu/dev/emudev.h"

#include <errno.h>
#include <stdlib.h>

#define USER_LIMIT 0x00007ffffffff000ull /* TASK_SIZE_MAX of x86-64: access_ok's bound */

enum { BUF_WPTR, BUF_RPTR, BUF_RING, BUF_EOP, BUF_CWSR };

static int user_ok(uint64_t addr, uint64_t len)
{
    return addr <= USER_LIMIT && len <= USER_LIMIT - addr;
}

/* kfd_queue_buffer_get: the buffer mapped on gpu g at the page of addr, which must be the
 * first page of its mapping, and (when size >= one page) exactly size bytes long. */
static emu_bo *queue_buffer(rdx_emudev *dev, uint32_t g, uint64_t addr, uint64_t size)
{
    emu_bo *b = emu_bo_find(dev, g, addr & ~(EMU_PAGE - 1), 1);
    if (!b || (addr & ~(EMU_PAGE - 1)) != b->va)
        return NULL;
    if (size / EMU_PAGE && size / EMU_PAGE != b->size / EMU_PAGE)
        return NULL;
    return b;
}

static void queue_free(rdx_emudev *dev, emu_queue *q)
{
    for (int i = 0; i < 5; i++)
        if (q->bufs[i])
            q->bufs[i]->queue_refs--;
    dev->queues[q->id] = NULL;
    dev->stats.queues--;
    free(q->uconfig_regs);
    free(q->linear);
    free(q);
}

uint32_t emu_queue_count(rdx_emudev *dev)
{
    return dev->stats.queues;
}

/* kfd_queue_acquire_buffers for a queue of type `type` on gpu g (bufs[] filled). */
static int acquire_buffers(rdx_emudev *dev, uint32_t g, const struct kfd_ioctl_create_queue_args *a,
                           uint32_t ring_size, uint32_t type, emu_bo **bufs)
{
    if (!(bufs[BUF_WPTR] = queue_buffer(dev, g, a->write_pointer_address, EMU_PAGE)) ||
        !(bufs[BUF_RPTR] = queue_buffer(dev, g, a->read_pointer_address, EMU_PAGE)) ||
        !(bufs[BUF_RING] = queue_buffer(dev, g, a->ring_base_address, ring_size)))
        return -EINVAL;
    if (type != KFD_IOC_QUEUE_TYPE_COMPUTE)
        return 0;
    if (a->eop_buffer_address) {
        if (a->eop_buffer_size != EMU_EOP_BUFFER_SIZE ||
            !(bufs[BUF_EOP] = queue_buffer(dev, g, a->eop_buffer_address, a->eop_buffer_size)))
            return -EINVAL;
    }
    const emu_target *t = dev->gpus[g].t;
    if (a->ctl_stack_size != emu_ctl_stack_size(t) || a->ctx_save_restore_size != emu_cwsr_size(t))
        return -EINVAL;
    uint64_t total = (uint64_t)emu_cwsr_size(t) + emu_debug_memory_size(t);
    total = (total + EMU_PAGE - 1) & ~(EMU_PAGE - 1);
    if (!(bufs[BUF_CWSR] = queue_buffer(dev, g, a->ctx_save_restore_address, total)))
        return -EINVAL;
    return 0;
}

/* The process's KFD queue `id`, or NULL (the DRM path's kernel rings share the table but
 * are no KFD queue: DESTROY_QUEUE and UPDATE_QUEUE do not know them). */
static emu_queue *process_queue(rdx_emudev *dev, uint32_t id)
{
    emu_queue *q = id < EMU_MAX_QUEUES ? dev->queues[id] : NULL;
    return q && !q->kernel ? q : NULL;
}

static uint32_t sdma_queues(rdx_emudev *dev, uint32_t g)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < EMU_MAX_QUEUES; i++)
        n += dev->queues[i] && !dev->queues[i]->kernel && dev->queues[i]->gpu == g &&
             dev->queues[i]->type == KFD_IOC_QUEUE_TYPE_SDMA;
    return n;
}

static int create_queue(rdx_emudev *dev, struct emu_create_queue_args *ext)
{
    struct kfd_ioctl_create_queue_args *a = &ext->base;
    /* set_queue_properties_from_user */
    if ((a->queue_percentage & 0xff) > KFD_MAX_QUEUE_PERCENTAGE ||
        a->queue_priority > KFD_MAX_QUEUE_PRIORITY)
        return -EINVAL;
    if (a->ring_base_address && !user_ok(a->ring_base_address, 8))
        return -EFAULT;
    if (a->ring_size & (a->ring_size - 1))
        return -EINVAL;
    uint32_t ring_size =
        a->ring_size < KFD_MIN_QUEUE_RING_SIZE ? KFD_MIN_QUEUE_RING_SIZE : a->ring_size;
    a->ring_size = ring_size; /* the kernel writes the clamped size back */
    if (!user_ok(a->read_pointer_address, 4) || !user_ok(a->write_pointer_address, 4) ||
        (a->eop_buffer_address && !user_ok(a->eop_buffer_address, 4)) ||
        (a->ctx_save_restore_address && !user_ok(a->ctx_save_restore_address, 4)))
        return -EFAULT;
    uint32_t type = a->queue_type;
    if (type != KFD_IOC_QUEUE_TYPE_COMPUTE && type != KFD_IOC_QUEUE_TYPE_SDMA &&
        type != KFD_IOC_QUEUE_TYPE_SDMA_XGMI && type != KFD_IOC_QUEUE_TYPE_COMPUTE_AQL &&
        (type != EMU_QUEUE_TYPE_SDMA_BY_ENG || dev->legacy_sysfs))
        return -EMU_ENOTSUPP;
    int g = emu_gpu_by_id(dev, a->gpu_id);
    if (g < 0)
        return -EINVAL;
    if (!emu_vm_bound(dev, (uint32_t)g))
        return -ESRCH; /* kfd_bind_process_to_device failed */
    uint32_t engines = dev->gpus[g].t->sdma_engines;
    if (type == EMU_QUEUE_TYPE_SDMA_BY_ENG && ext->sdma_engine_id > engines - 1)
        return -EINVAL;
    if (type == KFD_IOC_QUEUE_TYPE_COMPUTE_AQL)
        return -EOPNOTSUPP; /* emulator: the CP runs PM4 rings */
    int compute = type == KFD_IOC_QUEUE_TYPE_COMPUTE;
    emu_bo *bufs[5] = { 0 };
    if (!dev->legacy_sysfs) {
        int r = acquire_buffers(dev, (uint32_t)g, a, ring_size, type, bufs);
        if (r)
            return r;
    } else if (!emu_bo_find(dev, (uint32_t)g, a->ring_base_address, ring_size) ||
               !emu_bo_find(dev, (uint32_t)g, a->read_pointer_address, 8) ||
               !emu_bo_find(dev, (uint32_t)g, a->write_pointer_address, 8)) {
        /* emulator: Linux 6.1 takes any addresses; the emulated CP must reach them */
        return -EINVAL;
    }
    uint32_t id = 0;
    while (id < EMU_MAX_QUEUES && dev->queues[id])
        id++;
    if (id == EMU_MAX_QUEUES)
        return -ENOMEM; /* KFD_MAX_NUM_OF_QUEUES_PER_PROCESS */
    if (!compute && sdma_queues(dev, (uint32_t)g) >= engines * EMU_SDMA_QUEUES_PER_ENGINE)
        return -ENOMEM; /* allocate_sdma_queue: every SDMA queue of the device is taken */
    emu_queue *q = calloc(1, sizeof *q);
    if (!q)
        return -ENOMEM;
    q->id = id;
    q->gpu = (uint32_t)g;
    q->type = compute ? KFD_IOC_QUEUE_TYPE_COMPUTE : KFD_IOC_QUEUE_TYPE_SDMA;
    q->ring = a->ring_base_address;
    q->ring_size = ring_size;
    q->rptr_addr = a->read_pointer_address;
    q->wptr_addr = a->write_pointer_address;
    q->doorbell_index = id;
    q->percent = a->queue_percentage & 0xff;
    q->inactive = q->percent == 0;
    for (int i = 0; i < 5; i++)
        if ((q->bufs[i] = bufs[i]) != NULL)
            bufs[i]->queue_refs++;
    dev->gpus[g].doorbell[id] = 0;
    *(volatile uint64_t *)(uintptr_t)q->rptr_addr = 0;
    dev->queues[id] = q;
    dev->stats.queues++;
    emu_cp_kick(dev, (uint32_t)g); /* its command processor may sleep without a timeout */
    a->queue_id = id;
    a->doorbell_offset =
        EMU_MMAP_TYPE_DOORBELL | EMU_MMAP_GPU_ID(a->gpu_id) | (uint64_t)id * sizeof(uint64_t);
    return 0;
}

/* kfd_ioctl_update_queue and pqm_update_queue_properties: a new ring (0 disables the queue),
 * percentage and priority. */
static int update_queue(rdx_emudev *dev, struct kfd_ioctl_update_queue_args *a)
{
    if ((a->queue_percentage & 0xff) > KFD_MAX_QUEUE_PERCENTAGE ||
        a->queue_priority > KFD_MAX_QUEUE_PRIORITY)
        return -EINVAL;
    if (a->ring_base_address && !user_ok(a->ring_base_address, 8))
        return -EFAULT;
    if (a->ring_size & (a->ring_size - 1))
        return -EINVAL;
    uint32_t ring_size =
        a->ring_size < KFD_MIN_QUEUE_RING_SIZE ? KFD_MIN_QUEUE_RING_SIZE : a->ring_size;
    emu_queue *q = process_queue(dev, a->queue_id);
    if (!q)
        return -EFAULT; /* "No queue %d exists for update operation" */
    emu_bo *ring = NULL;
    if (a->ring_base_address) {
        ring = dev->legacy_sysfs ? emu_bo_find(dev, q->gpu, a->ring_base_address, ring_size)
                                 : queue_buffer(dev, q->gpu, a->ring_base_address, ring_size);
        if (!ring)
            return -EFAULT; /* "ring buf ... not mapped on GPU" */
    }
    if (q->bufs[BUF_RING])
        q->bufs[BUF_RING]->queue_refs--;
    q->bufs[BUF_RING] = dev->legacy_sysfs ? NULL : ring;
    if (q->bufs[BUF_RING])
        q->bufs[BUF_RING]->queue_refs++;
    q->percent = a->queue_percentage & 0xff;
    int was_inactive = q->inactive;
    q->inactive = !a->ring_base_address || q->percent == 0;
    if (was_inactive && !q->inactive) { /* work written meanwhile runs now, as after a remap */
        emu_cp_kick(dev, q->gpu);
    }
    if (a->ring_base_address && (a->ring_base_address != q->ring || ring_size != q->ring_size)) {
        /* the read and write pointers carry on (the MQD keeps them) */
        q->ring = a->ring_base_address;
        q->ring_size = ring_size;
        free(q->linear);
        q->linear = NULL;
    }
    return 0;
}

int emu_ioctl_queue(rdx_emudev *dev, unsigned long request, void *arg)
{
    if (request == AMDKFD_IOC_CREATE_QUEUE)
        return create_queue(dev, arg);
    if (request == AMDKFD_IOC_UPDATE_QUEUE)
        return update_queue(dev, arg);
    struct kfd_ioctl_destroy_queue_args *a = arg;
    emu_queue *q = process_queue(dev, a->queue_id);
    if (!q)
        return -EINVAL;
    queue_free(dev, q);
    return 0;
}

uint32_t emu_queue_ioctl_gpus(rdx_emudev *dev, unsigned long request, const void *arg)
{
    if (request == AMDKFD_IOC_CREATE_QUEUE || request == EMU_IOC_CREATE_QUEUE) {
        int g = emu_gpu_by_id(dev, ((const struct kfd_ioctl_create_queue_args *)arg)->gpu_id);
        return g < 0 ? EMU_ALL_GPUS : 1u << g;
    }
    uint32_t id = request == AMDKFD_IOC_UPDATE_QUEUE
                      ? ((const struct kfd_ioctl_update_queue_args *)arg)->queue_id
                      : ((const struct kfd_ioctl_destroy_queue_args *)arg)->queue_id;
    const emu_queue *q = process_queue(dev, id);
    return q ? 1u << q->gpu : EMU_ALL_GPUS;
}

void emu_queue_mark_destroying(rdx_emudev *dev, const void *arg)
{
    const struct kfd_ioctl_destroy_queue_args *a = arg;
    emu_queue *q = process_queue(dev, a->queue_id);
    if (q)
        __atomic_store_n(&q->destroying, 1, __ATOMIC_RELEASE);
}

void emu_queue_cancel_all(rdx_emudev *dev)
{
    for (uint32_t i = 0; i < EMU_MAX_QUEUES; i++)
        if (dev->queues[i])
            __atomic_store_n(&dev->queues[i]->destroying, 1, __ATOMIC_RELEASE);
}

void emu_queue_release_all(rdx_emudev *dev)
{
    for (uint32_t i = 0; i < EMU_MAX_QUEUES; i++)
        if (dev->queues[i])
            queue_free(dev, dev->queues[i]);
}
