/* tests/codegen_front/random_test.c — random graphs of elementwise, movement
 * and reduction ops with broadcasting over random shapes (1, primes, odd
 * sizes) in every dtype class, and symbolic sizes bound to several values;
 * each scheduled, evaluated on the host and compared with the interpreter. */
#include <stdlib.h>
#include <string.h>

#include "tests/codegen_front/cgf_test.h"

static const int64_t sizes[] = { 1, 2, 3, 5, 7, 11, 13 };

static void rand_shape(uint64_t *s, uint32_t *nd, int64_t *d)
{
    *nd = 1 + (uint32_t)(cgf_rand(s) % 3);
    for (uint32_t k = 0; k < *nd; k++)
        d[k] = sizes[cgf_rand(s) % (sizeof sizes / sizeof *sizes)];
}

/* A tensor broadcastable against t: some of t's axes set to 1, maybe fewer leading axes. */
static const rdx_tensor *rand_partner(rdx_graph *g, const rdx_tensor *t, rdx_dtype dt, uint64_t *s)
{
    uint32_t nd = rdx_tensor_ndim(t), drop = (uint32_t)(cgf_rand(s) % (nd + 1));
    int64_t d[4];
    if (drop == nd)
        drop = 0;
    for (uint32_t k = drop; k < nd; k++)
        d[k - drop] = cgf_rand(s) % 3 == 0 ? 1 : rdx_tensor_dim(t, (int)k);
    return cgf_random(g, dt, nd - drop, d, s);
}

static const rdx_tensor *rand_op(rdx_graph *g, const rdx_tensor *t, rdx_dtype dt, uint64_t *s)
{
    uint32_t nd = rdx_tensor_ndim(t);
    int fl = rdx_dtype_is_float(dt);
    int64_t d[4];
    if (nd == 0)
        return rdx_tensor_expand(g, rdx_tensor_reshape(g, t, 1, (int64_t[]){ 1 }), 1,
                                 (int64_t[]){ 5 });
    for (uint32_t k = 0; k < nd; k++)
        d[k] = rdx_tensor_dim(t, (int)k);
    switch (cgf_rand(s) % 11) {
    case 0:
        return rdx_tensor_add(g, t, rand_partner(g, t, dt, s));
    case 1:
        return rdx_tensor_mul(g, t, rand_partner(g, t, dt, s));
    case 2:
        return rdx_tensor_maximum(g, t, rand_partner(g, t, dt, s));
    case 3:
        return fl ? rdx_tensor_neg(g, t) : rdx_tensor_xor(g, t, rand_partner(g, t, dt, s));
    case 4: {
        int order[4] = { 0, 1, 2, 3 };
        for (uint32_t k = nd; k > 1; k--) {
            uint32_t j = (uint32_t)(cgf_rand(s) % k);
            int tmp = order[k - 1];
            order[k - 1] = order[j];
            order[j] = tmp;
        }
        return rdx_tensor_permute(g, t, order);
    }
    case 5: {
        int ax = (int)(cgf_rand(s) % nd);
        return rdx_tensor_flip(g, t, 1, &ax);
    }
    case 6: {
        int64_t b[4], a[4];
        for (uint32_t k = 0; k < nd; k++) {
            b[k] = (int64_t)(cgf_rand(s) % 3);
            a[k] = (int64_t)(cgf_rand(s) % 2);
        }
        return rdx_tensor_pad(g, t, b, a, fl ? 0.5 : 2);
    }
    case 7: {
        int64_t st[4], en[4];
        for (uint32_t k = 0; k < nd; k++) {
            st[k] = d[k] > 2 ? 1 : 0;
            en[k] = d[k] > 3 ? d[k] - 1 : d[k];
        }
        return rdx_tensor_shrink(g, t, st, en);
    }
    case 8: {
        int64_t n = rdx_tensor_numel(t);
        if (n % 2 == 0 && cgf_rand(s) % 2)
            return rdx_tensor_reshape(g, t, 2, (int64_t[]){ 2, n / 2 });
        return rdx_tensor_reshape(g, t, 1, &n);
    }
    case 9: {
        int ax = (int)(cgf_rand(s) % nd);
        if (cgf_rand(s) % 2)
            return rdx_tensor_sum(g, t, 1, &ax, (int)(cgf_rand(s) % 2));
        return rdx_tensor_max(g, t, 1, &ax, 1);
    }
    default: {
        /* broadcast up: a new leading axis of size 3 */
        int64_t e[5];
        e[0] = 3;
        for (uint32_t k = 0; k < nd; k++)
            e[1 + k] = d[k];
        if (nd >= 3)
            return rdx_tensor_sum(g, t, 0, NULL, 0);
        return rdx_tensor_expand(
            g, rdx_tensor_reshape(g, t, nd + 1, (int64_t[]){ 1, d[0], d[1], d[2] }), nd + 1, e);
    }
    }
}

