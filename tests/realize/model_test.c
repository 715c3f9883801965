/* tests/realize/model_test.c — a two-layer MLP's forward and backward pass
 * (gradients from the tensor API) realized on the default device: every
 * output against the interpreter, and the loss against a plain C forward
 * pass; with the heuristics, raw kernels, and BEAM. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/realize/rz_test.h"

enum { NB = 16, NI = 64, NH = 32, NO = 10 };

typedef struct mlp {
    float x[NB * NI], w1[NI * NH], b1[NH], w2[NH * NO], b2[NO];
    int32_t tgt[NB];
    const rdx_tensor *roots[5]; /* loss, dw1, db1, dw2, db2 */
} mlp;

static void fill(float *p, size_t n, uint64_t *s, float scale)
{
    for (size_t i = 0; i < n; i++) {
        *s = *s * 6364136223846793005ull + 1442695040888963407ull;
        p[i] = scale * ((float)((*s >> 33) % 2001) / 1000.0f - 1.0f);
    }
}

static void build(rdx_graph *g, mlp *m, uint64_t seed)
{
    fill(m->x, NB * NI, &seed, 1.0f);
    fill(m->w1, NI * NH, &seed, 0.2f);
    fill(m->b1, NH, &seed, 0.1f);
    fill(m->w2, NH * NO, &seed, 0.3f);
    fill(m->b2, NO, &seed, 0.1f);
    for (int i = 0; i < NB; i++)
        m->tgt[i] = (i * 7 + 3) % NO;
    const rdx_tensor *x = rdx_tensor_from_data(g, F32, 2, (int64_t[]){ NB, NI }, m->x);
    const rdx_tensor *w1 = rdx_tensor_from_data(g, F32, 2, (int64_t[]){ NI, NH }, m->w1);
    const rdx_tensor *b1 = rdx_tensor_from_data(g, F32, 1, (int64_t[]){ NH }, m->b1);
    const rdx_tensor *w2 = rdx_tensor_from_data(g, F32, 2, (int64_t[]){ NH, NO }, m->w2);
    const rdx_tensor *b2 = rdx_tensor_from_data(g, F32, 1, (int64_t[]){ NO }, m->b2);
    const rdx_tensor *t = rdx_tensor_from_data(g, I32, 1, (int64_t[]){ NB }, m->tgt);
    const rdx_tensor *h = rdx_tensor_relu(g, rdx_tensor_add(g, rdx_tensor_matmul(g, x, w1), b1));
    const rdx_tensor *logits = rdx_tensor_add(g, rdx_tensor_matmul(g, h, w2), b2);
    const rdx_tensor *loss = rdx_tensor_cross_entropy(g, logits, t);
    ck_assert_msg(loss != NULL, "%s", rdx_graph_error(g));
    const rdx_tensor *params[4] = { w1, b1, w2, b2 }, *grads[4];
    ck_assert_int_eq(rdx_gradient(g, loss, params, 4, grads), RDX_OK);
    m->roots[0] = loss;
    for (int k = 0; k < 4; k++)
        m->roots[k + 1] = grads[k];
}

/* The loss computed in plain C (double precision). */
static double host_loss(const mlp *m)
{
    double total = 0;
    for (int b = 0; b < NB; b++) {
        double h[NH], z[NO], mx = -INFINITY, se = 0;
        for (int j = 0; j < NH; j++) {
            double s = m->b1[j];
            for (int i = 0; i < NI; i++)
                s += (double)m->x[b * NI + i] * m->w1[i * NH + j];
            h[j] = s > 0 ? s : 0;
        }
        for (int o = 0; o < NO; o++) {
            double s = m->b2[o];
            for (int j = 0; j < NH; j++)
                s += h[j] * m->w2[j * NO + o];
            z[o] = s;
            mx = s > mx ? s : mx;
        }
        for (int o = 0; o < NO; o++)
            se += exp(z[o] - mx);
        total += -(z[m->tgt[b]] - mx - log(se));
    }
    return total / NB;
}

static void run(const rdx_realize_options *o, uint64_t seed)
{
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    mlp *m = calloc(1, sizeof *m);
    build(g, m, seed);
    rdx_realize_report *rep = rz_check(g, dev, m->roots, 5, o, 1e-4);
    ck_assert_uint_ge(rep->nkernels, 4);
    rdx_realize_report_free(rep);
    rdx_array out;
    ck_assert_int_eq(rdx_tensor_realize_on(g, dev, m->roots, 1, o, &out, NULL), RDX_OK);
    ck_assert_int_eq(out.numel, 1);
    ck_assert_float_eq_tol(((float *)out.data)[0], host_loss(m), 1e-4);
    free(m);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}

START_TEST(mlp_heuristic)
{
    run(NULL, 11);
}
END_TEST

START_TEST(mlp_raw)
{
    rdx_realize_options o = { .raw = 1 };
    run(&o, 12);
}
END_TEST

START_TEST(mlp_profile_isa)
{
    rdx_realize_options o = { .profile = 1, .keep_isa = 1 };
    run(&o, 13);
}
END_TEST

/* examples/mlp (make examples): the README's MLP runs and checks itself against the
 * interpreter; a mismatch exits 1 */
START_TEST(example_program)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/examples/mlp", rdx_test_build_dir());
    const char *argv[] = { path, "8", NULL };
    rdx_test_proc p;
    rdx_test_run(argv, NULL, 0, &p);
    ck_assert_msg(p.status == 0, "%s%s", p.out, p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "loss    matches the interpreter (1 elements)"));
    ck_assert_ptr_nonnull(strstr(p.out, "dL/dw1  matches the interpreter (2048 elements)"));
    ck_assert_ptr_nonnull(strstr(p.out, "dL/db2  matches the interpreter (10 elements)"));
    ck_assert_ptr_nonnull(strstr(p.out, "memory plan"));
    ck_assert_ptr_nonnull(strstr(p.out, "-- generated ISA"));
    rdx_test_proc_free(&p);
}
END_TEST

TCase *rz_tcase_model(void)
{
    TCase *tc = tcase_create("model");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, mlp_heuristic);
    tcase_add_test(tc, mlp_raw);
    tcase_add_test(tc, mlp_profile_isa);
    tcase_add_test(tc, example_program);
    return tc;
}
