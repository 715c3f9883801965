/* codegen/bind_args.c — a compiled kernel's kernarg segment from the
 * buffers, by-value scalars and DEFINE_VAR values bound to its arguments
 * (rdx_codegen_bind_args, include/rdx/codegen.h). */
#include <stdlib.h>

#include <rdx/codegen.h>

#include "util/error.h"

/* Argument `a` (a DEFINE_VAR, the `iv`-th variable of k) takes *v from b. */
static rdx_status var_value(const rdx_codegen_kernel *k, size_t a, size_t iv,
                            const rdx_codegen_bindings *b, int64_t *v)
{
    const rdx_codegen_arg *ar = &k->args[a];
    if (!b->vars) {
        /* kernarg order: the count is checked once all variables are seen */
        if (iv < b->nvals)
            *v = b->vals[iv];
        return RDX_OK;
    }
    for (size_t j = 0; j < b->nvals; j++)
        if (b->vars[j] == ar->node) {
            *v = b->vals[j];
            return RDX_OK;
        }
    return rdx_fail(RDX_ERR_INVALID,
                    "bind args: kernel argument %zu, variable '%s': no value among the %zu "
                    "variables bound",
                    a, ar->name, b->nvals);
}

rdx_status rdx_codegen_bind_args(const rdx_codegen_kernel *k, const rdx_codegen_bindings *b,
                                 void *out, int64_t *kv, size_t *nkv)
{
    if (!k || !b)
        return rdx_fail(RDX_ERR_INVALID, "bind args: NULL %s", k ? "bindings" : "kernel");
    if (b->nvals && !b->vals)
        return rdx_fail(RDX_ERR_INVALID,
                        "bind args: %zu variable values bound, expected their "
                        "array (vals is NULL)",
                        b->nvals);
    int64_t *vals = calloc(k->nargs + 1, sizeof *vals);
    if (!vals)
        return rdx_fail(RDX_ERR_NOMEM, "bind args: out of memory");
    rdx_status st = RDX_OK;
    size_t nv = 0;
    for (size_t a = 0; a < k->nargs && !st; a++) {
        const rdx_codegen_arg *ar = &k->args[a];
        char d[32];
        if (ar->kind == RDX_CG_ARG_BUFFER) {
            if (ar->slot < 0 || (size_t)ar->slot >= b->nptrs || !b->ptrs || !b->ptrs[ar->slot])
                st = rdx_fail(RDX_ERR_INVALID,
                              "bind args: kernel argument %zu, PARAM slot %lld (%s buffer): "
                              "expected a nonzero buffer address (%zu slots bound)",
                              a, (long long)ar->slot, rdx_dtype_str(ar->dtype, d, sizeof d),
                              b->nptrs);
        } else if (ar->kind == RDX_CG_ARG_VALUE) {
            if (ar->slot < 0 || (size_t)ar->slot >= b->nvalues || !b->values)
                st = rdx_fail(RDX_ERR_INVALID,
                              "bind args: kernel argument %zu, PARAM slot %lld (%s by value): "
                              "expected a value (%zu slots bound)",
                              a, (long long)ar->slot, rdx_dtype_str(ar->dtype, d, sizeof d),
                              b->nvalues);
        } else {
            int64_t v = 0;
            st = var_value(k, a, nv, b, &v);
            int64_t lo = ar->node->arg.i, hi = ar->node->arg.j;
            if (!st && (b->vars || nv < b->nvals) && (v < lo || v > hi))
                st = rdx_fail(RDX_ERR_RANGE,
                              "bind args: kernel argument %zu, variable '%s' = %lld: expected a "
                              "value in its range [%lld, %lld]",
                              a, ar->name, (long long)v, (long long)lo, (long long)hi);
            vals[nv++] = v;
        }
    }
    if (!st && !b->vars && b->nvals != nv)
        st = rdx_fail(RDX_ERR_INVALID,
                      "bind args: %zu variable values given in kernarg order, the kernel "
                      "takes %zu",
                      b->nvals, nv);
    if (!st && out)
        rdx_codegen_pack_args(k, b->ptrs, b->values, vals, out);
    if (!st && kv)
        for (size_t i = 0; i < nv; i++)
            kv[i] = vals[i];
    if (!st && nkv)
        *nkv = nv;
    free(vals);
    return st;
}
