/*
 * bench/ir/bench_ir.c — UOp construction rate with hash-consing (new nodes
 * and re-creation hits) against plain malloc'd nodes without consing or
 * derivation, and full symbolic simplification of a large index expression
 * against building it.  Ratios are against baselines measured in this run;
 * times are CPU time (user + system, page faults included).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdx/ir.h>

/* CPU time of this process (user + system): steadier than wall time on a shared machine. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The baseline: a node with the same fields, malloc'd, no hashing, no derivation. */
typedef struct plain {
    int op;
    const struct plain *src[2];
    rdx_uop_arg arg;
    rdx_dtype dtype;
} plain;

#define N 1000000

static void fail(const char *what)
{
    fprintf(stderr, "bench_ir: %s: %s\n", what, rdx_error_message());
    exit(1);
}

enum { D = 6, REPS = 40 };

/* Flatten a 6-d index over ranges, unflatten it with // and %, re-flatten; REPS copies summed. */
static const rdx_uop *build_index(rdx_ir_ctx *c)
{
    static const int64_t dims[D] = { 3, 5, 7, 4, 6, 8 };
    const rdx_uop *sum = NULL;
    for (int rep = 0; rep < REPS; rep++) {
        const rdx_uop *r[D], *flat = rdx_ir_int(c, 0);
        for (int k = 0; k < D; k++) {
            r[k] = rdx_ir_range(c, rdx_ir_int(c, dims[k]), rep * D + k, RDX_AXIS_LOOP);
            flat = rdx_ir_add(c, rdx_ir_mul(c, flat, rdx_ir_int(c, dims[k])), r[k]);
        }
        /* unflatten: idx_k = (flat // stride_k) % dim_k; then flatten again */
        const rdx_uop *again = rdx_ir_int(c, 0);
        int64_t stride = 1;
        const rdx_uop *parts[D];
        for (int k = D - 1; k >= 0; k--) {
            parts[k] =
                rdx_ir_mod(c, rdx_ir_idiv(c, flat, rdx_ir_int(c, stride)), rdx_ir_int(c, dims[k]));
            stride *= dims[k];
        }
        for (int k = 0; k < D; k++)
            again = rdx_ir_add(c, rdx_ir_mul(c, again, rdx_ir_int(c, dims[k])), parts[k]);
        sum = sum ? rdx_ir_add(c, sum, again) : again;
    }
    if (!sum)
        fail("build index");
    return sum;
}

int main(void)
{
    /* ---- baseline: malloc'd nodes */
    double t0 = now();
    plain **pl = malloc(N * sizeof *pl);
    plain *var = calloc(1, sizeof *var);
    const plain *acc = var;
    for (int i = 0; i < N; i++) {
        plain *k = calloc(1, sizeof *k), *a = calloc(1, sizeof *a);
        k->op = RDX_OP_CONST, k->arg.i = i, k->dtype = rdx_dtype_of(RDX_INDEX);
        a->op = RDX_OP_ADD, a->src[0] = acc, a->src[1] = k, a->dtype = k->dtype;
        pl[i] = a;
        acc = (i % 64) ? a : var;
    }
    double t_plain = now() - t0;
    /* ---- hash-consed: the same 2N nodes, with derivation (min_max, shape, ...) */
    rdx_ir_ctx *c;
    if (rdx_ir_ctx_create(&c))
        fail("context");
    t0 = now();
    const rdx_uop *x = rdx_ir_var(c, "x", 0, 1000), *u = x;
    for (int i = 0; i < N; i++) {
        const rdx_uop *a = rdx_ir_add(c, u, rdx_ir_int(c, i));
        if (!a)
            fail("build");
        u = (i % 64) ? a : x;
    }
    double t_new = now() - t0;
    size_t made = rdx_ir_node_count(c);
    /* ---- re-creating existing nodes: lookups that hit */
    t0 = now();
    u = x;
    for (int i = 0; i < N; i++) {
        const rdx_uop *a = rdx_ir_add(c, u, rdx_ir_int(c, i));
        u = (i % 64) ? a : x;
    }
    double t_hit = now() - t0;
    if (rdx_ir_node_count(c) != made)
        fail("re-creation made new nodes");
    printf("nodes: %zu created\n", made);
    printf("  malloc, no consing : %8.2f M nodes/s\n", 2 * N / t_plain / 1e6);
    printf("  hash-consed, new   : %8.2f M nodes/s  (%.2fx the malloc baseline's time)\n",
           2 * N / t_new / 1e6, t_new / t_plain);
    printf("  hash-consed, hits  : %8.2f M nodes/s  (%.2fx the malloc baseline's time)\n",
           2 * N / t_hit / 1e6, t_hit / t_plain);
    for (int i = 0; i < N; i++) {
        free((void *)pl[i]->src[1]);
        free(pl[i]);
    }
    free(pl);
    free(var);
    rdx_ir_ctx_destroy(c);

    /* ---- symbolic: the same simplification without and with verify-after-rewrite */
    double t_build = 0, t_simp[2] = { 0, 0 };
    size_t before = 0, after = 0;
    for (int verify = 0; verify < 2; verify++) {
        if (rdx_ir_ctx_create(&c))
            fail("context");
        rdx_ir_ctx_set_verify(c, verify);
        t0 = now();
        const rdx_uop *sum = build_index(c);
        t_build = now() - t0;
        const rdx_uop **order;
        rdx_ir_toposort(sum, &order, &before);
        free(order);
        t0 = now();
        const rdx_uop *s;
        if (rdx_ir_simplify(c, sum, &s))
            fail("simplify");
        t_simp[verify] = now() - t0;
        rdx_ir_toposort(s, &order, &after);
        free(order);
        rdx_ir_ctx_destroy(c);
    }
    printf("symbolic: %d-d index unflatten/reflatten x%d: %zu -> %zu nodes\n", D, REPS, before,
           after);
    printf("  build %.2f ms, simplify %.2f ms (%.1fx the build time)\n", t_build * 1e3,
           t_simp[0] * 1e3, t_simp[0] / t_build);
    printf("  simplify with verify-after-rewrite (RDX_IR_VERIFY=1) %.2f ms (%.1fx)\n",
           t_simp[1] * 1e3, t_simp[1] / t_simp[0]);
    return 0;
}
