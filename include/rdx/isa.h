/*
 * rdx/isa.h — RDNA3 / RDNA4 instruction tables, encoder and decoder.
 *
 * The tables are generated (scripts/gen_isa_tables.py, `make isa-tables`) from
 * AMD's machine-readable ISA data (isa/data/rdna3.json, rdna4.json) with
 * per-target corrections probed from llvm-mc (isa/targets/).  LLVM's assembler
 * is the authority: operand order, forms and validity follow what
 * `llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=<target>` accepts and prints.
 *
 * Model
 * -----
 * - A target (gfx1100, gfx1201, ...) is a row of a table: name, family, ELF
 *   machine number, features.  rdx_isa_target_find("gfx1100").
 * - An op (rdx_isa_op, include/rdx/isa_ops.h) is one mnemonic without the
 *   _e32/_e64/_dpp suffix, numbered over the union of all families
 *   (RDX_ISA_OP_V_ADD_F32).  Whether a target has it: rdx_isa_op_available().
 * - A form (rdx_isa_form) says which encoding an instruction uses: E32 (VOP1,
 *   VOP2, VOPC), E64 (VOP3/VOP3SD/VOP3P, including promotion of VOP1/2/C),
 *   DPP16/DPP8 on either, or NATIVE for every other class (SOP*, SMEM, DS,
 *   memory, VOPD, ...).  rdx_isa_op_form() gives, for a target, op and form,
 *   the encoding class, opcode and the operand descriptors.
 * - An instruction (rdx_isa_inst) is a plain value: op, form, operands in
 *   LLVM's printed order, and modifiers in mod[] (RDX_ISA_MOD_*).  Build it
 *   with memset/designated initialisers, no allocation.
 *
 * Operand order
 * -------------
 * inst.opnd[] holds the comma-separated operands exactly in the order LLVM
 * prints them for the mnemonic, including implicit ones LLVM prints (vcc_lo of
 * VOPC _e32 and v_cndmask_b32_e32 / carry ops, the literal K of v_fmamk/
 * v_fmaak, "off").  Modifiers LLVM prints as words (offset:, glc, clamp,
 * op_sel:[...], row_shr:, dmask:, ...) are in mod[].  Per class:
 *   SOP1 sdst, ssrc0          SOP2 sdst, ssrc0, ssrc1     SOPC ssrc0, ssrc1
 *   SOPK sdst, simm16 (s_setreg*: simm16, sdst)           SOPP [simm16]
 *   SMEM sdata, sbase, soffset — the third operand is an IMM (the offset) when
 *        soffset is null; on RDNA3 a null soffset with offset 0 is the null
 *        register (LLVM prints "null"), on RDNA4 the IMM 0 (the encoder takes
 *        either spelling: they are one encoding).  With a register
 *        soffset the offset is mod[OFFSET].  s_prefetch_*: [sbase,] offset,
 *        soffset, count.
 *   VOP1 vdst, src0      VOP2 vdst, src0, src1 (+ vcc for carry/cndmask forms)
 *   VOPC e32: vcc, src0, src1 (v_cmpx: src0, src1); e64: sdst, src0, src1
 *   VOP3 vdst, [sdst,] src0, src1, src2     VOP3P vdst, src0, src1, src2
 *   VOPD X then Y operands: vdstx, srcx0[, vsrcx1], vdsty, srcy0[, vsrcy1]
 *        (fmamk: vdst, src0, K, vsrc1; fmaak: vdst, src0, vsrc1, K); op = X,
 *        op_y = Y, nx = number of X operands
 *   DS vdst, addr, data0, data1 (those present)
 *   FLAT/GLOBAL/SCRATCH loads vdst, addr, saddr; stores addr, data, saddr;
 *        atomics have the vdst slot only when they return (glc on RDNA3,
 *        th bit 0 on RDNA4); FLAT has no saddr; "off" is RDX_ISA_OPND_OFF
 *   MUBUF/MTBUF vdata, vaddr (OFF without idxen/offen), srsrc, soffset
 *   MIMG vdata, vaddr, srsrc[, ssamp] — with NSA each address is its own
 *        operand (LLVM's [v4, v6] list); RDNA4 VIMAGE/VSAMPLE likewise
 *   EXP target, vsrc0..3 (OFF for disabled)   VINTERP vdst, src0, src1, src2
 *   LDSDIR vdst[, attr]           (attribute as IMM attr*4+chan)
 * rdx_isa_op_form() returns the descriptor list; its roles name each slot.
 * s_endpgm's immediate is optional (nopnd 0 means 0, as LLVM prints it).
 *
 * Values
 * ------
 * Literals are the raw 32-bit dword (for 64-bit float operands LLVM's
 * literal is the high half).  Registers of lane-mask operands (sdst of
 * compares, carry-out, cndmask's mask; fmt RDX_ISA_FMT_LANEMASK) count 1 in
 * wave32 and 2 in wave64: the encoder accepts both, rdx_isa_decode gives wave32
 * and rdx_isa_decode_wave(t, 64, ...) wave64.  mod[OP_SEL_HI] is the raw field: VOP3P code that
 * wants the hardware default must set it to 7.
 *
 * Errors
 * ------
 * Encoding checks everything the hardware would silently misread: register
 * files an operand does not accept, misaligned or wrongly sized ranges, a
 * second distinct literal, immediates and offsets out of range, modifiers the
 * encoding lacks, ops or forms the target lacks.  Each failure returns
 * RDX_ERR_INVALID / RDX_ERR_RANGE / RDX_ERR_UNSUPPORTED with a message naming
 * the mnemonic and the operand or modifier.  The decoder never reads past
 * `avail` bytes and rejects encodings it cannot represent (RDX_ERR_PARSE).
 */
