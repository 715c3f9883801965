/* util/arena.c — bump allocator shared by the IR context and the code-object reader. */
#include "util/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/scratch.h"

struct rdx_arena_block {
    rdx_arena_block *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

/* Blocks come from the thread's scratch memory (util/scratch.h: a warm process reuses
   them for its next IR context); a standard one is exactly 64 KB with its headers. */
enum { ARENA_BLOCK = 65536 - 16 - sizeof(rdx_arena_block), ARENA_BIG = ARENA_BLOCK / 2 };

void *rdx_arena_alloc_uninit(rdx_arena *a, size_t n)
{
    size_t need = (n + 15) & ~(size_t)15;
    if (need < n || need > SIZE_MAX / 2) {
        rdx_fail(RDX_ERR_NOMEM, "allocation of %zu bytes is too large", n);
        return NULL;
    }
    rdx_arena_block *b = a->head;
    if (!b || b->cap - b->used < need) {
        size_t cap = need > ARENA_BIG ? need : ARENA_BLOCK;
        b = rdx_scratch_alloc(sizeof *b + cap);
        if (!b) {
            rdx_fail(RDX_ERR_NOMEM, "out of memory allocating %zu bytes", n);
            return NULL;
        }
        b->used = 0;
        b->cap = cap;
        if (need > ARENA_BIG && a->head) {
            /* A big block of its own: keep the partly used block in front. */
            b->next = a->head->next;
            a->head->next = b;
        } else {
            b->next = a->head;
            a->head = b;
        }
        a->total += cap;
    }
    void *p = b->data + b->used;
    b->used += need;
    return p;
}

void *rdx_arena_alloc(rdx_arena *a, size_t n)
{
    void *p = rdx_arena_alloc_uninit(a, n);
    if (p)
        memset(p, 0, n);
    return p;
}

void *rdx_arena_array(rdx_arena *a, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / 2 / size) {
        rdx_fail(RDX_ERR_NOMEM, "array of %zu x %zu bytes is too large", count, size);
        return NULL;
    }
    size_t n = count * size;
    return rdx_arena_alloc(a, n ? n : 1);
}

char *rdx_arena_strndup(rdx_arena *a, const char *s, size_t n)
{
    if (n == SIZE_MAX) {
        rdx_fail(RDX_ERR_NOMEM, "string too large");
        return NULL;
    }
    char *p = rdx_arena_alloc_uninit(a, n + 1);
    if (p) {
        if (n)
            memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

void rdx_arena_free(rdx_arena *a)
{
    rdx_arena_block *b = a->head;
    while (b) {
        rdx_arena_block *next = b->next;
        rdx_scratch_free(b);
        b = next;
    }
    a->head = NULL;
    a->total = 0;
}
