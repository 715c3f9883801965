#include "tests/ir/ir_test.h"
TCase *ir_tcase_cli(void)
{
    return tcase_create("cli");
}
