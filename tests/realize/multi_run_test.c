/*
 * tests/realize/multi_run_test.c — how the devices of a multi-device realize
 * run (realize/multi.c): at the same time, each on a thread and a queue of its
 * own (a rendezvous in the profile hook that only devices running together can
 * meet); one after another with RDX_MULTI_SERIAL; a GPU hanging while the
 * other computes: an error naming the device and the tensors it computed, the
 * other device's work done, both devices usable afterwards, nothing left on
 * them; devices of two architectures: an error naming the tensors; a memory
 * fault on one GPU likewise.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdx/realize_multi.h>

#include "tests/realize/rz_test.h"

static const char *const AMD2[2] = { "AMD:0", "AMD:1" };

static void open_two_arch(uint64_t wave_budget, const char *arch, rdx_device **d)
{
    rdx_device_options o = { .kind = RDX_DEVICE_EMU,
                             .quiet = true,
                             .emu_gpus = 2,
                             .emu_wave_budget = wave_budget,
                             .emu_arch = arch };
    rdx_status st = rdx_device_open_all(&o, 2, d);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
}

static void open_two(uint64_t wave_budget, rdx_device **d)
{
    open_two_arch(wave_budget, NULL, d);
}

static void close_two(rdx_device **d)
{
    for (int i = 0; i < 2; i++) {
        rdx_device_stats s;
        rdx_device_get_stats(d[i], &s);
        ck_assert_uint_eq(s.buffers, 0);
        ck_assert_uint_eq(s.programs, 0);
        ck_assert_uint_le(s.queues, 1); /* the device's own copy queue */
        ck_assert_int_eq(rdx_device_close(d[i]), RDX_OK);
    }
}

/* The rendezvous: the first kernel profiled waits (up to 20 s) for a second one to be
 * profiled meanwhile — which happens only when another device runs at the same time. */
static pthread_mutex_t rv_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t rv_cond = PTHREAD_COND_INITIALIZER;
static int rv_arrived, rv_met;

static void rendezvous(void *user, size_t kernel, const char *name, const rdx_emu *emu,
                       const void *elf, size_t elf_size, const uint32_t grid[3],
                       const uint32_t wg[3])
{
    (void)user, (void)kernel, (void)name, (void)emu, (void)elf, (void)elf_size, (void)grid,
        (void)wg;
    pthread_mutex_lock(&rv_lock);
    int me = ++rv_arrived;
    pthread_cond_broadcast(&rv_cond);
    if (me == 1) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        t.tv_sec += 20;
        while (rv_arrived < 2 && pthread_cond_timedwait(&rv_cond, &rv_lock, &t) == 0)
            ;
        rv_met = rv_arrived >= 2;
    }
    pthread_mutex_unlock(&rv_lock);
}

/* y = 2x + 1 sharded over 2 GPUs, against the interpreter; whether the devices ran together. */
static int run_sharded(rdx_device **d, const rdx_realize_options *o, rdx_realize_multi_result **res)
{
    rdx_graph *g = rz_graph();
    float data[64 * 8];
    for (int i = 0; i < 64 * 8; i++)
        data[i] = (float)(i % 13) - 6;
    const rdx_tensor *x = rdx_tensor_from_data_on(g, F32, 2, (int64_t[]){ 64, 8 }, data, AMD2, 2);
    const rdx_tensor *y = rdx_tensor_adds(g, rdx_tensor_muls(g, x, 2), 1);
    ck_assert_msg(y != NULL, "%s", rdx_graph_error(g));
    rdx_array got, want;
    rdx_status st = rdx_tensor_realize_multi(g, d, 2, &y, 1, o, &got, res);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    ck_assert_int_eq(rdx_graph_realize(g, &y, 1, &want), RDX_OK);
    int64_t first;
    ck_assert_msg(rdx_realize_compare(&want, &got, 0, &first) == 0, "element %lld",
                  (long long)first);
    rdx_graph_destroy(g);
    return (*res)->concurrent;
}

