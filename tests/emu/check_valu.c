/*
 * tests/emu/check_valu.c — VALU semantics on edge values, checked against
 * values the host computes from the ISA guide's definition of each op.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tests/emu/emu_test.h"

static const uint32_t edge32[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000,
    0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00000 /* sNaN */,
    0x00000001, 0x807fffff, 0x7f7fffff, 0xff7fffff,
    0x40490fdb, 0xc2f00000, 0x3eaaaaab, 0x4b000001,
    0x00800000, 0x33800000, 0xcf000000, 0x4f800000,
    0x3f000001, 0x5f000000, 0x3fc00000, 0xbfc00000,
    0x40200000, 0x0000ffff, 0x42fe0000, 0x34000000,
    0x7e800000, 0x3f7fffff, 0xc0000000, 0x00400000,
};
#define NEDGE (sizeof edge32 / sizeof edge32[0])

static int isnan32(uint32_t u)
{
    return (u & 0x7fffffffu) > 0x7f800000u;
}

/* a = edge[l], b = edge[(l*7+3) % N], c = edge[(l*13+5) % N] */
static void fill3(et_case *c)
{
    c->nin = 3;
    for (unsigned l = 0; l < 32; l++) {
        c->in[l][0] = edge32[l % NEDGE];
        c->in[l][1] = edge32[(l * 7 + 3) % NEDGE];
        c->in[l][2] = edge32[(l * 13 + 5) % NEDGE];
    }
}

/* Exact f32 results (NaN == NaN) */
static void check_exact(const et_case *c, unsigned slot, const uint32_t *want, const char *what)
{
    for (unsigned l = 0; l < 32; l++) {
        uint32_t g = c->out[l][slot], w = want[l];
        int ok = g == w || (isnan32(g) && isnan32(w));
        ck_assert_msg(ok, "%s lane %u: in %08x %08x %08x: got %08x want %08x", what, l, c->in[l][0],
                      c->in[l][1], c->in[l][2], g, w);
    }
}

START_TEST(f32_arith_edges)
{
    et_case c = { 0 };
    fill3(&c);
    c.body = "v_add_f32 v10, v1, v2\n v_mul_f32 v11, v1, v2\n v_sub_f32 v12, v1, v2\n"
             "v_fma_f32 v13, v1, v2, v3\n v_mul_f32 v14, -v1, |v2|\n";
    c.nout = 5;
    et_ok(&c);
    uint32_t w[5][32];
    for (unsigned l = 0; l < 32; l++) {
        float a = et_uf(c.in[l][0]), b = et_uf(c.in[l][1]), d = et_uf(c.in[l][2]);
        w[0][l] = et_f(a + b);
        w[1][l] = et_f(a * b);
        w[2][l] = et_f(a - b);
        w[3][l] = et_f(fmaf(a, b, d)); /* single rounding */
        w[4][l] = et_f(-a * fabsf(b));
    }
    check_exact(&c, 0, w[0], "v_add_f32");
    check_exact(&c, 1, w[1], "v_mul_f32");
    check_exact(&c, 2, w[2], "v_sub_f32");
    check_exact(&c, 3, w[3], "v_fma_f32");
    check_exact(&c, 4, w[4], "v_mul_f32 neg/abs");
}
END_TEST

/* IEEE mode min/max: a quiet NaN operand gives the other; sNaN gives a quiet NaN; -0 < +0 */
START_TEST(f32_minmax_nan_rules)
{
    et_case c = { 0 };
    fill3(&c);
    c.body = "v_min_f32 v10, v1, v2\n v_max_f32 v11, v1, v2\n";
    c.nout = 2;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        uint32_t a = c.in[l][0], b = c.in[l][1];
        int sa = isnan32(a) && !(a & 0x400000u), sb = isnan32(b) && !(b & 0x400000u);
        uint32_t wmin, wmax;
        if (sa || sb) {
            ck_assert_msg(isnan32(c.out[l][0]) && isnan32(c.out[l][1]), "sNaN lane %u", l);
            continue;
        }
        if (isnan32(a))
            wmin = wmax = b;
        else if (isnan32(b))
            wmin = wmax = a;
        else if (et_uf(a) == et_uf(b)) {
            wmin = (a >> 31) ? a : b;
            wmax = (a >> 31) ? b : a;
        } else {
            wmin = et_uf(a) < et_uf(b) ? a : b;
            wmax = et_uf(a) > et_uf(b) ? a : b;
        }
        ck_assert_msg(c.out[l][0] == wmin || (isnan32(wmin) && isnan32(c.out[l][0])),
                      "min lane %u: %08x %08x -> %08x want %08x", l, a, b, c.out[l][0], wmin);
        ck_assert_msg(c.out[l][1] == wmax || (isnan32(wmax) && isnan32(c.out[l][1])),
                      "max lane %u: %08x %08x -> %08x want %08x", l, a, b, c.out[l][1], wmax);
    }
}
END_TEST

