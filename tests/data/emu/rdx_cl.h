/*
 * rdx_cl.h — the compatibility header of the emulator kernel corpus.
 *
 * One kernel source (tests/data/emu/kernels/NAME.cl) compiles two ways:
 *
 *   GPU:  clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -nogpulib
 *         There is no OpenCL builtin library (-nogpulib), so the work-item functions,
 *         barrier and atomics below are built from clang's __builtin_amdgcn_* and
 *         __atomic_* builtins.  The work-group size and grid come from the code object
 *         v5 hidden kernel arguments (hidden_block_count_*, hidden_group_size_*,
 *         hidden_remainder_*), read through __builtin_amdgcn_implicitarg_ptr().
 *
 *   Host: gcc -x c -std=gnu11 (RDX_CL_HOST defined by the including runner).
 *         Address-space qualifiers vanish, work-item IDs come from the runner's
 *         current-work-item state (rdx_cl_host.c runs the work-items of a group as
 *         coroutines and switches at barriers), atomics are __atomic builtins, and
 *         the __builtin_amdgcn_* math builtins map to libm evaluated in double (the
 *         exact reference the GPU's accuracy is measured against).
 *
 * Rules for kernel authors (see docs/emu-tests.md):
 *   - declare work-group (LDS) arrays with RDX_LDS, never with a bare __local;
 *   - keep helper functions `static`; one manifest entry per __kernel;
 *   - no undefined C behaviour: mask shift counts, no division by zero, no signed
 *     overflow, no out-of-range float->int conversions;
 *   - float atomics only where the result is order-independent (exact sums);
 *   - get_local_size()/get_global_size() follow OpenCL 2.0 (partial last group).
 */
#ifndef RDX_CL_H
#define RDX_CL_H

#ifdef __OPENCL_C_VERSION__
/* ---------------------------------------------------------------- GPU side */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define RDX_GPU 1
#define RDX_LDS __local

typedef half half2 __attribute__((ext_vector_type(2)));

/* Code object v5 hidden arguments (offsets from the implicit-argument pointer). */
#define RDX_CL_HIDDEN_BLOCK_COUNT 0 /* u32 x3: full work-groups per dimension */
#define RDX_CL_HIDDEN_GROUP_SIZE 12 /* u16 x3 */
#define RDX_CL_HIDDEN_REMAINDER 18  /* u16 x3: size of the partial last group, 0 if none */

static inline uint rdx_cl_hidden_u32(uint off)
{
    return *(__constant uint *)((__constant char *)__builtin_amdgcn_implicitarg_ptr() + off);
}
static inline uint rdx_cl_hidden_u16(uint off)
{
    return *(__constant ushort *)((__constant char *)__builtin_amdgcn_implicitarg_ptr() + off);
}

static inline uint get_local_id(uint d)
{
    return d == 0 ? __builtin_amdgcn_workitem_id_x()
                  : d == 1 ? __builtin_amdgcn_workitem_id_y()
                           : d == 2 ? __builtin_amdgcn_workitem_id_z() : 0;
}
static inline uint get_group_id(uint d)
{
    return d == 0 ? __builtin_amdgcn_workgroup_id_x()
                  : d == 1 ? __builtin_amdgcn_workgroup_id_y()
                           : d == 2 ? __builtin_amdgcn_workgroup_id_z() : 0;
}
static inline uint get_enqueued_local_size(uint d)
{
    return d < 3 ? rdx_cl_hidden_u16(RDX_CL_HIDDEN_GROUP_SIZE + 2 * d) : 1;
}
static inline uint get_num_groups(uint d)
{
    if (d >= 3)
        return 1;
    return rdx_cl_hidden_u32(RDX_CL_HIDDEN_BLOCK_COUNT + 4 * d) +
           (rdx_cl_hidden_u16(RDX_CL_HIDDEN_REMAINDER + 2 * d) != 0);
}
static inline uint get_local_size(uint d)
{
    if (d >= 3)
        return 1;
    return get_group_id(d) < rdx_cl_hidden_u32(RDX_CL_HIDDEN_BLOCK_COUNT + 4 * d)
               ? get_enqueued_local_size(d)
               : rdx_cl_hidden_u16(RDX_CL_HIDDEN_REMAINDER + 2 * d);
}
static inline uint get_global_size(uint d)
{
    if (d >= 3)
        return 1;
    return rdx_cl_hidden_u32(RDX_CL_HIDDEN_BLOCK_COUNT + 4 * d) * get_enqueued_local_size(d) +
           rdx_cl_hidden_u16(RDX_CL_HIDDEN_REMAINDER + 2 * d);
}
static inline uint get_global_id(uint d)
{
    return get_group_id(d) * get_enqueued_local_size(d) + get_local_id(d);
}
static inline uint get_local_linear_id(void)
{
    return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) +
           get_local_id(0);
}

