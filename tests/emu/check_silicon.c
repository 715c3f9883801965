/*
 * tests/emu/check_silicon.c — instructions whose result on RDNA3 silicon
 * differs from the ISA guide's pseudocode (or that the guide leaves open).
 * Each test names its source of truth: a test of tinygrad's test/amd/hw/
 * (written for and validated on a real gfx1100; "hw:" below), AMD's RDNA3 ISA
 * guide, or LLVM's AMDGPU back end.  docs/emu.md, "Where rdx follows silicon",
 * lists them.
 */
#include <math.h>
#include <string.h>

#include "tests/emu/emu_test.h"

/* rsrc1 with IEEE mode off (clang's default otherwise: DX10 clamp, no flushing) */
#define RSRC1_NO_IEEE (63u | 3u << 16 | 3u << 18 | 1u << 21)

static uint64_t out64(const et_case *c, unsigned l, unsigned slot)
{
    return c->out[l][slot] | (uint64_t)c->out[l][slot + 1] << 32;
}

static void put64(et_case *c, unsigned l, unsigned slot, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    c->in[l][slot] = (uint32_t)u;
    c->in[l][slot + 1] = (uint32_t)(u >> 32);
}

/*
 * v_div_scale_f32 (hw: test_vop3.py TestDivScale): VCC is set with the NaN of a zero
 * operand, for 2^-126 / 1.0 (the numerator scaled by 2^64: the exponents say the quotient
 * may be denormal) and when 1/S1 is an f32 denormal with a denormal quotient (1/2^127 leaves
 * S0 = 1.0); a normal quotient sets nothing.  The denominator rows are the rules that keep
 * LLVM's fdiv sequence exact (fdiv_sequence_f32).
 */
START_TEST(div_scale_f32)
{
    static const float in[][3] = {
        { 1.0f, 0.0f, 1.0f },                /* zero denominator: NaN, VCC */
        { 0.0f, 1.0f, 0.0f },                /* zero numerator: NaN, VCC */
        { 0x1p-126f, 1.0f, 0x1p-126f },      /* 2^-126 / 1: numerator x 2^64, VCC */
        { 1.0f, 0x1p127f, 1.0f },            /* 1 / 2^127: 1.0, VCC */
        { 1.0f, 4.0f, 1.0f },                /* nothing to do */
        { 1.0f, 1.0f, 0x1.fffffep127f },     /* N/D near FLT_MAX: denominator x 2^64 */
        { 0x1p127f, 0x1p127f, 1.0f },        /* 1 / 2^127, the denominator: x 2^-64 */
        { 0x1p-126f, 0x1p-126f, 0x1p-126f }, /* tiny numerator, normal quotient: x 2^64 */
        { 1.0f, 1.0f, 0x1p-126f },           /* 2^-126 / 1, the denominator: unscaled */
    };
    static const uint32_t want_d[] = { 0x7fc00000u, 0x7fc00000u, 0x20800000u,
                                       0x3f800000u, 0x3f800000u, 0x5f800000u,
                                       0x5f000000u, 0x20800000u, 0x3f800000u };
    static const uint32_t want_vcc[] = { 1, 1, 1, 1, 0, 1, 1, 0, 1 };
    et_case c = { 0 };
    c.nin = 3;
    c.nout = 2;
    c.body = "v_div_scale_f32 v10, vcc_lo, v1, v2, v3\n v_cndmask_b32 v11, 0, 1, vcc_lo\n";
    for (unsigned l = 0; l < 9; l++)
        for (unsigned i = 0; i < 3; i++)
            c.in[l][i] = et_f(in[l][i]);
    et_ok(&c);
    for (unsigned l = 0; l < 9; l++) {
        uint32_t d = c.out[l][0];
        if (want_d[l] == 0x7fc00000u)
            ck_assert_msg(isnan(et_uf(d)), "lane %u: 0x%08x, want NaN", l, d);
        else
            ck_assert_msg(d == want_d[l], "lane %u: 0x%08x, want 0x%08x", l, d, want_d[l]);
        ck_assert_msg(c.out[l][1] == want_vcc[l], "lane %u: VCC %u, want %u", l, c.out[l][1],
                      want_vcc[l]);
    }
}
END_TEST

