/*
 * tests/codegen_back/alu_test.c — random elementwise expression trees over
 * every dtype, compiled and run on the emulator over random sizes (1, primes,
 * partial workgroups), every output compared with ir-core's scalar evaluator
 * (rdx_ir_eval): integers bit-exact, floats exact (NaN = NaN, -0 = 0; RECIP is
 * correctly rounded).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/codegen_back/cgb_test.h"
#include "util/error.h"

static uint64_t st64 = 0xfeedface12345ull;
static uint64_t r64(void)
{
    st64 ^= st64 << 13, st64 ^= st64 >> 7, st64 ^= st64 << 17;
    return st64;
}
static unsigned rn(unsigned n)
{
    return (unsigned)(r64() % n);
}

static double half_to_double(uint16_t h)
{
    int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return s ? -v : v;
}

static double bits_to_double(rdx_dtype d, const uint8_t *p)
{
    switch ((rdx_scalar)d.scalar) {
    case RDX_FLOAT16: {
        uint16_t h;
        memcpy(&h, p, 2);
        return half_to_double(h);
    }
    case RDX_BFLOAT16: {
        uint16_t h;
        memcpy(&h, p, 2);
        uint32_t b = (uint32_t)h << 16;
        float f;
        memcpy(&f, &b, 4);
        return f;
    }
    case RDX_FLOAT32: {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    default: {
        double f;
        memcpy(&f, p, 8);
        return f;
    }
    }
}

static int64_t bits_to_int(rdx_dtype d, const uint8_t *p)
{
    unsigned s = rdx_dtype_itemsize(d);
    uint64_t u = 0;
    memcpy(&u, p, s);
    if (d.scalar == RDX_BOOL)
        return u != 0;
    if (s < 8 && !rdx_dtype_is_unsigned(d) && (u >> (8 * s - 1)) & 1)
        u |= ~0ull << (8 * s);
    return (int64_t)u;
}

static rdx_value load_value(rdx_dtype d, const uint8_t *p)
{
    rdx_value v = { 0, 0 };
    if (rdx_dtype_is_float(d))
        v.f = bits_to_double(d, p);
    else
        v.i = bits_to_int(d, p);
    return v;
}

/* Random input bits of dtype d (floats: mostly moderate values, some specials). */
static void fill(rdx_dtype d, uint8_t *p)
{
    unsigned s = rdx_dtype_itemsize(d);
    uint64_t u = r64();
    if (d.scalar == RDX_BOOL)
        u &= 1;
    else if (rdx_dtype_is_int(d) && rn(4) == 0)
        u = (uint64_t)(int64_t)((int)rn(41) - 20); /* small values hit the interesting cases */
    else if (rdx_dtype_is_float(d)) {
        double v = ((double)(int64_t)(r64() % 200001) - 100000) / 1000.0;
        unsigned k = rn(40);
        if (k == 0)
            v = INFINITY;
        else if (k == 1)
            v = -INFINITY;
        else if (k == 2)
            v = NAN;
        else if (k == 3)
            v = 0.0;
        else if (k == 4)
            v = -0.0;
        else if (k < 10)
            v = (double)((int)rn(21) - 10);
        if (d.scalar == RDX_FLOAT64)
            memcpy(&u, &v, 8);
        else {
            float f = (float)v;
            uint32_t b;
            memcpy(&b, &f, 4);
            if (d.scalar == RDX_FLOAT32)
                u = b;
            else if (d.scalar == RDX_BFLOAT16)
                u = b >> 16; /* truncation is fine for inputs */
            else {
                /* f16: from a small integer or special */
                double hv = fabs(v) > 60000 ? v : trunc(v * 8) / 8;
                uint16_t h = 0;
                if (isnan(hv))
                    h = 0x7e00;
                else if (isinf(hv))
                    h = hv > 0 ? 0x7c00 : 0xfc00;
                else {
                    /* exact: |hv| < 60000 with 3 fraction bits fits f16 when < 2048 */
                    double a = fabs(hv);
                    if (a >= 2048)
                        a = 2048;
                    int e;
                    double m = frexp(a, &e);
                    if (a == 0)
                        h = 0;
                    else
                        h = (uint16_t)(((e + 14) << 10) | ((int)(m * 2048) - 1024));
                    if (hv < 0 || (hv == 0 && signbit(hv)))
                        h |= 0x8000;
                }
                u = h;
            }
        }
    }
    memcpy(p, &u, s);
}

typedef struct gen {
    rdx_ir_ctx *ctx;
    rdx_dtype a; /* input dtype */
    const rdx_uop *ld[2], *i;
    int has_recip;
} gen;

