/*
 * tests/realize/multi_inner_test.c — collectives inside a multi-device program
 * (realize/multi_inner.c): an allreduce whose sum further ops read on every
 * GPU (the data-parallel update), an allgather read by every GPU and by one, a
 * broadcast read by every GPU — each against the interpreter and one device,
 * with the copies and the bytes each GPU moved (the ring's 2(N-1)/N of an
 * allreduce, (N-1)/N of an allgather).
 */
#include <stdio.h>
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

/* ts[0..n) realized on the 4 GPUs, compared with the interpreter and with GPU 0 alone (the
 * graph's devices folded into one); the multi-device result returned. */
static rdx_realize_multi_result *check3(rdx_graph *g, rdx_device **d, const rdx_tensor *const *ts,
                                        size_t n)
{
    rdx_array got[4], want[4], one[4];
    rdx_realize_multi_result *res = NULL;
    rdx_status st = rdx_tensor_realize_multi(g, d, 4, ts, n, NULL, got, &res);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    ck_assert_int_eq(rdx_graph_realize(g, ts, n, want), RDX_OK);
    st = rdx_tensor_realize_on(g, d[0], ts, n, NULL, one, NULL);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    for (size_t k = 0; k < n; k++) {
        int64_t first;
        ck_assert_int_eq(got[k].numel, want[k].numel);
        ck_assert_msg(rdx_realize_compare(&want[k], &got[k], 1e-5, &first) == 0,
                      "output %zu element %lld vs the interpreter", k, (long long)first);
        ck_assert_msg(rdx_realize_compare(&one[k], &got[k], 1e-5, &first) == 0,
                      "output %zu element %lld vs one device", k, (long long)first);
    }
    return res;
}

static const rdx_tensor *sharded(rdx_graph *g, uint32_t nd, const int64_t *dims, int salt)
{
    int64_t n = 1;
    for (uint32_t k = 0; k < nd; k++)
        n *= dims[k];
    float *x = malloc((size_t)n * sizeof *x);
    for (int64_t i = 0; i < n; i++)
        x[i] = (float)((i * 7 + salt) % 11) - 5;
    const rdx_tensor *t = rdx_tensor_from_data_on(g, F32, nd, dims, x, AMD4, 4);
    free(x);
    return t;
}

/* The data-parallel update: a = allreduce(2v) (v sharded, 4 x 32 floats), then every GPU
 * its rows of relu(X @ a.reshape(32, 1)) and w - 0.5a (w sharded too: each GPU its 8 of
 * the 32).  The ring runs once between the GPUs: 2N(N-1) = 24 copies, N(N-1) = 12
 * reduction kernels, each GPU sending 2(N-1)/N x 128 bytes = 192; the shards of 2v are
 * copied once into each GPU's slot (4 local copies); no GPU computes v whole. */
