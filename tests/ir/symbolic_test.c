#include "tests/ir/ir_test.h"
TCase *ir_tcase_symbolic(void)
{
    return tcase_create("symbolic");
}
