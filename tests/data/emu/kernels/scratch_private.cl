/* Large private arrays (2 KiB + 1 KiB per work-item) indexed dynamically, so they
 * live in scratch memory; includes a per-lane insertion sort. */
#include "rdx_cl.h"

#define PN 512

__kernel void scratch_private(__global uint *out, __global uint *sorted, __global const uint *in,
                              int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    uint priv[PN];
    float fl[256];
    uint s = in[i];
    for (int k = 0; k < PN; k++) {
        s = s * 1664525u + 1013904223u;
        priv[k] = s >> 8;
    }
    for (int k = 0; k < 256; k++)
        fl[k] = (float)(priv[(k * 7) & (PN - 1)] & 1023u) * 0.5f;
    uint idx = in[i] & (PN - 1), acc = 0;
    for (int k = 0; k < 600; k++) {
        acc += priv[idx];
        priv[idx] ^= acc;
        idx = (priv[idx] + (uint)k) & (PN - 1);
    }
    /* insertion sort of the first 32 entries */
    for (int k = 1; k < 32; k++) {
        uint key = priv[k];
        int j = k - 1;
        while (j >= 0 && priv[j] > key) {
            priv[j + 1] = priv[j];
            j--;
        }
        priv[j + 1] = key;
    }
    float fs = 0.0f;
    for (int k = 0; k < 256; k += (int)(acc & 3u) + 1)
        fs += fl[k];
    out[2 * i] = acc;
    out[2 * i + 1] = (uint)fs;
    for (int k = 0; k < 32; k++)
        sorted[i * 32 + k] = priv[k];
}
