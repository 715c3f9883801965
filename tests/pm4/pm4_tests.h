/* tests/pm4/pm4_tests.h — the test cases of the pm4 suite. */
#ifndef RDX_TESTS_PM4_H
#define RDX_TESTS_PM4_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include <rdx/pm4.h>

TCase *pm4_builder_tcase(void);
TCase *pm4_sdma_tcase(void);
TCase *pm4_dispatch_tcase(void);
TCase *pm4_decode_tcase(void);
TCase *pm4_malformed_tcase(void);
TCase *pm4_cli_tcase(void);
TCase *pm4_llvm_tcase(void);

/* Assert that cb holds exactly want[0..n). */
#define CHECK_DWORDS(cb, want)                                                                  \
    do {                                                                                        \
        ck_assert_int_eq(rdx_pm4_cmdbuf_status(cb), RDX_OK);                                    \
        ck_assert_uint_eq((cb)->len, sizeof(want) / sizeof((want)[0]));                         \
        for (size_t i_ = 0; i_ < (cb)->len; i_++)                                               \
            ck_assert_msg((cb)->dw[i_] == (want)[i_], "dword %zu: got 0x%08x, want 0x%08x", i_, \
                          (cb)->dw[i_], (want)[i_]);                                            \
    } while (0)

/* Disassemble cb (PM4 unless sdma) and return the malloc'd text; asserts RDX_OK. */
char *pm4_test_disasm(const rdx_pm4_cmdbuf *cb, int sdma);
/* Assert `text` contains `needle`. */
#define CHECK_HAS(text, needle) \
    ck_assert_msg(strstr((text), (needle)) != NULL, "missing \"%s\" in:\n%s", (needle), (text))

#endif