#ifndef RDX_ISA_H
#define RDX_ISA_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include <rdx/status.h>
#include <rdx/isa_ops.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- targets */

typedef enum rdx_isa_family {
    RDX_ISA_FAMILY_RDNA3 = 0, /* gfx11xx: rdna3.json (RDNA3.5 data, corrected per target) */
    RDX_ISA_FAMILY_RDNA4 = 1, /* gfx12xx: rdna4.json */
    RDX_ISA_FAMILY_COUNT
} rdx_isa_family;

/* Target feature bits (rdx_isa_target.features). */
#define RDX_ISA_FEATURE_WAVE32       (1u << 0) /* supports wave32 */
#define RDX_ISA_FEATURE_WAVE64       (1u << 1) /* supports wave64 */
#define RDX_ISA_FEATURE_SCALAR_FLOAT (1u << 2) /* s_add_f32 & co. (RDNA3.5, RDNA4) */
/* VOP3 DPP takes a scalar or constant src1 (RDNA3.5, RDNA4) */
#define RDX_ISA_FEATURE_DPP_SRC1_SGPR (1u << 3)

/* One GPU target.  Rows live in static storage; never free them. */
typedef struct rdx_isa_target {
    const char *name;      /* "gfx1100" */
    rdx_isa_family family; /* instruction-set family */
    uint32_t elf_mach;     /* EF_AMDGPU_MACH_* value for e_flags (0x41 for gfx1100) */
    uint32_t features;     /* RDX_ISA_FEATURE_* */
    unsigned index;        /* position in the target table (0..rdx_isa_target_count()-1) */
} rdx_isa_target;

/* The target named `name` ("gfx1100"), or NULL (no error recorded). */
const rdx_isa_target *rdx_isa_target_find(const char *name);
/* Number of known targets, and the i-th one (NULL when i is out of range). */
size_t rdx_isa_target_count(void);
const rdx_isa_target *rdx_isa_target_at(size_t i);
/* Default wave size of the target (32 for every RDNA target). */
unsigned rdx_isa_target_default_wave_size(const rdx_isa_target *t);
/* Whether the target supports waves of `wave_size` lanes (32 or 64). */
bool rdx_isa_target_supports_wave_size(const rdx_isa_target *t, unsigned wave_size);

/* ----------------------------------------------------- encodings and ops */

