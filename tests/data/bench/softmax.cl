/* tests/data/bench/softmax.cl — softmax over the last axis of a rows x cols f32 matrix:
 * one 256-lane workgroup per row, LDS tree reductions for the max and the sum. */
#define BARRIER()                                              \
    do {                                                       \
        __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup"); \
        __builtin_amdgcn_s_barrier();                          \
        __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup"); \
    } while (0)

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void softmax(__global float *out, __global const float *in, int cols)
{
    __local float t[256];
    int l = __builtin_amdgcn_workitem_id_x();
    __global const float *x = in + __builtin_amdgcn_workgroup_id_x() * cols;
    __global float *y = out + __builtin_amdgcn_workgroup_id_x() * cols;
    float m = -__builtin_inff();
    for (int i = l; i < cols; i += 256)
        m = __builtin_fmaxf(m, x[i]);
    t[l] = m;
    BARRIER();
    for (int w = 128; w > 0; w >>= 1) {
        if (l < w)
            t[l] = __builtin_fmaxf(t[l], t[l + w]);
        BARRIER();
    }
    m = t[0];
    BARRIER();
    float s = 0.0f;
    for (int i = l; i < cols; i += 256)
        s += __builtin_expf(x[i] - m);
    t[l] = s;
    BARRIER();
    for (int w = 128; w > 0; w >>= 1) {
        if (l < w)
            t[l] += t[l + w];
        BARRIER();
    }
    float r = 1.0f / t[0];
    for (int i = l; i < cols; i += 256)
        y[i] = __builtin_expf(x[i] - m) * r;
}
