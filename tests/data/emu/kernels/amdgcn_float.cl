/* Float AMDGPU builtins: median of three (v_med3_f32), frexp parts
 * (v_frexp_mant_f32, v_frexp_exp_i32_f32), class tests (v_cmp_class_f32) and the
 * round-toward-zero pack to half2 (v_cvt_pk_rtz_f16_f32). */
#include "rdx_cl.h"

__kernel void amdgcn_float(__global float *f, __global int *iv, __global half2 *h,
                           __global const float *a, __global const float *b,
                           __global const float *c, __global const float *e, int n)
{
    int i = (int)get_global_id(0);
    if (i >= n)
        return;
    float x = a[i], y = b[i], z = c[i], w = e[i];
    f[2 * i + 0] = __builtin_amdgcn_fmed3f(x, y, z);
    f[2 * i + 1] = __builtin_amdgcn_frexp_mantf(w);
    iv[2 * i + 0] = __builtin_amdgcn_frexp_expf(w);
    int cls = 0;
    for (int bit = 0; bit < 10; bit++)
        cls |= __builtin_amdgcn_classf(w, 1 << bit) ? 1 << bit : 0;
    iv[2 * i + 1] = cls | (__builtin_amdgcn_classf(w, (i * 37) & 1023) ? 1 << 16 : 0);
    h[2 * i] = __builtin_amdgcn_cvt_pkrtz(w, x * 1000.0f);
    h[2 * i + 1] = __builtin_amdgcn_cvt_pkrtz(y * 1e-6f, z * 7e4f);
}
