/*
 * codegen/delay_alu.c — s_delay_alu for gfx11: the SIMD does not switch to
 * another wave while an ALU instruction waits for the result of a recent one,
 * so the program says where such stalls are (`s_delay_alu instid0(...) |
 * instskip(...) | instid1(...)`), and the wave yields instead.  Correctness
 * does not depend on it; throughput on hardware does.
 *
 * The model is LLVM's (AMDGPUInsertDelayAlu with the GFX11 scheduling model,
 * see hw.c for the latencies), so the output matches clang's for the same
 * instruction sequence.  Per register unit we keep the last writer's state:
 * how many non-TRANS VALUs / TRANS were issued since a VALU / TRANS write
 * (VALU_DEP_1..4, TRANS32_DEP_1..3) and the cycles left until it completes,
 * and the cycles left of an SALU write (SALU_CYCLE_1..3).  A SALU/VALU/TRANS
 * instruction reading a unit with a pending write gets the delay; VMEM, DS
 * and EXP instructions (and s_waitcnt_depctr va_vdst(0)) wait for every VALU
 * result, so they clear the state; an SALU or SMEM reading an SGPR a VALU
 * wrote waits for that VALU and every older one.  A second delay within the
 * next five instructions goes into the same s_delay_alu (instskip/instid1).
 * Block entry states merge the predecessors' exits (to a fixed point).
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/cg.h"
#include "util/error.h"
#include "util/scratch.h"

enum { VALU_MAX = 5, TRANS_MAX = 4, SALU_MAX = 4 };

typedef struct dinfo {
    uint8_t valu_cycles, valu_num;
    uint8_t trans_cycles, trans_num, trans_num_valu;
    uint8_t salu_cycles;
} dinfo;

static const dinfo NONE_INFO = { 0, VALU_MAX, 0, TRANS_MAX, VALU_MAX, 0 };

typedef struct dstate {
    dinfo u[CG_HW_UNITS];
    uint64_t live[CG_HW_UNITS / 64]; /* units that may hold a pending write */
} dstate;

static int is_none(const dinfo *d)
{
    return !memcmp(d, &NONE_INFO, sizeof *d);
}

static void st_clear(dstate *s)
{
    for (int i = 0; i < CG_HW_UNITS; i++)
        s->u[i] = NONE_INFO;
    memset(s->live, 0, sizeof s->live);
}

/* st_clear for a state whose non-NONE units are all in `live` (every state after the first
   st_clear keeps that): only those are reset. */
static void st_reset(dstate *s)
{
    for (int w = 0; w < CG_HW_UNITS / 64; w++)
        for (uint64_t lm = s->live[w]; lm; lm &= lm - 1)
            s->u[w * 64 + __builtin_ctzll(lm)] = NONE_INFO;
    memset(s->live, 0, sizeof s->live);
}

/* The entry / exit states kept per block are read through `live` only (their other units
   may hold old values); the working state keeps every unit outside `live` NONE, and its
   live units are exactly its non-NONE ones at block boundaries, so comparing and copying
   the live units is comparing and copying the whole state. */
static void st_copy(dstate *d, const dstate *s)
{
    memcpy(d->live, s->live, sizeof d->live);
    for (int w = 0; w < CG_HW_UNITS / 64; w++)
        for (uint64_t lm = s->live[w]; lm; lm &= lm - 1) {
            int r = w * 64 + __builtin_ctzll(lm);
            d->u[r] = s->u[r];
        }
}

static int st_equal(const dstate *a, const dstate *b)
{
    if (memcmp(a->live, b->live, sizeof a->live))
        return 0;
    for (int w = 0; w < CG_HW_UNITS / 64; w++)
        for (uint64_t lm = a->live[w]; lm; lm &= lm - 1) {
            int r = w * 64 + __builtin_ctzll(lm);
            if (memcmp(&a->u[r], &b->u[r], sizeof a->u[r]))
                return 0;
        }
    return 1;
}

static void st_set(dstate *s, int r, const dinfo *d)
{
    s->u[r] = *d;
    if (!is_none(d))
        s->live[r / 64] |= 1ull << (r % 64);
}

static uint8_t mx(uint8_t a, uint8_t b)
{
    return a > b ? a : b;
}
static uint8_t mn(uint8_t a, uint8_t b)
{
    return a < b ? a : b;
}

static void info_merge(dinfo *d, const dinfo *s)
{
    d->valu_cycles = mx(d->valu_cycles, s->valu_cycles);
    d->valu_num = mn(d->valu_num, s->valu_num);
    d->trans_cycles = mx(d->trans_cycles, s->trans_cycles);
    d->trans_num = mn(d->trans_num, s->trans_num);
    d->trans_num_valu = mn(d->trans_num_valu, s->trans_num_valu);
    d->salu_cycles = mx(d->salu_cycles, s->salu_cycles);
}

