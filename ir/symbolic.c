/*
 * ir/symbolic.c — symbolic integer algebra as rewrite rules: constant
 * folding, identities, sums of terms in a canonical order (reassociation,
 * like terms), div/mod folding from min_max, comparisons decided or
 * normalised from bounds, WHERE and gate simplification.
 *
 * Sums, div/mod and compare rules act on signed-int and index dtypes; they
 * are exact for C (truncating) division because they only fire where the
 * dividend is known non-negative or the quotient is a known constant.
 */
#include <stdlib.h>
#include <string.h>

#include "ir/ir_internal.h"

#define MAX_TERMS 256

static int sym_int(const rdx_uop *u)
{
    rdx_dkind k = rdx_dtype_kind(u->dtype);
    return u->dtype.count == 1 && !u->dtype.ptr && (k == RDX_DK_SINT || k == RDX_DK_INDEX);
}

static const rdx_uop *cst(rdx_match *m, rdx_dtype d, int64_t v)
{
    const rdx_uop *c = rdx_ir_const_int(m->ctx, d, rdx_ir_wrap(d, v));
    if (!c)
        rdx_rw_fail(m);
    return c;
}

static const rdx_uop *chk(rdx_match *m, const rdx_uop *u)
{
    if (!u)
        rdx_rw_fail(m);
    return u;
}

/* ------------------------------------------------------------ folding */

static const rdx_uop *fold_const(rdx_match *m)
{
    const rdx_uop *u = m->root;
    if (u->dtype.count != 1 || u->ndim)
        return NULL;
    rdx_value a[3];
    for (uint32_t k = 0; k < u->nsrc; k++) {
        if (u->src[k]->op != RDX_OP_CONST)
            return NULL;
        a[k].i = u->src[k]->arg.i;
        a[k].f = u->src[k]->arg.f;
    }
    rdx_value r;
    rdx_dtype in = u->op == RDX_OP_WHERE ? u->src[1]->dtype : u->src[0]->dtype;
    if (rdx_ir_alu_eval((rdx_op)u->op, u->dtype, in, a, &r)) {
        rdx_error_clear();
        return NULL; /* e.g. division by zero: leave it */
    }
    return chk(m, rdx_dtype_is_float(u->dtype) ? rdx_ir_const_float(m->ctx, u->dtype, r.f)
                                               : rdx_ir_const_int(m->ctx, u->dtype, r.i));
}

/* A non-CONST integer node whose bounds pin one value. */
static const rdx_uop *fold_bounds(rdx_match *m)
{
    const rdx_uop *u = m->root;
    if (!rdx_dtype_is_int(u->dtype) || u->dtype.count != 1 || u->vmin != u->vmax || u->ndim)
        return NULL;
    return cst(m, u->dtype, u->vmin);
}

/* ------------------------------------------------------------ identities */

static const rdx_uop *ret_x(rdx_match *m)
{
    return m->caps[0];
}

static const rdx_uop *ret_second(rdx_match *m)
{
    return m->caps[1];
}

static const rdx_uop *ret_x_int(rdx_match *m)
{
    return rdx_dtype_is_int(m->caps[0]->dtype) ? m->caps[0] : NULL;
}

static const rdx_uop *zero_int(rdx_match *m)
{
    const rdx_uop *u = m->root;
    if (!rdx_dtype_is_int(u->src[0]->dtype) || u->ndim)
        return NULL;
    return cst(m, u->dtype, 0);
}

static const rdx_uop *false_int(rdx_match *m)
{
    return zero_int(m);
}

static const rdx_uop *true_bool(rdx_match *m)
{
    if (m->root->ndim)
        return NULL;
    return cst(m, m->root->dtype, 1);
}

static const rdx_uop *max_bounds(rdx_match *m)
{
    const rdx_uop *a = m->caps[0], *b = m->caps[1];
    if (rdx_dtype_is_float(a->dtype))
        return a->fmin >= b->fmax ? a : NULL;
    return a->vmin >= b->vmax ? a : NULL;
}

/* ------------------------------------------------------------ sums */

