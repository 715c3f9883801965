/* f32 atomic add to global and LDS memory with integer-valued addends, so the
 * sums are exact whatever the order. */
#include "rdx_cl.h"

__kernel void float_atomic(__global float *acc, __global const uint *in, int n)
{
    RDX_LDS float l[16];
    uint lid = get_local_id(0);
    if (lid < 16)
        l[lid] = 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    int i = (int)get_global_id(0);
    if (i < n) {
        uint v = in[i];
        rdx_cl_atomic_add_f32(&acc[v % 16u], (float)(v & 7u));
        rdx_cl_atomic_add_f32(&l[(v >> 4) % 16u], (float)((v >> 8) & 15u) - 4.0f);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 16)
        rdx_cl_atomic_add_f32(&acc[16 + lid], l[lid]);
}
