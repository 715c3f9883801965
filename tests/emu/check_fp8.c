/*
 * tests/emu/check_fp8.c — RDNA4's FP8 (OCP E4M3FN) and BF8 (OCP E5M2) instructions: the
 * conversions, stochastic rounding, dot products and WMMAs, compiled by clang-19 from its gfx12
 * builtins and run on the emulated gfx1201, against a host reference written from the OCP
 * 8-bit floating point specification (a brute-force nearest-code search, independent of
 * the emulator's arithmetic); and the values measured on gfx950 hardware, whose FP8/BF8
 * are the same OCP formats (tinygrad test/amd/hw/test_cdna_vop3.py; ROCm rocm-systems
 * issue 9556's exhaustive sweep).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/emu/emu_test.h"

/* ------------------------------------------------------------ the OCP reference */

/* The value of code c (E4M3FN: bias 7, no Inf, S.1111.111 NaN; E5M2: bias 15, IEEE-like). */
static double ocp_value(uint8_t c, int bf8, int *nan)
{
    int e_bits = bf8 ? 5 : 4, m_bits = bf8 ? 2 : 3, bias = bf8 ? 15 : 7;
    int e = (c >> m_bits) & ((1 << e_bits) - 1), m = c & ((1 << m_bits) - 1);
    double s = (c & 0x80) ? -1.0 : 1.0;
    *nan = 0;
    if (!bf8 && (c & 0x7f) == 0x7f) {
        *nan = 1;
        return NAN;
    }
    if (bf8 && e == 31) {
        *nan = m != 0;
        return m ? NAN : s * INFINITY;
    }
    if (e == 0)
        return s * ldexp((double)m, 1 - bias - m_bits);
    return s * ldexp(1.0 + m / (double)(1 << m_bits), e - bias);
}

static int code_is_nan(uint8_t c, int bf8)
{
    return bf8 ? (c & 0x7c) == 0x7c && (c & 3) : (c & 0x7f) == 0x7f;
}

/*
 * f32 -> code: the nearest of the finite codes and the value one step beyond the largest
 * (FP8: 480, code 0x7f; BF8: 65536, code 0x7c), ties to the even code (the even mantissa);
 * landing on that step is an overflow: NaN (FP8) / Inf (BF8), or the largest finite code
 * when saturating.  Inf: NaN / Inf; NaN: a NaN (compared as a class).
 */
static uint8_t ocp_encode(float f, int bf8, int sat)
{
    uint8_t s = signbit(f) ? 0x80 : 0;
    unsigned maxc = bf8 ? 0x7b : 0x7e;
    if (isnan(f))
        return (uint8_t)(s | 0x7f);
    if (isinf(f))
        return (uint8_t)(s | (bf8 ? 0x7c : 0x7f));
    double a = fabs((double)f), best = INFINITY;
    if (a >= (bf8 ? 131072.0 : 1024.0)) /* beyond the search's precision: an overflow */
        return (uint8_t)(s | (sat ? maxc : bf8 ? 0x7c : 0x7f));
    unsigned k = 0;
    for (unsigned c = 0; c <= maxc + 1; c++) {
        int nan;
        double v = c <= maxc ? ocp_value((uint8_t)c, bf8, &nan) : (bf8 ? 65536.0 : 480.0);
        double d = fabs(a - v);
        if (d < best || (d == best && !(c & 1))) {
            best = d;
            k = c;
        }
    }
    if (k > maxc)
        return (uint8_t)(s | (sat ? maxc : bf8 ? 0x7c : 0x7f));
    return (uint8_t)(s | k);
}

static int codes_match(uint8_t got, uint8_t want, int bf8)
{
    if (code_is_nan(want, bf8))
        return code_is_nan(got, bf8) && (got & 0x80) == (want & 0x80);
    return got == want;
}

/* v_cvt_sr_* (AMD rocjitsu's stochastic rounding): with q the result's step at |x| (2^(e-3)
   for FP8 / 2^(e-2) for BF8 with e the exponent of |x|, or the denormal step below the
   smallest normal) and u = S1[31:12] / 2^20 (FP8) or S1[31:11] / 2^21 (BF8), the result is
   floor(|x| / q + u) * q, NaN / Inf (or the largest finite code with MODE.FP16_OVFL) at or
   beyond the step past the largest finite value; Inf and NaN as v_cvt_pk_* */
