/* tests/alloc/main.c — the alloc suite: sub-allocator, kernarg ring, signal
 * pool, memory planner. */
#include "tests/alloc/alloc_tests.h"
#include "tests/harness/harness.h"

int main(void)
{
    Suite *s = suite_create("alloc");
    suite_add_tcase(s, alloc_heap_tcase());
    suite_add_tcase(s, alloc_ring_tcase());
    suite_add_tcase(s, alloc_plan_tcase());
    return rdx_test_main(s);
}
