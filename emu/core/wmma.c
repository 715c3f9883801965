/*
 * emu/core/wmma.c — WMMA 16x16x16 matrix ops for wave32 (f16, bf16 inputs
 * with f32 or f16/bf16 accumulators; iu8 and iu4 with i32 accumulators).
 * Layout (RDNA3 ISA guide, WMMA): lane l holds row l%16 of A and column
 * l%16 of B (lanes 16-31 replicate lanes 0-15); element k of that row /
 * column is at half k%2 of VGPR k/2 (f16/bf16), byte k%4 of VGPR k/4 (iu8),
 * nibble k%8 of VGPR k/8 (iu4).  D/C: VGPR i of lane l is element
 * (row 2i + l/16, column l%16); 16-bit results sit in the half op_sel[2]
 * names.  Wave64: A/B as in wave32 (lanes 32-63 replicate lanes 0-31; lanes
 * 0-15 are read), D/C in 4 VGPRs: lanes 0-31 hold the rows wave32 keeps in
 * VGPRs 0-3 and lanes 32-63 those of VGPRs 4-7, i.e. VGPR i of lane l is
 * element (row 2i + (l%32)/16 + 8*(l/32), column l%16).
 */
#include "emu/core/valu.h"

/* param: 0 f32<-f16, 1 f32<-bf16, 2 f16<-f16, 3 bf16<-bf16, 4 i32<-iu8, 5 i32<-iu4 */
void emu_v_wmma(emu_wave *w, const emu_inst *in)
{
    unsigned p = in->param, ar = in->src[0].reg, br = in->src[1].reg, dr = in->dst.reg;
    int hi = (in->opsel >> 2) & 1;
    double A[16][16], B[16][16];
    int64_t IA[16][16], IB[16][16];
    for (unsigned l = 0; l < 16; l++) {
        for (unsigned k = 0; k < 16; k++) {
            if (p <= 3) {
                uint16_t a = (uint16_t)(w->v[(ar + k / 2) & 255][l] >> (16 * (k % 2)));
                uint16_t b = (uint16_t)(w->v[(br + k / 2) & 255][l] >> (16 * (k % 2)));
                int bf = p == 1 || p == 3;
                A[l][k] = bf ? bf16_to_f32(a) : f16_to_f32(a);
                B[k][l] = bf ? bf16_to_f32(b) : f16_to_f32(b);
            } else if (p == 4) {
                uint32_t a = (w->v[(ar + k / 4) & 255][l] >> (8 * (k % 4))) & 255;
                uint32_t b = (w->v[(br + k / 4) & 255][l] >> (8 * (k % 4))) & 255;
                IA[l][k] = (in->neg & 1) ? (int8_t)a : (int64_t)a;
                IB[k][l] = (in->neg & 2) ? (int8_t)b : (int64_t)b;
            } else {
                uint32_t a = (w->v[(ar + k / 8) & 255][l] >> (4 * (k % 8))) & 15;
                uint32_t b = (w->v[(br + k / 8) & 255][l] >> (4 * (k % 8))) & 15;
                IA[l][k] = (in->neg & 1) ? (int64_t)((a ^ 8) - 8) : (int64_t)a;
                IB[k][l] = (in->neg & 2) ? (int64_t)((b ^ 8) - 8) : (int64_t)b;
            }
        }
    }
    unsigned nl = w->nl, nd = nl == 32 ? 8 : 4;
    uint32_t out[8][EMU_MAX_LANES];
    for (unsigned i = 0; i < nd; i++) {
        for (unsigned l = 0; l < nl; l++) {
            unsigned row = 2 * i + (l % 32) / 16 + 8 * (l / 32), col = l % 16;
            uint32_t c;
            if (in->src[2].kind == EMU_K_VGPR)
                c = w->v[(in->src[2].reg + i) & 255][l];
            else
                c = (uint32_t)in->src[2].val;
            if (p <= 1) {
                double s = f32_of(c);
                for (unsigned k = 0; k < 16; k++)
                    s += A[row][k] * B[k][col];
                out[i][l] = u32_of((float)s);
            } else if (p <= 3) {
                uint16_t ch = (uint16_t)(hi ? c >> 16 : c);
                double s = p == 2 ? f16_to_f32(ch) : bf16_to_f32(ch);
                for (unsigned k = 0; k < 16; k++)
                    s += A[row][k] * B[k][col];
                uint16_t r = p == 2 ? f32_to_f16((float)s) : f32_to_bf16((float)s);
                uint32_t old = w->v[(dr + i) & 255][l];
                out[i][l] = hi ? (old & 0xffffu) | (uint32_t)r << 16 : (old & 0xffff0000u) | r;
            } else {
                int64_t s = (int32_t)c;
                for (unsigned k = 0; k < 16; k++)
                    s += IA[row][k] * IB[k][col];
                if (in->clamp)
                    s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                out[i][l] = (uint32_t)s;
            }
        }
    }
    for (unsigned i = 0; i < nd; i++)
        for (unsigned l = 0; l < nl; l++)
            w->v[(dr + i) & 255][l] = out[i][l];
}
