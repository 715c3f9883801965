/*
 * rdx/codegen_front.h — the front half of codegen: callify, rangeify (the
 * kernel split and the schedule), optimize (axis types, OptOps, heuristics,
 * BEAM search) and expand.  Its output is the kernel form the back end
 * accepts (docs/codegen-kernel-form.md); docs/codegen-frontend.md explains
 * every stage.
 *
 *   rdx_schedule *s;
 *   if (rdx_cg_schedule(ctx, roots, n, &s)) puts(rdx_error_message());
 *   for (size_t k = 0; k < s->nkernels; k++) {
 *       const rdx_uop *opt;
 *       rdx_cg_optimize(ctx, s->kernels[k].sink, NULL, &opt);   // heuristics + expand
 *       ...                                                    // hand to the back end
 *   }
 *   rdx_schedule_free(s);
 *
 * Every kernel graph lives in the caller's IR context (freed with it); the
 * schedule's arrays belong to the schedule (rdx_schedule_free).
 */
#ifndef RDX_CODEGEN_FRONT_H
#define RDX_CODEGEN_FRONT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rdx/alloc.h>
#include <rdx/ir.h>
#include <rdx/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- callify */

/*
 * Callify: make the tensor graph under roots[0..n) one stateless function.
 * FUNCTION calls are inlined (GETTUPLE of a FUNCTION becomes its body with
 * the arguments substituted), markers without meaning for values (DETACH,
 * CONTIGUOUSBACKWARD) are dropped, and every concrete BUFFER (and top-level
 * PARAM) becomes PARAM k.  *fn is FUNCTION(TUPLE(results...), inputs...):
 * argument k is the original BUFFER/PARAM of PARAM k.  Errors: RDX_ERR_INVALID
 * / RDX_ERR_UNSUPPORTED naming the node (e.g. an opaque CALL).
 */
rdx_status rdx_cg_callify(rdx_ir_ctx *ctx, const rdx_uop *const *roots, size_t n,
                          const rdx_uop **fn);

/* ------------------------------------------------------------ schedule */

/* Schedule buffers: inputs (the caller's data), outputs (one per root), temporaries. */
typedef enum rdx_sbuf_kind { RDX_SBUF_INPUT, RDX_SBUF_OUTPUT, RDX_SBUF_TEMP } rdx_sbuf_kind;

typedef struct rdx_sched_buffer {
    rdx_sbuf_kind kind;
    rdx_dtype dtype;       /* scalar element dtype */
    const rdx_uop *numel;  /* element count: an index CONST, or an expression of DEFINE_VARs */
    const rdx_uop *tensor; /* INPUT: the original BUFFER/PARAM; else the tensor it holds */
    int32_t output;        /* OUTPUT: the root index; -1 otherwise */
    int32_t first, last;   /* kernels (schedule order) of first and last use; -1 if none */
    int written;           /* INPUT written in place by an assignment (AFTER/STORE) */
} rdx_sched_buffer;

typedef struct rdx_sched_kernel {
    const rdx_uop *sink; /* the kernel-level graph (SINK), in the caller's context */
    uint32_t nparams;    /* PARAM slots 0..nparams-1 */
    uint32_t *params;    /* params[k]: schedule buffer of PARAM slot k */
    uint32_t nouts;      /* params[0..nouts) are written, the rest only read */
    uint32_t ndeps;      /* kernels that must run before this one */
    uint32_t *deps;
    int is_copy; /* a LOAD to another device / CONTIGUOUS of a buffer: a plain copy */
    /* a CALL of a PROGRAM (AFTER(buffer, CALL(PROGRAM, args...))): the PROGRAM, run as it
       is (rdx_codegen_program_kernel), PARAM slot k = the CALL's argument k; sink is the
       PROGRAM's sink, nouts 0 and params[program_out] the buffer it writes; NULL otherwise */
    const rdx_uop *program;
    uint32_t program_out;
    char name[48]; /* "r_<out dims>" / "E_<dims>" style name */
} rdx_sched_kernel;

typedef struct rdx_schedule {
    size_t nkernels;
    rdx_sched_kernel *kernels; /* in a valid execution order */
    size_t nbuffers;
    rdx_sched_buffer *buffers;
    size_t noutputs;
    uint32_t *outputs;       /* outputs[r]: buffer holding root r (row-major, root's shape) */
    const rdx_uop *function; /* the callified FUNCTION */
    size_t nvars;
    const rdx_uop **vars; /* the DEFINE_VARs kernels take as arguments */
} rdx_schedule;

