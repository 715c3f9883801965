/*
 * tests/ir/decomp_test.c — decomposed-op builders: the structure the spec
 * gives, values against host C, EXP2/LOG2/SIN error in ulp against libm
 * (double), Threefry against an independent host implementation and the
 * Random123 known-answer vectors.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests/ir/ir_test.h"

/* A shape-() PARAM of dtype d: the input leaf. */
static const rdx_uop *scalar_param(rdx_ir_ctx *c, rdx_scalar d, int slot)
{
    const rdx_uop *shape = IR_OK(rdx_ir_shape(c, NULL, 0));
    rdx_uop_arg a = rdx_uop_arg_none();
    a.i = slot;
    a.dtype = rdx_dtype_of(d);
    return IR_OK(rdx_ir_node(c, RDX_OP_PARAM, &shape, 1, &a));
}

static double eval2(const rdx_uop *g, const rdx_uop *x, const rdx_uop *y, double xv, double yv,
                    int fl)
{
    const rdx_uop *leaves[2] = { x, y };
    rdx_value v[2] = { { (int64_t)xv, xv }, { (int64_t)yv, yv } }, r;
    ck_assert_msg(rdx_ir_eval(g, leaves, v, y ? 2 : 1, &r) == RDX_OK, "%s", rdx_error_message());
    return fl ? r.f : (double)r.i;
}

START_TEST(simple_decompositions_have_spec_structure)
{
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *a = scalar_param(c, RDX_FLOAT32, 0), *b = scalar_param(c, RDX_FLOAT32, 1);
    const rdx_uop *n = IR_OK(rdx_ir_neg(c, a));
    ck_assert_int_eq(n->op, RDX_OP_MUL);
    ck_assert_ptr_eq(n->src[0], a);
    double v;
    ck_assert(rdx_uop_const_val(n->src[1], &v) && v == -1);
    const rdx_uop *s = IR_OK(rdx_ir_sub(c, a, b));
    ck_assert_int_eq(s->op, RDX_OP_ADD);
    ck_assert_ptr_eq(s->src[1], rdx_ir_neg(c, b));
    const rdx_uop *d = IR_OK(rdx_ir_div(c, a, b));
    ck_assert_int_eq(d->op, RDX_OP_MUL);
    ck_assert_int_eq(d->src[1]->op, RDX_OP_RECIP);
    const rdx_uop *gt = IR_OK(rdx_ir_cmpgt(c, a, b));
    ck_assert(gt->op == RDX_OP_CMPLT && gt->src[0] == b && gt->src[1] == a);
    const rdx_uop *ge = IR_OK(rdx_ir_cmpge(c, a, b));
    ck_assert(ge->op == RDX_OP_CMPNE && ge->src[0]->op == RDX_OP_CMPLT && ge->src[0]->src[0] == a);
    const rdx_uop *le = IR_OK(rdx_ir_cmple(c, a, b));
    ck_assert(le->op == RDX_OP_CMPNE && le->src[0]->op == RDX_OP_CMPLT && le->src[0]->src[0] == b);
    const rdx_uop *eq = IR_OK(rdx_ir_cmpeq(c, a, b));
    ck_assert(eq->op == RDX_OP_CMPNE && eq->src[0]->op == RDX_OP_CMPNE);
    ck_assert(rdx_uop_const_val(eq->src[1], &v) && v == 1 && eq->src[1]->dtype.scalar == RDX_BOOL);
    const rdx_uop *ma = IR_OK(rdx_ir_mulacc(c, a, b, a));
    ck_assert(ma->op == RDX_OP_ADD && ma->src[0]->op == RDX_OP_MUL && ma->src[1] == a);
    const rdx_uop *nt = IR_OK(rdx_ir_not(c, gt));
    ck_assert(nt->op == RDX_OP_CMPNE && nt->src[0] == gt);
    rdx_ir_ctx_destroy(c);
}
END_TEST

