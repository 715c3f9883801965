/* pm4/sdma.c — SDMA v6 (gfx11) packet builders. */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include <rdx/pm4.h>

#include "pm4/internal.h"
#include "util/error.h"

/* Header dword of an SDMA packet: op [7:0], sub-op [15:8]. */
static uint32_t sdma_header(rdx_sdma_packet pkt)
{
    const rdx_sdma_packet_info *s = rdx_sdma_packet_info_get(pkt);
    return (uint32_t)s->op | (uint32_t)s->sub_op << 8;
}

static rdx_status bad(rdx_pm4_cmdbuf *cb, const char *fn, const char *what, unsigned long long v,
                      const char *expected)
{
    if (cb->status)
        return cb->status;
    return pm4_error(cb, rdx_fail(RDX_ERR_INVALID, "%s: %s = %llu (0x%llx), expected %s", fn, what,
                                  v, v, expected));
}

/* The largest byte count one copy or fill is given: the GPU's 48-bit
 * virtual address space (gfx9+ GPUVM; the dispatch's code and scratch
 * addresses are checked against the same bound).  Any larger count names
 * memory no GPU address reaches, and its packet count (2^26 at this bound)
 * is what keeps the packet arithmetic below far from wrapping. */
#define SDMA_MAX_RANGE (1ull << 48)

/* Packets of at most RDX_SDMA_MAX_BYTES covering 1 <= bytes <= SDMA_MAX_RANGE
 * (computed without bytes + MAX - 1, which wraps near 2^64). */
static uint64_t sdma_packets(uint64_t bytes)
{
    assert(bytes >= 1 && bytes <= SDMA_MAX_RANGE);
    return bytes / RDX_SDMA_MAX_BYTES + (bytes % RDX_SDMA_MAX_BYTES != 0);
}

/* [addr, addr + bytes) must be a range the packets can express: at most
 * SDMA_MAX_RANGE bytes, not wrapping past 2^64. */
static rdx_status check_range(rdx_pm4_cmdbuf *cb, const char *fn, const char *what, uint64_t addr,
                              uint64_t bytes)
{
    if (cb->status)
        return cb->status;
    if (bytes > SDMA_MAX_RANGE)
        return bad(cb, fn, "bytes", bytes, "at most 2^48 (the GPU's virtual address space)");
    if (addr > UINT64_MAX - (bytes - 1))
        return pm4_error(cb,
                         rdx_fail(RDX_ERR_INVALID,
                                  "%s: %s = 0x%llx with bytes = %llu wraps past 2^64, expected "
                                  "a range that ends at or below 2^64",
                                  fn, what, (unsigned long long)addr, (unsigned long long)bytes));
    return RDX_OK;
}

rdx_status rdx_sdma_nop(rdx_pm4_cmdbuf *cb, uint32_t ndw)
{
    if (ndw < 1 || ndw > 0x4000)
        return bad(cb, "rdx_sdma_nop", "ndw", ndw, "1..16384");
    uint32_t *p = pm4_reserve(cb, ndw);
    if (!p)
        return cb->status;
    p[0] = sdma_header(RDX_SDMA_PKT_NOP) | RDX_SDMA_PUT(NOP, COUNT, ndw - 1);
    memset(p + 1, 0, (ndw - 1) * sizeof *p);
    cb->len += ndw;
    return RDX_OK;
}

rdx_status rdx_sdma_copy_linear(rdx_pm4_cmdbuf *cb, uint64_t dst, uint64_t src, uint64_t bytes)
{
    static const char fn[] = "rdx_sdma_copy_linear";
    if (!bytes)
        return bad(cb, fn, "bytes", bytes, ">= 1");
    if (check_range(cb, fn, "src", src, bytes) || check_range(cb, fn, "dst", dst, bytes))
        return cb->status;
    uint64_t packets = sdma_packets(bytes);
    uint32_t *p = pm4_reserve(cb, (size_t)packets * 7);
    if (!p)
        return cb->status;
    while (bytes) {
        uint32_t n = bytes > RDX_SDMA_MAX_BYTES ? RDX_SDMA_MAX_BYTES : (uint32_t)bytes;
        p[0] = sdma_header(RDX_SDMA_PKT_COPY_LINEAR);
        p[1] = RDX_SDMA_PUT(COPY_LINEAR, COUNT, n - 1);
        p[2] = 0; /* no endian swap, default cache policies */
        p[3] = lo32(src);
        p[4] = hi32(src);
        p[5] = lo32(dst);
        p[6] = hi32(dst);
        p += 7;
        src += n;
        dst += n;
        bytes -= n;
    }
    cb->len += (size_t)packets * 7;
    return RDX_OK;
}

