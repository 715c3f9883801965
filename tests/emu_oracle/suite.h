/*
 * tests/emu_oracle/suite.h — how another file of the emu_oracle Check suite (the
 * emulator's, later) joins it: it defines rdx_emu_oracle_device_tcase() and gets the
 * suite's prepared oracle, so the corpus is compiled once per run.
 *
 *     // tests/emu_oracle/check_emu_device.c
 *     TCase *rdx_emu_oracle_device_tcase(void)
 *     {
 *         TCase *tc = tcase_create("emulator");
 *         tcase_add_unchecked_fixture(tc, rdx_emu_oracle_suite_setup, NULL);
 *         tcase_add_test(tc, corpus_on_emulator);   // uses rdx_emu_oracle_suite_oracle()
 *         return tc;
 *     }
 */
#ifndef RDX_TESTS_EMU_ORACLE_SUITE_H
#define RDX_TESTS_EMU_ORACLE_SUITE_H

#include <check.h>

#include "tests/oracle/oracle.h"

/* Unchecked fixture: prepares the suite's oracle once (in the parent process, before
 * the first test case that needs it); later calls do nothing.  main() frees it. */
void rdx_emu_oracle_suite_setup(void);

/* The suite's oracle; NULL when the preparation failed, with the reason in *why. */
rdx_oracle *rdx_emu_oracle_suite_oracle(const char **why);

/* Optional: defined by a file of this suite to add its test case (weak: absent
 * until the emulator's tests exist). */
TCase *rdx_emu_oracle_device_tcase(void) __attribute__((weak));
/* The same for the corpus on the RDNA3.5 / RDNA4 emulators (its own oracles per target). */
TCase *rdx_emu_oracle_targets_tcase(void) __attribute__((weak));

#endif /* RDX_TESTS_EMU_ORACLE_SUITE_H */
