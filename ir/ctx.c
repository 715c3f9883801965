/*
 * ir/ctx.c — the context: arena, interning of strings/tuples/devices, and the
 * hash-consing constructor rdx_ir_make.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ir/ir_internal.h"

/* ----------------------------------------------------------------- pmap */

static size_t ptr_hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

const void *rdx_pmap_get(const rdx_pmap *m, const void *key)
{
    if (!m->cap)
        return NULL;
    size_t mask = m->cap - 1;
    for (size_t i = ptr_hash(key) & mask;; i = (i + 1) & mask) {
        if (m->ents[i].key == key)
            return m->ents[i].val;
        if (!m->ents[i].key)
            return NULL;
    }
}

rdx_status rdx_pmap_put(rdx_pmap *m, const void *key, const void *val)
{
    if ((m->count + 1) * 2 > m->cap) {
        size_t ncap = m->cap ? m->cap * 2 : 32;
        rdx_pmap_ent *ne = calloc(ncap, sizeof *ne);
        if (!ne)
            return rdx_fail(RDX_ERR_NOMEM, "pointer map: out of memory");
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->ents[i].key)
                continue;
            size_t j = ptr_hash(m->ents[i].key) & (ncap - 1);
            while (ne[j].key)
                j = (j + 1) & (ncap - 1);
            ne[j] = m->ents[i];
        }
        free(m->ents);
        m->ents = ne;
        m->cap = ncap;
    }
    size_t mask = m->cap - 1;
    size_t i = ptr_hash(key) & mask;
    while (m->ents[i].key && m->ents[i].key != key)
        i = (i + 1) & mask;
    if (!m->ents[i].key) {
        m->count++;
        m->ents[i].key = key;
    }
    m->ents[i].val = val;
    return RDX_OK;
}

void rdx_pmap_free(rdx_pmap *m)
{
    free(m->ents);
    memset(m, 0, sizeof *m);
}

/* -------------------------------------------------------------- context */

rdx_status rdx_ir_ctx_create(rdx_ir_ctx **out)
{
    rdx_ir_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return rdx_fail(RDX_ERR_NOMEM, "IR context: out of memory");
    c->slots = rdx_ir_spare_slots_take(&c->cap); /* a destroyed context's (ir/spare.c) */
    c->nodes = rdx_ir_spare_nodes_take(&c->ncap);
    if (!c->slots) {
        c->cap = 1024;
        c->slots = calloc(c->cap, sizeof *c->slots);
    }
    if (!c->slots) {
        free(c->nodes);
        free(c);
        return rdx_fail(RDX_ERR_NOMEM, "IR context: out of memory");
    }
    const char *v = getenv("RDX_IR_VERIFY");
    c->verify = v && *v && strcmp(v, "0") != 0;
    *out = c;
    return RDX_OK;
}

void rdx_ir_ctx_set_verify(rdx_ir_ctx *ctx, int on)
{
    ctx->verify = on != 0;
}

int rdx_ir_ctx_verify(const rdx_ir_ctx *ctx)
{
    return ctx->verify;
}

void rdx_ir_ctx_destroy(rdx_ir_ctx *ctx)
{
    if (!ctx)
        return;
    rdx_ir_spare_give(ctx); /* the by-id arrays and the rewriter for the thread's next context */
    rdx_rewriter_free(ctx->sym);
    rdx_arena_free(&ctx->arena);
    free(ctx->slots);
    free(ctx->nodes);
    free(ctx->blobs);
    free(ctx->simp);
    rdx_nmap_levels_free(ctx);
    for (size_t k = 0; k < sizeof ctx->tcache / sizeof ctx->tcache[0]; k++)
        free(ctx->tcache[k].order);
    free(ctx);
}

size_t rdx_ir_node_count(const rdx_ir_ctx *ctx)
{
    return ctx->count;
}

/* -------------------------------------------------------------- interning */

enum { BLOB_STR = 1, BLOB_INTS = 2, BLOB_DEV = 3 };

