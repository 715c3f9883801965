/* WMMA (wave32): a 32x32x32 matrix product per kernel, one 16x16 tile of the result
 * per wave, two k-steps, with v_wmma_f32_16x16x16_f16, _bf16 and
 * v_wmma_i32_16x16x16_iu8 (signed bytes).  Fragment layout: lane l loads row l%16
 * of A and column l%16 of B; it holds D[2e + l/16][l%16], e = 0..7. */
#include "rdx_cl.h"

#define DIM 32

__kernel void wmma(__global float *df, __global float *db, __global int *di,
                   __global const half *a, __global const half *b, __global const ushort *abf,
                   __global const ushort *bbf, __global const char *a8,
                   __global const char *b8)
{
    uint lane = get_local_id(0); /* one wave32 per group */
    uint tile = get_group_id(0);
    uint tr = (tile / 2) * 16, tc = (tile % 2) * 16, r = lane % 16;
    float8 cf, cb;
    int8 ci;
    for (int e = 0; e < 8; e++) {
        cf[e] = 0.0f;
        cb[e] = 0.0f;
        ci[e] = 0;
    }
    for (uint kk = 0; kk < DIM; kk += 16) {
        half16 fa, fb;
        short16 ba, bb;
        int4 ia, ib;
        for (uint e = 0; e < 16; e++) {
            fa[e] = a[(tr + r) * DIM + kk + e];
            fb[e] = b[(kk + e) * DIM + tc + r];
            ba[e] = (short)abf[(tr + r) * DIM + kk + e];
            bb[e] = (short)bbf[(kk + e) * DIM + tc + r];
        }
        for (uint w = 0; w < 4; w++) {
            uint pa = 0, pb = 0;
            for (uint k = 0; k < 4; k++) {
                pa |= (uint)(uchar)a8[(tr + r) * DIM + kk + 4 * w + k] << (8 * k);
                pb |= (uint)(uchar)b8[(kk + 4 * w + k) * DIM + tc + r] << (8 * k);
            }
            ia[w] = (int)pa;
            ib[w] = (int)pb;
        }
        cf = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(fa, fb, cf);
        cb = __builtin_amdgcn_wmma_f32_16x16x16_bf16_w32(ba, bb, cb);
        ci = __builtin_amdgcn_wmma_i32_16x16x16_iu8_w32(true, ia, true, ib, ci, false);
    }
    for (uint e = 0; e < 8; e++) {
        uint row = tr + 2 * e + lane / 16, col = tc + r;
        df[row * DIM + col] = cf[e];
        db[row * DIM + col] = cb[e];
        di[row * DIM + col] = ci[e];
    }
}
