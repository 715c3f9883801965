/* codegen/expand.c — the expand stage: UPCAST and UNROLL ranges are unrolled
 * (expand_unroll.c: the body duplicated per value; a REDUCE over an UNROLL
 * range becomes the op over the copies), GROUP_REDUCE is lowered; first the gpudims step
 * turns GLOBAL/LOCAL/WARP ranges into SPECIAL gidx/lidx when the kernel has workgroup
 * (LOCAL or WARP) axes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/front_internal.h"
#include "util/error.h"

static int closes(const rdx_uop *u, const rdx_uop *r)
{
    for (uint32_t k = 1; k < u->nsrc; k++)
        if (u->src[k] == r)
            return 1;
    return 0;
}

static const rdx_uop *without(rdx_ir_ctx *ctx, const rdx_uop *u, const rdx_uop *r,
                              const rdx_uop *first)
{
    const rdx_uop **s = malloc(u->nsrc * sizeof *s);
    if (!s)
        return NULL;
    size_t n = 0;
    s[n++] = first;
    for (uint32_t k = 1; k < u->nsrc; k++)
        if (u->src[k] != r)
            s[n++] = u->src[k];
    const rdx_uop *o = n == 1 ? first : rdx_ir_replace_src(ctx, u, s, n);
    free(s);
    return o;
}

static int stop_at_closing(void *user, const rdx_uop *u)
{
    return u->op == RDX_OP_REDUCE && closes(u, user);
}

int cg_open_use(const rdx_uop *u, const rdx_uop *r)
{
    const rdx_uop **order = NULL;
    size_t n = 0;
    if (rdx_ir_toposort_cut(u, stop_at_closing, (void *)r, &order, &n))
        return 1; /* out of memory: assume the worst */
    int found = 0;
    for (size_t i = 0; i < n && !found; i++)
        found = order[i] == r;
    free(order);
    return found;
}

/* Gate every global STORE whose address does not depend on the lane id (gate_state.lid)
   under gate_state.gate. */
typedef struct gate_state {
    const rdx_uop *lid, *gate;
} gate_state;

static const rdx_uop *gate_stores(rdx_ir_ctx *ctx, const rdx_uop *u, void *user)
{
    const gate_state *G = user;
    if (u->op != RDX_OP_STORE || u->src[0]->op != RDX_OP_INDEX ||
        u->src[0]->src[0]->op != RDX_OP_PARAM || cg_depends(u->src[0], G->lid))
        return NULL;
    const rdx_uop *s[3] = { u->src[0], u->src[1],
                            cg_and(ctx, u->nsrc == 3 ? u->src[2] : NULL, G->gate) };
    return rdx_ir_node(ctx, RDX_OP_STORE, s, 3, NULL);
}

/* The REDUCEs of kernel k closing range g, in topological order, into *out (malloc'd,
   caller frees; *n of them). */
static rdx_status closing_reduces(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_uop *g,
                                  const rdx_uop ***out, size_t *n)
{
    const rdx_uop **order = NULL;
    size_t no = 0;
    *n = 0;
    rdx_status st = rdx_ir_toposort_ctx(ctx, k, &order, &no); /* the context's cache */
    for (size_t i = 0; i < no && !st; i++)
        if (order[i]->op == RDX_OP_REDUCE && closes(order[i], g))
            order[(*n)++] = order[i];
    *out = order;
    return st;
}

/* The m partials at elements off..off+m of LDS (read through `after`), with `base` (a tree
   step: the lane's chunk) at base + off.., combined with op as a balanced tree.  Each is
   LOADed with its own constant offset and nothing waits in between (a loop over them
   waited for each load in turn); the back end merges the loads of a tree step into wide
   ds_loads (not those at constant addresses: each gets its own zero address register). */
