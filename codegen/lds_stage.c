/*
 * codegen/lds_stage.c — the LDS OptOp (an rdx extension of the spec's OptOps):
 * staging of shared operand tiles through LDS.
 *
 * LDS(axis) names a REDUCE axis r of a kernel with LOCAL axes.  Every global
 * LOAD that depends on r, on no other REDUCE axis, and not on some LOCAL axis
 * (so several work-items of a workgroup read the same elements in one
 * iteration of r) is staged: its tile is every element it reads in one
 * iteration of r, i.e. its index over the LOCAL, UPCAST and UNROLL axes it
 * depends on (the reduce range's UNROLL part is the tile's depth).  Per
 * iteration of r the workgroup loads the tile cooperatively (work-item lid
 * loads the v-element slots lid, lid + W, ... of the row-major tile, the
 * innermost tile axis the one with the smallest global stride, v = 4/2 when
 * it is contiguous so the loads merge; the last slot gated when the workgroup
 * does not divide the tile), a BARRIER (every work-item has finished reading
 * the previous tile), the stores into a DEFINE_LOCAL, a BARRIER, and the LOAD
 * becomes a read of the DEFINE_LOCAL at its tile coordinates (rows padded to a multiple of 4
 * elements where that makes the merged reads naturally aligned: order_axes).  The rewrite is
 * done after all other opts (rdx_cg_apply_opts), before expand: the staging
 * nodes depend on no UPCAST/UNROLL range, so expand keeps one copy of them.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/front_internal.h"
#include "util/error.h"

#define LDS_LIMIT      65536 /* bytes of LDS per workgroup (gfx1100) */
#define LDS_MAX_STAGED 8     /* staged loads per kernel */
#define LDS_MAX_SHARE  64    /* share loads per work-item and staged load */

/* Work-item axes: LOCAL, and WARP (lanes of a wave, also part of the work-item id). */
static int lane_axis(rdx_axistype t)
{
    return t == RDX_AXIS_LOCAL || t == RDX_AXIS_WARP;
}

static int tile_axis(rdx_axistype t)
{
    return lane_axis(t) || t == RDX_AXIS_UPCAST || t == RDX_AXIS_UNROLL;
}

static int axis_of(const rdx_kaxis *ax, size_t n, const rdx_uop *r)
{
    for (size_t i = 0; i < n; i++)
        if (ax[i].range == r)
            return (int)i;
    return -1;
}

/* The axes LOAD u depends on (bit i = ax[i]); 0 and *ok = 0 when its index or gate reads
   anything but index arithmetic over ranges, variables and constants. */
static rdx_status load_mask(const rdx_uop *u, const rdx_kaxis *ax, size_t n, uint32_t *mask,
                            int *ok)
{
    const rdx_uop **order = NULL;
    size_t no = 0;
    rdx_status st = rdx_ir_toposort(u, &order, &no);
    *mask = 0;
    *ok = !st;
    for (size_t i = 0; i < no && *ok; i++) {
        const rdx_uop *x = order[i];
        if (x == u || x == u->src[0])
            continue;
        switch ((rdx_op)x->op) {
        case RDX_OP_RANGE: {
            int a = axis_of(ax, n, x);
            if (a < 0)
                *ok = 0;
            else
                *mask |= 1u << a;
            break;
        }
        case RDX_OP_CONST:
        case RDX_OP_DEFINE_VAR:
        case RDX_OP_PARAM:
        case RDX_OP_STACK:
            break;
        default:
            *ok = !!(rdx_op_info((rdx_op)x->op)->flags & RDX_OPF_ELEMENTWISE);
        }
    }
    free(order);
    return st;
}

/* Global stride of axis a in the last index operand of LOAD u (INT64_MAX when not constant). */
static int64_t stride_of(rdx_ir_ctx *ctx, const rdx_uop *u, const rdx_kaxis *ax, size_t n,
                         uint32_t mask, int a)
{
    const rdx_uop *ix = u->src[0], *e = ix->src[ix->nsrc - 1];
    const rdx_uop *from[RDX_CG_MAX_AXES], *to0[RDX_CG_MAX_AXES], *to1[RDX_CG_MAX_AXES];
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (mask >> i & 1) {
            from[m] = ax[i].range;
            to0[m] = cg_idx(ctx, 0);
            to1[m] = cg_idx(ctx, (int)i == a);
            m++;
        }
    const rdx_uop *e0, *e1, *s0, *s1;
    int64_t v0, v1;
    if (rdx_ir_substitute(ctx, e, from, to0, m, &e0) ||
        rdx_ir_substitute(ctx, e, from, to1, m, &e1) || rdx_ir_simplify(ctx, e0, &s0) ||
        rdx_ir_simplify(ctx, e1, &s1) || !rdx_uop_const_int(s0, &v0) || !rdx_uop_const_int(s1, &v1))
        return INT64_MAX;
    return v1 - v0 < 0 ? v0 - v1 : v1 - v0;
}

