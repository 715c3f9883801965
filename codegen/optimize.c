/* codegen/optimize.c — the optimize stage: axis types of a kernel's ranges
 * and the OptOps (SPLIT, PADTO, SWAP, NOLOCALS; TC is refused), composed
 * left to right; rdx_cg_optimize runs axis types, opts (or the heuristic's),
 * then expand. */
#include <stdlib.h>
#include <string.h>

#include "codegen/front_internal.h"
#include "util/error.h"

const char *rdx_optop_name(rdx_optop op)
{
    static const char *names[] = {
#define RDX_OPTOP_NAME_(n) #n,
        RDX_OPTOP_LIST(RDX_OPTOP_NAME_)
#undef RDX_OPTOP_NAME_
    };
    return (unsigned)op < RDX_OPTOP_COUNT ? names[op] : "?";
}

/* The axes of a kernel from its order (rdx_cg_axes). */
static rdx_status axes_of(const rdx_uop *const *order, size_t no, rdx_kaxis *axes, size_t *n)
{
    rdx_status st = RDX_OK;
    *n = 0;
    for (size_t i = 0; i < no && !st; i++) {
        const rdx_uop *u = order[i];
        if (u->op != RDX_OP_RANGE)
            continue;
        if (*n == RDX_CG_MAX_AXES) {
            st = rdx_fail(RDX_ERR_UNSUPPORTED, "optimize: more than %d ranges", RDX_CG_MAX_AXES);
            break;
        }
        size_t j = *n;
        while (j > 0 && axes[j - 1].id > u->arg.i) {
            axes[j] = axes[j - 1];
            j--;
        }
        axes[j].range = u;
        axes[j].id = u->arg.i;
        axes[j].type = (rdx_axistype)u->arg.sub;
        if (!rdx_uop_const_int(u->src[0], &axes[j].size))
            axes[j].size = -1;
        (*n)++;
    }
    return st;
}

rdx_status rdx_cg_axes(const rdx_uop *kernel, rdx_kaxis *axes, size_t *n)
{
    const rdx_uop **order = NULL;
    size_t no = 0;
    rdx_status st = rdx_ir_toposort(kernel, &order, &no);
    *n = 0;
    if (!st)
        st = axes_of(order, no, axes, n);
    free(order);
    return st;
}

rdx_status cg_axes(rdx_ir_ctx *ctx, const rdx_uop *kernel, rdx_kaxis *axes, size_t *n)
{
    const rdx_uop **order = NULL;
    size_t no = 0;
    rdx_status st = rdx_ir_toposort_ctx(ctx, kernel, &order, &no);
    *n = 0;
    if (!st)
        st = axes_of(order, no, axes, n);
    free(order);
    return st;
}

static rdx_status replace1(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_uop *from,
                           const rdx_uop *to, const rdx_uop *const *ends, uint32_t nends,
                           cg_rebuild_fn extra, void *user, const rdx_uop **out)
{
    const rdx_uop *const *e[1] = { ends };
    return cg_replace_ranges(ctx, k, &from, &to, e, &nends, 1, extra, user, out);
}

rdx_status rdx_cg_axis_types(rdx_ir_ctx *ctx, const rdx_uop *kernel, const rdx_uop **out)
{
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t n;
    rdx_status st = cg_axes(ctx, kernel, ax, &n);
    *out = kernel;
    int nglobal = 0;
    for (size_t i = 0; i < n; i++)
        nglobal += ax[i].type == RDX_AXIS_GLOBAL;
    int chosen = nglobal > 0;
    /* rangeify already chose for a row-fused kernel: its rows GLOBAL, the columns LOOP (a
       GLOBAL column would evaluate the row's reductions in every work-item).  The ranges
       made GLOBAL are replaced in one rebuild (one per range gave the same graph). */
    const rdx_uop *from[3], *to[3], *const *ends[3];
    uint32_t ne[3] = { 1, 1, 1 };
    size_t nf = 0;
    for (size_t i = n; i-- > 0 && !st && nglobal < 3 && !chosen;) {
        if (ax[i].type != RDX_AXIS_LOOP)
            continue;
        const rdx_uop *r = rdx_ir_range(ctx, ax[i].range->src[0], ax[i].id, RDX_AXIS_GLOBAL);
        if (!r)
            return RDX_ERR_INVALID;
        from[nf] = ax[i].range;
        to[nf++] = r;
        nglobal++;
    }
    for (size_t i = 0; i < nf; i++)
        ends[i] = &to[i];
    if (!st && nf)
        st = cg_replace_ranges(ctx, kernel, from, to, ends, ne, nf, NULL, NULL, out);
    return st;
}

