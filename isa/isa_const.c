/* isa/isa_const.c — choosing inline constants and literals the way llvm-mc does. */
#include <inttypes.h>

#include <rdx/isa.h>

#include "util/error.h"

/* Bit patterns of the inline float constants, in rdx_isa_fconst order. */
static const uint16_t fconst_f16[RDX_ISA_FCONST_COUNT] = {
    0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
};
static const uint16_t fconst_bf16[RDX_ISA_FCONST_COUNT] = {
    0x3f00, 0xbf00, 0x3f80, 0xbf80, 0x4000, 0xc000, 0x4080, 0xc080, 0x3e22,
};
static const uint32_t fconst_f32[RDX_ISA_FCONST_COUNT] = {
    0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
    0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983,
};
static const uint64_t fconst_f64[RDX_ISA_FCONST_COUNT] = {
    0x3fe0000000000000ull, 0xbfe0000000000000ull, 0x3ff0000000000000ull,
    0xbff0000000000000ull, 0x4000000000000000ull, 0xc000000000000000ull,
    0x4010000000000000ull, 0xc010000000000000ull, 0x3fc45f306dc9c882ull,
};

rdx_status rdx_isa_constant(uint64_t bits, unsigned size_bits, rdx_isa_fmt fmt, rdx_isa_opnd *out)
{
    if (!out)
        return rdx_fail(RDX_ERR_INVALID, "rdx_isa_constant: NULL output");
    int64_t sv;
    switch (size_bits) {
    case 16:
        bits &= 0xffff;
        sv = (int16_t)bits;
        break;
    case 32:
        bits &= 0xffffffffu;
        sv = (int32_t)bits;
        break;
    case 64:
        sv = (int64_t)bits;
        break;
    default:
        return rdx_fail(RDX_ERR_INVALID, "rdx_isa_constant: operand size %u (expected 16, 32, 64)",
                        size_bits);
    }
    if (sv >= -16 && sv <= 64) {
        *out = rdx_isa_int((int)sv);
        return RDX_OK;
    }
    bool packed = fmt == RDX_ISA_FMT_PK_F16 || fmt == RDX_ISA_FMT_PK_I16;
    for (int c = 0; c < RDX_ISA_FCONST_COUNT && !packed; c++) {
        bool hit = size_bits == 16
                       ? bits == (fmt == RDX_ISA_FMT_BF16 ? fconst_bf16[c] : fconst_f16[c])
                   : size_bits == 32 ? bits == fconst_f32[c]
                                     : bits == fconst_f64[c];
        if (hit) {
            *out = rdx_isa_float((rdx_isa_fconst)c);
            return RDX_OK;
        }
    }
    if (size_bits < 64) {
        *out = rdx_isa_literal((uint32_t)bits);
        return RDX_OK;
    }
    if (fmt == RDX_ISA_FMT_F64) {
        if ((bits & 0xffffffffu) == 0) {
            *out = rdx_isa_literal((uint32_t)(bits >> 32));
            return RDX_OK;
        }
    } else if (sv >= INT32_MIN && sv <= INT32_MAX) {
        *out = rdx_isa_literal((uint32_t)bits);
        return RDX_OK;
    }
    return rdx_fail(RDX_ERR_RANGE,
                    "constant 0x%016" PRIx64 " has no inline or 32-bit literal encoding in a "
                    "64-bit %s operand",
                    bits, fmt == RDX_ISA_FMT_F64 ? "float" : "integer");
}
