/* tests/util/check_util.c — the error slot, growable buffers and file I/O. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/status.h>
#include <rdx/version.h>

#include "tests/harness/harness.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/file.h"
#include "util/scratch.h"

START_TEST(error_message_roundtrip)
{
    rdx_error_clear();
    ck_assert_str_eq(rdx_error_message(), "");
    ck_assert_int_eq(rdx_fail(RDX_ERR_PARSE, "x.s:%d:%d: expected %s", 3, 7, "register"),
                     RDX_ERR_PARSE);
    ck_assert_str_eq(rdx_error_message(), "x.s:3:7: expected register");
    ck_assert_int_eq(rdx_fail_context(RDX_ERR_IO, "loading '%s'", "k.co"), RDX_ERR_IO);
    ck_assert_str_eq(rdx_error_message(), "loading 'k.co': x.s:3:7: expected register");
    ck_assert_int_eq(rdx_fail_errno(RDX_ERR_IO, ENOENT, "open '%s'", "f"), RDX_ERR_IO);
    ck_assert_str_eq(rdx_error_message(), "open 'f': No such file or directory");
    rdx_error_clear();
    ck_assert_str_eq(rdx_error_message(), "");
}
END_TEST

START_TEST(error_message_truncates_safely)
{
    char big[10000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = 0;
    rdx_fail(RDX_ERR_INVALID, "%s", big);
    size_t n = strlen(rdx_error_message());
    ck_assert_uint_gt(n, 1000);
    ck_assert_uint_lt(n, sizeof big);
    rdx_fail_context(RDX_ERR_INVALID, "%s", big);
    ck_assert_uint_lt(strlen(rdx_error_message()), sizeof big);
}
END_TEST

static void *thread_sets_error(void *arg)
{
    (void)arg;
    rdx_fail(RDX_ERR_DEVICE, "from the other thread");
    return NULL;
}

START_TEST(error_message_is_per_thread)
{
    rdx_fail(RDX_ERR_IO, "mine");
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, thread_sets_error, NULL), 0);
    pthread_join(t, NULL);
    ck_assert_str_eq(rdx_error_message(), "mine");
}
END_TEST

START_TEST(status_names)
{
    ck_assert_str_eq(rdx_status_name(RDX_OK), "success");
    ck_assert_str_eq(rdx_status_name(RDX_ERR_NOMEM), "out of memory");
    ck_assert_str_eq(rdx_status_name((rdx_status)999), "unknown status");
    ck_assert_str_eq(rdx_version(), RDX_VERSION_STRING);
}
END_TEST

START_TEST(buf_appends_little_endian)
{
    rdx_buf b = { 0 };
    ck_assert_int_eq(rdx_buf_u8(&b, 0x11), RDX_OK);
    ck_assert_int_eq(rdx_buf_u16(&b, 0x2233), RDX_OK);
    ck_assert_int_eq(rdx_buf_u32(&b, 0x44556677u), RDX_OK);
    ck_assert_int_eq(rdx_buf_u64(&b, 0x8899aabbccddeeffull), RDX_OK);
    const uint8_t want[] = { 0x11, 0x33, 0x22, 0x77, 0x66, 0x55, 0x44, 0xff,
                             0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88 };
    ck_assert_uint_eq(b.len, sizeof want);
    ck_assert_mem_eq(b.data, want, sizeof want);
    rdx_buf_free(&b);
    ck_assert_ptr_null(b.data);
    ck_assert_uint_eq(b.len, 0);
}
END_TEST

START_TEST(buf_printf_grows)
{
    rdx_buf b = { 0 };
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(rdx_buf_printf(&b, "%04d,", i), RDX_OK);
    ck_assert_uint_eq(b.len, 5000);
    ck_assert_mem_eq(b.data + 4995, "0999,", 5);
    ck_assert_int_eq(b.data[b.len], 0);
    rdx_buf_free(&b);
}
END_TEST

START_TEST(file_read_write)
{
    char *path = rdx_test_tmp_path("f.bin");
    const char msg[] = "hello\0world";
    ck_assert_int_eq(rdx_file_write(path, msg, sizeof msg), RDX_OK);
    uint8_t *data;
    size_t len;
    ck_assert_int_eq(rdx_file_read(path, &data, &len), RDX_OK);
    ck_assert_uint_eq(len, sizeof msg);
    ck_assert_mem_eq(data, msg, sizeof msg);
    free(data);

    char *missing = rdx_test_tmp_path("nope/x");
    ck_assert_int_eq(rdx_file_read(missing, &data, &len), RDX_ERR_IO);
    ck_assert_ptr_null(data);
    ck_assert_msg(strstr(rdx_error_message(), "nope/x") && strstr(rdx_error_message(), "No such"),
                  "message: %s", rdx_error_message());
    ck_assert_int_eq(rdx_file_write(missing, msg, 1), RDX_ERR_IO);
    free(missing);
    free(path);
}
END_TEST

/* Scratch memory: a freed block serves the next request of its size class on the thread
   (a warm compiler reuses its memory: util/scratch.h), contents survive growth. */
