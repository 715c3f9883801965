/* codegen/rangeify_internal.h — the lowering of tensor nodes to index
 * expressions over RANGEs (rangeify.c), used by the scheduler (schedule.c). */
#ifndef RDX_CODEGEN_RANGEIFY_INTERNAL_H
#define RDX_CODEGEN_RANGEIFY_INTERNAL_H

#include "codegen/front_internal.h"

#define CG_MAX_PARAMS          64
#define RDX_INTERP_MAX_DIMS_CG 16

typedef struct cg_lower {
    rdx_ir_ctx *ctx;
    /* Buffer id of a node stored in memory (input PARAM or materialised node), else -1. */
    int (*buffer_of)(void *user, const rdx_uop *u);
    void *user;
    const rdx_sched_buffer *bufs;
    /* nodes computed (not loaded) by the kernel being built */
    const rdx_uop *const *compute;
    size_t ncompute;
    /* the kernel's PARAMs: slot k holds buffer params[k] */
    uint32_t nparams;
    uint32_t params[CG_MAX_PARAMS];
    const rdx_uop *param_nodes[CG_MAX_PARAMS];
    int64_t next_axis;
    /* Row fusion (schedule.c): nonzero for a tensor REDUCE the scheduler inlines into the
       kernels reading it through a broadcast (a row reduction fused with its elementwise
       consumer).  NULL: none. */
    int (*row_fused)(void *user, const rdx_uop *u);
    /* the row-fused REDUCEs lowered: tensor node and kernel REDUCE, pairwise */
    const rdx_uop **fused;
    size_t nfused, capfused;
    /* set by cg_build_kernel (RDX_ERR_UNSUPPORTED) when a row-fused REDUCE would be
       recomputed (evaluated in a reduction loop, or per element): materialise it */
    const rdx_uop *refuse;
    rdx_status err; /* the first failure's status (its message is recorded) */
    cg_map memo;
} cg_lower;

/* RDX_OK when u (an AFTER) is an assignment the scheduler handles. */
rdx_status cg_check_assign(const rdx_uop *u);

/*
 * Build the kernel computing nodes[0..n) (all of one shape) into buffers
 * outbufs[0..n): one set of output ranges, a STORE per node.  The kernel's
 * PARAM slots 0..n-1 are the outputs, then the buffers it reads.  The SINK
 * is simplified.  L must be zeroed except ctx/buffer_of/user/bufs/row_fused.
 *
 * Row fusion: every row-fused REDUCE lowered must depend on the same set D of the
 * kernel's output ranges and on no other range (it is evaluated once per row); D's
 * ranges become GLOBAL, the other output ranges (the row's columns) stay LOOP, so
 * rdx_cg_axis_types leaves the kernel as it is.  Otherwise L->refuse names the tensor
 * REDUCE to materialise and RDX_ERR_UNSUPPORTED is returned (no message recorded).
 */
rdx_status cg_build_kernel(cg_lower *L, const rdx_uop *const *nodes, size_t n,
                           const uint32_t *outbufs, const rdx_uop **sink);

#endif
