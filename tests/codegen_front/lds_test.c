/* tests/codegen_front/lds_test.c — the LDS OptOp (codegen/lds_stage.c): shared operand tiles
 * staged through LDS, on the emulated GPU against the reference interpreter: matmuls
 * (float32, float16 without TC, int32), batched, convolutions, sizes 1 / primes /
 * non-multiples of the tile (padded axes, gated last slots), a symbolic reduction length;
 * the staged kernel's shape (DEFINE_LOCALs, two BARRIERs, LDS bytes by closed form); the
 * refusals (no LOCAL axes, nothing shared, not a REDUCE axis, a second LDS, > 64 KiB). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codegen.h>

#include "codegen/front_internal.h" /* cg_lds_pays, cg_lds_candidates */
#include "tests/codegen_front/cgf_test.h"

#define F32 rdx_dtype_of(RDX_FLOAT32)
#define F16 rdx_dtype_of(RDX_FLOAT16)
#define I32 rdx_dtype_of(RDX_INT32)

static const rdx_tensor *mm(rdx_graph *g, rdx_dtype dt, int64_t m, int64_t k, int64_t n,
                            uint64_t *seed)
{
    const rdx_tensor *a = cgf_random(g, dt, 2, (int64_t[]){ m, k }, seed);
    const rdx_tensor *b = cgf_random(g, dt, 2, (int64_t[]){ k, n }, seed);
    return rdx_tensor_matmul(g, a, b);
}

static const rdx_tensor *conv(rdx_graph *g, int64_t n, int64_t c, int64_t h, int64_t w, int64_t o,
                              uint64_t *seed)
{
    const rdx_tensor *x = cgf_random(g, F32, 4, (int64_t[]){ n, c, h, w }, seed);
    const rdx_tensor *wt = cgf_random(g, F32, 4, (int64_t[]){ o, c, 3, 3 }, seed);
    rdx_conv_opts opt = { { 1, 1 }, { 1, 1 }, { 1, 1 }, 1 };
    return rdx_tensor_conv2d(g, x, wt, NULL, &opt);
}

/* t's (only) kernel with opts on the emulator vs the interpreter; its estimated cycles. */
static uint64_t run_tol(rdx_graph *g, const rdx_tensor *t, const rdx_opt *o, size_t n, double tol)
{
    cgf_run r = { 0 };
    r.on_emu = 1;
    r.mode = CGF_OPTS;
    r.opts = o;
    r.nopts = n;
    r.tol = tol;
    cgf_check(g, &t, 1, &r);
    ck_assert_uint_eq(r.nkernels, 1);
    return r.cycles;
}

static uint64_t run_opts(rdx_graph *g, const rdx_tensor *t, const rdx_opt *o, size_t n)
{
    return run_tol(g, t, o, n, 1e-4);
}

/* The heuristic's opts for t plus LDS of the first REDUCE axis (unless they stage already);
   their count. */
static size_t heuristic_lds(rdx_graph *g, const rdx_tensor *t, rdx_opt *o)
{
    const rdx_uop *k = cgf_kernel_of(g, t), *k2;
    size_t n = 0, na;
    ck_assert_int_eq(rdx_cg_heuristic(k, o, 15, &n), RDX_OK);
    if (n && o[n - 1].op == RDX_OPTOP_LDS)
        return n; /* the heuristics staged already */
    ck_assert_int_eq(rdx_cg_apply_opts(rdx_graph_ir(g), k, o, n, &k2), RDX_OK);
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    ck_assert_int_eq(rdx_cg_axes(k2, ax, &na), RDX_OK);
    for (size_t i = 0; i < na; i++)
        if (ax[i].type == RDX_AXIS_REDUCE) {
            rdx_opt l = LDS((int32_t)i);
            o[n++] = l;
            return n;
        }
    ck_abort_msg("no REDUCE axis");
    return 0;
}

