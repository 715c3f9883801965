/* tests/codegen_front/emu_run.c — compile a kernel with the back end
 * (rdx/codegen.h) and run it once on the wave emulator (rdx/emu.h). */
#include <stdlib.h>
#include <string.h>

#include <rdx/codegen.h>
#include <rdx/codeobj.h>
#include <rdx/emu.h>

#include "tests/codegen_front/cgf_test.h"
#include "util/error.h"

rdx_status cgf_emu_run(rdx_ir_ctx *ctx, const rdx_uop *sink, void **bufs, const size_t *sizes,
                       size_t nbufs, const rdx_uop *const *vars, const int64_t *varvals,
                       size_t nvars, uint64_t *cycles)
{
    rdx_codegen_kernel *k = NULL;
    rdx_codeobj *co = NULL;
    rdx_emu *emu = NULL;
    uint8_t *code = NULL, *kernarg = NULL;
    rdx_status st = rdx_codegen_compile(ctx, sink, NULL, &k);
    if (st)
        return st;
    uint64_t ptrs[64] = { 0 }, values[64] = { 0 };
    int64_t kv[16];
    size_t nkv = 0;
    for (size_t a = 0; a < k->nargs && !st; a++) {
        const rdx_codegen_arg *ar = &k->args[a];
        if (ar->kind == RDX_CG_ARG_BUFFER) {
            if (ar->slot < 0 || (size_t)ar->slot >= nbufs)
                st = rdx_fail(RDX_ERR_INVALID, "emu run: buffer slot %lld", (long long)ar->slot);
            else
                ptrs[ar->slot] = (uint64_t)(uintptr_t)bufs[ar->slot];
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
    if (!st)
        st = rdx_codeobj_read(k->code_object, k->code_object_size, "compiled", &co);
    size_t cap = 0;
    if (!st) {
        cap = (co->text_size + 4095) & ~(size_t)4095;
        code = aligned_alloc(4096, cap);
        kernarg = aligned_alloc(64, 256 + ((k->kernarg_size + 63) & ~63u));
        if (!code || !kernarg)
            st = rdx_fail(RDX_ERR_NOMEM, "emu run: out of memory");
    }
    rdx_emu_dispatch d;
    memset(&d, 0, sizeof d);
    uint8_t kd[64];
    if (!st) {
        memset(code, 0, cap);
        memcpy(code, co->text, co->text_size);
        rdx_codegen_pack_args(k, ptrs, values, kv, kernarg);
        st = rdx_codeobj_kd_pack(&co->kernels[0].kd, 11, kd);
    }
    if (!st)
        st = rdx_emu_dispatch_from_descriptor(&d, kd);
    if (!st) {
        d.code = (uint64_t)(uintptr_t)code + co->kernels[0].code_offset;
        d.kernarg = (uint64_t)(uintptr_t)kernarg;
        d.budget = 200000000;
        st = rdx_codegen_launch(k, kv, nkv, d.grid, d.wg);
    }
    if (!st)
        st = rdx_emu_create("gfx1100", &emu);
    if (!st)
        st = rdx_emu_map(emu, (uint64_t)(uintptr_t)code, cap, RDX_EMU_READ);
    if (!st && k->kernarg_size)
        st = rdx_emu_map(emu, d.kernarg, k->kernarg_size, RDX_EMU_READ);
    for (size_t a = 0; a < k->nargs && !st; a++)
        if (k->args[a].kind == RDX_CG_ARG_BUFFER && sizes[k->args[a].slot])
            st = rdx_emu_map(emu, ptrs[k->args[a].slot], sizes[k->args[a].slot], RDX_EMU_RW);
    if (!st)
        st = rdx_emu_run(emu, &d);
    if (!st && cycles)
        *cycles = rdx_emu_get_counters(emu)->cycles;
    rdx_emu_destroy(emu);
    free(code);
    free(kernarg);
    rdx_codeobj_free(co);
    rdx_codegen_kernel_free(k);
    return st;
}
