/* codegen/opt_tc.c — the TC OptOp: a matmul-like kernel (one REDUCE(ADD) over K of a
 * product of float16/bfloat16 operands, output axes M and N, and optionally a batch axis)
 * becomes WMMA tiles, as the spec says: the reduce and output axes are split into WARP,
 * UPCAST and UNROLL axes and the WMMA reads CONTRACTs of them (expand_unroll.c lowers them to
 * the back end's WMMA form, docs/codegen-kernel-form.md): lane l holds row l%16 of an A tile
 * and column l%16 of a B tile (16 K elements: an UNROLL axis); element v of a result in
 * work-item l is D[2v + l/16][l%16] (an UPCAST axis of 8).  Each wave computes tm x tn 16x16
 * output tiles (UPCAST axes; A and B fragments reused across them), wm x wn waves per
 * workgroup (LOCAL axes); the K tiles are a REDUCE loop with ku of them per iteration (an
 * UNROLL axis) whose value is the CONTRACT of the tiles' WMMAs. */
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
    /* tinygrad's half sum: the product of halves cast to float32 and summed there (the
       tensor cores multiply exactly and accumulate in float32) */
    if (val && val->op == RDX_OP_CAST && val->dtype.scalar == RDX_FLOAT32 &&
        val->src[0]->op == RDX_OP_MUL &&
        (val->src[0]->dtype.scalar == RDX_FLOAT16 || val->src[0]->dtype.scalar == RDX_BFLOAT16))
        val = val->src[0];
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
/* The first row (column) of a 16x16 tile: ((grid * waves + wave) * tiles + tile) * 16. */
static const rdx_uop *tile_origin(rdx_ir_ctx *ctx, const rdx_uop *grid, int64_t waves,
                                  const rdx_uop *wave, int64_t tiles, const rdx_uop *tile)
{
    const rdx_uop *w = rdx_ir_add(ctx, rdx_ir_mul(ctx, grid, cg_idx(ctx, waves)), wave);
    return rdx_ir_mul(ctx, rdx_ir_add(ctx, rdx_ir_mul(ctx, w, cg_idx(ctx, tiles)), tile),
                      cg_idx(ctx, 16));
}

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

/* A range of TC's register axes (UPCAST/UNROLL, expanded by expand); index 0 when n is 1. */
static const rdx_uop *reg_axis(rdx_ir_ctx *ctx, int64_t n, int64_t id, rdx_axistype t)
{
    return n > 1 ? cg_range(ctx, cg_idx(ctx, n), id, t) : cg_idx(ctx, 0);
}

/* op (CONTRACT or UNROLL) of x over the ranges r[0..n) of size > 1 (first slowest): its
   (axis id, size) pairs; x itself when there are none. */
static const rdx_uop *vec_axes(rdx_ir_ctx *ctx, rdx_op op, const rdx_uop *x,
                               const rdx_uop *const *r, int n)
{
    int64_t p[8];
    size_t np = 0;
    for (int i = 0; i < n; i++)
        if (r[i] && r[i]->op == RDX_OP_RANGE) {
            p[np++] = r[i]->arg.i;
            if (!rdx_uop_const_int(r[i]->src[0], &p[np++]))
                return NULL;
        }
    if (!np || !x)
        return x;
    rdx_uop_arg a = rdx_uop_arg_none();
    a.ints = rdx_ir_ints(ctx, p, np);
    a.nints = (uint32_t)np;
    return a.ints ? rdx_ir_node(ctx, op, &x, 1, &a) : NULL;
}

