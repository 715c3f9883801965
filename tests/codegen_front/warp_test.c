/* tests/codegen_front/warp_test.c — WARP axes: user SPLITs to WARP on elementwise, reduce and
 * matmul kernels (sizes 1, primes, non-multiples with PADTO; with LOCAL, UPCAST, UNROLL; on the
 * host evaluator and on the emulated GPU) compared with the reference interpreter; the lowering
 * (lanes in lidx0, the highest axis id fastest); TC's lanes as WARP axes; every refusal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/codegen_front/cgf_test.h"
#include "util/error.h"

#define F32 rdx_dtype_of(RDX_FLOAT32)
#define F16 rdx_dtype_of(RDX_FLOAT16)
#define I32 rdx_dtype_of(RDX_INT32)

/* k after opts, then after expand, as text (caller frees both). */
static void stages(rdx_graph *g, const rdx_uop *k, const rdx_opt *o, size_t n, char **opt,
                   char **exp)
{
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_uop *a, *b;
    ck_assert_msg(rdx_cg_apply_opts(ctx, k, o, n, &a) == RDX_OK, "%s", rdx_error_message());
    ck_assert_msg(rdx_cg_expand(ctx, a, &b) == RDX_OK, "%s", rdx_error_message());
    ck_assert_int_eq(rdx_ir_print(&a, 1, 0, opt), RDX_OK);
    ck_assert_int_eq(rdx_ir_print(&b, 1, 0, exp), RDX_OK);
}

