/*
 * ir/ir_internal.h — what the ir/ files share (internal): the context layout,
 * the arena, pointer maps and small helpers.
 */
#ifndef RDX_IR_INTERNAL_H
#define RDX_IR_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/ir.h>

#include "util/arena.h"

#include "util/error.h"

/* Deepest shape a node may have. */
#define RDX_IR_MAX_DIMS 64

/* Interned blobs (strings, int tuples, devices): kind + bytes -> stored pointer. */
typedef struct rdx_blob {
    uint32_t hash;
    uint32_t kind;
    size_t len;
    const void *ptr;
} rdx_blob;

/*
 * A node table entry (8 bytes, 8 to a cache line): the node's hash and its
 * id + 1 (0 = empty); the node is nodes[id].  A probe touches one line and
 * reads a node only when the hashes agree.
 */
typedef struct rdx_slot {
    uint32_t hash;
    uint32_t id1;
} rdx_slot;

struct rdx_ir_ctx {
    rdx_arena arena;
    rdx_slot *slots;       /* open addressing (linear probing), power-of-two cap */
    const rdx_uop **nodes; /* by id */
    size_t cap, count, ncap;
    rdx_blob *blobs;
    size_t bcap, bcount;
    rdx_rewriter *sym;
    int building;     /* re-entrancy depth of rdx_ir_make */
    int verify;       /* verify-after-rewrite (rdx_ir_ctx_set_verify, RDX_IR_VERIFY) */
    int refine_depth; /* WHERE branches being refined (ir/symbolic.c) */
    int fixed_ok;     /* rdx_ir_simp_fixed records (a kept simplification is trying rules) */
    /* rdx_ir_simplify's results kept across calls (ir/rewrite.c): simp[id] is the id + 1
       of what node id simplifies to, 0 when not known; grown on demand */
    uint32_t *simp;
    size_t simp_cap;
    struct rdx_nmap_level *nml; /* the node maps' arrays (ir/nmap.c) */
    /* the last few graphs substituted into or sorted by rdx_ir_toposort_ctx, their
       orders (ir/rewrite.c, ir/topo.c): TC substitutes into one operand graph many
       times; codegen's passes sort one kernel several times in a row */
    struct rdx_topo_cache {
        const rdx_uop *root;
        const rdx_uop **order;
        size_t n;
    } tcache[8];
    unsigned tnext;
    int tbusy; /* a substitution reads a cached order (a nested one does not use the cache) */
};

/* Pointer -> pointer hash map (open addressing, keys never NULL); a key and its
   value share one entry, so a probe reads one cache line. */
typedef struct rdx_pmap_ent {
    const void *key;
    const void *val;
} rdx_pmap_ent;

typedef struct rdx_pmap {
    rdx_pmap_ent *ents;
    size_t cap, count;
} rdx_pmap;

/* Value stored for key, or NULL. */
const void *rdx_pmap_get(const rdx_pmap *m, const void *key);
/* Insert or overwrite.  RDX_ERR_NOMEM on failure. */
rdx_status rdx_pmap_put(rdx_pmap *m, const void *key, const void *val);
void rdx_pmap_free(rdx_pmap *m);

/*
 * Node -> pointer map over the nodes of one context (ir/nmap.c): O(1) by node
 * id, in arrays the context reuses.  Maps in use at once are independent (a
 * context keeps a few arrays; more maps at once fall back to a hash map).
 * Values are never NULL.  Free each map (rdx_nmap_free) before the context.
 */
typedef struct rdx_nmap_level rdx_nmap_level;
typedef struct rdx_nmap {
    rdx_ir_ctx *ctx;
    rdx_nmap_level *lv; /* NULL: the hash map alone */
    rdx_pmap over;      /* nodes whose slot another node (another context) holds */
} rdx_nmap;

void rdx_nmap_init(rdx_nmap *m, rdx_ir_ctx *ctx);
const void *rdx_nmap_get(const rdx_nmap *m, const rdx_uop *u);
rdx_status rdx_nmap_put(rdx_nmap *m, const rdx_uop *u, const void *val);
void rdx_nmap_free(rdx_nmap *m);
/* Free the context's map arrays (rdx_ir_ctx_destroy). */
void rdx_nmap_levels_free(rdx_ir_ctx *ctx);
/* Free a set of map levels (NULL is fine). */
void rdx_nmap_levels_destroy(rdx_nmap_level *lv);
/* 1 when no level of lv is in use and none holds more than max ids. */
int rdx_nmap_levels_fit(const rdx_nmap_level *lv, size_t max);

/*
 * Spare by-id arrays (ir/spare.c): rdx_ir_ctx_destroy gives the context's node-map
 * levels and simplification-results array to its thread's spares (when they fit and
 * the thread has none), the next context of the thread takes them instead of growing
 * new ones; likewise its symbolic rewriter (built from the rules' text).  take: NULL when there is
 * none.  The results array comes zeroed.
 */
