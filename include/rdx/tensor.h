/*
 * rdx/tensor.h — the tensor front-end: what a user writes.  Every function
 * builds UOps (rdx/ir.h) in the spec's vocabulary, lazily; nothing runs until
 * a tensor is realized (rdx_tensor_realize, by the reference interpreter
 * rdx/interp.h, or later by the compiler).
 *
 *   rdx_graph *g;  rdx_graph_create(&g);
 *   const rdx_tensor *a = rdx_tensor_from_data(g, f32, 2, (int64_t[]){2, 3}, data);
 *   const rdx_tensor *b = rdx_tensor_sum(g, rdx_tensor_exp(g, a), 1, (int[]){1}, 0);
 *   rdx_array out;
 *   if (rdx_tensor_realize(g, b, &out)) puts(rdx_graph_error(g));
 *   rdx_graph_destroy(g);                      // frees every tensor, node and result
 *
 * Ownership: a tensor *is* its UOp node (rdx_tensor = rdx_uop), immutable and
 * owned by the graph; host data given to the graph is copied; realized arrays
 * belong to the graph.  One rdx_graph_destroy frees everything, so a leak
 * cannot be written by accident.  A graph is not thread-safe.
 *
 * Errors are sticky: a function that fails returns NULL, and every function
 * given a NULL tensor returns NULL.  The first failure's status and message
 * ("matmul: inner dimensions differ: [2,3] @ [4,5]", naming the op and both
 * shapes) are kept by the graph: rdx_graph_status / rdx_graph_error.  So a
 * whole model can be built and checked once.
 *
 * Shapes: dims are int64 sizes; negative axes count from the end.  Symbolic
 * sizes are DEFINE_VAR nodes (rdx_graph_var) used through the *_sym
 * creation functions; they are bound per FUNCTION call (see rdx_function).
 */
#ifndef RDX_TENSOR_H
#define RDX_TENSOR_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/interp.h>
#include <rdx/ir.h>
#include <rdx/status.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rdx_graph rdx_graph;
/* A tensor is its UOp node. */
typedef rdx_uop rdx_tensor;

/* ------------------------------------------------------------------ graph */

/* A graph on device `device` (NULL: "CPU").  RDX_ERR_NOMEM. */
rdx_status rdx_graph_create(rdx_graph **out, const char *device);
/*
 * A graph that builds its tensors in an existing IR context ctx (borrowed: rdx_graph_destroy
 * does not free it), e.g. one a program was parsed into (rdx_ir_parse), so that tensor
 * operations apply to that program's nodes.  New BUFFERs take slots from 2^40 up, clear of
 * a parsed program's.  Its interpreter is its own (nothing bound).  device as for
 * rdx_graph_create.  RDX_ERR_INVALID for a NULL ctx, RDX_ERR_NOMEM.
 */
rdx_status rdx_graph_create_in(rdx_graph **out, rdx_ir_ctx *ctx, const char *device);
/* Free the graph: its IR context (unless borrowed: rdx_graph_create_in), every tensor, bound
 * data and realized array.  NULL: no-op. */
void rdx_graph_destroy(rdx_graph *g);
/* The graph's IR context (to use rdx/ir.h directly on tensors). */
rdx_ir_ctx *rdx_graph_ir(rdx_graph *g);
/* The graph's interpreter (bindings of BUFFERs created from host data). */
rdx_interp *rdx_graph_interp(rdx_graph *g);
/* First error since creation or rdx_graph_clear_error (RDX_OK if none), and its message. */
rdx_status rdx_graph_status(const rdx_graph *g);
const char *rdx_graph_error(const rdx_graph *g);
void rdx_graph_clear_error(rdx_graph *g);

/*
 * Realize tensors with the reference interpreter.  The arrays' data belongs
 * to the graph (freed by rdx_graph_destroy).  A graph with a recorded error
 * refuses (returns that status).  Errors of rdx_interp_realize.
 */
