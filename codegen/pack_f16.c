/*
 * codegen/pack_f16.c — packed f16 math (VOP3P) for pairs of lanes, after
 * instruction selection (virtual registers, before linearize).
 *
 * An f16 vector of 2 (an upcast axis after expand) reaches the back end as
 * two scalar lanes: two 16-bit loads at byte offsets c and c+2 from the same
 * base and offset register, the same f16 operation on each lane, and two
 * 16-bit stores.  Within one block this pass
 * - turns such a load pair into one packed register P: global_load_u16 P
 *   (low half, the upper half zeroed) at the first load's place and
 *   global_load_d16_hi_b16 P (upper half, the lower one kept) at the second's
 *   (the two VMEM loads return in order, no wait between them);
 * - turns two v_{add,mul,max,min}_f16 whose every source is the low / high
 *   half of the same packed register into one v_pk_{add,mul,max,min}_f16 at
 *   the second one's place (a packed result is packed again for the next op);
 * - stores a packed half directly: global_store_b16 of the low half,
 *   global_store_d16_hi_b16 of the high half.
 * Load pairs are packed only when an op pair consumes them.  A lane that is
 * still needed as a scalar is taken out of the packed register right after
 * it (v_and_b32 0xffff / v_lshrrev_b32 16: exactly the zero-extended u16
 * value for a load, the low 16 bits for an f16 result).  Rounding, NaN and
 * denormal behaviour of the packed ops is the scalar ones' (same MODE), so
 * results are bit for bit those of the scalar code.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/cg.h"
#include "util/error.h"
#include "util/scratch.h"

typedef struct grp {
    uint32_t packed, half[2]; /* packed vreg; the lanes' vregs */
    int load;                 /* a load pair (else an op pair) */
    size_t i0, i1;            /* positions in the block (i1 > i0); the pair goes at i0 */
    int used;                 /* an op pair reads it */
} grp;

typedef struct pk {
    cg_prog *p;
    uint32_t nv;
    uint32_t *ndef;
    int32_t *gof; /* vreg -> group index (-1) */
    uint8_t *hof; /* vreg -> half */
    grp *g;
    size_t ng, gcap;
} pk;

static const struct {
    rdx_isa_op op, pk;
} ops[] = {
    { RDX_ISA_OP_V_ADD_F16, RDX_ISA_OP_V_PK_ADD_F16 },
    { RDX_ISA_OP_V_MUL_F16, RDX_ISA_OP_V_PK_MUL_F16 },
    { RDX_ISA_OP_V_MAX_F16, RDX_ISA_OP_V_PK_MAX_F16 },
    { RDX_ISA_OP_V_MIN_F16, RDX_ISA_OP_V_PK_MIN_F16 },
};

static int pk_op(const cg_inst *in, rdx_isa_op *out)
{
    if (in->flags & (CG_F_PARTIAL | CG_F_BRANCH) || in->ndef != 1 || in->in.nopnd != 3)
        return 0;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (in->in.op == ops[k].op) {
            for (int m = 0; m < RDX_ISA_MOD_COUNT; m++)
                if (in->in.mod[m])
                    return 0;
            for (int s = 0; s < 3; s++)
                if (!in->vr[s] || in->in.opnd[s].reg != 0 || in->in.opnd[s].count != 1)
                    return 0;
            *out = ops[k].pk;
            return 1;
        }
    return 0;
}

static int u16_load(const cg_inst *in)
{
    return in->in.op == RDX_ISA_OP_GLOBAL_LOAD_U16 && !(in->flags & CG_F_PARTIAL) &&
           in->ndef == 1 && in->vr[0] && in->vr[1] && in->vr[2] && in->in.opnd[0].reg == 0;
}

static int writes(const cg_inst *in, uint32_t vr)
{
    for (int k = 0; k < in->ndef; k++)
        if (in->vr[k] == vr)
            return 1;
    return 0;
}

static int reads(const cg_inst *in, uint32_t vr)
{
    for (int k = in->ndef; k < in->in.nopnd; k++)
        if (in->vr[k] == vr)
            return 1;
    return 0;
}

