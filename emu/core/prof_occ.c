/*
 * emu/core/prof_occ.c — the profile's public entry points (rdx/emu_prof.h):
 * turning profiling on, reading the last profile, and the occupancy of a
 * dispatch with its limiter, by the kernel time model's rules (docs/emu.md
 * "Kernel time estimate", docs/prof.md "Occupancy").
 */
#include "emu/core/emu_int.h"
#include "emu/core/prof.h"

void rdx_emu_set_profiling(rdx_emu *emu, int on)
{
    if (emu)
        emu->profiling = on != 0;
}

const rdx_emu_profile *rdx_emu_get_profile(const rdx_emu *emu)
{
    return emu && emu->have_prof ? &emu->prof.p : NULL;
}

const char *rdx_emu_occ_limit_name(rdx_emu_occ_limit l)
{
    switch (l) {
    case RDX_EMU_OCC_WAVE_SLOTS:
        return "wave slots";
    case RDX_EMU_OCC_VGPRS:
        return "VGPRs";
    case RDX_EMU_OCC_LDS:
        return "LDS";
    case RDX_EMU_OCC_BARRIERS:
        return "barriers";
    case RDX_EMU_OCC_GROUP_SIZE:
        return "workgroup size";
    }
    return "?";
}

/* Waves per SIMD that g resident groups of k waves give on s SIMDs (at most 16). */
static uint32_t per_simd(uint64_t groups, unsigned k, unsigned s)
{
    uint64_t w = groups * k / s;
    return w > EMU_DEV_WAVES_PER_SIMD ? EMU_DEV_WAVES_PER_SIMD : (uint32_t)w;
}

void rdx_emu_occupancy_of(const rdx_emu_profile *p, rdx_emu_occupancy *o)
{
    memset(o, 0, sizeof *o);
    unsigned cus = p->wgp_mode ? 2 : 1, simds = EMU_DEV_SIMDS_PER_CU * cus;
    unsigned k = p->group_waves ? p->group_waves : 1, nl = p->wave_size == 64 ? 64 : 32;
    unsigned lds_unit = EMU_DEV_LDS_PER_CU * cus, bars = EMU_DEV_BARRIERS_CU * cus;
    unsigned lds_alloc =
        (p->lds_bytes + EMU_DEV_LDS_GRANULE - 1) / EMU_DEV_LDS_GRANULE * EMU_DEV_LDS_GRANULE;
    unsigned wv = emu_model_waves_per_simd(nl, p->vgprs);
    /* groups per unit each resource allows */
    uint64_t g_slots = (uint64_t)simds * EMU_DEV_WAVES_PER_SIMD / k;
    uint64_t g_vgpr = (uint64_t)simds * wv / k;
    uint64_t g_lds = lds_alloc ? lds_unit / lds_alloc : UINT32_MAX;
    uint64_t g_bar = k > 1 ? bars : UINT32_MAX;
    o->by_slots = per_simd(g_slots ? g_slots : 1, k, simds);
    o->by_vgprs = wv < o->by_slots ? wv : per_simd(g_vgpr ? g_vgpr : 1, k, simds);
    o->by_lds = g_lds >= g_slots ? EMU_DEV_WAVES_PER_SIMD : per_simd(g_lds, k, simds);
    o->by_barriers = g_bar >= g_slots ? EMU_DEV_WAVES_PER_SIMD : per_simd(g_bar, k, simds);
    uint64_t g = g_slots;
    o->limit =
        o->by_slots < EMU_DEV_WAVES_PER_SIMD ? RDX_EMU_OCC_GROUP_SIZE : RDX_EMU_OCC_WAVE_SLOTS;
    if (g_vgpr < g) {
        g = g_vgpr;
        o->limit = RDX_EMU_OCC_VGPRS;
    }
    if (g_lds < g) {
        g = g_lds;
        o->limit = RDX_EMU_OCC_LDS;
    }
    if (g_bar < g) {
        g = g_bar;
        o->limit = RDX_EMU_OCC_BARRIERS;
    }
    if (g == 0)
        g = 1; /* an oversized group is admitted alone */
    o->groups_per_unit = (uint32_t)g;
    o->waves_per_simd = per_simd(g, k, simds);
    if (o->waves_per_simd == 0)
        o->waves_per_simd = 1;
    /* one more wave per SIMD: the VGPRs that allow wv + 1 waves, the LDS that allows
       enough groups for waves_per_simd + 1 */
    unsigned gran = nl == 32 ? 24 : 12, total = nl == 32 ? 1536 : 768;
    if (wv < EMU_DEV_WAVES_PER_SIMD)
        o->vgprs_for_more = total / (wv + 1) / gran * gran;
    uint64_t want = ((uint64_t)(o->waves_per_simd + 1) * simds + k - 1) / k; /* groups */
    if (lds_alloc && want * k <= (uint64_t)simds * EMU_DEV_WAVES_PER_SIMD)
        o->lds_for_more = (uint32_t)(lds_unit / want / EMU_DEV_LDS_GRANULE * EMU_DEV_LDS_GRANULE);
}