/*
 * Callify and rangeify roots[0..n): decide which intermediates are
 * materialised (results, CONTIGUOUS, device copies, reductions that would
 * otherwise be recomputed: read through a broadcast or by several users) and
 * fuse everything else; movement ops become index expressions over RANGEs
 * (simplified with ir-core's symbolic algebra; PAD becomes gated loads with
 * the pad value), reductions REDUCE over new ranges; results of equal shape
 * that are independent share one kernel (several STOREs).  Kernel ranges are
 * LOOP (outputs) and REDUCE, unoptimized.  An assignment
 * AFTER(buffer, STORE(buffer, value)) is a kernel writing the value into that
 * input buffer in place.  Errors: RDX_ERR_UNSUPPORTED naming an op the front
 * end cannot lower (CALL, BITCAST that changes the item size, other AFTER
 * forms), RDX_ERR_INVALID, RDX_ERR_NOMEM.
 */
rdx_status rdx_cg_schedule(rdx_ir_ctx *ctx, const rdx_uop *const *roots, size_t n,
                           rdx_schedule **out);
void rdx_schedule_free(rdx_schedule *s);

/*
 * Plan memory for the schedule's buffers with rdx_alloc_plan (temporaries
 * reuse memory when their lifetimes do not overlap; inputs and outputs live
 * throughout).  vals[k] binds s->vars[k] (NULL when there are none).
 * offsets[nbuffers] receives each buffer's offset; stats the arena size vs
 * no reuse.  Errors of rdx_alloc_plan; RDX_ERR_INVALID for an unbound size.
 */
rdx_status rdx_schedule_plan_memory(const rdx_schedule *s, const int64_t *vals, uint64_t *offsets,
                                    rdx_plan_stats *stats);

/* Human-readable schedule (kernels, buffers, dependencies, each kernel's text). malloc'd. */
rdx_status rdx_schedule_print(const rdx_schedule *s, int with_kernels, char **out);

/* ------------------------------------------------------------ optimize */

/* OptOps: X(NAME). */
/* LDS is rdx's own (not one of the spec's): see rdx_opt and docs/codegen-frontend.md. */
#define RDX_OPTOP_LIST(X) X(SPLIT) X(PADTO) X(SWAP) X(NOLOCALS) X(TC) X(LDS)
typedef enum rdx_optop {
#define RDX_OPTOP_ENUM_(n) RDX_OPTOP_##n,
    RDX_OPTOP_LIST(RDX_OPTOP_ENUM_)
#undef RDX_OPTOP_ENUM_
        RDX_OPTOP_COUNT
} rdx_optop;

/*
 * One optimization (op, axis, arg).  axis indexes the kernel's ranges sorted
 * by axis id (rdx_cg_axes).  SPLIT: amount = factor k, target = new sub-axis
 * type, top = 0 splits n into (n/k, k) with the new axis inner, 1 into
 * (k, n/k) with it outer.  PADTO: amount = multiple m.  SWAP: amount = other
 * axis.  NOLOCALS as the spec.  TC (axis = the REDUCE axis): a kernel
 * C[b?, M, N] = sum_k A[b?, m, k] * B[b?, k, n] of float16/bfloat16 operands
 * (two GLOBAL axes M, N and optionally a third, a batch; M, N, K multiples
 * of 16) becomes WMMA tiles with a K loop: GLOBAL/LOCAL tiles and waves,
 * WARP lanes, UPCAST tiles per wave and result elements per lane, UNROLL K
 * elements and K unroll, the WMMA over CONTRACTs of them (expand lowers them);
 * amount = 0 picks the tiling, RDX_TC_TILING(...) sets it; it must be the
 * first opt.
 * LDS (axis = a REDUCE axis, amount 0; at most one; rdx's extension): after
 * all other opts, every global load of the kernel that depends on that axis
 * and not on some LOCAL axis (several work-items read the same elements in
 * one iteration) is staged through LDS: per iteration the workgroup loads the
 * load's tile (its index over the LOCAL, UPCAST and UNROLL axes) into a
 * DEFINE_LOCAL cooperatively between two BARRIERs and reads it from there.
 * Needs LOCAL axes and at least one such load; RDX_ERR_RANGE when the tiles
 * exceed 64 KiB of LDS or 64 loads per work-item.
 */
/* TC's amount: every wave computes tm x tn 16x16 output tiles, a workgroup has
   wm x wn waves, the K loop does ku 16-deep K tiles per iteration (each 1, 2,
   4 or 8; tm * tn <= 8; tm*wm must divide M/16, tn*wn N/16, ku K/16). */
/* TC's amount bit: pad M, N and K to multiples of 16 (loads and stores gated, PADTO-style). */
#define RDX_TC_PAD ((int64_t)1 << 20)
#define RDX_TC_TILING(tm, tn, wm, wn, ku)                                            \
    ((int64_t)(tm) | (int64_t)(tn) << 4 | (int64_t)(wm) << 8 | (int64_t)(wn) << 12 | \
     (int64_t)(ku) << 16)
