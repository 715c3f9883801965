/*
 * emu/core/emu.c — the public emulator object: creation for a target,
 * memory registration, thread count, descriptors, counters and faults.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/emu_int.h"
#include "emu/core/exec.h"
#include "emu/core/pool.h"
#include "util/error.h"

/* "gfx1100, gfx1101, ... or gfx1201": the targets rdx_isa_target_find knows, in table order. */
static void known_targets(char *buf, size_t size)
{
    size_t n = rdx_isa_target_count(), at = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n && at < size; i++) {
        const char *sep = i == 0 ? "" : i + 1 == n ? " or " : ", ";
        int w = snprintf(buf + at, size - at, "%s%s", sep, rdx_isa_target_at(i)->name);
        if (w < 0)
            break;
        at += (size_t)w;
    }
}

rdx_status rdx_emu_create(const char *target, rdx_emu **out)
{
    if (!out)
        return rdx_fail(RDX_ERR_INVALID, "rdx_emu_create: NULL output pointer");
    *out = NULL;
    const char *name = target ? target : "gfx1100";
    const rdx_isa_target *t = rdx_isa_target_find(name);
    if (!t) {
        char known[512];
        known_targets(known, sizeof known);
        return rdx_fail(RDX_ERR_UNSUPPORTED,
                        "emulator target '%s': not a known target (expected %s)", name, known);
    }
    rdx_emu *e = calloc(1, sizeof *e);
    if (!e)
        return rdx_fail(RDX_ERR_NOMEM, "rdx_emu_create: out of memory");
    e->target = t;
    emu_chip_of(name, &e->chip);
    e->tm = emu_timing_for(t->family == RDX_ISA_FAMILY_RDNA4);
    *out = e;
    return RDX_OK;
}

void rdx_emu_destroy(rdx_emu *emu)
{
    if (!emu)
        return;
    emu_pool_free(emu->pool);
    for (unsigned i = 0; i < emu->nwks; i++)
        emu_worker_free(&emu->wks[i]);
    free(emu->wks);
    emu_mem_free(&emu->mem);
    free(emu->pcs);
    emu_prof_out_free(&emu->prof);
    free(emu);
}

rdx_status rdx_emu_map_labeled(rdx_emu *emu, uint64_t addr, uint64_t size, unsigned access,
                               const char *label)
{
    if (!emu)
        return rdx_fail(RDX_ERR_INVALID, "rdx_emu_map: NULL emulator");
    if (!(access & RDX_EMU_RW) || (access & ~(unsigned)RDX_EMU_RW))
        return rdx_fail(RDX_ERR_INVALID, "rdx_emu_map: access 0x%x is not READ/WRITE", access);
    return emu_mem_add(&emu->mem, addr, size, access, label);
}

rdx_status rdx_emu_map(rdx_emu *emu, uint64_t addr, uint64_t size, unsigned access)
{
    return rdx_emu_map_labeled(emu, addr, size, access, NULL);
}

rdx_status rdx_emu_unmap(rdx_emu *emu, uint64_t addr)
{
    if (!emu)
        return rdx_fail(RDX_ERR_INVALID, "rdx_emu_unmap: NULL emulator");
    return emu_mem_remove(&emu->mem, addr);
}

void rdx_emu_set_threads(rdx_emu *emu, unsigned threads)
{
    if (emu)
        emu->threads = threads;
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

rdx_status rdx_emu_dispatch_from_descriptor(rdx_emu_dispatch *d, const void *kd)
{
    if (!d || !kd)
        return rdx_fail(RDX_ERR_INVALID, "rdx_emu_dispatch_from_descriptor: NULL %s",
                        d ? "descriptor" : "dispatch");
    const uint8_t *p = kd;
    d->group_segment_size = rd32(p + 0);
    d->private_segment_size = rd32(p + 4);
    int64_t entry = (int64_t)((uint64_t)rd32(p + 16) | (uint64_t)rd32(p + 20) << 32);
    d->code = (uint64_t)(uintptr_t)kd + (uint64_t)entry;
    d->rsrc3 = rd32(p + 44);
    d->rsrc1 = rd32(p + 48);
    d->rsrc2 = rd32(p + 52);
    d->code_properties = (uint16_t)(p[56] | p[57] << 8);
    return RDX_OK;
}

const rdx_emu_counters *rdx_emu_get_counters(const rdx_emu *emu)
{
    return emu ? &emu->counters : NULL;
}

const rdx_emu_fault *rdx_emu_last_fault(const rdx_emu *emu)
{
    return emu ? &emu->fault : NULL;
}

const char *rdx_emu_class_name(rdx_emu_class c)
{
    static const char *const names[] = {
#define RDX_EMU_CLASS_NAME_(n, s) s,
        RDX_EMU_CLASS_LIST(RDX_EMU_CLASS_NAME_)
#undef RDX_EMU_CLASS_NAME_
    };
    return (unsigned)c < RDX_EMU_CLASS_COUNT ? names[c] : "?";
}
