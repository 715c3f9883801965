/* pm4/packets.c — PM4 type-3 packet builders for gfx11 compute queues. */
#include <string.h>

#include <rdx/pm4.h>

#include "pm4/internal.h"
#include "util/error.h"

#define HDR(op, body, compute) RDX_PM4_HEADER(RDX_PM4_OP_##op, (body) - 1, compute)

static rdx_status bad(rdx_pm4_cmdbuf *cb, const char *fmt, const char *what, uint64_t v)
{
    if (cb->status)
        return cb->status;
    return pm4_error(cb, rdx_fail(RDX_ERR_INVALID, fmt, what, (unsigned long long)v));
}

static rdx_status check_align(rdx_pm4_cmdbuf *cb, const char *fn, uint64_t addr, unsigned align)
{
    if (cb->status)
        return cb->status;
    if (addr & (align - 1))
        return pm4_error(cb, rdx_fail(RDX_ERR_INVALID, "%s: address 0x%llx is not %u-byte aligned",
                                      fn, (unsigned long long)addr, align));
    return RDX_OK;
}

rdx_status rdx_pm4_nop(rdx_pm4_cmdbuf *cb, uint32_t ndw)
{
    if (ndw < 1 || ndw > 0x4001)
        return bad(cb, "%s: %llu dwords, expected 1..16385", "rdx_pm4_nop", ndw);
    uint32_t *p = pm4_reserve(cb, ndw);
    if (!p)
        return cb->status;
    if (ndw == 1) {
        p[0] = RDX_PM4_HEADER(RDX_PM4_OP_NOP, 0x3fff, false);
    } else {
        p[0] = HDR(NOP, ndw - 1, false);
        memset(p + 1, 0, (ndw - 1) * sizeof *p);
    }
    cb->len += ndw;
    return RDX_OK;
}

static rdx_status set_regs(rdx_pm4_cmdbuf *cb, rdx_pm4_opcode op, uint32_t start, uint32_t end,
                           uint32_t reg, const uint32_t *vals, uint32_t n, bool compute)
{
    if (cb->status)
        return cb->status;
    const rdx_pm4_op_info *oi = rdx_pm4_op_info_get(op);
    if (n < 1 || n > 0x3fff)
        return pm4_error(
            cb, rdx_fail(RDX_ERR_INVALID, "%s: %u registers, expected 1..16383", oi->name, n));
    if (!vals)
        return pm4_error(cb, rdx_fail(RDX_ERR_INVALID,
                                      "%s: vals is NULL for %u registers, expected %u values",
                                      oi->name, n, n));
    if (reg < start || reg >= end || n > end - reg)
        return pm4_error(cb, rdx_fail(RDX_ERR_INVALID,
                                      "%s: registers 0x%x..0x%llx lie outside [0x%x, 0x%x)",
                                      oi->name, reg, (unsigned long long)reg + n - 1, start, end));
    uint32_t *p = pm4_reserve(cb, 2 + n);
    if (!p)
        return cb->status;
    p[0] = RDX_PM4_HEADER(op, n, compute);
    p[1] = reg - start;
    memcpy(p + 2, vals, n * sizeof *vals);
    cb->len += 2 + n;
    return RDX_OK;
}

rdx_status rdx_pm4_set_sh_reg(rdx_pm4_cmdbuf *cb, uint32_t reg, const uint32_t *vals, uint32_t n)
{
    return set_regs(cb, RDX_PM4_OP_SET_SH_REG, RDX_PM4_SH_REG_START, RDX_PM4_SH_REG_END, reg, vals,
                    n, true);
}

rdx_status rdx_pm4_set_uconfig_reg(rdx_pm4_cmdbuf *cb, uint32_t reg, const uint32_t *vals,
                                   uint32_t n)
{
    return set_regs(cb, RDX_PM4_OP_SET_UCONFIG_REG, RDX_PM4_UCONFIG_REG_START,
                    RDX_PM4_UCONFIG_REG_END, reg, vals, n, false);
}

