/* Sum over a 2D work-group (16x8) by the local linear id through LDS, then the
 * group sums of each row of groups by a global atomic. Integer, exact. */
#include "rdx_cl.h"

__kernel void reduce_2d(__global uint *gsum, __global uint *rowsum, __global const uint *in,
                        int W, int H)
{
    RDX_LDS uint s[128];
    uint x = get_global_id(0), y = get_global_id(1);
    uint lin = get_local_linear_id();
    uint nl = get_local_size(0) * get_local_size(1);
    s[lin] = ((int)x < W && (int)y < H) ? in[y * (uint)W + x] : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint st = 64; st > 0; st >>= 1) {
        if (lin < st && lin + st < nl)
            s[lin] += s[lin + st];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lin == 0) {
        gsum[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = s[0];
        atomic_add(&rowsum[get_group_id(1)], s[0]);
    }
}
