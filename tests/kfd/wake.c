/*
 * tests/kfd/wake.c — how the emulated command processor and a waiter wake up: an idle
 * command processor sleeps without a timeout (no polling), a doorbell store alone (no system
 * call, as tinygrad submits) wakes it, a queue parked on memory still progresses when only
 * that memory changes, and a thread blocked in WAIT_EVENTS is woken by the completion itself.
 * docs/kfd.md, "Waking the command processor".
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <rdx/pm4.h>

#include "tests/kfd/kfd_test.h"

typedef struct wake_fixture {
    kfd_fixture f;
    rdx_kfd_queue *q;
    rdx_kfd_event *ev;
    rdx_kfd_mem *buf;
    volatile uint64_t *cpu;
    uint64_t gpu;
} wake_fixture;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
    nanosleep(&ts, NULL);
}

/* watch: "0" sets RDX_EMU_DOORBELL_WATCH=0 (the polling fallback) for this device. */
static void wake_open(wake_fixture *w, const char *watch)
{
    if (watch)
        setenv("RDX_EMU_DOORBELL_WATCH", watch, 1);
    fixture_open(&w->f, 1);
    rdx_status st = rdx_kfd_queue_create(w->f.kfd, 0, RDX_KFD_QUEUE_COMPUTE, 4096, &w->q);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    unsetenv("RDX_EMU_DOORBELL_WATCH"); /* read when the doorbells were mapped */
    ck_assert_int_eq(rdx_kfd_event_create(w->f.kfd, RDX_KFD_EVENT_SIGNAL, 1, &w->ev), RDX_OK);
    rdx_kfd_mem_desc d = { .kind = RDX_KFD_MEM_GTT, .size = 4096, .flags = 0, .userptr = NULL };
    st = rdx_kfd_mem_alloc(w->f.kfd, 0, &d, &w->buf);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    w->cpu = rdx_kfd_mem_cpu(w->buf);
    w->gpu = rdx_kfd_mem_gpu_addr(w->buf);
}

static void wake_close(wake_fixture *w)
{
    ck_assert_int_eq(rdx_kfd_mem_free(w->f.kfd, w->buf), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_destroy(w->f.kfd, w->ev), RDX_OK);
    ck_assert_int_eq(rdx_kfd_queue_destroy(w->f.kfd, w->q), RDX_OK);
    fixture_close(&w->f);
}

/* Submit through the ring and the doorbell only: rdx_kfd_queue_submit makes no system call. */
static void submit(wake_fixture *w, rdx_pm4_cmdbuf *cb)
{
    ck_assert_int_eq(rdx_pm4_cmdbuf_status(cb), RDX_OK);
    rdx_status st = rdx_kfd_queue_submit(w->q, cb->dw, cb->len);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    rdx_pm4_cmdbuf_reset(cb);
}

static rdx_emudev_stats stats(wake_fixture *w)
{
    rdx_emudev_stats s;
    rdx_emudev_get_stats(w->f.dev, &s);
    return s;
}

/* Spin on *p (a pure poller, no system call) until it reads v; the milliseconds it took,
 * or -1 after 5 s. */
static double spin_until(volatile uint64_t *p, uint64_t v)
{
    double t0 = now_ms();
    while (__atomic_load_n(p, __ATOMIC_ACQUIRE) != v)
        if (now_ms() - t0 > 5000)
            return -1;
    return now_ms() - t0;
}

/* Whether this process may create a userfaultfd at all (a container's seccomp profile or
 * vm.unprivileged_userfaultfd may forbid it): without one the command processor polls, as
 * docs/kfd.md says, and the no-polling test below has nothing to check. */
static int userfaultfd_allowed(void)
{
#ifdef SYS_userfaultfd
    long fd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return 0;
    close((int)fd);
    return 1;
#else
    return 0;
#endif
}

START_TEST(idle_cp_sleeps_until_a_doorbell_store)
{
    if (!userfaultfd_allowed()) {
        fprintf(stderr, "kfd wake: userfaultfd is not allowed here: the no-polling wake is not "
                        "tested (the command processor polls)\n");
        return;
    }
    wake_fixture w;
    wake_open(&w, NULL);
    ck_assert_msg(stats(&w).doorbell_watch == 1,
                  "userfaultfd write protection of shared memory is unavailable here: the "
                  "command processor polls (docs/kfd.md)");
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    for (uint64_t round = 1; round <= 3; round++) {
        /* Idle: no queue has work, so the thread sleeps without a timeout. */
        sleep_ms(50);
        uint64_t before = stats(&w).cp_wakeups;
        sleep_ms(250);
        uint64_t idle_wakeups = stats(&w).cp_wakeups - before;
        ck_assert_msg(idle_wakeups == 0, "the idle command processor woke %llu times in 250 ms",
                      (unsigned long long)idle_wakeups);
        /* A doorbell store alone wakes it. */
        rdx_pm4_signal(&cb, w.gpu, round, false, 0);
        submit(&w, &cb);
        double ms = spin_until(w.cpu, round);
        ck_assert_msg(ms >= 0, "round %llu: the doorbell store did not wake the command processor",
                      (unsigned long long)round);
        ck_assert_uint_ge(stats(&w).cp_wakeups, before + 1);
    }
    rdx_pm4_cmdbuf_free(&cb);
    wake_close(&w);
}
END_TEST

/* Without the watch (RDX_EMU_DOORBELL_WATCH=0) the command processor polls: a pure poller
 * still progresses, and WAIT_EVENTS still kicks it. */
/* On a machine of 4 GPUs used through GPU 0 only, the other GPUs' command processors (no
 * queue, no doorbell mapped) sleep without a timeout too, and GPU 0's serves its queue. */
