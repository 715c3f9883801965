/*
 * tests/pm4/sdma.c — SDMA v6 builders against the public layouts, written out
 * by hand from:
 *   [pkt]  Linux sdma_v6_0_0_pkt_open.h: SDMA_OP_* (NOP 0, COPY 1, WRITE 2,
 *          FENCE 5, TRAP 6, POLL_REGMEM 8, CONST_FILL 11, TIMESTAMP 13),
 *          sub-ops (COPY_LINEAR 0, WRITE_LINEAR 0, TIMESTAMP_GET_GLOBAL 2),
 *          op [7:0], sub_op [15:8], POLL func [30:28], mem_poll [31],
 *          DW5 interval [15:0], retry_count [27:16], fence mtype [18:16],
 *          CONSTANT_FILL fillsize [31:30], NOP count [29:16].
 *   [sdma6] Linux sdma_v6_0.c: emit_copy_buffer (count = bytes - 1, 0
 *          parameter), ring_emit_fence (MTYPE 3), emit_pipeline_sync
 *          (func 3, mem_poll, retry 0xfff, interval 4), ring test (WRITE).
 *   [mesa] Mesa's SDMA constant fill for gfx10+: fill size 2 (dword).
 */
#include <stdlib.h>
#include <string.h>

#include "tests/harness/harness.h"
#include "tests/pm4/pm4_tests.h"

