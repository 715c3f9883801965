/* Real function calls: noinline helpers (s_swappc/s_setpc, the callee's stack in
 * scratch), one taking a private array by pointer and one returning a struct. */
#include "rdx_cl.h"

typedef struct pair {
    uint lo, hi;
} pair;

__attribute__((noinline)) static uint mix(uint a, uint b, uint c, uint d, uint e, uint f)
{
    a ^= b * 0x9e3779b9u;
    c += (d << 5) | (d >> 27);
    e -= f ^ 0x85ebca6bu;
    return a + c * 3u + e;
}

__attribute__((noinline)) static uint sum_private(const uint *v, int n)
{
    uint s = 0;
    for (int k = 0; k < n; k++)
        s = s * 31u + v[k];
    return s;
}

__attribute__((noinline)) static pair split(ulong x)
{
    pair p = { (uint)x, (uint)(x >> 32) };
    return p;
}

__kernel void calls(__global uint *out, __global const uint *in, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    uint v = in[i];
    uint tmp[24];
    for (int k = 0; k < 24; k++)
        tmp[k] = mix(v, (uint)k, v >> 3, (uint)i, v ^ (uint)k, 7u);
    pair p = split((ulong)v * 0x100000001b3ul);
    out[3 * i + 0] = sum_private(tmp, (int)(v % 24u) + 1);
    out[3 * i + 1] = p.lo ^ mix(p.hi, p.lo, 1u, 2u, 3u, 4u);
    out[3 * i + 2] = (i & 1) ? mix(v, v, v, v, v, v) : sum_private(tmp + 3, 5);
}
