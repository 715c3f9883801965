/*
 * ir/interp/interp.c — the reference interpreter's driver: bindings, scopes
 * (one per FUNCTION call), topological evaluation with use counts (values are
 * freed after their last use), symbolic sizes, and every tensor-level op.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ir/interp/interp_internal.h"

typedef struct binding {
    const rdx_uop *u;
    istore *st;
} binding;

typedef struct varbind {
    const rdx_uop *v;
    int64_t val;
} varbind;

struct rdx_interp {
    binding *b;
    size_t nb, cb;
    varbind *vars;
    size_t nvars, cvars;
    istore **results;
    size_t nres, cres;
    iscache cache;
};

typedef struct scope {
    rdx_interp *ip;
    const struct scope *parent;
    const ival *params; /* FUNCTION arguments; NULL at the top level */
    uint32_t nparams;
    varbind *vars;
    size_t nvars, cvars;
    /* the graph being evaluated */
    const rdx_uop **order;
    size_t n;
    uint32_t *uses;
    uint8_t *fused;
    ival *vals;
    /* node id -> index in order (open addressing on id + 1) */
    uint32_t *mkeys, *mvals;
    size_t mcap;
} scope;

/* ------------------------------------------------------------- bindings */

rdx_status rdx_interp_create(rdx_interp **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? RDX_OK : rdx_fail(RDX_ERR_NOMEM, "interp: out of memory");
}

void rdx_interp_release(rdx_interp *ip)
{
    if (!ip)
        return;
    iscache *outer = is_cache;
    is_cache = &ip->cache; /* released results are reused by the next realization */
    for (size_t k = 0; k < ip->nres; k++)
        is_unref(ip->results[k]);
    is_cache = outer;
    ip->nres = 0;
}

void rdx_interp_destroy(rdx_interp *ip)
{
    if (!ip)
        return;
    rdx_interp_release(ip);
    for (size_t k = 0; k < ip->nb; k++)
        is_unref(ip->b[k].st);
    is_cache_free(&ip->cache);
    free(ip->b);
    free(ip->vars);
    free(ip->results);
    free(ip);
}

static binding *find_binding(const rdx_interp *ip, const rdx_uop *u)
{
    for (size_t k = 0; k < ip->nb; k++)
        if (ip->b[k].u == u)
            return &ip->b[k];
    return NULL;
}

static rdx_status set_binding(rdx_interp *ip, const rdx_uop *u, istore *st)
{
    binding *b = find_binding(ip, u);
    if (b) {
        is_unref(b->st);
        b->st = st;
        return RDX_OK;
    }
    if (ip->nb == ip->cb) {
        size_t nc = ip->cb ? ip->cb * 2 : 16;
        binding *nb = realloc(ip->b, nc * sizeof *nb);
        if (!nb) {
            is_unref(st);
            return rdx_fail(RDX_ERR_NOMEM, "interp: out of memory");
        }
        ip->b = nb, ip->cb = nc;
    }
    ip->b[ip->nb++] = (binding){ u, st };
    return RDX_OK;
}

rdx_status rdx_interp_bind(rdx_interp *ip, const rdx_uop *buf, const void *data, size_t nbytes)
{
    if (!buf || (buf->op != RDX_OP_BUFFER && buf->op != RDX_OP_PARAM))
        return rdx_fail(RDX_ERR_INVALID, "interp: bind: %s is not a BUFFER or PARAM",
                        buf ? rdx_op_name((rdx_op)buf->op) : "NULL");
    unsigned es = dt_size(buf->dtype);
    if (nbytes % es)
        return rdx_fail(RDX_ERR_INVALID,
                        "interp: bind: %zu bytes is not a whole number of %u-byte elements", nbytes,
                        es);
    istore *st = is_alloc(nbytes);
    if (!st)
        return RDX_ERR_NOMEM;
    if (nbytes)
        memcpy(st->data, data, nbytes);
    return set_binding(ip, buf, st);
}

const void *rdx_interp_bound(const rdx_interp *ip, const rdx_uop *buf, size_t *nbytes)
{
    binding *b = find_binding(ip, buf);
    if (!b)
        return NULL;
    if (nbytes)
        *nbytes = b->st->nbytes;
    return b->st->data;
}

static rdx_status push_var(varbind **v, size_t *n, size_t *c, const rdx_uop *var, int64_t val)
{
    for (size_t k = 0; k < *n; k++)
        if ((*v)[k].v == var) {
            (*v)[k].val = val;
            return RDX_OK;
        }
    if (*n == *c) {
        size_t nc = *c ? *c * 2 : 8;
        varbind *nv = realloc(*v, nc * sizeof *nv);
        if (!nv)
            return rdx_fail(RDX_ERR_NOMEM, "interp: out of memory");
        *v = nv, *c = nc;
    }
    (*v)[(*n)++] = (varbind){ var, val };
    return RDX_OK;
}

