/* codegen/opt_heuristic.c — hand-coded OptOps that give a good kernel
 * without search: unrolled reductions, upcast elementwise axes, workgroups
 * of 32..256 work-items (wave32 multiples), 16x16 tiles (and 4 outputs per
 * work-item) for matmul-like kernels. */
#include <stdlib.h>

#include "codegen/front_internal.h"
#include "util/error.h"

static void push(rdx_opt *o, size_t cap, size_t *n, rdx_optop op, int axis, int64_t amt,
                 rdx_axistype t)
{
    if (*n >= cap)
        return;
    rdx_opt x = { op, axis, amt, t, 0 };
    o[(*n)++] = x;
}

/* Does some global load of the kernel not depend on range r (r is a broadcast axis of an
   input: upcasting it reuses that load across the copies)? */
static int reuse_axis(const rdx_uop *const *loads, size_t nl, const rdx_uop *r)
{
    for (size_t i = 0; i < nl; i++)
        if (!cg_depends(loads[i]->src[0], r))
            return 1;
    return 0;
}

/* Largest of the factors f[] (descending) dividing size, or 0. */
static int64_t divisor(int64_t size, const int64_t *f, size_t nf)
{
    for (size_t i = 0; i < nf; i++)
        if (size > 0 && size % f[i] == 0 && size >= f[i])
            return f[i];
    return 0;
}

/*
 * A reduction into several outputs (matmul, convolution, row reductions).
 * Register tiles: each work-item computes up to 4x4 outputs (UPCAST by 4 of
 * up to two output axes some input does not depend on, so each loaded value
 * feeds several accumulators; b128 loads along the innermost axis), the
 * innermost reduction unrolled (fully when at most 16 long, else by 8/4/2),
 * so one iteration issues all its loads before the first FMA waits (the
 * emulator charges 400 cycles of latency per wait, and the sum over waves
 * does not hide it); then a 2-D workgroup of up to 16x16 over what remains.
 * Sizes that nothing divides get no split on that axis (odd sizes fall back
 * to plain loops).
 */