START_TEST(devices_run_at_the_same_time)
{
    rdx_device *d[2];
    open_two(0, d);
    rdx_realize_options o = { .profile = 1, .profile_hook = rendezvous };
    rv_arrived = rv_met = 0;
    rdx_realize_multi_result *res;
    ck_assert_int_eq(run_sharded(d, &o, &res), 1);
    ck_assert_msg(rv_met, "device 0's first kernel waited 20 s and device 1 did not run meanwhile");
    ck_assert_int_eq(rv_arrived, 2);
    /* each device's run lies within the wall time; both started before either ended */
    for (int i = 0; i < 2; i++) {
        ck_assert_ptr_nonnull(res->reports[i]);
        ck_assert(res->start_ms[i] >= 0 && res->start_ms[i] <= res->end_ms[i]);
        ck_assert(res->end_ms[i] <= res->wall_ms + 1e-6);
    }
    ck_assert(res->start_ms[1] < res->end_ms[0] && res->start_ms[0] < res->end_ms[1]);
    rdx_realize_multi_result_free(res);
    /* one after another when asked (no rendezvous: device 0 would wait in vain) */
    setenv("RDX_MULTI_SERIAL", "1", 1);
    ck_assert_int_eq(run_sharded(d, NULL, &res), 0);
    unsetenv("RDX_MULTI_SERIAL");
    ck_assert(res->start_ms[1] >= res->end_ms[0]);
    rdx_realize_multi_result_free(res);
    close_two(d);
}
END_TEST

/* A wave budget that the (unoptimized) reduction of 2^20 elements on GPU 1 exceeds and the
 * element-wise root on GPU 0 does not: the hang names GPU 1 and its root; GPU 0 finished; both stay
 * usable. */
START_TEST(hang_on_one_device_names_it)
{
    rdx_device *d[2];
    open_two(400, d);
    rdx_graph *g = rz_graph();
    int64_t big = 1 << 20;
    float *ones = malloc(sizeof(float) * (size_t)big);
    for (int64_t i = 0; i < big; i++)
        ones[i] = 1;
    float small[16] = { 1, 2, 3 };
    const rdx_tensor *a = rdx_tensor_from_data_on(g, F32, 1, (int64_t[]){ 16 }, small, AMD2, 1);
    const rdx_tensor *b = rdx_tensor_from_data_on(g, F32, 1, &big, ones, AMD2 + 1, 1);
    int ax = 0;
    const rdx_tensor *roots[2] = { rdx_tensor_adds(g, a, 1), rdx_tensor_sum(g, b, 1, &ax, 0) };
    ck_assert_msg(roots[0] && roots[1], "%s", rdx_graph_error(g));
    rdx_array out[2];
    rdx_realize_options raw = { .raw = 1 }; /* the sum in one loop of 2^20 steps */
    rdx_status st = rdx_tensor_realize_multi(g, d, 2, roots, 2, &raw, out, NULL);
    ck_assert_int_ne(st, RDX_OK);
    const char *m = rdx_error_message();
    ck_assert_msg(strstr(m, "device 1 (GPU 1), computing root 1 (node #") && strstr(m, "hang"),
                  "%s", m);
    /* both devices compute again: GPU 0 the element-wise root, GPU 1 a small one */
    const rdx_tensor *c = rdx_tensor_from_data_on(g, F32, 1, (int64_t[]){ 16 }, small, AMD2 + 1, 1);
    const rdx_tensor *ok[2] = { roots[0], rdx_tensor_muls(g, c, 3) };
    st = rdx_tensor_realize_multi(g, d, 2, ok, 2, NULL, out, NULL);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    ck_assert(((const float *)out[0].data)[2] == 4 && ((const float *)out[1].data)[1] == 6);
    free(ones);
    rdx_graph_destroy(g);
    close_two(d);
}
END_TEST

/* GPU 0 a gfx1100, GPU 1 a gfx1201 (rdx_device_options.emu_arch): a program using both GPUs
 * is refused naming the tensors and the devices; one using GPU 0 only runs. */
