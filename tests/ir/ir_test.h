/* tests/ir/ir_test.h — what the IR suite's files share. */
#ifndef RDX_TESTS_IR_TEST_H
#define RDX_TESTS_IR_TEST_H

#include <check.h>
#include <stdint.h>

#include <rdx/ir.h>

#include "tests/harness/harness.h"

TCase *ir_tcase_dtype(void);
TCase *ir_tcase_derive(void);
TCase *ir_tcase_verify(void);
TCase *ir_tcase_text(void);
TCase *ir_tcase_rewrite(void);
TCase *ir_tcase_symbolic(void);
TCase *ir_tcase_decomp(void);
TCase *ir_tcase_eval(void);
TCase *ir_tcase_cli(void);
TCase *ir_tcase_gate(void);
TCase *ir_tcase_spare(void);
TCase *ir_tcase_fp8(void); /* fp8_test.c: the fp8 dtypes and conversions */

/* A fresh context (aborts the test on failure). */
rdx_ir_ctx *ir_ctx(void);
/* Assert non-NULL, printing the recorded error otherwise. */
#define IR_OK(x)                                                             \
    ({                                                                       \
        __typeof__(x) v_ = (x);                                              \
        ck_assert_msg(v_ != NULL, "%s failed: %s", #x, rdx_error_message()); \
        v_;                                                                  \
    })

/* Deterministic 64-bit PRNG (splitmix64) for property tests. */
uint64_t ir_rand(uint64_t *state);
/* Uniform in [lo, hi]. */
int64_t ir_rand_range(uint64_t *state, int64_t lo, int64_t hi);

#endif
