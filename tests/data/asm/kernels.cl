// OpenCL kernels compiled by clang-19 for tests/asm (no device library: only
// builtins, so the code calls nothing).  rdx dis of the object must print what
// llvm-objdump -d prints; rdx as of clang -S output must give clang's object.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define GID(d) (__builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x())
#define LID() __builtin_amdgcn_workitem_id_x()
__kernel void saxpy(__global float *y, __global const float *x, float a, int n) {
  int i = GID(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
__kernel void reduce(__global float *out, __global const float *in, __local float *tmp) {
  int l = LID();
  tmp[l] = in[GID(0)];
  __builtin_amdgcn_s_barrier();
  for (int s = 128; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    __builtin_amdgcn_s_barrier();
  }
  if (l == 0) out[__builtin_amdgcn_workgroup_id_x()] = __builtin_sqrtf(tmp[0]) + (float)(int)tmp[1];
}
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void matmul(__global float *c, __global const float *a, __global const float *b, int n) {
  __local float ta[16][16], tb[16][16];
  int tx = __builtin_amdgcn_workitem_id_x(), ty = __builtin_amdgcn_workitem_id_y();
  int col = __builtin_amdgcn_workgroup_id_x() * 16 + tx;
  int row = __builtin_amdgcn_workgroup_id_y() * 16 + ty;
  float s = 0.0f;
  for (int k0 = 0; k0 < n; k0 += 16) {
    ta[ty][tx] = a[row * n + k0 + tx];
    tb[ty][tx] = b[(k0 + ty) * n + col];
    __builtin_amdgcn_s_barrier();
    for (int k = 0; k < 16; k++) s = __builtin_fmaf(ta[ty][k], tb[k][tx], s);
    __builtin_amdgcn_s_barrier();
  }
  c[row * n + col] = s;
}
__kernel void mixed(__global int *hist, __global const uchar *px, __global half *h,
                    __global double *d, __global long *q, int n) {
  int i = GID(0);
  __atomic_fetch_add(&hist[px[i]], 1, __ATOMIC_RELAXED);
  __atomic_fetch_max(&hist[256], i, __ATOMIC_RELAXED);
  h[i] = (half)((float)h[i] * 0.5f + 1.0f);
  d[i] = d[i] * 3.0 + (double)i;
  q[i] = (q[i] << 3) ^ (long)n / 7;
  int m = i * 3 - n;
  m = m > 100 ? 100 : m < -100 ? -100 : m;
  hist[i + 300] = m + __builtin_popcount(i) + __builtin_clz(n | 1) + (int)(((long)i * n) >> 32);
}
