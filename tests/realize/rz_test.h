/* tests/realize/rz_test.h — shared helpers of the realize suite: tensors built
 * with rdx/tensor.h, realized on the default device (rdx/realize.h) and
 * compared with the reference interpreter (rdx_graph_realize). */
#ifndef RDX_TESTS_RZ_TEST_H
#define RDX_TESTS_RZ_TEST_H

#include <stdint.h>

#include <rdx/realize.h>
#include <rdx/tensor.h>

#include "tests/harness/harness.h"

#define F32 rdx_dtype_of(RDX_FLOAT32)
#define F16 rdx_dtype_of(RDX_FLOAT16)
#define I32 rdx_dtype_of(RDX_INT32)
#define I64 rdx_dtype_of(RDX_INT64)
#define U8  rdx_dtype_of(RDX_UINT8)

/* The default device (RDX_DEVICE, else a card, else the emulated GPU of RDX_EMU_ARCH's
   target, default gfx1100), quietly. */
rdx_device *rz_device(void);
/* The same with the emulated GPU's target given (rdx_device_options.emu_arch; a card and a
   device shared through rdx emu keep theirs): for tests whose machine code is one target's. */
rdx_device *rz_device_arch(const char *arch);
/* Close it, asserting no buffer, program or queue of ours is left on it. */
void rz_device_close(rdx_device *dev);

rdx_graph *rz_graph(void);
/* n elements of pseudo-random data of any scalar dtype (malloc'd, caller frees): floats in
   [-2, 2), signed integers in [-9, 9] (unsigned ones wrap), uint8 any byte, bools 0/1. */
void *rz_random_data(rdx_dtype dt, int64_t n, uint64_t *seed);
/* A tensor of pseudo-random data (rz_random_data). */
const rdx_tensor *rz_random(rdx_graph *g, rdx_dtype dt, uint32_t nd, const int64_t *dims,
                            uint64_t *seed);

/*
 * Realize roots[0..n) on dev with options opt (may be NULL) and with the
 * interpreter, and assert every output equal: same dtype and shape, integers
 * and bools bit-exact, floats within rtol relative to max(|want|, 1).
 * Returns the report (the caller frees it).
 */
rdx_realize_report *rz_check(rdx_graph *g, rdx_device *dev, const rdx_tensor *const *roots,
                             size_t n, const rdx_realize_options *opt, double rtol);

/* rz_check (after asserting every root was built: a NULL root names the graph's error),
   its report freed. */
void rz_check_free(rdx_graph *g, rdx_device *dev, const rdx_tensor *const *roots, size_t n,
                   const rdx_realize_options *opt, double rtol);

/* One output to check, with its tolerance. */
typedef struct rz_case {
    const rdx_tensor *t;
    double rtol;
} rz_case;
/* rz_check_free of each case alone, with the default options. */
void rz_check_cases(rdx_graph *g, rdx_device *dev, const rz_case *cases, size_t n);

TCase *rz_tcase_ops(void);
TCase *rz_tcase_model(void);
TCase *rz_tcase_report(void);
TCase *rz_tcase_errors(void);
TCase *rz_tcase_cli(void);
TCase *rz_tcase_random(void);
TCase *rz_tcase_fuzz_regress(void);  /* fuzz_regress_test.c */
TCase *rz_tcase_rowfuse(void);       /* rowfuse_test.c: row-fused softmax, layernorm */
TCase *rz_tcase_beam_budget(void);   /* beam_budget_test.c: the BEAM timer's budget */
TCase *rz_tcase_grouped(void);       /* grouped_test.c: GROUP_REDUCE through the driver */
TCase *rz_tcase_multi(void);         /* multi_test.c: collectives across GPUs */
TCase *rz_tcase_multi_run(void);     /* multi_run_test.c: devices at the same time, a hang */
TCase *rz_tcase_multi_grad(void);    /* multi_grad_test.c: gradients through collectives */
TCase *rz_tcase_multi_copy(void);    /* multi_copy_test.c: cross-device LOADs as copies */
TCase *rz_tcase_multi_inner(void);   /* multi_inner_test.c: collectives inside a program */
TCase *rz_tcase_fuzz_deadline(void); /* fuzz_deadline_test.c: build/fuzz-realize's time limits */
TCase *rz_tcase_semantics(void);     /* semantics_test.c: issue 22's cases, device = interpreter */
TCase *rz_tcase_program(void);       /* program_test.c: a CALL of a hand-written INS kernel */
TCase *rz_tcase_fp8(void);           /* fp8_test.c: fp8 casts and arithmetic on gfx1201 */

#endif
