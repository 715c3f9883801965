/* codegen/opt_tc.c — the TC OptOp: a matmul-like kernel (one REDUCE(ADD) over
 * K of a product of float16/bfloat16 operands, output axes M and N, and
 * optionally a batch axis) becomes WMMA tiles in the back end's WMMA form
 * (docs/codegen-kernel-form.md): lane l holds row l%16 of an A tile and
 * column l%16 of a B tile; lane v of a result in work-item l is
 * D[2v + l/16][l%16].  Each wave computes tm x tn 16x16 output tiles (A and B
 * fragments reused across them), wm x wn waves per workgroup; the K tiles are
 * a REDUCE loop (unrolled ku times inside the body) whose value is the CAT of
 * the tiles' WMMA chains, accumulated in registers by the back end. */
#include <stdlib.h>
#include <string.h>

#include "codegen/front_internal.h"
#include "util/error.h"

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

static const rdx_uop *subst(rdx_ir_ctx *ctx, const rdx_uop *u, const rdx_uop *const *from,
                            const rdx_uop *const *to, size_t n)
{
    const rdx_uop *out;
    return u && !rdx_ir_substitute(ctx, u, from, to, n, &out) ? out : NULL;
}

/* u simplified (index arithmetic handed to substitutions: the kernel's later simplification
   of every INDEX then has less to do); NULL on failure. */
static const rdx_uop *simp(rdx_ir_ctx *ctx, const rdx_uop *u)
{
    const rdx_uop *o;
    return u && !rdx_ir_simplify(ctx, u, &o) ? o : NULL;
}

/* xs[0..n) simplified in place, all in one rdx_ir_simplify call over a GROUP of them
   (bottom-up rewriting: each simplifies as it would alone, shared parts once); one at a
   time if the batch fails.  NULL entries (a failed build) stay NULL. */
static void simp_all(rdx_ir_ctx *ctx, const rdx_uop **xs, size_t n)
{
    int ok = 1;
    for (size_t i = 0; i < n; i++)
        ok &= xs[i] != NULL;
    const rdx_uop *g = ok && n > 1 ? rdx_ir_node(ctx, RDX_OP_GROUP, xs, n, NULL) : NULL, *sg;
    if (g && !rdx_ir_simplify(ctx, g, &sg) && sg && sg->op == RDX_OP_GROUP && sg->nsrc == n) {
        for (size_t i = 0; i < n; i++)
            xs[i] = sg->src[i];
        return;
    }
    rdx_error_clear();
    for (size_t i = 0; i < n; i++)
        xs[i] = simp(ctx, xs[i]);
}

/* d idx / d r when idx is affine in r through ADD and MUL by a constant (r under nothing
   else); 0 with *ok = 0 otherwise.  Bounded walk. */
static int64_t affine_coef(const rdx_uop *idx, const rdx_uop *r, int depth, int *ok)
{
    int64_t k;
    if (idx == r)
        return 1;
    if (depth > 32 || !*ok) {
        *ok = 0;
        return 0;
    }
    if (idx->op == RDX_OP_ADD)
        return affine_coef(idx->src[0], r, depth + 1, ok) +
               affine_coef(idx->src[1], r, depth + 1, ok);
    if (idx->op == RDX_OP_MUL && rdx_uop_const_int(idx->src[1], &k))
        return affine_coef(idx->src[0], r, depth + 1, ok) * k;
    if (cg_depends(idx, r))
        *ok = 0;
    return 0;
}

/* Simplified index x + c (x simplified: its constant moved, kept simplified); NULL on error. */
static const rdx_uop *moved(rdx_ir_ctx *ctx, const rdx_uop *x, int64_t c)
{
    const rdx_uop *r;
    return rdx_ir_simplify_add_const(ctx, x, c, &r) ? NULL : r;
}

/* u with the index of its INDEX source 0 simplified (u an ungated LOAD or a STORE). */
static const rdx_uop *simp_index(rdx_ir_ctx *ctx, const rdx_uop *u)
{
    const rdx_uop *ix = u ? u->src[0] : NULL, *si, *s[2];
    if (!ix || rdx_ir_simplify(ctx, ix->src[1], &si))
        return NULL;
    s[0] = ix->src[0], s[1] = si;
    const rdx_uop *in = rdx_ir_replace_src(ctx, ix, s, 2);
    s[0] = in, s[1] = u->nsrc > 1 ? u->src[1] : NULL;
    return in ? rdx_ir_replace_src(ctx, u, s, u->nsrc) : NULL;
}

