/*
 * realize/collective.c — ring collectives across the GPUs of one machine
 * (rdx/collective.h): peer copies on each GPU's SDMA queue, reduction kernels
 * (compiled by the code generator from `a + b` for each chunk size) on each
 * GPU's compute queue, and GPU-side waits between the queues, so the host
 * only submits and waits for the end.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdx/codegen.h>
#include <rdx/codegen_front.h>
#include <rdx/collective.h>
#include <rdx/tensor.h>

#include "realize/realize_internal.h"
#include "util/error.h"

#define COLL_WAIT_MS   600000u
#define COLL_MAX_CHUNK ((int64_t)1 << 30) /* elements of one chunk (a 32-bit thread index) */

typedef struct coll {
    uint32_t n;
    rdx_device *const *dev;
    rdx_buffer *const *buf;
    uint64_t base[RDX_MAX_GPUS]; /* byte offset of each device's data in its buffer */
    uint64_t count;
    unsigned isz;
    rdx_queue *cq[RDX_MAX_GPUS], *xq[RDX_MAX_GPUS]; /* compute, copy */
    uint64_t ct[RDX_MAX_GPUS], xt[RDX_MAX_GPUS];    /* last tickets */
    rdx_queue *in_q[RDX_MAX_GPUS];                  /* the last copy into device i's memory */
    uint64_t in_t[RDX_MAX_GPUS];
    rdx_buffer *recv[RDX_MAX_GPUS]; /* a chunk received for reduction */
    /* the reduction kernels: out = in0 + in1 over size[v] elements, one per chunk size (the
     * chunks have at most two sizes) */
    uint32_t nvar;
    uint64_t size[2];
    rdx_codegen_kernel *ck[2];
    int64_t slot_out[2], slot_in[2][2];
    rdx_program *prog[RDX_MAX_GPUS][2];
    const rdx_kernel *kern[RDX_MAX_GPUS][2];
    rdx_graph *g; /* owns the IR the kernels' launch expressions live in */
    uint64_t ticks[RDX_MAX_GPUS][2 * RDX_MAX_GPUS]; /* kernel tickets per device, for times */
    uint32_t nticks[RDX_MAX_GPUS];
    rdx_collective_stats *st;
} coll;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t rdx_collective_chunk(uint64_t count, uint32_t n, uint32_t c, uint64_t *elems)
{
    uint64_t base = count / n, rem = count % n;
    if (elems)
        *elems = base + (c < rem);
    return c * base + (c < rem ? c : rem);
}