static const rdx_scalar all_dtypes[] = { RDX_BOOL,   RDX_INT8,    RDX_UINT8,    RDX_INT16,
                                         RDX_UINT16, RDX_INT32,   RDX_UINT32,   RDX_INT64,
                                         RDX_UINT64, RDX_FLOAT16, RDX_BFLOAT16, RDX_FLOAT32,
                                         RDX_FLOAT64 };
#define NDT (sizeof all_dtypes / sizeof all_dtypes[0])

static const rdx_uop *cnst(gen *g, rdx_dtype d)
{
    if (rdx_dtype_is_float(d))
        return rdx_ir_const_float(g->ctx, d, ((int)rn(41) - 20) / 4.0);
    if (d.scalar == RDX_BOOL)
        return rdx_ir_const_int(g->ctx, d, rn(2));
    int64_t lo, hi;
    rdx_dtype_range(d, &lo, &hi, NULL, NULL);
    int64_t v = (int64_t)rn(41) - 20;
    if (rn(4) == 0)
        v = (int64_t)r64();
    if (v < lo || v > hi)
        v = rdx_dtype_is_unsigned(d) ? (int64_t)((uint64_t)v & (uint64_t)hi) : v % 100;
    if (v < lo || v > hi)
        v = lo;
    return rdx_ir_const_int(g->ctx, d, v);
}

static const rdx_uop *tree(gen *g, rdx_dtype d, int depth);

static const rdx_uop *leaf(gen *g, rdx_dtype d)
{
    unsigned k = rn(6);
    if (k == 0)
        return cnst(g, d);
    if (k == 1 && d.scalar != RDX_BOOL)
        return rdx_ir_cast(g->ctx, g->i, d);
    const rdx_uop *l = g->ld[rn(2)];
    if (rdx_dtype_eq(d, g->a))
        return l;
    return rdx_ir_cast(g->ctx, l, d);
}

static rdx_dtype any_dtype(void)
{
    return rdx_dtype_of(all_dtypes[rn(NDT)]);
}

static const rdx_uop *tree(gen *g, rdx_dtype d, int depth)
{
    if (depth <= 0 || rn(5) == 0)
        return leaf(g, d);
    rdx_ir_ctx *c = g->ctx;
    int fl = rdx_dtype_is_float(d), b = d.scalar == RDX_BOOL;
    for (;;) {
        switch (rn(14)) {
        case 0:
            if (b)
                continue;
            return rdx_ir_add(c, tree(g, d, depth - 1), tree(g, d, depth - 1));
        case 1:
            if (b)
                continue;
            return rdx_ir_mul(c, tree(g, d, depth - 1), tree(g, d, depth - 1));
        case 2:
            return rdx_ir_max(c, tree(g, d, depth - 1), tree(g, d, depth - 1));
        case 3: { /* IDIV / MOD with a non-zero divisor */
            if (fl || b)
                continue;
            const rdx_uop *y =
                rn(2) ? cnst(g, d)
                      : rdx_ir_alu2(c, RDX_OP_OR, tree(g, d, depth - 1), rdx_ir_const_int(c, d, 1));
            int64_t yv;
            if (rdx_uop_const_int(y, &yv) && yv == 0)
                y = rdx_ir_const_int(c, d, 7);
            return rdx_ir_alu2(c, rn(2) ? RDX_OP_IDIV : RDX_OP_MOD, tree(g, d, depth - 1), y);
        }
        case 4:
        case 5: { /* compares */
            if (!b)
                continue;
            rdx_dtype s = any_dtype();
            return rdx_ir_alu2(c, rn(2) ? RDX_OP_CMPLT : RDX_OP_CMPNE, tree(g, s, depth - 1),
                               tree(g, s, depth - 1));
        }
        case 6:
        case 7: { /* bitwise */
            if (fl)
                continue;
            static const rdx_op ops[] = { RDX_OP_XOR, RDX_OP_OR, RDX_OP_AND };
            return rdx_ir_alu2(c, ops[rn(3)], tree(g, d, depth - 1), tree(g, d, depth - 1));
        }
        case 8: { /* shifts by an in-range amount */
            if (fl || b)
                continue;
            unsigned bits = rdx_dtype_itemsize(d) * 8;
            const rdx_uop *amt =
                rdx_ir_alu2(c, RDX_OP_AND, tree(g, d, depth - 1), rdx_ir_const_int(c, d, bits - 1));
            return rdx_ir_alu2(c, rn(2) ? RDX_OP_SHL : RDX_OP_SHR, tree(g, d, depth - 1), amt);
        }
        case 9:
            return rdx_ir_where(c, tree(g, rdx_dtype_of(RDX_BOOL), depth - 1),
                                tree(g, d, depth - 1), tree(g, d, depth - 1));
        case 10:
            if (!fl)
                continue;
            g->has_recip = 1;
            {
                /* RECIP of x clamped to [0.25, big]: a signed zero (whose sign MAX(+0, -0)
                   leaves open) never reaches it, nor a quotient that would be denormal (the
                   emulator's v_div_fmas rounds those once more: 1 ulp, which later ops
                   amplify); special values are covered by recip_specials */
                double big = d.scalar == RDX_FLOAT16   ? 60000
                             : d.scalar == RDX_FLOAT64 ? 1e300
                                                       : 1e30;
                const rdx_uop *x =
                    rdx_ir_max(c, tree(g, d, depth - 1), rdx_ir_const_float(c, d, 0.25));
                const rdx_uop *bc = rdx_ir_const_float(c, d, big);
                x = rdx_ir_where(c, rdx_ir_cmplt(c, x, bc), x, bc);
                return rdx_ir_alu1(c, RDX_OP_RECIP, x);
            }
        case 11:
            return rdx_ir_alu1(c, RDX_OP_TRUNC, tree(g, d, depth - 1));
        case 12:
            return rdx_ir_cast(c, tree(g, any_dtype(), depth - 1), d);
        case 13: { /* BITCAST between same-size dtypes */
            if (b)
                continue;
            rdx_dtype s = any_dtype();
            /* float sources could be NaNs, whose sign and payload IEEE leaves open */
            if (s.scalar == RDX_BOOL || rdx_dtype_is_float(s) ||
                rdx_dtype_itemsize(s) != rdx_dtype_itemsize(d))
                continue;
            return rdx_ir_bitcast(c, tree(g, s, depth - 1), d);
        }
        }
    }
}

