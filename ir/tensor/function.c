/*
 * ir/tensor/function.c — the spec's @function: capture a builder on PARAM
 * placeholders, turn every BUFFER it reaches into a further PARAM
 * (deduplicated), wrap the results in a TUPLE, and call the FUNCTION many
 * times with GETTUPLE per result; DEFINE_VAR sizes are bound per call.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ir/tensor/tensor_internal.h"

static const rdx_uop *placeholder(rdx_graph *g, int64_t slot, const rdx_uop *like)
{
    rdx_uop_arg arg = rdx_uop_arg_none();
    arg.i = slot;
    arg.dtype = like->dtype;
    arg.device = like->device;
    const rdx_uop *shape = rdx_ir_shape_u(g->ir, like->shape, like->ndim);
    return shape ? rdx_ir_node(g->ir, RDX_OP_PARAM, &shape, 1, &arg) : NULL;
}

static rdx_status register_fn(rdx_graph *g, rdx_function *f)
{
    if (g->nfns == g->cfns) {
        size_t nc = g->cfns ? g->cfns * 2 : 8;
        rdx_function **n = realloc(g->fns, nc * sizeof *n);
        if (!n)
            return rdx_fail(RDX_ERR_NOMEM, "function: out of memory");
        g->fns = n, g->cfns = nc;
    }
    g->fns[g->nfns++] = f;
    return RDX_OK;
}

/* Capture with placeholder k built from examples[uniq[k]]; builder sees in[j] = ph[map[j]]. */
static rdx_status capture(rdx_graph *g, rdx_function_builder fn, void *user,
                          const rdx_tensor *const *uniq, size_t nuniq, const size_t *map,
                          size_t nin, rdx_function **out)
{
    if (g->err)
        return g->err;
    if (nuniq > 256 || nin > 256)
        return t_status(g, rdx_fail(RDX_ERR_INVALID, "function: too many inputs"));
    const rdx_uop *ph[256], *in[256];
    for (size_t k = 0; k < nuniq; k++) {
        if (!uniq[k])
            return t_status(g, rdx_fail(RDX_ERR_INVALID, "function: input %zu is NULL", k));
        ph[k] = placeholder(g, (int64_t)k, uniq[k]);
        if (!ph[k])
            return t_status(g, RDX_ERR_INVALID);
    }
    for (size_t j = 0; j < nin; j++)
        in[j] = ph[map[j]];
    const rdx_tensor *outs[RDX_FUNCTION_MAX_OUT];
    size_t nout = 0;
    rdx_status st = fn(g, in, nin, outs, &nout, user);
    if (st)
        return t_status(g, st);
    if (g->err)
        return g->err;
    if (nout == 0 || nout > RDX_FUNCTION_MAX_OUT)
        return t_status(g, rdx_fail(RDX_ERR_INVALID,
                                    "function: the builder returned %zu results (1..%d)", nout,
                                    RDX_FUNCTION_MAX_OUT));
    for (size_t k = 0; k < nout; k++)
        if (!outs[k])
            return t_status(g, rdx_fail(RDX_ERR_INVALID, "function: result %zu is NULL", k));
    /* every BUFFER the results reach becomes PARAM nuniq + j */
    const rdx_uop **order;
    size_t n;
    st = t_topo(outs, nout, &order, &n);
    if (st)
        return t_status(g, st);
    rdx_function *f = calloc(1, sizeof *f);
    t_map repl = { 0 };
    size_t ncap = 0;
    for (size_t k = 0; k < n; k++)
        ncap += order[k]->op == RDX_OP_BUFFER;
    if (f) {
        f->captured = calloc(ncap ? ncap : 1, sizeof *f->captured);
        f->params = calloc(nuniq + ncap ? nuniq + ncap : 1, sizeof *f->params);
    }
    if (!f || !f->captured || !f->params) {
        st = rdx_fail(RDX_ERR_NOMEM, "function: out of memory");
        goto done;
    }
    for (size_t k = 0; k < nuniq; k++)
        f->params[k] = ph[k];
    for (size_t k = 0; k < n && !st; k++) {
        const rdx_uop *u = order[k];
        if (u->op != RDX_OP_BUFFER)
            continue;
        const rdx_uop *p = placeholder(g, (int64_t)(nuniq + f->ncap), u);
        if (!p || !t_map_put(&repl, u, p)) {
            st = p ? rdx_fail(RDX_ERR_NOMEM, "function: out of memory") : RDX_ERR_INVALID;
            break;
        }
        f->params[nuniq + f->ncap] = p;
        f->captured[f->ncap++] = u;
    }
    const rdx_uop *body[RDX_FUNCTION_MAX_OUT];
    for (size_t k = 0; k < nout && !st; k++)
        st = t_subst(g, outs[k], &repl, 0, &body[k]);
    if (!st) {
        f->body = rdx_ir_node(g->ir, RDX_OP_TUPLE, body, nout, NULL);
        if (!f->body)
            st = RDX_ERR_INVALID;
    }
    f->nin = nuniq;
    f->nout = nout;
    if (!st)
        st = register_fn(g, f);
done:
    free(order);
    t_map_free(&repl);
    if (st) {
        if (f) {
            free(f->captured);
            free(f->params);
            free(f);
        }
        return t_status(g, st);
    }
    *out = f;
    return RDX_OK;
}

