/* isa/isa_operand.c — operand codes, register-range rules and bit fields shared
 * by the encoder and the decoder. */
#include "isa/isa_codec.h"

#include <stdio.h>
#include <string.h>

const char *isa_kind_name(unsigned kind)
{
    static const char *const names[RDX_ISA_OPND_KIND_COUNT] = {
        "nothing",
        "an SGPR",
        "a VGPR",
        "a TTMP",
        "a special register",
        "an inline integer",
        "an inline float",
        "a literal",
        "an immediate",
        "a branch target",
        "off",
    };
    return kind < RDX_ISA_OPND_KIND_COUNT ? names[kind] : "an unknown operand kind";
}

bool isa_special_known(unsigned code)
{
    switch (code) {
    case RDX_ISA_REG_VCC_LO:
    case RDX_ISA_REG_VCC_HI:
    case RDX_ISA_REG_NULL:
    case RDX_ISA_REG_M0:
    case RDX_ISA_REG_EXEC_LO:
    case RDX_ISA_REG_EXEC_HI:
    case RDX_ISA_REG_SHARED_BASE:
    case RDX_ISA_REG_SHARED_LIMIT:
    case RDX_ISA_REG_PRIVATE_BASE:
    case RDX_ISA_REG_PRIVATE_LIMIT:
    case RDX_ISA_REG_POPS_EXITING_WAVE:
    case RDX_ISA_REG_VCCZ:
    case RDX_ISA_REG_EXECZ:
    case RDX_ISA_REG_SCC:
    case RDX_ISA_REG_LDS_DIRECT:
        return true;
    default:
        return false;
    }
}

/*
 * Decode a source/register code (0..511) into *o.  `count` is the register
 * count of the slot.  Returns false for codes that name nothing.
 */
bool isa_code_to_opnd(unsigned code, unsigned count, rdx_isa_opnd *o)
{
    o->count = 0;
    o->reg = 0;
    o->value = 0;
    if (code < 106) {
        o->kind = RDX_ISA_OPND_SGPR;
        o->reg = (uint16_t)code;
        o->count = (uint8_t)count;
        return code + count <= 106;
    }
    if (code >= 108 && code <= 123) {
        o->kind = RDX_ISA_OPND_TTMP;
        o->reg = (uint16_t)(code - 108);
        o->count = (uint8_t)count;
        return code - 108 + count <= 16;
    }
    if (code >= 128 && code <= 208) {
        o->kind = RDX_ISA_OPND_INT;
        o->value = code <= 192 ? (int32_t)code - 128 : 192 - (int32_t)code;
        return true;
    }
    if (code >= 240 && code <= 248) {
        o->kind = RDX_ISA_OPND_FLOAT;
        o->value = (int32_t)code - 240;
        return true;
    }
    if (code == 255) {
        o->kind = RDX_ISA_OPND_LITERAL;
        return true;
    }
    if (code >= 256 && code < 512) {
        o->kind = RDX_ISA_OPND_VGPR;
        o->reg = (uint16_t)(code - 256);
        o->count = (uint8_t)count;
        return code - 256 + count <= 256;
    }
    if (isa_special_known(code)) {
        o->kind = RDX_ISA_OPND_SPECIAL;
        o->reg = (uint16_t)code;
        o->count = (uint8_t)count;
        return true;
    }
    return false;
}