/* Encoding classes (base classes; _LIT/_DPP/_SDST variants are forms of these). */
/* clang-format off */
#define RDX_ISA_ENC_LIST(X)                                                                       \
    X(SOP1) X(SOP2) X(SOPC) X(SOPK) X(SOPP) X(SMEM) X(VOP1) X(VOP2) X(VOPC) X(VOP3) X(VOP3SD)     \
    X(VOP3P) X(VOPD) X(DS) X(FLAT) X(GLOBAL) X(SCRATCH) X(MUBUF) X(MTBUF) X(MIMG) X(EXP)          \
    X(VINTERP) X(LDSDIR) X(VBUFFER) X(VFLAT) X(VGLOBAL) X(VSCRATCH) X(VIMAGE) X(VSAMPLE)          \
    X(VEXPORT) X(VDSDIR)
/* clang-format on */

typedef enum rdx_isa_enc {
#define RDX_ISA_ENC_ENUM_(n) RDX_ISA_ENC_##n,
    RDX_ISA_ENC_LIST(RDX_ISA_ENC_ENUM_)
#undef RDX_ISA_ENC_ENUM_
        RDX_ISA_ENC_COUNT
} rdx_isa_enc;

/* Name of an encoding class ("VOP3"), "?" when out of range. */
const char *rdx_isa_enc_name(rdx_isa_enc enc);

/* Instruction forms. */
typedef enum rdx_isa_form {
    RDX_ISA_FORM_AUTO = 0,  /* encoder only: the op's native form (E32 for VOP1/2/C) */
    RDX_ISA_FORM_NATIVE,    /* every non-VALU-op class: SOP*, SMEM, DS, memory, VOPD, ... */
    RDX_ISA_FORM_E32,       /* VOP1 / VOP2 / VOPC 32-bit encoding (with literal: +4 bytes) */
    RDX_ISA_FORM_E64,       /* VOP3 / VOP3SD / VOP3P (native or promoted) */
    RDX_ISA_FORM_DPP16,     /* E32 with a DPP16 dword (src0 = 0xfa) */
    RDX_ISA_FORM_DPP8,      /* E32 with a DPP8 dword (src0 = 0xe9 / 0xea with fi) */
    RDX_ISA_FORM_E64_DPP16, /* E64 with a DPP16 dword */
    RDX_ISA_FORM_E64_DPP8,  /* E64 with a DPP8 dword */
    RDX_ISA_FORM_COUNT
} rdx_isa_form;

/* Name of a form ("e32", "e64", "dpp", "e64_dpp", "dpp8", "e64_dpp8", "native"). */
const char *rdx_isa_form_name(rdx_isa_form form);

/* Op names: "v_add_f32" for RDX_ISA_OP_V_ADD_F32; NULL when out of range. */
const char *rdx_isa_op_name(rdx_isa_op op);

/*
 * Look up a mnemonic.  Accepts the plain name ("v_add_f32") and LLVM's suffixed
 * spellings ("v_add_f32_e32", "_e64", "_dpp", "_e64_dpp"); *form (if non-NULL)
 * gets the form the suffix names (AUTO when there is none; DPP8 is not
 * distinguished from DPP16 by name: LLVM writes both as _dpp).  Returns
 * RDX_ERR_NOT_FOUND (message names the mnemonic) when unknown in every family.
 */
rdx_status rdx_isa_op_find(const char *name, rdx_isa_op *op, rdx_isa_form *form);

/* Whether target `t` has op `op` in some form (false for NULL/out of range). */
bool rdx_isa_op_available(const rdx_isa_target *t, rdx_isa_op op);

/* Register files and constants an operand slot accepts (bits of rdx_isa_opnd_info.kinds). */
typedef enum rdx_isa_opnd_kind {
    RDX_ISA_OPND_NONE = 0, /* empty slot */
    RDX_ISA_OPND_SGPR,     /* s[reg .. reg+count-1] */
    RDX_ISA_OPND_VGPR,     /* v[reg .. reg+count-1] */
    RDX_ISA_OPND_TTMP,     /* ttmp[reg .. reg+count-1] */
    RDX_ISA_OPND_SPECIAL,  /* reg = RDX_ISA_REG_* operand code (vcc_lo, m0, null, exec...) */
    RDX_ISA_OPND_INT,      /* inline integer constant, value in -16..64 */
    RDX_ISA_OPND_FLOAT,    /* inline float constant, value = rdx_isa_fconst */
    RDX_ISA_OPND_LITERAL,  /* 32-bit literal dword (value, raw bits) */
    RDX_ISA_OPND_IMM,      /* plain immediate field (simm16, SMEM offset, exp target...) */
    RDX_ISA_OPND_BRANCH,   /* branch: value = signed dword offset from the next instruction */
    RDX_ISA_OPND_OFF,      /* "off": an absent address/data register */
    RDX_ISA_OPND_KIND_COUNT
} rdx_isa_opnd_kind;

