/* isa/codeobj/msgpack.c — MessagePack encode/decode (msgpack.org specification). */
#include "isa/codeobj/msgpack.h"

#include <inttypes.h>
#include <string.h>
#include <strings.h>

#include "util/error.h"

const char *rdx_msgpack_kind_name(rdx_msgpack_kind k)
{
    switch (k) {
    case RDX_MSGPACK_NIL:
        return "nil";
    case RDX_MSGPACK_BOOL:
        return "boolean";
    case RDX_MSGPACK_INT:
        return "negative integer";
    case RDX_MSGPACK_UINT:
        return "unsigned integer";
    case RDX_MSGPACK_FLOAT:
        return "float";
    case RDX_MSGPACK_STR:
        return "string";
    case RDX_MSGPACK_BIN:
        return "binary";
    case RDX_MSGPACK_ARRAY:
        return "array";
    case RDX_MSGPACK_MAP:
        return "map";
    }
    return "unknown";
}

/* ------------------------------------------------------------- decoder */

typedef struct mp_reader {
    const uint8_t *p;
    size_t len, pos;
    rdx_arena *arena;
    const char *what;
} mp_reader;

static rdx_status mp_need(mp_reader *r, size_t n, const char *item)
{
    if (r->len - r->pos < n)
        return rdx_fail(RDX_ERR_PARSE,
                        "%s: msgpack offset %zu: truncated %s (need %zu bytes, %zu left)", r->what,
                        r->pos, item, n, r->len - r->pos);
    return RDX_OK;
}

