/*
 * tests/ir/symbolic_test.c — symbolic integer algebra: targeted rules with
 * known results, and property tests: random expressions over bounded
 * variables evaluate identically before and after simplification, and the
 * result is a fixed point.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tests/ir/ir_test.h"

typedef struct env {
    rdx_ir_ctx *c;
    const rdx_uop *x, *y, *z, *n, *r; /* x in [0,20], y in [0,3], z in [-6,9], n in [1,8], r < n */
} env;

static void env_init(env *e)
{
    e->c = ir_ctx();
    e->x = IR_OK(rdx_ir_var(e->c, "x", 0, 20));
    e->y = IR_OK(rdx_ir_var(e->c, "y", 0, 3));
    e->z = IR_OK(rdx_ir_var(e->c, "z", -6, 9));
    e->n = IR_OK(rdx_ir_var(e->c, "n", 1, 8));
    e->r = IR_OK(rdx_ir_range(e->c, e->n, 0, RDX_AXIS_LOOP));
}

static const rdx_uop *K(env *e, int64_t v)
{
    return IR_OK(rdx_ir_int(e->c, v));
}

static const rdx_uop *simp(env *e, const rdx_uop *u)
{
    const rdx_uop *out;
    ck_assert_msg(rdx_ir_simplify(e->c, u, &out) == RDX_OK, "%s", rdx_error_message());
    return out;
}

/* Evaluate at (x, y, z, n, r). */
static int64_t ev(env *e, const rdx_uop *u, const int64_t *val)
{
    const rdx_uop *leaves[5] = { e->x, e->y, e->z, e->n, e->r };
    rdx_value v[5], out;
    for (int k = 0; k < 5; k++)
        v[k].i = val[k], v[k].f = 0;
    ck_assert_msg(rdx_ir_eval(u, leaves, v, 5, &out) == RDX_OK, "%s", rdx_error_message());
    return out.i;
}

static void random_point(uint64_t *st, int64_t *v)
{
    v[0] = ir_rand_range(st, 0, 20);
    v[1] = ir_rand_range(st, 0, 3);
    v[2] = ir_rand_range(st, -6, 9);
    v[3] = ir_rand_range(st, 1, 8);
    v[4] = ir_rand_range(st, 0, v[3] - 1);
}

/* Same values at 200 random points. */
static void same_function(env *e, const rdx_uop *a, const rdx_uop *b)
{
    uint64_t st = 3;
    for (int i = 0; i < 200; i++) {
        int64_t v[5];
        random_point(&st, v);
        ck_assert_int_eq(ev(e, a, v), ev(e, b, v));
    }
}

