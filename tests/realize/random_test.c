/* tests/realize/random_test.c — random tensor programs on the default device:
 * chains of elementwise, movement and reduction ops with broadcasting over
 * shapes of 1, primes, odd sizes and 257, in float32, float16 and int32, each
 * realized on the device and compared with the interpreter. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/realize/rz_test.h"

static uint64_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* One random op applied to t (2-D) and maybe a fresh operand; never NULL. */
static const rdx_tensor *step(rdx_graph *g, const rdx_tensor *t, rdx_dtype dt, uint64_t *s)
{
    int64_t r = rdx_tensor_dim(t, 0), c = rdx_tensor_dim(t, 1);
    int is_float = rdx_dtype_is_float(dt);
    const rdx_tensor *o;
    switch (rnd(s) % 9) {
    case 0: /* broadcast a row */
        return rdx_tensor_add(g, t, rz_random(g, dt, 1, (int64_t[]){ c }, s));
    case 1: /* broadcast a column */
        return rdx_tensor_mul(g, t, rz_random(g, dt, 2, (int64_t[]){ r, 1 }, s));
    case 2:
        return rdx_tensor_maximum(g, t, rz_random(g, dt, 2, (int64_t[]){ r, c }, s));
    case 3: /* transpose: keeps 2-D */
        return rdx_tensor_transpose(g, t, 0, 1);
    case 4:
        return rdx_tensor_flip(g, t, 1, (int[]){ (int)(rnd(s) % 2) });
    case 5: /* pad then shrink back to a different window */
        o = rdx_tensor_pad(g, t, (int64_t[]){ 1, 2 }, (int64_t[]){ 2, 0 }, 0);
        return rdx_tensor_shrink(g, o, (int64_t[]){ 2, 1 }, (int64_t[]){ r + 2, c + 1 });
    case 6: /* a keepdim reduction broadcast back */
        o = rnd(s) % 2 ? rdx_tensor_sum(g, t, 1, (int[]){ 1 }, 1)
                       : rdx_tensor_max(g, t, 1, (int[]){ 0 }, 1);
        return rdx_tensor_sub(g, t, o);
    case 7:
        return is_float ? rdx_tensor_relu(g, t) : rdx_tensor_adds(g, t, 3);
    default:
        return rdx_tensor_where(g, rdx_tensor_cmplt(g, t, rdx_tensor_const(g, dt, 0)),
                                rdx_tensor_neg(g, t), t);
    }
}

START_TEST(random_graphs)
{
    static const int64_t sizes[] = { 1, 2, 3, 5, 7, 13, 31, 64, 97, 257 };
    static const rdx_scalar dts[] = { RDX_FLOAT32, RDX_INT32, RDX_FLOAT16 };
    uint64_t s = 0x5eed;
    rdx_device *dev = rz_device();
    for (int n = 0; n < 60; n++) {
        rdx_graph *g = rz_graph();
        rdx_dtype dt = rdx_dtype_of(dts[n % 3]);
        int64_t dims[2] = { sizes[rnd(&s) % 10], sizes[rnd(&s) % 10] };
        const rdx_tensor *t = rz_random(g, dt, 2, dims, &s);
        int nops = 2 + (int)(rnd(&s) % 4);
        for (int k = 0; k < nops; k++)
            t = step(g, t, dt, &s);
        /* half of them end in a reduction to fewer dims */
        const rdx_tensor *outs[2] = { t, rdx_tensor_sum(g, t, 1, (int[]){ (int)(n % 2) }, 0) };
        ck_assert_msg(outs[1] != NULL, "graph %d: %s", n, rdx_graph_error(g));
        rdx_realize_options raw = { .raw = 1 };
        double tol = dt.scalar == RDX_FLOAT16 ? 2e-2 : 1e-4;
        rdx_realize_report *rep = rz_check(g, dev, outs, 2, n % 4 == 3 ? &raw : NULL, tol);
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

TCase *rz_tcase_random(void)
{
    TCase *tc = tcase_create("random");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, random_graphs);
    return tc;
}
