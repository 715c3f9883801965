/* pm4/cmdbuf.c — command buffers: storage, sticky errors, begin/add/end. */
#include <stdlib.h>
#include <string.h>

#include <rdx/pm4.h>

#include "pm4/internal.h"
#include "util/error.h"

void rdx_pm4_cmdbuf_init(rdx_pm4_cmdbuf *cb)
{
    memset(cb, 0, sizeof *cb);
}

void rdx_pm4_cmdbuf_init_fixed(rdx_pm4_cmdbuf *cb, uint32_t *mem, size_t cap_dw)
{
    memset(cb, 0, sizeof *cb);
    cb->dw = mem;
    cb->cap = mem ? cap_dw : 0;
    cb->fixed = true;
}

void rdx_pm4_cmdbuf_reset(rdx_pm4_cmdbuf *cb)
{
    cb->len = 0;
    cb->open = 0;
    cb->status = RDX_OK;
}

void rdx_pm4_cmdbuf_free(rdx_pm4_cmdbuf *cb)
{
    if (!cb->fixed)
        free(cb->dw);
    memset(cb, 0, sizeof *cb);
}

rdx_status rdx_pm4_cmdbuf_status(const rdx_pm4_cmdbuf *cb)
{
    return cb->status;
}

rdx_status pm4_error(rdx_pm4_cmdbuf *cb, rdx_status st)
{
    if (!cb->status)
        cb->status = st;
    return st;
}

uint32_t *pm4_reserve_slow(rdx_pm4_cmdbuf *cb, size_t n)
{
    if (cb->status)
        return NULL;
    if (n > SIZE_MAX / 4 - cb->len) {
        pm4_error(cb, rdx_fail(RDX_ERR_RANGE, "command buffer of %zu dwords cannot grow by %zu",
                               cb->len, n));
        return NULL;
    }
    size_t need = cb->len + n;
    if (need <= cb->cap)
        return cb->dw + cb->len;
    if (cb->fixed) {
        pm4_error(cb, rdx_fail(RDX_ERR_RANGE,
                               "command buffer full: %zu of %zu dwords used, %zu more needed",
                               cb->len, cb->cap, n));
        return NULL;
    }
    size_t cap = cb->cap ? cb->cap : 256;
    while (cap < need)
        cap = cap > SIZE_MAX / 8 ? need : cap * 2;
    uint32_t *p = realloc(cb->dw, cap * sizeof *p);
    if (!p) {
        pm4_error(cb, rdx_fail(RDX_ERR_NOMEM,
                               "out of memory growing a command buffer to %zu dwords", cap));
        return NULL;
    }
    cb->dw = p;
    cb->cap = cap;
    return cb->dw + cb->len;
}

rdx_status rdx_pm4_emit(rdx_pm4_cmdbuf *cb, const uint32_t *dw, size_t n)
{
    if (cb->status || !n)
        return cb->status;
    if (!dw)
        return pm4_error(cb, rdx_fail(RDX_ERR_INVALID,
                                      "rdx_pm4_emit: dw is NULL for %zu dwords, expected data", n));
    uint32_t *p = pm4_reserve(cb, n);
    if (!p)
        return cb->status;
    memcpy(p, dw, n * sizeof *dw);
    cb->len += n;
    return RDX_OK;
}

rdx_status rdx_pm4_begin(rdx_pm4_cmdbuf *cb, rdx_pm4_opcode opcode, bool compute)
{
    if (cb->status)
        return cb->status;
    if (cb->open)
        return pm4_error(cb, rdx_fail(RDX_ERR_INVALID,
                                      "rdx_pm4_begin: packet at dword %zu is still open",
                                      cb->open - 1));
    uint32_t *p = pm4_reserve(cb, 1);
    if (!p)
        return cb->status;
    *p = RDX_PM4_HEADER(opcode, 0, compute);
    cb->open = ++cb->len;
    return RDX_OK;
}

rdx_status rdx_pm4_add(rdx_pm4_cmdbuf *cb, uint32_t dw)
{
    if (cb->status)
        return cb->status;
    if (!cb->open)
        return pm4_error(cb, rdx_fail(RDX_ERR_INVALID, "rdx_pm4_add: no packet is open"));
    return rdx_pm4_emit(cb, &dw, 1);
}

rdx_status rdx_pm4_end(rdx_pm4_cmdbuf *cb)
{
    if (cb->status)
        return cb->status;
    if (!cb->open)
        return pm4_error(cb, rdx_fail(RDX_ERR_INVALID, "rdx_pm4_end: no packet is open"));
    size_t hdr = cb->open - 1;
    size_t body = cb->len - cb->open;
    cb->open = 0;
    if (body < 1 || body > 0x4000) {
        cb->len = hdr;
        return pm4_error(cb, rdx_fail(RDX_ERR_INVALID,
                                      "rdx_pm4_end: packet at dword %zu has %zu body dwords, "
                                      "expected 1..16384",
                                      hdr, body));
    }
    cb->dw[hdr] |= (uint32_t)(body - 1) << 16;
    return RDX_OK;
}
