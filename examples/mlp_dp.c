/*
 * examples/mlp_dp.c — one data-parallel training step of the MLP of
 * examples/mlp.c on 4 GPUs (real cards of one machine, else 4 emulated
 * gfx1100s), checked against the same step on one GPU and in the reference
 * interpreter.
 *
 *   each GPU i: the forward and backward pass on its quarter of the batch
 *               (8 of 32 rows), realized on its own device and queue
 *   all GPUs:   the four gradients allreduced (rdx_allreduce: a ring of peer
 *               copies and reduction kernels, each GPU moving 2(N-1)/N of them)
 *   each GPU i: the SGD update w -= lr/4 * sum of the gradients, realized on it
 *
 * The batch mean of the loss is the mean of the four shards' means (equal
 * shards), so the update equals the full-batch step's.  The gradients pass
 * through host memory between a device's realization and the allreduce
 * (rdx_tensor_realize_on hands results back as host arrays); the allreduce
 * itself is GPU to GPU.
 *
 * Usage: mlp_dp [--emu]   (--emu: 4 emulated GPUs even when cards are present)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/rdx.h>

enum { BATCH = 32, IN = 64, HIDDEN = 32, OUT = 10, GPUS = 4, SHARD = BATCH / GPUS };
#define NPARAM (IN * HIDDEN + HIDDEN + HIDDEN * OUT + OUT)
#define LR     0.5

static const int64_t psize[4] = { IN * HIDDEN, HIDDEN, HIDDEN *OUT, OUT };
static float X[BATCH * IN], W[NPARAM];
static int32_t Y[BATCH];

static void fill(float *p, size_t n, float scale, uint64_t *state)
{
    for (size_t i = 0; i < n; i++) {
        *state = *state * 6364136223846793005ull + 1442695040888963407ull;
        p[i] = scale * ((float)(*state >> 40) / 8388608.0f - 1.0f);
    }
}

#define F32 rdx_dtype_of(RDX_FLOAT32)

/* The MLP on rows [r0, r0 + rows) of the batch: outs = loss, dL/dw1, dL/db1, dL/dw2, dL/db2. */
static int build(rdx_graph *g, int r0, int rows, const rdx_tensor **outs)
{
    const float *w = W;
    const rdx_tensor *x = rdx_tensor_from_data(g, F32, 2, (int64_t[]){ rows, IN }, X + r0 * IN);
    const rdx_tensor *w1 = rdx_tensor_from_data(g, F32, 2, (int64_t[]){ IN, HIDDEN }, w);
    w += psize[0];
    const rdx_tensor *b1 = rdx_tensor_from_data(g, F32, 1, (int64_t[]){ HIDDEN }, w);
    w += psize[1];
    const rdx_tensor *w2 = rdx_tensor_from_data(g, F32, 2, (int64_t[]){ HIDDEN, OUT }, w);
    w += psize[2];
    const rdx_tensor *b2 = rdx_tensor_from_data(g, F32, 1, (int64_t[]){ OUT }, w);
    const rdx_tensor *y =
        rdx_tensor_from_data(g, rdx_dtype_of(RDX_INT32), 1, (int64_t[]){ rows }, Y + r0);
    const rdx_tensor *h = rdx_tensor_relu(g, rdx_tensor_add(g, rdx_tensor_matmul(g, x, w1), b1));
    const rdx_tensor *logits = rdx_tensor_add(g, rdx_tensor_matmul(g, h, w2), b2);
    outs[0] = rdx_tensor_cross_entropy(g, logits, y);
    const rdx_tensor *params[4] = { w1, b1, w2, b2 };
    if (rdx_graph_status(g) || rdx_gradient(g, outs[0], params, 4, outs + 1)) {
        fprintf(stderr, "mlp_dp: building the model: %s\n",
                rdx_graph_status(g) ? rdx_graph_error(g) : rdx_error_message());
        return 1;
    }
    return 0;
}

