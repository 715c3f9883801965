/* tests/realize/rz_util.c — device, random tensors, and the comparison of a
 * device realization with the interpreter's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/realize/rz_test.h"

static rdx_device_stats base;

rdx_device *rz_device(void)
{
    return rz_device_arch(NULL);
}

rdx_device *rz_device_arch(const char *arch)
{
    rdx_device_options o;
    memset(&o, 0, sizeof o);
    o.kind = RDX_DEVICE_AUTO;
    o.quiet = true;
    o.emu_arch = arch;
    rdx_device *dev = NULL;
    ck_assert_msg(rdx_device_open(&o, &dev) == RDX_OK, "%s", rdx_error_message());
    /* the device makes its own copy queue and staging buffer on the first upload */
    rdx_buffer *b = NULL;
    uint32_t word = 1;
    ck_assert_int_eq(rdx_buffer_alloc(dev, 256, RDX_MEM_DEVICE, &b), RDX_OK);
    ck_assert_int_eq(rdx_buffer_upload(b, 0, &word, 4), RDX_OK);
    rdx_buffer_free(b);
    rdx_device_get_stats(dev, &base);
    return dev;
}

void rz_device_close(rdx_device *dev)
{
    rdx_device_stats s;
    rdx_device_get_stats(dev, &s);
    ck_assert_uint_eq(s.buffers, base.buffers);
    ck_assert_uint_eq(s.programs, base.programs);
    ck_assert_uint_eq(s.queues, base.queues);
    ck_assert_uint_eq(s.bytes_in_use, base.bytes_in_use);
    ck_assert_int_eq(rdx_device_close(dev), RDX_OK);
}

rdx_graph *rz_graph(void)
{
    rdx_graph *g = NULL;
    ck_assert_int_eq(rdx_graph_create(&g, NULL), RDX_OK);
    return g;
}

static uint64_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

void *rz_random_data(rdx_dtype dt, int64_t n, uint64_t *seed)
{
    size_t isz = rdx_dtype_itemsize(dt);
    uint8_t *p = calloc((size_t)n + 1, isz);
    ck_assert_ptr_nonnull(p);
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = next(seed);
        double f = (double)(r % 4096) / 1024.0 - 2.0;
        int64_t v = (int64_t)(r % 19) - 9;
        switch (dt.scalar) {
        case RDX_FLOAT32: {
            float x = (float)f;
            memcpy(p + 4 * i, &x, 4);
            break;
        }
        case RDX_FLOAT16: {
            uint16_t h = rdx_f64_to_f16(f);
            memcpy(p + 2 * i, &h, 2);
            break;
        }
        case RDX_INT32: {
            int32_t x = (int32_t)v;
            memcpy(p + 4 * i, &x, 4);
            break;
        }
        case RDX_INT64:
            memcpy(p + 8 * i, &v, 8);
            break;
        case RDX_UINT8:
            p[i] = (uint8_t)(r & 0xff);
            break;
        case RDX_BOOL:
            p[i] = (uint8_t)(r & 1);
            break;
        case RDX_BFLOAT16: {
            uint16_t h = rdx_f64_to_bf16(f);
            memcpy(p + 2 * i, &h, 2);
            break;
        }
        case RDX_FLOAT64:
            memcpy(p + 8 * i, &f, 8);
            break;
        case RDX_INT8:
        case RDX_INT16:
        case RDX_UINT16:
        case RDX_UINT32:
        case RDX_UINT64:
            memcpy(p + isz * i, &v, isz); /* the low bytes (little-endian): negatives wrap */
            break;
        default:
            ck_abort_msg("rz_random: dtype %u not handled", dt.scalar);
        }
    }
    return p;
}

