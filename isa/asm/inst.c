/*
 * isa/asm/inst.c — one instruction line: mnemonic, operands (registers,
 * constants, expressions, with -x |x| neg() abs() sext()), modifiers
 * (offset:, glc, op_sel:[..], DPP controls, ...), bound to the op's operand
 * slots for a form, encoded with rdx_isa_encode.  Forms: the mnemonic suffix
 * (_e32/_e64/_dpp/_e64_dpp) when given, else the first of E32/E64 (or the
 * DPP forms when DPP modifiers appear) that encodes.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <rdx/isa.h>

#include "isa/asm/state.h"
#include "isa/asm/syntax.h"
#include "isa/isa_internal.h"
#include "util/error.h"

typedef enum pkind { P_REG, P_INT, P_FLOAT, P_OFF, P_ATTR, P_EXPR } pkind;

/* One parsed operand, before it is bound to a slot. */
typedef struct popnd {
    pkind kind;
    uint8_t file; /* RDX_ISA_OPND_SGPR/VGPR/TTMP/SPECIAL for P_REG */
    uint16_t reg, count;
    int64_t ival;
    double fval;
    bool neg, abs, sext;
    bool lit;        /* lit(N): always a literal dword (LLVM's forced-literal syntax) */
    bool hi;         /* vN.h: high 16-bit half */
    bool from_func;  /* hwreg(...), sendmsg(...): a finished immediate */
    bool from_label; /* computed from labels: llvm-mc encodes a literal, never inline */
    unsigned col;
    const char *expr; /* P_EXPR: expression text (a label not yet defined) */
    bool list_start, list_end;
} popnd;

#define MAX_P 12

typedef struct pinst {
    popnd p[MAX_P];
    unsigned n;
    unsigned nx; /* VOPD: operands of the X half */
    int32_t mod[RDX_ISA_MOD_COUNT];
    bool mod_set[RDX_ISA_MOD_COUNT];
    bool dpp16, dpp8;
    unsigned op_sel_len;                 /* elements written in op_sel:[...] */
    unsigned mod_col[RDX_ISA_MOD_COUNT]; /* where each modifier was written */
    unsigned cur_col;                    /* column of the modifier being parsed */
    uint8_t th_sys; /* RDNA4 th 3 named BYPASS (1: needs SCOPE_SYS) or LU/RT_WB (2: not SYS) */
} pinst;

static inline bool tok_text_is(const rdx_tok *t, const char *s)
{
    if (t->kind != RDX_TOK_IDENT || (t->text[0] | 0x20) != (s[0] | 0x20))
        return false;
    size_t n = __builtin_strlen(s);
    return t->len == n && !strncasecmp(t->text, s, n);
}

/* "v12", "s3", "ttmp4": file and index; false if not a register name. */
static bool reg_name(const char *s, size_t n, unsigned *file, unsigned *idx)
{
    const char *d;
    if (n >= 2 && (s[0] == 'v' || s[0] == 'V')) {
        *file = RDX_ISA_OPND_VGPR;
        d = s + 1;
    } else if (n >= 2 && (s[0] == 's' || s[0] == 'S')) {
        *file = RDX_ISA_OPND_SGPR;
        d = s + 1;
    } else if (n >= 5 && !strncasecmp(s, "ttmp", 4)) {
        *file = RDX_ISA_OPND_TTMP;
        d = s + 4;
    } else {
        return false;
    }
    size_t k = (size_t)(d - s);
    if (k >= n)
        return false;
    unsigned v = 0;
    for (; k < n; k++) {
        if (s[k] < '0' || s[k] > '9' || v > 100000)
            return false;
        v = v * 10 + (unsigned)(s[k] - '0');
    }
    *idx = v;
    return true;
}

static bool file_prefix(const rdx_tok *t, unsigned *file)
{
    if (tok_text_is(t, "v"))
        *file = RDX_ISA_OPND_VGPR;
    else if (tok_text_is(t, "s"))
        *file = RDX_ISA_OPND_SGPR;
    else if (tok_text_is(t, "ttmp"))
        *file = RDX_ISA_OPND_TTMP;
    else
        return false;
    return true;
}

static bool expect(rdx_asm_state *st, rdx_lexer *lx, const char *p, const char *what)
{
    if (!rdx_tok_is(&lx->tok, p)) {
        rdx_asm_error(st, lx->tok.col, "expected %s", what);
        return false;
    }
    rdx_lex_next(lx);
    return true;
}

static bool small_int(rdx_asm_state *st, rdx_lexer *lx, int64_t *v)
{
    return rdx_asm_abs_expr(st, lx, v);
}

/* Parse a register operand at the current token, if it is one. */
static int parse_reg(rdx_asm_state *st, rdx_lexer *lx, popnd *o)
{
    const rdx_tok *t = &lx->tok;
    if (t->kind != RDX_TOK_IDENT)
        return 0;
    unsigned file, idx, code, count;
    rdx_tok peek = rdx_lex_peek(lx);
    if (file_prefix(t, &file) && rdx_tok_is(&peek, "[")) {
        rdx_lex_next(lx);
        rdx_lex_next(lx);
        int64_t lo, hi;
        char nc = rdx_lex_peek_char(lx);
        if (lx->tok.kind == RDX_TOK_INT && !lx->tok.overflow && (nc == ':' || nc == ']')) {
            lo = (int64_t)lx->tok.ival; /* plain numbers: no expression machinery */
            rdx_lex_next(lx);
        } else if (!small_int(st, lx, &lo)) {
            return -1;
        }
        hi = lo;
        if (rdx_tok_is(&lx->tok, ":")) {
            rdx_lex_next(lx);
            nc = rdx_lex_peek_char(lx);
            if (lx->tok.kind == RDX_TOK_INT && !lx->tok.overflow && nc == ']') {
                hi = (int64_t)lx->tok.ival;
                rdx_lex_next(lx);
            } else if (!small_int(st, lx, &hi)) {
                return -1;
            }
        }
        if (!expect(st, lx, "]", "']' to close the register range"))
            return -1;
        if (lo < 0 || hi < lo || hi > 511 || hi - lo > 31) {
            rdx_asm_error(st, o->col, "invalid register range [%lld:%lld]", (long long)lo,
                          (long long)hi);
            return -1;
        }
        o->kind = P_REG;
        o->file = (uint8_t)file;
        o->reg = (uint16_t)lo;
        o->count = (uint16_t)(hi - lo + 1);
        return 1;
    }
    size_t n = t->len;
    /* True16 halves: v1.l is the register, v1.h its high half (v129 in 32-bit encodings). */
    bool hi = false;
    if (n > 2 && t->text[n - 2] == '.' && strchr("lLhH", t->text[n - 1]) &&
        reg_name(t->text, n - 2, &file, &idx) && file == RDX_ISA_OPND_VGPR) {
        hi = t->text[n - 1] == 'h' || t->text[n - 1] == 'H';
        n -= 2;
    }
    if (reg_name(t->text, n, &file, &idx)) {
        o->kind = P_REG;
        o->file = (uint8_t)file;
        o->reg = (uint16_t)idx;
        o->count = 1;
        o->hi = hi;
        rdx_lex_next(lx);
        return 1;
    }
    if (rdx_syntax_special_find(t->text, t->len, &code, &count)) {
        o->kind = P_REG;
        o->file = RDX_ISA_OPND_SPECIAL;
        o->reg = (uint16_t)code;
        o->count = (uint16_t)count;
        rdx_lex_next(lx);
        return 1;
    }
    if (tok_text_is(t, "off")) {
        o->kind = P_OFF;
        rdx_lex_next(lx);
        return 1;
    }
    if (t->len >= 7 && !strncasecmp(t->text, "attr", 4)) {
        const char *dot = memchr(t->text, '.', t->len);
        if (dot && dot + 2 == t->text + t->len && strchr("xyzw", dot[1])) {
            unsigned a = 0;
            for (const char *q = t->text + 4; q < dot; q++) {
                if (*q < '0' || *q > '9')
                    return 0;
                a = a * 10 + (unsigned)(*q - '0');
            }
            o->kind = P_ATTR;
            o->ival = (int64_t)(a * 4 + (unsigned)(strchr("xyzw", dot[1]) - "xyzw"));
            rdx_lex_next(lx);
            return 1;
        }
    }
    return 0;
}

/* A number operand: integer expression or float; `neg` already consumed. */
static bool parse_value(rdx_asm_state *st, rdx_lexer *lx, popnd *o, bool no_bar)
{
    const rdx_tok *t = &lx->tok;
    if (t->kind == RDX_TOK_FLOAT) {
        o->kind = P_FLOAT;
        o->fval = t->fval;
        rdx_lex_next(lx);
        return true;
    }
    if (rdx_tok_is(t, "-")) {
        rdx_tok pk = rdx_lex_peek(lx);
        if (pk.kind == RDX_TOK_FLOAT) {
            rdx_lex_next(lx);
            o->kind = P_FLOAT;
            o->fval = -lx->tok.fval;
            rdx_lex_next(lx);
            return true;
        }
    }
    const char *start = t->text;
    rdx_asm_value v;
    if (!rdx_asm_expr(st, lx, no_bar, &v))
        return false;
    if (!v.resolved || v.section != RDX_ASM_ABS) {
        o->kind = P_EXPR;
        o->expr = start;
        o->ival = v.resolved ? v.v : 0;
        o->file = v.resolved ? 1 : 0; /* resolved section-relative value */
        o->reg = (uint16_t)(v.section < 0 ? 0 : v.section);
        return true;
    }
    o->kind = P_INT;
    o->ival = v.v;
    o->from_label = v.label;
    return true;
}

/* One operand with its source modifiers. */
static bool parse_operand(rdx_asm_state *st, rdx_lexer *lx, popnd *o)
{
    memset(o, 0, sizeof *o);
    o->col = lx->tok.col;
    const rdx_tok *t = &lx->tok;
    /* lit(N): N as a literal dword even when an inline constant could say it, as LLVM 22
       prints and reads it (LLVM 19 accepts the syntax but encodes the inline constant) */
    if (tok_text_is(t, "lit") && t->len == 3) {
        rdx_tok pk = rdx_lex_peek(lx);
        if (rdx_tok_is(&pk, "(")) {
            rdx_lex_next(lx);
            rdx_lex_next(lx);
            if (!parse_operand(st, lx, o))
                return false;
            if (!expect(st, lx, ")", "')'"))
                return false;
            o->lit = true;
            return true;
        }
    }
    /* neg(...), abs(...), sext(...) */
    if ((tok_text_is(t, "neg") || tok_text_is(t, "abs") || tok_text_is(t, "sext"))) {
        rdx_tok pk = rdx_lex_peek(lx);
        if (rdx_tok_is(&pk, "(")) {
            char w = (char)tolower((unsigned char)t->text[0]);
            rdx_lex_next(lx);
            rdx_lex_next(lx);
            if (!parse_operand(st, lx, o))
                return false;
            if (!expect(st, lx, ")", "')'"))
                return false;
            if (w == 'n')
                o->neg = true;
            else if (w == 'a')
                o->abs = true;
            else
                o->sext = true;
            return true;
        }
    }
    if (rdx_tok_is(t, "-")) {
        rdx_tok pk = rdx_lex_peek(lx);
        bool regish = pk.kind == RDX_TOK_IDENT || rdx_tok_is(&pk, "|");
        if (regish) {
            rdx_lexer save = *lx;
            rdx_lex_next(lx);
            popnd inner;
            int r = 0;
            if (rdx_tok_is(&lx->tok, "|") || tok_text_is(&lx->tok, "abs") ||
                tok_text_is(&lx->tok, "neg")) {
                if (!parse_operand(st, lx, &inner))
                    return false;
                r = 1;
            } else {
                inner.col = lx->tok.col;
                memset(&inner, 0, sizeof inner);
                r = parse_reg(st, lx, &inner);
                if (r < 0)
                    return false;
            }
            if (r > 0) {
                *o = inner;
                o->col = save.tok.col;
                o->neg = !o->neg;
                return true;
            }
            *lx = save;
        }
    }
    if (rdx_tok_is(t, "|")) {
        rdx_lex_next(lx);
        int r = parse_reg(st, lx, o);
        if (r < 0)
            return false;
        if (r == 0 && !parse_value(st, lx, o, true))
            return false;
        if (!expect(st, lx, "|", "'|' to close |abs|"))
            return false;
        o->abs = true;
        return true;
    }
    int r = parse_reg(st, lx, o);
    if (r < 0)
        return false;
    if (r > 0)
        return true;
    return parse_value(st, lx, o, false);
}

