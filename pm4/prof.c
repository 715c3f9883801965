/*
 * pm4/prof.c — the PM4 sequences of rdx/pm4_prof.h: performance counters and
 * the SQ thread trace programmed from a gfx11 compute queue.  Register
 * offsets and fields: rdx/pm4_defs.h (gc_11_0_0_offset.h, _sh_mask.h).  The
 * order of the steps follows amdgpu, Mesa's ac_sqtt (emit start / stop /
 * wait) and tinygrad's AMD runtime (pmc_start / pmc_read / sqtt_start /
 * sqtt_stop), all public; docs/prof.md "On the queue".
 */
#include <rdx/pm4.h>
#include <rdx/pm4_prof.h>

#include "pm4/internal.h"
#include "util/error.h"

#define REG(name)             RDX_PM4_REG_##name
#define RF(reg, field, value) RDX_PM4_REG_PUT(reg, field, value)

#define PERFMON_DISABLE_AND_RESET 0u
#define PERFMON_START             1u
#define PERFMON_STOP              2u
#define WTYPE_INCLUDE_CS          0x40u /* SQ_TT_WTYPE_INCLUDE_CS_BIT */
#define TT_REG_INCLUDE            0x1fu /* SQDEC | SHDEC | GFXUDEC | COMP | CONTEXT */
#define TT_RT_FREQ_4096           2u    /* SQ_TT_RT_FREQ_4096_CLK */
#define STATUS_FINISH_PENDING     0xfffu
#define STATUS_BUSY               (1u << 25)

static rdx_status invalid(rdx_pm4_cmdbuf *cb, rdx_status st)
{
    return pm4_error(cb, st);
}

static rdx_status uconfig(rdx_pm4_cmdbuf *cb, uint32_t reg, uint32_t v)
{
    return rdx_pm4_set_uconfig_reg(cb, reg, &v, 1);
}

static rdx_status sh(rdx_pm4_cmdbuf *cb, uint32_t reg, uint32_t v)
{
    return rdx_pm4_set_sh_reg(cb, reg, &v, 1);
}

rdx_status rdx_pm4_grbm_select(rdx_pm4_cmdbuf *cb, int se, int sa, int instance)
{
    if (cb->status)
        return cb->status;
    if (se > 0xff || sa > 0xff || instance > 0xff || se < -1 || sa < -1 || instance < -1)
        return invalid(cb, rdx_fail(RDX_ERR_INVALID,
                                    "rdx_pm4_grbm_select: se %d, sa %d, instance %d: expected "
                                    "-1 (all) or 0..255 each",
                                    se, sa, instance));
    uint32_t v = se < 0 ? 1u << 31 : (uint32_t)se << 16;
    v |= sa < 0 ? 1u << 29 : (uint32_t)sa << 8;
    v |= instance < 0 ? 1u << 30 : (uint32_t)instance;
    return uconfig(cb, REG(GRBM_GFX_INDEX), v);
}

rdx_status rdx_pm4_wait_reg32(rdx_pm4_cmdbuf *cb, uint32_t reg, uint32_t ref, uint32_t mask,
                              uint32_t func, uint32_t poll_interval)
{
    if (cb->status)
        return cb->status;
    if (func > RDX_PM4_V_WAIT_FUNC_GT || poll_interval >> 16)
        return invalid(cb, rdx_fail(RDX_ERR_INVALID,
                                    "rdx_pm4_wait_reg32: compare function %u (expected 0..6) or "
                                    "poll interval %u (expected < 65536)",
                                    func, poll_interval));
    uint32_t *p = pm4_reserve(cb, 7);
    if (!p)
        return cb->status;
    p[0] = RDX_PM4_HEADER(RDX_PM4_OP_WAIT_REG_MEM, 5, false);
    p[1] = RDX_PM4_PUT(WAIT_REG_MEM, FUNCTION, func) |
           RDX_PM4_PUT(WAIT_REG_MEM, MEM_SPACE, RDX_PM4_V_MEM_SPACE_REGISTER) |
           RDX_PM4_PUT(WAIT_REG_MEM, OPERATION, RDX_PM4_V_WAIT_OP_WAIT_REG_MEM) |
           RDX_PM4_PUT(WAIT_REG_MEM, ENGINE_SEL, RDX_PM4_V_ENGINE_ME);
    p[2] = reg;
    p[3] = 0;
    p[4] = ref;
    p[5] = mask;
    p[6] = poll_interval;
    cb->len += 7;
    return RDX_OK;
}