rdx_status rdx_pm4_acquire_mem(rdx_pm4_cmdbuf *cb, uint32_t gcr_cntl)
{
    if (gcr_cntl >> 18)
        return bad(cb, "%s: GCR_CNTL 0x%llx has bits above bit 17", "rdx_pm4_acquire_mem",
                   gcr_cntl);
    uint32_t *p = pm4_reserve(cb, 8);
    if (!p)
        return cb->status;
    p[0] = HDR(ACQUIRE_MEM, 7, false);
    p[1] = 0;                                         /* COHER_CNTL */
    p[2] = RDX_PM4_PUT(ACQUIRE_MEM, COHER_SIZE, ~0u); /* whole range */
    p[3] = RDX_PM4_PUT(ACQUIRE_MEM, COHER_SIZE_HI, ~0u);
    p[4] = 0; /* COHER_BASE_LO */
    p[5] = 0; /* COHER_BASE_HI */
    p[6] = RDX_PM4_PUT(ACQUIRE_MEM, POLL_INTERVAL, 10);
    p[7] = gcr_cntl;
    cb->len += 8;
    return RDX_OK;
}

rdx_status rdx_pm4_release_mem(rdx_pm4_cmdbuf *cb, const rdx_pm4_release *r)
{
    static const char fn[] = "rdx_pm4_release_mem";
    if (r->event_type >> 6)
        return bad(cb, "%s: event type 0x%llx does not fit 6 bits", fn, r->event_type);
    if (r->event_index >> 4 || r->cache_policy >> 2 || r->dst_sel >> 2 || r->int_sel >> 3 ||
        r->data_sel >> 3)
        return bad(cb, "%s: a selector is out of range (index/policy/dst/int/data 0x%llx)", fn,
                   ((uint64_t)r->event_index << 32) | r->data_sel);
    uint32_t gcr_mask =
        RDX_PM4_PUT(RELEASE_MEM, GCR_GLM_WB, ~0u) | RDX_PM4_PUT(RELEASE_MEM, GCR_GLM_INV, ~0u) |
        RDX_PM4_PUT(RELEASE_MEM, GCR_GLV_INV, ~0u) | RDX_PM4_PUT(RELEASE_MEM, GCR_GL1_INV, ~0u) |
        RDX_PM4_PUT(RELEASE_MEM, GCR_GL2_US, ~0u) | RDX_PM4_PUT(RELEASE_MEM, GCR_GL2_RANGE, ~0u) |
        RDX_PM4_PUT(RELEASE_MEM, GCR_GL2_DISCARD, ~0u) |
        RDX_PM4_PUT(RELEASE_MEM, GCR_GL2_INV, ~0u) | RDX_PM4_PUT(RELEASE_MEM, GCR_GL2_WB, ~0u) |
        RDX_PM4_PUT(RELEASE_MEM, GCR_SEQ, ~0u);
    if (r->gcr & ~gcr_mask)
        return bad(cb, "%s: GCR bits 0x%llx outside the RELEASE_MEM GCR fields", fn,
                   r->gcr & ~gcr_mask);
    if (r->data_sel != RDX_PM4_V_DATA_SEL_NONE &&
        check_align(cb, fn, r->addr, r->data_sel == RDX_PM4_V_DATA_SEL_DATA32 ? 4 : 8))
        return cb->status;
    uint32_t *p = pm4_reserve(cb, 8);
    if (!p)
        return cb->status;
    p[0] = HDR(RELEASE_MEM, 7, false);
    p[1] = RDX_PM4_PUT(RELEASE_MEM, EVENT_TYPE, r->event_type) |
           RDX_PM4_PUT(RELEASE_MEM, EVENT_INDEX, r->event_index) | r->gcr |
           RDX_PM4_PUT(RELEASE_MEM, CACHE_POLICY, r->cache_policy);
    p[2] = RDX_PM4_PUT(RELEASE_MEM, DST_SEL, r->dst_sel) |
           RDX_PM4_PUT(RELEASE_MEM, INT_SEL, r->int_sel) |
           RDX_PM4_PUT(RELEASE_MEM, DATA_SEL, r->data_sel);
    p[3] = lo32(r->addr);
    p[4] = hi32(r->addr);
    p[5] = lo32(r->data);
    p[6] = hi32(r->data);
    p[7] = r->int_ctxid;
    cb->len += 8;
    return RDX_OK;
}

