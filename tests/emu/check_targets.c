/*
 * tests/emu/check_targets.c — RDNA3.5 (gfx1151) and RDNA4 (gfx1201) semantics: the SALU
 * float ops, gfx12's memory encodings, split wait counters and new ops.  Expected values
 * come from host IEEE arithmetic (the ISA guide's definitions), tinygrad's
 * hardware-validated tests or clang-built kernels, never from rdx.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/isa.h>

#include "emu/core/ops.h"
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

/* ------------------------------------------------------------ RDNA4 */

/* gfx12's VGLOBAL / VFLAT / VSCRATCH / VBUFFER encodings on the memory handlers: loads and
   stores with saddr and offsets, th/scope ignored, atomics returning only with
   TH_ATOMIC_RETURN */
START_TEST(gfx12_memory)
{
    et_case c = { 0 };
    c.target = "gfx1201";
    c.nin = 2;
    c.scratch = 64;
    for (unsigned l = 0; l < 32; l++) {
        c.in[l][0] = 100 + l;
        c.in[l][1] = 7;
    }
    /* s[2:3] is the input buffer, v0 the lane's byte offset (64 per lane) */
    c.body = "global_load_b32 v10, v0, s[2:3] offset:4 th:TH_LOAD_NT scope:SCOPE_SYS\n"
             "v_mov_b32 v3, s2\n v_mov_b32 v4, s3\n v_add_co_u32 v3, vcc_lo, v3, v0\n"
             "v_add_co_ci_u32 v4, vcc_lo, 0, v4, vcc_lo\n"
             "flat_load_b32 v11, v[3:4]\n"
             "global_store_b32 v0, v1, s[2:3] offset:60\n" /* the in buffer is read-only: */
             "s_wait_storecnt 0\n";
    c.nout = 2;
    ck_assert_int_ne(et_run(&c), RDX_OK); /* ... a VM fault, as on gfx1100 */
    c.body = "global_load_b32 v10, v0, s[2:3] offset:4 th:TH_LOAD_NT scope:SCOPE_SYS\n"
             "v_mov_b32 v3, s2\n v_mov_b32 v4, s3\n v_add_co_u32 v3, vcc_lo, v3, v0\n"
             "v_add_co_ci_u32 v4, vcc_lo, 0, v4, vcc_lo\n"
             "flat_load_b32 v11, v[3:4]\n"
             "v_lshlrev_b32 v5, 2, v255\n" /* unused */
             "scratch_store_b32 off, v1, off offset:8\n"
             "scratch_load_b32 v12, off, off offset:8\n"
             "global_store_b32 v0, v1, s[0:1] offset:60\n"
             "v_mov_b32 v6, 5\n v_mov_b32 v13, 0x1234\n"
             "global_atomic_add_u32 v13, v0, v6, s[0:1] offset:60 th:TH_ATOMIC_RETURN\n"
             "v_mov_b32 v14, 0x1234\n"
             "global_atomic_add_u32 v0, v6, s[0:1] offset:60\n"
             "s_wait_loadcnt_dscnt 0x0\n s_wait_storecnt 0\n"
             "global_load_b32 v15, v0, s[0:1] offset:60\n"
             "s_wait_loadcnt 0\n";
    c.nout = 6;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(c.out[l][0], 7);
        ck_assert_uint_eq(c.out[l][1], 100 + l);
        ck_assert_uint_eq(c.out[l][2], 100 + l);
        ck_assert_uint_eq(c.out[l][3], 100 + l); /* the old value */
        ck_assert_uint_eq(c.out[l][4], 0x1234);  /* no return: v14 untouched */
        ck_assert_uint_eq(c.out[l][5], 100 + l + 10);
    }
}
END_TEST

