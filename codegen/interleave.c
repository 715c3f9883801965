/*
 * codegen/interleave.c — VALU interleaving: within each run of consecutive VALU
 * instructions of a block (virtual registers, before linearize places the waits),
 * an instruction that reads the result of a recent one is moved down behind
 * independent ones, so the two are INTERLEAVE_DIST instructions apart.
 *
 * Why: a VALU result is ready 5 cycles after issue (LLVM's GFX11 model, hw.c); a
 * wave whose next instruction reads it stalls (s_delay_alu says so, and on silicon
 * the SIMD then issues nothing for this wave).  Expand builds each accumulator's
 * unrolled reduction as one chain (acc = fma(a0, b0, acc); acc = fma(a1, b1, acc);
 * ...) and isel emits the chains one after the other: an 8x4 register tile with k
 * unrolled by 4 issued 32 chains of 4 dependent FMAs, each FMA after the first
 * waiting for the one before.  Interleaved, the FMAs of different accumulators
 * alternate: no stall, no s_delay_alu, and neighbours are independent, so VOPD
 * (render_vopd.c) can dual-issue them.  INTERLEAVE_DIST is 10, not 5, so that a
 * dependent pair stays 5 issue slots apart after VOPD fuses neighbours two by two.
 *
 * How: list scheduling of the run's dependence graph (read after write, write after
 * read, write after write on whole virtual registers), the original order as the
 * priority: the next instruction is the first one, in original order, among the
 * INTERLEAVE_WINDOW oldest not yet placed whose operands are ready and whose
 * producers in the run are INTERLEAVE_DIST or more instructions back; if none is,
 * the ready one whose producers are furthest back.  The window bounds how far an
 * instruction moves up, and so how much longer values live (register pressure).
 * Only plain VALU instructions move (not TRANS, WMMA, DPP-free or not: any op whose
 * every register operand is a virtual register and that has no implicit operand
 * such as VCC or EXEC); anything else ends a run, so memory, SALU, EXEC and wait
 * order are unchanged.  The result is the same computation in another order:
 * every value is computed from the same operands.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/cg.h"
#include "util/error.h"

#define INTERLEAVE_DIST   16
#define INTERLEAVE_WINDOW 64
#define PLACED            UINT32_MAX

/* Whether an (op, form) may move at all: a plain VALU encoding (not VOPC, which writes
   EXEC or VCC, VOPD or VINTERP), not TRANS or WMMA, no implicit VCC operand (e32 carries,
   cndmask).  A pure function of its key, memoised per thread, direct-mapped. */
typedef struct op_memo {
    const rdx_isa_target *t; /* NULL: empty */
    uint16_t op;
    uint8_t form, ok;
} op_memo;
#define OP_MEMO 256
static _Thread_local op_memo op_memos[OP_MEMO];

static int op_movable(const rdx_isa_target *t, const cg_inst *in)
{
    op_memo *m = &op_memos[(in->in.op * 7u + in->in.form) % OP_MEMO];
    if (m->t == t && m->op == in->in.op && m->form == in->in.form)
        return m->ok;
    const rdx_isa_form_info *fi = cg_form(t, (rdx_isa_op)in->in.op, (rdx_isa_form)in->in.form);
    int ok = fi != NULL;
    switch (fi ? fi->enc : -1) {
    case RDX_ISA_ENC_VOP1:
    case RDX_ISA_ENC_VOP2:
    case RDX_ISA_ENC_VOP3:
    case RDX_ISA_ENC_VOP3SD:
    case RDX_ISA_ENC_VOP3P:
        break;
    default:
        ok = 0;
    }
    if (ok) {
        cg_hw h; /* the class: from the op alone (the operands' units are not used) */
        cg_hw_classify(t, &in->in, &h);
        ok = h.type == CG_HW_VALU && !h.wmma;
        for (unsigned k = 0; ok && k < fi->nopnd; k++)
            ok = fi->opnd[k].role != RDX_ISA_ROLE_VCC;
    }
    *m = (op_memo){ t, in->in.op, in->in.form, (uint8_t)ok };
    return ok;
}

/* May instruction `in` move within a run of VALU instructions? */
static int movable(const cg_prog *p, const cg_inst *in)
{
    if (in->flags & (CG_F_BRANCH | CG_F_WAITCNT | CG_F_SPILL | CG_F_EARLY | CG_F_LONGBR |
                     CG_F_VMEM_LOAD | CG_F_VMEM_STORE | CG_F_LGKM | CG_F_BARRIER))
        return 0;
    if (!op_movable(p->tgt, in))
        return 0;
    for (unsigned k = 0; k < in->in.nopnd; k++) {
        unsigned kind = in->in.opnd[k].kind;
        if (kind == RDX_ISA_OPND_SPECIAL)
            return 0;
        if ((kind == RDX_ISA_OPND_VGPR || kind == RDX_ISA_OPND_SGPR) && !in->vr[k])
            return 0; /* a physical register: not tracked here */
    }
    return 1;
}

