/* realize/emu_time.c — a compiled kernel run once on a private wave emulator
 * (rdx/emu.h) for its estimated cycles and wave-instructions (the profile of
 * rdx_realize on the emulated GPU), and the BEAM timer: the emulator's
 * estimate, or the dispatch's GPU timestamps on the device. */
#include <stdlib.h>
#include <string.h>

#include <rdx/emu.h>

#include "realize/realize_internal.h"
#include "util/error.h"

/* Instructions one wave may run before the emulator declares it hung. */
#define RZ_EMU_BUDGET 2000000000ull

rdx_status rz_emu_launch(const rdx_codegen_kernel *k, void *const *bufs, const size_t *sizes,
                         size_t nbufs, const int64_t *kv, size_t nkv, uint64_t *cycles,
                         uint64_t *insts, uint64_t *kcycles)
{
    rdx_emu *emu = NULL;
    rdx_status st = RDX_OK;
    uint64_t *ptrs = calloc(nbufs + 1, sizeof *ptrs), *values = calloc(nbufs + 1, sizeof *values);
    rdx_emu_buffer *eb = calloc(nbufs + 1, sizeof *eb);
    uint8_t *kernarg = calloc(1, k->kernarg_size + 1);
    size_t neb = 0;
    if (!ptrs || !values || !eb || !kernarg)
        st = rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    for (size_t a = 0; a < k->nargs && !st; a++) {
        const rdx_codegen_arg *ar = &k->args[a];
        if (ar->kind == RDX_CG_ARG_BUFFER && (ar->slot < 0 || (size_t)ar->slot >= nbufs))
            st = rdx_fail(RDX_ERR_INVALID, "realize: no buffer for PARAM slot %lld",
                          (long long)ar->slot);
        else if (ar->kind == RDX_CG_ARG_BUFFER)
            ptrs[ar->slot] = (uint64_t)(uintptr_t)bufs[ar->slot];
        else if (ar->kind == RDX_CG_ARG_VALUE)
            st = rdx_fail(RDX_ERR_UNSUPPORTED, "realize: value argument (slot %lld) not supported",
                          (long long)ar->slot);
    }
    /* each buffer the kernel takes, with the 64 spare bytes vector reads may touch */
    for (size_t p = 0; p < nbufs && !st; p++)
        if (ptrs[p])
            eb[neb++] = (rdx_emu_buffer){ bufs[p], sizes[p] + 64, RDX_EMU_RW };
    rdx_emu_launch l = { .kernarg = kernarg,
                         .kernarg_size = k->kernarg_size,
                         .bufs = eb,
                         .nbufs = neb,
                         .budget = RZ_EMU_BUDGET };
    if (!st) {
        rdx_codegen_pack_args(k, ptrs, values, kv, kernarg);
        st = rdx_codegen_launch(k, kv, nkv, l.grid, l.wg);
    }
    if (!st)
        st = rdx_emu_create("gfx1100", &emu);
    if (!st)
        st = rdx_emu_run_codeobj(emu, k->code_object, k->code_object_size, NULL, &l);
    if (!st) {
        const rdx_emu_counters *c = rdx_emu_get_counters(emu);
        *cycles = c->cycles;
        *insts = c->wave_insts;
        if (kcycles)
            *kcycles = c->est_kernel_cycles;
    }
    rdx_emu_destroy(emu);
    free(kernarg);
    free(eb);
    free(ptrs);
    free(values);
    return st;
}

/* Bytes of PARAM p (its shape, with the timer's variable values). */
static rdx_status param_bytes(const rdx_uop *p, const rz_timer *t, size_t *out)
{
    int64_t n = 1;
    for (uint32_t d = 0; d < p->ndim; d++) {
        int64_t v;
        if (!rdx_uop_const_int(p->shape[d], &v)) {
            rdx_value *vals = calloc(t->nvars + 1, sizeof *vals), r;
            if (!vals)
                return rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
            for (size_t k = 0; k < t->nvars; k++)
                vals[k].i = t->vals[k];
            rdx_status st = rdx_ir_eval(p->shape[d], t->vars, vals, t->nvars, &r);
            free(vals);
            if (st)
                return st;
            v = r.i;
        }
        n *= v;
    }
    *out = (size_t)n * rdx_dtype_itemsize(p->arg.dtype);
    return RDX_OK;
}

#define RZ_TIMER_MAX_PARAMS 64

rdx_status rz_beam_timer(const rdx_uop *kernel, void *user, double *cost)
{
    const rz_timer *t = user;
    const rdx_uop **order = NULL;
    size_t n = 0, np = 0;
    void *host[RZ_TIMER_MAX_PARAMS] = { 0 };
    rdx_buffer *dbuf[RZ_TIMER_MAX_PARAMS] = { 0 };
    size_t sizes[RZ_TIMER_MAX_PARAMS] = { 0 };
    rdx_codegen_kernel *k = NULL;
    rdx_status st = rdx_ir_toposort(kernel, &order, &n);
    for (size_t i = 0; i < n && !st; i++) {
        const rdx_uop *u = order[i];
        if (u->op != RDX_OP_PARAM)
            continue;
        if (u->arg.i < 0 || u->arg.i >= RZ_TIMER_MAX_PARAMS) {
            st = rdx_fail(RDX_ERR_UNSUPPORTED, "realize: BEAM timer: PARAM slot %lld",
                          (long long)u->arg.i);
            break;
        }
        st = param_bytes(u, t, &sizes[u->arg.i]);
        if (st)
            break;
        if (t->on_device)
            st = rdx_buffer_alloc(t->dev, sizes[u->arg.i] + 64, RDX_MEM_DEVICE, &dbuf[u->arg.i]);
        else if (!(host[u->arg.i] = calloc(1, sizes[u->arg.i] + 64)))
            st = rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
        if ((size_t)u->arg.i + 1 > np)
            np = (size_t)u->arg.i + 1;
    }
    rdx_codegen_options co;
    memset(&co, 0, sizeof co);
    co.name = "beam_candidate";
    if (!st)
        st = rdx_codegen_compile(t->ctx, kernel, &co, &k);
    int64_t *kv = k ? calloc(k->nargs + 1, sizeof *kv) : NULL;
    size_t nkv = 0;
    if (!st && !kv)
        st = rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    if (!st)
        st = rz_kernel_vars(k, t->vars, t->vals, t->nvars, kv, &nkv);
    uint64_t a = 0, b = 0;
    if (!st && t->on_device)
        st = rz_dispatch(t->dev, t->q, k, co.name, dbuf, NULL, np, kv, nkv, t->timeout_ms, &a, NULL,
                         NULL);
    else if (!st)
        st = rz_emu_launch(k, host, sizes, np, kv, nkv, &a, &b, NULL);
    if (!st)
        *cost = (double)a;
    for (size_t i = 0; i < RZ_TIMER_MAX_PARAMS; i++) {
        free(host[i]);
        rdx_buffer_free(dbuf[i]);
    }
    free(kv);
    rdx_codegen_kernel_free(k);
    free(order);
    return st;
}