/* An instruction a load may not move up past: memory writes, EXEC changes, control. */
static int moves_blocked(const cg_inst *in)
{
    if (in->flags & (CG_F_VMEM_STORE | CG_F_BARRIER | CG_F_BRANCH | CG_F_PARTIAL))
        return 1;
    if ((in->flags & CG_F_LGKM) && !(in->flags & CG_F_SMEM))
        return 1;
    if (in->in.op == RDX_ISA_OP_S_AND_SAVEEXEC_B32 || in->in.op == RDX_ISA_OP_S_ENDPGM)
        return 1;
    for (int k = 0; k < in->ndef; k++)
        if (in->in.opnd[k].kind == RDX_ISA_OPND_SPECIAL)
            return 1;
    return 0;
}

static rdx_status add_group(pk *S, grp g)
{
    if (S->ng == S->gcap) {
        size_t nc = S->gcap ? 2 * S->gcap : 16;
        grp *n = realloc(S->g, nc * sizeof *n);
        if (!n)
            return rdx_fail(RDX_ERR_NOMEM, "pack f16: out of memory");
        S->g = n, S->gcap = nc;
    }
    S->g[S->ng] = g;
    for (int h = 0; h < 2; h++)
        S->gof[g.half[h]] = (int32_t)S->ng, S->hof[g.half[h]] = (uint8_t)h;
    S->ng++;
    return RDX_OK;
}

/* Per instruction of a block, what find() asks of it, classified once (find changes no
   instruction): the packed op (pk_op, 0: none), u16_load, and the next blocking
   instruction / 16-bit load at or after each position; per vreg the positions of its defs
   in the block, ascending (dpos[dfirst[v] .. dfirst[v + 1])). */
typedef struct facts {
    uint16_t *pkop;
    uint32_t *next_blk, *next_u16;
    uint32_t *dfirst, *dpos;
    size_t nv; /* vregs covered (those of the program when made) */
} facts;

/* The first def of v after position i in the block (n: none). */
static size_t next_def(const facts *F, uint32_t v, size_t i, size_t n)
{
    if (v >= F->nv)
        return n; /* made after the block was classified: no def in it */
    for (uint32_t k = F->dfirst[v]; k < F->dfirst[v + 1]; k++)
        if (F->dpos[k] > i)
            return F->dpos[k];
    return n;
}

static int facts_init(facts *F, const cg_prog *p, const cg_block *bl)
{
    size_t n = bl->n;
    F->pkop = malloc((n + 1) * sizeof *F->pkop);
    F->next_blk = malloc((n + 1) * sizeof *F->next_blk);
    F->next_u16 = malloc((n + 1) * sizeof *F->next_u16);
    F->nv = p->nvregs + 1;
    F->dfirst = calloc(F->nv + 1, sizeof *F->dfirst);
    size_t ndefs = 0;
    for (size_t i = 0; i < n; i++)
        ndefs += bl->insts[i].ndef;
    F->dpos = malloc((ndefs + 1) * sizeof *F->dpos);
    if (!F->pkop || !F->next_blk || !F->next_u16 || !F->dfirst || !F->dpos)
        return 0;
    F->next_blk[n] = F->next_u16[n] = (uint32_t)n;
    for (size_t i = n; i-- > 0;) {
        const cg_inst *in = &bl->insts[i];
        rdx_isa_op op;
        F->pkop[i] = pk_op(in, &op) ? (uint16_t)op : 0;
        F->next_blk[i] = moves_blocked(in) ? (uint32_t)i : F->next_blk[i + 1];
        F->next_u16[i] = u16_load(in) ? (uint32_t)i : F->next_u16[i + 1];
    }
    /* counting sort of the (vreg, position) defs: counts, starts, then filled backwards */
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < bl->insts[i].ndef; k++)
            if (bl->insts[i].vr[k] < F->nv)
                F->dfirst[bl->insts[i].vr[k] + 1]++;
    for (size_t v = 0; v < F->nv; v++)
        F->dfirst[v + 1] += F->dfirst[v];
    uint32_t total = F->dfirst[F->nv]; /* dfirst[v + 1]: the end of v's entries */
    for (size_t i = n; i-- > 0;)
        for (int k = bl->insts[i].ndef; k-- > 0;) {
            uint32_t v = bl->insts[i].vr[k];
            if (v < F->nv)
                F->dpos[--F->dfirst[v + 1]] = (uint32_t)i;
        }
    /* dfirst[v + 1] now is v's first entry: shift down so dfirst[v] is (and dfirst[nv] the
       end of the last) */
    for (size_t v = 0; v < F->nv; v++)
        F->dfirst[v] = F->dfirst[v + 1];
    F->dfirst[F->nv] = total;
    return 1;
}

