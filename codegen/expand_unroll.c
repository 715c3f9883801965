/*
 * codegen/expand_unroll.c — expand's unrolling of UPCAST and UNROLL ranges in
 * one pass over the kernel.
 *
 * Every node gets the set D of expanded ranges it depends on and one copy per
 * assignment of values to D (mixed radix, the lowest range fastest): a RANGE
 * of the set is its constants 0..n-1, any other node is rebuilt per
 * assignment from its sources' copies (a source reads the projection of the
 * assignment onto its own set), a REDUCE closing expanded ranges combines the
 * copies over them in order (then keeps its other ranges), and an END in the
 * SINK closing expanded ranges becomes one END per assignment.  The work is
 * proportional to the expanded kernel, not to (copies x kernel) as
 * substituting range by range would be.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/front_internal.h"
#include "util/error.h"

#define XMAX    16         /* expanded ranges per kernel */
#define XCOPIES (1u << 14) /* copies of one node */

typedef struct xinfo {
    uint32_t mask;  /* expanded ranges the node depends on (bit j = xr[j]) */
    uint32_t count; /* copies (list of ENDs for a closing END) */
    size_t off;     /* first copy in pool */
    int list;       /* an END closing expanded ranges: `count` ENDs, all kept */
} xinfo;

/* A linear index expression split as rest + c (rest NULL for 0), by node. */
typedef struct xsplit {
    const rdx_uop *rest;
    int64_t c;
} xsplit;

typedef struct xstate {
    rdx_ir_ctx *ctx;
    const rdx_uop *xr[XMAX];
    int64_t sz[XMAX];
    int nx;
    uint32_t *idx; /* node id -> info index + 1 (dense: ids of the kernel's nodes) */
    uint32_t maxid;
    xinfo *info;
    const rdx_uop **pool;
    size_t npool, cappool;
    uint8_t *lin;       /* node id -> bit 0: a linear index expression (ADD, MUL, CONST, leaves);
                           bit 1: depends on an expanded range */
    rdx_ir_nodemap *sm; /* node -> index + 1 in sp[] */
    xsplit *sp;
    size_t nsp, capsp;
} xstate;

static int xbit(const xstate *X, const rdx_uop *r)
{
    for (int j = 0; j < X->nx; j++)
        if (X->xr[j] == r)
            return j;
    return -1;
}

static uint32_t count_of(const xstate *X, uint32_t mask)
{
    uint64_t c = 1;
    for (int j = 0; j < X->nx; j++)
        if (mask >> j & 1)
            c *= (uint64_t)X->sz[j];
    return c > XCOPIES ? 0 : (uint32_t)c;
}

/* Index of assignment v[] in the copies of a node with set `mask`. */
static uint32_t proj(const xstate *X, uint32_t mask, const int64_t *v)
{
    uint64_t i = 0, stride = 1;
    for (int j = 0; j < X->nx; j++)
        if (mask >> j & 1) {
            i += (uint64_t)v[j] * stride;
            stride *= (uint64_t)X->sz[j];
        }
    return (uint32_t)i;
}

/* Next assignment of the ranges in mask (lowest fastest); 0 after the last. */
static int next(const xstate *X, uint32_t mask, int64_t *v)
{
    for (int j = 0; j < X->nx; j++) {
        if (!(mask >> j & 1))
            continue;
        if (++v[j] < X->sz[j])
            return 1;
        v[j] = 0;
    }
    return 0;
}

static const xinfo *info_of(const xstate *X, const rdx_uop *u)
{
    uint32_t k = u->id <= X->maxid ? X->idx[u->id] : 0;
    return k ? &X->info[k - 1] : NULL;
}

/* Copy of source s under assignment v (s itself when it was not rebuilt). */
static const rdx_uop *copy_of(const xstate *X, const rdx_uop *s, const int64_t *v)
{
    const xinfo *i = info_of(X, s);
    if (!i)
        return s;
    return X->pool[i->off + (i->list ? 0 : proj(X, i->mask, v))];
}

static rdx_status reserve(xstate *X, size_t more)
{
    if (X->npool + more <= X->cappool)
        return RDX_OK;
    size_t nc = (X->cappool + more) * 2;
    const rdx_uop **np = realloc(X->pool, nc * sizeof *np);
    if (!np)
        return rdx_fail(RDX_ERR_NOMEM, "expand: out of memory");
    X->pool = np;
    X->cappool = nc;
    return RDX_OK;
}

