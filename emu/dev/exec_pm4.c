/*
 * emu/dev/exec_pm4.c — the PM4 side of the command processor: runs a compute
 * queue's ring from its read pointer to the doorbell's write pointer.
 *
 * Packets are decoded with the pm4 layer's iterator and field table
 * (rdx/pm4.h).  Served: NOP, SET_SH_REG(_INDEX) / SET_UCONFIG_REG into the
 * queue's shadow registers, ACQUIRE_MEM and EVENT_WRITE (no-ops: the
 * emulator's memory is coherent and dispatches finish before the next
 * packet), RELEASE_MEM (32/64-bit data or the GPU clock, then the interrupt),
 * WAIT_REG_MEM(64) on memory or a shadow register (the queue blocks there and
 * is re-checked on every pass), WRITE_DATA, COPY_DATA (registers, memory,
 * immediates, the GPU clock, perf counters), INDIRECT_BUFFER (nested, resumable inside),
 * DISPATCH_DIRECT and DISPATCH_INDIRECT (emu/dev/dispatch.c).  Register
 * writes and reads of the perf counter and thread trace registers go to
 * emu/dev/perf.c.  Anything else
 * stops the queue.  Every memory write of RELEASE_MEM, WRITE_DATA and
 * COPY_DATA (fences, signals, event mailboxes, timestamps) is a release store
 * to a dword-aligned address, ordered after the memory effects of everything
 * before it in the queue.
 */
#include "emu/dev/emudev.h"

#include <stdlib.h>
#include <string.h>

#include <rdx/pm4.h>
#include <rdx/status.h>

#define MAX_IB_DEPTH 4

static uint32_t get(const rdx_pm4_packet *p, rdx_pm4_field f)
{
    return rdx_pm4_get(p, f);
}

/* Shadow register `reg` (absolute dword offset), or NULL outside the SH/UCONFIG windows. */
static uint32_t *shadow(emu_queue *q, uint32_t reg)
{
    if (reg >= RDX_PM4_SH_REG_START && reg < RDX_PM4_SH_REG_END)
        return &q->sh_regs[reg - RDX_PM4_SH_REG_START];
    if (reg >= RDX_PM4_UCONFIG_REG_START && reg < RDX_PM4_UCONFIG_REG_END) {
        if (!q->uconfig_regs)
            q->uconfig_regs = calloc(RDX_PM4_UCONFIG_REG_END - RDX_PM4_UCONFIG_REG_START, 4);
        return q->uconfig_regs ? &q->uconfig_regs[reg - RDX_PM4_UCONFIG_REG_START] : NULL;
    }
    return NULL;
}

/* Write `n` bytes (whole dwords) to the dword-aligned GPU address `va` with release
 * stores — one 64-bit store for an aligned qword, else one per dword — so a host thread
 * that reads a fence or signal value with an acquire load also sees every memory effect
 * before it (the dispatches before it, whose waves were joined by this thread, and
 * earlier packets); 0 or -1 (fault raised). */
static int gpu_write(rdx_emudev *dev, emu_queue *q, uint64_t va, const void *src, size_t n)
{
    void *p = emu_cp_access(dev, q, va, n, 1);
    if (!p)
        return -1;
    if (n == 8 && !(va & 7)) {
        uint64_t v;
        memcpy(&v, src, 8);
        __atomic_store_n((uint64_t *)p, v, __ATOMIC_RELEASE);
        return 0;
    }
    for (size_t i = 0; i + 4 <= n; i += 4) {
        uint32_t v;
        memcpy(&v, (const char *)src + i, 4);
        __atomic_store_n((uint32_t *)p + i / 4, v, __ATOMIC_RELEASE);
    }
    return 0;
}

static int gpu_read(rdx_emudev *dev, emu_queue *q, uint64_t va, void *dst, size_t n)
{
    const void *p = emu_cp_access(dev, q, va, n, 0);
    if (!p)
        return -1;
    memcpy(dst, p, n);
    return 0;
}

