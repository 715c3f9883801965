/* tests/kfd/cp.c — the command processor behind doorbells (PM4 and SDMA). */
#include <string.h>

#include "tests/kfd/kfd_test.h"

START_TEST(bad_packet_stops_queue_with_hw_exception)
{
    kfd_fixture f;
    fixture_open(&f, 1);
    rdx_kfd_event *hw;
    ck_assert_int_eq(rdx_kfd_event_create(f.kfd, RDX_KFD_EVENT_HW_EXCEPTION, 0, &hw), RDX_OK);
    rdx_kfd_queue *q;
    ck_assert_int_eq(rdx_kfd_queue_create(f.kfd, 0, RDX_KFD_QUEUE_COMPUTE, 4096, &q), RDX_OK);
    const uint32_t bad[] = { 0x40000000u }; /* a type-1 PM4 header: never valid */
    ck_assert_int_eq(rdx_kfd_queue_submit(q, bad, 1), RDX_OK);
    rdx_status st = rdx_kfd_event_wait(f.kfd, &hw, 1, 0, 5000);
    ck_assert_int_eq(st, RDX_ERR_FAULT);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "hardware exception"));
    char err[256];
    rdx_emudev_last_error(f.dev, err, sizeof err);
    ck_assert_ptr_nonnull(strstr(err, "queue"));
    ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, q), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_destroy(f.kfd, hw), RDX_OK);
    fixture_close(&f);
}
END_TEST

TCase *kfd_tcase_cp(void)
{
    TCase *tc = tcase_create("cp");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, bad_packet_stops_queue_with_hw_exception);
    return tc;
}
