/*
 * tests/codegen_back/vector_test.c — vectors (VECTORIZE, GEP, VCONST,
 * elementwise ops on vectors) and WMMA, run on the emulator against host loops.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/codegen_back/cgb_test.h"
#include "util/error.h"

static const rdx_uop *param(rdx_ir_ctx *ctx, int64_t slot, rdx_scalar s, int64_t n)
{
    const rdx_uop *sh = rdx_ir_shape(ctx, &n, 1);
    rdx_uop_arg a = rdx_uop_arg_none();
    a.i = slot;
    a.dtype = rdx_dtype_of(s);
    a.addrspace = RDX_ADDR_GLOBAL;
    return rdx_ir_node(ctx, RDX_OP_PARAM, &sh, 1, &a);
}

static const rdx_uop *load(rdx_ir_ctx *ctx, const rdx_uop *buf, const rdx_uop *i)
{
    const rdx_uop *ix = rdx_ir_index(ctx, buf, &i, 1);
    return rdx_ir_node(ctx, RDX_OP_LOAD, &ix, 1, NULL);
}

static const rdx_uop *store(rdx_ir_ctx *ctx, const rdx_uop *buf, const rdx_uop *i, const rdx_uop *v)
{
    return rdx_ir_store(ctx, rdx_ir_index(ctx, buf, &i, 1), v);
}

static const rdx_uop *gep(rdx_ir_ctx *ctx, const rdx_uop *v, int64_t k)
{
    rdx_uop_arg a = rdx_uop_arg_none();
    a.ints = rdx_ir_ints(ctx, &k, 1);
    a.nints = 1;
    return rdx_ir_node(ctx, RDX_OP_GEP, &v, 1, &a);
}

/* c[4j+k] = (a+b)*w[k], d[4j+k] = int32((a+b)*w[k]) for a float32x4 upcast. */
START_TEST(vector_upcast)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    enum { J = 37 };
    const rdx_uop *A = param(ctx, 0, RDX_FLOAT32, 4 * J), *B = param(ctx, 1, RDX_FLOAT32, 4 * J),
                  *C = param(ctx, 2, RDX_FLOAT32, 4 * J), *D = param(ctx, 3, RDX_INT32, 4 * J);
    const rdx_uop *j = rdx_ir_range(ctx, rdx_ir_int(ctx, J), 0, RDX_AXIS_GLOBAL);
    const rdx_uop *la[4], *lb[4];
    for (int k = 0; k < 4; k++) {
        const rdx_uop *ix =
            rdx_ir_add(ctx, rdx_ir_mul(ctx, j, rdx_ir_int(ctx, 4)), rdx_ir_int(ctx, k));
        la[k] = load(ctx, A, ix);
        lb[k] = load(ctx, B, ix);
    }
    const rdx_uop *va = rdx_ir_node(ctx, RDX_OP_VECTORIZE, la, 4, NULL);
    const rdx_uop *vb = rdx_ir_node(ctx, RDX_OP_VECTORIZE, lb, 4, NULL);
    double w[4] = { 1.5, -2, 0.25, 3 };
    int64_t wb[4];
    memcpy(wb, w, sizeof wb);
    rdx_uop_arg ca = rdx_uop_arg_none();
    ca.dtype = rdx_dtype_vec(rdx_dtype_of(RDX_FLOAT32), 4);
    ca.ints = rdx_ir_ints(ctx, wb, 4);
    ca.nints = 4;
    const rdx_uop *vw = rdx_ir_node(ctx, RDX_OP_VCONST, NULL, 0, &ca);
    const rdx_uop *vs = rdx_ir_mul(ctx, rdx_ir_add(ctx, va, vb), vw);
    const rdx_uop *vi = rdx_ir_cast(ctx, vs, rdx_dtype_vec(rdx_dtype_of(RDX_INT32), 4));
    const rdx_uop *st[8];
    for (int k = 0; k < 4; k++) {
        const rdx_uop *ix =
            rdx_ir_add(ctx, rdx_ir_mul(ctx, j, rdx_ir_int(ctx, 4)), rdx_ir_int(ctx, k));
        st[k] = store(ctx, C, ix, gep(ctx, vs, k));
        st[4 + k] = store(ctx, D, ix, gep(ctx, vi, k));
    }
    const rdx_uop *g = rdx_ir_node(ctx, RDX_OP_GROUP, st, 8, NULL);
    const rdx_uop *es[2] = { g, j };
    const rdx_uop *e = rdx_ir_node(ctx, RDX_OP_END, es, 2, NULL);
    const rdx_uop *sink = rdx_ir_sink(ctx, &e, 1);
    ck_assert_msg(sink != NULL, "%s", rdx_error_message());
    float *a = malloc(4 * J * 4), *b = malloc(4 * J * 4), *c = calloc(4 * J, 4);
    int32_t *d = calloc(4 * J, 4);
    for (int i = 0; i < 4 * J; i++)
        a[i] = (float)(i % 13) - 6.5f, b[i] = (float)(i % 7) * 0.75f;
    void *bufs[4] = { a, b, c, d };
    size_t sizes[4] = { 4 * J * 4, 4 * J * 4, 4 * J * 4, 4 * J * 4 };
    /* the four lanes' loads of each buffer merge into one */
    char *asmt = cgb_run_asm(ctx, sink, bufs, sizes);
    ck_assert_msg(strstr(asmt, "global_load_b128") && !strstr(asmt, "global_load_b32"), "%s", asmt);
    free(asmt);
    for (int i = 0; i < 4 * J; i++) {
        float e1 = (a[i] + b[i]) * (float)w[i % 4];
        ck_assert_msg(c[i] == e1, "c[%d] = %g, expected %g", i, c[i], e1);
        ck_assert_int_eq(d[i], (int32_t)e1);
    }
    free(a), free(b), free(c), free(d);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

