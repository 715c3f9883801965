/*
 * tests/codeobj/t_msgpack.c — MessagePack against byte sequences written by
 * hand from the msgpack.org specification, and the decoder's error paths.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/codeobj/co_test.h"

/* Decode, check the kind, and check that re-encoding gives the same bytes. */
static rdx_msgpack_node *decode_ok(rdx_arena *a, const uint8_t *b, size_t n, const char *what)
{
    rdx_msgpack_node *node;
    ck_assert_msg(rdx_msgpack_decode(b, n, a, what, &node) == RDX_OK, "%s: %s", what,
                  rdx_error_message());
    rdx_buf out = { 0 };
    ck_assert_int_eq(rdx_msgpack_encode(&out, node), RDX_OK);
    ck_assert_msg(out.len == n && !memcmp(out.data, b, n), "%s: re-encoding differs", what);
    rdx_buf_free(&out);
    return node;
}

START_TEST(msgpack_spec_scalars)
{
    rdx_arena a = { 0 };
    rdx_msgpack_node *n;
    n = decode_ok(&a, (const uint8_t[]){ 0x00 }, 1, "fixint 0");
    ck_assert(n->kind == RDX_MSGPACK_UINT && n->v.u == 0);
    n = decode_ok(&a, (const uint8_t[]){ 0x7f }, 1, "fixint 127");
    ck_assert(n->kind == RDX_MSGPACK_UINT && n->v.u == 127);
    n = decode_ok(&a, (const uint8_t[]){ 0xcc, 0x80 }, 2, "uint8 128");
    ck_assert(n->v.u == 128);
    n = decode_ok(&a, (const uint8_t[]){ 0xcd, 0x01, 0x00 }, 3, "uint16 256");
    ck_assert(n->v.u == 256);
    n = decode_ok(&a, (const uint8_t[]){ 0xce, 0x00, 0x01, 0x00, 0x00 }, 5, "uint32");
    ck_assert(n->v.u == 65536);
    n = decode_ok(&a, (const uint8_t[]){ 0xcf, 0, 0, 0, 1, 0, 0, 0, 0 }, 9, "uint64");
    ck_assert(n->v.u == 4294967296ull);
    n = decode_ok(&a, (const uint8_t[]){ 0xff }, 1, "negative fixint -1");
    ck_assert(n->kind == RDX_MSGPACK_INT && n->v.i == -1);
    n = decode_ok(&a, (const uint8_t[]){ 0xe0 }, 1, "negative fixint -32");
    ck_assert(n->v.i == -32);
    n = decode_ok(&a, (const uint8_t[]){ 0xd0, 0xdf }, 2, "int8 -33");
    ck_assert(n->v.i == -33);
    n = decode_ok(&a, (const uint8_t[]){ 0xd1, 0xff, 0x7f }, 3, "int16 -129");
    ck_assert(n->v.i == -129);
    n = decode_ok(&a, (const uint8_t[]){ 0xd2, 0x80, 0, 0, 0 }, 5, "int32 min");
    ck_assert(n->v.i == INT32_MIN);
    n = decode_ok(&a, (const uint8_t[]){ 0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0 }, 9, "int64 min");
    ck_assert(n->v.i == INT64_MIN);
    n = decode_ok(&a, (const uint8_t[]){ 0xc0 }, 1, "nil");
    ck_assert(n->kind == RDX_MSGPACK_NIL);
    n = decode_ok(&a, (const uint8_t[]){ 0xc3 }, 1, "true");
    ck_assert(n->kind == RDX_MSGPACK_BOOL && n->v.b);
    n = decode_ok(&a, (const uint8_t[]){ 0xc2 }, 1, "false");
    ck_assert(n->kind == RDX_MSGPACK_BOOL && !n->v.b);
    n = decode_ok(&a, (const uint8_t[]){ 0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0 }, 9, "float64");
    ck_assert(n->kind == RDX_MSGPACK_FLOAT && n->v.f == 1.5);
    n = decode_ok(&a, (const uint8_t[]){ 0xa3, 'a', 'b', 'c' }, 4, "fixstr");
    ck_assert(n->kind == RDX_MSGPACK_STR && n->len == 3 && !strcmp(n->v.str, "abc"));
    n = decode_ok(&a, (const uint8_t[]){ 0xc4, 0x02, 0xde, 0xad }, 4, "bin8");
    ck_assert(n->kind == RDX_MSGPACK_BIN && n->len == 2 && n->v.bin[1] == 0xad);
    /* float32 decodes (the encoder always writes float64). */
    rdx_msgpack_node *f;
    ck_assert_int_eq(
        rdx_msgpack_decode((const uint8_t[]){ 0xca, 0x3f, 0x80, 0, 0 }, 5, &a, "f32", &f), RDX_OK);
    ck_assert(f->kind == RDX_MSGPACK_FLOAT && f->v.f == 1.0);
    /* Non-negative values in signed formats decode as unsigned. */
    ck_assert_int_eq(rdx_msgpack_decode((const uint8_t[]){ 0xd0, 0x05 }, 2, &a, "int8 5", &f),
                     RDX_OK);
    ck_assert(f->kind == RDX_MSGPACK_UINT && f->v.u == 5);
    rdx_arena_free(&a);
}
END_TEST

