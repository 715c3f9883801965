/* codegen/schedule_util.c — small helpers shared by the front-half passes:
 * a pointer-tuple hash map, index arithmetic, gates, reduce identities, and
 * range replacement (the primitive every OptOp is built on). */
#include <stdlib.h>
#include <string.h>

#include "codegen/front_internal.h"
#include "util/error.h"

static uint32_t key_hash(const void *const *key, uint32_t n)
{
    uint64_t h = 1469598103934665603ull ^ n;
    for (uint32_t i = 0; i < n; i++) {
        h ^= (uint64_t)(uintptr_t)key[i];
        h *= 1099511628211ull;
        h ^= h >> 29;
    }
    return (uint32_t)(h ^ h >> 32);
}

void cg_map_free(cg_map *m)
{
    free(m->ents);
    free(m->keys);
    memset(m, 0, sizeof *m);
}

/* The entry of key (hash h), or the empty slot where it goes. */
static cg_map_ent *find(const cg_map *m, const void *const *key, uint32_t nkey, uint32_t h)
{
    size_t i = h & (m->cap - 1);
    for (;;) {
        cg_map_ent *e = &m->ents[i];
        if (!e->nkey)
            return e;
        if (e->hash == h && e->nkey == nkey && !memcmp(m->keys + e->koff, key, nkey * sizeof *key))
            return e;
        i = (i + 1) & (m->cap - 1);
    }
}

const void *cg_map_get(const cg_map *m, const void *const *key, uint32_t nkey)
{
    if (!m->cap || !nkey)
        return NULL;
    return find(m, key, nkey, key_hash(key, nkey))->val;
}

rdx_status cg_map_put(cg_map *m, const void *const *key, uint32_t nkey, const void *val)
{
    if (nkey == 0 || nkey > CG_KEY_MAX)
        return rdx_fail(RDX_ERR_INVALID, "codegen: map key of %u entries", nkey);
    if ((m->n + 1) * 2 > m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 64;
        cg_map_ent *ne = calloc(nc, sizeof *ne);
        if (!ne)
            return rdx_fail(RDX_ERR_NOMEM, "codegen: out of memory");
        for (size_t i = 0; i < m->cap; i++) { /* the stored hashes: no key is read */
            const cg_map_ent *o = &m->ents[i];
            if (!o->nkey)
                continue;
            size_t j = o->hash & (nc - 1);
            while (ne[j].nkey)
                j = (j + 1) & (nc - 1);
            ne[j] = *o;
        }
        free(m->ents);
        m->ents = ne;
        m->cap = nc;
    }
    uint32_t h = key_hash(key, nkey);
    cg_map_ent *e = find(m, key, nkey, h);
    if (!e->nkey) {
        if (m->nkeys + nkey > m->kcap) {
            size_t kc = m->kcap ? m->kcap * 2 : 256;
            while (kc < m->nkeys + nkey)
                kc *= 2;
            const void **nk = realloc(m->keys, kc * sizeof *nk);
            if (!nk)
                return rdx_fail(RDX_ERR_NOMEM, "codegen: out of memory");
            m->keys = nk;
            m->kcap = kc;
        }
        memcpy(m->keys + m->nkeys, key, nkey * sizeof *key);
        *e = (cg_map_ent){ h, nkey, m->nkeys, NULL };
        m->nkeys += nkey;
        m->n++;
    }
    e->val = val;
    return RDX_OK;
}

const rdx_uop *cg_idx(rdx_ir_ctx *ctx, int64_t v)
{
    return rdx_ir_int(ctx, v);
}

const rdx_uop *cg_prod(rdx_ir_ctx *ctx, const rdx_uop *const *dims, uint32_t n)
{
    const rdx_uop *p = cg_idx(ctx, 1);
    for (uint32_t k = 0; k < n; k++)
        p = rdx_ir_mul(ctx, p, dims[k]);
    return p;
}

const rdx_uop *cg_flat(rdx_ir_ctx *ctx, const rdx_uop *const *dims, const rdx_uop *const *idx,
                       uint32_t n)
{
    const rdx_uop *off = cg_idx(ctx, 0), *stride = cg_idx(ctx, 1);
    for (uint32_t k = n; k-- > 0;) {
        off = rdx_ir_add(ctx, off, rdx_ir_mul(ctx, idx[k], stride));
        stride = rdx_ir_mul(ctx, stride, dims[k]);
    }
    return off;
}

