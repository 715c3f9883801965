/*
 * runtime/device.c — opening a device (real or emulated), its heaps over KFD
 * allocations, its signal pool and fault events, and closing it.
 */
#include "runtime/internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codeobj.h>
#include <rdx/emudev.h>

void rt_list_init(rt_list *l)
{
    l->prev = l->next = l;
}

void rt_list_add(rt_list *head, rt_list *n)
{
    n->next = head->next;
    n->prev = head;
    head->next->prev = n;
    head->next = n;
}

void rt_list_del(rt_list *n)
{
    n->prev->next = n->next;
    n->next->prev = n->prev;
    n->prev = n->next = n;
}

/* ---- heaps: rdx_alloc backing blocks are KFD allocations ---- */

static rdx_status obtain(void *user, uint32_t kind, uint64_t size, rdx_alloc_block *out)
{
    rdx_device *dev = user;
    rdx_kfd_mem_desc d = { .kind = RDX_KFD_MEM_GTT, .size = size, .flags = 0, .userptr = NULL };
    switch (kind) {
    case RT_HEAP_DEVICE:
        d.kind = RDX_KFD_MEM_VRAM;
        break;
    case RT_HEAP_SYNC:
        d.flags = RDX_KFD_MEM_UNCACHED;
        break;
    case RT_HEAP_CODE:
        d.flags = RDX_KFD_MEM_EXECUTABLE;
        break;
    default:
        break;
    }
    if (dev->peers)
        d.flags |= RDX_KFD_MEM_ALL_GPUS; /* peer access: every GPU of the process sees it */
    rdx_kfd_mem *m;
    rdx_status st = rdx_kfd_mem_alloc(dev->kfd, dev->gpu, &d, &m);
    if (st)
        return st;
    /* Only the allocations rt_heap_alloc notes are in use (a memory checker's view). */
    st = rdx_kfd_mem_note(dev->kfd, RDX_OS_MEM_POOL, rdx_kfd_mem_gpu_addr(m), rdx_kfd_mem_size(m),
                          NULL);
    if (st) {
        (void)rdx_kfd_mem_free(dev->kfd, m);
        return st;
    }
    out->addr = rdx_kfd_mem_gpu_addr(m);
    out->cpu = rdx_kfd_mem_cpu(m);
    out->size = rdx_kfd_mem_size(m);
    out->handle = m;
    return RDX_OK;
}

static rdx_status release(void *user, uint32_t kind, const rdx_alloc_block *b)
{
    rdx_device *dev = user;
    (void)kind;
    return rdx_kfd_mem_free(dev->kfd, b->handle);
}

rdx_status rt_heap_alloc_used(rdx_device *dev, uint32_t heap, uint64_t size, uint64_t align,
                              uint64_t used, const char *label, rdx_alloc_region *out)
{
    assert(used && used <= size);
    rdx_status st = rdx_alloc_alloc(dev->heap, heap, size, align, out);
    if (st)
        return st;
    st = rdx_kfd_mem_note(dev->kfd, RDX_OS_MEM_ALLOC, out->addr, used, label);
    if (st) {
        (void)rdx_alloc_free(dev->heap, heap, out->addr);
        memset(out, 0, sizeof *out);
    }
    return st;
}

rdx_status rt_heap_alloc(rdx_device *dev, uint32_t heap, uint64_t size, uint64_t align,
                         rdx_alloc_region *out)
{
    static const char *const labels[RT_HEAP_COUNT] = {
        [RT_HEAP_DEVICE] = "runtime device memory (scratch)",
        [RT_HEAP_HOST] = "runtime host memory",
        [RT_HEAP_SYNC] = "runtime memory (signals, kernarg ring, timestamps)",
        [RT_HEAP_CODE] = "runtime code memory (programs, command buffers)",
    };
    return rt_heap_alloc_used(dev, heap, size, align, size, labels[heap], out);
}

rdx_status rt_heap_free(rdx_device *dev, uint32_t heap, rdx_alloc_region *r)
{
    rdx_status st = RDX_OK;
    if (r->size) {
        /* The note first: the free may release the block. */
        st = rdx_kfd_mem_note(dev->kfd, RDX_OS_MEM_FREE, r->addr, 0, NULL);
        rdx_status fst = rdx_alloc_free(dev->heap, heap, r->addr);
        /* The region is ours, so only the release of its block can fail. */
        assert(fst != RDX_ERR_INVALID);
        if (fst)
            st = fst;
    }
    memset(r, 0, sizeof *r);
    return st;
}