/* VBUFFER: buffer_load/store through a V# with offen and idxen, out of range reads 0 */
START_TEST(gfx12_buffer)
{
    et_case c = { 0 };
    c.target = "gfx1201";
    c.nin = 1;
    for (unsigned l = 0; l < 32; l++)
        c.in[l][0] = 3 * l + 1;
    /* V# over the input buffer: base s[2:3], stride 0, num_records 32 * 64 bytes */
    c.body = "s_mov_b32 s20, s2\n s_and_b32 s21, s3, 0xffff\n s_mov_b32 s22, 0x800\n"
             "s_mov_b32 s23, 0\n"
             "buffer_load_b32 v10, v0, s[20:23], null offen\n"
             "v_add_nc_u32 v2, 0x1000, v0\n"
             "v_mov_b32 v11, 77\n"
             "buffer_load_b32 v11, v2, s[20:23], null offen\n"
             "s_wait_loadcnt 0\n";
    c.nout = 2;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(c.out[l][0], 3 * l + 1);
        ck_assert_uint_eq(c.out[l][1], 0); /* beyond num_records */
    }
}
END_TEST

/* v_permlane16_var_b32 / v_permlanex16_var_b32: tinygrad test_rdna4_permlane_var.py (values
   validated on RDNA4 hardware) */
START_TEST(gfx12_permlane_var)
{
    et_case c = { 0 };
    c.target = "gfx1201";
    c.body = "v_lshrrev_b32 v20, 6, v0\n" /* the lane id (v0 = lane * 64) */
             "v_xor_b32 v21, 15, v20\n"
             "v_permlane16_var_b32 v10, v20, v21\n"
             "v_permlanex16_var_b32 v11, v20, v20\n";
    c.nout = 2;
    et_ok(&c);
    static const unsigned lane[] = { 0, 5, 15, 16, 21, 31 };
    static const uint32_t rev[] = { 15, 10, 0, 31, 26, 16 }, cross[] = { 16, 21, 31, 0, 5, 15 };
    for (unsigned i = 0; i < 6; i++) {
        ck_assert_uint_eq(c.out[lane[i]][0], rev[i]);
        ck_assert_uint_eq(c.out[lane[i]][1], cross[i]);
    }
}
END_TEST

/* gfx12 SALU: 64-bit add/sub/mul, the renamed carry ops, sub-dword scalar loads, barriers */
START_TEST(gfx12_salu_smem)
{
    et_case c = { 0 };
    c.target = "gfx1201";
    c.nin = 1;
    c.in[0][0] = 0x8081f0feu;
    c.sgpr_in[0] = 0xffffffffu;
    c.sgpr_in[1] = 1;
    c.sgpr_in[2] = 3;
    c.sgpr_in[3] = 0;
    c.body = "s_add_nc_u64 s[20:21], s[4:5], s[6:7]\n" /* 0x1ffffffff + 3 */
             "s_sub_nc_u64 s[22:23], s[6:7], s[4:5]\n"
             "s_mul_u64 s[24:25], s[4:5], s[6:7]\n"
             "s_add_co_u32 s26, s4, s6\n s_add_co_ci_u32 s27, 0, 0\n"
             "s_load_u8 s28, s[2:3], 0x1\n s_load_i8 s29, s[2:3], 0x3\n"
             "s_load_i16 s30, s[2:3], 0x0\n s_load_u16 s31, s[2:3], 0x2\n"
             "s_load_b96 s[32:34], s[2:3], 0x0\n"
             "s_wait_kmcnt 0\n"
             "s_barrier_signal_isfirst -1\n s_cselect_b32 s35, 1, 0\n s_barrier_wait -1\n"
             "s_wait_alu 0xfffe\n"
             "v_mov_b32 v10, s20\n v_mov_b32 v11, s21\n v_mov_b32 v12, s22\n"
             "v_mov_b32 v13, s23\n v_mov_b32 v14, s24\n v_mov_b32 v15, s25\n"
             "v_mov_b32 v16, s26\n v_mov_b32 v17, s27\n v_mov_b32 v18, s28\n"
             "v_mov_b32 v19, s29\n v_mov_b32 v20, s30\n v_mov_b32 v21, s31\n"
             "v_mov_b32 v22, s32\n v_mov_b32 v23, s35\n";
    c.nout = 14;
    et_ok(&c);
    const uint32_t *o = c.out[0];
    uint64_t a = 0x1ffffffffull, b = 3;
    ck_assert_uint_eq(o[0], (uint32_t)(a + b));
    ck_assert_uint_eq(o[1], (uint32_t)((a + b) >> 32));
    ck_assert_uint_eq(o[2], (uint32_t)(b - a));
    ck_assert_uint_eq(o[3], (uint32_t)((b - a) >> 32));
    ck_assert_uint_eq(o[4], (uint32_t)(a * b));
    ck_assert_uint_eq(o[5], (uint32_t)((a * b) >> 32));
    ck_assert_uint_eq(o[6], 2);
    ck_assert_uint_eq(o[7], 1); /* the carry */
    ck_assert_uint_eq(o[8], 0xf0);
    ck_assert_uint_eq(o[9], 0xffffff80u);
    ck_assert_uint_eq(o[10], 0xfffff0feu);
    ck_assert_uint_eq(o[11], 0x8081);
    ck_assert_uint_eq(o[12], 0x8081f0feu);
    ck_assert_uint_eq(o[13], 1); /* the only wave signals first */
}
END_TEST

