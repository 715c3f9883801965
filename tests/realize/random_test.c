/* tests/realize/random_test.c — random tensor programs on the default device:
 * chains of elementwise, movement and reduction ops with broadcasting over
 * shapes of 1, primes, odd sizes and 257, in every dtype (bool, int8..uint64,
 * float16, bfloat16, float32, float64), and graphs over a symbolic size bound
 * to several values; each realized on the device and compared with the
 * interpreter.  fuzz/fuzz_realize.c is the long-running version. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/realize/rz_test.h"

static uint64_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

static const rdx_scalar all_dts[] = { RDX_FLOAT32, RDX_INT32,    RDX_FLOAT16, RDX_BOOL,   RDX_INT8,
                                      RDX_UINT8,   RDX_INT16,    RDX_UINT16,  RDX_UINT32, RDX_INT64,
                                      RDX_UINT64,  RDX_BFLOAT16, RDX_FLOAT64 };
#define NDTS (sizeof all_dts / sizeof *all_dts)

/* Relative float tolerance: the interpreter rounds every partial sum to the dtype. */
static double tol_of(rdx_dtype dt)
{
    switch (dt.scalar) {
    case RDX_FLOAT16:
        return 2e-2;
    case RDX_BFLOAT16:
        return 1e-1;
    case RDX_FLOAT64:
        return 1e-9;
    default:
        return 1e-4;
    }
}

/* An elementwise op of t's dtype class with a fresh operand o of t's dtype. */
static const rdx_tensor *mix_op(rdx_graph *g, const rdx_tensor *t, const rdx_tensor *o,
                                rdx_dtype dt, uint64_t *s)
{
    int is_float = rdx_dtype_is_float(dt), is_bool = dt.scalar == RDX_BOOL;
    switch (rnd(s) % 3) {
    case 0:
        return is_bool ? rdx_tensor_xor(g, t, o) : rdx_tensor_add(g, t, o);
    case 1:
        return is_bool ? rdx_tensor_and(g, t, o) : rdx_tensor_mul(g, t, o);
    default:
        if (is_float || is_bool)
            return rdx_tensor_maximum(g, t, o);
        /* integer division and modulo by constants: multiply-high sequences per width */
        return rnd(s) % 2 ? rdx_tensor_idiv(g, t, rdx_tensor_const(g, dt, 7))
                          : rdx_tensor_mod(g, t, rdx_tensor_const(g, dt, 10));
    }
}

/* One random op applied to t (2-D) and maybe a fresh operand; never NULL. */
static const rdx_tensor *step(rdx_graph *g, const rdx_tensor *t, rdx_dtype dt, uint64_t *s)
{
    int64_t r = rdx_tensor_dim(t, 0), c = rdx_tensor_dim(t, 1);
    int is_float = rdx_dtype_is_float(dt), is_bool = dt.scalar == RDX_BOOL;
    const rdx_tensor *o;
    switch (rnd(s) % 9) {
    case 0: /* broadcast a row */
        return mix_op(g, t, rz_random(g, dt, 1, (int64_t[]){ c }, s), dt, s);
    case 1: /* broadcast a column */
        return mix_op(g, t, rz_random(g, dt, 2, (int64_t[]){ r, 1 }, s), dt, s);
    case 2:
        return rdx_tensor_maximum(g, t, rz_random(g, dt, 2, (int64_t[]){ r, c }, s));
    case 3: /* transpose: keeps 2-D */
        return rdx_tensor_transpose(g, t, 0, 1);
    case 4:
        return rdx_tensor_flip(g, t, 1, (int[]){ (int)(rnd(s) % 2) });
    case 5: /* pad then shrink back to a different window */
        o = rdx_tensor_pad(g, t, (int64_t[]){ 1, 2 }, (int64_t[]){ 2, 0 }, is_bool ? 1 : 0);
        return rdx_tensor_shrink(g, o, (int64_t[]){ 2, 1 }, (int64_t[]){ r + 2, c + 1 });
    case 6: /* a keepdim reduction broadcast back */
        if (is_bool)
            return rdx_tensor_xor(g, t, rdx_tensor_max(g, t, 1, (int[]){ 1 }, 1));
        o = rnd(s) % 2 ? rdx_tensor_sum(g, t, 1, (int[]){ 1 }, 1)
                       : rdx_tensor_max(g, t, 1, (int[]){ 0 }, 1);
        return rdx_tensor_sub(g, t, o);
    case 7:
        return is_bool    ? rdx_tensor_not(g, t)
               : is_float ? rdx_tensor_relu(g, t)
                          : rdx_tensor_adds(g, t, 3);
    default:
        if (is_bool)
            return rdx_tensor_where(g, t, rz_random(g, dt, 2, (int64_t[]){ r, c }, s),
                                    rdx_tensor_not(g, t));
        return rdx_tensor_where(g, rdx_tensor_cmplt(g, t, rdx_tensor_const(g, dt, 0)),
                                rdx_tensor_neg(g, t), t);
    }
}