typedef struct term {
    const rdx_uop *base;
    int64_t coef;
} term;

typedef struct sum {
    term t[MAX_TERMS];
    int n;
    int64_t k;
} sum;

static int add_term(sum *s, const rdx_uop *b, int64_t c)
{
    for (int i = 0; i < s->n; i++)
        if (s->t[i].base == b)
            return !__builtin_add_overflow(s->t[i].coef, c, &s->t[i].coef);
    if (s->n == MAX_TERMS)
        return 0;
    s->t[s->n++] = (term){ b, c };
    return 1;
}

/* x as Σ coef*base + k; 0 on overflow or too many terms. */
static int terms_of(const rdx_uop *x, int64_t mul, sum *s)
{
    int64_t v;
    if (rdx_uop_const_int(x, &v)) {
        return !__builtin_mul_overflow(v, mul, &v) && !__builtin_add_overflow(s->k, v, &s->k);
    }
    if (x->op == RDX_OP_ADD)
        return terms_of(x->src[0], mul, s) && terms_of(x->src[1], mul, s);
    if (x->op == RDX_OP_MUL) {
        if (rdx_uop_const_int(x->src[1], &v) || rdx_uop_const_int(x->src[0], &v)) {
            const rdx_uop *b = x->src[1]->op == RDX_OP_CONST ? x->src[0] : x->src[1];
            return !__builtin_mul_overflow(v, mul, &v) && add_term(s, b, v);
        }
    }
    return add_term(s, x, mul);
}

/* Drop zero terms and sort by base id (insertion sort: sums have a few terms; bases are
   distinct, so the order is total). */
static void compact(sum *s)
{
    int j = 0;
    for (int i = 0; i < s->n; i++) {
        if (!s->t[i].coef)
            continue;
        term t = s->t[i];
        int k = j++;
        for (; k > 0 && s->t[k - 1].base->id > t.base->id; k--)
            s->t[k] = s->t[k - 1];
        s->t[k] = t;
    }
    s->n = j;
}

/*
 * Canonical sum: terms by base id, then the constant.  The bases are simplified
 * (terms of a rule's simplified sources), so the sum and each of its partial
 * sums and products by a coefficient are fixed points of every rule: no two
 * terms share a base, no coefficient is 0 or 1 on a product, no base is a sum
 * or a product by a constant (terms_of splits those), the constant is last
 * and not 0, and the bounds pin no value (a base whose bounds did was folded).
 * They are recorded as simplified, so the rewrite does not try every rule on
 * each partial sum again (n^2 work per sum of n terms).
 */
static const rdx_uop *build_sum(rdx_match *m, rdx_dtype d, sum *s)
{
    compact(s);
    const rdx_uop *acc = NULL;
    for (int i = 0; i < s->n; i++) {
        const rdx_uop *t = s->t[i].base;
        if (s->t[i].coef != 1) {
            t = rdx_ir_mul(m->ctx, t, cst(m, d, s->t[i].coef));
            rdx_ir_simp_fixed(m->ctx, t);
        }
        acc = acc ? rdx_ir_add(m->ctx, acc, t) : t;
        if (!t || !acc)
            return chk(m, NULL);
        if (i)
            rdx_ir_simp_fixed(m->ctx, acc);
    }
    if (s->k || !acc) {
        const rdx_uop *k = cst(m, d, s->k);
        acc = acc ? rdx_ir_add(m->ctx, acc, k) : k;
        rdx_ir_simp_fixed(m->ctx, acc);
    }
    return chk(m, acc);
}

/* (y // c)*(k*c) + (y % c)*k -> y*k: exact for truncating division too */
static int recombine_divmod(sum *s)
{
    for (int i = 0; i < s->n; i++) {
        const rdx_uop *d = s->t[i].base;
        int64_t c, kc;
        if (!s->t[i].coef || d->op != RDX_OP_IDIV || !rdx_uop_const_int(d->src[1], &c) || c == 0)
            continue;
        for (int j = 0; j < s->n; j++) {
            const rdx_uop *md = s->t[j].base;
            if (!s->t[j].coef || md->op != RDX_OP_MOD || md->src[0] != d->src[0] ||
                md->src[1] != d->src[1] || __builtin_mul_overflow(s->t[j].coef, c, &kc) ||
                kc != s->t[i].coef)
                continue;
            int64_t k = s->t[j].coef;
            s->t[i].coef = 0;
            s->t[j].coef = 0;
            return terms_of(d->src[0], k, s) ? 1 : -1;
        }
    }
    return 0;
}

