/*
 * codegen/spill.c — spill code for the register plan (regalloc.c).
 *
 * A spilled virtual register lives in memory for its whole life ("spill
 * everywhere"): every instruction that names it gets a fresh temporary of the
 * same size, file and alignment instead; the temporary is reloaded before the
 * instruction when the instruction reads the register (or writes only part of
 * it: a sub-range, or under a narrowed EXEC) and stored back after it when the
 * instruction writes it.  Temporaries are never spilled themselves, and they
 * live for a few instructions only, so the next allocation round fits unless
 * one instruction alone needs more registers than the file has.
 *
 * VGPRs go to scratch (architected flat scratch on gfx11: scratch_load/
 * scratch_store with no address registers, the slot's byte offset in the
 * 13-bit offset field, or in an SGPR when it does not fit).  Scratch loads
 * count in vmcnt like global loads, so linearize.c places their s_waitcnt.
 * A load or store under a narrowed EXEC touches the active lanes only, which
 * is what a gated instruction needs: the inactive lanes keep their old value
 * in memory.
 *
 * SGPRs go to lanes of a VGPR (v_writelane_b32 / v_readlane_b32, which ignore
 * EXEC): one lane per dword, 32 per VGPR.  The lane VGPRs are ordinary virtual
 * registers that are never spilled; their writes are partial (the other lanes
 * live on), so they are live from the kernel's entry to their last reload.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/cg.h"
#include "util/error.h"
#include "util/scratch.h"

#define MAXSPILL                                                                            \
    640 /* instructions inserted around one instruction (a 64-dword WMMA accumulator partly \
           written by one v_mov: 2 x 64 scratch ops + addresses) */
#define MAX_SCRATCH (1u << 16) /* bytes per lane: well under the 1 MiB limit */

typedef struct sp {
    cg_prog *p;
    int32_t *slot;  /* per spilled vreg: scratch byte offset or first lane; -1 none */
    uint32_t nslot; /* size of slot[] (vregs at the start of this round) */
} sp;

static cg_inst mk(const cg_prog *p, rdx_isa_op op, unsigned flags)
{
    cg_inst in;
    memset(&in, 0, sizeof in);
    in.in.op = (uint16_t)op;
    in.in.form = RDX_ISA_FORM_NATIVE;
    const rdx_isa_form_info *fi = cg_form(p->tgt, op, RDX_ISA_FORM_AUTO);
    if (fi && (fi->enc == RDX_ISA_ENC_VOP1 || fi->enc == RDX_ISA_ENC_VOP2 ||
               fi->enc == RDX_ISA_ENC_VOP3 || fi->enc == RDX_ISA_ENC_VOP3SD))
        in.in.form = RDX_ISA_FORM_E64;
    in.flags = (uint16_t)(flags | CG_F_SPILL);
    in.target = -1;
    return in;
}

static void opnd(cg_inst *in, int k, const cg_prog *p, uint32_t vr, unsigned sub, unsigned count)
{
    in->in.opnd[k] = cg_vopnd(p, vr, sub, count);
    in->vr[k] = vr;
    if (k >= in->in.nopnd)
        in->in.nopnd = (uint8_t)(k + 1);
}

/* Slot of a spilled vreg (allocated on first use). */
static rdx_status slot_of(sp *S, uint32_t v, int32_t *out)
{
    cg_prog *p = S->p;
    if (S->slot[v] >= 0) {
        *out = S->slot[v];
        return RDX_OK;
    }
    const cg_vreg *r = &p->vregs[v];
    if (r->file == CG_V) {
        uint32_t al = r->size >= 4 ? 16 : 4 * (uint32_t)r->size;
        uint32_t off = (p->scratch_size + al - 1) / al * al;
        if (off + 4u * r->size > MAX_SCRATCH)
            return rdx_fail(RDX_ERR_RANGE,
                            "regalloc: spilling needs more than %u bytes of scratch per lane",
                            MAX_SCRATCH);
        p->scratch_size = off + 4u * r->size;
        S->slot[v] = (int32_t)off;
    } else {
        uint32_t lane = p->spill_lanes;
        if (lane % 32 + r->size > 32)
            lane = (lane / 32 + 1) * 32; /* one SGPR range stays in one VGPR */
        uint32_t idx = lane / 32;
        if (idx >= sizeof p->spill_lane_vr / sizeof p->spill_lane_vr[0])
            return rdx_fail(RDX_ERR_RANGE, "regalloc: more than %zu SGPR dwords spilled",
                            32 * sizeof p->spill_lane_vr / sizeof p->spill_lane_vr[0]);
        if (!p->spill_lane_vr[idx]) {
            uint32_t lv = cg_vreg_new(p, CG_V, 1);
            if (!lv)
                return RDX_ERR_NOMEM;
            p->vregs[lv].nospill = 1;
            p->spill_lane_vr[idx] = lv;
        }
        p->spill_lanes = lane + r->size;
        S->slot[v] = (int32_t)lane;
    }
    p->spill_dwords[r->file] += r->size;
    *out = S->slot[v];
    return RDX_OK;
}