START_TEST(simple_decompositions_evaluate_like_c)
{
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *a = scalar_param(c, RDX_INT32, 0), *b = scalar_param(c, RDX_INT32, 1);
    const rdx_uop *fa = scalar_param(c, RDX_FLOAT32, 2), *fb = scalar_param(c, RDX_FLOAT32, 3);
    const rdx_uop *neg = IR_OK(rdx_ir_neg(c, a)), *sub = IR_OK(rdx_ir_sub(c, a, b));
    const rdx_uop *gt = IR_OK(rdx_ir_cmpgt(c, a, b)), *ge = IR_OK(rdx_ir_cmpge(c, a, b));
    const rdx_uop *le = IR_OK(rdx_ir_cmple(c, a, b)), *eq = IR_OK(rdx_ir_cmpeq(c, a, b));
    const rdx_uop *nt = IR_OK(rdx_ir_not(c, gt)), *ma = IR_OK(rdx_ir_mulacc(c, a, b, a));
    const rdx_uop *div = IR_OK(rdx_ir_div(c, fa, fb));
    uint64_t st = 7;
    for (int i = 0; i < 2000; i++) {
        int32_t x = (int32_t)ir_rand_range(&st, -50, 50), y = (int32_t)ir_rand_range(&st, -50, 50);
        ck_assert_int_eq(eval2(neg, a, b, x, y, 0), -x);
        ck_assert_int_eq(eval2(sub, a, b, x, y, 0), x - y);
        ck_assert_int_eq(eval2(gt, a, b, x, y, 0), x > y);
        ck_assert_int_eq(eval2(ge, a, b, x, y, 0), x >= y);
        ck_assert_int_eq(eval2(le, a, b, x, y, 0), x <= y);
        ck_assert_int_eq(eval2(eq, a, b, x, y, 0), x == y);
        ck_assert_int_eq(eval2(nt, a, b, x, y, 0), !(x > y));
        ck_assert_int_eq(eval2(ma, a, b, x, y, 0), x * y + x);
        float fx = (float)x * 0.37f, fy = (float)(y ? y : 1) * 1.3f;
        const rdx_uop *leaves[2] = { fa, fb };
        rdx_value v[2] = { { 0, fx }, { 0, fy } }, r;
        ck_assert_int_eq(rdx_ir_eval(div, leaves, v, 2, &r), RDX_OK);
        ck_assert(r.f == (double)(fx * (1.0f / fy))); /* MUL(A, RECIP(B)) in float32 */
    }
    rdx_ir_ctx_destroy(c);
}
END_TEST

/* ---------------------------------------------------------- ulp measurement */

typedef double (*ref_fn)(double);

/* ulp of the format (p-bit significand, minimum normal exponent emin) at |x| */
static double ulp_at(double x, int p, int emin)
{
    int e = x == 0 ? emin : (int)floor(log2(fabs(x)));
    if (e < emin)
        e = emin;
    return ldexp(1.0, e - (p - 1));
}

/* Formats: 0 float32, 1 float16, 2 bfloat16, 3 float64 */
static double round_bf16(double v)
{
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, 4);
    if ((b & 0x7f800000u) != 0x7f800000u) /* round to nearest even on the top 16 bits */
        b = (b + 0x7fffu + ((b >> 16) & 1)) & 0xffff0000u;
    else if (b & 0x7fffffu)
        b |= 0x400000u;
    memcpy(&f, &b, 4);
    return f;
}

static double round_fmt(double v, int f16)
{
    switch (f16) {
    case 1:
        return (double)(_Float16)v;
    case 2:
        return round_bf16(v);
    case 3:
        return v;
    default:
        return (double)(float)v;
    }
}

static const int fmt_p[4] = { 24, 11, 8, 53 }, fmt_emin[4] = { -126, -14, -126, -1022 };

typedef struct ulp_stats {
    double max_ulp, worst_x;
    long n;
} ulp_stats;