static rdx_status check_args(const char *what, rdx_device *const *devs, uint32_t n,
                             rdx_buffer *const *bufs, const uint64_t *offs, uint64_t count,
                             rdx_dtype dt)
{
    if (!devs || !bufs || n < 1 || n > RDX_MAX_GPUS)
        return rdx_fail(RDX_ERR_INVALID, "%s: %u devices (expected 1..%d)%s", what, n, RDX_MAX_GPUS,
                        devs && bufs ? "" : ", NULL arrays");
    if (dt.scalar == RDX_BOOL || dt.count != 1 || dt.ptr != RDX_ADDR_NONE)
        return rdx_fail(RDX_ERR_INVALID, "%s: dtype %s cannot be summed", what,
                        rdx_scalar_name((rdx_scalar)dt.scalar));
    if (count / n >= (uint64_t)COLL_MAX_CHUNK)
        return rdx_fail(RDX_ERR_RANGE, "%s: %llu elements over %u devices: chunks of at most %lld",
                        what, (unsigned long long)count, n, (long long)COLL_MAX_CHUNK - 1);
    for (uint32_t i = 0; i < n; i++) {
        if (!devs[i] || !bufs[i])
            return rdx_fail(RDX_ERR_INVALID, "%s: device %u or its buffer is NULL", what, i);
        const rdx_device_info *a = rdx_device_get_info(devs[i]), *b = rdx_device_get_info(devs[0]);
        if (strcmp(a->target, b->target))
            return rdx_fail(RDX_ERR_INVALID,
                            "%s: devices of different architectures: device %u (GPU %u) is a "
                            "%s, device 0 (GPU %u) a %s",
                            what, i, a->gpu_index, a->target, b->gpu_index, b->target);
        for (uint32_t j = 0; j < i; j++) {
            if (devs[j] == devs[i])
                return rdx_fail(RDX_ERR_INVALID, "%s: device %u is device %u again", what, i, j);
            if (!rdx_device_can_access_peer(devs[i], devs[j]) ||
                !rdx_device_can_access_peer(devs[j], devs[i]))
                return rdx_fail(RDX_ERR_INVALID,
                                "%s: device %u (GPU %u) and device %u (GPU %u) cannot access "
                                "each other's memory (not GPUs of one machine with peer access)",
                                what, j, rdx_device_get_info(devs[j])->gpu_index, i, a->gpu_index);
        }
        uint64_t need = count * rdx_dtype_itemsize(dt), off = offs ? offs[i] : 0;
        if (rdx_buffer_size(bufs[i]) < need || rdx_buffer_size(bufs[i]) - need < off)
            return rdx_fail(RDX_ERR_INVALID,
                            "%s: the buffer of device %u (GPU %u) holds %llu bytes; %llu elements "
                            "of %s at offset %llu need %llu",
                            what, i, a->gpu_index, (unsigned long long)rdx_buffer_size(bufs[i]),
                            (unsigned long long)count, rdx_scalar_name((rdx_scalar)dt.scalar),
                            (unsigned long long)off, (unsigned long long)(off + need));
    }
    return RDX_OK;
}

/* Compile variant v: out = in0 + in1 over size[v] elements of dtype dt (a concrete size: the
 * heuristics vectorize it, which they cannot for a symbolic one). */
static rdx_status compile_add(coll *c, rdx_dtype dt, uint32_t v)
{
    rdx_status st = c->g ? RDX_OK : rdx_graph_create(&c->g, NULL);
    if (st)
        return st;
    int64_t n = (int64_t)c->size[v];
    const rdx_tensor *a = rdx_tensor_empty(c->g, dt, 1, &n);
    const rdx_tensor *b = rdx_tensor_empty(c->g, dt, 1, &n);
    const rdx_tensor *z = rdx_tensor_add(c->g, a, b);
    if (!z)
        return rdx_fail(rdx_graph_status(c->g), "collective: building the reduction: %s",
                        rdx_graph_error(c->g));
    rdx_ir_ctx *ctx = rdx_graph_ir(c->g);
    rdx_schedule *s = NULL;
    st = rdx_cg_schedule(ctx, &z, 1, &s);
    if (!st && s->nkernels != 1)
        st = rdx_fail(RDX_ERR_UNSUPPORTED, "collective: the reduction is %zu kernels", s->nkernels);
    const rdx_uop *typed = NULL, *opt = NULL, *ko = NULL;
    rdx_opt opts[16];
    size_t nopts = 0;
    if (!st)
        st = rdx_cg_axis_types(ctx, s->kernels[0].sink, &typed);
    if (!st)
        st = rdx_cg_heuristic(typed, opts, 16, &nopts);
    if (!st)
        st = rdx_cg_apply_opts(ctx, typed, opts, nopts, &opt);
    if (!st)
        st = rdx_cg_expand(ctx, opt, &ko);
    rdx_codegen_options co;
    memset(&co, 0, sizeof co);
    co.name = "allreduce_add";
    co.target = rdx_device_get_info(c->dev[0])->target; /* the devices' (one) target */
    if (!st)
        st = rdx_codegen_compile(ctx, ko, &co, &c->ck[v]);
    if (!st) {
        const rdx_sched_kernel *kn = &s->kernels[0];
        int nin = 0;
        c->slot_out[v] = -1;
        for (uint32_t p = 0; p < kn->nparams; p++) {
            if (s->buffers[kn->params[p]].kind == RDX_SBUF_OUTPUT)
                c->slot_out[v] = p;
            else if (nin < 2)
                c->slot_in[v][nin++] = p;
        }
        if (c->slot_out[v] < 0 || nin != 2)
            st = rdx_fail(RDX_ERR_UNSUPPORTED, "collective: unexpected reduction kernel shape");
    }
    rdx_schedule_free(s);
    return st;
}