#define TILE_MIN_ITEMS 4096  /* 128 waves: register tiles never starve the GPU of waves */
#define LDS_TILE_DEPTH 16    /* k depth of an LDS-staged tile (the unroll, when it divides) */
#define TILE_BIG_ITEMS 32768 /* 1024 waves */
static rdx_status reduce_tiles(const rdx_uop *kernel, const rdx_kaxis *ax, size_t na, const int *g,
                               int ng, rdx_opt *opts, size_t cap, size_t *n)
{
    const rdx_uop **order = NULL, **loads = NULL;
    size_t no = 0, nl = 0;
    rdx_status st = rdx_ir_toposort(kernel, &order, &no);
    if (!st && !(loads = malloc((no + 1) * sizeof *loads)))
        st = rdx_fail(RDX_ERR_NOMEM, "heuristic: out of memory");
    for (size_t i = 0; i < no && !st; i++)
        if (order[i]->op == RDX_OP_LOAD && order[i]->src[0]->op == RDX_OP_INDEX &&
            order[i]->src[0]->src[0]->op == RDX_OP_PARAM)
            loads[nl++] = order[i];
    free(order);
    if (st)
        return st;
    int64_t left[RDX_CG_MAX_AXES];
    for (size_t i = 0; i < na; i++)
        left[i] = ax[i].size;
    /* upcast: innermost output axes first, up to two by 4/2 while at least TILE_MIN_ITEMS
       work-items remain; the first by 8 when TILE_BIG_ITEMS remain after 8x4 (1024^2
       outputs: 8x4 tiles, fewer loads and address updates per FMA; the kernel is bound
       by issue) */
    int64_t items = 1;
    for (int j = 0; j < ng; j++)
        items *= left[g[j]] > 0 ? left[g[j]] : 1;
    static const int64_t up_f[] = { 8, 4, 2 };
    int nup = 0;
    int64_t ups = 1; /* outputs per work-item */
    for (int j = ng - 1; j >= 0 && nup < 2; j--) {
        int a = g[j];
        int64_t f = 0;
        for (size_t k = nup || items < 32 * TILE_BIG_ITEMS ? 1 : 0; k < 3 && !f; k++)
            if (left[a] % up_f[k] == 0 && left[a] >= 2 * up_f[k] &&
                items / up_f[k] >= TILE_MIN_ITEMS)
                f = up_f[k];
        if (!f || !reuse_axis(loads, nl, ax[a].range))
            continue;
        push(opts, cap, n, RDX_OPTOP_SPLIT, a, f, RDX_AXIS_UPCAST);
        left[a] /= f;
        items /= f;
        ups *= f;
        nup++;
    }
    free(loads);
    /* unroll the innermost reduction: fully up to 16, else by 8/4/2 with at most 128
       accumulator updates per iteration (an 8x4 tile: by 4; smaller bodies compile faster
       and leave VGPRs for more resident waves) */
    int red = -1, unroll_at = -1;
    int64_t tile_outs = ups;
    for (size_t i = 0; i < na; i++)
        if (ax[i].type == RDX_AXIS_REDUCE && ax[i].size > 1)
            red = (int)i;
    if (red >= 0) {
        static const int64_t un_f[] = { 8, 4, 2 };
        int64_t tile = ax[red].size <= 16 ? 1 : ups, f = 0;
        for (size_t k = 0; k < 3 && !f && tile > 1; k++)
            if (ax[red].size % un_f[k] == 0 && tile * un_f[k] <= 128)
                f = un_f[k];
        if (tile <= 1)
            f = ax[red].size <= 16 ? ax[red].size : divisor(ax[red].size, un_f, 3);
        if (f > 1 && *n < cap) {
            unroll_at = (int)*n;
            push(opts, cap, n, RDX_OPTOP_SPLIT, red, f, RDX_AXIS_UNROLL);
        }
    }
    /* workgroup: up to 16x16 over the two innermost output axes, pushed outer first so
       the innermost (contiguous) axis is the lane-fastest one: a wave's loads then touch
       few 128-byte lines (the L0 term of the kernel estimate) */
    static const int64_t wg_f[] = { 16, 8, 4, 2 };
    int64_t wg = 1, lf[2] = { 0, 0 };
    int la[2] = { -1, -1 };
    for (int j = ng - 1, q = 0; j >= 0 && j >= ng - 2; j--, q++) {
        int a = g[j];
        int64_t f = divisor(left[a], wg_f, 4);
        if (!f || wg * f > 256)
            continue;
        la[q] = a;
        lf[q] = f;
        wg *= f;
    }
    for (int q = 1; q >= 0; q--)
        if (la[q] >= 0)
            push(opts, cap, n, RDX_OPTOP_SPLIT, la[q], lf[q], RDX_AXIS_LOCAL);
    /* LDS staging of the tiles the workgroup shares, when it pays (lds_stage.c) */
    int lr = cg_lds_pays(kernel, ax, na, opts, *n);
    /* staged: the tile deepened up to LDS_TILE_DEPTH (the unroll doubled while it divides
       the reduction, the tile makes at most 256 accumulator updates per iteration and
       staging still pays: cg_lds_pays, its slot loads within the up-front load budget).
       Each iteration waits once for its global loads (the LDS stores need them) and twice
       at a barrier; a deeper tile spreads that over more FMAs (8x4 tiles: k by 4 -> 8,
       1024^3 f32 matmul 370991 -> 211251 estimated kernel cycles; 4x4: k by 8 -> 16,
       512^3 95484 -> 78001) */
    while (lr >= 0 && unroll_at >= 0 && red >= 0 && opts[unroll_at].amount < LDS_TILE_DEPTH &&
           ax[red].size % (2 * opts[unroll_at].amount) == 0 &&
           tile_outs * 2 * opts[unroll_at].amount <= 256) {
        opts[unroll_at].amount *= 2;
        if (cg_lds_pays(kernel, ax, na, opts, *n) < 0) {
            opts[unroll_at].amount /= 2;
            break;
        }
    }
    if (lr >= 0)
        push(opts, cap, n, RDX_OPTOP_LDS, lr, 0, RDX_AXIS_LOOP);
    return RDX_OK;
}

