/* tests/codegen_front/tc_test.c — the TC OptOp with a K loop on the emulated GPU: float16 and
 * bfloat16 matmuls (K from one tile to 1024), several tilings (tiles per wave, waves per
 * workgroup, K unrolling), batched matmuls, a fused epilogue; each output compared with the
 * reference interpreter.  Kernels that do not fit fall back with a clear reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codegen.h>

#include "tests/codegen_front/cgf_test.h"
#include "util/error.h"

#define F32 rdx_dtype_of(RDX_FLOAT32)

/* Run t (one kernel) with TC(amount) on the emulator against the interpreter. */
static uint64_t run_tc(rdx_graph *g, const rdx_tensor *t, int axis, int64_t amount, double tol)
{
    rdx_opt tc[1] = { { RDX_OPTOP_TC, axis, amount, RDX_AXIS_WARP, 0 } };
    cgf_run run = { 0 };
    run.mode = CGF_OPTS;
    run.opts = tc;
    run.nopts = 1;
    run.on_emu = 1;
    run.tol = tol;
    cgf_check(g, &t, 1, &run);
    return run.cycles;
}

/* float32-accumulated matmul of random half inputs (compares tightly: WMMA accumulates in
   float32 too, only the summation order differs) */
static const rdx_tensor *mm32(rdx_graph *g, rdx_dtype h, int64_t M, int64_t K, int64_t N,
                              uint64_t *seed)
{
    const rdx_tensor *A = cgf_random(g, h, 2, (int64_t[]){ M, K }, seed);
    const rdx_tensor *B = cgf_random(g, h, 2, (int64_t[]){ K, N }, seed);
    return rdx_tensor_matmul(g, rdx_tensor_cast(g, A, F32), rdx_tensor_cast(g, B, F32));
}

/* Nodes of op in the graph of k (and of RANGEs of axis type t when op is RANGE and t >= 0). */
static int nodes_of(const rdx_uop *k, rdx_op op, int t)
{
    const rdx_uop **order = NULL;
    size_t n = 0;
    int c = 0;
    ck_assert_int_eq(rdx_ir_toposort(k, &order, &n), RDX_OK);
    for (size_t i = 0; i < n; i++)
        c += order[i]->op == op && (t < 0 || order[i]->arg.sub == t);
    free(order);
    return c;
}

typedef struct tc_axes_case {
    int64_t amount;
    int axis;          /* the REDUCE axis */
    int tiles;         /* tm * tn */
    int ku, frags;     /* K tiles per iteration, distinct fragments per K tile (tm + tn) */
    const char *types; /* the axes after TC (rdx_axistype letters), by axis id */
    int64_t sizes[16];
} tc_axes_case;

/* The axes after TC, written out from the spec ("split reduce/output axes into WARP, UPCAST
   and UNROLL dims") and the tiling: GLOBAL tiles (M/(16 tm wm), N/(16 tn wn), a batch), the
   REDUCE K loop of K/(16 ku), LOCAL waves (wm, wn when > 1), WARP lanes 2 and 16, UNROLL 16
   (a fragment's K elements), UPCAST 8 (a lane's result elements), UPCAST tn, tm (tiles per
   wave) and UNROLL ku, each left out when 1.  After expand: no CONTRACT/UNROLL and no
   UPCAST/UNROLL range; tm*tn tiles of ku chained WMMAs; tm + tn 16-lane fragments per K tile;
   8 stores per tile and lane.  Then the kernel on the emulator against the interpreter. */
