/* isa/asm/syntax.c — LLVM's AMDGPU spelling of registers, constants and immediates. */
#include "isa/asm/syntax.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef struct special_name {
    const char *name;
    uint16_t code;
    uint8_t count;
} special_name;

static const special_name specials[] = {
    { "vcc", RDX_ISA_REG_VCC_LO, 2 },
    { "vcc_lo", RDX_ISA_REG_VCC_LO, 1 },
    { "vcc_hi", RDX_ISA_REG_VCC_HI, 1 },
    { "null", RDX_ISA_REG_NULL, 1 },
    { "m0", RDX_ISA_REG_M0, 1 },
    { "exec", RDX_ISA_REG_EXEC_LO, 2 },
    { "exec_lo", RDX_ISA_REG_EXEC_LO, 1 },
    { "exec_hi", RDX_ISA_REG_EXEC_HI, 1 },
    { "src_shared_base", RDX_ISA_REG_SHARED_BASE, 1 },
    { "src_shared_limit", RDX_ISA_REG_SHARED_LIMIT, 1 },
    { "src_private_base", RDX_ISA_REG_PRIVATE_BASE, 1 },
    { "src_private_limit", RDX_ISA_REG_PRIVATE_LIMIT, 1 },
    { "src_pops_exiting_wave_id", RDX_ISA_REG_POPS_EXITING_WAVE, 1 },
    { "src_vccz", RDX_ISA_REG_VCCZ, 1 },
    { "src_execz", RDX_ISA_REG_EXECZ, 1 },
    { "src_scc", RDX_ISA_REG_SCC, 1 },
    { "src_lds_direct", RDX_ISA_REG_LDS_DIRECT, 1 },
    /* Accepted aliases (never printed: the entries above come first). */
    { "shared_base", RDX_ISA_REG_SHARED_BASE, 1 },
    { "shared_limit", RDX_ISA_REG_SHARED_LIMIT, 1 },
    { "private_base", RDX_ISA_REG_PRIVATE_BASE, 1 },
    { "private_limit", RDX_ISA_REG_PRIVATE_LIMIT, 1 },
    { "pops_exiting_wave_id", RDX_ISA_REG_POPS_EXITING_WAVE, 1 },
    { "vccz", RDX_ISA_REG_VCCZ, 1 },
    { "execz", RDX_ISA_REG_EXECZ, 1 },
    { "scc", RDX_ISA_REG_SCC, 1 },
    { "lds_direct", RDX_ISA_REG_LDS_DIRECT, 1 },
    /* 64-bit views of 32-bit sources print like their low half. */
    { "src_shared_base", RDX_ISA_REG_SHARED_BASE, 2 },
    { "src_shared_limit", RDX_ISA_REG_SHARED_LIMIT, 2 },
    { "src_private_base", RDX_ISA_REG_PRIVATE_BASE, 2 },
    { "src_private_limit", RDX_ISA_REG_PRIVATE_LIMIT, 2 },
    { "src_pops_exiting_wave_id", RDX_ISA_REG_POPS_EXITING_WAVE, 2 },
    { "src_vccz", RDX_ISA_REG_VCCZ, 2 },
    { "src_execz", RDX_ISA_REG_EXECZ, 2 },
    { "src_scc", RDX_ISA_REG_SCC, 2 },
    { "null", RDX_ISA_REG_NULL, 2 },
    { "m0", RDX_ISA_REG_M0, 2 },
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
        if (strlen(specials[i].name) == len && !strncasecmp(specials[i].name, name, len)) {
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
    if (c == RDX_ISA_FCONST_INV_2PI && bits == 64)
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
#include "isa/asm/names.def"
#undef NAME_HWREG
#undef NAME_MSG
#undef NAME_VERSION
};

static const id_name msgs[] = {
#define NAME_HWREG(fam, id, name)
#define NAME_MSG(fam, id, name) { fam, id, name },
#define NAME_VERSION(id, name)
#include "isa/asm/names.def"
#undef NAME_HWREG
#undef NAME_MSG
#undef NAME_VERSION
};

static const id_name versions[] = {
#define NAME_HWREG(fam, id, name)
#define NAME_MSG(fam, id, name)
#define NAME_VERSION(id, name) { 3, id, name },
#include "isa/asm/names.def"
#undef NAME_HWREG
#undef NAME_MSG
#undef NAME_VERSION
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
    "SQ_RSRC_IMG_1D",       "SQ_RSRC_IMG_2D",       "SQ_RSRC_IMG_3D",
    "SQ_RSRC_IMG_CUBE",     "SQ_RSRC_IMG_1D_ARRAY", "SQ_RSRC_IMG_2D_ARRAY",
    "SQ_RSRC_IMG_2D_MSAA",  "SQ_RSRC_IMG_2D_MSAA_ARRAY",
};

const char *const rdx_syntax_scope_names[4] = { "SCOPE_CU", "SCOPE_SE", "SCOPE_DEV",
                                                 "SCOPE_SYS" };

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

const char *rdx_syntax_th_name(rdx_th_kind k, unsigned v)
{
    static const char *const load[8] = { "TH_LOAD_RT",    "TH_LOAD_NT",    "TH_LOAD_HT",
                                         "TH_LOAD_LU",    "TH_LOAD_NT_RT", "TH_LOAD_RT_NT",
                                         "TH_LOAD_NT_HT", NULL };
    static const char *const store[8] = { "TH_STORE_RT",    "TH_STORE_NT",    "TH_STORE_HT",
                                          "TH_STORE_WB",    "TH_STORE_NT_RT", "TH_STORE_RT_NT",
                                          "TH_STORE_NT_HT", "TH_STORE_NT_WB" };
    static const char *const atomic[8] = { "TH_ATOMIC_RT",
                                           "TH_ATOMIC_RETURN",
                                           "TH_ATOMIC_NT",
                                           "TH_ATOMIC_NT_RETURN",
                                           "TH_ATOMIC_CASCADE_RT",
                                           "TH_ATOMIC_CASCADE_RT_RETURN",
                                           "TH_ATOMIC_CASCADE_NT",
                                           "TH_ATOMIC_CASCADE_NT_RETURN" };
    if (v > 7)
        return NULL;
    return k == RDX_TH_LOAD ? load[v] : k == RDX_TH_STORE ? store[v] : atomic[v];
}

/* Ops whose IMM operand has its own spelling, by name. */
typedef struct imm_rule {
    const char *op;
    rdx_imm_style style;
} imm_rule;

static const imm_rule imm_rules[] = {
    { "s_waitcnt", RDX_IMM_WAITCNT },
    { "s_waitcnt_depctr", RDX_IMM_DEPCTR },
    { "s_wait_alu", RDX_IMM_DEPCTR },
    { "s_delay_alu", RDX_IMM_DELAY_ALU },
    { "s_getreg_b32", RDX_IMM_HWREG },
    { "s_setreg_b32", RDX_IMM_HWREG },
    { "s_setreg_imm32_b32", RDX_IMM_HWREG },
    { "s_sendmsg", RDX_IMM_SENDMSG },
    { "s_sendmsghalt", RDX_IMM_SENDMSG },
    { "s_sendmsg_rtn_b32", RDX_IMM_SENDMSG },
    { "s_sendmsg_rtn_b64", RDX_IMM_SENDMSG },
    { "s_version", RDX_IMM_VERSION },
    { "s_endpgm", RDX_IMM_DEC },
    { "s_clause", RDX_IMM_HEX },
    { "s_round_mode", RDX_IMM_HEX },
    { "s_set_inst_prefetch_distance", RDX_IMM_HEX },
    { "s_ttracedata_imm", RDX_IMM_HEX },
    { "s_wait_event", RDX_IMM_HEX },
    { "s_nop", RDX_IMM_INLINE },
    { "s_sleep", RDX_IMM_INLINE },
    { "s_setprio", RDX_IMM_INLINE },
    { "s_sethalt", RDX_IMM_INLINE },
    { "s_setkill", RDX_IMM_INLINE },
    { "s_trap", RDX_IMM_INLINE },
    { "s_incperflevel", RDX_IMM_INLINE },
    { "s_decperflevel", RDX_IMM_INLINE },
    { "s_denorm_mode", RDX_IMM_INLINE },
    { "s_barrier_wait", RDX_IMM_INLINE },
    { "s_singleuse_vdst", RDX_IMM_HEX },
    { "s_subvector_loop_begin", RDX_IMM_DEC },
    { "s_subvector_loop_end", RDX_IMM_DEC },
};

rdx_imm_style rdx_syntax_imm_style(rdx_isa_op op, rdx_isa_enc enc, rdx_isa_role role)
{
    const char *n = rdx_isa_op_name(op);
    if (n)
        for (size_t i = 0; i < N_(imm_rules); i++)
            if (!strcmp(imm_rules[i].op, n))
                return imm_rules[i].style;
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
    if (n && strstr(n, "_mix"))
        return 0;
    return (1u << nsrc) - 1;
}

void rdx_syntax_mnemonic(const rdx_isa_target *t, const rdx_isa_inst *in, char *buf, size_t cap)
{
    const char *name = rdx_isa_op_name(in->op);
    const rdx_isa_form_info *nat = NULL;
    rdx_isa_enc native = RDX_ISA_ENC_COUNT;
    if (rdx_isa_op_form(t, in->op, RDX_ISA_FORM_AUTO, &nat) == RDX_OK)
        native = (rdx_isa_enc)nat->enc;
    bool promoted = native == RDX_ISA_ENC_VOP1 || native == RDX_ISA_ENC_VOP2 ||
                    native == RDX_ISA_ENC_VOPC;
    const char *suffix = "";
    switch (in->form) {
    case RDX_ISA_FORM_E32: {
        /* LLVM writes _e32 only when a VOP3 form of the op exists too. */
        const rdx_isa_form_info *e64 = NULL;
        bool has_e64 = rdx_isa_op_form(t, in->op, RDX_ISA_FORM_E64, &e64) == RDX_OK;
        suffix = in->nopnd == 0 || !has_e64 ? "" : "_e32";
        break;
    }
    case RDX_ISA_FORM_E64: suffix = promoted ? "_e64" : ""; break;
    case RDX_ISA_FORM_DPP16:
    case RDX_ISA_FORM_DPP8: suffix = native == RDX_ISA_ENC_VOPC ? "" : "_dpp"; break;
    case RDX_ISA_FORM_E64_DPP16:
    case RDX_ISA_FORM_E64_DPP8: suffix = "_e64_dpp"; break;
    default: break;
    }
    snprintf(buf, cap, "%s%s", name ? name : "?", suffix);
}

bool rdx_syntax_is_mix(rdx_isa_op op)
{
    const char *n = rdx_isa_op_name(op);
    return n && strstr(n, "_mix") != NULL;
}

bool rdx_syntax_no_operands(rdx_isa_op op)
{
    static const char *const names[] = { "buffer_gl0_inv", "buffer_gl1_inv", "global_inv",
                                         "global_wb", "global_wbinv" };
    const char *n = rdx_isa_op_name(op);
    for (size_t i = 0; n && i < N_(names); i++)
        if (!strcmp(n, names[i]))
            return true;
    return false;
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

bool rdx_syntax_hidden_vdst(const rdx_isa_target *t, const rdx_isa_inst *in,
                            const rdx_isa_form_info *fi, rdx_isa_enc enc)
{
    if (!fi || !fi->nopnd || !rdx_syntax_is_atomic_noret(t, in))
        return false;
    rdx_isa_role r = (rdx_isa_role)fi->opnd[0].role;
    bool mem = enc == RDX_ISA_ENC_FLAT || enc == RDX_ISA_ENC_GLOBAL ||
               enc == RDX_ISA_ENC_SCRATCH || enc == RDX_ISA_ENC_VFLAT ||
               enc == RDX_ISA_ENC_VGLOBAL || enc == RDX_ISA_ENC_VSCRATCH;
    return mem && r == RDX_ISA_ROLE_VDST;
}
