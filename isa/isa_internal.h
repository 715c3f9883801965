/*
 * isa/isa_internal.h — the shapes of the generated instruction tables
 * (isa/gen/isa_tables.c, written by scripts/gen_isa_tables.py) and the helpers
 * the encoder and decoder share.  Internal to librdx.
 */
#ifndef RDX_ISA_INTERNAL_H
#define RDX_ISA_INTERNAL_H

#include <stdint.h>

#include <rdx/isa.h>

#include "isa/gen/isa_tables.h"

#define KB(k)        RDX_ISA_KIND_BIT(RDX_ISA_OPND_##k)
#define ISA_ENC_NONE 0xff

/* How an operand slot is encoded. */
enum isa_how {
    HOW_SRC,        /* 9-bit VOP source or 8-bit scalar source (by field width) */
    HOW_SREG,       /* 7/8-bit scalar register field (SGPR, TTMP, vcc, m0, null, exec) */
    HOW_VGPR,       /* 8-bit VGPR field */
    HOW_SBASE,      /* SGPR pair index / 2 */
    HOW_SRSRC,      /* SGPR quad index / 4 */
    HOW_SRSRC9,     /* RDNA4 9-bit resource field: SGPR index (multiple of 4) */
    HOW_IMM,        /* unsigned raw field */
    HOW_SIMM,       /* signed raw field */
    HOW_BRANCH,     /* signed dword offset (simm16) */
    HOW_IMPLICIT,   /* printed by LLVM, not encoded (vcc of e32 carry/compare ops) */
    HOW_K,          /* the literal constant K of fmamk/fmaak/setreg_imm32 */
    HOW_SMEM_OFF,   /* SMEM soffset register or immediate offset */
    HOW_VDSTY,      /* VOPD Y destination (bit 0 implied opposite of vdstx) */
    HOW_SADDR,      /* FLAT saddr: SGPR pair/SGPR or off (null) */
    HOW_FLAT_VADDR, /* scratch vaddr: VGPR or off (sve = 0) */
    HOW_BUF_VADDR,  /* buffer vaddr: VGPR(s) or off (idxen = offen = 0) */
    HOW_MIMG_VADDR, /* MIMG vaddr: contiguous range or NSA list */
    HOW_EXP_SRC,    /* export source: VGPR or off (enable bit) */
    HOW_ATTR,       /* LDS parameter attribute: attr * 4 + channel */
    HOW_VIMG_VADDR, /* RDNA4 image addresses: vaddr0..4 */
    HOW_COUNT
};

/* Row flags. */
#define ROW_CMPX        (1u << 0) /* v_cmpx e64: vdst field holds exec_lo */
#define ROW_PROMOTED    (1u << 1) /* e64 row of a VOP1/VOP2/VOPC op */
#define ROW_DS2         (1u << 2) /* DS two-address op: offset0/offset1 */
#define ROW_BVH         (1u << 3) /* image BVH op */
#define ROW_ATOMIC      (1u << 4) /* memory atomic: the VDST slot exists only when it returns */
#define ROW_OPTIMM      (1u << 5) /* the only slot is an immediate LLVM omits when 0 (s_endpgm) */
#define ROW_OFFSET_OPND (1u << 6) /* the offset is an operand (s_prefetch_*), not a modifier */
#define ROW_FMT1        (1u << 7) /* RDNA4 untyped buffer op: format field is 1, not a modifier */

typedef struct isa_slot {
    uint8_t fld; /* enum isa_fld, FLD_NONE for implicit/literal */
    uint8_t how; /* enum isa_how */
} isa_slot;

typedef struct isa_row {
    uint16_t op;     /* rdx_isa_op */
    uint8_t enc;     /* rdx_isa_enc */
    uint8_t form;    /* RDX_ISA_FORM_NATIVE / E32 / E64 */
    uint16_t opcode; /* op field value */
    uint8_t nopnd;   /* operand slots */
    uint8_t nx;      /* VOPD: slots of the X half (the row lists X then Y) */
    uint16_t first;  /* index into isa_slot_info / isa_slot_enc */
    uint16_t flags;  /* ROW_* */
} isa_row;

typedef struct isa_field {
    uint8_t lo;    /* lowest bit (from bit 0 of the first dword) */
    uint8_t width; /* 0 = absent */
    uint8_t sign;  /* two's complement field */
} isa_field;

typedef struct isa_layout {
    uint8_t bits;  /* base size in bits (without literal / DPP / NSA dwords); 0 = absent */
    uint32_t mask; /* fixed bits of the first dword */
    uint32_t val;  /* their values */
    isa_field op;  /* the op field */
    isa_field f[FLD_COUNT];
    uint8_t mod[RDX_ISA_MOD_COUNT]; /* plain modifier -> field id (FLD_NONE: none) */
    uint64_t mods;                  /* bit m set when mod[m] != FLD_NONE */
} isa_layout;