/*
 * The kernel after TC.  Axes (ids): the GLOBAL tile axes (the matched axes' ids), the REDUCE
 * K loop kr (K's id), then top+1, top+2 LOCAL waves wm, wn; top+3, top+4 WARP lanes hi (2)
 * and l16 (16); top+5 UNROLL e (16: the K elements of a fragment), top+6 UPCAST v (8: the
 * result elements of a lane, row 2v + hi), top+7, top+8 UPCAST tj, ti (tn, tm: the tiles of
 * a wave), top+9 UNROLL u (ku: the K tiles of one iteration); axes of size 1 are left out.
 * expand unrolls the lowest id fastest: loads are made e fastest, then the tile, then u, and
 * stores v fastest, then tj, ti (the order of the hand-built form before).
 *
 *   a   = A[b, row, k] with row = ((gm*wm + wvm)*tm + ti)*16 + l16, k = (kr*ku + u)*16 + e
 *   b   = B[b, k, col] with col = ((gn*wn + wvn)*tn + tj)*16 + l16
 *   w   = WMMA(CONTRACT(a, e), CONTRACT(b, e), 0)             float32x8, one tile
 *   acc = REDUCE(CONTRACT(w, ti, tj), kr, e, u)               float32x(8*tm*tn), ADD
 *   D[b, row0 + 2v + hi, col] = epilogue(UNROLL(acc, ti, tj, v))
 *
 * e is closed by the REDUCE but read through the CONTRACTs only: the WMMA sums over it
 * (expand does not add its copies again); expand chains the u copies of the WMMAs (each
 * accumulates into the previous: the back end's WMMA accumulator form).
 */
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
    const int tm = tl.tm, tn = tl.tn;
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
    const rdx_uop *kr = cg_range(ctx, cg_idx(ctx, T.K / (16 * tl.ku)), T.kid, RDX_AXIS_REDUCE);
    /* the register axes (expand's UPCAST/UNROLL) */
    const rdx_uop *e = cg_range(ctx, c16, top + 5, RDX_AXIS_UNROLL);
    const rdx_uop *v = cg_range(ctx, cg_idx(ctx, 8), top + 6, RDX_AXIS_UPCAST);
    const rdx_uop *tj = reg_axis(ctx, tn, top + 7, RDX_AXIS_UPCAST);
    const rdx_uop *ti = reg_axis(ctx, tm, top + 8, RDX_AXIS_UPCAST);
    const rdx_uop *u = reg_axis(ctx, tl.ku, top + 9, RDX_AXIS_UNROLL);
    /* first row of the tile, first column of the tile, K index of the lane */
    const rdx_uop *row0 = tile_origin(ctx, gm, tl.wm, wvm, tm, ti);
    const rdx_uop *col0 = tile_origin(ctx, gn, tl.wn, wvn, tn, tj);
    const rdx_uop *kk = rdx_ir_add(
        ctx, rdx_ir_mul(ctx, rdx_ir_add(ctx, rdx_ir_mul(ctx, kr, cg_idx(ctx, tl.ku)), u), c16), e);
    const rdx_uop *col = rdx_ir_add(ctx, col0, l16);
    /* padded K: both operands are 0 beyond K (0 * 0, never 0 * inf) */
    const rdx_uop *xs = T.x, *ys = T.y;
    if (T.kvalid) {
        const rdx_uop *z = rdx_ir_const_float(ctx, rdx_dtype_of(T.in), 0.0);
        xs = rdx_ir_where(ctx, T.kvalid, xs, z);
        ys = rdx_ir_where(ctx, T.kvalid, ys, z);
    }
    const rdx_uop *fa, *fb, *zero, *w, *acc, *red, *d;
    {
        const rdx_uop *from[3] = { T.kr, T.m, T.b },
                      *to[3] = { kk, rdx_ir_add(ctx, row0, l16), gb };
        fa = vec_axes(ctx, RDX_OP_CONTRACT, subst(ctx, xs, from, to, T.b ? 3 : 2), &e, 1);
        from[1] = T.n, to[1] = col;
        fb = vec_axes(ctx, RDX_OP_CONTRACT, subst(ctx, ys, from, to, T.b ? 3 : 2), &e, 1);
    }
    {
        const rdx_uop *z[8];
        for (int i = 0; i < 8; i++)
            z[i] = rdx_ir_const_float(ctx, rdx_dtype_of(RDX_FLOAT32), 0.0);
        zero = rdx_ir_node(ctx, RDX_OP_VECTORIZE, z, 8, NULL);
    }
    {
        const char *name =
            T.in == RDX_FLOAT16 ? "WMMA_16_16_16_half_float" : "WMMA_16_16_16_bfloat16_float";
        rdx_uop_arg wa = rdx_uop_arg_none();
        wa.str = rdx_ir_str(ctx, name, strlen(name));
        wa.dtype = rdx_dtype_vec(rdx_dtype_of(RDX_FLOAT32), 8);
        const rdx_uop *ws[3] = { fa, fb, zero };
        w = fa && fb && zero ? rdx_ir_node(ctx, RDX_OP_WMMA, ws, 3, &wa) : NULL;
    }
    {
        const rdx_uop *tiles[2] = { ti, tj }, *lanes[3] = { ti, tj, v };
        acc = vec_axes(ctx, RDX_OP_CONTRACT, w, tiles, 2);
        rdx_uop_arg ra = rdx_uop_arg_none();
        ra.sub = RDX_RED_ADD;
        const rdx_uop *rs[4] = { acc, kr, e, u };
        red = acc ? rdx_ir_node(ctx, RDX_OP_REDUCE, rs, tl.ku > 1 ? 4 : 3, &ra) : NULL;
        d = vec_axes(ctx, RDX_OP_UNROLL, red, lanes, 3);
    }
    if (d && T.red->dtype.scalar != RDX_FLOAT32)
        d = rdx_ir_cast(ctx, d, T.red->dtype);
    if (!d)
        return rdx_fail_context(RDX_ERR_INVALID, "optimize: TC accumulation");
    /* the store of result element v: D[b, row0 + 2v + hi, col] */
    const rdx_uop *row =
        rdx_ir_add(ctx, row0, rdx_ir_add(ctx, rdx_ir_mul(ctx, v, cg_idx(ctx, 2)), hi));
    const rdx_uop *from[4] = { T.red, T.m, T.n, T.b }, *to[4] = { d, row, col, gb };
    const rdx_uop *endr[12];
    size_t nend = 0;
    endr[nend++] = subst(ctx, T.store, from, to, T.b ? 4 : 3);
    const rdx_uop *closes[10] = { gn, gm, gb, wvm, wvn, hi, l16, v, tj, ti };
    for (int i = 0; i < 10; i++)
        if (closes[i] && closes[i]->op == RDX_OP_RANGE)
            endr[nend++] = closes[i];
    const rdx_uop *end = endr[0] ? rdx_ir_node(ctx, RDX_OP_END, endr, nend, NULL) : NULL;
    *out = end ? rdx_ir_sink(ctx, &end, 1) : NULL;
    return *out ? RDX_OK : rdx_fail_context(RDX_ERR_INVALID, "optimize: TC kernel");
}