static const rdx_uop *combine_partials(rdx_ir_ctx *ctx, const rdx_uop *after, int64_t off,
                                       const rdx_uop *base, int64_t m, rdx_redop op)
{
    const rdx_uop **v = malloc((size_t)m * sizeof *v);
    if (!v)
        return NULL;
    const rdx_uop *r = NULL;
    int64_t n = m;
    for (int64_t i = 0; i < m; i++) {
        const rdx_uop *ix = cg_idx(ctx, off + i);
        if (base && ix)
            ix = rdx_ir_add(ctx, base, ix);
        ix = ix ? rdx_ir_index(ctx, after, &ix, 1) : NULL;
        v[i] = ix ? rdx_ir_node(ctx, RDX_OP_LOAD, &ix, 1, NULL) : NULL;
        if (!v[i])
            n = 0;
    }
    while (n > 1) {
        int64_t h = 0;
        for (int64_t i = 0; i + 1 < n; i += 2)
            if (!(v[h++] = cg_combine(ctx, op, v[i], v[i + 1])))
                n = 0;
        if (n % 2)
            v[h++] = v[n - 1];
        n = n ? h : 0;
    }
    if (n == 1)
        r = v[0];
    free(v);
    return r;
}

/*
 * How a grouped reduction of k lanes combines its k partials: from GR_TREE_MIN lanes on,
 * a log-step tree over LDS (tree_plan's fan-ins f[0..ns)), then every lane reads the m
 * that remain (the broadcast: each lane gets the whole result).  Tree step s: lane
 * i < m_{s+1} = m_s/f combines the f contiguous partials at i*f of region s and stores the
 * result into element i of region s+1 (the store gated: one EXEC mask); a barrier.  Lanes
 * >= m_{s+1} read lane i mod m_{s+1}'s partials (in bounds, never stored), so the loads
 * need no gate and merge into wide ds_loads (a gated load each got its own EXEC mask and
 * stayed apart: 1024 x 1024 softmax with 256 lanes 25828 vs 21847 kcyc).  The regions lie
 * one after another in the reduction's DEFINE_LOCAL, 16-byte aligned, so no step writes
 * what an earlier one reads: one barrier per step.
 * The direct combine (every lane reads all k partials) costs O(k) LDS loads and combines
 * per lane; a tree step costs a store, a barrier and two LDS latencies.  Measured on the
 * emulator's kernel estimate (a sum of 16384 into one output, latency bound; 1024 x 1024
 * softmax with one workgroup per row, issue bound): 32 lanes (one wave) direct 15569 vs
 * tree 15760 kcyc (softmax: the tree 3% better), 64 lanes 8081 vs 8163 (softmax 33704 vs
 * 28666), 128 lanes 5714 vs 4535 (softmax 52140 vs 30932), 256 lanes 8361 vs 2598
 * (softmax 114048 vs 21847).  Fan-ins: up to 16 per step and 4 left at the end (256
 * lanes: fan-ins of 2 down to 2 left: the sum 3259; of 4 down to 4: 2724; of 16 down to
 * one: softmax 26356).
 */
#define GR_TREE_MIN  64 /* lanes from which the tree pays (below: one wave, latency bound) */
#define GR_FAN_MAX   16 /* partials a lane combines per step (four ds_load_b128 of f32) */
#define GR_FINAL_MAX 4  /* partials every lane reads at the end */
#define GR_MAX_STEPS 8
static size_t tree_plan(int64_t k, int64_t *f)
{
    size_t ns = 0;
    int64_t m = k;
    if (k < GR_TREE_MIN)
        return 0;
    while (m > GR_FINAL_MAX && ns < GR_MAX_STEPS) {
        /* one step to at most GR_FINAL_MAX when a fan-in of at most GR_FAN_MAX gets
           there: the one with the fewest loads per lane (fan-in + what remains), else the
           largest fan-in */
        int64_t best = 0, cost = 0;
        for (int64_t d = 2; d <= GR_FAN_MAX && d <= m; d++)
            if (m % d == 0) {
                int64_t c = m / d <= GR_FINAL_MAX ? d + m / d : 1000000 - d;
                if (!best || c < cost)
                    best = d, cost = c;
            }
        if (!best)
            break; /* a prime (no divisor up to GR_FAN_MAX): the rest read directly */
        f[ns++] = best;
        m /= best;
    }
    return ns;
}

/* The LDS of one dtype's members of a batch (lower_batch): member j's regions at
   j * stride + off[s]. */
typedef struct gr_local {
    rdx_dtype dt;
    int64_t n, stride, off[GR_MAX_STEPS + 1];
    const rdx_uop *lds;
} gr_local;

