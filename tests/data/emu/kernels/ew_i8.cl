/* Elementwise i8/u8: wrapping add/mul, saturating add, shifts, compare-select, abs. */
#include "rdx_cl.h"

__kernel void ew_i8(__global char *out, __global uchar *uout, __global const char *a,
                    __global const char *b, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    char x = a[i], y = b[i];
    uchar ux = (uchar)x, uy = (uchar)y;
    out[4 * i + 0] = (char)(uchar)(ux + uy);
    out[4 * i + 1] = (char)(uchar)(ux * uy);
    int sat = (int)x + (int)y;
    out[4 * i + 2] = (char)(sat > 127 ? 127 : sat < -128 ? -128 : sat);
    out[4 * i + 3] = x > y ? (char)(x >> (uy & 7)) : (char)(x < 0 ? -(int)x / 2 : x);
    uout[2 * i + 0] = (uchar)(ux >> (uy & 7));
    uout[2 * i + 1] = (uchar)((uint)ux * 3u / 5u);
}
