/* 100-bin histogram by global atomics straight from every work-item (partial last
 * group), plus global max/or/xor/sub (from 0) and min/and (from all-ones)
 * atomics over the data. */
#include "rdx_cl.h"

__kernel void histogram_global(__global uint *hist, __global uint *lo, __global uint *hi,
                               __global const uint *data, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    uint v = data[i];
    atomic_inc(&hist[v % 100u]);
    atomic_max(&lo[0], v);
    atomic_or(&lo[1], v & 0x0f0f0f0fu);
    atomic_xor(&lo[2], v);
    atomic_sub(&lo[3], v & 15u);
    atomic_min(&hi[0], v);
    atomic_and(&hi[1], v | 0x80000001u);
}
