/* tests/pm4/main.c — the pm4 suite: builders against the public layouts,
 * the dispatch sequence, decoding, malformed streams, the rdx pm4 command. */
#include <stdlib.h>

#include "tests/harness/harness.h"
#include "tests/pm4/pm4_tests.h"

char *pm4_test_disasm(const rdx_pm4_cmdbuf *cb, int sdma)
{
    rdx_pm4_disasm_opts o = { .sdma = sdma };
    char *text = NULL;
    rdx_status st = rdx_pm4_disasm(cb->dw, cb->len, &o, &text);
    ck_assert_msg(st == RDX_OK, "disasm failed: %s\n%s", rdx_error_message(), text ? text : "");
    ck_assert_ptr_nonnull(text);
    return text;
}

int main(void)
{
    Suite *s = suite_create("pm4");
    suite_add_tcase(s, pm4_builder_tcase());
    suite_add_tcase(s, pm4_sdma_tcase());
    suite_add_tcase(s, pm4_dispatch_tcase());
    suite_add_tcase(s, pm4_decode_tcase());
    suite_add_tcase(s, pm4_malformed_tcase());
    suite_add_tcase(s, pm4_cli_tcase());
    suite_add_tcase(s, pm4_llvm_tcase());
    return rdx_test_main(s);
}
