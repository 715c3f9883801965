#include "tests/ir/ir_test.h"
TCase *ir_tcase_dtype(void)
{
    return tcase_create("dtype");
}