static int fail(rdx_emudev *dev, emu_queue *q, const rdx_pm4_packet *p, const char *what)
{
    const char *name = p->op ? p->op->name : "unknown";
    emu_queue_fail(dev, q, "PM4 %s (opcode 0x%02x): %s", name, p->opcode, what);
    return -1;
}

static int release_mem(rdx_emudev *dev, emu_queue *q, const rdx_pm4_packet *p)
{
    uint32_t data_sel = get(p, RDX_PM4_F_RELEASE_MEM_DATA_SEL);
    uint32_t int_sel = get(p, RDX_PM4_F_RELEASE_MEM_INT_SEL);
    uint32_t dst_sel = get(p, RDX_PM4_F_RELEASE_MEM_DST_SEL);
    uint64_t va =
        emu_addr64(get(p, RDX_PM4_F_RELEASE_MEM_ADDR_LO), get(p, RDX_PM4_F_RELEASE_MEM_ADDR_HI));
    uint64_t data =
        emu_addr64(get(p, RDX_PM4_F_RELEASE_MEM_DATA_LO), get(p, RDX_PM4_F_RELEASE_MEM_DATA_HI));
    if (data_sel != RDX_PM4_V_DATA_SEL_NONE && dst_sel != RDX_PM4_V_REL_DST_SEL_MC &&
        dst_sel != RDX_PM4_V_REL_DST_SEL_TC_L2)
        return fail(dev, q, p, "unsupported DST_SEL");
    /* dword-aligned 32-bit data, qword-aligned 64-bit data (as rdx_pm4_release_mem builds it) */
    if (data_sel != RDX_PM4_V_DATA_SEL_NONE &&
        (va & (data_sel == RDX_PM4_V_DATA_SEL_DATA32 ? 3 : 7)))
        return fail(dev, q, p, "misaligned address");
    int r = 0;
    switch (data_sel) {
    case RDX_PM4_V_DATA_SEL_NONE:
        break;
    case RDX_PM4_V_DATA_SEL_DATA32: {
        uint32_t v = (uint32_t)data;
        r = gpu_write(dev, q, va, &v, 4);
        break;
    }
    case RDX_PM4_V_DATA_SEL_DATA64:
        r = gpu_write(dev, q, va, &data, 8);
        break;
    case RDX_PM4_V_DATA_SEL_GPU_CLOCK64:
    case RDX_PM4_V_DATA_SEL_SYS_CLOCK64: {
        uint64_t t = emu_gpu_clock();
        r = gpu_write(dev, q, va, &t, 8);
        break;
    }
    default:
        return fail(dev, q, p, "unsupported DATA_SEL");
    }
    if (r)
        return -1;
    if (int_sel == RDX_PM4_V_INT_SEL_INT_ONLY ||
        int_sel == RDX_PM4_V_INT_SEL_INT_AFTER_WRITE_CONFIRM)
        emu_event_interrupt(dev, get(p, RDX_PM4_F_RELEASE_MEM_INT_CTXID), 32);
    else if (int_sel != RDX_PM4_V_INT_SEL_NONE)
        return fail(dev, q, p, "unsupported INT_SEL");
    return 1;
}

