/*
 * rdx/opencl.h — OpenCL C kernels for AMD GPUs built without ROCm.
 *
 * clang's OpenCL for amdgcn takes the work-item functions (get_global_id,
 * barrier, ...) from ROCm's device libraries.  Without them (-nogpulib) this
 * header defines them from clang builtins, so a kernel needs nothing but
 * clang and lld:
 *
 *   clang-19 -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=gfx1100 \
 *            -nogpulib -O2 -I<prefix>/include -include rdx/opencl.h -c k.cl -o k.o
 *   ld.lld-19 -shared k.o -o k.co
 *   rdx run k.co --grid ... --block ... --arg ...
 *
 * (or `#include <rdx/opencl.h>` at the top of k.cl instead of -include).
 *
 * Where the values come from (AMDGPUUsage, "Code Object V5 Metadata" and
 * "Initial Kernel Execution State"): work-item IDs from the VGPRs the
 * hardware loads (__builtin_amdgcn_workitem_id_*), work-group IDs from
 * SGPRs (__builtin_amdgcn_workgroup_id_*), sizes from the code object v5
 * hidden kernel arguments behind the implicit-argument pointer, which rdx's
 * runtime fills (hidden_block_count_*, hidden_group_size_*,
 * hidden_remainder_*, hidden_global_offset_*, hidden_grid_dims).
 * get_local_size / get_global_size follow OpenCL 2.0: the last work-group of
 * a dimension may be partial (a launch given in work-items).
 *
 * Provided: get_work_dim, get_global_size, get_global_id, get_local_size,
 * get_enqueued_local_size, get_local_id, get_num_groups, get_group_id,
 * get_global_offset, get_global_linear_id, get_local_linear_id, barrier,
 * work_group_barrier, mem_fence, read_mem_fence, write_mem_fence, and the
 * OpenCL 1.x 32/64-bit integer atomics (atomic_add ... atomic_cmpxchg, on
 * __global and __local pointers, relaxed, device scope).  Not provided: the
 * math library (sqrt, exp, ...; use clang's __builtin_sqrtf, __builtin_fmaf,
 * __builtin_amdgcn_exp2f, ...), OpenCL 2.0 C11-style atomics, images,
 * printf.
 *
 * Outside an OpenCL C compile for amdgcn (a C or C++ compiler reading it)
 * the header declares nothing.
 */
#ifndef RDX_OPENCL_H
#define RDX_OPENCL_H

#if defined(__OPENCL_C_VERSION__) && defined(__AMDGCN__)

#define RDX_OPENCL_FN static inline __attribute__((always_inline))

/* Byte offsets of the code object v5 hidden arguments from the implicit-argument pointer. */
#define RDX_OPENCL_HIDDEN_BLOCK_COUNT   0  /* u32 x3: full work-groups per dimension */
#define RDX_OPENCL_HIDDEN_GROUP_SIZE    12 /* u16 x3: the launch's work-group size */
#define RDX_OPENCL_HIDDEN_REMAINDER     18 /* u16 x3: the partial last group, 0 if none */
#define RDX_OPENCL_HIDDEN_GLOBAL_OFFSET 40 /* u64 x3 */
#define RDX_OPENCL_HIDDEN_GRID_DIMS     64 /* u16: 1, 2 or 3 */

RDX_OPENCL_FN uint rdx_opencl_hidden_u16(uint offset)
{
    return *(__constant ushort *)((__constant char *)__builtin_amdgcn_implicitarg_ptr() + offset);
}

RDX_OPENCL_FN uint rdx_opencl_hidden_u32(uint offset)
{
    return *(__constant uint *)((__constant char *)__builtin_amdgcn_implicitarg_ptr() + offset);
}

RDX_OPENCL_FN ulong rdx_opencl_hidden_u64(uint offset)
{
    return *(__constant ulong *)((__constant char *)__builtin_amdgcn_implicitarg_ptr() + offset);
}

RDX_OPENCL_FN uint get_work_dim(void)
{
    return rdx_opencl_hidden_u16(RDX_OPENCL_HIDDEN_GRID_DIMS);
}

RDX_OPENCL_FN size_t get_local_id(uint dim)
{
    switch (dim) {
    case 0:
        return __builtin_amdgcn_workitem_id_x();
    case 1:
        return __builtin_amdgcn_workitem_id_y();
    case 2:
        return __builtin_amdgcn_workitem_id_z();
    default:
        return 0;
    }
}

RDX_OPENCL_FN size_t get_group_id(uint dim)
{
    switch (dim) {
    case 0:
        return __builtin_amdgcn_workgroup_id_x();
    case 1:
        return __builtin_amdgcn_workgroup_id_y();
    case 2:
        return __builtin_amdgcn_workgroup_id_z();
    default:
        return 0;
    }
}

RDX_OPENCL_FN size_t get_enqueued_local_size(uint dim)
{
    return dim < 3 ? rdx_opencl_hidden_u16(RDX_OPENCL_HIDDEN_GROUP_SIZE + 2 * dim) : 1;
}

RDX_OPENCL_FN size_t get_num_groups(uint dim)
{
    if (dim >= 3)
        return 1;
    return (size_t)rdx_opencl_hidden_u32(RDX_OPENCL_HIDDEN_BLOCK_COUNT + 4 * dim) +
           (rdx_opencl_hidden_u16(RDX_OPENCL_HIDDEN_REMAINDER + 2 * dim) != 0);
}