static uint8_t sr_encode(float f, uint32_t r, int bf8)
{
    if (isnan(f) || isinf(f))
        return ocp_encode(f, bf8, 0);
    uint8_t s = signbit(f) ? 0x80 : 0;
    int mb = bf8 ? 2 : 3, emin = bf8 ? -14 : -6;
    double ax = fabs((double)f);
    if (ax == 0)
        return s;
    int e = ilogb(ax);
    double q = ldexp(1.0, (e > emin ? e : emin) - mb);
    double u = (double)(r >> (9 + mb)) / (double)(1u << (23 - mb));
    double t = floor(ax / q + u) * q;
    if (t >= (bf8 ? 65536.0 : 480.0))
        return (uint8_t)(s | (bf8 ? 0x7c : 0x7f));
    for (unsigned c = 0; c <= (bf8 ? 0x7bu : 0x7eu); c++) {
        int nan;
        if (ocp_value((uint8_t)c, bf8, &nan) == t)
            return (uint8_t)(s | c);
    }
    ck_abort_msg("sr reference: %a is no code", t);
    return 0;
}

/* ------------------------------------------------------------ the clang-19 kernel */

static const char cvt_src[] =
    "__kernel void cvt(__global const uint *w, __global const float *x,\n"
    "                  __global const uint *rnd, __global float *of, __global uint *ou, int n) {\n"
    "  int i = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();\n"
    "  if (i >= n) return;\n"
    "  uint v = w[i], v2 = w[n - 1 - i];\n"
    "  __global float *o = of + 16 * i;\n"
    "  o[0] = __builtin_amdgcn_cvt_f32_fp8(v, 0); o[1] = __builtin_amdgcn_cvt_f32_fp8(v, 1);\n"
    "  o[2] = __builtin_amdgcn_cvt_f32_fp8(v, 2); o[3] = __builtin_amdgcn_cvt_f32_fp8(v, 3);\n"
    "  o[4] = __builtin_amdgcn_cvt_f32_bf8(v, 0); o[5] = __builtin_amdgcn_cvt_f32_bf8(v, 1);\n"
    "  o[6] = __builtin_amdgcn_cvt_f32_bf8(v, 2); o[7] = __builtin_amdgcn_cvt_f32_bf8(v, 3);\n"
    "  float2 p = __builtin_amdgcn_cvt_pk_f32_fp8(v, false); o[8] = p.x; o[9] = p.y;\n"
    "  p = __builtin_amdgcn_cvt_pk_f32_fp8(v, true); o[10] = p.x; o[11] = p.y;\n"
    "  p = __builtin_amdgcn_cvt_pk_f32_bf8(v, false); o[12] = p.x; o[13] = p.y;\n"
    "  p = __builtin_amdgcn_cvt_pk_f32_bf8(v, true); o[14] = p.x; o[15] = p.y;\n"
    "  float a = x[i], b = x[n - 1 - i];\n"
    "  uint r = rnd[i], old = 0x9abcdef0u;\n"
    "  __global uint *u = ou + 8 * i;\n"
    "  u[0] = __builtin_amdgcn_cvt_pk_fp8_f32(a, b, 0x12345678u, false);\n"
    "  u[1] = __builtin_amdgcn_cvt_pk_fp8_f32(a, b, 0x12345678u, true);\n"
    "  u[2] = __builtin_amdgcn_cvt_pk_bf8_f32(a, b, 0x12345678u, false);\n"
    "  u[3] = __builtin_amdgcn_cvt_pk_bf8_f32(a, b, 0x12345678u, true);\n"
    "  switch (i & 3) {\n"
    "  case 0: u[4] = __builtin_amdgcn_cvt_sr_fp8_f32(a, r, old, 0);\n"
    "          u[5] = __builtin_amdgcn_cvt_sr_bf8_f32(a, r, old, 0);\n"
    "          u[6] = __builtin_bit_cast(uint, __builtin_amdgcn_dot4_f32_fp8_fp8(v, v2, b)); "
    "break;\n"
    "  case 1: u[4] = __builtin_amdgcn_cvt_sr_fp8_f32(a, r, old, 1);\n"
    "          u[5] = __builtin_amdgcn_cvt_sr_bf8_f32(a, r, old, 1);\n"
    "          u[6] = __builtin_bit_cast(uint, __builtin_amdgcn_dot4_f32_fp8_bf8(v, v2, b)); "
    "break;\n"
    "  case 2: u[4] = __builtin_amdgcn_cvt_sr_fp8_f32(a, r, old, 2);\n"
    "          u[5] = __builtin_amdgcn_cvt_sr_bf8_f32(a, r, old, 2);\n"
    "          u[6] = __builtin_bit_cast(uint, __builtin_amdgcn_dot4_f32_bf8_fp8(v, v2, b)); "
    "break;\n"
    "  default: u[4] = __builtin_amdgcn_cvt_sr_fp8_f32(a, r, old, 3);\n"
    "          u[5] = __builtin_amdgcn_cvt_sr_bf8_f32(a, r, old, 3);\n"
    "          u[6] = __builtin_bit_cast(uint, __builtin_amdgcn_dot4_f32_bf8_bf8(v, v2, b)); "
    "break;\n"
    "  }\n"
    "}\n";

