/*
 * rdx/pm4_prof.h — PM4 sequences that program a gfx11 GPU's performance
 * counters and SQ thread trace (SQTT) from a compute queue, as a driver does
 * on a card: register writes (SET_UCONFIG_REG / SET_SH_REG), EVENT_WRITE,
 * WAIT_REG_MEM on registers and COPY_DATA of registers to memory.  Register
 * offsets and fields are gc_11_0_0's (rdx/pm4_defs.h); the sequences follow
 * the public order of amdgpu, Mesa's ac_sqtt and tinygrad's AMD runtime
 * (docs/prof.md "On the queue").  The emulated GPU serves the same registers
 * (emu/dev/perf.c), so these packets run in CI exactly as on a card.
 *
 * Errors are sticky, as every builder of rdx/pm4.h: RDX_ERR_INVALID naming
 * the argument for a bad descriptor.
 */
#ifndef RDX_PM4_PROF_H
#define RDX_PM4_PROF_H

#include <stdint.h>

#include <rdx/pm4.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RDX_PM4_PERF_SQ_MAX   8u /* SQ counters (SQ_PERFCOUNTER{2n}_SELECT, _LO) */
#define RDX_PM4_PERF_GRBM_MAX 2u /* GRBM counters (GRBM_PERFCOUNTERn_SELECT, _LO/_HI) */
#define RDX_PM4_MAX_SE        8u /* shader engines a descriptor can name */

/* GRBM_GFX_INDEX: route later per-SE/SA/instance register accesses to shader engine `se`,
 * shader array `sa` and instance `instance` (gfx11 SQ counters: WGP << 2); -1 for each
 * means all (broadcast writes).  Values must fit their 8-bit fields. */
rdx_status rdx_pm4_grbm_select(rdx_pm4_cmdbuf *cb, int se, int sa, int instance);

/* WAIT_REG_MEM on register `reg` (absolute dword offset): stall until (reg & mask) <func>
 * ref; func is RDX_PM4_V_WAIT_FUNC_*. */
rdx_status rdx_pm4_wait_reg32(rdx_pm4_cmdbuf *cb, uint32_t reg, uint32_t ref, uint32_t mask,
                              uint32_t func, uint32_t poll_interval);

/* COPY_DATA of the 32-bit register `reg` (SRC_SEL perfcounter) to memory at `addr`
 * (4-aligned), with write confirmation. */
rdx_status rdx_pm4_copy_reg_to_mem(rdx_pm4_cmdbuf *cb, uint32_t reg, uint64_t addr);

/* The counters to program: SQ_PERF_SEL / GRBM_PERF_SEL event numbers of the GPU's family
 * (rocprofiler's tables, e.g. SQ_WAVES 4, SQ_INSTS_VALU 62 on gfx11 and 50 on gfx12;
 * GRBM_GUI_ACTIVE 2; rdx/queue_prof.h RDX_PERF_COUNTER_LIST has both columns). */
typedef struct rdx_pm4_perf_desc {
    uint32_t sq_sel[RDX_PM4_PERF_SQ_MAX];
    uint32_t nsq; /* 0..8: SQ counters 0..nsq-1 */
    uint32_t grbm_sel[RDX_PM4_PERF_GRBM_MAX];
    uint32_t ngrbm; /* 0..2 */
} rdx_pm4_perf_desc;

/* The GPU's shape: instances an SQ counter is read from. */
typedef struct rdx_pm4_gpu_shape {
    uint32_t se;         /* shader engines, 1..RDX_PM4_MAX_SE */
    uint32_t sa_per_se;  /* shader arrays per SE, 1..2 */
    uint32_t wgp_per_sa; /* WGPs per shader array, 1..63 */
} rdx_pm4_gpu_shape;

/*
 * Start counting: CP_PERFMON_CNTL disable-and-reset, SQ_PERFCOUNTER_CTRL (CS_EN),
 * SQ_PERFCOUNTER_CTRL2 (FORCE_EN, every VMID), the selects (SQ counter n at the even
 * register SQ_PERFCOUNTER{2n}_SELECT, as gfx11 pairs them), COMPUTE_PERFCOUNT_ENABLE = 1
 * (SH: this queue's dispatches count), CP_PERFMON_CNTL start-counting.
 * RDX_ERR_INVALID: no counter, too many, a select beyond its field (SQ 9 bits, GRBM 6).
 */
rdx_status rdx_pm4_perf_start(rdx_pm4_cmdbuf *cb, const rdx_pm4_perf_desc *d);

