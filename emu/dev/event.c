/*
 * emu/dev/event.c — KFD events: CREATE/DESTROY/SET/RESET/WAIT_EVENTS and the
 * interrupts that set them.
 *
 * As in the kernel: signal events have ids 1..4095 equal to their slot in
 * the event page (id 0 is reserved; a client buffer object passed as
 * event_page_offset with the first event, whose size bounds the ids, otherwise
 * an internal page of 256 slots the GPU cannot write); events of every other
 * type have ids from 0x80000000.  Only signal events can be set and reset from
 * the CPU.  KFD 1.14's event age: a waiter that passes the age it last saw is
 * woken at once when the event was set since.  An end-of-pipe interrupt with context id
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

/* kfd_event_data's signal_event_data.last_event_age (KFD 1.14), the union's first 8 bytes. */
static uint64_t age_of(const struct kfd_event_data *d)
{
    uint64_t v;
    memcpy(&v, &d->memory_exception_data, sizeof v);
    return v;
}

static void set_event(rdx_emudev *dev, emu_event *e)
{
    e->signaled = 1;
    e->age++;
    if (is_signal(e) && dev->event_page)
        dev->event_page[e->id] = EMU_UNSIGNALED_SLOT;
    pthread_cond_broadcast(&dev->ev_cond);
}

static int set_event_page(rdx_emudev *dev, uint64_t handle)
{
    if (dev->event_page)
        return -EINVAL; /* "Event page is already set" (the kernel's own one too) */
    int g = emu_gpu_by_id(dev, (uint32_t)(handle >> 32));
    if (g < 0)
        return -EINVAL;
    if (!emu_vm_bound(dev, (uint32_t)g))
        return -ENODEV; /* kfd_bind_process_to_device */
    emu_bo *b = emu_bo_by_handle(dev, handle);
    if (!b || !(b->flags & (KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_VRAM)))
        return -EINVAL; /* userptr (and other kinds) cannot be mapped to the kernel */
    if (b->size < KFD_SIGNAL_EVENT_LIMIT * 8)
        return -EINVAL; /* emulator: the kernel would clear 32 KiB past a smaller buffer */
    /* The driver's own view of the page (like the kernel's kmap): valid whatever
     * the client does with its mappings. */
    void *view = mmap(NULL, KFD_SIGNAL_EVENT_LIMIT * 8, PROT_READ | PROT_WRITE, MAP_SHARED,
                      dev->pool_fd, (off_t)b->pool_off);
    if (view == MAP_FAILED)
        return -ENOMEM;
    uint64_t *slots = view;
    for (uint32_t i = 0; i < KFD_SIGNAL_EVENT_LIMIT; i++)
        slots[i] = EMU_UNSIGNALED_SLOT;
    dev->event_page_bo = b;
    dev->event_page = slots;
    dev->event_slots = KFD_SIGNAL_EVENT_LIMIT;
    return 0;
}

