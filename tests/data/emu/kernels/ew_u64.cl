/* Elementwise u64: wrapping arithmetic, 64x64->128 high half by 32-bit parts,
 * rotates, min/max, mixing (xorshift-multiply). */
#include "rdx_cl.h"

static ulong mulhi64(ulong a, ulong b)
{
    ulong a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    ulong p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    ulong mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

__kernel void ew_u64(__global ulong *out, __global const ulong *a, __global const ulong *b, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    ulong x = a[i], y = b[i];
    uint r = (uint)(y & 63);
    out[5 * i + 0] = x - y * 3u;
    out[5 * i + 1] = mulhi64(x, y);
    out[5 * i + 2] = (x << r) | (x >> ((64 - r) & 63));
    out[5 * i + 3] = x < y ? x : y;
    ulong h = x ^ (x >> 33);
    h *= 0xff51afd7ed558ccdul;
    h ^= h >> 33;
    out[5 * i + 4] = h;
}