void rt_heap_free_or_warn(rdx_device *dev, uint32_t heap, rdx_alloc_region *r)
{
    if (rt_heap_free(dev, heap, r))
        fprintf(stderr, "rdx: freeing GPU memory: %s\n", rdx_error_message());
}

/* ---- choosing the kernel interface ---- */

static bool target_supported(const char *target)
{
    const rdx_codeobj_target *t = rdx_codeobj_target_find(target);
    return t && (t->major == 11 || t->major == 12); /* the PM4 dispatch sequence's */
}

/* The emulated GPU's target list as the notice names it. */
static const char *emu_arch_name(const char *arch)
{
    if (!arch || !*arch)
        arch = getenv("RDX_EMU_ARCH");
    return arch && *arch ? arch : "gfx1100";
}

static void emu_detail(void *user, char *buf, size_t size)
{
    rdx_emudev_last_error(user, buf, size);
}

/* Try a real card: RDX_OK with an open kfd, or an error saying why not. */
static rdx_status open_real(uint32_t gpu, rdx_kfd **out)
{
    rdx_kfd *k;
    rdx_status st = rdx_kfd_open(rdx_os_linux(), &k);
    if (st)
        return st;
    if (gpu >= rdx_kfd_gpu_count(k)) {
        uint32_t n = rdx_kfd_gpu_count(k);
        rdx_kfd_close(k);
        return rdx_fail(RDX_ERR_NOT_FOUND, "/dev/kfd lists %u GPU(s); GPU %u asked for", n, gpu);
    }
    const char *target = rdx_kfd_gpu(k, gpu)->target;
    if (!target_supported(target)) {
        char t[16];
        snprintf(t, sizeof t, "%s", target);
        rdx_kfd_close(k);
        return rdx_fail(RDX_ERR_UNSUPPORTED,
                        "GPU %u is a %s; rdx drives gfx11 and gfx12 (RDNA3, RDNA3.5, RDNA4) cards",
                        gpu, t);
    }
    *out = k;
    return RDX_OK;
}

/* rdx_device_select with the emulated GPU's per-wave and per-dispatch instruction budgets. */
static rdx_status select_device(rdx_device_kind kind, uint32_t gpu, uint32_t emu_gpus, bool quiet,
                                uint64_t wave_budget, uint64_t dispatch_budget, uint32_t bounds,
                                rdx_emudev **emu, rdx_kfd **kfd)
{
    *emu = NULL;
    *kfd = NULL;
    if (kind == RDX_DEVICE_AUTO) {
        const char *env = getenv("RDX_DEVICE");
        if (env && *env) {
            if (!strcmp(env, "emu"))
                kind = RDX_DEVICE_EMU;
            else if (!strcmp(env, "kfd"))
                kind = RDX_DEVICE_KFD;
            else
                return rdx_fail(RDX_ERR_INVALID, "RDX_DEVICE='%s': expected 'emu' or 'kfd'", env);
        }
    }
    if (kind == RDX_DEVICE_KFD)
        return open_real(gpu, kfd);
    if (kind == RDX_DEVICE_AUTO) {
        if (open_real(gpu, kfd) == RDX_OK)
            return RDX_OK;
        if (!quiet)
            fprintf(stderr,
                    "rdx: no usable AMD GPU (%s); using the emulated %s (set RDX_DEVICE to "
                    "choose)\n",
                    rdx_error_message(), emu_arch_name(NULL));
    }
    rdx_emudev_config cfg = { .num_gpus = emu_gpus ? emu_gpus : 1,
                              .wave_budget = wave_budget,
                              .dispatch_budget = dispatch_budget,
                              .bounds = (rdx_emudev_bounds)bounds };
    rdx_emudev *e;
    rdx_status st = rdx_emudev_create(&cfg, &e);
    if (st)
        return st;
    st = rdx_kfd_open(rdx_emudev_os(e), kfd);
    if (st) {
        rdx_emudev_destroy(e);
        return st;
    }
    *emu = e;
    return RDX_OK;
}

rdx_status rdx_device_select(rdx_device_kind kind, uint32_t gpu, uint32_t emu_gpus, bool quiet,
                             rdx_emudev **emu, rdx_kfd **kfd)
{
    return select_device(kind, gpu, emu_gpus, quiet, 0, 0, 0, emu, kfd);
}

