/*
 * isa/asm/directive.c — assembler directives: sections, alignment, data,
 * symbols, .amdgcn_target and the start of .amdhsa_kernel blocks.
 */
#include <stdlib.h>
#include <string.h>

#include "isa/asm/state.h"

bool rdx_asm_expect_end(rdx_asm_state *st, rdx_lexer *lx)
{
    if (lx->tok.kind == RDX_TOK_END)
        return true;
    rdx_asm_error(st, lx->tok.col, "unexpected token '%.*s' at the end of the statement",
                  (int)lx->tok.len, lx->tok.text);
    return false;
}

bool rdx_asm_abs_expr(rdx_asm_state *st, rdx_lexer *lx, int64_t *v)
{
    unsigned col = lx->tok.col;
    rdx_asm_value val;
    if (!rdx_asm_expr(st, lx, false, &val))
        return false;
    if (!val.resolved) {
        rdx_asm_error(st, col, "symbol '%.*s' is not defined here (an absolute value is needed)",
                      (int)val.undef_len, val.undef);
        return false;
    }
    if (val.section != RDX_ASM_ABS) {
        rdx_asm_error(st, col, "expected an absolute expression");
        return false;
    }
    *v = val.v;
    return true;
}

static bool name_is(const rdx_tok *t, const char *s)
{
    return t->kind == RDX_TOK_IDENT && t->len == strlen(s) && !memcmp(t->text, s, t->len);
}

static void switch_section(rdx_asm_state *st, const char *name, size_t len)
{
    int s = rdx_asm_section_get(st, name, len);
    if (s >= 0)
        st->cur = s;
}

/* .p2align N[, fill[, max]] / .balign / .align (bytes); fill_size: 1, 2 (w) or 4 (l) bytes */
static void do_align(rdx_asm_state *st, rdx_lexer *lx, bool pow2, unsigned fill_size)
{
    unsigned col = lx->tok.col;
    int64_t a, fill = -1, max = -1;
    if (!rdx_asm_abs_expr(st, lx, &a))
        return;
    if (rdx_tok_is(&lx->tok, ",")) {
        rdx_lex_next(lx);
        if (!rdx_tok_is(&lx->tok, ",") && !rdx_asm_abs_expr(st, lx, &fill))
            return;
        if (rdx_tok_is(&lx->tok, ",")) {
            rdx_lex_next(lx);
            if (!rdx_asm_abs_expr(st, lx, &max))
                return;
        }
    }
    if (!rdx_asm_expect_end(st, lx))
        return;
    uint64_t bytes;
    if (pow2) {
        if (a < 0 || a > 30) {
            rdx_asm_error(st, col, "invalid alignment value");
            return;
        }
        bytes = 1ull << a;
    } else {
        if (a <= 0 || a > (1 << 30) || (a & (a - 1))) {
            rdx_asm_error(st, col, "alignment must be a power of 2");
            return;
        }
        bytes = (uint64_t)a;
    }
    rdx_buf *d = rdx_asm_cur_data(st);
    size_t pad = (size_t)((bytes - d->len % bytes) % bytes);
    if (max >= 0 && pad > (uint64_t)max)
        return;
    if (st->sections[st->cur].align < bytes)
        st->sections[st->cur].align = (unsigned)bytes;
    bool code = !strcmp(st->sections[st->cur].name, ".text") && fill < 0;
    while (pad > 0 && !st->nomem) {
        if (fill >= 0 && fill_size > 1 && pad >= fill_size && d->len % fill_size == 0) {
            uint8_t w[4];
            for (unsigned i = 0; i < fill_size; i++)
                w[i] = (uint8_t)((uint64_t)fill >> (8 * i));
            rdx_asm_emit(st, w, fill_size);
            pad -= fill_size;
        } else if (code && pad % 4 == 0 && d->len % 4 == 0) {
            static const uint8_t snop[4] = { 0x00, 0x00, 0x80, 0xbf }; /* s_nop 0 */
            rdx_asm_emit(st, snop, 4);
            pad -= 4;
        } else {
            uint8_t b = (uint8_t)(fill < 0 ? 0 : fill);
            rdx_asm_emit(st, &b, 1);
            pad--;
        }
    }
}

