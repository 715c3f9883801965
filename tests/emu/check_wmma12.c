/*
 * tests/emu/check_wmma12.c — RDNA4's iu4 and wave64 WMMAs and the sparse SWMMACs, compiled
 * by clang-19 from its gfx12 builtins (__builtin_amdgcn_wmma_*_gfx12,
 * __builtin_amdgcn_swmmac_*) and run on the emulated gfx1201 against a host matmul.  The
 * host places A, B, C and the sparse index in the registers as docs/emu.md (RDNA4, WMMA)
 * describes: tinygrad's wave32 layout, AMD rocjitsu's for iu4, wave64 and SWMMAC.  For a
 * dense WMMA any placement of K that A and B share gives the same D, so those cases check
 * the arithmetic, operand sizes, signedness, and D's layout; the SWMMAC cases also check
 * which B row each index entry selects.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/emu/emu_test.h"

enum { F_F16, F_I8, F_I4, F_FP8, F_BF8 };
enum { O_F32, O_F16, O_I32 };

typedef struct wcase {
    const char *kernel;
    unsigned nl, sparse, K, bits, fa, fb, out, sa, sb;
    unsigned sta, stb, stc; /* dwords per lane of the kernel's A, B and C / D types */
} wcase;

static const char w32_src[] =
    "typedef half v8h __attribute__((ext_vector_type(8)));\n"
    "typedef half v16h __attribute__((ext_vector_type(16)));\n"
    "typedef float v8f __attribute__((ext_vector_type(8)));\n"
    "typedef int v2i __attribute__((ext_vector_type(2)));\n"
    "typedef int v4i __attribute__((ext_vector_type(4)));\n"
    "typedef int v8i __attribute__((ext_vector_type(8)));\n"
    "#define K(name, A, B, C, expr) __kernel void name(__global const A *a, __global const B *b,"
    " __global const C *c, __global const int *x, __global C *d) {"
    " uint l = __builtin_amdgcn_workitem_id_x(); d[l] = expr; }\n"
    "K(iu4, int, int, v8i, __builtin_amdgcn_wmma_i32_16x16x16_iu4_w32_gfx12(true, a[l], false,"
    " b[l], c[l], false))\n"
    "K(iu4k32, v2i, v2i, v8i, __builtin_amdgcn_wmma_i32_16x16x32_iu4_w32_gfx12(true, a[l], true,"
    " b[l], c[l], false))\n"
    "K(swf16, v8h, v16h, v8f, __builtin_amdgcn_swmmac_f32_16x16x32_f16_w32(a[l], b[l], c[l],"
    " x[l]))\n"
    "K(swf16h, v8h, v16h, v8h, __builtin_amdgcn_swmmac_f16_16x16x32_f16_w32(a[l], b[l], c[l],"
    " x[l]))\n"
    "K(swiu8, v2i, v4i, v8i, __builtin_amdgcn_swmmac_i32_16x16x32_iu8_w32(true, a[l], false,"
    " b[l], c[l], x[l], false))\n"
    "K(swiu4, int, v2i, v8i, __builtin_amdgcn_swmmac_i32_16x16x32_iu4_w32(true, a[l], true,"
    " b[l], c[l], x[l], false))\n"
    "K(swiu4k64, v2i, v4i, v8i, __builtin_amdgcn_swmmac_i32_16x16x64_iu4_w32(false, a[l], true,"
    " b[l], c[l], x[l], false))\n"
    "K(swfp8, v2i, v4i, v8f, __builtin_amdgcn_swmmac_f32_16x16x32_fp8_bf8_w32(a[l], b[l], c[l],"
    " x[l]))\n";

