/* tests/codegen_front/keval.c — a small host evaluator of the kernel form,
 * independent of the front end: it loops over RANGEs (END, REDUCE) and
 * SPECIALs, executes LOAD/STORE against host buffers (bounds-checked: an
 * out-of-bounds access is a test failure), and evaluates every ALU node with
 * ir-core's scalar evaluator (exact dtype semantics). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/codegen_front/cgf_test.h"

typedef struct keval {
    rdx_ir_ctx *ctx;
    void **bufs;
    const size_t *nbytes;
    size_t nbufs;
    const rdx_uop *const *vars;
    const int64_t *varvals;
    size_t nvars;
    size_t cap;           /* node ids < cap */
    uint64_t cur, *stamp; /* memo validity */
    rdx_value *val;
    rdx_evalplan **plans;
    char err[512];
    uint64_t ops;
} keval;

static int kfail(keval *K, const char *fmt, const rdx_uop *u, const char *more)
{
    if (!K->err[0])
        snprintf(K->err, sizeof K->err, fmt, rdx_op_name((rdx_op)u->op), u->id, more ? more : "");
    return 1;
}

static rdx_value value(keval *K, const rdx_uop *u);
static rdx_value lds_load(keval *K, const rdx_uop *u);

static rdx_value read_elem(const void *p, rdx_dtype d, int64_t k)
{
    rdx_value v = { 0, 0 };
    switch (d.scalar) {
    case RDX_BOOL:
    case RDX_UINT8:
        v.i = ((const uint8_t *)p)[k];
        break;
    case RDX_INT8:
        v.i = ((const int8_t *)p)[k];
        break;
    case RDX_INT16:
        v.i = ((const int16_t *)p)[k];
        break;
    case RDX_UINT16:
        v.i = ((const uint16_t *)p)[k];
        break;
    case RDX_INT32:
        v.i = ((const int32_t *)p)[k];
        break;
    case RDX_UINT32:
        v.i = ((const uint32_t *)p)[k];
        break;
    case RDX_INT64:
    case RDX_UINT64:
    case RDX_INDEX:
        v.i = ((const int64_t *)p)[k];
        break;
    case RDX_FLOAT16:
        v.f = rdx_f16_to_f64(((const uint16_t *)p)[k]);
        break;
    case RDX_BFLOAT16:
        v.f = rdx_bf16_to_f64(((const uint16_t *)p)[k]);
        break;
    case RDX_FLOAT32:
        v.f = ((const float *)p)[k];
        break;
    default:
        v.f = ((const double *)p)[k];
        break;
    }
    return v;
}

static void write_elem(void *p, rdx_dtype d, int64_t k, rdx_value v)
{
    switch (d.scalar) {
    case RDX_BOOL:
        ((uint8_t *)p)[k] = v.i != 0;
        break;
    case RDX_UINT8:
    case RDX_INT8:
        ((uint8_t *)p)[k] = (uint8_t)v.i;
        break;
    case RDX_INT16:
    case RDX_UINT16:
        ((uint16_t *)p)[k] = (uint16_t)v.i;
        break;
    case RDX_INT32:
    case RDX_UINT32:
        ((uint32_t *)p)[k] = (uint32_t)v.i;
        break;
    case RDX_INT64:
    case RDX_UINT64:
    case RDX_INDEX:
        ((int64_t *)p)[k] = v.i;
        break;
    case RDX_FLOAT16:
        ((uint16_t *)p)[k] = rdx_f64_to_f16(v.f);
        break;
    case RDX_BFLOAT16:
        ((uint16_t *)p)[k] = rdx_f64_to_bf16(v.f);
        break;
    case RDX_FLOAT32:
        ((float *)p)[k] = (float)v.f;
        break;
    default:
        ((double *)p)[k] = v.f;
        break;
    }
}

/* Buffer slot and element offset of INDEX(param, i...). */
static int address(keval *K, const rdx_uop *ix, void **p, rdx_dtype *d, int64_t *off)
{
    if (ix->op != RDX_OP_INDEX || ix->src[0]->op != RDX_OP_PARAM)
        return kfail(K, "keval: %s node #%u: not an INDEX of a PARAM%s", ix, NULL);
    const rdx_uop *par = ix->src[0];
    int64_t o = 0, numel = 1;
    if (ix->nsrc - 1 != par->ndim)
        return kfail(K, "keval: %s node #%u: index count%s", ix, NULL);
    for (uint32_t k = 0; k < par->ndim; k++) {
        int64_t dim = value(K, par->shape[k]).i, i = value(K, ix->src[1 + k]).i;
        if (i < 0 || i >= dim)
            return kfail(K, "keval: %s node #%u: index out of bounds%s", ix, NULL);
        o = o * dim + i;
        numel *= dim;
    }
    size_t slot = (size_t)par->arg.i;
    if (slot >= K->nbufs)
        return kfail(K, "keval: %s node #%u: PARAM slot without a buffer%s", ix, NULL);
    *d = par->arg.dtype;
    if ((size_t)numel * rdx_dtype_itemsize(*d) > K->nbytes[slot])
        return kfail(K, "keval: %s node #%u: PARAM larger than its buffer%s", ix, NULL);
    *p = K->bufs[slot];
    *off = o;
    return 0;
}

