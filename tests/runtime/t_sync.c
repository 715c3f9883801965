/* tests/runtime/t_sync.c — ordering and synchronisation: chains of dependent
 * dispatches, a recorded command buffer replayed with INDIRECT_BUFFER, two
 * queues synchronised on the GPU with WAIT_REG_MEM, fences, several threads
 * submitting to one queue, and a 10,000-dispatch soak. */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "tests/runtime/rt_test.h"

static rdx_buffer *ints(rt_fixture *f, int n, int value)
{
    rdx_buffer *b;
    RT_OK(rdx_buffer_alloc(f->dev, (uint64_t)n * 4, RDX_MEM_HOST, &b));
    int32_t *p = rdx_buffer_cpu(b);
    for (int i = 0; i < n; i++)
        p[i] = value;
    return b;
}

static void expect_all(rdx_buffer *b, int n, int value)
{
    const int32_t *p = rdx_buffer_cpu(b);
    for (int i = 0; i < n; i++)
        if (p[i] != value)
            ck_abort_msg("element %d: %d, want %d", i, p[i], value);
}

START_TEST(chain_of_dependent_dispatches)
{
    rt_fixture f;
    rt_open(&f, 1);
    rdx_queue *q;
    RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COMPUTE, &q));
    enum { N = 300, STEPS = 64 };
    rdx_buffer *b = ints(&f, N, 7);
    rdx_arg args[] = { rdx_arg_buffer(b), rdx_arg_i32(N) };
    rdx_launch l = rt_launch1(rt_kernel(&f, "add_one"), (N + 63) / 64, 64, args, 2);
    uint64_t t = 0;
    for (int i = 0; i < STEPS; i++) {
        uint64_t prev = t;
        RT_OK(rdx_queue_dispatch(q, &l, &t));
        ck_assert_uint_eq(t, prev + 1);
    }
    RT_OK(rdx_queue_finish(q, 10000));
    expect_all(b, N, 7 + STEPS);
    rdx_buffer_free(b);
    RT_OK(rdx_queue_destroy(q));
    rt_close(&f);
}
END_TEST

START_TEST(recorded_command_buffer_replayed)
{
    rt_fixture f;
    rt_open(&f, 1);
    rdx_queue *q;
    RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COMPUTE, &q));
    enum { N = 100 };
    rdx_buffer *a = ints(&f, N, 0), *b = ints(&f, N, 1000);
    rdx_cmdbuf *cb;
    RT_OK(rdx_cmdbuf_create(f.dev, &cb));
    rdx_arg aa[] = { rdx_arg_buffer(a), rdx_arg_i32(N) };
    rdx_arg ba[] = { rdx_arg_buffer(b), rdx_arg_i32(N / 2) };
    rdx_launch la = rt_launch1(rt_kernel(&f, "add_one"), 2, 64, aa, 2);
    rdx_launch lb = rt_launch1(rt_kernel(&f, "add_one"), 1, 64, ba, 2);
    RT_OK(rdx_cmdbuf_dispatch(cb, &la));
    RT_OK(rdx_cmdbuf_dispatch(cb, &la));
    RT_OK(rdx_cmdbuf_dispatch(cb, &lb));
    rdx_arg bad[] = { rdx_arg_buffer(a) };
    rdx_launch lbad = rt_launch1(rt_kernel(&f, "add_one"), 1, 64, bad, 1);
    ck_assert_int_eq(rdx_cmdbuf_dispatch(cb, &lbad), RDX_ERR_INVALID);
    uint64_t t;
    for (int i = 0; i < 5; i++)
        RT_OK(rdx_queue_replay(q, cb, &t));
    RT_OK(rdx_queue_wait(q, t, 10000));
    expect_all(a, N, 10);
    const int32_t *pb = rdx_buffer_cpu(b);
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(pb[i], i < N / 2 ? 1005 : 1000);
    ck_assert_int_eq(rdx_cmdbuf_dispatch(cb, &la), RDX_ERR_INVALID); /* sealed by the replay */
    rdx_cmdbuf_destroy(cb);
    rdx_buffer_free(a);
    rdx_buffer_free(b);
    RT_OK(rdx_queue_destroy(q));
    rt_close(&f);
}
END_TEST

static void sleep_ms(int ms)
{
    struct timespec ts = { 0, ms * 1000000L };
    nanosleep(&ts, NULL);
}

