/*
 * tests/emu/check_fpmode.c — MODE's separate f32 and f16/f64 fields: rounding
 * (FP_ROUND[1:0] f32, [3:2] f16/f64) and denormals (FP_DENORM[5:4] f32, [7:6]
 * f16/f64), set from the kernel descriptor (rsrc1 FLOAT_ROUND_MODE_32/16_64,
 * FLOAT_DENORM_MODE_32/16_64), s_round_mode, s_denorm_mode and s_setreg.
 * Oracles: the host FPU under fesetround for f64; for f16 the exact value
 * placed on the ordered list of all finite f16 values (the ISA definition of
 * the four rounding modes), independent of the emulator's converters.
 */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/emu/emu_test.h"

/* rsrc1 with FLOAT_ROUND_MODE_32 = r32, _16_64 = r64, FLOAT_DENORM_MODE_32 = d32, _16_64 = d64 */
static uint32_t rsrc1_of(unsigned r32, unsigned r64, unsigned d32, unsigned d64)
{
    return 63u | r32 << 12 | r64 << 14 | d32 << 16 | d64 << 18 | 1u << 21 | 1u << 23;
}

static const int host_modes[4] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };

static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static void put_d(et_case *c, unsigned l, unsigned slot, double d)
{
    uint64_t u = dbits(d);
    c->in[l][slot] = (uint32_t)u;
    c->in[l][slot + 1] = (uint32_t)(u >> 32);
}

static uint64_t out_d(const et_case *c, unsigned l, unsigned slot)
{
    return c->out[l][slot] | (uint64_t)c->out[l][slot + 1] << 32;
}

/* Inputs whose sums, products and fmas are inexact (and lanes of both signs). */
static void f64_inputs(et_case *c)
{
    c->nin = 6;
    for (unsigned l = 0; l < 32; l++) {
        double a = (l & 1 ? -1.0 : 1.0) * (1.0 + 0x1p-30 * (l + 1) + 0x1p-52 * 3);
        double b = 0x1p-54 * (double)(2 * l + 1) + (l & 2 ? 1.0 / 3.0 : 0.1);
        double z = (l & 4 ? -1.0 : 1.0) * 0x1.0000001p-3;
        put_d(c, l, 0, a);
        put_d(c, l, 2, b);
        put_d(c, l, 4, z);
    }
}

static const char *f64_body = "v_add_f64 v[10:11], v[1:2], v[3:4]\n"
                              "v_mul_f64 v[12:13], v[1:2], v[3:4]\n"
                              "v_fma_f64 v[14:15], v[1:2], v[3:4], v[5:6]\n"
                              "v_add_f32 v16, v1, v3\n";

/* Check the f64 results under f64 mode r64 and the f32 add under f32 mode r32. */
static void check_f64_results(const et_case *c, unsigned r32, unsigned r64, const char *how)
{
    for (unsigned l = 0; l < 32; l++) {
        volatile double a, b, z;
        uint64_t u;
        u = c->in[l][0] | (uint64_t)c->in[l][1] << 32;
        memcpy((void *)&a, &u, 8);
        u = c->in[l][2] | (uint64_t)c->in[l][3] << 32;
        memcpy((void *)&b, &u, 8);
        u = c->in[l][4] | (uint64_t)c->in[l][5] << 32;
        memcpy((void *)&z, &u, 8);
        volatile float fa = et_uf(c->in[l][0]), fb = et_uf(c->in[l][2]);
        fesetround(host_modes[r64]);
        volatile double s = a + b, p = a * b;
        double f = fma(a, b, z);
        fesetround(host_modes[r32]);
        volatile float fs = fa + fb;
        fesetround(FE_TONEAREST);
        ck_assert_msg(out_d(c, l, 0) == dbits(s),
                      "%s: v_add_f64 lane %u mode %u: %016llx want %016llx", how, l, r64,
                      (unsigned long long)out_d(c, l, 0), (unsigned long long)dbits(s));
        ck_assert_msg(out_d(c, l, 2) == dbits(p),
                      "%s: v_mul_f64 lane %u mode %u: %016llx want %016llx", how, l, r64,
                      (unsigned long long)out_d(c, l, 2), (unsigned long long)dbits(p));
        ck_assert_msg(out_d(c, l, 4) == dbits(f),
                      "%s: v_fma_f64 lane %u mode %u: %016llx want %016llx", how, l, r64,
                      (unsigned long long)out_d(c, l, 4), (unsigned long long)dbits(f));
        ck_assert_msg(c->out[l][6] == et_f(fs), "%s: v_add_f32 lane %u mode %u: %08x want %08x",
                      how, l, r32, c->out[l][6], et_f(fs));
    }
}