typedef struct rdx_opt {
    rdx_optop op;
    int32_t axis;
    int64_t amount;
    rdx_axistype target;
    int top;
} rdx_opt;

/* A kernel range as the optimizer sees it. */
typedef struct rdx_kaxis {
    const rdx_uop *range; /* the RANGE node */
    int64_t id;           /* axis id */
    rdx_axistype type;
    int64_t size; /* concrete bound, or -1 when symbolic */
} rdx_kaxis;

#define RDX_CG_MAX_AXES 32

/* The ranges of kernel sorted by axis id into axes[RDX_CG_MAX_AXES]; *n their count. */
rdx_status rdx_cg_axes(const rdx_uop *kernel, rdx_kaxis *axes, size_t *n);

/* Name of an OptOp ("SPLIT"); "?" out of range. */
const char *rdx_optop_name(rdx_optop op);

/*
 * opts[0..n) as text, "OP(axis,amount,TYPE[,1])" separated by single spaces
 * (",1" when top is set), e.g. "SPLIT(1,4,UPCAST) LDS(2,0,LOOP)" — the form
 * rdx_opts_parse reads and `rdx compile -p optimize` prints.  Writes at most
 * cap bytes (NUL-terminated when cap > 0; an opt that does not fit whole is
 * left out) and returns the length the whole text needs, snprintf-style.
 */
size_t rdx_opts_format(const rdx_opt *opts, size_t n, char *buf, size_t cap);

/*
 * Parse an OptOp sequence in rdx_opts_format's form into out[0..cap): opts
 * separated by spaces or commas; OP one of the RDX_OPTOP_LIST names; axis
 * 0..31; amount an integer (decimal or 0x hex, e.g. a TC tiling); TYPE an
 * axis type's name or letter (g l w t L R G u r); an optional fourth field,
 * top, 0 or 1.  *n receives the count.  Nothing is checked against a kernel
 * (rdx_cg_apply_opts does that).  Errors: RDX_ERR_INVALID naming the column,
 * the opt and what was expected; RDX_ERR_RANGE for more than cap opts.
 */
rdx_status rdx_opts_parse(const char *text, rdx_opt *out, size_t cap, size_t *n);

/*
 * Give the output ranges of an unoptimized kernel their AxisType: the (up to
 * three) innermost LOOP output ranges become GLOBAL, the rest stay LOOP;
 * REDUCE ranges stay REDUCE.  Idempotent.
 */
rdx_status rdx_cg_axis_types(rdx_ir_ctx *ctx, const rdx_uop *kernel, const rdx_uop **out);

/*
 * Apply opts[0..n) left to right to kernel (after rdx_cg_axis_types).
 * Each op is checked: SPLIT needs k to divide a concrete bound and a target
 * the spec allows from the axis' type (LOCAL from g/L, UPCAST from g/l/L,
 * UNROLL from R/G, GROUP_REDUCE from R, WARP from g/L, or the same type;
 * THREAD, CPU threads, is refused with RDX_ERR_UNSUPPORTED);
 * PADTO a concrete bound (loads, stores and reductions are gated by the
 * original bound; reductions see their identity); SWAP two axes of the same
 * type class; NOLOCALS forbids later LOCAL and WARP axes; after TC its WARP,
 * REDUCE (K loop), UPCAST and UNROLL axes are fixed (TC pads M, N and K with
 * RDX_TC_PAD).
 * Errors: RDX_ERR_INVALID naming the opt and its position.
 */
rdx_status rdx_cg_apply_opts(rdx_ir_ctx *ctx, const rdx_uop *kernel, const rdx_opt *opts, size_t n,
                             const rdx_uop **out);

/*
 * Hand-coded heuristics (no search): for kernel (after rdx_cg_axis_types)
 * write up to cap opts: TC for float16/bfloat16 matmul tiles, a 256-wide
 * GROUP_REDUCE for large reductions to few outputs, upcast of the innermost output axis by 4 for
 * elementwise kernels, unroll of reductions by 4, a workgroup of 32..256
 * work-items (a multiple of wave32) over the innermost global axes (2-D
 * 16x16 tiles for matmul-like kernels), LDS staging of the tiles a
 * workgroup shares when it lowers the emulator's estimate (docs/codegen-frontend.md,
 * "LDS staging"), padding to a multiple of 32 when nothing divides.  *n = number written.
 */
rdx_status rdx_cg_heuristic(const rdx_uop *kernel, rdx_opt *opts, size_t cap, size_t *n);

