/* tests/runtime/t_hang.c — a kernel that never ends (tests/data/runtime/spin.s,
 * an s_branch to itself) on the emulated GPU opened through the runtime: a
 * wait with a timeout returns RDX_ERR_TIMEOUT promptly, the per-wave
 * instruction budget of rdx_device_options turns the hang into a fault with
 * a PC histogram, resetting the queue cancels a spinning dispatch at once,
 * and the device keeps working afterwards. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tests/runtime/rt_test.h"

typedef struct hang_fixture {
    rdx_device *dev;
    rdx_program *spin, *kernels;
    rdx_queue *q;
} hang_fixture;

static void hang_open(hang_fixture *h, uint64_t budget)
{
    memset(h, 0, sizeof *h);
    rdx_device_options o = { .kind = RDX_DEVICE_EMU, .quiet = true, .emu_wave_budget = budget };
    RT_OK(rdx_device_open(&o, &h->dev));
    RT_OK(rdx_program_load_file(h->dev, rt_spin_co, &h->spin));
    RT_OK(rdx_program_load_file(h->dev, rt_kernels_co, &h->kernels));
    RT_OK(rdx_queue_create(h->dev, RDX_QUEUE_COMPUTE, &h->q));
}

static void hang_close(hang_fixture *h)
{
    RT_OK(rdx_queue_destroy(h->q));
    rdx_program_free(h->spin);
    rdx_program_free(h->kernels);
    rdx_device_stats s;
    rdx_device_get_stats(h->dev, &s);
    ck_assert_uint_eq(s.buffers, 0);
    ck_assert_uint_eq(s.programs, 0);
    RT_OK(rdx_device_close(h->dev));
}

/* Dispatch the endless kernel: `groups` workgroups of 32. */
static uint64_t spin(hang_fixture *h, uint32_t groups)
{
    const rdx_kernel *k;
    RT_OK(rdx_program_find(h->spin, "spin", &k));
    rdx_launch l = rt_launch1(k, groups, 32, NULL, 0);
    uint64_t t;
    RT_OK(rdx_queue_dispatch(h->q, &l, &t));
    return t;
}

/* add_one over 64 ints on h->q, checked. */
static void add_one_works(hang_fixture *h)
{
    const rdx_kernel *k;
    RT_OK(rdx_program_find(h->kernels, "add_one", &k));
    rdx_buffer *b;
    RT_OK(rdx_buffer_alloc(h->dev, 64 * 4, RDX_MEM_HOST, &b));
    rdx_arg args[] = { rdx_arg_buffer(b), rdx_arg_i32(64) };
    rdx_launch l = rt_launch1(k, 1, 64, args, 2);
    uint64_t t;
    RT_OK(rdx_queue_dispatch(h->q, &l, &t));
    RT_OK(rdx_queue_wait(h->q, t, 10000));
    const int32_t *p = rdx_buffer_cpu(b);
    for (int i = 0; i < 64; i++)
        ck_assert_int_eq(p[i], 1);
    rdx_buffer_free(b);
}

/* The fault message of a hung dispatch names the budget and the looping PC. */
static void check_hang_message(const char *m)
{
    ck_assert_msg(strstr(m, "budget") != NULL, "no budget in: %s", m);
    ck_assert_msg(strstr(m, "PC histogram") != NULL, "no PC histogram in: %s", m);
}

START_TEST(hang_budget_from_device_options_ends_the_dispatch)
{
    hang_fixture h;
    hang_open(&h, 200000);
    double t0 = rt_now_s();
    uint64_t t = spin(&h, 2);
    ck_assert_int_eq(rdx_queue_wait(h.q, t, 30000), RDX_ERR_FAULT);
    double el = rt_now_s() - t0;
    check_hang_message(rdx_error_message());
    ck_assert_msg(el < 10.0, "the hang took %.1f s to be reported", el);
    /* Waiting again reports the same fault; the queue is recreated and works. */
    ck_assert_int_eq(rdx_queue_wait(h.q, t, 100), RDX_ERR_FAULT);
    add_one_works(&h);
    /* And a second hang on the same queue is reported as well. */
    t = spin(&h, 1);
    ck_assert_int_eq(rdx_queue_wait(h.q, t, 30000), RDX_ERR_FAULT);
    check_hang_message(rdx_error_message());
    add_one_works(&h);
    rdx_device_stats s;
    rdx_device_get_stats(h.dev, &s);
    ck_assert_uint_eq(s.queue_recoveries, 2);
    hang_close(&h);
}
END_TEST

