/* tests/realize/check_realize.c — the realize suite: tensor programs built in C
 * with rdx/tensor.h, compiled and run on the default device through
 * rdx/realize.h (the emulated gfx1100 here), compared with the reference
 * interpreter. */
#include "tests/realize/rz_test.h"

int main(void)
{
    Suite *s = suite_create("realize");
    suite_add_tcase(s, rz_tcase_ops());
    suite_add_tcase(s, rz_tcase_model());
    suite_add_tcase(s, rz_tcase_report());
    suite_add_tcase(s, rz_tcase_errors());
    suite_add_tcase(s, rz_tcase_cli());
    suite_add_tcase(s, rz_tcase_random());
    suite_add_tcase(s, rz_tcase_fuzz_regress());
    suite_add_tcase(s, rz_tcase_rowfuse());
    suite_add_tcase(s, rz_tcase_beam_budget());
    suite_add_tcase(s, rz_tcase_grouped());
    suite_add_tcase(s, rz_tcase_multi());
    suite_add_tcase(s, rz_tcase_multi_run());
    suite_add_tcase(s, rz_tcase_multi_grad());
    suite_add_tcase(s, rz_tcase_multi_copy());
    suite_add_tcase(s, rz_tcase_multi_inner());
    suite_add_tcase(s, rz_tcase_fuzz_deadline());
    suite_add_tcase(s, rz_tcase_semantics());
    suite_add_tcase(s, rz_tcase_program());
    suite_add_tcase(s, rz_tcase_fp8());
    return rdx_test_main(s);
}
