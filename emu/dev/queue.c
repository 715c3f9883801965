/*
 * emu/dev/queue.c — AMDKFD_IOC_CREATE_QUEUE / DESTROY_QUEUE.
 *
 * Argument checks follow the kernel (set_queue_properties_from_user and the
 * queue buffer validation of kfd_queue.c): percentages, priorities, a
 * power-of-two ring (smaller than 1 KiB is clamped), ring and pointers inside
 * GPU-mapped buffers, and for compute queues the EOP size and context-save
 * sizes equal to the node's sysfs values.  The emulated command processor
 * runs PM4 compute rings and SDMA rings; AQL queues are refused (EOPNOTSUPP).
 */
#include "emu/dev/emudev.h"

#include <errno.h>
#include <stdlib.h>

static int mapped(rdx_emudev *dev, uint32_t gpu, uint64_t va, uint64_t len)
{
    return va && emu_bo_find(dev, gpu, va, len) != NULL;
}

static void queue_free(rdx_emudev *dev, emu_queue *q)
{
    dev->queues[q->id] = NULL;
    dev->stats.queues--;
    free(q->uconfig_regs);
    free(q->linear);
    free(q);
}

static int create_queue(rdx_emudev *dev, struct kfd_ioctl_create_queue_args *a)
{
    int g = emu_gpu_by_id(dev, a->gpu_id);
    if (g < 0)
        return -EINVAL;
    if ((a->queue_percentage & 0xff) > KFD_MAX_QUEUE_PERCENTAGE ||
        a->queue_priority > KFD_MAX_QUEUE_PRIORITY)
        return -EINVAL;
    if (a->ring_size & (a->ring_size - 1))
        return -EINVAL;
    uint32_t ring_size =
        a->ring_size < KFD_MIN_QUEUE_RING_SIZE ? KFD_MIN_QUEUE_RING_SIZE : a->ring_size;
    uint32_t type = a->queue_type;
    if (type == KFD_IOC_QUEUE_TYPE_COMPUTE_AQL)
        return -EOPNOTSUPP;
    if (type != KFD_IOC_QUEUE_TYPE_COMPUTE && type != KFD_IOC_QUEUE_TYPE_SDMA &&
        type != KFD_IOC_QUEUE_TYPE_SDMA_XGMI)
        return -EINVAL;
    if (dev->gpus[g].vm_fd < 0)
        return -EINVAL;
    if (!mapped(dev, (uint32_t)g, a->ring_base_address, ring_size) ||
        !mapped(dev, (uint32_t)g, a->read_pointer_address, 8) ||
        !mapped(dev, (uint32_t)g, a->write_pointer_address, 8))
        return -EINVAL;
    if (type == KFD_IOC_QUEUE_TYPE_COMPUTE) {
        if (a->eop_buffer_size != EMU_EOP_BUFFER_SIZE ||
            !mapped(dev, (uint32_t)g, a->eop_buffer_address, a->eop_buffer_size))
            return -EINVAL;
        if (a->ctx_save_restore_size != emu_cwsr_size() ||
            a->ctl_stack_size != emu_ctl_stack_size() ||
            !mapped(dev, (uint32_t)g, a->ctx_save_restore_address,
                    (uint64_t)emu_cwsr_size() + emu_debug_memory_size()))
            return -EINVAL;
    }
    uint32_t id = 0;
    while (id < EMU_MAX_QUEUES && dev->queues[id])
        id++;
    if (id == EMU_MAX_QUEUES)
        return -ENOMEM;
    emu_queue *q = calloc(1, sizeof *q);
    if (!q)
        return -ENOMEM;
    q->id = id;
    q->gpu = (uint32_t)g;
    q->type =
        type == KFD_IOC_QUEUE_TYPE_COMPUTE ? KFD_IOC_QUEUE_TYPE_COMPUTE : KFD_IOC_QUEUE_TYPE_SDMA;
    q->ring = a->ring_base_address;
    q->ring_size = ring_size;
    q->rptr_addr = a->read_pointer_address;
    q->wptr_addr = a->write_pointer_address;
    q->doorbell_index = id;
    dev->gpus[g].doorbell[id] = 0;
    *(volatile uint64_t *)(uintptr_t)q->rptr_addr = 0;
    dev->queues[id] = q;
    dev->stats.queues++;
    a->queue_id = id;
    a->doorbell_offset =
        EMU_MMAP_TYPE_DOORBELL | EMU_MMAP_GPU_ID(a->gpu_id) | (uint64_t)id * sizeof(uint64_t);
    return 0;
}

int emu_ioctl_queue(rdx_emudev *dev, unsigned long request, void *arg)
{
    if (request == AMDKFD_IOC_CREATE_QUEUE)
        return create_queue(dev, arg);
    struct kfd_ioctl_destroy_queue_args *a = arg;
    if (a->queue_id >= EMU_MAX_QUEUES || !dev->queues[a->queue_id])
        return -EINVAL;
    queue_free(dev, dev->queues[a->queue_id]);
    return 0;
}

void emu_queue_mark_destroying(rdx_emudev *dev, const void *arg)
{
    const struct kfd_ioctl_destroy_queue_args *a = arg;
    if (a->queue_id < EMU_MAX_QUEUES && dev->queues[a->queue_id])
        __atomic_store_n(&dev->queues[a->queue_id]->destroying, 1, __ATOMIC_RELEASE);
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
