/*
 * kfd/topology.c — discovery from the KFD sysfs topology
 * (/sys/devices/virtual/kfd/kfd/topology/nodes/N/{gpu_id,name,properties,
 * mem_banks/M/properties,caches/M/properties}).
 */
#include "kfd/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROP_CAP 8192

char *rdx_kfd_target_name(uint32_t v, char *buf, size_t size)
{
    /* major*10000 + minor*100 + stepping; minor and stepping print as hex digits. */
    snprintf(buf, size, "gfx%u%x%x", v / 10000, (v / 100) % 100, v % 100);
    return buf;
}

typedef struct prop {
    const char *name;
    size_t off; /* offset of a uint32_t or uint64_t field */
    int is64;
} prop;

typedef struct props_file {
    char text[PROP_CAP];
    const char *path;
} props_file;

static rdx_status read_text(const rdx_os *os, const char *path, char *buf, size_t cap)
{
    size_t len;
    int r = os->read_file(os->ctx, path, buf, cap, &len);
    if (r == -ENOENT)
        return rdx_fail(RDX_ERR_NOT_FOUND, "%s: no such file (%s)", path, os->name);
    if (r < 0)
        return rdx_fail_errno(RDX_ERR_IO, -r, "reading %s (%s)", path, os->name);
    return RDX_OK;
}

/* Find "name value" in a properties text; 1 found (value in *v), 0 absent, -1 malformed. */
static int prop_get(const char *text, const char *name, uint64_t *v, int *line_out)
{
    size_t nl = strlen(name);
    int line = 1;
    for (const char *p = text; *p; line++) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        if (len > nl && !strncmp(p, name, nl) && p[nl] == ' ') {
            char *end;
            errno = 0;
            unsigned long long x = strtoull(p + nl + 1, &end, 10);
            *line_out = line;
            if (errno || end == p + nl + 1 || (size_t)(end - p) != len)
                return -1;
            *v = x;
            return 1;
        }
        p += len + (eol != NULL);
    }
    return 0;
}

/* Read a required (or optional) numeric property. */
static rdx_status need(const props_file *f, const char *name, uint64_t *v, int optional)
{
    int line = 0;
    int r = prop_get(f->text, name, v, &line);
    if (r < 0)
        return rdx_fail(RDX_ERR_PARSE, "%s:%d: property '%s': expected a decimal number", f->path,
                        line, name);
    if (r == 0) {
        *v = 0;
        if (!optional)
            return rdx_fail(RDX_ERR_PARSE, "%s: property '%s' missing", f->path, name);
    }
    return RDX_OK;
}

#define U32(name, field, opt)                                                              \
    do {                                                                                   \
        uint64_t v_;                                                                       \
        if ((st = need(f, name, &v_, opt)) != RDX_OK)                                      \
            return st;                                                                     \
        if (v_ > UINT32_MAX)                                                               \
            return rdx_fail(RDX_ERR_PARSE, "%s: property '%s' = %" PRIu64 " out of range", \
                            f->path, name, v_);                                            \
        field = (uint32_t)v_;                                                              \
    } while (0)

static uint32_t align_up(uint64_t x, uint64_t a)
{
    return (uint32_t)((x + a - 1) / a * a);
}

/* Queue sizes the kernel expects (the rules of kfd_queue.c): ctl_stack_size and
 * cwsr_size when sysfs does not publish them (older kernels), the debugger
 * area and the EOP buffer always (never published). */
static void derive_queue_sizes(rdx_kfd_gpu_info *g)
{
    uint32_t v = g->gfx_target_version;
    uint32_t xcc = g->num_xcc ? g->num_xcc : 1;
    uint32_t cu = g->cu_count / xcc;
    uint32_t waves = v >= 100100 ? cu * 32 : cu * 40;
    if (v < 100100 && g->simd_arrays_per_engine) {
        uint32_t cap = g->array_count / g->simd_arrays_per_engine * 512;
        waves = waves < cap ? waves : cap;
    }
    uint32_t per_wave = v >= 100100 ? 12 : 8;
    /* VGPR save area per CU: 0x60000 bytes for the 1536-entry VGPR files (gfx1100, gfx1101,
     * gfx1151 since the kernel's "GFX_VERSION_GFX1151" fix, gfx1200, gfx1201). */
    uint32_t vgpr = 0x40000;
    if (v == 110000 || v == 110001 || v == 110501 || v == 120000 || v == 120001)
        vgpr = 0x60000;
    else if (v == 90008 || v == 90010 || v / 100 * 100 == 90400 || v == 90500)
        vgpr = 0x80000;
    if (!g->ctl_stack_size)
        g->ctl_stack_size = align_up(40 + (uint64_t)waves * per_wave + 8, RDX_KFD_PAGE);
    if (!g->cwsr_size)
        g->cwsr_size = g->ctl_stack_size +
                       align_up((uint64_t)cu * (vgpr + 0x4000 + 0x10000 + 0x1000), RDX_KFD_PAGE);
    if (!g->debug_memory_size)
        g->debug_memory_size = align_up((uint64_t)waves * 32, 64);
    if (!g->eop_buffer_size)
        g->eop_buffer_size = 4096;
}