/* Count nodes of op in the graph under k. */
static size_t count_op(const rdx_uop *k, rdx_op op)
{
    const rdx_uop **order;
    size_t n, c = 0;
    ck_assert_int_eq(rdx_ir_toposort(k, &order, &n), RDX_OK);
    for (size_t i = 0; i < n; i++)
        c += order[i]->op == op;
    free(order);
    return c;
}

START_TEST(lds_matmul_f32)
{
    uint64_t seed = 91;
    /* register tiles (4x4 per work-item, k by 8, 16x16 workgroup; the heuristics' choice
       for large matmuls, explicit here: a 64^3 matmul is too small for them) staged */
    rdx_graph *g = cgf_graph();
    rdx_opt o[] = { SPLIT(1, 4, UPCAST), SPLIT(0, 4, UPCAST), SPLIT(2, 8, UNROLL),
                    SPLIT(1, 16, LOCAL), SPLIT(0, 16, LOCAL), LDS(2) };
    size_t n = sizeof o / sizeof *o;
    const rdx_tensor *t = mm(g, F32, 64, 64, 64, &seed);
    uint64_t staged = run_opts(g, t, o, n);
    /* the staged kernel: 2 DEFINE_LOCALs (A and B tiles), 2 BARRIERs; LDS bytes: A's tile
       16 (m lanes) x 4 (m upcast) x 8 (k) floats, B's 8 x 16 x 4 */
    const rdx_uop *k = cgf_kernel_of(g, t), *ko;
    ck_assert_int_eq(rdx_cg_optimize(rdx_graph_ir(g), k, o, n, &ko), RDX_OK);
    ck_assert_uint_eq(count_op(ko, RDX_OP_DEFINE_LOCAL), 2);
    ck_assert_uint_eq(count_op(ko, RDX_OP_BARRIER), 2);
    rdx_codegen_kernel *ck = NULL;
    ck_assert_int_eq(rdx_codegen_compile(rdx_graph_ir(g), ko, NULL, &ck), RDX_OK);
    ck_assert_uint_eq(ck->lds_size, 2 * 512 * 4);
    rdx_codegen_kernel_free(ck);
    if (getenv("CGF_DEBUG"))
        fprintf(stderr, "lds matmul 64^3: staged %llu cycles\n", (unsigned long long)staged);
    rdx_graph_destroy(g);
}
END_TEST

/* Sizes the tiles do not fit: 1, primes, non-multiples (PADTO to the tile: the pad gates go
   into the share loads), tiles the workgroup does not divide (a gated last slot). */
