/*
 * rdx/emu_prof.h — the emulator's profile of a dispatch: per-PC execution
 * counts, issue cycles and stall cycles split by reason, each wave's
 * lifetime on its SIMD from the kernel time model, LDS bank conflicts and
 * the hit rates of a simple cache model (docs/prof.md describes every
 * figure and which are model, which are counts).  `rdx prof` prints it.
 *
 *     rdx_emu_set_profiling(emu, 1);
 *     rdx_emu_run(emu, &d);                       // or rdx_emu_run_codeobj
 *     const rdx_emu_profile *p = rdx_emu_get_profile(emu);
 *
 * Every figure is deterministic: identical for any number of host threads.
 */
#ifndef RDX_EMU_PROF_H
#define RDX_EMU_PROF_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/emu.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Why a wave's clock advanced beyond issuing (docs/prof.md "Stall reasons"). */
#define RDX_EMU_STALL_LIST(X) \
    X(VMCNT, "vmcnt")         \
    X(LGKMCNT, "lgkmcnt")     \
    X(DEPEND, "depend")       \
    X(BARRIER, "barrier")     \
    X(HAZARD, "hazard")       \
    X(BRANCH, "branch")       \
    X(SLEEP, "sleep")

typedef enum rdx_emu_stall {
#define RDX_EMU_STALL_ENUM_(n, s) RDX_EMU_STALL_##n,
    RDX_EMU_STALL_LIST(RDX_EMU_STALL_ENUM_)
#undef RDX_EMU_STALL_ENUM_
        RDX_EMU_STALL_COUNT
} rdx_emu_stall;

/* Name of a stall reason ("vmcnt", ...); "?" when out of range. */
const char *rdx_emu_stall_name(rdx_emu_stall s);

/* One PC of the dispatch's code: what every wave that executed it spent there. */
typedef struct rdx_emu_prof_pc {
    uint64_t pc;
    uint32_t op;                         /* rdx_isa op id */
    uint32_t cls;                        /* rdx_emu_class */
    uint64_t count;                      /* wave-instructions executed at pc */
    uint64_t lanes;                      /* active lanes (EXEC bits) summed over those executions */
    uint64_t issue;                      /* issue cycles (the wave model's class table) */
    uint64_t stall[RDX_EMU_STALL_COUNT]; /* stall cycles by reason */
    uint64_t lds_conflicts;              /* extra LDS cycles from bank conflicts (DS only) */
    uint64_t l0_hits, l0_misses;         /* vector L0 model: line requests that hit / missed */
} rdx_emu_prof_pc;

/* One wave as the timing model ran it. */
typedef struct rdx_emu_prof_wave {
    uint64_t group;      /* linear workgroup id (x fastest) */
    uint32_t wave;       /* wave index in the group */
    uint32_t unit, simd; /* the WGP (CU in CU mode) and its SIMD the replay put it on */
    double start, end;   /* engine clocks from the dispatch's start (kernel time model) */
    uint64_t issue;      /* the wave model's issue cycles */
    uint64_t cycles;     /* the wave model's cycles = issue + the stalls */
    uint64_t stall[RDX_EMU_STALL_COUNT];
} rdx_emu_prof_wave;

/* One instruction of the instruction trace (the waves of workgroup 0, in issue order per
   wave): what an SQ thread trace records on a card (rdx/sqtt.h encodes it in the
   hardware's token format). */
typedef struct rdx_emu_prof_inst {
    uint64_t pc;
    uint64_t next_pc; /* the PC the wave went on at (a taken branch: not pc + size) */
    uint64_t cycle;   /* the wave model's clock when it issued (cycles since the wave's first
                         instruction; for one that waited, s_waitcnt or a dependency, when
                         the wait was over) */
    uint32_t wave;    /* wave index in workgroup 0 */
    uint32_t op;      /* rdx_isa op id */
    uint32_t cls;     /* rdx_emu_class */
} rdx_emu_prof_inst;