/* c is the CONST build_sum's cst(m, d, v) gives (the same interned node). */
static int is_cst(const rdx_uop *c, rdx_dtype d, int64_t v)
{
    return c->op == RDX_OP_CONST && !c->nsrc && !c->tag && c->arg.i == rdx_ir_wrap(d, v) &&
           !memcmp(&c->arg.dtype, &d, sizeof d);
}

/* x is ADD or MUL as rdx_ir_add / rdx_ir_mul build it. */
static int plain(const rdx_uop *x, rdx_op op)
{
    return x->op == op && x->nsrc == 2 && !x->tag;
}

/*
 * Is u already what build_sum would build from s (compacted)?  Then the rule
 * has nothing to do, and nothing is built: a sum of n terms is visited at each
 * of its n ADDs, so building it each time would cost n^2 node look-ups.
 */
static int is_built_sum(const rdx_uop *u, rdx_dtype d, const sum *s)
{
    const rdx_uop *x = u;
    if (!s->n)
        return is_cst(x, d, s->k);
    if (s->k) {
        if (!plain(x, RDX_OP_ADD) || !is_cst(x->src[1], d, s->k))
            return 0;
        x = x->src[0];
    }
    for (int i = s->n - 1; i >= 0; i--) {
        const rdx_uop *t = x;
        if (i) {
            if (!plain(x, RDX_OP_ADD))
                return 0;
            t = x->src[1];
            x = x->src[0];
        }
        if (s->t[i].coef == 1 ? t != s->t[i].base
                              : !plain(t, RDX_OP_MUL) || t->src[0] != s->t[i].base ||
                                    !is_cst(t->src[1], d, s->t[i].coef))
            return 0;
    }
    return 1;
}

/* Term t as terms_of splits a single term: its base and coefficient; 0 when t is a sum or
   a constant. */
static int one_term(const rdx_uop *t, const rdx_uop **b, int64_t *coef)
{
    int64_t v;
    if (t->op == RDX_OP_ADD || rdx_uop_const_int(t, &v))
        return 0;
    *b = t, *coef = 1;
    if (t->op == RDX_OP_MUL &&
        (rdx_uop_const_int(t->src[1], &v) || rdx_uop_const_int(t->src[0], &v))) {
        *b = t->src[1]->op == RDX_OP_CONST ? t->src[0] : t->src[1];
        *coef = v;
    }
    return 1;
}

/*
 * u = p + t with p a kept simplification result: is u already canonical, known without
 * collecting p's terms again?  p is then build_sum's form (a simplification result that is
 * a sum passed is_built_sum), so u is when p has no constant and t is its constant (not 0)
 * or a term whose base comes after p's last (by id) in build_sum's form — and cannot pair
 * as x // c with x % c (t's base is no IDIV or MOD; p's own terms have no pair).  1 when
 * so; 0: not known (the full check decides).  The bottom-up rewrite meets each partial
 * sum of a sum first, so a sum of n terms costs n steps instead of n^2.
 */
static int known_canonical(rdx_ir_ctx *ctx, const rdx_uop *u)
{
    const rdx_uop *p = u->src[0], *t = u->src[1], *b, *lb;
    int64_t c, lc;
    if (!plain(u, RDX_OP_ADD) || !rdx_ir_simp_is_final(ctx, p) || p->op == RDX_OP_CONST ||
        (p->op == RDX_OP_ADD && p->src[1]->op == RDX_OP_CONST))
        return 0;
    if (t->op == RDX_OP_CONST)
        return t->arg.i != 0 && is_cst(t, u->dtype, t->arg.i);
    if (!one_term(t, &b, &c) || c == 0 || b->op == RDX_OP_IDIV || b->op == RDX_OP_MOD ||
        (c == 1 ? t != b
                : !plain(t, RDX_OP_MUL) || t->src[0] != b || !is_cst(t->src[1], u->dtype, c)))
        return 0;
    if (!one_term(p->op == RDX_OP_ADD ? p->src[1] : p, &lb, &lc))
        return 0;
    return b->id > lb->id;
}