START_TEST(lds_matmul_edges)
{
    uint64_t seed = 92;
    static const int64_t sizes[][3] = { { 7, 13, 5 }, { 17, 31, 3 }, { 40, 17, 36 }, { 9, 3, 2 } };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        rdx_graph *g = cgf_graph();
        const rdx_tensor *t = mm(g, F32, sizes[i][0], sizes[i][1], sizes[i][2], &seed);
        /* axes 0 m, 1 n, 2 k: pad m, n to 8 and k to 4; upcast n by 2 (axis 3), unroll k by
           4 (axis 4), workgroup 4 (n) x 8 (m) */
        rdx_opt o[] = { PADTO(0, 8),         PADTO(1, 8),
                        PADTO(2, 4),         SPLIT(1, 2, UPCAST),
                        SPLIT(2, 4, UNROLL), SPLIT(1, 4, LOCAL),
                        SPLIT(0, 8, LOCAL),  LDS(2) };
        run_opts(g, t, o, sizeof o / sizeof *o);
        /* unpadded k, a 3-deep tile: A's tile 8 x 3 = 24 elements for 32 work-items and B's
           3 x 4 x 2 = 24: one gated slot each (k = 3, 17 and 13 are not multiples of 3 or 4:
           only sizes 3 and 1 take this branch) */
        if (sizes[i][1] % 3 == 0) {
            rdx_opt p[] = { PADTO(0, 8),
                            PADTO(1, 8),
                            SPLIT(1, 2, UPCAST),
                            SPLIT(2, 3, UNROLL),
                            SPLIT(1, 4, LOCAL),
                            SPLIT(0, 8, LOCAL),
                            LDS(2) };
            run_opts(g, t, p, sizeof p / sizeof *p);
        }
        rdx_graph_destroy(g);
    }
    /* size 1: a 1 x 12 row times 12 x 8 (axes 0 n, 1 k): the row is read by every
       work-item */
    rdx_graph *g1 = cgf_graph();
    const rdx_tensor *t1 = mm(g1, F32, 1, 12, 8, &seed);
    rdx_opt q[] = { SPLIT(0, 2, UPCAST), SPLIT(1, 4, UNROLL), SPLIT(0, 4, LOCAL), LDS(1) };
    run_opts(g1, t1, q, sizeof q / sizeof *q);
    rdx_graph_destroy(g1);
    /* k = 36 split 3 deep: A 8 (m) x 3 = 24 < 32 work-items: the last slot gated */
    rdx_graph *g = cgf_graph();
    const rdx_tensor *t = mm(g, F32, 16, 36, 8, &seed);
    rdx_opt p[] = { SPLIT(1, 2, UPCAST), SPLIT(2, 3, UNROLL), SPLIT(1, 4, LOCAL),
                    SPLIT(0, 8, LOCAL), LDS(2) };
    run_opts(g, t, p, sizeof p / sizeof *p);
    rdx_graph_destroy(g);
}
END_TEST

/* float16 without TC, int32 (exact), batched, WARP lanes */
START_TEST(lds_matmul_dtypes)
{
    uint64_t seed = 93;
    rdx_opt o[] = { SPLIT(1, 4, UPCAST), SPLIT(0, 2, UPCAST), SPLIT(2, 8, UNROLL),
                    SPLIT(1, 8, LOCAL),  SPLIT(0, 8, LOCAL),  LDS(2) };
    rdx_graph *g = cgf_graph();
    /* half accumulates in half: the unstaged kernel with these opts differs from the
       interpreter by as much (the order of the sums) */
    run_tol(g, mm(g, F16, 32, 32, 64, &seed), o, sizeof o / sizeof *o, 2e-2);
    run_opts(g, mm(g, I32, 48, 24, 32, &seed), o, sizeof o / sizeof *o);
    /* batched: axes 0 batch, 1 m, 2 n (GLOBAL), 3 k */
    const rdx_tensor *a = cgf_random(g, F32, 3, (int64_t[]){ 3, 16, 24 }, &seed);
    const rdx_tensor *b = cgf_random(g, F32, 3, (int64_t[]){ 3, 24, 32 }, &seed);
    rdx_opt bo[] = { SPLIT(2, 4, UPCAST), SPLIT(3, 8, UNROLL), SPLIT(2, 8, LOCAL),
                     SPLIT(1, 16, LOCAL), LDS(3) };
    run_opts(g, rdx_tensor_matmul(g, a, b), bo, sizeof bo / sizeof *bo);
    /* WARP lanes (work-item axes too): with a LOCAL axis (64 work-items) and alone (32) */
    const rdx_tensor *w = mm(g, F32, 16, 24, 32, &seed);
    rdx_opt wo[] = { SPLIT(1, 2, UPCAST), SPLIT(2, 8, UNROLL), SPLIT(1, 8, WARP),
                     SPLIT(0, 4, WARP),   SPLIT(0, 2, LOCAL),  LDS(2) };
    run_opts(g, w, wo, sizeof wo / sizeof *wo);
    rdx_opt wa[] = { SPLIT(1, 4, UPCAST), SPLIT(2, 8, UNROLL), SPLIT(1, 8, WARP), SPLIT(0, 4, WARP),
                     LDS(2) };
    run_opts(g, w, wa, sizeof wa / sizeof *wa);
    rdx_graph_destroy(g);
}
END_TEST

