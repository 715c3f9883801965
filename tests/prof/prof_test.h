/* tests/prof/prof_test.h — shared pieces of the prof suite (rdx prof, rdx/emu_prof.h). */
#ifndef RDX_TESTS_PROF_TEST_H
#define RDX_TESTS_PROF_TEST_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include <rdx/emu.h>
#include <rdx/emu_prof.h>

#include "tests/harness/harness.h"

/* tests/data/prof/loops.cl built by clang-19 -g at -O2 and -O0 (linked code objects). */
extern char *pt_loops_co, *pt_loops_o0_co;
/* A gfx1200 kernel "k" (one group of 64 work-items, one 256-byte buffer argument): a scalar
   load, a 3-trip loop, LDS with the split barrier, a transcendental, a store. */
extern const char pt_gfx12_src[];

/* Assemble src (gfx1100 assembly) into a code object (malloc'd); aborts the test on error. */
uint8_t *pt_assemble(const char *src, size_t *len);
/* The same for the target arch ("gfx1200"). */
uint8_t *pt_assemble_for(const char *src, const char *arch, size_t *len);
/* Run `rdx prof ARGS...` (NULL-terminated). */
int pt_prof(const char *const *args, rdx_test_proc *p);

TCase *pt_tcase_api(void);
TCase *pt_tcase_cli(void);
TCase *pt_tcase_sqtt(void);
TCase *pt_tcase_compare(void);
TCase *pt_tcase_hw(void);

#endif
