/*
 * tests/asm/check_asm_corpus.c — rdx's assembler and disassembler against the
 * llvm-mc oracle corpus (tests/data/isa/<target>.txt: LLVM's bytes and the
 * text llvm-mc prints for them).  For every line: assembling LLVM's text
 * gives LLVM's bytes; printing rdx's decode of LLVM's bytes gives LLVM's
 * text.  Lines that differ must belong to an op listed below with the reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>
#include <rdx/isa.h>

#include "tests/asm/asm_test.h"
#include "tests/harness/harness.h"

typedef struct exception {
    const char *target, *op, *reason;
} exception;

/* Assembly exceptions (text -> bytes): none at present. */
static const exception asm_exceptions[] = {
    { NULL, NULL, NULL },
};

/* Disassembly exceptions (bytes -> text): none at present. */
static const exception dis_exceptions[] = {
    { NULL, NULL, NULL },
};

static bool excepted(const exception *ex, const char *target, const char *text)
{
    char mn[128];
    sscanf(text, "%127s", mn);
    for (size_t i = 0; ex[i].op; i++) {
        size_t n = strlen(ex[i].op);
        if ((strcmp(ex[i].target, "*") && strcmp(ex[i].target, target)) || strncmp(mn, ex[i].op, n))
            continue;
        const char *rest = mn + n;
        if (!*rest || !strcmp(rest, "_e32") || !strcmp(rest, "_e64") || !strcmp(rest, "_dpp") ||
            !strcmp(rest, "_e64_dpp"))
            return true;
    }
    return false;
}

/* Whether corpus line `hexs` (llvm-mc's bytes) breaks an operand rule llvm-mc does not
   enforce (rdx_isa_check: wmma-overlap) and rdx's diagnostic `why` names it: the
   assembler rejects it deliberately (docs/asm.md), counted apart. */
static bool hw_rule_line(const char *target, const char *hexs, const char *why)
{
    uint8_t b[RDX_ISA_MAX_BYTES];
    size_t n = 0;
    for (const char *h = hexs; h[0] && h[1] && n < sizeof b; h += 2)
        b[n++] = (uint8_t)strtoul((char[]){ h[0], h[1], 0 }, NULL, 16);
    const rdx_isa_target *t = rdx_isa_target_find(target);
    rdx_isa_inst in;
    size_t len;
    rdx_isa_rule rule;
    if (!t || rdx_isa_decode(t, b, n, &in, &len) || !rdx_isa_check(t, &in, 0, &rule) ||
        rdx_isa_rule_llvm(rule))
        return false;
    char tag[64];
    snprintf(tag, sizeof tag, "[rule %s]", rdx_isa_rule_name(rule));
    return why && strstr(why, tag);
}

typedef struct corpus {
    char *buf;
    char **hex, **text;
    unsigned *srcline; /* line of each entry in the assembly source we build */
    size_t n;
} corpus;

static void corpus_load(const char *target, corpus *c)
{
    char path[256];
    snprintf(path, sizeof path, "tests/data/isa/%s.txt", target);
    size_t len;
    c->buf = rdx_test_read_file(path, &len);
    size_t cap = 1;
    for (size_t i = 0; i < len; i++)
        cap += c->buf[i] == '\n';
    c->hex = calloc(cap, sizeof *c->hex);
    c->text = calloc(cap, sizeof *c->text);
    c->n = 0;
    for (char *p = c->buf, *e; p && *p; p = e ? e + 1 : NULL) {
        e = strchr(p, '\n');
        if (e)
            *e = 0;
        char *tab = strchr(p, '\t');
        if (*p == '#' || !tab)
            continue;
        *tab = 0;
        c->hex[c->n] = p;
        c->text[c->n] = tab + 1;
        c->n++;
    }
}

static void corpus_free(corpus *c)
{
    free(c->buf);
    free(c->hex);
    free(c->text);
}

