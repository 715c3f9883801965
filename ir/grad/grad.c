/*
 * ir/grad/grad.c — reverse-mode gradients over tensor-level UOp graphs.
 *
 * The loss graph is first inlined (every GETTUPLE(FUNCTION) is replaced by
 * its body with the PARAMs substituted, except the transcendental wrappers,
 * which keep their exact derivative), then gradients flow from the loss back
 * in reverse topological order, one rule per op, summed where a node has
 * several users.  The gradient graph is built with the tensor API, so it is
 * in the spec's vocabulary too.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/tensor/tensor_internal.h"

/* Sum grad over the axes that were broadcast to reach it, to shape of target. */
static const rdx_tensor *unbroadcast(rdx_graph *g, const rdx_tensor *grad, const rdx_uop *target)
{
    if (!grad)
        return NULL;
    int same = grad->ndim == target->ndim;
    for (uint32_t k = 0; same && k < target->ndim; k++)
        same = grad->shape[k] == target->shape[k];
    if (same)
        return grad;
    uint32_t sh = grad->ndim - target->ndim;
    int64_t ax[TMAXD];
    uint32_t n = 0;
    const rdx_uop *one = rdx_ir_int(g->ir, 1);
    for (uint32_t k = 0; k < grad->ndim; k++)
        if (k < sh || (target->shape[k - sh] == one && grad->shape[k] != one))
            ax[n++] = k;
    const rdx_tensor *r = n ? t_reduce(g, grad, RDX_RED_ADD, n, ax) : grad;
    return t_reshape_u(g, r, target->ndim, target->shape);
}

static const rdx_tensor *zeros_like(rdx_graph *g, const rdx_uop *t)
{
    return rdx_tensor_full_like(g, t, 0);
}

/* One-hot weights for INDEX gradients: (arange(d) == i) shaped along `pos` of rank nd. */
static const rdx_tensor *axis_onehot(rdx_graph *g, const rdx_tensor *i, int64_t d, uint32_t nd,
                                     uint32_t ipos, uint32_t dpos, rdx_dtype dt)
{
    int64_t sh[TMAXD];
    for (uint32_t k = 0; k < nd; k++)
        sh[k] = 1;
    sh[dpos] = d;
    const rdx_tensor *ar = rdx_tensor_reshape(g, rdx_tensor_arange(g, d), nd, sh);
    const rdx_tensor *iv = i;
    if (i->ndim == 1) {
        for (uint32_t k = 0; k < nd; k++)
            sh[k] = 1;
        sh[ipos] = rdx_tensor_dim(i, 0);
        iv = rdx_tensor_reshape(g, i, nd, sh);
    }
    return rdx_tensor_cast(g, rdx_tensor_cmpeq(g, iv, ar), dt);
}

/* Gradient of INDEX(t, idx...) : scatter gu back through one-hot products. */
static const rdx_tensor *index_grad(rdx_graph *g, const rdx_uop *u, const rdx_tensor *gu)
{
    const rdx_uop *t = u->src[0];
    uint32_t ni = u->nsrc - 1, nvec = 0;
    for (uint32_t k = 0; k < ni; k++)
        nvec += u->src[k + 1]->ndim == 1;
    uint32_t rest = t->ndim - ni, nd = nvec + ni + rest;
    if (nd > TMAXD)
        return t_fail(g, RDX_ERR_UNSUPPORTED, "gradient: INDEX rank too large");
    int64_t td[TMAXD], gd[TMAXD];
    if (!t_dims(g, "gradient", t, td) || !t_dims(g, "gradient", gu, gd))
        return NULL;
    /* gu (vec axes..., rest...) -> (vec axes..., 1 x ni, rest...) */
    int64_t sh[TMAXD];
    for (uint32_t k = 0; k < nvec; k++)
        sh[k] = gd[k];
    for (uint32_t k = 0; k < ni; k++)
        sh[nvec + k] = 1;
    for (uint32_t k = 0; k < rest; k++)
        sh[nvec + ni + k] = gd[nvec + k];
    const rdx_tensor *acc = rdx_tensor_reshape(g, gu, nd, sh);
    for (uint32_t k = 0, v = 0; k < ni; k++) {
        const rdx_uop *ix = u->src[k + 1];
        acc = rdx_tensor_mul(g, acc, axis_onehot(g, ix, td[k], nd, v, nvec + k, gu->dtype));
        v += ix->ndim == 1;
    }
    if (nvec) {
        int ax[TMAXD];
        for (uint32_t k = 0; k < nvec; k++)
            ax[k] = (int)k;
        acc = rdx_tensor_sum(g, acc, nvec, ax, 0);
    }
    return acc;
}

