/*
 * isa/isa_check.c — operand constraints: the one place that knows which
 * operand combinations the hardware forbids although every field holds a
 * valid value (rdx_isa_check, include/rdx/isa.h).  The encoder calls it for
 * the rules llvm-mc enforces, the assembler for every rule (with the
 * line and column of the instruction), the emulator on every decoded
 * instruction (a fault naming the PC, the instruction and the rule).
 *
 * Rules (docs/isa.md, "Operand constraints", gives the sources):
 *   constant-bus       VALU: at most two distinct scalar values (SGPRs, TTMPs,
 *                      special registers, the literal; one for the 64-bit
 *                      shifts), implicit vcc reads counted
 *   vopd-dst           VOPD: one even and one odd destination VGPR
 *   vopd-bank          VOPD: X and Y operands of one source position read
 *                      different VGPR banks
 *   vopd-constant-bus  VOPD: at most two distinct scalar values over the pair
 *   vgpr16-e32         a 16-bit operand of a VOP1/VOP2/VOPC e32/DPP form
 *                      names v0..v127 (bit 7 of its field selects .h)
 *   sgpr-align         SGPR/TTMP ranges: pairs even, 3+ registers on multiples of 4
 *   wmma-overlap       RDNA3 WMMA: D overlaps neither A nor B, and is C
 *                      exactly or disjoint from it
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "isa/isa_internal.h"
#include "util/error.h"

static const char *const rule_names[RDX_ISA_RULE_COUNT] = {
#define RDX_ISA_RULE_NAME_(n, s, llvm) s,
    RDX_ISA_RULE_LIST(RDX_ISA_RULE_NAME_)
#undef RDX_ISA_RULE_NAME_
};

static const bool rule_llvm[RDX_ISA_RULE_COUNT] = {
#define RDX_ISA_RULE_LLVM_(n, s, llvm) llvm,
    RDX_ISA_RULE_LIST(RDX_ISA_RULE_LLVM_)
#undef RDX_ISA_RULE_LLVM_
};

const char *rdx_isa_rule_name(rdx_isa_rule rule)
{
    return (unsigned)rule < RDX_ISA_RULE_COUNT ? rule_names[rule] : "?";
}

bool rdx_isa_rule_llvm(rdx_isa_rule rule)
{
    return (unsigned)rule < RDX_ISA_RULE_COUNT && rule_llvm[rule];
}

static rdx_status violate(rdx_isa_rule *out, rdx_isa_rule rule, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static rdx_status violate(rdx_isa_rule *out, rdx_isa_rule rule, const char *fmt, ...)
{
    char msg[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (out)
        *out = rule;
    return rdx_fail(RDX_ERR_INVALID, "%s [rule %s]", msg, rule_names[rule]);
}

bool isa_vgpr16_field(const rdx_isa_target *t, rdx_isa_op op, rdx_isa_form form,
                      const rdx_isa_opnd_info *si)
{
    (void)t;
    if (!si || si->bits != 16 ||
        !(form == RDX_ISA_FORM_E32 || form == RDX_ISA_FORM_DPP16 || form == RDX_ISA_FORM_DPP8))
        return false;
    const isa_row *row = isa_row_of(t, op, RDX_ISA_FORM_E32);
    if (!row || !(row->enc == RDX_ISA_ENC_VOP1 || row->enc == RDX_ISA_ENC_VOP2 ||
                  row->enc == RDX_ISA_ENC_VOPC))
        return false;
    /* the fp8/bf8 conversions read a 32-bit VGPR */
    const char *name = isa_op_names[op];
    return !strstr(name, "fp8") && !strstr(name, "bf8");
}

/* ------------------------------------------------------------ constant bus */

typedef struct scalars {
    struct {
        uint8_t kind, count;
        uint16_t reg;
    } v[10];
    unsigned n;
} scalars;

/* Count o when it is a scalar value on the bus (null and lds_direct are not);
   distinct registers as llvm-mc counts them: s0 and s[0:1] are two. */
static void bus_add(scalars *s, const rdx_isa_opnd *o, bool by_count)
{
    uint8_t kind = o->kind, count = by_count ? o->count : 0;
    uint16_t reg = o->reg;
    if (kind == RDX_ISA_OPND_LITERAL)
        reg = 0, count = 0;
    else if (kind == RDX_ISA_OPND_SPECIAL &&
             (reg == RDX_ISA_REG_NULL || reg == RDX_ISA_REG_LDS_DIRECT))
        return;
    else if (kind != RDX_ISA_OPND_SGPR && kind != RDX_ISA_OPND_TTMP && kind != RDX_ISA_OPND_SPECIAL)
        return;
    for (unsigned k = 0; k < s->n; k++)
        if (s->v[k].kind == kind && s->v[k].reg == reg && s->v[k].count == count)
            return;
    if (s->n < sizeof s->v / sizeof s->v[0]) {
        s->v[s->n].kind = kind;
        s->v[s->n].count = count;
        s->v[s->n].reg = reg;
        s->n++;
    }
}