static void assemble_corpus(const char *target)
{
    corpus c;
    corpus_load(target, &c);
    ck_assert_uint_gt(c.n, 1000);
    size_t total = 0;
    for (size_t i = 0; i < c.n; i++)
        total += strlen(c.text[i]) + 1;
    char *src = malloc(total + 1), *q = src;
    for (size_t i = 0; i < c.n; i++)
        q += sprintf(q, "%s\n", c.text[i]);
    rdx_asm_options o = { .filename = target, .arch = target };
    rdx_asm_result *r = NULL;
    rdx_asm_assemble(src, (size_t)(q - src), &o, &r);
    ck_assert_ptr_nonnull(r);
    /* Line i+1 of src is corpus entry i. */
    char *ok = calloc(c.n, 1);
    int text = rdx_asm_find_section(r, ".text");
    for (size_t i = 0; i < r->nstmts; i++) {
        const rdx_asm_stmt *s = &r->stmts[i];
        size_t k = s->line - 1;
        char h[2 * RDX_ISA_MAX_BYTES + 1];
        for (size_t b = 0; b < s->size && b < RDX_ISA_MAX_BYTES; b++)
            sprintf(h + 2 * b, "%02x", r->sections[text].data[s->offset + b]);
        h[2 * (s->size < RDX_ISA_MAX_BYTES ? s->size : RDX_ISA_MAX_BYTES)] = 0;
        if (k < c.n && !strcmp(h, c.hex[k]))
            ok[k] = 1;
        else if (k < c.n && !excepted(asm_exceptions, target, c.text[k]))
            ck_abort_msg("%s: '%s' assembles to %s, llvm-mc: %s", target, c.text[k], h, c.hex[k]);
    }
    size_t good = 0, excused = 0, hw = 0;
    for (size_t i = 0; i < c.n; i++) {
        good += ok[i];
        if (!ok[i]) {
            const char *why = NULL;
            for (size_t d = 0; d < r->ndiags; d++)
                if (r->diags[d].line == i + 1)
                    why = r->diags[d].text;
            if (hw_rule_line(target, c.hex[i], why)) {
                hw++;
                continue;
            }
            ck_assert_msg(excepted(asm_exceptions, target, c.text[i]), "%s: '%s' not assembled: %s",
                          target, c.text[i], why ? why : "(wrong bytes)");
            excused++;
        }
    }
    printf("%s: %zu/%zu lines assemble identically (%zu listed exceptions, %zu rejected for a "
           "hardware rule llvm-mc does not enforce)\n",
           target, good, c.n, excused, hw);
    free(ok);
    free(src);
    rdx_asm_free(r);
    corpus_free(&c);
}

static int hexval(int ch)
{
    return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* Collapse runs of spaces in s to one (in place); returns s. */
static char *squeeze(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++)
        if (!(*r == ' ' && w > s && w[-1] == ' '))
            *w++ = *r;
    *w = 0;
    return s;
}

/*
 * One llvm-mc --disassemble run (gfx1100) over code[0..ncode) (file `name` in
 * the temporary directory): every instruction line it prints equals, to the
 * letter, rdx_isa_decode + rdx_asm_print_inst at the same offset.  Returns
 * the number of lines compared; *two those with two spaces in a row.
 */
static size_t prints_as_llvm_mc(const uint8_t *code, size_t ncode, const char *name, size_t *two)
{
    const rdx_isa_target *t = rdx_isa_target_find("gfx1100");
    char *hexin = calloc(ncode + 1, 6), *q = hexin;
    for (size_t b = 0; b < ncode; b++)
        q += sprintf(q, "0x%02x%c", code[b], b % 16 == 15 ? '\n' : ' ');
    char *path = rdx_test_tmp_path(name);
    rdx_test_write_file(path, hexin, (size_t)(q - hexin));
    const char *argv[] = { rdx_test_llvm_tool("llvm-mc"),
                           "-triple=amdgcn-amd-amdhsa",
                           "-mcpu=gfx1100",
                           "--disassemble",
                           path,
                           NULL };
    rdx_test_proc p;
    ck_assert_int_eq(rdx_test_run(argv, NULL, 0, &p), 0);
    char *mc = p.out, *line;
    size_t off = 0, same = 0;
    *two = 0;
    while ((line = strtok_r(mc, "\n", &mc)) != NULL) {
        if (line[0] == '\t' && line[1] == '.') /* .text */
            continue;
        ck_assert_uint_lt(off, ncode);
        rdx_isa_inst in;
        size_t len;
        char out[512];
        ck_assert_int_eq(rdx_isa_decode(t, code + off, ncode - off, &in, &len), RDX_OK);
        ck_assert_int_eq(rdx_asm_print_inst(t, &in, out, sizeof out), RDX_OK);
        ck_assert_str_eq(out, line + 1); /* after llvm-mc's tab */
        *two += strstr(out, "  ") != NULL;
        same++;
        off += len;
    }
    ck_assert_uint_eq(off, ncode);
    rdx_test_proc_free(&p);
    free(path);
    free(hexin);
    return same;
}

