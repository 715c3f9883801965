/*
 * tests/emu/check_remu.c — the remu-compatible entry points run_asm and
 * rdx_emu_run_asm_ex: the register layout remu used (tinygrad's
 * extra/remu/src/work_group.rs before its removal: kernarg pointer in s[0:1],
 * workgroup IDs ending at s15), LDS from rsrc2's LDS_SIZE (512-byte granules on
 * gfx11, AMDGPUUsage "COMPUTE_PGM_RSRC2"), MODE from the caller's rsrc1 (the
 * hardware takes FLOAT_DENORM_MODE_32 from the descriptor: tinygrad's
 * test/amd/hw/test_vop2.py test_denormal_f32_mul_ftz runs with LLVM's default
 * .amdhsa_float_denorm_mode_32 0 and flushes).
 */
#include <stdlib.h>
#include <string.h>

#include "tests/emu/emu_test.h"
#include "util/error.h"

/* rsrc2 of tinygrad's hardware tests: USER_SGPR_COUNT 14, workgroup IDs X, Y; LDS_SIZE n */
#define HW_RSRC2(lds_granules) (0x19cu | (uint32_t)(lds_granules) << 15)

static const char *lds_kernel = "s_load_b64 s[2:3], s[0:1], 0x0\n"
                                "s_waitcnt lgkmcnt(0)\n"
                                "v_lshlrev_b32 v1, 2, v0\n"
                                "v_add_nc_u32 v2, 100, v0\n"
                                "ds_store_b32 v1, v2 offset:65000\n"
                                "s_waitcnt lgkmcnt(0)\n"
                                "ds_load_b32 v3, v1 offset:65000\n"
                                "s_waitcnt lgkmcnt(0)\n"
                                "global_store_b32 v1, v3, s[2:3]\n"
                                "s_endpgm\n";

START_TEST(run_asm_lds_size)
{
    size_t len;
    uint8_t *code = et_assemble(lds_kernel, &len);
    static uint32_t out[32];
    uint64_t args[1] = { (uint64_t)(uintptr_t)out };
    uint64_t c = (uint64_t)(uintptr_t)code, a = (uint64_t)(uintptr_t)args;
    /* run_asm: 64 KiB of LDS as remu had (it grew its LDS on demand) */
    memset(out, 0, sizeof out);
    ck_assert_int_eq(run_asm(c, (uint32_t)len, 1, 1, 1, 32, 1, 1, a), 0);
    for (unsigned i = 0; i < 32; i++)
        ck_assert_uint_eq(out[i], 100 + i);
    /* LDS_SIZE 128 granules = 64 KiB: the last bytes are addressable */
    memset(out, 0, sizeof out);
    ck_assert_int_eq(rdx_emu_run_asm_ex(c, len, 1, 1, 1, 32, 1, 1, a, HW_RSRC2(128), 0, 0x10000,
                                        NULL, NULL, 0, NULL, 0),
                     0);
    for (unsigned i = 0; i < 32; i++)
        ck_assert_uint_eq(out[i], 100 + i);
    /* LDS_SIZE 1 = 512 bytes: offset 65000 is outside the allocation */
    ck_assert_int_eq(rdx_emu_run_asm_ex(c, len, 1, 1, 1, 32, 1, 1, a, HW_RSRC2(1), 0, 0x10000, NULL,
                                        NULL, 0, NULL, 0),
                     RDX_ERR_FAULT);
    ck_assert_msg(strstr(rdx_error_message(), "LDS"), "%s", rdx_error_message());
    free(code);
}
END_TEST

START_TEST(run_asm_rsrc1_float_mode)
{
    size_t len;
    uint8_t *code = et_assemble("s_load_b64 s[2:3], s[0:1], 0x0\n"
                                "s_waitcnt lgkmcnt(0)\n"
                                "v_lshlrev_b32 v1, 2, v0\n"
                                "v_mov_b32 v2, 1\n"
                                "v_mul_f32 v3, 1.0, v2\n"
                                "global_store_b32 v1, v3, s[2:3]\n"
                                "s_endpgm\n",
                                &len);
    static uint32_t out[32];
    uint64_t args[1] = { (uint64_t)(uintptr_t)out };
    uint64_t c = (uint64_t)(uintptr_t)code, a = (uint64_t)(uintptr_t)args;
    /* rsrc1 0: remu's IEEE arithmetic keeps the f32 denormal */
    ck_assert_int_eq(
        rdx_emu_run_asm_ex(c, len, 1, 1, 1, 32, 1, 1, a, HW_RSRC2(0), 0, 0, NULL, NULL, 0, NULL, 0),
        0);
    ck_assert_uint_eq(out[0], 1);
    /* LLVM's .amdhsa defaults: FLOAT_DENORM_MODE_32 0 (flush), _16_64 3, DX10 clamp, IEEE */
    uint32_t rsrc1 = 31u | 3u << 18 | 1u << 21 | 1u << 23 | 1u << 29;
    ck_assert_int_eq(rdx_emu_run_asm_ex(c, len, 1, 1, 1, 32, 1, 1, a, HW_RSRC2(0), rsrc1, 0, NULL,
                                        NULL, 0, NULL, 0),
                     0);
    for (unsigned i = 0; i < 32; i++)
        ck_assert_uint_eq(out[i], 0);
    free(code);
}
END_TEST

START_TEST(run_asm_remu_sgprs_3d)
{
    /* remu: a 3-D grid puts workgroup X, Y, Z in s13, s14, s15; a 2-D one X, Y in s14, s15 */
    size_t len;
    uint8_t *code = et_assemble("s_load_b64 s[2:3], s[0:1], 0x0\n"
                                "s_waitcnt lgkmcnt(0)\n"
                                "s_lshl_b32 s4, s14, 8\n s_or_b32 s4, s4, s13\n"
                                "s_lshl_b32 s5, s15, 16\n s_or_b32 s4, s4, s5\n"
                                "s_lshl_b32 s6, s14, 1\n s_lshl_b32 s7, s15, 2\n"
                                "s_add_u32 s6, s6, s13\n s_add_u32 s6, s6, s7\n"
                                "s_lshl_b32 s6, s6, 5\n"
                                "v_add_nc_u32 v1, s6, v0\n v_lshlrev_b32 v1, 2, v1\n"
                                "v_mov_b32 v2, s4\n"
                                "global_store_b32 v1, v2, s[2:3]\n"
                                "s_endpgm\n",
                                &len);
    static uint32_t out[8 * 32];
    uint64_t args[1] = { (uint64_t)(uintptr_t)out };
    ck_assert_int_eq(run_asm((uint64_t)(uintptr_t)code, (uint32_t)len, 2, 2, 2, 32, 1, 1,
                             (uint64_t)(uintptr_t)args),
                     0);
    for (unsigned g = 0; g < 8; g++)
        for (unsigned l = 0; l < 32; l++)
            ck_assert_uint_eq(out[g * 32 + l], (g & 1) | (g >> 1 & 1) << 8 | (g >> 2) << 16);
    free(code);
}
END_TEST

Suite *et_suite_remu(void)
{
    Suite *s = suite_create("emu_remu");
    TCase *t = tcase_create("remu");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, run_asm_lds_size);
    tcase_add_test(t, run_asm_rsrc1_float_mode);
    tcase_add_test(t, run_asm_remu_sgprs_3d);
    suite_add_tcase(s, t);
    return s;
}
