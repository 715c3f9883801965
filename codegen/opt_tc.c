/* codegen/opt_tc.c — the TC OptOp: a matmul-like kernel (one REDUCE(ADD) over
 * K of a product of float16/bfloat16 operands, two output axes M and N)
 * becomes one wave per 16x16 output tile running v_wmma_f32_16x16x16 over the
 * K tiles (unrolled), in the back end's WMMA form (docs/codegen-kernel-form.md):
 * lane l holds row l%16 of the A tile and column l%16 of the B tile; lane v of
 * the result in work-item l is D[2v + l/16][l%16]. */
#include <stdlib.h>
#include <string.h>

#include "codegen/front_internal.h"
#include "util/error.h"

#define TC_MAX_KTILES 8

/* x with a CAST from float16/bfloat16 removed; NULL when x is not of those dtypes. */
static const rdx_uop *half_operand(const rdx_uop *x, rdx_scalar *sc)
{
    if (x->op == RDX_OP_CAST)
        x = x->src[0];
    if (x->dtype.scalar != RDX_FLOAT16 && x->dtype.scalar != RDX_BFLOAT16)
        return NULL;
    *sc = (rdx_scalar)x->dtype.scalar;
    return x;
}

static const rdx_uop *subst2(rdx_ir_ctx *ctx, const rdx_uop *u, const rdx_uop *r1,
                             const rdx_uop *v1, const rdx_uop *r2, const rdx_uop *v2)
{
    const rdx_uop *from[2] = { r1, r2 }, *to[2] = { v1, v2 }, *out;
    return rdx_ir_substitute(ctx, u, from, to, 2, &out) ? NULL : out;
}

static const rdx_uop *special(rdx_ir_ctx *ctx, int64_t bound, const char *name)
{
    rdx_uop_arg a = rdx_uop_arg_none();
    a.str = rdx_ir_str(ctx, name, strlen(name));
    const rdx_uop *b = cg_idx(ctx, bound);
    return b ? rdx_ir_node(ctx, RDX_OP_SPECIAL, &b, 1, &a) : NULL;
}

typedef struct tc_info {
    const rdx_uop *store, *red, *x, *y, *m, *n, *kr;
    int64_t M, N, K;
    rdx_scalar in;
} tc_info;

/* Does kernel k (axes ax[0..na)) fit the TC pattern?  NULL, or why not. */
static const char *tc_match(const rdx_uop *k, const rdx_kaxis *ax, size_t na, int32_t axis,
                            tc_info *T)
{
    if (na != 3 || ax[0].type != RDX_AXIS_GLOBAL || ax[1].type != RDX_AXIS_GLOBAL ||
        ax[2].type != RDX_AXIS_REDUCE || axis != 2)
        return "needs a kernel with two GLOBAL axes and one REDUCE axis (axis 2)";
    for (size_t i = 0; i < 3; i++)
        if (ax[i].size < 16 || ax[i].size % 16)
            return "an axis size is not a multiple of 16";
    if (ax[2].size / 16 > TC_MAX_KTILES)
        return "K is over 8 tiles (all K tiles are unrolled: more would exceed the VGPRs)";
    if (k->op != RDX_OP_SINK || k->nsrc != 1 || k->src[0]->op != RDX_OP_END ||
        k->src[0]->src[0]->op != RDX_OP_STORE || k->src[0]->src[0]->nsrc != 2)
        return "not a single-store kernel";
    T->store = k->src[0]->src[0];
    T->red = NULL;
    const rdx_uop **order = NULL;
    size_t no = 0;
    if (rdx_ir_toposort(T->store, &order, &no))
        return "out of memory";
    int nred = 0;
    for (size_t i = 0; i < no; i++)
        if (order[i]->op == RDX_OP_REDUCE) {
            T->red = order[i];
            nred++;
        }
    free(order);
    const rdx_uop *red = T->red;
    if (nred != 1 || red->arg.sub != RDX_RED_ADD || red->nsrc != 2 || red->src[1] != ax[2].range ||
        red->src[0]->op != RDX_OP_MUL ||
        (red->dtype.scalar != RDX_FLOAT32 && red->dtype.scalar != RDX_FLOAT16 &&
         red->dtype.scalar != RDX_BFLOAT16))
        return "needs one REDUCE(ADD) of a product over the REDUCE axis";
    rdx_scalar sa = RDX_VOID, sb = RDX_VOID;
    T->x = half_operand(red->src[0]->src[0], &sa);
    T->y = half_operand(red->src[0]->src[1], &sb);
    if (!T->x || !T->y || sa != sb)
        return "the product's operands must both be float16 or both bfloat16";
    T->in = sa;
    const rdx_uop *r0 = ax[0].range, *r1 = ax[1].range;
    int x0 = cg_depends(T->x, r0), x1 = cg_depends(T->x, r1), y0 = cg_depends(T->y, r0),
        y1 = cg_depends(T->y, r1);
    if (x0 && !x1 && y1 && !y0) {
        T->m = r0, T->n = r1, T->M = ax[0].size, T->N = ax[1].size;
    } else if (x1 && !x0 && y0 && !y1) {
        T->m = r1, T->n = r0, T->M = ax[1].size, T->N = ax[0].size;
    } else {
        return "the operands do not split into A(m, k) and B(k, n)";
    }
    T->kr = ax[2].range;
    T->K = ax[2].size;
    return NULL;
}

