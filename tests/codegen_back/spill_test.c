/*
 * tests/codegen_back/spill_test.c — register pressure beyond the files:
 * kernels with hundreds of simultaneously live values compile (VGPRs spilled
 * to scratch, SGPRs to VGPR lanes) and compute what host loops computing the
 * same values in the same order give (bit exact); kernels that fit do not
 * spill; the descriptor asks for scratch exactly when it is used.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codeobj.h>

#include "tests/codegen_back/cgb_test.h"
#include "util/error.h"

typedef struct tb {
    char *s;
    size_t n, cap;
} tb;

static void add(tb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(tb *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        ck_assert_int_ge(k, 0);
        if (b->s && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        b->cap = b->cap ? 2 * b->cap : 1 << 16;
        b->s = realloc(b->s, b->cap);
        ck_assert_ptr_nonnull(b->s);
    }
}

/* The "; spills: A VGPR dwords (B bytes scratch), C SGPR dwords ..." line of -p regalloc. */
static void spills_of(const rdx_codegen_kernel *k, unsigned *v, unsigned *bytes, unsigned *s)
{
    const char *t = k->stage_text[RDX_CG_STAGE_REGALLOC];
    ck_assert_ptr_nonnull(t);
    const char *l = strstr(t, "; spills: ");
    ck_assert_ptr_nonnull(l);
    ck_assert_int_eq(sscanf(l, "; spills: %u VGPR dwords (%u bytes scratch), %u SGPR", v, bytes, s),
                     3);
}

static uint32_t scratch_in_descriptor(const rdx_codegen_kernel *k, int *enabled)
{
    rdx_codeobj *co;
    ck_assert_int_eq(rdx_codeobj_read(k->code_object, k->code_object_size, "k", &co), RDX_OK);
    uint32_t r = co->kernels[0].kd.private_segment_fixed_size;
    *enabled = co->kernels[0].kd.enable_private_segment;
    rdx_codeobj_free(co);
    return r;
}

enum { NT = 70 }; /* work-items: two full waves and a partial one */

/*
 * K values loaded per work-item, summed (s), then combined again with s:
 * t = (v0 ^ s)^2 + sum_j>0 (v[j] ^ s) in int32 (wrapping), so all K are live at
 * once.  With `gated`, each load reads
 * only where i % 3 != 0 and gives the constant j elsewhere (the gated load's
 * partial write of a spilled register).
 */
static char *many_live(int K, int gated)
{
    tb b = { 0 };
    add(&b, "%%N = CONST dtype=index value=%d\n%%K = CONST dtype=index value=%d\n", NT, K);
    add(&b, "%%sa = STACK %%N, %%K\n%%so = STACK %%N\n");
    add(&b, "%%A = PARAM %%sa slot=0 dtype=int32 addr=global\n");
    add(&b, "%%O = PARAM %%so slot=1 dtype=int32 addr=global\n");
    add(&b, "%%i = RANGE %%N axis=0 type=GLOBAL\n");
    add(&b, "%%c3 = CONST dtype=index value=3\n%%c0 = CONST dtype=index value=0\n");
    add(&b, "%%im = MOD %%i, %%c3\n%%g = CMPNE %%im, %%c0\n");
    for (int j = 0; j < K; j++) {
        add(&b, "%%j%d = CONST dtype=index value=%d\n%%x%d = INDEX %%A, %%i, %%j%d\n", j, j, j, j);
        if (gated)
            add(&b, "%%alt%d = CONST dtype=int32 value=%d\n%%v%d = LOAD %%x%d, %%alt%d, %%g\n", j,
                j, j, j, j);
        else
            add(&b, "%%v%d = LOAD %%x%d\n", j, j);
    }
    /* pass 1: s = v0 + ... + v[K-1]; pass 2: t = t + (v[j] ^ s), so every v[j] is live
       until s is known */
    add(&b, "%%s0 = ADD %%v0, %%v1\n");
    for (int j = 2; j < K; j++)
        add(&b, "%%s%d = ADD %%s%d, %%v%d\n", j - 1, j - 2, j);
    add(&b, "%%q0 = XOR %%v0, %%s%d\n%%t0 = MUL %%q0, %%q0\n", K - 2);
    for (int j = 1; j < K; j++)
        add(&b, "%%q%d = XOR %%v%d, %%s%d\n%%t%d = ADD %%t%d, %%q%d\n", j, j, K - 2, j, j - 1, j);
    add(&b, "%%xo = INDEX %%O, %%i\n%%st = STORE %%xo, %%t%d\n", K - 1);
    add(&b, "%%e = END %%st, %%i\n%%k = SINK %%e\nreturn %%k\n");
    return b.s;
}