rdx_status rdx_pm4_signal(rdx_pm4_cmdbuf *cb, uint64_t addr, uint64_t value, bool interrupt,
                          uint32_t int_ctxid)
{
    rdx_pm4_release r = {
        .event_type = RDX_PM4_V_EVENT_CACHE_FLUSH_AND_INV_TS_EVENT,
        .event_index = 5,
        .gcr = RDX_PM4_REL_GCR_SIGNAL,
        .cache_policy = RDX_PM4_V_CACHE_POLICY_BYPASS,
        .dst_sel = RDX_PM4_V_REL_DST_SEL_MC,
        .int_sel = interrupt ? RDX_PM4_V_INT_SEL_INT_AFTER_WRITE_CONFIRM : RDX_PM4_V_INT_SEL_NONE,
        .data_sel = RDX_PM4_V_DATA_SEL_DATA64,
        .addr = addr,
        .data = value,
        .int_ctxid = int_ctxid,
    };
    return rdx_pm4_release_mem(cb, &r);
}

rdx_status rdx_pm4_timestamp_eop(rdx_pm4_cmdbuf *cb, uint64_t addr)
{
    rdx_pm4_release r = {
        .event_type = RDX_PM4_V_EVENT_BOTTOM_OF_PIPE_TS,
        .event_index = 5,
        .cache_policy = RDX_PM4_V_CACHE_POLICY_BYPASS,
        .data_sel = RDX_PM4_V_DATA_SEL_GPU_CLOCK64,
        .addr = addr,
    };
    return rdx_pm4_release_mem(cb, &r);
}

rdx_status rdx_pm4_copy_data(rdx_pm4_cmdbuf *cb, const rdx_pm4_copy *c)
{
    if (c->src_sel >> 4 || c->dst_sel >> 4)
        return bad(cb, "%s: selector 0x%llx does not fit 4 bits", "rdx_pm4_copy_data",
                   c->src_sel >> 4 ? c->src_sel : c->dst_sel);
    uint32_t *p = pm4_reserve(cb, 6);
    if (!p)
        return cb->status;
    p[0] = HDR(COPY_DATA, 5, false);
    p[1] = RDX_PM4_PUT(COPY_DATA, SRC_SEL, c->src_sel) |
           RDX_PM4_PUT(COPY_DATA, DST_SEL, c->dst_sel) |
           RDX_PM4_PUT(COPY_DATA, COUNT_SEL, c->count64) |
           RDX_PM4_PUT(COPY_DATA, WR_CONFIRM, c->wr_confirm);
    p[2] = lo32(c->src);
    p[3] = hi32(c->src);
    p[4] = lo32(c->dst);
    p[5] = hi32(c->dst);
    cb->len += 6;
    return RDX_OK;
}

rdx_status rdx_pm4_timestamp_top(rdx_pm4_cmdbuf *cb, uint64_t addr)
{
    if (check_align(cb, "rdx_pm4_timestamp_top", addr, 8))
        return cb->status;
    rdx_pm4_copy c = {
        .src_sel = RDX_PM4_V_CD_SRC_SEL_GPU_CLOCK,
        .dst_sel = RDX_PM4_V_CD_DST_SEL_MEMORY,
        .count64 = true,
        .wr_confirm = true,
        .dst = addr,
    };
    return rdx_pm4_copy_data(cb, &c);
}