/* u without the expanded ranges among src[1..] (END/REDUCE), body/value `first`. */
static const rdx_uop *drop_ranges(xstate *X, const rdx_uop *u, const rdx_uop *first)
{
    const rdx_uop *s[64];
    size_t n = 0;
    if (u->nsrc > 64)
        return NULL;
    s[n++] = first;
    for (uint32_t k = 1; k < u->nsrc; k++)
        if (xbit(X, u->src[k]) < 0)
            s[n++] = u->src[k];
    return n == 1 ? first : rdx_ir_replace_src(X->ctx, u, s, n);
}

static int is_const(const rdx_uop *u, int64_t *v)
{
    return u->op == RDX_OP_CONST && rdx_uop_const_int(u, v);
}

/*
 * Linear index expressions (ADD, MUL, CONST over ranges, thread ids and
 * variables) are copied split as rest + constant, as the simplification after
 * unrolling splits them (cg_simplify_unrolled: the same walk), so it finds
 * them done and rebuilds nothing above them.  split() is that walk, memoised.
 */
static int split(xstate *X, const rdx_uop *u, xsplit *out)
{
    int64_t k;
    if (rdx_uop_const_int(u, &k)) {
        *out = (xsplit){ NULL, k };
        return 1;
    }
    *out = (xsplit){ u, 0 };
    if (u->op != RDX_OP_ADD && u->op != RDX_OP_MUL)
        return 1;
    size_t at = (size_t)(uintptr_t)rdx_ir_nodemap_get(X->sm, u);
    if (at) {
        *out = X->sp[at - 1];
        return 1;
    }
    if (u->op == RDX_OP_ADD) {
        xsplit a, b;
        if (!split(X, u->src[0], &a) || !split(X, u->src[1], &b))
            return 0;
        out->c = a.c + b.c;
        out->rest = !a.rest ? b.rest : !b.rest ? a.rest : rdx_ir_add(X->ctx, a.rest, b.rest);
        if (a.rest && b.rest && !out->rest)
            return 0;
    } else if (rdx_uop_const_int(u->src[1], &k)) {
        xsplit a;
        if (!split(X, u->src[0], &a))
            return 0;
        out->c = a.c * k;
        out->rest = a.rest ? rdx_ir_mul(X->ctx, a.rest, u->src[1]) : NULL;
        if (a.rest && !out->rest)
            return 0;
    }
    if (X->nsp == X->capsp) {
        size_t nc = X->capsp ? X->capsp * 2 : 256;
        xsplit *ns = realloc(X->sp, nc * sizeof *ns);
        if (!ns)
            return 0;
        X->sp = ns, X->capsp = nc;
    }
    X->sp[X->nsp++] = *out;
    return !rdx_ir_nodemap_put(X->sm, u, (const void *)(uintptr_t)X->nsp);
}

/* The copy of linear u with sources s[], split: rest + c; NULL on error. */
static const rdx_uop *rebuild_linear(xstate *X, const rdx_uop *u, const rdx_uop *const *s)
{
    xsplit a, b, r;
    int64_t k;
    if (!split(X, s[0], &a))
        return NULL;
    if (u->op == RDX_OP_ADD) {
        if (!split(X, s[1], &b))
            return NULL;
        r.c = a.c + b.c;
        r.rest = !a.rest ? b.rest : !b.rest ? a.rest : rdx_ir_add(X->ctx, a.rest, b.rest);
        if (a.rest && b.rest && !r.rest)
            return NULL;
    } else if (rdx_uop_const_int(s[1], &k)) {
        r.c = a.c * k;
        r.rest = a.rest ? rdx_ir_mul(X->ctx, a.rest, s[1]) : NULL;
        if (a.rest && !r.rest)
            return NULL;
    } else {
        return rdx_ir_replace_src(X->ctx, u, s, u->nsrc);
    }
    if (!r.rest)
        return cg_idx(X->ctx, r.c);
    return r.c ? rdx_ir_add(X->ctx, r.rest, cg_idx(X->ctx, r.c)) : r.rest;
}

/*
 * u rebuilt with sources s[]: folded when the unrolled constants decide it
 * (integer/bool ALU ops over constants evaluated; WHERE, AND, OR with a
 * constant condition; a LOAD gated by a constant), so the branches of a
 * STACK's WHERE chain that an unrolled index never takes are not copied
 * further.
 */