/*
 * The REDUCEs red[0..nb) closing range g, lowered together over the k lanes lid (they are
 * independent: a REDUCE cannot read another that closes its own range, the range would be
 * used after it was closed).  Each lane reduces its share of each (the REDUCE over the
 * other ranges, g := lid) and stores the partial; the partials are combined (the direct
 * combine or the tree above) with one barrier per step shared by the whole batch, and
 * members of one dtype share a DEFINE_LOCAL (slots from *slot on): an upcast REDUCE's
 * copies, or the sibling REDUCEs rangeify makes of an argmax, take one slot and one
 * barrier per step, not one each.  tot[c] is red[c]'s whole result, in every lane.
 */
static rdx_status lower_batch(rdx_ir_ctx *ctx, const rdx_uop *const *red, size_t nb,
                              const rdx_uop *g, const rdx_uop *lid, int64_t k, int64_t *slot,
                              const rdx_uop **tot)
{
    int64_t f[GR_MAX_STEPS], m = k;
    size_t ns = tree_plan(k, f), nl = 0;
    gr_local *L = calloc(nb, sizeof *L);
    size_t *grp = calloc(nb, sizeof *grp);
    int64_t *base = calloc(nb, sizeof *base);
    const rdx_uop **st = calloc(nb, sizeof *st);
    rdx_status err = L && grp && base && st ? RDX_OK : RDX_ERR_NOMEM;
    for (size_t c = 0; c < nb && !err; c++) {
        rdx_dtype dt = rdx_dtype_scalar(red[c]->dtype);
        for (grp[c] = 0; grp[c] < nl && L[grp[c]].dt.scalar != dt.scalar; grp[c]++)
            ;
        if (grp[c] == nl)
            L[nl++].dt = dt;
        base[c] = L[grp[c]].n++;
    }
    for (size_t d = 0; d < nl && !err; d++) {
        gr_local *l = &L[d];
        int64_t al = rdx_dtype_itemsize(l->dt), mm = k;
        al = al > 0 && al < 16 ? 16 / al : 1; /* elements per 16 bytes */
        for (size_t s = 0; s < ns; s++) {
            l->off[s + 1] = (l->off[s] + mm + al - 1) / al * al;
            mm /= f[s];
        }
        l->stride = l->n > 1 ? (l->off[ns] + mm + al - 1) / al * al : l->off[ns] + mm;
        int64_t total = l->n * l->stride;
        rdx_uop_arg la = rdx_uop_arg_none();
        la.i = (*slot)++;
        la.dtype = l->dt;
        const rdx_uop *sh = rdx_ir_shape(ctx, &total, 1);
        if (!sh || !(l->lds = rdx_ir_node(ctx, RDX_OP_DEFINE_LOCAL, &sh, 1, &la)))
            err = RDX_ERR_INVALID;
    }
    for (size_t c = 0; c < nb && !err; c++) {
        base[c] *= L[grp[c]].stride;
        const rdx_uop *part = NULL, *ix = lid;
        if (!rdx_ir_substitute(ctx, red[c]->src[0], &g, &lid, 1, &part))
            part = without(ctx, red[c], g, part);
        if (base[c])
            ix = rdx_ir_add(ctx, lid, cg_idx(ctx, base[c]));
        ix = ix ? rdx_ir_index(ctx, L[grp[c]].lds, &ix, 1) : NULL;
        if (!part || !ix || !(st[c] = rdx_ir_store(ctx, ix, part)))
            err = RDX_ERR_INVALID;
    }
    const rdx_uop *bar = err ? NULL : rdx_ir_node(ctx, RDX_OP_BARRIER, st, nb, NULL);
    for (size_t s = 0; s < ns && bar; s++) {
        m /= f[s];
        /* lanes >= m read lane (i mod m)'s partials (in bounds, never stored): the loads
           need no gate and merge into wide ds_loads */
        const rdx_uop *gate = rdx_ir_cmplt(ctx, lid, cg_idx(ctx, m));
        const rdx_uop *from =
            rdx_ir_mul(ctx, rdx_ir_mod(ctx, lid, cg_idx(ctx, m)), cg_idx(ctx, f[s]));
        for (size_t c = 0; c < nb && bar; c++) {
            const gr_local *l = &L[grp[c]];
            const rdx_uop *as[2] = { l->lds, bar };
            const rdx_uop *after = rdx_ir_node(ctx, RDX_OP_AFTER, as, 2, NULL);
            const rdx_uop *v = after && gate && from
                                   ? combine_partials(ctx, after, base[c] + l->off[s], from, f[s],
                                                      (rdx_redop)red[c]->arg.sub)
                                   : NULL;
            const rdx_uop *ix = rdx_ir_add(ctx, lid, cg_idx(ctx, base[c] + l->off[s + 1]));
            ix = ix ? rdx_ir_index(ctx, l->lds, &ix, 1) : NULL;
            const rdx_uop *ss[3] = { ix, v, gate };
            if (!ix || !v || !(st[c] = rdx_ir_node(ctx, RDX_OP_STORE, ss, 3, NULL)))
                bar = NULL;
        }
        bar = bar ? rdx_ir_node(ctx, RDX_OP_BARRIER, st, nb, NULL) : NULL;
    }
    for (size_t c = 0; c < nb && bar; c++) {
        const gr_local *l = &L[grp[c]];
        const rdx_uop *as[2] = { l->lds, bar };
        const rdx_uop *after = rdx_ir_node(ctx, RDX_OP_AFTER, as, 2, NULL);
        if (!after || !(tot[c] = combine_partials(ctx, after, base[c] + l->off[ns], NULL, m,
                                                  (rdx_redop)red[c]->arg.sub)))
            bar = NULL;
    }
    if (!err && !bar)
        err = RDX_ERR_INVALID;
    free(L);
    free(grp);
    free(base);
    free(st);
    return err == RDX_ERR_NOMEM ? rdx_fail(err, "expand: out of memory")
           : err                ? rdx_fail_context(err, "expand: lowering GROUP_REDUCE")
                                : RDX_OK;
}

