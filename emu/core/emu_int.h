/*
 * emu/core/emu_int.h — internal state of the RDNA3 emulator: memory map,
 * pre-decoded instructions, waves, workgroups and worker threads, and the
 * inline helpers every semantics file uses to read and write operands.
 */
#ifndef RDX_EMU_CORE_INT_H
#define RDX_EMU_CORE_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rdx/emu.h>
#include <rdx/isa.h>

#include "emu/core/model.h"
#include "emu/core/timing.h"
#include "emu/core/prof.h"

#define EMU_MAX_LANES 64
#define EMU_NVGPR     256
#define EMU_NSGPR     132 /* 0..127 hardware codes + write sink */
#define EMU_SINK      128 /* writes to NULL land here */
#define EMU_VCC       106
#define EMU_M0        125
#define EMU_NULL      124
#define EMU_EXEC      126

/* Apertures reported by src_shared_base / src_private_base (high 32 bits). */
#define EMU_SHARED_APERTURE_HI  0x00010000u
#define EMU_PRIVATE_APERTURE_HI 0x00020000u

/* ------------------------------------------------------------ memory map */

typedef struct emu_range {
    uint64_t base, end; /* [base, end) */
    unsigned access;
    char *label; /* what the range is, for fault reports (owned), or NULL */
} emu_range;

typedef struct emu_memmap {
    emu_range *r; /* sorted by base, disjoint */
    size_t n, cap;
} emu_memmap;

/* The range containing [addr, addr+len) with `access`, or NULL. */
const emu_range *emu_mem_find(const emu_memmap *m, uint64_t addr, uint64_t len, unsigned access);

/* ----------------------------------------------------- pre-decoded insts */

enum emu_opnd_kind {
    EMU_K_NONE = 0,
    EMU_K_SGPR,  /* s[reg] (also vcc, m0, exec, ttmp by hardware code) */
    EMU_K_VGPR,  /* v[reg] */
    EMU_K_VHI,   /* high 16 bits of v[reg] (true16 .h) */
    EMU_K_CONST, /* val */
    EMU_K_SCC,
    EMU_K_VCCZ,
    EMU_K_EXECZ,
    EMU_K_DPP, /* v[reg] through the DPP lane select (w->dpp) */
};

typedef struct emu_opnd {
    uint8_t kind;
    uint8_t count; /* registers */
    uint16_t reg;
    uint16_t bits;
    uint8_t fmt;
    uint8_t pad;
    uint64_t val; /* CONST value (already in the operand's format) */
} emu_opnd;

struct emu_wave;
struct emu_inst;
typedef void (*emu_fn)(struct emu_wave *w, const struct emu_inst *in);

/* Flags of a pre-decoded instruction. */
enum {
    EMU_F_DPP16 = 1u << 0,
    EMU_F_DPP8 = 1u << 1,
    EMU_F_E64 = 1u << 2,
    EMU_F_VOPD = 1u << 3,
    EMU_F_VCC_DST = 1u << 4, /* sdst came from an implicit vcc */
    /* VALU fast path (emu_mark_plain): no DPP, no input/output modifiers, every source a
       VGPR, an SGPR or a constant; the operand widths are not checked, so a fast path
       must itself be for a 32-bit op */
    EMU_F_PLAIN = 1u << 5,
};

typedef struct emu_inst {
    emu_fn fn;
    uint64_t pc;
    uint64_t count; /* executions (per worker, merged after the dispatch) */
    uint32_t param; /* handler parameter from the op table */
    uint16_t op;    /* rdx_isa_op */
    uint8_t size;   /* bytes */
    uint8_t cls;    /* rdx_emu_class */
    uint8_t enc;    /* rdx_isa_enc */
    uint8_t form;   /* rdx_isa_form */
    uint8_t flags;
    uint8_t neg, abs, neg_hi, opsel, opsel_hi, clamp, omod;
    uint8_t icyc;     /* issue cycles at the dispatch's wave size (set by the executor) */
    uint8_t prologue; /* runs the VALU prologue (VALU, TRANS, WMMA) */
    emu_opnd dst;     /* vdst / sdst / sdata / vdata (loads) */
    emu_opnd sdst;    /* VOP3SD carry / VOPC e64 dst */
    emu_opnd src[3];
    emu_opnd addr, data0, data1, saddr, sbase, soffset, srsrc;
    int32_t imm;    /* simm16 / branch offset / K */
    int32_t offset; /* memory offset / offset0 */
    int32_t offset1;
    uint16_t glc, slc, dlc, idxen, offen, format, gds;
    uint32_t dpp_ctrl, row_mask, bank_mask, bound_ctrl, fi, dpp8;
    const struct emu_inst *vx, *vy; /* VOPD halves */
    struct emu_inst *next;          /* the instruction at pc + size once seen (the executor) */
    uint8_t raw[16];
} emu_inst;

