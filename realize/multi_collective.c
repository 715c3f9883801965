/*
 * realize/multi_collective.c — a root of a multi-device realization that is
 * the spec's allreduce composition of a sharded tensor, run as the ring
 * collective across the devices (rdx_allreduce): each device's shard, as the
 * first stage computed it, copied out of that run's arena into a buffer of
 * its own, reduced by the ring, the sum read back from the first device; the
 * spec's reduce_scatter likewise, by the reduce-scatter ring alone, each
 * device's chunk of the sum read back from it.
 */
#include <stdlib.h>
#include <string.h>

#include "realize/multi_internal.h"
#include "util/error.h"

rdx_status mc_allreduce(const part *ps1, size_t np1, size_t root1, const dev_run *runs1,
                        rdx_device *const *devs, const rdx_uop *x, int scatter, rdx_array *out,
                        rdx_collective_stats *cst)
{
    rdx_device *dv[RDX_MAX_GPUS];
    rdx_buffer *b[RDX_MAX_GPUS] = { NULL };
    uint32_t n = 0;
    uint64_t bytes = 0;
    rdx_status st = RDX_OK;
    rdx_dtype dt = rdx_dtype_scalar(x->dtype);
    size_t isz = rdx_dtype_itemsize(dt);
    for (size_t p = 0; p < np1 && !st; p++) {
        const part *q = &ps1[p];
        if (q->root != root1)
            continue;
        rdx_buffer *arena;
        uint64_t off, sb;
        if (q->axis != 0 || q->shard >= RDX_MAX_GPUS || q->nshards > RDX_MAX_GPUS ||
            !rz_output_slot(runs1[q->dev].run, q->out, &arena, &off, &sb) ||
            (bytes && sb != bytes)) {
            st = rdx_fail(RDX_ERR_INVALID,
                          "realize: allreduce of node #%u: shard %u on device %u is not a "
                          "row block of the tensor",
                          x->id, q->shard, q->dev);
            break;
        }
        bytes = sb;
        dv[q->shard] = devs[q->dev];
        n = q->nshards;
        rdx_queue *xq = NULL;
        uint64_t t;
        st = rdx_buffer_alloc(devs[q->dev], sb ? sb : 4, RDX_MEM_DEVICE, &b[q->shard]);
        if (!st)
            st = rdx_queue_create(devs[q->dev], RDX_QUEUE_COPY, &xq);
        if (!st && sb)
            st = rdx_queue_copy(xq, b[q->shard], 0, arena, off, sb, &t);
        if (!st && sb)
            st = rdx_queue_wait(xq, t, 600000u);
        rdx_status qs = rdx_queue_destroy(xq);
        if (!st)
            st = qs;
        if (st)
            st = rdx_fail_context(st, "realize: allreduce of node #%u: shard %u on device %u",
                                  x->id, q->shard, q->dev);
    }
    for (uint32_t j = 0; j < n && !st; j++)
        if (!b[j])
            st = rdx_fail(RDX_ERR_INVALID, "realize: allreduce of node #%u: no shard %u", x->id, j);
    uint64_t count = isz ? bytes / isz : 0;
    if (!st && n)
        st = scatter ? rdx_reduce_scatter(dv, n, b, count, dt, cst)
                     : rdx_allreduce(dv, n, b, count, dt, cst);
    if (!st) {
        memset(out, 0, sizeof *out);
        out->dtype = dt;
        out->ndim = 1;
        out->dims[0] = (int64_t)count;
        out->numel = (int64_t)count;
        if (!(out->data = calloc(1, bytes + 1)))
            st = rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
        else if (bytes && !scatter)
            st = rdx_buffer_download(b[0], 0, out->data, bytes);
        for (uint32_t j = 0; scatter && j < n && !st; j++) { /* chunk j is on shard j's device */
            uint64_t elems, at = rdx_collective_chunk(count, n, j, &elems) * isz;
            if (elems)
                st = rdx_buffer_download(b[j], at, (char *)out->data + at, elems * isz);
        }
        if (st) {
            free(out->data);
            out->data = NULL;
        }
    }
    for (uint32_t j = 0; j < RDX_MAX_GPUS; j++)
        rdx_buffer_free(b[j]);
    return st;
}