/*
 * GROUP_REDUCE axes (each of size k): work-item lidx0 = g reduces its share of every
 * REDUCE closing the axis, the partials are combined through LDS (a DEFINE_LOCAL per
 * dtype: lower_batch), and every work-item gets the whole result.  The REDUCEs closing one
 * range (an upcast REDUCE's copies, or the sibling REDUCEs rangeify makes of an argmax;
 * none can read another) are lowered as one batch, with one barrier per step for all.  A
 * REDUCE nested in another grouped range is refused (both would be lidx0: only the
 * diagonal reduced).  A LOCAL axis may share the lanes
 * (a row-fused kernel: the row's reductions grouped over the lanes that then store the
 * row's columns): it must have the same size k and be the only one, and no grouped REDUCE
 * may depend on it or on a LOOP range (a barrier in a loop would let the next iteration
 * overwrite partials still being read).  Global stores that do not depend on the lanes are
 * made by work-item 0 only.
 */
static rdx_status group_reduce(rdx_ir_ctx *ctx, const rdx_uop *kernel, const rdx_kaxis *ax,
                               size_t n, const rdx_uop **out)
{
    int64_t k = -1, slot = 0;
    int nlocal = 0;
    for (size_t i = 0; i < n; i++) {
        if (ax[i].type == RDX_AXIS_GROUP_REDUCE) {
            if (k >= 0 && ax[i].size != k)
                return rdx_fail(RDX_ERR_UNSUPPORTED,
                                "expand: GROUP_REDUCE axis %zu has %lld lanes, another %lld "
                                "(grouped reductions share the workgroup's lanes: one size)",
                                i, (long long)ax[i].size, (long long)k);
            k = ax[i].size;
        }
    }
    for (size_t i = 0; i < n; i++) {
        rdx_axistype t = ax[i].type;
        if (t == RDX_AXIS_WARP)
            return rdx_fail(RDX_ERR_UNSUPPORTED,
                            "expand: GROUP_REDUCE in a kernel with WARP axes (axis %zu)", i);
        if (t == RDX_AXIS_LOCAL && (ax[i].size != k || nlocal++))
            return rdx_fail(RDX_ERR_UNSUPPORTED,
                            "expand: GROUP_REDUCE lanes (%lld) shared with LOCAL axis %zu of size "
                            "%lld: only one LOCAL axis, of the GROUP_REDUCE size",
                            (long long)k, i, (long long)ax[i].size);
    }
    rdx_uop_arg a = rdx_uop_arg_none();
    a.str = rdx_ir_str(ctx, "lidx0", 5);
    const rdx_uop *kc = cg_idx(ctx, k);
    const rdx_uop *lid = kc ? rdx_ir_node(ctx, RDX_OP_SPECIAL, &kc, 1, &a) : NULL;
    if (!lid)
        return RDX_ERR_INVALID;
    /* checked on the kernel before any lowering (after it every value read from the
       partials depends on the lanes through the barrier): every grouped axis closed by
       some REDUCE, no REDUCE closing two of them (both would become lidx0: only the
       diagonal summed), none depending on a LOCAL or LOOP range */
    const rdx_uop **order = NULL;
    size_t no = 0, nred[RDX_CG_MAX_AXES] = { 0 };
    rdx_status st = rdx_ir_toposort_ctx(ctx, kernel, &order, &no);
    for (size_t i = 0; i < no && !st; i++) {
        const rdx_uop *u = order[i];
        if (u->op == RDX_OP_DEFINE_LOCAL && u->arg.i >= slot)
            slot = u->arg.i + 1;
        if (u->op != RDX_OP_REDUCE)
            continue;
        size_t first = n;
        for (size_t gi = 0; gi < n && !st; gi++) {
            if (ax[gi].type != RDX_AXIS_GROUP_REDUCE || !closes(u, ax[gi].range))
                continue;
            if (first < n) {
                st = rdx_fail(RDX_ERR_UNSUPPORTED,
                              "expand: GROUP_REDUCE axes %zu and %zu close the same REDUCE "
                              "(grouped reductions share one set of lanes)",
                              first, gi);
                break;
            }
            first = gi;
            if (gi < RDX_CG_MAX_AXES)
                nred[gi]++;
            /* nested in another grouped reduction's range (a loss: the sum over rows of a
               row max, both grouped): both ranges would be lidx0, only the diagonal reduced */
            for (size_t gj = 0; gj < n && !st; gj++)
                if (gj != gi && ax[gj].type == RDX_AXIS_GROUP_REDUCE && !closes(u, ax[gj].range) &&
                    cg_open_use(u->src[0], ax[gj].range))
                    st = rdx_fail(RDX_ERR_UNSUPPORTED,
                                  "expand: the REDUCE of GROUP_REDUCE axis %zu depends on "
                                  "GROUP_REDUCE axis %zu (nested grouped reductions share one "
                                  "set of lanes)",
                                  gi, gj);
            for (size_t j = 0; j < n && !st; j++) {
                rdx_axistype t = ax[j].type;
                if ((t == RDX_AXIS_LOCAL || t == RDX_AXIS_LOOP) &&
                    cg_depends(u, t == RDX_AXIS_LOCAL ? lid : ax[j].range))
                    st = rdx_fail(RDX_ERR_UNSUPPORTED,
                                  "expand: the REDUCE of GROUP_REDUCE axis %zu depends on %s "
                                  "axis %zu (its lanes' partials would be overwritten or mixed)",
                                  gi, rdx_axistype_name(t), j);
            }
        }
    }
    free(order);
    for (size_t gi = 0; gi < n && !st; gi++)
        if (ax[gi].type == RDX_AXIS_GROUP_REDUCE && gi < RDX_CG_MAX_AXES && !nred[gi])
            st = rdx_fail(RDX_ERR_INVALID, "expand: GROUP_REDUCE axis %zu closed by no REDUCE", gi);
    if (st)
        return st;
    const rdx_uop *kern = kernel;
    for (size_t gi = 0; gi < n && gi < RDX_CG_MAX_AXES && !st; gi++) {
        if (ax[gi].type != RDX_AXIS_GROUP_REDUCE)
            continue;
        const rdx_uop *g = ax[gi].range, **reds = NULL, **tots = NULL;
        size_t nr = 0;
        st = closing_reduces(ctx, kern, g, &reds, &nr);
        if (!st && !(tots = calloc(nr + 1, sizeof *tots)))
            st = rdx_fail(RDX_ERR_NOMEM, "expand: out of memory");
        if (!st)
            st = lower_batch(ctx, reds, nr, g, lid, k, &slot, tots);
        if (!st && rdx_ir_substitute(ctx, kern, reds, tots, nr, &kern))
            st = rdx_fail_context(RDX_ERR_INVALID, "expand: lowering GROUP_REDUCE");
        free(reds);
        free(tots);
    }
    if (st)
        return st;
    gate_state G = { lid, rdx_ir_cmplt(ctx, lid, cg_idx(ctx, 1)) };
    return cg_replace_ranges(ctx, kern, NULL, NULL, NULL, NULL, 0, gate_stores, &G, out);
}

