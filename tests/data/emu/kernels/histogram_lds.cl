/* 64-bin histogram: per-group LDS histogram by LDS atomics, merged into the global
 * histogram by global atomics. */
#include "rdx_cl.h"

__kernel void histogram_lds(__global uint *hist, __global const uint *data, int n)
{
    RDX_LDS uint h[64];
    uint lid = get_local_id(0), ls = get_local_size(0);
    for (uint b = lid; b < 64; b += ls)
        h[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_global_id(0); i < (uint)n; i += get_global_size(0))
        atomic_inc(&h[(data[i] >> 3) & 63]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < 64; b += ls)
        if (h[b])
            atomic_add(&hist[b], h[b]);
}