rdx_status rdx_function_capture(rdx_graph *g, rdx_function_builder fn, void *user,
                                const rdx_tensor *const *examples, size_t nin, rdx_function **out)
{
    size_t map[256];
    if (nin > 256)
        return t_status(g, rdx_fail(RDX_ERR_INVALID, "function: too many inputs"));
    for (size_t k = 0; k < nin; k++)
        map[k] = k;
    return capture(g, fn, user, examples, nin, map, nin, out);
}

rdx_status rdx_function_call(rdx_graph *g, const rdx_function *f, const rdx_tensor *const *args,
                             size_t nargs, const rdx_tensor **outs, size_t nout)
{
    if (nout > f->nout)
        return t_status(g, rdx_fail(RDX_ERR_INVALID, "function call: %zu results asked, it has %zu",
                                    nout, f->nout));
    for (size_t k = 0; k < nout; k++)
        outs[k] = NULL;
    if (g->err)
        return g->err;
    if (nargs != f->nin)
        return t_status(g, rdx_fail(RDX_ERR_INVALID, "function call: %zu arguments, expected %zu",
                                    nargs, f->nin));
    size_t ns = 1 + f->nin + f->ncap;
    const rdx_uop **src = malloc(ns * sizeof *src);
    if (!src)
        return t_status(g, rdx_fail(RDX_ERR_NOMEM, "function call: out of memory"));
    src[0] = f->body;
    rdx_status st = RDX_OK;
    for (size_t k = 0; k < nargs && !st; k++) {
        const rdx_uop *p = f->params[k], *a = args[k];
        char d0[32], d1[32], s0[128], s1[128];
        if (!a) {
            st = rdx_fail(RDX_ERR_INVALID, "function call: argument %zu is NULL", k);
            break;
        }
        if (!rdx_dtype_eq(a->dtype, p->dtype) || a->ndim != p->ndim) {
            st = rdx_fail(RDX_ERR_INVALID, "function call: argument %zu is %s%s, expected %s%s", k,
                          rdx_dtype_str(a->dtype, d0, sizeof d0), t_shape_str(a, s0, sizeof s0),
                          rdx_dtype_str(p->dtype, d1, sizeof d1), t_shape_str(p, s1, sizeof s1));
            break;
        }
        for (uint32_t d = 0; d < p->ndim && !st; d++) {
            const rdx_uop *pd = p->shape[d], *ad = a->shape[d];
            int64_t v;
            if (pd == ad)
                continue;
            if (pd->op == RDX_OP_DEFINE_VAR) {
                if (rdx_uop_const_int(ad, &v) && (v < pd->arg.i || v > pd->arg.j))
                    st = rdx_fail(RDX_ERR_INVALID,
                                  "function call: argument %zu axis %u = %" PRId64
                                  " is outside '%s' in [%" PRId64 ", %" PRId64 "]",
                                  k, d, v, pd->arg.str, pd->arg.i, pd->arg.j);
                continue;
            }
            st = rdx_fail(RDX_ERR_INVALID, "function call: argument %zu has shape %s, expected %s",
                          k, t_shape_str(a, s0, sizeof s0), t_shape_str(p, s1, sizeof s1));
        }
        src[1 + k] = a;
    }
    for (size_t k = 0; k < f->ncap; k++)
        src[1 + f->nin + k] = f->captured[k];
    const rdx_uop *fnode = NULL;
    if (!st) {
        fnode = rdx_ir_node(g->ir, RDX_OP_FUNCTION, src, ns, NULL);
        if (!fnode)
            st = RDX_ERR_INVALID;
    }
    free(src);
    for (size_t k = 0; k < nout && !st; k++) {
        rdx_uop_arg gi = rdx_uop_arg_none();
        gi.i = (int64_t)k;
        outs[k] = rdx_ir_node(g->ir, RDX_OP_GETTUPLE, &fnode, 1, &gi);
        if (!outs[k])
            st = RDX_ERR_INVALID;
    }
    return st ? t_status(g, st) : RDX_OK;
}

