/*
 * rdx/collective.h — collectives across the GPUs of one machine: each GPU's
 * buffer reduced or gathered with the others', by peer copies (each GPU's
 * SDMA engine writing into the next GPU's memory) and reduction kernels on
 * each GPU's own compute queue, ordered by GPU-side waits between the
 * queues.  No host copy, no host wait between steps.
 *
 *   rdx_device *d[4];
 *   rdx_device_open_all(NULL, 4, d);                 (rdx/runtime.h)
 *   rdx_buffer *b[4];   ... one buffer of count floats on each device ...
 *   rdx_collective_stats st;
 *   rdx_allreduce(d, 4, b, count, rdx_dtype_of(RDX_FLOAT32), &st);
 *   (now every b[i] holds the element-wise sum of the four)
 *
 * The ring: the buffers are cut into n chunks (chunk c: the elements
 * [c*count/n .. (c+1)*count/n), sizes differing by at most one).
 * reduce-scatter: in n-1 steps each GPU sends one chunk to the next GPU
 * (i -> i+1 mod n), which adds it into its own copy; afterwards GPU i holds
 * the full sum of chunk i.  all-gather: in n-1 more steps each GPU passes one
 * finished chunk on to the next GPU.  Each GPU sends (and receives) 2(n-1)
 * chunks, 2(n-1)/n of the buffer — the bandwidth-optimal schedule.
 *
 * Requirements (RDX_ERR_INVALID otherwise, the message naming the device):
 * 1 <= n <= RDX_MAX_GPUS distinct devices of one machine that can access
 * each other's memory (rdx_device_can_access_peer), of one target
 * (architecture); each buffer at least count elements; a dtype the code
 * generator adds (not bool).  The devices stay usable after any failure
 * (RDX_ERR_FAULT / RDX_ERR_TIMEOUT of a step name the GPU and the step; the
 * buffers' contents are then unspecified) and nothing is left allocated.
 */
#ifndef RDX_COLLECTIVE_H
#define RDX_COLLECTIVE_H

#include <stdint.h>

#include <rdx/ir.h>
#include <rdx/runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a collective did (all zero before it ran). */
typedef struct rdx_collective_stats {
    uint32_t ndevices;
    uint64_t bytes_sent[RDX_MAX_GPUS];     /* by device i's copy engine to its neighbour */
    uint64_t bytes_received[RDX_MAX_GPUS]; /* into device i's memory */
    uint32_t copies;                       /* peer copies (SDMA), all devices */
    uint32_t kernels;                      /* reduction kernels, all devices */
    uint64_t wall_ns;                      /* host time from the first submission to the end */
    uint64_t kernel_ns; /* the reduction kernels' GPU time, summed (on the emulated GPU: the
                           emulation's wall time) */
} rdx_collective_stats;

/* bufs[i] (of devs[i]) = the element-wise sum over all i of bufs[i][0..count), on every
 * device (ring reduce-scatter, then ring all-gather).  stats may be NULL. */
rdx_status rdx_allreduce(rdx_device *const *devs, uint32_t n, rdx_buffer *const *bufs,
                         uint64_t count, rdx_dtype dtype, rdx_collective_stats *stats);

/* Chunk i of bufs[i] (the elements of chunk i as above) = the sum over all devices of
 * their chunk i; the other chunks are left with partial sums. */
rdx_status rdx_reduce_scatter(rdx_device *const *devs, uint32_t n, rdx_buffer *const *bufs,
                              uint64_t count, rdx_dtype dtype, rdx_collective_stats *stats);

/* Every bufs[j] receives chunk i of bufs[i] for every i (each device contributes its own
 * chunk; count elements in all). */
rdx_status rdx_allgather(rdx_device *const *devs, uint32_t n, rdx_buffer *const *bufs,
                         uint64_t count, rdx_dtype dtype, rdx_collective_stats *stats);

/* The first element of chunk c of a count-element buffer cut over n devices, and its
 * number of elements. */
uint64_t rdx_collective_chunk(uint64_t count, uint32_t n, uint32_t c, uint64_t *elems);

#ifdef __cplusplus
}
#endif

#endif /* RDX_COLLECTIVE_H */
