/* f32 division, reciprocal-style division and square root as OpenCL C compiles
 * them: by default fdiv carries !fpmath 2.5 ulp and the backend emits the fast
 * sequence; with -cl-fp32-correctly-rounded-divide-sqrt the IEEE sequence
 * (v_div_scale/fmas/fixup) — the manifest compiles this file both ways. */
#include "rdx_cl.h"

__kernel void fdiv_sqrt(__global float *q, __global float *r, __global const float *a,
                        __global const float *b, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    q[2 * i + 0] = x / y;
    q[2 * i + 1] = 1.0f / y;
    r[i] = __builtin_sqrtf(__builtin_fabsf(x));
}
