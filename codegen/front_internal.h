/* codegen/front_internal.h — shared helpers of the codegen front half
 * (callify, rangeify, schedule, optimize, expand, beam). */
#ifndef RDX_CODEGEN_FRONT_INTERNAL_H
#define RDX_CODEGEN_FRONT_INTERNAL_H

#include <rdx/codegen_front.h>
#include <rdx/ir.h>

/* A pointer-keyed hash map (open addressing) from a key tuple to a node.  Entries are
   small (hash, key length, offset of the key in the key pool, value): a map of thousands
   of entries was ~200 bytes per slot with the key inline, and growing it cleared them all. */
typedef struct cg_map {
    size_t cap, n;
    struct cg_map_ent *ents;
    const void **keys; /* every stored key, back to back */
    size_t nkeys, kcap;
} cg_map;

#define CG_KEY_MAX 20
typedef struct cg_map_ent {
    uint32_t hash;
    uint32_t nkey; /* 0: empty */
    size_t koff;   /* the key is keys[koff..koff+nkey) */
    const void *val;
} cg_map_ent;

void cg_map_free(cg_map *m);
/* The value stored under key[0..nkey) or NULL. */
const void *cg_map_get(const cg_map *m, const void *const *key, uint32_t nkey);
/* Store val under key (replacing).  RDX_ERR_NOMEM. */
rdx_status cg_map_put(cg_map *m, const void *const *key, uint32_t nkey, const void *val);

/* Index constants and arithmetic (sticky NULL). */
const rdx_uop *cg_idx(rdx_ir_ctx *ctx, int64_t v);
/* Row-major flat offset of idx[0..n) in shape dims[0..n). */
const rdx_uop *cg_flat(rdx_ir_ctx *ctx, const rdx_uop *const *dims, const rdx_uop *const *idx,
                       uint32_t n);
/* Product of dims[0..n) (index 1 for n = 0). */
const rdx_uop *cg_prod(rdx_ir_ctx *ctx, const rdx_uop *const *dims, uint32_t n);
/* AND of two bool gates where NULL means true. */
const rdx_uop *cg_and(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b);
/* The zero (false) constant of dtype d. */
const rdx_uop *cg_zero(rdx_ir_ctx *ctx, rdx_dtype d);
/* The identity of a REDUCE op in dtype d. */
const rdx_uop *cg_identity(rdx_ir_ctx *ctx, rdx_redop op, rdx_dtype d);
/* Does u use range r other than inside REDUCEs that close r (expand.c)?  1 on failure. */
int cg_open_use(const rdx_uop *u, const rdx_uop *r);
/* Combine a and b with a REDUCE op (ADD, MUL, MAX, MIN as WHERE). */
const rdx_uop *cg_combine(rdx_ir_ctx *ctx, rdx_redop op, const rdx_uop *a, const rdx_uop *b);
/* A RANGE with the given bound, axis id and type. */
const rdx_uop *cg_range(rdx_ir_ctx *ctx, const rdx_uop *bound, int64_t id, rdx_axistype t);
/* Build node op(src[0..n)) with arg (sticky NULL). */
const rdx_uop *cg_node(rdx_ir_ctx *ctx, rdx_op op, const rdx_uop *const *src, size_t n,
                       const rdx_uop_arg *arg);

/*
 * Rebuild the graph under root replacing each range from[k] by the
 * expression to[k] in value positions; in range positions of END/REDUCE the
 * range is replaced by the ranges ends[k][0..nends[k]) (none: dropped).
 * Nodes for which the callback `extra` returns non-NULL get that instead
 * (called on the rebuilt node).  An END/REDUCE left without ranges becomes
 * its body (END) or its value (REDUCE).
 */
typedef const rdx_uop *(*cg_rebuild_fn)(rdx_ir_ctx *ctx, const rdx_uop *rebuilt, void *user);
rdx_status cg_replace_ranges(rdx_ir_ctx *ctx, const rdx_uop *root, const rdx_uop *const *from,
                             const rdx_uop *const *to, const rdx_uop *const *const *ends,
                             const uint32_t *nends, size_t n, cg_rebuild_fn extra, void *user,
                             const rdx_uop **out);
/* The same over order[0..no), the topological order of root's graph (rdx_ir_toposort), for
   callers that already have it. */
rdx_status cg_replace_ranges_in(rdx_ir_ctx *ctx, const rdx_uop *root, const rdx_uop *const *order,
                                size_t no, const rdx_uop *const *from, const rdx_uop *const *to,
                                const rdx_uop *const *const *ends, const uint32_t *nends, size_t n,
                                cg_rebuild_fn extra, void *user, const rdx_uop **out);

/* rdx_cg_axes of a kernel of ctx, its order from the context's cache (rdx_ir_toposort_ctx:
   the passes list a kernel's axes, then rebuild it, each walking the same graph). */
rdx_status cg_axes(rdx_ir_ctx *ctx, const rdx_uop *kernel, rdx_kaxis *axes, size_t *n);

/* Does u depend on node r (r reachable from u)?  memo-free DFS with a visited map. */
int cg_depends(const rdx_uop *u, const rdx_uop *r);

/* Expand's unrolling of every UPCAST/UNROLL range among ax[0..n) in one pass (expand_unroll.c). */
rdx_status cg_expand_unroll(rdx_ir_ctx *ctx, const rdx_uop *kernel, const rdx_kaxis *ax, size_t n,
                            const rdx_uop **out);

