/* isa/asm/yaml.c — .amdgpu_metadata YAML (the subset LLVM writes) to MessagePack. */
#include "isa/asm/yaml.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "isa/codeobj/msgpack.h"
#include "util/buf.h"
#include "util/error.h"

typedef enum ynode_kind { Y_SCALAR, Y_MAP, Y_SEQ } ynode_kind;

typedef struct ynode {
    ynode_kind kind;
    const char *s; /* scalar text */
    size_t n;
    bool quoted;
    struct ynode **items; /* MAP: key, value, key, value ...; SEQ: items */
    size_t count, cap;
} ynode;

typedef struct yline {
    unsigned indent;
    char *text; /* content after the indentation, comment and trailing blanks removed */
    size_t len;
    unsigned lineno;
} yline;

typedef struct yparser {
    yline *lines;
    size_t nlines, pos;
    const char *file;
    rdx_status err;
    bool nomem;
    char *copy;
} yparser;

static ynode *ynew(yparser *p, ynode_kind k)
{
    ynode *y = calloc(1, sizeof *y);
    if (!y)
        p->nomem = true;
    else
        y->kind = k;
    return y;
}

static void yfree(ynode *y)
{
    if (!y)
        return;
    for (size_t i = 0; i < y->count; i++)
        yfree(y->items[i]);
    free(y->items);
    free(y);
}

static bool yadd(yparser *p, ynode *parent, ynode *child)
{
    if (!child)
        return false;
    if (parent->count == parent->cap) {
        size_t nc = parent->cap ? parent->cap * 2 : 8;
        ynode **it = realloc(parent->items, nc * sizeof *it);
        if (!it) {
            p->nomem = true;
            yfree(child);
            return false;
        }
        parent->items = it;
        parent->cap = nc;
    }
    parent->items[parent->count++] = child;
    return true;
}

static bool yfail(yparser *p, unsigned line, const char *what)
{
    if (p->err == RDX_OK)
        p->err = rdx_fail(RDX_ERR_PARSE, "%s:%u: .amdgpu_metadata: %s", p->file, line, what);
    return false;
}

/* A scalar or a flow sequence from text[0..n). */
static ynode *scalar(yparser *p, char *t, size_t n, unsigned line)
{
    while (n && (t[n - 1] == ' ' || t[n - 1] == '\t'))
        n--;
    if (n && t[0] == '[') {
        if (t[n - 1] != ']') {
            yfail(p, line, "expected ']' closing the flow sequence");
            return NULL;
        }
        ynode *seq = ynew(p, Y_SEQ);
        if (!seq)
            return NULL;
        size_t i = 1;
        while (i < n - 1) {
            while (i < n - 1 && (t[i] == ' ' || t[i] == ','))
                i++;
            size_t j = i;
            while (j < n - 1 && t[j] != ',')
                j++;
            if (j > i && !yadd(p, seq, scalar(p, t + i, j - i, line))) {
                yfree(seq);
                return NULL;
            }
            i = j;
        }
        return seq;
    }
    ynode *y = ynew(p, Y_SCALAR);
    if (!y)
        return NULL;
    if (n >= 2 && (t[0] == '\'' || t[0] == '"') && t[n - 1] == t[0]) {
        y->quoted = true;
        t++;
        n -= 2;
    }
    y->s = t;
    y->n = n;
    return y;
}

/* Position of the ':' that ends a map key in text, or -1. */
static long key_colon(const char *t, size_t n)
{
    if (n && (t[0] == '\'' || t[0] == '"')) {
        const char *q = memchr(t + 1, t[0], n - 1);
        if (!q)
            return -1;
        size_t k = (size_t)(q - t) + 1;
        return k < n && t[k] == ':' && (k + 1 == n || t[k + 1] == ' ') ? (long)k : -1;
    }
    for (size_t i = 0; i < n; i++)
        if (t[i] == ':' && (i + 1 == n || t[i + 1] == ' '))
            return (long)i;
    return -1;
}