/* One staged load: its tile axes (outermost first) and the LDS buffer. */
typedef struct staged {
    const rdx_uop *load, *lds, *repl;
    int axes[RDX_CG_MAX_AXES];
    int nd;
    int64_t size, v;      /* elements of the tile, vector width of a share */
    int64_t inner, pitch; /* the innermost axis' size and its row pitch in LDS (padded) */
    size_t first, nshare; /* its share loads in the value/store lists */
} staged;

typedef struct stage_state {
    rdx_ir_ctx *ctx;
    const rdx_kaxis *ax;
    size_t n;
    const rdx_uop *lid;
    int64_t wg;
} stage_state;

/* The tile axes of s ordered outermost first: decreasing global stride (unknown first),
   ties by axis id; the vector width when the innermost one is contiguous. */
static void order_axes(stage_state *S, staged *s, uint32_t mask)
{
    int64_t str[RDX_CG_MAX_AXES];
    for (int i = 0; i < s->nd; i++)
        str[i] = stride_of(S->ctx, s->load, S->ax, S->n, mask, s->axes[i]);
    for (int i = 1; i < s->nd; i++)
        for (int j = i; j > 0 && str[j] > str[j - 1]; j--) {
            int64_t t = str[j];
            str[j] = str[j - 1], str[j - 1] = t;
            int a = s->axes[j];
            s->axes[j] = s->axes[j - 1], s->axes[j - 1] = a;
        }
    int64_t inner = S->ax[s->axes[s->nd - 1]].size;
    unsigned item = rdx_dtype_itemsize(s->load->dtype);
    /* the widest v that divides the innermost axis, preferring one whose slots fill the
       workgroup evenly (no gated last slot: gated loads do not merge) */
    s->v = 1;
    for (int pass = 0; pass < 2 && s->v == 1 && str[s->nd - 1] == 1; pass++) {
        for (int64_t v = item > 4 ? 2 : 4; v > 1 && s->v == 1; v /= 2)
            if (inner % v == 0 && (pass || (s->size / v) % S->wg == 0))
                s->v = v;
        if (s->size % S->wg == 0)
            break; /* one element per slot fills it evenly: no gated slot (4 gated b32 loads
                      and their EXEC saves cost more than one ungated load) */
    }
    /* The row pitch: the reads of the innermost axis' copies (an UPCAST/UNROLL axis) merge into
       ds_load_b64/b96/b128 (isel_merge.c) only at naturally aligned addresses (8 / 16 bytes);
       every other tile axis steps by a multiple of the pitch, so a pitch of a multiple of 4
       dwords aligns every run that starts at a multiple of 4 (a pair needs 2). */
    s->inner = inner;
    s->pitch = inner;
    rdx_axistype it = S->ax[s->axes[s->nd - 1]].type;
    if (item == 4 && inner > 2 && inner % 4 && (it == RDX_AXIS_UPCAST || it == RDX_AXIS_UNROLL))
        s->pitch = (inner + 3) / 4 * 4;
}

/* Elements of s's LDS buffer (rows of the padded pitch). */
static int64_t lds_elems(const staged *s)
{
    return s->size / s->inner * s->pitch;
}

/* The LDS element of tile element e (row-major over the tile axes) in the padded layout. */
static const rdx_uop *padded(rdx_ir_ctx *ctx, const staged *s, const rdx_uop *e)
{
    if (s->pitch == s->inner)
        return e;
    const rdx_uop *in = cg_idx(ctx, s->inner);
    return rdx_ir_add(ctx, rdx_ir_mul(ctx, rdx_ir_idiv(ctx, e, in), cg_idx(ctx, s->pitch)),
                      rdx_ir_mod(ctx, e, in));
}