START_TEST(allreduce_inside_runs_as_a_ring)
{
    rdx_device *d[4];
    open_gpus(4, d);
    rdx_graph *g = rz_graph();
    const rdx_tensor *v = sharded(g, 1, (int64_t[]){ 128 }, 1);
    const rdx_tensor *x = sharded(g, 2, (int64_t[]){ 32, 32 }, 2);
    const rdx_tensor *w = sharded(g, 1, (int64_t[]){ 32 }, 3);
    const rdx_tensor *a = rdx_tensor_allreduce(g, rdx_tensor_muls(g, v, 2));
    const rdx_tensor *y = rdx_tensor_relu(
        g, rdx_tensor_matmul(g, x, rdx_tensor_reshape(g, a, 2, (int64_t[]){ 32, 1 })));
    const rdx_tensor *w2 = rdx_tensor_sub(g, w, rdx_tensor_muls(g, a, 0.5));
    ck_assert_msg(y && w2, "%s", rdx_graph_error(g));
    ck_assert_int_eq(y->axis, 0);
    ck_assert_int_eq(w2->axis, 0);
    const rdx_tensor *ts[2] = { y, w2 };
    rdx_realize_multi_result *res = check3(g, d, ts, 2);
    ck_assert_uint_eq(res->inner_collectives, 1);
    ck_assert_uint_eq(res->allreduces, 0);
    ck_assert_uint_eq(res->ring_copies, 2 * 4 * 3);
    ck_assert_uint_eq(res->ring_kernels, 4 * 3);
    ck_assert_uint_eq(res->local_copies, 4);
    ck_assert_uint_eq(res->peer_copies, 0);
    ck_assert_uint_eq(res->stages, 2);
    /* the shards' copies, the ring and the consumers all queued, GPU-side waits between them:
     * the host did not wait between the stages */
    ck_assert_uint_eq(res->host_waits, 0);
    for (int i = 0; i < 4; i++) {
        ck_assert_uint_eq(res->ring_bytes_sent[i], 2 * 3 * 32 * 4 / 4);
        /* its shard of 2v, then its rows of y and of w2 */
        ck_assert_uint_eq(res->parts[i], 3);
    }
    rdx_realize_multi_result_free(res);
    rdx_graph_destroy(g);
    close_gpus(4, d);
}
END_TEST

/* b = allgather(v + 1) (v sharded, 4 x 16) read by every GPU (X + b, X sharded (8, 64)): the
 * all-gather ring, N(N-1) = 12 copies, each GPU sending (N-1)/N x 256 bytes = 192, no
 * kernel; and allgather(v + 1) itself as a root, read by GPU 0 only: a gather, 3 peer copies
 * of 64 bytes into GPU 0's slot and its own shard locally. */
START_TEST(allgather_inside_ring_and_gather)
{
    rdx_device *d[4];
    open_gpus(4, d);
    rdx_graph *g = rz_graph();
    const rdx_tensor *v = sharded(g, 1, (int64_t[]){ 64 }, 4);
    const rdx_tensor *x = sharded(g, 2, (int64_t[]){ 8, 64 }, 5);
    const rdx_tensor *b = rdx_tensor_allgather(g, rdx_tensor_adds(g, v, 1));
    const rdx_tensor *y = rdx_tensor_add(g, x, b);
    ck_assert_msg(y != NULL, "%s", rdx_graph_error(g));
    rdx_realize_multi_result *res = check3(g, d, &y, 1);
    ck_assert_uint_eq(res->inner_collectives, 1);
    ck_assert_uint_eq(res->ring_copies, 4 * 3);
    ck_assert_uint_eq(res->ring_kernels, 0);
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(res->ring_bytes_sent[i], 3 * 64 * 4 / 4);
    ck_assert_uint_eq(res->host_waits, 0);
    rdx_realize_multi_result_free(res);

    res = check3(g, d, &b, 1);
    ck_assert_uint_eq(res->inner_collectives, 1);
    ck_assert_uint_eq(res->ring_copies, 0);
    ck_assert_uint_eq(res->peer_copies, 3);
    ck_assert_uint_eq(res->local_copies, 1);
    ck_assert_uint_eq(res->copied_bytes, 3 * 16 * 4);
    rdx_realize_multi_result_free(res);
    rdx_graph_destroy(g);
    close_gpus(4, d);
}
END_TEST

/* b = broadcast(relu(3u), all 4) (u on GPU 1) read by every GPU (X + b, X sharded): relu(3u)
 * computed once on GPU 1, copied to the 3 others (3 peer copies of 128 bytes) and into GPU
 * 1's own slot. */