/* Every pair of f32 / f64 rounding modes from the kernel descriptor. */
START_TEST(f64_round_modes_from_descriptor)
{
    for (unsigned r32 = 0; r32 < 4; r32++)
        for (unsigned r64 = 0; r64 < 4; r64++) {
            et_case c = { 0 };
            f64_inputs(&c);
            c.rsrc1 = rsrc1_of(r32, r64, 3, 3);
            c.body = f64_body;
            c.nout = 7;
            et_ok(&c);
            check_f64_results(&c, r32, r64, "rsrc1");
        }
}
END_TEST

/* The same modes set by s_round_mode and by s_setreg of MODE[3:2] alone. */
START_TEST(f64_round_modes_from_instructions)
{
    char body[512];
    for (unsigned r64 = 0; r64 < 4; r64++) {
        unsigned r32 = (r64 + 1) & 3;
        et_case c = { 0 };
        f64_inputs(&c);
        snprintf(body, sizeof body, "s_round_mode 0x%x\n%s", r32 | r64 << 2, f64_body);
        c.body = body;
        c.nout = 7;
        et_ok(&c);
        check_f64_results(&c, r32, r64, "s_round_mode");

        snprintf(body, sizeof body, "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 2, 2), %u\n%s", r64,
                 f64_body);
        et_ok(&c);
        check_f64_results(&c, 0, r64, "s_setreg");
    }
}
END_TEST

/* FP_DENORM[7:6]: f64 input and output denormals, each flushed or kept; f32 unaffected. */
START_TEST(f64_denormal_modes)
{
    for (unsigned d64 = 0; d64 < 4; d64++) {
        et_case c = { 0 };
        c.nin = 4;
        for (unsigned l = 0; l < 32; l++) {
            put_d(&c, l, 0, (l & 1 ? -0x1p-1070 : 0x1p-1060) * (l + 1)); /* denormal */
            put_d(&c, l, 2, 0x1p-1000 * (1.0 + l));                      /* normal */
        }
        for (unsigned l = 0; l < 32; l++)
            c.in[l][4] = 0x00000003u + l; /* f32 denormal */
        c.nin = 5;
        c.rsrc1 = rsrc1_of(0, 0, 3, d64);
        c.body = "v_mul_f64 v[10:11], v[1:2], 0x40000000\n" /* denormal input * 2.0 */
                 "v_mul_f64 v[12:13], v[3:4], 0x3c300000\n" /* normal * 2^-60: denormal output */
                 "v_add_f32 v14, v5, v5\n";
        c.nout = 5;
        et_ok(&c);
        for (unsigned l = 0; l < 32; l++) {
            uint64_t ua = c.in[l][0] | (uint64_t)c.in[l][1] << 32;
            uint64_t ub = c.in[l][2] | (uint64_t)c.in[l][3] << 32;
            double a, b;
            memcpy(&a, &ua, 8);
            memcpy(&b, &ub, 8);
            double w0 = a * 2.0, w1 = b * 0x1p-60;
            /* input flush (bit 0 clear): the denormal acts as a signed zero */
            if (!(d64 & 1))
                w0 = copysign(0.0, a);
            /* output flush (bit 1 clear): a denormal result becomes a signed zero */
            if (!(d64 & 2)) {
                if (fpclassify(w0) == FP_SUBNORMAL)
                    w0 = copysign(0.0, w0);
                if (fpclassify(w1) == FP_SUBNORMAL)
                    w1 = copysign(0.0, w1);
            }
            ck_assert_msg(out_d(&c, l, 0) == dbits(w0),
                          "d64=%u lane %u: in-denormal %016llx want %016llx", d64, l,
                          (unsigned long long)out_d(&c, l, 0), (unsigned long long)dbits(w0));
            ck_assert_msg(out_d(&c, l, 2) == dbits(w1),
                          "d64=%u lane %u: out-denormal %016llx want %016llx", d64, l,
                          (unsigned long long)out_d(&c, l, 2), (unsigned long long)dbits(w1));
            ck_assert_uint_eq(c.out[l][4],
                              2 * (0x00000003u + l)); /* f32 denormals kept (d32 = 3) */
        }
    }
    /* s_denorm_mode 0x3 (f32 keep, f16/f64 flush) overrides the descriptor's 16_64 = 3 */
    et_case c = { 0 };
    c.nin = 2;
    for (unsigned l = 0; l < 32; l++)
        put_d(&c, l, 0, 0x1p-1060 * (l + 1));
    c.body = "s_denorm_mode 0x3\n v_mul_f64 v[10:11], v[1:2], 1.0\n";
    c.nout = 2;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++)
        ck_assert_uint_eq(out_d(&c, l, 0), 0);
}
END_TEST

