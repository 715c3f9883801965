/*
 * ir/pattern.c — patterns as data: s-expression patterns compiled into
 * trees, a matcher indexed by root op, and complete backtracking over
 * commutative operand orders.  Syntax in rdx/ir.h and docs/ir.md.
 */
#include <stdlib.h>
#include <string.h>

#include "ir/ir_internal.h"

#define MAX_CAPS    16
#define MAX_PENDING 64
#define OPWORDS     ((RDX_OP_COUNT + 63) / 64)

enum { P_ANY, P_OP, P_CONST };
enum {
    DC_NONE,
    DC_INT,
    DC_SINT,
    DC_UINT,
    DC_FLOAT,
    DC_BOOL,
    DC_INDEX,
    DC_CONST,
    DC_NONNEG,
    DC_POS
};

typedef struct pat {
    uint8_t kind, dclass, ellipsis;
    int8_t cap;
    uint64_t ops[OPWORDS];
    double cval;
    int nsrc;
    struct pat **src;
} pat;

typedef struct rule {
    pat *root;
    rdx_rule_fn fn;
    const char *text;
} rule;

struct rdx_rewriter {
    rule *rules;
    size_t nrules;
    uint32_t *bucket[RDX_OP_COUNT];
    size_t nbucket[RDX_OP_COUNT];
    rdx_arena arena;
    int failed;
};

typedef struct pctx {
    const char *s;
    size_t pos;
    rdx_arena *arena;
    const char *names[MAX_CAPS];
    size_t nlen[MAX_CAPS];
    int ncaps;
    size_t rule_no;
} pctx;

static rdx_status pfail(pctx *c, const char *what)
{
    return rdx_fail(RDX_ERR_PARSE, "pattern %zu \"%s\": column %zu: expected %s", c->rule_no, c->s,
                    c->pos + 1, what);
}

static void ws(pctx *c)
{
    while (c->s[c->pos] == ' ' || c->s[c->pos] == '\t' || c->s[c->pos] == '\n')
        c->pos++;
}

static int ident_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_';
}

static size_t ident(pctx *c)
{
    size_t st = c->pos;
    while (ident_char(c->s[c->pos]))
        c->pos++;
    return c->pos - st;
}

static rdx_status capture(pctx *c, int8_t *cap)
{
    size_t st = c->pos, n = ident(c);
    if (!n)
        return pfail(c, "a capture name");
    for (int k = 0; k < c->ncaps; k++)
        if (c->nlen[k] == n && !memcmp(c->names[k], c->s + st, n)) {
            *cap = (int8_t)k;
            return RDX_OK;
        }
    if (c->ncaps == MAX_CAPS)
        return pfail(c, "at most 16 captures");
    c->names[c->ncaps] = c->s + st;
    c->nlen[c->ncaps] = n;
    *cap = (int8_t)c->ncaps++;
    return RDX_OK;
}

static rdx_status op_name(pctx *c, pat *p)
{
    size_t st = c->pos, n = ident(c);
    int op = n ? rdx_op_lookup(c->s + st, n) : -1;
    if (op < 0) {
        c->pos = st;
        return pfail(c, "an op name");
    }
    p->ops[op / 64] |= 1ull << (op % 64);
    return RDX_OK;
}

static rdx_status parse_pat(pctx *c, pat **out)
{
    ws(c);
    pat *p = rdx_arena_alloc(c->arena, sizeof *p);
    if (!p)
        return rdx_fail(RDX_ERR_NOMEM, "pattern: out of memory");
    memset(p, 0, sizeof *p);
    p->cap = -1;
    char ch = c->s[c->pos];
    rdx_status st;
    if (ch == '$') {
        c->pos++;
        if ((st = capture(c, &p->cap)))
            return st;
        p->kind = P_ANY;
        if (c->s[c->pos] == ':') {
            static const char *const cls[] = { "",     "int",   "sint",  "uint",   "float",
                                               "bool", "index", "const", "nonneg", "pos" };
            c->pos++;
            size_t s0 = c->pos, n = ident(c);
            for (int k = 1; k < (int)(sizeof cls / sizeof *cls); k++)
                if (strlen(cls[k]) == n && !memcmp(cls[k], c->s + s0, n))
                    p->dclass = (uint8_t)k;
            if (!p->dclass) {
                c->pos = s0;
                return pfail(c,
                             "a class (int, sint, uint, float, bool, index, const, nonneg, pos)");
            }
        }
    } else if (ch == '_') {
        c->pos++;
        p->kind = P_ANY;
    } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
        char *end;
        p->cval = strtod(c->s + c->pos, &end);
        c->pos = (size_t)(end - c->s);
        p->kind = P_CONST;
    } else if (ch == '(') {
        c->pos++;
        ws(c);
        p->kind = P_OP;
        if (c->s[c->pos] == '{') {
            c->pos++;
            for (;;) {
                ws(c);
                if (c->s[c->pos] == '}') {
                    c->pos++;
                    break;
                }
                if ((st = op_name(c, p)))
                    return st;
            }
        } else if ((st = op_name(c, p))) {
            return st;
        }
        if (c->s[c->pos] == '@') {
            c->pos++;
            if ((st = capture(c, &p->cap)))
                return st;
        }
        pat *kids[32];
        for (;;) {
            ws(c);
            if (c->s[c->pos] == ')') {
                c->pos++;
                break;
            }
            if (c->s[c->pos] == '.' && c->s[c->pos + 1] == '.') {
                c->pos += 2;
                p->ellipsis = 1;
                ws(c);
                if (c->s[c->pos] != ')')
                    return pfail(c, "')' after '..'");
                continue;
            }
            if (!c->s[c->pos])
                return pfail(c, "')'");
            if (p->nsrc == 32)
                return pfail(c, "at most 32 sources");
            if ((st = parse_pat(c, &kids[p->nsrc])))
                return st;
            p->nsrc++;
        }
        p->src = rdx_arena_alloc(c->arena, (size_t)(p->nsrc ? p->nsrc : 1) * sizeof *p->src);
        if (!p->src)
            return rdx_fail(RDX_ERR_NOMEM, "pattern: out of memory");
        memcpy(p->src, kids, (size_t)p->nsrc * sizeof *kids);
    } else {
        return pfail(c, "'$name', '_', a number or '('");
    }
    *out = p;
    return RDX_OK;
}

