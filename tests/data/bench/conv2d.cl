/* tests/data/bench/conv2d.cl — 3x3 convolution, stride 1, padding 1, no bias:
 * x (1, C, H, W) f32, w (O, C, 3, 3), out (1, O, H, W); H, W multiples of 16, O of 4.
 * A 16x16 workgroup computes a 16x16 pixel tile for 4 output channels; per input channel
 * the 18x18 input halo and the 4x9 weights go through LDS. */
#define BARRIER()                                              \
    do {                                                       \
        __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup"); \
        __builtin_amdgcn_s_barrier();                          \
        __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup"); \
    } while (0)

__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void conv2d(__global float *out, __global const float *x, __global const float *w, int C,
            int H, int W)
{
    __local float tin[18][19], tw[4][9];
    int tx = __builtin_amdgcn_workitem_id_x(), ty = __builtin_amdgcn_workitem_id_y();
    int l = ty * 16 + tx;
    int x0 = __builtin_amdgcn_workgroup_id_x() * 16, y0 = __builtin_amdgcn_workgroup_id_y() * 16;
    int o0 = __builtin_amdgcn_workgroup_id_z() * 4;
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    for (int c = 0; c < C; c++) {
        __global const float *xc = x + c * H * W;
        for (int i = l; i < 18 * 18; i += 256) {
            int iy = y0 + i / 18 - 1, ix = x0 + i % 18 - 1;
            tin[i / 18][i % 18] = iy >= 0 && iy < H && ix >= 0 && ix < W ? xc[iy * W + ix] : 0.0f;
        }
        if (l < 36)
            tw[l / 9][l % 9] = w[((o0 + l / 9) * C + c) * 9 + l % 9];
        BARRIER();
        for (int ky = 0; ky < 3; ky++)
            for (int kx = 0; kx < 3; kx++) {
                float v = tin[ty + ky][tx + kx];
                s0 += v * tw[0][ky * 3 + kx];
                s1 += v * tw[1][ky * 3 + kx];
                s2 += v * tw[2][ky * 3 + kx];
                s3 += v * tw[3][ky * 3 + kx];
            }
        BARRIER();
    }
    int p = (y0 + ty) * W + x0 + tx;
    out[(o0 + 0) * H * W + p] = s0;
    out[(o0 + 1) * H * W + p] = s1;
    out[(o0 + 2) * H * W + p] = s2;
    out[(o0 + 3) * H * W + p] = s3;
}
