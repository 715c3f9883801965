/*
 * ir/rewrite.c — graph_rewrite to a fixed point (bottom-up or top-down),
 * memoised, with cycle detection; substitution.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir_internal.h"

#define MAX_STEPS 10000

typedef struct frame {
    const rdx_uop *n;     /* the node being rewritten */
    const rdx_uop *alias; /* the node n's result comes from (stage 3) */
    const rdx_uop *mid;   /* n rebuilt with rewritten sources, when rules then rewrote it */
    uint32_t stage;
    uint32_t steps;
} frame;

typedef struct engine {
    rdx_ir_ctx *ctx;
    rdx_rewriter *rw;
    void *user;
    int topdown;
    int persist;     /* results also read from and kept in ctx->simp (rdx_ir_simplify) */
    rdx_nmap memo;   /* node -> final result */
    rdx_nmap inprog; /* node -> 1 while being rewritten (its frame started), 2 when done */
    frame *stack;
    size_t sp, cap;
    const rdx_uop **srcbuf;
    size_t srccap;
} engine;

/*
 * rdx_ir_simplify's results outlive the call: every node is immutable and the
 * symbolic rules are a function of the node alone (at refine depth 0), so what
 * a node simplified to once is what it simplifies to again, and the three
 * simplifications of one kernel (and the next kernels') skip what is done.
 */
static const rdx_uop *persist_get(const rdx_ir_ctx *ctx, const rdx_uop *n)
{
    if (n->id >= ctx->simp_cap || !ctx->simp[n->id] || ctx->nodes[n->id] != n)
        return NULL;
    return ctx->nodes[ctx->simp[n->id] - 1];
}

/* Keep n -> r (a cache: skipped when there is no memory). */
static void persist_put(rdx_ir_ctx *ctx, const rdx_uop *n, const rdx_uop *r)
{
    if (n->id >= ctx->count || ctx->nodes[n->id] != n || r->id >= ctx->count ||
        ctx->nodes[r->id] != r)
        return;
    if (n->id >= ctx->simp_cap && !ctx->simp) /* a destroyed context's array, zeroed */
        ctx->simp = rdx_ir_spare_simp_take(&ctx->simp_cap);
    if (n->id >= ctx->simp_cap) {
        size_t nc = ctx->simp_cap ? ctx->simp_cap : 4096;
        while (nc <= n->id || nc < ctx->count)
            nc *= 2;
        uint32_t *ns = realloc(ctx->simp, nc * sizeof *ns);
        if (!ns)
            return;
        memset(ns + ctx->simp_cap, 0, (nc - ctx->simp_cap) * sizeof *ns);
        ctx->simp = ns;
        ctx->simp_cap = nc;
    }
    ctx->simp[n->id] = r->id + 1;
}

const rdx_uop *rdx_ir_simp_known(const rdx_ir_ctx *ctx, const rdx_uop *n)
{
    return ctx->refine_depth ? NULL : persist_get(ctx, n);
}

int rdx_ir_simp_is_final(const rdx_ir_ctx *ctx, const rdx_uop *n)
{
    return !ctx->refine_depth && persist_get(ctx, n) == n;
}

void rdx_ir_simp_record(rdx_ir_ctx *ctx, const rdx_uop *n)
{
    if (n && !ctx->refine_depth)
        persist_put(ctx, n, n);
}

void rdx_ir_simp_fixed(rdx_ir_ctx *ctx, const rdx_uop *n)
{
    if (n && ctx->fixed_ok)
        persist_put(ctx, n, n);
}

/* The final result of n when known (this rewrite, or an earlier simplification). */
static const rdx_uop *memo_get(const engine *e, const rdx_uop *n)
{
    const rdx_uop *r = rdx_nmap_get(&e->memo, n);
    if (!r && e->persist)
        r = persist_get(e->ctx, n);
    return r;
}