void rdx_rewriter_free(rdx_rewriter *rw)
{
    if (!rw)
        return;
    for (int k = 0; k < RDX_OP_COUNT; k++)
        free(rw->bucket[k]);
    free(rw->rules);
    rdx_arena_free(&rw->arena);
    free(rw);
}

rdx_status rdx_rewriter_create(const rdx_pattern_rule *rules, size_t n, rdx_rewriter **out)
{
    rdx_rewriter *rw = calloc(1, sizeof *rw);
    if (!rw || !(rw->rules = calloc(n ? n : 1, sizeof *rw->rules))) {
        free(rw);
        return rdx_fail(RDX_ERR_NOMEM, "rewriter: out of memory");
    }
    rw->nrules = n;
    rdx_status st = RDX_OK;
    for (size_t k = 0; k < n && !st; k++) {
        pctx c = { 0 };
        c.s = rules[k].pattern;
        c.arena = &rw->arena;
        c.rule_no = k;
        st = parse_pat(&c, &rw->rules[k].root);
        if (!st) {
            ws(&c);
            if (c.s[c.pos])
                st = pfail(&c, "end of pattern");
        }
        if (!st && !rules[k].fn)
            st = rdx_fail(RDX_ERR_INVALID, "pattern %zu \"%s\": no rule function", k, c.s);
        rw->rules[k].fn = rules[k].fn;
        rw->rules[k].text = rules[k].pattern;
    }
    /* index: a rule goes into the bucket of every op its root can match */
    for (int op = 0; op < RDX_OP_COUNT && !st; op++) {
        for (size_t k = 0; k < n; k++) {
            const pat *r = rw->rules[k].root;
            int hit = r->kind == P_ANY || (r->kind == P_CONST && op == RDX_OP_CONST) ||
                      (r->kind == P_OP && (r->ops[op / 64] >> (op % 64) & 1));
            if (!hit)
                continue;
            uint32_t *nb = realloc(rw->bucket[op], (rw->nbucket[op] + 1) * sizeof *nb);
            if (!nb) {
                st = rdx_fail(RDX_ERR_NOMEM, "rewriter: out of memory");
                break;
            }
            rw->bucket[op] = nb;
            nb[rw->nbucket[op]++] = (uint32_t)k;
        }
    }
    if (st) {
        rdx_rewriter_free(rw);
        return st;
    }
    *out = rw;
    return RDX_OK;
}

size_t rdx_rewriter_bucket(const rdx_rewriter *rw, rdx_op op)
{
    return (unsigned)op < RDX_OP_COUNT ? rw->nbucket[op] : 0;
}

void rdx_rw_fail(rdx_match *m)
{
    m->rw->failed = 1;
}

typedef struct mstate {
    const rdx_uop *caps[MAX_CAPS];
    uint32_t bound;
} mstate;

static int class_ok(uint8_t dc, const rdx_uop *u)
{
    if (dc == DC_NONE) /* most patterns: no class (the dtype is not looked at) */
        return 1;
    rdx_dkind k = rdx_dtype_kind(u->dtype);
    switch (dc) {
    case DC_INT:
        return rdx_dtype_is_int(u->dtype);
    case DC_SINT:
        return k == RDX_DK_SINT || k == RDX_DK_INDEX;
    case DC_UINT:
        return k == RDX_DK_UINT;
    case DC_FLOAT:
        return rdx_dtype_is_float(u->dtype);
    case DC_BOOL:
        return k == RDX_DK_BOOL;
    case DC_INDEX:
        return k == RDX_DK_INDEX;
    case DC_CONST:
        return u->op == RDX_OP_CONST;
    case DC_NONNEG: /* predicates on min_max */
        return rdx_dtype_is_float(u->dtype) ? u->fmin >= 0 : u->vmin >= 0;
    case DC_POS:
        return rdx_dtype_is_float(u->dtype) ? u->fmin > 0 : u->vmin > 0;
    default:
        return 1;
    }
}

