/* Elementwise f32 basics on edge values (NaN, inf, +-0, denormals): add, sub, mul,
 * fma, min, max, fabs, floor, ceil, trunc, rint, copysign, compare-select. */
#include "rdx_cl.h"

__kernel void ew_f32(__global float *add, __global float *mul, __global float *misc,
                     __global const float *a, __global const float *b, __global const float *c,
                     int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    float x = a[i], y = b[i], z = c[i];
    add[i] = x + y;
    mul[i] = x * y;
    float m[8];
    m[0] = x - y;
    m[1] = __builtin_fmaf(x, y, z);
    m[2] = __builtin_fminf(x, y);
    m[3] = __builtin_fmaxf(x, y);
    m[4] = __builtin_fabsf(x) + __builtin_floorf(y);
    m[5] = __builtin_ceilf(x) - __builtin_truncf(y);
    m[6] = __builtin_rintf(x) * __builtin_copysignf(1.0f, y);
    m[7] = (x < y) ? z : (x == y ? 0.5f : -z);
    for (int k = 0; k < 8; k++)
        misc[i * 8 + k] = m[k];
}