static rdx_value combine(keval *K, const rdx_uop *red, rdx_value a, rdx_value b)
{
    /* acc OP v in the reduce's dtype via ir-core's evaluator on a 2-leaf graph */
    rdx_ir_ctx *c = K->ctx;
    const rdx_uop *sh = rdx_ir_shape(c, NULL, 0);
    rdx_uop_arg pa = rdx_uop_arg_none();
    pa.dtype = red->dtype;
    pa.i = 1000;
    const rdx_uop *A = rdx_ir_node(c, RDX_OP_PARAM, &sh, 1, &pa);
    pa.i = 1001;
    const rdx_uop *B = rdx_ir_node(c, RDX_OP_PARAM, &sh, 1, &pa);
    const rdx_uop *e;
    switch ((rdx_redop)red->arg.sub) {
    case RDX_RED_ADD:
        e = rdx_ir_add(c, A, B);
        break;
    case RDX_RED_MUL:
        e = rdx_ir_mul(c, A, B);
        break;
    case RDX_RED_MAX:
        e = rdx_ir_max(c, A, B);
        break;
    default:
        e = rdx_ir_where(c, rdx_ir_cmplt(c, B, A), B, A);
        break;
    }
    const rdx_uop *lv[2] = { A, B };
    rdx_value vv[2] = { a, b }, r = { 0, 0 };
    if (!e || rdx_ir_eval(e, lv, vv, 2, &r))
        kfail(K, "keval: %s node #%u: combine failed%s", red, rdx_error_message());
    K->ops++;
    return r;
}

static rdx_value identity(const rdx_uop *red)
{
    rdx_value v = { 0, 0 };
    int64_t lo, hi;
    double flo, fhi;
    rdx_dtype_range(red->dtype, &lo, &hi, &flo, &fhi);
    switch ((rdx_redop)red->arg.sub) {
    case RDX_RED_ADD:
        break;
    case RDX_RED_MUL:
        v.i = 1;
        v.f = 1;
        break;
    case RDX_RED_MAX:
        v.i = red->dtype.scalar == RDX_BOOL ? 0 : lo;
        v.f = -INFINITY;
        break;
    default:
        v.i = red->dtype.scalar == RDX_BOOL ? 1 : hi;
        v.f = INFINITY;
        break;
    }
    return v;
}

/* Loop over ranges r[0..n) (first outermost), calling body per point. */
typedef void (*loop_fn)(keval *K, const void *ctx, rdx_value *acc);
static void loop(keval *K, const rdx_uop *const *r, uint32_t n, loop_fn fn, const void *ctx,
                 rdx_value *acc)
{
    if (K->err[0])
        return;
    if (n == 0) {
        fn(K, ctx, acc);
        return;
    }
    const rdx_uop *rg = r[0];
    if (rg->op != RDX_OP_RANGE) {
        kfail(K, "keval: %s node #%u closed as a range%s", rg, NULL);
        return;
    }
    int64_t bound = value(K, rg->src[0]).i;
    for (int64_t i = 0; i < bound && !K->err[0]; i++) {
        K->val[rg->id].i = i;
        K->cur++;
        loop(K, r + 1, n - 1, fn, ctx, acc);
    }
}

static void reduce_body(keval *K, const void *ctx, rdx_value *acc)
{
    const rdx_uop *red = ctx;
    rdx_value v = value(K, red->src[0]);
    *acc = combine(K, red, *acc, v);
}

static void exec(keval *K, const rdx_uop *u);

static void end_body(keval *K, const void *ctx, rdx_value *acc)
{
    (void)acc;
    exec(K, ctx);
}

