/*
 * rdx/realize_multi.h — a tensor program whose tensors name several devices,
 * realized on that many rdx_devices.
 *
 *   rdx_device *d[4];   rdx_device_open_all(NULL, 4, d);
 *   const char *devs[4] = { "AMD:0", "AMD:1", "AMD:2", "AMD:3" };
 *   x = rdx_tensor_from_data_on(g, f32, 2, (int64_t[]){ 64, 16 }, data, devs, 4);
 *   y = rdx_tensor_relu(g, rdx_tensor_muls(g, x, 2));        (sharded on axis 0, like x)
 *   rdx_tensor_realize_multi(g, d, 4, &y, 1, NULL, &out, NULL);
 *
 * Placement.  A device name ending in ":K" (tinygrad's "AMD:K") is devs[K];
 * another name is devs[its position in the first device tuple of the roots
 * that lists it], or devs[0].  A root sharded over a tuple D (shard axis
 * a, the tensor API's multi-device tensors) is computed shard by shard: the
 * device of D[j] computes rows [j*s, (j+1)*s) of axis a (a SHRINK of the
 * root, which the scheduler pushes into the kernels' indexing, so an
 * element-wise chain computes only that device's rows), on its own queue; the
 * shards are put together into the logical result.  A root on one device,
 * or replicated over a tuple (no shard axis: every device would hold the
 * same values), is computed on its (first) device — e.g. moving a sharded
 * tensor to one device (rdx_tensor_copy to one name) runs there, and so does
 * an allreduce of the spec's composition (for a ring across the GPUs' buffers
 * use rdx_allreduce, rdx/collective.h).  A sum, max or min over the shard axis
 * of a sharded tensor (float32/64, int32/64) is computed as partial results,
 * device j reducing its own rows, joined on the host.
 *
 * A value computed on some devices and LOADed by another (a COPY to one
 * device, e.g. a sharded tensor moved to one device) is computed first where
 * it lives and reaches the reading device by SDMA copies between the GPUs'
 * memory (through the host for GPUs that cannot reach each other); the
 * result counts them (stages, peer_copies, host_copies, copied_bytes).
 *
 * rdx_tensor_realize_multi (and rdx_realize_run_multi, which builds the
 * compositions to compare with in a graph over the caller's context,
 * rdx_graph_create_in) runs a root that is rdx_tensor_allreduce of a
 * tensor sharded on axis 0 as the ring collective (rdx_allreduce) over the
 * shards the devices computed, and a root that is rdx_tensor_reduce_scatter
 * of one as the reduce-scatter ring (each device's chunk of the sum read back
 * from it).  It also finds the spec's allreduce, allgather, reduce_scatter
 * and broadcast inside the program (their result read by further ops, e.g. a
 * weight update with the summed gradient): the collective's source is
 * computed first where it lives, the collective runs between the devices (a
 * ring for an allreduce or a reduce_scatter — whose result becomes sharded,
 * as the spec has it — and for an allgather several devices read; copies for
 * a gather to one device or a broadcast) into an input slot of each reading
 * device's run, and the ops after it run on each device (inner_collectives,
 * ring_bytes_sent, local_copies).
 *
 * Every device's kernels are compiled first, on the caller's thread; then the
 * devices run at the same time, each on a thread and a queue of its own
 * (RDX_MULTI_SERIAL=1: one after another); opt->log and opt->profile_hook are
 * called from those threads.  A failure on one device lets the others finish
 * and names the device and the tensors it computed.
 *
 * Not yet: each device uploads the input data it reads from the host; a value
 * several devices need inside a program that is not one of those collectives
 * (a materialised intermediate, a scatter) is computed by each of them.
 *
 * Errors (RDX_ERR_INVALID, naming the tensor by root index and node, and the
 * device): work placed on devices of different architectures, the same device twice, a
 * tensor sharded over more devices than given or naming device K >= ndev, a
 * sharded root of symbolic size; then every error of rdx_realize_run,
 * prefixed with the device.  The devices stay usable; nothing is left on
 * them.
 */
#ifndef RDX_REALIZE_MULTI_H
#define RDX_REALIZE_MULTI_H