START_TEST(broadcast_inside_copies_to_each)
{
    rdx_device *d[4];
    open_gpus(4, d);
    rdx_graph *g = rz_graph();
    float uh[32];
    for (int i = 0; i < 32; i++)
        uh[i] = (float)(i % 7) - 3;
    const rdx_tensor *u = rdx_tensor_from_data_on(g, F32, 1, (int64_t[]){ 32 }, uh, AMD4 + 1, 1);
    const rdx_tensor *x = sharded(g, 2, (int64_t[]){ 16, 32 }, 6);
    const rdx_tensor *b =
        rdx_tensor_broadcast(g, rdx_tensor_relu(g, rdx_tensor_muls(g, u, 3)), AMD4, 4);
    const rdx_tensor *y = rdx_tensor_mul(g, x, b);
    ck_assert_msg(y != NULL, "%s", rdx_graph_error(g));
    rdx_realize_multi_result *res = check3(g, d, &y, 1);
    ck_assert_uint_eq(res->inner_collectives, 1);
    ck_assert_uint_eq(res->peer_copies, 3);
    ck_assert_uint_eq(res->local_copies, 1);
    ck_assert_uint_eq(res->copied_bytes, 3 * 32 * 4);
    ck_assert_uint_eq(res->ring_copies, 0);
    ck_assert_uint_eq(res->host_waits, 0);
    rdx_realize_multi_result_free(res);
    /* a broadcast of host data (u itself): each GPU uploads it, no copy */
    const rdx_tensor *y2 = rdx_tensor_mul(g, x, rdx_tensor_broadcast(g, u, AMD4, 4));
    ck_assert_msg(y2 != NULL, "%s", rdx_graph_error(g));
    res = check3(g, d, &y2, 1);
    ck_assert_uint_eq(res->inner_collectives, 0);
    ck_assert_uint_eq(res->peer_copies, 0);
    rdx_realize_multi_result_free(res);
    rdx_graph_destroy(g);
    close_gpus(4, d);
}
END_TEST

/* The spec's reduce_scatter of 2v as a root (v sharded, 4 x 32): the reduce-scatter ring
 * alone, N(N-1) = 12 copies and 12 reduction kernels, each GPU sending (N-1)/N x 128 bytes =
 * 96, each GPU's chunk of the sum read back from it; inside a program; and the spec's reduce
 * (gather to GPU 0, then the sum there): the 4 shards copied into GPU 0's run (4 x 128 bytes), no
 * GPU computing 2v whole. */
START_TEST(reduce_scatter_and_reduce_roots)
{
    rdx_device *d[4];
    open_gpus(4, d);
    rdx_graph *g = rz_graph();
    const rdx_tensor *v2 = rdx_tensor_muls(g, sharded(g, 1, (int64_t[]){ 128 }, 7), 2);
    const rdx_tensor *r = rdx_tensor_reduce_scatter(g, v2);
    ck_assert_msg(r != NULL, "%s", rdx_graph_error(g));
    rdx_realize_multi_result *res = check3(g, d, &r, 1);
    ck_assert_uint_eq(res->reduce_scatters, 1);
    ck_assert_uint_eq(res->ring_copies, 4 * 3);
    ck_assert_uint_eq(res->ring_kernels, 4 * 3);
    for (int i = 0; i < 4; i++) {
        ck_assert_uint_eq(res->ring_bytes_sent[i], 3 * 32 * 4 / 4);
        ck_assert_uint_eq(res->parts[i], 1); /* its shard of 2v */
    }
    rdx_realize_multi_result_free(res);

    /* read by further ops (3r + u, u sharded): each GPU its chunk of the result, the
     * collective made whole on every GPU by the allreduce's ring (its consumers may read any
     * row), 24 copies, 12 kernels, 192 bytes sent per GPU */
    const rdx_tensor *u = sharded(g, 1, (int64_t[]){ 32 }, 8);
    const rdx_tensor *y = rdx_tensor_add(g, rdx_tensor_muls(g, r, 3), u);
    ck_assert_msg(y != NULL, "%s", rdx_graph_error(g));
    res = check3(g, d, &y, 1);
    ck_assert_uint_eq(res->inner_collectives, 1);
    ck_assert_uint_eq(res->reduce_scatters, 0);
    ck_assert_uint_eq(res->ring_copies, 2 * 4 * 3);
    ck_assert_uint_eq(res->ring_kernels, 4 * 3);
    for (int i = 0; i < 4; i++) {
        ck_assert_uint_eq(res->ring_bytes_sent[i], 2 * 3 * 32 * 4 / 4);
        ck_assert_uint_eq(res->parts[i], 2); /* its shard of 2v, its rows of y */
    }
    rdx_realize_multi_result_free(res);

    const rdx_tensor *s = rdx_tensor_reduce_dev(g, v2);
    ck_assert_msg(s != NULL, "%s", rdx_graph_error(g));
    res = check3(g, d, &s, 1);
    ck_assert_uint_eq(res->stages, 2);
    ck_assert_uint_eq(res->peer_copies, 4);
    ck_assert_uint_eq(res->copied_bytes, 4 * 32 * 4);
    ck_assert_uint_eq(res->ring_copies, 0);
    rdx_realize_multi_result_free(res);
    rdx_graph_destroy(g);
    close_gpus(4, d);
}
END_TEST

