/* isa/asm/lex.c — the assembler's tokenizer. */
#include "isa/asm/lex.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void rdx_lex_init(rdx_lexer *lx, const char *line, const char *end)
{
    lx->line = line;
    lx->p = line;
    lx->end = end;
    memset(&lx->tok, 0, sizeof lx->tok);
}

const char *rdx_lex_next_line(const char *p, const char *end)
{
    const char *nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
    return nl ? nl + 1 : end;
}

static inline bool is_digit(int c)
{
    return (unsigned)(c - '0') < 10;
}

static int digit_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return 99;
}

/* Lex a number starting at p; sets kind/ival/fval/len. */
static void lex_number(rdx_lexer *lx, rdx_tok *t)
{
    const char *p = lx->p, *e = lx->end;
    unsigned base = 10;
    const char *d = p;
    if (p + 1 < e && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && p + 2 < e &&
        digit_value((unsigned char)p[2]) < 16) {
        base = 16;
        d = p + 2;
    } else if (p + 1 < e && p[0] == '0' && (p[1] == 'b' || p[1] == 'B') && p + 2 < e &&
               (p[2] == '0' || p[2] == '1')) {
        base = 2;
        d = p + 2;
    }
    if (base == 10) {
        /* Float if digits are followed by '.' or an exponent. */
        const char *q = p;
        while (q < e && isdigit((unsigned char)*q))
            q++;
        bool is_float = false;
        if (q < e && *q == '.') {
            is_float = true;
        } else if (q < e && (*q == 'e' || *q == 'E')) {
            const char *r = q + 1;
            if (r < e && (*r == '+' || *r == '-'))
                r++;
            if (r < e && isdigit((unsigned char)*r))
                is_float = true;
        }
        if (is_float) {
            char tmp[128];
            size_t n = 0;
            const char *r = p;
            while (r < e && n + 1 < sizeof tmp &&
                   (isdigit((unsigned char)*r) || *r == '.' || *r == 'e' || *r == 'E' ||
                    ((*r == '+' || *r == '-') && (r[-1] == 'e' || r[-1] == 'E'))))
                tmp[n++] = *r++;
            tmp[n] = 0;
            char *endp;
            t->fval = strtod(tmp, &endp);
            t->kind = RDX_TOK_FLOAT;
            t->len = (size_t)(endp - tmp);
            return;
        }
    }
    /* A leading 0 followed by digits is octal, as in llvm-mc (010 is 8). */
    if (base == 10 && p + 1 < e && p[0] == '0' && is_digit(p[1])) {
        base = 8;
        d = p + 1;
    }
    uint64_t v = 0;
    bool ovf = false;
    const char *q = d;
    while (q < e && (unsigned)digit_value((unsigned char)*q) < base) {
        uint64_t dv = (uint64_t)digit_value((unsigned char)*q);
        if (v > (UINT64_MAX - dv) / base)
            ovf = true;
        v = v * base + dv;
        q++;
    }
    t->kind = RDX_TOK_INT;
    t->ival = v;
    t->overflow = ovf;
    t->len = (size_t)(q - p);
    if (base == 8 && q < e && is_digit(*q)) { /* 08, 019: not octal */
        while (q < e && is_digit(*q))
            q++;
        t->kind = RDX_TOK_ERROR;
        t->len = (size_t)(q - p);
    }
}

static const char *const two_char_puncts[] = { "::", "||", "&&", "<<", ">>", "<=",
                                               ">=", "==", "!=", "<>", NULL };

/* Character classes of the first character of a token. */
enum { K_OTHER, K_BLANK, K_IDENT, K_DIGIT, K_PUNCT, K_END };

static const unsigned char char_class[256] = {
    [' '] = K_BLANK,  ['\t'] = K_BLANK,        ['\r'] = K_BLANK,        ['\f'] = K_BLANK,
    ['\v'] = K_BLANK, ['a' ... 'z'] = K_IDENT, ['A' ... 'Z'] = K_IDENT, ['_'] = K_IDENT,
    ['$'] = K_IDENT,  ['.'] = K_IDENT,         ['0' ... '9'] = K_DIGIT, [','] = K_PUNCT,
    [':'] = K_PUNCT,  ['['] = K_PUNCT,         [']'] = K_PUNCT,         ['('] = K_PUNCT,
    [')'] = K_PUNCT,  ['{'] = K_PUNCT,         ['}'] = K_PUNCT,         ['|'] = K_PUNCT,
    ['&'] = K_PUNCT,  ['+'] = K_PUNCT,         ['-'] = K_PUNCT,         ['*'] = K_PUNCT,
    ['/'] = K_PUNCT,  ['%'] = K_PUNCT,         ['^'] = K_PUNCT,         ['~'] = K_PUNCT,
    ['!'] = K_PUNCT,  ['<'] = K_PUNCT,         ['>'] = K_PUNCT,         ['='] = K_PUNCT,
    ['@'] = K_PUNCT,  ['\n'] = K_END,          [';'] = K_END,           ['#'] = K_END,
};