typedef struct edge {
    uint32_t to, next; /* successor; next edge of the same source (UINT32_MAX: none) */
    uint8_t raw;       /* read after write: the successor waits for the result */
} edge;

typedef struct il {
    /* per vreg: last writer in the run (+1, 0: none), head of its readers since then */
    uint32_t *def, *rhead;
    uint32_t *touched; /* vregs whose def/rhead entries are set */
    size_t ntouched;
    /* readers list nodes: instruction, next */
    uint32_t *rd_inst, *rd_next;
    size_t nrd, rdcap, rdcap2;
    edge *e;
    size_t ne, ecap;
    /* per instruction of the run */
    /* indeg: predecessors not yet placed; PLACED once placed (one load tells both) */
    uint32_t *ehead, *indeg, *ready_at, *out_pos, *order;
    size_t cap;
} il;

static int grow(void **a, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 1;
    size_t nc = *cap ? *cap : 64;
    while (nc < need)
        nc *= 2;
    void *n = realloc(*a, nc * size);
    if (!n)
        return 0;
    *a = n;
    *cap = nc;
    return 1;
}

static int add_edge(il *s, uint32_t from, uint32_t to, int raw)
{
    if (from == to)
        return 1;
    if (!grow((void **)&s->e, &s->ecap, s->ne + 1, sizeof *s->e))
        return 0;
    s->e[s->ne] = (edge){ to, s->ehead[from], (uint8_t)raw };
    s->ehead[from] = (uint32_t)s->ne++;
    s->indeg[to]++;
    return 1;
}

static void touch(il *s, uint32_t v)
{
    if (!s->def[v] && s->rhead[v] == UINT32_MAX)
        s->touched[s->ntouched++] = v;
}

/* The dependence edges of the run insts[0..n). */
static int build(il *s, const cg_inst *insts, size_t n)
{
    s->ne = s->nrd = 0;
    for (size_t i = 0; i < n; i++) {
        s->ehead[i] = UINT32_MAX;
        s->indeg[i] = s->ready_at[i] = 0;
    }
    for (size_t i = 0; i < n; i++) {
        const cg_inst *in = &insts[i];
        /* reads: after the last writer (RAW) */
        for (unsigned k = in->ndef; k < in->in.nopnd; k++) {
            uint32_t v = in->vr[k];
            if (!v)
                continue;
            if (s->def[v] && !add_edge(s, s->def[v] - 1, (uint32_t)i, 1))
                return 0;
            touch(s, v);
            if (!grow((void **)&s->rd_inst, &s->rdcap, s->nrd + 1, sizeof *s->rd_inst) ||
                !grow((void **)&s->rd_next, &s->rdcap2, s->nrd + 1, sizeof *s->rd_next))
                return 0;
            s->rd_inst[s->nrd] = (uint32_t)i;
            s->rd_next[s->nrd] = s->rhead[v];
            s->rhead[v] = (uint32_t)s->nrd++;
        }
        /* writes: after the last writer (WAW) and its readers since (WAR) */
        for (unsigned k = 0; k < in->ndef && k < in->in.nopnd; k++) {
            uint32_t v = in->vr[k];
            if (!v)
                continue;
            if (s->def[v] && !add_edge(s, s->def[v] - 1, (uint32_t)i, 0))
                return 0;
            for (uint32_t r = s->rhead[v]; r != UINT32_MAX; r = s->rd_next[r])
                if (!add_edge(s, s->rd_inst[r], (uint32_t)i, 0))
                    return 0;
            touch(s, v);
            s->rhead[v] = UINT32_MAX;
            s->def[v] = (uint32_t)i + 1;
        }
    }
    for (size_t t = 0; t < s->ntouched; t++) {
        s->def[s->touched[t]] = 0;
        s->rhead[s->touched[t]] = UINT32_MAX;
    }
    s->ntouched = 0;
    return 1;
}