#define RDX_ISA_KIND_BIT(k) (1u << (k))

/* Special operand codes (the hardware's 8/9-bit source encoding). */
#define RDX_ISA_REG_VCC_LO            106
#define RDX_ISA_REG_VCC_HI            107
#define RDX_ISA_REG_NULL              124
#define RDX_ISA_REG_M0                125
#define RDX_ISA_REG_EXEC_LO           126
#define RDX_ISA_REG_EXEC_HI           127
#define RDX_ISA_REG_SHARED_BASE       235
#define RDX_ISA_REG_SHARED_LIMIT      236
#define RDX_ISA_REG_PRIVATE_BASE      237
#define RDX_ISA_REG_PRIVATE_LIMIT     238
#define RDX_ISA_REG_POPS_EXITING_WAVE 239
#define RDX_ISA_REG_VCCZ              251
#define RDX_ISA_REG_EXECZ             252
#define RDX_ISA_REG_SCC               253
#define RDX_ISA_REG_LDS_DIRECT        254

/* Inline float constants (RDX_ISA_OPND_FLOAT value), in hardware order (codes 240..248). */
typedef enum rdx_isa_fconst {
    RDX_ISA_FCONST_0_5 = 0,
    RDX_ISA_FCONST_NEG_0_5,
    RDX_ISA_FCONST_1_0,
    RDX_ISA_FCONST_NEG_1_0,
    RDX_ISA_FCONST_2_0,
    RDX_ISA_FCONST_NEG_2_0,
    RDX_ISA_FCONST_4_0,
    RDX_ISA_FCONST_NEG_4_0,
    RDX_ISA_FCONST_INV_2PI, /* 1/(2*pi) */
    RDX_ISA_FCONST_COUNT
} rdx_isa_fconst;

/* Operand roles: which field of the encoding a slot fills. */
/* clang-format off */
#define RDX_ISA_ROLE_LIST(X)                                                                      \
    X(VDST) X(SDST) X(SRC0) X(SRC1) X(SRC2) X(SIMM16) X(SDATA) X(SBASE) X(SOFFSET) X(ADDR)        \
    X(DATA0) X(DATA1) X(SADDR) X(VADDR) X(VDATA) X(SRSRC) X(SSAMP) X(VCC) X(K) X(VDSTY)           \
    X(SRCY0) X(VSRCY1) X(KY) X(TARGET) X(VSRC0) X(VSRC1) X(VSRC2) X(VSRC3) X(ATTR) X(OFFSET)
/* clang-format on */

typedef enum rdx_isa_role {
#define RDX_ISA_ROLE_ENUM_(n) RDX_ISA_ROLE_##n,
    RDX_ISA_ROLE_LIST(RDX_ISA_ROLE_ENUM_)
#undef RDX_ISA_ROLE_ENUM_
        RDX_ISA_ROLE_COUNT
} rdx_isa_role;

/* Name of a role ("vdst"), "?" when out of range. */
const char *rdx_isa_role_name(rdx_isa_role role);

/* Number format of an operand: how inline float constants and literals are read. */
typedef enum rdx_isa_fmt {
    RDX_ISA_FMT_ANY = 0, /* raw bits / untyped */
    RDX_ISA_FMT_B,       /* integer / bit pattern */
    RDX_ISA_FMT_F16,
    RDX_ISA_FMT_BF16,
    RDX_ISA_FMT_F32,
    RDX_ISA_FMT_F64,
    RDX_ISA_FMT_PK_F16,   /* packed 2 x f16 (VOP3P) */
    RDX_ISA_FMT_PK_I16,   /* packed 2 x 16-bit integers */
    RDX_ISA_FMT_LANEMASK, /* a lane mask: 1 SGPR in wave32, 2 in wave64 (the encoder
                             accepts both; see rdx_isa_decode_wave) */
    RDX_ISA_FMT_COUNT
} rdx_isa_fmt;

