/*
 * ir/spare.c — the by-id arrays of a destroyed context kept for the next
 * context of the same thread.
 *
 * A context's node maps (ir/nmap.c) and its simplification results
 * (ir/rewrite.c) are arrays indexed by node id that grow with the graph.  A
 * fresh context grew them again from nothing — copying on every doubling and
 * touching new pages (the page faults were ~8% of compiling one kernel).  Now
 * rdx_ir_ctx_destroy hands them to its thread's spares and the next context
 * takes them: node-map entries carry a stamp, so an old entry never matches,
 * and the results array is cleared up to the ids its context used.  Arrays
 * beyond SPARE_MAX_IDS ids are not kept (a huge graph's memory goes back).
 * So are the node table (zeroed) and the by-id node array of rdx_ir_make: a
 * fresh context grew them by doubling from 1024 entries, rehashing the table
 * at each step.  The symbolic rewriter (rdx_ir_symbolic: its rules parsed from their text,
 * ~180k instructions, a function of the rules alone, no node in it) is kept
 * the same way.  The spares are freed when the thread exits.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir_internal.h"

/* Largest array (in ids) kept for the next context. */
#define SPARE_MAX_IDS ((size_t)1 << 18)
/* Largest node table kept (entries): below the size ctx.c backs with huge pages. */
#define SPARE_MAX_TABLE ((size_t)1 << 17)

typedef struct spares {
    rdx_nmap_level *nml; /* a context's node-map levels, none busy */
    uint32_t *simp;      /* zeroed */
    size_t simp_cap;
    rdx_rewriter *sym; /* a context's symbolic rewriter */
    rdx_slot *slots;   /* a node table, zeroed */
    size_t slots_cap;
    const rdx_uop **nodes; /* a by-id node array (contents stale) */
    size_t nodes_cap;
} spares;

static __thread spares *tls_spares;
static pthread_key_t spares_key;
static pthread_once_t spares_once = PTHREAD_ONCE_INIT;
static int spares_key_ok;

static void spares_free(void *p)
{
    spares *s = p;
    if (!s)
        return;
    rdx_nmap_levels_destroy(s->nml);
    free(s->simp);
    rdx_rewriter_free(s->sym);
    free(s->slots);
    free(s->nodes);
    free(s);
}

static void spares_init(void)
{
    spares_key_ok = pthread_key_create(&spares_key, spares_free) == 0;
}

/* This thread's spares; NULL when there is no memory for them (nothing is kept then). */
static spares *spares_get(void)
{
    if (tls_spares)
        return tls_spares;
    pthread_once(&spares_once, spares_init);
    if (!spares_key_ok)
        return NULL;
    spares *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (pthread_setspecific(spares_key, s)) { /* freed at thread exit */
        free(s);
        return NULL;
    }
    tls_spares = s;
    return s;
}

rdx_nmap_level *rdx_ir_spare_levels_take(void)
{
    spares *s = tls_spares;
    rdx_nmap_level *l = s ? s->nml : NULL;
    if (l)
        s->nml = NULL;
    return l;
}

uint32_t *rdx_ir_spare_simp_take(size_t *cap)
{
    spares *s = tls_spares;
    uint32_t *a = s ? s->simp : NULL;
    if (a) {
        *cap = s->simp_cap;
        s->simp = NULL;
        s->simp_cap = 0;
    }
    return a;
}

rdx_rewriter *rdx_ir_spare_sym_take(void)
{
    spares *s = tls_spares;
    rdx_rewriter *rw = s ? s->sym : NULL;
    if (rw)
        s->sym = NULL;
    return rw;
}

rdx_slot *rdx_ir_spare_slots_take(size_t *cap)
{
    spares *s = tls_spares;
    rdx_slot *t = s ? s->slots : NULL;
    if (t) {
        *cap = s->slots_cap;
        s->slots = NULL;
        s->slots_cap = 0;
    }
    return t;
}

const rdx_uop **rdx_ir_spare_nodes_take(size_t *cap)
{
    spares *s = tls_spares;
    const rdx_uop **n = s ? s->nodes : NULL;
    if (n) {
        *cap = s->nodes_cap;
        s->nodes = NULL;
        s->nodes_cap = 0;
    }
    return n;
}

void rdx_ir_spare_give(rdx_ir_ctx *ctx)
{
    spares *s = spares_get();
    /* the node table (calloc'd: not a huge-page table) and the by-id node array */
    if (s && ctx->slots && !s->slots && ctx->cap <= SPARE_MAX_TABLE) {
        memset(ctx->slots, 0, ctx->cap * sizeof *ctx->slots);
        s->slots = ctx->slots;
        s->slots_cap = ctx->cap;
        ctx->slots = NULL;
        ctx->cap = 0;
    }
    if (s && ctx->nodes && !s->nodes && ctx->ncap <= SPARE_MAX_IDS) {
        s->nodes = ctx->nodes;
        s->nodes_cap = ctx->ncap;
        ctx->nodes = NULL;
        ctx->ncap = 0;
    }
    if (s && ctx->sym && !s->sym) {
        s->sym = ctx->sym;
        ctx->sym = NULL;
    }
    if (s && ctx->nml && !s->nml && rdx_nmap_levels_fit(ctx->nml, SPARE_MAX_IDS)) {
        s->nml = ctx->nml;
        ctx->nml = NULL;
    }
    if (s && ctx->simp && !s->simp && ctx->simp_cap <= SPARE_MAX_IDS) {
        size_t used = ctx->count < ctx->simp_cap ? ctx->count : ctx->simp_cap;
        memset(ctx->simp, 0, used * sizeof *ctx->simp);
        s->simp = ctx->simp;
        s->simp_cap = ctx->simp_cap;
        ctx->simp = NULL;
        ctx->simp_cap = 0;
    }
}
