/*
 * tests/realize/multi_test.c — collectives across the GPUs of one emulated
 * machine (rdx/collective.h): the ring allreduce against the interpreter's
 * allreduce of the same sharded tensor, reduce-scatter and all-gather, the
 * bytes each GPU moves, and bad input (devices of two machines, the same
 * device twice, a short buffer, bool), a GPU hanging mid-run: each an error
 * naming the device, the devices usable afterwards and nothing left on them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/collective.h>
#include <rdx/emudev.h>
#include <rdx/realize_multi.h>

#include "tests/realize/rz_test.h"

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
        ck_assert_uint_eq(s.programs, 0);
        ck_assert_uint_le(s.queues, 1); /* the device's own copy queue */
        ck_assert_int_eq(rdx_device_close(d[i]), RDX_OK);
    }
}

/* Device buffers holding data[i] (count elements each). */
static void upload(uint32_t n, rdx_device **d, rdx_buffer **b, void *const *data, size_t bytes)
{
    for (uint32_t i = 0; i < n; i++) {
        ck_assert_int_eq(rdx_buffer_alloc(d[i], bytes, RDX_MEM_DEVICE, &b[i]), RDX_OK);
        ck_assert_int_eq(rdx_buffer_upload(b[i], 0, data[i], bytes), RDX_OK);
    }
}

/* allreduce of n float32 vectors against the interpreter's rdx_tensor_allreduce of the
 * tensor sharded over n devices (row i on device i). */
static void allreduce_vs_interp(uint32_t n, int64_t count)
{
    rdx_device *d[8];
    rdx_buffer *b[8];
    open_gpus(n, d);
    uint64_t seed = 77 + n;
    float *all = rz_random_data(F32, count * n, &seed);
    void *rows[8];
    for (uint32_t i = 0; i < n; i++)
        rows[i] = all + (size_t)i * count;
    upload(n, d, b, rows, count * 4);
    rdx_collective_stats st;
    rdx_status s = rdx_allreduce(d, n, b, (uint64_t)count, F32, &st);
    ck_assert_msg(s == RDX_OK, "%s", rdx_error_message());

    /* the interpreter's allreduce needs equal shards of a size n divides; else the host sum */
    rdx_graph *g = rz_graph();
    rdx_array want = { 0 };
    float *host = calloc(count, 4);
    for (uint32_t i = 0; i < n; i++)
        for (int64_t k = 0; k < count; k++)
            host[k] += all[(size_t)i * count + k];
    const char *names[8] = {
        "AMD:0", "AMD:1", "AMD:2", "AMD:3", "AMD:4", "AMD:5", "AMD:6", "AMD:7"
    };
    int64_t dims = count * n;
    if (count % n == 0) {
        const rdx_tensor *t = rdx_tensor_from_data_on(g, F32, 1, &dims, all, names, n);
        const rdx_tensor *r = rdx_tensor_allreduce(g, t);
        ck_assert_msg(r != NULL, "%s", rdx_graph_error(g));
        ck_assert_int_eq(rdx_graph_realize(g, &r, 1, &want), RDX_OK);
        ck_assert_int_eq(want.numel, count);
    } else {
        want.data = host;
    }
    float *got = malloc(count * 4);
    for (uint32_t i = 0; i < n; i++) {
        ck_assert_int_eq(rdx_buffer_download(b[i], 0, got, count * 4), RDX_OK);
        for (int64_t k = 0; k < count; k++) {
            float w = ((const float *)want.data)[k];
            ck_assert_msg(fabsf(got[k] - w) <= 1e-5f * (fabsf(w) + 1), "device %u [%lld]: %g vs %g",
                          i, (long long)k, got[k], w);
        }
    }
    /* the ring's traffic: 2(n-1) chunks per GPU, 2(n-1)/n of the buffer */
    ck_assert_uint_eq(st.ndevices, n);
    ck_assert_uint_eq(st.copies, 2 * n * (n - 1));
    ck_assert_uint_eq(st.kernels, n * (n - 1));
    if (count % n == 0)
        for (uint32_t i = 0; i < n; i++) {
            ck_assert_uint_eq(st.bytes_sent[i] * n, 2ull * (n - 1) * count * 4);
            ck_assert_uint_eq(st.bytes_received[i], st.bytes_sent[i]);
        }
    free(got);
    free(all);
    free(host);
    rdx_graph_destroy(g);
    for (uint32_t i = 0; i < n; i++)
        rdx_buffer_free(b[i]);
    close_gpus(n, d);
}

