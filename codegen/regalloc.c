/*
 * codegen/regalloc.c — the register plan: liveness over the control-flow
 * graph (block live-in/live-out sets, iterated to a fixed point), one live
 * interval per virtual register (from its first to its last live position,
 * covering whole loops it is live around), and linear-scan assignment.
 *
 * Files: SGPRs s0..s105 (VCC is not allocated), VGPRs v0..v255.  SGPR
 * ranges of 2 dwords are even-aligned, 4 and more 4-aligned; VGPR ranges
 * need no alignment on gfx11.  An early-clobber instruction (CG_F_EARLY: WMMA, whose
 * D must not overlap its sources on gfx11) keeps its sources live through its def,
 * so the def never reuses their registers.  Pre-coloured ABI registers (kernarg pointer,
 * workgroup ids, v0) keep their registers for the whole kernel.  A write of a
 * register's first dword that is not under a narrowed EXEC kills the old
 * value.
 *
 * Spilling, only when a file runs out: when an interval finds no register,
 * the interval among it and the ones holding registers of its file at that
 * point whose end is furthest away is spilled (Poletto & Sarkar's rule) and
 * its registers are freed; the scan goes on, so one round picks every spill.
 * spill.c then rewrites the program (temporaries reloaded before / stored
 * after each instruction naming a spilled register), linearize places the
 * waits again, and the plan starts over.  Temporaries are never spilled, so
 * this ends; a kernel where one point needs more than the file even so is
 * RDX_ERR_RANGE naming the file.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/cg.h"
#include "util/error.h"

#define NSGPR 106
#define NVGPR 256

typedef struct iv {
    uint32_t vr;
    uint32_t start, end;
} iv;

/* ivs[0..n), made in increasing vr order, sorted by (start, vr): a counting sort by start
   (stable, so equal starts keep their vr order); tmp has room for n.  0 on out-of-memory. */
static int sort_ivs(iv *ivs, iv *tmp, size_t n)
{
    uint32_t top = 0;
    for (size_t i = 0; i < n; i++)
        top = ivs[i].start > top ? ivs[i].start : top;
    uint32_t *cnt = calloc((size_t)top + 2, sizeof *cnt);
    if (!cnt)
        return 0;
    for (size_t i = 0; i < n; i++)
        cnt[ivs[i].start + 1]++;
    for (uint32_t s = 0; s <= top; s++)
        cnt[s + 1] += cnt[s];
    for (size_t i = 0; i < n; i++)
        tmp[cnt[ivs[i].start]++] = ivs[i];
    memcpy(ivs, tmp, n * sizeof *ivs);
    free(cnt);
    return 1;
}

