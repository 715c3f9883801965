/*
 * realize/multi_inner.c — a collective inside a multi-device program (an
 * allreduce, allgather or broadcast of the spec whose result further ops
 * read) run across the devices between the program's two stages: its
 * source, computed in the first stage where it lives, is moved into the
 * input slot that stands for the collective's result in each reading run of
 * the second stage — by the ring (rz_ring_start) for an allreduce, or an
 * allgather several devices read, by copies for a gather or a broadcast —
 * and the reading runs' kernels are queued behind it with GPU-side waits
 * (a fence per reading device), so the host does not wait between the stages.
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
            st->host_copies++, st->host_waits++, st->bytes += bytes;
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

/* Wait for every copy submitted (all of them, even after a failure) and destroy the queues
 * (st: an earlier failure, kept). */
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

/* What mc_inner_start leaves running (see the header). */
struct mc_inner_pending {
    const mc_inner *c;
    xqs x;
    rz_ring_run *ring;
    /* the ring's members (its arrays must live while it runs): devices, slots */
    uint32_t n, mdev[RDX_MAX_GPUS];
    rdx_device *dv[RDX_MAX_GPUS];
    rdx_buffer *rbuf[RDX_MAX_GPUS], *own[RDX_MAX_GPUS];
    uint64_t roffs[RDX_MAX_GPUS];
    rdx_fence *gate[RDX_MAX_GPUS]; /* per reading device: 1 once its slot is filled */
    int ended;
};

/* The end of the ring, waited for by the host (counted) before a copy through the host. */
static rdx_status end_ring(mc_inner_pending *p, mc_inner_stats *st)
{
    rdx_collective_stats cs;
    memset(&cs, 0, sizeof cs);
    rdx_status s = rz_ring_end(p->ring, &cs);
    p->ring = NULL;
    st->ring_copies += cs.copies;
    st->ring_kernels += cs.kernels;
    for (uint32_t j = 0; j < p->n; j++)
        st->ring_bytes_sent[p->mdev[j]] += cs.bytes_sent[j];
    return s;
}

