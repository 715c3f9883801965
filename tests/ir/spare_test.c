/* tests/ir/spare_test.c — a destroyed context's by-id arrays (node maps, simplification
 * results) and symbolic rewriter serve the thread's next context: nothing of the old
 * context shows through. */
#include <pthread.h>
#include <stdlib.h>

#include "tests/ir/ir_test.h"

enum { NN = 3000 };

/* A context whose node maps and simplification results cover ids 0..~2*NN: every
   MUL(ADD(x, k), 1) simplified (to ADD(x, k)) and every node put in a few maps. */
static void fill(int64_t base)
{
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *x = IR_OK(rdx_ir_var(c, "x", 0, 100));
    const rdx_uop **e = malloc(NN * sizeof *e);
    ck_assert_ptr_nonnull(e);
    for (int i = 0; i < NN; i++) {
        e[i] =
            IR_OK(rdx_ir_mul(c, rdx_ir_add(c, x, rdx_ir_int(c, base + i + 1)), rdx_ir_int(c, 1)));
        const rdx_uop *s;
        ck_assert_int_eq(rdx_ir_simplify(c, e[i], &s), RDX_OK);
        ck_assert_ptr_eq(s, e[i]->src[0]);
    }
    rdx_ir_nodemap *m[3];
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(rdx_ir_nodemap_create(c, &m[k]), RDX_OK);
        for (int i = 0; i < NN; i++)
            ck_assert_int_eq(rdx_ir_nodemap_put(m[k], e[i], e[(i + k) % NN]), RDX_OK);
    }
    for (int k = 0; k < 3; k++)
        rdx_ir_nodemap_free(m[k]);
    free(e);
    rdx_ir_ctx_destroy(c);
}

/* A new context (taking the arrays fill left): its nodes reuse the old ids for other
   shapes; new maps are empty and every node simplifies by its own structure. */
static void check_fresh(void)
{
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *y = IR_OK(rdx_ir_var(c, "y", 1, 50));
    const rdx_uop **n = malloc(2 * NN * sizeof *n);
    ck_assert_ptr_nonnull(n);
    for (int i = 0; i < NN; i++) { /* already simplified: a result of the old context
                                      under the same id would show here */
        n[2 * i] = IR_OK(rdx_ir_int(c, 7 * i + 3));
        n[2 * i + 1] = IR_OK(rdx_ir_add(c, y, n[2 * i]));
    }
    rdx_ir_nodemap *m;
    ck_assert_int_eq(rdx_ir_nodemap_create(c, &m), RDX_OK);
    for (int i = 0; i < 2 * NN; i++)
        ck_assert_ptr_null(rdx_ir_nodemap_get(m, n[i]));
    rdx_ir_nodemap_free(m);
    for (int i = 0; i < 2 * NN; i++) {
        const rdx_uop *s;
        ck_assert_int_eq(rdx_ir_simplify(c, n[i], &s), RDX_OK);
        ck_assert_ptr_eq(s, n[i]);
    }
    /* and a node that does simplify: (y + 3) * 1 -> y + 3 */
    const rdx_uop *s, *t = IR_OK(rdx_ir_mul(c, n[1], rdx_ir_int(c, 1)));
    ck_assert_int_eq(rdx_ir_simplify(c, t, &s), RDX_OK);
    ck_assert_ptr_eq(s, n[1]);
    free(n);
    rdx_ir_ctx_destroy(c);
}

START_TEST(spare_arrays_are_reused_clean)
{
    fill(0);
    check_fresh();
    fill(5000); /* again, over arrays already reused once */
    check_fresh();
}
END_TEST

/* Two contexts alive: the first destroyed keeps its arrays for the thread, the second's
   are freed (the thread holds one set); a context created meanwhile gets new arrays. */
START_TEST(spare_arrays_with_contexts_alive)
{
    rdx_ir_ctx *a = ir_ctx(), *b = ir_ctx();
    const rdx_uop *s, *xa = IR_OK(rdx_ir_var(a, "x", 0, 9)), *xb = IR_OK(rdx_ir_var(b, "x", 0, 9));
    const rdx_uop *ea = IR_OK(rdx_ir_add(a, xa, rdx_ir_int(a, 0)));
    const rdx_uop *eb = IR_OK(rdx_ir_mul(b, xb, rdx_ir_int(b, 1)));
    ck_assert_int_eq(rdx_ir_simplify(a, ea, &s), RDX_OK);
    ck_assert_ptr_eq(s, xa);
    ck_assert_int_eq(rdx_ir_simplify(b, eb, &s), RDX_OK);
    ck_assert_ptr_eq(s, xb);
    rdx_ir_ctx_destroy(a);
    rdx_ir_ctx *c = ir_ctx(); /* takes a's arrays when it first needs them */
    const rdx_uop *xc = IR_OK(rdx_ir_var(c, "z", 0, 9));
    const rdx_uop *ec = IR_OK(rdx_ir_add(c, rdx_ir_int(c, 2), rdx_ir_int(c, 3)));
    ck_assert_int_eq(rdx_ir_simplify(c, ec, &s), RDX_OK);
    int64_t v = 0;
    ck_assert(rdx_uop_const_int(s, &v) && v == 5);
    ck_assert_int_eq(rdx_ir_simplify(c, xc, &s), RDX_OK);
    ck_assert_ptr_eq(s, xc);
    rdx_ir_ctx_destroy(b); /* the thread's spares are taken (by c): b's arrays are freed */
    rdx_ir_ctx_destroy(c);
    check_fresh();
}
END_TEST

