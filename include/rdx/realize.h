/*
 * rdx/realize.h — running tensor programs on a GPU: the whole schedule of a
 * tensor graph compiled by rdx's code generator (rdx/codegen_front.h,
 * rdx/codegen.h) and run through the runtime (rdx/runtime.h) on a device —
 * a real card or the emulated gfx1100.  docs/realize.md explains it.
 *
 *   rdx_device *dev;  rdx_device_open(NULL, &dev);
 *   rdx_array out[3];
 *   rdx_realize_report *rep;
 *   if (rdx_tensor_realize_on(g, dev, roots, 3, NULL, out, &rep)) puts(rdx_error_message());
 *   rdx_realize_report_print(rep, stdout);        // per-kernel times, memory plan
 *   rdx_realize_report_free(rep);
 *   rdx_graph_destroy(g);                         // frees the out[] arrays too
 *   rdx_device_close(dev);
 *
 * What happens: callify + rangeify (rdx_cg_schedule) split the graph into
 * kernels; the schedule's buffers get one device arena laid out by the
 * memory plan (rdx_schedule_plan_memory: temporaries whose lifetimes do not
 * overlap share memory); inputs (the data bound to the graph's BUFFERs) are
 * uploaded; each kernel is optimized (heuristics, BEAM or none), compiled
 * to a code object for the device's target (rdx_device_info.target), loaded and
 * dispatched on a compute queue, in
 * schedule order, waiting for each (so every dispatch has its own GPU
 * timestamps); the outputs are downloaded.
 */
#ifndef RDX_REALIZE_H
#define RDX_REALIZE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rdx/alloc.h>
#include <rdx/codegen.h>
#include <rdx/codegen_front.h>
#include <rdx/interp.h>
#include <rdx/ir.h>
#include <rdx/emu.h>
#include <rdx/runtime.h>
#include <rdx/status.h>
#include <rdx/tensor.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Options (zero-initialise; every field has a default; NULL options = all defaults). */
typedef struct rdx_realize_options {
    int raw;                /* 1: no OptOps (kernels as rangeify made them) */
    unsigned beam;          /* BEAM width 1..16: search OptOps instead of the heuristics; 0 = no */
    unsigned beam_steps;    /* opts per BEAM sequence (0: the search's default) */
    const char *beam_cache; /* BEAM cache file, or NULL (the in-process cache only) */
    FILE *beam_progress;    /* BEAM progress lines, or NULL */
    /* BEAM cost: 0 = the wave emulator's kernel time estimate on the emulated GPU and the
     * dispatch's GPU timestamps on a real card; 1 = GPU timestamps on any device. */
    int beam_on_device;
    double beam_time;   /* BEAM: wall-time limit of each kernel's search in seconds (0: none) */
    double beam_budget; /* BEAM: a candidate's run stops past this x the best cost (0: 3; >= 1;
                           < 0: no budget), see rdx_beam_opts */
    /* 1: on the emulated GPU, also run each kernel once on the wave emulator (rdx/emu.h)
     * on a copy of its buffers, for its estimated cycles and wave-instructions
     * (rdx_realize_kernel.est_cycles); ignored on a real card. */
    int profile;
    /* With profile: called after each kernel's run on the wave emulator, which then runs
     * with profiling on (rdx/emu_prof.h): emu holds its counters (rdx_emu_get_counters) and
     * profile (rdx_emu_get_profile), elf is the kernel's code object, grid and wg the
     * launch in work-items.  `rdx prof` uses it.  NULL: no profiling. */
    void (*profile_hook)(void *user, size_t kernel, const char *name, const rdx_emu *emu,
                         const void *elf, size_t elf_size, const uint32_t grid[3],
                         const uint32_t wg[3]);
    void *profile_user;
    int keep_isa; /* 1: keep each kernel's assembly (rdx_realize_kernel.isa) */
    /* Back-end stages whose text to keep per kernel: bits 1 << RDX_CG_STAGE_* (isel,
     * linear, regalloc, asm; rdx/codegen.h) into rdx_realize_kernel.stage_text. */
    unsigned keep_stages;
    FILE *log;                    /* one line per kernel as it completes, or NULL */
    const char *const *var_names; /* values of the DEFINE_VARs (symbolic sizes), by name */
    const int64_t *var_values;
    size_t nvars;
    uint32_t timeout_ms; /* per dispatch (0: 600000) */
} rdx_realize_options;

#define RDX_REALIZE_MAX_OPTS 16

