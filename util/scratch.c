/* util/scratch.c — working memory kept per thread (util/scratch.h). */
#include "util/scratch.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Under AddressSanitizer a kept block is poisoned until handed out again, so a use after
   rdx_scratch_free is still reported. */
#if defined(__SANITIZE_ADDRESS__)
#define SCRATCH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SCRATCH_ASAN 1
#endif
#endif
#ifdef SCRATCH_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n)   ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define POISON(p, n)   ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* Every block starts with this header (16 bytes: the payload stays 16-byte aligned). */
typedef struct block {
    union {
        struct block *next; /* in a free list */
        size_t cls;         /* while handed out: its size class, 0 = plain malloc */
    } h;
    size_t pad;
} block;

enum { CLS_MIN = 8, CLS_MAX = 22, KEEP_MAX = 16u << 20 };

static _Thread_local struct kept {
    block *head[CLS_MAX + 1];
    size_t bytes; /* kept in all */
    int keyed;    /* the thread's exit destructor is registered */
} kept;
static pthread_key_t key;
static int key_ok;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void drop(void *k)
{
    struct kept *t = k;
    for (int c = CLS_MIN; c <= CLS_MAX; c++)
        while (t->head[c]) {
            UNPOISON(t->head[c], (size_t)1 << c);
            block *next = t->head[c]->h.next;
            free(t->head[c]);
            t->head[c] = next;
        }
    t->bytes = 0;
}

static void key_make(void)
{
    key_ok = pthread_key_create(&key, drop) == 0;
}

/* The class of a block of n payload bytes (header included), 0 when too large to keep. */
static size_t class_of(size_t n)
{
    if (n > ((size_t)1 << CLS_MAX) - sizeof(block))
        return 0;
    size_t c = CLS_MIN;
    while (((size_t)1 << c) - sizeof(block) < n)
        c++;
    return c;
}

static size_t payload(const block *b)
{
    return ((size_t)1 << b->h.cls) - sizeof(block);
}

void *rdx_scratch_alloc(size_t n)
{
    size_t c = class_of(n);
    block *b;
    if (!c) {
        if (n > SIZE_MAX - sizeof(block) || !(b = malloc(sizeof(block) + n)))
            return NULL;
    } else if (kept.head[c]) {
        b = kept.head[c];
        UNPOISON(b, (size_t)1 << c);
        kept.head[c] = b->h.next;
        kept.bytes -= (size_t)1 << c;
    } else if (!(b = malloc((size_t)1 << c))) {
        return NULL;
    }
    b->h.cls = c;
    return b + 1;
}

void *rdx_scratch_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    void *p = rdx_scratch_alloc(count * size);
    if (p)
        memset(p, 0, count * size);
    return p;
}

void *rdx_scratch_realloc(void *p, size_t n)
{
    if (!p)
        return rdx_scratch_alloc(n);
    block *b = (block *)p - 1;
    if (b->h.cls && n <= payload(b))
        return p;
    if (!b->h.cls && class_of(n) == 0) {
        if (n > SIZE_MAX - sizeof(block))
            return NULL;
        block *nb = realloc(b, sizeof(block) + n);
        return nb ? nb + 1 : NULL;
    }
    void *q = rdx_scratch_alloc(n);
    if (!q)
        return NULL;
    /* a plain block is larger than any class: n bytes of it */
    size_t old = b->h.cls ? payload(b) : n;
    memcpy(q, p, old < n ? old : n);
    rdx_scratch_free(p);
    return q;
}

void rdx_scratch_free(void *p)
{
    if (!p)
        return;
    block *b = (block *)p - 1;
    size_t c = b->h.cls;
    if (c && kept.bytes + ((size_t)1 << c) <= KEEP_MAX) {
        if (!kept.keyed) {
            pthread_once(&once, key_make);
            kept.keyed = key_ok && pthread_setspecific(key, &kept) == 0 ? 1 : -1;
        }
        if (kept.keyed == 1) {
            b->h.next = kept.head[c];
            kept.head[c] = b;
            kept.bytes += (size_t)1 << c;
            POISON(b + 1, ((size_t)1 << c) - sizeof(block));
            return;
        }
    }
    free(b);
}
