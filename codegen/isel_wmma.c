/*
 * codegen/isel_wmma.c — instruction selection for WMMA (v_wmma_f32_16x16x16_{f16,bf16}).
 *
 * Operands: a VECTORIZE of 16 float16/bfloat16 lanes is one fragment, packed
 * two lanes per VGPR (8 VGPRs).  A fragment whose lanes are all ungated loads
 * straight from a global buffer is lowered in two steps: its loads are issued
 * early (with the scope's other loads, so their latency overlaps the WMMAs
 * before it) and packed at its first use: 16 contiguous elements are two
 * global_load_b128 (then 8 moves into the operand range), other layouts 16
 * global_load_u16 combined by v_lshl_or_b32.  Other fragments are packed
 * from their lane values.  A fragment used by several WMMAs is packed once.
 *
 * Accumulators: REDUCE(ADD) over loop ranges of a WMMA (or a CAT of WMMAs,
 * several 16x16 output tiles) whose chain of C operands ends in zero keeps
 * 8 VGPRs per tile live around the loop; each WMMA of the chain accumulates
 * into them in place (D = C).  GEP reads one dword of a result.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/isel.h"
#include "util/error.h"

static cg_val none(void)
{
    cg_val v;
    memset(&v, 0, sizeof v);
    return v;
}

static int is_half(rdx_scalar s)
{
    return s == RDX_FLOAT16 || s == RDX_BFLOAT16;
}

static int global_param_load(const rdx_uop *u)
{
    if (u->op != RDX_OP_LOAD || u->nsrc != 1 || u->src[0]->op != RDX_OP_INDEX)
        return 0;
    const rdx_uop *b = u->src[0]->src[0];
    return (b->op == RDX_OP_PARAM || b->op == RDX_OP_BUFFER) && b->addrspace == RDX_ADDR_GLOBAL;
}

int cg_wmma_frag_node(const rdx_uop *u)
{
    if (u->op != RDX_OP_VECTORIZE || u->nsrc != 16 || !is_half((rdx_scalar)u->dtype.scalar))
        return 0;
    for (int k = 0; k < 16; k++)
        if (!global_param_load(u->src[k]) || u->src[k]->src[0]->src[0] != u->src[0]->src[0]->src[0])
            return 0;
    return 1;
}

/* Is c a float32x8 zero (VCONST or VECTORIZE of zero CONSTs)? */
static int zero8(const rdx_uop *c)
{
    if (c->dtype.count != 8)
        return 0;
    for (int k = 0; k < 8; k++) {
        if (c->op == RDX_OP_VCONST) {
            if (c->arg.ints[k] != 0)
                return 0;
        } else if (c->op == RDX_OP_VECTORIZE) {
            const rdx_uop *l = c->src[k];
            if (l->op != RDX_OP_CONST || l->arg.f != 0.0 || 1.0 / l->arg.f < 0)
                return 0;
        } else
            return 0;
    }
    return 1;
}

/* The tiles (WMMAs) of an accumulating REDUCE's value; their count, 0 if not that form. */
static unsigned acc_tiles(const rdx_uop *red, const rdx_uop **tiles, unsigned cap)
{
    const rdx_uop *v = red->src[0];
    unsigned n = v->op == RDX_OP_CAT ? v->nsrc : 1;
    if (red->arg.sub != RDX_RED_ADD || red->arg.nints || red->dtype.scalar != RDX_FLOAT32 ||
        n > cap || red->dtype.count != 8 * n)
        return 0;
    for (unsigned t = 0; t < n; t++) {
        const rdx_uop *w = v->op == RDX_OP_CAT ? v->src[t] : v;
        tiles[t] = w;
        while (w->op == RDX_OP_WMMA && w->dtype.count == 8 && w->dtype.scalar == RDX_FLOAT32)
            w = w->src[2];
        if (!zero8(w) || tiles[t]->op != RDX_OP_WMMA)
            return 0;
    }
    return n;
}