static int split_ok(rdx_axistype from, rdx_axistype to)
{
    if (from == to)
        return 1;
    switch (to) {
    case RDX_AXIS_LOCAL:
        return from == RDX_AXIS_GLOBAL || from == RDX_AXIS_LOOP;
    case RDX_AXIS_UPCAST:
        return from == RDX_AXIS_GLOBAL || from == RDX_AXIS_LOCAL || from == RDX_AXIS_LOOP;
    case RDX_AXIS_UNROLL:
        return from == RDX_AXIS_REDUCE || from == RDX_AXIS_GROUP_REDUCE;
    case RDX_AXIS_GROUP_REDUCE:
        return from == RDX_AXIS_REDUCE;
    case RDX_AXIS_WARP: /* lanes of a wave: output axes only (expand's gpudims) */
        return from == RDX_AXIS_GLOBAL || from == RDX_AXIS_LOOP;
    case RDX_AXIS_LOOP:
        return from == RDX_AXIS_GLOBAL;
    default:
        return 0;
    }
}

typedef struct pad_state {
    const rdx_uop *r, *valid;
    rdx_redop op;
    cg_map dep;
} pad_state;

static int pad_dep(pad_state *P, const rdx_uop *u)
{
    if (u == P->r)
        return 1;
    const void *k[1] = { u };
    return cg_map_get(&P->dep, k, 1) != NULL;
}

static const rdx_uop *pad_fix(rdx_ir_ctx *ctx, const rdx_uop *u, void *user)
{
    pad_state *P = user;
    int d = 0;
    for (uint32_t k = 0; k < u->nsrc && !d; k++)
        d = pad_dep(P, u->src[k]);
    const rdx_uop *nu = NULL;
    if (u->op == RDX_OP_LOAD && pad_dep(P, u->src[0])) {
        const rdx_uop *g = u->nsrc > 1 ? u->src[u->nsrc - 1] : NULL;
        const rdx_uop *s[3] = { u->src[0], u->nsrc == 3 ? u->src[1] : cg_zero(ctx, u->dtype),
                                cg_and(ctx, g, P->valid) };
        nu = rdx_ir_node(ctx, RDX_OP_LOAD, s, 3, NULL);
    } else if (u->op == RDX_OP_STORE && pad_dep(P, u->src[0])) {
        const rdx_uop *s[3] = { u->src[0], u->src[1],
                                cg_and(ctx, u->nsrc == 3 ? u->src[2] : NULL, P->valid) };
        nu = rdx_ir_node(ctx, RDX_OP_STORE, s, 3, NULL);
    } else if (u->op == RDX_OP_REDUCE) {
        int closes = 0;
        for (uint32_t k = 1; k < u->nsrc; k++)
            closes |= u->src[k] == P->r;
        if (closes) {
            const rdx_uop **s = malloc(u->nsrc * sizeof *s);
            if (!s)
                return NULL;
            memcpy(s, u->src, u->nsrc * sizeof *s);
            s[0] = rdx_ir_where(ctx, P->valid, u->src[0],
                                cg_identity(ctx, (rdx_redop)u->arg.sub, u->dtype));
            nu = rdx_ir_replace_src(ctx, u, s, u->nsrc);
            free(s);
        }
    }
    if (d) {
        const void *k1[1] = { u }, *k2[1] = { nu };
        cg_map_put(&P->dep, k1, 1, u);
        if (nu)
            cg_map_put(&P->dep, k2, 1, nu);
    }
    return nu;
}

