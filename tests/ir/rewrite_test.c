/*
 * tests/ir/rewrite_test.c — the pattern matcher (syntax, captures, classes,
 * commutative matching, indexing by op), graph_rewrite (bottom-up, top-down,
 * fixed point, memoisation, cycles), substitute, toposort, pass context.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/ir/ir_test.h"

static int calls;

static const rdx_uop *cap0(rdx_match *m)
{
    calls++;
    return m->caps[0];
}

static const rdx_uop *cap1(rdx_match *m)
{
    calls++;
    return m->caps[1];
}

static rdx_rewriter *make_rw(const rdx_pattern_rule *r, size_t n)
{
    rdx_rewriter *rw = NULL;
    ck_assert_msg(rdx_rewriter_create(r, n, &rw) == RDX_OK, "%s", rdx_error_message());
    return rw;
}

START_TEST(pattern_syntax_errors)
{
    static const struct {
        const char *pat, *msg;
    } bad[] = {
        { "(ADD $x", "pattern 0 \"(ADD $x\": column 8: expected ')'" },
        { "(FOO $x)", "pattern 0 \"(FOO $x)\": column 2: expected an op name" },
        { "$x:weird", "column 4: expected a class" },
        { "(ADD $x) junk", "column 10: expected end of pattern" },
        { "?", "column 1: expected '$name', '_', a number or '('" },
        { "(ADD $ $y)", "column 7: expected a capture name" },
        { "(ADD .. $x)", "expected ')' after '..'" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        rdx_pattern_rule r = { bad[k].pat, cap0 };
        rdx_rewriter *rw = NULL;
        ck_assert_int_eq(rdx_rewriter_create(&r, 1, &rw), RDX_ERR_PARSE);
        ck_assert_msg(strstr(rdx_error_message(), bad[k].msg), "'%s': got '%s'", bad[k].pat,
                      rdx_error_message());
        ck_assert_ptr_null(rw);
    }
    rdx_pattern_rule nofn = { "$x", NULL };
    rdx_rewriter *rw = NULL;
    ck_assert_int_eq(rdx_rewriter_create(&nofn, 1, &rw), RDX_ERR_INVALID);
}
END_TEST

START_TEST(matching_captures_and_classes)
{
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *x = IR_OK(rdx_ir_var(c, "x", 0, 9)), *y = IR_OK(rdx_ir_var(c, "y", 0, 9));
    const rdx_uop *f = IR_OK(rdx_ir_const_float(c, rdx_dtype_of(RDX_FLOAT32), 2));
    static const rdx_pattern_rule rules[] = {
        { "(ADD $x $x)", cap0 },                /* same capture twice: same node */
        { "(MUL $x:float 2)", cap0 },           /* class + literal */
        { "(MUL (ADD $a $b) $c:const)", cap1 }, /* nested, commutative at both levels */
        { "({MAX IDIV}@n $p $q)", cap0 },       /* op set and node capture */
        { "(WHERE $c ..)", cap0 },              /* at least these sources */
    };
    rdx_rewriter *rw = make_rw(rules, 5);
    ck_assert_ptr_eq(rdx_rewriter_apply(rw, c, rdx_ir_add(c, x, x), NULL), x);
    ck_assert_ptr_null(rdx_rewriter_apply(rw, c, rdx_ir_add(c, x, y), NULL));
    ck_assert_ptr_eq(rdx_rewriter_apply(rw, c, rdx_ir_mul(c, f, f), NULL), f);
    ck_assert_ptr_null(rdx_rewriter_apply(rw, c, rdx_ir_mul(c, x, rdx_ir_int(c, 2)), NULL));
    const rdx_uop *k3 = rdx_ir_int(c, 3);
    /* MUL(3, ADD(y, x)): both operand orders swapped still match, b = x */
    ck_assert_ptr_eq(rdx_rewriter_apply(rw, c, rdx_ir_mul(c, k3, rdx_ir_add(c, y, x)), NULL), x);
    /* "@n" captures the MAX node itself as caps[0]: returning it is "no change" */
    ck_assert_ptr_null(rdx_rewriter_apply(rw, c, rdx_ir_max(c, x, y), NULL));
    const rdx_uop *w = IR_OK(rdx_ir_where(c, rdx_ir_cmplt(c, x, y), x, y));
    ck_assert_ptr_eq(rdx_rewriter_apply(rw, c, w, NULL), w->src[0]);
    /* min_max classes */
    static const rdx_pattern_rule mm[] = { { "(IDIV $x:nonneg $d:pos)", cap0 } };
    rdx_rewriter *rw2 = make_rw(mm, 1);
    const rdx_uop *z = IR_OK(rdx_ir_var(c, "z", -1, 9));
    ck_assert_ptr_eq(rdx_rewriter_apply(rw2, c, rdx_ir_idiv(c, x, rdx_ir_int(c, 3)), NULL), x);
    ck_assert_ptr_null(rdx_rewriter_apply(rw2, c, rdx_ir_idiv(c, z, rdx_ir_int(c, 3)), NULL));
    ck_assert_ptr_null(rdx_rewriter_apply(rw2, c, rdx_ir_idiv(c, x, rdx_ir_int(c, 0)), NULL));
    rdx_rewriter_free(rw2);
    rdx_rewriter_free(rw);
    rdx_ir_ctx_destroy(c);
}
END_TEST