/* Live intervals of every virtual register: start[v] = UINT32_MAX when unused. */
static rdx_status intervals(const cg_prog *p, uint32_t *start, uint32_t *end)
{
    size_t nv = p->nvregs, nb = p->nblocks;
    size_t words = (nv + 63) / 64;
    uint64_t *mem = calloc(words * nb * 4 + 1, sizeof(uint64_t));
    if (!mem)
        return rdx_fail(RDX_ERR_NOMEM, "regalloc: out of memory");
    uint64_t *use = mem, *def = mem + words * nb, *lin = mem + 2 * words * nb,
             *lout = mem + 3 * words * nb;
#define BIT(s, b, v) ((s)[(size_t)(b) * words + (v) / 64] & (1ull << ((v) % 64)))
#define SET(s, b, v) ((s)[(size_t)(b) * words + (v) / 64] |= (1ull << ((v) % 64)))
    for (size_t b = 0; b < nb; b++) {
        const cg_block *bl = &p->blocks[b];
        for (size_t i = 0; i < bl->n; i++) {
            const cg_inst *in = &bl->insts[i];
            for (int k = in->ndef; k < in->in.nopnd; k++)
                if (in->vr[k] && !BIT(def, b, in->vr[k]))
                    SET(use, b, in->vr[k]);
            for (int k = 0; k < in->ndef; k++) {
                uint32_t v = in->vr[k];
                if (!v)
                    continue;
                int kills = !(in->flags & CG_F_PARTIAL) && in->in.opnd[k].reg == 0;
                if (kills)
                    SET(def, b, v);
                else if (!BIT(def, b, v))
                    SET(use, b, v);
            }
        }
    }
    /* live-in = use | (live-out & ~def); live-out = union of successors' live-in */
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t bb = nb; bb-- > 0;) {
            const cg_block *bl = &p->blocks[bb];
            for (size_t w = 0; w < words; w++) {
                uint64_t o = 0;
                for (int s = 0; s < 2; s++)
                    if (bl->succ[s] >= 0)
                        o |= lin[(size_t)bl->succ[s] * words + w];
                uint64_t in = use[bb * words + w] | (o & ~def[bb * words + w]);
                if (o != lout[bb * words + w] || in != lin[bb * words + w])
                    changed = 1;
                lout[bb * words + w] = o;
                lin[bb * words + w] = in;
            }
        }
    }
    for (size_t v = 0; v < nv; v++)
        start[v] = UINT32_MAX, end[v] = 0;
    for (size_t b = 0; b < nb; b++) {
        const cg_block *bl = &p->blocks[b];
        uint32_t b0 = 2 * bl->start, b1 = 2 * (bl->start + (uint32_t)bl->n);
        /* the registers live into / out of the block, by their set bits */
        for (size_t w = 0; w < words; w++) {
            for (uint64_t m = lin[b * words + w]; m; m &= m - 1) {
                size_t v = w * 64 + (size_t)__builtin_ctzll(m);
                start[v] = b0 < start[v] ? b0 : start[v];
                end[v] = b0 > end[v] ? b0 : end[v];
            }
            for (uint64_t m = lout[b * words + w]; m; m &= m - 1) {
                size_t v = w * 64 + (size_t)__builtin_ctzll(m);
                end[v] = b1 > end[v] ? b1 : end[v];
                start[v] = b1 < start[v] ? b1 : start[v];
            }
        }
        for (size_t i = 0; i < bl->n; i++) {
            const cg_inst *in = &bl->insts[i];
            uint32_t pos = 2 * (bl->start + (uint32_t)i);
            for (int k = 0; k < in->in.nopnd; k++) {
                uint32_t v = in->vr[k];
                if (!v)
                    continue;
                /* an early-clobber def (WMMA) must not take a source's registers:
                   its sources are live up to the def */
                uint32_t q = k < in->ndef || (in->flags & CG_F_EARLY) ? pos + 1 : pos;
                start[v] = q < start[v] ? q : start[v];
                end[v] = q > end[v] ? q : end[v];
            }
        }
        /* a memory load whose result is never read still writes its register when it
           returns: keep the register until the block's end, where everything is waited for */
        for (size_t i = 0; i < bl->n; i++) {
            const cg_inst *in = &bl->insts[i];
            if (!(in->flags & (CG_F_VMEM_LOAD | CG_F_LGKM)) || !in->ndef || !in->vr[0])
                continue;
            uint32_t v = in->vr[0], q = 2 * (bl->start + (uint32_t)i) + 1;
            if (end[v] == q && !BIT(lout, b, v))
                end[v] = b1;
        }
    }
#undef BIT
#undef SET
    free(mem);
    return RDX_OK;
}

/* Linear scan over ivs[0..n); spill[v] is set for the registers to spill
   (*nspill of them).  RDX_OK with *nspill = 0 when everything has a register. */
/*
 * The registers free at the current interval's start, as bitmaps (bit r: not
 * pre-coloured and busy_until[r] <= start), kept up to date by release lists per
 * time (an assignment files its registers under busy_until; the scan releases every
 * list up to the next interval's start, in increasing start order): the first-fit
 * search reads words, not every register's busy_until.
 */
typedef struct rel {
    uint32_t t;    /* busy_until at assignment */
    uint16_t file; /* CG_S / CG_V */
    uint16_t reg;
} rel;

typedef struct freeset {
    uint64_t bm[2][NVGPR / 64];
    int32_t *head;   /* per time below nt: its last entry, -1 none */
    uint32_t nt;     /* times 0..nt-1 */
    uint32_t next_t; /* the lists of earlier times are released */
    rel *ent;
    int32_t *link; /* the entry filed before ent[k] under the same time, -1 */
    size_t n, cap;
} freeset;

static void fs_set(freeset *F, int f, unsigned r)
{
    F->bm[f][r / 64] |= 1ull << (r % 64);
}

/* File x under its time (x.t < F->nt). 0 on out-of-memory. */
static int fs_push(freeset *F, rel x)
{
    if (F->n == F->cap) {
        size_t nc = F->cap ? 2 * F->cap : 256;
        rel *ne = realloc(F->ent, nc * sizeof *ne);
        if (ne)
            F->ent = ne;
        int32_t *nl = ne ? realloc(F->link, nc * sizeof *nl) : NULL;
        if (!nl)
            return 0;
        F->link = nl, F->cap = nc;
    }
    F->ent[F->n] = x;
    F->link[F->n] = F->head[x.t];
    F->head[x.t] = (int32_t)F->n++;
    return 1;
}

