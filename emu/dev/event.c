/*
 * emu/dev/event.c — KFD events: CREATE/DESTROY/SET/RESET/WAIT_EVENTS and the
 * interrupts that set them.
 *
 * As in the kernel: signal events have ids 0..4095 equal to their slot in
 * the event page (a client buffer object passed as event_page_offset with the
 * first event; otherwise an internal page the GPU cannot write); other
 * events have ids from 0x80000000.  An end-of-pipe interrupt with context id
 * N sets event N if its slot was written (not UINT64_MAX), otherwise every
 * signal event whose slot was written; setting resets the slot.
 */
#include "emu/dev/emudev.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static emu_event *lookup(rdx_emudev *dev, uint32_t id)
{
    uint32_t idx;
    if (id < KFD_SIGNAL_EVENT_LIMIT)
        idx = id;
    else if (id >= EMU_NONSIGNAL_ID &&
             id - EMU_NONSIGNAL_ID < EMU_MAX_EVENTS - KFD_SIGNAL_EVENT_LIMIT)
        idx = KFD_SIGNAL_EVENT_LIMIT + (id - EMU_NONSIGNAL_ID);
    else
        return NULL;
    emu_event *e = &dev->events[idx];
    return e->used ? e : NULL;
}

static int is_signal(const emu_event *e)
{
    return e->type == KFD_IOC_EVENT_SIGNAL || e->type == KFD_IOC_EVENT_DEBUG_EVENT;
}

static void set_event(rdx_emudev *dev, emu_event *e)
{
    e->signaled = 1;
    if (is_signal(e) && dev->event_page)
        dev->event_page[e->id] = EMU_UNSIGNALED_SLOT;
    pthread_cond_broadcast(&dev->ev_cond);
}

static int set_event_page(rdx_emudev *dev, uint64_t handle)
{
    if (dev->event_page_bo)
        return -EINVAL; /* "Event page is already set" */
    if (emu_gpu_by_id(dev, (uint32_t)(handle >> 32)) < 0)
        return -EINVAL;
    emu_bo *b = emu_bo_by_handle(dev, handle);
    if (!b || b->size < KFD_SIGNAL_EVENT_LIMIT * 8 ||
        !(b->flags & (KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_VRAM)))
        return -EINVAL;
    /* The driver's own view of the page (like the kernel's kmap): valid whatever
     * the client does with its mappings. */
    void *view = mmap(NULL, KFD_SIGNAL_EVENT_LIMIT * 8, PROT_READ | PROT_WRITE, MAP_SHARED,
                      dev->pool_fd, (off_t)b->pool_off);
    if (view == MAP_FAILED)
        return -ENOMEM;
    uint64_t *slots = view;
    /* Carry over slots of events created before the page was set. */
    for (uint32_t i = 0; i < KFD_SIGNAL_EVENT_LIMIT; i++)
        slots[i] = dev->event_page ? dev->event_page[i] : EMU_UNSIGNALED_SLOT;
    dev->event_page_bo = b;
    dev->event_page = slots;
    return 0;
}