/* WAIT_REG_MEM and WAIT_REG_MEM64: 1 satisfied, 0 blocked, -1 failed. */
static int wait_reg_mem(rdx_emudev *dev, emu_queue *q, const rdx_pm4_packet *p, int wide)
{
    uint32_t func, space, op;
    uint64_t va, ref, mask;
    if (wide) {
        func = get(p, RDX_PM4_F_WAIT_REG_MEM64_FUNCTION);
        space = get(p, RDX_PM4_F_WAIT_REG_MEM64_MEM_SPACE);
        op = get(p, RDX_PM4_F_WAIT_REG_MEM64_OPERATION);
        va = emu_addr64(get(p, RDX_PM4_F_WAIT_REG_MEM64_POLL_ADDR_LO),
                        get(p, RDX_PM4_F_WAIT_REG_MEM64_POLL_ADDR_HI));
        ref = emu_addr64(get(p, RDX_PM4_F_WAIT_REG_MEM64_REFERENCE_LO),
                         get(p, RDX_PM4_F_WAIT_REG_MEM64_REFERENCE_HI));
        mask = emu_addr64(get(p, RDX_PM4_F_WAIT_REG_MEM64_MASK_LO),
                          get(p, RDX_PM4_F_WAIT_REG_MEM64_MASK_HI));
    } else {
        func = get(p, RDX_PM4_F_WAIT_REG_MEM_FUNCTION);
        space = get(p, RDX_PM4_F_WAIT_REG_MEM_MEM_SPACE);
        op = get(p, RDX_PM4_F_WAIT_REG_MEM_OPERATION);
        va = emu_addr64(get(p, RDX_PM4_F_WAIT_REG_MEM_POLL_ADDR_LO),
                        get(p, RDX_PM4_F_WAIT_REG_MEM_POLL_ADDR_HI));
        ref = get(p, RDX_PM4_F_WAIT_REG_MEM_REFERENCE);
        mask = get(p, RDX_PM4_F_WAIT_REG_MEM_MASK);
    }
    if (op == RDX_PM4_V_WAIT_OP_WR_WAIT_WR_REG && !wide) {
        /* Write REFERENCE to the register at POLL_ADDR_LO, wait on the one at POLL_ADDR_HI:
         * the HDP flush (amdgpu's emit_hdp_flush, tinygrad's memory_barrier) through
         * BIF_BX_PF0_GPU_HDP_FLUSH_REQ/DONE of NBIO 4.3 and NBIF 6.3.1, BIF_BX_PF1's of NBIO
         * 7.11 (the APUs): the same dword pair on every modelled target.  The emulated GPU has
         * no HDP cache: the flush is done as soon as it is asked for. */
        uint32_t req = get(p, RDX_PM4_F_WAIT_REG_MEM_POLL_ADDR_LO);
        uint32_t done = get(p, RDX_PM4_F_WAIT_REG_MEM_POLL_ADDR_HI);
        if (space != RDX_PM4_V_MEM_SPACE_REGISTER || req != EMU_HDP_FLUSH_REQ ||
            done != EMU_HDP_FLUSH_DONE)
            return fail(dev, q, p,
                        "write-then-wait is emulated only for the HDP flush (REQ register "
                        "0xe26, DONE 0xe27)");
        int ok = emu_wait_compare(func, ref & mask, ref & mask);
        return ok < 0 ? fail(dev, q, p, "reserved compare FUNCTION") : 1;
    }
    if (op != RDX_PM4_V_WAIT_OP_WAIT_REG_MEM)
        return fail(dev, q, p, "OPERATION write-then-wait needs the 32-bit packet");
    uint64_t v = 0;
    if (space == RDX_PM4_V_MEM_SPACE_MEMORY) {
        size_t n = wide ? 8 : 4;
        if (va & (n - 1))
            return fail(dev, q, p, "misaligned poll address");
        const void *src = emu_cp_access(dev, q, va, n, 0);
        if (!src)
            return -1;
        v = wide ? __atomic_load_n((const uint64_t *)src, __ATOMIC_ACQUIRE)
                 : __atomic_load_n((const uint32_t *)src, __ATOMIC_ACQUIRE);
    } else if (space == RDX_PM4_V_MEM_SPACE_REGISTER) {
        uint32_t *r = shadow(q, (uint32_t)va), pv;
        v = emu_perf_read(dev, q, (uint32_t)va, &pv) ? pv : r ? *r : 0;
    } else {
        return fail(dev, q, p, "unsupported MEM_SPACE");
    }
    int ok = emu_wait_compare(func, v & mask, ref);
    if (ok < 0)
        return fail(dev, q, p, "reserved compare FUNCTION");
    return ok;
}

