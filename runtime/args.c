/*
 * runtime/args.c — the kernel-argument segment (explicit arguments at the
 * metadata's offsets, hidden arguments as LLVM's code object v5 expects),
 * the grid of a launch, the user SGPRs the kernel descriptor enables
 * (AMDGPUUsage "Initial Kernel Execution State") and the AQL-style dispatch
 * packet a kernel that enables the dispatch pointer reads.
 */
#include "runtime/internal.h"

#include <string.h>

#include "runtime/hidden.h"

uint32_t rt_hidden_lookup(const char *value_kind)
{
#define RT_HIDDEN_CMP_(e, s)    \
    if (!strcmp(value_kind, s)) \
        return RT_HIDDEN_##e;
    RT_HIDDEN_ARGS(RT_HIDDEN_CMP_)
#undef RT_HIDDEN_CMP_
    return RT_HIDDEN_UNKNOWN;
}

rdx_status rt_launch_grid(const rdx_launch *l, rt_grid *g)
{
    bool by_items = l->global[0] || l->global[1] || l->global[2];
    uint64_t threads = 1;
    g->partial = false;
    for (int i = 0; i < 3; i++) {
        g->block[i] = l->block[i] ? l->block[i] : 1;
        threads *= g->block[i];
        if (by_items) {
            g->items[i] = l->global[i] ? l->global[i] : g->block[i];
            g->groups[i] = (uint32_t)(((uint64_t)g->items[i] + g->block[i] - 1) / g->block[i]);
            g->partial |= g->items[i] % g->block[i] != 0;
        } else {
            g->groups[i] = l->grid[i] ? l->grid[i] : 1;
            uint64_t items = (uint64_t)g->groups[i] * g->block[i];
            if (items > UINT32_MAX)
                return rdx_fail(RDX_ERR_RANGE,
                                "grid dimension %c: %u workgroups of %u work-items exceed 2^32 "
                                "work-items",
                                "xyz"[i], g -> groups[i], g -> block[i]);
            g->items[i] = (uint32_t)items;
        }
    }
    if (threads > 1024)
        return rdx_fail(RDX_ERR_INVALID, "workgroup of %ux%ux%u = %llu work-items (at most 1024)",
                        g->block[0], g->block[1], g->block[2], (unsigned long long)threads);
    /* The code's register budget assumes its workgroup size (clang and rdx bound the
       VGPRs by it): a larger workgroup may never fit a WGP on a real card. */
    const rdx_kernel *k = l->kernel;
    if (k && k->max_flat_wg && threads > k->max_flat_wg)
        return rdx_fail(RDX_ERR_INVALID,
                        "workgroup of %ux%ux%u = %llu work-items, the code object allows at most "
                        "%u (.max_flat_workgroup_size)",
                        g->block[0], g->block[1], g->block[2], (unsigned long long)threads,
                        k->max_flat_wg);
    if (k && (k->reqd_wg[0] || k->reqd_wg[1] || k->reqd_wg[2]))
        for (int i = 0; i < 3; i++)
            if (g->block[i] != (k->reqd_wg[i] ? k->reqd_wg[i] : 1))
                return rdx_fail(RDX_ERR_INVALID,
                                "workgroup of %ux%ux%u, the code object requires %ux%ux%u "
                                "(.reqd_workgroup_size)",
                                g->block[0], g->block[1], g->block[2], k->reqd_wg[0], k->reqd_wg[1],
                                k->reqd_wg[2]);
    return RDX_OK;
}

static uint64_t hidden_value(const rdx_kernel *k, const rdx_launch *l, const rdx_queue *q,
                             const rt_grid *g, uint32_t kind)
{
    const rdx_kfd_gpu_info *gi = k->prog->dev->gpu_info;
    switch (kind) {
    case RT_HIDDEN_BLOCK_COUNT_X:
    case RT_HIDDEN_BLOCK_COUNT_Y:
    case RT_HIDDEN_BLOCK_COUNT_Z: {
        int d = (int)(kind - RT_HIDDEN_BLOCK_COUNT_X);
        return g->items[d] / g->block[d]; /* full workgroups */
    }
    case RT_HIDDEN_GROUP_SIZE_X:
    case RT_HIDDEN_GROUP_SIZE_Y:
    case RT_HIDDEN_GROUP_SIZE_Z:
        return g->block[kind - RT_HIDDEN_GROUP_SIZE_X];
    case RT_HIDDEN_REMAINDER_X:
    case RT_HIDDEN_REMAINDER_Y:
    case RT_HIDDEN_REMAINDER_Z: {
        int d = (int)(kind - RT_HIDDEN_REMAINDER_X);
        return g->items[d] % g->block[d];
    }
    case RT_HIDDEN_GRID_DIMS:
        return g->items[2] > 1 || g->block[2] > 1 ? 3 : g->items[1] > 1 || g->block[1] > 1 ? 2 : 1;
    case RT_HIDDEN_DYNAMIC_LDS_SIZE:
        return l->dynamic_lds;
    case RT_HIDDEN_PRIVATE_BASE:
        return gi->scratch_base >> 32;
    case RT_HIDDEN_SHARED_BASE:
        return gi->lds_base >> 32;
    case RT_HIDDEN_QUEUE_PTR:
        return q ? q->queue_block : 0;
    default: /* offsets 0; no printf/hostcall/heap/default queue support: null */
        return 0;
    }
}