/* Run raw gfx12 words; returns the status (fault in *f). */
static rdx_status run_words(const char *target, const uint32_t *words, size_t n, rdx_emu_fault *f,
                            uint64_t *code_addr)
{
    rdx_emu *emu;
    ck_assert_int_eq(rdx_emu_create(target, &emu), RDX_OK);
    rdx_emu_set_threads(emu, 1);
    uint8_t *p = aligned_alloc(4096, 4096);
    memset(p, 0, 4096);
    memcpy(p, words, n * 4);
    ck_assert_int_eq(rdx_emu_map(emu, (uint64_t)(uintptr_t)p, 4096, RDX_EMU_READ), RDX_OK);
    rdx_emu_dispatch d = { 0 };
    d.code = (uint64_t)(uintptr_t)p;
    d.code_properties = 1u << 10;
    d.grid[0] = d.wg[0] = 32;
    *code_addr = d.code;
    rdx_status st = rdx_emu_run(emu, &d);
    *f = *rdx_emu_last_fault(emu);
    rdx_emu_destroy(emu);
    free(p);
    return st;
}

/* bad input on gfx12: an undecodable word and gfx11-only encodings fault naming the PC;
   an op the emulator lacks is refused with the reason */
START_TEST(gfx12_faults)
{
    rdx_emu_fault f;
    uint64_t base;
    /* s_nop 0; then gfx11's MUBUF buffer_load_b32 v0, off, s[0:3], 0, an encoding gfx12
       does not have (llvm-mc -disassemble: "invalid instruction encoding") */
    static const uint32_t mubuf11[] = { 0xbf800000u, 0xe0500000u, 0x00000000u, 0xbfb00000u };
    ck_assert_int_ne(run_words("gfx1201", mubuf11, 4, &f, &base), RDX_OK);
    ck_assert_int_eq(f.kind, RDX_EMU_FAULT_INVALID_INST);
    ck_assert_uint_eq(f.pc, base + 4);
    char pc[32];
    snprintf(pc, sizeof pc, "%llx", (unsigned long long)(base + 4));
    ck_assert_msg(strstr(rdx_error_message(), pc) != NULL, "%s", rdx_error_message());
    /* the same words run on gfx1100 (the V# is all zero: the load reads 0) */
    ck_assert_int_eq(run_words("gfx1100", mubuf11, 4, &f, &base), RDX_OK);
    /* global_load_tr_b64 v[0:1], v[2:3], off (gfx12; transposing loads are not emulated) */
    static const uint32_t tr12[] = { 0xee16007cu, 0x00000000u, 0x00000002u, 0xbfb00000u };
    ck_assert_int_ne(run_words("gfx1201", tr12, 4, &f, &base), RDX_OK);
    ck_assert_int_eq(f.kind, RDX_EMU_FAULT_UNIMPLEMENTED);
    ck_assert_uint_eq(f.pc, base);
    ck_assert_msg(strstr(rdx_error_message(), "transposing"), "%s", rdx_error_message());
}
END_TEST

