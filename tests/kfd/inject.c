/*
 * tests/kfd/inject.c — every kernel call site fails once (fault injection on
 * the emulated device): the error names the call and the errno, and nothing
 * is left behind on the device.  EINTR/EAGAIN are retried transparently.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include <libdrm/amdgpu_drm.h>
#include <linux/kfd_ioctl.h>

#include "tests/kfd/kfd_test.h"

#define KEEP(st_, call_)                                          \
    do {                                                          \
        rdx_status s_ = (call_);                                  \
        if (s_ != RDX_OK && st_ == RDX_OK) {                      \
            st_ = s_;                                             \
            snprintf(msg, sizeof msg, "%s", rdx_error_message()); \
        }                                                         \
    } while (0)

static char msg[4096];

/* Everything rdx_kfd offers, once; the first failure's message is kept in msg. */
static rdx_status scenario(rdx_emudev *dev)
{
    rdx_kfd *k;
    msg[0] = 0;
    rdx_status st = rdx_kfd_open(rdx_emudev_os(dev), &k);
    if (st != RDX_OK) {
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
        return st;
    }
    unsigned char *host =
        mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(host, MAP_FAILED);
    rdx_kfd_mem_desc d[3] = {
        { RDX_KFD_MEM_GTT, 8192, 0, NULL },
        { RDX_KFD_MEM_VRAM, 65536, 0, NULL },
        { RDX_KFD_MEM_USERPTR, 4096, 0, host + 4096 },
    };
    rdx_kfd_mem *m[3] = { NULL, NULL, NULL };
    for (int i = 0; i < 3 && st == RDX_OK; i++)
        KEEP(st, rdx_kfd_mem_alloc(k, 0, &d[i], &m[i]));
    rdx_kfd_queue *q[2] = { NULL, NULL };
    rdx_kfd_clocks clocks;
    if (st == RDX_OK)
        KEEP(st, rdx_kfd_clock_counters(k, 0, &clocks));
    if (st == RDX_OK)
        KEEP(st, rdx_kfd_queue_create(k, 0, RDX_KFD_QUEUE_COMPUTE, 4096, &q[0]));
    if (st == RDX_OK)
        KEEP(st, rdx_kfd_queue_create(k, 0, RDX_KFD_QUEUE_SDMA, 4096, &q[1]));
    rdx_kfd_event *e[2] = { NULL, NULL };
    if (st == RDX_OK)
        KEEP(st, rdx_kfd_event_create(k, RDX_KFD_EVENT_SIGNAL, 1, &e[0]));
    if (st == RDX_OK)
        KEEP(st, rdx_kfd_event_create(k, RDX_KFD_EVENT_MEMORY, 0, &e[1]));
    if (st == RDX_OK)
        KEEP(st, rdx_kfd_event_set(k, e[0]));
    if (st == RDX_OK)
        KEEP(st, rdx_kfd_event_wait(k, e, 1, 0, 1000));
    if (st == RDX_OK)
        KEEP(st, rdx_kfd_event_reset(k, e[0]));
    for (int i = 0; i < 2; i++)
        KEEP(st, rdx_kfd_event_destroy(k, e[i]));
    for (int i = 0; i < 2; i++)
        KEEP(st, rdx_kfd_queue_destroy(k, q[i]));
    for (int i = 0; i < 3; i++)
        KEEP(st, rdx_kfd_mem_free(k, m[i]));
    KEEP(st, rdx_kfd_close(k));
    munmap(host, 3 * 4096);
    return st;
}

typedef struct site {
    unsigned long request;
    const char *name; /* what the message must name */
} site;

static const site sites[] = {
    { RDX_EMUDEV_OP_OPEN, "open /dev/" },
    { RDX_EMUDEV_OP_MMAP, "mmap of" },
    { AMDKFD_IOC_GET_VERSION, "AMDKFD_IOC_GET_VERSION" },
    { AMDKFD_IOC_GET_CLOCK_COUNTERS, "AMDKFD_IOC_GET_CLOCK_COUNTERS" },
    { DRM_IOCTL_AMDGPU_INFO, "DRM_IOCTL_AMDGPU_INFO" },
    { AMDKFD_IOC_ACQUIRE_VM, "AMDKFD_IOC_ACQUIRE_VM" },
    { AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, "AMDKFD_IOC_GET_PROCESS_APERTURES_NEW" },
    { AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, "AMDKFD_IOC_ALLOC_MEMORY_OF_GPU" },
    { AMDKFD_IOC_MAP_MEMORY_TO_GPU, "AMDKFD_IOC_MAP_MEMORY_TO_GPU" },
    { AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, "AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU" },
    { AMDKFD_IOC_FREE_MEMORY_OF_GPU, "AMDKFD_IOC_FREE_MEMORY_OF_GPU" },
    { AMDKFD_IOC_CREATE_QUEUE, "AMDKFD_IOC_CREATE_QUEUE" },
    { AMDKFD_IOC_DESTROY_QUEUE, "AMDKFD_IOC_DESTROY_QUEUE" },
    { AMDKFD_IOC_CREATE_EVENT, "AMDKFD_IOC_CREATE_EVENT" },
    { AMDKFD_IOC_SET_EVENT, "AMDKFD_IOC_SET_EVENT" },
    { AMDKFD_IOC_WAIT_EVENTS, "AMDKFD_IOC_WAIT_EVENTS" },
    { AMDKFD_IOC_RESET_EVENT, "AMDKFD_IOC_RESET_EVENT" },
    { AMDKFD_IOC_DESTROY_EVENT, "AMDKFD_IOC_DESTROY_EVENT" },
};