/* Work-group barrier with the memory ordering OpenCL's barrier() gives.
 * (clang's opencl-c-base.h, included by default, defines the CLK_* flags.) */
#ifndef CLK_LOCAL_MEM_FENCE
#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2
#endif
static inline void barrier(int flags)
{
    (void)flags;
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

/* Atomics: type-generic, work on __global and __local pointers alike. */
#define atomic_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define atomic_sub(p, v) __atomic_fetch_sub((p), (v), __ATOMIC_RELAXED)
#define atomic_and(p, v) __atomic_fetch_and((p), (v), __ATOMIC_RELAXED)
#define atomic_or(p, v) __atomic_fetch_or((p), (v), __ATOMIC_RELAXED)
#define atomic_xor(p, v) __atomic_fetch_xor((p), (v), __ATOMIC_RELAXED)
#define atomic_min(p, v) __atomic_fetch_min((p), (v), __ATOMIC_RELAXED)
#define atomic_max(p, v) __atomic_fetch_max((p), (v), __ATOMIC_RELAXED)
#define atomic_xchg(p, v) __atomic_exchange_n((p), (v), __ATOMIC_RELAXED)
#define atomic_inc(p) __atomic_fetch_add((p), 1, __ATOMIC_RELAXED)
/* Returns the old value; stores v when *p == cmp.  (+*(p) drops the address
 * space from the type; the corpus uses 32/64-bit atomics only.) */
#define atomic_cmpxchg(p, cmp, v)                                                       \
    ({                                                                                  \
        __typeof__(+*(p)) rdx_cl_expected_ = (cmp);                                      \
        __atomic_compare_exchange_n((p), &rdx_cl_expected_, (v), 0, __ATOMIC_RELAXED,   \
                                    __ATOMIC_RELAXED);                                  \
        rdx_cl_expected_;                                                               \
    })

#else
/* --------------------------------------------------------------- host side */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define RDX_HOST 1
/* Work-group memory: one copy shared by the work-items of the running group
 * (the runner runs one work-group at a time). */
#define RDX_LDS static
#define __kernel
#define kernel
#define __global
#define global
#define __local
#define __constant const
#define __private
#define __read_only
#define __write_only

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef _Float16 half;
typedef _Float16 half2 __attribute__((vector_size(4)));
#ifndef __cplusplus
typedef _Bool bool;
#define true 1
#define false 0
#endif

/* The runner's view of the running work-item (defined in rdx_cl_host.c). */
typedef struct rdx_cl_item {
    uint local_id[3];
    uint group_id[3];
    uint local_size[3];    /* of this group: the remainder for a partial last group */
    uint enqueued_size[3]; /* the dispatch's work-group size */
    uint num_groups[3];
    uint global_size[3];
} rdx_cl_item;
extern rdx_cl_item rdx_cl_cur;
void rdx_cl_host_barrier(void);

static inline uint get_local_id(uint d) { return d < 3 ? rdx_cl_cur.local_id[d] : 0; }
static inline uint get_group_id(uint d) { return d < 3 ? rdx_cl_cur.group_id[d] : 0; }
static inline uint get_local_size(uint d) { return d < 3 ? rdx_cl_cur.local_size[d] : 1; }
static inline uint get_enqueued_local_size(uint d)
{
    return d < 3 ? rdx_cl_cur.enqueued_size[d] : 1;
}
static inline uint get_num_groups(uint d) { return d < 3 ? rdx_cl_cur.num_groups[d] : 1; }
static inline uint get_global_size(uint d) { return d < 3 ? rdx_cl_cur.global_size[d] : 1; }
static inline uint get_global_id(uint d)
{
    return d < 3 ? rdx_cl_cur.group_id[d] * rdx_cl_cur.enqueued_size[d] + rdx_cl_cur.local_id[d]
                 : 0;
}
static inline uint get_local_linear_id(void)
{
    return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) +
           get_local_id(0);
}

#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2
#define barrier(flags) ((void)(flags), rdx_cl_host_barrier())

