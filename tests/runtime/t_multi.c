/*
 * tests/runtime/t_multi.c — several GPUs of one machine as devices of one
 * process: opening them (a caller's emulated machine, RDX_EMU_GPUS,
 * rdx_device_open_all), peer access (a kernel on one GPU writing another's
 * buffer, an SDMA copy between two other GPUs' buffers, a queue of one GPU
 * waiting for a queue of another), and a fault on one GPU leaving the others
 * alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/runtime/rt_test.h"

static void assert_empty(rdx_emudev *e)
{
    rdx_emudev_stats s;
    rdx_emudev_get_stats(e, &s);
    ck_assert_uint_eq(s.open_fds, 0);
    ck_assert_uint_eq(s.bos, 0);
    ck_assert_uint_eq(s.queues, 0);
    ck_assert_uint_eq(s.events, 0);
}

/* Both GPUs of a caller's 2-GPU machine open as devices (was: ACQUIRE_VM EBUSY). */
START_TEST(both_gpus_of_one_machine)
{
    rdx_emudev *e;
    rdx_emudev_config cfg = { .num_gpus = 2 };
    RT_OK(rdx_emudev_create(&cfg, &e));
    rdx_device_options o = { .os = rdx_emudev_os(e), .gpu = 0 };
    rdx_device *d0, *d1;
    RT_OK(rdx_device_open(&o, &d0));
    o.gpu = 1;
    RT_OK(rdx_device_open(&o, &d1));
    const rdx_device_info *i0 = rdx_device_get_info(d0), *i1 = rdx_device_get_info(d1);
    ck_assert_uint_eq(i0->gpu_index, 0);
    ck_assert_uint_eq(i1->gpu_index, 1);
    ck_assert_uint_eq(i1->gpu_count, 2);
    ck_assert_uint_ne(i0->gpu_id, i1->gpu_id);
    ck_assert(rdx_device_can_access_peer(d0, d1));
    ck_assert(rdx_device_can_access_peer(d1, d0));
    RT_OK(rdx_device_close(d0));
    /* the machine stays open for the other device */
    rdx_buffer *b;
    RT_OK(rdx_buffer_alloc(d1, 1024, RDX_MEM_DEVICE, &b));
    uint32_t v[256], w[256];
    for (int i = 0; i < 256; i++)
        v[i] = (uint32_t)i * 3u;
    RT_OK(rdx_buffer_upload(b, 0, v, sizeof v));
    RT_OK(rdx_buffer_download(b, 0, w, sizeof w));
    ck_assert_int_eq(memcmp(v, w, sizeof v), 0);
    rdx_buffer_free(b);
    RT_OK(rdx_device_close(d1));
    assert_empty(e);
    rdx_emudev_destroy(e);
}
END_TEST

/* The runtime's own emulated machine: GPU 1 needs RDX_EMU_GPUS or emu_gpus (was: "no GPU 1
 * (the emu device has 1)" whatever one did). */
START_TEST(emu_gpus_from_env_and_option)
{
    unsetenv("RDX_EMU_GPUS");
    rdx_device_options o = { .kind = RDX_DEVICE_EMU, .gpu = 1, .quiet = true };
    rdx_device *d0, *d1, *lone;
    ck_assert_int_eq(rdx_device_open(&o, &d1), RDX_ERR_NOT_FOUND);
    ck_assert_msg(strstr(rdx_error_message(), "no GPU 1") &&
                      strstr(rdx_error_message(), "RDX_EMU_GPUS"),
                  "%s", rdx_error_message());
    setenv("RDX_EMU_GPUS", "3", 1);
    RT_OK(rdx_device_open(&o, &d1));
    o.gpu = 0;
    RT_OK(rdx_device_open(&o, &d0));
    ck_assert_uint_eq(rdx_device_get_info(d1)->gpu_count, 3);
    ck_assert(rdx_device_can_access_peer(d0, d1)); /* one machine */
    o.emu_gpus = 1;                                /* a machine of its own */
    RT_OK(rdx_device_open(&o, &lone));
    ck_assert(!rdx_device_can_access_peer(lone, d0));
    rdx_buffer *a, *b;
    RT_OK(rdx_buffer_alloc(d0, 256, RDX_MEM_DEVICE, &a));
    RT_OK(rdx_buffer_alloc(lone, 256, RDX_MEM_DEVICE, &b));
    rdx_queue *q;
    RT_OK(rdx_queue_create(lone, RDX_QUEUE_COPY, &q));
    ck_assert_int_eq(rdx_queue_copy(q, b, 0, a, 0, 256, NULL), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "belongs to GPU 0, which GPU 0 cannot access"), "%s",
                  rdx_error_message());
    RT_OK(rdx_queue_destroy(q));
    rdx_buffer_free(a);
    rdx_buffer_free(b);
    RT_OK(rdx_device_close(lone));
    RT_OK(rdx_device_close(d0));
    RT_OK(rdx_device_close(d1));
    setenv("RDX_EMU_GPUS", "9", 1);
    o.emu_gpus = 0;
    ck_assert_int_eq(rdx_device_open(&o, &d0), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "RDX_EMU_GPUS='9'"), "%s", rdx_error_message());
    unsetenv("RDX_EMU_GPUS");
}
END_TEST