rdx_status rdx_pm4_copy_reg_to_mem(rdx_pm4_cmdbuf *cb, uint32_t reg, uint64_t addr)
{
    if (cb->status)
        return cb->status;
    if (addr & 3)
        return invalid(cb, rdx_fail(RDX_ERR_INVALID,
                                    "rdx_pm4_copy_reg_to_mem: address 0x%llx is not 4-byte "
                                    "aligned",
                                    (unsigned long long)addr));
    rdx_pm4_copy c = { .src_sel = RDX_PM4_V_CD_SRC_SEL_PERFCOUNTER,
                       .dst_sel = RDX_PM4_V_CD_DST_SEL_TC_L2,
                       .wr_confirm = true,
                       .src = reg,
                       .dst = addr };
    return rdx_pm4_copy_data(cb, &c);
}

static rdx_status check_perf(rdx_pm4_cmdbuf *cb, const char *fn, const rdx_pm4_perf_desc *d)
{
    if (cb->status)
        return cb->status;
    if (!d || d->nsq > RDX_PM4_PERF_SQ_MAX || d->ngrbm > RDX_PM4_PERF_GRBM_MAX ||
        d->nsq + d->ngrbm == 0)
        return invalid(cb, rdx_fail(RDX_ERR_INVALID,
                                    "%s: %u SQ and %u GRBM counters, expected 0..%u SQ and 0..%u "
                                    "GRBM, at least one",
                                    fn, d ? d->nsq : 0, d ? d->ngrbm : 0, RDX_PM4_PERF_SQ_MAX,
                                    RDX_PM4_PERF_GRBM_MAX));
    for (uint32_t i = 0; i < d->nsq; i++)
        if (d->sq_sel[i] >> 9)
            return invalid(cb, rdx_fail(RDX_ERR_INVALID,
                                        "%s: SQ counter %u selects event %u, beyond PERF_SEL's 9 "
                                        "bits",
                                        fn, i, d->sq_sel[i]));
    for (uint32_t i = 0; i < d->ngrbm; i++)
        if (d->grbm_sel[i] >> 6)
            return invalid(cb, rdx_fail(RDX_ERR_INVALID,
                                        "%s: GRBM counter %u selects event %u, beyond PERF_SEL's "
                                        "6 bits",
                                        fn, i, d->grbm_sel[i]));
    return RDX_OK;
}

rdx_status rdx_pm4_perf_start(rdx_pm4_cmdbuf *cb, const rdx_pm4_perf_desc *d)
{
    if (check_perf(cb, "rdx_pm4_perf_start", d))
        return cb->status;
    rdx_pm4_grbm_select(cb, -1, -1, -1);
    uconfig(cb, REG(CP_PERFMON_CNTL),
            RF(CP_PERFMON_CNTL, PERFMON_STATE, PERFMON_DISABLE_AND_RESET));
    uconfig(cb, REG(SQ_PERFCOUNTER_CTRL), RF(SQ_PERFCOUNTER_CTRL, CS_EN, 1));
    uconfig(cb, REG(SQ_PERFCOUNTER_CTRL2),
            RF(SQ_PERFCOUNTER_CTRL2, FORCE_EN, 1) | RF(SQ_PERFCOUNTER_CTRL2, VMID_EN, 0xffff));
    for (uint32_t i = 0; i < d->nsq; i++)
        uconfig(cb, REG(SQ_PERFCOUNTER0_SELECT) + 2 * i,
                RF(SQ_PERFCOUNTER0_SELECT, PERF_SEL, d->sq_sel[i]));
    for (uint32_t i = 0; i < d->ngrbm; i++)
        uconfig(cb, REG(GRBM_PERFCOUNTER0_SELECT) + i,
                RF(GRBM_PERFCOUNTER0_SELECT, PERF_SEL, d->grbm_sel[i]));
    sh(cb, REG(COMPUTE_PERFCOUNT_ENABLE), RF(COMPUTE_PERFCOUNT_ENABLE, PERFCOUNT_ENABLE, 1));
    return uconfig(cb, REG(CP_PERFMON_CNTL), RF(CP_PERFMON_CNTL, PERFMON_STATE, PERFMON_START));
}