static dinfo info_new(int type, unsigned latency)
{
    dinfo d = NONE_INFO;
    if (type == CG_HW_VALU)
        d.valu_cycles = (uint8_t)latency, d.valu_num = 0;
    else if (type == CG_HW_TRANS)
        d.trans_cycles = (uint8_t)latency, d.trans_num = 0, d.trans_num_valu = 0;
    else if (type == CG_HW_SALU)
        d.salu_cycles = (uint8_t)(latency < SALU_MAX ? latency : SALU_MAX);
    return d;
}

/*
 * Aging on demand: instead of info_advance on every pending unit after every instruction,
 * run_block counts the VALUs, TRANS and cycles issued so far in the block (a clock) and each
 * unit keeps the clock of its last write; its current info is its stored one advanced by
 * the difference.  That is exact: a part expires at the first step where its count reaches
 * the limit or its cycles run out, and both sums only grow, so it has expired after k steps
 * iff it would have at the k-th; the values are the stored ones plus / minus the sums.
 * The state goes back to the plain form (every info current, `live` = the non-NONE units)
 * at the end of the block, so block states compare and merge as before.
 */
typedef struct dclock {
    uint32_t valu, trans, cycles;
} dclock;

/* Unit r's info now (`at`: the clock of its write, `now`: the current one). */
static dinfo info_at(const dinfo *base, const dclock *at, const dclock *now)
{
    dinfo d = *base;
    uint32_t dc = now->cycles - at->cycles;
    if (!dc || is_none(&d))
        return d; /* no instruction issued since (each takes at least one cycle) */
    uint32_t dv = now->valu - at->valu, dt = now->trans - at->trans;
    if (d.valu_num + dv >= VALU_MAX || d.valu_cycles <= dc)
        d.valu_num = VALU_MAX, d.valu_cycles = 0;
    else
        d.valu_num = (uint8_t)(d.valu_num + dv), d.valu_cycles = (uint8_t)(d.valu_cycles - dc);
    if (d.trans_num + dt >= TRANS_MAX || d.trans_cycles <= dc)
        d.trans_num = TRANS_MAX, d.trans_num_valu = VALU_MAX, d.trans_cycles = 0;
    else
        d.trans_num = (uint8_t)(d.trans_num + dt),
        d.trans_num_valu = (uint8_t)(d.trans_num_valu + dv),
        d.trans_cycles = (uint8_t)(d.trans_cycles - dc);
    d.salu_cycles = d.salu_cycles <= dc ? 0 : (uint8_t)(d.salu_cycles - dc);
    return d;
}

static int waits_for_valu(const rdx_isa_inst *in, const cg_hw *h)
{
    return h->type == CG_HW_VMEM || h->type == CG_HW_DS || h->type == CG_HW_EXP ||
           in->op == RDX_ISA_OP_S_SENDMSG_RTN_B32 || in->op == RDX_ISA_OP_S_SENDMSG_RTN_B64 ||
           (in->op == RDX_ISA_OP_S_WAITCNT_DEPCTR && in->nopnd >= 1 &&
            ((in->opnd[0].value >> 12) & 15) == 0);
}

/* The s_delay_alu field for waiting on `d` (0: nothing to wait for). */
static unsigned delay_imm(const dinfo *d)
{
    unsigned imm = 0;
    if (d->trans_num < TRANS_MAX)
        imm |= 4u + d->trans_num;
    if (d->valu_num < VALU_MAX && d->valu_num <= d->trans_num_valu)
        imm |= (imm & 15) ? (unsigned)d->valu_num << 7 : d->valu_num;
    if (d->salu_cycles) {
        if (imm & 0x780)
            ; /* no room left for the SALU delay: dropped, as LLVM does */
        else if (imm & 15)
            imm |= (d->salu_cycles + 8u) << 7;
        else
            imm |= d->salu_cycles + 8u;
    }
    return imm;
}

static cg_inst delay_inst(unsigned imm)
{
    cg_inst f;
    memset(&f, 0, sizeof f);
    f.target = -1;
    f.in.op = RDX_ISA_OP_S_DELAY_ALU;
    f.in.form = RDX_ISA_FORM_NATIVE;
    f.in.nopnd = 1;
    f.in.opnd[0] = rdx_isa_imm((int32_t)imm);
    return f;
}

/* The delays a block's last run inserts: before instruction at[k], s_delay_alu imm[k]
   (the block is rebuilt once, at the end). */
typedef struct emitted {
    struct {
        uint32_t at, imm;
    } *d;
    size_t n, cap;
} emitted;

/* Run block b from entry state s (left as its exit state); with emit, *res gets the delays
   to insert (the block itself is not changed). */
