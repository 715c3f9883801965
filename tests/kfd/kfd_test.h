/* tests/kfd/kfd_test.h — shared fixtures of the kfd suite (emulated device). */
#ifndef RDX_TESTS_KFD_TEST_H
#define RDX_TESTS_KFD_TEST_H

#include <rdx/emudev.h>
#include <rdx/kfd.h>

#include "tests/harness/harness.h"

/* An emulated device with `gpus` cards and the kfd process opened on it. */
typedef struct kfd_fixture {
    rdx_emudev *dev;
    rdx_kfd *kfd;
} kfd_fixture;

void fixture_open(kfd_fixture *f, uint32_t gpus);
/* Close and check that the device holds nothing any more (no leak). */
void fixture_close(kfd_fixture *f);
/* Assert that the emulated device holds no object of a client. */
void assert_device_empty(rdx_emudev *dev);

TCase *kfd_tcase_discovery(void);
TCase *kfd_tcase_memory(void);
TCase *kfd_tcase_queue(void);
TCase *kfd_tcase_event(void);
TCase *kfd_tcase_errors(void);
TCase *kfd_tcase_inject(void);
TCase *kfd_tcase_cp(void);
TCase *kfd_tcase_cp_order(void); /* cp_order.c: completion writes as release stores */
TCase *kfd_tcase_dispatch(void);
TCase *kfd_tcase_cli(void);
TCase *kfd_tcase_drm_thunk(void);
TCase *kfd_tcase_tinygrad_seq(void);
TCase *kfd_tcase_notes(void);
TCase *kfd_tcase_rules(void);   /* rules.c: docs/kfd.md's validation rules */
TCase *kfd_tcase_multi(void);   /* multi.c: several GPUs in one process */
TCase *kfd_tcase_wake(void);    /* wake.c: how the command processor and waiters wake */
TCase *kfd_tcase_targets(void); /* targets.c: the emulated GPU of every target */

#endif
