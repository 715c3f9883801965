/*
 * emu/core/timing.h — the timing model's constants (emu/core/timing.def, the one source
 * of truth): EMU_T_<NAME> the gfx11 (RDNA3, RDNA3.5) value as a compile-time constant,
 * EMU_T12_<NAME> the gfx12 (RDNA4) value, and emu_timing_for() the table of a family,
 * which the latencies, the launch and the kernel estimate read per target.  The
 * dependency rules that use them are declared in emu/core/exec.h (emu/core/timing.c;
 * docs/emu.md "Timing calibration").
 */
#ifndef RDX_EMU_CORE_TIMING_H
#define RDX_EMU_CORE_TIMING_H

enum {
#define EMU_TIMING(n, v11, v12, e) EMU_T_##n = (v11),
#include "emu/core/timing.def"
#undef EMU_TIMING
};

enum {
#define EMU_TIMING(n, v11, v12, e) EMU_T12_##n = (v12),
#include "emu/core/timing.def"
#undef EMU_TIMING
};

/* The constants of one family, by name. */
typedef struct emu_timing {
#define EMU_TIMING(n, v11, v12, e) unsigned n;
#include "emu/core/timing.def"
#undef EMU_TIMING
} emu_timing;

/* gfx12 != 0: RDNA4's table, else gfx11's. */
const emu_timing *emu_timing_for(int gfx12);

#endif /* RDX_EMU_CORE_TIMING_H */
