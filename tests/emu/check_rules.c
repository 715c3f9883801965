/*
 * tests/emu/check_rules.c — code that breaks an operand rule of the hardware
 * (rdx_isa_check, isa/isa_check.c) stops the dispatch at predecode with an
 * OPERAND_RULE fault naming the PC, the instruction and the rule; the same
 * instruction within the rule runs.  Rules llvm-mc enforces are written as
 * raw words (.long: llvm-mc's bytes of an accepted instruction with one
 * register field changed), the WMMA overlap (which llvm-mc 19 and 22 accept)
 * as text.  vopd-dst and vgpr16-e32 cannot be broken by bytes (the Y
 * destination field holds bits 7:1 and the other bit is implied; bit 7 of a
 * 16-bit e32 field selects the high half), so they are the assembler's
 * tests (tests/asm/check_asm_rules.c).
 */
#include <stdio.h>
#include <string.h>

#include "tests/emu/emu_test.h"

typedef struct rule_case {
    const char *rule; /* rdx_isa_rule_name */
    const char *bad;  /* breaks it */
    const char *inst; /* its text in the fault report */
    const char *good; /* the same instruction within the rule */
} rule_case;

static const rule_case cases[] = {
    /* RDNA3 WMMA: D overlaps B (llvm-mc accepts; LLVM's code generator makes D early-clobber) */
    { "wmma-overlap", "v_wmma_f32_16x16x16_f16 v[10:17], v[20:27], v[16:23], v[10:17]\n",
      "v_wmma_f32_16x16x16_f16 v[10:17], v[20:27], v[16:23], v[10:17]",
      "v_wmma_f32_16x16x16_f16 v[10:17], v[20:27], v[30:37], v[10:17]\n" },
    /* D partly overlaps C */
    { "wmma-overlap", "v_wmma_f32_16x16x16_f16 v[10:17], v[20:27], v[30:37], v[11:18]\n",
      "v_wmma_f32_16x16x16_f16 v[10:17], v[20:27], v[30:37], v[11:18]",
      "v_wmma_f32_16x16x16_f16 v[10:17], v[20:27], v[30:37], v[40:47]\n" },
    /* src0 of X (v1) and Y (v5) in bank 1; llvm-mc 19: "src0 operands must use different
       VGPR banks" (good: v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v3, v4, v7) */
    { "vopd-bank", ".long 0xc9060501, 0x00020f05\n",
      "v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v3, v5, v7",
      "v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v3, v4, v7\n" },
    /* vcc (cndmask), s1 and s2 over the pair; llvm-mc 19: "invalid operand (violates constant
       bus restrictions)" */
    { "vopd-constant-bus", ".long 0xca500401, 0x00000002\n",
      "v_dual_cndmask_b32 v0, s1, v2 :: v_dual_mov_b32 v1, s2",
      "v_dual_cndmask_b32 v0, s1, v2 :: v_dual_mov_b32 v1, s1\n" },
    /* an odd SGPR pair (s_mov_b64 s[0:1], s[3:4]); llvm-mc 19 rejects the text ("invalid
       register alignment") and disassembles the bytes as s[2:3] */
    { "sgpr-align", ".long 0xbe800103\n", "s_mov_b64 s[0:1], s[3:4]",
      "s_mov_b64 s[0:1], s[2:3]\n" },
    /* three SGPRs in a VOP3; llvm-mc 19: "invalid operand (violates constant bus
       restrictions)" */
    { "constant-bus", ".long 0xd6130000, 0x000c0401\n", "v_fma_f32 v0, s1, s2, s3",
      "v_fma_f32 v0, s1, s2, v3\n" },
};

START_TEST(operand_rule_faults)
{
    const rule_case *rc = &cases[_i];
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create("gfx1100", &e), RDX_OK);
    et_case c = { 0 };
    c.body = rc->bad;
    ck_assert_int_eq(et_run_on(e, &c), RDX_ERR_INVALID);
    const rdx_emu_fault *f = rdx_emu_last_fault(e);
    ck_assert_int_eq(f->kind, RDX_EMU_FAULT_OPERAND_RULE);
    ck_assert_msg(!strcmp(f->inst, rc->inst), "inst: %s", f->inst);
    char rule[64];
    snprintf(rule, sizeof rule, "[rule %s]", rc->rule);
    const char *m = rdx_error_message();
    ck_assert_msg(strstr(m, "operand rule violated") && strstr(m, rc->inst) &&
                      strstr(m, "at pc 0x") && strstr(m, rule),
                  "message: %s", m);
    ck_assert_msg(strstr(f->message, rule), "%s", f->message);
    /* the instruction within the rule runs, on the same emulator */
    et_case g = { 0 };
    g.body = rc->good;
    ck_assert_msg(et_run_on(e, &g) == RDX_OK, "%s: %s", rc->good, rdx_error_message());
    rdx_emu_destroy(e);
}
END_TEST

/* What silicon runs correctly is not a fault: both halves of a VOPD pair reading the same
   VGPR (tinygrad's hardware-validated test_vopd does; llvm-mc 19 rejects the text: "src0
   operands must use different VGPR banks"), and a wave64 WMMA whose 4-VGPR D ends where A
   starts (clang-19 -O0 emits it for __builtin_amdgcn_wmma_*_w64). */
START_TEST(silicon_runs_these)
{
    et_case c = { 0 };
    c.body = "v_mov_b32 v1, 7\n .long 0xca100101, 0x02020101\n v_add_nc_u32 v10, v2, v3\n";
    c.nout = 1;
    et_ok(&c);
    ck_assert_uint_eq(c.out[0][0], 14);
    et_case w = { 0 };
    w.lanes = 64;
    w.body = "v_wmma_f32_16x16x16_f16 v[10:13], v[14:21], v[22:29], v[10:13]\n";
    et_ok(&w);
    /* in wave64 D v[10:13] overlapping A v[12:19] faults */
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create("gfx1100", &e), RDX_OK);
    et_case b = { 0 };
    b.lanes = 64;
    b.body = "v_wmma_f32_16x16x16_f16 v[10:13], v[12:19], v[22:29], v[10:13]\n";
    ck_assert_int_eq(et_run_on(e, &b), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_emu_last_fault(e)->kind, RDX_EMU_FAULT_OPERAND_RULE);
    ck_assert_msg(strstr(rdx_emu_last_fault(e)->message, "[rule wmma-overlap]"), "%s",
                  rdx_emu_last_fault(e)->message);
    rdx_emu_destroy(e);
}
END_TEST

Suite *et_suite_rules(void)
{
    Suite *s = suite_create("emu_rules");
    TCase *tc = tcase_create("rules");
    tcase_set_timeout(tc, 60); /* two llvm-mc runs per case */
    tcase_add_loop_test(tc, operand_rule_faults, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, silicon_runs_these);
    suite_add_tcase(s, tc);
    return s;
}