/* ---- f16 oracle: the finite f16 values in increasing order ---- */

static double h_val(uint16_t h)
{
    unsigned e = (h >> 10) & 31, m = h & 0x3ffu;
    double v = e ? ldexp((double)(m | 0x400u), (int)e - 25) : ldexp((double)m, -24);
    return (h & 0x8000u) ? -v : v;
}

static uint16_t h_sorted[63490]; /* -65504 .. -denormals, +0 .. 65504 (no -0) */
static unsigned h_count;

static void h_table(void)
{
    if (h_count)
        return;
    for (int i = 0x7bff; i >= 1; i--)
        h_sorted[h_count++] = (uint16_t)(0x8000u | (unsigned)i);
    for (unsigned i = 0; i <= 0x7bffu; i++)
        h_sorted[h_count++] = (uint16_t)i;
}

/* sign of (x*y + z - c) computed exactly: z - c is exact in double, one rounding keeps the sign */
static int h_cmp(double x, double y, double z, double c)
{
    double r = fma(x, y, z - c);
    return (r > 0) - (r < 0);
}

/*
 * The f16 that x*y + z rounds to in mode rm (x, y, z finite f16 values): the largest
 * table value <= exact (RD), the smallest >= exact (RU), and the IEEE rules between them.
 */
static uint16_t h_round_oracle(double x, double y, double z, unsigned rm)
{
    h_table();
    int lo = -1, hi = (int)h_count; /* invariant: values[..lo] <= exact < values[hi..] */
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (h_cmp(x, y, z, h_val(h_sorted[mid])) >= 0)
            lo = mid;
        else
            hi = mid;
    }
    if (lo >= 0 && h_cmp(x, y, z, h_val(h_sorted[lo])) == 0) {
        uint16_t r = h_sorted[lo];
        if (r != 0)
            return r;
        /* an exact zero: IEEE's sign rules */
        double p = x * y;
        int neg;
        if (p == 0.0 && z == 0.0)
            neg = (signbit(p) && signbit(z)) || (rm == 2 && (signbit(p) || signbit(z)));
        else
            neg = rm == 2;
        return neg ? 0x8000u : 0;
    }
    int neg = h_cmp(x, y, z, 0.0) < 0;
    uint16_t down = lo >= 0 ? h_sorted[lo] : 0xfc00u; /* -inf below the range */
    uint16_t up = hi < (int)h_count ? h_sorted[hi] : 0x7c00u;
    uint16_t pick;
    if (rm == 1)
        pick = up;
    else if (rm == 2)
        pick = down;
    else if (rm == 3)
        pick = neg ? up : down; /* toward zero: never an infinity */
    else {
        /* nearest: the midpoint decides; beyond 65504 the next binade's 65536 is the neighbour */
        double dv = lo >= 0 ? h_val(down) : -65536.0, uv = hi < (int)h_count ? h_val(up) : 65536.0;
        int s = h_cmp(x, y, z, (dv + uv) / 2);
        pick = s < 0 ? down : s > 0 ? up : (down & 1) ? up : down; /* tie: even mantissa */
    }
    if ((pick & 0x7fffu) == 0) /* rounded to zero: the exact value's sign */
        return neg ? 0x8000u : 0;
    return pick;
}