/*
 * Grouped reductions (GROUP_REDUCE: the G work-items of a workgroup share one
 * output; each reduces its share, then the G partials are combined through LDS:
 * expand's log-step tree from 64 lanes on).  Taken when one work-item per output
 * gives fewer than GR_MIN_ITEMS work-items (512 waves: under ~3 per SIMD of the 192
 * on a gfx1100) and the reduction has at least GR_MIN_LEN elements.  G is the
 * largest power of two 32..256 that leaves every lane a share of at least GR_SHARE
 * elements of the serial work `len` (the combine costs O(log G) steps, so more
 * lanes pay until the shares get short: a sum of 16384 into one output with G =
 * 256 takes 2598 estimated kernel cycles, with the former G^2 <= s/4 rule's 64
 * 8040), keeps outputs x G <= GR_MAX_ITEMS (the GPU is full: 4096 outputs of a
 * 4096-long arange take 19909 kernel cycles with G = 64, 32336 with 256) and divides
 * the reduce length s; a reduction to at most 64 outputs that
 * nothing divides is padded to a multiple of G (PADTO fills with the op's
 * identity), others keep their tiles.  A share of at most 16 is unrolled whole,
 * longer ones by 16/8/4/2 (the largest dividing it with at least two iterations
 * left).  `len` is the serial work per output: the axis' size, or for nested
 * reductions (a sum over rows of a row's reduction, as a loss) the product of
 * every REDUCE axis, when the innermost alone is too short and an outer axis of
 * at least 32 is grouped instead.  Other REDUCE axes whose REDUCEs are separate
 * from the grouped one's are grouped with the same G (a row-fused argmax).
 */
#define GR_MIN_ITEMS 16384
#define GR_MIN_LEN   256
#define GR_SHARE     16
#define GR_MAX_ITEMS 262144 /* 8192 waves: more lanes per output only add combine steps */

/* Are the REDUCEs closing REDUCE axes a and b (a != b) separate: none closes both, and none
   uses the other's range outside the REDUCEs closing it (a row max inlined into an argmax's
   index search is read there, closed; a row reduction nested in a sum over the rows uses
   the outer range: it is not)? */
static int separate(const rdx_uop *const *reds, size_t nr, const rdx_uop *a, const rdx_uop *b)
{
    for (size_t i = 0; i < nr; i++) {
        int ca = 0, cb = 0;
        for (uint32_t k = 1; k < reds[i]->nsrc; k++) {
            ca |= reds[i]->src[k] == a;
            cb |= reds[i]->src[k] == b;
        }
        if ((ca && cb) || (ca && cg_open_use(reds[i]->src[0], b)) ||
            (cb && cg_open_use(reds[i]->src[0], a)))
            return 0;
    }
    return 1;
}

/* The share s/g of a grouped axis unrolled: whole up to 16, else by 16/8/4/2 with at least
   two iterations left. */
static void unroll_share(int axis, int64_t share, rdx_opt *opts, size_t cap, size_t *n)
{
    if (share > 1 && share <= 16) {
        push(opts, cap, n, RDX_OPTOP_SPLIT, axis, share, RDX_AXIS_UNROLL);
        return;
    }
    for (int64_t u = 16; u >= 2; u /= 2)
        if (share % u == 0 && share >= 2 * u) {
            push(opts, cap, n, RDX_OPTOP_SPLIT, axis, u, RDX_AXIS_UNROLL);
            return;
        }
}

/* co set: the other REDUCE axes (of sizes g divides) whose REDUCEs are separate from red's
   are grouped with it (a row-fused argmax: 64 x 1024 with both ranges grouped by 64 takes
   3359 kernel cycles, with the search's only 440046). */