/* Denormal mode 0 (flush in and out) from rsrc1: denormal inputs act as zero. */
START_TEST(f32_denorm_flush_mode)
{
    et_case c = { 0 };
    c.nin = 2;
    for (unsigned l = 0; l < 32; l++) {
        c.in[l][0] = 0x00000001u + l; /* denormals */
        c.in[l][1] = l & 1 ? 0x3f800000u : 0x00400000u;
    }
    c.rsrc1 = 63u | 0u << 16 | 3u << 18 | 1u << 21 | 1u << 23; /* f32 flush, f16/f64 keep */
    c.body = "v_add_f32 v10, v1, v2\n v_mul_f32 v11, v1, 0x4b000000\n";
    c.nout = 2;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        uint32_t want = l & 1 ? 0x3f800000u : 0;
        ck_assert_uint_eq(c.out[l][0], want);
        ck_assert_uint_eq(c.out[l][1], 0);
    }
    /* the same with denormals kept (clang's default) */
    c.rsrc1 = 0;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++)
        ck_assert_uint_eq(c.out[l][1], et_f(et_uf(c.in[l][0]) * 8388608.0f));
}
END_TEST

/* s_setreg(HW_REG_MODE) changes the rounding mode: round toward zero */
START_TEST(f32_round_mode_setreg)
{
    et_case c = { 0 };
    c.nin = 2;
    for (unsigned l = 0; l < 32; l++) {
        c.in[l][0] = et_f(1.0f);
        c.in[l][1] = et_f(0x1p-24f * (float)(l + 1)); /* inexact sums */
    }
    c.body =
        "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 3\n v_add_f32 v10, v1, v2\n"
        "s_mov_b32 s30, 0\n s_setreg_b32 hwreg(HW_REG_MODE, 0, 2), s30\n v_add_f32 v11, v1, v2\n"
        "s_getreg_b32 s20, hwreg(HW_REG_MODE, 0, 4)\n v_mov_b32 v12, s20\n";
    c.nout = 3;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        double exact = 1.0 + 0x1p-24 * (l + 1);
        float rz = (float)exact;
        if ((double)rz > exact)
            rz = nextafterf(rz, 0.0f);
        ck_assert_msg(c.out[l][0] == et_f(rz), "rtz lane %u: %08x want %08x", l, c.out[l][0],
                      et_f(rz));
        ck_assert_uint_eq(c.out[l][1], et_f((float)exact));
        ck_assert_uint_eq(c.out[l][2], 0); /* the round bits we wrote back; denorm bits 0 */
    }
}
END_TEST

START_TEST(f32_transcendental_accuracy)
{
    et_case c = { 0 };
    c.nin = 1;
    for (unsigned l = 0; l < 32; l++)
        c.in[l][0] = et_f(0.37f + 1.77f * (float)l);
    c.body = "v_exp_f32 v10, v1\n v_log_f32 v11, v1\n v_rcp_f32 v12, v1\n v_rsq_f32 v13, v1\n"
             "v_sqrt_f32 v14, v1\n v_sin_f32 v15, v1\n v_cos_f32 v16, v1\n";
    c.nout = 7;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        double x = et_uf(c.in[l][0]);
        double want[7] = { exp2(x),           log2(x),          1 / x, 1 / sqrt(x), sqrt(x),
                           sin(2 * M_PI * x), cos(2 * M_PI * x) };
        for (int k = 0; k < 7; k++) {
            uint32_t w = et_f((float)want[k]), g = c.out[l][k];
            if (k >= 5) /* sin/cos: absolute error against the revolution input */
                ck_assert_msg(fabs(et_uf(g) - want[k]) < 2e-6, "trig %d lane %u", k, l);
            else
                ck_assert_msg(et_ulp(g, w) <= 1, "op %d lane %u: %08x want %08x", k, l, g, w);
        }
    }
}
END_TEST

START_TEST(cvt_float_int_saturation)
{
    et_case c = { 0 };
    fill3(&c);
    c.body = "v_cvt_i32_f32 v10, v1\n v_cvt_u32_f32 v11, v1\n v_cvt_f16_f32 v12, v1\n"
             "v_cvt_f32_f16 v13, v12\n v_cvt_f32_i32 v14, v2\n v_cvt_f32_u32 v15, v2\n"
             "v_cvt_pk_rtz_f16_f32 v16, v1, v2\n";
    c.nout = 7;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        float a = et_uf(c.in[l][0]);
        uint32_t wi, wu;
        if (a != a)
            wi = wu = 0;
        else {
            wi = a >= 2147483647.0f    ? 0x7fffffffu
                 : a <= -2147483648.0f ? 0x80000000u
                                       : (uint32_t)(int32_t)a;
            wu = a <= 0 ? 0 : a >= 4294967295.0f ? 0xffffffffu : (uint32_t)a;
        }
        ck_assert_msg(c.out[l][0] == wi, "cvt_i32 lane %u %08x: %08x", l, c.in[l][0], c.out[l][0]);
        ck_assert_msg(c.out[l][1] == wu, "cvt_u32 lane %u %08x: %08x", l, c.in[l][0], c.out[l][1]);
        /* f16 round trip: value of the f16 equals the host's round-to-nearest-even */
        _Float16 h = (_Float16)a;
        float back = (float)h;
        uint32_t g = c.out[l][3];
        ck_assert_msg(g == et_f(back) || (back != back && isnan32(g)),
                      "f16 round trip lane %u %08x: %08x want %08x", l, c.in[l][0], g, et_f(back));
        ck_assert_uint_eq(c.out[l][4], et_f((float)(int32_t)c.in[l][1]));
        ck_assert_uint_eq(c.out[l][5], et_f((float)c.in[l][1]));
    }
}
END_TEST

