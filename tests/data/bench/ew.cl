/* tests/data/bench/ew.cl — elementwise chain relu(x*y + x*0.5 + 1) (bench/kernels). */
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void ew(__global float *out, __global const float *x, __global const float *y, int n)
{
    int i = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
    if (i < n)
        out[i] = __builtin_fmaxf(x[i] * y[i] + x[i] * 0.5f + 1.0f, 0.0f);
}
