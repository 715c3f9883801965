/* realize/effects.c — tensor-level side effects as the scheduler's assignments: a
 * root SINK (or GROUP, or STORE) of STOREs into BUFFERs becomes one
 * AFTER(buffer, STORE(buffer, value)) root per STORE, a gated STORE stores
 * WHERE(gate, value, buffer), and AFTER(buffer, SINK/GROUP(STORE(buffer, v)))
 * is the plain assignment. */
#include <stdlib.h>

#include "realize/realize_internal.h"
#include "util/error.h"

static int is_effect(const rdx_uop *u)
{
    return u->op == RDX_OP_SINK || u->op == RDX_OP_GROUP || u->op == RDX_OP_STORE;
}

/* STORE(b, v[, gate]) into a BUFFER as the assignment AFTER(b, STORE(b, v')). */
static rdx_status assign_of(rdx_ir_ctx *ctx, size_t root, const rdx_uop *st, const rdx_uop **out)
{
    const rdx_uop *b = st->src[0];
    if (b->op != RDX_OP_BUFFER || st->nsrc < 2)
        return rdx_fail(RDX_ERR_UNSUPPORTED,
                        "realize: root %zu: STORE node #%u writes into %s node #%u; a "
                        "tensor-level SINK collects STOREs into BUFFERs (a SINK of kernel-level "
                        "STOREs is a kernel: rdx compile)",
                        root, st->id, rdx_op_name((rdx_op)b->op), b->id);
    const rdx_uop *v = st->src[1];
    if (st->nsrc == 3)
        v = rdx_ir_where(ctx, st->src[2], v, b);
    const rdx_uop *s2 = v ? rdx_ir_store(ctx, b, v) : NULL;
    const rdx_uop *src[2] = { b, s2 };
    *out = s2 ? rdx_ir_node(ctx, RDX_OP_AFTER, src, 2, NULL) : NULL;
    return *out ? RDX_OK
                : rdx_fail_context(RDX_ERR_INVALID, "realize: root %zu: STORE node #%u", root,
                                   st->id);
}

/* Append the assignments of effect u (through SINK/GROUP) to list. */
static rdx_status collect(rdx_ir_ctx *ctx, size_t root, const rdx_uop *u, const rdx_uop **list,
                          size_t *n, size_t cap)
{
    if (u->op == RDX_OP_STORE) {
        if (*n >= cap)
            return rdx_fail(RDX_ERR_INVALID, "realize: root %zu: too many STOREs", root);
        return assign_of(ctx, root, u, &list[(*n)++]);
    }
    if (u->op != RDX_OP_SINK && u->op != RDX_OP_GROUP)
        return rdx_fail(RDX_ERR_UNSUPPORTED,
                        "realize: root %zu: %s node #%u in a SINK; a tensor-level SINK or GROUP "
                        "collects STOREs",
                        root, rdx_op_name((rdx_op)u->op), u->id);
    for (uint32_t k = 0; k < u->nsrc; k++) {
        rdx_status st = collect(ctx, root, u->src[k], list, n, cap);
        if (st)
            return st;
    }
    return RDX_OK;
}

/* The STOREs in u (through SINKs and GROUPs); *last gets the last one found. */
static size_t count_stores_at(const rdx_uop *u, const rdx_uop **last)
{
    if (u->op == RDX_OP_STORE) {
        *last = u;
        return 1;
    }
    size_t n = 0;
    if (u->op == RDX_OP_SINK || u->op == RDX_OP_GROUP)
        for (uint32_t k = 0; k < u->nsrc; k++)
            n += count_stores_at(u->src[k], last);
    return n;
}

static size_t count_stores(const rdx_uop *u)
{
    const rdx_uop *last = NULL;
    return count_stores_at(u, &last);
}

rdx_status rz_effects(rdx_ir_ctx *ctx, const rdx_uop *const *roots, size_t n, const rdx_uop ***out,
                      size_t *nout, long *map)
{
    size_t cap = 0;
    for (size_t i = 0; i < n; i++)
        cap += is_effect(roots[i]) ? count_stores(roots[i]) : 1;
    const rdx_uop **list = calloc(cap + 1, sizeof *list);
    if (!list)
        return rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    size_t m = 0;
    rdx_status st = RDX_OK;
    for (size_t i = 0; i < n && !st; i++) {
        const rdx_uop *u = roots[i];
        if (is_effect(u)) {
            map[i] = -1;
            st = collect(ctx, i, u, list, &m, cap);
            continue;
        }
        /* AFTER(b, SINK/GROUP(STORE(b, v))) and AFTER(b, STORE(b, v, gate)): the assignment */
        const rdx_uop *s = NULL;
        if (u->op == RDX_OP_AFTER && u->nsrc == 2 && is_effect(u->src[1]) &&
            count_stores_at(u->src[1], &s) == 1) {
            if (s->src[0] == u->src[0] && (s != u->src[1] || s->nsrc == 3) &&
                (st = assign_of(ctx, i, s, &u)))
                break;
        }
        map[i] = (long)m;
        list[m++] = u;
    }
    if (st) {
        free(list);
        return st;
    }
    *out = list;
    *nout = m;
    return RDX_OK;
}