static ynode *parse_block(yparser *p, unsigned indent);

/* The value after "key:" — inline text, or a block on the following lines. */
static ynode *value_of(yparser *p, char *t, size_t n, unsigned indent, unsigned line)
{
    while (n && *t == ' ')
        t++, n--;
    if (n)
        return scalar(p, t, n, line);
    if (p->pos < p->nlines &&
        (p->lines[p->pos].indent > indent ||
         (p->lines[p->pos].indent == indent && p->lines[p->pos].text[0] == '-')))
        return parse_block(p, p->lines[p->pos].indent);
    return scalar(p, t, 0, line); /* empty value */
}

static ynode *parse_block(yparser *p, unsigned indent)
{
    if (p->pos >= p->nlines)
        return NULL;
    yline *l = &p->lines[p->pos];
    bool seq = l->text[0] == '-' && (l->len == 1 || l->text[1] == ' ');
    ynode *node = ynew(p, seq ? Y_SEQ : Y_MAP);
    if (!node)
        return NULL;
    while (p->pos < p->nlines && !p->nomem && p->err == RDX_OK) {
        l = &p->lines[p->pos];
        if (l->indent < indent)
            break;
        if (l->indent > indent) {
            yfail(p, l->lineno, "unexpected indentation");
            break;
        }
        bool dash = l->text[0] == '-' && (l->len == 1 || l->text[1] == ' ');
        if (dash != seq) {
            yfail(p, l->lineno, seq ? "expected '- ' (a sequence item)" : "expected 'key: value'");
            break;
        }
        if (seq) {
            /* "- rest": rest is an item at indentation indent + 2. */
            size_t skip = 1;
            while (skip < l->len && l->text[skip] == ' ')
                skip++;
            if (skip == l->len) {
                p->pos++;
                if (!yadd(p, node, value_of(p, l->text + skip, 0, indent, l->lineno)))
                    break;
                continue;
            }
            l->text += skip;
            l->len -= skip;
            l->indent += (unsigned)skip;
            if (key_colon(l->text, l->len) >= 0) {
                if (!yadd(p, node, parse_block(p, l->indent)))
                    break;
            } else {
                p->pos++;
                if (!yadd(p, node, scalar(p, l->text, l->len, l->lineno)))
                    break;
            }
            continue;
        }
        long c = key_colon(l->text, l->len);
        if (c < 0) {
            yfail(p, l->lineno, "expected 'key: value'");
            break;
        }
        p->pos++;
        if (!yadd(p, node, scalar(p, l->text, (size_t)c, l->lineno)) ||
            !yadd(p, node, value_of(p, l->text + c + 1, l->len - (size_t)c - 1, indent, l->lineno)))
            break;
    }
    if (p->nomem || p->err != RDX_OK) {
        yfree(node);
        return NULL;
    }
    return node;
}

static int key_cmp(const void *a, const void *b)
{
    const ynode *x = ((ynode *const *)a)[0], *y = ((ynode *const *)b)[0];
    size_t n = x->n < y->n ? x->n : y->n;
    int c = memcmp(x->s, y->s, n);
    return c ? c : (x->n > y->n) - (x->n < y->n);
}

