/* isa/asm/syntax.c — LLVM's AMDGPU spelling of registers, constants and immediates. */
#include "isa/asm/syntax.h"
#include "isa/isa_internal.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef struct special_name {
    const char *name;
    uint16_t code;
    uint8_t count;
    uint8_t len; /* strlen(name) */
} special_name;

#define SP(n, c, k) { n, c, k, sizeof(n) - 1 }
static const special_name specials[] = {
    SP("vcc", RDX_ISA_REG_VCC_LO, 2),
    SP("vcc_lo", RDX_ISA_REG_VCC_LO, 1),
    SP("vcc_hi", RDX_ISA_REG_VCC_HI, 1),
    SP("null", RDX_ISA_REG_NULL, 1),
    SP("m0", RDX_ISA_REG_M0, 1),
    SP("exec", RDX_ISA_REG_EXEC_LO, 2),
    SP("exec_lo", RDX_ISA_REG_EXEC_LO, 1),
    SP("exec_hi", RDX_ISA_REG_EXEC_HI, 1),
    SP("src_shared_base", RDX_ISA_REG_SHARED_BASE, 1),
    SP("src_shared_limit", RDX_ISA_REG_SHARED_LIMIT, 1),
    SP("src_private_base", RDX_ISA_REG_PRIVATE_BASE, 1),
    SP("src_private_limit", RDX_ISA_REG_PRIVATE_LIMIT, 1),
    SP("src_pops_exiting_wave_id", RDX_ISA_REG_POPS_EXITING_WAVE, 1),
    SP("src_vccz", RDX_ISA_REG_VCCZ, 1),
    SP("src_execz", RDX_ISA_REG_EXECZ, 1),
    SP("src_scc", RDX_ISA_REG_SCC, 1),
    SP("src_lds_direct", RDX_ISA_REG_LDS_DIRECT, 1),
    /* Accepted aliases (never printed: the entries above come first). */
    SP("shared_base", RDX_ISA_REG_SHARED_BASE, 1),
    SP("shared_limit", RDX_ISA_REG_SHARED_LIMIT, 1),
    SP("private_base", RDX_ISA_REG_PRIVATE_BASE, 1),
    SP("private_limit", RDX_ISA_REG_PRIVATE_LIMIT, 1),
    SP("pops_exiting_wave_id", RDX_ISA_REG_POPS_EXITING_WAVE, 1),
    SP("vccz", RDX_ISA_REG_VCCZ, 1),
    SP("execz", RDX_ISA_REG_EXECZ, 1),
    SP("scc", RDX_ISA_REG_SCC, 1),
    SP("lds_direct", RDX_ISA_REG_LDS_DIRECT, 1),
    /* 64-bit views of 32-bit sources print like their low half. */
    SP("src_shared_base", RDX_ISA_REG_SHARED_BASE, 2),
    SP("src_shared_limit", RDX_ISA_REG_SHARED_LIMIT, 2),
    SP("src_private_base", RDX_ISA_REG_PRIVATE_BASE, 2),
    SP("src_private_limit", RDX_ISA_REG_PRIVATE_LIMIT, 2),
    SP("src_pops_exiting_wave_id", RDX_ISA_REG_POPS_EXITING_WAVE, 2),
    SP("src_vccz", RDX_ISA_REG_VCCZ, 2),
    SP("src_execz", RDX_ISA_REG_EXECZ, 2),
    SP("src_scc", RDX_ISA_REG_SCC, 2),
    SP("null", RDX_ISA_REG_NULL, 2),
    SP("m0", RDX_ISA_REG_M0, 2),
};

const char *rdx_syntax_special_name(unsigned code, unsigned count)
{
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
        if (specials[i].code == code && specials[i].count == count)
            return specials[i].name;
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
        if (specials[i].code == code)
            return specials[i].name;
    return NULL;
}

bool rdx_syntax_special_find(const char *name, size_t len, unsigned *code, unsigned *count)
{
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
        if (specials[i].len == len && !strncasecmp(specials[i].name, name, len)) {
            *code = specials[i].code;
            *count = specials[i].count;
            return true;
        }
    return false;
}

