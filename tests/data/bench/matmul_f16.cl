/* tests/data/bench/matmul_f16.cl — c = a @ b (n x n f16, f32 accumulation,
 * n a multiple of 32): 16x16 threads compute a 32x32 tile (2x2 per thread) from 32x16 / 16x32 LDS tiles. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define BARRIER()                                          \
    do {                                                   \
        __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup"); \
        __builtin_amdgcn_s_barrier();                      \
        __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup"); \
    } while (0)
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void matmul_f16(__global half *c, __global const half *a, __global const half *b, int n)
{
    __local float ta[32][17], tb[16][33];
    int tx = __builtin_amdgcn_workitem_id_x(), ty = __builtin_amdgcn_workitem_id_y();
    int col = __builtin_amdgcn_workgroup_id_x() * 32 + tx;
    int row = __builtin_amdgcn_workgroup_id_y() * 32 + ty;
    float s00 = 0.0f, s01 = 0.0f, s10 = 0.0f, s11 = 0.0f;
    for (int k0 = 0; k0 < n; k0 += 16) {
        ta[ty][tx] = a[row * n + k0 + tx];
        ta[ty + 16][tx] = a[(row + 16) * n + k0 + tx];
        tb[ty][tx] = b[(k0 + ty) * n + col];
        tb[ty][tx + 16] = b[(k0 + ty) * n + col + 16];
        BARRIER();
        for (int k = 0; k < 16; k++) {
            float a0 = ta[ty][k], a1 = ta[ty + 16][k], b0 = tb[k][tx], b1 = tb[k][tx + 16];
            s00 += a0 * b0;
            s01 += a0 * b1;
            s10 += a1 * b0;
            s11 += a1 * b1;
        }
        BARRIER();
    }
    c[row * n + col] = (half)s00;
    c[row * n + col + 16] = (half)s01;
    c[(row + 16) * n + col] = (half)s10;
    c[(row + 16) * n + col + 16] = (half)s11;
}
