/*
 * tests/codegen_back/const_test.c — float constants with an inline form are
 * encoded inline (render_const.c): the program text has 2.0 / 0.5 / 4.0 and
 * no literal of those bit patterns, llvm-objdump shows the same, and the
 * results are the host's (exact: multiplications by powers of two, + 0.5).
 */
#include <stdlib.h>
#include <string.h>

#include "tests/codegen_back/cgb_test.h"
#include "util/error.h"

START_TEST(float_constants_inline)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *sink = cgb_parse_file(ctx, "inline_const.uop");
    enum { N = 100 };
    float *a = malloc(N * 4), *c = calloc(N, 4);
    uint16_t *h = malloc(N * 2), *d = calloc(N, 2);
    for (int i = 0; i < N; i++) {
        a[i] = (float)(i * 37 % 101 - 50) / 8.0f;
        _Float16 x = (_Float16)(i % 61 - 30);
        memcpy(&h[i], &x, 2);
    }
    void *bufs[4] = { a, h, c, d };
    size_t sizes[4] = { N * 4, N * 2, N * 4, N * 2 };
    char *t = cgb_run_asm(ctx, sink, bufs, sizes);
    ck_assert_msg(strstr(t, ", 2.0") && strstr(t, ", 0.5") && strstr(t, ", 4.0"), "%s", t);
    ck_assert_msg(!strstr(t, "0x40000000") && !strstr(t, "0x3f000000") && !strstr(t, "0x4400"),
                  "%s", t);
    for (int i = 0; i < N; i++) {
        ck_assert_msg(c[i] == a[i] * 2.0f + 0.5f, "c[%d] = %g", i, c[i]);
        _Float16 x, y;
        memcpy(&x, &h[i], 2);
        memcpy(&y, &d[i], 2);
        ck_assert_msg(y == x * (_Float16)4.0f, "d[%d] = %g", i, (double)y);
    }
    free(t);
    free(a), free(c), free(h), free(d);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

TCase *cgb_tcase_const(void)
{
    TCase *tc = tcase_create("const");
    tcase_add_test(tc, float_constants_inline);
    return tc;
}
