/*
 * util/scratch.h — working memory kept per thread (internal).
 *
 * For the compiler's large, short-lived arrays (instruction lists, per-instruction
 * tables, arena blocks): a block freed here goes back to a free list of its thread, by
 * size class (powers of two from 256 bytes to 4 MB, at most 16 MB kept in all), and the
 * next request of the class takes it from there.  A warm process that compiles kernel
 * after kernel then reuses the same memory instead of giving it back to the system and
 * faulting it in again on the next compile: with glibc the heap top is trimmed whenever
 * more than 128 KB of it is free, and each trim (brk, a TLB shootdown) and each page
 * fault afterwards cost more than the compile itself on a busy virtual machine.  The
 * kept blocks are freed when the thread exits.
 *
 * A pointer from rdx_scratch_alloc / rdx_scratch_realloc must be freed with
 * rdx_scratch_free (never free()), on any thread.  Blocks are 16-byte aligned.
 */
#ifndef RDX_UTIL_SCRATCH_H
#define RDX_UTIL_SCRATCH_H

#include <stddef.h>

/* At least n bytes (uninitialised); NULL when memory runs out (nothing recorded). */
void *rdx_scratch_alloc(size_t n);

/* n zeroed bytes (count * size, NULL on overflow or no memory). */
void *rdx_scratch_calloc(size_t count, size_t size);

/* p (NULL or a scratch block) resized to at least n bytes, its contents kept; NULL when
   memory runs out (p is then unchanged). */
void *rdx_scratch_realloc(void *p, size_t n);

/* Give p (NULL or a scratch block) back. */
void rdx_scratch_free(void *p);

#endif /* RDX_UTIL_SCRATCH_H */