START_TEST(allreduce_rings)
{
    allreduce_vs_interp(2, 4096);
    allreduce_vs_interp(3, 1001); /* chunks of 334, 334, 333 */
    allreduce_vs_interp(4, 65536);
}
END_TEST

/* int32: exact; reduce-scatter leaves chunk i summed on device i, all-gather spreads them. */
START_TEST(reduce_scatter_and_allgather_int32)
{
    enum { N = 4, C = 1003 };
    rdx_device *d[N];
    rdx_buffer *b[N];
    open_gpus(N, d);
    int32_t *rows[N], want[C], *got = malloc(C * 4);
    for (int i = 0; i < N; i++) {
        rows[i] = malloc(C * 4);
        for (int k = 0; k < C; k++)
            rows[i][k] = (k * 31 + i * 1000003) % 100000 - 50000;
    }
    for (int k = 0; k < C; k++)
        want[k] = rows[0][k] + rows[1][k] + rows[2][k] + rows[3][k];
    upload(N, d, b, (void *const *)rows, C * 4);
    ck_assert_int_eq(rdx_reduce_scatter(d, N, b, C, I32, NULL), RDX_OK);
    for (uint32_t i = 0; i < N; i++) {
        uint64_t elems, off = rdx_collective_chunk(C, N, i, &elems);
        ck_assert_int_eq(rdx_buffer_download(b[i], 0, got, C * 4), RDX_OK);
        for (uint64_t k = off; k < off + elems; k++)
            ck_assert_int_eq(got[k], want[k]);
    }
    rdx_collective_stats st;
    ck_assert_int_eq(rdx_allgather(d, N, b, C, I32, &st), RDX_OK);
    ck_assert_uint_eq(st.kernels, 0);
    ck_assert_uint_eq(st.copies, N * (N - 1));
    for (uint32_t i = 0; i < N; i++) {
        ck_assert_int_eq(rdx_buffer_download(b[i], 0, got, C * 4), RDX_OK);
        ck_assert_int_eq(memcmp(got, want, C * 4), 0);
        rdx_buffer_free(b[i]);
        free(rows[i]);
    }
    free(got);
    close_gpus(N, d);
}
END_TEST

START_TEST(bad_input_names_the_device)
{
    rdx_device *d[3], *other;
    rdx_buffer *b[3], *small, *ob;
    open_gpus(3, d);
    rdx_device_options o = { .kind = RDX_DEVICE_EMU, .quiet = true, .emu_gpus = 1 };
    ck_assert_int_eq(rdx_device_open(&o, &other), RDX_OK); /* another machine */
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(rdx_buffer_alloc(d[i], 1024, RDX_MEM_DEVICE, &b[i]), RDX_OK);
    ck_assert_int_eq(rdx_buffer_alloc(d[2], 512, RDX_MEM_DEVICE, &small), RDX_OK);
    ck_assert_int_eq(rdx_buffer_alloc(other, 1024, RDX_MEM_DEVICE, &ob), RDX_OK);
    rdx_device *mixed[3] = { d[0], other, d[2] };
    rdx_buffer *mb[3] = { b[0], ob, b[2] };
    ck_assert_int_eq(rdx_allreduce(mixed, 3, mb, 256, F32, NULL), RDX_ERR_INVALID);
    ck_assert_msg(
        strstr(rdx_error_message(), "device 0 (GPU 0) and device 1 (GPU 0) cannot access"), "%s",
        rdx_error_message());
    rdx_device *twice[2] = { d[1], d[1] };
    ck_assert_int_eq(rdx_allreduce(twice, 2, b, 256, F32, NULL), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "device 1 is device 0 again"), "%s",
                  rdx_error_message());
    rdx_buffer *sb[3] = { b[0], b[1], small };
    ck_assert_int_eq(rdx_allreduce(d, 3, sb, 256, F32, NULL), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "buffer of device 2 (GPU 2) holds 512 bytes"), "%s",
                  rdx_error_message());
    ck_assert_int_eq(rdx_allreduce(d, 3, b, 256, rdx_dtype_of(RDX_BOOL), NULL), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_allreduce(d, 9, b, 256, F32, NULL), RDX_ERR_INVALID);
    /* after all that, a good one */
    ck_assert_int_eq(rdx_allreduce(d, 3, b, 256, F32, NULL), RDX_OK);
    rdx_buffer_free(small);
    rdx_buffer_free(ob);
    for (int i = 0; i < 3; i++)
        rdx_buffer_free(b[i]);
    close_gpus(3, d);
    close_gpus(1, &other);
}
END_TEST