START_TEST(random_graphs)
{
    static const int64_t sizes[] = { 1, 2, 3, 5, 7, 13, 31, 64, 97, 257 };
    uint64_t s = 0x5eed;
    rdx_device *dev = rz_device();
    for (int n = 0; n < 130; n++) {
        rdx_graph *g = rz_graph();
        rdx_dtype dt = rdx_dtype_of(all_dts[n % NDTS]);
        int64_t dims[2] = { sizes[rnd(&s) % 10], sizes[rnd(&s) % 10] };
        const rdx_tensor *t = rz_random(g, dt, 2, dims, &s);
        int nops = 2 + (int)(rnd(&s) % 4);
        for (int k = 0; k < nops; k++)
            t = step(g, t, dt, &s);
        /* half of them end in a reduction to fewer dims */
        const rdx_tensor *outs[2] = { t, rdx_tensor_sum(g, t, 1, (int[]){ (int)(n % 2) }, 0) };
        ck_assert_msg(outs[1] != NULL, "graph %d: %s", n, rdx_graph_error(g));
        rdx_realize_options raw = { .raw = 1 };
        rdx_realize_report *rep = rz_check(g, dev, outs, 2, n % 4 == 3 ? &raw : NULL, tol_of(dt));
        if (getenv("RZ_DEBUG"))
            fprintf(stderr, "graph %d: %s %lldx%lld, %d ops, %zu kernels\n", n,
                    rdx_dtype_str(dt, (char[32]){ 0 }, 32), (long long)dims[0], (long long)dims[1],
                    nops, rep->nkernels);
        rdx_realize_report_free(rep);
        rdx_graph_destroy(g);
    }
    rz_device_close(dev);
}
END_TEST

/* Graphs over x of shape (n, c) or (c, n) with a symbolic n, each bound to 1, a prime and
   a larger value; broadcast partners have size 1 on the symbolic axis. */
START_TEST(random_symbolic)
{
    static const int64_t cs[] = { 1, 3, 5, 16, 33 };
    static const int64_t vals[] = { 1, 13, 200 };
    uint64_t s = 0x5ca1e;
    rdx_device *dev = rz_device();
    for (int n = 0; n < 26; n++) {
        rdx_graph *g = rz_graph();
        rdx_dtype dt = rdx_dtype_of(all_dts[(n * 5) % NDTS]);
        int is_bool = dt.scalar == RDX_BOOL;
        const rdx_uop *var = rdx_graph_var(g, "n", 1, 256);
        int64_t c = cs[rnd(&s) % 5];
        int sax = (int)(rnd(&s) % 2);
        const rdx_uop *dims[2];
        dims[sax] = var;
        dims[1 - sax] = rdx_ir_int(rdx_graph_ir(g), c);
        const rdx_tensor *x = rdx_tensor_empty_sym(g, dt, 2, dims);
        int64_t pd[2] = { 1, 1 };
        pd[1 - sax] = c;
        const rdx_tensor *t = x;
        int nops = 2 + (int)(rnd(&s) % 3);
        for (int k = 0; k < nops; k++) {
            switch (rnd(&s) % 5) {
            case 0:
                t = mix_op(g, t, rz_random(g, dt, 2, pd, &s), dt, &s);
                break;
            case 1:
                t = rdx_tensor_flip(g, t, 1, (int[]){ (int)(rnd(&s) % 2) });
                break;
            case 2: /* reduce over the symbolic axis, broadcast back */
                t = is_bool ? rdx_tensor_xor(
                                  g, t,
                                  (rnd(&s) % 2 ? rdx_tensor_min : rdx_tensor_max)(g, t, 1, &sax, 1))
                            : rdx_tensor_sub(g, t, rdx_tensor_sum(g, t, 1, &sax, 1));
                break;
            case 3:
                t = is_bool ? rdx_tensor_not(g, t) : rdx_tensor_adds(g, t, 2);
                break;
            default:
                t = rdx_tensor_maximum(g, t, rz_random(g, dt, 2, pd, &s));
                break;
            }
        }
        /* a sum, and a MIN over the symbolic axis (a loop of unknown trip count) */
        const rdx_tensor *outs[3] = { t, rdx_tensor_sum(g, t, 1, (int[]){ (int)(rnd(&s) % 2) }, 0),
                                      rdx_tensor_min(g, t, 1, &sax, 0) };
        ck_assert_msg(outs[2] != NULL, "symbolic graph %d: %s", n, rdx_graph_error(g));
        for (size_t v = 0; v < 3; v++) {
            int64_t val = vals[v];
            void *data = rz_random_data(dt, val * c, &s);
            ck_assert_int_eq(rdx_interp_bind(rdx_graph_interp(g), x, data,
                                             (size_t)(val * c) * rdx_dtype_itemsize(dt)),
                             RDX_OK);
            free(data);
            ck_assert_int_eq(rdx_interp_bind_var(rdx_graph_interp(g), var, val), RDX_OK);
            const char *names[1] = { "n" };
            rdx_realize_options o = { .var_names = names, .var_values = &val, .nvars = 1 };
            o.raw = (int)(v == 1 && n % 2);
            rz_check_free(g, dev, outs, 3, &o, tol_of(dt));
        }
        rdx_graph_destroy(g);
    }
    rz_device_close(dev);
}
END_TEST

TCase *rz_tcase_random(void)
{
    TCase *tc = tcase_create("random");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, random_graphs);
    tcase_add_test(tc, random_symbolic);
    return tc;
}