/* RDX_DEVICE decides an AUTO kind when set. */
static rdx_status resolve_kind(rdx_device_kind *kind)
{
    const char *env = getenv("RDX_DEVICE");
    if (*kind != RDX_DEVICE_AUTO || !env || !*env)
        return RDX_OK;
    if (!strcmp(env, "emu"))
        *kind = RDX_DEVICE_EMU;
    else if (!strcmp(env, "kfd"))
        *kind = RDX_DEVICE_KFD;
    else
        return rdx_fail(RDX_ERR_INVALID, "RDX_DEVICE='%s': expected 'emu' or 'kfd'", env);
    return RDX_OK;
}

/* How many GPUs an emulated machine the runtime creates has: the option, else
 * RDX_EMU_GPUS, else 1. */
static rdx_status emu_gpu_count(const rdx_device_options *o, uint32_t *n)
{
    *n = o->emu_gpus ? o->emu_gpus : 1;
    if (o->emu_gpus > RDX_MAX_GPUS)
        return rdx_fail(RDX_ERR_INVALID, "rdx_device_options.emu_gpus = %u: expected 1..%d",
                        o->emu_gpus, RDX_MAX_GPUS);
    const char *env = getenv("RDX_EMU_GPUS");
    if (o->emu_gpus || !env || !*env)
        return RDX_OK;
    char *end;
    unsigned long v = strtoul(env, &end, 10);
    if (*end || end == env || v < 1 || v > RDX_MAX_GPUS)
        return rdx_fail(RDX_ERR_INVALID, "RDX_EMU_GPUS='%s': expected a number from 1 to %d", env,
                        RDX_MAX_GPUS);
    *n = (uint32_t)v;
    return RDX_OK;
}

/* The share of the Linux KFD when it lists GPU `gpu` with a target rdx drives. */
static rdx_status share_real(uint32_t gpu, rt_share **out)
{
    rt_share *s;
    rdx_status st = rt_share_os(rdx_os_linux(), &s);
    if (st)
        return st;
    rdx_kfd *k = rt_share_kfd(s);
    if (gpu >= rdx_kfd_gpu_count(k)) {
        uint32_t n = rdx_kfd_gpu_count(k);
        rt_share_put(s);
        return rdx_fail(RDX_ERR_NOT_FOUND, "/dev/kfd lists %u GPU(s); GPU %u asked for", n, gpu);
    }
    if (!target_supported(rdx_kfd_gpu(k, gpu)->target)) {
        char t[16];
        snprintf(t, sizeof t, "%s", rdx_kfd_gpu(k, gpu)->target);
        rt_share_put(s);
        return rdx_fail(RDX_ERR_UNSUPPORTED,
                        "GPU %u is a %s; rdx drives gfx11 and gfx12 (RDNA3, RDNA3.5, RDNA4) cards",
                        gpu, t);
    }
    *out = s;
    return RDX_OK;
}

static rdx_status choose(rdx_device *dev, const rdx_device_options *o)
{
    rdx_status st;
    if (o->os) {
        dev->os = o->os;
        dev->fault_detail = o->fault_detail;
        dev->fault_detail_user = o->fault_detail_user;
        if ((st = rt_share_os(o->os, &dev->share)) == RDX_OK)
            dev->kfd = rt_share_kfd(dev->share);
        return st;
    }
    rdx_device_kind kind = o->kind;
    if ((st = resolve_kind(&kind)) != RDX_OK)
        return st;
    if (kind != RDX_DEVICE_EMU) {
        st = share_real(dev->gpu, &dev->share);
        if (st == RDX_OK) {
            dev->kfd = rt_share_kfd(dev->share);
            dev->os = rdx_os_linux();
            return RDX_OK;
        }
        if (kind == RDX_DEVICE_KFD)
            return st;
        if (!o->quiet)
            fprintf(stderr,
                    "rdx: no usable AMD GPU (%s); using the emulated %s (set RDX_DEVICE to "
                    "choose)\n",
                    rdx_error_message(), emu_arch_name(o->emu_arch));
    }
    rdx_emudev_config cfg = { .wave_budget = o->emu_wave_budget,
                              .dispatch_budget = o->emu_dispatch_budget,
                              .bounds = (rdx_emudev_bounds)o->emu_bounds,
                              .arch = o->emu_arch };
    if ((st = emu_gpu_count(o, &cfg.num_gpus)) != RDX_OK)
        return st;
    if ((st = rt_share_emu(&cfg, &dev->share)) != RDX_OK)
        return st;
    rdx_emudev *e = rt_share_emudev(dev->share);
    dev->kfd = rt_share_kfd(dev->share);
    dev->emu = e;
    dev->os = rdx_emudev_os(e);
    dev->fault_detail = emu_detail;
    dev->fault_detail_user = e;
    return RDX_OK;
}

