/*
 * emu/core/prof.h — the profile of a dispatch (rdx/emu_prof.h) while it runs:
 * per host thread, a record per PC (count, lanes, issue and stall cycles by
 * reason, LDS bank conflicts, L0 model hits) and the L0 model's state; per
 * dispatch, the stall split of every wave.  The wave loop (exec.c) calls the
 * hooks below only when profiling is on (emu_worker.prof != NULL), so a
 * dispatch without it pays one test per instruction.  docs/prof.md is the
 * specification of the figures.
 */
#ifndef RDX_EMU_CORE_PROF_H
#define RDX_EMU_CORE_PROF_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/emu_prof.h>

#include "emu/core/model.h"

/* Dispatches of more waves keep no per-wave profile. */
#define EMU_PROF_MAX_WAVES (1u << 20)
/* Instructions of the instruction trace. */
#define EMU_PROF_MAX_TRACE (1u << 20)

/* The vector L0 model: 32 KiB of 128-byte lines, 4-way set associative, LRU. */
#define EMU_PROF_L0_WAYS 4u
#define EMU_PROF_L0_SETS 64u

/* How the cycles of an instruction are classified (set once per PC). */
enum { EMU_PK_PLAIN, EMU_PK_NOP, EMU_PK_DELAY, EMU_PK_SLEEP, EMU_PK_BRANCH };

typedef struct emu_prof_rec {
    rdx_emu_prof_pc p;
    uint8_t used, kind;
} emu_prof_rec;

/* A wave's issue cycles and stalls (per dispatch, group-major). */
typedef struct emu_prof_wst {
    uint64_t issue, stall[RDX_EMU_STALL_COUNT];
} emu_prof_wst;

typedef struct emu_prof_wk {
    uint64_t lo;       /* PC of rec[0] */
    size_t n;          /* records in the window [lo, lo + 4n) */
    emu_prof_rec *rec; /* NULL until the first instruction */
    int oom;           /* a record could not be allocated: the profile is incomplete */
    emu_prof_rec *cur; /* the instruction running */
    uint64_t c0, vm, lgkm;
    emu_prof_wst *wst; /* the current group's waves, or NULL */
    struct emu_prof_disp *disp;
    int tracing;       /* the current group is traced (workgroup 0) */
    size_t trace_last; /* the record of the instruction running */
    uint64_t l0_tag[EMU_PROF_L0_SETS * EMU_PROF_L0_WAYS];
    uint32_t l0_age[EMU_PROF_L0_SETS * EMU_PROF_L0_WAYS];
    uint32_t l0_clock;
    uint64_t l0_hits, l0_misses, l2_direct, lds_insts, lds_conflicts;
} emu_prof_wk;

typedef struct emu_prof_disp {
    unsigned maxwaves;
    uint64_t ngroups;
    emu_prof_wst *wst;        /* ngroups * maxwaves, or NULL */
    emu_wtime *times;         /* the model's wave placement, same indexing, or NULL */
    double terms[5];          /* the model's figures (emu_model_in.terms) */
    emu_prof_wk *wks;         /* one per host thread */
    rdx_emu_prof_inst *trace; /* workgroup 0's instructions (one thread writes them) */
    size_t ntrace, trace_cap;
    int trace_truncated;
    unsigned nwk;
} emu_prof_disp;

/* The profile as the emulator keeps it after the dispatch (arrays owned). */
typedef struct emu_prof_out {
    rdx_emu_profile p;
    rdx_emu_prof_pc *pcs;
    rdx_emu_prof_wave *waves;
    rdx_emu_prof_inst *trace;
} emu_prof_out;

struct emu_wave;
struct emu_inst;

/* Per-dispatch state for nwk host threads; NULL when out of memory. */
emu_prof_disp *emu_prof_disp_create(uint64_t ngroups, unsigned maxwaves, unsigned nwk);
void emu_prof_disp_free(emu_prof_disp *d);

/* Group g starts on this thread: the L0 model is emptied. */
void emu_prof_group(emu_prof_disp *d, emu_prof_wk *pf, uint64_t g);
/* Before an instruction's issue cycles are added / after it ran (cyc = its issue cycles):
   the general paths of emu_prof_begin / emu_prof_end (emu/core/prof_inline.h). */
void emu_prof_begin_slow(emu_prof_wk *pf, const struct emu_wave *w, const struct emu_inst *in);
void emu_prof_end_slow(emu_prof_wk *pf, const struct emu_wave *w, unsigned cyc);
/* s_waitcnt advanced the clock by vm (vmcnt) and lgkm (lgkmcnt) cycles. */
static inline void emu_prof_wait(emu_prof_wk *pf, uint64_t vm, uint64_t lgkm)
{
    pf->vm += vm;
    pf->lgkm += lgkm;
}
/* A wave released from s_barrier (at pc - 4) waited d cycles. */
void emu_prof_barrier(emu_prof_wk *pf, const struct emu_wave *w, uint64_t d);
/* A line request (rw bit 0 read, bit 1 write, bit 2 scalar rather than vector memory). */
void emu_prof_line(emu_prof_wk *pf, uint64_t line, unsigned rw);
/* A DS instruction's bank-conflict cycles. */
static inline void emu_prof_lds(emu_prof_wk *pf, uint64_t conflicts)
{
    pf->lds_insts++;
    pf->lds_conflicts += conflicts;
    if (pf->cur)
        pf->cur->p.lds_conflicts += conflicts;
}

/*
 * The profile of the dispatch into *out (replacing what it held): the
 * threads' records merged by PC, the waves with the model's placement
 * (d->times, filled by emu_model_run), the L2 model from the DRAM lines.
 */
int emu_prof_collect(const emu_prof_disp *d, uint64_t code, const rdx_emu_counters *C,
                     const rdx_emu_profile *shape, emu_prof_out *out);
void emu_prof_out_free(emu_prof_out *o);

#endif /* RDX_EMU_CORE_PROF_H */
