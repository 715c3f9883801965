/* tests/runtime/t_stop.c — stopping work on the emulated GPU through the
 * runtime: a huge grid of short waves (add_one with n = 0: a few instructions
 * per wave) is abandoned by rdx_queue_reset and by rdx_queue_destroy after a
 * timed-out wait, both returning promptly (before the fix they never
 * returned: DESTROY_QUEUE waited for a dispatch that never saw the cancel),
 * the abandoned ticket's report says where the waves were (PC histogram);
 * the device option's dispatch budget fails a slow dispatch with its own
 * report; `rdx run --timeout` and `--dispatch-budget` end to end. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tests/runtime/rt_test.h"

typedef struct stop_fixture {
    rdx_device *dev;
    rdx_program *prog;
    rdx_queue *q;
    const rdx_kernel *add_one;
} stop_fixture;

static void stop_open(stop_fixture *h, uint64_t dispatch_budget)
{
    memset(h, 0, sizeof *h);
    rdx_device_options o = { .kind = RDX_DEVICE_EMU,
                             .quiet = true,
                             .emu_dispatch_budget = dispatch_budget };
    RT_OK(rdx_device_open(&o, &h->dev));
    RT_OK(rdx_program_load_file(h->dev, rt_kernels_co, &h->prog));
    RT_OK(rdx_program_find(h->prog, "add_one", &h->add_one));
    RT_OK(rdx_queue_create(h->dev, RDX_QUEUE_COMPUTE, &h->q));
}

static void stop_close(stop_fixture *h)
{
    RT_OK(rdx_queue_destroy(h->q));
    rdx_program_free(h->prog);
    rdx_device_stats s;
    rdx_device_get_stats(h->dev, &s);
    ck_assert_uint_eq(s.buffers, 0);
    RT_OK(rdx_device_close(h->dev));
}

/* add_one(b, n) on `groups` x 64 work-items; returns the ticket. */
static uint64_t add_one(stop_fixture *h, rdx_buffer *b, int32_t n, const uint32_t groups[3])
{
    rdx_arg args[] = { rdx_arg_buffer(b), rdx_arg_i32(n) };
    rdx_launch l = rt_launch1(h->add_one, groups[0], 64, args, 2);
    l.grid[1] = groups[1];
    l.grid[2] = groups[2];
    uint64_t t;
    RT_OK(rdx_queue_dispatch(h->q, &l, &t));
    return t;
}

/* add_one over 64 ints on h->q, checked: the queue works. */
static void queue_works(stop_fixture *h)
{
    rdx_buffer *b;
    RT_OK(rdx_buffer_alloc(h->dev, 64 * 4, RDX_MEM_HOST, &b));
    const uint32_t one[3] = { 1, 1, 1 };
    RT_OK(rdx_queue_wait(h->q, add_one(h, b, 64, one), 10000));
    const int32_t *p = rdx_buffer_cpu(b);
    for (int i = 0; i < 64; i++)
        ck_assert_int_eq(p[i], 1);
    rdx_buffer_free(b);
}

/* 65535^3 workgroups of 64 work-items that do nothing (n = 0): hours of emulation. */
static const uint32_t huge[3] = { 65535, 65535, 65535 };

START_TEST(reset_and_destroy_stop_a_huge_grid_of_short_waves)
{
    stop_fixture h;
    stop_open(&h, 0);
    rdx_buffer *b;
    RT_OK(rdx_buffer_alloc(h.dev, 256, RDX_MEM_HOST, &b));
    for (int round = 0; round < 2; round++) {
        uint64_t t = add_one(&h, b, 0, huge);
        ck_assert_int_eq(rdx_queue_wait(h.q, t, 50), RDX_ERR_TIMEOUT);
        double t0 = rt_now_s();
        RT_OK(rdx_queue_reset(h.q));
        double el = rt_now_s() - t0;
        ck_assert_msg(el < 5.0, "resetting took %.2f s", el);
        ck_assert_int_eq(rdx_queue_wait(h.q, t, 0), RDX_ERR_FAULT);
        const char *m = rdx_error_message();
        ck_assert_msg(strstr(m, "abandoned by rdx_queue_reset; the GPU stopped it: ") &&
                          strstr(m, "cancelled by the caller") && strstr(m, "PC histogram"),
                      "%s", m);
        queue_works(&h);
    }
    /* Destroying the queue after a timed-out wait abandons the work as promptly. */
    uint64_t t = add_one(&h, b, 0, huge);
    ck_assert_int_eq(rdx_queue_wait(h.q, t, 50), RDX_ERR_TIMEOUT);
    double t0 = rt_now_s();
    RT_OK(rdx_queue_destroy(h.q));
    double el = rt_now_s() - t0;
    ck_assert_msg(el < 5.0, "destroying took %.2f s", el);
    RT_OK(rdx_queue_create(h.dev, RDX_QUEUE_COMPUTE, &h.q));
    queue_works(&h);
    rdx_buffer_free(b);
    stop_close(&h);
}
END_TEST

