/* isa/isa_mods.c — which modifiers an instruction form has, and where. */
#include <rdx/isa.h>

#include "isa/isa_codec.h"
#include "isa/isa_internal.h"

static bool is_e32_enc(unsigned enc)
{
    return enc == RDX_ISA_ENC_VOP1 || enc == RDX_ISA_ENC_VOP2 || enc == RDX_ISA_ENC_VOPC;
}

/* Fields a BVH ray-intersection op fixes (LLVM neither prints nor accepts them):
 * dmask 0xf, dim 1D, unorm (gfx11) and r128 set. */
static bool bvh_implicit(rdx_isa_mod mod)
{
    return mod == RDX_ISA_MOD_DMASK || mod == RDX_ISA_MOD_DIM || mod == RDX_ISA_MOD_UNORM ||
           mod == RDX_ISA_MOD_R128;
}

void isa_bvh_fixed_bits(const isa_family *fam, const isa_row *row, uint32_t *w)
{
    const isa_layout *L = &fam->layouts[row->enc];
    static const struct {
        uint8_t mod;
        uint32_t val;
    } fixed[] = { { RDX_ISA_MOD_DMASK, 0xf }, { RDX_ISA_MOD_UNORM, 1 }, { RDX_ISA_MOD_R128, 1 } };
    for (unsigned i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        unsigned fi = L->mod[fixed[i].mod];
        if (fi != FLD_NONE && L->f[fi].width)
            isa_put(w, L->f[fi].lo, L->f[fi].width, fixed[i].val);
    }
}

bool isa_mod_ok(const isa_family *fam, const isa_row *row, rdx_isa_form form, rdx_isa_mod mod,
                const isa_field **fld, unsigned *dword_base)
{
    if (isa_bvh_row(row) && bvh_implicit(mod)) {
        if (fld)
            *fld = NULL;
        if (dword_base)
            *dword_base = 0;
        return false;
    }
    const isa_layout *L = &fam->layouts[row->enc];
    bool dpp16 = form == RDX_ISA_FORM_DPP16 || form == RDX_ISA_FORM_E64_DPP16;
    bool dpp8 = form == RDX_ISA_FORM_DPP8 || form == RDX_ISA_FORM_E64_DPP8;
    const isa_field *f = NULL;
    unsigned base = 0;
    bool ok;
    switch (mod) {
    case RDX_ISA_MOD_DPP_CTRL:
    case RDX_ISA_MOD_ROW_MASK:
    case RDX_ISA_MOD_BANK_MASK:
    case RDX_ISA_MOD_BOUND_CTRL: {
        static const uint8_t fl[] = { [RDX_ISA_MOD_DPP_CTRL] = FLD_DPP,
                                      [RDX_ISA_MOD_ROW_MASK] = FLD_ROW_MASK,
                                      [RDX_ISA_MOD_BANK_MASK] = FLD_BANK_MASK,
                                      [RDX_ISA_MOD_BOUND_CTRL] = FLD_BC };
        ok = dpp16;
        f = ok ? &fam->dpp16[fl[mod]] : NULL;
        base = L->bits;
        break;
    }
    case RDX_ISA_MOD_FI:
        ok = dpp16 || dpp8;
        f = dpp16 ? &fam->dpp16[FLD_FI] : NULL;
        base = L->bits;
        break;
    case RDX_ISA_MOD_DPP8:
        ok = dpp8;
        break;
    case RDX_ISA_MOD_NEG:
    case RDX_ISA_MOD_ABS:
        if (is_e32_enc(row->enc)) {
            ok = dpp16 && row->enc != RDX_ISA_ENC_VOPC ? true : dpp16;
        } else {
            ok = L->mod[mod] != FLD_NONE;
            f = ok ? &L->f[L->mod[mod]] : NULL;
        }
        break;
    case RDX_ISA_MOD_FORMAT:
        ok = !(row->flags & ROW_FMT1) && L->mod[mod] != FLD_NONE;
        f = ok ? &L->f[L->mod[mod]] : NULL;
        break;
    case RDX_ISA_MOD_OP_SEL_HI:
        ok = L->f[FLD_OPSEL_HI].width != 0;
        break;
    case RDX_ISA_MOD_OFFSET:
        if (row->flags & ROW_OFFSET_OPND) {
            ok = false;
            break;
        }
        if (row->enc == RDX_ISA_ENC_DS) {
            ok = !(row->flags & ROW_DS2);
            break;
        }
        ok = L->mod[mod] != FLD_NONE;
        f = ok ? &L->f[L->mod[mod]] : NULL;
        break;
    case RDX_ISA_MOD_OFFSET0:
    case RDX_ISA_MOD_OFFSET1:
        ok = row->enc == RDX_ISA_ENC_DS && (row->flags & ROW_DS2);
        f = ok ? &L->f[L->mod[mod]] : NULL;
        break;
    default:
        ok = (unsigned)mod < RDX_ISA_MOD_COUNT && L->mod[mod] != FLD_NONE;
        f = ok ? &L->f[L->mod[mod]] : NULL;
        break;
    }
    if (fld)
        *fld = f;
    if (dword_base)
        *dword_base = base;
    return ok;
}
