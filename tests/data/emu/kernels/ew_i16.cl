/* Elementwise i16/u16: wrapping arithmetic, mul-high, shifts, min/max, abs. */
#include "rdx_cl.h"

__kernel void ew_i16(__global short *out, __global ushort *uout, __global const short *a,
                     __global const short *b, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    short x = a[i], y = b[i];
    ushort ux = (ushort)x, uy = (ushort)y;
    out[4 * i + 0] = (short)(ushort)(ux + uy);
    out[4 * i + 1] = (short)(((int)x * (int)y) >> 16);
    out[4 * i + 2] = x < y ? x : y;
    out[4 * i + 3] = (short)(x < 0 ? -(int)x : (int)x);
    uout[3 * i + 0] = (ushort)((uint)ux * uy);
    uout[3 * i + 1] = (ushort)(ux >> (uy & 15));
    uout[3 * i + 2] = ux > uy ? ux : uy;
}
