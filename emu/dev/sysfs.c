/*
 * emu/dev/sysfs.c — the virtual KFD topology in sysfs: CPU node 0 and one node per
 * emulated GPU, of the chip its target row (target.c) describes.
 *
 * Property names and order follow the kernel's kfd_topology.c node_show /
 * mem_banks / caches files.  The queue context-save sizes follow the
 * kernel's kfd_queue.c kfd_queue_ctx_save_restore_size for gfx10.1+ (public facts:
 * 32 waves per CU, 12 control-stack bytes per wave, a 40-byte save-area header + 8,
 * per-CU wave state of the VGPR area (0x60000 bytes for 1536-entry VGPR files, else
 * 0x40000) + 0x4000 SGPR + 0x10000 LDS + 0x1000 HW registers, 32 debugger bytes per
 * wave aligned to 64).
 */
#include "emu/dev/emudev.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define TOPO "/sys/devices/virtual/kfd/kfd/topology"

#define EMU_ALIGN(x, a) (((x) + (a) - 1) / (a) * (a))

static uint32_t waves(const emu_target *t)
{
    return emu_target_cus(t) * 32u;
}

static uint32_t wg_data_per_cu(const emu_target *t)
{
    return (t->vgprs_per_simd == 1536 ? 0x60000u : 0x40000u) + 0x4000u + 0x10000u + 0x1000u;
}

uint32_t emu_ctl_stack_size(const emu_target *t)
{
    return EMU_ALIGN(40u + waves(t) * 12u + 8u, (uint32_t)EMU_PAGE);
}

uint32_t emu_cwsr_size(const emu_target *t)
{
    return emu_ctl_stack_size(t) +
           EMU_ALIGN(emu_target_cus(t) * wg_data_per_cu(t), (uint32_t)EMU_PAGE);
}

uint32_t emu_debug_memory_size(const emu_target *t)
{
    return EMU_ALIGN(waves(t) * 32u, 64u);
}

/* The caches of a GPU node: level, size KB, line bytes, type bits (1 data, 2 instruction,
 * 8 HSA/GPU cache).  The L2 and L3 sizes are the target's; the L3 (Infinity Cache) is
 * listed only when the chip has one. */
typedef struct gpu_cache {
    uint32_t level, size_kb, line, type;
} gpu_cache;

static uint32_t gpu_caches(const emu_target *t, gpu_cache *c)
{
    uint32_t n = 0;
    c[n++] = (gpu_cache){ 1, 32, 128, 0x1 | 0x8 }; /* vector L0 per CU, data */
    c[n++] = (gpu_cache){ 1, 16, 64, 0x1 | 0x8 };  /* scalar data */
    c[n++] = (gpu_cache){ 1, 32, 64, 0x2 | 0x8 };  /* instruction */
    c[n++] = (gpu_cache){ 2, t->l2_kb, 128, 0x1 | 0x8 };
    if (t->l3_kb)
        c[n++] = (gpu_cache){ 3, t->l3_kb, 64, 0x1 | 0x8 };
    return n;
}
#define MAX_CACHES 5

typedef struct out {
    char *buf;
    size_t cap, len;
    int overflow;
} out;

static void put(out *o, const char *name, unsigned long long v)
{
    int n = snprintf(o->buf + o->len, o->cap - o->len, "%s %llu\n", name, v);
    if (n < 0 || (size_t)n >= o->cap - o->len)
        o->overflow = 1;
    else
        o->len += (size_t)n;
}