static uint16_t f2h(float f)
{
    /* exact for the small values used here */
    if (f == 0)
        return 0;
    int e;
    float m = frexpf(fabsf(f), &e);
    uint16_t h = (uint16_t)(((e + 14) << 10) | ((int)(m * 2048) - 1024));
    return f < 0 ? (uint16_t)(h | 0x8000) : h;
}

/* The WMMA tile's targets, each run on its emulator; gfx1201 (the gfx12 register layout:
   4-VGPR A/B, D rows 8h + v, moved to gfx11's element order with v_permlanex16) is also
   checked by encoding (llvm-objdump). */
static const char *const wmma_targets[] = { "gfx1100", "gfx1151", "gfx1201" };

/* D = A x B + C (16x16x16, f16 in, f32 out) with one v_wmma on one wave. */
START_TEST(wmma_tile)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *A = param(ctx, 0, RDX_FLOAT16, 256), *B = param(ctx, 1, RDX_FLOAT16, 256),
                  *C = param(ctx, 2, RDX_FLOAT32, 256), *D = param(ctx, 3, RDX_FLOAT32, 256);
    const rdx_uop *l =
        rdx_ir_node(ctx, RDX_OP_SPECIAL, (const rdx_uop *[]){ rdx_ir_int(ctx, 32) }, 1,
                    &(rdx_uop_arg){ .str = rdx_ir_str(ctx, "lidx0", 5), .len = 5 });
    ck_assert_ptr_nonnull(l);
    const rdx_uop *c16 = rdx_ir_int(ctx, 16);
    const rdx_uop *row = rdx_ir_mod(ctx, l, c16), *half = rdx_ir_idiv(ctx, l, c16);
    const rdx_uop *la[16], *lb[16], *lc[8];
    for (int k = 0; k < 16; k++) {
        la[k] = load(ctx, A, rdx_ir_add(ctx, rdx_ir_mul(ctx, row, c16), rdx_ir_int(ctx, k)));
        lb[k] = load(ctx, B, rdx_ir_add(ctx, rdx_ir_int(ctx, 16 * k), row));
    }
    for (int v = 0; v < 8; v++) {
        const rdx_uop *r = rdx_ir_add(ctx, rdx_ir_int(ctx, 2 * v), half);
        lc[v] = load(ctx, C, rdx_ir_add(ctx, rdx_ir_mul(ctx, r, c16), row));
    }
    const rdx_uop *ws[3] = { rdx_ir_node(ctx, RDX_OP_VECTORIZE, la, 16, NULL),
                             rdx_ir_node(ctx, RDX_OP_VECTORIZE, lb, 16, NULL),
                             rdx_ir_node(ctx, RDX_OP_VECTORIZE, lc, 8, NULL) };
    rdx_uop_arg wa = rdx_uop_arg_none();
    wa.str = rdx_ir_str(ctx, "WMMA_16_16_16_half_float", 24);
    wa.len = 24;
    wa.dtype = rdx_dtype_vec(rdx_dtype_of(RDX_FLOAT32), 8);
    const rdx_uop *w = rdx_ir_node(ctx, RDX_OP_WMMA, ws, 3, &wa);
    const rdx_uop *st[8];
    for (int v = 0; v < 8; v++) {
        const rdx_uop *r = rdx_ir_add(ctx, rdx_ir_int(ctx, 2 * v), half);
        st[v] = store(ctx, D, rdx_ir_add(ctx, rdx_ir_mul(ctx, r, c16), row), gep(ctx, w, v));
    }
    const rdx_uop *sink = rdx_ir_sink(ctx, st, 8);
    ck_assert_msg(sink != NULL, "%s", rdx_error_message());
    uint16_t *a = malloc(512), *b = malloc(512);
    float *af = malloc(1024), *bf = malloc(1024), *c = malloc(1024), *d = calloc(256, 4);
    for (int i = 0; i < 256; i++) {
        af[i] = (float)((i * 7) % 11 - 5) * 0.5f;
        bf[i] = (float)((i * 3) % 13 - 6) * 0.25f;
        a[i] = f2h(af[i]), b[i] = f2h(bf[i]);
        c[i] = (float)(i % 5);
    }
    void *bufs[4] = { a, b, c, d };
    size_t sizes[4] = { 512, 512, 1024, 1024 };
    if (_i == 2) {
        rdx_codegen_options o = { .target = wmma_targets[_i],
                                  .keep_stages = 1u << RDX_CG_STAGE_ASM };
        rdx_codegen_kernel *k = NULL;
        ck_assert_msg(!rdx_codegen_compile(ctx, sink, &o, &k), "%s", rdx_error_message());
        const char *t = k->stage_text[RDX_CG_STAGE_ASM];
        const char *w12 = strstr(t, "v_wmma_f32_16x16x16_f16");
        ck_assert_msg(w12 && strstr(t, "v_permlanex16_b32"), "%s", t);
        /* A and B are 4-VGPR ranges (v[n:n+3]) */
        unsigned d0, d1, a0, a1, b0, b1;
        ck_assert_int_eq(
            sscanf(strchr(w12, ' '), " v[%u:%u], v[%u:%u], v[%u:%u]", &d0, &d1, &a0, &a1, &b0, &b1),
            6);
        ck_assert_uint_eq(d1 - d0, 7);
        ck_assert_uint_eq(a1 - a0, 3);
        ck_assert_uint_eq(b1 - b0, 3);
        /* llvm-objdump for gfx1201 decodes every instruction */
        char *path = rdx_test_tmp_path("wmma12.co");
        rdx_test_write_file(path, k->code_object, k->code_object_size);
        const char *argv[] = { rdx_test_llvm_tool("llvm-objdump"), "-d", "--mcpu=gfx1201", path,
                               NULL };
        rdx_test_proc pr;
        rdx_test_run(argv, NULL, 0, &pr);
        ck_assert_msg(pr.status == 0 && !strstr(pr.out, "<unknown>") &&
                          strstr(pr.out, "v_wmma_f32_16x16x16_f16") &&
                          strstr(pr.out, "v_permlanex16_b32"),
                      "%s%s", pr.out, pr.err);
        rdx_test_proc_free(&pr);
        free(path);
        rdx_codegen_kernel_free(k); /* and it runs on the gfx1201 emulator, below */
    }
    cgb_target = wmma_targets[_i];
    char *t = cgb_run_asm(ctx, sink, bufs, sizes);
    cgb_target = NULL;
    ck_assert_msg(strstr(t, "v_wmma_f32_16x16x16_f16"), "%s", t);
    free(t);
    for (int i = 0; i < 16; i++)
        for (int jj = 0; jj < 16; jj++) {
            double s = c[i * 16 + jj];
            for (int kk = 0; kk < 16; kk++)
                s += (double)af[i * 16 + kk] * bf[kk * 16 + jj];
            ck_assert_msg(fabs(d[i * 16 + jj] - s) <= 1e-5 * (1 + fabs(s)),
                          "D[%d][%d] = %g, expected %g", i, jj, d[i * 16 + jj], s);
        }
    free(a), free(b), free(af), free(bf), free(c), free(d);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

