/*
 * rdx/interp.h — the reference interpreter: evaluates a tensor-level UOp
 * graph on the host, directly from the UOps (no lowering, no codegen).
 *
 * It is the oracle every compiled result is compared with, so it follows the
 * spec's vocabulary literally and each op's own dtype exactly:
 *   - integer ops wrap around (two's complement), IDIV/MOD truncate toward
 *     zero; division or modulo by zero and negative shifts are errors;
 *   - float32/float64 ops are single IEEE operations in that precision;
 *     float16/bfloat16 ops are computed in float32 and rounded once to
 *     nearest-even (exact for + - * / since float32 has >= 2p+2 bits);
 *   - CAST float->int truncates and saturates (NaN -> 0), int->float rounds
 *     to nearest even, casts to bool test != 0;
 *   - REDUCE accumulates in the node's dtype, sequentially in increasing
 *     index order of the reduced axes (deterministic);
 *   - PAD fills the invalid region with 0 (false for bool);
 *   - LOAD (the spec's COPY) and the markers CONTIGUOUS, CONTIGUOUSBACKWARD,
 *     DETACH are the identity on values (a host has one memory);
 *   - FUNCTION/CALL substitute each PARAM k of the TUPLE body with argument
 *     k (binding DEFINE_VAR dimensions of the PARAMs to the arguments'
 *     sizes); GETTUPLE picks an element;
 *   - STORE writes into the buffer (bound data is updated); AFTER yields the
 *     buffer after its dependencies ran.
 * Movement ops (PERMUTE, EXPAND, SHRINK, FLIP, RESHAPE when strides allow,
 * INDEX by scalars, same-size BITCAST) are strided views without copies;
 * REDUCE(ADD, MUL(a, b)) is evaluated fused (a matmul never materialises
 * its M*K*N product).
 */
#ifndef RDX_INTERP_H
#define RDX_INTERP_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/ir.h>
#include <rdx/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Deepest shape the interpreter evaluates. */
#define RDX_INTERP_MAX_DIMS 16

/*
 * A realized value: dense row-major elements of one scalar dtype
 * (bool as one byte 0/1, float16/bfloat16 as their 16-bit patterns, index as
 * int64).  A void result (SINK, STORE) has dtype void and numel 0.
 */
typedef struct rdx_array {
    rdx_dtype dtype;
    uint32_t ndim;
    int64_t dims[RDX_INTERP_MAX_DIMS];
    int64_t numel;
    void *data; /* numel * itemsize bytes, owned by the interpreter */
} rdx_array;

typedef struct rdx_interp rdx_interp;

/* Create an interpreter with no bindings.  RDX_ERR_NOMEM. */
rdx_status rdx_interp_create(rdx_interp **out);
/* Free the interpreter, its bound data and every array it returned.  NULL is a no-op. */
void rdx_interp_destroy(rdx_interp *ip);

/*
 * Bind host data (copied) to a BUFFER or PARAM node evaluated outside any
 * FUNCTION.  nbytes must be a multiple of the node's element size; it is
 * checked against the node's shape when the node is evaluated.  Binding a
 * node again replaces the data.  RDX_ERR_INVALID for other ops or a bad
 * size, RDX_ERR_NOMEM.
 */
rdx_status rdx_interp_bind(rdx_interp *ip, const rdx_uop *buf, const void *data, size_t nbytes);
/* Read back the data currently bound to buf (after STOREs); NULL when unbound. */
const void *rdx_interp_bound(const rdx_interp *ip, const rdx_uop *buf, size_t *nbytes);
/* Give DEFINE_VAR `var` the value v (checked against its [min, max]).  RDX_ERR_INVALID/RANGE. */
rdx_status rdx_interp_bind_var(rdx_interp *ip, const rdx_uop *var, int64_t v);

/*
 * Evaluate roots[0..n) and fill out[0..n).  The arrays' data belongs to the
 * interpreter until rdx_interp_release or rdx_interp_destroy.  A BUFFER
 * without bound data reads as zeros.  Errors: RDX_ERR_INVALID naming the
 * node ("interp: IDIV(int32[4]) node #12: integer division by zero"),
 * RDX_ERR_UNSUPPORTED for codegen-only ops (RANGE, SPECIAL, INS, ...),
 * RDX_ERR_NOMEM.  Nothing is returned on failure.
 */
rdx_status rdx_interp_realize(rdx_interp *ip, const rdx_uop *const *roots, size_t n,
                              rdx_array *out);
/* Free every array returned so far by rdx_interp_realize (bindings stay). */
void rdx_interp_release(rdx_interp *ip);

/* Element k of a realized array as a double (any dtype). */
double rdx_array_get(const rdx_array *a, int64_t k);
/* Element k as an int64 (integer dtypes; floats truncated). */
int64_t rdx_array_get_int(const rdx_array *a, int64_t k);

/* IEEE conversions with round-to-nearest-even (exposed for tests and tools). */
uint16_t rdx_f64_to_f16(double v);
uint16_t rdx_f64_to_bf16(double v);
double rdx_f16_to_f64(uint16_t h);
double rdx_bf16_to_f64(uint16_t h);

#ifdef __cplusplus
}
#endif

#endif /* RDX_INTERP_H */
