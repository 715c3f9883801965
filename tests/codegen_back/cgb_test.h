/*
 * tests/codegen_back/cgb_test.h — shared helpers of the codegen back-end suite:
 * compile a kernel-form graph and run it on the wave emulator.
 */
#ifndef RDX_TESTS_CGB_TEST_H
#define RDX_TESTS_CGB_TEST_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/codegen.h>
#include <rdx/ir.h>

#include "tests/harness/harness.h"

/* Parse a file of tests/data/codegen into ctx; returns its single root (a SINK). */
const rdx_uop *cgb_parse_file(rdx_ir_ctx *ctx, const char *name);
const rdx_uop *cgb_parse_text(rdx_ir_ctx *ctx, const char *text);

/*
 * Compile `sink` and run it once on the emulator: bufs[slot] are the global
 * buffers (host memory of sizes[slot] bytes, registered read/write), values[slot]
 * the raw bits of value parameters, vars the DEFINE_VAR values (kernel order).
 * The kernel is freed unless kout is given.  RDX_OK or the failure (message
 * recorded).
 */
rdx_status cgb_run(rdx_ir_ctx *ctx, const rdx_uop *sink, const rdx_codegen_options *o, void **bufs,
                   const size_t *sizes, const uint64_t *values, const int64_t *vars, size_t nvars,
                   rdx_codegen_kernel **kout);

/* The target cgb_run compiles for when its options name none (NULL: the environment's
   CGB_TARGET, else gfx1100: `CGB_TARGET=gfx1151 build/tests/codegen_back` runs every
   emulator case for that target); the examples run once per target of cgb_run_targets
   (examples_test.c). */
extern const char *cgb_target;
#define CGB_RUN_TARGETS 3
extern const char *const cgb_run_targets[CGB_RUN_TARGETS];

/*
 * cgb_run with default options but the assembly kept, asserting success;
 * returns the assembly (malloc'd, the caller frees it).
 */
char *cgb_run_asm(rdx_ir_ctx *ctx, const rdx_uop *sink, void **bufs, const size_t *sizes);

/* Suites */
TCase *cgb_tcase_examples(void);
TCase *cgb_tcase_alu(void);
TCase *cgb_tcase_tools(void);
TCase *cgb_tcase_vector(void);
TCase *cgb_tcase_spill(void);
TCase *cgb_tcase_hazard(void);
TCase *cgb_tcase_const(void);
TCase *cgb_tcase_pack(void);
TCase *cgb_tcase_bind(void);
TCase *cgb_tcase_lds_merge(void);  /* lds_merge_test.c: aligned LDS merge forms */
TCase *cgb_tcase_atomic(void);     /* atomic_test.c: ATOMICADD against the interpreter */
TCase *cgb_tcase_lds_merge(void);  /* lds_merge_test.c: aligned LDS merge forms */
TCase *cgb_tcase_wmma_rules(void); /* wmma_rules_test.c: two-WMMA kernels keep the operand rules */
TCase *cgb_tcase_targets(void);    /* target_test.c: target.def's facts per target */

#endif