static void run_many_live(int K, int gated, int expect_spill)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    char *txt = many_live(K, gated);
    const rdx_uop *sink = cgb_parse_text(ctx, txt);
    int32_t *a = malloc((size_t)NT * K * 4), *o = calloc(NT, 4);
    uint32_t r = 777u + (uint32_t)K;
    for (int t = 0; t < NT * K; t++) {
        r = r * 1103515245u + 12345u;
        a[t] = (int32_t)(r >> 8);
    }
    void *bufs[2] = { a, o };
    size_t sizes[2] = { (size_t)NT * K * 4, NT * 4 };
    rdx_codegen_options opt = { .name = "many_live", .keep_stages = 1u << RDX_CG_STAGE_REGALLOC };
    rdx_codegen_kernel *k = NULL;
    rdx_status st = cgb_run(ctx, sink, &opt, bufs, sizes, NULL, NULL, 0, &k);
    ck_assert_msg(!st, "K=%d: %s", K, rdx_error_message());
    unsigned sv, bytes, ss;
    spills_of(k, &sv, &bytes, &ss);
    int en;
    uint32_t priv = scratch_in_descriptor(k, &en);
    if (expect_spill) {
        ck_assert_msg(sv > 0 && bytes >= 4 * sv, "K=%d: %u VGPR dwords spilled", K, sv);
        ck_assert_uint_eq(priv, bytes);
        ck_assert_int_eq(en, 1);
        ck_assert_uint_le(k->num_vgprs, 256);
    } else {
        ck_assert_uint_eq(sv + ss, 0);
        ck_assert_uint_eq(priv, 0);
        ck_assert_int_eq(en, 0);
    }
    for (int i = 0; i < NT; i++) {
        uint32_t v[1024];
        for (int j = 0; j < K; j++)
            v[j] = gated && i % 3 == 0 ? (uint32_t)j : (uint32_t)a[i * K + j];
        uint32_t s = v[0];
        for (int j = 1; j < K; j++)
            s = s + v[j];
        uint32_t q = v[0] ^ s, t = q * q;
        for (int j = 1; j < K; j++)
            t = t + (v[j] ^ s);
        s = t;
        ck_assert_msg((uint32_t)o[i] == s, "K=%d gated=%d o[%d] = %d, expected %d", K, gated, i,
                      o[i], (int32_t)s);
    }
    rdx_codegen_kernel_free(k);
    free(a), free(o), free(txt);
    rdx_ir_ctx_destroy(ctx);
}

START_TEST(spill_vgprs_many_live)
{
    run_many_live(300, 0, 1);
    run_many_live(600, 0, 1);
}
END_TEST

START_TEST(spill_vgprs_gated)
{
    run_many_live(320, 1, 1);
}
END_TEST

