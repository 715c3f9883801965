/*
 * tests/emu/check_targets.c — RDNA3.5 (gfx1151) and RDNA4 (gfx1201) semantics: the SALU
 * float ops, gfx12's memory encodings, split wait counters and new ops.  Expected values
 * come from host IEEE arithmetic (the ISA guide's definitions), tinygrad's
 * hardware-validated tests or clang-built kernels, never from rdx.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/emu/emu_test.h"

/* s_fmamk_f32: tinygrad test_sop.py TestSOP2 test_s_fmamk_f32(_negative) (gfx1150+ hardware) */
START_TEST(salu_float_fmamk_hw)
{
    et_case c = { 0 };
    c.target = "gfx1151";
    c.sgpr_in[0] = et_f(2.0f);
    c.sgpr_in[1] = et_f(1.0f);
    c.sgpr_in[2] = et_f(-2.0f);
    c.sgpr_in[3] = et_f(10.0f);
    c.body = "s_fmamk_f32 s20, s4, 0x40400000, s5\n" /* 2 * 3 + 1 */
             "s_fmamk_f32 s21, s6, 0x40800000, s7\n" /* -2 * 4 + 10 */
             "s_fmaak_f32 s22, s4, s5, 0x40400000\n" /* 2 * 1 + 3 */
             "v_mov_b32 v10, s20\n v_mov_b32 v11, s21\n v_mov_b32 v12, s22\n";
    c.nout = 3;
    et_ok(&c);
    ck_assert_uint_eq(c.out[0][0], et_f(7.0f));
    ck_assert_uint_eq(c.out[0][1], et_f(2.0f));
    ck_assert_uint_eq(c.out[0][2], et_f(5.0f));
}
END_TEST

static const float fv[] = { 1.5f, -2.25f, 0.0f, -0.0f, 3.0e38f, 1.0e-3f, 7.75f, -1.0e30f };

/* f32 arithmetic, conversions, rounding and compares against the host's IEEE f32 */
START_TEST(salu_float_f32)
{
    for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 8; j += 3) {
            et_case c = { 0 };
            c.target = "gfx1151";
            float a = fv[i], b = fv[j];
            c.sgpr_in[0] = et_f(a);
            c.sgpr_in[1] = et_f(b);
            c.sgpr_in[2] = et_f(0.5f);
            c.body = "s_add_f32 s20, s4, s5\n s_sub_f32 s21, s4, s5\n s_mul_f32 s22, s4, s5\n"
                     "s_mov_b32 s23, s6\n s_fmac_f32 s23, s4, s5\n"
                     "s_min_f32 s24, s4, s5\n s_max_f32 s25, s4, s5\n"
                     "s_cvt_i32_f32 s26, s4\n s_cvt_u32_f32 s27, s4\n"
                     "s_ceil_f32 s28, s4\n s_floor_f32 s29, s4\n s_trunc_f32 s30, s4\n"
                     "s_rndne_f32 s31, s4\n"
                     "s_cmp_lt_f32 s4, s5\n s_cselect_b32 s32, 1, 0\n"
                     "s_cmp_nge_f32 s4, s5\n s_cselect_b32 s33, 1, 0\n"
                     "s_cvt_f32_i32 s34, s26\n"
                     "v_mov_b32 v10, s20\n v_mov_b32 v11, s21\n v_mov_b32 v12, s22\n"
                     "v_mov_b32 v13, s23\n v_mov_b32 v14, s24\n v_mov_b32 v15, s25\n"
                     "v_mov_b32 v16, s26\n v_mov_b32 v17, s27\n v_mov_b32 v18, s28\n"
                     "v_mov_b32 v19, s29\n v_mov_b32 v20, s30\n v_mov_b32 v21, s31\n"
                     "v_mov_b32 v22, s32\n v_mov_b32 v23, s33\n v_mov_b32 v24, s34\n";
            c.nout = 15;
            et_ok(&c);
            const uint32_t *o = c.out[0];
            ck_assert_uint_eq(o[0], et_f(a + b));
            ck_assert_uint_eq(o[1], et_f(a - b));
            ck_assert_uint_eq(o[2], et_f(a * b));
            ck_assert_uint_eq(o[3], et_f(fmaf(a, b, 0.5f)));
            float mn = a < b || (a == b && signbit(a)) ? a : b;
            float mx = a > b || (a == b && !signbit(a)) ? a : b;
            ck_assert_uint_eq(o[4], et_f(mn));
            ck_assert_uint_eq(o[5], et_f(mx));
            int32_t si = a >= 2147483647.0f    ? INT32_MAX
                         : a <= -2147483648.0f ? INT32_MIN
                                               : (int32_t)a;
            uint32_t ui = a <= 0 ? 0 : a >= 4294967295.0f ? UINT32_MAX : (uint32_t)a;
            ck_assert_uint_eq(o[6], (uint32_t)si);
            ck_assert_uint_eq(o[7], ui);
            ck_assert_uint_eq(o[8], et_f(ceilf(a)));
            ck_assert_uint_eq(o[9], et_f(floorf(a)));
            ck_assert_uint_eq(o[10], et_f(truncf(a)));
            ck_assert_uint_eq(o[11], et_f(nearbyintf(a)));
            ck_assert_uint_eq(o[12], a < b);
            ck_assert_uint_eq(o[13], !(a >= b));
            ck_assert_uint_eq(o[14], et_f((float)si));
        }
}
END_TEST

