/* isa/codeobj/arena.c — bump allocator for the code-object reader. */
#include "isa/codeobj/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

struct rdx_arena_block {
    rdx_arena_block *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

enum { ARENA_BLOCK = 16384 };

void *rdx_arena_alloc(rdx_arena *a, size_t n)
{
    size_t need = (n + 15) & ~(size_t)15;
    if (need < n || need > SIZE_MAX / 2) {
        rdx_fail(RDX_ERR_NOMEM, "allocation of %zu bytes is too large", n);
        return NULL;
    }
    rdx_arena_block *b = a->head;
    if (!b || b->cap - b->used < need) {
        size_t cap = need > ARENA_BLOCK ? need : ARENA_BLOCK;
        b = malloc(sizeof *b + cap);
        if (!b) {
            rdx_fail(RDX_ERR_NOMEM, "out of memory allocating %zu bytes", n);
            return NULL;
        }
        b->used = 0;
        b->cap = cap;
        b->next = a->head;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += need;
    memset(p, 0, need);
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
    char *p = rdx_arena_alloc(a, n + 1);
    if (p && n)
        memcpy(p, s, n);
    return p;
}

void rdx_arena_free(rdx_arena *a)
{
    rdx_arena_block *b = a->head;
    while (b) {
        rdx_arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
}
