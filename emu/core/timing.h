/*
 * emu/core/timing.h — the timing model's constants (emu/core/timing.def, the one source
 * of truth, EMU_T_<NAME>); the dependency rules that use them are declared in
 * emu/core/exec.h (emu/core/timing.c; docs/emu.md "Timing calibration").
 */
#ifndef RDX_EMU_CORE_TIMING_H
#define RDX_EMU_CORE_TIMING_H

enum {
#define EMU_TIMING(n, v, e) EMU_T_##n = (v),
#include "emu/core/timing.def"
#undef EMU_TIMING
};

#endif /* RDX_EMU_CORE_TIMING_H */
