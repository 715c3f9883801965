/*
 * codegen/hazard.c — the gfx11 / gfx12 (wave32) hazards that need wait
 * states in the program, after the register plan and VOPD, before s_delay_alu.
 *
 * gfx11 resolves register data dependencies in hardware (LLVM's
 * FeatureNoDataDepHazard: none of the pre-gfx10 "VALU writes SGPR → VMEM /
 * v_readlane reads it" wait states apply).  What remains for the code this
 * back end emits (LLVM's GCNHazardRecognizer for gfx1100):
 *
 * - TRANS use (VALUTransUseHazard, gfx11.0 only: target.def's `trans`; clang-19
 *   inserts no such wait for gfx115x or gfx12): a VALU that reads a VGPR written
 *   by a transcendental (v_rcp/v_rsq/v_sqrt/v_exp/v_log/v_sin/v_cos, f16/f32/
 *   f64) with at most 5 VALU and at most 1 TRANS instruction in between needs
 *   `s_waitcnt_depctr 0xfff` (va_vdst = 0) first.  A VMEM/DS/EXP instruction
 *   or such a depctr in between (they wait for va_vdst = 0) clears it.
 * - WMMA (WMMA hazard): a v_wmma whose A or B matrix overlaps the D matrix
 *   of the v_wmma before it, with no other VALU between them, needs a v_nop.
 *
 * Not applicable to this back end's output (so not checked): the LDS-direct
 * hazards (no lds_direct/lds_param_load), v_cmpx → v_permlane (no permlane),
 * VALU partial forwarding and VALU mask write (wave64 only), the MAD
 * intra-forwarding bug of v_mad_u64_u32 (not emitted).
 *
 * State flows forward over the control-flow graph (block entry = the worst of
 * the predecessors' exits, iterated to a fixed point), so a loop's back edge
 * is covered.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/cg.h"
#include "util/error.h"
#include "util/scratch.h"

#define NONE 255

typedef struct hz {
    uint8_t valus[256], trans[256]; /* since the TRANS write of each VGPR; NONE */
    uint8_t wmma[256];              /* VGPRs of the last WMMA's D, no VALU since */
    uint16_t ntrans, nwmma;         /* entries set (0: nothing to scan) */
} hz;

static void hz_clear_trans(hz *s)
{
    memset(s->valus, NONE, sizeof s->valus);
    memset(s->trans, NONE, sizeof s->trans);
    s->ntrans = 0;
}

/* The worst of two states: the most recent writes (NONE = 255 is the largest). */
static void hz_merge(hz *d, const hz *s)
{
    if (!s->ntrans && !s->nwmma)
        return;
    d->ntrans = d->nwmma = 0;
    for (int r = 0; r < 256; r++) {
        d->valus[r] = s->valus[r] < d->valus[r] ? s->valus[r] : d->valus[r];
        d->trans[r] = s->trans[r] < d->trans[r] ? s->trans[r] : d->trans[r];
        d->wmma[r] |= s->wmma[r];
        d->ntrans = (uint16_t)(d->ntrans + (d->valus[r] != NONE));
        d->nwmma = (uint16_t)(d->nwmma + d->wmma[r]);
    }
}

static int is_valu(const cg_hw *h)
{
    return h->type == CG_HW_VALU || h->type == CG_HW_TRANS;
}

static int is_depctr_va0(const rdx_isa_inst *in)
{
    return in->op == RDX_ISA_OP_S_WAITCNT_DEPCTR && in->nopnd >= 1 &&
           ((in->opnd[0].value >> 12) & 15) == 0;
}

/* What instruction `in` needs in front of it (0 none, 1 depctr, 2 v_nop). */
static int needs(const hz *s, const rdx_isa_inst *in, const cg_hw *h)
{
    if (!is_valu(h))
        return 0;
    for (int k = 0; k < h->nuse && s->ntrans; k++) {
        int u = h->use[k] - 256;
        if (u >= 0 && s->valus[u] != NONE)
            return 1;
    }
    if (h->wmma && s->nwmma)
        for (int k = 1; k <= 2 && k < in->nopnd; k++) {
            const rdx_isa_opnd *o = &in->opnd[k];
            if (o->kind != RDX_ISA_OPND_VGPR)
                continue;
            for (unsigned w = 0; w < (o->count ? o->count : 1u); w++)
                if (o->reg + w < 256 && s->wmma[o->reg + w])
                    return 2;
        }
    return 0;
}