static int write_data(rdx_emudev *dev, emu_queue *q, const rdx_pm4_packet *p)
{
    uint32_t sel = get(p, RDX_PM4_F_WRITE_DATA_DST_SEL);
    uint64_t va = emu_addr64(get(p, RDX_PM4_F_WRITE_DATA_DST_ADDR_LO),
                             get(p, RDX_PM4_F_WRITE_DATA_DST_ADDR_HI));
    int one = get(p, RDX_PM4_F_WRITE_DATA_WR_ONE_ADDR);
    const uint32_t *data = p->dw + 4;
    uint32_t n = p->ndw - 4;
    if (sel == RDX_PM4_V_WD_DST_SEL_REGISTER) {
        for (uint32_t i = 0; i < n; i++) {
            if (emu_perf_write(dev, q, (uint32_t)va + (one ? 0 : i), data[i]))
                continue;
            uint32_t *r = shadow(q, (uint32_t)va + (one ? 0 : i));
            if (!r)
                return fail(dev, q, p, "register outside the SH/UCONFIG windows");
            *r = data[i];
        }
        return 1;
    }
    if (sel != RDX_PM4_V_WD_DST_SEL_MEMORY && sel != RDX_PM4_V_WD_DST_SEL_TC_L2 &&
        sel != RDX_PM4_V_WD_DST_SEL_MEMORY_SYNC)
        return fail(dev, q, p, "unsupported DST_SEL");
    if (va & 3)
        return fail(dev, q, p, "misaligned destination");
    if (one) {
        for (uint32_t i = 0; i < n; i++)
            if (gpu_write(dev, q, va, &data[i], 4))
                return -1;
        return 1;
    }
    return gpu_write(dev, q, va, data, (size_t)n * 4) ? -1 : 1;
}

static int is_mem_sel(uint32_t sel)
{
    return sel == RDX_PM4_V_CD_SRC_SEL_MEMORY_SYNC || sel == RDX_PM4_V_CD_SRC_SEL_TC_L2 ||
           sel == RDX_PM4_V_CD_DST_SEL_MEMORY;
}

static int copy_data(rdx_emudev *dev, emu_queue *q, const rdx_pm4_packet *p)
{
    uint32_t src_sel = get(p, RDX_PM4_F_COPY_DATA_SRC_SEL);
    uint32_t dst_sel = get(p, RDX_PM4_F_COPY_DATA_DST_SEL);
    size_t n = get(p, RDX_PM4_F_COPY_DATA_COUNT_SEL) ? 8 : 4;
    uint64_t src = emu_addr64(get(p, RDX_PM4_F_COPY_DATA_SRC_ADDR_LO),
                              get(p, RDX_PM4_F_COPY_DATA_SRC_ADDR_HI));
    uint64_t dst = emu_addr64(get(p, RDX_PM4_F_COPY_DATA_DST_ADDR_LO),
                              get(p, RDX_PM4_F_COPY_DATA_DST_ADDR_HI));
    uint64_t v = 0;
    uint32_t pv;
    if (src_sel == RDX_PM4_V_CD_SRC_SEL_IMMEDIATE) {
        v = n == 8 ? src : (uint32_t)src;
    } else if (src_sel == RDX_PM4_V_CD_SRC_SEL_GPU_CLOCK) {
        v = emu_gpu_clock();
    } else if ((src_sel == RDX_PM4_V_CD_SRC_SEL_REGISTER ||
                src_sel == RDX_PM4_V_CD_SRC_SEL_PERFCOUNTER) &&
               emu_perf_read(dev, q, (uint32_t)src, &pv)) {
        v = pv; /* perf counter / thread trace registers (perf.c), 32 bits */
    } else if (src_sel == RDX_PM4_V_CD_SRC_SEL_REGISTER ||
               src_sel == RDX_PM4_V_CD_SRC_SEL_PERFCOUNTER) {
        uint32_t *r = shadow(q, (uint32_t)src), *r2 = shadow(q, (uint32_t)src + 1);
        if (!r || (n == 8 && !r2))
            return fail(dev, q, p, "source register outside the SH/UCONFIG windows");
        v = *r | (n == 8 ? (uint64_t)*r2 << 32 : 0);
    } else if (src_sel == RDX_PM4_V_CD_SRC_SEL_MEMORY_SYNC ||
               src_sel == RDX_PM4_V_CD_SRC_SEL_TC_L2) {
        if (gpu_read(dev, q, src, &v, n))
            return -1;
    } else {
        return fail(dev, q, p, "unsupported SRC_SEL");
    }
    if (dst_sel == RDX_PM4_V_CD_DST_SEL_REGISTER) {
        uint32_t *r = shadow(q, (uint32_t)dst), *r2 = shadow(q, (uint32_t)dst + 1);
        if (!r || (n == 8 && !r2))
            return fail(dev, q, p, "destination register outside the SH/UCONFIG windows");
        *r = (uint32_t)v;
        if (n == 8)
            *r2 = (uint32_t)(v >> 32);
        return 1;
    }
    if (!is_mem_sel(dst_sel) && dst_sel != RDX_PM4_V_CD_DST_SEL_TC_L2)
        return fail(dev, q, p, "unsupported DST_SEL");
    if (dst & 3)
        return fail(dev, q, p, "misaligned destination");
    return gpu_write(dev, q, dst, &v, n) ? -1 : 1;
}

