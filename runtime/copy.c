/*
 * runtime/copy.c — SDMA copies and fills on copy queues.
 */
#include "runtime/internal.h"

static rdx_status check(const rdx_queue *q, const rdx_buffer *b, uint64_t off, uint64_t n,
                        const char *what, const char *which)
{
    if (q->kind != RDX_QUEUE_COPY)
        return rdx_fail(RDX_ERR_INVALID, "%s: needs a copy queue", what);
    if (!rdx_device_can_access_peer(q->dev, b->dev))
        return rdx_fail(RDX_ERR_INVALID,
                        "%s: the %s buffer belongs to GPU %u, which GPU %u cannot access", what,
                        which, b->dev->gpu, q->dev->gpu);
    /* Buffers are allocated in whole 256-byte units; the copy may use them. */
    if (off > b->r.size || n > b->r.size - off)
        return rdx_fail(RDX_ERR_RANGE, "%s: %s bytes [%llu, %llu) outside the %llu-byte buffer",
                        what, which, (unsigned long long)off, (unsigned long long)(off + n),
                        (unsigned long long)b->size);
    return RDX_OK;
}

static rdx_status submit(rdx_queue *q, rdx_pm4_cmdbuf *cb, uint64_t *ticket)
{
    pthread_mutex_lock(&q->lock);
    rdx_status st = rt_queue_ready(q);
    if (st == RDX_OK)
        st = rt_queue_submit(q, cb, ticket);
    pthread_mutex_unlock(&q->lock);
    rdx_pm4_cmdbuf_free(cb);
    return st;
}

rdx_status rdx_queue_copy(rdx_queue *q, rdx_buffer *dst, uint64_t dst_off, const rdx_buffer *src,
                          uint64_t src_off, uint64_t n, uint64_t *ticket)
{
    const char *what = "rdx_queue_copy";
    rdx_status st = check(q, dst, dst_off, n, what, "destination");
    if (st == RDX_OK)
        st = check(q, src, src_off, n, what, "source");
    if (st == RDX_OK && n == 0)
        st = rdx_fail(RDX_ERR_INVALID, "%s: 0 bytes", what);
    if (st)
        return st;
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    rdx_sdma_copy_linear(&cb, dst->r.addr + dst_off, src->r.addr + src_off, n);
    return submit(q, &cb, ticket);
}

rdx_status rdx_queue_fill(rdx_queue *q, rdx_buffer *dst, uint64_t dst_off, uint32_t value,
                          uint64_t n, uint64_t *ticket)
{
    const char *what = "rdx_queue_fill";
    rdx_status st = check(q, dst, dst_off, n, what, "destination");
    if (st == RDX_OK && (n == 0 || n % 4 || dst_off % 4))
        st = rdx_fail(RDX_ERR_INVALID,
                      "%s: %llu bytes at offset %llu: need a non-zero multiple "
                      "of 4 at a 4-aligned offset",
                      what, (unsigned long long)n, (unsigned long long)dst_off);
    if (st)
        return st;
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    for (uint64_t done = 0; done < n;) {
        uint64_t chunk = n - done < RDX_SDMA_MAX_BYTES ? n - done : RDX_SDMA_MAX_BYTES;
        rdx_sdma_const_fill(&cb, dst->r.addr + dst_off + done, value, chunk);
        done += chunk;
    }
    return submit(q, &cb, ticket);
}