/* Compare one result; returns 0 on a special-value mismatch. */
static int check_one(ulp_stats *s, double x, double got, double ref, int f16)
{
    double rr = round_fmt(ref, f16);
    s->n++;
    if (isnan(rr))
        return isnan(got);
    if (isinf(rr) || isinf(got))
        return got == rr;
    double u = fabs(got - ref) / ulp_at(ref, fmt_p[f16], fmt_emin[f16]);
    if (u > s->max_ulp)
        s->max_ulp = u, s->worst_x = x;
    return 1;
}

static void sweep_f16(const char *name, const rdx_uop *(*build)(rdx_ir_ctx *, const rdx_uop *),
                      ref_fn ref, double lim, double max_ulp, double xmax)
{
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *x = scalar_param(c, RDX_FLOAT16, 0);
    const rdx_uop *g = IR_OK(build(c, x));
    ck_assert_int_eq(g->dtype.scalar, RDX_FLOAT16);
    rdx_evalplan *p;
    ck_assert_int_eq(rdx_evalplan_create(g, &x, 1, &p), RDX_OK);
    ulp_stats s = { 0, 0, 0 };
    for (uint32_t bits = 0; bits < 0x10000; bits++) {
        uint16_t h = (uint16_t)bits;
        _Float16 hv;
        memcpy(&hv, &h, 2);
        double xv = (double)hv;
        if (!(fabs(xv) <= xmax) && !isnan(xv))
            continue;
        rdx_value in = { 0, xv }, out;
        ck_assert_int_eq(rdx_evalplan_run(p, &in, &out), RDX_OK);
        ck_assert_msg(check_one(&s, xv, out.f, ref(xv), 1), "%s(float16 %a) = %a, want %a", name,
                      xv, out.f, round_fmt(ref(xv), 1));
    }
    (void)lim;
    printf("%s float16: %ld inputs (all), max error %.3f ulp at %a\n", name, s.n, s.max_ulp,
           s.worst_x);
    ck_assert_msg(s.max_ulp <= max_ulp, "%s float16: %.3f ulp at %a", name, s.max_ulp, s.worst_x);
    rdx_evalplan_free(p);
    rdx_ir_ctx_destroy(c);
}

static void sweep_bf16(const char *name, const rdx_uop *(*build)(rdx_ir_ctx *, const rdx_uop *),
                       ref_fn ref, double max_ulp)
{
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *x = scalar_param(c, RDX_BFLOAT16, 0);
    const rdx_uop *g = IR_OK(build(c, x));
    rdx_evalplan *p;
    ck_assert_int_eq(rdx_evalplan_create(g, &x, 1, &p), RDX_OK);
    ulp_stats s = { 0, 0, 0 };
    for (uint32_t bits = 0; bits < 0x10000; bits++) {
        uint32_t w = bits << 16;
        float f;
        memcpy(&f, &w, 4);
        double xv = f;
        rdx_value in = { 0, xv }, out;
        ck_assert_int_eq(rdx_evalplan_run(p, &in, &out), RDX_OK);
        ck_assert_msg(check_one(&s, xv, out.f, ref(xv), 2), "%s(bfloat16 %a) = %a, want %a", name,
                      xv, out.f, round_fmt(ref(xv), 2));
    }
    printf("%s bfloat16: %ld inputs (all), max error %.3f ulp at %a\n", name, s.n, s.max_ulp,
           s.worst_x);
    ck_assert_msg(s.max_ulp <= max_ulp, "%s bfloat16: %.3f ulp", name, s.max_ulp);
    rdx_evalplan_free(p);
    rdx_ir_ctx_destroy(c);
}