/* The new order of the run (s->order[0..n)); returns whether it differs. */
static int place(il *s, size_t n)
{
    size_t first = 0;
    int moved = 0;
    for (size_t pos = 0; pos < n; pos++) {
        size_t end = first + INTERLEAVE_WINDOW < n ? first + INTERLEAVE_WINDOW : n, best = n;
        uint32_t best_at = UINT32_MAX;
        for (size_t i = first; i < end; i++) {
            if (s->indeg[i]) /* placed, or waiting for a predecessor */
                continue;
            if (s->ready_at[i] <= pos) {
                best = i;
                break;
            }
            if (s->ready_at[i] < best_at)
                best_at = s->ready_at[i], best = i;
        }
        /* the oldest not placed has every predecessor placed: best exists */
        s->order[pos] = (uint32_t)best;
        s->out_pos[best] = (uint32_t)pos;
        s->indeg[best] = PLACED;
        moved |= best != pos;
        for (uint32_t e = s->ehead[best]; e != UINT32_MAX; e = s->e[e].next) {
            uint32_t t = s->e[e].to;
            s->indeg[t]--;
            if (s->e[e].raw && s->ready_at[t] < pos + INTERLEAVE_DIST)
                s->ready_at[t] = (uint32_t)(pos + INTERLEAVE_DIST);
        }
        while (first < n && s->indeg[first] == PLACED)
            first++;
    }
    return moved;
}

/* insts[k] = the old insts[order[k]] for k < n, in place, following the permutation's
   cycles (each instruction moved once); `mark` (n entries) is clobbered. */
static void permute(cg_inst *insts, const uint32_t *order, uint32_t *mark, size_t n)
{
    for (size_t k = 0; k < n; k++)
        mark[k] = 0;
    for (size_t start = 0; start < n; start++) {
        if (mark[start] || order[start] == start)
            continue;
        cg_inst t = insts[start];
        size_t j = start;
        for (;;) {
            mark[j] = 1;
            size_t src = order[j];
            if (src == start) {
                insts[j] = t;
                break;
            }
            insts[j] = insts[src];
            j = src;
        }
    }
}

static int reserve(il *s, size_t n)
{
    if (n <= s->cap)
        return 1;
    size_t nc = s->cap ? s->cap : 64;
    while (nc < n)
        nc *= 2;
    uint32_t **arr[] = { &s->ehead, &s->indeg, &s->ready_at, &s->out_pos, &s->order };
    for (size_t a = 0; a < sizeof arr / sizeof *arr; a++) {
        uint32_t *x = realloc(*arr[a], nc * sizeof **arr[a]);
        if (!x)
            return 0;
        *arr[a] = x;
    }
    s->cap = nc;
    return 1;
}

unsigned cg_interleave(cg_prog *p)
{
    il s;
    memset(&s, 0, sizeof s);
    unsigned runs = 0;
    size_t nv = p->nvregs + 1;
    s.def = calloc(nv, sizeof *s.def);
    s.rhead = malloc(nv * sizeof *s.rhead);
    s.touched = malloc(nv * 2 * sizeof *s.touched);
    if (!s.def || !s.rhead || !s.touched)
        goto out; /* no memory: the order stays (a quality pass, not a correctness one) */
    memset(s.rhead, 0xff, nv * sizeof *s.rhead);
    size_t most = 0;
    for (size_t bi = 0; bi < p->nblocks; bi++)
        most = p->blocks[bi].n > most ? p->blocks[bi].n : most;
    if (!reserve(&s, most) || !grow((void **)&s.e, &s.ecap, 4 * most + 1, sizeof *s.e) ||
        !grow((void **)&s.rd_inst, &s.rdcap, 2 * most + 1, sizeof *s.rd_inst) ||
        !grow((void **)&s.rd_next, &s.rdcap2, 2 * most + 1, sizeof *s.rd_next))
        goto out;
    for (size_t bi = 0; bi < p->nblocks; bi++) {
        cg_block *b = &p->blocks[bi];
        size_t i = 0;
        while (i < b->n) {
            size_t j = i;
            while (j < b->n && movable(p, &b->insts[j]) &&
                   (b->insts[j].flags & CG_F_PARTIAL) == (b->insts[i].flags & CG_F_PARTIAL))
                j++;
            size_t n = j - i;
            if (n > 2 && reserve(&s, n) && build(&s, b->insts + i, n) && place(&s, n)) {
                permute(b->insts + i, s.order, s.out_pos, n);
                runs++;
            }
            i = j > i ? j : i + 1;
        }
    }
out:
    free(s.def);
    free(s.rhead);
    free(s.touched);
    free(s.rd_inst);
    free(s.rd_next);
    free(s.e);
    free(s.ehead);
    free(s.indeg);
    free(s.ready_at);
    free(s.out_pos);
    free(s.order);
    return runs;
}