/* v_div_scale_f64 (hw: test_vop3.py TestDivScaleF64): a zero denominator sets its lane's VCC. */
START_TEST(div_scale_f64)
{
    et_case c = { 0 };
    c.nin = 4;
    c.nout = 3;
    c.body = "v_div_scale_f64 v[10:11], vcc_lo, v[1:2], v[3:4], v[1:2]\n"
             "v_cndmask_b32 v12, 0, 1, vcc_lo\n";
    for (unsigned l = 0; l < 32; l++) {
        put64(&c, l, 0, 2.0);
        put64(&c, l, 2, l & 1 ? 0.0 : 2.0);
    }
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        double d;
        uint64_t u = out64(&c, l, 0);
        memcpy(&d, &u, 8);
        ck_assert_uint_eq(c.out[l][2], l & 1);
        if (l & 1)
            ck_assert(isnan(d));
        else
            ck_assert(d == 2.0);
    }
}
END_TEST

/*
 * LLVM's correctly rounded f32 division (clang -cl-fp32-correctly-rounded-divide-sqrt for
 * gfx1100: two v_div_scale, v_rcp, the fma chain, v_div_fmas, v_div_fixup) on operands
 * that take the scaled paths: silicon's scale/VCC rules must keep it exact.
 */
START_TEST(fdiv_sequence_f32)
{
    static const float pairs[][2] = {
        { 0x1p-126f, 1.0f },
        { 1.0f, 0x1p127f },
        { 1e-38f, 3.0f },
        { 3e38f, 1e-3f },
        { 1.0f, 3.0f },
        { 0x1p-140f, 7.0f },
        { 5.0f, 0x1.8p126f },
        { 1e-30f, 1e10f },
        { 0x1p-149f, 0.5f },
        { 3e38f, 0x1p-100f },
        { -7.0f, 0x1p-126f },
        { 1.0f, 0.0f },
        { 0.0f, 5.0f },
        { 0x1.fffffep127f, 0.5f },
        { 2.0f, 0x1p-149f },
        { 1e-20f, 1e20f },
        { 0x1p-120f, 0x1p-125f },
        { 1e-38f, 1.1e-38f },
        { 0x1p-140f, 0x1p-139f },
        { -0x1.fffffep-106f, 0x1p-105f },
        { 0x1p-110f, 0x1.8p-110f },
        { 1.0f, 3e38f },
        { 1e30f, 3e38f },
        { -1e-10f, 2.5e38f },
        { 3e38f, 3e38f },
    };
    unsigned n = sizeof pairs / sizeof pairs[0];
    et_case c = { 0 };
    c.nin = 2;
    c.nout = 1;
    c.body = "v_div_scale_f32 v4, null, v2, v2, v1\n"
             "v_div_scale_f32 v7, vcc_lo, v1, v2, v1\n"
             "v_rcp_f32 v5, v4\n"
             "v_fma_f32 v6, -v4, v5, 1.0\n"
             "v_fmac_f32 v5, v6, v5\n"
             "v_mul_f32 v6, v7, v5\n"
             "v_fma_f32 v8, -v4, v6, v7\n"
             "v_fmac_f32 v6, v8, v5\n"
             "v_fma_f32 v4, -v4, v6, v7\n"
             "v_div_fmas_f32 v4, v4, v5, v6\n"
             "v_div_fixup_f32 v10, v4, v2, v1\n";
    for (unsigned l = 0; l < n; l++) {
        c.in[l][0] = et_f(pairs[l][0]);
        c.in[l][1] = et_f(pairs[l][1]);
    }
    et_ok(&c);
    for (unsigned l = 0; l < n; l++) {
        volatile float a = pairs[l][0], b = pairs[l][1];
        float q = a / b;
        ck_assert_msg(c.out[l][0] == et_f(q), "%a / %a: 0x%08x, want 0x%08x (%a)", (double)a,
                      (double)b, c.out[l][0], et_f(q), (double)q);
    }
}
END_TEST

