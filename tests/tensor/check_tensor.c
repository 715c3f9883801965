/* tests/tensor/check_tensor.c — the tensor front-end suite: the spec's compositions and
 * collectives, every API function with its error cases, and function capture. */
#include <stdarg.h>
#include <stdlib.h>

#include "tests/tensor/tensor_test.h"

rdx_graph *tgraph(void)
{
    rdx_graph *g = NULL;
    ck_assert_int_eq(rdx_graph_create(&g, NULL), RDX_OK);
    return g;
}

rdx_array treal(rdx_graph *g, const rdx_tensor *t)
{
    rdx_array a;
    ck_assert_msg(t != NULL, "build failed: %s", rdx_graph_error(g));
    rdx_status st = rdx_tensor_realize(g, t, &a);
    ck_assert_msg(st == RDX_OK, "realize failed: %s", rdx_error_message());
    return a;
}

const rdx_tensor *tf32(rdx_graph *g, uint32_t nd, const int64_t *dims, const float *v)
{
    return rdx_tensor_from_data(g, rdx_dtype_of(RDX_FLOAT32), nd, dims, v);
}

const rdx_tensor *ti32(rdx_graph *g, uint32_t nd, const int64_t *dims, const int32_t *v)
{
    return rdx_tensor_from_data(g, rdx_dtype_of(RDX_INT32), nd, dims, v);
}

uint64_t trand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void expect_error(rdx_graph *g, const rdx_tensor *t, ...)
{
    ck_assert_ptr_null(t);
    ck_assert_int_ne(rdx_graph_status(g), RDX_OK);
    va_list ap;
    va_start(ap, t);
    for (const char *f = va_arg(ap, const char *); f; f = va_arg(ap, const char *))
        ck_assert_msg(strstr(rdx_graph_error(g), f) != NULL, "error '%s' lacks '%s'",
                      rdx_graph_error(g), f);
    va_end(ap);
    rdx_graph_clear_error(g);
}

int main(void)
{
    Suite *s = suite_create("tensor");
    suite_add_tcase(s, tensor_tcase_spec());
    suite_add_tcase(s, tensor_tcase_api());
    suite_add_tcase(s, tensor_tcase_errors());
    suite_add_tcase(s, tensor_tcase_function());
    suite_add_tcase(s, tensor_tcase_semantics());
    return rdx_test_main(s);
}
