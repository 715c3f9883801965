/* tests/codegen_front/emu_run.c — compile a kernel with the back end
 * (rdx/codegen.h) and run it once on the wave emulator (rdx_emu_run_codeobj). */
#include <stdlib.h>
#include <string.h>

#include <rdx/codegen.h>
#include <rdx/emu.h>

#include "tests/codegen_front/cgf_test.h"
#include "util/error.h"

rdx_status cgf_emu_run(rdx_ir_ctx *ctx, const rdx_uop *sink, void **bufs, const size_t *sizes,
                       size_t nbufs, const rdx_uop *const *vars, const int64_t *varvals,
                       size_t nvars, uint64_t *cycles)
{
    rdx_codegen_kernel *k = NULL;
    rdx_emu *emu = NULL;
    rdx_status st = rdx_codegen_compile(ctx, sink, NULL, &k);
    if (st)
        return st;
    uint64_t ptrs[64] = { 0 }, values[64] = { 0 };
    int64_t kv[16];
    rdx_emu_buffer eb[64];
    size_t nkv = 0, neb = 0;
    for (size_t a = 0; a < k->nargs && !st; a++) {
        const rdx_codegen_arg *ar = &k->args[a];
        if (ar->kind == RDX_CG_ARG_BUFFER) {
            if (ar->slot < 0 || (size_t)ar->slot >= nbufs || nbufs > 64 || neb == 64)
                st = rdx_fail(RDX_ERR_INVALID, "emu run: buffer slot %lld", (long long)ar->slot);
            else {
                ptrs[ar->slot] = (uint64_t)(uintptr_t)bufs[ar->slot];
                eb[neb++] = (rdx_emu_buffer){ bufs[ar->slot], sizes[ar->slot], RDX_EMU_RW };
            }
        } else if (ar->kind == RDX_CG_ARG_VAR) {
            size_t j;
            for (j = 0; j < nvars && vars[j] != ar->node; j++)
                ;
            if (j == nvars || nkv == 16)
                st = rdx_fail(RDX_ERR_INVALID, "emu run: variable %s unbound", ar->name);
            else
                kv[nkv++] = varvals[j];
        } else {
            st = rdx_fail(RDX_ERR_INVALID,
                          "emu run: value arguments are not produced by the front end");
        }
    }
    uint8_t *kernarg = st ? NULL : calloc(1, k->kernarg_size + 1);
    if (!st && !kernarg)
        st = rdx_fail(RDX_ERR_NOMEM, "emu run: out of memory");
    rdx_emu_launch l = { .kernarg = kernarg,
                         .kernarg_size = k->kernarg_size,
                         .bufs = eb,
                         .nbufs = neb,
                         .budget = 200000000 };
    if (!st) {
        rdx_codegen_pack_args(k, ptrs, values, kv, kernarg);
        st = rdx_codegen_launch(k, kv, nkv, l.grid, l.wg);
    }
    if (!st)
        st = rdx_emu_create("gfx1100", &emu);
    if (!st)
        st = rdx_emu_run_codeobj(emu, k->code_object, k->code_object_size, NULL, &l);
    if (!st && cycles)
        *cycles = rdx_emu_get_counters(emu)->cycles;
    rdx_emu_destroy(emu);
    free(kernarg);
    rdx_codegen_kernel_free(k);
    return st;
}

rdx_status cgf_emu_timer(const rdx_uop *k, void *user, double *cost)
{
    /* the kernel's PARAMs are flat buffers: allocate them zeroed and time a run */
    rdx_ir_ctx *ctx = user;
    const rdx_uop **order = NULL;
    size_t n = 0, np = 0;
    rdx_status st = rdx_ir_toposort(k, &order, &n);
    void *bufs[16] = { 0 };
    size_t sizes[16] = { 0 };
    for (size_t i = 0; i < n && !st; i++) {
        int64_t ne;
        const rdx_uop *u = order[i];
        if (u->op != RDX_OP_PARAM || u->arg.i < 0 || u->arg.i >= 16 || !rdx_uop_numel(u, &ne))
            continue;
        sizes[u->arg.i] = (size_t)ne * rdx_dtype_itemsize(u->arg.dtype);
        bufs[u->arg.i] = calloc(1, sizes[u->arg.i] + 64);
        np = (size_t)u->arg.i + 1 > np ? (size_t)u->arg.i + 1 : np;
    }
    uint64_t cyc = 0;
    if (!st)
        st = cgf_emu_run(ctx, k, bufs, sizes, np, NULL, NULL, 0, &cyc);
    *cost = (double)cyc;
    for (size_t i = 0; i < 16; i++)
        free(bufs[i]);
    free(order);
    return st;
}
