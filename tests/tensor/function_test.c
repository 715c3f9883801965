/* tests/tensor/function_test.c — the spec's @function: inputs deduplicated, BUFFERs captured as
 * PARAMs, TUPLE body, GETTUPLE results, reuse, nesting, and the error paths. */
#include <stdlib.h>

#include "tests/tensor/tensor_test.h"

static size_t count(const rdx_uop *root, rdx_op op)
{
    const rdx_uop **order;
    size_t n, c = 0;
    ck_assert_int_eq(rdx_ir_toposort(root, &order, &n), RDX_OK);
    for (size_t k = 0; k < n; k++)
        c += order[k]->op == op;
    free(order);
    return c;
}

/* out0 = a * b + w (w captured), out1 = sum(a) */
static rdx_status body(rdx_graph *g, const rdx_tensor *const *in, size_t nin,
                       const rdx_tensor **outs, size_t *nout, void *user)
{
    ck_assert_uint_eq(nin, 2);
    outs[0] = rdx_tensor_add(g, rdx_tensor_mul(g, in[0], in[1]), (const rdx_tensor *)user);
    outs[1] = rdx_tensor_sum(g, in[0], 0, NULL, 0);
    *nout = 2;
    return RDX_OK;
}

START_TEST(apply_dedupes_inputs_and_captures_buffers)
{
    rdx_graph *g = tgraph();
    float a[3] = { 1, 2, 3 }, w[3] = { 10, 20, 30 };
    const rdx_tensor *A = tf32(g, 1, (int64_t[]){ 3 }, a), *W = tf32(g, 1, (int64_t[]){ 3 }, w);
    const rdx_tensor *outs[RDX_FUNCTION_MAX_OUT];
    size_t nout = 0;
    ck_assert_int_eq(
        rdx_function_apply(g, body, (void *)W, (const rdx_tensor *[]){ A, A }, 2, outs, &nout),
        RDX_OK);
    ck_assert_uint_eq(nout, 2);
    const rdx_uop *f = outs[0]->src[0];
    ck_assert_int_eq(outs[0]->op, RDX_OP_GETTUPLE);
    ck_assert_int_eq(outs[1]->arg.i, 1);
    ck_assert_int_eq(f->op, RDX_OP_FUNCTION);
    ck_assert_uint_eq(f->nsrc, 3); /* body, A (once), W (captured) */
    ck_assert_ptr_eq(f->src[1], A);
    ck_assert_ptr_eq(f->src[2], W);
    ck_assert_int_eq(f->src[0]->op, RDX_OP_TUPLE);
    ck_assert_uint_eq(f->src[0]->nsrc, 2);
    ck_assert_uint_eq(count(f->src[0], RDX_OP_BUFFER), 0); /* only PARAMs in the body */
    ck_assert_uint_eq(count(f->src[0], RDX_OP_PARAM), 2);
    rdx_array r0 = treal(g, outs[0]), r1 = treal(g, outs[1]);
    for (int k = 0; k < 3; k++)
        ck_assert_double_eq(rdx_array_get(&r0, k), a[k] * a[k] + w[k]);
    ck_assert_double_eq(rdx_array_get(&r1, 0), 6);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(captured_function_is_reusable)
{
    rdx_graph *g = tgraph();
    float w[2] = { 1, -1 };
    const rdx_tensor *W = tf32(g, 1, (int64_t[]){ 2 }, w);
    const rdx_tensor *ex[2] = { rdx_tensor_empty(g, rdx_dtype_of(RDX_FLOAT32), 1, (int64_t[]){ 2 }),
                                rdx_tensor_empty(g, rdx_dtype_of(RDX_FLOAT32), 1,
                                                 (int64_t[]){ 2 }) };
    rdx_function *f;
    ck_assert_int_eq(rdx_function_capture(g, body, (void *)W, ex, 2, &f), RDX_OK);
    ck_assert_uint_eq(rdx_function_nout(f), 2);
    ck_assert_uint_eq(rdx_function_ninputs(f), 3);
    ck_assert_int_eq(rdx_function_body(f)->op, RDX_OP_TUPLE);
    float x[2] = { 2, 3 }, y[2] = { 4, 5 };
    const rdx_tensor *X = tf32(g, 1, (int64_t[]){ 2 }, x), *Y = tf32(g, 1, (int64_t[]){ 2 }, y);
    const rdx_tensor *o1[2], *o2[1];
    ck_assert_int_eq(rdx_function_call(g, f, (const rdx_tensor *[]){ X, Y }, 2, o1, 2), RDX_OK);
    ck_assert_int_eq(rdx_function_call(g, f, (const rdx_tensor *[]){ Y, o1[0] }, 2, o2, 1), RDX_OK);
    rdx_array r = treal(g, o2[0]);
    /* o1[0] = x*y + w = [9, 14]; o2 = y * o1 + w = [37, 69] */
    ck_assert_double_eq(rdx_array_get(&r, 0), 37);
    ck_assert_double_eq(rdx_array_get(&r, 1), 69);
    rdx_graph_destroy(g);
}
END_TEST

static rdx_status twice(rdx_graph *g, const rdx_tensor *const *in, size_t nin,
                        const rdx_tensor **outs, size_t *nout, void *user)
{
    (void)nin;
    const rdx_function *inner = user;
    const rdx_tensor *r[1];
    rdx_status st = rdx_function_call(g, inner, (const rdx_tensor *[]){ in[0], in[0] }, 2, r, 1);
    if (st)
        return st;
    outs[0] = rdx_tensor_exp(g, r[0]);
    *nout = 1;
    return RDX_OK;
}

START_TEST(functions_nest)
{
    rdx_graph *g = tgraph();
    float w[2] = { 0.5f, -1 }, x[2] = { 1, 0.25f };
    const rdx_tensor *W = tf32(g, 1, (int64_t[]){ 2 }, w);
    const rdx_tensor *ex = rdx_tensor_empty(g, rdx_dtype_of(RDX_FLOAT32), 1, (int64_t[]){ 2 });
    rdx_function *inner, *outer;
    ck_assert_int_eq(
        rdx_function_capture(g, body, (void *)W, (const rdx_tensor *[]){ ex, ex }, 2, &inner),
        RDX_OK);
    ck_assert_int_eq(rdx_function_capture(g, twice, inner, &ex, 1, &outer), RDX_OK);
    const rdx_tensor *X = tf32(g, 1, (int64_t[]){ 2 }, x), *o[1];
    ck_assert_int_eq(rdx_function_call(g, outer, &X, 1, o, 1), RDX_OK);
    rdx_array r = treal(g, o[0]);
    for (int k = 0; k < 2; k++)
        ck_assert_double_eq_tol(rdx_array_get(&r, k), exp(x[k] * x[k] + w[k]), 1e-5);
    rdx_graph_destroy(g);
}
END_TEST

static rdx_status fails(rdx_graph *g, const rdx_tensor *const *in, size_t nin,
                        const rdx_tensor **outs, size_t *nout, void *user)
{
    (void)g, (void)in, (void)nin, (void)outs;
    *nout = 0;
    if (user)
        return RDX_ERR_UNSUPPORTED;
    return RDX_OK;
}

START_TEST(function_errors)
{
    rdx_graph *g = tgraph();
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32);
    const rdx_tensor *ex = rdx_tensor_empty(g, f32, 1, (int64_t[]){ 2 });
    rdx_function *f;
    ck_assert_int_eq(rdx_function_capture(g, fails, NULL, &ex, 1, &f), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_graph_error(g), "returned 0 results"));
    rdx_graph_clear_error(g);
    ck_assert_int_eq(rdx_function_capture(g, fails, (void *)1, &ex, 1, &f), RDX_ERR_UNSUPPORTED);
    rdx_graph_clear_error(g);
    ck_assert_int_eq(
        rdx_function_capture(g, body, (void *)ex, (const rdx_tensor *[]){ ex, ex }, 2, &f), RDX_OK);
    const rdx_tensor *o[2];
    ck_assert_int_eq(rdx_function_call(g, f, &ex, 1, o, 1), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_graph_error(g), "1 arguments, expected 2"));
    rdx_graph_clear_error(g);
    const rdx_tensor *b3 = rdx_tensor_empty(g, f32, 1, (int64_t[]){ 3 });
    ck_assert_int_eq(rdx_function_call(g, f, (const rdx_tensor *[]){ ex, b3 }, 2, o, 1),
                     RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_graph_error(g), "argument 1 has shape [3], expected [2]"));
    rdx_graph_clear_error(g);
    const rdx_tensor *i2 = rdx_tensor_empty(g, rdx_dtype_of(RDX_INT32), 1, (int64_t[]){ 2 });
    ck_assert_int_eq(rdx_function_call(g, f, (const rdx_tensor *[]){ i2, ex }, 2, o, 1),
                     RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(
        strstr(rdx_graph_error(g), "argument 0 is int32[2], expected float32[2]"));
    rdx_graph_clear_error(g);
    ck_assert_int_eq(rdx_function_call(g, f, (const rdx_tensor *[]){ ex, ex }, 2, o, 3),
                     RDX_ERR_INVALID);
    rdx_graph_clear_error(g);
    ck_assert_int_eq(rdx_function_call(g, f, (const rdx_tensor *[]){ ex, NULL }, 2, o, 1),
                     RDX_ERR_INVALID);
    rdx_graph_destroy(g);
}
END_TEST

TCase *tensor_tcase_function(void)
{
    TCase *tc = tcase_create("function");
    tcase_add_test(tc, apply_dedupes_inputs_and_captures_buffers);
    tcase_add_test(tc, captured_function_is_reusable);
    tcase_add_test(tc, functions_nest);
    tcase_add_test(tc, function_errors);
    return tc;
}
