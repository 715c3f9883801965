/*
 * tests/isa/isa_llvm_text.c — a small reader of the operand list in llvm-mc's
 * printed text, enough to check that rdx's operand order, register files,
 * register numbers and range sizes are LLVM's (not an assembler: numbers and
 * symbolic immediates are only classified as "not a register").
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/isa/isa_test.h"

static bool is_modifier(const char *tok)
{
    static const char *const bare[] = {
        "glc",  "slc",    "dlc", "gds",   "offen", "idxen",      "clamp",
        "done", "nv",     "lwe", "tfe",   "unorm", "r128",       "a16",
        "d16",  "row_en", "vm",  "compr", "lds",   "row_mirror", "row_half_mirror",
        NULL
    };
    const char *colon = strchr(tok, ':');
    if (colon && !memchr(tok, '[', (size_t)(colon - tok)))
        return true;
    for (size_t i = 0; bare[i]; i++)
        if (strcmp(tok, bare[i]) == 0)
            return true;
    return false;
}

static const struct {
    const char *name;
    unsigned code, count;
} specials[] = {
    { "vcc_lo", 106, 1 },
    { "vcc_hi", 107, 1 },
    { "vcc", 106, 2 },
    { "null", 124, 0 },
    { "m0", 125, 1 },
    { "exec_lo", 126, 1 },
    { "exec_hi", 127, 1 },
    { "exec", 126, 2 },
    { "src_shared_base", 235, 0 },
    { "src_shared_limit", 236, 0 },
    { "src_private_base", 237, 0 },
    { "src_private_limit", 238, 0 },
    { "src_pops_exiting_wave_id", 239, 0 },
    { "vccz", 251, 1 },
    { "execz", 252, 1 },
    { "scc", 253, 1 },
    { "src_scc", 253, 0 },
    { "src_vccz", 251, 0 },
    { "src_execz", 252, 0 },
    { "src_lds_direct", 254, 1 },
    { NULL, 0, 0 },
};

/* Parse "v12" / "v[3:6]" style registers after the prefix. */
static bool parse_reg(const char *p, unsigned *reg, unsigned *count)
{
    char *end;
    if (*p == '[') {
        unsigned a = (unsigned)strtoul(p + 1, &end, 10);
        if (*end != ':')
            return false;
        unsigned b = (unsigned)strtoul(end + 1, &end, 10);
        if (*end != ']' || b < a)
            return false;
        *reg = a;
        *count = b - a + 1;
        return end[1] == '\0';
    }
    if (!isdigit((unsigned char)*p))
        return false;
    *reg = (unsigned)strtoul(p, &end, 10);
    *count = 1;
    return *end == '\0';
}

static void classify(char *tok, llvm_opnd *o)
{
    memset(o, 0, sizeof *o);
    /* strip neg/abs/sext decorations */
    for (;;) {
        size_t n = strlen(tok);
        if (tok[0] == '-' && !isdigit((unsigned char)tok[1]) && tok[1] != '.')
            tok++;
        else if (tok[0] == '|' && n > 1 && tok[n - 1] == '|') {
            tok[n - 1] = 0;
            tok++;
        } else if ((strncmp(tok, "neg(", 4) == 0 || strncmp(tok, "abs(", 4) == 0) &&
                   tok[n - 1] == ')') {
            tok[n - 1] = 0;
            tok += 4;
        } else if (strncmp(tok, "sext(", 5) == 0 && tok[n - 1] == ')') {
            tok[n - 1] = 0;
            tok += 5;
        } else
            break;
    }
    snprintf(o->text, sizeof o->text, "%s", tok);
    unsigned reg, count;
    if (tok[0] == 'v' && parse_reg(tok + 1, &reg, &count)) {
        o->kind = LLVM_VGPR;
    } else if (tok[0] == 's' && parse_reg(tok + 1, &reg, &count)) {
        o->kind = LLVM_SGPR;
    } else if (strncmp(tok, "ttmp", 4) == 0 && parse_reg(tok + 4, &reg, &count)) {
        o->kind = LLVM_TTMP;
    } else if (strcmp(tok, "off") == 0) {
        o->kind = LLVM_OFF;
        return;
    } else {
        for (size_t i = 0; specials[i].name; i++)
            if (strcmp(tok, specials[i].name) == 0) {
                o->kind = LLVM_SPECIAL;
                o->reg = specials[i].code;
                o->count = specials[i].count;
                return;
            }
        o->kind = LLVM_OTHER;
        return;
    }
    o->reg = reg;
    o->count = count;
}

/* Split the operands (after the mnemonic) of one instruction half. */
static unsigned split_half(char *s, llvm_opnd *out, unsigned max)
{
    while (*s && !isspace((unsigned char)*s))
        s++; /* mnemonic */
    char mnem[64];
    size_t ml = 0;
    /* the caller passes the half starting at its mnemonic */
    (void)mnem;
    (void)ml;
    unsigned n = 0;
    char tok[128];
    size_t tl = 0;
    int depth = 0;
    bool mods = false;
    for (char *p = s;; p++) {
        char c = *p;
        bool end = c == '\0';
        if (c == '(' || c == '[')
            depth++;
        if (c == ')' || c == ']')
            depth--;
        if (end || (depth == 0 && (c == ',' || isspace((unsigned char)c)))) {
            if (tl) {
                tok[tl] = 0;
                if (!mods && is_modifier(tok))
                    mods = true;
                if (!mods && n < max) {
                    if (tok[0] == '[') {
                        /* NSA address list: one operand per element */
                        char *q = tok + 1;
                        int d2 = 0;
                        for (char *e = q; *e && n < max; e++) {
                            if (*e == '[')
                                d2++;
                            else if (*e == ']' && d2 > 0)
                                d2--;
                            else if ((*e == ',' && d2 == 0) || (*e == ']' && d2 == 0)) {
                                bool last = *e == ']';
                                *e = 0;
                                while (isspace((unsigned char)*q))
                                    q++;
                                classify(q, &out[n++]);
                                q = e + 1;
                                if (last)
                                    break;
                            }
                        }
                    } else
                        classify(tok, &out[n++]);
                }
                tl = 0;
            }
            if (end)
                break;
            continue;
        }
        if (tl < sizeof tok - 1)
            tok[tl++] = c;
    }
    return n;
}

unsigned llvm_text_operands(const char *text, llvm_opnd *out, unsigned max, unsigned *nx)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", text);
    *nx = 0;
    /* whole-rest operands: counters and dependency lists LLVM prints with spaces */
    static const char *const whole[] = { "s_waitcnt ", "s_delay_alu ", "s_waitcnt_depctr ",
                                         "s_wait_alu ", NULL };
    for (size_t i = 0; whole[i]; i++)
        if (strncmp(buf, whole[i], strlen(whole[i])) == 0) {
            if (max == 0)
                return 0;
            out[0].kind = LLVM_OTHER;
            snprintf(out[0].text, sizeof out[0].text, "%s", buf + strlen(whole[i]));
            return 1;
        }
    char *sep = strstr(buf, " :: ");
    if (sep) {
        *sep = 0;
        unsigned a = split_half(buf, out, max);
        *nx = a;
        return a + split_half(sep + 4, out + a, max - a);
    }
    return split_half(buf, out, max);
}