void cg_wmma_mark(isel *I, const rdx_uop *const *topo, size_t n)
{
    for (size_t i = 0; i < n && !I->st; i++) {
        const rdx_uop *u = topo[i];
        if (cg_wmma_frag_node(u)) {
            for (int k = 0; k < 16; k++) {
                const rdx_uop *ix = u->src[k]->src[0];
                if (cg_node_grow(I, u->src[k]->id))
                    I->info[u->src[k]->id] |= CG_INFO_FRAG_MEMBER;
                /* the fragment addresses its lanes from lane 0's offset */
                if (ix->nsrc == 2 && ix->src[1]->op == RDX_OP_ADD &&
                    cg_node_grow(I, ix->src[1]->id))
                    I->info[ix->src[1]->id] |= CG_INFO_LAZY;
            }
        } else if (u->op == RDX_OP_REDUCE && u->dtype.count > 1) {
            const rdx_uop *tiles[CG_WMMA_MAX_TILES];
            unsigned nt = acc_tiles(u, tiles, CG_WMMA_MAX_TILES);
            if (cg_node_grow(I, u->src[0]->id))
                I->info[u->src[0]->id] |= CG_INFO_ACC_BOUND;
            for (unsigned t = 0; t < nt; t++)
                for (const rdx_uop *w = tiles[t]; w->op == RDX_OP_WMMA; w = w->src[2])
                    if (cg_node_grow(I, w->id))
                        I->info[w->id] |= CG_INFO_ACC_BOUND;
        }
    }
}

/* ------------------------------------------------------------ fragments */

static int frag_new(isel *I, const rdx_uop *vec)
{
    if (I->nfrags == I->fragcap) {
        size_t nc = I->fragcap ? 2 * I->fragcap : 32;
        cg_frag *f = realloc(I->frags, nc * sizeof *f);
        if (!f) {
            I->st = rdx_fail(RDX_ERR_NOMEM, "isel: out of memory");
            return -1;
        }
        I->frags = f, I->fragcap = nc;
    }
    cg_frag *f = &I->frags[I->nfrags];
    memset(f, 0, sizeof *f);
    f->vec = vec;
    return (int)I->nfrags++;
}

/* linear index = x + c with c constant */
static const rdx_uop *split_const(const rdx_uop *lin, int64_t *c)
{
    *c = 0;
    if (rdx_uop_const_int(lin, c))
        return NULL;
    if (lin->op == RDX_OP_ADD && rdx_uop_const_int(lin->src[1], c))
        return lin->src[0];
    *c = 0;
    return lin;
}

/* Element offsets of the lanes from lane 0 (the same non-constant part); 0 if they differ. */
static int lane_deltas(isel *I, const rdx_uop *vec, int64_t *delta)
{
    const rdx_uop *x0 = NULL;
    int64_t c0 = 0;
    for (int k = 0; k < 16; k++) {
        const rdx_uop *lin = cg_index_linear(I, vec->src[k]->src[0]);
        if (!lin)
            return 0;
        int64_t c;
        const rdx_uop *x = split_const(lin, &c);
        if (!k)
            x0 = x, c0 = c;
        else if (x != x0)
            return 0;
        delta[k] = c - c0;
    }
    return 1;
}

/* Lane 0's address of a fragment and the offset registers made for the other lanes. */
typedef struct frag_addr {
    uint32_t base, voff0;
    int32_t imm0;
    int n;
    uint32_t voff[16];
    int64_t at[16]; /* byte delta voff[i] adds to voff0 */
} frag_addr;

/* Global load `op` at lane 0's address + delta bytes into dwords [0, count) of dst, reusing an
   offset register when the rest fits the 13-bit offset field (one v_add per 8 KiB of spread). */
static void frag_load(isel *I, frag_addr *F, int64_t delta, rdx_isa_op op, uint32_t dst,
                      unsigned count)
{
    uint32_t voff = F->voff0;
    int64_t imm = F->imm0 + delta;
    for (int i = 0; i < F->n && (imm < -4096 || imm > 4095); i++)
        if (F->imm0 + delta - F->at[i] >= -4096 && F->imm0 + delta - F->at[i] <= 4095)
            voff = F->voff[i], imm = F->imm0 + delta - F->at[i];
    if ((imm < -4096 || imm > 4095) && F->n < 16) {
        /* a new offset register centred so that the next 8 KiB reuse it */
        int64_t at = delta + 4096;
        if (F->imm0 + delta - at < -4096 || at > INT32_MAX || at < INT32_MIN)
            at = delta;
        uint32_t r = cg_new(I, CG_V, 1);
        INS(I, V_ADD_NC_U32, 1, cg_r(I, r, 0, 1), cg_i((int32_t)at), cg_r(I, F->voff0, 0, 1));
        F->voff[F->n] = r, F->at[F->n++] = at;
        voff = r, imm = F->imm0 + delta - at;
    }
    if (imm < -4096 || imm > 4095) {
        cg_fail(I, RDX_ERR_UNSUPPORTED, NULL, "WMMA fragment lanes too far apart");
        return;
    }
    cg_inst *in =
        cg_ins(I, op, 1, CG_F_VMEM_LOAD,
               (xo[]){ cg_r(I, dst, 0, count), cg_r(I, voff, 0, 1), cg_r(I, F->base, 0, 2) }, 3);
    if (in)
        in->in.mod[RDX_ISA_MOD_OFFSET] = (int32_t)imm;
}