static const char *arg_name(const rdx_kernel_arg *m)
{
    return *m->name ? m->name : "(unnamed)";
}

/* Lay out with the metadata. */
static rdx_status pack_meta(const rdx_kernel *k, const rdx_launch *l, const rdx_queue *q,
                            const rt_grid *g, uint8_t *out, size_t cap, uint32_t *size)
{
    if (l->nargs != k->nargs)
        return rdx_fail(RDX_ERR_INVALID, "kernel %s takes %u argument(s), %u given", k->name,
                        k->nargs, l->nargs);
    uint32_t seg = k->kernarg_size;
    if (seg > cap)
        return rdx_fail(RDX_ERR_RANGE, "kernel %s: %u-byte kernarg segment, room for %zu", k->name,
                        seg, cap);
    memset(out, 0, seg);
    for (uint32_t i = 0; i < l->nargs; i++) {
        const rdx_arg *a = &l->args[i];
        const rdx_kernel_arg *m = &k->args[i];
        if (a->kind == RDX_ARG_BUFFER) {
            if (!a->buffer)
                return rdx_fail(RDX_ERR_INVALID, "kernel %s argument %u (%s): no buffer given",
                                k->name, i, arg_name(m));
            if (m->size != 8)
                return rdx_fail(RDX_ERR_INVALID,
                                "kernel %s argument %u (%s %s) is a %u-byte value; a buffer "
                                "address takes 8",
                                k->name, i, m->type_name, arg_name(m), m->size);
            uint64_t addr = rdx_buffer_gpu_addr(a->buffer) + a->offset;
            memcpy(out + m->offset, &addr, 8);
        } else if (a->kind == RDX_ARG_VALUE) {
            if (a->size != m->size)
                return rdx_fail(RDX_ERR_INVALID,
                                "kernel %s argument %u (%s %s) takes %u bytes, a %u-byte value "
                                "given",
                                k->name, i, m->type_name, arg_name(m), m->size, a->size);
            memcpy(out + m->offset, a->v.bytes, a->size);
        } else {
            return rdx_fail(RDX_ERR_INVALID, "kernel %s argument %u: unknown kind %d", k->name, i,
                            (int)a->kind);
        }
    }
    for (uint32_t i = 0; i < k->nhidden; i++) {
        const rt_hidden *h = &k->hidden[i];
        uint64_t v = hidden_value(k, l, q, g, h->kind);
        memcpy(out + h->offset, &v, h->size < 8 ? h->size : 8);
    }
    *size = seg;
    return RDX_OK;
}

/* No metadata: in order, each at its natural alignment. */
static rdx_status pack_natural(const rdx_kernel *k, const rdx_launch *l, uint8_t *out, size_t cap,
                               uint32_t *size)
{
    uint64_t off = 0;
    for (uint32_t i = 0; i < l->nargs; i++) {
        const rdx_arg *a = &l->args[i];
        uint32_t sz = a->kind == RDX_ARG_BUFFER ? 8 : a->size;
        if (sz == 0 || sz > 16 || (a->kind == RDX_ARG_BUFFER && !a->buffer))
            return rdx_fail(RDX_ERR_INVALID, "kernel %s argument %u: %s", k->name, i,
                            sz ? "no buffer given" : "empty value");
        uint32_t align = sz >= 8 ? 8 : sz >= 4 ? 4 : sz >= 2 ? 2 : 1;
        off = (off + align - 1) & ~(uint64_t)(align - 1);
        if (off + sz > cap)
            return rdx_fail(RDX_ERR_RANGE, "kernel %s: arguments exceed %zu bytes", k->name, cap);
        if (a->kind == RDX_ARG_BUFFER) {
            uint64_t addr = rdx_buffer_gpu_addr(a->buffer) + a->offset;
            memcpy(out + off, &addr, 8);
        } else {
            memcpy(out + off, a->v.bytes, sz);
        }
        off += sz;
    }
    uint64_t seg = off > k->kernarg_size ? off : k->kernarg_size;
    if (seg > cap)
        return rdx_fail(RDX_ERR_RANGE, "kernel %s: %llu-byte kernarg segment, room for %zu",
                        k->name, (unsigned long long)seg, cap);
    memset(out + off, 0, seg - off);
    *size = (uint32_t)seg;
    return RDX_OK;
}

