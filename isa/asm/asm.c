/*
 * isa/asm/asm.c — rdx_asm_assemble: the line loop (labels, directives,
 * instructions), fixups once every label is known, and the result.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm/state.h"
#include "util/error.h"

/* Copy the source with C block comments replaced by spaces (newlines kept). */
static char *blank_block_comments(const char *src, size_t len)
{
    char *s = malloc(len + 1);
    if (!s)
        return NULL;
    memcpy(s, src, len);
    s[len] = 0;
    bool in_str = false;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '\n') {
            in_str = false;
            continue;
        }
        if (c == '"')
            in_str = !in_str;
        if (in_str)
            continue;
        if (c == ';' || c == '#' || (c == '/' && i + 1 < len && s[i + 1] == '/')) {
            while (i + 1 < len && s[i + 1] != '\n')
                i++; /* line comment: a block-comment opener inside is inert */
            continue;
        }
        if (c == '/' && i + 1 < len && s[i + 1] == '*') {
            size_t j = i;
            while (j < len && !(s[j] == '*' && j + 1 < len && s[j + 1] == '/' && j >= i + 2)) {
                if (s[j] != '\n')
                    s[j] = ' ';
                j++;
            }
            if (j < len) {
                s[j] = ' ';
                s[j + 1] = ' ';
                i = j + 1;
            } else {
                i = len;
            }
        }
    }
    return s;
}

static void define_label(rdx_asm_state *st, const rdx_tok *t)
{
    rdx_asm_sym *s = rdx_asm_sym_get(st, t->text, t->len);
    if (!s)
        return;
    if (s->defined) {
        rdx_asm_error(st, t->col, "symbol '%.*s' is already defined", (int)t->len, t->text);
        return;
    }
    s->defined = true;
    s->section = st->cur;
    s->value = (int64_t)st->data[st->cur].len;
    s->line = st->line;
}

static void do_line(rdx_asm_state *st, rdx_lexer *lx)
{
    const rdx_tok *t = rdx_lex_next(lx);
    if (st->kd_open) {
        rdx_asm_kd_line(st, lx);
        return;
    }
    for (;;) {
        if (t->kind == RDX_TOK_END)
            return;
        char nc = t->kind == RDX_TOK_IDENT || t->kind == RDX_TOK_STRING ? rdx_lex_peek_char(lx) : 0;
        if (nc == ':' || nc == '=') {
            rdx_tok peek = rdx_lex_peek(lx);
            if (rdx_tok_is(&peek, ":")) {
                rdx_tok name = *t;
                define_label(st, &name);
                rdx_lex_next(lx);
                t = rdx_lex_next(lx);
                continue;
            }
            if (t->kind == RDX_TOK_IDENT && rdx_tok_is(&peek, "=")) {
                rdx_tok name = *t;
                rdx_lex_next(lx);
                rdx_lex_next(lx);
                rdx_asm_set_symbol(st, lx, &name);
                return;
            }
        }
        break;
    }
    if (t->kind != RDX_TOK_IDENT) {
        rdx_asm_error(st, t->col, "expected an instruction, a directive or a label");
        return;
    }
    if (t->text[0] == '.')
        rdx_asm_directive(st, lx);
    else
        rdx_asm_instruction(st, lx);
}