/* The profile of the last dispatch run with profiling on. */
typedef struct rdx_emu_profile {
    char target[16];      /* the emulator's target ("gfx1100"): the chip of the estimate */
    uint64_t code;        /* address of the dispatch's first instruction */
    uint32_t wave_size;   /* 32 or 64 */
    uint32_t vgprs;       /* VGPRs per wave (rsrc1 granules) */
    uint32_t sgprs;       /* SGPRs per wave the descriptor asks for (rsrc1; gfx11 ignores it) */
    uint32_t lds_bytes;   /* LDS per workgroup */
    uint32_t group_waves; /* waves of a full workgroup */
    uint32_t scratch;     /* scratch bytes per lane */
    int wgp_mode;         /* rsrc1 bit 29 */
    size_t npc;
    const rdx_emu_prof_pc *pcs; /* sorted by pc */
    /* Per wave, group-major; empty for dispatches of more than 2^20 waves. */
    size_t nwaves;
    const rdx_emu_prof_wave *waves;
    /* The instruction trace of workgroup 0's waves (at most 2^20 instructions; ntrace
       counts them, trace_truncated says some were dropped). */
    size_t ntrace;
    const rdx_emu_prof_inst *trace;
    int trace_truncated;
    uint64_t issue, stall[RDX_EMU_STALL_COUNT]; /* sums over all waves (= counters.cycles) */
    uint64_t lds_insts;                         /* DS instructions that accessed LDS memory */
    uint64_t lds_conflicts;                     /* extra cycles from bank conflicts, summed */
    uint64_t l0_hits, l0_misses;                /* vector L0 model (per workgroup, docs/prof.md) */
    uint64_t l2_hits, l2_misses;                /* L2 model: misses = the DRAM lines (ideal L2) */
    /* The terms of the kernel time estimate (docs/emu.md), engine clocks: the replay of
       the waves on the busiest unit, the busiest SIMD's issue cycles, the L0, LDS and
       DRAM bandwidth bounds; est_kernel_cycles is the largest. */
    double model_compute, model_issue, model_l0, model_lds, model_dram;
} rdx_emu_profile;

/* Turn profiling of the following dispatches on (1) or off (0, the default). */
void rdx_emu_set_profiling(rdx_emu *emu, int on);

/* The profile of the last dispatch, or NULL when it ran without profiling (or none ran).
   Owned by emu, valid until the next dispatch or destroy. */
const rdx_emu_profile *rdx_emu_get_profile(const rdx_emu *emu);

/* Occupancy of a dispatch and what limits it (docs/prof.md "Occupancy"). */
typedef enum rdx_emu_occ_limit {
    RDX_EMU_OCC_WAVE_SLOTS = 0, /* 16 waves per SIMD: nothing else limits */
    RDX_EMU_OCC_VGPRS,
    RDX_EMU_OCC_LDS,
    RDX_EMU_OCC_BARRIERS,
    RDX_EMU_OCC_GROUP_SIZE, /* whole workgroups do not fill the SIMDs' wave slots */
} rdx_emu_occ_limit;

typedef struct rdx_emu_occupancy {
    uint32_t waves_per_simd;  /* resident waves per SIMD (whole groups) */
    uint32_t groups_per_unit; /* resident workgroups per WGP (CU in CU mode) */
    rdx_emu_occ_limit limit;
    /* Per limit: the waves per SIMD it alone allows (16 = no limit). */
    uint32_t by_vgprs, by_lds, by_barriers, by_slots;
    /* For one more wave per SIMD (0 when not possible by that resource): the most VGPRs,
       the most LDS bytes per group that would allow it. */
    uint32_t vgprs_for_more, lds_for_more;
} rdx_emu_occupancy;

/* Name of an occupancy limit ("wave slots", "VGPRs", "LDS", "barriers", "workgroup size"). */
const char *rdx_emu_occ_limit_name(rdx_emu_occ_limit l);

/* The occupancy of profile p's dispatch on its target's chip (the kernel time model's rules
   and computation, docs/emu.md). */
void rdx_emu_occupancy_of(const rdx_emu_profile *p, rdx_emu_occupancy *out);

/* The engine clock in MHz of `target`'s chip (emu/dev/target.c's max_clk_mhz: 2482 on
   gfx1100, 2900 on gfx1151, ...), the clock the kernel time model of that target counts:
   est_kernel_cycles / this = microseconds.  gfx1100's for NULL or a target the emulator
   does not know. */
unsigned rdx_emu_clock_mhz(const char *target);

#ifdef __cplusplus
}
#endif

#endif /* RDX_EMU_PROF_H */