/* After TC its WARP axes are the WMMA lane layout, its REDUCE axis the K loop of WMMA
   chains and its UPCAST/UNROLL axes the WMMA's operand/result lanes, tiles and K unroll: an
   opt that changes them (split, pad, swap, a new WARP axis) is refused. */
static rdx_status tc_axes_fixed(const rdx_uop *k, const rdx_kaxis *ax, size_t n, const rdx_opt *o,
                                size_t pos)
{
    int32_t touched[2] = { o->axis, o->op == RDX_OPTOP_SWAP ? (int32_t)o->amount : -1 };
    for (int i = 0; i < 2; i++) {
        if (touched[i] < 0 || (size_t)touched[i] >= n)
            continue;
        rdx_axistype t = ax[touched[i]].type;
        const char *role = cg_tc_axis_role(k, &ax[touched[i]]); /* opt_tc.c */
        if (role)
            return rdx_fail(RDX_ERR_INVALID,
                            "optimize: opt %zu %s: axis %d (%s) is TC's WMMA %s; set it with TC's "
                            "tiling (RDX_TC_TILING)",
                            pos, rdx_optop_name(o->op), touched[i], rdx_axistype_name(t), role);
    }
    if (o->op == RDX_OPTOP_SPLIT && o->target == RDX_AXIS_WARP)
        return rdx_fail(RDX_ERR_INVALID,
                        "optimize: opt %zu SPLIT: a WARP axis after TC would change the WMMA "
                        "lane layout",
                        pos);
    return RDX_OK;
}

/* SPLIT o (position pos) of axis o->axis among ax[0..n) (a kernel's axes, checked: size,
   divisor, target): the axis' outer range (same id, size / amount), its inner range (the
   next axis id, the target type) and the expression replacing it (outer * amount + inner,
   or inner * (size / amount) + outer for top), made in that order. */
static rdx_status split_nodes(rdx_ir_ctx *ctx, const rdx_kaxis *ax, size_t n, const rdx_opt *o,
                              size_t pos, int nolocals, const rdx_uop **expr, const rdx_uop **ends)
{
    const rdx_kaxis *a = &ax[o->axis];
    int64_t maxid = 0;
    for (size_t i = 0; i < n; i++)
        maxid = ax[i].id > maxid ? ax[i].id : maxid;
    int64_t f = o->amount;
    if (f < 1 || f > a->size || a->size % f)
        return rdx_fail(RDX_ERR_INVALID,
                        "optimize: opt %zu SPLIT: %lld does not divide axis %d "
                        "of size %lld",
                        pos, (long long)f, o->axis, (long long)a->size);
    if (o->target == RDX_AXIS_THREAD)
        return rdx_fail(RDX_ERR_UNSUPPORTED,
                        "optimize: opt %zu SPLIT: THREAD axes (CPU threads) do not exist on the "
                        "GPU target; use GLOBAL/LOCAL splits",
                        pos);
    if (o->target == RDX_AXIS_WARP && !split_ok(a->type, o->target))
        return rdx_fail(RDX_ERR_INVALID,
                        "optimize: opt %zu SPLIT: a WARP axis cannot come from axis %d (%s): "
                        "WARP lanes split an output axis (GLOBAL or LOOP); a reduction is "
                        "shared between work-items with GROUP_REDUCE",
                        pos, o->axis, rdx_axistype_name(a->type));
    if (!split_ok(a->type, o->target))
        return rdx_fail(RDX_ERR_INVALID, "optimize: opt %zu SPLIT: a %s axis cannot come from %s",
                        pos, rdx_axistype_name(o->target), rdx_axistype_name(a->type));
    if ((o->target == RDX_AXIS_LOCAL || o->target == RDX_AXIS_WARP) && nolocals)
        return rdx_fail(RDX_ERR_INVALID, "optimize: opt %zu SPLIT: %s after NOLOCALS", pos,
                        rdx_axistype_name(o->target));
    const rdx_uop *outer = rdx_ir_range(ctx, cg_idx(ctx, a->size / f), a->id, a->type);
    const rdx_uop *inner = rdx_ir_range(ctx, cg_idx(ctx, f), maxid + 1, o->target);
    const rdx_uop *e =
        o->top ? rdx_ir_add(ctx, rdx_ir_mul(ctx, inner, cg_idx(ctx, a->size / f)), outer)
               : rdx_ir_add(ctx, rdx_ir_mul(ctx, outer, cg_idx(ctx, f)), inner);
    if (!e)
        return RDX_ERR_INVALID;
    ends[0] = outer;
    ends[1] = inner;
    *expr = e;
    return RDX_OK;
}