START_TEST(different_architectures_name_the_tensor)
{
    rdx_device *d[2];
    open_two_arch(0, "gfx1100,gfx1201", d);
    rdx_graph *g = rz_graph();
    float v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    const rdx_tensor *a = rdx_tensor_from_data_on(g, F32, 1, (int64_t[]){ 8 }, v, AMD2, 1);
    const rdx_tensor *b = rdx_tensor_from_data_on(g, F32, 1, (int64_t[]){ 8 }, v, AMD2 + 1, 1);
    const rdx_tensor *roots[2] = { rdx_tensor_adds(g, a, 1), rdx_tensor_muls(g, b, 2) };
    rdx_array out[2];
    ck_assert_int_eq(rdx_tensor_realize_multi(g, d, 2, roots, 2, NULL, out, NULL), RDX_ERR_INVALID);
    const char *m = rdx_error_message();
    ck_assert_msg(strstr(m, "devices of different architectures: root 1 (node #") &&
                      strstr(m, "on device 1 (GPU 1), a gfx1201, root 0 (node #") &&
                      strstr(m, "on device 0 (GPU 0), a gfx1100"),
                  "%s", m);
    ck_assert_int_eq(rdx_tensor_realize_multi(g, d, 2, roots, 1, NULL, out, NULL), RDX_OK);
    ck_assert(((const float *)out[0].data)[7] == 9);
    rdx_graph_destroy(g);
    close_two(d);
}
END_TEST

/* A memory fault on GPU 1 (a called kernel whose loads reach far past its buffer: the
 * hand-written y = 2x + 1 of tests/data/codegen_front/axpb.uop with the index shifted by 22
 * instead of 2) while GPU 0 computes an element-wise root: the error names GPU 1, its root
 * and the fault; GPU 0 finished; nothing is left; both GPUs compute again. */
START_TEST(fault_on_one_device_names_it)
{
    rdx_device *d[2];
    open_two_arch(0, "gfx1100", d); /* the kernel is gfx1100 code */
    rdx_graph *g = rz_graph();
    char *text = rdx_test_read_file("tests/data/codegen_front/axpb.uop", NULL);
    char *at = strstr(text, "v_lshlrev_b32_e32 v1, 2, v1");
    ck_assert_ptr_nonnull(at);
    memcpy(at, "v_lshlrev_b32_e32 v1,22, v1", 27);
    const rdx_uop **r = NULL;
    size_t nr = 0;
    rdx_status st = rdx_ir_parse(rdx_graph_ir(g), "bad.uop", text, strlen(text), &r, &nr);
    ck_assert_msg(!st, "%s", rdx_error_message());
    free(text);
    float v[256], zero[256] = { 0 };
    for (int i = 0; i < 256; i++)
        v[i] = (float)i;
    const rdx_tensor *a = rdx_tensor_from_data_on(g, F32, 1, (int64_t[]){ 256 }, v, AMD2, 1);
    const rdx_tensor *b = rdx_tensor_from_data_on(g, F32, 1, (int64_t[]){ 256 }, v, AMD2 + 1, 1);
    const rdx_tensor *args[2] = { rdx_tensor_muls(g, b, 3),
                                  rdx_tensor_from_data_on(g, F32, 1, (int64_t[]){ 256 }, zero,
                                                          AMD2 + 1, 1) };
    const rdx_tensor *roots[2] = { rdx_tensor_adds(g, a, 1),
                                   rdx_tensor_call_program(g, r[0], args, 2, 1) };
    free(r);
    ck_assert_msg(roots[0] && roots[1], "%s", rdx_graph_error(g));
    rdx_array out[2];
    st = rdx_tensor_realize_multi(g, d, 2, roots, 2, NULL, out, NULL);
    ck_assert_int_eq(st, RDX_ERR_FAULT);
    const char *m = rdx_error_message();
    ck_assert_msg(strstr(m, "device 1 (GPU 1), computing root 1 (node #") && strstr(m, "fault"),
                  "%s", m);
    const rdx_tensor *c = rdx_tensor_from_data_on(g, F32, 1, (int64_t[]){ 16 }, v, AMD2 + 1, 1);
    const rdx_tensor *ok[2] = { roots[0], rdx_tensor_muls(g, c, 3) };
    st = rdx_tensor_realize_multi(g, d, 2, ok, 2, NULL, out, NULL);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    ck_assert(((const float *)out[0].data)[2] == 3 && ((const float *)out[1].data)[5] == 15);
    rdx_graph_destroy(g);
    close_two(d);
}
END_TEST

TCase *rz_tcase_multi_run(void)
{
    TCase *tc = tcase_create("multi_run");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, devices_run_at_the_same_time);
    tcase_add_test(tc, hang_on_one_device_names_it);
    tcase_add_test(tc, different_architectures_name_the_tensor);
    tcase_add_test(tc, fault_on_one_device_names_it);
    return tc;
}