/* Run the model on rows [r0, r0 + rows) on dev (NULL: the interpreter): *loss, grad[NPARAM]. */
static int step(rdx_device *dev, int r0, int rows, float *loss, float *grad)
{
    rdx_graph *g;
    const rdx_tensor *outs[5];
    rdx_array a[5];
    int rc = 1;
    if (rdx_graph_create(&g, NULL))
        return 1;
    if (build(g, r0, rows, outs))
        goto out;
    if (dev ? rdx_tensor_realize_on(g, dev, outs, 5, NULL, a, NULL)
            : rdx_graph_realize(g, outs, 5, a)) {
        fprintf(stderr, "mlp_dp: rows %d..%d: %s\n", r0, r0 + rows - 1, rdx_error_message());
        goto out;
    }
    *loss = ((const float *)a[0].data)[0];
    for (int k = 0, off = 0; k < 4; off += (int)psize[k], k++)
        memcpy(grad + off, a[k + 1].data, (size_t)psize[k] * 4);
    rc = 0;
out:
    rdx_graph_destroy(g);
    return rc;
}

/* out = W - lr * scale * gsum, computed on dev (NULL: the interpreter). */
static int update(rdx_device *dev, const float *gsum, double scale, float *out)
{
    rdx_graph *g;
    rdx_array a;
    int rc = 1;
    if (rdx_graph_create(&g, NULL))
        return 1;
    int64_t n = NPARAM;
    const rdx_tensor *r =
        rdx_tensor_sub(g, rdx_tensor_from_data(g, F32, 1, &n, W),
                       rdx_tensor_muls(g, rdx_tensor_from_data(g, F32, 1, &n, gsum), LR * scale));
    if (!r || (dev ? rdx_tensor_realize_on(g, dev, &r, 1, NULL, &a, NULL)
                   : rdx_graph_realize(g, &r, 1, &a))) {
        fprintf(stderr, "mlp_dp: update: %s\n", r ? rdx_error_message() : rdx_graph_error(g));
        goto out;
    }
    memcpy(out, a.data, sizeof(float) * NPARAM);
    rc = 0;
out:
    rdx_graph_destroy(g);
    return rc;
}

/* Largest |a - b| / max(|b|, 1). */
static double diff(const float *a, const float *b, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)a[i] - b[i]) / fmax(fabs((double)b[i]), 1.0);
        if (d > m)
            m = d;
    }
    return m;
}