/* device d: buf[d][off..off+elems) += recv[d][0..elems). */
static rdx_status reduce(coll *c, uint32_t d, uint64_t off, uint64_t elems)
{
    uint32_t v = elems == c->size[0] ? 0 : 1;
    assert(elems == c->size[v] && c->ck[v]);
    const rdx_codegen_kernel *ck = c->ck[v];
    rdx_arg args[8];
    if (ck->nargs > 8)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "collective: reduction kernel with %zu arguments",
                        ck->nargs);
    for (size_t a = 0; a < ck->nargs; a++) {
        const rdx_codegen_arg *ar = &ck->args[a];
        if (ar->kind != RDX_CG_ARG_BUFFER)
            return rdx_fail(RDX_ERR_UNSUPPORTED, "collective: reduction kernel argument %zu", a);
        if (ar->slot == c->slot_in[v][1]) {
            args[a] = rdx_arg_buffer(c->recv[d]);
        } else {
            args[a] = rdx_arg_buffer(c->buf[d]);
            args[a].offset = c->base[d] + off * c->isz;
        }
    }
    rdx_launch l;
    memset(&l, 0, sizeof l);
    rdx_status st = rdx_codegen_launch(ck, NULL, 0, l.global, l.block);
    l.kernel = c->kern[d][v];
    l.args = args;
    l.nargs = (uint32_t)ck->nargs;
    if (!st && c->in_q[d])
        st = rdx_queue_wait_queue(c->cq[d], c->in_q[d], c->in_t[d]);
    if (!st)
        st = rdx_queue_dispatch(c->cq[d], &l, &c->ct[d]);
    if (st)
        return st;
    c->ticks[d][c->nticks[d]++] = c->ct[d];
    c->st->kernels++;
    return RDX_OK;
}

/* Device s copies elems elements at element offset src_off of its buffer to device t: into
 * t's receive buffer (into_recv) or at the same offset of t's buffer. */
static rdx_status send(coll *c, uint32_t s, uint32_t t, uint64_t off, uint64_t elems, int into_recv)
{
    rdx_status st = RDX_OK;
    /* the data is final on s (its kernels and the copies into it), and t no longer reads the
     * bytes about to be overwritten (its kernels) */
    if (c->ct[s])
        st = rdx_queue_wait_queue(c->xq[s], c->cq[s], c->ct[s]);
    if (!st && c->in_q[s] && c->in_q[s] != c->xq[s])
        st = rdx_queue_wait_queue(c->xq[s], c->in_q[s], c->in_t[s]);
    if (!st && c->ct[t])
        st = rdx_queue_wait_queue(c->xq[s], c->cq[t], c->ct[t]);
    uint64_t bytes = elems * c->isz;
    if (!st)
        st = into_recv ? rdx_queue_copy(c->xq[s], c->recv[t], 0, c->buf[s],
                                        c->base[s] + off * c->isz, bytes, &c->xt[s])
                       : rdx_queue_copy(c->xq[s], c->buf[t], c->base[t] + off * c->isz, c->buf[s],
                                        c->base[s] + off * c->isz, bytes, &c->xt[s]);
    if (st)
        return st;
    c->in_q[t] = c->xq[s];
    c->in_t[t] = c->xt[s];
    c->st->copies++;
    c->st->bytes_sent[s] += bytes;
    c->st->bytes_received[t] += bytes;
    return RDX_OK;
}