/* .byte/.short/.long/.quad: comma-separated expressions of `size` bytes. */
static void do_data(rdx_asm_state *st, rdx_lexer *lx, unsigned size)
{
    size_t start = rdx_asm_cur_data(st)->len;
    for (;;) {
        const char *expr = lx->tok.text;
        unsigned col = lx->tok.col;
        rdx_asm_value v;
        if (!rdx_asm_expr(st, lx, false, &v))
            return;
        size_t off = rdx_asm_cur_data(st)->len;
        uint8_t bytes[8] = { 0 };
        if (v.resolved && v.section == RDX_ASM_ABS) {
            if (size < 8) {
                int64_t lo = -(1ll << (size * 8 - 1)), hi = (1ll << (size * 8)) - 1;
                if (v.v < lo || v.v > hi) {
                    rdx_asm_error(st, col, "value %lld does not fit in %u byte%s", (long long)v.v,
                                  size, size > 1 ? "s" : "");
                    return;
                }
            }
            for (unsigned i = 0; i < size; i++)
                bytes[i] = (uint8_t)((uint64_t)v.v >> (8 * i));
        } else if (v.resolved) {
            rdx_asm_error(st, col,
                          "relocatable expressions are not supported in data "
                          "(only absolute values and label differences)");
            return;
        } else {
            rdx_asm_fixup f = { .kind = RDX_FIXUP_DATA,
                                .section = st->cur,
                                .offset = off,
                                .inst_start = off,
                                .size = size,
                                .expr = expr,
                                .line_start = st->line_start,
                                .line = st->line };
            rdx_asm_add_fixup(st, &f);
        }
        rdx_asm_emit(st, bytes, size);
        if (!rdx_tok_is(&lx->tok, ","))
            break;
        rdx_lex_next(lx);
    }
    if (!rdx_asm_expect_end(st, lx))
        return;
    if (rdx_asm_grow(st, (void **)&st->stmts, &st->capstmts, st->nstmts, sizeof *st->stmts))
        st->stmts[st->nstmts++] =
            (rdx_asm_stmt){ st->line, st->cur, start, rdx_asm_cur_data(st)->len - start };
}

/* .zero/.skip/.space N[, fill] */
static void do_space(rdx_asm_state *st, rdx_lexer *lx)
{
    unsigned col = lx->tok.col;
    int64_t n, fill = 0;
    if (!rdx_asm_abs_expr(st, lx, &n))
        return;
    if (rdx_tok_is(&lx->tok, ",")) {
        rdx_lex_next(lx);
        if (!rdx_asm_abs_expr(st, lx, &fill))
            return;
    }
    if (!rdx_asm_expect_end(st, lx))
        return;
    if (n < 0 || n > (1 << 28)) {
        rdx_asm_error(st, col, "invalid size %lld", (long long)n);
        return;
    }
    uint8_t b = (uint8_t)fill;
    for (int64_t i = 0; i < n && !st->nomem; i++)
        rdx_asm_emit(st, &b, 1);
}

/* .fill COUNT[, SIZE[, VALUE]] */
static void do_fill(rdx_asm_state *st, rdx_lexer *lx)
{
    unsigned col = lx->tok.col;
    int64_t n, size = 1, value = 0;
    if (!rdx_asm_abs_expr(st, lx, &n))
        return;
    if (rdx_tok_is(&lx->tok, ",")) {
        rdx_lex_next(lx);
        if (!rdx_asm_abs_expr(st, lx, &size))
            return;
        if (rdx_tok_is(&lx->tok, ",")) {
            rdx_lex_next(lx);
            if (!rdx_asm_abs_expr(st, lx, &value))
                return;
        }
    }
    if (!rdx_asm_expect_end(st, lx))
        return;
    if (n < 0 || n > (1 << 26) || size < 0 || size > 8) {
        rdx_asm_error(st, col, "invalid .fill count or size");
        return;
    }
    for (int64_t i = 0; i < n && !st->nomem; i++)
        for (int64_t b = 0; b < size; b++) {
            uint8_t x = b < 4 ? (uint8_t)((uint64_t)value >> (8 * b)) : 0;
            rdx_asm_emit(st, &x, 1);
        }
}

/* .ascii/.asciz/.string "..." */
static void do_ascii(rdx_asm_state *st, rdx_lexer *lx, bool zero)
{
    for (;;) {
        if (lx->tok.kind != RDX_TOK_STRING) {
            rdx_asm_error(st, lx->tok.col, "expected string");
            return;
        }
        const char *s = lx->tok.text, *e = s + lx->tok.len;
        while (s < e) {
            uint8_t c = (uint8_t)*s++;
            if (c == '\\' && s < e) {
                char x = *s++;
                switch (x) {
                case 'n':
                    c = '\n';
                    break;
                case 't':
                    c = '\t';
                    break;
                case 'r':
                    c = '\r';
                    break;
                case '0':
                    c = 0;
                    break;
                default:
                    c = (uint8_t)x;
                    break;
                }
            }
            rdx_asm_emit(st, &c, 1);
        }
        if (zero) {
            uint8_t z = 0;
            rdx_asm_emit(st, &z, 1);
        }
        rdx_lex_next(lx);
        if (!rdx_tok_is(&lx->tok, ","))
            break;
        rdx_lex_next(lx);
    }
    rdx_asm_expect_end(st, lx);
}

