/*
 * emu/core/model.h — the kernel-level time estimate of a dispatch
 * (rdx_emu_counters.est_*): the emulated target's topology, the per-wave
 * and per-workgroup records the wave loop leaves, the set of 128-byte
 * memory lines a dispatch touched, and the model that turns them into one
 * figure (docs/emu.md "Kernel time estimate" describes it exactly).
 */
#ifndef RDX_EMU_CORE_MODEL_H
#define RDX_EMU_CORE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/emu.h>
#include <rdx/emu_prof.h>

/*
 * The chip the model runs on: the emulated target's own shape, from emu/dev/target.c's
 * per-chip table (the one source: the emulated sysfs topology reads it too): CUs, SIMD32s
 * per CU, wave slots per SIMD, the VGPR file per SIMD lane (1536 or 1024 entries in
 * wave32), LDS per CU, the engine clock and the DRAM bandwidth (GDDR6: 16 transfers per
 * memory clock; LPDDR5X of the APUs: 2) per engine clock.  Occupancy rules: LLVM
 * AMDGPUBaseInfo.cpp (getMaxWavesPerEU 16 on GFX10.3+, getTotalNumVGPRs, the allocation
 * granule getVGPRAllocGranule = total / 64 in wave32: 24 of 1536, 16 of 1024, half of both
 * in wave64, getEUsPerCU = 4 SIMDs per WGP in WGP mode / 2 in CU mode,
 * getLocalMemorySize = the CU's LDS doubled in WGP mode, getMaxWorkGroupsPerCU: 16
 * barriers per CU, 32 in WGP mode, none used by single-wave groups); AMDGPUUsage (LDS in
 * 128-dword blocks).
 */
typedef struct emu_chip {
    char name[16];
    unsigned cus, simds_per_cu, waves_per_simd;
    unsigned vgprs_per_simd; /* wave32 entries per lane: 1536 or 1024 */
    unsigned lds_per_cu;     /* bytes */
    unsigned clock_mhz;      /* engine clock (the model counts its clocks) */
    double dram_bpc;         /* DRAM bytes per engine clock */
    int gfx12;               /* RDNA4: its timing constants (emu/core/timing.def) */
} emu_chip;

/* The chip of a target (emu/dev/target.c); gfx1100's for a name the table has not. */
void emu_chip_of(const char *target, emu_chip *out);

#define EMU_DEV_LDS_GRANULE 512u
#define EMU_DEV_BARRIERS_CU 16u
#define EMU_DEV_LINE        128u /* L2 / memory line bytes */
/* Per CU and engine clock, on every RDNA3/RDNA4 chip: the vector L0 cache returns one
 * 128-byte line and the LDS 32 banks x 4 bytes (RDNA whitepaper). */
#define EMU_DEV_L0_BPC  128u
#define EMU_DEV_LDS_BPC 128u

/* Above this many waves in one dispatch no per-wave records are kept and the
 * closed-form fallback of the model is used (docs/emu.md). */
#define EMU_MODEL_MAX_WAVES (1u << 24)

/* What one wave left: issue cycles and total cycles (issue + waiting). */
typedef struct emu_wrec {
    uint64_t issue, cycles;
} emu_wrec;

/* Where and when the replay ran one wave (the profile's timeline, rdx/emu_prof.h). */
typedef struct emu_wtime {
    double start, end;   /* clocks from the dispatch's start */
    uint64_t cycles;     /* the wave's T */
    uint32_t unit, simd; /* WGP (CU) and SIMD in it */
    int ran;
} emu_wtime;

/* What one workgroup left. */
typedef struct emu_grec {
    uint32_t nwaves;   /* 0: the group did not run (fault) */
    uint64_t l0_lines; /* vector-memory line requests (see emu_touch) */
    uint64_t lds_bytes;
} emu_grec;

/* ------------------------------------------------- touched memory lines */

