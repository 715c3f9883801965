/* pm4/internal.h — helpers shared by the pm4/ builders (internal). */
#ifndef RDX_PM4_INTERNAL_H
#define RDX_PM4_INTERNAL_H

#include <assert.h>

#include <rdx/pm4.h>

/* Record `st` as the buffer's sticky status (unless one is set) and return it. */
rdx_status pm4_error(rdx_pm4_cmdbuf *cb, rdx_status st);
/* Slow path of pm4_reserve: grow or fail (sets the sticky status). */
uint32_t *pm4_reserve_slow(rdx_pm4_cmdbuf *cb, size_t n);

/* Room for n >= 1 more dwords at cb->dw + cb->len (not yet counted in len),
 * or NULL with the sticky status set.  Callers write, then add n to len.
 * (n = 0 would hand out cb->dw + 0, a null offset on an empty buffer, and
 * a NULL that reads as failure with no status set.)  The room is compared
 * as cap - len, which cannot wrap (len <= cap), never as len + n. */
static inline uint32_t *pm4_reserve(rdx_pm4_cmdbuf *cb, size_t n)
{
    assert(n >= 1 && cb->len <= cb->cap);
    if (!cb->status && n <= cb->cap - cb->len)
        return cb->dw + cb->len;
    return pm4_reserve_slow(cb, n);
}

static inline uint32_t lo32(uint64_t v)
{
    return (uint32_t)v;
}

static inline uint32_t hi32(uint64_t v)
{
    return (uint32_t)(v >> 32);
}

#endif /* RDX_PM4_INTERNAL_H */