/* Independent float ops are fused into VOPD pairs; results stay exact. */
START_TEST(vopd_pairs)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *k = cgb_parse_text(
        ctx, "%n = CONST dtype=index value=100\n%sh = STACK %n\n"
             "%a = PARAM %sh slot=0 dtype=float32 addr=global\n"
             "%b = PARAM %sh slot=1 dtype=float32 addr=global\n"
             "%o = PARAM %sh slot=2 dtype=float32 addr=global\n"
             "%i = RANGE %n axis=0 type=GLOBAL\n%ia = INDEX %a, %i\n%ib = INDEX %b, %i\n"
             "%va = LOAD %ia\n%vb = LOAD %ib\n%s = ADD %va, %vb\n%c = CONST dtype=float32 value=3\n"
             "%t = MUL %va, %c\n%m = MAX %s, %t\n%io = INDEX %o, %i\n%st = STORE %io, %m\n"
             "%e = END %st, %i\n%k = SINK %e\n");
    float a[100], b[100], o[100];
    for (int i = 0; i < 100; i++)
        a[i] = (float)(i - 50) * 0.5f, b[i] = (float)(i % 9) - 4.0f;
    void *bufs[3] = { a, b, o };
    size_t sizes[3] = { 400, 400, 400 };
    char *t = cgb_run_asm(ctx, k, bufs, sizes);
    ck_assert_msg(strstr(t, " :: v_dual_"), "%s", t);
    free(t);
    for (int i = 0; i < 100; i++) {
        float s = a[i] + b[i], t = a[i] * 3.0f;
        ck_assert_msg(o[i] == (s > t ? s : t), "o[%d] = %g", i, o[i]);
    }
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

