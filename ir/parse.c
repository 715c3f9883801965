/*
 * ir/parse.c — reading the text form (grammar in docs/ir.md).  Errors name
 * the input, line and column, and what was expected.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/isa.h>

#include "ir/ir_internal.h"

typedef struct named {
    char *name;
    size_t len;
    const rdx_uop *u;
} named;

typedef struct parser {
    rdx_ir_ctx *ctx;
    const char *file, *s;
    size_t len, pos, line, line_start;
    named *names;
    size_t ncap, ncount;
    char *sbuf; /* scratch for decoded strings */
    size_t scap;
} parser;

static rdx_status perr(parser *p, const char *fmt, ...) RDX_PRINTF(2, 3);
static rdx_status perr(parser *p, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rdx_fail(RDX_ERR_PARSE, "%s:%zu:%zu: %s", p->file, p->line, p->pos - p->line_start + 1,
                    msg);
}

static int at_end_of_line(parser *p)
{
    return p->pos >= p->len || p->s[p->pos] == '\n' || p->s[p->pos] == ';';
}

static void skip_ws(parser *p)
{
    while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\r'))
        p->pos++;
}

static int is_word(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == ':' || c == '-' || c == '+' || c == '*';
}

/* A run of word characters; returns its length (0 if none). */
static size_t word(parser *p, const char **w)
{
    skip_ws(p);
    size_t st = p->pos;
    while (p->pos < p->len && is_word(p->s[p->pos]))
        p->pos++;
    *w = p->s + st;
    return p->pos - st;
}

static int eat(parser *p, char c)
{
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == c) {
        p->pos++;
        return 1;
    }
    return 0;
}