/* One kernel of the schedule as it ran. */
typedef struct rdx_realize_kernel {
    char name[48];                      /* the schedule's name ("r_8_4", "E_64") */
    uint32_t nparams;                   /* buffers it reads and writes */
    uint32_t global[3], block[3];       /* dispatch: work-items and workgroup size */
    uint32_t num_sgprs, num_vgprs;      /* registers per wave */
    uint32_t lds_bytes, code_bytes;     /* static LDS, machine code */
    size_t nopts;                       /* OptOps applied (heuristics or BEAM) */
    rdx_opt opts[RDX_REALIZE_MAX_OPTS]; /* in order */
    double compile_ms;                  /* host time: optimize + compile */
    uint64_t gpu_ns;                    /* GPU time of the dispatch (its two timestamps) */
    uint64_t est_cycles, wave_insts;    /* the wave emulator's estimate (profile), else 0 */
    uint64_t est_kernel_cycles; /* its kernel time estimate (rdx_emu_counters, profile), else 0 */
    char *stage_text[RDX_CG_STAGE_COUNT]; /* kept stages (keep_stages), else NULL */
    const char *isa; /* the assembly, stage_text[RDX_CG_STAGE_ASM] (keep_isa), else NULL */
} rdx_realize_kernel;

/* What a realization did.  Free with rdx_realize_report_free. */
typedef struct rdx_realize_report {
    char device[96]; /* "emu gfx1100 (<name>)" / "linux gfx1100 (<name>)" */
    char os[16];     /* rdx_device_info.os_name: "emu" (the emulated GPU) or "linux" */
    int emulated;    /* the device is the emulated GPU */
    size_t nkernels;
    rdx_realize_kernel *kernels; /* schedule order */
    size_t nbuffers;             /* schedule buffers (inputs, outputs, temporaries) */
    rdx_plan_stats memory;       /* memory.arena = peak bytes with reuse, memory.no_reuse */
    uint64_t total_ns, total_cycles, total_wave_insts;
    uint64_t total_kernel_cycles; /* sum of est_kernel_cycles */
    double compile_ms;
} rdx_realize_report;

/* The result of rdx_realize_run: output arrays (data owned here) and the report. */
typedef struct rdx_realize_result {
    size_t noutputs;
    rdx_array *outputs; /* one per root, row-major in the root's shape */
    rdx_realize_report *report;
} rdx_realize_result;

/*
 * Realize roots[0..n) (tensor-level UOps in ctx, e.g. parsed from text) on
 * `dev`.  The data of each input BUFFER/PARAM is the data bound to it in
 * `inputs` (rdx_interp_bind; NULL or unbound: zeros); DEFINE_VARs take the
 * values named in opt.  New nodes are built in ctx.  Inputs an assignment
 * writes in place are changed on the device only.  On success *out is the
 * caller's (rdx_realize_result_free).  Errors: RDX_ERR_INVALID (NULL device,
 * ctx or roots, a variable with no value or outside its range, an input
 * whose bound data has the wrong size — the message names the slot),
 * RDX_ERR_UNSUPPORTED naming the kernel and the op/dtype the code generator
 * cannot lower, the runtime's errors (faults, timeouts) naming the kernel.
 * Nothing is left allocated on failure; the device stays usable.
 */
rdx_status rdx_realize_run(rdx_ir_ctx *ctx, const rdx_interp *inputs, rdx_device *dev,
                           const rdx_uop *const *roots, size_t n, const rdx_realize_options *opt,
                           rdx_realize_result **out);
/* Free a result: its arrays and report.  NULL is a no-op. */
void rdx_realize_result_free(rdx_realize_result *r);

/*
 * rdx_tensor_realize on a device: tensors ts[0..n) of graph g (data given
 * with rdx_tensor_from_data or bound in rdx_graph_interp(g)) compiled and
 * run on dev as rdx_realize_run does.  out[0..n) are filled like the
 * interpreter's (rdx_tensor_realize): their data belongs to the graph and is
 * freed by rdx_graph_destroy (each call keeps its results until then: they are
 * held as the data of new BUFFERs of the graph, which rdx_interp_release does
 * not free).  report (may be NULL) receives the report,
 * the caller's (rdx_realize_report_free).  A graph with a recorded error
 * refuses (that status); a NULL tensor or device is RDX_ERR_INVALID;
 * otherwise the errors of rdx_realize_run.  Failures are not recorded in the
 * graph: it stays usable (e.g. for rdx_tensor_realize).
 */
rdx_status rdx_tensor_realize_on(rdx_graph *g, rdx_device *dev, const rdx_tensor *const *ts,
                                 size_t n, const rdx_realize_options *opt, rdx_array *out,
                                 rdx_realize_report **report);

/* Free a report (and its ISA texts).  NULL is a no-op. */
void rdx_realize_report_free(rdx_realize_report *r);

/*
 * Print the report: one line per kernel (name, GPU time, and on the emulated
 * GPU with profile the estimated cycles and wave-instructions; registers),
 * the totals, and the memory plan (peak with reuse vs no reuse).
 */
void rdx_realize_report_print(const rdx_realize_report *r, FILE *f);

/*
 * Compare got with want element by element: integers and bools exactly,
 * floats within rtol relative to max(|want|, 1) (NaN equals NaN).  Returns
 * the number of elements that differ (an element count mismatch counts every
 * element); *first (may be NULL) the first differing element, or -1.
 */