/* f16 ops: results rounded once to f16 (values exact in f16 or with a known rounding) */
START_TEST(salu_float_f16)
{
    et_case c = { 0 };
    c.target = "gfx1151";
    c.sgpr_in[0] = 0xabcd3e00u; /* 1.5 in the low half; the high half is ignored */
    c.sgpr_in[1] = 0x4100u;     /* 2.5 */
    c.sgpr_in[2] = 0x3c01u;     /* 1 + 2^-10 */
    c.sgpr_in[3] = et_f(1.0f + 0x1p-11f + 0x1p-20f); /* rounds up to 1 + 2^-10 in f16 */
    c.body = "s_add_f16 s20, s4, s5\n s_mul_f16 s21, s4, s5\n s_sub_f16 s22, s4, s5\n"
             "s_mov_b32 s23, s5\n s_fmac_f16 s23, s4, s5\n"
             "s_mul_f16 s24, s6, s6\n" /* (1+2^-10)^2 = 1 + 2^-9 + 2^-20 -> 1+2^-9 */
             "s_cvt_f16_f32 s25, s7\n s_cvt_f32_f16 s26, s4\n"
             "s_pack_ll_b32_b16 s27, s5, s4\n s_cvt_hi_f32_f16 s28, s27\n"
             "s_cvt_pk_rtz_f16_f32 s29, s7, s7\n"
             "s_cmp_gt_f16 s5, s4\n s_cselect_b32 s30, 1, 0\n"
             "s_max_f16 s31, s4, s5\n s_floor_f16 s32, s5\n s_rndne_f16 s33, s5\n"
             "v_mov_b32 v10, s20\n v_mov_b32 v11, s21\n v_mov_b32 v12, s22\n"
             "v_mov_b32 v13, s23\n v_mov_b32 v14, s24\n v_mov_b32 v15, s25\n"
             "v_mov_b32 v16, s26\n v_mov_b32 v17, s28\n v_mov_b32 v18, s29\n"
             "v_mov_b32 v19, s30\n v_mov_b32 v20, s31\n v_mov_b32 v21, s32\n"
             "v_mov_b32 v22, s33\n";
    c.nout = 13;
    et_ok(&c);
    const uint32_t *o = c.out[0];
    ck_assert_uint_eq(o[0], 0x4400u); /* 4.0 */
    ck_assert_uint_eq(o[1], 0x4380u); /* 3.75 */
    ck_assert_uint_eq(o[2], 0xbc00u); /* -1.0 */
    ck_assert_uint_eq(o[3], 0x4640u); /* 1.5 * 2.5 + 2.5 = 6.25 */
    ck_assert_uint_eq(o[4], 0x3c02u); /* 1 + 2^-9 */
    ck_assert_uint_eq(o[5], 0x3c01u); /* nearest even in f16 */
    ck_assert_uint_eq(o[6], et_f(1.5f));
    ck_assert_uint_eq(o[7], et_f(1.5f));  /* the high half of s27 (s4's low half) */
    ck_assert_uint_eq(o[8], 0x3c003c00u); /* toward zero */
    ck_assert_uint_eq(o[9], 1);
    ck_assert_uint_eq(o[10], 0x4100u);
    ck_assert_uint_eq(o[11], 0x4000u); /* floor(2.5) */
    ck_assert_uint_eq(o[12], 0x4000u); /* rndne(2.5) = 2 */
}
END_TEST