/* The spec's assign form made by COPY of a value: AFTER(buf, STORE(buf, v)). */
static int is_assign(const rdx_uop *u)
{
    return u->op == RDX_OP_AFTER && u->nsrc == 2 && u->src[1]->op == RDX_OP_STORE &&
           u->src[1]->nsrc == 2 && u->src[1]->src[0] == u->src[0];
}

/* Contributions of node u with gradient gu to its sources: out[k] (NULL = none). */
static rdx_status rule(rdx_graph *g, const rdx_uop *u, const rdx_tensor *gu, const rdx_tensor **out)
{
    rdx_op op = (rdx_op)u->op;
    const rdx_uop *a = u->nsrc > 0 ? u->src[0] : NULL, *b = u->nsrc > 1 ? u->src[1] : NULL;
    int which;
    switch (op) {
    case RDX_OP_ADD:
        out[0] = unbroadcast(g, gu, a);
        out[1] = unbroadcast(g, gu, b);
        return RDX_OK;
    case RDX_OP_MUL:
        out[0] = unbroadcast(g, rdx_tensor_mul(g, gu, b), a);
        out[1] = unbroadcast(g, rdx_tensor_mul(g, gu, a), b);
        return RDX_OK;
    case RDX_OP_MAX: {
        /* ties split the gradient in half */
        const rdx_tensor *w = rdx_tensor_add(
            g, rdx_tensor_cast(g, rdx_tensor_cmpgt(g, a, b), u->dtype),
            rdx_tensor_muls(g, rdx_tensor_cast(g, rdx_tensor_cmpeq(g, a, b), u->dtype), 0.5));
        out[0] = unbroadcast(g, rdx_tensor_mul(g, gu, w), a);
        out[1] =
            unbroadcast(g, rdx_tensor_mul(g, gu, rdx_tensor_adds(g, rdx_tensor_neg(g, w), 1.0)), b);
        return RDX_OK;
    }
    case RDX_OP_RECIP:
        out[0] = rdx_tensor_neg(g, rdx_tensor_mul(g, gu, rdx_tensor_mul(g, u, u)));
        return RDX_OK;
    case RDX_OP_WHERE: {
        const rdx_tensor *z = rdx_tensor_const(g, gu->dtype, 0);
        out[1] = unbroadcast(g, rdx_tensor_where(g, a, gu, z), b);
        out[2] = unbroadcast(g, rdx_tensor_where(g, a, z, gu), u->src[2]);
        return RDX_OK;
    }
    case RDX_OP_CAST:
        if (rdx_dtype_is_float(a->dtype))
            out[0] = rdx_tensor_cast(g, gu, a->dtype);
        return RDX_OK;
    case RDX_OP_TRUNC:
    case RDX_OP_MOD:
    case RDX_OP_IDIV:
    case RDX_OP_CMPLT:
    case RDX_OP_CMPNE:
    case RDX_OP_XOR:
    case RDX_OP_OR:
    case RDX_OP_AND:
    case RDX_OP_SHL:
    case RDX_OP_SHR:
    case RDX_OP_BITCAST:
    case RDX_OP_DETACH:
        return RDX_OK; /* piecewise constant / not differentiable: no gradient */
    case RDX_OP_CONTIGUOUS:
    case RDX_OP_AFTER:
        out[0] = gu;
        return RDX_OK;
    case RDX_OP_CONTIGUOUSBACKWARD:
        out[0] = rdx_tensor_contiguous(g, gu);
        return RDX_OK;
    case RDX_OP_LOAD:
        if (u->nsrc != 1)
            return rdx_fail(RDX_ERR_UNSUPPORTED, "gradient: gated LOAD");
        /* a COPY: the gradient goes back to the source's device */
        out[0] = u->device == a->device ? gu : t_copy_to(g, gu, a->device);
        return RDX_OK;
    case RDX_OP_RESHAPE:
        out[0] = t_reshape_u(g, gu, a->ndim, a->shape);
        return RDX_OK;
    case RDX_OP_PERMUTE: {
        int inv[TMAXD];
        for (uint32_t k = 0; k < u->arg.nints; k++)
            inv[u->arg.ints[k]] = (int)k;
        out[0] = rdx_tensor_permute(g, gu, inv);
        return RDX_OK;
    }
    case RDX_OP_EXPAND:
        out[0] = unbroadcast(g, gu, a);
        return RDX_OK;
    case RDX_OP_PAD: {
        const rdx_uop *s[3] = { gu, u->src[1], rdx_ir_shape_u(g->ir, a->shape, a->ndim) };
        out[0] = t_chk(g, "gradient", rdx_ir_node(g->ir, RDX_OP_SHRINK, s, 3, NULL));
        return RDX_OK;
    }
    case RDX_OP_SHRINK: {
        const rdx_uop *s[3] = { gu, u->src[1], rdx_ir_shape_u(g->ir, a->shape, a->ndim) };
        out[0] = t_chk(g, "gradient", rdx_ir_node(g->ir, RDX_OP_PAD, s, 3, NULL));
        return RDX_OK;
    }
    case RDX_OP_FLIP: {
        int ax[TMAXD];
        uint32_t n = 0;
        for (uint32_t k = 0; k < u->arg.nints; k++)
            if (u->arg.ints[k])
                ax[n++] = (int)k;
        out[0] = rdx_tensor_flip(g, gu, n, ax);
        return RDX_OK;
    }
    case RDX_OP_STACK:
        for (uint32_t k = 0; k < u->nsrc; k++) {
            const rdx_tensor *i = rdx_tensor_const(g, rdx_dtype_of(RDX_INT32), k);
            out[k] = rdx_tensor_index(g, gu, 1, &i);
        }
        return RDX_OK;
    case RDX_OP_INDEX:
        out[0] = index_grad(g, u, gu);
        return RDX_OK;
    case RDX_OP_REDUCE: {
        switch (u->arg.sub) {
        case RDX_RED_ADD:
            out[0] = t_broadcast_to(g, gu, a->ndim, a->shape);
            return RDX_OK;
        case RDX_RED_MAX:
        case RDX_RED_MIN: {
            const rdx_tensor *mask = rdx_tensor_cast(
                g, rdx_tensor_cmpeq(g, a, t_broadcast_to(g, u, a->ndim, a->shape)), a->dtype);
            const rdx_tensor *cnt = t_reduce(g, mask, RDX_RED_ADD, u->arg.nints, u->arg.ints);
            out[0] = rdx_tensor_mul(
                g, mask, t_broadcast_to(g, rdx_tensor_div(g, gu, cnt), a->ndim, a->shape));
            return RDX_OK;
        }
        case RDX_RED_MUL:
            out[0] = rdx_tensor_div(
                g, t_broadcast_to(g, rdx_tensor_mul(g, gu, u), a->ndim, a->shape), a);
            return RDX_OK;
        default:
            break;
        }
        break;
    }
    case RDX_OP_GETTUPLE:
        if (t_transcendental(g, u, &which)) {
            const rdx_uop *x = u->src[0]->src[1];
            const rdx_tensor *d = NULL;
            switch (which) {
            case T_TR_EXP2:
                d = rdx_tensor_muls(g, u, M_LN2);
                break;
            case T_TR_LOG2:
                d = rdx_tensor_recip(g, rdx_tensor_muls(g, x, M_LN2));
                break;
            case T_TR_SIN:
                d = rdx_tensor_cos(g, x);
                break;
            default:
                d = rdx_tensor_recip(g, rdx_tensor_muls(g, u, 2.0));
                break;
            }
            out[0] = rdx_tensor_mul(g, gu, d);
            return RDX_OK;
        }
        break;
    default:
        break;
    }
    char s[160];
    return rdx_fail(RDX_ERR_UNSUPPORTED, "gradient: no rule for %s",
                    rdx_uop_describe(u, s, sizeof s));
}

