/*
 * ir/ins.c — INS, machine code in the graph: the argument of an INS node is
 * one rdx_isa_inst (rdx/isa.h: opcode and operands from the ISA tables, the
 * bytes of the struct interned by the context) or a label.  A BRANCH operand
 * names a label by its number.  Text: the instruction as llvm-mc prints it for
 * gfx1100, a branch target as bbN.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>
#include <rdx/isa.h>

#include "ir/ir_internal.h"
#include "util/error.h"

rdx_uop_arg rdx_uop_arg_ins(const rdx_isa_inst *in)
{
    rdx_uop_arg a = rdx_uop_arg_none();
    a.str = (const char *)in;
    a.len = (uint32_t)sizeof *in;
    return a;
}

rdx_uop_arg rdx_uop_arg_label(int64_t label)
{
    rdx_uop_arg a = rdx_uop_arg_none();
    a.i = label;
    return a;
}

int rdx_uop_ins(const rdx_uop *u, rdx_isa_inst *out)
{
    if (!u || u->op != RDX_OP_INS || !u->arg.str || u->arg.len != sizeof *out)
        return 0;
    memcpy(out, u->arg.str, sizeof *out);
    return 1;
}

int64_t rdx_uop_ins_label(const rdx_uop *u)
{
    return u && u->op == RDX_OP_INS && !u->arg.str ? u->arg.i : -1;
}

/* The BRANCH operand of in (its slot), -1 when none. */
static int branch_slot(const rdx_isa_inst *in)
{
    for (int k = 0; k < in->nopnd && k < RDX_ISA_MAX_OPNDS; k++)
        if (in->opnd[k].kind == RDX_ISA_OPND_BRANCH)
            return k;
    return -1;
}

int ir_ins_problem(const rdx_uop_arg *a, char *msg, size_t cap)
{
    if (!a->str) {
        if (a->i < 0 || a->i > 32767) {
            snprintf(msg, cap, "label %lld: expected a label number in 0..32767", (long long)a->i);
            return 1;
        }
        return 0;
    }
    if (a->len != sizeof(rdx_isa_inst)) {
        snprintf(msg, cap, "expected an rdx_isa_inst (%zu bytes) or a label, got %u bytes",
                 sizeof(rdx_isa_inst), a->len);
        return 1;
    }
    rdx_isa_inst in;
    memcpy(&in, a->str, sizeof in);
    if (!in.op || in.op >= RDX_ISA_OP_COUNT) {
        snprintf(msg, cap, "opcode %u is not an op of the ISA tables", in.op);
        return 1;
    }
    const char *name = rdx_isa_op_name((rdx_isa_op)in.op);
    if (in.op_y >= RDX_ISA_OP_COUNT || in.form >= RDX_ISA_FORM_COUNT ||
        in.nopnd > RDX_ISA_MAX_OPNDS || in.nx > in.nopnd || in.pad_) {
        snprintf(msg, cap, "%s: bad fields (op_y %u, form %u, %u operands, nx %u)", name, in.op_y,
                 in.form, in.nopnd, in.nx);
        return 1;
    }
    for (int k = 0; k < in.nopnd; k++)
        if (in.opnd[k].kind == RDX_ISA_OPND_NONE || in.opnd[k].kind >= RDX_ISA_OPND_KIND_COUNT) {
            snprintf(msg, cap, "%s: operand %d has kind %u", name, k, in.opnd[k].kind);
            return 1;
        }
    int b = branch_slot(&in);
    if (b >= 0 && (in.nopnd != 1 || in.opnd[b].value < 0 || in.opnd[b].value > 32767)) {
        snprintf(msg, cap,
                 "%s: a branch operand names a label (bbN, N in 0..32767) and is the only one",
                 name);
        return 1;
    }
    return 0;
}

static const rdx_isa_target *gfx1100(void)
{
    return rdx_isa_target_find("gfx1100");
}

rdx_status rdx_ins_format(const rdx_isa_inst *in, char *buf, size_t cap)
{
    const rdx_isa_target *t = gfx1100();
    if (!t)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "INS: gfx1100 is not in the ISA tables");
    int b = branch_slot(in);
    if (b >= 0) {
        const char *name = rdx_isa_op_name((rdx_isa_op)in->op);
        int n = snprintf(buf, cap, "%s bb%d", name ? name : "?", in->opnd[b].value);
        return n < 0 || (size_t)n >= cap ? rdx_fail(RDX_ERR_RANGE, "INS: text too long") : RDX_OK;
    }
    return rdx_asm_print_inst(t, in, buf, cap);
}

rdx_status rdx_ins_parse(const char *text, size_t len, rdx_isa_inst *out)
{
    const rdx_isa_target *t = gfx1100();
    if (!t)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "INS: gfx1100 is not in the ISA tables");
    char line[256];
    while (len && (*text == ' ' || *text == '\t'))
        text++, len--;
    while (len && (text[len - 1] == ' ' || text[len - 1] == '\t'))
        len--;
    if (!len || len >= sizeof line)
        return rdx_fail(RDX_ERR_PARSE, "INS '%.*s': expected one instruction (1..255 characters)",
                        (int)(len > 80 ? 80 : len), text);
    memcpy(line, text, len);
    line[len] = 0;
    /* a branch target bbN: assembled as the immediate N, which decodes as the BRANCH
       operand N (the label number) */
    int label = -1;
    char *sp = strrchr(line, ' ');
    if (sp && sp[1] == 'b' && sp[2] == 'b' && sp[3]) {
        char *e;
        long v = strtol(sp + 3, &e, 10);
        if (*e || v < 0 || v > 32767)
            return rdx_fail(RDX_ERR_PARSE, "INS '%s': expected a label bbN with N in 0..32767",
                            line);
        label = (int)v;
        snprintf(sp + 1, sizeof line - (size_t)(sp + 1 - line), "%d", label);
    }
    uint8_t bytes[RDX_ISA_MAX_BYTES];
    size_t n, used;
    rdx_status st = rdx_asm_assemble_inst(t, line, bytes, &n);
    if (st)
        return rdx_fail_context(st, "INS '%.*s'", (int)len, text);
    memset(out, 0, sizeof *out);
    st = rdx_isa_decode(t, bytes, n, out, &used);
    if (st)
        return rdx_fail_context(st, "INS '%.*s'", (int)len, text);
    int b = branch_slot(out);
    if ((label >= 0) != (b >= 0))
        return rdx_fail(RDX_ERR_PARSE,
                        label >= 0 ? "INS '%.*s': a label is only a branch's operand"
                                   : "INS '%.*s': a branch's target is a label bbN",
                        (int)len, text);
    return RDX_OK;
}