static const char w64_src[] =
    "typedef half v4h __attribute__((ext_vector_type(4)));\n"
    "typedef half v8h __attribute__((ext_vector_type(8)));\n"
    "typedef float v4f __attribute__((ext_vector_type(4)));\n"
    "typedef int v2i __attribute__((ext_vector_type(2)));\n"
    "typedef int v4i __attribute__((ext_vector_type(4)));\n"
    "#define K(name, A, B, C, expr) __kernel void name(__global const A *a, __global const B *b,"
    " __global const C *c, __global const int *x, __global C *d) {"
    " uint l = __builtin_amdgcn_workitem_id_x(); d[l] = expr; }\n"
    "K(f16, v4h, v4h, v4f, __builtin_amdgcn_wmma_f32_16x16x16_f16_w64_gfx12(a[l], b[l], c[l]))\n"
    "K(fp8, int, int, v4f, __builtin_amdgcn_wmma_f32_16x16x16_fp8_bf8_w64_gfx12(a[l], b[l],"
    " c[l]))\n"
    "K(iu8, int, int, v4i, __builtin_amdgcn_wmma_i32_16x16x16_iu8_w64_gfx12(true, a[l], false,"
    " b[l], c[l], false))\n"
    "K(iu4, int, int, v4i, __builtin_amdgcn_wmma_i32_16x16x16_iu4_w64_gfx12(true, a[l], true,"
    " b[l], c[l], false))\n"
    "K(iu4k32, int, int, v4i, __builtin_amdgcn_wmma_i32_16x16x32_iu4_w64_gfx12(true, a[l], false,"
    " b[l], c[l], false))\n"
    "K(swf16, v4h, v8h, v4f, __builtin_amdgcn_swmmac_f32_16x16x32_f16_w64(a[l], b[l], c[l],"
    " x[l]))\n"
    "K(swfp8, int, v2i, v4f, __builtin_amdgcn_swmmac_f32_16x16x32_bf8_fp8_w64(a[l], b[l], c[l],"
    " x[l]))\n"
    "K(swiu8, int, v2i, v4i, __builtin_amdgcn_swmmac_i32_16x16x32_iu8_w64(true, a[l], true, b[l],"
    " c[l], x[l], false))\n"
    "K(swiu4, int, int, v4i, __builtin_amdgcn_swmmac_i32_16x16x32_iu4_w64(true, a[l], true, b[l],"
    " c[l], x[l], false))\n"
    "K(swiu4k64, int, v2i, v4i, __builtin_amdgcn_swmmac_i32_16x16x64_iu4_w64(true, a[l], false,"
    " b[l], c[l], x[l], false))\n";

/* ------------------------------------------------------------ layouts (docs/emu.md) */

typedef struct loc {
    unsigned lane, slot;
} loc;

static unsigned sw2(unsigned b)
{
    return (b & 1) << 1 | b >> 1;
}

static loc dense(unsigned nl, unsigned K, unsigned bits, unsigned i, unsigned k)
{
    if (nl == 32 && bits == 4)
        return K == 16 ? (loc){ i + 16 * (k / 8), k % 8 }
                       : (loc){ i + 16 * ((k / 8) % 2), 8 * (k / 16) + k % 8 };
    if (nl == 32)
        return (loc){ i + 16 * ((k / 4) % 2), k % 4 + 4 * (k / 8) };
    if (bits == 4)
        return (loc){ i + 16 * (K == 16 ? k / 8 : sw2(k / 8)), k % 8 };
    return (loc){ i + 16 * ((k / 4) % 2) + 32 * (k / 8), k % 4 };
}

static loc sp_a(unsigned nl, unsigned K, unsigned bits, unsigned i, unsigned ck)
{
    unsigned g = ck / 2, s = ck % 2;
    if (bits == 4) {
        if (nl == 64)
            return (loc){ i + 16 * (K == 32 ? ck / 8 : sw2(ck / 8)), ck % 8 };
        return K == 32 ? (loc){ i + 16 * (ck / 8), ck % 8 }
                       : (loc){ i + 16 * ((ck / 8) % 2), 8 * (ck / 16) + ck % 8 };
    }
    if (bits == 8)
        return nl == 32 ? (loc){ i + 16 * (g / 4), 2 * (g % 4) + s }
                        : (loc){ i + 16 * (2 * ((g / 2) % 2) + g / 4), 2 * (g % 2) + s };
    return nl == 32 ? (loc){ i + 16 * ((g / 2) % 2), 4 * (g / 4) + 2 * (g % 2) + s }
                    : (loc){ i + 16 * (g / 2), 2 * (g % 2) + s };
}