START_TEST(no_spill_when_it_fits)
{
    run_many_live(40, 0, 0);
    run_many_live(40, 1, 0);
    static const char *const files[] = { "add.uop",    "saxpy.uop", "sum.uop",
                                         "matmul.uop", "gated.uop", "lds_reduce.uop" };
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        rdx_ir_ctx *ctx;
        ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
        const rdx_uop *sink = cgb_parse_file(ctx, files[f]);
        rdx_codegen_options opt = { .keep_stages = 1u << RDX_CG_STAGE_REGALLOC };
        rdx_codegen_kernel *k;
        ck_assert_msg(!rdx_codegen_compile(ctx, sink, &opt, &k), "%s: %s", files[f],
                      rdx_error_message());
        unsigned sv, bytes, ss;
        spills_of(k, &sv, &bytes, &ss);
        ck_assert_msg(sv + ss + bytes == 0, "%s spills", files[f]);
        ck_assert_ptr_null(strstr(k->stage_text[RDX_CG_STAGE_REGALLOC], "scratch_"));
        int en;
        ck_assert_uint_eq(scratch_in_descriptor(k, &en), 0);
        ck_assert_int_eq(en, 0);
        rdx_codegen_kernel_free(k);
        rdx_ir_ctx_destroy(ctx);
    }
}
END_TEST

/*
 * A DEFINE_REG accumulator array of 2 x R floats (R = 150: 300 accumulators
 * live around the reduction loop): acc[c] += A[k][c] * x[i] over k < KL, then
 * O[i][c] = acc[c].  MUL then ADD (no contraction), so the host loop in the
 * same order is exact.
 */
enum { R = 150, KL = 3, NX = 40 };

static char *acc_array(void)
{
    tb b = { 0 };
    add(&b, "%%N = CONST dtype=index value=%d\n%%R = CONST dtype=index value=%d\n", NX, R);
    add(&b, "%%R2 = CONST dtype=index value=%d\n%%K = CONST dtype=index value=%d\n", 2 * R, KL);
    add(&b, "%%sa = STACK %%K, %%R2\n%%sx = STACK %%N\n%%so = STACK %%N, %%R2\n%%sr = STACK %%R\n");
    add(&b, "%%A = PARAM %%sa slot=0 dtype=float32 addr=global\n");
    add(&b, "%%X = PARAM %%sx slot=1 dtype=float32 addr=global\n");
    add(&b, "%%O = PARAM %%so slot=2 dtype=float32 addr=global\n");
    add(&b, "%%i = RANGE %%N axis=0 type=GLOBAL\n%%zero = CONST dtype=float32 value=0\n");
    add(&b, "%%xi = INDEX %%X, %%i\n%%xv = LOAD %%xi\n");
    for (int h = 0; h < 2; h++) {
        add(&b, "%%acc%d = DEFINE_REG %%sr slot=%d dtype=float32\n", h, h);
        add(&b, "%%accI%d = AFTER %%acc%d, %%i\n", h, h);
    }
    for (int c = 0; c < 2 * R; c++) {
        int h = c / R, e = c % R;
        add(&b, "%%c%d = CONST dtype=index value=%d\n", c, c);
        if (e != c)
            add(&b, "%%e%d = CONST dtype=index value=%d\n", c, e);
        add(&b, "%%ii%d = INDEX %%accI%d, %%%s%d\n%%init%d = STORE %%ii%d, %%zero\n", c, h,
            e == c ? "c" : "e", c, c, c);
    }
    add(&b, "%%k = RANGE %%K axis=1 type=REDUCE\n");
    for (int h = 0; h < 2; h++) {
        add(&b, "%%accA%d = AFTER %%acc%d", h, h);
        for (int c = h * R; c < (h + 1) * R; c++)
            add(&b, ", %%init%d", c);
        add(&b, ", %%k\n");
    }
    for (int c = 0; c < 2 * R; c++) {
        int h = c / R;
        const char *ec = c < R ? "c" : "e";
        add(&b, "%%ai%d = INDEX %%accA%d, %%%s%d\n%%old%d = LOAD %%ai%d\n", c, h, ec, c, c, c);
        add(&b, "%%ia%d = INDEX %%A, %%k, %%c%d\n%%va%d = LOAD %%ia%d\n", c, c, c, c);
        add(&b, "%%pr%d = MUL %%va%d, %%xv\n%%nw%d = ADD %%old%d, %%pr%d\n", c, c, c, c, c);
        add(&b, "%%au%d = INDEX %%acc%d, %%%s%d\n%%up%d = STORE %%au%d, %%nw%d\n", c, h, ec, c, c,
            c, c);
    }
    add(&b, "%%gu = GROUP");
    for (int c = 0; c < 2 * R; c++)
        add(&b, "%s %%up%d", c ? "," : "", c);
    add(&b, "\n%%ek = END %%gu, %%k\n");
    for (int h = 0; h < 2; h++)
        add(&b, "%%accE%d = AFTER %%acc%d, %%ek\n", h, h);
    for (int c = 0; c < 2 * R; c++) {
        int h = c / R;
        const char *ec = c < R ? "c" : "e";
        add(&b, "%%ae%d = INDEX %%accE%d, %%%s%d\n%%res%d = LOAD %%ae%d\n", c, h, ec, c, c, c);
        add(&b, "%%io%d = INDEX %%O, %%i, %%c%d\n%%so%d = STORE %%io%d, %%res%d\n", c, c, c, c, c);
    }
    add(&b, "%%go = GROUP");
    for (int c = 0; c < 2 * R; c++)
        add(&b, "%s %%so%d", c ? "," : "", c);
    add(&b, "\n%%e = END %%go, %%i\n%%s = SINK %%e\nreturn %%s\n");
    return b.s;
}

