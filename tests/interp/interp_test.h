/* tests/interp/interp_test.h — shared helpers of the interpreter suite. */
#ifndef RDX_TESTS_INTERP_TEST_H
#define RDX_TESTS_INTERP_TEST_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <rdx/interp.h>
#include <rdx/ir.h>
#include <rdx/tensor.h>

#include "tests/harness/harness.h"

TCase *interp_tcase_alu(void);
TCase *interp_tcase_view(void);
TCase *interp_tcase_reduce(void);
TCase *interp_tcase_compose(void);
TCase *interp_tcase_cli(void);

rdx_graph *ig(void);
/* Realize t, asserting success. */
rdx_array ireal(rdx_graph *g, const rdx_tensor *t);
uint64_t irand(uint64_t *s);
/* Uniform double in [lo, hi). */
double iuni(uint64_t *s, double lo, double hi);
const rdx_tensor *buf_f32(rdx_graph *g, uint32_t nd, const int64_t *dims, const float *v);

#endif
