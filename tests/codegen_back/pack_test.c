/*
 * tests/codegen_back/pack_test.c — packed f16 math (codegen/pack_f16.c):
 * float16 vectors of 2 (two lanes at 2i, 2i+1, as an upcast axis gives them)
 * compile to v_pk_add/mul/max_f16 with paired d16 loads and stores, and every
 * output equals ir-core's scalar evaluator (rdx_ir_eval) on the same lane
 * values: exact (all three ops are correctly rounded; NaN = NaN, and -0 = +0
 * only where MAX may pick either zero), over random halves with specials
 * (±0, ±inf, NaNs, denormals, the largest finite values).  One lane of an
 * intermediate sum is also needed as a scalar (cast to float32), which takes
 * it out of the packed register.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/codegen_back/cgb_test.h"
#include "util/error.h"

enum { NI = 77 }; /* work-items, 2 lanes each */

/* The kernel: for lane j of work-item i (element 2i + j):
   s = a + b; m = s * c; x = MAX(m, a); y = x * b; Y[e] = y; and F[i] = float32(s of lane 1). */
static const char kernel[] =
    "%n = CONST dtype=index value=77\n%n2 = CONST dtype=index value=154\n"
    "%c2 = CONST dtype=index value=2\n%c1 = CONST dtype=index value=1\n"
    "%sh = STACK %n2\n%shf = STACK %n\n"
    "%A = PARAM %sh slot=0 dtype=float16 addr=global\n"
    "%B = PARAM %sh slot=1 dtype=float16 addr=global\n"
    "%C = PARAM %sh slot=2 dtype=float16 addr=global\n"
    "%Y = PARAM %sh slot=3 dtype=float16 addr=global\n"
    "%F = PARAM %shf slot=4 dtype=float32 addr=global\n"
    "%i = RANGE %n axis=0 type=GLOBAL\n"
    "%e0 = MUL %i, %c2\n%e1 = ADD %e0, %c1\n"
    "%xa0 = INDEX %A, %e0\n%xa1 = INDEX %A, %e1\n%xb0 = INDEX %B, %e0\n%xb1 = INDEX %B, %e1\n"
    "%xc0 = INDEX %C, %e0\n%xc1 = INDEX %C, %e1\n"
    "%a0 = LOAD %xa0\n%a1 = LOAD %xa1\n%b0 = LOAD %xb0\n%b1 = LOAD %xb1\n"
    "%cc0 = LOAD %xc0\n%cc1 = LOAD %xc1\n"
    "%s0 = ADD %a0, %b0\n%s1 = ADD %a1, %b1\n"
    "%m0 = MUL %s0, %cc0\n%m1 = MUL %s1, %cc1\n"
    "%x0 = MAX %m0, %a0\n%x1 = MAX %m1, %a1\n"
    "%y0 = MUL %x0, %b0\n%y1 = MUL %x1, %b1\n"
    "%xy0 = INDEX %Y, %e0\n%xy1 = INDEX %Y, %e1\n%xf = INDEX %F, %i\n"
    "%st0 = STORE %xy0, %y0\n%st1 = STORE %xy1, %y1\n"
    "%f1 = CAST %s1 dtype=float32\n%stf = STORE %xf, %f1\n"
    "%g = GROUP %st0, %st1, %stf\n%e = END %g, %i\n%k = SINK %e\nreturn %k\n";

/* The same lane computation on scalar parameters, for the evaluator. */
static const char lane_y[] = "%s = STACK\n"
                             "%a = PARAM %s slot=0 dtype=float16\n"
                             "%b = PARAM %s slot=1 dtype=float16\n"
                             "%c = PARAM %s slot=2 dtype=float16\n"
                             "%t = ADD %a, %b\n%m = MUL %t, %c\n%x = MAX %m, %a\n%y = MUL %x, %b\n"
                             "return %y\n";
static const char lane_s[] = "%s = STACK\n"
                             "%a = PARAM %s slot=0 dtype=float16\n"
                             "%b = PARAM %s slot=1 dtype=float16\n"
                             "%t = ADD %a, %b\n%f = CAST %t dtype=float32\nreturn %f\n";

static double h2d(uint16_t h)
{
    int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return s ? -v : v;
}

static uint32_t rs = 4242;
static uint16_t rnd_half(void)
{
    static const uint16_t sp[] = { 0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x0001,
                                   0x83ff, 0x7bff, 0xfbff, 0x3c00, 0x0400, 0x3555 };
    rs = rs * 1103515245u + 12345u;
    uint32_t r = rs >> 8;
    if (r % 5 == 0)
        return sp[(r / 5) % (sizeof sp / sizeof sp[0])];
    /* mostly moderate magnitudes, so sums and products stay finite */
    return (uint16_t)(((r >> 4) & 0x8000) | (0x3000 + (r % 0x1800)));
}