static rdx_status push(engine *e, const rdx_uop *n, uint32_t steps)
{
    if (e->sp == e->cap) {
        size_t nc = e->cap ? e->cap * 2 : 256;
        frame *ns = realloc(e->stack, nc * sizeof *ns);
        if (!ns)
            return rdx_fail(RDX_ERR_NOMEM, "rewrite: out of memory");
        e->stack = ns;
        e->cap = nc;
    }
    if (rdx_nmap_get(&e->inprog, n) == (void *)1) {
        char head[256];
        rdx_ir_node_head(n, head, sizeof head);
        return rdx_fail(RDX_ERR_INVALID,
                        "rewrite cycle: %s (node #%u) is reached again while it is being "
                        "rewritten",
                        head, n->id);
    }
    if (steps > MAX_STEPS) {
        char head[256];
        rdx_ir_node_head(n, head, sizeof head);
        return rdx_fail(RDX_ERR_INVALID,
                        "rewrite cycle: no fixed point after %d rewrites (last %s, node #%u)",
                        MAX_STEPS, head, n->id);
    }
    e->stack[e->sp] = (frame){ n, NULL, NULL, 0, steps };
    e->sp++;
    return RDX_OK;
}

static rdx_status finish(engine *e, const rdx_uop *n, const rdx_uop *result)
{
    rdx_status st = rdx_nmap_put(&e->memo, n, result);
    if (!st && result != n && !rdx_nmap_get(&e->memo, result))
        st = rdx_nmap_put(&e->memo, result, result);
    if (e->persist) {
        persist_put(e->ctx, n, result);
        persist_put(e->ctx, result, result);
    }
    if (!st)
        st = rdx_nmap_put(&e->inprog, n, (void *)2);
    e->sp--;
    return st;
}

/* Try the rules at n; 1 with *y when one rewrote it, 0 when none, -1 on error. */
static int try_rules(engine *e, const rdx_uop *n, const rdx_uop **y)
{
    int ok = e->ctx->fixed_ok; /* the rules' fixed points count only here (bottom-up,
                                   the sources simplified, results kept) */
    e->ctx->fixed_ok = e->persist;
    *y = rdx_rewriter_apply(e->rw, e->ctx, n, e->user);
    e->ctx->fixed_ok = ok;
    if (rdx_rewriter_failed_(e->rw))
        return -1;
    return *y != NULL;
}

/* n with its sources replaced by their results; NULL on error. */
static const rdx_uop *rebuild(engine *e, const rdx_uop *n, int *changed)
{
    if (n->nsrc > e->srccap) {
        size_t nc = n->nsrc * 2;
        const rdx_uop **nb = realloc(e->srcbuf, nc * sizeof *nb);
        if (!nb) {
            rdx_fail(RDX_ERR_NOMEM, "rewrite: out of memory");
            return NULL;
        }
        e->srcbuf = nb;
        e->srccap = nc;
    }
    *changed = 0;
    for (uint32_t k = 0; k < n->nsrc; k++) {
        const rdx_uop *r = memo_get(e, n->src[k]);
        e->srcbuf[k] = r;
        if (r != n->src[k])
            *changed = 1;
    }
    if (!*changed)
        return n;
    const rdx_uop *out;
    if (rdx_ir_make(e->ctx, (rdx_op)n->op, e->srcbuf, n->nsrc, &n->arg, n->tag, &out))
        return NULL;
    return out;
}