static const rdx_uop *rebuild(xstate *X, const rdx_uop *u, const rdx_uop *const *s)
{
    rdx_ir_ctx *ctx = X->ctx;
    int64_t c;
    rdx_op op = (rdx_op)u->op;
    if (op == RDX_OP_WHERE && (is_const(s[0], &c) || s[1] == s[2]))
        return s[1] == s[2] || c ? s[1] : s[2];
    if ((op == RDX_OP_AND || op == RDX_OP_OR) && u->dtype.scalar == RDX_BOOL)
        for (int k = 0; k < 2; k++)
            if (is_const(s[k], &c))
                return (op == RDX_OP_AND) == (c != 0) ? s[1 - k] : s[k];
    if (op == RDX_OP_LOAD && u->nsrc >= 2 && is_const(s[u->nsrc - 1], &c)) {
        if (c)
            return rdx_ir_node(ctx, RDX_OP_LOAD, s, 1, NULL);
        return u->nsrc == 3 ? s[1] : cg_zero(ctx, u->dtype);
    }
    int fold = (rdx_op_info(op)->flags & RDX_OPF_ELEMENTWISE) && !rdx_dtype_is_float(u->dtype) &&
               u->dtype.count == 1;
    for (uint32_t k = 0; k < u->nsrc && fold; k++)
        fold = s[k]->op == RDX_OP_CONST && !rdx_dtype_is_float(s[k]->dtype);
    rdx_value v;
    if (fold && rdx_ir_fold_srcs(u, s, &v)) /* no node that would only be folded away */
        return rdx_ir_const_int(ctx, u->dtype, v.i);
    if ((X->lin[u->id] & 1) && (op == RDX_OP_ADD || op == RDX_OP_MUL))
        return rebuild_linear(X, u, s);
    const rdx_uop *r = rdx_ir_replace_src(ctx, u, s, u->nsrc);
    if (!r || !fold)
        return r;
    if (!rdx_ir_fold_const(r, &v)) {
        rdx_error_clear(); /* e.g. a division by zero: left to run time */
        return r;
    }
    return rdx_ir_const_int(ctx, u->dtype, v.i);
}

/* Is c a zero vector (VECTORIZE of zero CONSTs, or a VCONST of zeros)? */
static int zero_vec(const rdx_uop *c)
{
    for (uint32_t k = 0; k < c->dtype.count; k++) {
        double f = 1;
        if (c->op == RDX_OP_VCONST
                ? c->arg.ints[k] != 0
                : c->op != RDX_OP_VECTORIZE || !rdx_uop_const_val(c->src[k], &f) || f != 0)
            return 0;
    }
    return c->dtype.count > 1;
}

/* acc + c when c is a WMMA over a zero accumulator (or a CAT of such, as acc): the WMMA
   accumulating into acc (the chain the back end keeps in registers); NULL otherwise. */
static const rdx_uop *wmma_chain(rdx_ir_ctx *ctx, const rdx_uop *acc, const rdx_uop *c)
{
    if (c->op == RDX_OP_WMMA && zero_vec(c->src[2]) && rdx_dtype_eq(acc->dtype, c->dtype)) {
        const rdx_uop *s[3] = { c->src[0], c->src[1], acc };
        return rdx_ir_node(ctx, RDX_OP_WMMA, s, 3, &c->arg);
    }
    if (c->op != RDX_OP_CAT || acc->op != RDX_OP_CAT || c->nsrc != acc->nsrc || c->nsrc > 64)
        return NULL;
    const rdx_uop *p[64];
    for (uint32_t t = 0; t < c->nsrc; t++)
        if (!(p[t] = wmma_chain(ctx, acc->src[t], c->src[t])))
            return NULL;
    return rdx_ir_node(ctx, RDX_OP_CAT, p, c->nsrc, NULL);
}

/* The REDUCE op over two copies (ADD of WMMA results: chained). */
static const rdx_uop *combine(rdx_ir_ctx *ctx, rdx_redop op, const rdx_uop *acc, const rdx_uop *c)
{
    const rdx_uop *w = op == RDX_RED_ADD && c->dtype.count > 1 ? wmma_chain(ctx, acc, c) : NULL;
    return w ? w : cg_combine(ctx, op, acc, c);
}