const char *rdx_syntax_fconst_text(rdx_isa_fconst c, unsigned bits)
{
    static const char *const text[RDX_ISA_FCONST_COUNT] = {
        "0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0", "0.15915494",
    };
    if ((unsigned)c >= RDX_ISA_FCONST_COUNT)
        return "?";
    if (c == RDX_ISA_FCONST_INV_2PI && bits >= 64)
        return "0.15915494309189532";
    return text[c];
}

unsigned rdx_syntax_family_bit(const rdx_isa_target *t)
{
    return t && t->family == RDX_ISA_FAMILY_RDNA4 ? 2u : 1u;
}

typedef struct id_name {
    unsigned fam, id;
    const char *name;
} id_name;

static const id_name hwregs[] = {
#define NAME_HWREG(fam, id, name) { fam, id, name },
#define NAME_MSG(fam, id, name)
#define NAME_VERSION(id, name)
#define NAME_BUFFMT(id, name)
#include "isa/asm/names.def"
#undef NAME_HWREG
#undef NAME_MSG
#undef NAME_VERSION
#undef NAME_BUFFMT
};

static const id_name msgs[] = {
#define NAME_HWREG(fam, id, name)
#define NAME_MSG(fam, id, name) { fam, id, name },
#define NAME_VERSION(id, name)
#define NAME_BUFFMT(id, name)
#include "isa/asm/names.def"
#undef NAME_HWREG
#undef NAME_MSG
#undef NAME_VERSION
#undef NAME_BUFFMT
};

static const id_name versions[] = {
#define NAME_HWREG(fam, id, name)
#define NAME_MSG(fam, id, name)
#define NAME_VERSION(id, name) { 3, id, name },
#define NAME_BUFFMT(id, name)
#include "isa/asm/names.def"
#undef NAME_HWREG
#undef NAME_MSG
#undef NAME_VERSION
#undef NAME_BUFFMT
};

static const char *id_to_name(const id_name *t, size_t n, unsigned fam, unsigned id)
{
    for (size_t i = 0; i < n; i++)
        if ((t[i].fam & fam) && t[i].id == id)
            return t[i].name;
    return NULL;
}

static bool name_to_id(const id_name *t, size_t n, unsigned fam, const char *name, size_t len,
                       unsigned *id)
{
    for (size_t i = 0; i < n; i++)
        if ((t[i].fam & fam) && strlen(t[i].name) == len && !memcmp(t[i].name, name, len)) {
            *id = t[i].id;
            return true;
        }
    return false;
}

#define N_(a) (sizeof a / sizeof a[0])

const char *rdx_syntax_hwreg_name(unsigned fam, unsigned id)
{
    return id_to_name(hwregs, N_(hwregs), fam, id);
}
bool rdx_syntax_hwreg_find(unsigned fam, const char *name, size_t len, unsigned *id)
{
    return name_to_id(hwregs, N_(hwregs), fam, name, len, id);
}
const char *rdx_syntax_msg_name(unsigned fam, unsigned id)
{
    return id_to_name(msgs, N_(msgs), fam, id);
}
bool rdx_syntax_msg_find(unsigned fam, const char *name, size_t len, unsigned *id)
{
    return name_to_id(msgs, N_(msgs), fam, name, len, id);
}
const char *rdx_syntax_version_name(unsigned id)
{
    return id_to_name(versions, N_(versions), 3, id);
}
bool rdx_syntax_version_find(const char *name, size_t len, unsigned *id)
{
    return name_to_id(versions, N_(versions), 3, name, len, id);
}

const char *const rdx_syntax_dim_names[8] = {
    "SQ_RSRC_IMG_1D",       "SQ_RSRC_IMG_2D",
    "SQ_RSRC_IMG_3D",       "SQ_RSRC_IMG_CUBE",
    "SQ_RSRC_IMG_1D_ARRAY", "SQ_RSRC_IMG_2D_ARRAY",
    "SQ_RSRC_IMG_2D_MSAA",  "SQ_RSRC_IMG_2D_MSAA_ARRAY",
};