static void facts_free(facts *F)
{
    free(F->pkop), free(F->next_blk), free(F->next_u16), free(F->dfirst), free(F->dpos);
}

/* Find the load and op pairs of block b (groups first..ng). */
static rdx_status find(pk *S, int b)
{
    cg_block *bl = &S->p->blocks[b];
    facts F;
    if (!facts_init(&F, S->p, bl)) {
        facts_free(&F);
        return rdx_fail(RDX_ERR_NOMEM, "pack f16: out of memory");
    }
    rdx_status st = RDX_OK;
    for (size_t i = 0; i < bl->n && !st; i++) {
        const cg_inst *a = &bl->insts[i];
        if (F.next_u16[i] == i && S->ndef[a->vr[0]] == 1 && S->gof[a->vr[0]] < 0) {
            /* the second load moves up to the first: the scan stops at the first instruction
               that blocks the move or writes an address register, and only the 16-bit loads
               before it can match (visited in order) */
            size_t end = F.next_blk[i + 1], d1 = next_def(&F, a->vr[1], i, bl->n),
                   d2 = next_def(&F, a->vr[2], i, bl->n);
            end = d1 < end ? d1 : end;
            end = d2 < end ? d2 : end;
            for (size_t j = F.next_u16[i + 1]; j < end; j = F.next_u16[j + 1]) {
                const cg_inst *c = &bl->insts[j];
                if (F.next_u16[j] == j && c->vr[1] == a->vr[1] && c->vr[2] == a->vr[2] &&
                    c->in.opnd[1].reg == a->in.opnd[1].reg &&
                    c->in.mod[RDX_ISA_MOD_OFFSET] == a->in.mod[RDX_ISA_MOD_OFFSET] + 2 &&
                    S->ndef[c->vr[0]] == 1 && S->gof[c->vr[0]] < 0 && c->vr[0] != a->vr[0]) {
                    int early = 0;
                    for (size_t k = i + 1; k < j && !early; k++)
                        early = reads(&bl->insts[k], c->vr[0]) || writes(&bl->insts[k], c->vr[0]);
                    if (early)
                        break;
                    uint32_t P = cg_vreg_new(S->p, CG_V, 1);
                    if (!P) {
                        st = RDX_ERR_NOMEM;
                        break;
                    }
                    grp g = { P, { a->vr[0], c->vr[0] }, 1, i, j, 0 };
                    st = add_group(S, g);
                    bl = &S->p->blocks[b];
                    break;
                }
            }
            continue;
        }
        if (!F.pkop[i] || S->ndef[a->vr[0]] != 1 || S->gof[a->vr[0]] >= 0)
            continue;
        int ok = 1;
        for (int s = 1; s < 3 && ok; s++) {
            int32_t gi = S->gof[a->vr[s]];
            ok = gi >= 0 && S->hof[a->vr[s]] == 0 && S->g[gi].i0 < i;
        }
        if (!ok)
            continue;
        for (size_t j = i + 1; j < bl->n; j++) {
            const cg_inst *c = &bl->insts[j];
            if (!F.pkop[j] || c->in.op != a->in.op || S->ndef[c->vr[0]] != 1 ||
                S->gof[c->vr[0]] >= 0 || c->vr[0] == a->vr[0])
                continue;
            int match = 1;
            for (int s = 1; s < 3 && match; s++)
                match = S->gof[c->vr[s]] == S->gof[a->vr[s]] && S->hof[c->vr[s]] == 1;
            if (!match)
                continue;
            /* the second op moves up to the first: its lane must not be touched between */
            int early = 0;
            for (size_t k = i + 1; k < j && !early; k++)
                early = reads(&bl->insts[k], c->vr[0]) || writes(&bl->insts[k], c->vr[0]);
            if (early)
                break;
            uint32_t X = cg_vreg_new(S->p, CG_V, 1);
            if (!X) {
                st = RDX_ERR_NOMEM;
                break;
            }
            for (int s = 1; s < 3; s++)
                S->g[S->gof[a->vr[s]]].used = 1;
            grp g = { X, { a->vr[0], c->vr[0] }, 0, i, j, 1 };
            st = add_group(S, g);
            bl = &S->p->blocks[b];
            break;
        }
    }
    facts_free(&F);
    return st;
}