static void random_graphs(rdx_scalar sc, uint64_t seed0, int count, double tol_heur)
{
    for (int it = 0; it < count; it++) {
        uint64_t s = seed0 * 1000 + (uint64_t)it;
        rdx_graph *g = cgf_graph();
        rdx_dtype dt = rdx_dtype_of(sc);
        uint32_t nd;
        int64_t d[4];
        rand_shape(&s, &nd, d);
        const rdx_tensor *t = cgf_random(g, dt, nd, d, &s);
        int nops = 2 + (int)(cgf_rand(&s) % 5);
        for (int k = 0; k < nops && t; k++)
            t = rand_op(g, t, dt, &s);
        ck_assert_msg(t != NULL, "seed %llu: build failed: %s", (unsigned long long)s,
                      rdx_graph_error(g));
        cgf_run r = { 0 };
        cgf_check(g, &t, 1, &r);
        cgf_run h = { 0 };
        h.mode = CGF_HEURISTIC;
        h.tol = tol_heur;
        cgf_check(g, &t, 1, &h);
        rdx_graph_destroy(g);
    }
}

/* Per dtype: its seed, the number of random graphs and the heuristics' tolerance. */
static const struct {
    rdx_scalar dtype;
    uint64_t seed;
    int count;
    double tol_heur;
} random_cases[] = {
    { RDX_FLOAT32, 1, 40, 1e-4 }, { RDX_FLOAT16, 2, 15, 0.05 }, { RDX_BFLOAT16, 3, 15, 0.2 },
    { RDX_INT32, 4, 25, 0 },      { RDX_INT64, 5, 15, 0 },      { RDX_INT8, 6, 10, 0 },
    { RDX_FLOAT64, 7, 10, 1e-9 },
};

START_TEST(random_dtype)
{
    random_graphs(random_cases[_i].dtype, random_cases[_i].seed, random_cases[_i].count,
                  random_cases[_i].tol_heur);
}
END_TEST

START_TEST(dtypes_cast)
{
    /* every scalar dtype through a cast chain and a sum */
    static const rdx_scalar all[] = { RDX_BOOL,   RDX_INT8,    RDX_UINT8,    RDX_INT16,
                                      RDX_UINT16, RDX_INT32,   RDX_UINT32,   RDX_INT64,
                                      RDX_UINT64, RDX_FLOAT16, RDX_BFLOAT16, RDX_FLOAT32,
                                      RDX_FLOAT64 };
    uint64_t seed = 77;
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        rdx_graph *g = cgf_graph();
        rdx_dtype dt = rdx_dtype_of(all[i]);
        const rdx_tensor *x = cgf_random(g, dt, 2, (int64_t[]){ 3, 5 }, &seed);
        const rdx_tensor *f = rdx_tensor_cast(g, x, rdx_dtype_of(RDX_FLOAT32));
        const rdx_tensor *back = rdx_tensor_cast(g, rdx_tensor_muls(g, f, 2), dt);
        const rdx_tensor *roots[2] = { back, rdx_tensor_sum(g, x, 1, (int[]){ 1 }, 0) };
        cgf_run r = { 0 };
        cgf_check(g, roots, 2, &r);
        rdx_graph_destroy(g);
    }
}
END_TEST

START_TEST(symbolic_sizes)
{
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_uop *n = rdx_graph_var(g, "n", 1, 64);
    const rdx_uop *dims[2] = { n, rdx_ir_int(ctx, 3) };
    const rdx_tensor *x = rdx_tensor_empty_sym(g, rdx_dtype_of(RDX_FLOAT32), 2, dims);
    const rdx_tensor *w =
        cgf_random(g, rdx_dtype_of(RDX_FLOAT32), 2, (int64_t[]){ 1, 3 }, &(uint64_t){ 9 });
    const rdx_tensor *y = rdx_tensor_add(g, rdx_tensor_muls(g, x, 2), w);
    const rdx_tensor *roots[4] = {
        y,
        rdx_tensor_sum(g, y, 1, (int[]){ 0 }, 0),
        rdx_tensor_flip(g, rdx_tensor_transpose(g, x, 0, 1), 1, (int[]){ 1 }),
        rdx_tensor_max(g, rdx_tensor_exp2(g, x), 1, (int[]){ 1 }, 1),
    };
    ck_assert_msg(roots[3] != NULL, "%s", rdx_graph_error(g));
    static const int64_t vals[] = { 1, 5, 17, 64 };
    for (size_t i = 0; i < 4; i++) {
        int64_t v = vals[i];
        float *data = malloc((size_t)v * 3 * sizeof *data);
        for (int64_t k = 0; k < v * 3; k++)
            data[k] = (float)((k * 7) % 11) * 0.25f - 1.0f;
        ck_assert_int_eq(rdx_interp_bind(rdx_graph_interp(g), x, data, (size_t)v * 3 * 4), RDX_OK);
        free(data);
        cgf_run r = { 0 };
        r.vars = &n;
        r.varvals = &v;
        r.nvars = 1;
        cgf_check(g, roots, 4, &r);
        cgf_run h = r;
        h.mode = CGF_HEURISTIC;
        cgf_check(g, roots, 4, &h);
    }
    rdx_graph_destroy(g);
}
END_TEST

TCase *cgf_tcase_random(void)
{
    TCase *tc = tcase_create("random");
    tcase_set_timeout(tc, 240);
    tcase_add_loop_test(tc, random_dtype, 0, sizeof random_cases / sizeof random_cases[0]);
    tcase_add_test(tc, dtypes_cast);
    tcase_add_test(tc, symbolic_sizes);
    return tc;
}
