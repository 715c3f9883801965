/*
 * tests/kfd/errors.c — the emulated driver answers bad arguments with the
 * Linux driver's errno (raw ioctls with <linux/kfd_ioctl.h> structures).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>

#include <libdrm/amdgpu_drm.h>
#include "kfd/compat/kfd_ioctl_flags.h"

#include "tests/kfd/kfd_test.h"

typedef struct raw {
    rdx_emudev *dev;
    const rdx_os *os;
    int kfd, drm;
    uint32_t gpu_id;
} raw;

static void raw_open(raw *r)
{
    ck_assert_int_eq(rdx_emudev_create(NULL, &r->dev), RDX_OK);
    r->os = rdx_emudev_os(r->dev);
    r->kfd = r->os->open(r->os->ctx, "/dev/kfd", O_RDWR);
    r->drm = r->os->open(r->os->ctx, "/dev/dri/renderD128", O_RDWR);
    ck_assert_int_ge(r->kfd, 0);
    ck_assert_int_ge(r->drm, 0);
    rdx_kfd_topology *t;
    ck_assert_int_eq(rdx_kfd_topology_read(r->os, &t), RDX_OK);
    r->gpu_id = t->gpus[0].gpu_id;
    rdx_kfd_topology_free(t);
}

static int io(raw *r, unsigned long req, void *arg)
{
    return r->os->ioctl(r->os->ctx, r->kfd, req, arg);
}

static void raw_close(raw *r)
{
    ck_assert_int_eq(r->os->close(r->os->ctx, r->drm), 0);
    ck_assert_int_eq(r->os->close(r->os->ctx, r->kfd), 0);
    ck_assert_int_eq(r->os->close(r->os->ctx, r->kfd), -EBADF);
    assert_device_empty(r->dev);
    rdx_emudev_destroy(r->dev);
}

START_TEST(fds_and_unknown_calls)
{
    raw r;
    raw_open(&r);
    ck_assert_int_eq(r.os->open(r.os->ctx, "/dev/dri/renderD129", O_RDWR), -ENOENT);
    ck_assert_int_eq(r.os->open(r.os->ctx, "/dev/null", O_RDWR), -ENOENT);
    struct kfd_ioctl_get_version_args v = { 0 };
    ck_assert_int_eq(r.os->ioctl(r.os->ctx, 3, AMDKFD_IOC_GET_VERSION, &v), -EBADF);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_GET_VERSION, NULL), -EFAULT);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_GET_VERSION, &v), 0);
    ck_assert_uint_eq(v.major_version, KFD_IOCTL_MAJOR_VERSION);
    ck_assert_uint_eq(v.minor_version, 17); /* the current kernel's KFD 1.17 */
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_QUEUE_GWS, &v), -EINVAL); /* not served */
    struct drm_amdgpu_info q = { 0 };
    struct drm_amdgpu_info_device d;
    q.return_pointer = (uint64_t)(uintptr_t)&d;
    q.return_size = sizeof d;
    q.query = 0x7777;
    ck_assert_int_eq(r.os->ioctl(r.os->ctx, r.drm, DRM_IOCTL_AMDGPU_INFO, &q), -EINVAL);
    /* A short return buffer gets only what fits. */
    memset(&d, 0xcc, sizeof d);
    q.query = AMDGPU_INFO_DEV_INFO;
    q.return_size = 4;
    ck_assert_int_eq(r.os->ioctl(r.os->ctx, r.drm, DRM_IOCTL_AMDGPU_INFO, &q), 0);
    ck_assert_uint_eq(d.device_id, 0x744c);
    ck_assert_uint_eq(d.chip_rev, 0xccccccccu);
    raw_close(&r);
}
END_TEST

/* The kernel's own event page through mmap of /dev/kfd at the offset CREATE_EVENT returns
 * (KFD_MMAP_TYPE_EVENTS, kfd_chardev.c kfd_mmap → kfd_events.c kfd_event_mmap): EINVAL
 * before the process has a page or for more than its 32 KiB; otherwise the driver's slots. */
