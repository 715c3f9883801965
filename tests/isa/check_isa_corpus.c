/*
 * tests/isa/check_isa_corpus.c — rdx's decoder and encoder against the llvm-mc
 * oracle corpus (tests/data/isa/<target>.txt, scripts/gen_isa_corpus.py).
 *
 * Every target of isa/targets/targets.txt has a corpus (gfx1100 and gfx1201 up
 * to 24 lines per mnemonic, the others a smaller one covering every mnemonic).
 * For every corpus line: rdx decodes LLVM's bytes to the op LLVM printed, with
 * the same length, and encoding the decoded instruction gives LLVM's bytes back
 * exactly.  Prints "<target>: N/M opcodes round-trip", M being the ops llvm-mc
 * accepted (tests/data/isa/<target>.ops).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/isa.h>

#include "tests/harness/harness.h"
#include "tests/isa/isa_test.h"

/* Ops allowed to fail the round trip, with the reason (none). */
static const struct {
    const char *target, *op, *reason;
} exceptions[] = {
    { NULL, NULL, NULL },
};

/* Ops whose operand list may differ from LLVM's text, with the reason. */
static const struct {
    const char *op, *reason;
} text_exceptions[] = {
    { "v_mov_b16", "LLVM 19 prints true16 register halves (v0.l/v0.h) for v_mov_b16_e32; "
                   "rdx keeps the raw 8-bit VGPR field (v128 = v0.h)" },
    { NULL, NULL },
};

static bool is_text_exception(const char *op)
{
    for (size_t i = 0; op && text_exceptions[i].op; i++)
        if (strcmp(text_exceptions[i].op, op) == 0)
            return true;
    return false;
}

static bool is_exception(const char *target, const char *op)
{
    for (size_t i = 0; exceptions[i].op; i++)
        if (strcmp(exceptions[i].target, target) == 0 && strcmp(exceptions[i].op, op) == 0)
            return true;
    return false;
}

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Mnemonic of an LLVM text line, without suffixes, as an op. */
static rdx_isa_op text_op(const char *text)
{
    char m[96];
    size_t n = 0;
    while (text[n] && !isspace((unsigned char)text[n]) && n < sizeof m - 1) {
        m[n] = text[n];
        n++;
    }
    m[n] = 0;
    rdx_isa_op op = RDX_ISA_OP_NONE;
    if (rdx_isa_op_find(m, &op, NULL) != RDX_OK)
        return RDX_ISA_OP_NONE;
    return op;
}

/* Whether rdx's operands are LLVM's printed operands (order, files, numbers, sizes). */
static bool operands_match(const rdx_isa_inst *in, const char *text, char *why, size_t wl)
{
    llvm_opnd lo[16];
    unsigned nx;
    unsigned n = llvm_text_operands(text, lo, 16, &nx);
    if (n != in->nopnd) {
        snprintf(why, wl, "LLVM prints %u operands, rdx has %u", n, in->nopnd);
        return false;
    }
    for (unsigned i = 0; i < n; i++) {
        const rdx_isa_opnd *o = &in->opnd[i];
        bool ok;
        switch (lo[i].kind) {
        case LLVM_SGPR:
        case LLVM_VGPR:
        case LLVM_TTMP: {
            unsigned want = lo[i].kind == LLVM_SGPR   ? RDX_ISA_OPND_SGPR
                            : lo[i].kind == LLVM_VGPR ? RDX_ISA_OPND_VGPR
                                                      : RDX_ISA_OPND_TTMP;
            ok = o->kind == want && o->reg == lo[i].reg && o->count == lo[i].count;
            break;
        }
        case LLVM_SPECIAL:
            ok = o->kind == RDX_ISA_OPND_SPECIAL && o->reg == lo[i].reg &&
                 (lo[i].count == 0 || lo[i].count == o->count);
            break;
        case LLVM_OFF:
            ok = o->kind == RDX_ISA_OPND_OFF;
            break;
        default:
            ok = o->kind == RDX_ISA_OPND_INT || o->kind == RDX_ISA_OPND_FLOAT ||
                 o->kind == RDX_ISA_OPND_LITERAL || o->kind == RDX_ISA_OPND_IMM ||
                 o->kind == RDX_ISA_OPND_BRANCH;
            break;
        }
        if (!ok) {
            snprintf(why, wl, "operand %u: LLVM '%s', rdx kind %d reg %u count %u", i, lo[i].text,
                     o->kind, o->reg, o->count);
            return false;
        }
    }
    return true;
}