/* One 4 MiB stretch of memory: a read bit and a write bit per 128-byte line. */
#define EMU_LCHUNK_SHIFT 15 /* lines per chunk = 2^15 */
typedef struct emu_lchunk {
    uint64_t key; /* line >> EMU_LCHUNK_SHIFT */
    uint64_t rd[1u << (EMU_LCHUNK_SHIFT - 6)], wr[1u << (EMU_LCHUNK_SHIFT - 6)];
} emu_lchunk;

/* A set of lines (per host thread; merged after the dispatch). */
typedef struct emu_lines {
    emu_lchunk **slot; /* open addressing by key; cap is a power of two */
    size_t cap, n;
    emu_lchunk *last;
    int oom; /* a chunk could not be allocated: its lines are not counted */
} emu_lines;

/* Mark `line` read (rw bit 0) and/or written (rw bit 1): emu_lines_mark_slow
   when it is not in the last chunk used. */
void emu_lines_mark_slow(emu_lines *t, uint64_t line, unsigned rw);
static inline void emu_lines_mark(emu_lines *t, uint64_t line, unsigned rw)
{
    emu_lchunk *c = t->last;
    if (!c || c->key != line >> EMU_LCHUNK_SHIFT) {
        emu_lines_mark_slow(t, line, rw);
        return;
    }
    unsigned i = (unsigned)(line & ((1u << EMU_LCHUNK_SHIFT) - 1));
    uint64_t bit = 1ull << (i & 63);
    if (rw & 1)
        c->rd[i >> 6] |= bit;
    if (rw & 2)
        c->wr[i >> 6] |= bit;
}
/* Free everything (the struct itself is the caller's). */
void emu_lines_free(emu_lines *t);
/*
 * Lines read and lines written in the union of the n sets (each line counted
 * once per direction however many sets hold it).
 */
void emu_lines_count(emu_lines *const *sets, unsigned n, uint64_t *rd, uint64_t *wr);

/* ------------------------------------------------------------ the model */

typedef struct emu_model_in {
    const emu_chip *chip;  /* the target's (NULL: gfx1100's) */
    unsigned nl;           /* wave size */
    unsigned vgprs;        /* VGPRs per wave from rsrc1 (granules x 8 or x 4) */
    unsigned lds;          /* LDS bytes per workgroup */
    int wgp_mode;          /* rsrc1 bit 29 */
    unsigned maxwaves;     /* waves of a full workgroup: stride of w */
    uint64_t ngroups;      /* workgroups in the grid (linear ids) */
    const emu_wrec *w;     /* ngroups * maxwaves records, or NULL (fallback) */
    const emu_grec *g;     /* ngroups records, or NULL (fallback) */
    uint64_t issue, total; /* sums over all waves (the fallback's inputs) */
    uint64_t waves, l0_lines, lds_bytes;
    uint64_t dram_rd_lines, dram_wr_lines;
    emu_wtime *times; /* NULL, or ngroups * maxwaves placements to fill (with w and g) */
    double *terms;    /* NULL, or 5 figures to fill: compute, issue, l0, lds, dram */
} emu_model_in;

/* Fill C->est_* from `in`.  Deterministic: a function of `in` only. */
void emu_model_run(const emu_model_in *in, rdx_emu_counters *C);

/* Waves per SIMD the VGPR budget allows on chip c (LLVM getNumWavesPerEUWithNumVGPRs). */
unsigned emu_model_waves_per_simd(const emu_chip *c, unsigned nl, unsigned vgprs);

/* The occupancy of a dispatch on chip c (rdx/emu_prof.h, docs/prof.md "Occupancy"): the one
   computation of it, which the replay (est_waves_per_simd, est_groups_per_wgp) and the
   profile's report both use.  k = waves of a full workgroup. */
void emu_model_occupancy(const emu_chip *c, unsigned nl, unsigned vgprs, unsigned lds, int wgp_mode,
                         unsigned k, rdx_emu_occupancy *o);

#endif /* RDX_EMU_CORE_MODEL_H */