#define EXPECT(expr, want)                                                          \
    do {                                                                            \
        const rdx_uop *in_ = IR_OK(expr), *w_ = IR_OK(want), *got_ = simp(&e, in_); \
        if (got_ != w_) {                                                           \
            char *t1_, *t2_;                                                        \
            rdx_ir_print(&got_, 1, 0, &t1_);                                        \
            rdx_ir_print(&w_, 1, 0, &t2_);                                          \
            ck_abort_msg("%s:\n got\n%s want\n%s", #expr, t1_, t2_);                \
        }                                                                           \
        same_function(&e, in_, got_);                                               \
    } while (0)

#define ADD(a, b)      rdx_ir_add(e.c, a, b)
#define MUL(a, b)      rdx_ir_mul(e.c, a, b)
#define DIV(a, b)      rdx_ir_idiv(e.c, a, b)
#define MOD(a, b)      rdx_ir_mod(e.c, a, b)
#define LT(a, b)       rdx_ir_cmplt(e.c, a, b)
#define WHERE(g, a, b) rdx_ir_where(e.c, g, a, b)

START_TEST(folding_and_identities)
{
    env e;
    env_init(&e);
    EXPECT(ADD(K(&e, 2), K(&e, 3)), K(&e, 5));
    EXPECT(ADD(e.x, K(&e, 0)), e.x);
    EXPECT(MUL(e.x, K(&e, 1)), e.x);
    EXPECT(MUL(e.x, K(&e, 0)), K(&e, 0));
    EXPECT(DIV(e.x, K(&e, 1)), e.x);
    EXPECT(MOD(e.z, K(&e, 1)), K(&e, 0));
    EXPECT(rdx_ir_max(e.c, e.x, e.x), e.x);
    EXPECT(rdx_ir_max(e.c, e.x, K(&e, -1)), e.x); /* bounds: x >= 0 > -1 */
    /* int32 wraps when folded */
    rdx_dtype i32 = rdx_dtype_of(RDX_INT32);
    EXPECT(rdx_ir_add(e.c, rdx_ir_const_int(e.c, i32, INT32_MAX), rdx_ir_const_int(e.c, i32, 1)),
           rdx_ir_const_int(e.c, i32, INT32_MIN));
    /* C division truncates toward zero */
    EXPECT(DIV(K(&e, -7), K(&e, 2)), K(&e, -3));
    EXPECT(MOD(K(&e, -7), K(&e, 2)), K(&e, -1));
    /* division by zero is left alone, not folded */
    const rdx_uop *dz = IR_OK(DIV(K(&e, 1), K(&e, 0)));
    ck_assert_ptr_eq(simp(&e, dz), dz);
    rdx_ir_ctx_destroy(e.c);
}
END_TEST

START_TEST(sums_collect_like_terms)
{
    env e;
    env_init(&e);
    EXPECT(ADD(e.x, e.x), MUL(e.x, K(&e, 2)));
    EXPECT(ADD(ADD(e.x, K(&e, 3)), ADD(MUL(e.x, K(&e, 2)), K(&e, -3))), MUL(e.x, K(&e, 3)));
    EXPECT(ADD(ADD(e.x, K(&e, 1)), K(&e, 2)), ADD(e.x, K(&e, 3)));
    EXPECT(MUL(MUL(e.x, K(&e, 3)), K(&e, 4)), MUL(e.x, K(&e, 12)));
    EXPECT(MUL(ADD(e.x, K(&e, 2)), K(&e, 3)), ADD(MUL(e.x, K(&e, 3)), K(&e, 6)));
    EXPECT(ADD(ADD(e.x, e.y), rdx_ir_neg(e.c, e.x)), e.y);
    /* (y // c) * c + y % c == y for any y (truncating division too), with multiples */
    EXPECT(ADD(MUL(DIV(e.z, K(&e, 4)), K(&e, 4)), MOD(e.z, K(&e, 4))), e.z);
    EXPECT(ADD(ADD(MUL(DIV(e.x, K(&e, 3)), K(&e, 6)), e.y), MUL(MOD(e.x, K(&e, 3)), K(&e, 2))),
           ADD(MUL(e.x, K(&e, 2)), e.y));
    /* order-independent: x + y == y + x after simplification */
    ck_assert_ptr_eq(simp(&e, ADD(e.x, e.y)), simp(&e, ADD(e.y, e.x)));
    rdx_ir_ctx_destroy(e.c);
}
END_TEST

START_TEST(div_mod_folding)
{
    env e;
    env_init(&e);
    EXPECT(DIV(e.y, K(&e, 4)), K(&e, 0));
    EXPECT(MOD(e.y, K(&e, 4)), e.y);
    EXPECT(DIV(ADD(MUL(e.x, K(&e, 4)), K(&e, 3)), K(&e, 4)), e.x);
    EXPECT(MOD(ADD(MUL(e.x, K(&e, 4)), K(&e, 3)), K(&e, 4)), K(&e, 3));
    EXPECT(DIV(ADD(MUL(e.x, K(&e, 4)), e.y), K(&e, 4)), e.x);
    EXPECT(MOD(ADD(MUL(e.x, K(&e, 4)), e.y), K(&e, 4)), e.y);
    /* (x*a + b) // c with a common factor */
    EXPECT(DIV(ADD(MUL(e.x, K(&e, 6)), MUL(e.y, K(&e, 3))), K(&e, 9)),
           DIV(ADD(MUL(e.x, K(&e, 2)), e.y), K(&e, 3)));
    EXPECT(MOD(ADD(MUL(e.x, K(&e, 6)), MUL(e.y, K(&e, 3))), K(&e, 9)),
           MUL(MOD(ADD(MUL(e.x, K(&e, 2)), e.y), K(&e, 3)), K(&e, 3)));
    /* quotient split: (x*8 + y*2 + 5) // 4 = x*2 + (y*2 + 1) // 4 + 1 */
    EXPECT(
        DIV(ADD(ADD(MUL(e.x, K(&e, 8)), MUL(e.y, K(&e, 2))), K(&e, 5)), K(&e, 4)),
        ADD(ADD(MUL(e.x, K(&e, 2)), DIV(ADD(MUL(e.y, K(&e, 2)), K(&e, 1)), K(&e, 4))), K(&e, 1)));
    /* nested */
    EXPECT(DIV(DIV(ADD(MUL(e.x, K(&e, 8)), e.y), K(&e, 2)), K(&e, 4)), e.x);
    EXPECT(MOD(MOD(e.x, K(&e, 8)), K(&e, 4)), MOD(e.x, K(&e, 4)));
    /* RANGE bounds: r < n <= 8 */
    EXPECT(DIV(e.r, K(&e, 8)), K(&e, 0));
    EXPECT(MOD(e.r, K(&e, 8)), e.r);
    /* negative dividends are not folded with truncating semantics */
    const rdx_uop *neg = IR_OK(DIV(ADD(MUL(e.z, K(&e, 4)), K(&e, 3)), K(&e, 4)));
    same_function(&e, neg, simp(&e, neg));
    ck_assert_ptr_ne(simp(&e, neg), e.z);
    rdx_ir_ctx_destroy(e.c);
}
END_TEST

START_TEST(compares_from_bounds)
{
    env e;
    env_init(&e);
    rdx_dtype b = rdx_dtype_of(RDX_BOOL);
    const rdx_uop *T = IR_OK(rdx_ir_const_int(e.c, b, 1)), *F = IR_OK(rdx_ir_const_int(e.c, b, 0));
    EXPECT(LT(e.x, K(&e, 0)), F);
    EXPECT(LT(e.x, K(&e, 21)), T);
    EXPECT(LT(e.r, K(&e, 8)), T);       /* r <= n.max - 1 = 7 */
    EXPECT(LT(e.r, e.n), LT(e.r, e.n)); /* true, but not decidable from bounds alone */
    rdx_ir_ctx_destroy(e.c);
}
END_TEST

START_TEST(compares_normalise)
{
    env e;
    env_init(&e);
    rdx_dtype b = rdx_dtype_of(RDX_BOOL);
    const rdx_uop *T = IR_OK(rdx_ir_const_int(e.c, b, 1)), *F = IR_OK(rdx_ir_const_int(e.c, b, 0));
    (void)T;
    EXPECT(LT(ADD(e.x, K(&e, 5)), K(&e, 8)), LT(e.x, K(&e, 3)));
    EXPECT(LT(MUL(e.x, K(&e, 4)), K(&e, 9)), LT(e.x, K(&e, 3)));
    EXPECT(LT(ADD(MUL(e.x, K(&e, 2)), MUL(e.y, K(&e, 4))), K(&e, 7)),
           LT(ADD(e.x, MUL(e.y, K(&e, 2))), K(&e, 4)));
    EXPECT(rdx_ir_cmpne(e.c, e.x, K(&e, -1)), T);
    EXPECT(rdx_ir_cmpne(e.c, e.x, e.x), F);
    rdx_ir_ctx_destroy(e.c);
}
END_TEST

START_TEST(where_and_gates)
{
    env e;
    env_init(&e);
    const rdx_uop *c = IR_OK(LT(e.x, K(&e, 3)));
    EXPECT(WHERE(c, e.y, e.y), e.y);
    EXPECT(WHERE(c, WHERE(c, e.y, e.z), e.n), WHERE(c, e.y, e.n));
    EXPECT(WHERE(c, e.n, WHERE(c, e.y, e.z)), WHERE(c, e.n, e.z));
    EXPECT(WHERE(rdx_ir_not(e.c, c), e.y, e.z), WHERE(c, e.z, e.y));
    /* the gate is known inside each branch */
    EXPECT(WHERE(c, ADD(WHERE(c, K(&e, 1), K(&e, 2)), e.y), K(&e, 5)),
           WHERE(c, ADD(e.y, K(&e, 1)), K(&e, 5)));
    EXPECT(WHERE(LT(e.x, K(&e, 30)), e.y, e.z), e.y); /* gate decided by bounds */
    /* the gate bounds its variable inside each branch: x < 3 there, x >= 3 in the other */
    EXPECT(WHERE(c, DIV(ADD(e.x, K(&e, 1)), K(&e, 4)), DIV(e.x, K(&e, 3))),
           WHERE(c, K(&e, 0), DIV(e.x, K(&e, 3))));
    EXPECT(WHERE(c, LT(e.y, K(&e, 2)), LT(e.x, K(&e, 2))),
           WHERE(c, LT(e.y, K(&e, 2)), rdx_ir_const_int(e.c, rdx_dtype_of(RDX_BOOL), 0)));
    const rdx_uop *c2 = IR_OK(rdx_ir_alu2(e.c, RDX_OP_AND, c, LT(K(&e, 1), e.y)));
    EXPECT(WHERE(c2, ADD(DIV(e.x, K(&e, 3)), DIV(e.y, K(&e, 2))), K(&e, 7)),
           WHERE(c2, K(&e, 1), K(&e, 7)));
    /* a gated LOAD whose gate is always true loses the gate */
    int64_t dims[1] = { 4 };
    const rdx_uop *buf = IR_OK(rdx_ir_buffer(e.c, 0, rdx_dtype_of(RDX_INDEX), "AMD", dims, 0));
    const rdx_uop *ls[2] = { buf, LT(e.x, K(&e, 30)) };
    const rdx_uop *ld = IR_OK(rdx_ir_node(e.c, RDX_OP_LOAD, ls, 2, NULL));
    ck_assert_ptr_eq(simp(&e, ld), rdx_ir_node(e.c, RDX_OP_LOAD, ls, 1, NULL));
    rdx_ir_ctx_destroy(e.c);
}
END_TEST

/*
 * WHEREs nested in WHERE branches: each level refines its branches with the
 * gate's bounds only at the outermost level (deeper levels would re-simplify
 * the whole chain below with their own stand-ins: exponential in the depth).
 * 40 levels simplify to the same function.
 */
START_TEST(nested_where_chain)
{
    env e;
    env_init(&e);
    const rdx_uop *x = IR_OK(rdx_ir_var(e.c, "w", 0, 1000)), *prev = K(&e, 0);
    for (int k = 1; k <= 40; k++) {
        const rdx_uop *g = LT(x, K(&e, 3 * k));
        const rdx_uop *s = ADD(DIV(ADD(x, K(&e, 1)), K(&e, 4)), prev);
        prev = IR_OK(WHERE(g, s, prev));
    }
    const rdx_uop *out = simp(&e, prev);
    ck_assert_ptr_eq(simp(&e, out), out); /* a fixed point */
    for (int64_t w = 0; w <= 130; w++) {
        rdx_value v = { w, 0 }, a, b;
        ck_assert_int_eq(rdx_ir_eval(prev, &x, &v, 1, &a), RDX_OK);
        ck_assert_int_eq(rdx_ir_eval(out, &x, &v, 1, &b), RDX_OK);
        ck_assert_int_eq(a.i, b.i);
    }
    rdx_ir_ctx_destroy(e.c);
}
END_TEST

/* ------------------------------------------------------------ random */

static const rdx_uop *gen_int(env *e, uint64_t *st, int depth);

static const rdx_uop *gen_bool(env *e, uint64_t *st, int depth)
{
    const rdx_uop *vars[5] = { e->x, e->y, e->z, e->n, e->r };
    switch (ir_rand_range(st, 0, 6)) {
    case 5: /* a variable against a constant: the gate bounds the variable in the branches */
        return rdx_ir_cmplt(e->c, vars[ir_rand_range(st, 0, 4)],
                            rdx_ir_int(e->c, ir_rand_range(st, -2, 12)));
    case 6:
        return rdx_ir_cmplt(e->c, rdx_ir_int(e->c, ir_rand_range(st, -2, 12)),
                            vars[ir_rand_range(st, 0, 4)]);
    case 0:
        return rdx_ir_cmpne(e->c, gen_int(e, st, depth - 1), gen_int(e, st, depth - 1));
    case 1:
        return rdx_ir_alu2(e->c, RDX_OP_AND, gen_bool(e, st, depth - 1),
                           gen_bool(e, st, depth - 1));
    case 2:
        return rdx_ir_not(e->c, gen_bool(e, st, depth - 1));
    default:
        return rdx_ir_cmplt(e->c, gen_int(e, st, depth - 1), gen_int(e, st, depth - 1));
    }
}

static const rdx_uop *gen_int(env *e, uint64_t *st, int depth)
{
    const rdx_uop *leaves[5] = { e->x, e->y, e->z, e->n, e->r };
    if (depth <= 0 || ir_rand_range(st, 0, 9) < 2) {
        if (ir_rand_range(st, 0, 2) == 0)
            return rdx_ir_int(e->c, ir_rand_range(st, -8, 16));
        return leaves[ir_rand_range(st, 0, 4)];
    }
    const rdx_uop *a = gen_int(e, st, depth - 1);
    int64_t c = ir_rand_range(st, 1, 12) * (ir_rand_range(st, 0, 7) ? 1 : -1);
    switch (ir_rand_range(st, 0, 10)) {
    case 0:
        return rdx_ir_add(e->c, a, gen_int(e, st, depth - 1));
    case 1: { /* (a // c) * (k*c) + (a % c) * k, sometimes off by one in the multiple */
        int64_t k = ir_rand_range(st, -3, 3), kc = k * c + (ir_rand_range(st, 0, 4) == 0);
        return rdx_ir_add(
            e->c, rdx_ir_mul(e->c, rdx_ir_idiv(e->c, a, rdx_ir_int(e->c, c)), rdx_ir_int(e->c, kc)),
            rdx_ir_mul(e->c, rdx_ir_mod(e->c, a, rdx_ir_int(e->c, c)), rdx_ir_int(e->c, k)));
    }
    case 2:
        return rdx_ir_mul(e->c, a, rdx_ir_int(e->c, ir_rand_range(st, -4, 6)));
    case 3:
        return rdx_ir_idiv(e->c, a, rdx_ir_int(e->c, c));
    case 4:
        return rdx_ir_mod(e->c, a, rdx_ir_int(e->c, c));
    case 5:
        return rdx_ir_max(e->c, a, gen_int(e, st, depth - 1));
    case 6:
        return rdx_ir_where(e->c, gen_bool(e, st, depth - 1), a, gen_int(e, st, depth - 1));
    case 7:
        return rdx_ir_sub(e->c, a, gen_int(e, st, depth - 1));
    case 8:
        return rdx_ir_mul(e->c, a, gen_int(e, st, depth - 2));
    default:
        return rdx_ir_add(e->c, rdx_ir_mul(e->c, a, rdx_ir_int(e->c, c)),
                          rdx_ir_int(e->c, ir_rand_range(st, -5, 20)));
    }
}

static size_t node_count(const rdx_uop *u)
{
    const rdx_uop **o;
    size_t n;
    ck_assert_int_eq(rdx_ir_toposort(u, &o, &n), RDX_OK);
    free(o);
    return n;
}

START_TEST(random_expressions_keep_their_values)
{
    env e;
    env_init(&e);
    uint64_t st = 2024 + (uint64_t)_i;
    long smaller = 0, total = 0, before = 0, after = 0;
    for (int t = 0; t < 400; t++) {
        const rdx_uop *u = IR_OK(gen_int(&e, &st, 5));
        const rdx_uop *s = simp(&e, u);
        ck_assert_ptr_eq(simp(&e, s), s); /* a fixed point */
        size_t nb = node_count(u), na = node_count(s);
        before += (long)nb, after += (long)na;
        smaller += na < nb;
        total++;
        const rdx_uop *leaves[5] = { e.x, e.y, e.z, e.n, e.r };
        rdx_evalplan *pu, *ps;
        ck_assert_int_eq(rdx_evalplan_create(u, leaves, 5, &pu), RDX_OK);
        ck_assert_int_eq(rdx_evalplan_create(s, leaves, 5, &ps), RDX_OK);
        for (int i = 0; i < 60; i++) {
            int64_t v[5];
            random_point(&st, v);
            rdx_value vv[5], ru, rs;
            for (int k = 0; k < 5; k++)
                vv[k].i = v[k], vv[k].f = 0;
            ck_assert_int_eq(rdx_evalplan_run(pu, vv, &ru), RDX_OK);
            ck_assert_int_eq(rdx_evalplan_run(ps, vv, &rs), RDX_OK);
            if (ru.i != rs.i) {
                char *t1, *t2;
                rdx_ir_print(&u, 1, 0, &t1);
                rdx_ir_print(&s, 1, 0, &t2);
                ck_abort_msg("x=%lld y=%lld z=%lld n=%lld r=%lld: %lld != %lld\n%s-->\n%s",
                             (long long)v[0], (long long)v[1], (long long)v[2], (long long)v[3],
                             (long long)v[4], (long long)ru.i, (long long)rs.i, t1, t2);
            }
            /* the derived bounds hold */
            ck_assert(ru.i >= s->vmin && ru.i <= s->vmax);
            ck_assert(ru.i >= u->vmin && ru.i <= u->vmax);
        }
        rdx_evalplan_free(pu);
        rdx_evalplan_free(ps);
    }
    printf("symbolic seed %d: %ld/%ld expressions shrank, %ld -> %ld nodes\n", _i, smaller, total,
           before, after);
    ck_assert_int_gt(smaller, total / 4);
    rdx_ir_ctx_destroy(e.c);
}
END_TEST

/* The canonical sums simplification builds are kept as simplified (fixed points), but only
   when built from simplified terms: the symbolic rules applied directly to a node whose
   sources are not simplified, or top-down, must not make an unsimplified term final. */
START_TEST(kept_sums_only_from_simplified_terms)
{
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *x = IR_OK(rdx_ir_var(c, "x", 0, 9)), *y = IR_OK(rdx_ir_var(c, "y", 0, 9));
    const rdx_uop *x1 = IR_OK(rdx_ir_add(c, x, rdx_ir_int(c, 1)));
    const rdx_uop *m = IR_OK(rdx_ir_mul(c, x1, rdx_ir_int(c, 2))); /* (x+1)*2: not simplified */
    const rdx_uop *u = IR_OK(rdx_ir_add(c, m, y));                 /* canonical order: y first */
    rdx_rewriter *sym = rdx_ir_symbolic(c);
    ck_assert_ptr_nonnull(sym);
    const rdx_uop *r = rdx_rewriter_apply(sym, c, u, NULL); /* a sum of y and (x+1)*2 */
    ck_assert_ptr_nonnull(r);
    const rdx_uop *td;
    ck_assert_int_eq(rdx_ir_rewrite(c, sym, u, RDX_RW_TOP_DOWN, NULL, &td), RDX_OK);
    const rdx_uop *s,
        *want = IR_OK(rdx_ir_add(c, rdx_ir_mul(c, x, rdx_ir_int(c, 2)), rdx_ir_int(c, 2)));
    ck_assert_int_eq(rdx_ir_simplify(c, m, &s), RDX_OK);
    ck_assert_ptr_eq(s, want);
    /* the sums a simplification builds simplify to themselves, their parts too */
    const rdx_uop *big =
        IR_OK(rdx_ir_add(c, rdx_ir_mul(c, rdx_ir_add(c, y, x1), rdx_ir_int(c, 3)), m));
    ck_assert_int_eq(rdx_ir_simplify(c, big, &s), RDX_OK); /* 5x + 3y + 5 */
    for (const rdx_uop *p = s; p->op == RDX_OP_ADD; p = p->src[0]) {
        const rdx_uop *again;
        ck_assert_int_eq(rdx_ir_simplify(c, p, &again), RDX_OK);
        ck_assert_ptr_eq(again, p);
    }
    int64_t v;
    ck_assert(s->op == RDX_OP_ADD && rdx_uop_const_int(s->src[1], &v) && v == 5);
    rdx_ir_ctx_destroy(c);
}
END_TEST

/* rdx_ir_simplify_add_const against the full simplifier: x + c built from a simplified x
   is what rdx_ir_simplify gives for x + c (and for the unsimplified e + c); an x that is
   not a simplification result (or not an index) is simplified in full. */
START_TEST(add_const_matches_simplify)
{
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *x = IR_OK(rdx_ir_var(c, "x", 0, 9)), *y = IR_OK(rdx_ir_var(c, "y", 0, 20));
    uint64_t seed = 7;
    for (int t = 0; t < 200; t++) {
        int64_t a = ir_rand_range(&seed, -3, 3), b = ir_rand_range(&seed, -3, 3);
        int64_t d = ir_rand_range(&seed, -2, 2), k = ir_rand_range(&seed, -40, 40);
        const rdx_uop *e = IR_OK(rdx_ir_add(
            c,
            rdx_ir_add(c, rdx_ir_mul(c, rdx_ir_add(c, x, rdx_ir_int(c, k % 7)), rdx_ir_int(c, a)),
                       rdx_ir_mul(c, y, rdx_ir_int(c, b))),
            rdx_ir_add(c, rdx_ir_mul(c, rdx_ir_idiv(c, x, rdx_ir_int(c, 3)), rdx_ir_int(c, d)),
                       rdx_ir_int(c, k))));
        const rdx_uop *se, *r, *full, *full2, *fb;
        ck_assert_int_eq(rdx_ir_simplify(c, e, &se), RDX_OK);
        int64_t cc = ir_rand_range(&seed, -50, 50);
        if (t % 5 == 0) /* now and then the move cancels the constant */
            cc = se->op == RDX_OP_ADD && se->src[1]->op == RDX_OP_CONST ? -se->src[1]->arg.i : 0;
        ck_assert_int_eq(rdx_ir_simplify_add_const(c, se, cc, &r), RDX_OK);
        ck_assert_int_eq(rdx_ir_simplify(c, IR_OK(rdx_ir_add(c, se, rdx_ir_int(c, cc))), &full),
                         RDX_OK);
        ck_assert_int_eq(rdx_ir_simplify(c, IR_OK(rdx_ir_add(c, e, rdx_ir_int(c, cc))), &full2),
                         RDX_OK);
        ck_assert_ptr_eq(r, full);
        ck_assert_ptr_eq(r, full2);
        ck_assert_int_eq(rdx_ir_simplify(c, r, &full), RDX_OK); /* a fixed point */
        ck_assert_ptr_eq(full, r);
        if (e != se) { /* not a simplification result: simplified in full */
            ck_assert_int_eq(rdx_ir_simplify_add_const(c, e, cc, &fb), RDX_OK);
            ck_assert_ptr_eq(fb, full2);
        }
    }
    /* an int32 expression: simplified in full */
    rdx_dtype i32 = rdx_dtype_of(RDX_INT32);
    const rdx_uop *p = IR_OK(rdx_ir_cast(c, x, i32)), *s, *r, *want;
    const rdx_uop *q = IR_OK(rdx_ir_add(c, p, rdx_ir_const_int(c, i32, 5)));
    ck_assert_int_eq(rdx_ir_simplify(c, q, &s), RDX_OK);
    ck_assert_int_eq(rdx_ir_simplify_add_const(c, s, 3, &r), RDX_OK);
    ck_assert_int_eq(
        rdx_ir_simplify(c, IR_OK(rdx_ir_add(c, s, rdx_ir_const_int(c, i32, 3))), &want), RDX_OK);
    ck_assert_ptr_eq(r, want);
    rdx_ir_ctx_destroy(c);
}
END_TEST

TCase *ir_tcase_symbolic(void)
{
    TCase *tc = tcase_create("symbolic");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, folding_and_identities);
    tcase_add_test(tc, sums_collect_like_terms);
    tcase_add_test(tc, div_mod_folding);
    tcase_add_test(tc, compares_from_bounds);
    tcase_add_test(tc, compares_normalise);
    tcase_add_test(tc, where_and_gates);
    tcase_add_test(tc, nested_where_chain);
    tcase_add_test(tc, kept_sums_only_from_simplified_terms);
    tcase_add_test(tc, add_const_matches_simplify);
    tcase_add_loop_test(tc, random_expressions_keep_their_values, 0, 4);
    return tc;
}
