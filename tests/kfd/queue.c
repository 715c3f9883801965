/* tests/kfd/queue.c — queue creation, destruction, doorbells and ring accounting. */
#include <string.h>

#include "tests/kfd/kfd_test.h"

static void expect_queues(rdx_emudev *dev, uint32_t n)
{
    rdx_emudev_stats s;
    rdx_emudev_get_stats(dev, &s);
    ck_assert_uint_eq(s.queues, n);
}

START_TEST(create_destroy_compute_and_sdma)
{
    kfd_fixture f;
    fixture_open(&f, 1);
    rdx_kfd_queue *c, *s;
    rdx_status st = rdx_kfd_queue_create(f.kfd, 0, RDX_KFD_QUEUE_COMPUTE, 4096, &c);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    ck_assert_int_eq(rdx_kfd_queue_create(f.kfd, 0, RDX_KFD_QUEUE_SDMA, 1024, &s), RDX_OK);
    ck_assert_uint_ne(rdx_kfd_queue_id(c), rdx_kfd_queue_id(s));
    expect_queues(f.dev, 2);
    ck_assert_uint_eq(rdx_kfd_queue_wptr(c), 0);
    ck_assert_uint_eq(rdx_kfd_queue_rptr(c), 0);
    ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, c), RDX_OK);
    expect_queues(f.dev, 1);
    ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, s), RDX_OK);
    ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, NULL), RDX_OK);
    expect_queues(f.dev, 0);
    fixture_close(&f);
}
END_TEST

START_TEST(many_queues_share_one_doorbell_slice)
{
    kfd_fixture f;
    fixture_open(&f, 2);
    rdx_kfd_queue *q[8];
    for (int i = 0; i < 8; i++) {
        rdx_status st =
            rdx_kfd_queue_create(f.kfd, (uint32_t)i % 2,
                                 i % 3 ? RDX_KFD_QUEUE_COMPUTE : RDX_KFD_QUEUE_SDMA, 2048, &q[i]);
        ck_assert_msg(st == RDX_OK, "queue %d: %s", i, rdx_error_message());
    }
    expect_queues(f.dev, 8);
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, q[i]), RDX_OK);
    fixture_close(&f);
}
END_TEST

START_TEST(bad_queue_arguments)
{
    kfd_fixture f;
    fixture_open(&f, 1);
    rdx_kfd_queue *q = NULL;
    ck_assert_int_eq(rdx_kfd_queue_create(f.kfd, 0, RDX_KFD_QUEUE_COMPUTE, 3000, &q),
                     RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "power of two"));
    ck_assert_int_eq(rdx_kfd_queue_create(f.kfd, 0, RDX_KFD_QUEUE_COMPUTE, 512, &q),
                     RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_kfd_queue_create(f.kfd, 1, RDX_KFD_QUEUE_COMPUTE, 4096, &q),
                     RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_kfd_queue_create(f.kfd, 0, (rdx_kfd_queue_kind)7, 4096, &q),
                     RDX_ERR_INVALID);
    ck_assert_ptr_null(q);
    fixture_close(&f);
}
END_TEST

START_TEST(submit_refuses_overflow)
{
    kfd_fixture f;
    fixture_open(&f, 1);
    rdx_kfd_queue *q;
    ck_assert_int_eq(rdx_kfd_queue_create(f.kfd, 0, RDX_KFD_QUEUE_COMPUTE, 1024, &q), RDX_OK);
    uint32_t big[257] = { 0 };
    ck_assert_int_eq(rdx_kfd_queue_submit(q, big, 257), RDX_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "do not fit"));
    ck_assert_uint_eq(rdx_kfd_queue_wptr(q), 0);
    ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, q), RDX_OK);
    fixture_close(&f);
}
END_TEST

TCase *kfd_tcase_queue(void)
{
    TCase *tc = tcase_create("queue");
    tcase_add_test(tc, create_destroy_compute_and_sdma);
    tcase_add_test(tc, many_queues_share_one_doorbell_slice);
    tcase_add_test(tc, bad_queue_arguments);
    tcase_add_test(tc, submit_refuses_overflow);
    return tc;
}