/* A hang on GPU 1 after the ring of an inner allreduce (wave budget 400, which GPU 1's raw
 * sum of 2^20 elements, a second root, exceeds): the error names GPU 1 and the root; GPU 0
 * finished its part; nothing is left on either GPU, and both run the program again.  Then a
 * hang while the GPUs compute the allreduce's source (raw row sums of 2^18 elements) names
 * the device and the source's node. */
START_TEST(hang_around_inner_ring_names_the_device)
{
    rdx_device *d[2];
    rdx_device_options o = {
        .kind = RDX_DEVICE_EMU, .quiet = true, .emu_gpus = 2, .emu_wave_budget = 400
    };
    ck_assert_msg(rdx_device_open_all(&o, 2, d) == RDX_OK, "%s", rdx_error_message());
    rdx_graph *g = rz_graph();
    float v[32], xs[4 * 16];
    for (int i = 0; i < 32; i++)
        v[i] = (float)(i % 5);
    for (int i = 0; i < 64; i++)
        xs[i] = (float)(i % 3) - 1;
    int64_t big = 1 << 20;
    float *ones = calloc((size_t)big, sizeof *ones);
    const rdx_tensor *tv = rdx_tensor_from_data_on(g, F32, 1, (int64_t[]){ 32 }, v, AMD4, 2);
    const rdx_tensor *tx = rdx_tensor_from_data_on(g, F32, 2, (int64_t[]){ 4, 16 }, xs, AMD4, 2);
    const rdx_tensor *tb = rdx_tensor_from_data_on(g, F32, 1, &big, ones, AMD4 + 1, 1);
    const rdx_tensor *a = rdx_tensor_allreduce(g, rdx_tensor_muls(g, tv, 2));
    int ax = 0;
    const rdx_tensor *roots[2] = { rdx_tensor_relu(g, rdx_tensor_add(g, tx, a)),
                                   rdx_tensor_sum(g, tb, 1, &ax, 0) };
    ck_assert_msg(roots[0] && roots[1], "%s", rdx_graph_error(g));
    rdx_array out[2];
    rdx_realize_options raw = { .raw = 1 };
    rdx_realize_multi_result *res = NULL;
    rdx_status st = rdx_tensor_realize_multi(g, d, 2, roots, 2, &raw, out, &res);
    ck_assert_int_ne(st, RDX_OK);
    ck_assert_ptr_null(res);
    const char *m = rdx_error_message();
    ck_assert_msg(strstr(m, "device 1 (GPU 1), computing ") && strstr(m, "root 1 (node #") &&
                      strstr(m, "hang"),
                  "%s", m);
    for (int i = 0; i < 2; i++) {
        rdx_device_stats s;
        rdx_device_get_stats(d[i], &s);
        ck_assert_uint_eq(s.buffers, 0);
    }
    st = rdx_tensor_realize_multi(g, d, 2, roots, 1, &raw, out, &res);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    ck_assert_uint_eq(res->inner_collectives, 1);
    rdx_realize_multi_result_free(res);
    rdx_array want;
    ck_assert_int_eq(rdx_graph_realize(g, roots, 1, &want), RDX_OK);
    int64_t first;
    ck_assert_msg(rdx_realize_compare(&want, &out[0], 0, &first) == 0, "element %lld",
                  (long long)first);

    int64_t dims[2] = { 4, 1 << 18 };
    const rdx_tensor *tr = rdx_tensor_from_data_on(g, F32, 2, dims, ones, AMD4, 2);
    int ax1 = 1;
    const rdx_tensor *src = rdx_tensor_sum(g, tr, 1, &ax1, 0);
    const rdx_tensor *y = rdx_tensor_muls(g, rdx_tensor_allreduce(g, src), 3);
    ck_assert_msg(y != NULL, "%s", rdx_graph_error(g));
    char want_node[64];
    snprintf(want_node, sizeof want_node, "computing node #%u", src->id);
    st = rdx_tensor_realize_multi(g, d, 2, &y, 1, &raw, out, NULL);
    ck_assert_int_ne(st, RDX_OK);
    m = rdx_error_message();
    ck_assert_msg(strstr(m, "device 0 (GPU 0), ") && strstr(m, want_node) && strstr(m, "hang"),
                  "%s", m);
    for (int i = 0; i < 2; i++) {
        rdx_device_stats s;
        rdx_device_get_stats(d[i], &s);
        ck_assert_uint_eq(s.buffers, 0);
    }
    free(ones);
    rdx_graph_destroy(g);
    close_gpus(2, d);
}
END_TEST

