/*
 * emu/core/valu_fp8.h — RDNA4's 8-bit floats (OCP FP8 E4M3FN and BF8 E5M2) for the VALU
 * conversions, dot products and WMMAs (valu_fp8.c).
 */
#ifndef RDX_EMU_CORE_VALU_FP8_H
#define RDX_EMU_CORE_VALU_FP8_H

#include <stdint.h>

/* The f32 bits of FP8 (bf8 = 0) or BF8 (bf8 = 1) code c: exact (denormals kept); a NaN
   code gives the quiet NaN 0x7fc00000 with the code's sign. */
uint32_t emu_f32_of_f8(uint8_t c, int bf8);

/* f32 bits u as FP8 / BF8, rounded to nearest even.  A finite value that rounds beyond
   the largest finite code gives NaN (FP8) / Inf (BF8), or that largest code when sat;
   Inf gives NaN / Inf, NaN 0x7f (both formats); the sign is kept. */
uint8_t emu_f8_of_f32(uint32_t u, int bf8, int sat);

#endif /* RDX_EMU_CORE_VALU_FP8_H */