/* Expand's gpudims mapping (expand.c): for the GLOBAL, LOCAL and WARP axes among ax[0..n),
   from[k] = the RANGE and to[k] = its SPECIAL gidx/lidx expression, *nf pairs (arrays of
   RDX_CG_MAX_AXES).  RDX_ERR_UNSUPPORTED when the axes do not fit 3 + 3 dimensions. */
rdx_status cg_gpudims_map(rdx_ir_ctx *ctx, const rdx_kaxis *ax, size_t n, const rdx_uop **from,
                          const rdx_uop **to, size_t *nf);

/* The TC OptOp (opt_tc.c): the kernel rewritten to a WMMA over CONTRACTs of UPCAST/UNROLL
   axes (expand lowers them). */
int cg_tc_applicable(const rdx_uop *k);
/* The axis (index into rdx_cg_axes) a TC opt applies to, -1 when TC does not fit. */
int cg_tc_axis(const rdx_uop *k);
/* The same when TC fits only with RDX_TC_PAD (M, N or K not a multiple of 16), else -1. */
int cg_tc_pad_axis(const rdx_uop *k);
/* TC opts worth timing for k (BEAM's first step): the default tiling, then tm x tn in
   {4x2, 4x1, 2x2, 2x1, 1x1} with ku 1 and 2 where they fit; their count (0: TC does not fit). */
size_t cg_tc_candidates(const rdx_uop *k, rdx_opt *opts, size_t cap);

/* BEAM (beam.c): one candidate extension of a sequence, one opt or a row action of several
   (the columns and a row-fused kernel's reductions split alike); cg_beam_actions writes the
   candidate actions for the axis-typed kernel k after seq[0..nseq) into out[0..cap) and
   returns their count (0 when seq does not apply). */
#define CG_BEAM_ACT_OPS 4
typedef struct cg_beam_act {
    rdx_opt ops[CG_BEAM_ACT_OPS];
    unsigned n;
} cg_beam_act;
size_t cg_beam_actions(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_opt *seq, size_t nseq,
                       cg_beam_act *out, size_t cap);
rdx_status cg_apply_tc(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_opt *o, size_t pos,
                       const rdx_uop **out);
/* In a kernel after TC: what axis a is to TC ("lane layout", "K loop", "result lanes", ...),
   NULL when later opts may change it (its GLOBAL/LOCAL axes, axes they split off). */
const char *cg_tc_axis_role(const rdx_uop *k, const rdx_kaxis *a);

/* The LDS OptOp (lds_stage.c).  cg_lds_request checks opt o (position pos) on the kernel it
   applies to and records the REDUCE axis' id in *axis_id (-1 before: a second one is an
   error); cg_lds_stage stages the loads for that axis after all other opts. */
rdx_status cg_lds_request(const rdx_uop *kernel, const rdx_opt *o, size_t pos, int64_t *axis_id);
rdx_status cg_lds_stage(rdx_ir_ctx *ctx, const rdx_uop *kernel, int64_t axis_id, size_t pos,
                        const rdx_uop **out);
/* BEAM's LDS candidates for a kernel with axes ax[0..na) after seq[0..nseq): LDS of each
   REDUCE axis when it has LOCAL axes and seq has no LDS or TC; their count. */
size_t cg_lds_candidates(const rdx_kaxis *ax, size_t na, const rdx_opt *seq, size_t nseq,
                         rdx_opt *c, size_t cap);
/* The heuristics' test: with SPLITs o[0..n) of the axis-typed kernel (axes ax[0..na)), does
   staging pay?  It does when the staged kernel's share loads fit in what the back end issues
   up front (96 dwords) and either the register tile's global loads per iteration and
   work-item exceed it (the rest wait one by one) or staging saves 32 or more dwords of
   global loads per work-item and iteration (fitted on the emulator's kernel time
   estimate).  The REDUCE axis to stage, or -1. */
int cg_lds_pays(const rdx_uop *kernel, const rdx_kaxis *ax, size_t na, const rdx_opt *o, size_t n);

/*
 * Simplify a kernel's integer parts only (INDEX operands, LOAD/STORE gates,
 * range bounds) with ir-core's symbolic rules.  Value expressions are left
 * alone: simplifying a WHERE would substitute its condition into the gates of
 * the loads in its branches and drop them (an unguarded out-of-bounds
 * address).
 */
rdx_status cg_simplify_kernel(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_uop **out);
/*
 * The same after unrolling a simplified kernel (expand): index parts made of
 * ADD/MUL/CONST over ranges, thread ids and variables only get their
 * constants collected into one trailing ADD (what the back end folds into
 * offsets; copies differing in constants share the rest), cheaply; the other
 * parts are simplified as above.
 */
rdx_status cg_simplify_unrolled(rdx_ir_ctx *ctx, const rdx_uop *k, const rdx_uop **out);

/* split_reduce.c: on the callified FUNCTION fn, every large reduction to few outputs
   becomes a reduction to a CONTIGUOUS temporary of partials and a reduction of those
   (*out: the new FUNCTION, or fn).  cg_split_reduce_threshold sets the minimum reduced
   element count (<= 0: the default, 32768) and returns the previous one (for tests). */
rdx_status cg_split_reduces(rdx_ir_ctx *ctx, const rdx_uop *fn, const rdx_uop **out);
int64_t cg_split_reduce_threshold(int64_t min);

#endif