static bool is_valu_enc(unsigned enc)
{
    return enc == RDX_ISA_ENC_VOP1 || enc == RDX_ISA_ENC_VOP2 || enc == RDX_ISA_ENC_VOPC ||
           enc == RDX_ISA_ENC_VOP3 || enc == RDX_ISA_ENC_VOP3SD || enc == RDX_ISA_ENC_VOP3P;
}

static rdx_status check_bus(const rdx_isa_inst *in, const isa_row *row, rdx_isa_rule *rule)
{
    scalars s = { .n = 0 };
    /* v_div_fmas reads vcc (the 64-bit pair, in wave32 too) implicitly: an
       explicit vcc is the same value, an explicit vcc_lo another (llvm-mc) */
    if (in->op == RDX_ISA_OP_V_DIV_FMAS_F32 || in->op == RDX_ISA_OP_V_DIV_FMAS_F64) {
        rdx_isa_opnd vcc = rdx_isa_special(RDX_ISA_REG_VCC_LO, 2);
        bus_add(&s, &vcc, true);
    }
    for (unsigned i = 0; i < row->nopnd && i < in->nopnd; i++) {
        const rdx_isa_opnd_info *si = &isa_slot_info[row->first + i];
        bool read = si->role == RDX_ISA_ROLE_SRC0 || si->role == RDX_ISA_ROLE_SRC1 ||
                    si->role == RDX_ISA_ROLE_SRC2 || si->role == RDX_ISA_ROLE_K ||
                    (si->role == RDX_ISA_ROLE_VCC && i + 1 == row->nopnd && i > 0);
        if (read)
            bus_add(&s, &in->opnd[i], true);
    }
    unsigned op = in->op;
    unsigned limit = (op == RDX_ISA_OP_V_LSHLREV_B64 || op == RDX_ISA_OP_V_LSHRREV_B64 ||
                      op == RDX_ISA_OP_V_ASHRREV_I64)
                         ? 1
                         : 2;
    if (s.n > limit)
        return violate(rule, RDX_ISA_RULE_CONSTANT_BUS,
                       "%s: reads %u scalar values (SGPRs/special registers/literal); the "
                       "constant bus allows %u",
                       isa_op_names[op], s.n, limit);
    return RDX_OK;
}

/* ----------------------------------------------------------------- VOPD */

/* The VGPR bank a VOPD source reads (-1: none): register number mod 4, and
 * bank 3 for lds_direct (as llvm-mc 19 checks it). */
static int vopd_bank(const rdx_isa_opnd *o)
{
    if (!o)
        return -1;
    if (o->kind == RDX_ISA_OPND_VGPR)
        return o->reg % 4;
    if (o->kind == RDX_ISA_OPND_SPECIAL && o->reg == RDX_ISA_REG_LDS_DIRECT)
        return 3;
    return -1;
}