static const rdx_uop *canon_sum(rdx_match *m)
{
    const rdx_uop *u = m->root;
    if (!sym_int(u) || u->ndim)
        return NULL;
    if (known_canonical(m->ctx, u))
        return NULL;
    sum s; /* the term array is filled as used: not zeroed (4 KiB) */
    s.n = 0, s.k = 0;
    if (!terms_of(u, 1, &s))
        return NULL;
    int r;
    while ((r = recombine_divmod(&s)) > 0)
        ;
    if (r < 0)
        return NULL;
    compact(&s);
    if (is_built_sum(u, u->dtype, &s))
        return NULL;
    return build_sum(m, u->dtype, &s);
}

/* (a + b) * c -> a*c + b*c */
static const rdx_uop *distribute(rdx_match *m)
{
    const rdx_uop *u = m->root;
    if (!sym_int(u) || u->ndim)
        return NULL;
    const rdx_uop *a = m->caps[0], *b = m->caps[1], *c = m->caps[2];
    return chk(m, rdx_ir_add(m->ctx, rdx_ir_mul(m->ctx, a, c), rdx_ir_mul(m->ctx, b, c)));
}

/* c * x -> x * c; (x * a) * b -> x * (a*b) */
static const rdx_uop *mul_canon(rdx_match *m)
{
    const rdx_uop *u = m->root;
    if (u->src[0]->op == RDX_OP_CONST && u->src[1]->op != RDX_OP_CONST)
        return chk(m, rdx_ir_mul(m->ctx, u->src[1], u->src[0]));
    return NULL;
}

static const rdx_uop *mul_mul(rdx_match *m)
{
    const rdx_uop *x = m->caps[0];
    int64_t a = m->caps[1]->arg.i, b = m->caps[2]->arg.i, p;
    if (!sym_int(m->root) || __builtin_mul_overflow(a, b, &p))
        return NULL;
    return chk(m, rdx_ir_mul(m->ctx, x, cst(m, x->dtype, p)));
}

/* ------------------------------------------------------------ div / mod */

