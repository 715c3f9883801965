/*
 * isa/codeobj/target.c — the GPU targets rdx knows: name, EF_AMDGPU_MACH
 * value (from LLVM's ELF.h / AMDGPUUsage "AMDGPU EF_AMDGPU_MACH Values"),
 * generation.  The one place target names map to e_flags.
 */
#include <string.h>

#include <rdx/codeobj.h>

/* X(name, mach, major, minor, stepping, xnack, sramecc) */
#define RDX_CODEOBJ_TARGETS(X)                  \
    X("gfx1100", 0x041, 11, 0, 0, false, false) \
    X("gfx1101", 0x046, 11, 0, 1, false, false) \
    X("gfx1102", 0x047, 11, 0, 2, false, false) \
    X("gfx1103", 0x044, 11, 0, 3, false, false) \
    X("gfx1150", 0x043, 11, 5, 0, false, false) \
    X("gfx1151", 0x04a, 11, 5, 1, false, false) \
    X("gfx1152", 0x055, 11, 5, 2, false, false) \
    X("gfx1200", 0x048, 12, 0, 0, false, false) \
    X("gfx1201", 0x04e, 12, 0, 1, false, false)

static const rdx_codeobj_target targets[] = {
#define X(name, mach, major, minor, stepping, xnack, sramecc) \
    { name, mach, major, minor, stepping, xnack, sramecc },
    RDX_CODEOBJ_TARGETS(X)
#undef X
};

enum { NUM_TARGETS = sizeof targets / sizeof targets[0] };

/* EF_AMDGPU_FEATURE_*_V4 "unsupported" encodings are 0; no gfx11/12 target has the features. */
#define EF_AMDGPU_MACH_MASK 0x0ffu

const rdx_codeobj_target *rdx_codeobj_target_find(const char *name)
{
    static const char prefix[] = "amdgcn-amd-amdhsa--";
    if (!name)
        return NULL;
    if (!strncmp(name, prefix, sizeof prefix - 1))
        name += sizeof prefix - 1;
    for (size_t i = 0; i < NUM_TARGETS; i++)
        if (!strcmp(targets[i].name, name))
            return &targets[i];
    return NULL;
}

const rdx_codeobj_target *rdx_codeobj_target_by_mach(uint32_t mach)
{
    for (size_t i = 0; i < NUM_TARGETS; i++)
        if (targets[i].mach == (mach & EF_AMDGPU_MACH_MASK))
            return &targets[i];
    return NULL;
}

uint32_t rdx_codeobj_target_mach(const char *name)
{
    const rdx_codeobj_target *t = rdx_codeobj_target_find(name);
    return t ? t->mach : 0;
}

size_t rdx_codeobj_target_count(void)
{
    return NUM_TARGETS;
}

const rdx_codeobj_target *rdx_codeobj_target_at(size_t i)
{
    return i < NUM_TARGETS ? &targets[i] : NULL;
}

uint32_t rdx_codeobj_target_eflags(const rdx_codeobj_target *t)
{
    return t->mach;
}