static rdx_status run_block(cg_prog *p, int b, const cg_hw *hw, dstate *s, int emit, emitted *res)
{
    long last_delay = -1;  /* output position of an s_delay_alu with room for a second delay */
    size_t last_entry = 0; /* ... and its entry in res->d */
    int last_sgpr_from_valu = -1;
    const cg_block *bl = &p->blocks[b];
    size_t m = 0; /* output position: instructions and delays so far */
    if (emit)
        res->n = 0;
    /* the clock and each pending unit's write time (entry units: written at 0) */
    dclock now = { 0, 0, 0 }, at[CG_HW_UNITS];
    for (int w = 0; w < CG_HW_UNITS / 64; w++)
        for (uint64_t lm = s->live[w]; lm; lm &= lm - 1)
            at[w * 64 + __builtin_ctzll(lm)] = now;
    for (size_t i = 0; i < bl->n; i++) {
        const rdx_isa_inst *in = &bl->insts[i].in;
        if (in->op == RDX_ISA_OP_S_DELAY_ALU) {
            m++;
            continue;
        }
        const cg_hw *h = &hw[i];
        if ((h->type == CG_HW_SALU || h->type == CG_HW_SMEM) && last_sgpr_from_valu >= 0) {
            int lr = last_sgpr_from_valu;
            dinfo li =
                (s->live[lr / 64] >> (lr % 64) & 1) ? info_at(&s->u[lr], &at[lr], &now) : s->u[lr];
            if (!is_none(&li)) {
                for (int w = 0; w < CG_HW_UNITS / 64; w++)
                    for (uint64_t lm = s->live[w]; lm; lm &= lm - 1) {
                        int r = w * 64 + __builtin_ctzll(lm);
                        dinfo e = info_at(&s->u[r], &at[r], &now);
                        if ((e.valu_num >= li.valu_num && e.valu_cycles > 0) || is_none(&e)) {
                            s->u[r] = NONE_INFO;
                            s->live[w] &= ~(1ull << (r % 64));
                        }
                    }
                last_sgpr_from_valu = -1;
            }
        }
        if (waits_for_valu(in, h)) {
            st_reset(s);
        } else if (h->type != CG_HW_OTHER && h->type != CG_HW_SMEM && h->type != CG_HW_VMEM &&
                   h->type != CG_HW_DS && h->type != CG_HW_EXP) {
            dinfo d = NONE_INFO;
            for (int k = 0; k < h->nuse; k++) {
                int r = h->use[k];
                /* v_writelane's destination is also read (the other lanes): LLVM ignores it */
                if (in->op == RDX_ISA_OP_V_WRITELANE_B32 && r >= 256)
                    continue;
                if (!(s->live[r / 64] >> (r % 64) & 1))
                    continue; /* not pending (NONE) */
                dinfo e = info_at(&s->u[r], &at[r], &now);
                if (!is_none(&e))
                    info_merge(&d, &e);
                s->u[r] = NONE_INFO;
                s->live[r / 64] &= ~(1ull << (r % 64));
            }
            if (h->type == CG_HW_VALU || h->type == CG_HW_TRANS)
                for (int k = 0; k < h->ndef; k++)
                    if (h->def[k] < 256) {
                        last_sgpr_from_valu = h->def[k];
                        break;
                    }
            unsigned imm = emit ? delay_imm(&d) : 0;
            if (imm) {
                long skip = last_delay >= 0 ? (long)m - last_delay - 1 : 99;
                if (!(imm & 0x780) && last_delay >= 0 && skip < 6) {
                    res->d[last_entry].imm |= imm << 7 | (unsigned)skip << 4;
                    last_delay = -1;
                } else {
                    if (res->n == res->cap) {
                        size_t nc = res->cap ? 2 * res->cap : 64;
                        void *nd = realloc(res->d, nc * sizeof *res->d);
                        if (!nd)
                            return rdx_fail(RDX_ERR_NOMEM, "s_delay_alu: out of memory");
                        res->d = nd, res->cap = nc;
                    }
                    res->d[res->n].at = (uint32_t)i;
                    res->d[res->n].imm = imm;
                    last_entry = res->n++;
                    last_delay = (imm & 0x780) ? -1 : (long)m;
                    m++;
                }
            }
        }
        if (h->type == CG_HW_SALU || h->type == CG_HW_VALU || h->type == CG_HW_TRANS) {
            dinfo n = info_new(h->type, h->latency);
            for (int k = 0; k < h->ndef; k++) {
                st_set(s, h->def[k], &n);
                at[h->def[k]] = now; /* advanced by this instruction too, as every unit */
            }
        }
        m++;
        now.valu += h->type == CG_HW_VALU;
        now.trans += h->type == CG_HW_TRANS;
        now.cycles += h->cycles;
    }
    /* back to the plain form: every pending unit's info current, NONE ones not live */
    for (int w = 0; w < CG_HW_UNITS / 64; w++)
        for (uint64_t lm = s->live[w]; lm; lm &= lm - 1) {
            int r = w * 64 + __builtin_ctzll(lm);
            s->u[r] = info_at(&s->u[r], &at[r], &now);
            if (is_none(&s->u[r]))
                s->live[w] &= ~(1ull << (r % 64));
        }
    return RDX_OK;
}