/* VECTORIZE of 16 halves: issue the loads of a load fragment now; the handle. */
cg_val cg_wmma_frag(isel *I, const rdx_uop *vec)
{
    int fi = frag_new(I, vec);
    if (fi < 0)
        return none();
    cg_val h = none();
    h.bits = (uint64_t)fi + 1;
    I->frags[fi].kind = CG_FRAG_LANES; /* packed from the lanes' values */
    if (!cg_wmma_frag_node(vec))
        return h;
    int64_t d[16];
    frag_addr F;
    memset(&F, 0, sizeof F);
    if (!lane_deltas(I, vec, d))
        return h;
    if (!cg_global_addr(I, vec->src[0]->src[0], &F.base, &F.voff0, &F.imm0))
        return h;
    int contiguous = 1;
    for (int k = 0; k < 16; k++)
        contiguous &= d[k] == k;
    if (contiguous) {
        I->frags[fi].kind = CG_FRAG_B128;
        for (int p = 0; p < 2 && !I->st; p++) {
            uint32_t r = cg_new(I, CG_V, 4);
            I->frags[fi].part[p] = r;
            frag_load(I, &F, 16 * p, RDX_ISA_OP_GLOBAL_LOAD_B128, r, 4);
        }
        return h;
    }
    I->frags[fi].kind = CG_FRAG_U16;
    for (int k = 0; k < 16 && !I->st; k++) {
        uint32_t r = cg_new(I, CG_V, 1);
        I->frags[fi].part[k] = r;
        frag_load(I, &F, 2 * d[k], RDX_ISA_OP_GLOBAL_LOAD_U16, r, 1);
    }
    return h;
}

/* ------------------------------------------------------------- gfx12 layout */
/*
 * gfx12 (RDNA4, AMD's RDNA4 ISA guide "WMMA"; clang-19 -mcpu=gfx1201 takes v[0:3] for A
 * and B): lane l (h = l / 16) holds row (A) / column (B) l % 16 and only the K half
 * 8h..8h+7, two halves per VGPR (4 VGPRs); D VGPR v of lane l is row v + 8h, column
 * l % 16.  gfx11: A/B lanes hold all 16 K (both lane halves alike, 8 VGPRs); D VGPR v of
 * lane l is row 2v + h.  The front end builds gfx11 fragments and reads gfx11 D elements,
 * so on gfx12 the back end converts at the edges: an operand takes VGPRs 4h..4h+3 of the
 * packed gfx11 fragment; the result stays in gfx12 layout through accumulation chains and
 * loops, and a GEP (or a C given as values) is moved between the lane halves with
 * v_permlanex16_b32 (identity selects: lane l reads lane l ^ 16) and v_cndmask_b32.
 */
static int gfx12(const isel *I)
{
    return I->p->ct->major >= 12;
}

/* An SGPR lane mask of the high lane half (lanes 16..31). */
static uint32_t hi_half(isel *I)
{
    uint32_t m = cg_new(I, CG_S, 1);
    INS(I, S_MOV_B32, 1, cg_r(I, m, 0, 1), cg_i((int32_t)0xffff0000u));
    return m;
}

/* dword `sub` of vreg `src` from the other lane half (lane l reads lane l ^ 16). */
static uint32_t cross_half(isel *I, uint32_t src, unsigned sub)
{
    uint32_t lo = cg_new(I, CG_S, 1), hi = cg_new(I, CG_S, 1), r = cg_new(I, CG_V, 1);
    INS(I, S_MOV_B32, 1, cg_r(I, lo, 0, 1), cg_i(0x76543210));
    INS(I, S_MOV_B32, 1, cg_r(I, hi, 0, 1), cg_i((int32_t)0xfedcba98u));
    INS(I, V_PERMLANEX16_B32, 1, cg_r(I, r, 0, 1), cg_r(I, src, sub, 1), cg_r(I, lo, 0, 1),
        cg_r(I, hi, 0, 1));
    return r;
}

