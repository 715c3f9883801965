/*
 * ir/tensor/graph.c — the graph context (IR context + interpreter + first
 * error), sticky-error helpers, realization and shape helpers.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/tensor/tensor_internal.h"

/* A graph over ctx (NULL: a context of its own). */
static rdx_status create(rdx_graph **out, rdx_ir_ctx *ctx, const char *device)
{
    rdx_graph *g = calloc(1, sizeof *g);
    if (!g)
        return rdx_fail(RDX_ERR_NOMEM, "graph: out of memory");
    rdx_status st = RDX_OK;
    if (ctx) {
        g->ir = ctx;
        g->ir_borrowed = 1;
        g->next_slot = (int64_t)1 << 40; /* clear of a parsed program's slots */
    } else {
        st = rdx_ir_ctx_create(&g->ir);
    }
    if (!st)
        st = rdx_interp_create(&g->ip);
    if (!st) {
        const char *name = device ? device : "CPU";
        g->dev = rdx_ir_device(g->ir, &name, 1);
        if (!g->dev)
            st = RDX_ERR_NOMEM;
    }
    if (st) {
        rdx_graph_destroy(g);
        return st;
    }
    *out = g;
    return RDX_OK;
}

rdx_status rdx_graph_create(rdx_graph **out, const char *device)
{
    return create(out, NULL, device);
}

rdx_status rdx_graph_create_in(rdx_graph **out, rdx_ir_ctx *ctx, const char *device)
{
    if (!ctx)
        return rdx_fail(RDX_ERR_INVALID, "graph: no IR context (NULL)");
    return create(out, ctx, device);
}

void rdx_graph_destroy(rdx_graph *g)
{
    if (!g)
        return;
    for (size_t k = 0; k < g->nfns; k++) {
        free(g->fns[k]->params);
        free(g->fns[k]->captured);
        free(g->fns[k]);
    }
    free(g->fns);
    rdx_interp_destroy(g->ip);
    if (!g->ir_borrowed)
        rdx_ir_ctx_destroy(g->ir);
    free(g->errmsg);
    free(g);
}

rdx_ir_ctx *rdx_graph_ir(rdx_graph *g)
{
    return g->ir;
}

rdx_interp *rdx_graph_interp(rdx_graph *g)
{
    return g->ip;
}

rdx_status rdx_graph_status(const rdx_graph *g)
{
    return g->err;
}

const char *rdx_graph_error(const rdx_graph *g)
{
    return g->errmsg ? g->errmsg : "";
}

void rdx_graph_clear_error(rdx_graph *g)
{
    g->err = RDX_OK;
    free(g->errmsg);
    g->errmsg = NULL;
}

rdx_status t_status(rdx_graph *g, rdx_status st)
{
    if (st && !g->err) {
        g->err = st;
        g->errmsg = strdup(rdx_error_message());
    }
    return st;
}

const rdx_tensor *t_fail(rdx_graph *g, rdx_status st, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rdx_fail(st, "%s", msg);
    t_status(g, st);
    return NULL;
}

const rdx_tensor *t_irfail(rdx_graph *g, const char *op)
{
    rdx_fail_context(RDX_ERR_INVALID, "%s", op);
    t_status(g, RDX_ERR_INVALID);
    return NULL;
}

const rdx_tensor *t_chk(rdx_graph *g, const char *op, const rdx_uop *u)
{
    if (!u && !g->err)
        return t_irfail(g, op);
    return u;
}

rdx_status rdx_graph_realize(rdx_graph *g, const rdx_tensor *const *ts, size_t n, rdx_array *out)
{
    if (g->err)
        return rdx_fail(g->err, "graph has an error: %s", g->errmsg);
    for (size_t k = 0; k < n; k++)
        if (!ts[k])
            return rdx_fail(RDX_ERR_INVALID, "realize: tensor %zu is NULL", k);
    return rdx_interp_realize(g->ip, ts, n, out);
}

rdx_status rdx_tensor_realize(rdx_graph *g, const rdx_tensor *t, rdx_array *out)
{
    return rdx_graph_realize(g, &t, 1, out);
}

rdx_status rdx_tensor_assign_data(rdx_graph *g, const rdx_tensor *t, const void *data,
                                  size_t nbytes)
{
    size_t have;
    if (!t || t->op != RDX_OP_BUFFER || !rdx_interp_bound(g->ip, t, &have))
        return rdx_fail(RDX_ERR_INVALID, "assign_data: not a tensor made from host data");
    if (have != nbytes)
        return rdx_fail(RDX_ERR_INVALID, "assign_data: %zu bytes given, the tensor has %zu", nbytes,
                        have);
    return rdx_interp_bind(g->ip, t, data, nbytes);
}

uint32_t rdx_tensor_ndim(const rdx_tensor *t)
{
    return t ? t->ndim : 0;
}

int64_t rdx_tensor_dim(const rdx_tensor *t, int axis)
{
    if (!t)
        return -1;
    if (axis < 0)
        axis += (int)t->ndim;
    int64_t v;
    if (axis < 0 || axis >= (int)t->ndim || !rdx_uop_dim(t, (uint32_t)axis, &v))
        return -1;
    return v;
}

int64_t rdx_tensor_numel(const rdx_tensor *t)
{
    int64_t v;
    return t && rdx_uop_numel(t, &v) ? v : -1;
}

const char *t_shape_str(const rdx_tensor *t, char *buf, size_t n)
{
    size_t p = 0;
    p += (size_t)snprintf(buf + p, n - p, "[");
    for (uint32_t k = 0; k < t->ndim && p < n; k++) {
        int64_t v;
        const rdx_uop *d = t->shape[k];
        if (rdx_uop_const_int(d, &v))
            p += (size_t)snprintf(buf + p, n - p, "%s%" PRId64, k ? "," : "", v);
        else
            p += (size_t)snprintf(buf + p, n - p, "%s%s", k ? "," : "",
                                  d->op == RDX_OP_DEFINE_VAR ? d->arg.str : "?");
    }
    if (p < n)
        snprintf(buf + p, n - p, "]");
    return buf;
}

int t_axis(rdx_graph *g, const char *op, const rdx_tensor *t, int axis)
{
    int nd = (int)t->ndim;
    int a = axis < 0 ? axis + nd : axis;
    if (a < 0 || a >= nd) {
        char s[128];
        t_fail(g, RDX_ERR_INVALID, "%s: axis %d out of range for shape %s", op, axis,
               t_shape_str(t, s, sizeof s));
        return -1;
    }
    return a;
}

int t_dims(rdx_graph *g, const char *op, const rdx_tensor *t, int64_t *dims)
{
    if (t->ndim > TMAXD) {
        t_fail(g, RDX_ERR_UNSUPPORTED, "%s: rank %u exceeds %d", op, t->ndim, TMAXD);
        return 0;
    }
    for (uint32_t k = 0; k < t->ndim; k++)
        if (!rdx_uop_dim(t, k, &dims[k])) {
            char s[128];
            t_fail(g, RDX_ERR_UNSUPPORTED, "%s: needs concrete sizes, got %s", op,
                   t_shape_str(t, s, sizeof s));
            return 0;
        }
    return 1;
}

rdx_dtype t_f32(void)
{
    return rdx_dtype_of(RDX_FLOAT32);
}

int64_t t_slot(rdx_graph *g)
{
    return g->next_slot++;
}
