/* tools/emu_launch.c — run one compiled kernel on the wave emulator (the BEAM
 * timer of `rdx compile --beam`). */
#include <stdlib.h>
#include <string.h>

#include <rdx/codegen_front.h>
#include <rdx/emu.h>

#include "tools/emu_launch.h"
#include "util/error.h"

typedef struct rdx_tool_launch {
    uint64_t cycles, wave_insts; /* the emulator's counters of the dispatch */
} rdx_tool_launch;

/*
 * Compile `sink` (options o, may be NULL) and run it once: PARAM slot k uses
 * bufs[k] of sizes[k] bytes (k < nbufs); DEFINE_VARs take varvals[j] of
 * vars[j].  Errors of the back end and the emulator (message recorded).
 */
static rdx_status launch_kernel(rdx_ir_ctx *ctx, const rdx_uop *sink, const rdx_codegen_options *o,
                                void **bufs, const size_t *sizes, size_t nbufs,
                                const rdx_uop *const *vars, const int64_t *varvals, size_t nvars,
                                rdx_tool_launch *out)
{
    rdx_codegen_kernel *k = NULL;
    rdx_emu *emu = NULL;
    rdx_status st = rdx_codegen_compile(ctx, sink, o, &k);
    if (st)
        return st;
    uint64_t *ptrs = calloc(nbufs + 1, sizeof *ptrs), *values = calloc(nbufs + 1, sizeof *values);
    int64_t *kv = calloc(k->nargs + 1, sizeof *kv);
    rdx_emu_buffer *eb = calloc(k->nargs + 1, sizeof *eb);
    uint8_t *kernarg = calloc(1, k->kernarg_size + 1);
    size_t nkv = 0, neb = 0;
    if (!ptrs || !values || !kv || !eb || !kernarg)
        st = rdx_fail(RDX_ERR_NOMEM, "launch: out of memory");
    for (size_t a = 0; a < k->nargs && !st; a++) {
        const rdx_codegen_arg *ar = &k->args[a];
        if (ar->kind == RDX_CG_ARG_BUFFER) {
            if (ar->slot < 0 || (size_t)ar->slot >= nbufs)
                st = rdx_fail(RDX_ERR_INVALID, "launch: no buffer for PARAM slot %lld",
                              (long long)ar->slot);
            else {
                ptrs[ar->slot] = (uint64_t)(uintptr_t)bufs[ar->slot];
                eb[neb++] = (rdx_emu_buffer){ bufs[ar->slot], sizes[ar->slot], RDX_EMU_RW };
            }
        } else if (ar->kind == RDX_CG_ARG_VAR) {
            size_t j;
            for (j = 0; j < nvars && vars[j] != ar->node; j++)
                ;
            if (j == nvars)
                st = rdx_fail(RDX_ERR_INVALID, "launch: variable '%s' has no value", ar->name);
            else
                kv[nkv++] = varvals[j];
        } else {
            st = rdx_fail(RDX_ERR_INVALID, "launch: value argument (slot %lld) not supported",
                          (long long)ar->slot);
        }
    }
    rdx_emu_launch l = { .kernarg = kernarg,
                         .kernarg_size = k->kernarg_size,
                         .bufs = eb,
                         .nbufs = neb,
                         .budget = 2000000000ull };
    if (!st) {
        rdx_codegen_pack_args(k, ptrs, values, kv, kernarg);
        st = rdx_codegen_launch(k, kv, nkv, l.grid, l.wg);
    }
    if (!st)
        st = rdx_emu_create("gfx1100", &emu);
    if (!st)
        st = rdx_emu_run_codeobj(emu, k->code_object, k->code_object_size, NULL, &l);
    if (!st && out) {
        const rdx_emu_counters *c = rdx_emu_get_counters(emu);
        out->cycles = c->cycles;
        out->wave_insts = c->wave_insts;
    }
    rdx_emu_destroy(emu);
    free(kernarg);
    free(eb);
    free(ptrs);
    free(values);
    free(kv);
    rdx_codegen_kernel_free(k);
    return st;
}

static rdx_status param_bytes(const rdx_uop *p, const rdx_tool_timer_ctx *t, size_t *out)
{
    int64_t n = 1;
    for (uint32_t d = 0; d < p->ndim; d++) {
        int64_t v;
        if (!rdx_uop_const_int(p->shape[d], &v)) {
            rdx_value vals[16], r;
            for (size_t k = 0; k < t->nvars && k < 16; k++)
                vals[k].i = t->varvals[k];
            rdx_status st = rdx_ir_eval(p->shape[d], t->vars, vals, t->nvars, &r);
            if (st)
                return st;
            v = r.i;
        }
        n *= v;
    }
    *out = (size_t)n * rdx_dtype_itemsize(p->arg.dtype);
    return RDX_OK;
}

rdx_status rdx_tool_emu_timer(const rdx_uop *kernel, void *user, double *cost)
{
    const rdx_tool_timer_ctx *t = user;
    const rdx_uop **order = NULL;
    size_t n = 0, np = 0;
    rdx_status st = rdx_ir_toposort(kernel, &order, &n);
    void *bufs[64] = { 0 };
    size_t sizes[64] = { 0 };
    for (size_t i = 0; i < n && !st; i++) {
        const rdx_uop *u = order[i];
        if (u->op != RDX_OP_PARAM || u->arg.i < 0 || u->arg.i >= 64)
            continue;
        size_t b;
        st = param_bytes(u, t, &b);
        if (st)
            break;
        sizes[u->arg.i] = b;
        bufs[u->arg.i] = calloc(1, b + 64);
        if (!bufs[u->arg.i])
            st = rdx_fail(RDX_ERR_NOMEM, "timer: out of memory");
        if ((size_t)u->arg.i + 1 > np)
            np = (size_t)u->arg.i + 1;
    }
    rdx_tool_launch l = { 0, 0 };
    if (!st)
        st =
            launch_kernel(t->ctx, kernel, NULL, bufs, sizes, np, t->vars, t->varvals, t->nvars, &l);
    if (!st)
        *cost = (double)l.cycles;
    for (size_t i = 0; i < 64; i++)
        free(bufs[i]);
    free(order);
    return st;
}
