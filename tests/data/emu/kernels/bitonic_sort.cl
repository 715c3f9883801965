/* Bitonic sort of 512 u32 keys per work-group (256 work-items, one compare-swap
 * pair each per step) in LDS, in place. */
#include "rdx_cl.h"

#define SN 512

__kernel void bitonic_sort(__global uint *data)
{
    RDX_LDS uint s[SN];
    uint lid = get_local_id(0), base = get_group_id(0) * SN;
    s[lid] = data[base + lid];
    s[lid + SN / 2] = data[base + lid + SN / 2];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 2; k <= SN; k <<= 1) {
        for (uint j = k >> 1; j > 0; j >>= 1) {
            uint i = 2 * lid - (lid & (j - 1));
            uint a = s[i], b = s[i + j];
            bool up = (i & k) == 0;
            if ((a > b) == up) {
                s[i] = b;
                s[i + j] = a;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    data[base + lid] = s[lid];
    data[base + lid + SN / 2] = s[lid + SN / 2];
}