/* The lowest al-aligned reg with bits reg..reg+sz-1 set and reg + sz <= lim, or -1. */
static int first_fit(const uint64_t *bm, unsigned lim, unsigned sz, unsigned al)
{
    unsigned reg = 0;
    while (reg + sz <= lim) {
        unsigned w = reg / 64;
        uint64_t x = bm[w] & (~0ull << (reg % 64));
        while (!x && ++w < NVGPR / 64)
            x = bm[w];
        if (!x)
            return -1;
        unsigned b = w * 64 + (unsigned)__builtin_ctzll(x);
        reg = (b + al - 1) / al * al; /* aligned starts below b hold a taken register */
        if (reg + sz > lim)
            return -1;
        unsigned k = 0;
        while (k < sz && (bm[(reg + k) / 64] >> ((reg + k) % 64) & 1))
            k++;
        if (k == sz)
            return (int)reg;
        reg += k + 1; /* every start up to reg + k covers the taken reg + k */
    }
    return -1;
}

static rdx_status scan(cg_prog *p, const iv *ivs, size_t n, uint8_t *spill, unsigned *nspill)
{
    uint32_t busy_until[2][NVGPR]; /* position after which the register is free */
    int32_t owner[2][NVGPR];       /* interval holding it (index into ivs), -1 none */
    uint8_t fixed[2][NVGPR];
    memset(busy_until, 0, sizeof busy_until);
    memset(fixed, 0, sizeof fixed);
    for (int f = 0; f < 2; f++)
        for (int r = 0; r < NVGPR; r++)
            owner[f][r] = -1;
    uint32_t hi[2] = { 0, 0 };
    *nspill = 0;
    for (size_t v = 1; v < p->nvregs; v++) {
        const cg_vreg *r = &p->vregs[v];
        if (!r->fixed)
            continue;
        for (unsigned w = 0; w < r->size; w++)
            fixed[r->file][r->phys + w] = 1;
        uint32_t top = (uint32_t)r->phys + r->size;
        hi[r->file] = top > hi[r->file] ? top : hi[r->file];
    }
    freeset F;
    memset(&F, 0, sizeof F);
    /* release times are interval ends + 1 */
    for (size_t i = 0; i < n; i++)
        F.nt = ivs[i].end + 2 > F.nt ? ivs[i].end + 2 : F.nt;
    F.head = malloc(((size_t)F.nt + 1) * sizeof *F.head);
    if (!F.head)
        return rdx_fail(RDX_ERR_NOMEM, "regalloc: out of memory");
    for (uint32_t t = 0; t < F.nt; t++)
        F.head[t] = -1;
    for (int f = 0; f < 2; f++)
        for (unsigned reg = 0; reg < (f == CG_S ? NSGPR : NVGPR); reg++)
            if (!fixed[f][reg])
                fs_set(&F, f, reg);
    rdx_status st = RDX_OK;
    /* VGPRs: as many as a whole workgroup can have on gfx1100 (hw.c) */
    const unsigned vlim = cg_max_vgprs(p);
    for (size_t i = 0; i < n; i++) {
        cg_vreg *r = &p->vregs[ivs[i].vr];
        int f = r->file;
        unsigned lim = f == CG_S ? NSGPR : vlim, al = r->align ? r->align : 1;
        int found = -1;
        for (; F.next_t <= ivs[i].start && F.next_t < F.nt; F.next_t++) /* free by now */
            for (int32_t e = F.head[F.next_t]; e >= 0; e = F.link[e]) {
                rel x = F.ent[e];
                if (busy_until[x.file][x.reg] <= ivs[i].start && !fixed[x.file][x.reg])
                    fs_set(&F, x.file, x.reg);
            }
        for (;;) {
            found = first_fit(F.bm[f], lim, r->size, al);
            if (found >= 0)
                break;
            /* spill the interval that ends furthest away: this one or a holder */
            int64_t best = r->nospill ? -1 : (int64_t)i;
            uint32_t best_end = r->nospill ? 0 : ivs[i].end;
            for (unsigned reg = 0; reg < lim; reg++) {
                int32_t j = owner[f][reg];
                if (j < 0 || busy_until[f][reg] <= ivs[i].start || p->vregs[ivs[j].vr].nospill)
                    continue;
                if (best < 0 || ivs[j].end > best_end)
                    best = j, best_end = ivs[j].end;
            }
            if (best < 0) {
                free(F.head), free(F.ent), free(F.link);
                return rdx_fail(RDX_ERR_RANGE,
                                "regalloc: the kernel needs more than %u %s at one point, "
                                "even with spilling",
                                lim, f == CG_S ? "SGPRs" : "VGPRs");
            }
            spill[ivs[best].vr] = 1;
            (*nspill)++;
            if (best == (int64_t)i)
                break;
            for (unsigned reg = 0; reg < lim; reg++)
                if (owner[f][reg] == (int32_t)best) {
                    owner[f][reg] = -1, busy_until[f][reg] = 0;
                    if (!fixed[f][reg])
                        fs_set(&F, f, reg);
                }
        }
        if (found < 0)
            continue;
        r->phys = (int16_t)found;
        for (unsigned w = 0; w < r->size; w++) {
            busy_until[f][found + w] = ivs[i].end + 1;
            owner[f][found + w] = (int32_t)i;
            F.bm[f][(found + w) / 64] &= ~(1ull << ((found + w) % 64));
            if (!fs_push(&F, (rel){ ivs[i].end + 1, (uint16_t)f, (uint16_t)(found + w) }))
                st = rdx_fail(RDX_ERR_NOMEM, "regalloc: out of memory");
        }
        if (st)
            break;
        uint32_t top = (uint32_t)found + r->size;
        hi[f] = top > hi[f] ? top : hi[f];
    }
    free(F.head), free(F.ent), free(F.link);
    if (st)
        return st;
    p->num_sgprs = hi[CG_S];
    p->num_vgprs = hi[CG_V] ? hi[CG_V] : 1;
    return RDX_OK;
}

