/* Max of f32 and the index of its first occurrence through an LDS tree
 * (work-group 128, partial last group), one result per group. */
#include "rdx_cl.h"

__kernel void reduce_max_f32(__global float *mx, __global int *arg, __global const float *in,
                             int n)
{
    RDX_LDS float s[128];
    RDX_LDS int where[128];
    uint lid = get_local_id(0), ls = get_local_size(0);
    int g = (int)get_global_id(0);
    float v = g < n ? in[g] : -__builtin_inff();
    s[lid] = v;
    where[lid] = g;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint st = 64; st > 0; st >>= 1) {
        if (lid < st && lid + st < ls) {
            float o = s[lid + st];
            if (o > s[lid] || (o == s[lid] && where[lid + st] < where[lid])) {
                s[lid] = o;
                where[lid] = where[lid + st];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        mx[get_group_id(0)] = s[0];
        arg[get_group_id(0)] = where[0];
    }
}