START_TEST(int_shifts_and_carries)
{
    et_case c = { 0 };
    c.nin = 2;
    for (unsigned l = 0; l < 32; l++) {
        c.in[l][0] = l * 3; /* shift amounts up to 93: masked to 5 bits */
        c.in[l][1] = 0x80000001u ^ (l * 0x11111111u);
    }
    c.body = "v_lshlrev_b32 v10, v1, v2\n v_lshrrev_b32 v11, v1, v2\n v_ashrrev_i32 v12, v1, v2\n"
             "v_add_co_u32 v13, vcc_lo, v2, v2\n v_add_co_ci_u32_e32 v14, vcc_lo, 0, v1, vcc_lo\n"
             "v_mul_hi_i32 v15, v2, v1\n v_mul_hi_u32 v16, v2, v2\n v_bfe_i32 v17, v2, v1, 5\n"
             "v_sub_co_u32 v18, s20, v1, v2\n v_cndmask_b32_e64 v19, 0, 1, s20\n";
    c.nout = 10;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        uint32_t s = c.in[l][0], x = c.in[l][1];
        ck_assert_uint_eq(c.out[l][0], x << (s & 31));
        ck_assert_uint_eq(c.out[l][1], x >> (s & 31));
        ck_assert_uint_eq(c.out[l][2], (uint32_t)((int32_t)x >> (s & 31)));
        ck_assert_uint_eq(c.out[l][3], x + x);
        uint32_t carry = (uint32_t)(((uint64_t)x + x) >> 32);
        ck_assert_uint_eq(c.out[l][4], s + carry);
        ck_assert_uint_eq(c.out[l][5], (uint32_t)(((int64_t)(int32_t)x * (int32_t)s) >> 32));
        ck_assert_uint_eq(c.out[l][6], (uint32_t)(((uint64_t)x * x) >> 32));
        uint32_t off = s & 31;
        /* pcode: arithmetic shift of S0.i32, then sign extension from the field width */
        int32_t bf = (int32_t)((uint32_t)((int32_t)x >> off) << 27) >> 27;
        ck_assert_uint_eq(c.out[l][7], (uint32_t)bf);
        ck_assert_uint_eq(c.out[l][8], s - x);
        ck_assert_uint_eq(c.out[l][9], x > s ? 1u : 0u);
    }
}
END_TEST

START_TEST(int64_and_f64)
{
    et_case c = { 0 };
    c.nin = 4;
    for (unsigned l = 0; l < 32; l++) {
        double a = (double)l * 1.25 - 7.5, b = 1.0 / (l + 1);
        uint64_t ua, ub;
        memcpy(&ua, &a, 8);
        memcpy(&ub, &b, 8);
        c.in[l][0] = (uint32_t)ua;
        c.in[l][1] = (uint32_t)(ua >> 32);
        c.in[l][2] = (uint32_t)ub;
        c.in[l][3] = (uint32_t)(ub >> 32);
    }
    c.body = "v_add_f64 v[10:11], v[1:2], v[3:4]\n v_fma_f64 v[12:13], v[1:2], v[3:4], v[1:2]\n"
             "v_lshlrev_b64 v[14:15], 33, v[1:2]\n v_mad_u64_u32 v[16:17], null, v1, v3, v[1:2]\n"
             "v_cmp_lt_f64_e32 vcc_lo, v[1:2], v[3:4]\n v_cndmask_b32_e64 v18, 0, 1, vcc_lo\n";
    c.nout = 9;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        uint64_t ua = c.in[l][0] | (uint64_t)c.in[l][1] << 32,
                 ub = c.in[l][2] | (uint64_t)c.in[l][3] << 32;
        double a, b;
        memcpy(&a, &ua, 8);
        memcpy(&b, &ub, 8);
        double s = a + b, f = fma(a, b, a);
        uint64_t us, uf;
        memcpy(&us, &s, 8);
        memcpy(&uf, &f, 8);
        ck_assert_uint_eq(c.out[l][0] | (uint64_t)c.out[l][1] << 32, us);
        ck_assert_uint_eq(c.out[l][2] | (uint64_t)c.out[l][3] << 32, uf);
        ck_assert_uint_eq(c.out[l][4] | (uint64_t)c.out[l][5] << 32, ua << 33);
        ck_assert_uint_eq(c.out[l][6] | (uint64_t)c.out[l][7] << 32,
                          (uint64_t)c.in[l][0] * c.in[l][2] + ua);
        ck_assert_uint_eq(c.out[l][8], a < b);
    }
}
END_TEST

START_TEST(compares_nan_and_class)
{
    et_case c = { 0 };
    fill3(&c);
    c.body = "v_cmp_lt_f32_e32 vcc_lo, v1, v2\n v_cndmask_b32_e64 v10, 0, 1, vcc_lo\n"
             "v_cmp_nge_f32_e64 s20, v1, v2\n v_cndmask_b32_e64 v11, 0, 1, s20\n"
             "v_cmp_class_f32_e64 s21, v1, 0x3\n v_cndmask_b32_e64 v12, 0, 1, s21\n"
             "v_cmp_u_f32_e64 s22, v1, v2\n v_cndmask_b32_e64 v13, 0, 1, s22\n";
    c.nout = 4;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        float a = et_uf(c.in[l][0]), b = et_uf(c.in[l][1]);
        ck_assert_uint_eq(c.out[l][0], a < b);
        ck_assert_uint_eq(c.out[l][1], !(a >= b));
        ck_assert_uint_eq(c.out[l][2], isnan32(c.in[l][0]));
        ck_assert_uint_eq(c.out[l][3], a != a || b != b);
    }
}
END_TEST