int64_t rdx_realize_compare(const rdx_array *want, const rdx_array *got, double rtol,
                            int64_t *first);

/* What rdx_realize_emu_run measured (the emulator's counters, docs/emu.md). */
typedef struct rdx_realize_emu_stats {
    uint64_t cycles;         /* estimated cycles, summed over waves */
    uint64_t wave_insts;     /* wave-instructions executed */
    uint64_t kernel_cycles;  /* kernel time estimate (occupancy, bandwidth) */
    uint64_t lds_misaligned; /* DS lane accesses not naturally aligned (rdx_emu_counters) */
} rdx_realize_emu_stats;

/*
 * Run compiled kernel k (rdx_codegen_compile) once on a private wave emulator
 * (rdx/emu.h, of k->target) with its arguments bound by b (rdx_codegen_bind_args):
 * the emulator's memory is the host's, so b->ptrs[s] are host addresses; the
 * memory of each buffer argument (PARAM slot s) is registered read/write for
 * sizes[s] bytes (sizes has b->nptrs entries; an access outside the
 * registered memory is a fault).  The grid comes from the variables' values
 * (rdx_codegen_launch).  budget: wave-instructions one wave may run before
 * the emulator reports a hang (0: the emulator's default).  *stats (may be
 * NULL) receives the emulator's estimated cycles, wave-instructions and kernel
 * time estimate (rdx_emu_counters: cycles, wave_insts, est_kernel_cycles).  Everything borrowed is
 * only read (buffers: written by the kernel); nothing stays allocated.  Errors: RDX_ERR_INVALID for
 * NULL k, b or sizes; those of rdx_codegen_bind_args (the argument not bound) and
 * rdx_codegen_launch; the emulator's (a fault or hang, with PC and
 * instruction); RDX_ERR_NOMEM.
 */
rdx_status rdx_realize_emu_run(const rdx_codegen_kernel *k, const rdx_codegen_bindings *b,
                               const size_t *sizes, uint64_t budget, rdx_realize_emu_stats *stats);

/* The context of a BEAM timer (opaque; rdx_realize_beam_timer_create). */
typedef struct rdx_realize_beam_timer rdx_realize_beam_timer;

/*
 * The BEAM timer rdx_realize_run uses, for rdx_cg_beam (rdx/codegen_front.h):
 * pass *fn as the timer and *out as its user data.  For each candidate kernel
 * it compiles it (in ctx, symbol "beam_candidate") and runs it once on zeroed
 * buffers sized from its PARAMs' shapes, DEFINE_VARs taking vals[j] for the
 * node vars[j] (e.g. a schedule's s->vars, rdx_cg_schedule): with dev and q
 * NULL on a private wave emulator (gfx1100, or rdx_realize_beam_timer_set_target's),
 * the cost being its estimated
 * cycles; with dev and one of its compute queues q, dispatched on q (buffers allocated on dev and
 * freed after, each dispatch waited for up to timeout_ms, 0: 600000), the cost being the dispatch's
 * GPU time in ns.  The search's budget (rdx_cg_timer's limit) stops a run past it with
 * RDX_ERR_TIMEOUT: on the wave emulator as its cycle limit (rdx_emu_launch.cycle_limit), on a
 * device as the dispatch's wait (limit ns + 20 ms, at most timeout_ms) after which the queue
 * is reset (rdx_queue_reset) and stays usable.  A candidate that fails to compile or run gives
 * its error to the search, which skips it. ctx, dev, q, vars and vals are borrowed: they must
 * outlive the timer; the timer is used by one thread at a time.  On success *out is the caller's
 * (rdx_realize_beam_timer_free).  Errors (nothing allocated): RDX_ERR_INVALID for a NULL ctx, fn or
 * out, a device without a queue (or a queue without a device), nvars > 0 with NULL vars or vals;
 * RDX_ERR_NOMEM.
 */
rdx_status rdx_realize_beam_timer_create(rdx_ir_ctx *ctx, rdx_device *dev, rdx_queue *q,
                                         const rdx_uop *const *vars, const int64_t *vals,
                                         size_t nvars, uint32_t timeout_ms, rdx_cg_timer *fn,
                                         rdx_realize_beam_timer **out);

/*
 * The target the candidates are compiled for when the timer runs them on the wave
 * emulator (default gfx1100; realize sets the device's): one of rdx_codegen_target_list(),
 * checked when a candidate compiles (an unknown one fails every candidate with the
 * compiler's message).  RDX_ERR_INVALID for NULL or a name longer than 15 characters.
 * With a device the candidates are always compiled for the device's target.
 */
rdx_status rdx_realize_beam_timer_set_target(rdx_realize_beam_timer *t, const char *target);

/* Free a BEAM timer's context (NULL is a no-op). */
void rdx_realize_beam_timer_free(rdx_realize_beam_timer *t);

#ifdef __cplusplus
}
#endif

#endif /* RDX_REALIZE_H */
