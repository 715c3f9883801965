/* 64-bit global atomics (add, max, min, or, and, xor, compare-and-swap loop) with
 * order-independent final values. */
#include "rdx_cl.h"

__kernel void atomics_64(__global ulong *u, __global long *s, __global const ulong *in, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    ulong v = in[i];
    atomic_add(&u[0], v);
    atomic_max(&u[1], v);
    atomic_min(&u[2], v);
    atomic_or(&u[3], v & 0x0123456789abcdeful);
    atomic_and(&u[4], v | 0x8000000000000001ul);
    atomic_xor(&u[5], v);
    atomic_max(&s[0], (long)v);
    atomic_min(&s[1], (long)v);
    long old = s[2], seen;
    do {
        seen = old;
        old = atomic_cmpxchg(&s[2], seen, (long)((ulong)seen + (v >> 40)));
    } while (old != seen);
}
