/* tests/codeobj/check_codeobj.c — the code-object suite: descriptors, MessagePack,
 * metadata, writer, reader (against clang-19 / llvm-readelf / llvm-objdump), bad input,
 * and `rdx readelf`. */
#include "tests/codeobj/co_test.h"

TCase *co_tcase_kd(void);
TCase *co_tcase_cli(void);
TCase *co_tcase_bad(void);
TCase *co_tcase_write(void);
TCase *co_tcase_clang(void);
TCase *co_tcase_msgpack(void);

int main(void)
{
    Suite *s = suite_create("codeobj");
    suite_add_tcase(s, co_tcase_msgpack());
    suite_add_tcase(s, co_tcase_kd());
    suite_add_tcase(s, co_tcase_clang());
    suite_add_tcase(s, co_tcase_write());
    suite_add_tcase(s, co_tcase_bad());
    suite_add_tcase(s, co_tcase_cli());
    return rdx_test_main(s);
}