/* The number of gradient sources of u in the inlined graph; *one is the single special source
 * (a transcendental's argument, an assign's value) or NULL when they are u->src[0..n). */
static uint32_t grad_nsrc(rdx_graph *g, const rdx_uop *u, const rdx_uop **one)
{
    int w;
    *one = NULL;
    if (t_transcendental(g, u, &w)) {
        *one = u->src[0]->src[1];
        return 1;
    }
    if (is_assign(u)) { /* AFTER(buf, STORE(buf, v)): the value flows through */
        *one = u->src[1]->src[1];
        return 1;
    }
    switch ((rdx_op)u->op) {
    case RDX_OP_RESHAPE:
    case RDX_OP_EXPAND:
    case RDX_OP_PAD:
    case RDX_OP_SHRINK:
        return 1;
    case RDX_OP_BUFFER:
    case RDX_OP_PARAM:
    case RDX_OP_CONST:
    case RDX_OP_DEFINE_VAR:
    case RDX_OP_BIND:
        return 0;
    default:
        return u->nsrc;
    }
}

#define GSRC(u, one, k) ((one) ? (one) : (u)->src[k])

rdx_status rdx_gradient(rdx_graph *g, const rdx_tensor *loss, const rdx_tensor *const *params,
                        size_t n, const rdx_tensor **grads)
{
    for (size_t k = 0; k < n; k++)
        grads[k] = NULL;
    if (g->err)
        return g->err;
    if (!loss)
        return t_status(g, rdx_fail(RDX_ERR_INVALID, "gradient: loss is NULL"));
    if (!rdx_dtype_is_float(loss->dtype))
        return t_status(g, rdx_fail(RDX_ERR_INVALID, "gradient: loss must be a float tensor"));
    for (size_t k = 0; k < n; k++)
        if (!params[k])
            return t_status(g, rdx_fail(RDX_ERR_INVALID, "gradient: parameter %zu is NULL", k));
    t_map none = { 0 };
    const rdx_uop *L;
    rdx_status st = t_subst(g, loss, &none, 1, &L); /* inline FUNCTION calls */
    if (st)
        return t_status(g, st);
    /* topological order over the gradient sources */
    const rdx_uop **order = NULL;
    size_t cnt = 0, cap = 0;
    t_map seen = { 0 }, grad = { 0 }, needs = { 0 };
    for (size_t k = 0; k < n; k++)
        if (!t_map_put(&needs, params[k], params[k]))
            st = rdx_fail(RDX_ERR_NOMEM, "gradient: out of memory");
    {
        size_t sp = 0, scap = 64;
        struct fr {
            const rdx_uop *u, *one;
            uint32_t next, ns;
        } *stk = malloc(scap * sizeof *stk);
        if (!stk) {
            st = rdx_fail(RDX_ERR_NOMEM, "gradient: out of memory");
            goto out;
        }
        stk[sp].u = L, stk[sp].next = 0, stk[sp].ns = grad_nsrc(g, L, &stk[sp].one), sp++;
        if (!t_map_put(&seen, L, L))
            st = rdx_fail(RDX_ERR_NOMEM, "gradient: out of memory");
        while (sp && !st) {
            struct fr *f = &stk[sp - 1];
            if (f->next < f->ns) {
                const rdx_uop *c = GSRC(f->u, f->one, f->next);
                f->next++;
                if (t_map_get(&seen, c))
                    continue;
                if (!t_map_put(&seen, c, c)) {
                    st = rdx_fail(RDX_ERR_NOMEM, "gradient: out of memory");
                    break;
                }
                if (sp == scap) {
                    void *ns = realloc(stk, (scap *= 2) * sizeof *stk);
                    if (!ns) {
                        st = rdx_fail(RDX_ERR_NOMEM, "gradient: out of memory");
                        break;
                    }
                    stk = ns;
                    f = &stk[sp - 1];
                }
                stk[sp].u = c, stk[sp].next = 0, stk[sp].ns = grad_nsrc(g, c, &stk[sp].one), sp++;
                continue;
            }
            /* does u depend on a parameter? */
            int dep = t_map_get(&needs, f->u) != NULL;
            for (uint32_t k = 0; k < f->ns && !dep; k++)
                dep = t_map_get(&needs, GSRC(f->u, f->one, k)) != NULL;
            if (dep && !t_map_get(&needs, f->u) && !t_map_put(&needs, f->u, f->u)) {
                st = rdx_fail(RDX_ERR_NOMEM, "gradient: out of memory");
                break;
            }
            if (cnt == cap) {
                cap = cap ? cap * 2 : 64;
                void *no = realloc(order, cap * sizeof *order);
                if (!no) {
                    st = rdx_fail(RDX_ERR_NOMEM, "gradient: out of memory");
                    break;
                }
                order = no;
            }
            order[cnt++] = f->u;
            sp--;
        }
        free(stk);
    }
    if (st)
        goto out;
    if (!t_map_put(&grad, L, rdx_tensor_full_like(g, L, 1.0)))
        st = rdx_fail(RDX_ERR_NOMEM, "gradient: out of memory");
    for (size_t i = cnt; i-- > 0 && !st;) {
        const rdx_uop *u = order[i];
        const rdx_tensor *gu = t_map_get(&grad, u);
        if (!gu || !t_map_get(&needs, u) || u->op == RDX_OP_BUFFER || u->op == RDX_OP_PARAM)
            continue;
        const rdx_uop *one;
        uint32_t ns = grad_nsrc(g, u, &one);
        int any = 0;
        for (uint32_t k = 0; k < ns; k++)
            any |= t_map_get(&needs, GSRC(u, one, k)) != NULL &&
                   rdx_dtype_is_float(GSRC(u, one, k)->dtype);
        if (!any)
            continue;
        const rdx_tensor *small[8] = { 0 }, **contrib = small;
        if (u->nsrc > 8 && !(contrib = calloc(u->nsrc, sizeof *contrib))) {
            st = rdx_fail(RDX_ERR_NOMEM, "gradient: out of memory");
            break;
        }
        st = rule(g, u, gu, contrib);
        if (!st && g->err)
            st = g->err;
        for (uint32_t k = 0; k < ns && !st; k++) {
            const rdx_uop *s = GSRC(u, one, k);
            const rdx_tensor *c = contrib[k];
            if (!c || !t_map_get(&needs, s) || !rdx_dtype_is_float(s->dtype))
                continue;
            const rdx_tensor *prev = t_map_get(&grad, s);
            if (!t_map_put(&grad, s, prev ? rdx_tensor_add(g, prev, c) : c))
                st = rdx_fail(RDX_ERR_NOMEM, "gradient: out of memory");
        }
        if (contrib != small)
            free(contrib);
    }
    for (size_t k = 0; k < n && !st; k++) {
        const rdx_tensor *gk = t_map_get(&grad, params[k]);
        grads[k] = gk ? gk : zeros_like(g, params[k]);
        if (!grads[k])
            st = g->err ? g->err : RDX_ERR_INVALID;
    }
out:
    free(order);
    t_map_free(&seen);
    t_map_free(&grad);
    t_map_free(&needs);
    if (st) {
        for (size_t k = 0; k < n; k++)
            grads[k] = NULL;
        return t_status(g, st);
    }
    return RDX_OK;
}
