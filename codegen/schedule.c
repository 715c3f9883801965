/* codegen/schedule.c — rangeify's kernel split and the schedule: which
 * tensors are materialised, which are fused, which independent results share
 * a kernel, kernel dependencies and buffer lifetimes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/rangeify_internal.h"
#include "util/error.h"

typedef struct sched_state {
    rdx_ir_ctx *ctx;
    const rdx_uop **order; /* topological order of the function body */
    size_t norder;
    rdx_ir_nodemap *pos; /* node -> position + 1 (by node id) */
    int *bufid;          /* per position: buffer id or -1 */
    char *rowf;   /* per position: a row-fused REDUCE (inlined into its broadcasting readers) */
    char *reads;  /* per position: the node reads a buffer (a PARAM is reachable) */
    char *inside; /* per position: a node of a PROGRAM (code, not part of the schedule) */
    rdx_schedule *s;
} sched_state;

static size_t pos_of(const sched_state *S, const rdx_uop *u)
{
    return (size_t)(uintptr_t)rdx_ir_nodemap_get(S->pos, u);
}

static int buffer_of(void *user, const rdx_uop *u)
{
    sched_state *S = user;
    size_t p = pos_of(S, u);
    return p ? S->bufid[p - 1] : -1;
}

static int row_fused(void *user, const rdx_uop *u)
{
    sched_state *S = user;
    size_t p = pos_of(S, u);
    return p && S->rowf[p - 1];
}

/*
 * Row fusion: a REDUCE read through a broadcast (softmax's row max and row sum,
 * layernorm's mean and variance) is inlined into the kernels reading it instead of
 * materialised, when there are at least ROW_MIN_ROWS outputs (rows: one work-item or
 * workgroup each, whatever their number; a single row would leave the fused kernel no
 * row axis to put on the GPU's grid, so it keeps the split, as do split_reduce.c's long
 * reductions to one output) of at most ROW_MAX_LEN elements each (a row is reduced by
 * one work-item or one workgroup: longer rows are better materialised by many groups).
 * Symbolic counts are taken to pass.  Only reductions that read a buffer are fused (what
 * fusion saves is reading the row again; arange's cumsum of ones reads nothing and is
 * cheaper loaded than recomputed).  The kernel then evaluates the reduction once per
 * row (cg_build_kernel checks it; else the REDUCE is materialised after all) and loops
 * over the row's columns.
 */
#define ROW_MIN_ROWS 2
#define ROW_MAX_LEN  16384
static int row_fusable(const rdx_uop *u)
{
    int64_t rows = 1, len = 1, v;
    const rdx_uop *s = u->src[0];
    for (uint32_t k = 0; k < u->ndim; k++)
        rows = rows > 0 && rdx_uop_dim(u, k, &v) ? rows * v : -1;
    for (uint32_t j = 0; j < u->arg.nints && len > 0; j++)
        len = rdx_uop_dim(s, (uint32_t)u->arg.ints[j], &v) ? len * v : -1;
    return (rows < 0 || rows >= ROW_MIN_ROWS) && len <= ROW_MAX_LEN;
}

/* Does v read its source u at more points than it has elements (recomputation if fused)? */
static int reads_dup(const rdx_uop *v, const rdx_uop *u, uint32_t slot)
{
    if (v->op == RDX_OP_EXPAND)
        return 1;
    if (v->op == RDX_OP_INDEX && slot == 0)
        return 1;
    if (rdx_op_info((rdx_op)v->op)->flags & RDX_OPF_ELEMENTWISE) {
        if (u->ndim != v->ndim)
            return u->ndim != 0 || u->op != RDX_OP_CONST;
        for (uint32_t k = 0; k < u->ndim; k++)
            if (u->shape[k] != v->shape[k])
                return 1;
    }
    return 0;
}