/* The state after `in`; trans: the target has the TRANS use hazard (target.def). */
static void step(hz *s, const rdx_isa_inst *in, const cg_hw *h, int trans)
{
    if (h->type == CG_HW_VMEM || h->type == CG_HW_DS || h->type == CG_HW_EXP || is_depctr_va0(in))
        hz_clear_trans(s);
    if (is_valu(h)) {
        for (int r = 0; r < 256 && s->ntrans; r++) {
            if (s->valus[r] == NONE)
                continue;
            s->valus[r]++;
            s->trans[r] = (uint8_t)(s->trans[r] + (h->type == CG_HW_TRANS));
            if (s->valus[r] > 5 || s->trans[r] > 1) {
                s->valus[r] = s->trans[r] = NONE;
                s->ntrans--;
            }
        }
        if (s->nwmma)
            memset(s->wmma, 0, sizeof s->wmma);
        s->nwmma = 0;
    }
    if (h->type == CG_HW_TRANS && trans)
        for (int k = 0; k < h->ndef; k++)
            if (h->def[k] >= 256) {
                int r = h->def[k] - 256;
                s->ntrans = (uint16_t)(s->ntrans + (s->valus[r] == NONE));
                s->valus[r] = s->trans[r] = 0;
            }
    if (h->wmma && in->nopnd >= 1 && in->opnd[0].kind == RDX_ISA_OPND_VGPR)
        for (unsigned w = 0; w < (in->opnd[0].count ? in->opnd[0].count : 1u); w++)
            if (in->opnd[0].reg + w < 256 && !s->wmma[in->opnd[0].reg + w]) {
                s->wmma[in->opnd[0].reg + w] = 1;
                s->nwmma++;
            }
}

static cg_inst fix_inst(int kind)
{
    cg_inst f;
    memset(&f, 0, sizeof f);
    f.target = -1;
    if (kind == 1) {
        f.in.op = RDX_ISA_OP_S_WAITCNT_DEPCTR;
        f.in.form = RDX_ISA_FORM_NATIVE;
        f.in.nopnd = 1;
        f.in.opnd[0] = rdx_isa_imm(0x0fff);
    } else {
        f.in.op = RDX_ISA_OP_V_NOP;
        f.in.form = RDX_ISA_FORM_E32;
    }
    return f;
}

/* A block's instructions with the fixes inserted (and their classification), from its last
   run; out == NULL: nothing to insert, the block stays as it is. */
typedef struct emitted {
    cg_inst *out;
    cg_hw *hout;
    size_t n, cap;
    unsigned inserted;
} emitted;

static void emitted_free(emitted *e)
{
    rdx_scratch_free(e->out);
    rdx_scratch_free(e->hout);
    memset(e, 0, sizeof *e);
}

/* Run block b from entry state s (left as its exit state); *res gets the block with the
   fixes inserted (with the classification when with_hw), built only once a fix is needed
   (the block itself is not changed). */
static rdx_status run_block(cg_prog *p, int b, const cg_hw *hw, hz *s, emitted *res, int with_hw)
{
    const cg_block *bl = &p->blocks[b];
    size_t m = 0, cap = 0;
    cg_inst *out = NULL;
    cg_hw *hout = NULL;
    unsigned ins = 0;
    unsigned *inserted = &ins;
    emitted_free(res);
    for (size_t i = 0; i < bl->n; i++) {
        const cg_hw *h = &hw[i];
        const rdx_isa_inst *in = &bl->insts[i].in;
        int need = needs(s, in, h);
        int emit = out != NULL;
        if (need && !emit) { /* the first fix: the instructions before it as they are */
            cap = bl->n + bl->n / 4 + 8;
            out = rdx_scratch_alloc(cap * sizeof *out);
            hout = with_hw ? rdx_scratch_alloc(cap * sizeof *hout) : NULL;
            if (!out || (with_hw && !hout)) {
                rdx_scratch_free(out);
                rdx_scratch_free(hout);
                return rdx_fail(RDX_ERR_NOMEM, "hazards: out of memory");
            }
            memcpy(out, bl->insts, i * sizeof *out);
            if (hout)
                memcpy(hout, hw, i * sizeof *hout);
            m = i;
            emit = 1;
        }
        if (emit && m + 2 > cap) {
            cap = 2 * cap + 2;
            cg_inst *no = rdx_scratch_realloc(out, cap * sizeof *no);
            cg_hw *nh = hout ? rdx_scratch_realloc(hout, cap * sizeof *nh) : NULL;
            if (no)
                out = no;
            if (nh)
                hout = nh;
            if (!no || (hout && !nh)) {
                rdx_scratch_free(out);
                rdx_scratch_free(hout);
                return rdx_fail(RDX_ERR_NOMEM, "hazards: out of memory");
            }
        }
        if (need) {
            cg_inst f = fix_inst(need);
            cg_hw fh;
            cg_hw_classify(p->tgt, &f.in, &fh);
            step(s, &f.in, &fh, p->ct->trans_hazard);
            if (need == 1)
                hz_clear_trans(s); /* the depctr waits for every VALU result */
            if (emit) {
                if (hout)
                    hout[m] = fh;
                out[m++] = f;
                (*inserted)++;
            }
        }
        step(s, in, h, p->ct->trans_hazard);
        if (emit) {
            if (hout)
                hout[m] = *h;
            out[m++] = bl->insts[i];
        }
    }
    res->out = out, res->hout = hout, res->n = m, res->cap = cap, res->inserted = ins;
    return RDX_OK;
}

