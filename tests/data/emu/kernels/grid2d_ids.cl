/* 2D grid with odd sizes and partial work-groups: every work-item records its
 * IDs and sizes as OpenCL 2.0 defines them. */
#include "rdx_cl.h"

__kernel void grid2d_ids(__global uint *ids, int W)
{
    uint x = get_global_id(0), y = get_global_id(1);
    __global uint *o = ids + (y * (uint)W + x) * 8;
    o[0] = get_local_id(0) | get_local_id(1) << 16;
    o[1] = get_group_id(0) | get_group_id(1) << 16;
    o[2] = get_local_size(0) | get_local_size(1) << 16;
    o[3] = get_num_groups(0) | get_num_groups(1) << 16;
    o[4] = get_global_size(0) | get_global_size(1) << 16;
    o[5] = get_enqueued_local_size(0) | get_enqueued_local_size(1) << 16;
    o[6] = get_local_linear_id();
    o[7] = get_global_size(2) | get_local_id(2) << 8 | get_group_id(2) << 16;
}