/*
 * Expand: unroll UPCAST and UNROLL ranges (the body is duplicated per value;
 * REDUCE over an UNROLL range becomes the op over the copies), then the
 * gpudims step: when the kernel has LOCAL or WARP axes, GLOBAL ranges become
 * SPECIAL "gidxN", the WARP axes together SPECIAL "lidx0" (lanes, fastest)
 * and LOCAL ranges the next SPECIAL "lidxN" (the back end's SPECIAL form);
 * otherwise GLOBAL ranges stay (the back end picks the workgroup).  THREAD
 * axes are refused (RDX_ERR_UNSUPPORTED).
 */
rdx_status rdx_cg_expand(rdx_ir_ctx *ctx, const rdx_uop *kernel, const rdx_uop **out);

/*
 * The whole optimize stage: axis types, opts (NULL: the heuristic's), expand.
 */
rdx_status rdx_cg_optimize(rdx_ir_ctx *ctx, const rdx_uop *kernel, const rdx_opt *opts, size_t n,
                           const rdx_uop **out);

/* --------------------------------------------------------------- BEAM */

/*
 * Timing callback: the cost (e.g. estimated cycles) of running `kernel` (the
 * optimized, expanded kernel form).  Return RDX_OK and *cost, or an error
 * to reject the candidate (it is skipped, not fatal).  `limit` > 0 is the
 * search's budget for this candidate: a cost above it is of no interest, so
 * the timer may stop the run once the cost is known to exceed it and return
 * RDX_ERR_TIMEOUT (realize's timer: the wave emulator's cycle limit, or a
 * fence wait timeout followed by a queue reset on a device); 0: no limit.
 */
typedef rdx_status (*rdx_cg_timer)(const rdx_uop *kernel, void *user, double limit, double *cost);

typedef struct rdx_beam_opts {
    unsigned width;         /* beam width 1..16 (0: 4) */
    unsigned max_steps;     /* extension steps 1..12 (0: 6); a sequence holds <= 12 opts */
    FILE *progress;         /* progress lines (the start, one per step, the time limit), or NULL */
    const char *cache_path; /* a text file caching results by kernel key, or NULL */
    const char *device;     /* part of the cache key (NULL: "default") */
    double budget;          /* a candidate's budget: this x the best cost so far (0: 3; >= 1) */
    int no_budget;          /* 1: no budget (every candidate timed to the end) */
    double time_limit;      /* seconds of wall time for the whole search (0: none) */
    int from_scratch;       /* 1: start from no opts only (not the heuristics' opts too) */
} rdx_beam_opts;

/*
 * BEAM search over OptOp sequences for kernel (after rdx_cg_axis_types).  The
 * beam starts with the heuristics' opts (timed first, so the search never
 * ends worse than them; not with from_scratch) and the empty sequence; each step extends every
 * sequence in the beam by one candidate action — one opt (SPLIT of each axis
 * into LOCAL 2..256 / UPCAST 2..8 / UNROLL 2..16 / GROUP_REDUCE 16..256 by
 * divisors, PADTO 32, NOLOCALS, LDS, TC tilings first) or a row action of a
 * row-fused kernel (the columns and every row reduction split alike: LOCAL
 * + GROUP_REDUCE 16..256, or UPCAST + UNROLL 2..32) — times each (optimized
 * + expanded) candidate with `timer` and keeps the `width` cheapest; it stops
 * when a step improves nothing.  A candidate whose expanded kernel is one
 * already timed is not timed again; each timing gets the limit `budget` x the
 * best cost so far (over it: discarded); the search stops after `time_limit`
 * seconds with the best so far (then not written to the cache file).  The
 * best sequence goes to best[cap], *nbest; *best_cost its cost.  A cache (in
 * memory per process, and the cache file when given) keyed by the
 * objective's version + device + the kernel's canonical text returns earlier
 * results without timing.  Errors: RDX_ERR_INVALID for NULL arguments, a
 * width > 16, max_steps > 12, a budget in (0, 1) or negative, a negative
 * time limit, a kernel that cannot be timed with no opts nor with the
 * heuristics' opts, and a result longer than cap; RDX_ERR_IO for an
 * unreadable/unwritable cache file, RDX_ERR_PARSE for a malformed line in it
 * (the message names the file and the line).
 */
rdx_status rdx_cg_beam(rdx_ir_ctx *ctx, const rdx_uop *kernel, rdx_cg_timer timer, void *user,
                       const rdx_beam_opts *bo, rdx_opt *best, size_t cap, size_t *nbest,
                       double *best_cost);

/* Forget the in-memory BEAM cache (tests). */
void rdx_cg_beam_cache_clear(void);

#ifdef __cplusplus
}
#endif

#endif /* RDX_CODEGEN_FRONT_H */