/* Convolutions: the heuristic's tiles plus LDS of the channel loop (the weights, read alike
   by every work-item of a workgroup over the pixels, are staged). */
START_TEST(lds_conv)
{
    uint64_t seed = 94;
    static const int64_t sizes[][5] = { { 1, 8, 16, 16, 8 },
                                        { 2, 4, 8, 8, 6 },
                                        { 1, 5, 8, 12, 3 } };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        const int64_t *s = sizes[i];
        rdx_graph *g = cgf_graph();
        const rdx_tensor *t = conv(g, s[0], s[1], s[2], s[3], s[4], &seed);
        rdx_opt o[16];
        size_t n = heuristic_lds(g, t, o);
        run_opts(g, t, o, n);
        const rdx_uop *ko;
        ck_assert_int_eq(rdx_cg_optimize(rdx_graph_ir(g), cgf_kernel_of(g, t), o, n, &ko), RDX_OK);
        ck_assert_uint_eq(count_op(ko, RDX_OP_DEFINE_LOCAL), 1); /* the weights only */
        rdx_graph_destroy(g);
    }
}
END_TEST

/* A symbolic reduction length: the staged loop runs n times, the tile has no k depth. */
START_TEST(lds_symbolic)
{
    uint64_t seed = 95;
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_uop *kv = rdx_graph_var(g, "k", 1, 64);
    const rdx_tensor *a =
        rdx_tensor_empty_sym(g, F32, 2, (const rdx_uop *[]){ rdx_ir_int(ctx, 16), kv });
    const rdx_tensor *b =
        rdx_tensor_empty_sym(g, F32, 2, (const rdx_uop *[]){ kv, rdx_ir_int(ctx, 32) });
    const rdx_tensor *t = rdx_tensor_matmul(g, a, b);
    rdx_opt o[] = { SPLIT(1, 4, UPCAST), SPLIT(1, 8, LOCAL), SPLIT(0, 8, LOCAL), LDS(2) };
    static const int64_t vals[] = { 1, 7, 33 };
    for (size_t i = 0; i < 3; i++) {
        int64_t v = vals[i];
        float *d = malloc((size_t)v * 32 * sizeof *d);
        for (int64_t q = 0; q < v * 32; q++)
            d[q] = (float)(cgf_rand(&seed) % 17) * 0.25f - 2.0f;
        ck_assert_int_eq(rdx_interp_bind(rdx_graph_interp(g), a, d, (size_t)v * 16 * 4), RDX_OK);
        ck_assert_int_eq(rdx_interp_bind(rdx_graph_interp(g), b, d, (size_t)v * 32 * 4), RDX_OK);
        free(d);
        cgf_run r = { 0 };
        r.vars = &kv;
        r.varvals = &v;
        r.nvars = 1;
        r.on_emu = 1;
        r.mode = CGF_OPTS;
        r.opts = o;
        r.nopts = sizeof o / sizeof *o;
        r.tol = 1e-4;
        cgf_check(g, &t, 1, &r);
    }
    rdx_graph_destroy(g);
}
END_TEST

static void refused(rdx_graph *g, const rdx_tensor *t, const rdx_opt *o, size_t n, rdx_status want,
                    const char *msg)
{
    const rdx_uop *out;
    rdx_status st = rdx_cg_apply_opts(rdx_graph_ir(g), cgf_kernel_of(g, t), o, n, &out);
    ck_assert_int_eq(st, want);
    ck_assert_msg(strstr(rdx_error_message(), msg), "message '%s' lacks '%s'", rdx_error_message(),
                  msg);
}