/* run_asm on RDNA4: RDX_EMU_ARCH selects the target (tinygrad's test_rdna4_permlane_var.py
   program: kernarg pointer in s[0:1], lane id in v0, one output dword per lane), and the
   workgroup IDs of a 2-D grid are in gfx12's TTMP9 / TTMP7 as well */
START_TEST(gfx12_run_asm_target)
{
    size_t len;
    uint8_t *code = et_assemble_t("s_mov_b32 s80, s0\n s_mov_b32 s81, s1\n"
                                  "v_mov_b32 v255, v0\n"
                                  "v_xor_b32 v1, 15, v0\n"
                                  "v_permlane16_var_b32 v2, v0, v1\n"
                                  "s_load_b64 s[92:93], s[80:81], 0x0\n"
                                  "s_wait_kmcnt 0\n"
                                  "v_lshlrev_b32 v240, 2, v255\n"
                                  "s_mul_i32 s3, ttmp7, 64\n" /* y of the 1 x 2 grid */
                                  "s_add_co_u32 s3, s3, ttmp9\n"
                                  "v_add_nc_u32 v2, s3, v2\n"
                                  "s_lshl_b32 s3, ttmp7, 7\n"
                                  "v_add_nc_u32 v240, s3, v240\n"
                                  "global_store_b32 v240, v2, s[92:93]\n"
                                  "s_endpgm\n",
                                  32, "gfx1201", &len);
    static uint32_t out[64];
    uint64_t args[1] = { (uint64_t)(uintptr_t)out };
    uint64_t c = (uint64_t)(uintptr_t)code, a = (uint64_t)(uintptr_t)args;
    unsetenv("RDX_EMU_ARCH");
    ck_assert_int_ne(run_asm(c, (uint32_t)len, 1, 2, 1, 32, 1, 1, a), 0); /* not gfx1100 code */
    setenv("RDX_EMU_ARCH", "gfx1201", 1);
    memset(out, 0, sizeof out);
    ck_assert_int_eq(run_asm(c, (uint32_t)len, 1, 2, 1, 32, 1, 1, a), 0);
    for (unsigned y = 0; y < 2; y++)
        for (unsigned l = 0; l < 32; l++)
            ck_assert_uint_eq(out[y * 32 + l], (l & 16) + (15 - (l & 15)) + y * 64);
    setenv("RDX_EMU_ARCH", "gfx9999", 1);
    ck_assert_int_ne(run_asm(c, (uint32_t)len, 1, 1, 1, 32, 1, 1, a), 0);
    unsetenv("RDX_EMU_ARCH");
    free(code);
}
END_TEST

/* gfx12's IEEE 754-2019 minimum/maximum, packed too (a NaN operand gives a quiet NaN, -0 < +0)
   and the
   VALU transcendentals with an SGPR result (v_s_*), against host IEEE arithmetic */