static cg_inst mk(const cg_prog *p, rdx_isa_op op, uint32_t dst, uint32_t src, int shr)
{
    cg_inst in;
    memset(&in, 0, sizeof in);
    in.target = -1;
    in.in.op = (uint16_t)op;
    in.in.form = RDX_ISA_FORM_E64;
    in.ndef = 1;
    in.in.nopnd = (uint8_t)(op == RDX_ISA_OP_V_MOV_B32 ? 2 : 3);
    in.in.opnd[0] = cg_vopnd(p, dst, 0, 1);
    in.vr[0] = dst;
    int k = 1;
    if (op == RDX_ISA_OP_V_LSHRREV_B32)
        in.in.opnd[k++] = rdx_isa_int(shr);
    in.in.opnd[k] = cg_vopnd(p, src, 0, 1);
    in.vr[k] = src;
    if (op == RDX_ISA_OP_V_AND_B32)
        in.in.opnd[2] = rdx_isa_literal(0xffff);
    return in;
}

/* Rewrite block b with groups [g0, ng). */
static rdx_status rewrite(pk *S, int b, size_t g0)
{
    cg_prog *p = S->p;
    cg_block *bl = &p->blocks[b];
    size_t n = bl->n;
    /* per position: group index whose first / second instruction it is */
    int32_t *first = malloc((n + 1) * sizeof *first), *second = malloc((n + 1) * sizeof *second);
    cg_inst *out = rdx_scratch_alloc((2 * n + 4 * (S->ng - g0) + 1) * sizeof *out);
    if (!first || !second || !out) {
        free(first), free(second), rdx_scratch_free(out);
        return rdx_fail(RDX_ERR_NOMEM, "pack f16: out of memory");
    }
    for (size_t i = 0; i < n; i++)
        first[i] = second[i] = -1;
    for (size_t gi = g0; gi < S->ng; gi++) {
        grp *g = &S->g[gi];
        if (g->load && !g->used)
            continue;
        first[g->i0] = (int32_t)gi, second[g->i1] = (int32_t)gi;
    }
    /* sources of op pairs and data of 16-bit stores read the packed register */
    for (size_t i = 0; i < n; i++) {
        cg_inst *in = &bl->insts[i];
        if (first[i] >= 0 && !S->g[first[i]].load) {
            rdx_isa_op op;
            pk_op(in, &op);
            for (int s = 1; s < 3; s++)
                in->vr[s] = S->g[S->gof[in->vr[s]]].packed;
            in->vr[0] = S->g[first[i]].packed;
            in->in.op = (uint16_t)op;
            in->in.mod[RDX_ISA_MOD_OP_SEL_HI] = 7;
        }
        if (in->in.op == RDX_ISA_OP_GLOBAL_STORE_B16 && in->vr[1] && in->in.opnd[1].reg == 0) {
            int32_t gi = S->gof[in->vr[1]];
            if (gi >= (int32_t)g0 && (!S->g[gi].load || S->g[gi].used) && S->g[gi].i0 < i &&
                S->g[gi].i1 != i) {
                if (S->hof[in->vr[1]])
                    in->in.op = RDX_ISA_OP_GLOBAL_STORE_D16_HI_B16;
                in->vr[1] = S->g[gi].packed;
            }
        }
    }
    /* lanes still read as scalars: reads anywhere but at the dropped places */
    uint8_t *needed = calloc(p->nvregs + 1, 1);
    if (!needed) {
        free(first), free(second), rdx_scratch_free(out);
        return rdx_fail(RDX_ERR_NOMEM, "pack f16: out of memory");
    }
    for (size_t bb = 0; bb < p->nblocks; bb++)
        for (size_t k = 0; k < p->blocks[bb].n; k++) {
            if ((int)bb == b && second[k] >= 0)
                continue;
            const cg_inst *in = &p->blocks[bb].insts[k];
            for (int o = in->ndef; o < in->in.nopnd; o++)
                if (in->vr[o] && S->gof[in->vr[o]] >= (int32_t)g0)
                    needed[in->vr[o]] = 1;
        }
    /* the pair at the first one's place (then the lanes still read as scalars); the
       second one's place is dropped */
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        int32_t gf = first[i], gs = second[i];
        if (gs >= 0)
            continue;
        cg_inst *in = &bl->insts[i];
        if (gf < 0) {
            out[m++] = *in;
            continue;
        }
        grp *g = &S->g[gf];
        if (g->load) {
            in->vr[0] = g->packed; /* low half, upper zeroed */
            out[m++] = *in;
            cg_inst hi = bl->insts[g->i1];
            hi.vr[0] = g->packed;
            hi.in.op = RDX_ISA_OP_GLOBAL_LOAD_D16_HI_B16;
            hi.flags |= CG_F_PARTIAL; /* keeps the low half: reads P */
            out[m++] = hi;
        } else
            out[m++] = *in; /* already the packed op */
        for (int h = 0; h < 2; h++) {
            uint32_t lane = g->half[h];
            if (!needed[lane])
                continue;
            if (h == 1)
                out[m++] = mk(p, RDX_ISA_OP_V_LSHRREV_B32, lane, g->packed, 16);
            else
                out[m++] = mk(p, g->load ? RDX_ISA_OP_V_AND_B32 : RDX_ISA_OP_V_MOV_B32, lane,
                              g->packed, 0);
        }
    }
    rdx_scratch_free(bl->insts);
    bl->insts = out;
    bl->n = m;
    bl->cap = 2 * n + 4 * (S->ng - g0) + 1;
    free(first), free(second), free(needed);
    return RDX_OK;
}

