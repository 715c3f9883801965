/* ir/topo.c — topological order of a graph (iterative, sources before users). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * The single-root sort marks visited nodes in a per-thread array indexed by
 * node id instead of a hash map: a mark is (node, walk number), so nothing is
 * cleared between walks and a stale mark never matches.  The sort calls out to
 * nothing, so one array per thread is never in use twice.  Ids are unique only
 * within a context: a graph that mixes contexts (two nodes with one id) is
 * detected and sorted by the hash-map walk instead.  The array grows to the
 * largest id seen and is freed when the thread exits.
 */
typedef struct topo_mark {
    const rdx_uop *u;
    uint64_t walk;
} topo_mark;

typedef struct topo_marks {
    topo_mark *m;
    size_t cap;
    uint64_t walk;
} topo_marks;

static __thread topo_marks tls_marks;
static pthread_key_t marks_key;
static pthread_once_t marks_once = PTHREAD_ONCE_INIT;
static int marks_key_ok;

static void marks_free(void *p)
{
    free(p);
}

static void marks_init(void)
{
    marks_key_ok = pthread_key_create(&marks_key, marks_free) == 0;
}

/* Room for id; 0 on out of memory. */
static int marks_reserve(topo_marks *t, uint32_t id)
{
    if (id < t->cap)
        return 1;
    size_t nc = t->cap ? t->cap : 4096;
    while (nc <= id)
        nc *= 2;
    topo_mark *nm = realloc(t->m, nc * sizeof *nm);
    if (!nm)
        return 0;
    memset(nm + t->cap, 0, (nc - t->cap) * sizeof *nm);
    t->m = nm;
    t->cap = nc;
    pthread_once(&marks_once, marks_init);
    if (marks_key_ok)
        pthread_setspecific(marks_key, nm); /* freed at thread exit */
    return 1;
}

/* Mark u beyond the array: grow it, then mark; 0, or -1 on no memory. */
static int mark_grow(topo_marks *t, const rdx_uop *u)
{
    if (!marks_reserve(t, u->id))
        return -1;
    t->m[u->id] = (topo_mark){ u, t->walk };
    return 0;
}

/* 1 when u is marked in this walk, 0 when not (now it is), -1 on a clash or no memory. */
static int mark(topo_marks *t, const rdx_uop *u)
{
    if (u->id >= t->cap)
        return mark_grow(t, u);
    if (t->m[u->id].walk == t->walk)
        return t->m[u->id].u == u ? 1 : -1; /* -1: another node with this id */
    t->m[u->id] = (topo_mark){ u, t->walk };
    return 0;
}

/* The post-order under root with per-thread marks, not descending below a node `stop`
   accepts (stop NULL: every node); 1 when the hash-map walk must do it. */
static int topo_dense(const rdx_uop *root, int (*stop)(void *, const rdx_uop *), void *user,
                      const rdx_uop ***order, size_t *count)
{
    topo_marks *t = &tls_marks;
    t->walk++;
    size_t cap = 256, len = 0, scap = 64, sp = 0;
    const rdx_uop **out = malloc(cap * sizeof *out);
    struct fr {
        const rdx_uop *u;
        uint32_t next;
    } *stack = malloc(scap * sizeof *stack);
    if (!out || !stack || mark(t, root) < 0)
        goto fallback;
    /* the node being visited and its next source in registers, the nodes above it on
       the stack; the marks' array and walk number in registers too (only mark_grow
       changes the array) — this loop runs once per edge */
    const rdx_uop *u = root;
    uint32_t k = stop && stop(user, root) ? root->nsrc : 0;
    topo_mark *mk = t->m;
    size_t mcap = t->cap;
    const uint64_t walk = t->walk;
    for (;;) {
        if (k < u->nsrc) {
            const rdx_uop *s = u->src[k++];
            uint32_t id = s->id;
            if (__builtin_expect(id < mcap, 1)) {
                if (mk[id].walk == walk) {
                    if (mk[id].u == s)
                        continue;
                    goto fallback; /* another node with this id: a graph mixing contexts */
                }
                mk[id].u = s;
                mk[id].walk = walk;
            } else {
                if (mark_grow(t, s) < 0)
                    goto fallback;
                mk = t->m;
                mcap = t->cap;
            }
            if (sp == scap) {
                void *p = realloc(stack, (scap *= 2) * sizeof *stack);
                if (!p)
                    goto fallback;
                stack = p;
            }
            stack[sp++] = (struct fr){ u, k };
            u = s;
            k = stop && stop(user, s) ? s->nsrc : 0;
            continue;
        }
        if (len == cap) {
            void *p = realloc(out, (cap *= 2) * sizeof *out);
            if (!p)
                goto fallback;
            out = p;
        }
        out[len++] = u;
        if (!sp)
            break;
        sp--;
        u = stack[sp].u;
        k = stack[sp].next;
    }
    free(stack);
    *order = out;
    *count = len;
    return 0;
fallback:
    free(out);
    free(stack);
    return 1;
}

rdx_status rdx_ir_toposort(const rdx_uop *root, const rdx_uop ***out, size_t *n)
{
    return rdx_ir_toposort_cut(root, NULL, NULL, out, n);
}

rdx_status rdx_ir_toposort_cut(const rdx_uop *root, int (*stop)(void *user, const rdx_uop *u),
                               void *user, const rdx_uop ***out, size_t *n)
{
    if (!topo_dense(root, stop, user, out, n))
        return RDX_OK;
    rdx_pmap num = { 0 };
    rdx_status st = rdx_ir_topo_many(&root, 1, &num, out, n);
    rdx_pmap_free(&num);
    return st;
}

/* The order of the graph under root, kept in the context for the next substitution into
   or sort of the same graph (a graph's order never changes: its nodes are immutable). */
rdx_status rdx_ir_topo_cached(rdx_ir_ctx *ctx, const rdx_uop *root, const rdx_uop *const **order,
                              size_t *n)
{
    enum { NC = sizeof ctx->tcache / sizeof ctx->tcache[0] };
    for (unsigned k = 0; k < NC; k++)
        if (ctx->tcache[k].root == root) {
            *order = ctx->tcache[k].order;
            *n = ctx->tcache[k].n;
            return RDX_OK;
        }
    const rdx_uop **o;
    size_t no;
    rdx_status st = rdx_ir_toposort(root, &o, &no);
    if (st)
        return st;
    struct rdx_topo_cache *c = &ctx->tcache[ctx->tnext++ % NC];
    free(c->order);
    *c = (struct rdx_topo_cache){ root, o, no };
    *order = o;
    *n = no;
    return RDX_OK;
}

rdx_status rdx_ir_toposort_ctx(rdx_ir_ctx *ctx, const rdx_uop *root, const rdx_uop ***out,
                               size_t *n)
{
    /* a node of another context, or a substitution reading a cached order (an insertion
       could evict it): the plain sort */
    if (ctx->tbusy || root->id >= ctx->count || ctx->nodes[root->id] != root)
        return rdx_ir_toposort(root, out, n);
    const rdx_uop *const *o;
    size_t no;
    rdx_status st = rdx_ir_topo_cached(ctx, root, &o, &no);
    if (st)
        return st;
    const rdx_uop **cp = malloc((no ? no : 1) * sizeof *cp);
    if (!cp)
        return rdx_fail(RDX_ERR_NOMEM, "toposort: out of memory");
    memcpy(cp, o, no * sizeof *cp);
    *out = cp;
    *n = no;
    return RDX_OK;
}
