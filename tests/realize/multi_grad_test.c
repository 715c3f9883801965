/*
 * tests/realize/multi_grad_test.c — gradients through the collectives
 * (ir/grad: a COPY's gradient goes back to its source's device, the spec's
 * collectives are compositions of differentiable ops, as tinygrad computes
 * them on the logical graph): a data-parallel linear model, the batch X
 * sharded over 2 GPUs and the weights W broadcast to both, the loss summed
 * over the shard axis.  The gradients of X and W realized across the 2 GPUs
 * equal the interpreter's and the same model's gradients on one device.
 */
#include <stdlib.h>
#include <string.h>

#include <rdx/realize_multi.h>

#include "tests/realize/rz_test.h"

static const char *const ONE[1] = { "AMD:0" };
static const char *const TWO[2] = { "AMD:0", "AMD:1" };

/* loss = sum_i relu(sum_j X[i,j] * W[j]) * (i + 1); X on devs (sharded when 2), W broadcast to
 * them; grads of X and W into gx, gw. */
static void model(rdx_graph *g, const char *const *devs, size_t n, const float *xd, const float *wd,
                  const rdx_tensor **gx, const rdx_tensor **gw)
{
    const rdx_tensor *x = rdx_tensor_from_data_on(g, F32, 2, (int64_t[]){ 8, 4 }, xd, devs, n);
    const rdx_tensor *w = rdx_tensor_from_data(g, F32, 1, (int64_t[]){ 4 }, wd);
    const rdx_tensor *wb =
        n > 1 ? rdx_tensor_broadcast(g, w, devs, n) : rdx_tensor_copy(g, w, devs, 1);
    float scale[8];
    for (int i = 0; i < 8; i++)
        scale[i] = (float)(i + 1);
    const rdx_tensor *s = rdx_tensor_from_data_on(g, F32, 1, (int64_t[]){ 8 }, scale, devs, n);
    int ax1 = 1, ax0 = 0;
    const rdx_tensor *pred = rdx_tensor_sum(g, rdx_tensor_mul(g, x, wb), 1, &ax1, 0);
    const rdx_tensor *loss =
        rdx_tensor_sum(g, rdx_tensor_mul(g, rdx_tensor_relu(g, pred), s), 1, &ax0, 0);
    ck_assert_msg(loss != NULL, "%s", rdx_graph_error(g));
    const rdx_tensor *params[2] = { x, w }, *grads[2];
    rdx_status st = rdx_gradient(g, loss, params, 2, grads);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    *gx = grads[0];
    *gw = grads[1];
}

START_TEST(gradients_through_collectives)
{
    rdx_device *d[2];
    rdx_device_options o = { .kind = RDX_DEVICE_EMU, .quiet = true, .emu_gpus = 2 };
    ck_assert_int_eq(rdx_device_open_all(&o, 2, d), RDX_OK);
    float xd[32], wd[4] = { 0.5f, -1.0f, 2.0f, 0.25f };
    for (int i = 0; i < 32; i++)
        xd[i] = (float)((i * 7) % 11) - 5;
    /* two devices: realized across them, and by the interpreter */
    rdx_graph *g2 = rz_graph();
    const rdx_tensor *g2x, *g2w;
    model(g2, TWO, 2, xd, wd, &g2x, &g2w);
    ck_assert_int_eq(g2x->axis, 0); /* X's gradient is sharded as X is */
    const rdx_tensor *roots[2] = { g2x, g2w };
    rdx_array multi[2], interp[2], one[2];
    rdx_realize_multi_result *res;
    rdx_status st = rdx_tensor_realize_multi(g2, d, 2, roots, 2, NULL, multi, &res);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    ck_assert_uint_ge(res->parts[1], 1); /* GPU 1 computed its shard of X's gradient */
    rdx_realize_multi_result_free(res);
    ck_assert_int_eq(rdx_graph_realize(g2, roots, 2, interp), RDX_OK);
    /* one device: the same model, realized on GPU 0 */
    rdx_graph *g1 = rz_graph();
    const rdx_tensor *g1x, *g1w;
    model(g1, ONE, 1, xd, wd, &g1x, &g1w);
    const rdx_tensor *roots1[2] = { g1x, g1w };
    st = rdx_tensor_realize_on(g1, d[0], roots1, 2, NULL, one, NULL);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    for (int k = 0; k < 2; k++) {
        int64_t first;
        ck_assert_int_eq(multi[k].numel, k ? 4 : 32);
        ck_assert_msg(rdx_realize_compare(&interp[k], &multi[k], 1e-6, &first) == 0,
                      "grad %d element %lld vs the interpreter", k, (long long)first);
        ck_assert_msg(rdx_realize_compare(&one[k], &multi[k], 1e-6, &first) == 0,
                      "grad %d element %lld vs one device", k, (long long)first);
    }
    /* dloss/dW[j] = sum_i [pred_i > 0] (i + 1) X[i,j]: a value of the host */
    for (int j = 0; j < 4; j++) {
        double want = 0;
        for (int i = 0; i < 8; i++) {
            double p = 0;
            for (int k = 0; k < 4; k++)
                p += (double)xd[i * 4 + k] * wd[k];
            if (p > 0)
                want += (i + 1) * (double)xd[i * 4 + j];
        }
        ck_assert_double_eq_tol(((const float *)multi[1].data)[j], want, 1e-4);
    }
    rdx_graph_destroy(g1);
    rdx_graph_destroy(g2);
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(rdx_device_close(d[i]), RDX_OK);
}
END_TEST

TCase *rz_tcase_multi_grad(void)
{
    TCase *tc = tcase_create("multi_grad");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, gradients_through_collectives);
    return tc;
}
