/*
 * emu/core/valu_lane.c — cross-lane VALU: v_readlane/readfirstlane/
 * writelane, v_permlane16/x16/64, the DPP16/DPP8 source select, the VALU
 * prologue (write mask, counters) and VOPD dual issue.
 */
#include "emu/core/exec.h"
#include "emu/core/valu.h"

void emu_v_readfirstlane_b32(emu_wave *w, const emu_inst *in)
{
    uint64_t e = emu_exec(w);
    unsigned l = e ? (unsigned)__builtin_ctzll(e) : 0;
    uint32_t tmp[EMU_MAX_LANES];
    const uint32_t *p = emu_v32(w, &in->src[0], tmp);
    emu_opnd d = in->dst.kind == EMU_K_SGPR ? in->dst : in->sdst;
    emu_swrite32(w, &d, p[l]);
}

void emu_v_readlane_b32(emu_wave *w, const emu_inst *in)
{
    unsigned l = emu_s32(w, &in->src[1]) & (w->nl - 1);
    uint32_t tmp[EMU_MAX_LANES];
    const uint32_t *p = emu_v32(w, &in->src[0], tmp);
    emu_opnd d = in->sdst.kind == EMU_K_SGPR ? in->sdst : in->dst;
    emu_swrite32(w, &d, p[l]);
}

void emu_v_writelane_b32(emu_wave *w, const emu_inst *in)
{
    unsigned l = emu_s32(w, &in->src[1]) & (w->nl - 1);
    if (in->dst.kind == EMU_K_VGPR)
        w->v[in->dst.reg][l] = emu_s32(w, &in->src[0]);
}

/* v_permlane16 (param 0) / v_permlanex16 (param 1): lane select nibbles in S1 (lanes 0-7), S2 */
void emu_v_permlane(emu_wave *w, const emu_inst *in)
{
    uint32_t src[EMU_MAX_LANES], r[EMU_MAX_LANES];
    memcpy(src, w->v[in->src[0].reg], sizeof src);
    uint64_t sel = emu_s32(w, &in->src[1]) | (uint64_t)emu_s32(w, &in->src[2]) << 32;
    LANES
    {
        unsigned row = l / 16, i = l % 16;
        unsigned s = (unsigned)(sel >> (4 * i)) & 15;
        unsigned srow = in->param ? row ^ 1 : row;
        r[l] = src[(srow * 16 + s) % NL];
    }
    vdst(w, in, r);
}

void emu_v_permlane64_b32(emu_wave *w, const emu_inst *in)
{
    uint32_t src[EMU_MAX_LANES], r[EMU_MAX_LANES];
    if (NL == 32)
        return; /* the pcode's "if WAVE32 then s_nop", as silicon does (tinygrad test/amd/hw
                   test_vop1.py TestPermlane64) */
    memcpy(src, w->v[in->src[0].reg], sizeof src);
    LANES
    r[l] = src[l ^ 32];
    vdst(w, in, r);
}

/* ------------------------------------------------------------------ DPP */

static uint32_t dword_at(const emu_inst *in, unsigned off)
{
    return (uint32_t)in->raw[off] | (uint32_t)in->raw[off + 1] << 8 |
           (uint32_t)in->raw[off + 2] << 16 | (uint32_t)in->raw[off + 3] << 24;
}

