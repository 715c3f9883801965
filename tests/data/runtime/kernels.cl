/* tests/data/runtime/kernels.cl — small kernels of the runtime suite (compiled by
 * clang-19 for gfx1100 at test time). */
#include <rdx/opencl.h> /* the installed header: no ROCm */

__kernel void empty(void)
{
}

/* p[i] += 1 for i < n: chains of dependent dispatches. */
__kernel void add_one(__global int *p, int n)
{
    int i = (int)get_global_id(0);
    if (i < n)
        p[i] += 1;
}

/* out[y * gx + x] = x | y << 16 | gx << 8 (gx from the hidden arguments):
 * the grid and hidden-argument layout, partial groups included.  Compiled for
 * workgroups of up to 1024 work-items (OpenCL's default is 256, and the runtime
 * refuses a workgroup larger than the code object's .max_flat_workgroup_size). */
__attribute__((amdgpu_flat_work_group_size(1, 1024))) __kernel void ids(__global uint *out)
{
    uint x = (uint)get_global_id(0), y = (uint)get_global_id(1);
    uint gx = (uint)get_global_size(0);
    out[y * gx + x] = x | y << 16 | (uint)get_local_size(0) << 24 | (uint)get_num_groups(0) << 12;
}

/* Write one int at p[off]: a VM fault when p + off is not mapped. */
__kernel void poke(__global int *p, long off)
{
    if (get_global_id(0) == 0)
        p[off] = 42;
}

/* Mixed argument kinds: sizes and alignments from the metadata. */
__kernel void mixed(__global double *out, char c, double d, short s, long l, float f)
{
    if (get_global_id(0) == 0) {
        out[0] = (double)c;
        out[1] = d;
        out[2] = (double)s;
        out[3] = (double)l;
        out[4] = (double)f;
    }
}

/* Dynamic LDS through a __local pointer argument. */
__kernel void lds_reverse(__global int *p, __local int *tmp)
{
    int l = (int)get_local_id(0), n = (int)get_local_size(0), g = (int)get_group_id(0);
    tmp[l] = p[g * n + l];
    barrier(CLK_LOCAL_MEM_FENCE);
    p[g * n + l] = tmp[n - 1 - l];
}

/* out[0] = p[off] read by every work-item at one address: a scalar (SMEM)
 * load, since p is read-only and not aliased. */
__kernel void peek_uniform(__global const int *restrict p, long off, __global int *restrict out)
{
    int v = p[off];
    if (get_global_id(0) == 0)
        out[0] = v;
}
