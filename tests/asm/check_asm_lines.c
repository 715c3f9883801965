/*
 * tests/asm/check_asm_lines.c — per-target validity against llvm-mc: every
 * line of a file is accepted by rdx exactly when llvm-mc accepts it for the
 * target, with llvm-mc's bytes.
 *   tests/data/asm/vopd_banks.s: VOPD pair rules (even/odd destinations, VGPR
 *     banks, constant bus); RDNA4 lets two v_dual_mov_b32 halves read the same
 *     src0 bank, RDNA3 does not.
 *   tests/data/asm/targets.s: every target of isa-core's table (RDNA3.5's
 *     scalar float ops, RDNA4's waits, DPP forms), selected by
 *     .amdgcn_target and by the --arch option.
 *   tests/data/asm/syntax.s: spellings found by differential testing against
 *     llvm-mc (number bases, expressions and GNU precedence, register names,
 *     inline/literal choice, neg/abs of constants, omitted vcc, split buffer
 *     formats, structured hwreg, *_sat counters, comments, legacy names).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>
#include <rdx/isa.h>

#include "tests/asm/asm_test.h"
#include "tests/harness/harness.h"

enum { MAX_LINES = 512 };

/* llvm-mc's verdict per line: error lines from stderr, encodings in order from stdout. */
static void check_lines(const char *path, const char *target)
{
    const char *base = strrchr(path, '/') + 1;
    char tag[64];
    snprintf(tag, sizeof tag, "%s:", base);
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
    for (const char *q = p.err; (q = strstr(q, tag)); q++) {
        unsigned ln = (unsigned)strtoul(q + strlen(tag), NULL, 10);
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
    ck_assert_uint_ge(nok, 1);
    printf("%s: %s: %u lines accepted and %u rejected like llvm-mc\n", target, base, nok, nrej);
    free(src);
    rdx_test_proc_free(&p);
}

START_TEST(vopd_rules_gfx1100)
{
    check_lines("tests/data/asm/vopd_banks.s", "gfx1100");
}
END_TEST

START_TEST(vopd_rules_gfx1201)
{
    check_lines("tests/data/asm/vopd_banks.s", "gfx1201");
}
END_TEST

START_TEST(syntax_gfx1100)
{
    check_lines("tests/data/asm/syntax.s", "gfx1100");
}
END_TEST

START_TEST(syntax_gfx1201)
{
    check_lines("tests/data/asm/syntax.s", "gfx1201");
}
END_TEST

/* Every target: per-line validity, and the assembler selects it by directive and option. */
START_TEST(every_target)
{
    const rdx_isa_target *t = rdx_isa_target_at((size_t)_i);
    check_lines("tests/data/asm/targets.s", t->name);
    char src[160];
    snprintf(src, sizeof src,
             ".amdgcn_target \"amdgcn-amd-amdhsa--%s\"\nv_add_f32_e64_dpp v0, v1, v2 row_shl:1\n",
             t->name);
    rdx_asm_result *r;
    ck_assert_msg(rdx_asm_assemble(src, strlen(src), NULL, &r) == RDX_OK, "%s: %s", t->name,
                  rdx_error_message());
    ck_assert_str_eq(r->arch, t->name);
    rdx_asm_free(r);
    rdx_asm_options o = { .arch = t->name };
    ck_assert_int_eq(rdx_asm_assemble(src, strlen(src), &o, &r), RDX_OK);
    ck_assert_str_eq(r->arch, t->name);
    rdx_asm_free(r);
}
END_TEST

/* Unknown targets are errors naming the targets rdx knows. */
START_TEST(unknown_target)
{
    const char src[] = ".amdgcn_target \"amdgcn-amd-amdhsa--gfx1300\"\ns_endpgm\n";
    rdx_asm_result *r;
    ck_assert_int_eq(rdx_asm_assemble(src, strlen(src), NULL, &r), RDX_ERR_PARSE);
    ck_assert_uint_eq(r->ndiags, 1);
    ck_assert_msg(strstr(rdx_error_message(), "unsupported target 'gfx1300' (rdx knows gfx1100, "),
                  "%s", rdx_error_message());
    rdx_asm_free(r);
    rdx_asm_options o = { .arch = "gfx90a" };
    ck_assert_int_eq(rdx_asm_assemble(src, strlen(src), &o, &r), RDX_ERR_INVALID);
    ck_assert_ptr_null(r);
    ck_assert_msg(strstr(rdx_error_message(), "unknown target 'gfx90a' (expected gfx1100, "), "%s",
                  rdx_error_message());
}
END_TEST

void asm_add_line_tests(Suite *s)
{
    TCase *tc = tcase_create("lines");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, vopd_rules_gfx1100);
    tcase_add_test(tc, vopd_rules_gfx1201);
    tcase_add_test(tc, syntax_gfx1100);
    tcase_add_test(tc, syntax_gfx1201);
    tcase_add_loop_test(tc, every_target, 0, (int)rdx_isa_target_count());
    tcase_add_test(tc, unknown_target);
    suite_add_tcase(s, tc);
}