static rdx_status run(engine *e, const rdx_uop *root)
{
    rdx_status st = push(e, root, 0);
    while (!st && e->sp) {
        frame *f = &e->stack[e->sp - 1];
        const rdx_uop *n = f->n, *y;
        if (f->stage == 0) {
            if (memo_get(e, n)) { /* a duplicate pending frame, or simplified before */
                e->sp--;
                continue;
            }
            if ((st = rdx_nmap_put(&e->inprog, n, (void *)1)))
                break;
        }
        switch (f->stage) {
        case 0:
            if (e->topdown) {
                int r = try_rules(e, n, &y);
                if (r < 0)
                    return RDX_ERR_INVALID;
                if (r) {
                    f->stage = 3;
                    f->alias = y;
                    st = push(e, y, f->steps + 1);
                    break;
                }
            }
            f->stage = 1;
            {
                uint32_t steps = f->steps;
                for (uint32_t k = n->nsrc; k-- > 0 && !st;)
                    if (!memo_get(e, n->src[k]))
                        st = push(e, n->src[k], steps); /* reports a cycle if active */
            }
            break;
        case 1: {
            int changed;
            const rdx_uop *n2 = rebuild(e, n, &changed);
            if (!n2)
                return RDX_ERR_INVALID;
            if (changed && e->topdown) {
                f->stage = 3;
                f->alias = n2;
                st = push(e, n2, f->steps + 1);
                break;
            }
            if (changed) {
                const rdx_uop *m = memo_get(e, n2);
                if (m) {
                    st = finish(e, n, m);
                    break;
                }
            }
            int r = e->topdown ? 0 : try_rules(e, n2, &y);
            if (r < 0)
                return RDX_ERR_INVALID;
            if (r) {
                f->stage = 3;
                f->alias = y;
                if (changed) {
                    f->mid = n2;
                    st = rdx_nmap_put(&e->inprog, n2, (void *)1);
                }
                if (!st)
                    st = push(e, y, f->steps + 1);
                break;
            }
            if (changed)
                st = rdx_nmap_put(&e->memo, n2, n2);
            if (!st)
                st = finish(e, n, n2);
            break;
        }
        case 3: {
            const rdx_uop *r = memo_get(e, f->alias);
            /* an intermediate rebuilt node (bottom-up) shares the result */
            if (f->mid) {
                if (e->persist)
                    persist_put(e->ctx, f->mid, r);
                st = rdx_nmap_put(&e->memo, f->mid, r);
                st = st ? st : rdx_nmap_put(&e->inprog, f->mid, (void *)2);
            }
            st = st ? st : finish(e, n, r);
            break;
        }
        }
    }
    return st;
}

rdx_status rdx_ir_rewrite(rdx_ir_ctx *ctx, rdx_rewriter *rw, const rdx_uop *root, int mode,
                          void *user, const rdx_uop **out)
{
    engine e;
    memset(&e, 0, sizeof e);
    e.ctx = ctx;
    e.rw = rw;
    e.user = user;
    e.topdown = mode == RDX_RW_TOP_DOWN;
    e.persist = rw == ctx->sym && !user && !e.topdown && !ctx->refine_depth;
    rdx_nmap_init(&e.memo, ctx);
    rdx_nmap_init(&e.inprog, ctx);
    rdx_rewriter_failed_(rw);
    rdx_status st = run(&e, root);
    if (!st)
        *out = memo_get(&e, root);
    /* verify-after-rewrite (off by default; RDX_IR_VERIFY=1, the test suites) */
    if (!st && ctx->verify && (st = rdx_ir_verify(ctx, *out)))
        st = rdx_fail_context(st, "graph after rewrite does not verify");
    rdx_nmap_free(&e.memo);
    rdx_nmap_free(&e.inprog);
    free(e.stack);
    free(e.srcbuf);
    return st;
}

rdx_status rdx_ir_substitute(rdx_ir_ctx *ctx, const rdx_uop *root, const rdx_uop *const *from,
                             const rdx_uop *const *to, size_t n, const rdx_uop **out)
{
    return rdx_ir_substitute_keep(ctx, root, from, to, n, NULL, out);
}

