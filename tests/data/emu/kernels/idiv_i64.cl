/* 64-bit integer division and modulo, signed and unsigned (a long software
 * sequence on the GPU). */
#include "rdx_cl.h"

__kernel void idiv_i64(__global long *q, __global ulong *uq, __global const long *a,
                       __global const long *b, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    long x = a[i], y = b[i];
    if (i & 1)
        y >>= (i & 31); /* also small divisors */
    if (y == 0)
        y = 3;
    if (x == (long)0x8000000000000000ul && y == -1)
        y = 5;
    ulong ux = (ulong)x, uy = (ulong)y;
    q[2 * i + 0] = x / y;
    q[2 * i + 1] = x % y;
    uq[3 * i + 0] = ux / uy;
    uq[3 * i + 1] = ux % uy;
    uq[3 * i + 2] = ux / 1000000007ul;
}