unsigned cg_pack_f16(cg_prog *p)
{
    pk S;
    memset(&S, 0, sizeof S);
    S.p = p;
    size_t cap = p->nvregs + 1;
    S.ndef = calloc(cap, sizeof *S.ndef);
    if (!S.ndef)
        return 0;
    for (size_t b = 0; b < p->nblocks; b++)
        for (size_t i = 0; i < p->blocks[b].n; i++)
            for (int k = 0; k < p->blocks[b].insts[i].ndef; k++)
                if (p->blocks[b].insts[i].vr[k])
                    S.ndef[p->blocks[b].insts[i].vr[k]]++;
    unsigned pairs = 0;
    for (size_t b = 0; b < p->nblocks; b++) {
        int any = 0; /* only blocks with 16-bit loads can pair anything */
        for (size_t i = 0; i < p->blocks[b].n && !any; i++)
            any = u16_load(&p->blocks[b].insts[i]);
        if (!any)
            continue;
        /* vregs grow as groups are made: size the maps for this block's worst case */
        size_t need = p->nvregs + p->blocks[b].n + 1;
        int32_t *gof = realloc(S.gof, need * sizeof *gof);
        uint8_t *hof = gof ? realloc(S.hof, need) : NULL;
        if (gof)
            S.gof = gof;
        if (!gof || !hof)
            break;
        S.hof = hof;
        uint32_t *nd = realloc(S.ndef, need * sizeof *nd);
        if (!nd)
            break;
        S.ndef = nd;
        for (size_t v = cap; v < need; v++)
            S.ndef[v] = 0;
        cap = need;
        for (size_t v = 0; v < need; v++)
            S.gof[v] = -1;
        size_t g0 = S.ng;
        if (find(&S, (int)b) || rewrite(&S, (int)b, g0))
            break;
        for (size_t gi = g0; gi < S.ng; gi++)
            pairs += !S.g[gi].load;
    }
    free(S.ndef), free(S.gof), free(S.hof), free(S.g);
    return pairs;
}