/* The reduce-scatter ring: after it device i holds the sum of chunk i. */
static rdx_status ring_reduce_scatter(coll *c)
{
    uint32_t n = c->n;
    for (uint32_t step = 0; step + 1 < n; step++) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t ch = (i + 2 * n - step - 1) % n, to = (i + 1) % n;
            uint64_t elems, off = rdx_collective_chunk(c->count, n, ch, &elems);
            if (!elems)
                continue;
            rdx_status st = send(c, i, to, off, elems, 1);
            if (st)
                return rdx_fail_context(st, "reduce-scatter step %u: device %u -> device %u", step,
                                        i, to);
        }
        for (uint32_t i = 0; i < n; i++) {
            uint32_t from = (i + n - 1) % n, ch = (from + 2 * n - step - 1) % n;
            uint64_t elems, off = rdx_collective_chunk(c->count, n, ch, &elems);
            if (!elems)
                continue;
            rdx_status st = reduce(c, i, off, elems);
            if (st)
                return rdx_fail_context(st, "reduce-scatter step %u: reduction on device %u", step,
                                        i);
        }
    }
    return RDX_OK;
}

/* The all-gather ring: device i's chunk i travels round the ring. */
static rdx_status ring_allgather(coll *c)
{
    uint32_t n = c->n;
    for (uint32_t step = 0; step + 1 < n; step++)
        for (uint32_t i = 0; i < n; i++) {
            uint32_t ch = (i + n - step) % n, to = (i + 1) % n;
            uint64_t elems, off = rdx_collective_chunk(c->count, n, ch, &elems);
            if (!elems)
                continue;
            rdx_status st = send(c, i, to, off, elems, 0);
            if (st)
                return rdx_fail_context(st, "all-gather step %u: device %u -> device %u", step, i,
                                        to);
        }
    return RDX_OK;
}

/* Wait for every queue, polling them in turn (a queue may wait on the GPU for another that
 * failed); after the first failure, which names its device, the queues still busy are reset
 * (their work abandoned) so that nothing waits for ever. */
static rdx_status finish(coll *c)
{
    rdx_status first = RDX_OK;
    char msg[1024] = "";
    uint64_t start = now_ns();
    for (;;) {
        int busy = 0;
        for (uint32_t i = 0; i < c->n; i++) {
            rdx_queue *qs[2] = { c->cq[i], c->xq[i] };
            for (int k = 0; k < 2; k++) {
                if (!qs[k] || rdx_queue_completed(qs[k]) >= rdx_queue_submitted(qs[k]))
                    continue;
                rdx_status st = rdx_queue_finish(qs[k], first ? 0 : 20);
                if (st == RDX_ERR_TIMEOUT && !first) {
                    busy = 1;
                    continue;
                }
                if (st == RDX_ERR_TIMEOUT || (st && st != RDX_ERR_FAULT)) {
                    (void)rdx_queue_reset(qs[k]);
                    if (first)
                        continue;
                }
                if (st && !first) {
                    first = st;
                    snprintf(msg, sizeof msg, "device %u (GPU %u), %s queue: %s", i,
                             rdx_device_get_info(c->dev[i])->gpu_index, k ? "copy" : "compute",
                             rdx_error_message());
                }
            }
        }
        if (!busy || first)
            break;
        if (now_ns() - start > (uint64_t)COLL_WAIT_MS * 1000000u) {
            first = RDX_ERR_TIMEOUT;
            snprintf(msg, sizeof msg, "the queues did not finish in %u ms", COLL_WAIT_MS);
        }
    }
    if (first) {
        /* abandon what is left (it may wait for the failed queue for ever) */
        for (uint32_t i = 0; i < c->n; i++) {
            rdx_queue *qs[2] = { c->cq[i], c->xq[i] };
            for (int k = 0; k < 2; k++)
                if (qs[k] && rdx_queue_completed(qs[k]) < rdx_queue_submitted(qs[k]))
                    (void)rdx_queue_reset(qs[k]);
        }
        return rdx_fail(first, "%s", msg);
    }
    for (uint32_t i = 0; i < c->n; i++)
        for (uint32_t k = 0; k < c->nticks[i]; k++) {
            uint64_t ns = 0;
            if (rdx_queue_dispatch_time(c->cq[i], c->ticks[i][k], &ns) == RDX_OK)
                c->st->kernel_ns += ns;
        }
    return RDX_OK;
}