static char *cvt_co;

/* Compile cvt_src for gfx1201 once (clang-19 -O2). */
static const char *cvt_codeobj(void)
{
    if (cvt_co)
        return cvt_co;
    char *cl = rdx_test_tmp_path("fp8.cl");
    cvt_co = rdx_test_tmp_path("fp8.co");
    rdx_test_write_file(cl, cvt_src, sizeof cvt_src - 1);
    const char *clang = rdx_test_llvm_tool("clang");
    ck_assert_msg(clang != NULL, "clang-19 not found");
    const char *argv[] = {
        clang, "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1201", "-nogpulib", "-O2", "-o", cvt_co,
        cl,    NULL
    };
    rdx_test_proc pr;
    rdx_test_run(argv, NULL, 0, &pr);
    ck_assert_msg(pr.status == 0, "clang failed:\n%s", pr.err);
    rdx_test_proc_free(&pr);
    free(cl);
    return cvt_co;
}

typedef struct cvt_run {
    unsigned n;
    uint32_t *w, *rnd, *ou;
    float *x, *of;
} cvt_run;

/* Run the kernel over n work-items (w, x, rnd filled by the caller). */
static void cvt_exec(cvt_run *r)
{
    size_t len;
    uint8_t *elf = (uint8_t *)rdx_test_read_file(cvt_codeobj(), &len);
    struct {
        void *w, *x, *rnd, *of, *ou;
        int32_t n;
    } __attribute__((packed)) args = { r->w, r->x, r->rnd, r->of, r->ou, (int32_t)r->n };
    rdx_emu_buffer bufs[] = {
        { r->w, r->n * 4u, RDX_EMU_READ },   { r->x, r->n * 4u, RDX_EMU_READ },
        { r->rnd, r->n * 4u, RDX_EMU_READ }, { r->of, r->n * 64u, RDX_EMU_RW },
        { r->ou, r->n * 32u, RDX_EMU_RW },
    };
    rdx_emu_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = r->n;
    l.wg[0] = 256;
    l.kernarg = &args;
    l.kernarg_size = sizeof args;
    l.bufs = bufs;
    l.nbufs = 5;
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create("gfx1201", &e), RDX_OK);
    ck_assert_msg(rdx_emu_run_codeobj(e, elf, len, "cvt", &l) == RDX_OK, "%s", rdx_error_message());
    rdx_emu_destroy(e);
    free(elf);
}

static void cvt_alloc(cvt_run *r, unsigned n)
{
    r->n = n;
    r->w = calloc(n, 4);
    r->rnd = calloc(n, 4);
    r->x = calloc(n, 4);
    r->of = calloc(n, 64);
    r->ou = calloc(n, 32);
}

static void cvt_free(cvt_run *r)
{
    free(r->w);
    free(r->rnd);
    free(r->x);
    free(r->of);
    free(r->ou);
}

static float fbits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s;
}

/* The f32 inputs of the f32 -> FP8/BF8 checks: every code's value of both formats, the
   midpoints between neighbouring codes (ties) and the f32 values either side of them, the
   overflow boundaries, Inf, NaNs, f32 denormals, the underflow boundaries, random bits. */