#define MAX_ROUNDS 16

rdx_status cg_regalloc(cg_prog *p)
{
    uint32_t *start = NULL, *end = NULL;
    iv *ivs = NULL, *tmp = NULL;
    uint8_t *spill = NULL;
    rdx_status st = RDX_OK;
    for (int round = 0;; round++) {
        size_t nv = p->nvregs;
        free(start), free(end), free(ivs), free(tmp), free(spill);
        start = malloc((nv + 1) * sizeof *start), end = malloc((nv + 1) * sizeof *end);
        ivs = malloc((nv + 1) * sizeof *ivs), tmp = malloc((nv + 1) * sizeof *tmp);
        spill = calloc(nv + 1, 1);
        if (!start || !end || !ivs || !tmp || !spill) {
            st = rdx_fail(RDX_ERR_NOMEM, "regalloc: out of memory");
            goto out;
        }
        if ((st = intervals(p, start, end)))
            goto out;
        size_t n = 0;
        for (size_t v = 1; v < nv; v++) {
            if (!p->vregs[v].fixed)
                p->vregs[v].phys = -1;
            if (start[v] != UINT32_MAX && !p->vregs[v].fixed)
                ivs[n++] = (iv){ (uint32_t)v, start[v], end[v] };
        }
        if (!sort_ivs(ivs, tmp, n)) {
            st = rdx_fail(RDX_ERR_NOMEM, "regalloc: out of memory");
            goto out;
        }
        unsigned nspill;
        if ((st = scan(p, ivs, n, spill, &nspill)))
            goto out;
        if (!nspill)
            break;
        if (round + 1 >= MAX_ROUNDS) {
            st = rdx_fail(RDX_ERR_RANGE,
                          "regalloc: still out of registers after %d rounds of "
                          "spilling",
                          MAX_ROUNDS);
            goto out;
        }
        if ((st = cg_spill_insert(p, spill)) || (st = cg_linearize(p)))
            goto out;
    }
    /* rewrite operands */
    for (size_t b = 0; b < p->nblocks; b++) {
        cg_block *bl = &p->blocks[b];
        for (size_t i = 0; i < bl->n; i++) {
            cg_inst *in = &bl->insts[i];
            for (int k = 0; k < in->in.nopnd; k++) {
                uint32_t v = in->vr[k];
                if (!v)
                    continue;
                if (p->vregs[v].phys < 0) {
                    st = rdx_fail(RDX_ERR_INVALID, "regalloc: register %%%u has no assignment", v);
                    goto out;
                }
                in->in.opnd[k].reg = (uint16_t)(in->in.opnd[k].reg + p->vregs[v].phys);
            }
        }
    }
out:
    free(start);
    free(end);
    free(ivs);
    free(tmp);
    free(spill);
    return st;
}
