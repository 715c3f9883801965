/* Row softmax, one work-group (64) per row: LDS max reduction, exp2 of the shifted
 * row (v_exp_f32), LDS sum reduction, scale by the reciprocal. */
#include "rdx_cl.h"

#define SB 64

__kernel void softmax(__global float *out, __global const float *in, int L)
{
    RDX_LDS float red[SB];
    uint lid = get_local_id(0), row = get_group_id(0);
    __global const float *x = in + row * (uint)L;
    __global float *y = out + row * (uint)L;
    float m = -__builtin_inff();
    for (int k = (int)lid; k < L; k += SB)
        m = __builtin_fmaxf(m, x[k]);
    red[lid] = m;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint st = SB / 2; st > 0; st >>= 1) {
        if (lid < st)
            red[lid] = __builtin_fmaxf(red[lid], red[lid + st]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float mx = red[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    float s = 0.0f;
    for (int k = (int)lid; k < L; k += SB) {
        float e = __builtin_amdgcn_exp2f((x[k] - mx) * 1.44269504f);
        y[k] = e;
        s += e;
    }
    red[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint st = SB / 2; st > 0; st >>= 1) {
        if (lid < st)
            red[lid] += red[lid + st];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float inv = 1.0f / red[0];
    for (int k = (int)lid; k < L; k += SB)
        y[k] = y[k] * inv;
}
