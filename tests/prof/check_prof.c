/*
 * tests/prof/check_prof.c — the profiling suite: the emulator's profile
 * (rdx/emu_prof.h) against independent counts, and `rdx prof`'s report, JSON,
 * Chrome trace and comparison.  Builds tests/data/prof/loops.cl with clang-19
 * -g once (at -O2 and -O0).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>

#include "tests/prof/prof_test.h"

char *pt_loops_co, *pt_loops_o0_co;

uint8_t *pt_assemble(const char *src, size_t *len)
{
    rdx_asm_options o = { .filename = "test.s", .arch = "gfx1100" };
    rdx_asm_result *r = NULL;
    rdx_status st = rdx_asm_assemble(src, strlen(src), &o, &r);
    if (st && r)
        for (size_t i = 0; i < r->ndiags; i++)
            fprintf(stderr, "%s\n", r->diags[i].text);
    ck_assert_int_eq(st, RDX_OK);
    uint8_t *out = NULL;
    ck_assert_int_eq(rdx_asm_write_codeobj(r, &out, len), RDX_OK);
    rdx_asm_free(r);
    return out;
}

int pt_prof(const char *const *args, rdx_test_proc *p)
{
    const char *argv[48];
    int n = 0;
    argv[n++] = rdx_test_rdx_path();
    argv[n++] = "prof";
    for (; *args && n < 46; args++)
        argv[n++] = *args;
    argv[n] = NULL;
    return rdx_test_run(argv, NULL, 0, p);
}

int main(void)
{
    /* -g: the report's source lines come from the code object's DWARF line table */
    const char *o2[] = { "-g", "-O2", NULL }, *o0[] = { "-g", "-O0", NULL };
    pt_loops_co = rdx_test_prebuild("tests/data/prof/loops.cl", o2, "loops-O2.co");
    pt_loops_o0_co = rdx_test_prebuild("tests/data/prof/loops.cl", o0, "loops-O0.co");
    Suite *s = suite_create("prof");
    suite_add_tcase(s, pt_tcase_api());
    suite_add_tcase(s, pt_tcase_cli());
    suite_add_tcase(s, pt_tcase_sqtt());
    suite_add_tcase(s, pt_tcase_compare());
    suite_add_tcase(s, pt_tcase_hw());
    int rc = rdx_test_main(s);
    free(pt_loops_co);
    free(pt_loops_o0_co);
    return rc;
}