/* dst[dsub] = lane in the high half ? t : f (vregs with dword offsets). */
static void sel_half(isel *I, uint32_t dst, unsigned dsub, uint32_t f, unsigned fsub, uint32_t t,
                     unsigned tsub, uint32_t mask)
{
    INS(I, V_CNDMASK_B32, 1, cg_r(I, dst, dsub, 1), cg_r(I, f, fsub, 1), cg_r(I, t, tsub, 1),
        cg_r(I, mask, 0, 1));
}

/* The 4-VGPR gfx12 operand of a packed gfx11 fragment (8 VGPRs): lane half h takes
   VGPRs 4h..4h+3 (K 8h..8h+7). */
static uint32_t gfx12_operand(isel *I, uint32_t packed)
{
    uint32_t m = hi_half(I), r = cg_new(I, CG_V, 4);
    for (unsigned j = 0; j < 4; j++)
        sel_half(I, r, j, packed, j, packed, 4 + j, m);
    return r;
}

/* Element k of a gfx12 D (dwords [sub, sub+8) of vreg d) as the gfx11 layout has it in
   each lane: row 2k + h, column l % 16. */
static uint32_t gfx12_elem(isel *I, uint32_t d, unsigned sub, unsigned k)
{
    uint32_t m = hi_half(I), r = cg_new(I, CG_V, 1);
    if (k < 4) { /* row 2k + h < 8: the low half's VGPR 2k + h */
        uint32_t x = cross_half(I, d, sub + 2 * k + 1);
        sel_half(I, r, 0, d, sub + 2 * k, x, 0, m);
    } else { /* row 2k + h >= 8: the high half's VGPR 2k + h - 8 */
        uint32_t x = cross_half(I, d, sub + 2 * k - 8);
        sel_half(I, r, 0, x, 0, d, sub + 2 * k - 7, m);
    }
    return r;
}

/* A gfx11-layout C (8 dwords of vreg c) in gfx12 layout: VGPR v of lane half h is row
   v + 8h, which gfx11 keeps in lane half v % 2, VGPR v / 2 + 4h. */
static uint32_t gfx12_from_gfx11(isel *I, uint32_t c)
{
    uint32_t m = hi_half(I), r = cg_new(I, CG_V, 8);
    for (unsigned v = 0; v < 8; v++) {
        unsigned q = v / 2;
        if (v % 2 == 0) {
            uint32_t x = cross_half(I, c, q + 4);
            sel_half(I, r, v, c, q, x, 0, m);
        } else {
            uint32_t x = cross_half(I, c, q);
            sel_half(I, r, v, x, 0, c, q + 4, m);
        }
    }
    return r;
}

/* The packed VGPRs of fragment vec (lowered through cg_emit first): 8 on gfx11, gfx12's 4
   (gfx12_operand). */
static uint32_t frag_value(isel *I, const rdx_uop *vec)
{
    cg_val h = cg_emit(I, vec);
    if (I->st)
        return 0;
    if (h.kind != VK_NONE || !h.bits || h.bits > I->nfrags || I->frags[h.bits - 1].vec != vec) {
        cg_fail(I, RDX_ERR_INVALID, vec, "internal: WMMA fragment without its loads");
        return 0;
    }
    size_t fi = h.bits - 1;
    /* packed once; reused while the loops open at packing time are still open */
    if (I->frags[fi].packed && !(I->frags[fi].open & ~I->open))
        return I->frags[fi].packed;
    int kind = I->frags[fi].kind;
    uint32_t r;
    if (gfx12(I) && kind == CG_FRAG_B128) { /* K 0..7 in part[0], 8..15 in part[1] */
        uint32_t m = hi_half(I);
        r = cg_new(I, CG_V, 4);
        for (unsigned j = 0; j < 4 && !I->st; j++)
            sel_half(I, r, j, I->frags[fi].part[0], j, I->frags[fi].part[1], j, m);
        goto packed;
    }
    r = cg_new(I, CG_V, 8);
    for (unsigned k = 0; k < 8 && !I->st; k++) {
        if (kind == CG_FRAG_B128) {
            INS(I, V_MOV_B32, 1, cg_r(I, r, k, 1), cg_r(I, I->frags[fi].part[k / 4], k % 4, 1));
        } else if (kind == CG_FRAG_U16) {
            /* u16 loads zero-extend: lo | hi << 16 */
            INS(I, V_LSHL_OR_B32, 1, cg_r(I, r, k, 1), cg_r(I, I->frags[fi].part[2 * k + 1], 0, 1),
                cg_i(16), cg_r(I, I->frags[fi].part[2 * k], 0, 1));
        } else {
            cg_val lo = cg_emit(I, vec->src[2 * k]), hi = cg_emit(I, vec->src[2 * k + 1]);
            /* pack the 16-bit patterns as integers (v_pack_b32_f16 would quieten NaNs) */
            cg_val t = cg_reg(I, CG_V, 1);
            INS(I, V_AND_B32, 1, cg_r(I, t.vr, 0, 1), cg_i(0xffff), cg_src(I, &lo, 0));
            INS(I, V_LSHL_OR_B32, 1, cg_r(I, r, k, 1), cg_src(I, &hi, 0), cg_i(16),
                cg_r(I, t.vr, 0, 1));
        }
    }
    if (gfx12(I) && !I->st)
        r = gfx12_operand(I, r);
packed:
    if (!I->st) {
        I->frags[fi].packed = r;
        I->frags[fi].open = I->open;
    }
    return r;
}