static uint64_t mp_be(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

static rdx_status mp_read_be(mp_reader *r, unsigned n, const char *item, uint64_t *v)
{
    rdx_status st = mp_need(r, n, item);
    if (st)
        return st;
    *v = mp_be(r->p + r->pos, n);
    r->pos += n;
    return RDX_OK;
}

static rdx_status mp_decode_node(mp_reader *r, rdx_msgpack_node *n, int depth);

static rdx_status mp_bytes(mp_reader *r, rdx_msgpack_node *n, uint64_t count, bool str)
{
    size_t at = r->pos;
    rdx_status st = mp_need(r, count, str ? "string" : "binary");
    if (st)
        return st;
    if (count > UINT32_MAX)
        return rdx_fail(RDX_ERR_PARSE, "%s: msgpack offset %zu: %s too long", r->what, at,
                        str ? "string" : "binary");
    char *s = rdx_arena_strndup(r->arena, (const char *)r->p + r->pos, (size_t)count);
    if (!s)
        return RDX_ERR_NOMEM;
    n->kind = str ? RDX_MSGPACK_STR : RDX_MSGPACK_BIN;
    n->len = (uint32_t)count;
    if (str)
        n->v.str = s;
    else
        n->v.bin = (const uint8_t *)s;
    r->pos += count;
    return RDX_OK;
}

static rdx_status mp_container(mp_reader *r, rdx_msgpack_node *n, uint64_t count, bool map,
                               int depth, size_t at)
{
    if (depth >= RDX_MSGPACK_MAX_DEPTH)
        return rdx_fail(RDX_ERR_PARSE, "%s: msgpack offset %zu: nesting deeper than %d", r->what,
                        at, RDX_MSGPACK_MAX_DEPTH);
    uint64_t items = map ? count * 2 : count;
    /* Every item takes at least one byte: reject counts the input cannot hold. */
    if (items > r->len - r->pos)
        return rdx_fail(
            RDX_ERR_PARSE, "%s: msgpack offset %zu: %s of %" PRIu64 " %s but only %zu bytes left",
            r->what, at, map ? "map" : "array", count, map ? "pairs" : "items", r->len - r->pos);
    n->kind = map ? RDX_MSGPACK_MAP : RDX_MSGPACK_ARRAY;
    n->len = (uint32_t)count;
    n->v.items = rdx_arena_array(r->arena, (size_t)items, sizeof *n->v.items);
    if (!n->v.items)
        return RDX_ERR_NOMEM;
    for (uint64_t i = 0; i < items; i++) {
        rdx_status st = mp_decode_node(r, &n->v.items[i], depth + 1);
        if (st)
            return st;
    }
    return RDX_OK;
}

static rdx_status mp_decode_node(mp_reader *r, rdx_msgpack_node *n, int depth)
{
    size_t at = r->pos;
    rdx_status st = mp_need(r, 1, "item");
    if (st)
        return st;
    uint8_t c = r->p[r->pos++];
    uint64_t v = 0;
    if (c <= 0x7f) {
        n->kind = RDX_MSGPACK_UINT;
        n->v.u = c;
        return RDX_OK;
    }
    if (c >= 0xe0) {
        n->kind = RDX_MSGPACK_INT;
        n->v.i = (int8_t)c;
        return RDX_OK;
    }
    if ((c & 0xf0) == 0x80)
        return mp_container(r, n, c & 0x0f, true, depth, at);
    if ((c & 0xf0) == 0x90)
        return mp_container(r, n, c & 0x0f, false, depth, at);
    if ((c & 0xe0) == 0xa0)
        return mp_bytes(r, n, c & 0x1f, true);
    switch (c) {
    case 0xc0:
        n->kind = RDX_MSGPACK_NIL;
        return RDX_OK;
    case 0xc2:
    case 0xc3:
        n->kind = RDX_MSGPACK_BOOL;
        n->v.b = c == 0xc3;
        return RDX_OK;
    case 0xc4:
    case 0xc5:
    case 0xc6:
        if ((st = mp_read_be(r, 1u << (c - 0xc4), "binary length", &v)))
            return st;
        return mp_bytes(r, n, v, false);
    case 0xca: {
        if ((st = mp_read_be(r, 4, "float32", &v)))
            return st;
        uint32_t w = (uint32_t)v;
        float f;
        memcpy(&f, &w, 4);
        n->kind = RDX_MSGPACK_FLOAT;
        n->v.f = f;
        return RDX_OK;
    }
    case 0xcb:
        if ((st = mp_read_be(r, 8, "float64", &v)))
            return st;
        n->kind = RDX_MSGPACK_FLOAT;
        memcpy(&n->v.f, &v, 8);
        return RDX_OK;
    case 0xcc:
    case 0xcd:
    case 0xce:
    case 0xcf:
        if ((st = mp_read_be(r, 1u << (c - 0xcc), "unsigned integer", &v)))
            return st;
        n->kind = RDX_MSGPACK_UINT;
        n->v.u = v;
        return RDX_OK;
    case 0xd0:
    case 0xd1:
    case 0xd2:
    case 0xd3: {
        unsigned bytes = 1u << (c - 0xd0);
        if ((st = mp_read_be(r, bytes, "integer", &v)))
            return st;
        int64_t i;
        if (bytes == 8)
            memcpy(&i, &v, 8);
        else if (v >> (bytes * 8 - 1))
            i = (int64_t)(v | ~((UINT64_C(1) << (bytes * 8)) - 1));
        else
            i = (int64_t)v;
        if (i >= 0) {
            n->kind = RDX_MSGPACK_UINT;
            n->v.u = (uint64_t)i;
        } else {
            n->kind = RDX_MSGPACK_INT;
            n->v.i = i;
        }
        return RDX_OK;
    }
    case 0xd9:
    case 0xda:
    case 0xdb:
        if ((st = mp_read_be(r, 1u << (c - 0xd9), "string length", &v)))
            return st;
        return mp_bytes(r, n, v, true);
    case 0xdc:
    case 0xdd:
        if ((st = mp_read_be(r, c == 0xdc ? 2 : 4, "array length", &v)))
            return st;
        return mp_container(r, n, v, false, depth, at);
    case 0xde:
    case 0xdf:
        if ((st = mp_read_be(r, c == 0xde ? 2 : 4, "map length", &v)))
            return st;
        return mp_container(r, n, v, true, depth, at);
    case 0xc1:
        return rdx_fail(RDX_ERR_PARSE, "%s: msgpack offset %zu: byte 0xc1 is never used", r->what,
                        at);
    default: /* 0xc7-0xc9, 0xd4-0xd8: extension types */
        return rdx_fail(RDX_ERR_PARSE,
                        "%s: msgpack offset %zu: extension type (0x%02x) not supported", r->what,
                        at, c);
    }
}

rdx_status rdx_msgpack_decode(const uint8_t *p, size_t len, rdx_arena *arena, const char *what,
                              rdx_msgpack_node **out)
{
    *out = NULL;
    mp_reader r = { p, len, 0, arena, what ? what : "<memory>" };
    rdx_msgpack_node *n = rdx_arena_alloc(arena, sizeof *n);
    if (!n)
        return RDX_ERR_NOMEM;
    rdx_status st = mp_decode_node(&r, n, 0);
    if (st)
        return st;
    if (r.pos != len)
        return rdx_fail(RDX_ERR_PARSE,
                        "%s: msgpack offset %zu: %zu trailing bytes after the document", r.what,
                        r.pos, len - r.pos);
    *out = n;
    return RDX_OK;
}

const rdx_msgpack_node *rdx_msgpack_map_get(const rdx_msgpack_node *m, const char *key)
{
    if (!m || m->kind != RDX_MSGPACK_MAP)
        return NULL;
    size_t kl = strlen(key);
    for (uint32_t i = 0; i < m->len; i++) {
        const rdx_msgpack_node *k = &m->v.items[2 * i];
        if (k->kind == RDX_MSGPACK_STR && k->len == kl && !memcmp(k->v.str, key, kl))
            return &m->v.items[2 * i + 1];
    }
    return NULL;
}

/* ------------------------------------------------------------- encoder */

static rdx_status put_be(rdx_buf *b, uint8_t tag, uint64_t v, unsigned n)
{
    uint8_t tmp[9];
    tmp[0] = tag;
    for (unsigned i = 0; i < n; i++)
        tmp[1 + i] = (uint8_t)(v >> (8 * (n - 1 - i)));
    return rdx_buf_append(b, tmp, 1 + n);
}

rdx_status rdx_msgpack_put_nil(rdx_buf *b)
{
    return rdx_buf_u8(b, 0xc0);
}

rdx_status rdx_msgpack_put_bool(rdx_buf *b, bool v)
{
    return rdx_buf_u8(b, v ? 0xc3 : 0xc2);
}

rdx_status rdx_msgpack_put_uint(rdx_buf *b, uint64_t v)
{
    if (v <= 0x7f)
        return rdx_buf_u8(b, (uint8_t)v);
    if (v <= UINT8_MAX)
        return put_be(b, 0xcc, v, 1);
    if (v <= UINT16_MAX)
        return put_be(b, 0xcd, v, 2);
    if (v <= UINT32_MAX)
        return put_be(b, 0xce, v, 4);
    return put_be(b, 0xcf, v, 8);
}

rdx_status rdx_msgpack_put_int(rdx_buf *b, int64_t v)
{
    if (v >= 0)
        return rdx_msgpack_put_uint(b, (uint64_t)v);
    if (v >= -32)
        return rdx_buf_u8(b, (uint8_t)(int8_t)v);
    if (v >= INT8_MIN)
        return put_be(b, 0xd0, (uint64_t)v & 0xff, 1);
    if (v >= INT16_MIN)
        return put_be(b, 0xd1, (uint64_t)v & 0xffff, 2);
    if (v >= INT32_MIN)
        return put_be(b, 0xd2, (uint64_t)v & 0xffffffff, 4);
    return put_be(b, 0xd3, (uint64_t)v, 8);
}

rdx_status rdx_msgpack_put_float(rdx_buf *b, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, 8);
    return put_be(b, 0xcb, bits, 8);
}

