/*
 * tests/pm4/malformed.c — malformed streams are reported with their dword
 * offset and never crash; random streams terminate; the rdx pm4 command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/harness/harness.h"
#include "tests/pm4/pm4_tests.h"

/* Disassemble and expect RDX_ERR_PARSE with `msg` in both the message and the text. */
static void expect_parse_error(const uint32_t *dw, size_t n, int sdma, const char *msg)
{
    rdx_pm4_disasm_opts o = { .sdma = sdma };
    char *t = NULL;
    ck_assert_int_eq(rdx_pm4_disasm(dw, n, &o, &t), RDX_ERR_PARSE);
    CHECK_HAS(rdx_error_message(), msg);
    ck_assert_ptr_nonnull(t);
    char line[300];
    snprintf(line, sizeof line, "error: %s", msg);
    CHECK_HAS(t, line);
    free(t);
}

START_TEST(pm4_malformed_streams)
{
    /* truncated: RELEASE_MEM header says 8 dwords, 3 present, after one good packet */
    const uint32_t trunc[] = { 0xc0004600, 0x407, 0xc0064900, 1, 2 };
    expect_parse_error(trunc, 5, 0,
                       "dword 2: RELEASE_MEM packet (0xc0064900) needs 8 dwords, only 3 remain");
    /* type-0 and type-2 headers stop the walk */
    const uint32_t t0[] = { 0x00012e00, 1, 2 };
    expect_parse_error(t0, 3, 0, "dword 0: type-0 packet header 0x00012e00");
    const uint32_t t2[] = { 0xffff1000, 0x80000000 };
    expect_parse_error(t2, 2, 0, "dword 1: type-2 packet header 0x80000000");
    /* unknown opcode is skipped by its count; the next packet still decodes */
    const uint32_t unk[] = { 0xc0010100, 5, 6, 0xc0004600, 0x407 };
    rdx_pm4_disasm_opts o = { 0 };
    char *t = NULL;
    ck_assert_int_eq(rdx_pm4_disasm(unk, 5, &o, &t), RDX_ERR_PARSE);
    CHECK_HAS(rdx_error_message(), "dword 0: unknown PM4 opcode 0x01");
    CHECK_HAS(t, "OPCODE_0x01 count=1");
    CHECK_HAS(t, "EVENT_TYPE=0x7(CS_PARTIAL_FLUSH)");
    free(t);
    /* wrong body length for a fixed layout */
    const uint32_t rel5[] = { 0xc0044900, 1, 2, 3, 4, 5 };
    expect_parse_error(rel5, 6, 0, "dword 0: RELEASE_MEM has 5 body dwords, expected 7");
    const uint32_t ev2[] = { 0xc0014600, 7, 0 };
    expect_parse_error(ev2, 3, 0, "dword 0: EVENT_WRITE has 2 body dwords, expected 1 or 3");
    const uint32_t wd[] = { 0xc0013700, 0x500, 0 };
    expect_parse_error(wd, 3, 0, "dword 0: WRITE_DATA has 2 body dwords, expected more");
    /* register writes outside the SH window */
    const uint32_t sh[] = { 0xc0027600, 0x3ff, 1, 2 };
    expect_parse_error(sh, 4, 0,
                       "dword 0: SET_SH_REG writes registers 0x2fff..0x3000 outside "
                       "[0x2c00, 0x3000)");
    /* the iterator itself: recoverable error keeps going */
    rdx_pm4_iter it;
    rdx_pm4_packet p;
    rdx_pm4_iter_init(&it, rel5, 6, false);
    ck_assert_int_eq(rdx_pm4_iter_next(&it, &p), RDX_ERR_PARSE);
    ck_assert_uint_eq(p.ndw, 6);
    ck_assert(rdx_pm4_iter_done(&it));
    rdx_pm4_iter_init(&it, trunc, 5, false);
    ck_assert_int_eq(rdx_pm4_iter_next(&it, &p), RDX_OK);
    ck_assert_int_eq(rdx_pm4_iter_next(&it, &p), RDX_ERR_PARSE);
    ck_assert_uint_eq(p.ndw, 0);
    ck_assert(rdx_pm4_iter_done(&it));
}
END_TEST

