/*
 * emu/dev/exec_sdma.c — the SDMA engine: runs an SDMA queue's ring (byte
 * pointers) with the pm4 layer's SDMA v6 decoder.
 *
 * Served: NOP, COPY_LINEAR (any size and alignment, overlapping copies
 * behave like memmove), WRITE_LINEAR, CONST_FILL (dword or byte fill),
 * FENCE, TRAP (an interrupt with its 28-bit context), POLL_REGMEM on memory
 * (blocks the queue until satisfied; retry counts are not modelled — it
 * waits as with 0xfff), TIMESTAMP_GET(_GLOBAL) (the 100 MHz GPU clock),
 * TIMESTAMP_SET (ignored), INDIRECT (an indirect buffer, not nested: what the
 * DRM path's SDMA rings run).  SRBM_WRITE stops the queue.  FENCE
 * and TIMESTAMP_GET write with release stores (after the copies and fills
 * before them); the engine has no atomic packets here.
 */
#include "emu/dev/emudev.h"

#include <stdlib.h>
#include <string.h>

#include <rdx/pm4.h>

static int is(const rdx_pm4_packet *p, rdx_sdma_packet k)
{
    return p->sdma && p->sdma == rdx_sdma_packet_info_get(k);
}

#define F(p, f) rdx_sdma_get((p), RDX_SDMA_F_##f)

static int fail(rdx_emudev *dev, emu_queue *q, const rdx_pm4_packet *p, const char *what)
{
    emu_queue_fail(dev, q, "SDMA %s (op %u sub-op %u): %s", p->sdma ? p->sdma->name : "unknown",
                   p->opcode, p->sub_op, what);
    return -1;
}

static int indirect(rdx_emudev *dev, emu_queue *q, const rdx_pm4_packet *p);

static int exec(rdx_emudev *dev, emu_queue *q, const rdx_pm4_packet *p)
{
    if (is(p, RDX_SDMA_PKT_NOP) || is(p, RDX_SDMA_PKT_TIMESTAMP_SET))
        return 1;
    if (is(p, RDX_SDMA_PKT_COPY_LINEAR)) {
        uint64_t n = (uint64_t)F(p, COPY_LINEAR_COUNT) + 1;
        uint64_t src = emu_addr64(F(p, COPY_LINEAR_SRC_ADDR_LO), F(p, COPY_LINEAR_SRC_ADDR_HI));
        uint64_t dst = emu_addr64(F(p, COPY_LINEAR_DST_ADDR_LO), F(p, COPY_LINEAR_DST_ADDR_HI));
        const void *s = emu_cp_access(dev, q, src, n, 0);
        void *d = s ? emu_cp_access(dev, q, dst, n, 1) : NULL;
        if (!d)
            return -1;
        memmove(d, s, n);
        return 1;
    }
    if (is(p, RDX_SDMA_PKT_WRITE_LINEAR)) {
        uint64_t n = (uint64_t)F(p, WRITE_LINEAR_COUNT) + 1;
        uint64_t dst = emu_addr64(F(p, WRITE_LINEAR_DST_ADDR_LO), F(p, WRITE_LINEAR_DST_ADDR_HI));
        if (dst & 3)
            return fail(dev, q, p, "misaligned destination");
        void *d = emu_cp_access(dev, q, dst, n * 4, 1);
        if (!d)
            return -1;
        memcpy(d, p->dw + 4, n * 4);
        return 1;
    }
    if (is(p, RDX_SDMA_PKT_CONST_FILL)) {
        uint64_t n = (uint64_t)F(p, CONST_FILL_COUNT) + 1;
        uint64_t dst = emu_addr64(F(p, CONST_FILL_DST_ADDR_LO), F(p, CONST_FILL_DST_ADDR_HI));
        uint32_t v = F(p, CONST_FILL_SRC_DATA), size = F(p, CONST_FILL_FILLSIZE);
        if (size != RDX_PM4_V_FILLSIZE_DWORD && size != RDX_PM4_V_FILLSIZE_BYTE)
            return fail(dev, q, p, "unsupported FILLSIZE");
        if (size == RDX_PM4_V_FILLSIZE_DWORD && ((dst | n) & 3))
            return fail(dev, q, p, "dword fill of a misaligned range");
        unsigned char *d = emu_cp_access(dev, q, dst, n, 1);
        if (!d)
            return -1;
        if (size == RDX_PM4_V_FILLSIZE_BYTE)
            memset(d, (int)(v & 0xff), n);
        else
            for (uint64_t i = 0; i < n; i += 4)
                memcpy(d + i, &v, 4);
        return 1;
    }
    if (is(p, RDX_SDMA_PKT_FENCE)) {
        uint64_t dst = emu_addr64(F(p, FENCE_ADDR_LO), F(p, FENCE_ADDR_HI));
        uint32_t v = F(p, FENCE_DATA);
        if (dst & 3)
            return fail(dev, q, p, "misaligned address");
        uint32_t *d = emu_cp_access(dev, q, dst, 4, 1);
        if (!d)
            return -1;
        __atomic_store_n(d, v, __ATOMIC_RELEASE);
        return 1;
    }
    if (is(p, RDX_SDMA_PKT_TRAP)) {
        emu_event_interrupt(dev, F(p, TRAP_INT_CONTEXT), 28);
        return 1;
    }
    if (is(p, RDX_SDMA_PKT_POLL_REGMEM)) {
        if (!F(p, POLL_REGMEM_MEM_POLL))
            return fail(dev, q, p, "register polling is not supported");
        uint64_t va = emu_addr64(F(p, POLL_REGMEM_ADDR_LO), F(p, POLL_REGMEM_ADDR_HI));
        if (va & 3)
            return fail(dev, q, p, "misaligned address");
        const uint32_t *s = emu_cp_access(dev, q, va, 4, 0);
        if (!s)
            return -1;
        uint32_t v = __atomic_load_n(s, __ATOMIC_ACQUIRE) & F(p, POLL_REGMEM_MASK);
        int ok = emu_wait_compare(F(p, POLL_REGMEM_FUNC), v, F(p, POLL_REGMEM_VALUE));
        return ok < 0 ? fail(dev, q, p, "reserved FUNC") : ok;
    }
    if (is(p, RDX_SDMA_PKT_TIMESTAMP_GET) || is(p, RDX_SDMA_PKT_TIMESTAMP_GET_GLOBAL)) {
        uint64_t va = is(p, RDX_SDMA_PKT_TIMESTAMP_GET)
                          ? emu_addr64(F(p, TIMESTAMP_GET_ADDR_LO), F(p, TIMESTAMP_GET_ADDR_HI))
                          : emu_addr64(F(p, TIMESTAMP_GET_GLOBAL_ADDR_LO),
                                       F(p, TIMESTAMP_GET_GLOBAL_ADDR_HI));
        if (va & 7)
            return fail(dev, q, p, "misaligned address");
        uint64_t *d = emu_cp_access(dev, q, va, 8, 1);
        if (!d)
            return -1;
        __atomic_store_n(d, emu_gpu_clock(), __ATOMIC_RELEASE);
        return 1;
    }
    if (is(p, RDX_SDMA_PKT_INDIRECT))
        return indirect(dev, q, p);
    return fail(dev, q, p, "not supported by the emulated SDMA engine");
}