/* ---- special immediates: waitcnt, hwreg, sendmsg, delay_alu, depctr ---- */

/* *o becomes the finished value of a symbolic immediate (hwreg(...), s_waitcnt
 * counters, ...); true. */
static bool func_value(popnd *o, uint32_t v)
{
    o->kind = P_INT;
    o->ival = v;
    o->from_func = true;
    return true;
}

typedef struct cnt_field {
    const char *name;
    unsigned lo, width;
} cnt_field;

static bool parse_named_counts(rdx_asm_state *st, rdx_lexer *lx, const cnt_field *f, size_t nf,
                               uint32_t init, bool clear_first, bool sat_ok, popnd *o)
{
    uint32_t v = init;
    bool any = false;
    while (lx->tok.kind == RDX_TOK_IDENT) {
        size_t k;
        bool sat = false; /* vmcnt_sat(n): n clamped to the field, as llvm-mc */
        for (k = 0; k < nf; k++) {
            size_t nl = strlen(f[k].name);
            if (tok_text_is(&lx->tok, f[k].name))
                break;
            if (sat_ok && lx->tok.kind == RDX_TOK_IDENT && lx->tok.len == nl + 4 &&
                !strncasecmp(lx->tok.text, f[k].name, nl) &&
                !strncasecmp(lx->tok.text + nl, "_sat", 4)) {
                sat = true;
                break;
            }
        }
        if (k == nf)
            break;
        rdx_lex_next(lx);
        if (!expect(st, lx, "(", "'('"))
            return false;
        int64_t x;
        unsigned col = lx->tok.col; /* errors point at the value, as llvm-mc's do */
        if (!small_int(st, lx, &x))
            return false;
        if (!expect(st, lx, ")", "')'"))
            return false;
        uint32_t mask = ((1u << f[k].width) - 1);
        if (sat && (uint64_t)x > mask)
            x = mask;
        if (x < 0 || (uint64_t)x > mask) {
            rdx_asm_error(st, col, "too large value for %s", f[k].name);
            return false;
        }
        if (!any && clear_first)
            v = init;
        v = (v & ~(mask << f[k].lo)) | ((uint32_t)x << f[k].lo);
        any = true;
        if (rdx_tok_is(&lx->tok, "&") || rdx_tok_is(&lx->tok, ","))
            rdx_lex_next(lx);
    }
    return any && func_value(o, v);
}

static bool parse_delay_alu(rdx_asm_state *st, rdx_lexer *lx, popnd *o)
{
    static const char *const ids[12] = {
        "NO_DEP",        "VALU_DEP_1",    "VALU_DEP_2",    "VALU_DEP_3",        "VALU_DEP_4",
        "TRANS32_DEP_1", "TRANS32_DEP_2", "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1", "SALU_CYCLE_1",
        "SALU_CYCLE_2",  "SALU_CYCLE_3",
    };
    static const char *const skips[6] = { "SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4" };
    uint32_t v = 0;
    bool any = false;
    while (tok_text_is(&lx->tok, "instid0") || tok_text_is(&lx->tok, "instid1") ||
           tok_text_is(&lx->tok, "instskip")) {
        unsigned which = tok_text_is(&lx->tok, "instskip") ? 2 : lx->tok.text[6] - '0';
        rdx_lex_next(lx);
        if (!expect(st, lx, "(", "'('"))
            return false;
        const char *const *names = which == 2 ? skips : ids;
        size_t nn = which == 2 ? 6 : 12, k;
        for (k = 0; k < nn; k++)
            if (tok_text_is(&lx->tok, names[k]))
                break;
        if (k == nn) {
            rdx_asm_error(st, lx->tok.col, "invalid value name '%.*s'", (int)lx->tok.len,
                          lx->tok.text);
            return false;
        }
        rdx_lex_next(lx);
        if (!expect(st, lx, ")", "')'"))
            return false;
        v |= which == 0 ? (uint32_t)k : which == 1 ? (uint32_t)k << 7 : (uint32_t)k << 4;
        any = true;
        if (rdx_tok_is(&lx->tok, "|"))
            rdx_lex_next(lx);
    }
    return any && func_value(o, v);
}

/* hwreg(ID|NAME[, offset, size]) or sendmsg(NAME|id[, op[, stream]]) */
static bool parse_func(rdx_asm_state *st, rdx_lexer *lx, bool hwreg, popnd *o)
{
    rdx_lex_next(lx);
    if (!expect(st, lx, "(", "'('"))
        return false;
    unsigned fam = st->gfx >= 1200 ? 2 : 1, id;
    int64_t x;
    const rdx_tok *t = &lx->tok;
    if (t->kind == RDX_TOK_IDENT && (hwreg ? rdx_syntax_hwreg_find(fam, t->text, t->len, &id)
                                           : rdx_syntax_msg_find(fam, t->text, t->len, &id))) {
        rdx_lex_next(lx);
    } else if (t->kind == RDX_TOK_IDENT && !rdx_asm_sym_find(st, t->text, t->len)) {
        rdx_asm_error(st, t->col, "invalid %s name '%.*s'", hwreg ? "hardware register" : "message",
                      (int)t->len, t->text);
        return false;
    } else {
        if (!small_int(st, lx, &x))
            return false;
        id = (unsigned)x;
    }
    int64_t a = 0, b = hwreg ? 32 : 0;
    if (rdx_tok_is(&lx->tok, ",")) {
        rdx_lex_next(lx);
        if (!small_int(st, lx, &a))
            return false;
        if (rdx_tok_is(&lx->tok, ",")) {
            rdx_lex_next(lx);
            if (!small_int(st, lx, &b))
                return false;
        }
    }
    if (!expect(st, lx, ")", "')'"))
        return false;
    uint32_t v;
    if (hwreg) {
        if (id > 63 || a < 0 || a > 31 || b < 1 || b > 32) {
            rdx_asm_error(st, o->col, "invalid hwreg operand (id 0-63, offset 0-31, size 1-32)");
            return false;
        }
        v = id | ((uint32_t)a << 6) | ((uint32_t)(b - 1) << 11);
    } else {
        if (id > 255 || a != 0 || b != 0) {
            rdx_asm_error(st, o->col, "invalid sendmsg operand");
            return false;
        }
        v = id;
    }
    return func_value(o, v);
}

/* LLVM's structured hwreg operand {id: N, offset: N, size: N}: every field
 * optional (0, 0, 32), each at most once, values absolute expressions. */
static bool parse_hwreg_struct(rdx_asm_state *st, rdx_lexer *lx, popnd *o)
{
    static const char *const names[3] = { "id", "offset", "size" };
    int64_t val[3] = { 0, 0, 32 };
    bool seen[3] = { false, false, false };
    rdx_lex_next(lx); /* { */
    while (!rdx_tok_is(&lx->tok, "}")) {
        unsigned k = 0;
        while (k < 3 && !tok_text_is(&lx->tok, names[k]))
            k++;
        if (k == 3) {
            rdx_asm_error(st, lx->tok.col, "field name expected (id, offset or size)");
            return false;
        }
        if (seen[k]) {
            rdx_asm_error(st, lx->tok.col, "duplicate field");
            return false;
        }
        seen[k] = true;
        rdx_lex_next(lx);
        if (!expect(st, lx, ":", "':'"))
            return false;
        if (!small_int(st, lx, &val[k]))
            return false;
        if (!rdx_tok_is(&lx->tok, ","))
            break;
        rdx_lex_next(lx);
        if (rdx_tok_is(&lx->tok, "}")) {
            rdx_asm_error(st, lx->tok.col, "field name expected (id, offset or size)");
            return false;
        }
    }
    if (!expect(st, lx, "}", "'}'"))
        return false;
    if (val[0] < 0 || val[0] > 63 || val[1] < 0 || val[1] > 31 || val[2] < 1 || val[2] > 32) {
        rdx_asm_error(st, o->col, "invalid hwreg operand (id 0-63, offset 0-31, size 1-32)");
        return false;
    }
    return func_value(o, (uint32_t)(val[0] | val[1] << 6 | (val[2] - 1) << 11));
}

/*
 * s_version's operand as LLVM writes it: a version name or number, or'ed with
 * the flag names, parenthesised ((UC_VERSION_GFX11|UC_VERSION_W64_BIT)|
 * UC_VERSION_W32_BIT).  ver_term: NAME | INT | '(' ver_expr ')'.
 */
static bool parse_version_expr(rdx_asm_state *st, rdx_lexer *lx, uint32_t *v);
static bool parse_version_term(rdx_asm_state *st, rdx_lexer *lx, uint32_t *v)
{
    static const struct {
        const char *name;
        uint32_t bit;
    } flags[] = { { "UC_VERSION_W64_BIT", 0x2000 },
                  { "UC_VERSION_W32_BIT", 0x4000 },
                  { "UC_VERSION_MDP_BIT", 0x8000 } };
    const rdx_tok *t = &lx->tok;
    unsigned id;
    if (rdx_tok_is(t, "(")) {
        rdx_lex_next(lx);
        return parse_version_expr(st, lx, v) && expect(st, lx, ")", "')'");
    }
    if (t->kind == RDX_TOK_INT && !t->overflow && t->ival <= 0xffff) {
        *v = (uint32_t)t->ival;
        rdx_lex_next(lx);
        return true;
    }
    if (t->kind == RDX_TOK_IDENT) {
        for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
            if (tok_text_is(t, flags[k].name)) {
                *v = flags[k].bit;
                rdx_lex_next(lx);
                return true;
            }
        if (rdx_syntax_version_find(t->text, t->len, &id)) {
            *v = id;
            rdx_lex_next(lx);
            return true;
        }
    }
    rdx_asm_error(st, t->col, "expected a UC_VERSION_* name or a 16-bit number");
    return false;
}
static bool parse_version_expr(rdx_asm_state *st, rdx_lexer *lx, uint32_t *v)
{
    if (!parse_version_term(st, lx, v))
        return false;
    while (rdx_tok_is(&lx->tok, "|")) {
        uint32_t w;
        rdx_lex_next(lx);
        if (!parse_version_term(st, lx, &w))
            return false;
        *v |= w;
    }
    return true;
}

