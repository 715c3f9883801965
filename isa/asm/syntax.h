/*
 * isa/asm/syntax.h — what the printer and the parser share about LLVM's
 * AMDGPU syntax: names of special registers, inline float constants, DPP
 * controls, cache policies, and how each op prints its immediates (internal).
 */
#ifndef RDX_ISA_ASM_SYNTAX_H
#define RDX_ISA_ASM_SYNTAX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rdx/isa.h>

/* How an op's plain immediate (RDX_ISA_OPND_IMM) is written. */
typedef enum rdx_imm_style {
    RDX_IMM_DEC,        /* unsigned 16-bit decimal: s_endpgm 1 */
    RDX_IMM_HEX,        /* always hex: s_clause 0x0, s_movk_i32 s0, 0x0 */
    RDX_IMM_INLINE,     /* decimal in -16..64, else hex of the 16 bits: s_nop 4, s_nop 0x8000 */
    RDX_IMM_WAITCNT,    /* vmcnt(..) expcnt(..) lgkmcnt(..) */
    RDX_IMM_DEPCTR,     /* depctr_*(..) */
    RDX_IMM_DELAY_ALU,  /* instid0(..) | instskip(..) | instid1(..) */
    RDX_IMM_HWREG,      /* hwreg(ID, offset, size) */
    RDX_IMM_SENDMSG,    /* sendmsg(MSG...) */
    RDX_IMM_VERSION,    /* UC_VERSION_* */
    RDX_IMM_SMEM,       /* SMEM offset operand: hex, signed */
    RDX_IMM_SIGNED,     /* signed decimal */
    RDX_IMM_EXP_TARGET, /* export target: mrt0, mrtz, null, pos0, prim, param3 ... */
} rdx_imm_style;

/* Style of the IMM operand in slot `role` of `op`. */
rdx_imm_style rdx_syntax_imm_style(rdx_isa_op op, rdx_isa_enc enc, rdx_isa_role role);

/* Name of special register code (RDX_ISA_REG_*) with `count` registers, or NULL. */
const char *rdx_syntax_special_name(unsigned code, unsigned count);
/* Look up a special register name; false if unknown. */
bool rdx_syntax_special_find(const char *name, size_t len, unsigned *code, unsigned *count);

/* Text of inline float constant `c` for an operand of `bits` bits. */
const char *rdx_syntax_fconst_text(rdx_isa_fconst c, unsigned bits);

/* Family bit (1 gfx11, 2 gfx12) of a target. */
unsigned rdx_syntax_family_bit(const rdx_isa_target *t);

/* Name lookups of names.def (NULL / false when unknown on the target's family). */
const char *rdx_syntax_hwreg_name(unsigned fambit, unsigned id);
bool rdx_syntax_hwreg_find(unsigned fambit, const char *name, size_t len, unsigned *id);
const char *rdx_syntax_msg_name(unsigned fambit, unsigned id);
bool rdx_syntax_msg_find(unsigned fambit, const char *name, size_t len, unsigned *id);
const char *rdx_syntax_version_name(unsigned id);
bool rdx_syntax_version_find(const char *name, size_t len, unsigned *id);

/* MTBUF format names (BUF_FMT_*), ids 0..63. */
const char *rdx_syntax_buffmt_name(unsigned id);
bool rdx_syntax_buffmt_find(const char *name, size_t len, unsigned *id);
/* The unified format of LLVM's split spelling format:[BUF_DATA_FORMAT_<d>,
 * BUF_NUM_FORMAT_<n>]: `dfmt`/`nfmt` are the <d>/<n> parts (NULL: the default,
 * 8 / UNORM); -1 when the pair has no unified format ("unsupported format"). */
int rdx_syntax_buffmt_split(const char *dfmt, size_t dlen, const char *nfmt, size_t nlen);

/* MIMG dim names (SQ_RSRC_IMG_*), index 0..7. */
extern const char *const rdx_syntax_dim_names[8];

/* Cache-policy kinds of an op (RDNA4 th: names depend on it). */
typedef enum rdx_th_kind { RDX_TH_LOAD, RDX_TH_STORE, RDX_TH_ATOMIC } rdx_th_kind;
rdx_th_kind rdx_syntax_th_kind(rdx_isa_op op);
/* Name of th value v for kind k with scope `scope` (th 3 of loads and stores is
   named BYPASS with SCOPE_SYS, LU / RT_WB otherwise); static storage, NULL when
   unnamed. */
const char *rdx_syntax_th_name(rdx_th_kind k, unsigned v, unsigned scope);
extern const char *const rdx_syntax_scope_names[4];

/* Default op_sel_hi of a VOP3P op with n sources (LLVM omits it when equal). */
unsigned rdx_syntax_op_sel_hi_default(rdx_isa_op op, unsigned nsrc);

/* rdx_asm_print_inst that also gives the text's length (*len; 0 on failure). */
rdx_status rdx_syntax_print_inst(const rdx_isa_target *t, const rdx_isa_inst *in, char *buf,
                                 size_t cap, size_t *len);

/* Mnemonic spelled as LLVM prints it for the form ("v_add_f32_e32"); its length. */
size_t rdx_syntax_mnemonic(const rdx_isa_target *t, const rdx_isa_inst *in, char *buf, size_t cap);

/* Whether `role` is source 0, 1 or 2 (its index in *k): the sources that take
 * neg/abs and op_sel bits. */
static inline bool rdx_syntax_src_index(unsigned role, unsigned *k)
{
    if (role != RDX_ISA_ROLE_SRC0 && role != RDX_ISA_ROLE_SRC1 && role != RDX_ISA_ROLE_SRC2)
        return false;
    *k = role - RDX_ISA_ROLE_SRC0;
    return true;
}

/* v_fma_mix*: neg_lo/neg_hi are written as -x / |x|. */
bool rdx_syntax_is_mix(rdx_isa_op op);
/* Ops LLVM writes without operands although the encoding has fields. */
bool rdx_syntax_no_operands(rdx_isa_op op);
/* A FLAT/GLOBAL/MUBUF/... atomic without return (glc / th bit 0 clear). */
bool rdx_syntax_is_atomic_noret(const rdx_isa_target *t, const rdx_isa_inst *in);

/* byte_sel:N ops: 1 = v_cvt_f32_fp8/bf8 (op_sel bits 0-1), 2 = v_cvt_sr_* (bits 2-3); else 0. */
unsigned rdx_syntax_byte_sel_kind(rdx_isa_op op);
/* v_fmac_* / v_mac_*: src2 is tied to vdst; op_sel lists four elements. */
bool rdx_syntax_tied_src2(rdx_isa_op op);

/* The inline float constant whose bit pattern (for an operand of `fmt`,
   `bits` wide) is v, or -1. */
int rdx_syntax_float_of_bits(uint32_t v, rdx_isa_fmt fmt, unsigned bits);

/* Name of export target t into buf (cap >= 24); parse one back (false if unknown). */
void rdx_syntax_exp_target_name(unsigned t, char *buf, size_t cap);
bool rdx_syntax_exp_target_find(const char *name, size_t len, unsigned *t);

/* Whether a literal for a `bits`-wide operand (role `role`) of op in enc is 16
   bits (16-bit VALU operands: llvm-mc writes -47 as 0xffd1 there). */
bool rdx_syntax_literal16(rdx_isa_op op, rdx_isa_enc enc, unsigned bits, rdx_isa_role role);

#endif /* RDX_ISA_ASM_SYNTAX_H */
