/*
 * ir/tensor/subst.c — scoped graph walks for the front-end: topological
 * order that does not enter FUNCTION/CALL bodies, node maps, substitution
 * that respects FUNCTION scopes (a body's PARAMs belong to its FUNCTION),
 * and inlining of FUNCTION calls (used by gradients).
 */
#include <stdlib.h>
#include <string.h>

#include "ir/tensor/tensor_internal.h"

void t_map_free(t_map *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static size_t t_hash(const rdx_uop *u, size_t cap)
{
    return ((size_t)u->id * 2654435761u) & (cap - 1);
}

const void *t_map_get(const t_map *m, const rdx_uop *k)
{
    if (!m->cap)
        return NULL;
    for (size_t h = t_hash(k, m->cap); m->keys[h]; h = (h + 1) & (m->cap - 1))
        if (m->keys[h] == k)
            return m->vals[h];
    return NULL;
}

int t_map_put(t_map *m, const rdx_uop *k, const void *v)
{
    if ((m->count + 1) * 2 > m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 64;
        const rdx_uop **nk = calloc(nc, sizeof *nk);
        const void **nv = calloc(nc, sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return 0;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) {
                size_t h = t_hash(m->keys[i], nc);
                while (nk[h])
                    h = (h + 1) & (nc - 1);
                nk[h] = m->keys[i], nv[h] = m->vals[i];
            }
        free(m->keys);
        free(m->vals);
        m->keys = nk, m->vals = nv, m->cap = nc;
    }
    size_t h = t_hash(k, m->cap);
    while (m->keys[h] && m->keys[h] != k)
        h = (h + 1) & (m->cap - 1);
    if (!m->keys[h])
        m->count++;
    m->keys[h] = k, m->vals[h] = v;
    return 1;
}

uint32_t t_first_src(const rdx_uop *u)
{
    return (u->op == RDX_OP_FUNCTION || u->op == RDX_OP_CALL) ? 1 : 0;
}

rdx_status t_topo(const rdx_uop *const *roots, size_t nroots, const rdx_uop ***out, size_t *n)
{
    t_map seen = { 0 };
    size_t cap = 64, cnt = 0, sp = 0, scap = 64;
    const rdx_uop **order = malloc(cap * sizeof *order);
    struct fr {
        const rdx_uop *u;
        uint32_t next;
    } *st = malloc(scap * sizeof *st);
    if (!order || !st)
        goto oom;
    for (size_t r = 0; r < nroots; r++) {
        if (t_map_get(&seen, roots[r]))
            continue;
        if (!t_map_put(&seen, roots[r], roots[r]))
            goto oom;
        st[sp++] = (struct fr){ roots[r], t_first_src(roots[r]) };
        while (sp) {
            struct fr *f = &st[sp - 1];
            if (f->next < f->u->nsrc) {
                const rdx_uop *c = f->u->src[f->next++];
                if (t_map_get(&seen, c))
                    continue;
                if (!t_map_put(&seen, c, c))
                    goto oom;
                if (sp == scap) {
                    void *ns = realloc(st, (scap *= 2) * sizeof *st);
                    if (!ns)
                        goto oom;
                    st = ns;
                }
                st[sp++] = (struct fr){ c, t_first_src(c) };
                continue;
            }
            if (cnt == cap) {
                void *no = realloc(order, (cap *= 2) * sizeof *order);
                if (!no)
                    goto oom;
                order = no;
            }
            order[cnt++] = f->u;
            sp--;
        }
    }
    free(st);
    t_map_free(&seen);
    *out = order;
    *n = cnt;
    return RDX_OK;
oom:
    free(order);
    free(st);
    t_map_free(&seen);
    return rdx_fail(RDX_ERR_NOMEM, "out of memory walking the graph");
}

/* Is GETTUPLE u a call of one of the wrapped transcendental decompositions?  Sets *which. */
int t_transcendental(rdx_graph *g, const rdx_uop *u, int *which)
{
    if (u->op != RDX_OP_GETTUPLE || u->src[0]->op != RDX_OP_FUNCTION || u->src[0]->nsrc != 2)
        return 0;
    const rdx_uop *f = u->src[0], *body = f->src[0], *a = f->src[1];
    if (body->op != RDX_OP_TUPLE || body->nsrc != 1 || u->arg.i != 0 ||
        !rdx_dtype_is_float(a->dtype))
        return 0;
    const rdx_uop *p = t_unary_param(g, a);
    if (!p)
        return 0;
    static t_unary_decomp const fns[T_TR_COUNT] = { rdx_ir_exp2, rdx_ir_log2, rdx_ir_sin,
                                                    rdx_ir_sqrt };
    for (int k = 0; k < T_TR_COUNT; k++)
        if (fns[k](g->ir, p) == body->src[0]) {
            *which = k;
            return 1;
        }
    return 0;
}

/* PARAM nodes of body (not inside nested bodies) -> args[slot]. */
static rdx_status call_map(const rdx_uop *body, const rdx_uop *const *args, size_t nargs, t_map *m)
{
    const rdx_uop **order;
    size_t n;
    rdx_status st = t_topo(&body, 1, &order, &n);
    if (st)
        return st;
    for (size_t k = 0; k < n && !st; k++) {
        const rdx_uop *u = order[k];
        if (u->op != RDX_OP_PARAM)
            continue;
        if (u->arg.i < 0 || (size_t)u->arg.i >= nargs)
            st = rdx_fail(RDX_ERR_INVALID, "FUNCTION body uses PARAM %lld but has %zu arguments",
                          (long long)u->arg.i, nargs);
        else if (!t_map_put(m, u, args[u->arg.i]))
            st = rdx_fail(RDX_ERR_NOMEM, "out of memory");
    }
    free(order);
    return st;
}

rdx_status t_subst(rdx_graph *g, const rdx_uop *root, t_map *repl, int inline_calls,
                   const rdx_uop **out)
{
    const rdx_uop **order;
    size_t n;
    rdx_status st = t_topo(&root, 1, &order, &n);
    if (st)
        return st;
    t_map done = { 0 };
    for (size_t k = 0; k < n && !st; k++) {
        const rdx_uop *u = order[k], *r = t_map_get(repl, u);
        if (!r) {
            const rdx_uop *src[64], **sp = src, **big = NULL;
            if (u->nsrc > 64) {
                big = malloc(u->nsrc * sizeof *big);
                if (!big) {
                    st = rdx_fail(RDX_ERR_NOMEM, "out of memory");
                    break;
                }
                sp = big;
            }
            int changed = 0;
            for (uint32_t j = 0; j < u->nsrc; j++) {
                const rdx_uop *m = j < t_first_src(u) ? NULL : t_map_get(&done, u->src[j]);
                sp[j] = m ? m : u->src[j];
                changed |= sp[j] != u->src[j];
            }
            r = changed ? rdx_ir_replace_src(g->ir, u, sp, u->nsrc) : u;
            free(big);
            if (!r) {
                st = RDX_ERR_INVALID;
                break;
            }
            int which;
            if (inline_calls && r->op == RDX_OP_GETTUPLE &&
                (r->src[0]->op == RDX_OP_FUNCTION || r->src[0]->op == RDX_OP_CALL) &&
                r->src[0]->src[0]->op == RDX_OP_TUPLE && !t_transcendental(g, r, &which)) {
                const rdx_uop *f = r->src[0], *body = f->src[0];
                t_map pm = { 0 };
                st = call_map(body, f->src + 1, f->nsrc - 1, &pm);
                const rdx_uop *e = NULL;
                if (!st && r->arg.i >= 0 && r->arg.i < (int64_t)body->nsrc)
                    st = t_subst(g, body->src[r->arg.i], &pm, 1, &e);
                t_map_free(&pm);
                if (st)
                    break;
                r = e ? e : r;
            }
        }
        if (!t_map_put(&done, u, r))
            st = rdx_fail(RDX_ERR_NOMEM, "out of memory");
    }
    if (!st)
        *out = t_map_get(&done, root);
    free(order);
    t_map_free(&done);
    return st;
}