static int create_event(rdx_emudev *dev, struct kfd_ioctl_create_event_args *a)
{
    if (a->event_type > KFD_IOC_EVENT_MEMORY)
        return -EINVAL;
    if (a->event_page_offset) {
        int r = set_event_page(dev, a->event_page_offset);
        if (r)
            return r;
    }
    emu_event *e = NULL;
    uint32_t id = 0;
    if (a->event_type == KFD_IOC_EVENT_SIGNAL || a->event_type == KFD_IOC_EVENT_DEBUG_EVENT) {
        for (id = 0; id < KFD_SIGNAL_EVENT_LIMIT && dev->events[id].used; id++)
            ;
        if (id == KFD_SIGNAL_EVENT_LIMIT)
            return -ENOSPC;
        e = &dev->events[id];
        if (!dev->event_page) {
            for (uint32_t i = 0; i < KFD_SIGNAL_EVENT_LIMIT; i++)
                dev->internal_page[i] = EMU_UNSIGNALED_SLOT;
            dev->event_page = dev->internal_page;
        }
        dev->event_page[id] = EMU_UNSIGNALED_SLOT;
        a->event_page_offset = dev->event_page_bo ? a->event_page_offset : EMU_MMAP_TYPE_EVENTS;
        a->event_trigger_data = id;
        a->event_slot_index = id;
    } else {
        uint32_t k;
        for (k = KFD_SIGNAL_EVENT_LIMIT; k < EMU_MAX_EVENTS && dev->events[k].used; k++)
            ;
        if (k == EMU_MAX_EVENTS)
            return -ENOMEM;
        e = &dev->events[k];
        id = EMU_NONSIGNAL_ID + (k - KFD_SIGNAL_EVENT_LIMIT);
    }
    memset(e, 0, sizeof *e);
    e->used = 1;
    e->id = id;
    e->type = a->event_type;
    e->auto_reset = a->auto_reset != 0;
    a->event_id = id;
    dev->stats.events++;
    return 0;
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Whether the wait is over: 1 complete (data filled, auto-reset consumed), 0 not yet,
 * -EINVAL for an unknown event id. */
static int check_events(rdx_emudev *dev, struct kfd_ioctl_wait_events_args *a,
                        struct kfd_event_data *data)
{
    uint32_t fired = 0;
    for (uint32_t i = 0; i < a->num_events; i++) {
        emu_event *e = lookup(dev, data[i].event_id);
        if (!e)
            return -EINVAL;
        fired += e->signaled != 0;
    }
    if (a->wait_for_all ? fired < a->num_events : fired == 0)
        return 0;
    for (uint32_t i = 0; i < a->num_events; i++) {
        emu_event *e = lookup(dev, data[i].event_id);
        if (!e->signaled)
            continue;
        if (e->type == KFD_IOC_EVENT_MEMORY)
            data[i].memory_exception_data = e->mem;
        else if (e->type == KFD_IOC_EVENT_HW_EXCEPTION)
            data[i].hw_exception_data = e->hw;
        if (e->auto_reset)
            e->signaled = 0;
    }
    return 1;
}

static int wait_events(rdx_emudev *dev, struct kfd_ioctl_wait_events_args *a)
{
    if (a->num_events == 0 || a->num_events > EMU_MAX_EVENTS)
        return -EINVAL;
    size_t bytes = (size_t)a->num_events * sizeof(struct kfd_event_data);
    struct kfd_event_data *data = malloc(bytes);
    if (!data)
        return -ENOMEM;
    if (emu_copy_from_user(data, a->events_ptr, bytes)) {
        free(data);
        return -EFAULT;
    }
    int infinite = a->timeout == 0xffffffffu;
    int64_t deadline = now_ns() + (int64_t)a->timeout * 1000000;
    int r;
    for (;;) {
        r = check_events(dev, a, data);
        if (r < 0)
            break;
        if (r > 0) {
            a->wait_result = KFD_IOC_WAIT_RESULT_COMPLETE;
            r = emu_copy_to_user(a->events_ptr, data, bytes);
            break;
        }
        int64_t t = now_ns();
        if (!infinite && t >= deadline) {
            a->wait_result = KFD_IOC_WAIT_RESULT_TIMEOUT;
            break;
        }
        /* Kick the command processor (a client that rang a doorbell and waits always
         * comes here), then sleep until an event is set: set_event wakes this thread. */
        emu_cp_kick(dev);
        if (infinite) {
            pthread_cond_wait(&dev->ev_cond, &dev->lock);
        } else {
            struct timespec ts = { (time_t)(deadline / 1000000000), (long)(deadline % 1000000000) };
            pthread_cond_timedwait(&dev->ev_cond, &dev->lock, &ts);
        }
    }
    free(data);
    return r;
}

int emu_ioctl_event(rdx_emudev *dev, unsigned long request, void *arg)
{
    if (request == AMDKFD_IOC_CREATE_EVENT)
        return create_event(dev, arg);
    if (request == AMDKFD_IOC_WAIT_EVENTS)
        return wait_events(dev, arg);
    /* destroy, set and reset share the layout { event_id, pad } */
    struct kfd_ioctl_destroy_event_args *a = arg;
    emu_event *e = lookup(dev, a->event_id);
    if (!e)
        return -EINVAL;
    if (request == AMDKFD_IOC_DESTROY_EVENT) {
        e->used = 0;
        dev->stats.events--;
        return 0;
    }
    if (!is_signal(e))
        return -EINVAL;
    if (request == AMDKFD_IOC_SET_EVENT)
        set_event(dev, e);
    else
        e->signaled = 0;
    return 0;
}

void emu_event_interrupt(rdx_emudev *dev, uint32_t ctxid, uint32_t valid_bits)
{
    if (!dev->event_page)
        return;
    uint32_t mask = valid_bits >= 32 ? 0xffffffffu : (1u << valid_bits) - 1;
    emu_event *e = (ctxid & mask) < KFD_SIGNAL_EVENT_LIMIT ? lookup(dev, ctxid & mask) : NULL;
    if (e && is_signal(e) && dev->event_page[e->id] != EMU_UNSIGNALED_SLOT) {
        set_event(dev, e);
        return;
    }
    for (uint32_t i = 0; i < KFD_SIGNAL_EVENT_LIMIT; i++) {
        e = &dev->events[i];
        if (e->used && dev->event_page[i] != EMU_UNSIGNALED_SLOT)
            set_event(dev, e);
    }
}

void emu_event_memory_fault(rdx_emudev *dev, uint32_t gpu, uint64_t va, int write, int present)
{
    for (uint32_t i = KFD_SIGNAL_EVENT_LIMIT; i < EMU_MAX_EVENTS; i++) {
        emu_event *e = &dev->events[i];
        if (!e->used || e->type != KFD_IOC_EVENT_MEMORY)
            continue;
        memset(&e->mem, 0, sizeof e->mem);
        e->mem.va = va & ~(EMU_PAGE - 1); /* the kernel reports the page */
        e->mem.gpu_id = dev->gpus[gpu].gpu_id;
        e->mem.failure.NotPresent = !present;
        e->mem.failure.ReadOnly = present && write;
        e->mem.ErrorType = KFD_MEM_ERR_NO_RAS;
        set_event(dev, e);
    }
}

void emu_event_hw_exception(rdx_emudev *dev, uint32_t gpu)
{
    for (uint32_t i = KFD_SIGNAL_EVENT_LIMIT; i < EMU_MAX_EVENTS; i++) {
        emu_event *e = &dev->events[i];
        if (!e->used || e->type != KFD_IOC_EVENT_HW_EXCEPTION)
            continue;
        e->hw.reset_type = KFD_HW_EXCEPTION_PER_ENGINE_RESET;
        e->hw.reset_cause = KFD_HW_EXCEPTION_GPU_HANG;
        e->hw.memory_lost = 0;
        e->hw.gpu_id = dev->gpus[gpu].gpu_id;
        set_event(dev, e);
    }
}

void emu_event_release_all(rdx_emudev *dev)
{
    memset(dev->events, 0, EMU_MAX_EVENTS * sizeof *dev->events);
    dev->stats.events = 0;
    if (dev->event_page == dev->internal_page)
        dev->event_page = NULL;
}

void emu_event_page_release(rdx_emudev *dev)
{
    if (dev->event_page_bo)
        munmap(dev->event_page, KFD_SIGNAL_EVENT_LIMIT * 8);
    dev->event_page_bo = NULL;
    dev->event_page = NULL;
}