static unsigned f32_cases(float *x, unsigned cap)
{
    unsigned n = 0;
#define ADD(v)            \
    do {                  \
        if (n < cap)      \
            x[n++] = (v); \
    } while (0)
    for (int bf8 = 0; bf8 < 2; bf8++)
        for (unsigned c = 0; c < 256; c++) {
            int nan, nan2;
            double v = ocp_value((uint8_t)c, bf8, &nan);
            if (nan)
                continue;
            ADD((float)v);
            double v2 = ocp_value((uint8_t)(c + 1), bf8, &nan2);
            if ((c & 0x7f) == 0x7f || nan2 || isinf(v2) || isinf(v))
                continue;
            float mid = (float)((v + v2) / 2);
            ADD(mid);
            ADD(nextafterf(mid, INFINITY));
            ADD(nextafterf(mid, -INFINITY));
        }
    static const uint32_t special[] = {
        0x43e00000u,
        /* 448 */ 0x43e80000u, /* 464: tie of 448 and (480) */
        0x43e80001u,
        0x43e7ffffu,
        0x43f00000u, /* 480 */
        0x447a0000u,
        /* 1000 */ 0x47600000u, /* 57344 */
        0x47700000u,
        /* 61440: tie */ 0x476fffffu,
        0x47700001u,
        0x47800000u, /* 65536 */
        0x7f7fffffu,
        /* FLT_MAX */ 0x7f800000u,
        0xff800000u,
        0x7fc00000u,
        0xffc00000u,
        0x7f800001u,
        0x7fa00000u,
        0xff800001u,
        0x00000001u,
        0x80000001u,
        0x007fffffu,
        0x3a800000u,
        /* 2^-10: half FP8's smallest */ 0x3a800001u,
        0x3ac00000u,
        0x37800000u,
        /* 2^-16: BF8's smallest */ 0x37000000u, /* 2^-17 */
        0x37000001u,
        0x36ffffffu,
        0x00000000u,
        0x80000000u,
    };
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) {
        ADD(fbits(special[i]));
        ADD(fbits(special[i] ^ 0x80000000u));
    }
    uint32_t s = 12345;
    while (n < cap) {
        uint32_t u = lcg(&s);
        /* mostly the range the formats cover: exponents 2^-20 .. 2^20 */
        if (u & 1)
            u = (u & 0x807fffffu) | (uint32_t)(107 + (u >> 1) % 41) << 23;
        ADD(fbits(u));
    }
#undef ADD
    return n;
}

/* FP8/BF8 -> f32 (v_cvt_f32_fp8/bf8 with every byte_sel, v_cvt_pk_f32_fp8/bf8 with both
   words): all 256 codes in every byte position against the OCP values */
START_TEST(fp8_to_f32_all_codes)
{
    cvt_run r;
    cvt_alloc(&r, 1024);
    for (unsigned i = 0; i < r.n; i++)
        for (unsigned b = 0; b < 4; b++)
            r.w[i] |= ((i + 67 * b + 13 * (i >> 8)) & 255u) << (8 * b);
    for (unsigned i = 0; i < r.n; i++)
        r.x[i] = 1.0f;
    cvt_exec(&r);
    unsigned checked = 0;
    for (unsigned i = 0; i < r.n; i++)
        for (unsigned j = 0; j < 16; j++) {
            int bf8 = (j >= 4 && j < 8) || j >= 12;
            unsigned byte = j < 8 ? j % 4 : (j >= 12 ? j - 12 : j - 8); /* pk: word j/2 */
            uint8_t c = (uint8_t)(r.w[i] >> (8 * byte));
            int nan;
            double want = ocp_value(c, bf8, &nan);
            float got = r.of[16 * i + j];
            uint32_t gb;
            memcpy(&gb, &got, 4);
            if (nan)
                ck_assert_msg(isnan(got) && (gb & 0x400000u) && !!(gb >> 31) == !!(c & 0x80),
                              "%s 0x%02x: 0x%08x, want a quiet NaN of its sign",
                              bf8 ? "bf8" : "fp8", c, gb);
            else
                ck_assert_msg((double)got == want && !signbit(got) == !signbit(want),
                              "%s 0x%02x (item %u slot %u): %a, want %a", bf8 ? "bf8" : "fp8", c, i,
                              j, (double)got, want);
            checked++;
        }
    ck_assert_uint_eq(checked, 1024 * 16);
    cvt_free(&r);
}
END_TEST

/* f32 -> FP8/BF8 (v_cvt_pk_fp8/bf8_f32 both words, the other word kept; v_cvt_sr_* every
   byte against the pseudocode's sum; v_dot4_f32_*: against an exact host sum) */