START_TEST(event_page_mapped_through_kfd)
{
    raw r;
    raw_open(&r);
    const uint64_t events_off = 0x2ull << 62; /* KFD_MMAP_TYPE_EVENTS */
    void *page;
    ck_assert_int_eq(r.os->mmap(r.os->ctx, NULL, 32768, PROT_READ | PROT_WRITE, MAP_SHARED, r.kfd,
                                events_off, &page),
                     -EINVAL); /* no signal page yet */
    struct kfd_ioctl_create_event_args ce = { .event_type = KFD_IOC_EVENT_SIGNAL };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_EVENT, &ce), 0);
    ck_assert_uint_eq(ce.event_page_offset, events_off);
    ck_assert_int_eq(r.os->mmap(r.os->ctx, NULL, 32768 + 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
                                r.kfd, events_off, &page),
                     -EINVAL); /* more than the page */
    ck_assert_int_eq(r.os->mmap(r.os->ctx, NULL, 32768, PROT_READ | PROT_WRITE, MAP_SHARED, r.kfd,
                                ce.event_page_offset, &page),
                     0);
    volatile uint64_t *slots = page;
    ck_assert_uint_eq(slots[ce.event_slot_index], UINT64_MAX); /* the driver's unsignaled slot */
    /* a slot the driver writes after the mapping was made: the same memory */
    uint32_t next = ce.event_slot_index + 1;
    slots[next] = 7;
    struct kfd_ioctl_create_event_args ce2 = { .event_type = KFD_IOC_EVENT_SIGNAL };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_EVENT, &ce2), 0);
    ck_assert_uint_eq(ce2.event_slot_index, next);
    ck_assert_uint_eq(slots[next], UINT64_MAX);
    struct kfd_ioctl_destroy_event_args de2 = { .event_id = ce2.event_id };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_DESTROY_EVENT, &de2), 0);
    ck_assert_int_eq(r.os->munmap(r.os->ctx, page, 32768), 0);
    struct kfd_ioctl_destroy_event_args de = { .event_id = ce.event_id };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_DESTROY_EVENT, &de), 0);
    raw_close(&r);
}
END_TEST

START_TEST(acquire_vm_rules)
{
    raw r;
    raw_open(&r);
    struct kfd_ioctl_alloc_memory_of_gpu_args a = { 0 };
    a.size = 4096;
    a.gpu_id = r.gpu_id;
    a.flags = KFD_IOC_ALLOC_MEM_FLAGS_GTT;
    a.va_addr = 0x10000000;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), -ENODEV); /* no VM yet */
    struct kfd_ioctl_acquire_vm_args vm = { .drm_fd = (uint32_t)r.kfd, .gpu_id = r.gpu_id };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ACQUIRE_VM, &vm), -EINVAL); /* not a DRM fd */
    vm.drm_fd = (uint32_t)r.drm;
    vm.gpu_id = r.gpu_id + 1;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ACQUIRE_VM, &vm), -EINVAL); /* unknown gpu */
    vm.gpu_id = r.gpu_id;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ACQUIRE_VM, &vm), 0);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ACQUIRE_VM, &vm), 0); /* same fd again: fine */
    struct kfd_ioctl_get_process_apertures_new_args ap = { 0 };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &ap), 0);
    ck_assert_uint_eq(ap.num_of_nodes, 1);
    ap.kfd_process_device_apertures_ptr = 0;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &ap), -EFAULT);
    raw_close(&r);
}
END_TEST

