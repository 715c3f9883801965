/* Elementwise bf16 kept as ushort bits: widen to f32, compute, narrow with
 * round-to-nearest-even (NaN stays a quiet NaN). */
#include "rdx_cl.h"

static float bf16_to_f32(ushort h)
{
    return rdx_as_float((uint)h << 16);
}

static ushort f32_to_bf16(float f)
{
    uint u = rdx_as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (ushort)((u >> 16) | 0x40u);
    uint round = 0x7fffu + ((u >> 16) & 1u);
    return (ushort)((u + round) >> 16);
}

__kernel void ew_bf16(__global ushort *out, __global const ushort *a, __global const ushort *b,
                      int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    float x = bf16_to_f32(a[i]), y = bf16_to_f32(b[i]);
    out[3 * i + 0] = f32_to_bf16(x + y);
    out[3 * i + 1] = f32_to_bf16(x * y);
    out[3 * i + 2] = f32_to_bf16(x * 0.3f - y);
}
