/*
 * runtime/cmdbuf.c — recorded command buffers: dispatches built once into
 * GPU memory (each with its own kernarg segment) and replayed with
 * INDIRECT_BUFFER.
 */
#include "runtime/internal.h"

#include <stdlib.h>
#include <string.h>

rdx_status rdx_cmdbuf_create(rdx_device *dev, rdx_cmdbuf **out)
{
    *out = NULL;
    rdx_cmdbuf *cb = calloc(1, sizeof *cb);
    if (!cb)
        return rdx_fail(RDX_ERR_NOMEM, "rdx_cmdbuf_create: out of memory");
    cb->dev = dev;
    rdx_pm4_cmdbuf_init(&cb->pm4);
    rt_list_init(&cb->link);
    pthread_mutex_lock(&dev->lock);
    rt_list_add(&dev->cmdbufs, &cb->link);
    dev->counts.cmdbufs++;
    pthread_mutex_unlock(&dev->lock);
    *out = cb;
    return RDX_OK;
}

void rdx_cmdbuf_destroy(rdx_cmdbuf *cb)
{
    if (!cb)
        return;
    rdx_device *dev = cb->dev;
    pthread_mutex_lock(&dev->lock);
    rt_list_del(&cb->link);
    dev->counts.cmdbufs--;
    pthread_mutex_unlock(&dev->lock);
    for (size_t i = 0; i < cb->nkernargs; i++)
        rdx_buffer_free(cb->kernargs[i]);
    free(cb->kernargs);
    rt_heap_free_or_warn(dev, RT_HEAP_CODE, &cb->ib);
    rdx_pm4_cmdbuf_free(&cb->pm4);
    free(cb);
}

rdx_status rdx_cmdbuf_dispatch(rdx_cmdbuf *cb, const rdx_launch *l)
{
    if (cb->ib.size)
        return rdx_fail(RDX_ERR_INVALID, "rdx_cmdbuf_dispatch: the command buffer was replayed "
                                         "already; record into a new one");
    if (!l || !l->kernel)
        return rdx_fail(RDX_ERR_INVALID, "rdx_cmdbuf_dispatch: no kernel");
    const rdx_kernel *k = l->kernel;
    if (k->prog->dev != cb->dev)
        return rdx_fail(RDX_ERR_INVALID,
                        "rdx_cmdbuf_dispatch: kernel %s is loaded on another "
                        "device",
                        k->name);
    if (k->scratch_per_item)
        return rdx_fail(RDX_ERR_UNSUPPORTED,
                        "rdx_cmdbuf_dispatch: kernel %s needs scratch; recorded dispatches have "
                        "none (dispatch it on a queue)",
                        k->name);
    rt_grid g;
    rdx_status st = rt_launch_grid(l, &g);
    if (st)
        return rdx_fail_context(st, "kernel %s", k->name);
    /* A queue context with no scratch and no queue block. */
    static const rdx_queue none;
    uint8_t args[4096];
    uint32_t size = 0;
    st = rt_pack_args(k, l, NULL, &g, args, sizeof args, &size);
    if (st)
        return st;
    rdx_buffer **grown = realloc(cb->kernargs, (cb->nkernargs + 1) * sizeof *grown);
    if (!grown)
        return rdx_fail(RDX_ERR_NOMEM, "rdx_cmdbuf_dispatch: out of memory");
    cb->kernargs = grown;
    uint32_t bytes = rt_kernarg_bytes(k, size), pre = bytes - (size ? size : 16u);
    rdx_buffer *kb;
    st = rdx_buffer_alloc(cb->dev, bytes, RDX_MEM_HOST, &kb);
    if (st)
        return st;
    cb->kernargs[cb->nkernargs++] = kb;
    uint8_t *cpu = rdx_buffer_cpu(kb);
    uint64_t gpu = rdx_buffer_gpu_addr(kb);
    memcpy(cpu + pre, args, size);
    rt_write_dispatch_packet(k, l, cpu, gpu + pre);
    rdx_queue q = none;
    size_t before = cb->pm4.len;
    st = rt_build_dispatch(&q, l, &g, gpu + pre, gpu, &cb->pm4);
    if (st == RDX_OK)
        st = rdx_pm4_cs_partial_flush(&cb->pm4);
    if (st) {
        /* Drop what this dispatch appended; keep the buffer usable. */
        rdx_pm4_cmdbuf keep = cb->pm4;
        keep.len = before;
        keep.status = RDX_OK;
        cb->pm4 = keep;
    }
    return st;
}

rdx_status rdx_queue_replay(rdx_queue *q, rdx_cmdbuf *cb, uint64_t *ticket)
{
    if (q->kind != RDX_QUEUE_COMPUTE)
        return rdx_fail(RDX_ERR_INVALID, "rdx_queue_replay: needs a compute queue");
    if (cb->dev != q->dev)
        return rdx_fail(RDX_ERR_INVALID, "rdx_queue_replay: command buffer of another device");
    if (cb->pm4.len == 0)
        return rdx_fail(RDX_ERR_INVALID, "rdx_queue_replay: empty command buffer");
    if (!cb->ib.size) {
        rdx_status st = rt_heap_alloc(cb->dev, RT_HEAP_CODE, cb->pm4.len * 4, 256, &cb->ib);
        if (st)
            return st;
        memcpy(cb->ib.cpu, cb->pm4.dw, cb->pm4.len * 4);
        cb->ib_dw = cb->pm4.len;
        __atomic_thread_fence(__ATOMIC_RELEASE);
    }
    uint32_t mem[32];
    rdx_pm4_cmdbuf pm;
    rdx_pm4_cmdbuf_init_fixed(&pm, mem, 32);
    rdx_pm4_indirect_buffer(&pm, cb->ib.addr, (uint32_t)cb->ib_dw, 0);
    pthread_mutex_lock(&q->lock);
    rdx_status st = rt_queue_ready(q);
    if (st == RDX_OK)
        st = rt_queue_submit(q, &pm, ticket);
    pthread_mutex_unlock(&q->lock);
    return st;
}
