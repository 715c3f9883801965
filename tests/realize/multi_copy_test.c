/*
 * tests/realize/multi_copy_test.c — cross-device LOADs of a multi-device
 * realize as copies between the GPUs (realize/multi_copy.c): a value computed
 * on GPU 0 and read by GPU 1, a tensor sharded on axis 1 moved to one GPU
 * (a copy per outer block and shard), and two GPUs of different machines
 * (no peer access: the copy goes through the host), an allreduce root run as
 * the ring collective; each against the interpreter.
 */
#include <stdlib.h>
#include <string.h>

#include <rdx/realize_multi.h>

#include "tests/realize/rz_test.h"

static const char *const AMD4[4] = { "AMD:0", "AMD:1", "AMD:2", "AMD:3" };

static void open_gpus(uint32_t n, rdx_device **d)
{
    rdx_device_options o = { .kind = RDX_DEVICE_EMU, .quiet = true, .emu_gpus = n };
    rdx_status st = rdx_device_open_all(&o, n, d);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
}

static void close_gpus(uint32_t n, rdx_device **d)
{
    for (uint32_t i = 0; i < n; i++) {
        rdx_device_stats s;
        rdx_device_get_stats(d[i], &s);
        ck_assert_uint_eq(s.buffers, 0);
        ck_assert_uint_le(s.queues, 1);
        ck_assert_int_eq(rdx_device_close(d[i]), RDX_OK);
    }
}

static void check_vs_interp(rdx_graph *g, const rdx_tensor *t, const rdx_array *got)
{
    rdx_array want;
    ck_assert_int_eq(rdx_graph_realize(g, &t, 1, &want), RDX_OK);
    ck_assert_int_eq(got->numel, want.numel);
    int64_t first;
    ck_assert_msg(rdx_realize_compare(&want, got, 0, &first) == 0, "element %lld",
                  (long long)first);
}

/* w = 2 * copy(relu(3a), GPU 1) + b: relu(3a) computed on GPU 0, one SDMA copy, w on GPU 1. */
static const rdx_tensor *value_to_other_gpu(rdx_graph *g)
{
    float a[256], b[256];
    for (int i = 0; i < 256; i++)
        a[i] = (float)(i % 9) - 4, b[i] = (float)i;
    const rdx_tensor *ta = rdx_tensor_from_data_on(g, F32, 1, (int64_t[]){ 256 }, a, AMD4, 1);
    const rdx_tensor *tb = rdx_tensor_from_data_on(g, F32, 1, (int64_t[]){ 256 }, b, AMD4 + 1, 1);
    const rdx_tensor *u = rdx_tensor_relu(g, rdx_tensor_muls(g, ta, 3));
    const rdx_tensor *v = rdx_tensor_copy(g, u, AMD4 + 1, 1);
    const rdx_tensor *w = rdx_tensor_add(g, rdx_tensor_muls(g, v, 2), tb);
    ck_assert_msg(w != NULL, "%s", rdx_graph_error(g));
    return w;
}

START_TEST(computed_value_read_by_another_gpu)
{
    rdx_device *d[2];
    open_gpus(2, d);
    rdx_graph *g = rz_graph();
    const rdx_tensor *w = value_to_other_gpu(g);
    rdx_array got;
    rdx_realize_multi_result *res;
    rdx_status st = rdx_tensor_realize_multi(g, d, 2, &w, 1, NULL, &got, &res);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    check_vs_interp(g, w, &got);
    ck_assert_uint_eq(res->stages, 2);
    ck_assert_uint_eq(res->peer_copies, 1);
    ck_assert_uint_eq(res->host_copies, 0);
    ck_assert_uint_eq(res->copied_bytes, 256 * 4);
    ck_assert_uint_eq(res->parts[0], 1); /* relu(3a) */
    ck_assert_uint_eq(res->parts[1], 1); /* w */
    rdx_realize_multi_result_free(res);
    rdx_graph_destroy(g);
    close_gpus(2, d);
}
END_TEST

/* x (8, 6) sharded on axis 0 over 2 GPUs, transposed (sharded on axis 1), relu'd and moved to
 * GPU 2 of 3: each shard arrives as 6 blocks of 4 elements. */