/* GPU 1 adds 1 to GPU 0's buffer; GPU 3's copy queue waits for GPU 1's queue on the GPU
 * and copies the result into GPU 2's buffer; the host reads it back through GPU 2. */
START_TEST(peer_kernel_copy_and_wait)
{
    unsetenv("RDX_EMU_GPUS");
    rdx_device *d[4];
    rdx_device_options o = { .kind = RDX_DEVICE_EMU, .quiet = true };
    RT_OK(rdx_device_open_all(&o, 4, d));
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            ck_assert(rdx_device_can_access_peer(d[i], d[j]));
    enum { N = 4096 };
    int32_t *v = malloc(N * 4), *w = malloc(N * 4);
    for (int i = 0; i < N; i++)
        v[i] = i * 5 - 7;
    rdx_buffer *b0, *b2;
    RT_OK(rdx_buffer_alloc(d[0], N * 4, RDX_MEM_DEVICE, &b0));
    RT_OK(rdx_buffer_alloc(d[2], N * 4, RDX_MEM_DEVICE, &b2));
    RT_OK(rdx_buffer_upload(b0, 0, v, N * 4));
    rdx_program *p1;
    RT_OK(rdx_program_load_file(d[1], rt_kernels_co, &p1));
    const rdx_kernel *k;
    RT_OK(rdx_program_find(p1, "add_one", &k));
    rdx_queue *q1, *q3;
    RT_OK(rdx_queue_create(d[1], RDX_QUEUE_COMPUTE, &q1));
    RT_OK(rdx_queue_create(d[3], RDX_QUEUE_COPY, &q3));
    rdx_arg args[] = { rdx_arg_buffer(b0), rdx_arg_i32(N) };
    rdx_launch l = rt_launch1(k, N / 256, 256, args, 2);
    uint64_t t1, t3;
    /* the copy queue is told to wait before the kernel is even submitted */
    RT_OK(rdx_queue_wait_queue(q3, q1, 1));
    RT_OK(rdx_queue_copy(q3, b2, 0, b0, 0, N * 4, &t3));
    RT_OK(rdx_queue_dispatch(q1, &l, &t1));
    ck_assert_uint_eq(t1, 1);
    RT_OK(rdx_queue_wait(q3, t3, 10000));
    RT_OK(rdx_buffer_download(b2, 0, w, N * 4));
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(w[i], i * 5 - 7 + 1);
    RT_OK(rdx_queue_destroy(q1));
    RT_OK(rdx_queue_destroy(q3));
    rdx_program_free(p1);
    rdx_buffer_free(b0);
    rdx_buffer_free(b2);
    for (int i = 0; i < 4; i++) {
        rdx_device_stats s;
        rdx_device_get_stats(d[i], &s);
        ck_assert_uint_eq(s.buffers, 0);
        RT_OK(rdx_device_close(d[i]));
    }
    free(v);
    free(w);
}
END_TEST

/* A fault on GPU 1 fails GPU 1's work only: GPU 0's queue, with work in flight at the
 * time, is not marked faulted (KFD's fault events fire for every device of the process). */
