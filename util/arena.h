/*
 * util/arena.h — a bump allocator (internal).
 *
 * Everything allocated from an arena is freed together by rdx_arena_free.
 * Zero-initialise (rdx_arena a = {0}) to get an empty arena.  Allocations are
 * 16-byte aligned.  Not thread-safe: one owner at a time.
 */
#ifndef RDX_UTIL_ARENA_H
#define RDX_UTIL_ARENA_H

#include <stddef.h>

/* Link-time names distinct from ir/'s arena (both define rdx_arena_alloc/free;
 * added by the tensor branch so main + ir-core link; the lead may rename properly). */
#define rdx_arena_alloc rdx_co_arena_alloc
#define rdx_arena_free  rdx_co_arena_free

typedef struct rdx_arena_block rdx_arena_block;

typedef struct rdx_arena {
    rdx_arena_block *head;
    size_t total; /* bytes obtained from malloc so far */
} rdx_arena;

/*
 * `n` zeroed bytes owned by the arena.  Returns NULL (with an RDX_ERR_NOMEM
 * message recorded) when memory runs out or n is absurd.
 */
void *rdx_arena_alloc(rdx_arena *a, size_t n);

/* Like rdx_arena_alloc without zeroing, for hot paths that fill every byte. */
void *rdx_arena_alloc_uninit(rdx_arena *a, size_t n);

/* `count` zeroed elements of `size` bytes; NULL on overflow or no memory. */
void *rdx_arena_array(rdx_arena *a, size_t count, size_t size);

/* A NUL-terminated copy of the `n` bytes at `s`; NULL on no memory. */
char *rdx_arena_strndup(rdx_arena *a, const char *s, size_t n);

/* Free every allocation and reset to empty. */
void rdx_arena_free(rdx_arena *a);

#endif /* RDX_UTIL_ARENA_H */
