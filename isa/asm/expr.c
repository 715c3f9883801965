/*
 * isa/asm/expr.c — integer expressions: numbers, symbols, '.', unary - ~ !,
 * and binary operators with C-like precedence.  A value is absolute or an
 * offset in one section; the difference of two offsets in one section is
 * absolute.  An undefined symbol makes the value unresolved (re-evaluated
 * after the whole file has been read).
 */
#include <string.h>

#include "isa/asm/state.h"

typedef struct binop {
    const char *tok;
    int prec;
} binop;

/* GNU as precedences, as llvm-mc uses them for ELF targets (not C's): bit
 * operators bind tighter than + and -, shifts as tight as * and /. */
static const binop binops[] = {
    { "||", 1 }, { "&&", 2 }, { "==", 3 }, { "!=", 3 }, { "<>", 3 }, { "<", 3 }, { "<=", 3 },
    { ">", 3 },  { ">=", 3 }, { "+", 4 },  { "-", 4 },  { "|", 5 },  { "^", 5 }, { "&", 5 },
    { "*", 6 },  { "/", 6 },  { "%", 6 },  { "<<", 6 }, { ">>", 6 },
};

static int binop_prec(const rdx_tok *t, bool no_bar, const char **which)
{
    if (t->kind != RDX_TOK_PUNCT)
        return -1;
    for (size_t i = 0; i < sizeof binops / sizeof binops[0]; i++)
        if (rdx_tok_is(t, binops[i].tok)) {
            if (no_bar && !strcmp(binops[i].tok, "|"))
                return -1;
            *which = binops[i].tok;
            return binops[i].prec;
        }
    return -1;
}

static void mark_unresolved(rdx_asm_value *out, const rdx_asm_value *a)
{
    if (!a->resolved && out->resolved) {
        out->resolved = false;
        out->undef = a->undef;
        out->undef_len = a->undef_len;
    }
}

static bool primary(rdx_asm_state *st, rdx_lexer *lx, bool no_bar, rdx_asm_value *v);

static bool unary(rdx_asm_state *st, rdx_lexer *lx, bool no_bar, rdx_asm_value *v)
{
    const rdx_tok *t = &lx->tok;
    if (rdx_tok_is(t, "-") || rdx_tok_is(t, "~") || rdx_tok_is(t, "!") || rdx_tok_is(t, "+")) {
        char op = t->text[0];
        unsigned col = t->col;
        rdx_lex_next(lx);
        if (!unary(st, lx, no_bar, v))
            return false;
        if (op == '+')
            return true;
        if (v->resolved && v->section != RDX_ASM_ABS) {
            rdx_asm_error(st, col, "unary '%c' of a relocatable value", op);
            return false;
        }
        v->v = op == '-' ? (int64_t)(0 - (uint64_t)v->v) : op == '~' ? ~v->v : !v->v;
        return true;
    }
    return primary(st, lx, no_bar, v);
}

static bool primary(rdx_asm_state *st, rdx_lexer *lx, bool no_bar, rdx_asm_value *v)
{
    const rdx_tok *t = &lx->tok;
    memset(v, 0, sizeof *v);
    v->section = RDX_ASM_ABS;
    v->resolved = true;
    if (t->kind == RDX_TOK_INT) {
        if (t->overflow) {
            rdx_asm_error(st, t->col, "integer literal does not fit in 64 bits");
            return false;
        }
        v->v = (int64_t)t->ival;
        rdx_lex_next(lx);
        return true;
    }
    if (rdx_tok_is(t, "(")) {
        unsigned col = t->col;
        rdx_lex_next(lx);
        if (!rdx_asm_expr(st, lx, false, v))
            return false;
        if (!rdx_tok_is(&lx->tok, ")")) {
            rdx_asm_error(st, lx->tok.col, "expected ')' to close '(' at column %u", col);
            return false;
        }
        rdx_lex_next(lx);
        return true;
    }
    if (t->kind == RDX_TOK_IDENT) {
        if (t->len == 1 && t->text[0] == '.') {
            v->section = st->dot_fixed ? st->dot_section : st->cur;
            v->v = st->dot_fixed ? st->dot_value : (int64_t)st->data[st->cur].len;
            v->label = true;
            rdx_lex_next(lx);
            return true;
        }
        int track = rdx_asm_tracking_symbol(t->text, t->len);
        if (track) {
            v->v = track == 1 ? st->max_vgpr : st->max_sgpr;
            rdx_lex_next(lx);
            return true;
        }
        rdx_asm_sym *s = rdx_asm_sym_get(st, t->text, t->len);
        if (!s)
            return false;
        if (s->defined) {
            v->v = s->value;
            v->section = s->section;
            v->label = s->section != RDX_ASM_ABS;
        } else {
            v->resolved = false;
            v->undef = t->text;
            v->undef_len = t->len;
        }
        rdx_lex_next(lx);
        return true;
    }
    (void)no_bar;
    if (t->kind == RDX_TOK_FLOAT)
        rdx_asm_error(st, t->col, "expected an integer expression, found a floating-point number");
    else
        rdx_asm_error(st, t->col, "expected an expression");
    return false;
}

