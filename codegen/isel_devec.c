/*
 * codegen/isel_devec.c — before instruction selection, vector values are
 * taken apart: an elementwise op on vectors becomes a VECTORIZE of the same
 * op on each lane; GEP of a VECTORIZE / VCONST / CAT picks the lane (a
 * multi-lane GEP becomes a VECTORIZE of the picked lanes); CAT becomes a
 * VECTORIZE (except a CAT of WMMA results, kept for an accumulating REDUCE).
 * What is left are VECTORIZEs feeding WMMA, GEPs of WMMA results and of
 * accumulating REDUCEs, which instruction selection handles (isel_wmma.c).
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/cg.h"
#include "util/error.h"

typedef struct dv {
    rdx_ir_ctx *ctx;
    const rdx_uop **map; /* old id -> new node */
    size_t cap;
    rdx_status st;
} dv;

static const rdx_uop *lane(dv *D, const rdx_uop *x, int64_t k)
{
    if (!x)
        return NULL;
    if (x->dtype.count == 1)
        return x; /* a scalar broadcast to every lane */
    if (x->op == RDX_OP_VECTORIZE)
        return x->src[k];
    if (x->op == RDX_OP_VCONST) {
        rdx_dtype s = rdx_dtype_scalar(x->arg.dtype);
        int64_t bits = x->arg.ints[k];
        if (rdx_dtype_is_float(s)) {
            double f;
            memcpy(&f, &bits, 8);
            return rdx_ir_const_float(D->ctx, s, f);
        }
        return rdx_ir_const_int(D->ctx, s, bits);
    }
    if (x->op == RDX_OP_GEP)
        return lane(D, x->src[0], x->arg.ints[k]);
    rdx_uop_arg a = rdx_uop_arg_none();
    a.ints = rdx_ir_ints(D->ctx, &k, 1);
    a.nints = 1;
    return rdx_ir_node(D->ctx, RDX_OP_GEP, &x, 1, &a);
}

static const rdx_uop *vec(dv *D, const rdx_uop *const *lanes, unsigned n)
{
    if (n == 1)
        return lanes[0];
    return rdx_ir_node(D->ctx, RDX_OP_VECTORIZE, lanes, n, NULL);
}

static int is_alu(rdx_op op)
{
    const rdx_opinfo *i = rdx_op_info(op);
    return (i->flags & RDX_OPF_ELEMENTWISE) || op == RDX_OP_BITCAST;
}

static const rdx_uop *rebuild(dv *D, const rdx_uop *u, const rdx_uop *const *src)
{
    rdx_op op = (rdx_op)u->op;
    unsigned n = u->dtype.count;
    if (op == RDX_OP_GEP) {
        const rdx_uop *l[256];
        if (u->arg.nints > 256)
            return NULL;
        for (uint32_t k = 0; k < u->arg.nints; k++)
            l[k] = lane(D, src[0], u->arg.ints[k]);
        return vec(D, l, u->arg.nints);
    }
    if (op == RDX_OP_CAT) {
        /* a CAT of WMMA results (the output tiles an accumulating REDUCE keeps) stays */
        int tiles = 1;
        for (uint32_t s = 0; s < u->nsrc; s++)
            tiles &= src[s]->op == RDX_OP_WMMA;
        if (tiles)
            return rdx_ir_replace_src(D->ctx, u, src, u->nsrc);
        const rdx_uop *l[256];
        unsigned m = 0;
        for (uint32_t s = 0; s < u->nsrc; s++)
            for (unsigned k = 0; k < src[s]->dtype.count && m < 256; k++)
                l[m++] = lane(D, src[s], k);
        return vec(D, l, m);
    }
    if (n > 1 && is_alu(op) && !u->dtype.ptr) {
        if (n > 256)
            return NULL;
        if (op == RDX_OP_BITCAST && src[0]->dtype.count != n) {
            rdx_fail(RDX_ERR_UNSUPPORTED, "isel: BITCAST between vectors of different lane counts");
            return NULL;
        }
        const rdx_uop *l[256];
        for (unsigned k = 0; k < n; k++) {
            const rdx_uop *ls[3];
            for (uint32_t s = 0; s < u->nsrc && s < 3; s++)
                ls[s] = lane(D, src[s], k);
            rdx_uop_arg a = u->arg;
            if (op == RDX_OP_CAST || op == RDX_OP_BITCAST)
                a.dtype = rdx_dtype_scalar(a.dtype);
            l[k] = rdx_ir_node(D->ctx, op, ls, u->nsrc, &a);
        }
        return vec(D, l, n);
    }
    return rdx_ir_replace_src(D->ctx, u, src, u->nsrc);
}

rdx_status cg_devectorize(rdx_ir_ctx *ctx, const rdx_uop *sink, const rdx_uop **out,
                          const rdx_uop ***topo_out, size_t *ntopo)
{
    *topo_out = NULL;
    *ntopo = 0;
    const rdx_uop **topo;
    size_t n;
    rdx_status st = rdx_ir_toposort(sink, &topo, &n);
    if (st)
        return st;
    dv D = { ctx, NULL, 0, RDX_OK };
    uint32_t maxid = 0;
    for (size_t i = 0; i < n; i++)
        maxid = topo[i]->id > maxid ? topo[i]->id : maxid;
    D.map = calloc(maxid + 1, sizeof *D.map);
    const rdx_uop **src = NULL;
    size_t srccap = 0;
    if (!D.map) {
        free(topo);
        return rdx_fail(RDX_ERR_NOMEM, "isel: out of memory");
    }
    int any = 0;
    for (size_t i = 0; i < n && !any; i++)
        any = topo[i]->dtype.count > 1 || topo[i]->op == RDX_OP_GEP;
    if (!any) { /* unchanged: the caller gets the order too */
        *out = sink;
        *topo_out = topo;
        *ntopo = n;
        topo = NULL;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        const rdx_uop *u = topo[i];
        if (u->nsrc > srccap) {
            srccap = u->nsrc * 2;
            const rdx_uop **ns = realloc(src, srccap * sizeof *ns);
            if (!ns) {
                st = rdx_fail(RDX_ERR_NOMEM, "isel: out of memory");
                goto done;
            }
            src = ns;
        }
        int same = 1;
        for (uint32_t k = 0; k < u->nsrc; k++) {
            src[k] = D.map[u->src[k]->id];
            same &= src[k] == u->src[k];
        }
        const rdx_uop *r = u;
        if (!same || u->op == RDX_OP_GEP || u->op == RDX_OP_CAT ||
            (u->dtype.count > 1 && is_alu((rdx_op)u->op)))
            r = rebuild(&D, u, src);
        if (!r) {
            st = rdx_fail_context(RDX_ERR_UNSUPPORTED, "isel: devectorizing node #%u (%s)", u->id,
                                  rdx_op_name((rdx_op)u->op));
            goto done;
        }
        D.map[u->id] = r;
    }
    *out = D.map[sink->id];
done:
    free(src);
    free(D.map);
    free(topo);
    return st;
}
