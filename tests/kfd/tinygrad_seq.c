/*
 * tests/kfd/tinygrad_seq.c — what tinygrad's AMD driver (known to work on gfx11 cards) asks of
 * the driver and the command processor that rdx's own driver does not: KFD ioctls with the
 * structure sizes of a newer <linux/kfd_ioctl.h> (kfd_ioctl picks the handler by number), and
 * the HDP flush as a write-then-wait WAIT_REG_MEM on NBIO 4.3's flush registers.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/kfd_ioctl.h>
#include <rdx/pm4.h>

#include "tests/kfd/kfd_test.h"

START_TEST(kfd_ioctl_by_number_whatever_the_size)
{
    rdx_emudev *dev;
    ck_assert_int_eq(rdx_emudev_create(NULL, &dev), RDX_OK);
    const rdx_os *os = rdx_emudev_os(dev);
    int kfd = os->open(os->ctx, "/dev/kfd", O_RDWR);
    ck_assert_int_ge(kfd, 0);
    /* GET_VERSION with a 16-byte structure: served, the tail zeroed */
    uint32_t v[4] = { 0xaaaaaaaa, 0xaaaaaaaa, 0xaaaaaaaa, 0xaaaaaaaa };
    unsigned long big = _IOC(_IOC_READ, AMDKFD_IOCTL_BASE, _IOC_NR(AMDKFD_IOC_GET_VERSION), 16);
    ck_assert_int_eq(os->ioctl(os->ctx, kfd, big, v), 0);
    ck_assert_uint_eq(v[0], 1);
    ck_assert_uint_eq(v[2], 0);
    ck_assert_uint_eq(v[3], 0);
    /* CREATE_QUEUE with the 96-byte structure of newer headers reaches the handler (and is
     * refused there for its arguments: no VM acquired), not "unknown command" */
    unsigned char q[96];
    memset(q, 0, sizeof q);
    unsigned long cq =
        _IOC(_IOC_READ | _IOC_WRITE, AMDKFD_IOCTL_BASE, _IOC_NR(AMDKFD_IOC_CREATE_QUEUE), 96);
    uint64_t before = 0, after = 0;
    rdx_emudev_stats st;
    rdx_emudev_get_stats(dev, &st);
    before = st.ioctls;
    ck_assert_int_eq(os->ioctl(os->ctx, kfd, cq, q), -EINVAL);
    rdx_emudev_get_stats(dev, &st);
    after = st.ioctls;
    ck_assert_uint_eq(after, before + 1);
    /* a number beyond the table is ENOTTY */
    unsigned long unknown = _IOC(_IOC_READ, AMDKFD_IOCTL_BASE, 0x7e, 8);
    ck_assert_int_eq(os->ioctl(os->ctx, kfd, unknown, v), -ENOTTY);
    ck_assert_int_eq(os->close(os->ctx, kfd), 0);
    rdx_emudev_destroy(dev);
}
END_TEST

/* WAIT_REG_MEM, OPERATION write-then-wait, register space, FUNCTION ==. */
static void hdp_flush(rdx_pm4_cmdbuf *cb, uint32_t req, uint32_t done)
{
    const uint32_t w[] = {
        RDX_PM4_HEADER(RDX_PM4_OP_WAIT_REG_MEM, 5, false), 3u | (1u << 6), req, done, 1u, 1u, 0x20
    };
    rdx_pm4_emit(cb, w, 7);
}

START_TEST(hdp_flush_completes_and_other_pairs_fail)
{
    kfd_fixture f;
    fixture_open(&f, 1);
    rdx_kfd_event *ev, *hw;
    ck_assert_int_eq(rdx_kfd_event_create(f.kfd, RDX_KFD_EVENT_SIGNAL, 1, &ev), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_create(f.kfd, RDX_KFD_EVENT_HW_EXCEPTION, 1, &hw), RDX_OK);
    rdx_kfd_mem_desc d = { .kind = RDX_KFD_MEM_GTT, .size = 4096 };
    rdx_kfd_mem *m;
    ck_assert_int_eq(rdx_kfd_mem_alloc(f.kfd, 0, &d, &m), RDX_OK);
    uint32_t *cpu = rdx_kfd_mem_cpu(m);
    rdx_kfd_queue *q;
    ck_assert_int_eq(rdx_kfd_queue_create(f.kfd, 0, RDX_KFD_QUEUE_COMPUTE, 4096, &q), RDX_OK);
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    hdp_flush(&cb, 0xe26, 0xe27); /* BIF_BX_PF0_GPU_HDP_FLUSH_REQ / _DONE */
    const uint32_t marker = 0x600dcafe;
    rdx_pm4_write_data(&cb, rdx_kfd_mem_gpu_addr(m), &marker, 1, true);
    rdx_pm4_signal(&cb, rdx_kfd_event_mailbox(ev), rdx_kfd_event_id(ev), true,
                   rdx_kfd_event_id(ev));
    ck_assert_int_eq(rdx_kfd_queue_submit(q, cb.dw, cb.len), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, &ev, 1, 0, 5000), RDX_OK);
    ck_assert_uint_eq(cpu[0], marker);
    /* any other register pair is not emulated: the queue stops with a hardware exception */
    rdx_pm4_cmdbuf_reset(&cb);
    hdp_flush(&cb, 0x1234, 0x1235);
    ck_assert_int_eq(rdx_kfd_queue_submit(q, cb.dw, cb.len), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, &hw, 1, 0, 5000), RDX_ERR_FAULT);
    char err[512];
    rdx_emudev_last_error(f.dev, err, sizeof err);
    ck_assert_msg(strstr(err, "only for the HDP flush"), "%s", err);
    rdx_pm4_cmdbuf_free(&cb);
    ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, q), RDX_OK);
    ck_assert_int_eq(rdx_kfd_mem_free(f.kfd, m), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_destroy(f.kfd, hw), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_destroy(f.kfd, ev), RDX_OK);
    fixture_close(&f);
}
END_TEST

TCase *kfd_tcase_tinygrad_seq(void)
{
    TCase *tc = tcase_create("tinygrad_seq");
    tcase_add_test(tc, kfd_ioctl_by_number_whatever_the_size);
    tcase_add_test(tc, hdp_flush_completes_and_other_pairs_fail);
    return tc;
}