rdx_status rdx_tensor_realize(rdx_graph *g, const rdx_tensor *t, rdx_array *out);
rdx_status rdx_graph_realize(rdx_graph *g, const rdx_tensor *const *ts, size_t n, rdx_array *out);
/* Replace the host data of a tensor made by rdx_tensor_from_data (same byte size). */
rdx_status rdx_tensor_assign_data(rdx_graph *g, const rdx_tensor *t, const void *data,
                                  size_t nbytes);

/* Shape helpers: rank, concrete size of axis k (-1 if symbolic), element count (-1 if symbolic). */
uint32_t rdx_tensor_ndim(const rdx_tensor *t);
int64_t rdx_tensor_dim(const rdx_tensor *t, int axis);
int64_t rdx_tensor_numel(const rdx_tensor *t);

/* --------------------------------------------------------------- creation */

/* A new BUFFER (next slot) of shape dims on the graph's device; reads as zeros until assigned. */
const rdx_tensor *rdx_tensor_empty(rdx_graph *g, rdx_dtype dt, uint32_t ndim, const int64_t *dims);
/* A BUFFER holding a copy of data (numel * itemsize bytes, row-major). */
const rdx_tensor *rdx_tensor_from_data(rdx_graph *g, rdx_dtype dt, uint32_t ndim,
                                       const int64_t *dims, const void *data);
/* A BUFFER on an explicit device (a tuple of n names = multi-device, shard axis 0). */
const rdx_tensor *rdx_tensor_from_data_on(rdx_graph *g, rdx_dtype dt, uint32_t ndim,
                                          const int64_t *dims, const void *data,
                                          const char *const *devices, size_t ndev);
/* A scalar CONST (shape ()) of dtype dt holding v. */
const rdx_tensor *rdx_tensor_const(rdx_graph *g, rdx_dtype dt, double v);
/* v broadcast to shape dims: CONST -> RESHAPE(1,..,1) -> EXPAND. */
const rdx_tensor *rdx_tensor_full(rdx_graph *g, rdx_dtype dt, uint32_t ndim, const int64_t *dims,
                                  double v);
const rdx_tensor *rdx_tensor_zeros(rdx_graph *g, rdx_dtype dt, uint32_t ndim, const int64_t *dims);
const rdx_tensor *rdx_tensor_ones(rdx_graph *g, rdx_dtype dt, uint32_t ndim, const int64_t *dims);
/* full with t's shape and dtype. */
const rdx_tensor *rdx_tensor_full_like(rdx_graph *g, const rdx_tensor *t, double v);
/* [0, 1, ..., n-1] as int32, by the spec's composition: prefix_sum(ones(n)) - 1. */
const rdx_tensor *rdx_tensor_arange(rdx_graph *g, int64_t n);
/* start + step * arange(ceil((stop-start)/step)) in dtype dt. */
const rdx_tensor *rdx_tensor_arange_range(rdx_graph *g, double start, double stop, double step,
                                          rdx_dtype dt);
/* n x n identity: arange(n).reshape(n,1) == arange(n).reshape(1,n), cast to dt. */
const rdx_tensor *rdx_tensor_eye(rdx_graph *g, int64_t n, rdx_dtype dt);
/* Uniform [0, 1) from THREEFRY-2x32 of (counter = element index, key = seed); float dtypes. */
const rdx_tensor *rdx_tensor_rand(rdx_graph *g, rdx_dtype dt, uint32_t ndim, const int64_t *dims,
                                  uint64_t seed);
/* Standard normal (Box-Muller on two rand draws). */
const rdx_tensor *rdx_tensor_randn(rdx_graph *g, rdx_dtype dt, uint32_t ndim, const int64_t *dims,
                                   uint64_t seed);
/* Uniform integers in [lo, hi) (int32). */
const rdx_tensor *rdx_tensor_randint(rdx_graph *g, int64_t lo, int64_t hi, uint32_t ndim,
                                     const int64_t *dims, uint64_t seed);