static void fill_info(rdx_device *dev)
{
    const rdx_kfd_gpu_info *g = dev->gpu_info;
    rdx_device_info *i = &dev->info;
    snprintf(i->name, sizeof i->name, "%s", g->name);
    snprintf(i->target, sizeof i->target, "%s", g->target);
    i->gfx_target_version = g->gfx_target_version;
    i->cu_count = g->cu_count;
    i->simd_per_cu = g->simd_per_cu;
    i->max_waves_per_simd = g->max_waves_per_simd;
    i->wave_size = g->wave_front_size;
    i->lds_kb = g->lds_size_kb;
    i->num_sdma_engines = g->num_sdma_engines;
    i->vram_bytes = g->vram_size;
    i->timestamp_khz = g->gpu_counter_freq_khz ? g->gpu_counter_freq_khz : 100000;
    i->os_name = dev->os->name;
    i->gpu_index = dev->gpu;
    i->gpu_id = g->gpu_id;
    i->gpu_count = rdx_kfd_gpu_count(dev->kfd);
}

rdx_status rdx_device_open(const rdx_device_options *opts, rdx_device **out)
{
    static const rdx_device_options defaults = { 0 };
    const rdx_device_options *o = opts ? opts : &defaults;
    *out = NULL;
    rdx_device *dev = calloc(1, sizeof *dev);
    if (!dev)
        return rdx_fail(RDX_ERR_NOMEM, "rdx_device_open: out of memory");
    dev->gpu = o->gpu;
    pthread_mutex_init(&dev->lock, NULL);
    pthread_mutex_init(&dev->staging_lock, NULL);
    rt_list_init(&dev->buffers);
    rt_list_init(&dev->programs);
    rt_list_init(&dev->queues);
    rt_list_init(&dev->fences);
    rt_list_init(&dev->cmdbufs);

    rdx_status st = choose(dev, o);
    if (st == RDX_OK && dev->gpu >= rdx_kfd_gpu_count(dev->kfd))
        st = rdx_fail(RDX_ERR_NOT_FOUND, "no GPU %u (the %s device has %u%s)", dev->gpu,
                      dev->os->name, rdx_kfd_gpu_count(dev->kfd),
                      dev->emu ? "; RDX_EMU_GPUS=N or rdx_device_options.emu_gpus gives the "
                                 "emulated machine N GPUs"
                               : "");
    if (st == RDX_OK) {
        dev->gpu_info = rdx_kfd_gpu(dev->kfd, dev->gpu);
        if (!target_supported(dev->gpu_info->target))
            st =
                rdx_fail(RDX_ERR_UNSUPPORTED,
                         "GPU %u is a %s; rdx drives gfx11 and gfx12 (RDNA3, RDNA3.5, RDNA4) cards",
                         dev->gpu, dev->gpu_info->target);
    }
    if (st == RDX_OK) {
        fill_info(dev);
        dev->peers = rt_peers_linked(dev->kfd, dev->gpu);
        rdx_alloc_backing b = { obtain, release, dev };
        rdx_alloc_config cfg = { .block_size = RT_BLOCK_BYTES,
                                 .block_align = 4096,
                                 .fit = RDX_ALLOC_FIRST_FIT,
                                 .keep_empty = 1 };
        st = rdx_alloc_create(&b, &cfg, &dev->heap);
    }
    if (st == RDX_OK)
        st = rt_heap_alloc(dev, RT_HEAP_SYNC, RT_SIGNAL_SLOTS * RDX_SIGNAL_SLOT_BYTES, 64,
                           &dev->signal_mem);
    if (st == RDX_OK)
        st = rdx_signal_pool_create(dev->signal_mem.addr, dev->signal_mem.cpu, dev->signal_mem.size,
                                    &dev->signals);
    if (st == RDX_OK)
        st = rdx_kfd_event_create(dev->kfd, RDX_KFD_EVENT_MEMORY, 1, &dev->ev_memory);
    if (st == RDX_OK)
        st = rdx_kfd_event_create(dev->kfd, RDX_KFD_EVENT_HW_EXCEPTION, 1, &dev->ev_hw);
    if (st) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
        rdx_device_close(dev);
        return rdx_fail(st, "%s", msg);
    }
    *out = dev;
    return RDX_OK;
}

static void keep_first(rdx_status *first, char *msg, size_t size, rdx_status st)
{
    if (st && !*first) {
        *first = st;
        snprintf(msg, size, "%s", rdx_error_message());
    }
}

#define CONTAINER(ptr, type) ((type *)(void *)((char *)(ptr) - offsetof(type, link)))