START_TEST(memory_errnos)
{
    raw r;
    raw_open(&r);
    struct kfd_ioctl_acquire_vm_args vm = { .drm_fd = (uint32_t)r.drm, .gpu_id = r.gpu_id };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ACQUIRE_VM, &vm), 0);
    void *va;
    ck_assert_int_eq(r.os->mmap(r.os->ctx, NULL, 1 << 20, PROT_NONE,
                                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0, &va),
                     0);
    struct kfd_ioctl_alloc_memory_of_gpu_args a = { 0 };
    a.va_addr = (uint64_t)(uintptr_t)va;
    a.gpu_id = r.gpu_id;
    a.flags = KFD_IOC_ALLOC_MEM_FLAGS_GTT | RDX_KFD_ALLOC_WRITABLE;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), -EINVAL); /* size 0 */
    a.size = 8192;
    a.gpu_id = 12345;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), -EINVAL); /* gpu */
    a.gpu_id = r.gpu_id;
    a.flags = KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_VRAM;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0); /* two domains: VRAM */
    ck_assert_int_eq(io(&r, AMDKFD_IOC_AVAILABLE_MEMORY,
                        &(struct kfd_ioctl_get_available_memory_args){ .gpu_id = r.gpu_id }),
                     0);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_FREE_MEMORY_OF_GPU,
                        &(struct kfd_ioctl_free_memory_of_gpu_args){ .handle = a.handle }),
                     0);
    a.flags = RDX_KFD_ALLOC_WRITABLE;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), -EINVAL); /* no domain */
    a.flags = KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0); /* right size */
    struct kfd_ioctl_free_memory_of_gpu_args fr = { .handle = a.handle };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr), 0);
    a.size = 4096;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), -EINVAL); /* wrong size */
    a.flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR;
    a.mmap_offset = 0x1000; /* not mapped in this process */
    a.va_addr = 0x1000;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), -EFAULT); /* no user pages */
    void *hole = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(hole, MAP_FAILED);
    munmap(hole, 4096); /* now certainly not mapped */
    a.va_addr = a.mmap_offset = (uint64_t)(uintptr_t)hole;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), -EFAULT);
    a.va_addr = a.mmap_offset = (uint64_t)(uintptr_t)va + 1;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), -EINVAL); /* unaligned */
    /* A good one, then a second at an overlapping address. */
    a.va_addr = (uint64_t)(uintptr_t)va;
    a.size = 8192;
    a.flags = KFD_IOC_ALLOC_MEM_FLAGS_GTT | RDX_KFD_ALLOC_WRITABLE;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
    uint64_t handle = a.handle;
    ck_assert_uint_eq(handle >> 32, r.gpu_id); /* handles carry the gpu id */
    a.va_addr += 4096; /* allocated, but cannot be mapped next to the first (below) */
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
    uint64_t overlapping = a.handle;
    /* Mapping. */
    uint32_t ids[2] = { r.gpu_id, 999 };
    struct kfd_ioctl_map_memory_to_gpu_args m = { 0 };
    m.handle = handle + 77;
    m.device_ids_array_ptr = (uint64_t)(uintptr_t)ids;
    m.n_devices = 1;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m), -ENOMEM); /* no such buffer */
    m.handle = handle;
    m.n_devices = 0;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m), -EINVAL); /* no devices */
    m.n_devices = 1;
    m.n_success = 2;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m), -EINVAL); /* n_success > n */
    m.n_success = 0;
    m.device_ids_array_ptr = 0;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m), -EFAULT);
    m.device_ids_array_ptr = (uint64_t)(uintptr_t)ids;
    m.n_devices = 2;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m), -EINVAL); /* gpu 999 */
    ck_assert_uint_eq(m.n_success, 1); /* the first device did map */
    struct kfd_ioctl_map_memory_to_gpu_args m2 = { .handle = overlapping,
                                                   .device_ids_array_ptr = (uint64_t)(uintptr_t)ids,
                                                   .n_devices = 1 };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m2), -EINVAL); /* VA conflict */
    ck_assert_int_eq(io(&r, AMDKFD_IOC_FREE_MEMORY_OF_GPU,
                        &(struct kfd_ioctl_free_memory_of_gpu_args){ .handle = overlapping }),
                     0);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_FREE_MEMORY_OF_GPU,
                        &(struct kfd_ioctl_free_memory_of_gpu_args){ .handle = handle }),
                     -EBUSY); /* still mapped */
    struct kfd_ioctl_unmap_memory_from_gpu_args u = { 0 };
    u.handle = handle;
    u.device_ids_array_ptr = (uint64_t)(uintptr_t)ids;
    u.n_devices = 1;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &u), 0);
    u.n_success = 0;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &u), -EINVAL); /* not mapped */
    /* mmap of the render node needs the BO's offset; private VRAM refuses CPU access. */
    void *p;
    ck_assert_int_eq(r.os->mmap(r.os->ctx, NULL, 4096, PROT_READ, MAP_SHARED, r.drm, 12345, &p),
                     -EINVAL);
    ck_assert_int_eq(r.os->mmap(r.os->ctx, NULL, 4096, PROT_READ, MAP_SHARED, r.kfd, 0, &p),
                     -ENODEV); /* the MMIO type with gpu id 0 */
    fr.handle = handle;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr), 0);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr), -EINVAL); /* twice */
    ck_assert_int_eq(r.os->munmap(r.os->ctx, va, 1 << 20), 0);
    raw_close(&r);
}
END_TEST

