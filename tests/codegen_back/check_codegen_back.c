/* tests/codegen_back/check_codegen_back.c — the codegen back-end suite. */
#include "tests/codegen_back/cgb_test.h"

int main(void)
{
    Suite *s = suite_create("codegen_back");
    suite_add_tcase(s, cgb_tcase_examples());
    suite_add_tcase(s, cgb_tcase_alu());
    suite_add_tcase(s, cgb_tcase_tools());
    suite_add_tcase(s, cgb_tcase_vector());
    suite_add_tcase(s, cgb_tcase_spill());
    suite_add_tcase(s, cgb_tcase_hazard());
    suite_add_tcase(s, cgb_tcase_const());
    suite_add_tcase(s, cgb_tcase_pack());
    suite_add_tcase(s, cgb_tcase_bind());
    suite_add_tcase(s, cgb_tcase_lds_merge());
    suite_add_tcase(s, cgb_tcase_atomic());
    suite_add_tcase(s, cgb_tcase_wmma_rules());
    suite_add_tcase(s, cgb_tcase_targets());
    return rdx_test_main(s);
}