/* One operand slot of an op in a form. */
typedef struct rdx_isa_opnd_info {
    uint8_t role;   /* rdx_isa_role */
    uint8_t fmt;    /* rdx_isa_fmt */
    uint16_t bits;  /* width in bits: 32 one register, 64 a pair, 128 four, ... */
    uint16_t kinds; /* RDX_ISA_KIND_BIT(RDX_ISA_OPND_*) accepted */
} rdx_isa_opnd_info;

/* An op in one form on one target. */
typedef struct rdx_isa_form_info {
    uint8_t enc;     /* rdx_isa_enc of the base encoding (VOP3 for promoted e64) */
    uint16_t opcode; /* value of the encoding's op field */
    uint8_t nopnd;   /* operand slots, in LLVM's printed order */
    const rdx_isa_opnd_info *opnd;
} rdx_isa_form_info;

/*
 * The encoding and operand slots of `op` in `form` on target `t` (AUTO means
 * the native form).  *out points at static tables.  Errors: RDX_ERR_UNSUPPORTED
 * when the target lacks the op or the op has no such form (message names both).
 */
rdx_status rdx_isa_op_form(const rdx_isa_target *t, rdx_isa_op op, rdx_isa_form form,
                           const rdx_isa_form_info **out);

/* ------------------------------------------------------------- modifiers */

/*
 * Modifiers: every field LLVM prints as a word after the operands.  Values are
 * plain integers in inst.mod[RDX_ISA_MOD_*]; 0 is the default (absent).
 * Masks over sources use bit i for src i (NEG, ABS, NEG_HI, OP_SEL_HI);
 * OP_SEL bit 3 is the destination.  OFFSET is signed where the hardware field
 * is.  DPP8 packs the eight 3-bit lane selects (lane i at bits 3i..3i+2).
 */
/* clang-format off */
#define RDX_ISA_MOD_LIST(X)                                                                       \
    X(CLAMP, "clamp") X(OMOD, "omod") X(NEG, "neg") X(ABS, "abs") X(NEG_HI, "neg_hi")             \
    X(OP_SEL, "op_sel") X(OP_SEL_HI, "op_sel_hi") X(DPP_CTRL, "dpp_ctrl")                         \
    X(ROW_MASK, "row_mask") X(BANK_MASK, "bank_mask") X(BOUND_CTRL, "bound_ctrl") X(FI, "fi")     \
    X(DPP8, "dpp8") X(OFFSET, "offset") X(OFFSET0, "offset0") X(OFFSET1, "offset1")               \
    X(GLC, "glc") X(SLC, "slc") X(DLC, "dlc") X(GDS, "gds") X(NV, "nv") X(TH, "th")               \
    X(SCOPE, "scope") X(IDXEN, "idxen") X(OFFEN, "offen") X(TFE, "tfe") X(LWE, "lwe")             \
    X(FORMAT, "format") X(DMASK, "dmask") X(DIM, "dim") X(UNORM, "unorm") X(R128, "r128")         \
    X(A16, "a16") X(D16, "d16") X(DONE, "done") X(ROW_EN, "row_en") X(WAIT_EXP, "wait_exp")       \
    X(WAIT_VDST, "wait_vdst") X(WAIT_VA_VDST, "wait_va_vdst") X(WAIT_VM_VSRC, "wait_vm_vsrc")
/* clang-format on */

typedef enum rdx_isa_mod {
#define RDX_ISA_MOD_ENUM_(n, s) RDX_ISA_MOD_##n,
    RDX_ISA_MOD_LIST(RDX_ISA_MOD_ENUM_)
#undef RDX_ISA_MOD_ENUM_
        RDX_ISA_MOD_COUNT
} rdx_isa_mod;

