/* tests/tensor/errors_test.c — every API function's error cases: the message names the op and
 * the shapes involved, errors are sticky, and nothing leaks (ASan). */
#include <stdlib.h>

#include "tests/tensor/tensor_test.h"

#define NONE NULL

START_TEST(shape_errors_name_the_op_and_both_shapes)
{
    rdx_graph *g = tgraph();
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32), i32 = rdx_dtype_of(RDX_INT32);
    const rdx_tensor *a = rdx_tensor_empty(g, f32, 2, (int64_t[]){ 2, 3 });
    const rdx_tensor *b = rdx_tensor_empty(g, f32, 2, (int64_t[]){ 4, 3 });
    const rdx_tensor *i = rdx_tensor_empty(g, i32, 1, (int64_t[]){ 3 });
    expect_error(g, rdx_tensor_add(g, a, b), "add", "[2,3]", "[4,3]", "broadcast", NONE);
    expect_error(g, rdx_tensor_matmul(g, a, a), "matmul", "inner dimensions", "[2,3] @ [2,3]",
                 NONE);
    expect_error(g, rdx_tensor_reshape(g, a, 2, (int64_t[]){ 4, 2 }), "reshape", "[2,3]", "[4,2]",
                 NONE);
    expect_error(g, rdx_tensor_reshape(g, a, 2, (int64_t[]){ -1, 4 }), "reshape", "infer", NONE);
    expect_error(g, rdx_tensor_permute(g, a, (int[]){ 0, 0 }), "permute", "[2,3]", NONE);
    expect_error(g, rdx_tensor_transpose(g, a, 0, 2), "transpose", "axis 2", NONE);
    expect_error(g, rdx_tensor_expand(g, a, 2, (int64_t[]){ 2, 4 }), "expand", "[2,3]", NONE);
    expect_error(g, rdx_tensor_expand(g, a, 1, (int64_t[]){ 3 }), "expand", "rank 1", NONE);
    expect_error(g, rdx_tensor_pad(g, a, (int64_t[]){ -1, 0 }, (int64_t[]){ 0, 0 }, 0), "pad",
                 "negative", NONE);
    expect_error(g, rdx_tensor_shrink(g, a, (int64_t[]){ 0, 2 }, (int64_t[]){ 2, 4 }), "shrink",
                 "[2, 4)", "[2,3]", NONE);
    expect_error(g, rdx_tensor_slice(g, a, 1, 0, 3, 0), "slice", NONE);
    expect_error(g, rdx_tensor_flip(g, a, 1, (int[]){ 3 }), "flip", "axis 3", NONE);
    expect_error(g, rdx_tensor_index(g, a, 1, &a), "index", "integer", NONE);
    expect_error(g, rdx_tensor_index(g, a, 3, (const rdx_tensor *[]){ i, i, i }), "index",
                 "3 indices", NONE);
    expect_error(g, rdx_tensor_stack(g, (const rdx_tensor *[]){ a, b }, 2, 0), "stack", "[4,3]",
                 "[2,3]", NONE);
    expect_error(g, rdx_tensor_stack(g, NULL, 0, 0), "stack", NONE);
    expect_error(g, rdx_tensor_cat(g, (const rdx_tensor *[]){ a, b }, 2, 1), "cat", "[4,3]",
                 "[2,3]", NONE);
    const rdx_tensor *parts[2];
    ck_assert_int_eq(rdx_tensor_split(g, a, 1, (int64_t[]){ 1, 1 }, 2, parts), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_graph_error(g), "sizes sum to 2"));
    rdx_graph_clear_error(g);
    expect_error(g, rdx_tensor_sum(g, a, 1, (int[]){ 2 }, 0), "sum", "axis 2", "[2,3]", NONE);
    expect_error(g, rdx_tensor_max(g, a, 2, (int[]){ 1, -1 }, 0), "max", "twice", NONE);
    expect_error(g, rdx_tensor_argmax(g, a, 4, 0), "argmax", NONE);
    expect_error(g, rdx_tensor_cumsum(g, a, -3), "cumsum", NONE);
    expect_error(g, rdx_tensor_idiv(g, a, a), "idiv", "integer", NONE);
    expect_error(g, rdx_tensor_xor(g, a, i), "xor", NONE);
    expect_error(g, rdx_tensor_neg(g, rdx_tensor_cmplt(g, a, a)), "neg", "bool", NONE);
    expect_error(g, rdx_tensor_clamp(g, a, 2, 1), "clamp", NONE);
    expect_error(g, rdx_tensor_cast(g, a, rdx_dtype_of(RDX_VOID)), "cast", NONE);
    expect_error(g, rdx_tensor_bitcast(g, a, rdx_dtype_of(RDX_FLOAT64)), "bitcast", "bitcast size",
                 NONE);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(composite_and_creation_errors)
{
    rdx_graph *g = tgraph();
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32), i32 = rdx_dtype_of(RDX_INT32);
    const rdx_tensor *x = rdx_tensor_empty(g, f32, 4, (int64_t[]){ 1, 3, 5, 5 });
    const rdx_tensor *w = rdx_tensor_empty(g, f32, 4, (int64_t[]){ 2, 2, 3, 3 });
    const rdx_tensor *v = rdx_tensor_empty(g, f32, 1, (int64_t[]){ 4 });
    const rdx_tensor *i = rdx_tensor_empty(g, i32, 1, (int64_t[]){ 3 });
    expect_error(g, rdx_tensor_conv2d(g, x, w, NULL, NULL), "conv2d", "channels", "[1,3,5,5]",
                 "[2,2,3,3]", NONE);
    expect_error(g, rdx_tensor_conv2d(g, v, w, NULL, NULL), "conv2d", "[4]", NONE);
    const rdx_tensor *w3 = rdx_tensor_empty(g, f32, 4, (int64_t[]){ 2, 3, 7, 7 });
    expect_error(g, rdx_tensor_conv2d(g, x, w3, NULL, NULL), "conv2d", "does not fit", NONE);
    expect_error(g, rdx_tensor_max_pool2d(g, x, (int64_t[]){ 9, 9 }, NULL, NULL), "max_pool2d",
                 NONE);
    expect_error(g, rdx_tensor_avg_pool2d(g, x, (int64_t[]){ 0, 1 }, NULL, NULL), "avg_pool2d",
                 NONE);
    expect_error(g, rdx_tensor_layernorm(g, v, 2, NULL, NULL, 1e-5), "layernorm", NONE);
    expect_error(g, rdx_tensor_cross_entropy(g, v, i), "cross_entropy", "[4]", "[3]", NONE);
    expect_error(g, rdx_tensor_gather(g, v, v), "gather", NONE);
    expect_error(g, rdx_tensor_scatter_add(g, v, i, v), "scatter_add", "[4]", "[3]", NONE);
    expect_error(g, rdx_tensor_one_hot(g, v, 3, f32), "one_hot", NONE);
    expect_error(g, rdx_tensor_one_hot(g, i, 0, f32), "one_hot", NONE);
    expect_error(g, rdx_tensor_embedding(g, v, i), "embedding", "[4]", NONE);
    expect_error(g, rdx_tensor_softmax(g, v, 1), "softmax", NONE);
    expect_error(g, rdx_tensor_empty(g, f32, 1, (int64_t[]){ -2 }), "empty", "negative", NONE);
    expect_error(g, rdx_tensor_from_data(g, f32, 1, (int64_t[]){ 2 }, NULL), "from_data", NONE);
    expect_error(g, rdx_tensor_const(g, rdx_dtype_of(RDX_VOID), 1), "const", NONE);
    expect_error(g, rdx_tensor_arange(g, -1), "arange", NONE);
    expect_error(g, rdx_tensor_arange_range(g, 0, 1, 0, f32), "arange", NONE);
    expect_error(g, rdx_tensor_rand(g, i32, 1, (int64_t[]){ 2 }, 0), "rand", "float", NONE);
    expect_error(g, rdx_tensor_randn(g, i32, 1, (int64_t[]){ 2 }, 0), "randn", NONE);
    expect_error(g, rdx_tensor_randint(g, 5, 5, 1, (int64_t[]){ 2 }, 0), "randint", NONE);
    expect_error(g, rdx_graph_var(g, "n", 5, 1), "var", NONE);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(errors_are_sticky_until_cleared)
{
    rdx_graph *g = tgraph();
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32);
    const rdx_tensor *a = rdx_tensor_empty(g, f32, 1, (int64_t[]){ 2 });
    const rdx_tensor *b = rdx_tensor_empty(g, f32, 1, (int64_t[]){ 3 });
    const rdx_tensor *bad = rdx_tensor_add(g, a, b);
    ck_assert_ptr_null(bad);
    /* NULL in, NULL out; the first message is kept */
    ck_assert_ptr_null(rdx_tensor_exp(g, bad));
    ck_assert_ptr_null(rdx_tensor_sum(g, bad, 0, NULL, 0));
    ck_assert_ptr_null(rdx_tensor_mul(g, a, a)); /* the graph has an error */
    ck_assert_ptr_nonnull(strstr(rdx_graph_error(g), "[2]"));
    ck_assert_ptr_nonnull(strstr(rdx_graph_error(g), "[3]"));
    rdx_array r;
    ck_assert_int_eq(rdx_tensor_realize(g, a, &r), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "graph has an error"));
    rdx_graph_clear_error(g);
    ck_assert_int_eq(rdx_graph_status(g), RDX_OK);
    ck_assert_str_eq(rdx_graph_error(g), "");
    ck_assert_ptr_nonnull(rdx_tensor_mul(g, a, a));
    ck_assert_int_eq(rdx_graph_realize(g, (const rdx_tensor *[]){ NULL }, 1, &r), RDX_ERR_INVALID);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(multi_device_errors)
{
    rdx_graph *g = tgraph();
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32);
    static const char *const D3[3] = { "A", "B", "C" };
    float v[4] = { 0 };
    const rdx_tensor *t = tf32(g, 1, (int64_t[]){ 4 }, v);
    expect_error(g, rdx_tensor_copy(g, t, D3, 3), "copy", "[4]", "3 devices", NONE);
    expect_error(g, rdx_tensor_copy(g, t, NULL, 0), "copy", NONE);
    expect_error(g, rdx_tensor_from_data_on(g, f32, 1, (int64_t[]){ 4 }, v, D3, 3), "from_data",
                 "3 devices", NONE);
    expect_error(g, rdx_tensor_replicated(g, t), "replicated", NONE);
    expect_error(g, rdx_tensor_allgather(g, t), "allgather", "sharded", NONE);
    expect_error(g, rdx_tensor_gather_dev(g, t), "gather", NONE);
    expect_error(g, rdx_tensor_reduce_dev(g, t), "reduce", NONE);
    expect_error(g, rdx_tensor_broadcast(g, t, D3, 1), "broadcast", NONE);
    expect_error(g, rdx_tensor_scatter(g, t, D3, 1), "scatter", NONE);
    const rdx_tensor *s2 = rdx_tensor_from_data_on(g, f32, 1, (int64_t[]){ 4 }, v, D3, 2);
    float v6[6] = { 0 };
    const rdx_tensor *s3 = rdx_tensor_from_data_on(g, f32, 1, (int64_t[]){ 6 }, v6, D3, 3);
    ck_assert_ptr_nonnull(s2);
    expect_error(g, rdx_tensor_reduce_scatter(g, s3), "reduce_scatter", "does not split", NONE);
    expect_error(g,
                 rdx_tensor_broadcast(g, rdx_tensor_empty(g, f32, 2, (int64_t[]){ 2, 2 }), D3, 2),
                 "broadcast", "1-D", NONE);
    rdx_graph_destroy(g);
}
END_TEST

TCase *tensor_tcase_errors(void)
{
    TCase *tc = tcase_create("errors");
    tcase_add_test(tc, shape_errors_name_the_op_and_both_shapes);
    tcase_add_test(tc, composite_and_creation_errors);
    tcase_add_test(tc, errors_are_sticky_until_cleared);
    tcase_add_test(tc, multi_device_errors);
    return tc;
}