static size_t name_hash(const char *s, size_t n)
{
    size_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static named *lookup(parser *p, const char *s, size_t n)
{
    if (!p->ncap)
        return NULL;
    for (size_t i = name_hash(s, n) & (p->ncap - 1);; i = (i + 1) & (p->ncap - 1)) {
        named *e = &p->names[i];
        if (!e->name)
            return NULL;
        if (e->len == n && !memcmp(e->name, s, n))
            return e;
    }
}

static rdx_status define(parser *p, const char *s, size_t n, const rdx_uop *u)
{
    if ((p->ncount + 1) * 2 > p->ncap) {
        size_t ncap = p->ncap ? p->ncap * 2 : 256;
        named *nn = calloc(ncap, sizeof *nn);
        if (!nn)
            return rdx_fail(RDX_ERR_NOMEM, "%s: out of memory", p->file);
        for (size_t i = 0; i < p->ncap; i++) {
            if (!p->names[i].name)
                continue;
            size_t j = name_hash(p->names[i].name, p->names[i].len) & (ncap - 1);
            while (nn[j].name)
                j = (j + 1) & (ncap - 1);
            nn[j] = p->names[i];
        }
        free(p->names);
        p->names = nn;
        p->ncap = ncap;
    }
    size_t i = name_hash(s, n) & (p->ncap - 1);
    while (p->names[i].name)
        i = (i + 1) & (p->ncap - 1);
    p->names[i].name = malloc(n + 1);
    if (!p->names[i].name)
        return rdx_fail(RDX_ERR_NOMEM, "%s: out of memory", p->file);
    memcpy(p->names[i].name, s, n);
    p->names[i].name[n] = 0;
    p->names[i].len = n;
    p->names[i].u = u;
    p->ncount++;
    return RDX_OK;
}

/* "%name" */
static rdx_status ref_name(parser *p, const char **s, size_t *n)
{
    skip_ws(p);
    if (p->pos >= p->len || p->s[p->pos] != '%')
        return perr(p, "expected a node name like %%3");
    p->pos++;
    size_t st = p->pos;
    while (p->pos < p->len && is_word(p->s[p->pos]) && p->s[p->pos] != '*')
        p->pos++;
    if (p->pos == st)
        return perr(p, "expected a name after '%%'");
    *s = p->s + st - 1;
    *n = p->pos - st + 1;
    return RDX_OK;
}

static rdx_status parse_int(parser *p, int64_t *v)
{
    const char *w;
    size_t n = word(p, &w);
    char tmp[64];
    if (!n || n >= sizeof tmp) {
        p->pos -= n;
        return perr(p, "expected an integer");
    }
    memcpy(tmp, w, n);
    tmp[n] = 0;
    char *end;
    errno = 0;
    long long x = strtoll(tmp, &end, 0);
    if (*end || errno) {
        p->pos -= n;
        return perr(p, "expected an integer, got '%s'", tmp);
    }
    *v = x;
    return RDX_OK;
}

static rdx_status parse_double(parser *p, double *v)
{
    const char *w;
    size_t n = word(p, &w);
    char tmp[64];
    if (!n || n >= sizeof tmp) {
        p->pos -= n;
        return perr(p, "expected a number");
    }
    memcpy(tmp, w, n);
    tmp[n] = 0;
    char *end;
    if (!strcmp(tmp, "nan"))
        *v = NAN;
    else if (!strcmp(tmp, "inf"))
        *v = INFINITY;
    else if (!strcmp(tmp, "-inf"))
        *v = -INFINITY;
    else {
        *v = strtod(tmp, &end);
        if (*end) {
            p->pos -= n;
            return perr(p, "expected a number, got '%s'", tmp);
        }
    }
    return RDX_OK;
}

/* A quoted string with \" \\ \n \t \xHH escapes into p->sbuf. */
static rdx_status parse_string(parser *p, const char **out, size_t *outlen)
{
    skip_ws(p);
    if (p->pos >= p->len || p->s[p->pos] != '"')
        return perr(p, "expected a quoted string");
    p->pos++;
    size_t n = 0;
    for (;;) {
        if (p->pos >= p->len || p->s[p->pos] == '\n')
            return perr(p, "unterminated string (expected '\"')");
        char c = p->s[p->pos++];
        if (c == '"')
            break;
        if (c == '\\') {
            if (p->pos >= p->len)
                return perr(p, "unterminated escape");
            char e = p->s[p->pos++];
            if (e == 'n')
                c = '\n';
            else if (e == 't')
                c = '\t';
            else if (e == '"' || e == '\\')
                c = e;
            else if (e == 'x' && p->pos + 2 <= p->len) {
                char h[3] = { p->s[p->pos], p->s[p->pos + 1], 0 };
                char *end;
                long v = strtol(h, &end, 16);
                if (*end) {
                    return perr(p, "expected two hex digits after \\x");
                }
                p->pos += 2;
                c = (char)v;
            } else {
                p->pos--;
                return perr(p, "unknown escape '\\%c' (expected \\\" \\\\ \\n \\t \\xHH)", e);
            }
        }
        if (n + 2 > p->scap) {
            size_t ncap = p->scap ? p->scap * 2 : 256;
            char *nb = realloc(p->sbuf, ncap);
            if (!nb)
                return rdx_fail(RDX_ERR_NOMEM, "%s: out of memory", p->file);
            p->sbuf = nb;
            p->scap = ncap;
        }
        p->sbuf[n++] = c;
    }
    if (!p->sbuf && !(p->sbuf = malloc(p->scap = 16)))
        return rdx_fail(RDX_ERR_NOMEM, "%s: out of memory", p->file);
    p->sbuf[n] = 0;
    *out = p->sbuf;
    *outlen = n;
    return RDX_OK;
}

/* "(a,b,...)" of ints, or of doubles stored as bits when `fl`. */
static rdx_status parse_list(parser *p, int fl, int64_t *v, uint32_t *n, uint32_t max)
{
    if (!eat(p, '('))
        return perr(p, "expected '(' starting a list");
    *n = 0;
    if (eat(p, ')'))
        return RDX_OK;
    do {
        if (*n >= max)
            return perr(p, "list longer than %u", max);
        rdx_status st;
        if (fl) {
            double d;
            st = parse_double(p, &d);
            memcpy(&v[*n], &d, sizeof d);
        } else {
            st = parse_int(p, &v[*n]);
        }
        if (st)
            return st;
        (*n)++;
    } while (eat(p, ','));
    if (!eat(p, ')'))
        return perr(p, "expected ',' or ')' in a list");
    return RDX_OK;
}

static rdx_status parse_device_name(parser *p, const char **nm)
{
    skip_ws(p);
    const char *w;
    size_t n;
    if (p->pos < p->len && p->s[p->pos] == '"') {
        rdx_status st = parse_string(p, &w, &n);
        if (st)
            return st;
    } else if (!(n = word(p, &w))) {
        return perr(p, "expected a device name");
    }
    *nm = rdx_ir_str(p->ctx, w, n);
    return *nm ? RDX_OK : RDX_ERR_NOMEM;
}

enum {
    K_DTYPE = 1 << 0,
    K_VALUE = 1 << 1,
    K_SLOT = 1 << 2,
    K_DEVICE = 1 << 3,
    K_ADDR = 1 << 4,
    K_INTS = 1 << 5,
    K_OP = 1 << 6,
    K_AXES = 1 << 7,
    K_INDEX = 1 << 8,
    K_AXIS = 1 << 9,
    K_TYPE = 1 << 10,
    K_NAME = 1 << 11,
    K_MIN = 1 << 12,
    K_MAX = 1 << 13,
    K_STR = 1 << 14,
    K_BYTES = 1 << 15,
    K_VALUES = 1 << 16,
    K_TAG = 1 << 17,
    K_ASM = 1 << 18,
    K_LABEL = 1 << 19,
};

static const char *const key_names[] = { "dtype", "value",  "slot", "device", "addr",
                                         "ints",  "op",     "axes", "index",  "axis",
                                         "type",  "name",   "min",  "max",    "str",
                                         "bytes", "values", "tag",  "asm",    "label" };

/* Required and optional keys of each arg schema. */
static void schema_keys(rdx_argk k, unsigned *req, unsigned *opt)
{
    *opt = K_TAG;
    *req = 0;
    switch (k) {
    case RDX_ARGK_NONE:
        *req = 0;
        break;
    case RDX_ARGK_CONST:
        *req = K_DTYPE | K_VALUE;
        break;
    case RDX_ARGK_PARAM:
        *req = K_SLOT | K_DTYPE;
        *opt |= K_DEVICE | K_ADDR;
        break;
    case RDX_ARGK_BUFFER:
        *req = K_SLOT | K_DTYPE | K_DEVICE;
        *opt |= K_ADDR;
        break;
    case RDX_ARGK_DTYPE:
        *req = K_DTYPE;
        break;
    case RDX_ARGK_SLOT:
        *req = K_SLOT | K_DTYPE;
        break;
    case RDX_ARGK_INTS:
        *req = K_INTS;
        break;
    case RDX_ARGK_REDUCE:
        *req = K_OP | K_AXES;
        break;
    case RDX_ARGK_INDEX:
        *req = K_INDEX;
        break;
    case RDX_ARGK_PLACE:
        *req = 0;
        *opt |= K_DEVICE | K_ADDR;
        break;
    case RDX_ARGK_RANGE:
        *req = K_AXIS | K_TYPE;
        break;
    case RDX_ARGK_VAR:
        *req = K_NAME | K_MIN | K_MAX;
        break;
    case RDX_ARGK_STR:
        *req = K_STR;
        break;
    case RDX_ARGK_STRDTYPE:
        *req = K_STR | K_DTYPE;
        break;
    case RDX_ARGK_BYTES:
        *req = K_BYTES;
        break;
    case RDX_ARGK_VCONST:
        *req = K_DTYPE | K_VALUES;
        break;
    case RDX_ARGK_INS: /* one of the two (checked after the keys) */
        *opt |= K_ASM | K_LABEL;
        break;
    }
}

static void keys_str(unsigned m, char *buf, size_t n)
{
    size_t l = 0;
    buf[0] = 0;
    for (unsigned k = 0; k < sizeof key_names / sizeof *key_names; k++)
        if (m & (1u << k) && l < n)
            l += (size_t)snprintf(buf + l, n - l, "%s%s", l ? ", " : "", key_names[k]);
}

#define MAX_LIST 4096

static rdx_status parse_node(parser *p, const rdx_uop **out, int32_t *tag_out,
                             const rdx_uop ***srcs_out, size_t *nsrc_out, size_t *scap)
{
    const char *w;
    size_t n = word(p, &w);
    int op = n ? rdx_op_lookup(w, n) : -1;
    if (op < 0) {
        p->pos -= n;
        return perr(p, "expected an op name (ADD, CONST, ...), got '%.*s'", (int)n, w);
    }
    const rdx_opinfo *info = rdx_op_info((rdx_op)op);
    size_t nsrc = 0;
    skip_ws(p);
    while (p->pos < p->len && p->s[p->pos] == '%') {
        const char *nm;
        size_t nl;
        size_t at = p->pos;
        rdx_status st = ref_name(p, &nm, &nl);
        if (st)
            return st;
        named *e = lookup(p, nm, nl);
        if (!e) {
            p->pos = at;
            return perr(p, "'%.*s' is not defined above", (int)nl, nm);
        }
        if (nsrc == *scap) {
            size_t nc = *scap ? *scap * 2 : 16;
            void *np = realloc(*srcs_out, nc * sizeof **srcs_out);
            if (!np)
                return rdx_fail(RDX_ERR_NOMEM, "%s: out of memory", p->file);
            *srcs_out = np;
            *scap = nc;
        }
        (*srcs_out)[nsrc++] = e->u;
        if (!eat(p, ','))
            break;
        skip_ws(p);
        if (p->pos >= p->len || p->s[p->pos] != '%')
            return perr(p, "expected a node name after ','");
    }
    unsigned req, opt, seen = 0;
    schema_keys(info->argk, &req, &opt);
    rdx_uop_arg a = rdx_uop_arg_none();
    int32_t tag = 0;
    int64_t list[MAX_LIST];
    rdx_isa_inst ins; /* an INS's instruction (a points at it until the node is made) */
    const char *value_at = NULL;
    size_t value_pos = 0;
    for (;;) {
        skip_ws(p);
        if (at_end_of_line(p))
            break;
        size_t at = p->pos;
        n = word(p, &w);
        unsigned key = 0;
        for (unsigned k = 0; k < sizeof key_names / sizeof *key_names; k++)
            if (strlen(key_names[k]) == n && !memcmp(key_names[k], w, n))
                key = 1u << k;
        char allowed[256];
        keys_str(req | opt, allowed, sizeof allowed);
        if (!key || !((req | opt) & key)) {
            p->pos = at;
            if (p->s[at] == '%')
                return perr(p, "expected ',' between sources");
            return perr(p, "unexpected '%.*s' for %s (expected %s)", (int)(n ? n : 1), p->s + at,
                        info->name, allowed);
        }
        if (seen & key) {
            p->pos = at;
            return perr(p, "'%.*s' given twice", (int)n, w);
        }
        seen |= key;
        if (!eat(p, '='))
            return perr(p, "expected '=' after '%.*s'", (int)n, w);
        rdx_status st = RDX_OK;
        int64_t iv;
        uint32_t cnt;
        const char *sv;
        size_t sl;
        skip_ws(p);
        switch (key) {
        case K_DTYPE: {
            size_t dat = p->pos;
            n = word(p, &w);
            if (!n)
                return perr(p, "expected a dtype");
            if ((st = rdx_dtype_parse(w, n, &a.dtype))) {
                p->pos = dat;
                return perr(p, "%s", rdx_error_message());
            }
            break;
        }
        case K_VALUE:
            value_at = p->s + p->pos, value_pos = p->pos;
            n = word(p, &w);
            if (!n)
                return perr(p, "expected a number");
            break;
        case K_SLOT:
        case K_INDEX:
        case K_AXIS:
            st = parse_int(p, &a.i);
            break;
        case K_MIN:
            st = parse_int(p, &a.i);
            break;
        case K_MAX:
            st = parse_int(p, &a.j);
            break;
        case K_LABEL:
            st = parse_int(p, &a.i);
            break;
        case K_ASM: {
            size_t sat = p->pos;
            if ((st = parse_string(p, &sv, &sl)))
                return st;
            if ((st = rdx_ins_parse(sv, sl, &ins))) {
                char msg[512];
                snprintf(msg, sizeof msg, "%s", rdx_error_message());
                p->pos = sat;
                return perr(p, "%s", msg);
            }
            a = rdx_uop_arg_ins(&ins);
            break;
        }
        case K_TAG:
            st = parse_int(p, &iv);
            if (!st && (iv < INT32_MIN || iv > INT32_MAX))
                return perr(p, "tag out of range");
            tag = (int32_t)iv;
            break;
        case K_DEVICE: {
            const char *names[64];
            uint32_t nn = 0;
            if (eat(p, '(')) {
                do {
                    if (nn == 64)
                        return perr(p, "more than 64 devices");
                    if ((st = parse_device_name(p, &names[nn++])))
                        return st;
                } while (eat(p, ','));
                if (!eat(p, ')'))
                    return perr(p, "expected ',' or ')' in a device tuple");
            } else if ((st = parse_device_name(p, &names[nn++]))) {
                return st;
            }
            a.device = rdx_ir_device(p->ctx, names, nn);
            if (!a.device)
                return RDX_ERR_NOMEM;
            break;
        }
        case K_ADDR: {
            size_t dat = p->pos;
            n = word(p, &w);
            int found = -1;
            for (int k = RDX_ADDR_GLOBAL; k < RDX_ADDR_COUNT; k++)
                if (strlen(rdx_addrspace_name((rdx_addrspace)k)) == n &&
                    !memcmp(rdx_addrspace_name((rdx_addrspace)k), w, n))
                    found = k;
            if (found < 0) {
                p->pos = dat;
                return perr(p, "expected an address space (global, local, reg)");
            }
            a.addrspace = (uint8_t)found;
            break;
        }
        case K_INTS:
        case K_AXES:
            if ((st = parse_list(p, 0, list, &cnt, MAX_LIST)))
                return st;
            a.ints = rdx_ir_ints(p->ctx, list, cnt);
            a.nints = cnt;
            break;
        case K_VALUES:
            if (!(seen & K_DTYPE))
                return perr(p, "'values' must follow 'dtype'");
            if ((st = parse_list(p, rdx_dtype_is_float(a.dtype), list, &cnt, MAX_LIST)))
                return st;
            for (uint32_t k = 0; k < cnt && rdx_dtype_is_float(a.dtype); k++) {
                double f;
                memcpy(&f, &list[k], sizeof f);
                f = rdx_ir_round_float(a.dtype, f);
                memcpy(&list[k], &f, sizeof f);
            }
            a.ints = rdx_ir_ints(p->ctx, list, cnt);
            a.nints = cnt;
            break;
        case K_OP:
        case K_TYPE: {
            size_t dat = p->pos;
            n = word(p, &w);
            int found = -1, count = key == K_OP ? RDX_RED_COUNT : RDX_AXIS_COUNT;
            for (int k = 0; k < count; k++) {
                const char *nm =
                    key == K_OP ? rdx_redop_name((rdx_redop)k) : rdx_axistype_name((rdx_axistype)k);
                if (strlen(nm) == n && !memcmp(nm, w, n))
                    found = k;
            }
            if (found < 0) {
                p->pos = dat;
                return perr(p, key == K_OP ? "expected a reduce op (ADD, MAX, MUL, MIN)"
                                           : "expected an axis type (GLOBAL, LOCAL, WARP, THREAD, "
                                             "LOOP, REDUCE, GROUP_REDUCE, UPCAST, UNROLL)");
            }
            a.sub = (uint8_t)found;
            break;
        }
        case K_NAME:
        case K_STR:
        case K_BYTES:
            if ((st = parse_string(p, &sv, &sl)))
                return st;
            a.str = rdx_ir_str(p->ctx, sv, sl);
            a.len = (uint32_t)sl;
            if (!a.str)
                return RDX_ERR_NOMEM;
            break;
        }
        if (st)
            return st;
        if (!at_end_of_line(p) && p->s[p->pos] != ' ' && p->s[p->pos] != '\t')
            return perr(p, "expected a space, ';' or end of line after a value");
    }
    if (info->argk == RDX_ARGK_INS && !(seen & K_ASM) == !(seen & K_LABEL))
        return perr(p, "INS takes one of asm=\"...\" (an instruction) or label=N");
    if ((seen & req) != req) {
        char miss[256];
        keys_str(req & ~seen, miss, sizeof miss);
        return perr(p, "%s is missing %s", info->name, miss);
    }
    if (value_at) { /* the CONST value, read by its dtype */
        size_t save = p->pos;
        p->pos = value_pos;
        rdx_status st = rdx_dtype_is_float(a.dtype) ? parse_double(p, &a.f) : parse_int(p, &a.i);
        if (st)
            return st;
        a.f = rdx_ir_round_float(a.dtype, a.f); /* like a C literal: 0.1 read as float32 */
        p->pos = save;
    }
    *tag_out = tag;
    *nsrc_out = nsrc;
    (void)out;
    rdx_status st = rdx_ir_make(p->ctx, (rdx_op)op, *srcs_out, nsrc, &a, tag, out);
    if (st) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", rdx_error_message());
        return rdx_fail(st, "%s:%zu: %s", p->file, p->line, msg);
    }
    return RDX_OK;
}