/* The expanded ranges named by the (axis id, size) pairs of a CONTRACT/UNROLL: bit[i] (first
   pair slowest), their mask. */
static rdx_status vec_bits(const xstate *X, const rdx_uop *u, int *bit, uint32_t *mask)
{
    *mask = 0;
    if (u->arg.nints > 2 * XMAX)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "expand: %s node %%%u over more than %d axes",
                        rdx_op_name((rdx_op)u->op), u->id, XMAX);
    for (uint32_t p = 0; p + 1 < u->arg.nints; p += 2) {
        int j = -1;
        for (int q = 0; q < X->nx && j < 0; q++)
            if (X->xr[q]->arg.i == u->arg.ints[p])
                j = q;
        if (j < 0 || X->sz[j] != u->arg.ints[p + 1] || (*mask >> j & 1))
            return rdx_fail(RDX_ERR_INVALID,
                            "expand: %s node %%%u: axis %lld of size %lld is not an UPCAST/UNROLL "
                            "range of the kernel (once)",
                            rdx_op_name((rdx_op)u->op), u->id, (long long)u->arg.ints[p],
                            (long long)u->arg.ints[p + 1]);
        bit[p / 2] = j;
        *mask |= 1u << j;
    }
    return RDX_OK;
}

/*
 * CONTRACT(x, axes): per assignment of the other ranges, the copies of x over the axes (the
 * last fastest) gathered into one vector (VECTORIZE of scalars, CAT of vectors).
 * UNROLL(x, axes): the copy for values of the axes is that part (GEP) of x's vector, lane
 * index mixed radix over the axes (the last fastest); a VECTORIZE is read directly.
 */
static rdx_status visit_vec(xstate *X, const rdx_uop *u, size_t pos)
{
    int bit[XMAX];
    uint32_t vm, np = u->arg.nints / 2;
    rdx_status st = vec_bits(X, u, bit, &vm);
    if (st)
        return st;
    const xinfo *si = info_of(X, u->src[0]);
    uint32_t sm = si ? si->mask : 0;
    int contract = u->op == RDX_OP_CONTRACT;
    if (!contract && (sm & vm))
        return rdx_fail(RDX_ERR_INVALID, "expand: UNROLL node %%%u over an axis its source has",
                        u->id);
    xinfo in = { contract ? sm & ~vm : sm | vm, 0, 0, 0 };
    uint32_t lanes = count_of(X, vm);
    in.count = count_of(X, in.mask);
    if (!lanes || !in.count || (uint64_t)lanes * in.count > XCOPIES)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "expand: more than %u copies of node %%%u", XCOPIES,
                        u->id);
    if ((st = reserve(X, in.count)))
        return st;
    in.off = X->npool;
    const rdx_uop **vs = contract ? malloc(lanes * sizeof *vs) : NULL;
    if (contract && !vs)
        return rdx_fail(RDX_ERR_NOMEM, "expand: out of memory");
    int64_t v[XMAX] = { 0 }, w[XMAX];
    do {
        const rdx_uop *r = NULL;
        memcpy(w, v, sizeof w);
        if (contract) {
            for (uint32_t l = 0; l < lanes; l++) {
                uint32_t rest = l;
                for (uint32_t p = np; p-- > 0;) {
                    w[bit[p]] = (int64_t)(rest % (uint32_t)X->sz[bit[p]]);
                    rest /= (uint32_t)X->sz[bit[p]];
                }
                vs[l] = copy_of(X, u->src[0], w);
            }
            r = lanes == 1                ? vs[0]
                : vs[0]->dtype.count == 1 ? rdx_ir_node(X->ctx, RDX_OP_VECTORIZE, vs, lanes, NULL)
                                          : rdx_ir_node(X->ctx, RDX_OP_CAT, vs, lanes, NULL);
        } else {
            const rdx_uop *x = copy_of(X, u->src[0], v);
            int64_t lane = 0, c = u->dtype.count, ix[64];
            for (uint32_t p = 0; p < np; p++)
                lane = lane * X->sz[bit[p]] + v[bit[p]];
            if (x->op == RDX_OP_VECTORIZE && c == 1) {
                r = x->src[lane];
            } else if (c <= 64) {
                for (int64_t q = 0; q < c; q++)
                    ix[q] = lane * c + q;
                rdx_uop_arg ga = rdx_uop_arg_none();
                ga.ints = rdx_ir_ints(X->ctx, ix, (size_t)c);
                ga.nints = (uint32_t)c;
                r = ga.ints ? rdx_ir_node(X->ctx, RDX_OP_GEP, &x, 1, &ga) : NULL;
            }
        }
        if (!r) {
            free(vs);
            return rdx_fail_context(RDX_ERR_INVALID, "expand: lowering %s node %%%u",
                                    rdx_op_name((rdx_op)u->op), u->id);
        }
        X->pool[X->npool++] = r;
    } while (next(X, in.mask, v));
    free(vs);
    X->info[pos] = in;
    X->idx[u->id] = (uint32_t)pos + 1;
    return RDX_OK;
}

