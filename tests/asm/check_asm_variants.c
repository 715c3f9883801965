/*
 * tests/asm/check_asm_variants.c — spellings beyond the canonical corpus
 * (tests/data/asm/variants_<target>.s: forms chosen without suffixes, source
 * modifiers, floats and literals, symbolic immediates, DPP defaults, memory
 * modifiers, VOPD, NSA lists, swizzles...).  llvm-mc -show-encoding runs once
 * per file; rdx's bytes for every line must equal llvm-mc's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>
#include <rdx/isa.h>

#include "tests/asm/asm_test.h"
#include "tests/harness/harness.h"
#include "util/buf.h"

static void check_variants(const char *target)
{
    char path[128], mcpu[32];
    snprintf(path, sizeof path, "tests/data/asm/variants_%s.s", target);
    snprintf(mcpu, sizeof mcpu, "-mcpu=%s", target);
    const char *mc = rdx_test_llvm_tool("llvm-mc");
    ck_assert_ptr_nonnull(mc);
    const char *argv[] = { mc, "-triple=amdgcn-amd-amdhsa", mcpu, "-show-encoding", path, NULL };
    rdx_test_proc p;
    ck_assert_msg(rdx_test_run(argv, NULL, 0, &p) == 0 && !strstr(p.err, "error"),
                  "llvm-mc rejects %s: %s", path, p.err);
    /* llvm-mc's encodings, in source order. */
    char **enc = calloc(1024, sizeof *enc);
    size_t nenc = 0;
    for (char *q = p.out; (q = strstr(q, "encoding: [")) && nenc < 1024;) {
        q += 11;
        char *e = strchr(q, ']');
        ck_assert_ptr_nonnull(e);
        char *h = calloc(1, (size_t)(e - q) + 1), *w = h;
        for (char *r = q; r < e; r++)
            if (r[0] == '0' && r[1] == 'x')
                r++;
            else if (*r != ',')
                *w++ = *r;
        enc[nenc++] = h;
        q = e;
    }
    size_t len;
    char *src = rdx_test_read_file(path, &len);
    rdx_asm_options o = { .filename = path, .arch = target };
    rdx_asm_result *r = NULL;
    rdx_status st = rdx_asm_assemble(src, len, &o, &r);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    ck_assert_uint_eq(r->nstmts, nenc);
    int text = rdx_asm_find_section(r, ".text"), text_sec = text;
    for (size_t i = 0; i < nenc; i++) {
        const rdx_asm_stmt *s = &r->stmts[i];
        char h[64] = "";
        for (size_t b = 0; b < s->size && b < 24; b++)
            sprintf(h + 2 * b, "%02x", r->sections[text].data[s->offset + b]);
        ck_assert_msg(!strcmp(h, enc[i]), "%s line %u: rdx %s, llvm-mc %s", path, s->line, h,
                      enc[i]);
        free(enc[i]);
    }
    printf("%s: %zu/%zu variant lines assemble like llvm-mc\n", target, nenc, nenc);

    /* rdx's disassembly of those bytes, assembled by llvm-mc, gives the bytes back. */
    const rdx_isa_target *t = rdx_isa_target_find(target);
    rdx_buf printed = { 0 };
    for (size_t i = 0; i < r->nstmts; i++) {
        const rdx_asm_stmt *st2 = &r->stmts[i];
        rdx_isa_inst in;
        size_t l;
        char text[512];
        ck_assert_int_eq(
            rdx_isa_decode(t, r->sections[text_sec].data + st2->offset, st2->size, &in, &l),
            RDX_OK);
        ck_assert_int_eq(rdx_asm_print_inst(t, &in, text, sizeof text), RDX_OK);
        rdx_buf_printf(&printed, "%s\n", text);
    }
    char *ppath = rdx_test_tmp_path("printed.s");
    rdx_test_write_file(ppath, printed.data, printed.len);
    const char *argv2[] = { mc, "-triple=amdgcn-amd-amdhsa", mcpu, "-show-encoding", ppath, NULL };
    rdx_test_proc p2;
    ck_assert_msg(rdx_test_run(argv2, NULL, 0, &p2) == 0 && !strstr(p2.err, "error"),
                  "llvm-mc rejects rdx's disassembly: %s", p2.err);
    size_t k = 0;
    for (char *q = p2.out; (q = strstr(q, "encoding: [")); k++) {
        q += 11;
        char *e = strchr(q, ']'), h[64] = "", *w = h;
        for (char *x = q; x < e && w < h + sizeof h - 2; x++)
            if (x[0] == '0' && x[1] == 'x')
                x++;
            else if (*x != ',')
                *w++ = *x;
        *w = 0;
        ck_assert_uint_lt(k, r->nstmts);
        const rdx_asm_stmt *st2 = &r->stmts[k];
        char want[64] = "";
        for (size_t b = 0; b < st2->size && b < 24; b++)
            sprintf(want + 2 * b, "%02x", r->sections[text_sec].data[st2->offset + b]);
        ck_assert_msg(!strcmp(h, want), "%s: rdx prints line %u so that llvm-mc encodes %s, not %s",
                      target, st2->line, h, want);
        q = e;
    }
    ck_assert_uint_eq(k, r->nstmts);
    printf("%s: rdx's disassembly of the %zu variant lines re-assembles (llvm-mc) to the same "
           "bytes\n",
           target, k);
    rdx_buf_free(&printed);
    rdx_test_proc_free(&p2);
    free(ppath);
    free(enc);
    free(src);
    rdx_asm_free(r);
    rdx_test_proc_free(&p);
}

START_TEST(variants_gfx1100)
{
    check_variants("gfx1100");
}
END_TEST

START_TEST(variants_gfx1201)
{
    check_variants("gfx1201");
}
END_TEST

void asm_add_variant_tests(Suite *s)
{
    TCase *tc = tcase_create("variants");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, variants_gfx1100);
    tcase_add_test(tc, variants_gfx1201);
    suite_add_tcase(s, tc);
}