START_TEST(lds_refused)
{
    uint64_t seed = 96;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *t = mm(g, F32, 32, 32, 32, &seed);
    rdx_opt nolocal[] = { SPLIT(1, 4, UPCAST), LDS(2) };
    refused(g, t, nolocal, 2, RDX_ERR_INVALID, "no LOCAL axes");
    rdx_opt notred[] = { SPLIT(1, 4, LOCAL), LDS(1) };
    refused(g, t, notred, 2, RDX_ERR_INVALID, "not a REDUCE axis");
    rdx_opt twice[] = { SPLIT(1, 4, LOCAL), LDS(2), LDS(2) };
    refused(g, t, twice, 3, RDX_ERR_INVALID, "a second LDS");
    rdx_opt amount[] = { SPLIT(1, 4, LOCAL), { RDX_OPTOP_LDS, 2, 4, RDX_AXIS_LOOP, 0 } };
    refused(g, t, amount, 2, RDX_ERR_INVALID, "must be 0");
    /* a row sum: its one load depends on the only LOCAL axis: nothing is shared */
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 32, 40 }, &seed);
    rdx_opt rows[] = { SPLIT(0, 8, LOCAL), LDS(1) };
    refused(g, rdx_tensor_sum(g, x, 1, (int[]){ 1 }, 0), rows, 2, RDX_ERR_INVALID,
            "no load of the kernel is read by several work-items");
    /* tiles of 128 (m) x 128 (k) and 128 x 128 floats: 128 KiB of LDS */
    const rdx_tensor *big = mm(g, F32, 256, 256, 256, &seed);
    rdx_opt huge[] = { SPLIT(1, 8, UPCAST), SPLIT(0, 8, UPCAST), SPLIT(2, 128, UNROLL),
                       SPLIT(1, 16, LOCAL), SPLIT(0, 16, LOCAL), LDS(2) };
    refused(g, big, huge, 6, RDX_ERR_RANGE, "bytes of LDS (limit 65536)");
    /* too many loads per work-item: a 64 x 64 tile for 4 work-items */
    rdx_opt share[] = { SPLIT(1, 8, UPCAST), SPLIT(0, 8, UPCAST), SPLIT(2, 64, UNROLL),
                        SPLIT(1, 2, LOCAL),  SPLIT(0, 2, LOCAL),  LDS(2) };
    refused(g, big, share, 6, RDX_ERR_RANGE, "loads per work-item");
    /* after TC: axes 0, 1 the M and N tiles (GLOBAL), 2 its K loop, 3 and 4 its WARP lanes */
    const rdx_tensor *h = mm(g, F16, 32, 32, 32, &seed);
    rdx_opt tc[] = { { RDX_OPTOP_TC, 2, 0, RDX_AXIS_WARP, 0 }, LDS(0) };
    refused(g, h, tc, 2, RDX_ERR_INVALID, "axis 0 is not a REDUCE axis");
    rdx_opt tck[] = { { RDX_OPTOP_TC, 2, 0, RDX_AXIS_WARP, 0 }, LDS(2) };
    refused(g, h, tck, 2, RDX_ERR_UNSUPPORTED, "(TC or LDS lowering)");
    ck_assert_str_eq(rdx_optop_name(RDX_OPTOP_LDS), "LDS");
    rdx_graph_destroy(g);
}
END_TEST

/* The heuristics' rule (cg_lds_pays) on a 256^3 matmul with a 16x16 workgroup: 4x4 register
   tiles with k by 8 load 4*8 + 8*4 = 64 dwords per iteration and work-item, staged 512/256
   + 512/256 = 4: 60 saved (>= 32): LDS of axis 2; k by 16 loads 128 (over the back end's
   96-dword budget): LDS; 2x2 tiles with k by 4 load 16 (no); no workgroup (no).  The
   heuristics stage their matmul tiles and not the 3x3 conv (only its 9 broadcast weights per
   channel are shared: 8 saved); BEAM's candidates offer LDS of the REDUCE axis once there
   are LOCAL axes. */