START_TEST(scratch_reuses_freed_blocks)
{
    unsigned char *p = rdx_scratch_alloc(100000);
    ck_assert_ptr_nonnull(p);
    memset(p, 7, 100000);
    rdx_scratch_free(p);
    void *taken = malloc(99000); /* would take the freed block, were it given back */
    unsigned char *q = rdx_scratch_alloc(90000);
    ck_assert_ptr_eq(q, p);
    ck_assert_ptr_eq(rdx_scratch_realloc(q, 120000), q); /* fits its class: in place */
    q[0] = 42;
    unsigned char *r = rdx_scratch_realloc(q, 300000); /* grows into a larger class */
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(r[0], 42);
    ck_assert_uint_eq(r[99999], 7);
    unsigned char *z = rdx_scratch_calloc(1000, 100);
    ck_assert_ptr_eq(z, p); /* the block r left */
    size_t nonzero = 0;
    for (size_t i = 0; i < 100000; i++)
        nonzero += z[i] != 0;
    ck_assert_uint_eq(nonzero, 0);
    unsigned char *big = rdx_scratch_alloc(5u << 20); /* beyond the classes: plain */
    ck_assert_ptr_nonnull(big);
    big[(5u << 20) - 1] = 1;
    big = rdx_scratch_realloc(big, 6u << 20);
    ck_assert_ptr_nonnull(big);
    ck_assert_uint_eq(big[(5u << 20) - 1], 1);
    rdx_scratch_free(big);
    rdx_scratch_free(z);
    rdx_scratch_free(r);
    rdx_scratch_free(NULL);
    free(taken);
}
END_TEST

/* An arena's blocks outlive it on the thread: the next arena (the next IR context of a
   compile loop) gets the same memory, not fresh pages from the system. */
START_TEST(arena_blocks_reused_by_next_arena)
{
    rdx_arena a = { 0 };
    void *p = rdx_arena_alloc(&a, 100);
    ck_assert_ptr_nonnull(p);
    rdx_arena_free(&a);
    void *taken = malloc(65000); /* fits the freed block: plain malloc hands it out */
    rdx_arena b = { 0 };
    void *q = rdx_arena_alloc(&b, 100);
    ck_assert_ptr_eq(q, p);
    rdx_arena_free(&b);
    free(taken);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("util");
    TCase *tc = tcase_create("util");
    tcase_add_test(tc, error_message_roundtrip);
    tcase_add_test(tc, error_message_truncates_safely);
    tcase_add_test(tc, error_message_is_per_thread);
    tcase_add_test(tc, status_names);
    tcase_add_test(tc, buf_appends_little_endian);
    tcase_add_test(tc, buf_printf_grows);
    tcase_add_test(tc, file_read_write);
    tcase_add_test(tc, scratch_reuses_freed_blocks);
    tcase_add_test(tc, arena_blocks_reused_by_next_arena);
    suite_add_tcase(s, tc);
    return rdx_test_main(s);
}