static rdx_status apply1(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_opt *o, size_t pos,
                         int *nolocals, int tc, const rdx_uop **out)
{
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t n;
    rdx_status st = cg_axes(ctx, k, ax, &n);
    if (st)
        return st;
    if (o->op == RDX_OPTOP_NOLOCALS) {
        for (size_t i = 0; i < n; i++)
            if (ax[i].type == RDX_AXIS_LOCAL || ax[i].type == RDX_AXIS_WARP)
                return rdx_fail(RDX_ERR_INVALID, "optimize: opt %zu NOLOCALS: axis %zu is %s", pos,
                                i, rdx_axistype_name(ax[i].type));
        *nolocals = 1;
        *out = k;
        return RDX_OK;
    }
    if (o->op == RDX_OPTOP_TC)
        return cg_apply_tc(ctx, k, o, pos, out);
    if (tc && (st = tc_axes_fixed(k, ax, n, o, pos)))
        return st;
    if (o->op >= RDX_OPTOP_COUNT || o->axis < 0 || (size_t)o->axis >= n)
        return rdx_fail(RDX_ERR_INVALID, "optimize: opt %zu %s: axis %d of %zu", pos,
                        rdx_optop_name(o->op), o->axis, n);
    const rdx_kaxis *a = &ax[o->axis];
    if (o->op == RDX_OPTOP_SWAP) {
        if (o->amount < 0 || (size_t)o->amount >= n || o->amount == o->axis)
            return rdx_fail(RDX_ERR_INVALID, "optimize: opt %zu SWAP: bad other axis %lld", pos,
                            (long long)o->amount);
        const rdx_kaxis *b = &ax[o->amount];
        int ra = a->type == RDX_AXIS_REDUCE || a->type == RDX_AXIS_UNROLL ||
                 a->type == RDX_AXIS_GROUP_REDUCE;
        int rb = b->type == RDX_AXIS_REDUCE || b->type == RDX_AXIS_UNROLL ||
                 b->type == RDX_AXIS_GROUP_REDUCE;
        if (ra != rb)
            return rdx_fail(RDX_ERR_INVALID,
                            "optimize: opt %zu SWAP: axes %d (%s) and %lld (%s) differ in kind",
                            pos, o->axis, rdx_axistype_name(a->type), (long long)o->amount,
                            rdx_axistype_name(b->type));
        const rdx_uop *na = rdx_ir_range(ctx, a->range->src[0], b->id, a->type);
        const rdx_uop *nb = rdx_ir_range(ctx, b->range->src[0], a->id, b->type);
        const rdx_uop *from[2] = { a->range, b->range }, *to[2] = { na, nb };
        const rdx_uop *const e0[1] = { na }, *const e1[1] = { nb };
        const rdx_uop *const *ends[2] = { e0, e1 };
        uint32_t ne[2] = { 1, 1 };
        if (!na || !nb)
            return RDX_ERR_INVALID;
        return cg_replace_ranges(ctx, k, from, to, ends, ne, 2, NULL, NULL, out);
    }
    if (a->size < 0)
        return rdx_fail(RDX_ERR_INVALID, "optimize: opt %zu %s: axis %d has a symbolic size", pos,
                        rdx_optop_name(o->op), o->axis);
    if (o->op == RDX_OPTOP_PADTO) {
        int64_t m = o->amount;
        if (m < 1)
            return rdx_fail(RDX_ERR_INVALID, "optimize: opt %zu PADTO: multiple %lld", pos,
                            (long long)m);
        int64_t n2 = (a->size + m - 1) / m * m;
        if (n2 == a->size) {
            *out = k;
            return RDX_OK;
        }
        pad_state P;
        memset(&P, 0, sizeof P);
        P.r = rdx_ir_range(ctx, cg_idx(ctx, n2), a->id, a->type);
        P.valid = rdx_ir_cmplt(ctx, P.r, cg_idx(ctx, a->size));
        if (!P.r || !P.valid)
            return RDX_ERR_INVALID;
        st = replace1(ctx, k, a->range, P.r, &P.r, 1, pad_fix, &P, out);
        cg_map_free(&P.dep);
        return st;
    }
    /* SPLIT */
    const rdx_uop *expr = NULL, *ends[2] = { NULL, NULL };
    if ((st = split_nodes(ctx, ax, n, o, pos, *nolocals, &expr, ends)))
        return st;
    return replace1(ctx, k, a->range, expr, ends, 2, NULL, NULL, out);
}

