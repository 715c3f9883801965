/* realize/emu_time.c — a compiled kernel run once on a private wave emulator
 * (rdx/emu.h) for its estimated cycles and wave-instructions
 * (rdx_realize_emu_run; the profile of rdx_realize on the emulated GPU and
 * the BEAM timer's cost there). */
#include <stdlib.h>

#include <rdx/emu.h>
#include <rdx/emu_prof.h>

#include "realize/realize_internal.h"
#include "util/error.h"

/* Instructions one wave may run before the emulator declares it hung. */
#define RZ_EMU_BUDGET 2000000000ull

/* rdx_realize_emu_run with the emulator's cycle limit (rdx_emu_launch.cycle_limit; 0: none). */
static rdx_status emu_run(const rdx_codegen_kernel *k, const rdx_codegen_bindings *b,
                          const size_t *sizes, uint64_t budget, uint64_t cycle_limit,
                          rdx_realize_emu_stats *stats, const rz_prof *prof)
{
    if (!k || !b || !sizes)
        return rdx_fail(RDX_ERR_INVALID, "emulator run: NULL %s",
                        !k   ? "kernel"
                        : !b ? "bindings"
                             : "buffer sizes");
    rdx_emu *emu = NULL;
    int64_t *kv = calloc(k->nargs + 1, sizeof *kv);
    rdx_emu_buffer *eb = calloc(k->nargs + 1, sizeof *eb);
    uint8_t *kernarg = calloc(1, k->kernarg_size + 1);
    size_t nkv = 0, neb = 0;
    rdx_status st =
        kv && eb && kernarg ? RDX_OK : rdx_fail(RDX_ERR_NOMEM, "emulator run: out of memory");
    if (!st)
        st = rdx_codegen_bind_args(k, b, kernarg, kv, &nkv);
    /* each buffer argument's host memory (bound, so its slot is < b->nptrs) */
    for (size_t a = 0; a < k->nargs && !st; a++) {
        int64_t s = k->args[a].slot;
        if (k->args[a].kind == RDX_CG_ARG_BUFFER)
            eb[neb++] = (rdx_emu_buffer){ (void *)(uintptr_t)b->ptrs[s], sizes[s], RDX_EMU_RW };
    }
    rdx_emu_launch l = { .kernarg = kernarg,
                         .kernarg_size = k->kernarg_size,
                         .bufs = eb,
                         .nbufs = neb,
                         .budget = budget,
                         .cycle_limit = cycle_limit };
    if (!st)
        st = rdx_codegen_launch(k, kv, nkv, l.grid, l.wg);
    if (!st)
        st = rdx_emu_create(k->target[0] ? k->target : "gfx1100", &emu); /* the kernel's target */
    if (!st && prof)
        rdx_emu_set_profiling(emu, 1);
    if (!st)
        st = rdx_emu_run_codeobj(emu, k->code_object, k->code_object_size, NULL, &l);
    if (!st && prof)
        prof->o->profile_hook(prof->o->profile_user, prof->kernel, prof->name, emu, k->code_object,
                              k->code_object_size, l.grid, l.wg);
    if (!st && stats) {
        const rdx_emu_counters *c = rdx_emu_get_counters(emu);
        *stats = (rdx_realize_emu_stats){ c->cycles, c->wave_insts, c->est_kernel_cycles,
                                          c->lds_misaligned };
    }
    rdx_emu_destroy(emu);
    free(kernarg);
    free(eb);
    free(kv);
    return st;
}

rdx_status rdx_realize_emu_run(const rdx_codegen_kernel *k, const rdx_codegen_bindings *b,
                               const size_t *sizes, uint64_t budget, rdx_realize_emu_stats *stats)
{
    return emu_run(k, b, sizes, budget, 0, stats, NULL);
}

rdx_status rz_emu_launch(const rdx_codegen_kernel *k, void *const *bufs, const size_t *sizes,
                         size_t nbufs, const int64_t *kv, size_t nkv, uint64_t cycle_limit,
                         rdx_realize_emu_stats *stats, const rz_prof *prof)
{
    uint64_t *ptrs = calloc(nbufs + 1, sizeof *ptrs);
    size_t *spare = calloc(nbufs + 1, sizeof *spare);
    rdx_status st = ptrs && spare ? RDX_OK : rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    /* each buffer with the 64 spare bytes vector reads may touch */
    for (size_t p = 0; p < nbufs && !st; p++) {
        ptrs[p] = (uint64_t)(uintptr_t)bufs[p];
        spare[p] = sizes[p] + 64;
    }
    rdx_codegen_bindings b = { .ptrs = ptrs, .nptrs = nbufs, .vals = kv, .nvals = nkv };
    if (!st)
        st = emu_run(k, &b, spare, RZ_EMU_BUDGET, cycle_limit, stats, prof);
    free(ptrs);
    free(spare);
    return st;
}