const rdx_uop *cg_and(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b)
{
    if (!a)
        return b;
    if (!b || a == b)
        return a;
    return rdx_ir_alu2(ctx, RDX_OP_AND, a, b);
}

const rdx_uop *cg_zero(rdx_ir_ctx *ctx, rdx_dtype d)
{
    return rdx_ir_const_like(ctx, d, 0);
}

const rdx_uop *cg_identity(rdx_ir_ctx *ctx, rdx_redop op, rdx_dtype d)
{
    int64_t lo, hi;
    double flo, fhi;
    rdx_dtype_range(d, &lo, &hi, &flo, &fhi);
    int fl = rdx_dtype_is_float(d);
    switch (op) {
    case RDX_RED_ADD:
        return rdx_ir_const_like(ctx, d, 0);
    case RDX_RED_MUL:
        return rdx_ir_const_like(ctx, d, 1);
    case RDX_RED_MAX:
        return fl ? rdx_ir_const_float(ctx, d, flo) : rdx_ir_const_int(ctx, d, lo);
    default:
        return fl ? rdx_ir_const_float(ctx, d, fhi) : rdx_ir_const_int(ctx, d, hi);
    }
}

const rdx_uop *cg_combine(rdx_ir_ctx *ctx, rdx_redop op, const rdx_uop *a, const rdx_uop *b)
{
    switch (op) {
    case RDX_RED_ADD:
        return rdx_ir_add(ctx, a, b);
    case RDX_RED_MUL:
        return rdx_ir_mul(ctx, a, b);
    case RDX_RED_MAX:
        return rdx_ir_max(ctx, a, b);
    default:
        return rdx_ir_where(ctx, rdx_ir_cmplt(ctx, b, a), b, a);
    }
}

const rdx_uop *cg_range(rdx_ir_ctx *ctx, const rdx_uop *bound, int64_t id, rdx_axistype t)
{
    return rdx_ir_range(ctx, bound, id, t);
}

const rdx_uop *cg_node(rdx_ir_ctx *ctx, rdx_op op, const rdx_uop *const *src, size_t n,
                       const rdx_uop_arg *arg)
{
    return rdx_ir_node(ctx, op, src, n, arg);
}

rdx_status cg_replace_ranges(rdx_ir_ctx *ctx, const rdx_uop *root, const rdx_uop *const *from,
                             const rdx_uop *const *to, const rdx_uop *const *const *ends,
                             const uint32_t *nends, size_t n, cg_rebuild_fn extra, void *user,
                             const rdx_uop **out)
{
    const rdx_uop **order = NULL;
    size_t no = 0;
    rdx_status st = rdx_ir_toposort_ctx(ctx, root, &order, &no);
    if (!st)
        st = cg_replace_ranges_in(ctx, root, order, no, from, to, ends, nends, n, extra, user, out);
    free(order);
    return st;
}