static rdx_status check_var_range(const rdx_uop *var, int64_t v)
{
    if (v < var->arg.i || v > var->arg.j)
        return rdx_fail(RDX_ERR_RANGE,
                        "variable '%s' = %" PRId64 " is outside [%" PRId64 ", %" PRId64 "]",
                        var->arg.str, v, var->arg.i, var->arg.j);
    return RDX_OK;
}

rdx_status rdx_interp_bind_var(rdx_interp *ip, const rdx_uop *var, int64_t v)
{
    if (!var || var->op != RDX_OP_DEFINE_VAR)
        return rdx_fail(RDX_ERR_INVALID, "interp: bind_var: not a DEFINE_VAR");
    rdx_status st = check_var_range(var, v);
    if (st)
        return st;
    return push_var(&ip->vars, &ip->nvars, &ip->cvars, var, v);
}

/* ------------------------------------------------------------- integer expressions */

static int lookup_var(const scope *s, const rdx_uop *v, int64_t *out)
{
    for (; s; s = s->parent)
        for (size_t k = 0; k < s->nvars; k++)
            if (s->vars[k].v == v) {
                *out = s->vars[k].val;
                return 1;
            }
    return 0;
}

static rdx_status ieval(const scope *s, const rdx_uop *u, int64_t *out)
{
    int64_t a = 0, b = 0, c = 0;
    switch ((rdx_op)u->op) {
    case RDX_OP_CONST:
        *out = rdx_dtype_is_float(u->dtype) ? (int64_t)u->arg.f : u->arg.i;
        return RDX_OK;
    case RDX_OP_DEFINE_VAR:
        if (lookup_var(s, u, out))
            return RDX_OK;
        for (size_t k = 0; k < s->ip->nvars; k++)
            if (s->ip->vars[k].v == u) {
                *out = s->ip->vars[k].val;
                return RDX_OK;
            }
        return rdx_fail(RDX_ERR_INVALID, "variable '%s' is not bound", u->arg.str);
    case RDX_OP_BIND:
        return ieval(s, u->src[1], out);
    default:
        break;
    }
    rdx_status st = RDX_OK;
    if (u->nsrc >= 1)
        st = ieval(s, u->src[0], &a);
    if (!st && u->nsrc >= 2)
        st = ieval(s, u->src[1], &b);
    if (!st && u->nsrc >= 3)
        st = ieval(s, u->src[2], &c);
    if (st)
        return st;
    switch ((rdx_op)u->op) {
    case RDX_OP_ADD:
        *out = (int64_t)((uint64_t)a + (uint64_t)b);
        return RDX_OK;
    case RDX_OP_MUL:
        *out = (int64_t)((uint64_t)a * (uint64_t)b);
        return RDX_OK;
    case RDX_OP_MAX:
        *out = a > b ? a : b;
        return RDX_OK;
    case RDX_OP_IDIV:
    case RDX_OP_MOD:
        if (b == 0 || (a == INT64_MIN && b == -1))
            return rdx_fail(RDX_ERR_INVALID, "size expression divides by %" PRId64, b);
        *out = u->op == RDX_OP_IDIV ? a / b : a % b;
        return RDX_OK;
    case RDX_OP_CMPLT:
        *out = a < b;
        return RDX_OK;
    case RDX_OP_CMPNE:
        *out = a != b;
        return RDX_OK;
    case RDX_OP_WHERE:
        *out = a ? b : c;
        return RDX_OK;
    case RDX_OP_CAST:
        *out = a;
        return RDX_OK;
    default:
        return rdx_fail(RDX_ERR_UNSUPPORTED, "%s in a size expression", rdx_op_name((rdx_op)u->op));
    }
}

static rdx_status node_dims(const scope *s, const rdx_uop *u, int64_t *dims)
{
    if (u->ndim > MAXD)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "rank %u exceeds the interpreter's %d", u->ndim, MAXD);
    for (uint32_t k = 0; k < u->ndim; k++) {
        rdx_status st = ieval(s, u->shape[k], &dims[k]);
        if (st)
            return st;
        if (dims[k] < 0)
            return rdx_fail(RDX_ERR_INVALID, "dimension %u evaluates to %" PRId64, k, dims[k]);
    }
    return RDX_OK;
}

/* Values of a shape operand (a STACK of index nodes). */
static rdx_status operand_ints(const scope *s, const rdx_uop *op, int64_t *v)
{
    for (uint32_t k = 0; k < op->nsrc; k++) {
        rdx_status st = ieval(s, op->src[k], &v[k]);
        if (st)
            return st;
    }
    return RDX_OK;
}

/* ------------------------------------------------------------- graph walk */