/* v_div_fmas_f32 with VCC scales by 2^64 when exponent(S2) > 127, else by 2^-64 (hw:
   test_vop3.py TestDivFmas; the guide's pcode says 2^32); lanes without VCC: plain fma. */
START_TEST(div_fmas_scale)
{
    et_case c = { 0 };
    c.nin = 3;
    c.nout = 1;
    c.body = "s_mov_b32 vcc_lo, 0x7\n v_div_fmas_f32 v10, v1, v2, v3\n";
    static const float in[][3] = {
        { 1.0f, 1.0f, 2.0f }, { 2.0f, 3.0f, 1.0f }, { 1.0f, 1.0f, 1.0f }, { 1.0f, 1.0f, 1.0f }
    };
    static const float want[] = { 0x1.8p65f, 0x1.cp-62f, 0x1p-63f, 2.0f };
    for (unsigned l = 0; l < 4; l++)
        for (unsigned i = 0; i < 3; i++)
            c.in[l][i] = et_f(in[l][i]);
    et_ok(&c);
    for (unsigned l = 0; l < 4; l++)
        ck_assert_msg(c.out[l][0] == et_f(want[l]), "lane %u: %a", l, (double)et_uf(c.out[l][0]));
}
END_TEST

/* v_div_fixup_f32 (hw: test_vop3.py TestDivFixup nan_estimate): a NaN quotient -> +-inf. */
START_TEST(div_fixup_nan_estimate)
{
    et_case c = { 0 };
    c.nin = 3;
    c.nout = 1;
    c.body = "v_div_fixup_f32 v10, v1, v2, v3\n";
    c.in[0][0] = c.in[1][0] = 0x7fc00000u;
    c.in[0][1] = et_f(1.0f);
    c.in[1][1] = et_f(-1.0f);
    c.in[0][2] = c.in[1][2] = et_f(1.0f);
    et_ok(&c);
    ck_assert_uint_eq(c.out[0][0], 0x7f800000u);
    ck_assert_uint_eq(c.out[1][0], 0xff800000u);
}
END_TEST

/* v_mad_u16 / v_mad_i16 clamp saturates (hw: test_vop3.py TestVOP3ClampMAD). */
START_TEST(mad16_clamp)
{
    et_case c = { 0 };
    c.nin = 3;
    c.nout = 3;
    c.body = "v_mad_u16 v10, v1, v2, v3 clamp\n v_mad_u16 v11, v1, v2, v3\n"
             "v_mad_i16 v12, v1, v2, v3 clamp\n";
    static const uint32_t in[][3] = { { 0xffff, 2, 0 },
                                      { 0x8000, 2, 0x1000 },
                                      { 100, 100, 50 },
                                      { 0x7fff, 2, 0 },
                                      { 0x8000, 2, 0xffff } };
    static const uint32_t want[][3] = { { 0xffff, 0xfffe, 0xfffe },
                                        { 0xffff, 0x1000, 0x8000 },
                                        { 10050, 10050, 10050 },
                                        { 0xfffe, 0xfffe, 0x7fff },
                                        { 0xffff, 0xffff, 0x8000 } };
    for (unsigned l = 0; l < 5; l++)
        memcpy(c.in[l], in[l], sizeof in[l]);
    et_ok(&c);
    for (unsigned l = 0; l < 5; l++)
        for (unsigned i = 0; i < 3; i++)
            ck_assert_msg((c.out[l][i] & 0xffff) == want[l][i], "lane %u v%u: 0x%04x want 0x%04x",
                          l, 10 + i, c.out[l][i] & 0xffff, want[l][i]);
}
END_TEST

/* v_pk_mad_u16 / v_pk_mad_i16 clamp saturates each half, as v_mad_u16/i16 do on silicon
   (the same clamp rule; hw: test_vop3.py TestVOP3ClampMAD for the unpacked ops). */
