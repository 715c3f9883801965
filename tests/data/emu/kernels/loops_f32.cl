/* Nested loops with data-dependent trip counts and early exit on f32 state
 * (logistic map: only multiplies and adds, exact in IEEE arithmetic). */
#include "rdx_cl.h"

__kernel void loops_f32(__global float *out, __global int *iters, __global const float *a,
                        __global const uint *b, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    float x = a[i];
    float r = 3.5f + 0.25f * x;
    uint count = b[i] % 97u;
    int done = 0;
    float acc = 0.0f;
    for (uint outer = 0; outer < 3u; outer++) {
        for (uint it = 0; it < count; it++) {
            x = r * x * (1.0f - x);
            done++;
            if (x < 0.02f)
                break;
            if ((it & 7u) == 3u)
                continue;
            acc += x;
        }
        if (acc > 40.0f)
            break;
        x = 0.5f * (x + 0.3f);
    }
    out[i] = x + acc;
    iters[i] = done;
}
