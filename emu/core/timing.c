/*
 * emu/core/timing.c — the timing model's dependency waits: s_delay_alu (the compiler's
 * statement that an instruction reads a recent VALU, trans or SALU result) makes it wait
 * for that result as a card does (emu/core/timing.def, docs/emu.md); the per-family tables
 * of the constants.
 */
#include "emu/core/exec.h"

static const emu_timing timing11 = {
#define EMU_TIMING(n, v11, v12, e) .n = (v11),
#include "emu/core/timing.def"
#undef EMU_TIMING
};

static const emu_timing timing12 = {
#define EMU_TIMING(n, v11, v12, e) .n = (v12),
#include "emu/core/timing.def"
#undef EMU_TIMING
};

const emu_timing *emu_timing_for(int gfx12)
{
    return gfx12 ? &timing12 : &timing11;
}

/* Wait for the result delay id `id` names; `later` when applied at the instruction
   itself (instid1), not at the s_delay_alu before it. */
static void delay_apply(emu_wave *w, unsigned id, int later)
{
    uint64_t need = 0;
    if (id >= 1 && id <= 7) { /* VALU_DEP_1..4, TRANS32_DEP_1..3 (treated alike) */
        unsigned k = id <= 4 ? id : id - 4;
        if (w->vn < k)
            return;
        need = w->vt[(w->vn - k) & 3] + EMU_T_VALU_DEP;
    } else if (id >= 9 && id <= 11) { /* SALU_CYCLE_1..3 */
        need = w->cycles + (id - 8) - (later ? 0 : 1);
    }
    if (w->cycles < need)
        w->cycles = need;
}

void emu_s_delay_alu(emu_wave *w, const emu_inst *in)
{
    unsigned imm = (unsigned)in->imm & 0x7ff;
    unsigned skip = (imm >> 4) & 7, id1 = (imm >> 7) & 15;
    delay_apply(w, imm & 15, 0);
    if (!id1 || skip > 5)
        return;
    if (skip == 0) { /* SAME: the same instruction */
        delay_apply(w, id1, 0);
        return;
    }
    w->dly_left = skip + 1; /* NEXT: the second instruction from here, SKIP_n: n later */
    w->dly_id = id1;
}

void emu_delay_step(emu_wave *w)
{
    if (--w->dly_left == 0)
        delay_apply(w, w->dly_id, 1);
}