/* A special immediate operand when `style` calls for one and the text matches. */
static int parse_special_imm(rdx_asm_state *st, rdx_lexer *lx, rdx_imm_style style, popnd *o)
{
    static const cnt_field waitcnt[] = { { "vmcnt", 10, 6 },
                                         { "expcnt", 0, 3 },
                                         { "lgkmcnt", 4, 6 } };
    static const cnt_field depctr[] = {
        { "depctr_hold_cnt", 7, 1 }, { "depctr_sa_sdst", 0, 1 }, { "depctr_va_vdst", 12, 4 },
        { "depctr_va_sdst", 9, 3 },  { "depctr_va_ssrc", 8, 1 }, { "depctr_va_vcc", 1, 1 },
        { "depctr_vm_vsrc", 2, 3 },
    };
    memset(o, 0, sizeof *o);
    o->col = lx->tok.col;
    const rdx_tok *t = &lx->tok;
    if (style == RDX_IMM_HWREG && rdx_tok_is(t, "{"))
        return parse_hwreg_struct(st, lx, o) ? 1 : -1;
    if (style == RDX_IMM_VERSION) {
        /* names, flags, '|' and parentheses; a plain number or other expression
           is an ordinary immediate */
        rdx_tok next = rdx_lex_peek(lx);
        if (t->kind == RDX_TOK_IDENT || rdx_tok_is(t, "(") ||
            (t->kind == RDX_TOK_INT && rdx_tok_is(&next, "|"))) {
            uint32_t v;
            if (!parse_version_expr(st, lx, &v))
                return -1;
            o->kind = P_INT;
            o->ival = v;
            return 1;
        }
        return 0;
    }
    if (t->kind != RDX_TOK_IDENT)
        return 0;
    unsigned id;
    size_t before = st->ndiags;
    switch (style) {
    case RDX_IMM_WAITCNT:
        if (parse_named_counts(st, lx, waitcnt, 3, 0xfff7, false, true, o))
            return 1;
        return st->ndiags > before ? -1 : 0;
    case RDX_IMM_DEPCTR:
        if (parse_named_counts(st, lx, depctr, 7, 0xff9f, false, false, o))
            return 1;
        return st->ndiags > before ? -1 : 0;
    case RDX_IMM_DELAY_ALU:
        if (parse_delay_alu(st, lx, o))
            return 1;
        return st->ndiags > before ? -1 : 0;
    case RDX_IMM_HWREG:
        if (tok_text_is(t, "hwreg"))
            return parse_func(st, lx, true, o) ? 1 : -1;
        return 0;
    case RDX_IMM_SENDMSG:
        if (tok_text_is(t, "sendmsg"))
            return parse_func(st, lx, false, o) ? 1 : -1;
        return 0;
    case RDX_IMM_EXP_TARGET:
    case RDX_IMM_VERSION:
        if (style == RDX_IMM_EXP_TARGET ? rdx_syntax_exp_target_find(t->text, t->len, &id)
                                        : rdx_syntax_version_find(t->text, t->len, &id)) {
            o->kind = P_INT;
            o->ival = id;
            rdx_lex_next(lx);
            return 1;
        }
        return 0;
    default:
        return 0;
    }
}

/* ------------------------------------------------------------ modifiers */

/* NAME:[l0,l1,...]: `n` lane ids of `bits` bits each (quad_perm, dpp8), packed
 * l0 first; the current token is NAME. */
static bool parse_lane_list(rdx_asm_state *st, rdx_lexer *lx, unsigned n, unsigned bits,
                            int32_t *out)
{
    rdx_lex_next(lx);
    rdx_lex_next(lx);
    if (!expect(st, lx, "[", "'['"))
        return false;
    int32_t v = 0;
    for (unsigned i = 0; i < n; i++) {
        int64_t x;
        unsigned c = lx->tok.col;
        if (!small_int(st, lx, &x))
            return false;
        if (x < 0 || x >= (1 << bits)) {
            rdx_asm_error(st, c, "expected a %u-bit lane id", bits);
            return false;
        }
        v |= (int32_t)x << (bits * i);
        if (!expect(st, lx, i + 1 < n ? "," : "]", i + 1 < n ? "','" : "']'"))
            return false;
    }
    *out = v;
    return true;
}

static bool parse_bit_list(rdx_asm_state *st, rdx_lexer *lx, int32_t *out, unsigned *len)
{
    if (!expect(st, lx, "[", "'['"))
        return false;
    int32_t v = 0;
    for (unsigned i = 0;; i++) {
        int64_t b;
        unsigned col = lx->tok.col;
        if (!small_int(st, lx, &b))
            return false;
        if (b != 0 && b != 1) {
            rdx_asm_error(st, col, "expected 0 or 1");
            return false;
        }
        if (i >= 4) {
            rdx_asm_error(st, col, "too many values in the list");
            return false;
        }
        v |= (int32_t)b << i;
        *len = i + 1;
        if (rdx_tok_is(&lx->tok, "]"))
            break;
        if (!expect(st, lx, ",", "',' or ']'"))
            return false;
    }
    rdx_lex_next(lx);
    *out = v;
    return true;
}

/* swizzle(QUAD_PERM,a,b,c,d | BITMASK_PERM,"mask" | BROADCAST,g,l | SWAP,n | REVERSE,n) */
static bool parse_swizzle(rdx_asm_state *st, rdx_lexer *lx, int32_t *out)
{
    unsigned col = lx->tok.col;
    rdx_lex_next(lx);
    if (!expect(st, lx, "(", "'('"))
        return false;
    const rdx_tok *t = &lx->tok;
    int64_t a[4] = { 0 };
    uint32_t v = 0;
    if (tok_text_is(t, "QUAD_PERM")) {
        rdx_lex_next(lx);
        for (int i = 0; i < 4; i++) {
            if (!expect(st, lx, ",", "','") || !small_int(st, lx, &a[i]))
                return false;
            if (a[i] < 0 || a[i] > 3) {
                rdx_asm_error(st, col, "invalid lane id in swizzle(QUAD_PERM)");
                return false;
            }
            v |= (uint32_t)a[i] << (2 * i);
        }
        v |= 0x8000;
    } else if (tok_text_is(t, "BITMASK_PERM")) {
        rdx_lex_next(lx);
        if (!expect(st, lx, ",", "','"))
            return false;
        if (lx->tok.kind != RDX_TOK_STRING || lx->tok.len != 5) {
            rdx_asm_error(st, lx->tok.col, "expected a 5-character bitmask string");
            return false;
        }
        uint32_t and_m = 0, or_m = 0, xor_m = 0;
        for (unsigned i = 0; i < 5; i++) {
            unsigned bit = 16u >> i;
            switch (lx->tok.text[i]) {
            case '0':
                break;
            case '1':
                or_m |= bit;
                break;
            case 'p':
                and_m |= bit;
                break;
            case 'i':
                and_m |= bit, xor_m |= bit;
                break;
            default:
                rdx_asm_error(st, lx->tok.col, "invalid bitmask character (0, 1, p or i)");
                return false;
            }
        }
        rdx_lex_next(lx);
        v = and_m | (or_m << 5) | (xor_m << 10);
    } else if (tok_text_is(t, "BROADCAST") || tok_text_is(t, "SWAP") || tok_text_is(t, "REVERSE")) {
        char kind = (char)toupper((unsigned char)t->text[0]);
        rdx_lex_next(lx);
        int nargs = kind == 'B' ? 2 : 1;
        for (int i = 0; i < nargs; i++)
            if (!expect(st, lx, ",", "','") || !small_int(st, lx, &a[i]))
                return false;
        if (kind == 'B') {
            if (a[0] < 2 || a[0] > 32 || (a[0] & (a[0] - 1)) || a[1] < 0 || a[1] >= a[0]) {
                rdx_asm_error(st, col, "invalid swizzle(BROADCAST) group size or lane");
                return false;
            }
            v = (uint32_t)(32 - a[0]) | ((uint32_t)a[1] << 5);
        } else if (kind == 'S') {
            if (a[0] < 1 || a[0] > 16 || (a[0] & (a[0] - 1))) {
                rdx_asm_error(st, col, "invalid swizzle(SWAP) group size");
                return false;
            }
            v = 31 | ((uint32_t)a[0] << 10);
        } else {
            if (a[0] < 2 || a[0] > 32 || (a[0] & (a[0] - 1))) {
                rdx_asm_error(st, col, "invalid swizzle(REVERSE) group size");
                return false;
            }
            v = 31 | ((uint32_t)(a[0] - 1) << 10);
        }
    } else {
        rdx_asm_error(st, t->col,
                      "expected a swizzle mode (QUAD_PERM, BITMASK_PERM, BROADCAST, "
                      "SWAP, REVERSE)");
        return false;
    }
    if (!expect(st, lx, ")", "')'"))
        return false;
    *out = (int32_t)v;
    return true;
}

static bool colon_int(rdx_asm_state *st, rdx_lexer *lx, int64_t *v)
{
    if (!expect(st, lx, ":", "':'"))
        return false;
    return small_int(st, lx, v);
}

/* ":N" with lo <= N <= hi; else the error `what` at column `col` (the modifier's). */
static bool colon_int_in(rdx_asm_state *st, rdx_lexer *lx, int64_t lo, int64_t hi, unsigned col,
                         const char *what, int64_t *v)
{
    if (!colon_int(st, lx, v))
        return false;
    if (*v < lo || *v > hi) {
        rdx_asm_error(st, col, "%s", what);
        return false;
    }
    return true;
}

static void set_mod(pinst *pi, rdx_isa_mod m, int32_t v)
{
    pi->mod[m] = v;
    pi->mod_set[m] = true;
    pi->mod_col[m] = pi->cur_col;
}

/* Every word a modifier starts with (sorted; a quick gate before the parsers). */
static const char *const modifier_words[] = {
    "a16",          "bank_mask",    "bound_ctrl",
    "byte_sel",     "clamp",        "d16",
    "dim",          "div",          "dlc",
    "dmask",        "done",         "dpp8",
    "fi",           "format",       "gds",
    "glc",          "idxen",        "index_key",
    "lwe",          "mul",          "neg_hi",
    "neg_lo",       "nv",           "offen",
    "offset",       "offset0",      "offset1",
    "op_sel",       "op_sel_hi",    "quad_perm",
    "r128",         "row_en",       "row_half_mirror",
    "row_mask",     "row_mirror",   "row_ror",
    "row_share",    "row_shl",      "row_shr",
    "row_xmask",    "scope",        "slc",
    "tfe",          "th",           "unorm",
    "wait_exp",     "wait_va_vdst", "wait_vdst",
    "wait_vm_vsrc",
};

static int word_cmp(const void *a, const void *b)
{
    return strcmp(a, *(const char *const *)b);
}

static bool is_modifier_word(const rdx_tok *t)
{
    char w[24];
    if (t->len >= sizeof w)
        return false;
    for (size_t i = 0; i < t->len; i++)
        w[i] = (char)tolower((unsigned char)t->text[i]);
    w[t->len] = 0;
    return bsearch(w, modifier_words, sizeof modifier_words / sizeof modifier_words[0],
                   sizeof modifier_words[0], word_cmp) != NULL;
}

/*
 * A modifier word at the current token.  Returns 1 (parsed), 0 (not a
 * modifier: the caller treats it as an operand), -1 (error reported).
 */

