/*
 * emu/core/valu_interp.c — VINTERP: the parameter interpolation ops.  From the RDNA3
 * ISA guide's pseudocode, S0 and S2 are read at other lanes of the lane's quad
 * (q = laneId & ~3, whatever EXEC says): p10 = fma(S0[q+1], S1, S2[q]) and
 * p2 = fma(S0[q+2], S1, S2).  The _f16_f32 forms read f16 S0 (and S2 for p10), the
 * half chosen by op_sel[0] / op_sel[2]; p2_f16_f32 writes an f16 to the half op_sel[3]
 * picks; the _rtz forms round toward zero.  neg negates S0..S2, clamp and the denormal
 * modes act as for other VALU ops.
 */
#include <fenv.h>

#include "emu/core/valu.h"

/* Source i at lane `from(l)` of the quad: f32, or f16 (half per op_sel) widened. */
static void quad_src(emu_wave *w, const emu_inst *in, int i, unsigned qoff, int own, int f16,
                     double *out)
{
    uint32_t tmp[EMU_MAX_LANES];
    const uint32_t *p = emu_v32(w, &in->src[i], tmp);
    int hi = (in->opsel >> i) & 1, neg = (in->neg >> i) & 1;
    int fl32 = !(emu_denorm32(w) & 1), fl16 = !(emu_denorm64(w) & 1);
    LANES
    {
        uint32_t v = p[own ? l : (l & ~3u) + qoff];
        double x;
        if (f16) {
            uint16_t h = (uint16_t)(hi ? v >> 16 : v);
            x = f16_to_f32(fl16 ? f16_flush(h) : h);
        } else {
            x = f32_of(fl32 ? f32_flush(v) : v);
        }
        out[l] = neg ? -x : x;
    }
}

/* param: bit 0 = p2 (else p10), bit 1 = f16 sources, bit 2 = f16 result, bit 3 = rtz */
void emu_v_interp(emu_wave *w, const emu_inst *in)
{
    unsigned p = in->param;
    int p2 = p & 1, f16 = (p >> 1) & 1;
    double s0[EMU_MAX_LANES], s1[EMU_MAX_LANES], s2[EMU_MAX_LANES], r[EMU_MAX_LANES];
    quad_src(w, in, 0, p2 ? 2 : 1, 0, f16, s0);
    quad_src(w, in, 1, 0, 1, 0, s1);
    quad_src(w, in, 2, 0, p2, f16 && !p2, s2);
    if (p & 4) { /* f16 result, rounded once from the exact fma */
        unsigned rm = (p & 8) ? 3 : emu_round64(w);
        LANES
        r[l] = f16_fma_rto(s0[l], s1[l], s2[l], rm);
        uint32_t out[EMU_MAX_LANES];
        int fl = !(emu_denorm64(w) & 2);
        LANES
        {
            uint16_t h = f64_to_f16_rm(omod_clamp_d(w, in, r[l]), rm);
            out[l] = fl ? f16_flush(h) : h;
        }
        emu_vwrite16(w, &in->dst, out, (in->opsel >> 3) & 1);
        return;
    }
    float f[EMU_MAX_LANES];
    int rs = 0;
    if ((p & 8) && emu_round32(w) != 3) {
        fesetround(FE_TOWARDZERO);
        rs = 1;
    }
    /* as f64_round_enter: the arithmetic may not move across the mode switch */
    __asm__ volatile("" : : "r"(s0), "r"(s1), "r"(s2) : "memory");
    LANES
    f[l] = fmaf((float)s0[l], (float)s1[l], (float)s2[l]);
    __asm__ volatile("" : : "r"(f) : "memory");
    if (rs)
        fesetround(emu_fe_mode(emu_round32(w)));
    vdstf(w, in, f);
}
