/*
 * tests/emu/emu_test.h — helpers of the emulator's instruction and fault
 * tests: assemble a snippet with llvm-mc (an encoder independent of rdx),
 * wrap it in a prologue that loads per-lane inputs and an epilogue that
 * stores per-lane results, run it on the emulator, return the results.
 */
#ifndef RDX_TESTS_EMU_TEST_H
#define RDX_TESTS_EMU_TEST_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/emu.h>

#include "tests/harness/harness.h"

#define ET_SLOTS 16 /* dwords per lane in the input and output buffers */

/* One case: inputs v1..v(nin) per lane, results v10..v(10+nout-1) per lane. */
typedef struct et_case {
    const char *body; /* assembly between the prologue and the epilogue */
    unsigned lanes;   /* 32 (default when 0) or 64: the wave size */
    unsigned nin, nout;
    uint32_t in[64][ET_SLOTS];
    uint32_t out[64][ET_SLOTS];
    uint32_t rsrc1;      /* 0: clang's default (IEEE, DX10 clamp, no denormal flush) */
    uint32_t lds;        /* LDS bytes */
    uint32_t scratch;    /* scratch bytes per lane */
    uint64_t budget;     /* 0: default */
    uint32_t sgpr_in[8]; /* loaded into s4..s11 */
    const char *target;  /* NULL: gfx1100; gfx12 targets get gfx12's waits in the wrapper */
} et_case;

/* Assemble `text` for gfx1100 with llvm-mc; returns malloc'd bytes (test aborts on error). */
uint8_t *et_assemble(const char *text, size_t *len);
/* The same for a wave size (64: -mattr=+wavefrontsize64). */
uint8_t *et_assemble_w(const char *text, unsigned lanes, size_t *len);
/* The same for a target (NULL: gfx1100). */
uint8_t *et_assemble_t(const char *text, unsigned lanes, const char *target, size_t *len);

/* Run a case; returns the emulator status (results in c->out). */
rdx_status et_run(et_case *c);
/* Like et_run with an existing emulator (to check it stays usable), counters kept. */
rdx_status et_run_on(rdx_emu *emu, et_case *c);

/* Run and require success. */
void et_ok(et_case *c);

/* Float helpers */
uint32_t et_f(float f);
float et_uf(uint32_t u);
/* ULP distance of two f32 bit patterns (NaN == NaN) */
uint32_t et_ulp(uint32_t a, uint32_t b);

Suite *et_suite_valu(void);
Suite *et_suite_salu(void);
Suite *et_suite_mem(void);
Suite *et_suite_faults(void);
Suite *et_suite_api(void);
Suite *et_suite_run(void);  /* check_run.c: rdx_emu_run_codeobj, the cancel hook */
Suite *et_suite_stop(void); /* check_stop.c: cancel, dispatch budget, the stop report */
Suite *et_suite_fpmode(void);
Suite *et_suite_ctrl(void);
Suite *et_suite_mimg(void);
Suite *et_suite_model(void);    /* check_model.c: the kernel time estimate */
Suite *et_suite_bounds(void);   /* check_bounds.c: fault reports name the nearest range */
Suite *et_suite_remu(void);     /* check_remu.c: run_asm / rdx_emu_run_asm_ex */
Suite *et_suite_silicon(void);  /* check_silicon.c: where rdx follows silicon, not the pseudocode */
Suite *et_suite_rules(void);    /* check_rules.c: operand-rule faults at predecode */
Suite *et_suite_fidelity(void); /* check_fidelity.c: the fidelity table and report */
Suite *et_suite_targets(void);  /* check_targets.c: RDNA3.5 and RDNA4 semantics */
Suite *et_suite_fp8(void);      /* check_fp8.c: RDNA4 FP8/BF8 conversions, dot products */
Suite *et_suite_wmma12(void);   /* check_wmma12.c: RDNA4 iu4 / wave64 WMMA, SWMMAC */

#endif