static const rdx_uop *special_node(rdx_ir_ctx *ctx, const char *prefix, int d, const rdx_uop *bound)
{
    char name[16];
    snprintf(name, sizeof name, "%s%d", prefix, d);
    rdx_uop_arg a = rdx_uop_arg_none();
    a.str = rdx_ir_str(ctx, name, strlen(name));
    return bound ? rdx_ir_node(ctx, RDX_OP_SPECIAL, &bound, 1, &a) : NULL;
}

/*
 * GLOBAL ranges become SPECIAL gidxN, LOCAL and WARP ranges the work-item id
 * lidxN, numbered by decreasing axis id.  The WARP axes (lanes of a wave) come
 * first: all of them share lidx0 (the fastest-varying part of the work-item
 * id, so a WARP group of 32 lanes, or of a divisor of 32, lies within one
 * wave32), the highest axis id fastest: axis w = lidx0 / (product of the
 * faster WARP sizes) % size (no division for the fastest, no modulo for the
 * slowest).  The LOCAL axes follow in lidx1, lidx2 (lidx0.. without WARP).
 * More than 3 GLOBAL axes: the two fastest take gidx0 and gidx1, the others
 * share gidx2 the way WARP axes share lidx0 (only the slowest may be symbolic).
 * The nodes are made in a fixed order (gidx, lidx0, the WARP and LOCAL axes):
 * canonical sums order their terms by node id.
 */