rdx_status rdx_ir_substitute_keep(rdx_ir_ctx *ctx, const rdx_uop *root, const rdx_uop *const *from,
                                  const rdx_uop *const *to, size_t n, int (*keep)(const rdx_uop *),
                                  const rdx_uop **out)
{
    /* map: from[k] -> to[k], and every rebuilt node -> its new node; a node not in the
       map is kept as it is */
    rdx_nmap map;
    rdx_nmap_init(&map, ctx);
    const rdx_uop *const *order = NULL;
    const rdx_uop **buf = NULL;
    size_t cnt = 0, cap = 0;
    rdx_status st = RDX_OK;
    const rdx_uop **own = NULL; /* the order when it is not the cache's */
    for (size_t k = 0; k < n && !st; k++)
        st = rdx_nmap_put(&map, from[k], to[k]);
    /* the order of a graph of this context (its nodes live as long as the context) comes
       from the cache, unless a substitution nested in this one (through rdx_ir_make's
       derivation or `keep`) runs: it must not evict the order its caller reads */
    int cached = 0;
    if (!st && !ctx->tbusy && root->id < ctx->count && ctx->nodes[root->id] == root &&
        !(st = rdx_ir_topo_cached(ctx, root, &order, &cnt))) {
        cached = 1;
        ctx->tbusy = 1;
    }
    if (!st && !cached && !(st = rdx_ir_toposort(root, &own, &cnt)))
        order = own;
    /* A node of ctx made before every from[k] (all of ctx) cannot reach one: its sources
       were all made before it.  Such nodes are kept without looking at their sources. */
    uint32_t minid = (uint32_t)ctx->count;
    for (size_t k = 0; k < n && minid; k++) {
        const rdx_uop *f = from[k];
        if (f->id >= ctx->count || ctx->nodes[f->id] != f)
            minid = 0; /* another context's node: no shortcut */
        else if (f->id < minid)
            minid = f->id;
    }
    for (size_t i = 0; i < cnt && !st; i++) {
        const rdx_uop *u = order[i];
        if (u->id < minid && ctx->nodes[u->id] == u)
            continue;
        if (rdx_nmap_get(&map, u))
            continue;
        if (keep && keep(u)) /* kept whole: nothing under it is replaced */
            continue;
        if (u->nsrc > cap) {
            const rdx_uop **nb = realloc(buf, u->nsrc * 2 * sizeof *nb);
            if (!nb) {
                st = rdx_fail(RDX_ERR_NOMEM, "substitute: out of memory");
                break;
            }
            buf = nb;
            cap = u->nsrc * 2;
        }
        int changed = 0;
        for (uint32_t k = 0; k < u->nsrc; k++) {
            const rdx_uop *r = rdx_nmap_get(&map, u->src[k]);
            buf[k] = r ? r : u->src[k];
            changed |= buf[k] != u->src[k];
        }
        const rdx_uop *r = u;
        if (changed && !(st = rdx_ir_make(ctx, (rdx_op)u->op, buf, u->nsrc, &u->arg, u->tag, &r)))
            st = rdx_nmap_put(&map, u, r);
    }
    if (!st) {
        const rdx_uop *r = rdx_nmap_get(&map, root);
        *out = r ? r : root;
    }
    if (cached)
        ctx->tbusy = 0;
    free(own);
    free(buf);
    rdx_nmap_free(&map);
    return st;
}

rdx_status rdx_ir_inline(rdx_ir_ctx *ctx, const rdx_uop *fn, const rdx_uop **out)
{
    if (fn->op != RDX_OP_FUNCTION)
        return rdx_fail(RDX_ERR_INVALID, "inline: %s is not a FUNCTION",
                        rdx_op_name((rdx_op)fn->op));
    const rdx_uop **order, **from = NULL, **to = NULL;
    size_t n, np = 0;
    rdx_status st = rdx_ir_toposort(fn->src[0], &order, &n);
    if (st)
        return st;
    for (size_t i = 0; i < n && !st; i++) {
        const rdx_uop *p = order[i];
        if (p->op != RDX_OP_PARAM)
            continue;
        if (p->arg.i < 0 || p->arg.i + 1 >= fn->nsrc) {
            st = rdx_fail(RDX_ERR_INVALID, "inline: PARAM slot %lld has no argument (%u given)",
                          (long long)p->arg.i, fn->nsrc - 1);
            break;
        }
        const rdx_uop **nf = realloc(from, (np + 1) * sizeof *nf);
        if (nf)
            from = nf;
        const rdx_uop **nt = nf ? realloc(to, (np + 1) * sizeof *nt) : NULL;
        if (!nf || !nt) {
            st = rdx_fail(RDX_ERR_NOMEM, "inline: out of memory");
            break;
        }
        to = nt;
        from[np] = p;
        to[np++] = fn->src[1 + p->arg.i];
    }
    if (!st)
        st = rdx_ir_substitute(ctx, fn->src[0], from, to, np, out);
    free(order);
    free(from);
    free(to);
    return st;
}