static int run_stream(rdx_emudev *dev, emu_queue *q, const uint32_t *dw, size_t ndw, size_t *pos,
                      int depth);

static int indirect_buffer(rdx_emudev *dev, emu_queue *q, const rdx_pm4_packet *p, int depth)
{
    if (depth >= MAX_IB_DEPTH)
        return fail(dev, q, p, "indirect buffers nested too deep");
    uint64_t va = emu_addr64(get(p, RDX_PM4_F_INDIRECT_BUFFER_IB_BASE_LO),
                             get(p, RDX_PM4_F_INDIRECT_BUFFER_IB_BASE_HI));
    uint32_t n = get(p, RDX_PM4_F_INDIRECT_BUFFER_IB_SIZE);
    if (va & 3)
        return fail(dev, q, p, "misaligned IB_BASE");
    if (n == 0)
        return 1;
    const uint32_t *ib = emu_cp_access(dev, q, va, (uint64_t)n * 4, 0);
    if (!ib)
        return -1;
    int r = run_stream(dev, q, ib, n, &q->ib_pos[depth], depth + 1);
    if (r == 1)
        q->ib_pos[depth] = 0;
    return r;
}

/* One packet: 1 done, 0 blocked (retry later), -1 failed. */
static int exec(rdx_emudev *dev, emu_queue *q, const rdx_pm4_packet *p, int depth)
{
    switch (p->opcode) {
    case RDX_PM4_OP_NOP:
    case RDX_PM4_OP_ACQUIRE_MEM:
        return 1;
    case RDX_PM4_OP_EVENT_WRITE: /* thread trace events go to perf.c; the rest are no-ops */
        emu_perf_event(dev, q, get(p, RDX_PM4_F_EVENT_WRITE_EVENT_TYPE));
        return 1;
    case RDX_PM4_OP_SET_SH_REG:
    case RDX_PM4_OP_SET_SH_REG_INDEX:
    case RDX_PM4_OP_SET_UCONFIG_REG: {
        uint32_t base = p->opcode == RDX_PM4_OP_SET_UCONFIG_REG ? RDX_PM4_UCONFIG_REG_START
                                                                : RDX_PM4_SH_REG_START;
        uint32_t off = p->dw[1] & 0xffff; /* REG_OFFSET */
        for (uint32_t i = 0; i + 2 < p->ndw; i++) {
            if (emu_perf_write(dev, q, base + off + i, p->dw[2 + i]))
                continue; /* perf counter / thread trace registers (perf.c) */
            uint32_t *r = shadow(q, base + off + i);
            if (!r)
                return fail(dev, q, p, "register outside its window");
            *r = p->dw[2 + i];
        }
        return 1;
    }
    case RDX_PM4_OP_RELEASE_MEM:
        return release_mem(dev, q, p);
    case RDX_PM4_OP_WAIT_REG_MEM:
        return wait_reg_mem(dev, q, p, 0);
    case RDX_PM4_OP_WAIT_REG_MEM64:
        return wait_reg_mem(dev, q, p, 1);
    case RDX_PM4_OP_WRITE_DATA:
        return write_data(dev, q, p);
    case RDX_PM4_OP_COPY_DATA:
        return copy_data(dev, q, p);
    case RDX_PM4_OP_INDIRECT_BUFFER:
        return indirect_buffer(dev, q, p, depth);
    case RDX_PM4_OP_DISPATCH_DIRECT:
        return emu_dispatch(dev, q, get(p, RDX_PM4_F_DISPATCH_DIRECT_DIM_X),
                            get(p, RDX_PM4_F_DISPATCH_DIRECT_DIM_Y),
                            get(p, RDX_PM4_F_DISPATCH_DIRECT_DIM_Z),
                            get(p, RDX_PM4_F_DISPATCH_DIRECT_INITIATOR));
    case RDX_PM4_OP_DISPATCH_INDIRECT: {
        uint32_t dim[3];
        uint64_t va = emu_addr64(get(p, RDX_PM4_F_DISPATCH_INDIRECT_ADDR_LO),
                                 get(p, RDX_PM4_F_DISPATCH_INDIRECT_ADDR_HI));
        if (va & 3)
            return fail(dev, q, p, "misaligned dimensions address");
        if (gpu_read(dev, q, va, dim, sizeof dim))
            return -1;
        return emu_dispatch(dev, q, dim[0], dim[1], dim[2],
                            get(p, RDX_PM4_F_DISPATCH_INDIRECT_INITIATOR));
    }
    default:
        return fail(dev, q, p, "not supported by the emulated command processor");
    }
}

