/* tests/interp/alu_test.c — elementwise primitives in every dtype against host C arithmetic,
 * hand-computed float16/bfloat16 roundings, CAST semantics, and the IR's scalar evaluator. */
#include <stdio.h>
#include <stdlib.h>

#include "tests/interp/interp_test.h"

/* The expected wrap of v to `bits` (signed: sign-extended; unsigned: zero-extended). */
static int64_t wrap(uint64_t v, unsigned bits, int sgn)
{
    if (bits == 64)
        return (int64_t)v;
    uint64_t m = ((uint64_t)1 << bits) - 1;
    v &= m;
    if (sgn && (v >> (bits - 1)))
        v |= ~m;
    return (int64_t)v;
}

static const rdx_op int_ops[] = { RDX_OP_ADD, RDX_OP_MUL,   RDX_OP_MAX,   RDX_OP_IDIV,
                                  RDX_OP_MOD, RDX_OP_CMPLT, RDX_OP_CMPNE, RDX_OP_XOR,
                                  RDX_OP_OR,  RDX_OP_AND,   RDX_OP_SHL,   RDX_OP_SHR };

static int64_t expect_int(rdx_op op, int64_t a, int64_t b, unsigned bits, int sgn)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    uint64_t mask = bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
    switch (op) {
    case RDX_OP_ADD:
        return wrap(ua + ub, bits, sgn);
    case RDX_OP_MUL:
        return wrap(ua * ub, bits, sgn);
    case RDX_OP_MAX:
        if (sgn)
            return a > b ? a : b;
        return (ua & mask) > (ub & mask) ? a : b;
    case RDX_OP_IDIV:
        if (sgn)
            return (a == INT64_MIN && b == -1) ? a : wrap((uint64_t)(a / b), bits, sgn);
        return wrap((ua & mask) / (ub & mask), bits, sgn);
    case RDX_OP_MOD:
        if (sgn)
            return b == -1 ? 0 : a % b;
        return wrap((ua & mask) % (ub & mask), bits, sgn);
    case RDX_OP_CMPLT:
        return sgn ? a < b : (ua & mask) < (ub & mask);
    case RDX_OP_CMPNE:
        return a != b;
    case RDX_OP_XOR:
        return wrap(ua ^ ub, bits, sgn);
    case RDX_OP_OR:
        return wrap(ua | ub, bits, sgn);
    case RDX_OP_AND:
        return wrap(ua & ub, bits, sgn);
    case RDX_OP_SHL:
        return b >= (int64_t)bits ? 0 : wrap(ua << b, bits, sgn);
    case RDX_OP_SHR:
        if (sgn)
            return a >> (b > 63 ? 63 : b);
        return b >= (int64_t)bits ? 0 : wrap((ua & mask) >> b, bits, sgn);
    default:
        return 0;
    }
}

static void fill_int(void *p, rdx_scalar s, int k, int64_t v)
{
    switch (s) {
    case RDX_INT8:
        ((int8_t *)p)[k] = (int8_t)v;
        break;
    case RDX_UINT8:
        ((uint8_t *)p)[k] = (uint8_t)v;
        break;
    case RDX_INT16:
        ((int16_t *)p)[k] = (int16_t)v;
        break;
    case RDX_UINT16:
        ((uint16_t *)p)[k] = (uint16_t)v;
        break;
    case RDX_INT32:
        ((int32_t *)p)[k] = (int32_t)v;
        break;
    case RDX_UINT32:
        ((uint32_t *)p)[k] = (uint32_t)v;
        break;
    default:
        ((int64_t *)p)[k] = v;
        break;
    }
}

