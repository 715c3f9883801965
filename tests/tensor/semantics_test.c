/* tests/tensor/semantics_test.c — the tensor layer's semantic rules (docs/tensor.md
 * "Semantics rules"): WHERE broadcasting all three operands in any order, the
 * dtypes of reductions and pow of negative bases, as tinygrad's Tensor does. */
#include "tests/tensor/tensor_test.h"

/* where(mask, CONST, x) and every other order and rank mix: the result has the broadcast
   shape of all three operands, a scalar CONST expanded with the rest */
START_TEST(where_broadcasts_all_three_operands)
{
    rdx_graph *g = tgraph();
    float xv[12 * 17];
    for (int k = 0; k < 12 * 17; k++)
        xv[k] = (float)k;
    int32_t mv[17];
    for (int k = 0; k < 17; k++)
        mv[k] = k % 3 == 0;
    const rdx_tensor *x = tf32(g, 2, (int64_t[]){ 12, 17 }, xv);
    const rdx_tensor *m2 = rdx_tensor_cmpne(g, ti32(g, 2, (int64_t[]){ 1, 17 }, mv),
                                            rdx_tensor_const(g, rdx_dtype_of(RDX_INT32), 0));
    const rdx_tensor *m1 = rdx_tensor_reshape(g, m2, 1, (int64_t[]){ 17 });
    const rdx_tensor *c = rdx_tensor_const(g, rdx_dtype_of(RDX_FLOAT32), -1);
    const rdx_tensor *col = tf32(g, 2, (int64_t[]){ 12, 1 }, xv); /* 0..11 */
    for (int q = 0; q < 6; q++) {
        const rdx_tensor *m = q & 1 ? m1 : m2;
        const rdx_tensor *t = q < 2   ? rdx_tensor_where(g, m, c, x)
                              : q < 4 ? rdx_tensor_where(g, m, x, c)
                                      : rdx_tensor_where(g, m, col, c);
        ck_assert_msg(t != NULL, "case %d: %s", q, rdx_graph_error(g));
        ck_assert_uint_eq(t->ndim, 2);
        ck_assert_int_eq(rdx_tensor_dim(t, 0), 12);
        ck_assert_int_eq(rdx_tensor_dim(t, 1), 17);
        rdx_array r = treal(g, t);
        for (int i = 0; i < 12; i++)
            for (int j = 0; j < 17; j++) {
                double xe = q < 4 ? xv[i * 17 + j] : (double)i;
                double want = q < 2 ? (mv[j] ? -1 : xe) : (mv[j] ? xe : -1);
                ck_assert_double_eq(rdx_array_get(&r, i * 17 + j), want);
            }
    }
    /* the mask smaller than both branches, both branches CONSTs */
    const rdx_tensor *cc = rdx_tensor_where(g, m1, c, rdx_tensor_const(g, c->dtype, 2));
    ck_assert_ptr_nonnull(cc);
    ck_assert_uint_eq(cc->ndim, 1);
    rdx_array r = treal(g, cc);
    for (int j = 0; j < 17; j++)
        ck_assert_double_eq(rdx_array_get(&r, j), mv[j] ? -1 : 2);
    rdx_graph_destroy(g);
}
END_TEST

TCase *tensor_tcase_semantics(void)
{
    TCase *tc = tcase_create("semantics");
    tcase_add_test(tc, where_broadcasts_all_three_operands);
    return tc;
}
