/*
 * tests/isa/check_isa_rules.c — rdx_isa_check on instruction values: each rule
 * found with its name, the flags (LLVM_ONLY, VGPR_NUMBERS, WAVE64, SILICON), and
 * the encoder rejecting the llvm-mc rules but not wmma-overlap.
 */
#include <string.h>

#include <rdx/isa.h>

#include "tests/harness/harness.h"
#include "tests/isa/isa_test.h"

static rdx_isa_inst wmma(unsigned d, unsigned a, unsigned b, unsigned c, unsigned cc)
{
    rdx_isa_inst in;
    memset(&in, 0, sizeof in);
    in.op = RDX_ISA_OP_V_WMMA_F32_16X16X16_F16;
    in.form = RDX_ISA_FORM_E64;
    in.nopnd = 4;
    in.opnd[0] = rdx_isa_vgpr(d, 8);
    in.opnd[1] = rdx_isa_vgpr(a, 8);
    in.opnd[2] = rdx_isa_vgpr(b, 8);
    in.opnd[3] = rdx_isa_vgpr(c, cc);
    return in;
}

static rdx_isa_rule rule_of(const rdx_isa_inst *in, unsigned flags)
{
    rdx_isa_rule r = RDX_ISA_RULE_COUNT;
    rdx_status st = rdx_isa_check(rdx_isa_target_find("gfx1100"), in, flags, &r);
    ck_assert_int_eq(st != RDX_OK, r != RDX_ISA_RULE_NONE);
    if (st)
        ck_assert_msg(strstr(rdx_error_message(), rdx_isa_rule_name(r)), "%s", rdx_error_message());
    return r;
}

