/*
 * tests/codeobj_oracle/cor_test.h — rdx's code objects against clang-19's for the
 * same kernels: every kernel-descriptor field and the metadata that the runtime
 * and a real card read (see docs/codegen-backend.md, "Code object vs clang").
 */
#ifndef RDX_TESTS_COR_TEST_H
#define RDX_TESTS_COR_TEST_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/codegen.h>
#include <rdx/codeobj.h>
#include <rdx/ir.h>

#include "tests/harness/harness.h"

/* Build clang-19's code object of tests/data/codeobj_oracle/kernels.cl (once per
   process).  0, or -1 with the reason in err. */
int cor_clang_prepare(char *err, size_t cap);
/* Unchecked fixture: prepare it in the process the tests fork from. */
void cor_clang_setup(void);
/* That code object (the test fails when it cannot be built). */
const rdx_codeobj *cor_clang(void);
/* The file of that code object (an ld.lld shared object). */
const char *cor_clang_path(void);
/* clang's kernel `name` (fails the test when it is missing). */
const rdx_codeobj_kernel *cor_clang_kernel(const char *name);

/* Compile `sink` with rdx (workgroup size `wg` for idx dimensions; 0 = default). */
rdx_codegen_kernel *cor_compile(rdx_ir_ctx *ctx, const rdx_uop *sink, const char *name,
                                uint32_t wg);
/* tests/data/codeobj_oracle/<file> parsed into ctx (one root). */
const rdx_uop *cor_parse_file(rdx_ir_ctx *ctx, const char *file);

/* A kernel-form graph with 300 int32 values live at once over 512 work-items (GLOBAL
   range): register spills to scratch. */
const rdx_uop *cor_spill_kernel(rdx_ir_ctx *ctx);

/*
 * Compare rdx's kernel with clang's field by field.  Every difference must be one
 * of the documented ones (the rule table in compare.c); anything else is written
 * to `log` (a line per field) and counted.  Returns the number of unexplained
 * differences.
 */
int cor_compare(const rdx_codeobj_kernel *rdx, const rdx_codeobj_kernel *clang, char *log,
                size_t logcap);

/*
 * The registers a program reads before any instruction of it wrote them, in
 * code order (the inputs the hardware must have set up): bit r of sgprs[r / 64]
 * for s0..s105, of vgprs[r / 64] for v0..v255.
 */
typedef struct cor_inputs {
    uint64_t sgprs[2], vgprs[4];
} cor_inputs;
void cor_live_in(const uint8_t *code, size_t size, cor_inputs *in);

TCase *cor_tcase_descriptor(void);
TCase *cor_tcase_runtime(void);

#endif
