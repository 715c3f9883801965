/* isa/isa_codec.h — helpers shared by isa/isa_encode.c and isa/isa_decode.c (internal). */
#ifndef RDX_ISA_CODEC_H
#define RDX_ISA_CODEC_H

#include <stdbool.h>
#include <stdint.h>

#include <rdx/isa.h>

#include "isa/isa_internal.h"

/* Source-field markers. */
#define ISA_SRC_DPP16   250
#define ISA_SRC_DPP8    233
#define ISA_SRC_DPP8_FI 234
#define ISA_SRC_LITERAL 255

/* Words of an instruction under construction / being read (+1 spare for isa_get/put). */
#define ISA_MAX_WORDS (RDX_ISA_MAX_BYTES / 4 + 1)

/* "an SGPR", "a VGPR", ... for messages. */
const char *isa_kind_name(unsigned kind);

/* Read / write a bit field of `width` bits at bit `lo` of the little-endian words. */
static inline uint32_t isa_get(const uint32_t *w, unsigned lo, unsigned width)
{
    uint64_t v = w[lo / 32] | ((uint64_t)w[lo / 32 + 1] << 32);
    v >>= lo % 32;
    return (uint32_t)(v & ((width >= 32) ? 0xffffffffu : ((1u << width) - 1)));
}

static inline void isa_put(uint32_t *w, unsigned lo, unsigned width, uint32_t val)
{
    uint64_t mask = ((width >= 32) ? 0xffffffffull : ((1ull << width) - 1)) << (lo % 32);
    uint64_t v = ((uint64_t)val << (lo % 32)) & mask;
    uint64_t cur = w[lo / 32] | ((uint64_t)w[lo / 32 + 1] << 32);
    cur = (cur & ~mask) | v;
    w[lo / 32] = (uint32_t)cur;
    w[lo / 32 + 1] = (uint32_t)(cur >> 32);
}

/* Whether `code` is one of the RDX_ISA_REG_* special operand codes. */
bool isa_special_known(unsigned code);

/* Decode a register/source code into *o (count registers); false when invalid. */
bool isa_code_to_opnd(unsigned code, unsigned count, rdx_isa_opnd *o);

/* Whether the encoding class is a VALU e32 class (VOP1, VOP2, VOPC). */
static inline bool isa_is_e32_enc(unsigned enc)
{
    return enc == RDX_ISA_ENC_VOP1 || enc == RDX_ISA_ENC_VOP2 || enc == RDX_ISA_ENC_VOPC;
}

static inline bool isa_is_dpp16(rdx_isa_form f)
{
    return f == RDX_ISA_FORM_DPP16 || f == RDX_ISA_FORM_E64_DPP16;
}

static inline bool isa_is_dpp8(rdx_isa_form f)
{
    return f == RDX_ISA_FORM_DPP8 || f == RDX_ISA_FORM_E64_DPP8;
}

/* Whether the encoding class is a buffer/flat memory class / an image class (their
   register counts depend on modifiers and other operands). */
static inline bool isa_is_mem_enc(unsigned enc)
{
    switch (enc) {
    case RDX_ISA_ENC_FLAT:
    case RDX_ISA_ENC_GLOBAL:
    case RDX_ISA_ENC_SCRATCH:
    case RDX_ISA_ENC_MUBUF:
    case RDX_ISA_ENC_MTBUF:
    case RDX_ISA_ENC_VBUFFER:
    case RDX_ISA_ENC_VFLAT:
    case RDX_ISA_ENC_VGLOBAL:
    case RDX_ISA_ENC_VSCRATCH:
        return true;
    default:
        return false;
    }
}

static inline bool isa_is_image_enc(unsigned enc)
{
    return enc == RDX_ISA_ENC_MIMG || enc == RDX_ISA_ENC_VIMAGE || enc == RDX_ISA_ENC_VSAMPLE;
}

/*
 * Register count slot `si` of `row` takes given the instruction's modifiers
 * and other operands (memory data widths follow tfe/dmask/d16, global vaddr
 * follows saddr, buffer vaddr follows idxen/offen).  0 means "any".
 */
unsigned isa_expect_count(const isa_row *row, const rdx_isa_opnd_info *si, const rdx_isa_inst *in);

/* isa_expect_count with the common case (not a memory or image class: the slot's width)
   inline. */
static inline unsigned isa_expect_count_fast(const isa_row *row, const rdx_isa_opnd_info *si,
                                             const rdx_isa_inst *in)
{
    if (isa_is_mem_enc(row->enc) || isa_is_image_enc(row->enc))
        return isa_expect_count(row, si, in);
    return si->fmt == RDX_ISA_FMT_LANEMASK ? 1 : si->bits <= 32 ? 1 : (si->bits + 31u) / 32u;
}

/* Number of address VGPRs of an image op (from its name, dim, a16). */
unsigned isa_image_addr_count(const isa_row *row, const rdx_isa_inst *in);

/*
 * Address operands of an image op written as a list (MIMG NSA, RDNA4
 * VIMAGE/VSAMPLE): how many (at most max_fields) and the registers of each
 * (counts[]).  BVH ops group theirs (node, extent, origin, dir, inverse dir);
 * others are single registers with the last field taking the rest.
 */
unsigned isa_image_fields(const isa_row *row, const rdx_isa_inst *in, unsigned max_fields,
                          uint8_t counts[5]);

#endif /* RDX_ISA_CODEC_H */