rdx_status cg_gpudims_map(rdx_ir_ctx *ctx, const rdx_kaxis *ax, size_t n, const rdx_uop **from,
                          const rdx_uop **to, size_t *nf)
{
    size_t nw = 0;
    int64_t wsize = 1;
    int ng = 0, nl = 0;
    *nf = 0;
    for (size_t i = 0; i < n; i++)
        if (ax[i].type == RDX_AXIS_WARP) {
            if (ax[i].size < 1)
                return rdx_fail(RDX_ERR_UNSUPPORTED,
                                "expand: WARP axis %zu has a symbolic size (lanes need a "
                                "constant)",
                                i);
            if (wsize * ax[i].size > 1024)
                return rdx_fail(RDX_ERR_UNSUPPORTED,
                                "expand: WARP axes of %lld lanes and more (max 1024 per "
                                "workgroup)",
                                (long long)(wsize * ax[i].size));
            wsize *= ax[i].size;
            nw++;
        }
    /* more than 3 GLOBAL axes: the slowest ones (lowest ids) share gidx2, the highest id
       of them fastest (axis = gidx2 / (product of the faster merged sizes) % size) */
    size_t nglob = 0, last = n;
    int64_t merged = 1;
    for (size_t i = n; i-- > 0;)
        if (ax[i].type == RDX_AXIS_GLOBAL && ++nglob >= 3) {
            if (nglob > 3 && ax[last].size < 1)
                return rdx_fail(RDX_ERR_UNSUPPORTED,
                                "expand: GLOBAL axis %zu has a symbolic size and %zu GLOBAL axes "
                                "share gidx2 (only the slowest of them may be symbolic)",
                                last, nglob - 2);
            if (nglob > 3 && merged > INT64_MAX / ax[last].size)
                return rdx_fail(RDX_ERR_UNSUPPORTED, "expand: GLOBAL axes %zu.. overflow gidx2", i);
            if (nglob > 3)
                merged *= ax[last].size;
            last = i;
        }
    const rdx_uop *g2 = NULL;
    if (nglob > 3) {
        const rdx_uop *slow = ax[last].range->src[0];
        g2 = special_node(ctx, "gidx", 2, rdx_ir_mul(ctx, slow, cg_idx(ctx, merged)));
        if (!g2)
            return RDX_ERR_INVALID;
    }
    int64_t gstride = 1;
    for (size_t i = n; i-- > 0;) {
        if (ax[i].type != RDX_AXIS_GLOBAL)
            continue;
        const rdx_uop *v;
        if (ng < 2 || !g2) {
            v = special_node(ctx, "gidx", ng++, ax[i].range->src[0]);
        } else {
            v = gstride > 1 ? rdx_ir_idiv(ctx, g2, cg_idx(ctx, gstride)) : g2;
            if (i != last)
                v = rdx_ir_mod(ctx, v, cg_idx(ctx, ax[i].size));
            gstride *= i != last ? ax[i].size : 1;
        }
        from[*nf] = ax[i].range;
        if (!(to[(*nf)++] = v))
            return RDX_ERR_INVALID;
    }
    const rdx_uop *lane = nw ? special_node(ctx, "lidx", nl++, cg_idx(ctx, wsize)) : NULL;
    int64_t stride = 1;
    size_t seen = 0;
    for (size_t i = n; i-- > 0;) {
        rdx_axistype t = ax[i].type;
        const rdx_uop *v;
        if (t == RDX_AXIS_WARP) {
            v = lane;
            if (stride > 1)
                v = rdx_ir_idiv(ctx, v, cg_idx(ctx, stride));
            if (++seen < nw)
                v = rdx_ir_mod(ctx, v, cg_idx(ctx, ax[i].size));
            stride *= ax[i].size;
        } else if (t == RDX_AXIS_LOCAL) {
            if (nl == 3)
                return rdx_fail(RDX_ERR_UNSUPPORTED,
                                nw ? "expand: more than 2 LOCAL axes besides WARP axes (lidx0 "
                                     "holds the WARP lanes; 3 work-item dimensions)"
                                   : "expand: more than 3 LOCAL axes");
            v = special_node(ctx, "lidx", nl++, ax[i].range->src[0]);
        } else
            continue;
        from[*nf] = ax[i].range;
        if (!(to[(*nf)++] = v))
            return RDX_ERR_INVALID;
    }
    return RDX_OK;
}

