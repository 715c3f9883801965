/* tests/emu/check_salu.c — scalar ALU, branches and hardware registers against host definitions. */
#include <string.h>

#include "tests/emu/emu_test.h"

static const uint32_t vals[8] = {
    0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu, 37, 0xdeadbeefu, 64
};

START_TEST(salu_arith_scc)
{
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j += 3) {
            et_case c = { 0 };
            c.sgpr_in[0] = vals[i];
            c.sgpr_in[1] = vals[j];
            c.body = "s_add_u32 s20, s4, s5\n s_cselect_b32 s21, 1, 0\n"
                     "s_sub_i32 s22, s4, s5\n s_cselect_b32 s23, 1, 0\n"
                     "s_lshl_b32 s24, s4, s5\n s_ashr_i32 s25, s4, s5\n"
                     "s_min_i32 s26, s4, s5\n s_bfe_i32 s27, s4, 0x80004\n"
                     "s_mul_hi_u32 s28, s4, s5\n s_not_b32 s29, s4\n s_cselect_b32 s30, 1, 0\n"
                     "v_mov_b32 v10, s20\n v_mov_b32 v11, s21\n v_mov_b32 v12, s22\n"
                     "v_mov_b32 v13, s23\n v_mov_b32 v14, s24\n v_mov_b32 v15, s25\n"
                     "v_mov_b32 v16, s26\n v_mov_b32 v17, s27\n v_mov_b32 v18, s28\n"
                     "v_mov_b32 v19, s30\n";
            c.nout = 10;
            et_ok(&c);
            uint32_t a = vals[i], b = vals[j];
            ck_assert_uint_eq(c.out[0][0], a + b);
            ck_assert_uint_eq(c.out[0][1], (uint32_t)(((uint64_t)a + b) >> 32));
            ck_assert_uint_eq(c.out[0][2], a - b);
            int32_t d = (int32_t)(a - b);
            ck_assert_uint_eq(c.out[0][3], (((int32_t)a < 0) != ((int32_t)b < 0)) &&
                                               ((d < 0) != ((int32_t)a < 0)));
            ck_assert_uint_eq(c.out[0][4], a << (b & 31)); /* shift amount masked */
            ck_assert_uint_eq(c.out[0][5], (uint32_t)((int32_t)a >> (b & 31)));
            ck_assert_uint_eq(c.out[0][6], (int32_t)a < (int32_t)b ? a : b);
            ck_assert_uint_eq(c.out[0][7], (uint32_t)((int32_t)(a << 20) >> 24));
            ck_assert_uint_eq(c.out[0][8], (uint32_t)(((uint64_t)a * b) >> 32));
            ck_assert_uint_eq(c.out[0][9], ~a != 0);
        }
}
END_TEST

START_TEST(branches_and_loops)
{
    et_case c = { 0 };
    c.sgpr_in[0] = 10;
    /* sum 1..10 with a scalar loop; count down with s_cbranch_scc1; call/return with swappc */
    c.body = "s_mov_b32 s20, 0\n"
             "L1:\n s_add_u32 s20, s20, s4\n s_sub_u32 s4, s4, 1\n s_cmp_lg_u32 s4, 0\n"
             "s_cbranch_scc1 L1\n"
             "s_getpc_b64 s[22:23]\n s_add_u32 s22, s22, (F - .)\n s_addc_u32 s23, s23, 0\n"
             "s_swappc_b64 s[24:25], s[22:23]\n s_branch DONE\n"
             "F:\n s_mov_b32 s21, 77\n s_setpc_b64 s[24:25]\n"
             "DONE:\n v_mov_b32 v10, s20\n v_mov_b32 v11, s21\n";
    c.nout = 2;
    et_ok(&c);
    ck_assert_uint_eq(c.out[5][0], 55);
    ck_assert_uint_eq(c.out[5][1], 77);
}
END_TEST

START_TEST(saveexec_divergence)
{
    et_case c = { 0 };
    c.nin = 1;
    for (unsigned l = 0; l < 32; l++)
        c.in[l][0] = l;
    c.body = "v_mov_b32 v10, 0\n v_cmp_gt_u32_e32 vcc_lo, 16, v1\n"
             "s_and_saveexec_b32 s20, vcc_lo\n s_cbranch_execz SKIP\n v_mov_b32 v10, 1\n"
             "SKIP:\n s_xor_b32 exec_lo, exec_lo, s20\n v_mov_b32 v10, 2\n"
             "s_mov_b32 exec_lo, s20\n s_cbranch_vccz NEVER\n v_add_nc_u32 v10, v10, 10\n"
             "NEVER:\n";
    c.nout = 1;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++)
        ck_assert_uint_eq(c.out[l][0], l < 16 ? 11u : 12u);
}
END_TEST

START_TEST(getreg_hw_registers)
{
    et_case c = { 0 };
    c.lds = 1024;
    c.body = "s_getreg_b32 s20, hwreg(HW_REG_MODE)\n s_getreg_b32 s21, hwreg(HW_REG_LDS_ALLOC)\n"
             "s_getreg_b32 s22, hwreg(HW_REG_HW_ID1, 0, 5)\n"
             "v_mov_b32 v10, s20\n v_mov_b32 v11, s21\n v_mov_b32 v12, s22\n";
    c.nout = 3;
    et_ok(&c);
    /* MODE from rsrc1: round 0, denorm 0xf (3,3), dx10 clamp bit 8, IEEE bit 9 */
    ck_assert_uint_eq(c.out[0][0], 0xf0u | 1u << 8 | 1u << 9);
    ck_assert_uint_eq(c.out[0][1], (1024u / 256u) << 12);
    ck_assert_uint_eq(c.out[0][2], 0);
}
END_TEST

Suite *et_suite_salu(void)
{
    Suite *s = suite_create("emu_salu");
    TCase *t = tcase_create("salu");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, salu_arith_scc);
    tcase_add_test(t, branches_and_loops);
    tcase_add_test(t, saveexec_divergence);
    tcase_add_test(t, getreg_hw_registers);
    suite_add_tcase(s, t);
    return s;
}