/* The role TC gave axis a of a kernel after TC, or NULL (an axis later opts may change): its
   WARP lanes, its REDUCE K loop, and the UPCAST/UNROLL axes its CONTRACT/UNROLL nodes and
   the accumulating REDUCE (a vector) name. */
const char *cg_tc_axis_role(const rdx_uop *k, const rdx_kaxis *a)
{
    if (a->type == RDX_AXIS_WARP)
        return "lane layout";
    if (a->type == RDX_AXIS_REDUCE)
        return "K loop";
    if (a->type != RDX_AXIS_UPCAST && a->type != RDX_AXIS_UNROLL)
        return NULL;
    const rdx_uop **order = NULL;
    size_t no = 0;
    const char *role = NULL;
    if (rdx_ir_toposort(k, &order, &no))
        return "axis (the kernel could not be walked)";
    for (size_t i = 0; i < no && !role; i++) {
        const rdx_uop *x = order[i];
        if (x->op == RDX_OP_CONTRACT || x->op == RDX_OP_UNROLL) {
            for (uint32_t p = 0; p + 1 < x->arg.nints && !role; p += 2)
                if (x->arg.ints[p] == a->id)
                    role = x->op == RDX_OP_CONTRACT && x->dtype.scalar != RDX_FLOAT32
                               ? "fragment K elements"
                           : x->op == RDX_OP_UNROLL && p + 2 == x->arg.nints ? "result lanes"
                                                                             : "tiles per wave";
        } else if (x->op == RDX_OP_REDUCE && x->dtype.count > 1) {
            for (uint32_t s = 1; s < x->nsrc && !role; s++)
                if (x->src[s] == a->range)
                    role = "K unroll";
        }
    }
    free(order);
    return role;
}