START_TEST(integer_ops_match_host_c_in_every_width)
{
    static const struct {
        rdx_scalar s;
        unsigned bits;
        int sgn;
    } types[] = { { RDX_INT8, 8, 1 },    { RDX_UINT8, 8, 0 },  { RDX_INT16, 16, 1 },
                  { RDX_UINT16, 16, 0 }, { RDX_INT32, 32, 1 }, { RDX_UINT32, 32, 0 },
                  { RDX_INT64, 64, 1 },  { RDX_UINT64, 64, 0 } };
    uint64_t seed = 7;
    enum { N = 96 };
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        for (size_t o = 0; o < sizeof int_ops / sizeof int_ops[0]; o++) {
            rdx_op op = int_ops[o];
            rdx_graph *g = ig();
            unsigned bits = types[t].bits;
            int sgn = types[t].sgn;
            int64_t av[N], bv[N];
            uint64_t a8[N], b8[N];
            for (int k = 0; k < N; k++) {
                av[k] = wrap(irand(&seed), bits, sgn);
                bv[k] = wrap(irand(&seed) >> (k % 3 ? (64 - bits / 2) : 0), bits, sgn);
                if (k < 4) { /* edge values */
                    av[k] = sgn ? wrap((uint64_t)1 << (bits - 1), bits, 1)
                                : wrap(~(uint64_t)0, bits, 0);
                    bv[k] = k == 0 ? -1 : k == 1 ? 1 : k;
                    if (!sgn && k == 0)
                        bv[k] = wrap(~(uint64_t)0, bits, 0);
                }
                if ((op == RDX_OP_IDIV || op == RDX_OP_MOD) && bv[k] == 0)
                    bv[k] = 3;
                if (op == RDX_OP_SHL || op == RDX_OP_SHR)
                    bv[k] = (int64_t)(irand(&seed) % (bits + 3));
                fill_int(a8, types[t].s, k, av[k]);
                fill_int(b8, types[t].s, k, bv[k]);
            }
            rdx_dtype d = rdx_dtype_of(types[t].s);
            int64_t n = N;
            const rdx_tensor *A = rdx_tensor_from_data(g, d, 1, &n, a8);
            const rdx_tensor *B = rdx_tensor_from_data(g, d, 1, &n, b8);
            rdx_array r = ireal(g, rdx_ir_alu2(rdx_graph_ir(g), op, A, B));
            for (int k = 0; k < N; k++) {
                int64_t want = expect_int(op, av[k], bv[k], bits, sgn);
                int64_t got = rdx_array_get_int(&r, k);
                ck_assert_msg(got == want, "%s %s(%lld, %lld) = %lld, want %lld",
                              rdx_scalar_name(types[t].s), rdx_op_name(op), (long long)av[k],
                              (long long)bv[k], (long long)got, (long long)want);
            }
            rdx_graph_destroy(g);
        }
    }
}
END_TEST