static int is_value_src(const rdx_uop *v, uint32_t slot)
{
    switch (v->op) {
    case RDX_OP_RESHAPE:
    case RDX_OP_EXPAND:
    case RDX_OP_PAD:
    case RDX_OP_SHRINK:
        return slot == 0;
    case RDX_OP_AFTER: /* the target buffer is not read; the STOREs' values are */
    case RDX_OP_STORE:
    case RDX_OP_CALL: /* a PROGRAM's arguments (the PROGRAM is code) */
        return slot >= 1;
    case RDX_OP_PROGRAM:
        return 0;
    case RDX_OP_PARAM:
    case RDX_OP_BUFFER:
    case RDX_OP_RANGE:
        return 0;
    default:
        return 1;
    }
}

/* The CALL of AFTER(PARAM p, CALL(PROGRAM, args...)) when p is one of the arguments, else
   NULL. */
static const rdx_uop *program_call(const rdx_uop *u)
{
    if (u->op != RDX_OP_AFTER || u->nsrc != 2 || u->src[0]->op != RDX_OP_PARAM ||
        u->src[1]->op != RDX_OP_CALL || u->src[1]->src[0]->op != RDX_OP_PROGRAM)
        return NULL;
    for (uint32_t k = 1; k < u->src[1]->nsrc; k++)
        if (u->src[1]->src[k] == u->src[0])
            return u->src[1];
    return NULL;
}

/* The assignments the scheduler handles: AFTER(PARAM p, STORE(PARAM p, value)), and
   AFTER(PARAM p, CALL(PROGRAM, ..., p, ...)). */
rdx_status cg_check_assign(const rdx_uop *u)
{
    if (program_call(u))
        return RDX_OK;
    if (u->nsrc == 2 && u->src[1]->op == RDX_OP_CALL)
        return rdx_fail(RDX_ERR_UNSUPPORTED,
                        "schedule: AFTER node #%u: a CALL is scheduled as AFTER(buffer, "
                        "CALL(PROGRAM, ..., buffer, ...)): the buffer it names must be one of the "
                        "CALL's arguments (and a BUFFER)",
                        u->id);
    if (u->src[0]->op != RDX_OP_PARAM || u->nsrc != 2 || u->src[1]->op != RDX_OP_STORE ||
        u->src[1]->nsrc != 2 || u->src[1]->src[0] != u->src[0])
        return rdx_fail(RDX_ERR_UNSUPPORTED,
                        "schedule: AFTER node #%u: only AFTER(buffer, STORE(buffer, value)) "
                        "assignments are scheduled",
                        u->id);
    return RDX_OK;
}

static rdx_status add_buffer(rdx_schedule *s, rdx_sbuf_kind kind, const rdx_uop *t, rdx_ir_ctx *c)
{
    rdx_sched_buffer *nb = realloc(s->buffers, (s->nbuffers + 1) * sizeof *nb);
    if (!nb)
        return rdx_fail(RDX_ERR_NOMEM, "schedule: out of memory");
    s->buffers = nb;
    rdx_sched_buffer *b = &nb[s->nbuffers++];
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->dtype = rdx_dtype_scalar(t->dtype);
    b->tensor = t;
    b->output = -1;
    b->first = b->last = -1;
    const rdx_uop *ne = cg_prod(c, t->shape, t->ndim), *sn = NULL;
    if (!ne || rdx_ir_simplify(c, ne, &sn))
        return rdx_fail_context(RDX_ERR_INVALID, "schedule: size of node #%u", t->id);
    b->numel = sn;
    return RDX_OK;
}

typedef struct group {
    const rdx_uop *nodes[8];
    uint32_t bufs[8];
    size_t n;
    uint32_t *reads; /* buffers read */
    size_t nreads;
    int is_copy;
    const rdx_uop *call; /* a CALL of a PROGRAM: run as it is (reads = its arguments) */
    int rowfused;        /* the kernel inlines row-fused REDUCEs (never merged with another) */
    /* the first lowering's kernel (for the final one when nothing was merged into it:
       lowering is deterministic and interned, so it would build the same sink again) */
    const rdx_uop *sink;
} group;

/* Whether kernel k writes its PARAM slot p. */
static int kernel_writes(const rdx_sched_kernel *k, uint32_t p)
{
    return p < k->nouts || (k->program && p == k->program_out);
}