rdx_status rdx_pm4_event_write(rdx_pm4_cmdbuf *cb, uint32_t event_type, uint32_t event_index)
{
    if (event_type >> 6 || event_index >> 4)
        return bad(cb, "%s: event 0x%llx / index out of range", "rdx_pm4_event_write", event_type);
    uint32_t *p = pm4_reserve(cb, 2);
    if (!p)
        return cb->status;
    p[0] = HDR(EVENT_WRITE, 1, false);
    p[1] = RDX_PM4_PUT(EVENT_WRITE, EVENT_TYPE, event_type) |
           RDX_PM4_PUT(EVENT_WRITE, EVENT_INDEX, event_index);
    cb->len += 2;
    return RDX_OK;
}

rdx_status rdx_pm4_cs_partial_flush(rdx_pm4_cmdbuf *cb)
{
    return rdx_pm4_event_write(cb, RDX_PM4_V_EVENT_CS_PARTIAL_FLUSH, 4);
}

static rdx_status check_wait(rdx_pm4_cmdbuf *cb, const char *fn, uint32_t func, uint32_t poll)
{
    if (func > RDX_PM4_V_WAIT_FUNC_GT)
        return bad(cb, "%s: compare function %llu, expected 0..6", fn, func);
    if (poll >> 16)
        return bad(cb, "%s: poll interval %llu does not fit 16 bits", fn, poll);
    return RDX_OK;
}

rdx_status rdx_pm4_wait_mem32(rdx_pm4_cmdbuf *cb, uint64_t addr, uint32_t ref, uint32_t mask,
                              uint32_t func, uint32_t poll_interval)
{
    static const char fn[] = "rdx_pm4_wait_mem32";
    if (check_wait(cb, fn, func, poll_interval) || check_align(cb, fn, addr, 4))
        return cb->status;
    uint32_t *p = pm4_reserve(cb, 7);
    if (!p)
        return cb->status;
    p[0] = HDR(WAIT_REG_MEM, 6, false);
    p[1] = RDX_PM4_PUT(WAIT_REG_MEM, FUNCTION, func) |
           RDX_PM4_PUT(WAIT_REG_MEM, MEM_SPACE, RDX_PM4_V_MEM_SPACE_MEMORY) |
           RDX_PM4_PUT(WAIT_REG_MEM, OPERATION, RDX_PM4_V_WAIT_OP_WAIT_REG_MEM) |
           RDX_PM4_PUT(WAIT_REG_MEM, ENGINE_SEL, RDX_PM4_V_ENGINE_ME);
    p[2] = lo32(addr);
    p[3] = hi32(addr);
    p[4] = ref;
    p[5] = mask;
    p[6] = poll_interval;
    cb->len += 7;
    return RDX_OK;
}

rdx_status rdx_pm4_wait_mem64(rdx_pm4_cmdbuf *cb, uint64_t addr, uint64_t ref, uint64_t mask,
                              uint32_t func, uint32_t poll_interval)
{
    static const char fn[] = "rdx_pm4_wait_mem64";
    if (check_wait(cb, fn, func, poll_interval) || check_align(cb, fn, addr, 8))
        return cb->status;
    uint32_t *p = pm4_reserve(cb, 9);
    if (!p)
        return cb->status;
    p[0] = HDR(WAIT_REG_MEM64, 8, false);
    p[1] = RDX_PM4_PUT(WAIT_REG_MEM64, FUNCTION, func) |
           RDX_PM4_PUT(WAIT_REG_MEM64, MEM_SPACE, RDX_PM4_V_MEM_SPACE_MEMORY) |
           RDX_PM4_PUT(WAIT_REG_MEM64, OPERATION, RDX_PM4_V_WAIT_OP_WAIT_REG_MEM) |
           RDX_PM4_PUT(WAIT_REG_MEM64, ENGINE_SEL, RDX_PM4_V_ENGINE_ME);
    p[2] = lo32(addr);
    p[3] = hi32(addr);
    p[4] = lo32(ref);
    p[5] = hi32(ref);
    p[6] = lo32(mask);
    p[7] = hi32(mask);
    p[8] = poll_interval;
    cb->len += 9;
    return RDX_OK;
}