/* The same update as bare UOps (tests/data/realize/inner_allreduce.uop, the tensor API's
 * composition printed and parsed into a context of its own, no tensor graph):
 * rdx_realize_run_multi finds the inner allreduce as rdx_tensor_realize_multi does — the
 * ring between the 4 GPUs (24 copies, 12 kernels, 192 bytes sent per GPU), each GPU its
 * shard of 2v and its rows of the two results — against the interpreter; the root
 * allreduce(2v) itself runs as the root ring (it was computed whole on GPU 0). */
START_TEST(bare_uops_find_the_inner_allreduce)
{
    rdx_device *d[4];
    open_gpus(4, d);
    size_t len = 0;
    char *text = rdx_test_read_file("tests/data/realize/inner_allreduce.uop", &len);
    ck_assert_ptr_nonnull(text);
    rdx_ir_ctx *ctx;
    rdx_interp *ip;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    ck_assert_int_eq(rdx_interp_create(&ip), RDX_OK);
    const rdx_uop **roots = NULL;
    size_t n = 0;
    rdx_status st = rdx_ir_parse(ctx, "inner_allreduce.uop", text, len, &roots, &n);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    ck_assert_uint_eq(n, 2);
    /* the BUFFERs of slots 0 (v, 128) and 1 (w, 32) bound; the others are the composition's */
    const rdx_uop **list = NULL;
    size_t m = 0;
    ck_assert_int_eq(rdx_ir_toposort(roots[1], &list, &m), RDX_OK);
    float data[128];
    for (int i = 0; i < 128; i++)
        data[i] = (float)((i * 5 + 3) % 13) - 6;
    const rdx_uop *av = NULL;
    for (size_t k = 0; k < m; k++) {
        const rdx_uop *u = list[k];
        if (u->op == RDX_OP_BUFFER && (u->arg.i == 0 || u->arg.i == 1))
            ck_assert_int_eq(rdx_interp_bind(ip, u, data, u->arg.i ? 32 * 4 : 128 * 4), RDX_OK);
        if (u->op == RDX_OP_INDEX)
            av = u; /* allreduce(2v): the replicated row every GPU holds */
    }
    ck_assert_ptr_nonnull(av);
    rdx_realize_multi_result *res = NULL;
    st = rdx_realize_run_multi(ctx, ip, d, 4, roots, n, NULL, &res);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    rdx_array want[2];
    ck_assert_int_eq(rdx_interp_realize(ip, roots, n, want), RDX_OK);
    for (size_t k = 0; k < n; k++) {
        int64_t first;
        ck_assert_msg(rdx_realize_compare(&want[k], &res->outputs[k], 1e-5, &first) == 0,
                      "output %zu element %lld", k, (long long)first);
    }
    ck_assert_uint_eq(res->inner_collectives, 1);
    ck_assert_uint_eq(res->ring_copies, 2 * 4 * 3);
    ck_assert_uint_eq(res->ring_kernels, 4 * 3);
    ck_assert_uint_eq(res->local_copies, 4);
    ck_assert_uint_eq(res->host_waits, 0);
    for (int i = 0; i < 4; i++) {
        ck_assert_uint_eq(res->ring_bytes_sent[i], 2 * 3 * 32 * 4 / 4);
        ck_assert_uint_eq(res->parts[i], 3);
        /* each GPU's second stage: w (128 bytes), the slot of a — one row of 128 bytes, not
         * the composition's 4 rows (512) — and its two output shards (32 bytes each), each
         * buffer 256-byte aligned in the plan */
        ck_assert_uint_eq(res->reports[i]->memory.no_reuse, 4 * 256);
    }
    rdx_realize_multi_result_free(res);
    st = rdx_realize_run_multi(ctx, ip, d, 4, &av, 1, NULL, &res);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    ck_assert_uint_eq(res->allreduces, 1);
    ck_assert_uint_eq(res->ring_copies, 2 * 4 * 3);
    rdx_array wa;
    ck_assert_int_eq(rdx_interp_realize(ip, &av, 1, &wa), RDX_OK);
    int64_t first;
    ck_assert_msg(rdx_realize_compare(&wa, &res->outputs[0], 1e-5, &first) == 0, "element %lld",
                  (long long)first);
    rdx_realize_multi_result_free(res);
    free(list);
    free(roots);
    free(text);
    rdx_interp_destroy(ip);
    rdx_ir_ctx_destroy(ctx);
    close_gpus(4, d);
}
END_TEST

