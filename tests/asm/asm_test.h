/* tests/asm/asm_test.h — the asm suite's test groups. */
#ifndef RDX_TESTS_ASM_TEST_H
#define RDX_TESTS_ASM_TEST_H

#include <check.h>

void asm_add_corpus_tests(Suite *s);
void asm_add_directive_tests(Suite *s);
void asm_add_error_tests(Suite *s);
void asm_add_variant_tests(Suite *s);
void asm_add_dis_tests(Suite *s);
void asm_add_clang_s_tests(Suite *s);
void asm_add_alias_tests(Suite *s);
void asm_add_kd_tests(Suite *s);
void asm_add_line_tests(Suite *s);
void asm_add_rule_tests(Suite *s); /* check_asm_rules.c: operand rules (rdx_isa_check) */

#endif