static int node_ok(const pat *p, const rdx_uop *u)
{
    if (p->kind == P_CONST) {
        if (u->op != RDX_OP_CONST)
            return 0;
        double v;
        return rdx_uop_const_val(u, &v) && v == p->cval;
    }
    if (p->kind == P_OP) {
        if (!(p->ops[u->op / 64] >> (u->op % 64) & 1))
            return 0;
        if (p->ellipsis ? (int)u->nsrc < p->nsrc : (int)u->nsrc != p->nsrc)
            return 0;
    }
    return class_ok(p->dclass, u);
}

/*
 * Can rule root p match u at all?  node_ok at the root and, for a binary
 * pattern, at each source (in either order for a commutative op): a
 * necessary condition, checked before the backtracking matcher (most rules
 * tried at a node fail on a source, e.g. "(ADD $x 0)" at x + y).
 */
static int may_match(const pat *p, const rdx_uop *u)
{
    if (!node_ok(p, u))
        return 0;
    if (p->kind != P_OP || p->nsrc != 2 || p->ellipsis || u->nsrc != 2)
        return 1;
    const pat *a = p->src[0], *b = p->src[1];
    if (node_ok(a, u->src[0]) && node_ok(b, u->src[1]))
        return 1;
    return (rdx_op_info((rdx_op)u->op)->flags & RDX_OPF_COMMUTATIVE) && node_ok(a, u->src[1]) &&
           node_ok(b, u->src[0]);
}

/* Match the pending (pattern, node) pairs ps/us[0..n) (last first), backtracking. */
static int mseq(const pat **ps, const rdx_uop **us, int n, mstate *st)
{
    if (n == 0)
        return 1;
    const pat *p = ps[n - 1];
    const rdx_uop *u = us[n - 1];
    n--;
    if (!node_ok(p, u))
        return 0;
    /* a capture is only read under its bound bit: restoring the bits undoes the binding */
    uint32_t save = st->bound;
    if (p->cap >= 0) {
        if (st->bound >> p->cap & 1) {
            if (st->caps[p->cap] != u)
                return 0;
        } else {
            st->caps[p->cap] = u;
            st->bound |= 1u << p->cap;
        }
    }
    if (p->kind != P_OP || !p->nsrc) {
        if (mseq(ps, us, n, st))
            return 1;
        st->bound = save;
        return 0;
    }
    if (n + p->nsrc > MAX_PENDING) {
        st->bound = save;
        return 0;
    }
    int swaps = p->nsrc == 2 && (rdx_op_info((rdx_op)u->op)->flags & RDX_OPF_COMMUTATIVE) ? 2 : 1;
    const pat *ps2[MAX_PENDING];
    const rdx_uop *us2[MAX_PENDING];
    memcpy(ps2, ps, (size_t)n * sizeof *ps);
    memcpy(us2, us, (size_t)n * sizeof *us);
    uint32_t bound = st->bound;
    for (int v = 0; v < swaps; v++) {
        for (int k = 0; k < p->nsrc; k++) { /* first source is matched first: pushed last */
            int s = v ? 1 - k : k;
            ps2[n + p->nsrc - 1 - k] = p->src[k];
            us2[n + p->nsrc - 1 - k] = u->src[s];
        }
        if (mseq(ps2, us2, n + p->nsrc, st))
            return 1;
        st->bound = bound;
    }
    st->bound = save;
    return 0;
}

const rdx_uop *rdx_rewriter_apply(rdx_rewriter *rw, rdx_ir_ctx *ctx, const rdx_uop *u, void *user)
{
    size_t nb = rw->nbucket[u->op];
    const uint32_t *b = rw->bucket[u->op];
    for (size_t k = 0; k < nb; k++) {
        const rule *r = &rw->rules[b[k]];
        if (!may_match(r->root, u))
            continue;
        mstate st;
        st.bound = 0;
        const pat *ps[1] = { r->root };
        const rdx_uop *us[1] = { u };
        if (!mseq(ps, us, 1, &st))
            continue;
        rdx_match m;
        m.rw = rw;
        m.ctx = ctx;
        m.user = user;
        m.root = u;
        memcpy(m.caps, st.caps, sizeof m.caps);
        const rdx_uop *y = r->fn(&m);
        if (rw->failed)
            return NULL;
        if (y && y != u)
            return y;
    }
    return NULL;
}

int rdx_rewriter_failed_(rdx_rewriter *rw)
{
    int f = rw->failed;
    rw->failed = 0;
    return f;
}
