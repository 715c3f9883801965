/* tests/realize/ops_test.c — tensor programs built in C, realized on the
 * default device with rdx_tensor_realize_on and compared with the reference
 * interpreter: elementwise, reductions, matmul, several outputs at once,
 * symbolic sizes. */
#include <stdlib.h>
#include <string.h>

#include "tests/realize/rz_test.h"

START_TEST(elementwise)
{
    uint64_t seed = 1;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_tensor *a = rz_random(g, F32, 2, (int64_t[]){ 33, 40 }, &seed);
    const rdx_tensor *b = rz_random(g, F32, 1, (int64_t[]){ 40 }, &seed);
    const rdx_tensor *pos = rdx_tensor_adds(g, rdx_tensor_abs(g, a), 0.5);
    const rdx_tensor *ia = rz_random(g, I32, 1, (int64_t[]){ 1000 }, &seed);
    const rdx_tensor *ib = rz_random(g, I32, 1, (int64_t[]){ 1000 }, &seed);
    const rdx_tensor *la = rz_random(g, I64, 1, (int64_t[]){ 257 }, &seed);
    const rdx_tensor *ha = rz_random(g, F16, 2, (int64_t[]){ 7, 64 }, &seed);
    const rdx_tensor *hb = rz_random(g, F16, 2, (int64_t[]){ 7, 64 }, &seed);
    const rz_case cases[] = {
        { rdx_tensor_add(g, rdx_tensor_mul(g, a, b), rdx_tensor_const(g, F32, 2)), 1e-6 },
        { rdx_tensor_where(g, rdx_tensor_cmplt(g, a, b), a, rdx_tensor_neg(g, b)), 0 },
        { rdx_tensor_div(g, a, pos), 1e-6 },
        { rdx_tensor_exp(g, a), 1e-5 },
        { rdx_tensor_log(g, pos), 1e-5 },
        { rdx_tensor_sqrt(g, pos), 1e-5 },
        { rdx_tensor_sigmoid(g, a), 1e-5 },
        { rdx_tensor_mul(g, rdx_tensor_adds(g, ia, 3), ib), 0 },
        { rdx_tensor_xor(g, rdx_tensor_shl(g, ia, rdx_tensor_const(g, I32, 3)), ib), 0 },
        { rdx_tensor_cmpge(g, ia, ib), 0 },
        { rdx_tensor_cast(g, rdx_tensor_muls(g, a, 10), I32), 0 },
        { rdx_tensor_mul(g, la, rdx_tensor_const(g, I64, 3000000000.0)), 0 },
        { rdx_tensor_add(g, rdx_tensor_mul(g, ha, hb), ha), 4e-3 },
    };
    rz_check_cases(g, dev, cases, sizeof cases / sizeof *cases);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

START_TEST(reductions)
{
    uint64_t seed = 2;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_tensor *a = rz_random(g, F32, 2, (int64_t[]){ 37, 129 }, &seed);
    const rdx_tensor *big = rz_random(g, F32, 1, (int64_t[]){ 20000 }, &seed);
    const rdx_tensor *ia = rz_random(g, I32, 3, (int64_t[]){ 2, 3, 4096 }, &seed);
    const rz_case cases[] = {
        { rdx_tensor_sum(g, a, 1, (int[]){ 1 }, 0), 1e-4 },
        { rdx_tensor_max(g, a, 1, (int[]){ 0 }, 1), 0 },
        { rdx_tensor_mean(g, a, 0, NULL, 0), 1e-4 },
        { rdx_tensor_softmax(g, a, 1), 1e-5 },
        { rdx_tensor_sum(g, big, 0, NULL, 0), 1e-4 },
        { rdx_tensor_max(g, ia, 1, (int[]){ 2 }, 0), 0 },
        { rdx_tensor_sum(g, ia, 2, (int[]){ 0, 1 }, 0), 0 },
        { rdx_tensor_argmax(g, a, 1, 0), 0 },
    };
    rz_check_cases(g, dev, cases, sizeof cases / sizeof *cases);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

START_TEST(matmul)
{
    uint64_t seed = 3;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_tensor *A = rz_random(g, F32, 2, (int64_t[]){ 32, 24 }, &seed);
    const rdx_tensor *B = rz_random(g, F32, 2, (int64_t[]){ 24, 48 }, &seed);
    const rdx_tensor *mm = rdx_tensor_matmul(g, A, B);
    rdx_realize_options raw = { .raw = 1 };
    rz_check_free(g, dev, &mm, 1, NULL, 1e-5);
    rz_check_free(g, dev, &mm, 1, &raw, 1e-5);
    /* odd sizes, and a batched matmul through a transpose */
    const rdx_tensor *C = rz_random(g, F32, 2, (int64_t[]){ 7, 13 }, &seed);
    const rdx_tensor *D = rz_random(g, F32, 3, (int64_t[]){ 3, 5, 13 }, &seed);
    const rdx_tensor *bm = rdx_tensor_matmul(g, C, rdx_tensor_transpose(g, D, 1, 2));
    ck_assert_msg(bm != NULL, "%s", rdx_graph_error(g));
    rz_check_free(g, dev, &bm, 1, NULL, 1e-5);
    /* float16 operands, float32 accumulation (the tensor cores' shape) */
    const rdx_tensor *H1 = rz_random(g, F16, 2, (int64_t[]){ 32, 48 }, &seed);
    const rdx_tensor *H2 = rz_random(g, F16, 2, (int64_t[]){ 48, 64 }, &seed);
    const rdx_tensor *hm =
        rdx_tensor_matmul(g, rdx_tensor_cast(g, H1, F32), rdx_tensor_cast(g, H2, F32));
    rz_check_free(g, dev, &hm, 1, NULL, 1e-5);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

START_TEST(several_outputs)
{
    uint64_t seed = 4;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_tensor *a = rz_random(g, F32, 3, (int64_t[]){ 3, 5, 7 }, &seed);
    const rdx_tensor *b = rz_random(g, F32, 3, (int64_t[]){ 3, 5, 7 }, &seed);
    const rdx_tensor *outs[6] = {
        rdx_tensor_add(g, a, b),
        rdx_tensor_mul(g, a, b),
        rdx_tensor_max(g, a, 1, (int[]){ 2 }, 0),
        rdx_tensor_sum(g, a, 1, (int[]){ 2 }, 0),
        rdx_tensor_permute(g, a, (int[]){ 2, 0, 1 }),
        a, /* an input returned as it is */
    };
    rdx_realize_report *rep = rz_check(g, dev, outs, 6, NULL, 1e-5);
    /* equal-shape independent results share a kernel: fewer kernels than outputs */
    ck_assert_uint_lt(rep->nkernels, 6);
    ck_assert_uint_ge(rep->nkernels, 1);
    rdx_realize_report_free(rep);
    /* the same tensor twice */
    const rdx_tensor *twice[2] = { outs[0], outs[0] };
    rz_check_free(g, dev, twice, 2, NULL, 0);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

START_TEST(symbolic_sizes)
{
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_uop *n = rdx_graph_var(g, "n", 1, 1024);
    const rdx_tensor *x = rdx_tensor_empty_sym(g, F32, 1, &n);
    const rdx_tensor *y = rdx_tensor_adds(g, rdx_tensor_muls(g, x, 2), 1);
    const rdx_tensor *outs[2] = { y, rdx_tensor_sum(g, y, 0, NULL, 0) };
    ck_assert_msg(outs[1] != NULL, "%s", rdx_graph_error(g));
    static const int64_t sizes[] = { 1, 7, 257 };
    for (size_t k = 0; k < 3; k++) {
        int64_t v = sizes[k];
        float *data = malloc(sizeof(float) * (size_t)v);
        for (int64_t i = 0; i < v; i++)
            data[i] = (float)(i % 13) - 6.0f;
        ck_assert_int_eq(rdx_interp_bind(rdx_graph_interp(g), x, data, sizeof(float) * (size_t)v),
                         RDX_OK);
        ck_assert_int_eq(rdx_interp_bind_var(rdx_graph_interp(g), n, v), RDX_OK);
        const char *names[1] = { "n" };
        rdx_realize_options o = { .var_names = names, .var_values = &v, .nvars = 1 };
        rdx_realize_report *rep = rz_check(g, dev, outs, 2, &o, 1e-5);
        rdx_realize_report_free(rep);
        /* independent of the interpreter: y[i] = 2 x[i] + 1 */
        rdx_array got[2];
        ck_assert_int_eq(rdx_tensor_realize_on(g, dev, outs, 2, &o, got, NULL), RDX_OK);
        ck_assert_int_eq(got[0].numel, v);
        ck_assert_int_eq(got[0].dims[0], v);
        double sum = 0;
        for (int64_t i = 0; i < v; i++) {
            ck_assert_float_eq(((float *)got[0].data)[i], 2 * data[i] + 1);
            sum += 2 * data[i] + 1;
        }
        ck_assert_float_eq_tol(((float *)got[1].data)[0], sum, 1e-3);
        free(data);
    }
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

TCase *rz_tcase_ops(void)
{
    TCase *tc = tcase_create("ops");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, elementwise);
    tcase_add_test(tc, reductions);
    tcase_add_test(tc, matmul);
    tcase_add_test(tc, several_outputs);
    tcase_add_test(tc, symbolic_sizes);
    return tc;
}
