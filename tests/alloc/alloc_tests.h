/* tests/alloc/alloc_tests.h — the test cases of the alloc suite. */
#ifndef RDX_TESTS_ALLOC_H
#define RDX_TESTS_ALLOC_H

#include <check.h>
#include <string.h>

#include <rdx/alloc.h>

TCase *alloc_heap_tcase(void);
TCase *alloc_ring_tcase(void);
TCase *alloc_plan_tcase(void);

/* Assert the current error message contains `needle`. */
#define CHECK_MSG(needle)                                                                       \
    ck_assert_msg(strstr(rdx_error_message(), (needle)) != NULL, "message \"%s\" lacks \"%s\"", \
                  rdx_error_message(), (needle))

#endif