/* float64: random bit patterns over all exponents below xmax, against libm (itself ~0.5 ulp) */
static void sweep_f64(const char *name, const rdx_uop *(*build)(rdx_ir_ctx *, const rdx_uop *),
                      ref_fn ref, double xmax, double max_ulp)
{
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *x = scalar_param(c, RDX_FLOAT64, 0);
    const rdx_uop *g = IR_OK(build(c, x));
    rdx_evalplan *p;
    ck_assert_int_eq(rdx_evalplan_create(g, &x, 1, &p), RDX_OK);
    ulp_stats s = { 0, 0, 0 };
    uint64_t st = 4242;
    for (long i = 0; i < 60000; i++) {
        uint64_t b = ir_rand(&st);
        double xv;
        memcpy(&xv, &b, 8);
        if (!(fabs(xv) <= xmax) && !isnan(xv))
            continue;
        rdx_value in = { 0, xv }, out;
        ck_assert_int_eq(rdx_evalplan_run(p, &in, &out), RDX_OK);
        ck_assert_msg(check_one(&s, xv, out.f, ref(xv), 3), "%s(float64 %a) = %a, want %a", name,
                      xv, out.f, ref(xv));
    }
    printf("%s float64: %ld inputs, max error %.3f ulp at %a\n", name, s.n, s.max_ulp, s.worst_x);
    ck_assert_msg(s.max_ulp <= max_ulp, "%s float64: %.3f ulp", name, s.max_ulp);
    rdx_evalplan_free(p);
    rdx_ir_ctx_destroy(c);
}

/* f32: every 2^k-th bit pattern (full range) plus uniform samples in [lo, hi]. */
static void sweep_f32(const char *name, const rdx_uop *(*build)(rdx_ir_ctx *, const rdx_uop *),
                      ref_fn ref, double lo, double hi, double max_ulp, double xmax)
{
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *x = scalar_param(c, RDX_FLOAT32, 0);
    const rdx_uop *g = IR_OK(build(c, x));
    rdx_evalplan *p;
    ck_assert_int_eq(rdx_evalplan_create(g, &x, 1, &p), RDX_OK);
    ulp_stats s = { 0, 0, 0 };
    uint64_t st = 12345;
    for (long i = 0; i < 200000; i++) {
        float f;
        if (i < 100000) { /* bit patterns spread over all exponents */
            uint32_t b = (uint32_t)(i * 42949u) ^ (uint32_t)(ir_rand(&st) & 0xfff);
            memcpy(&f, &b, 4);
        } else {
            f = (float)(lo + (hi - lo) * (double)(ir_rand(&st) >> 11) * 0x1p-53);
        }
        double xv = f;
        if (!(fabs(xv) <= xmax) && !isnan(xv))
            continue;
        rdx_value in = { 0, xv }, out;
        ck_assert_int_eq(rdx_evalplan_run(p, &in, &out), RDX_OK);
        ck_assert_msg(check_one(&s, xv, out.f, ref(xv), 0), "%s(float32 %a) = %a, want %a", name,
                      xv, out.f, (double)(float)ref(xv));
    }
    static const double specials[] = { 0.0,  -0.0,     INFINITY, -INFINITY,      NAN, 1.0,
                                       -1.0, 0x1p-149, 0x1p-126, 0x1.fffffep127, 0.5 };
    for (size_t k = 0; k < sizeof specials / sizeof *specials; k++) {
        double xv = specials[k];
        if (!(fabs(xv) <= xmax) && !isnan(xv))
            continue;
        rdx_value in = { 0, xv }, out;
        ck_assert_int_eq(rdx_evalplan_run(p, &in, &out), RDX_OK);
        ck_assert_msg(check_one(&s, xv, out.f, ref(xv), 0), "%s(%a) = %a, want %a", name, xv, out.f,
                      ref(xv));
    }
    printf("%s float32: %ld inputs, max error %.3f ulp at %a\n", name, s.n, s.max_ulp, s.worst_x);
    ck_assert_msg(s.max_ulp <= max_ulp, "%s float32: %.3f ulp at %a", name, s.max_ulp, s.worst_x);
    rdx_evalplan_free(p);
    rdx_ir_ctx_destroy(c);
}

