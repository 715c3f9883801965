/*
 * Test kernels for tests/codeobj: compiled at test time by clang-19
 * (-x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -nogpulib), read by rdx and
 * compared with llvm-readelf / llvm-objdump.  Each kernel exercises different
 * descriptor fields and metadata entries.  No device library is linked, so
 * only __builtin_amdgcn_* intrinsics are used for work-item ids.
 */

/* Work-group id x, kernarg pointer, a const pointer argument. */
__kernel void add(__global float *a, __global const float *b, int n)
{
    int i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    if (i < n)
        a[i] += b[i];
}

/* Static and dynamic LDS, work-item ids x/y/z, work-group ids y/z. */
__kernel void lds(__global int *out, __local int *tmp, float f, long l)
{
    __local int buf[64];
    int i = __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workitem_id_y() +
            __builtin_amdgcn_workitem_id_z();
    buf[i & 63] = i;
    tmp[i] = (int)f;
    __builtin_amdgcn_s_barrier();
    out[__builtin_amdgcn_workgroup_id_y() + __builtin_amdgcn_workgroup_id_z()] =
        buf[63 - (i & 63)] + tmp[i] + (int)l;
}

/* Scratch: a private array indexed dynamically. */
__kernel void scratch(__global int *out, int k)
{
    int priv[97];
    for (int j = 0; j < 97; j++)
        priv[j] = j * k;
    out[0] = priv[(k * 7) % 97] + priv[k % 97];
}

typedef struct pair {
    int a;
    float b;
} pair;

/* Many argument kinds; a required work-group size; dispatch pointer. */
__kernel __attribute__((reqd_work_group_size(64, 2, 1))) void
args(__global volatile char *c, __constant short *s, __global int *restrict r, double d,
     pair p, uchar u, __global const ulong *q)
{
    __constant unsigned *dp = (__constant unsigned *)__builtin_amdgcn_dispatch_ptr();
    c[0] = (char)(d + p.b + u + s[0]);
    r[0] = p.a + (int)q[0] + (int)dp[1];
}

/* Hidden arguments (implicit kernarg pointer) and many live VGPRs. */
__kernel void wide(__global float4 *out, __global const float4 *in)
{
    __constant int *imp = (__constant int *)__builtin_amdgcn_implicitarg_ptr();
    int i = __builtin_amdgcn_workitem_id_x();
    float4 v[24];
#pragma unroll
    for (int j = 0; j < 24; j++)
        v[j] = in[i * 24 + j];
    float4 acc = (float4)(0.0f);
#pragma unroll
    for (int j = 0; j < 24; j++)
        acc += v[j] * v[23 - j] + (float)imp[j & 3];
#pragma unroll
    for (int j = 0; j < 24; j++)
        out[i * 24 + j] = v[j] * acc;
}