static uint16_t rand_h(uint64_t *st, int denormal_heavy)
{
    *st = *st * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t r = (uint32_t)(*st >> 33);
    uint16_t h = (uint16_t)r;
    if (denormal_heavy && (r >> 16) % 3 == 0)
        h &= 0x83ffu; /* a denormal */
    else if ((h & 0x7c00u) == 0x7c00u)
        h ^= 0x4000u; /* finite */
    return h;
}

/* v_add_f16 / v_mul_f16 / v_fma_f16 / v_pk_fma_f16 / v_fma_mixlo_f16 (f32 sources holding the
 * same values) under the four f16 modes, with the f32 mode RNE and then another one. */
START_TEST(f16_round_modes)
{
    uint64_t st = 12345;
    for (unsigned run = 0; run < 8; run++) {
        unsigned r64 = run & 3, r32 = run < 4 ? 0 : 3 - r64; /* the f32 mode must not matter */
        et_case c = { 0 };
        c.nin = 3;
        for (unsigned l = 0; l < 32; l++) {
            uint16_t x = rand_h(&st, l < 8), y = rand_h(&st, 0), z = rand_h(&st, l >= 24);
            if (l % 5 == 0) /* products near the overflow edge and exact cancellation */
                x = 0x5bffu, y = 0x5bffu;
            if (l == 31)
                x = 0x3c00u, y = 0x3c00u, z = 0xbc00u; /* 1*1 - 1 = 0: sign by mode */
            c.in[l][0] = x;
            c.in[l][1] = y;
            c.in[l][2] = z | (uint32_t)x << 16;
        }
        c.rsrc1 = rsrc1_of(r32, r64, 3, 3);
        c.body = "v_mov_b32 v10, 0\n v_mov_b32 v11, 0\n v_mov_b32 v12, 0\n"
                 "v_add_f16 v10, v1, v3\n v_mul_f16 v11, v1, v2\n v_fma_f16 v12, v1, v2, v3\n"
                 "v_pk_fma_f16 v13, v1, v2, v3 op_sel_hi:[0,0,0]\n"
                 "v_cvt_f32_f16 v20, v1\n v_cvt_f32_f16 v21, v2\n v_cvt_f32_f16 v22, v3\n"
                 "v_mov_b32 v14, 0\n v_fma_mixlo_f16 v14, v20, v21, v22\n";
        c.nout = 5;
        et_ok(&c);
        for (unsigned l = 0; l < 32; l++) {
            double x = h_val((uint16_t)c.in[l][0]), y = h_val((uint16_t)c.in[l][1]),
                   z = h_val((uint16_t)c.in[l][2]);
            uint16_t wa = h_round_oracle(x, 1.0, z, r64), wm = h_round_oracle(x, y, 0.0, r64),
                     wf = h_round_oracle(x, y, z, r64);
            if (x == 0.0 || y == 0.0) /* a zero product keeps its sign (x*y + 0 would not) */
                wm = signbit(x) != signbit(y) ? 0x8000u : 0;
            ck_assert_msg(c.out[l][0] == wa,
                          "v_add_f16 rm %u lane %u: %04x + %04x -> %04x want %04x", r64, l,
                          c.in[l][0], c.in[l][2] & 0xffff, c.out[l][0], wa);
            ck_assert_msg(c.out[l][1] == wm,
                          "v_mul_f16 rm %u lane %u: %04x * %04x -> %04x want %04x", r64, l,
                          c.in[l][0], c.in[l][1], c.out[l][1], wm);
            ck_assert_msg(c.out[l][2] == wf,
                          "v_fma_f16 rm %u lane %u: %04x * %04x + %04x -> %04x want %04x", r64, l,
                          c.in[l][0], c.in[l][1], c.in[l][2] & 0xffff, c.out[l][2], wf);
            ck_assert_msg((c.out[l][3] & 0xffff) == wf,
                          "v_pk_fma_f16 rm %u lane %u: %04x want %04x", r64, l,
                          c.out[l][3] & 0xffff, wf);
            ck_assert_msg(c.out[l][4] == wf, "v_fma_mixlo_f16 rm %u lane %u: %04x want %04x", r64,
                          l, c.out[l][4], wf);
        }
    }
}
END_TEST

