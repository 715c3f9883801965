/* codegen/callify.c — the pipeline's first stage: a tensor graph becomes one
 * stateless FUNCTION.  Calls are inlined, value-neutral markers dropped, and
 * every concrete buffer becomes a PARAM (argument k = the original buffer; a BINARY's
 * bytes too). */
#include <stdlib.h>

#include <rdx/codegen_front.h>

#include "codegen/front_internal.h"
#include "util/error.h"

static const rdx_uop *inline_call(rdx_match *m)
{
    const rdx_uop *f = m->caps[0];
    if (f->op != RDX_OP_FUNCTION)
        return NULL;
    const rdx_uop *body;
    if (rdx_ir_inline(m->ctx, f, &body)) {
        rdx_rw_fail(m);
        return NULL;
    }
    if (body->op != RDX_OP_TUPLE || m->root->arg.i < 0 || (uint32_t)m->root->arg.i >= body->nsrc) {
        rdx_fail(RDX_ERR_INVALID, "callify: GETTUPLE %lld of a FUNCTION without that result",
                 (long long)m->root->arg.i);
        rdx_rw_fail(m);
        return NULL;
    }
    return body->src[m->root->arg.i];
}

static const rdx_uop *drop_marker(rdx_match *m)
{
    return m->caps[0];
}

static const rdx_pattern_rule rules[] = {
    { "(GETTUPLE $f)", inline_call },
    { "(DETACH $x)", drop_marker },
    { "(CONTIGUOUSBACKWARD $x)", drop_marker },
};

rdx_status rdx_cg_callify(rdx_ir_ctx *ctx, const rdx_uop *const *roots, size_t n,
                          const rdx_uop **fn)
{
    if (!n)
        return rdx_fail(RDX_ERR_INVALID, "callify: no results");
    for (size_t i = 0; i < n; i++)
        if (!roots[i])
            return rdx_fail(RDX_ERR_INVALID, "callify: result %zu is NULL", i);
    rdx_rewriter *rw = NULL;
    rdx_status st = rdx_rewriter_create(rules, sizeof rules / sizeof *rules, &rw);
    const rdx_uop *tup = st ? NULL : rdx_ir_node(ctx, RDX_OP_TUPLE, roots, n, NULL);
    if (!st && !tup)
        st = RDX_ERR_INVALID;
    const rdx_uop *body = NULL;
    if (!st)
        st = rdx_ir_rewrite(ctx, rw, tup, RDX_RW_BOTTOM_UP, NULL, &body);
    rdx_rewriter_free(rw);
    if (st)
        return st;
    const rdx_uop **order = NULL, **from = NULL, **to = NULL, **args = NULL;
    size_t no = 0, nb = 0;
    st = rdx_ir_toposort(body, &order, &no);
    if (!st) {
        from = calloc(no + 1, sizeof *from);
        to = calloc(no + 1, sizeof *to);
        args = calloc(no + 2, sizeof *args);
        if (!from || !to || !args)
            st = rdx_fail(RDX_ERR_NOMEM, "callify: out of memory");
    }
    /* a CALL of a PROGRAM (a kernel of its own) stays: its PROGRAM's nodes (the sink's
       PARAMs are the kernel's, not the function's) are left as they are */
    rdx_ir_nodemap *inside = NULL;
    if (!st)
        st = rdx_ir_nodemap_create(ctx, &inside);
    for (size_t i = no; i-- > 0 && !st;) {
        const rdx_uop *u = order[i];
        if (u->op != RDX_OP_PROGRAM && !rdx_ir_nodemap_get(inside, u))
            continue;
        for (uint32_t k = 0; k < u->nsrc && !st; k++)
            st = rdx_ir_nodemap_put(inside, u->src[k], u);
    }
    for (size_t i = 0; i < no && !st; i++) {
        const rdx_uop *u = order[i];
        if (rdx_ir_nodemap_get(inside, u))
            continue;
        if (u->op == RDX_OP_CALL && u->src[0]->op == RDX_OP_PROGRAM)
            continue;
        if (u->op == RDX_OP_CALL || u->op == RDX_OP_FUNCTION) {
            st = rdx_fail(RDX_ERR_UNSUPPORTED,
                          "callify: %s node #%u is not inlinable (only GETTUPLE of a FUNCTION is; "
                          "a CALL of a PROGRAM is a kernel of its own)",
                          rdx_op_name((rdx_op)u->op), u->id);
            break;
        }
        if (u->op != RDX_OP_BUFFER && u->op != RDX_OP_PARAM && u->op != RDX_OP_BINARY)
            continue;
        rdx_uop_arg a = rdx_uop_arg_none();
        a.i = (int64_t)nb;
        a.dtype = u->op == RDX_OP_BINARY ? u->dtype : u->arg.dtype;
        a.device = u->op == RDX_OP_BINARY ? NULL : u->arg.device;
        a.addrspace = RDX_ADDR_GLOBAL;
        /* BINARY (raw bytes in the graph, uint8[len]) is device data: an input whose
           contents are its bytes (realize uploads them) */
        const rdx_uop *shape = u->op == RDX_OP_BINARY
                                   ? rdx_ir_shape(ctx, (int64_t[]){ (int64_t)u->arg.len }, 1)
                                   : u->src[0];
        const rdx_uop *p = shape ? rdx_ir_node(ctx, RDX_OP_PARAM, &shape, 1, &a) : NULL;
        if (!p) {
            st = RDX_ERR_INVALID;
            break;
        }
        from[nb] = u;
        to[nb] = p;
        args[1 + nb] = u;
        nb++;
    }
    const rdx_uop *sub = NULL;
    if (!st)
        st = rdx_ir_substitute(ctx, body, from, to, nb, &sub);
    if (!st) {
        args[0] = sub;
        *fn = rdx_ir_node(ctx, RDX_OP_FUNCTION, args, nb + 1, NULL);
        if (!*fn)
            st = rdx_fail_context(RDX_ERR_INVALID, "callify");
    }
    rdx_ir_nodemap_free(inside);
    free(order);
    free(from);
    free(to);
    free(args);
    return st;
}