rdx_status cg_replace_ranges_in(rdx_ir_ctx *ctx, const rdx_uop *root, const rdx_uop *const *order,
                                size_t no, const rdx_uop *const *from, const rdx_uop *const *to,
                                const rdx_uop *const *const *ends, const uint32_t *nends, size_t n,
                                cg_rebuild_fn extra, void *user, const rdx_uop **out)
{
    const rdx_uop **src = NULL;
    size_t cap = 0, nextra = 0; /* sources an END/REDUCE may gain: every range's ends */
    int ranges_only = 1;        /* from[] holds RANGEs only: other nodes need no look-up */
    for (size_t s = 0; s < n; s++) {
        nextra += nends ? nends[s] : 0;
        ranges_only &= from[s]->op == RDX_OP_RANGE;
    }
    rdx_ir_nodemap *m = NULL; /* node -> its rebuilt node, when that differs */
    rdx_status st = rdx_ir_nodemap_create(ctx, &m);
    for (size_t i = 0; i < no && !st; i++) {
        const rdx_uop *u = order[i], *nu = NULL;
        size_t k = n;
        if (n && (u->op == RDX_OP_RANGE || !ranges_only))
            for (k = 0; k < n && from[k] != u; k++)
                ;
        if (k < n && to[k]) {
            nu = to[k];
        } else {
            size_t need = u->nsrc + nextra;
            if (need > cap) {
                cap = need * 2;
                const rdx_uop **ns = realloc(src, cap * sizeof *ns);
                if (!ns) {
                    st = rdx_fail(RDX_ERR_NOMEM, "codegen: out of memory");
                    break;
                }
                src = ns;
            }
            size_t ns = 0;
            int changed = 0, had_ranges = 0;
            int closer = u->op == RDX_OP_END || u->op == RDX_OP_REDUCE; /* range slots 1.. */
            for (uint32_t s = 0; s < u->nsrc; s++) {
                const rdx_uop *o = u->src[s];
                if (closer && s >= 1 && o->op == RDX_OP_RANGE) {
                    had_ranges = 1;
                    size_t j;
                    for (j = 0; j < n && from[j] != o; j++)
                        ;
                    if (j < n) {
                        changed = 1;
                        for (uint32_t e = 0; nends && e < nends[j]; e++)
                            src[ns++] = ends[j][e];
                        continue;
                    }
                }
                const rdx_uop *mv = rdx_ir_nodemap_get(m, o);
                if (mv && mv != o) {
                    src[ns++] = mv;
                    changed = 1;
                } else {
                    src[ns++] = o;
                }
            }
            if (had_ranges && ns == 1) {
                nu = src[0]; /* END/REDUCE with no range left */
            } else if (changed || ns != u->nsrc) {
                nu = rdx_ir_replace_src(ctx, u, src, ns);
            } else {
                nu = u;
            }
            if (nu && extra) {
                const rdx_uop *x = extra(ctx, nu, user);
                if (x)
                    nu = x;
            }
        }
        if (!nu) {
            st = rdx_fail_context(RDX_ERR_INVALID, "codegen: rebuilding %s",
                                  rdx_op_name((rdx_op)u->op));
            break;
        }
        if (nu != u)
            st = rdx_ir_nodemap_put(m, u, nu);
    }
    if (!st) {
        const rdx_uop *r = rdx_ir_nodemap_get(m, root);
        *out = r ? r : root;
    }
    free(src);
    rdx_ir_nodemap_free(m);
    return st;
}

int cg_depends(const rdx_uop *u, const rdx_uop *r)
{
    const rdx_uop **order = NULL;
    size_t n = 0;
    if (rdx_ir_toposort(u, &order, &n))
        return 0;
    int found = 0;
    for (size_t i = 0; i < n && !found; i++)
        found = order[i] == r;
    free(order);
    return found;
}

/* The integer/bool parts of a kernel that are simplified, and their results. */
typedef struct simp_state {
    rdx_ir_nodemap *done; /* part -> simplified */
    int linear; /* cg_simplify_unrolled: linear index parts only get their constants split */
} simp_state;

/* Is index expression u made of ADD, MUL, CONST and leaves (ranges, thread ids,
   variables) only?  Bounded walk. */
static int linear_part(const rdx_uop *u, int depth)
{
    if (depth > 64 || u->dtype.scalar != RDX_INDEX || u->dtype.count != 1)
        return 0;
    switch ((rdx_op)u->op) {
    case RDX_OP_CONST:
    case RDX_OP_RANGE:
    case RDX_OP_SPECIAL:
    case RDX_OP_DEFINE_VAR:
        return 1;
    case RDX_OP_ADD:
    case RDX_OP_MUL:
        return linear_part(u->src[0], depth + 1) && linear_part(u->src[1], depth + 1);
    default:
        return 0;
    }
}

/* split_const's results by node (the unrolled index parts share most of their terms). */
typedef struct split_memo {
    rdx_ir_nodemap *at; /* node -> index + 1 in r[] */
    struct split_res {
        const rdx_uop *rest;
        int64_t c;
    } *r;
    size_t n, cap;
    int nomem;
} split_memo;

/* A linear index expression as rest + *c with the constants of its sums and of the
   products by constants collected into *c (exact integer arithmetic); NULL for 0. */
