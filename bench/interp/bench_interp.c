/*
 * bench/interp/bench_interp.c — reference-interpreter throughput on an
 * elementwise graph (a*b + c), a row reduction (sum over the last axis), a
 * column reduction and a gemm (the spec's composition), in GFLOP/s, against
 * plain C loops doing the same arithmetic in the same run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <rdx/tensor.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void die(rdx_graph *g)
{
    fprintf(stderr, "bench_interp: %s %s\n", rdx_graph_error(g), rdx_error_message());
    exit(1);
}

/* Best of `reps` realizations of t. */
static double time_realize(rdx_graph *g, const rdx_tensor *t, int reps)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        rdx_array a;
        double t0 = now();
        if (!t || rdx_tensor_realize(g, t, &a))
            die(g);
        double dt = now() - t0;
        best = dt < best ? dt : best;
        rdx_interp_release(rdx_graph_interp(g));
    }
    return best;
}

static volatile float sink;

static void report(const char *what, double flops, double t_interp, double t_c)
{
    printf("%-28s interp %7.2f GFLOP/s   C loop %7.2f GFLOP/s   ratio %.2fx\n", what,
           flops / t_interp / 1e9, flops / t_c / 1e9, t_interp / t_c);
}

int main(void)
{
    rdx_graph *g;
    if (rdx_graph_create(&g, NULL))
        return 1;
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32);
    enum { N = 1 << 22, R = 2048, M = 512 };
    float *a = malloc(sizeof(float) * N), *b = malloc(sizeof(float) * N),
          *c = malloc(sizeof(float) * N);
    float *o = malloc(sizeof(float) * N);
    for (int k = 0; k < N; k++) {
        a[k] = (float)(k % 13) * 0.25f;
        b[k] = (float)(k % 7) - 3;
        c[k] = 1.0f / (float)(1 + k % 5);
    }
    int64_t n = N;
    const rdx_tensor *A = rdx_tensor_from_data(g, f32, 1, &n, a);
    const rdx_tensor *B = rdx_tensor_from_data(g, f32, 1, &n, b);
    const rdx_tensor *C = rdx_tensor_from_data(g, f32, 1, &n, c);

    /* elementwise: a * b + c */
    double ti = time_realize(g, rdx_tensor_add(g, rdx_tensor_mul(g, A, B), C), 3);
    double tc = 1e30;
    for (int r = 0; r < 3; r++) {
        double t0 = now();
        for (int k = 0; k < N; k++)
            o[k] = a[k] * b[k] + c[k];
        sink = o[N / 2];
        double dt = now() - t0;
        tc = dt < tc ? dt : tc;
    }
    report("elementwise a*b+c (4M)", 2.0 * N, ti, tc);

    /* row reduction: (2048, 2048) summed over the last axis */
    int64_t d2[2] = { R, N / R };
    const rdx_tensor *A2 = rdx_tensor_reshape(g, A, 2, d2);
    int last = 1, first = 0;
    ti = time_realize(g, rdx_tensor_sum(g, A2, 1, &last, 0), 3);
    tc = 1e30;
    for (int r = 0; r < 3; r++) {
        double t0 = now();
        for (int i = 0; i < R; i++) {
            float s = 0;
            for (int j = 0; j < N / R; j++)
                s += a[i * (N / R) + j];
            o[i] = s;
        }
        sink = o[R / 2];
        double dt = now() - t0;
        tc = dt < tc ? dt : tc;
    }
    report("row sum (2048x2048)", (double)N, ti, tc);

    /* column reduction */
    ti = time_realize(g, rdx_tensor_sum(g, A2, 1, &first, 0), 3);
    tc = 1e30;
    for (int r = 0; r < 3; r++) {
        double t0 = now();
        for (int j = 0; j < N / R; j++)
            o[j] = 0;
        for (int i = 0; i < R; i++)
            for (int j = 0; j < N / R; j++)
                o[j] += a[i * (N / R) + j];
        sink = o[7];
        double dt = now() - t0;
        tc = dt < tc ? dt : tc;
    }
    report("column sum (2048x2048)", (double)N, ti, tc);

    /* gemm 512: (A.reshape(M,K,1) * B.reshape(1,K,N)).sum(1) */
    int64_t mm[2] = { M, M };
    const rdx_tensor *MA = rdx_tensor_from_data(g, f32, 2, mm, a);
    const rdx_tensor *MB = rdx_tensor_from_data(g, f32, 2, mm, b);
    ti = time_realize(g, rdx_tensor_matmul(g, MA, MB), 2);
    tc = 1e30;
    for (int r = 0; r < 2; r++) {
        double t0 = now();
        for (int i = 0; i < M; i++) {
            for (int j = 0; j < M; j++)
                o[i * M + j] = 0;
            for (int k = 0; k < M; k++) {
                float x = a[i * M + k];
                for (int j = 0; j < M; j++)
                    o[i * M + j] += x * b[k * M + j];
            }
        }
        sink = o[5];
        double dt = now() - t0;
        tc = dt < tc ? dt : tc;
    }
    report("gemm 512x512x512", 2.0 * M * M * M, ti, tc);
    printf("(ratio = interpreter time / plain C loop time; C loop is the same arithmetic, "
           "same order, compiled -O2)\n");
    free(a);
    free(b);
    free(c);
    free(o);
    rdx_graph_destroy(g);
    return 0;
}
