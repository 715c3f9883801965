/*
 * rdx/hip.h — HIP kernels for AMD GPUs built without ROCm.
 *
 * clang compiles HIP device code with no HIP installation when told not to
 * look for one (-nogpulib -nogpuinc); what the HIP headers would give a
 * kernel — __global__ and friends, threadIdx / blockIdx / blockDim /
 * gridDim, __syncthreads, atomicAdd ... — this header defines from clang
 * builtins:
 *
 *   clang-19 -x hip --cuda-device-only -nogpulib -nogpuinc --no-gpu-bundle-output \
 *            --offload-arch=gfx1100 -O2 -I<prefix>/include -include rdx/hip.h \
 *            -c k.hip -o k.o
 *   ld.lld-19 -shared k.o -o k.co
 *   rdx run k.co --kernel NAME --grid ... --block ... --arg ...
 *
 * Declare kernels `extern "C" __global__` so their symbol is NAME, not a
 * C++-mangled one.  threadIdx and blockIdx come from the work-item VGPRs and
 * work-group SGPRs (__builtin_amdgcn_workitem_id_*, _workgroup_id_*);
 * blockDim and gridDim from the code object v5 hidden kernel arguments
 * (hidden_group_size_*, hidden_block_count_*, hidden_remainder_*) that rdx's
 * runtime fills.  `rdx run --grid` counts blocks, `--block` threads per
 * block, as a HIP launch does.
 *
 * Provided: __global__, __device__, __host__, __shared__, __constant__,
 * __forceinline__, __noinline__, __launch_bounds__(n), threadIdx, blockIdx,
 * blockDim, gridDim (fields x, y, z, unsigned), warpSize, __syncthreads,
 * __threadfence, __threadfence_block, and atomicAdd / atomicSub / atomicMin /
 * atomicMax / atomicAnd / atomicOr / atomicXor / atomicExch / atomicCAS
 * (integers; atomicAdd also float, on global or shared memory; relaxed,
 * device scope).  Not provided: the HIP math library (use clang's
 * __builtin_sqrtf, __builtin_fmaf, ...), host-side HIP API, printf.
 *
 * Outside a HIP device compile (a C or C++ compiler reading it), or when the
 * real HIP headers are in use, the header declares nothing.
 */
#ifndef RDX_HIP_H
#define RDX_HIP_H

#if defined(__HIP__) && defined(__HIP_DEVICE_COMPILE__) && defined(__AMDGCN__) && \
    !defined(__HIP_PLATFORM_AMD__) && !defined(HIP_INCLUDE_HIP_HIP_RUNTIME_H)

#define __global__           __attribute__((global))
#define __device__           __attribute__((device))
#define __host__             __attribute__((host))
#define __shared__           __attribute__((shared))
#define __constant__         __attribute__((constant))
#define __forceinline__      inline __attribute__((always_inline))
#define __noinline__         __attribute__((noinline))
#define __launch_bounds__(n) __attribute__((amdgpu_flat_work_group_size(1, (n))))

#define RDX_HIP_FN static __device__ __forceinline__

/* One of threadIdx, blockIdx, blockDim, gridDim: read as `.x`, `.y`, `.z`. */
struct rdx_hip_uint3 {
    unsigned int x, y, z;
};

/* Byte offsets of the code object v5 hidden arguments from the implicit-argument pointer. */
#define RDX_HIP_HIDDEN_BLOCK_COUNT 0  /* u32 x3: full blocks per dimension */
#define RDX_HIP_HIDDEN_GROUP_SIZE  12 /* u16 x3: the launch's block size */
#define RDX_HIP_HIDDEN_REMAINDER   18 /* u16 x3: threads of a partial last block, 0 if none */

RDX_HIP_FN unsigned int rdx_hip_hidden_u16(unsigned int offset)
{
    return *(const unsigned short *)((const char *)__builtin_amdgcn_implicitarg_ptr() + offset);
}

RDX_HIP_FN unsigned int rdx_hip_hidden_u32(unsigned int offset)
{
    return *(const unsigned int *)((const char *)__builtin_amdgcn_implicitarg_ptr() + offset);
}

RDX_HIP_FN rdx_hip_uint3 rdx_hip_thread_idx()
{
    return { __builtin_amdgcn_workitem_id_x(), __builtin_amdgcn_workitem_id_y(),
             __builtin_amdgcn_workitem_id_z() };
}

RDX_HIP_FN rdx_hip_uint3 rdx_hip_block_idx()
{
    return { __builtin_amdgcn_workgroup_id_x(), __builtin_amdgcn_workgroup_id_y(),
             __builtin_amdgcn_workgroup_id_z() };
}

RDX_HIP_FN rdx_hip_uint3 rdx_hip_block_dim()
{
    return { rdx_hip_hidden_u16(RDX_HIP_HIDDEN_GROUP_SIZE),
             rdx_hip_hidden_u16(RDX_HIP_HIDDEN_GROUP_SIZE + 2),
             rdx_hip_hidden_u16(RDX_HIP_HIDDEN_GROUP_SIZE + 4) };
}

RDX_HIP_FN unsigned int rdx_hip_grid_dim1(unsigned int d)
{
    return rdx_hip_hidden_u32(RDX_HIP_HIDDEN_BLOCK_COUNT + 4 * d) +
           (rdx_hip_hidden_u16(RDX_HIP_HIDDEN_REMAINDER + 2 * d) != 0);
}

RDX_HIP_FN rdx_hip_uint3 rdx_hip_grid_dim()
{
    return { rdx_hip_grid_dim1(0), rdx_hip_grid_dim1(1), rdx_hip_grid_dim1(2) };
}

/* Values, not variables: the unused fields cost nothing once optimised. */
#define threadIdx (rdx_hip_thread_idx())
#define blockIdx  (rdx_hip_block_idx())
#define blockDim  (rdx_hip_block_dim())
#define gridDim   (rdx_hip_grid_dim())
#define warpSize  __AMDGCN_WAVEFRONT_SIZE__

/* Every thread of the block waits; its earlier writes to shared and global
 * memory are visible to the block's other threads after. */
RDX_HIP_FN void __syncthreads()
{
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

RDX_HIP_FN void __threadfence()
{
    __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
}

RDX_HIP_FN void __threadfence_block()
{
    __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
}

/* Atomics: return the old value; relaxed, device ("agent") scope. */
#define RDX_HIP_ATOMIC(name, op)                                                    \
    template <typename T> RDX_HIP_FN T name(T *p, T v)                              \
    {                                                                               \
        return __hip_atomic_##op(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT); \
    }
RDX_HIP_ATOMIC(atomicAdd, fetch_add)
RDX_HIP_ATOMIC(atomicSub, fetch_sub)
RDX_HIP_ATOMIC(atomicMin, fetch_min)
RDX_HIP_ATOMIC(atomicMax, fetch_max)
RDX_HIP_ATOMIC(atomicAnd, fetch_and)
RDX_HIP_ATOMIC(atomicOr, fetch_or)
RDX_HIP_ATOMIC(atomicXor, fetch_xor)
RDX_HIP_ATOMIC(atomicExch, exchange)
#undef RDX_HIP_ATOMIC

/* Stores v when *p == cmp; returns the old value. */
template <typename T> RDX_HIP_FN T atomicCAS(T *p, T cmp, T v)
{
    __hip_atomic_compare_exchange_strong(p, &cmp, v, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                         __HIP_MEMORY_SCOPE_AGENT);
    return cmp;
}

#endif /* a HIP device compile without the HIP headers */

#endif /* RDX_HIP_H */