static void check_tc_axes(rdx_graph *g, const rdx_tensor *t, const tc_axes_case *c)
{
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_uop *k = cgf_kernel_of(g, t), *o, *e;
    rdx_opt tc = { RDX_OPTOP_TC, c->axis, c->amount, RDX_AXIS_WARP, 0 };
    ck_assert_msg(rdx_cg_apply_opts(ctx, k, &tc, 1, &o) == RDX_OK, "%s", rdx_error_message());
    ck_assert_int_eq(rdx_ir_verify(ctx, o), RDX_OK);
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t n;
    ck_assert_int_eq(rdx_cg_axes(o, ax, &n), RDX_OK);
    char got[RDX_CG_MAX_AXES + 1];
    for (size_t i = 0; i < n; i++)
        got[i] = "gltLRGuwr"[ax[i].type == RDX_AXIS_GLOBAL         ? 0
                             : ax[i].type == RDX_AXIS_LOCAL        ? 1
                             : ax[i].type == RDX_AXIS_THREAD       ? 2
                             : ax[i].type == RDX_AXIS_LOOP         ? 3
                             : ax[i].type == RDX_AXIS_REDUCE       ? 4
                             : ax[i].type == RDX_AXIS_GROUP_REDUCE ? 5
                             : ax[i].type == RDX_AXIS_UPCAST       ? 6
                             : ax[i].type == RDX_AXIS_WARP         ? 7
                                                                   : 8];
    got[n] = 0;
    ck_assert_str_eq(got, c->types);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(ax[i].size == c->sizes[i], "axis %zu: size %lld, want %lld", i,
                      (long long)ax[i].size, (long long)c->sizes[i]);
    /* the optimize stage: one WMMA over two CONTRACTs (and the tiles' CONTRACT), one UNROLL */
    ck_assert_int_eq(nodes_of(o, RDX_OP_WMMA, -1), 1);
    ck_assert_int_eq(nodes_of(o, RDX_OP_CONTRACT, -1), 2 + (c->tiles > 1));
    ck_assert_int_eq(nodes_of(o, RDX_OP_UNROLL, -1), 1);
    ck_assert_int_eq(rdx_cg_expand(ctx, o, &e), RDX_OK);
    ck_assert_int_eq(nodes_of(e, RDX_OP_CONTRACT, -1) + nodes_of(e, RDX_OP_UNROLL, -1), 0);
    ck_assert_int_eq(nodes_of(e, RDX_OP_RANGE, RDX_AXIS_UPCAST), 0);
    ck_assert_int_eq(nodes_of(e, RDX_OP_RANGE, RDX_AXIS_UNROLL), 0);
    ck_assert_int_eq(nodes_of(e, RDX_OP_WMMA, -1), c->tiles * c->ku);
    ck_assert_int_eq(nodes_of(e, RDX_OP_REDUCE, -1), 1);
    ck_assert_int_eq(nodes_of(e, RDX_OP_STORE, -1), 8 * c->tiles);
    int frags = 0;
    {
        const rdx_uop **order = NULL;
        size_t no = 0;
        ck_assert_int_eq(rdx_ir_toposort(e, &order, &no), RDX_OK);
        for (size_t i = 0; i < no; i++)
            frags += order[i]->op == RDX_OP_VECTORIZE && order[i]->nsrc == 16;
        free(order);
    }
    ck_assert_int_eq(frags, c->frags * c->ku);
    cgf_run r = { .mode = CGF_OPTS, .opts = &tc, .nopts = 1, .on_emu = 1, .tol = 1e-3 };
    cgf_check(g, &t, 1, &r);
}