START_TEST(cmpx_and_exec)
{
    et_case c = { 0 };
    c.nin = 1;
    for (unsigned l = 0; l < 32; l++)
        c.in[l][0] = l;
    c.body = "v_mov_b32 v10, 7\n s_mov_b32 s20, exec_lo\n v_cmpx_gt_u32_e32 5, v1\n"
             "v_mov_b32 v10, v1\n s_mov_b32 s21, exec_lo\n s_mov_b32 exec_lo, s20\n"
             "v_mov_b32 v11, s21\n";
    c.nout = 2;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(c.out[l][0], l < 5 ? l : 7);
        ck_assert_uint_eq(c.out[l][1], 0x1fu);
    }
}
END_TEST

START_TEST(f16_and_packed)
{
    et_case c = { 0 };
    c.nin = 2;
    for (unsigned l = 0; l < 32; l++) {
        _Float16 a0 = (_Float16)(l * 0.75f - 3.0f), a1 = (_Float16)(l * 1.5f + 0.25f);
        _Float16 b0 = (_Float16)(2.0f - l * 0.125f), b1 = (_Float16)(0.5f * l);
        uint16_t u[4];
        memcpy(&u[0], &a0, 2);
        memcpy(&u[1], &a1, 2);
        memcpy(&u[2], &b0, 2);
        memcpy(&u[3], &b1, 2);
        c.in[l][0] = u[0] | (uint32_t)u[1] << 16;
        c.in[l][1] = u[2] | (uint32_t)u[3] << 16;
    }
    c.body = "v_pk_add_f16 v10, v1, v2\n v_pk_mul_f16 v11, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]\n"
             "v_pk_fma_f16 v12, v1, v2, v1\n v_mov_b32 v13, 0\n v_add_f16 v13, v1, v2\n"
             "v_pk_add_u16 v14, v1, v2\n";
    c.nout = 5;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        _Float16 a[2], b[2];
        memcpy(a, &c.in[l][0], 4);
        memcpy(b, &c.in[l][1], 4);
        _Float16 w[2];
        uint32_t ww;
        w[0] = a[0] + b[0];
        w[1] = a[1] + b[1];
        memcpy(&ww, w, 4);
        ck_assert_uint_eq(c.out[l][0], ww);
        w[0] = (_Float16)((float)a[1] * (float)b[0]); /* lo: a.hi * b.lo */
        w[1] = (_Float16)((float)a[0] * (float)b[1]); /* hi: a.lo * b.hi */
        memcpy(&ww, w, 4);
        ck_assert_msg(c.out[l][1] == ww, "pk_mul op_sel lane %u: %08x want %08x", l, c.out[l][1],
                      ww);
        w[0] = (_Float16)fmaf((float)a[0], (float)b[0], (float)a[0]);
        w[1] = (_Float16)fmaf((float)a[1], (float)b[1], (float)a[1]);
        memcpy(&ww, w, 4);
        ck_assert_uint_eq(c.out[l][2], ww);
        _Float16 s = a[0] + b[0];
        uint16_t us;
        memcpy(&us, &s, 2);
        ck_assert_uint_eq(c.out[l][3], us); /* high half kept (0) */
        uint32_t lo = (c.in[l][0] + c.in[l][1]) & 0xffff;
        uint32_t hi = ((c.in[l][0] >> 16) + (c.in[l][1] >> 16)) & 0xffff;
        ck_assert_uint_eq(c.out[l][4], lo | hi << 16);
    }
}
END_TEST

START_TEST(dpp_and_lanes)
{
    et_case c = { 0 };
    c.nin = 1;
    for (unsigned l = 0; l < 32; l++)
        c.in[l][0] = 100 + l;
    c.body =
        "v_mov_b32 v10, -1\n v_mov_b32_dpp v10, v1 row_shr:1 row_mask:0xf bank_mask:0xf\n"
        "v_mov_b32 v11, 0\n v_mov_b32_dpp v11, v1 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf\n"
        "v_mov_b32_dpp v12, v1 row_mirror row_mask:0xf bank_mask:0xf\n"
        "v_mov_b32_dpp v13, v1 dpp8:[1,0,3,2,5,4,7,6]\n"
        "v_readlane_b32 s20, v1, 9\n v_mov_b32 v14, s20\n"
        "v_readfirstlane_b32 s21, v1\n v_mov_b32 v15, s21\n"
        "v_mov_b32 v16, 0\n v_writelane_b32 v16, s20, 3\n"
        "v_add_f32_dpp v17, v1, v1 row_shl:2 row_mask:0xf bank_mask:0xf bound_ctrl:1\n";
    c.nout = 8;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        unsigned i = l & 15;
        ck_assert_uint_eq(c.out[l][0], i == 0 ? 0xffffffffu : 100 + l - 1);
        ck_assert_uint_eq(c.out[l][1], 100 + ((l & ~3u) | (3 - (l & 3))));
        ck_assert_uint_eq(c.out[l][2], 100 + (l & ~15u) + 15 - i);
        ck_assert_uint_eq(c.out[l][3], 100 + (l ^ 1));
        ck_assert_uint_eq(c.out[l][4], 109);
        ck_assert_uint_eq(c.out[l][5], 100);
        ck_assert_uint_eq(c.out[l][6], l == 3 ? 109u : 0u);
        /* v_add_f32 on integer bit patterns as floats: src0 from lane+2 (0 past the row) */
        float s0 = i + 2 < 16 ? et_uf(100 + l + 2) : 0.0f;
        ck_assert_uint_eq(c.out[l][7], et_f(s0 + et_uf(100 + l)));
    }
}
END_TEST

