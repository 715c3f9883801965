/* tests/realize/rowfuse_test.c — row-fused kernels (softmax, log-softmax, layernorm,
 * x - mean, chains of them) realized on the emulated GPU through the whole driver path
 * with the heuristics and with a short BEAM, against the reference interpreter: sizes 1,
 * small, prime, 64 x 1000 and 256 x 1024, symbolic rows and row lengths bound to several
 * values; the kernel count tells whether the rows were fused. */
#include <stdlib.h>

#include "tests/realize/rz_test.h"

static const rdx_tensor *layernorm(rdx_graph *g, const rdx_tensor *x)
{
    return rdx_tensor_layernorm(g, x, 1, NULL, NULL, 1e-5);
}

static const rdx_tensor *pattern(rdx_graph *g, const rdx_tensor *x, int k)
{
    switch (k) {
    case 0:
        return rdx_tensor_softmax(g, x, -1);
    case 1:
        return rdx_tensor_log_softmax(g, x, -1);
    case 2:
        return layernorm(g, x);
    case 3:
        return rdx_tensor_sub(g, x, rdx_tensor_mean(g, x, 1, (int[]){ -1 }, 1));
    default:
        return rdx_tensor_softmax(g, layernorm(g, x), -1);
    }
}

/* kernels of the schedule, whatever the number of rows (issue 22: 8 x 33 and 3 x 1000 were
   three kernels) */
static size_t fused_kernels(int k)
{
    (void)k;
    return 1; /* the chain too: its inner layernorm recomputed in the softmax kernel */
}

static void check_pattern(rdx_device *dev, int64_t rows, int64_t cols, int k,
                          const rdx_realize_options *o, uint64_t *seed)
{
    rdx_graph *g = rz_graph();
    const rdx_tensor *x = rz_random(g, F32, 2, (int64_t[]){ rows, cols }, seed);
    const rdx_tensor *t = pattern(g, x, k);
    ck_assert_ptr_nonnull(t);
    rdx_realize_report *rep = rz_check(g, dev, &t, 1, o, k == 2 || k == 4 ? 1e-4 : 1e-5);
    if (rows >= 2) /* one row keeps the split: no row axis for the grid */
        ck_assert_msg(rep->nkernels == fused_kernels(k), "%lldx%lld pattern %d: %zu kernels",
                      (long long)rows, (long long)cols, k, rep->nkernels);
    rdx_realize_report_free(rep);
    rdx_graph_destroy(g);
}

START_TEST(rowfuse_shapes)
{
    static const int64_t shapes[][2] = { { 1, 1 },     { 7, 13 },  { 8, 33 }, { 3, 1000 },
                                         { 64, 1000 }, { 67, 97 }, { 97, 32 } };
    uint64_t seed = 901;
    rdx_device *dev = rz_device();
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (int k = 0; k < 5; k++)
            check_pattern(dev, shapes[s][0], shapes[s][1], k, NULL, &seed);
    rz_device_close(dev);
}
END_TEST

/* one large case: the heuristics' one-wave-per-row kernel with the row in registers */
START_TEST(rowfuse_large)
{
    uint64_t seed = 902;
    rdx_device *dev = rz_device();
    check_pattern(dev, 256, 1024, 0, NULL, &seed);
    check_pattern(dev, 256, 1024, 2, NULL, &seed);
    rz_device_close(dev);
}
END_TEST

/* a short BEAM from the heuristics' opts */
START_TEST(rowfuse_beam)
{
    uint64_t seed = 903;
    rdx_device *dev = rz_device();
    rdx_realize_options o = { .beam = 2, .beam_steps = 1 };
    check_pattern(dev, 64, 128, 0, &o, &seed);
    check_pattern(dev, 64, 96, 2, &o, &seed);
    rz_device_close(dev);
}
END_TEST

/* symbolic rows and row length, bound to several values */
START_TEST(rowfuse_symbolic)
{
    uint64_t seed = 904;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_uop *dims[2] = { rdx_graph_var(g, "r", 1, 300), rdx_graph_var(g, "c", 1, 300) };
    const rdx_tensor *x = rdx_tensor_empty_sym(g, F32, 2, dims);
    const rdx_tensor *outs[2] = { rdx_tensor_softmax(g, x, -1), layernorm(g, x) };
    static const int64_t vals[][2] = { { 1, 1 }, { 5, 64 }, { 70, 3 }, { 128, 129 } };
    for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
        int64_t n = vals[i][0] * vals[i][1];
        float *d = rz_random_data(F32, n, &seed);
        ck_assert_int_eq(rdx_interp_bind(rdx_graph_interp(g), x, d, (size_t)n * sizeof(float)),
                         RDX_OK);
        free(d);
        for (int v = 0; v < 2; v++)
            ck_assert_int_eq(rdx_interp_bind_var(rdx_graph_interp(g), dims[v], vals[i][v]), RDX_OK);
        const char *names[2] = { "r", "c" };
        rdx_realize_options o = { .var_names = names, .var_values = vals[i], .nvars = 2 };
        rdx_realize_report *rep = rz_check(g, dev, outs, 2, &o, 1e-4);
        ck_assert_uint_eq(rep->nkernels, 2); /* one fused kernel per result */
        rdx_realize_report_free(rep);
    }
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

TCase *rz_tcase_rowfuse(void)
{
    TCase *tc = tcase_create("rowfuse");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, rowfuse_shapes);
    tcase_add_test(tc, rowfuse_large);
    tcase_add_test(tc, rowfuse_beam);
    tcase_add_test(tc, rowfuse_symbolic);
    return tc;
}