/*
 * A run of SPLITs composed into one rebuild of the kernel.  Each SPLIT rebuilt everything
 * above the range it splits, and the next SPLIT rebuilt most of it again (the
 * intermediate kernels were thrown away: about half of the nodes optimize made).  The
 * run keeps the axes as each SPLIT of it sees them (what rdx_cg_axes would list on the
 * kernel rebuilt so far: the split range's entry becomes its outer range, the inner one
 * goes last with the next axis id), checks and builds each SPLIT's ranges and expression
 * exactly as apply1 does, and composes them per range of the kernel: the expression
 * replacing it in value positions (a later SPLIT of one of its ranges substituted into
 * it) and the ranges replacing it in END/REDUCE range slots.  One rebuild then gives the
 * graph the SPLITs one by one gave.
 */
typedef struct split_run {
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t n;
    size_t nf; /* ranges of the kernel replaced: from[i] -> to[i], ends[i][0..nends[i]) */
    const rdx_uop *from[RDX_CG_MAX_AXES], *to[RDX_CG_MAX_AXES];
    const rdx_uop *ends[RDX_CG_MAX_AXES][RDX_CG_MAX_AXES];
    uint32_t nends[RDX_CG_MAX_AXES];
} split_run;

/* SPLIT o (position pos) added to the run; *seq set (nothing done) when the split would
   make more axes than a kernel may have: apply1 reports that on the rebuilt kernel. */
static rdx_status run_split(rdx_ir_ctx *ctx, split_run *R, const rdx_opt *o, size_t pos,
                            int nolocals, int *seq)
{
    *seq = 0;
    if (o->axis < 0 || (size_t)o->axis >= R->n)
        return rdx_fail(RDX_ERR_INVALID, "optimize: opt %zu %s: axis %d of %zu", pos,
                        rdx_optop_name(o->op), o->axis, R->n);
    const rdx_kaxis a = R->ax[o->axis];
    if (a.size < 0)
        return rdx_fail(RDX_ERR_INVALID, "optimize: opt %zu %s: axis %d has a symbolic size", pos,
                        rdx_optop_name(o->op), o->axis);
    if (R->n == RDX_CG_MAX_AXES) {
        *seq = 1;
        return RDX_OK;
    }
    const rdx_uop *expr = NULL, *ends[2] = { NULL, NULL };
    rdx_status st = split_nodes(ctx, R->ax, R->n, o, pos, nolocals, &expr, ends);
    if (st)
        return st;
    /* a range an earlier SPLIT of the run made: in the ends of the kernel range it came
       from, and in that range's expression */
    size_t i, p = 0;
    for (i = 0; i < R->nf; i++) {
        for (p = 0; p < R->nends[i] && R->ends[i][p] != a.range; p++)
            ;
        if (p < R->nends[i])
            break;
    }
    if (i < R->nf) {
        const rdx_uop **e = R->ends[i];
        memmove(&e[p + 2], &e[p + 1], (R->nends[i] - p - 1) * sizeof *e);
        e[p] = ends[0];
        e[p + 1] = ends[1];
        R->nends[i]++;
        if ((st = rdx_ir_substitute(ctx, R->to[i], &a.range, &expr, 1, &R->to[i])))
            return st;
    } else {
        R->from[R->nf] = a.range;
        R->to[R->nf] = expr;
        R->ends[R->nf][0] = ends[0];
        R->ends[R->nf][1] = ends[1];
        R->nends[R->nf++] = 2;
    }
    /* the axes as rdx_cg_axes lists them on the kernel split so far */
    int64_t maxid = 0;
    for (size_t j = 0; j < R->n; j++)
        maxid = R->ax[j].id > maxid ? R->ax[j].id : maxid;
    R->ax[o->axis] =
        (rdx_kaxis){ .range = ends[0], .id = a.id, .type = a.type, .size = a.size / o->amount };
    R->ax[R->n++] =
        (rdx_kaxis){ .range = ends[1], .id = maxid + 1, .type = o->target, .size = o->amount };
    return RDX_OK;
}