static loc sp_b(unsigned nl, unsigned K, unsigned bits, unsigned i, unsigned k)
{
    if (nl == 32) {
        if (bits == 4 && K == 64)
            return (loc){ i + 16 * ((k / 16) % 2), 16 * (k / 32) + k % 16 };
        if (bits <= 8)
            return (loc){ i + 16 * (k / 16), k % 16 };
        return (loc){ i + 16 * ((k / 8) % 2), 8 * (k / 16) + k % 8 };
    }
    if (bits == 4) {
        unsigned per = K == 32 ? 8 : 16;
        return (loc){ i + 16 * sw2(k / per), k % per };
    }
    if (bits == 8)
        return (loc){ i + 32 * ((k / 8) % 2) + 16 * (k / 16), 4 * ((k / 4) % 2) + k % 4 };
    return (loc){ i + 16 * (k / 8), k % 8 };
}

static loc sp_idx(unsigned nl, unsigned K, unsigned bits, unsigned i, unsigned ck)
{
    unsigned g = ck / 2, s = ck % 2;
    if (bits == 4)
        return sp_a(nl, K, bits, i, ck); /* the index entries sit where A's nibbles do */
    if (nl == 32)
        return bits == 8 ? (loc){ i + 16 * (ck / 8), ck % 8 }
                         : (loc){ i + 16 * ((g / 2) % 2), 2 * (g % 2) + 4 * (g / 4) + s };
    return (loc){ i + 16 * (bits == 8 ? 2 * ((g / 2) % 2) + g / 4 : g / 2), 2 * (g % 2) + s };
}

static loc out(unsigned nl, unsigned m, unsigned n)
{
    return nl == 32 ? (loc){ n + 16 * (m / 8), m % 8 }
                    : (loc){ n + 16 * ((m / 8) % 2) + 32 * ((m / 4) % 2), m % 4 };
}

/* ------------------------------------------------------------ values */

