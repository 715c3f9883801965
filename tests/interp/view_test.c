/* tests/interp/view_test.c — movement ops evaluated as views, checked against index arithmetic
 * written here: PERMUTE, FLIP, SHRINK, EXPAND, PAD, RESHAPE of strided views, INDEX, STACK,
 * BITCAST; and STORE/AFTER, gated LOAD. */
#include <stdlib.h>

#include "tests/interp/interp_test.h"

enum { A = 3, B = 4, C = 5 };

static const rdx_tensor *cube(rdx_graph *g, float *v)
{
    for (int i = 0; i < A * B * C; i++)
        v[i] = (float)i;
    return buf_f32(g, 3, (int64_t[]){ A, B, C }, v);
}

START_TEST(permute_flip_shrink_expand_match_index_math)
{
    rdx_graph *g = ig();
    float v[A * B * C];
    const rdx_tensor *t = cube(g, v);
    rdx_array p = ireal(g, rdx_tensor_permute(g, t, (int[]){ 2, 0, 1 }));
    ck_assert_int_eq(p.dims[0], C);
    for (int c = 0; c < C; c++)
        for (int a = 0; a < A; a++)
            for (int b = 0; b < B; b++)
                ck_assert_double_eq(rdx_array_get(&p, (c * A + a) * B + b), v[(a * B + b) * C + c]);
    rdx_array f = ireal(g, rdx_tensor_flip(g, t, 2, (int[]){ 0, 2 }));
    for (int a = 0; a < A; a++)
        for (int b = 0; b < B; b++)
            for (int c = 0; c < C; c++)
                ck_assert_double_eq(rdx_array_get(&f, (a * B + b) * C + c),
                                    v[((A - 1 - a) * B + b) * C + (C - 1 - c)]);
    rdx_array s = ireal(g, rdx_tensor_shrink(g, t, (int64_t[]){ 1, 1, 2 }, (int64_t[]){ 3, 3, 5 }));
    ck_assert_int_eq(s.numel, 2 * 2 * 3);
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            for (int c = 0; c < 3; c++)
                ck_assert_double_eq(rdx_array_get(&s, (a * 2 + b) * 3 + c),
                                    v[((a + 1) * B + b + 1) * C + c + 2]);
    const rdx_tensor *row = rdx_tensor_shrink(g, t, (int64_t[]){ 0, 2, 0 }, (int64_t[]){ A, 3, C });
    rdx_array e = ireal(g, rdx_tensor_expand(g, row, 4, (int64_t[]){ 2, A, 6, C }));
    for (int z = 0; z < 2; z++)
        for (int a = 0; a < A; a++)
            for (int y = 0; y < 6; y++)
                for (int c = 0; c < C; c++)
                    ck_assert_double_eq(rdx_array_get(&e, ((z * A + a) * 6 + y) * C + c),
                                        v[(a * B + 2) * C + c]);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(reshape_of_a_strided_view_and_pad_fill)
{
    rdx_graph *g = ig();
    float v[A * B * C];
    const rdx_tensor *t = cube(g, v);
    /* transpose then flatten: forces a copy in row-major order of the transposed view */
    const rdx_tensor *tr = rdx_tensor_permute(g, t, (int[]){ 2, 1, 0 });
    rdx_array r = ireal(g, rdx_tensor_reshape(g, tr, 1, (int64_t[]){ A * B * C }));
    int k = 0;
    for (int c = 0; c < C; c++)
        for (int b = 0; b < B; b++)
            for (int a = 0; a < A; a++)
                ck_assert_double_eq(rdx_array_get(&r, k++), v[(a * B + b) * C + c]);
    rdx_array p = ireal(g, rdx_tensor_pad(g, t, (int64_t[]){ 1, 0, 2 }, (int64_t[]){ 0, 1, 1 }, 0));
    ck_assert_int_eq(p.dims[0], A + 1);
    ck_assert_int_eq(p.dims[1], B + 1);
    ck_assert_int_eq(p.dims[2], C + 3);
    for (int a = 0; a < A + 1; a++)
        for (int b = 0; b < B + 1; b++)
            for (int c = 0; c < C + 3; c++) {
                int in = a >= 1 && b < B && c >= 2 && c < C + 2;
                double want = in ? v[((a - 1) * B + b) * C + c - 2] : 0;
                ck_assert_double_eq(rdx_array_get(&p, (a * (B + 1) + b) * (C + 3) + c), want);
            }
    /* pad with a value */
    rdx_array pv =
        ireal(g, rdx_tensor_pad(g, t, (int64_t[]){ 0, 0, 1 }, (int64_t[]){ 0, 0, 0 }, -7));
    ck_assert_double_eq(rdx_array_get(&pv, 0), -7);
    ck_assert_double_eq(rdx_array_get(&pv, 1), v[0]);
    rdx_graph_destroy(g);
}
END_TEST

/* Random PERMUTE/FLIP/SHRINK chains reshaped to random factorisations (some reshapes are
 * strided views, some copies) against index arithmetic done here. */
START_TEST(random_view_chains_then_reshape)
{
    uint64_t seed = 77;
    for (int trial = 0; trial < 300; trial++) {
        rdx_graph *g = ig();
        int64_t d[4];
        for (int k = 0; k < 4; k++)
            d[k] = 1 + (int64_t)(irand(&seed) % 4);
        int64_t total = d[0] * d[1] * d[2] * d[3];
        float *v = malloc(sizeof(float) * (size_t)total);
        for (int64_t k = 0; k < total; k++)
            v[k] = (float)k;
        int p[4] = { 0, 1, 2, 3 };
        for (int k = 3; k > 0; k--) {
            int j = (int)(irand(&seed) % (uint64_t)(k + 1)), t = p[k];
            p[k] = p[j], p[j] = t;
        }
        int fl = (int)(irand(&seed) % 5) - 1; /* -1: no flip */
        int sh = (int)(irand(&seed) % 5) - 1; /* -1: no shrink */
        const rdx_tensor *t = rdx_tensor_permute(g, buf_f32(g, 4, d, v), p);
        int64_t pd[4];
        for (int k = 0; k < 4; k++)
            pd[k] = d[p[k]];
        if (fl >= 0)
            t = rdx_tensor_flip(g, t, 1, &fl);
        int64_t rd[4], st[4] = { 0 }, en[4];
        memcpy(rd, pd, sizeof rd);
        memcpy(en, pd, sizeof en);
        if (sh >= 0 && pd[sh] > 1) {
            st[sh] = 1;
            rd[sh] = pd[sh] - 1;
            t = rdx_tensor_shrink(g, t, st, en);
        } else {
            sh = -1;
        }
        int64_t n = rd[0] * rd[1] * rd[2] * rd[3];
        /* a random factorisation of n into up to 4 dims */
        int64_t nd[4], rest = n;
        uint32_t m = 0;
        while (m < 3 && rest > 1) {
            int64_t f = 1 + (int64_t)(irand(&seed) % (uint64_t)rest);
            while (rest % f)
                f--;
            nd[m++] = f;
            rest /= f;
        }
        nd[m++] = rest;
        rdx_array r = ireal(g, rdx_tensor_reshape(g, t, m, nd));
        ck_assert_int_eq(r.numel, n);
        int64_t e = 0;
        for (int64_t j0 = 0; j0 < rd[0]; j0++)
            for (int64_t j1 = 0; j1 < rd[1]; j1++)
                for (int64_t j2 = 0; j2 < rd[2]; j2++)
                    for (int64_t j3 = 0; j3 < rd[3]; j3++, e++) {
                        int64_t j[4] = { j0, j1, j2, j3 }, src[4];
                        if (sh >= 0)
                            j[sh] += 1;
                        if (fl >= 0)
                            j[fl] = pd[fl] - 1 - j[fl];
                        for (int k = 0; k < 4; k++)
                            src[p[k]] = j[k];
                        int64_t flat = ((src[0] * d[1] + src[1]) * d[2] + src[2]) * d[3] + src[3];
                        ck_assert_msg(rdx_array_get(&r, e) == (double)flat,
                                      "trial %d elem %lld: %g want %lld", trial, (long long)e,
                                      rdx_array_get(&r, e), (long long)flat);
                    }
        free(v);
        rdx_graph_destroy(g);
    }
}
END_TEST

START_TEST(index_stack_and_bitcast)
{
    rdx_graph *g = ig();
    float v[A * B * C];
    const rdx_tensor *t = cube(g, v);
    rdx_dtype i32 = rdx_dtype_of(RDX_INT32);
    const rdx_tensor *i0 = rdx_tensor_const(g, i32, 2);
    rdx_array s = ireal(g, rdx_tensor_index(g, t, 1, &i0));
    ck_assert_int_eq(s.ndim, 2);
    for (int b = 0; b < B; b++)
        for (int c = 0; c < C; c++)
            ck_assert_double_eq(rdx_array_get(&s, b * C + c), v[(2 * B + b) * C + c]);
    int32_t iv[4] = { 2, 0, 0, 1 }, jv[2] = { 3, 1 };
    const rdx_tensor *ix[2] = { rdx_tensor_from_data(g, i32, 1, (int64_t[]){ 4 }, iv),
                                rdx_tensor_from_data(g, i32, 1, (int64_t[]){ 2 }, jv) };
    rdx_array gth = ireal(g, rdx_tensor_index(g, t, 2, ix));
    ck_assert_int_eq(gth.ndim, 3);
    ck_assert_int_eq(gth.dims[0], 4);
    ck_assert_int_eq(gth.dims[1], 2);
    for (int p = 0; p < 4; p++)
        for (int q = 0; q < 2; q++)
            for (int c = 0; c < C; c++)
                ck_assert_double_eq(rdx_array_get(&gth, (p * 2 + q) * C + c),
                                    v[(iv[p] * B + jv[q]) * C + c]);
    /* an index out of range reads the invalid value, 0 (as the device: docs/tensor.md) */
    int32_t bad = 3;
    const rdx_tensor *oob = rdx_tensor_from_data(g, i32, 0, NULL, &bad);
    rdx_array r = ireal(g, rdx_tensor_index(g, t, 1, &oob));
    ck_assert_int_eq(r.ndim, 2);
    for (int k = 0; k < B * C; k++)
        ck_assert_double_eq(rdx_array_get(&r, k), 0);
    int32_t kv[3] = { -1, 1, 7 };
    const rdx_tensor *ko = rdx_tensor_from_data(g, i32, 1, (int64_t[]){ 3 }, kv);
    rdx_array gk = ireal(g, rdx_tensor_index(g, t, 1, &ko));
    for (int p = 0; p < 3; p++)
        for (int k = 0; k < B * C; k++)
            ck_assert_double_eq(rdx_array_get(&gk, p * B * C + k), p == 1 ? v[B * C + k] : 0);
    /* STACK along axis 1 */
    float x[2] = { 1, 2 }, y[2] = { 3, 4 };
    const rdx_tensor *xy[2] = { buf_f32(g, 1, (int64_t[]){ 2 }, x),
                                buf_f32(g, 1, (int64_t[]){ 2 }, y) };
    rdx_array st = ireal(g, rdx_tensor_stack(g, xy, 2, 1));
    float want[4] = { 1, 3, 2, 4 };
    for (int k = 0; k < 4; k++)
        ck_assert_double_eq(rdx_array_get(&st, k), want[k]);
    /* BITCAST: float32 -> uint32 is the bit pattern; uint8[8] -> float32[2] */
    rdx_array bits = ireal(g, rdx_tensor_bitcast(g, xy[0], rdx_dtype_of(RDX_UINT32)));
    ck_assert_int_eq(rdx_array_get_int(&bits, 1), 0x40000000);
    uint8_t raw[8];
    memcpy(raw, x, 8);
    const rdx_tensor *rb =
        rdx_tensor_from_data(g, rdx_dtype_of(RDX_UINT8), 1, (int64_t[]){ 8 }, raw);
    rdx_array fl = ireal(g, rdx_tensor_bitcast(g, rb, rdx_dtype_of(RDX_FLOAT32)));
    ck_assert_int_eq(fl.dims[0], 2);
    ck_assert_double_eq(rdx_array_get(&fl, 1), 2.0);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(store_after_and_gated_load)
{
    rdx_graph *g = ig();
    rdx_ir_ctx *c = rdx_graph_ir(g);
    float v[4] = { 1, 2, 3, 4 };
    const rdx_tensor *x = buf_f32(g, 1, (int64_t[]){ 4 }, v);
    const rdx_tensor *dst = rdx_tensor_empty(g, rdx_dtype_of(RDX_FLOAT32), 1, (int64_t[]){ 4 });
    const rdx_tensor *val = rdx_tensor_muls(g, x, 10);
    const rdx_uop *sv[2] = { dst, val };
    const rdx_uop *store = rdx_ir_node(c, RDX_OP_STORE, sv, 2, NULL);
    const rdx_uop *av[2] = { dst, store };
    const rdx_uop *after = rdx_ir_node(c, RDX_OP_AFTER, av, 2, NULL);
    rdx_array r = ireal(g, rdx_tensor_adds(g, after, 1));
    for (int k = 0; k < 4; k++)
        ck_assert_double_eq(rdx_array_get(&r, k), v[k] * 10 + 1);
    size_t nb;
    const float *bound = rdx_interp_bound(rdx_graph_interp(g), dst, &nb);
    ck_assert_uint_eq(nb, 16);
    ck_assert_float_eq(bound[3], 40);
    /* gated LOAD(buf, alt, gate) */
    uint8_t gate[4] = { 1, 0, 1, 0 };
    const rdx_tensor *gt =
        rdx_tensor_from_data(g, rdx_dtype_of(RDX_BOOL), 1, (int64_t[]){ 4 }, gate);
    rdx_uop_arg la = rdx_uop_arg_none();
    const rdx_uop *ls[3] = { x, rdx_ir_const_float(c, rdx_dtype_of(RDX_FLOAT32), -1), gt };
    const rdx_uop *ld = rdx_ir_node(c, RDX_OP_LOAD, ls, 3, &la);
    ck_assert_ptr_nonnull(ld);
    rdx_array lr = ireal(g, ld);
    float lw[4] = { 1, -1, 3, -1 };
    for (int k = 0; k < 4; k++)
        ck_assert_double_eq(rdx_array_get(&lr, k), lw[k]);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(bindings_and_symbolic_buffers)
{
    rdx_interp *ip;
    rdx_ir_ctx *c;
    ck_assert_int_eq(rdx_interp_create(&ip), RDX_OK);
    ck_assert_int_eq(rdx_ir_ctx_create(&c), RDX_OK);
    const rdx_uop *n = rdx_ir_var(c, "n", 1, 8);
    const rdx_uop *shape = rdx_ir_shape_u(c, &n, 1);
    rdx_uop_arg a = rdx_uop_arg_none();
    a.i = 0;
    a.dtype = rdx_dtype_of(RDX_INT32);
    const char *dev = "CPU";
    a.device = rdx_ir_device(c, &dev, 1);
    const rdx_uop *buf = rdx_ir_node(c, RDX_OP_BUFFER, &shape, 1, &a);
    const rdx_uop *sum = rdx_ir_node(c, RDX_OP_REDUCE, &buf, 1,
                                     &(rdx_uop_arg){ .sub = RDX_RED_ADD,
                                                     .ints = rdx_ir_ints(c, (int64_t[]){ 0 }, 1),
                                                     .nints = 1 });
    ck_assert_ptr_nonnull(sum);
    int32_t v[5] = { 1, 2, 3, 4, 5 };
    rdx_array r;
    ck_assert_int_eq(rdx_interp_bind(ip, buf, v, sizeof v), RDX_OK);
    ck_assert_int_eq(rdx_interp_realize(ip, &sum, 1, &r), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "'n' is not bound"));
    ck_assert_int_eq(rdx_interp_bind_var(ip, n, 9), RDX_ERR_RANGE);
    ck_assert_int_eq(rdx_interp_bind_var(ip, n, 4), RDX_OK);
    ck_assert_int_eq(rdx_interp_realize(ip, &sum, 1, &r), RDX_ERR_INVALID); /* 5 values, n = 4 */
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "bound data has 20 bytes"));
    ck_assert_int_eq(rdx_interp_bind_var(ip, n, 5), RDX_OK);
    ck_assert_int_eq(rdx_interp_realize(ip, &sum, 1, &r), RDX_OK);
    ck_assert_int_eq(r.dims[0], 1);
    ck_assert_int_eq(rdx_array_get_int(&r, 0), 15);
    ck_assert_int_eq(rdx_interp_bind(ip, buf, v, 3), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_interp_bind(ip, sum, v, 4), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_interp_bind_var(ip, buf, 1), RDX_ERR_INVALID);
    ck_assert_ptr_null(rdx_interp_bound(ip, sum, NULL));
    /* codegen-only ops are refused */
    const rdx_uop *rg = rdx_ir_range(c, rdx_ir_int(c, 4), 0, RDX_AXIS_LOOP);
    ck_assert_int_eq(rdx_interp_realize(ip, &rg, 1, &r), RDX_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "RANGE"));
    /* an unbound PARAM outside a FUNCTION */
    const rdx_uop *pm = rdx_ir_node(c, RDX_OP_PARAM, &shape, 1, &a);
    ck_assert_int_eq(rdx_interp_realize(ip, &pm, 1, &r), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "no bound data"));
    rdx_interp_destroy(ip);
    rdx_ir_ctx_destroy(c);
}
END_TEST

