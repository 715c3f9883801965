/*
 * emu/core/model.h — the kernel-level time estimate of a dispatch
 * (rdx_emu_counters.est_*): the emulated gfx1100's topology, the per-wave
 * and per-workgroup records the wave loop leaves, the set of 128-byte
 * memory lines a dispatch touched, and the model that turns them into one
 * figure (docs/emu.md "Kernel time estimate" describes it exactly).
 */
#ifndef RDX_EMU_CORE_MODEL_H
#define RDX_EMU_CORE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/emu.h>

/*
 * gfx1100 (Navi 31, RX 7900 XTX) as the model sees it.  Sources: AMD's
 * Navi 31 configuration (96 CUs = 48 WGPs in 6 shader engines, 960 GB/s
 * GDDR6, 2.5 GHz engine clock); LLVM AMDGPUBaseInfo.cpp for the occupancy
 * rules (getMaxWavesPerEU = 16 on GFX10.3+, getTotalNumVGPRs = 1536/768
 * and getVGPRAllocGranule = 24/12 for wave32/wave64 with 1.5x VGPRs,
 * getEUsPerCU = 4 SIMDs per WGP in WGP mode / 2 in CU mode,
 * getLocalMemorySize = 64 KiB per CU doubled in WGP mode,
 * getMaxWorkGroupsPerCU: 16 barriers per CU, 32 in WGP mode, none used by
 * single-wave groups); AMDGPUUsage (LDS allocated in 128-dword blocks).
 */
#define EMU_DEV_CUS            96u
#define EMU_DEV_SIMDS_PER_CU   2u
#define EMU_DEV_WAVES_PER_SIMD 16u
#define EMU_DEV_LDS_PER_CU     65536u
#define EMU_DEV_LDS_GRANULE    512u
#define EMU_DEV_BARRIERS_CU    16u
#define EMU_DEV_LINE           128u /* L2 / memory line bytes */
/* Bandwidths in bytes per engine clock: 960e9 B/s / 2.5e9 clk/s = 384 for
 * DRAM; the vector L0 cache returns one 128-byte line and the LDS 32 banks x
 * 4 bytes per clock per CU (RDNA whitepaper). */
#define EMU_DEV_DRAM_BPC 384u
#define EMU_DEV_L0_BPC   128u
#define EMU_DEV_LDS_BPC  128u

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

/* Waves per SIMD the VGPR budget allows (LLVM getNumWavesPerEUWithNumVGPRs). */
unsigned emu_model_waves_per_simd(unsigned nl, unsigned vgprs);

#endif /* RDX_EMU_CORE_MODEL_H */