START_TEST(rules_found_and_named)
{
    const rdx_isa_target *t = rdx_isa_target_find("gfx1100");
    uint8_t b[RDX_ISA_MAX_BYTES];
    size_t n;
    /* WMMA: D = C exact, disjoint; D over B; D partly over C; D over A only in wave32 */
    rdx_isa_inst w = wmma(10, 20, 30, 10, 8);
    ck_assert_int_eq(rule_of(&w, 0), RDX_ISA_RULE_NONE);
    w = wmma(2, 34, 3, 2, 8);
    ck_assert_int_eq(rule_of(&w, 0), RDX_ISA_RULE_WMMA_OVERLAP);
    ck_assert_int_eq(rule_of(&w, RDX_ISA_CHECK_LLVM_ONLY), RDX_ISA_RULE_NONE);
    ck_assert_int_eq(rdx_isa_encode(t, &w, b, &n), RDX_OK); /* llvm-mc encodes it too */
    w = wmma(10, 20, 30, 11, 8);
    ck_assert_int_eq(rule_of(&w, 0), RDX_ISA_RULE_WMMA_OVERLAP);
    w = wmma(0, 4, 12, 0, 8); /* clang's wave64 -O0 code, decoded with wave32 ranges */
    ck_assert_int_eq(rule_of(&w, 0), RDX_ISA_RULE_WMMA_OVERLAP);
    ck_assert_int_eq(rule_of(&w, RDX_ISA_CHECK_WAVE64), RDX_ISA_RULE_NONE);
    /* constant bus */
    rdx_isa_inst f;
    memset(&f, 0, sizeof f);
    f.op = RDX_ISA_OP_V_FMA_F32;
    f.form = RDX_ISA_FORM_E64;
    f.nopnd = 4;
    f.opnd[0] = rdx_isa_vgpr(0, 1);
    f.opnd[1] = rdx_isa_sgpr(1, 1);
    f.opnd[2] = rdx_isa_sgpr(2, 1);
    f.opnd[3] = rdx_isa_sgpr(1, 1);
    ck_assert_int_eq(rule_of(&f, 0), RDX_ISA_RULE_NONE);
    f.opnd[3] = rdx_isa_sgpr(3, 1);
    ck_assert_int_eq(rule_of(&f, 0), RDX_ISA_RULE_CONSTANT_BUS);
    ck_assert_int_eq(rdx_isa_encode(t, &f, b, &n), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "[rule constant-bus]"));
    /* VOPD: v_dual_mov_b32 v2, v1 :: v_dual_mov_b32 v3, v5 (src0 both bank 1) */
    rdx_isa_inst d;
    memset(&d, 0, sizeof d);
    d.op = RDX_ISA_OP_V_DUAL_MOV_B32;
    d.op_y = RDX_ISA_OP_V_DUAL_MOV_B32;
    d.form = RDX_ISA_FORM_NATIVE;
    d.nx = 2;
    d.nopnd = 4;
    d.opnd[0] = rdx_isa_vgpr(2, 1);
    d.opnd[1] = rdx_isa_vgpr(1, 1);
    d.opnd[2] = rdx_isa_vgpr(3, 1);
    d.opnd[3] = rdx_isa_vgpr(5, 1);
    ck_assert_int_eq(rule_of(&d, 0), RDX_ISA_RULE_VOPD_BANK);
    ck_assert_int_eq(rule_of(&d, RDX_ISA_CHECK_SILICON), RDX_ISA_RULE_VOPD_BANK);
    d.opnd[3] = rdx_isa_vgpr(1, 1); /* the same VGPR: llvm-mc rejects, silicon runs it */
    ck_assert_int_eq(rule_of(&d, 0), RDX_ISA_RULE_VOPD_BANK);
    ck_assert_int_eq(rule_of(&d, RDX_ISA_CHECK_SILICON), RDX_ISA_RULE_NONE);
    d.opnd[3] = rdx_isa_vgpr(4, 1);
    ck_assert_int_eq(rule_of(&d, 0), RDX_ISA_RULE_NONE);
    d.opnd[2] = rdx_isa_vgpr(4, 1); /* two even destinations */
    ck_assert_int_eq(rule_of(&d, 0), RDX_ISA_RULE_VOPD_DST);
    ck_assert_int_eq(rdx_isa_encode(t, &d, b, &n), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "one even and one odd"));
    /* 16-bit e32 operand v200: a register number (text, codegen) or the field (.h of v72) */
    rdx_isa_inst h;
    memset(&h, 0, sizeof h);
    h.op = RDX_ISA_OP_V_ADD_F16;
    h.form = RDX_ISA_FORM_E32;
    h.nopnd = 3;
    h.opnd[0] = rdx_isa_vgpr(1, 1);
    h.opnd[1] = rdx_isa_vgpr(200, 1);
    h.opnd[2] = rdx_isa_vgpr(2, 1);
    ck_assert_int_eq(rule_of(&h, 0), RDX_ISA_RULE_NONE);
    ck_assert_int_eq(rule_of(&h, RDX_ISA_CHECK_VGPR_NUMBERS), RDX_ISA_RULE_VGPR16_E32);
    h.form = RDX_ISA_FORM_E64;
    ck_assert_int_eq(rule_of(&h, RDX_ISA_CHECK_VGPR_NUMBERS), RDX_ISA_RULE_NONE);
    /* an odd SGPR pair: bytes can hold it (LLVM's disassembler prints the aligned pair) */
    rdx_isa_inst m;
    memset(&m, 0, sizeof m);
    m.op = RDX_ISA_OP_S_MOV_B64;
    m.form = RDX_ISA_FORM_NATIVE;
    m.nopnd = 2;
    m.opnd[0] = rdx_isa_sgpr(0, 2);
    m.opnd[1] = rdx_isa_sgpr(2, 2);
    ck_assert_int_eq(rule_of(&m, 0), RDX_ISA_RULE_NONE);
    m.opnd[1] = rdx_isa_sgpr(3, 2);
    ck_assert_int_eq(rule_of(&m, 0), RDX_ISA_RULE_SGPR_ALIGN);
    ck_assert_int_eq(rdx_isa_encode(t, &m, b, &n), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "[rule sgpr-align]"));
    /* names, llvm flags, bad arguments */
    ck_assert_str_eq(rdx_isa_rule_name(RDX_ISA_RULE_WMMA_OVERLAP), "wmma-overlap");
    ck_assert_str_eq(rdx_isa_rule_name(RDX_ISA_RULE_COUNT), "?");
    ck_assert(!rdx_isa_rule_llvm(RDX_ISA_RULE_WMMA_OVERLAP));
    ck_assert(rdx_isa_rule_llvm(RDX_ISA_RULE_VOPD_BANK));
    ck_assert_int_eq(rdx_isa_check(NULL, &h, 0, NULL), RDX_ERR_INVALID);
}
END_TEST

void isa_add_rule_tests(Suite *s)
{
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, rules_found_and_named);
    suite_add_tcase(s, tc);
}
