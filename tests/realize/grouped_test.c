/* tests/realize/grouped_test.c — grouped reductions (GROUP_REDUCE) through the whole driver
 * path on the emulated GPU, with the heuristics (lane counts of 64..256: expand's log-step
 * combine over LDS) and with a short BEAM from them, against the reference interpreter:
 * float32 sums, means and variances, int64 maxima, float16 sums of integer values (exact
 * in any order), argmaxes with ties (64 rows: the row max fused into the index search,
 * both ranges grouped), and a row max into few outputs. */
#include <stdlib.h>

#include "tests/realize/rz_test.h"

/* a [rows, cols] tensor of integers in [-9, 9] (rz_random's int8) cast to dt */
static const rdx_tensor *ints(rdx_graph *g, rdx_dtype dt, int64_t rows, int64_t cols,
                              uint64_t *seed)
{
    const rdx_tensor *t = rz_random(g, rdx_dtype_of(RDX_INT8), 2, (int64_t[]){ rows, cols }, seed);
    return rdx_tensor_cast(g, t, dt);
}

START_TEST(grouped_heuristics)
{
    uint64_t seed = 1201;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_tensor *x = rz_random(g, F32, 2, (int64_t[]){ 16, 16384 }, &seed);
    const rdx_tensor *y = rz_random(g, F32, 2, (int64_t[]){ 4, 4096 }, &seed);
    const rdx_tensor *xi = ints(g, I64, 8, 8192, &seed);
    const rdx_tensor *xh = ints(g, F16, 8, 2048, &seed);
    const rdx_tensor *xt = ints(g, F32, 16, 4096, &seed);
    const rdx_tensor *xa = ints(g, F32, 64, 1024, &seed);
    rz_case cases[] = {
        { rdx_tensor_sum(g, x, 1, (int[]){ 1 }, 0), 1e-5 },    /* 256 lanes */
        { rdx_tensor_mean(g, y, 1, (int[]){ 1 }, 0), 1e-5 },   /* 256 lanes */
        { rdx_tensor_var(g, y, 1, (int[]){ 1 }, 0, 1), 1e-4 }, /* two reductions */
        { rdx_tensor_max(g, xi, 1, (int[]){ 1 }, 0), 0 },      /* int64 */
        { rdx_tensor_sum(g, xh, 1, (int[]){ 1 }, 0), 1e-6 },   /* f16, exact */
        { rdx_tensor_argmax(g, xt, 1, 0), 0 },                 /* ties */
        { rdx_tensor_argmax(g, xa, 1, 0), 0 },                 /* fused: both ranges grouped */
        { rdx_tensor_max(g, rdx_tensor_neg(g, y), 1, (int[]){ 1 }, 1), 0 },
    };
    rz_check_cases(g, dev, cases, sizeof cases / sizeof *cases);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

/* BEAM from the heuristics' grouped opts: its candidates (other GROUP_REDUCE sizes, UPCAST
   of the outputs with grouped copies) compile and run, or are skipped; the result matches */
START_TEST(grouped_beam)
{
    uint64_t seed = 1202;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_tensor *x = rz_random(g, F32, 2, (int64_t[]){ 4, 2048 }, &seed);
    const rdx_tensor *t = rdx_tensor_sum(g, x, 1, (int[]){ 1 }, 0);
    rdx_realize_options o = { .beam = 2, .beam_steps = 1 };
    rz_check_free(g, dev, &t, 1, &o, 1e-5);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

TCase *rz_tcase_grouped(void)
{
    TCase *tc = tcase_create("grouped");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, grouped_heuristics);
    tcase_add_test(tc, grouped_beam);
    return tc;
}