int cg_tc_applicable(const rdx_uop *k)
{
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t n;
    tc_info T;
    return !rdx_cg_axes(k, ax, &n) && !tc_match(k, ax, n, 2, &T);
}

rdx_status cg_apply_tc(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_opt *o, size_t pos,
                       const rdx_uop **out)
{
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t na;
    tc_info T;
    rdx_status st = rdx_cg_axes(k, ax, &na);
    if (st)
        return st;
    const char *why = tc_match(k, ax, na, o->axis, &T);
    if (why)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "optimize: opt %zu TC: %s", pos, why);
    const rdx_uop *store = T.store, *red = T.red, *x = T.x, *y = T.y, *m = T.m, *nn = T.n,
                  *kr = T.kr;
    int64_t M = T.M, N = T.N;
    rdx_scalar sa = T.in;
    const rdx_uop *gn = special(ctx, N / 16, "gidx0"), *gm = special(ctx, M / 16, "gidx1");
    const rdx_uop *lane = special(ctx, 32, "lidx0");
    const rdx_uop *c16 = cg_idx(ctx, 16);
    const rdx_uop *l16 = rdx_ir_mod(ctx, lane, c16), *hi = rdx_ir_idiv(ctx, lane, c16);
    const rdx_uop *mrow = rdx_ir_add(ctx, rdx_ir_mul(ctx, gm, c16), l16);
    const rdx_uop *ncol = rdx_ir_add(ctx, rdx_ir_mul(ctx, gn, c16), l16);
    const char *name =
        sa == RDX_FLOAT16 ? "WMMA_16_16_16_half_float" : "WMMA_16_16_16_bfloat16_float";
    rdx_uop_arg wa = rdx_uop_arg_none();
    wa.str = rdx_ir_str(ctx, name, strlen(name));
    wa.dtype = rdx_dtype_vec(rdx_dtype_of(RDX_FLOAT32), 8);
    const rdx_uop *acc;
    {
        const rdx_uop *z[8];
        for (int v = 0; v < 8; v++)
            z[v] = rdx_ir_const_float(ctx, rdx_dtype_of(RDX_FLOAT32), 0.0);
        acc = rdx_ir_node(ctx, RDX_OP_VECTORIZE, z, 8, NULL);
    }
    for (int64_t t = 0; t < T.K / 16 && acc; t++) {
        const rdx_uop *av[16], *bv[16];
        for (int i = 0; i < 16; i++) {
            const rdx_uop *kk = cg_idx(ctx, t * 16 + i);
            av[i] = subst2(ctx, x, m, mrow, kr, kk);
            bv[i] = subst2(ctx, y, kr, kk, nn, ncol);
            if (!av[i] || !bv[i])
                return rdx_fail_context(RDX_ERR_INVALID, "optimize: TC operands");
        }
        const rdx_uop *ws[3] = { rdx_ir_node(ctx, RDX_OP_VECTORIZE, av, 16, NULL),
                                 rdx_ir_node(ctx, RDX_OP_VECTORIZE, bv, 16, NULL), acc };
        acc = ws[0] && ws[1] ? rdx_ir_node(ctx, RDX_OP_WMMA, ws, 3, &wa) : NULL;
    }
    if (!acc)
        return rdx_fail_context(RDX_ERR_INVALID, "optimize: TC accumulation");
    /* one STORE per result lane: D[2v + l/16][l%16] */
    const rdx_uop *stores[8];
    for (int v = 0; v < 8; v++) {
        rdx_uop_arg ga = rdx_uop_arg_none();
        int64_t lanev = v;
        ga.ints = rdx_ir_ints(ctx, &lanev, 1);
        ga.nints = 1;
        const rdx_uop *d = rdx_ir_node(ctx, RDX_OP_GEP, &acc, 1, &ga);
        if (d && red->dtype.scalar != RDX_FLOAT32)
            d = rdx_ir_cast(ctx, d, red->dtype);
        const rdx_uop *row =
            rdx_ir_add(ctx, rdx_ir_mul(ctx, gm, c16), rdx_ir_add(ctx, cg_idx(ctx, 2 * v), hi));
        const rdx_uop *st1 =
            d ? rdx_ir_substitute(ctx, store, &red, &d, 1, &st1) ? NULL : st1 : NULL;
        stores[v] = st1 ? subst2(ctx, st1, m, row, nn, ncol) : NULL;
        if (!stores[v])
            return rdx_fail_context(RDX_ERR_INVALID, "optimize: TC stores");
    }
    *out = rdx_ir_sink(ctx, stores, 8);
    return *out ? RDX_OK : rdx_fail_context(RDX_ERR_INVALID, "optimize: TC kernel");
}