/* The reduction kernels hang (a wave budget of 5 instructions): the error names the device
 * and the hang; afterwards every device still copies, and nothing is left on them. */
START_TEST(hang_mid_run_names_the_device)
{
    rdx_device *d[2];
    rdx_device_options o = {
        .kind = RDX_DEVICE_EMU, .quiet = true, .emu_gpus = 2, .emu_wave_budget = 5
    };
    ck_assert_int_eq(rdx_device_open_all(&o, 2, d), RDX_OK);
    rdx_buffer *b[2];
    float v[512], w[512];
    for (int i = 0; i < 512; i++)
        v[i] = (float)i;
    void *rows[2] = { v, v };
    upload(2, d, b, rows, sizeof v);
    ck_assert_int_eq(rdx_allreduce(d, 2, b, 512, F32, NULL), RDX_ERR_FAULT);
    const char *m = rdx_error_message();
    ck_assert_msg(strstr(m, "allreduce: device ") && strstr(m, "(GPU ") && strstr(m, "hang"), "%s",
                  m);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(rdx_buffer_upload(b[i], 0, v, sizeof v), RDX_OK);
        ck_assert_int_eq(rdx_buffer_download(b[i], 0, w, sizeof w), RDX_OK);
        ck_assert_int_eq(memcmp(v, w, sizeof v), 0);
        rdx_buffer_free(b[i]);
    }
    close_gpus(2, d);
}
END_TEST

static const char *const AMD[8] = { "AMD:0", "AMD:1", "AMD:2", "AMD:3",
                                    "AMD:4", "AMD:5", "AMD:6", "AMD:7" };

/* A program over a tensor sharded on 4 GPUs: an element-wise chain (sharded: each GPU its
 * rows), a row sum (sharded), a column sum over the shard axis (each GPU the partial sum of its
 * rows, joined), the tensor moved to GPU 2 (its shards peer-copied there), an int32 column
 * maximum over the shard axis (exact); every result against the interpreter. */