static uint32_t data_srcs(const rdx_uop *u, uint32_t *first)
{
    *first = 0;
    switch ((rdx_op)u->op) {
    case RDX_OP_BUFFER:
    case RDX_OP_PARAM:
    case RDX_OP_CONST:
    case RDX_OP_DEFINE_VAR:
    case RDX_OP_BIND:
    case RDX_OP_BINARY:
    case RDX_OP_DEFINE_LOCAL:
    case RDX_OP_DEFINE_REG:
        return 0;
    case RDX_OP_RESHAPE:
    case RDX_OP_EXPAND:
    case RDX_OP_PAD:
    case RDX_OP_SHRINK:
        return 1;
    case RDX_OP_FUNCTION:
    case RDX_OP_CALL:
        *first = 1;
        return u->nsrc;
    default:
        return u->nsrc;
    }
}

static size_t map_find(const scope *s, const rdx_uop *u)
{
    size_t m = s->mcap - 1, h = (u->id * 2654435761u) & m;
    while (s->mkeys[h]) {
        if (s->mkeys[h] == u->id + 1)
            return s->mvals[h];
        h = (h + 1) & m;
    }
    return SIZE_MAX;
}

static void map_put(scope *s, const rdx_uop *u, uint32_t idx)
{
    size_t m = s->mcap - 1, h = (u->id * 2654435761u) & m;
    while (s->mkeys[h])
        h = (h + 1) & m;
    s->mkeys[h] = u->id + 1;
    s->mvals[h] = idx;
}

/* Room for `entries` keys at load <= 1/2 (rehashing); nonzero on out-of-memory. */
static int map_reserve(scope *s, size_t entries)
{
    if (entries * 2 <= s->mcap)
        return 0;
    size_t oc = s->mcap;
    uint32_t *ok = s->mkeys, *ov = s->mvals;
    s->mcap *= 2;
    s->mkeys = calloc(s->mcap, sizeof *s->mkeys);
    s->mvals = calloc(s->mcap, sizeof *s->mvals);
    if (!s->mkeys || !s->mvals) {
        free(ok), free(ov);
        return 1;
    }
    for (size_t k = 0; k < oc; k++)
        if (ok[k]) {
            size_t m = s->mcap - 1, h = ((ok[k] - 1) * 2654435761u) & m;
            while (s->mkeys[h])
                h = (h + 1) & m;
            s->mkeys[h] = ok[k], s->mvals[h] = ov[k];
        }
    free(ok), free(ov);
    return 0;
}

/* Topological order of the data graph under roots (iterative DFS). */
static rdx_status build_order(scope *s, const rdx_uop *const *roots, size_t nroots)
{
    size_t cap = 64, n = 0, sp = 0, scap = 64;
    const rdx_uop **order = malloc(cap * sizeof *order);
    struct frame {
        const rdx_uop *u;
        uint32_t next;
    } *stack = malloc(scap * sizeof *stack);
    s->mcap = 1024;
    s->mkeys = calloc(s->mcap, sizeof *s->mkeys);
    s->mvals = calloc(s->mcap, sizeof *s->mvals);
    if (!order || !stack || !s->mkeys || !s->mvals)
        goto oom;
    for (size_t r = 0; r < nroots; r++) {
        if (map_find(s, roots[r]) != SIZE_MAX)
            continue;
        if (map_reserve(s, n + sp + 1))
            goto oom;
        stack[sp++] = (struct frame){ roots[r], 0 };
        map_put(s, roots[r], UINT32_MAX); /* on the stack */
        while (sp) {
            struct frame *f = &stack[sp - 1];
            uint32_t first, end = data_srcs(f->u, &first);
            if (f->next < first)
                f->next = first;
            if (f->next < end) {
                const rdx_uop *c = f->u->src[f->next++];
                if (map_find(s, c) != SIZE_MAX)
                    continue;
                if (sp == scap) {
                    scap *= 2;
                    void *ns = realloc(stack, scap * sizeof *stack);
                    if (!ns)
                        goto oom;
                    stack = ns;
                }
                if (map_reserve(s, n + sp + 1))
                    goto oom;
                stack[sp++] = (struct frame){ c, 0 };
                map_put(s, c, UINT32_MAX);
                continue;
            }
            if (n == cap) {
                cap *= 2;
                void *no = realloc(order, cap * sizeof *order);
                if (!no)
                    goto oom;
                order = no;
            }
            /* record the final index */
            size_t m = s->mcap - 1, h = (f->u->id * 2654435761u) & m;
            while (s->mkeys[h] != f->u->id + 1)
                h = (h + 1) & m;
            s->mvals[h] = (uint32_t)n;
            order[n++] = f->u;
            sp--;
        }
    }
    free(stack);
    s->order = order;
    s->n = n;
    s->uses = calloc(n ? n : 1, sizeof *s->uses);
    s->fused = calloc(n ? n : 1, 1);
    s->vals = calloc(n ? n : 1, sizeof *s->vals);
    if (!s->uses || !s->fused || !s->vals)
        return rdx_fail(RDX_ERR_NOMEM, "interp: out of memory");
    return RDX_OK;
oom:
    free(order);
    free(stack);
    return rdx_fail(RDX_ERR_NOMEM, "interp: out of memory");
}