START_TEST(exp2_accuracy)
{
    sweep_f32("EXP2", rdx_ir_exp2, exp2, -152, 129, 2.0, INFINITY);
    sweep_f16("EXP2", rdx_ir_exp2, exp2, 0, 1.0, INFINITY);
    sweep_bf16("EXP2", rdx_ir_exp2, exp2, 1.0);
    sweep_f64("EXP2", rdx_ir_exp2, exp2, INFINITY, 4);
}
END_TEST

START_TEST(log2_accuracy)
{
    sweep_f32("LOG2", rdx_ir_log2, log2, 0, 1e6, 3.0, INFINITY);
    sweep_f16("LOG2", rdx_ir_log2, log2, 0, 1.0, INFINITY);
    sweep_bf16("LOG2", rdx_ir_log2, log2, 1.0);
    sweep_f64("LOG2", rdx_ir_log2, log2, INFINITY, 4);
}
END_TEST

START_TEST(sin_accuracy)
{
    /* Cody-Waite below 2^15, Payne-Hanek above: the full range */
    sweep_f32("SIN", rdx_ir_sin, sin, -1e5, 1e5, 4.0, INFINITY);
    sweep_f16("SIN", rdx_ir_sin, sin, 0, 1.0, INFINITY);
    sweep_bf16("SIN", rdx_ir_sin, sin, 1.0);
    sweep_f64("SIN", rdx_ir_sin, sin, 6e9, 4);
}
END_TEST

static double sqrt_ref(double x)
{
    return sqrt(x);
}

START_TEST(sqrt_pow_follow_the_spec)
{
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *x = scalar_param(c, RDX_FLOAT32, 0), *y = scalar_param(c, RDX_FLOAT32, 1);
    const rdx_uop *sq = IR_OK(rdx_ir_sqrt(c, x));
    ck_assert_int_eq(sq->op, RDX_OP_WHERE); /* EXP2's NaN guard on top */
    const rdx_uop *pw = IR_OK(rdx_ir_pow(c, x, y));
    ck_assert_ptr_eq(pw, rdx_ir_exp2(c, rdx_ir_mul(c, rdx_ir_log2(c, x), y)));
    ck_assert_ptr_eq(
        sq, rdx_ir_exp2(c, rdx_ir_mul(c, rdx_ir_const_float(c, x->dtype, 0.5), rdx_ir_log2(c, x))));
    /* error of the composition (measured, reported) */
    double worst = 0;
    uint64_t st = 99;
    for (int i = 0; i < 20000; i++) {
        float f = (float)ldexp((double)(ir_rand(&st) >> 11) * 0x1p-53 + 0.5,
                               (int)ir_rand_range(&st, -120, 120));
        const rdx_uop *leaves[1] = { x };
        rdx_value v = { 0, f }, r;
        ck_assert_int_eq(rdx_ir_eval(sq, leaves, &v, 1, &r), RDX_OK);
        double ref = sqrt_ref(f), u = fabs(r.f - ref) / ulp_at(ref, 24, -126);
        worst = u > worst ? u : worst;
        double py = 2.5, pref = pow(f, 2.5);
        const rdx_uop *pl[2] = { x, y };
        rdx_value pv[2] = { { 0, f }, { 0, py } };
        ck_assert_int_eq(rdx_ir_eval(pw, pl, pv, 2, &r), RDX_OK);
        if (isfinite(pref) && pref > 0x1p-126 && pref < 0x1p127)
            ck_assert_msg(fabs(r.f - pref) <= 1e-4 * pref, "pow(%a, 2.5) = %a, want %a", (double)f,
                          r.f, pref);
    }
    printf("SQRT float32 (= EXP2(0.5*LOG2)): max error %.1f ulp\n", worst);
    ck_assert(worst < 64);
    rdx_ir_ctx_destroy(c);
}
END_TEST

/* ---------------------------------------------------------- threefry */

static uint32_t rotl(uint32_t x, int r)
{
    return (x << r) | (x >> (32 - r));
}