static int grouped(const rdx_uop *kernel, const rdx_kaxis *ax, size_t na, int red, int64_t len,
                   int64_t outs, int co, rdx_opt *opts, size_t cap, size_t *n)
{
    int64_t s = ax[red].size, g = 32;
    if (len < GR_MIN_LEN || outs >= GR_MIN_ITEMS)
        return 0;
    while (g < 256 && len / (2 * g) >= GR_SHARE && 2 * g <= s && outs * 2 * g <= GR_MAX_ITEMS)
        g *= 2;
    int64_t fit = g;
    while (fit >= 32 && s % fit)
        fit /= 2;
    if (fit >= 32) {
        g = fit;
    } else if (outs <= 64) {
        push(opts, cap, n, RDX_OPTOP_PADTO, red, g, RDX_AXIS_REDUCE);
        s = (s + g - 1) / g * g;
        co = 0;
    } else {
        return 0;
    }
    push(opts, cap, n, RDX_OPTOP_SPLIT, red, g, RDX_AXIS_GROUP_REDUCE);
    unroll_share(red, s / g, opts, cap, n);
    const rdx_uop **order = NULL;
    size_t no = 0, nr = 0;
    if (!co || rdx_ir_toposort(kernel, &order, &no))
        return 1;
    for (size_t i = 0; i < no; i++)
        if (order[i]->op == RDX_OP_REDUCE)
            order[nr++] = order[i];
    int other[RDX_CG_MAX_AXES], nother = 0;
    for (size_t b = 0; b < na; b++) {
        if ((int)b == red || ax[b].type != RDX_AXIS_REDUCE || ax[b].size < g || ax[b].size % g)
            continue;
        int ok = separate(order, nr, ax[red].range, ax[b].range);
        for (int j = 0; j < nother && ok; j++)
            ok = separate(order, nr, ax[other[j]].range, ax[b].range);
        if (ok)
            other[nother++] = (int)b;
    }
    free(order);
    for (int j = 0; j < nother; j++) {
        push(opts, cap, n, RDX_OPTOP_SPLIT, other[j], g, RDX_AXIS_GROUP_REDUCE);
        unroll_share(other[j], ax[other[j]].size / g, opts, cap, n);
    }
    return 1;
}

/*
 * A row-fused kernel (schedule.c's row fusion: softmax, layernorm): GLOBAL rows, LOOP
 * columns, and row reductions that depend on no LOOP range.  A workgroup of G lanes
 * shares each row: the innermost column axis is split into LOCAL G (after an UPCAST of
 * contiguous columns: b128 loads and stores) and every row reduction's innermost range
 * into GROUP_REDUCE G (after an UNROLL of contiguous elements), so the lanes that reduced
 * the row together also write its columns (expand's grouped reductions sharing the LOCAL
 * lanes).  When a lane's share is at most ROW_REGS elements it is unrolled (and upcast)
 * whole: the reductions and the columns then read the same elements through the same
 * nodes, so the row is loaded once and kept in registers, and values computed for a
 * reduction (softmax's exp(x - max)) are reused by the columns.  G is the fewest lanes
 * (32, one wave, up to 256) that make every share at most ROW_REGS = 4 elements, else 256,
 * while it divides the columns and every grouped axis: with expand's log-step combine
 * (64 lanes and more) a workgroup of 256 lanes per 1024-long row costs a few LDS steps, and
 * softmax 1024 x 1024 is DRAM bound (0.67x clang's kernel estimate; G = 32 with shares of
 * 32, the former rule G^2 <= len/4 under the O(G) combine: 0.97x), and compiles faster
 * than the 4 x 4 form (the row whole in registers, as s4-fuse's shares of 32 in one wave
 * were, but 4 elements per lane instead of 32).  Longer shares (rows over 1024) are upcast
 * by 4/2 and unrolled by 4/2.  A range closed by two REDUCEs (an argmax) is split once.
 * Nonzero when taken; 0 (no opts) when a size does not divide (the kernel keeps one
 * work-item per row).
 */
/* Does REDUCE r depend on a reduction range that neither it nor a REDUCE inside it
   closes (r is nested in another reduction's loop)? */
static int nested(const rdx_uop *r)
{
    const rdx_uop **order = NULL;
    size_t no = 0;
    if (rdx_ir_toposort(r, &order, &no))
        return 1;
    int found = 0;
    for (size_t i = 0; i < no && !found; i++) {
        const rdx_uop *u = order[i];
        if (u->op != RDX_OP_RANGE || (rdx_axistype)u->arg.sub != RDX_AXIS_REDUCE)
            continue;
        int closed = 0;
        for (size_t j = i + 1; j < no && !closed; j++)
            if (order[j]->op == RDX_OP_REDUCE)
                for (uint32_t k = 1; k < order[j]->nsrc; k++)
                    closed |= order[j]->src[k] == u;
        found = !closed;
    }
    free(order);
    return found;
}