/* A graph beyond the kept size: its arrays go back to the system, the next context
   starts anew and is still right. */
START_TEST(spare_arrays_of_a_huge_graph_are_freed)
{
    enum { BIG = (1 << 18) + 64 };
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *last = NULL, *s;
    for (int i = 0; i < BIG; i++)
        last = IR_OK(rdx_ir_int(c, i));
    rdx_ir_nodemap *m;
    ck_assert_int_eq(rdx_ir_nodemap_create(c, &m), RDX_OK);
    ck_assert_int_eq(rdx_ir_nodemap_put(m, last, last), RDX_OK);
    ck_assert_ptr_eq(rdx_ir_nodemap_get(m, last), last);
    rdx_ir_nodemap_free(m);
    ck_assert_int_eq(rdx_ir_simplify(c, last, &s), RDX_OK);
    ck_assert_ptr_eq(s, last);
    rdx_ir_ctx_destroy(c);
    check_fresh();
}
END_TEST

static void *in_thread(void *arg)
{
    (void)arg;
    fill(100);
    check_fresh();
    fill(200); /* the thread ends holding spares: freed at its exit (ASan: no leak) */
    return NULL;
}

START_TEST(spare_arrays_are_per_thread)
{
    fill(0); /* this thread's spares */
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, in_thread, NULL), 0);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    check_fresh();
}
END_TEST

/* The symbolic rewriter of a destroyed context serves the thread's next one (parsed once);
   two contexts alive at once each have their own; simplification is right with either. */
START_TEST(spare_symbolic_rewriter_is_reused)
{
    rdx_ir_ctx *a = ir_ctx();
    rdx_rewriter *ra = rdx_ir_symbolic(a);
    ck_assert_ptr_nonnull(ra);
    rdx_ir_ctx *b = ir_ctx();
    rdx_rewriter *rb = rdx_ir_symbolic(b);
    ck_assert_ptr_nonnull(rb);
    ck_assert_ptr_ne(ra, rb); /* both alive: not shared */
    rdx_ir_ctx_destroy(a);    /* a's goes to the thread's spares */
    rdx_ir_ctx *c = ir_ctx();
    ck_assert_ptr_eq(rdx_ir_symbolic(c), ra);
    /* (x + 4) * 2 + (x * 3 - x) -> the same as what a fresh context's rules give: 4x + 8 */
    const rdx_uop *x = IR_OK(rdx_ir_var(c, "x", 0, 50)), *s;
    const rdx_uop *e =
        IR_OK(rdx_ir_add(c, rdx_ir_mul(c, rdx_ir_add(c, x, rdx_ir_int(c, 4)), rdx_ir_int(c, 2)),
                         rdx_ir_sub(c, rdx_ir_mul(c, x, rdx_ir_int(c, 3)), x)));
    ck_assert_int_eq(rdx_ir_simplify(c, e, &s), RDX_OK);
    for (int64_t v = 0; v <= 50; v += 7) {
        int64_t got = 0;
        const rdx_uop *xv = IR_OK(rdx_ir_int(c, v)), *sv;
        ck_assert_int_eq(rdx_ir_substitute(c, s, &x, &xv, 1, &sv), RDX_OK);
        ck_assert_int_eq(rdx_ir_simplify(c, sv, &sv), RDX_OK);
        ck_assert(rdx_uop_const_int(sv, &got));
        ck_assert_int_eq(got, 4 * v + 8);
    }
    ck_assert_int_eq(s->op, RDX_OP_ADD); /* 4x + 8: a canonical sum, its constant last */
    int64_t k = 0;
    ck_assert(rdx_uop_const_int(s->src[1], &k) && k == 8);
    rdx_ir_ctx_destroy(b); /* the spare slot is empty again (c took it): b's is freed */
    rdx_ir_ctx_destroy(c);
    check_fresh();
}
END_TEST

TCase *ir_tcase_spare(void)
{
    TCase *tc = tcase_create("spare");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, spare_arrays_are_reused_clean);
    tcase_add_test(tc, spare_arrays_with_contexts_alive);
    tcase_add_test(tc, spare_arrays_of_a_huge_graph_are_freed);
    tcase_add_test(tc, spare_arrays_are_per_thread);
    tcase_add_test(tc, spare_symbolic_rewriter_is_reused);
    return tc;
}