START_TEST(msgpack_spec_containers)
{
    rdx_arena a = { 0 };
    /* str8 of 32 bytes: the first length not a fixstr. */
    uint8_t s8[2 + 32] = { 0xd9, 32 };
    memset(s8 + 2, 'x', 32);
    rdx_msgpack_node *n = decode_ok(&a, s8, sizeof s8, "str8");
    ck_assert_uint_eq(n->len, 32);
    /* {"k": [1, -1, "v"], "t": true} */
    static const uint8_t m[] = { 0x82, 0xa1, 'k', 0x93, 0x01, 0xff, 0xa1, 'v', 0xa1, 't', 0xc3 };
    n = decode_ok(&a, m, sizeof m, "map");
    ck_assert(n->kind == RDX_MSGPACK_MAP && n->len == 2);
    const rdx_msgpack_node *k = rdx_msgpack_map_get(n, "k");
    ck_assert(k && k->kind == RDX_MSGPACK_ARRAY && k->len == 3);
    ck_assert(k->v.items[1].kind == RDX_MSGPACK_INT && k->v.items[1].v.i == -1);
    ck_assert_str_eq(k->v.items[2].v.str, "v");
    ck_assert_ptr_null(rdx_msgpack_map_get(n, "missing"));
    ck_assert_ptr_null(rdx_msgpack_map_get(k, "k")); /* not a map */
    /* array16 / map16 headers for 16 entries. */
    uint8_t arr16[3 + 16] = { 0xdc, 0x00, 0x10 };
    n = decode_ok(&a, arr16, sizeof arr16, "array16");
    ck_assert_uint_eq(n->len, 16);
    rdx_arena_free(&a);
}
END_TEST

/* The streaming encoder picks the smallest form, as the specification's examples do. */
START_TEST(msgpack_encoder_forms)
{
    rdx_buf b = { 0 };
    ck_assert_int_eq(rdx_msgpack_put_uint(&b, 127), RDX_OK);
    ck_assert_int_eq(rdx_msgpack_put_uint(&b, 255), RDX_OK);
    ck_assert_int_eq(rdx_msgpack_put_uint(&b, 65535), RDX_OK);
    ck_assert_int_eq(rdx_msgpack_put_uint(&b, 65536), RDX_OK);
    ck_assert_int_eq(rdx_msgpack_put_int(&b, -32), RDX_OK);
    ck_assert_int_eq(rdx_msgpack_put_int(&b, -128), RDX_OK);
    ck_assert_int_eq(rdx_msgpack_put_int(&b, 3), RDX_OK);
    ck_assert_int_eq(rdx_msgpack_put_cstr(&b, ""), RDX_OK);
    ck_assert_int_eq(rdx_msgpack_put_map(&b, 15), RDX_OK);
    ck_assert_int_eq(rdx_msgpack_put_map(&b, 16), RDX_OK);
    ck_assert_int_eq(rdx_msgpack_put_array(&b, 70000), RDX_OK);
    static const uint8_t want[] = { 0x7f, 0xcc, 0xff, 0xcd, 0xff, 0xff, 0xce, 0x00, 0x01,
                                    0x00, 0x00, 0xe0, 0xd0, 0x80, 0x03, 0xa0, 0x8f, 0xde,
                                    0x00, 0x10, 0xdd, 0x00, 0x01, 0x11, 0x70 };
    ck_assert_uint_eq(b.len, sizeof want);
    ck_assert(!memcmp(b.data, want, sizeof want));
    rdx_buf_free(&b);
}
END_TEST