START_TEST(vopd_dual_issue_swap)
{
    et_case c = { 0 };
    c.nin = 2;
    for (unsigned l = 0; l < 32; l++) {
        c.in[l][0] = l;
        c.in[l][1] = 1000 + l;
    }
    /* both halves read before either writes: a swap */
    c.body = "v_mov_b32 v10, v1\n v_mov_b32 v11, v2\n"
             "v_dual_mov_b32 v10, v11 :: v_dual_mov_b32 v11, v10\n";
    c.nout = 2;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(c.out[l][0], 1000 + l);
        ck_assert_uint_eq(c.out[l][1], l);
    }
}
END_TEST

START_TEST(wmma_f16_matches_host)
{
    et_case c = { 0 };
    c.nin = 16; /* v1..v8 = A row, v9..v16 = B column (f16 pairs) */
    float A[16][16], B[16][16];
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 16; k++) {
            A[i][k] = (float)((i * 3 + k) % 7) - 3.0f;
            B[k][i] = (float)((k * 5 + i) % 5) * 0.5f;
        }
    for (unsigned l = 0; l < 32; l++)
        for (int v = 0; v < 8; v++) {
            _Float16 a[2] = { (_Float16)A[l % 16][2 * v], (_Float16)A[l % 16][2 * v + 1] };
            _Float16 b[2] = { (_Float16)B[2 * v][l % 16], (_Float16)B[2 * v + 1][l % 16] };
            memcpy(&c.in[l][v], a, 4);
            memcpy(&c.in[l][8 + v], b, 4);
        }
    c.body = "v_mov_b32 v20, v1\n v_mov_b32 v21, v2\n v_mov_b32 v22, v3\n v_mov_b32 v23, v4\n"
             "v_mov_b32 v24, v5\n v_mov_b32 v25, v6\n v_mov_b32 v26, v7\n v_mov_b32 v27, v8\n"
             "v_mov_b32 v30, v9\n v_mov_b32 v31, v10\n v_mov_b32 v32, v11\n v_mov_b32 v33, v12\n"
             "v_mov_b32 v34, v13\n v_mov_b32 v35, v14\n v_mov_b32 v36, v15\n v_mov_b32 v37, v16\n"
             "v_mov_b32 v10, 1.0\n v_mov_b32 v11, 1.0\n v_mov_b32 v12, 1.0\n v_mov_b32 v13, 1.0\n"
             "v_mov_b32 v14, 1.0\n v_mov_b32 v15, 1.0\n v_mov_b32 v16, 1.0\n v_mov_b32 v17, 1.0\n"
             "v_wmma_f32_16x16x16_f16 v[10:17], v[20:27], v[30:37], v[10:17]\n";
    c.nout = 8;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++)
        for (int v = 0; v < 8; v++) {
            int row = 2 * v + (int)(l / 16), col = (int)(l % 16);
            float s = 1.0f;
            for (int k = 0; k < 16; k++)
                s += A[row][k] * B[k][col];
            ck_assert_msg(c.out[l][v] == et_f(s), "D[%d][%d] = %g want %g", row, col,
                          et_uf(c.out[l][v]), s);
        }
}
END_TEST

START_TEST(wave64_exec_and_vcc)
{
    et_case c = { 0 };
    c.lanes = 64;
    c.nin = 1;
    for (unsigned l = 0; l < 64; l++)
        c.in[l][0] = l;
    c.body = "v_cmp_gt_u32_e32 vcc, 40, v1\n v_cndmask_b32_e32 v10, 5, v1, vcc\n"
             "s_mov_b64 s[20:21], vcc\n v_mov_b32 v11, s20\n v_mov_b32 v12, s21\n"
             "v_mbcnt_lo_u32_b32 v13, -1, 0\n v_mbcnt_hi_u32_b32 v13, -1, v13\n";
    c.nout = 4;
    et_ok(&c);
    for (unsigned l = 0; l < 64; l++) {
        ck_assert_uint_eq(c.out[l][0], l < 40 ? l : 5);
        ck_assert_uint_eq(c.out[l][1], 0xffffffffu);
        ck_assert_uint_eq(c.out[l][2], 0xffu);
        ck_assert_uint_eq(c.out[l][3], l);
    }
}
END_TEST