START_TEST(float32_ops_match_host_c_including_specials)
{
    enum { N = 64 };
    float a[N], b[N];
    uint64_t seed = 11;
    for (int k = 0; k < N; k++) {
        a[k] = (float)iuni(&seed, -100, 100);
        b[k] = (float)iuni(&seed, -3, 3);
    }
    a[0] = INFINITY, b[0] = 1;
    a[1] = NAN, b[1] = 2;
    a[2] = -0.0f, b[2] = 0.0f;
    a[3] = 1e-40f, b[3] = 1e-40f; /* subnormals */
    a[4] = 3.0f, b[4] = NAN;
    rdx_graph *g = ig();
    int64_t n = N;
    const rdx_tensor *A = buf_f32(g, 1, &n, a), *B = buf_f32(g, 1, &n, b);
    rdx_ir_ctx *c = rdx_graph_ir(g);
    rdx_array add = ireal(g, rdx_ir_add(c, A, B)), mul = ireal(g, rdx_ir_mul(c, A, B));
    rdx_array mx = ireal(g, rdx_ir_max(c, A, B)), rc = ireal(g, rdx_ir_alu1(c, RDX_OP_RECIP, B));
    rdx_array tr = ireal(g, rdx_ir_alu1(c, RDX_OP_TRUNC, A)), lt = ireal(g, rdx_ir_cmplt(c, A, B));
    rdx_array ne = ireal(g, rdx_ir_cmpne(c, A, B));
    rdx_array wh = ireal(g, rdx_ir_where(c, rdx_ir_cmplt(c, A, B), A, B));
    for (int k = 0; k < N; k++) {
        float x = a[k], y = b[k];
        float r[6] = { x + y, x * y, fmaxf(x, y), 1.0f / y, truncf(x), x < y ? x : y };
        double got[6] = { rdx_array_get(&add, k), rdx_array_get(&mul, k), rdx_array_get(&mx, k),
                          rdx_array_get(&rc, k),  rdx_array_get(&tr, k),  rdx_array_get(&wh, k) };
        for (int j = 0; j < 6; j++) {
            if (isnan(r[j])) {
                ck_assert_msg(isnan(got[j]), "op %d elem %d: want NaN", j, k);
                continue;
            }
            ck_assert_msg(got[j] == (double)r[j] && !!signbit(got[j]) == !!signbit(r[j]),
                          "op %d elem %d (%g, %g): got %.9g want %.9g", j, k, x, y, got[j], r[j]);
        }
        ck_assert_int_eq(rdx_array_get_int(&lt, k), x < y);
        ck_assert_int_eq(rdx_array_get_int(&ne, k), x != y);
    }
    rdx_graph_destroy(g);
}
END_TEST

static uint16_t half_op(rdx_scalar s, rdx_op op, uint16_t x, uint16_t y)
{
    rdx_graph *g = ig();
    int64_t n = 1;
    rdx_dtype d = rdx_dtype_of(s);
    const rdx_tensor *A = rdx_tensor_from_data(g, d, 1, &n, &x);
    const rdx_tensor *B = rdx_tensor_from_data(g, d, 1, &n, &y);
    rdx_array r = ireal(g, rdx_ir_alu2(rdx_graph_ir(g), op, A, B));
    uint16_t out;
    memcpy(&out, r.data, 2);
    rdx_graph_destroy(g);
    return out;
}

START_TEST(float16_and_bfloat16_round_to_nearest_even_once)
{
    /* float16: ulp(1) = 2^-10.  1 + 2^-11 is a tie -> even (1.0); 1 + 3*2^-11 -> 1 + 2^-9 */
    ck_assert_uint_eq(half_op(RDX_FLOAT16, RDX_OP_ADD, 0x3c00, 0x1000), 0x3c00);
    ck_assert_uint_eq(half_op(RDX_FLOAT16, RDX_OP_ADD, 0x3c00, 0x1600), 0x3c02);
    /* 65504 + 16 = 65520: tie between 65504 and 2^16 (overflow) -> even -> inf */
    ck_assert_uint_eq(half_op(RDX_FLOAT16, RDX_OP_ADD, 0x7bff, 0x4c00), 0x7c00);
    /* 65504 + 8 stays 65504 */
    ck_assert_uint_eq(half_op(RDX_FLOAT16, RDX_OP_ADD, 0x7bff, 0x4800), 0x7bff);
    /* subnormals: 2^-24 * 2^-1 -> tie -> 0; (3 * 2^-24) * 0.5 = 1.5 * 2^-24 -> 2 * 2^-24 */
    ck_assert_uint_eq(half_op(RDX_FLOAT16, RDX_OP_MUL, 0x0001, 0x3800), 0x0000);
    ck_assert_uint_eq(half_op(RDX_FLOAT16, RDX_OP_MUL, 0x0003, 0x3800), 0x0002);
    /* bfloat16: ulp(1) = 2^-7.  1 + 2^-8 -> 1.0; 1 + 3*2^-8 -> 1 + 2^-6 */
    ck_assert_uint_eq(half_op(RDX_BFLOAT16, RDX_OP_ADD, 0x3f80, 0x3b80), 0x3f80);
    ck_assert_uint_eq(half_op(RDX_BFLOAT16, RDX_OP_ADD, 0x3f80, 0x3c40), 0x3f82);
    /* bfloat16 max: 1.1111111b * 2^127 times 2 overflows to inf */
    ck_assert_uint_eq(half_op(RDX_BFLOAT16, RDX_OP_MUL, 0x7f7f, 0x4000), 0x7f80);
    /* comparisons on halves give bool */
    rdx_graph *g = ig();
    uint16_t x[2] = { 0x3c00, 0xbc00 }, y[2] = { 0x3c01, 0xbc00 };
    int64_t n = 2;
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
    const rdx_tensor *A = rdx_tensor_from_data(g, h, 1, &n, x),
                     *B = rdx_tensor_from_data(g, h, 1, &n, y);
    rdx_array lt = ireal(g, rdx_tensor_cmplt(g, A, B));
    ck_assert_int_eq(lt.dtype.scalar, RDX_BOOL);
    ck_assert_int_eq(rdx_array_get_int(&lt, 0), 1);
    ck_assert_int_eq(rdx_array_get_int(&lt, 1), 0);
    rdx_graph_destroy(g);
}
END_TEST