static const rdx_isa_op sload[] = { RDX_ISA_OP_SCRATCH_LOAD_B32, RDX_ISA_OP_SCRATCH_LOAD_B64,
                                    RDX_ISA_OP_SCRATCH_LOAD_B96, RDX_ISA_OP_SCRATCH_LOAD_B128 };
static const rdx_isa_op sstore[] = { RDX_ISA_OP_SCRATCH_STORE_B32, RDX_ISA_OP_SCRATCH_STORE_B64,
                                     RDX_ISA_OP_SCRATCH_STORE_B96, RDX_ISA_OP_SCRATCH_STORE_B128 };

/* Reload (store = 0) or store the temporary t of spilled v into out[]. */
static rdx_status xfer(sp *S, uint32_t v, uint32_t t, int store, cg_inst *out, int *n)
{
    cg_prog *p = S->p;
    int32_t slot = 0;
    rdx_status st = slot_of(S, v, &slot);
    if (st)
        return st;
    const cg_vreg *r = &p->vregs[t];
    if (r->file == CG_S) {
        uint32_t lv = p->spill_lane_vr[slot / 32];
        for (unsigned w = 0; w < r->size; w++) {
            cg_inst in;
            int lane = slot % 32 + (int)w;
            if (store) {
                /* the lane VGPR's other lanes live on: a partial write */
                in = mk(p, RDX_ISA_OP_V_WRITELANE_B32, CG_F_PARTIAL);
                opnd(&in, 0, p, lv, 0, 1);
                opnd(&in, 1, p, t, w, 1);
                in.in.opnd[2] = rdx_isa_int(lane);
                in.in.nopnd = 3;
            } else {
                in = mk(p, RDX_ISA_OP_V_READLANE_B32, 0);
                opnd(&in, 0, p, t, w, 1);
                opnd(&in, 1, p, lv, 0, 1);
                in.in.opnd[2] = rdx_isa_int(lane);
                in.in.nopnd = 3;
            }
            in.ndef = 1;
            out[(*n)++] = in;
        }
        return RDX_OK;
    }
    for (unsigned w = 0; w < r->size; w += 4) {
        unsigned c = r->size - w < 4 ? r->size - w : 4;
        uint32_t off = (uint32_t)slot + 4 * w;
        rdx_isa_opnd saddr = rdx_isa_off();
        uint32_t sv = 0;
        if (off + 4 * c > 4096) { /* the offset field is 13-bit signed */
            sv = cg_vreg_new(p, CG_S, 1);
            if (!sv)
                return RDX_ERR_NOMEM;
            p->vregs[sv].nospill = 1;
            cg_inst mv = mk(p, RDX_ISA_OP_S_MOV_B32, 0);
            opnd(&mv, 0, p, sv, 0, 1);
            mv.in.opnd[1] = rdx_isa_literal(off);
            mv.in.nopnd = 2;
            mv.ndef = 1;
            out[(*n)++] = mv;
            saddr = cg_vopnd(p, sv, 0, 1);
            off = 0;
        }
        cg_inst in;
        if (store) {
            in = mk(p, sstore[c - 1], CG_F_VMEM_STORE);
            in.in.opnd[0] = rdx_isa_off();
            opnd(&in, 1, p, t, w, c);
            in.in.opnd[2] = saddr;
            in.vr[2] = sv;
            in.ndef = 0;
        } else {
            in = mk(p, sload[c - 1], CG_F_VMEM_LOAD);
            opnd(&in, 0, p, t, w, c);
            in.in.opnd[1] = rdx_isa_off();
            in.in.opnd[2] = saddr;
            in.vr[2] = sv;
            in.ndef = 1;
        }
        in.in.nopnd = 3;
        in.in.mod[RDX_ISA_MOD_OFFSET] = (int32_t)off;
        out[(*n)++] = in;
    }
    return RDX_OK;
}