START_TEST(fault_on_one_gpu_spares_the_others)
{
    rdx_emudev *e;
    rdx_emudev_config cfg = { .num_gpus = 2 };
    RT_OK(rdx_emudev_create(&cfg, &e));
    rdx_device *d[2];
    rdx_device_options o = { .os = rdx_emudev_os(e) };
    RT_OK(rdx_device_open_all(&o, 2, d));
    rdx_program *p[2];
    rdx_queue *q[2];
    for (int i = 0; i < 2; i++) {
        RT_OK(rdx_program_load_file(d[i], rt_kernels_co, &p[i]));
        RT_OK(rdx_queue_create(d[i], RDX_QUEUE_COMPUTE, &q[i]));
    }
    const rdx_kernel *add0, *poke1;
    RT_OK(rdx_program_find(p[0], "add_one", &add0));
    RT_OK(rdx_program_find(p[1], "poke", &poke1));
    rdx_buffer *b0, *b1;
    RT_OK(rdx_buffer_alloc(d[0], 256, RDX_MEM_HOST, &b0));
    RT_OK(rdx_buffer_alloc(d[1], 256, RDX_MEM_HOST, &b1));
    rdx_fence *f;
    RT_OK(rdx_fence_create(d[0], 0, &f));
    /* GPU 0: work held back by a fence */
    RT_OK(rdx_queue_wait_fence(q[0], f, 1));
    rdx_arg a0[] = { rdx_arg_buffer(b0), rdx_arg_i32(64) };
    rdx_launch l0 = rt_launch1(add0, 1, 64, a0, 2);
    uint64_t t0, t1;
    RT_OK(rdx_queue_dispatch(q[0], &l0, &t0));
    /* GPU 1: a kernel writing far past its buffer */
    rdx_arg a1[] = { rdx_arg_buffer(b1), rdx_arg_u64(1ull << 36) };
    rdx_launch l1 = rt_launch1(poke1, 1, 32, a1, 2);
    RT_OK(rdx_queue_dispatch(q[1], &l1, &t1));
    ck_assert_int_eq(rdx_queue_wait(q[1], t1, 10000), RDX_ERR_FAULT);
    char want[32];
    snprintf(want, sizeof want, "on gpu %u ", rdx_device_get_info(d[1])->gpu_id);
    ck_assert_msg(strstr(rdx_error_message(), want), "%s", rdx_error_message());
    /* GPU 0 saw the fault event too, and must not take it for its own */
    ck_assert_int_eq(rdx_queue_wait(q[0], t0, 100), RDX_ERR_TIMEOUT);
    RT_OK(rdx_fence_set(f, 1));
    RT_OK(rdx_queue_wait(q[0], t0, 10000));
    ck_assert_int_eq(((int32_t *)rdx_buffer_cpu(b0))[63], 1);
    rdx_device_stats s;
    rdx_device_get_stats(d[0], &s);
    ck_assert_uint_eq(s.queue_recoveries, 0);
    /* GPU 1 recovers */
    rdx_arg a2[] = { rdx_arg_buffer(b1), rdx_arg_u64(3) };
    l1 = rt_launch1(poke1, 1, 32, a2, 2);
    RT_OK(rdx_queue_dispatch(q[1], &l1, &t1));
    RT_OK(rdx_queue_wait(q[1], t1, 10000));
    ck_assert_int_eq(((int32_t *)rdx_buffer_cpu(b1))[3], 42);
    rdx_fence_destroy(f);
    rdx_buffer_free(b0);
    rdx_buffer_free(b1);
    for (int i = 0; i < 2; i++) {
        RT_OK(rdx_queue_destroy(q[i]));
        rdx_program_free(p[i]);
        RT_OK(rdx_device_close(d[i]));
    }
    assert_empty(e);
    rdx_emudev_destroy(e);
}
END_TEST

TCase *rt_tcase_multi(void)
{
    TCase *tc = tcase_create("multi");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, both_gpus_of_one_machine);
    tcase_add_test(tc, emu_gpus_from_env_and_option);
    tcase_add_test(tc, peer_kernel_copy_and_wait);
    tcase_add_test(tc, fault_on_one_gpu_spares_the_others);
    return tc;
}