/*
 * The 16 lanes of an operand fragment: the operand with K at kk[0..16) and its row or
 * column (M or N) at rc, the batch at gb.  An operand that is one ungated load whose
 * index is affine in K (stride s) and does not otherwise depend on K has lane e's index
 * = lane 0's + e*s: lane 0's index is simplified once and each other lane's is that sum
 * with its constant moved (the canonical sum the kernel's simplification would reach from
 * the substituted index: a sum of other terms would only be re-simplified to it, the
 * value is the same); other operands are substituted lane by lane.
 */
static int tc_lanes(rdx_ir_ctx *ctx, const rdx_uop *op, const rdx_uop *const *from,
                    const rdx_uop *const *to, size_t nft, const rdx_uop *const *kk,
                    const rdx_uop **lanes)
{
    const rdx_uop *kr = from[0];
    int ok = op->op == RDX_OP_LOAD && op->nsrc == 1 && op->src[0]->op == RDX_OP_INDEX &&
             op->src[0]->nsrc == 2 && !cg_depends(op->src[0]->src[0], kr) &&
             kk[1]->op == RDX_OP_ADD && kk[15]->op == RDX_OP_ADD;
    int64_t s = ok ? affine_coef(op->src[0]->src[1], kr, 0, &ok) : 0, k0 = 0, k1 = 0;
    /* the lanes' K indices step by one: kk[e] = kk[0] + e */
    ok = ok && rdx_uop_const_int(kk[1]->src[1], &k1) &&
         (kk[0]->op == RDX_OP_ADD
              ? rdx_uop_const_int(kk[0]->src[1], &k0) && kk[0]->src[0] == kk[1]->src[0]
              : kk[0] == kk[1]->src[0]) &&
         k1 == k0 + 1;
    const rdx_uop *t[4];
    for (size_t i = 0; i < nft; i++)
        t[i] = to[i];
    for (int e = 0; e < 16; e++) {
        if (ok && e > 0) {
            /* lane 0's simplified index is a canonical sum (terms, then the constant): the
               same terms with the constant moved by e*s (the simplifier's result for lane
               0's index + e*s) */
            const rdx_uop *ix = lanes[0]->src[0];
            const rdx_uop *is[2] = { ix->src[0], moved(ctx, ix->src[1], e * s) };
            const rdx_uop *in = is[1] ? rdx_ir_replace_src(ctx, ix, is, 2) : NULL;
            lanes[e] = in ? rdx_ir_replace_src(ctx, lanes[0], &in, 1) : NULL;
        } else {
            t[0] = kk[e];
            lanes[e] = subst(ctx, op, from, t, nft);
            if (ok) /* lane 0's index simplified (what the kernel's pass gives) */
                lanes[e] = simp_index(ctx, lanes[e]);
        }
        if (!lanes[e])
            return 0;
    }
    return 1;
}

typedef struct tc_info {
    const rdx_uop *store, *red, *x, *y, *m, *n, *kr, *b;
    const rdx_uop *kvalid; /* K padded (PADTO): the product is WHERE(kvalid, x*y, 0) */
    int64_t M, N, K, B, kid;
    int padded; /* RDX_TC_PAD padded an axis: operands are gated loads (packed lane by lane) */
    rdx_scalar in;
} tc_info;

/* Does kernel k (axes ax[0..na)) fit the TC pattern with `axis` its REDUCE axis?  NULL, or why
   not. */