const char *const rdx_syntax_scope_names[4] = { "SCOPE_CU", "SCOPE_SE", "SCOPE_DEV", "SCOPE_SYS" };

rdx_th_kind rdx_syntax_th_kind(rdx_isa_op op)
{
    const char *n = rdx_isa_op_name(op);
    if (!n)
        return RDX_TH_LOAD;
    if (strstr(n, "atomic"))
        return RDX_TH_ATOMIC;
    if (strstr(n, "store"))
        return RDX_TH_STORE;
    return RDX_TH_LOAD;
}

const char *rdx_syntax_th_name(rdx_th_kind k, unsigned v, unsigned scope)
{
    /* th 3 of loads and stores is named by the scope, as LLVM 19 prints and
       parses it: BYPASS with SCOPE_SYS, else LU (loads) or RT_WB (stores) */
    static const char *const load[8] = { "TH_LOAD_RT",    "TH_LOAD_NT",
                                         "TH_LOAD_HT",    "TH_LOAD_LU",
                                         "TH_LOAD_NT_RT", "TH_LOAD_RT_NT",
                                         "TH_LOAD_NT_HT", NULL };
    static const char *const store[8] = { "TH_STORE_RT",    "TH_STORE_NT",    "TH_STORE_HT",
                                          "TH_STORE_RT_WB", "TH_STORE_NT_RT", "TH_STORE_RT_NT",
                                          "TH_STORE_NT_HT", "TH_STORE_NT_WB" };
    static const char *const atomic[8] = { "TH_ATOMIC_RT",         "TH_ATOMIC_RETURN",
                                           "TH_ATOMIC_NT",         "TH_ATOMIC_NT_RETURN",
                                           "TH_ATOMIC_CASCADE_RT", "TH_ATOMIC_CASCADE_RT_RETURN",
                                           "TH_ATOMIC_CASCADE_NT", "TH_ATOMIC_CASCADE_NT_RETURN" };
    if (v > 7)
        return NULL;
    if (v == 3 && scope == 3 && k != RDX_TH_ATOMIC)
        return k == RDX_TH_LOAD ? "TH_LOAD_BYPASS" : "TH_STORE_BYPASS";
    return k == RDX_TH_LOAD ? load[v] : k == RDX_TH_STORE ? store[v] : atomic[v];
}

/* Ops whose IMM operand has its own spelling, by name. */
typedef struct imm_rule {
    rdx_isa_op op;
    rdx_imm_style style;
} imm_rule;

static const imm_rule imm_rules[] = {
    { RDX_ISA_OP_S_WAITCNT, RDX_IMM_WAITCNT },
    { RDX_ISA_OP_S_WAITCNT_DEPCTR, RDX_IMM_DEPCTR },
    { RDX_ISA_OP_S_WAIT_ALU, RDX_IMM_DEPCTR },
    { RDX_ISA_OP_S_DELAY_ALU, RDX_IMM_DELAY_ALU },
    { RDX_ISA_OP_S_GETREG_B32, RDX_IMM_HWREG },
    { RDX_ISA_OP_S_SETREG_B32, RDX_IMM_HWREG },
    { RDX_ISA_OP_S_SENDMSG, RDX_IMM_SENDMSG },
    { RDX_ISA_OP_S_SENDMSGHALT, RDX_IMM_SENDMSG },
    { RDX_ISA_OP_S_SENDMSG_RTN_B32, RDX_IMM_SENDMSG },
    { RDX_ISA_OP_S_SENDMSG_RTN_B64, RDX_IMM_SENDMSG },
    { RDX_ISA_OP_S_VERSION, RDX_IMM_VERSION },
    { RDX_ISA_OP_S_ENDPGM, RDX_IMM_DEC },
    { RDX_ISA_OP_S_CLAUSE, RDX_IMM_HEX },
    { RDX_ISA_OP_S_ROUND_MODE, RDX_IMM_HEX },
    { RDX_ISA_OP_S_SET_INST_PREFETCH_DISTANCE, RDX_IMM_HEX },
    { RDX_ISA_OP_S_TTRACEDATA_IMM, RDX_IMM_HEX },
    { RDX_ISA_OP_S_WAIT_EVENT, RDX_IMM_HEX },
    { RDX_ISA_OP_S_NOP, RDX_IMM_INLINE },
    { RDX_ISA_OP_S_SLEEP, RDX_IMM_INLINE },
    { RDX_ISA_OP_S_SETPRIO, RDX_IMM_INLINE },
    { RDX_ISA_OP_S_SETHALT, RDX_IMM_INLINE },
    { RDX_ISA_OP_S_SETKILL, RDX_IMM_INLINE },
    { RDX_ISA_OP_S_TRAP, RDX_IMM_INLINE },
    { RDX_ISA_OP_S_INCPERFLEVEL, RDX_IMM_INLINE },
    { RDX_ISA_OP_S_DECPERFLEVEL, RDX_IMM_INLINE },
    { RDX_ISA_OP_S_DENORM_MODE, RDX_IMM_INLINE },
    { RDX_ISA_OP_S_BARRIER_WAIT, RDX_IMM_INLINE },
    { RDX_ISA_OP_S_SINGLEUSE_VDST, RDX_IMM_HEX },
    { RDX_ISA_OP_S_SUBVECTOR_LOOP_BEGIN, RDX_IMM_DEC },
    { RDX_ISA_OP_S_SUBVECTOR_LOOP_END, RDX_IMM_DEC },
};