/* The share loads of s: slot q = j*wg + lid holds tile elements q*v .. q*v + v-1. */
static rdx_status share_loads(stage_state *S, staged *s, const rdx_uop **vals,
                              const rdx_uop **gates, const rdx_uop **slots, size_t *nv)
{
    rdx_ir_ctx *ctx = S->ctx;
    int64_t nq = s->size / s->v, J = (nq + S->wg - 1) / S->wg;
    if (J * s->v > LDS_MAX_SHARE)
        return rdx_fail(RDX_ERR_RANGE,
                        "LDS: a tile of %lld elements needs %lld loads per work-item of a "
                        "workgroup of %lld (at most %d)",
                        (long long)s->size, (long long)(J * s->v), (long long)S->wg, LDS_MAX_SHARE);
    s->first = *nv;
    for (int64_t j = 0; j < J; j++) {
        const rdx_uop *q = rdx_ir_add(ctx, cg_idx(ctx, j * S->wg), S->lid);
        const rdx_uop *g = nq % S->wg && j == J - 1 ? rdx_ir_cmplt(ctx, q, cg_idx(ctx, nq)) : NULL;
        for (int64_t c = 0; c < s->v; c++) {
            const rdx_uop *from[RDX_CG_MAX_AXES], *to[RDX_CG_MAX_AXES], *rem = q;
            for (int i = s->nd - 1; i >= 0; i--) {
                const rdx_kaxis *a = &S->ax[s->axes[i]];
                int64_t rad = i == s->nd - 1 ? a->size / s->v : a->size;
                const rdx_uop *co = rdx_ir_mod(ctx, rem, cg_idx(ctx, rad));
                if (i == s->nd - 1)
                    co = rdx_ir_add(ctx, rdx_ir_mul(ctx, co, cg_idx(ctx, s->v)), cg_idx(ctx, c));
                from[i] = a->range;
                to[i] = co;
                rem = rdx_ir_idiv(ctx, rem, cg_idx(ctx, rad));
            }
            const rdx_uop *ld;
            if (!rem || rdx_ir_substitute(ctx, s->load, from, to, (size_t)s->nd, &ld))
                return rdx_fail_context(RDX_ERR_INVALID, "LDS: building a share load");
            if (g) {
                const rdx_uop *src[3] = {
                    ld->src[0], ld->nsrc == 3 ? ld->src[1] : cg_zero(ctx, ld->dtype),
                    cg_and(ctx, ld->nsrc > 1 ? ld->src[ld->nsrc - 1] : NULL, g)
                };
                ld = rdx_ir_node(ctx, RDX_OP_LOAD, src, 3, NULL);
            }
            vals[*nv] = ld;
            gates[*nv] = g;
            slots[*nv] = padded(
                ctx, s, rdx_ir_add(ctx, rdx_ir_mul(ctx, q, cg_idx(ctx, s->v)), cg_idx(ctx, c)));
            if (!ld || !slots[*nv])
                return rdx_fail_context(RDX_ERR_INVALID, "LDS: building a share load");
            (*nv)++;
        }
    }
    s->nshare = *nv - s->first;
    return RDX_OK;
}

/* Find the loads to stage for the REDUCE axis ri; *ns of them into st[]. */
static rdx_status pick(stage_state *S, const rdx_uop *kernel, int ri, staged *st, int *ns)
{
    const rdx_uop **order = NULL;
    size_t no = 0;
    rdx_status e = rdx_ir_toposort(kernel, &order, &no);
    uint32_t locals = 0;
    for (size_t i = 0; i < S->n; i++)
        locals |= (uint32_t)lane_axis(S->ax[i].type) << i;
    *ns = 0;
    for (size_t i = 0; i < no && !e; i++) {
        const rdx_uop *u = order[i];
        if (u->op == RDX_OP_DEFINE_LOCAL || u->op == RDX_OP_SPECIAL || u->op == RDX_OP_WMMA) {
            e = rdx_fail(RDX_ERR_UNSUPPORTED,
                         "LDS: the kernel already has %s nodes (TC or LDS lowering)",
                         rdx_op_name((rdx_op)u->op));
            break;
        }
        if (u->op != RDX_OP_LOAD || u->src[0]->op != RDX_OP_INDEX ||
            u->src[0]->src[0]->op != RDX_OP_PARAM || u->dtype.count != 1)
            continue;
        uint32_t mask;
        int ok;
        if ((e = load_mask(u, S->ax, S->n, &mask, &ok)))
            break;
        if (!ok || !(mask >> ri & 1) || (mask & locals) == locals)
            continue;
        staged s;
        memset(&s, 0, sizeof s);
        s.load = u;
        s.size = 1;
        for (size_t a = 0; a < S->n && ok; a++) {
            if (!(mask >> a & 1) || (int)a == ri)
                continue;
            rdx_axistype t = S->ax[a].type;
            if (S->ax[a].size == 1)
                continue; /* the constant 0 (e.g. the outer part of a fully unrolled axis) */
            if (tile_axis(t)) {
                s.axes[s.nd++] = (int)a;
                s.size *= S->ax[a].size;
            } else
                ok = t == RDX_AXIS_GLOBAL || t == RDX_AXIS_LOOP;
        }
        if (!ok || !s.nd)
            continue; /* another reduction's loop, or one element per iteration */
        if (*ns == LDS_MAX_STAGED) {
            e = rdx_fail(RDX_ERR_UNSUPPORTED, "LDS: more than %d loads to stage", LDS_MAX_STAGED);
            break;
        }
        order_axes(S, &s, mask);
        st[(*ns)++] = s;
    }
    free(order);
    return e;
}

