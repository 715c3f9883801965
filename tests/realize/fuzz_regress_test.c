/* tests/realize/fuzz_regress_test.c — reduced cases found by the differential
 * fuzzer (fuzz/fuzz_realize.c), each realized on the default device and
 * compared with the interpreter; the comment of each test names the seed and
 * what was wrong. */
#include <stdlib.h>
#include <string.h>

#include "tests/realize/rz_test.h"

static void check_free(rdx_graph *g, rdx_device *dev, const rdx_tensor *const *ts, size_t n,
                       const rdx_realize_options *o, double rtol)
{
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(ts[i] != NULL, "build: %s", rdx_graph_error(g));
    rdx_realize_report_free(rz_check(g, dev, ts, n, o, rtol));
}

/* seed 3340: a float16 matmul (TC by the heuristics, 2x4 WMMA tiles per wave) with a
   softmax epilogue spills a 64-dword accumulator; one v_mov_b32 writing part of it
   needed more spill code than the spiller's per-instruction limit (96): "regalloc: too
   much spill code around one v_mov_b32". */
START_TEST(tc_softmax_epilogue_spills)
{
    uint64_t seed = 3340;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_tensor *a = rz_random(g, F16, 2, (int64_t[]){ 64, 32 }, &seed);
    const rdx_tensor *b = rz_random(g, F16, 2, (int64_t[]){ 32, 64 }, &seed);
    const rdx_tensor *y = rdx_tensor_matmul(g, rdx_tensor_cast(g, a, F32), b);
    const rdx_tensor *out = rdx_tensor_softmax(g, y, 1);
    check_free(g, dev, &out, 1, NULL, 1e-3);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

TCase *rz_tcase_fuzz_regress(void)
{
    TCase *tc = tcase_create("fuzz_regress");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, tc_softmax_epilogue_spills);
    return tc;
}