START_TEST(spill_define_reg_array)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    char *txt = acc_array();
    const rdx_uop *sink = cgb_parse_text(ctx, txt);
    float *A = malloc(KL * 2 * R * 4), *X = malloc(NX * 4), *O = calloc(NX * 2 * R, 4);
    for (int t = 0; t < KL * 2 * R; t++)
        A[t] = (float)((t * 37) % 101 - 50) / 7.0f;
    for (int t = 0; t < NX; t++)
        X[t] = (float)(t % 13 - 6) / 3.0f;
    void *bufs[3] = { A, X, O };
    size_t sizes[3] = { KL * 2 * R * 4, NX * 4, NX * 2 * R * 4 };
    rdx_codegen_options opt = { .keep_stages = 1u << RDX_CG_STAGE_REGALLOC };
    rdx_codegen_kernel *k = NULL;
    rdx_status st = cgb_run(ctx, sink, &opt, bufs, sizes, NULL, NULL, 0, &k);
    ck_assert_msg(!st, "%s", rdx_error_message());
    unsigned sv, bytes, ss;
    spills_of(k, &sv, &bytes, &ss);
    ck_assert_uint_gt(sv, 0);
    for (int i = 0; i < NX; i++)
        for (int c = 0; c < 2 * R; c++) {
            float acc = 0;
            for (int kk = 0; kk < KL; kk++) {
                float p = A[kk * 2 * R + c] * X[i];
                acc = acc + p;
            }
            ck_assert_msg(O[i * 2 * R + c] == acc, "O[%d][%d] = %g, expected %g", i, c,
                          O[i * 2 * R + c], acc);
        }
    rdx_codegen_kernel_free(k);
    free(A), free(X), free(O), free(txt);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

/*
 * np uniform int32 kernel arguments p_j = (j * mul) ^ mask, all loaded into
 * SGPRs at the entry and used one by one afterwards: more than the 106 SGPRs
 * are live at once.  kr = 0: out[i] = sum_j p_j * (i + j); kr > 0: inside a
 * reduction loop, out[i] = sum over k < kr of sum_j p_j * (i + j + k), so the
 * uniform values are live around the back edge and reloaded from their lanes
 * in every iteration (wrapping int32 either way).
 */