START_TEST(sdma_malformed_streams)
{
    const uint32_t unk[] = { 0x00000006, 1, 0x00000003 };
    expect_parse_error(unk, 3, 1, "dword 2: unknown SDMA packet op 3 sub-op 0");
    const uint32_t sub[] = { 0x00000501 };
    expect_parse_error(sub, 1, 1, "dword 0: unknown SDMA packet op 1 sub-op 5");
    const uint32_t copy[] = { 0x00000001, 3, 0 };
    expect_parse_error(copy, 3, 1, "dword 0: COPY_LINEAR packet needs 7 dwords, only 3 remain");
    const uint32_t wr[] = { 0x00000002, 0x1000, 0, 5, 1, 2 };
    expect_parse_error(wr, 6, 1, "dword 0: WRITE_LINEAR packet needs 10 dwords, only 6 remain");
    const uint32_t wrh[] = { 0x00000002, 0x1000 };
    expect_parse_error(wrh, 2, 1, "dword 0: WRITE_LINEAR packet truncated");
    const uint32_t nop[] = { 0x00050000, 0 };
    expect_parse_error(nop, 2, 1, "dword 0: NOP packet needs 6 dwords, only 2 remain");
}
END_TEST

START_TEST(random_streams_never_crash)
{
    srand(99);
    uint32_t buf[64];
    for (int rep = 0; rep < 3000; rep++) {
        size_t n = (size_t)(rand() % 64);
        for (size_t i = 0; i < n; i++) {
            uint32_t v = (uint32_t)rand() ^ ((uint32_t)rand() << 16);
            /* bias towards plausible headers so deep paths run */
            if (rand() % 3 == 0)
                v = (3u << 30) | ((uint32_t)(rand() % 12) << 16) | ((v & 0xff) << 8);
            if (rand() % 4 == 0)
                v &= 0x00ff00ff;
            buf[i] = v;
        }
        for (int sdma = 0; sdma < 2; sdma++) {
            rdx_pm4_disasm_opts o = { .sdma = sdma };
            char *t = NULL;
            rdx_status st = rdx_pm4_disasm(buf, n, &o, &t);
            ck_assert(st == RDX_OK || st == RDX_ERR_PARSE);
            ck_assert_ptr_nonnull(t);
            free(t);
            rdx_pm4_iter it;
            rdx_pm4_iter_init(&it, buf, n, sdma);
            size_t steps = 0;
            while (!rdx_pm4_iter_done(&it)) {
                rdx_pm4_packet p;
                size_t before = it.pos;
                rdx_pm4_iter_next(&it, &p);
                ck_assert(it.pos > before || it.stopped);
                ck_assert(p.offset + p.ndw <= n);
                ck_assert_uint_le(++steps, n);
            }
        }
    }
}
END_TEST

TCase *pm4_malformed_tcase(void)
{
    TCase *tc = tcase_create("malformed");
    tcase_add_test(tc, pm4_malformed_streams);
    tcase_add_test(tc, sdma_malformed_streams);
    tcase_add_test(tc, random_streams_never_crash);
    return tc;
}

/* ---- rdx pm4 ---------------------------------------------------------- */

static int run_rdx(rdx_test_proc *p, const char *a1, const char *a2, const char *a3, const char *a4)
{
    const char *argv[] = { rdx_test_rdx_path(), "pm4", a1, a2, a3, a4, NULL };
    return rdx_test_run(argv, NULL, 0, p);
}

