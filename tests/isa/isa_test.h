/* tests/isa/isa_test.h — the isa suite's test-case groups. */
#ifndef RDX_TESTS_ISA_TEST_H
#define RDX_TESTS_ISA_TEST_H

#include <check.h>
#include <stdbool.h>

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

#endif
