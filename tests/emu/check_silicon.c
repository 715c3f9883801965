/*
 * tests/emu/check_silicon.c — instructions whose result on RDNA3 silicon
 * differs from the ISA guide's pseudocode (or that the guide leaves open).
 * Each test names its source of truth: a test of tinygrad's test/amd/hw/
 * (written for and validated on real gfx1100 hardware), AMD's RDNA3 ISA guide,
 * or LLVM's AMDGPU tests.  docs/emu.md, "Where rdx follows silicon", lists them.
 */
#include <math.h>
#include <string.h>

#include "tests/emu/emu_test.h"

Suite *et_suite_silicon(void)
{
    Suite *s = suite_create("emu_silicon");
    TCase *t = tcase_create("silicon");
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);
    return s;
}