START_TEST(dispatch_budget_from_device_options_fails_a_slow_dispatch)
{
    stop_fixture h;
    stop_open(&h, 10000);
    /* 4096 groups of 64 work-items, each adding one: ~10^5 wave-instructions. */
    rdx_buffer *b;
    RT_OK(rdx_buffer_alloc(h.dev, 4096 * 64 * 4, RDX_MEM_HOST, &b));
    const uint32_t many[3] = { 4096, 1, 1 };
    uint64_t t = add_one(&h, b, 4096 * 64, many);
    ck_assert_int_eq(rdx_queue_wait(h.q, t, 30000), RDX_ERR_FAULT);
    const char *m = rdx_error_message();
    ck_assert_msg(strstr(m, "slow dispatch: ") &&
                      strstr(m, "dispatch exceeded its budget of 10000 wave-instructions") &&
                      strstr(m, "PC histogram") && !strstr(m, "hang:"),
                  "%s", m);
    rdx_buffer_free(b);
    /* Under the budget the recovered queue works. */
    queue_works(&h);
    stop_close(&h);
}
END_TEST

START_TEST(run_timeout_and_dispatch_budget_report_the_pcs)
{
    /* --timeout on a huge grid of short waves: rdx exits, the report says where the waves
     * were (before the fix it printed "the GPU seems hung" and never exited). */
    rdx_test_proc p;
    double t0 = rt_now_s();
    const char *a[] = { rt_kernels_co, "--kernel",  "add_one", "--grid",    "65535,65535,65535",
                        "--block",     "64",        "--arg",   "zeros:256", "--arg",
                        "i32:0",       "--timeout", "300",     NULL };
    int rc = rt_rdx_run(a, &p);
    double el = rt_now_s() - t0;
    ck_assert_msg(rc == 1, "exit %d, want 1 (stderr: %s)", rc, p.err);
    ck_assert_msg(strstr(p.err, "not reached after 300 ms") &&
                      strstr(p.err, "abandoned by rdx_queue_reset") &&
                      strstr(p.err, "PC histogram"),
                  "stderr: %s", p.err);
    ck_assert_msg(el < 10.0, "rdx run took %.1f s to give up", el);
    rdx_test_proc_free(&p);

    /* An endless kernel with the default wave budget: the timeout's report names the loop. */
    const char *b[] = { rt_spin_co, "--grid", "2", "--block", "32", "--timeout", "300", NULL };
    rc = rt_rdx_run(b, &p);
    ck_assert_msg(rc == 1, "exit %d, want 1 (stderr: %s)", rc, p.err);
    ck_assert_msg(strstr(p.err, "PC histogram (waves): code+0x0 x") &&
                      strstr(p.err, " 's_branch 65535'"),
                  "stderr: %s", p.err);
    rdx_test_proc_free(&p);

    /* --dispatch-budget: a slow dispatch, exit 1. */
    const char *c[] = { rt_kernels_co, "--kernel", "add_one",   "--grid",
                        "256",         "--block",  "64",        "--arg",
                        "zeros:65536", "--arg",    "i32:16384", "--dispatch-budget",
                        "1000",        NULL };
    rc = rt_rdx_run(c, &p);
    ck_assert_msg(rc == 1, "exit %d, want 1 (stderr: %s)", rc, p.err);
    ck_assert_msg(strstr(p.err, "slow dispatch: ") &&
                      strstr(p.err, "dispatch exceeded its budget of 1000 wave-instructions"),
                  "stderr: %s", p.err);
    rdx_test_proc_free(&p);
    const char *d[] = {
        rt_spin_co, "--grid", "1", "--block", "32", "--dispatch-budget", "0", NULL
    };
    ck_assert_int_eq(rt_rdx_run(d, &p), 2);
    ck_assert_msg(strstr(p.err, "--dispatch-budget 0"), "stderr: %s", p.err);
    rdx_test_proc_free(&p);
}
END_TEST

TCase *rt_tcase_stop(void)
{
    TCase *tc = tcase_create("stop");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, reset_and_destroy_stop_a_huge_grid_of_short_waves);
    tcase_add_test(tc, dispatch_budget_from_device_options_fails_a_slow_dispatch);
    tcase_add_test(tc, run_timeout_and_dispatch_budget_report_the_pcs);
    return tc;
}