rdx_imm_style rdx_syntax_imm_style(rdx_isa_op op, rdx_isa_enc enc, rdx_isa_role role)
{
    for (size_t i = 0; i < N_(imm_rules); i++)
        if (imm_rules[i].op == op)
            return imm_rules[i].style;
    const char *n = rdx_isa_op_name(op);
    if (n && !strcmp(n, "s_setreg_imm32_b32"))
        return RDX_IMM_HWREG;
    if (role == RDX_ISA_ROLE_TARGET)
        return RDX_IMM_EXP_TARGET;
    if (enc == RDX_ISA_ENC_SMEM)
        return RDX_IMM_SMEM;
    if (enc == RDX_ISA_ENC_SOPK || (n && !strncmp(n, "s_wait_", 7)))
        return RDX_IMM_HEX;
    if (role == RDX_ISA_ROLE_SIMM16)
        return RDX_IMM_DEC;
    return RDX_IMM_SIGNED;
}

unsigned rdx_syntax_op_sel_hi_default(rdx_isa_op op, unsigned nsrc)
{
    const char *n = rdx_isa_op_name(op);
    (void)nsrc;
    if (n && strstr(n, "_mix"))
        return 0;
    return 7; /* the field's three bits, also for two-source ops */
}

size_t rdx_syntax_mnemonic(const rdx_isa_target *t, const rdx_isa_inst *in, char *buf, size_t cap)
{
    const char *name = rdx_isa_op_name(in->op);
    if (in->form == RDX_ISA_FORM_NATIVE || in->form == RDX_ISA_FORM_AUTO) {
        size_t n = name ? strlen(name) : 1;
        if (n >= cap)
            n = cap - 1;
        memcpy(buf, name ? name : "?", n);
        buf[n] = 0;
        return n;
    }
    /* the op's rows (tables, not rdx_isa_op_form: this is the disassembler's hot path) */
    const isa_family *fam = &isa_families[t->family];
    const int16_t *rows = rdx_isa_op_available(t, (rdx_isa_op)in->op) ? fam->oprows[in->op] : NULL;
    int native_row = !rows ? -1 : rows[0] >= 0 ? rows[0] : rows[1];
    rdx_isa_enc native =
        native_row >= 0 ? (rdx_isa_enc)fam->rows[native_row].enc : RDX_ISA_ENC_COUNT;
    bool promoted =
        native == RDX_ISA_ENC_VOP1 || native == RDX_ISA_ENC_VOP2 || native == RDX_ISA_ENC_VOPC;
    const char *suffix = "";
    switch (in->form) {
    case RDX_ISA_FORM_E32: {
        /* LLVM writes _e32 only when a VOP3 form of the op exists too. */
        bool has_e64 = rows && rows[1] >= 0;
        suffix =
            in->nopnd == 0 || !has_e64 || in->op == RDX_ISA_OP_V_READFIRSTLANE_B32 ? "" : "_e32";
        break;
    }
    case RDX_ISA_FORM_E64:
        suffix = promoted ? "_e64" : "";
        break;
    case RDX_ISA_FORM_DPP16:
    case RDX_ISA_FORM_DPP8:
        suffix = native == RDX_ISA_ENC_VOPC ? "" : "_dpp";
        break;
    case RDX_ISA_FORM_E64_DPP16:
    case RDX_ISA_FORM_E64_DPP8:
        suffix = "_e64_dpp";
        break;
    default:
        break;
    }
    if (!name)
        name = "?";
    size_t n = strlen(name), k = strlen(suffix);
    if (n >= cap)
        n = cap - 1;
    if (k >= cap - n)
        k = cap - n - 1;
    memcpy(buf, name, n);
    memcpy(buf + n, suffix, k);
    buf[n + k] = 0;
    return n + k;
}