/* INDIRECT (what amdgpu's SDMA rings run a CS's IB with): the IB's packets, resumable at
 * q->ib_pos[0] when a POLL_REGMEM inside blocks; not nested. */
static int indirect(rdx_emudev *dev, emu_queue *q, const rdx_pm4_packet *p)
{
    if (q->ib_pos[1])
        return fail(dev, q, p, "INDIRECT inside an indirect buffer");
    uint64_t va = emu_addr64(F(p, INDIRECT_BASE_LO), F(p, INDIRECT_BASE_HI));
    uint32_t n = F(p, INDIRECT_IB_SIZE);
    if (va & 3)
        return fail(dev, q, p, "misaligned IB base");
    if (n == 0)
        return 1;
    const uint32_t *ib = emu_cp_access(dev, q, va, (uint64_t)n * 4, 0);
    if (!ib)
        return -1;
    rdx_pm4_iter it;
    rdx_pm4_iter_init(&it, ib, n, true);
    it.pos = q->ib_pos[0];
    q->ib_pos[1] = 1; /* inside */
    int r = 1;
    while (!rdx_pm4_iter_done(&it)) {
        rdx_pm4_packet ip;
        if (rdx_pm4_iter_next(&it, &ip) != RDX_OK) {
            emu_queue_fail(dev, q, "bad SDMA packet in an indirect buffer: %s",
                           rdx_error_message());
            r = -1;
            break;
        }
        r = exec(dev, q, &ip);
        if (r <= 0)
            break;
        dev->stats.packets++;
        q->ib_pos[0] = it.pos;
    }
    q->ib_pos[1] = 0;
    if (r == 1)
        q->ib_pos[0] = 0;
    return r;
}

int emu_sdma_run(rdx_emudev *dev, emu_queue *q, uint64_t wptr)
{
    if ((wptr & 3) || wptr < q->rptr || wptr - q->rptr > q->ring_size) {
        emu_queue_fail(dev, q,
                       "SDMA doorbell write pointer %llu (bytes) outside [%llu, %llu] or "
                       "not dword-aligned",
                       (unsigned long long)wptr, (unsigned long long)q->rptr,
                       (unsigned long long)(q->rptr + q->ring_size));
        return -1;
    }
    size_t n = (size_t)(wptr - q->rptr) / 4;
    const uint32_t *lin = emu_ring_pending(dev, q, (size_t)(q->rptr / 4 % (q->ring_size / 4)), n);
    if (!lin)
        return -1;
    rdx_pm4_iter it;
    rdx_pm4_iter_init(&it, lin, n, true);
    size_t pos = 0;
    int r = 1;
    while (!rdx_pm4_iter_done(&it)) {
        rdx_pm4_packet p;
        if (rdx_pm4_iter_next(&it, &p) != RDX_OK) {
            emu_queue_fail(dev, q, "bad SDMA packet: %s", rdx_error_message());
            r = -1;
            break;
        }
        r = exec(dev, q, &p);
        if (r <= 0)
            break;
        dev->stats.packets++;
        pos = it.pos;
    }
    emu_ring_advance(dev, q, pos * 4);
    return r;
}
