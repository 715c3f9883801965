/*
 * tests/isa/check_isa_corpus.c — rdx's decoder and encoder against the llvm-mc
 * oracle corpus (tests/data/isa/<target>.txt, scripts/gen_isa_corpus.py).
 *
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

/* Ops allowed to fail, with the reason (none yet). */
static const struct {
    const char *target, *op, *reason;
} exceptions[] = {
    { NULL, NULL, NULL },
};

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
    unsigned lines = 0, ok_lines = 0, shown = 0;
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
            if (want != RDX_ISA_OP_NONE) {
                if (why)
                    state[want] = 2;
                else if (state[want] == 0)
                    state[want] = 1;
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
    printf("%s: %u/%u opcodes round-trip (%u/%u corpus lines)\n", target, n, m, ok_lines, lines);
    fflush(stdout);
    free(ops);
    free(state);
    free(shown_op);
    free(data);
    ck_assert_uint_gt(m, 0);
    ck_assert_uint_eq(bad_unexcused, 0);
}

START_TEST(corpus_gfx1100)
{
    run_corpus("gfx1100");
}
END_TEST

START_TEST(corpus_gfx1201)
{
    run_corpus("gfx1201");
}
END_TEST

void isa_add_corpus_tests(Suite *s)
{
    TCase *tc = tcase_create("corpus");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, corpus_gfx1100);
    tcase_add_test(tc, corpus_gfx1201);
    suite_add_tcase(s, tc);
}