START_TEST(warp_elementwise)
{
    uint64_t seed = 41;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *a = cgf_random(g, F32, 2, (int64_t[]){ 48, 64 }, &seed);
    const rdx_tensor *b = cgf_random(g, F32, 2, (int64_t[]){ 64, 48 }, &seed);
    const rdx_tensor *t = rdx_tensor_add(g, rdx_tensor_mul(g, a, rdx_tensor_transpose(g, b, 0, 1)),
                                         rdx_tensor_const(g, F32, 1.5));
    /* axes: 0 = rows (48, GLOBAL), 1 = columns (64, GLOBAL) */
    const cgf_seq seqs[] = {
        { { SPLIT(1, 32, WARP) }, 1 },
        { { SPLIT(1, 1, WARP) }, 1 },                      /* one lane */
        { { SPLIT(0, 3, WARP) }, 1 },                      /* a prime */
        { { SPLITTOP(1, 4, WARP) }, 1 },                   /* lanes outer */
        { { SPLIT(1, 16, WARP), SPLIT(0, 4, LOCAL) }, 2 }, /* lidx0, lidx1 */
        { { SPLIT(1, 8, WARP), SPLIT(0, 4, WARP) }, 2 },   /* two WARP axes */
        { { SPLIT(1, 16, WARP), SPLIT(2, 4, WARP) }, 2 },  /* WARP split again */
        { { SPLIT(1, 16, WARP), SPLIT(0, 2, UPCAST), SPLIT(1, 2, UPCAST) }, 3 },
        { { SPLIT(1, 4, LOCAL), SPLIT(0, 2, LOCAL), SPLIT(1, 8, WARP) }, 3 },
        { { SPLIT(1, 8, WARP), SWAP(0, 1) }, 2 },
        { { SPLIT(1, 8, WARP), SWAP(1, 2) }, 2 },          /* the WARP axis before a GLOBAL one */
        { { SPLIT(0, 48, WARP), SPLIT(1, 16, WARP) }, 2 }, /* 768 lanes */
    };
    cgf_run_seqs(g, t, seqs, sizeof seqs / sizeof *seqs, 1);
    /* odd sizes: PADTO then WARP lanes (the padded lanes are gated off) */
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 7, 13 }, &seed);
    const rdx_tensor *u = rdx_tensor_exp2(g, rdx_tensor_mul(g, x, x));
    const cgf_seq odd[] = {
        { { SPLIT(1, 13, WARP) }, 1 },
        { { SPLIT(1, 13, WARP), PADTO(2, 16) }, 2 }, /* a padded WARP axis: gated lanes */
        { { PADTO(1, 16), SPLIT(1, 16, WARP) }, 2 },
        { { PADTO(1, 32), SPLIT(1, 32, WARP), PADTO(0, 8), SPLIT(0, 2, LOCAL) }, 4 },
        { { PADTO(0, 4), SPLIT(0, 4, WARP), PADTO(1, 15), SPLIT(1, 5, WARP) }, 4 },
        { { SPLIT(0, 7, WARP), SPLIT(1, 13, WARP) }, 2 }, /* 91 lanes: three waves */
    };
    cgf_run_seqs(g, u, odd, sizeof odd / sizeof *odd, 1);
    /* four output axes: the outermost stays a LOOP (0), the other three are GLOBAL */
    const rdx_tensor *y = cgf_random(g, I32, 4, (int64_t[]){ 6, 3, 4, 5 }, &seed);
    const rdx_tensor *v = rdx_tensor_add(g, y, rdx_tensor_const(g, I32, 7));
    const cgf_seq loops[] = {
        { { SPLIT(0, 6, WARP) }, 1 },
        { { SPLIT(0, 2, WARP), SPLIT(3, 5, WARP), SPLIT(2, 2, LOCAL) }, 3 },
    };
    cgf_run_seqs(g, v, loops, sizeof loops / sizeof *loops, 1);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(warp_reduce)
{
    uint64_t seed = 42;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, I32, 2, (int64_t[]){ 37, 128 }, &seed);
    const rdx_tensor *t = rdx_tensor_sum(g, rdx_tensor_mul(g, x, x), 1, (int[]){ 1 }, 0);
    /* axes: 0 = rows (37, GLOBAL), 1 = reduce (128): each lane reduces its own row */
    const cgf_seq seqs[] = {
        { { SPLIT(0, 37, WARP) }, 1 },
        { { SPLIT(0, 1, WARP), SPLIT(1, 4, UNROLL) }, 2 },
        { { PADTO(0, 40), SPLIT(0, 8, WARP), SPLIT(1, 8, UNROLL) }, 3 },
        { { PADTO(0, 64), SPLIT(0, 32, WARP), SPLIT(0, 2, LOCAL), PADTO(1, 130) }, 4 },
        { { PADTO(0, 38), SPLIT(0, 2, UPCAST), SPLIT(0, 19, WARP) }, 3 },
    };
    cgf_run_seqs(g, t, seqs, sizeof seqs / sizeof *seqs, 1);
    const rdx_tensor *xf = cgf_random(g, F32, 3, (int64_t[]){ 5, 6, 33 }, &seed);
    const rdx_tensor *m = rdx_tensor_max(g, xf, 1, (int[]){ 2 }, 0);
    /* axes: 0 = 5, 1 = 6 (GLOBAL), 2 = reduce (33) */
    const cgf_seq ms[] = {
        { { SPLIT(1, 6, WARP), SPLIT(0, 5, WARP) }, 2 },
        { { SPLIT(1, 3, WARP), SPLIT(2, 3, UNROLL) }, 2 },
    };
    cgf_run_seqs(g, m, ms, sizeof ms / sizeof *ms, 1);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(warp_matmul)
{
    uint64_t seed = 43;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *A = cgf_random(g, I32, 2, (int64_t[]){ 24, 20 }, &seed);
    const rdx_tensor *B = cgf_random(g, I32, 2, (int64_t[]){ 20, 16 }, &seed);
    const rdx_tensor *t = rdx_tensor_matmul(g, A, B);
    /* axes: 0 = M (24), 1 = N (16), 2 = K (20) */
    const cgf_seq seqs[] = {
        { { SPLIT(1, 16, WARP), SPLIT(0, 2, WARP) }, 2 }, /* one wave of 16x2 */
        { { SPLIT(1, 8, WARP), SPLIT(0, 4, WARP), SPLIT(2, 5, UNROLL) }, 3 },
        { { SPLIT(1, 4, UPCAST), SPLIT(1, 4, WARP), SPLIT(0, 8, WARP), SPLIT(2, 4, UNROLL) }, 4 },
        { { PADTO(0, 32), SPLIT(0, 8, LOCAL), SPLIT(1, 16, WARP) }, 3 },
    };
    cgf_run_seqs(g, t, seqs, sizeof seqs / sizeof *seqs, 1);
    /* a float matmul of odd sizes */
    const rdx_tensor *C = cgf_random(g, F32, 2, (int64_t[]){ 13, 7 }, &seed);
    const rdx_tensor *D = cgf_random(g, F32, 2, (int64_t[]){ 7, 11 }, &seed);
    const rdx_tensor *u = rdx_tensor_matmul(g, C, D);
    const cgf_seq odd[] = {
        { { SPLIT(1, 11, WARP), SPLIT(0, 13, LOCAL) }, 2 },
        { { PADTO(1, 16), SPLIT(1, 16, WARP), PADTO(0, 16), SPLIT(0, 2, WARP) }, 4 },
        { { PADTO(1, 12), SPLIT(1, 3, WARP), SPLIT(2, 7, UNROLL) }, 3 },
    };
    cgf_run_seqs(g, u, odd, sizeof odd / sizeof *odd, 1);
    rdx_graph_destroy(g);
}
END_TEST