START_TEST(realize_sharded_program)
{
    rdx_device *d[4];
    open_gpus(4, d);
    rdx_graph *g = rz_graph();
    uint64_t seed = 5;
    float *data = rz_random_data(F32, 64 * 16, &seed);
    int64_t dims[2] = { 64, 16 };
    const rdx_tensor *x = rdx_tensor_from_data_on(g, F32, 2, dims, data, AMD, 4);
    const rdx_tensor *y =
        rdx_tensor_adds(g, rdx_tensor_relu(g, rdx_tensor_muls(g, rdx_tensor_mul(g, x, x), 2)), 1);
    int ax1 = 1, ax0 = 0;
    const rdx_tensor *rows = rdx_tensor_sum(g, y, 1, &ax1, 0);
    const rdx_tensor *cols = rdx_tensor_sum(g, y, 1, &ax0, 0);
    const rdx_tensor *moved = rdx_tensor_copy(g, y, AMD + 2, 1);
    int32_t idata[64 * 16];
    for (int i = 0; i < 64 * 16; i++)
        idata[i] = (i * 7919) % 1000 - 500;
    const rdx_tensor *xi = rdx_tensor_from_data_on(g, I32, 2, dims, idata, AMD, 4);
    const rdx_tensor *cmax = rdx_tensor_max(g, rdx_tensor_adds(g, xi, 3), 1, &ax0, 0);
    const rdx_tensor *roots[5] = { y, rows, cols, moved, cmax };
    for (int i = 0; i < 5; i++)
        ck_assert_msg(roots[i] != NULL, "%s", rdx_graph_error(g));
    ck_assert_int_eq(y->axis, 0);
    ck_assert_int_eq(rows->axis, 0);
    rdx_array got[5], want[5];
    rdx_realize_multi_result *res;
    rdx_status st = rdx_tensor_realize_multi(g, d, 4, roots, 5, NULL, got, &res);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    ck_assert_int_eq(rdx_graph_realize(g, roots, 5, want), RDX_OK);
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(got[i].ndim, want[i].ndim);
        ck_assert_int_eq(got[i].numel, want[i].numel);
        int64_t first;
        ck_assert_msg(rdx_realize_compare(&want[i], &got[i], 1e-5, &first) == 0,
                      "root %d element %lld", i, (long long)first);
    }
    /* each GPU: its shards of y and rows, its partials of cols and cmax, and in a first stage
     * its shard of y again for the copy to GPU 2; GPU 2: + moved */
    ck_assert_uint_eq(res->parts[0], 5);
    ck_assert_uint_eq(res->parts[1], 5);
    ck_assert_uint_eq(res->parts[2], 6);
    ck_assert_uint_eq(res->parts[3], 5);
    /* moved: y's shards computed where they live, then copied to GPU 2 by SDMA (4 copies of
     * 16 rows), not recomputed there */
    ck_assert_uint_eq(res->stages, 2);
    ck_assert_uint_eq(res->peer_copies, 4);
    ck_assert_uint_eq(res->host_copies, 0);
    ck_assert_uint_eq(res->copied_bytes, 64 * 16 * 4);
    for (int i = 0; i < 4; i++)
        ck_assert_ptr_nonnull(res->reports[i]);
    rdx_realize_multi_result_free(res);
    free(data);
    rdx_graph_destroy(g);
    close_gpus(4, d);
}
END_TEST

START_TEST(realize_bad_placement)
{
    rdx_device *d[2];
    open_gpus(2, d);
    rdx_graph *g = rz_graph();
    float data[8 * 4] = { 0 };
    int64_t dims[2] = { 8, 4 };
    const rdx_tensor *x = rdx_tensor_from_data_on(g, F32, 2, dims, data, AMD, 4);
    const rdx_tensor *y = rdx_tensor_adds(g, x, 1);
    rdx_array out;
    ck_assert_int_eq(rdx_tensor_realize_multi(g, d, 2, &y, 1, NULL, &out, NULL), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "root 0 (node #") &&
                      strstr(rdx_error_message(), "sharded over 4 devices ('AMD:0' .. 'AMD:3'); "
                                                  "2 devices given"),
                  "%s", rdx_error_message());
    const rdx_tensor *z = rdx_tensor_copy(g, y, AMD + 3, 1);
    ck_assert_int_eq(rdx_tensor_realize_multi(g, d, 2, &z, 1, NULL, &out, NULL), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "on device 'AMD:3', device 3 of 2 given"), "%s",
                  rdx_error_message());
    rdx_device *twice[2] = { d[0], d[0] };
    ck_assert_int_eq(rdx_tensor_realize_multi(g, twice, 2, &y, 1, NULL, &out, NULL),
                     RDX_ERR_INVALID);
    /* a shard axis that does not divide is refused where the tensor is made */
    const rdx_tensor *bad = rdx_tensor_from_data_on(g, F32, 2, (int64_t[]){ 6, 4 }, data, AMD, 4);
    ck_assert_ptr_null(bad);
    ck_assert_msg(strstr(rdx_graph_error(g), "does not split over 4 devices"), "%s",
                  rdx_graph_error(g));
    /* and where a computed tensor is copied to a device tuple: naming the tensor and devices */
    rdx_graph_clear_error(g);
    const rdx_tensor *six =
        rdx_tensor_adds(g, rdx_tensor_from_data(g, F32, 2, (int64_t[]){ 6, 4 }, data), 1);
    ck_assert_ptr_null(rdx_tensor_copy(g, six, AMD, 4));
    char want[160];
    snprintf(want, sizeof want,
             "copy: axis 0 of [6,4] (node #%u) does not split over 4 devices ('AMD:0' .. "
             "'AMD:3')",
             six->id);
    ck_assert_msg(strstr(rdx_graph_error(g), want), "%s", rdx_graph_error(g));
    rdx_graph_destroy(g);
    close_gpus(2, d);
}
END_TEST

