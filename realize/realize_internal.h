/* realize/realize_internal.h — shared by the files of realize/: one dispatch
 * of a compiled kernel through the runtime, and one run on the wave emulator
 * (the BEAM timer, realize/beam_timer.c, is built from them). */
#ifndef RDX_REALIZE_INTERNAL_H
#define RDX_REALIZE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/codegen.h>
#include <rdx/collective.h>
#include <rdx/realize.h>

/* Default longest wait for one dispatch (a hung wave on the emulator fails sooner, by its budget).
 */
#define RZ_WAIT_MS 600000u

/*
 * The values of k's DEFINE_VAR arguments in kernarg order into kv[k->nargs]
 * (*nkv of them): vars[j] takes vals[j].  RDX_ERR_INVALID naming a variable
 * without a value.
 */
rdx_status rz_kernel_vars(const rdx_codegen_kernel *k, const rdx_uop *const *vars,
                          const int64_t *vals, size_t nvars, int64_t *kv, size_t *nkv);

/*
 * Load compiled kernel k on dev (symbol `name`) and dispatch it once on q:
 * PARAM slot p is bufs[p] at byte offset offs[p] (offs may be NULL: 0), p <
 * nbufs; DEFINE_VARs take kv[0..nkv).  Waits up to timeout_ms (a timeout
 * resets the queue); *ns the dispatch's GPU time, global/block its shape.
 */
rdx_status rz_dispatch(rdx_device *dev, rdx_queue *q, const rdx_codegen_kernel *k, const char *name,
                       rdx_buffer *const *bufs, const uint64_t *offs, size_t nbufs,
                       const int64_t *kv, size_t nkv, uint32_t timeout_ms, uint64_t *ns,
                       uint32_t global[3], uint32_t block[3]);

/* The profile hook of one kernel (rdx_realize_options.profile_hook). */
typedef struct rz_prof {
    const rdx_realize_options *o;
    size_t kernel;
    const char *name;
} rz_prof;

/*
 * rdx_realize_emu_run with realize's budget for host buffers: PARAM
 * slot p reads and writes host memory bufs[p] of sizes[p] bytes (p < nbufs;
 * each with 64 readable spare bytes); DEFINE_VARs take kv[0..nkv).
 * *stats (may be NULL): what the emulator measured.  prof (may be NULL): run
 * with profiling on and call its hook after the run.
 */
rdx_status rz_emu_launch(const rdx_codegen_kernel *k, void *const *bufs, const size_t *sizes,
                         size_t nbufs, const int64_t *kv, size_t nkv, uint64_t cycle_limit,
                         rdx_realize_emu_stats *stats, const rz_prof *prof);

/*
 * Tensor-level side effects as the scheduler's assignments (realize/effects.c): roots[0..n)
 * into *out (malloc'd, *nout entries): a root SINK/GROUP/STORE of STOREs into BUFFERs gives one
 * AFTER(buffer, STORE(buffer, value)) per STORE and map[i] = -1 (its output is void); any
 * other root is kept (an AFTER over a SINK/GROUP of one STORE, or over a gated STORE, made the
 * plain assignment) at map[i].  A gated STORE stores WHERE(gate, value, buffer).
 * RDX_ERR_UNSUPPORTED for a STORE not into a BUFFER (a kernel-level SINK) or a SINK source
 * that is not a STORE.
 */
rdx_status rz_effects(rdx_ir_ctx *ctx, const rdx_uop *const *roots, size_t n, const rdx_uop ***out,
                      size_t *nout, long *map);

/*
 * rdx_realize_run in three steps, so that the devices of a multi-device
 * realization (realize/multi.c) can run at the same time: rz_prepare makes
 * every IR node the run needs (effects, schedule, each kernel optimized and
 * compiled; BEAM's timing runs included), creates the queue and the arena;
 * it must not run at the same time as anything else using ctx.  rz_execute
 * uploads the inputs, dispatches and waits for the kernels and downloads the
 * outputs: it makes no IR node (it reads the graph and the interpreter's
 * bindings), so runs of different devices may execute on threads of their
 * own.  rz_finish frees the run whatever st is (r may be NULL) and returns
 * st, or the queue's teardown error; on success *out is the result.
 */
typedef struct rz_run rz_run;
rdx_status rz_prepare(rdx_ir_ctx *ctx, const rdx_interp *inputs, rdx_device *dev,
                      const rdx_uop *const *roots, size_t n, const rdx_realize_options *opt,
                      rz_run **out);
rdx_status rz_execute(rz_run *r);
rdx_status rz_finish(rz_run *r, rdx_status st, rdx_realize_result **out);

/* Where a prepared run keeps things (for copies between the runs of several devices): the
 * input slot of BUFFER buf (0 when the schedule reads no such input), the buffer of root i
 * (0 for a side effect), the compute queue its kernels run on, its number of kernels. */
int rz_input_slot(const rz_run *r, const rdx_uop *buf, rdx_buffer **arena, uint64_t *off,
                  uint64_t *bytes);
int rz_output_slot(const rz_run *r, size_t i, rdx_buffer **arena, uint64_t *off, uint64_t *bytes);
rdx_queue *rz_queue(const rz_run *r);
/* Root i's data as rz_execute downloaded it (NULL before). */
const void *rz_output_host(const rz_run *r, size_t i);
size_t rz_kernel_count(const rz_run *r);

/*
 * The rings of rdx/collective.h over bufs[i] at byte offset offs[i] (offs may be NULL: 0) —
 * e.g. a tensor's slot in a run's arena: phases RZ_RING_REDUCE_SCATTER, RZ_RING_ALLGATHER or
 * both (the allreduce); `what` names it in messages.  Same checks and stats as rdx_allreduce.
 */
enum { RZ_RING_REDUCE_SCATTER = 1, RZ_RING_ALLGATHER = 2 };
rdx_status rz_ring(const char *what, int phases, rdx_device *const *devs, uint32_t n,
                   rdx_buffer *const *bufs, const uint64_t *offs, uint64_t count, rdx_dtype dt,
                   rdx_collective_stats *stats);
/*
 * rz_ring in two steps, so that later work can queue behind it on the GPUs: rz_ring_start
 * submits every copy and reduction (each device's ring queues first waiting on the GPU for
 * after_q[i] to reach after_t[i], where after_q is not NULL and after_q[i] is set: what fills
 * device i's data) and returns without waiting (on a failure to submit, what was submitted is
 * drained and freed, and *out is NULL); rz_ring_gate makes queue q (of any device) wait on the
 * GPU for every ring operation that reads or writes device i's data; rz_ring_end waits for the
 * ring (after a failure, naming the device and queue, the queues still busy are reset), frees
 * it and fills *stats (may be NULL).
 */
typedef struct rz_ring_run rz_ring_run;
rdx_status rz_ring_start(const char *what, int phases, rdx_device *const *devs, uint32_t n,
                         rdx_buffer *const *bufs, const uint64_t *offs, uint64_t count,
                         rdx_dtype dt, rdx_queue *const *after_q, const uint64_t *after_t,
                         rz_ring_run **out);
rdx_status rz_ring_gate(rz_ring_run *h, uint32_t i, rdx_queue *q);
rdx_status rz_ring_end(rz_ring_run *h, rdx_collective_stats *stats);

#endif
