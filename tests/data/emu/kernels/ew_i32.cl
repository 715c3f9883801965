/* Elementwise i32/u32: add, sub, mul, mul-high, masked shifts, rotate, bit counts,
 * min/max, bitwise logic, compare-select. */
#include "rdx_cl.h"

__kernel void ew_i32(__global int *out, __global uint *uout, __global const int *a,
                     __global const int *b, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    uint ux = (uint)x, uy = (uint)y;
    out[6 * i + 0] = (int)(ux + uy);
    out[6 * i + 1] = (int)(ux - uy * 7u);
    out[6 * i + 2] = (int)(((long)x * (long)y) >> 32);
    out[6 * i + 3] = x >> (uy & 31);
    out[6 * i + 4] = x < y ? x : y;
    out[6 * i + 5] = (x & y) | (x ^ ~y);
    uint s = uy & 31;
    uout[5 * i + 0] = ux * uy;
    uout[5 * i + 1] = (ux >> s) | (ux << ((32 - s) & 31));
    uout[5 * i + 2] = (uint)__builtin_popcount(ux) + (ux ? (uint)__builtin_clz(ux) : 32u);
    uout[5 * i + 3] = (uint)(((ulong)ux * uy) >> 32);
    uout[5 * i + 4] = ux > uy ? ux - uy : uy - ux;
}
