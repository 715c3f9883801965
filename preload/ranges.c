/*
 * preload/ranges.c — the address ranges the emulated driver mapped or was shown (the results
 * of the mmaps the interposer handed to it: device mappings, PROT_NONE reservations, fixed
 * anonymous mappings).  Only an munmap that overlaps one of them concerns the driver (buffer
 * objects and GPU addresses live there); every other munmap of the program goes to libc
 * directly, without the driver's lock and without waiting for a running dispatch.
 *
 * The set is a superset: a range is dropped only when an munmap the driver served covered it
 * whole, so a partly unmapped range still routes the rest of its munmaps to the driver.
 */
#include "preload/preload.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct pl_range {
    uint64_t start, end; /* [start, end), page-aligned */
} pl_range;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pl_range *ranges;
static size_t count, cap;
static int overflowed; /* out of memory once: route every munmap to the driver */

#define PAGE 4096ull

void pl_ranges_add(const void *addr, size_t len)
{
    uint64_t s = (uint64_t)(uintptr_t)addr & ~(PAGE - 1);
    uint64_t e = ((uint64_t)(uintptr_t)addr + len + PAGE - 1) & ~(PAGE - 1);
    pthread_mutex_lock(&lock);
    if (count == cap) {
        size_t ncap = cap ? 2 * cap : 64;
        pl_range *n = realloc(ranges, ncap * sizeof *n);
        if (!n) {
            overflowed = 1;
            pthread_mutex_unlock(&lock);
            return;
        }
        ranges = n;
        cap = ncap;
    }
    ranges[count++] = (pl_range){ s, e };
    pthread_mutex_unlock(&lock);
}

int pl_ranges_overlap(const void *addr, size_t len)
{
    uint64_t s = (uint64_t)(uintptr_t)addr, e = (s + len + PAGE - 1) & ~(PAGE - 1);
    int hit = 0;
    pthread_mutex_lock(&lock);
    hit = overflowed;
    for (size_t i = 0; i < count && !hit; i++)
        hit = ranges[i].start < e && s < ranges[i].end;
    pthread_mutex_unlock(&lock);
    return hit;
}

void pl_ranges_remove_covered(const void *addr, size_t len)
{
    uint64_t s = (uint64_t)(uintptr_t)addr, e = (s + len + PAGE - 1) & ~(PAGE - 1);
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < count;) {
        if (ranges[i].start >= s && ranges[i].end <= e)
            ranges[i] = ranges[--count];
        else
            i++;
    }
    pthread_mutex_unlock(&lock);
}