rdx_status cg_lds_stage(rdx_ir_ctx *ctx, const rdx_uop *kernel, int64_t axis_id, size_t pos,
                        const rdx_uop **out)
{
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t n;
    rdx_status e = rdx_cg_axes(kernel, ax, &n);
    if (e)
        return e;
    stage_state S = { ctx, ax, n, NULL, 1 };
    int ri = -1;
    for (size_t i = 0; i < n; i++)
        if (ax[i].id == axis_id)
            ri = (int)i;
    if (ri < 0 || ax[ri].type != RDX_AXIS_REDUCE)
        return rdx_fail(RDX_ERR_INVALID, "optimize: opt %zu LDS: axis id %lld is not a REDUCE axis",
                        pos, (long long)axis_id);
    /* lid: the flat work-item id as gpudims lays it out (expand.c): the WARP lanes fastest,
       then the LOCAL axes, each by decreasing axis id */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = n; i-- > 0;)
            if (ax[i].type == (pass ? RDX_AXIS_LOCAL : RDX_AXIS_WARP)) {
                const rdx_uop *t = rdx_ir_mul(ctx, ax[i].range, cg_idx(ctx, S.wg));
                S.lid = S.lid ? rdx_ir_add(ctx, S.lid, t) : t;
                S.wg *= ax[i].size;
            }
    if (!S.lid)
        return rdx_fail(RDX_ERR_INVALID,
                        "optimize: opt %zu LDS: the kernel has no LOCAL axes (nor WARP axes)", pos);
    staged st[LDS_MAX_STAGED];
    int ns;
    if ((e = pick(&S, kernel, ri, st, &ns)))
        return rdx_fail_context(e, "optimize: opt %zu", pos);
    if (!ns)
        return rdx_fail(RDX_ERR_INVALID,
                        "optimize: opt %zu LDS: no load of the kernel is read by several "
                        "work-items in one iteration of axis %d",
                        pos, ri);
    /* LDS budget */
    uint64_t bytes = 0;
    for (int i = 0; i < ns; i++)
        bytes = (bytes + 15) / 16 * 16 +
                (uint64_t)lds_elems(&st[i]) * rdx_dtype_itemsize(st[i].load->dtype);
    if (bytes > LDS_LIMIT)
        return rdx_fail(RDX_ERR_RANGE,
                        "optimize: opt %zu LDS: the staged tiles need %llu bytes of LDS "
                        "(limit %d)",
                        pos, (unsigned long long)bytes, LDS_LIMIT);
    size_t cap = (size_t)ns * LDS_MAX_SHARE, nv = 0;
    const rdx_uop **vals = malloc(cap * sizeof *vals), **gates = malloc(cap * sizeof *gates),
                  **slots = malloc(cap * sizeof *slots), **stores = malloc(cap * sizeof *stores);
    if (!vals || !gates || !slots || !stores)
        e = rdx_fail(RDX_ERR_NOMEM, "LDS: out of memory");
    for (int i = 0; i < ns && !e; i++)
        e = share_loads(&S, &st[i], vals, gates, slots, &nv);
    /* barrier 0: everyone has read the previous tile (the share loads are in flight) */
    const rdx_uop *b0 = e ? NULL : rdx_ir_node(ctx, RDX_OP_BARRIER, vals, nv, NULL);
    for (int i = 0; i < ns && b0; i++) {
        rdx_uop_arg la = rdx_uop_arg_none();
        la.i = i;
        la.dtype = st[i].load->dtype;
        int64_t elems = lds_elems(&st[i]);
        const rdx_uop *sh = rdx_ir_shape(ctx, &elems, 1);
        st[i].lds = sh ? rdx_ir_node(ctx, RDX_OP_DEFINE_LOCAL, &sh, 1, &la) : NULL;
        const rdx_uop *as[2] = { st[i].lds, b0 };
        const rdx_uop *w = st[i].lds ? rdx_ir_node(ctx, RDX_OP_AFTER, as, 2, NULL) : NULL;
        for (size_t k = st[i].first; k < st[i].first + st[i].nshare && w; k++) {
            const rdx_uop *src[3] = { rdx_ir_index(ctx, w, &slots[k], 1), vals[k], gates[k] };
            stores[k] = rdx_ir_node(ctx, RDX_OP_STORE, src, gates[k] ? 3 : 2, NULL);
            if (!stores[k])
                w = NULL;
        }
        if (!w)
            b0 = NULL;
    }
    /* barrier 1: the tile is in LDS; the staged loads read it at their tile coordinates */
    const rdx_uop *b1 = b0 ? rdx_ir_node(ctx, RDX_OP_BARRIER, stores, nv, NULL) : NULL;
    const rdx_uop *from[LDS_MAX_STAGED], *to[LDS_MAX_STAGED];
    for (int i = 0; i < ns && b1; i++) {
        const rdx_uop *as[2] = { st[i].lds, b1 }, *flat = NULL;
        for (int d = 0; d < st[i].nd; d++) {
            const rdx_kaxis *a = &ax[st[i].axes[d]];
            int64_t pitch = d == st[i].nd - 1 ? st[i].pitch : a->size;
            flat = flat ? rdx_ir_add(ctx, rdx_ir_mul(ctx, flat, cg_idx(ctx, pitch)), a->range)
                        : a->range;
        }
        const rdx_uop *w = rdx_ir_node(ctx, RDX_OP_AFTER, as, 2, NULL);
        const rdx_uop *ix = w && flat ? rdx_ir_index(ctx, w, &flat, 1) : NULL;
        from[i] = st[i].load;
        to[i] = ix ? rdx_ir_node(ctx, RDX_OP_LOAD, &ix, 1, NULL) : NULL;
        if (!to[i])
            b1 = NULL;
    }
    if (!e && !b1)
        e = rdx_fail_context(RDX_ERR_INVALID, "optimize: opt %zu LDS: building the staging", pos);
    if (!e)
        e = rdx_ir_substitute(ctx, kernel, from, to, (size_t)ns, out);
    free(vals);
    free(gates);
    free(slots);
    free(stores);
    return e;
}

