#include "tests/ir/ir_test.h"
TCase *ir_tcase_rewrite(void)
{
    return tcase_create("rewrite");
}
