/*
 * isa/asm/print.c — rdx_asm_print_inst: an instruction as LLVM 19's AMDGPU
 * instruction printer writes it (operands, then modifiers in LLVM's order).
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rdx/asm.h>

#include "isa/asm/syntax.h"
#include "isa/isa_internal.h"
#include "util/error.h"

typedef struct out {
    char *buf;
    size_t cap, len;
    bool overflow;
} out;

/* Fast paths of put() for the common pieces: plain text and numbers. */
static void put_n(out *o, const char *s, size_t n)
{
    if (o->overflow || o->len + n + 1 > o->cap) {
        o->overflow = true;
        return;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = 0;
}

#define put_lit(o, s) put_n(o, s, sizeof(s) - 1)

static void put_s(out *o, const char *s)
{
    put_n(o, s, strlen(s));
}

/* Decimal digits of v, written backwards ending at `end`; returns the start. */
static char *utoa_end(char *end, unsigned v)
{
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return end;
}

static void put_u(out *o, unsigned v)
{
    if (v < 10) {
        char c = (char)('0' + v);
        put_n(o, &c, 1);
        return;
    }
    char tmp[12];
    char *p = utoa_end(tmp + sizeof tmp, v);
    put_n(o, p, (size_t)(tmp + sizeof tmp - p));
}

static void put_x(out *o, unsigned v)
{
    char tmp[8];
    size_t n = sizeof tmp;
    do {
        tmp[--n] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    put_n(o, tmp + n, sizeof tmp - n);
}

static void put_d(out *o, int v)
{
    if (v < 0) {
        put_n(o, "-", 1);
        put_u(o, (unsigned)-(int64_t)v);
    } else {
        put_u(o, (unsigned)v);
    }
}

/* printf-style output for the conversions the printer uses (%u %d %x %s %c),
   without the C library's formatter: this is the disassembler's hot path. */
static void put(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *lit = fmt, *p = fmt;
    for (; *p; p++) {
        if (*p != '%')
            continue;
        put_n(o, lit, (size_t)(p - lit));
        switch (*++p) {
        case 'u':
            put_u(o, va_arg(ap, unsigned));
            break;
        case 'd':
            put_d(o, va_arg(ap, int));
            break;
        case 'x':
            put_x(o, va_arg(ap, unsigned));
            break;
        case 's':
            put_s(o, va_arg(ap, const char *));
            break;
        case 'c': {
            char c = (char)va_arg(ap, int);
            put_n(o, &c, 1);
            break;
        }
        default:
            assert(!"put: unsupported conversion");
            break;
        }
        lit = p + 1;
    }
    put_n(o, lit, (size_t)(p - lit));
    va_end(ap);
}

/* A register or range: s5, v[4:7], ttmp[0:1] (built in one piece). */
#define reg_range(o, file, reg, count) reg_range_n(o, file, sizeof(file) - 1, reg, count)
static void reg_range_n(out *o, const char *file, size_t flen, unsigned reg, unsigned count)
{
    char tmp[40];
    char *end = tmp + sizeof tmp, *p = end;
    if (count <= 1) {
        p = utoa_end(p, reg);
    } else {
        *--p = ']';
        p = utoa_end(p, reg + count - 1);
        *--p = ':';
        p = utoa_end(p, reg);
        *--p = '[';
    }
    p -= flen;
    memcpy(p, file, flen);
    put_n(o, p, (size_t)(end - p));
}

static void print_imm(out *o, const rdx_isa_target *t, rdx_imm_style st, int32_t v)
{
    unsigned fam = rdx_syntax_family_bit(t);
    uint32_t u = (uint32_t)v & 0xffff;
    switch (st) {
    case RDX_IMM_DEC:
        put(o, "%u", u);
        return;
    case RDX_IMM_HEX:
        put(o, "0x%x", u);
        return;
    case RDX_IMM_SIGNED:
        put(o, "%d", v);
        return;
    case RDX_IMM_SMEM:
        if (v < 0)
            put(o, "-0x%x", (unsigned)-(int64_t)v);
        else
            put(o, "0x%x", (unsigned)v);
        return;
    case RDX_IMM_INLINE: {
        if (u <= 64)
            put(o, "%u", u);
        else
            put(o, "0x%x", u);
        return;
    }
    case RDX_IMM_WAITCNT: {
        unsigned vm = (u >> 10) & 63, lgkm = (u >> 4) & 63, exp = u & 7;
        bool all = vm == 63 && lgkm == 63 && exp == 7;
        const char *sep = "";
        if (vm != 63 || all) {
            put(o, "vmcnt(%u)", vm);
            sep = " ";
        }
        if (exp != 7 || all) {
            put(o, "%sexpcnt(%u)", sep, exp);
            sep = " ";
        }
        if (lgkm != 63 || all)
            put(o, "%slgkmcnt(%u)", sep, lgkm);
        return;
    }
    case RDX_IMM_DEPCTR:
        if (u & 0x60) {
            put(o, "0x%x", u);
            return;
        }
        {
            static const struct {
                const char *name;
                unsigned lo, width;
            } f[7] = { { "depctr_hold_cnt", 7, 1 }, { "depctr_sa_sdst", 0, 1 },
                       { "depctr_va_vdst", 12, 4 }, { "depctr_va_sdst", 9, 3 },
                       { "depctr_va_ssrc", 8, 1 },  { "depctr_va_vcc", 1, 1 },
                       { "depctr_vm_vsrc", 2, 3 } };
            bool all = true;
            for (int k = 0; k < 7; k++)
                if (((u >> f[k].lo) & ((1u << f[k].width) - 1)) != (1u << f[k].width) - 1)
                    all = false;
            const char *sep = "";
            for (int k = 0; k < 7; k++) {
                unsigned x = (u >> f[k].lo) & ((1u << f[k].width) - 1);
                if (all || x != (1u << f[k].width) - 1) {
                    put(o, "%s%s(%u)", sep, f[k].name, x);
                    sep = " ";
                }
            }
        }
        return;
    case RDX_IMM_DELAY_ALU: {
        static const char *const ids[12] = {
            "NO_DEP",        "VALU_DEP_1",    "VALU_DEP_2",    "VALU_DEP_3",        "VALU_DEP_4",
            "TRANS32_DEP_1", "TRANS32_DEP_2", "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1", "SALU_CYCLE_1",
            "SALU_CYCLE_2",  "SALU_CYCLE_3",
        };
        static const char *const skips[6] = {
            "SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"
        };
        unsigned id0 = u & 15, skip = (u >> 4) & 7, id1 = (u >> 7) & 15;
        if (!id0 && !skip && !id1) {
            put_lit(o, "0");
            return;
        }
        const char *sep = "";
        if (id0) {
            put(o, "instid0(%s)", id0 < 12 ? ids[id0] : "/* invalid instid value */");
            sep = " | ";
        }
        if (skip) {
            put(o, "%sinstskip(%s)", sep, skip < 6 ? skips[skip] : "/* invalid instskip value */");
            sep = " | ";
        }
        if (id1)
            put(o, "%sinstid1(%s)", sep, id1 < 12 ? ids[id1] : "/* invalid instid value */");
        return;
    }
    case RDX_IMM_HWREG: {
        unsigned id = u & 63, off = (u >> 6) & 31, size = ((u >> 11) & 31) + 1;
        const char *n = rdx_syntax_hwreg_name(fam, id);
        if (n)
            put(o, "hwreg(%s", n);
        else
            put(o, "hwreg(%u", id);
        if (off != 0 || size != 32)
            put(o, ", %u, %u", off, size);
        put_lit(o, ")");
        return;
    }
    case RDX_IMM_SENDMSG: {
        if (u > 0xff) {
            put(o, "%u", u);
            return;
        }
        const char *n = rdx_syntax_msg_name(fam, u);
        if (n)
            put(o, "sendmsg(%s)", n);
        else
            put(o, "sendmsg(%u, 0, 0)", u);
        return;
    }
    case RDX_IMM_EXP_TARGET: {
        char name[24];
        rdx_syntax_exp_target_name(u, name, sizeof name);
        put_s(o, name);
        return;
    }
    case RDX_IMM_VERSION: {
        /* LLVM: the version (name or number), then each flag or'ed on, the
           expression so far in parentheses: ((A|W64)|W32)|MDP */
        static const char *const flag[3] = { "UC_VERSION_W64_BIT", "UC_VERSION_W32_BIT",
                                             "UC_VERSION_MDP_BIT" };
        if ((u & 0x1fff) > 255) { /* no symbolic form: the whole value in hex */
            put(o, "0x%x", u);
            return;
        }
        unsigned nflags = 0;
        for (unsigned k = 0; k < 3; k++)
            nflags += (u >> (13 + k)) & 1;
        for (unsigned k = 1; k < nflags; k++)
            put_lit(o, "(");
        const char *n = rdx_syntax_version_name(u & 0x1fff);
        if (n)
            put(o, "%s", n);
        else
            put(o, "%u", u & 0x1fff);
        for (unsigned k = 0, done = 0; k < 3; k++)
            if ((u >> (13 + k)) & 1) {
                put(o, "|%s", flag[k]);
                if (++done < nflags)
                    put_lit(o, ")");
            }
        return;
    }
    }
}

static bool is_vop(rdx_isa_enc e)
{
    return e == RDX_ISA_ENC_VOP1 || e == RDX_ISA_ENC_VOP2 || e == RDX_ISA_ENC_VOPC ||
           e == RDX_ISA_ENC_VOP3 || e == RDX_ISA_ENC_VOP3SD || e == RDX_ISA_ENC_VOP3P ||
           e == RDX_ISA_ENC_VINTERP;
}

static void print_operand(out *o, const rdx_isa_target *t, const rdx_isa_inst *in,
                          const rdx_isa_form_info *fi, unsigned i, rdx_isa_enc enc)
{
    const rdx_isa_opnd *p = &in->opnd[i];
    const rdx_isa_opnd_info *info = fi && i < fi->nopnd ? &fi->opnd[i] : NULL;
    unsigned bits = info ? info->bits : 32;
    rdx_isa_role role = info ? (rdx_isa_role)info->role : RDX_ISA_ROLE_SRC0;
    switch (p->kind) {
    case RDX_ISA_OPND_SGPR:
        reg_range(o, "s", p->reg, p->count);
        break;
    case RDX_ISA_OPND_VGPR:
        /* True16 ops name register halves: v1.l; in 32-bit encodings v128+n is vn.h. */
        if (p->count <= 1 && in->op == RDX_ISA_OP_V_MOV_B16) {
            bool hi = p->reg >= 128 && in->form != RDX_ISA_FORM_E64 &&
                      in->form != RDX_ISA_FORM_E64_DPP16 && in->form != RDX_ISA_FORM_E64_DPP8;
            put(o, "v%u.%c", hi ? p->reg - 128u : p->reg, hi ? 'h' : 'l');
        } else {
            reg_range(o, "v", p->reg, p->count);
        }
        break;
    case RDX_ISA_OPND_TTMP:
        reg_range(o, "ttmp", p->reg, p->count);
        break;
    case RDX_ISA_OPND_SPECIAL: {
        const char *n = rdx_syntax_special_name(p->reg, p->count);
        if (n)
            put_s(o, n);
        else
            put(o, "/*special %u*/", p->reg);
        break;
    }
    case RDX_ISA_OPND_INT:
        put(o, "%d", p->value);
        break;
    case RDX_ISA_OPND_FLOAT:
        /* 1/(2*pi) prints in double precision for 64-bit operands and for RDNA3's
           WMMA accumulators; other wide operands (RDNA4 WMMA) use the short form. */
        put(o, "%s",
            rdx_syntax_fconst_text(
                (rdx_isa_fconst)p->value,
                bits == 64 || (bits > 64 && t->family == RDX_ISA_FAMILY_RDNA3) ? 64 : 32));
        break;
    case RDX_ISA_OPND_LITERAL: {
        /* LLVM prints a literal by its value: small integers in decimal, inline
           float bit patterns as the float, the rest in hex. */
        int32_t v = p->value;
        rdx_isa_fmt fmt = info ? (rdx_isa_fmt)info->fmt : RDX_ISA_FMT_ANY;
        /* 16-bit VALU operands read the literal's low half (SALU ones print all 32). */
        bool half = rdx_syntax_literal16((rdx_isa_op)in->op, enc, bits, role);
        if (half)
            v = (int16_t)(uint16_t)v;
        int fc = rdx_syntax_float_of_bits((uint32_t)v & (half ? 0xffffu : ~0u), fmt, bits);
        if (v >= -16 && v <= 64)
            put(o, "%d", v);
        else if (fc >= 0)
            put_s(o, rdx_syntax_fconst_text((rdx_isa_fconst)fc, bits));
        else
            put(o, "0x%x", (uint32_t)v & (half ? 0xffffu : ~0u));
        break;
    }
    case RDX_ISA_OPND_BRANCH:
        put(o, "%u", (uint32_t)p->value & 0xffff);
        break;
    case RDX_ISA_OPND_OFF:
        put_lit(o, "off");
        break;
    case RDX_ISA_OPND_IMM:
        if (enc == RDX_ISA_ENC_SMEM && role == RDX_ISA_ROLE_SDATA) {
            print_imm(o, t, RDX_IMM_INLINE, p->value);
            break;
        }
        if (enc == RDX_ISA_ENC_SMEM && role == RDX_ISA_ROLE_SOFFSET && p->value == 0 &&
            in->mod[RDX_ISA_MOD_OFFSET] == 0 && t->family == RDX_ISA_FAMILY_RDNA3) {
            put_lit(o, "null");
            break;
        }
        if (role == RDX_ISA_ROLE_ATTR) {
            put(o, "attr%u.%c", (unsigned)p->value >> 2, "xyzw"[p->value & 3]);
            break;
        }
        print_imm(o, t, rdx_syntax_imm_style((rdx_isa_op)in->op, enc, role), p->value);
        break;
    default:
        put_lit(o, "/*?*/");
        break;
    }
}

static void print_bits_list(out *o, const char *name, unsigned mask, unsigned n)
{
    put(o, " %s:[", name);
    for (unsigned i = 0; i < n; i++)
        put(o, "%s%u", i ? "," : "", (mask >> i) & 1);
    put_lit(o, "]");
}

static void print_dpp16(out *o, const rdx_isa_inst *in)
{
    unsigned c = (unsigned)in->mod[RDX_ISA_MOD_DPP_CTRL];
    if (c <= 0xff)
        put(o, " quad_perm:[%u,%u,%u,%u]", c & 3, (c >> 2) & 3, (c >> 4) & 3, (c >> 6) & 3);
    else if (c >= 0x101 && c <= 0x10f)
        put(o, " row_shl:%u", c & 15);
    else if (c >= 0x111 && c <= 0x11f)
        put(o, " row_shr:%u", c & 15);
    else if (c >= 0x121 && c <= 0x12f)
        put(o, " row_ror:%u", c & 15);
    else if (c == 0x140)
        put_lit(o, " row_mirror");
    else if (c == 0x141)
        put_lit(o, " row_half_mirror");
    else if (c >= 0x150 && c <= 0x15f)
        put(o, " row_share:%u", c & 15);
    else if (c >= 0x160 && c <= 0x16f)
        put(o, " row_xmask:%u", c & 15);
    else
        put_lit(o, " /* Invalid dpp_ctrl value */");
    static const char hexd[] = "0123456789abcdef";
    char rb[] = " row_mask:0x? bank_mask:0x?";
    rb[12] = hexd[in->mod[RDX_ISA_MOD_ROW_MASK] & 15];
    rb[26] = hexd[in->mod[RDX_ISA_MOD_BANK_MASK] & 15];
    put_n(o, rb, sizeof rb - 1);
    if (in->mod[RDX_ISA_MOD_BOUND_CTRL])
        put_lit(o, " bound_ctrl:1");
    if (in->mod[RDX_ISA_MOD_FI])
        put_lit(o, " fi:1");
}

/* ds_swizzle_b32's offset as LLVM spells it: offset:swizzle(MODE,...). */
static void print_swizzle(out *o, unsigned v)
{
    if ((v & 0xff00) == 0x8000) {
        put(o, " offset:swizzle(QUAD_PERM,%u,%u,%u,%u)", v & 3, (v >> 2) & 3, (v >> 4) & 3,
            (v >> 6) & 3);
        return;
    }
    if (v & 0x8000) {
        put(o, " offset:%u", v);
        return;
    }
    unsigned and_m = v & 31, or_m = (v >> 5) & 31, xor_m = (v >> 10) & 31;
    if (and_m == 31 && or_m == 0 && xor_m && !(xor_m & (xor_m - 1))) {
        put(o, " offset:swizzle(SWAP,%u)", xor_m);
        return;
    }
    if (and_m == 31 && or_m == 0 && xor_m && !((xor_m + 1) & xor_m)) {
        put(o, " offset:swizzle(REVERSE,%u)", xor_m + 1);
        return;
    }
    unsigned group = 31 - and_m + 1;
    if (group > 1 && !(group & (group - 1)) && or_m < group && xor_m == 0) {
        put(o, " offset:swizzle(BROADCAST,%u,%u)", group, or_m);
        return;
    }
    put_lit(o, " offset:swizzle(BITMASK_PERM,\"");
    for (unsigned bit = 16; bit; bit >>= 1) {
        /* what the lane bit becomes, as LLVM spells it: ((b & and) | or) ^ xor is
           a constant when or is set or and is clear, else b itself or inverted */
        bool a = and_m & bit, r = or_m & bit, x = xor_m & bit;
        char c = r || !a ? ((r != x) ? '1' : '0') : x ? 'i' : 'p';
        put(o, "%c", c);
    }
    put_lit(o, "\")");
}

static void print_dpp8(out *o, const rdx_isa_inst *in)
{
    unsigned v = (unsigned)in->mod[RDX_ISA_MOD_DPP8];
    put_lit(o, " dpp8:[");
    for (unsigned i = 0; i < 8; i++)
        put(o, "%s%u", i ? "," : "", (v >> (3 * i)) & 7);
    put_lit(o, "]");
    if (in->mod[RDX_ISA_MOD_FI])
        put_lit(o, " fi:1");
}

/* Cache policy: gfx11 glc slc dlc, gfx12 th: scope: (and nv). */
static void print_cpol(out *o, const rdx_isa_target *t, const rdx_isa_inst *in)
{
    if (t->family == RDX_ISA_FAMILY_RDNA4) {
        if (in->mod[RDX_ISA_MOD_TH]) {
            const char *n = rdx_syntax_th_name(rdx_syntax_th_kind((rdx_isa_op)in->op),
                                               in->mod[RDX_ISA_MOD_TH], in->mod[RDX_ISA_MOD_SCOPE]);
            if (n)
                put(o, " th:%s", n);
            else
                put(o, " th:%d", in->mod[RDX_ISA_MOD_TH]);
        }
        if (in->mod[RDX_ISA_MOD_SCOPE])
            put(o, " scope:%s", rdx_syntax_scope_names[in->mod[RDX_ISA_MOD_SCOPE] & 3]);
        if (in->mod[RDX_ISA_MOD_NV])
            put_lit(o, " nv");
        return;
    }
    if (in->mod[RDX_ISA_MOD_GLC])
        put_lit(o, " glc");
    if (in->mod[RDX_ISA_MOD_SLC])
        put_lit(o, " slc");
    if (in->mod[RDX_ISA_MOD_DLC])
        put_lit(o, " dlc");
}

static void print_mods(out *o, const rdx_isa_target *t, const rdx_isa_inst *in,
                       const rdx_isa_form_info *fi, rdx_isa_enc enc, unsigned nsrc)
{
    const int32_t *m = in->mod;
    rdx_isa_form form = (rdx_isa_form)in->form;
    switch (enc) {
    case RDX_ISA_ENC_VOP3P: {
        unsigned def_hi = rdx_syntax_op_sel_hi_default((rdx_isa_op)in->op, nsrc);
        bool mix = rdx_syntax_is_mix((rdx_isa_op)in->op);
        bool swmmac = !strncmp(rdx_isa_op_name((rdx_isa_op)in->op), "v_swmmac", 8);
        /* bits of absent sources are not shown (LLVM rejects such encodings) */
        unsigned hmask = (1u << nsrc) - 1;
        if (m[RDX_ISA_MOD_OP_SEL] && swmmac) /* the sparse index selector */
            put(o, " index_key:%d", m[RDX_ISA_MOD_OP_SEL]);
        else if ((unsigned)m[RDX_ISA_MOD_OP_SEL] & hmask)
            print_bits_list(o, "op_sel", (unsigned)m[RDX_ISA_MOD_OP_SEL], nsrc);
        if (((unsigned)m[RDX_ISA_MOD_OP_SEL_HI] & hmask) != (def_hi & hmask))
            print_bits_list(o, "op_sel_hi", (unsigned)m[RDX_ISA_MOD_OP_SEL_HI], nsrc);
        if (((unsigned)m[RDX_ISA_MOD_NEG] & hmask) && !mix)
            print_bits_list(o, "neg_lo", (unsigned)m[RDX_ISA_MOD_NEG], nsrc);
        if (((unsigned)m[RDX_ISA_MOD_NEG_HI] & hmask) && !mix)
            print_bits_list(o, "neg_hi", (unsigned)m[RDX_ISA_MOD_NEG_HI], nsrc);
        if (m[RDX_ISA_MOD_CLAMP])
            put_lit(o, " clamp");
        break;
    }
    case RDX_ISA_ENC_VOP1:
    case RDX_ISA_ENC_VOP2:
    case RDX_ISA_ENC_VOPC:
    case RDX_ISA_ENC_VOP3:
    case RDX_ISA_ENC_VOP3SD:
        if (m[RDX_ISA_MOD_OP_SEL] && rdx_syntax_byte_sel_kind((rdx_isa_op)in->op)) {
            unsigned v = (unsigned)m[RDX_ISA_MOD_OP_SEL];
            unsigned bs = rdx_syntax_byte_sel_kind((rdx_isa_op)in->op) == 1
                              ? ((v & 1) << 1) | ((v >> 1) & 1)
                              : (((v >> 3) & 1) << 1) | ((v >> 2) & 1);
            put(o, " byte_sel:%u", bs);
        } else if (m[RDX_ISA_MOD_OP_SEL]) {
            /* op_sel:[src0, .., srcN-1, dst]: the destination is bit 3. */
            unsigned v = (unsigned)m[RDX_ISA_MOD_OP_SEL];
            unsigned n = rdx_syntax_tied_src2((rdx_isa_op)in->op) ? 3 : nsrc;
            /* The destination's element is there for 16-bit results only. */
            bool src16 = false;
            for (unsigned i = 0; fi && i < fi->nopnd; i++) {
                unsigned si;
                if (rdx_syntax_src_index((unsigned)fi->opnd[i].role, &si) && fi->opnd[i].bits <= 16)
                    src16 = true;
            }
            /* The destination's element is printed for 16-bit data (and three sources). */
            bool dst = fi && fi->nopnd && fi->opnd[0].role == RDX_ISA_ROLE_VDST &&
                       (n == 3 || fi->opnd[0].bits <= 16 || src16 || ((v >> 3) & 1));
            unsigned mask = v & ((1u << n) - 1);
            if (dst)
                mask |= ((v >> 3) & 1) << n;
            if ((v & ~(((1u << n) - 1) | (dst ? 8u : 0u))) != 0)
                print_bits_list(o, "op_sel", v, 4); /* bits the short list cannot show */
            else
                print_bits_list(o, "op_sel", mask, n + dst);
        }
        if (m[RDX_ISA_MOD_CLAMP])
            put_lit(o, " clamp");
        if (m[RDX_ISA_MOD_OMOD])
            put(o, " %s",
                m[RDX_ISA_MOD_OMOD] == 1   ? "mul:2"
                : m[RDX_ISA_MOD_OMOD] == 2 ? "mul:4"
                                           : "div:2");
        break;
    case RDX_ISA_ENC_VINTERP:
        if (m[RDX_ISA_MOD_OP_SEL])
            print_bits_list(o, "op_sel", (unsigned)m[RDX_ISA_MOD_OP_SEL], 4);
        if (m[RDX_ISA_MOD_CLAMP])
            put_lit(o, " clamp");
        put(o, " wait_exp:%d", m[RDX_ISA_MOD_WAIT_EXP]);
        break;
    case RDX_ISA_ENC_LDSDIR:
    case RDX_ISA_ENC_VDSDIR:
        if (t->family == RDX_ISA_FAMILY_RDNA4) {
            put(o, " wait_va_vdst:%d", m[RDX_ISA_MOD_WAIT_VA_VDST]);
            put(o, " wait_vm_vsrc:%d", m[RDX_ISA_MOD_WAIT_VM_VSRC]);
        } else {
            put(o, " wait_vdst:%d", m[RDX_ISA_MOD_WAIT_VDST]);
        }
        break;
    case RDX_ISA_ENC_SMEM: {
        bool reg_soffset = false;
        for (unsigned i = 0; fi && i < in->nopnd && i < fi->nopnd; i++)
            if (fi->opnd[i].role == RDX_ISA_ROLE_SOFFSET && in->opnd[i].kind != RDX_ISA_OPND_IMM)
                reg_soffset = true;
        if (reg_soffset && (m[RDX_ISA_MOD_OFFSET] || t->family == RDX_ISA_FAMILY_RDNA4) &&
            !strstr(rdx_isa_op_name((rdx_isa_op)in->op), "_prefetch_")) {
            int32_t v = m[RDX_ISA_MOD_OFFSET];
            put(o, v < 0 ? " offset:-0x%x" : " offset:0x%x",
                v < 0 ? (unsigned)-(int64_t)v : (unsigned)v);
        }
        print_cpol(o, t, in);
        break;
    } break;
    case RDX_ISA_ENC_DS:
        if (m[RDX_ISA_MOD_OFFSET] && in->op == RDX_ISA_OP_DS_SWIZZLE_B32)
            print_swizzle(o, (unsigned)m[RDX_ISA_MOD_OFFSET] & 0xffff);
        else if (m[RDX_ISA_MOD_OFFSET])
            put(o, " offset:%d", m[RDX_ISA_MOD_OFFSET]);
        if (m[RDX_ISA_MOD_OFFSET0])
            put(o, " offset0:%d", m[RDX_ISA_MOD_OFFSET0]);
        if (m[RDX_ISA_MOD_OFFSET1])
            put(o, " offset1:%d", m[RDX_ISA_MOD_OFFSET1]);
        if (m[RDX_ISA_MOD_GDS])
            put_lit(o, " gds");
        break;
    case RDX_ISA_ENC_FLAT:
    case RDX_ISA_ENC_GLOBAL:
    case RDX_ISA_ENC_SCRATCH:
    case RDX_ISA_ENC_VFLAT:
    case RDX_ISA_ENC_VGLOBAL:
    case RDX_ISA_ENC_VSCRATCH:
        if (m[RDX_ISA_MOD_OFFSET])
            put(o, " offset:%d", m[RDX_ISA_MOD_OFFSET]);
        print_cpol(o, t, in);
        break;
    case RDX_ISA_ENC_MUBUF:
    case RDX_ISA_ENC_MTBUF:
    case RDX_ISA_ENC_VBUFFER: {
        bool tbuf = strncmp(rdx_isa_op_name((rdx_isa_op)in->op), "tbuffer", 7) == 0;
        if (tbuf) {
            const char *fname = rdx_syntax_buffmt_name((unsigned)m[RDX_ISA_MOD_FORMAT]);
            /* BUF_FMT_8_UNORM (1) is the default and not printed. */
            if (m[RDX_ISA_MOD_FORMAT] != 1 && fname)
                put(o, " format:[%s]", fname);
            else if (m[RDX_ISA_MOD_FORMAT] != 1)
                put(o, " format:%d", m[RDX_ISA_MOD_FORMAT]);
        }
        if (m[RDX_ISA_MOD_IDXEN])
            put_lit(o, " idxen");
        if (m[RDX_ISA_MOD_OFFEN])
            put_lit(o, " offen");
        if (m[RDX_ISA_MOD_OFFSET])
            put(o, " offset:%d", m[RDX_ISA_MOD_OFFSET]);
        print_cpol(o, t, in);
        if (m[RDX_ISA_MOD_TFE])
            put_lit(o, " tfe");
        break;
    }
    case RDX_ISA_ENC_MIMG:
    case RDX_ISA_ENC_VIMAGE:
    case RDX_ISA_ENC_VSAMPLE:
        if (m[RDX_ISA_MOD_DMASK])
            put(o, " dmask:0x%x", (unsigned)m[RDX_ISA_MOD_DMASK]);
        if (rdx_isa_mod_allowed(t, (rdx_isa_op)in->op, (rdx_isa_form)in->form, RDX_ISA_MOD_DIM))
            put(o, " dim:%s", rdx_syntax_dim_names[m[RDX_ISA_MOD_DIM] & 7]);
        if (m[RDX_ISA_MOD_UNORM])
            put_lit(o, " unorm");
        print_cpol(o, t, in);
        if (m[RDX_ISA_MOD_R128])
            put_lit(o, " r128");
        if (m[RDX_ISA_MOD_A16])
            put_lit(o, " a16");
        if (m[RDX_ISA_MOD_TFE])
            put_lit(o, " tfe");
        if (m[RDX_ISA_MOD_LWE])
            put_lit(o, " lwe");
        if (m[RDX_ISA_MOD_D16])
            put_lit(o, " d16");
        break;
    case RDX_ISA_ENC_EXP:
    case RDX_ISA_ENC_VEXPORT:
        if (m[RDX_ISA_MOD_DONE])
            put_lit(o, " done");
        if (m[RDX_ISA_MOD_ROW_EN])
            put_lit(o, " row_en");
        break;
    default:
        break;
    }
    if (form == RDX_ISA_FORM_DPP16 || form == RDX_ISA_FORM_E64_DPP16)
        print_dpp16(o, in);
    else if (form == RDX_ISA_FORM_DPP8 || form == RDX_ISA_FORM_E64_DPP8)
        print_dpp8(o, in);
}

/* Address VGPRs of an image op among operands [from, to) (more than one: an
 * NSA list), the first at *first; 0 for other encodings. */
static unsigned image_addrs(const rdx_isa_inst *in, const rdx_isa_form_info *fi, unsigned from,
                            unsigned to, rdx_isa_enc enc, unsigned *first)
{
    if (!fi || (enc != RDX_ISA_ENC_MIMG && enc != RDX_ISA_ENC_VIMAGE && enc != RDX_ISA_ENC_VSAMPLE))
        return 0;
    unsigned n = 0;
    for (unsigned i = from; i < to && i < fi->nopnd; i++)
        if (fi->opnd[i].role == RDX_ISA_ROLE_VADDR && in->opnd[i].kind == RDX_ISA_OPND_VGPR) {
            if (!n)
                *first = i;
            n++;
        }
    if (in->nopnd > fi->nopnd && n)
        n = 1 + (in->nopnd - fi->nopnd);
    return n;
}

/* Operands [from, to) of `in` with source modifiers, comma-separated. */
static void print_operands(out *o, const rdx_isa_target *t, const rdx_isa_inst *in,
                           const rdx_isa_form_info *fi, unsigned from, unsigned to, rdx_isa_enc enc)
{
    unsigned first_vaddr = 0;
    unsigned nvaddr = image_addrs(in, fi, from, to, enc, &first_vaddr);
    bool nsa = nvaddr > 1;
    bool first = true, in_list = false;
    /* source modifiers exist only on VALU encodings, and only when a bit is set */
    bool srcmods = is_vop(enc) && (in->mod[RDX_ISA_MOD_NEG] | in->mod[RDX_ISA_MOD_ABS] |
                                   in->mod[RDX_ISA_MOD_NEG_HI]) != 0;
    for (unsigned i = from; i < to; i++) {
        bool is_vaddr = nsa && i >= first_vaddr && i < first_vaddr + nvaddr;
        if (in_list && !is_vaddr) {
            put_lit(o, "]");
            in_list = false;
        }
        /* "exp mrt0 v0, ...": no comma after the export target. */
        bool after_target =
            i > from && fi && i - 1 < fi->nopnd && fi->opnd[i - 1].role == RDX_ISA_ROLE_TARGET;
        if (first || after_target)
            put_n(o, " ", 1);
        else
            put_n(o, ", ", 2);
        first = false;
        if (is_vaddr && !in_list) {
            put_lit(o, "[");
            in_list = true;
        }
        unsigned si;
        bool neg = false, abs = false;
        if (srcmods && fi && i < fi->nopnd &&
            rdx_syntax_src_index((unsigned)fi->opnd[i].role, &si)) {
            if (enc != RDX_ISA_ENC_VOP3P) {
                neg = (in->mod[RDX_ISA_MOD_NEG] >> si) & 1;
                abs = (in->mod[RDX_ISA_MOD_ABS] >> si) & 1;
            } else if (rdx_syntax_is_mix((rdx_isa_op)in->op)) {
                neg = (in->mod[RDX_ISA_MOD_NEG] >> si) & 1;
                abs = (in->mod[RDX_ISA_MOD_NEG_HI] >> si) & 1;
            }
        }
        /* Integer sources write the neg bit as sext(); v_ldexp_f16's exponent is one. */
        bool int_src =
            neg && fi && i < fi->nopnd &&
            (fi->opnd[i].fmt == RDX_ISA_FMT_B ||
             (fi->opnd[i].role == RDX_ISA_ROLE_SRC1 && in->op == RDX_ISA_OP_V_LDEXP_F16));
        bool sext = neg && int_src && !rdx_syntax_is_mix((rdx_isa_op)in->op) &&
                    strncmp(rdx_isa_op_name((rdx_isa_op)in->op), "v_cndmask", 9) != 0;
        if (sext) {
            put_lit(o, "sext(");
            neg = false;
        }
        /* A negated constant is written neg(c): "-2.0" would be another constant. */
        unsigned k = in->opnd[i].kind;
        bool neg_fn =
            neg && (k == RDX_ISA_OPND_INT || k == RDX_ISA_OPND_FLOAT || k == RDX_ISA_OPND_LITERAL);
        if (neg_fn)
            put_n(o, "neg(", 4);
        else if (neg)
            put_n(o, "-", 1);
        if (abs)
            put_n(o, "|", 1);
        print_operand(o, t, in, fi, i, enc);
        if (abs)
            put_n(o, "|", 1);
        if (sext || neg_fn)
            put_n(o, ")", 1);
    }
    if (in_list)
        put_lit(o, "]");
}

rdx_status rdx_asm_print_inst(const rdx_isa_target *t, const rdx_isa_inst *in, char *buf,
                              size_t cap)
{
    size_t len;
    return rdx_syntax_print_inst(t, in, buf, cap, &len);
}

rdx_status rdx_syntax_print_inst(const rdx_isa_target *t, const rdx_isa_inst *in, char *buf,
                                 size_t cap, size_t *len)
{
    *len = 0;
    if (!t || !in || !buf || !cap)
        return rdx_fail(RDX_ERR_INVALID, "rdx_asm_print_inst: NULL argument");
    out o = { buf, cap, 0, false };
    buf[0] = 0;
    if (!rdx_isa_op_name((rdx_isa_op)in->op))
        return rdx_fail(RDX_ERR_INVALID, "rdx_asm_print_inst: unknown op %u", in->op);
    const rdx_isa_form_info *fi = isa_form_of(t, (rdx_isa_op)in->op, (rdx_isa_form)in->form);
    if (!fi)
        return rdx_fail(RDX_ERR_INVALID, "rdx_asm_print_inst: %s has no %s form on %s",
                        rdx_isa_op_name((rdx_isa_op)in->op),
                        rdx_isa_form_name((rdx_isa_form)in->form), t->name);
    rdx_isa_enc enc = (rdx_isa_enc)fi->enc;
    char mn[96];
    size_t mnlen = rdx_syntax_mnemonic(t, in, mn, sizeof mn);
    put_n(&o, mn, mnlen);
    /* LLVM prints RDNA3's sampler ops in NSA form with two spaces after the mnemonic. */
    unsigned first_vaddr = 0;
    if (enc == RDX_ISA_ENC_MIMG && image_addrs(in, fi, 0, in->nopnd, enc, &first_vaddr) > 1)
        for (unsigned i = 0; i < fi->nopnd; i++)
            if (fi->opnd[i].role == RDX_ISA_ROLE_SSAMP)
                put_n(&o, " ", 1);
    unsigned nsrc = 0;
    for (unsigned i = 0; i < fi->nopnd; i++) {
        unsigned si;
        if (rdx_syntax_src_index((unsigned)fi->opnd[i].role, &si) && si + 1 > nsrc)
            nsrc = si + 1;
    }
    if (rdx_syntax_no_operands((rdx_isa_op)in->op)) {
        /* buffer_gl0_inv, global_wb, ...: LLVM prints no operands. */
    } else if (enc == RDX_ISA_ENC_VOPD) {
        print_operands(&o, t, in, fi, 0, in->nx, enc);
        char my[96];
        rdx_isa_inst y = *in;
        y.op = in->op_y;
        y.form = RDX_ISA_FORM_NATIVE;
        rdx_syntax_mnemonic(t, &y, my, sizeof my);
        put(&o, " :: %s", my);
        print_operands(&o, t, in, fi, in->nx, in->nopnd, enc);
    } else {
        print_operands(&o, t, in, fi, 0, in->nopnd, enc);
    }
    /* s_endpgm 0 prints bare. */
    if (in->nopnd == 1 && in->opnd[0].kind == RDX_ISA_OPND_IMM && in->opnd[0].value == 0 &&
        in->op == RDX_ISA_OP_S_ENDPGM)
        o.len = mnlen, buf[o.len] = 0;
    print_mods(&o, t, in, fi, enc, nsrc);
    if (o.overflow)
        return rdx_fail(RDX_ERR_RANGE, "rdx_asm_print_inst: %zu bytes are too few for %s", cap, mn);
    *len = o.len;
    return RDX_OK;
}
