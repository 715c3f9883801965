/* Elementwise f64: add, mul, fma, div (IEEE sequence), min, conversions. */
#include "rdx_cl.h"

__kernel void ew_f64(__global double *out, __global float *narrow, __global const double *a,
                     __global const double *b, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    double x = a[i], y = b[i];
    out[4 * i + 0] = x + y;
    out[4 * i + 1] = x * y;
    out[4 * i + 2] = __builtin_fma(x, y, -x);
    out[4 * i + 3] = x / y;
    narrow[i] = (float)(x * 1e-3);
}
