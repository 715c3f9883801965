/*
 * emu/core/prof_occ.c — the profile's public entry points (rdx/emu_prof.h):
 * turning profiling on, reading the last profile, and the occupancy of a
 * dispatch with its limiter on the profile's target, computed by the kernel
 * time model (emu/core/model.c emu_model_occupancy; docs/emu.md "Kernel time
 * estimate", docs/prof.md "Occupancy"), and the engine clock the model of a
 * target counts.
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

void rdx_emu_occupancy_of(const rdx_emu_profile *p, rdx_emu_occupancy *o)
{
    emu_chip c;
    emu_chip_of(p->target[0] ? p->target : "gfx1100", &c);
    emu_model_occupancy(&c, p->wave_size, p->vgprs, p->lds_bytes, p->wgp_mode, p->group_waves, o);
}

unsigned rdx_emu_clock_mhz(const char *target)
{
    emu_chip c;
    emu_chip_of(target, &c);
    return c.clock_mhz;
}
