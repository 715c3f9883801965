/* Elementwise i64: add, mul, shifts by variable amounts, compares, bit counts. */
#include "rdx_cl.h"

__kernel void ew_i64(__global long *out, __global const long *a, __global const long *b, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    long x = a[i], y = b[i];
    ulong ux = (ulong)x, uy = (ulong)y;
    out[6 * i + 0] = (long)(ux + uy);
    out[6 * i + 1] = (long)(ux * uy);
    out[6 * i + 2] = x >> (uy & 63);
    out[6 * i + 3] = (long)(ux << (ux & 63));
    out[6 * i + 4] = x < y ? (long)(ux - (uy >> 2)) : y;
    out[6 * i + 5] = (long)__builtin_popcountl(ux) * 1000 + (ux ? __builtin_clzl(ux) : 64) +
                     (uy ? (long)__builtin_ctzl(uy) * 100000 : -1);
}
