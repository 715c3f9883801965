/*
 * emu/core/valu_fma.c — fused multiply-add over whole lane arrays, the inner loop of
 * the f32 FMA fast paths.  The library is built for baseline x86-64, where fmaf is a
 * libm call per lane; when the CPU has FMA and AVX2 the same loop compiled for them
 * (one vfmadd per 8 lanes) is used instead.  Both round once, in the host's current
 * rounding mode, so their results are bit-identical.
 */
#include "emu/core/fp.h"
#include "emu/core/ops.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

typedef int (*fma_fn)(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                      unsigned n);

static int fma_generic(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                       unsigned n)
{
    int nan = 0;
    for (unsigned l = 0; l < n; l++) {
        float v = fmaf(f32_of(a[l]), f32_of(b[l]), f32_of(c[l]));
        nan |= v != v;
        r[l] = u32_of(v);
    }
    return nan;
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) static int
fma_avx2(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *c, unsigned n)
{
    __m256 nan = _mm256_setzero_ps();
    for (unsigned l = 0; l < n; l += 8) {
        __m256 x = _mm256_loadu_ps((const float *)(const void *)(a + l));
        __m256 y = _mm256_loadu_ps((const float *)(const void *)(b + l));
        __m256 z = _mm256_loadu_ps((const float *)(const void *)(c + l));
        __m256 v = _mm256_fmadd_ps(x, y, z);
        nan = _mm256_or_ps(nan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
        _mm256_storeu_ps((float *)(void *)(r + l), v);
    }
    return _mm256_movemask_ps(nan) != 0;
}
#endif

static fma_fn pick(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return fma_avx2;
#endif
    return fma_generic;
}

static fma_fn chosen; /* set once (every thread picks the same) */

int emu_fma_lanes(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *c, unsigned n)
{
    fma_fn f = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
    if (!f) {
        f = pick();
        __atomic_store_n(&chosen, f, __ATOMIC_RELAXED);
    }
    return f(r, a, b, c, n);
}