/* Re-evaluate each fixup's expression now that every label is known. */
static void resolve_fixups(rdx_asm_state *st)
{
    for (size_t i = 0; i < st->nfixups; i++) {
        rdx_asm_fixup *f = &st->fixups[i];
        rdx_lexer lx;
        rdx_lex_init(&lx, f->line_start, st->end);
        lx.p = f->expr;
        rdx_lex_next(&lx);
        st->line = f->line;
        st->dot_fixed = true;
        st->dot_section = f->section;
        st->dot_value = (int64_t)f->inst_start;
        unsigned col = lx.tok.col;
        rdx_asm_value v;
        if (!rdx_asm_expr(st, &lx, false, &v))
            continue;
        if (!v.resolved) {
            rdx_asm_error(st, col, "undefined symbol '%.*s'", (int)v.undef_len, v.undef);
            continue;
        }
        uint8_t *p = st->data[f->section].data + f->offset;
        int64_t x = v.v;
        if (f->kind == RDX_FIXUP_BRANCH) {
            if (v.section != f->section) {
                rdx_asm_error(st, col, "branch target must be a label in the same section");
                continue;
            }
            int64_t d = x - (int64_t)(f->inst_start + 4);
            if (d % 4) {
                rdx_asm_error(st, col, "branch target is not a multiple of 4 bytes away");
                continue;
            }
            d /= 4;
            if (d < -32768 || d > 32767) {
                rdx_asm_error(st, col, "branch offset %lld dwords is out of range", (long long)d);
                continue;
            }
            p[0] = (uint8_t)d;
            p[1] = (uint8_t)((uint64_t)d >> 8);
            continue;
        }
        if (v.section != RDX_ASM_ABS) {
            rdx_asm_error(st, col, "expected an absolute value (relocations are not supported)");
            continue;
        }
        if (f->size < 8) {
            int64_t lo = -(1ll << (f->size * 8 - 1)), hi = (1ll << (f->size * 8)) - 1;
            if (x < lo || x > hi) {
                rdx_asm_error(st, col, "value %lld does not fit in %u bytes", (long long)x,
                              f->size);
                continue;
            }
        }
        for (unsigned b = 0; b < f->size; b++)
            p[b] = (uint8_t)((uint64_t)x >> (8 * b));
    }
}

static int diag_cmp(const void *a, const void *b)
{
    const rdx_asm_diag *x = a, *y = b;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->col != y->col)
        return x->col < y->col ? -1 : 1;
    return x->text < y->text ? -1 : x->text > y->text;
}

static void state_free(rdx_asm_state *st)
{
    for (size_t i = 0; i < st->nsections; i++) {
        free(st->sections[i].name);
        rdx_buf_free(&st->data[i]);
    }
    free(st->sections);
    free(st->data);
    for (size_t i = 0; i < st->nsyms; i++)
        free(st->syms[i].name);
    free(st->syms);
    free(st->symhash);
    free(st->fixups);
    for (size_t i = 0; i < st->ndiags; i++)
        free(st->diags[i].text);
    free(st->diags);
    free(st->stmts);
    for (size_t i = 0; i < st->nkernels; i++)
        free(st->kernels[i].name);
    free(st->kernels);
    free(st->metadata);
    rdx_asm_kd_discard(st);
    free(st->src_copy);
}

/* Move the state's products into a result. */
static rdx_asm_result *make_result(rdx_asm_state *st)
{
    rdx_asm_result *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    size_t ndef = 0;
    for (size_t i = 0; i < st->nsyms; i++)
        ndef += st->syms[i].defined;
    r->symbols = calloc(ndef ? ndef : 1, sizeof *r->symbols);
    if (!r->symbols) {
        free(r);
        return NULL;
    }
    snprintf(r->arch, sizeof r->arch, "gfx%u", st->gfx);
    r->filename = strdup(st->file);
    if (!r->filename) {
        free(r->symbols);
        free(r);
        return NULL;
    }
    for (size_t i = 0; i < st->nsections; i++) {
        st->sections[i].data = st->data[i].data;
        st->sections[i].size = st->data[i].len;
        st->data[i] = (rdx_buf){ 0 };
    }
    r->sections = st->sections;
    r->nsections = st->nsections;
    st->sections = NULL;
    st->nsections = 0;
    for (size_t i = 0; i < st->nsyms; i++) {
        rdx_asm_sym *s = &st->syms[i];
        if (!s->defined)
            continue;
        rdx_asm_symbol *o = &r->symbols[r->nsymbols++];
        o->name = s->name;
        s->name = NULL;
        o->section = s->section;
        o->value = s->value;
        o->global = s->global;
        o->type = s->type;
        o->size = s->size;
    }
    r->kernels = st->kernels;
    r->nkernels = st->nkernels;
    st->kernels = NULL;
    st->nkernels = 0;
    r->stmts = st->stmts;
    r->nstmts = st->nstmts;
    st->stmts = NULL;
    r->diags = st->diags;
    r->ndiags = st->ndiags;
    st->diags = NULL;
    st->ndiags = 0;
    r->metadata = st->metadata;
    r->metadata_line = st->metadata_line;
    st->metadata = NULL;
    r->code_object_version = st->code_object_version;
    return r;
}