/* The kernel with the run's SPLITs applied (*k rebuilt once). */
static rdx_status run_flush(rdx_ir_ctx *ctx, split_run *R, const rdx_uop **k)
{
    if (!R->nf)
        return RDX_OK;
    const rdx_uop *const *ends[RDX_CG_MAX_AXES];
    for (size_t i = 0; i < R->nf; i++)
        ends[i] = R->ends[i];
    rdx_status st =
        cg_replace_ranges(ctx, *k, R->from, R->to, ends, R->nends, R->nf, NULL, NULL, k);
    R->nf = 0;
    return st;
}

rdx_status rdx_cg_apply_opts(rdx_ir_ctx *ctx, const rdx_uop *kernel, const rdx_opt *opts, size_t n,
                             const rdx_uop **out)
{
    const rdx_uop *k = kernel;
    int nolocals = 0, run = 0; /* run: SPLITs pending in R */
    int64_t lds = -1;          /* LDS: the axis id staged after all other opts (lds_stage.c) */
    size_t lds_pos = 0;
    split_run *R = NULL;
    rdx_status st = RDX_OK;
    for (size_t i = 0; i < n && !st; i++) {
        if (opts[i].op == RDX_OPTOP_TC && i != 0) {
            st = rdx_fail(RDX_ERR_INVALID, "optimize: opt %zu TC: TC must be first", i);
            break;
        }
        int tc = i > 0 && opts[0].op == RDX_OPTOP_TC;
        if (opts[i].op == RDX_OPTOP_SPLIT && !tc) {
            if (!R && !(R = malloc(sizeof *R))) {
                st = rdx_fail(RDX_ERR_NOMEM, "optimize: out of memory");
                break;
            }
            if (!run) {
                R->nf = 0;
                if ((st = cg_axes(ctx, k, R->ax, &R->n)))
                    break;
                run = 1;
            }
            int seq = 0;
            if ((st = run_split(ctx, R, &opts[i], i, nolocals, &seq)) || !seq)
                continue;
        }
        if (run) {
            run = 0;
            if ((st = run_flush(ctx, R, &k)))
                break;
        }
        st = opts[i].op == RDX_OPTOP_LDS ? cg_lds_request(k, &opts[i], lds_pos = i, &lds)
                                         : apply1(ctx, k, &opts[i], i, &nolocals, tc, &k);
    }
    if (!st && run)
        st = run_flush(ctx, R, &k);
    free(R);
    if (st)
        return st;
    if (lds >= 0) {
        st = cg_lds_stage(ctx, k, lds, lds_pos, &k);
        if (st)
            return st;
    }
    return cg_simplify_kernel(ctx, k, out);
}

rdx_status rdx_cg_optimize(rdx_ir_ctx *ctx, const rdx_uop *kernel, const rdx_opt *opts, size_t n,
                           const rdx_uop **out)
{
    const rdx_uop *k;
    rdx_opt h[16];
    rdx_status st = rdx_cg_axis_types(ctx, kernel, &k);
    if (!st && !opts) {
        st = rdx_cg_heuristic(k, h, 16, &n);
        opts = h;
    }
    if (!st)
        st = rdx_cg_apply_opts(ctx, k, opts, n, &k);
    if (!st)
        st = rdx_cg_expand(ctx, k, out);
    return st;
}