rdx_status mc_inner_start(const mc_inner *c, const part *ps1, size_t np1, const dev_run *runs1,
                          dev_run *runs2, rdx_device *const *devs, uint32_t ndev,
                          mc_inner_stats *st, mc_inner_pending **out)
{
    static const char *const names[] = { "", "allreduce", "allgather", "broadcast",
                                         "reduce_scatter" };
    const char *what = names[c->kind];
    *out = NULL;
    rdx_dtype dt = rdx_dtype_scalar(c->x->dtype);
    uint64_t isz = rdx_dtype_itemsize(dt), bytes = c->count * isz;
    /* the readers: each run of the second stage with a slot for buf (its one row) */
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
    uint64_t part_bytes = c->kind == MC_ALLGATHER ? bytes / n : bytes;
    for (uint32_t j = 0; j < n; j++)
        if (ssz[j] != part_bytes)
            return rdx_fail(
                RDX_ERR_INVALID, "realize: %s of node #%u: part %u has %llu bytes, expected %llu",
                what, c->x->id, j, (unsigned long long)ssz[j], (unsigned long long)part_bytes);
    mc_inner_pending *p = calloc(1, sizeof *p);
    if (!p)
        return rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    *out = p;
    p->c = c;
    rdx_status s = RDX_OK;
    for (uint32_t d = 0; d < ndev && !s; d++)
        if (rb[d])
            s = rdx_fence_create(devs[d], 0, &p->gate[d]);
    if (s)
        return rdx_fail_context(s, "realize: %s of node #%u", what, c->x->id);
    if (c->kind == MC_BROADCAST || (c->kind == MC_ALLGATHER && nread == 1)) {
        /* a copy to each reader (broadcast), or each shard's copy into the one reader's slot
         * (gather) */
        for (uint32_t d = 0; d < ndev && !s; d++) {
            if (!rb[d])
                continue;
            for (uint32_t j = 0; j < n && !s; j++)
                s = move(devs, d, sp[j]->dev, &p->x, rb[d], roff[d] + j * part_bytes, sb[j],
                         soff[j], part_bytes, st);
            if (s)
                s = rdx_fail_context(s, "realize: %s of node #%u to device %u", what, c->x->id, d);
        }
    } else {
        /* the ring over the shards' devices: each shard copied into its device's slot (or a
         * buffer of its own where the device reads no such slot), at its chunk for an
         * allgather; the ring's queues wait on the GPU for those copies */
        rdx_queue *aq[RDX_MAX_GPUS] = { NULL };
        uint64_t at[RDX_MAX_GPUS] = { 0 };
        p->n = n;
        for (uint32_t j = 0; j < n && !s; j++) {
            uint32_t d = sp[j]->dev;
            p->mdev[j] = d;
            p->dv[j] = devs[d];
            p->rbuf[j] = rb[d], p->roffs[j] = roff[d];
            if (!p->rbuf[j]) {
                s = rdx_buffer_alloc(devs[d], bytes, RDX_MEM_DEVICE, &p->own[j]);
                p->rbuf[j] = p->own[j], p->roffs[j] = 0;
            }
            uint64_t off = c->kind == MC_ALLGATHER ? j * part_bytes : 0;
            if (!s)
                s = move(devs, d, d, &p->x, p->rbuf[j], p->roffs[j] + off, sb[j], soff[j],
                         part_bytes, st);
            aq[j] = p->x.q[d], at[j] = p->x.t[d];
            if (s)
                s = rdx_fail_context(s, "realize: %s of node #%u: shard %u on device %u", what,
                                     c->x->id, j, d);
        }
        if (!s)
            s = rz_ring_start(what,
                              c->kind == MC_ALLGATHER ? RZ_RING_ALLGATHER
                                                      : RZ_RING_REDUCE_SCATTER | RZ_RING_ALLGATHER,
                              p->dv, n, p->rbuf, p->roffs, c->count, dt, aq, at, &p->ring);
        /* readers outside the ring: a copy of the result from the first shard's device, queued
         * behind the ring there (through the host, after waiting for the ring, where the
         * reader cannot reach that device's memory) */
        for (uint32_t d = 0; d < ndev && !s; d++) {
            int member = 0;
            for (uint32_t j = 0; j < n; j++)
                member |= p->mdev[j] == d;
            if (!rb[d] || member)
                continue;
            if (!rdx_device_can_access_peer(devs[d], devs[p->mdev[0]])) {
                if (p->ring)
                    st->host_waits++;
                s = end_ring(p, st);
            } else if (!p->x.q[d]) {
                s = rdx_queue_create(devs[d], RDX_QUEUE_COPY, &p->x.q[d]);
            }
            if (!s)
                s = rz_ring_gate(p->ring, 0, p->x.q[d]);
            if (!s)
                s = move(devs, d, p->mdev[0], &p->x, rb[d], roff[d], p->rbuf[0], p->roffs[0], bytes,
                         st);
            if (s)
                s = rdx_fail_context(s, "realize: %s of node #%u to device %u", what, c->x->id, d);
        }
        /* each member that reads: its slot is final once the ring is done with it (and, for
         * the first, once the copies out of it are) */
        for (uint32_t j = 0; j < n && !s; j++) {
            uint32_t d = p->mdev[j];
            if (!rb[d])
                continue;
            s = rz_ring_gate(p->ring, j, p->x.q[d]);
            for (uint32_t o = 0; o < ndev && !s && j == 0; o++)
                if (o != d && p->x.q[o] && p->x.t[o])
                    s = rdx_queue_wait_queue(p->x.q[d], p->x.q[o], p->x.t[o]);
        }
        if (s && !strstr(rdx_error_message(), "node #"))
            s = rdx_fail_context(s, "realize: %s of node #%u", what, c->x->id);
    }
    /* each reader's gate: set by its copy queue after everything above for it; its run's
     * kernels wait for it on the GPU (a run without kernels reads its slot from the host: the
     * host waits for it there) */
    for (uint32_t d = 0; d < ndev && !s; d++) {
        if (!rb[d])
            continue;
        if (!p->x.q[d])
            s = rdx_queue_create(devs[d], RDX_QUEUE_COPY, &p->x.q[d]);
        if (!s)
            s = rdx_queue_signal(p->x.q[d], p->gate[d], 1, &p->x.t[d]);
        if (!s && rz_kernel_count(runs2[d].run)) {
            s = rdx_queue_wait_fence(rz_queue(runs2[d].run), p->gate[d], 1);
        } else if (!s) {
            st->host_waits++;
            s = rdx_fence_wait(p->gate[d], 1, INNER_WAIT_MS);
        }
        if (s)
            s = rdx_fail_context(s, "realize: %s of node #%u, device %u", what, c->x->id, d);
    }
    return s;
}

rdx_status mc_inner_end(mc_inner_pending *p, rdx_status failed, mc_inner_stats *st)
{
    if (!p || p->ended)
        return RDX_OK;
    p->ended = 1;
    static const char *const names[] = { "", "allreduce", "allgather", "broadcast",
                                         "reduce_scatter" };
    rdx_status s = p->ring ? end_ring(p, st) : RDX_OK;
    if (s) /* the tensor: the collective's node (the ring names the device and queue) */
        s = rdx_fail_context(s, "realize: %s of node #%u", names[p->c->kind], p->c->x->id);
    if (s || failed) {
        /* abandon the copies (they may wait on the GPU for a ring queue that was reset) */
        for (uint32_t d = 0; d < RDX_MAX_GPUS; d++)
            if (p->x.q[d] && rdx_queue_completed(p->x.q[d]) < rdx_queue_submitted(p->x.q[d]))
                (void)rdx_queue_reset(p->x.q[d]);
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
        (void)drain(&p->x, RDX_ERR_INVALID);
        if (s)
            rdx_fail(s, "%s", msg);
    } else {
        s = drain(&p->x, RDX_OK);
        if (s)
            s = rdx_fail_context(s, "realize: %s of node #%u", names[p->c->kind], p->c->x->id);
    }
    /* the readers' kernels go on (with whatever is in their slots after a failure, which is
     * then reported): never left waiting */
    for (uint32_t d = 0; d < RDX_MAX_GPUS; d++)
        if (p->gate[d] && rdx_fence_value(p->gate[d]) < 1)
            (void)rdx_fence_set(p->gate[d], 1);
    for (uint32_t j = 0; j < RDX_MAX_GPUS; j++) {
        rdx_buffer_free(p->own[j]);
        p->own[j] = NULL;
    }
    return s;
}

void mc_inner_free(mc_inner_pending *p)
{
    if (!p)
        return;
    for (uint32_t d = 0; d < RDX_MAX_GPUS; d++)
        rdx_fence_destroy(p->gate[d]);
    free(p);
}