/* A PROGRAM's group reads its CALL's arguments, in order (each a buffer by now). */
static rdx_status call_params(sched_state *S, group *g)
{
    const rdx_uop *call = g->call;
    g->nreads = call->nsrc - 1;
    g->reads = malloc((g->nreads + 1) * sizeof *g->reads);
    if (!g->reads)
        return rdx_fail(RDX_ERR_NOMEM, "schedule: out of memory");
    for (uint32_t k = 1; k < call->nsrc; k++) {
        int b = S->bufid[pos_of(S, call->src[k]) - 1];
        if (b < 0)
            return rdx_fail(RDX_ERR_INVALID,
                            "schedule: CALL node #%u: argument %u (node #%u) has no buffer",
                            call->id, k - 1, call->src[k]->id);
        g->reads[k - 1] = (uint32_t)b;
    }
    return RDX_OK;
}

static rdx_status lower_group(sched_state *S, group *g, const rdx_uop **sink, uint32_t **params,
                              uint32_t *nparams, const rdx_uop **refuse)
{
    cg_lower L;
    memset(&L, 0, sizeof L);
    L.ctx = S->ctx;
    L.buffer_of = buffer_of;
    L.user = S;
    L.bufs = S->s->buffers;
    L.row_fused = row_fused;
    rdx_status st = cg_build_kernel(&L, g->nodes, g->n, g->bufs, sink);
    cg_map_free(&L.memo);
    free(L.fused);
    g->rowfused = L.nfused > 0;
    if (refuse)
        *refuse = L.refuse;
    if (st)
        return st;
    *params = malloc(L.nparams * sizeof **params);
    if (!*params)
        return rdx_fail(RDX_ERR_NOMEM, "schedule: out of memory");
    memcpy(*params, L.params, L.nparams * sizeof **params);
    *nparams = L.nparams;
    return RDX_OK;
}

static int reads_buf(const group *g, uint32_t b)
{
    for (size_t i = 0; i < g->nreads; i++)
        if (g->reads[i] == b)
            return 1;
    return 0;
}

static int writes_buf(const group *g, uint32_t b)
{
    for (size_t i = 0; i < g->n; i++)
        if (g->bufs[i] == b)
            return 1;
    return 0;
}

/* Kernel j depends on kernel i (directly). */
static int dep(const group *G, size_t i, size_t j)
{
    for (size_t k = 0; k < G[i].n; k++)
        if (reads_buf(&G[j], G[i].bufs[k]))
            return 1;
    return 0;
}

static int same_shape(const rdx_uop *a, const rdx_uop *b)
{
    if (a->ndim != b->ndim)
        return 0;
    for (uint32_t k = 0; k < a->ndim; k++)
        if (a->shape[k] != b->shape[k])
            return 0;
    return 1;
}

static void kernel_name(rdx_sched_kernel *k, const group *g)
{
    const rdx_uop *u = g->nodes[0];
    int red = 0;
    const rdx_uop **order = NULL;
    size_t n = 0;
    if (!rdx_ir_toposort(k->sink, &order, &n))
        for (size_t i = 0; i < n; i++)
            red |= order[i]->op == RDX_OP_REDUCE;
    free(order);
    int p = snprintf(k->name, sizeof k->name, "%s", g->is_copy ? "copy" : red ? "r" : "E");
    for (uint32_t d = 0; d < u->ndim && p < (int)sizeof k->name - 8; d++) {
        int64_t v;
        if (rdx_uop_dim(u, d, &v))
            p += snprintf(k->name + p, sizeof k->name - p, "_%lld", (long long)v);
        else
            p += snprintf(k->name + p, sizeof k->name - p, "_s");
    }
}

