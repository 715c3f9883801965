/* tests/interp/check_interp.c — the reference interpreter suite: every op in every dtype against
 * host C and hand-computed values, views, reductions in the node's own dtype, compositions against
 * naive loops and closed forms, and `rdx eval`. */
#include <stdlib.h>

#include "tests/interp/interp_test.h"

rdx_graph *ig(void)
{
    rdx_graph *g = NULL;
    ck_assert_int_eq(rdx_graph_create(&g, "CPU"), RDX_OK);
    return g;
}

rdx_array ireal(rdx_graph *g, const rdx_tensor *t)
{
    rdx_array a;
    ck_assert_msg(t != NULL, "build failed: %s", rdx_graph_error(g));
    rdx_status st = rdx_tensor_realize(g, t, &a);
    ck_assert_msg(st == RDX_OK, "realize failed: %s", rdx_error_message());
    return a;
}

uint64_t irand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double iuni(uint64_t *s, double lo, double hi)
{
    return lo + (hi - lo) * (double)(irand(s) >> 11) * 0x1p-53;
}

const rdx_tensor *buf_f32(rdx_graph *g, uint32_t nd, const int64_t *dims, const float *v)
{
    return rdx_tensor_from_data(g, rdx_dtype_of(RDX_FLOAT32), nd, dims, v);
}

int main(void)
{
    Suite *s = suite_create("interp");
    suite_add_tcase(s, interp_tcase_alu());
    suite_add_tcase(s, interp_tcase_view());
    suite_add_tcase(s, interp_tcase_reduce());
    suite_add_tcase(s, interp_tcase_compose());
    suite_add_tcase(s, interp_tcase_cli());
    return rdx_test_main(s);
}
