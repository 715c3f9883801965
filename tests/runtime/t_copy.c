/* tests/runtime/t_copy.c — SDMA copies and fills of odd sizes and offsets,
 * checked byte by byte against a host memmove of the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "tests/runtime/rt_test.h"

START_TEST(sdma_copies_of_odd_sizes_and_offsets)
{
    rt_fixture f;
    rt_open(&f, 0);
    rdx_queue *q;
    RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COPY, &q));
    const uint64_t total = (9u << 20) + 64;
    rdx_buffer *src, *dst;
    RT_OK(rdx_buffer_alloc(f.dev, total, RDX_MEM_HOST, &src));
    RT_OK(rdx_buffer_alloc(f.dev, total, _i ? RDX_MEM_DEVICE : RDX_MEM_HOST, &dst));
    uint8_t *pattern = malloc(total), *want = malloc(total), *got = malloc(total);
    for (uint64_t i = 0; i < total; i++)
        pattern[i] = (uint8_t)(i * 2654435761u >> 13);
    RT_OK(rdx_buffer_upload(src, 0, pattern, total));
    memset(want, 0, total);
    /* (dst offset, src offset, bytes): single bytes, unaligned heads and tails,
     * a page plus one, and copies split at the 4 MiB packet limit. */
    const uint64_t cases[][3] = { { 0, 0, 1 },
                                  { 3, 1, 1 },
                                  { 1, 7, 13 },
                                  { 17, 0, 4095 },
                                  { 4099, 5, 4097 },
                                  { 9000, 3, 70001 },
                                  { 100001, 1, (4u << 20) + 3 },
                                  { 5u << 20, 64, 4u << 20 } };
    uint64_t last = 0;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        uint64_t d = cases[c][0], s = cases[c][1], n = cases[c][2];
        RT_OK(rdx_queue_copy(q, dst, d, src, s, n, &last));
        memmove(want + d, pattern + s, n);
    }
    RT_OK(rdx_queue_wait(q, last, 10000));
    ck_assert_uint_eq(rdx_queue_completed(q), last);
    RT_OK(rdx_buffer_download(dst, 0, got, total));
    for (uint64_t i = 0; i < total; i++)
        if (got[i] != want[i])
            ck_abort_msg("byte %llu: got %u, want %u", (unsigned long long)i, got[i], want[i]);
    /* Fills: dword pattern at a 4-aligned offset, neighbours untouched. */
    RT_OK(rdx_queue_fill(q, dst, 8, 0xa5a5c3c3u, 4100, &last));
    RT_OK(rdx_queue_wait(q, last, 10000));
    for (uint64_t i = 8; i < 8 + 4100; i += 4) {
        uint32_t v = 0xa5a5c3c3u;
        memcpy(want + i, &v, 4);
    }
    RT_OK(rdx_buffer_download(dst, 0, got, 8192));
    ck_assert_int_eq(memcmp(got, want, 8192), 0);
    free(pattern);
    free(want);
    free(got);
    rdx_buffer_free(src);
    rdx_buffer_free(dst);
    RT_OK(rdx_queue_destroy(q));
    rt_close(&f);
}
END_TEST

START_TEST(copy_errors_name_the_problem)
{
    rt_fixture f;
    rt_open(&f, 0);
    rdx_queue *copy, *compute;
    RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COPY, &copy));
    RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COMPUTE, &compute));
    rdx_buffer *a, *b;
    RT_OK(rdx_buffer_alloc(f.dev, 1000, RDX_MEM_HOST, &a));
    RT_OK(rdx_buffer_alloc(f.dev, 1000, RDX_MEM_HOST, &b));
    ck_assert_int_eq(rdx_queue_copy(compute, a, 0, b, 0, 10, NULL), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "copy queue"));
    ck_assert_int_eq(rdx_queue_copy(copy, a, 0, b, 900, 200, NULL), RDX_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "source"));
    ck_assert_int_eq(rdx_queue_copy(copy, a, 0, b, 0, 0, NULL), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_queue_fill(copy, a, 2, 0, 8, NULL), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_queue_fill(copy, a, 0, 0, 6, NULL), RDX_ERR_INVALID);
    ck_assert_uint_eq(rdx_queue_submitted(copy), 0);
    rdx_buffer_free(a);
    rdx_buffer_free(b);
    RT_OK(rdx_queue_destroy(copy));
    RT_OK(rdx_queue_destroy(compute));
    rt_close(&f);
}
END_TEST

TCase *rt_tcase_copy(void)
{
    TCase *tc = tcase_create("copy");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, sdma_copies_of_odd_sizes_and_offsets, 0, 2);
    tcase_add_test(tc, copy_errors_name_the_problem);
    return tc;
}
