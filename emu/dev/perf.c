/*
 * emu/dev/perf.c — the emulated GPU's performance counters and SQ thread
 * trace, served through the registers a driver programs on a card (gfx11,
 * gc_11_0_0_offset.h / _sh_mask.h; docs/prof.md "On the queue"):
 *
 * - GRBM_GFX_INDEX selects the shader engine (SE), shader array (SA) and
 *   instance (WGP << 2) later per-SE register writes and counter reads go to
 *   (bit 31: every SE).
 * - CP_PERFMON_CNTL.PERFMON_STATE: 0 disables and resets every counter,
 *   1 counts, 2 stops.  SQ_PERFCOUNTER{2n}_SELECT.PERF_SEL picks the event of
 *   SQ counter n (0..7, read at SQ_PERFCOUNTERn_LO: gfx11 pairs the selects,
 *   as tinygrad programs them), GRBM_PERFCOUNTERn_SELECT that of GRBM counter
 *   n (0..1, _LO/_HI).  SQ counters count compute dispatches while
 *   SQ_PERFCOUNTER_CTRL.CS_EN is 1, when the dispatch's queue has
 *   COMPUTE_PERFCOUNT_ENABLE = 1 or SQ_PERFCOUNTER_CTRL2.FORCE_EN is set.
 *   The values are the emulator's exact counts of the dispatch (and, for the
 *   cycle events, the timing model's figures); an event the emulator does not
 *   model counts 0.  All of a dispatch's counts are attributed to SE 0, SA 0,
 *   WGP 0: reading that instance, or any instance with SE broadcast set, gives
 *   them; every other instance reads 0, so the sum over instances is exact.
 *   GL2C counters 0..3 (GL2C_PERFCOUNTERn_SELECT, _LO/_HI): GL2C_HIT (42) and
 *   GL2C_MISS (43) are the profile's L2 model (docs/prof.md "Cache model"),
 *   all in channel 0 (GRBM instance 0).
 * - SQ_THREAD_TRACE_BUF0_BASE/SIZE (4 KiB units; BASE_HI in SIZE[3:0]; on gfx12
 *   BUF0_SIZE at 0xd9e6, BASE_LO 0xd9e7, BASE_HI 0xd9e8, as rdx/pm4_prof.h says),
 *   CTRL.MODE (1 = on; turning it on rewinds the buffer), MASK (WTYPE_INCLUDE
 *   must include CS, bit 6, for compute waves to be traced) per SE, and a
 *   queue's COMPUTE_THREAD_TRACE_ENABLE: each traced dispatch runs with
 *   profiling on and its SQ thread trace (rdx_sqtt_encode_profile: workgroup
 *   0's waves in the target's token layout, rdx_sqtt_layout_of: 3 on gfx11, 4 on
 *   gfx12) is appended to SE 0's buffer, the layout header
 *   only once per trace, followed by at least 8 bytes of NOP nibbles up to a 32-byte
 *   boundary.  Other SEs' buffers
 *   stay empty.  WPTR reads (buffer address + bytes written) / 32 on gfx11.0
 *   (gfx1100-gfx1102), bytes written / 32 on gfx11.5 and gfx12 (as tinygrad's
 *   ops_amd.py reads it).
 *   A stream that does not fit is cut at the buffer's end, STATUS2.BUF0_FULL is
 *   set and DROPPED_CNTR counts the bytes dropped; a buffer of size 0 takes
 *   nothing.  STATUS reads 0 (never busy, nothing pending: the stream is
 *   written when the dispatch ends), except that after a THREAD_TRACE_FINISH
 *   event the first read of STATUS shows FINISH_PENDING (the flush in progress,
 *   as a card shows it for a while): a queue polling for the finish yields once
 *   to the others, so work submitted to another queue before the stop is not
 *   overtaken (tinygrad's profiler relies on that order).  START, STOP and
 *   MARKER events have nothing to do.  TOKEN_MASK and SIMD_SEL are kept, not applied
 *   (the stream always traces SIMD 0's instructions).
 */
