/* Inclusive prefix sum of each 256-element block (Hillis-Steele, double-buffered
 * LDS), and each block's total. */
#include "rdx_cl.h"

__kernel void scan_i32(__global int *out, __global int *sums, __global const int *in, int n)
{
    RDX_LDS int buf[2][256];
    uint lid = get_local_id(0);
    int g = (int)get_global_id(0);
    int pin = 0;
    buf[0][lid] = g < n ? in[g] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1; off < 256; off <<= 1) {
        int v = buf[pin][lid];
        if (lid >= off)
            v += buf[pin][lid - off];
        buf[1 - pin][lid] = v;
        pin = 1 - pin;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (g < n)
        out[g] = buf[pin][lid];
    if (lid == 255)
        sums[get_group_id(0)] = buf[pin][255];
}
