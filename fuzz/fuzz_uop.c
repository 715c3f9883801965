/*
 * fuzz/fuzz_uop.c — libFuzzer target for the UOp text reader and the code
 * generator behind it.
 *
 * Every input is parsed with rdx_ir_parse (which verifies the graph).  A graph
 * that parses is then taken as far as rdx compile takes it: a single SINK is
 * compiled as a kernel-level graph (rdx kernel), anything else is scheduled
 * (rdx_cg_schedule) and every kernel goes through axis types, the heuristics,
 * the opts, expand and the back end, once with the heuristics and once with no
 * opts.  Each step may refuse the input with an rdx_status; none may crash,
 * trip an assertion, leak or read out of bounds.  Nothing is run on a device.
 * Build and run (from the repository root):
 *
 *   make fuzz
 *   mkdir -p build/fuzz_uop_corpus && cp $(find tests/data -name '*.uop') build/fuzz_uop_corpus/
 *   sed -n '/define RDX_OP_LIST/,/^$/p' include/rdx/ir.h | grep -o 'X([A-Z_0-9]*' |
 *       sed 's/X(\(.*\)/"\1 "/' > build/fuzz_uop.dict   # op names; add keys ("dtype=") by hand
 *   build/fuzz/fuzz_uop build/fuzz_uop_corpus -dict=build/fuzz_uop.dict -max_len=4096 \
 *       -max_total_time=60
 *
 * The inputs are limited to 4096 bytes so that one input cannot ask for a
 * compile of arbitrary size (the libFuzzer default -max_len may be larger).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codegen.h>
#include <rdx/codegen_front.h>
#include <rdx/ir.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One scheduled kernel through the front and back end; raw: no opts. */
static void compile_kernel(rdx_ir_ctx *ctx, const rdx_sched_kernel *kn, int raw)
{
    const rdx_uop *typed, *opt, *exp;
    rdx_opt o[16];
    size_t no = 0;
    rdx_codegen_kernel *ck = NULL;
    rdx_codegen_options co;
    memset(&co, 0, sizeof co);
    co.name = kn->name;
    if (rdx_cg_axis_types(ctx, kn->sink, &typed))
        return;
    if (!raw && rdx_cg_heuristic(typed, o, 16, &no))
        return;
    if (rdx_cg_apply_opts(ctx, typed, o, no, &opt) || rdx_cg_expand(ctx, opt, &exp))
        return;
    if (!rdx_codegen_compile(ctx, exp, &co, &ck))
        rdx_codegen_kernel_free(ck);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    rdx_ir_ctx *ctx = NULL;
    const rdx_uop **roots = NULL;
    size_t n = 0;
    if (rdx_ir_ctx_create(&ctx))
        return 0;
    if (rdx_ir_parse(ctx, "fuzz", (const char *)data, size, &roots, &n))
        goto out;
    if (n == 1 && roots[0]->op == RDX_OP_SINK) {
        rdx_codegen_options co;
        rdx_codegen_kernel *ck = NULL;
        memset(&co, 0, sizeof co);
        co.name = "fuzz";
        if (!rdx_codegen_compile(ctx, roots[0], &co, &ck))
            rdx_codegen_kernel_free(ck);
        goto out;
    }
    rdx_schedule *s = NULL;
    if (rdx_cg_schedule(ctx, roots, n, &s))
        goto out;
    for (size_t k = 0; k < s->nkernels; k++) {
        compile_kernel(ctx, &s->kernels[k], 0);
        compile_kernel(ctx, &s->kernels[k], 1);
    }
    rdx_schedule_free(s);
out:
    free(roots);
    rdx_ir_ctx_destroy(ctx);
    return 0;
}