static const rdx_uop *split_const(rdx_ir_ctx *ctx, split_memo *M, const rdx_uop *u, int64_t *c)
{
    int64_t k;
    if (rdx_uop_const_int(u, &k)) {
        *c = k;
        return NULL;
    }
    *c = 0;
    if (u->op != RDX_OP_ADD && u->op != RDX_OP_MUL)
        return u;
    size_t at = (size_t)(uintptr_t)rdx_ir_nodemap_get(M->at, u);
    if (at) {
        *c = M->r[at - 1].c;
        return M->r[at - 1].rest;
    }
    const rdx_uop *rest = u;
    if (u->op == RDX_OP_ADD) {
        int64_t c0, c1;
        const rdx_uop *a = split_const(ctx, M, u->src[0], &c0),
                      *b = split_const(ctx, M, u->src[1], &c1);
        *c = c0 + c1;
        rest = !a ? b : !b ? a : rdx_ir_add(ctx, a, b);
    } else if (rdx_uop_const_int(u->src[1], &k)) {
        int64_t c0;
        const rdx_uop *a = split_const(ctx, M, u->src[0], &c0);
        *c = c0 * k;
        rest = a ? rdx_ir_mul(ctx, a, u->src[1]) : NULL;
    }
    if (M->n == M->cap) {
        size_t nc = M->cap ? M->cap * 2 : 256;
        struct split_res *nr = realloc(M->r, nc * sizeof *nr);
        if (!nr) {
            M->nomem = 1;
            return rest;
        }
        M->r = nr, M->cap = nc;
    }
    M->r[M->n++] = (struct split_res){ rest, *c };
    if (rdx_ir_nodemap_put(M->at, u, (const void *)(uintptr_t)M->n))
        M->nomem = 1;
    return rest;
}

static const rdx_uop *simp(rdx_ir_ctx *ctx, simp_state *S, const rdx_uop *u)
{
    const rdx_uop *o = rdx_ir_nodemap_get(S->done, u);
    if (o)
        return o;
    return rdx_ir_simplify(ctx, u, &o) ? NULL : o;
}

/* A comparison of floats (the decompositions' range checks): nothing to simplify. */
static inline int float_cond(const rdx_uop *c)
{
    return (c->op == RDX_OP_CMPLT || c->op == RDX_OP_CMPNE) && rdx_dtype_is_float(c->src[0]->dtype);
}

/* A compare of values that are not indices (the integer steps of a transcendental's
   decomposition: sin's Payne-Hanek reduction) gates no memory access and has no range
   bounds to fold against: not simplified again with each kernel (it was most of sin's
   front-end time). */
static inline int value_cond(const rdx_uop *c)
{
    return (c->op == RDX_OP_CMPLT || c->op == RDX_OP_CMPNE) &&
           c->src[0]->dtype.scalar != RDX_INDEX && c->src[0]->dtype.scalar != RDX_BOOL;
}

/* Which sources of u are simplified: [*lo, *hi). */
static inline int simp_slots(const rdx_uop *u, uint32_t *lo, uint32_t *hi)
{
    if (u->op == RDX_OP_INDEX && u->nsrc <= 4) {
        *lo = 1;
        *hi = u->nsrc;
    } else if ((u->op == RDX_OP_LOAD && u->nsrc >= 2) || (u->op == RDX_OP_STORE && u->nsrc == 3)) {
        *lo = u->nsrc - 1;
        *hi = u->nsrc;
    } else if (u->op == RDX_OP_RANGE || u->op == RDX_OP_SPECIAL ||
               (u->op == RDX_OP_WHERE && !float_cond(u->src[0]) && !value_cond(u->src[0]))) {
        *lo = 0; /* bounds; a WHERE's index condition (not its branches: front_internal.h) */
        *hi = 1;
    } else {
        return 0;
    }
    return 1;
}

static const rdx_uop *simplify_node(rdx_ir_ctx *ctx, const rdx_uop *u, void *user)
{
    simp_state *S = user;
    const rdx_uop *s[4];
    uint32_t lo = 0, hi = 0;
    if (!simp_slots(u, &lo, &hi))
        return NULL;
    int changed = 0;
    for (uint32_t k = 0; k < u->nsrc; k++) {
        s[k] = u->src[k];
        if (k >= lo && k < hi) {
            s[k] = simp(ctx, S, u->src[k]);
            if (!s[k])
                return NULL;
            changed |= s[k] != u->src[k];
        }
    }
    int64_t g;
    if (u->op == RDX_OP_WHERE && rdx_uop_const_int(s[0], &g))
        return g ? s[1] : s[2];
    if (u->op == RDX_OP_LOAD && u->nsrc >= 2 && rdx_uop_const_int(s[u->nsrc - 1], &g)) {
        if (g)
            return rdx_ir_node(ctx, RDX_OP_LOAD, s, 1, NULL);
        /* never loads: the alternative value */
        return u->nsrc == 3 ? s[1] : cg_zero(ctx, u->dtype);
    }
    if (u->op == RDX_OP_STORE && u->nsrc == 3 && rdx_uop_const_int(s[2], &g) && g)
        return rdx_ir_node(ctx, RDX_OP_STORE, s, 2, NULL);
    return changed ? rdx_ir_replace_src(ctx, u, s, u->nsrc) : NULL;
}

