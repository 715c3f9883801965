/*
 * emu/dev/target.c — the chips the emulated GPU can be, one row each: the one table the
 * topology (sysfs.c), the IP discovery files (sysfs_ip.c), the DRM queries (drm.c), the
 * queue checks (queue.c) and the device (device.c) read.  docs/kfd.md "Emulated targets"
 * lists the sources of every column and what is not read off a card.
 *
 * Sources (facts, not code):
 *  - gfx_target_version per GC IP version: Linux amdkfd kfd_device.c kgd2kfd_probe
 *    (GC 11.0.0 → 110000, 11.0.3 → 110001 "compiler version is 11.0.1 while HW version is
 *    11.0.3", 11.0.2 → 110002, 11.5.0 → 110500, 11.5.1 → 110501, 12.0.0 → 120000,
 *    12.0.1 → 120001).
 *  - SDMA IP versions and 8 queues per engine of which 2 are reserved (paging, gfx):
 *    kfd_device.c kfd_device_info_set_sdma_info (KFD publishes 8 - 2 = 6).
 *  - VGPR file: 1536 entries per SIMD on gfx1100, gfx1101, gfx1151 and gfx12, 1024 on
 *    gfx1102 and gfx1150 (LLVM's FeatureGFX11FullVGPRs targets; kfd_queue.c
 *    kfd_get_vgpr_size_per_cu: 0x60000 bytes of VGPR save area per CU for 110000, 110001,
 *    110501, 120000, 120001, else 0x40000; tinygrad's ops_amd.py uses the same set).
 *  - NBIO/NBIF versions and the HDP flush registers: tinygrad's ops_amd.py memory_barrier
 *    (BIF_BX_PF0 on NBIO 4.3 and NBIF 6.3.1, BIF_BX_PF1 on NBIO 7.11) with its
 *    autogen/am register tables: each is dword 0x106/0x107 of NBIO segment 2 (0xd20).
 *  - CU layout, PCI ids, clocks, memory and cache sizes: AMD's product pages and the public
 *    PCI id lists (amdgpu.ids); the shader-array split of the APUs is an assumption.
 */
#include "emu/dev/emudev.h"

#include "emu/core/model.h"

#include <stdio.h>
#include <string.h>

#include "util/error.h"

#define GIB (1ull << 30)