START_TEST(tc_axes)
{
    uint64_t seed = 51;
    rdx_graph *g = cgf_graph();
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16), bf = rdx_dtype_of(RDX_BFLOAT16);
    /* 64x32 @ 32x64: axes 0 = M, 1 = N (GLOBAL), 2 = K (REDUCE) */
    const rdx_tensor *t = mm32(g, h, 64, 32, 64, &seed);
    static const tc_axes_case cases[] = {
        /* 2x2 tiles, 1x2 waves, ku 2: M tiles 64/32, N tiles 64/64, K loop 32/32 */
        { RDX_TC_TILING(2, 2, 1, 2, 2),
          2,
          4,
          2,
          4,
          "ggRlwwruuur",
          { 2, 1, 1, 2, 2, 16, 16, 8, 2, 2, 2 } },
        /* the default for 4 x 4 x 2 K tiles: tm 4, tn 2, ku 2 */
        { 0, 2, 8, 2, 6, "ggRwwruuur", { 1, 2, 1, 2, 16, 16, 8, 2, 4, 2 } },
        /* one tile, ku 1: no tile or K-unroll axes */
        { RDX_TC_TILING(1, 1, 1, 1, 1), 2, 1, 1, 2, "ggRwwru", { 4, 4, 2, 2, 16, 16, 8 } },
        /* 2 x 1 tiles on 2 x 2 waves */
        { RDX_TC_TILING(2, 1, 2, 2, 1),
          2,
          2,
          1,
          3,
          "ggRllwwruu",
          { 1, 2, 2, 2, 2, 2, 16, 16, 8, 2 } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        check_tc_axes(g, t, &cases[i]);
    /* a batch ([3, 32, 48] @ [3, 48, 64], bfloat16: axes 0 = batch, 1 = M, 2 = N, 3 = K):
       default tm 2, tn 2, ku 1 (K/16 = 3) */
    const rdx_tensor *A = cgf_random(g, bf, 3, (int64_t[]){ 3, 32, 48 }, &seed);
    const rdx_tensor *B = cgf_random(g, bf, 3, (int64_t[]){ 3, 48, 64 }, &seed);
    const rdx_tensor *bt =
        rdx_tensor_matmul(g, rdx_tensor_cast(g, A, F32), rdx_tensor_cast(g, B, F32));
    const tc_axes_case bc = { 0, 3, 4, 1, 4, "gggRwwruuu", { 3, 1, 2, 3, 2, 16, 16, 8, 2, 2 } };
    check_tc_axes(g, bt, &bc);
    /* padded (60 x 24 @ 24 x 36 -> 64, 32, 48): the padded default tm 2 (of 4), tn 1 (3 N
       tiles), ku 1 */
    const rdx_tensor *pt = mm32(g, h, 60, 24, 36, &seed);
    const tc_axes_case pc = { RDX_TC_PAD, 2, 2, 1, 3, "ggRwwruu", { 2, 3, 2, 2, 16, 16, 8, 2 } };
    check_tc_axes(g, pt, &pc);
    rdx_graph_destroy(g);
}
END_TEST

/* TC's UPCAST/UNROLL axes are its WMMA's lanes, tiles and K unroll: opts that change them are
   refused naming the role; opts on its GLOBAL axes and on axes split off them compose (run on
   the emulator: float16 and bfloat16, a padded kernel, a batch). */
START_TEST(tc_then_opts)
{
    uint64_t seed = 53;
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16), bf = rdx_dtype_of(RDX_BFLOAT16);
    const rdx_tensor *t = mm32(g, h, 64, 32, 64, &seed);
    const rdx_uop *k = cgf_kernel_of(g, t), *out;
    /* after TC(2x2 tiles, ku 2): 0 = M tiles (2), 1 = N tiles (2), 2 = K (1), 3 = WARP 2,
       4 = WARP 16, 5 = UNROLL 16, 6 = UPCAST 8, 7 = UPCAST tn, 8 = UPCAST tm, 9 = UNROLL ku;
       a later split's axis is 10 */
    const rdx_opt tc = { RDX_OPTOP_TC, 2, RDX_TC_TILING(2, 2, 1, 1, 2), RDX_AXIS_WARP, 0 };
    const rdx_opt bad[][3] = {
        { tc, SPLIT(6, 2, UPCAST) }, { tc, SPLIT(5, 4, UNROLL) },
        { tc, PADTO(7, 4) },         { tc, SWAP(8, 7) },
        { tc, SPLIT(9, 2, UNROLL) }, { tc, SPLIT(0, 2, UPCAST), SWAP(10, 6) },
        { tc, SPLIT(6, 2, LOCAL) },
    };
    static const size_t nbad[] = { 2, 2, 2, 2, 2, 3, 2 };
    static const char *why[] = {
        "opt 1 SPLIT: axis 6 (UPCAST) is TC's WMMA result lanes",
        "opt 1 SPLIT: axis 5 (UNROLL) is TC's WMMA fragment K elements",
        "opt 1 PADTO: axis 7 (UPCAST) is TC's WMMA tiles per wave",
        "opt 1 SWAP: axis 8 (UPCAST) is TC's WMMA tiles per wave",
        "opt 1 SPLIT: axis 9 (UNROLL) is TC's WMMA K unroll",
        "opt 2 SWAP: axis 6 (UPCAST) is TC's WMMA result lanes",
        "opt 1 SPLIT: axis 6 (UPCAST) is TC's WMMA result lanes",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ck_assert_int_eq(rdx_cg_apply_opts(ctx, k, bad[i], nbad[i], &out), RDX_ERR_INVALID);
        ck_assert_msg(strstr(rdx_error_message(), why[i]), "%zu: '%s'", i, rdx_error_message());
    }
    /* more tiles per wave (UPCAST of a GLOBAL tile axis), then that axis split again, more
       waves (LOCAL), padding, swapping the grid */
    const cgf_seq seqs[] = {
        { { tc, SPLIT(0, 2, UPCAST) }, 2 },
        { { tc, SPLIT(0, 2, UPCAST), SPLIT(10, 2, UPCAST) }, 3 },
        { { tc, SPLIT(1, 2, UPCAST), SPLIT(0, 2, LOCAL) }, 3 },
        { { tc, PADTO(1, 3), SPLIT(0, 2, LOCAL) }, 3 },
        { { tc, SWAP(0, 1), SPLIT(1, 2, UPCAST) }, 3 },
    };
    for (size_t i = 0; i < sizeof seqs / sizeof *seqs; i++) {
        cgf_run r = {
            .mode = CGF_OPTS, .opts = seqs[i].o, .nopts = seqs[i].n, .on_emu = 1, .tol = 1e-3
        };
        cgf_check(g, &t, 1, &r);
    }
    /* bfloat16, padded M, N and K (44 x 40 @ 40 x 56 -> 48, 48, 64), more tiles per wave */
    const rdx_tensor *pt = mm32(g, bf, 44, 40, 56, &seed);
    const rdx_opt ptc = { RDX_OPTOP_TC, 2, RDX_TC_PAD | RDX_TC_TILING(1, 1, 1, 1, 1), RDX_AXIS_WARP,
                          0 };
    const cgf_seq pseqs[] = {
        { { ptc, SPLIT(0, 3, UPCAST) }, 2 },
        { { ptc, SPLIT(1, 2, LOCAL), SPLIT(0, 3, UPCAST) }, 3 },
    };
    for (size_t i = 0; i < sizeof pseqs / sizeof *pseqs; i++) {
        cgf_run r = {
            .mode = CGF_OPTS, .opts = pseqs[i].o, .nopts = pseqs[i].n, .on_emu = 1, .tol = 1e-3
        };
        cgf_check(g, &pt, 1, &r);
    }
    /* a batch ([2, 48, 32] @ [2, 32, 32]: axes 0 = batch, 1 = M, 2 = N, 3 = K), bfloat16:
       TC(1x1 tiles, ku 2) then the M tiles upcast by 3 and the batch swapped with N */
    const rdx_tensor *A = cgf_random(g, bf, 3, (int64_t[]){ 2, 48, 32 }, &seed);
    const rdx_tensor *B = cgf_random(g, bf, 3, (int64_t[]){ 2, 32, 32 }, &seed);
    const rdx_tensor *bt =
        rdx_tensor_matmul(g, rdx_tensor_cast(g, A, F32), rdx_tensor_cast(g, B, F32));
    const rdx_opt btc = { RDX_OPTOP_TC, 3, RDX_TC_TILING(1, 1, 1, 1, 2), RDX_AXIS_WARP, 0 };
    const cgf_seq bseqs[] = {
        { { btc, SPLIT(1, 3, UPCAST) }, 2 },
        { { btc, SWAP(0, 2), SPLIT(2, 2, LOCAL) }, 3 },
    };
    for (size_t i = 0; i < sizeof bseqs / sizeof *bseqs; i++) {
        cgf_run r = {
            .mode = CGF_OPTS, .opts = bseqs[i].o, .nopts = bseqs[i].n, .on_emu = 1, .tol = 1e-3
        };
        cgf_check(g, &bt, 1, &r);
    }
    rdx_graph_destroy(g);
}
END_TEST