static uint32_t rng(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

/* small integers as f16 bits */
static uint16_t h_of(int v)
{
    if (v == 0)
        return 0;
    unsigned a = (unsigned)abs(v), e = 0;
    while ((a >> e) > 1)
        e++;
    return (uint16_t)((v < 0 ? 0x8000u : 0) | (e + 15) << 10 | (((a << 10) >> e) & 0x3ff));
}

static double h_val(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
    return (h & 0x8000) ? -v : v;
}

/* an FP8 (E4M3FN) / BF8 (E5M2) code's value (finite codes only) */
static double f8_val(unsigned c, int bf8)
{
    int mb = bf8 ? 2 : 3, bias = bf8 ? 15 : 7;
    int e = (c & 0x7f) >> mb, m = c & ((1 << mb) - 1);
    double v = e ? ldexp((1 << mb) + m, e - bias - mb) : ldexp(m, 1 - bias - mb);
    return (c & 0x80) ? -v : v;
}

/* a random element of format f: its raw bits and value */
static uint32_t gen(uint32_t *s, unsigned f, int sgn, double *v)
{
    uint32_t r = rng(s);
    switch (f) {
    case F_F16: {
        int x = (int)(r % 9) - 4;
        *v = x;
        return h_of(x);
    }
    case F_I8:
        r &= 255;
        *v = sgn ? (int8_t)r : (double)r;
        return r;
    case F_I4:
        r &= 15;
        *v = sgn ? (double)((int)(r ^ 8) - 8) : (double)r;
        return r;
    default:
        r &= 255;
        while ((r & 0x7c) == 0x7c) /* finite in both formats */
            r = rng(s) & 255;
        *v = f8_val(r, f == F_BF8);
        return r;
    }
}

static void put(uint32_t *buf, unsigned stride, loc l, unsigned bits, uint32_t raw)
{
    unsigned bit = l.slot * bits;
    buf[l.lane * stride + bit / 32] |= raw << (bit % 32);
}

/* ------------------------------------------------------------ the runs */

static void run_case(const char *co, const wcase *w, uint32_t seed)
{
    unsigned nl = w->nl, K = w->K, Kc = w->sparse ? K / 2 : K;
    uint32_t *a = calloc(64 * 8, 4), *b = calloc(64 * 8, 4), *c = calloc(64 * 8, 4);
    uint32_t *d = calloc(64 * 8, 4), *x = calloc(64, 4);
    double A[16][32], B[64][16], C[16][16];
    unsigned dk[16][32];
    for (unsigned i = 0; i < 16; i++)
        for (unsigned g = 0; g < Kc / 2; g++) {
            /* the two of four positions this group keeps (ascending), or two dense k */
            static const unsigned pair[6][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 },
                                                 { 1, 2 }, { 1, 3 }, { 2, 3 } };
            unsigned p = rng(&seed) % 6;
            for (unsigned j = 0; j < 2; j++) {
                unsigned ck = 2 * g + j;
                dk[i][ck] = w->sparse ? 4 * g + pair[p][j] : ck;
                if (w->sparse)
                    put(x, 1, sp_idx(nl, K, w->bits, i, ck), 2, pair[p][j]);
                uint32_t raw = gen(&seed, w->fa, w->sa, &A[i][ck]);
                put(a, w->sta,
                    w->sparse ? sp_a(nl, K, w->bits, i, ck) : dense(nl, K, w->bits, i, ck), w->bits,
                    raw);
            }
        }
    for (unsigned k = 0; k < K; k++)
        for (unsigned n = 0; n < 16; n++) {
            uint32_t raw = gen(&seed, w->fb, w->sb, &B[k][n]);
            put(b, w->stb, w->sparse ? sp_b(nl, K, w->bits, n, k) : dense(nl, K, w->bits, n, k),
                w->bits, raw);
        }
    for (unsigned m = 0; m < 16; m++)
        for (unsigned n = 0; n < 16; n++) {
            loc o = out(nl, m, n);
            if (w->out == O_I32) {
                int v = (int)(rng(&seed) % 2000001) - 1000000;
                C[m][n] = v;
                c[o.lane * w->stc + o.slot] = (uint32_t)v;
            } else if (w->out == O_F32) {
                float v = (float)((int)(rng(&seed) % 201) - 100);
                C[m][n] = v;
                memcpy(&c[o.lane * w->stc + o.slot], &v, 4);
            } else {
                int v = (int)(rng(&seed) % 41) - 20;
                C[m][n] = v;
                put(c, w->stc, o, 16, h_of(v));
            }
        }
    struct {
        void *a, *b, *c, *x, *d;
    } args = { a, b, c, x, d };
    rdx_emu_buffer bufs[] = { { a, 64 * 32, RDX_EMU_READ },
                              { b, 64 * 32, RDX_EMU_READ },
                              { c, 64 * 32, RDX_EMU_READ },
                              { x, 64 * 4, RDX_EMU_READ },
                              { d, 64 * 32, RDX_EMU_RW } };
    rdx_emu_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = l.wg[0] = nl;
    l.kernarg = &args;
    l.kernarg_size = sizeof args;
    l.bufs = bufs;
    l.nbufs = 5;
    size_t len;
    uint8_t *elf = (uint8_t *)rdx_test_read_file(co, &len);
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create("gfx1201", &e), RDX_OK);
    ck_assert_msg(rdx_emu_run_codeobj(e, elf, len, w->kernel, &l) == RDX_OK, "%s: %s", w->kernel,
                  rdx_error_message());
    rdx_emu_destroy(e);
    free(elf);
    for (unsigned m = 0; m < 16; m++)
        for (unsigned n = 0; n < 16; n++) {
            double s = C[m][n];
            for (unsigned ck = 0; ck < Kc; ck++)
                s += A[m][ck] * B[dk[m][ck]][n];
            loc o = out(nl, m, n);
            double got;
            if (w->out == O_I32) {
                got = (int32_t)d[o.lane * w->stc + o.slot];
            } else if (w->out == O_F32) {
                float f;
                memcpy(&f, &d[o.lane * w->stc + o.slot], 4);
                got = f;
                s = (float)s;
            } else {
                got = h_val((uint16_t)(d[o.lane * w->stc + o.slot / 2] >> (16 * (o.slot % 2))));
            }
            ck_assert_msg(got == s, "%s wave%u D[%u][%u] (lane %u elem %u): %.17g, want %.17g",
                          w->kernel, nl, m, n, o.lane, o.slot, got, s);
        }
    free(a);
    free(b);
    free(c);
    free(d);
    free(x);
}

