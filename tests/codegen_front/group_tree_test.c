/* tests/codegen_front/group_tree_test.c — expand's GROUP_REDUCE lowering (codegen/expand.c):
 * the direct combine (every lane reads all G partials, G < 64 or no fan-in divides) and the
 * log-step tree over LDS (G >= 64), for every reduce op (ADD, MAX, MIN, MUL) and dtype,
 * G a power of two, not one, and a prime, padded lanes, several grouped REDUCEs sharing the
 * lanes with a LOCAL axis (row fusion), and a range closed by two REDUCEs (argmax: the max,
 * then the search for its index, which reads it), each REDUCE through its own LDS slot.
 * Every result against the reference interpreter on the emulated GPU (and the host
 * evaluator for small cases); integer-valued data makes float sums exact in any order, so
 * floats compare bit-exactly too.  The shape of the lowering (barriers, LDS sizes) against
 * the plan worked out by hand, and the refusals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/codegen_front/cgf_test.h"

#define F32 rdx_dtype_of(RDX_FLOAT32)

/* A [rows, cols] tensor of dtype dt holding integers in [lo, hi] (cast from int32 in the
   graph; zeros skipped when nozero: products of +-1 stay exact in every float dtype). */
static const rdx_tensor *ints(rdx_graph *g, rdx_dtype dt, int64_t rows, int64_t cols, int lo,
                              int hi, int nozero, uint64_t *seed)
{
    int32_t *p = malloc((size_t)(rows * cols) * sizeof *p);
    ck_assert_ptr_nonnull(p);
    for (int64_t i = 0; i < rows * cols; i++) {
        int v;
        do
            v = lo + (int)(cgf_rand(seed) % (uint64_t)(hi - lo + 1));
        while (nozero && v == 0);
        p[i] = v;
    }
    const rdx_tensor *t =
        rdx_tensor_from_data(g, rdx_dtype_of(RDX_INT32), 2, (int64_t[]){ rows, cols }, p);
    free(p);
    return dt.scalar == RDX_INT32 ? t : rdx_tensor_cast(g, t, dt);
}

/* t (one kernel) with opts o[0..n) against the interpreter, on the emulated GPU and, when
   host is set, on the host evaluator, floats within tol (0: exact). */
static void check_opts(rdx_graph *g, const rdx_tensor *t, const rdx_opt *o, size_t n, int host,
                       double tol)
{
    for (int e = host ? 0 : 1; e <= 1; e++) {
        cgf_run r = { .mode = CGF_OPTS, .opts = o, .nopts = n, .on_emu = e, .tol = tol };
        cgf_check(g, &t, 1, &r);
        ck_assert_uint_eq(r.nkernels, 1);
    }
}

/* Each reduce op in each dtype (bool: max and min) over rows of G * 2 elements (axis 1: each lane a
   share of 2, unrolled), G = 32 (direct), 64 (one tree step: 16 to 4), 256 (two steps: 256 -> 16
   -> 4), 96 (fan-ins 16 and 2: 96 -> 6 -> 3), 100 (fan-ins 10 and 5: odd fan-ins, regions
   rounded to 16 bytes) and 67 (a prime: no fan-in divides, direct). */