static rdx_status emit(rdx_buf *b, ynode *y)
{
    rdx_status st = RDX_OK;
    switch (y->kind) {
    case Y_SEQ:
        st = rdx_msgpack_put_array(b, (uint32_t)y->count);
        for (size_t i = 0; i < y->count && st == RDX_OK; i++)
            st = emit(b, y->items[i]);
        return st;
    case Y_MAP:
        /* Sort key/value pairs by key (pairs are adjacent: sort 2-element blocks). */
        qsort(y->items, y->count / 2, 2 * sizeof *y->items, key_cmp);
        st = rdx_msgpack_put_map(b, (uint32_t)(y->count / 2));
        for (size_t i = 0; i < y->count && st == RDX_OK; i++)
            st = emit(b, y->items[i]);
        return st;
    case Y_SCALAR:
        break;
    }
    if (!y->quoted) {
        if ((y->n == 4 && !memcmp(y->s, "true", 4)) || (y->n == 5 && !memcmp(y->s, "false", 5)))
            return rdx_msgpack_put_bool(b, y->n == 4);
        size_t i = y->s[0] == '-' ? 1 : 0;
        bool digits = y->n > i && y->n - i < 19;
        for (size_t k = i; digits && k < y->n; k++)
            digits = y->s[k] >= '0' && y->s[k] <= '9';
        if (digits) {
            int64_t v = 0;
            for (size_t k = i; k < y->n; k++)
                v = v * 10 + (y->s[k] - '0');
            return i ? rdx_msgpack_put_int(b, -v) : rdx_msgpack_put_uint(b, (uint64_t)v);
        }
    }
    return rdx_msgpack_put_str(b, y->s, y->n);
}

rdx_status rdx_asm_yaml_to_msgpack(const char *text, size_t n, const char *file,
                                   unsigned first_line, uint8_t **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    yparser p = { 0 };
    p.file = file;
    p.copy = malloc(n + 1);
    size_t cap = 1;
    for (size_t i = 0; i < n; i++)
        cap += text[i] == '\n';
    p.lines = calloc(cap, sizeof *p.lines);
    if (!p.copy || !p.lines) {
        free(p.copy);
        free(p.lines);
        return rdx_fail(RDX_ERR_NOMEM, "out of memory converting metadata");
    }
    memcpy(p.copy, text, n);
    p.copy[n] = 0;
    unsigned lineno = first_line;
    for (char *s = p.copy; s < p.copy + n; lineno++) {
        char *e = memchr(s, '\n', (size_t)(p.copy + n - s));
        if (!e)
            e = p.copy + n;
        *e = 0;
        unsigned ind = 0;
        while (s[ind] == ' ')
            ind++;
        char *t = s + ind;
        /* A '#' comment starts the line or follows a blank (quotes aside). */
        bool q1 = false, q2 = false;
        for (char *c = t; *c; c++) {
            if (*c == '\'' && !q2)
                q1 = !q1;
            else if (*c == '"' && !q1)
                q2 = !q2;
            else if (*c == '#' && !q1 && !q2 && (c == t || c[-1] == ' ')) {
                *c = 0;
                break;
            }
        }
        size_t len_t = strlen(t);
        while (len_t && (t[len_t - 1] == ' ' || t[len_t - 1] == '\t' || t[len_t - 1] == '\r'))
            t[--len_t] = 0;
        bool marker = (len_t == 3 && (!strcmp(t, "---") || !strcmp(t, "...")));
        if (len_t && !marker)
            p.lines[p.nlines++] = (yline){ ind, t, len_t, lineno };
        s = e + 1;
    }
    ynode *root = p.nlines ? parse_block(&p, p.lines[0].indent) : NULL;
    rdx_status st = p.err;
    if (st == RDX_OK && p.nomem)
        st = rdx_fail(RDX_ERR_NOMEM, "out of memory converting metadata");
    if (st == RDX_OK && (!root || root->kind != Y_MAP))
        st = rdx_fail(RDX_ERR_PARSE, "%s:%u: .amdgpu_metadata: expected a map", file, first_line);
    if (st == RDX_OK && p.pos < p.nlines)
        st = rdx_fail(RDX_ERR_PARSE, "%s:%u: .amdgpu_metadata: unexpected indentation", file,
                      p.lines[p.pos].lineno);
    rdx_buf b = { 0 };
    if (st == RDX_OK)
        st = emit(&b, root);
    yfree(root);
    free(p.lines);
    free(p.copy);
    if (st != RDX_OK) {
        rdx_buf_free(&b);
        return st;
    }
    *out = b.data;
    *len = b.len;
    return RDX_OK;
}
