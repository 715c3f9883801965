/*
 * isa/codeobj/arena.h — a simple bump allocator (internal).
 *
 * Everything allocated from an arena is freed together by rdx_arena_free.
 * Zero-initialise (rdx_arena a = {0}) to get an empty arena.
 */
#ifndef RDX_ISA_CODEOBJ_ARENA_H
#define RDX_ISA_CODEOBJ_ARENA_H

#include <stddef.h>

/* Link-time names distinct from ir/'s arena (both define rdx_arena_alloc/free;
 * added by the tensor branch so main + ir-core link; the lead may rename properly). */
#define rdx_arena_alloc rdx_co_arena_alloc
#define rdx_arena_free  rdx_co_arena_free

typedef struct rdx_arena_block rdx_arena_block;

typedef struct rdx_arena {
    rdx_arena_block *head;
} rdx_arena;

/*
 * `n` zeroed bytes aligned to 16, owned by the arena.  Returns NULL (with an
 * RDX_ERR_NOMEM message recorded) when memory runs out or n is absurd.
 */
void *rdx_arena_alloc(rdx_arena *a, size_t n);

/* `count` zeroed elements of `size` bytes; NULL on overflow or no memory. */
void *rdx_arena_array(rdx_arena *a, size_t count, size_t size);

/* A NUL-terminated copy of the `n` bytes at `s`; NULL on no memory. */
char *rdx_arena_strndup(rdx_arena *a, const char *s, size_t n);

/* Free every allocation and reset to empty. */
void rdx_arena_free(rdx_arena *a);

#endif /* RDX_ISA_CODEOBJ_ARENA_H */