/* "(ADD (MUL $x $y) $x)": needs backtracking into the inner commutative node */
START_TEST(commutative_backtracking)
{
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *x = IR_OK(rdx_ir_var(c, "x", 0, 9)), *y = IR_OK(rdx_ir_var(c, "y", 0, 9));
    static const rdx_pattern_rule rules[] = { { "(ADD (MUL $x $y) $x)", cap1 } };
    rdx_rewriter *rw = make_rw(rules, 1);
    /* y*x + x: the inner MUL must be read as (x, y) for $x to agree */
    ck_assert_ptr_eq(rdx_rewriter_apply(rw, c, rdx_ir_add(c, rdx_ir_mul(c, y, x), x), NULL), y);
    ck_assert_ptr_eq(rdx_rewriter_apply(rw, c, rdx_ir_add(c, x, rdx_ir_mul(c, x, y)), NULL), y);
    ck_assert_ptr_null(rdx_rewriter_apply(rw, c, rdx_ir_add(c, rdx_ir_mul(c, y, y), x), NULL));
    /* CMPLT is not commutative */
    static const rdx_pattern_rule lt[] = { { "(CMPLT $x 0)", cap0 } };
    rdx_rewriter *rw2 = make_rw(lt, 1);
    ck_assert_ptr_eq(rdx_rewriter_apply(rw2, c, rdx_ir_cmplt(c, x, rdx_ir_int(c, 0)), NULL), x);
    ck_assert_ptr_null(rdx_rewriter_apply(rw2, c, rdx_ir_cmplt(c, rdx_ir_int(c, 0), x), NULL));
    rdx_rewriter_free(rw);
    rdx_rewriter_free(rw2);
    rdx_ir_ctx_destroy(c);
}
END_TEST

START_TEST(index_by_op)
{
    /* 200 rules on MUL do not enter ADD's bucket */
    enum { N = 200 };
    rdx_pattern_rule r[N + 2];
    for (int k = 0; k < N; k++)
        r[k] = (rdx_pattern_rule){ "(MUL $x 7)", cap0 };
    r[N] = (rdx_pattern_rule){ "(ADD $x 0)", cap0 };
    r[N + 1] = (rdx_pattern_rule){ "$any", cap0 }; /* wildcard root: every bucket */
    rdx_rewriter *rw = make_rw(r, N + 2);
    ck_assert_uint_eq(rdx_rewriter_bucket(rw, RDX_OP_ADD), 2);
    ck_assert_uint_eq(rdx_rewriter_bucket(rw, RDX_OP_MUL), N + 1);
    ck_assert_uint_eq(rdx_rewriter_bucket(rw, RDX_OP_SINK), 1);
    rdx_rewriter_free(rw);
}
END_TEST

/* x + 0 -> x, x * 1 -> x */
static const rdx_pattern_rule ident[] = { { "(ADD $x 0)", cap0 }, { "(MUL $x 1)", cap0 } };

START_TEST(bottom_up_and_top_down_reach_fixed_points)
{
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *x = IR_OK(rdx_ir_var(c, "x", 0, 9)), *z = IR_OK(rdx_ir_int(c, 0));
    const rdx_uop *one = IR_OK(rdx_ir_int(c, 1));
    /* ((x*1 + 0) * 1 + 0) shared twice under a MAX */
    const rdx_uop *e =
        IR_OK(rdx_ir_add(c, rdx_ir_mul(c, rdx_ir_add(c, rdx_ir_mul(c, x, one), z), one), z));
    const rdx_uop *root = IR_OK(rdx_ir_max(c, e, e));
    rdx_rewriter *rw = make_rw(ident, 2);
    for (int mode = 0; mode < 2; mode++) {
        const rdx_uop *out;
        calls = 0;
        ck_assert_int_eq(rdx_ir_rewrite(c, rw, root, mode, NULL, &out), RDX_OK);
        ck_assert_ptr_eq(out, rdx_ir_max(c, x, x));
        /* memoised: the shared operand is rewritten once.  Bottom-up, rebuilt inner nodes are
         * hash-consed to already-rewritten ones (x*1, x+0), so only 2 rule calls happen;
         * top-down peels the four layers one by one. */
        ck_assert_int_eq(calls, mode == RDX_RW_BOTTOM_UP ? 2 : 4);
    }
    /* a rule creating new work: (x+0) is produced by a rewrite and then cleaned up */
    rdx_rewriter_free(rw);
    rdx_ir_ctx_destroy(c);
}
END_TEST

