/*
 * codegen/render_print.c — text of a machine program for --print: one
 * instruction per line in LLVM's operand order, virtual registers as %sN /
 * %vN (with [a:b] for dword ranges), physical ones after the register plan.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/cg.h"
#include "util/error.h"

typedef struct sbuf {
    char *s;
    size_t n, cap;
    int oom;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->oom = 1;
            return;
        }
        if (b->s && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        size_t nc = b->cap ? b->cap * 2 : 4096;
        while (nc < b->n + (size_t)k + 1)
            nc *= 2;
        char *ns = realloc(b->s, nc);
        if (!ns) {
            b->oom = 1;
            return;
        }
        b->s = ns, b->cap = nc;
    }
}

static const char *special_name(unsigned code)
{
    switch (code) {
    case RDX_ISA_REG_VCC_LO:
        return "vcc_lo";
    case RDX_ISA_REG_VCC_HI:
        return "vcc_hi";
    case RDX_ISA_REG_NULL:
        return "null";
    case RDX_ISA_REG_M0:
        return "m0";
    case RDX_ISA_REG_EXEC_LO:
        return "exec_lo";
    case RDX_ISA_REG_EXEC_HI:
        return "exec_hi";
    case RDX_ISA_REG_SCC:
        return "scc";
    default:
        return "special";
    }
}

static void opnd(sbuf *b, const cg_prog *p, const cg_inst *in, int k, int physical)
{
    const rdx_isa_opnd *o = &in->in.opnd[k];
    static const char *fl[] = { "0.5",  "-0.5", "1.0",  "-1.0",      "2.0",
                                "-2.0", "4.0",  "-4.0", "0.15915494" };
    switch (o->kind) {
    case RDX_ISA_OPND_SGPR:
    case RDX_ISA_OPND_VGPR: {
        char f = o->kind == RDX_ISA_OPND_SGPR ? 's' : 'v';
        if (in->vr[k] && !physical) {
            const cg_vreg *r = &p->vregs[in->vr[k]];
            if (o->count == r->size && o->reg == 0)
                put(b, "%%%c%u", f, in->vr[k]);
            else if (o->count == 1)
                put(b, "%%%c%u[%u]", f, in->vr[k], o->reg);
            else
                put(b, "%%%c%u[%u:%u]", f, in->vr[k], o->reg, o->reg + o->count - 1);
        } else if (o->count <= 1)
            put(b, "%c%u", f, o->reg);
        else
            put(b, "%c[%u:%u]", f, o->reg, o->reg + o->count - 1);
        break;
    }
    case RDX_ISA_OPND_SPECIAL:
        put(b, "%s", special_name(o->reg));
        break;
    case RDX_ISA_OPND_TTMP: /* gfx12's workgroup ids (ttmp9, ttmp7) */
        if (o->count <= 1)
            put(b, "ttmp%u", o->reg);
        else
            put(b, "ttmp[%u:%u]", o->reg, o->reg + o->count - 1);
        break;
    case RDX_ISA_OPND_INT:
        put(b, "%d", o->value);
        break;
    case RDX_ISA_OPND_FLOAT:
        put(b, "%s", o->value >= 0 && o->value < 9 ? fl[o->value] : "?");
        break;
    case RDX_ISA_OPND_LITERAL:
        put(b, "0x%x", (uint32_t)o->value);
        break;
    case RDX_ISA_OPND_IMM:
        put(b, "%d", o->value);
        break;
    case RDX_ISA_OPND_BRANCH:
        if (in->target >= 0)
            put(b, "bb%d", in->target);
        else
            put(b, "%d", o->value);
        break;
    case RDX_ISA_OPND_OFF:
        put(b, "off");
        break;
    default:
        put(b, "?");
        break;
    }
}