rdx_status rdx_msgpack_put_str_header(rdx_buf *b, size_t n)
{
    if (n > UINT32_MAX)
        return rdx_fail(RDX_ERR_RANGE, "msgpack string of %zu bytes is too long", n);
    if (n <= 31)
        return rdx_buf_u8(b, (uint8_t)(0xa0 | n));
    if (n <= UINT8_MAX)
        return put_be(b, 0xd9, n, 1);
    if (n <= UINT16_MAX)
        return put_be(b, 0xda, n, 2);
    return put_be(b, 0xdb, n, 4);
}

rdx_status rdx_msgpack_put_str(rdx_buf *b, const char *s, size_t n)
{
    rdx_status st = rdx_msgpack_put_str_header(b, n);
    return st ? st : rdx_buf_append(b, s, n);
}

rdx_status rdx_msgpack_put_cstr(rdx_buf *b, const char *s)
{
    return rdx_msgpack_put_str(b, s, strlen(s));
}

rdx_status rdx_msgpack_put_bin(rdx_buf *b, const void *p, size_t n)
{
    rdx_status st;
    if (n > UINT32_MAX)
        return rdx_fail(RDX_ERR_RANGE, "msgpack binary of %zu bytes is too long", n);
    if (n <= UINT8_MAX)
        st = put_be(b, 0xc4, n, 1);
    else if (n <= UINT16_MAX)
        st = put_be(b, 0xc5, n, 2);
    else
        st = put_be(b, 0xc6, n, 4);
    return st ? st : rdx_buf_append(b, p, n);
}

