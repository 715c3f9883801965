/*
 * tests/pm4/llvm_oracle.c — COMPUTE_PGM_RSRC1/2/3 field positions against
 * LLVM: llvm-mc assembles gfx1100 kernels from .amdhsa directives into kernel
 * descriptors, whose rsrc words "must match the hardware definition"
 * (AMDHSAKernelDescriptor.h).  The expected field values follow from the
 * directives by AMDGPUUsage's rules (e.g. wave32 VGPR granule 8: 37 VGPRs ->
 * ceil(37/8) - 1 = 4); rdx's register field table must read them back.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/harness/harness.h"
#include "tests/pm4/pm4_tests.h"

static const char kernels[] = ".amdgcn_target \"amdgcn-amd-amdhsa--gfx1100\"\n"
                              ".text\n"
                              ".globl k32\n.p2align 8\n.type k32,@function\nk32:\n  s_endpgm\n"
                              ".globl k64\n.p2align 8\n.type k64,@function\nk64:\n  s_endpgm\n"
                              ".rodata\n.p2align 6\n"
                              ".amdhsa_kernel k32\n"
                              "  .amdhsa_next_free_vgpr 37\n"
                              "  .amdhsa_next_free_sgpr 20\n"
                              "  .amdhsa_user_sgpr_count 6\n"
                              "  .amdhsa_user_sgpr_dispatch_ptr 1\n"
                              "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
                              "  .amdhsa_enable_private_segment 1\n"
                              "  .amdhsa_system_sgpr_workgroup_id_x 1\n"
                              "  .amdhsa_system_sgpr_workgroup_id_y 1\n"
                              "  .amdhsa_system_sgpr_workgroup_id_z 0\n"
                              "  .amdhsa_system_sgpr_workgroup_info 1\n"
                              "  .amdhsa_system_vgpr_workitem_id 2\n"
                              "  .amdhsa_wavefront_size32 1\n"
                              "  .amdhsa_float_round_mode_32 1\n"
                              "  .amdhsa_dx10_clamp 1\n"
                              "  .amdhsa_ieee_mode 0\n"
                              "  .amdhsa_fp16_overflow 1\n"
                              "  .amdhsa_workgroup_processor_mode 1\n"
                              "  .amdhsa_memory_ordered 1\n"
                              "  .amdhsa_forward_progress 1\n"
                              "  .amdhsa_exception_int_div_zero 1\n"
                              "  .amdhsa_exception_fp_ieee_invalid_op 1\n"
                              ".end_amdhsa_kernel\n"
                              ".amdhsa_kernel k64\n"
                              "  .amdhsa_next_free_vgpr 24\n"
                              "  .amdhsa_next_free_sgpr 8\n"
                              "  .amdhsa_wavefront_size32 0\n"
                              "  .amdhsa_shared_vgpr_count 3\n"
                              "  .amdhsa_workgroup_processor_mode 0\n"
                              "  .amdhsa_memory_ordered 0\n"
                              "  .amdhsa_forward_progress 0\n"
                              ".end_amdhsa_kernel\n";

/* Kernel descriptor offsets (AMDGPUUsage): rsrc3 at 44, rsrc1 at 48, rsrc2 at 52. */
static uint32_t le32(const char *p)
{
    const unsigned char *u = (const unsigned char *)p;
    return u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 | (uint32_t)u[3] << 24;
}