rdx_status rdx_pm4_write_data(rdx_pm4_cmdbuf *cb, uint64_t addr, const uint32_t *data, uint32_t n,
                              bool wr_confirm)
{
    static const char fn[] = "rdx_pm4_write_data";
    if (n < 1 || n > 0x4000 - 3)
        return bad(cb, "%s: %llu data dwords, expected 1..16381", fn, n);
    if (!data)
        return bad(cb, "%s: data is NULL for %llu dwords, expected a pointer to them", fn, n);
    if (check_align(cb, fn, addr, 4))
        return cb->status;
    uint32_t *p = pm4_reserve(cb, 4 + (size_t)n);
    if (!p)
        return cb->status;
    p[0] = HDR(WRITE_DATA, 3 + n, false);
    p[1] = RDX_PM4_PUT(WRITE_DATA, DST_SEL, RDX_PM4_V_WD_DST_SEL_MEMORY) |
           RDX_PM4_PUT(WRITE_DATA, WR_CONFIRM, wr_confirm);
    p[2] = lo32(addr);
    p[3] = hi32(addr);
    memcpy(p + 4, data, n * sizeof *data);
    cb->len += 4 + (size_t)n;
    return RDX_OK;
}

rdx_status rdx_pm4_indirect_buffer(rdx_pm4_cmdbuf *cb, uint64_t addr, uint32_t ndw, uint32_t vmid)
{
    static const char fn[] = "rdx_pm4_indirect_buffer";
    if (ndw < 1 || ndw > 0xfffff)
        return bad(cb, "%s: %llu dwords, expected 1..1048575", fn, ndw);
    if (vmid > 15)
        return bad(cb, "%s: vmid %llu, expected 0..15", fn, vmid);
    if (check_align(cb, fn, addr, 4))
        return cb->status;
    uint32_t *p = pm4_reserve(cb, 4);
    if (!p)
        return cb->status;
    p[0] = HDR(INDIRECT_BUFFER, 3, false);
    p[1] = lo32(addr);
    p[2] = hi32(addr);
    p[3] = RDX_PM4_PUT(INDIRECT_BUFFER, IB_SIZE, ndw) | RDX_PM4_PUT(INDIRECT_BUFFER, VALID, 1) |
           RDX_PM4_PUT(INDIRECT_BUFFER, VMID, vmid);
    cb->len += 4;
    return RDX_OK;
}

rdx_status rdx_pm4_dispatch_direct(rdx_pm4_cmdbuf *cb, uint32_t x, uint32_t y, uint32_t z,
                                   uint32_t initiator)
{
    if (!x || !y || !z)
        return bad(cb, "%s: grid has a zero dimension (%llu = x*y*z)", "rdx_pm4_dispatch_direct",
                   (uint64_t)x * y * z);
    uint32_t *p = pm4_reserve(cb, 5);
    if (!p)
        return cb->status;
    p[0] = HDR(DISPATCH_DIRECT, 4, true);
    p[1] = x;
    p[2] = y;
    p[3] = z;
    p[4] = initiator;
    cb->len += 5;
    return RDX_OK;
}

rdx_status rdx_pm4_dispatch_indirect(rdx_pm4_cmdbuf *cb, uint64_t addr, uint32_t initiator)
{
    if (check_align(cb, "rdx_pm4_dispatch_indirect", addr, 4))
        return cb->status;
    uint32_t *p = pm4_reserve(cb, 4);
    if (!p)
        return cb->status;
    p[0] = HDR(DISPATCH_INDIRECT, 3, true);
    p[1] = lo32(addr);
    p[2] = hi32(addr);
    p[3] = initiator;
    cb->len += 4;
    return RDX_OK;
}