static int bad_shape(const rdx_pm4_gpu_shape *s)
{
    return !s || s->se < 1 || s->se > RDX_PM4_MAX_SE || s->sa_per_se < 1 || s->sa_per_se > 2 ||
           s->wgp_per_sa < 1 || s->wgp_per_sa > 63;
}

uint64_t rdx_pm4_perf_read_bytes(const rdx_pm4_perf_desc *d, const rdx_pm4_gpu_shape *s)
{
    if (!d || bad_shape(s))
        return 0;
    uint64_t inst = (uint64_t)s->se * s->sa_per_se * s->wgp_per_sa;
    return 8 * (d->nsq * inst + d->ngrbm);
}

rdx_status rdx_pm4_perf_read(rdx_pm4_cmdbuf *cb, const rdx_pm4_perf_desc *d,
                             const rdx_pm4_gpu_shape *s, uint64_t dst)
{
    static const char fn[] = "rdx_pm4_perf_read";
    if (check_perf(cb, fn, d))
        return cb->status;
    if (bad_shape(s) || (dst & 7))
        return invalid(cb, rdx_fail(RDX_ERR_INVALID,
                                    "%s: shape %ux%ux%u (expected 1..%u SEs, 1..2 SAs, 1..63 "
                                    "WGPs) or destination 0x%llx (8-aligned)",
                                    fn, s ? s->se : 0, s ? s->sa_per_se : 0, s ? s->wgp_per_sa : 0,
                                    RDX_PM4_MAX_SE, (unsigned long long)dst));
    rdx_pm4_grbm_select(cb, -1, -1, -1);
    uconfig(cb, REG(CP_PERFMON_CNTL),
            RF(CP_PERFMON_CNTL, PERFMON_STATE, PERFMON_START) |
                RF(CP_PERFMON_CNTL, PERFMON_SAMPLE_ENABLE, 1));
    uint64_t at = dst;
    for (uint32_t n = 0; n < d->nsq; n++)
        for (uint32_t se = 0; se < s->se; se++)
            for (uint32_t sa = 0; sa < s->sa_per_se; sa++)
                for (uint32_t w = 0; w < s->wgp_per_sa; w++, at += 8) {
                    rdx_pm4_grbm_select(cb, (int)se, (int)sa, (int)(w << 2));
                    rdx_pm4_copy_reg_to_mem(cb, REG(SQ_PERFCOUNTER0_LO) + 2 * n, at);
                }
    rdx_pm4_grbm_select(cb, -1, -1, -1);
    for (uint32_t n = 0; n < d->ngrbm; n++, at += 8) {
        rdx_pm4_copy_reg_to_mem(cb, REG(GRBM_PERFCOUNTER0_LO) + 3 * n, at);
        rdx_pm4_copy_reg_to_mem(cb, REG(GRBM_PERFCOUNTER0_HI) + 3 * n, at + 4);
    }
    return cb->status;
}

rdx_status rdx_pm4_perf_stop(rdx_pm4_cmdbuf *cb)
{
    rdx_pm4_grbm_select(cb, -1, -1, -1);
    uconfig(cb, REG(CP_PERFMON_CNTL), RF(CP_PERFMON_CNTL, PERFMON_STATE, PERFMON_STOP));
    return sh(cb, REG(COMPUTE_PERFCOUNT_ENABLE), 0);
}