static void run_corpus(const char *target)
{
    const rdx_isa_target *t = rdx_isa_target_find(target);
    ck_assert_ptr_nonnull(t);
    char path[256];
    snprintf(path, sizeof path, "tests/data/isa/%s.txt", target);
    char *data = rdx_test_read_file(path, NULL);
    /* per-op status: 0 unseen, 1 all ok, 2 some failure */
    unsigned char *state = calloc(RDX_ISA_OP_COUNT, 1);
    ck_assert_ptr_nonnull(state);
    unsigned char *shown_op = calloc(RDX_ISA_OP_COUNT, 1);
    ck_assert_ptr_nonnull(shown_op);
    unsigned lines = 0, ok_lines = 0, shown = 0, text_bad_lines = 0, text_shown = 0;
    unsigned char *text_bad = calloc(RDX_ISA_OP_COUNT, 1);
    ck_assert_ptr_nonnull(text_bad);
    for (char *line = data; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        if (*line && *line != '#') {
            char *tab = strchr(line, '\t');
            ck_assert_ptr_nonnull(tab);
            uint8_t bytes[RDX_ISA_MAX_BYTES + 4];
            size_t nb = 0;
            for (char *p = line; p + 1 < tab && nb < sizeof bytes; p += 2)
                bytes[nb++] = (uint8_t)(hexval(p[0]) << 4 | hexval(p[1]));
            const char *text = tab + 1;
            rdx_isa_op want = text_op(text);
            const char *ysep = strstr(text, " :: ");
            rdx_isa_op want_y = ysep ? text_op(ysep + 4) : RDX_ISA_OP_NONE;
            lines++;
            rdx_isa_inst in;
            size_t len = 0, elen = 0;
            uint8_t out[RDX_ISA_MAX_BYTES];
            const char *why = NULL;
            char msg[512] = "";
            if (want == RDX_ISA_OP_NONE)
                why = "mnemonic unknown to rdx";
            else if (rdx_isa_decode(t, bytes, nb, &in, &len) != RDX_OK) {
                why = "decode failed";
                snprintf(msg, sizeof msg, "%s", rdx_error_message());
            } else if (in.op != want)
                why = "decoded to another op";
            else if (len != nb)
                why = "decoded length differs";
            else if (rdx_isa_encode(t, &in, out, &elen) != RDX_OK) {
                why = "encode failed";
                snprintf(msg, sizeof msg, "%s", rdx_error_message());
            } else if (elen != nb || memcmp(out, bytes, nb) != 0)
                why = "re-encoded bytes differ";
            bool first_fail = want != RDX_ISA_OP_NONE && why;
            rdx_isa_op both[2] = { want, want_y };
            for (int k = 0; k < 2; k++) {
                if (both[k] == RDX_ISA_OP_NONE)
                    continue;
                if (why)
                    state[both[k]] = 2;
                else if (state[both[k]] == 0)
                    state[both[k]] = 1;
            }
            if (why && shown < 200 && !(want && shown_op[want]) &&
                !(want && is_exception(target, rdx_isa_op_name(want)))) {
                shown++;
                printf("%s: %s: %s [%s] %s\n", target, text, why, line, msg);
            }
            if (first_fail)
                shown_op[want] = 1;
            if (!why)
                ok_lines++;
            char tw[256];
            if (!why && !operands_match(&in, text, tw, sizeof tw)) {
                text_bad_lines++;
                if (want && !text_bad[want]) {
                    text_bad[want] = 1;
                    if (text_shown++ < 60)
                        printf("%s: %s: operands differ: %s\n", target, text, tw);
                }
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    /* M: ops llvm-mc accepts */
    snprintf(path, sizeof path, "tests/data/isa/%s.ops", target);
    char *ops = rdx_test_read_file(path, NULL);
    unsigned m = 0, n = 0, bad_unexcused = 0;
    for (char *line = ops; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        if (*line && *line != '#') {
            m++;
            rdx_isa_op op = text_op(line);
            if (op && state[op] == 1)
                n++;
            else if (!is_exception(target, line)) {
                bad_unexcused++;
                if (bad_unexcused <= 40)
                    printf("%s: op %s does not round-trip\n", target, line);
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    unsigned text_bad_ops = 0;
    for (unsigned i = 0; i < RDX_ISA_OP_COUNT; i++)
        text_bad_ops += text_bad[i];
    printf("%s: %u/%u opcodes round-trip (%u/%u corpus lines)\n", target, n, m, ok_lines, lines);
    printf("%s: operand lists match LLVM's text on %u/%u lines (%u ops differ)\n", target,
           lines - text_bad_lines, lines, text_bad_ops);
    unsigned text_unexcused = 0;
    for (unsigned i = 1; i < RDX_ISA_OP_COUNT; i++)
        if (text_bad[i] && !is_text_exception(rdx_isa_op_name((rdx_isa_op)i)))
            text_unexcused++;
    fflush(stdout);
    free(ops);
    free(state);
    free(shown_op);
    free(text_bad);
    free(data);
    ck_assert_uint_gt(m, 0);
    ck_assert_uint_eq(bad_unexcused, 0);
    ck_assert_uint_eq(text_unexcused, 0);
}

/* Every target of the table has a corpus (gfx1100 and gfx1201 the full one). */
START_TEST(corpus_target)
{
    run_corpus(rdx_isa_target_at((size_t)_i)->name);
}
END_TEST

void isa_add_corpus_tests(Suite *s)
{
    TCase *tc = tcase_create("corpus");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, corpus_target, 0, (int)rdx_isa_target_count());
    suite_add_tcase(s, tc);
}