rdx_status rdx_asm_assemble(const char *src, size_t len, const rdx_asm_options *opts,
                            rdx_asm_result **out)
{
    *out = NULL;
    if (!src && len)
        return rdx_fail(RDX_ERR_INVALID, "rdx_asm_assemble: NULL source");
    rdx_asm_state st;
    memset(&st, 0, sizeof st);
    st.file = opts && opts->filename ? opts->filename : "<input>";
    st.target = rdx_asm_target_find("gfx1100", 7, &st.gfx);
    assert(st.target);
    if (opts && opts->arch) {
        if (!(st.target = rdx_asm_target_find(opts->arch, strlen(opts->arch), &st.gfx)))
            return rdx_fail(RDX_ERR_INVALID, "rdx_asm_assemble: unknown target '%s' (expected %s)",
                            opts->arch, rdx_asm_target_list());
        st.gfx_from_option = true;
    }
    /* Block comments are blanked in a copy; without any, the input is used as is. */
    const char *text = src ? src : "";
    bool blocks = false;
    for (const char *q = text; !blocks && (q = memchr(q, '/', len - (size_t)(q - text))) != NULL;
         q++)
        blocks = q + 1 < text + len && q[1] == '*';
    char *copy = blocks ? blank_block_comments(text, len) : NULL;
    if (blocks && !copy)
        return rdx_fail(RDX_ERR_NOMEM, "out of memory assembling %s", st.file);
    st.src_copy = copy;
    st.src = copy ? copy : text;
    st.end = st.src + len;
    st.cur = rdx_asm_section_get(&st, ".text", 5);
    const char *p = st.src;
    st.line = 1;
    while (p < st.end && !st.nomem) {
        st.line_start = p;
        st.skip_to = NULL;
        rdx_lexer lx;
        rdx_lex_init(&lx, p, st.end);
        do_line(&st, &lx);
        if (st.skip_to) {
            p = st.skip_to;
            st.line++;
            continue;
        }
        p = rdx_lex_next_line(p, st.end);
        st.line++;
    }
    if (st.kd_open && !st.nomem) {
        rdx_asm_kd_unterminated(&st);
    }
    if (!st.nomem)
        resolve_fixups(&st);
    if (st.nomem) {
        state_free(&st);
        return rdx_fail(RDX_ERR_NOMEM, "out of memory assembling %s", st.file);
    }
    if (st.ndiags)
        qsort(st.diags, st.ndiags, sizeof *st.diags, diag_cmp);
    rdx_asm_result *r = make_result(&st);
    state_free(&st);
    if (!r)
        return rdx_fail(RDX_ERR_NOMEM, "out of memory assembling %s", st.file);
    *out = r;
    if (r->ndiags)
        return rdx_fail(RDX_ERR_PARSE, "%s (%zu error%s)", r->diags[0].text, r->ndiags,
                        r->ndiags > 1 ? "s" : "");
    return RDX_OK;
}

void rdx_asm_free(rdx_asm_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nsections; i++) {
        free(r->sections[i].name);
        free(r->sections[i].data);
    }
    free(r->sections);
    for (size_t i = 0; i < r->nsymbols; i++)
        free(r->symbols[i].name);
    free(r->symbols);
    for (size_t i = 0; i < r->nkernels; i++)
        free(r->kernels[i].name);
    free(r->kernels);
    free(r->stmts);
    for (size_t i = 0; i < r->ndiags; i++)
        free(r->diags[i].text);
    free(r->diags);
    free(r->metadata);
    free(r->filename);
    free(r);
}

int rdx_asm_find_section(const rdx_asm_result *r, const char *name)
{
    for (size_t i = 0; i < r->nsections; i++)
        if (!strcmp(r->sections[i].name, name))
            return (int)i;
    return -1;
}