static const rdx_uop *grow(rdx_match *m)
{
    return rdx_ir_add(m->ctx, m->root, rdx_ir_int(m->ctx, 0)); /* x -> x+0 -> x -> ... */
}

static const rdx_uop *swap_minmax(rdx_match *m)
{
    /* MAX(a, b) -> MAX(b, a): flips forever */
    return rdx_ir_max(m->ctx, m->root->src[1], m->root->src[0]);
}

START_TEST(cycles_are_reported)
{
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *x = IR_OK(rdx_ir_var(c, "x", 0, 9)), *y = IR_OK(rdx_ir_var(c, "y", 0, 9));
    static const rdx_pattern_rule flip[] = { { "(MAX $a $b)", swap_minmax } };
    rdx_rewriter *rw = make_rw(flip, 1);
    const rdx_uop *out;
    ck_assert_int_eq(rdx_ir_rewrite(c, rw, rdx_ir_max(c, x, y), RDX_RW_BOTTOM_UP, NULL, &out),
                     RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "rewrite cycle: MAX(index[], index[])"), "%s",
                  rdx_error_message());
    rdx_rewriter_free(rw);
    /* x -> x + 0 with x+0 -> x: a cycle through two rules */
    static const rdx_pattern_rule two[] = { { "(ADD $x 0)", cap0 }, { "(DEFINE_VAR)", grow } };
    rw = make_rw(two, 2);
    ck_assert_int_eq(rdx_ir_rewrite(c, rw, x, RDX_RW_TOP_DOWN, NULL, &out), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "rewrite cycle"), "%s", rdx_error_message());
    rdx_rewriter_free(rw);
    rdx_ir_ctx_destroy(c);
}
END_TEST

static const rdx_uop *unbounded(rdx_match *m)
{
    /* n -> n + 1: every result is new, so only the step limit stops it */
    int64_t v;
    if (!rdx_uop_const_int(m->root, &v))
        return NULL;
    return rdx_ir_int(m->ctx, v + 1);
}

START_TEST(non_convergence_is_reported)
{
    rdx_ir_ctx *c = ir_ctx();
    static const rdx_pattern_rule r[] = { { "$k:const", unbounded } };
    rdx_rewriter *rw = make_rw(r, 1);
    const rdx_uop *out;
    ck_assert_int_eq(rdx_ir_rewrite(c, rw, rdx_ir_int(c, 0), RDX_RW_BOTTOM_UP, NULL, &out),
                     RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "no fixed point after 10000 rewrites"), "%s",
                  rdx_error_message());
    rdx_rewriter_free(rw);
    rdx_ir_ctx_destroy(c);
}
END_TEST

/* A pass with state: renumber RANGE axis ids in visiting order. */
typedef struct renum {
    int64_t next;
} renum;

static const rdx_uop *renumber(rdx_match *m)
{
    renum *st = m->user;
    const rdx_uop *r = m->root;
    if (r->tag == 1)
        return NULL;
    rdx_uop_arg a = r->arg;
    a.i = st->next++;
    const rdx_uop *out;
    if (rdx_ir_make(m->ctx, RDX_OP_RANGE, r->src, r->nsrc, &a, 1, &out)) {
        rdx_rw_fail(m);
        return NULL;
    }
    return out;
}

START_TEST(pass_context_and_failure)
{
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *r0 = IR_OK(rdx_ir_range(c, rdx_ir_int(c, 4), 40, RDX_AXIS_LOOP));
    const rdx_uop *r1 = IR_OK(rdx_ir_range(c, rdx_ir_int(c, 8), 50, RDX_AXIS_LOOP));
    const rdx_uop *e = IR_OK(rdx_ir_add(c, r0, r1));
    static const rdx_pattern_rule r[] = { { "(RANGE $b)", renumber } };
    rdx_rewriter *rw = make_rw(r, 1);
    renum st = { 0 };
    const rdx_uop *out;
    ck_assert_int_eq(rdx_ir_rewrite(c, rw, e, RDX_RW_BOTTOM_UP, &st, &out), RDX_OK);
    ck_assert_int_eq(st.next, 2);
    ck_assert_int_eq(out->src[0]->arg.i, 0);
    ck_assert_int_eq(out->src[1]->arg.i, 1);
    rdx_rewriter_free(rw);
    rdx_ir_ctx_destroy(c);
}
END_TEST

