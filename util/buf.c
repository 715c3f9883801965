/* util/buf.c — growable byte buffer. */
#include "util/buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rdx_status rdx_buf_reserve(rdx_buf *b, size_t extra)
{
    /* +1 keeps room for the NUL that rdx_buf_printf leaves after the text. */
    if (extra > SIZE_MAX - b->len - 1)
        return rdx_fail(RDX_ERR_NOMEM, "buffer of %zu bytes cannot grow by %zu", b->len, extra);
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return RDX_OK;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    uint8_t *p = realloc(b->data, cap);
    if (!p)
        return rdx_fail(RDX_ERR_NOMEM, "out of memory growing a buffer to %zu bytes", cap);
    b->data = p;
    b->cap = cap;
    return RDX_OK;
}

rdx_status rdx_buf_append(rdx_buf *b, const void *p, size_t n)
{
    rdx_status st = rdx_buf_reserve(b, n);
    if (st)
        return st;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    return RDX_OK;
}

rdx_status rdx_buf_printf(rdx_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return rdx_fail(RDX_ERR_INVALID, "bad format string \"%s\"", fmt);
    rdx_status st = rdx_buf_reserve(b, (size_t)n);
    if (st)
        return st;
    va_start(ap, fmt);
    vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return RDX_OK;
}

rdx_status rdx_buf_u8(rdx_buf *b, uint8_t v)
{
    return rdx_buf_append(b, &v, 1);
}

rdx_status rdx_buf_u16(rdx_buf *b, uint16_t v)
{
    uint8_t x[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
    return rdx_buf_append(b, x, 2);
}

rdx_status rdx_buf_u32(rdx_buf *b, uint32_t v)
{
    uint8_t x[4];
    for (int i = 0; i < 4; i++)
        x[i] = (uint8_t)(v >> (8 * i));
    return rdx_buf_append(b, x, 4);
}

rdx_status rdx_buf_u64(rdx_buf *b, uint64_t v)
{
    uint8_t x[8];
    for (int i = 0; i < 8; i++)
        x[i] = (uint8_t)(v >> (8 * i));
    return rdx_buf_append(b, x, 8);
}

void rdx_buf_free(rdx_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}