static const emu_target targets[] = {
    {
        .name = "gfx1100",
        .chip = "Navi 31",
        .marketing = "Radeon RX 7900 XTX",
        .gfx_target_version = 110000,
        .gc = { 11, 0, 0 },
        .sdma = { 6, 0, 0 },
        .nbio = { 4, 3, 0 },
        .sdma_engines = 2,
        .device_id = 0x744c,
        .revision = 0xc8,
        .shader_engines = 6,
        .arrays_per_engine = 2,
        .cu_per_array = 8,
        .vgprs_per_simd = 1536,
        .waves_per_simd = 16,
        .lds_kb = 64,
        .l2_kb = 6144,
        .l3_kb = 98304,
        .max_clk_mhz = 2482,
        .mem_clk_mhz = 1249,
        .mem_width = 384,
        .local_mem = 24 * GIB,
    },
    {
        .name = "gfx1101",
        .chip = "Navi 32",
        .marketing = "Radeon RX 7800 XT",
        .gfx_target_version = 110001,
        .gc = { 11, 0, 3 },
        .sdma = { 6, 0, 2 },
        .nbio = { 4, 3, 0 },
        .sdma_engines = 2,
        .device_id = 0x747e,
        .revision = 0xc8,
        .shader_engines = 3,
        .arrays_per_engine = 2,
        .cu_per_array = 10,
        .vgprs_per_simd = 1536,
        .waves_per_simd = 16,
        .lds_kb = 64,
        .l2_kb = 4096,
        .l3_kb = 65536,
        .max_clk_mhz = 2430,
        .mem_clk_mhz = 1218,
        .mem_width = 256,
        .local_mem = 16 * GIB,
    },
    {
        .name = "gfx1102",
        .chip = "Navi 33",
        .marketing = "Radeon RX 7600",
        .gfx_target_version = 110002,
        .gc = { 11, 0, 2 },
        .sdma = { 6, 0, 3 },
        .nbio = { 4, 3, 0 },
        .sdma_engines = 2,
        .device_id = 0x7480,
        .revision = 0xcf,
        .shader_engines = 2,
        .arrays_per_engine = 2,
        .cu_per_array = 8,
        .vgprs_per_simd = 1024,
        .waves_per_simd = 16,
        .lds_kb = 64,
        .l2_kb = 2048,
        .l3_kb = 32768,
        .max_clk_mhz = 2655,
        .mem_clk_mhz = 1125,
        .mem_width = 128,
        .local_mem = 8 * GIB,
    },
    {
        .name = "gfx1150",
        .chip = "Strix Point",
        .marketing = "Radeon 890M",
        .gfx_target_version = 110500,
        .gc = { 11, 5, 0 },
        .sdma = { 6, 1, 0 },
        .nbio = { 7, 11, 0 },
        .sdma_engines = 1,
        .device_id = 0x150e,
        .revision = 0xc1,
        .shader_engines = 1,
        .arrays_per_engine = 2,
        .cu_per_array = 8,
        .vgprs_per_simd = 1024,
        .waves_per_simd = 16,
        .lds_kb = 64,
        .l2_kb = 2048,
        .l3_kb = 0,
        .max_clk_mhz = 2900,
        .mem_clk_mhz = 3750,
        .mem_width = 128,
        .local_mem = 16 * GIB,
        .apu = 1,
    },
    {
        .name = "gfx1151",
        .chip = "Strix Halo",
        .marketing = "Radeon 8060S",
        .gfx_target_version = 110501,
        .gc = { 11, 5, 1 },
        .sdma = { 6, 1, 1 },
        .nbio = { 7, 11, 1 },
        .sdma_engines = 1,
        .device_id = 0x1586,
        .revision = 0xc1,
        .shader_engines = 2,
        .arrays_per_engine = 2,
        .cu_per_array = 10,
        .vgprs_per_simd = 1536,
        .waves_per_simd = 16,
        .lds_kb = 64,
        .l2_kb = 2048,
        .l3_kb = 32768,
        .max_clk_mhz = 2900,
        .mem_clk_mhz = 4000,
        .mem_width = 256,
        .local_mem = 64 * GIB,
        .apu = 1,
    },
    {
        .name = "gfx1200",
        .chip = "Navi 44",
        .marketing = "Radeon RX 9060 XT",
        .gfx_target_version = 120000,
        .gc = { 12, 0, 0 },
        .sdma = { 7, 0, 0 },
        .nbio = { 6, 3, 1 },
        .sdma_engines = 2,
        .device_id = 0x7590,
        .revision = 0xc0,
        .shader_engines = 2,
        .arrays_per_engine = 2,
        .cu_per_array = 8,
        .vgprs_per_simd = 1536,
        .waves_per_simd = 16,
        .lds_kb = 64,
        .l2_kb = 4096,
        .l3_kb = 32768,
        .max_clk_mhz = 3130,
        .mem_clk_mhz = 1250,
        .mem_width = 128,
        .local_mem = 16 * GIB,
    },
    {
        .name = "gfx1201",
        .chip = "Navi 48",
        .marketing = "Radeon RX 9070 XT",
        .gfx_target_version = 120001,
        .gc = { 12, 0, 1 },
        .sdma = { 7, 0, 1 },
        .nbio = { 6, 3, 1 },
        .sdma_engines = 2,
        .device_id = 0x7550,
        .revision = 0xc0,
        .shader_engines = 4,
        .arrays_per_engine = 2,
        .cu_per_array = 8,
        .vgprs_per_simd = 1536,
        .waves_per_simd = 16,
        .lds_kb = 64,
        .l2_kb = 8192,
        .l3_kb = 65536,
        .max_clk_mhz = 2970,
        .mem_clk_mhz = 1250,
        .mem_width = 256,
        .local_mem = 16 * GIB,
    },
};
#define NTARGETS (sizeof targets / sizeof targets[0])

