/* realize/dispatch.c — one compiled kernel through the runtime: load its code
 * object, lay out its arguments (buffers at offsets in the schedule's arena,
 * DEFINE_VAR values), dispatch on a compute queue and read its GPU time. */
#include <stdlib.h>
#include <string.h>

#include "realize/realize_internal.h"
#include "util/error.h"

rdx_status rz_kernel_vars(const rdx_codegen_kernel *k, const rdx_uop *const *vars,
                          const int64_t *vals, size_t nvars, int64_t *kv, size_t *nkv)
{
    *nkv = 0;
    for (size_t a = 0; a < k->nargs; a++) {
        const rdx_codegen_arg *ar = &k->args[a];
        if (ar->kind != RDX_CG_ARG_VAR)
            continue;
        size_t j;
        for (j = 0; j < nvars && vars[j] != ar->node; j++)
            ;
        if (j == nvars)
            return rdx_fail(RDX_ERR_INVALID, "realize: variable '%s' has no value", ar->name);
        kv[(*nkv)++] = vals[j];
    }
    return RDX_OK;
}

rdx_status rz_dispatch(rdx_device *dev, rdx_queue *q, const rdx_codegen_kernel *k, const char *name,
                       rdx_buffer *const *bufs, const uint64_t *offs, size_t nbufs,
                       const int64_t *kv, size_t nkv, uint32_t timeout_ms, uint64_t *ns,
                       uint32_t global[3], uint32_t block[3])
{
    rdx_program *prog = NULL;
    const rdx_kernel *kern = NULL;
    rdx_status st = RDX_OK;
    size_t ikv = 0;
    rdx_arg *args = calloc(k->nargs + 1, sizeof *args);
    if (!args)
        return rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    for (size_t a = 0; a < k->nargs && !st; a++) {
        const rdx_codegen_arg *ar = &k->args[a];
        if (ar->kind == RDX_CG_ARG_BUFFER) {
            if (ar->slot < 0 || (size_t)ar->slot >= nbufs) {
                st = rdx_fail(RDX_ERR_INVALID, "realize: kernel %s: no buffer for PARAM slot %lld",
                              name, (long long)ar->slot);
            } else {
                args[a] = rdx_arg_buffer(bufs[ar->slot]);
                args[a].offset = offs ? offs[ar->slot] : 0;
            }
        } else if (ar->kind == RDX_CG_ARG_VAR) {
            if (ikv >= nkv)
                st = rdx_fail(RDX_ERR_INVALID, "realize: kernel %s: variable '%s' has no value",
                              name, ar->name);
            else
                args[a] = ar->size == 8 ? rdx_arg_u64((uint64_t)kv[ikv++])
                                        : rdx_arg_i32((int32_t)kv[ikv++]);
        } else {
            st = rdx_fail(RDX_ERR_UNSUPPORTED,
                          "realize: kernel %s: value argument (PARAM slot %lld) not supported",
                          name, (long long)ar->slot);
        }
    }
    rdx_launch l;
    memset(&l, 0, sizeof l);
    if (!st)
        st = rdx_codegen_launch(k, kv, nkv, l.global, l.block);
    if (!st)
        st = rdx_program_load(dev, k->code_object, k->code_object_size, name, &prog);
    if (!st)
        st = rdx_program_find(prog, name, &kern);
    uint64_t ticket = 0;
    if (!st) {
        l.kernel = kern;
        l.args = args;
        l.nargs = (uint32_t)k->nargs;
        st = rdx_queue_dispatch(q, &l, &ticket);
    }
    if (!st) {
        st = rdx_queue_wait(q, ticket, timeout_ms ? timeout_ms : RZ_WAIT_MS);
        if (st == RDX_ERR_TIMEOUT)
            (void)rdx_queue_reset(q); /* stop the hung dispatch before its program is freed */
    }
    if (!st)
        st = rdx_queue_dispatch_time(q, ticket, ns);
    if (!st && global && block)
        for (int d = 0; d < 3; d++) {
            global[d] = l.global[d];
            block[d] = l.block[d];
        }
    rdx_program_free(prog);
    free(args);
    return st;
}