/* How the lanes are laid out: one lidx0 over the WARP axes, the highest axis id fastest; LOCAL
   axes after it; without LOCAL/WARP axes the GLOBAL ranges stay. */
START_TEST(warp_lowering)
{
    uint64_t seed = 44;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *a = cgf_random(g, F32, 2, (int64_t[]){ 12, 64 }, &seed);
    const rdx_uop *k = cgf_kernel_of(g, rdx_tensor_sqrt(g, a));
    char *o, *e;
    rdx_opt one[1] = { SPLIT(1, 32, WARP) };
    stages(g, k, one, 1, &o, &e);
    ck_assert_int_eq(cgf_count(o, "type=WARP"), 1);
    ck_assert_int_eq(cgf_count(e, "type=WARP"), 0);
    ck_assert_int_eq(cgf_count(e, "RANGE"), 0);
    ck_assert_int_eq(cgf_count(e, "str=\"lidx0\""), 1);
    ck_assert_int_eq(cgf_count(e, "str=\"lidx1\""), 0);
    ck_assert_int_eq(cgf_count(e, "MOD"), 0); /* one WARP axis: lidx0 itself */
    free(o);
    free(e);
    /* two WARP axes (8 from the columns, then 4 from the rows: axis ids 2 < 3), one LOCAL:
       lidx0 of 32 lanes = rows-lane * 8 + columns-lane, lidx1 the LOCAL axis */
    rdx_opt two[3] = { SPLIT(1, 8, WARP), SPLIT(0, 4, WARP), SPLIT(1, 2, LOCAL) };
    stages(g, k, two, 3, &o, &e);
    ck_assert_int_eq(cgf_count(o, "type=WARP"), 2);
    ck_assert_int_eq(cgf_count(o, "type=LOCAL"), 1);
    ck_assert_int_eq(cgf_count(e, "RANGE"), 0);
    ck_assert_int_eq(cgf_count(e, "str=\"lidx0\""), 1);
    ck_assert_int_eq(cgf_count(e, "str=\"lidx1\""), 1);
    ck_assert_int_eq(cgf_count(e, "str=\"lidx2\""), 0);
    free(o);
    free(e);
    rdx_graph_destroy(g);
}
END_TEST

/* the lidx0 bound is the product of the WARP sizes and the fastest WARP axis is the highest
   axis id: check on the expanded text of a kernel whose WARP axes have distinct sizes */