static int64_t floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    a = a < 0 ? -a : a;
    b = b < 0 ? -b : b;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static const rdx_uop *divmod(rdx_match *m)
{
    const rdx_uop *u = m->root, *x = m->caps[0];
    int64_t d = m->caps[1]->arg.i;
    int is_div = u->op == RDX_OP_IDIV;
    rdx_dtype dt = u->dtype;
    if (!sym_int(u) || d <= 0 || u->ndim)
        return NULL;
    if (x->vmin >= 0 && x->vmax < d)
        return is_div ? cst(m, dt, 0) : x;
    if (x->vmin < 0)
        return NULL;
    sum s; /* the term array is filled as used: not zeroed (4 KiB) */
    s.n = 0, s.k = 0;
    if (!terms_of(x, 1, &s))
        return NULL;
    compact(&s);
    /* common factor: (g*y) // (g*e) = y // e, (g*y) % (g*e) = (y % e) * g */
    int64_t g = gcd64(d, s.k);
    for (int i = 0; i < s.n; i++)
        g = gcd64(g, s.t[i].coef);
    if (g > 1) {
        sum y = s;
        for (int i = 0; i < y.n; i++)
            y.t[i].coef /= g;
        y.k /= g;
        const rdx_uop *yy = build_sum(m, dt, &y);
        if (!yy)
            return NULL;
        if (is_div)
            return chk(m, rdx_ir_idiv(m->ctx, yy, cst(m, dt, d / g)));
        return chk(m, rdx_ir_mul(m->ctx, rdx_ir_mod(m->ctx, yy, cst(m, dt, d / g)), cst(m, dt, g)));
    }
    sum q = { .n = 0, .k = floordiv(s.k, d) }, r = { .n = 0, .k = s.k - floordiv(s.k, d) * d };
    int64_t rmin = r.k, rmax = r.k;
    int qnz = q.k != 0;
    for (int i = 0; i < s.n; i++) {
        int64_t c = s.t[i].coef, qi = floordiv(c, d), ri = c - qi * d;
        const rdx_uop *b = s.t[i].base;
        int64_t lo, hi;
        if (qi) {
            q.t[q.n++] = (term){ b, qi };
            qnz = 1;
        }
        if (ri) {
            r.t[r.n++] = (term){ b, ri };
            if (__builtin_mul_overflow(ri, b->vmin, &lo) ||
                __builtin_mul_overflow(ri, b->vmax, &hi) ||
                __builtin_add_overflow(rmin, lo, &rmin) || __builtin_add_overflow(rmax, hi, &rmax))
                return NULL;
        }
    }
    int64_t q0 = floordiv(rmin, d);
    if (q0 == floordiv(rmax, d)) {
        if (is_div) {
            if (__builtin_add_overflow(q.k, q0, &q.k))
                return NULL;
            return build_sum(m, dt, &q);
        }
        r.k -= q0 * d;
        return build_sum(m, dt, &r);
    }
    if (rmin < 0 || !qnz)
        return NULL;
    const rdx_uop *rr = build_sum(m, dt, &r);
    if (!rr)
        return NULL;
    if (!is_div)
        return rr == x ? NULL : chk(m, rdx_ir_mod(m->ctx, rr, m->caps[1]));
    const rdx_uop *qq = build_sum(m, dt, &q);
    return chk(m, rdx_ir_add(m->ctx, qq, rdx_ir_idiv(m->ctx, rr, m->caps[1])));
}

/* (x // a) // b -> x // (a*b) */
static const rdx_uop *div_div(rdx_match *m)
{
    const rdx_uop *x = m->caps[0];
    int64_t a = m->caps[1]->arg.i, b = m->caps[2]->arg.i, p;
    if (!sym_int(m->root) || a <= 0 || b <= 0 || x->vmin < 0 || __builtin_mul_overflow(a, b, &p))
        return NULL;
    return chk(m, rdx_ir_idiv(m->ctx, x, cst(m, x->dtype, p)));
}

/* (x % a) % b -> x % b when b divides a */
static const rdx_uop *mod_mod(rdx_match *m)
{
    const rdx_uop *x = m->caps[0];
    int64_t a = m->caps[1]->arg.i, b = m->caps[2]->arg.i;
    if (!sym_int(m->root) || a <= 0 || b <= 0 || a % b || x->vmin < 0)
        return NULL;
    return chk(m, rdx_ir_mod(m->ctx, x, m->caps[2]));
}

/* ------------------------------------------------------------ compares */

/* Σ c_i b_i + k < c  ->  Σ (c_i/g) b_i < ceil((c-k)/g) */
static const rdx_uop *cmp_norm(rdx_match *m)
{
    const rdx_uop *x = m->caps[0];
    int64_t c = m->caps[1]->arg.i;
    if (!sym_int(x) || m->root->ndim || x->op == RDX_OP_CONST)
        return NULL;
    sum s; /* the term array is filled as used: not zeroed (4 KiB) */
    s.n = 0, s.k = 0;
    if (!terms_of(x, 1, &s))
        return NULL;
    compact(&s);
    if (!s.n)
        return NULL;
    int64_t g = 0, rhs;
    for (int i = 0; i < s.n; i++)
        g = gcd64(g, s.t[i].coef);
    if ((g == 1 && s.k == 0) || __builtin_sub_overflow(c, s.k, &rhs))
        return NULL;
    for (int i = 0; i < s.n; i++)
        s.t[i].coef /= g;
    s.k = 0;
    int64_t bound = -floordiv(-rhs, g); /* ceil(rhs / g) */
    const rdx_uop *lhs = build_sum(m, x->dtype, &s);
    return chk(m, rdx_ir_cmplt(m->ctx, lhs, cst(m, x->dtype, bound)));
}

