/*
 * rdx/queue_prof.h — hardware profiling on a compute queue: SQ/GRBM
 * performance counters and an SQ thread trace (SQTT), programmed with PM4
 * register writes on the queue itself (rdx/pm4_prof.h) exactly as on a card,
 * and read back through COPY_DATA and the trace buffers.  On the emulated GPU
 * the same registers are served by the device model, which counts with the
 * emulator's exact counts and writes the trace in the hardware's token format
 * from its timing model (docs/prof.md "On the queue").
 *
 *     rdx_perf_counter cs[] = { RDX_PERF_SQ_WAVES, RDX_PERF_SQ_INSTS_VALU };
 *     rdx_queue_profile_options o = { cs, 2, 1 << 20, 0 };
 *     rdx_queue_profile_begin(q, &o);
 *     rdx_queue_dispatch(q, &launch, &t);              // any number of dispatches
 *     rdx_queue_profile prof;
 *     rdx_queue_profile_end(q, &prof);                 // waits for the queue
 *     ... prof.value[i], prof.sqtt[se] (decode with rdx/sqtt.h) ...
 *     rdx_queue_profile_free(&prof);
 *
 * Per-dispatch GPU timestamps need nothing extra: rdx_queue_dispatch_time.
 * One profile at a time per queue.  Counters and trace are the GPU's: work of
 * other queues running meanwhile is counted too (as on a card).
 */
#ifndef RDX_QUEUE_PROF_H
#define RDX_QUEUE_PROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rdx/runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The counters: X(NAME, BLOCK, EVENT, EVENT_GFX12) with gfx11's and gfx12's event numbers
 * (AMD rocprofiler's counter definitions: gfx12 renumbered the SQ_INSTS_* events and
 * SQC_LDS_BANK_CONFLICT).  What each means on the emulated GPU: docs/prof.md. */
#define RDX_PERF_COUNTER_LIST(X)           \
    X(SQ_WAVES, SQ, 4, 4)                  \
    X(SQ_BUSY_CYCLES, SQ, 3, 3)            \
    X(SQ_WAVE_CYCLES, SQ, 24, 24)          \
    X(SQ_INSTS_VALU, SQ, 62, 50)           \
    X(SQ_INSTS_SALU, SQ, 58, 46)           \
    X(SQ_INSTS_SMEM, SQ, 59, 47)           \
    X(SQ_INSTS_LDS, SQ, 57, 45)            \
    X(SQ_WAVE32_INSTS, SQ, 82, 70)         \
    X(SQ_WAVE64_INSTS, SQ, 83, 71)         \
    X(SQC_LDS_BANK_CONFLICT, SQ, 256, 288) \
    X(GRBM_COUNT, GRBM, 0, 0)              \
    X(GRBM_GUI_ACTIVE, GRBM, 2, 2)

typedef enum rdx_perf_counter {
#define RDX_PERF_ENUM_(n, b, e, e12) RDX_PERF_##n,
    RDX_PERF_COUNTER_LIST(RDX_PERF_ENUM_)
#undef RDX_PERF_ENUM_
        RDX_PERF_COUNT
} rdx_perf_counter;

/* "SQ_WAVES", ...; NULL when out of range. */
const char *rdx_perf_counter_name(rdx_perf_counter c);
/* The counter named `name` (as rdx_perf_counter_name spells it).  RDX_ERR_NOT_FOUND
 * listing the names there are. */
rdx_status rdx_perf_counter_parse(const char *name, rdx_perf_counter *out);

#define RDX_QUEUE_PROF_MAX_COUNTERS 10 /* 8 SQ + 2 GRBM */
#define RDX_QUEUE_PROF_MAX_SE       8

typedef struct rdx_queue_profile_options {
    const rdx_perf_counter *counters; /* may be NULL when ncounters is 0 */
    uint32_t ncounters;               /* at most 8 SQ and 2 GRBM counters, no repeats */
    /* Thread trace buffer per shader engine, bytes (0: no trace): a multiple of 4096.  A
       trace that does not fit is cut (rdx_queue_profile.sqtt_full). */
    uint64_t sqtt_bytes;
    uint32_t sqtt_simd; /* the traced SIMD of each SE's first WGP, 0..3 */
} rdx_queue_profile_options;

/* What a profile gathered. */
typedef struct rdx_queue_profile {
    uint32_t ncounters;
    rdx_perf_counter counter[RDX_QUEUE_PROF_MAX_COUNTERS];
    uint64_t value[RDX_QUEUE_PROF_MAX_COUNTERS];  /* summed over the GPU's instances */
    uint32_t nse;                                 /* shader engines traced (0: no trace) */
    uint8_t *sqtt[RDX_QUEUE_PROF_MAX_SE];         /* each SE's stream (malloc'd), or NULL */
    size_t sqtt_len[RDX_QUEUE_PROF_MAX_SE];       /* bytes (a multiple of 32) */
    bool sqtt_full[RDX_QUEUE_PROF_MAX_SE];        /* STATUS2.BUF0_FULL: the trace was cut */
    uint32_t sqtt_dropped[RDX_QUEUE_PROF_MAX_SE]; /* SQ_THREAD_TRACE_DROPPED_CNTR */
} rdx_queue_profile;

/*
 * Start profiling the work submitted to q after this call: the counters are reset and
 * start counting, the thread trace buffers (4 KiB aligned, host-visible) are programmed
 * and the trace turned on — all by packets on q (one submission).  Errors:
 * RDX_ERR_INVALID (a copy queue, a profile already running on q, no counter and no
 * trace, too many counters of a block or one given twice, a trace size that is not a
 * multiple of 4096, a SIMD beyond 3) naming what is wrong; allocation and submission
 * failures.
 */
rdx_status rdx_queue_profile_begin(rdx_queue *q, const rdx_queue_profile_options *o);

/*
 * End the profile: packets that stop the trace (finish, wait until idle, copy each SE's
 * write pointer and status) and read every counter instance, then a host wait (10 s) for
 * them; *out receives the counter values and each SE's trace bytes.  The profile's
 * memory is released either way.  Errors: RDX_ERR_INVALID (no profile running on q),
 * the submission's or the wait's (RDX_ERR_FAULT when the queue faulted, e.g. the trace
 * buffer was unmapped), RDX_ERR_NOMEM.  On error *out is empty.
 */
rdx_status rdx_queue_profile_end(rdx_queue *q, rdx_queue_profile *out);

/* Free the trace buffers of a profile (NULL is a no-op); *p is emptied. */
void rdx_queue_profile_free(rdx_queue_profile *p);

#ifdef __cplusplus
}
#endif

#endif /* RDX_QUEUE_PROF_H */
