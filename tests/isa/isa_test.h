/* tests/isa/isa_test.h — the isa suite's test-case groups. */
#ifndef RDX_TESTS_ISA_TEST_H
#define RDX_TESTS_ISA_TEST_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rdx/isa.h>

/* One operand of llvm-mc's printed text, classified. */
typedef enum llvm_kind {
    LLVM_OTHER,
    LLVM_SGPR,
    LLVM_VGPR,
    LLVM_TTMP,
    LLVM_SPECIAL,
    LLVM_OFF
} llvm_kind;
typedef struct llvm_opnd {
    llvm_kind kind;
    unsigned reg, count; /* registers; SPECIAL: operand code, count (0: any) */
    char text[64];
} llvm_opnd;

/* Operands of an llvm-mc text line in order (VOPD: X's then Y's, *nx = X's). */
unsigned llvm_text_operands(const char *text, llvm_opnd *out, unsigned max, unsigned *nx);

void isa_add_corpus_tests(Suite *s);
void isa_add_api_tests(Suite *s);
void isa_add_random_tests(Suite *s);
void isa_add_asmdiff_tests(Suite *s);
void isa_add_asmlines_tests(Suite *s);
void isa_add_rule_tests(Suite *s); /* check_isa_rules.c: rdx_isa_check */

/* llvm-mc of LLVM `major` (19: the oracle rdx follows); fails the test when absent. */
const char *isa_mc_path(int major);
/* llvm-mc's bytes for each of lines[0..n) for target t, in one run: ok[i] whether
   it assembled, b[i] / len[i] its bytes. */
void isa_mc_assemble_lines(const char *mc, const rdx_isa_target *t, char *const *lines, size_t n,
                           bool *ok, uint8_t (*b)[RDX_ISA_MAX_BYTES], size_t *len);

#endif