/* s_delay_alu's operand as llvm-mc prints it: instid0(..) | instskip(..) | instid1(..). */
static void delay_alu(sbuf *b, int v)
{
    static const char *const id[] = { "NO_DEP",        "VALU_DEP_1",    "VALU_DEP_2",
                                      "VALU_DEP_3",    "VALU_DEP_4",    "TRANS32_DEP_1",
                                      "TRANS32_DEP_2", "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1",
                                      "SALU_CYCLE_1",  "SALU_CYCLE_2",  "SALU_CYCLE_3" };
    static const char *const skip[] = { "SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4" };
    int i0 = v & 15, sk = (v >> 4) & 7, i1 = (v >> 7) & 15;
    if (i0 >= 12 || i1 >= 12 || sk >= 6 || (v >> 11)) {
        put(b, " %d", v);
        return;
    }
    const char *sep = " ";
    if (i0) {
        put(b, "%sinstid0(%s)", sep, id[i0]);
        sep = " | ";
    }
    if (sk) {
        put(b, "%sinstskip(%s)", sep, skip[sk]);
        sep = " | ";
    }
    if (i1)
        put(b, "%sinstid1(%s)", sep, id[i1]);
}

static void inst(sbuf *b, const cg_prog *p, const cg_inst *in, int physical)
{
    /* the target's spelling (gfx12 renames, target.c) */
    const char *name = rdx_isa_op_name((rdx_isa_op)cg_target_op(p->tgt, in->in.op));
    if (in->in.op == RDX_ISA_OP_S_WAITCNT) {
        int v = in->in.opnd[0].value, vm = (v >> 10) & 63, lg = (v >> 4) & 63;
        put(b, "  s_waitcnt");
        if (vm != 63)
            put(b, " vmcnt(%d)", vm);
        if (lg != 63)
            put(b, " lgkmcnt(%d)", lg);
        put(b, "\n");
        return;
    }
    if (in->in.op == RDX_ISA_OP_S_DELAY_ALU) {
        put(b, "  s_delay_alu");
        delay_alu(b, in->in.opnd[0].value);
        put(b, "\n");
        return;
    }
    put(b, "  %s%s", name ? name : "?", in->in.form == RDX_ISA_FORM_E64 ? "_e64" : "");
    for (int k = 0; k < in->in.nopnd; k++) {
        if (in->in.op_y && k == in->in.nx) {
            const char *y = rdx_isa_op_name((rdx_isa_op)cg_target_op(p->tgt, in->in.op_y));
            put(b, " :: %s ", y ? y : "?");
        } else
            put(b, k ? ", " : " ");
        opnd(b, p, in, k, physical);
    }
    for (int m = 0; m < RDX_ISA_MOD_COUNT; m++) {
        int v = in->in.mod[m];
        if (!v || (m == RDX_ISA_MOD_OP_SEL_HI && v == 7))
            continue;
        put(b, " %s:%d", rdx_isa_mod_name((rdx_isa_mod)m), v);
    }
    put(b, "\n");
}

rdx_status cg_print(const cg_prog *p, int physical, char **out)
{
    sbuf b = { 0 };
    for (size_t bi = 0; bi < p->nblocks; bi++) {
        const cg_block *bl = &p->blocks[bi];
        put(&b, "bb%zu:", bi);
        if (bl->succ[0] >= 0 || bl->succ[1] >= 0) {
            put(&b, "  ; ->");
            for (int s = 0; s < 2; s++)
                if (bl->succ[s] >= 0)
                    put(&b, " bb%d", bl->succ[s]);
        }
        put(&b, "\n");
        for (size_t i = 0; i < bl->n; i++)
            inst(&b, p, &bl->insts[i], physical);
    }
    if (physical) {
        put(&b, "; %u SGPRs, %u VGPRs, %u bytes LDS\n", p->num_sgprs, p->num_vgprs, p->lds_size);
        put(&b,
            "; spills: %u VGPR dwords (%u bytes scratch), %u SGPR dwords (%u lanes), %u "
            "instructions\n",
            p->spill_dwords[CG_V], p->scratch_size, p->spill_dwords[CG_S], p->spill_lanes,
            p->spill_insts);
    }
    if (b.oom || !b.s) {
        free(b.s);
        return rdx_fail(RDX_ERR_NOMEM, "codegen: out of memory printing");
    }
    *out = b.s;
    return RDX_OK;
}