/* 64-bit integers to float32/float16/bfloat16 are rounded once (halfway and sticky cases). */
START_TEST(int64_to_float_rounding)
{
    static const uint64_t vals[] = {
        (1ull << 60) + (1ull << 36),     /* exactly halfway for f32 */
        (1ull << 60) + (1ull << 36) + 1, /* just above halfway: the sticky bit */
        (1ull << 60) + (3ull << 36),     /* halfway, odd: rounds up */
        (1ull << 63) + (1ull << 39) + 1, /* uint64 above 2^63 */
        0xffffffffffffffffull,           /* -1 as int64, max as uint64 */
        (1ull << 53) + 1,
        (1ull << 54) + 3,
        0x8000000000000001ull,
        12345678901234567ull,
        0x0000010000000801ull,
        0x7ffffe8000000001ull,
        0x7fffff8000000000ull,
    };
    enum { N = sizeof vals / sizeof vals[0] };
    for (int sg = 0; sg < 2; sg++) {
        rdx_ir_ctx *ctx;
        ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
        const rdx_uop *A = param(ctx, 0, sg ? RDX_INT64 : RDX_UINT64, N),
                      *F = param(ctx, 1, RDX_FLOAT32, N), *H = param(ctx, 2, RDX_BFLOAT16, N);
        const rdx_uop *i = rdx_ir_range(ctx, rdx_ir_int(ctx, N), 0, RDX_AXIS_GLOBAL);
        const rdx_uop *v = load(ctx, A, i);
        const rdx_uop *st[2] = { store(ctx, F, i, rdx_ir_cast(ctx, v, rdx_dtype_of(RDX_FLOAT32))),
                                 store(ctx, H, i,
                                       rdx_ir_cast(ctx, v, rdx_dtype_of(RDX_BFLOAT16))) };
        const rdx_uop *es[2] = { rdx_ir_node(ctx, RDX_OP_GROUP, st, 2, NULL), i };
        const rdx_uop *e = rdx_ir_node(ctx, RDX_OP_END, es, 2, NULL);
        const rdx_uop *sink = rdx_ir_sink(ctx, &e, 1);
        uint64_t a[N];
        float f[N];
        uint16_t h[N];
        memcpy(a, vals, sizeof a);
        void *bufs[3] = { a, f, h };
        size_t sizes[3] = { sizeof a, sizeof f, sizeof h };
        ck_assert_msg(!cgb_run(ctx, sink, NULL, bufs, sizes, NULL, NULL, 0, NULL), "%s",
                      rdx_error_message());
        for (int k = 0; k < N; k++) {
            float want = sg ? (float)(int64_t)vals[k] : (float)vals[k];
            ck_assert_msg(f[k] == want, "%s %llx: got %.9g, want %.9g", sg ? "int64" : "uint64",
                          (unsigned long long)vals[k], f[k], want);
            /* bfloat16 by the evaluator's rule: one rounding of the exact value */
            rdx_value in = { (int64_t)vals[k], 0 }, r;
            const rdx_uop *leaf = v;
            const rdx_uop *c = rdx_ir_cast(ctx, v, rdx_dtype_of(RDX_BFLOAT16));
            ck_assert_int_eq(rdx_ir_eval(c, &leaf, &in, 1, &r), RDX_OK);
            float hv;
            uint32_t hb = (uint32_t)h[k] << 16;
            memcpy(&hv, &hb, 4);
            ck_assert_msg(hv == (float)r.f, "bf16 %llx: got %.9g, want %.9g",
                          (unsigned long long)vals[k], hv, r.f);
        }
        rdx_ir_ctx_destroy(ctx);
    }
}
END_TEST