#include "emu/dev/emudev.h"

#include <stdlib.h>
#include <string.h>

#include <rdx/emu.h>
#include <rdx/emu_prof.h>
#include <rdx/pm4.h>
#include <rdx/queue_prof.h>
#include <rdx/sqtt.h>

#define PERF_SE     8 /* shader engines there is room for (the most of a modelled chip: 6) */
#define PERF_SQ     8 /* SQ counters (even selects) */
#define PERF_GRBM   2
#define PERF_GL2C   4
#define TT_UNIT     32u        /* WPTR granule */
#define TT_HEADER   8u         /* bytes of the layout header the encoder writes first */
#define WTYPE_CS    (1u << 16) /* SQ_THREAD_TRACE_MASK.WTYPE_INCLUDE bit 6 (CS) */
#define PERFMON_RUN 1u

typedef struct perf_se {
    uint32_t buf[4]; /* 0xd9e6..0xd9e9 as written: gfx12's BUF0_SIZE, BASE_LO, BASE_HI; gfx11's
                        BUF0_BASE (0xd9e8) and BUF0_SIZE (0xd9e9) */
    uint32_t ctrl, mask, token_mask, status2, dropped;
    uint64_t written; /* bytes of the stream in the buffer */
    int started;      /* the layout header is in the buffer */
    int finishing;    /* THREAD_TRACE_FINISH seen, STATUS not read since */
} perf_se;

struct emu_perf {
    uint32_t grbm, perfmon, sq_ctrl, sq_ctrl2;
    uint32_t sq_sel[2 * PERF_SQ], grbm_sel[PERF_GRBM];
    uint64_t sq_val[PERF_SQ], grbm_val[PERF_GRBM];
    uint32_t gl2c_sel[PERF_GL2C];
    uint64_t gl2c_val[PERF_GL2C];
    perf_se se[PERF_SE];
    uint32_t nse;          /* the GPU's shader engines (its target's) */
    unsigned layout;       /* its thread trace's token layout (rdx_sqtt_layout_of) */
    int wptr_abs;          /* WPTR counts from address 0 (gfx11.0), else from the buffer */
    int gfx12;             /* gfx12's buffer registers (rdx/pm4_prof.h rdx_pm4_sqtt_desc) */
    int counting, tracing; /* of the running dispatch */
};

void emu_perf_free(struct emu_perf *p)
{
    free(p);
}

static struct emu_perf *perf_of(rdx_emudev *dev, emu_queue *q)
{
    emu_gpu *g = &dev->gpus[q->gpu];
    if (!g->perf)
        if ((g->perf = calloc(1, sizeof *g->perf))) {
            g->perf->nse = g->t && g->t->shader_engines ? g->t->shader_engines : 1;
            if (g->perf->nse > PERF_SE)
                g->perf->nse = PERF_SE;
            g->perf->layout = rdx_sqtt_layout_of(g->t ? g->t->name : "gfx1100");
            g->perf->wptr_abs = !g->t || (g->t->gc[0] == 11 && g->t->gc[1] == 0);
            g->perf->gfx12 = g->t && g->t->gc[0] == 12;
        }
    return g->perf;
}

#define REG(name) RDX_PM4_REG_##name

static int grbm_all_se(uint32_t grbm)
{
    return (int)(grbm >> 31);
}

static uint32_t grbm_se(uint32_t grbm)
{
    return grbm >> 16 & 0xff;
}

/* Whether the GRBM selection reads the instance the emulator attributes counts to. */
static int counted_instance(uint32_t grbm)
{
    if (grbm_all_se(grbm))
        return 1;
    return grbm_se(grbm) == 0 && (grbm >> 8 & 0xff) == 0 && (grbm & 0xff) >> 2 == 0;
}