/* Exact text (not squeezed) of the corpus's RDNA3 image lines with address
 * lists: llvm-mc --disassemble writes sampler ops in NSA form with two spaces
 * after the mnemonic, rdx must too.  One llvm-mc run over all of them. */
START_TEST(nsa_spacing)
{
    corpus c;
    corpus_load("gfx1100", &c);
    uint8_t *code = calloc(c.n, RDX_ISA_MAX_BYTES);
    size_t ncode = 0, nl = 0, two = 0;
    for (size_t i = 0; i < c.n; i++) {
        if (strncmp(c.text[i], "image_", 6) || !strstr(c.text[i], ", ["))
            continue;
        for (const char *p = c.hex[i]; p[0] && p[1]; p += 2)
            code[ncode++] = (uint8_t)(hexval(p[0]) * 16 + hexval(p[1]));
        nl++;
    }
    ck_assert_uint_ge(nl, 40);
    size_t same = prints_as_llvm_mc(code, ncode, "nsa.hex", &two);
    ck_assert_uint_eq(same, nl);
    ck_assert_uint_gt(two, 0);
    printf("gfx1100: %zu NSA image lines print exactly as llvm-mc (%zu with two spaces)\n", same,
           two);
    free(code);
    corpus_free(&c);
}
END_TEST

/* ds_swizzle_b32 offsets of every kind (random 15-bit values: quad-perm,
 * swap, reverse, broadcast and bitmask modes, masks with and without a
 * spelling of their own) print exactly as llvm-mc --disassemble prints them. */
START_TEST(swizzle_offsets)
{
    enum { N = 400 };
    uint8_t code[8 * N];
    uint32_t seed = 12345;
    for (unsigned i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        uint32_t w0 = 0xd8d40000u | ((seed >> 8) & 0xffffu), w1 = 0x02000001u;
        for (unsigned b = 0; b < 4; b++) {
            code[8 * i + b] = (uint8_t)(w0 >> (8 * b));
            code[8 * i + 4 + b] = (uint8_t)(w1 >> (8 * b));
        }
    }
    size_t two;
    size_t same = prints_as_llvm_mc(code, sizeof code, "swizzle.hex", &two);
    ck_assert_uint_eq(same, N);
    printf("gfx1100: %zu random ds_swizzle_b32 offsets print exactly as llvm-mc\n", same);
}
END_TEST

static void disassemble_corpus(const char *target)
{
    corpus c;
    corpus_load(target, &c);
    const rdx_isa_target *t = rdx_isa_target_find(target);
    ck_assert_ptr_nonnull(t);
    size_t good = 0, excused = 0;
    for (size_t i = 0; i < c.n; i++) {
        uint8_t b[RDX_ISA_MAX_BYTES + 8];
        size_t n = 0;
        for (const char *p = c.hex[i]; p[0] && p[1] && n < sizeof b; p += 2)
            b[n++] = (uint8_t)(hexval(p[0]) * 16 + hexval(p[1]));
        rdx_isa_inst in;
        size_t len;
        char out[512] = "";
        /* The corpus keeps LLVM's text with runs of blanks collapsed (see
           nsa_spacing for the one place LLVM prints two). */
        if (rdx_isa_decode(t, b, n, &in, &len) == RDX_OK &&
            rdx_asm_print_inst(t, &in, out, sizeof out) == RDX_OK &&
            !strcmp(squeeze(out), c.text[i])) {
            good++;
            continue;
        }
        ck_assert_msg(excepted(dis_exceptions, target, c.text[i]),
                      "%s: %s disassembles to '%s', llvm-mc: '%s'", target, c.hex[i], out,
                      c.text[i]);
        excused++;
    }
    printf("%s: %zu/%zu lines disassemble to llvm-mc's text (%zu listed exceptions)\n", target,
           good, c.n, excused);
    corpus_free(&c);
}

/* Every target of the table: its corpus assembles to LLVM's bytes and disassembles to LLVM's text.
 */
START_TEST(assemble_target)
{
    assemble_corpus(rdx_isa_target_at((size_t)_i)->name);
}
END_TEST

START_TEST(disassemble_target)
{
    disassemble_corpus(rdx_isa_target_at((size_t)_i)->name);
}
END_TEST

void asm_add_corpus_tests(Suite *s)
{
    TCase *tc = tcase_create("corpus");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, assemble_target, 0, (int)rdx_isa_target_count());
    tcase_add_loop_test(tc, disassemble_target, 0, (int)rdx_isa_target_count());
    tcase_add_test(tc, nsa_spacing);
    tcase_add_test(tc, swizzle_offsets);
    suite_add_tcase(s, tc);
}
