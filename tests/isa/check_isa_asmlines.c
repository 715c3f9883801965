/*
 * tests/isa/check_isa_asmlines.c — the assembler's regression lines against
 * llvm-mc: every line of tests/data/isa/asm_lines_<family>.s (the classes the
 * randomized differential test found: RDNA4 th/scope names, SMEM bases vcc /
 * exec / null, VOPD K constants and bank rules, scalar f16 literals,
 * s_version expressions, special registers as VALU scalar destinations, ...)
 * must be accepted by rdx exactly when llvm-mc (LLVM 19) accepts it for the
 * target, with llvm-mc's bytes.  One llvm-mc run per target of the table.
 * A line starting with '!' is one llvm-mc accepts but encodes wrongly (docs/asm.md,
 * "Differences from llvm-mc"): rdx must reject it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>
#include <rdx/isa.h>

#include "tests/harness/harness.h"
#include "tests/isa/isa_test.h"

static void hexs(const uint8_t *b, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        out += sprintf(out, "%02x", b[i]);
    *out = 0;
}

START_TEST(asm_lines_as_llvm_mc)
{
    const char *mc = isa_mc_path(19);
    size_t bad = 0;
    for (size_t ti = 0; ti < rdx_isa_target_count(); ti++) {
        const rdx_isa_target *t = rdx_isa_target_at(ti);
        char path[128];
        snprintf(path, sizeof path, "tests/data/isa/asm_lines_%s.s",
                 t->family == RDX_ISA_FAMILY_RDNA3 ? "rdna3" : "rdna4");
        char *src = rdx_test_read_file(path, NULL), *save = src, *l;
        char *lines[1024];
        bool must_reject[1024];
        size_t n = 0;
        while ((l = strtok_r(save, "\n", &save)) != NULL && n < 1024)
            if (l[0] && l[0] != '#') {
                must_reject[n] = l[0] == '!';
                lines[n++] = l + (l[0] == '!');
            }
        ck_assert_uint_gt(n, 10);
        bool ok[1024];
        static uint8_t b[1024][RDX_ISA_MAX_BYTES];
        size_t len[1024];
        isa_mc_assemble_lines(mc, t, lines, n, ok, b, len);
        size_t acc = 0, rej = 0;
        for (size_t i = 0; i < n; i++) {
            uint8_t out[RDX_ISA_MAX_BYTES];
            size_t ol = 0;
            rdx_status st = rdx_asm_assemble_inst(t, lines[i], out, &ol);
            char want[64], got[64];
            hexs(b[i], ok[i] ? len[i] : 0, want);
            hexs(out, st == RDX_OK ? ol : 0, got);
            bool same = ok[i] && !must_reject[i]
                            ? st == RDX_OK && ol == len[i] && !memcmp(out, b[i], ol)
                            : st != RDX_OK;
            if (!same && bad++ < 40)
                printf("%s: '%s': llvm-mc %s, rdx %s\n", t->name, lines[i],
                       ok[i] ? want : "rejects it", st == RDX_OK ? got : rdx_error_message());
            acc += ok[i];
            rej += !ok[i];
        }
        printf("%s: %zu regression lines as llvm-mc (%zu accepted, %zu rejected)\n", t->name, n,
               acc, rej);
        free(src);
    }
    ck_assert_msg(bad == 0, "%zu regression lines differ from llvm-mc", bad);
}
END_TEST

void isa_add_asmlines_tests(Suite *s)
{
    TCase *tc = tcase_create("asmlines");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, asm_lines_as_llvm_mc);
    suite_add_tcase(s, tc);
}