START_TEST(tree_ops_dtypes)
{
    uint64_t seed = 1101;
    static const rdx_scalar dts[] = { RDX_FLOAT32, RDX_FLOAT16, RDX_BFLOAT16,
                                      RDX_FLOAT64, RDX_INT32,   RDX_INT64,
                                      RDX_INT8,    RDX_UINT8,   RDX_BOOL };
    static const int64_t gs[] = { 32, 64, 256, 96, 100, 67 };
    for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
        rdx_graph *g = cgf_graph();
        rdx_dtype dt = rdx_dtype_of(dts[d]);
        int isf = rdx_dtype_is_float(dt);
        for (size_t gi = 0; gi < sizeof gs / sizeof *gs; gi++) {
            int64_t G = gs[gi], cols = 2 * G;
            /* bf16 holds integers up to 256 exactly: +-1 sums stay far below */
            int bf = dts[d] == RDX_BFLOAT16;
            const rdx_tensor *x = ints(g, dt, 3, cols, bf ? -1 : -3, bf ? 1 : 3, 0, &seed);
            const rdx_tensor *xp = ints(g, dt, 3, cols, isf ? -1 : -3, isf ? 1 : 3, isf, &seed);
            const rdx_tensor *red[4] = {
                rdx_tensor_sum(g, x, 1, (int[]){ 1 }, 0),
                rdx_tensor_max(g, x, 1, (int[]){ 1 }, 0),
                rdx_tensor_min(g, x, 1, (int[]){ 1 }, 0),
                rdx_tensor_prod(g, xp, 1, (int[]){ 1 }, 0),
            };
            rdx_opt o[2] = { SPLIT(1, G, GROUP_REDUCE), SPLIT(1, 2, UNROLL) };
            for (int k = 0; k < 4; k++)
                if (dts[d] != RDX_BOOL || k == 1 || k == 2) /* bool: any / all */
                    check_opts(g, red[k], o, 2, G == 64 && dts[d] == RDX_INT32, 0);
        }
        rdx_graph_destroy(g);
    }
}
END_TEST

/* Padded lanes: a reduce axis PADTO'd to a multiple of G (the padding reads the op's
   identity: 0, -inf/+inf, 1) then grouped, direct and through the tree; random floats. */
START_TEST(tree_padded)
{
    uint64_t seed = 1102;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 4, 300 }, &seed);
    const rdx_tensor *xi = ints(g, rdx_dtype_of(RDX_INT64), 4, 300, -9, 9, 1, &seed);
    const rdx_tensor *red[5] = {
        rdx_tensor_sum(g, x, 1, (int[]){ 1 }, 0),  rdx_tensor_max(g, x, 1, (int[]){ 1 }, 0),
        rdx_tensor_min(g, x, 1, (int[]){ 1 }, 0),  rdx_tensor_prod(g, xi, 1, (int[]){ 1 }, 0),
        rdx_tensor_sum(g, xi, 1, (int[]){ 1 }, 0),
    };
    static const cgf_seq seqs[] = {
        { { PADTO(1, 128), SPLIT(1, 128, GROUP_REDUCE) }, 2 },
        { { PADTO(1, 256), SPLIT(1, 256, GROUP_REDUCE) }, 2 },
        { { PADTO(1, 64), SPLIT(1, 64, GROUP_REDUCE), SPLIT(1, 5, UNROLL) }, 3 },
        { { PADTO(1, 32), SPLIT(1, 32, GROUP_REDUCE) }, 2 },
    };
    for (int k = 0; k < 5; k++)
        for (size_t i = 0; i < sizeof seqs / sizeof *seqs; i++)
            check_opts(g, red[k], seqs[i].o, seqs[i].n, 0, 1e-5);
    rdx_graph_destroy(g);
}
END_TEST

/* An upcast REDUCE's copies (UPCAST of the output rows: one REDUCE per copy, all closing
   the grouped range) lowered as one batch: their partials in one array, one barrier per
   step; direct and through the tree, float sums and int64 minima (17 copies: more than
   isel's 16 DEFINE_LOCALs, one each before the batch). */