/* float16 against the compiler's own _Float16 arithmetic (an independent implementation). */
static uint16_t f16_bits(_Float16 h)
{
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}

START_TEST(float16_matches_the_compilers_float16)
{
    enum { N = 4096 };
    static uint16_t a[N], b[N];
    uint64_t seed = 21;
    for (int k = 0; k < N; k++) {
        /* finite halves over the whole exponent range, including subnormals */
        do
            a[k] = (uint16_t)irand(&seed);
        while ((a[k] & 0x7c00) == 0x7c00);
        do
            b[k] = (uint16_t)irand(&seed);
        while ((b[k] & 0x7c00) == 0x7c00);
    }
    rdx_graph *g = ig();
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
    int64_t n = N;
    const rdx_tensor *A = rdx_tensor_from_data(g, h, 1, &n, a),
                     *B = rdx_tensor_from_data(g, h, 1, &n, b);
    rdx_ir_ctx *c = rdx_graph_ir(g);
    rdx_array add = ireal(g, rdx_ir_add(c, A, B)), mul = ireal(g, rdx_ir_mul(c, A, B));
    rdx_array rc = ireal(g, rdx_ir_alu1(c, RDX_OP_RECIP, B));
    rdx_array f32 = ireal(g, rdx_tensor_cast(g, A, rdx_dtype_of(RDX_FLOAT32)));
    rdx_array back = ireal(
        g,
        rdx_tensor_cast(
            g, rdx_tensor_muls(g, rdx_tensor_cast(g, A, rdx_dtype_of(RDX_FLOAT32)), 1.0009765625),
            h));
    const uint16_t *pa = add.data, *pm = mul.data, *pr = rc.data, *pb = back.data;
    for (int k = 0; k < N; k++) {
        _Float16 x, y;
        memcpy(&x, &a[k], 2);
        memcpy(&y, &b[k], 2);
        _Float16 s = x + y, m = x * y, r = (_Float16)1 / y;
        ck_assert_msg(pa[k] == f16_bits(s), "%04x + %04x: %04x, _Float16 %04x", a[k], b[k], pa[k],
                      f16_bits(s));
        ck_assert_msg(pm[k] == f16_bits(m), "%04x * %04x: %04x, _Float16 %04x", a[k], b[k], pm[k],
                      f16_bits(m));
        if (r == r) /* NaN payloads may differ */
            ck_assert_msg(pr[k] == f16_bits(r), "1 / %04x: %04x, _Float16 %04x", b[k], pr[k],
                          f16_bits(r));
        ck_assert_double_eq(rdx_array_get(&f32, k), (double)(float)x);
        _Float16 bk = (_Float16)((float)x * 1.0009765625f);
        ck_assert_msg(pb[k] == f16_bits(bk), "cast back %04x: %04x, _Float16 %04x", a[k], pb[k],
                      f16_bits(bk));
    }
    /* a float16 gemm: products rounded to float16, summed in float32 in order and rounded
       once (tinygrad's half sum), like a naive loop */
    enum { M = 9, K = 13, P = 7 };
    uint16_t ma[M * K], mb[K * P];
    for (int k = 0; k < M * K; k++)
        ma[k] = f16_bits((_Float16)((float)(irand(&seed) % 2001) / 1000.0f - 1.0f));
    for (int k = 0; k < K * P; k++)
        mb[k] = f16_bits((_Float16)((float)(irand(&seed) % 2001) / 1000.0f - 1.0f));
    rdx_array mm =
        ireal(g, rdx_tensor_matmul(g, rdx_tensor_from_data(g, h, 2, (int64_t[]){ M, K }, ma),
                                   rdx_tensor_from_data(g, h, 2, (int64_t[]){ K, P }, mb)));
    const uint16_t *pmm = mm.data;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < P; j++) {
            float acc = 0;
            for (int k = 0; k < K; k++) {
                _Float16 x, y;
                memcpy(&x, &ma[i * K + k], 2);
                memcpy(&y, &mb[k * P + j], 2);
                _Float16 prod = x * y;
                acc = acc + (float)prod;
            }
            ck_assert_msg(pmm[i * P + j] == f16_bits((_Float16)acc), "C[%d,%d] %04x, naive %04x", i,
                          j, pmm[i * P + j], f16_bits((_Float16)acc));
        }
    rdx_graph_destroy(g);
}
END_TEST

