/* tests/runtime/t_faults.c — a kernel's VM fault fails its dispatch with the
 * address and program counter and the queue recovers; a queue that hangs
 * ends in a timeout and is reset; the device stays usable. */
#include <stdio.h>
#include <string.h>

#include "tests/runtime/rt_test.h"

static void add_one_works(rt_fixture *f, rdx_queue *q)
{
    rdx_buffer *b;
    RT_OK(rdx_buffer_alloc(f->dev, 64 * 4, RDX_MEM_HOST, &b));
    rdx_arg args[] = { rdx_arg_buffer(b), rdx_arg_i32(64) };
    rdx_launch l = rt_launch1(rt_kernel(f, "add_one"), 1, 64, args, 2);
    uint64_t t;
    RT_OK(rdx_queue_dispatch(q, &l, &t));
    RT_OK(rdx_queue_wait(q, t, 10000));
    const int32_t *p = rdx_buffer_cpu(b);
    for (int i = 0; i < 64; i++)
        ck_assert_int_eq(p[i], 1);
    rdx_buffer_free(b);
}

START_TEST(vm_fault_reports_address_and_pc_then_recovers)
{
    rt_fixture f;
    rt_open(&f, 1);
    rdx_queue *q, *idle;
    RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COMPUTE, &q));
    RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COMPUTE, &idle));
    rdx_buffer *b;
    RT_OK(rdx_buffer_alloc(f.dev, 256, RDX_MEM_HOST, &b));
    int64_t off = (int64_t)1 << 36; /* 256 GiB past the buffer: not mapped */
    rdx_arg args[] = { rdx_arg_buffer(b), rdx_arg_u64((uint64_t)off) };
    rdx_launch l = rt_launch1(rt_kernel(&f, "poke"), 1, 32, args, 2);
    uint64_t t;
    RT_OK(rdx_queue_dispatch(q, &l, &t));
    ck_assert_int_eq(rdx_queue_wait(q, t, 10000), RDX_ERR_FAULT);
    const char *m = rdx_error_message();
    char page[32];
    uint64_t bad = rdx_buffer_gpu_addr(b) + (uint64_t)off * 4;
    snprintf(page, sizeof page, "0x%llx", (unsigned long long)(bad & ~4095ull));
    ck_assert_msg(strstr(m, "memory fault") && strstr(m, page), "message: %s", m);
    ck_assert_msg(strstr(m, "pc") || strstr(m, "PC"), "no program counter in: %s", m);
    /* Waiting again reports the same fault. */
    ck_assert_int_eq(rdx_queue_wait(q, t, 100), RDX_ERR_FAULT);
    /* The queue is recreated on the next submission; the other one never stopped. */
    add_one_works(&f, q);
    add_one_works(&f, idle);
    rdx_device_stats s;
    rdx_device_get_stats(f.dev, &s);
    ck_assert_uint_eq(s.queue_recoveries, 1);
    /* A second fault on the same queue is reported again. */
    RT_OK(rdx_queue_dispatch(q, &l, &t));
    ck_assert_int_eq(rdx_queue_wait(q, t, 10000), RDX_ERR_FAULT);
    add_one_works(&f, q);
    rdx_buffer_free(b);
    RT_OK(rdx_queue_destroy(q));
    RT_OK(rdx_queue_destroy(idle));
    rt_close(&f);
}
END_TEST

START_TEST(hang_times_out_and_queue_resets)
{
    rt_fixture f;
    rt_open(&f, 1);
    rdx_queue *q;
    RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COMPUTE, &q));
    rdx_fence *never;
    RT_OK(rdx_fence_create(f.dev, 0, &never));
    /* The queue waits on the GPU for a value nobody writes: it hangs. */
    RT_OK(rdx_queue_wait_fence(q, never, 1));
    rdx_launch l = rt_launch1(rt_kernel(&f, "empty"), 1, 32, NULL, 0);
    uint64_t t;
    RT_OK(rdx_queue_dispatch(q, &l, &t));
    ck_assert_int_eq(rdx_queue_wait(q, t, 150), RDX_ERR_TIMEOUT);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "not reached after 150 ms"));
    RT_OK(rdx_queue_reset(q));
    ck_assert_int_eq(rdx_queue_wait(q, t, 100), RDX_ERR_FAULT);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "abandoned"));
    add_one_works(&f, q);
    /* A queue reset with its work abandoned is destroyed without waiting. */
    rdx_queue *q2;
    RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COMPUTE, &q2));
    RT_OK(rdx_queue_wait_fence(q2, never, 1));
    RT_OK(rdx_queue_dispatch(q2, &l, &t));
    RT_OK(rdx_queue_reset(q2));
    RT_OK(rdx_queue_destroy(q2));
    /* Fence waits time out too. */
    ck_assert_int_eq(rdx_fence_wait(never, 1, 30), RDX_ERR_TIMEOUT);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "fence: value 1 not reached"));
    rdx_fence_destroy(never);
    RT_OK(rdx_queue_destroy(q));
    rt_close(&f);
}
END_TEST

TCase *rt_tcase_faults(void)
{
    TCase *tc = tcase_create("faults");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, vm_fault_reports_address_and_pc_then_recovers);
    tcase_add_test(tc, hang_times_out_and_queue_resets);
    return tc;
}