#define F(word, reg, field, want) \
    ck_assert_uint_eq(rdx_pm4_reg_get(word, RDX_PM4_RF_##reg##_##field), want)

START_TEST(rsrc_fields_match_llvm_kernel_descriptors)
{
    /* rdx_test_llvm_tool returns a static buffer: copy each path. */
    const char *t_mc = rdx_test_llvm_tool("llvm-mc");
    ck_assert_msg(t_mc, "llvm-mc missing");
    char *mc = strdup(t_mc);
    const char *t_oc = rdx_test_llvm_tool("llvm-objcopy");
    ck_assert_msg(t_oc, "llvm-objcopy missing");
    char *objcopy = strdup(t_oc);
    char *src = rdx_test_tmp_path("k.s"), *obj = rdx_test_tmp_path("k.o");
    char *bin = rdx_test_tmp_path("k.bin");
    rdx_test_write_file(src, kernels, strlen(kernels));
    rdx_test_proc p;
    const char *as[] = {
        mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-filetype=obj", src, "-o", obj, NULL
    };
    ck_assert_msg(rdx_test_run(as, NULL, 0, &p) == 0, "llvm-mc: %s", p.err);
    rdx_test_proc_free(&p);
    const char *cp[] = { objcopy, "-O", "binary", "-j", ".rodata", obj, bin, NULL };
    ck_assert_msg(rdx_test_run(cp, NULL, 0, &p) == 0, "llvm-objcopy: %s", p.err);
    rdx_test_proc_free(&p);
    size_t len;
    char *kd = rdx_test_read_file(bin, &len);
    ck_assert_uint_ge(len, 128);

    uint32_t r3 = le32(kd + 44), r1 = le32(kd + 48), r2 = le32(kd + 52);
    F(r1, COMPUTE_PGM_RSRC1, VGPRS, 4);         /* ceil(37 / 8) - 1, wave32 */
    F(r1, COMPUTE_PGM_RSRC1, SGPRS, 0);         /* gfx10+: must be 0 */
    F(r1, COMPUTE_PGM_RSRC1, FLOAT_MODE, 0xc1); /* round_32 = 1, denorm_16_64 = 3 (default) */
    F(r1, COMPUTE_PGM_RSRC1, PRIV, 0);
    F(r1, COMPUTE_PGM_RSRC1, DX10_CLAMP, 1);
    F(r1, COMPUTE_PGM_RSRC1, DEBUG_MODE, 0);
    F(r1, COMPUTE_PGM_RSRC1, IEEE_MODE, 0);
    F(r1, COMPUTE_PGM_RSRC1, FP16_OVFL, 1);
    F(r1, COMPUTE_PGM_RSRC1, WGP_MODE, 1);
    F(r1, COMPUTE_PGM_RSRC1, MEM_ORDERED, 1);
    F(r1, COMPUTE_PGM_RSRC1, FWD_PROGRESS, 1);
    F(r2, COMPUTE_PGM_RSRC2, SCRATCH_EN, 1);
    F(r2, COMPUTE_PGM_RSRC2, USER_SGPR, 6);
    F(r2, COMPUTE_PGM_RSRC2, TRAP_PRESENT, 0);
    F(r2, COMPUTE_PGM_RSRC2, TGID_X_EN, 1);
    F(r2, COMPUTE_PGM_RSRC2, TGID_Y_EN, 1);
    F(r2, COMPUTE_PGM_RSRC2, TGID_Z_EN, 0);
    F(r2, COMPUTE_PGM_RSRC2, TG_SIZE_EN, 1);
    F(r2, COMPUTE_PGM_RSRC2, TIDIG_COMP_CNT, 2);
    F(r2, COMPUTE_PGM_RSRC2, LDS_SIZE, 0);
    F(r2, COMPUTE_PGM_RSRC2, EXCP_EN, 0x41); /* invalid op (bit 24), int div zero (bit 30) */
    ck_assert_uint_eq(r3, 0);

    uint32_t k3 = le32(kd + 64 + 44), k1 = le32(kd + 64 + 48), k2 = le32(kd + 64 + 52);
    F(k1, COMPUTE_PGM_RSRC1, VGPRS, 5); /* ceil(24 / 4) - 1, wave64 */
    F(k1, COMPUTE_PGM_RSRC1, FLOAT_MODE, 0xc0);
    F(k1, COMPUTE_PGM_RSRC1, IEEE_MODE, 1); /* default */
    F(k1, COMPUTE_PGM_RSRC1, WGP_MODE, 0);
    F(k2, COMPUTE_PGM_RSRC2, TGID_X_EN, 1); /* default */
    F(k2, COMPUTE_PGM_RSRC2, USER_SGPR, 0);
    F(k3, COMPUTE_PGM_RSRC3, SHARED_VGPR_CNT, 3);
    F(k3, COMPUTE_PGM_RSRC3, INST_PREF_SIZE, 0);

    /* The descriptor's words drive a dispatch as the runtime will do it. */
    rdx_pm4_dispatch_desc d = {
        .code_addr = 0x100000,
        .rsrc1 = r1,
        .rsrc2 = r2,
        .rsrc3 = r3,
        .user_sgpr = { 1, 2, 3, 4, 5, 6 },
        .user_sgpr_count = 6,
        .grid = { 1, 1, 1 },
        .block = { 32, 1, 1 },
        .scratch_addr = 0x200000,
        .scratch_waves = 1,
        .scratch_wave_bytes = 256,
        .wave32 = true,
    };
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    ck_assert_int_eq(rdx_pm4_dispatch(&cb, &d), RDX_OK);
    char *t = pm4_test_disasm(&cb, 0);
    CHECK_HAS(t, "USER_SGPR=0x6 TRAP_PRESENT=0x0 TGID_X_EN=0x1 TGID_Y_EN=0x1 TGID_Z_EN=0x0 "
                 "TG_SIZE_EN=0x1 TIDIG_COMP_CNT=0x2");
    CHECK_HAS(t, "COMPUTE_USER_DATA_5=0x00000006");
    free(t);
    rdx_pm4_cmdbuf_free(&cb);
    free(kd);
    free(mc);
    free(objcopy);
    free(bin);
    free(obj);
    free(src);
}
END_TEST

TCase *pm4_llvm_tcase(void)
{
    TCase *tc = tcase_create("llvm_oracle");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, rsrc_fields_match_llvm_kernel_descriptors);
    return tc;
}
