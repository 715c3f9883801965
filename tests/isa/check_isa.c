/* tests/isa/check_isa.c — the isa suite: tables, encoder, decoder. */
#include "tests/harness/harness.h"
#include "tests/isa/isa_test.h"

int main(void)
{
    Suite *s = suite_create("isa");
    isa_add_corpus_tests(s);
    isa_add_api_tests(s);
    isa_add_random_tests(s);
    isa_add_asmdiff_tests(s);
    isa_add_asmlines_tests(s);
    isa_add_rule_tests(s);
    return rdx_test_main(s);
}