START_TEST(f32_to_fp8_rounding)
{
    cvt_run r;
    cvt_alloc(&r, 2048);
    unsigned n = f32_cases(r.x, r.n);
    ck_assert_uint_eq(n, r.n);
    uint32_t s = 777;
    for (unsigned i = 0; i < r.n; i++) {
        r.rnd[i] = lcg(&s);
        r.w[i] = lcg(&s);
    }
    cvt_exec(&r);
    unsigned nan_cases = 0, ovf_cases = 0;
    for (unsigned i = 0; i < r.n; i++) {
        float a = r.x[i], b = r.x[r.n - 1 - i];
        const uint32_t *u = r.ou + 8 * i;
        for (int bf8 = 0; bf8 < 2; bf8++) {
            uint8_t wa = ocp_encode(a, bf8, 0), wb = ocp_encode(b, bf8, 0);
            uint32_t lo = u[2 * bf8], hi = u[2 * bf8 + 1];
            ck_assert_msg(codes_match((uint8_t)lo, wa, bf8) &&
                              codes_match((uint8_t)(lo >> 8), wb, bf8) && (lo >> 16) == 0x1234u,
                          "cvt_pk_%s_f32(%a, %a) word 0: 0x%08x, want 0x1234%02x%02x",
                          bf8 ? "bf8" : "fp8", (double)a, (double)b, lo, wb, wa);
            ck_assert_msg(codes_match((uint8_t)(hi >> 16), wa, bf8) &&
                              codes_match((uint8_t)(hi >> 24), wb, bf8) &&
                              (hi & 0xffffu) == 0x5678u,
                          "cvt_pk_%s_f32(%a, %a) word 1: 0x%08x, want 0x%02x%02x5678",
                          bf8 ? "bf8" : "fp8", (double)a, (double)b, hi, wb, wa);
            uint8_t ws = sr_encode(a, r.rnd[i], bf8);
            unsigned byte = i & 3;
            uint32_t sr = u[4 + bf8];
            ck_assert_msg(codes_match((uint8_t)(sr >> (8 * byte)), ws, bf8) &&
                              (sr & ~(0xffu << (8 * byte))) ==
                                  (0x9abcdef0u & ~(0xffu << (8 * byte))),
                          "cvt_sr_%s_f32(%a, 0x%08x) byte %u: 0x%08x, want 0x%02x",
                          bf8 ? "bf8" : "fp8", (double)a, r.rnd[i], byte, sr, ws);
            nan_cases += code_is_nan(wa, bf8);
            ovf_cases +=
                !isinf(a) && !isnan(a) && (bf8 ? (wa & 0x7f) == 0x7c : (wa & 0x7f) == 0x7f);
        }
        /* the dot product: i & 3 picks fp8/bf8 for each source */
        int abf = (i & 3) >= 2, bbf = (i & 3) == 1 || (i & 3) == 3;
        uint32_t v = r.w[i], v2 = r.w[r.n - 1 - i];
        double sum = b;
        int any_nan = isnan(b), nan;
        for (unsigned k = 0; k < 4; k++) {
            double x = ocp_value((uint8_t)(v >> (8 * k)), abf, &nan);
            any_nan |= nan;
            double y = ocp_value((uint8_t)(v2 >> (8 * k)), bbf, &nan);
            any_nan |= nan;
            sum += x * y;
        }
        float want = (float)sum, got = fbits(u[6]);
        if (any_nan || isnan(want))
            ck_assert_msg(isnan(got), "dot4 item %u: %a, want NaN", i, (double)got);
        else
            ck_assert_msg(got == want, "dot4 item %u (0x%08x . 0x%08x + %a): %a, want %a", i, v, v2,
                          (double)b, (double)got, (double)want);
    }
    ck_assert_uint_gt(nan_cases, 8);
    ck_assert_uint_gt(ovf_cases, 8);
    cvt_free(&r);
}
END_TEST