void rdx_ir_spare_give(rdx_ir_ctx *ctx);
rdx_nmap_level *rdx_ir_spare_levels_take(void);
uint32_t *rdx_ir_spare_simp_take(size_t *cap);
/* The symbolic rewriter of a destroyed context (rdx_ir_symbolic), or NULL. */
rdx_rewriter *rdx_ir_spare_sym_take(void);
/* A destroyed context's node table (zeroed, *cap entries) or by-id node array (*cap
   pointers, contents stale), or NULL. */
rdx_slot *rdx_ir_spare_slots_take(size_t *cap);
const rdx_uop **rdx_ir_spare_nodes_take(size_t *cap);

/*
 * The cached order of root (a node of ctx) in ctx->tcache, sorted and kept on a miss
 * (ir/topo.c).  *order belongs to the cache: valid until the next insertion evicts it
 * (rdx_ir_substitute holds ctx->tbusy while it reads one; nothing is inserted then).
 */
rdx_status rdx_ir_topo_cached(rdx_ir_ctx *ctx, const rdx_uop *root, const rdx_uop *const **order,
                              size_t *n);

/*
 * Post-order of the graphs under roots[0..n): *order (malloc'd) lists each node
 * once, sources first.  num maps each node to its index + 2.
 */
rdx_status rdx_ir_topo_many(const rdx_uop *const *roots, size_t n, rdx_pmap *num,
                            const rdx_uop ***order, size_t *count);

/*
 * rdx_ir_substitute, except that a node for which keep(u) is true is kept as
 * it is, with everything under it (the same nodes elsewhere are replaced).
 * keep may be NULL.
 */
rdx_status rdx_ir_substitute_keep(rdx_ir_ctx *ctx, const rdx_uop *root, const rdx_uop *const *from,
                                  const rdx_uop *const *to, size_t n, int (*keep)(const rdx_uop *),
                                  const rdx_uop **out);

/*
 * Record that n is a fixed point of the symbolic rules whose sources are fixed points too
 * (rdx_ir_simplify then returns n for n at once, without trying the rules on it): the
 * symbolic rules call this for the canonical sums they build from simplified terms.
 * Recorded only while rdx_ir_simplify's bottom-up rewrite (results kept: not while a
 * WHERE branch is refined) tries the rules on a node whose sources are simplified.
 */
void rdx_ir_simp_fixed(rdx_ir_ctx *ctx, const rdx_uop *n);
/* What rdx_ir_simplify returned for n before (kept in the context), or NULL. */
const rdx_uop *rdx_ir_simp_known(const rdx_ir_ctx *ctx, const rdx_uop *n);
/* Is n a kept simplification result (rdx_ir_simplify returned it)?  record: keep n as
   one (the caller knows it is a fixed point over fixed points). */
int rdx_ir_simp_is_final(const rdx_ir_ctx *ctx, const rdx_uop *n);
void rdx_ir_simp_record(rdx_ir_ctx *ctx, const rdx_uop *n);

/* 1 (and reset) when a rule reported a failure since the last call. */
int rdx_rewriter_failed_(rdx_rewriter *rw);

/* One ALU op on scalar values (ir/eval.c): out/in dtypes, a[0..2] operands. */
rdx_status rdx_ir_alu_eval(rdx_op op, rdx_dtype out, rdx_dtype in, const rdx_value *a,
                           rdx_value *r);

/* A constant of a's dtype (VECTORIZEd for vectors); NULL on error (ir/decomp.c). */
const rdx_uop *rdx_ir_const_of(rdx_ir_ctx *ctx, const rdx_uop *a, double v);

/* Hash mixing. */
static inline uint64_t rdx_mix64(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 32);
}

/* Derivation (ir/derive.c): fill u's derived fields from op/src/arg. */
rdx_status rdx_ir_derive(rdx_ir_ctx *ctx, rdx_uop *u, const rdx_uop **dims);

/* Format a node head "OP(src0 float32[3,4], ...)" for messages. */
void rdx_ir_node_head(const rdx_uop *u, char *buf, size_t n);
/* Format a shape "[3,n]". */
void rdx_ir_shape_str(const rdx_uop *u, char *buf, size_t n);

/* Same-dtype helpers. */
int rdx_dtype_is_intlike(rdx_dtype d); /* bool, ints, index (scalar or vector) */

/* Record a rule violation. */
rdx_status rdx_ir_rule_fail(const rdx_uop *u, rdx_rule r, const char *fmt, ...) RDX_PRINTF(3, 4);

/* Wrap an int64 to the width/signedness of d. */
int64_t rdx_ir_wrap(rdx_dtype d, int64_t v);
/* Round a double to the float dtype d. */
double rdx_ir_round_float(rdx_dtype d, double v);

/* An INS argument that is neither an rdx_isa_inst nor a label (ir/ins.c): 1 and the
   problem in msg[0..cap); 0 when well formed. */
int ir_ins_problem(const rdx_uop_arg *a, char *msg, size_t cap);

#endif /* RDX_IR_INTERNAL_H */
