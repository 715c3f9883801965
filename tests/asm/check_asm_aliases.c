/*
 * tests/asm/check_asm_aliases.c — legacy mnemonics (isa/asm/aliases.inc).
 *
 * Every alias, written with the operands of the corpus's line for its
 * canonical op, must assemble to llvm-mc's bytes for that line (the generator
 * kept only aliases llvm-mc encodes that way).  The committed table must be
 * what scripts/gen_asm_aliases.py writes now.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>
#include <rdx/isa.h>

#include "tests/asm/asm_test.h"
#include "tests/harness/harness.h"

typedef struct alias {
    unsigned targets;
    const char *legacy, *canonical;
} alias;

static const alias aliases[] = {
#define ALIAS(targets, legacy, canonical) { targets, legacy, canonical },
#include "isa/asm/aliases.inc"
#undef ALIAS
};

static void check_target(const char *target, unsigned bit)
{
    char path[128];
    snprintf(path, sizeof path, "tests/data/isa/%s.txt", target);
    size_t len;
    char *corpus = rdx_test_read_file(path, &len);
    const rdx_isa_target *t = rdx_isa_target_find(target);
    size_t checked = 0;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        if (!(aliases[i].targets & bit))
            continue;
        /* First corpus line whose mnemonic is canonical[_suffix]. */
        size_t cl = strlen(aliases[i].canonical);
        const char *hit = NULL;
        for (const char *p = corpus; p && *p && !hit; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
            const char *tab = strchr(p, '\t'), *nl = strchr(p, '\n');
            if (!tab || (nl && tab > nl) || strncmp(tab + 1, aliases[i].canonical, cl))
                continue;
            char c = tab[1 + cl];
            if (c == ' ' || c == '\n' || c == '_')
                hit = p;
        }
        ck_assert_msg(hit != NULL, "%s: no corpus line for %s", target, aliases[i].canonical);
        const char *tab = strchr(hit, '\t'), *nl = strchr(hit, '\n');
        char hexb[64] = "", line[512];
        snprintf(hexb, sizeof hexb, "%.*s", (int)(tab - hit), hit);
        snprintf(line, sizeof line, "%s%.*s", aliases[i].legacy, (int)(nl - tab - 1 - cl),
                 tab + 1 + cl);
        uint8_t out[RDX_ISA_MAX_BYTES];
        size_t n;
        ck_assert_msg(rdx_asm_assemble_inst(t, line, out, &n) == RDX_OK, "%s: '%s': %s", target,
                      line, rdx_error_message());
        char got[2 * RDX_ISA_MAX_BYTES + 1];
        for (size_t b = 0; b < n; b++)
            sprintf(got + 2 * b, "%02x", out[b]);
        ck_assert_msg(!strcmp(got, hexb), "%s: '%s' gives %s, llvm-mc %s", target, line, got, hexb);
        checked++;
    }
    printf("%s: %zu legacy mnemonics assemble like llvm-mc\n", target, checked);
    free(corpus);
}

START_TEST(aliases_gfx1100)
{
    check_target("gfx1100", 1);
}
END_TEST

START_TEST(aliases_gfx1201)
{
    check_target("gfx1201", 2);
}
END_TEST

START_TEST(alias_table_up_to_date)
{
    char *out = rdx_test_tmp_path("aliases.inc");
    const char *argv[] = { "python3",   "scripts/gen_asm_aliases.py",
                           "--llvm-mc", rdx_test_llvm_tool("llvm-mc"),
                           "--out",     out,
                           NULL };
    rdx_test_proc p;
    ck_assert_msg(rdx_test_run(argv, NULL, 0, &p) == 0, "generator: %s", p.err);
    rdx_test_proc_free(&p);
    char *fresh = rdx_test_read_file(out, NULL);
    char *committed = rdx_test_read_file("isa/asm/aliases.inc", NULL);
    ck_assert_msg(!strcmp(fresh, committed),
                  "isa/asm/aliases.inc is stale: run 'make asm-aliases' and commit");
    free(fresh);
    free(committed);
    free(out);
}
END_TEST

void asm_add_alias_tests(Suite *s)
{
    TCase *tc = tcase_create("aliases");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, aliases_gfx1100);
    tcase_add_test(tc, aliases_gfx1201);
    tcase_add_test(tc, alias_table_up_to_date);
    suite_add_tcase(s, tc);
}
