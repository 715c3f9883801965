/*
 * realize/multi_copy.c — cross-device LOADs of a multi-device realization as
 * peer copies: a value computed on some devices and LOADed (copied) to
 * another is computed in a first stage where it lives (shard by shard when
 * sharded), and moved into the reading run's input slot by SDMA copies
 * between the GPUs' memory, which that run's compute queue waits for on the
 * GPU.
 */
#include <stdlib.h>
#include <string.h>

#include "realize/multi_internal.h"
#include "util/error.h"

static int same_device(const rdx_uop_device *a, const rdx_uop_device *b)
{
    if (a == b)
        return 1;
    if (!a || !b || a->n != b->n)
        return 0;
    for (uint32_t k = 0; k < a->n; k++)
        if (strcmp(a->names[k], b->names[k]))
            return 0;
    return 1;
}

/* The value a cross-device LOAD u copies (the v of its source AFTER(B, STORE(B, v))), or NULL. */
static const rdx_uop *copied_value(const rdx_uop *u)
{
    if (u->op != RDX_OP_LOAD || u->nsrc != 1 || !u->device || u->device->n != 1)
        return NULL;
    const rdx_uop *a = u->src[0];
    if (!a->device || same_device(u->device, a->device))
        return NULL;
    if (a->op != RDX_OP_AFTER || a->nsrc != 2 || a->src[1]->op != RDX_OP_STORE ||
        a->src[1]->nsrc != 2 || a->src[1]->src[0] != a->src[0])
        return NULL; /* a host input: each device uploads it */
    return a->src[1]->src[1];
}

/* Whether the graph under v reads a cross-device copy of a computed value. */
static int reads_copy(const rdx_uop *v)
{
    const rdx_uop **list = NULL;
    size_t n = 0;
    if (rdx_ir_toposort(v, &list, &n)) {
        rdx_error_clear();
        return 1; /* not rewritten */
    }
    int found = 0;
    for (size_t i = 0; i < n && !found; i++)
        found = copied_value(list[i]) != NULL;
    free(list);
    return found;
}

size_t mc_find(rdx_ir_ctx *ctx, const rdx_uop *const *roots, size_t n, mc_copy *out, size_t max)
{
    size_t nc = 0;
    for (size_t r = 0; r < n; r++) {
        const rdx_uop **list = NULL;
        size_t m = 0;
        if (rdx_ir_toposort(roots[r], &list, &m)) {
            rdx_error_clear();
            continue;
        }
        for (size_t i = 0; i < m && nc < max; i++) {
            const rdx_uop *u = list[i], *v = copied_value(u);
            size_t k;
            for (k = 0; k < nc && out[k].load != u; k++)
                ;
            if (!v || k < nc || reads_copy(v))
                continue;
            /* the BUFFER that stands for the LOAD: a slot no tensor API buffer uses */
            rdx_uop_arg a = rdx_uop_arg_none();
            a.i = ((int64_t)1 << 40) + (int64_t)u->id;
            a.dtype = rdx_dtype_scalar(u->dtype);
            a.device = u->device;
            a.addrspace = RDX_ADDR_GLOBAL;
            const rdx_uop *shape = rdx_ir_shape_u(ctx, u->shape, u->ndim);
            const rdx_uop *b = shape ? rdx_ir_node(ctx, RDX_OP_BUFFER, &shape, 1, &a) : NULL;
            if (!b) {
                rdx_error_clear();
                continue;
            }
            out[nc++] = (mc_copy){ .load = u, .value = v, .buf = b };
        }
        free(list);
    }
    return nc;
}

/* Copy n bytes from (sa, so) on device a into (da, doff) of device d: SDMA on d's copy queue
 * when d reaches a's memory, else through host (the first stage's downloaded result, host). */
