/* tests/kfd/event.c — KFD events set from the host, timeouts, auto-reset and wait-all. */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "tests/kfd/kfd_test.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

START_TEST(signal_set_wait_reset)
{
    kfd_fixture f;
    fixture_open(&f, 1);
    rdx_kfd_event *e;
    ck_assert_int_eq(rdx_kfd_event_create(f.kfd, RDX_KFD_EVENT_SIGNAL, 0, &e), RDX_OK);
    ck_assert_uint_lt(rdx_kfd_event_id(e), 4096);
    ck_assert_uint_ne(rdx_kfd_event_mailbox(e), 0);
    ck_assert_uint_eq(*(uint64_t *)(uintptr_t)rdx_kfd_event_mailbox(e), UINT64_MAX);
    /* Not set: times out after about the timeout. */
    double t0 = now_ms();
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, &e, 1, 0, 30), RDX_ERR_TIMEOUT);
    ck_assert_double_ge(now_ms() - t0, 25.0);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "not signaled after 30 ms"));
    ck_assert_int_eq(rdx_kfd_event_set(f.kfd, e), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, &e, 1, 0, 1000), RDX_OK);
    /* Manual reset: stays set until reset. */
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, &e, 1, 0, 0), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_reset(f.kfd, e), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, &e, 1, 0, 0), RDX_ERR_TIMEOUT);
    ck_assert_int_eq(rdx_kfd_event_destroy(f.kfd, e), RDX_OK);
    fixture_close(&f);
}
END_TEST

START_TEST(auto_reset_and_wait_all)
{
    kfd_fixture f;
    fixture_open(&f, 1);
    rdx_kfd_event *e[2];
    ck_assert_int_eq(rdx_kfd_event_create(f.kfd, RDX_KFD_EVENT_SIGNAL, 1, &e[0]), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_create(f.kfd, RDX_KFD_EVENT_SIGNAL, 1, &e[1]), RDX_OK);
    ck_assert_uint_ne(rdx_kfd_event_mailbox(e[0]), rdx_kfd_event_mailbox(e[1]));
    ck_assert_int_eq(rdx_kfd_event_set(f.kfd, e[1]), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, e, 2, 1, 10), RDX_ERR_TIMEOUT); /* all: no */
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, e, 2, 0, 10), RDX_OK);          /* any: yes */
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, e, 2, 0, 10), RDX_ERR_TIMEOUT); /* consumed */
    ck_assert_int_eq(rdx_kfd_event_set(f.kfd, e[0]), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_set(f.kfd, e[1]), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, e, 2, 1, 10), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_destroy(f.kfd, e[0]), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_destroy(f.kfd, e[1]), RDX_OK);
    fixture_close(&f);
}
END_TEST

typedef struct setter {
    kfd_fixture *f;
    rdx_kfd_event *e;
} setter;

static void *set_later(void *arg)
{
    setter *s = arg;
    struct timespec ts = { 0, 20 * 1000 * 1000 };
    nanosleep(&ts, NULL);
    rdx_kfd_event_set(s->f->kfd, s->e);
    return NULL;
}

START_TEST(wait_wakes_on_set_from_another_thread)
{
    kfd_fixture f;
    fixture_open(&f, 1);
    rdx_kfd_event *e;
    ck_assert_int_eq(rdx_kfd_event_create(f.kfd, RDX_KFD_EVENT_SIGNAL, 1, &e), RDX_OK);
    setter s = { &f, e };
    pthread_t t;
    pthread_create(&t, NULL, set_later, &s);
    double t0 = now_ms();
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, &e, 1, 0, UINT32_MAX), RDX_OK);
    ck_assert_double_lt(now_ms() - t0, 2000.0);
    pthread_join(t, NULL);
    ck_assert_int_eq(rdx_kfd_event_destroy(f.kfd, e), RDX_OK);
    fixture_close(&f);
}
END_TEST

START_TEST(exception_events_and_bad_use)
{
    kfd_fixture f;
    fixture_open(&f, 1);
    rdx_kfd_event *m, *h;
    ck_assert_int_eq(rdx_kfd_event_create(f.kfd, RDX_KFD_EVENT_MEMORY, 0, &m), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_create(f.kfd, RDX_KFD_EVENT_HW_EXCEPTION, 0, &h), RDX_OK);
    ck_assert_uint_eq(rdx_kfd_event_mailbox(m), 0);
    ck_assert_uint_ge(rdx_kfd_event_id(m), 0x80000000u);
    /* The kernel refuses SET_EVENT on non-signal events (EINVAL). */
    ck_assert_int_eq(rdx_kfd_event_set(f.kfd, m), RDX_ERR_DEVICE);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "AMDKFD_IOC_SET_EVENT"));
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "Invalid argument"));
    rdx_kfd_event *both[] = { m, h };
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, both, 2, 0, 5), RDX_ERR_TIMEOUT);
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, both, 0, 0, 5), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_kfd_event_create(f.kfd, (rdx_kfd_event_kind)9, 0, &m), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_kfd_event_destroy(f.kfd, both[0]), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_destroy(f.kfd, h), RDX_OK);
    fixture_close(&f);
}
END_TEST

TCase *kfd_tcase_event(void)
{
    TCase *tc = tcase_create("event");
    tcase_add_test(tc, signal_set_wait_reset);
    tcase_add_test(tc, auto_reset_and_wait_all);
    tcase_add_test(tc, wait_wakes_on_set_from_another_thread);
    tcase_add_test(tc, exception_events_and_bad_use);
    return tc;
}