/* format:[BUF_DATA_FORMAT_<d>, BUF_NUM_FORMAT_<n>] (either part may be left
 * out, in either order), LLVM's older split spelling of the unified format.
 * The current token is the first name, at column `bcol`. */
static int parse_split_format(rdx_asm_state *st, rdx_lexer *lx, pinst *pi, unsigned bcol)
{
    static const char dpre[] = "BUF_DATA_FORMAT_", npre[] = "BUF_NUM_FORMAT_";
    const char *part[2] = { NULL, NULL }; /* data, number */
    size_t plen[2] = { 0, 0 };
    for (;;) {
        const rdx_tok *tk = &lx->tok;
        int which = -1;
        size_t pl = 0;
        if (tk->kind == RDX_TOK_IDENT && tk->len > sizeof dpre - 1 &&
            !memcmp(tk->text, dpre, sizeof dpre - 1))
            which = 0, pl = sizeof dpre - 1;
        else if (tk->kind == RDX_TOK_IDENT && tk->len > sizeof npre - 1 &&
                 !memcmp(tk->text, npre, sizeof npre - 1))
            which = 1, pl = sizeof npre - 1;
        if (which < 0) {
            rdx_asm_error(st, tk->col,
                          "expected a BUF_FMT_*, BUF_DATA_FORMAT_* or BUF_NUM_FORMAT_* "
                          "format name");
            return -1;
        }
        if (part[which]) {
            rdx_asm_error(st, tk->col,
                          which ? "duplicate numeric format" : "duplicate data format");
            return -1;
        }
        part[which] = tk->text + pl;
        plen[which] = tk->len - pl;
        rdx_lex_next(lx);
        if (rdx_tok_is(&lx->tok, ",") && !part[0] + !part[1]) {
            rdx_lex_next(lx);
            continue;
        }
        if (!expect(st, lx, "]", "']'"))
            return -1;
        break;
    }
    int fid = rdx_syntax_buffmt_split(part[0], plen[0], part[1], plen[1]);
    if (fid < 0) {
        rdx_asm_error(st, bcol, "unsupported format");
        return -1;
    }
    set_mod(pi, RDX_ISA_MOD_FORMAT, fid);
    return 1;
}

static int parse_modifier(rdx_asm_state *st, rdx_lexer *lx, rdx_isa_op op, pinst *pi)
{
    const rdx_tok *t = &lx->tok;
    if (t->kind != RDX_TOK_IDENT || !is_modifier_word(t))
        return 0;
    pi->cur_col = t->col;
    static const struct {
        const char *name;
        rdx_isa_mod mod;
    } flags[] = {
        { "glc", RDX_ISA_MOD_GLC },     { "slc", RDX_ISA_MOD_SLC },
        { "dlc", RDX_ISA_MOD_DLC },     { "gds", RDX_ISA_MOD_GDS },
        { "nv", RDX_ISA_MOD_NV },       { "offen", RDX_ISA_MOD_OFFEN },
        { "idxen", RDX_ISA_MOD_IDXEN }, { "tfe", RDX_ISA_MOD_TFE },
        { "lwe", RDX_ISA_MOD_LWE },     { "unorm", RDX_ISA_MOD_UNORM },
        { "r128", RDX_ISA_MOD_R128 },   { "a16", RDX_ISA_MOD_A16 },
        { "d16", RDX_ISA_MOD_D16 },     { "clamp", RDX_ISA_MOD_CLAMP },
        { "done", RDX_ISA_MOD_DONE },   { "row_en", RDX_ISA_MOD_ROW_EN },
    };
    static const struct {
        const char *name;
        rdx_isa_mod mod;
    } ints[] = {
        { "offset", RDX_ISA_MOD_OFFSET },
        { "offset0", RDX_ISA_MOD_OFFSET0 },
        { "offset1", RDX_ISA_MOD_OFFSET1 },
        { "dmask", RDX_ISA_MOD_DMASK },
        { "row_mask", RDX_ISA_MOD_ROW_MASK },
        { "bank_mask", RDX_ISA_MOD_BANK_MASK },
        { "wait_exp", RDX_ISA_MOD_WAIT_EXP },
        { "wait_vdst", RDX_ISA_MOD_WAIT_VDST },
        { "wait_va_vdst", RDX_ISA_MOD_WAIT_VA_VDST },
        { "wait_vm_vsrc", RDX_ISA_MOD_WAIT_VM_VSRC },
    };
    bool colon = rdx_lex_peek_char(lx) == ':';
    rdx_tok pk = colon ? rdx_lex_peek(lx) : lx->tok;
    if (tok_text_is(t, "offset") && colon) {
        rdx_lexer save = *lx;
        rdx_lex_next(lx);
        rdx_lex_next(lx);
        if (tok_text_is(&lx->tok, "swizzle")) {
            int32_t v;
            if (!parse_swizzle(st, lx, &v))
                return -1;
            set_mod(pi, RDX_ISA_MOD_OFFSET, v);
            return 1;
        }
        *lx = save;
    }
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (tok_text_is(t, flags[i].name) && !colon) {
            set_mod(pi, flags[i].mod, 1);
            rdx_lex_next(lx);
            return 1;
        }
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (tok_text_is(t, ints[i].name) && colon) {
            rdx_lex_next(lx);
            int64_t v;
            unsigned col = pk.col + 1;
            if (!colon_int(st, lx, &v))
                return -1;
            if (v < INT32_MIN || v > INT32_MAX) {
                rdx_asm_error(st, col, "value out of range");
                return -1;
            }
            set_mod(pi, ints[i].mod, (int32_t)v);
            if (ints[i].mod == RDX_ISA_MOD_ROW_MASK || ints[i].mod == RDX_ISA_MOD_BANK_MASK)
                pi->dpp16 = true;
            return 1;
        }
    unsigned col = t->col;
    if (tok_text_is(t, "index_key") && colon) {
        rdx_lex_next(lx);
        int64_t v;
        if (!colon_int_in(st, lx, 0, 3, col, "invalid index_key value (0-3)", &v))
            return -1;
        set_mod(pi, RDX_ISA_MOD_OP_SEL, (int32_t)v);
        return 1;
    }
    if (tok_text_is(t, "byte_sel") && colon && rdx_syntax_byte_sel_kind(op)) {
        rdx_lex_next(lx);
        int64_t v;
        if (!colon_int_in(st, lx, 0, 3, col, "invalid byte_sel value (0-3)", &v))
            return -1;
        int32_t hi = (int32_t)(v >> 1) & 1, lo = (int32_t)v & 1;
        set_mod(pi, RDX_ISA_MOD_OP_SEL,
                rdx_syntax_byte_sel_kind(op) == 1 ? (hi | lo << 1) : (lo << 2 | hi << 3));
        pi->op_sel_len = 4;
        return 1;
    }
    if ((tok_text_is(t, "mul") || tok_text_is(t, "div")) && colon) {
        bool mul = tok_text_is(t, "mul");
        rdx_lex_next(lx);
        int64_t v;
        if (!colon_int(st, lx, &v))
            return -1;
        int32_t om = mul && v == 2    ? 1
                     : mul && v == 4  ? 2
                     : !mul && v == 2 ? 3
                     : mul && v == 1  ? 0
                                      : -1;
        if (om < 0) {
            rdx_asm_error(st, col, "invalid output modifier (mul:2, mul:4 or div:2)");
            return -1;
        }
        set_mod(pi, RDX_ISA_MOD_OMOD, om);
        return 1;
    }
    static const struct {
        const char *name;
        rdx_isa_mod mod;
    } lists[] = { { "op_sel", RDX_ISA_MOD_OP_SEL },
                  { "op_sel_hi", RDX_ISA_MOD_OP_SEL_HI },
                  { "neg_lo", RDX_ISA_MOD_NEG },
                  { "neg_hi", RDX_ISA_MOD_NEG_HI } };
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        if (tok_text_is(t, lists[i].name) && colon) {
            rdx_lex_next(lx);
            rdx_lex_next(lx);
            int32_t v;
            unsigned len;
            if (!parse_bit_list(st, lx, &v, &len))
                return -1;
            set_mod(pi, lists[i].mod, v);
            if (lists[i].mod == RDX_ISA_MOD_OP_SEL)
                pi->op_sel_len = len;
            return 1;
        }
    bool quad = tok_text_is(t, "quad_perm");
    if ((quad || tok_text_is(t, "dpp8")) && colon) { /* lane selects: 4 x 2 or 8 x 3 bits */
        int32_t v;
        if (!parse_lane_list(st, lx, quad ? 4 : 8, quad ? 2 : 3, &v))
            return -1;
        set_mod(pi, quad ? RDX_ISA_MOD_DPP_CTRL : RDX_ISA_MOD_DPP8, v);
        pi->dpp16 |= quad;
        pi->dpp8 |= !quad;
        return 1;
    }
    static const struct {
        const char *name;
        int base, lo, hi;
    } rows[] = { { "row_shl", 0x100, 1, 15 },
                 { "row_shr", 0x110, 1, 15 },
                 { "row_ror", 0x120, 1, 15 },
                 { "row_share", 0x150, 0, 15 },
                 { "row_xmask", 0x160, 0, 15 } };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (tok_text_is(t, rows[i].name) && colon) {
            rdx_lex_next(lx);
            int64_t v;
            unsigned vcol = rdx_lex_peek(lx).col;
            if (!colon_int(st, lx, &v))
                return -1;
            if (v < rows[i].lo || v > rows[i].hi) {
                rdx_asm_error(st, vcol, "invalid %s value", rows[i].name);
                return -1;
            }
            set_mod(pi, RDX_ISA_MOD_DPP_CTRL, rows[i].base + (int32_t)v);
            pi->dpp16 = true;
            return 1;
        }
    if ((tok_text_is(t, "row_mirror") || tok_text_is(t, "row_half_mirror")) && !colon) {
        set_mod(pi, RDX_ISA_MOD_DPP_CTRL, tok_text_is(t, "row_mirror") ? 0x140 : 0x141);
        pi->dpp16 = true;
        rdx_lex_next(lx);
        return 1;
    }
    if ((tok_text_is(t, "bound_ctrl") || tok_text_is(t, "fi")) && colon) {
        bool bc = tok_text_is(t, "bound_ctrl");
        rdx_lex_next(lx);
        int64_t v;
        if (!colon_int_in(st, lx, 0, 1, col, "expected 0 or 1", &v))
            return -1;
        set_mod(pi, bc ? RDX_ISA_MOD_BOUND_CTRL : RDX_ISA_MOD_FI, (int32_t)v);
        return 1;
    }
    if (tok_text_is(t, "dim") && colon) {
        rdx_lex_next(lx);
        rdx_lex_next(lx);
        const rdx_tok *d = &lx->tok;
        for (int i = 0; i < 8; i++) {
            const char *n = rdx_syntax_dim_names[i];
            if (tok_text_is(d, n) || tok_text_is(d, n + 12)) {
                set_mod(pi, RDX_ISA_MOD_DIM, i);
                rdx_lex_next(lx);
                return 1;
            }
        }
        if (d->kind == RDX_TOK_INT && d->ival <= 3 && d->len == 1) {
            /* 1D, 2D, 3D lex as a number followed by an identifier */
            rdx_tok nx = rdx_lex_peek(lx);
            if (nx.kind == RDX_TOK_IDENT && nx.text == d->text + 1) {
                char buf[32];
                snprintf(buf, sizeof buf, "%c%.*s", d->text[0], (int)nx.len, nx.text);
                for (int i = 0; i < 8; i++)
                    if (!strcasecmp(buf, rdx_syntax_dim_names[i] + 12)) {
                        set_mod(pi, RDX_ISA_MOD_DIM, i);
                        rdx_lex_next(lx);
                        rdx_lex_next(lx);
                        return 1;
                    }
            }
        }
        rdx_asm_error(st, d->col, "expected a dimension (SQ_RSRC_IMG_1D ...)");
        return -1;
    }
    if (tok_text_is(t, "format") && colon) {
        rdx_lex_next(lx);
        rdx_lex_next(lx);
        if (rdx_tok_is(&lx->tok, "[")) {
            rdx_lex_next(lx);
            unsigned fid, bcol = lx->tok.col;
            if (lx->tok.kind == RDX_TOK_IDENT &&
                rdx_syntax_buffmt_find(lx->tok.text, lx->tok.len, &fid)) {
                set_mod(pi, RDX_ISA_MOD_FORMAT, (int32_t)fid);
                rdx_lex_next(lx);
                if (!expect(st, lx, "]", "']'"))
                    return -1;
                return 1;
            }
            return parse_split_format(st, lx, pi, bcol);
        }
        int64_t v;
        if (!small_int(st, lx, &v))
            return -1;
        if (v < 0 || v > 127) {
            rdx_asm_error(st, col, "out of range format");
            return -1;
        }
        set_mod(pi, RDX_ISA_MOD_FORMAT, (int32_t)v);
        return 1;
    }
    if ((tok_text_is(t, "th") || tok_text_is(t, "scope")) && colon) {
        bool th = tok_text_is(t, "th");
        rdx_lex_next(lx);
        rdx_lex_next(lx);
        const rdx_tok *d = &lx->tok;
        if (th) {
            rdx_th_kind k = rdx_syntax_th_kind(op);
            for (unsigned v = 0; v < 16; v++) {
                const char *n = rdx_syntax_th_name(k, v % 8, v < 8 ? 0 : 3);
                if (n && tok_text_is(d, n)) {
                    set_mod(pi, RDX_ISA_MOD_TH, (int32_t)(v % 8));
                    /* th 3's names say whether the scope is SCOPE_SYS */
                    pi->th_sys = v % 8 != 3 || k == RDX_TH_ATOMIC ? 0 : v < 8 ? 2 : 1;
                    rdx_lex_next(lx);
                    return 1;
                }
            }
        } else {
            for (unsigned v = 0; v < 4; v++)
                if (tok_text_is(d, rdx_syntax_scope_names[v])) {
                    set_mod(pi, RDX_ISA_MOD_SCOPE, (int32_t)v);
                    rdx_lex_next(lx);
                    return 1;
                }
        }
        rdx_asm_error(st, d->col, "invalid %s value", th ? "th" : "scope");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------- binding */

static bool is_inv2pi(double f)
{
    return fabs(f - 0.15915494309189535) < 1e-8;
}

static int fconst_of(double f)
{
    static const double vals[8] = { 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0 };
    for (int i = 0; i < 8; i++)
        if (f == vals[i])
            return i;
    if (is_inv2pi(f))
        return RDX_ISA_FCONST_INV_2PI;
    return -1;
}

static uint16_t f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000, e = (x >> 23) & 0xff, m = x & 0x7fffff;
    if (e == 0xff)
        return (uint16_t)(sign | 0x7c00 | (m ? 0x200 : 0));
    int ne = (int)e - 127 + 15;
    if (ne >= 31)
        return (uint16_t)(sign | 0x7c00);
    if (ne <= 0) {
        if (ne < -10)
            return (uint16_t)sign;
        m |= 0x800000;
        uint32_t shift = (uint32_t)(14 - ne);
        uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)ne << 10) | (m >> 13), rem = m & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
        h++;
    return (uint16_t)(sign | h);
}

