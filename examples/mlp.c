/*
 * examples/mlp.c — a two-layer MLP's forward and backward pass, built with
 * rdx's tensor API, compiled by rdx's code generator to gfx1100 machine code
 * and run on the default device (a real AMD GPU, else the emulated gfx1100)
 * with rdx_tensor_realize_on.  Prints each kernel's GPU time (and, on the
 * emulated GPU, its estimated cycles), the memory plan, the loss, a piece of
 * one kernel's ISA, and checks every output against the reference
 * interpreter.  Built by `make examples`; run by `make demo`.
 *
 *   x (32, 64) -> matmul w1 (64, 32) + b1 -> relu -> matmul w2 (32, 10) + b2
 *     -> softmax cross-entropy against integer targets (32,) -> loss
 *   gradients of the loss with respect to w1, b1, w2, b2
 *
 * Usage: mlp [ISA_LINES]   (default 24 lines of ISA; 0 for none)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/rdx.h>

enum { BATCH = 32, IN = 64, HIDDEN = 32, OUT = 10 };

static uint64_t state = 42;

/* Pseudo-random floats in [-scale, scale). */
static void fill(float *p, size_t n, float scale)
{
    for (size_t i = 0; i < n; i++) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        p[i] = scale * ((float)(state >> 40) / 8388608.0f - 1.0f);
    }
}

static const rdx_tensor *param(rdx_graph *g, uint32_t nd, const int64_t *dims, float scale)
{
    size_t n = 1;
    for (uint32_t k = 0; k < nd; k++)
        n *= (size_t)dims[k];
    float *data = malloc(n * sizeof *data);
    if (!data)
        return NULL;
    fill(data, n, scale);
    const rdx_tensor *t = rdx_tensor_from_data(g, rdx_dtype_of(RDX_FLOAT32), nd, dims, data);
    free(data);
    return t;
}

/* The first `lines` lines of a kernel's assembly that are instructions or labels. */
static void print_isa(const rdx_realize_kernel *k, int lines)
{
    printf("-- generated ISA of kernel %s (%u SGPRs, %u VGPRs, %u bytes of code), first %d "
           "lines:\n",
           k->name, k->num_sgprs, k->num_vgprs, k->code_bytes, lines);
    const char *p = k->isa;
    for (int n = 0; p && *p && n < lines; n++) {
        const char *e = strchr(p, '\n');
        int len = e ? (int)(e - p) : (int)strlen(p);
        printf("    %.*s\n", len, p);
        p = e ? e + 1 : p + len;
    }
}

int main(int argc, char **argv)
{
    int isa_lines = argc > 1 ? atoi(argv[1]) : 24;
    rdx_graph *g = NULL;
    rdx_device *dev = NULL;
    rdx_realize_report *rep = NULL;
    int rc = 1;
    if (rdx_graph_create(&g, NULL) || rdx_device_open(NULL, &dev)) {
        fprintf(stderr, "mlp: %s\n", rdx_error_message());
        goto out;
    }
    /* the model */
    const rdx_tensor *x = param(g, 2, (int64_t[]){ BATCH, IN }, 1.0f);
    const rdx_tensor *w1 = param(g, 2, (int64_t[]){ IN, HIDDEN }, 0.25f);
    const rdx_tensor *b1 = param(g, 1, (int64_t[]){ HIDDEN }, 0.1f);
    const rdx_tensor *w2 = param(g, 2, (int64_t[]){ HIDDEN, OUT }, 0.3f);
    const rdx_tensor *b2 = param(g, 1, (int64_t[]){ OUT }, 0.1f);
    int32_t labels[BATCH];
    for (int i = 0; i < BATCH; i++)
        labels[i] = (i * 7 + 3) % OUT;
    const rdx_tensor *y =
        rdx_tensor_from_data(g, rdx_dtype_of(RDX_INT32), 1, (int64_t[]){ BATCH }, labels);
    const rdx_tensor *h = rdx_tensor_relu(g, rdx_tensor_add(g, rdx_tensor_matmul(g, x, w1), b1));
    const rdx_tensor *logits = rdx_tensor_add(g, rdx_tensor_matmul(g, h, w2), b2);
    const rdx_tensor *loss = rdx_tensor_cross_entropy(g, logits, y);
    const rdx_tensor *params[4] = { w1, b1, w2, b2 }, *grads[4];
    if (rdx_graph_status(g) || rdx_gradient(g, loss, params, 4, grads)) {
        fprintf(stderr, "mlp: building the model: %s\n",
                rdx_graph_status(g) ? rdx_graph_error(g) : rdx_error_message());
        goto out;
    }
    const rdx_tensor *outs[5] = { loss, grads[0], grads[1], grads[2], grads[3] };
    static const char *const names[5] = { "loss", "dL/dw1", "dL/db1", "dL/dw2", "dL/db2" };

    /* compile and run the whole schedule on the device */
    rdx_realize_options opt;
    memset(&opt, 0, sizeof opt);
    opt.profile = 1;  /* estimated cycles on the emulated GPU */
    opt.keep_isa = 1; /* each kernel's assembly */
    rdx_array got[5], want[5];
    if (rdx_tensor_realize_on(g, dev, outs, 5, &opt, got, &rep)) {
        fprintf(stderr, "mlp: realize: %s\n", rdx_error_message());
        goto out;
    }
    printf("MLP %dx%d -> relu -> %d, softmax cross-entropy, batch %d: loss and 4 gradients\n", IN,
           HIDDEN, OUT, BATCH);
    rdx_realize_report_print(rep, stdout);
    printf("loss = %.6f\n", (double)((const float *)got[0].data)[0]);

    /* a piece of the ISA of the first kernel with a reduction (a matmul or a sum) */
    size_t pick = 0;
    for (size_t k = 0; k < rep->nkernels; k++)
        if (rep->kernels[k].name[0] == 'r') {
            pick = k;
            break;
        }
    if (isa_lines > 0)
        print_isa(&rep->kernels[pick], isa_lines);

    /* every output against the reference interpreter */
    if (rdx_graph_realize(g, outs, 5, want)) {
        fprintf(stderr, "mlp: interpreter: %s\n", rdx_error_message());
        goto out;
    }
    rc = 0;
    for (int r = 0; r < 5; r++) {
        int64_t first, bad = rdx_realize_compare(&want[r], &got[r], 1e-4, &first);
        if (bad) {
            printf("%-7s MISMATCH: %lld of %lld elements differ (first: element %lld = %.9g, "
                   "interpreter %.9g)\n",
                   names[r], (long long)bad, (long long)got[r].numel, (long long)first,
                   rdx_array_get(&got[r], first), rdx_array_get(&want[r], first));
            rc = 1;
        } else {
            printf("%-7s matches the interpreter (%lld elements)\n", names[r],
                   (long long)got[r].numel);
        }
    }
out:
    rdx_realize_report_free(rep);
    rdx_graph_destroy(g);
    if (rdx_device_close(dev) && !rc) {
        fprintf(stderr, "mlp: %s\n", rdx_error_message());
        rc = 1;
    }
    return rc;
}