/* rdx realize --gpus 4 --check on that file: the ring's counts printed, 192 bytes per GPU. */
START_TEST(cli_inner_allreduce)
{
    const char *argv[] = { rdx_test_rdx_path(),
                           "realize",
                           "--device",
                           "emu",
                           "--check",
                           "--gpus",
                           "4",
                           "tests/data/realize/inner_allreduce.uop",
                           NULL };
    rdx_test_proc p;
    rdx_test_run(argv, NULL, 0, &p);
    ck_assert_msg(p.status == 0, "%s%s", p.out, p.err);
    ck_assert_msg(strstr(p.out, "-- collectives inside the program run across the GPUs: 1 (4 "
                                "local copies)") &&
                      strstr(p.out, "-- rings: 24 peer copies, 12 reduction kernels; bytes sent "
                                    "per GPU: 192 192 192 192") &&
                      strstr(p.out, "-- GPU 2: 3 root part(s)") &&
                      strstr(p.out, "output 1: matches the interpreter (32 elements)"),
                  "%s", p.out);
    rdx_test_proc_free(&p);
}
END_TEST

TCase *rz_tcase_multi_inner(void)
{
    TCase *tc = tcase_create("multi_inner");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, allreduce_inside_runs_as_a_ring);
    tcase_add_test(tc, allgather_inside_ring_and_gather);
    tcase_add_test(tc, broadcast_inside_copies_to_each);
    tcase_add_test(tc, reduce_scatter_and_reduce_roots);
    tcase_add_test(tc, hang_around_inner_ring_names_the_device);
    tcase_add_test(tc, bare_uops_find_the_inner_allreduce);
    tcase_add_test(tc, cli_inner_allreduce);
    return tc;
}