static bool apply(rdx_asm_state *st, unsigned col, const char *op, rdx_asm_value *a,
                  const rdx_asm_value *b)
{
    mark_unresolved(a, b);
    a->label |= b->label;
    if (!a->resolved)
        return true;
    int64_t x = a->v, y = b->v;
    if (!strcmp(op, "+")) {
        if (a->section != RDX_ASM_ABS && b->section != RDX_ASM_ABS) {
            rdx_asm_error(st, col, "cannot add two relocatable values");
            return false;
        }
        if (a->section == RDX_ASM_ABS)
            a->section = b->section;
        a->v = (int64_t)((uint64_t)x + (uint64_t)y);
        return true;
    }
    if (!strcmp(op, "-")) {
        if (b->section != RDX_ASM_ABS) {
            if (a->section != b->section) {
                rdx_asm_error(st, col, "difference of values in different sections");
                return false;
            }
            a->section = RDX_ASM_ABS;
        }
        a->v = (int64_t)((uint64_t)x - (uint64_t)y);
        return true;
    }
    if (a->section != RDX_ASM_ABS || b->section != RDX_ASM_ABS) {
        rdx_asm_error(st, col, "operator '%s' needs absolute values", op);
        return false;
    }
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    if (!strcmp(op, "*"))
        a->v = (int64_t)(ux * uy);
    else if (!strcmp(op, "/") || !strcmp(op, "%")) {
        if (y == 0) {
            rdx_asm_error(st, col, "division by zero");
            return false;
        }
        if (x == INT64_MIN && y == -1)
            a->v = op[0] == '/' ? INT64_MIN : 0;
        else
            a->v = op[0] == '/' ? x / y : x % y;
    } else if (!strcmp(op, "<<"))
        a->v = y >= 64 || y < 0 ? 0 : (int64_t)(ux << y);
    else if (!strcmp(op, ">>"))
        a->v = y >= 64 || y < 0 ? (x < 0 ? -1 : 0) : x >> y;
    else if (!strcmp(op, "&"))
        a->v = x & y;
    else if (!strcmp(op, "|"))
        a->v = x | y;
    else if (!strcmp(op, "^"))
        a->v = x ^ y;
    else if (!strcmp(op, "&&"))
        a->v = x && y;
    else if (!strcmp(op, "||"))
        a->v = x || y;
    /* comparisons are -1 (all bits set) when true, as in llvm-mc and GNU as */
    else if (!strcmp(op, "=="))
        a->v = -(int64_t)(x == y);
    else if (!strcmp(op, "!=") || !strcmp(op, "<>"))
        a->v = -(int64_t)(x != y);
    else if (!strcmp(op, "<"))
        a->v = -(int64_t)(x < y);
    else if (!strcmp(op, "<="))
        a->v = -(int64_t)(x <= y);
    else if (!strcmp(op, ">"))
        a->v = -(int64_t)(x > y);
    else if (!strcmp(op, ">="))
        a->v = -(int64_t)(x >= y);
    return true;
}

static bool binary(rdx_asm_state *st, rdx_lexer *lx, bool no_bar, int min_prec, rdx_asm_value *v)
{
    if (!unary(st, lx, no_bar, v))
        return false;
    for (;;) {
        const char *op = NULL;
        int prec = binop_prec(&lx->tok, no_bar, &op);
        if (prec < min_prec || prec < 0)
            return true;
        unsigned col = lx->tok.col;
        rdx_lex_next(lx);
        rdx_asm_value rhs;
        if (!binary(st, lx, no_bar, prec + 1, &rhs))
            return false;
        if (!apply(st, col, op, v, &rhs))
            return false;
    }
}

bool rdx_asm_expr(rdx_asm_state *st, rdx_lexer *lx, bool no_bar, rdx_asm_value *value)
{
    return binary(st, lx, no_bar, 0, value);
}

int rdx_asm_tracking_symbol(const char *name, size_t len)
{
    static const char v[] = ".amdgcn.next_free_vgpr", s[] = ".amdgcn.next_free_sgpr";
    if (len == sizeof v - 1 && !memcmp(name, v, len))
        return 1;
    if (len == sizeof s - 1 && !memcmp(name, s, len))
        return 2;
    return 0;
}
