/* Grid-stride sum of i32 through an LDS tree with barriers (work-group 256):
 * one partial per group, and the total by a global atomic add. */
#include "rdx_cl.h"

__kernel void reduce_sum_i32(__global int *partial, __global int *total, __global const int *in,
                             int n)
{
    RDX_LDS int s[256];
    uint lid = get_local_id(0), ls = get_local_size(0);
    int v = 0;
    for (uint k = get_global_id(0); k < (uint)n; k += get_global_size(0))
        v += in[k];
    s[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint st = 128; st > 0; st >>= 1) {
        if (lid < st && lid + st < ls)
            s[lid] += s[lid + st];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        partial[get_group_id(0)] = s[0];
        atomic_add(total, s[0]);
    }
}