START_TEST(gfx12_minimum_vs_trans)
{
    static const float a[] = { 1.0f, -0.0f, NAN, 2.5f, -3.0f, 0.0f };
    static const float b[] = { 2.0f, 0.0f, 1.0f, NAN, -4.0f, -0.0f };
    et_case c = { 0 };
    c.target = "gfx1201";
    c.nin = 2;
    for (unsigned l = 0; l < 6; l++) {
        c.in[l][0] = et_f(a[l]);
        c.in[l][1] = et_f(b[l]);
    }
    c.sgpr_in[0] = et_f(2.25f);
    c.sgpr_in[1] = 0x4400u; /* f16 4.0 */
    c.body = "v_minimum_f32 v10, v1, v2\n v_maximum_f32 v11, v1, v2\n"
             "v_maximum3_f32 v12, v1, v2, 0\n"
             "v_s_sqrt_f32 s20, s4\n v_s_exp_f16 s21, s5\n v_s_rcp_f32 s22, s4\n"
             "v_mov_b32 v13, s20\n v_mov_b32 v14, s21\n v_mov_b32 v15, s22\n"
             /* packed: (-0, 2) vs (+0, NaN) */
             "v_mov_b32 v3, 0x40008000\n v_mov_b32 v4, 0x7e000000\n"
             "v_pk_minimum_f16 v16, v3, v4\n v_pk_maximum_f16 v17, v3, v4\n";
    c.nout = 8;
    et_ok(&c);
    for (unsigned l = 0; l < 6; l++) {
        float x = a[l], y = b[l];
        uint32_t mn, mx;
        if (x != x || y != y) {
            mn = mx = 0x7fc00000u;
        } else {
            mn = et_f(x < y || (x == y && signbit(x)) ? x : y);
            mx = et_f(x > y || (x == y && !signbit(x)) ? x : y);
        }
        ck_assert_msg((c.out[l][0] & 0x7fffffffu) > 0x7f800000u ? mn == 0x7fc00000u
                                                                : c.out[l][0] == mn,
                      "minimum lane %u: 0x%08x", l, c.out[l][0]);
        ck_assert_msg((c.out[l][1] & 0x7fffffffu) > 0x7f800000u ? mx == 0x7fc00000u
                                                                : c.out[l][1] == mx,
                      "maximum lane %u: 0x%08x", l, c.out[l][1]);
    }
    ck_assert_uint_eq(c.out[0][2], et_f(2.0f));
    ck_assert_uint_eq(c.out[4][2], 0u); /* max(-3, -4, +0) = +0 */
    ck_assert_uint_eq(c.out[0][3], et_f(1.5f));
    ck_assert_uint_eq(c.out[0][4], 0x4c00u); /* 2^4 = 16 in f16 */
    ck_assert_uint_eq(c.out[0][5], et_f(1.0f / 2.25f));
    ck_assert_uint_eq(c.out[0][6], 0x7e008000u); /* min(-0, +0) = -0; NaN */
    ck_assert_uint_eq(c.out[0][7], 0x7e000000u); /* max(-0, +0) = +0; NaN */
}
END_TEST

/* Every op of AMD's data for every target either has semantics on that target
   or a row with the reason in the not-emulated table (emu/core/fidelity.def, from
   tests/data/fidelity/not_emulated.txt), and no row names an op the emulator executes */
START_TEST(every_op_emulated_or_listed)
{
    static const char *const targets[] = { "gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150",
                                           "gfx1151", "gfx1152", "gfx1200", "gfx1201" };
    char missing[4096] = "", extra[4096] = "";
    size_t nm = 0, ne = 0;
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
        const rdx_isa_target *tg = rdx_isa_target_find(targets[t]);
        ck_assert_ptr_nonnull(tg);
        for (unsigned op = 1; op < RDX_ISA_OP_COUNT; op++) {
            if (!rdx_isa_op_available(tg, (rdx_isa_op)op))
                continue;
            const emu_opinfo *oi = emu_op_info(op);
            const char *name = rdx_isa_op_name((rdx_isa_op)op);
            int blocked = !oi || !oi->fn;
            if (tg->family == RDX_ISA_FAMILY_RDNA4 && oi && oi->fn && !strncmp(name, "image_", 6))
                blocked = 1; /* predecode's gfx12 gaps */
            const char *gap = emu_op_gap(op, tg->family);
            if (blocked && !gap)
                nm += (size_t)snprintf(missing + nm, nm < sizeof missing ? sizeof missing - nm : 0,
                                       " %s:%s", targets[t], name);
            if (!blocked && gap)
                ne += (size_t)snprintf(extra + ne, ne < sizeof extra ? sizeof extra - ne : 0,
                                       " %s:%s", targets[t], name);
        }
    }
    ck_assert_msg(nm == 0, "ops without semantics and without a not-emulated row:%s", missing);
    ck_assert_msg(ne == 0, "not-emulated rows for ops that have semantics:%s", extra);
    /* the reason is in the fault report */
    ck_assert_ptr_nonnull(emu_op_gap(RDX_ISA_OP_GLOBAL_LOAD_TR_B64, RDX_ISA_FAMILY_RDNA4));
    ck_assert_ptr_null(emu_op_gap(RDX_ISA_OP_V_WMMA_F32_16X16X16_FP8_FP8, RDX_ISA_FAMILY_RDNA4));
    ck_assert_ptr_null(emu_op_gap(RDX_ISA_OP_V_SWMMAC_F32_16X16X32_F16, RDX_ISA_FAMILY_RDNA4));
    ck_assert_ptr_null(emu_op_gap(RDX_ISA_OP_V_WMMA_F32_16X16X16_F16, RDX_ISA_FAMILY_RDNA3));
    ck_assert_ptr_null(emu_op_gap(RDX_ISA_OP_V_WMMA_F32_16X16X16_F16, RDX_ISA_FAMILY_RDNA4));
}
END_TEST