static const char *tc_match(const rdx_uop *k, const rdx_kaxis *ax, size_t na, int32_t axis,
                            tc_info *T, int pad)
{
    memset(T, 0, sizeof *T);
    const rdx_kaxis *g[3];
    size_t ng = 0, nr = 0;
    for (size_t i = 0; i < na; i++) {
        if (ax[i].type == RDX_AXIS_GLOBAL && ng < 3)
            g[ng++] = &ax[i];
        else if (ax[i].type == RDX_AXIS_REDUCE)
            nr++;
        else
            return "needs a kernel with two GLOBAL axes (M, N; a third for a batch) and one "
                   "REDUCE axis (the opt's axis): an axis of another type";
    }
    if (ng < 2 || nr != 1 || axis < 0 || (size_t)axis >= na || ax[axis].type != RDX_AXIS_REDUCE)
        return "needs a kernel with two GLOBAL axes (M, N; a third for a batch) and one REDUCE "
               "axis (the opt's axis)";
    for (size_t i = 0; i < na; i++)
        if (ax[i].size < 1)
            return "an axis has a symbolic size";
    if (k->op != RDX_OP_SINK || k->nsrc != 1 || k->src[0]->op != RDX_OP_END ||
        k->src[0]->src[0]->op != RDX_OP_STORE)
        return "not a single-store kernel";
    T->store = k->src[0]->src[0];
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
    const rdx_uop *red = T->red, *val = nred == 1 ? red->src[0] : NULL;
    double z = 1;
    if (val && val->op == RDX_OP_WHERE && rdx_uop_const_val(val->src[2], &z) && z == 0) {
        T->kvalid = val->src[0]; /* a padded K: WHERE(k < K, x*y, 0) */
        val = val->src[1];
    }
    if (nred != 1 || red->arg.sub != RDX_RED_ADD || red->nsrc != 2 ||
        red->src[1] != ax[axis].range || val->op != RDX_OP_MUL ||
        (red->dtype.scalar != RDX_FLOAT32 && red->dtype.scalar != RDX_FLOAT16 &&
         red->dtype.scalar != RDX_BFLOAT16))
        return "needs one REDUCE(ADD) of a product over the REDUCE axis";
    rdx_scalar sa = RDX_VOID, sb = RDX_VOID;
    T->x = half_operand(val->src[0], &sa);
    T->y = half_operand(val->src[1], &sb);
    if (!T->x || !T->y || sa != sb)
        return "the product's operands must both be float16 or both bfloat16";
    T->in = sa;
    /* M: the innermost axis only A depends on; N: the innermost only B depends on; a third
       GLOBAL axis is the batch */
    int im = -1, in = -1;
    for (size_t i = 0; i < ng; i++) {
        int dx = cg_depends(T->x, g[i]->range), dy = cg_depends(T->y, g[i]->range);
        if (dx && !dy)
            im = (int)i;
        else if (dy && !dx)
            in = (int)i;
    }
    if (im < 0 || in < 0)
        return "the operands do not split into A(m, k) and B(k, n)";
    T->m = g[im]->range, T->M = g[im]->size;
    T->n = g[in]->range, T->N = g[in]->size;
    for (size_t i = 0; i < ng; i++)
        if ((int)i != im && (int)i != in)
            T->b = g[i]->range, T->B = g[i]->size;
    if (!T->m || !T->n)
        return "the operands do not split into A(m, k) and B(k, n)";
    T->kr = ax[axis].range;
    T->K = ax[axis].size;
    T->kid = ax[axis].id;
    if (!pad && (T->M % 16 || T->N % 16 || T->K % 16))
        return "an axis size is not a multiple of 16 (M, N and K must be; RDX_TC_PAD pads them)";
    return NULL;
}

/* The tiling of a TC opt's amount (0: the default for the sizes). */
typedef struct tc_tiling {
    int tm, tn, wm, wn, ku;
} tc_tiling;

static tc_tiling tc_default(const tc_info *T)
{
    int64_t m16 = T->M / 16, n16 = T->N / 16, k16 = T->K / 16;
    tc_tiling t = { 1, 1, 1, 1, 1 };
    t.tm = m16 % 4 == 0 ? 4 : m16 % 2 == 0 ? 2 : 1;
    t.tn = n16 % 2 == 0 ? 2 : 1; /* 4x2, 2x2 or 1x2 tiles per wave */
    t.ku = k16 % 2 == 0 ? 2 : 1;
    if (T->padded) { /* every lane of a gated fragment is its own register until packed */
        t.tm = t.tm > 2 ? 2 : t.tm;
        t.ku = 1;
    }
    return t;
}