bool rdx_syntax_is_mix(rdx_isa_op op)
{
    const char *n = rdx_isa_op_name(op);
    return n && strstr(n, "_mix") != NULL;
}

bool rdx_syntax_no_operands(rdx_isa_op op)
{
    return op == RDX_ISA_OP_BUFFER_GL0_INV || op == RDX_ISA_OP_BUFFER_GL1_INV ||
           op == RDX_ISA_OP_GLOBAL_INV || op == RDX_ISA_OP_GLOBAL_WB ||
           op == RDX_ISA_OP_GLOBAL_WBINV;
}

bool rdx_syntax_is_atomic_noret(const rdx_isa_target *t, const rdx_isa_inst *in)
{
    const char *n = rdx_isa_op_name(in->op);
    if (!n || !strstr(n, "_atomic_"))
        return false;
    if (t->family == RDX_ISA_FAMILY_RDNA4)
        return (in->mod[RDX_ISA_MOD_TH] & 1) == 0;
    return in->mod[RDX_ISA_MOD_GLC] == 0;
}

unsigned rdx_syntax_byte_sel_kind(rdx_isa_op op)
{
    if (op == RDX_ISA_OP_V_CVT_F32_FP8 || op == RDX_ISA_OP_V_CVT_F32_BF8)
        return 1;
    if (op == RDX_ISA_OP_V_CVT_SR_FP8_F32 || op == RDX_ISA_OP_V_CVT_SR_BF8_F32)
        return 2;
    return 0;
}

bool rdx_syntax_tied_src2(rdx_isa_op op)
{
    const char *n = rdx_isa_op_name(op);
    return n && (!strncmp(n, "v_fmac_", 7) || !strncmp(n, "v_mac_", 6));
}

int rdx_syntax_float_of_bits(uint32_t v, rdx_isa_fmt fmt, unsigned bits)
{
    static const uint32_t f32_bits[9] = { 0x3f000000, 0xbf000000, 0x3f800000,
                                          0xbf800000, 0x40000000, 0xc0000000,
                                          0x40800000, 0xc0800000, 0x3e22f983 };
    static const uint32_t f16_bits[9] = { 0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000,
                                          0xc000, 0x4400, 0xc400, 0x3118 };
    const uint32_t *tab = NULL;
    if (fmt == RDX_ISA_FMT_F16)
        tab = f16_bits;
    else if (bits == 32 && fmt != RDX_ISA_FMT_BF16 && fmt != RDX_ISA_FMT_PK_F16 &&
             fmt != RDX_ISA_FMT_PK_I16)
        tab = f32_bits;
    for (int k = 0; tab && k < 9; k++)
        if (v == tab[k])
            return k;
    return -1;
}