/* VOP3 op_sel on 16-bit ops: high source halves in, high destination half out */
START_TEST(f16_op_sel_halves)
{
    et_case c = { 0 };
    c.nin = 2;
    for (unsigned l = 0; l < 32; l++) {
        _Float16 h[4] = { (_Float16)(l + 0.5f), (_Float16)(2.0f * l), (_Float16)(-1.25f),
                          (_Float16)(l * 0.25f) };
        memcpy(&c.in[l][0], &h[0], 4);
        memcpy(&c.in[l][1], &h[2], 4);
    }
    c.body = "v_mov_b32 v10, 0x12345678\n v_fma_f16 v10, v1, v2, v1 op_sel:[1,1,0,1]\n"
             "v_mov_b32 v11, 0x12345678\n v_add_nc_u16 v11, v1, v2 op_sel:[1,0,0]\n"
             "v_pack_b32_f16 v12, v1, v2 op_sel:[1,0,0]\n";
    c.nout = 3;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        _Float16 a[2], b[2];
        memcpy(a, &c.in[l][0], 4);
        memcpy(b, &c.in[l][1], 4);
        _Float16 f = (_Float16)fmaf((float)a[1], (float)b[1], (float)a[0]);
        uint16_t uf, ua0, ua1, ub0;
        memcpy(&uf, &f, 2);
        memcpy(&ua0, &a[0], 2);
        memcpy(&ua1, &a[1], 2);
        memcpy(&ub0, &b[0], 2);
        ck_assert_uint_eq(c.out[l][0], (uint32_t)uf << 16 | 0x5678u); /* dst high half */
        ck_assert_uint_eq(c.out[l][1], 0x12340000u | ((ua1 + ub0) & 0xffffu));
        ck_assert_uint_eq(c.out[l][2], ua1 | (uint32_t)ub0 << 16);
    }
}
END_TEST

/* f32 -> f16 rounds to nearest even, overflows to inf, keeps f16 denormals */
START_TEST(cvt_f16_rounding)
{
    static const float in[] = { 1.0009765625f /* 1 + 2^-10: exact */,
                                1.00048828125f /* tie */,
                                1.00146484375f /* tie, odd */,
                                65504.0f,
                                65520.0f,
                                1e-7f,
                                5.9604645e-08f,
                                -2.9802322e-08f /* half of the smallest */,
                                3.0e-8f,
                                -70000.0f };
    et_case c = { 0 };
    c.nin = 1;
    for (unsigned l = 0; l < 32; l++)
        c.in[l][0] = et_f(in[l % 10]);
    c.body = "v_mov_b32 v10, 0\n v_cvt_f16_f32 v10, v1\n";
    c.nout = 1;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        _Float16 h = (_Float16)in[l % 10]; /* the host rounds to nearest even */
        uint16_t u;
        memcpy(&u, &h, 2);
        ck_assert_msg(c.out[l][0] == u, "%a -> %04x want %04x", (double)in[l % 10], c.out[l][0], u);
    }
}
END_TEST

START_TEST(permlane16_select)
{
    et_case c = { 0 };
    c.nin = 1;
    for (unsigned l = 0; l < 32; l++)
        c.in[l][0] = 1000 + l;
    c.body = "s_mov_b32 s20, 0x01234567\n s_mov_b32 s21, 0x89abcdef\n"
             "v_permlane16_b32 v10, v1, s20, s21\n v_permlanex16_b32 v11, v1, s20, s21\n";
    c.nout = 2;
    et_ok(&c);
    uint64_t sel = 0x89abcdef01234567ull;
    for (unsigned l = 0; l < 32; l++) {
        unsigned s = (unsigned)(sel >> (4 * (l % 16))) & 15;
        ck_assert_uint_eq(c.out[l][0], 1000 + (l & 16) + s);
        ck_assert_uint_eq(c.out[l][1], 1000 + ((l & 16) ^ 16) + s);
    }
}
END_TEST

/* v_trig_preop_f64 segment 0 is 2/pi rounded down to 53 bits; the segments sum to 2/pi */
START_TEST(trig_preop_segments)
{
    et_case c = { 0 };
    c.body = "v_mov_b32 v20, 0\n v_mov_b32 v21, 0x3ff00000\n"
             "v_trig_preop_f64 v[10:11], v[20:21], 0\n v_trig_preop_f64 v[12:13], v[20:21], 1\n";
    c.nout = 4;
    et_ok(&c);
    uint64_t u0 = c.out[0][0] | (uint64_t)c.out[0][1] << 32;
    uint64_t u1 = c.out[0][2] | (uint64_t)c.out[0][3] << 32;
    double d0, d1;
    memcpy(&d0, &u0, 8);
    memcpy(&d1, &u1, 8);
    ck_assert_uint_eq(u0, 0x3fe45f306dc9c882ull); /* 0.6366197723675813 (truncated) */
    long double sum = (long double)d0 + (long double)d1;
    ck_assert(fabsl(sum - 0.636619772367581343075535053490057448L) < 1e-19L);
    ck_assert(d1 > 0 && d1 < 1e-15);
}
END_TEST