/* k with every STORE's value v replaced by f(v) (a STORE of the SINK's ENDs). */
static const rdx_uop *wrap_stores(rdx_ir_ctx *ctx, const rdx_uop *k, rdx_op op1, const int64_t *p1,
                                  uint32_t n1, rdx_op op2, const int64_t *p2, uint32_t n2)
{
    const rdx_uop **order = NULL, *st = NULL, *out;
    size_t no = 0;
    ck_assert_int_eq(rdx_ir_toposort(k, &order, &no), RDX_OK);
    for (size_t i = 0; i < no; i++)
        if (order[i]->op == RDX_OP_STORE)
            st = order[i];
    free(order);
    ck_assert_ptr_nonnull(st);
    rdx_uop_arg a = rdx_uop_arg_none();
    a.ints = rdx_ir_ints(ctx, p1, n1);
    a.nints = n1;
    const rdx_uop *v = rdx_ir_node(ctx, op1, &st->src[1], 1, &a);
    if (v && n2) {
        a.ints = rdx_ir_ints(ctx, p2, n2);
        a.nints = n2;
        v = rdx_ir_node(ctx, op2, &v, 1, &a);
    }
    ck_assert_ptr_nonnull(v);
    const rdx_uop *s[2] = { st->src[0], v };
    const rdx_uop *ns = rdx_ir_replace_src(ctx, st, s, 2);
    ck_assert_msg(ns != NULL, "%s", rdx_error_message());
    ck_assert_int_eq(rdx_ir_substitute(ctx, k, &st, &ns, 1, &out), RDX_OK);
    return out;
}

/* expand's CONTRACT and UNROLL on their own: UNROLL(CONTRACT(v, axes), axes) expands to the
   same kernel as v (hash-consed nodes: the same root), with the axes in either order and over
   a value that does not depend on them; a REDUCE over an UNROLL axis its value does not read
   still sums its copies; bad axes are refused with the reason. */
START_TEST(tc_expand_contract)
{
    uint64_t seed = 55;
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 8, 16 }, &seed);
    const rdx_uop *k = cgf_kernel_of(g, rdx_tensor_mul(g, x, x)), *o, *e0, *e1, *w;
    /* axes 0 = rows, 1 = columns; then 2 = UPCAST 4 (columns), 3 = UPCAST 4 (rows) */
    const rdx_opt up[2] = { SPLIT(1, 4, UPCAST), SPLIT(0, 4, UPCAST) };
    ck_assert_int_eq(rdx_cg_apply_opts(ctx, k, up, 2, &o), RDX_OK);
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t n;
    ck_assert_int_eq(rdx_cg_axes(o, ax, &n), RDX_OK);
    ck_assert_uint_eq(n, 4);
    int64_t c4 = ax[2].id, r4 = ax[3].id;
    ck_assert_int_eq(rdx_cg_expand(ctx, o, &e0), RDX_OK);
    const int64_t one[2] = { c4, 4 }, two[4] = { r4, 4, c4, 4 }, bad[2] = { 77, 4 },
                  badsz[2] = { c4, 8 };
    ck_assert_int_eq(
        rdx_cg_expand(ctx, wrap_stores(ctx, o, RDX_OP_CONTRACT, one, 2, RDX_OP_UNROLL, one, 2),
                      &e1),
        RDX_OK);
    ck_assert_ptr_eq(e1, e0);
    ck_assert_int_eq(
        rdx_cg_expand(ctx, wrap_stores(ctx, o, RDX_OP_CONTRACT, two, 4, RDX_OP_UNROLL, two, 4),
                      &e1),
        RDX_OK);
    ck_assert_ptr_eq(e1, e0);
    const int64_t rev[4] = { c4, 4, r4, 4 };
    ck_assert_int_eq(
        rdx_cg_expand(ctx, wrap_stores(ctx, o, RDX_OP_CONTRACT, rev, 4, RDX_OP_UNROLL, rev, 4),
                      &e1),
        RDX_OK);
    ck_assert_ptr_eq(e1, e0);
    /* lanes gathered in one order and split in the other: a transposed tile (another kernel) */
    ck_assert_int_eq(
        rdx_cg_expand(ctx, wrap_stores(ctx, o, RDX_OP_CONTRACT, two, 4, RDX_OP_UNROLL, rev, 4),
                      &e1),
        RDX_OK);
    ck_assert_ptr_ne(e1, e0);
    /* errors: an axis that is no UPCAST/UNROLL range, a size that differs, an UNROLL over an
       axis its source already has */
    w = wrap_stores(ctx, o, RDX_OP_CONTRACT, bad, 2, RDX_OP_UNROLL, bad, 2);
    ck_assert_int_eq(rdx_cg_expand(ctx, w, &e1), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(
        strstr(rdx_error_message(), "axis 77 of size 4 is not an UPCAST/UNROLL range"));
    w = wrap_stores(ctx, o, RDX_OP_CONTRACT, badsz, 2, RDX_OP_UNROLL, badsz, 2);
    ck_assert_int_eq(rdx_cg_expand(ctx, w, &e1), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "of size 8 is not an UPCAST/UNROLL range"));
    const int64_t rows[2] = { r4, 4 };
    w = wrap_stores(ctx, o, RDX_OP_CONTRACT, one, 2, RDX_OP_UNROLL, rows, 2);
    ck_assert_int_eq(rdx_cg_expand(ctx, w, &e1), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "over an axis its source has"));
    /* a sum over a broadcast axis split to UNROLL: 16 x[i] (the value reads no copy of it) */
    const rdx_tensor *b =
        rdx_tensor_expand(g,
                          rdx_tensor_reshape(g, cgf_random(g, F32, 1, (int64_t[]){ 8 }, &seed), 2,
                                             (int64_t[]){ 8, 1 }),
                          2, (int64_t[]){ 8, 16 });
    const cgf_seq seqs[] = { { { SPLIT(1, 4, UNROLL) }, 1 }, { { SPLIT(1, 16, UNROLL) }, 1 } };
    cgf_run_seqs(g, rdx_tensor_sum(g, b, 1, (int[]){ 1 }, 0), seqs, 2, 1);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(tc_k_loop)
{
    uint64_t seed = 91;
    static const rdx_scalar types[2] = { RDX_FLOAT16, RDX_BFLOAT16 };
    static const int64_t ks[4] = { 16, 48, 512, 1024 };
    for (int ti = 0; ti < 2; ti++)
        for (int ki = 0; ki < 4; ki++) {
            rdx_graph *g = cgf_graph();
            int64_t M = ks[ki] >= 512 ? 64 : 32, N = 32;
            const rdx_tensor *t = mm32(g, rdx_dtype_of(types[ti]), M, ks[ki], N, &seed);
            uint64_t c = run_tc(g, t, 2, 0, 1e-3);
            if (getenv("CGF_DEBUG"))
                fprintf(stderr, "TC %s %lldx%lldx%lld: %llu cycles\n", ti ? "bf16" : "f16",
                        (long long)M, (long long)ks[ki], (long long)N, (unsigned long long)c);
            rdx_graph_destroy(g);
        }
}
END_TEST