rdx_status cg_lds_request(const rdx_uop *kernel, const rdx_opt *o, size_t pos, int64_t *axis_id)
{
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t n;
    rdx_status e = rdx_cg_axes(kernel, ax, &n);
    if (e)
        return e;
    if (*axis_id >= 0)
        return rdx_fail(RDX_ERR_INVALID, "optimize: opt %zu LDS: a second LDS opt", pos);
    if (o->axis < 0 || (size_t)o->axis >= n || ax[o->axis].type != RDX_AXIS_REDUCE)
        return rdx_fail(RDX_ERR_INVALID, "optimize: opt %zu LDS: axis %d is not a REDUCE axis", pos,
                        o->axis);
    if (o->amount != 0)
        return rdx_fail(RDX_ERR_INVALID,
                        "optimize: opt %zu LDS: amount %lld (must be 0: the tile depth is the "
                        "axis' UNROLL split)",
                        pos, (long long)o->amount);
    *axis_id = ax[o->axis].id;
    return RDX_OK;
}

size_t cg_lds_candidates(const rdx_kaxis *ax, size_t na, const rdx_opt *seq, size_t nseq,
                         rdx_opt *c, size_t cap)
{
    int locals = 0;
    size_t n = 0;
    for (size_t i = 0; i < nseq; i++)
        if (seq[i].op == RDX_OPTOP_LDS || seq[i].op == RDX_OPTOP_TC)
            return 0;
    for (size_t i = 0; i < na; i++)
        locals |= lane_axis(ax[i].type);
    for (size_t i = 0; i < na && locals && n < cap; i++)
        if (ax[i].type == RDX_AXIS_REDUCE && ax[i].size != 1) {
            rdx_opt o = { RDX_OPTOP_LDS, (int32_t)i, 0, RDX_AXIS_LOOP, 0 };
            c[n++] = o;
        }
    return n;
}

