/*
 * util/buf.h — a growable byte buffer (internal).
 *
 * Zero-initialise (rdx_buf b = {0}) to get an empty buffer; rdx_buf_free
 * releases it.  Appends return RDX_ERR_NOMEM (with a message) on allocation
 * failure and leave the buffer unchanged.
 */
#ifndef RDX_UTIL_BUF_H
#define RDX_UTIL_BUF_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/status.h>

#include "util/error.h"

typedef struct rdx_buf {
    uint8_t *data;
    size_t len;
    size_t cap;
} rdx_buf;

/* Ensure room for `extra` more bytes. */
rdx_status rdx_buf_reserve(rdx_buf *b, size_t extra);
/* Append `n` bytes from `p`. */
rdx_status rdx_buf_append(rdx_buf *b, const void *p, size_t n);
/* Append printf-formatted text (no terminating NUL counted in len; one is kept after it). */
rdx_status rdx_buf_printf(rdx_buf *b, const char *fmt, ...) RDX_PRINTF(2, 3);
/* Append little-endian integers. */
rdx_status rdx_buf_u8(rdx_buf *b, uint8_t v);
rdx_status rdx_buf_u16(rdx_buf *b, uint16_t v);
rdx_status rdx_buf_u32(rdx_buf *b, uint32_t v);
rdx_status rdx_buf_u64(rdx_buf *b, uint64_t v);
/* Release the storage and reset to empty. */
void rdx_buf_free(rdx_buf *b);

#endif /* RDX_UTIL_BUF_H */