START_TEST(tree_upcast_copies)
{
    uint64_t seed = 1107;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 8, 256 }, &seed);
    const rdx_tensor *xi = ints(g, rdx_dtype_of(RDX_INT64), 8, 256, -9, 9, 0, &seed);
    const rdx_tensor *red[2] = { rdx_tensor_sum(g, x, 1, (int[]){ 1 }, 0),
                                 rdx_tensor_min(g, xi, 1, (int[]){ 1 }, 0) };
    static const cgf_seq seqs[] = {
        { { SPLIT(0, 4, UPCAST), SPLIT(1, 32, GROUP_REDUCE) }, 2 },
        { { SPLIT(0, 8, UPCAST), SPLIT(1, 64, GROUP_REDUCE), SPLIT(1, 2, UNROLL) }, 3 },
        { { SPLIT(0, 2, UPCAST), SPLIT(1, 256, GROUP_REDUCE) }, 2 },
    };
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < sizeof seqs / sizeof *seqs; i++)
            check_opts(g, red[k], seqs[i].o, seqs[i].n, i == 1, 1e-5);
    const rdx_tensor *x17 = ints(g, rdx_dtype_of(RDX_INT32), 17, 128, -9, 9, 0, &seed);
    rdx_opt o[2] = { SPLIT(0, 17, UPCAST), SPLIT(1, 64, GROUP_REDUCE) };
    check_opts(g, rdx_tensor_max(g, x17, 1, (int[]){ 1 }, 0), o, 2, 0, 0);
    rdx_graph_destroy(g);
}
END_TEST

/* Row fusion through the tree: softmax and layernorm (two grouped REDUCEs, each its own
   LDS slot, sharing lidx0 with the LOCAL column axis) with 64, 128 and 256 lanes (the host
   evaluator, quadratic in the row for these kernels, is left to tree_ops_dtypes and
   argmax_grouped). */
START_TEST(tree_rows_shared)
{
    uint64_t seed = 1103;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 64, 512 }, &seed);
    const rdx_tensor *sm = rdx_tensor_softmax(g, x, -1);
    const rdx_tensor *ln = rdx_tensor_layernorm(g, x, 1, NULL, NULL, 1e-5);
    static const cgf_seq seqs[] = {
        { { SPLIT(1, 2, UPCAST), SPLIT(1, 256, LOCAL), SPLIT(2, 2, UNROLL),
            SPLIT(2, 256, GROUP_REDUCE), SPLIT(3, 2, UNROLL), SPLIT(3, 256, GROUP_REDUCE) },
          6 },
        { { SPLIT(1, 4, UPCAST), SPLIT(1, 128, LOCAL), SPLIT(2, 4, UNROLL),
            SPLIT(2, 128, GROUP_REDUCE), SPLIT(3, 4, UNROLL), SPLIT(3, 128, GROUP_REDUCE) },
          6 },
        { { SPLIT(1, 64, LOCAL), SPLIT(2, 64, GROUP_REDUCE), SPLIT(3, 64, GROUP_REDUCE) }, 3 },
        /* only the max through the tree; the sum reduced whole by every lane */
        { { SPLIT(1, 128, LOCAL), SPLIT(2, 128, GROUP_REDUCE) }, 2 },
    };
    for (size_t i = 0; i < sizeof seqs / sizeof *seqs; i++) {
        check_opts(g, sm, seqs[i].o, seqs[i].n, 0, 1e-5);
        check_opts(g, ln, seqs[i].o, seqs[i].n, 0, 1e-4);
    }
    rdx_graph_destroy(g);
}
END_TEST

/* A kernel-form kernel (axis types set) whose range j is closed by three sibling REDUCEs,
   as rangeify makes when one reduction is rendered for two consumers (fuzz seed 1201641;
   a REDUCE cannot read another closing its own range: the range would be used outside its
   scope): out[i] = 4096 * max_j x[i,j] + sum_j x[i,j] - min_j x[i,j], dtype dt. */