/*
 * All parts are simplified in one rdx_ir_simplify call over a GROUP of them
 * (rewriting is bottom-up, so each part simplifies as it would alone, and
 * shared subexpressions are simplified once).
 */
static rdx_status simplify_kernel(rdx_ir_ctx *ctx, const rdx_uop *k, int linear,
                                  const rdx_uop **out)
{
    const rdx_uop **order = NULL, **parts = NULL;
    size_t no = 0, np = 0;
    simp_state S;
    memset(&S, 0, sizeof S);
    S.linear = linear;
    rdx_ir_nodemap *seen = NULL;
    rdx_status st = rdx_ir_toposort_ctx(ctx, k, &order, &no);
    if (!st && !(parts = malloc((4 * no + 1) * sizeof *parts)))
        st = rdx_fail(RDX_ERR_NOMEM, "codegen: out of memory");
    if (!st)
        st = rdx_ir_nodemap_create(ctx, &S.done);
    if (!st)
        st = rdx_ir_nodemap_create(ctx, &seen);
    for (size_t i = 0; i < no && !st; i++) {
        uint32_t lo, hi;
        if (!simp_slots(order[i], &lo, &hi))
            continue;
        for (uint32_t j = lo; j < hi && !st; j++) {
            const rdx_uop *x = order[i]->src[j];
            if (x->op == RDX_OP_CONST || rdx_ir_nodemap_get(seen, x))
                continue;
            parts[np++] = x;
            st = rdx_ir_nodemap_put(seen, x, x);
        }
    }
    rdx_ir_nodemap_free(seen);
    if (S.linear) { /* linear index parts: constants split out; the rest simplified */
        size_t keep = 0;
        split_memo M;
        memset(&M, 0, sizeof M);
        if (!st)
            st = rdx_ir_nodemap_create(ctx, &M.at);
        for (size_t i = 0; i < np && !st; i++) {
            if (!linear_part(parts[i], 0)) {
                parts[keep++] = parts[i];
                continue;
            }
            int64_t c;
            const rdx_uop *r = split_const(ctx, &M, parts[i], &c);
            if (M.nomem)
                st = rdx_fail(RDX_ERR_NOMEM, "codegen: out of memory");
            r = !r ? rdx_ir_int(ctx, c) : c ? rdx_ir_add(ctx, r, rdx_ir_int(ctx, c)) : r;
            if (!st)
                st = r ? rdx_ir_nodemap_put(S.done, parts[i], r)
                       : rdx_fail_context(RDX_ERR_INVALID, "codegen: folding an index");
        }
        rdx_ir_nodemap_free(M.at);
        free(M.r);
        np = keep;
    }
    const rdx_uop *grp = NULL, *sg = NULL;
    if (!st && np > 1 && (grp = rdx_ir_node(ctx, RDX_OP_GROUP, parts, np, NULL)) &&
        !rdx_ir_simplify(ctx, grp, &sg) && sg && sg->op == RDX_OP_GROUP && sg->nsrc == np) {
        for (size_t i = 0; i < np && !st; i++)
            st = rdx_ir_nodemap_put(S.done, parts[i], sg->src[i]);
    }
    rdx_error_clear(); /* a failed batch falls back to one part at a time */
    free(parts);
    if (!st) /* the rebuild walks the same order (one toposort per simplification) */
        st = cg_replace_ranges_in(ctx, k, order, no, NULL, NULL, NULL, NULL, 0, simplify_node, &S,
                                  out);
    free(order);
    rdx_ir_nodemap_free(S.done);
    return st;
}

rdx_status cg_simplify_kernel(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_uop **out)
{
    return simplify_kernel(ctx, k, 0, out);
}

rdx_status cg_simplify_unrolled(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_uop **out)
{
    return simplify_kernel(ctx, k, 1, out);
}