/* .set NAME, EXPR (also .equ) */
static void do_set(rdx_asm_state *st, rdx_lexer *lx, const rdx_tok *name)
{
    unsigned col = lx->tok.col;
    rdx_asm_value v;
    if (!rdx_asm_expr(st, lx, false, &v))
        return;
    if (!rdx_asm_expect_end(st, lx))
        return;
    if (!v.resolved) {
        rdx_asm_error(st, col, "symbol '%.*s' must be defined before it is used in .set",
                      (int)v.undef_len, v.undef);
        return;
    }
    int track = rdx_asm_tracking_symbol(name->text, name->len);
    if (track) {
        if (v.section != RDX_ASM_ABS || v.v < 0 || v.v > 1024) {
            rdx_asm_error(st, col, "expected a register count");
            return;
        }
        *(track == 1 ? &st->max_vgpr : &st->max_sgpr) = (uint32_t)v.v;
        return;
    }
    rdx_asm_sym *s = rdx_asm_sym_get(st, name->text, name->len);
    if (!s)
        return;
    if (s->defined && !s->is_set) {
        rdx_asm_error(st, name->col, "redefinition of '%.*s'", (int)name->len, name->text);
        return;
    }
    s->defined = true;
    s->is_set = true;
    s->section = v.section;
    s->value = v.v;
    s->line = st->line;
}

void rdx_asm_set_symbol(rdx_asm_state *st, rdx_lexer *lx, const rdx_tok *name)
{
    do_set(st, lx, name);
}

/* .amdgcn_target "amdgcn-amd-amdhsa--gfxNNNN[:feature...]" */
static void do_target(rdx_asm_state *st, rdx_lexer *lx)
{
    const rdx_tok *t = &lx->tok;
    if (t->kind != RDX_TOK_STRING) {
        rdx_asm_error(st, t->col, "expected target id string");
        return;
    }
    const char prefix[] = "amdgcn-amd-amdhsa--";
    size_t pl = sizeof prefix - 1;
    unsigned col = t->col;
    const char *p = NULL;
    size_t plen = 0;
    unsigned gfx = 0;
    const rdx_isa_target *target = NULL;
    if (t->len > pl && !memcmp(t->text, prefix, pl)) {
        p = t->text + pl;
        const char *e = t->text + t->len, *q = p;
        while (q < e && *q != ':')
            q++;
        plen = (size_t)(q - p);
        if (!(target = rdx_asm_target_find(p, plen, &gfx))) {
            rdx_asm_error(st, col, "unsupported target '%.*s' (rdx knows %s)", (int)plen, p,
                          rdx_asm_target_list());
            return;
        }
    } else {
        rdx_asm_error(st, col, "expected a target id \"amdgcn-amd-amdhsa--gfxNNNN\"");
        return;
    }
    rdx_lex_next(lx);
    if (!rdx_asm_expect_end(st, lx))
        return;
    if (gfx != st->gfx && (st->gfx_from_option || st->gfx_fixed)) {
        rdx_asm_error(st, col,
                      st->gfx_from_option
                          ? "target id must match options"
                          : ".amdgcn_target must come before the first instruction");
        return;
    }
    st->gfx = gfx;
    st->target = target;
}

/* "NAME," starting .type and .size: the name in *name, the lexer past the comma. */
static bool symbol_comma(rdx_asm_state *st, rdx_lexer *lx, rdx_tok *name)
{
    if (lx->tok.kind != RDX_TOK_IDENT) {
        rdx_asm_error(st, lx->tok.col, "expected symbol name");
        return false;
    }
    *name = lx->tok;
    rdx_lex_next(lx);
    if (!rdx_tok_is(&lx->tok, ",")) {
        rdx_asm_error(st, lx->tok.col, "expected comma");
        return false;
    }
    rdx_lex_next(lx);
    return true;
}