/* Run packets of dw[*pos..ndw): 1 all done, 0 blocked at *pos, -1 failed. */
static int run_stream(rdx_emudev *dev, emu_queue *q, const uint32_t *dw, size_t ndw, size_t *pos,
                      int depth)
{
    rdx_pm4_iter it;
    rdx_pm4_iter_init(&it, dw, ndw, false);
    it.pos = *pos;
    while (!rdx_pm4_iter_done(&it)) {
        rdx_pm4_packet p;
        if (rdx_pm4_iter_next(&it, &p) != RDX_OK) {
            emu_queue_fail(dev, q, "bad PM4 packet%s: %s", depth ? " in an indirect buffer" : "",
                           rdx_error_message());
            return -1;
        }
        int r = exec(dev, q, &p, depth);
        if (r <= 0) {
            *pos = p.offset;
            return r;
        }
        dev->stats.packets++;
        *pos = it.pos;
    }
    return 1;
}

int emu_pm4_run(rdx_emudev *dev, emu_queue *q, uint64_t wptr)
{
    uint64_t ring_dw = q->ring_size / 4;
    if (wptr < q->rptr || wptr - q->rptr > ring_dw) {
        emu_queue_fail(dev, q, "doorbell write pointer %llu outside [%llu, %llu]",
                       (unsigned long long)wptr, (unsigned long long)q->rptr,
                       (unsigned long long)(q->rptr + ring_dw));
        return -1;
    }
    size_t n = (size_t)(wptr - q->rptr);
    const uint32_t *lin = emu_ring_pending(dev, q, (size_t)(q->rptr % ring_dw), n);
    if (!lin)
        return -1;
    size_t pos = 0;
    int r = run_stream(dev, q, lin, n, &pos, 0);
    emu_ring_advance(dev, q, pos);
    return r;
}
