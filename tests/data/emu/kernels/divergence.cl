/* Heavy divergence: data-dependent while loops (Collatz steps), a switch, nested
 * branches, continue/break and early returns, all differing lane by lane. */
#include "rdx_cl.h"

__kernel void divergence(__global int *out, __global const uint *in, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    uint v = in[i];
    uint x = v % 5000u + 1u;
    int steps = 0;
    while (x != 1u && steps < 400) {
        x = (x & 1u) ? 3u * x + 1u : x >> 1;
        steps++;
    }
    int r;
    switch (v % 6u) {
    case 0:
        r = steps * 2;
        break;
    case 1:
        r = -steps;
        break;
    case 2:
        r = 0;
        for (int k = 0; k < steps % 23; k++) {
            if (k & 1)
                continue;
            if (k > 15)
                break;
            r += k * k;
        }
        break;
    case 3:
        r = steps ^ 0x55;
        break;
    case 4:
        if ((v >> 8) & 1u) {
            out[i] = -1;
            return;
        }
        r = (int)(v >> 20);
        break;
    default:
        r = 7;
        for (uint k = v & 31u; k != 0; k &= k - 1u)
            r = r * 3 + (int)(k & 7u);
        break;
    }
    if (i % 3 == 0) {
        if (r > 100)
            r -= 100;
        else if (r < 0)
            r = -r * 2;
    }
    out[i] = r;
}