static const rdx_uop *bad_build(rdx_match *m)
{
    /* a rule whose construction fails: ADD(index, float) */
    const rdx_uop *o =
        rdx_ir_add(m->ctx, m->root, rdx_ir_const_float(m->ctx, rdx_dtype_of(RDX_FLOAT32), 1));
    if (!o)
        rdx_rw_fail(m);
    return o;
}

START_TEST(rule_errors_propagate)
{
    rdx_ir_ctx *c = ir_ctx();
    static const rdx_pattern_rule r[] = { { "(DEFINE_VAR)", bad_build } };
    rdx_rewriter *rw = make_rw(r, 1);
    const rdx_uop *out;
    ck_assert_int_eq(rdx_ir_rewrite(c, rw, rdx_ir_var(c, "x", 0, 1), RDX_RW_BOTTOM_UP, NULL, &out),
                     RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "[dtype mismatch]"), "%s", rdx_error_message());
    rdx_rewriter_free(rw);
    rdx_ir_ctx_destroy(c);
}
END_TEST

START_TEST(substitute_and_toposort)
{
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *x = IR_OK(rdx_ir_var(c, "x", 0, 9)), *y = IR_OK(rdx_ir_var(c, "y", 0, 9));
    const rdx_uop *e =
        IR_OK(rdx_ir_mul(c, rdx_ir_add(c, x, y), rdx_ir_add(c, x, rdx_ir_int(c, 1))));
    const rdx_uop *out, *seven = rdx_ir_int(c, 7);
    ck_assert_int_eq(rdx_ir_substitute(c, e, &x, &seven, 1, &out), RDX_OK);
    ck_assert_ptr_eq(
        out, rdx_ir_mul(c, rdx_ir_add(c, seven, y), rdx_ir_add(c, seven, rdx_ir_int(c, 1))));
    const rdx_uop **order;
    size_t n;
    ck_assert_int_eq(rdx_ir_toposort(e, &order, &n), RDX_OK);
    ck_assert_uint_eq(n, 6); /* x, y, x+y, 1, x+1, e */
    ck_assert_ptr_eq(order[n - 1], e);
    for (size_t i = 0; i < n; i++) /* sources come first */
        for (uint32_t k = 0; k < order[i]->nsrc; k++) {
            size_t j = 0;
            while (order[j] != order[i]->src[k])
                j++;
            ck_assert_uint_lt(j, i);
        }
    free(order);
    /* deep chains do not overflow the C stack */
    const rdx_uop *d = x;
    for (int i = 0; i < 200000; i++)
        d = IR_OK(rdx_ir_add(c, d, y));
    ck_assert_int_eq(rdx_ir_toposort(d, &order, &n), RDX_OK);
    ck_assert_uint_eq(n, 200002);
    free(order);
    rdx_rewriter *rw = make_rw(ident, 2);
    ck_assert_int_eq(rdx_ir_rewrite(c, rw, d, RDX_RW_BOTTOM_UP, NULL, &out), RDX_OK);
    ck_assert_ptr_eq(out, d);
    rdx_rewriter_free(rw);
    rdx_ir_ctx_destroy(c);
}
END_TEST

/* A cut walk: nothing below a stopped node unless reached on another path; the rest in
   rdx_ir_toposort's order (stop NULL: the same order). */
static int stop_at(void *user, const rdx_uop *u)
{
    return u == user;
}