unsigned isa_expect_count(const isa_row *row, const rdx_isa_opnd_info *si, const rdx_isa_inst *in)
{
    unsigned n = si->bits <= 32 ? 1 : (si->bits + 31u) / 32u;
    if (si->fmt == RDX_ISA_FMT_LANEMASK)
        return 1;
    if (isa_is_image_enc(row->enc)) {
        if (si->role == RDX_ISA_ROLE_VDATA) {
            unsigned dm = (unsigned)in->mod[RDX_ISA_MOD_DMASK] & 0xf, c = 0;
            for (unsigned b = dm; b; b &= b - 1)
                c++;
            if (c == 0)
                c = 1;
            if (row->flags & ROW_BVH)
                c = 4;
            else if (strstr(isa_op_names[row->op], "gather4") ||
                     strstr(isa_op_names[row->op], "msaa_load"))
                c = 4;
            if (in->mod[RDX_ISA_MOD_D16])
                c = (c + 1) / 2;
            return c + (in->mod[RDX_ISA_MOD_TFE] ? 1u : 0u);
        }
        if (si->role == RDX_ISA_ROLE_VADDR)
            return 0;
        return n;
    }
    if (isa_is_mem_enc(row->enc)) {
        if ((si->role == RDX_ISA_ROLE_VDATA || si->role == RDX_ISA_ROLE_VDST) &&
            in->mod[RDX_ISA_MOD_TFE])
            n++;
        if (si->role == RDX_ISA_ROLE_ADDR &&
            (row->enc == RDX_ISA_ENC_GLOBAL || row->enc == RDX_ISA_ENC_VGLOBAL)) {
            /* the saddr slot is the last one */
            if (in->nopnd == 0)
                return 2;
            const rdx_isa_opnd *sa = &in->opnd[in->nopnd - 1];
            return sa->kind == RDX_ISA_OPND_OFF ? 2 : 1;
        }
        if (si->role == RDX_ISA_ROLE_ADDR)
            return row->enc == RDX_ISA_ENC_FLAT || row->enc == RDX_ISA_ENC_VFLAT ? 2 : 1;
        if (si->role == RDX_ISA_ROLE_VADDR) {
            unsigned c =
                (in->mod[RDX_ISA_MOD_IDXEN] ? 1u : 0u) + (in->mod[RDX_ISA_MOD_OFFEN] ? 1u : 0u);
            return c ? c : 1;
        }
    }
    return n;
}

/* Does '_'-separated `name` contain the token `tok`? */
static bool has_token(const char *name, const char *tok)
{
    size_t n = strlen(tok);
    for (const char *p = name; (p = strstr(p, tok)) != NULL; p++) {
        bool start = p == name || p[-1] == '_';
        bool end = p[n] == '_' || p[n] == '\0';
        if (start && end)
            return true;
    }
    return false;
}

unsigned isa_image_addr_count(const isa_row *row, const rdx_isa_inst *in)
{
    static const uint8_t coords[8] = { 1, 2, 3, 3, 2, 3, 3, 4 };
    static const uint8_t grads[8] = { 2, 4, 6, 4, 2, 4, 4, 4 };
    const char *n = isa_op_names[row->op];
    unsigned dim = (unsigned)in->mod[RDX_ISA_MOD_DIM] & 7;
    bool a16 = in->mod[RDX_ISA_MOD_A16] != 0;
    if (row->flags & ROW_BVH) {
        bool b64 = strstr(n, "bvh64") != NULL;
        return a16 ? (b64 ? 9u : 8u) : (b64 ? 12u : 11u);
    }
    if (strstr(n, "get_resinfo"))
        return 1;
    unsigned extra = 0, c = coords[dim], g = 0;
    if (strncmp(n, "image_sample", 12) == 0 || strncmp(n, "image_gather4", 13) == 0 ||
        strstr(n, "get_lod")) {
        const char *suffix = strchr(n + 6, '_'); /* after "image_" */
        suffix = suffix ? suffix : "";
        if (has_token(suffix, "o"))
            extra++;
        if (has_token(suffix, "b"))
            extra++;
        if (has_token(suffix, "c"))
            extra++;
        if (has_token(suffix, "d"))
            g = grads[dim];
        if (has_token(suffix, "l"))
            c++;
        if (has_token(suffix, "cl"))
            c++;
        if (has_token(suffix, "g16") && g)
            g = (g / 2 + 1) / 2 * 2; /* each direction's gradients packed in pairs */
    } else if (strstr(n, "_mip")) {
        c++;
    }
    if (a16)
        c = (c + 1) / 2;
    return extra + g + c;
}

unsigned isa_image_fields(const isa_row *row, const rdx_isa_inst *in, unsigned max_fields,
                          uint8_t counts[5])
{
    if (row->flags & ROW_BVH) {
        /* node pointer, ray extent, origin, direction, inverse direction
         * (a16: direction and inverse direction share three registers) */
        bool b64 = strstr(isa_op_names[row->op], "bvh64") != NULL;
        counts[0] = b64 ? 2 : 1;
        counts[1] = 1;
        counts[2] = 3;
        counts[3] = 3;
        counts[4] = 3;
        return in->mod[RDX_ISA_MOD_A16] ? 4 : 5;
    }
    unsigned na = isa_image_addr_count(row, in);
    if (na < 1)
        na = 1;
    unsigned nf = na > max_fields ? max_fields : na;
    for (unsigned k = 0; k < nf; k++)
        counts[k] = 1;
    counts[nf - 1] = (uint8_t)(na - (nf - 1));
    return nf;
}
