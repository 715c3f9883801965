/* tests/kfd/check_kfd.c — the kfd suite: the whole kernel-interface path on the emulated GPU. */
#include "tests/kfd/kfd_test.h"

void fixture_open(kfd_fixture *f, uint32_t gpus)
{
    rdx_emudev_config cfg = { .num_gpus = gpus, .vram_size = 0, .legacy_sysfs = 0 };
    ck_assert_int_eq(rdx_emudev_create(&cfg, &f->dev), RDX_OK);
    rdx_status st = rdx_kfd_open(rdx_emudev_os(f->dev), &f->kfd);
    ck_assert_msg(st == RDX_OK, "rdx_kfd_open: %s", rdx_error_message());
}

void assert_device_empty(rdx_emudev *dev)
{
    rdx_emudev_stats s;
    rdx_emudev_get_stats(dev, &s);
    ck_assert_uint_eq(s.open_fds, 0);
    ck_assert_uint_eq(s.bos, 0);
    ck_assert_uint_eq(s.gpu_mapped, 0);
    ck_assert_uint_eq(s.queues, 0);
    ck_assert_uint_eq(s.events, 0);
    ck_assert_uint_eq(s.reservations, 0);
}

void fixture_close(kfd_fixture *f)
{
    rdx_kfd_close(f->kfd);
    assert_device_empty(f->dev);
    rdx_emudev_destroy(f->dev);
}

int main(void)
{
    Suite *s = suite_create("kfd");
    suite_add_tcase(s, kfd_tcase_discovery());
    suite_add_tcase(s, kfd_tcase_memory());
    suite_add_tcase(s, kfd_tcase_queue());
    suite_add_tcase(s, kfd_tcase_event());
    suite_add_tcase(s, kfd_tcase_errors());
    suite_add_tcase(s, kfd_tcase_inject());
    suite_add_tcase(s, kfd_tcase_cp());
    suite_add_tcase(s, kfd_tcase_cp_order());
    suite_add_tcase(s, kfd_tcase_dispatch());
    suite_add_tcase(s, kfd_tcase_cli());
    suite_add_tcase(s, kfd_tcase_drm_thunk());
    suite_add_tcase(s, kfd_tcase_tinygrad_seq());
    suite_add_tcase(s, kfd_tcase_notes());
    suite_add_tcase(s, kfd_tcase_rules());
    suite_add_tcase(s, kfd_tcase_multi());
    suite_add_tcase(s, kfd_tcase_wake());
    suite_add_tcase(s, kfd_tcase_targets());
    return rdx_test_main(s);
}
