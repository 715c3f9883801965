/* out[W][H] = transpose(in[H][W]) through a padded 16x16 LDS tile (grid rounded
 * up to whole tiles, odd W and H guarded). */
#include "rdx_cl.h"

#define TD 16

__kernel void transpose(__global float *out, __global const float *in, int W, int H)
{
    RDX_LDS float tile[TD][TD + 1];
    int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
    int bx = (int)get_group_id(0) * TD, by = (int)get_group_id(1) * TD;
    int x = bx + lx, y = by + ly;
    tile[ly][lx] = (x < W && y < H) ? in[y * W + x] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = by + lx, oy = bx + ly; /* out row oy (an input column), column ox */
    if (ox < H && oy < W)
        out[oy * H + ox] = tile[lx][ly];
}