/* The ring's resources freed (its queues drained first by finish). */
static rdx_status teardown(coll *c, rdx_status st)
{
    for (uint32_t i = 0; i < c->n; i++) {
        rdx_status q1 = rdx_queue_destroy(c->cq[i]), q2 = rdx_queue_destroy(c->xq[i]);
        if (!st && (q1 || q2))
            st = q1 ? q1 : q2;
        rdx_program_free(c->prog[i][0]);
        rdx_program_free(c->prog[i][1]);
        rdx_buffer_free(c->recv[i]);
    }
    rdx_codegen_kernel_free(c->ck[0]);
    rdx_codegen_kernel_free(c->ck[1]);
    rdx_graph_destroy(c->g);
    free(c);
    return st;
}

struct rz_ring_run {
    coll *c; /* NULL: nothing to run (one device, no elements) */
    const char *what;
    rdx_collective_stats stats;
    uint64_t t0;
};

rdx_status rz_ring_start(const char *what, int phases, rdx_device *const *devs, uint32_t n,
                         rdx_buffer *const *bufs, const uint64_t *offs, uint64_t count,
                         rdx_dtype dt, rdx_queue *const *after_q, const uint64_t *after_t,
                         rz_ring_run **out)
{
    *out = NULL;
    rz_ring_run *h = calloc(1, sizeof *h);
    if (!h)
        return rdx_fail(RDX_ERR_NOMEM, "%s: out of memory", what);
    h->what = what;
    rdx_status st = check_args(what, devs, n, bufs, offs, count, dt);
    if (st) {
        free(h);
        return st;
    }
    h->stats.ndevices = n;
    h->t0 = now_ns();
    if (n == 1 || count == 0) {
        *out = h;
        return RDX_OK;
    }
    coll *c = calloc(1, sizeof *c);
    if (!c) {
        free(h);
        return rdx_fail(RDX_ERR_NOMEM, "%s: out of memory", what);
    }
    c->n = n;
    c->dev = devs;
    c->buf = bufs;
    for (uint32_t i = 0; i < n; i++)
        c->base[i] = offs ? offs[i] : 0;
    c->count = count;
    c->isz = rdx_dtype_itemsize(dt);
    c->st = &h->stats;
    uint64_t max_chunk;
    (void)rdx_collective_chunk(count, n, 0, &max_chunk);
    c->size[0] = max_chunk;
    c->size[1] = count / n;
    c->nvar = (phases & RZ_RING_REDUCE_SCATTER) ? (count % n && count / n ? 2 : 1) : 0;
    for (uint32_t v = 0; v < c->nvar && !st; v++)
        st = compile_add(c, dt, v);
    for (uint32_t i = 0; i < n && !st; i++) {
        st = rdx_queue_create(devs[i], RDX_QUEUE_COPY, &c->xq[i]);
        if (!st && (phases & RZ_RING_REDUCE_SCATTER))
            st = rdx_queue_create(devs[i], RDX_QUEUE_COMPUTE, &c->cq[i]);
        if (!st && (phases & RZ_RING_REDUCE_SCATTER))
            st = rdx_buffer_alloc(devs[i], max_chunk * c->isz, RDX_MEM_DEVICE, &c->recv[i]);
        for (uint32_t v = 0; v < c->nvar && !st; v++) {
            st = rdx_program_load(devs[i], c->ck[v]->code_object, c->ck[v]->code_object_size,
                                  "allreduce_add", &c->prog[i][v]);
            if (!st)
                st = rdx_program_find(c->prog[i][v], "allreduce_add", &c->kern[i][v]);
        }
        /* the ring's queues wait on the GPU for what fills device i's data */
        if (!st && after_q && after_q[i] && after_t[i]) {
            st = rdx_queue_wait_queue(c->xq[i], after_q[i], after_t[i]);
            if (!st && c->cq[i])
                st = rdx_queue_wait_queue(c->cq[i], after_q[i], after_t[i]);
        }
        if (st)
            st = rdx_fail_context(st, "%s: setting up device %u (GPU %u)", what, i,
                                  rdx_device_get_info(devs[i])->gpu_index);
    }
    h->t0 = now_ns();
    if (!st && (phases & RZ_RING_REDUCE_SCATTER))
        st = ring_reduce_scatter(c);
    if (!st && (phases & RZ_RING_ALLGATHER))
        st = ring_allgather(c);
    h->c = c;
    if (!st) {
        *out = h;
        return RDX_OK;
    }
    /* drain what was submitted before anything is freed; the submission's error is kept */
    st = rdx_fail_context(st, "%s", what);
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", rdx_error_message());
    (void)finish(c);
    (void)teardown(c, st);
    free(h);
    return rdx_fail(st, "%s", msg);
}