const rdx_tensor *rz_random(rdx_graph *g, rdx_dtype dt, uint32_t nd, const int64_t *dims,
                            uint64_t *seed)
{
    int64_t n = 1;
    for (uint32_t k = 0; k < nd; k++)
        n *= dims[k];
    uint8_t *p = rz_random_data(dt, n, seed);
    const rdx_tensor *t = rdx_tensor_from_data(g, dt, nd, dims, p);
    free(p);
    ck_assert_msg(t != NULL, "%s", rdx_graph_error(g));
    return t;
}

/* Element i of an array as raw bits (integers) or a double (floats), read independently of
 * rdx_array_get: the dtype's own C type. */
static double as_double(const rdx_array *a, int64_t i)
{
    const uint8_t *p = (const uint8_t *)a->data + (size_t)i * rdx_dtype_itemsize(a->dtype);
    switch (a->dtype.scalar) {
    case RDX_FLOAT32: {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    case RDX_FLOAT64: {
        double d;
        memcpy(&d, p, 8);
        return d;
    }
    case RDX_FLOAT16: {
        uint16_t h;
        memcpy(&h, p, 2);
        return rdx_f16_to_f64(h);
    }
    case RDX_BFLOAT16: {
        uint16_t h;
        memcpy(&h, p, 2);
        return rdx_bf16_to_f64(h);
    }
    default:
        return 0;
    }
}

rdx_realize_report *rz_check(rdx_graph *g, rdx_device *dev, const rdx_tensor *const *roots,
                             size_t n, const rdx_realize_options *opt, double rtol)
{
    rdx_array *got = calloc(n, sizeof *got), *want = calloc(n, sizeof *want);
    ck_assert_ptr_nonnull(got);
    ck_assert_ptr_nonnull(want);
    rdx_realize_report *rep = NULL;
    ck_assert_msg(rdx_tensor_realize_on(g, dev, roots, n, opt, got, &rep) == RDX_OK, "%s",
                  rdx_error_message());
    ck_assert_ptr_nonnull(rep);
    ck_assert_msg(rdx_graph_realize(g, roots, n, want) == RDX_OK, "%s", rdx_error_message());
    for (size_t r = 0; r < n; r++) {
        ck_assert_uint_eq(got[r].dtype.scalar, want[r].dtype.scalar);
        ck_assert_uint_eq(got[r].ndim, want[r].ndim);
        for (uint32_t d = 0; d < got[r].ndim; d++)
            ck_assert_int_eq(got[r].dims[d], want[r].dims[d]);
        ck_assert_int_eq(got[r].numel, want[r].numel);
        size_t isz = rdx_dtype_itemsize(got[r].dtype);
        int is_float = rdx_dtype_is_float(got[r].dtype);
        for (int64_t i = 0; i < got[r].numel; i++) {
            if (!is_float) {
                ck_assert_msg(!memcmp((uint8_t *)got[r].data + i * isz,
                                      (uint8_t *)want[r].data + i * isz, isz),
                              "output %zu element %lld differs from the interpreter", r,
                              (long long)i);
                continue;
            }
            double a = as_double(&want[r], i), b = as_double(&got[r], i);
            double tol = rtol * (fabs(a) > 1 ? fabs(a) : 1);
            ck_assert_msg((isnan(a) && isnan(b)) || a == b || fabs(a - b) <= tol,
                          "output %zu element %lld: device %.9g, interpreter %.9g", r, (long long)i,
                          b, a);
        }
    }
    free(got);
    free(want);
    return rep;
}

void rz_check_free(rdx_graph *g, rdx_device *dev, const rdx_tensor *const *roots, size_t n,
                   const rdx_realize_options *opt, double rtol)
{
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(roots[i] != NULL, "build of root %zu: %s", i, rdx_graph_error(g));
    rdx_realize_report_free(rz_check(g, dev, roots, n, opt, rtol));
}

void rz_check_cases(rdx_graph *g, rdx_device *dev, const rz_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(cases[i].t != NULL, "case %zu: %s", i, rdx_graph_error(g));
        rz_check_free(g, dev, &cases[i].t, 1, NULL, cases[i].rtol);
    }
}