static rdx_status check_vopd(const rdx_isa_target *t, const rdx_isa_inst *in, const isa_row *rx,
                             unsigned flags, rdx_isa_rule *rule)
{
    const isa_row *ry = isa_row_of(t, (rdx_isa_op)in->op_y, RDX_ISA_FORM_NATIVE);
    if (!ry || ry->enc != RDX_ISA_ENC_VOPD)
        return RDX_OK; /* not a pair the tables know: the encoder/decoder say so */
    const char *nx = isa_op_names[in->op], *ny = isa_op_names[in->op_y];
    unsigned cx = rx->nx, cy = (unsigned)(ry->nopnd - ry->nx);
    if (in->nx != cx || in->nopnd != cx + cy)
        return RDX_OK;
    /* destinations: one even, one odd (the Y field drops bit 0) */
    const rdx_isa_opnd *dx = &in->opnd[0], *dy = &in->opnd[cx];
    if (dx->kind == RDX_ISA_OPND_VGPR && dy->kind == RDX_ISA_OPND_VGPR &&
        (dx->reg & 1) == (dy->reg & 1))
        return violate(rule, RDX_ISA_RULE_VOPD_DST,
                       "%s :: %s: VOPD destinations must be one even and one odd VGPR "
                       "(v%u, v%u)",
                       nx, ny, (unsigned)dx->reg, (unsigned)dy->reg);
    /* VGPR bank rules (as llvm-mc checks them): the X and Y operands of one source
     * position (src0, src1, src2) read different banks (register number mod 4;
     * for src2 mod 2).  fmamk's K is its src1 and its VGPR src2; fmaak's K is its
     * src2; fmac and dot2acc read their destination as src2. */
    static const char *const posname[3] = { "src0", "src1", "src2" };
    /* RDNA4 exception (llvm-mc 19 for gfx12): when both halves are v_dual_mov_b32,
     * Y's src0 is read through another port, so the src0 banks may coincide */
    bool movmov = t->family == RDX_ISA_FAMILY_RDNA4 && in->op == RDX_ISA_OP_V_DUAL_MOV_B32 &&
                  in->op_y == RDX_ISA_OP_V_DUAL_MOV_B32;
    const rdx_isa_opnd *bank[2][3] = { { NULL } };
    for (unsigned h = 0; h < 2; h++) {
        unsigned op = h ? in->op_y : in->op, first = h ? ry->first + ry->nx : rx->first;
        unsigned cnt = h ? cy : cx, base = h ? cx : 0;
        for (unsigned i = 0; i < cnt; i++) {
            unsigned role = isa_slot_info[first + i].role;
            const rdx_isa_opnd *o = &in->opnd[base + i];
            if (role == RDX_ISA_ROLE_SRC0 || role == RDX_ISA_ROLE_SRCY0)
                bank[h][0] = o;
            else if (role == RDX_ISA_ROLE_SRC1 || role == RDX_ISA_ROLE_VSRCY1)
                bank[h][op == RDX_ISA_OP_V_DUAL_FMAMK_F32 ? 2 : 1] = o;
        }
        if (op == RDX_ISA_OP_V_DUAL_FMAC_F32 || op == RDX_ISA_OP_V_DUAL_DOT2ACC_F32_F16 ||
            op == RDX_ISA_OP_V_DUAL_DOT2ACC_F32_BF16)
            bank[h][2] = &in->opnd[base]; /* the destination */
    }
    for (unsigned p = movmov ? 1 : 0; p < 3; p++) {
        int bx = vopd_bank(bank[0][p]), by = vopd_bank(bank[1][p]);
        if (p == 2) /* src2 banks are compared by parity (llvm-mc's bank mask 1) */
            bx = bx >= 0 ? bx & 1 : bx, by = by >= 0 ? by & 1 : by;
        /* the same VGPR read by both halves runs on silicon (RDX_ISA_CHECK_SILICON) */
        bool same = bank[0][p] && bank[1][p] && bank[0][p]->kind == RDX_ISA_OPND_VGPR &&
                    bank[1][p]->kind == RDX_ISA_OPND_VGPR && bank[0][p]->reg == bank[1][p]->reg;
        if (bx >= 0 && bx == by && !(same && (flags & RDX_ISA_CHECK_SILICON))) {
            char nm[2][16];
            for (unsigned k = 0; k < 2; k++) {
                if (bank[k][p]->kind == RDX_ISA_OPND_VGPR)
                    snprintf(nm[k], sizeof nm[k], "v%u", (unsigned)bank[k][p]->reg);
                else
                    snprintf(nm[k], sizeof nm[k], "lds_direct");
            }
            return violate(rule, RDX_ISA_RULE_VOPD_BANK,
                           "%s :: %s: %s operands %s and %s must use different VGPR banks "
                           "(register number mod 4, for src2 mod 2; lds_direct reads bank 3)",
                           nx, ny, posname[p], nm[0], nm[1]);
        }
    }
    /* constant bus of the pair: at most two distinct scalar values (SGPRs,
     * special registers, the literal) over both halves; cndmask reads vcc */
    scalars s = { .n = 0 };
    if (in->op == RDX_ISA_OP_V_DUAL_CNDMASK_B32 || in->op_y == RDX_ISA_OP_V_DUAL_CNDMASK_B32) {
        rdx_isa_opnd vcc = rdx_isa_special(RDX_ISA_REG_VCC_LO, 1);
        bus_add(&s, &vcc, false);
    }
    for (unsigned i = 0; i < in->nopnd; i++)
        bus_add(&s, &in->opnd[i], false);
    if (s.n > 2)
        return violate(rule, RDX_ISA_RULE_VOPD_CONSTANT_BUS,
                       "%s :: %s: the pair reads %u scalar values (SGPRs/special registers/"
                       "literal, vcc for cndmask); the constant bus allows 2",
                       nx, ny, s.n);
    return RDX_OK;
}

/* ----------------------------------------------------------------- WMMA */

static bool overlap(const rdx_isa_opnd *a, const rdx_isa_opnd *b)
{
    return a->kind == RDX_ISA_OPND_VGPR && b->kind == RDX_ISA_OPND_VGPR &&
           a->reg < b->reg + b->count && b->reg < a->reg + a->count;
}

static void range_text(const rdx_isa_opnd *o, char *buf, size_t cap)
{
    if (o->count > 1)
        snprintf(buf, cap, "v[%u:%u]", (unsigned)o->reg, (unsigned)(o->reg + o->count - 1));
    else
        snprintf(buf, cap, "v%u", (unsigned)o->reg);
}

