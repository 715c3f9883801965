#include "tests/ir/ir_test.h"
TCase *ir_tcase_verify(void)
{
    return tcase_create("verify");
}