START_TEST(pk_mad16_clamp)
{
    et_case c = { 0 };
    c.nin = 3;
    c.nout = 3;
    c.body = "v_pk_mad_u16 v10, v1, v2, v3 clamp\n v_pk_mad_u16 v11, v1, v2, v3\n"
             "v_pk_mad_i16 v12, v1, v2, v3 clamp\n";
    c.in[0][0] = 0x8000ffffu; /* hi 0x8000, lo 0xffff */
    c.in[0][1] = 0x00020002u;
    c.in[0][2] = 0x10000000u;
    c.in[1][0] = 0x00640064u; /* 100 */
    c.in[1][1] = 0x00640064u;
    c.in[1][2] = 0x00320032u; /* 50 */
    et_ok(&c);
    ck_assert_uint_eq(c.out[0][0], 0xffffffffu);
    ck_assert_uint_eq(c.out[0][1], 0x1000fffeu);
    ck_assert_uint_eq(c.out[0][2], 0x8000fffeu); /* -32768*2+4096 -> -32768; -1*2 -> -2 */
    ck_assert_uint_eq(c.out[1][0], 10050u * 0x10001u);
    ck_assert_uint_eq(c.out[1][2], 10050u * 0x10001u);
}
END_TEST

/*
 * Inline constants of packed and 16-bit operands (hw: test_vop3p.py
 * test_v_pk_add_f16_with_inline_constant, ..._mul_f16_..., test_v_pk_add_u16_float_inline_
 * const_opsel; LLVM AMDGPUBaseInfo getInlineEncodingV216): an f16 float constant is the
 * f16 in bits 15:0 and 0 above (op_sel_hi reads 0), an integer one the sign-extended 32-bit
 * value, a float one of an integer op the f32 bits.
 */
START_TEST(packed_inline_constants)
{
    et_case c = { 0 };
    c.nin = 3;
    c.nout = 6;
    c.body = "v_pk_add_f16 v10, v1, 1.0\n"
             "v_pk_mul_f16 v11, v2, 2.0\n"
             "v_pk_add_f16 v12, v1, 1.0 op_sel_hi:[1,0]\n"
             "v_pk_add_u16 v13, v3, 2.0\n"
             "v_pk_add_u16 v14, v3, 1\n"
             "v_pk_add_u16 v15, v3, -1\n";
    c.in[0][0] = 0x3c003c00u;
    c.in[0][1] = 0x44004200u;
    c.in[0][2] = 0x00030005u;
    et_ok(&c);
    ck_assert_uint_eq(c.out[0][0], 0x3c004000u);
    ck_assert_uint_eq(c.out[0][1], 0x00004600u);
    ck_assert_uint_eq(c.out[0][2], 0x40004000u);
    ck_assert_uint_eq(c.out[0][3], 0x40030005u);
    ck_assert_uint_eq(c.out[0][4], 0x00030006u);
    ck_assert_uint_eq(c.out[0][5], 0x00020004u);
}
END_TEST

/*
 * A float constant of a 16-bit integer op is the f32 value, and VOP3 op_sel picks its
 * half (LLVM getInlineEncodingV216; llvm-mc prints these as written): 2.0 = 0x40000000
 * adds 0, or 0x4000 with op_sel; an f16 op's literal reads its bits 31:16 under op_sel.
 */
START_TEST(opsel_constants)
{
    et_case c = { 0 };
    c.nin = 1;
    c.nout = 3;
    c.body = "v_add_nc_u16 v10, v1, 2.0\n"
             "v_add_nc_u16 v11, v1, 2.0 op_sel:[0,1,0]\n"
             ".long 0xd703100c, 0x0001ff01, 0x12340005\n"; /* v12 = v1 + lit op_sel:[0,1,0] */
    c.in[0][0] = 3;
    et_ok(&c);
    ck_assert_uint_eq(c.out[0][0] & 0xffff, 3);
    ck_assert_uint_eq(c.out[0][1] & 0xffff, 0x4003);
    ck_assert_uint_eq(c.out[0][2] & 0xffff, 0x1237);
}
END_TEST

/*
 * omod is ignored while MODE.IEEE is set (hw: test_vop3.py test_omod_ignored; LLVM
 * SIFoldOperands folds omod only without IEEE mode), and applies without it.
 */