/* gfx12 WMMA (wave32) with gfx12's register layout, as tinygrad's emulator has it
   (test/mockgpu/amd/emu.py _compile_wmma, checked against RDNA4 hardware by tinygrad):
   A row i / B column i element k in lane i + 16*k[2], element k[1:0] | k[3] << 2 (two
   16-bit values per VGPR); D (m, n) in lane n + 16*m[3], VGPR m[2:0].  Expected values: a
   host matmul in double of small integers (exact in f16 and f32). */
static uint16_t h16(int v)
{
    /* small integers as f16 bits */
    if (v == 0)
        return 0;
    unsigned a = (unsigned)(v < 0 ? -v : v), e = 0;
    while ((a >> e) > 1)
        e++;
    uint16_t m = (uint16_t)(((a << 10) >> e) & 0x3ff);
    return (uint16_t)((v < 0 ? 0x8000u : 0) | (e + 15) << 10 | m);
}

START_TEST(gfx12_wmma_layout)
{
    int A[16][16], B[16][16];
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 16; k++) {
            A[i][k] = (i * 3 + k * 5) % 7 - 3;
            B[k][i] = (i * 2 + k * 7) % 5 - 2;
        }
    et_case c = { 0 };
    c.target = "gfx1201";
    c.nin = 8; /* v1..v4: A, v5..v8: B */
    for (unsigned l = 0; l < 32; l++)
        for (unsigned e = 0; e < 8; e++) {
            unsigned i = l % 16, k = (e & 3) | (l / 16) << 2 | (e >> 2) << 3;
            c.in[l][e / 2] |= (uint32_t)h16(A[i][k]) << (16 * (e % 2));
            c.in[l][4 + e / 2] |= (uint32_t)h16(B[k][i]) << (16 * (e % 2));
        }
    c.body = "v_mov_b32 v10, 1.0\n v_mov_b32 v11, 1.0\n v_mov_b32 v12, 1.0\n"
             "v_mov_b32 v13, 1.0\n v_mov_b32 v14, 1.0\n v_mov_b32 v15, 1.0\n"
             "v_mov_b32 v16, 1.0\n v_mov_b32 v17, 1.0\n"
             "v_wmma_f32_16x16x16_f16 v[10:17], v[1:4], v[5:8], v[10:17]\n";
    c.nout = 8;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++)
        for (unsigned v = 0; v < 8; v++) {
            unsigned m = v + 8 * (l / 16), n = l % 16;
            int d = 1;
            for (int k = 0; k < 16; k++)
                d += A[m][k] * B[k][n];
            ck_assert_msg(c.out[l][v] == et_f((float)d), "D[%u][%u] lane %u v%u: 0x%08x, want %d",
                          m, n, l, v, c.out[l][v], d);
        }
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
    tc = tcase_create("gfx12");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, gfx12_memory);
    tcase_add_test(tc, gfx12_buffer);
    tcase_add_test(tc, gfx12_permlane_var);
    tcase_add_test(tc, gfx12_salu_smem);
    tcase_add_test(tc, gfx12_faults);
    tcase_add_test(tc, gfx12_run_asm_target);
    tcase_add_test(tc, gfx12_minimum_vs_trans);
    tcase_add_test(tc, every_op_emulated_or_listed);
    tcase_add_test(tc, gfx12_wmma_layout);
    suite_add_tcase(s, tc);
    return s;
}