static const rdx_uop *siblings(rdx_graph *g, const char *dt, int64_t rows, int64_t cols)
{
    char text[2048];
    snprintf(text, sizeof text,
             "%%n = CONST dtype=index value=%lld\n"
             "%%c = CONST dtype=index value=%lld\n"
             "%%shi = STACK %%n, %%c\n%%sho = STACK %%n\n"
             "%%in = PARAM %%shi slot=0 dtype=%s addr=global\n"
             "%%out = PARAM %%sho slot=1 dtype=%s addr=global\n"
             "%%i = RANGE %%n axis=0 type=GLOBAL\n%%j = RANGE %%c axis=1 type=REDUCE\n"
             "%%ix = INDEX %%in, %%i, %%j\n%%v = LOAD %%ix\n"
             "%%mx = REDUCE %%v, %%j op=MAX axes=()\n"
             "%%sm = REDUCE %%v, %%j op=ADD axes=()\n"
             "%%mn = REDUCE %%v, %%j op=MIN axes=()\n"
             "%%k = CONST dtype=%s value=4096\n%%m1 = CONST dtype=%s value=-1\n"
             "%%a = MUL %%mx, %%k\n%%b = ADD %%a, %%sm\n%%c2 = MUL %%mn, %%m1\n"
             "%%r = ADD %%b, %%c2\n"
             "%%io = INDEX %%out, %%i\n%%st = STORE %%io, %%r\n"
             "%%e = END %%st, %%i\n%%s = SINK %%e\nreturn %%s\n",
             (long long)rows, (long long)cols, dt, dt, dt, dt);
    const rdx_uop **roots = NULL;
    size_t nr = 0;
    ck_assert_msg(rdx_ir_parse(rdx_graph_ir(g), "siblings", text, strlen(text), &roots, &nr) ==
                      RDX_OK,
                  "%s", rdx_error_message());
    ck_assert_uint_eq(nr, 1);
    const rdx_uop *k = roots[0];
    free(roots);
    return k;
}

/* siblings() with opts o[0..n) (NULL: the heuristics') on the host evaluator (host set) and
   the emulated GPU, against the closed form computed here; integer data in [-9, 9]. */
static void check_siblings(rdx_graph *g, int isf, int64_t rows, int64_t cols, const rdx_opt *o,
                           size_t n, int host, uint64_t *seed)
{
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_uop *k = siblings(g, isf ? "float32" : "int32", rows, cols), *e;
    ck_assert_msg(rdx_cg_optimize(ctx, k, o, o ? n : 0, &e) == RDX_OK, "%s", rdx_error_message());
    size_t nin = (size_t)(rows * cols);
    int32_t *xi = malloc(nin * 4), *want = malloc((size_t)rows * 4),
            *got = malloc((size_t)rows * 4);
    ck_assert(xi && want && got);
    for (int64_t i = 0; i < rows; i++) {
        int32_t mx = -100, mn = 100, sm = 0;
        for (int64_t j = 0; j < cols; j++) {
            int32_t v = (int32_t)(cgf_rand(seed) % 19) - 9;
            xi[i * cols + j] = v;
            mx = v > mx ? v : mx;
            mn = v < mn ? v : mn;
            sm += v;
        }
        want[i] = 4096 * mx + sm - mn;
    }
    if (isf)
        for (size_t q = 0; q < nin; q++) {
            float f = (float)xi[q];
            memcpy(&xi[q], &f, 4);
        }
    for (int on_emu = host ? 0 : 1; on_emu <= 1; on_emu++) {
        memset(got, 0xA5, (size_t)rows * 4);
        void *bufs[2] = { xi, got };
        size_t sizes[2] = { nin * 4, (size_t)rows * 4 };
        char err[512] = "";
        rdx_status st =
            on_emu ? cgf_emu_run(ctx, e, bufs, sizes, 2, NULL, NULL, 0, NULL)
                   : keval_run(ctx, e, bufs, sizes, 2, NULL, NULL, 0, NULL, err, sizeof err);
        ck_assert_msg(st == RDX_OK, "%s %s", on_emu ? rdx_error_message() : err,
                      on_emu ? "(emu)" : "(host)");
        for (int64_t i = 0; i < rows; i++) {
            int32_t v = got[i];
            if (isf) {
                float f;
                memcpy(&f, &got[i], 4);
                v = (int32_t)f;
            }
            ck_assert_msg(v == want[i], "row %lld: got %d, expected %d (%s)", (long long)i, v,
                          want[i], on_emu ? "emu" : "host");
        }
    }
    free(xi);
    free(want);
    free(got);
}