START_TEST(tc_tilings)
{
    uint64_t seed = 5;
    rdx_graph *g = cgf_graph();
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
    const rdx_tensor *t = mm32(g, h, 64, 64, 64, &seed);
    static const int64_t tl[][5] = { { 1, 1, 1, 1, 1 }, { 2, 2, 1, 1, 2 }, { 4, 1, 1, 1, 4 },
                                     { 1, 4, 1, 1, 1 }, { 2, 1, 2, 2, 1 }, { 1, 2, 4, 1, 2 },
                                     { 4, 2, 1, 2, 2 }, { 4, 2, 1, 1, 2 }, { 2, 4, 1, 1, 1 } };
    for (size_t i = 0; i < sizeof tl / sizeof tl[0]; i++) {
        uint64_t c =
            run_tc(g, t, 2, RDX_TC_TILING(tl[i][0], tl[i][1], tl[i][2], tl[i][3], tl[i][4]), 1e-3);
        if (getenv("CGF_DEBUG"))
            fprintf(stderr, "TC tiling %lld %lld %lld %lld %lld: %llu cycles\n",
                    (long long)tl[i][0], (long long)tl[i][1], (long long)tl[i][2],
                    (long long)tl[i][3], (long long)tl[i][4], (unsigned long long)c);
    }
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(tc_half_out)
{
    uint64_t seed = 17;
    rdx_graph *g = cgf_graph();
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
    const rdx_tensor *A = cgf_random(g, h, 2, (int64_t[]){ 64, 64 }, &seed);
    const rdx_tensor *B = cgf_random(g, h, 2, (int64_t[]){ 64, 64 }, &seed);
    /* half output of 8 tiles per wave: the epilogue's casts land in VGPRs >= 128 */
    run_tc(g, rdx_tensor_matmul(g, A, B), 2, 0, 0.1);
    rdx_graph_destroy(g);
}
END_TEST

/* The heuristics' opts for the (single) kernel of t. */
static size_t heuristic_of(rdx_graph *g, const rdx_tensor *t, rdx_opt *h)
{
    rdx_schedule *s;
    const rdx_uop *k;
    size_t nh = 0;
    ck_assert_int_eq(rdx_cg_schedule(rdx_graph_ir(g), &t, 1, &s), RDX_OK);
    ck_assert_uint_eq(s->nkernels, 1);
    ck_assert_int_eq(rdx_cg_axis_types(rdx_graph_ir(g), s->kernels[0].sink, &k), RDX_OK);
    ck_assert_int_eq(rdx_cg_heuristic(k, h, 16, &nh), RDX_OK);
    rdx_schedule_free(s);
    return nh;
}

START_TEST(tc_batched)
{
    uint64_t seed = 23;
    static const rdx_scalar types[2] = { RDX_FLOAT16, RDX_BFLOAT16 };
    for (int ti = 0; ti < 2; ti++) {
        rdx_graph *g = cgf_graph();
        rdx_dtype h = rdx_dtype_of(types[ti]);
        /* [3, 32, 48] @ [3, 48, 64]: the batch is a third GLOBAL axis (gidx2) */
        const rdx_tensor *A = cgf_random(g, h, 3, (int64_t[]){ 3, 32, 48 }, &seed);
        const rdx_tensor *B = cgf_random(g, h, 3, (int64_t[]){ 3, 48, 64 }, &seed);
        const rdx_tensor *t =
            rdx_tensor_matmul(g, rdx_tensor_cast(g, A, F32), rdx_tensor_cast(g, B, F32));
        rdx_opt o[16];
        ck_assert_uint_eq(heuristic_of(g, t, o), 1);
        ck_assert_int_eq(o[0].op, RDX_OPTOP_TC);
        ck_assert_int_eq(o[0].axis, 3);
        run_tc(g, t, 3, 0, 1e-3);
        run_tc(g, t, 3, RDX_TC_TILING(1, 2, 2, 1, 1), 1e-3);
        /* a batch only A has: [2, 32, 32] @ [32, 48] */
        const rdx_tensor *A2 = cgf_random(g, h, 3, (int64_t[]){ 2, 32, 32 }, &seed);
        const rdx_tensor *B2 = cgf_random(g, h, 2, (int64_t[]){ 32, 48 }, &seed);
        run_tc(g, rdx_tensor_matmul(g, rdx_tensor_cast(g, A2, F32), rdx_tensor_cast(g, B2, F32)), 3,
               0, 1e-3);
        rdx_graph_destroy(g);
    }
}
END_TEST

/* operand layouts: B transposed (its columns contiguous: b128 fragments), A transposed (u16
   fragments), and a fused epilogue reading a bias per column */
START_TEST(tc_layouts_epilogue)
{
    uint64_t seed = 29;
    rdx_graph *g = cgf_graph();
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
    const rdx_tensor *X = cgf_random(g, h, 2, (int64_t[]){ 64, 96 }, &seed);
    const rdx_tensor *W = cgf_random(g, h, 2, (int64_t[]){ 32, 96 }, &seed);
    const rdx_tensor *bias = cgf_random(g, F32, 1, (int64_t[]){ 32 }, &seed);
    /* relu(X @ W^T + bias): a linear layer */
    const rdx_tensor *lin = rdx_tensor_relu(
        g,
        rdx_tensor_add(g,
                       rdx_tensor_matmul(g, rdx_tensor_cast(g, X, F32),
                                         rdx_tensor_transpose(g, rdx_tensor_cast(g, W, F32), 0, 1)),
                       bias));
    run_tc(g, lin, 2, 0, 1e-3);
    run_tc(g, lin, 2, RDX_TC_TILING(2, 2, 1, 1, 2), 1e-3);
    /* X^T @ X: A read down its columns */
    const rdx_tensor *xtx = rdx_tensor_matmul(
        g, rdx_tensor_transpose(g, rdx_tensor_cast(g, X, F32), 0, 1), rdx_tensor_cast(g, X, F32));
    run_tc(g, xtx, 2, 0, 1e-3);
    rdx_graph_destroy(g);
}
END_TEST

/* A larger half matmul through the heuristics (TC with its default tiling and a K loop of 16
   iterations) on the emulator. */
START_TEST(tc_heuristic_large)
{
    uint64_t seed = 31;
    rdx_graph *g = cgf_graph();
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
    const rdx_tensor *A = cgf_random(g, h, 2, (int64_t[]){ 256, 512 }, &seed);
    const rdx_tensor *B = cgf_random(g, h, 2, (int64_t[]){ 512, 256 }, &seed);
    const rdx_tensor *t =
        rdx_tensor_matmul(g, rdx_tensor_cast(g, A, F32), rdx_tensor_cast(g, B, F32));
    rdx_opt o[16];
    ck_assert_uint_eq(heuristic_of(g, t, o), 1);
    ck_assert_int_eq(o[0].op, RDX_OPTOP_TC);
    cgf_run run = { 0 };
    run.mode = CGF_HEURISTIC;
    run.on_emu = 1;
    run.tol = 1e-3;
    cgf_check(g, &t, 1, &run);
    if (getenv("CGF_DEBUG"))
        fprintf(stderr, "TC heuristic 256x512x256: %llu cycles\n", (unsigned long long)run.cycles);
    rdx_graph_destroy(g);
}
END_TEST

static void expect_tc_error(rdx_graph *g, const rdx_tensor *t, int axis, int64_t amount,
                            const char *frag)
{
    rdx_schedule *s;
    const rdx_uop *k, *out;
    ck_assert_int_eq(rdx_cg_schedule(rdx_graph_ir(g), &t, 1, &s), RDX_OK);
    ck_assert_int_eq(rdx_cg_axis_types(rdx_graph_ir(g), s->kernels[s->nkernels - 1].sink, &k),
                     RDX_OK);
    rdx_opt o = { RDX_OPTOP_TC, axis, amount, RDX_AXIS_WARP, 0 };
    ck_assert_int_eq(rdx_cg_apply_opts(rdx_graph_ir(g), k, &o, 1, &out), RDX_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(rdx_error_message(), frag), "message '%s' lacks '%s'", rdx_error_message(),
                  frag);
    rdx_schedule_free(s);
}

/* Kernels TC does not fit are refused with the reason; the heuristics then fall back to the
   other opts and the result is still right. */
START_TEST(tc_fallbacks)
{
    uint64_t seed = 37;
    rdx_graph *g = cgf_graph();
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
    const rdx_tensor *A = cgf_random(g, h, 2, (int64_t[]){ 32, 48 }, &seed);
    const rdx_tensor *B = cgf_random(g, h, 2, (int64_t[]){ 48, 32 }, &seed);
    /* sizes not multiples of 16 (M = 20, K = 24) */
    const rdx_tensor *odd = rdx_tensor_matmul(g, cgf_random(g, h, 2, (int64_t[]){ 20, 24 }, &seed),
                                              cgf_random(g, h, 2, (int64_t[]){ 24, 16 }, &seed));
    expect_tc_error(g, odd, 2, 0, "not a multiple of 16");
    /* ... which RDX_TC_PAD pads (PADTO 16: gated loads and stores); the heuristics use it */
    rdx_opt o[16];
    ck_assert_uint_eq(heuristic_of(g, odd, o), 1);
    ck_assert_int_eq(o[0].op, RDX_OPTOP_TC);
    ck_assert_int_eq(o[0].amount, RDX_TC_PAD);
    cgf_run run = { 0 };
    run.mode = CGF_HEURISTIC;
    run.on_emu = 1;
    run.tol = 0.1;
    cgf_check(g, &odd, 1, &run);
    /* padded M, N and K with float32 accumulation, several tilings, a batch */
    const rdx_tensor *podd = mm32(g, h, 60, 24, 36, &seed);
    run_tc(g, podd, 2, RDX_TC_PAD, 1e-3);
    run_tc(g, podd, 2, RDX_TC_PAD | RDX_TC_TILING(1, 1, 1, 1, 2), 1e-3);
    run_tc(g, podd, 2, RDX_TC_PAD | RDX_TC_TILING(2, 1, 2, 1, 1), 1e-3);
    const rdx_tensor *pb = rdx_tensor_matmul(
        g, rdx_tensor_cast(g, cgf_random(g, h, 3, (int64_t[]){ 2, 17, 33 }, &seed), F32),
        rdx_tensor_cast(g, cgf_random(g, h, 3, (int64_t[]){ 2, 33, 5 }, &seed), F32));
    run_tc(g, pb, 3, RDX_TC_PAD, 1e-3);
    /* float32 operands */
    const rdx_tensor *f32 =
        rdx_tensor_matmul(g, cgf_random(g, F32, 2, (int64_t[]){ 16, 16 }, &seed),
                          cgf_random(g, F32, 2, (int64_t[]){ 16, 16 }, &seed));
    expect_tc_error(g, f32, 2, 0, "must both be float16 or both bfloat16");
    /* mixed float16 and bfloat16 operands */
    const rdx_tensor *mixed = rdx_tensor_matmul(
        g, rdx_tensor_cast(g, A, F32),
        rdx_tensor_cast(
            g, cgf_random(g, rdx_dtype_of(RDX_BFLOAT16), 2, (int64_t[]){ 48, 32 }, &seed), F32));
    expect_tc_error(g, mixed, 2, 0, "must both be float16 or both bfloat16");
    /* a plain reduction, not a product of two operands */
    const rdx_tensor *sum = rdx_tensor_sum(g, A, 1, (int[]){ 1 }, 0);
    expect_tc_error(g, sum, 1, 0, "needs a kernel with two GLOBAL axes");
    /* a max-reduction of a product */
    const rdx_tensor *mx =
        rdx_tensor_max(g,
                       rdx_tensor_mul(g, rdx_tensor_reshape(g, A, 3, (int64_t[]){ 32, 48, 1 }),
                                      rdx_tensor_reshape(g, B, 3, (int64_t[]){ 1, 48, 32 })),
                       1, (int[]){ 1 }, 0);
    expect_tc_error(g, mx, 2, 0, "REDUCE(ADD) of a product");
    /* two batch axes: the fourth output axis stays a LOOP */
    const rdx_tensor *b2 =
        rdx_tensor_matmul(g, cgf_random(g, h, 4, (int64_t[]){ 2, 2, 16, 16 }, &seed),
                          cgf_random(g, h, 4, (int64_t[]){ 2, 2, 16, 16 }, &seed));
    expect_tc_error(g, b2, 4, 0, "an axis of another type");
    /* bad tilings */
    const rdx_tensor *mm = rdx_tensor_matmul(g, A, B);
    expect_tc_error(g, mm, 2, RDX_TC_TILING(3, 1, 1, 1, 1), "must be 1, 2, 4 or 8");
    expect_tc_error(g, mm, 2, RDX_TC_TILING(4, 4, 1, 1, 1), "more than 8 output tiles");
    expect_tc_error(g, mm, 2, RDX_TC_TILING(4, 1, 1, 1, 1), "tm*wm must divide M/16");
    expect_tc_error(g, mm, 2, RDX_TC_TILING(1, 1, 1, 1, 2), "ku K/16");
    expect_tc_error(g, mm, 2, -1, "bad tiling amount");
    expect_tc_error(g, mm, 1, 0, "needs a kernel with two GLOBAL axes");
    rdx_graph_destroy(g);
}
END_TEST

/* BEAM's first step offers the TC tilings; on a half matmul it picks one, at most as slow as
   the heuristics' default, and the result is right. */
START_TEST(tc_beam)
{
    uint64_t seed = 41;
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
    const rdx_tensor *t = mm32(g, h, 64, 64, 64, &seed);
    rdx_schedule *s;
    const rdx_uop *k, *o, *e;
    ck_assert_int_eq(rdx_cg_schedule(ctx, &t, 1, &s), RDX_OK);
    ck_assert_int_eq(rdx_cg_axis_types(ctx, s->kernels[0].sink, &k), RDX_OK);
    rdx_opt d = { RDX_OPTOP_TC, 2, 0, RDX_AXIS_WARP, 0 };
    double dcost, cost;
    ck_assert_int_eq(rdx_cg_apply_opts(ctx, k, &d, 1, &o), RDX_OK);
    ck_assert_int_eq(rdx_cg_expand(ctx, o, &e), RDX_OK);
    rdx_opt best[16];
    size_t nb;
    cgf_beam_on_emu(ctx, k, e, 2, 1, best, &nb, &dcost, &cost);
    ck_assert_uint_ge(nb, 1);
    ck_assert_int_eq(best[0].op, RDX_OPTOP_TC);
    ck_assert(cost <= dcost);
    rdx_schedule_free(s);
    cgf_run r = { .mode = CGF_OPTS, .opts = best, .nopts = nb, .on_emu = 1, .tol = 1e-3 };
    cgf_check(g, &t, 1, &r);
    if (getenv("CGF_DEBUG"))
        fprintf(stderr, "TC beam: default %.0f, best %.0f cycles (amount %llx)\n", dcost, cost,
                (unsigned long long)best[0].amount);
    rdx_graph_destroy(g);
}
END_TEST

/* The heuristics' TC (default tilings, padded or not) compiles for a spread of shapes: the
   tiling fits the 256 VGPRs. */
START_TEST(tc_default_shapes)
{
    static const int m16[] = { 1, 3, 4, 8 }, n16[] = { 1, 2, 3, 8 }, k16[] = { 1, 3, 64 };
    int n = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            for (int c = 0; c < 3; c++)
                for (int pad = 0; pad < 2; pad++) {
                    rdx_graph *g = cgf_graph();
                    rdx_ir_ctx *ctx = rdx_graph_ir(g);
                    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
                    int64_t M = 16 * m16[a] - 3 * pad, N = 16 * n16[b], K = 16 * k16[c] - 5 * pad;
                    const rdx_tensor *t =
                        rdx_tensor_matmul(g, rdx_tensor_empty(g, h, 2, (int64_t[]){ M, K }),
                                          rdx_tensor_empty(g, h, 2, (int64_t[]){ K, N }));
                    rdx_schedule *s;
                    const rdx_uop *k, *o;
                    rdx_opt h16[16];
                    size_t nh;
                    rdx_codegen_kernel *ck = NULL;
                    ck_assert_int_eq(rdx_cg_schedule(ctx, &t, 1, &s), RDX_OK);
                    ck_assert_int_eq(rdx_cg_axis_types(ctx, s->kernels[0].sink, &k), RDX_OK);
                    ck_assert_int_eq(rdx_cg_heuristic(k, h16, 16, &nh), RDX_OK);
                    ck_assert_int_eq(h16[0].op, RDX_OPTOP_TC);
                    ck_assert_int_eq(rdx_cg_optimize(ctx, s->kernels[0].sink, NULL, 0, &o), RDX_OK);
                    rdx_status st = rdx_codegen_compile(ctx, o, NULL, &ck);
                    ck_assert_msg(st == RDX_OK, "%lldx%lldx%lld: %s", (long long)M, (long long)K,
                                  (long long)N, rdx_error_message());
                    rdx_codegen_kernel_free(ck);
                    rdx_schedule_free(s);
                    rdx_graph_destroy(g);
                    n++;
                }
    ck_assert_int_eq(n, 96);
}
END_TEST

TCase *cgf_tcase_tc(void)
{
    TCase *tc = tcase_create("tc");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, tc_k_loop);
    tcase_add_test(tc, tc_tilings);
    tcase_add_test(tc, tc_half_out);
    tcase_add_test(tc, tc_batched);
    tcase_add_test(tc, tc_layouts_epilogue);
    tcase_add_test(tc, tc_heuristic_large);
    tcase_add_test(tc, tc_fallbacks);
    tcase_add_test(tc, tc_beam);
    tcase_add_test(tc, tc_default_shapes);
    tcase_add_test(tc, tc_axes);
    tcase_add_test(tc, tc_then_opts);
    tcase_add_test(tc, tc_expand_contract);
    return tc;
}