START_TEST(toposort_cut)
{
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop *x = IR_OK(rdx_ir_var(c, "x", 0, 9)), *y = IR_OK(rdx_ir_var(c, "y", 0, 9));
    const rdx_uop *z = IR_OK(rdx_ir_var(c, "z", 0, 9));
    const rdx_uop *xy = IR_OK(rdx_ir_add(c, x, y)), *yz = IR_OK(rdx_ir_mul(c, y, z));
    const rdx_uop *e = IR_OK(rdx_ir_add(c, xy, yz));
    const rdx_uop **full, **cut;
    size_t nf, nc;
    ck_assert_int_eq(rdx_ir_toposort(e, &full, &nf), RDX_OK);
    ck_assert_int_eq(rdx_ir_toposort_cut(e, NULL, NULL, &cut, &nc), RDX_OK);
    ck_assert_uint_eq(nc, nf);
    ck_assert_int_eq(memcmp(cut, full, nf * sizeof *full), 0);
    free(cut);
    /* stopped at x + y: x is left out, y is still reached through y * z */
    ck_assert_int_eq(rdx_ir_toposort_cut(e, stop_at, (void *)xy, &cut, &nc), RDX_OK);
    ck_assert_uint_eq(nc, 5); /* x+y, y, z, y*z, e */
    const rdx_uop *want[] = { xy, y, z, yz, e };
    for (size_t i = 0; i < nc; i++)
        ck_assert_ptr_eq(cut[i], want[i]);
    free(cut);
    /* stopped at the root: the root alone */
    ck_assert_int_eq(rdx_ir_toposort_cut(e, stop_at, (void *)e, &cut, &nc), RDX_OK);
    ck_assert_uint_eq(nc, 1);
    ck_assert_ptr_eq(cut[0], e);
    free(cut);
    free(full);
    rdx_ir_ctx_destroy(c);
}
END_TEST

/* The cached sort: rdx_ir_toposort's order every time (from the cache after the first),
   a copy the caller owns, across more graphs than the cache holds and interleaved with
   substitutions (which share the cache); a root of another context is sorted plainly. */
START_TEST(toposort_ctx_cached)
{
    rdx_ir_ctx *c = ir_ctx(), *c2 = ir_ctx();
    const rdx_uop *x = IR_OK(rdx_ir_var(c, "x", 0, 9)), *y = IR_OK(rdx_ir_var(c, "y", 0, 9));
    enum { NG = 20 };
    const rdx_uop *g[NG];
    g[0] = IR_OK(rdx_ir_add(c, x, y));
    for (int i = 1; i < NG; i++) /* each graph shares the one before it */
        g[i] = IR_OK(rdx_ir_mul(c, rdx_ir_add(c, g[i - 1], rdx_ir_int(c, i)), i % 2 ? x : y));
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < NG; i++) {
            int k = round == 1 ? NG - 1 - i : i;
            const rdx_uop **want, **got, **again;
            size_t nw, ng, na;
            ck_assert_int_eq(rdx_ir_toposort(g[k], &want, &nw), RDX_OK);
            ck_assert_int_eq(rdx_ir_toposort_ctx(c, g[k], &got, &ng), RDX_OK);
            ck_assert_int_eq(rdx_ir_toposort_ctx(c, g[k], &again, &na), RDX_OK);
            ck_assert_uint_eq(ng, nw);
            ck_assert_uint_eq(na, nw);
            ck_assert_ptr_ne(got, again); /* each call's own copy */
            ck_assert_int_eq(memcmp(got, want, nw * sizeof *want), 0);
            ck_assert_int_eq(memcmp(again, want, nw * sizeof *want), 0);
            got[0] = NULL; /* the caller's copy: the cache is not touched */
            free(got);
            free(want);
            free(again);
            if (round == 2) { /* a substitution into the graph between sorts */
                const rdx_uop *r, *one = IR_OK(rdx_ir_int(c, 1));
                ck_assert_int_eq(rdx_ir_substitute(c, g[k], &x, &one, 1, &r), RDX_OK);
                ck_assert_int_eq(rdx_ir_toposort_ctx(c, r, &got, &ng), RDX_OK);
                ck_assert_int_eq(rdx_ir_toposort(r, &want, &nw), RDX_OK);
                ck_assert_uint_eq(ng, nw);
                ck_assert_int_eq(memcmp(got, want, nw * sizeof *want), 0);
                free(got);
                free(want);
            }
        }
    /* a root of another context: sorted all the same */
    const rdx_uop *z = IR_OK(rdx_ir_var(c2, "z", 0, 9)), **o;
    const rdx_uop *e = IR_OK(rdx_ir_add(c2, z, rdx_ir_int(c2, 3)));
    size_t n;
    ck_assert_int_eq(rdx_ir_toposort_ctx(c, e, &o, &n), RDX_OK);
    ck_assert_uint_eq(n, 3);
    ck_assert_ptr_eq(o[2], e);
    free(o);
    rdx_ir_ctx_destroy(c2);
    rdx_ir_ctx_destroy(c);
}
END_TEST

/* Substitution skips the nodes made before every replaced node (they cannot reach one):
   a replaced node made late, after most of the graph, and early (a leaf); a replaced node
   of another context.  Checked by evaluating every result. */
