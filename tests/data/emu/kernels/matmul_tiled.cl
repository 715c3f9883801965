/* C[M][N] = A[M][K] * B[K][N] with 16x16 LDS tiles; K need not be a multiple of
 * 16 (zero padding).  The grid is rounded up to whole tiles: every work-item of
 * a group loads its tile element before the barrier. */
#include "rdx_cl.h"

#define TS 16

__kernel void matmul_tiled(__global float *c, __global const float *a, __global const float *b,
                           int M, int N, int K)
{
    RDX_LDS float ta[TS][TS];
    RDX_LDS float tb[TS][TS + 1];
    int col = (int)get_global_id(0), row = (int)get_global_id(1);
    int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
    float acc = 0.0f;
    for (int t = 0; t < K; t += TS) {
        ta[ly][lx] = (row < M && t + lx < K) ? a[row * K + t + lx] : 0.0f;
        tb[ly][lx] = (t + ly < K && col < N) ? b[(t + ly) * N + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++)
            acc += ta[ly][k] * tb[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N)
        c[row * N + col] = acc;
}