/* rdx realize --gpus N on tests/data/realize/sharded.uop (tensors sharded over AMD:0..3). */
START_TEST(cli_gpus)
{
    const char *base[] = { rdx_test_rdx_path(), "realize", "--device", "emu", "--check", "--gpus" };
    const char *argv[9];
    memcpy(argv, base, sizeof base);
    argv[7] = "tests/data/realize/sharded.uop";
    argv[8] = NULL;
    rdx_test_proc p;
    argv[6] = "4";
    rdx_test_run(argv, NULL, 0, &p);
    ck_assert_msg(p.status == 0, "%s%s", p.out, p.err);
    /* each GPU: its shards of %6 and %9, and first its shard of %9 for the copy to GPU 1 */
    ck_assert_ptr_nonnull(strstr(p.out, "-- GPU 3: 3 root part(s)"));
    ck_assert_ptr_nonnull(strstr(p.out, "-- GPU 1: 4 root part(s)"));
    ck_assert_ptr_nonnull(strstr(
        p.out, "-- values copied between GPUs: 4 SDMA copies, 0 through the host, 64 bytes"));
    ck_assert_ptr_nonnull(strstr(p.out, "output 2: matches the interpreter (16 elements)"));
    rdx_test_proc_free(&p);
    argv[6] = "2";
    rdx_test_run(argv, NULL, 0, &p);
    ck_assert_int_eq(p.status, 1);
    ck_assert_ptr_nonnull(strstr(p.err, "sharded over 4 devices ('AMD:0' .. 'AMD:3'); 2 devices"));
    rdx_test_proc_free(&p);
    argv[6] = "9";
    rdx_test_run(argv, NULL, 0, &p);
    ck_assert_int_eq(p.status, 2);
    ck_assert_ptr_nonnull(strstr(p.err, "--gpus '9': expected a number from 1 to 8"));
    rdx_test_proc_free(&p);
}
END_TEST

/* examples/mlp_dp: a data-parallel training step on 4 emulated GPUs equals the 1-GPU step and
 * the interpreter's (the example exits 1 on a mismatch). */
START_TEST(data_parallel_example)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/examples/mlp_dp", rdx_test_build_dir());
    const char *argv[] = { path, "--emu", NULL };
    rdx_test_proc p;
    rdx_test_run(argv, NULL, 0, &p);
    ck_assert_msg(p.status == 0, "%s%s", p.out, p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "loss matches"));
    ck_assert_ptr_nonnull(strstr(p.out, "on GPU 3 vs interpreter"));
    ck_assert_ptr_nonnull(strstr(p.out, "24 peer copies, 12 reduction kernels"));
    ck_assert_ptr_null(strstr(p.out, "MISMATCH"));
    rdx_test_proc_free(&p);
}
END_TEST

TCase *rz_tcase_multi(void)
{
    TCase *tc = tcase_create("multi");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, allreduce_rings);
    tcase_add_test(tc, reduce_scatter_and_allgather_int32);
    tcase_add_test(tc, bad_input_names_the_device);
    tcase_add_test(tc, hang_mid_run_names_the_device);
    tcase_add_test(tc, data_parallel_example);
    tcase_add_test(tc, realize_sharded_program);
    tcase_add_test(tc, realize_bad_placement);
    tcase_add_test(tc, cli_gpus);
    return tc;
}