START_TEST(every_call_site_fails_cleanly)
{
    rdx_emudev *dev;
    ck_assert_int_eq(rdx_emudev_create(NULL, &dev), RDX_OK);
    ck_assert_msg(scenario(dev) == RDX_OK, "baseline: %s", msg);
    const int errs[] = { ENOMEM, EIO, EPERM };
    int total = 0;
    for (size_t s = 0; s < sizeof sites / sizeof sites[0]; s++) {
        int fired_any = 0;
        for (uint32_t n = 1; n < 64; n++) {
            int err = errs[(s + n) % 3];
            ck_assert_int_eq(rdx_emudev_inject(dev, sites[s].request, n, err), RDX_OK);
            rdx_status st = scenario(dev);
            int fired = rdx_emudev_inject_pending(dev) == 0;
            rdx_emudev_inject_clear(dev);
            assert_device_empty(dev);
            if (!fired) {
                ck_assert_msg(st == RDX_OK, "%s #%u: %s", sites[s].name, n, msg);
                break;
            }
            fired_any = 1;
            total++;
            ck_assert_msg(st != RDX_OK, "%s #%u failing went unnoticed", sites[s].name, n);
            ck_assert_msg(strstr(msg, sites[s].name) && strstr(msg, strerror(err)),
                          "%s #%u (%s): message '%s'", sites[s].name, n, strerror(err), msg);
        }
        ck_assert_msg(fired_any, "%s never called", sites[s].name);
    }
    ck_assert_int_ge(total, 30);
    rdx_emudev_destroy(dev);
}
END_TEST

START_TEST(eintr_and_eagain_are_retried)
{
    rdx_emudev *dev;
    ck_assert_int_eq(rdx_emudev_create(NULL, &dev), RDX_OK);
    ck_assert_int_eq(rdx_emudev_inject(dev, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, 2, EINTR), RDX_OK);
    ck_assert_int_eq(rdx_emudev_inject(dev, AMDKFD_IOC_CREATE_QUEUE, 1, EAGAIN), RDX_OK);
    ck_assert_int_eq(rdx_emudev_inject(dev, AMDKFD_IOC_WAIT_EVENTS, 1, EINTR), RDX_OK);
    ck_assert_int_eq(rdx_emudev_inject(dev, RDX_EMUDEV_OP_MMAP, 1, EINTR), RDX_OK);
    ck_assert_int_eq(scenario(dev), RDX_OK);
    ck_assert_uint_eq(rdx_emudev_inject_pending(dev), 0); /* all fired, all retried */
    assert_device_empty(dev);
    rdx_emudev_destroy(dev);
}
END_TEST

START_TEST(inject_api_errors)
{
    rdx_emudev *dev;
    ck_assert_int_eq(rdx_emudev_create(NULL, &dev), RDX_OK);
    ck_assert_int_eq(rdx_emudev_inject(dev, AMDKFD_IOC_GET_VERSION, 0, EIO), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_emudev_inject(dev, AMDKFD_IOC_GET_VERSION, 1, 0), RDX_ERR_INVALID);
    for (int i = 0; i < 16; i++)
        ck_assert_int_eq(rdx_emudev_inject(dev, AMDKFD_IOC_GET_VERSION, 100, EIO), RDX_OK);
    ck_assert_int_eq(rdx_emudev_inject(dev, AMDKFD_IOC_GET_VERSION, 100, EIO), RDX_ERR_RANGE);
    ck_assert_uint_eq(rdx_emudev_inject_pending(dev), 16);
    rdx_emudev_inject_clear(dev);
    ck_assert_uint_eq(rdx_emudev_inject_pending(dev), 0);
    rdx_emudev_config cfg = { .num_gpus = 99, .vram_size = 0, .legacy_sysfs = 0 };
    rdx_emudev *bad = NULL;
    ck_assert_int_eq(rdx_emudev_create(&cfg, &bad), RDX_ERR_RANGE);
    ck_assert_ptr_null(bad);
    rdx_emudev_destroy(dev);
}
END_TEST

TCase *kfd_tcase_inject(void)
{
    TCase *tc = tcase_create("inject");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_call_site_fails_cleanly);
    tcase_add_test(tc, eintr_and_eagain_are_retried);
    tcase_add_test(tc, inject_api_errors);
    return tc;
}