/* bfloat16 against float arithmetic rounded by the usual bit trick (exact products; sums are
 * rounded twice, which is harmless since float has >= 2*8+2 bits). */
static uint16_t bf16_rne(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    if ((b & 0x7fffffff) > 0x7f800000)
        return (uint16_t)((b >> 16) | 0x40);
    return (uint16_t)((b + 0x7fffu + ((b >> 16) & 1)) >> 16);
}

static float bf16_val(uint16_t h)
{
    uint32_t b = (uint32_t)h << 16;
    float f;
    memcpy(&f, &b, 4);
    return f;
}

START_TEST(bfloat16_matches_float_rounded_once)
{
    enum { N = 4096 };
    static uint16_t a[N], b[N];
    uint64_t seed = 23;
    for (int k = 0; k < N; k++) {
        do
            a[k] = (uint16_t)irand(&seed);
        while ((a[k] & 0x7f80) == 0x7f80);
        do
            b[k] = (uint16_t)(irand(&seed) & 0xbfff); /* keep products mostly finite */
        while ((b[k] & 0x7f80) == 0x7f80);
    }
    rdx_graph *g = ig();
    rdx_dtype h = rdx_dtype_of(RDX_BFLOAT16);
    int64_t n = N;
    const rdx_tensor *A = rdx_tensor_from_data(g, h, 1, &n, a),
                     *B = rdx_tensor_from_data(g, h, 1, &n, b);
    rdx_ir_ctx *c = rdx_graph_ir(g);
    rdx_array add = ireal(g, rdx_ir_add(c, A, B)), mul = ireal(g, rdx_ir_mul(c, A, B));
    const uint16_t *pa = add.data, *pm = mul.data;
    for (int k = 0; k < N; k++) {
        float x = bf16_val(a[k]), y = bf16_val(b[k]);
        ck_assert_msg(pa[k] == bf16_rne(x + y), "%04x + %04x: %04x want %04x", a[k], b[k], pa[k],
                      bf16_rne(x + y));
        ck_assert_msg(pm[k] == bf16_rne(x * y), "%04x * %04x: %04x want %04x", a[k], b[k], pm[k],
                      bf16_rne(x * y));
    }
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(casts_saturate_wrap_and_round_once)
{
    rdx_graph *g = ig();
    double v[8] = { 1e10, -1e10, NAN, 300.7, -2.7, 1 + 0x1p-11 + 0x1p-40, -0.0, 65519.0 };
    int64_t n = 8;
    const rdx_tensor *A = rdx_tensor_from_data(g, rdx_dtype_of(RDX_FLOAT64), 1, &n, v);
    rdx_array i32 = ireal(g, rdx_tensor_cast(g, A, rdx_dtype_of(RDX_INT32)));
    ck_assert_int_eq(rdx_array_get_int(&i32, 0), INT32_MAX);
    ck_assert_int_eq(rdx_array_get_int(&i32, 1), INT32_MIN);
    ck_assert_int_eq(rdx_array_get_int(&i32, 2), 0);
    ck_assert_int_eq(rdx_array_get_int(&i32, 3), 300);
    ck_assert_int_eq(rdx_array_get_int(&i32, 4), -2);
    rdx_array u8 = ireal(g, rdx_tensor_cast(g, A, rdx_dtype_of(RDX_UINT8)));
    ck_assert_int_eq(rdx_array_get_int(&u8, 3), 255);
    ck_assert_int_eq(rdx_array_get_int(&u8, 4), 0);
    /* float64 -> float16 directly: 1 + 2^-11 + 2^-40 is above the tie -> 1 + 2^-10 (a
     * double rounding through float32 would give 1.0) */
    rdx_array h = ireal(g, rdx_tensor_cast(g, A, rdx_dtype_of(RDX_FLOAT16)));
    uint16_t hv[8];
    memcpy(hv, h.data, sizeof hv);
    ck_assert_uint_eq(hv[5], 0x3c01);
    ck_assert_uint_eq(hv[6], 0x8000);
    ck_assert_uint_eq(hv[7], 0x7bff); /* 65519 < 65520 rounds down to the max */
    ck_assert_uint_eq(hv[0], 0x7c00);
    ck_assert_uint_eq(hv[2] & 0x7c00, 0x7c00);
    ck_assert_uint_ne(hv[2] & 0x03ff, 0);
    /* integer -> integer wraps; -> bool tests != 0 */
    int32_t iv[4] = { 300, -1, 0, 65536 + 7 };
    int64_t m = 4;
    const rdx_tensor *I = rdx_tensor_from_data(g, rdx_dtype_of(RDX_INT32), 1, &m, iv);
    rdx_array w8 = ireal(g, rdx_tensor_cast(g, I, rdx_dtype_of(RDX_UINT8)));
    rdx_array w16 = ireal(g, rdx_tensor_cast(g, I, rdx_dtype_of(RDX_UINT16)));
    rdx_array wb = ireal(g, rdx_tensor_cast(g, I, rdx_dtype_of(RDX_BOOL)));
    ck_assert_int_eq(rdx_array_get_int(&w8, 0), 44);
    ck_assert_int_eq(rdx_array_get_int(&w16, 1), 65535);
    ck_assert_int_eq(rdx_array_get_int(&w16, 3), 7);
    ck_assert_int_eq(rdx_array_get_int(&wb, 2), 0);
    ck_assert_int_eq(rdx_array_get_int(&wb, 3), 1);
    /* int64 -> bfloat16 rounds once: 2^60 + 2^52 + 1 is just above the tie -> 2^60 + 2^53
     * (through float64 it would be the tie 2^60 + 2^52 and round to even, 2^60) */
    int64_t big[2] = { ((int64_t)1 << 60) + ((int64_t)1 << 52) + 1,
                       -(((int64_t)1 << 60) + ((int64_t)1 << 52)) };
    const rdx_tensor *BI =
        rdx_tensor_from_data(g, rdx_dtype_of(RDX_INT64), 1, (int64_t[]){ 2 }, big);
    rdx_array bb = ireal(g, rdx_tensor_cast(g, BI, rdx_dtype_of(RDX_BFLOAT16)));
    uint16_t bbv[2];
    memcpy(bbv, bb.data, 4);
    ck_assert_uint_eq(bbv[0], 0x5d81);
    ck_assert_uint_eq(bbv[1], 0xdd80); /* the exact tie rounds to even */
    /* float32 -> bfloat16 keeps NaN a NaN */
    float f[2] = { NAN, 1.0f + 0x1p-8f };
    const rdx_tensor *F =
        rdx_tensor_from_data(g, rdx_dtype_of(RDX_FLOAT32), 1, (int64_t[]){ 2 }, f);
    rdx_array bf = ireal(g, rdx_tensor_cast(g, F, rdx_dtype_of(RDX_BFLOAT16)));
    uint16_t bv[2];
    memcpy(bv, bf.data, 4);
    ck_assert_uint_eq(bv[0] & 0x7f80, 0x7f80);
    ck_assert_uint_ne(bv[0] & 0x7f, 0);
    ck_assert_uint_eq(bv[1], 0x3f80);
    rdx_graph_destroy(g);
}
END_TEST

/* Every elementwise primitive and dtype against the IR's scalar evaluator (ir/eval.c, written
 * independently): one CONST graph per element. */
START_TEST(primitives_agree_with_the_scalar_evaluator)
{
    static const rdx_scalar ds[] = { RDX_BOOL,    RDX_INT8,     RDX_UINT8,   RDX_INT16,
                                     RDX_UINT16,  RDX_INT32,    RDX_UINT32,  RDX_INT64,
                                     RDX_FLOAT16, RDX_BFLOAT16, RDX_FLOAT32, RDX_FLOAT64 };
    static const rdx_op ops[] = { RDX_OP_ADD,   RDX_OP_MUL,   RDX_OP_MAX,  RDX_OP_CMPLT,
                                  RDX_OP_CMPNE, RDX_OP_RECIP, RDX_OP_TRUNC };
    uint64_t seed = 99;
    size_t checked = 0;
    for (size_t t = 0; t < sizeof ds / sizeof ds[0]; t++) {
        rdx_dtype d = rdx_dtype_of(ds[t]);
        int fl = rdx_dtype_is_float(d);
        for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
            if ((ops[o] == RDX_OP_RECIP || ops[o] == RDX_OP_TRUNC) && !fl)
                continue;
            rdx_graph *g = ig();
            rdx_ir_ctx *c = rdx_graph_ir(g);
            for (int k = 0; k < 24; k++) {
                double x = fl ? iuni(&seed, -50, 50)
                              : (double)(int64_t)(irand(&seed) % 200) -
                                    (rdx_dtype_is_unsigned(d) || ds[t] == RDX_BOOL ? 0 : 100);
                double y = fl ? iuni(&seed, -50, 50)
                              : (double)(int64_t)(irand(&seed) % 200) -
                                    (rdx_dtype_is_unsigned(d) || ds[t] == RDX_BOOL ? 0 : 100);
                if (ds[t] == RDX_BOOL)
                    x = (int64_t)x & 1, y = (int64_t)y & 1;
                const rdx_uop *X = rdx_ir_const_like(c, d, x), *Y = rdx_ir_const_like(c, d, y);
                const rdx_uop *e = ops[o] == RDX_OP_RECIP || ops[o] == RDX_OP_TRUNC
                                       ? rdx_ir_alu1(c, ops[o], X)
                                       : rdx_ir_alu2(c, ops[o], X, Y);
                ck_assert_ptr_nonnull(e);
                rdx_value want;
                ck_assert_int_eq(rdx_ir_eval(e, NULL, NULL, 0, &want), RDX_OK);
                rdx_array r = ireal(g, e);
                if (rdx_dtype_is_float(e->dtype))
                    ck_assert_msg(rdx_array_get(&r, 0) == want.f,
                                  "%s %s(%g,%g): %.17g vs evaluator %.17g", rdx_scalar_name(ds[t]),
                                  rdx_op_name(ops[o]), x, y, rdx_array_get(&r, 0), want.f);
                else
                    ck_assert_msg(rdx_array_get_int(&r, 0) == want.i, "%s %s(%g,%g): %lld vs %lld",
                                  rdx_scalar_name(ds[t]), rdx_op_name(ops[o]), x, y,
                                  (long long)rdx_array_get_int(&r, 0), (long long)want.i);
                checked++;
            }
            rdx_graph_destroy(g);
        }
    }
    ck_assert_uint_gt(checked, 1500);
}
END_TEST