static int create_event(rdx_emudev *dev, struct kfd_ioctl_create_event_args *a)
{
    if (a->event_page_offset) {
        int r = set_event_page(dev, a->event_page_offset);
        if (r)
            return r;
    }
    emu_event *e = NULL;
    uint32_t id = 0;
    if (a->event_type == KFD_IOC_EVENT_SIGNAL || a->event_type == KFD_IOC_EVENT_DEBUG_EVENT) {
        if (!dev->event_page) { /* the kernel's own page: 256 slots */
            for (uint32_t i = 0; i < KFD_SIGNAL_EVENT_LIMIT; i++)
                dev->internal_page[i] = EMU_UNSIGNALED_SLOT;
            dev->event_page = dev->internal_page;
            dev->event_slots = 256;
        }
        if (dev->signal_events + 1 >= dev->event_slots)
            return -ENOSPC; /* create_signal_event: the page's slots are used up (id 0 too) */
        for (id = 1; id < dev->event_slots && dev->events[id].used; id++)
            ;
        if (id >= dev->event_slots)
            return -ENOSPC;
        e = &dev->events[id];
        dev->signal_events++;
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
 * -EINVAL for an event id that names no event.  With KFD 1.14's event age, a signal event
 * whose waiter passed an age other than the event's counts as set. */
static int check_events(rdx_emudev *dev, struct kfd_ioctl_wait_events_args *a,
                        struct kfd_event_data *data)
{
    uint32_t fired = 0;
    for (uint32_t i = 0; i < a->num_events; i++) {
        emu_event *e = lookup(dev, data[i].event_id);
        if (!e)
            return -EINVAL;
        uint64_t age = dev->legacy_sysfs ? 0 : age_of(&data[i]);
        fired += e->signaled || (e->type == KFD_IOC_EVENT_SIGNAL && age && age != e->age);
    }
    if (a->wait_for_all ? fired < a->num_events : fired == 0 && a->num_events)
        return 0;
    for (uint32_t i = 0; i < a->num_events; i++) {
        emu_event *e = lookup(dev, data[i].event_id);
        uint64_t age = dev->legacy_sysfs ? 0 : age_of(&data[i]);
        if (e->type == KFD_IOC_EVENT_SIGNAL && age)
            memcpy(&data[i].memory_exception_data, &e->age, sizeof e->age);
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

/* More events than the kernel allocates waiters for (kmalloc_array's limit). */
#define WAIT_MAX_EVENTS (1u << 16)

static int wait_events(rdx_emudev *dev, struct kfd_ioctl_wait_events_args *a)
{
    a->wait_result = KFD_IOC_WAIT_RESULT_FAIL;
    if (a->num_events > WAIT_MAX_EVENTS)
        return -ENOMEM;
    size_t bytes = (size_t)a->num_events * sizeof(struct kfd_event_data);
    struct kfd_event_data *data = malloc(bytes ? bytes : 1);
    if (!data)
        return -ENOMEM;
    if (emu_copy_from_user(data, a->events_ptr, bytes)) {
        free(data);
        return -EFAULT;
    }
    int infinite = a->timeout == 0xffffffffu;
    int64_t deadline = now_ns() + (int64_t)a->timeout * 1000000;
    int r, first = 1;
    for (;;) {
        r = check_events(dev, a, data);
        if (r < 0) {
            if (!first)
                r = -EIO; /* an event was destroyed while waited for: KFD_IOC_WAIT_RESULT_FAIL */
            break;
        }
        first = 0;
        if (r > 0) {
            a->wait_result = KFD_IOC_WAIT_RESULT_COMPLETE;
            r = emu_copy_to_user(a->events_ptr, data, bytes) ? -EFAULT : 0;
            if (r)
                a->wait_result = KFD_IOC_WAIT_RESULT_FAIL;
            break;
        }
        int64_t t = now_ns();
        if (!infinite && t >= deadline) {
            a->wait_result = KFD_IOC_WAIT_RESULT_TIMEOUT;
            r = 0;
            break;
        }
        /* Kick the command processor (a client that rang a doorbell and waits always
         * comes here), then sleep until an event is set: set_event wakes this thread. */
        emu_cp_kick(dev, EMU_ALL_GPUS);
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
        if (is_signal(e))
            dev->signal_events--;
        pthread_cond_broadcast(&dev->ev_cond); /* its waiters fail */
        return 0;
    }
    if (e->type != KFD_IOC_EVENT_SIGNAL)
        return -EINVAL; /* event_can_be_cpu_signaled */
    if (request == AMDKFD_IOC_SET_EVENT)
        set_event(dev, e);
    else
        e->signaled = 0;
    return 0;
}

void emu_event_interrupt(rdx_emudev *dev, uint32_t ctxid, uint32_t valid_bits)
{
    pthread_cond_broadcast(&dev->ev_cond); /* the DRM fence waits (emu/dev/drm_cs.c) */
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
    dev->signal_events = 0;
    if (dev->event_page == dev->internal_page)
        dev->event_page = NULL;
}

int emu_event_mmap(rdx_emudev *dev, void *addr, size_t len, int prot, int flags, void **out)
{
    /* kfd_event_mmap: at most the page's 32 KiB (get_order of the size), and only once the
     * process has an event page (its own from CREATE_EVENT, or the kernel's). */
    if (!len || len > KFD_SIGNAL_EVENT_LIMIT * 8 || !dev->event_page)
        return -EINVAL;
    uint64_t off = dev->event_page_bo ? dev->event_page_bo->pool_off : dev->internal_off;
    void *p = mmap(addr, len, prot, flags, dev->pool_fd, (off_t)off);
    if (p == MAP_FAILED)
        return -errno;
    *out = p;
    return 0;
}

void emu_event_page_release(rdx_emudev *dev)
{
    if (dev->event_page_bo)
        munmap(dev->event_page, KFD_SIGNAL_EVENT_LIMIT * 8);
    dev->event_page_bo = NULL;
    dev->event_page = NULL;
}