/* Integer dot products (signed/unsigned selection by neg bits) and v_fma_mix_f32 */
START_TEST(dot_and_fma_mix)
{
    et_case c = { 0 };
    c.nin = 3;
    for (unsigned l = 0; l < 32; l++) {
        c.in[l][0] = 0x80ff7f01u ^ (l * 0x01010101u);
        c.in[l][1] = 0x7f80fe02u + l * 0x00030005u;
        _Float16 h[2] = { (_Float16)(0.5f * l), (_Float16)(-1.5f) };
        memcpy(&c.in[l][2], h, 4);
    }
    c.body = "v_dot4_u32_u8 v10, v1, v2, 7\n v_dot4_i32_iu8 v11, v1, v2, 7 neg_lo:[1,1,0]\n"
             "v_dot4_i32_iu8 v12, v1, v2, 0 neg_lo:[0,1,0]\n"
             "v_fma_mix_f32 v13, v3, v3, 1.0 op_sel:[1,0,0] op_sel_hi:[1,1,0]\n";
    c.nout = 4;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        uint32_t a = c.in[l][0], b = c.in[l][1];
        int64_t su = 7, ss = 7, us = 0;
        for (int k = 0; k < 4; k++) {
            uint32_t x = (a >> (8 * k)) & 255, y = (b >> (8 * k)) & 255;
            su += (int64_t)x * y;
            ss += (int64_t)(int8_t)x * (int8_t)y;
            us += (int64_t)x * (int8_t)y;
        }
        ck_assert_uint_eq(c.out[l][0], (uint32_t)su);
        ck_assert_uint_eq(c.out[l][1], (uint32_t)ss);
        ck_assert_uint_eq(c.out[l][2], (uint32_t)us);
        _Float16 h[2];
        memcpy(h, &c.in[l][2], 4);
        ck_assert_uint_eq(c.out[l][3], et_f(fmaf((float)h[1], (float)h[0], 1.0f)));
    }
}
END_TEST

/*
 * The VALU fast paths (plain instructions: vector loops, results straight into the VGPR;
 * docs/emu.md "Execution") give the same bits as the general path, which the identity DPP
 * select forces: NaN payloads (two NaN sources), -0 / +0 in min/max, sNaN, large
 * unsigned conversions, per-lane shift amounts, a destination that is also a source ("*":
 * v1 op= v2), and partial EXEC (lanes outside it keep their value).  Up to 8 ops: fast
 * results in v10.., general ones in v18...
 */
static void fast_vs_general(const char *const *ops, unsigned nops, const char *exec, int nans)
{
    char body[4096];
    size_t k = 0;
    for (unsigned i = 0; i < nops; i++) /* each starts as v3 (fmac reads it; EXEC keeps it) */
        k += (size_t)snprintf(body + k, sizeof body - k, "v_mov_b32 v%u, v3\nv_mov_b32 v%u, v3\n",
                              10 + i, 18 + i);
    k += (size_t)snprintf(body + k, sizeof body - k, "%s", exec);
    for (unsigned i = 0; i < nops; i++) {
        const char *op = ops[i] + (ops[i][0] == '*');
        unsigned f = 10 + i, g = 18 + i;
        const char *dpp = "quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf";
        if (ops[i][0] == '*') /* in place: the destination holds v1 first */
            k += (size_t)snprintf(body + k, sizeof body - k,
                                  "v_mov_b32 v%u, v1\nv_mov_b32 v%u, v1\n%s v%u, v%u, v2\n"
                                  "%s_dpp v%u, v%u, v2 %s\n",
                                  f, g, op, f, f, op, g, g, dpp);
        else if (strstr(op, "cvt"))
            k += (size_t)snprintf(body + k, sizeof body - k, "%s v%u, v1\n%s_dpp v%u, v1 %s\n", op,
                                  f, op, g, dpp);
        else
            k += (size_t)snprintf(body + k, sizeof body - k,
                                  "%s v%u, v1, v2\n%s_dpp v%u, v1, v2 %s\n", op, f, op, g, dpp);
    }
    snprintf(body + k, sizeof body - k, "s_mov_b32 exec_lo, -1\n");
    et_case c = { 0 };
    c.nin = 3;
    c.nout = 16;
    for (unsigned l = 0; l < 32; l++) {
        /* two NaNs both ways, an sNaN, +0/-0 both ways, big unsigned / negative values */
        static const uint32_t a8[] = { 0x7fc00001, 0xffc12345, 0x7f812345, 0x00000000,
                                       0x80000000, 0xfffffff0, 0x9abcdef0, 0x00000021 };
        static const uint32_t b8[] = { 0xffc12345, 0x7fc00001, 0x3f800000, 0x80000000,
                                       0x00000000, 0x00000003, 0x00000025, 0x80000001 };
        c.in[l][0] = l < 8 ? a8[l] : edge32[l % NEDGE];
        c.in[l][1] = l < 8 ? b8[l] : edge32[(l * 7 + 3) % NEDGE];
        c.in[l][2] = edge32[(l * 13 + 5) % NEDGE];
        /* without NaN and infinite inputs no result is a NaN, so the fast paths run (a NaN
           in any lane hands the whole instruction to the general path) */
        for (int i = 0; i < 3 && !nans; i++)
            if ((c.in[l][i] & 0x7f800000u) == 0x7f800000u)
                c.in[l][i] = 0x3f800000u + l;
    }
    c.body = body;
    et_ok(&c);
    for (unsigned i = 0; i < nops; i++)
        for (unsigned l = 0; l < 32; l++)
            ck_assert_msg(c.out[l][i] == c.out[l][8 + i],
                          "%s (%s%s) lane %u: in %08x %08x %08x: fast %08x general %08x", ops[i],
                          exec, nans ? " NaNs" : "", l, c.in[l][0], c.in[l][1], c.in[l][2],
                          c.out[l][i], c.out[l][8 + i]);
}