/* One op of the semantics table: handler, class and parameter. */
typedef struct emu_opinfo {
    emu_fn fn;
    uint32_t param;
    uint8_t cls;
} emu_opinfo;

/* Handler of op `op` (fn NULL when the emulator lacks it). */
const emu_opinfo *emu_op_info(unsigned op);

/* --------------------------------------------------------------- waves */

/* Per-PC decode cache: a hash of 4 KiB code pages. */
typedef struct emu_page {
    uint64_t base;
    struct emu_page *next;
    emu_inst *slot[1024];
} emu_page;

enum emu_wave_state { EMU_W_RUN, EMU_W_BARRIER, EMU_W_DONE };

struct emu_wg;
struct emu_worker;

typedef struct emu_wave {
    uint32_t v[EMU_NVGPR][EMU_MAX_LANES];
    uint32_t s[EMU_NSGPR];
    uint32_t wm[EMU_MAX_LANES];  /* write mask per lane (0 / ~0) for the current VALU inst */
    uint32_t dpp[EMU_MAX_LANES]; /* src0 after the DPP lane select */
    uint64_t wm_exec;            /* exec value wm was computed from */
    uint32_t wm_lanes;           /* its active lanes (lane_ops per VALU instruction) */
    int wm_dirty;                /* wm was narrowed (DPP): recompute before the next use */
    uint64_t pc;
    uint32_t scc;
    uint32_t mode;    /* HW_REG_MODE */
    uint32_t trapsts; /* HW_REG_TRAPSTS */
    uint32_t nl;      /* lanes: 32 or 64 */
    uint32_t id;      /* wave index in the workgroup */
    int state;
    int stop; /* set by a handler on fault / end */
    uint64_t ninst;
    uint8_t *scratch; /* nl * scratch_size bytes, lane-major */
    uint32_t scratch_size;
    struct emu_wg *wg;
    struct emu_worker *wk;
    const emu_range *mr;  /* last memory range hit */
    const emu_range *mr2; /* the range hit before mr (kernels alternate between buffers) */
    emu_page *pg;         /* last code page used */
    int scratch_ready;    /* scratch zeroed */
    /* cycle model */
    uint64_t cycles;
    uint64_t issue;                      /* the issue part of cycles (kernel estimate) */
    uint64_t seen_cycles, seen_issue;    /* what the cycle limit's sums already hold */
    uint64_t seen_insts;                 /* what the dispatch budget's sum already holds */
    uint64_t vm_done[64], lgkm_done[64]; /* completion times, ring */
    unsigned vm_n, vm_head, lgkm_n, lgkm_head;
    int last_vopd;
    uint64_t vt[4];             /* issue clocks of the last 4 VALU/trans/WMMA (ring, vn of them) */
    unsigned vn;                /* VALU-class instructions issued */
    unsigned dly_left, dly_id;  /* a pending s_delay_alu instid1: instructions to go, its id */
    unsigned bar_passed;        /* gfx12 s_barrier_wait's this wave passed (gfx12.c) */
    uint64_t smem_t, smem_next; /* the last SMEM's issue clock and the PC after it (0: none) */
} emu_wave;

typedef struct emu_wg {
    uint32_t id[3];
    uint8_t *lds;
    uint32_t lds_size;
    unsigned nwaves;
    emu_wave **waves;
    unsigned bar_gen, bar_signals; /* gfx12 s_barrier_signal count of barrier bar_gen */
} emu_wg;

typedef struct emu_counts {
    uint64_t by_class[RDX_EMU_CLASS_COUNT];
    uint64_t lane_ops, vector_insts, bytes_read, bytes_written, lds_bytes, scratch_bytes, vopd;
    uint64_t lds_misaligned; /* lane accesses of DS loads/stores not naturally aligned (ds.c) */
    uint64_t cycles, max_wave_cycles, waves, workgroups;
    uint64_t l0_lines, issue; /* vector-memory line requests; issue cycles of all waves */
} emu_counts;

