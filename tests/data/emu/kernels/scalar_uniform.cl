/* Uniform control flow and scalar (SALU) arithmetic: work-group-uniform loops
 * driven by kernel arguments and group IDs, scalar 32/64-bit integer math, and
 * uniform branches, mixed with per-lane vector work. */
#include "rdx_cl.h"

__kernel void scalar_uniform(__global uint *out, __global const uint *in, uint rounds, ulong key,
                             int n)
{
    uint g = get_group_id(0);
    /* everything up to the loop's end is uniform across the work-group */
    ulong h = key ^ ((ulong)g << 17);
    uint acc = g * 2654435761u;
    for (uint r = 0; r < rounds + (g & 3u); r++) {
        h = h * 6364136223846793005ul + 1442695040888963407ul;
        acc ^= (uint)(h >> 29);
        if (acc & 0x10u)
            acc = (acc << 3) | (acc >> 29);
        else
            acc += (uint)__builtin_popcountl(h);
        if ((h >> 60) == 7u)
            break;
    }
    int i = (int)get_global_id(0);
    if (i < n)
        out[i] = in[i] * acc + (uint)(h >> 32) + (g > 3u ? 0x1000u : 0u);
}