/* RECIP of special values in every float dtype: +-0 -> +-inf, +-inf -> +-0, NaN -> NaN. */
START_TEST(recip_specials)
{
    static const double xs[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -4.0, 3.0, 0.1 };
    enum { N = sizeof xs / sizeof xs[0] };
    static const rdx_scalar fts[] = { RDX_FLOAT16, RDX_BFLOAT16, RDX_FLOAT32, RDX_FLOAT64 };
    for (int t = 0; t < 4; t++) {
        rdx_ir_ctx *ctx;
        ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
        const rdx_uop *A = param(ctx, 0, RDX_FLOAT64, N), *O = param(ctx, 1, RDX_FLOAT64, N);
        const rdx_uop *i = rdx_ir_range(ctx, rdx_ir_int(ctx, N), 0, RDX_AXIS_GLOBAL);
        rdx_dtype ft = rdx_dtype_of(fts[t]), f64 = rdx_dtype_of(RDX_FLOAT64);
        const rdx_uop *x = rdx_ir_cast(ctx, load(ctx, A, i), ft);
        const rdx_uop *r = rdx_ir_cast(ctx, rdx_ir_alu1(ctx, RDX_OP_RECIP, x), f64);
        const rdx_uop *es[2] = { store(ctx, O, i, r), i };
        const rdx_uop *e = rdx_ir_node(ctx, RDX_OP_END, es, 2, NULL);
        const rdx_uop *sink = rdx_ir_sink(ctx, &e, 1);
        double a[N], o[N];
        memcpy(a, xs, sizeof a);
        void *bufs[2] = { a, o };
        size_t sizes[2] = { sizeof a, sizeof o };
        ck_assert_msg(!cgb_run(ctx, sink, NULL, bufs, sizes, NULL, NULL, 0, NULL), "%s",
                      rdx_error_message());
        const rdx_uop *leaf = x->src[0];
        for (int k = 0; k < N; k++) {
            rdx_value in = { 0, xs[k] }, want;
            ck_assert_int_eq(rdx_ir_eval(r, &leaf, &in, 1, &want), RDX_OK);
            int ok = (isnan(o[k]) && isnan(want.f)) ||
                     (o[k] == want.f && signbit(o[k]) == signbit(want.f));
            ck_assert_msg(ok, "%s 1/%g: got %g, want %g", rdx_scalar_name(fts[t]), xs[k], o[k],
                          want.f);
        }
        rdx_ir_ctx_destroy(ctx);
    }
}
END_TEST

/* A 20000-deep chain of ALU ops compiles (lowering does not recurse per node) and runs. */
START_TEST(deep_chain)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *A = param(ctx, 0, RDX_INT32, 64), *O = param(ctx, 1, RDX_INT32, 64);
    const rdx_uop *i = rdx_ir_range(ctx, rdx_ir_int(ctx, 64), 0, RDX_AXIS_GLOBAL);
    const rdx_uop *v = load(ctx, A, i);
    rdx_dtype i32 = rdx_dtype_of(RDX_INT32);
    for (int k = 0; k < 20000; k++)
        v = k % 2 ? rdx_ir_add(ctx, v, rdx_ir_const_int(ctx, i32, k % 7))
                  : rdx_ir_alu2(ctx, RDX_OP_XOR, v, rdx_ir_const_int(ctx, i32, k % 5));
    const rdx_uop *es[2] = { store(ctx, O, i, v), i };
    const rdx_uop *e = rdx_ir_node(ctx, RDX_OP_END, es, 2, NULL);
    const rdx_uop *sink = rdx_ir_sink(ctx, &e, 1);
    ck_assert_msg(sink != NULL, "%s", rdx_error_message());
    int32_t a[64], o[64];
    for (int k = 0; k < 64; k++)
        a[k] = k * 1000 - 7;
    void *bufs[2] = { a, o };
    size_t sizes[2] = { sizeof a, sizeof o };
    ck_assert_msg(!cgb_run(ctx, sink, NULL, bufs, sizes, NULL, NULL, 0, NULL), "%s",
                  rdx_error_message());
    for (int k = 0; k < 64; k++) {
        uint32_t x = (uint32_t)a[k];
        for (int q = 0; q < 20000; q++)
            x = q % 2 ? x + (uint32_t)(q % 7) : x ^ (uint32_t)(q % 5);
        ck_assert_int_eq(o[k], (int32_t)x);
    }
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