/* One random kernel: out[i] = tree for i < n; returns the number of mismatches. */
static int one(rdx_dtype a, rdx_dtype o, int depth, int64_t n, char *why, size_t whylen)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    gen g = { ctx, a, { NULL, NULL }, NULL, 0 };
    const rdx_uop *N = rdx_ir_int(ctx, n);
    const rdx_uop *sh = rdx_ir_shape(ctx, &n, 1);
    rdx_uop_arg pa = rdx_uop_arg_none();
    pa.dtype = a;
    pa.addrspace = RDX_ADDR_GLOBAL;
    const rdx_uop *in[2], *out;
    for (int k = 0; k < 2; k++) {
        pa.i = k;
        in[k] = rdx_ir_node(ctx, RDX_OP_PARAM, &sh, 1, &pa);
    }
    pa.i = 2;
    pa.dtype = o;
    out = rdx_ir_node(ctx, RDX_OP_PARAM, &sh, 1, &pa);
    g.i = rdx_ir_range(ctx, N, 0, RDX_AXIS_GLOBAL);
    /* half of the kernels gate the second load (i % 5 != 1, else alt) and the store (i % 3 != 0) */
    int gated = (int)rn(2);
    const rdx_uop *alt = cnst(&g, a);
    for (int k = 0; k < 2; k++) {
        const rdx_uop *ix = rdx_ir_index(ctx, in[k], &g.i, 1);
        if (gated && k == 1) {
            const rdx_uop *gt =
                rdx_ir_cmpne(ctx, rdx_ir_mod(ctx, g.i, rdx_ir_int(ctx, 5)), rdx_ir_int(ctx, 1));
            const rdx_uop *ls[3] = { ix, alt, gt };
            g.ld[k] = rdx_ir_node(ctx, RDX_OP_LOAD, ls, 3, NULL);
        } else
            g.ld[k] = rdx_ir_node(ctx, RDX_OP_LOAD, &ix, 1, NULL);
    }
    const rdx_uop *e = tree(&g, o, depth);
    const rdx_uop *ox = rdx_ir_index(ctx, out, &g.i, 1);
    const rdx_uop *stv = rdx_ir_store(ctx, ox, e);
    if (gated) {
        const rdx_uop *ss[3] = {
            ox, e, rdx_ir_cmpne(ctx, rdx_ir_mod(ctx, g.i, rdx_ir_int(ctx, 3)), rdx_ir_int(ctx, 0))
        };
        stv = rdx_ir_node(ctx, RDX_OP_STORE, ss, 3, NULL);
    }
    const rdx_uop *es[2] = { stv, g.i };
    const rdx_uop *end = rdx_ir_node(ctx, RDX_OP_END, es, 2, NULL);
    const rdx_uop *sink = rdx_ir_sink(ctx, &end, 1);
    ck_assert_msg(sink != NULL, "build: %s", rdx_error_message());
    unsigned sa = rdx_dtype_itemsize(a), so = rdx_dtype_itemsize(o);
    uint8_t *b0 = malloc((size_t)n * sa), *b1 = malloc((size_t)n * sa), *bo = calloc((size_t)n, so);
    for (int64_t i = 0; i < n; i++)
        fill(a, b0 + i * sa), fill(a, b1 + i * sa);
    memset(bo, 0x5a, (size_t)n * so);
    void *bufs[3] = { b0, b1, bo };
    size_t sizes[3] = { (size_t)n * sa, (size_t)n * sa, (size_t)n * so };
    int bad = 0;
    rdx_status st = cgb_run(ctx, sink, NULL, bufs, sizes, NULL, NULL, 0, NULL);
    if (st) {
        char *txt = NULL;
        rdx_ir_print(&sink, 1, 0, &txt);
        snprintf(why, whylen, "run failed: %s\n%s", rdx_error_message(), txt ? txt : "");
        free(txt);
        bad = 1;
        goto done;
    }
    const rdx_uop *leaves[3] = { g.ld[0], g.ld[1], g.i };
    rdx_evalplan *plan;
    ck_assert_int_eq(rdx_evalplan_create(e, leaves, 3, &plan), RDX_OK);
    for (int64_t i = 0; i < n && !bad; i++) {
        rdx_value vals[3] = { load_value(a, b0 + i * sa), load_value(a, b1 + i * sa), { i, 0 } }, r;
        if (gated && i % 5 == 1)
            vals[1] = (rdx_value){ alt->arg.i, alt->arg.f };
        if (gated && i % 3 == 0) {
            for (unsigned byte = 0; byte < so; byte++)
                if (bo[i * so + byte] != 0x5a) {
                    snprintf(why, whylen, "element %lld written although its store is gated off",
                             (long long)i);
                    bad = 1;
                }
            continue;
        }
        if (rdx_evalplan_run(plan, vals, &r))
            continue; /* undefined in the IR: skip */
        if (rdx_dtype_is_float(o)) {
            double got = bits_to_double(o, bo + i * so), want = r.f;
            int ok = (isnan(got) && isnan(want)) || got == want;
            if (!ok) {
                snprintf(why, whylen,
                         "element %lld: got %.17g, want %.17g (leaves %lld/%.17g, %lld/%.17g)",
                         (long long)i, got, want, (long long)vals[0].i, vals[0].f,
                         (long long)vals[1].i, vals[1].f);
                bad = 1;
            }
        } else {
            int64_t got = bits_to_int(o, bo + i * so), want = r.i;
            if (o.scalar != RDX_BOOL) {
                unsigned s = so;
                if (s < 8) {
                    uint64_t m = (1ull << (8 * s)) - 1;
                    want = bits_to_int(o, (const uint8_t *)&(uint64_t){ (uint64_t)want & m });
                }
            }
            if (got != want) {
                snprintf(why, whylen, "element %lld: got %lld, want %lld", (long long)i,
                         (long long)got, (long long)want);
                bad = 1;
            }
        }
    }
    if (bad) {
        char *txt = NULL;
        rdx_ir_print(&e, 1, 0, &txt);
        size_t l = strlen(why);
        snprintf(why + l, whylen - l, "\ninputs: %s\n%s", rdx_scalar_name((rdx_scalar)a.scalar),
                 txt ? txt : "");
        free(txt);
    }
    rdx_evalplan_free(plan);
done:
    free(b0), free(b1), free(bo);
    rdx_ir_ctx_destroy(ctx);
    return bad;
}

static void random_for(rdx_scalar out, int count)
{
    static const int64_t sizes[] = { 1, 2, 31, 97, 256, 257, 1000 };
    char why[8192];
    for (int t = 0; t < count; t++) {
        rdx_dtype a = any_dtype(), o = rdx_dtype_of(out);
        int64_t n = sizes[rn(7)];
        why[0] = 0;
        int bad = one(a, o, 1 + (int)rn(4), n, why, sizeof why);
        ck_assert_msg(!bad, "%s tree %d (n=%lld): %s", rdx_scalar_name(out), t, (long long)n, why);
    }
}

START_TEST(random_trees)
{
    random_for(all_dtypes[_i], 200);
}
END_TEST

TCase *cgb_tcase_alu(void)
{
    TCase *tc = tcase_create("alu");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, random_trees, 0, (int)NDT);
    return tc;
}