static void run_sgpr_args(int np, int kr, uint32_t mul, uint32_t mask)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    tb b = { 0 };
    add(&b, "%%N = CONST dtype=index value=%d\n%%sh = STACK %%N\n%%s0d = STACK\n", NT);
    add(&b,
        "%%O = PARAM %%sh slot=0 dtype=int32 addr=global\n%%i = RANGE %%N axis=0 type=GLOBAL\n");
    if (kr)
        add(&b,
            "%%KR = CONST dtype=index value=%d\n%%k = RANGE %%KR axis=1 type=REDUCE\n"
            "%%ik = ADD %%i, %%k\n%%ii = CAST %%ik dtype=int32\n",
            kr);
    else
        add(&b, "%%ii = CAST %%i dtype=int32\n");
    for (int j = 0; j < np; j++) {
        add(&b, "%%p%d = PARAM %%s0d slot=%d dtype=int32\n", j, j + 1);
        add(&b, "%%c%d = CONST dtype=int32 value=%d\n%%a%d = ADD %%ii, %%c%d\n", j, j, j, j);
        add(&b, "%%m%d = MUL %%p%d, %%a%d\n", j, j, j);
        if (j)
            add(&b, "%%s%d = ADD %%s%d, %%m%d\n", j, j - 1, j);
        else
            add(&b, "%%s0 = ADD %%m0, %%c0\n");
    }
    if (kr)
        add(&b,
            "%%acc = REDUCE %%s%d, %%k op=ADD axes=()\n%%xo = INDEX %%O, %%i\n"
            "%%st = STORE %%xo, %%acc\n",
            np - 1);
    else
        add(&b, "%%xo = INDEX %%O, %%i\n%%st = STORE %%xo, %%s%d\n", np - 1);
    add(&b, "%%e = END %%st, %%i\n%%z = SINK %%e\nreturn %%z\n");
    const rdx_uop *sink = cgb_parse_text(ctx, b.s);
    int32_t *o = calloc(NT, 4);
    uint64_t *values = calloc((size_t)np + 1, sizeof *values);
    uint32_t *p = calloc((size_t)np, sizeof *p);
    for (int j = 0; j < np; j++) {
        p[j] = ((uint32_t)j * mul) ^ mask;
        values[j + 1] = p[j];
    }
    void *bufs[1] = { o };
    size_t sizes[1] = { NT * 4 };
    rdx_codegen_options opt = { .keep_stages = 1u << RDX_CG_STAGE_REGALLOC };
    rdx_codegen_kernel *k = NULL;
    rdx_status st = cgb_run(ctx, sink, &opt, bufs, sizes, values, NULL, 0, &k);
    ck_assert_msg(!st, "np=%d kr=%d: %s", np, kr, rdx_error_message());
    unsigned sv, bytes, ss;
    spills_of(k, &sv, &bytes, &ss);
    ck_assert_uint_gt(ss, 0);
    ck_assert_ptr_nonnull(strstr(k->stage_text[RDX_CG_STAGE_REGALLOC], "v_writelane_b32"));
    ck_assert_ptr_nonnull(strstr(k->stage_text[RDX_CG_STAGE_REGALLOC], "v_readlane_b32"));
    ck_assert_uint_le(k->num_sgprs, 106);
    for (int i = 0; i < NT; i++) {
        uint32_t acc = 0;
        for (int kk = 0; kk < (kr ? kr : 1); kk++) {
            uint32_t s = 0;
            for (int j = 0; j < np; j++)
                s += p[j] * (uint32_t)(i + kk + j);
            acc += s;
        }
        ck_assert_msg((uint32_t)o[i] == acc, "np=%d kr=%d: o[%d] = %d, expected %d", np, kr, i,
                      o[i], (int32_t)acc);
    }
    rdx_codegen_kernel_free(k);
    free(o), free(values), free(p), free(b.s);
    rdx_ir_ctx_destroy(ctx);
}

START_TEST(spill_sgprs_to_lanes)
{
    run_sgpr_args(140, 0, 2654435761u, 0x5a5a5a5au);
}
END_TEST

START_TEST(spill_sgprs_in_loop)
{
    run_sgpr_args(130, 5, 40503u, 0x13572468u);
}
END_TEST

TCase *cgb_tcase_spill(void)
{
    TCase *tc = tcase_create("spill");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, spill_vgprs_many_live);
    tcase_add_test(tc, spill_vgprs_gated);
    tcase_add_test(tc, no_spill_when_it_fits);
    tcase_add_test(tc, spill_define_reg_array);
    tcase_add_test(tc, spill_sgprs_to_lanes);
    tcase_add_test(tc, spill_sgprs_in_loop);
    return tc;
}
