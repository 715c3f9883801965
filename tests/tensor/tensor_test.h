/* tests/tensor/tensor_test.h — shared helpers of the tensor front-end suite. */
#ifndef RDX_TESTS_TENSOR_TEST_H
#define RDX_TESTS_TENSOR_TEST_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <rdx/interp.h>
#include <rdx/ir.h>
#include <rdx/tensor.h>

#include "tests/harness/harness.h"

TCase *tensor_tcase_spec(void);
TCase *tensor_tcase_api(void);
TCase *tensor_tcase_errors(void);
TCase *tensor_tcase_function(void);
TCase *tensor_tcase_semantics(void); /* semantics_test.c: broadcasting, dtype rules */

rdx_graph *tgraph(void);
rdx_array treal(rdx_graph *g, const rdx_tensor *t);
const rdx_tensor *tf32(rdx_graph *g, uint32_t nd, const int64_t *dims, const float *v);
const rdx_tensor *ti32(rdx_graph *g, uint32_t nd, const int64_t *dims, const int32_t *v);
uint64_t trand(uint64_t *s);
/* The graph's first error contains every given fragment (NULL-terminated). */
void expect_error(rdx_graph *g, const rdx_tensor *t, ...);

#endif
