/* y = a * x + y (f32, a scalar float argument, in place). */
#include "rdx_cl.h"

__kernel void saxpy(__global float *y, __global const float *x, float a, int n)
{
    int i = (int)get_global_id(0);
    if (i < n)
        y[i] = a * x[i] + y[i];
}