static rdx_status visit(xstate *X, const rdx_uop *u, size_t pos)
{
    if (u->op == RDX_OP_CONTRACT || u->op == RDX_OP_UNROLL)
        return visit_vec(X, u, pos);
    xinfo in = { 0, 1, 0, 0 };
    int j = u->op == RDX_OP_RANGE ? xbit(X, u) : -1;
    uint32_t closed = 0, m = 0;
    int changed = 0;
    for (uint32_t k = 0; k < u->nsrc; k++) {
        const xinfo *si = info_of(X, u->src[k]);
        if (!si)
            continue;
        if (si->list && u->op != RDX_OP_SINK)
            return rdx_fail(RDX_ERR_UNSUPPORTED,
                            "expand: an END closing UPCAST ranges is used by %s (only the "
                            "SINK may)",
                            rdx_op_name((rdx_op)u->op));
        m |= si->mask;
        changed = 1;
    }
    if ((u->op == RDX_OP_REDUCE || u->op == RDX_OP_END))
        for (uint32_t k = 1; k < u->nsrc; k++) {
            int b = xbit(X, u->src[k]);
            if (b >= 0)
                closed |= 1u << b;
        }
    /* a REDUCE range its value reads only through a CONTRACT over it (TC's K elements of a
       fragment): the op of the contracted vector (WMMA) reduced over it; dropped, not
       combined again */
    uint32_t contracted = 0;
    if (u->op == RDX_OP_REDUCE && closed) {
        const xinfo *vi = info_of(X, u->src[0]);
        uint32_t vm = vi && !vi->list ? vi->mask : 0;
        for (int q = 0; q < X->nx; q++)
            if ((closed & ~vm) >> q & 1 && cg_depends(u->src[0], X->xr[q]))
                contracted |= 1u << q;
        closed &= ~contracted;
        m &= ~contracted;
    }
    if (j < 0 && !changed && !closed)
        return RDX_OK; /* unchanged: no info */
    rdx_status st;
    int64_t v[XMAX] = { 0 };
    if (j >= 0) {
        in.mask = 1u << j;
        in.count = (uint32_t)X->sz[j];
        if ((st = reserve(X, in.count)))
            return st;
        in.off = X->npool;
        for (int64_t i = 0; i < X->sz[j]; i++)
            X->pool[X->npool++] = cg_idx(X->ctx, i);
    } else if (u->op == RDX_OP_SINK) {
        size_t ns = 0, cap = 0;
        for (uint32_t k = 0; k < u->nsrc; k++) {
            const xinfo *si = info_of(X, u->src[k]);
            cap += si ? si->count : 1;
        }
        const rdx_uop **s = malloc((cap + 1) * sizeof *s);
        if (!s)
            return rdx_fail(RDX_ERR_NOMEM, "expand: out of memory");
        for (uint32_t k = 0; k < u->nsrc; k++) {
            const xinfo *si = info_of(X, u->src[k]);
            if (si && !si->list && si->mask)
                st = rdx_fail(RDX_ERR_UNSUPPORTED,
                              "expand: a SINK source still depends on an UPCAST/UNROLL range");
            uint32_t c = si ? si->count : 1;
            for (uint32_t i = 0; i < c; i++) {
                const rdx_uop *e = si ? X->pool[si->off + i] : u->src[k];
                int dup = 0;
                for (size_t q = 0; q < ns && !dup; q++)
                    dup = s[q] == e;
                if (!dup)
                    s[ns++] = e;
            }
        }
        const rdx_uop *r = rdx_ir_sink(X->ctx, s, ns);
        free(s);
        if (!r)
            return rdx_fail_context(RDX_ERR_INVALID, "expand: rebuilding the SINK");
        if ((st = reserve(X, 1)))
            return st;
        in.off = X->npool;
        X->pool[X->npool++] = r;
    } else {
        uint32_t om = m & ~closed;
        uint32_t oc = count_of(X, om), cc = count_of(X, closed);
        if (!oc || !cc || (uint64_t)oc * cc > XCOPIES)
            return rdx_fail(RDX_ERR_UNSUPPORTED, "expand: more than %u copies of node %%%u",
                            XCOPIES, u->id);
        int is_end = u->op == RDX_OP_END && closed;
        if (is_end && om)
            return rdx_fail(RDX_ERR_UNSUPPORTED,
                            "expand: END node %%%u closes UPCAST ranges inside another "
                            "expanded range",
                            u->id);
        in.mask = is_end ? 0 : om;
        in.count = is_end ? cc : oc;
        in.list = is_end;
        if ((st = reserve(X, in.count)))
            return st;
        in.off = X->npool;
        const rdx_uop *s[64], *const *sbase[64];
        uint32_t sidx[64], sstride[64][XMAX];
        int src_ready = 0;
        if (u->nsrc > 64)
            return rdx_fail(RDX_ERR_UNSUPPORTED, "expand: node %%%u has %u sources", u->id,
                            u->nsrc);
        do { /* over the node's own set */
            const rdx_uop *r = NULL;
            if (u->op == RDX_OP_REDUCE && (closed || contracted)) {
                /* the op over the copies of the closed ranges (in order) */
                const rdx_uop *acc = NULL;
                int64_t w[XMAX];
                memcpy(w, v, sizeof w);
                for (int q = 0; q < X->nx; q++)
                    if (closed >> q & 1)
                        w[q] = 0;
                do {
                    const rdx_uop *c = copy_of(X, u->src[0], w);
                    acc = acc ? combine(X->ctx, (rdx_redop)u->arg.sub, acc, c) : c;
                } while (next(X, closed, w));
                r = acc ? drop_ranges(X, u, acc) : NULL;
            } else if (is_end) {
                /* the copies of the body; when the END also closes ranges that stay loops,
                   one END of a GROUP of them (one loop with every copy in its body, not one
                   loop per copy: a LOOP axis around a 4x4 UPCAST was 16 loop nests) */
                int64_t w[XMAX] = { 0 };
                int keep = 0;
                for (uint32_t k = 1; k < u->nsrc; k++)
                    keep |= xbit(X, u->src[k]) < 0;
                uint32_t first = (uint32_t)X->npool;
                do {
                    r = keep ? copy_of(X, u->src[0], w)
                             : drop_ranges(X, u, copy_of(X, u->src[0], w));
                    if (!r)
                        break;
                    X->pool[X->npool++] = r;
                } while (next(X, closed, w));
                if (r && keep) {
                    size_t nc = X->npool - first;
                    const rdx_uop *g =
                        nc == 1 ? X->pool[first]
                                : rdx_ir_node(X->ctx, RDX_OP_GROUP, X->pool + first, nc, NULL);
                    r = g ? drop_ranges(X, u, g) : NULL;
                    X->npool = first;
                    if (r) {
                        X->pool[X->npool++] = r;
                        in.count = 1;
                    }
                }
                if (!r)
                    return rdx_fail_context(RDX_ERR_INVALID, "expand: unrolling END node %%%u",
                                            u->id);
                break;
            } else {
                if (!src_ready) { /* each source's copies and their strides, once per node */
                    for (uint32_t k = 0; k < u->nsrc; k++) {
                        const xinfo *si = info_of(X, u->src[k]);
                        sbase[k] = si ? X->pool + si->off : NULL;
                        sidx[k] = 0;
                        uint64_t stride = 1;
                        for (int q = 0; q < X->nx; q++) {
                            sstride[k][q] = 0;
                            if (si && !si->list && (si->mask >> q & 1)) {
                                sstride[k][q] = (uint32_t)stride;
                                stride *= (uint64_t)X->sz[q];
                            }
                        }
                    }
                    src_ready = 1;
                }
                for (uint32_t k = 0; k < u->nsrc; k++)
                    s[k] = sbase[k] ? sbase[k][sidx[k]] : u->src[k];
                r = rebuild(X, u, s);
                /* the sources' copy indices follow the next assignment (as next() steps v) */
                for (int q = 0; q < X->nx; q++) {
                    if (!(in.mask >> q & 1))
                        continue;
                    int wrap = v[q] + 1 == X->sz[q];
                    for (uint32_t k = 0; k < u->nsrc; k++)
                        sidx[k] = wrap ? sidx[k] - (uint32_t)(X->sz[q] - 1) * sstride[k][q]
                                       : sidx[k] + sstride[k][q];
                    if (!wrap)
                        break;
                }
            }
            if (!r)
                return rdx_fail_context(RDX_ERR_INVALID, "expand: unrolling node %%%u (%s)", u->id,
                                        rdx_op_name((rdx_op)u->op));
            X->pool[X->npool++] = r;
        } while (next(X, in.mask, v));
    }
    X->info[pos] = in;
    X->idx[u->id] = (uint32_t)pos + 1;
    return RDX_OK;
}

