/*
 * tests/asm/check_asm_vopd.c — VOPD pair rules (even/odd destinations, VGPR
 * banks, constant bus) per target, against llvm-mc: every line of
 * tests/data/asm/vopd_banks.s is accepted by rdx exactly when llvm-mc accepts
 * it for the target, with llvm-mc's bytes.  (RDNA4 lets two v_dual_mov_b32
 * halves read the same src0 bank; RDNA3 does not.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>
#include <rdx/isa.h>

#include "tests/asm/asm_test.h"
#include "tests/harness/harness.h"

enum { MAX_LINES = 64 };

/* llvm-mc's verdict per line: error lines from stderr, encodings in order from stdout. */
static void check_vopd(const char *target)
{
    const char *path = "tests/data/asm/vopd_banks.s";
    char mcpu[32];
    snprintf(mcpu, sizeof mcpu, "-mcpu=%s", target);
    const char *argv[] = { rdx_test_llvm_tool("llvm-mc"),
                           "-triple=amdgcn-amd-amdhsa",
                           mcpu,
                           "-show-encoding",
                           path,
                           NULL };
    ck_assert_ptr_nonnull(argv[0]);
    rdx_test_proc p;
    ck_assert_int_ge(rdx_test_run(argv, NULL, 0, &p), 0);
    bool bad[MAX_LINES + 1] = { false };
    for (const char *q = p.err; (q = strstr(q, "vopd_banks.s:")); q++) {
        unsigned ln = (unsigned)strtoul(q + strlen("vopd_banks.s:"), NULL, 10);
        ck_assert(ln >= 1 && ln <= MAX_LINES);
        bad[ln] = true;
    }
    char *src = rdx_test_read_file(path, NULL);
    ck_assert_ptr_nonnull(src);
    const rdx_isa_target *t = rdx_isa_target_find(target);
    ck_assert_ptr_nonnull(t);
    const char *enc = p.out;
    unsigned nlines = 0, nok = 0, nrej = 0;
    for (char *line = strtok(src, "\n"); line; line = strtok(NULL, "\n")) {
        nlines++;
        uint8_t out[RDX_ISA_MAX_BYTES];
        size_t len = 0;
        rdx_status st = rdx_asm_assemble_inst(t, line, out, &len);
        if (bad[nlines]) {
            ck_assert_msg(st != RDX_OK, "%s: rdx accepts '%s', llvm-mc rejects it", target, line);
            nrej++;
            continue;
        }
        ck_assert_msg(st == RDX_OK, "%s: rdx rejects '%s' (%s), llvm-mc accepts it", target, line,
                      rdx_error_message());
        enc = strstr(enc, "encoding: [");
        ck_assert_ptr_nonnull(enc);
        enc += strlen("encoding: [");
        for (size_t i = 0; i < len; i++) {
            char *end;
            unsigned long b = strtoul(enc, &end, 16);
            ck_assert_msg(b == out[i], "%s: '%s': byte %zu is 0x%02x, llvm-mc 0x%02lx", target,
                          line, i, out[i], b);
            enc = *end == ',' ? end + 1 : end;
        }
        ck_assert_msg(*enc == ']', "%s: '%s': llvm-mc's encoding is longer", target, line);
        nok++;
    }
    ck_assert_uint_ge(nrej, 1);
    ck_assert_uint_ge(nok, 1);
    printf("%s: %u VOPD pair lines accepted and %u rejected like llvm-mc\n", target, nok, nrej);
    free(src);
    rdx_test_proc_free(&p);
}

START_TEST(vopd_rules_gfx1100)
{
    check_vopd("gfx1100");
}
END_TEST

START_TEST(vopd_rules_gfx1201)
{
    check_vopd("gfx1201");
}
END_TEST

void asm_add_vopd_tests(Suite *s)
{
    TCase *tc = tcase_create("vopd");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, vopd_rules_gfx1100);
    tcase_add_test(tc, vopd_rules_gfx1201);
    suite_add_tcase(s, tc);
}
