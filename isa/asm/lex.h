/*
 * isa/asm/lex.h — the assembler's tokenizer (internal).
 *
 * Works on one logical line at a time: rdx_lex_init() points at the first
 * character of a line, rdx_lex_next() returns tokens until RDX_TOK_END (end of
 * line or start of a comment).  Tokens point into the source; nothing is
 * allocated.  Columns are 1-based byte columns like llvm-mc's.
 */
#ifndef RDX_ISA_ASM_LEX_H
#define RDX_ISA_ASM_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum rdx_tok_kind {
    RDX_TOK_END,    /* end of line (or a comment) */
    RDX_TOK_IDENT,  /* [A-Za-z_.$][A-Za-z0-9_.$@]* */
    RDX_TOK_INT,    /* 123, 0x1f, 0b101, 'c' */
    RDX_TOK_FLOAT,  /* 1.0, .5e3, 1e-3 */
    RDX_TOK_STRING, /* "..." (text excludes the quotes, escapes kept) */
    RDX_TOK_PUNCT,  /* one or two characters: , : :: [ ] ( ) | || & && + - * / % ^ ~ ! < << <= > >>
                       >= = == != */
    RDX_TOK_ERROR,  /* a character no token starts with, or an unterminated string */
} rdx_tok_kind;

typedef struct rdx_tok {
    rdx_tok_kind kind;
    const char *text; /* first character */
    size_t len;
    unsigned col;  /* 1-based column of text */
    uint64_t ival; /* RDX_TOK_INT value (saturates; `overflow` set) */
    double fval;   /* RDX_TOK_FLOAT value */
    bool overflow; /* integer literal did not fit 64 bits */
} rdx_tok;

typedef struct rdx_lexer {
    const char *line; /* start of the current line */
    const char *p;    /* next character */
    const char *end;  /* end of the whole source */
    rdx_tok tok;      /* current token (after rdx_lex_next) */
} rdx_lexer;

/* Start lexing at `line` (the first character of a line) in a source ending at `end`. */
void rdx_lex_init(rdx_lexer *lx, const char *line, const char *end);
/* Advance to the next token and return it (also left in lx->tok). */
const rdx_tok *rdx_lex_next(rdx_lexer *lx);
/* Look at the token after the current one without consuming anything. */
rdx_tok rdx_lex_peek(const rdx_lexer *lx);
/* The next non-blank character after the current token (0 at the end of the source). */
char rdx_lex_peek_char(const rdx_lexer *lx);
/* True if the current token is the punctuation `s` ("," or "::" ...: one or two characters). */
static inline bool rdx_tok_is(const rdx_tok *t, const char *s)
{
    /* Punctuation is one or two characters (s is one of them). */
    if (t->kind != RDX_TOK_PUNCT || t->text[0] != s[0])
        return false;
    return s[1] ? t->len == 2 && t->text[1] == s[1] : t->len == 1;
}
/* True if the current token is an identifier equal to `s` (case-insensitive). */
bool rdx_tok_ident_is(const rdx_tok *t, const char *s);
/* Start of the next line after `p` (past the '\n'), or `end`. */
const char *rdx_lex_next_line(const char *p, const char *end);

#endif /* RDX_ISA_ASM_LEX_H */