static void node_properties(rdx_emudev *dev, uint32_t node, out *o)
{
    if (node == 0) { /* the CPU */
        put(o, "cpu_cores_count", 16);
        put(o, "simd_count", 0);
        put(o, "mem_banks_count", 1);
        put(o, "caches_count", 0);
        put(o, "io_links_count", emu_sysfs_link_count(dev, 0, 0));
        put(o, "p2p_links_count", emu_sysfs_link_count(dev, 0, 1));
        put(o, "cpu_core_id_base", 0);
        put(o, "simd_id_base", 0);
        put(o, "max_waves_per_simd", 0);
        put(o, "lds_size_in_kb", 0);
        put(o, "gds_size_in_kb", 0);
        put(o, "num_gws", 0);
        put(o, "wave_front_size", 0);
        put(o, "array_count", 0);
        put(o, "simd_arrays_per_engine", 0);
        put(o, "cu_per_simd_array", 0);
        put(o, "simd_per_cu", 0);
        put(o, "max_slots_scratch_cu", 0);
        put(o, "gfx_target_version", 0);
        put(o, "vendor_id", 0);
        put(o, "device_id", 0);
        put(o, "location_id", 0);
        put(o, "domain", 0);
        put(o, "drm_render_minor", 0);
        put(o, "hive_id", 0);
        put(o, "num_sdma_engines", 0);
        put(o, "num_sdma_xgmi_engines", 0);
        put(o, "num_sdma_queues_per_engine", 0);
        put(o, "num_cp_queues", 0);
        put(o, "max_engine_clk_ccompute", 4000);
        return;
    }
    emu_gpu *g = &dev->gpus[node - 1];
    const emu_target *t = g->t;
    gpu_cache caches[MAX_CACHES];
    /* An APU's GPU is a node of its own without CPU cores, as KFD's virtual CRAT makes it
     * (kfd_crat.c kfd_create_vcrat_image_gpu); its one memory bank is the carve-out. */
    put(o, "cpu_cores_count", 0);
    put(o, "simd_count", emu_target_cus(t) * EMU_SIMD_PER_CU);
    put(o, "mem_banks_count", 1);
    put(o, "caches_count", gpu_caches(t, caches));
    put(o, "io_links_count", emu_sysfs_link_count(dev, node, 0));
    put(o, "p2p_links_count", emu_sysfs_link_count(dev, node, 1));
    put(o, "cpu_core_id_base", 0);
    put(o, "simd_id_base", 0x80001000ull + (node - 1) * 0x1000ull);
    put(o, "max_waves_per_simd", t->waves_per_simd);
    put(o, "lds_size_in_kb", t->lds_kb);
    put(o, "gds_size_in_kb", 0);
    put(o, "num_gws", 64);
    put(o, "wave_front_size", 32);
    put(o, "array_count", t->shader_engines * t->arrays_per_engine);
    put(o, "simd_arrays_per_engine", t->arrays_per_engine);
    put(o, "cu_per_simd_array", t->cu_per_array);
    put(o, "simd_per_cu", EMU_SIMD_PER_CU);
    put(o, "max_slots_scratch_cu", 32);
    put(o, "gfx_target_version", t->gfx_target_version);
    put(o, "vendor_id", 0x1002);
    put(o, "device_id", t->device_id);
    put(o, "location_id", (0x03u + node - 1) << 8);
    put(o, "domain", 0);
    put(o, "drm_render_minor", g->render_minor);
    put(o, "hive_id", 0);
    put(o, "num_sdma_engines", t->sdma_engines);
    put(o, "num_sdma_xgmi_engines", 0);
    put(o, "num_sdma_queues_per_engine", EMU_SDMA_QUEUES_PER_ENGINE);
    put(o, "num_cp_queues", 8);
    if (!dev->legacy_sysfs) { /* published by recent kernels */
        put(o, "cwsr_size", emu_cwsr_size(t));
        put(o, "ctl_stack_size", emu_ctl_stack_size(t));
    }
    put(o, "max_engine_clk_fcompute", t->max_clk_mhz);
    put(o, "local_mem_size", 0);
    put(o, "fw_version", 2);
    put(o, "capability", 0x28a8b280);
    put(o, "debug_prop", 0x427);
    put(o, "sdma_fw_version", 20);
    put(o, "unique_id", 0x6b4c1a2e3d5f0000ull + node);
    put(o, "num_xcc", 1);
    put(o, "max_engine_clk_ccompute", 4000);
}

/* Parse "nodes/<n>[/<rest>]" after TOPO; returns the node or -1. */
static int parse_node(rdx_emudev *dev, const char *p, const char **rest)
{
    unsigned n;
    int used = 0;
    if (sscanf(p, "/nodes/%u%n", &n, &used) != 1 || n > dev->num_gpus)
        return -1;
    char c = p[used];
    if (c != 0 && c != '/')
        return -1;
    *rest = p + used;
    return (int)n;
}

static int finish(out *o, size_t *len)
{
    if (o->overflow)
        return -EFBIG;
    *len = o->len;
    return 0;
}