static int cmp_f32(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/*
 * gfx950 hardware (the same OCP formats): ROCm rocm-systems issue 9556 summed all ordered
 * pairs of finite codes in f32 and narrowed with v_cvt_pk_{fp8,bf8}_f32: 436 FP8 pairs gave
 * NaN and 120 BF8 pairs Inf (round to nearest even first, then overflow: 464 rounds to 448,
 * 61440 to Inf).  The same sums narrowed on the emulated gfx1201.
 */
START_TEST(fp8_overflow_sweep_hw)
{
    /* the narrowing: v_cvt_pk_fp8_f32 and v_cvt_pk_bf8_f32 of the cvt kernel (u[0], u[2]) */
    for (int bf8 = 0; bf8 < 2; bf8++) {
        float fin[256];
        unsigned nf = 0;
        for (unsigned c = 0; c < 256; c++) {
            int nan;
            double v = ocp_value((uint8_t)c, bf8, &nan);
            if (!nan && !isinf(v))
                fin[nf++] = (float)v;
        }
        float *sums = malloc(sizeof(float) * nf * nf);
        for (unsigned i = 0; i < nf; i++)
            for (unsigned j = 0; j < nf; j++)
                sums[i * nf + j] = fin[i] + fin[j];
        float *uniq = malloc(sizeof(float) * nf * nf);
        memcpy(uniq, sums, sizeof(float) * nf * nf);
        qsort(uniq, nf * nf, sizeof(float), cmp_f32);
        unsigned nu = 0;
        for (unsigned i = 0; i < nf * nf; i++)
            if (!nu || uniq[i] != uniq[nu - 1])
                uniq[nu++] = uniq[i];
        cvt_run r;
        cvt_alloc(&r, nu);
        memcpy(r.x, uniq, nu * 4);
        cvt_exec(&r);
        unsigned bad = 0;
        for (unsigned i = 0; i < nf * nf; i++) {
            float *hit = bsearch(&sums[i], uniq, nu, sizeof(float), cmp_f32);
            ck_assert_ptr_nonnull(hit);
            uint8_t code = (uint8_t)r.ou[8 * (unsigned)(hit - uniq) + 2 * bf8];
            bad += bf8 ? (code & 0x7f) == 0x7c : (code & 0x7f) == 0x7f;
        }
        ck_assert_uint_eq(bad, bf8 ? 120 : 436);
        cvt_free(&r);
        free(sums);
        free(uniq);
    }
}
END_TEST

/* gfx950 hardware values of tinygrad test_cdna_vop3.py (test_cvt_pk_fp8_f32_preserves_upper_half,
   test_cvt_pk_bf8_f32_overflow_and_inf), on the emulated gfx1201 */
START_TEST(fp8_cvt_pk_values_hw)
{
    et_case c = { 0 };
    c.target = "gfx1201";
    c.nin = 4;
    c.in[0][0] = 0x47700000u; /* 61440 */
    c.in[0][1] = 0x7f800000u;
    c.in[0][2] = 0xff800000u;
    c.in[0][3] = 0xc4000000u; /* -512 */
    c.body = "v_mov_b32 v10, 0xdeadbeef\n v_mov_b32 v5, 1.0\n v_mov_b32 v6, 2.0\n"
             "v_cvt_pk_fp8_f32 v10, v5, v6\n"
             "v_mov_b32 v11, 0xdeadbeef\n v_cvt_pk_bf8_f32 v11, v1, v5\n"
             "v_mov_b32 v12, 0xdeadbeef\n v_cvt_pk_bf8_f32 v12, v2, v5\n"
             "v_mov_b32 v13, 0xdeadbeef\n v_cvt_pk_bf8_f32 v13, v3, v5\n"
             "v_mov_b32 v16, 0\n v_cvt_pk_fp8_f32 v16, v1, v4\n";
    c.nout = 7;
    et_ok(&c);
    ck_assert_uint_eq(c.out[0][0], 0xdead4038u);
    ck_assert_uint_eq(c.out[0][1], 0xdead3c7cu);
    ck_assert_uint_eq(c.out[0][2], 0xdead3c7cu);
    ck_assert_uint_eq(c.out[0][3], 0xdead3cfcu);
    ck_assert_uint_eq(c.out[0][6], 0x0000ff7fu); /* 61440, -512 -> NaN, -NaN */
}
END_TEST

/* MODE.FP16_OVFL (AMD rocjitsu's reading; hipBLASLt sets it on gfx12 for FP8 saturation):
   a finite overflow saturates, Inf and NaN do not; the clamp bit (raw: llvm-mc 19 does not
   accept it here) changes nothing */
START_TEST(fp8_fp16_ovfl_saturates)
{
    et_case c = { 0 };
    c.target = "gfx1201";
    c.nin = 4;
    c.in[0][0] = 0x47700000u; /* 61440 */
    c.in[0][1] = 0x7f800000u;
    c.in[0][2] = 0xc4000000u; /* -512 */
    c.in[0][3] = 0xffc00000u; /* -NaN */
    c.body = "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 23, 1), 1\n"
             "v_mov_b32 v10, 0\n v_cvt_pk_fp8_f32 v10, v1, v3\n"
             "v_mov_b32 v11, 0\n v_cvt_pk_bf8_f32 v11, v1, v3\n"
             "v_mov_b32 v12, 0\n v_cvt_pk_fp8_f32 v12, v2, v4\n"
             "v_mov_b32 v13, 0\n v_cvt_pk_bf8_f32 v13, v2, v4\n"
             "v_mov_b32 v14, 0\n v_cvt_sr_fp8_f32 v14, v1, -1\n"
             "v_mov_b32 v15, 0\n"
             ".long 0xd769800f, 0x00020701\n" /* v_cvt_pk_fp8_f32 v15, v1, v3 clamp */
             "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 23, 1), 0\n"
             "v_mov_b32 v16, 0\n"
             ".long 0xd7698010, 0x00020701\n"; /* v_cvt_pk_fp8_f32 v16, v1, v3 clamp */
    c.nout = 7;
    et_ok(&c);
    ck_assert_uint_eq(c.out[0][0], 0x0000fe7eu); /* 448, -448 */
    ck_assert_uint_eq(c.out[0][1], 0x0000e07bu); /* 57344, -512 */
    ck_assert_uint_eq(c.out[0][2], 0x0000ff7fu); /* Inf -> NaN, -NaN */
    ck_assert_uint_eq(c.out[0][3], 0x0000ff7cu); /* Inf, -NaN */
    ck_assert_uint_eq(c.out[0][4], 0x0000007eu); /* 61440 + the largest random: 448 */
    ck_assert_uint_eq(c.out[0][5], 0x0000fe7eu);
    ck_assert_uint_eq(c.out[0][6], 0x0000ff7fu);
}
END_TEST

/* ------------------------------------------------------------ WMMA with FP8/BF8 inputs */

static const char wmma_src[] =
    "typedef int v2i __attribute__((ext_vector_type(2)));\n"
    "typedef float v8f __attribute__((ext_vector_type(8)));\n"
    "__kernel void wm(__global const v2i *a, __global const v2i *b, __global const v8f *c,\n"
    "                 __global v8f *d) {\n"
    "  uint l = __builtin_amdgcn_workitem_id_x();\n"
    "  v2i x = a[l], y = b[l];\n"
    "  v8f z = c[l];\n"
    "  d[l] = __builtin_amdgcn_wmma_f32_16x16x16_fp8_fp8_w32_gfx12(x, y, z);\n"
    "  d[32 + l] = __builtin_amdgcn_wmma_f32_16x16x16_fp8_bf8_w32_gfx12(x, y, z);\n"
    "  d[64 + l] = __builtin_amdgcn_wmma_f32_16x16x16_bf8_fp8_w32_gfx12(x, y, z);\n"
    "  d[96 + l] = __builtin_amdgcn_wmma_f32_16x16x16_bf8_bf8_w32_gfx12(x, y, z);\n"
    "}\n";

/*
 * v_wmma_f32_16x16x16_{fp8,bf8}_{fp8,bf8} (wave32), compiled by clang-19 from its gfx12
 * builtins: A and B placed in gfx12's 8-bit WMMA layout (iu8's: row / column i, element k
 * in lane i + 16*k[2], byte k[1:0] | k[3] << 2 of the lane's two VGPRs), C and D in gfx12's
 * f32 layout (element (m, n) in lane n + 16*m[3], VGPR m[2:0]); every code but the NaNs
 * and infinities as an element; D against a host matmul of the OCP values in double,
 * rounded once.
 */
START_TEST(fp8_wmma_matmul)
{
    static const char *const name[] = { "fp8_fp8", "fp8_bf8", "bf8_fp8", "bf8_bf8" };
    char *cl = rdx_test_tmp_path("wmma8.cl"), *co = rdx_test_tmp_path("wmma8.co");
    rdx_test_write_file(cl, wmma_src, sizeof wmma_src - 1);
    const char *clang = rdx_test_llvm_tool("clang");
    ck_assert_msg(clang != NULL, "clang-19 not found");
    const char *argv[] = {
        clang, "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1201", "-nogpulib", "-O2", "-o", co,
        cl,    NULL
    };
    rdx_test_proc pr;
    rdx_test_run(argv, NULL, 0, &pr);
    ck_assert_msg(pr.status == 0, "clang failed:\n%s", pr.err);
    rdx_test_proc_free(&pr);
    size_t len;
    uint8_t *elf = (uint8_t *)rdx_test_read_file(co, &len);
    uint32_t seed = 99;
    for (int round = 0; round < 4; round++) {
        uint8_t A[16][16], B[16][16];
        float C[16][16];
        for (int i = 0; i < 16; i++)
            for (int k = 0; k < 16; k++) {
                /* finite in both formats: FP8 0x7f/0xff are NaN, BF8 0x7c-0x7f Inf/NaN */
                uint8_t x, y;
                do
                    x = (uint8_t)(lcg(&seed) >> 24);
                while ((x & 0x7c) == 0x7c);
                do
                    y = (uint8_t)(lcg(&seed) >> 24);
                while ((y & 0x7c) == 0x7c);
                A[i][k] = x;
                B[k][i] = y;
                C[i][k] = (float)((int)(lcg(&seed) >> 20) - 2048) / 64.0f;
            }
        uint32_t a[32][2] = { { 0 } }, b[32][2] = { { 0 } };
        float c[32][8], d[128][8];
        for (unsigned i = 0; i < 16; i++)
            for (unsigned k = 0; k < 16; k++) {
                unsigned lane = i + 16 * ((k >> 2) & 1), e = (k & 3) | ((k >> 3) & 1) << 2;
                a[lane][e / 4] |= (uint32_t)A[i][k] << (8 * (e % 4));
                b[lane][e / 4] |= (uint32_t)B[k][i] << (8 * (e % 4));
            }
        for (unsigned m = 0; m < 16; m++)
            for (unsigned n = 0; n < 16; n++)
                c[n + 16 * (m >> 3)][m & 7] = C[m][n];
        memset(d, 0, sizeof d);
        struct {
            void *a, *b, *c, *d;
        } args = { a, b, c, d };
        rdx_emu_buffer bufs[] = { { a, sizeof a, RDX_EMU_READ },
                                  { b, sizeof b, RDX_EMU_READ },
                                  { c, sizeof c, RDX_EMU_READ },
                                  { d, sizeof d, RDX_EMU_RW } };
        rdx_emu_launch l;
        memset(&l, 0, sizeof l);
        l.grid[0] = l.wg[0] = 32;
        l.kernarg = &args;
        l.kernarg_size = sizeof args;
        l.bufs = bufs;
        l.nbufs = 4;
        rdx_emu *e;
        ck_assert_int_eq(rdx_emu_create("gfx1201", &e), RDX_OK);
        ck_assert_msg(rdx_emu_run_codeobj(e, elf, len, "wm", &l) == RDX_OK, "%s",
                      rdx_error_message());
        rdx_emu_destroy(e);
        for (int v = 0; v < 4; v++) {
            int abf = v >= 2, bbf = v & 1;
            for (unsigned m = 0; m < 16; m++)
                for (unsigned n = 0; n < 16; n++) {
                    double sum = C[m][n];
                    int nan;
                    for (unsigned k = 0; k < 16; k++)
                        sum += ocp_value(A[m][k], abf, &nan) * ocp_value(B[k][n], bbf, &nan);
                    float got = d[32 * v + n + 16 * (m >> 3)][m & 7], want = (float)sum;
                    ck_assert_msg(got == want, "%s round %d D[%u][%u]: %a, want %a", name[v], round,
                                  m, n, (double)got, (double)want);
                }
        }
    }
    free(elf);
    free(cl);
    free(co);
}
END_TEST

Suite *et_suite_fp8(void)
{
    Suite *s = suite_create("fp8");
    TCase *tc = tcase_create("fp8");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, fp8_to_f32_all_codes);
    tcase_add_test(tc, f32_to_fp8_rounding);
    tcase_add_test(tc, fp8_overflow_sweep_hw);
    tcase_add_test(tc, fp8_cvt_pk_values_hw);
    tcase_add_test(tc, fp8_fp16_ovfl_saturates);
    tcase_add_test(tc, fp8_wmma_matmul);
    suite_add_tcase(s, tc);
    return s;
}
