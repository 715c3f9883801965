/*
 * ir/interp/interp_internal.h — what the interpreter files share (internal):
 * reference-counted storage, strided views, the n-d iterator and the kernels.
 */
#ifndef RDX_INTERP_INTERNAL_H
#define RDX_INTERP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/interp.h>
#include <rdx/ir.h>

#include "util/error.h"

#define MAXD RDX_INTERP_MAX_DIMS
/* Largest value the interpreter allocates (1 TiB: beyond it the shape is an error, not an
 * allocation attempt). */
#define IV_MAX_BYTES ((int64_t)1 << 40)

/* Reference-counted element storage. */
typedef struct istore {
    int64_t refs;
    size_t nbytes, cap;
    _Alignas(16) unsigned char data[]; /* malloc alignment */
} istore;

/*
 * A value: a strided view (strides and offset in elements) of a storage, or
 * a tuple of values (FUNCTION results), or void.
 */
typedef struct ival {
    istore *st;
    rdx_dtype dt; /* scalar dtype */
    uint32_t nd;
    int64_t dims[MAXD];
    int64_t str[MAXD];
    int64_t off;
    uint32_t ntup; /* > 0: a tuple of tup[0..ntup) */
    struct ival *tup;
    int isvoid;
} ival;

istore *is_alloc(size_t nbytes); /* zero-filled, refs 1; NULL + error on OOM */
/* Large freed storages kept for reuse while an interpreter runs on this thread (fresh pages
 * cost more than the arithmetic); owned by the interpreter, emptied by is_cache_free. */
#define IS_CACHE_N 8
typedef struct iscache {
    istore *blk[IS_CACHE_N];
    size_t n;
} iscache;
extern _Thread_local iscache *is_cache;
void is_cache_free(iscache *c);
void is_unref(istore *s);
void iv_release(ival *v);   /* drop the storage/tuple references */
ival iv_ref(const ival *v); /* a copy sharing the storage (refs++) */
/* A fresh dense zeroed value of dtype dt and shape dims[0..nd). */
rdx_status iv_new(ival *v, rdx_dtype dt, uint32_t nd, const int64_t *dims);
int64_t iv_numel(const ival *v);
int iv_contig(const ival *v); /* row-major dense strides */
unsigned dt_size(rdx_dtype d);
/* Pointer to element with the given element offset. */
static inline char *iv_ptr(const ival *v, int64_t eoff)
{
    return (char *)v->st->data + (size_t)((v->off + eoff) * (int64_t)dt_size(v->dt));
}
/* Broadcast view of v to shape dims[0..nd) (right-aligned; size-1 axes get stride 0). */
void iv_broadcast(const ival *v, uint32_t nd, const int64_t *dims, ival *out);
/* A dense copy of v (same dtype) */
rdx_status iv_dense(const ival *v, ival *out);
/* Copy src's elements into the view dst (same dtype and shape; src may be broadcast). */
void iv_copy(ival *dst, const ival *src);
/* Row copier for nd_run: aux points to the element size. */
void k_copy_row(int64_t n, char *const *p, const int64_t *s, void *aux);
/* Convert v to a dense value of dtype to (CAST semantics). */
rdx_status iv_cast(const ival *v, rdx_dtype to, ival *out);

/* ------------------------------------------------------------- iteration */

#define NOPS 4
typedef struct nditer {
    uint32_t nd, nop;
    int64_t dims[MAXD];
    int64_t str[NOPS][MAXD]; /* bytes */
    char *base[NOPS];
} nditer;

typedef void (*inner_fn)(int64_t n, char *const *p, const int64_t *s, void *aux);
/* Set up an iteration of shape dims over ops[k] (their views must already have that shape). */
void nd_init(nditer *it, uint32_t nd, const int64_t *dims, uint32_t nop, const ival *const *ops);
/* Merge contiguous axes, drop size-1 axes, then call fn on every innermost row. */
void nd_run(nditer *it, inner_fn fn, void *aux);

/* ------------------------------------------------------------- elements */

/* A scalar in transit: i for ints/bool/index (uint64 as bits), f for floats. */
typedef struct ielem {
    int64_t i;
    double f;
} ielem;
ielem el_load(rdx_dtype d, const void *p);
void el_store(rdx_dtype d, void *p, ielem e);
/* CAST semantics between any two scalar dtypes. */
ielem el_convert(rdx_dtype from, rdx_dtype to, ielem e);
int dt_isfloat(rdx_dtype d);
int dt_ishalf(rdx_dtype d); /* float16, bfloat16 or an fp8: computed in float32 */

/* ------------------------------------------------------------- movement */

/* RESHAPE src to dims (a view when the strides allow, else a dense copy). */
rdx_status mv_reshape(const ival *src, uint32_t nd, const int64_t *dims, ival *out);
/* PAD: src placed at offsets off in a zero-filled value of shape dims. */
rdx_status mv_pad(const ival *src, const int64_t *off, uint32_t nd, const int64_t *dims, ival *out);
/* INDEX t by ix[0..ni) (rank 0: view; rank 1: gather) into shape dims[0..ndim). */
rdx_status mv_index(const ival *t, const ival *const *ix, uint32_t ni, uint32_t ndim,
                    const int64_t *dims, ival *out);

/* ------------------------------------------------------------- kernels */

/* out = op(srcs) elementwise over out's shape; srcs already broadcast. */
rdx_status k_alu(rdx_op op, const ival *const *srcs, uint32_t nsrc, ival *out);
/* Reduce src (shape of the input) into out (dense, shape with reduced axes 1). */
rdx_status k_reduce(rdx_redop op, const ival *src, ival *out);
/* out (dense, reduced shape, zero) += a * b over the shape of a/b (fused REDUCE(ADD, MUL)). */
rdx_status k_mulreduce(const ival *a, const ival *b, ival *out);

#endif