static void scope_free(scope *s)
{
    if (s->vals)
        for (size_t k = 0; k < s->n; k++)
            iv_release(&s->vals[k]);
    free(s->order);
    free(s->uses);
    free(s->fused);
    free(s->vals);
    free(s->mkeys);
    free(s->mvals);
    free(s->vars);
}

static int fusable_mul(const rdx_uop *m)
{
    if (m->op != RDX_OP_MUL)
        return 0;
    switch (m->dtype.scalar) {
    case RDX_FLOAT32:
    case RDX_FLOAT64:
    case RDX_INT32:
    case RDX_UINT32:
    case RDX_INT64:
    case RDX_INDEX:
        return 1;
    default:
        return 0;
    }
}

/* Whether REDUCE u reduces nothing: every axis it names has the constant size 1 (or it
   names none).  Such a REDUCE is its source, as tinygrad never builds a reduction over
   size-1 axes (it returns the tensor itself): max of one NaN is that NaN, not
   fmax(-inf, NaN) = -inf, and the code generator drops such a range the same way.  A
   symbolic axis that is 1 at run time is still folded from the identity (as a loop). */
static int reduce_passes(const rdx_uop *u)
{
    const rdx_uop *m = u->src[0];
    for (uint32_t k = 0; k < u->arg.nints; k++) {
        int64_t ax = u->arg.ints[k], v = 0;
        if (ax < 0 || ax >= (int64_t)m->ndim || !rdx_uop_const_int(m->shape[ax], &v) || v != 1)
            return 0;
    }
    return 1;
}

static void drop(scope *s, size_t idx)
{
    if (--s->uses[idx])
        return;
    if (s->fused[idx]) {
        const rdx_uop *u = s->order[idx];
        for (uint32_t k = 0; k < u->nsrc; k++)
            drop(s, map_find(s, u->src[k]));
        return;
    }
    iv_release(&s->vals[idx]);
}

/* ------------------------------------------------------------- ops */

static const ival *V(scope *s, const rdx_uop *u)
{
    return &s->vals[map_find(s, u)];
}

static rdx_status eval_roots(scope *s, const rdx_uop *const *roots, size_t n, ival *out);

static rdx_status eval_function(scope *s, const rdx_uop *u, ival *out)
{
    const rdx_uop *body = u->src[0];
    if (body->op == RDX_OP_PROGRAM)
        return rdx_fail(RDX_ERR_UNSUPPORTED,
                        "CALL node #%u calls PROGRAM node #%u: machine code, which the "
                        "interpreter cannot run (realize it on a device, rdx_tensor_realize_on)",
                        u->id, body->id);
    if (body->op != RDX_OP_TUPLE)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "%s body is %s, expected TUPLE",
                        rdx_op_name((rdx_op)u->op), rdx_op_name((rdx_op)body->op));
    uint32_t na = u->nsrc - 1;
    ival *args = calloc(na ? na : 1, sizeof *args);
    if (!args)
        return rdx_fail(RDX_ERR_NOMEM, "interp: out of memory");
    for (uint32_t k = 0; k < na; k++)
        args[k] = *V(s, u->src[k + 1]);
    scope sub = { .ip = s->ip, .parent = s, .params = args, .nparams = na };
    memset(out, 0, sizeof *out);
    out->ntup = body->nsrc;
    out->tup = calloc(body->nsrc ? body->nsrc : 1, sizeof *out->tup);
    rdx_status st = out->tup ? eval_roots(&sub, body->src, body->nsrc, out->tup)
                             : rdx_fail(RDX_ERR_NOMEM, "interp: out of memory");
    if (st) {
        free(out->tup);
        out->tup = NULL;
        out->ntup = 0;
    }
    scope_free(&sub);
    free(args);
    return st;
}