int main(int argc, char **argv)
{
    rdx_device_options o = { .quiet = true };
    if (argc > 1 && !strcmp(argv[1], "--emu")) {
        o.kind = RDX_DEVICE_EMU;
        o.emu_gpus = GPUS;
    }
    uint64_t seed = 42;
    fill(X, BATCH * IN, 1.0f, &seed);
    fill(W, IN * HIDDEN, 0.25f, &seed);
    fill(W + IN * HIDDEN, HIDDEN, 0.1f, &seed);
    fill(W + IN * HIDDEN + HIDDEN, HIDDEN * OUT, 0.3f, &seed);
    fill(W + NPARAM - OUT, OUT, 0.1f, &seed);
    for (int i = 0; i < BATCH; i++)
        Y[i] = (i * 7 + 3) % OUT;

    rdx_device *d[GPUS] = { 0 };
    rdx_buffer *b[GPUS] = { 0 };
    static float g_ref[NPARAM], w_ref[NPARAM], g_one[NPARAM], w_one[NPARAM];
    static float g_dp[GPUS][NPARAM], w_dp[GPUS][NPARAM];
    float loss_ref, loss_one, loss_dp[GPUS];
    int rc = 1;
    if (rdx_device_open_all(&o, GPUS, d)) {
        fprintf(stderr, "mlp_dp: %s\n", rdx_error_message());
        return 1;
    }
    /* the reference: the interpreter, then one GPU, on the whole batch */
    if (step(NULL, 0, BATCH, &loss_ref, g_ref) || update(NULL, g_ref, 1.0, w_ref) ||
        step(d[0], 0, BATCH, &loss_one, g_one) || update(d[0], g_one, 1.0, w_one))
        goto out;
    /* data parallel: each GPU its shard, the gradients allreduced, each GPU updates */
    for (int i = 0; i < GPUS; i++)
        if (step(d[i], i * SHARD, SHARD, &loss_dp[i], g_dp[i]))
            goto out;
    for (int i = 0; i < GPUS; i++)
        if (rdx_buffer_alloc(d[i], sizeof g_dp[i], RDX_MEM_DEVICE, &b[i]) ||
            rdx_buffer_upload(b[i], 0, g_dp[i], sizeof g_dp[i])) {
            fprintf(stderr, "mlp_dp: GPU %d: %s\n", i, rdx_error_message());
            goto out;
        }
    rdx_collective_stats st;
    if (rdx_allreduce(d, GPUS, b, NPARAM, F32, &st)) {
        fprintf(stderr, "mlp_dp: %s\n", rdx_error_message());
        goto out;
    }
    for (int i = 0; i < GPUS; i++)
        if (rdx_buffer_download(b[i], 0, g_dp[i], sizeof g_dp[i]) ||
            update(d[i], g_dp[i], 1.0 / GPUS, w_dp[i]))
            goto out;
    float loss = (loss_dp[0] + loss_dp[1] + loss_dp[2] + loss_dp[3]) / GPUS;
    const rdx_device_info *info = rdx_device_get_info(d[0]);
    printf("MLP %dx%d -> relu -> %d, batch %d on %d GPUs (%s %s, %u in the machine), %d rows "
           "each\n",
           IN, HIDDEN, OUT, BATCH, GPUS, info->os_name, info->target, info->gpu_count, SHARD);
    printf("allreduce of %d gradients (%zu bytes): %u peer copies, %u reduction kernels, each "
           "GPU sent %llu bytes (2(N-1)/N = %.2f of them), %.3f ms\n",
           NPARAM, sizeof(float) * NPARAM, st.copies, st.kernels,
           (unsigned long long)st.bytes_sent[0], (double)st.bytes_sent[0] / (4.0 * NPARAM),
           (double)st.wall_ns / 1e6);
    printf("loss: interpreter %.6f, 1 GPU %.6f, %d GPUs %.6f\n", (double)loss_ref, (double)loss_one,
           GPUS, (double)loss);
    printf("the step moved the weights by up to %.3g\n", diff(w_ref, W, NPARAM));
    double tol = 1e-4;
    int ok = fabs((double)loss - loss_ref) <= tol * fmax(fabs((double)loss_ref), 1.0) &&
             fabs((double)loss_one - loss_ref) <= tol * fmax(fabs((double)loss_ref), 1.0);
    printf("loss %s\n", ok ? "matches" : "MISMATCH");
    double d1 = diff(w_one, w_ref, NPARAM);
    ok &= d1 <= tol;
    printf("updated weights, 1 GPU vs interpreter: largest relative difference %.2e %s\n", d1,
           d1 <= tol ? "(matches)" : "MISMATCH");
    for (int i = 0; i < GPUS; i++) {
        double di = diff(w_dp[i], w_ref, NPARAM), dj = diff(w_dp[i], w_one, NPARAM);
        ok &= di <= tol && dj <= tol;
        printf("updated weights on GPU %d vs interpreter %.2e, vs 1 GPU %.2e %s\n", i, di, dj,
               di <= tol && dj <= tol ? "(matches)" : "MISMATCH");
    }
    rc = !ok;
out:
    for (int i = 0; i < GPUS; i++) {
        rdx_buffer_free(b[i]);
        if (rdx_device_close(d[i]) && !rc) {
            fprintf(stderr, "mlp_dp: %s\n", rdx_error_message());
            rc = 1;
        }
    }
    return rc;
}