START_TEST(lds_heuristic)
{
    uint64_t seed = 97;
    rdx_graph *g = cgf_graph();
    const rdx_uop *k = cgf_kernel_of(g, mm(g, F32, 256, 256, 256, &seed));
    rdx_kaxis ax[RDX_CG_MAX_AXES];
    size_t na;
    ck_assert_int_eq(rdx_cg_axes(k, ax, &na), RDX_OK);
    ck_assert_uint_eq(na, 3);
    rdx_opt o[] = { SPLIT(1, 4, UPCAST), SPLIT(0, 4, UPCAST), SPLIT(2, 8, UNROLL),
                    SPLIT(1, 16, LOCAL), SPLIT(0, 16, LOCAL) };
    ck_assert_int_eq(cg_lds_pays(k, ax, na, o, 5), 2);
    o[2].amount = 16;
    ck_assert_int_eq(cg_lds_pays(k, ax, na, o, 5), 2);
    ck_assert_int_eq(cg_lds_pays(k, ax, na, o, 3), -1); /* no workgroup */
    rdx_opt small[] = { SPLIT(1, 2, UPCAST), SPLIT(0, 2, UPCAST), SPLIT(2, 4, UNROLL),
                        SPLIT(1, 16, LOCAL), SPLIT(0, 16, LOCAL) };
    ck_assert_int_eq(cg_lds_pays(k, ax, na, small, 5), -1);
    rdx_opt pad[] = { PADTO(0, 512), SPLIT(1, 4, UPCAST), SPLIT(1, 16, LOCAL) };
    ck_assert_int_eq(cg_lds_pays(k, ax, na, pad, 3), -1); /* PADTO: not estimated */
    /* the heuristics: the matmul's tiles staged (last opt), the conv's not */
    rdx_opt h[16];
    size_t nh;
    ck_assert_int_eq(rdx_cg_heuristic(k, h, 16, &nh), RDX_OK);
    ck_assert_uint_ge(nh, 1);
    ck_assert_int_eq(h[nh - 1].op, RDX_OPTOP_LDS);
    ck_assert_int_eq(h[nh - 1].axis, 2);
    const rdx_uop *kc = cgf_kernel_of(g, conv(g, 1, 16, 16, 16, 16, &seed));
    ck_assert_int_eq(rdx_cg_heuristic(kc, h, 16, &nh), RDX_OK);
    for (size_t i = 0; i < nh; i++)
        ck_assert_int_ne(h[i].op, RDX_OPTOP_LDS);
    /* BEAM's candidates */
    rdx_opt c[4];
    ck_assert_uint_eq(cg_lds_candidates(ax, na, NULL, 0, c, 4), 0); /* no LOCAL axes */
    const rdx_uop *k2;
    ck_assert_int_eq(rdx_cg_apply_opts(rdx_graph_ir(g), k, o, 5, &k2), RDX_OK);
    ck_assert_int_eq(rdx_cg_axes(k2, ax, &na), RDX_OK);
    ck_assert_uint_eq(cg_lds_candidates(ax, na, o, 5, c, 4), 1);
    ck_assert_int_eq(c[0].op, RDX_OPTOP_LDS);
    ck_assert_int_eq(c[0].axis, 2);
    rdx_opt with[6];
    memcpy(with, o, sizeof o);
    with[5] = c[0];
    ck_assert_uint_eq(cg_lds_candidates(ax, na, with, 6, c, 4), 0); /* one LDS only */
    rdx_graph_destroy(g);
}
END_TEST

TCase *cgf_tcase_lds(void)
{
    TCase *tc = tcase_create("lds");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, lds_matmul_f32);
    tcase_add_test(tc, lds_matmul_edges);
    tcase_add_test(tc, lds_matmul_dtypes);
    tcase_add_test(tc, lds_conv);
    tcase_add_test(tc, lds_symbolic);
    tcase_add_test(tc, lds_refused);
    tcase_add_test(tc, lds_heuristic);
    return tc;
}