START_TEST(warp_lane_order)
{
    uint64_t seed = 45;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *a = cgf_random(g, F32, 2, (int64_t[]){ 6, 10 }, &seed);
    const rdx_uop *k = cgf_kernel_of(g, rdx_tensor_neg(g, a));
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    /* axis 2 = WARP 5 (from the columns), axis 3 = WARP 3 (from the rows) */
    rdx_opt o[2] = { SPLIT(1, 5, WARP), SPLIT(0, 3, WARP) };
    const rdx_uop *a1, *b1;
    ck_assert_int_eq(rdx_cg_apply_opts(ctx, k, o, 2, &a1), RDX_OK);
    ck_assert_int_eq(rdx_cg_expand(ctx, a1, &b1), RDX_OK);
    /* find lidx0 and check its bound (15) and the MOD/IDIV by 3 on it */
    const rdx_uop **order = NULL;
    size_t n = 0;
    ck_assert_int_eq(rdx_ir_toposort(b1, &order, &n), RDX_OK);
    const rdx_uop *lid = NULL;
    int mod3 = 0, div3 = 0;
    for (size_t i = 0; i < n; i++)
        if (order[i]->op == RDX_OP_SPECIAL && !strcmp(order[i]->arg.str, "lidx0"))
            lid = order[i];
    ck_assert_ptr_nonnull(lid);
    int64_t bound = 0;
    ck_assert(rdx_uop_const_int(lid->src[0], &bound));
    ck_assert_int_eq(bound, 15);
    for (size_t i = 0; i < n; i++) {
        int64_t c;
        if (order[i]->nsrc == 2 && order[i]->src[0] == lid &&
            rdx_uop_const_int(order[i]->src[1], &c) && c == 3) {
            mod3 |= order[i]->op == RDX_OP_MOD;
            div3 |= order[i]->op == RDX_OP_IDIV;
        }
    }
    free(order);
    /* axis 3 (rows, 3 lanes) is the fastest: lidx0 % 3; axis 2 (columns) = lidx0 / 3 */
    ck_assert(mod3 && div3);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(warp_tc)
{
    uint64_t seed = 46;
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_tensor *A = cgf_random(g, F16, 2, (int64_t[]){ 64, 32 }, &seed);
    const rdx_tensor *B = cgf_random(g, F16, 2, (int64_t[]){ 32, 64 }, &seed);
    const rdx_tensor *t =
        rdx_tensor_matmul(g, rdx_tensor_cast(g, A, F32), rdx_tensor_cast(g, B, F32));
    const rdx_uop *k = cgf_kernel_of(g, t);
    /* TC's lanes are WARP axes: 16 (the column of a result lane, the row of an A lane) and 2
       (the row parity of a result lane); waves are LOCAL axes; after expand lidx0 of 32 */
    static const struct {
        int64_t amount;
        int nlocal;
        int64_t wg;
    } cases[] = {
        { 0, 0, 32 },
        { RDX_TC_TILING(1, 1, 2, 2, 1), 2, 128 },
        { RDX_TC_TILING(2, 1, 2, 1, 2), 1, 64 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        rdx_opt tc = { RDX_OPTOP_TC, 2, cases[c].amount, RDX_AXIS_WARP, 0 };
        const rdx_uop *o;
        ck_assert_msg(rdx_cg_apply_opts(ctx, k, &tc, 1, &o) == RDX_OK, "%s", rdx_error_message());
        rdx_kaxis ax[RDX_CG_MAX_AXES];
        size_t n;
        ck_assert_int_eq(rdx_cg_axes(o, ax, &n), RDX_OK);
        int nw = 0, nl = 0, ng = 0, nr = 0;
        int64_t wprod = 1;
        for (size_t i = 0; i < n; i++) {
            nw += ax[i].type == RDX_AXIS_WARP;
            nl += ax[i].type == RDX_AXIS_LOCAL;
            ng += ax[i].type == RDX_AXIS_GLOBAL;
            nr += ax[i].type == RDX_AXIS_REDUCE;
            if (ax[i].type == RDX_AXIS_WARP)
                wprod *= ax[i].size;
        }
        ck_assert_int_eq(nw, 2);
        ck_assert_int_eq(wprod, 32);
        ck_assert_int_eq(nl, cases[c].nlocal);
        ck_assert_int_eq(ng, 2);
        ck_assert_int_eq(nr, 1);
        ck_assert_int_eq(rdx_ir_verify(ctx, o), RDX_OK);
        char *txt = NULL;
        ck_assert_int_eq(rdx_ir_print(&o, 1, 0, &txt), RDX_OK);
        ck_assert_ptr_nonnull(strstr(txt, "type=WARP"));
        free(txt);
        const rdx_uop *e;
        ck_assert_int_eq(rdx_cg_expand(ctx, o, &e), RDX_OK);
        ck_assert_int_eq(rdx_ir_print(&e, 1, 0, &txt), RDX_OK);
        ck_assert_int_eq(cgf_count(txt, "type=WARP") + cgf_count(txt, "type=LOCAL"), 0);
        ck_assert_int_eq(cgf_count(txt, "type=GLOBAL"), 0);
        ck_assert_int_eq(cgf_count(txt, "str=\"lidx0\""), 1);
        ck_assert_int_eq(cgf_count(txt, "str=\"lidx1\""), cases[c].nlocal >= 1);
        ck_assert_int_eq(cgf_count(txt, "str=\"lidx2\""), cases[c].nlocal >= 2);
        free(txt);
        /* the whole kernel on the emulator against the interpreter */
        cgf_run r = { 0 };
        r.mode = CGF_OPTS;
        r.opts = &tc;
        r.nopts = 1;
        r.on_emu = 1;
        r.tol = 1e-3;
        cgf_check(g, &t, 1, &r);
    }
    rdx_graph_destroy(g);
}
END_TEST

/* opts after TC act on its GLOBAL axes: more waves per workgroup (a tile axis split to LOCAL),
   more tiles per wave (UPCAST), padding a tile axis, swapping the grid dimensions */
START_TEST(warp_tc_then_opts)
{
    uint64_t seed = 47;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *A = cgf_random(g, F16, 2, (int64_t[]){ 64, 48 }, &seed);
    const rdx_tensor *B = cgf_random(g, F16, 2, (int64_t[]){ 48, 128 }, &seed);
    const rdx_tensor *t =
        rdx_tensor_matmul(g, rdx_tensor_cast(g, A, F32), rdx_tensor_cast(g, B, F32));
    /* after TC(1x1 tiles): axes 0 = M tiles (4, GLOBAL), 1 = N tiles (8, GLOBAL), 2 = K (3),
       3 = WARP 2, 4 = WARP 16 */
    const rdx_opt tc = { RDX_OPTOP_TC, 2, RDX_TC_TILING(1, 1, 1, 1, 1), RDX_AXIS_WARP, 0 };
    const cgf_seq seqs[] = {
        { { tc }, 1 },
        { { tc, SPLIT(1, 2, LOCAL) }, 2 },
        { { tc, SPLIT(1, 4, LOCAL), SPLIT(0, 2, LOCAL) }, 3 },
        { { tc, PADTO(0, 5) }, 2 },
        { { tc, SPLIT(1, 2, UPCAST) }, 2 },
        { { tc, SPLIT(0, 2, UPCAST), SPLIT(1, 2, LOCAL) }, 3 },
        { { tc, SWAP(0, 1) }, 2 },
    };
    for (size_t i = 0; i < sizeof seqs / sizeof *seqs; i++) {
        cgf_run r = { 0 };
        r.mode = CGF_OPTS;
        r.opts = seqs[i].o;
        r.nopts = seqs[i].n;
        r.on_emu = 1;
        r.tol = 1e-3;
        cgf_check(g, &t, 1, &r);
    }
    /* TC's lanes and K loop are fixed by its tiling */
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_uop *k = cgf_kernel_of(g, t), *out;
    const rdx_opt bad[][2] = {
        { tc, SPLIT(3, 2, WARP) }, { tc, SPLIT(4, 4, UPCAST) }, { tc, PADTO(4, 32) },
        { tc, SWAP(1, 4) },        { tc, SPLIT(2, 3, UNROLL) }, { tc, SPLIT(1, 2, WARP) },
    };
    static const char *why[] = { "axis 3 (WARP) is TC's WMMA lane layout",
                                 "axis 4 (WARP) is TC's WMMA lane layout",
                                 "axis 4 (WARP) is TC's WMMA lane layout",
                                 "axis 4 (WARP) is TC's WMMA lane layout",
                                 "axis 2 (REDUCE) is TC's WMMA K loop",
                                 "a WARP axis after TC would change the WMMA lane layout" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ck_assert_int_eq(rdx_cg_apply_opts(ctx, k, bad[i], 2, &out), RDX_ERR_INVALID);
        ck_assert_msg(strstr(rdx_error_message(), why[i]), "%zu: '%s'", i, rdx_error_message());
    }
    rdx_graph_destroy(g);
}
END_TEST

/* the command line: `rdx compile -p optimize` of a half matmul shows TC's WARP axes, `-p expand`
   their lidx0, and `rdx realize --check` runs it */
START_TEST(warp_cli)
{
    const char *file = "tests/data/codegen/tc_matmul_f16.uop";
    const char *c[] = {
        rdx_test_rdx_path(), "compile", "-p", "optimize", "-p", "expand", file, NULL
    };
    rdx_test_proc p;
    rdx_test_run(c, NULL, 0, &p);
    ck_assert_msg(p.status == 0, "%s", p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "; opts: TC(2,0,WARP)"));
    const char *opt = strstr(p.out, "---- optimize"), *exp = strstr(p.out, "---- expand");
    ck_assert(opt && exp && opt < exp);
    ck_assert_int_eq(cgf_count(opt, "type=WARP"), 2); /* both in the optimize stage */
    ck_assert_int_eq(cgf_count(exp, "type=WARP"), 0);
    ck_assert_int_eq(cgf_count(exp, "str=\"lidx0\""), 1);
    rdx_test_proc_free(&p);
    const char *r[] = { rdx_test_rdx_path(), "realize", "--check", file, NULL };
    rdx_test_run(r, NULL, 0, &p);
    ck_assert_msg(p.status == 0, "%s", p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "output 0: matches the interpreter (2048 elements)"));
    rdx_test_proc_free(&p);
}
END_TEST

