/* tests/data/bench/sum.cl — sum of n floats: grid-stride partial sums, then an LDS tree
 * per workgroup writing one partial per group (run twice: n -> groups -> 1). */
#define BARRIER()                                          \
    do {                                                   \
        __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup"); \
        __builtin_amdgcn_s_barrier();                      \
        __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup"); \
    } while (0)
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void sum(__global float *out, __global const float *in, int n, int nthreads)
{
    __local float t[256];
    int l = __builtin_amdgcn_workitem_id_x();
    int g = __builtin_amdgcn_workgroup_id_x();
    float s = 0.0f;
    for (int i = g * 256 + l; i < n; i += nthreads)
        s += in[i];
    t[l] = s;
    BARRIER();
    for (int w = 128; w > 0; w >>= 1) {
        if (l < w)
            t[l] += t[l + w];
        BARRIER();
    }
    if (l == 0)
        out[g] = t[0];
}
