/*
 * tests/realize/fp8_test.c — fp8 tensor programs on the emulated gfx1201 (codegen/isel_fp8.c:
 * v_cvt_f32_fp8/bf8, the clamp, v_cvt_pk_fp8/bf8_f32, 1-byte loads and stores) bit-exact
 * against the interpreter: every code to float32/float16/float64/int32/the other fp8, float32
 * edges (saturation, inf, NaN, ties, denormals) and every code's neighbours and midpoints to
 * fp8, float64/int32/float16 to fp8, fp8 arithmetic; on gfx1100 the error names node and target.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/interp.h>
#include <rdx/ir.h>

#include "tests/realize/rz_test.h"

/* Realize roots on dev and with the interpreter: every output byte the same. */
static void check_bits(rdx_graph *g, rdx_device *dev, const rdx_tensor *const *roots, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(roots[i] != NULL, "root %zu: %s", i, rdx_graph_error(g));
    rdx_array got[8], want[8];
    ck_assert(n <= 8);
    ck_assert_msg(rdx_tensor_realize_on(g, dev, roots, n, NULL, got, NULL) == RDX_OK, "%s",
                  rdx_error_message());
    ck_assert_msg(rdx_graph_realize(g, roots, n, want) == RDX_OK, "%s", rdx_error_message());
    for (size_t r = 0; r < n; r++) {
        ck_assert_uint_eq(got[r].dtype.scalar, want[r].dtype.scalar);
        ck_assert_int_eq(got[r].numel, want[r].numel);
        size_t isz = rdx_dtype_itemsize(got[r].dtype);
        for (int64_t i = 0; i < got[r].numel; i++) {
            const uint8_t *a = (const uint8_t *)got[r].data + i * isz,
                          *b = (const uint8_t *)want[r].data + i * isz;
            uint64_t x = 0, y = 0;
            memcpy(&x, a, isz);
            memcpy(&y, b, isz);
            ck_assert_msg(x == y, "root %zu (%s) element %lld: device 0x%llx, interpreter 0x%llx",
                          r, rdx_scalar_name((rdx_scalar)got[r].dtype.scalar), (long long)i,
                          (unsigned long long)x, (unsigned long long)y);
        }
    }
}

static const rdx_scalar fp8s[2] = { RDX_FP8E4M3, RDX_FP8E5M2 };

/* A gfx1201 in-process; a device shared through rdx emu (or a card) keeps its own target, and
   only a gfx12 has the fp8 conversions: on another one these tests say so and stop (the
   in-process runs of make check, and its RDX_EMU_ARCH=gfx1201 run, test them). */
static rdx_device *gfx12_device(void)
{
    rdx_device *dev = rz_device_arch("gfx1201");
    const char *t = rdx_device_get_info(dev)->target;
    if (strncmp(t, "gfx12", 5) != 0) {
        printf("fp8: the device is a %s (shared, not ours to choose), not a gfx12: skipped\n", t);
        rz_device_close(dev);
        return NULL;
    }
    return dev;
}