struct emu_dispatch_ctx;

/* A host thread's records, allocated side by side for a dispatch: the fields written per
   instruction (c, line_last, lines) lie in the middle, kilobytes from the neighbours' records, so
   the threads do not share their cache lines. */
typedef struct emu_worker {
    struct emu_dispatch_ctx *ctx;
    emu_page *pages[256];
    emu_page *free_pages; /* pages of earlier dispatches, reused */
    emu_inst *arena;
    size_t arena_used, arena_cap;
    void **blocks; /* arena blocks (blocks[cur_block] is arena), kept across dispatches */
    size_t nblocks, cur_block;
    emu_counts c;
    uint64_t line_last; /* last line of the current memory instruction */
    emu_lines lines;    /* memory lines this thread's waves touched */
    emu_wave *wave_pool;
    unsigned nwave_pool;
    uint8_t *lds;
    uint32_t lds_cap;
    uint8_t *scratch;
    size_t scratch_cap;
    int group_faulted;
    emu_prof_wk *prof; /* the profile's records (rdx/emu_prof.h), NULL when off */
} emu_worker;

/* Free a worker record's memory (rdx_emu_destroy). */
void emu_worker_free(emu_worker *wk);

/* A PC and how many waves a stopped dispatch left there. */
typedef struct emu_pc_waves {
    uint64_t pc, count;
} emu_pc_waves;

typedef struct emu_dispatch_ctx {
    struct rdx_emu *emu;
    const rdx_emu_dispatch *d;
    uint32_t ngroups[3];
    uint64_t total_groups;
    uint64_t next_group;  /* atomic */
    int stop;             /* atomic: a fault happened */
    uint64_t fault_group; /* linear id of the faulting group (lowest wins) */
    rdx_emu_fault fault;
    rdx_status fault_status;
    pthread_mutex_t lock;
    unsigned nl;
    uint32_t lds_size, scratch_size, nvgpr;
    uint64_t budget;
    uint64_t sum_cycles, sum_issue; /* atomic: all waves' cycles so far (cycle_limit only) */
    int over_limit;                 /* atomic: a lower bound of the estimate passed cycle_limit */
    uint64_t sum_insts;             /* atomic: all waves' instructions (dispatch_budget only) */
    int over_budget;                /* atomic: sum_insts passed dispatch_budget */
    /* Where the stopped waves were (under lock): PC -> number of waves. */
    emu_pc_waves stopped[64];
    unsigned nstopped;
    uint64_t stopped_other; /* waves at PCs that did not fit */
    uint32_t mode;          /* initial MODE from rsrc1 */
    unsigned maxwaves;
    emu_wrec *wrec; /* kernel estimate: per wave (group-major) and per group; NULL = none */
    emu_grec *grec;
    emu_prof_disp *prof; /* profiling on: its state, else NULL */
} emu_dispatch_ctx;

struct rdx_emu {
    const rdx_isa_target *target;
    emu_chip chip;        /* the target's shape, for the kernel estimate (model.h) */
    const emu_timing *tm; /* the target family's timing constants (timing.def) */
    emu_memmap mem;
    unsigned threads;
    rdx_emu_counters counters;
    rdx_emu_pc_count *pcs;
    rdx_emu_fault fault;
    int profiling;     /* rdx_emu_set_profiling */
    emu_prof_out prof; /* the last dispatch's profile */
    int have_prof;     /* prof holds the last dispatch's */
    /* The host threads (emu/core/pool.c) and their worker records, kept across dispatches:
       no thread is created and no decode arena or wave record allocated per dispatch. */
    struct emu_pool *pool;
    emu_worker *wks;
    unsigned nwks;
};

/* ------------------------------------------------------------- faults */

/*
 * Stop the wave with a fault of `kind` at the current instruction; records
 * it for the dispatch (the lowest workgroup's first fault wins).
 */
void emu_fault(emu_wave *w, const emu_inst *in, rdx_emu_fault_kind kind, uint64_t addr, int write,
               unsigned lane, const char *what);

/*
 * A VM fault of the access [addr, addr+len) of lane `lane` (emu_fault with
 * RDX_EMU_FAULT_VM): the report names the nearest registered range and where
 * the access lies relative to it ("4 bytes past the end of the 16-byte
 * buffer at 0x...", see emu_mem_describe).
 */