/* A DEFINE_VAR size in [lo, hi] (an index-dtype scalar node). */
const rdx_uop *rdx_graph_var(rdx_graph *g, const char *name, int64_t lo, int64_t hi);
/* A BUFFER whose dims are nodes (concrete CONSTs or DEFINE_VARs). */
const rdx_tensor *rdx_tensor_empty_sym(rdx_graph *g, rdx_dtype dt, uint32_t ndim,
                                       const rdx_uop *const *dims);

/* ------------------------------------------------------------ elementwise */

/*
 * Binary ops broadcast (right-aligned, size-1 axes expanded by RESHAPE +
 * EXPAND; shape-() CONSTs broadcast implicitly) and promote dtypes
 * (rdx_dtype_promote; div of two integer tensors gives float32).
 */
const rdx_tensor *rdx_tensor_add(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
const rdx_tensor *rdx_tensor_sub(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
const rdx_tensor *rdx_tensor_mul(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
const rdx_tensor *rdx_tensor_div(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
const rdx_tensor *rdx_tensor_maximum(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
const rdx_tensor *rdx_tensor_minimum(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
/* Integer only: floor division and modulo, as tinygrad's Tensor // and % and the spec's
   floor(a/b) (built from the IR's truncating IDIV/MOD; the remainder takes the divisor's
   sign); x // 0 = 0 and x % 0 = x. */
const rdx_tensor *rdx_tensor_idiv(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
const rdx_tensor *rdx_tensor_mod(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
/* Comparisons give bool. */
const rdx_tensor *rdx_tensor_cmplt(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
const rdx_tensor *rdx_tensor_cmpgt(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
const rdx_tensor *rdx_tensor_cmple(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
const rdx_tensor *rdx_tensor_cmpge(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
const rdx_tensor *rdx_tensor_cmpeq(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
const rdx_tensor *rdx_tensor_cmpne(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
/* Integer/bool only. */
const rdx_tensor *rdx_tensor_xor(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
const rdx_tensor *rdx_tensor_or(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
const rdx_tensor *rdx_tensor_and(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
const rdx_tensor *rdx_tensor_shl(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
const rdx_tensor *rdx_tensor_shr(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
/* a^b = EXP2(LOG2(a) * b) (the spec's POW; a > 0). */
const rdx_tensor *rdx_tensor_pow(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);
/* a * b + c (the spec's MULACC: ADD(MUL(a, b), c)), broadcast and promoted. */
const rdx_tensor *rdx_tensor_mulacc(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b,
                                    const rdx_tensor *c);
/* The spec's THREEFRY (2x32, 20 rounds) of uint64 counters x under a uint64 key; uint64. */
const rdx_tensor *rdx_tensor_threefry(rdx_graph *g, const rdx_tensor *x, const rdx_tensor *key);
/* c ? a : b with c cast to bool; a and b promoted. */
const rdx_tensor *rdx_tensor_where(rdx_graph *g, const rdx_tensor *c, const rdx_tensor *a,
                                   const rdx_tensor *b);
/* a with a scalar: a OP CONST(v) in a's dtype. */
const rdx_tensor *rdx_tensor_adds(rdx_graph *g, const rdx_tensor *a, double v);
const rdx_tensor *rdx_tensor_muls(rdx_graph *g, const rdx_tensor *a, double v);

const rdx_tensor *rdx_tensor_neg(rdx_graph *g, const rdx_tensor *a);
const rdx_tensor *rdx_tensor_recip(rdx_graph *g, const rdx_tensor *a);
const rdx_tensor *rdx_tensor_trunc(rdx_graph *g, const rdx_tensor *a);
const rdx_tensor *rdx_tensor_not(rdx_graph *g, const rdx_tensor *a);
const rdx_tensor *rdx_tensor_cast(rdx_graph *g, const rdx_tensor *a, rdx_dtype dt);
/* BITCAST; a size change rescales the last axis (which must divide). */
const rdx_tensor *rdx_tensor_bitcast(rdx_graph *g, const rdx_tensor *a, rdx_dtype dt);
/*
 * Transcendentals: each is a FUNCTION whose body is the spec's
 * decomposition (rdx_ir_exp2/log2/sin/sqrt) on a PARAM, so the graph stays in
 * primitives while gradients use the exact derivative.  Integer inputs are
 * cast to float32 first.
 */
const rdx_tensor *rdx_tensor_exp2(rdx_graph *g, const rdx_tensor *a);
const rdx_tensor *rdx_tensor_log2(rdx_graph *g, const rdx_tensor *a);
const rdx_tensor *rdx_tensor_exp(rdx_graph *g, const rdx_tensor *a);
const rdx_tensor *rdx_tensor_log(rdx_graph *g, const rdx_tensor *a);
const rdx_tensor *rdx_tensor_sin(rdx_graph *g, const rdx_tensor *a);
const rdx_tensor *rdx_tensor_cos(rdx_graph *g, const rdx_tensor *a);
const rdx_tensor *rdx_tensor_sqrt(rdx_graph *g, const rdx_tensor *a);
const rdx_tensor *rdx_tensor_rsqrt(rdx_graph *g, const rdx_tensor *a);
const rdx_tensor *rdx_tensor_abs(rdx_graph *g, const rdx_tensor *a);
const rdx_tensor *rdx_tensor_relu(rdx_graph *g, const rdx_tensor *a);
const rdx_tensor *rdx_tensor_sigmoid(rdx_graph *g, const rdx_tensor *a);
const rdx_tensor *rdx_tensor_tanh(rdx_graph *g, const rdx_tensor *a);
/* gelu, tanh approximation: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))). */
const rdx_tensor *rdx_tensor_gelu(rdx_graph *g, const rdx_tensor *a);
const rdx_tensor *rdx_tensor_clamp(rdx_graph *g, const rdx_tensor *a, double lo, double hi);

/* --------------------------------------------------------------- movement */

/* RESHAPE; at most one dim may be -1 (inferred).  Error names both shapes. */
const rdx_tensor *rdx_tensor_reshape(rdx_graph *g, const rdx_tensor *a, uint32_t ndim,
                                     const int64_t *dims);
const rdx_tensor *rdx_tensor_permute(rdx_graph *g, const rdx_tensor *a, const int *order);
const rdx_tensor *rdx_tensor_transpose(rdx_graph *g, const rdx_tensor *a, int ax0, int ax1);
/* EXPAND to dims (a's rank may be smaller: leading axes are added by RESHAPE). */
const rdx_tensor *rdx_tensor_expand(rdx_graph *g, const rdx_tensor *a, uint32_t ndim,
                                    const int64_t *dims);
/* PAD by before[k]/after[k] (>= 0) per axis; the new region holds value (WHERE over a PAD mask). */
const rdx_tensor *rdx_tensor_pad(rdx_graph *g, const rdx_tensor *a, const int64_t *before,
                                 const int64_t *after, double value);
/* SHRINK to [start[k], end[k]) per axis. */
const rdx_tensor *rdx_tensor_shrink(rdx_graph *g, const rdx_tensor *a, const int64_t *start,
                                    const int64_t *end);
/* a[start:end:step] along axis (step >= 1; negative indices count from the end). */
const rdx_tensor *rdx_tensor_slice(rdx_graph *g, const rdx_tensor *a, int axis, int64_t start,
                                   int64_t end, int64_t step);
/* FLIP the axes listed. */
const rdx_tensor *rdx_tensor_flip(rdx_graph *g, const rdx_tensor *a, uint32_t naxes,
                                  const int *axes);
/* INDEX from the left by integer tensors of shape () (drops the axis) or (k,) (axis becomes k). */
const rdx_tensor *rdx_tensor_index(rdx_graph *g, const rdx_tensor *a, uint32_t nidx,
                                   const rdx_tensor *const *idx);
/* Stack n equal-shaped tensors along a new axis (STACK, then PERMUTE for axis != 0). */
const rdx_tensor *rdx_tensor_stack(rdx_graph *g, const rdx_tensor *const *ts, size_t n, int axis);
/* Concatenate along axis (each PADded to the full size, then added). */
const rdx_tensor *rdx_tensor_cat(rdx_graph *g, const rdx_tensor *const *ts, size_t n, int axis);
/* Split along axis into n parts of sizes[k] (summing to the axis size); outs[0..n). */
rdx_status rdx_tensor_split(rdx_graph *g, const rdx_tensor *a, int axis, const int64_t *sizes,
                            size_t n, const rdx_tensor **outs);

/* ------------------------------------------------------------- reductions */

/* Reduce over axes[0..naxes) (naxes 0 = all); keepdim keeps them as size 1. */
const rdx_tensor *rdx_tensor_sum(rdx_graph *g, const rdx_tensor *a, uint32_t naxes, const int *axes,
                                 int keepdim);
const rdx_tensor *rdx_tensor_max(rdx_graph *g, const rdx_tensor *a, uint32_t naxes, const int *axes,
                                 int keepdim);
const rdx_tensor *rdx_tensor_min(rdx_graph *g, const rdx_tensor *a, uint32_t naxes, const int *axes,
                                 int keepdim);
const rdx_tensor *rdx_tensor_prod(rdx_graph *g, const rdx_tensor *a, uint32_t naxes,
                                  const int *axes, int keepdim);
const rdx_tensor *rdx_tensor_mean(rdx_graph *g, const rdx_tensor *a, uint32_t naxes,
                                  const int *axes, int keepdim);
/* Variance / standard deviation with `correction` (1 = unbiased). */
const rdx_tensor *rdx_tensor_var(rdx_graph *g, const rdx_tensor *a, uint32_t naxes, const int *axes,
                                 int keepdim, int correction);
const rdx_tensor *rdx_tensor_std(rdx_graph *g, const rdx_tensor *a, uint32_t naxes, const int *axes,
                                 int keepdim, int correction);
/* Index (int32) of the first maximum along axis. */
const rdx_tensor *rdx_tensor_argmax(rdx_graph *g, const rdx_tensor *a, int axis, int keepdim);
/* Inclusive prefix sum along axis, by the spec's prefix_sum composition. */
const rdx_tensor *rdx_tensor_cumsum(rdx_graph *g, const rdx_tensor *a, int axis);

/* -------------------------------------------------------------- composite */

/* a @ b: 1-D/2-D/batched (batch dims broadcast), by the spec's gemm composition. */
const rdx_tensor *rdx_tensor_matmul(rdx_graph *g, const rdx_tensor *a, const rdx_tensor *b);

typedef struct rdx_conv_opts {
    int64_t stride[2], padding[2], dilation[2];
    int64_t groups;
} rdx_conv_opts;
/* x (N, C, H, W), w (O, C/groups, KH, KW), bias (O) or NULL.  opts NULL = stride 1, no padding. */
const rdx_tensor *rdx_tensor_conv2d(rdx_graph *g, const rdx_tensor *x, const rdx_tensor *w,
                                    const rdx_tensor *bias, const rdx_conv_opts *opts);
/* 2-D pooling over the last two axes with kernel k, stride s and zero/-inf padding p. */
const rdx_tensor *rdx_tensor_max_pool2d(rdx_graph *g, const rdx_tensor *x, const int64_t k[2],
                                        const int64_t s[2], const int64_t p[2]);
const rdx_tensor *rdx_tensor_avg_pool2d(rdx_graph *g, const rdx_tensor *x, const int64_t k[2],
                                        const int64_t s[2], const int64_t p[2]);
const rdx_tensor *rdx_tensor_softmax(rdx_graph *g, const rdx_tensor *a, int axis);
const rdx_tensor *rdx_tensor_log_softmax(rdx_graph *g, const rdx_tensor *a, int axis);
/* Normalise over the last naxes axes; weight/bias (that trailing shape) may be NULL. */
const rdx_tensor *rdx_tensor_layernorm(rdx_graph *g, const rdx_tensor *x, uint32_t naxes,
                                       const rdx_tensor *weight, const rdx_tensor *bias,
                                       double eps);
/* Mean cross-entropy of logits (N, C) against integer targets (N,). */
const rdx_tensor *rdx_tensor_cross_entropy(rdx_graph *g, const rdx_tensor *logits,
                                           const rdx_tensor *target);
/* The spec's gather: out[i] = t[idx[i]], t (K,), idx (D,) integer. */
const rdx_tensor *rdx_tensor_gather(rdx_graph *g, const rdx_tensor *t, const rdx_tensor *idx);
/* The spec's scatter_add: t (K,) with t[idx[i]] += val[i]. */
const rdx_tensor *rdx_tensor_scatter_add(rdx_graph *g, const rdx_tensor *t, const rdx_tensor *idx,
                                         const rdx_tensor *val);
/* one_hot: shape idx.shape + (classes,), dtype dt. */
const rdx_tensor *rdx_tensor_one_hot(rdx_graph *g, const rdx_tensor *idx, int64_t classes,
                                     rdx_dtype dt);
/* Embedding lookup: weight (V, E), idx (...) -> (..., E) (one-hot @ weight). */
const rdx_tensor *rdx_tensor_embedding(rdx_graph *g, const rdx_tensor *weight,
                                       const rdx_tensor *idx);
/* Markers: DETACH (stops gradients), CONTIGUOUS, CONTIGUOUSBACKWARD. */
const rdx_tensor *rdx_tensor_detach(rdx_graph *g, const rdx_tensor *a);
const rdx_tensor *rdx_tensor_contiguous(rdx_graph *g, const rdx_tensor *a);
const rdx_tensor *rdx_tensor_contiguous_backward(rdx_graph *g, const rdx_tensor *a);

/* --------------------------------------------------------------- function */

/*
 * The spec's @function.  A builder gets placeholder tensors (PARAMs) and
 * returns its results in outs[0..*nout) (at most RDX_FUNCTION_MAX_OUT).
 */
#define RDX_FUNCTION_MAX_OUT 16
typedef rdx_status (*rdx_function_builder)(rdx_graph *g, const rdx_tensor *const *in, size_t nin,
                                           const rdx_tensor **outs, size_t *nout, void *user);
typedef struct rdx_function rdx_function;

/*
 * Capture a FUNCTION: placeholders PARAM 0..nin-1 with the dtypes and shapes
 * of examples[] (a placeholder may also be a tensor from rdx_tensor_empty_sym
 * to get symbolic sizes), run the builder lazily, then parameterise: every
 * BUFFER the results reach becomes a further PARAM (deduplicated), the
 * results are wrapped in a TUPLE.  The function belongs to g.  Errors: the
 * builder's status, RDX_ERR_INVALID for no results.
 */
rdx_status rdx_function_capture(rdx_graph *g, rdx_function_builder fn, void *user,
                                const rdx_tensor *const *examples, size_t nin, rdx_function **out);
/*
 * Call f: FUNCTION(TUPLE body, args..., captured...) and one GETTUPLE per
 * result in outs[0..nout).  Arguments must match the placeholders' dtypes and
 * ranks; concrete sizes must agree and DEFINE_VAR sizes are bound per call
 * (checked against the variable's range).  RDX_ERR_INVALID naming the argument.
 */
rdx_status rdx_function_call(rdx_graph *g, const rdx_function *f, const rdx_tensor *const *args,
                             size_t nargs, const rdx_tensor **outs, size_t nout);
/* The spec's decorator in one step: dedupe args by identity, capture on them, call. */
rdx_status rdx_function_apply(rdx_graph *g, rdx_function_builder fn, void *user,
                              const rdx_tensor *const *args, size_t nargs, const rdx_tensor **outs,
                              size_t *nout);
/* Number of results / the TUPLE body / inputs (placeholders + captured). */
size_t rdx_function_nout(const rdx_function *f);
const rdx_uop *rdx_function_body(const rdx_function *f);
size_t rdx_function_ninputs(const rdx_function *f);

/*
 * Call a kernel of its own: `program` is a PROGRAM(sink, LINEAR(INS ...)[, BINARY])
 * (rdx/codegen.h, rdx_codegen_program_kernel: machine code written by hand or a
 * foreign code object), args[0..nargs) its buffers in PARAM-slot order.  The result is
 * args[out] after the kernel ran: AFTER(args[out], CALL(program, args...)) — the
 * kernel writes args[out] in place, which must be a buffer of the graph
 * (rdx_tensor_empty, rdx_tensor_from_data); the other arguments are any tensors
 * (realized into buffers first) and are only read.  The call is realized on a device
 * with the rest of the schedule (rdx_tensor_realize_on; launch from the PROGRAM); the
 * interpreter cannot run it.  Errors: RDX_ERR_INVALID for a program that is not a
 * PROGRAM, out >= nargs, args[out] not a BUFFER, and the CALL's rule (an argument
 * count, dtype or element count that differs from the PROGRAM's PARAMs, naming the
 * argument).
 */
const rdx_tensor *rdx_tensor_call_program(rdx_graph *g, const rdx_uop *program,
                                          const rdx_tensor *const *args, size_t nargs, size_t out);

/* -------------------------------------------------------------- gradients */

/*
 * Reverse-mode gradients of sum(loss) with respect to params[0..n) into
 * grads[0..n) (same shapes/dtypes; zeros for a param loss does not depend
 * on).  Handles every elementwise primitive, CAST, WHERE, movement ops,
 * REDUCE (ADD, MAX, MIN, MUL), FUNCTION/CALL (through the body; the
 * transcendental FUNCTIONs use their exact derivatives), markers: DETACH
 * stops, CONTIGUOUSBACKWARD makes the gradient CONTIGUOUS.  Errors:
 * RDX_ERR_UNSUPPORTED naming an op without a gradient on the path.
 */
rdx_status rdx_gradient(rdx_graph *g, const rdx_tensor *loss, const rdx_tensor *const *params,
                        size_t n, const rdx_tensor **grads);

/* ------------------------------------------------------------ multi-device */

/* COPY (a LOAD with a device) of t to the device tuple devices[0..n); values are unchanged. */
const rdx_tensor *rdx_tensor_copy(rdx_graph *g, const rdx_tensor *t, const char *const *devices,
                                  size_t n);
/* replicated(axis 0): the shard axis holding identical copies is dropped (INDEX by 0). */
const rdx_tensor *rdx_tensor_replicated(rdx_graph *g, const rdx_tensor *t);
/* The spec's collectives on D = devices[0..n); shapes as documented in docs/tensor.md. */
const rdx_tensor *rdx_tensor_broadcast(rdx_graph *g, const rdx_tensor *t, const char *const *devs,
                                       size_t n);
const rdx_tensor *rdx_tensor_scatter(rdx_graph *g, const rdx_tensor *t, const char *const *devs,
                                     size_t n);
const rdx_tensor *rdx_tensor_gather_dev(rdx_graph *g, const rdx_tensor *t);
const rdx_tensor *rdx_tensor_reduce_dev(rdx_graph *g, const rdx_tensor *t);
const rdx_tensor *rdx_tensor_allgather(rdx_graph *g, const rdx_tensor *t);
const rdx_tensor *rdx_tensor_reduce_scatter(rdx_graph *g, const rdx_tensor *t);
const rdx_tensor *rdx_tensor_allreduce(rdx_graph *g, const rdx_tensor *t);

#ifdef __cplusplus
}
#endif

#endif /* RDX_TENSOR_H */
