/*
 * codegen/render_const.c — literals that have an inline form in their slot.
 *
 * Instruction selection builds integer constants with rdx_isa_constant in the
 * integer format (cg_i), so a float constant such as 1.0f (0x3f800000) in a
 * VALU float operand is a 32-bit literal; the encoder keeps literals as
 * given.  This pass asks rdx_isa_constant again with the operand slot's
 * format (from the ISA tables): where the slot reads the value as an f32 or
 * f16/bf16 and an inline constant means the same bits (0.5, 1.0, 2.0, 4.0,
 * their negatives, 1/(2*pi), small integers as raw bits), the literal becomes
 * the inline constant: 4 bytes shorter, and VOPD pairs (one literal per pair)
 * form more often.  64-bit and packed (VOP3P) slots are left alone.
 */
#include "codegen/cg.h"

unsigned cg_inline_constants(cg_prog *p)
{
    unsigned n = 0;
    for (size_t b = 0; b < p->nblocks; b++)
        for (size_t i = 0; i < p->blocks[b].n; i++) {
            rdx_isa_inst *in = &p->blocks[b].insts[i].in;
            int lit = 0; /* only literals change: the form is looked up for them alone */
            for (int k = 0; k < in->nopnd; k++)
                lit |= in->opnd[k].kind == RDX_ISA_OPND_LITERAL;
            if (!lit)
                continue;
            const rdx_isa_form_info *fi =
                cg_form(p->tgt, (rdx_isa_op)in->op, (rdx_isa_form)in->form);
            if (!fi)
                continue;
            if (fi->enc != RDX_ISA_ENC_VOP1 && fi->enc != RDX_ISA_ENC_VOP2 &&
                fi->enc != RDX_ISA_ENC_VOPC && fi->enc != RDX_ISA_ENC_VOP3 &&
                fi->enc != RDX_ISA_ENC_VOP3SD)
                continue;
            for (int k = 0; k < in->nopnd && (unsigned)k < fi->nopnd; k++) {
                rdx_isa_opnd *o = &in->opnd[k];
                const rdx_isa_opnd_info *oi = &fi->opnd[k];
                if (o->kind != RDX_ISA_OPND_LITERAL)
                    continue;
                unsigned bits;
                if (oi->fmt == RDX_ISA_FMT_F32 && oi->bits == 32)
                    bits = 32;
                else if ((oi->fmt == RDX_ISA_FMT_F16 || oi->fmt == RDX_ISA_FMT_BF16) &&
                         oi->bits == 16)
                    bits = 16;
                else
                    continue;
                uint64_t v = (uint32_t)o->value;
                if (bits == 16) {
                    if (v >> 16)
                        continue; /* not a plain 16-bit pattern: keep it */
                }
                rdx_isa_opnd c;
                if (rdx_isa_constant(v, bits, (rdx_isa_fmt)oi->fmt, &c) ||
                    c.kind == RDX_ISA_OPND_LITERAL)
                    continue;
                rdx_isa_inst t = *in;
                t.opnd[k] = c;
                cg_target_inst(p->tgt, &t); /* the target's spelling (gfx12 renames) */
                uint8_t buf[RDX_ISA_MAX_BYTES];
                size_t len;
                if (rdx_isa_encode(p->tgt, &t, buf, &len))
                    continue;
                *o = c;
                n++;
            }
        }
    return n;
}