rdx_status cg_expand_unroll(rdx_ir_ctx *ctx, const rdx_uop *kernel, const rdx_kaxis *ax, size_t n,
                            const rdx_uop **out)
{
    xstate X;
    memset(&X, 0, sizeof X);
    X.ctx = ctx;
    *out = kernel;
    for (size_t i = 0; i < n; i++) {
        if (ax[i].type != RDX_AXIS_UPCAST && ax[i].type != RDX_AXIS_UNROLL)
            continue;
        if (ax[i].size < 0)
            return rdx_fail(RDX_ERR_INVALID, "expand: %s axis with a symbolic size",
                            rdx_axistype_name(ax[i].type));
        if (X.nx == XMAX)
            return rdx_fail(RDX_ERR_UNSUPPORTED, "expand: more than %d UPCAST/UNROLL axes", XMAX);
        X.xr[X.nx] = ax[i].range;
        X.sz[X.nx++] = ax[i].size;
    }
    if (!X.nx)
        return RDX_OK;
    if (kernel->op != RDX_OP_SINK)
        return rdx_fail(RDX_ERR_INVALID, "expand: kernel root is %s, not SINK",
                        rdx_op_name((rdx_op)kernel->op));
    const rdx_uop **order = NULL;
    size_t no = 0;
    rdx_status st = rdx_ir_toposort(kernel, &order, &no);
    for (size_t i = 0; i < no && !st; i++)
        X.maxid = order[i]->id > X.maxid ? order[i]->id : X.maxid;
    if (!st && (!(X.info = calloc(no + 1, sizeof *X.info)) ||
                !(X.idx = calloc((size_t)X.maxid + 1, sizeof *X.idx)) ||
                !(X.lin = calloc((size_t)X.maxid + 1, 1))))
        st = rdx_fail(RDX_ERR_NOMEM, "expand: out of memory");
    if (!st)
        st = rdx_ir_nodemap_create(ctx, &X.sm);
    for (size_t i = 0; i < no && !st; i++) { /* sources first */
        const rdx_uop *u = order[i];
        /* bit 1: depends on an expanded range */
        int dep = u->op == RDX_OP_RANGE && xbit(&X, u) >= 0;
        for (uint32_t k = 0; k < u->nsrc && !dep; k++)
            dep = X.lin[u->src[k]->id] & 2;
        X.lin[u->id] = dep ? 2 : 0;
        if (u->dtype.scalar != RDX_INDEX || u->dtype.count != 1 || u->dtype.ptr)
            continue;
        /* leaves: ranges, thread ids, variables and any index the unrolling leaves alone
           (e.g. a WARP axis' lidx0 % 16): the copies of a sum over them share one rest */
        if (!dep || u->op == RDX_OP_CONST || u->op == RDX_OP_RANGE || u->op == RDX_OP_SPECIAL ||
            u->op == RDX_OP_DEFINE_VAR)
            X.lin[u->id] |= 1;
        else if ((u->op == RDX_OP_ADD || u->op == RDX_OP_MUL) && (X.lin[u->src[0]->id] & 1) &&
                 (X.lin[u->src[1]->id] & 1))
            X.lin[u->id] |= 1;
    }
    for (size_t i = 0; i < no && !st; i++)
        st = visit(&X, order[i], i);
    if (!st) {
        const xinfo *ki = info_of(&X, kernel);
        *out = ki ? X.pool[ki->off] : kernel;
    }
    free(order);
    free(X.info);
    free(X.pool);
    free(X.idx);
    free(X.lin);
    free(X.sp);
    rdx_ir_nodemap_free(X.sm);
    return st;
}