static rdx_status eval_param_or_buffer(scope *s, const rdx_uop *u, const int64_t *dims, ival *out)
{
    unsigned es = dt_size(u->dtype);
    int64_t numel = 1;
    for (uint32_t k = 0; k < u->ndim; k++) {
        if (dims[k] && numel > IV_MAX_BYTES / 8 / dims[k])
            return rdx_fail(RDX_ERR_NOMEM, "%s is too large", rdx_op_name((rdx_op)u->op));
        numel *= dims[k];
    }
    if (u->op == RDX_OP_PARAM && s->params) {
        if (u->arg.i < 0 || u->arg.i >= (int64_t)s->nparams)
            return rdx_fail(RDX_ERR_INVALID, "PARAM slot %" PRId64 " but the call has %u arguments",
                            u->arg.i, s->nparams);
        const ival *a = &s->params[u->arg.i];
        if (a->ntup || a->isvoid || a->dt.scalar != rdx_dtype_scalar(u->dtype).scalar)
            return rdx_fail(RDX_ERR_INVALID, "PARAM slot %" PRId64 ": argument dtype differs",
                            u->arg.i);
        if (a->nd != u->ndim)
            return rdx_fail(RDX_ERR_INVALID,
                            "PARAM slot %" PRId64 ": argument rank %u, expected %u", u->arg.i,
                            a->nd, u->ndim);
        for (uint32_t k = 0; k < u->ndim; k++)
            if (a->dims[k] != dims[k])
                return rdx_fail(RDX_ERR_INVALID,
                                "PARAM slot %" PRId64 ": argument axis %u has size %" PRId64
                                ", expected %" PRId64,
                                u->arg.i, k, a->dims[k], dims[k]);
        *out = iv_ref(a);
        return RDX_OK;
    }
    binding *b = find_binding(s->ip, u);
    if (!b) {
        if (u->op == RDX_OP_PARAM)
            return rdx_fail(RDX_ERR_INVALID, "PARAM slot %" PRId64 " has no bound data", u->arg.i);
        istore *st = is_alloc((size_t)numel * es);
        if (!st)
            return RDX_ERR_NOMEM;
        rdx_status r = set_binding(s->ip, u, st);
        if (r)
            return r;
        b = find_binding(s->ip, u);
    }
    if (b->st->nbytes != (size_t)numel * es)
        return rdx_fail(RDX_ERR_INVALID, "bound data has %zu bytes, the shape needs %" PRId64,
                        b->st->nbytes, numel * (int64_t)es);
    memset(out, 0, sizeof *out);
    out->st = b->st;
    b->st->refs++;
    out->dt = rdx_dtype_scalar(u->dtype);
    out->nd = u->ndim;
    int64_t str = 1;
    for (uint32_t k = u->ndim; k-- > 0;) {
        out->dims[k] = dims[k];
        out->str[k] = str;
        str *= dims[k];
    }
    return RDX_OK;
}

static rdx_status eval_store(scope *s, const rdx_uop *u)
{
    const ival *dst = V(s, u->src[0]);
    const ival *val = V(s, u->src[1]);
    if (!dst->st || dst->ntup)
        return rdx_fail(RDX_ERR_INVALID, "STORE target has no storage");
    ival bv, gv, cur;
    iv_broadcast(val, dst->nd, dst->dims, &bv);
    rdx_status st;
    if (u->nsrc == 3) { /* gated: dst = where(gate, val, dst) */
        iv_broadcast(V(s, u->src[2]), dst->nd, dst->dims, &gv);
        st = iv_dense(dst, &cur);
        if (st)
            return st;
        ival res;
        st = iv_new(&res, dst->dt, dst->nd, dst->dims);
        if (!st) {
            const ival *w[3] = { &gv, &bv, &cur };
            st = k_alu(RDX_OP_WHERE, w, 3, &res);
        }
        iv_release(&cur);
        if (st)
            return st;
        bv = res;
    } else {
        st = iv_dense(&bv, &cur); /* the value may alias the target: copy first */
        if (st)
            return st;
        bv = cur;
    }
    ival target = *dst; /* a view of the buffer's storage */
    iv_copy(&target, &bv);
    iv_release(&bv);
    return RDX_OK;
}

