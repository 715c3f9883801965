/*
 * kfd/event.c — KFD events: AMDKFD_IOC_CREATE_EVENT (signal, memory-fault,
 * hardware-exception), SET/RESET, WAIT_EVENTS and DESTROY_EVENT.
 *
 * Signal events live in the process event page: a GTT allocation of
 * KFD_SIGNAL_EVENT_LIMIT 64-bit slots on the first GPU, handed to the kernel
 * (event_page_offset = its handle) with the first signal event, as libhsakmt
 * does for discrete GPUs.  A RELEASE_MEM that writes the event id to the
 * event's slot and raises an interrupt with that id sets the event.
 */
#include "kfd/internal.h"

#include <stdlib.h>
#include <string.h>

#include <linux/kfd_ioctl.h>

static rdx_status event_page(rdx_kfd *k, rdx_kfd_mem **fresh)
{
    *fresh = NULL;
    if (k->event_page)
        return RDX_OK;
    rdx_kfd_mem_desc d = { .kind = RDX_KFD_MEM_GTT,
                           .size = KFD_SIGNAL_EVENT_LIMIT * 8,
                           .flags = RDX_KFD_MEM_UNCACHED | RDX_KFD_MEM_ALL_GPUS,
                           .userptr = NULL };
    rdx_status st = rdx_kfd_mem_alloc(k, 0, &d, fresh);
    if (st != RDX_OK)
        return rdx_fail_context(st, "event page");
    memset(rdx_kfd_mem_cpu(*fresh), 0xff, KFD_SIGNAL_EVENT_LIMIT * 8);
    return RDX_OK;
}

rdx_status rdx_kfd_event_create(rdx_kfd *k, rdx_kfd_event_kind kind, int auto_reset,
                                rdx_kfd_event **out)
{
    if (k->drm)
        return rdx_kfd_drm_event_create(k, kind, auto_reset, out);
    uint32_t type;
    switch (kind) {
    case RDX_KFD_EVENT_SIGNAL:
        type = KFD_IOC_EVENT_SIGNAL;
        break;
    case RDX_KFD_EVENT_MEMORY:
        type = KFD_IOC_EVENT_MEMORY;
        break;
    case RDX_KFD_EVENT_HW_EXCEPTION:
        type = KFD_IOC_EVENT_HW_EXCEPTION;
        break;
    default:
        return rdx_fail(RDX_ERR_INVALID, "rdx_kfd_event_create: unknown event kind %d", kind);
    }
    rdx_kfd_event *e = calloc(1, sizeof *e);
    if (!e)
        return rdx_fail(RDX_ERR_NOMEM, "rdx_kfd_event_create: out of memory");
    pthread_mutex_lock(&k->event_lock); /* the event page is handed over exactly once */
    rdx_kfd_mem *fresh = NULL;
    rdx_status st = RDX_OK;
    if (kind == RDX_KFD_EVENT_SIGNAL)
        st = event_page(k, &fresh);
    struct kfd_ioctl_create_event_args a = { 0 };
    a.event_type = type;
    a.auto_reset = auto_reset != 0;
    a.event_page_offset = fresh ? rdx_kfd_mem_handle(fresh) : 0;
    if (st == RDX_OK)
        st = RDX_KFD_IOCTL(k->os, k->fd, AMDKFD_IOC_CREATE_EVENT, &a);
    if (st == RDX_OK && fresh) {
        k->event_page = fresh;
        fresh = NULL;
    }
    if (st == RDX_OK) {
        e->kind = kind;
        e->id = a.event_id;
        e->slot = a.event_slot_index;
        if (kind == RDX_KFD_EVENT_SIGNAL) {
            if (e->slot >= KFD_SIGNAL_EVENT_LIMIT)
                st = rdx_fail(RDX_ERR_DEVICE, "AMDKFD_IOC_CREATE_EVENT: slot %u out of range",
                              e->slot);
            else
                e->mailbox = rdx_kfd_mem_gpu_addr(k->event_page) + 8ull * e->slot;
        }
    }
    pthread_mutex_unlock(&k->event_lock);
    if (st == RDX_OK) {
        pthread_mutex_lock(&k->lock);
        k->live_events++;
        pthread_mutex_unlock(&k->lock);
    }
    if (fresh)
        rdx_kfd_mem_free(k, fresh);
    if (st != RDX_OK) {
        free(e);
        return st;
    }
    *out = e;
    return RDX_OK;
}

rdx_status rdx_kfd_event_destroy(rdx_kfd *k, rdx_kfd_event *e)
{
    if (!e)
        return RDX_OK;
    if (k->drm)
        return rdx_kfd_drm_event_destroy(k, e);
    struct kfd_ioctl_destroy_event_args a = { .event_id = e->id, .pad = 0 };
    rdx_status st = RDX_KFD_IOCTL(k->os, k->fd, AMDKFD_IOC_DESTROY_EVENT, &a);
    pthread_mutex_lock(&k->lock);
    k->live_events--;
    pthread_mutex_unlock(&k->lock);
    free(e);
    return st;
}