const emu_target *emu_target_find(const char *name)
{
    for (size_t i = 0; i < NTARGETS; i++)
        if (!strcmp(targets[i].name, name))
            return &targets[i];
    return NULL;
}

const emu_target *emu_target_at(uint32_t i)
{
    return i < NTARGETS ? &targets[i] : NULL;
}

const char *rdx_emudev_target_name(uint32_t i)
{
    return i < NTARGETS ? targets[i].name : NULL;
}

void emu_chip_of(const char *target, emu_chip *out)
{
    const emu_target *t = target ? emu_target_find(target) : NULL;
    if (!t)
        t = &targets[0];
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", t->name);
    out->cus = emu_target_cus(t);
    out->simds_per_cu = EMU_SIMD_PER_CU;
    out->waves_per_simd = t->waves_per_simd;
    out->vgprs_per_simd = t->vgprs_per_simd;
    out->lds_per_cu = t->lds_kb * 1024;
    out->clock_mhz = t->max_clk_mhz;
    /* DRAM bytes per second: the memory clock x transfers per clock (GDDR6 16, the APUs'
       LPDDR5X 2) x the bus width in bytes; per engine clock */
    double bps = (double)t->mem_clk_mhz * 1e6 * (t->apu ? 2 : 16) * (t->mem_width / 8);
    out->dram_bpc = bps / ((double)t->max_clk_mhz * 1e6);
    out->gfx12 = t->gc[0] == 12;
}

uint32_t emu_target_cus(const emu_target *t)
{
    return t->shader_engines * t->arrays_per_engine * t->cu_per_array;
}

/* The valid names, comma-separated, for error messages. */
static const char *valid_list(void)
{
    static char buf[128];
    if (!buf[0]) {
        size_t n = 0;
        for (size_t i = 0; i < NTARGETS; i++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? ", " : "", targets[i].name);
    }
    return buf;
}

rdx_status emu_target_parse(const char *what, const char *spec, uint32_t num_gpus,
                            const emu_target **out)
{
    if (!spec || !*spec) {
        for (uint32_t g = 0; g < num_gpus; g++)
            out[g] = &targets[0];
        return RDX_OK;
    }
    const emu_target *got[EMU_MAX_GPUS];
    uint32_t n = 0;
    size_t pos = 0;
    for (const char *p = spec;; n++) {
        size_t len = strcspn(p, ",");
        if (n == EMU_MAX_GPUS)
            return rdx_fail(RDX_ERR_INVALID, "%s='%s': more than %d targets (one per GPU)", what,
                            spec, EMU_MAX_GPUS);
        char name[16];
        const emu_target *t = NULL;
        if (len && len < sizeof name) {
            memcpy(name, p, len);
            name[len] = 0;
            t = emu_target_find(name);
        }
        if (!t)
            return rdx_fail(RDX_ERR_INVALID,
                            "%s='%s': target %u ('%.*s' at offset %zu) is not one the emulated GPU "
                            "models; valid targets: %s",
                            what, spec, n + 1, (int)(len > 32 ? 32 : len), p, pos, valid_list());
        got[n] = t;
        if (!p[len]) {
            n++;
            break;
        }
        p += len + 1;
        pos += len + 1;
    }
    if (n != 1 && n != num_gpus)
        return rdx_fail(RDX_ERR_INVALID,
                        "%s='%s': %u targets for %u GPUs; expected one target for every GPU or "
                        "one per GPU",
                        what, spec, n, num_gpus);
    for (uint32_t g = 0; g < num_gpus; g++)
        out[g] = got[n == 1 ? 0 : g];
    return RDX_OK;
}

rdx_status rdx_emudev_check_arch(const char *what, const char *spec, uint32_t num_gpus)
{
    const emu_target *t[EMU_MAX_GPUS];
    if (num_gpus == 0 || num_gpus > EMU_MAX_GPUS)
        return rdx_fail(RDX_ERR_RANGE, "rdx_emudev_check_arch: %u GPUs, expected 1 to %d", num_gpus,
                        EMU_MAX_GPUS);
    return emu_target_parse(what ? what : "arch", spec, num_gpus, t);
}