START_TEST(shard_axis_1_moved_to_one_gpu)
{
    rdx_device *d[3];
    open_gpus(3, d);
    rdx_graph *g = rz_graph();
    float x[48];
    for (int i = 0; i < 48; i++)
        x[i] = (float)((i * 5) % 11) - 5;
    const rdx_tensor *t = rdx_tensor_from_data_on(g, F32, 2, (int64_t[]){ 8, 6 }, x, AMD4, 2);
    const rdx_tensor *tt = rdx_tensor_relu(g, rdx_tensor_permute(g, t, (int[]){ 1, 0 }));
    ck_assert_msg(tt != NULL, "%s", rdx_graph_error(g));
    ck_assert_int_eq(tt->axis, 1);
    const rdx_tensor *m = rdx_tensor_adds(g, rdx_tensor_copy(g, tt, AMD4 + 2, 1), 1);
    rdx_array got;
    rdx_realize_multi_result *res;
    rdx_status st = rdx_tensor_realize_multi(g, d, 3, &m, 1, NULL, &got, &res);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    check_vs_interp(g, m, &got);
    ck_assert_uint_eq(res->stages, 2);
    ck_assert_uint_eq(res->peer_copies, 2 * 6);
    ck_assert_uint_eq(res->copied_bytes, 48 * 4);
    rdx_realize_multi_result_free(res);
    rdx_graph_destroy(g);
    close_gpus(3, d);
}
END_TEST

/* GPUs of two machines cannot reach each other's memory: the copy goes through the host. */
START_TEST(no_peer_access_copies_through_the_host)
{
    rdx_device *d[2];
    rdx_device_options o = { .kind = RDX_DEVICE_EMU, .quiet = true, .emu_gpus = 1 };
    ck_assert_int_eq(rdx_device_open(&o, &d[0]), RDX_OK);
    ck_assert_int_eq(rdx_device_open(&o, &d[1]), RDX_OK);
    ck_assert(!rdx_device_can_access_peer(d[1], d[0]));
    rdx_graph *g = rz_graph();
    const rdx_tensor *w = value_to_other_gpu(g);
    rdx_array got;
    rdx_realize_multi_result *res;
    rdx_status st = rdx_tensor_realize_multi(g, d, 2, &w, 1, NULL, &got, &res);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    check_vs_interp(g, w, &got);
    ck_assert_uint_eq(res->stages, 2);
    ck_assert_uint_eq(res->peer_copies, 0);
    ck_assert_uint_eq(res->host_copies, 1);
    rdx_realize_multi_result_free(res);
    rdx_graph_destroy(g);
    close_gpus(2, d);
}
END_TEST

/* A root that is the spec's allreduce of a tensor sharded over 4 GPUs runs as the ring
 * (rdx_allreduce: 2N(N-1) peer copies, N(N-1) reduction kernels) on the shards the GPUs
 * computed, not as the composition computed whole on GPU 0. */
START_TEST(allreduce_root_runs_as_a_ring)
{
    rdx_device *d[4];
    open_gpus(4, d);
    rdx_graph *g = rz_graph();
    float x[4 * 32];
    for (int i = 0; i < 4 * 32; i++)
        x[i] = (float)((i * 3) % 7) - 3;
    const rdx_tensor *t = rdx_tensor_from_data_on(g, F32, 1, (int64_t[]){ 4 * 32 }, x, AMD4, 4);
    const rdx_tensor *a = rdx_tensor_allreduce(g, rdx_tensor_muls(g, t, 2));
    ck_assert_msg(a != NULL, "%s", rdx_graph_error(g));
    rdx_array got;
    rdx_realize_multi_result *res;
    rdx_status st = rdx_tensor_realize_multi(g, d, 4, &a, 1, NULL, &got, &res);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    check_vs_interp(g, a, &got);
    for (int j = 0; j < 32; j++) /* small integers: exact */
        ck_assert(((const float *)got.data)[j] == 2 * (x[j] + x[32 + j] + x[64 + j] + x[96 + j]));
    ck_assert_uint_eq(res->allreduces, 1);
    ck_assert_uint_eq(res->ring_copies, 2 * 4 * 3);
    ck_assert_uint_eq(res->ring_kernels, 4 * 3);
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(res->parts[i], 1); /* its shard of 2t */
    rdx_realize_multi_result_free(res);
    rdx_graph_destroy(g);
    close_gpus(4, d);
}
END_TEST

TCase *rz_tcase_multi_copy(void)
{
    TCase *tc = tcase_create("multi_copy");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, computed_value_read_by_another_gpu);
    tcase_add_test(tc, shard_axis_1_moved_to_one_gpu);
    tcase_add_test(tc, no_peer_access_copies_through_the_host);
    tcase_add_test(tc, allreduce_root_runs_as_a_ring);
    return tc;
}