/* Rewrite one instruction: the reloads before it into pre[], the stores after it into post[]. */
static rdx_status rewrite(sp *S, cg_inst *inp, cg_inst *pre, int *npre_, cg_inst *post, int *npost_)
{
    cg_prog *p = S->p;
    cg_inst in = *inp;
    uint32_t done[RDX_ISA_MAX_OPNDS], tmp[RDX_ISA_MAX_OPNDS];
    int nd = 0;
    int npre = 0, npost = 0;
    rdx_status st = RDX_OK;
    *npre_ = *npost_ = 0;
    for (int k = 0; k < in.in.nopnd; k++) {
        uint32_t v = in.vr[k];
        if (!v || v >= S->nslot || S->slot[v] == -2)
            continue;
        int seen = -1;
        for (int j = 0; j < nd; j++)
            if (done[j] == v)
                seen = j;
        if (seen >= 0)
            continue;
        const cg_vreg *r = &p->vregs[v];
        uint32_t t = cg_vreg_new(p, r->file, r->size);
        if (!t)
            return RDX_ERR_NOMEM;
        r = &p->vregs[v];
        p->vregs[t].align = r->align;
        p->vregs[t].nospill = 1;
        done[nd] = v, tmp[nd] = t, nd++;
        /* read, or written only in part: reload first */
        int reads = 0, writes = 0;
        for (int j = 0; j < in.in.nopnd; j++) {
            if (in.vr[j] != v)
                continue;
            if (j >= in.ndef)
                reads = 1;
            else {
                writes = 1;
                if ((in.flags & CG_F_PARTIAL) || in.in.opnd[j].reg != 0 ||
                    in.in.opnd[j].count < r->size)
                    reads = 1;
            }
        }
        if (npre + 2 * (int)r->size + 4 > MAXSPILL || npost + 2 * (int)r->size + 4 > MAXSPILL)
            return rdx_fail(RDX_ERR_RANGE, "regalloc: too much spill code around one %s",
                            rdx_isa_op_name((rdx_isa_op)in.in.op));
        if (reads && (st = xfer(S, v, t, 0, pre, &npre)))
            return st;
        if (writes && (st = xfer(S, v, t, 1, post, &npost)))
            return st;
    }
    if (!nd)
        return RDX_OK;
    for (int k = 0; k < in.in.nopnd; k++)
        for (int j = 0; j < nd; j++)
            if (in.vr[k] && in.vr[k] == done[j])
                in.vr[k] = tmp[j];
    *inp = in;
    p->spill_insts += (uint32_t)(npre + npost);
    *npre_ = npre, *npost_ = npost;
    return RDX_OK;
}

rdx_status cg_spill_insert(cg_prog *p, const uint8_t *spill)
{
    sp S;
    S.p = p;
    S.nslot = (uint32_t)p->nvregs;
    S.slot = malloc((S.nslot + 1) * sizeof *S.slot);
    if (!S.slot)
        return rdx_fail(RDX_ERR_NOMEM, "regalloc: out of memory (spilling)");
    for (uint32_t v = 0; v < S.nslot; v++)
        S.slot[v] = spill[v] ? -1 : -2;
    rdx_status st = RDX_OK;
    cg_inst *pre = malloc(2 * MAXSPILL * sizeof *pre), *post = pre ? pre + MAXSPILL : NULL;
    if (!pre)
        st = rdx_fail(RDX_ERR_NOMEM, "regalloc: out of memory (spilling)");
    /* each block is rebuilt once: reloads, the instruction, stores */
    for (size_t b = 0; b < p->nblocks && !st; b++) {
        cg_block *bl = &p->blocks[b];
        size_t cap = bl->n + 16, m = 0;
        cg_inst *out = rdx_scratch_alloc(cap * sizeof *out);
        if (!out) {
            st = rdx_fail(RDX_ERR_NOMEM, "regalloc: out of memory (spilling)");
            break;
        }
        for (size_t i = 0; i < bl->n && !st; i++) {
            cg_inst in = bl->insts[i];
            int npre, npost;
            st = rewrite(&S, &in, pre, &npre, post, &npost);
            bl = &p->blocks[b];
            if (st)
                break;
            if (m + (size_t)(npre + npost) + 1 > cap) {
                size_t nc = 2 * cap + (size_t)(npre + npost) + 1;
                cg_inst *no = rdx_scratch_realloc(out, nc * sizeof *no);
                if (!no) {
                    st = rdx_fail(RDX_ERR_NOMEM, "regalloc: out of memory (spilling)");
                    break;
                }
                out = no, cap = nc;
            }
            memcpy(out + m, pre, (size_t)npre * sizeof *out);
            m += (size_t)npre;
            out[m++] = in;
            memcpy(out + m, post, (size_t)npost * sizeof *out);
            m += (size_t)npost;
        }
        if (st) {
            rdx_scratch_free(out);
            break;
        }
        rdx_scratch_free(bl->insts);
        bl->insts = out, bl->n = m, bl->cap = cap;
    }
    free(pre);
    free(S.slot);
    return st;
}
