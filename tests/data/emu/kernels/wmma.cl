/* WMMA: a 32x32x32 matrix product per kernel, one 16x16 tile of the result per wave,
 * two k-steps, with v_wmma_f32_16x16x16_f16, _bf16 and v_wmma_i32_16x16x16_iu8
 * (signed bytes).  Fragment layout: lane l loads row l%16 of A and column l%16 of B.
 * Wave32 (the _w32 builtins): lane l holds D[2e + l/16][l%16], e = 0..7.  Wave64 (the
 * _w64 builtins, -mwavefrontsize64): lane l holds D[2e + (l%32)/16 + 8*(l/32)][l%16],
 * e = 0..3. */
#include "rdx_cl.h"

#define DIM 32

#if __AMDGCN_WAVEFRONT_SIZE == 64
#define NACC 4
typedef float4 accf;
typedef int4 acci;
#define WMMA_F16(a, b, c) __builtin_amdgcn_wmma_f32_16x16x16_f16_w64(a, b, c)
#define WMMA_BF16(a, b, c) __builtin_amdgcn_wmma_f32_16x16x16_bf16_w64(a, b, c)
#define WMMA_IU8(a, b, c) __builtin_amdgcn_wmma_i32_16x16x16_iu8_w64(true, a, true, b, c, false)
#else
#define NACC 8
typedef float8 accf;
typedef int8 acci;
#define WMMA_F16(a, b, c) __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(a, b, c)
#define WMMA_BF16(a, b, c) __builtin_amdgcn_wmma_f32_16x16x16_bf16_w32(a, b, c)
#define WMMA_IU8(a, b, c) __builtin_amdgcn_wmma_i32_16x16x16_iu8_w32(true, a, true, b, c, false)
#endif

__kernel void wmma(__global float *df, __global float *db, __global int *di,
                   __global const half *a, __global const half *b, __global const ushort *abf,
                   __global const ushort *bbf, __global const char *a8,
                   __global const char *b8)
{
    uint lane = get_local_id(0); /* one wave per group */
    uint tile = get_group_id(0);
    uint tr = (tile / 2) * 16, tc = (tile % 2) * 16, r = lane % 16;
    accf cf, cb;
    acci ci;
    for (int e = 0; e < NACC; e++) {
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
        cf = WMMA_F16(fa, fb, cf);
        cb = WMMA_BF16(ba, bb, cb);
        ci = WMMA_IU8(ia, ib, ci);
    }
    for (uint e = 0; e < NACC; e++) {
        uint row = tr + 2 * e + (lane % 32) / 16 + 8 * (lane / 32), col = tc + r;
        df[row * DIM + col] = cf[e];
        db[row * DIM + col] = cb[e];
        di[row * DIM + col] = ci[e];
    }
}