RDX_OPENCL_FN size_t get_local_size(uint dim)
{
    if (dim >= 3)
        return 1;
    return get_group_id(dim) < rdx_opencl_hidden_u32(RDX_OPENCL_HIDDEN_BLOCK_COUNT + 4 * dim)
               ? get_enqueued_local_size(dim)
               : rdx_opencl_hidden_u16(RDX_OPENCL_HIDDEN_REMAINDER + 2 * dim);
}

RDX_OPENCL_FN size_t get_global_size(uint dim)
{
    if (dim >= 3)
        return 1;
    return (size_t)rdx_opencl_hidden_u32(RDX_OPENCL_HIDDEN_BLOCK_COUNT + 4 * dim) *
               get_enqueued_local_size(dim) +
           rdx_opencl_hidden_u16(RDX_OPENCL_HIDDEN_REMAINDER + 2 * dim);
}

RDX_OPENCL_FN size_t get_global_offset(uint dim)
{
    return dim < 3 ? rdx_opencl_hidden_u64(RDX_OPENCL_HIDDEN_GLOBAL_OFFSET + 8 * dim) : 0;
}

RDX_OPENCL_FN size_t get_global_id(uint dim)
{
    if (dim >= 3)
        return 0;
    return get_group_id(dim) * get_enqueued_local_size(dim) + get_local_id(dim) +
           get_global_offset(dim);
}

RDX_OPENCL_FN size_t get_global_linear_id(void)
{
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    size_t z = get_global_id(2) - get_global_offset(2);
    return (z * get_global_size(1) + y) * get_global_size(0) + x;
}

RDX_OPENCL_FN size_t get_local_linear_id(void)
{
    return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) +
           get_local_id(0);
}

/* Fences and barriers.  clang's default OpenCL header (opencl-c-base.h)
 * defines the CLK_* flags; the fallbacks are its values. */
#ifndef CLK_LOCAL_MEM_FENCE
#define CLK_LOCAL_MEM_FENCE  0x01
#define CLK_GLOBAL_MEM_FENCE 0x02
#endif

/* Work-group scope covers __local memory and the work-group's view of
 * __global memory; a fence over global memory is made at device ("agent")
 * scope so other work-groups see the writes. */
RDX_OPENCL_FN void mem_fence(cl_mem_fence_flags flags)
{
    if (flags & CLK_GLOBAL_MEM_FENCE)
        __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
    else
        __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
}

RDX_OPENCL_FN void read_mem_fence(cl_mem_fence_flags flags)
{
    if (flags & CLK_GLOBAL_MEM_FENCE)
        __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");
    else
        __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

RDX_OPENCL_FN void write_mem_fence(cl_mem_fence_flags flags)
{
    if (flags & CLK_GLOBAL_MEM_FENCE)
        __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
    else
        __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
}

/* Every work-item of the work-group waits here; memory named by `flags` that
 * a work-item wrote before is visible to the others after. */
RDX_OPENCL_FN void barrier(cl_mem_fence_flags flags)
{
    (void)flags;
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

RDX_OPENCL_FN void work_group_barrier(cl_mem_fence_flags flags)
{
    barrier(flags);
}

/* OpenCL 1.x atomics: return the old value.  Type-generic (32- and 64-bit
 * integers, __global or __local), relaxed ordering at device scope. */
#define RDX_OPENCL_ATOMIC(op, p, v) __hip_atomic_##op((p), (v), __ATOMIC_RELAXED, 4 /* agent */)
#define atomic_add(p, v)            RDX_OPENCL_ATOMIC(fetch_add, p, v)
#define atomic_sub(p, v)            RDX_OPENCL_ATOMIC(fetch_sub, p, v)
#define atomic_and(p, v)            RDX_OPENCL_ATOMIC(fetch_and, p, v)
#define atomic_or(p, v)             RDX_OPENCL_ATOMIC(fetch_or, p, v)
#define atomic_xor(p, v)            RDX_OPENCL_ATOMIC(fetch_xor, p, v)
#define atomic_min(p, v)            RDX_OPENCL_ATOMIC(fetch_min, p, v)
#define atomic_max(p, v)            RDX_OPENCL_ATOMIC(fetch_max, p, v)
#define atomic_xchg(p, v)           RDX_OPENCL_ATOMIC(exchange, p, v)
#define atomic_inc(p)               atomic_add((p), 1)
#define atomic_dec(p)               atomic_sub((p), 1)
/* Stores v when *p == cmp; returns the old value. */
#define atomic_cmpxchg(p, cmp, v)                                                          \
    ({                                                                                     \
        __typeof__(+*(p)) rdx_opencl_old_ = (cmp);                                         \
        __hip_atomic_compare_exchange_strong((p), &rdx_opencl_old_, (v), __ATOMIC_RELAXED, \
                                             __ATOMIC_RELAXED, 4 /* agent */);             \
        rdx_opencl_old_;                                                                   \
    })

#endif /* __OPENCL_C_VERSION__ && __AMDGCN__ */

#endif /* RDX_OPENCL_H */