/* FP_DENORM[7:6] for f16 ops; f32 keeps its own field. */
START_TEST(f16_denormal_modes)
{
    for (unsigned d64 = 0; d64 < 4; d64++) {
        et_case c = { 0 };
        c.nin = 2;
        for (unsigned l = 0; l < 32; l++) {
            c.in[l][0] = (l & 1 ? 0x8000u : 0) | (1u + l * 7); /* f16 denormal */
            c.in[l][1] = 0x0400u + l;                          /* small f16 normal */
        }
        c.rsrc1 = rsrc1_of(0, 0, 0, d64); /* f32: flush both */
        c.body = "v_mov_b32 v10, 0\n v_mov_b32 v11, 0\n"
                 "v_add_f16 v10, v1, v1\n"     /* denormal input, denormal output */
                 "v_mul_f16 v11, v2, 0x3800\n" /* normal * 0.5: denormal output */
                 "v_cvt_f32_f16 v12, v1\n";    /* f16 denormal input -> f32 normal */
        c.nout = 3;
        et_ok(&c);
        for (unsigned l = 0; l < 32; l++) {
            uint16_t a = (uint16_t)c.in[l][0], b = (uint16_t)c.in[l][1];
            double av = h_val(a);
            uint16_t w0, w1;
            /* a + a: the sum of two denormals is exact; it may reach the normal range */
            w0 = (d64 & 1) ? h_round_oracle(av, 2.0, 0.0, 0) : (uint16_t)(a & 0x8000u);
            if (!(d64 & 2) && (w0 & 0x7c00u) == 0)
                w0 &= 0x8000u;
            w1 = h_round_oracle(h_val(b), 0.5, 0.0, 0);
            if (!(d64 & 2) && (w1 & 0x7c00u) == 0)
                w1 &= 0x8000u;
            float f = (d64 & 1) ? (float)av : (a & 0x8000u ? -0.0f : 0.0f);
            ck_assert_msg(c.out[l][0] == w0, "d64=%u add lane %u: %04x want %04x", d64, l,
                          c.out[l][0], w0);
            ck_assert_msg(c.out[l][1] == w1, "d64=%u mul lane %u: %04x want %04x", d64, l,
                          c.out[l][1], w1);
            ck_assert_msg(c.out[l][2] == et_f(f), "d64=%u cvt lane %u: %08x want %08x", d64, l,
                          c.out[l][2], et_f(f));
        }
    }
}
END_TEST

Suite *et_suite_fpmode(void)
{
    Suite *s = suite_create("emu_fpmode");
    TCase *t = tcase_create("fpmode");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, f64_round_modes_from_descriptor);
    tcase_add_test(t, f64_round_modes_from_instructions);
    tcase_add_test(t, f64_denormal_modes);
    tcase_add_test(t, f16_round_modes);
    tcase_add_test(t, f16_denormal_modes);
    suite_add_tcase(s, t);
    return s;
}