/* .type NAME, @function|@object|STT_FUNC|STT_OBJECT|... */
static void do_type(rdx_asm_state *st, rdx_lexer *lx)
{
    rdx_tok name;
    if (!symbol_comma(st, lx, &name))
        return;
    if (rdx_tok_is(&lx->tok, "@") || rdx_tok_is(&lx->tok, "%"))
        rdx_lex_next(lx);
    const rdx_tok *t = &lx->tok;
    int type;
    if (name_is(t, "function") || name_is(t, "STT_FUNC"))
        type = RDX_ASM_SYM_FUNC;
    else if (name_is(t, "object") || name_is(t, "STT_OBJECT"))
        type = RDX_ASM_SYM_OBJECT;
    else if (name_is(t, "notype") || name_is(t, "STT_NOTYPE"))
        type = RDX_ASM_SYM_NOTYPE;
    else {
        rdx_asm_error(st, t->col, "unsupported symbol type");
        return;
    }
    rdx_lex_next(lx);
    if (!rdx_asm_expect_end(st, lx))
        return;
    rdx_asm_sym *s = rdx_asm_sym_get(st, name.text, name.len);
    if (s)
        s->type = type;
}

/* .size NAME, EXPR (a label difference, usually .Lend-NAME) */
static void do_size(rdx_asm_state *st, rdx_lexer *lx)
{
    rdx_tok name;
    if (!symbol_comma(st, lx, &name))
        return;
    unsigned col = lx->tok.col;
    rdx_asm_value v;
    if (!rdx_asm_expr(st, lx, false, &v) || !rdx_asm_expect_end(st, lx))
        return;
    if (!v.resolved || v.section != RDX_ASM_ABS || v.v < 0) {
        rdx_asm_error(st, col, "expected an absolute size (labels defined before .size)");
        return;
    }
    rdx_asm_sym *s = rdx_asm_sym_get(st, name.text, name.len);
    if (s)
        s->size = (uint64_t)v.v;
}

/* .globl/.global/.weak/.local/.hidden/.protected NAME[, NAME...] */
static void do_symbols(rdx_asm_state *st, rdx_lexer *lx, bool global)
{
    for (;;) {
        if (lx->tok.kind != RDX_TOK_IDENT) {
            rdx_asm_error(st, lx->tok.col, "expected identifier");
            return;
        }
        rdx_asm_sym *s = rdx_asm_sym_get(st, lx->tok.text, lx->tok.len);
        if (s && global)
            s->global = true;
        rdx_lex_next(lx);
        if (!rdx_tok_is(&lx->tok, ","))
            break;
        rdx_lex_next(lx);
    }
    rdx_asm_expect_end(st, lx);
}

/* Skip the rest of the line (directives accepted and ignored). */
static void skip_line(rdx_lexer *lx)
{
    while (lx->tok.kind != RDX_TOK_END)
        rdx_lex_next(lx);
}

/* .amdgpu_metadata ... .end_amdgpu_metadata: keep the YAML text. */
static void do_metadata(rdx_asm_state *st, rdx_lexer *lx)
{
    rdx_asm_expect_end(st, lx);
    const char *p = rdx_lex_next_line(st->line_start, st->end);
    const char *body = p;
    unsigned line = st->line;
    while (p < st->end) {
        const char *q = p;
        while (q < st->end && (*q == ' ' || *q == '\t'))
            q++;
        line++;
        if ((size_t)(st->end - q) >= 21 && !memcmp(q, ".end_amdgpu_metadata", 20)) {
            free(st->metadata);
            st->metadata = rdx_asm_strndup(st, body, (size_t)(p - body));
            st->metadata_line = st->line + 1;
            st->line = line;
            st->line_start = p;
            st->skip_to = rdx_lex_next_line(p, st->end);
            return;
        }
        p = rdx_lex_next_line(p, st->end);
    }
    rdx_asm_error(st, 1, "missing .end_amdgpu_metadata");
    st->skip_to = st->end;
}