START_TEST(unused_gpus_command_processors_sleep)
{
    kfd_fixture f;
    fixture_open(&f, 4);
    rdx_kfd_queue *q;
    ck_assert_int_eq(rdx_kfd_queue_create(f.kfd, 0, RDX_KFD_QUEUE_COMPUTE, 4096, &q), RDX_OK);
    sleep_ms(50);
    rdx_emudev_stats s;
    rdx_emudev_get_stats(f.dev, &s);
    uint64_t before = s.cp_wakeups;
    sleep_ms(250);
    rdx_emudev_get_stats(f.dev, &s);
    /* with GPU 0's doorbells watched, none of the 4 threads needs to wake (without
     * userfaultfd, GPU 0's polls: at most 250 ms / 1 ms) */
    uint64_t limit = s.doorbell_watch ? 0 : 260;
    ck_assert_msg(s.cp_wakeups - before <= limit,
                  "the command processors woke %llu times in 250 ms",
                  (unsigned long long)(s.cp_wakeups - before));
    ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, q), RDX_OK);
    fixture_close(&f);
}
END_TEST

START_TEST(polling_fallback_still_progresses)
{
    wake_fixture w;
    wake_open(&w, "0");
    ck_assert_uint_eq(stats(&w).doorbell_watch, 0);
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    sleep_ms(100);
    rdx_pm4_signal(&cb, w.gpu, 7, false, 0);
    submit(&w, &cb);
    ck_assert_double_ge(spin_until(w.cpu, 7), 0);
    sleep_ms(100);
    rdx_pm4_signal(&cb, w.gpu + 8, 8, false, 0);
    rdx_pm4_signal(&cb, rdx_kfd_event_mailbox(w.ev), rdx_kfd_event_id(w.ev), true,
                   rdx_kfd_event_id(w.ev));
    submit(&w, &cb);
    ck_assert_int_eq(rdx_kfd_event_wait(w.f.kfd, &w.ev, 1, 0, 5000), RDX_OK);
    ck_assert_uint_eq(w.cpu[1], 8);
    rdx_pm4_cmdbuf_free(&cb);
    wake_close(&w);
}
END_TEST

/* A queue parked on WAIT_REG_MEM waits for memory that nobody announces: the command
 * processor re-checks it (as the hardware polls) instead of sleeping for good. */
START_TEST(queue_parked_on_memory_progresses_on_a_plain_store)
{
    wake_fixture w;
    wake_open(&w, NULL);
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    rdx_pm4_wait_mem64(&cb, w.gpu, 5, ~0ull, RDX_PM4_V_WAIT_FUNC_GE, 10);
    rdx_pm4_signal(&cb, w.gpu + 8, 99, false, 0);
    submit(&w, &cb);
    sleep_ms(100);
    ck_assert_uint_eq(w.cpu[1], 0);
    __atomic_store_n(&w.cpu[0], 5, __ATOMIC_RELEASE);
    ck_assert_double_ge(spin_until(&w.cpu[1], 99), 0);
    /* Then idle again: no more wake-ups. */
    sleep_ms(50);
    uint64_t before = stats(&w).cp_wakeups;
    sleep_ms(200);
    if (stats(&w).doorbell_watch)
        ck_assert_uint_eq(stats(&w).cp_wakeups, before);
    rdx_pm4_cmdbuf_free(&cb);
    wake_close(&w);
}
END_TEST

typedef struct waiter {
    wake_fixture *w;
    rdx_status st;
    double woke_ms;
} waiter;

static void *wait_forever(void *arg)
{
    waiter *t = arg;
    t->st = rdx_kfd_event_wait(t->w->f.kfd, &t->w->ev, 1, 0, UINT32_MAX);
    t->woke_ms = now_ms();
    return NULL;
}

START_TEST(waiter_in_wait_events_is_woken_by_completion)
{
    wake_fixture w;
    wake_open(&w, NULL);
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    for (int round = 0; round < 3; round++) {
        waiter t = { &w, RDX_ERR_DEVICE, 0 };
        pthread_t th;
        ck_assert_int_eq(pthread_create(&th, NULL, wait_forever, &t), 0);
        sleep_ms(120); /* the waiter blocks in WAIT_EVENTS, the command processor idles */
        rdx_pm4_signal(&cb, rdx_kfd_event_mailbox(w.ev), rdx_kfd_event_id(w.ev), true,
                       rdx_kfd_event_id(w.ev));
        double t0 = now_ms();
        submit(&w, &cb);
        pthread_join(th, NULL);
        ck_assert_int_eq(t.st, RDX_OK);
        /* Woken by the interrupt: the wait has no timeout and the driver no polling slices
         * any more (a waiter nobody wakes hangs until the test's timeout).  The bound only
         * allows for scheduling delays on a loaded machine. */
        ck_assert_msg(t.woke_ms - t0 < 1000.0,
                      "round %d: the waiter woke %.1f ms after the doorbell", round,
                      t.woke_ms - t0);
    }
    rdx_pm4_cmdbuf_free(&cb);
    wake_close(&w);
}
END_TEST

TCase *kfd_tcase_wake(void)
{
    TCase *tc = tcase_create("wake");
    tcase_add_test(tc, idle_cp_sleeps_until_a_doorbell_store);
    tcase_add_test(tc, unused_gpus_command_processors_sleep);
    tcase_add_test(tc, polling_fallback_still_progresses);
    tcase_add_test(tc, queue_parked_on_memory_progresses_on_a_plain_store);
    tcase_add_test(tc, waiter_in_wait_events_is_woken_by_completion);
    return tc;
}