/* GL2C counter n of a select register (SELECT1 registers: -1), or -2 when not one. */
static int gl2c_sel_index(uint32_t reg)
{
    switch (reg) {
    case REG(GL2C_PERFCOUNTER0_SELECT):
        return 0;
    case REG(GL2C_PERFCOUNTER1_SELECT):
        return 1;
    case REG(GL2C_PERFCOUNTER2_SELECT):
        return 2;
    case REG(GL2C_PERFCOUNTER3_SELECT):
        return 3;
    case REG(GL2C_PERFCOUNTER0_SELECT1):
    case REG(GL2C_PERFCOUNTER1_SELECT1):
        return -1;
    default:
        return -2;
    }
}

static int is_gl2c_reg(uint32_t reg)
{
    return gl2c_sel_index(reg) != -2 ||
           (reg >= REG(GL2C_PERFCOUNTER0_LO) && reg <= REG(GL2C_PERFCOUNTER3_HI));
}

static int is_tt_reg(uint32_t reg)
{
    return reg >= REG(SQ_THREAD_TRACE_BUF0_SIZE_GFX12) && reg <= REG(SQ_THREAD_TRACE_DROPPED_CNTR);
}

static void tt_write(perf_se *s, uint32_t reg, uint32_t val)
{
    if (reg >= REG(SQ_THREAD_TRACE_BUF0_SIZE_GFX12) && reg <= REG(SQ_THREAD_TRACE_BUF0_SIZE)) {
        s->buf[reg - REG(SQ_THREAD_TRACE_BUF0_SIZE_GFX12)] = val;
        return;
    }
    switch (reg) {
    case REG(SQ_THREAD_TRACE_CTRL):
        if ((val & 3) == 1 && (s->ctrl & 3) != 1) { /* turned on: a new trace */
            s->written = 0;
            s->started = 0;
            s->status2 = 0;
            s->dropped = 0;
        }
        s->ctrl = val;
        break;
    case REG(SQ_THREAD_TRACE_MASK):
        s->mask = val;
        break;
    case REG(SQ_THREAD_TRACE_TOKEN_MASK):
        s->token_mask = val;
        break;
    default: /* WPTR, STATUS, STATUS2, counters: read-only here */
        break;
    }
}

/* The buffer's address and size from its registers in the GPU's layout. */
static uint64_t tt_base(const struct emu_perf *p, const perf_se *s)
{
    if (p->gfx12) /* BUF0_BASE_HI (bits 12:0) at 0xd9e8, BUF0_LO_GFX12 */
        return ((uint64_t)(s->buf[2] & 0x1fffu) << 32 | s->buf[1]) << 12;
    uint64_t hi = rdx_pm4_reg_get(s->buf[3], RDX_PM4_RF_SQ_THREAD_TRACE_BUF0_SIZE_BASE_HI);
    return (hi << 32 | s->buf[2]) << 12;
}

static uint64_t tt_size(const struct emu_perf *p, const perf_se *s)
{
    if (p->gfx12)
        return (uint64_t)rdx_pm4_reg_get(s->buf[0], RDX_PM4_RF_SQ_THREAD_TRACE_BUF0_SIZE_GFX12_SIZE)
               << 12;
    return (uint64_t)rdx_pm4_reg_get(s->buf[3], RDX_PM4_RF_SQ_THREAD_TRACE_BUF0_SIZE_SIZE) << 12;
}

static uint32_t tt_read(const struct emu_perf *p, perf_se *s, uint32_t reg)
{
    if (reg == REG(SQ_THREAD_TRACE_STATUS) && s->finishing) {
        s->finishing = 0; /* the flush is seen in progress once */
        return RDX_PM4_REG_PUT(SQ_THREAD_TRACE_STATUS, FINISH_PENDING, 1);
    }
    if (reg >= REG(SQ_THREAD_TRACE_BUF0_SIZE_GFX12) && reg <= REG(SQ_THREAD_TRACE_BUF0_SIZE))
        return s->buf[reg - REG(SQ_THREAD_TRACE_BUF0_SIZE_GFX12)];
    switch (reg) {
    case REG(SQ_THREAD_TRACE_CTRL):
        return s->ctrl;
    case REG(SQ_THREAD_TRACE_MASK):
        return s->mask;
    case REG(SQ_THREAD_TRACE_TOKEN_MASK):
        return s->token_mask;
    case REG(SQ_THREAD_TRACE_WPTR):
        return (uint32_t)(((p->wptr_abs ? tt_base(p, s) : 0) + s->written) / TT_UNIT) & 0x1fffffffu;
    case REG(SQ_THREAD_TRACE_STATUS2):
        return s->status2;
    case REG(SQ_THREAD_TRACE_DROPPED_CNTR):
        return s->dropped;
    default: /* STATUS: never busy, nothing pending */
        return 0;
    }
}