/* A range closed by several REDUCEs (an argmax's max and index search, rendered as
   siblings over one range): each REDUCE through its own LDS slot, directly (32 lanes) and
   through the tree (64, 128, 256 lanes; 96 after PADTO: padded lanes, odd fan-ins), int32
   and float32; the heuristics now group it; a tensor argmax (row max fused into the index
   search, two ranges) with many ties, raw and with the heuristics. */
START_TEST(argmax_grouped)
{
    uint64_t seed = 1104;
    rdx_graph *g = cgf_graph();
    static const cgf_seq seqs[] = {
        { { SPLIT(1, 32, GROUP_REDUCE) }, 1 },
        { { SPLIT(1, 64, GROUP_REDUCE), SPLIT(1, 2, UNROLL) }, 2 },
        { { SPLIT(1, 128, GROUP_REDUCE), SPLIT(1, 2, UNROLL) }, 2 },
        { { SPLIT(1, 256, GROUP_REDUCE) }, 1 },
        { { PADTO(1, 96), SPLIT(1, 96, GROUP_REDUCE) }, 2 },
    };
    for (int isf = 0; isf < 2; isf++)
        for (size_t i = 0; i < sizeof seqs / sizeof *seqs; i++)
            check_siblings(g, isf, 5, 256, seqs[i].o, seqs[i].n, i == 1, &seed);
    /* the heuristics: 5 outputs of 2048 (too few for one work-item each) */
    const rdx_uop *k = siblings(g, "int32", 5, 2048);
    rdx_opt h[16];
    size_t nh = 0, grouped = 0;
    ck_assert_int_eq(rdx_cg_heuristic(k, h, 16, &nh), RDX_OK);
    for (size_t i = 0; i < nh; i++)
        grouped += h[i].op == RDX_OPTOP_SPLIT && h[i].target == RDX_AXIS_GROUP_REDUCE;
    ck_assert_uint_eq(grouped, 1);
    check_siblings(g, 0, 5, 2048, NULL, 0, 0, &seed);
    check_siblings(g, 1, 5, 2048, NULL, 0, 0, &seed);
    /* tensor argmax: ties (integers 0..3) pick the first maximum; with 64 rows the row
       max is inlined into the index search (kernel 1: two REDUCEs over two ranges), and
       the heuristics group both ranges with the same lanes */
    const rdx_tensor *xi = ints(g, F32, 64, 1024, 0, 3, 0, &seed);
    rdx_schedule *sc = NULL;
    const rdx_tensor *ai = rdx_tensor_argmax(g, xi, 1, 0);
    ck_assert_int_eq(rdx_cg_schedule(rdx_graph_ir(g), &ai, 1, &sc), RDX_OK);
    ck_assert_uint_eq(sc->nkernels, 2);
    const rdx_uop *k1;
    ck_assert_int_eq(rdx_cg_axis_types(rdx_graph_ir(g), sc->kernels[1].sink, &k1), RDX_OK);
    rdx_schedule_free(sc);
    ck_assert_int_eq(rdx_cg_heuristic(k1, h, 16, &nh), RDX_OK);
    grouped = 0;
    for (size_t i = 0; i < nh; i++)
        grouped +=
            h[i].op == RDX_OPTOP_SPLIT && h[i].target == RDX_AXIS_GROUP_REDUCE && h[i].amount == 64;
    ck_assert_uint_eq(grouped, 2);
    const rdx_tensor *x8 = ints(g, rdx_dtype_of(RDX_INT8), 16, 4096, -5, 5, 0, &seed);
    const rdx_tensor *am[2] = { rdx_tensor_argmax(g, xi, 1, 0), rdx_tensor_argmax(g, x8, 1, 0) };
    for (int i = 0; i < 2; i++) {
        cgf_run r = { .mode = CGF_HEURISTIC, .on_emu = 1 };
        cgf_check(g, &am[i], 1, &r);
    }
    rdx_graph_destroy(g);
}
END_TEST