/* ------------------------------------------------------------ where / gates */

static const rdx_uop *where_const(rdx_match *m)
{
    return m->caps[0]->arg.i ? m->caps[1] : m->caps[2];
}

static const rdx_uop *where_not(rdx_match *m)
{
    return chk(m, rdx_ir_where(m->ctx, m->caps[0], m->caps[2], m->caps[1]));
}

static const rdx_uop *where_nested_t(rdx_match *m)
{
    return chk(m, rdx_ir_where(m->ctx, m->caps[0], m->caps[1], m->caps[3]));
}

static const rdx_uop *where_nested_f(rdx_match *m)
{
    return chk(m, rdx_ir_where(m->ctx, m->caps[0], m->caps[1], m->caps[3]));
}

/* Inside WHERE(c, a, b): c is true in a and false in b. */
static int is_variable(const rdx_uop *v)
{
    return (v->op == RDX_OP_DEFINE_VAR || v->op == RDX_OP_RANGE || v->op == RDX_OP_SPECIAL) &&
           sym_int(v) && !v->ndim;
}

/* Bounds a gate implies for one variable: "v < K" or "K < v" (and ANDs of them when true). */
typedef struct fact {
    const rdx_uop *v;
    int64_t lo, hi;
} fact;

static int gate_facts(const rdx_uop *c, int truth, fact *f, int n, int max)
{
    int64_t k;
    if (c->op == RDX_OP_AND && truth && c->dtype.scalar == RDX_BOOL) {
        n = gate_facts(c->src[0], 1, f, n, max);
        return gate_facts(c->src[1], 1, f, n, max);
    }
    if (c->op != RDX_OP_CMPLT || n == max)
        return n;
    const rdx_uop *v = c->src[0], *kk = c->src[1];
    int var_left = 1;
    if (!is_variable(v) || !rdx_uop_const_int(kk, &k)) {
        v = c->src[1], kk = c->src[0], var_left = 0;
        if (!is_variable(v) || !rdx_uop_const_int(kk, &k))
            return n;
    }
    int64_t lo = v->vmin, hi = v->vmax;
    if (var_left == truth) { /* v < K true, or K < v false: v <= K-1 / v <= K */
        int64_t top = var_left ? k - 1 : k;
        hi = top < hi ? top : hi;
    } else { /* v < K false: v >= K; K < v true: v >= K+1 */
        int64_t bot = var_left ? k : k + 1;
        lo = bot > lo ? bot : lo;
    }
    if (lo > hi || (lo == v->vmin && hi == v->vmax))
        return n;
    f[n++] = (fact){ v, lo, hi };
    return n;
}

/*
 * A WHERE evaluates both branches (a GPU selects between them), so a memory
 * access in a branch also executes where the condition does not hold: what
 * the condition implies must not reach its address or its gate (dropping a
 * LOAD gate, or turning a safe `r % 3` address into `r`, would read out of
 * bounds).  Branch knowledge is applied to values only: these ops are kept
 * whole.
 */
static int is_access(const rdx_uop *u)
{
    switch ((rdx_op)u->op) {
    case RDX_OP_LOAD:
    case RDX_OP_STORE:
    case RDX_OP_INDEX:
    case RDX_OP_BUFFERIZE:
    case RDX_OP_ATOMICADD:
        return 1;
    default:
        return 0;
    }
}

enum { REFINE_DEPTH = 1 };