rdx_status rdx_msgpack_put_array(rdx_buf *b, uint32_t count)
{
    if (count <= 15)
        return rdx_buf_u8(b, (uint8_t)(0x90 | count));
    if (count <= UINT16_MAX)
        return put_be(b, 0xdc, count, 2);
    return put_be(b, 0xdd, count, 4);
}

rdx_status rdx_msgpack_put_map(rdx_buf *b, uint32_t pairs)
{
    if (pairs <= 15)
        return rdx_buf_u8(b, (uint8_t)(0x80 | pairs));
    if (pairs <= UINT16_MAX)
        return put_be(b, 0xde, pairs, 2);
    return put_be(b, 0xdf, pairs, 4);
}

rdx_status rdx_msgpack_encode(rdx_buf *b, const rdx_msgpack_node *n)
{
    rdx_status st = RDX_OK;
    switch (n->kind) {
    case RDX_MSGPACK_NIL:
        return rdx_msgpack_put_nil(b);
    case RDX_MSGPACK_BOOL:
        return rdx_msgpack_put_bool(b, n->v.b);
    case RDX_MSGPACK_INT:
        return rdx_msgpack_put_int(b, n->v.i);
    case RDX_MSGPACK_UINT:
        return rdx_msgpack_put_uint(b, n->v.u);
    case RDX_MSGPACK_FLOAT:
        return rdx_msgpack_put_float(b, n->v.f);
    case RDX_MSGPACK_STR:
        return rdx_msgpack_put_str(b, n->v.str, n->len);
    case RDX_MSGPACK_BIN:
        return rdx_msgpack_put_bin(b, n->v.bin, n->len);
    case RDX_MSGPACK_ARRAY:
    case RDX_MSGPACK_MAP: {
        bool map = n->kind == RDX_MSGPACK_MAP;
        st = map ? rdx_msgpack_put_map(b, n->len) : rdx_msgpack_put_array(b, n->len);
        uint64_t items = map ? (uint64_t)n->len * 2 : n->len;
        for (uint64_t i = 0; !st && i < items; i++)
            st = rdx_msgpack_encode(b, &n->v.items[i]);
        return st;
    }
    }
    return rdx_fail(RDX_ERR_INVALID, "msgpack node of unknown kind %d", (int)n->kind);
}

/* ------------------------------------------------------------- YAML printer */

static bool yaml_plain(const char *s, uint32_t len)
{
    if (len == 0)
        return false;
    if (strchr("-?:,[]{}#&*!|>'\"%@` ", s[0]))
        return false;
    for (uint32_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c >= 0x7f || c == '#' || (c == ':' && (i + 1 == len || s[i + 1] == ' ')))
            return false;
        if (c == '*' || c == '&' || c == '!' || c == '\'' || c == '"')
            return false;
    }
    if (s[len - 1] == ' ')
        return false;
    /* Words YAML would read as another type. */
    static const char *const special[] = { "true", "false", "null", "~", "yes",
                                           "no",   "on",    "off",  "y", "n" };
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        if (strlen(special[i]) == len && !strncasecmp(s, special[i], len))
            return false;
    if ((s[0] >= '0' && s[0] <= '9') || s[0] == '+' ||
        (s[0] == '.' && (len == 1 || (s[1] >= '0' && s[1] <= '9'))))
        return false;
    return true;
}

