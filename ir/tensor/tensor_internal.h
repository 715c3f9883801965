/*
 * ir/tensor/tensor_internal.h — what the tensor front-end files share
 * (internal): the graph layout, sticky-error helpers, shape helpers.
 */
#ifndef RDX_TENSOR_INTERNAL_H
#define RDX_TENSOR_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/tensor.h>

#include "util/error.h"

#define TMAXD 16

struct rdx_function {
    const rdx_uop *body;      /* TUPLE over PARAMs */
    size_t nin;               /* placeholders */
    const rdx_uop **params;   /* PARAM nodes 0..nin+ncap */
    const rdx_uop **captured; /* the BUFFERs turned into PARAMs nin.. */
    size_t ncap;
    size_t nout;
};

struct rdx_graph {
    rdx_ir_ctx *ir;
    int ir_borrowed; /* rdx_graph_create_in: ir is the caller's */
    rdx_interp *ip;
    const rdx_uop_device *dev;
    int64_t next_slot;
    rdx_status err;
    char *errmsg;
    rdx_function **fns;
    size_t nfns, cfns;
};

/* Record a failure (first one kept by the graph) and return NULL. */
const rdx_tensor *t_fail(rdx_graph *g, rdx_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* After an rdx_ir_* builder returned NULL: record its message with op context; NULL. */
const rdx_tensor *t_irfail(rdx_graph *g, const char *op);
/* Check an ir builder's result: non-NULL passes through, NULL is recorded. */
const rdx_tensor *t_chk(rdx_graph *g, const char *op, const rdx_uop *u);
/* Record status st of an inner call (message already set). */
rdx_status t_status(rdx_graph *g, rdx_status st);

/* "[2,3]" (symbolic dims by name). */
const char *t_shape_str(const rdx_tensor *t, char *buf, size_t n);
/* Normalise axis (negative from the end); -1 with error recorded if out of range. */
int t_axis(rdx_graph *g, const char *op, const rdx_tensor *t, int axis);
/* Concrete dims of t into dims (0 and error if symbolic). */
int t_dims(rdx_graph *g, const char *op, const rdx_tensor *t, int64_t *dims);
rdx_dtype t_f32(void);

/* Building blocks over uop-dim arrays. */
const rdx_tensor *t_reshape_u(rdx_graph *g, const rdx_tensor *a, uint32_t n,
                              const rdx_uop *const *dims);
const rdx_tensor *t_expand_u(rdx_graph *g, const rdx_tensor *a, uint32_t n,
                             const rdx_uop *const *dims);
/* Broadcast a to the shape (n, dims) (adding leading axes). */
const rdx_tensor *t_broadcast_to(rdx_graph *g, const rdx_tensor *a, uint32_t n,
                                 const rdx_uop *const *dims);
/* REDUCE keeping dims. */
const rdx_tensor *t_reduce(rdx_graph *g, const rdx_tensor *a, rdx_redop op, uint32_t naxes,
                           const int64_t *axes);
/* Wrap a one-input ir decomposition as FUNCTION(TUPLE(f(PARAM0)), a) -> GETTUPLE 0. */
typedef const rdx_uop *(*t_unary_decomp)(rdx_ir_ctx *, const rdx_uop *);
const rdx_tensor *t_wrap_unary(rdx_graph *g, const char *op, t_unary_decomp f, const rdx_tensor *a);
/* The PARAM placeholder used by t_wrap_unary for a's shape/dtype. */
const rdx_uop *t_unary_param(rdx_graph *g, const rdx_tensor *a);
/* Make a storage (BUFFER + STORE + AFTER) holding a value, for LOAD. */
const rdx_tensor *t_materialize(rdx_graph *g, const rdx_tensor *a);
/* Pointer-keyed map of nodes (open addressing). Zero-initialise. */
typedef struct t_map {
    const rdx_uop **keys;
    const void **vals;
    size_t cap, count;
} t_map;
const void *t_map_get(const t_map *m, const rdx_uop *k);
int t_map_put(t_map *m, const rdx_uop *k, const void *v); /* 0 on OOM */
void t_map_free(t_map *m);
/* First source that is data in this scope (1 for FUNCTION/CALL: src[0] is the body). */
uint32_t t_first_src(const rdx_uop *u);
/* Topological order under roots, not entering FUNCTION/CALL bodies; *out malloc'd. */
rdx_status t_topo(const rdx_uop *const *roots, size_t nroots, const rdx_uop ***out, size_t *n);
/* Replace nodes by repl (outside nested bodies); inline_calls also inlines GETTUPLE(FUNCTION)
 * except the transcendental wrappers. */
rdx_status t_subst(rdx_graph *g, const rdx_uop *root, t_map *repl, int inline_calls,
                   const rdx_uop **out);
/* The wrapped transcendental FUNCTIONs (t_wrap_unary bodies recognised structurally). */
enum { T_TR_EXP2, T_TR_LOG2, T_TR_SIN, T_TR_SQRT, T_TR_COUNT };
int t_transcendental(rdx_graph *g, const rdx_uop *u, int *which);
/* COPY (LOAD with a device) of t to dev, materialising a value first. */
const rdx_tensor *t_copy_to(rdx_graph *g, const rdx_tensor *t, const rdx_uop_device *dev);
/* Next BUFFER slot. */
int64_t t_slot(rdx_graph *g);

#endif
