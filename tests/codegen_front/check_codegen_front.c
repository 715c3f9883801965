/* tests/codegen_front/check_codegen_front.c — the codegen front-half suite:
 * every schedule is evaluated on the host (keval.c) and compared with the
 * reference interpreter on the original tensor graph. */
#include "tests/codegen_front/cgf_test.h"

int main(void)
{
    Suite *s = suite_create("codegen_front");
    suite_add_tcase(s, cgf_tcase_ops());
    suite_add_tcase(s, cgf_tcase_random());
    suite_add_tcase(s, cgf_tcase_opts());
    suite_add_tcase(s, cgf_tcase_schedule());
    suite_add_tcase(s, cgf_tcase_e2e());
    suite_add_tcase(s, cgf_tcase_cli());
    suite_add_tcase(s, cgf_tcase_tc());
    suite_add_tcase(s, cgf_tcase_tiles());
    suite_add_tcase(s, cgf_tcase_warp());
    suite_add_tcase(s, cgf_tcase_lds());
    suite_add_tcase(s, cgf_tcase_lds_align());
    suite_add_tcase(s, cgf_tcase_split_reduce());
    suite_add_tcase(s, cgf_tcase_opt_text());
    suite_add_tcase(s, cgf_tcase_rowfuse());
    suite_add_tcase(s, cgf_tcase_group_tree());
    suite_add_tcase(s, cgf_tcase_beam());
    suite_add_tcase(s, cgf_tcase_gpudims());
    suite_add_tcase(s, cgf_tcase_program());
    suite_add_tcase(s, cgf_tcase_interleave());
    return rdx_test_main(s);
}
