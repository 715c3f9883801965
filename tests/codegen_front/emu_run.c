/* tests/codegen_front/emu_run.c — compile a kernel with the back end
 * (rdx/codegen.h) and run it once on the wave emulator (rdx_realize_emu_run). */
#include <stdlib.h>

#include <rdx/codegen.h>
#include <rdx/realize.h>

#include "tests/codegen_front/cgf_test.h"
#include "util/error.h"

rdx_status cgf_emu_run(rdx_ir_ctx *ctx, const rdx_uop *sink, void **bufs, const size_t *sizes,
                       size_t nbufs, const rdx_uop *const *vars, const int64_t *varvals,
                       size_t nvars, uint64_t *cycles)
{
    rdx_codegen_kernel *k = NULL;
    rdx_status st = rdx_codegen_compile(ctx, sink, NULL, &k);
    if (st)
        return st;
    uint64_t *ptrs = calloc(nbufs + 1, sizeof *ptrs);
    if (!ptrs)
        st = rdx_fail(RDX_ERR_NOMEM, "emu run: out of memory");
    for (size_t p = 0; p < nbufs && !st; p++)
        ptrs[p] = (uint64_t)(uintptr_t)bufs[p];
    rdx_codegen_bindings b = {
        .ptrs = ptrs, .nptrs = nbufs, .vars = vars, .vals = varvals, .nvals = nvars
    };
    rdx_realize_emu_stats es;
    if (!st)
        st = rdx_realize_emu_run(k, &b, sizes, 200000000, &es);
    if (!st && cycles) /* the kernel time estimate (BEAM's objective), else the per-wave sum */
        *cycles = es.kernel_cycles ? es.kernel_cycles : es.cycles;
    free(ptrs);
    rdx_codegen_kernel_free(k);
    return st;
}

void cgf_beam_on_emu(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_uop *base, unsigned width,
                     unsigned steps, rdx_opt *best, size_t *nbest, double *base_cost, double *cost)
{
    rdx_cg_timer fn;
    rdx_realize_beam_timer *tm;
    ck_assert_int_eq(rdx_realize_beam_timer_create(ctx, NULL, NULL, NULL, NULL, 0, 0, &fn, &tm),
                     RDX_OK);
    ck_assert_msg(fn(base, tm, 0, base_cost) == RDX_OK, "%s", rdx_error_message());
    rdx_beam_opts bo = { .width = width, .max_steps = steps, .device = "emu-cgf-test" };
    rdx_cg_beam_cache_clear();
    ck_assert_msg(rdx_cg_beam(ctx, k, fn, tm, &bo, best, 16, nbest, cost) == RDX_OK, "%s",
                  rdx_error_message());
    rdx_cg_beam_cache_clear();
    rdx_realize_beam_timer_free(tm);
}