/* MODE applies: round toward zero (FP_ROUND[1:0] = 3) and f32 denormal flushing */
START_TEST(salu_float_modes)
{
    et_case c = { 0 };
    c.target = "gfx1151";
    c.sgpr_in[0] = et_f(1.0f);
    c.sgpr_in[1] = et_f(0x1p-30f);
    c.sgpr_in[2] = 0x00000001u;        /* smallest f32 denormal */
    c.body = "s_add_f32 s20, s4, s5\n" /* 1 + 2^-30: nearest 1.0 */
             "s_round_mode 0x3\n s_add_f32 s21, s4, s5\n s_sub_f32 s22, s4, s5\n"
             "s_round_mode 0x0\n"
             "s_add_f32 s23, s6, s6\n" /* denormals kept: 2 * denorm */
             "s_denorm_mode 0x0\n s_add_f32 s24, s6, s6\n"
             "v_mov_b32 v10, s20\n v_mov_b32 v11, s21\n v_mov_b32 v12, s22\n"
             "v_mov_b32 v13, s23\n v_mov_b32 v14, s24\n";
    c.nout = 5;
    et_ok(&c);
    ck_assert_uint_eq(c.out[0][0], et_f(1.0f));
    ck_assert_uint_eq(c.out[0][1], et_f(1.0f));
    ck_assert_uint_eq(c.out[0][2], 0x3f7fffffu); /* 1 - 2^-30 toward zero */
    ck_assert_uint_eq(c.out[0][3], 2u);
    ck_assert_uint_eq(c.out[0][4], 0u);
}
END_TEST

/* the SALU float ops are not gfx1100's: its decoder refuses them, naming the PC */
START_TEST(salu_float_not_on_gfx1100)
{
    static const uint8_t code[] = { 0x02, 0x03, 0x81, 0xa4, /* s_add_f16 s1, s2, s3 (gfx115x) */
                                    0x00, 0x00, 0xb0, 0xbf };
    rdx_emu *emu;
    ck_assert_int_eq(rdx_emu_create("gfx1100", &emu), RDX_OK);
    uint8_t *p = aligned_alloc(4096, 4096);
    memcpy(p, code, sizeof code);
    ck_assert_int_eq(rdx_emu_map(emu, (uint64_t)(uintptr_t)p, 4096, RDX_EMU_READ), RDX_OK);
    rdx_emu_dispatch d = { 0 };
    d.code = (uint64_t)(uintptr_t)p;
    d.code_properties = 1u << 10;
    d.grid[0] = d.wg[0] = 32;
    ck_assert_int_ne(rdx_emu_run(emu, &d), RDX_OK);
    ck_assert_int_eq(rdx_emu_last_fault(emu)->kind, RDX_EMU_FAULT_INVALID_INST);
    rdx_emu_destroy(emu);
    ck_assert_int_eq(rdx_emu_create("gfx1151", &emu), RDX_OK);
    ck_assert_int_eq(rdx_emu_map(emu, (uint64_t)(uintptr_t)p, 4096, RDX_EMU_READ), RDX_OK);
    ck_assert_int_eq(rdx_emu_run(emu, &d), RDX_OK);
    rdx_emu_destroy(emu);
    free(p);
}
END_TEST

Suite *et_suite_targets(void)
{
    Suite *s = suite_create("targets");
    TCase *tc = tcase_create("salu_float");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, salu_float_fmamk_hw);
    tcase_add_test(tc, salu_float_f32);
    tcase_add_test(tc, salu_float_f16);
    tcase_add_test(tc, salu_float_modes);
    tcase_add_test(tc, salu_float_not_on_gfx1100);
    suite_add_tcase(s, tc);
    return s;
}