START_TEST(omod_ieee)
{
    const char *body = "v_add_f32_e64 v10, v1, 1.0 mul:2\n"
                       "v_add_f16_e64 v11, v2, 1.0 div:2\n"
                       "v_add_f64 v[12:13], v[3:4], 1.0 mul:4\n";
    for (int ieee = 0; ieee < 2; ieee++) {
        et_case c = { 0 };
        c.nin = 4;
        c.nout = 4;
        c.body = body;
        c.rsrc1 = ieee ? 0 : RSRC1_NO_IEEE;
        c.in[0][0] = et_f(3.0f);
        c.in[0][1] = 0x4200; /* f16 3.0 */
        put64(&c, 0, 2, 3.0);
        et_ok(&c);
        ck_assert_uint_eq(c.out[0][0], et_f(ieee ? 4.0f : 8.0f));
        ck_assert_uint_eq(c.out[0][1] & 0xffff, ieee ? 0x4400u : 0x4000u); /* 4.0 / 2.0 */
        double d;
        uint64_t u = out64(&c, 0, 2);
        memcpy(&d, &u, 8);
        ck_assert(d == (ieee ? 4.0 : 16.0));
    }
}
END_TEST

/* v_fract of a NaN is a NaN (hw: test_vop1.py TestFractEdgeCases; the ISA pcode's S0 - floor(S0)).
 */
START_TEST(fract_nan)
{
    et_case c = { 0 };
    c.nin = 4;
    c.nout = 4;
    c.body = "v_fract_f32 v10, v1\n v_fract_f16 v11, v2\n v_fract_f64 v[12:13], v[3:4]\n";
    c.in[0][0] = 0x7fc00000u;
    c.in[0][1] = 0x7e00u;
    c.in[0][2] = 0;
    c.in[0][3] = 0x7ff80000u;
    et_ok(&c);
    ck_assert(isnan(et_uf(c.out[0][0])));
    ck_assert_uint_eq(c.out[0][1] & 0x7e00u, 0x7e00u);
    ck_assert_uint_eq(c.out[0][3] & 0x7ff80000u, 0x7ff80000u);
}
END_TEST

/* v_permlane64_b32 does nothing in wave32 (hw: test_vop1.py TestPermlane64; the pcode's
   "if WAVE32 then s_nop"), and swaps the halves of a wave64. */
START_TEST(permlane64_wave32)
{
    for (unsigned lanes = 32; lanes <= 64; lanes += 32) {
        et_case c = { 0 };
        c.lanes = lanes;
        c.nin = 2;
        c.nout = 1;
        c.body = "v_mov_b32 v10, v2\n v_permlane64_b32 v10, v1\n";
        for (unsigned l = 0; l < lanes; l++) {
            c.in[l][0] = 100 + l;
            c.in[l][1] = 0x12345678u;
        }
        et_ok(&c);
        for (unsigned l = 0; l < lanes; l++)
            ck_assert_uint_eq(c.out[l][0], lanes == 32 ? 0x12345678u : 100 + (l ^ 32));
    }
}
END_TEST

/* DPP control 0x142 (gfx9's row_bcast:15, reserved since gfx10) reads lane 0 of each row of
   16 (hw: test_dpp.py TestVOPCDPP16 test_row_bcast15_materializes_vcc). */
START_TEST(dpp_row_bcast15)
{
    for (unsigned lanes = 32; lanes <= 64; lanes += 32) {
        et_case c = { 0 };
        c.lanes = lanes;
        c.nin = 1;
        c.nout = 1;
        /* v_mov_b32_dpp v10, v1 with dpp_ctrl 0x142, row/bank masks 0xf (llvm-mc rejects it) */
        c.body = ".long 0x7e1402fa, 0xff014201\n";
        for (unsigned l = 0; l < lanes; l++)
            c.in[l][0] = 100 + l;
        et_ok(&c);
        for (unsigned l = 0; l < lanes; l++)
            ck_assert_uint_eq(c.out[l][0], 100 + (l & ~15u));
    }
}
END_TEST

