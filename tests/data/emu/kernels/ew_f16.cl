/* Elementwise f16: add, sub, mul, min/max, conversions f16<->f32 and f16->int. */
#include "rdx_cl.h"

__kernel void ew_f16(__global half *out, __global float *wide, __global int *ints,
                     __global const half *a, __global const half *b, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    half x = a[i], y = b[i];
    half s = x + y;
    half d = x - y;
    half p = x * y;
    half mn = x < y ? x : y;
    out[4 * i + 0] = s;
    out[4 * i + 1] = d;
    out[4 * i + 2] = p;
    out[4 * i + 3] = mn;
    wide[2 * i] = (float)x * (float)y;
    wide[2 * i + 1] = (float)s;
    half fl = (half)((float)x * 3.0f);
    float ff = (float)fl;
    ints[i] = (ff == ff && __builtin_fabsf(ff) < 1.0e9f) ? (int)ff : -7;
}