static void yaml_scalar(FILE *f, const rdx_msgpack_node *n)
{
    switch (n->kind) {
    case RDX_MSGPACK_NIL:
        fputs("~", f);
        break;
    case RDX_MSGPACK_BOOL:
        fputs(n->v.b ? "true" : "false", f);
        break;
    case RDX_MSGPACK_INT:
        fprintf(f, "%" PRId64, n->v.i);
        break;
    case RDX_MSGPACK_UINT:
        fprintf(f, "%" PRIu64, n->v.u);
        break;
    case RDX_MSGPACK_FLOAT:
        fprintf(f, "%.17g", n->v.f);
        break;
    case RDX_MSGPACK_STR:
        if (yaml_plain(n->v.str, n->len)) {
            fwrite(n->v.str, 1, n->len, f);
        } else {
            fputc('\'', f);
            for (uint32_t i = 0; i < n->len; i++) {
                unsigned char c = (unsigned char)n->v.str[i];
                if (c == '\'')
                    fputs("''", f);
                else if (c < 0x20 || c == 0x7f)
                    fprintf(f, "\\x%02x", c);
                else
                    fputc(c, f);
            }
            fputc('\'', f);
        }
        break;
    case RDX_MSGPACK_BIN:
        fputs("!!binary '", f);
        for (uint32_t i = 0; i < n->len; i++)
            fprintf(f, "%02x", n->v.bin[i]);
        fputc('\'', f);
        break;
    case RDX_MSGPACK_ARRAY:
        fputs("[]", f);
        break;
    case RDX_MSGPACK_MAP:
        fputs("{}", f);
        break;
    }
}

static bool yaml_block(const rdx_msgpack_node *n)
{
    return (n->kind == RDX_MSGPACK_ARRAY || n->kind == RDX_MSGPACK_MAP) && n->len > 0;
}

/*
 * Print node `n` whose first line continues the current line (after "key:" or
 * "- "); `indent` is the column of nested lines.
 */
static void yaml_node(FILE *f, const rdx_msgpack_node *n, int indent, bool after_dash);

static void yaml_map_entries(FILE *f, const rdx_msgpack_node *n, int indent, bool first_inline)
{
    for (uint32_t i = 0; i < n->len; i++) {
        const rdx_msgpack_node *k = &n->v.items[2 * i], *v = &n->v.items[2 * i + 1];
        if (!(i == 0 && first_inline))
            fprintf(f, "%*s", indent, "");
        yaml_scalar(f, k);
        fputc(':', f);
        if (yaml_block(v)) {
            fputc('\n', f);
            yaml_node(f, v, v->kind == RDX_MSGPACK_ARRAY ? indent + 2 : indent + 2, false);
        } else {
            fputc(' ', f);
            yaml_scalar(f, v);
            fputc('\n', f);
        }
    }
}

static void yaml_node(FILE *f, const rdx_msgpack_node *n, int indent, bool after_dash)
{
    if (n->kind == RDX_MSGPACK_MAP && n->len) {
        yaml_map_entries(f, n, indent, after_dash);
    } else if (n->kind == RDX_MSGPACK_ARRAY && n->len) {
        for (uint32_t i = 0; i < n->len; i++) {
            const rdx_msgpack_node *it = &n->v.items[i];
            if (!(i == 0 && after_dash))
                fprintf(f, "%*s", indent, "");
            fputs("- ", f);
            if (yaml_block(it)) {
                yaml_node(f, it, indent + 2, true);
            } else {
                yaml_scalar(f, it);
                fputc('\n', f);
            }
        }
    } else {
        if (!after_dash)
            fprintf(f, "%*s", indent, "");
        yaml_scalar(f, n);
        fputc('\n', f);
    }
}

void rdx_msgpack_print_yaml(FILE *f, const rdx_msgpack_node *n, int indent)
{
    yaml_node(f, n, indent, false);
}