rdx_status rdx_device_close(rdx_device *dev)
{
    if (!dev)
        return RDX_OK;
    rdx_status first = RDX_OK;
    char msg[1024] = "";
    /* The device's own copy queue and staging buffer first. */
    keep_first(&first, msg, sizeof msg, rdx_queue_destroy(dev->copy_queue));
    dev->copy_queue = NULL;
    rdx_buffer_free(dev->staging);
    dev->staging = NULL;
    const char *what[] = { "command buffer(s)", "queue(s)", "fence(s)", "program(s)", "buffer(s)" };
    rt_list *lists[] = { &dev->cmdbufs, &dev->queues, &dev->fences, &dev->programs, &dev->buffers };
    for (int i = 0; i < 5; i++) {
        unsigned n = 0;
        while (lists[i]->next != lists[i]) {
            rt_list *l = lists[i]->next;
            n++;
            switch (i) {
            case 0:
                rdx_cmdbuf_destroy(CONTAINER(l, rdx_cmdbuf));
                break;
            case 1:
                keep_first(&first, msg, sizeof msg, rdx_queue_destroy(CONTAINER(l, rdx_queue)));
                break;
            case 2:
                rdx_fence_destroy(CONTAINER(l, rdx_fence));
                break;
            case 3:
                rdx_program_free(CONTAINER(l, rdx_program));
                break;
            default:
                rdx_buffer_free(CONTAINER(l, rdx_buffer));
                break;
            }
        }
        if (n)
            fprintf(stderr, "rdx: device closed with %u %s still alive (freed)\n", n, what[i]);
    }
    if (dev->kfd) {
        keep_first(&first, msg, sizeof msg, rdx_kfd_event_destroy(dev->kfd, dev->ev_hw));
        keep_first(&first, msg, sizeof msg, rdx_kfd_event_destroy(dev->kfd, dev->ev_memory));
    }
    rdx_signal_pool_destroy(dev->signals);
    if (dev->heap) {
        keep_first(&first, msg, sizeof msg, rt_heap_free(dev, RT_HEAP_SYNC, &dev->signal_mem));
        keep_first(&first, msg, sizeof msg, rdx_alloc_destroy(dev->heap));
    }
    keep_first(&first, msg, sizeof msg, rt_share_put(dev->share));
    pthread_mutex_destroy(&dev->lock);
    pthread_mutex_destroy(&dev->staging_lock);
    free(dev);
    if (first)
        return rdx_fail(first, "%s", msg);
    return RDX_OK;
}

const rdx_device_info *rdx_device_get_info(const rdx_device *dev)
{
    return &dev->info;
}

void rdx_device_get_stats(rdx_device *dev, rdx_device_stats *out)
{
    pthread_mutex_lock(&dev->lock);
    *out = dev->counts;
    pthread_mutex_unlock(&dev->lock);
    rdx_alloc_stats s;
    rdx_alloc_get_stats(dev->heap, UINT32_MAX, &s);
    out->bytes_in_use = s.in_use;
    out->bytes_backing = s.backing;
}

bool rt_device_record_fault(rdx_device *dev)
{
    /* KFD's fault events belong to the process: a fault of another GPU is not ours. */
    uint32_t gpu_id = rdx_kfd_last_fault_gpu();
    if (gpu_id && gpu_id != dev->gpu_info->gpu_id)
        return false;
    char msg[400];
    snprintf(msg, sizeof msg, "%s", rdx_error_message());
    char detail[RT_DETAIL_BYTES] = "";
    if (dev->fault_detail)
        dev->fault_detail(dev->fault_detail_user, detail, sizeof detail);
    pthread_mutex_lock(&dev->lock);
    dev->fault_epoch++;
    for (rt_list *l = dev->queues.next; l != &dev->queues; l = l->next) {
        rdx_queue *q = CONTAINER(l, rdx_queue);
        uint64_t done = __atomic_load_n(&q->timeline.slot->value, __ATOMIC_ACQUIRE);
        uint64_t sub = __atomic_load_n(&q->submitted, __ATOMIC_ACQUIRE);
        if (sub > done && !q->faulted) {
            /* both parts bounded so that they fit (a fault report is ~300-500 bytes) */
            snprintf(q->fault_msg, sizeof q->fault_msg, "%.380s%s%.620s", msg, *detail ? "; " : "",
                     detail);
            __atomic_store_n(&q->failed_from, done + 1, __ATOMIC_RELEASE);
            __atomic_store_n(&q->failed_upto, sub, __ATOMIC_RELEASE);
            __atomic_store_n(&q->faulted, 1, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&dev->lock);
    return true;
}
