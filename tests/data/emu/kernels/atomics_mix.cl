/* Global and LDS atomics of every kind with order-independent final values,
 * a compare-and-swap retry loop, and a partial last work-group with barriers. */
#include "rdx_cl.h"

__kernel void atomics_mix(__global int *g, __global uint *gu, __global const int *in, int n)
{
    RDX_LDS int l[4];
    uint lid = get_local_id(0);
    if (lid == 0) {
        l[0] = 0;
        l[1] = 0x7fffffff;
        l[2] = (int)0x80000000;
        l[3] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int i = (int)get_global_id(0);
    if (i < n) {
        int v = in[i];
        atomic_add(&l[0], v);
        atomic_min(&l[1], v);
        atomic_max(&l[2], v);
        atomic_xor(&l[3], v);
        atomic_add(&g[0], v);
        atomic_min(&g[1], v);
        atomic_max(&g[2], v);
        atomic_or(&gu[0], (uint)v & 0x00ff00ffu);
        atomic_and(&gu[1], (uint)v | 0xf0f0f0f0u);
        atomic_xor(&gu[2], (uint)v);
        atomic_max(&gu[3], (uint)v);
        int old = g[3], seen;
        do {
            seen = old;
            old = atomic_cmpxchg(&g[3], seen, seen + (v & 255));
        } while (old != seen);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        atomic_add(&g[4], l[0]);
        atomic_min(&g[5], l[1]);
        atomic_max(&g[6], l[2]);
        atomic_xor(&g[7], l[3]);
    }
}