/* One work-item runs at a time, so plain __atomic builtins are exact. */
#define atomic_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define atomic_sub(p, v) __atomic_fetch_sub((p), (v), __ATOMIC_RELAXED)
#define atomic_and(p, v) __atomic_fetch_and((p), (v), __ATOMIC_RELAXED)
#define atomic_or(p, v) __atomic_fetch_or((p), (v), __ATOMIC_RELAXED)
#define atomic_xor(p, v) __atomic_fetch_xor((p), (v), __ATOMIC_RELAXED)
#define atomic_min(p, v)                                                                \
    ({                                                                                  \
        __typeof__(*(p)) rdx_cl_old_ = *(p), rdx_cl_v_ = (v);                           \
        if (rdx_cl_v_ < rdx_cl_old_)                                                    \
            *(p) = rdx_cl_v_;                                                           \
        rdx_cl_old_;                                                                    \
    })
#define atomic_max(p, v)                                                                \
    ({                                                                                  \
        __typeof__(*(p)) rdx_cl_old_ = *(p), rdx_cl_v_ = (v);                           \
        if (rdx_cl_v_ > rdx_cl_old_)                                                    \
            *(p) = rdx_cl_v_;                                                           \
        rdx_cl_old_;                                                                    \
    })
#define atomic_xchg(p, v) __atomic_exchange_n((p), (v), __ATOMIC_RELAXED)
#define atomic_inc(p) __atomic_fetch_add((p), 1, __ATOMIC_RELAXED)
#define atomic_cmpxchg(p, cmp, v)                                                       \
    ({                                                                                  \
        __typeof__(*(p)) rdx_cl_expected_ = (cmp);                                      \
        __atomic_compare_exchange_n((p), &rdx_cl_expected_, (v), 0, __ATOMIC_RELAXED,   \
                                    __ATOMIC_RELAXED);                                  \
        rdx_cl_expected_;                                                               \
    })
/* Float atomic add (order-independent only for exact sums): a plain add here. */
#define rdx_cl_atomic_add_f32(p, v) ((void)(*(p) += (v)))

/* The AMDGPU builtins the corpus uses, as exact references (libm in double).
 * The hardware instruction behind each is noted; its accuracy is the manifest's
 * tolerance, not this function's. */
static inline float rdx_cl_exp2f(float x) { return (float)exp2((double)x); }     /* v_exp_f32 */
static inline float rdx_cl_log2f(float x) { return (float)log2((double)x); }     /* v_log_f32 */
static inline float rdx_cl_rcpf(float x) { return (float)(1.0 / (double)x); }    /* v_rcp_f32 */
static inline float rdx_cl_rsqf(float x) { return (float)(1.0 / sqrt((double)x)); } /* v_rsq_f32 */
static inline float rdx_cl_sqrtf(float x) { return sqrtf(x); }                   /* v_sqrt_f32 */
/* v_sin_f32 / v_cos_f32 take their argument in turns: sin(2*pi*x). */
static inline float rdx_cl_sinf(float x)
{
    return (float)sin(2.0 * 3.14159265358979323846 * (double)x);
}
static inline float rdx_cl_cosf(float x)
{
    return (float)cos(2.0 * 3.14159265358979323846 * (double)x);
}
static inline float rdx_cl_fractf(float x) { return x - floorf(x); } /* v_fract_f32 */
static inline float rdx_cl_ldexpf(float x, int e) { return ldexpf(x, e); }
#define __builtin_amdgcn_exp2f(x) rdx_cl_exp2f(x)
#define __builtin_amdgcn_logf(x) rdx_cl_log2f(x)
#define __builtin_amdgcn_rcpf(x) rdx_cl_rcpf(x)
#define __builtin_amdgcn_rsqf(x) rdx_cl_rsqf(x)
#define __builtin_amdgcn_sqrtf(x) rdx_cl_sqrtf(x)
#define __builtin_amdgcn_sinf(x) rdx_cl_sinf(x)
#define __builtin_amdgcn_cosf(x) rdx_cl_cosf(x)
#define __builtin_amdgcn_fractf(x) rdx_cl_fractf(x)
#define __builtin_amdgcn_ldexpf(x, e) rdx_cl_ldexpf((x), (e))
#endif

#ifdef RDX_GPU
#define rdx_cl_atomic_add_f32(p, v) ((void)__atomic_fetch_add((p), (v), __ATOMIC_RELAXED))
#endif

/* Bit casts (through a union: valid in both OpenCL C and C). */
static inline float rdx_as_float(uint u)
{
    union {
        uint u;
        float f;
    } c = { u };
    return c.f;
}
static inline uint rdx_as_uint(float f)
{
    union {
        float f;
        uint u;
    } c = { f };
    return c.u;
}

#endif /* RDX_CL_H */