START_TEST(two_queues_synchronise_on_the_gpu)
{
    rt_fixture f;
    rt_open(&f, 1);
    rdx_queue *q1, *q2;
    RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COMPUTE, &q1));
    RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COMPUTE, &q2));
    enum { N = 64 };
    rdx_buffer *b = ints(&f, N, 0);
    rdx_arg args[] = { rdx_arg_buffer(b), rdx_arg_i32(N) };
    rdx_launch l = rt_launch1(rt_kernel(&f, "add_one"), 1, 64, args, 2);
    rdx_fence *gate;
    RT_OK(rdx_fence_create(f.dev, 0, &gate));
    /* q2 waits for the host-controlled gate, then adds 1.  q1 waits for q2's
     * work (WAIT_REG_MEM64 on q2's timeline), then adds 1. */
    uint64_t t2, t1;
    RT_OK(rdx_queue_wait_fence(q2, gate, 5));
    RT_OK(rdx_queue_dispatch(q2, &l, &t2));
    RT_OK(rdx_queue_wait_queue(q1, q2, t2));
    RT_OK(rdx_queue_dispatch(q1, &l, &t1));
    sleep_ms(50);
    ck_assert_int_eq(rdx_queue_wait(q1, t1, 20), RDX_ERR_TIMEOUT);
    ck_assert_uint_lt(rdx_queue_completed(q2), t2);
    expect_all(b, N, 0);
    RT_OK(rdx_fence_set(gate, 5));
    RT_OK(rdx_queue_wait(q1, t1, 10000));
    ck_assert_uint_ge(rdx_queue_completed(q2), t2);
    expect_all(b, N, 2);
    /* A queue signals a fence, another waits for it on the GPU. */
    rdx_fence *done;
    RT_OK(rdx_fence_create(f.dev, 0, &done));
    RT_OK(rdx_queue_wait_fence(q1, done, 1));
    RT_OK(rdx_queue_dispatch(q1, &l, &t1));
    RT_OK(rdx_queue_dispatch(q2, &l, &t2));
    RT_OK(rdx_queue_signal(q2, done, 1, NULL));
    RT_OK(rdx_fence_wait(done, 1, 10000));
    RT_OK(rdx_queue_wait(q1, t1, 10000));
    expect_all(b, N, 4);
    ck_assert_int_eq(rdx_fence_wait(gate, 6, 10), RDX_ERR_TIMEOUT);
    rdx_fence_destroy(gate);
    rdx_fence_destroy(done);
    rdx_buffer_free(b);
    RT_OK(rdx_queue_destroy(q1));
    RT_OK(rdx_queue_destroy(q2));
    rt_close(&f);
}
END_TEST

typedef struct thread_arg {
    rdx_queue *q;
    rdx_launch l;
    int n;
    rdx_status st;
} thread_arg;

static void *submitter(void *p)
{
    thread_arg *a = p;
    for (int i = 0; i < a->n && a->st == RDX_OK; i++)
        a->st = rdx_queue_dispatch(a->q, &a->l, NULL);
    return NULL;
}

START_TEST(threads_submit_to_one_queue)
{
    rt_fixture f;
    rt_open(&f, 1);
    rdx_queue *q;
    RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COMPUTE, &q));
    enum { T = 4, PER = 200 };
    rdx_buffer *b = ints(&f, 32, 0);
    rdx_arg args[] = { rdx_arg_buffer(b), rdx_arg_i32(32) };
    thread_arg ta[T];
    pthread_t th[T];
    for (int i = 0; i < T; i++) {
        ta[i] =
            (thread_arg){ q, rt_launch1(rt_kernel(&f, "add_one"), 1, 32, args, 2), PER, RDX_OK };
        ck_assert_int_eq(pthread_create(&th[i], NULL, submitter, &ta[i]), 0);
    }
    for (int i = 0; i < T; i++) {
        pthread_join(th[i], NULL);
        ck_assert_int_eq(ta[i].st, RDX_OK);
    }
    ck_assert_uint_eq(rdx_queue_submitted(q), T * PER);
    RT_OK(rdx_queue_finish(q, 30000));
    expect_all(b, 32, T * PER);
    rdx_buffer_free(b);
    RT_OK(rdx_queue_destroy(q));
    rt_close(&f);
}
END_TEST

START_TEST(soak_of_ten_thousand_dispatches)
{
    rt_fixture f;
    rt_open(&f, 1);
    rdx_queue *q;
    RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COMPUTE, &q));
    rdx_launch l = rt_launch1(rt_kernel(&f, "empty"), 1, 32, NULL, 0);
    enum { N = 10000 };
    uint64_t t = 0;
    for (int i = 0; i < N; i++) {
        rdx_status st = rdx_queue_dispatch(q, &l, &t);
        if (st || t != (uint64_t)i + 1)
            ck_abort_msg("dispatch %d: %s, ticket %llu", i, rdx_error_message(),
                         (unsigned long long)t);
        if (i % 2500 == 2499) /* waits in between, too */
            RT_OK(rdx_queue_wait(q, t - 100, 30000));
    }
    RT_OK(rdx_queue_wait(q, t, 60000));
    ck_assert_uint_eq(rdx_queue_completed(q), N);
    uint64_t ns;
    RT_OK(rdx_queue_dispatch_time(q, N, &ns));
    rdx_emudev_stats s;
    rdx_emudev_get_stats(f.emu, &s);
    ck_assert_uint_ge(s.packets, (uint64_t)N * 8);
    RT_OK(rdx_queue_destroy(q));
    rt_close(&f);
}
END_TEST

TCase *rt_tcase_sync(void)
{
    TCase *tc = tcase_create("sync");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, chain_of_dependent_dispatches);
    tcase_add_test(tc, recorded_command_buffer_replayed);
    tcase_add_test(tc, two_queues_synchronise_on_the_gpu);
    tcase_add_test(tc, threads_submit_to_one_queue);
    tcase_add_test(tc, soak_of_ten_thousand_dispatches);
    return tc;
}