static void lex_one(rdx_lexer *lx, rdx_tok *t)
{
    const char *e = lx->end;
    while (lx->p < e && char_class[(unsigned char)*lx->p] == K_BLANK)
        lx->p++;
    memset(t, 0, sizeof *t);
    t->text = lx->p;
    t->col = (unsigned)(lx->p - lx->line) + 1;
    if (lx->p >= e || char_class[(unsigned char)*lx->p] == K_END ||
        (*lx->p == '/' && lx->p + 1 < e && lx->p[1] == '/')) {
        t->kind = RDX_TOK_END;
        return;
    }
    int c = (unsigned char)*lx->p;
    /* '.' and a digit start a number (.5), unless letters follow the digits (.2byte) */
    bool dot_num = false;
    if (c == '.' && lx->p + 1 < e && is_digit(lx->p[1])) {
        const char *q = lx->p + 1;
        while (q < e && is_digit(*q))
            q++;
        dot_num = !(q < e && char_class[(unsigned char)*q] == K_IDENT && *q != '.' && *q != 'e' &&
                    *q != 'E');
    }
    if (char_class[c] == K_IDENT && !dot_num) {
        const char *q = lx->p + 1;
        while (q < e && (char_class[(unsigned char)*q] == K_IDENT ||
                         char_class[(unsigned char)*q] == K_DIGIT || *q == '@'))
            q++;
        t->kind = RDX_TOK_IDENT;
        t->len = (size_t)(q - lx->p);
    } else if (char_class[c] == K_DIGIT || c == '.') {
        lex_number(lx, t);
    } else if (c == '"') {
        const char *q = lx->p + 1;
        while (q < e && *q != '"' && *q != '\n') {
            if (*q == '\\' && q + 1 < e && q[1] != '\n')
                q++;
            q++;
        }
        if (q >= e || *q != '"') {
            t->kind = RDX_TOK_ERROR;
            t->len = (size_t)(q - lx->p);
        } else {
            t->kind = RDX_TOK_STRING;
            t->text = lx->p + 1;
            t->len = (size_t)(q - lx->p - 1);
            lx->p = q + 1;
            return;
        }
    } else if (c == '\'' && lx->p + 2 < e && lx->p[2] == '\'' && lx->p[1] != '\n') {
        t->kind = RDX_TOK_INT;
        t->ival = (unsigned char)lx->p[1];
        t->len = 3;
    } else if (char_class[c] == K_PUNCT) {
        t->kind = RDX_TOK_PUNCT;
        t->len = 1;
        if (lx->p + 1 < e && char_class[(unsigned char)lx->p[1]] == K_PUNCT)
            for (const char *const *pp = two_char_puncts; *pp; pp++)
                if (lx->p[0] == (*pp)[0] && lx->p[1] == (*pp)[1])
                    t->len = 2;
    } else {
        t->kind = RDX_TOK_ERROR;
        t->len = 1;
    }
    lx->p += t->len;
}

const rdx_tok *rdx_lex_next(rdx_lexer *lx)
{
    lex_one(lx, &lx->tok);
    return &lx->tok;
}

rdx_tok rdx_lex_peek(const rdx_lexer *lx)
{
    rdx_lexer copy = *lx;
    lex_one(&copy, &copy.tok);
    return copy.tok;
}

bool rdx_tok_ident_is(const rdx_tok *t, const char *s)
{
    size_t n = strlen(s);
    return t->kind == RDX_TOK_IDENT && t->len == n && strncasecmp(t->text, s, n) == 0;
}

char rdx_lex_peek_char(const rdx_lexer *lx)
{
    const char *p = lx->p;
    while (p < lx->end && (*p == ' ' || *p == '\t'))
        p++;
    return p < lx->end ? *p : 0;
}
