/* 32-bit integer division and modulo, signed and unsigned, variable divisors
 * (never zero, never INT_MIN / -1), plus division by constants. */
#include "rdx_cl.h"

__kernel void idiv_i32(__global int *q, __global uint *uq, __global const int *a,
                       __global const int *b, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    if (y == 0)
        y = 7;
    if (x == (int)0x80000000 && y == -1)
        y = 3;
    uint ux = (uint)x, uy = (uint)y;
    q[4 * i + 0] = x / y;
    q[4 * i + 1] = x % y;
    q[4 * i + 2] = x / 7;
    q[4 * i + 3] = x % -13;
    uq[3 * i + 0] = ux / uy;
    uq[3 * i + 1] = ux % uy;
    uq[3 * i + 2] = ux / 10u + ux % 1000u;
}