/* Name of a modifier ("offset"), "?" when out of range. */
const char *rdx_isa_mod_name(rdx_isa_mod mod);

/* Whether `mod` exists in the encoding `op` uses in `form` on `t`. */
bool rdx_isa_mod_allowed(const rdx_isa_target *t, rdx_isa_op op, rdx_isa_form form,
                         rdx_isa_mod mod);

/* ----------------------------------------------------------- instructions */

#define RDX_ISA_MAX_OPNDS 8  /* VOPD pairs with K constants need 8 */
#define RDX_ISA_MAX_BYTES 20 /* the longest encoding is 12 bytes; room to spare */

/* One operand. */
typedef struct rdx_isa_opnd {
    uint8_t kind;  /* rdx_isa_opnd_kind */
    uint8_t count; /* registers in the range (SGPR/VGPR/TTMP/SPECIAL), else 0 */
    uint16_t reg;  /* first register index, or the RDX_ISA_REG_* code */
    int32_t value; /* INT, FLOAT (rdx_isa_fconst), LITERAL (raw bits), IMM, BRANCH */
} rdx_isa_opnd;

/* One instruction.  Zero-initialise, then fill. */
typedef struct rdx_isa_inst {
    uint16_t op;   /* rdx_isa_op */
    uint16_t op_y; /* VOPD: the second (Y) op; 0 otherwise */
    uint8_t form;  /* rdx_isa_form (decode always sets an explicit form) */
    uint8_t nopnd; /* used slots of opnd[] */
    uint8_t nx;    /* VOPD: how many of opnd[] belong to the X op */
    uint8_t pad_;  /* zero */
    rdx_isa_opnd opnd[RDX_ISA_MAX_OPNDS];
    int32_t mod[RDX_ISA_MOD_COUNT];
} rdx_isa_inst;

/* Operand constructors (plain values; no validation until encode). */
static inline rdx_isa_opnd rdx_isa_sgpr(unsigned reg, unsigned count)
{
    rdx_isa_opnd o = { RDX_ISA_OPND_SGPR, (uint8_t)count, (uint16_t)reg, 0 };
    return o;
}
static inline rdx_isa_opnd rdx_isa_vgpr(unsigned reg, unsigned count)
{
    rdx_isa_opnd o = { RDX_ISA_OPND_VGPR, (uint8_t)count, (uint16_t)reg, 0 };
    return o;
}
static inline rdx_isa_opnd rdx_isa_ttmp(unsigned reg, unsigned count)
{
    rdx_isa_opnd o = { RDX_ISA_OPND_TTMP, (uint8_t)count, (uint16_t)reg, 0 };
    return o;
}
static inline rdx_isa_opnd rdx_isa_special(unsigned code, unsigned count)
{
    rdx_isa_opnd o = { RDX_ISA_OPND_SPECIAL, (uint8_t)count, (uint16_t)code, 0 };
    return o;
}
static inline rdx_isa_opnd rdx_isa_int(int v)
{
    rdx_isa_opnd o = { RDX_ISA_OPND_INT, 0, 0, v };
    return o;
}
static inline rdx_isa_opnd rdx_isa_float(rdx_isa_fconst c)
{
    rdx_isa_opnd o = { RDX_ISA_OPND_FLOAT, 0, 0, (int32_t)c };
    return o;
}
static inline rdx_isa_opnd rdx_isa_literal(uint32_t bits)
{
    rdx_isa_opnd o = { RDX_ISA_OPND_LITERAL, 0, 0, (int32_t)bits };
    return o;
}
static inline rdx_isa_opnd rdx_isa_imm(int32_t v)
{
    rdx_isa_opnd o = { RDX_ISA_OPND_IMM, 0, 0, v };
    return o;
}
static inline rdx_isa_opnd rdx_isa_off(void)
{
    rdx_isa_opnd o = { RDX_ISA_OPND_OFF, 0, 0, 0 };
    return o;
}