START_TEST(substitute_late_and_early_nodes)
{
    rdx_ir_ctx *c = ir_ctx(), *c2 = ir_ctx();
    const rdx_uop *x = IR_OK(rdx_ir_var(c, "x", 0, 9)), *y = IR_OK(rdx_ir_var(c, "y", 0, 9));
    const rdx_uop *a = IR_OK(rdx_ir_mul(c, x, rdx_ir_int(c, 3)));       /* 3x: early */
    const rdx_uop *b = IR_OK(rdx_ir_add(c, a, y));                      /* 3x + y */
    const rdx_uop *late = IR_OK(rdx_ir_mul(c, y, y));                   /* y*y: made after a, b */
    const rdx_uop *e = IR_OK(rdx_ir_add(c, rdx_ir_add(c, b, late), a)); /* 6x + y + y*y */
    const rdx_uop *five = IR_OK(rdx_ir_int(c, 5)), *r, *s;
    int64_t v;
    /* late -> 5: e = 6x + y + 5 */
    ck_assert_int_eq(rdx_ir_substitute(c, e, &late, &five, 1, &r), RDX_OK);
    const rdx_uop *xv[2] = { x, y },
                  *vals[2] = { IR_OK(rdx_ir_int(c, 2)), IR_OK(rdx_ir_int(c, 7)) };
    ck_assert_int_eq(rdx_ir_substitute(c, r, xv, vals, 2, &s), RDX_OK);
    ck_assert_int_eq(rdx_ir_simplify(c, s, &s), RDX_OK);
    ck_assert(rdx_uop_const_int(s, &v) && v == 6 * 2 + 7 + 5);
    /* a -> y (an early node replaced by an earlier one): e = 2y + y + y*y */
    ck_assert_int_eq(rdx_ir_substitute(c, e, &a, &y, 1, &r), RDX_OK);
    ck_assert_int_eq(rdx_ir_substitute(c, r, xv, vals, 2, &s), RDX_OK);
    ck_assert_int_eq(rdx_ir_simplify(c, s, &s), RDX_OK);
    ck_assert(rdx_uop_const_int(s, &v) && v == 3 * 7 + 49);
    /* both at once, and a replaced node of another context (nothing matches it) */
    const rdx_uop *z = IR_OK(rdx_ir_var(c2, "z", 0, 9));
    const rdx_uop *from[3] = { late, a, z }, *to[3] = { five, y, five };
    ck_assert_int_eq(rdx_ir_substitute(c, e, from, to, 3, &r), RDX_OK);
    ck_assert_int_eq(rdx_ir_substitute(c, r, xv, vals, 2, &s), RDX_OK);
    ck_assert_int_eq(rdx_ir_simplify(c, s, &s), RDX_OK);
    ck_assert(rdx_uop_const_int(s, &v) && v == 3 * 7 + 5);
    rdx_ir_ctx_destroy(c2);
    rdx_ir_ctx_destroy(c);
}
END_TEST

/* A graph that mixes two contexts (one id naming two nodes) is still sorted whole. */
START_TEST(toposort_across_contexts)
{
    rdx_ir_ctx *c1 = ir_ctx(), *c2 = ir_ctx();
    const rdx_uop *a = IR_OK(rdx_ir_var(c1, "a", 0, 9)), *b = IR_OK(rdx_ir_var(c2, "b", 0, 9));
    ck_assert_uint_eq(a->id, b->id); /* the first node of each context */
    const rdx_uop *e = IR_OK(rdx_ir_add(c1, a, b));
    const rdx_uop **order;
    size_t n;
    ck_assert_int_eq(rdx_ir_toposort(e, &order, &n), RDX_OK);
    ck_assert_uint_eq(n, 3);
    ck_assert_ptr_eq(order[0], a);
    ck_assert_ptr_eq(order[1], b);
    ck_assert_ptr_eq(order[2], e);
    free(order);
    rdx_ir_ctx_destroy(c1);
    rdx_ir_ctx_destroy(c2);
}
END_TEST

/* Node maps: values by node, many maps at once (more than the context's arrays), nodes of
   another context with the same ids kept apart. */
