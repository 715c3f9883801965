/*
 * runtime/dispatch.c — one dispatch on a compute queue: arguments into the
 * kernarg ring, the gfx11 dispatch sequence (pm4's rdx_pm4_dispatch), GPU
 * timestamps around it, a CS partial flush and the timeline signal.
 */
#include "runtime/internal.h"

#include <string.h>

#define MAX_KERNARG 4096u /* bytes of one kernarg segment (the hardware's limit) */

static uint32_t align256(uint64_t v)
{
    return (uint32_t)((v + 255) & ~255ull);
}

void rt_scratch_size(const rdx_kfd_gpu_info *g, uint32_t wave_bytes, uint32_t *waves_per_se,
                     uint64_t *bytes)
{
    /* About 4 scratch waves per CU (at least 32 in all).  On gfx11
       COMPUTE_TMPRING_SIZE.WAVES counts the waves of ONE shader engine: every SE
       takes WAVES slots of WAVESIZE from the scratch base (Mesa's
       ac_get_scratch_tmpring_size divides by num_se for gfx11+), so the buffer holds
       WAVES x SEs slots. */
    uint32_t se = g->simd_arrays_per_engine ? g->array_count / g->simd_arrays_per_engine : 0;
    if (!se)
        se = g->drm_num_shader_engines ? g->drm_num_shader_engines : 1;
    uint32_t total = g->cu_count * 4;
    if (total < 32)
        total = 32;
    uint32_t per_se = (total + se - 1) / se;
    if (per_se > 4095)
        per_se = 4095;
    *waves_per_se = per_se;
    *bytes = (uint64_t)wave_bytes * per_se * se;
}

rdx_status rt_queue_scratch(rdx_queue *q, const rdx_kernel *k)
{
    if (!k->scratch_per_item)
        return RDX_OK;
    uint64_t wave_bytes = align256((uint64_t)k->scratch_per_item * (k->wave32 ? 32 : 64));
    /* TMPRING_SIZE.WAVESIZE: 15 bits of 256 bytes on gfx11, 18 on gfx12 */
    bool gfx12 = q->dev->gpu_info->gfx_target_version / 10000 == 12;
    if (wave_bytes > ((gfx12 ? 0x3ffffull : 0x7fffull) << 8))
        return rdx_fail(RDX_ERR_UNSUPPORTED, "kernel %s: %u bytes of scratch per work-item",
                        k->name, k->scratch_per_item);
    if (q->scratch.size && q->scratch_wave_bytes >= wave_bytes)
        return RDX_OK;
    /* Grow: the running work may use the old scratch, so wait for it. */
    rdx_status st = rt_wait_value(q->dev, q, &q->timeline.slot->value, q->submitted, q->ev,
                                  RT_INTERNAL_WAIT_MS);
    if (st)
        return rdx_fail_context(st, "growing scratch");
    uint32_t waves;
    uint64_t bytes;
    rt_scratch_size(q->dev->gpu_info, (uint32_t)wave_bytes, &waves, &bytes);
    rdx_alloc_region r;
    st = rt_heap_alloc(q->dev, RT_HEAP_DEVICE, bytes, 256, &r);
    if (st)
        return rdx_fail_context(st, "allocating scratch for kernel %s", k->name);
    rt_heap_free_or_warn(q->dev, RT_HEAP_DEVICE, &q->scratch);
    q->scratch = r;
    q->scratch_wave_bytes = (uint32_t)wave_bytes;
    q->scratch_waves = waves;
    return RDX_OK;
}

rdx_status rt_build_dispatch(rdx_queue *q, const rdx_launch *l, const rt_grid *g, uint64_t kernarg,
                             uint64_t packet, rdx_pm4_cmdbuf *cb)
{
    const rdx_kernel *k = l->kernel;
    rdx_pm4_dispatch_desc d;
    memset(&d, 0, sizeof d);
    d.code_addr = k->code_addr;
    d.rsrc1 = k->rsrc1;
    d.rsrc2 = k->rsrc2;
    d.rsrc3 = k->rsrc3;
    rt_user_sgprs(k, q, kernarg, packet, q->dispatch_id++, d.user_sgpr);
    d.user_sgpr_count = k->user_sgprs;
    /* A partial last workgroup needs the grid in work-items. */
    for (int i = 0; i < 3; i++) {
        if (g->partial)
            d.items[i] = g->items[i];
        else
            d.grid[i] = g->groups[i];
        d.block[i] = g->block[i];
    }
    d.lds_bytes = k->lds_bytes + l->dynamic_lds;
    if (k->scratch_per_item) {
        d.scratch_addr = q->scratch.addr;
        d.scratch_waves = q->scratch_waves;
        d.scratch_wave_bytes = align256((uint64_t)k->scratch_per_item * (k->wave32 ? 32 : 64));
    }
    d.wave32 = k->wave32;
    d.acquire = true;
    d.gfx_major = k->prog->dev->gpu_info->gfx_target_version / 10000; /* q may be a recording's */
    rdx_status st = rdx_pm4_dispatch(cb, &d);
    if (st)
        return rdx_fail_context(st, "kernel %s", k->name);
    return RDX_OK;
}