static void exec(keval *K, const rdx_uop *u)
{
    if (K->err[0])
        return;
    switch (u->op) {
    case RDX_OP_SINK:
    case RDX_OP_GROUP:
        for (uint32_t k = 0; k < u->nsrc; k++)
            exec(K, u->src[k]);
        return;
    case RDX_OP_END:
        loop(K, u->src + 1, u->nsrc - 1, end_body, u->src[0], NULL);
        return;
    case RDX_OP_STORE: {
        if (u->nsrc == 3 && !value(K, u->src[2]).i)
            return;
        void *p;
        rdx_dtype d;
        int64_t off;
        rdx_value v = value(K, u->src[1]);
        if (address(K, u->src[0], &p, &d, &off))
            return;
        write_elem(p, d, off, v);
        K->ops++;
        return;
    }
    default:
        kfail(K, "keval: %s node #%u is not an effect%s", u, NULL);
    }
}

static rdx_value value(keval *K, const rdx_uop *u)
{
    rdx_value z = { 0, 0 };
    if (K->err[0])
        return z;
    if (u->id >= K->cap) {
        kfail(K, "keval: %s node #%u created after the evaluator%s", u, NULL);
        return z;
    }
    if (u->op == RDX_OP_RANGE || u->op == RDX_OP_SPECIAL)
        return K->val[u->id];
    if (K->stamp[u->id] == K->cur)
        return K->val[u->id];
    rdx_value r = z;
    switch (u->op) {
    case RDX_OP_CONST:
        r.i = u->arg.i;
        r.f = u->arg.f;
        break;
    case RDX_OP_DEFINE_VAR: {
        size_t k;
        for (k = 0; k < K->nvars && K->vars[k] != u; k++)
            ;
        if (k == K->nvars)
            kfail(K, "keval: %s node #%u unbound%s", u, NULL);
        else
            r.i = K->varvals[k];
        break;
    }
    case RDX_OP_LOAD: {
        const rdx_uop *ix = u->src[0];
        if (ix->op == RDX_OP_INDEX && ix->src[0]->op == RDX_OP_AFTER &&
            ix->src[0]->src[0]->op == RDX_OP_DEFINE_LOCAL) {
            r = lds_load(K, u);
            break;
        }
        const rdx_uop *gate = u->nsrc == 3 ? u->src[2] : u->nsrc == 2 ? u->src[1] : NULL;
        if (gate && !value(K, gate).i) {
            r = u->nsrc == 3 ? value(K, u->src[1]) : z;
            break;
        }
        void *p;
        rdx_dtype d;
        int64_t off;
        if (!address(K, u->src[0], &p, &d, &off))
            r = read_elem(p, d, off);
        K->ops++;
        break;
    }
    case RDX_OP_REDUCE: {
        rdx_value acc = identity(u);
        uint64_t saved = K->cur;
        (void)saved;
        loop(K, u->src + 1, u->nsrc - 1, reduce_body, u, &acc);
        r = acc;
        K->cur++; /* inner values are stale now */
        break;
    }
    default: {
        const rdx_opinfo *oi = rdx_op_info((rdx_op)u->op);
        if (!(oi->flags & RDX_OPF_ELEMENTWISE) && u->op != RDX_OP_BITCAST) {
            kfail(K, "keval: %s node #%u: op not in the kernel form%s", u, NULL);
            break;
        }
        if (!K->plans[u->id] && rdx_evalplan_create(u, u->src, u->nsrc, &K->plans[u->id])) {
            kfail(K, "keval: %s node #%u: %s", u, rdx_error_message());
            break;
        }
        rdx_value sv[3];
        for (uint32_t k = 0; k < u->nsrc; k++)
            sv[k] = value(K, u->src[k]);
        if (rdx_evalplan_run(K->plans[u->id], sv, &r))
            kfail(K, "keval: %s node #%u: %s", u, rdx_error_message());
        K->ops++;
        break;
    }
    }
    K->stamp[u->id] = K->cur;
    K->val[u->id] = r;
    return r;
}

/* The SPECIAL under index expression e (the storing work-item's id), or NULL. */
static const rdx_uop *special_in(const rdx_uop *e)
{
    if (e->op == RDX_OP_SPECIAL)
        return e;
    for (uint32_t k = 0; k < e->nsrc; k++) {
        const rdx_uop *s = special_in(e->src[k]);
        if (s)
            return s;
    }
    return NULL;
}

/*
 * A read of LDS after a barrier: the value work-item t stored before the
 * barrier, evaluated on demand with the storing SPECIAL set to t (the
 * evaluator runs work-items one after another, so it cannot interleave them).
 * t is the work-item whose store (gate holding) has the read index: the read
 * index itself when the store's index is the SPECIAL, else found by search (a
 * tree step of a grouped reduction, lidx0 + offset, gated; several REDUCEs'
 * partials in one array).  A gated-off read reads nothing.
 */