static rdx_status move(rdx_device *const *devs, uint32_t d, uint32_t a, rdx_queue **xq,
                       rdx_buffer *da, uint64_t doff, rdx_buffer *sa, uint64_t so, const void *host,
                       uint64_t n, uint64_t *ticket, mc_stats *st)
{
    st->bytes += n;
    if (!rdx_device_can_access_peer(devs[d], devs[a])) {
        st->host_copies++;
        return rdx_buffer_upload(da, doff, host, n);
    }
    rdx_status s = xq[d] ? RDX_OK : rdx_queue_create(devs[d], RDX_QUEUE_COPY, &xq[d]);
    if (!s)
        s = rdx_queue_copy(xq[d], da, doff, sa, so, n, ticket);
    if (!s)
        st->copies++;
    return s;
}

rdx_status mc_transfer(const mc_copy *c, size_t nc, const part *ps1, size_t np1,
                       const dev_run *runs1, dev_run *runs2, rdx_device *const *devs, uint32_t ndev,
                       rdx_queue **xq, mc_stats *st)
{
    for (uint32_t d = 0; d < ndev; d++) {
        if (!runs2[d].run)
            continue;
        uint64_t ticket = 0;
        for (size_t k = 0; k < nc; k++) {
            rdx_buffer *da, *sa;
            uint64_t doff, dbytes, so, sbytes;
            if (!rz_input_slot(runs2[d].run, c[k].buf, &da, &doff, &dbytes))
                continue;
            for (size_t p = 0; p < np1; p++) {
                const part *q = &ps1[p];
                if (q->root != c[k].root)
                    continue;
                if (!rz_output_slot(runs1[q->dev].run, q->out, &sa, &so, &sbytes))
                    return rdx_fail(RDX_ERR_INVALID,
                                    "realize: copy of node #%u: device %u has no result for it",
                                    c[k].load->id, q->dev);
                const void *host = rz_output_host(runs1[q->dev].run, q->out);
                rdx_status s;
                if (q->axis < 0) { /* the whole value */
                    if (sbytes != dbytes)
                        return rdx_fail(
                            RDX_ERR_INVALID, "realize: copy of node #%u: %llu bytes into %llu",
                            c[k].load->id, (unsigned long long)sbytes, (unsigned long long)dbytes);
                    s = move(devs, d, q->dev, xq, da, doff, sa, so, host, sbytes, &ticket, st);
                    if (s)
                        return rdx_fail_context(s, "realize: copy of node #%u to device %u",
                                                c[k].load->id, d);
                    continue;
                }
                /* shard q->shard: outer blocks (axes before the shard axis) of its rows */
                const rdx_uop *v = c[k].value;
                uint64_t outer = 1, block = sbytes;
                for (int a = 0; a < q->axis; a++) {
                    int64_t e;
                    if (!rdx_uop_const_int(v->shape[a], &e) || e < 1)
                        return rdx_fail(RDX_ERR_INVALID, "realize: copy of node #%u: axis %d",
                                        c[k].load->id, a);
                    outer *= (uint64_t)e;
                }
                block /= outer;
                if (block * outer != sbytes || sbytes * q->nshards != dbytes)
                    return rdx_fail(
                        RDX_ERR_INVALID, "realize: copy of node #%u: shard of %llu bytes into %llu",
                        c[k].load->id, (unsigned long long)sbytes, (unsigned long long)dbytes);
                for (uint64_t b = 0; b < outer; b++) {
                    s = move(devs, d, q->dev, xq, da, doff + (b * q->nshards + q->shard) * block,
                             sa, so + b * block, host ? (const char *)host + b * block : NULL,
                             block, &ticket, st);
                    if (s)
                        return rdx_fail_context(s,
                                                "realize: copy of node #%u shard %u to "
                                                "device %u",
                                                c[k].load->id, q->shard, d);
                }
            }
        }
        if (!ticket)
            continue;
        /* the run's kernels wait for the copies on the GPU; a run without kernels reads its
         * slots from the host, so it waits here */
        rdx_status s = rz_kernel_count(runs2[d].run)
                           ? rdx_queue_wait_queue(rz_queue(runs2[d].run), xq[d], ticket)
                           : rdx_queue_wait(xq[d], ticket, 600000u);
        if (s)
            return rdx_fail_context(s, "realize: device %u waiting for its copies", d);
    }
    return RDX_OK;
}