START_TEST(fast_paths_match_general)
{
    static const char *f32[] = { "v_add_f32", "v_sub_f32",  "v_mul_f32",  "v_min_f32",
                                 "v_max_f32", "v_fmac_f32", "*v_add_f32", "v_cvt_f32_u32" };
    static const char *u32[] = { "v_add_nc_u32", "v_lshlrev_b32", "v_ashrrev_i32", "v_max_i32",
                                 "v_xor_b32",    "*v_sub_nc_u32", "v_cvt_f32_i32" };
    for (int e = 0; e < 4; e++) {
        const char *exec = e & 1 ? "s_mov_b32 exec_lo, 0x5a5a0ff0\n" : "";
        fast_vs_general(f32, 8, exec, e >> 1);
        fast_vs_general(u32, 7, exec, e >> 1);
    }
}
END_TEST

START_TEST(cndmask_fast_path_matches_general)
{
    /* e32 (VCC) and e64 (an SGPR, constants) forms on the fast path against the same with
       an identity DPP select (the general path), with every lane and with part of EXEC */
    for (int e = 0; e < 2; e++) {
        char body[1024];
        snprintf(body, sizeof body,
                 "s_mov_b32 vcc_lo, 0x9c3a5f0e\n s_mov_b32 s20, 0x0ff0a55a\n"
                 "v_mov_b32 v10, v3\n v_mov_b32 v11, v3\n v_mov_b32 v12, v3\n"
                 "v_mov_b32 v13, v3\n v_mov_b32 v14, v3\n v_mov_b32 v15, v3\n%s"
                 "v_cndmask_b32 v10, v1, v2, vcc_lo\n"
                 "v_cndmask_b32_dpp v11, v1, v2, vcc_lo quad_perm:[0,1,2,3] row_mask:0xf "
                 "bank_mask:0xf\n"
                 "v_cndmask_b32_e64 v12, v1, 0x1234, s20\n"
                 "v_mov_b32 v16, 0x1234\n"
                 "v_cndmask_b32_dpp v13, v1, v16, vcc_lo quad_perm:[0,1,2,3] row_mask:0xf "
                 "bank_mask:0xf\n"
                 "v_cndmask_b32_e64 v14, s20, v2, vcc_lo\n"
                 "v_cndmask_b32 v15, v1, v15, vcc_lo\n"
                 "s_mov_b32 exec_lo, -1\n",
                 e ? "s_mov_b32 exec_lo, 0x5a5a0ff0\n" : "");
        et_case c = { 0 };
        c.nin = 3;
        c.nout = 6;
        for (unsigned l = 0; l < 32; l++) {
            c.in[l][0] = 0x1000u + l;
            c.in[l][1] = 0x2000u + 3 * l;
            c.in[l][2] = 0x3000u + 5 * l;
        }
        c.body = body;
        et_ok(&c);
        for (unsigned l = 0; l < 32; l++) {
            bool on = !e || ((0x5a5a0ff0u >> l) & 1), v = (0x9c3a5f0eu >> l) & 1,
                 s = (0x0ff0a55au >> l) & 1;
            uint32_t keep = c.in[l][2];
            ck_assert_uint_eq(c.out[l][0], on ? (v ? c.in[l][1] : c.in[l][0]) : keep);
            ck_assert_uint_eq(c.out[l][1], c.out[l][0]);
            ck_assert_uint_eq(c.out[l][2], on ? (s ? 0x1234u : c.in[l][0]) : keep);
            ck_assert_uint_eq(c.out[l][3], on ? (v ? 0x1234u : c.in[l][0]) : keep);
            ck_assert_uint_eq(c.out[l][4], on ? (v ? c.in[l][1] : 0x0ff0a55au) : keep);
            ck_assert_uint_eq(c.out[l][5], on && !v ? c.in[l][0] : keep);
        }
    }
}
END_TEST

Suite *et_suite_valu(void)
{
    Suite *s = suite_create("emu_valu");
    TCase *t = tcase_create("valu");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, f32_arith_edges);
    tcase_add_test(t, f32_minmax_nan_rules);
    tcase_add_test(t, f32_denorm_flush_mode);
    tcase_add_test(t, f32_round_mode_setreg);
    tcase_add_test(t, f32_transcendental_accuracy);
    tcase_add_test(t, cvt_float_int_saturation);
    tcase_add_test(t, int_shifts_and_carries);
    tcase_add_test(t, int64_and_f64);
    tcase_add_test(t, compares_nan_and_class);
    tcase_add_test(t, cmpx_and_exec);
    tcase_add_test(t, f16_and_packed);
    tcase_add_test(t, dpp_and_lanes);
    tcase_add_test(t, vopd_dual_issue_swap);
    tcase_add_test(t, wmma_f16_matches_host);
    tcase_add_test(t, wave64_exec_and_vcc);
    tcase_add_test(t, f16_op_sel_halves);
    tcase_add_test(t, cvt_f16_rounding);
    tcase_add_test(t, permlane16_select);
    tcase_add_test(t, trig_preop_segments);
    tcase_add_test(t, dot_and_fma_mix);
    tcase_add_test(t, fast_paths_match_general);
    tcase_add_test(t, cndmask_fast_path_matches_general);
    suite_add_tcase(s, t);
    return s;
}