/* With q->lock held: kernarg space for ticket t, waiting for the GPU when
 * the ring is full. */
static rdx_status kernarg_space(rdx_queue *q, uint32_t bytes, uint64_t t, uint64_t *gpu, void **cpu)
{
    for (;;) {
        rdx_status st = rdx_kernarg_ring_alloc(q->kernargs, bytes, 64, t, gpu, cpu);
        if (st != RDX_ERR_RANGE)
            return st;
        uint64_t oldest = rdx_kernarg_ring_oldest_fence(q->kernargs);
        if (oldest == UINT64_MAX || oldest >= t)
            return st; /* can never fit */
        st = rt_wait_value(q->dev, q, &q->timeline.slot->value, oldest, q->ev, RT_INTERNAL_WAIT_MS);
        if (st)
            return rdx_fail_context(st, "waiting for kernarg space");
        rdx_kernarg_ring_complete(q->kernargs, rdx_queue_completed(q));
    }
}

rdx_status rdx_queue_dispatch(rdx_queue *q, const rdx_launch *l, uint64_t *ticket)
{
    if (q->kind != RDX_QUEUE_COMPUTE)
        return rdx_fail(RDX_ERR_INVALID, "rdx_queue_dispatch: needs a compute queue");
    if (!l || !l->kernel)
        return rdx_fail(RDX_ERR_INVALID, "rdx_queue_dispatch: no kernel");
    const rdx_kernel *k = l->kernel;
    if (k->prog->dev != q->dev)
        return rdx_fail(RDX_ERR_INVALID,
                        "rdx_queue_dispatch: kernel %s is loaded on another device", k->name);
    rt_grid g;
    rdx_status st = rt_launch_grid(l, &g);
    if (st)
        return rdx_fail_context(st, "kernel %s", k->name);
    if (k->lds_bytes + (uint64_t)l->dynamic_lds > 65536)
        return rdx_fail(RDX_ERR_INVALID, "kernel %s: %u + %u bytes of LDS (at most 65536)", k->name,
                        k->lds_bytes, l->dynamic_lds);
    uint32_t mem[RT_MAX_DISPATCH_DW];
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init_fixed(&cb, mem, RT_MAX_DISPATCH_DW);

    pthread_mutex_lock(&q->lock);
    st = rt_queue_ready(q);
    if (st == RDX_OK)
        st = rt_queue_scratch(q, k);
    uint64_t t = rt_queue_next_ticket(q);
    uint8_t args[MAX_KERNARG];
    uint32_t args_size = 0;
    if (st == RDX_OK)
        st = rt_pack_args(k, l, q, &g, args, sizeof args, &args_size);
    uint64_t kgpu = 0;
    void *kcpu = NULL;
    uint32_t pre = rt_kernarg_bytes(k, args_size) - (args_size ? args_size : 16u);
    if (st == RDX_OK)
        st = kernarg_space(q, rt_kernarg_bytes(k, args_size), t, &kgpu, &kcpu);
    if (st == RDX_OK) {
        memcpy((char *)kcpu + pre, args, args_size);
        rt_write_dispatch_packet(k, l, kcpu, kgpu + pre);
        uint32_t slot = (uint32_t)(t % RT_TS_SLOTS);
        uint64_t ts = q->ts_gpu + (uint64_t)slot * 16;
        q->ts_ticket[slot] = t;
        rdx_pm4_timestamp_top(&cb, ts);
        st = rt_build_dispatch(q, l, &g, kgpu + pre, kgpu, &cb);
        rdx_pm4_cs_partial_flush(&cb);
        rdx_pm4_timestamp_eop(&cb, ts + 8);
    }
    if (st == RDX_OK)
        st = rt_queue_submit(q, &cb, ticket);
    pthread_mutex_unlock(&q->lock);
    return st;
}

rdx_status rdx_queue_dispatch_time(rdx_queue *q, uint64_t ticket, uint64_t *ns)
{
    uint32_t slot = (uint32_t)(ticket % RT_TS_SLOTS);
    if (q->kind != RDX_QUEUE_COMPUTE || !ticket || q->ts_ticket[slot] != ticket)
        return rdx_fail(RDX_ERR_INVALID,
                        "rdx_queue_dispatch_time: %llu is not one of the last %u dispatches of "
                        "this queue",
                        (unsigned long long)ticket, RT_TS_SLOTS);
    if (rdx_queue_completed(q) < ticket)
        return rdx_fail(RDX_ERR_INVALID, "rdx_queue_dispatch_time: dispatch %llu not completed",
                        (unsigned long long)ticket);
    uint64_t a = q->ts_cpu[slot * 2], b = q->ts_cpu[slot * 2 + 1];
    uint64_t ticks = b > a ? b - a : 0;
    *ns = ticks * 1000000u / q->dev->info.timestamp_khz;
    return RDX_OK;
}
