/* tests/tensor/spec_test.c — the spec's compositions (gemm, prefix_sum, arange, gather,
 * scatter_add) and every multi-device collective give the documented results and structure. */
#include <stdlib.h>

#include "tests/tensor/tensor_test.h"

/* Count nodes of op under root. */
static size_t count_op(const rdx_uop *root, rdx_op op)
{
    const rdx_uop **order;
    size_t n, c = 0;
    ck_assert_int_eq(rdx_ir_toposort(root, &order, &n), RDX_OK);
    for (size_t k = 0; k < n; k++)
        c += order[k]->op == op;
    free(order);
    return c;
}

START_TEST(gemm_is_the_spec_composition)
{
    rdx_graph *g = tgraph();
    float a[6] = { 1, 2, 3, 4, 5, 6 }, b[12];
    for (int k = 0; k < 12; k++)
        b[k] = (float)(k - 5);
    const rdx_tensor *A = tf32(g, 2, (int64_t[]){ 2, 3 }, a),
                     *B = tf32(g, 2, (int64_t[]){ 3, 4 }, b);
    const rdx_tensor *C = rdx_tensor_matmul(g, A, B);
    ck_assert_ptr_nonnull(C);
    /* (A.reshape(M,K,1) * B.reshape(1,K,N)).sum(1) -> reshape(M,N) */
    ck_assert_int_eq(C->op, RDX_OP_RESHAPE);
    const rdx_uop *red = C->src[0];
    ck_assert_int_eq(red->op, RDX_OP_REDUCE);
    ck_assert_int_eq(red->arg.sub, RDX_RED_ADD);
    ck_assert_int_eq(red->arg.nints, 1);
    ck_assert_int_eq(red->arg.ints[0], 1);
    const rdx_uop *mul = red->src[0];
    ck_assert_int_eq(mul->op, RDX_OP_MUL);
    ck_assert_int_eq(mul->src[0]->op, RDX_OP_EXPAND);
    ck_assert_int_eq(mul->src[0]->src[0]->op, RDX_OP_RESHAPE);
    ck_assert_ptr_eq(mul->src[0]->src[0]->src[0], A);
    ck_assert_int_eq(rdx_tensor_dim(mul->src[0]->src[0], 2), 1);
    ck_assert_ptr_eq(mul->src[1]->src[0]->src[0], B);
    ck_assert_int_eq(rdx_tensor_dim(mul->src[1]->src[0], 0), 1);
    rdx_array r = treal(g, C);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 4; j++) {
            float s = 0;
            for (int k = 0; k < 3; k++)
                s += a[i * 3 + k] * b[k * 4 + j];
            ck_assert_double_eq(rdx_array_get(&r, i * 4 + j), s);
        }
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(prefix_sum_and_arange_are_the_spec_compositions)
{
    rdx_graph *g = tgraph();
    uint64_t s = 3;
    for (int64_t n = 1; n <= 12; n++) {
        int32_t v[12];
        for (int k = 0; k < n; k++)
            v[k] = (int32_t)(trand(&s) % 100) - 50;
        const rdx_tensor *p = rdx_tensor_cumsum(g, ti32(g, 1, &n, v), 0);
        ck_assert_uint_eq(count_op(p, RDX_OP_PAD), 1);
        ck_assert_uint_eq(count_op(p, RDX_OP_EXPAND), 1);
        ck_assert_uint_eq(count_op(p, RDX_OP_SHRINK), 2);
        ck_assert_uint_eq(count_op(p, RDX_OP_REDUCE), 1);
        rdx_array r = treal(g, p);
        int32_t acc = 0;
        for (int k = 0; k < n; k++) {
            acc += v[k];
            ck_assert_int_eq(rdx_array_get_int(&r, k), acc);
        }
        const rdx_tensor *ar = rdx_tensor_arange(g, n);
        ck_assert_uint_eq(count_op(ar, RDX_OP_BUFFER), 0); /* built from Tensor(1) alone */
        ck_assert_int_eq(ar->dtype.scalar, RDX_INT32);
        rdx_array ra = treal(g, ar);
        for (int k = 0; k < n; k++)
            ck_assert_int_eq(rdx_array_get_int(&ra, k), k);
    }
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(gather_and_scatter_add_give_the_documented_results)
{
    rdx_graph *g = tgraph();
    float t[5] = { 10, 20, 30, 40, 50 };
    int32_t idx[4] = { 4, 0, 2, 2 };
    rdx_array r = treal(g, rdx_tensor_gather(g, tf32(g, 1, (int64_t[]){ 5 }, t),
                                             ti32(g, 1, (int64_t[]){ 4 }, idx)));
    float want[4] = { 50, 10, 30, 30 };
    ck_assert_int_eq(r.dims[0], 4);
    for (int k = 0; k < 4; k++)
        ck_assert_double_eq(rdx_array_get(&r, k), want[k]);
    float base[4] = { 1, 1, 1, 1 }, val[4] = { 5, 6, 7, 8 };
    int32_t si[4] = { 0, 2, 2, 3 };
    rdx_array sa = treal(g, rdx_tensor_scatter_add(g, tf32(g, 1, (int64_t[]){ 4 }, base),
                                                   ti32(g, 1, (int64_t[]){ 4 }, si),
                                                   tf32(g, 1, (int64_t[]){ 4 }, val)));
    float sw[4] = { 6, 1, 14, 9 };
    for (int k = 0; k < 4; k++)
        ck_assert_double_eq(rdx_array_get(&sa, k), sw[k]);
    rdx_graph_destroy(g);
}
END_TEST

static const char *const DEV4[4] = { "GPU:0", "GPU:1", "GPU:2", "GPU:3" };

static void check_placement(const rdx_tensor *t, int64_t len, uint32_t ndev, int axis)
{
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(t->ndim, 1);
    ck_assert_int_eq(rdx_tensor_dim(t, 0), len);
    ck_assert_ptr_nonnull(t->device);
    ck_assert_uint_eq(t->device->n, ndev);
    ck_assert_str_eq(t->device->names[0], "GPU:0");
    ck_assert_int_eq(t->axis, axis);
}

START_TEST(collectives_follow_the_spec)
{
    for (uint32_t n = 2; n <= 4; n += 2) {
        rdx_graph *g = tgraph();
        enum { S = 4 };
        float v[4 * S], one[S];
        for (int k = 0; k < (int)n * S; k++)
            v[k] = (float)(k * k % 17);
        for (int k = 0; k < S; k++)
            one[k] = (float)k + 0.5f;
        int64_t ns = n * S, s = S;
        const rdx_tensor *single = tf32(g, 1, &s, one);
        const rdx_tensor *T =
            rdx_tensor_from_data_on(g, rdx_dtype_of(RDX_FLOAT32), 1, &ns, v, DEV4, n);
        check_placement(T, ns, n, 0);
        /* broadcast: (s,) on D, axis null, T on every device */
        const rdx_tensor *bc = rdx_tensor_broadcast(g, single, DEV4, n);
        check_placement(bc, S, n, -1);
        ck_assert_uint_eq(count_op(bc, RDX_OP_LOAD), 1);
        rdx_array r = treal(g, bc);
        for (int k = 0; k < S; k++)
            ck_assert_double_eq(rdx_array_get(&r, k), one[k]);
        /* scatter: (s,) on D, axis 0 */
        check_placement(rdx_tensor_scatter(g,
                                           rdx_tensor_cast(g, rdx_tensor_arange(g, 2 * n),
                                                           rdx_dtype_of(RDX_FLOAT32)),
                                           DEV4, n),
                        2 * n, n, 0);
        /* gather: (n*s,) on D[0] */
        const rdx_tensor *ga = rdx_tensor_gather_dev(g, T);
        check_placement(ga, ns, 1, -1);
        r = treal(g, ga);
        for (int k = 0; k < (int)ns; k++)
            ck_assert_double_eq(rdx_array_get(&r, k), v[k]);
        /* reduce: (s,) on D[0], the sum of the shards */
        const rdx_tensor *re = rdx_tensor_reduce_dev(g, T);
        check_placement(re, S, 1, -1);
        r = treal(g, re);
        for (int k = 0; k < S; k++) {
            float acc = 0;
            for (uint32_t d = 0; d < n; d++)
                acc += v[d * S + k];
            ck_assert_double_eq(rdx_array_get(&r, k), acc);
        }
        /* allgather: (n*s,) on D, axis null */
        const rdx_tensor *ag = rdx_tensor_allgather(g, T);
        check_placement(ag, ns, n, -1);
        r = treal(g, ag);
        for (int k = 0; k < (int)ns; k++)
            ck_assert_double_eq(rdx_array_get(&r, k), v[k]);
        /* reduce_scatter: (s,) on D; chunk j of the device-sum lives on device j */
        const rdx_tensor *rs = rdx_tensor_reduce_scatter(g, T);
        ck_assert_int_eq(rdx_tensor_dim(rs, 0), S);
        ck_assert_uint_eq(rs->device->n, n);
        r = treal(g, rs);
        for (int k = 0; k < S; k++) {
            float acc = 0;
            for (uint32_t d = 0; d < n; d++)
                acc += v[d * S + k];
            ck_assert_double_eq(rdx_array_get(&r, k), acc);
        }
        /* the shard axis is 0 right after the COPY and the reduction over devices */
        ck_assert_int_eq(rs->src[0]->src[0]->src[0]->op, RDX_OP_LOAD);
        ck_assert_int_eq(rs->src[0]->src[0]->src[0]->axis, 0);
        /* allreduce: (s,) on D, axis null, the device-sum everywhere */
        const rdx_tensor *ar = rdx_tensor_allreduce(g, T);
        check_placement(ar, S, n, -1);
        rdx_array r2 = treal(g, ar);
        for (int k = 0; k < S; k++)
            ck_assert_double_eq(rdx_array_get(&r2, k), rdx_array_get(&r, k));
        rdx_graph_destroy(g);
    }
}
END_TEST

START_TEST(shard_axis_tracks_reshape_permute_reduce)
{
    rdx_graph *g = tgraph();
    float v[24] = { 0 };
    int64_t d[2] = { 8, 3 };
    const rdx_tensor *T = rdx_tensor_from_data_on(g, rdx_dtype_of(RDX_FLOAT32), 2, d, v, DEV4, 4);
    ck_assert_int_eq(T->axis, 0);
    const rdx_tensor *p = rdx_tensor_permute(g, T, (int[]){ 1, 0 });
    ck_assert_int_eq(p->axis, 1);
    const rdx_tensor *r = rdx_tensor_reshape(g, T, 3, (int64_t[]){ 8, 1, 3 });
    ck_assert_int_eq(r->axis, 0);
    ck_assert_int_eq(rdx_tensor_sum(g, T, 1, (int[]){ 1 }, 1)->axis, 0);
    ck_assert_int_eq(rdx_tensor_sum(g, T, 1, (int[]){ 0 }, 1)->axis, -1);
    ck_assert_int_eq(rdx_tensor_adds(g, T, 1)->axis, 0);
    rdx_graph_destroy(g);
}
END_TEST

TCase *tensor_tcase_spec(void)
{
    TCase *tc = tcase_create("spec");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, gemm_is_the_spec_composition);
    tcase_add_test(tc, prefix_sum_and_arange_are_the_spec_compositions);
    tcase_add_test(tc, gather_and_scatter_add_give_the_documented_results);
    tcase_add_test(tc, collectives_follow_the_spec);
    tcase_add_test(tc, shard_axis_tracks_reshape_permute_reduce);
    return tc;
}
