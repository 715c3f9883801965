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
 *   - get_local_size()/get_global_size() follow OpenCL 2.0 (partial last group);
 *   - wave builtins (ballot, readlane, DPP, permlane, bpermute) only in uniform
 *     control flow and in groups whose size is a multiple of the wave size.
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

static inline float rdx_as_float(uint u)
{
    return __builtin_astype(u, float);
}
static inline uint rdx_as_uint(float f)
{
    return __builtin_astype(f, uint);
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
/* the OpenCL vector types the WMMA builtins take */
typedef _Float16 half16 __attribute__((vector_size(32)));
typedef short short16 __attribute__((vector_size(32)));
typedef float float8 __attribute__((vector_size(32)));
typedef float float4 __attribute__((vector_size(16)));
typedef int int8 __attribute__((vector_size(32)));
typedef int int4 __attribute__((vector_size(16)));
#ifndef __cplusplus
typedef _Bool bool;
#define true 1
#define false 0
#endif

/* Bit casts (host: through a union; GPU: __builtin_astype). */
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

/* The runner's view of the running work-item (defined in rdx_cl_host.c). */
typedef struct rdx_cl_item {
    uint local_id[3];
    uint group_id[3];
    uint local_size[3];    /* of this group: the remainder for a partial last group */
    uint enqueued_size[3]; /* the dispatch's work-group size */
    uint num_groups[3];
    uint global_size[3];
    uint wave_size; /* 32 or 64, as the kernel is compiled */
    uint lane;      /* local linear id % wave_size */
} rdx_cl_item;
extern rdx_cl_item rdx_cl_cur;
void rdx_cl_host_barrier(void);
/* Deposit n <= RDX_CL_WAVE_SLOT bytes at v, wait until every work-item of the wave
 * has deposited its own, and return the wave's slots: lane l's bytes start at
 * element l * RDX_CL_WAVE_SLOT / 8 (valid until the next call). */
#define RDX_CL_WAVE_SLOT 128
const uint64_t *rdx_cl_host_wave_exchange(const void *v, size_t n);
/* A 64-bit value per lane: exchange it, return lane l's with RDX_CL_LANE(slots, l). */
static inline const uint64_t *rdx_cl_wave_u64(uint64_t v)
{
    return rdx_cl_host_wave_exchange(&v, sizeof v);
}
#define RDX_CL_LANE(slots, l) ((slots)[(size_t)(l) * (RDX_CL_WAVE_SLOT / 8)])

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

/* Integer and bit-field builtins: the ISA guide's pseudocode of each instruction. */
static inline uint rdx_cl_ubfe(uint x, uint off, uint w) /* v_bfe_u32 */
{
    return (x >> (off & 31)) & ((1u << (w & 31)) - 1u);
}
static inline int rdx_cl_sbfe(int x, uint off, uint w) /* v_bfe_i32 */
{
    w &= 31;
    if (w == 0)
        return 0;
    uint v = (uint)(x >> (off & 31)) & ((1u << w) - 1u);
    uint sign = 1u << (w - 1);
    return (int)((v ^ sign) - sign);
}
static inline uint rdx_cl_alignbit(uint hi, uint lo, uint s) /* v_alignbit_b32 */
{
    return (uint)((((ulong)hi << 32) | lo) >> (s & 31));
}
static inline uint rdx_cl_alignbyte(uint hi, uint lo, uint s) /* v_alignbyte_b32 */
{
    return (uint)((((ulong)hi << 32) | lo) >> ((s & 3) * 8));
}
static inline uint rdx_cl_lerp_u8(uint a, uint b, uint c) /* v_lerp_u8 */
{
    uint r = 0;
    for (int k = 0; k < 32; k += 8)
        r |= ((((a >> k) & 255u) + ((b >> k) & 255u) + ((c >> k) & 1u)) >> 1) << k;
    return r;
}
static inline uint rdx_cl_sad_u8(uint a, uint b, uint c, int masked) /* v_sad_u8 / v_msad_u8 */
{
    for (int k = 0; k < 32; k += 8) {
        uint x = (a >> k) & 255u, y = (b >> k) & 255u;
        if (!masked || y)
            c += x > y ? x - y : y - x;
    }
    return c;
}
static inline uint rdx_cl_perm_byte(ulong data, uint sel) /* v_perm_b32's BYTE_PERMUTE */
{
    if (sel >= 13)
        return 0xffu;
    if (sel == 12)
        return 0;
    if (sel >= 8)
        return ((data >> ((sel - 8) * 16 + 15)) & 1u) ? 0xffu : 0u;
    return (uint)(data >> (sel * 8)) & 255u;
}
static inline uint rdx_cl_perm(uint hi, uint lo, uint sel) /* v_perm_b32 */
{
    ulong data = ((ulong)hi << 32) | lo;
    uint r = 0;
    for (int k = 0; k < 32; k += 8)
        r |= rdx_cl_perm_byte(data, (sel >> k) & 255u) << k;
    return r;
}
static inline uint rdx_cl_udot4(uint a, uint b, uint c) /* v_dot4_u32_u8 */
{
    for (int k = 0; k < 32; k += 8)
        c += ((a >> k) & 255u) * ((b >> k) & 255u);
    return c;
}
static inline int rdx_cl_sudot4(int as, uint a, int bs, uint b, int c) /* v_dot4_i32_iu8 */
{
    uint acc = (uint)c;
    for (int k = 0; k < 32; k += 8) {
        int x = as ? (int)(signed char)(a >> k) : (int)((a >> k) & 255u);
        int y = bs ? (int)(signed char)(b >> k) : (int)((b >> k) & 255u);
        acc += (uint)(x * y);
    }
    return (int)acc;
}
#define __builtin_amdgcn_ubfe(x, o, w) rdx_cl_ubfe((x), (o), (w))
#define __builtin_amdgcn_sbfe(x, o, w) rdx_cl_sbfe((x), (o), (w))
#define __builtin_amdgcn_alignbit(a, b, c) rdx_cl_alignbit((a), (b), (c))
#define __builtin_amdgcn_alignbyte(a, b, c) rdx_cl_alignbyte((a), (b), (c))
#define __builtin_amdgcn_lerp(a, b, c) rdx_cl_lerp_u8((a), (b), (c))
#define __builtin_amdgcn_sad_u8(a, b, c) rdx_cl_sad_u8((a), (b), (c), 0)
#define __builtin_amdgcn_msad_u8(a, b, c) rdx_cl_sad_u8((a), (b), (c), 1)
#define __builtin_amdgcn_perm(a, b, c) rdx_cl_perm((a), (b), (c))
#define __builtin_amdgcn_udot4(a, b, c, clamp) rdx_cl_udot4((a), (b), (c))
#define __builtin_amdgcn_sudot4(as, a, bs, b, c, clamp)                                 \
    rdx_cl_sudot4((as), (uint)(a), (bs), (uint)(b), (c))

/* Float builtins (non-NaN inputs for med3). */
static inline float rdx_cl_fmed3f(float a, float b, float c) /* v_med3_f32 */
{
    float lo = a < b ? a : b, hi = a < b ? b : a;
    float m = hi < c ? hi : c;
    return lo > m ? lo : m;
}
static inline float rdx_cl_frexp_mantf(float x) /* v_frexp_mant_f32 */
{
    int e;
    return isinf(x) || isnan(x) ? x : frexpf(x, &e);
}
static inline int rdx_cl_frexp_expf(float x) /* v_frexp_exp_i32_f32 */
{
    int e = 0;
    if (!isinf(x) && !isnan(x))
        frexpf(x, &e);
    return e;
}
static inline bool rdx_cl_classf(float x, int mask) /* v_cmp_class_f32 */
{
    uint u = rdx_as_uint(x), e = (u >> 23) & 255u, m = u & 0x7fffffu, neg = u >> 31;
    int bit;
    if (e == 255 && m)
        bit = (m & 0x400000u) ? 1 : 0;
    else if (e == 255)
        bit = neg ? 2 : 9;
    else if (e)
        bit = neg ? 3 : 8;
    else if (m)
        bit = neg ? 4 : 7;
    else
        bit = neg ? 5 : 6;
    return ((uint)mask >> bit) & 1u;
}
/* f32 -> f16 bits, rounding toward zero (v_cvt_pk_rtz_f16_f32). */
static inline ushort rdx_cl_f16_rtz(float f)
{
    uint u = rdx_as_uint(f), sign = (u >> 16) & 0x8000u, e = (u >> 23) & 255u, m = u & 0x7fffffu;
    if (e == 255)
        return (ushort)(sign | 0x7c00u | (m ? 0x200u | (m >> 13) : 0));
    int x = (int)e - 127 + 15;
    if (x >= 31)
        return (ushort)(sign | 0x7bffu);
    if (x <= 0) {
        if (x < -10)
            return (ushort)sign;
        return (ushort)(sign | ((m | 0x800000u) >> (14 - x)));
    }
    return (ushort)(sign | ((uint)x << 10) | (m >> 13));
}
static inline half2 rdx_cl_cvt_pkrtz(float a, float b)
{
    union {
        ushort u[2];
        half2 h;
    } c = { { rdx_cl_f16_rtz(a), rdx_cl_f16_rtz(b) } };
    return c.h;
}
#define __builtin_amdgcn_fmed3f(a, b, c) rdx_cl_fmed3f((a), (b), (c))
#define __builtin_amdgcn_frexp_mantf(x) rdx_cl_frexp_mantf(x)
#define __builtin_amdgcn_frexp_expf(x) rdx_cl_frexp_expf(x)
#define __builtin_amdgcn_classf(x, m) rdx_cl_classf((x), (m))
#define __builtin_amdgcn_cvt_pkrtz(a, b) rdx_cl_cvt_pkrtz((a), (b))

/* Wave (cross-lane) builtins.  The whole wave must execute them together (uniform
 * control flow, group size a multiple of the wave size): the runner enforces it. */
static inline uint rdx_cl_mbcnt(uint mask, uint acc, int hi) /* v_mbcnt_lo/hi_u32_b32 */
{
    ulong below = (1ul << rdx_cl_cur.lane) - 1ul;
    uint m = hi ? (uint)(below >> 32) : (uint)below;
    return acc + (uint)__builtin_popcount(mask & m);
}
static inline ulong rdx_cl_ballot(bool p)
{
    const uint64_t *v = rdx_cl_wave_u64(p);
    ulong m = 0;
    for (uint l = 0; l < rdx_cl_cur.wave_size; l++)
        m |= RDX_CL_LANE(v, l) ? 1ul << l : 0;
    return m;
}
static inline int rdx_cl_readlane(int x, uint lane) /* v_readlane_b32 */
{
    return (int)RDX_CL_LANE(rdx_cl_wave_u64((uint)x), lane % rdx_cl_cur.wave_size);
}
static inline int rdx_cl_bpermute(int addr, int x) /* ds_bpermute_b32: lane (addr / 4) % 32 */
{
    const uint64_t *v = rdx_cl_wave_u64((uint)x);
    return (int)RDX_CL_LANE(v, ((uint)addr / 4u) % 32u);
}
static inline int rdx_cl_permlane16(int x, uint lo, uint hi, int cross) /* v_permlane(x)16_b32 */
{
    const uint64_t *v = rdx_cl_wave_u64((uint)x);
    uint lane = rdx_cl_cur.lane, row = lane / 16, i = lane % 16;
    ulong sel = ((ulong)hi << 32) | lo;
    uint src_row = cross ? row ^ 1u : row;
    return (int)RDX_CL_LANE(v, src_row * 16 + ((sel >> (i * 4)) & 15u));
}
/* DPP16 with row_mask = bank_mask = 0xf: the source lane, or -1 when out of the row. */
static inline int rdx_cl_dpp_source(uint ctrl, uint lane)
{
    uint base = lane & ~15u, i = lane & 15u;
    if (ctrl <= 0xff)
        return (int)((lane & ~3u) + ((ctrl >> ((lane & 3u) * 2)) & 3u)); /* quad_perm */
    if (ctrl >= 0x101 && ctrl <= 0x10f)
        return i + (ctrl & 15u) < 16 ? (int)(lane + (ctrl & 15u)) : -1; /* row_shl */
    if (ctrl >= 0x111 && ctrl <= 0x11f)
        return i >= (ctrl & 15u) ? (int)(lane - (ctrl & 15u)) : -1; /* row_shr */
    if (ctrl >= 0x121 && ctrl <= 0x12f)
        return (int)(base + ((i - (ctrl & 15u)) & 15u)); /* row_ror */
    if (ctrl == 0x140)
        return (int)(base + 15u - i); /* row_mirror */
    if (ctrl == 0x141)
        return (int)((lane & ~7u) + 7u - (lane & 7u)); /* row_half_mirror */
    if (ctrl >= 0x150 && ctrl <= 0x15f)
        return (int)(base + (ctrl & 15u)); /* row_share */
    if (ctrl >= 0x160 && ctrl <= 0x16f)
        return (int)(base + (i ^ (ctrl & 15u))); /* row_xmask */
    return -1;
}
static inline int rdx_cl_update_dpp(int old, int x, uint ctrl, bool bound_ctrl)
{
    const uint64_t *v = rdx_cl_wave_u64((uint)x);
    int src = rdx_cl_dpp_source(ctrl, rdx_cl_cur.lane);
    return src >= 0 ? (int)RDX_CL_LANE(v, src) : bound_ctrl ? 0 : old;
}
#define __builtin_amdgcn_wavefrontsize() rdx_cl_cur.wave_size
#define __builtin_amdgcn_mbcnt_lo(m, a) rdx_cl_mbcnt((m), (a), 0)
#define __builtin_amdgcn_mbcnt_hi(m, a) rdx_cl_mbcnt((m), (a), 1)
#define __builtin_amdgcn_ballot_w32(p) ((uint)rdx_cl_ballot(p))
#define __builtin_amdgcn_ballot_w64(p) rdx_cl_ballot(p)
#define __builtin_amdgcn_readfirstlane(x) rdx_cl_readlane((x), 0)
#define __builtin_amdgcn_readlane(x, l) rdx_cl_readlane((x), (l))
#define __builtin_amdgcn_ds_bpermute(a, x) rdx_cl_bpermute((a), (x))
#define __builtin_amdgcn_permlane16(old, x, lo, hi, fi, bc) rdx_cl_permlane16((x), (lo), (hi), 0)
#define __builtin_amdgcn_permlanex16(old, x, lo, hi, fi, bc) rdx_cl_permlane16((x), (lo), (hi), 1)
#define __builtin_amdgcn_update_dpp(old, x, ctrl, rm, bm, bc)                           \
    rdx_cl_update_dpp((old), (x), (ctrl), (bc))

/*
 * WMMA 16x16x16 (v_wmma_*_16x16x16_*): D = A x B + C.  Lane l holds row l%16 of A and
 * column l%16 of B (16 elements over k; the other lanes repeat lanes 0-15).  C and D:
 * wave32 lane l holds D[2e + l/16][l%16], e = 0..7; wave64 lane l holds
 * D[2e + (l%32)/16 + 8*(l/32)][l%16], e = 0..3 (lanes 32-63 take the rows wave32 keeps
 * in elements 4-7).  Products are summed in double and rounded once: exact for the
 * integer-valued inputs the corpus uses.
 */
static inline uint rdx_cl_wmma_row(uint e, uint lane)
{
    return 2u * e + (lane % 32u) / 16u + 8u * (lane / 32u);
}
static inline double rdx_cl_bf16(short h) { return rdx_as_float((uint)(ushort)h << 16); }
/* n accumulator elements c[] -> d[] (n = 256 / wave size) */
static inline void rdx_cl_wmma_f32(const void *a, const void *b, int bf16, const float *c, float *d)
{
    struct {
        half16 fa, fb;
        short16 sa, sb;
    } in;
    memset(&in, 0, sizeof in);
    if (bf16) {
        memcpy(&in.sa, a, sizeof in.sa);
        memcpy(&in.sb, b, sizeof in.sb);
    } else {
        memcpy(&in.fa, a, sizeof in.fa);
        memcpy(&in.fb, b, sizeof in.fb);
    }
    const uint64_t *v = rdx_cl_host_wave_exchange(&in, sizeof in);
    uint lane = rdx_cl_cur.lane, n = 256u / rdx_cl_cur.wave_size;
    for (uint e = 0; e < n; e++) {
        uint row = rdx_cl_wmma_row(e, lane), col = lane % 16u;
        __typeof__(in) A, B;
        memcpy(&A, &RDX_CL_LANE(v, row), sizeof A);
        memcpy(&B, &RDX_CL_LANE(v, col), sizeof B);
        double acc = c[e];
        for (int k = 0; k < 16; k++)
            acc += bf16 ? rdx_cl_bf16(A.sa[k]) * rdx_cl_bf16(B.sb[k])
                        : (double)A.fa[k] * (double)B.fb[k];
        d[e] = (float)acc;
    }
}
static inline void rdx_cl_wmma_i32(bool as, int4 a, bool bs, int4 b, const int *c, int *d)
{
    struct {
        int4 a, b;
    } in = { a, b };
    const uint64_t *v = rdx_cl_host_wave_exchange(&in, sizeof in);
    uint lane = rdx_cl_cur.lane, n = 256u / rdx_cl_cur.wave_size;
    for (uint e = 0; e < n; e++) {
        uint row = rdx_cl_wmma_row(e, lane), col = lane % 16u;
        __typeof__(in) A, B;
        memcpy(&A, &RDX_CL_LANE(v, row), sizeof A);
        memcpy(&B, &RDX_CL_LANE(v, col), sizeof B);
        uint acc = (uint)c[e];
        for (int k = 0; k < 16; k++) {
            uint ab = ((uint)A.a[k / 4] >> (8 * (k % 4))) & 255u;
            uint bb = ((uint)B.b[k / 4] >> (8 * (k % 4))) & 255u;
            int x = as ? (int)(signed char)ab : (int)ab, y = bs ? (int)(signed char)bb : (int)bb;
            acc += (uint)(x * y);
        }
        d[e] = (int)acc;
    }
}
static inline void rdx_cl_wmma_size(uint want)
{
    if (rdx_cl_cur.wave_size != want) {
        fprintf(stderr, "rdx_cl_host: a wave%u WMMA builtin in a wave%u kernel\n", want,
                rdx_cl_cur.wave_size);
        exit(3);
    }
}
static inline float8 rdx_cl_wmma_f16(half16 a, half16 b, float8 c)
{
    float8 d;
    rdx_cl_wmma_size(32);
    rdx_cl_wmma_f32(&a, &b, 0, (const float *)&c, (float *)&d);
    return d;
}
static inline float8 rdx_cl_wmma_bf16(short16 a, short16 b, float8 c)
{
    float8 d;
    rdx_cl_wmma_size(32);
    rdx_cl_wmma_f32(&a, &b, 1, (const float *)&c, (float *)&d);
    return d;
}
static inline int8 rdx_cl_wmma_iu8(bool as, int4 a, bool bs, int4 b, int8 c)
{
    int8 d;
    rdx_cl_wmma_size(32);
    rdx_cl_wmma_i32(as, a, bs, b, (const int *)&c, (int *)&d);
    return d;
}
static inline float4 rdx_cl_wmma_f16_w64(half16 a, half16 b, float4 c)
{
    float4 d;
    rdx_cl_wmma_size(64);
    rdx_cl_wmma_f32(&a, &b, 0, (const float *)&c, (float *)&d);
    return d;
}
static inline float4 rdx_cl_wmma_bf16_w64(short16 a, short16 b, float4 c)
{
    float4 d;
    rdx_cl_wmma_size(64);
    rdx_cl_wmma_f32(&a, &b, 1, (const float *)&c, (float *)&d);
    return d;
}
static inline int4 rdx_cl_wmma_iu8_w64(bool as, int4 a, bool bs, int4 b, int4 c)
{
    int4 d;
    rdx_cl_wmma_size(64);
    rdx_cl_wmma_i32(as, a, bs, b, (const int *)&c, (int *)&d);
    return d;
}
#define __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(a, b, c) rdx_cl_wmma_f16((a), (b), (c))
#define __builtin_amdgcn_wmma_f32_16x16x16_bf16_w32(a, b, c) rdx_cl_wmma_bf16((a), (b), (c))
#define __builtin_amdgcn_wmma_i32_16x16x16_iu8_w32(as, a, bs, b, c, clamp)              \
    rdx_cl_wmma_iu8((as), (a), (bs), (b), (c))
#define __builtin_amdgcn_wmma_f32_16x16x16_f16_w64(a, b, c) rdx_cl_wmma_f16_w64((a), (b), (c))
#define __builtin_amdgcn_wmma_f32_16x16x16_bf16_w64(a, b, c) rdx_cl_wmma_bf16_w64((a), (b), (c))
#define __builtin_amdgcn_wmma_i32_16x16x16_iu8_w64(as, a, bs, b, c, clamp)              \
    rdx_cl_wmma_iu8_w64((as), (a), (bs), (b), (c))
#endif

#ifdef RDX_GPU
/* f32 atomic add at agent (device) scope, 4 = clang's __HIP_MEMORY_SCOPE_AGENT (3 is the
 * work-group): a compare-and-swap loop on global memory by default, global_atomic_add_f32 with
 * -munsafe-fp-atomics; ds_add_f32 on LDS. */
#define rdx_cl_atomic_add_f32(p, v) ((void)__hip_atomic_fetch_add((p), (v), __ATOMIC_RELAXED, 4))
#endif


#endif /* RDX_CL_H */