static rdx_status read_gpu(const rdx_os *os, uint32_t node, rdx_kfd_gpu_info *g, props_file *f)
{
    char path[256];
    rdx_status st;
    g->node_id = node;
    snprintf(path, sizeof path, RDX_KFD_TOPOLOGY "/nodes/%u/properties", node);
    f->path = path;
    if ((st = read_text(os, path, f->text, sizeof f->text)) != RDX_OK)
        return st;
    U32("gfx_target_version", g->gfx_target_version, 0);
    U32("simd_count", g->simd_count, 0);
    U32("simd_per_cu", g->simd_per_cu, 0);
    U32("array_count", g->array_count, 0);
    U32("simd_arrays_per_engine", g->simd_arrays_per_engine, 0);
    U32("cu_per_simd_array", g->cu_per_simd_array, 0);
    U32("max_waves_per_simd", g->max_waves_per_simd, 0);
    U32("wave_front_size", g->wave_front_size, 0);
    U32("lds_size_in_kb", g->lds_size_kb, 0);
    U32("vendor_id", g->vendor_id, 0);
    U32("device_id", g->device_id, 0);
    U32("location_id", g->location_id, 0);
    U32("domain", g->domain, 1);
    U32("drm_render_minor", g->drm_render_minor, 0);
    U32("num_sdma_engines", g->num_sdma_engines, 1);
    U32("num_sdma_xgmi_engines", g->num_sdma_xgmi_engines, 1);
    U32("num_cp_queues", g->num_cp_queues, 1);
    U32("num_xcc", g->num_xcc, 1);
    U32("max_engine_clk_fcompute", g->max_engine_clk_mhz, 1);
    U32("mem_banks_count", g->num_mem_banks, 0);
    U32("caches_count", g->num_caches, 1);
    U32("ctl_stack_size", g->ctl_stack_size, 1);
    U32("cwsr_size", g->cwsr_size, 1);
    U32("io_links_count", g->io_link_count, 1);
    U32("p2p_links_count", g->p2p_link_count, 1);
    if (!g->simd_per_cu || !g->gfx_target_version)
        return rdx_fail(RDX_ERR_PARSE, "%s: GPU node with simd_per_cu or gfx_target_version 0",
                        path);
    g->cu_count = g->simd_count / g->simd_per_cu;
    rdx_kfd_target_name(g->gfx_target_version, g->target, sizeof g->target);
    derive_queue_sizes(g);

    if (g->num_mem_banks > RDX_KFD_MAX_MEM_BANKS)
        g->num_mem_banks = RDX_KFD_MAX_MEM_BANKS;
    for (uint32_t m = 0; m < g->num_mem_banks; m++) {
        rdx_kfd_mem_bank *b = &g->mem_banks[m];
        uint64_t size;
        snprintf(path, sizeof path, RDX_KFD_TOPOLOGY "/nodes/%u/mem_banks/%u/properties", node, m);
        if ((st = read_text(os, path, f->text, sizeof f->text)) != RDX_OK)
            return st;
        U32("heap_type", b->heap_type, 0);
        if ((st = need(f, "size_in_bytes", &size, 0)) != RDX_OK)
            return st;
        b->size_bytes = size;
        U32("width", b->width_bits, 1);
        U32("mem_clk_max", b->mem_clk_max_mhz, 1);
        if (b->heap_type == 1 || b->heap_type == 2)
            g->vram_size += size;
    }
    if (g->num_caches > RDX_KFD_MAX_CACHES)
        g->num_caches = RDX_KFD_MAX_CACHES;
    for (uint32_t c = 0; c < g->num_caches; c++) {
        rdx_kfd_cache *k = &g->caches[c];
        snprintf(path, sizeof path, RDX_KFD_TOPOLOGY "/nodes/%u/caches/%u/properties", node, c);
        if ((st = read_text(os, path, f->text, sizeof f->text)) != RDX_OK)
            return st;
        U32("level", k->level, 0);
        U32("size", k->size_kb, 0);
        U32("cache_line_size", k->line_bytes, 1);
        U32("type", k->type, 1);
    }
    /* Links: io_links (direct), p2p_links (indirect peers, recent kernels). */
    for (uint32_t kind = 0; kind < 2; kind++) {
        uint32_t n = kind ? g->p2p_link_count : g->io_link_count;
        for (uint32_t l = 0; l < n; l++) {
            uint32_t to = 0;
            snprintf(path, sizeof path, RDX_KFD_TOPOLOGY "/nodes/%u/%s/%u/properties", node,
                     kind ? "p2p_links" : "io_links", l);
            if ((st = read_text(os, path, f->text, sizeof f->text)) != RDX_OK)
                return st;
            U32("node_to", to, 0);
            if (to < 64)
                g->linked_nodes |= 1ull << to;
        }
    }
    snprintf(path, sizeof path, RDX_KFD_TOPOLOGY "/nodes/%u/name", node);
    if (read_text(os, path, g->name, sizeof g->name) == RDX_OK)
        g->name[strcspn(g->name, "\n")] = 0;
    else
        rdx_error_clear(); /* the name is informational */
    return RDX_OK;
}