static rdx_status eval_node(scope *s, size_t idx, ival *out)
{
    const rdx_uop *u = s->order[idx];
    int64_t dims[MAXD];
    memset(out, 0, sizeof *out);
    rdx_status st;
    if (u->dtype.scalar != RDX_VOID && u->op != RDX_OP_FUNCTION && u->op != RDX_OP_CALL &&
        u->op != RDX_OP_TUPLE) {
        st = node_dims(s, u, dims);
        if (st)
            return st;
    }
    rdx_op op = (rdx_op)u->op;
    const rdx_opinfo *info = rdx_op_info(op);
    if (info->flags & RDX_OPF_ELEMENTWISE) {
        const ival *srcs[3];
        ival b[3];
        for (uint32_t k = 0; k < u->nsrc; k++) {
            iv_broadcast(V(s, u->src[k]), u->ndim, dims, &b[k]);
            srcs[k] = &b[k];
        }
        if (op == RDX_OP_CAST)
            return iv_cast(srcs[0], u->dtype, out);
        st = iv_new(out, u->dtype, u->ndim, dims);
        if (st)
            return st;
        st = k_alu(op, srcs, u->nsrc, out);
        if (st)
            iv_release(out);
        return st;
    }
    switch (op) {
    case RDX_OP_CONST: {
        st = iv_new(out, u->dtype, 0, dims);
        if (st)
            return st;
        ielem e = { u->arg.i, u->arg.f };
        el_store(out->dt, iv_ptr(out, 0), e);
        return RDX_OK;
    }
    case RDX_OP_DEFINE_VAR:
    case RDX_OP_BIND: {
        int64_t v;
        st = ieval(s, u, &v);
        if (st)
            return st;
        st = iv_new(out, u->dtype, 0, dims);
        if (st)
            return st;
        ielem e = { v, (double)v };
        el_store(out->dt, iv_ptr(out, 0), e);
        return RDX_OK;
    }
    case RDX_OP_BINARY:
        st = iv_new(out, u->dtype, u->ndim, dims);
        if (!st && u->arg.len)
            memcpy(iv_ptr(out, 0), u->arg.str, u->arg.len);
        return st;
    case RDX_OP_BUFFER:
    case RDX_OP_PARAM:
        return eval_param_or_buffer(s, u, dims, out);
    case RDX_OP_RESHAPE:
        return mv_reshape(V(s, u->src[0]), u->ndim, dims, out);
    case RDX_OP_PERMUTE: {
        const ival *t = V(s, u->src[0]);
        *out = iv_ref(t);
        for (uint32_t k = 0; k < u->ndim; k++) {
            out->dims[k] = t->dims[u->arg.ints[k]];
            out->str[k] = t->str[u->arg.ints[k]];
        }
        return RDX_OK;
    }
    case RDX_OP_REPLICATED: { /* the copies along axis k are identical: a view of copy 0 */
        const ival *t = V(s, u->src[0]);
        uint32_t k = (uint32_t)u->arg.i;
        *out = iv_ref(t);
        for (uint32_t j = k; j + 1 < t->nd; j++) {
            out->dims[j] = t->dims[j + 1];
            out->str[j] = t->str[j + 1];
        }
        out->nd = t->nd - 1;
        return RDX_OK;
    }
    case RDX_OP_EXPAND: {
        iv_broadcast(V(s, u->src[0]), u->ndim, dims, out);
        *out = iv_ref(out);
        return RDX_OK;
    }
    case RDX_OP_SHRINK: {
        int64_t off[MAXD];
        st = operand_ints(s, u->src[1], off);
        if (st)
            return st;
        const ival *t = V(s, u->src[0]);
        *out = iv_ref(t);
        for (uint32_t k = 0; k < u->ndim; k++) {
            if (off[k] < 0 || off[k] + dims[k] > t->dims[k]) {
                iv_release(out);
                return rdx_fail(RDX_ERR_INVALID,
                                "axis %u: offset %" PRId64 " + size %" PRId64 " exceeds %" PRId64,
                                k, off[k], dims[k], t->dims[k]);
            }
            out->off += off[k] * t->str[k];
            out->dims[k] = dims[k];
        }
        return RDX_OK;
    }
    case RDX_OP_PAD: {
        int64_t off[MAXD];
        st = operand_ints(s, u->src[1], off);
        if (st)
            return st;
        const ival *t = V(s, u->src[0]);
        for (uint32_t k = 0; k < u->ndim; k++)
            if (off[k] < 0 || off[k] + t->dims[k] > dims[k])
                return rdx_fail(RDX_ERR_INVALID,
                                "axis %u: offset %" PRId64 " + size %" PRId64 " exceeds %" PRId64,
                                k, off[k], t->dims[k], dims[k]);
        return mv_pad(t, off, u->ndim, dims, out);
    }
    case RDX_OP_FLIP: {
        const ival *t = V(s, u->src[0]);
        *out = iv_ref(t);
        for (uint32_t k = 0; k < u->ndim && k < u->arg.nints; k++)
            if (u->arg.ints[k] && t->dims[k] > 0) {
                out->off += (t->dims[k] - 1) * t->str[k];
                out->str[k] = -t->str[k];
            }
        return RDX_OK;
    }
    case RDX_OP_INDEX: {
        const ival *ix[MAXD];
        if (u->nsrc - 1 > MAXD)
            return rdx_fail(RDX_ERR_UNSUPPORTED, "too many indices");
        for (uint32_t k = 1; k < u->nsrc; k++)
            ix[k - 1] = V(s, u->src[k]);
        return mv_index(V(s, u->src[0]), ix, u->nsrc - 1, u->ndim, dims, out);
    }
    case RDX_OP_STACK: {
        st = iv_new(out, u->dtype, u->ndim, dims);
        if (st)
            return st;
        for (uint32_t k = 0; k < u->nsrc; k++) {
            ival win = *out;
            win.off = k * out->str[0];
            win.nd = out->nd - 1;
            for (uint32_t j = 0; j < win.nd; j++) {
                win.dims[j] = out->dims[j + 1];
                win.str[j] = out->str[j + 1];
            }
            iv_copy(&win, V(s, u->src[k]));
        }
        return RDX_OK;
    }
    case RDX_OP_BITCAST: {
        const ival *t = V(s, u->src[0]);
        if (dt_size(t->dt) == dt_size(u->dtype)) {
            *out = iv_ref(t);
            out->dt = rdx_dtype_scalar(u->dtype);
            return RDX_OK;
        }
        st = iv_dense(t, out);
        if (st)
            return st;
        out->dt = rdx_dtype_scalar(u->dtype);
        int64_t str = 1;
        for (uint32_t k = u->ndim; k-- > 0;) {
            out->dims[k] = dims[k];
            out->str[k] = str;
            str *= dims[k];
        }
        return RDX_OK;
    }
    case RDX_OP_REDUCE: {
        const rdx_uop *m = u->src[0];
        if (reduce_passes(u)) { /* the same elements, the same (size-1 kept) shape */
            st = iv_dense(V(s, m), out);
            if (!st)
                out->dt = rdx_dtype_scalar(u->dtype);
            return st;
        }
        st = iv_new(out, u->dtype, u->ndim, dims);
        if (st)
            return st;
        if (s->fused[map_find(s, m)]) {
            int64_t md[MAXD];
            st = node_dims(s, m, md);
            ival a, b;
            if (!st) {
                iv_broadcast(V(s, m->src[0]), m->ndim, md, &a);
                iv_broadcast(V(s, m->src[1]), m->ndim, md, &b);
                st = k_mulreduce(&a, &b, out);
            }
            if (st)
                iv_release(out);
            return st;
        }
        st = k_reduce((rdx_redop)u->arg.sub, V(s, m), out);
        if (st)
            iv_release(out);
        return st;
    }
    case RDX_OP_FUNCTION:
    case RDX_OP_CALL:
        return eval_function(s, u, out);
    case RDX_OP_TUPLE:
        out->ntup = u->nsrc;
        out->tup = calloc(u->nsrc ? u->nsrc : 1, sizeof *out->tup);
        if (!out->tup)
            return rdx_fail(RDX_ERR_NOMEM, "interp: out of memory");
        for (uint32_t k = 0; k < u->nsrc; k++)
            out->tup[k] = iv_ref(V(s, u->src[k]));
        return RDX_OK;
    case RDX_OP_GETTUPLE: {
        const ival *t = V(s, u->src[0]);
        if (!t->ntup || u->arg.i < 0 || u->arg.i >= (int64_t)t->ntup)
            return rdx_fail(RDX_ERR_INVALID, "GETTUPLE %" PRId64 " of a %u-tuple", u->arg.i,
                            t->ntup);
        *out = iv_ref(&t->tup[u->arg.i]);
        return RDX_OK;
    }
    case RDX_OP_LOAD: {
        const ival *t = V(s, u->src[0]);
        if (u->nsrc == 1) {
            *out = iv_ref(t);
            return RDX_OK;
        }
        ival g, a, z, bt;
        iv_broadcast(V(s, u->src[u->nsrc - 1]), t->nd, t->dims, &g);
        iv_broadcast(t, t->nd, t->dims, &bt);
        if (u->nsrc == 3) {
            iv_broadcast(V(s, u->src[1]), t->nd, t->dims, &a);
            z = a;
        } else {
            st = iv_new(&z, t->dt, 0, dims);
            if (st)
                return st;
            iv_broadcast(&z, t->nd, t->dims, &a);
        }
        st = iv_new(out, t->dt, t->nd, t->dims);
        if (!st) {
            const ival *w[3] = { &g, &bt, &a };
            st = k_alu(RDX_OP_WHERE, w, 3, out);
        }
        if (u->nsrc == 2)
            iv_release(&z);
        return st;
    }
    case RDX_OP_STORE:
        out->isvoid = 1;
        return eval_store(s, u);
    case RDX_OP_AFTER:
    case RDX_OP_CONTIGUOUS:
    case RDX_OP_CONTIGUOUSBACKWARD:
    case RDX_OP_DETACH:
        *out = iv_ref(V(s, u->src[0]));
        return RDX_OK;
    case RDX_OP_SINK:
    case RDX_OP_GROUP:
        out->isvoid = 1;
        return RDX_OK;
    default:
        return rdx_fail(RDX_ERR_UNSUPPORTED, "%s is not a tensor-level op", rdx_op_name(op));
    }
}

