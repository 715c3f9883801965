/* tests/tensor/api_test.c — every API function's result against host computations written here. */
#include <stdlib.h>

#include "tests/tensor/tensor_test.h"

START_TEST(creation_functions)
{
    rdx_graph *g = tgraph();
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32), i32 = rdx_dtype_of(RDX_INT32);
    int64_t d[2] = { 2, 3 };
    rdx_array e = treal(g, rdx_tensor_empty(g, f32, 2, d));
    ck_assert_int_eq(e.numel, 6);
    ck_assert_double_eq(rdx_array_get(&e, 5), 0);
    rdx_array f = treal(g, rdx_tensor_full(g, i32, 2, d, 7));
    ck_assert_int_eq(rdx_array_get_int(&f, 4), 7);
    rdx_array on = treal(g, rdx_tensor_ones(g, f32, 1, d));
    ck_assert_double_eq(rdx_array_get(&on, 1), 1);
    rdx_array z = treal(g, rdx_tensor_zeros(g, f32, 2, d));
    ck_assert_double_eq(rdx_array_get(&z, 3), 0);
    rdx_array c = treal(g, rdx_tensor_const(g, f32, 2.5));
    ck_assert_int_eq(c.ndim, 0);
    ck_assert_double_eq(rdx_array_get(&c, 0), 2.5);
    rdx_array fl = treal(g, rdx_tensor_full_like(g, rdx_tensor_empty(g, i32, 2, d), -3));
    ck_assert_int_eq(fl.dtype.scalar, RDX_INT32);
    ck_assert_int_eq(rdx_array_get_int(&fl, 5), -3);
    rdx_array ar = treal(g, rdx_tensor_arange_range(g, 1, 2, 0.25, f32));
    ck_assert_int_eq(ar.numel, 4);
    ck_assert_double_eq(rdx_array_get(&ar, 3), 1.75);
    rdx_array ey = treal(g, rdx_tensor_eye(g, 4, f32));
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            ck_assert_double_eq(rdx_array_get(&ey, i * 4 + j), i == j);
    float host[6] = { 1, 2, 3, 4, 5, 6 };
    const rdx_tensor *h = tf32(g, 2, d, host);
    rdx_array hr = treal(g, h);
    ck_assert_double_eq(rdx_array_get(&hr, 5), 6);
    host[5] = 60; /* the graph copied the data */
    hr = treal(g, h);
    ck_assert_double_eq(rdx_array_get(&hr, 5), 6);
    ck_assert_int_eq(rdx_tensor_assign_data(g, h, host, sizeof host), RDX_OK);
    hr = treal(g, h);
    ck_assert_double_eq(rdx_array_get(&hr, 5), 60);
    ck_assert_int_eq(rdx_tensor_assign_data(g, h, host, 4), RDX_ERR_INVALID);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(random_tensors_are_deterministic_and_well_distributed)
{
    rdx_graph *g = tgraph();
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32);
    int64_t n = 4000;
    rdx_array a = treal(g, rdx_tensor_rand(g, f32, 1, &n, 1234));
    rdx_array b = treal(g, rdx_tensor_rand(g, f32, 1, &n, 1234));
    rdx_array c = treal(g, rdx_tensor_rand(g, f32, 1, &n, 1235));
    double mean = 0;
    int diff = 0;
    for (int k = 0; k < n; k++) {
        double x = rdx_array_get(&a, k);
        ck_assert(x >= 0 && x < 1);
        ck_assert_double_eq(x, rdx_array_get(&b, k));
        diff += x != rdx_array_get(&c, k);
        mean += x;
    }
    mean /= (double)n;
    ck_assert_double_eq_tol(mean, 0.5, 0.03);
    ck_assert_int_gt(diff, 3900);
    rdx_array r = treal(g, rdx_tensor_randn(g, f32, 2, (int64_t[]){ 40, 100 }, 7));
    double m = 0, m2 = 0;
    for (int k = 0; k < r.numel; k++) {
        double x = rdx_array_get(&r, k);
        ck_assert(isfinite(x));
        m += x, m2 += x * x;
    }
    m /= (double)r.numel;
    m2 = m2 / (double)r.numel - m * m;
    ck_assert_double_eq_tol(m, 0, 0.08);
    ck_assert_double_eq_tol(m2, 1, 0.1);
    rdx_array ri = treal(g, rdx_tensor_randint(g, -3, 5, 1, &n, 9));
    int seen[8] = { 0 };
    for (int k = 0; k < n; k++) {
        int64_t x = rdx_array_get_int(&ri, k);
        ck_assert(x >= -3 && x < 5);
        seen[x + 3]++;
    }
    for (int k = 0; k < 8; k++)
        ck_assert_int_gt(seen[k], 350);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(elementwise_broadcasts_and_promotes)
{
    rdx_graph *g = tgraph();
    float a[6] = { -2, -0.5f, 0, 0.5f, 2, 3 }, b[3] = { 1, 2, 3 };
    const rdx_tensor *A = tf32(g, 2, (int64_t[]){ 2, 3 }, a), *B = tf32(g, 1, (int64_t[]){ 3 }, b);
    rdx_array s = treal(g, rdx_tensor_add(g, A, B));
    for (int k = 0; k < 6; k++)
        ck_assert_double_eq(rdx_array_get(&s, k), a[k] + b[k % 3]);
    int32_t iv[3] = { 7, -7, 9 }, jv[3] = { 2, 2, -4 };
    const rdx_tensor *I = ti32(g, 1, (int64_t[]){ 3 }, iv), *J = ti32(g, 1, (int64_t[]){ 3 }, jv);
    const rdx_tensor *mix = rdx_tensor_mul(g, I, B);
    ck_assert_int_eq(mix->dtype.scalar, RDX_FLOAT32);
    const rdx_tensor *dv = rdx_tensor_div(g, I, J);
    ck_assert_int_eq(dv->dtype.scalar, RDX_FLOAT32);
    rdx_array dr = treal(g, dv), id = treal(g, rdx_tensor_idiv(g, I, J)),
              md = treal(g, rdx_tensor_mod(g, I, J));
    for (int k = 0; k < 3; k++) {
        ck_assert_double_eq_tol(rdx_array_get(&dr, k), (double)iv[k] / jv[k], 1e-6);
        /* floor division and modulo (tinygrad's Tensor // and %): 7 // -4... */
        int fq = iv[k] / jv[k] - (iv[k] % jv[k] != 0 && (iv[k] < 0) != (jv[k] < 0));
        ck_assert_int_eq(rdx_array_get_int(&id, k), fq);
        ck_assert_int_eq(rdx_array_get_int(&md, k), iv[k] - fq * jv[k]);
    }
    rdx_array x = treal(g, rdx_tensor_xor(g, I, J)), o = treal(g, rdx_tensor_or(g, I, J));
    rdx_array an = treal(g, rdx_tensor_and(g, I, J)),
              sl = treal(g, rdx_tensor_shl(g, I, rdx_tensor_const(g, rdx_dtype_of(RDX_INT32), 3)));
    rdx_array sr = treal(g, rdx_tensor_shr(g, I, rdx_tensor_const(g, rdx_dtype_of(RDX_INT32), 1)));
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(rdx_array_get_int(&x, k), iv[k] ^ jv[k]);
        ck_assert_int_eq(rdx_array_get_int(&o, k), iv[k] | jv[k]);
        ck_assert_int_eq(rdx_array_get_int(&an, k), iv[k] & jv[k]);
        ck_assert_int_eq(rdx_array_get_int(&sl, k), iv[k] * 8);
        ck_assert_int_eq(rdx_array_get_int(&sr, k), iv[k] >> 1);
    }
    /* comparisons and their compositions */
    const rdx_tensor *cmp[6] = { rdx_tensor_cmplt(g, A, B), rdx_tensor_cmpgt(g, A, B),
                                 rdx_tensor_cmple(g, A, B), rdx_tensor_cmpge(g, A, B),
                                 rdx_tensor_cmpeq(g, A, B), rdx_tensor_cmpne(g, A, B) };
    for (int q = 0; q < 6; q++) {
        rdx_array r = treal(g, cmp[q]);
        ck_assert_int_eq(r.dtype.scalar, RDX_BOOL);
        for (int k = 0; k < 6; k++) {
            float p = a[k], w = b[k % 3];
            int want[6] = { p<w, p> w, p <= w, p >= w, p == w, p != w };
            ck_assert_int_eq(rdx_array_get_int(&r, k), want[q]);
        }
    }
    /* unary functions against libm */
    const rdx_tensor *un[10] = { rdx_tensor_neg(g, A),   rdx_tensor_abs(g, A),
                                 rdx_tensor_relu(g, A),  rdx_tensor_clamp(g, A, -1, 1),
                                 rdx_tensor_trunc(g, A), rdx_tensor_gelu(g, A),
                                 rdx_tensor_recip(g, B), rdx_tensor_rsqrt(g, B),
                                 rdx_tensor_exp2(g, A),  rdx_tensor_log2(g, B) };
    for (int q = 0; q < 10; q++) {
        rdx_array r = treal(g, un[q]);
        for (int k = 0; k < (q >= 6 && q != 8 ? 3 : 6); k++) {
            double v = a[k], w = b[k % 3];
            double want[10] = { -v,
                                fabs(v),
                                v > 0 ? v : 0,
                                v < -1  ? -1
                                : v > 1 ? 1
                                        : v,
                                trunc(v),
                                0.5 * v * (1 + tanh(sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))),
                                1 / w,
                                1 / sqrt(w),
                                exp2(v),
                                log2(w) };
            ck_assert_double_eq_tol(rdx_array_get(&r, k), want[q], 3e-6 * (1 + fabs(want[q])));
        }
    }
    rdx_array pw =
        treal(g, rdx_tensor_pow(g, B, rdx_tensor_const(g, rdx_dtype_of(RDX_FLOAT32), 1.5)));
    for (int k = 0; k < 3; k++)
        ck_assert_double_eq_tol(rdx_array_get(&pw, k), pow(b[k], 1.5), 1e-5 * pow(b[k], 1.5));
    rdx_array wh =
        treal(g, rdx_tensor_where(g, rdx_tensor_cmpgt(g, A, B), A, rdx_tensor_neg(g, B)));
    for (int k = 0; k < 6; k++)
        ck_assert_double_eq(rdx_array_get(&wh, k), a[k] > b[k % 3] ? a[k] : -b[k % 3]);
    rdx_array nt = treal(g, rdx_tensor_not(g, rdx_tensor_cmplt(g, A, B)));
    for (int k = 0; k < 6; k++)
        ck_assert_int_eq(rdx_array_get_int(&nt, k), !(a[k] < b[k % 3]));
    rdx_array mm = treal(g, rdx_tensor_minimum(g, I, J)),
              mx = treal(g, rdx_tensor_maximum(g, I, J));
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(rdx_array_get_int(&mm, k), iv[k] < jv[k] ? iv[k] : jv[k]);
        ck_assert_int_eq(rdx_array_get_int(&mx, k), iv[k] > jv[k] ? iv[k] : jv[k]);
    }
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(movement_functions)
{
    rdx_graph *g = tgraph();
    float v[24];
    for (int k = 0; k < 24; k++)
        v[k] = (float)k;
    const rdx_tensor *t = tf32(g, 3, (int64_t[]){ 2, 3, 4 }, v);
    const rdx_tensor *r = rdx_tensor_reshape(g, t, 2, (int64_t[]){ -1, 4 });
    ck_assert_int_eq(rdx_tensor_dim(r, 0), 6);
    rdx_array tr = treal(g, rdx_tensor_transpose(g, r, 0, 1));
    ck_assert_double_eq(rdx_array_get(&tr, 1 * 6 + 2), v[2 * 4 + 1]);
    rdx_array ex =
        treal(g, rdx_tensor_expand(g, tf32(g, 1, (int64_t[]){ 1 }, v + 5), 2, (int64_t[]){ 2, 3 }));
    ck_assert_double_eq(rdx_array_get(&ex, 5), 5);
    rdx_array sl = treal(g, rdx_tensor_slice(g, t, 2, 1, 4, 2));
    ck_assert_int_eq(sl.dims[2], 2);
    ck_assert_double_eq(rdx_array_get(&sl, 1), 3);
    ck_assert_double_eq(rdx_array_get(&sl, 2), 5);
    rdx_array sn = treal(g, rdx_tensor_slice(g, t, -1, -3, -1, 1));
    ck_assert_int_eq(sn.dims[2], 2);
    ck_assert_double_eq(rdx_array_get(&sn, 0), 1);
    rdx_array fl = treal(g, rdx_tensor_flip(g, t, 1, (int[]){ -1 }));
    ck_assert_double_eq(rdx_array_get(&fl, 0), 3);
    const rdx_tensor *parts[3];
    ck_assert_int_eq(rdx_tensor_split(g, t, 2, (int64_t[]){ 1, 2, 1 }, 3, parts), RDX_OK);
    ck_assert_int_eq(rdx_tensor_dim(parts[1], 2), 2);
    rdx_array cat = treal(g, rdx_tensor_cat(g, parts, 3, 2));
    for (int k = 0; k < 24; k++)
        ck_assert_double_eq(rdx_array_get(&cat, k), v[k]);
    const rdx_tensor *two[2] = { parts[0], parts[2] };
    rdx_array c2 = treal(g, rdx_tensor_cat(g, two, 2, -1));
    ck_assert_double_eq(rdx_array_get(&c2, 1), 3);
    rdx_array st = treal(g, rdx_tensor_stack(g, two, 2, -1));
    ck_assert_int_eq(st.ndim, 4);
    ck_assert_int_eq(st.dims[3], 2);
    ck_assert_double_eq(rdx_array_get(&st, 1), 3);
    const rdx_tensor *i1 = rdx_tensor_const(g, rdx_dtype_of(RDX_INT32), 1);
    rdx_array ix = treal(g, rdx_tensor_index(g, t, 1, &i1));
    ck_assert_double_eq(rdx_array_get(&ix, 0), 12);
    rdx_array pd = treal(g, rdx_tensor_pad(g, tf32(g, 1, (int64_t[]){ 2 }, v + 1), (int64_t[]){ 1 },
                                           (int64_t[]){ 2 }, 9));
    float pw[5] = { 9, 1, 2, 9, 9 };
    for (int k = 0; k < 5; k++)
        ck_assert_double_eq(rdx_array_get(&pd, k), pw[k]);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(reductions_keepdim_and_composites)
{
    rdx_graph *g = tgraph();
    float v[6] = { 1, 2, 3, 4, 5, 6 };
    const rdx_tensor *t = tf32(g, 2, (int64_t[]){ 2, 3 }, v);
    const rdx_tensor *k1 = rdx_tensor_sum(g, t, 1, (int[]){ 1 }, 1);
    ck_assert_int_eq(k1->ndim, 2);
    ck_assert_int_eq(rdx_tensor_dim(k1, 1), 1);
    ck_assert_int_eq(rdx_tensor_sum(g, t, 1, (int[]){ -1 }, 0)->ndim, 1);
    ck_assert_int_eq(rdx_tensor_sum(g, t, 0, NULL, 0)->ndim, 0);
    rdx_array mean = treal(g, rdx_tensor_mean(g, t, 1, (int[]){ 0 }, 0));
    ck_assert_double_eq(rdx_array_get(&mean, 2), 4.5);
    /* one_hot / embedding / cross-entropy */
    int32_t idx[3] = { 2, 0, 1 };
    const rdx_tensor *I = ti32(g, 1, (int64_t[]){ 3 }, idx);
    rdx_array oh = treal(g, rdx_tensor_one_hot(g, I, 4, rdx_dtype_of(RDX_FLOAT32)));
    ck_assert_int_eq(oh.dims[1], 4);
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 4; c++)
            ck_assert_double_eq(rdx_array_get(&oh, i * 4 + c), c == idx[i]);
    float w[8] = { 10, 11, 20, 21, 30, 31, 40, 41 };
    rdx_array em = treal(g, rdx_tensor_embedding(g, tf32(g, 2, (int64_t[]){ 4, 2 }, w), I));
    for (int i = 0; i < 3; i++)
        for (int e = 0; e < 2; e++)
            ck_assert_double_eq(rdx_array_get(&em, i * 2 + e), w[idx[i] * 2 + e]);
    float lg[9] = { 1, 2, 3, 0, 0, 0, -1, 5, 2 };
    rdx_array ce = treal(g, rdx_tensor_cross_entropy(g, tf32(g, 2, (int64_t[]){ 3, 3 }, lg), I));
    double want = 0;
    for (int i = 0; i < 3; i++) {
        double se = 0;
        for (int c = 0; c < 3; c++)
            se += exp(lg[i * 3 + c]);
        want += -(lg[i * 3 + idx[i]] - log(se));
    }
    ck_assert_double_eq_tol(rdx_array_get(&ce, 0), want / 3, 1e-5);
    /* markers are the identity on values */
    rdx_array dt = treal(g, rdx_tensor_detach(g, t)), ct = treal(g, rdx_tensor_contiguous(g, t));
    rdx_array cb = treal(g, rdx_tensor_contiguous_backward(g, t));
    ck_assert_double_eq(rdx_array_get(&dt, 5) + rdx_array_get(&ct, 5) + rdx_array_get(&cb, 5), 18);
    ck_assert_int_eq(rdx_tensor_ndim(t), 2);
    ck_assert_int_eq(rdx_tensor_numel(t), 6);
    ck_assert_int_eq(rdx_tensor_dim(t, -1), 3);
    ck_assert_int_eq(rdx_tensor_dim(t, 5), -1);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(threefry_matches_random123_and_mulacc)
{
    rdx_graph *g = tgraph();
    /* Random123 known answers for threefry2x32-20 (ctr, key -> out), packed hi:lo */
    uint64_t ctr[3] = { 0, 0xffffffffffffffffull, 0x85a308d3243f6a88ull };
    uint64_t key[3] = { 0, 0xffffffffffffffffull, 0x0370734413198a2eull };
    uint64_t want[3] = { 0x99ba4efe6b200159ull, 0xbb002be71cb996fcull, 0x483df7a0c4923a9cull };
    rdx_dtype u64 = rdx_dtype_of(RDX_UINT64);
    rdx_array r =
        treal(g, rdx_tensor_threefry(g, rdx_tensor_from_data(g, u64, 1, (int64_t[]){ 3 }, ctr),
                                     rdx_tensor_from_data(g, u64, 1, (int64_t[]){ 3 }, key)));
    for (int k = 0; k < 3; k++)
        ck_assert_uint_eq((uint64_t)rdx_array_get_int(&r, k), want[k]);
    expect_error(g, rdx_tensor_threefry(g, rdx_tensor_arange(g, 3), rdx_tensor_const(g, u64, 1)),
                 "threefry", "uint64", NULL);
    float a[3] = { 1, 2, 3 }, b[3] = { 4, 5, 6 };
    const rdx_tensor *A = tf32(g, 1, (int64_t[]){ 3 }, a), *B = tf32(g, 1, (int64_t[]){ 3 }, b);
    rdx_array m =
        treal(g, rdx_tensor_mulacc(g, A, B, rdx_tensor_const(g, rdx_dtype_of(RDX_FLOAT32), 0.5)));
    for (int k = 0; k < 3; k++)
        ck_assert_double_eq(rdx_array_get(&m, k), a[k] * b[k] + 0.5f);
    rdx_graph_destroy(g);
}
END_TEST

/* Every tensor graph prints in the text form, parses back and evaluates to the same values. */
START_TEST(tensor_graphs_round_trip_through_the_text_form)
{
    rdx_graph *g = tgraph();
    float x[12], w[8];
    for (int k = 0; k < 12; k++)
        x[k] = (float)k / 7 - 0.8f;
    for (int k = 0; k < 8; k++)
        w[k] = (float)(k % 3) - 1;
    const rdx_tensor *X = tf32(g, 2, (int64_t[]){ 3, 4 }, x),
                     *W = tf32(g, 2, (int64_t[]){ 4, 2 }, w);
    const rdx_tensor *y =
        rdx_tensor_log_softmax(g, rdx_tensor_gelu(g, rdx_tensor_matmul(g, X, W)), 1);
    const rdx_tensor *z = rdx_tensor_cumsum(g, rdx_tensor_sqrt(g, rdx_tensor_abs(g, X)), 0);
    const rdx_tensor *roots[2] = { y, z };
    rdx_array want[2];
    ck_assert_int_eq(rdx_graph_realize(g, roots, 2, want), RDX_OK);
    char *text;
    ck_assert_int_eq(rdx_ir_print(roots, 2, 0, &text), RDX_OK);
    rdx_ir_ctx *c;
    ck_assert_int_eq(rdx_ir_ctx_create(&c), RDX_OK);
    const rdx_uop **parsed;
    size_t n;
    ck_assert_msg(rdx_ir_parse(c, "roundtrip", text, strlen(text), &parsed, &n) == RDX_OK, "%s",
                  rdx_error_message());
    ck_assert_uint_eq(n, 2);
    rdx_interp *ip;
    ck_assert_int_eq(rdx_interp_create(&ip), RDX_OK);
    /* the parsed BUFFERs are found by slot */
    const rdx_uop **order;
    size_t m;
    ck_assert_int_eq(rdx_ir_toposort(parsed[0], &order, &m), RDX_OK);
    for (size_t k = 0; k < m; k++)
        if (order[k]->op == RDX_OP_BUFFER)
            ck_assert_int_eq(rdx_interp_bind(ip, order[k],
                                             order[k]->arg.i == X->arg.i ? (void *)x : (void *)w,
                                             order[k]->arg.i == X->arg.i ? sizeof x : sizeof w),
                             RDX_OK);
    free(order);
    rdx_array got[2];
    ck_assert_int_eq(rdx_interp_realize(ip, parsed, 2, got), RDX_OK);
    for (int r = 0; r < 2; r++) {
        ck_assert_int_eq(got[r].numel, want[r].numel);
        ck_assert_mem_eq(got[r].data, want[r].data, (size_t)want[r].numel * 4);
    }
    rdx_interp_destroy(ip);
    free(parsed);
    free(text);
    rdx_ir_ctx_destroy(c);
    rdx_graph_destroy(g);
}
END_TEST

/* rdx_graph_create_in: tensor operations on the nodes of a program parsed into a context of
 * the caller's — the ops land in that context, new BUFFERs take slots from 2^40 up (clear of
 * the program's), destroying the graph leaves the context (and its nodes) alive; a NULL
 * context is refused. */
START_TEST(graph_over_a_parsed_context)
{
    static const char text[] =
        "%0 = CONST dtype=index value=4\n%1 = STACK %0\n"
        "%2 = BUFFER %1 slot=0 dtype=float32 device=CPU addr=global\nreturn %2\n";
    rdx_ir_ctx *c;
    ck_assert_int_eq(rdx_ir_ctx_create(&c), RDX_OK);
    const rdx_uop **r = NULL;
    size_t n = 0;
    ck_assert_int_eq(rdx_ir_parse(c, "<t>", text, sizeof text - 1, &r, &n), RDX_OK);
    const rdx_uop *b = r[0];
    free(r);
    rdx_graph *g = NULL;
    ck_assert_int_eq(rdx_graph_create_in(&g, NULL, NULL), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_graph_create_in(&g, c, NULL), RDX_OK);
    ck_assert_ptr_eq(rdx_graph_ir(g), c);
    const rdx_tensor *y = rdx_tensor_muls(g, b, 3);
    const rdx_tensor *e = rdx_tensor_empty(g, rdx_dtype_of(RDX_FLOAT32), 1, (int64_t[]){ 4 });
    ck_assert_msg(y && e, "%s", rdx_graph_error(g));
    ck_assert_ptr_eq(y->src[0], b);
    ck_assert_int_eq(e->arg.i, (int64_t)1 << 40);
    float x[4] = { 1, 2, 3, -4 };
    ck_assert_int_eq(rdx_interp_bind(rdx_graph_interp(g), b, x, sizeof x), RDX_OK);
    rdx_array a = treal(g, y);
    ck_assert_double_eq(rdx_array_get(&a, 3), -12);
    rdx_graph_destroy(g);
    /* the context and the node the graph made are still the caller's */
    ck_assert_int_eq(rdx_ir_toposort(y, &r, &n), RDX_OK);
    ck_assert_ptr_eq(r[n - 1], y);
    free(r);
    rdx_ir_ctx_destroy(c);
}
END_TEST

TCase *tensor_tcase_api(void)
{
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, creation_functions);
    tcase_add_test(tc, random_tensors_are_deterministic_and_well_distributed);
    tcase_add_test(tc, elementwise_broadcasts_and_promotes);
    tcase_add_test(tc, movement_functions);
    tcase_add_test(tc, reductions_keepdim_and_composites);
    tcase_add_test(tc, threefry_matches_random123_and_mulacc);
    tcase_add_test(tc, tensor_graphs_round_trip_through_the_text_form);
    tcase_add_test(tc, graph_over_a_parsed_context);
    return tc;
}
