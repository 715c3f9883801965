/* tests/isa/isa_test.h — the isa suite's test-case groups. */
#ifndef RDX_TESTS_ISA_TEST_H
#define RDX_TESTS_ISA_TEST_H

#include <check.h>

void isa_add_corpus_tests(Suite *s);
void isa_add_api_tests(Suite *s);

#endif