START_TEST(fp8_from_every_code_gfx1201)
{
    rdx_device *dev = gfx12_device();
    if (!dev)
        return;
    rdx_graph *g = rz_graph();
    uint8_t codes[256];
    for (int k = 0; k < 256; k++)
        codes[k] = (uint8_t)k;
    for (int f = 0; f < 2; f++) {
        rdx_dtype d = rdx_dtype_of(fp8s[f]), o = rdx_dtype_of(fp8s[!f]);
        const rdx_tensor *c = rdx_tensor_from_data(g, d, 1, (int64_t[]){ 256 }, codes);
        const rdx_tensor *roots[] = {
            rdx_tensor_cast(g, c, F32),
            rdx_tensor_cast(g, c, F16),
            rdx_tensor_cast(g, c, rdx_dtype_of(RDX_FLOAT64)),
            rdx_tensor_cast(g, c, I32),
            rdx_tensor_cast(g, c, o),
            rdx_tensor_bitcast(g, c, U8),
        };
        check_bits(g, dev, roots, sizeof roots / sizeof *roots);
    }
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

START_TEST(fp8_to_fp8_edges_gfx1201)
{
    rdx_device *dev = gfx12_device();
    if (!dev)
        return;
    rdx_graph *g = rz_graph();
    enum { N = 256 * 4 + 24 };
    float *x = malloc(N * sizeof *x);
    double *xd = malloc(N * sizeof *xd);
    float *xh = malloc(N * sizeof *xh);
    int32_t iv[N];
    ck_assert(x && xd && xh);
    for (int f = 0; f < 2; f++) {
        rdx_dtype d = rdx_dtype_of(fp8s[f]);
        int n = 0;
        /* every code's value, its float32 neighbours and the midpoint to the next code */
        for (unsigned c = 0; c < 256; c++) {
            double v = rdx_fp8_to_f64((uint8_t)c, fp8s[f]),
                   w = rdx_fp8_to_f64((uint8_t)(c + 1), fp8s[f]);
            x[n++] = (float)v;
            x[n++] = nextafterf((float)v, INFINITY);
            x[n++] = nextafterf((float)v, -INFINITY);
            x[n++] = isfinite(v) && isfinite(w) && (c & 0x7f) != 0x7f ? (float)((v + w) / 2) : 0.5f;
        }
        static const float edge[] = { 449.0f,   464.0f,   465.0f,    1e30f,      -1e30f,
                                      61439.0f, 61440.0f, 65536.0f,  INFINITY,   -INFINITY,
                                      NAN,      -NAN,     0x1p-10f,  -0x1p-10f,  0x3p-10f,
                                      0x1p-17f, 0x3p-17f, 0x1p-149f, -0x1p-149f, 0x1p-126f,
                                      3.4e38f,  -0.0f,    1.0625f,   1.1875f };
        for (size_t k = 0; k < sizeof edge / sizeof *edge; k++)
            x[n++] = edge[k];
        ck_assert_int_eq(n, N);
        for (int k = 0; k < N; k++) {
            xd[k] = (double)x[k] * (1 + 0x1p-30 * (k % 3 - 1)); /* off float32's grid */
            iv[k] = (int32_t)(k * 97 % 2000) - 1000;
            /* the interpreter's float16 NaN is positive, the device's keeps its sign (not an
               fp8 matter): no NaN through float16 */
            xh[k] = isnan(x[k]) ? 1.0f : x[k];
        }
        const rdx_tensor *t = rdx_tensor_from_data(g, F32, 1, (int64_t[]){ N }, x);
        const rdx_tensor *td =
            rdx_tensor_from_data(g, rdx_dtype_of(RDX_FLOAT64), 1, (int64_t[]){ N }, xd);
        const rdx_tensor *ti = rdx_tensor_from_data(g, I32, 1, (int64_t[]){ N }, iv);
        const rdx_tensor *th = rdx_tensor_from_data(g, F32, 1, (int64_t[]){ N }, xh);
        const rdx_tensor *roots[] = {
            rdx_tensor_cast(g, t, d),
            rdx_tensor_cast(g, td, d),
            rdx_tensor_cast(g, ti, d),
            rdx_tensor_cast(g, rdx_tensor_cast(g, th, F16), d),
        };
        check_bits(g, dev, roots, sizeof roots / sizeof *roots);
    }
    free(x);
    free(xd);
    free(xh);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

/* fp8 + fp8 and fp8 * fp8 (in float32, rounded back: saturating), a compare, a where */
START_TEST(fp8_arith_gfx1201)
{
    rdx_device *dev = gfx12_device();
    if (!dev)
        return;
    rdx_graph *g = rz_graph();
    uint8_t a[256], b[256];
    for (int k = 0; k < 256; k++)
        a[k] = (uint8_t)k, b[k] = (uint8_t)(k * 37 + 11);
    for (int f = 0; f < 2; f++) {
        rdx_dtype d = rdx_dtype_of(fp8s[f]);
        const rdx_tensor *x = rdx_tensor_from_data(g, d, 1, (int64_t[]){ 256 }, a);
        const rdx_tensor *y = rdx_tensor_from_data(g, d, 1, (int64_t[]){ 256 }, b);
        const rdx_tensor *roots[] = {
            rdx_tensor_add(g, x, y),
            rdx_tensor_mul(g, x, y),
            rdx_tensor_cast(g, rdx_tensor_cmplt(g, x, y), I32),
            rdx_tensor_where(g, rdx_tensor_cmplt(g, x, y), x, y),
        };
        check_bits(g, dev, roots, sizeof roots / sizeof *roots);
    }
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

/* gfx11 has no fp8 conversions: realize fails, the message names the node and the target */
START_TEST(fp8_gfx1100_is_an_error)
{
    rdx_device *dev = rz_device_arch("gfx1100");
    rdx_graph *g = rz_graph();
    float x[4] = { 1, 2, 3, 4 };
    const rdx_tensor *t = rdx_tensor_cast(g, rdx_tensor_from_data(g, F32, 1, (int64_t[]){ 4 }, x),
                                          rdx_dtype_of(RDX_FP8E4M3));
    rdx_array got;
    ck_assert_int_eq(rdx_tensor_realize_on(g, dev, &t, 1, NULL, &got, NULL), RDX_ERR_UNSUPPORTED);
    const char *m = rdx_error_message();
    ck_assert_msg(strstr(m, "node #") && strstr(m, "CAST fp8e4m3") && strstr(m, "gfx1100"), "%s",
                  m);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

TCase *rz_tcase_fp8(void)
{
    TCase *tc = tcase_create("fp8");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, fp8_from_every_code_gfx1201);
    tcase_add_test(tc, fp8_to_fp8_edges_gfx1201);
    tcase_add_test(tc, fp8_arith_gfx1201);
    tcase_add_test(tc, fp8_gfx1100_is_an_error);
    return tc;
}