void rdx_syntax_exp_target_name(unsigned t, char *buf, size_t cap)
{
    if (t <= 7)
        snprintf(buf, cap, "mrt%u", t);
    else if (t == 8)
        snprintf(buf, cap, "mrtz");
    else if (t == 9)
        snprintf(buf, cap, "null");
    else if (t >= 12 && t <= 16)
        snprintf(buf, cap, "pos%u", t - 12);
    else if (t == 20)
        snprintf(buf, cap, "prim");
    else if (t == 21 || t == 22)
        snprintf(buf, cap, "dual_src_blend%u", t - 21);
    else if (t >= 32 && t <= 63)
        snprintf(buf, cap, "param%u", t - 32);
    else
        snprintf(buf, cap, "%u", t);
}

bool rdx_syntax_exp_target_find(const char *name, size_t len, unsigned *t)
{
    char want[24];
    for (unsigned v = 0; v < 64; v++) {
        rdx_syntax_exp_target_name(v, want, sizeof want);
        if (want[0] >= 'a' && strlen(want) == len && !strncasecmp(want, name, len)) {
            *t = v;
            return true;
        }
    }
    return false;
}

static const id_name buffmts[] = {
#define NAME_HWREG(fam, id, name)
#define NAME_MSG(fam, id, name)
#define NAME_VERSION(id, name)
#define NAME_BUFFMT(id, name) { 3, id, name },
#include "isa/asm/names.def"
#undef NAME_HWREG
#undef NAME_MSG
#undef NAME_VERSION
#undef NAME_BUFFMT
};

const char *rdx_syntax_buffmt_name(unsigned id)
{
    return id_to_name(buffmts, N_(buffmts), 3, id);
}

bool rdx_syntax_buffmt_find(const char *name, size_t len, unsigned *id)
{
    return name_to_id(buffmts, N_(buffmts), 3, name, len, id);
}

int rdx_syntax_buffmt_split(const char *dfmt, size_t dlen, const char *nfmt, size_t nlen)
{
    /* LLVM's split spelling names the unified format BUF_FMT_<data>_<num>;
       BUF_DATA_FORMAT_INVALID goes with the default number format only. */
    if (!dfmt)
        dfmt = "8", dlen = 1;
    if (!nfmt)
        nfmt = "UNORM", nlen = 5;
    if (dlen == 7 && !memcmp(dfmt, "INVALID", 7))
        return nlen == 5 && !memcmp(nfmt, "UNORM", 5) ? 0 : -1;
    char name[64];
    if (8 + dlen + 1 + nlen >= sizeof name)
        return -1;
    memcpy(name, "BUF_FMT_", 8);
    memcpy(name + 8, dfmt, dlen);
    name[8 + dlen] = '_';
    memcpy(name + 9 + dlen, nfmt, nlen);
    unsigned id;
    return rdx_syntax_buffmt_find(name, 9 + dlen + nlen, &id) ? (int)id : -1;
}

bool rdx_syntax_literal16(rdx_isa_op op, rdx_isa_enc enc, unsigned bits, rdx_isa_role role)
{
    if (bits != 16)
        return false;
    /* 32-bit in LLVM though AMD's data lists 16 bits: the class mask of the f16
       compares, the shift of v_alignbit/alignbyte_b32 */
    if ((role == RDX_ISA_ROLE_SRC1 &&
         (op == RDX_ISA_OP_V_CMP_CLASS_F16 || op == RDX_ISA_OP_V_CMPX_CLASS_F16)) ||
        (role == RDX_ISA_ROLE_SRC2 &&
         (op == RDX_ISA_OP_V_ALIGNBIT_B32 || op == RDX_ISA_OP_V_ALIGNBYTE_B32)))
        return false;
    if (enc != RDX_ISA_ENC_VOP1 && enc != RDX_ISA_ENC_VOP2 && enc != RDX_ISA_ENC_VOPC &&
        enc != RDX_ISA_ENC_VOP3 && enc != RDX_ISA_ENC_VOP3SD && enc != RDX_ISA_ENC_VOP3P &&
        enc != RDX_ISA_ENC_VOPD)
        return false;
    /* fp8/bf8 conversions take a packed pair as a full 32-bit literal. */
    const char *n = rdx_isa_op_name(op);
    return !(n && (strstr(n, "fp8") || strstr(n, "bf8")));
}
