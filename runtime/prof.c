/*
 * runtime/prof.c — hardware profiling on a compute queue (rdx/queue_prof.h):
 * the perf counter and thread trace sequences of rdx/pm4_prof.h submitted on
 * the queue, the counter slots and trace buffers in GPU memory, and the
 * read-back after the queue drained.
 */
#include <stdlib.h>
#include <string.h>

#include <rdx/pm4_prof.h>
#include <rdx/queue_prof.h>

#include "runtime/internal.h"

struct rt_qprof {
    rdx_pm4_perf_desc perf;
    uint32_t n;
    rdx_perf_counter which[RDX_QUEUE_PROF_MAX_COUNTERS];
    uint32_t slot[RDX_QUEUE_PROF_MAX_COUNTERS]; /* SQ or GRBM counter index */
    rdx_pm4_gpu_shape shape;
    int wptr_abs; /* the GPU's SQ_THREAD_TRACE_WPTR counts from address 0 (gfx11.0) */
    uint32_t nse;
    uint64_t sqtt_bytes;
    rdx_alloc_region trace; /* nse x sqtt_bytes, RT_HEAP_HOST */
    rdx_alloc_region out;   /* counter slots | SQTT status, RT_HEAP_SYNC */
    uint64_t perf_bytes;
};

static const struct {
    const char *name;
    int sq;
    uint32_t event, event_gfx12;
} counters[] = {
#define RDX_PERF_ROW_(n, b, e, e12) { #n, !strcmp(#b, "SQ"), e, e12 },
    RDX_PERF_COUNTER_LIST(RDX_PERF_ROW_)
#undef RDX_PERF_ROW_
};

const char *rdx_perf_counter_name(rdx_perf_counter c)
{
    return (unsigned)c < RDX_PERF_COUNT ? counters[c].name : NULL;
}

rdx_status rdx_perf_counter_parse(const char *name, rdx_perf_counter *out)
{
    char list[512] = "";
    for (int i = 0; i < RDX_PERF_COUNT; i++) {
        if (name && !strcmp(name, counters[i].name)) {
            *out = (rdx_perf_counter)i;
            return RDX_OK;
        }
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, counters[i].name, sizeof list - strlen(list) - 1);
    }
    return rdx_fail(RDX_ERR_NOT_FOUND, "perf counter '%s': unknown, expected one of %s",
                    name ? name : "(null)", list);
}

static void release(rdx_device *dev, struct rt_qprof *p)
{
    if (!p)
        return;
    if (p->trace.size)
        rt_heap_free_or_warn(dev, RT_HEAP_HOST, &p->trace);
    if (p->out.size)
        rt_heap_free_or_warn(dev, RT_HEAP_SYNC, &p->out);
    free(p);
}

void rt_queue_prof_release(rdx_queue *q)
{
    release(q->dev, q->prof);
    q->prof = NULL;
}

/* The descriptor of o's counters into p (gfx12's event numbers on a gfx12); an error naming
   the problem. */
static rdx_status plan(struct rt_qprof *p, const rdx_queue_profile_options *o, int gfx12)
{
    if (o->ncounters > RDX_QUEUE_PROF_MAX_COUNTERS || (o->ncounters && !o->counters))
        return rdx_fail(RDX_ERR_INVALID,
                        "rdx_queue_profile_begin: %u counters (expected at most %u, "
                        "counters not NULL)",
                        o->ncounters, RDX_QUEUE_PROF_MAX_COUNTERS);
    for (uint32_t i = 0; i < o->ncounters; i++) {
        rdx_perf_counter c = o->counters[i];
        if ((unsigned)c >= RDX_PERF_COUNT)
            return rdx_fail(RDX_ERR_INVALID,
                            "rdx_queue_profile_begin: counter %u is %d, not an rdx_perf_counter", i,
                            (int)c);
        for (uint32_t j = 0; j < i; j++)
            if (o->counters[j] == c)
                return rdx_fail(RDX_ERR_INVALID,
                                "rdx_queue_profile_begin: counter %s is given twice (%u and %u)",
                                counters[c].name, j, i);
        if (counters[c].sq) {
            if (p->perf.nsq == RDX_PM4_PERF_SQ_MAX)
                return rdx_fail(RDX_ERR_INVALID,
                                "rdx_queue_profile_begin: counter %u (%s): the SQ has only %u "
                                "counters",
                                i, counters[c].name, RDX_PM4_PERF_SQ_MAX);
            p->slot[i] = p->perf.nsq;
            p->perf.sq_sel[p->perf.nsq++] = gfx12 ? counters[c].event_gfx12 : counters[c].event;
        } else {
            if (p->perf.ngrbm == RDX_PM4_PERF_GRBM_MAX)
                return rdx_fail(RDX_ERR_INVALID,
                                "rdx_queue_profile_begin: counter %u (%s): the GRBM has only %u "
                                "counters",
                                i, counters[c].name, RDX_PM4_PERF_GRBM_MAX);
            p->slot[i] = p->perf.ngrbm;
            p->perf.grbm_sel[p->perf.ngrbm++] = gfx12 ? counters[c].event_gfx12 : counters[c].event;
        }
        p->which[i] = c;
    }
    p->n = o->ncounters;
    if (o->sqtt_bytes % 4096 || o->sqtt_bytes >> 34 || o->sqtt_simd > 3)
        return rdx_fail(RDX_ERR_INVALID,
                        "rdx_queue_profile_begin: trace buffer of %llu bytes per SE (expected a "
                        "multiple of 4096 below 16 GiB), SIMD %u (expected 0..3)",
                        (unsigned long long)o->sqtt_bytes, o->sqtt_simd);
    if (!o->ncounters && !o->sqtt_bytes)
        return rdx_fail(RDX_ERR_INVALID,
                        "rdx_queue_profile_begin: nothing to profile (no counter, no trace)");
    return RDX_OK;
}

