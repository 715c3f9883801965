/* v_sin_f32 / v_cos_f32 (argument in turns), fract, ldexp. */
#include "rdx_cl.h"

__kernel void trig(__global float *s, __global float *c, __global float *f,
                   __global const float *a, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    float x = a[i];
    s[i] = __builtin_amdgcn_sinf(x);
    c[i] = __builtin_amdgcn_cosf(x);
    f[2 * i] = __builtin_amdgcn_fractf(x * 5.0f);
    f[2 * i + 1] = __builtin_amdgcn_ldexpf(x, (i % 41) - 20);
}