void rdx_asm_directive(rdx_asm_state *st, rdx_lexer *lx)
{
    rdx_tok d = lx->tok;
    rdx_lex_next(lx);
    if (name_is(&d, ".text") || name_is(&d, ".data") || name_is(&d, ".rodata") ||
        name_is(&d, ".bss")) {
        switch_section(st, d.text, d.len);
        rdx_asm_expect_end(st, lx);
    } else if (name_is(&d, ".section") || name_is(&d, ".pushsection")) {
        if (lx->tok.kind != RDX_TOK_IDENT && lx->tok.kind != RDX_TOK_STRING) {
            rdx_asm_error(st, lx->tok.col, "expected section name");
            return;
        }
        switch_section(st, lx->tok.text, lx->tok.len);
        skip_line(lx); /* flags, type: the code-object writer decides */
    } else if (name_is(&d, ".p2align") || name_is(&d, ".p2alignw") || name_is(&d, ".p2alignl")) {
        do_align(st, lx, true, d.len == 9 ? (d.text[8] == 'w' ? 2 : 4) : 1);
    } else if (name_is(&d, ".align") || name_is(&d, ".balign") || name_is(&d, ".balignw") ||
               name_is(&d, ".balignl")) {
        do_align(st, lx, false, d.len == 8 ? (d.text[7] == 'w' ? 2 : 4) : 1);
    } else if (name_is(&d, ".fill")) {
        do_fill(st, lx);
    } else if (name_is(&d, ".byte") || name_is(&d, ".1byte")) {
        do_data(st, lx, 1);
    } else if (name_is(&d, ".short") || name_is(&d, ".hword") || name_is(&d, ".2byte") ||
               name_is(&d, ".value")) {
        do_data(st, lx, 2);
    } else if (name_is(&d, ".long") || name_is(&d, ".int") || name_is(&d, ".4byte")) {
        do_data(st, lx, 4);
    } else if (name_is(&d, ".quad") || name_is(&d, ".8byte")) {
        do_data(st, lx, 8);
    } else if (name_is(&d, ".zero") || name_is(&d, ".skip") || name_is(&d, ".space")) {
        do_space(st, lx);
    } else if (name_is(&d, ".ascii")) {
        do_ascii(st, lx, false);
    } else if (name_is(&d, ".asciz") || name_is(&d, ".string")) {
        do_ascii(st, lx, true);
    } else if (name_is(&d, ".set") || name_is(&d, ".equ")) {
        if (lx->tok.kind != RDX_TOK_IDENT) {
            rdx_asm_error(st, lx->tok.col, "expected identifier");
            return;
        }
        rdx_tok name = lx->tok;
        rdx_lex_next(lx);
        if (!rdx_tok_is(&lx->tok, ",")) {
            rdx_asm_error(st, lx->tok.col, "expected comma");
            return;
        }
        rdx_lex_next(lx);
        do_set(st, lx, &name);
    } else if (name_is(&d, ".globl") || name_is(&d, ".global")) {
        do_symbols(st, lx, true);
    } else if (name_is(&d, ".weak") || name_is(&d, ".local") || name_is(&d, ".hidden") ||
               name_is(&d, ".protected") || name_is(&d, ".internal")) {
        do_symbols(st, lx, false);
    } else if (name_is(&d, ".type")) {
        do_type(st, lx);
    } else if (name_is(&d, ".size")) {
        do_size(st, lx);
    } else if (name_is(&d, ".file") || name_is(&d, ".ident") || name_is(&d, ".addrsig") ||
               name_is(&d, ".addrsig_sym") || name_is(&d, ".popsection") ||
               name_is(&d, ".amdgpu_lds") || name_is(&d, ".end")) {
        skip_line(lx); /* accepted; the code-object writer computes what they would say */
    } else if (name_is(&d, ".amdgcn_target")) {
        do_target(st, lx);
    } else if (name_is(&d, ".amdhsa_code_object_version")) {
        int64_t v;
        unsigned col = lx->tok.col;
        if (rdx_asm_abs_expr(st, lx, &v) && rdx_asm_expect_end(st, lx)) {
            if (v < 4 || v > 6)
                rdx_asm_error(st, col, "unsupported code object version %lld (4, 5 or 6)",
                              (long long)v);
            else
                st->code_object_version = (unsigned)v;
        }
    } else if (name_is(&d, ".amdgpu_metadata")) {
        do_metadata(st, lx);
    } else if (name_is(&d, ".amdhsa_kernel")) {
        if (lx->tok.kind != RDX_TOK_IDENT) {
            rdx_asm_error(st, lx->tok.col, "expected symbol name after .amdhsa_kernel");
            return;
        }
        rdx_tok name = lx->tok;
        rdx_lex_next(lx);
        if (rdx_asm_expect_end(st, lx))
            rdx_asm_kd_begin(st, name.text, name.len, name.col);
    } else if (name_is(&d, ".end_amdhsa_kernel")) {
        rdx_asm_error(st, d.col, ".end_amdhsa_kernel without .amdhsa_kernel");
    } else {
        rdx_asm_error(st, d.col, "unknown directive");
    }
}
