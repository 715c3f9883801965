/* isa/asm/state.c — diagnostics, symbols, sections and fixups of the assembler. */
#include "isa/asm/state.h"

#include <assert.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Grow a (ptr, n, cap) array by one element; false (and st->nomem) on failure. */
static bool grow(rdx_asm_state *st, void **ptr, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return true;
    size_t nc = *cap ? *cap * 2 : 16;
    void *p = realloc(*ptr, nc * elem);
    if (!p) {
        st->nomem = true;
        return false;
    }
    *ptr = p;
    *cap = nc;
    return true;
}

static void verror(rdx_asm_state *st, unsigned line, unsigned col, const char *fmt, va_list ap)
{
    if (!grow(st, (void **)&st->diags, &st->capdiags, st->ndiags, sizeof *st->diags))
        return;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t need = strlen(st->file) + strlen(msg) + 64;
    char *text = malloc(need);
    if (!text) {
        st->nomem = true;
        return;
    }
    snprintf(text, need, "%s:%u:%u: error: %s", st->file, line, col, msg);
    rdx_asm_diag *d = &st->diags[st->ndiags++];
    d->line = line;
    d->col = col;
    d->text = text;
}

void rdx_asm_error(rdx_asm_state *st, unsigned col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(st, st->line, col, fmt, ap);
    va_end(ap);
}

void rdx_asm_error_at(rdx_asm_state *st, unsigned line, unsigned col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(st, line, col, fmt, ap);
    va_end(ap);
}

char *rdx_asm_strndup(rdx_asm_state *st, const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (!p) {
        st->nomem = true;
        return NULL;
    }
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

static uint32_t hash_name(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

rdx_asm_sym *rdx_asm_sym_find(rdx_asm_state *st, const char *name, size_t len)
{
    if (!st->symhash_cap)
        return NULL;
    size_t mask = st->symhash_cap - 1;
    for (size_t i = hash_name(name, len) & mask;; i = (i + 1) & mask) {
        uint32_t e = st->symhash[i];
        if (!e)
            return NULL;
        rdx_asm_sym *s = &st->syms[e - 1];
        if (strlen(s->name) == len && memcmp(s->name, name, len) == 0)
            return s;
    }
}

static bool rehash(rdx_asm_state *st, size_t cap)
{
    uint32_t *h = calloc(cap, sizeof *h);
    if (!h) {
        st->nomem = true;
        return false;
    }
    for (size_t k = 0; k < st->nsyms; k++) {
        size_t i = hash_name(st->syms[k].name, strlen(st->syms[k].name)) & (cap - 1);
        while (h[i])
            i = (i + 1) & (cap - 1);
        h[i] = (uint32_t)k + 1;
    }
    free(st->symhash);
    st->symhash = h;
    st->symhash_cap = cap;
    return true;
}

rdx_asm_sym *rdx_asm_sym_get(rdx_asm_state *st, const char *name, size_t len)
{
    rdx_asm_sym *s = rdx_asm_sym_find(st, name, len);
    if (s)
        return s;
    if ((st->nsyms + 1) * 2 > st->symhash_cap &&
        !rehash(st, st->symhash_cap ? st->symhash_cap * 2 : 64))
        return NULL;
    if (!grow(st, (void **)&st->syms, &st->capsyms, st->nsyms, sizeof *st->syms))
        return NULL;
    char *n = rdx_asm_strndup(st, name, len);
    if (!n)
        return NULL;
    s = &st->syms[st->nsyms];
    memset(s, 0, sizeof *s);
    s->name = n;
    s->section = RDX_ASM_ABS;
    s->line = st->line;
    size_t i = hash_name(name, len) & (st->symhash_cap - 1);
    while (st->symhash[i])
        i = (i + 1) & (st->symhash_cap - 1);
    st->symhash[i] = (uint32_t)st->nsyms + 1;
    st->nsyms++;
    return s;
}

int rdx_asm_section_get(rdx_asm_state *st, const char *name, size_t len)
{
    for (size_t i = 0; i < st->nsections; i++)
        if (strlen(st->sections[i].name) == len && !memcmp(st->sections[i].name, name, len))
            return (int)i;
    size_t cap = st->capsections;
    if (!grow(st, (void **)&st->sections, &st->capsections, st->nsections, sizeof *st->sections))
        return -1;
    if (cap != st->capsections) {
        rdx_buf *d = realloc(st->data, st->capsections * sizeof *d);
        if (!d) {
            st->nomem = true;
            return -1;
        }
        st->data = d;
    }
    char *n = rdx_asm_strndup(st, name, len);
    if (!n)
        return -1;
    rdx_asm_section *s = &st->sections[st->nsections];
    memset(s, 0, sizeof *s);
    s->name = n;
    s->align = 1;
    memset(&st->data[st->nsections], 0, sizeof st->data[0]);
    return (int)st->nsections++;
}

rdx_buf *rdx_asm_cur_data(rdx_asm_state *st)
{
    return &st->data[st->cur];
}

void rdx_asm_emit(rdx_asm_state *st, const void *p, size_t n)
{
    if (rdx_buf_append(&st->data[st->cur], p, n) != RDX_OK)
        st->nomem = true;
}

void rdx_asm_add_fixup(rdx_asm_state *st, const rdx_asm_fixup *f)
{
    if (grow(st, (void **)&st->fixups, &st->capfixups, st->nfixups, sizeof *st->fixups))
        st->fixups[st->nfixups++] = *f;
}

bool rdx_asm_grow(rdx_asm_state *st, void **ptr, size_t *cap, size_t n, size_t elem)
{
    return grow(st, ptr, cap, n, elem);
}

const rdx_isa_target *rdx_asm_target_find(const char *name, size_t len, unsigned *gfx)
{
    for (size_t i = 0; i < rdx_isa_target_count(); i++) {
        const rdx_isa_target *t = rdx_isa_target_at(i);
        if (strlen(t->name) != len || memcmp(t->name, name, len))
            continue;
        /* the table's names are gfx<digits> (RDNA3/RDNA4): their number orders the generations */
        char *end;
        unsigned long n = strtoul(t->name + 3, &end, 10);
        assert(*end == '\0' && n >= 1100);
        *gfx = (unsigned)n;
        return t;
    }
    return NULL;
}

static char target_list[256];

static void build_target_list(void)
{
    size_t n = 0;
    for (size_t i = 0; i < rdx_isa_target_count(); i++) {
        int k = snprintf(target_list + n, sizeof target_list - n, "%s%s", i ? ", " : "",
                         rdx_isa_target_at(i)->name);
        if (k < 0 || (size_t)k >= sizeof target_list - n)
            break;
        n += (size_t)k;
    }
}

const char *rdx_asm_target_list(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, build_target_list);
    return target_list;
}