static const char *tc_tiling_of(const tc_info *T, int64_t amount, tc_tiling *t)
{
    if (!amount) {
        *t = tc_default(T);
        return NULL;
    }
    amount &= ~RDX_TC_PAD;
    if (!amount) {
        *t = tc_default(T);
        return NULL;
    }
    if (amount < 0 || amount >> 20)
        return "bad tiling amount (RDX_TC_TILING(tm, tn, wm, wn, ku))";
    int f[5];
    for (int i = 0; i < 5; i++) {
        f[i] = (int)((amount >> (4 * i)) & 15);
        if (f[i] != 1 && f[i] != 2 && f[i] != 4 && f[i] != 8)
            return "bad tiling amount: each of tm, tn, wm, wn, ku must be 1, 2, 4 or 8";
    }
    t->tm = f[0], t->tn = f[1], t->wm = f[2], t->wn = f[3], t->ku = f[4];
    if (t->tm * t->tn > 8)
        return "bad tiling: more than 8 output tiles per wave (tm * tn)";
    if (t->wm * t->wn > 16)
        return "bad tiling: more than 16 waves per workgroup (wm * wn)";
    if ((T->M / 16) % (t->tm * t->wm) || (T->N / 16) % (t->tn * t->wn) || (T->K / 16) % t->ku)
        return "bad tiling: tm*wm must divide M/16, tn*wn N/16 and ku K/16";
    return NULL;
}

/* k's first REDUCE axis when TC (with RDX_TC_PAD when pad) applies to it; -1 otherwise. */
static int tc_axis(const rdx_uop *k, int pad)
{
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t n;
    tc_info T;
    if (rdx_cg_axes(k, ax, &n))
        return -1;
    for (size_t i = 0; i < n; i++)
        if (ax[i].type == RDX_AXIS_REDUCE)
            return tc_match(k, ax, n, (int32_t)i, &T, pad) ? -1 : (int)i;
    return -1;
}

int cg_tc_axis(const rdx_uop *k)
{
    return tc_axis(k, 0);
}

int cg_tc_pad_axis(const rdx_uop *k)
{
    return tc_axis(k, 1);
}

int cg_tc_applicable(const rdx_uop *k)
{
    return cg_tc_axis(k) >= 0;
}

size_t cg_tc_candidates(const rdx_uop *k, rdx_opt *opts, size_t cap)
{
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t na, n = 0;
    tc_info T;
    int axis = cg_tc_axis(k);
    if (axis < 0 || rdx_cg_axes(k, ax, &na) || tc_match(k, ax, na, axis, &T, 0))
        return 0;
    static const int tiles[][2] = { { 4, 2 }, { 4, 1 }, { 2, 2 }, { 2, 1 }, { 1, 1 } };
    if (n < cap) {
        rdx_opt d = { RDX_OPTOP_TC, axis, 0, RDX_AXIS_WARP, 0 };
        opts[n++] = d;
    }
    for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; t++)
        for (int ku = 1; ku <= 2; ku *= 2) {
            tc_tiling tl;
            int64_t amt = RDX_TC_TILING(tiles[t][0], tiles[t][1], 1, 1, ku);
            if (n < cap && !tc_tiling_of(&T, amt, &tl)) {
                rdx_opt o = { RDX_OPTOP_TC, axis, amt, RDX_AXIS_WARP, 0 };
                opts[n++] = o;
            }
        }
    return n;
}

static const rdx_uop *wmma_node(rdx_ir_ctx *ctx, rdx_scalar in, const rdx_uop *a, const rdx_uop *b,
                                const rdx_uop *c)
{
    const char *name =
        in == RDX_FLOAT16 ? "WMMA_16_16_16_half_float" : "WMMA_16_16_16_bfloat16_float";
    rdx_uop_arg wa = rdx_uop_arg_none();
    wa.str = rdx_ir_str(ctx, name, strlen(name));
    wa.dtype = rdx_dtype_vec(rdx_dtype_of(RDX_FLOAT32), 8);
    const rdx_uop *ws[3] = { a, b, c };
    return a && b && c ? rdx_ir_node(ctx, RDX_OP_WMMA, ws, 3, &wa) : NULL;
}

