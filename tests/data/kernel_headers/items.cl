/* tests/data/kernel_headers/items.cl — every work-item function of
 * rdx/opencl.h, a barrier over __local memory and the atomics, built with
 * the header and no ROCm (tests/kernel_headers compares with the host). */

#define REC 18 /* uints per work-item */

/* rec[REC * (y * global_size(0) + x)]: what the work-item sees. */
__kernel void items(__global uint *rec)
{
    size_t x = get_global_id(0), y = get_global_id(1);
    __global uint *r = rec + REC * (y * get_global_size(0) + x);
    r[0] = (uint)x;
    r[1] = (uint)y;
    r[2] = (uint)get_local_id(0);
    r[3] = (uint)get_local_id(1);
    r[4] = (uint)get_group_id(0);
    r[5] = (uint)get_group_id(1);
    r[6] = (uint)get_local_size(0);
    r[7] = (uint)get_local_size(1);
    r[8] = (uint)get_enqueued_local_size(0);
    r[9] = (uint)get_enqueued_local_size(1);
    r[10] = (uint)get_num_groups(0);
    r[11] = (uint)get_num_groups(1);
    r[12] = (uint)get_global_size(0);
    r[13] = (uint)get_global_size(1);
    r[14] = get_work_dim();
    r[15] = (uint)get_global_linear_id();
    r[16] = (uint)get_local_linear_id();
    /* dimension 2 of a 2-D launch, an out-of-range dimension, the offset */
    r[17] = (uint)(get_local_size(2) == 1 && get_num_groups(2) == 1 && get_global_id(2) == 0 &&
                   get_local_size(3) == 1 && get_global_id(3) == 0 && get_group_id(7) == 0 &&
                   get_global_offset(0) == 0);
}

/* Each work-group reverses its slice of in[] through __local memory (a
 * partial last group its shorter slice). */
__kernel void reverse(__global const int *in, __global int *out)
{
    __local int tile[256];
    size_t l = get_local_id(0), n = get_local_size(0);
    size_t base = get_group_id(0) * get_enqueued_local_size(0);
    tile[l] = in[base + l];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[base + l] = tile[n - 1 - l];
}

/* c[0] counts work-items, c[1] = max id, c[2] = min id, c[3] xor of ids,
 * c[4] set once by cmpxchg, c64[0] counts in 64 bits, c[5] the work-items
 * whose cmpxchg won (exactly one). */
__kernel void atomics(__global uint *c, __global ulong *c64)
{
    uint id = (uint)get_global_id(0);
    atomic_inc(c);
    atomic_max(c + 1, id);
    atomic_min(c + 2, id);
    atomic_xor(c + 3, id);
    if (atomic_cmpxchg(c + 4, 0u, id + 1) == 0u)
        atomic_add(c + 5, 1u);
    atomic_add(c64, (ulong)1);
}