static rdx_status bind_param_vars(scope *s)
{
    for (size_t k = 0; k < s->n; k++) {
        const rdx_uop *u = s->order[k];
        if (u->op != RDX_OP_PARAM || u->arg.i < 0 || u->arg.i >= (int64_t)s->nparams)
            continue;
        const ival *a = &s->params[u->arg.i];
        if (a->nd != u->ndim)
            continue; /* reported when the PARAM is evaluated */
        for (uint32_t d = 0; d < u->ndim; d++) {
            const rdx_uop *v = u->shape[d];
            int64_t have;
            if (v->op != RDX_OP_DEFINE_VAR || lookup_var(s, v, &have))
                continue;
            rdx_status st = check_var_range(v, a->dims[d]);
            if (!st)
                st = push_var(&s->vars, &s->nvars, &s->cvars, v, a->dims[d]);
            if (st)
                return st;
        }
    }
    return RDX_OK;
}

static rdx_status eval_roots(scope *s, const rdx_uop *const *roots, size_t n, ival *out)
{
    rdx_status st = build_order(s, roots, n);
    if (st)
        return st;
    for (size_t k = 0; k < s->n; k++) {
        uint32_t first, end = data_srcs(s->order[k], &first);
        for (uint32_t j = first; j < end; j++)
            s->uses[map_find(s, s->order[k]->src[j])]++;
    }
    for (size_t r = 0; r < n; r++)
        s->uses[map_find(s, roots[r])]++;
    for (size_t k = 0; k < s->n; k++) {
        const rdx_uop *u = s->order[k];
        if (u->op == RDX_OP_REDUCE && u->nsrc == 1 && u->arg.sub == RDX_RED_ADD &&
            fusable_mul(u->src[0]) && !reduce_passes(u)) {
            size_t m = map_find(s, u->src[0]);
            if (s->uses[m] == 1)
                s->fused[m] = 1;
        }
    }
    if (s->params) {
        st = bind_param_vars(s);
        if (st)
            return st;
    }
    for (size_t k = 0; k < s->n; k++) {
        if (s->fused[k])
            continue;
        const rdx_uop *u = s->order[k];
        st = eval_node(s, k, &s->vals[k]);
        if (st) {
            char d[160];
            return rdx_fail_context(st, "interp: %s %s node #%u", rdx_op_name((rdx_op)u->op),
                                    rdx_uop_describe(u, d, sizeof d), u->id);
        }
        uint32_t first, end = data_srcs(u, &first);
        for (uint32_t j = first; j < end; j++)
            drop(s, map_find(s, u->src[j]));
    }
    for (size_t r = 0; r < n; r++)
        out[r] = iv_ref(&s->vals[map_find(s, roots[r])]);
    return RDX_OK;
}