/* Threefry-2x32-20 as in Random123 (written from the published algorithm). */
static void host_threefry(const uint32_t ctr[2], const uint32_t key[2], uint32_t out[2])
{
    static const int R[8] = { 13, 15, 26, 6, 17, 29, 16, 24 };
    uint32_t ks[3] = { key[0], key[1], 0x1BD11BDAu ^ key[0] ^ key[1] };
    uint32_t x0 = ctr[0] + ks[0], x1 = ctr[1] + ks[1];
    for (int r = 0; r < 20; r++) {
        x0 += x1;
        x1 = rotl(x1, R[r % 8]) ^ x0;
        if (r % 4 == 3) {
            int s = r / 4 + 1;
            x0 += ks[s % 3];
            x1 += ks[(s + 1) % 3] + (uint32_t)s;
        }
    }
    out[0] = x0, out[1] = x1;
}

START_TEST(threefry_matches_random123)
{
    /* Random123 kat_vectors, threefry2x32 20 rounds: ctr, key, expected */
    static const uint32_t kat[3][6] = {
        { 0, 0, 0, 0, 0x6b200159u, 0x99ba4efeu },
        { 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x1cb996fcu, 0xbb002be7u },
        { 0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xc4923a9cu, 0x483df7a0u },
    };
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *x = scalar_param(c, RDX_UINT64, 0), *k = scalar_param(c, RDX_UINT64, 1);
    const rdx_uop *g = IR_OK(rdx_ir_threefry(c, x, k));
    ck_assert_int_eq(g->dtype.scalar, RDX_UINT64);
    const rdx_uop *leaves[2] = { x, k };
    rdx_evalplan *p;
    ck_assert_int_eq(rdx_evalplan_create(g, leaves, 2, &p), RDX_OK);
    uint64_t st = 5;
    for (int i = 0; i < 1003; i++) {
        uint32_t ctr[2], key[2], want[2];
        if (i < 3) {
            ctr[0] = kat[i][0], ctr[1] = kat[i][1], key[0] = kat[i][2], key[1] = kat[i][3];
        } else {
            uint64_t a = ir_rand(&st), b = ir_rand(&st);
            ctr[0] = (uint32_t)a, ctr[1] = (uint32_t)(a >> 32), key[0] = (uint32_t)b,
            key[1] = (uint32_t)(b >> 32);
        }
        host_threefry(ctr, key, want);
        if (i < 3)
            ck_assert_msg(want[0] == kat[i][4] && want[1] == kat[i][5],
                          "host threefry disagrees with the KAT vector %d", i);
        rdx_value v[2] = { { (int64_t)((uint64_t)ctr[1] << 32 | ctr[0]), 0 },
                           { (int64_t)((uint64_t)key[1] << 32 | key[0]), 0 } },
                  r;
        ck_assert_int_eq(rdx_evalplan_run(p, v, &r), RDX_OK);
        uint64_t got = (uint64_t)r.i;
        ck_assert_msg((uint32_t)got == want[0] && (uint32_t)(got >> 32) == want[1],
                      "threefry case %d: got %016llx", i, (unsigned long long)got);
    }
    rdx_evalplan_free(p);
    const rdx_uop *bad = rdx_ir_threefry(c, scalar_param(c, RDX_UINT32, 2), k);
    ck_assert_ptr_null(bad);
    ck_assert(strstr(rdx_error_message(), "uint64"));
    rdx_ir_ctx_destroy(c);
}
END_TEST

TCase *ir_tcase_decomp(void)
{
    TCase *tc = tcase_create("decomp");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, simple_decompositions_have_spec_structure);
    tcase_add_test(tc, simple_decompositions_evaluate_like_c);
    tcase_add_test(tc, exp2_accuracy);
    tcase_add_test(tc, log2_accuracy);
    tcase_add_test(tc, sin_accuracy);
    tcase_add_test(tc, sqrt_pow_follow_the_spec);
    tcase_add_test(tc, threefry_matches_random123);
    return tc;
}
