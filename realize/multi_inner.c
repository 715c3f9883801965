/*
 * realize/multi_inner.c — a collective inside a multi-device program (an
 * allreduce, allgather or broadcast of the spec whose result further ops
 * read) run across the devices between the program's two stages: its
 * source, computed in the first stage where it lives, is moved into the
 * input slot that stands for the collective's result in each reading run of
 * the second stage — by the ring (rz_ring) for an allreduce, or an allgather
 * several devices read, by copies for a gather or a broadcast.
 */
#include <stdlib.h>
#include <string.h>

#include "realize/multi_internal.h"
#include "util/error.h"

#define INNER_WAIT_MS 600000u

/* Copy queues of the devices (one each, created on first use) and their last tickets. */
typedef struct xqs {
    rdx_queue *q[RDX_MAX_GPUS];
    uint64_t t[RDX_MAX_GPUS];
} xqs;

/* bytes from (sb, so) of device a into (db, doff) of device d: an SDMA copy on d's copy queue
 * when d is a or reaches a's memory, else through the host. */
static rdx_status move(rdx_device *const *devs, uint32_t d, uint32_t a, xqs *x, rdx_buffer *db,
                       uint64_t doff, rdx_buffer *sb, uint64_t so, uint64_t bytes,
                       mc_inner_stats *st)
{
    if (!bytes)
        return RDX_OK;
    if (d != a && !rdx_device_can_access_peer(devs[d], devs[a])) {
        void *h = malloc(bytes);
        if (!h)
            return rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
        rdx_status s = rdx_buffer_download(sb, so, h, bytes);
        if (!s)
            s = rdx_buffer_upload(db, doff, h, bytes);
        free(h);
        if (!s)
            st->host_copies++, st->bytes += bytes;
        return s;
    }
    rdx_status s = x->q[d] ? RDX_OK : rdx_queue_create(devs[d], RDX_QUEUE_COPY, &x->q[d]);
    if (!s)
        s = rdx_queue_copy(x->q[d], db, doff, sb, so, bytes, &x->t[d]);
    if (s)
        return s;
    if (d == a) {
        st->local_copies++;
    } else {
        st->peer_copies++;
        st->bytes += bytes;
    }
    return RDX_OK;
}

/* Wait for every copy submitted (all of them, even after a failure) and destroy the queues. */
static rdx_status drain(xqs *x, rdx_status st)
{
    for (uint32_t d = 0; d < RDX_MAX_GPUS; d++) {
        if (!x->q[d])
            continue;
        rdx_status s = x->t[d] ? rdx_queue_wait(x->q[d], x->t[d], INNER_WAIT_MS) : RDX_OK;
        if (s && s != RDX_ERR_FAULT)
            (void)rdx_queue_reset(x->q[d]);
        rdx_status q = rdx_queue_destroy(x->q[d]);
        if (!st)
            st = s ? rdx_fail_context(s, "realize: copies on device %u", d) : q;
        x->q[d] = NULL;
    }
    return st;
}