rdx_status rz_ring_gate(rz_ring_run *h, uint32_t i, rdx_queue *q)
{
    coll *c = h ? h->c : NULL;
    rdx_status st = RDX_OK;
    if (!c)
        return RDX_OK;
    if (c->cq[i] && c->ct[i])
        st = rdx_queue_wait_queue(q, c->cq[i], c->ct[i]);
    if (!st && c->xt[i])
        st = rdx_queue_wait_queue(q, c->xq[i], c->xt[i]);
    if (!st && c->in_q[i] && c->in_q[i] != c->xq[i])
        st = rdx_queue_wait_queue(q, c->in_q[i], c->in_t[i]);
    return st;
}

rdx_status rz_ring_end(rz_ring_run *h, rdx_collective_stats *stats)
{
    if (!h)
        return RDX_OK;
    rdx_status st = RDX_OK;
    if (h->c) {
        st = finish(h->c);
        if (st)
            st = rdx_fail_context(st, "%s", h->what);
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
        rdx_status tst = teardown(h->c, st);
        if (st)
            rdx_fail(st, "%s", msg);
        else
            st = tst;
    }
    h->stats.wall_ns = now_ns() - h->t0;
    if (stats)
        *stats = h->stats;
    free(h);
    return st;
}

rdx_status rz_ring(const char *what, int phases, rdx_device *const *devs, uint32_t n,
                   rdx_buffer *const *bufs, const uint64_t *offs, uint64_t count, rdx_dtype dt,
                   rdx_collective_stats *stats)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    rz_ring_run *h = NULL;
    rdx_status st = rz_ring_start(what, phases, devs, n, bufs, offs, count, dt, NULL, NULL, &h);
    return st ? st : rz_ring_end(h, stats);
}

rdx_status rdx_allreduce(rdx_device *const *devs, uint32_t n, rdx_buffer *const *bufs,
                         uint64_t count, rdx_dtype dtype, rdx_collective_stats *stats)
{
    return rz_ring("allreduce", RZ_RING_REDUCE_SCATTER | RZ_RING_ALLGATHER, devs, n, bufs, NULL,
                   count, dtype, stats);
}

rdx_status rdx_reduce_scatter(rdx_device *const *devs, uint32_t n, rdx_buffer *const *bufs,
                              uint64_t count, rdx_dtype dtype, rdx_collective_stats *stats)
{
    return rz_ring("reduce_scatter", RZ_RING_REDUCE_SCATTER, devs, n, bufs, NULL, count, dtype,
                   stats);
}

rdx_status rdx_allgather(rdx_device *const *devs, uint32_t n, rdx_buffer *const *bufs,
                         uint64_t count, rdx_dtype dtype, rdx_collective_stats *stats)
{
    return rz_ring("allgather", RZ_RING_ALLGATHER, devs, n, bufs, NULL, count, dtype, stats);
}