/* ------------------------------------------------------------------ WMMA */

static rdx_isa_op wmma_op(isel *I, const rdx_uop *u)
{
    const rdx_uop *a = u->src[0], *b = u->src[1], *c = u->src[2];
    rdx_scalar in = (rdx_scalar)a->dtype.scalar, out = (rdx_scalar)u->dtype.scalar;
    if (a->dtype.count != 16 || b->dtype.count != 16 || c->dtype.count != 8 ||
        u->dtype.count != 8 || b->dtype.scalar != in || c->dtype.scalar != out ||
        out != RDX_FLOAT32 || !is_half(in)) {
        cg_fail(I, RDX_ERR_UNSUPPORTED, u,
                "WMMA shapes/dtypes (supported: A, B half/bfloat16 x16, C, D float32 x8)");
        return RDX_ISA_OP_V_WMMA_F32_16X16X16_F16;
    }
    if (a->op != RDX_OP_VECTORIZE || b->op != RDX_OP_VECTORIZE)
        cg_fail(I, RDX_ERR_UNSUPPORTED, u, "WMMA operands must be VECTORIZEs");
    return in == RDX_BFLOAT16 ? RDX_ISA_OP_V_WMMA_F32_16X16X16_BF16
                              : RDX_ISA_OP_V_WMMA_F32_16X16X16_F16;
}

/* D (dwords [sub, sub+8) of vreg d) = A x B + C (dwords [csub, csub+8) of vreg c); a and
   b are packed fragments (frag_value: 4 VGPRs on gfx12). */
static void wmma_ins(isel *I, rdx_isa_op op, uint32_t d, unsigned sub, uint32_t a, uint32_t b,
                     uint32_t c, unsigned csub, unsigned flags)
{
    unsigned n = gfx12(I) ? 4 : 8;
    cg_ins(I, op, 1, flags | CG_F_EARLY,
           (xo[]){ cg_r(I, d, sub, 8), cg_r(I, a, 0, n), cg_r(I, b, 0, n), cg_r(I, c, csub, 8) },
           4);
}

cg_val cg_wmma(isel *I, const rdx_uop *u)
{
    const rdx_uop *c = u->src[2];
    rdx_isa_op wop = wmma_op(I, u);
    uint32_t a = I->st ? 0 : frag_value(I, u->src[0]);
    uint32_t b = I->st ? 0 : frag_value(I, u->src[1]);
    if (I->st)
        return none();
    cg_val cv;
    if (c->op == RDX_OP_WMMA) {
        cv = cg_emit(I, c); /* another WMMA's result */
        if (!I->st && (cv.kind != VK_REG || cv.n != 8))
            return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "WMMA accumulator form"), none();
    } else if (c->op == RDX_OP_VECTORIZE || c->op == RDX_OP_VCONST) {
        cv = cg_reg(I, CG_V, 8);
        for (unsigned k = 0; k < 8; k++) {
            cg_val e;
            if (c->op == RDX_OP_VECTORIZE)
                e = cg_emit(I, c->src[k]);
            else {
                double f;
                int64_t bits = c->arg.ints[k];
                memcpy(&f, &bits, 8);
                float ff = (float)f;
                uint32_t fb;
                memcpy(&fb, &ff, 4);
                e = cg_const(fb, 1);
            }
            INS(I, V_MOV_B32, 1, cg_r(I, cv.vr, k, 1), cg_src(I, &e, 0));
        }
        if (gfx12(I)) /* lane values in the gfx11 layout */
            cv.vr = gfx12_from_gfx11(I, cv.vr);
    } else {
        cv = cg_emit(I, c);
        if (!I->st && (cv.kind != VK_REG || cv.n != 8))
            return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "WMMA accumulator form"), none();
    }
    if (I->st)
        return none();
    cg_val d = cg_reg(I, CG_V, 8);
    wmma_ins(I, wop, d.vr, 0, a, b, cv.vr, 0, 0);
    return d;
}