rdx_status rdx_ir_parse(rdx_ir_ctx *ctx, const char *name, const char *text, size_t len,
                        const rdx_uop ***roots_out, size_t *nroots)
{
    parser p = { 0 };
    p.ctx = ctx;
    p.file = name ? name : "<input>";
    p.s = text;
    p.len = len;
    p.line = 1;
    const rdx_uop **srcs = NULL, **defs = NULL, **roots = NULL;
    size_t scap = 0, ndefs = 0, dcap = 0, nroot = 0;
    int have_return = 0;
    rdx_pmap used = { 0 };
    rdx_status st = RDX_OK;
    while (p.pos < p.len && !st) {
        skip_ws(&p);
        if (!at_end_of_line(&p)) {
            if (have_return) {
                st = perr(&p, "nothing may follow the 'return' line");
                break;
            }
            const char *w;
            size_t at = p.pos;
            size_t n = word(&p, &w);
            if (n == 6 && !memcmp(w, "return", 6)) {
                have_return = 1;
                do {
                    const char *nm;
                    size_t nl;
                    size_t rat = p.pos;
                    if ((st = ref_name(&p, &nm, &nl)))
                        break;
                    named *e = lookup(&p, nm, nl);
                    if (!e) {
                        p.pos = rat;
                        skip_ws(&p);
                        st = perr(&p, "'%.*s' is not defined above", (int)nl, nm);
                        break;
                    }
                    void *np = realloc(roots, (nroot + 1) * sizeof *roots);
                    if (!np) {
                        st = rdx_fail(RDX_ERR_NOMEM, "%s: out of memory", p.file);
                        break;
                    }
                    roots = np;
                    roots[nroot++] = e->u;
                } while (eat(&p, ','));
            } else {
                p.pos = at;
                const char *nm;
                size_t nl;
                if ((st = ref_name(&p, &nm, &nl)))
                    break;
                if (lookup(&p, nm, nl)) {
                    p.pos = at;
                    st = perr(&p, "'%.*s' is already defined", (int)nl, nm);
                    break;
                }
                if (!eat(&p, '=')) {
                    st = perr(&p, "expected '=' after the node name");
                    break;
                }
                const rdx_uop *u;
                int32_t tag;
                size_t nsrc;
                if ((st = parse_node(&p, &u, &tag, &srcs, &nsrc, &scap)))
                    break;
                if ((st = define(&p, nm, nl, u)))
                    break;
                for (size_t k = 0; k < nsrc && !st; k++)
                    st = rdx_pmap_put(&used, srcs[k], srcs[k]);
                if (ndefs == dcap) {
                    void *np = realloc(defs, (dcap = dcap ? dcap * 2 : 64) * sizeof *defs);
                    if (!np) {
                        st = rdx_fail(RDX_ERR_NOMEM, "%s: out of memory", p.file);
                        break;
                    }
                    defs = np;
                }
                defs[ndefs++] = u;
            }
            skip_ws(&p);
            if (!st && !at_end_of_line(&p))
                st = perr(&p, "expected end of line");
        }
        /* skip the comment and the newline */
        while (p.pos < p.len && p.s[p.pos] != '\n')
            p.pos++;
        if (p.pos < p.len) {
            p.pos++;
            p.line++;
            p.line_start = p.pos;
        }
    }
    if (!st && !have_return) {
        for (size_t k = 0; k < ndefs && !st; k++) {
            if (rdx_pmap_get(&used, defs[k]))
                continue;
            void *np = realloc(roots, (nroot + 1) * sizeof *roots);
            if (!np) {
                st = rdx_fail(RDX_ERR_NOMEM, "%s: out of memory", p.file);
                break;
            }
            roots = np;
            roots[nroot++] = defs[k];
            rdx_pmap_put(&used, defs[k], defs[k]); /* duplicates of one node count once */
        }
    }
    if (!st && !nroot)
        st = rdx_fail(RDX_ERR_PARSE, "%s: no nodes", p.file);
    for (size_t k = 0; k < nroot && !st; k++)
        if ((st = rdx_ir_verify(ctx, roots[k])))
            st = rdx_fail_context(st, "%s", p.file);
    for (size_t i = 0; i < p.ncap; i++)
        free(p.names[i].name);
    free(p.names);
    free(p.sbuf);
    free(srcs);
    free(defs);
    rdx_pmap_free(&used);
    if (st) {
        free(roots);
        return st;
    }
    *roots_out = roots;
    *nroots = nroot;
    return RDX_OK;
}