START_TEST(wait_on_a_spinning_kernel_times_out_promptly)
{
    hang_fixture h;
    /* About half a second of emulation per wave: the waits below return
     * long before the budget would end the dispatch. */
    hang_open(&h, 50000000);
    uint64_t t = spin(&h, 1);
    double t0 = rt_now_s();
    ck_assert_int_eq(rdx_queue_wait(h.q, t, 50), RDX_ERR_TIMEOUT);
    double el = rt_now_s() - t0;
    ck_assert_msg(strstr(rdx_error_message(), "not reached after 50 ms") != NULL, "message: %s",
                  rdx_error_message());
    ck_assert_msg(el < 2.0, "a 50 ms wait took %.2f s", el);
    /* The budget still ends it; then the device is usable. */
    ck_assert_int_eq(rdx_queue_wait(h.q, t, 60000), RDX_ERR_FAULT);
    check_hang_message(rdx_error_message());
    add_one_works(&h);
    /* Or the caller gives up: the queue is reset while the kernel spins. */
    t = spin(&h, 1);
    ck_assert_int_eq(rdx_queue_wait(h.q, t, 20), RDX_ERR_TIMEOUT);
    RT_OK(rdx_queue_reset(h.q));
    ck_assert_int_eq(rdx_queue_wait(h.q, t, 100), RDX_ERR_FAULT);
    add_one_works(&h);
    hang_close(&h);
}
END_TEST

START_TEST(reset_cancels_a_spinning_dispatch_at_once)
{
    hang_fixture h;
    /* 10^12 instructions per wave: only the cancel hook of the emulated
     * device (DESTROY_QUEUE of the reset) can end these dispatches. */
    hang_open(&h, 1000000000000ull);
    for (int round = 0; round < 2; round++) {
        uint64_t t = spin(&h, 4);
        ck_assert_int_eq(rdx_queue_wait(h.q, t, 20), RDX_ERR_TIMEOUT);
        double t0 = rt_now_s();
        RT_OK(rdx_queue_reset(h.q));
        double el = rt_now_s() - t0;
        ck_assert_msg(el < 3.0, "resetting a queue with a spinning dispatch took %.2f s", el);
        ck_assert_int_eq(rdx_queue_wait(h.q, t, 100), RDX_ERR_FAULT);
        ck_assert_msg(strstr(rdx_error_message(), "abandoned by rdx_queue_reset"), "%s",
                      rdx_error_message());
        add_one_works(&h);
    }
    hang_close(&h);
}
END_TEST

START_TEST(destroy_after_a_timed_out_wait_does_not_wait_again)
{
    hang_fixture h;
    /* Only the cancel hook ends this dispatch: rdx_queue_destroy must not
     * spend its own 10 s finishing work the caller already saw hang. */
    hang_open(&h, 1000000000000ull);
    uint64_t t = spin(&h, 2);
    ck_assert_int_eq(rdx_queue_wait(h.q, t, 20), RDX_ERR_TIMEOUT);
    double t0 = rt_now_s();
    RT_OK(rdx_queue_destroy(h.q));
    double el = rt_now_s() - t0;
    ck_assert_msg(el < 3.0, "destroying a queue with a hung dispatch took %.2f s", el);
    /* The device stays usable with a fresh queue. */
    RT_OK(rdx_queue_create(h.dev, RDX_QUEUE_COMPUTE, &h.q));
    add_one_works(&h);
    hang_close(&h);
}
END_TEST

TCase *rt_tcase_hang(void)
{
    TCase *tc = tcase_create("hang");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, hang_budget_from_device_options_ends_the_dispatch);
    tcase_add_test(tc, wait_on_a_spinning_kernel_times_out_promptly);
    tcase_add_test(tc, reset_cancels_a_spinning_dispatch_at_once);
    tcase_add_test(tc, destroy_after_a_timed_out_wait_does_not_wait_again);
    return tc;
}