START_TEST(cli_disassembles_binary_and_hex)
{
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    rdx_pm4_cs_partial_flush(&cb);
    rdx_pm4_signal(&cb, 0x2000, 1, true, 0);
    char *bin = rdx_test_tmp_path("s.bin");
    rdx_test_write_file(bin, cb.dw, cb.len * 4); /* little-endian host */
    rdx_test_proc p;
    ck_assert_int_eq(run_rdx(&p, bin, NULL, NULL, NULL), 0);
    CHECK_HAS(p.out, "[     0]  c0004600  EVENT_WRITE count=0");
    CHECK_HAS(p.out, "RELEASE_MEM count=6");
    CHECK_HAS(p.out, "DATA_SEL=0x2(DATA64)");
    rdx_test_proc_free(&p);
    /* --offset skips the EVENT_WRITE, --base shows addresses of what is shown */
    ck_assert_int_eq(run_rdx(&p, "--offset=8", "--base=0x1000", bin, NULL), 0);
    CHECK_HAS(p.out, "0x0000000000001008  c0064900  RELEASE_MEM");
    ck_assert_ptr_null(strstr(p.out, "EVENT_WRITE"));
    rdx_test_proc_free(&p);
    /* --count cuts the stream: the RELEASE_MEM is then truncated -> exit 1 */
    ck_assert_int_eq(run_rdx(&p, "--count=4", bin, NULL, NULL), 1);
    CHECK_HAS(p.err, "dword 2: RELEASE_MEM packet (0xc0064900) needs 8 dwords, only 2 remain");
    rdx_test_proc_free(&p);

    char *hex = rdx_test_tmp_path("s.hex");
    const char text[] = "# sdma fence then trap\n0x00030005, 0x1000 0\n2a 6 7\n";
    rdx_test_write_file(hex, text, strlen(text));
    ck_assert_int_eq(run_rdx(&p, "--sdma", "--hex", hex, NULL), 0);
    CHECK_HAS(p.out, "FENCE MTYPE=0x3");
    CHECK_HAS(p.out, "DATA=0x2a");
    CHECK_HAS(p.out, "TRAP");
    CHECK_HAS(p.out, "INT_CONTEXT=0x7");
    rdx_test_proc_free(&p);
    free(hex);
    free(bin);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

START_TEST(cli_errors)
{
    rdx_test_proc p;
    ck_assert_int_eq(run_rdx(&p, "--help", NULL, NULL, NULL), 0);
    CHECK_HAS(p.out, "Usage: rdx pm4");
    rdx_test_proc_free(&p);
    ck_assert_int_eq(run_rdx(&p, NULL, NULL, NULL, NULL), 2);
    CHECK_HAS(p.err, "expected one FILE");
    rdx_test_proc_free(&p);
    ck_assert_int_eq(run_rdx(&p, "--offset=3", "x", NULL, NULL), 2);
    rdx_test_proc_free(&p);
    ck_assert_int_eq(run_rdx(&p, "/nonexistent/cb.bin", NULL, NULL, NULL), 1);
    CHECK_HAS(p.err, "/nonexistent/cb.bin");
    rdx_test_proc_free(&p);
    char *odd = rdx_test_tmp_path("odd.bin");
    rdx_test_write_file(odd, "abcde", 5);
    ck_assert_int_eq(run_rdx(&p, odd, NULL, NULL, NULL), 1);
    CHECK_HAS(p.err, "5 bytes is not a whole number of dwords");
    rdx_test_proc_free(&p);
    char *hex = rdx_test_tmp_path("bad.hex");
    rdx_test_write_file(hex, "c0004600\n407 zz\n", 16);
    ck_assert_int_eq(run_rdx(&p, "--hex", hex, NULL, NULL), 1);
    CHECK_HAS(p.err, "bad.hex:2: expected a 32-bit hex dword, found 'zz'");
    rdx_test_proc_free(&p);
    rdx_test_write_file(hex, "123456789\n", 10);
    ck_assert_int_eq(run_rdx(&p, "--hex", hex, NULL, NULL), 1);
    CHECK_HAS(p.err, "bad.hex:1: expected a 32-bit hex dword");
    rdx_test_proc_free(&p);
    free(hex);
    free(odd);
}
END_TEST

TCase *pm4_cli_tcase(void)
{
    TCase *tc = tcase_create("cli");
    tcase_add_test(tc, cli_disassembles_binary_and_hex);
    tcase_add_test(tc, cli_errors);
    return tc;
}