/* The expanded kernel's BARRIERs and DEFINE_LOCALs (element counts, in slot order). */
static void shape_of(rdx_graph *g, const rdx_uop *k, const rdx_opt *o, size_t n, size_t *nbar,
                     int64_t *sizes, size_t *nloc)
{
    const rdx_uop *e, **order = NULL;
    size_t no = 0;
    ck_assert_msg(rdx_cg_optimize(rdx_graph_ir(g), k, o, n, &e) == RDX_OK, "%s",
                  rdx_error_message());
    ck_assert_int_eq(rdx_ir_toposort(e, &order, &no), RDX_OK);
    *nbar = *nloc = 0;
    for (size_t i = 0; i < no; i++) {
        *nbar += order[i]->op == RDX_OP_BARRIER;
        if (order[i]->op == RDX_OP_DEFINE_LOCAL) {
            int64_t v = -1;
            ck_assert(rdx_uop_dim(order[i], 0, &v));
            ck_assert_int_lt(order[i]->arg.i, 4);
            sizes[order[i]->arg.i] = v;
            (*nloc)++;
        }
    }
    free(order);
}

/* The plan, worked out by hand: G = 32 and 67 direct (one barrier, G partials); 64: one
   step of 16 (regions 64 + 4: 68); 256: steps of 16 and 4 (256 + 16 + 4); 96: 16 then 2
   (96 + 6 at 96, 3 at 104: 107); three sibling REDUCEs of one range at 64: one array of
   3 x 68 and two barriers shared by the three. */
START_TEST(tree_shape)
{
    uint64_t seed = 1105;
    rdx_graph *g = cgf_graph();
    static const struct {
        int64_t G, cols;
        size_t bars;
        int64_t size;
    } c[] = { { 32, 64, 1, 32 },
              { 67, 134, 1, 67 },
              { 64, 128, 2, 68 },
              { 256, 512, 3, 276 },
              { 96, 192, 3, 107 } };
    int64_t sizes[4];
    size_t nbar, nloc;
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 2, c[i].cols }, &seed);
        const rdx_uop *k = cgf_kernel_of(g, rdx_tensor_sum(g, x, 1, (int[]){ 1 }, 0));
        rdx_opt o[1] = { SPLIT(1, c[i].G, GROUP_REDUCE) };
        shape_of(g, k, o, 1, &nbar, sizes, &nloc);
        ck_assert_uint_eq(nbar, c[i].bars);
        ck_assert_uint_eq(nloc, 1);
        ck_assert_int_eq(sizes[0], c[i].size);
    }
    rdx_opt o[1] = { SPLIT(1, 64, GROUP_REDUCE) };
    shape_of(g, siblings(g, "int32", 2, 128), o, 1, &nbar, sizes, &nloc);
    ck_assert_uint_eq(nbar, 2);
    ck_assert_uint_eq(nloc, 1);
    ck_assert_int_eq(sizes[0], 3 * 68);
    /* an upcast REDUCE's 4 copies (UPCAST 4 of the rows) at 32 lanes: one array of 4 x 32,
       one barrier */
    const rdx_tensor *xu = cgf_random(g, F32, 2, (int64_t[]){ 8, 64 }, &seed);
    const rdx_uop *ku = cgf_kernel_of(g, rdx_tensor_sum(g, xu, 1, (int[]){ 1 }, 0));
    rdx_opt ou[2] = { SPLIT(0, 4, UPCAST), SPLIT(1, 32, GROUP_REDUCE) };
    shape_of(g, ku, ou, 2, &nbar, sizes, &nloc);
    ck_assert_uint_eq(nbar, 1);
    ck_assert_uint_eq(nloc, 1);
    ck_assert_int_eq(sizes[0], 4 * 32);
    rdx_graph_destroy(g);
}
END_TEST

