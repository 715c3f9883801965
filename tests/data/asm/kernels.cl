// OpenCL kernels compiled by clang-19 for tests/asm: rdx dis of the object
// must print what llvm-objdump -d prints, instruction for instruction.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void saxpy(__global float *y, __global const float *x, float a, int n) {
  int i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
__kernel void reduce(__global float *out, __global const float *in, __local float *tmp) {
  int l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = sqrt(tmp[0]) + (float)(int)tmp[1];
}
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void matmul(__global float *c, __global const float *a, __global const float *b, int n) {
  __local float ta[16][16], tb[16][16];
  int tx = get_local_id(0), ty = get_local_id(1);
  int col = get_group_id(0) * 16 + tx, row = get_group_id(1) * 16 + ty;
  float s = 0.0f;
  for (int k0 = 0; k0 < n; k0 += 16) {
    ta[ty][tx] = a[row * n + k0 + tx];
    tb[ty][tx] = b[(k0 + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 16; k++) s = fma(ta[ty][k], tb[k][tx], s);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = s;
}
__kernel void mixed(__global int *hist, __global const uchar *px, __global half *h,
                    __global double *d, __global long *q, int n) {
  int i = get_global_id(0);
  atomic_add(&hist[px[i]], 1);
  atomic_max(&hist[256], i);
  h[i] = (half)((float)h[i] * 0.5f + 1.0f);
  d[i] = d[i] * 3.0 + (double)i;
  q[i] = (q[i] << 3) ^ (long)n / 7;
  hist[i + 300] = max(min(i * 3 - n, 100), -100) + popcount(i) + clz(n) + mul_hi(i, n);
}