/* v_fmaak_f16 / v_fmamk_f16 (hw: test_vop2.py test_v_fmaak_f16_basic; the ISA guide). */
START_TEST(fmak_f16)
{
    et_case c = { 0 };
    c.nin = 2;
    c.nout = 2;
    c.body = "v_fmaak_f16 v10, v1, v2, 0x3c00\n v_fmamk_f16 v11, v1, 0x3c00, v2\n";
    c.in[0][0] = 0x4000; /* 2.0 */
    c.in[0][1] = 0x4200; /* 3.0 */
    et_ok(&c);
    ck_assert_uint_eq(c.out[0][0] & 0xffff, 0x4700); /* 2 * 3 + 1 */
    ck_assert_uint_eq(c.out[0][1] & 0xffff, 0x4500); /* 2 * 1 + 3 */
}
END_TEST

/*
 * VINTERP (the ISA guide's pseudocode: S0 and S2 of p10 from quad lanes 1 and 0, S0 of p2
 * from quad lane 2; hw: test_vinterp.py, where S1 is an SGPR, which LLVM's assembler
 * refuses but silicon reads).
 */
START_TEST(vinterp)
{
    et_case c = { 0 };
    c.nin = 3;
    c.nout = 5;
    c.sgpr_in[0] = et_f(2.0f);
    c.body = "v_interp_p10_f32 v10, v1, v2, v3\n"
             "v_interp_p2_f32 v11, v1, v2, v3\n"
             "v_cvt_f16_f32 v5, v1\n v_cvt_f16_f32 v6, v3\n"
             "v_interp_p10_f16_f32 v12, v5, v2, v6\n"
             "v_interp_p2_f16_f32 v13, v5, v2, v3\n"
             ".long 0xcd00000e, 0x040c0901\n"; /* v_interp_p10_f32 v14, v1, s4, v3 */
    for (unsigned l = 0; l < 32; l++) {
        c.in[l][0] = et_f(100.0f + (float)l);
        c.in[l][1] = et_f(0.5f * (float)(l % 5));
        c.in[l][2] = et_f(10.0f + (float)l);
    }
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        unsigned q = l & ~3u;
        float s1 = 0.5f * (float)(l % 5);
        float p10 = (100.0f + (float)(q + 1)) * s1 + (10.0f + (float)q);
        float p2 = (100.0f + (float)(q + 2)) * s1 + (10.0f + (float)l);
        ck_assert_msg(c.out[l][0] == et_f(p10), "lane %u p10 %g want %g", l,
                      (double)et_uf(c.out[l][0]), (double)p10);
        ck_assert_uint_eq(c.out[l][1], et_f(p2));
        ck_assert_uint_eq(c.out[l][2], et_f(p10)); /* all values exact in f16 */
        _Float16 h = (_Float16)p2;
        uint16_t hb;
        memcpy(&hb, &h, 2);
        ck_assert_uint_eq(c.out[l][3] & 0xffff, hb);
        ck_assert_uint_eq(c.out[l][4], et_f((100.0f + (float)(q + 1)) * 2.0f + 10.0f + (float)q));
    }
}
END_TEST

Suite *et_suite_silicon(void)
{
    Suite *s = suite_create("emu_silicon");
    TCase *t = tcase_create("silicon");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, div_scale_f32);
    tcase_add_test(t, div_scale_f64);
    tcase_add_test(t, fdiv_sequence_f32);
    tcase_add_test(t, div_fmas_scale);
    tcase_add_test(t, div_fixup_nan_estimate);
    tcase_add_test(t, mad16_clamp);
    tcase_add_test(t, pk_mad16_clamp);
    tcase_add_test(t, packed_inline_constants);
    tcase_add_test(t, opsel_constants);
    tcase_add_test(t, omod_ieee);
    tcase_add_test(t, fract_nan);
    tcase_add_test(t, permlane64_wave32);
    tcase_add_test(t, dpp_row_bcast15);
    tcase_add_test(t, fmak_f16);
    tcase_add_test(t, vinterp);
    suite_add_tcase(s, t);
    return s;
}
