/* The hardware transcendental builtins: v_exp_f32, v_log_f32, v_rcp_f32,
 * v_rsq_f32, v_sqrt_f32. */
#include "rdx_cl.h"

__kernel void transcend(__global float *e, __global float *l, __global float *rc,
                        __global float *rs, __global float *sq, __global const float *a,
                        __global const float *p, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    float x = a[i], y = p[i];
    e[i] = __builtin_amdgcn_exp2f(x);
    l[i] = __builtin_amdgcn_logf(y);
    rc[i] = __builtin_amdgcn_rcpf(y);
    rs[i] = __builtin_amdgcn_rsqf(y);
    sq[i] = __builtin_amdgcn_sqrtf(y);
}
