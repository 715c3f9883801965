/* tests/realize/semantics_test.c — tensor programs whose semantics were once different
 * on the device and in the interpreter, or refused by one of them (issue 22): masked
 * fills, zero-size tensors, undefined integer cases, half-precision and small-integer
 * reductions, row fusion at small sizes. Each realized on the default device and
 * compared with the interpreter, and with values written here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* half sums and matmuls accumulate in float32 on both paths (the tensor cores still used),
   small integers and bool sum to int32/uint32, pow of negative bases */
START_TEST(dtype_rules_on_the_device)
{
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    uint64_t seed = 2202;
    const rdx_tensor *h = rz_random(g, F16, 2, (int64_t[]){ 3, 1000 }, &seed);
    const rdx_tensor *i8 = rz_random(g, rdx_dtype_of(RDX_INT8), 2, (int64_t[]){ 5, 300 }, &seed);
    const rdx_tensor *u8 = rz_random(g, U8, 2, (int64_t[]){ 5, 300 }, &seed);
    const rdx_tensor *b = rdx_tensor_cmpgt(g, i8, rdx_tensor_const(g, i8->dtype, 0));
    const rdx_tensor *base = rz_random(g, F32, 1, (int64_t[]){ 64 }, &seed);
    const rdx_tensor *ex = rdx_tensor_trunc(g, rdx_tensor_muls(g, base, 3));
    rz_case cases[] = {
        { rdx_tensor_sum(g, h, 1, (int[]){ 1 }, 0), 1e-3 },
        { rdx_tensor_mean(g, h, 1, (int[]){ 1 }, 0), 1e-3 },
        { rdx_tensor_sum(g, i8, 1, (int[]){ 1 }, 0), 0 },
        { rdx_tensor_sum(g, u8, 1, (int[]){ 1 }, 0), 0 },
        { rdx_tensor_sum(g, b, 0, NULL, 0), 0 },
        { rdx_tensor_prod(g, b, 1, (int[]){ 1 }, 0), 0 },
        { rdx_tensor_pow(g, base, ex), 1e-5 },
        { rdx_tensor_pow(g, rdx_tensor_cast(g, ex, I32),
                         rdx_tensor_cast(g, rdx_tensor_abs(g, rdx_tensor_trunc(g, base)), I32)),
          0 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
        ck_assert_ptr_nonnull(cases[k].t);
    ck_assert_uint_eq(cases[2].t->dtype.scalar, RDX_INT32);
    ck_assert_uint_eq(cases[3].t->dtype.scalar, RDX_UINT32);
    rz_check_cases(g, dev, cases, sizeof cases / sizeof *cases);
    /* a float16 matmul: float32 accumulation in the graph, and on the tensor cores */
    const rdx_tensor *A = rz_random(g, F16, 2, (int64_t[]){ 32, 48 }, &seed);
    const rdx_tensor *B = rz_random(g, F16, 2, (int64_t[]){ 48, 64 }, &seed);
    const rdx_tensor *mm = rdx_tensor_matmul(g, A, B);
    ck_assert_ptr_nonnull(mm);
    ck_assert_uint_eq(mm->dtype.scalar, RDX_FLOAT16);
    rdx_realize_options o = { .keep_isa = 1 };
    rdx_realize_report *rep = rz_check(g, dev, &mm, 1, &o, 1e-2);
    int wmma = 0;
    for (size_t k = 0; k < rep->nkernels; k++)
        wmma |= rep->kernels[k].isa && strstr(rep->kernels[k].isa, "v_wmma") != NULL;
    ck_assert_msg(wmma, "the float16 matmul does not use the tensor cores");
    rdx_realize_report_free(rep);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

/* zero-size tensors: kernels with nothing to write are no-ops (the device refused their
   grid of size 0), results are empty arrays; reductions over an empty axis give the
   identity */
START_TEST(zero_size_tensors)
{
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    float d[1] = { 0 };
    const rdx_tensor *x = rdx_tensor_from_data(g, F32, 2, (int64_t[]){ 0, 5 }, d);
    const rdx_tensor *y = rdx_tensor_from_data(g, F32, 2, (int64_t[]){ 3, 0 }, d);
    const rdx_tensor *ts[] = {
        rdx_tensor_adds(g, x, 1),
        rdx_tensor_max(g, x, 1, (int[]){ 1 }, 0),
        rdx_tensor_sum(g, x, 1, (int[]){ 0 }, 0),
        rdx_tensor_matmul(g, y, x),
        rdx_tensor_softmax(g, x, -1),
        rdx_tensor_cat(
            g, (const rdx_tensor *[]){ x, rdx_tensor_ones(g, F32, 2, (int64_t[]){ 2, 5 }) }, 2, 0),
    };
    size_t n = sizeof ts / sizeof *ts;
    for (size_t k = 0; k < n; k++) {
        ck_assert_msg(ts[k] != NULL, "%zu: %s", k, rdx_graph_error(g));
        rdx_array got;
        rdx_realize_report *rep = NULL;
        rdx_status st = rdx_tensor_realize_on(g, dev, &ts[k], 1, NULL, &got, &rep);
        ck_assert_msg(st == RDX_OK, "%zu: %s", k, rdx_error_message());
        rdx_realize_report_free(rep);
    }
    /* all together, against the interpreter */
    rz_check_free(g, dev, ts, n, NULL, 1e-6);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

/* undefined cases, one behaviour (docs/tensor.md): x // 0 = 0, x % 0 = x in every integer
   dtype; an index out of range reads 0 */
START_TEST(undefined_cases_agree)
{
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    int32_t av[8] = { 5, -5, 7, 0, -128, 100, 3, -9 }, bv[8] = { 0, 0, 2, 0, -1, 0, -2, 4 };
    const rdx_tensor *A = rdx_tensor_from_data(g, I32, 1, (int64_t[]){ 8 }, av);
    const rdx_tensor *B = rdx_tensor_from_data(g, I32, 1, (int64_t[]){ 8 }, bv);
    static const rdx_scalar dts[] = { RDX_INT8,  RDX_UINT8,  RDX_INT16, RDX_UINT16,
                                      RDX_INT32, RDX_UINT32, RDX_INT64, RDX_UINT64 };
    for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
        rdx_dtype dt = rdx_dtype_of(dts[d]);
        const rdx_tensor *a = rdx_tensor_cast(g, A, dt), *b = rdx_tensor_cast(g, B, dt);
        const rdx_tensor *ts[3] = { rdx_tensor_idiv(g, a, b), rdx_tensor_mod(g, a, b), a };
        rdx_array want[3];
        ck_assert_int_eq(rdx_graph_realize(g, ts, 3, want), RDX_OK);
        for (int k = 0; k < 8; k++)
            if (bv[k] == 0) {
                ck_assert_int_eq(rdx_array_get_int(&want[0], k), 0);
                ck_assert_int_eq(rdx_array_get_int(&want[1], k), rdx_array_get_int(&want[2], k));
            }
        rz_check_free(g, dev, ts, 2, NULL, 0);
    }
    /* a gather with indices out of range on both sides, and a scalar index out of range */
    uint64_t seed = 2203;
    const rdx_tensor *x = rz_random(g, F32, 2, (int64_t[]){ 5, 7 }, &seed);
    int32_t iv[6] = { -1, 0, 4, 5, 2, 100 };
    const rdx_tensor *ix = rdx_tensor_from_data(g, I32, 1, (int64_t[]){ 6 }, iv);
    int32_t bad = 9;
    const rdx_tensor *sc = rdx_tensor_from_data(g, I32, 0, NULL, &bad);
    const rdx_tensor *ts[2] = { rdx_tensor_index(g, x, 1, &ix), rdx_tensor_index(g, x, 1, &sc) };
    rdx_array want[2];
    ck_assert_int_eq(rdx_graph_realize(g, ts, 2, want), RDX_OK);
    for (int k = 0; k < 7; k++) {
        ck_assert_double_eq(rdx_array_get(&want[0], k), 0);
        ck_assert_double_eq(rdx_array_get(&want[0], 3 * 7 + k), 0);
        ck_assert_double_eq(rdx_array_get(&want[1], k), 0);
    }
    rz_check_free(g, dev, ts, 2, NULL, 0);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

/* tensor-level side effects: SINK(STORE(...)) and GROUP realize (void output, as the
   interpreter), a gated STORE writes where the gate holds, AFTER(buf, SINK(STORE(buf, v)))
   is the assignment; a STORE into a value is refused naming it (the error was about a
   PARAM's dtype) */
START_TEST(tensor_level_sink_group_and_gated_store)
{
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    rdx_ir_ctx *c = rdx_graph_ir(g);
    uint64_t seed = 2204;
    const rdx_tensor *x = rz_random(g, F32, 2, (int64_t[]){ 6, 9 }, &seed);
    const rdx_tensor *b = rz_random(g, F32, 2, (int64_t[]){ 6, 9 }, &seed);
    const rdx_tensor *b2 = rz_random(g, F32, 2, (int64_t[]){ 6, 9 }, &seed);
    /* idempotent stores: the interpreter's STOREs change the bound data, the device's not */
    const rdx_tensor *v = rdx_tensor_muls(g, x, 2);
    const rdx_tensor *gate = rdx_tensor_cmpgt(g, x, rdx_tensor_const(g, F32, 0));
    const rdx_uop *gs = NULL;
    const rdx_uop *gsrc[3] = { b, v, gate };
    ck_assert_int_eq(rdx_ir_make(c, RDX_OP_STORE, gsrc, 3, NULL, 0, &gs), RDX_OK);
    const rdx_uop *plain = rdx_ir_store(c, b2, rdx_tensor_adds(g, x, 1));
    const rdx_uop *grp = rdx_ir_node(c, RDX_OP_GROUP, (const rdx_uop *[]){ gs, plain }, 2, NULL);
    const rdx_uop *sink = rdx_ir_sink(c, &grp, 1);
    ck_assert_ptr_nonnull(sink);
    /* the SINK alone: void on both paths */
    rdx_array got;
    rdx_realize_report *rep = NULL;
    rdx_status st = rdx_tensor_realize_on(g, dev, &sink, 1, NULL, &got, &rep);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    ck_assert_uint_eq(got.dtype.scalar, RDX_VOID);
    ck_assert_uint_ge(rep->nkernels, 1); /* the two stores may share a kernel */
    rdx_realize_report_free(rep);
    /* the stored buffers read after the effects */
    const rdx_uop *s1 = rdx_ir_sink(c, &gs, 1);
    const rdx_uop *a1 = rdx_ir_node(c, RDX_OP_AFTER, (const rdx_uop *[]){ b, s1 }, 2, NULL);
    const rdx_uop *a2 = rdx_ir_node(c, RDX_OP_AFTER, (const rdx_uop *[]){ b2, plain }, 2, NULL);
    ck_assert_ptr_nonnull(a1);
    ck_assert_ptr_nonnull(a2);
    const rdx_tensor *roots[3] = { a1, a2, sink };
    rz_check_free(g, dev, roots, 3, NULL, 1e-6);
    /* a STORE into a computed value is refused, naming the STORE */
    rdx_graph *g2 = rz_graph();
    rdx_ir_ctx *c2 = rdx_graph_ir(g2);
    const rdx_tensor *y = rz_random(g2, F32, 1, (int64_t[]){ 4 }, &seed);
    const rdx_uop *ks = NULL;
    const rdx_uop *bad = rdx_ir_store(c2, rdx_tensor_reshape(g2, y, 2, (int64_t[]){ 2, 2 }),
                                      rdx_tensor_const(g2, F32, 1));
    if (bad) { /* the IR may refuse it first ([not storage]) */
        ks = rdx_ir_sink(c2, &bad, 1);
        st = rdx_tensor_realize_on(g2, dev, &ks, 1, NULL, &got, &rep);
        ck_assert_int_ne(st, RDX_OK);
        ck_assert_ptr_null(strstr(rdx_error_message(), "needs a value dtype"));
    }
    rdx_graph_destroy(g2);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

/* BITCAST that changes the item size, both ways and between every size, on the device as
   in the interpreter (little-endian; the last axis rescaled) */
START_TEST(bitcast_changing_item_size)
{
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    uint64_t seed = 2205;
    static const rdx_scalar from[] = { RDX_FLOAT32, RDX_FLOAT16, RDX_UINT8,
                                       RDX_INT64,   RDX_FLOAT64, RDX_INT16 };
    static const rdx_scalar to[] = { RDX_FLOAT16, RDX_FLOAT32, RDX_INT32,
                                     RDX_FLOAT32, RDX_UINT8,   RDX_INT64 };
    for (size_t k = 0; k < sizeof from / sizeof *from; k++) {
        rdx_dtype a = rdx_dtype_of(from[k]), b = rdx_dtype_of(to[k]);
        const rdx_tensor *x = rz_random(g, a, 2, (int64_t[]){ 3, 8 }, &seed);
        const rdx_tensor *y = rdx_tensor_bitcast(g, x, b);
        ck_assert_msg(y != NULL, "%s", rdx_graph_error(g));
        /* and through arithmetic on both sides, integer results compared exactly */
        const rdx_tensor *z = rdx_tensor_bitcast(g, rdx_tensor_adds(g, x, 1), b);
        const rdx_tensor *ts[2] = { rdx_tensor_bitcast(g, y, rdx_dtype_of(RDX_UINT8)),
                                    rdx_tensor_bitcast(g, z, rdx_dtype_of(RDX_UINT8)) };
        rz_check_free(g, dev, ts, 2, NULL, 0);
    }
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

/* BINARY as device data: raw bytes in the graph (uint8[len]) are an input the device
   reads; bitcast to float32 and used in arithmetic, as in the interpreter */
START_TEST(binary_as_device_data)
{
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    rdx_ir_ctx *c = rdx_graph_ir(g);
    float v[6] = { 1.5f, -2.25f, 3.0f, 0.125f, -7.0f, 1e6f };
    rdx_uop_arg a = rdx_uop_arg_none();
    a.str = (const char *)v;
    a.len = sizeof v;
    const rdx_uop *bin = NULL;
    ck_assert_int_eq(rdx_ir_make(c, RDX_OP_BINARY, NULL, 0, &a, 0, &bin), RDX_OK);
    const rdx_tensor *f = rdx_tensor_bitcast(g, bin, F32);
    ck_assert_msg(f != NULL, "%s", rdx_graph_error(g));
    ck_assert_int_eq(rdx_tensor_dim(f, 0), 6);
    const rdx_tensor *ts[3] = { rdx_tensor_muls(g, f, 2), bin,
                                rdx_tensor_sum(g, rdx_tensor_cast(g, bin, I32), 0, NULL, 0) };
    rz_check_free(g, dev, ts, 3, NULL, 0);
    rdx_array got;
    ck_assert_int_eq(rdx_tensor_realize_on(g, dev, ts, 1, NULL, &got, NULL), RDX_OK);
    for (int k = 0; k < 6; k++)
        ck_assert_double_eq(rdx_array_get(&got, k), 2.0 * v[k]);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

TCase *rz_tcase_semantics(void)
{
    TCase *tc = tcase_create("semantics");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, masked_fill);
    tcase_add_test(tc, dtype_rules_on_the_device);
    tcase_add_test(tc, zero_size_tensors);
    tcase_add_test(tc, undefined_cases_agree);
    tcase_add_test(tc, tensor_level_sink_group_and_gated_store);
    tcase_add_test(tc, bitcast_changing_item_size);
    tcase_add_test(tc, binary_as_device_data);
    return tc;
}