/* Simplify a branch of WHERE knowing the gate's truth value there. */
static const rdx_uop *refine_branch(rdx_match *m, const rdx_uop *c, const rdx_uop *x, int truth)
{
    fact f[8];
    int n = gate_facts(c, truth, f, 0, 8);
    /* each level re-simplifies the branch with its own stand-ins: WHEREs nested in branches
     * would cost exponential time, so only the REFINE_DEPTH outermost levels refine */
    if (!n || x->op == RDX_OP_CONST || m->ctx->refine_depth >= REFINE_DEPTH)
        return x;
    const rdx_uop *from[8], *to[8], *y, *z;
    for (int i = 0; i < n; i++) { /* a bounded stand-in for each variable */
        rdx_uop_arg a = rdx_uop_arg_none();
        a.str = "gate", a.i = f[i].lo, a.j = f[i].hi;
        const rdx_uop *proxy;
        if (rdx_ir_make(m->ctx, RDX_OP_DEFINE_VAR, NULL, 0, &a, -1 - (int32_t)f[i].v->id, &proxy))
            return chk(m, NULL);
        from[i] = f[i].v, to[i] = proxy;
    }
    /* substituting back can leave sums out of canonical order (ids differ): simplify again */
    m->ctx->refine_depth++;
    int bad = rdx_ir_substitute_keep(m->ctx, x, from, to, (size_t)n, is_access, &y) ||
              rdx_ir_simplify(m->ctx, y, &z) ||
              rdx_ir_substitute(m->ctx, z, to, from, (size_t)n, &y) ||
              rdx_ir_simplify(m->ctx, y, &z);
    m->ctx->refine_depth--;
    return bad ? chk(m, NULL) : z;
}

static const rdx_uop *where_gate(rdx_match *m)
{
    const rdx_uop *c = m->caps[0], *a = m->caps[1], *b = m->caps[2];
    if (c->op == RDX_OP_CONST || c->ndim)
        return NULL;
    const rdx_uop *t = cst(m, c->dtype, 1), *f = cst(m, c->dtype, 0), *a2, *b2;
    if (!t || !f || rdx_ir_substitute_keep(m->ctx, a, &c, &t, 1, is_access, &a2) ||
        rdx_ir_substitute_keep(m->ctx, b, &c, &f, 1, is_access, &b2)) {
        rdx_rw_fail(m);
        return NULL;
    }
    /* the gate's bounds on its variables hold inside each branch */
    if (!(a2 = refine_branch(m, c, a2, 1)) || !(b2 = refine_branch(m, c, b2, 0)))
        return NULL;
    if (a2 == a && b2 == b)
        return NULL;
    return chk(m, rdx_ir_where(m->ctx, c, a2, b2));
}

static const rdx_uop *drop_true_gate(rdx_match *m)
{
    const rdx_uop *u = m->root;
    const rdx_uop *g = u->src[u->nsrc - 1];
    if (g->op != RDX_OP_CONST || !g->arg.i)
        return NULL;
    return chk(m,
               rdx_ir_node(m->ctx, (rdx_op)u->op, u->src, u->op == RDX_OP_LOAD ? 1 : 2, &u->arg));
}

#define ALU "{ADD MUL MAX MOD IDIV CMPLT CMPNE XOR OR AND SHR SHL}"

static const rdx_pattern_rule rules[] = {
    /* folding */
    { "(" ALU " $a:const $b:const)", fold_const },
    { "({RECIP TRUNC CAST BITCAST} $a:const)", fold_const },
    { "(WHERE $c:const $a $b)", where_const },
    { "(" ALU " ..)", fold_bounds },
    { "({WHERE CAST TRUNC} ..)", fold_bounds },
    /* identities */
    { "(ADD $x 0)", ret_x_int },
    { "(MUL $x 1)", ret_x },
    { "(MUL $x 0)", zero_int },
    { "(IDIV $x 1)", ret_x },
    { "(MOD $x 1)", zero_int },
    { "({AND OR MAX} $x $x)", ret_x },
    { "(XOR $x 0)", ret_x },
    { "(OR $x 0)", ret_x },
    { "(AND $x 0)", zero_int },
    { "(OR $x:bool 1)", true_bool },
    { "(AND $x:bool 1)", ret_x },
    { "({CMPNE CMPLT} $x $x)", false_int },
    { "(CMPNE (CMPNE $x:bool 1) 1)", ret_x },
    { "(MAX $a $b)", max_bounds },
    { "(WHERE $c $x $x)", ret_second },
    /* sums and products */
    { "(MUL $c:const $x)", mul_canon },
    { "(MUL (MUL $x $a:const) $b:const)", mul_mul },
    { "(MUL (ADD $a $b) $c:const)", distribute },
    { "(ADD $a $b)", canon_sum },
    /* div / mod */
    { "(IDIV (IDIV $x $a:const) $b:const)", div_div },
    { "(MOD (MOD $x $a:const) $b:const)", mod_mod },
    { "({IDIV MOD} $x $d:const)", divmod },
    /* compares */
    { "(CMPLT $x $c:const)", cmp_norm },
    /* where and gates */
    { "(WHERE (CMPNE $c:bool 1) $a $b)", where_not },
    { "(WHERE $c (WHERE $c $a $b) $d)", where_nested_t },
    { "(WHERE $c $a (WHERE $c $b $d))", where_nested_f },
    { "(WHERE $c $a $b)", where_gate },
    { "(LOAD $b $g:const)", drop_true_gate },
    { "(LOAD $b $a $g:const)", drop_true_gate },
    { "(STORE $b $v $g:const)", drop_true_gate },
};