static rdx_status check_wmma(const rdx_isa_target *t, const rdx_isa_inst *in, unsigned flags,
                             rdx_isa_rule *rule)
{
    const char *name = isa_op_names[in->op];
    if (t->family != RDX_ISA_FAMILY_RDNA3 || strncmp(name, "v_wmma_", 7) || in->nopnd < 4)
        return RDX_OK;
    /* in wave64 C and D are 4 VGPRs (the decoder gives wave32's 8) */
    rdx_isa_opnd dd = in->opnd[0], cc = in->opnd[3];
    if (flags & RDX_ISA_CHECK_WAVE64) {
        dd.count = dd.count > 4 ? 4 : dd.count;
        if (cc.kind == RDX_ISA_OPND_VGPR)
            cc.count = cc.count > 4 ? 4 : cc.count;
    }
    const rdx_isa_opnd *d = &dd;
    static const char *const what[4] = { "D", "A", "B", "C" };
    for (unsigned k = 1; k <= 3; k++) {
        const rdx_isa_opnd *s = k == 3 ? &cc : &in->opnd[k];
        if (!overlap(d, s))
            continue;
        if (k == 3 && s->reg == d->reg && s->count == d->count)
            continue; /* D = C: accumulating in place */
        char rd[24], rs[24];
        range_text(d, rd, sizeof rd);
        range_text(s, rs, sizeof rs);
        return violate(rule, RDX_ISA_RULE_WMMA_OVERLAP,
                       "%s: operand %u (%s) %s overlaps D %s (D must not overlap A or B, and "
                       "must be C exactly or not overlap it)",
                       name, k, what[k], rs, rd);
    }
    return RDX_OK;
}

/* ------------------------------------------------------------------ entry */

rdx_status rdx_isa_check(const rdx_isa_target *t, const rdx_isa_inst *in, unsigned flags,
                         rdx_isa_rule *rule)
{
    if (rule)
        *rule = RDX_ISA_RULE_NONE;
    if (!t || !in)
        return rdx_fail(RDX_ERR_INVALID, "rdx_isa_check: NULL argument");
    if (!isa_op_avail(t, in->op))
        return RDX_OK; /* not an instruction of the target: the encoder/decoder say so */
    const isa_row *row = isa_row_of(t, (rdx_isa_op)in->op, (rdx_isa_form)in->form);
    if (!row)
        return RDX_OK;
    bool llvm_only = (flags & RDX_ISA_CHECK_LLVM_ONLY) != 0;
    rdx_status st;
    /* SGPR/TTMP ranges: pairs even, 3 and more registers on multiples of 4 (the
       encoder's range check; bytes can hold an odd field, which LLVM's disassembler
       prints as the aligned range) */
    for (unsigned i = 0; i < in->nopnd && i < RDX_ISA_MAX_OPNDS; i++) {
        const rdx_isa_opnd *o = &in->opnd[i];
        if ((o->kind != RDX_ISA_OPND_SGPR && o->kind != RDX_ISA_OPND_TTMP) || o->count < 2)
            continue;
        unsigned align = o->count >= 3 ? 4 : 2;
        if (o->reg % align)
            return violate(rule, RDX_ISA_RULE_SGPR_ALIGN,
                           "%s: operand %u %s[%u:%u] is not aligned to %u registers",
                           isa_op_names[in->op], i, o->kind == RDX_ISA_OPND_SGPR ? "s" : "ttmp",
                           (unsigned)o->reg, (unsigned)(o->reg + o->count - 1), align);
    }
    if (row->enc == RDX_ISA_ENC_VOPD)
        return check_vopd(t, in, row, flags, rule);
    if (!is_valu_enc(row->enc))
        return RDX_OK;
    if ((st = check_bus(in, row, rule)))
        return st;
    rdx_isa_form form =
        in->form == RDX_ISA_FORM_AUTO ? (rdx_isa_form)row->form : (rdx_isa_form)in->form;
    if (flags & RDX_ISA_CHECK_VGPR_NUMBERS)
        for (unsigned i = 0; i < row->nopnd && i < in->nopnd; i++) {
            const rdx_isa_opnd *o = &in->opnd[i];
            if (o->kind == RDX_ISA_OPND_VGPR && o->reg >= 128 &&
                isa_vgpr16_field(t, (rdx_isa_op)in->op, form, &isa_slot_info[row->first + i]))
                return violate(rule, RDX_ISA_RULE_VGPR16_E32,
                               "%s: 16-bit operands of 32-bit encodings take v0..v127 (or .h "
                               "halves); v%u needs the e64 form",
                               isa_op_names[in->op], (unsigned)o->reg);
        }
    if (!llvm_only && (st = check_wmma(t, in, flags, rule)))
        return st;
    return RDX_OK;
}
