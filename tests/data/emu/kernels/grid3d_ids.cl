/* 3D grid with odd sizes and partial work-groups in every dimension; also a
 * per-group LDS count of work-items, checked against the group's size. */
#include "rdx_cl.h"

__kernel void grid3d_ids(__global uint *ids, int W, int H)
{
    RDX_LDS uint count;
    uint x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    uint lin = get_local_linear_id();
    if (lin == 0)
        count = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&count);
    barrier(CLK_LOCAL_MEM_FENCE);
    __global uint *o = ids + ((z * (uint)H + y) * (uint)W + x) * 4;
    o[0] = get_local_id(0) | get_local_id(1) << 8 | get_local_id(2) << 16;
    o[1] = get_group_id(0) | get_group_id(1) << 8 | get_group_id(2) << 16;
    o[2] = get_local_size(0) | get_local_size(1) << 8 | get_local_size(2) << 16;
    o[3] = count | lin << 16;
}
