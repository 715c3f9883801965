/* 5-point stencil on an odd-sized 2D grid with 16x8 work-groups: partial groups in
 * both dimensions load their own (w+2)x(h+2) halo tile cooperatively. */
#include "rdx_cl.h"

#define BX 16
#define BY 8

__kernel void stencil2d(__global float *out, __global const float *in, int W, int H)
{
    RDX_LDS float t[BY + 2][BX + 2];
    int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
    int lsx = (int)get_local_size(0), lsy = (int)get_local_size(1);
    int ox = (int)get_group_id(0) * BX - 1, oy = (int)get_group_id(1) * BY - 1;
    int tw = lsx + 2, th = lsy + 2;
    for (int k = ly * lsx + lx; k < tw * th; k += lsx * lsy) {
        int gx = ox + k % tw, gy = oy + k / tw;
        gx = gx < 0 ? 0 : gx >= W ? W - 1 : gx;
        gy = gy < 0 ? 0 : gy >= H ? H - 1 : gy;
        t[k / tw][k % tw] = in[gy * W + gx];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int x = (int)get_global_id(0), y = (int)get_global_id(1);
    float c = t[ly + 1][lx + 1];
    float nb = t[ly][lx + 1] + t[ly + 2][lx + 1] + t[ly + 1][lx] + t[ly + 1][lx + 2];
    out[y * W + x] = 0.5f * c + 0.125f * nb;
}