rdx_status rdx_kfd_event_set(rdx_kfd *k, rdx_kfd_event *e)
{
    if (k->drm)
        return rdx_kfd_drm_event_set(k, e, 1);
    struct kfd_ioctl_set_event_args a = { .event_id = e->id, .pad = 0 };
    return RDX_KFD_IOCTL(k->os, k->fd, AMDKFD_IOC_SET_EVENT, &a);
}

rdx_status rdx_kfd_event_reset(rdx_kfd *k, rdx_kfd_event *e)
{
    if (k->drm)
        return rdx_kfd_drm_event_set(k, e, 0);
    struct kfd_ioctl_reset_event_args a = { .event_id = e->id, .pad = 0 };
    return RDX_KFD_IOCTL(k->os, k->fd, AMDKFD_IOC_RESET_EVENT, &a);
}

uint32_t rdx_kfd_event_id(const rdx_kfd_event *e)
{
    return e->id;
}

uint64_t rdx_kfd_event_mailbox(const rdx_kfd_event *e)
{
    return e->mailbox;
}

/* The gpu_id of the fault this thread's last rdx_kfd_event_wait reported. */
static _Thread_local uint32_t last_fault_gpu;

uint32_t rdx_kfd_last_fault_gpu(void)
{
    return last_fault_gpu;
}

static rdx_status fault_message(const struct kfd_event_data *d, rdx_kfd_event_kind kind)
{
    if (kind == RDX_KFD_EVENT_MEMORY) {
        const struct kfd_hsa_memory_exception_data *m = &d->memory_exception_data;
        last_fault_gpu = m->gpu_id;
        return rdx_fail(RDX_ERR_FAULT, "GPU memory fault on gpu %u at address 0x%llx (%s%s%s%s)",
                        m->gpu_id, (unsigned long long)m->va,
                        m->failure.NotPresent ? "page not present" : "",
                        m->failure.ReadOnly ? "write to a read-only page" : "",
                        m->failure.NoExecute ? "execute of a no-execute page" : "",
                        m->failure.imprecise ? ", address imprecise" : "");
    }
    const struct kfd_hsa_hw_exception_data *h = &d->hw_exception_data;
    last_fault_gpu = h->gpu_id;
    return rdx_fail(RDX_ERR_FAULT, "GPU hardware exception on gpu %u: %s (%s reset%s)", h->gpu_id,
                    h->reset_cause == KFD_HW_EXCEPTION_ECC ? "ECC error" : "GPU hang",
                    h->reset_type == KFD_HW_EXCEPTION_WHOLE_GPU_RESET ? "whole-GPU" : "per-engine",
                    h->memory_lost ? ", memory lost" : "");
}

rdx_status rdx_kfd_event_wait(rdx_kfd *k, rdx_kfd_event *const *events, uint32_t n, int wait_all,
                              uint32_t timeout_ms)
{
    if (k->drm)
        return rdx_kfd_drm_event_wait(k, events, n, wait_all, timeout_ms);
    if (n == 0 || !events)
        return rdx_fail(RDX_ERR_INVALID, "rdx_kfd_event_wait: no events");
    struct kfd_event_data *d = calloc(n, sizeof *d);
    if (!d)
        return rdx_fail(RDX_ERR_NOMEM, "rdx_kfd_event_wait: out of memory");
    for (uint32_t i = 0; i < n; i++)
        d[i].event_id = events[i]->id;
    struct kfd_ioctl_wait_events_args a = { 0 };
    a.events_ptr = (uint64_t)(uintptr_t)d;
    a.num_events = n;
    a.wait_for_all = wait_all != 0;
    a.timeout = timeout_ms;
    rdx_status st = RDX_KFD_IOCTL(k->os, k->fd, AMDKFD_IOC_WAIT_EVENTS, &a);
    if (st == RDX_OK && a.wait_result == KFD_IOC_WAIT_RESULT_TIMEOUT)
        st =
            rdx_fail(RDX_ERR_TIMEOUT,
                     "AMDKFD_IOC_WAIT_EVENTS: %u event(s) not signaled after %u ms", n, timeout_ms);
    else if (st == RDX_OK && a.wait_result != KFD_IOC_WAIT_RESULT_COMPLETE)
        st = rdx_fail(RDX_ERR_DEVICE, "AMDKFD_IOC_WAIT_EVENTS: wait result %u", a.wait_result);
    for (uint32_t i = 0; st == RDX_OK && i < n; i++) {
        rdx_kfd_event_kind kind = events[i]->kind;
        if ((kind == RDX_KFD_EVENT_MEMORY && d[i].memory_exception_data.gpu_id) ||
            (kind == RDX_KFD_EVENT_HW_EXCEPTION && d[i].hw_exception_data.gpu_id))
            st = fault_message(&d[i], kind);
    }
    free(d);
    return st;
}