/*
 * The operand for a constant with bit pattern `bits` in a source slot of
 * `size_bits` (16, 32 or 64) bits and format `fmt` (from the slot's
 * rdx_isa_opnd_info), chosen as llvm-mc chooses: an inline integer when the
 * value (signed, in the slot's width) is in -16..64, an inline float when the
 * pattern is 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0 or 1/(2*pi) in the
 * slot's width (F16/BF16 patterns for 16-bit slots; never for packed
 * formats), else a 32-bit literal.  A 64-bit slot takes a literal only for an
 * F64 whose low half is zero (the literal is the high half) or an integer that
 * sign-extends from 32 bits.  Errors: RDX_ERR_RANGE (no encoding; message
 * gives the value), RDX_ERR_INVALID (size not 16/32/64).
 */
rdx_status rdx_isa_constant(uint64_t bits, unsigned size_bits, rdx_isa_fmt fmt, rdx_isa_opnd *out);

/*
 * The bit pattern an inline float constant stands for in an operand of
 * `size_bits` (16: F16, or BF16 when fmt is RDX_ISA_FMT_BF16; 32: F32; 64:
 * F64).  Returns 0 for a code or size out of range.  The inverse of the float
 * half of rdx_isa_constant; the one table of these values.
 */
uint64_t rdx_isa_fconst_bits(rdx_isa_fconst c, unsigned size_bits, rdx_isa_fmt fmt);

/*
 * Encode `inst` for target `t` into out[0..RDX_ISA_MAX_BYTES); *len gets the
 * byte count (4..12, a multiple of 4).  Errors (message names the mnemonic and
 * operand or modifier): RDX_ERR_UNSUPPORTED (op/form not on the target, DPP the
 * op lacks), RDX_ERR_INVALID (wrong operand count, kind, register file, width,
 * alignment, second literal, literal with DPP, modifier the form lacks,
 * constant-bus limit, VOPD bank/parity rules), RDX_ERR_RANGE (register index,
 * inline constant, immediate, offset or modifier out of range).  On error out
 * and *len are unspecified.  Pure function: thread-safe, no allocation.
 */
rdx_status rdx_isa_encode(const rdx_isa_target *t, const rdx_isa_inst *inst,
                          uint8_t out[RDX_ISA_MAX_BYTES], size_t *len);

/*
 * Decode one instruction from bytes[0..avail) for target `t` into *out; *len
 * gets its size in bytes.  Never reads beyond avail.  Errors: RDX_ERR_PARSE
 * (truncated, unknown encoding or opcode, or a field value the op cannot
 * have; the message gives the first dword), RDX_ERR_UNSUPPORTED (an op the
 * target lacks).  For bytes produced by rdx_isa_encode or llvm-mc,
 * rdx_isa_encode(decode(bytes)) reproduces them exactly.
 */
rdx_status rdx_isa_decode(const rdx_isa_target *t, const uint8_t *bytes, size_t avail,
                          rdx_isa_inst *out, size_t *len);

/*
 * rdx_isa_decode for code that runs in waves of `wave_size` lanes (32 or 64,
 * as the target supports): in wave64, lane-mask operands (RDX_ISA_FMT_LANEMASK
 * slots, the implicit vcc of e32 compares/carries/cndmask) decode as register
 * pairs (vcc, s[n:n+1]) the way llvm-mc prints them with +wavefrontsize64.
 * rdx_isa_decode is this with 32.  Errors as rdx_isa_decode, plus
 * RDX_ERR_INVALID for a wave size the target lacks.
 */
rdx_status rdx_isa_decode_wave(const rdx_isa_target *t, unsigned wave_size, const uint8_t *bytes,
                               size_t avail, rdx_isa_inst *out, size_t *len);

/* ---------------------------------------------------- operand constraints */

/*
 * Rules on operand combinations the hardware forbids although every field
 * holds a valid value (docs/isa.md, "Operand constraints", names the source
 * of each).  X(name, text, llvm): `llvm` is true when llvm-mc rejects the
 * violation too; wmma-overlap is a hardware rule llvm-mc 19/22 accept (LLVM's
 * code generator avoids it with an early-clobber destination).
 */
