#include "tests/ir/ir_test.h"
TCase *ir_tcase_derive(void)
{
    return tcase_create("derive");
}
