/*
 * runtime/buffer.c — buffers: sub-allocations of the device's heaps; host
 * buffers are copied by the CPU, device buffers through a staging buffer and
 * the device's own SDMA queue.
 */
#include "runtime/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUFFER_ALIGN 256u

static rdx_status buffer_new(rdx_device *dev, uint32_t heap, uint64_t size, bool internal,
                             rdx_buffer **out)
{
    rdx_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return rdx_fail(RDX_ERR_NOMEM, "rdx_buffer_alloc: out of memory");
    /* Whole 256-byte units, so SDMA fills and copies may cover the tail; a
     * kernel may touch the `size` bytes asked for (noted as the allocation). */
    rdx_status st =
        rt_heap_alloc_used(dev, heap, (size + 255) & ~255ull, BUFFER_ALIGN, size, "buffer", &b->r);
    if (st) {
        free(b);
        return rdx_fail_context(st, "allocating a %llu-byte %s buffer", (unsigned long long)size,
                                heap == RT_HEAP_DEVICE ? "device" : "host");
    }
    b->dev = dev;
    b->heap = heap;
    b->size = size;
    b->internal = internal;
    rt_list_init(&b->link);
    pthread_mutex_lock(&dev->lock);
    rt_list_add(&dev->buffers, &b->link);
    dev->counts.buffers += !internal;
    pthread_mutex_unlock(&dev->lock);
    *out = b;
    return RDX_OK;
}

/* The device's copy queue and staging buffer, with dev->staging_lock held. */
static rdx_status staging_get(rdx_device *dev)
{
    rdx_status st = RDX_OK;
    if (!dev->copy_queue)
        st = rdx_queue_create(dev, RDX_QUEUE_COPY, &dev->copy_queue);
    if (st == RDX_OK && !dev->staging)
        st = buffer_new(dev, RT_HEAP_HOST, RT_STAGING_BYTES, true, &dev->staging);
    return st;
}

static rdx_status copy_wait(rdx_device *dev, rdx_status st, uint64_t ticket)
{
    if (st == RDX_OK)
        st = rdx_queue_wait(dev->copy_queue, ticket, RT_INTERNAL_WAIT_MS);
    return st;
}

rdx_status rdx_buffer_alloc(rdx_device *dev, uint64_t size, rdx_mem mem, rdx_buffer **out)
{
    *out = NULL;
    if (size == 0)
        return rdx_fail(RDX_ERR_INVALID, "rdx_buffer_alloc: size 0");
    if (mem != RDX_MEM_DEVICE && mem != RDX_MEM_HOST)
        return rdx_fail(RDX_ERR_INVALID, "rdx_buffer_alloc: unknown memory kind %d", (int)mem);
    rdx_buffer *b;
    rdx_status st =
        buffer_new(dev, mem == RDX_MEM_DEVICE ? RT_HEAP_DEVICE : RT_HEAP_HOST, size, false, &b);
    if (st)
        return st;
    if (b->r.cpu) {
        memset(b->r.cpu, 0, b->r.size);
    } else {
        pthread_mutex_lock(&dev->staging_lock);
        uint64_t t = 0;
        st = staging_get(dev);
        if (st == RDX_OK)
            st = rdx_queue_fill(dev->copy_queue, b, 0, 0, b->r.size, &t);
        st = copy_wait(dev, st, t);
        pthread_mutex_unlock(&dev->staging_lock);
        if (st) {
            rdx_buffer_free(b);
            return rdx_fail_context(st, "clearing a new device buffer");
        }
    }
    *out = b;
    return RDX_OK;
}

void rdx_buffer_free(rdx_buffer *b)
{
    if (!b)
        return;
    rdx_device *dev = b->dev;
    pthread_mutex_lock(&dev->lock);
    rt_list_del(&b->link);
    dev->counts.buffers -= !b->internal;
    pthread_mutex_unlock(&dev->lock);
    rt_heap_free_or_warn(dev, b->heap, &b->r);
    free(b);
}

rdx_status rdx_buffer_set_label(rdx_buffer *b, const char *label)
{
    if (!label)
        return rdx_fail(RDX_ERR_INVALID, "rdx_buffer_set_label: NULL label");
    char copy[64];
    snprintf(copy, sizeof copy, "%s", label);
    rdx_kfd *kfd = b->dev->kfd;
    rdx_status st = rdx_kfd_mem_note(kfd, RDX_OS_MEM_FREE, b->r.addr, 0, NULL);
    if (st == RDX_OK)
        st = rdx_kfd_mem_note(kfd, RDX_OS_MEM_ALLOC, b->r.addr, b->size, copy);
    if (st)
        return rdx_fail_context(st, "labelling a %llu-byte buffer '%s'",
                                (unsigned long long)b->size, copy);
    return RDX_OK;
}

uint64_t rdx_buffer_gpu_addr(const rdx_buffer *b)
{
    return b->r.addr;
}

uint64_t rdx_buffer_size(const rdx_buffer *b)
{
    return b->size;
}

void *rdx_buffer_cpu(const rdx_buffer *b)
{
    return b->r.cpu;
}

static rdx_status check_range(const rdx_buffer *b, uint64_t off, uint64_t n, const char *what)
{
    if (off > b->size || n > b->size - off)
        return rdx_fail(RDX_ERR_RANGE, "%s: bytes [%llu, %llu) outside the %llu-byte buffer", what,
                        (unsigned long long)off, (unsigned long long)(off + n),
                        (unsigned long long)b->size);
    return RDX_OK;
}

/* Move n bytes between host memory and a device buffer through staging. */
static rdx_status staged(rdx_buffer *b, uint64_t off, void *host, uint64_t n, bool up)
{
    rdx_device *dev = b->dev;
    pthread_mutex_lock(&dev->staging_lock);
    rdx_status st = staging_get(dev);
    for (uint64_t done = 0; st == RDX_OK && done < n;) {
        uint64_t chunk = n - done < RT_STAGING_BYTES ? n - done : RT_STAGING_BYTES;
        uint64_t t = 0;
        if (up) {
            memcpy(dev->staging->r.cpu, (char *)host + done, chunk);
            st = rdx_queue_copy(dev->copy_queue, b, off + done, dev->staging, 0, chunk, &t);
        } else {
            st = rdx_queue_copy(dev->copy_queue, dev->staging, 0, b, off + done, chunk, &t);
        }
        st = copy_wait(dev, st, t);
        if (st == RDX_OK && !up)
            memcpy((char *)host + done, dev->staging->r.cpu, chunk);
        done += chunk;
    }
    pthread_mutex_unlock(&dev->staging_lock);
    return st;
}

rdx_status rdx_buffer_upload(rdx_buffer *b, uint64_t off, const void *src, uint64_t n)
{
    rdx_status st = check_range(b, off, n, "rdx_buffer_upload");
    if (st || n == 0)
        return st;
    if (b->r.cpu) {
        memcpy((char *)b->r.cpu + off, src, n);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        return RDX_OK;
    }
    return staged(b, off, (void *)(uintptr_t)src, n, true);
}

rdx_status rdx_buffer_download(rdx_buffer *b, uint64_t off, void *dst, uint64_t n)
{
    rdx_status st = check_range(b, off, n, "rdx_buffer_download");
    if (st || n == 0)
        return st;
    if (b->r.cpu) {
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        memcpy(dst, (char *)b->r.cpu + off, n);
        return RDX_OK;
    }
    return staged(b, off, dst, n, false);
}