#define ROW_MAX_REDUCES 8
#define ROW_REGS        4
static int row_fused(const rdx_uop *kernel, const rdx_kaxis *ax, size_t na, rdx_opt *opts,
                     size_t cap, size_t *n)
{
    int col = -1, grp[ROW_MAX_REDUCES], ng = 0, fail = 0;
    for (size_t i = 0; i < na; i++)
        if (ax[i].type == RDX_AXIS_LOOP)
            col = (int)i;
    if (col < 0 || ax[col].size < 32)
        return 0;
    const rdx_uop **order = NULL;
    size_t no = 0;
    if (rdx_ir_toposort(kernel, &order, &no))
        return 0;
    for (size_t i = 0; i < no && !fail; i++) {
        const rdx_uop *r = order[i];
        if (r->op != RDX_OP_REDUCE)
            continue;
        int inloop = nested(r);
        for (size_t a = 0; a < na && !inloop; a++)
            inloop = ax[a].type == RDX_AXIS_LOOP && cg_depends(r, ax[a].range);
        if (inloop)
            continue; /* reduced per column or inside another reduction: left serial */
        int best = -1;
        for (uint32_t k = 1; k < r->nsrc; k++)
            for (size_t a = 0; a < na; a++)
                if (ax[a].range == r->src[k] && ax[a].size >= 32 && ax[a].size % 32 == 0 &&
                    (best < 0 || ax[a].id > ax[best].id))
                    best = (int)a;
        int dup = 0; /* a range closed by two REDUCEs (an argmax): split once */
        for (int j = 0; j < ng && best >= 0; j++)
            dup |= grp[j] == best;
        if (dup)
            continue;
        if (best < 0 || ng == ROW_MAX_REDUCES)
            fail = 1;
        else {
            grp[ng++] = best;
        }
    }
    free(order);
    if (fail || !ng || ax[col].size % 32)
        return 0;
    /* the fewest lanes (32..256) whose shares of the columns and of every grouped axis are
       at most ROW_REGS (the row kept in registers), else 256 */
    int64_t g = 32;
    for (;;) {
        int whole = ax[col].size / g <= ROW_REGS;
        for (int j = 0; j < ng; j++)
            whole &= ax[grp[j]].size / g <= ROW_REGS;
        int64_t g2 = 2 * g;
        int ok = !whole && g2 <= 256 && ax[col].size % g2 == 0;
        for (int j = 0; j < ng && ok; j++)
            ok = ax[grp[j]].size % g2 == 0;
        if (!ok)
            break;
        g = g2;
    }
    int64_t rest = ax[col].size / g;
    int64_t up = rest <= ROW_REGS ? rest : rest % 4 == 0 ? 4 : rest % 2 == 0 ? 2 : 1;
    if (up > 1)
        push(opts, cap, n, RDX_OPTOP_SPLIT, col, up, RDX_AXIS_UPCAST);
    push(opts, cap, n, RDX_OPTOP_SPLIT, col, g, RDX_AXIS_LOCAL);
    for (int j = 0; j < ng; j++) {
        int64_t r = ax[grp[j]].size / g, u = r <= ROW_REGS ? r : 0;
        for (int64_t f = 4; f >= 2 && !u; f /= 2)
            if (r % f == 0)
                u = f;
        if (u)
            push(opts, cap, n, RDX_OPTOP_SPLIT, grp[j], u, RDX_AXIS_UNROLL);
        push(opts, cap, n, RDX_OPTOP_SPLIT, grp[j], g, RDX_AXIS_GROUP_REDUCE);
    }
    return 1;
}

/*
 * Elementwise kernels with more nodes than this (a transcendental's decomposition: sin with
 * its Payne-Hanek reduction is ~600) are not upcast: the copies multiply the code and the
 * compile time (sin over 1M elements: 30 KB and 15 ms with 4 copies) where there is enough
 * arithmetic per element to hide the memory latency without them.
 */
#define UPCAST_MAX_NODES 200
static int heavy(const rdx_uop *kernel)
{
    const rdx_uop **order = NULL;
    size_t no = 0;
    if (rdx_ir_toposort(kernel, &order, &no))
        return 0;
    free(order);
    return no > UPCAST_MAX_NODES;
}

