/* realize/multi_internal.h — shared by realize/multi.c and realize/multi_copy.c: the parts a
 * multi-device realization is split into, the devices' runs, and the cross-device copies of
 * computed values (peer copies between the runs of two stages). */
#ifndef RDX_REALIZE_MULTI_INTERNAL_H
#define RDX_REALIZE_MULTI_INTERNAL_H

#include <rdx/realize_multi.h>

#include "realize/realize_internal.h"

/* One piece of work: root `root` (shard `shard` of `nshards` along `axis`, or whole). */
typedef struct part {
    size_t root;
    uint32_t dev;
    int axis; /* -1: the whole root (or a partial result, combine) */
    uint32_t shard, nshards;
    int combine; /* a partial reduction: 1 + the rdx_redop that joins the devices' results */
    const rdx_uop *u;
    const rdx_uop *t; /* the tensor messages name: the root as given, or the value computed
                         first (a copied value, a collective's source) */
    size_t out;       /* index among its device's roots */
} part;

/* One device's share of a realization, executed on a thread of its own. */
typedef struct dev_run {
    rz_run *run;
    rdx_status st;
    char msg[1024]; /* its error message (messages are per thread) */
    double start_ms, end_ms;
} dev_run;

/*
 * A LOAD to one device (a COPY) of a value computed on other devices (the assign form
 * AFTER(BUFFER, STORE(BUFFER, v)) on a device other than the LOAD's): v is computed first, in
 * a stage of its own, and the LOAD is replaced by `buf`, a new BUFFER of its shape on its
 * device, which the next stage's runs receive by peer copies from the first stage's results.
 */
typedef struct mc_copy {
    const rdx_uop *load, *value, *buf;
    size_t root; /* value's root index in the first stage */
} mc_copy;

/* The copies under roots[0..n) that can be made peer copies (at most max, into out): values
 * that themselves read no such copy.  Returns how many. */
size_t mc_find(rdx_ir_ctx *ctx, const rdx_uop *const *roots, size_t n, mc_copy *out, size_t max);

/* Counts of what mc_transfer did. */
typedef struct mc_stats {
    uint32_t copies, host_copies;
    uint64_t bytes;
} mc_stats;

/*
 * For every run of the second stage (runs2[d], prepared) that reads a copy's buf: the copy's
 * value, as the first stage's parts ps1[0..np1) computed it (runs1, executed), moved into that
 * run's input slot — an SDMA copy on dst's copy queue xq[d] (created here) when the devices
 * can access each other's memory, else through the host — and the run's compute queue made to
 * wait for it on the GPU.  *st counts them.
 */
rdx_status mc_transfer(const mc_copy *c, size_t nc, const part *ps1, size_t np1,
                       const dev_run *runs1, dev_run *runs2, rdx_device *const *devs, uint32_t ndev,
                       rdx_queue **xq, mc_stats *st);

/*
 * Root i, the spec's allreduce of x (x sharded on axis 0 over its device tuple), as the first
 * stage's parts ps1[0..np1) of root `root1` computed x: each shard copied into a buffer of its
 * own on its device, rdx_allreduce's ring over those devices, the sum downloaded into *out
 * (malloc'd data).  scatter: the spec's reduce_scatter instead — the reduce-scatter ring
 * only, chunk j of the sum downloaded from the device of shard j.  *cst: the ring's counts.
 */
rdx_status mc_allreduce(const part *ps1, size_t np1, size_t root1, const dev_run *runs1,
                        rdx_device *const *devs, const rdx_uop *x, int scatter, rdx_array *out,
                        rdx_collective_stats *cst);

/* The spec's collectives a program uses inside (their result read by further ops). */
enum { MC_ALLREDUCE = 1, MC_ALLGATHER, MC_BROADCAST, MC_REDUCE_SCATTER };

/*
 * A collective inside the program: kind (MC_*) of x (sharded on axis 0 of the device tuple
 * for an allreduce or allgather, on one device for a broadcast).  Its composition ends in
 * REPLICATED/INDEX(LOAD(...), 0) of the value every device holds, `load` of shape (n, count)
 * on the tuple; `load` is replaced by `buf`, a BUFFER of one row, (1, count) on the tuple (the
 * INDEX reads only row 0), whose slot every reading run receives from the collective.  A
 * reduce_scatter (MC_REDUCE_SCATTER) is replaced whole: `load` is its result, of shape (count) on
 * the tuple, and `buf` a BUFFER of that shape (sharded on axis 0, as the spec's result is).  x is
 * computed in the first stage as root `root`.
 */
typedef struct mc_inner {
    int kind;
    const rdx_uop *x, *load, *buf;
    size_t root;
    uint64_t count; /* elements of the result (buf's one row) */
} mc_inner;

/* Counts of what mc_inner_start and mc_inner_end did (host_waits: times the host blocked on
 * the GPUs for them before the second stage: copies through the host, a run without kernels). */
typedef struct mc_inner_stats {
    uint32_t ring_copies, ring_kernels, peer_copies, host_copies, local_copies, host_waits;
    uint64_t bytes, ring_bytes_sent[RDX_MAX_GPUS];
} mc_inner_stats;

/*
 * Inner collective c, as the first stage's parts ps1[0..np1) computed its x (runs1,
 * executed), into the input slot of c->buf of every run of the second stage that reads it
 * (runs2, prepared, not executed): an allreduce or allgather with more than one reader as
 * the ring between the shards' devices (each shard first copied into its device's slot, or
 * a buffer of its own where its device does not read the value; a reduce_scatter as the
 * allreduce's ring, so that every reader holds the whole sum whatever rows its consumers
 * read), an allgather read by one device as the shards' copies into that device's slot (a
 * gather), a broadcast as a copy from x's device to each reader.  mc_inner_start submits it
 * all without waiting: the ring's queues wait on the GPU for the shards' copies, and each
 * reading run's compute queue waits on the GPU for a fence of its device that the reader's
 * copy queue sets once its slot is final.  *out (set even on failure, when something was
 * started) is then ended by mc_inner_end — the host waits for the ring and the copies (while
 * the second stage runs); after a failure (failed, or its own, naming the device, the queue
 * and the node) the queues still busy are reset and the fences set so that no run waits
 * for ever — and freed by mc_inner_free once the second stage's queues are gone.
 */
typedef struct mc_inner_pending mc_inner_pending;
rdx_status mc_inner_start(const mc_inner *c, const part *ps1, size_t np1, const dev_run *runs1,
                          dev_run *runs2, rdx_device *const *devs, uint32_t ndev,
                          mc_inner_stats *st, mc_inner_pending **out);
rdx_status mc_inner_end(mc_inner_pending *p, rdx_status failed, mc_inner_stats *st);
void mc_inner_free(mc_inner_pending *p);

#endif