/* Refusals that stay: two grouped axes of one REDUCE (also of sibling REDUCEs), sizes
   that differ; and a grouped REDUCE nested in another grouped range. */
START_TEST(tree_refusals)
{
    uint64_t seed = 1106;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 4, 2048 }, &seed);
    const rdx_uop *ka = siblings(g, "float32", 4, 2048);
    rdx_opt a[2] = { SPLIT(1, 32, GROUP_REDUCE), SPLIT(1, 32, GROUP_REDUCE) };
    cgf_expect_expand_error(g, ka, a, 2, "close the same REDUCE");
    rdx_opt b[2] = { SPLIT(1, 64, GROUP_REDUCE), SPLIT(1, 2, GROUP_REDUCE) };
    cgf_expect_expand_error(g, ka, b, 2, "has 2 lanes, another 64");
    const rdx_uop *ks = cgf_kernel_of(g, rdx_tensor_sum(g, x, 1, (int[]){ 1 }, 0));
    cgf_expect_expand_error(g, ks, a, 2, "close the same REDUCE");
    /* a row max nested in a sum over the rows (the max uses the row range): grouping both
       would make both ranges lidx0 (only the diagonal reduced); the heuristics group the
       outer one only */
    static const char nested[] =
        "%n = CONST dtype=index value=64\n%sh = STACK %n, %n\n%c1 = CONST dtype=index value=1\n"
        "%so = STACK %c1\n%in = PARAM %sh slot=0 dtype=int32 addr=global\n"
        "%out = PARAM %so slot=1 dtype=int32 addr=global\n"
        "%i = RANGE %n axis=0 type=REDUCE\n%j = RANGE %n axis=1 type=REDUCE\n"
        "%ix = INDEX %in, %i, %j\n%v = LOAD %ix\n%m = REDUCE %v, %j op=MAX axes=()\n"
        "%s = REDUCE %m, %i op=ADD axes=()\n%z = CONST dtype=index value=0\n"
        "%io = INDEX %out, %z\n%st = STORE %io, %s\n%k = SINK %st\nreturn %k\n";
    const rdx_uop **roots = NULL;
    size_t nr = 0;
    ck_assert_msg(rdx_ir_parse(rdx_graph_ir(g), "nested", nested, strlen(nested), &roots, &nr) ==
                      RDX_OK,
                  "%s", rdx_error_message());
    const rdx_uop *kn = roots[0];
    free(roots);
    rdx_opt c[2] = { SPLIT(0, 32, GROUP_REDUCE), SPLIT(1, 32, GROUP_REDUCE) };
    cgf_expect_expand_error(g, kn, c, 2, "depends on GROUP_REDUCE axis 2");
    rdx_opt h[16];
    size_t nh = 0, grouped = 0;
    ck_assert_int_eq(rdx_cg_heuristic(kn, h, 16, &nh), RDX_OK);
    for (size_t i = 0; i < nh; i++)
        grouped += h[i].op == RDX_OPTOP_SPLIT && h[i].target == RDX_AXIS_GROUP_REDUCE;
    ck_assert_uint_le(grouped, 1);
    rdx_graph_destroy(g);
}
END_TEST

TCase *cgf_tcase_group_tree(void)
{
    TCase *tc = tcase_create("group_tree");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, tree_ops_dtypes);
    tcase_add_test(tc, tree_padded);
    tcase_add_test(tc, tree_upcast_copies);
    tcase_add_test(tc, tree_rows_shared);
    tcase_add_test(tc, argmax_grouped);
    tcase_add_test(tc, tree_shape);
    tcase_add_test(tc, tree_refusals);
    return tc;
}