int emu_perf_write(rdx_emudev *dev, emu_queue *q, uint32_t reg, uint32_t val)
{
    if (reg != REG(GRBM_GFX_INDEX) && reg != REG(CP_PERFMON_CNTL) &&
        !(reg >= REG(SQ_PERFCOUNTER0_LO) && reg <= REG(SQ_PERFCOUNTER7_LO)) &&
        !(reg >= REG(GRBM_PERFCOUNTER0_LO) && reg <= REG(GRBM_PERFCOUNTER1_HI)) &&
        !(reg >= REG(GRBM_PERFCOUNTER0_SELECT) && reg <= REG(GRBM_PERFCOUNTER1_SELECT)) &&
        !(reg >= REG(SQ_PERFCOUNTER0_SELECT) && reg <= REG(SQ_PERFCOUNTER_CTRL2)) &&
        !is_tt_reg(reg) && !is_gl2c_reg(reg))
        return 0;
    struct emu_perf *p = perf_of(dev, q);
    if (!p)
        return 0; /* out of memory: the shadow registers keep the value */
    if (reg == REG(GRBM_GFX_INDEX)) {
        p->grbm = val;
        return 0; /* the shadow keeps it too */
    }
    if (reg == REG(CP_PERFMON_CNTL)) {
        uint32_t state = rdx_pm4_reg_get(val, RDX_PM4_RF_CP_PERFMON_CNTL_PERFMON_STATE);
        if (state == 0) {
            memset(p->sq_val, 0, sizeof p->sq_val);
            memset(p->grbm_val, 0, sizeof p->grbm_val);
            memset(p->gl2c_val, 0, sizeof p->gl2c_val);
        }
        p->perfmon = val;
    } else if (reg >= REG(SQ_PERFCOUNTER0_SELECT) && reg <= REG(SQ_PERFCOUNTER15_SELECT)) {
        p->sq_sel[reg - REG(SQ_PERFCOUNTER0_SELECT)] = val;
    } else if (reg == REG(SQ_PERFCOUNTER_CTRL)) {
        p->sq_ctrl = val;
    } else if (reg == REG(SQ_PERFCOUNTER_CTRL2)) {
        p->sq_ctrl2 = val;
    } else if (reg >= REG(GRBM_PERFCOUNTER0_SELECT) && reg <= REG(GRBM_PERFCOUNTER1_SELECT)) {
        p->grbm_sel[reg - REG(GRBM_PERFCOUNTER0_SELECT)] = val;
    } else if (gl2c_sel_index(reg) >= 0) {
        p->gl2c_sel[gl2c_sel_index(reg)] = val;
    } else if (is_tt_reg(reg)) {
        for (uint32_t se = 0; se < p->nse; se++)
            if (grbm_all_se(p->grbm) || grbm_se(p->grbm) == se)
                tt_write(&p->se[se], reg, val);
    }
    /* counter value registers: writes are ignored */
    return 1;
}

