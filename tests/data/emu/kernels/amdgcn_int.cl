/* Integer AMDGPU builtins with a one-instruction mapping: bit-field extract
 * (v_bfe_u32/i32), funnel shifts (v_alignbit/alignbyte), byte permute (v_perm_b32),
 * byte lerp and sums of absolute differences (v_lerp_u8, v_sad_u8, v_msad_u8) and
 * 8-bit dot products (v_dot4_u32_u8, v_dot4_i32_iu8). */
#include "rdx_cl.h"

__kernel void amdgcn_int(__global uint *out, __global const uint *a, __global const uint *b,
                         __global const uint *c, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    uint x = a[i], y = b[i], z = c[i];
    out[10 * i + 0] = __builtin_amdgcn_ubfe(x, y, z);
    out[10 * i + 1] = (uint)__builtin_amdgcn_sbfe((int)x, y >> 8, z >> 8);
    out[10 * i + 2] = __builtin_amdgcn_alignbit(x, y, z);
    out[10 * i + 3] = __builtin_amdgcn_alignbyte(x, y, z);
    out[10 * i + 4] = __builtin_amdgcn_perm(x, y, z & 0x0f0f0f0fu);
    out[10 * i + 5] = __builtin_amdgcn_lerp(x, y, z);
    out[10 * i + 6] = __builtin_amdgcn_sad_u8(x, y, z & 0xffffu);
    out[10 * i + 7] = __builtin_amdgcn_msad_u8(x, y & 0xff00ff00u, z);
    out[10 * i + 8] = __builtin_amdgcn_udot4(x, y, z, false);
    out[10 * i + 9] = (uint)__builtin_amdgcn_sudot4(true, (int)x, false, (int)y, (int)z, false);
}
