/*
 * tests/data/codeobj_oracle/kernels.cl — the clang-19 side of tests/codeobj_oracle:
 * for each rdx kernel of the suite (the .uop file of the same name, or the kernel
 * built in C for `wmma`), an OpenCL C kernel that uses the same hardware features:
 * the same arguments in the same order, workgroup size (reqd_work_group_size, as
 * rdx's launch shape is fixed), workgroup and work-item id dimensions, LDS bytes,
 * scratch or not, WMMA.  Compiled with
 *   clang -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -nogpulib -O2
 * Work-item functions come from clang's builtins (no OpenCL library).
 */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define LID(d)  __builtin_amdgcn_workitem_id_##d()
#define GID(d)  __builtin_amdgcn_workgroup_id_##d()
#define WG(n)   __attribute__((reqd_work_group_size(n, 1, 1)))

WG(32) __kernel void ew32(__global const float *a, __global const float *b, __global float *c)
{
    uint i = GID(x) * 32 + LID(x);
    c[i] = a[i] + b[i];
}

WG(256) __kernel void ew256(__global const float *a, __global const float *b, __global float *c)
{
    uint i = GID(x) * 256 + LID(x);
    c[i] = a[i] + b[i];
}

WG(1024) __kernel void ew1024(__global const float *a, __global const float *b, __global float *c)
{
    uint i = GID(x) * 1024 + LID(x);
    c[i] = a[i] + b[i];
}

/* a by-value float and a symbolic size (rdx: DEFINE_VAR n) */
WG(256) __kernel void saxpy(__global const float *x, __global float *y, float a, int n)
{
    int i = (int)(GID(x) * 256 + LID(x));
    if (i < n)
        y[i] = a * x[i] + y[i];
}

/* by-value arguments of every size: offsets and sizes of .args must agree */
WG(64) __kernel void byval(__global long *o, half h, char c, int x, long y, int n)
{
    int i = (int)LID(x);
    if (i < n)
        o[i] = (long)(int)h + c + x + y + i;
}

/* LDS: 64 floats, a barrier, one work-item sums them */
WG(64) __kernel void lds(__global const float *in, __global float *out)
{
    __local float s[64];
    uint l = LID(x), g = GID(x);
    s[l] = in[g * 64 + l];
    __builtin_amdgcn_s_barrier();
    if (l == 0) {
        float a = 0;
        for (int j = 0; j < 64; j++)
            a += s[j];
        out[g] = a;
    }
}

/* three workgroup and work-item id dimensions */
__attribute__((reqd_work_group_size(4, 4, 4))) __kernel void xyz(__global const float *in,
                                                                 __global float *out)
{
    uint g = (GID(z) * 2 + GID(y)) * 2 + GID(x);
    uint l = LID(z) * 16 + LID(y) * 4 + LID(x);
    out[g * 64 + l] = in[g * 64 + l] + 1.0f;
}

/* a private array indexed at run time: scratch (rdx: register spills) */
WG(256) __kernel void spill(__global const int *a, __global int *o)
{
    int v[300];
    uint i = GID(x) * 256 + LID(x);
    int s = 0;
    for (int k = 0; k < 300; k++) {
        v[k] = a[i * 300 + k];
        s += v[k];
    }
    int t = 0;
    for (int k = 0; k < 300; k++)
        t += v[(uint)(s + k) % 300u] ^ s;
    o[i] = t;
}

typedef half half16 __attribute__((ext_vector_type(16)));
typedef float float8 __attribute__((ext_vector_type(8)));

/* D = A x B + C, one 16x16x16 f16 WMMA on one wave */
WG(32) __kernel void wmma(__global const half *A, __global const half *B, __global const float *C,
                          __global float *D)
{
    uint l = LID(x), row = l % 16, h = l / 16;
    half16 a, b;
    for (int k = 0; k < 16; k++) {
        a[k] = A[row * 16 + k];
        b[k] = B[16 * k + row];
    }
    float8 c;
    for (int v = 0; v < 8; v++)
        c[v] = C[(2 * v + h) * 16 + row];
    float8 d = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(a, b, c);
    for (int v = 0; v < 8; v++)
        D[(2 * v + h) * 16 + row] = d[v];
}

