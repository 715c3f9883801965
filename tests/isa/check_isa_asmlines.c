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

/*
 * Lines with a 16-bit VGPR operand at v200, one per (op, form, operand) of every
 * VOP1/VOP2/VOPC op in its e32, DPP16 and DPP8 forms, as rdx prints them and
 * again without the encoding suffix: llvm-mc rejects the suffixed e32/DPP
 * ones (those forms reach v0..v127 only) and picks the e64 form for the
 * others; rdx must do the same, byte for byte.
 */
static size_t hi_vgpr16_lines(const rdx_isa_target *t, char ***out)
{
    static const rdx_isa_form forms[] = { RDX_ISA_FORM_E32, RDX_ISA_FORM_DPP16, RDX_ISA_FORM_DPP8 };
    size_t n = 0, cap = 4096;
    char **lines = malloc(cap * sizeof *lines);
    ck_assert_ptr_nonnull(lines);
    for (unsigned op = 1; op < RDX_ISA_OP_COUNT; op++) {
        if (!rdx_isa_op_available(t, (rdx_isa_op)op))
            continue;
        for (size_t fk = 0; fk < sizeof forms / sizeof forms[0]; fk++) {
            const rdx_isa_form_info *fi;
            if (rdx_isa_op_form(t, (rdx_isa_op)op, forms[fk], &fi) != RDX_OK)
                continue;
            for (unsigned s = 0; s < fi->nopnd; s++) {
                const rdx_isa_opnd_info *si = &fi->opnd[s];
                if (si->bits != 16 || !(si->kinds & RDX_ISA_KIND_BIT(RDX_ISA_OPND_VGPR)))
                    continue;
                rdx_isa_inst in;
                memset(&in, 0, sizeof in);
                in.op = (uint16_t)op;
                in.form = (uint8_t)forms[fk];
                in.nopnd = fi->nopnd;
                for (unsigned i = 0; i < fi->nopnd; i++) {
                    const rdx_isa_opnd_info *x = &fi->opnd[i];
                    unsigned cnt =
                        x->bits > 32 && x->fmt != RDX_ISA_FMT_LANEMASK ? x->bits / 32 : 1;
                    if (x->kinds & RDX_ISA_KIND_BIT(RDX_ISA_OPND_VGPR))
                        in.opnd[i] = rdx_isa_vgpr(i == s ? 200 : 2 * i + 2, cnt);
                    else if (x->kinds & RDX_ISA_KIND_BIT(RDX_ISA_OPND_SPECIAL))
                        in.opnd[i] = rdx_isa_special(RDX_ISA_REG_VCC_LO, 1);
                    else
                        in.opnd[i] = rdx_isa_literal(0x1234);
                }
                if (forms[fk] == RDX_ISA_FORM_DPP16) {
                    in.mod[RDX_ISA_MOD_DPP_CTRL] = 0x1b;
                    in.mod[RDX_ISA_MOD_ROW_MASK] = 0xf;
                    in.mod[RDX_ISA_MOD_BANK_MASK] = 0xf;
                }
                if (forms[fk] == RDX_ISA_FORM_DPP8)
                    in.mod[RDX_ISA_MOD_DPP8] = 0xfac688;
                char buf[256];
                ck_assert_int_eq(rdx_asm_print_inst(t, &in, buf, sizeof buf), RDX_OK);
                if (n + 2 > cap) {
                    cap *= 2;
                    lines = realloc(lines, cap * sizeof *lines);
                    ck_assert_ptr_nonnull(lines);
                }
                lines[n++] = strdup(buf);
                /* the same without the _e32 / _dpp suffix */
                char *sp = strchr(buf, ' ');
                size_t ml = sp ? (size_t)(sp - buf) : strlen(buf);
                size_t cut = ml > 4 && !strncmp(buf + ml - 4, "_e32", 4)   ? 4
                             : ml > 4 && !strncmp(buf + ml - 4, "_dpp", 4) ? 4
                                                                           : 0;
                if (cut) {
                    memmove(buf + ml - cut, buf + ml, strlen(buf + ml) + 1);
                    lines[n++] = strdup(buf);
                }
            }
        }
    }
    *out = lines;
    return n;
}

START_TEST(asm_hi_vgpr16_as_llvm_mc)
{
    const char *mc = isa_mc_path(19);
    size_t bad = 0;
    for (size_t ti = 0; ti < rdx_isa_target_count(); ti++) {
        const rdx_isa_target *t = rdx_isa_target_at(ti);
        char **lines;
        size_t n = hi_vgpr16_lines(t, &lines);
        ck_assert_uint_gt(n, 100);
        bool *ok = calloc(n, sizeof *ok);
        uint8_t(*b)[RDX_ISA_MAX_BYTES] = calloc(n, sizeof *b);
        size_t *len = calloc(n, sizeof *len), acc = 0;
        ck_assert(ok && b && len);
        isa_mc_assemble_lines(mc, t, lines, n, ok, b, len);
        for (size_t i = 0; i < n; i++) {
            uint8_t out[RDX_ISA_MAX_BYTES];
            size_t ol = 0;
            rdx_status st = rdx_asm_assemble_inst(t, lines[i], out, &ol);
            bool same =
                ok[i] ? st == RDX_OK && ol == len[i] && !memcmp(out, b[i], ol) : st != RDX_OK;
            if (!same && bad++ < 20) {
                char want[64], got[64];
                hexs(b[i], ok[i] ? len[i] : 0, want);
                hexs(out, st == RDX_OK ? ol : 0, got);
                printf("%s: '%s': llvm-mc %s, rdx %s\n", t->name, lines[i],
                       ok[i] ? want : "rejects it", st == RDX_OK ? got : rdx_error_message());
            }
            acc += ok[i];
            free(lines[i]);
        }
        printf("%s: %zu lines with a 16-bit operand at v200 as llvm-mc (%zu accepted, "
               "%zu rejected)\n",
               t->name, n, acc, n - acc);
        free(lines);
        free(ok);
        free(b);
        free(len);
    }
    ck_assert_msg(bad == 0, "%zu lines with a 16-bit operand above v127 differ from llvm-mc", bad);
}
END_TEST

void isa_add_asmlines_tests(Suite *s)
{
    TCase *tc = tcase_create("asmlines");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, asm_lines_as_llvm_mc);
    tcase_add_test(tc, asm_hi_vgpr16_as_llvm_mc);
    suite_add_tcase(s, tc);
}
