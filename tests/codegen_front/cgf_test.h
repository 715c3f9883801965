/* tests/codegen_front/cgf_test.h — shared helpers of the codegen front suite. */
#ifndef RDX_TESTS_CGF_TEST_H
#define RDX_TESTS_CGF_TEST_H

#include <stdint.h>

#include <rdx/codegen_front.h>
#include <rdx/interp.h>
#include <rdx/ir.h>
#include <rdx/tensor.h>

#include "tests/harness/harness.h"

/* Run one kernel on host buffers (PARAM slot k = bufs[k]); *ops counts executed ops. */
rdx_status keval_run(rdx_ir_ctx *ctx, const rdx_uop *sink, void **bufs, const size_t *nbytes,
                     size_t nbufs, const rdx_uop *const *vars, const int64_t *varvals, size_t nvars,
                     uint64_t *ops, char *err, size_t errlen);

/* Compile a kernel with the back end and run it on the emulator; *cycles its estimate. */
rdx_status cgf_emu_run(rdx_ir_ctx *ctx, const rdx_uop *sink, void **bufs, const size_t *sizes,
                       size_t nbufs, const rdx_uop *const *vars, const int64_t *varvals,
                       size_t nvars, uint64_t *cycles);

/*
 * BEAM search (width, steps) over axis-typed kernel k on the wave emulator with
 * realize's timer (rdx_realize_beam_timer_create), the in-memory cache cleared
 * before and after: best[16], *nbest and *cost its result; *base_cost the same
 * timer's cost of the expanded kernel `base`.  ck_assert's on failure.
 */
void cgf_beam_on_emu(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_uop *base, unsigned width,
                     unsigned steps, rdx_opt *best, size_t *nbest, double *base_cost, double *cost);

/* How kernels are transformed before evaluation. */
typedef enum cgf_mode { CGF_RAW, CGF_HEURISTIC, CGF_OPTS } cgf_mode;

typedef struct cgf_run {
    cgf_mode mode;
    const rdx_opt *opts; /* CGF_OPTS: applied to every kernel where valid */
    size_t nopts;
    const rdx_uop *const *vars; /* DEFINE_VAR bindings for interp and kernels */
    const int64_t *varvals;
    size_t nvars;
    double tol;               /* relative tolerance for floats (0: default by dtype) */
    size_t nkernels;          /* out: kernels scheduled */
    uint64_t ops;             /* out: ops executed */
    uint64_t arena, no_reuse; /* out: memory plan */
    int on_emu;               /* run on the emulated GPU (back end) instead of the host evaluator */
    uint64_t cycles;          /* out (on_emu): estimated cycles of all kernels */
} cgf_run;

/*
 * Schedule roots of graph g, run every kernel with keval (after the run's
 * transformation), and compare each output with the reference interpreter.
 * ck_assert's on any mismatch; returns normally on success.
 */
void cgf_check(rdx_graph *g, const rdx_tensor *const *roots, size_t n, cgf_run *run);
/* cgf_check of one root, raw and with heuristics. */
void cgf_check1(rdx_graph *g, const rdx_tensor *t);

/* OptOps for tests: SPLIT(axis, amount, TYPE) and the others, in rdx_opt's field order. */
#define SPLIT(a, k, t)    { RDX_OPTOP_SPLIT, a, k, RDX_AXIS_##t, 0 }
#define SPLITTOP(a, k, t) { RDX_OPTOP_SPLIT, a, k, RDX_AXIS_##t, 1 }
#define PADTO(a, m)       { RDX_OPTOP_PADTO, a, m, RDX_AXIS_LOOP, 0 }
#define SWAP(a, b)        { RDX_OPTOP_SWAP, a, b, RDX_AXIS_LOOP, 0 }
#define NOLOCALS          { RDX_OPTOP_NOLOCALS, 0, 0, RDX_AXIS_LOOP, 0 }
#define LDS(a)            { RDX_OPTOP_LDS, a, 0, RDX_AXIS_LOOP, 0 }

/* An OptOp sequence. */
typedef struct cgf_seq {
    rdx_opt o[6];
    size_t n;
} cgf_seq;

/* cgf_check of t (one kernel) with each sequence on the host evaluator, and also on the
   emulated GPU when emu is set. */
void cgf_run_seqs(rdx_graph *g, const rdx_tensor *t, const cgf_seq *seqs, size_t n, int emu);
/* The axis-typed kernel of t (ck_assert's its schedule has one kernel). */
const rdx_uop *cgf_kernel_of(rdx_graph *g, const rdx_tensor *t);
/* Kernel k takes opts o[0..n) but expand refuses it with RDX_ERR_UNSUPPORTED and a
   message containing frag. */
void cgf_expect_expand_error(rdx_graph *g, const rdx_uop *k, const rdx_opt *o, size_t n,
                             const char *frag);

/* A toy BEAM cost of an expanded kernel: its node count times 100, divided by the
   work-items of a workgroup (each lidx bound, capped at 64); ck_assert's on failure. */
double cgf_toy_cost(const rdx_uop *k);
/* The number of (possibly overlapping) occurrences of s in t. */
int cgf_count(const char *t, const char *s);
rdx_graph *cgf_graph(void);
uint64_t cgf_rand(uint64_t *s);
/* A tensor of random data of dtype dt. */
const rdx_tensor *cgf_random(rdx_graph *g, rdx_dtype dt, uint32_t nd, const int64_t *dims,
                             uint64_t *seed);

TCase *cgf_tcase_ops(void);
TCase *cgf_tcase_random(void);
TCase *cgf_tcase_opts(void);
TCase *cgf_tcase_schedule(void);
TCase *cgf_tcase_e2e(void);
TCase *cgf_tcase_cli(void);
TCase *cgf_tcase_tc(void); /* tc_test.c: TC with a K loop on the emulator */
TCase *cgf_tcase_tiles(void);
TCase *cgf_tcase_warp(void);         /* warp_test.c: WARP axes, TC lanes as WARP axes */
TCase *cgf_tcase_lds_align(void);    /* lds_align_test.c: wide LDS accesses aligned */
TCase *cgf_tcase_lds(void);          /* lds_test.c: the LDS OptOp on the emulator */
TCase *cgf_tcase_split_reduce(void); /* split_reduce_test.c: split and grouped reductions */
TCase *cgf_tcase_opt_text(void);     /* opt_text_test.c: OptOp sequences as text */
TCase *cgf_tcase_rowfuse(void);      /* rowfuse_test.c: row fusion, grouped reductions with LOCAL */
TCase *cgf_tcase_group_tree(void);   /* group_tree_test.c: GROUP_REDUCE lowering, argmax */
TCase *cgf_tcase_beam(void);       /* beam_test.c: BEAM with a fake timer, row actions, bad input */
TCase *cgf_tcase_gpudims(void);    /* gpudims_test.c: more GLOBAL axes than grid dimensions */
TCase *cgf_tcase_program(void);    /* program_test.c: PROGRAM of INS as a kernel */
TCase *cgf_tcase_interleave(void); /* interleave_test.c: a matmul's FMAs interleaved, paired */

#endif