rdx_status rdx_queue_profile_begin(rdx_queue *q, const rdx_queue_profile_options *o)
{
    if (!q || !o)
        return rdx_fail(RDX_ERR_INVALID, "rdx_queue_profile_begin: NULL %s",
                        q ? "options" : "queue");
    if (q->kind != RDX_QUEUE_COMPUTE)
        return rdx_fail(RDX_ERR_INVALID,
                        "rdx_queue_profile_begin: queue %u is a copy queue, expected a compute "
                        "queue",
                        rdx_kfd_queue_id(q->kq));
    rdx_device *dev = q->dev;
    struct rt_qprof *p = calloc(1, sizeof *p);
    if (!p)
        return rdx_fail(RDX_ERR_NOMEM, "rdx_queue_profile_begin: out of memory");
    rdx_status st = plan(p, o, dev->gpu_info->gfx_target_version / 10000 == 12);
    const rdx_kfd_gpu_info *g = dev->gpu_info;
    uint32_t per_se = g->simd_arrays_per_engine ? g->simd_arrays_per_engine : 1;
    p->shape.se = g->array_count / per_se;
    p->shape.sa_per_se = per_se;
    p->shape.wgp_per_sa = g->cu_per_simd_array / 2 ? g->cu_per_simd_array / 2 : 1;
    p->wptr_abs = g->gfx_target_version / 100 == 1100; /* GC 11.0.x */
    if (!st && (p->shape.se < 1 || p->shape.se > RDX_QUEUE_PROF_MAX_SE || per_se > 2))
        st = rdx_fail(RDX_ERR_UNSUPPORTED,
                      "rdx_queue_profile_begin: a GPU of %u shader arrays, %u per engine: "
                      "expected 1..%u engines of 1..2 arrays",
                      g->array_count, per_se, RDX_QUEUE_PROF_MAX_SE);
    p->nse = o->sqtt_bytes ? p->shape.se : 0;
    p->sqtt_bytes = o->sqtt_bytes;
    p->perf_bytes = p->n ? rdx_pm4_perf_read_bytes(&p->perf, &p->shape) : 0;
    if (!st && p->nse)
        st = rt_heap_alloc(dev, RT_HEAP_HOST, p->nse * p->sqtt_bytes, 4096, &p->trace);
    if (!st)
        st = rt_heap_alloc(dev, RT_HEAP_SYNC,
                           p->perf_bytes + RDX_PM4_SQTT_STATUS_BYTES(RDX_PM4_MAX_SE), 256, &p->out);
    if (!st)
        memset(p->out.cpu, 0, p->out.size);
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    if (!st && p->n)
        rdx_pm4_perf_start(&cb, &p->perf);
    if (!st && p->nse) {
        rdx_pm4_sqtt_desc d = { .nse = p->nse,
                                .buf_size = p->sqtt_bytes,
                                .simd = o->sqtt_simd,
                                .gfx12 = dev->gpu_info->gfx_target_version / 10000 == 12 };
        for (uint32_t se = 0; se < p->nse; se++)
            d.buf[se] = p->trace.addr + se * p->sqtt_bytes;
        rdx_pm4_sqtt_start(&cb, &d);
    }
    if (!st)
        st = rdx_pm4_cmdbuf_status(&cb);
    if (!st) {
        pthread_mutex_lock(&q->lock);
        if (q->prof)
            st = rdx_fail(RDX_ERR_INVALID,
                          "rdx_queue_profile_begin: queue %u already has a profile running "
                          "(rdx_queue_profile_end it first)",
                          rdx_kfd_queue_id(q->kq));
        if (!st)
            st = rt_queue_ready(q);
        if (!st)
            st = rt_queue_submit(q, &cb, NULL);
        if (!st)
            q->prof = p;
        pthread_mutex_unlock(&q->lock);
    }
    rdx_pm4_cmdbuf_free(&cb);
    if (st)
        release(dev, p);
    return st;
}