rdx_status cg_apply_tc(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_opt *o, size_t pos,
                       const rdx_uop **out)
{
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t na;
    tc_info T;
    tc_tiling tl;
    rdx_status st = rdx_cg_axes(k, ax, &na);
    if (st)
        return st;
    int pad = (o->amount & RDX_TC_PAD) != 0;
    const char *why = tc_match(k, ax, na, o->axis, &T, pad);
    if (!why && (T.M % 16 || T.N % 16 || T.K % 16)) {
        /* RDX_TC_PAD: PADTO 16 of M, N, K (loads and stores gated, the product WHERE'd) */
        rdx_opt p[3];
        size_t np = 0;
        for (size_t i = 0; i < na; i++)
            if ((ax[i].range == T.m || ax[i].range == T.n || ax[i].range == T.kr) &&
                ax[i].size % 16) {
                rdx_opt q = { RDX_OPTOP_PADTO, (int32_t)i, 16, ax[i].type, 0 };
                p[np++] = q;
            }
        if ((st = rdx_cg_apply_opts(ctx, k, p, np, &k)) || (st = rdx_cg_axes(k, ax, &na)))
            return rdx_fail_context(st, "optimize: opt %zu TC: padding", pos);
        why = tc_match(k, ax, na, o->axis, &T, 0);
        T.padded = 1;
    }
    if (!why)
        why = tc_tiling_of(&T, o->amount, &tl);
    if (why)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "optimize: opt %zu TC: %s", pos, why);
    const int tm = tl.tm, tn = tl.tn, nt = tm * tn;
    /* the axes: GLOBAL tile indices (N fastest: gidx0 after gpudims, then M, the batch),
       LOCAL waves of the workgroup (wave n fastest), and the lanes of a wave as two WARP axes
       (after gpudims lidx0 = 16 * hi + l16: hi = the row parity of a result lane, l16 = the
       column of a result/B lane and the row of an A lane) */
    int64_t gid[3], top = T.kid;
    size_t ngid = 0;
    for (size_t i = 0; i < na; i++) {
        if (ax[i].range == T.b || ax[i].range == T.m || ax[i].range == T.n)
            gid[ngid++] = ax[i].id; /* ascending: rdx_cg_axes sorts by id */
        top = ax[i].id > top ? ax[i].id : top;
    }
    const rdx_uop *gb = T.b ? cg_range(ctx, cg_idx(ctx, T.B), gid[0], RDX_AXIS_GLOBAL) : NULL;
    const rdx_uop *gm =
        cg_range(ctx, cg_idx(ctx, T.M / (16 * tm * tl.wm)), gid[ngid - 2], RDX_AXIS_GLOBAL);
    const rdx_uop *gn =
        cg_range(ctx, cg_idx(ctx, T.N / (16 * tn * tl.wn)), gid[ngid - 1], RDX_AXIS_GLOBAL);
    const rdx_uop *wvm =
        tl.wm > 1 ? cg_range(ctx, cg_idx(ctx, tl.wm), top + 1, RDX_AXIS_LOCAL) : cg_idx(ctx, 0);
    const rdx_uop *wvn =
        tl.wn > 1 ? cg_range(ctx, cg_idx(ctx, tl.wn), top + 2, RDX_AXIS_LOCAL) : cg_idx(ctx, 0);
    const rdx_uop *hi = cg_range(ctx, cg_idx(ctx, 2), top + 3, RDX_AXIS_WARP);
    const rdx_uop *l16 = cg_range(ctx, cg_idx(ctx, 16), top + 4, RDX_AXIS_WARP);
    const rdx_uop *c16 = cg_idx(ctx, 16);
    {
        /* make expand's thread ids for these axes now, before the K range: canonical sums
           order terms by node id, so an address lists its thread-id terms first and their
           loop-invariant sum stays one value hoisted out of the K loop */
        rdx_kaxis tax[7];
        const rdx_uop *tr[7] = {
            gb, gm, gn, tl.wm > 1 ? wvm : NULL, tl.wn > 1 ? wvn : NULL, hi, l16
        };
        const rdx_uop *from[RDX_CG_MAX_AXES], *to[RDX_CG_MAX_AXES];
        size_t nt2 = 0, nf;
        for (int i = 0; i < 7; i++)
            if (tr[i]) {
                tax[nt2].range = tr[i];
                tax[nt2].id = tr[i]->arg.i;
                tax[nt2].type = (rdx_axistype)tr[i]->arg.sub;
                if (!rdx_uop_const_int(tr[i]->src[0], &tax[nt2].size))
                    return rdx_fail_context(RDX_ERR_INVALID, "optimize: TC axes");
                nt2++;
            }
        if ((st = cg_gpudims_map(ctx, tax, nt2, from, to, &nf)))
            return rdx_fail_context(st, "optimize: opt %zu TC: thread ids", pos);
    }
    /* the ranges every store is inside: its END closes them */
    const rdx_uop *endr[9];
    size_t nend = 1;
    endr[nend++] = gn;
    endr[nend++] = gm;
    if (gb)
        endr[nend++] = gb;
    if (tl.wm > 1)
        endr[nend++] = wvm;
    if (tl.wn > 1)
        endr[nend++] = wvn;
    endr[nend++] = hi;
    endr[nend++] = l16;
    /* first row of tile i, first column of tile j */
    const rdx_uop *row0[8], *col0[8];
    const rdx_uop *mt = rdx_ir_mul(
        ctx, rdx_ir_add(ctx, rdx_ir_mul(ctx, gm, cg_idx(ctx, tl.wm)), wvm), cg_idx(ctx, tm));
    const rdx_uop *ntl = rdx_ir_mul(
        ctx, rdx_ir_add(ctx, rdx_ir_mul(ctx, gn, cg_idx(ctx, tl.wn)), wvn), cg_idx(ctx, tn));
    for (int i = 0; i < tm; i++)
        row0[i] = rdx_ir_mul(ctx, rdx_ir_add(ctx, mt, cg_idx(ctx, i)), c16);
    for (int j = 0; j < tn; j++)
        col0[j] = rdx_ir_mul(ctx, rdx_ir_add(ctx, ntl, cg_idx(ctx, j)), c16);
    /* padded K: both operands are 0 beyond K (0 * 0, never 0 * inf) */
    const rdx_uop *xs = T.x, *ys = T.y;
    if (T.kvalid) {
        const rdx_uop *z = rdx_ir_const_float(ctx, rdx_dtype_of(T.in), 0.0);
        xs = rdx_ir_where(ctx, T.kvalid, xs, z);
        ys = rdx_ir_where(ctx, T.kvalid, ys, z);
    }
    /* the K loop: kt = kr * ku + u */
    const rdx_uop *kr = cg_range(ctx, cg_idx(ctx, T.K / (16 * tl.ku)), T.kid, RDX_AXIS_REDUCE);
    const rdx_uop *zero;
    {
        const rdx_uop *z[8];
        for (int v = 0; v < 8; v++)
            z[v] = rdx_ir_const_float(ctx, rdx_dtype_of(RDX_FLOAT32), 0.0);
        zero = rdx_ir_node(ctx, RDX_OP_VECTORIZE, z, 8, NULL);
    }
    const rdx_uop *acc[8];
    for (int t = 0; t < nt; t++)
        acc[t] = zero;
    /* every index expression is built once and all are simplified in one call
       (simplifying is the costly part of this rewrite): the operand rows/columns
       rc, the K lanes kk of each step u, the result rows and columns */
    const rdx_uop *ix[16 + 8 * 16 + 8 + 64];
    const rdx_uop **rc = ix, **kks = rc + tm + tn, **cols = kks + 16 * tl.ku, **rows = cols + tn;
    for (int f = 0; f < tm + tn; f++)
        rc[f] = rdx_ir_add(ctx, f < tm ? row0[f] : col0[f - tm], l16);
    for (int u = 0; u < tl.ku; u++) {
        const rdx_uop *kt =
            rdx_ir_add(ctx, rdx_ir_mul(ctx, kr, cg_idx(ctx, tl.ku)), cg_idx(ctx, u));
        for (int e = 0; e < 16; e++)
            kks[16 * u + e] = rdx_ir_add(ctx, rdx_ir_mul(ctx, kt, c16), cg_idx(ctx, e));
    }
    for (int j = 0; j < tn; j++)
        cols[j] = rdx_ir_add(ctx, col0[j], l16);
    for (int i = 0; i < tm; i++)
        for (int v = 0; v < 8; v++)
            rows[8 * i + v] = rdx_ir_add(ctx, row0[i], rdx_ir_add(ctx, cg_idx(ctx, 2 * v), hi));
    simp_all(ctx, ix, (size_t)(rows + 8 * tm - ix));
    for (int u = 0; u < tl.ku; u++) {
        const rdx_uop *fa[8], *fb[8], **kk = kks + 16 * u;
        for (int f = 0; f < tm + tn; f++) {
            const rdx_uop *lanes[16];
            const rdx_uop *from[3] = { T.kr, f < tm ? T.m : T.n, T.b };
            const rdx_uop *to[3] = { NULL, rc[f], gb };
            if (!tc_lanes(ctx, f < tm ? xs : ys, from, to, T.b ? 3 : 2, kk, lanes))
                return rdx_fail_context(RDX_ERR_INVALID, "optimize: TC operands");
            const rdx_uop *v = rdx_ir_node(ctx, RDX_OP_VECTORIZE, lanes, 16, NULL);
            if (f < tm)
                fa[f] = v;
            else
                fb[f - tm] = v;
        }
        for (int i = 0; i < tm; i++)
            for (int j = 0; j < tn; j++)
                acc[i * tn + j] = wmma_node(ctx, T.in, fa[i], fb[j], acc[i * tn + j]);
    }
    const rdx_uop *val = nt > 1 ? rdx_ir_node(ctx, RDX_OP_CAT, acc, (size_t)nt, NULL) : acc[0];
    rdx_uop_arg ra = rdx_uop_arg_none();
    ra.sub = RDX_RED_ADD;
    const rdx_uop *rs[2] = { val, kr };
    const rdx_uop *red = val && kr ? rdx_ir_node(ctx, RDX_OP_REDUCE, rs, 2, &ra) : NULL;
    if (!red)
        return rdx_fail_context(RDX_ERR_INVALID, "optimize: TC accumulation");
    /* one STORE per tile and result lane, D[2v + l/16][l%16], each in an END of the axes;
       a store to an index affine in M (stride sm) of the result (or its CAST):
       lane v's index is lane 0's (simplified) with 2v*sm added to its constant (rows[8i + v]
       = rows[8i] + 2v), the value substituted alone */
    const rdx_uop *stores[64], *st0 = NULL;
    const rdx_uop *six =
        T.store->nsrc == 2 && T.store->src[0]->op == RDX_OP_INDEX && T.store->src[0]->nsrc == 2
            ? T.store->src[0]
            : NULL;
    int sok = six && !cg_depends(six, T.red) && !cg_depends(six->src[0], T.m) &&
              !cg_depends(six->src[0], T.n) && (!T.b || !cg_depends(six->src[0], T.b)) &&
              (T.store->src[1] == T.red ||
               (T.store->src[1]->op == RDX_OP_CAST && T.store->src[1]->src[0] == T.red));
    int64_t sm = sok ? affine_coef(six->src[1], T.m, 0, &sok) : 0;
    for (int t = 0; t < nt; t++)
        for (int v = 0; v < 8; v++) {
            rdx_uop_arg ga = rdx_uop_arg_none();
            int64_t lanev = 8 * t + v;
            ga.ints = rdx_ir_ints(ctx, &lanev, 1);
            ga.nints = 1;
            const rdx_uop *d = rdx_ir_node(ctx, RDX_OP_GEP, &red, 1, &ga);
            if (d && T.red->dtype.scalar != RDX_FLOAT32)
                d = rdx_ir_cast(ctx, d, T.red->dtype);
            const rdx_uop *row = rows[8 * (t / tn) + v];
            const rdx_uop *col = cols[t % tn];
            const rdx_uop *from[4] = { T.red, T.m, T.n, T.b }, *to[4] = { d, row, col, gb };
            if (sok && v > 0) {
                const rdx_uop *s2[2] = { st0->src[0]->src[0],
                                         moved(ctx, st0->src[0]->src[1], 2 * v * sm) };
                s2[0] = rdx_ir_replace_src(ctx, st0->src[0], s2, 2);
                s2[1] = subst(ctx, T.store->src[1], &T.red, &d, 1);
                endr[0] = s2[0] && s2[1] ? rdx_ir_replace_src(ctx, st0, s2, 2) : NULL;
            } else {
                endr[0] = subst(ctx, T.store, from, to, T.b ? 4 : 3);
                if (sok)
                    endr[0] = st0 = simp_index(ctx, endr[0]);
            }
            stores[8 * t + v] = endr[0] ? rdx_ir_node(ctx, RDX_OP_END, endr, nend, NULL) : NULL;
            if (!stores[8 * t + v])
                return rdx_fail_context(RDX_ERR_INVALID, "optimize: TC stores");
        }
    *out = rdx_ir_sink(ctx, stores, (size_t)(8 * nt));
    return *out ? RDX_OK : rdx_fail_context(RDX_ERR_INVALID, "optimize: TC kernel");
}