/* Block b with the delays of *e inserted. */
static rdx_status insert_delays(cg_prog *p, int b, const emitted *e)
{
    cg_block *bl = &p->blocks[b];
    if (!e->n)
        return RDX_OK;
    cg_inst *out = rdx_scratch_alloc((bl->n + e->n) * sizeof *out);
    if (!out)
        return rdx_fail(RDX_ERR_NOMEM, "s_delay_alu: out of memory");
    size_t m = 0, k = 0;
    for (size_t i = 0; i < bl->n; i++) {
        for (; k < e->n && e->d[k].at == i; k++)
            out[m++] = delay_inst(e->d[k].imm);
        out[m++] = bl->insts[i];
    }
    rdx_scratch_free(bl->insts);
    bl->insts = out, bl->n = m, bl->cap = m;
    return RDX_OK;
}

rdx_status cg_delay_alu(cg_prog *p, unsigned *inserted)
{
    cg_hw **hw = cg_hw_classify_prog(p);
    if (!hw)
        return rdx_fail(RDX_ERR_NOMEM, "s_delay_alu: out of memory");
    return cg_delay_alu_hw(p, inserted, hw);
}

rdx_status cg_delay_alu_hw(cg_prog *p, unsigned *inserted, cg_hw **hw)
{
    size_t nb = p->nblocks;
    unsigned dummy = 0;
    if (!inserted)
        inserted = &dummy;
    *inserted = 0;
    dstate *out = malloc((nb + 1) * sizeof *out), *cur = malloc(sizeof *cur);
    /* each block's last analysed entry state: run_block is a function of it, so a block whose
       entry did not change keeps its exit and is not run again */
    dstate *in = malloc((nb + 1) * sizeof *in);
    char *seen = calloc(nb + 1, 1);
    /* every run emits: at the fixed point each block's last run had the final entry state,
       so its output is the block's result (only when the rounds run out is an emitting pass
       with the final states needed) */
    emitted *res = calloc(nb + 1, sizeof *res);
    rdx_status st = RDX_OK;
    if (!out || !cur || !in || !seen || !hw || !res) {
        st = rdx_fail(RDX_ERR_NOMEM, "s_delay_alu: out of memory");
        goto done;
    }
    for (size_t b = 0; b < nb; b++)
        memset(out[b].live, 0, sizeof out[b].live); /* read through live only */
    st_clear(cur);
    int converged = 0;
    for (int pass = 0; pass < 2 && !st && !converged; pass++)
        for (int changed = 1, round = 0; changed && !st && round < 64; round++) {
            int emit = pass; /* the fallback pass: every block once with the last states */
            changed = 0;
            for (size_t b = 0; b < nb && !st; b++) {
                st_reset(cur);
                /* a unit outside `live` holds no pending write: only live ones are merged */
                for (size_t q = 0; q < nb; q++)
                    if (p->blocks[q].succ[0] == (int32_t)b || p->blocks[q].succ[1] == (int32_t)b)
                        for (int w = 0; w < CG_HW_UNITS / 64; w++)
                            for (uint64_t lm = out[q].live[w]; lm; lm &= lm - 1) {
                                int r = w * 64 + __builtin_ctzll(lm);
                                if (!is_none(&out[q].u[r])) {
                                    info_merge(&cur->u[r], &out[q].u[r]);
                                    cur->live[r / 64] |= 1ull << (r % 64);
                                }
                            }
                if (!emit) {
                    if (seen[b] && st_equal(cur, &in[b]))
                        continue;
                    st_copy(&in[b], cur);
                    seen[b] = 1;
                }
                st = run_block(p, (int)b, hw[b], cur, 1, &res[b]);
                if (!emit && !st_equal(cur, &out[b])) {
                    st_copy(&out[b], cur);
                    changed = 1;
                }
            }
            if (emit)
                break;
            converged = !changed;
        }
    for (size_t b = 0; b < nb && !st; b++) {
        st = insert_delays(p, (int)b, &res[b]);
        *inserted += (unsigned)res[b].n;
    }
done:
    for (size_t b = 0; res && b < nb; b++)
        free(res[b].d);
    free(res);
    cg_hw_free_prog(hw, nb);
    free(out);
    free(cur);
    free(in);
    free(seen);
    return st;
}