static void decode_fails(const uint8_t *b, size_t n, const char *expect)
{
    rdx_arena a = { 0 };
    rdx_msgpack_node *node = (rdx_msgpack_node *)1;
    rdx_status st = rdx_msgpack_decode(b, n, &a, "note", &node);
    ck_assert_msg(st == RDX_ERR_PARSE, "expected a parse error containing '%s'", expect);
    ck_assert_ptr_null(node);
    ck_assert_msg(strstr(rdx_error_message(), expect), "message '%s' lacks '%s'",
                  rdx_error_message(), expect);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "note: msgpack offset"));
    rdx_arena_free(&a);
}

START_TEST(msgpack_errors)
{
    decode_fails(NULL, 0, "truncated item");
    decode_fails((const uint8_t[]){ 0xa5, 'a' }, 2, "truncated string");
    decode_fails((const uint8_t[]){ 0xcd, 0x01 }, 2, "truncated unsigned integer");
    decode_fails((const uint8_t[]){ 0xc1 }, 1, "0xc1 is never used");
    decode_fails((const uint8_t[]){ 0xd4, 0x01, 0x00 }, 3, "extension type");
    decode_fails((const uint8_t[]){ 0x01, 0x02 }, 2, "trailing bytes");
    decode_fails((const uint8_t[]){ 0xdd, 0xff, 0xff, 0xff, 0xff, 0x00 }, 6, "only 1 bytes left");
    decode_fails((const uint8_t[]){ 0xdf, 0x80, 0x00, 0x00, 0x00 }, 5, "map of 2147483648 pairs");
    decode_fails((const uint8_t[]){ 0x81, 0xa1, 'k' }, 3, "truncated item");
    uint8_t deep[RDX_MSGPACK_MAX_DEPTH + 2];
    memset(deep, 0x91, sizeof deep);
    deep[sizeof deep - 1] = 0x00;
    decode_fails(deep, sizeof deep, "nesting deeper than");
    /* Exactly the maximum depth is fine. */
    rdx_arena a = { 0 };
    rdx_msgpack_node *n;
    ck_assert_int_eq(rdx_msgpack_decode(deep + 2, sizeof deep - 2, &a, "ok", &n), RDX_OK);
    rdx_arena_free(&a);
}
END_TEST

/* Random bytes never crash the decoder; every failure has a message. */
START_TEST(msgpack_random_bytes)
{
    srand(99);
    int ok = 0;
    for (int iter = 0; iter < 20000; iter++) {
        uint8_t b[48];
        size_t n = (size_t)(rand() % 48);
        for (size_t i = 0; i < n; i++)
            b[i] = (uint8_t)(rand() % 4 ? rand() : 0x80 | (rand() & 0x1f));
        rdx_arena a = { 0 };
        rdx_msgpack_node *node;
        rdx_status st = rdx_msgpack_decode(b, n, &a, "rnd", &node);
        if (st == RDX_OK) {
            ok++;
            rdx_buf out = { 0 };
            ck_assert_int_eq(rdx_msgpack_encode(&out, node), RDX_OK);
            rdx_buf_free(&out);
        } else {
            ck_assert_int_eq(st, RDX_ERR_PARSE);
            ck_assert_uint_gt(strlen(rdx_error_message()), 10);
        }
        rdx_arena_free(&a);
    }
    ck_assert_int_gt(ok, 10);
}
END_TEST

TCase *co_tcase_msgpack(void)
{
    TCase *tc = tcase_create("msgpack");
    tcase_add_test(tc, msgpack_spec_scalars);
    tcase_add_test(tc, msgpack_spec_containers);
    tcase_add_test(tc, msgpack_encoder_forms);
    tcase_add_test(tc, msgpack_errors);
    tcase_add_test(tc, msgpack_random_bytes);
    return tc;
}
