/* tests/data/bench/layernorm.cl — layernorm over the last axis (no weight/bias, eps 1e-5)
 * of a rows x cols f32 matrix: one 256-lane workgroup per row, LDS tree reductions for the
 * mean and the variance. */
#define BARRIER()                                              \
    do {                                                       \
        __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup"); \
        __builtin_amdgcn_s_barrier();                          \
        __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup"); \
    } while (0)

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void layernorm(__global float *out, __global const float *in, int cols)
{
    __local float t[256];
    int l = __builtin_amdgcn_workitem_id_x();
    __global const float *x = in + __builtin_amdgcn_workgroup_id_x() * cols;
    __global float *y = out + __builtin_amdgcn_workgroup_id_x() * cols;
    float s = 0.0f;
    for (int i = l; i < cols; i += 256)
        s += x[i];
    t[l] = s;
    BARRIER();
    for (int w = 128; w > 0; w >>= 1) {
        if (l < w)
            t[l] += t[l + w];
        BARRIER();
    }
    float mean = t[0] / (float)cols;
    BARRIER();
    float v = 0.0f;
    for (int i = l; i < cols; i += 256) {
        float d = x[i] - mean;
        v += d * d;
    }
    t[l] = v;
    BARRIER();
    for (int w = 128; w > 0; w >>= 1) {
        if (l < w)
            t[l] += t[l + w];
        BARRIER();
    }
    float r = 1.0f / __builtin_sqrtf(t[0] / (float)cols + 1e-5f);
    for (int i = l; i < cols; i += 256)
        y[i] = (x[i] - mean) * r;
}