/* 240 floats live at once at workgroup sizes 256, 768 and 1024: clang keeps the VGPRs
   within what a whole workgroup can allocate on one WGP (192 at 1024: 8 waves per
   SIMD32 of 1536 VGPRs in granules of 24) and spills the rest */
#define PRESSURE(name, wgs)                                                        \
    WG(wgs) __kernel void name(__global const float *a, __global float *o)         \
    {                                                                              \
        float v[240];                                                              \
        uint i = GID(x) * wgs + LID(x);                                            \
        for (int k = 0; k < 240; k++)                                              \
            v[k] = a[i * 240 + k];                                                 \
        float s = 0;                                                               \
        for (int k = 0; k < 240; k++)                                              \
            s += v[k];                                                             \
        float t = 0;                                                               \
        for (int k = 0; k < 240; k++)                                              \
            t += v[k] * s;                                                         \
        o[i] = t;                                                                  \
    }
PRESSURE(pressure256, 256)
PRESSURE(pressure768, 768)
PRESSURE(pressure1024, 1024)

/* GROUP_REDUCE (rowsum.uop with SPLIT(1,256,GROUP_REDUCE)): 256 work-items per row,
   partial sums combined through LDS by expand's log-step tree (256 -> 16 -> 4 partials in
   regions of 256, 16 and 4 floats: 1104 bytes; every lane reads the last 4) */
WG(256) __kernel void rowsum(__global float *out, __global const float *a)
{
    __local float part[256 + 16 + 4];
    uint l = LID(x), r = GID(x);
    float acc = 0;
    for (int j = 0; j < 4; j++)
        acc += a[r * 1024 + j * 256 + l];
    part[l] = acc;
    __builtin_amdgcn_s_barrier();
    float s = 0;
    for (int j = 0; j < 16; j++)
        s += part[(l % 16) * 16 + j];
    if (l < 16)
        part[256 + l] = s;
    __builtin_amdgcn_s_barrier();
    s = 0;
    for (int j = 0; j < 4; j++)
        s += part[256 + (l % 4) * 4 + j];
    if (l < 4)
        part[272 + l] = s;
    __builtin_amdgcn_s_barrier();
    if (l == 0)
        out[r] = part[272] + part[273] + part[274] + part[275];
}

/* the LDS OptOp (matmul.uop with 16 x 16 LOCAL tiles, UNROLL 8, LDS): A and B tiles of
   16 x 8 and 8 x 16 floats staged in LDS */
__attribute__((reqd_work_group_size(16, 16, 1))) __kernel void
matmul_lds(__global float *c, __global const float *a, __global const float *b)
{
    __local float as[16 * 8], bs[8 * 16];
    uint lx = LID(x), ly = LID(y), row = GID(y) * 16 + ly, col = GID(x) * 16 + lx;
    float acc = 0;
    for (int t = 0; t < 64; t += 8) {
        if (lx < 8)
            as[ly * 8 + lx] = a[row * 64 + t + lx];
        if (ly < 8)
            bs[ly * 16 + lx] = b[(t + ly) * 64 + col];
        __builtin_amdgcn_s_barrier();
        for (int k = 0; k < 8; k++)
            acc += as[ly * 8 + k] * bs[k * 16 + lx];
        __builtin_amdgcn_s_barrier();
    }
    c[row * 64 + col] = acc;
}

/* every user SGPR clang enables for a kernel reading them: the runtime must load them
   in AMDGPUUsage's order (dispatch packet, then kernarg segment) */
WG(64) __kernel void usersgprs(__global ulong *o)
{
    if (LID(x) == 0) {
        o[0] = (ulong)__builtin_amdgcn_dispatch_ptr();
        o[1] = (ulong)__builtin_amdgcn_kernarg_segment_ptr();
    }
}