static uint32_t spi_config(int tracing)
{
    /* the values amdgpu leaves in SPI_CONFIG_CNTL, plus the SQG events while tracing */
    return RF(SPI_CONFIG_CNTL, GPR_WRITE_PRIORITY, 0x2c688) |
           RF(SPI_CONFIG_CNTL, EXP_PRIORITY_ORDER, 3) |
           RF(SPI_CONFIG_CNTL, ENABLE_SQG_TOP_EVENTS, (uint32_t)tracing) |
           RF(SPI_CONFIG_CNTL, ENABLE_SQG_BOP_EVENTS, (uint32_t)tracing) |
           RF(SPI_CONFIG_CNTL, PS_PKR_PRIORITY_CNTL, 3);
}

static uint32_t tt_ctrl(int mode)
{
    return RF(SQ_THREAD_TRACE_CTRL, MODE, (uint32_t)mode) | RF(SQ_THREAD_TRACE_CTRL, HIWATER, 1) |
           RF(SQ_THREAD_TRACE_CTRL, REG_AT_HWM, 2) | RF(SQ_THREAD_TRACE_CTRL, SPI_STALL_EN, 1) |
           RF(SQ_THREAD_TRACE_CTRL, SQ_STALL_EN, 1) | RF(SQ_THREAD_TRACE_CTRL, UTIL_TIMER, 1) |
           RF(SQ_THREAD_TRACE_CTRL, RT_FREQ, TT_RT_FREQ_4096) |
           RF(SQ_THREAD_TRACE_CTRL, DRAW_EVENT_EN, 1);
}

rdx_status rdx_pm4_sqtt_start(rdx_pm4_cmdbuf *cb, const rdx_pm4_sqtt_desc *d)
{
    static const char fn[] = "rdx_pm4_sqtt_start";
    if (cb->status)
        return cb->status;
    if (!d || d->nse < 1 || d->nse > RDX_PM4_MAX_SE || d->simd > 3)
        return invalid(cb, rdx_fail(RDX_ERR_INVALID,
                                    "%s: %u shader engines (expected 1..%u), SIMD %u (expected "
                                    "0..3)",
                                    fn, d ? d->nse : 0, RDX_PM4_MAX_SE, d ? d->simd : 0));
    if (d->buf_size == 0 || (d->buf_size & 0xfff) || (d->buf_size >> 12) >> 22)
        return invalid(cb, rdx_fail(RDX_ERR_INVALID,
                                    "%s: buffer size %llu bytes: expected a multiple of 4096, "
                                    "4096 .. 16 GiB",
                                    fn, (unsigned long long)d->buf_size));
    for (uint32_t se = 0; se < d->nse; se++)
        if ((d->buf[se] & 0xfff) || (d->buf[se] >> 48))
            return invalid(cb, rdx_fail(RDX_ERR_INVALID,
                                        "%s: SE %u's buffer at 0x%llx: expected a 4 KiB aligned "
                                        "address below 2^48",
                                        fn, se, (unsigned long long)d->buf[se]));
    rdx_pm4_grbm_select(cb, -1, -1, -1);
    uconfig(cb, REG(SPI_CONFIG_CNTL), spi_config(1));
    for (uint32_t se = 0; se < d->nse; se++) {
        uint64_t page = d->buf[se] >> 12;
        rdx_pm4_grbm_select(cb, (int)se, 0, -1);
        if (d->gfx12) { /* gfx12 moved the buffer's registers */
            uconfig(cb, REG(SQ_THREAD_TRACE_BUF0_SIZE_GFX12),
                    RF(SQ_THREAD_TRACE_BUF0_SIZE_GFX12, SIZE, (uint32_t)(d->buf_size >> 12)));
            uconfig(cb, REG(SQ_THREAD_TRACE_BUF0_LO_GFX12), (uint32_t)page);
            /* BUF0_BASE_HI (bits 12:0) where gfx11 has BUF0_BASE */
            uconfig(cb, REG(SQ_THREAD_TRACE_BUF0_BASE), (uint32_t)(page >> 32) & 0x1fffu);
        } else {
            uconfig(cb, REG(SQ_THREAD_TRACE_BUF0_SIZE),
                    RF(SQ_THREAD_TRACE_BUF0_SIZE, BASE_HI, (uint32_t)(page >> 32)) |
                        RF(SQ_THREAD_TRACE_BUF0_SIZE, SIZE, (uint32_t)(d->buf_size >> 12)));
            uconfig(cb, REG(SQ_THREAD_TRACE_BUF0_BASE), (uint32_t)page);
        }
        uconfig(cb, REG(SQ_THREAD_TRACE_MASK),
                RF(SQ_THREAD_TRACE_MASK, WTYPE_INCLUDE, WTYPE_INCLUDE_CS) |
                    RF(SQ_THREAD_TRACE_MASK, SIMD_SEL, d->simd));
        uconfig(cb, REG(SQ_THREAD_TRACE_TOKEN_MASK),
                RF(SQ_THREAD_TRACE_TOKEN_MASK, REG_INCLUDE, TT_REG_INCLUDE) |
                    RF(SQ_THREAD_TRACE_TOKEN_MASK, BOP_EVENTS_TOKEN_INCLUDE, 1));
        uconfig(cb, REG(SQ_THREAD_TRACE_CTRL), tt_ctrl(1));
    }
    rdx_pm4_grbm_select(cb, -1, -1, -1);
    return sh(cb, REG(COMPUTE_THREAD_TRACE_ENABLE),
              RF(COMPUTE_THREAD_TRACE_ENABLE, THREAD_TRACE_ENABLE, 1));
}