rdx_status rdx_sdma_const_fill(rdx_pm4_cmdbuf *cb, uint64_t dst, uint32_t value, uint64_t bytes)
{
    static const char fn[] = "rdx_sdma_const_fill";
    if (!bytes || bytes & 3)
        return bad(cb, fn, "bytes", bytes, "a nonzero multiple of 4");
    if (dst & 3)
        return bad(cb, fn, "dst", dst, "4-byte aligned");
    if (check_range(cb, fn, "dst", dst, bytes))
        return cb->status;
    uint64_t packets = sdma_packets(bytes);
    uint32_t *p = pm4_reserve(cb, (size_t)packets * 5);
    if (!p)
        return cb->status;
    while (bytes) {
        uint32_t n = bytes > RDX_SDMA_MAX_BYTES ? RDX_SDMA_MAX_BYTES : (uint32_t)bytes;
        p[0] = sdma_header(RDX_SDMA_PKT_CONST_FILL) |
               RDX_SDMA_PUT(CONST_FILL, FILLSIZE, RDX_PM4_V_FILLSIZE_DWORD);
        p[1] = lo32(dst);
        p[2] = hi32(dst);
        p[3] = value;
        p[4] = RDX_SDMA_PUT(CONST_FILL, COUNT, n - 1);
        p += 5;
        dst += n;
        bytes -= n;
    }
    cb->len += (size_t)packets * 5;
    return RDX_OK;
}

rdx_status rdx_sdma_fence(rdx_pm4_cmdbuf *cb, uint64_t addr, uint32_t value)
{
    if (addr & 3)
        return bad(cb, "rdx_sdma_fence", "addr", addr, "4-byte aligned");
    uint32_t *p = pm4_reserve(cb, 4);
    if (!p)
        return cb->status;
    p[0] = sdma_header(RDX_SDMA_PKT_FENCE) | RDX_SDMA_PUT(FENCE, MTYPE, 3); /* uncached */
    p[1] = lo32(addr);
    p[2] = hi32(addr);
    p[3] = value;
    cb->len += 4;
    return RDX_OK;
}

rdx_status rdx_sdma_trap(rdx_pm4_cmdbuf *cb, uint32_t int_context)
{
    if (int_context >> 28)
        return bad(cb, "rdx_sdma_trap", "int_context", int_context, "< 2^28");
    uint32_t *p = pm4_reserve(cb, 2);
    if (!p)
        return cb->status;
    p[0] = sdma_header(RDX_SDMA_PKT_TRAP);
    p[1] = RDX_SDMA_PUT(TRAP, INT_CONTEXT, int_context);
    cb->len += 2;
    return RDX_OK;
}

rdx_status rdx_sdma_poll_mem(rdx_pm4_cmdbuf *cb, uint64_t addr, uint32_t ref, uint32_t mask,
                             uint32_t func, uint32_t interval, uint32_t retry_count)
{
    static const char fn[] = "rdx_sdma_poll_mem";
    if (func > RDX_PM4_V_SDMA_FUNC_GT)
        return bad(cb, fn, "func", func, "0..6");
    if (interval >> 16)
        return bad(cb, fn, "interval", interval, "< 2^16");
    if (retry_count >> 12)
        return bad(cb, fn, "retry_count", retry_count, "< 2^12");
    if (addr & 3)
        return bad(cb, fn, "addr", addr, "4-byte aligned");
    uint32_t *p = pm4_reserve(cb, 6);
    if (!p)
        return cb->status;
    p[0] = sdma_header(RDX_SDMA_PKT_POLL_REGMEM) | RDX_SDMA_PUT(POLL_REGMEM, FUNC, func) |
           RDX_SDMA_PUT(POLL_REGMEM, MEM_POLL, 1);
    p[1] = lo32(addr);
    p[2] = hi32(addr);
    p[3] = ref;
    p[4] = mask;
    p[5] = RDX_SDMA_PUT(POLL_REGMEM, INTERVAL, interval) |
           RDX_SDMA_PUT(POLL_REGMEM, RETRY_COUNT, retry_count);
    cb->len += 6;
    return RDX_OK;
}

rdx_status rdx_sdma_timestamp(rdx_pm4_cmdbuf *cb, uint64_t addr)
{
    if (addr & 7)
        return bad(cb, "rdx_sdma_timestamp", "addr", addr, "8-byte aligned");
    uint32_t *p = pm4_reserve(cb, 3);
    if (!p)
        return cb->status;
    p[0] = sdma_header(RDX_SDMA_PKT_TIMESTAMP_GET_GLOBAL);
    p[1] = lo32(addr);
    p[2] = hi32(addr);
    cb->len += 3;
    return RDX_OK;
}

rdx_status rdx_sdma_write(rdx_pm4_cmdbuf *cb, uint64_t addr, const uint32_t *data, uint32_t n)
{
    static const char fn[] = "rdx_sdma_write";
    if (n < 1 || n > (1u << 20))
        return bad(cb, fn, "n", n, "1..1048576");
    if (addr & 3)
        return bad(cb, fn, "addr", addr, "4-byte aligned");
    if (!data)
        return bad(cb, fn, "data", 0, "a pointer to n dwords (it is NULL)");
    uint32_t *p = pm4_reserve(cb, 4 + (size_t)n);
    if (!p)
        return cb->status;
    p[0] = sdma_header(RDX_SDMA_PKT_WRITE_LINEAR);
    p[1] = lo32(addr);
    p[2] = hi32(addr);
    p[3] = RDX_SDMA_PUT(WRITE_LINEAR, COUNT, n - 1);
    memcpy(p + 4, data, (size_t)n * sizeof *data);
    cb->len += 4 + (size_t)n;
    return RDX_OK;
}