/* A loop whose body is over 128 KiB (a 40000-op chain): its back edge is out of
   s_cbranch's reach and jumps through s_getpc/s_setpc (render_branch.c; gfx12 with
   s_sext_i32_i16 of the PC's high half), on gfx1100 and gfx1201, against host loops. */
static const char *const far_targets[] = { "gfx1100", "gfx1201" };

START_TEST(far_loop_branch)
{
    enum { N = 40000, J = 3 };
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *A = param(ctx, 0, RDX_INT32, 64), *O = param(ctx, 1, RDX_INT32, 64);
    const rdx_uop *i = rdx_ir_range(ctx, rdx_ir_int(ctx, 64), 0, RDX_AXIS_GLOBAL);
    const rdx_uop *j = rdx_ir_range(ctx, rdx_ir_int(ctx, J), 1, RDX_AXIS_REDUCE);
    rdx_dtype i32 = rdx_dtype_of(RDX_INT32);
    const rdx_uop *v = rdx_ir_add(ctx, load(ctx, A, i), rdx_ir_cast(ctx, j, i32));
    for (int k = 0; k < N; k++)
        v = k % 2 ? rdx_ir_add(ctx, v, rdx_ir_const_int(ctx, i32, k % 7))
                  : rdx_ir_alu2(ctx, RDX_OP_XOR, v, rdx_ir_const_int(ctx, i32, k % 5));
    rdx_uop_arg ra = rdx_uop_arg_none();
    ra.sub = RDX_RED_ADD;
    const rdx_uop *rs[2] = { v, j };
    const rdx_uop *red = rdx_ir_node(ctx, RDX_OP_REDUCE, rs, 2, &ra);
    ck_assert_msg(red != NULL, "%s", rdx_error_message());
    const rdx_uop *es[2] = { store(ctx, O, i, red), i };
    const rdx_uop *e = rdx_ir_node(ctx, RDX_OP_END, es, 2, NULL);
    const rdx_uop *sink = rdx_ir_sink(ctx, &e, 1);
    ck_assert_msg(sink != NULL, "%s", rdx_error_message());
    int32_t a[64], o[64];
    for (int k = 0; k < 64; k++)
        a[k] = k * 1000 - 7;
    void *bufs[2] = { a, o };
    size_t sizes[2] = { sizeof a, sizeof o };
    rdx_codegen_options op = { .target = far_targets[_i], .keep_stages = 1u << RDX_CG_STAGE_ASM };
    rdx_codegen_kernel *k = NULL;
    ck_assert_msg(!cgb_run(ctx, sink, &op, bufs, sizes, NULL, NULL, 0, &k), "%s",
                  rdx_error_message());
    const char *t = k->stage_text[RDX_CG_STAGE_ASM];
    ck_assert_uint_gt(k->code_size, 131072);
    ck_assert_msg(strstr(t, "s_setpc_b64") && (!_i || strstr(t, "s_sext_i32_i16")), "%.2000s", t);
    rdx_codegen_kernel_free(k);
    for (int q = 0; q < 64; q++) {
        uint32_t s = 0;
        for (int jj = 0; jj < J; jj++) {
            uint32_t x = (uint32_t)a[q] + (uint32_t)jj;
            for (int c = 0; c < N; c++)
                x = c % 2 ? x + (uint32_t)(c % 7) : x ^ (uint32_t)(c % 5);
            s += x;
        }
        ck_assert_int_eq(o[q], (int32_t)s);
    }
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

TCase *cgb_tcase_vector(void)
{
    TCase *tc = tcase_create("vector");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, vector_upcast);
    tcase_add_loop_test(tc, wmma_tile, 0, (int)(sizeof wmma_targets / sizeof wmma_targets[0]));
    tcase_add_test(tc, vopd_pairs);
    tcase_add_test(tc, int64_to_float_rounding);
    tcase_add_test(tc, recip_specials);
    tcase_add_test(tc, deep_chain);
    tcase_add_loop_test(tc, far_loop_branch, 0, 2);
    return tc;
}
