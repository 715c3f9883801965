/* tests/prof/json.c — the prof suite's JSON parser (json.h). */
#include <stdlib.h>
#include <string.h>

#include "tests/prof/json.h"

typedef struct jp {
    const char *s, *p;
    int bad;
} jp;

static void ws(jp *j)
{
    while (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t')
        j->p++;
}

static jval *val(jp *j, int depth);

static char *str(jp *j)
{
    if (*j->p != '"') {
        j->bad = 1;
        return NULL;
    }
    j->p++;
    size_t cap = 16, n = 0;
    char *o = malloc(cap);
    while (*j->p && *j->p != '"') {
        char c = *j->p++;
        if ((unsigned char)c < 0x20) {
            j->bad = 1;
            break;
        }
        if (c == '\\') {
            char e = *j->p++;
            const char *m = strchr("\"\\/bfnrtu", e);
            if (!e || !m) {
                j->bad = 1;
                break;
            }
            if (e == 'u') {
                for (int i = 0; i < 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", j->p[i]) || !j->p[i])
                        j->bad = 1;
                if (j->bad)
                    break;
                j->p += 4;
                c = '?';
            } else {
                c = e == 'n'   ? '\n'
                    : e == 't' ? '\t'
                    : e == 'r' ? '\r'
                    : e == 'b' ? '\b'
                    : e == 'f' ? '\f'
                               : e;
            }
        }
        if (n + 2 > cap)
            o = realloc(o, cap *= 2);
        o[n++] = c;
    }
    if (*j->p != '"')
        j->bad = 1;
    else
        j->p++;
    o[n] = 0;
    return o;
}

static jval *mk(jtype t)
{
    jval *v = calloc(1, sizeof *v);
    v->t = t;
    return v;
}

static void push(jval *v, char *key, jval *x)
{
    v->items = realloc(v->items, (v->n + 1) * sizeof *v->items);
    if (v->t == J_OBJ)
        v->keys = realloc(v->keys, (v->n + 1) * sizeof *v->keys);
    v->items[v->n] = x;
    if (v->t == J_OBJ)
        v->keys[v->n] = key;
    v->n++;
}

static jval *val(jp *j, int depth)
{
    ws(j);
    if (depth > 64) {
        j->bad = 1;
        return NULL;
    }
    char c = *j->p;
    if (c == '{' || c == '[') {
        jval *v = mk(c == '{' ? J_OBJ : J_ARR);
        j->p++;
        ws(j);
        if (*j->p == (c == '{' ? '}' : ']')) {
            j->p++;
            return v;
        }
        for (;;) {
            char *key = NULL;
            ws(j);
            if (c == '{') {
                key = str(j);
                ws(j);
                if (*j->p != ':')
                    j->bad = 1;
                else
                    j->p++;
            }
            jval *x = j->bad ? NULL : val(j, depth + 1);
            push(v, key, x);
            if (j->bad)
                return v;
            ws(j);
            if (*j->p == ',') {
                j->p++;
                continue;
            }
            if (*j->p == (c == '{' ? '}' : ']')) {
                j->p++;
                return v;
            }
            j->bad = 1;
            return v;
        }
    }
    if (c == '"') {
        jval *v = mk(J_STR);
        v->str = str(j);
        return v;
    }
    if (!strncmp(j->p, "true", 4) || !strncmp(j->p, "null", 4) || !strncmp(j->p, "false", 5)) {
        jval *v = mk(c == 'n' ? J_NULL : J_BOOL);
        v->num = c == 't';
        j->p += c == 'f' ? 5 : 4;
        return v;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        char *e;
        jval *v = mk(J_NUM);
        v->num = strtod(j->p, &e);
        if (e == j->p)
            j->bad = 1;
        j->p = e;
        return v;
    }
    j->bad = 1;
    return NULL;
}

jval *json_parse(const char *text, size_t *err_at)
{
    jp j = { text, text, 0 };
    jval *v = val(&j, 0);
    ws(&j);
    if (!j.bad && *j.p)
        j.bad = 1;
    if (j.bad) {
        if (err_at)
            *err_at = (size_t)(j.p - text);
        json_free(v);
        return NULL;
    }
    return v;
}

void json_free(jval *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->n; i++) {
        json_free(v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    free(v);
}

const jval *json_get(const jval *v, const char *key)
{
    if (!v || v->t != J_OBJ)
        return NULL;
    for (size_t i = 0; i < v->n; i++)
        if (v->keys[i] && !strcmp(v->keys[i], key))
            return v->items[i];
    return NULL;
}
