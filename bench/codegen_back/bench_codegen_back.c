/*
 * bench/codegen_back/bench_codegen_back.c — the codegen back end on the
 * example kernels of tests/data/codegen: compile time (against parsing the
 * same file, measured in this run), and the emulator's wave-instruction count
 * and estimated cycles with VOPD dual issue against the same kernel compiled
 * without it.  Symbolic sizes are bound to 1000.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdx/codegen.h>
#include <rdx/ir.h>
#include <rdx/realize.h>

#include "util/file.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void fail(const char *what)
{
    fprintf(stderr, "bench_codegen_back: %s: %s\n", what, rdx_error_message());
    exit(1);
}

/* Run k once; fills cycles and wave instructions. */
static void run(const rdx_codegen_kernel *k, uint64_t *cycles, uint64_t *insts)
{
    int64_t vals[64];
    const rdx_uop *leaves[64];
    rdx_value lv[64];
    size_t nv = 0;
    for (size_t a = 0; a < k->nargs; a++)
        if (k->args[a].kind == RDX_CG_ARG_VAR) {
            leaves[nv] = k->args[a].node;
            lv[nv].i = vals[nv] = 1000;
            lv[nv].f = 0;
            nv++;
        }
    uint64_t ptrs[256] = { 0 }, values[256] = { 0 }; /* by-value scalars are 0 */
    size_t sizes[256] = { 0 };
    for (size_t a = 0; a < k->nargs; a++) {
        const rdx_codegen_arg *ar = &k->args[a];
        if (ar->kind != RDX_CG_ARG_BUFFER)
            continue;
        int64_t n = 1;
        for (uint32_t d = 0; d < ar->node->ndim; d++) {
            rdx_value r;
            if (rdx_ir_eval(ar->node->shape[d], leaves, lv, nv, &r))
                fail("buffer size");
            n *= r.i;
        }
        sizes[ar->slot] = (size_t)n * rdx_dtype_itemsize(ar->dtype);
        ptrs[ar->slot] = (uint64_t)(uintptr_t)calloc(1, sizes[ar->slot]);
    }
    rdx_codegen_bindings b = {
        .ptrs = ptrs, .nptrs = 256, .values = values, .nvalues = 256, .vals = vals, .nvals = nv
    };
    rdx_realize_emu_stats es;
    if (rdx_realize_emu_run(k, &b, sizes, 0, &es))
        fail("run");
    *cycles = es.cycles;
    *insts = es.wave_insts;
    for (size_t s = 0; s < 256; s++)
        free((void *)(uintptr_t)ptrs[s]);
}

int main(void)
{
    static const char *const files[] = { "add", "saxpy", "sum", "matmul", "gated", "lds_reduce" };
    printf("%-12s %10s %10s %8s %12s %12s %8s\n", "kernel", "parse us", "compile us", "ratio",
           "insts", "cycles", "vs noVOPD");
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[128];
        snprintf(path, sizeof path, "tests/data/codegen/%s.uop", files[f]);
        uint8_t *text;
        size_t len;
        if (rdx_file_read(path, &text, &len))
            fail(path);
        rdx_ir_ctx *ctx;
        if (rdx_ir_ctx_create(&ctx))
            fail("ctx");
        const rdx_uop **roots;
        size_t n;
        enum { REP = 200 };
        double t0 = now();
        for (int r = 0; r < REP; r++) {
            if (rdx_ir_parse(ctx, path, (const char *)text, len, &roots, &n))
                fail(path);
            if (r + 1 < REP)
                free(roots);
        }
        double tparse = (now() - t0) / REP;
        t0 = now();
        for (int r = 0; r < REP; r++) {
            rdx_codegen_kernel *k;
            if (rdx_codegen_compile(ctx, roots[0], NULL, &k))
                fail("compile");
            rdx_codegen_kernel_free(k);
        }
        double tcomp = (now() - t0) / REP;
        rdx_codegen_options o;
        memset(&o, 0, sizeof o);
        rdx_codegen_kernel *kv, *kn;
        if (rdx_codegen_compile(ctx, roots[0], &o, &kv))
            fail("compile");
        o.no_vopd = 1;
        if (rdx_codegen_compile(ctx, roots[0], &o, &kn))
            fail("compile");
        uint64_t cv, iv, cn, in;
        run(kv, &cv, &iv);
        run(kn, &cn, &in);
        printf("%-12s %10.1f %10.1f %8.2f %12llu %12llu %8.3f\n", files[f], tparse * 1e6,
               tcomp * 1e6, tcomp / tparse, (unsigned long long)iv, (unsigned long long)cv,
               cn ? (double)cv / (double)cn : 0.0);
        rdx_codegen_kernel_free(kv);
        rdx_codegen_kernel_free(kn);
        free(roots);
        free(text);
        rdx_ir_ctx_destroy(ctx);
    }
    return 0;
}
