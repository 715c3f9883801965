/* ir/topo.c — topological order of a graph (iterative, sources before users). */
#include <stdlib.h>

#include "ir/ir_internal.h"

/* Post-order over several roots (iterative); nodes get their index in `order`. */
rdx_status rdx_ir_topo_many(const rdx_uop *const *roots, size_t n, rdx_pmap *num,
                            const rdx_uop ***order, size_t *count)
{
    size_t cap = 64, len = 0, scap = 64, sp = 0;
    const rdx_uop **out = malloc(cap * sizeof *out);
    struct fr {
        const rdx_uop *u;
        uint32_t next;
    } *stack = malloc(scap * sizeof *stack);
    if (!out || !stack)
        goto nomem;
    for (size_t r = 0; r < n; r++) {
        if (rdx_pmap_get(num, roots[r]))
            continue;
        stack[sp++] = (struct fr){ roots[r], 0 };
        if (rdx_pmap_put(num, roots[r], (void *)1))
            goto nomem;
        while (sp) {
            struct fr *f = &stack[sp - 1];
            if (f->next < f->u->nsrc) {
                const rdx_uop *s = f->u->src[f->next++];
                if (rdx_pmap_get(num, s))
                    continue;
                if (rdx_pmap_put(num, s, (void *)1))
                    goto nomem;
                if (sp == scap) {
                    void *p = realloc(stack, (scap *= 2) * sizeof *stack);
                    if (!p)
                        goto nomem;
                    stack = p;
                }
                stack[sp++] = (struct fr){ s, 0 };
                continue;
            }
            if (len == cap) {
                void *p = realloc(out, (cap *= 2) * sizeof *out);
                if (!p)
                    goto nomem;
                out = p;
            }
            out[len] = f->u;
            if (rdx_pmap_put(num, f->u, (void *)(uintptr_t)(len + 2)))
                goto nomem;
            len++;
            sp--;
        }
    }
    free(stack);
    *order = out;
    *count = len;
    return RDX_OK;
nomem:
    free(out);
    free(stack);
    return rdx_fail(RDX_ERR_NOMEM, "toposort: out of memory");
}

rdx_status rdx_ir_toposort(const rdx_uop *root, const rdx_uop ***out, size_t *n)
{
    rdx_pmap num = { 0 };
    rdx_status st = rdx_ir_topo_many(&root, 1, &num, out, n);
    rdx_pmap_free(&num);
    return st;
}