static char *compile(const char *src, size_t n, const char *name, int w64)
{
    char cl_name[64], co_name[64];
    snprintf(cl_name, sizeof cl_name, "%s.cl", name);
    snprintf(co_name, sizeof co_name, "%s.co", name);
    char *cl = rdx_test_tmp_path(cl_name), *co = rdx_test_tmp_path(co_name);
    rdx_test_write_file(cl, src, n);
    const char *clang = rdx_test_llvm_tool("clang");
    ck_assert_msg(clang != NULL, "clang-19 not found");
    const char *argv[] = { clang,
                           "-target",
                           "amdgcn-amd-amdhsa",
                           "-mcpu=gfx1201",
                           "-nogpulib",
                           "-O2",
                           w64 ? "-mwavefrontsize64" : "-O2",
                           "-o",
                           co,
                           cl,
                           NULL };
    rdx_test_proc pr;
    rdx_test_run(argv, NULL, 0, &pr);
    ck_assert_msg(pr.status == 0, "clang failed:\n%s", pr.err);
    rdx_test_proc_free(&pr);
    free(cl);
    return co;
}

/* wave32: iu4 WMMA (K 16 and 32) and every SWMMAC input kind */
START_TEST(gfx12_wmma_iu4_swmmac_w32)
{
    static const wcase cases[] = {
        { "iu4", 32, 0, 16, 4, F_I4, F_I4, O_I32, 1, 0, 1, 1, 8 },
        { "iu4k32", 32, 0, 32, 4, F_I4, F_I4, O_I32, 1, 1, 2, 2, 8 },
        { "swf16", 32, 1, 32, 16, F_F16, F_F16, O_F32, 0, 0, 4, 8, 8 },
        { "swf16h", 32, 1, 32, 16, F_F16, F_F16, O_F16, 0, 0, 4, 8, 4 },
        { "swiu8", 32, 1, 32, 8, F_I8, F_I8, O_I32, 1, 0, 2, 4, 8 },
        { "swiu4", 32, 1, 32, 4, F_I4, F_I4, O_I32, 1, 1, 1, 2, 8 },
        { "swiu4k64", 32, 1, 64, 4, F_I4, F_I4, O_I32, 0, 1, 2, 4, 8 },
        { "swfp8", 32, 1, 32, 8, F_FP8, F_BF8, O_F32, 0, 0, 2, 4, 8 },
    };
    char *co = compile(w32_src, sizeof w32_src - 1, "wmma12_w32", 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (uint32_t seed = 1; seed <= 3; seed++)
            run_case(co, &cases[i], seed * 7919u + (uint32_t)i);
    free(co);
}
END_TEST

/* wave64: the dense WMMAs (f16, fp8/bf8, iu8, iu4 K 16 and 32) and SWMMACs */
START_TEST(gfx12_wmma_swmmac_w64)
{
    static const wcase cases[] = {
        { "f16", 64, 0, 16, 16, F_F16, F_F16, O_F32, 0, 0, 2, 2, 4 },
        { "fp8", 64, 0, 16, 8, F_FP8, F_BF8, O_F32, 0, 0, 1, 1, 4 },
        { "iu8", 64, 0, 16, 8, F_I8, F_I8, O_I32, 1, 0, 1, 1, 4 },
        { "iu4", 64, 0, 16, 4, F_I4, F_I4, O_I32, 1, 1, 1, 1, 4 },
        { "iu4k32", 64, 0, 32, 4, F_I4, F_I4, O_I32, 1, 0, 1, 1, 4 },
        { "swf16", 64, 1, 32, 16, F_F16, F_F16, O_F32, 0, 0, 2, 4, 4 },
        { "swfp8", 64, 1, 32, 8, F_BF8, F_FP8, O_F32, 0, 0, 1, 2, 4 },
        { "swiu8", 64, 1, 32, 8, F_I8, F_I8, O_I32, 1, 1, 1, 2, 4 },
        { "swiu4", 64, 1, 32, 4, F_I4, F_I4, O_I32, 1, 1, 1, 1, 4 },
        { "swiu4k64", 64, 1, 64, 4, F_I4, F_I4, O_I32, 1, 0, 1, 2, 4 },
    };
    char *co = compile(w64_src, sizeof w64_src - 1, "wmma12_w64", 1);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (uint32_t seed = 1; seed <= 3; seed++)
            run_case(co, &cases[i], seed * 104729u + (uint32_t)i);
    free(co);
}
END_TEST

/* index_key (op_sel[0], which clang-19's builtins do not expose): the high 16 bits of the
   index VGPR.  v_swmmac_f32_16x16x32_f16 v[10:17], v[20:23], v[24:31], v40 with and
   without index_key:1 (llvm-mc), the index entries of the two halves differing */
START_TEST(gfx12_swmmac_index_key)
{
    /* A: every element 1.0 (f16 0x3c00); B row k holds k + 1 in every column; the index
       entries of the low half select positions (0, 1) of every group, the high half (2, 3) */
    et_case t = { 0 };
    t.target = "gfx1201";
    t.nin = 9; /* v1..v8: B (8 VGPRs), v9: the index */
    for (unsigned l = 0; l < 32; l++) {
        for (unsigned k = 0; k < 32; k++) {
            loc b = sp_b(32, 32, 16, l % 16, k);
            if (b.lane == l)
                t.in[l][b.slot / 2] |= (uint32_t)h_of((int)k + 1) << (16 * (b.slot % 2));
        }
        t.in[l][8] = 0x00004444u | 0xeeee0000u; /* entries 0,1 = (0, 1); high: (2, 3) */
    }
    t.body = "v_mov_b32 v30, 0x3c003c00\n v_mov_b32 v31, 0x3c003c00\n"
             "v_mov_b32 v32, 0x3c003c00\n v_mov_b32 v33, 0x3c003c00\n"
             "v_mov_b32 v10, 0\n v_mov_b32 v11, 0\n v_mov_b32 v12, 0\n v_mov_b32 v13, 0\n"
             "v_mov_b32 v14, 0\n v_mov_b32 v15, 0\n v_mov_b32 v16, 0\n v_mov_b32 v17, 0\n"
             "v_mov_b32 v18, 0\n v_mov_b32 v19, 0\n v_mov_b32 v20, 0\n v_mov_b32 v21, 0\n"
             "v_mov_b32 v22, 0\n v_mov_b32 v23, 0\n v_mov_b32 v24, 0\n v_mov_b32 v25, 0\n"
             "v_swmmac_f32_16x16x32_f16 v[10:17], v[30:33], v[1:8], v9\n"
             "v_swmmac_f32_16x16x32_f16 v[18:25], v[30:33], v[1:8], v9 index_key:1\n";
    t.nout = 16;
    et_ok(&t);
    /* D[m][n] = sum over groups g of B[4g + p0] + B[4g + p1]: low (0,1): sum of (4g+1) +
       (4g+2) = 8g + 3 over g < 8 = 248; high (2,3): 8g + 7 -> 280 */
    for (unsigned l = 0; l < 32; l++)
        for (unsigned v = 0; v < 8; v++) {
            ck_assert_uint_eq(t.out[l][v], et_f(248.0f));
            ck_assert_uint_eq(t.out[l][8 + v], et_f(280.0f));
        }
}
END_TEST

Suite *et_suite_wmma12(void)
{
    Suite *s = suite_create("wmma12");
    TCase *tc = tcase_create("wmma12");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, gfx12_wmma_iu4_swmmac_w32);
    tcase_add_test(tc, gfx12_wmma_swmmac_w64);
    tcase_add_test(tc, gfx12_swmmac_index_key);
    suite_add_tcase(s, tc);
    return s;
}