static rdx_status collect_vars(rdx_schedule *s)
{
    /* the kernels' variables, and those of buffer sizes (an input no kernel reads
       element by element still has its size: realize evaluates it) */
    for (size_t k = 0; k < s->nkernels + s->nbuffers; k++) {
        const rdx_uop **order = NULL;
        size_t n = 0;
        const rdx_uop *root =
            k < s->nkernels ? s->kernels[k].sink : s->buffers[k - s->nkernels].numel;
        if (!root)
            continue;
        rdx_status st = rdx_ir_toposort(root, &order, &n);
        if (st)
            return st;
        for (size_t i = 0; i < n; i++) {
            if (order[i]->op != RDX_OP_DEFINE_VAR)
                continue;
            size_t j;
            for (j = 0; j < s->nvars && s->vars[j] != order[i]; j++)
                ;
            if (j < s->nvars)
                continue;
            const rdx_uop **nv = realloc(s->vars, (s->nvars + 1) * sizeof *nv);
            if (!nv) {
                free(order);
                return rdx_fail(RDX_ERR_NOMEM, "schedule: out of memory");
            }
            s->vars = nv;
            /* sorted by name, as the back end orders kernel arguments */
            for (j = s->nvars; j > 0 && strcmp(nv[j - 1]->arg.str, order[i]->arg.str) > 0; j--)
                nv[j] = nv[j - 1];
            nv[j] = order[i];
            s->nvars++;
        }
        free(order);
    }
    return RDX_OK;
}

/* The kernel split: what is materialised (one kernel each, in G[0..*ng)), buffers and
   outputs.  force[i]: a REDUCE that must be materialised.  users[i]: node i's value
   users; a fused movement op's users are added to its source's (updated here: the
   caller passes a fresh copy to each call). */
static rdx_status split_kernels(sched_state *S, const rdx_uop *body, char *mat, char *dup,
                                const char *force, uint32_t *users, group *G, size_t *ngp)
{
    rdx_schedule *s = S->s;
    rdx_ir_ctx *ctx = S->ctx;
    size_t N = S->norder, ng = 0;
    uint32_t nroots = (uint32_t)body->nsrc;
    rdx_status st = RDX_OK;
    /* materialisation, users before sources */
    for (size_t i = N; i-- > 0 && !st;) {
        const rdx_uop *u = S->order[i];
        if (u == body || S->inside[i])
            continue;
        int root = 0;
        for (uint32_t r = 0; r < body->nsrc; r++)
            root |= body->src[r] == u;
        if (u->op == RDX_OP_PARAM) {
            mat[i] = root; /* an input returned as is: copied */
            continue;
        }
        if (u->op == RDX_OP_AFTER) {
            st = cg_check_assign(u);
            if (st)
                break;
            /* a PROGRAM's arguments are buffers: every one that is not an input is
               materialised */
            const rdx_uop *call = program_call(u);
            for (uint32_t k = 1; call && k < call->nsrc; k++)
                if (call->src[k]->op != RDX_OP_PARAM)
                    mat[pos_of(S, call->src[k]) - 1] = 1;
        }
        if (root || u->op == RDX_OP_CONTIGUOUS || u->op == RDX_OP_LOAD || u->op == RDX_OP_AFTER ||
            (u->op == RDX_OP_REDUCE && (dup[i] || users[i] > 1)))
            mat[i] = 1;
        if (mat[i] && !root && u->op == RDX_OP_REDUCE && dup[i] && !force[i] && S->reads[i] &&
            row_fusable(u)) {
            mat[i] = 0;
            S->rowf[i] = 1;
        }
        /* propagate duplication to the sources */
        for (uint32_t k = 0; k < u->nsrc; k++) {
            if (!is_value_src(u, k) || u == body)
                continue;
            size_t p = pos_of(S, u->src[k]) - 1;
            if (reads_dup(u, u->src[k], k) || (!mat[i] && dup[i]))
                dup[p] = 1;
            /* a fused movement op read by several users reads its source that often: a
               REDUCE behind it is materialised, not recomputed in each user's kernel (each
               copy rounds its own way: x - min(x) < 0; fuzz seeds 1102298, 1100576) */
            if (!mat[i] && users[i] > 1 && rdx_op_info((rdx_op)u->op)->cat == RDX_CAT_MOVEMENT)
                users[p] += users[i] - 1;
        }
    }
    /* buffers: inputs (PARAM k = buffer k), then materialised nodes in order */
    for (uint32_t a = 1; a < (st ? 0 : s->function->nsrc); a++) {
        const rdx_uop *orig = s->function->src[a];
        st = add_buffer(s, RDX_SBUF_INPUT, orig, ctx);
        if (st)
            break;
    }
    for (size_t i = 0; i < N && !st; i++) {
        const rdx_uop *u = S->order[i];
        if (S->inside[i])
            continue;
        if (u->op == RDX_OP_PARAM)
            S->bufid[i] = (int)u->arg.i;
        if (!mat[i])
            continue;
        int root = -1;
        for (uint32_t r = 0; r < body->nsrc; r++)
            if (body->src[r] == u && root < 0)
                root = (int)r;
        uint32_t b;
        if (u->op == RDX_OP_AFTER) {
            /* an assignment writes its target buffer in place (an input slot) */
            b = (uint32_t)u->src[0]->arg.i;
            s->buffers[b].written = 1;
        } else {
            st = add_buffer(s, root >= 0 ? RDX_SBUF_OUTPUT : RDX_SBUF_TEMP, u, ctx);
            if (st)
                break;
            b = (uint32_t)(s->nbuffers - 1);
            s->buffers[b].output = root;
        }
        group *g = &G[ng++];
        g->nodes[0] = u;
        g->bufs[0] = b;
        g->n = 1;
        g->call = program_call(u);
        g->is_copy = u->op == RDX_OP_LOAD || u->op == RDX_OP_PARAM ||
                     (u->op == RDX_OP_CONTIGUOUS && u->src[0]->op == RDX_OP_PARAM);
        if (u->op != RDX_OP_PARAM)
            S->bufid[i] = (int)b;
    }
    for (uint32_t r = 0; r < nroots && !st; r++) {
        const rdx_uop *u = body->src[r];
        for (size_t b = 0; b < s->nbuffers; b++)
            if (s->buffers[b].kind == RDX_SBUF_OUTPUT && s->buffers[b].tensor == u)
                s->outputs[r] = (uint32_t)b;
        if (u->op == RDX_OP_AFTER)
            s->outputs[r] = (uint32_t)u->src[0]->arg.i;
    }
    s->noutputs = nroots;
    *ngp = ng;
    return st;
}