rdx_status mc_inner_run(const mc_inner *c, const part *ps1, size_t np1, const dev_run *runs1,
                        dev_run *runs2, rdx_device *const *devs, uint32_t ndev, mc_inner_stats *st)
{
    static const char *const names[] = { "", "allreduce", "allgather", "broadcast",
                                         "reduce_scatter" };
    const char *what = names[c->kind];
    rdx_dtype dt = rdx_dtype_scalar(c->x->dtype);
    uint64_t isz = rdx_dtype_itemsize(dt), bytes = c->count * isz;
    /* the readers: each run of the second stage with a slot for buf, row 0 of it */
    rdx_buffer *rb[RDX_MAX_GPUS] = { NULL };
    uint64_t roff[RDX_MAX_GPUS] = { 0 };
    uint32_t nread = 0;
    for (uint32_t d = 0; d < ndev; d++) {
        uint64_t sz;
        if (!runs2[d].run || !rz_input_slot(runs2[d].run, c->buf, &rb[d], &roff[d], &sz))
            continue;
        if (sz < bytes)
            return rdx_fail(RDX_ERR_INVALID, "realize: %s of node #%u: a slot of %llu bytes", what,
                            c->x->id, (unsigned long long)sz);
        nread++;
    }
    if (!nread)
        return RDX_OK;
    /* the source: x's parts as the first stage computed them */
    const part *sp[RDX_MAX_GPUS] = { NULL };
    rdx_buffer *sb[RDX_MAX_GPUS];
    uint64_t soff[RDX_MAX_GPUS], ssz[RDX_MAX_GPUS];
    uint32_t n = 0;
    for (size_t p = 0; p < np1; p++) {
        const part *q = &ps1[p];
        if (q->root != c->root)
            continue;
        uint32_t j = c->kind == MC_BROADCAST ? 0 : q->shard;
        if (j >= RDX_MAX_GPUS || (c->kind == MC_BROADCAST) != (q->axis < 0) ||
            !rz_output_slot(runs1[q->dev].run, q->out, &sb[j], &soff[j], &ssz[j]))
            return rdx_fail(RDX_ERR_INVALID, "realize: %s of node #%u: no result on device %u",
                            what, c->x->id, q->dev);
        sp[j] = q;
        n = c->kind == MC_BROADCAST ? 1 : q->nshards;
    }
    for (uint32_t j = 0; j < n; j++)
        if (!sp[j])
            return rdx_fail(RDX_ERR_INVALID, "realize: %s of node #%u: no shard %u", what, c->x->id,
                            j);
    xqs x;
    memset(&x, 0, sizeof x);
    rdx_status s = RDX_OK;
    uint64_t part_bytes = c->kind == MC_ALLGATHER ? bytes / n : bytes;
    for (uint32_t j = 0; j < n; j++)
        if (ssz[j] != part_bytes)
            return rdx_fail(
                RDX_ERR_INVALID, "realize: %s of node #%u: part %u has %llu bytes, expected %llu",
                what, c->x->id, j, (unsigned long long)ssz[j], (unsigned long long)part_bytes);
    if (c->kind == MC_BROADCAST || (c->kind == MC_ALLGATHER && nread == 1)) {
        /* a copy to each reader (broadcast), or each shard's copy into the one reader's slot
         * (gather) */
        for (uint32_t d = 0; d < ndev && !s; d++) {
            if (!rb[d])
                continue;
            for (uint32_t j = 0; j < n && !s; j++)
                s = move(devs, d, sp[j]->dev, &x, rb[d], roff[d] + j * part_bytes, sb[j], soff[j],
                         part_bytes, st);
            if (s)
                s = rdx_fail_context(s, "realize: %s of node #%u to device %u", what, c->x->id, d);
        }
        return drain(&x, s);
    }
    /* the ring over the shards' devices: each shard copied into its device's slot (or a
     * buffer of its own where the device reads no such slot), at its chunk for an allgather */
    rdx_device *dv[RDX_MAX_GPUS];
    rdx_buffer *rbuf[RDX_MAX_GPUS], *own[RDX_MAX_GPUS] = { NULL };
    uint64_t roffs[RDX_MAX_GPUS];
    for (uint32_t j = 0; j < n && !s; j++) {
        uint32_t d = sp[j]->dev;
        dv[j] = devs[d];
        rbuf[j] = rb[d], roffs[j] = roff[d];
        if (!rbuf[j]) {
            s = rdx_buffer_alloc(devs[d], bytes, RDX_MEM_DEVICE, &own[j]);
            rbuf[j] = own[j], roffs[j] = 0;
        }
        uint64_t at = c->kind == MC_ALLGATHER ? j * part_bytes : 0;
        if (!s)
            s = move(devs, d, d, &x, rbuf[j], roffs[j] + at, sb[j], soff[j], part_bytes, st);
        if (s)
            s = rdx_fail_context(s, "realize: %s of node #%u: shard %u on device %u", what,
                                 c->x->id, j, d);
    }
    s = drain(&x, s);
    rdx_collective_stats cs;
    memset(&cs, 0, sizeof cs);
    if (!s)
        s = rz_ring(what,
                    c->kind == MC_ALLGATHER ? RZ_RING_ALLGATHER
                                            : RZ_RING_REDUCE_SCATTER | RZ_RING_ALLGATHER,
                    dv, n, rbuf, roffs, c->count, dt, &cs);
    if (!s) {
        st->ring_copies += cs.copies;
        st->ring_kernels += cs.kernels;
        for (uint32_t j = 0; j < n; j++)
            st->ring_bytes_sent[sp[j]->dev] += cs.bytes_sent[j];
    } else {
        s = rdx_fail_context(s, "realize: %s of node #%u", what, c->x->id);
    }
    /* readers outside the ring: a copy of the result from the first shard's device */
    for (uint32_t d = 0; d < ndev && !s; d++) {
        int member = 0;
        for (uint32_t j = 0; j < n; j++)
            member |= sp[j]->dev == d;
        if (rb[d] && !member)
            s = move(devs, d, sp[0]->dev, &x, rb[d], roff[d], rbuf[0], roffs[0], bytes, st);
    }
    s = drain(&x, s);
    for (uint32_t j = 0; j < n; j++)
        rdx_buffer_free(own[j]);
    return s;
}