void emu_vm_fault(emu_wave *w, const emu_inst *in, uint64_t addr, uint64_t len, int write,
                  unsigned lane);

/* Memory access check of the global/flat address space. */
static inline bool emu_mem_ok(emu_wave *w, uint64_t addr, uint64_t len, unsigned access);

/* --------------------------------------------------------- exec helpers */

static inline uint64_t emu_exec(const emu_wave *w)
{
    uint64_t e = w->s[EMU_EXEC];
    if (w->nl == 64)
        e |= (uint64_t)w->s[EMU_EXEC + 1] << 32;
    return e;
}

static inline void emu_set_exec(emu_wave *w, uint64_t e)
{
    w->s[EMU_EXEC] = (uint32_t)e;
    if (w->nl == 64)
        w->s[EMU_EXEC + 1] = (uint32_t)(e >> 32);
}

/* A lane mask in SGPR(s) starting at code `reg` (wave32: one SGPR). */
static inline uint64_t emu_sread_mask(const emu_wave *w, const emu_opnd *o)
{
    if (o->kind == EMU_K_CONST)
        return w->nl == 64 ? o->val : (uint32_t)o->val;
    if (o->kind != EMU_K_SGPR)
        return 0;
    uint64_t m = w->s[o->reg];
    if (w->nl == 64)
        m |= (uint64_t)w->s[o->reg + 1] << 32;
    return m;
}

static inline unsigned emu_sdst_reg(unsigned reg)
{
    return reg == EMU_NULL ? EMU_SINK : reg;
}

static inline void emu_swrite_mask(emu_wave *w, const emu_opnd *o, uint64_t m)
{
    if (o->kind != EMU_K_SGPR)
        return;
    unsigned r = emu_sdst_reg(o->reg);
    w->s[r] = (uint32_t)m;
    if (w->nl == 64)
        w->s[r == EMU_SINK ? EMU_SINK : r + 1] = (uint32_t)(m >> 32);
}

static inline unsigned emu_popcount(uint64_t x);

/* Refresh w->wm from EXEC (no DPP masking). */
static inline void emu_wm_exec(emu_wave *w)
{
    uint64_t e = emu_exec(w);
    if (e == w->wm_exec && !w->wm_dirty)
        return;
    w->wm_exec = e;
    w->wm_lanes = emu_popcount(e);
    w->wm_dirty = 0;
    for (unsigned l = 0; l < EMU_MAX_LANES; l++)
        w->wm[l] = (e >> l) & 1 ? ~0u : 0u;
}

/* Scalar value of a scalar-readable operand (32-bit). */
static inline uint32_t emu_s32(const emu_wave *w, const emu_opnd *o)
{
    switch (o->kind) {
    case EMU_K_SGPR:
        return w->s[o->reg];
    case EMU_K_CONST:
        return (uint32_t)o->val;
    case EMU_K_SCC:
        return w->scc;
    case EMU_K_VCCZ:
        return (w->s[EMU_VCC] | (w->nl == 64 ? w->s[EMU_VCC + 1] : 0)) == 0;
    case EMU_K_EXECZ:
        return emu_exec(w) == 0;
    default:
        return 0;
    }
}

static inline uint64_t emu_s64(const emu_wave *w, const emu_opnd *o)
{
    if (o->kind == EMU_K_SGPR)
        return w->s[o->reg] | (uint64_t)w->s[o->reg + 1] << 32;
    if (o->kind == EMU_K_CONST)
        return o->val;
    return emu_s32(w, o);
}

static inline void emu_swrite32(emu_wave *w, const emu_opnd *o, uint32_t v)
{
    if (o->kind == EMU_K_SGPR)
        w->s[emu_sdst_reg(o->reg)] = v;
}

static inline void emu_swrite64(emu_wave *w, const emu_opnd *o, uint64_t v)
{
    if (o->kind != EMU_K_SGPR)
        return;
    unsigned r = emu_sdst_reg(o->reg);
    w->s[r] = (uint32_t)v;
    w->s[r == EMU_SINK ? r : r + 1] = (uint32_t)(v >> 32);
}

/*
 * 32-bit per-lane source: a pointer to nl values (VGPR storage directly, or
 * `tmp` filled with a broadcast scalar / DPP-selected values).
 */
