/*
 * emu/core/smem.c — scalar memory: s_load_b32..b512 from sbase + offset
 * (+ soffset), s_buffer_load_* through a buffer resource (out-of-range
 * dwords read 0), cache invalidations.  An unregistered address stops the
 * dispatch with a VM fault.
 */
#include "emu/core/emu_int.h"
#include "emu/core/exec.h"
#include "emu/core/ops.h"

/* param = dwords; bit 8 = buffer form */
void emu_s_load(emu_wave *w, const emu_inst *in)
{
    unsigned n = in->param & 0xff;
    uint64_t off = (uint64_t)(int64_t)in->offset;
    if (in->soffset.kind != EMU_K_NONE)
        off += emu_s32(w, &in->soffset);
    unsigned d = in->dst.reg;
    emu_smem_gap(w, in);
    emu_cycle_lgkm(w, EMU_TM(w)->LAT_SMEM);
    emu_touch_begin(w);
    if (in->param & 0x100) {
        unsigned r = in->sbase.reg;
        uint64_t base = w->s[r] | (uint64_t)(w->s[r + 1] & 0xffff) << 32;
        uint32_t nrec = w->s[r + 2];
        for (unsigned i = 0; i < n; i++) {
            uint64_t o = (off & ~3ull) + 4 * i;
            uint32_t v = 0;
            if (o + 4 <= nrec) {
                if (!emu_mem_ok(w, base + o, 4, RDX_EMU_READ)) {
                    emu_vm_fault(w, in, base + o, 4, 0, 0);
                    return;
                }
                memcpy(&v, (const void *)(uintptr_t)(base + o), 4);
                emu_touch(w, base + o, 4, 1, 0);
            }
            if (d + i < EMU_SINK)
                w->s[d + i] = v;
        }
        emu_count_mem(w, 4ull * n, 0);
        return;
    }
    uint64_t a = (emu_s64(w, &in->sbase) + off) & ~3ull;
    if (!emu_mem_ok(w, a, 4ull * n, RDX_EMU_READ)) {
        emu_vm_fault(w, in, a, 4ull * n, 0, 0);
        return;
    }
    for (unsigned i = 0; i < n && d + i < EMU_SINK; i++)
        memcpy(&w->s[d + i], (const void *)(uintptr_t)(a + 4 * i), 4);
    emu_touch(w, a, 4ull * n, 1, 0);
    emu_count_mem(w, 4ull * n, 0);
}

void emu_s_cache_inv(emu_wave *w, const emu_inst *in)
{
    (void)w;
    (void)in;
}