/* cg_hazards; with hw_out, *hw_out receives the classification of the result (the caller
   frees it with cg_hw_free_prog). */
static rdx_status hazards(cg_prog *p, unsigned *inserted, cg_hw ***hw_out)
{
    size_t nb = p->nblocks;
    unsigned dummy = 0;
    if (!inserted)
        inserted = &dummy;
    *inserted = 0;
    hz *out = malloc((nb + 1) * sizeof *out), cur;
    /* each block's last analysed entry state: a block whose entry did not change keeps its
       exit and is not run again */
    hz *in = malloc((nb + 1) * sizeof *in);
    char *seen = calloc(nb + 1, 1);
    /* every run keeps its output: at the fixed point each block's last run had the final
       entry state, so that output is the block's result (a last pass over every block with
       the final states only when the rounds run out) */
    emitted *res = calloc(nb + 1, sizeof *res);
    cg_hw **hw = cg_hw_classify_prog(p);
    if (!out || !in || !seen || !hw || !res) {
        free(out);
        free(in);
        free(seen);
        free(res);
        cg_hw_free_prog(hw, nb);
        return rdx_fail(RDX_ERR_NOMEM, "hazards: out of memory");
    }
    for (size_t b = 0; b < nb; b++) {
        hz_clear_trans(&out[b]);
        memset(out[b].wmma, 0, sizeof out[b].wmma);
        out[b].nwmma = 0;
    }
    rdx_status st = RDX_OK;
    /* exits to a fixed point (then, if the rounds ran out, one pass with the last states) */
    int converged = 0;
    for (int emit = 0; emit < 2 && !st && !converged; emit++)
        for (int changed = 1, round = 0; changed && !st && round < 64; round++) {
            changed = 0;
            for (size_t b = 0; b < nb && !st; b++) {
                hz_clear_trans(&cur);
                memset(cur.wmma, 0, sizeof cur.wmma);
                cur.nwmma = 0;
                for (size_t q = 0; q < nb; q++)
                    if (p->blocks[q].succ[0] == (int32_t)b || p->blocks[q].succ[1] == (int32_t)b)
                        hz_merge(&cur, &out[q]);
                if (!emit) {
                    if (seen[b] && !memcmp(&cur, &in[b], sizeof cur))
                        continue;
                    in[b] = cur;
                    seen[b] = 1;
                }
                st = run_block(p, (int)b, hw[b], &cur, &res[b], hw_out != NULL);
                if (!emit && memcmp(&cur, &out[b], sizeof cur)) {
                    out[b] = cur;
                    changed = 1;
                }
            }
            if (emit)
                break;
            converged = !changed;
        }
    for (size_t b = 0; b < nb && !st; b++) {
        emitted *e = &res[b];
        if (!e->out)
            continue;
        cg_block *bl = &p->blocks[b];
        rdx_scratch_free(bl->insts);
        bl->insts = e->out, bl->n = e->n, bl->cap = e->cap;
        if (hw_out) {
            rdx_scratch_free(hw[b]);
            hw[b] = e->hout;
        } else
            rdx_scratch_free(e->hout);
        *inserted += e->inserted;
        e->out = NULL, e->hout = NULL;
    }
    for (size_t b = 0; b < nb; b++)
        emitted_free(&res[b]);
    free(res);
    if (!st && hw_out)
        *hw_out = hw;
    else
        cg_hw_free_prog(hw, nb);
    free(out);
    free(in);
    free(seen);
    return st;
}

rdx_status cg_hazards(cg_prog *p, unsigned *inserted)
{
    return hazards(p, inserted, NULL);
}

rdx_status cg_hazards_delay_alu(cg_prog *p)
{
    cg_hw **hw = NULL;
    rdx_status st = hazards(p, NULL, &hw);
    return st ? st : cg_delay_alu_hw(p, NULL, hw);
}