static inline const uint32_t *emu_v32(emu_wave *w, const emu_opnd *o, uint32_t *tmp)
{
    switch (o->kind) {
    case EMU_K_VGPR:
        return w->v[o->reg];
    case EMU_K_DPP:
        return w->dpp;
    case EMU_K_VHI:
        for (unsigned l = 0; l < w->nl; l++)
            tmp[l] = w->v[o->reg][l] >> 16;
        return tmp;
    default: {
        uint32_t x = emu_s32(w, o);
        for (unsigned l = 0; l < w->nl; l++)
            tmp[l] = x;
        return tmp;
    }
    }
}

/* 64-bit per-lane source into tmp. */
static inline void emu_v64(emu_wave *w, const emu_opnd *o, uint64_t *tmp)
{
    if (o->kind == EMU_K_VGPR || o->kind == EMU_K_DPP) {
        const uint32_t *lo = o->kind == EMU_K_DPP ? w->dpp : w->v[o->reg];
        const uint32_t *hi = w->v[(o->reg + 1) & 255];
        for (unsigned l = 0; l < w->nl; l++)
            tmp[l] = lo[l] | (uint64_t)hi[l] << 32;
    } else {
        uint64_t x = emu_s64(w, o);
        for (unsigned l = 0; l < w->nl; l++)
            tmp[l] = x;
    }
}

/* Write 32-bit lane results to VGPR dst under the write mask. */
static inline void emu_vwrite32(emu_wave *w, const emu_opnd *d, const uint32_t *r)
{
    if (d->kind != EMU_K_VGPR && d->kind != EMU_K_VHI)
        return;
    uint32_t *v = w->v[d->reg];
    if (d->kind == EMU_K_VHI) {
        for (unsigned l = 0; l < w->nl; l++)
            v[l] = (v[l] & ~(w->wm[l] & 0xffff0000u)) | ((r[l] << 16) & w->wm[l]);
        return;
    }
    for (unsigned l = 0; l < w->nl; l++)
        v[l] = (r[l] & w->wm[l]) | (v[l] & ~w->wm[l]);
}

/* Write the low 16 bits of r (or the high half when hi) preserving the other half. */
static inline void emu_vwrite16(emu_wave *w, const emu_opnd *d, const uint32_t *r, int hi)
{
    if (d->kind == EMU_K_VHI)
        hi = 1;
    if (d->kind != EMU_K_VGPR && d->kind != EMU_K_VHI)
        return;
    uint32_t *v = w->v[d->reg];
    uint32_t keep = hi ? 0x0000ffffu : 0xffff0000u;
    for (unsigned l = 0; l < w->nl; l++) {
        uint32_t nv = (v[l] & keep) | (hi ? (r[l] << 16) : (r[l] & 0xffffu));
        v[l] = (nv & w->wm[l]) | (v[l] & ~w->wm[l]);
    }
}

static inline void emu_vwrite64(emu_wave *w, const emu_opnd *d, const uint64_t *r)
{
    if (d->kind != EMU_K_VGPR)
        return;
    uint32_t *lo = w->v[d->reg], *hi = w->v[(d->reg + 1) & 255];
    for (unsigned l = 0; l < w->nl; l++) {
        lo[l] = ((uint32_t)r[l] & w->wm[l]) | (lo[l] & ~w->wm[l]);
        hi[l] = ((uint32_t)(r[l] >> 32) & w->wm[l]) | (hi[l] & ~w->wm[l]);
    }
}

/* Mask of lanes whose write mask is set (EXEC unless DPP disabled lanes). */
static inline uint64_t emu_wm_bits(const emu_wave *w)
{
    if (!w->wm_dirty)
        return w->wm_exec;
    uint64_t m = 0;
    for (unsigned l = 0; l < w->nl; l++)
        m |= (uint64_t)(w->wm[l] & 1) << l;
    return m;
}

/* Population count without a library call (the build targets baseline x86-64). */
static inline unsigned emu_popcount(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (unsigned)((x * 0x0101010101010101ull) >> 56);
}

/* Mode fields. */
static inline unsigned emu_round32(const emu_wave *w)
{
    return w->mode & 3;
}
static inline unsigned emu_denorm32(const emu_wave *w)
{
    return (w->mode >> 4) & 3;
}
static inline unsigned emu_denorm64(const emu_wave *w)
{
    return (w->mode >> 6) & 3;
}
static inline bool emu_ieee(const emu_wave *w)
{
    return (w->mode >> 9) & 1;
}
static inline bool emu_dx10(const emu_wave *w)
{
    return (w->mode >> 8) & 1;
}