static void expect_opts_error(rdx_graph *g, const rdx_uop *k, const rdx_opt *o, size_t n,
                              rdx_status want, const char *frag)
{
    const rdx_uop *out;
    rdx_status st = rdx_cg_apply_opts(rdx_graph_ir(g), k, o, n, &out);
    ck_assert_msg(st == want, "status %d, want %d (%s)", st, want, rdx_error_message());
    ck_assert_msg(strstr(rdx_error_message(), frag), "message '%s' lacks '%s'", rdx_error_message(),
                  frag);
}

START_TEST(warp_errors)
{
    uint64_t seed = 48;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 6, 64 }, &seed);
    /* axes: 0 = rows (6, GLOBAL), 1 = reduce (64) */
    const rdx_uop *k = cgf_kernel_of(g, rdx_tensor_sum(g, x, 1, (int[]){ 1 }, 0));
    rdx_opt r1[1] = { SPLIT(1, 4, WARP) };
    expect_opts_error(g, k, r1, 1, RDX_ERR_INVALID, "a WARP axis cannot come from axis 1 (REDUCE)");
    rdx_opt r2[2] = { SPLIT(1, 4, UNROLL), SPLIT(2, 2, WARP) };
    expect_opts_error(g, k, r2, 2, RDX_ERR_INVALID, "cannot come from axis 2 (UNROLL)");
    rdx_opt r3[2] = { SPLIT(1, 8, GROUP_REDUCE), SPLIT(2, 2, WARP) };
    expect_opts_error(g, k, r3, 2, RDX_ERR_INVALID, "cannot come from axis 2 (GROUP_REDUCE)");
    rdx_opt r4[2] = { SPLIT(0, 2, UPCAST), SPLIT(2, 2, WARP) };
    expect_opts_error(g, k, r4, 2, RDX_ERR_INVALID, "cannot come from axis 2 (UPCAST)");
    rdx_opt r5[1] = { SPLIT(0, 4, WARP) };
    expect_opts_error(g, k, r5, 1, RDX_ERR_INVALID, "does not divide");
    rdx_opt r6[2] = { NOLOCALS, SPLIT(0, 2, WARP) };
    expect_opts_error(g, k, r6, 2, RDX_ERR_INVALID, "WARP after NOLOCALS");
    rdx_opt r7[2] = { SPLIT(0, 2, WARP), NOLOCALS };
    expect_opts_error(g, k, r7, 2, RDX_ERR_INVALID, "NOLOCALS: axis 2 is WARP");
    rdx_opt r8[2] = { SPLIT(0, 2, WARP), SPLIT(2, 2, LOCAL) };
    expect_opts_error(g, k, r8, 2, RDX_ERR_INVALID, "a LOCAL axis cannot come from WARP");
    /* THREAD: CPU threads have no GPU meaning */
    rdx_opt t1[1] = { SPLIT(0, 2, THREAD) };
    expect_opts_error(g, k, t1, 1, RDX_ERR_UNSUPPORTED, "THREAD axes (CPU threads)");
    /* expand: WARP lanes and a grouped reduction both want lidx0 */
    rdx_opt e1[2] = { SPLIT(0, 2, WARP), SPLIT(1, 16, GROUP_REDUCE) };
    cgf_expect_expand_error(g, k, e1, 2, "with WARP axes");
    /* more than 2 LOCAL axes besides the lanes, more than 1024 lanes */
    const rdx_tensor *y = cgf_random(g, F32, 3, (int64_t[]){ 8, 8, 2048 }, &seed);
    const rdx_uop *k3 = cgf_kernel_of(g, rdx_tensor_neg(g, y));
    rdx_opt e2[4] = { SPLIT(2, 2, WARP), SPLIT(0, 2, LOCAL), SPLIT(1, 2, LOCAL),
                      SPLIT(2, 2, LOCAL) };
    cgf_expect_expand_error(g, k3, e2, 4, "more than 2 LOCAL axes besides WARP axes");
    rdx_opt e3[1] = { SPLIT(2, 2048, WARP) };
    cgf_expect_expand_error(g, k3, e3, 1, "WARP axes of 2048 lanes");
    rdx_graph_destroy(g);
}
END_TEST

TCase *cgf_tcase_warp(void)
{
    TCase *tc = tcase_create("warp");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, warp_elementwise);
    tcase_add_test(tc, warp_reduce);
    tcase_add_test(tc, warp_matmul);
    tcase_add_test(tc, warp_lowering);
    tcase_add_test(tc, warp_lane_order);
    tcase_add_test(tc, warp_tc);
    tcase_add_test(tc, warp_tc_then_opts);
    tcase_add_test(tc, warp_errors);
    tcase_add_test(tc, warp_cli);
    return tc;
}