static uint32_t float_literal(double f, rdx_isa_fmt fmt)
{
    float g = (float)f;
    uint32_t b;
    memcpy(&b, &g, 4);
    switch (fmt) {
    case RDX_ISA_FMT_F16:
    case RDX_ISA_FMT_PK_F16:
        return f32_to_f16(g);
    case RDX_ISA_FMT_BF16:
        return b >> 16;
    case RDX_ISA_FMT_F64: {
        uint64_t d;
        memcpy(&d, &f, 8);
        return (uint32_t)(d >> 32);
    }
    default:
        return b;
    }
}

typedef struct bind_ctx {
    rdx_asm_state *st;
    const rdx_isa_target *t;
    char err[256];
    unsigned err_col;
    int branch_slot; /* operand index of a label to fix up, or -1 */
    const char *branch_expr;
    unsigned opnd_col[RDX_ISA_MAX_OPNDS]; /* source column of each encoded operand */
    rdx_isa_op op;                        /* the instruction being bound */
    rdx_isa_enc enc;                      /* ... and its encoding */
} bind_ctx;

/* Column of the operand an encoder message names ("operand 2 (src1): ..."), else `dflt`. */
static unsigned error_col(const bind_ctx *c, const pinst *pi, const char *msg, unsigned nopnd,
                          unsigned dflt)
{
    const char *p = strstr(msg, "operand ");
    unsigned k;
    if (p && sscanf(p + 8, "%u", &k) == 1 && k < nopnd && c->opnd_col[k])
        return c->opnd_col[k];
    /* "... modifier offset ...": the column of that modifier. */
    p = strstr(msg, "modifier ");
    for (int m = 0; p && m < RDX_ISA_MOD_COUNT; m++) {
        const char *name = rdx_isa_mod_name((rdx_isa_mod)m);
        size_t n = strlen(name);
        if (pi->mod_col[m] && !strncmp(p + 9, name, n) && (p[9 + n] == ' ' || !p[9 + n]))
            return pi->mod_col[m];
    }
    return dflt;
}