rdx_status rdx_cg_heuristic(const rdx_uop *kernel, rdx_opt *opts, size_t cap, size_t *n)
{
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t na;
    *n = 0;
    rdx_status st = rdx_cg_axes(kernel, ax, &na);
    if (st)
        return st;
    /* float16/bfloat16 matmul tiles: tensor cores */
    int tca = cg_tc_axis(kernel), tcp = tca < 0 ? cg_tc_pad_axis(kernel) : -1;
    if (tca >= 0 || tcp >= 0) { /* tcp: sizes padded to multiples of 16 */
        push(opts, cap, n, RDX_OPTOP_TC, tca >= 0 ? tca : tcp, tca >= 0 ? 0 : RDX_TC_PAD,
             RDX_AXIS_WARP);
        return RDX_OK;
    }
    int g[3], ng = 0, red = -1;
    for (size_t i = 0; i < na; i++) {
        if (ax[i].type == RDX_AXIS_GLOBAL && ng < 3)
            g[ng++] = (int)i;
        if (ax[i].type == RDX_AXIS_REDUCE && ax[i].size > 0)
            red = (int)i;
    }
    int64_t outs = 1;
    int loops = 0;
    for (size_t i = 0; i < na; i++) {
        loops |= ax[i].type == RDX_AXIS_LOOP;
        if (ax[i].type == RDX_AXIS_GLOBAL)
            outs *= ax[i].size > 0 ? ax[i].size : 1 << 20;
    }
    /* row-fused kernels: a workgroup per row */
    if (red >= 0 && loops && ng && row_fused(kernel, ax, na, opts, cap, n))
        return RDX_OK;
    /* long reductions to too few outputs to fill the GPU with one work-item each */
    if (red >= 0 && !loops && grouped(kernel, ax, na, red, ax[red].size, outs, 1, opts, cap, n))
        return RDX_OK;
    /* nested reductions, each too short alone: group the longest outer one of >= 32 */
    int64_t total = 1;
    int outer = -1;
    for (size_t i = 0; i < na && red >= 0; i++)
        if (ax[i].type == RDX_AXIS_REDUCE && ax[i].size > 0) {
            total *= ax[i].size;
            if ((int)i != red && ax[i].size >= 32 && (outer < 0 || ax[i].size > ax[outer].size))
                outer = (int)i;
        }
    if (outer >= 0 && !loops && ax[red].size < GR_MIN_LEN &&
        grouped(kernel, ax, na, outer, total, outs, 0, opts, cap, n))
        return RDX_OK;
    /* reductions into several outputs (matmul, convolution, row reductions) */
    if (red >= 0 && ng >= 1)
        return reduce_tiles(kernel, ax, na, g, ng, opts, cap, n);
    /* reductions: unroll the innermost by 4 */
    if (red >= 0 && ax[red].size >= 8 && ax[red].size % 4 == 0)
        push(opts, cap, n, RDX_OPTOP_SPLIT, red, 4, RDX_AXIS_UNROLL);
    if (!ng)
        return RDX_OK;
    int a = g[ng - 1];
    int64_t s = ax[a].size;
    if (s <= 0)
        return RDX_OK; /* symbolic: the back end picks the workgroup */
    /* elementwise: upcast by 4 when plenty of work remains */
    if (red < 0 && s % 4 == 0 && s / 4 >= 64 && !heavy(kernel)) {
        push(opts, cap, n, RDX_OPTOP_SPLIT, a, 4, RDX_AXIS_UPCAST);
        s /= 4;
    }
    for (int64_t w = 256; w >= 32; w /= 2) {
        if (s % w == 0 && s / w >= 1) {
            push(opts, cap, n, RDX_OPTOP_SPLIT, a, w, RDX_AXIS_LOCAL);
            return RDX_OK;
        }
    }
    /* nothing divides: pad to a multiple of 32 when it is big enough to matter */
    if (s >= 64 && *n == 0) {
        int64_t p = (s + 31) / 32 * 32;
        push(opts, cap, n, RDX_OPTOP_PADTO, a, 32, RDX_AXIS_GLOBAL);
        int64_t w = 32;
        while (w * 2 <= 256 && p % (w * 2) == 0)
            w *= 2;
        push(opts, cap, n, RDX_OPTOP_SPLIT, a, w, RDX_AXIS_LOCAL);
    }
    return RDX_OK;
}