cg_val cg_wmma_gep(isel *I, const rdx_uop *u)
{
    const rdx_uop *s = u->src[0];
    int64_t k = u->arg.nints == 1 ? u->arg.ints[0] : -1;
    if (k < 0 || k >= s->dtype.count ||
        (s->op != RDX_OP_WMMA && !(s->op == RDX_OP_REDUCE && s->dtype.count > 1)))
        return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "GEP of %s", rdx_op_name((rdx_op)s->op)), none();
    cg_val v = cg_emit(I, s);
    if (I->st)
        return none();
    if (v.kind != VK_REG || v.n != s->dtype.count)
        return cg_fail(I, RDX_ERR_INVALID, u, "internal: GEP source has no registers"), none();
    cg_val r = cg_reg(I, CG_V, 1);
    if (gfx12(I)) { /* the tile's 8 dwords in gfx12 layout; element k % 8 as gfx11's */
        r.vr = gfx12_elem(I, v.vr, (unsigned)(k / 8 * 8), (unsigned)(k % 8));
        return r;
    }
    INS(I, V_MOV_B32, 1, cg_r(I, r.vr, 0, 1), cg_r(I, v.vr, (unsigned)k, 1));
    return r;
}

/* --------------------------------------------------------- accumulators */

cg_val cg_wmma_acc_init(isel *I, const rdx_uop *red)
{
    const rdx_uop *tiles[CG_WMMA_MAX_TILES];
    unsigned nt = acc_tiles(red, tiles, CG_WMMA_MAX_TILES);
    if (!nt)
        return cg_fail(I, RDX_ERR_UNSUPPORTED, red,
                       "REDUCE of a vector: only ADD of WMMA tiles (a WMMA or a CAT of at most "
                       "%d WMMAs, each a chain of WMMAs over a zero accumulator)",
                       CG_WMMA_MAX_TILES),
               none();
    cg_val acc = cg_reg(I, CG_V, 8 * nt);
    for (unsigned k = 0; k < 8 * nt; k++)
        INS(I, V_MOV_B32, 1, cg_r(I, acc.vr, k, 1), cg_i(0));
    return acc;
}

void cg_wmma_acc_step(isel *I, const rdx_uop *red, const cg_val *acc)
{
    const rdx_uop *tiles[CG_WMMA_MAX_TILES];
    unsigned nt = acc_tiles(red, tiles, CG_WMMA_MAX_TILES);
    /* each tile's chain bottom-up: chain[t][0] is applied first */
    enum { MAXD = 16 };
    const rdx_uop *chain[CG_WMMA_MAX_TILES][MAXD];
    unsigned len[CG_WMMA_MAX_TILES], maxd = 0;
    for (unsigned t = 0; t < nt; t++) {
        const rdx_uop *st[64];
        unsigned n = 0;
        for (const rdx_uop *w = tiles[t]; w->op == RDX_OP_WMMA && n < 64; w = w->src[2])
            st[n++] = w;
        if (n > MAXD) {
            cg_fail(I, RDX_ERR_UNSUPPORTED, red, "more than %d chained WMMAs per tile", MAXD);
            return;
        }
        for (unsigned d = 0; d < n; d++)
            chain[t][d] = st[n - 1 - d];
        len[t] = n;
        maxd = n > maxd ? n : maxd;
    }
    for (unsigned d = 0; d < maxd && !I->st; d++)
        for (unsigned t = 0; t < nt && !I->st; t++) {
            if (d >= len[t])
                continue;
            const rdx_uop *w = chain[t][d];
            rdx_isa_op wop = wmma_op(I, w);
            uint32_t a = I->st ? 0 : frag_value(I, w->src[0]);
            uint32_t b = I->st ? 0 : frag_value(I, w->src[1]);
            if (!I->st)
                wmma_ins(I, wop, acc->vr, 8 * t, a, b, acc->vr, 8 * t, CG_F_PARTIAL);
        }
}
