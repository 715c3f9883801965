/*
 * tests/runtime/check_runtime.c — the runtime suite: everything through
 * rdx/runtime.h on the emulated GPU, down the same kfd/pm4 path a real card
 * takes.  Builds the test kernels once (clang-19, llvm-mc, ld.lld).
 */
#include <stdlib.h>

#include "tests/runtime/rt_test.h"

char *rt_kernels_co, *rt_asm_co, *rt_spin_co;

static void build_kernels(void)
{
    const char *cl[] = { "-cl-kernel-arg-info", "-O2", NULL };
    rt_kernels_co = rdx_test_prebuild("tests/data/runtime/kernels.cl", cl, "kernels.co");
    rt_asm_co = rdx_test_prebuild("tests/data/runtime/add_value.s", NULL, "add_value.co");
    rt_spin_co = rdx_test_prebuild("tests/data/runtime/spin.s", NULL, "spin.co");
}

int main(void)
{
    build_kernels();
    Suite *s = suite_create("runtime");
    suite_add_tcase(s, rt_tcase_device());
    suite_add_tcase(s, rt_tcase_copy());
    suite_add_tcase(s, rt_tcase_dispatch());
    suite_add_tcase(s, rt_tcase_sync());
    suite_add_tcase(s, rt_tcase_oracle());
    suite_add_tcase(s, rt_tcase_faults());
    suite_add_tcase(s, rt_tcase_hang());
    suite_add_tcase(s, rt_tcase_inject());
    suite_add_tcase(s, rt_tcase_quiet());
    suite_add_tcase(s, rt_tcase_cli());
    suite_add_tcase(s, rt_tcase_targets());
    suite_add_tcase(s, rt_tcase_bounds());
    suite_add_tcase(s, rt_tcase_stop());
    suite_add_tcase(s, rt_tcase_multi());
    int rc = rdx_test_main(s);
    free(rt_kernels_co);
    free(rt_asm_co);
    free(rt_spin_co);
    return rc;
}
