/*
 * isa/codeobj/target.c — the code-object view of the GPU targets.  The one
 * target table is isa-core's (isa/targets/targets.txt, generated into
 * rdx_isa_target_*: name, family, EF_AMDGPU_MACH value); every row here is
 * derived from it, so adding a target there adds it here.
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codeobj.h>
#include <rdx/isa.h>

#include "isa/gen/isa_tables.h" /* ISA_NTARGETS: the size of isa-core's target table */

static rdx_codeobj_target targets[ISA_NTARGETS];
static size_t num_targets;
static pthread_once_t targets_once = PTHREAD_ONCE_INIT;

/* gfx<major><minor><stepping>: the last two characters are hex digits (LLVM's naming). */
static unsigned hexdig(char c)
{
    return c >= '0' && c <= '9' ? (unsigned)(c - '0') : (unsigned)(c - 'a' + 10);
}

static void build_targets(void)
{
    for (size_t i = 0; i < rdx_isa_target_count() && i < ISA_NTARGETS; i++) {
        const rdx_isa_target *t = rdx_isa_target_at(i);
        size_t n = strlen(t->name);
        assert(n >= 6 && !strncmp(t->name, "gfx", 3));
        rdx_codeobj_target *c = &targets[num_targets++];
        c->name = t->name;
        c->mach = t->elf_mach;
        c->major = (unsigned)strtoul(t->name + 3, NULL, 10) / 100;
        c->minor = hexdig(t->name[n - 2]);
        c->stepping = hexdig(t->name[n - 1]);
        assert(c->major == (t->family == RDX_ISA_FAMILY_RDNA3 ? 11u : 12u));
        /* AMDGPUUsage's processor table: no RDNA3 or RDNA4 target supports XNACK or SRAMECC */
        c->xnack_supported = false;
        c->sramecc_supported = false;
    }
}

static void init(void)
{
    pthread_once(&targets_once, build_targets);
}

/* EF_AMDGPU_FEATURE_*_V4 "unsupported" encodings are 0; no gfx11/12 target has the features. */
#define EF_AMDGPU_MACH_MASK 0x0ffu

const rdx_codeobj_target *rdx_codeobj_target_find(const char *name)
{
    static const char prefix[] = "amdgcn-amd-amdhsa--";
    if (!name)
        return NULL;
    if (!strncmp(name, prefix, sizeof prefix - 1))
        name += sizeof prefix - 1;
    init();
    for (size_t i = 0; i < num_targets; i++)
        if (!strcmp(targets[i].name, name))
            return &targets[i];
    return NULL;
}

const rdx_codeobj_target *rdx_codeobj_target_by_mach(uint32_t mach)
{
    init();
    for (size_t i = 0; i < num_targets; i++)
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
    init();
    return num_targets;
}

const rdx_codeobj_target *rdx_codeobj_target_at(size_t i)
{
    init();
    return i < num_targets ? &targets[i] : NULL;
}

uint32_t rdx_codeobj_target_eflags(const rdx_codeobj_target *t)
{
    return t->mach;
}