static rdx_value lds_load(keval *K, const rdx_uop *u)
{
    rdx_value z = { 0, 0 };
    const rdx_uop *ix = u->src[0], *after = ix->src[0], *lds = after->src[0];
    const rdx_uop *gate = u->nsrc == 3 ? u->src[2] : u->nsrc == 2 ? u->src[1] : NULL;
    if (gate && !value(K, gate).i)
        return u->nsrc == 3 ? value(K, u->src[1]) : z;
    for (uint32_t d = 1; d < after->nsrc; d++) {
        const rdx_uop *bar = after->src[d];
        if (bar->op != RDX_OP_BARRIER)
            continue;
        for (uint32_t k = 0; k < bar->nsrc; k++) {
            const rdx_uop *st = bar->src[k];
            if (st->op != RDX_OP_STORE || st->src[0]->op != RDX_OP_INDEX ||
                st->src[0]->src[0] != lds || st->src[0]->nsrc != 2)
                continue;
            const rdx_uop *sp = special_in(st->src[0]->src[1]);
            if (!sp)
                continue;
            int64_t a = value(K, ix->src[1]).i, size = value(K, lds->shape[0]).i, t = a;
            if (a < 0 || a >= size) {
                kfail(K, "keval: %s node #%u: LDS index out of bounds%s", u, NULL);
                return z;
            }
            rdx_value saved = K->val[sp->id];
            int64_t bound = value(K, sp->src[0]).i, t0 = 0, t1 = bound;
            if (st->src[0]->src[1] == sp) /* the lane is the index */
                t0 = a, t1 = a < bound ? a + 1 : a;
            for (t = t0; t < t1; t++) {
                K->val[sp->id].i = t;
                K->cur++;
                if (value(K, st->src[0]->src[1]).i == a && (st->nsrc < 3 || value(K, st->src[2]).i))
                    break;
            }
            if (t == t1) {
                K->val[sp->id] = saved;
                K->cur++;
                continue;
            }
            K->val[sp->id].i = t;
            K->cur++;
            rdx_value v = value(K, st->src[1]);
            K->val[sp->id] = saved;
            K->cur++;
            K->ops++;
            return v;
        }
    }
    kfail(K, "keval: %s node #%u: LDS read without a matching store before a barrier%s", u, NULL);
    return z;
}

static void special_loop(keval *K, const rdx_uop *sink, const rdx_uop *const *sp, size_t n)
{
    if (K->err[0])
        return;
    if (!n) {
        K->cur++;
        exec(K, sink);
        return;
    }
    int64_t bound = value(K, sp[0]->src[0]).i;
    for (int64_t i = 0; i < bound && !K->err[0]; i++) {
        K->val[sp[0]->id].i = i;
        special_loop(K, sink, sp + 1, n - 1);
    }
}

rdx_status keval_run(rdx_ir_ctx *ctx, const rdx_uop *sink, void **bufs, const size_t *nbytes,
                     size_t nbufs, const rdx_uop *const *vars, const int64_t *varvals, size_t nvars,
                     uint64_t *ops, char *err, size_t errlen)
{
    keval K;
    memset(&K, 0, sizeof K);
    K.ctx = ctx;
    K.bufs = bufs;
    K.nbytes = nbytes;
    K.nbufs = nbufs;
    K.vars = vars;
    K.varvals = varvals;
    K.nvars = nvars;
    /* combine() creates a few nodes: leave room */
    K.cap = rdx_ir_node_count(ctx) + 64;
    const rdx_uop **order = NULL, **sp = NULL;
    size_t n = 0, nsp = 0;
    rdx_status st = rdx_ir_toposort(sink, &order, &n);
    K.stamp = calloc(K.cap + 1024, sizeof *K.stamp);
    K.val = calloc(K.cap + 1024, sizeof *K.val);
    K.plans = calloc(K.cap + 1024, sizeof *K.plans);
    sp = calloc(n + 1, sizeof *sp);
    K.cap += 1024;
    K.cur = 1;
    if (!st && (!K.stamp || !K.val || !K.plans || !sp))
        st = RDX_ERR_NOMEM;
    for (size_t i = 0; i < n && !st; i++)
        if (order[i]->op == RDX_OP_SPECIAL)
            sp[nsp++] = order[i];
    if (!st)
        special_loop(&K, sink, sp, nsp);
    if (!st && K.err[0]) {
        st = RDX_ERR_INVALID;
        snprintf(err, errlen, "%s", K.err);
    }
    if (ops)
        *ops = K.ops;
    for (size_t i = 0; i < K.cap && K.plans; i++)
        rdx_evalplan_free(K.plans[i]);
    free(K.plans);
    free(K.stamp);
    free(K.val);
    free(order);
    free(sp);
    return st;
}
