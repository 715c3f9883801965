/* tests/codegen_back/cgb_run.c — compile and run kernels on the emulator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/realize.h>

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

const char *cgb_target = NULL;
static const char *env_target(void)
{
    return getenv("CGB_TARGET");
}

rdx_status cgb_run(rdx_ir_ctx *ctx, const rdx_uop *sink, const rdx_codegen_options *o, void **bufs,
                   const size_t *sizes, const uint64_t *values, const int64_t *vars, size_t nvars,
                   rdx_codegen_kernel **kout)
{
    rdx_codegen_kernel *k = NULL;
    rdx_codegen_options oo;
    memset(&oo, 0, sizeof oo);
    if (o)
        oo = *o;
    if (!oo.target)
        oo.target = cgb_target ? cgb_target : env_target();
    rdx_status st = rdx_codegen_compile(ctx, sink, &oo, &k);
    if (st)
        return st;
    /* PARAM slots are 0..255 (the back end's limit); buffers exactly their sizes */
    uint64_t ptrs[256] = { 0 };
    size_t bytes[256] = { 0 };
    for (size_t a = 0; a < k->nargs; a++)
        if (k->args[a].kind == RDX_CG_ARG_BUFFER) {
            int64_t s = k->args[a].slot;
            ptrs[s] = (uint64_t)(uintptr_t)bufs[s];
            bytes[s] = sizes[s];
        }
    rdx_codegen_bindings b = { .ptrs = ptrs,
                               .nptrs = 256,
                               .values = values,
                               .nvalues = values ? 256 : 0,
                               .vals = vars,
                               .nvals = nvars };
    st = rdx_realize_emu_run(k, &b, bytes, 50000000, NULL);
    if (kout && !st)
        *kout = k;
    else
        rdx_codegen_kernel_free(k);
    return st;
}

char *cgb_run_asm(rdx_ir_ctx *ctx, const rdx_uop *sink, void **bufs, const size_t *sizes)
{
    rdx_codegen_options o = { .keep_stages = 1u << RDX_CG_STAGE_ASM };
    rdx_codegen_kernel *k = NULL;
    ck_assert_msg(!cgb_run(ctx, sink, &o, bufs, sizes, NULL, NULL, 0, &k), "%s",
                  rdx_error_message());
    char *t = strdup(k->stage_text[RDX_CG_STAGE_ASM]);
    ck_assert_ptr_nonnull(t);
    rdx_codegen_kernel_free(k);
    return t;
}