START_TEST(copy_linear_matches_sdma6_copy_buffer)
{
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    ck_assert_int_eq(rdx_sdma_copy_linear(&cb, 0x200000010ull, 0x100000003ull, 13), RDX_OK);
    const uint32_t want[] = { 0x00000001, 12, 0, 0x00000003, 1, 0x00000010, 2 };
    CHECK_DWORDS(&cb, want);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

START_TEST(copy_linear_splits_at_4mib)
{
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    uint64_t bytes = 2 * 0x400000ull + 5;
    ck_assert_int_eq(rdx_sdma_copy_linear(&cb, 0x10000000, 0x20000000, bytes), RDX_OK);
    const uint32_t want[] = {
        1, 0x3fffff,   0, 0x20000000, 0, 0x10000000, 0,          1, 0x3fffff,   0, 0x20400000,
        0, 0x10400000, 0, 1,          4, 0,          0x20800000, 0, 0x10800000, 0,
    };
    CHECK_DWORDS(&cb, want);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

START_TEST(fill_fence_trap_poll_timestamp_write_nop)
{
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    rdx_sdma_const_fill(&cb, 0x3000, 0xabcdabcd, 64);
    rdx_sdma_fence(&cb, 0x500000004ull, 42);
    rdx_sdma_trap(&cb, 7);
    rdx_sdma_poll_mem(&cb, 0x6000, 42, 0xffffffff, RDX_PM4_V_SDMA_FUNC_EQ, 4, 0xfff);
    rdx_sdma_timestamp(&cb, 0x7008);
    uint32_t v = 0xdeadbeef;
    rdx_sdma_write(&cb, 0x8000, &v, 1);
    rdx_sdma_nop(&cb, 1);
    rdx_sdma_nop(&cb, 4);
    const uint32_t want[] = {
        0x8000000b, 0x3000, 0,   0xabcdabcd, 63, /* fill: op 11, fillsize 2 << 30 */
        0x00030005, 0x4,    0x5, 42,             /* fence: op 5, mtype 3 << 16 */
        0x00000006, 7,                           /* trap */
        0xb0000008, 0x6000, 0,   42,         0xffffffff, 0x0fff0004, /* poll: (3<<28)|(1<<31)|8 */
        0x0000020d, 0x7008, 0,                           /* timestamp get global: 13 | 2 << 8 */
        0x00000002, 0x8000, 0,   0,          0xdeadbeef, /* write linear, count - 1 = 0 */
        0x00000000,                                      /* nop, count 0 */
        0x00030000, 0,      0,   0,                      /* nop, count 3 << 16 */
    };
    CHECK_DWORDS(&cb, want);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

START_TEST(sdma_argument_errors)
{
    rdx_pm4_cmdbuf cb;
    uint32_t v = 0;
#define TRY(call, needle)                          \
    do {                                           \
        rdx_pm4_cmdbuf_init(&cb);                  \
        ck_assert_int_eq((call), RDX_ERR_INVALID); \
        CHECK_HAS(rdx_error_message(), needle);    \
        ck_assert_uint_eq(cb.len, 0);              \
        rdx_pm4_cmdbuf_free(&cb);                  \
    } while (0)
    TRY(rdx_sdma_copy_linear(&cb, 0, 0, 0), "bytes = 0");
    TRY(rdx_sdma_const_fill(&cb, 0x1000, 0, 6), "bytes = 6");
    TRY(rdx_sdma_const_fill(&cb, 0x1002, 0, 8), "dst = 4098");
    TRY(rdx_sdma_fence(&cb, 0x1001, 0), "addr = 4097");
    TRY(rdx_sdma_trap(&cb, 1u << 28), "int_context");
    TRY(rdx_sdma_poll_mem(&cb, 0x1000, 0, 0, 7, 0, 0), "func = 7");
    TRY(rdx_sdma_poll_mem(&cb, 0x1000, 0, 0, 3, 0, 0x1000), "retry_count");
    TRY(rdx_sdma_timestamp(&cb, 0x1004), "8-byte aligned");
    TRY(rdx_sdma_write(&cb, 0x1000, &v, 0), "n = 0");
    TRY(rdx_sdma_nop(&cb, 0), "ndw = 0");
#undef TRY
}
END_TEST

/* Issue 2.1: a byte count within 4 MiB of 2^64 wrapped the packet count
 * (bytes + 4 MiB - 1) to 0.  On an empty buffer the call then returned OK
 * having emitted nothing (and offset a null pointer); on a buffer holding
 * anything the split loop wrote 2^42 packets past its end. */
START_TEST(sdma_sizes_near_2_64_are_errors)
{
    static const uint64_t huge[] = { UINT64_MAX, UINT64_MAX - 3, UINT64_MAX - 0x3ffffc,
                                     (1ull << 48) + 4, 1ull << 63 };
    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++) {
        for (int filled = 0; filled < 2; filled++) {
            rdx_pm4_cmdbuf cb;
            rdx_pm4_cmdbuf_init(&cb);
            if (filled)
                ck_assert_int_eq(rdx_sdma_nop(&cb, 1), RDX_OK);
            size_t len0 = cb.len;
            ck_assert_int_eq(rdx_sdma_copy_linear(&cb, 0x1000, 0x2000, huge[i]), RDX_ERR_INVALID);
            CHECK_HAS(rdx_error_message(), "rdx_sdma_copy_linear: bytes = ");
            ck_assert_uint_eq(cb.len, len0);
            rdx_pm4_cmdbuf_reset(&cb);
            if (filled)
                ck_assert_int_eq(rdx_sdma_nop(&cb, 1), RDX_OK);
            ck_assert_int_eq(rdx_sdma_const_fill(&cb, 0x1000, 7, huge[i] & ~3ull), RDX_ERR_INVALID);
            CHECK_HAS(rdx_error_message(), "rdx_sdma_const_fill: bytes = ");
            ck_assert_uint_eq(cb.len, len0);
            rdx_pm4_cmdbuf_free(&cb);
        }
    }
}
END_TEST

/* A range that runs past 2^64 names no memory: an error naming the address. */
START_TEST(sdma_ranges_wrapping_2_64_are_errors)
{
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    ck_assert_int_eq(rdx_sdma_copy_linear(&cb, UINT64_MAX - 15, 0x1000, 32), RDX_ERR_INVALID);
    CHECK_HAS(rdx_error_message(), "dst = 0xfffffffffffffff0 with bytes = 32 wraps past 2^64");
    rdx_pm4_cmdbuf_reset(&cb);
    ck_assert_int_eq(rdx_sdma_copy_linear(&cb, 0x1000, UINT64_MAX, 2), RDX_ERR_INVALID);
    CHECK_HAS(rdx_error_message(), "src = 0xffffffffffffffff with bytes = 2 wraps");
    rdx_pm4_cmdbuf_reset(&cb);
    ck_assert_int_eq(rdx_sdma_const_fill(&cb, UINT64_MAX - 3, 0, 8), RDX_ERR_INVALID);
    CHECK_HAS(rdx_error_message(), "dst = 0xfffffffffffffffc with bytes = 8 wraps");
    ck_assert_uint_eq(cb.len, 0);
    /* the last bytes below 2^64 are a range that still ends at 2^64 */
    rdx_pm4_cmdbuf_reset(&cb);
    ck_assert_int_eq(rdx_sdma_copy_linear(&cb, UINT64_MAX - 15, 0x1000, 16), RDX_OK);
    ck_assert_int_eq(rdx_sdma_const_fill(&cb, UINT64_MAX - 3, 0, 4), RDX_OK);
    ck_assert_uint_eq(cb.len, 12);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

/* The largest count (2^48 bytes, 2^26 packets) is split exactly: built in a
 * fixed buffer too small for it, it is a "buffer full" error, not a wrap. */
START_TEST(sdma_largest_range_is_counted_exactly)
{
    uint32_t mem[16];
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init_fixed(&cb, mem, 16);
    ck_assert_int_eq(rdx_sdma_copy_linear(&cb, 0x1000, 0x2000, 1ull << 48), RDX_ERR_RANGE);
    CHECK_HAS(rdx_error_message(), "469762048 more needed"); /* 2^26 packets of 7 */
    rdx_pm4_cmdbuf_init_fixed(&cb, mem, 16);
    ck_assert_int_eq(rdx_sdma_const_fill(&cb, 0x1000, 0, (1ull << 48) - 4), RDX_ERR_RANGE);
    CHECK_HAS(rdx_error_message(), "335544320 more needed"); /* 2^26 packets of 5 */
    ck_assert_uint_eq(cb.len, 0);
}
END_TEST

/* rdx_sdma_write with no data is an error, not a read of NULL. */
START_TEST(sdma_write_null_data_is_an_error)
{
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    ck_assert_int_eq(rdx_sdma_write(&cb, 0x1000, NULL, 2), RDX_ERR_INVALID);
    CHECK_HAS(rdx_error_message(), "rdx_sdma_write: data");
    ck_assert_uint_eq(cb.len, 0);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

TCase *pm4_sdma_tcase(void)
{
    TCase *tc = tcase_create("sdma");
    tcase_add_test(tc, copy_linear_matches_sdma6_copy_buffer);
    tcase_add_test(tc, copy_linear_splits_at_4mib);
    tcase_add_test(tc, fill_fence_trap_poll_timestamp_write_nop);
    tcase_add_test(tc, sdma_argument_errors);
    tcase_add_test(tc, sdma_sizes_near_2_64_are_errors);
    tcase_add_test(tc, sdma_ranges_wrapping_2_64_are_errors);
    tcase_add_test(tc, sdma_largest_range_is_counted_exactly);
    tcase_add_test(tc, sdma_write_null_data_is_an_error);
    return tc;
}