/* tinygrad's convention (docs/tensor.md), the same on the device: x // 0 = 0, x % 0 = x */
START_TEST(integer_division_by_zero_is_zero_and_modulo_the_dividend)
{
    rdx_graph *g = ig();
    int32_t a[3] = { 1, -5, 3 }, b[3] = { 1, 0, 0 };
    int64_t n = 3;
    rdx_dtype i32 = rdx_dtype_of(RDX_INT32);
    const rdx_tensor *A = rdx_tensor_from_data(g, i32, 1, &n, a),
                     *B = rdx_tensor_from_data(g, i32, 1, &n, b);
    rdx_array r;
    ck_assert_int_eq(rdx_tensor_realize(g, rdx_tensor_idiv(g, A, B), &r), RDX_OK);
    ck_assert_int_eq(rdx_array_get_int(&r, 0), 1);
    ck_assert_int_eq(rdx_array_get_int(&r, 1), 0);
    ck_assert_int_eq(rdx_array_get_int(&r, 2), 0);
    ck_assert_int_eq(rdx_tensor_realize(g, rdx_tensor_mod(g, A, B), &r), RDX_OK);
    ck_assert_int_eq(rdx_array_get_int(&r, 0), 0);
    ck_assert_int_eq(rdx_array_get_int(&r, 1), -5);
    ck_assert_int_eq(rdx_array_get_int(&r, 2), 3);
    rdx_dtype u8 = rdx_dtype_of(RDX_UINT8);
    ck_assert_int_eq(
        rdx_tensor_realize(
            g, rdx_tensor_mod(g, rdx_tensor_cast(g, A, u8), rdx_tensor_cast(g, B, u8)), &r),
        RDX_OK);
    ck_assert_int_eq(rdx_array_get_int(&r, 1), 251);
    int32_t s[3] = { -1, 0, 1 };
    const rdx_tensor *S = rdx_tensor_from_data(g, i32, 1, &n, s);
    ck_assert_int_eq(rdx_tensor_realize(g, rdx_tensor_shl(g, A, S), &r), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "negative shift"));
    /* RECIP of an integer has no meaning at the IR level */
    const rdx_uop *bad = rdx_ir_alu1(rdx_graph_ir(g), RDX_OP_RECIP, A);
    if (bad) {
        ck_assert_int_eq(rdx_tensor_realize(g, bad, &r), RDX_ERR_UNSUPPORTED);
        ck_assert_ptr_nonnull(strstr(rdx_error_message(), "RECIP"));
    }
    rdx_graph_destroy(g);
}
END_TEST

TCase *interp_tcase_alu(void)
{
    TCase *tc = tcase_create("alu");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, integer_ops_match_host_c_in_every_width);
    tcase_add_test(tc, float32_ops_match_host_c_including_specials);
    tcase_add_test(tc, float16_and_bfloat16_round_to_nearest_even_once);
    tcase_add_test(tc, float16_matches_the_compilers_float16);
    tcase_add_test(tc, bfloat16_matches_float_rounded_once);
    tcase_add_test(tc, casts_saturate_wrap_and_round_once);
    tcase_add_test(tc, primitives_agree_with_the_scalar_evaluator);
    tcase_add_test(tc, integer_division_by_zero_is_zero_and_modulo_the_dividend);
    return tc;
}
