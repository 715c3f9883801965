#include "tests/ir/ir_test.h"
TCase *ir_tcase_text(void)
{
    return tcase_create("text");
}