int emu_perf_read(rdx_emudev *dev, emu_queue *q, uint32_t reg, uint32_t *val)
{
    struct emu_perf *p = dev->gpus[q->gpu].perf;
    *val = 0;
    if (!p) /* nothing programmed: every register of the model reads 0 */
        return reg == REG(CP_PERFMON_CNTL) || is_tt_reg(reg) || is_gl2c_reg(reg) ||
               (reg >= REG(SQ_PERFCOUNTER0_LO) && reg <= REG(SQ_PERFCOUNTER7_LO)) ||
               (reg >= REG(GRBM_PERFCOUNTER0_LO) && reg <= REG(GRBM_PERFCOUNTER1_HI)) ||
               (reg >= REG(GRBM_PERFCOUNTER0_SELECT) && reg <= REG(GRBM_PERFCOUNTER1_SELECT)) ||
               (reg >= REG(SQ_PERFCOUNTER0_SELECT) && reg <= REG(SQ_PERFCOUNTER_CTRL2));
    if (reg >= REG(SQ_PERFCOUNTER0_LO) && reg <= REG(SQ_PERFCOUNTER7_LO)) {
        uint32_t n = (reg - REG(SQ_PERFCOUNTER0_LO)) / 2;
        if ((reg - REG(SQ_PERFCOUNTER0_LO)) % 2 == 0 && counted_instance(p->grbm))
            *val = (uint32_t)p->sq_val[n];
        return 1;
    }
    if (reg >= REG(GRBM_PERFCOUNTER0_LO) && reg <= REG(GRBM_PERFCOUNTER1_HI)) {
        uint32_t k = reg - REG(GRBM_PERFCOUNTER0_LO); /* 0 LO0, 1 HI0, 3 LO1, 4 HI1 */
        uint32_t n = k / 3, hi = k % 3;
        if (hi < 2)
            *val = (uint32_t)(p->grbm_val[n] >> (hi ? 32 : 0));
        return 1;
    }
    if (reg >= REG(GL2C_PERFCOUNTER0_LO) && reg <= REG(GL2C_PERFCOUNTER3_HI)) {
        uint32_t k = reg - REG(GL2C_PERFCOUNTER0_LO), n = k / 2;
        /* every count in GL2C channel 0 (GRBM instance 0, or instance broadcast) */
        if ((p->grbm >> 30 & 1) || (p->grbm & 0xff) == 0)
            *val = (uint32_t)(p->gl2c_val[n] >> (k % 2 ? 32 : 0));
        return 1;
    }
    if (gl2c_sel_index(reg) >= 0) {
        *val = p->gl2c_sel[gl2c_sel_index(reg)];
        return 1;
    }
    if (reg == REG(CP_PERFMON_CNTL)) {
        *val = p->perfmon;
        return 1;
    }
    if (reg >= REG(SQ_PERFCOUNTER0_SELECT) && reg <= REG(SQ_PERFCOUNTER15_SELECT)) {
        *val = p->sq_sel[reg - REG(SQ_PERFCOUNTER0_SELECT)];
        return 1;
    }
    if (reg >= REG(GRBM_PERFCOUNTER0_SELECT) && reg <= REG(GRBM_PERFCOUNTER1_SELECT)) {
        *val = p->grbm_sel[reg - REG(GRBM_PERFCOUNTER0_SELECT)];
        return 1;
    }
    if (reg == REG(SQ_PERFCOUNTER_CTRL) || reg == REG(SQ_PERFCOUNTER_CTRL2)) {
        *val = reg == REG(SQ_PERFCOUNTER_CTRL) ? p->sq_ctrl : p->sq_ctrl2;
        return 1;
    }
    if (is_tt_reg(reg)) {
        uint32_t se = grbm_all_se(p->grbm) ? 0 : grbm_se(p->grbm);
        if (se < p->nse)
            *val = tt_read(p, &p->se[se], reg);
        return 1;
    }
    return 0;
}

void emu_perf_event(rdx_emudev *dev, emu_queue *q, uint32_t ev)
{
    struct emu_perf *p = dev->gpus[q->gpu].perf;
    if (!p || ev != RDX_PM4_V_EVENT_THREAD_TRACE_FINISH)
        return; /* the stream is written when a dispatch ends: START, STOP, MARKER and the
                   PERFCOUNTER events have nothing to do */
    for (uint32_t se = 0; se < p->nse; se++)
        if ((p->se[se].ctrl & 3) == 1)
            p->se[se].finishing = 1;
}