rdx_status rdx_cg_schedule(rdx_ir_ctx *ctx, const rdx_uop *const *roots, size_t nroots,
                           rdx_schedule **out)
{
    *out = NULL;
    sched_state S;
    memset(&S, 0, sizeof S);
    S.ctx = ctx;
    rdx_schedule *s = calloc(1, sizeof *s);
    if (!s)
        return rdx_fail(RDX_ERR_NOMEM, "schedule: out of memory");
    S.s = s;
    group *G = NULL;
    size_t ng = 0;
    char *mat = NULL, *dup = NULL, *force = NULL;
    uint32_t *users = NULL, *users0 = NULL;
    rdx_status st = RDX_OK;
    for (size_t r = 0; r < nroots && !st; r++)
        if (roots[r] && roots[r]->dtype.scalar == RDX_VOID)
            st = rdx_fail(RDX_ERR_UNSUPPORTED,
                          "schedule: root %zu is %s node #%u, a side effect without a value: the "
                          "scheduler takes tensors and assignments AFTER(buffer, STORE(buffer, "
                          "value)) (rdx_realize_run makes those of a SINK of STOREs)",
                          r, rdx_op_name((rdx_op)roots[r]->op), roots[r]->id);
    if (!st)
        st = rdx_cg_callify(ctx, roots, nroots, &s->function);
    if (!st) /* large reductions to few outputs become two kernels (split_reduce.c) */
        st = cg_split_reduces(ctx, s->function, &s->function);
    const rdx_uop *body = st ? NULL : s->function->src[0];
    if (!st)
        st = rdx_ir_toposort(body, &S.order, &S.norder);
    size_t N = S.norder;
    if (!st) {
        S.bufid = malloc((N + 1) * sizeof *S.bufid);
        mat = calloc(N + 1, 1);
        dup = calloc(N + 1, 1);
        force = calloc(N + 1, 1);
        S.rowf = calloc(N + 1, 1);
        S.reads = calloc(N + 1, 1);
        S.inside = calloc(N + 1, 1);
        users = calloc(N + 1, sizeof *users);
        users0 = calloc(N + 1, sizeof *users0);
        s->outputs = calloc(nroots, sizeof *s->outputs);
        G = calloc(N + 1, sizeof *G);
        if (!S.bufid || !mat || !dup || !force || !S.rowf || !S.reads || !S.inside || !users ||
            !users0 || !s->outputs || !G)
            st = rdx_fail(RDX_ERR_NOMEM, "schedule: out of memory");
    }
    if (!st)
        st = rdx_ir_nodemap_create(ctx, &S.pos);
    for (size_t i = 0; i < N && !st; i++) {
        st = rdx_ir_nodemap_put(S.pos, S.order[i], (const void *)(uintptr_t)(i + 1));
        S.bufid[i] = -1;
    }
    /* the nodes of PROGRAMs (their sinks and code) are no part of the schedule */
    for (size_t i = N; i-- > 0 && !st;) {
        const rdx_uop *u = S.order[i];
        if (u->op != RDX_OP_PROGRAM && !S.inside[i])
            continue;
        for (uint32_t k = 0; k < u->nsrc; k++)
            S.inside[pos_of(&S, u->src[k]) - 1] = 1;
    }
    /* users; which nodes read a buffer */
    for (size_t i = 0; i < N && !st; i++) {
        const rdx_uop *v = S.order[i];
        S.reads[i] = v->op == RDX_OP_PARAM;
        if (v == body)
            continue;
        for (uint32_t k = 0; k < v->nsrc; k++)
            if (is_value_src(v, k)) {
                size_t p = pos_of(&S, v->src[k]) - 1;
                users0[p]++;
                S.reads[i] |= S.reads[p];
            }
    }
    /* row-fused REDUCEs whose kernel would recompute them (cg_build_kernel refuses) are
       materialised (force) and the split is made again */
    for (int again = 1; again && !st;) {
        again = 0;
        for (size_t i = 0; i < ng; i++)
            free(G[i].reads);
        memset(G, 0, (N + 1) * sizeof *G);
        ng = 0;
        s->nbuffers = 0;
        memset(mat, 0, N + 1);
        memset(dup, 0, N + 1);
        memset(S.rowf, 0, N + 1);
        for (size_t i = 0; i < N; i++)
            S.bufid[i] = -1;
        memcpy(users, users0, (N + 1) * sizeof *users); /* split_kernels adds to them */
        st = split_kernels(&S, body, mat, dup, force, users, G, &ng);
        /* first lowering: what each kernel reads */
        for (size_t i = 0; i < ng && !st; i++) {
            const rdx_uop *sink, *refuse = NULL;
            uint32_t *params, np;
            if (G[i].call) {
                st = call_params(&S, &G[i]);
                continue;
            }
            st = lower_group(&S, &G[i], &sink, &params, &np, &refuse);
            if (st == RDX_ERR_UNSUPPORTED && refuse) {
                force[pos_of(&S, refuse) - 1] = 1;
                st = RDX_OK;
                again = 1;
                break;
            }
            if (st)
                break;
            G[i].reads = params;
            G[i].nreads = np;
            G[i].sink = sink;
        }
    }
    /* multi-output kernels: merge j into i when of equal shape, sharing an input,
       and every kernel j depends on runs before i */
    for (size_t j = 1; j < ng && !st; j++) {
        if (G[j].is_copy || !G[j].n || G[j].rowfused || G[j].call)
            continue;
        for (size_t i = 0; i < j; i++) {
            if (!G[i].n || G[i].is_copy || G[i].rowfused || G[i].call || G[i].n >= 8 ||
                !same_shape(G[i].nodes[0], G[j].nodes[0]))
                continue;
            int ok = 1, share = 0;
            for (size_t k = i; k < j && ok; k++)
                if (G[k].n && dep(G, k, j))
                    ok = 0;
            for (size_t r = 0; r < G[j].nreads && ok; r++)
                share |= !writes_buf(&G[j], G[j].reads[r]) && reads_buf(&G[i], G[j].reads[r]);
            if (!ok || !share)
                continue;
            G[i].nodes[G[i].n] = G[j].nodes[0];
            G[i].bufs[G[i].n++] = G[j].bufs[0];
            G[i].sink = NULL; /* lowered again with both outputs */
            G[j].n = 0;
            break;
        }
    }
    /* final kernels */
    s->kernels = calloc(ng ? ng : 1, sizeof *s->kernels);
    int *kidx = calloc(ng ? ng : 1, sizeof *kidx);
    if (!st && (!s->kernels || !kidx))
        st = rdx_fail(RDX_ERR_NOMEM, "schedule: out of memory");
    for (size_t i = 0; i < ng && !st; i++) {
        if (!G[i].n)
            continue;
        rdx_sched_kernel *k = &s->kernels[s->nkernels];
        kidx[i] = (int)s->nkernels++;
        if (G[i].call) { /* a PROGRAM: its arguments in order */
            k->program = G[i].call->src[0];
            k->sink = k->program->src[0];
            k->params = G[i].reads;
            k->nparams = (uint32_t)G[i].nreads;
            G[i].reads = NULL;
            for (uint32_t p = 0; p < k->nparams; p++)
                if (k->params[p] == G[i].bufs[0])
                    k->program_out = p;
        } else if (G[i].sink) { /* the first lowering's result: its params are G[i].reads */
            k->sink = G[i].sink;
            k->params = G[i].reads;
            k->nparams = (uint32_t)G[i].nreads;
            G[i].reads = NULL;
        } else {
            st = lower_group(&S, &G[i], &k->sink, &k->params, &k->nparams, NULL);
        }
        if (st)
            break;
        k->nouts = G[i].call ? 0 : (uint32_t)G[i].n;
        k->is_copy = G[i].is_copy;
        if (G[i].call)
            snprintf(k->name, sizeof k->name, "program_%u", k->program->id);
        else
            kernel_name(k, &G[i]);
        k->deps = calloc(ng, sizeof *k->deps);
        if (!k->deps) {
            st = rdx_fail(RDX_ERR_NOMEM, "schedule: out of memory");
            break;
        }
        uint32_t me = (uint32_t)(s->nkernels - 1);
        for (uint32_t p = 0; p < k->nparams; p++) {
            rdx_sched_buffer *b = &s->buffers[k->params[p]];
            if (b->first < 0)
                b->first = (int32_t)me;
            b->last = (int32_t)me;
            if (kernel_writes(k, p))
                continue;
            for (uint32_t q = 0; q < me; q++) {
                const rdx_sched_kernel *o = &s->kernels[q];
                for (uint32_t w = 0; w < o->nparams; w++) {
                    if (!kernel_writes(o, w) || o->params[w] != k->params[p])
                        continue;
                    uint32_t d;
                    for (d = 0; d < k->ndeps && k->deps[d] != q; d++)
                        ;
                    if (d == k->ndeps)
                        k->deps[k->ndeps++] = q;
                }
            }
        }
    }
    if (!st)
        st = collect_vars(s);
    for (size_t i = 0; i < ng; i++)
        free(G[i].reads);
    free(G);
    free(kidx);
    free(mat);
    free(dup);
    free(force);
    free(S.rowf);
    free(S.reads);
    free(S.inside);
    free(users);
    free(users0);
    free(S.order);
    free(S.bufid);
    rdx_ir_nodemap_free(S.pos);
    if (st) {
        rdx_schedule_free(s);
        return st;
    }
    *out = s;
    return RDX_OK;
}

void rdx_schedule_free(rdx_schedule *s)
{
    if (!s)
        return;
    for (size_t k = 0; k < s->nkernels; k++) {
        free(s->kernels[k].params);
        free(s->kernels[k].deps);
    }
    free(s->kernels);
    free(s->buffers);
    free(s->outputs);
    free(s->vars);
    free(s);
}