static rdx_status gpudims(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_kaxis *ax, size_t n,
                          const rdx_uop **out)
{
    const rdx_uop *from[RDX_CG_MAX_AXES], *to[RDX_CG_MAX_AXES];
    uint32_t ne[RDX_CG_MAX_AXES] = { 0 };
    const rdx_uop *const *ends[RDX_CG_MAX_AXES] = { 0 };
    size_t nf;
    rdx_status st = cg_gpudims_map(ctx, ax, n, from, to, &nf);
    return st ? st : cg_replace_ranges(ctx, k, from, to, ends, ne, nf, NULL, NULL, out);
}

/*
 * The axes are listed once, on the kernel before unrolling: gpudims rewrites
 * the small kernel, the unrolling copies the result, one simplification pass
 * folds the constants the unrolling substituted (cg_simplify_unrolled), and
 * GROUP_REDUCE is lowered last, on the copies (its range is not unrolled; its
 * LDS combine is built simplified and is not passed through the simplifier,
 * which would rebuild a chain under a barrier for a WHERE condition reading
 * it and duplicate the steps of the REDUCEs sharing that barrier).
 */
rdx_status rdx_cg_expand(rdx_ir_ctx *ctx, const rdx_uop *kernel, const rdx_uop **out)
{
    const rdx_uop *k = kernel;
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t n;
    rdx_status st = cg_axes(ctx, k, ax, &n);
    int locals = 0, gr = -1, nglobal = 0;
    for (size_t i = 0; i < n && !st; i++) {
        rdx_axistype t = ax[i].type;
        nglobal += t == RDX_AXIS_GLOBAL;
        if (t == RDX_AXIS_THREAD)
            return rdx_fail(RDX_ERR_UNSUPPORTED,
                            "expand: axis %zu is THREAD (CPU threads): not lowered for the GPU", i);
        locals |= t == RDX_AXIS_LOCAL || t == RDX_AXIS_WARP;
        if (t == RDX_AXIS_GROUP_REDUCE && gr < 0) {
            if (ax[i].size < 0)
                return rdx_fail(RDX_ERR_INVALID, "expand: GROUP_REDUCE axis with a symbolic size");
            gr = (int)i;
            locals = 1;
        }
    }
    if (!st && (locals || nglobal > 3))
        st = gpudims(ctx, k, ax, n, &k);
    if (!st)
        st = cg_expand_unroll(ctx, k, ax, n, &k);
    if (!st)
        st = cg_simplify_unrolled(ctx, k, gr >= 0 ? &k : out);
    if (!st && gr >= 0)
        st = group_reduce(ctx, k, ax, n, out);
    return st;
}