/* Counters. */
static inline void emu_count_mem(emu_wave *w, uint64_t rd, uint64_t wr);
static inline void emu_count_lds(emu_wave *w, uint64_t bytes);

/* Cycle model: record an outstanding memory op finishing `lat` cycles from now. */
void emu_cycle_vm(emu_wave *w, unsigned lat);
void emu_cycle_lgkm(emu_wave *w, unsigned lat);

static inline bool emu_range_has(const emu_range *r, uint64_t addr, uint64_t len, unsigned access)
{
    return addr >= r->base && addr + len <= r->end && addr + len >= addr &&
           (r->access & access) == access;
}

static inline bool emu_mem_ok(emu_wave *w, uint64_t addr, uint64_t len, unsigned access)
{
    const emu_range *r = w->mr;
    if (r && emu_range_has(r, addr, len, access))
        return true;
    r = w->mr2;
    if (!r || !emu_range_has(r, addr, len, access)) {
        r = emu_mem_find(&w->wk->ctx->emu->mem, addr, len, access);
        if (!r)
            return false;
    }
    w->mr2 = w->mr;
    w->mr = r;
    return true;
}

static inline void emu_count_mem(emu_wave *w, uint64_t rd, uint64_t wr)
{
    w->wk->c.bytes_read += rd;
    w->wk->c.bytes_written += wr;
}

static inline void emu_count_lds(emu_wave *w, uint64_t bytes)
{
    w->wk->c.lds_bytes += bytes;
}

/*
 * Memory lines for the kernel estimate: emu_touch_begin once per memory
 * instruction, then emu_touch for each lane's global access of n bytes
 * (rw: 1 read, 2 write, 3 both; vec: a vector-memory access, counted as an
 * L0 line request each time the line differs from the previous lane's).
 */
static inline void emu_touch_begin(emu_wave *w)
{
    w->wk->line_last = UINT64_MAX;
}

static inline void emu_touch(emu_wave *w, uint64_t a, uint64_t n, unsigned rw, int vec)
{
    emu_worker *wk = w->wk;
    uint64_t l = a / EMU_DEV_LINE, e = (a + (n ? n - 1 : 0)) / EMU_DEV_LINE;
    for (;; l++) {
        if (l != wk->line_last) {
            wk->line_last = l;
            wk->c.l0_lines += (unsigned)vec;
            emu_lines_mark(&wk->lines, l, rw);
            if (wk->prof) /* scalar loads: bit 2, straight to the L2 model */
                emu_prof_line(wk->prof, l, rw | (vec ? 0u : 4u));
        }
        if (l >= e)
            break;
    }
}

/*
 * emu_touch for a whole vector-memory instruction whose active lanes access
 * n bytes at a[l] within [lo, hi + n): when that spans at most 64 lines,
 * counts the distinct lines (one L0 request each) from a bit mask; else lane
 * by lane as emu_touch.
 */
static inline void emu_touch_lanes(emu_wave *w, const uint64_t *a, uint64_t exec, unsigned n,
                                   uint64_t lo, uint64_t hi, unsigned rw)
{
    uint64_t b = lo / EMU_DEV_LINE, e = (hi + n - 1) / EMU_DEV_LINE;
    if (e - b >= 64) {
        emu_touch_begin(w);
        for (unsigned l = 0; l < w->nl; l++)
            if ((exec >> l) & 1)
                emu_touch(w, a[l], n, rw, 1);
        return;
    }
    uint64_t m = 0;
    if (e - b <= 1) /* lo is in line b and hi + n - 1 in line e: both touched, nothing else */
        m = e == b ? 1 : 3;
    else
        for (unsigned l = 0; l < w->nl; l++)
            if ((exec >> l) & 1)
                m |= 1ull << (a[l] / EMU_DEV_LINE - b) | 1ull
                                                             << ((a[l] + n - 1) / EMU_DEV_LINE - b);
    w->wk->c.l0_lines += emu_popcount(m);
    for (; m; m &= m - 1) {
        emu_lines_mark(&w->wk->lines, b + (unsigned)__builtin_ctzll(m), rw);
        if (w->wk->prof)
            emu_prof_line(w->wk->prof, b + (unsigned)__builtin_ctzll(m), rw);
    }
}

/* Mnemonic of an op id for reports. */
const char *emu_op_name(unsigned op);

#endif /* RDX_EMU_CORE_INT_H */