rdx_rewriter *rdx_ir_symbolic(rdx_ir_ctx *ctx)
{
    if (!ctx->sym)
        ctx->sym = rdx_ir_spare_sym_take(); /* a destroyed context's (ir/spare.c) */
    if (!ctx->sym && rdx_rewriter_create(rules, sizeof rules / sizeof *rules, &ctx->sym))
        return NULL;
    return ctx->sym;
}

rdx_status rdx_ir_simplify(rdx_ir_ctx *ctx, const rdx_uop *root, const rdx_uop **out)
{
    /* simplified before: the kept result, what the rewrite would return at once (with
       verify-after-rewrite on, the rewrite runs to verify it) */
    const rdx_uop *k = ctx->verify ? NULL : rdx_ir_simp_known(ctx, root);
    if (k) {
        *out = k;
        return RDX_OK;
    }
    rdx_rewriter *rw = rdx_ir_symbolic(ctx);
    if (!rw)
        return RDX_ERR_INVALID;
    return rdx_ir_rewrite(ctx, rw, root, RDX_RW_BOTTOM_UP, NULL, out);
}

/*
 * A kept simplification result x of index dtype is a canonical sum (build_sum's
 * form, or a single term or constant): its partial sum p of the terms is a fixed
 * point over fixed points, and so is p + k for a constant k != 0 (the constant
 * goes last) — what the rules give for x + c.
 */
rdx_status rdx_ir_simplify_add_const(rdx_ir_ctx *ctx, const rdx_uop *x, int64_t c,
                                     const rdx_uop **out)
{
    int64_t c0 = 0, k;
    const rdx_uop *p = x;
    if (x->dtype.scalar == RDX_INDEX && x->dtype.count == 1 && !x->dtype.ptr && !x->ndim &&
        rdx_ir_simp_is_final(ctx, x)) {
        if (x->op == RDX_OP_CONST)
            c0 = x->arg.i, p = NULL;
        else if (x->op == RDX_OP_ADD && x->src[1]->op == RDX_OP_CONST)
            c0 = x->src[1]->arg.i, p = x->src[0];
        if (!__builtin_add_overflow(c0, c, &k)) {
            const rdx_uop *kc = rdx_ir_const_int(ctx, x->dtype, k);
            const rdx_uop *r = !p ? kc : k ? rdx_ir_add(ctx, p, kc) : p;
            if (!r)
                return rdx_fail_context(RDX_ERR_INVALID, "simplify: moving a constant");
            rdx_ir_simp_record(ctx, r);
            *out = r;
            return RDX_OK;
        }
    }
    const rdx_uop *y = rdx_ir_add(ctx, x, rdx_ir_const_int(ctx, x->dtype, c));
    if (!y)
        return rdx_fail_context(RDX_ERR_INVALID, "simplify: adding a constant");
    return rdx_ir_simplify(ctx, y, out);
}