typedef struct node_list {
    uint32_t ids[256];
    uint32_t n;
} node_list;

static int collect_node(void *user, const char *name)
{
    node_list *l = user;
    char *end;
    unsigned long v = strtoul(name, &end, 10);
    if (*end || end == name || l->n == 256)
        return 0; /* not a node directory */
    l->ids[l->n++] = (uint32_t)v;
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

rdx_status rdx_kfd_topology_read(const rdx_os *os, rdx_kfd_topology **out)
{
    node_list nodes = { .n = 0 };
    int r = os->list_dir(os->ctx, RDX_KFD_TOPOLOGY "/nodes", collect_node, &nodes);
    if (r == -ENOENT || (r == 0 && nodes.n == 0))
        return rdx_fail(RDX_ERR_NOT_FOUND, "no KFD topology at %s/nodes (%s)", RDX_KFD_TOPOLOGY,
                        os->name);
    if (r < 0)
        return rdx_fail_errno(RDX_ERR_IO, -r, "listing %s/nodes (%s)", RDX_KFD_TOPOLOGY, os->name);
    qsort(nodes.ids, nodes.n, sizeof nodes.ids[0], cmp_u32);
    rdx_kfd_topology *t = calloc(1, sizeof *t);
    props_file *f = malloc(sizeof *f);
    if (t)
        t->gpus = calloc(nodes.n, sizeof *t->gpus);
    if (!t || !f || !t->gpus) {
        free(f);
        rdx_kfd_topology_free(t);
        return rdx_fail(RDX_ERR_NOMEM, "reading the KFD topology: out of memory");
    }
    rdx_status st = RDX_OK;
    for (uint32_t i = 0; i < nodes.n && st == RDX_OK; i++) {
        char path[128];
        snprintf(path, sizeof path, RDX_KFD_TOPOLOGY "/nodes/%u/gpu_id", nodes.ids[i]);
        char text[32];
        if ((st = read_text(os, path, text, sizeof text)) != RDX_OK)
            break;
        char *end;
        unsigned long id = strtoul(text, &end, 10);
        if (end == text || (*end && *end != '\n') || id > UINT32_MAX) {
            st = rdx_fail(RDX_ERR_PARSE, "%s: expected a decimal gpu_id, got '%.20s'", path, text);
            break;
        }
        if (id == 0) {
            t->cpu_node_count++;
            continue;
        }
        rdx_kfd_gpu_info *g = &t->gpus[t->gpu_count];
        g->gpu_id = (uint32_t)id;
        st = read_gpu(os, nodes.ids[i], g, f);
        if (st == RDX_OK)
            t->gpu_count++;
    }
    free(f);
    if (st != RDX_OK) {
        rdx_kfd_topology_free(t);
        return st;
    }
    *out = t;
    return RDX_OK;
}

void rdx_kfd_topology_free(rdx_kfd_topology *topo)
{
    if (!topo)
        return;
    free(topo->gpus);
    free(topo);
}
