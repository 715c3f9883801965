// tests/prof: a kernel whose per-PC counts are known by hand.  Workgroup g
// (64 work-items = 2 waves of 32) runs the loop g + 1 times, uniformly, so its
// backward branch executes (g + 1) times per wave: 2 * (1 + 2 + ... + G) in all.
// The LDS exchange and barrier give the stall split a barrier and lgkmcnt part.
#include <rdx/opencl.h> /* the installed header: no ROCm */

kernel void loops(global uint *out, uint seed)
{
    local uint tile[64];
    uint g = get_group_id(0), l = get_local_id(0);
    uint acc = seed ^ l;
#pragma unroll 1
    for (uint i = 0; i <= g; i++)
        acc = acc * 1664525u + (i ^ l);
    tile[l] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = acc + tile[63 - l];
}