int emu_sysfs_read(rdx_emudev *dev, const char *path, char *buf, size_t cap, size_t *len)
{
    if (!cap)
        return -EFBIG;
    out o = { buf, cap, 0, 0 };
    buf[0] = 0;
    size_t tl = strlen(TOPO);
    if (strncmp(path, TOPO, tl))
        return emu_sysfs_ip_read(dev, path, buf, cap, len);
    const char *p = path + tl, *rest;
    if (!strcmp(p, "/generation_id")) {
        o.len = (size_t)snprintf(buf, cap, "1\n");
        return o.len >= cap ? -EFBIG : finish(&o, len);
    }
    if (!strcmp(p, "/system_properties")) {
        put(&o, "platform_oem", 0);
        put(&o, "platform_id", 0);
        put(&o, "platform_rev", 0);
        return finish(&o, len);
    }
    int node = parse_node(dev, p, &rest);
    if (node < 0)
        return -ENOENT;
    unsigned idx;
    int used = 0;
    gpu_cache caches[MAX_CACHES];
    if (!strcmp(rest, "/properties")) {
        node_properties(dev, (uint32_t)node, &o);
    } else if (!strcmp(rest, "/gpu_id")) {
        o.len = (size_t)snprintf(buf, cap, "%u\n", node ? dev->gpus[node - 1].gpu_id : 0);
    } else if (!strcmp(rest, "/name")) {
        o.len = (size_t)snprintf(buf, cap, "%s\n", node ? dev->gpus[node - 1].t->name : "");
    } else if (sscanf(rest, "/mem_banks/%u/properties%n", &idx, &used) == 1 && !rest[used] &&
               idx == 0) {
        const emu_gpu *g = node ? &dev->gpus[node - 1] : NULL;
        put(&o, "heap_type", node ? 1 : 0); /* FB_PUBLIC: all of it CPU-visible (large BAR, or
                                               an APU's carve-out) */
        put(&o, "size_in_bytes", node ? g->vram_size : 64ull << 30);
        put(&o, "flags", 0);
        put(&o, "width", node ? g->t->mem_width : 64);
        put(&o, "mem_clk_max", node ? g->t->mem_clk_mhz : 3200);
    } else if (node && sscanf(rest, "/caches/%u/properties%n", &idx, &used) == 1 && !rest[used] &&
               idx < gpu_caches(dev->gpus[node - 1].t, caches)) {
        put(&o, "processor_id_low", 0x80001000ull + (uint32_t)(node - 1) * 0x1000ull);
        put(&o, "level", caches[idx].level);
        put(&o, "size", caches[idx].size_kb);
        put(&o, "cache_line_size", caches[idx].line);
        put(&o, "cache_lines_per_tag", 1);
        put(&o, "association", 16);
        put(&o, "latency", 1);
        put(&o, "type", caches[idx].type);
    } else if (!strncmp(rest, "/io_links/", 10) || !strncmp(rest, "/p2p_links/", 11)) {
        return emu_sysfs_link_read(dev, (uint32_t)node, rest, buf, cap, len);
    } else {
        return -ENOENT;
    }
    if (o.len >= cap)
        return -EFBIG;
    return finish(&o, len);
}

static int list_n(uint32_t n, rdx_os_dir_fn fn, void *user)
{
    char name[16];
    for (uint32_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, "%u", i);
        int r = fn(user, name);
        if (r)
            return r;
    }
    return 0;
}

/* Call fn on each of the n names. */
static int list_names(const char *const *names, size_t n, rdx_os_dir_fn fn, void *user)
{
    for (size_t i = 0; i < n; i++) {
        int r = fn(user, names[i]);
        if (r)
            return r;
    }
    return 0;
}

int emu_sysfs_list(rdx_emudev *dev, const char *path, rdx_os_dir_fn fn, void *user)
{
    size_t tl = strlen(TOPO);
    if (strncmp(path, TOPO, tl))
        return emu_sysfs_ip_list(dev, path, fn, user);
    const char *p = path + tl, *rest;
    if (!strcmp(p, "") || !strcmp(p, "/")) {
        static const char *const top[] = { "generation_id", "system_properties", "nodes" };
        return list_names(top, sizeof top / sizeof top[0], fn, user);
    }
    if (!strcmp(p, "/nodes"))
        return list_n(dev->num_gpus + 1, fn, user);
    int node = parse_node(dev, p, &rest);
    if (node < 0)
        return -ENOENT;
    if (!strcmp(rest, "")) {
        static const char *const files[] = { "gpu_id", "name",     "properties", "mem_banks",
                                             "caches", "io_links", "p2p_links" };
        return list_names(files, sizeof files / sizeof files[0], fn, user);
    }
    gpu_cache caches[MAX_CACHES];
    if (!strcmp(rest, "/mem_banks"))
        return list_n(1, fn, user);
    if (!strcmp(rest, "/caches"))
        return list_n(node ? gpu_caches(dev->gpus[node - 1].t, caches) : 0, fn, user);
    if (!strncmp(rest, "/io_links", 9) || !strncmp(rest, "/p2p_links", 10))
        return emu_sysfs_link_list(dev, (uint32_t)node, rest, fn, user);
    /* mem_banks/<i>/ and caches/<i>/ hold one file each, as the kernel's do. */
    unsigned idx;
    int used = 0;
    static const char *const props[] = { "properties" };
    if ((sscanf(rest, "/mem_banks/%u%n", &idx, &used) == 1 && !rest[used] && idx == 0) ||
        (node && sscanf(rest, "/caches/%u%n", &idx, &used) == 1 && !rest[used] &&
         idx < gpu_caches(dev->gpus[node - 1].t, caches)))
        return list_names(props, 1, fn, user);
    return -ENOENT;
}