#include <rdx/collective.h>
#include <rdx/realize.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rdx_realize_multi_result {
    size_t noutputs;
    rdx_array *outputs; /* one per root: the logical tensor, row-major */
    uint32_t ndevices;
    /* per device: its report (NULL when it had nothing to run) and how many root parts
     * (whole roots or shards, and values computed first for copies to other devices) it
     * computed */
    rdx_realize_report *reports[RDX_MAX_GPUS];
    uint32_t parts[RDX_MAX_GPUS];
    /* the run after compiling: wall time from the first device's start to the last one's
     * end, each device's start and end (ms from that start), and whether the devices ran
     * at the same time (more than one device, and RDX_MULTI_SERIAL not set) */
    double wall_ms;
    double start_ms[RDX_MAX_GPUS], end_ms[RDX_MAX_GPUS];
    int concurrent;
    /* 2 when values computed on some devices and LOADed by another were computed in a first
     * stage and moved by copies (start/end and reports are then the second stage's; wall_ms
     * both); the SDMA copies between the GPUs' memory, the copies through the host (devices
     * that cannot reach each other), and the bytes moved */
    uint32_t stages;
    uint32_t peer_copies, host_copies;
    uint64_t copied_bytes;
    /* roots that are the spec's allreduce of a sharded tensor (rdx_tensor_realize_multi
     * and rdx_realize_run_multi recognise rdx_tensor_allreduce's composition) run as
     * rdx_allreduce's ring: how many,
     * and the rings' peer copies and reduction kernels */
    uint32_t allreduces, ring_copies, ring_kernels;
    /* roots that are the spec's reduce_scatter of a sharded tensor: the reduce-scatter ring
     * (its copies and kernels in ring_copies, ring_kernels), each device's chunk read back */
    uint32_t reduce_scatters;
    /* collectives inside the program (an allreduce, allgather, reduce_scatter or broadcast of
     * the spec whose result further ops read, as the tensor API composes it) run across the
     * devices: their source computed where it lives in the first stage, the collective run
     * between the devices into the reading runs' input slots */
    uint32_t inner_collectives;
    /* the bytes each device (index into devs) sent in the rings, root and inner ones
     * (2(N-1)/N of an allreduce's size, (N-1)/N of an allgather's or a root reduce_scatter's) */
    uint64_t ring_bytes_sent[RDX_MAX_GPUS];
    /* copies within one device's memory (a shard moved from the first stage's arena into the
     * second's); the gathers' and broadcasts' copies between GPUs count in peer_copies and
     * copied_bytes */
    uint32_t local_copies;
    /* times the host blocked on the GPUs for the collectives inside the program before the
     * second stage started: 0 when the second stage's kernels are queued behind the rings and
     * copies with GPU-side waits (a fence per reading device) and the host waits for them only
     * while the second stage runs; a copy through the host (devices that cannot reach each
     * other) or a reading run without kernels counts one */
    uint32_t host_waits;
} rdx_realize_multi_result;

/* rdx_realize_run on devs[0..ndev) with the placement above; *out the caller's
 * (rdx_realize_multi_result_free). */
rdx_status rdx_realize_run_multi(rdx_ir_ctx *ctx, const rdx_interp *inputs, rdx_device *const *devs,
                                 uint32_t ndev, const rdx_uop *const *roots, size_t n,
                                 const rdx_realize_options *opt, rdx_realize_multi_result **out);
void rdx_realize_multi_result_free(rdx_realize_multi_result *r);

/* rdx_tensor_realize_on across devices: out[0..n) as the interpreter gives them (owned by
 * the graph); result (may be NULL) receives the per-device reports and part counts (free
 * with rdx_realize_multi_result_free; its outputs are empty). */
rdx_status rdx_tensor_realize_multi(rdx_graph *g, rdx_device *const *devs, uint32_t ndev,
                                    const rdx_tensor *const *ts, size_t n,
                                    const rdx_realize_options *opt, rdx_array *out,
                                    rdx_realize_multi_result **result);

#ifdef __cplusplus
}
#endif

#endif /* RDX_REALIZE_MULTI_H */
