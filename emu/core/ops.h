/*
 * emu/core/ops.h — declarations of every semantics handler (from ops.def)
 * and the family parsers that map op names to handlers with parameters.
 */
#ifndef RDX_EMU_CORE_OPS_H
#define RDX_EMU_CORE_OPS_H

#include "emu/core/emu_int.h"

#define EMU_OP(name, fn, cls, param) void fn(emu_wave *w, const emu_inst *in);
#include "emu/core/ops.def"
#undef EMU_OP

void emu_v_cmp(emu_wave *w, const emu_inst *in);
void emu_ds(emu_wave *w, const emu_inst *in);
void emu_vm_flat(emu_wave *w, const emu_inst *in);
void emu_vm_buffer(emu_wave *w, const emu_inst *in);
void emu_vopd(emu_wave *w, const emu_inst *in);

/* Before every VALU instruction: write mask from EXEC, DPP source select, counters. */
void emu_valu_prologue(emu_wave *w, const emu_inst *in);
/* Set the host rounding mode from the wave's MODE register. */
void emu_apply_round(emu_wave *w);

/* Family parsers: fill *oi and return 1 when `name` belongs to the family. */
int emu_cmp_family(const char *name, emu_opinfo *oi);
int emu_vm_family(const char *name, emu_opinfo *oi);
int emu_ds_family(const char *name, emu_opinfo *oi);

#endif /* RDX_EMU_CORE_OPS_H */