START_TEST(node_maps)
{
    rdx_ir_ctx *c = ir_ctx(), *c2 = ir_ctx();
    enum { NM = 12, NN = 3000 };
    const rdx_uop *nodes[NN], *other[4];
    for (int i = 0; i < NN; i++)
        nodes[i] = IR_OK(rdx_ir_int(c, i));
    for (int i = 0; i < 4; i++)
        other[i] = IR_OK(rdx_ir_int(c2, 1000 + i));
    rdx_ir_nodemap *m[NM];
    for (int k = 0; k < NM; k++) {
        ck_assert_int_eq(rdx_ir_nodemap_create(c, &m[k]), RDX_OK);
        for (int i = k; i < NN; i += 3)
            ck_assert_int_eq(rdx_ir_nodemap_put(m[k], nodes[i], &nodes[(i + k) % NN]), RDX_OK);
    }
    for (int k = 0; k < NM; k++)
        for (int i = 0; i < 4; i++) /* same ids as nodes of c: kept apart */
            ck_assert_int_eq(rdx_ir_nodemap_put(m[k], other[i], &other[i]), RDX_OK);
    for (int k = 0; k < NM; k++) {
        for (int i = 0; i < NN; i++) {
            const void *v = rdx_ir_nodemap_get(m[k], nodes[i]);
            if (i >= k && (i - k) % 3 == 0)
                ck_assert_ptr_eq(v, &nodes[(i + k) % NN]);
            else
                ck_assert_ptr_null(v);
        }
        for (int i = 0; i < 4; i++)
            ck_assert_ptr_eq(rdx_ir_nodemap_get(m[k], other[i]), &other[i]);
    }
    ck_assert_int_eq(rdx_ir_nodemap_put(m[0], nodes[0], &nodes[5]), RDX_OK); /* replaces */
    ck_assert_ptr_eq(rdx_ir_nodemap_get(m[0], nodes[0]), &nodes[5]);
    for (int k = 0; k < NM; k++)
        rdx_ir_nodemap_free(m[k]);
    /* a new map starts empty (the arrays are reused, not cleared) */
    rdx_ir_nodemap *e;
    ck_assert_int_eq(rdx_ir_nodemap_create(c, &e), RDX_OK);
    for (int i = 0; i < NN; i++)
        ck_assert_ptr_null(rdx_ir_nodemap_get(e, nodes[i]));
    rdx_ir_nodemap_free(e);
    rdx_ir_nodemap_free(NULL);
    rdx_ir_ctx_destroy(c);
    rdx_ir_ctx_destroy(c2);
}
END_TEST

START_TEST(function_inline)
{
    rdx_ir_ctx *c = ir_ctx();
    int64_t d[1] = { 4 };
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32);
    const rdx_uop *sh = IR_OK(rdx_ir_shape(c, d, 1));
    rdx_uop_arg a = rdx_uop_arg_none();
    a.dtype = f32;
    const rdx_uop *p0 = IR_OK(rdx_ir_node(c, RDX_OP_PARAM, &sh, 1, &a));
    a.i = 1;
    const rdx_uop *p1 = IR_OK(rdx_ir_node(c, RDX_OP_PARAM, &sh, 1, &a));
    const rdx_uop *body = IR_OK(rdx_ir_add(c, p0, p1));
    const rdx_uop *tup = IR_OK(rdx_ir_node(c, RDX_OP_TUPLE, &body, 1, NULL));
    const rdx_uop *x = IR_OK(rdx_ir_buffer(c, 0, f32, "AMD", d, 1));
    const rdx_uop *y = IR_OK(rdx_ir_buffer(c, 1, f32, "AMD", d, 1));
    const rdx_uop *fs[3] = { tup, x, y };
    const rdx_uop *fn = IR_OK(rdx_ir_node(c, RDX_OP_FUNCTION, fs, 3, NULL));
    const rdx_uop *out;
    ck_assert_int_eq(rdx_ir_inline(c, fn, &out), RDX_OK);
    const rdx_uop *want = rdx_ir_add(c, x, y);
    ck_assert_ptr_eq(out, rdx_ir_node(c, RDX_OP_TUPLE, &want, 1, NULL));
    const rdx_uop *fs1[2] = { tup, x }; /* PARAM 1 has no argument */
    const rdx_uop *fn1 = IR_OK(rdx_ir_node(c, RDX_OP_FUNCTION, fs1, 2, NULL));
    ck_assert_int_eq(rdx_ir_inline(c, fn1, &out), RDX_ERR_INVALID);
    ck_assert(strstr(rdx_error_message(), "PARAM slot 1 has no argument"));
    ck_assert_int_eq(rdx_ir_inline(c, x, &out), RDX_ERR_INVALID);
    rdx_ir_ctx_destroy(c);
}
END_TEST

/* A (wrong) pass that drops the END closing a loop: the result leaves the RANGE open. */
static const rdx_uop *drop_end(rdx_match *m)
{
    return m->caps[0];
}