rdx_status rdx_interp_realize(rdx_interp *ip, const rdx_uop *const *roots, size_t n, rdx_array *out)
{
    for (size_t r = 0; r < n; r++)
        if (!roots[r])
            return rdx_fail(RDX_ERR_INVALID, "interp: root %zu is NULL", r);
    ival *vals = calloc(n ? n : 1, sizeof *vals);
    if (!vals)
        return rdx_fail(RDX_ERR_NOMEM, "interp: out of memory");
    iscache *outer = is_cache;
    is_cache = &ip->cache;
    scope top = { .ip = ip };
    rdx_status st = eval_roots(&top, roots, n, vals);
    scope_free(&top);
    size_t made = 0;
    for (; !st && made < n; made++) {
        const ival *v = &vals[made];
        rdx_array *a = &out[made];
        memset(a, 0, sizeof *a);
        if (v->isvoid || v->ntup || !v->st) {
            a->dtype = rdx_dtype_of(RDX_VOID);
            continue;
        }
        ival d;
        if (iv_contig(v) && v->st->refs == 1) /* a value nothing else holds: no copy */
            d = iv_ref(v);
        else if ((st = iv_dense(v, &d)))
            break;
        if (ip->nres == ip->cres) {
            size_t nc = ip->cres ? ip->cres * 2 : 16;
            istore **nr = realloc(ip->results, nc * sizeof *nr);
            if (!nr) {
                iv_release(&d);
                st = rdx_fail(RDX_ERR_NOMEM, "interp: out of memory");
                break;
            }
            ip->results = nr, ip->cres = nc;
        }
        a->dtype = v->dt;
        a->ndim = v->nd;
        memcpy(a->dims, v->dims, sizeof a->dims);
        a->numel = iv_numel(v);
        a->data = iv_ptr(&d, 0);
        ip->results[ip->nres++] = d.st; /* keeps d's reference */
    }
    for (size_t r = 0; r < n; r++)
        iv_release(&vals[r]);
    free(vals);
    is_cache = outer;
    return st;
}

double rdx_array_get(const rdx_array *a, int64_t k)
{
    ielem e = el_load(a->dtype, (const char *)a->data + k * dt_size(a->dtype));
    if (dt_isfloat(a->dtype))
        return e.f;
    if (a->dtype.scalar == RDX_UINT64)
        return (double)(uint64_t)e.i;
    return (double)e.i;
}

int64_t rdx_array_get_int(const rdx_array *a, int64_t k)
{
    ielem e = el_load(a->dtype, (const char *)a->data + k * dt_size(a->dtype));
    if (dt_isfloat(a->dtype))
        return (int64_t)e.f;
    return e.i;
}