/* The PARAM of `slot` under root. */
static const rdx_uop *param(const rdx_uop *u, int64_t slot)
{
    if (u->op == RDX_OP_PARAM && u->arg.i == slot)
        return u;
    for (uint32_t k = 0; k < u->nsrc; k++) {
        const rdx_uop *r = param(u->src[k], slot);
        if (r)
            return r;
    }
    return NULL;
}

static int same(double got, double want)
{
    return (isnan(got) && isnan(want)) || got == want;
}

/* gfx1100 and gfx1201 (gfx12 spells the packed max v_pk_max_num_f16) */
static const char *const pack_targets[] = { "gfx1100", "gfx1201" };

START_TEST(packed_f16_matches_evaluator)
{
    cgb_target = pack_targets[_i];
    const char *pkmax = _i ? "v_pk_max_num_f16" : "v_pk_max_f16";
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *sink = cgb_parse_text(ctx, kernel);
    const rdx_uop *ey = cgb_parse_text(ctx, lane_y), *es = cgb_parse_text(ctx, lane_s);
    const rdx_uop *ly[3] = { param(ey, 0), param(ey, 1), param(ey, 2) };
    const rdx_uop *ls[2] = { param(es, 0), param(es, 1) };
    ck_assert(ly[0] && ly[1] && ly[2] && ls[0] && ls[1]);
    for (int round = 0; round < 4; round++) {
        uint16_t *A = malloc(2 * NI * 2), *B = malloc(2 * NI * 2), *C = malloc(2 * NI * 2);
        uint16_t *Y = calloc(2 * NI, 2);
        float *F = calloc(NI, 4);
        for (int e = 0; e < 2 * NI; e++)
            A[e] = rnd_half(), B[e] = rnd_half(), C[e] = rnd_half();
        void *bufs[5] = { A, B, C, Y, F };
        size_t sizes[5] = { 4 * NI, 4 * NI, 4 * NI, 4 * NI, 4 * NI };
        char *t = cgb_run_asm(ctx, sink, bufs, sizes);
        ck_assert_msg(strstr(t, "v_pk_add_f16") && strstr(t, "v_pk_mul_f16") && strstr(t, pkmax) &&
                          strstr(t, "global_load_d16_hi_b16") &&
                          strstr(t, "global_store_d16_hi_b16"),
                      "%s", t);
        ck_assert_msg(!strstr(t, "v_add_f16") && !strstr(t, "v_mul_f16") &&
                          !strstr(t, "v_max_f16") && !strstr(t, "v_max_num_f16"),
                      "%s", t);
        for (int e = 0; e < 2 * NI; e++) {
            rdx_value v[3] = { { 0, h2d(A[e]) }, { 0, h2d(B[e]) }, { 0, h2d(C[e]) } }, r;
            ck_assert_int_eq(rdx_ir_eval(ey, ly, v, 3, &r), RDX_OK);
            ck_assert_msg(same(h2d(Y[e]), r.f), "Y[%d] = %#x (%g), want %g (a %#x b %#x c %#x)", e,
                          Y[e], h2d(Y[e]), r.f, A[e], B[e], C[e]);
        }
        for (int i = 0; i < NI; i++) {
            rdx_value v[2] = { { 0, h2d(A[2 * i + 1]) }, { 0, h2d(B[2 * i + 1]) } }, r;
            ck_assert_int_eq(rdx_ir_eval(es, ls, v, 2, &r), RDX_OK);
            ck_assert_msg(same(F[i], r.f) && (isnan(r.f) || !!signbit(F[i]) == !!signbit(r.f)),
                          "F[%d] = %g, want %g", i, F[i], r.f);
        }
        free(t);
        free(A), free(B), free(C), free(Y), free(F);
    }
    cgb_target = NULL;
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

/* Scalar f16 code (no lane pairs) is left alone. */
START_TEST(unpaired_f16_stays_scalar)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *sink = cgb_parse_file(ctx, "inline_const.uop");
    rdx_codegen_options o = { .keep_stages = 1u << RDX_CG_STAGE_ASM };
    rdx_codegen_kernel *k;
    ck_assert_int_eq(rdx_codegen_compile(ctx, sink, &o, &k), RDX_OK);
    ck_assert_ptr_null(strstr(k->stage_text[RDX_CG_STAGE_ASM], "v_pk_"));
    ck_assert_ptr_nonnull(strstr(k->stage_text[RDX_CG_STAGE_ASM], "v_mul_f16"));
    rdx_codegen_kernel_free(k);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

TCase *cgb_tcase_pack(void)
{
    TCase *tc = tcase_create("pack");
    tcase_add_loop_test(tc, packed_f16_matches_evaluator, 0, 2);
    tcase_add_test(tc, unpaired_f16_stays_scalar);
    return tc;
}
