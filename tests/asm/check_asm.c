/* tests/asm/check_asm.c — the asm suite: assembler and disassembler text. */
#include "tests/asm/asm_test.h"
#include "tests/harness/harness.h"

int main(void)
{
    Suite *s = suite_create("asm");
    asm_add_corpus_tests(s);
    asm_add_directive_tests(s);
    asm_add_error_tests(s);
    asm_add_variant_tests(s);
    asm_add_dis_tests(s);
    asm_add_clang_s_tests(s);
    asm_add_alias_tests(s);
    asm_add_kd_tests(s);
    asm_add_line_tests(s);
    asm_add_rule_tests(s);
    return rdx_test_main(s);
}