#define SH(q, name) ((q)->sh_regs[RDX_PM4_REG_##name - RDX_PM4_SH_REG_START])

int emu_perf_dispatch_begin(rdx_emudev *dev, emu_queue *q)
{
    struct emu_perf *p = dev->gpus[q->gpu].perf;
    if (!p)
        return 0;
    int run = rdx_pm4_reg_get(p->perfmon, RDX_PM4_RF_CP_PERFMON_CNTL_PERFMON_STATE) == PERFMON_RUN;
    p->counting = run;
    p->tracing = 0;
    if (SH(q, COMPUTE_THREAD_TRACE_ENABLE) & 1)
        for (uint32_t se = 0; se < p->nse; se++)
            if ((p->se[se].ctrl & 3) == 1 && (p->se[se].mask & WTYPE_CS))
                p->tracing |= 1 << se;
    int on = p->counting || p->tracing;
    rdx_emu_set_profiling(dev->gpus[q->gpu].emu, on);
    return on;
}

/* gfx11's number of gfx12 SQ event `sel` (rdx/queue_prof.h's table: gfx12 renumbered the
 * SQ_INSTS_* events and SQC_LDS_BANK_CONFLICT), or ~0u for an event the table has not. */
static uint32_t sq_sel_gfx11(uint32_t sel)
{
    static const struct {
        uint16_t gfx12, gfx11, sq;
    } map[] = {
#define ROW_(n, b, e, e12) { e12, e, b##_BLOCK_ },
#define SQ_BLOCK_          1
#define GRBM_BLOCK_        0
        RDX_PERF_COUNTER_LIST(ROW_)
#undef ROW_
#undef SQ_BLOCK_
#undef GRBM_BLOCK_
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (map[i].sq && map[i].gfx12 == sel)
            return map[i].gfx11;
    return ~0u;
}

/* The value of SQ event `sel` over the dispatch (gfx11 SQ_PERF_SEL numbers, as AMD's
 * rocprofiler counter definitions give them; a gfx12 GPU's selects are translated). */
static uint64_t sq_event(uint32_t sel, const rdx_emu_counters *c, const rdx_emu_profile *pr,
                         int wave32)
{
    switch (sel) {
    case 3: /* SQ_BUSY_CYCLES: the kernel time model */
        return c->est_kernel_cycles;
    case 4: /* SQ_WAVES */
        return c->waves;
    case 24: /* SQ_WAVE_CYCLES: the wave model's cycles summed over waves */
        return c->cycles;
    case 57: /* SQ_INSTS_LDS */
        return c->by_class[RDX_EMU_CLASS_LDS];
    case 58: /* SQ_INSTS_SALU */
        return c->by_class[RDX_EMU_CLASS_SALU];
    case 59: /* SQ_INSTS_SMEM */
        return c->by_class[RDX_EMU_CLASS_SMEM];
    case 62: /* SQ_INSTS_VALU (transcendental and WMMA included) */
        return c->by_class[RDX_EMU_CLASS_VALU] + c->by_class[RDX_EMU_CLASS_TRANS] +
               c->by_class[RDX_EMU_CLASS_WMMA];
    case 82: /* SQ_WAVE32_INSTS */
        return wave32 ? c->wave_insts : 0;
    case 83: /* SQ_WAVE64_INSTS */
        return wave32 ? 0 : c->wave_insts;
    case 256: /* SQC_LDS_BANK_CONFLICT */
        return pr ? pr->lds_conflicts : 0;
    default:
        return 0;
    }
}

static uint64_t grbm_event(uint32_t sel, const rdx_emu_counters *c)
{
    /* GRBM_COUNT (0) and GRBM_GUI_ACTIVE (2): GPU clocks, the kernel time model's */
    return sel == 0 || sel == 2 ? c->est_kernel_cycles : 0;
}

/* Append the stream to SE 0's buffer: 1, or -1 when the buffer is not mapped writable. */
static int tt_append(rdx_emudev *dev, emu_queue *q, const struct emu_perf *p, perf_se *s,
                     const uint8_t *blob, size_t len)
{
    if (s->started) {
        blob += TT_HEADER; /* one layout header per trace */
        len -= TT_HEADER;
    }
    /* NOP nibbles after the stream: at least 8 bytes (a decoder that reads 64 bits at a time,
       as tinygrad's does, sees the last packet), up to the next 32-byte unit */
    size_t padded = (len + TT_HEADER + TT_UNIT - 1) / TT_UNIT * TT_UNIT;
    uint64_t cap = tt_size(p, s), room = cap > s->written ? cap - s->written : 0;
    size_t n = padded <= room ? padded : (size_t)room;
    if (n < padded) {
        s->status2 |= 1; /* BUF0_FULL */
        s->dropped += (uint32_t)(padded - n);
    }
    if (n) {
        uint8_t *dst = emu_cp_access(dev, q, tt_base(p, s) + s->written, n, 1);
        if (!dst)
            return -1;
        size_t m = len < n ? len : n;
        memcpy(dst, blob, m);
        memset(dst + m, 0, n - m); /* NOP nibbles */
        s->written += n;
        s->started = 1;
    }
    return 1;
}

int emu_perf_dispatch_end(rdx_emudev *dev, emu_queue *q, uint32_t initiator)
{
    struct emu_perf *p = dev->gpus[q->gpu].perf;
    rdx_emu *emu = dev->gpus[q->gpu].emu;
    if (!p || !emu || !(p->counting || p->tracing)) /* no wave emulator: nothing ran */
        return 1;
    const rdx_emu_counters *c = rdx_emu_get_counters(emu);
    const rdx_emu_profile *pr = rdx_emu_get_profile(emu);
    int wave32 = rdx_pm4_reg_get(initiator, RDX_PM4_RF_COMPUTE_DISPATCH_INITIATOR_CS_W32_EN);
    int r = 1;
    if (p->counting) {
        /* the dispatch's own enable, or FORCE_EN (counting whatever the dispatch says) */
        int sq = ((SH(q, COMPUTE_PERFCOUNT_ENABLE) & 1) ||
                  rdx_pm4_reg_get(p->sq_ctrl2, RDX_PM4_RF_SQ_PERFCOUNTER_CTRL2_FORCE_EN)) &&
                 rdx_pm4_reg_get(p->sq_ctrl, RDX_PM4_RF_SQ_PERFCOUNTER_CTRL_CS_EN);
        for (int n = 0; sq && n < PERF_SQ; n++)
            p->sq_val[n] += sq_event(p->gfx12 ? sq_sel_gfx11(p->sq_sel[2 * n] & 0x1ff)
                                              : p->sq_sel[2 * n] & 0x1ff,
                                     c, pr, wave32);
        for (int n = 0; n < PERF_GRBM; n++)
            p->grbm_val[n] += grbm_event(p->grbm_sel[n] & 0x3f, c);
        /* GL2C_HIT (42), GL2C_MISS (43); gfx12's are 41 and 42 (rocprofiler's gfx12 table) */
        uint32_t hit = p->gfx12 ? 41 : 42, miss = hit + 1;
        for (int n = 0; n < PERF_GL2C && pr; n++) {
            uint32_t e = p->gl2c_sel[n] & 0x3ff;
            p->gl2c_val[n] += e == hit ? pr->l2_hits : e == miss ? pr->l2_misses : 0;
        }
    }
    /* the trace in the GPU's own token layout (rdx_sqtt_layout_of: 3 on gfx11, 4 on gfx12) */
    if ((p->tracing & 1) && pr && pr->ntrace && p->layout) {
        uint8_t *blob = NULL;
        size_t len = 0;
        if (rdx_sqtt_encode_profile(pr, p->layout, &blob, &len) == RDX_OK && len >= TT_HEADER)
            r = tt_append(dev, q, p, &p->se[0], blob, len);
        free(blob); /* r < 0: emu_cp_access raised the memory fault and failed the queue */
    }
    p->counting = p->tracing = 0;
    rdx_emu_set_profiling(emu, 0);
    return r;
}