/* clang-format off */
#define RDX_ISA_RULE_LIST(X)                                                                      \
    X(NONE, "none", false)                                                                        \
    X(CONSTANT_BUS, "constant-bus", true)            /* VALU: <= 2 scalar values (1: 64-bit shifts) */ \
    X(VOPD_DST, "vopd-dst", true)                    /* VOPD: one even, one odd destination */   \
    X(VOPD_BANK, "vopd-bank", true)                  /* VOPD: X/Y sources in different banks */  \
    X(VOPD_CONSTANT_BUS, "vopd-constant-bus", true)  /* VOPD: <= 2 scalar values per pair */    \
    X(VGPR16_E32, "vgpr16-e32", true)                /* 16-bit e32/DPP operands: v0..v127 */    \
    X(SGPR_ALIGN, "sgpr-align", true)                /* SGPR/TTMP pairs even, 3+ on 4 */ \
    X(WMMA_OVERLAP, "wmma-overlap", false)           /* RDNA3 WMMA: D vs A, B, C */
/* clang-format on */

typedef enum rdx_isa_rule {
#define RDX_ISA_RULE_ENUM_(n, s, llvm) RDX_ISA_RULE_##n,
    RDX_ISA_RULE_LIST(RDX_ISA_RULE_ENUM_)
#undef RDX_ISA_RULE_ENUM_
        RDX_ISA_RULE_COUNT
} rdx_isa_rule;

/* rdx_isa_check flags. */
/* only the rules llvm-mc enforces (what the encoder checks) */
#define RDX_ISA_CHECK_LLVM_ONLY (1u << 0)
/* VGPR numbers of 16-bit operands in VOP1/VOP2/VOPC e32/DPP forms are register
   numbers as written in text or chosen by a code generator (v200 means v200, a
   violation of vgpr16-e32); without the flag they are the 8-bit field as
   rdx_isa_decode gives it (128 + n is the high half of vn), which is always valid */
#define RDX_ISA_CHECK_VGPR_NUMBERS (1u << 1)
/* the code runs in wave64: a WMMA's C and D are 4 VGPRs (rdx_isa_decode gives the
   wave32 ranges of 8) */
#define RDX_ISA_CHECK_WAVE64 (1u << 2)
/* what silicon is known to run correctly passes (the emulator's view): a VOPD pair whose
   halves read the same VGPR in one source position keeps vopd-bank (tinygrad's
   hardware-validated test_vopd reads v0 as both src0s); llvm-mc rejects it */
#define RDX_ISA_CHECK_SILICON (1u << 3)

/* Name of a rule ("wmma-overlap"), "?" when out of range. */
const char *rdx_isa_rule_name(rdx_isa_rule rule);
/* Whether llvm-mc rejects violations of `rule` (false for NONE/out of range). */
bool rdx_isa_rule_llvm(rdx_isa_rule rule);

/*
 * Check instruction `in` (an encoder input or a decoder result whose operands
 * already fit their slots) on target `t` against the operand rules.  RDX_OK
 * when it breaks none (also for ops the target lacks: encode/decode report
 * those).  Otherwise RDX_ERR_INVALID with a message naming the mnemonic, the
 * operands and the rule ("v_wmma_f32_16x16x16_f16: D v[2:9] overlaps B
 * v[3:10] (...) [rule wmma-overlap]"), and *rule (if non-NULL) set to the
 * first rule broken; *rule is RDX_ISA_RULE_NONE on success.
 */
rdx_status rdx_isa_check(const rdx_isa_target *t, const rdx_isa_inst *in, unsigned flags,
                         rdx_isa_rule *rule);

/*
 * rdx_isa_encode and rdx_isa_check(t, in, flags, NULL) in one pass: the same bytes and
 * the same status and message as the encode followed (when it succeeds) by the check,
 * with the operand rules run once instead of twice (the encoder's own check of the
 * llvm-mc rules is this check).  `flags`: RDX_ISA_CHECK_VGPR_NUMBERS, _WAVE64;
 * RDX_ERR_INVALID for LLVM_ONLY or SILICON.
 */
rdx_status rdx_isa_encode_checked(const rdx_isa_target *t, const rdx_isa_inst *in, unsigned flags,
                                  uint8_t out[RDX_ISA_MAX_BYTES], size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* RDX_ISA_H */
