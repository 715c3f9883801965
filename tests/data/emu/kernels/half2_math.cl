/* Packed f16 math on half2 (ext_vector_type(2) _Float16): v_pk_mul/add/fma, min,
 * max and swizzles. */
#include "rdx_cl.h"

__kernel void half2_math(__global half2 *out, __global const half2 *a, __global const half2 *b,
                         __global const half2 *c, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    half2 x = a[i], y = b[i], z = c[i];
    half2 p = x * y;
    half2 s = p + z;
    half2 d = x - z;
    half2 sw = (half2){ y[1], y[0] };
    half2 q = sw * d;
    half2 m;
    m[0] = x[0] > y[0] ? x[0] : y[0];
    m[1] = x[1] < y[1] ? x[1] : y[1];
    out[4 * i + 0] = s;
    out[4 * i + 1] = d;
    out[4 * i + 2] = q;
    out[4 * i + 3] = m;
}