/* Staging pays on the emulator's kernel time estimate (est_kernel_cycles, docs/emu.md) once
   it saves this many dwords of global loads per work-item and iteration (the staged loads'
   register-tile dwords minus their slot loads): their vector-memory line requests bound the
   unstaged kernel (l0).  Fitted on float32 matmuls with 4x4 tiles, k by 8, 16x16 workgroups
   (64 - 4 = 60 saved; 256^3: 38016 -> 24773 estimated cycles, 512^3: 348416 -> 71416) and the
   3x3 conv over 64 channels whose broadcast weights alone are shared (9 - 1 = 8 saved;
   53785 -> 59043: no). */
#define LDS_SAVED_PAY 32

/* The back end issues a scope's global loads up front up to this many destination dwords
   (codegen/isel.c SCOPE_LOAD_DWORDS); loads beyond it are issued where they are used, each
   waiting its own latency. */
#define LDS_LOAD_BUDGET 96

int cg_lds_pays(const rdx_uop *kernel, const rdx_kaxis *ax, size_t na, const rdx_opt *o, size_t n)
{
    int64_t up[RDX_CG_MAX_AXES], loc[RDX_CG_MAX_AXES], unr[RDX_CG_MAX_AXES], wg = 1;
    int r = -1;
    for (size_t i = 0; i < na; i++)
        up[i] = loc[i] = unr[i] = 1;
    for (size_t i = 0; i < n; i++) {
        if (o[i].op != RDX_OPTOP_SPLIT || o[i].axis < 0 || (size_t)o[i].axis >= na)
            return -1; /* padded, swapped or split sub-axes: not estimated */
        int64_t *f = o[i].target == RDX_AXIS_UPCAST   ? up
                     : lane_axis(o[i].target)         ? loc
                     : o[i].target == RDX_AXIS_UNROLL ? unr
                                                      : NULL;
        if (!f)
            return -1;
        f[o[i].axis] *= o[i].amount;
        wg *= lane_axis(o[i].target) ? o[i].amount : 1;
    }
    for (size_t i = 0; i < na; i++) /* one reduction loop (fully unrolled ones are not) */
        if (ax[i].type == RDX_AXIS_REDUCE && ax[i].size != 1 && ax[i].size != unr[i])
            r = r == -1 ? (int)i : -2;
    if (r < 0 || wg == 1)
        return -1;
    const rdx_uop **order = NULL;
    size_t no = 0;
    if (rdx_ir_toposort(kernel, &order, &no))
        return -1;
    int64_t plain = 0, staged = 0, bytes = 0, share_max = 0, saved = 0;
    int ok = 1, any = 0, nstaged = 0;
    for (size_t i = 0; i < no && ok; i++) {
        const rdx_uop *u = order[i];
        if (u->op != RDX_OP_LOAD || u->src[0]->op != RDX_OP_INDEX ||
            u->src[0]->src[0]->op != RDX_OP_PARAM || u->dtype.count != 1)
            continue;
        uint32_t mask;
        int lok;
        if (load_mask(u, ax, na, &mask, &lok) || !lok) {
            ok = 0;
            break;
        }
        int64_t words = rdx_dtype_itemsize(u->dtype) > 4 ? 2 : 1, per = 1, tile = 1;
        int shared = 0, pad = 0;
        for (size_t a = 0; a < na; a++) {
            if (mask >> a & 1) {
                per *= up[a] * unr[a];
                tile *= up[a] * unr[a] * loc[a];
                pad |= up[a] * unr[a] > 2 && up[a] * unr[a] % 4;
            } else
                shared |= loc[a] > 1;
        }
        plain += per * words;
        if (shared && (mask >> r & 1) && tile > 1) {
            int64_t sh = (tile + wg - 1) / wg;
            staged += sh * words;
            /* rows padded to 4 elements (order_axes) need at most 8/5 of the tile */
            int64_t tb = tile * (int64_t)rdx_dtype_itemsize(u->dtype);
            bytes += ((pad ? (tb * 8 + 4) / 5 : tb) + 15) / 16 * 16;
            share_max = sh > share_max ? sh : share_max;
            saved += (per - sh) * words;
            any = 1;
            nstaged++;
        } else
            staged += per * words;
    }
    free(order);
    int pays = ok && any && (plain > LDS_LOAD_BUDGET || saved >= LDS_SAVED_PAY) &&
               staged <= LDS_LOAD_BUDGET && bytes <= LDS_LIMIT && share_max <= LDS_MAX_SHARE &&
               nstaged <= LDS_MAX_STAGED; /* what cg_lds_stage takes (a 3x3 conv has 9) */
    return pays ? r : -1;
}
