/* tests/codeobj_oracle — rdx's code objects and dispatches against clang-19 and the
   public hardware rules (see docs/codegen-backend.md, "Code object vs clang"). */
#include "tests/codeobj_oracle/cor_test.h"

int main(void)
{
    Suite *s = suite_create("codeobj_oracle");
    suite_add_tcase(s, cor_tcase_descriptor());
    suite_add_tcase(s, cor_tcase_runtime());
    return rdx_test_main(s);
}