/*
 * Verify-after-rewrite is an option of the context: RDX_IR_VERIFY (set by the
 * test harness) turns it on for new contexts; off, a rewrite hands on its
 * result unchecked.
 */
START_TEST(verify_after_rewrite_is_an_option)
{
    rdx_ir_ctx *c = ir_ctx();
    ck_assert_int_eq(rdx_ir_ctx_verify(c), 1); /* the harness sets RDX_IR_VERIFY=1 */
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32);
    int64_t d4 = 4;
    const rdx_uop *buf = IR_OK(rdx_ir_buffer(c, 0, f32, "AMD", &d4, 1));
    const rdx_uop *rg = IR_OK(rdx_ir_range(c, rdx_ir_int(c, 4), 0, RDX_AXIS_LOOP));
    const rdx_uop *ix = IR_OK(rdx_ir_index(c, buf, &rg, 1));
    const rdx_uop *st = IR_OK(rdx_ir_store(c, ix, rdx_ir_const_float(c, f32, 2)));
    const rdx_uop *end = IR_OK(rdx_ir_node(c, RDX_OP_END, (const rdx_uop *[]){ st, rg }, 2, NULL));
    const rdx_uop *sink = IR_OK(rdx_ir_sink(c, &end, 1));
    static const rdx_pattern_rule rules[] = { { "(END $s $r)", drop_end } };
    rdx_rewriter *rw = make_rw(rules, 1);
    const rdx_uop *out = NULL;
    ck_assert_int_eq(rdx_ir_rewrite(c, rw, sink, RDX_RW_BOTTOM_UP, NULL, &out), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "graph after rewrite does not verify") &&
                      strstr(rdx_error_message(), "[range not closed]"),
                  "%s", rdx_error_message());
    rdx_ir_ctx_set_verify(c, 0);
    ck_assert_int_eq(rdx_ir_ctx_verify(c), 0);
    ck_assert_int_eq(rdx_ir_rewrite(c, rw, sink, RDX_RW_BOTTOM_UP, NULL, &out), RDX_OK);
    ck_assert_ptr_eq(out, rdx_ir_sink(c, &st, 1));
    ck_assert_int_eq(rdx_ir_verify(c, out), RDX_ERR_INVALID); /* still there, unchecked */
    rdx_ir_ctx_set_verify(c, 1);
    ck_assert_int_eq(rdx_ir_rewrite(c, rw, sink, RDX_RW_BOTTOM_UP, NULL, &out), RDX_ERR_INVALID);
    rdx_rewriter_free(rw);
    rdx_ir_ctx_destroy(c);
    /* the environment decides for new contexts */
    static const struct {
        const char *v;
        int on;
    } env[] = { { "0", 0 }, { "", 0 }, { "1", 1 }, { "yes", 1 } };
    for (size_t k = 0; k < sizeof env / sizeof *env; k++) {
        setenv("RDX_IR_VERIFY", env[k].v, 1);
        c = ir_ctx();
        ck_assert_int_eq(rdx_ir_ctx_verify(c), env[k].on);
        rdx_ir_ctx_destroy(c);
    }
    unsetenv("RDX_IR_VERIFY");
    c = ir_ctx();
    ck_assert_int_eq(rdx_ir_ctx_verify(c), 0); /* the library's default */
    rdx_ir_ctx_destroy(c);
    setenv("RDX_IR_VERIFY", "1", 1);
}
END_TEST

TCase *ir_tcase_rewrite(void)
{
    TCase *tc = tcase_create("rewrite");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, pattern_syntax_errors);
    tcase_add_test(tc, matching_captures_and_classes);
    tcase_add_test(tc, commutative_backtracking);
    tcase_add_test(tc, index_by_op);
    tcase_add_test(tc, bottom_up_and_top_down_reach_fixed_points);
    tcase_add_test(tc, cycles_are_reported);
    tcase_add_test(tc, non_convergence_is_reported);
    tcase_add_test(tc, pass_context_and_failure);
    tcase_add_test(tc, rule_errors_propagate);
    tcase_add_test(tc, substitute_and_toposort);
    tcase_add_test(tc, toposort_across_contexts);
    tcase_add_test(tc, toposort_cut);
    tcase_add_test(tc, toposort_ctx_cached);
    tcase_add_test(tc, substitute_late_and_early_nodes);
    tcase_add_test(tc, node_maps);
    tcase_add_test(tc, function_inline);
    tcase_add_test(tc, verify_after_rewrite_is_an_option);
    return tc;
}