rdx_status rdx_function_apply(rdx_graph *g, rdx_function_builder fn, void *user,
                              const rdx_tensor *const *args, size_t nargs, const rdx_tensor **outs,
                              size_t *nout)
{
    if (nargs > 256)
        return t_status(g, rdx_fail(RDX_ERR_INVALID, "function: too many inputs"));
    const rdx_tensor *uniq[256];
    size_t map[256], nu = 0;
    for (size_t k = 0; k < nargs; k++) { /* deduplicate by identity */
        size_t j = 0;
        while (j < nu && uniq[j] != args[k])
            j++;
        if (j == nu)
            uniq[nu++] = args[k];
        map[k] = j;
    }
    rdx_function *f;
    rdx_status st = capture(g, fn, user, uniq, nu, map, nargs, &f);
    if (st)
        return st;
    *nout = f->nout;
    return rdx_function_call(g, f, uniq, nu, outs, f->nout);
}

size_t rdx_function_nout(const rdx_function *f)
{
    return f->nout;
}

const rdx_uop *rdx_function_body(const rdx_function *f)
{
    return f->body;
}

size_t rdx_function_ninputs(const rdx_function *f)
{
    return f->nin + f->ncap;
}

const rdx_tensor *rdx_tensor_call_program(rdx_graph *g, const rdx_uop *program,
                                          const rdx_tensor *const *args, size_t nargs, size_t out)
{
    if (g->err)
        return NULL;
    if (!program || program->op != RDX_OP_PROGRAM)
        return t_fail(g, RDX_ERR_INVALID, "call_program: node #%u is %s, not a PROGRAM",
                      program ? program->id : 0,
                      program ? rdx_op_name((rdx_op)program->op) : "NULL");
    if (out >= nargs || nargs > 255)
        return t_fail(g, RDX_ERR_INVALID,
                      "call_program: output argument %zu of %zu arguments (1..255)", out, nargs);
    for (size_t k = 0; k < nargs; k++)
        if (!args[k])
            return t_fail(g, RDX_ERR_INVALID, "call_program: argument %zu is NULL", k);
    if (args[out]->op != RDX_OP_BUFFER)
        return t_fail(g, RDX_ERR_INVALID,
                      "call_program: argument %zu (the one written) is %s node #%u, not a BUFFER "
                      "(rdx_tensor_empty / rdx_tensor_from_data)",
                      out, rdx_op_name((rdx_op)args[out]->op), args[out]->id);
    const rdx_uop *src[256];
    src[0] = program;
    memcpy(src + 1, args, nargs * sizeof *args);
    const rdx_uop *call = rdx_ir_node(g->ir, RDX_OP_CALL, src, nargs + 1, NULL);
    if (!call)
        return t_irfail(g, "call_program");
    const rdx_uop *after[2] = { args[out], call };
    const rdx_uop *r = rdx_ir_node(g->ir, RDX_OP_AFTER, after, 2, NULL);
    return r ? r : t_irfail(g, "call_program");
}