static uint32_t blob_hash(uint32_t kind, const void *p, size_t len)
{
    uint64_t h = 1469598103934665603ull ^ kind;
    const unsigned char *b = p;
    for (size_t i = 0; i < len; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return (uint32_t)(h ^ (h >> 32)) | 1u;
}

/* Find or store a copy of (kind, bytes).  `extra` bytes are reserved after the copy (zeroed). */
static const void *intern(rdx_ir_ctx *ctx, uint32_t kind, const void *p, size_t len, size_t extra)
{
    uint32_t h = blob_hash(kind, p, len);
    if ((ctx->bcount + 1) * 2 > ctx->bcap) {
        size_t ncap = ctx->bcap ? ctx->bcap * 2 : 256;
        rdx_blob *nb = calloc(ncap, sizeof *nb);
        if (!nb) {
            rdx_fail(RDX_ERR_NOMEM, "IR context: out of memory interning");
            return NULL;
        }
        for (size_t i = 0; i < ctx->bcap; i++) {
            if (!ctx->blobs[i].hash)
                continue;
            size_t j = ctx->blobs[i].hash & (ncap - 1);
            while (nb[j].hash)
                j = (j + 1) & (ncap - 1);
            nb[j] = ctx->blobs[i];
        }
        free(ctx->blobs);
        ctx->blobs = nb;
        ctx->bcap = ncap;
    }
    size_t mask = ctx->bcap - 1;
    size_t i = h & mask;
    for (; ctx->blobs[i].hash; i = (i + 1) & mask) {
        rdx_blob *b = &ctx->blobs[i];
        if (b->hash == h && b->kind == kind && b->len == len && !memcmp(b->ptr, p, len))
            return b->ptr;
    }
    void *copy = rdx_arena_alloc_uninit(&ctx->arena, len + extra + 1);
    if (!copy) {
        rdx_fail(RDX_ERR_NOMEM, "IR context: out of memory interning");
        return NULL;
    }
    if (len)
        memcpy(copy, p, len);
    memset((char *)copy + len, 0, extra + 1);
    ctx->blobs[i] = (rdx_blob){ h, kind, len, copy };
    ctx->bcount++;
    return copy;
}

const char *rdx_ir_str(rdx_ir_ctx *ctx, const char *s, size_t len)
{
    return intern(ctx, BLOB_STR, s ? s : "", s ? len : 0, 0);
}

const int64_t *rdx_ir_ints(rdx_ir_ctx *ctx, const int64_t *v, size_t n)
{
    static const int64_t none = 0;
    return intern(ctx, BLOB_INTS, n ? (const void *)v : (const void *)&none, n * sizeof *v, 0);
}

const rdx_uop_device *rdx_ir_device(rdx_ir_ctx *ctx, const char *const *names, size_t n)
{
    if (n < 1 || n > 4096) {
        rdx_fail(RDX_ERR_INVALID, "device: need 1..4096 names, got %zu", n);
        return NULL;
    }
    const char *tmp[4096];
    for (size_t k = 0; k < n; k++) {
        tmp[k] = rdx_ir_str(ctx, names[k], strlen(names[k]));
        if (!tmp[k])
            return NULL;
    }
    /* The key is the array of interned name pointers; an rdx_uop_device sits after it. */
    size_t keylen = n * sizeof(char *);
    size_t pad = (16 - keylen % 16) % 16;
    unsigned char *p =
        (unsigned char *)intern(ctx, BLOB_DEV, tmp, keylen, pad + sizeof(rdx_uop_device));
    if (!p)
        return NULL;
    rdx_uop_device *d = (rdx_uop_device *)(p + keylen + pad);
    d->n = (uint32_t)n;
    d->names = (const char *const *)p;
    return d;
}

/* ------------------------------------------------------------ hash-consing */

/* Keep only the fields the op's schema uses, interned. */
static rdx_status canon_arg(rdx_ir_ctx *ctx, rdx_argk k, const rdx_uop_arg *in, rdx_uop_arg *a)
{
    static const rdx_uop_arg zero;
    memset(a, 0, sizeof *a);
    if (!in)
        in = &zero;
    switch (k) {
    case RDX_ARGK_NONE:
        break;
    case RDX_ARGK_CONST:
        a->dtype = in->dtype;
        if (rdx_dtype_is_float(in->dtype))
            a->f = in->f;
        else
            a->i = in->i;
        break;
    case RDX_ARGK_PARAM:
    case RDX_ARGK_BUFFER:
        a->i = in->i;
        a->dtype = in->dtype;
        a->device = in->device;
        a->addrspace = in->addrspace;
        if (k == RDX_ARGK_BUFFER && !a->addrspace) /* a BUFFER is global unless stated */
            a->addrspace = RDX_ADDR_GLOBAL;
        break;
    case RDX_ARGK_DTYPE:
        a->dtype = in->dtype;
        break;
    case RDX_ARGK_SLOT:
        a->i = in->i;
        a->dtype = in->dtype;
        break;
    case RDX_ARGK_INTS:
        a->ints = in->ints, a->nints = in->nints;
        break;
    case RDX_ARGK_REDUCE:
        a->sub = in->sub;
        a->ints = in->ints, a->nints = in->nints;
        break;
    case RDX_ARGK_INDEX:
        a->i = in->i;
        break;
    case RDX_ARGK_PLACE:
        a->device = in->device;
        a->addrspace = in->addrspace;
        break;
    case RDX_ARGK_RANGE:
        a->i = in->i;
        a->sub = in->sub;
        break;
    case RDX_ARGK_VAR:
        a->str = in->str, a->len = in->len;
        a->i = in->i, a->j = in->j;
        break;
    case RDX_ARGK_STR:
    case RDX_ARGK_BYTES:
        a->str = in->str, a->len = in->len;
        break;
    case RDX_ARGK_STRDTYPE:
        a->str = in->str, a->len = in->len;
        a->dtype = in->dtype;
        break;
    case RDX_ARGK_INS:
        a->str = in->str, a->len = in->str ? in->len : 0;
        a->i = in->str ? 0 : in->i;
        break;
    case RDX_ARGK_VCONST:
        a->dtype = in->dtype;
        a->ints = in->ints, a->nints = in->nints;
        break;
    }
    if (!a->dtype.count)
        a->dtype.count = 1;
    if (a->str ||
        (k == RDX_ARGK_VAR || k == RDX_ARGK_STR || k == RDX_ARGK_STRDTYPE || k == RDX_ARGK_BYTES)) {
        size_t len = a->str && k != RDX_ARGK_BYTES && !a->len ? strlen(a->str) : a->len;
        a->str = rdx_ir_str(ctx, a->str, len);
        a->len = (uint32_t)len;
        if (!a->str)
            return RDX_ERR_NOMEM;
    }
    if (a->nints || k == RDX_ARGK_INTS || k == RDX_ARGK_REDUCE || k == RDX_ARGK_VCONST) {
        a->ints = rdx_ir_ints(ctx, a->ints, a->nints);
        if (!a->ints)
            return RDX_ERR_NOMEM;
    }
    if (a->device) { /* re-intern a device built elsewhere */
        const rdx_uop_device *d = rdx_ir_device(ctx, a->device->names, a->device->n);
        if (!d)
            return RDX_ERR_NOMEM;
        a->device = d;
    }
    return RDX_OK;
}

/* One word into the hash: a multiply per word (the final mix spreads it). */
static inline uint64_t hword(uint64_t h, uint64_t v)
{
    return (h ^ v) * 0x9e3779b97f4a7c15ull;
}

/* The node's hash: op, tag, sources (two ids per word) and the canonical arg, one multiply per
   word and one final avalanche (the table takes the low bits). */
static uint32_t node_hash(rdx_op op, const rdx_uop *const *src, size_t nsrc, const rdx_uop_arg *a,
                          int32_t tag, int plain)
{
    uint64_t h = hword((uint64_t)op << 32 | (uint32_t)tag, nsrc);
    size_t k = 0;
    for (; k + 1 < nsrc; k += 2)
        h = hword(h, (uint64_t)src[k]->id << 32 | src[k + 1]->id);
    if (k < nsrc)
        h = hword(h, src[k]->id);
    if (!plain) { /* an op with an arg (a plain op's arg is all zero, its count 1) */
        uint64_t fb;
        memcpy(&fb, &a->f, sizeof fb);
        h = hword(h, (uint64_t)a->dtype.scalar | (uint64_t)a->dtype.ptr << 8 |
                         (uint64_t)a->dtype.count << 16 | (uint64_t)a->addrspace << 32 |
                         (uint64_t)a->sub << 40);
        h = hword(h, (uint64_t)a->i);
        h = hword(h, (uint64_t)a->j ^ fb);
        h = hword(h, (uint64_t)(uintptr_t)a->ints ^ ((uint64_t)(uintptr_t)a->str << 1) ^
                         ((uint64_t)(uintptr_t)a->device << 2) ^ a->nints);
    }
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ull;
    h ^= h >> 32;
    return (uint32_t)h;
}

/* u is (op, src, arg, tag); the hashes agree already.  Every node of an op without an arg
   (plain) has the same canonical (zero) arg. */
static int node_eq(const rdx_uop *u, rdx_op op, const rdx_uop *const *src, size_t nsrc,
                   const rdx_uop_arg *a, int32_t tag, int plain)
{
    if (u->op != op || u->tag != tag || u->nsrc != nsrc)
        return 0;
    for (size_t k = 0; k < nsrc; k++)
        if (u->src[k] != src[k])
            return 0;
    return plain || !memcmp(&u->arg, a, sizeof *a);
}

/*
 * A zeroed node table of cap entries.  Probes land at random places, so a large
 * table is backed by huge pages where the kernel offers them (one TLB entry
 * per 2 MiB instead of per 4 KiB): node creation is bound by these misses.
 */
static rdx_slot *table_alloc(size_t cap)
{
    size_t bytes = cap * sizeof(rdx_slot);
#ifdef MADV_HUGEPAGE
    enum { HUGE = 2 << 20 };
    if (bytes >= HUGE) {
        void *p = NULL;
        if (posix_memalign(&p, HUGE, bytes))
            return NULL;
        madvise(p, bytes, MADV_HUGEPAGE);
        memset(p, 0, bytes);
        return p;
    }
#endif
    return calloc(cap, sizeof(rdx_slot));
}

static rdx_status grow_table(rdx_ir_ctx *ctx)
{
    size_t ncap = ctx->cap * 2;
    rdx_slot *ns = table_alloc(ncap);
    if (!ns)
        return rdx_fail(RDX_ERR_NOMEM, "IR context: out of memory growing the node table");
    for (size_t i = 0; i < ctx->cap; i++) { /* the stored hashes: no node is touched */
        if (!ctx->slots[i].id1)
            continue;
        size_t j = ctx->slots[i].hash & (ncap - 1);
        while (ns[j].id1)
            j = (j + 1) & (ncap - 1);
        ns[j] = ctx->slots[i];
    }
    free(ctx->slots);
    ctx->slots = ns;
    ctx->cap = ncap;
    return RDX_OK;
}

rdx_status rdx_ir_make(rdx_ir_ctx *ctx, rdx_op op, const rdx_uop *const *src, size_t nsrc,
                       const rdx_uop_arg *arg_in, int32_t tag, const rdx_uop **out)
{
    const rdx_opinfo *info = rdx_op_info(op);
    if (!info)
        return rdx_fail(RDX_ERR_INVALID, "rdx_ir_make: op %d out of range", (int)op);
    for (size_t k = 0; k < nsrc; k++)
        if (!src[k])
            return rdx_fail(RDX_ERR_INVALID, "%s: source %zu is NULL", info->name, k);
    if (nsrc > 0xfffffff)
        return rdx_fail(RDX_ERR_INVALID, "%s: too many sources", info->name);
    rdx_uop_arg arg;
    rdx_status st = RDX_OK;
    int plain = info->argk == RDX_ARGK_NONE;
    if (plain) { /* what canon_arg gives for an op without an arg */
        memset(&arg, 0, sizeof arg);
        arg.dtype.count = 1;
    } else if ((st = canon_arg(ctx, info->argk, arg_in, &arg))) {
        return st;
    }
    uint32_t h = node_hash(op, src, nsrc, &arg, tag, plain);
    size_t mask = ctx->cap - 1;
    for (size_t i = h & mask; ctx->slots[i].id1; i = (i + 1) & mask) {
        if (ctx->slots[i].hash == h) {
            const rdx_uop *v = ctx->nodes[ctx->slots[i].id1 - 1];
            if (node_eq(v, op, src, nsrc, &arg, tag, plain)) {
                *out = v;
                return RDX_OK;
            }
        }
    }
    /* New node: derive its properties (may build other nodes, e.g. CONST dims). */
    rdx_uop tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.op = (uint16_t)op;
    tmp.tag = tag;
    tmp.nsrc = (uint32_t)nsrc;
    tmp.src = src;
    tmp.arg = arg;
    tmp.hash = h;
    tmp.axis = -1;
    const rdx_uop *dims[RDX_IR_MAX_DIMS];
    st = rdx_ir_derive(ctx, &tmp, dims);
    if (st)
        return st;
    if ((ctx->count + 1) * 4 > ctx->cap * 3 && (st = grow_table(ctx)))
        return st;
    if (ctx->count == ctx->ncap) {
        size_t nn = ctx->ncap ? ctx->ncap * 2 : 1024;
        const rdx_uop **nb = nn < UINT32_MAX ? realloc(ctx->nodes, nn * sizeof *nb) : NULL;
        if (!nb)
            return rdx_fail(RDX_ERR_NOMEM, "IR context: out of memory creating %s", info->name);
        ctx->nodes = nb;
        ctx->ncap = nn;
    }
    size_t bytes = sizeof(rdx_uop) + nsrc * sizeof(rdx_uop *);
    int copy_dims = tmp.ndim && !tmp.shape;
    if (copy_dims)
        bytes += tmp.ndim * sizeof(rdx_uop *);
    rdx_uop *u = rdx_arena_alloc_uninit(&ctx->arena, bytes);
    if (!u)
        return rdx_fail(RDX_ERR_NOMEM, "IR context: out of memory creating %s", info->name);
    *u = tmp;
    const rdx_uop **s = (const rdx_uop **)(u + 1);
    if (nsrc)
        memcpy(s, src, nsrc * sizeof *s);
    u->src = s;
    if (copy_dims) {
        memcpy(s + nsrc, dims, tmp.ndim * sizeof *s);
        u->shape = s + nsrc;
    }
    u->id = (uint32_t)ctx->count;
    mask = ctx->cap - 1;
    size_t i = h & mask;
    while (ctx->slots[i].id1)
        i = (i + 1) & mask;
    ctx->slots[i] = (rdx_slot){ h, u->id + 1 };
    ctx->nodes[u->id] = u;
    ctx->count++;
    *out = u;
    return RDX_OK;
}
