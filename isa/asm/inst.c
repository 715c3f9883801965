/* isa/asm/inst.c — instruction lines: mnemonic and operands to rdx_isa_inst, encoded. */
#include "isa/asm/state.h"

void rdx_asm_instruction(rdx_asm_state *st, rdx_lexer *lx)
{
    rdx_asm_error(st, lx->tok.col, "instructions are not assembled yet");
}