START_TEST(copy_keeps_values_and_changes_the_device)
{
    rdx_graph *g = ig();
    float v[4] = { 1, 2, 3, 4 };
    const rdx_tensor *x = buf_f32(g, 1, (int64_t[]){ 4 }, v);
    const char *d1 = "GPU:1";
    const rdx_tensor *c1 = rdx_tensor_copy(g, rdx_tensor_muls(g, x, 2), &d1, 1);
    ck_assert_ptr_nonnull(c1);
    ck_assert_int_eq(c1->op, RDX_OP_LOAD);
    ck_assert_str_eq(c1->device->names[0], "GPU:1");
    rdx_array r = ireal(g, c1);
    for (int k = 0; k < 4; k++)
        ck_assert_double_eq(rdx_array_get(&r, k), 2 * v[k]);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(many_roots_and_deep_chains)
{
    rdx_graph *g = ig();
    enum { R = 3000, D = 5000 };
    static const rdx_tensor *roots[R];
    static rdx_array out[R];
    for (int k = 0; k < R; k++)
        roots[k] = rdx_tensor_const(g, rdx_dtype_of(RDX_INT32), k);
    ck_assert_int_eq(rdx_graph_realize(g, roots, R, out), RDX_OK);
    for (int k = 0; k < R; k++)
        ck_assert_int_eq(rdx_array_get_int(&out[k], 0), k);
    /* a chain deeper than any recursion would allow */
    const rdx_tensor *x = rdx_tensor_const(g, rdx_dtype_of(RDX_INT64), 0);
    for (int k = 0; k < D; k++)
        x = rdx_tensor_adds(g, x, 1);
    rdx_array r = ireal(g, x);
    ck_assert_int_eq(rdx_array_get_int(&r, 0), D);
    rdx_graph_destroy(g);
}
END_TEST

TCase *interp_tcase_view(void)
{
    TCase *tc = tcase_create("view");
    tcase_add_test(tc, permute_flip_shrink_expand_match_index_math);
    tcase_add_test(tc, reshape_of_a_strided_view_and_pad_fill);
    tcase_add_test(tc, random_view_chains_then_reshape);
    tcase_add_test(tc, index_stack_and_bitcast);
    tcase_add_test(tc, store_after_and_gated_load);
    tcase_add_test(tc, bindings_and_symbolic_buffers);
    tcase_add_test(tc, copy_keeps_values_and_changes_the_device);
    tcase_add_test(tc, many_roots_and_deep_chains);
    return tc;
}
