/* Conversions: int<->float (in range), u32->f32 rounding, i64->f32/f64,
 * f32->f16 rounding, f16->f32, float->int truncation. */
#include "rdx_cl.h"

__kernel void convert(__global float *f, __global int *iv, __global half *h, __global double *d,
                      __global const int *a, __global const uint *u, __global const long *l,
                      __global const float *x, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    f[4 * i + 0] = (float)a[i];
    f[4 * i + 1] = (float)u[i];
    f[4 * i + 2] = (float)l[i];
    f[4 * i + 3] = (float)(ulong)l[i];
    float v = x[i];
    iv[2 * i + 0] = (int)v;
    iv[2 * i + 1] = (int)(uint)(v < 0.0f ? -v : v);
    h[i] = (half)v;
    d[2 * i + 0] = (double)l[i];
    d[2 * i + 1] = (double)v * (double)u[i];
}