_Static_assert(RDX_ISA_MOD_COUNT <= 64, "isa_layout.mods is a 64-bit set");

typedef struct isa_dmap {
    const int16_t *map; /* opcode (FLAT: seg << opbits | op) -> row, -1 none */
    uint16_t size;
} isa_dmap;

typedef struct isa_family {
    const char *name;
    const isa_row *rows;
    uint16_t nrows;
    const int16_t (*oprows)[2]; /* per op: row of NATIVE/E32 form, row of E64 form */
    const isa_layout *layouts;  /* per rdx_isa_enc */
    const isa_field *dpp16;     /* DPP16 dword fields (bits relative to the dword) */
    const isa_field *dpp8;
    const uint8_t *dclass; /* first dword >> 23 -> rdx_isa_enc or ISA_ENC_NONE */
    const isa_dmap *dmaps; /* per rdx_isa_enc */
} isa_family;

extern const char *const isa_op_names[RDX_ISA_OP_COUNT];
extern const rdx_isa_opnd_info isa_slot_info[];
extern const isa_slot isa_slot_enc[];
extern const isa_family isa_families[ISA_NFAMILIES];
extern const rdx_isa_form_info *const isa_form_infos[ISA_NFAMILIES];
extern const rdx_isa_target isa_targets[ISA_NTARGETS];
extern const uint32_t *const isa_target_avail[ISA_NTARGETS];
/* Per target: ops llvm-mc accepts with DPP, [0] on the e32 form, [1] on e64 (bitsets). */
extern const uint32_t *const isa_target_dpp[ISA_NTARGETS][2];

/*
 * Whether an atomic row's instruction returns the old value (glc on RDNA3,
 * th bit 0 = TH_ATOMIC_RETURN on RDNA4); its VDST slot exists only then.
 */
static inline bool isa_atomic_returns(const rdx_isa_target *t, const int32_t *mod)
{
    return t->family == RDX_ISA_FAMILY_RDNA3 ? mod[RDX_ISA_MOD_GLC] != 0
                                             : (mod[RDX_ISA_MOD_TH] & 1) != 0;
}

/* rdx_isa_op_available for the hot paths (t valid, op any value). */
static inline bool isa_op_avail(const rdx_isa_target *t, unsigned op)
{
    return op != 0 && op < RDX_ISA_OP_COUNT && t->index < ISA_NTARGETS &&
           ((isa_target_avail[t->index][op / 32] >> (op % 32)) & 1u);
}

/* The row of `op` for `form` (DPP forms map to their E32/E64 row), or NULL. */
const isa_row *isa_row_of(const rdx_isa_target *t, rdx_isa_op op, rdx_isa_form form);
/* rdx_isa_op_form without an error record: NULL when the target lacks the op
 * or the form (for callers that try forms, like the assembler). */
const rdx_isa_form_info *isa_form_of(const rdx_isa_target *t, rdx_isa_op op, rdx_isa_form form);

/*
 * Whether modifier `mod` exists for `row` in `form`, and (for plain one-field
 * modifiers) the field holding it in *fld with *dword_base set to the bit
 * offset of the dword the field lives in (0, or the DPP dword's position).
 * NEG/ABS of E32 DPP16 forms are split fields (src0_neg, src1_neg): *fld is
 * NULL for them.
 */
bool isa_mod_ok(const isa_family *fam, const isa_row *row, rdx_isa_form form, rdx_isa_mod mod,
                const isa_field **fld, unsigned *dword_base);

/*
 * BVH ray-intersection ops (image_bvh*_intersect_ray) fix dmask (0xf), dim
 * (1D), unorm (gfx11) and r128 (set): isa_mod_ok says these modifiers do not
 * exist for them, the encoder writes the fixed bits with isa_bvh_fixed_bits
 * and the decoder does not report them, as LLVM does.
 */
static inline bool isa_bvh_row(const isa_row *row)
{
    return row->op == RDX_ISA_OP_IMAGE_BVH_INTERSECT_RAY ||
           row->op == RDX_ISA_OP_IMAGE_BVH64_INTERSECT_RAY;
}
void isa_bvh_fixed_bits(const isa_family *fam, const isa_row *row, uint32_t *w);

/*
 * Whether slot `si` of `op` in `form` is a true16 operand field of 8 bits
 * (16-bit operands of VOP1/VOP2/VOPC e32, DPP16 and DPP8 forms: v0..v127,
 * bit 7 selecting the high half).  The vgpr16-e32 rule of rdx_isa_check, and
 * the assembler's form choice, read it (isa/isa_check.c).
 */
bool isa_vgpr16_field(const rdx_isa_target *t, rdx_isa_op op, rdx_isa_form form,
                      const rdx_isa_opnd_info *si);

#endif /* RDX_ISA_INTERNAL_H */