START_TEST(queue_and_event_errnos)
{
    raw r;
    raw_open(&r);
    struct kfd_ioctl_create_queue_args q = { 0 };
    q.gpu_id = r.gpu_id;
    q.ring_size = 4096;
    q.queue_percentage = 101;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q), -EINVAL);
    q.queue_percentage = 100;
    q.queue_priority = 16;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q), -EINVAL);
    q.queue_priority = 7;
    q.ring_size = 3000;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q), -EINVAL);
    q.ring_size = 4096;
    q.queue_type = 9;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q), -524); /* ENOTSUPP */
    q.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q), -ESRCH); /* no VM */
    struct kfd_ioctl_acquire_vm_args vm = { .drm_fd = (uint32_t)r.drm, .gpu_id = r.gpu_id };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ACQUIRE_VM, &vm), 0);
    q.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE_AQL;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q), -EOPNOTSUPP);
    q.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q), -EINVAL); /* ring not mapped */
    struct kfd_ioctl_destroy_queue_args dq = { .queue_id = 5 };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_DESTROY_QUEUE, &dq), -EINVAL);
    struct kfd_ioctl_create_event_args ce = { 0 };
    ce.event_type = 42; /* any type: a non-signal event */
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_EVENT, &ce), 0);
    ck_assert_uint_ge(ce.event_id, 0x80000000u);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_DESTROY_EVENT,
                        &(struct kfd_ioctl_destroy_event_args){ .event_id = ce.event_id }),
                     0);
    ce.event_type = KFD_IOC_EVENT_SIGNAL;
    ce.event_page_offset = ((uint64_t)r.gpu_id << 32) | 99; /* no such buffer */
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_EVENT, &ce), -EINVAL);
    ce.event_page_offset = 0;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_EVENT, &ce), 0);
    ck_assert_uint_eq(ce.event_slot_index, ce.event_id);
    struct kfd_event_data d = { .event_id = ce.event_id + 1 };
    struct kfd_ioctl_wait_events_args w = { 0 };
    w.events_ptr = (uint64_t)(uintptr_t)&d;
    w.num_events = 1;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_WAIT_EVENTS, &w), -EINVAL); /* unknown id */
    w.events_ptr = 0;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_WAIT_EVENTS, &w), -EFAULT);
    d.event_id = ce.event_id;
    w.events_ptr = (uint64_t)(uintptr_t)&d;
    w.timeout = 0;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_WAIT_EVENTS, &w), 0);
    ck_assert_uint_eq(w.wait_result, KFD_IOC_WAIT_RESULT_TIMEOUT);
    struct kfd_ioctl_destroy_event_args de = { .event_id = ce.event_id };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_DESTROY_EVENT, &de), 0);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_DESTROY_EVENT, &de), -EINVAL);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SET_EVENT, &de), -EINVAL);
    raw_close(&r);
}
END_TEST

START_TEST(bad_pointers_are_efault_not_crashes)
{
    raw r;
    raw_open(&r);
    /* An inaccessible page, kept reserved for the whole test: an unmapped hole
     * could be reused by another thread's mapping before the ioctls read it. */
    void *hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(hole, MAP_FAILED);
    uint64_t bad = (uint64_t)(uintptr_t)hole;
    /* The argument itself. */
    ck_assert_int_eq(io(&r, AMDKFD_IOC_GET_VERSION, hole), -EFAULT);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_EVENT, hole), -EFAULT);
    /* Pointers inside arguments. */
    struct kfd_ioctl_acquire_vm_args vm = { .drm_fd = (uint32_t)r.drm, .gpu_id = r.gpu_id };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ACQUIRE_VM, &vm), 0);
    struct kfd_ioctl_get_process_apertures_new_args ap = { .kfd_process_device_apertures_ptr = bad,
                                                           .num_of_nodes = 1 };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &ap), -EFAULT);
    struct kfd_ioctl_create_event_args ce = { .event_type = KFD_IOC_EVENT_SIGNAL };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_EVENT, &ce), 0);
    struct kfd_ioctl_wait_events_args w = { .events_ptr = bad, .num_events = 1 };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_WAIT_EVENTS, &w), -EFAULT);
    struct kfd_ioctl_map_memory_to_gpu_args m = { .handle = 1,
                                                  .device_ids_array_ptr = bad,
                                                  .n_devices = 1 };
    void *va;
    ck_assert_int_eq(r.os->mmap(r.os->ctx, NULL, 4096, PROT_NONE,
                                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0, &va),
                     0);
    struct kfd_ioctl_alloc_memory_of_gpu_args a = { .va_addr = (uint64_t)(uintptr_t)va,
                                                    .size = 4096,
                                                    .gpu_id = r.gpu_id,
                                                    .flags = KFD_IOC_ALLOC_MEM_FLAGS_GTT };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
    m.handle = a.handle;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m), -EFAULT);
    struct drm_amdgpu_info q = { .return_pointer = bad,
                                 .return_size = 64,
                                 .query = AMDGPU_INFO_DEV_INFO };
    ck_assert_int_eq(r.os->ioctl(r.os->ctx, r.drm, DRM_IOCTL_AMDGPU_INFO, &q), -EFAULT);
    struct kfd_ioctl_free_memory_of_gpu_args fr = { .handle = a.handle };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr), 0);
    ck_assert_int_eq(r.os->munmap(r.os->ctx, va, 4096), 0);
    raw_close(&r);
    munmap(hole, 4096);
}
END_TEST

TCase *kfd_tcase_errors(void)
{
    TCase *tc = tcase_create("errors");
    tcase_add_test(tc, fds_and_unknown_calls);
    tcase_add_test(tc, acquire_vm_rules);
    tcase_add_test(tc, event_page_mapped_through_kfd);
    tcase_add_test(tc, memory_errnos);
    tcase_add_test(tc, queue_and_event_errnos);
    tcase_add_test(tc, bad_pointers_are_efault_not_crashes);
    return tc;
}