/* Fill w->dpp with src0 through the DPP lane select and mask w->wm. */
static void dpp_prepare(emu_wave *w, const emu_inst *in)
{
    const uint32_t *src = w->v[in->src[0].reg];
    uint64_t exec = emu_exec(w);
    unsigned off = (in->flags & EMU_F_E64) ? 8 : 4;
    uint32_t d = dword_at(in, off);
    if (in->flags & EMU_F_DPP8) {
        int fi = (in->raw[0] == 0xea) || (in->fi != 0);
        LANES
        {
            unsigned s = (l & ~7u) | ((d >> (8 + 3 * (l & 7))) & 7);
            w->dpp[l] = (fi || ((exec >> s) & 1)) ? src[s] : 0;
        }
        return;
    }
    unsigned ctrl = (d >> 8) & 0x1ff, fi = (d >> 18) & 1, bc = (d >> 19) & 1;
    unsigned bank_mask = (d >> 24) & 15, row_mask = (d >> 28) & 15;
    LANES
    {
        unsigned row = l & ~15u, i = l & 15;
        int s = -1;
        if (ctrl <= 0xff)
            s = (int)((l & ~3u) | ((ctrl >> ((l & 3) * 2)) & 3));
        else if (ctrl >= 0x101 && ctrl <= 0x10f)
            s = i + (ctrl & 15) < 16 ? (int)(l + (ctrl & 15)) : -1;
        else if (ctrl >= 0x111 && ctrl <= 0x11f)
            s = i >= (ctrl & 15) ? (int)(l - (ctrl & 15)) : -1;
        else if (ctrl >= 0x121 && ctrl <= 0x12f)
            s = (int)(row + ((i + 16 - (ctrl & 15)) & 15));
        else if (ctrl == 0x140)
            s = (int)(row + 15 - i);
        else if (ctrl == 0x141)
            s = (int)((l & ~7u) + 7 - (l & 7));
        else if (ctrl == 0x142) /* row_bcast15 on gfx9, reserved since gfx10: silicon reads
                                   lane 0 of the row (tinygrad test/amd/hw test_dpp.py
                                   TestVOPCDPP16) */
            s = (int)row;
        else if (ctrl >= 0x150 && ctrl <= 0x15f)
            s = (int)(row + (ctrl & 15));
        else if (ctrl >= 0x160 && ctrl <= 0x16f)
            s = (int)(row + (i ^ (ctrl & 15)));
        int en = ((row_mask >> (l / 16)) & 1) && ((bank_mask >> ((l >> 2) & 3)) & 1);
        if (!en) {
            w->wm[l] = 0;
            continue;
        }
        if (s >= 0 && (unsigned)s < NL && (fi || ((exec >> s) & 1))) {
            w->dpp[l] = src[s];
        } else if (bc) {
            w->dpp[l] = 0;
        } else {
            w->wm[l] = 0; /* invalid source lane: this lane is not written */
        }
    }
}

/* Before every VALU instruction: the write mask from EXEC, DPP, counters. */
void emu_valu_prologue(emu_wave *w, const emu_inst *in)
{
    emu_wm_exec(w);
    w->wk->c.lane_ops += w->wm_lanes;
    w->wk->c.vector_insts++;
    if (in->flags & (EMU_F_DPP16 | EMU_F_DPP8)) {
        w->wm_dirty = 1; /* wm is narrowed below: refresh it for the next instruction */
        dpp_prepare(w, in);
    }
}

static bool plain_src(const emu_opnd *o)
{
    return o->kind == EMU_K_NONE || o->kind == EMU_K_VGPR || o->kind == EMU_K_SGPR ||
           o->kind == EMU_K_CONST;
}

void emu_mark_plain(emu_inst *in)
{
    if (in->flags & EMU_F_VOPD) {
        emu_mark_plain((emu_inst *)in->vx);
        emu_mark_plain((emu_inst *)in->vy);
        return;
    }
    if (in->cls != RDX_EMU_CLASS_VALU && in->cls != RDX_EMU_CLASS_TRANS)
        return;
    if (in->enc == RDX_ISA_ENC_VOP3P || (in->flags & (EMU_F_DPP16 | EMU_F_DPP8)))
        return;
    if (in->neg || in->abs || in->clamp || in->omod)
        return;
    for (int i = 0; i < 3; i++)
        if (!plain_src(&in->src[i]))
            return;
    if (in->dst.kind != EMU_K_VGPR && in->dst.kind != EMU_K_NONE)
        return;
    in->flags |= EMU_F_PLAIN;
}

/* ----------------------------------------------------------------- VOPD */

static int reads_reg(const emu_inst *h, unsigned reg)
{
    for (int i = 0; i < 3; i++)
        if ((h->src[i].kind == EMU_K_VGPR) && h->src[i].reg == reg)
            return 1;
    return 0;
}

void emu_vopd(emu_wave *w, const emu_inst *in)
{
    const emu_inst *x = in->vx, *y = in->vy;
    w->wk->c.vopd++;
    unsigned xd = x->dst.reg, yd = y->dst.reg;
    int y_reads_x = reads_reg(y, xd) || (y->fn == emu_v_fmac_f32 && yd == xd);
    int x_reads_y = reads_reg(x, yd);
    if (!y_reads_x) {
        x->fn(w, x);
        y->fn(w, y);
    } else if (!x_reads_y) {
        y->fn(w, y);
        x->fn(w, x);
    } else {
        uint32_t saved[EMU_MAX_LANES];
        memcpy(saved, w->v[xd], sizeof saved);
        x->fn(w, x);
        for (unsigned l = 0; l < EMU_MAX_LANES; l++) {
            uint32_t t = w->v[xd][l];
            w->v[xd][l] = saved[l];
            saved[l] = t;
        }
        y->fn(w, y);
        memcpy(w->v[xd], saved, sizeof saved);
    }
}