rdx_status rt_pack_args(const rdx_kernel *k, const rdx_launch *l, const rdx_queue *q,
                        const rt_grid *g, void *out, size_t cap, uint32_t *size)
{
    if (l->nargs && !l->args)
        return rdx_fail(RDX_ERR_INVALID, "kernel %s: %u arguments but no array", k->name, l->nargs);
    return k->has_meta ? pack_meta(k, l, q, g, out, cap, size) : pack_natural(k, l, out, cap, size);
}

rdx_status rdx_kernel_pack_args(const rdx_kernel *k, const rdx_launch *l, void *out, size_t cap,
                                uint32_t *size)
{
    rt_grid g;
    rdx_status st = rt_launch_grid(l, &g);
    if (st)
        return st;
    return rt_pack_args(k, l, NULL, &g, out, cap, size);
}

/* kernel_code_properties bits */
enum {
    PROP_PRIVATE_SEGMENT_BUFFER = 1u << 0,
    PROP_DISPATCH_PTR = 1u << 1,
    PROP_QUEUE_PTR = 1u << 2,
    PROP_KERNARG_PTR = 1u << 3,
    PROP_DISPATCH_ID = 1u << 4,
    PROP_FLAT_SCRATCH_INIT = 1u << 5,
    PROP_PRIVATE_SEGMENT_SIZE = 1u << 6,
};

uint32_t rt_kernarg_bytes(const rdx_kernel *k, uint32_t args_size)
{
    return (k->props & PROP_DISPATCH_PTR ? 64u : 0u) + (args_size ? args_size : 16u);
}

void rt_user_sgprs(const rdx_kernel *k, const rdx_queue *q, uint64_t kernarg, uint64_t packet,
                   uint64_t dispatch_id, uint32_t *s)
{
    uint32_t n = 0, max = k->user_sgprs;
    uint64_t scratch = q->scratch.addr;
#define PUT64(v)                                        \
    do {                                                \
        if (n + 2 <= max) {                             \
            s[n] = (uint32_t)(v);                       \
            s[n + 1] = (uint32_t)((uint64_t)(v) >> 32); \
        }                                               \
        n += 2;                                         \
    } while (0)
    memset(s, 0, 16 * sizeof *s);
    if (k->props & PROP_PRIVATE_SEGMENT_BUFFER) {
        /* A buffer resource over the queue's scratch (unused with flat scratch). */
        PUT64(scratch);
        if (n + 2 <= max) {
            s[n] = 0xffffffffu;
            s[n + 1] = 0;
        }
        n += 2;
    }
    if (k->props & PROP_DISPATCH_PTR)
        PUT64(packet);
    if (k->props & PROP_QUEUE_PTR)
        PUT64(q->queue_block);
    if (k->props & PROP_KERNARG_PTR)
        PUT64(kernarg);
    if (k->props & PROP_DISPATCH_ID)
        PUT64(dispatch_id);
    if (k->props & PROP_FLAT_SCRATCH_INIT)
        PUT64(scratch);
    if ((k->props & PROP_PRIVATE_SEGMENT_SIZE) && n < max)
        s[n] = k->scratch_per_item;
#undef PUT64
}

void rt_write_dispatch_packet(const rdx_kernel *k, const rdx_launch *l, void *cpu, uint64_t kernarg)
{
    if (!(k->props & PROP_DISPATCH_PTR))
        return;
    rt_grid g;
    if (rt_launch_grid(l, &g))
        return; /* validated by the caller */
    uint8_t p[64];
    memset(p, 0, sizeof p);
    uint16_t setup = (uint16_t)(g.items[2] > 1 ? 3 : g.items[1] > 1 ? 2 : 1);
    uint16_t wg[3] = { (uint16_t)g.block[0], (uint16_t)g.block[1], (uint16_t)g.block[2] };
    uint32_t priv = k->scratch_per_item, group = k->lds_bytes + l->dynamic_lds;
    memcpy(p + 2, &setup, 2);
    memcpy(p + 4, wg, 6);
    memcpy(p + 12, g.items, 12);
    memcpy(p + 24, &priv, 4);
    memcpy(p + 28, &group, 4);
    memcpy(p + 40, &kernarg, 8);
    memcpy(cpu, p, sizeof p);
}