static bool bind_err(bind_ctx *c, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool bind_err(bind_ctx *c, unsigned col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
    c->err_col = col;
    return false;
}

static bool convert(bind_ctx *c, const popnd *p, const rdx_isa_opnd_info *si, unsigned idx,
                    rdx_isa_opnd *o)
{
    unsigned kinds = si ? si->kinds : 0xffff;
    memset(o, 0, sizeof *o);
    if (p->lit) {
        if (p->kind != P_INT || p->neg || p->abs || p->sext || p->ival < INT32_MIN ||
            p->ival > UINT32_MAX)
            return bind_err(c, p->col, "lit() takes a 32-bit integer");
        if (!(kinds & RDX_ISA_KIND_BIT(RDX_ISA_OPND_LITERAL)))
            return bind_err(c, p->col, "operand %u takes no literal", idx);
        *o = rdx_isa_literal((uint32_t)p->ival);
        return true;
    }
    switch (p->kind) {
    case P_REG:
        o->kind = p->file;
        o->reg = p->reg;
        o->count = (uint8_t)p->count;
        /* null, m0, src_* and friends stand for any width; vcc_lo/exec_lo do not. */
        if (p->file == RDX_ISA_OPND_SPECIAL && p->count == 1 && si && si->bits > 32 &&
            p->reg != RDX_ISA_REG_VCC_LO && p->reg != RDX_ISA_REG_VCC_HI &&
            p->reg != RDX_ISA_REG_EXEC_LO && p->reg != RDX_ISA_REG_EXEC_HI)
            o->count = (uint8_t)(si->bits / 32);
        return true;
    case P_OFF:
        o->kind = RDX_ISA_OPND_OFF;
        return true;
    case P_ATTR:
        o->kind = RDX_ISA_OPND_IMM;
        o->value = (int32_t)p->ival;
        return true;
    case P_EXPR:
        if (kinds & RDX_ISA_KIND_BIT(RDX_ISA_OPND_BRANCH)) {
            o->kind = RDX_ISA_OPND_BRANCH;
            c->branch_slot = (int)idx;
            c->branch_expr = p->expr;
            return true;
        }
        return bind_err(c, p->col,
                        "expected an absolute expression (labels only as branch "
                        "targets)");
    case P_FLOAT: {
        /* +0.0 has all bits clear: the inline integer 0, as llvm-mc encodes it */
        if (p->fval == 0.0 && !signbit(p->fval) && (kinds & RDX_ISA_KIND_BIT(RDX_ISA_OPND_INT))) {
            o->kind = RDX_ISA_OPND_INT;
            o->value = 0;
            return true;
        }
        int fc = fconst_of(p->fval);
        if (fc >= 0 && (kinds & RDX_ISA_KIND_BIT(RDX_ISA_OPND_FLOAT))) {
            o->kind = RDX_ISA_OPND_FLOAT;
            o->value = fc;
            return true;
        }
        if (kinds & RDX_ISA_KIND_BIT(RDX_ISA_OPND_LITERAL)) {
            o->kind = RDX_ISA_OPND_LITERAL;
            o->value = (int32_t)float_literal(p->fval, si ? (rdx_isa_fmt)si->fmt : RDX_ISA_FMT_F32);
            return true;
        }
        return bind_err(c, p->col, "floating-point operand not allowed here");
    }
    case P_INT: {
        int64_t v = p->ival;
        if (kinds & RDX_ISA_KIND_BIT(RDX_ISA_OPND_BRANCH)) {
            if (v < -32768 || v > 65535)
                return bind_err(c, p->col, "branch offset out of range");
            o->kind = RDX_ISA_OPND_BRANCH;
            o->value = (int16_t)(uint16_t)v;
            return true;
        }
        if (kinds & RDX_ISA_KIND_BIT(RDX_ISA_OPND_IMM)) {
            if (v < INT32_MIN || v > UINT32_MAX)
                return bind_err(c, p->col, "immediate out of range");
            o->kind = RDX_ISA_OPND_IMM;
            o->value = (int32_t)v;
            return true;
        }
        if (p->from_func)
            return bind_err(c, p->col, "this operand takes no symbolic value");
        /* llvm-mc cannot fold a label difference while parsing: it is a 32-bit literal
           (s_mov_b32 s0, end-start), even when small */
        if (p->from_label && (kinds & RDX_ISA_KIND_BIT(RDX_ISA_OPND_LITERAL)) && v >= INT32_MIN &&
            v <= UINT32_MAX &&
            !(si && rdx_syntax_literal16(c->op, c->enc, si->bits, (rdx_isa_role)si->role))) {
            o->kind = RDX_ISA_OPND_LITERAL;
            o->value = (int32_t)(uint32_t)v;
            return true;
        }
        /* A literal whose bits are an inline float constant is encoded as that constant. */
        /* (Not for the f16 sources of SOP1/SOPC ops: llvm-mc keeps s_cmp_lt_f16 s0, 0x3c00
           a literal, only SOP2's f16 sources take one as 1.0.) */
        bool salu16 = si && si->fmt == RDX_ISA_FMT_F16 &&
                      (c->enc == RDX_ISA_ENC_SOP1 || c->enc == RDX_ISA_ENC_SOPC);
        /* nor for the 16-bit slots LLVM reads as 32-bit integers (v_cmp_class_f16's
           mask: 0xc400 stays a literal) */
        if (si && si->bits == 16 && si->fmt == RDX_ISA_FMT_F16 &&
            (c->op == RDX_ISA_OP_V_CMP_CLASS_F16 || c->op == RDX_ISA_OP_V_CMPX_CLASS_F16) &&
            !rdx_syntax_literal16(c->op, c->enc, si->bits, (rdx_isa_role)si->role))
            salu16 = true;
        if (si && !salu16 && (kinds & RDX_ISA_KIND_BIT(RDX_ISA_OPND_FLOAT)) && v > 64 &&
            v <= UINT32_MAX) {
            int fc = rdx_syntax_float_of_bits((uint32_t)v, (rdx_isa_fmt)si->fmt, si->bits);
            if (fc >= 0) {
                o->kind = RDX_ISA_OPND_FLOAT;
                o->value = fc;
                return true;
            }
        }
        /* A 32-bit (16-bit) value whose bits read as a small negative integer is
           that inline constant: 0xffffffff is -1, as llvm-mc encodes it. */
        if (si && (kinds & RDX_ISA_KIND_BIT(RDX_ISA_OPND_INT))) {
            bool lit16 = rdx_syntax_literal16(c->op, c->enc, si->bits, (rdx_isa_role)si->role);
            if (!lit16 && si->bits <= 32 && v > INT32_MAX && v <= UINT32_MAX &&
                (int32_t)(uint32_t)v >= -16)
                v = (int32_t)(uint32_t)v;
            else if ((lit16 || c->enc == RDX_ISA_ENC_SOP2) && si->fmt == RDX_ISA_FMT_F16 &&
                     v > INT16_MAX && v <= UINT16_MAX &&
                     (int16_t)(uint16_t)v >= -16) /* f16 operands only, not 16-bit integers */
                v = (int16_t)(uint16_t)v;
        }
        if (v >= -16 && v <= 64 && (kinds & RDX_ISA_KIND_BIT(RDX_ISA_OPND_INT))) {
            o->kind = RDX_ISA_OPND_INT;
            o->value = (int32_t)v;
            return true;
        }
        if (kinds & RDX_ISA_KIND_BIT(RDX_ISA_OPND_LITERAL)) {
            if (si && rdx_syntax_literal16(c->op, c->enc, si->bits, (rdx_isa_role)si->role)) {
                /* 16-bit operands take a 16-bit literal (-47 is 0xffd1, as llvm-mc). */
                if (v < -32768 || v > 65535)
                    return bind_err(c, p->col, "literal does not fit in 16 bits");
                v &= 0xffff;
            }
            if (v < INT32_MIN || v > UINT32_MAX)
                return bind_err(c, p->col, "literal does not fit in 32 bits");
            o->kind = RDX_ISA_OPND_LITERAL;
            o->value = (int32_t)(uint32_t)v;
            return true;
        }
        return bind_err(
            c, p->col, "%s",
            kinds & RDX_ISA_KIND_BIT(RDX_ISA_OPND_INT)
                ? "literal operands are not supported here (inline constants -16..64 only)"
                : "expected a register, not a constant");
    }
    }
    return false;
}

static bool src_index(const rdx_isa_opnd_info *si, unsigned *k)
{
    return si && rdx_syntax_src_index(si->role, k);
}

static bool is_mem_enc(rdx_isa_enc e)
{
    return e == RDX_ISA_ENC_FLAT || e == RDX_ISA_ENC_GLOBAL || e == RDX_ISA_ENC_SCRATCH ||
           e == RDX_ISA_ENC_VFLAT || e == RDX_ISA_ENC_VGLOBAL || e == RDX_ISA_ENC_VSCRATCH;
}

/* Whether operand i continues an NSA list (shares the address slot). */
static bool slot_in_list(const popnd *ps, unsigned i)
{
    for (unsigned j = i; j-- > 0;) {
        if (ps[j].list_end)
            return false;
        if (ps[j].list_start)
            return true;
    }
    return false;
}

/*
 * A 32-bit VALU encoding has no source modifiers: llvm-mc applies neg/abs of a
 * constant to a floating-point source to the constant itself (abs clears, neg
 * flips the sign bit of the double, or of the integer's bits at the operand's
 * size), so `neg(2.0)` is -2.0 and `neg(1)` the literal 0x80000001.
 */
static void fold_fp_mods(popnd *p, const rdx_isa_opnd_info *si, rdx_isa_op op)
{
    unsigned k;
    /* v_cndmask_b32 takes floating-point source modifiers too */
    bool fp = si && (si->fmt == RDX_ISA_FMT_F16 || si->fmt == RDX_ISA_FMT_BF16 ||
                     si->fmt == RDX_ISA_FMT_F32 || si->fmt == RDX_ISA_FMT_F64 ||
                     op == RDX_ISA_OP_V_CNDMASK_B32);
    if (!(p->neg || p->abs) || p->sext || !src_index(si, &k) || !fp ||
        (p->kind != P_INT && p->kind != P_FLOAT))
        return;
    /* llvm-mc folds no modifier into an integer of a 64-bit operand (|12| stays
       an e64 abs) */
    if (p->kind == P_INT && si->bits == 64)
        return;
    if (p->kind == P_FLOAT) {
        if (p->abs)
            p->fval = fabs(p->fval);
        if (p->neg)
            p->fval = -p->fval;
    } else {
        unsigned bits = si->bits == 16 || si->bits == 64 ? si->bits : 32;
        uint64_t v = (uint64_t)p->ival, sign = 1ull << (bits - 1);
        if (bits < 64)
            v &= (1ull << bits) - 1;
        if (p->abs)
            v &= ~sign;
        if (p->neg)
            v ^= sign;
        p->ival = (int64_t)v;
    }
    p->neg = p->abs = false;
}

/*
 * The slot operand i of a VOPD pair binds to: the X op's slots list X's
 * operands then Y's, and so do the Y op's, so X's operands take X's and Y's
 * take the Y op's (a K constant is a literal only, dot2acc's sources are f16
 * pairs).  `any` when the counts do not fit (the encoder then says why).
 */
static const rdx_isa_opnd_info *vopd_slot(const rdx_isa_target *t, rdx_isa_op x, rdx_isa_op y,
                                          unsigned nx, unsigned n, unsigned i,
                                          const rdx_isa_opnd_info *any)
{
    const rdx_isa_form_info *fx = isa_form_of(t, x, RDX_ISA_FORM_NATIVE);
    const rdx_isa_form_info *fy = isa_form_of(t, y, RDX_ISA_FORM_NATIVE);
    if (!fx || !fy || nx != fx->nopnd / 2u || n - nx != fy->nopnd / 2u)
        return any;
    return i < nx ? &fx->opnd[i] : &fy->opnd[fy->nopnd - (n - nx) + (i - nx)];
}

/* Bind the parsed operands to `form`'s slots; false (c->err set) if they do not fit. */
static bool bind(bind_ctx *c, rdx_isa_op op, rdx_isa_op op_y, rdx_isa_form form, const pinst *pi,
                 unsigned mn_col, rdx_isa_inst *in)
{
    const rdx_isa_form_info *fi = isa_form_of(c->t, op, form);
    if (!fi && rdx_isa_op_form(c->t, op, form, &fi) != RDX_OK) /* for its message */
        return bind_err(c, mn_col, "%s", rdx_error_message());
    rdx_isa_enc enc = (rdx_isa_enc)fi->enc;
    c->op = op;
    c->enc = enc;
    memset(in, 0, sizeof *in);
    in->op = (uint16_t)op;
    in->op_y = (uint16_t)op_y;
    in->form = (uint8_t)(form == RDX_ISA_FORM_AUTO ? RDX_ISA_FORM_NATIVE : form);
    for (int m = 0; m < RDX_ISA_MOD_COUNT; m++)
        in->mod[m] = pi->mod[m];
    c->branch_slot = -1;
    if ((pi->th_sys == 1) != (pi->mod[RDX_ISA_MOD_SCOPE] == 3) && pi->th_sys)
        return bind_err(c, pi->mod_col[RDX_ISA_MOD_TH], "scope and th combination is not valid");

    popnd ps[MAX_P + 1];
    unsigned n = pi->n;
    memcpy(ps, pi->p, n * sizeof ps[0]);
    /* A DPP form needs its control (llvm-mc rejects row_mask:, fi: ... alone). */
    if ((form == RDX_ISA_FORM_DPP16 || form == RDX_ISA_FORM_E64_DPP16) &&
        !pi->mod_set[RDX_ISA_MOD_DPP_CTRL])
        return bind_err(c, mn_col,
                        "expected a DPP control (quad_perm:, row_shl:, row_mirror, ...)");
    if ((form == RDX_ISA_FORM_DPP8 || form == RDX_ISA_FORM_E64_DPP8) &&
        !pi->mod_set[RDX_ISA_MOD_DPP8])
        return bind_err(c, mn_col, "expected dpp8:[...]");
    /* Defaults LLVM applies to omitted modifiers. */
    if ((form == RDX_ISA_FORM_DPP16 || form == RDX_ISA_FORM_E64_DPP16)) {
        if (!pi->mod_set[RDX_ISA_MOD_ROW_MASK])
            in->mod[RDX_ISA_MOD_ROW_MASK] = 0xf;
        if (!pi->mod_set[RDX_ISA_MOD_BANK_MASK])
            in->mod[RDX_ISA_MOD_BANK_MASK] = 0xf;
    }
    unsigned nsrc = 0;
    for (unsigned i = 0; i < fi->nopnd; i++) {
        unsigned k;
        if (src_index(&fi->opnd[i], &k) && k + 1 > nsrc)
            nsrc = k + 1;
    }
    if (pi->mod_set[RDX_ISA_MOD_OP_SEL] && enc != RDX_ISA_ENC_VOP3P && enc != RDX_ISA_ENC_VINTERP &&
        nsrc < 3 && pi->op_sel_len == nsrc + 1) {
        /* op_sel:[src0, .., dst]: the element after the sources is the destination, bit 3. */
        int32_t v = pi->mod[RDX_ISA_MOD_OP_SEL];
        in->mod[RDX_ISA_MOD_OP_SEL] = (v & ((1 << nsrc) - 1)) | (((v >> nsrc) & 1) << 3);
    }
    if (enc == RDX_ISA_ENC_VOP3P && !pi->mod_set[RDX_ISA_MOD_OP_SEL_HI])
        in->mod[RDX_ISA_MOD_OP_SEL_HI] = (int32_t)rdx_syntax_op_sel_hi_default(op, nsrc);
    else if (enc == RDX_ISA_ENC_VOP3P && nsrc == 2 && !rdx_syntax_is_mix(op))
        in->mod[RDX_ISA_MOD_OP_SEL_HI] |= 4; /* the absent src2's bit stays set */
    const char *name = rdx_isa_op_name(op);
    if ((enc == RDX_ISA_ENC_MTBUF ||
         (enc == RDX_ISA_ENC_VBUFFER && !strncmp(name, "tbuffer", 7))) &&
        !pi->mod_set[RDX_ISA_MOD_FORMAT])
        in->mod[RDX_ISA_MOD_FORMAT] = 1;

    /* Operands LLVM leaves out of the text. */
    if (n == 0 && rdx_syntax_no_operands(op)) {
        for (unsigned i = 0; i < fi->nopnd; i++) {
            rdx_isa_opnd *o = &in->opnd[i];
            unsigned k = fi->opnd[i].kinds, cnt = fi->opnd[i].bits / 32 ? fi->opnd[i].bits / 32 : 1;
            if (k & RDX_ISA_KIND_BIT(RDX_ISA_OPND_OFF))
                *o = rdx_isa_off();
            else if (k & RDX_ISA_KIND_BIT(RDX_ISA_OPND_SGPR))
                *o = rdx_isa_sgpr(0, cnt);
            else
                *o = rdx_isa_vgpr(0, cnt);
        }
        in->nopnd = fi->nopnd;
        return true;
    }
    /* s_endpgm, s_barrier ...: an omitted immediate is 0. */
    if (n == 0 && fi->nopnd == 1 && (fi->opnd[0].kinds & RDX_ISA_KIND_BIT(RDX_ISA_OPND_IMM))) {
        in->opnd[0] = rdx_isa_imm(0);
        in->nopnd = 1;
        return true;
    }
    /* Atomics without return have no vdst (isa.h): their slot list starts with it. */
    unsigned skip = 0;
    if (is_mem_enc(enc) && fi->nopnd && fi->opnd[0].role == RDX_ISA_ROLE_VDST &&
        n + 1 == fi->nopnd && rdx_syntax_is_atomic_noret(c->t, in))
        skip = 1;
    /* VOPC in 32-bit encodings: the vcc destination may be left out, as llvm-mc
       allows (v_cmp_eq_u32 v1, v2). */
    if (enc == RDX_ISA_ENC_VOPC && fi->nopnd && n + 1 == fi->nopnd &&
        fi->opnd[0].role == RDX_ISA_ROLE_VCC && n < MAX_P) {
        memmove(ps + 1, ps, n * sizeof ps[0]);
        memset(&ps[0], 0, sizeof ps[0]);
        ps[0].kind = P_REG;
        ps[0].file = RDX_ISA_OPND_SPECIAL;
        ps[0].reg = RDX_ISA_REG_VCC_LO;
        ps[0].count = 1;
        ps[0].col = mn_col;
        n++;
    }
    bool image = enc == RDX_ISA_ENC_MIMG || enc == RDX_ISA_ENC_VIMAGE || enc == RDX_ISA_ENC_VSAMPLE;
    unsigned extra = 0; /* NSA list items beyond the first address slot */
    if (image) {
        bool inlist = false;
        for (unsigned i = 0; i < n; i++) {
            if (ps[i].list_start)
                inlist = true;
            else if (inlist)
                extra++;
            if (ps[i].list_end)
                inlist = false;
        }
    }
    if (enc != RDX_ISA_ENC_VOPD && n + skip != fi->nopnd + extra)
        return bind_err(c, n + skip > fi->nopnd ? ps[fi->nopnd - skip].col : mn_col,
                        "invalid operand count for %s: expected %u operands, found %u", name,
                        fi->nopnd - skip, n);
    if (n > RDX_ISA_MAX_OPNDS)
        return bind_err(c, ps[RDX_ISA_MAX_OPNDS].col, "too many operands");
    unsigned slot = skip;
    for (unsigned i = 0; i < n; i++) {
        if (i > 0 && !(image && !ps[i].list_start && slot_in_list(ps, i)))
            slot++;
        const rdx_isa_opnd_info *si = slot < fi->nopnd ? &fi->opnd[slot] : NULL;
        /* VOPD: the slot list is the X op's; any half takes registers and constants. */
        static const rdx_isa_opnd_info vopd_any = {
            RDX_ISA_ROLE_SRC0, RDX_ISA_FMT_F32, 32,
            RDX_ISA_KIND_BIT(RDX_ISA_OPND_SGPR) | RDX_ISA_KIND_BIT(RDX_ISA_OPND_VGPR) |
                RDX_ISA_KIND_BIT(RDX_ISA_OPND_SPECIAL) | RDX_ISA_KIND_BIT(RDX_ISA_OPND_INT) |
                RDX_ISA_KIND_BIT(RDX_ISA_OPND_FLOAT) | RDX_ISA_KIND_BIT(RDX_ISA_OPND_LITERAL)
        };
        if (enc == RDX_ISA_ENC_VOPD)
            si = vopd_slot(c->t, op, op_y, pi->nx, n, i, &vopd_any);
        if (form == RDX_ISA_FORM_E32)
            fold_fp_mods(&ps[i], si, op);
        if (!convert(c, &ps[i], si, i, &in->opnd[i]))
            return false;
        if (i < RDX_ISA_MAX_OPNDS)
            c->opnd_col[i] = ps[i].col;
        /* RDNA4 named-barrier ops take the barrier in m0 or as an inline constant
           (llvm-mc 19 rejects SGPRs and literals, and mis-encodes null and the
           src_* registers as some inline constant) */
        if (si && si->role == RDX_ISA_ROLE_SRC0 &&
            (op == RDX_ISA_OP_S_BARRIER_SIGNAL || op == RDX_ISA_OP_S_BARRIER_SIGNAL_ISFIRST ||
             op == RDX_ISA_OP_S_GET_BARRIER_STATE || op == RDX_ISA_OP_S_BARRIER_INIT ||
             op == RDX_ISA_OP_S_BARRIER_JOIN || op == RDX_ISA_OP_S_WAKEUP_BARRIER) &&
            !(in->opnd[i].kind == RDX_ISA_OPND_INT || in->opnd[i].kind == RDX_ISA_OPND_FLOAT ||
              (in->opnd[i].kind == RDX_ISA_OPND_SPECIAL && in->opnd[i].reg == RDX_ISA_REG_M0)))
            return bind_err(c, ps[i].col, "the barrier is m0 or an inline constant");
        /* llvm-mc 19: "lds_direct is not supported on this GPU" as a VALU source
           (VOPD pairs take it) */
        if (in->opnd[i].kind == RDX_ISA_OPND_SPECIAL && in->opnd[i].reg == RDX_ISA_REG_LDS_DIRECT &&
            si &&
            (si->role == RDX_ISA_ROLE_SRC0 || si->role == RDX_ISA_ROLE_SRC1 ||
             si->role == RDX_ISA_ROLE_SRC2) &&
            (enc == RDX_ISA_ENC_VOP1 || enc == RDX_ISA_ENC_VOP2 || enc == RDX_ISA_ENC_VOPC ||
             enc == RDX_ISA_ENC_VOP3 || enc == RDX_ISA_ENC_VOP3SD || enc == RDX_ISA_ENC_VOP3P))
            return bind_err(c, ps[i].col, "lds_direct is not supported on this GPU");
        if (ps[i].hi) {
            /* only where bit 7 of the field selects the half: 16-bit operands of
               VOP1/VOP2/VOPC e32 and DPP forms (not VOPD, memory, VINTERP, e64) */
            if (ps[i].reg > 127 ||
                !(form == RDX_ISA_FORM_E32 || form == RDX_ISA_FORM_DPP16 ||
                  form == RDX_ISA_FORM_DPP8) ||
                !(enc == RDX_ISA_ENC_VOP1 || enc == RDX_ISA_ENC_VOP2 || enc == RDX_ISA_ENC_VOPC) ||
                !si || si->bits != 16)
                return bind_err(c, ps[i].col,
                                "high halves (.h) are only supported for 16-bit operands of "
                                "32-bit encodings, v0..v127");
            in->opnd[i].reg = (uint16_t)(ps[i].reg + 128);
        } else if (in->opnd[i].kind == RDX_ISA_OPND_VGPR && in->opnd[i].reg >= 128 &&
                   isa_vgpr16_field(c->t, op, form, si)) {
            /* a 16-bit operand of a 32-bit encoding names v0..v127 (bit 7 of the
               field selects the high half): v128 and up need the e64 form, which
               llvm-mc then picks (the vgpr16-e32 rule of isa/isa_check.c) */
            return bind_err(c, ps[i].col,
                            "16-bit operands of 32-bit encodings take v0..v127 (or .h "
                            "halves); v%u needs the e64 form [rule %s]",
                            (unsigned)in->opnd[i].reg, rdx_isa_rule_name(RDX_ISA_RULE_VGPR16_E32));
        }
        unsigned k;
        /* llvm-mc 19 rejects neg/abs of an integer literal of a 64-bit operand
           (even neg(0x3ff80000), which its disassembler prints) */
        if ((ps[i].neg || ps[i].abs) && ps[i].kind == P_INT && si && si->bits == 64 &&
            in->opnd[i].kind == RDX_ISA_OPND_LITERAL)
            return bind_err(c, ps[i].col,
                            "source modifiers on an integer literal of a 64-bit operand");
        if ((ps[i].neg || ps[i].abs || ps[i].sext)) {
            if (!src_index(si, &k) || enc == RDX_ISA_ENC_VOPD ||
                (enc == RDX_ISA_ENC_VOP3P && !rdx_syntax_is_mix(op)))
                return bind_err(c, ps[i].col, "source modifiers are not allowed on this operand");
            if (ps[i].neg || ps[i].sext)
                in->mod[RDX_ISA_MOD_NEG] |= 1 << k;
            if (ps[i].abs)
                in->mod[enc == RDX_ISA_ENC_VOP3P ? RDX_ISA_MOD_NEG_HI : RDX_ISA_MOD_ABS] |= 1 << k;
        }
    }
    in->nopnd = (uint8_t)n;
    in->nx = (uint8_t)(enc == RDX_ISA_ENC_VOPD ? pi->nx : 0);
    return true;
}

/* ------------------------------------------------------------- driver */

static const rdx_isa_target *state_target(rdx_asm_state *st)
{
    return st->target;
}

typedef struct alias {
    unsigned targets;
    const char *legacy, *canonical;
} alias;

static const alias aliases[] = {
#define ALIAS(targets, legacy, canonical) { targets, legacy, canonical },
#include "isa/asm/aliases.inc"
#undef ALIAS
};

bool rdx_asm_alias(const char *name, unsigned fambit, char *out, size_t cap)
{
    static const char *const suffixes[] = { "_e64_dpp", "_e32", "_e64", "_dpp", "" };
    size_t n = strlen(name);
    for (size_t s = 0; s < sizeof suffixes / sizeof suffixes[0]; s++) {
        size_t sl = strlen(suffixes[s]);
        if (sl > n || strcmp(name + n - sl, suffixes[s]))
            continue;
        for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
            if ((aliases[i].targets & fambit) && strlen(aliases[i].legacy) == n - sl &&
                !strncmp(aliases[i].legacy, name, n - sl)) {
                snprintf(out, cap, "%s%s", aliases[i].canonical, suffixes[s]);
                return true;
            }
    }
    return false;
}

/* Mnemonic at the current token into op/form; false after an error. */
static bool mnemonic(rdx_asm_state *st, rdx_lexer *lx, const rdx_isa_target *t, rdx_isa_op *op,
                     rdx_isa_form *form)
{
    char name[96];
    const rdx_tok *tk = &lx->tok;
    if (tk->kind != RDX_TOK_IDENT || tk->len >= sizeof name) {
        rdx_asm_error(st, tk->col, "expected an instruction mnemonic");
        return false;
    }
    memcpy(name, tk->text, tk->len);
    name[tk->len] = 0;
    for (char *q = name; *q; q++)
        *q = (char)tolower((unsigned char)*q);
    bool found = rdx_isa_op_find(name, op, form) == RDX_OK;
    if (!found || !rdx_isa_op_available(t, *op)) {
        /* Legacy spellings llvm-mc accepts (global_load_dword, ds_read_b32, ...). */
        char canon[128];
        rdx_isa_op aop;
        rdx_isa_form aform;
        if (rdx_asm_alias(name, rdx_syntax_family_bit(t), canon, sizeof canon) &&
            rdx_isa_op_find(canon, &aop, &aform) == RDX_OK) {
            *op = aop;
            *form = aform;
            found = true;
        }
    }
    if (!found) {
        rdx_asm_error(st, tk->col, "invalid instruction '%s'", name);
        return false;
    }
    if (!rdx_isa_op_available(t, *op)) {
        rdx_asm_error(st, tk->col, "instruction '%s' is not supported on %s", name, t->name);
        return false;
    }
    rdx_lex_next(lx);
    return true;
}

/* Operands and modifiers up to the end of the line or "::". */
static bool parse_items(rdx_asm_state *st, rdx_lexer *lx, const rdx_isa_target *t, rdx_isa_op op,
                        pinst *pi)
{
    const rdx_isa_form_info *nat = isa_form_of(t, op, RDX_ISA_FORM_AUTO);
    unsigned first = pi->n;
    for (;;) {
        const rdx_tok *tk = &lx->tok;
        if (tk->kind == RDX_TOK_END || rdx_tok_is(tk, "::"))
            return true;
        if (rdx_tok_is(tk, ",")) {
            rdx_lex_next(lx);
            continue;
        }
        unsigned rf, ri;
        bool is_reg = tk->kind == RDX_TOK_IDENT && reg_name(tk->text, tk->len, &rf, &ri);
        if (!is_reg) {
            int r = parse_modifier(st, lx, op, pi);
            if (r < 0)
                return false;
            if (r > 0)
                continue;
        }
        if (pi->n >= MAX_P) {
            rdx_asm_error(st, tk->col, "too many operands");
            return false;
        }
        unsigned k = pi->n - first;
        /* Ops whose immediate has a symbolic spelling. */
        if (nat && k < nat->nopnd && (nat->opnd[k].kinds & RDX_ISA_KIND_BIT(RDX_ISA_OPND_IMM))) {
            rdx_imm_style sty =
                rdx_syntax_imm_style(op, (rdx_isa_enc)nat->enc, (rdx_isa_role)nat->opnd[k].role);
            popnd o;
            int sr = parse_special_imm(st, lx, sty, &o);
            if (sr < 0)
                return false;
            if (sr > 0) {
                pi->p[pi->n++] = o;
                continue;
            }
        }
        if (rdx_tok_is(tk, "[")) {
            /* NSA address list: [v0, v1, ...] */
            rdx_lex_next(lx);
            bool start = true;
            for (;;) {
                if (pi->n >= MAX_P) {
                    rdx_asm_error(st, lx->tok.col, "too many operands");
                    return false;
                }
                popnd *o = &pi->p[pi->n];
                if (!parse_operand(st, lx, o))
                    return false;
                o->list_start = start;
                start = false;
                pi->n++;
                if (rdx_tok_is(&lx->tok, "]")) {
                    o->list_end = true;
                    rdx_lex_next(lx);
                    break;
                }
                if (!expect(st, lx, ",", "',' or ']'"))
                    return false;
            }
            continue;
        }
        if (!parse_operand(st, lx, &pi->p[pi->n]))
            return false;
        pi->n++;
    }
}

static void emit_inst(rdx_asm_state *st, const rdx_isa_inst *in, const uint8_t *bytes, size_t len,
                      const bind_ctx *c)
{
    /* .amdgcn.next_free_vgpr / _sgpr: one past the highest register named. */
    for (unsigned i = 0; i < in->nopnd; i++) {
        const rdx_isa_opnd *o = &in->opnd[i];
        uint32_t top = (uint32_t)o->reg + (o->count ? o->count : 1u);
        if (o->kind == RDX_ISA_OPND_VGPR) {
            if (top > 256 && top <= 384)
                top -= 128; /* true16 high halves live at 128+ in 32-bit encodings */
            if (top > st->max_vgpr)
                st->max_vgpr = top;
        } else if (o->kind == RDX_ISA_OPND_SGPR && top > st->max_sgpr) {
            st->max_sgpr = top;
        }
    }
    size_t off = rdx_asm_cur_data(st)->len;
    rdx_asm_emit(st, bytes, len);
    if (c->branch_slot >= 0) {
        rdx_asm_fixup f = { .kind = RDX_FIXUP_BRANCH,
                            .section = st->cur,
                            .offset = off,
                            .inst_start = off,
                            .size = 2,
                            .expr = c->branch_expr,
                            .line_start = st->line_start,
                            .line = st->line };
        rdx_asm_add_fixup(st, &f);
    }
    if (rdx_asm_grow(st, (void **)&st->stmts, &st->capstmts, st->nstmts, sizeof *st->stmts))
        st->stmts[st->nstmts++] = (rdx_asm_stmt){ st->line, st->cur, off, len };
}

/* Encode `in`, then check every operand rule of the hardware (rdx_isa_check: the
   encoder checks those llvm-mc enforces; this adds wmma-overlap). */
static rdx_status encode_checked(const rdx_isa_target *t, const rdx_isa_inst *in, uint8_t *bytes,
                                 size_t *len)
{
    return rdx_isa_encode_checked(t, in, 0, bytes, len);
}

void rdx_asm_instruction(rdx_asm_state *st, rdx_lexer *lx)
{
    const rdx_isa_target *t = state_target(st);
    unsigned mn_col = lx->tok.col;
    rdx_isa_op op, op_y = RDX_ISA_OP_NONE;
    rdx_isa_form form;
    if (!t) {
        rdx_asm_error(st, mn_col, "no target");
        return;
    }
    if (!mnemonic(st, lx, t, &op, &form))
        return;
    st->gfx_fixed = true;
    pinst pi_storage;
    pinst *pi = &pi_storage;
    memset(pi, 0, sizeof *pi);
    if (!parse_items(st, lx, t, op, pi))
        goto out;
    if (rdx_tok_is(&lx->tok, "::")) {
        pi->nx = pi->n;
        rdx_lex_next(lx);
        rdx_isa_form fy;
        if (!mnemonic(st, lx, t, &op_y, &fy))
            goto out;
        if (!parse_items(st, lx, t, op_y, pi))
            goto out;
    }
    if (!rdx_asm_expect_end(st, lx))
        goto out;

    rdx_isa_form cands[3];
    unsigned nc = 0;
    if (form == RDX_ISA_FORM_DPP16 && pi->dpp8)
        cands[nc++] = RDX_ISA_FORM_DPP8;
    else if (form == RDX_ISA_FORM_E64_DPP16 && pi->dpp8)
        cands[nc++] = RDX_ISA_FORM_E64_DPP8;
    else if (form != RDX_ISA_FORM_AUTO)
        cands[nc++] = form;
    else if (pi->dpp8) {
        cands[nc++] = RDX_ISA_FORM_DPP8;
        cands[nc++] = RDX_ISA_FORM_E64_DPP8;
    } else if (pi->dpp16) {
        cands[nc++] = RDX_ISA_FORM_DPP16;
        cands[nc++] = RDX_ISA_FORM_E64_DPP16;
    } else {
        if (isa_form_of(t, op, RDX_ISA_FORM_E32)) {
            cands[nc++] = RDX_ISA_FORM_E32;
            cands[nc++] = RDX_ISA_FORM_E64;
        } else {
            cands[nc++] = RDX_ISA_FORM_NATIVE;
            cands[nc++] = RDX_ISA_FORM_E64;
        }
    }
    bind_ctx first = { 0 };
    bool have_first = false;
    for (unsigned k = 0; k < nc; k++) {
        const rdx_isa_form_info *fi = isa_form_of(t, op, cands[k]);
        if (!fi)
            continue;
        bind_ctx c = { .st = st, .t = t };
        rdx_isa_inst in;
        uint8_t bytes[RDX_ISA_MAX_BYTES];
        size_t len;
        if (bind(&c, op, op_y, cands[k], pi, mn_col, &in)) {
            if (encode_checked(t, &in, bytes, &len) == RDX_OK) {
                emit_inst(st, &in, bytes, len, &c);
                goto out;
            }
            bind_err(&c, error_col(&c, pi, rdx_error_message(), in.nopnd, mn_col), "%s",
                     rdx_error_message());
            /* 16-bit immediates may be written signed (-1) or unsigned (0xffff):
               try the other reading of any that has one. */
            bool changed = false;
            for (unsigned i = 0; i < in.nopnd; i++) {
                rdx_isa_opnd *o = &in.opnd[i];
                if (o->kind != RDX_ISA_OPND_IMM)
                    continue;
                if (o->value < 0 && o->value >= -32768)
                    o->value += 0x10000, changed = true;
                else if (o->value >= 0x8000 && o->value <= 0xffff)
                    o->value -= 0x10000, changed = true;
            }
            if (changed && encode_checked(t, &in, bytes, &len) == RDX_OK) {
                emit_inst(st, &in, bytes, len, &c);
                goto out;
            }
            /* VOPD binds every operand as a source: an integer whose bits are an
               inline float may be a K constant (v_dual_fmaak_f32 ..., 0x3f800000),
               which only takes literals; try each such one as a literal. */
            for (unsigned i = 0; c.enc == RDX_ISA_ENC_VOPD && i < in.nopnd && i < pi->n; i++) {
                const popnd *pp = &pi->p[i];
                if (in.opnd[i].kind != RDX_ISA_OPND_FLOAT ||
                    (pp->kind != P_INT && pp->kind != P_FLOAT))
                    continue;
                rdx_isa_opnd keep = in.opnd[i];
                in.opnd[i] =
                    rdx_isa_literal(pp->kind == P_INT ? (uint32_t)pp->ival
                                                      : float_literal(pp->fval, RDX_ISA_FMT_F32));
                if (encode_checked(t, &in, bytes, &len) == RDX_OK) {
                    emit_inst(st, &in, bytes, len, &c);
                    goto out;
                }
                in.opnd[i] = keep;
            }
        }
        if (!have_first) {
            first = c;
            have_first = true;
        }
    }
    if (have_first)
        rdx_asm_error(st, first.err_col, "%s", first.err);
    else
        rdx_asm_error(st, mn_col, "%s has no %s form on %s", rdx_isa_op_name(op),
                      rdx_isa_form_name(cands[0]), t->name);
out:
    return;
}

rdx_status rdx_asm_assemble_inst(const rdx_isa_target *t, const char *line, uint8_t *out,
                                 size_t *len)
{
    if (!t || !line || !out || !len)
        return rdx_fail(RDX_ERR_INVALID, "rdx_asm_assemble_inst: NULL argument");
    rdx_asm_options o = { .filename = "<line>", .arch = t->name };
    rdx_asm_result *r;
    rdx_status s = rdx_asm_assemble(line, strlen(line), &o, &r);
    if (s != RDX_OK) {
        rdx_asm_free(r);
        return s;
    }
    int sec = rdx_asm_find_section(r, ".text");
    size_t n = sec >= 0 ? r->sections[sec].size : 0;
    if (n == 0 || n > RDX_ISA_MAX_BYTES) {
        rdx_asm_free(r);
        return rdx_fail(RDX_ERR_PARSE, "<line>: expected exactly one instruction");
    }
    memcpy(out, r->sections[sec].data, n);
    *len = n;
    rdx_asm_free(r);
    return RDX_OK;
}