/* Bytes rdx_pm4_perf_read writes: 8 per SQ counter and instance, 8 per GRBM counter. */
uint64_t rdx_pm4_perf_read_bytes(const rdx_pm4_perf_desc *d, const rdx_pm4_gpu_shape *s);

/*
 * Read the counters into memory at `dst` (8-aligned, zeroed by the caller: only the low
 * dword of an SQ slot is written): CP_PERFMON_CNTL counting with PERFMON_SAMPLE_ENABLE,
 * then for SQ counter n and every (se, sa, wgp) a GRBM_GFX_INDEX selection and COPY_DATA
 * of SQ_PERFCOUNTERn_LO to slot n * instances + (se * sa_per_se + sa) * wgp_per_sa + wgp,
 * then GRBM counter n's LO and HI to the 8 bytes after the SQ slots; GRBM broadcast again.
 * Sum the SQ slots of a counter for its value.  RDX_ERR_INVALID: a bad shape, dst.
 */
rdx_status rdx_pm4_perf_read(rdx_pm4_cmdbuf *cb, const rdx_pm4_perf_desc *d,
                             const rdx_pm4_gpu_shape *s, uint64_t dst);

/* Stop counting: CP_PERFMON_CNTL stop-counting, COMPUTE_PERFCOUNT_ENABLE = 0. */
rdx_status rdx_pm4_perf_stop(rdx_pm4_cmdbuf *cb);

/* A thread trace: one buffer per shader engine. */
typedef struct rdx_pm4_sqtt_desc {
    uint32_t nse;                 /* shader engines, 1..RDX_PM4_MAX_SE */
    uint64_t buf[RDX_PM4_MAX_SE]; /* each 4 KiB aligned, below 2^48 */
    uint64_t buf_size;            /* bytes per SE: a multiple of 4 KiB, 4 KiB .. 16 GiB */
    uint32_t simd;                /* the SIMD whose instructions are traced, 0..3 */
    int gfx12; /* RDNA4's buffer registers: BUF0_SIZE_GFX12 (0xd9e6, size >> 12 in 21:0),
                  BUF0_LO_GFX12 (0xd9e7), BUF0_BASE_HI at gfx11's BUF0_BASE (0xd9e8) */
} rdx_pm4_sqtt_desc;

/*
 * Start the trace: SPI_CONFIG_CNTL with the SQG top/bottom-of-pipe events, then per SE
 * (GRBM_GFX_INDEX se, SA 0): SQ_THREAD_TRACE_BUF0_SIZE (size >> 12, BASE_HI) and
 * BUF0_BASE (address >> 12) — on gfx12 (`gfx12`) BUF0_SIZE_GFX12, BUF0_LO_GFX12 and
 * BUF0_BASE_HI, gfx12's own layout (tinygrad's gc_12_0_0 register table) — MASK (compute waves,
 * `simd`, WGP 0 of SA 0), TOKEN_MASK (registers of the SQ, shader, compute and context;
 * bottom-of-pipe events), CTRL (MODE 1, stalls enabled, high-water 1, utilisation timer, RT_FREQ
 * 4096 clocks); then GRBM broadcast and COMPUTE_THREAD_TRACE_ENABLE = 1 (SH: this queue's
 * dispatches are traced).  RDX_ERR_INVALID names the SE whose buffer is not 4 KiB aligned, a size
 * that is not a multiple of 4 KiB (or 0, or too big), nse or simd out of range.
 */
rdx_status rdx_pm4_sqtt_start(rdx_pm4_cmdbuf *cb, const rdx_pm4_sqtt_desc *d);

/* Bytes rdx_pm4_sqtt_stop writes at `status`: per SE 3 dwords. */
#define RDX_PM4_SQTT_STATUS_BYTES(nse) ((uint64_t)(nse) * 12u)

/*
 * Stop the trace: CS partial flush, COMPUTE_THREAD_TRACE_ENABLE = 0, EVENT_WRITE
 * THREAD_TRACE_FINISH, then per SE: wait until SQ_THREAD_TRACE_STATUS.FINISH_PENDING is
 * 0, CTRL MODE 0, wait until STATUS.BUSY is 0, and copy SQ_THREAD_TRACE_WPTR,
 * STATUS2 and DROPPED_CNTR to status + 12 * se (gfx11's WPTR: (buffer address + bytes
 * written) / 32 in bits 28:0); GRBM broadcast, SPI_CONFIG_CNTL without the events.
 * RDX_ERR_INVALID: nse out of range, status not 4-aligned.
 */
rdx_status rdx_pm4_sqtt_stop(rdx_pm4_cmdbuf *cb, uint32_t nse, uint64_t status);

#ifdef __cplusplus
}
#endif

#endif /* RDX_PM4_PROF_H */
