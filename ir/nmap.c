/*
 * ir/nmap.c — node -> pointer maps over one context's nodes, indexed by node
 * id in arrays the context keeps and reuses (no hashing, no clearing: an entry
 * counts only when it carries the map's stamp).  A node of another context
 * whose id is taken in the map goes to a hash map beside it.
 */
#include <stdlib.h>
#include <string.h>

#include "ir/ir_internal.h"

/* Levels a context keeps; maps beyond that many at once use the hash map alone. */
#define NMAP_LEVELS 8

typedef struct nmap_ent {
    const rdx_uop *key;
    const void *val;
    uint32_t stamp;
} nmap_ent;

struct rdx_nmap_level {
    nmap_ent *e;
    size_t cap;
    uint32_t stamp;
    int busy;
};

void rdx_nmap_init(rdx_nmap *m, rdx_ir_ctx *ctx)
{
    memset(m, 0, sizeof *m);
    m->ctx = ctx;
    if (!ctx->nml && !(ctx->nml = rdx_ir_spare_levels_take()) &&
        !(ctx->nml = calloc(NMAP_LEVELS, sizeof *ctx->nml)))
        return;
    for (int k = 0; k < NMAP_LEVELS; k++) {
        rdx_nmap_level *l = &ctx->nml[k];
        if (l->busy)
            continue;
        l->busy = 1;
        if (++l->stamp == 0) { /* wrapped: old stamps could match again */
            if (l->e)
                memset(l->e, 0, l->cap * sizeof *l->e);
            l->stamp = 1;
        }
        m->lv = l;
        return;
    }
}

const void *rdx_nmap_get(const rdx_nmap *m, const rdx_uop *u)
{
    const rdx_nmap_level *l = m->lv;
    if (l && u->id < l->cap) {
        const nmap_ent *e = &l->e[u->id];
        if (e->stamp != l->stamp)
            return NULL;
        if (e->key == u)
            return e->val;
    } else if (l) {
        return NULL;
    }
    return rdx_pmap_get(&m->over, u);
}

rdx_status rdx_nmap_put(rdx_nmap *m, const rdx_uop *u, const void *val)
{
    rdx_nmap_level *l = m->lv;
    if (!l)
        return rdx_pmap_put(&m->over, u, val);
    if (u->id >= l->cap) {
        size_t nc = l->cap ? l->cap : 1024;
        while (nc <= u->id || nc < m->ctx->count)
            nc *= 2;
        nmap_ent *ne = realloc(l->e, nc * sizeof *ne);
        if (!ne)
            return rdx_fail(RDX_ERR_NOMEM, "node map: out of memory");
        memset(ne + l->cap, 0, (nc - l->cap) * sizeof *ne);
        l->e = ne;
        l->cap = nc;
    }
    nmap_ent *e = &l->e[u->id];
    if (e->stamp != l->stamp) {
        *e = (nmap_ent){ u, val, l->stamp };
        return RDX_OK;
    }
    if (e->key == u) {
        e->val = val;
        return RDX_OK;
    }
    return rdx_pmap_put(&m->over, u, val);
}

void rdx_nmap_free(rdx_nmap *m)
{
    if (m->lv)
        m->lv->busy = 0;
    rdx_pmap_free(&m->over);
    memset(m, 0, sizeof *m);
}

void rdx_nmap_levels_destroy(rdx_nmap_level *lv)
{
    for (int k = 0; lv && k < NMAP_LEVELS; k++)
        free(lv[k].e);
    free(lv);
}

void rdx_nmap_levels_free(rdx_ir_ctx *ctx)
{
    rdx_nmap_levels_destroy(ctx->nml);
    ctx->nml = NULL;
}

int rdx_nmap_levels_fit(const rdx_nmap_level *lv, size_t max)
{
    for (int k = 0; k < NMAP_LEVELS; k++)
        if (lv[k].busy || lv[k].cap > max)
            return 0;
    return 1;
}

/* ------------------------------------------------------------ public API */

struct rdx_ir_nodemap {
    rdx_nmap m;
};

rdx_status rdx_ir_nodemap_create(rdx_ir_ctx *ctx, rdx_ir_nodemap **out)
{
    rdx_ir_nodemap *m = malloc(sizeof *m);
    if (!m)
        return rdx_fail(RDX_ERR_NOMEM, "node map: out of memory");
    rdx_nmap_init(&m->m, ctx);
    *out = m;
    return RDX_OK;
}

rdx_status rdx_ir_nodemap_put(rdx_ir_nodemap *m, const rdx_uop *u, const void *val)
{
    return rdx_nmap_put(&m->m, u, val);
}

const void *rdx_ir_nodemap_get(const rdx_ir_nodemap *m, const rdx_uop *u)
{
    return rdx_nmap_get(&m->m, u);
}

void rdx_ir_nodemap_free(rdx_ir_nodemap *m)
{
    if (!m)
        return;
    rdx_nmap_free(&m->m);
    free(m);
}