rdx_status rdx_pm4_sqtt_stop(rdx_pm4_cmdbuf *cb, uint32_t nse, uint64_t status)
{
    if (cb->status)
        return cb->status;
    if (nse < 1 || nse > RDX_PM4_MAX_SE || (status & 3))
        return invalid(cb, rdx_fail(RDX_ERR_INVALID,
                                    "rdx_pm4_sqtt_stop: %u shader engines (expected 1..%u), "
                                    "status address 0x%llx (4-aligned)",
                                    nse, RDX_PM4_MAX_SE, (unsigned long long)status));
    rdx_pm4_cs_partial_flush(cb);
    rdx_pm4_grbm_select(cb, -1, -1, -1);
    sh(cb, REG(COMPUTE_THREAD_TRACE_ENABLE), 0);
    rdx_pm4_event_write(cb, RDX_PM4_V_EVENT_THREAD_TRACE_FINISH, 0);
    for (uint32_t se = 0; se < nse; se++) {
        uint64_t at = status + 12ull * se;
        rdx_pm4_grbm_select(cb, (int)se, 0, -1);
        rdx_pm4_wait_reg32(cb, REG(SQ_THREAD_TRACE_STATUS), 0, STATUS_FINISH_PENDING,
                           RDX_PM4_V_WAIT_FUNC_EQ, 4);
        uconfig(cb, REG(SQ_THREAD_TRACE_CTRL), tt_ctrl(0));
        rdx_pm4_wait_reg32(cb, REG(SQ_THREAD_TRACE_STATUS), 0, STATUS_BUSY, RDX_PM4_V_WAIT_FUNC_EQ,
                           4);
        rdx_pm4_copy_reg_to_mem(cb, REG(SQ_THREAD_TRACE_WPTR), at);
        rdx_pm4_copy_reg_to_mem(cb, REG(SQ_THREAD_TRACE_STATUS2), at + 4);
        rdx_pm4_copy_reg_to_mem(cb, REG(SQ_THREAD_TRACE_DROPPED_CNTR), at + 8);
    }
    rdx_pm4_grbm_select(cb, -1, -1, -1);
    return uconfig(cb, REG(SPI_CONFIG_CNTL), spi_config(0));
}
