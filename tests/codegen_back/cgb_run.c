/* tests/codegen_back/cgb_run.c — compile and run kernels on the emulator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codeobj.h>
#include <rdx/emu.h>

#include "tests/codegen_back/cgb_test.h"
#include "util/error.h"

const rdx_uop *cgb_parse_text(rdx_ir_ctx *ctx, const char *text)
{
    const rdx_uop **roots = NULL;
    size_t n = 0;
    rdx_status st = rdx_ir_parse(ctx, "<test>", text, strlen(text), &roots, &n);
    ck_assert_msg(!st, "parse: %s", rdx_error_message());
    ck_assert_uint_eq(n, 1);
    const rdx_uop *r = roots[0];
    free(roots);
    return r;
}

const rdx_uop *cgb_parse_file(rdx_ir_ctx *ctx, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "tests/data/codegen/%s", name);
    char *text = rdx_test_read_file(path, NULL);
    const rdx_uop *r = cgb_parse_text(ctx, text);
    free(text);
    return r;
}

rdx_status cgb_run(rdx_ir_ctx *ctx, const rdx_uop *sink, const rdx_codegen_options *o, void **bufs,
                   const size_t *sizes, const uint64_t *values, const int64_t *vars, size_t nvars,
                   rdx_codegen_kernel **kout)
{
    rdx_codegen_kernel *k = NULL;
    rdx_codeobj *co = NULL;
    rdx_emu *emu = NULL;
    uint8_t *code = NULL, *kernarg = NULL;
    size_t mapped = 0, nb = 0;
    int code_mapped = 0, ka_mapped = 0;
    rdx_status st = rdx_codegen_compile(ctx, sink, o, &k);
    if (st)
        return st;
    uint64_t ptrs[64] = { 0 };
    for (size_t a = 0; a < k->nargs; a++)
        if (k->args[a].kind == RDX_CG_ARG_BUFFER) {
            ptrs[k->args[a].slot] = (uint64_t)(uintptr_t)bufs[k->args[a].slot];
            nb++;
        }
    if ((st = rdx_codeobj_read(k->code_object, k->code_object_size, "compiled", &co)))
        goto out;
    if (co->num_kernels != 1) {
        st = rdx_fail(RDX_ERR_INVALID, "code object has %zu kernels", co->num_kernels);
        goto out;
    }
    size_t cap = (co->text_size + 4095) & ~(size_t)4095;
    code = aligned_alloc(4096, cap);
    kernarg = aligned_alloc(64, (256 + k->kernarg_size + 63) & ~(size_t)63);
    if (!code || !kernarg) {
        st = rdx_fail(RDX_ERR_NOMEM, "oom");
        goto out;
    }
    memset(code, 0, cap);
    memcpy(code, co->text, co->text_size);
    rdx_codegen_pack_args(k, ptrs, values, vars, kernarg);
    uint8_t kd[64];
    if ((st = rdx_codeobj_kd_pack(&co->kernels[0].kd, 11, kd)))
        goto out;
    rdx_emu_dispatch d;
    memset(&d, 0, sizeof d);
    if ((st = rdx_emu_dispatch_from_descriptor(&d, kd)))
        goto out;
    d.code = (uint64_t)(uintptr_t)code + co->kernels[0].code_offset;
    if ((st = rdx_codegen_launch(k, vars, nvars, d.grid, d.wg)))
        goto out;
    d.kernarg = (uint64_t)(uintptr_t)kernarg;
    d.budget = 50000000;
    if ((st = rdx_emu_create("gfx1100", &emu)))
        goto out;
    if ((st = rdx_emu_map(emu, (uint64_t)(uintptr_t)code, cap, RDX_EMU_READ)))
        goto out;
    code_mapped = 1;
    if (k->kernarg_size) {
        if ((st = rdx_emu_map(emu, d.kernarg, k->kernarg_size, RDX_EMU_READ)))
            goto out;
        ka_mapped = 1;
    }
    for (size_t a = 0; a < k->nargs; a++) {
        if (k->args[a].kind != RDX_CG_ARG_BUFFER)
            continue;
        int64_t s = k->args[a].slot;
        if ((st = rdx_emu_map(emu, (uint64_t)(uintptr_t)bufs[s], sizes[s], RDX_EMU_RW)))
            goto out;
        mapped++;
    }
    st = rdx_emu_run(emu, &d);
out:
    (void)nb;
    (void)mapped, (void)code_mapped, (void)ka_mapped;
    rdx_emu_destroy(emu);
    free(code);
    free(kernarg);
    rdx_codeobj_free(co);
    if (kout && !st)
        *kout = k;
    else
        rdx_codegen_kernel_free(k);
    return st;
}