void rdx_queue_profile_free(rdx_queue_profile *p)
{
    if (!p)
        return;
    for (int i = 0; i < RDX_QUEUE_PROF_MAX_SE; i++)
        free(p->sqtt[i]);
    memset(p, 0, sizeof *p);
}

/* The counters and traces out of p's memory into out. */
static rdx_status collect(const struct rt_qprof *p, rdx_queue_profile *out)
{
    const uint8_t *mem = p->out.cpu;
    uint64_t inst = (uint64_t)p->shape.se * p->shape.sa_per_se * p->shape.wgp_per_sa;
    out->ncounters = p->n;
    for (uint32_t i = 0; i < p->n; i++) {
        out->counter[i] = p->which[i];
        uint64_t v = 0;
        if (counters[p->which[i]].sq) {
            for (uint64_t k = 0; k < inst; k++) {
                uint32_t lo;
                memcpy(&lo, mem + 8 * (p->slot[i] * inst + k), 4);
                v += lo;
            }
        } else {
            memcpy(&v, mem + 8 * (p->perf.nsq * inst + p->slot[i]), 8);
        }
        out->value[i] = v;
    }
    out->nse = p->nse;
    for (uint32_t se = 0; se < p->nse; se++) {
        uint32_t st[3];
        memcpy(st, mem + p->perf_bytes + 12 * se, 12);
        uint64_t buf = p->trace.addr + se * p->sqtt_bytes;
        /* WPTR: (buffer address + bytes written) / 32, 29 bits, on gfx11.0 (gfx1100-gfx1102);
           bytes written / 32 on gfx11.5 and gfx12 (as tinygrad's ops_amd.py reads it) */
        uint64_t end = (uint64_t)(st[0] & 0x1fffffffu) * 32;
        uint64_t start = p->wptr_abs ? buf & (0x1fffffffull * 32) : 0;
        uint64_t len = end >= start ? end - start : 0;
        if (len > p->sqtt_bytes)
            return rdx_fail(RDX_ERR_PARSE,
                            "rdx_queue_profile_end: SE %u's SQ_THREAD_TRACE_WPTR 0x%x lies "
                            "beyond its %llu-byte buffer at 0x%llx",
                            se, st[0], (unsigned long long)p->sqtt_bytes, (unsigned long long)buf);
        out->sqtt_full[se] = st[1] & 1;
        out->sqtt_dropped[se] = st[2];
        out->sqtt_len[se] = (size_t)len;
        if (len) {
            out->sqtt[se] = malloc((size_t)len);
            if (!out->sqtt[se])
                return rdx_fail(RDX_ERR_NOMEM, "rdx_queue_profile_end: out of memory");
            memcpy(out->sqtt[se], (const uint8_t *)p->trace.cpu + se * p->sqtt_bytes, (size_t)len);
        }
    }
    return RDX_OK;
}

rdx_status rdx_queue_profile_end(rdx_queue *q, rdx_queue_profile *out)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!q || !out)
        return rdx_fail(RDX_ERR_INVALID, "rdx_queue_profile_end: NULL %s", q ? "out" : "queue");
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    uint64_t ticket = 0;
    pthread_mutex_lock(&q->lock);
    struct rt_qprof *p = q->prof;
    q->prof = NULL;
    rdx_status st = p ? RDX_OK
                      : rdx_fail(RDX_ERR_INVALID,
                                 "rdx_queue_profile_end: no profile is running on queue %u "
                                 "(rdx_queue_profile_begin first)",
                                 rdx_kfd_queue_id(q->kq));
    if (!st && p->nse)
        rdx_pm4_sqtt_stop(&cb, p->nse, p->out.addr + p->perf_bytes);
    if (!st && p->n) {
        rdx_pm4_cs_partial_flush(&cb);
        rdx_pm4_perf_read(&cb, &p->perf, &p->shape, p->out.addr);
        rdx_pm4_perf_stop(&cb);
    }
    if (!st)
        st = rdx_pm4_cmdbuf_status(&cb);
    if (!st)
        st = rt_queue_ready(q);
    if (!st)
        st = rt_queue_submit(q, &cb, &ticket);
    pthread_mutex_unlock(&q->lock);
    rdx_pm4_cmdbuf_free(&cb);
    if (!st)
        st = rdx_queue_wait(q, ticket, RT_INTERNAL_WAIT_MS);
    if (!st)
        st = collect(p, out);
    if (st)
        rdx_queue_profile_free(out);
    if (p)
        release(q->dev, p);
    return st;
}
