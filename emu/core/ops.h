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
/* gfx12's layout of the WMMA ops it shares with gfx11 (wmma12.c; predecode picks it) */
void emu_v_wmma12(emu_wave *w, const emu_inst *in);

/* Before every VALU instruction: write mask from EXEC, DPP source select, counters. */
void emu_valu_prologue(emu_wave *w, const emu_inst *in);
/* Set EMU_F_PLAIN on a pre-decoded VALU instruction (and VOPD halves) when it qualifies. */
void emu_mark_plain(emu_inst *in);
/* r[l] = fma(a[l], b[l], c[l]) on f32 bit patterns for n lanes (a multiple of 32), one
   rounding each: with the host's FMA instructions when the CPU has them (valu_fma.c).
   Returns nonzero when a result is a NaN. */
int emu_fma_lanes(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *c, unsigned n);
/* Set the host rounding mode from the wave's MODE register. */
void emu_apply_round(emu_wave *w);

/* Why the emulator does not execute op on a target of `family` (rdx_isa_family), from the
   RDX_NOT_EMULATED rows of fidelity.def; NULL when the op is not listed there. */
const char *emu_op_gap(uint32_t op, unsigned family);

/* Family parsers: fill *oi and return 1 when `name` belongs to the family. */
int emu_cmp_family(const char *name, emu_opinfo *oi);
int emu_vm_family(const char *name, emu_opinfo *oi);
int emu_ds_family(const char *name, emu_opinfo *oi);
int emu_vmfmt_family(const char *name, emu_opinfo *oi);

/* Atomic function names ("add_u32", "min_i32", ...) -> function code (vmem.c). */
int emu_vm_parse_atomic(const char *s, unsigned *a, unsigned *is64);
/* One 32-bit atomic of function code f on *p (host atomics when shared); returns the old value. */
uint32_t emu_vm_atomic32(unsigned f, uint32_t *p, uint32_t x, uint32_t cmp, int shared);

/* MIMG image loads, stores, atomics, resinfo and point sampling (mimg.c). */
void emu_mimg(emu_wave *w, const emu_inst *in);
int emu_mimg_family(const char *name, emu_opinfo *oi);

/*
 * Formatted elements (vmem_fmt.c): read the four channels of one element of format id
 * (missing ones 0, 0, 0, 1; *is_float: the channels are f32 bit patterns), or write the
 * channels whose bit is set in mask (the others of the element kept).  Return 0 for an
 * invalid format id.
 */
int emu_fmt_read(unsigned id, const uint8_t *elem, uint32_t val[4], int *is_float);
int emu_fmt_write(unsigned id, uint8_t *elem, const uint32_t val[4], unsigned mask);
/* The raw bits of channel c of one element (no conversion), sign-extended when sgn. */
uint32_t emu_fmt_raw(unsigned id, const uint8_t *elem, unsigned c, int sgn);

/* Format id -> components and element bytes (NULL for an invalid id); see buffmt.def. */
const void *emu_buffmt(unsigned id, unsigned *comps, unsigned *bytes);
void emu_vm_buffer_fmt(emu_wave *w, const emu_inst *in);

#endif /* RDX_EMU_CORE_OPS_H */
