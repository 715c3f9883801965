/*
 * codegen/isel_merge.c — the last step of instruction selection: 32-bit
 * global (and LDS: ds_load) loads of one block from the same base and VGPR offset at constant
 * offsets c, c+4, c+8 (, c+12) become one global_load_b64/b96/b128 (what an
 * upcast axis produces).  The merged load issues at the first load's place;
 * the scan stops at any global store, EXEC write or redefinition of the
 * address registers, so no load moves past a write it could depend on.  The
 * loads' destinations become dwords of the merged destination.
 *
 * LDS loads merge only into naturally aligned accesses (docs/codegen-backend.md, "LDS
 * alignment"): ds_load_b128/b96 when the byte address is provably a multiple of 16, b64 of 8;
 * otherwise ds_load_2addr_b64 (two 8-aligned qwords) or ds_load_2addr_b32 (two dwords), as
 * clang does for under-aligned LDS vectors, else the loads stay apart.  The proof: the
 * constant offset's low bits and the known trailing zero bits of the address VGPR, derived
 * from the instructions that compute it (shifts, multiplies, adds, ands, ors of registers
 * defined once and of constants).
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/cg.h"

static int writes(const cg_inst *in, uint32_t vr)
{
    for (int k = 0; k < in->ndef; k++)
        if (in->vr[k] == vr)
            return 1;
    return 0;
}

static int writes_exec(const cg_inst *in)
{
    if (in->in.op == RDX_ISA_OP_S_AND_SAVEEXEC_B32)
        return 1;
    for (int k = 0; k < in->ndef; k++)
        if (in->in.opnd[k].kind == RDX_ISA_OPND_SPECIAL &&
            in->in.opnd[k].reg == RDX_ISA_REG_EXEC_LO)
            return 1;
    return 0;
}

static int plain_load(const cg_inst *in)
{
    return in->in.op == RDX_ISA_OP_GLOBAL_LOAD_B32 && !(in->flags & CG_F_PARTIAL) && in->vr[0] &&
           in->vr[1] && in->vr[2];
}

/* ds_load_b32 (LDS, e.g. the LDS OptOp's staged tiles): merged the same way, into an aligned
   form only (see the top); the scan stops at any other LDS access and at barriers. */
static int plain_ds_load(const cg_inst *in)
{
    return in->in.op == RDX_ISA_OP_DS_LOAD_B32 && !(in->flags & CG_F_PARTIAL) && in->vr[0] &&
           in->vr[1];
}

/* The renaming of merged loads' destinations: vreg v becomes dword sub[v] of to[v]
   (to[v] == 0: unchanged).  Collected while merging and applied once at the end: a
   merged destination is a fresh vreg and no longer a plain load, so no chains form, and
   the merge decisions only compare (vreg, register) pairs, which a renaming that is one
   to one on them leaves equal or unequal as they were. */
typedef struct renames {
    uint32_t *to;
    uint8_t *sub;
    size_t n;
} renames;

static void rename_apply(cg_prog *p, const renames *r)
{
    for (size_t b = 0; b < p->nblocks; b++) {
        cg_block *bl = &p->blocks[b];
        for (size_t i = 0; i < bl->n; i++) {
            cg_inst *in = &bl->insts[i];
            for (int k = 0; k < in->in.nopnd; k++) {
                uint32_t v = in->vr[k];
                if (v && v < r->n && r->to[v]) {
                    in->vr[k] = r->to[v];
                    in->in.opnd[k].reg = (uint16_t)(in->in.opnd[k].reg + r->sub[v]);
                }
            }
        }
    }
}

/* Known trailing zero bits of the values of 1-dword vregs defined by one instruction (the LDS
   address registers): derived from that instruction's op and sources, memoised. */
typedef struct known {
    const cg_prog *p;
    size_t n;            /* vregs covered (those that exist before merging) */
    uint8_t *ndef;       /* instructions writing the vreg, saturating at 2 */
    const cg_inst **def; /* the one writing it */
    int8_t *tz;          /* memo: -1 not yet known */
    int frozen;          /* the program is being rewritten: def[] is stale, memo only */
} known;

static int tz32(uint32_t x)
{
    int t = 0;
    if (!x)
        return 32;
    while (!(x & 1))
        x >>= 1, t++;
    return t;
}

static int vreg_tz(known *K, uint32_t v, int depth);

/* Known trailing zeros of source operand k of `in` (0: nothing known). */
static int opnd_tz(known *K, const cg_inst *in, int k, int depth)
{
    const rdx_isa_opnd *o = &in->in.opnd[k];
    if (k >= in->in.nopnd)
        return 0;
    if (in->vr[k])
        return o->reg == 0 && o->count <= 1 ? vreg_tz(K, in->vr[k], depth + 1) : 0;
    if (o->kind == RDX_ISA_OPND_INT || o->kind == RDX_ISA_OPND_LITERAL)
        return tz32((uint32_t)o->value);
    return 0;
}

static int min2(int a, int b)
{
    return a < b ? a : b;
}

static int vreg_tz(known *K, uint32_t v, int depth)
{
    if (!v || v >= K->n || K->ndef[v] != 1 || K->p->vregs[v].size != 1 || depth > 24)
        return 0;
    if (K->tz[v] >= 0)
        return K->tz[v];
    if (K->frozen)
        return 0;
    const cg_inst *d = K->def[v];
    int s = d->ndef, r = 0;
    if ((d->flags & CG_F_PARTIAL) || d->ndef != 1 || d->vr[0] != v || d->in.opnd[0].reg != 0)
        return K->tz[v] = 0;
    switch ((rdx_isa_op)d->in.op) {
    case RDX_ISA_OP_V_MOV_B32:
    case RDX_ISA_OP_S_MOV_B32:
        r = opnd_tz(K, d, s, depth);
        break;
    case RDX_ISA_OP_V_LSHLREV_B32: /* shift, value */
    case RDX_ISA_OP_S_LSHL_B32: /* value, shift */ {
        int vi = d->in.op == RDX_ISA_OP_S_LSHL_B32 ? s : s + 1, si = vi == s ? s + 1 : s;
        const rdx_isa_opnd *sh = &d->in.opnd[si];
        r = opnd_tz(K, d, vi, depth);
        if (!d->vr[si] && sh->kind == RDX_ISA_OPND_INT)
            r += sh->value & 31;
        break;
    }
    case RDX_ISA_OP_V_ADD_NC_U32:
    case RDX_ISA_OP_V_SUB_NC_U32:
    case RDX_ISA_OP_S_ADD_I32:
    case RDX_ISA_OP_S_ADD_U32:
    case RDX_ISA_OP_S_SUB_I32:
    case RDX_ISA_OP_V_OR_B32:
    case RDX_ISA_OP_S_OR_B32:
        r = min2(opnd_tz(K, d, s, depth), opnd_tz(K, d, s + 1, depth));
        break;
    case RDX_ISA_OP_V_ADD3_U32:
        r = min2(min2(opnd_tz(K, d, s, depth), opnd_tz(K, d, s + 1, depth)),
                 opnd_tz(K, d, s + 2, depth));
        break;
    case RDX_ISA_OP_V_MUL_LO_U32:
    case RDX_ISA_OP_S_MUL_I32:
        r = opnd_tz(K, d, s, depth) + opnd_tz(K, d, s + 1, depth);
        break;
    case RDX_ISA_OP_V_AND_B32:
    case RDX_ISA_OP_S_AND_B32: {
        int a = opnd_tz(K, d, s, depth), b = opnd_tz(K, d, s + 1, depth);
        r = a > b ? a : b;
        break;
    }
    case RDX_ISA_OP_V_LSHL_OR_B32:
    case RDX_ISA_OP_V_LSHL_ADD_U32: { /* (a << shift) op c */
        const rdx_isa_opnd *sh = &d->in.opnd[s + 1];
        int a = opnd_tz(K, d, s, depth);
        if (!d->vr[s + 1] && sh->kind == RDX_ISA_OPND_INT)
            a += sh->value & 31;
        r = min2(a, opnd_tz(K, d, s + 2, depth));
        break;
    }
    default:
        r = 0;
    }
    return K->tz[v] = (int8_t)(r > 32 ? 32 : r);
}

static int known_init(known *K, const cg_prog *p)
{
    K->p = p;
    K->n = p->nvregs + 1;
    K->ndef = calloc(K->n, 1);
    K->def = calloc(K->n, sizeof *K->def);
    K->tz = malloc(K->n);
    if (!K->ndef || !K->def || !K->tz)
        return 0;
    memset(K->tz, -1, K->n);
    for (size_t b = 0; b < p->nblocks; b++)
        for (size_t i = 0; i < p->blocks[b].n; i++) {
            const cg_inst *in = &p->blocks[b].insts[i];
            for (int k = 0; k < in->ndef; k++) {
                uint32_t v = in->vr[k];
                if (v && v < K->n) {
                    K->ndef[v] = K->ndef[v] < 2 ? K->ndef[v] + 1 : 2;
                    K->def[v] = in;
                }
            }
        }
    /* every LDS address now, while def[] points at the defining instructions: merging moves
       instructions (and rewrites them) */
    for (size_t b = 0; b < p->nblocks; b++)
        for (size_t i = 0; i < p->blocks[b].n; i++) {
            const cg_inst *in = &p->blocks[b].insts[i];
            if (in->in.op == RDX_ISA_OP_DS_LOAD_B32)
                vreg_tz(K, in->vr[1], 0);
            else if (in->in.op == RDX_ISA_OP_DS_STORE_B32)
                vreg_tz(K, in->vr[0], 0);
        }
    K->frozen = 1;
    return 1;
}

static void known_free(known *K)
{
    free(K->ndef);
    free(K->def);
    free(K->tz);
}

/* The LDS form for a run of n (2..4) dwords at byte offset c from a VGPR address with tz
   known trailing zero bits: the op and how many dwords it takes (0: none). */
static unsigned ds_form(unsigned n, int32_t c, int tz, rdx_isa_op *op)
{
    int al = min2(tz, tz32((uint32_t)c)); /* known trailing zeros of the byte address */
    if (n >= 4 && al >= 4 && c + 12 <= 65535)
        return *op = RDX_ISA_OP_DS_LOAD_B128, 4;
    if (n >= 3 && al >= 4 && c + 8 <= 65535)
        return *op = RDX_ISA_OP_DS_LOAD_B96, 3;
    if (n >= 4 && al >= 3 && c / 8 + 1 <= 255) /* 4 dwords in one instruction, as clang */
        return *op = RDX_ISA_OP_DS_LOAD_2ADDR_B64, 4;
    if (n >= 2 && al >= 3 && c + 4 <= 65535)
        return *op = RDX_ISA_OP_DS_LOAD_B64, 2;
    if (n >= 2 && c % 4 == 0 && c / 4 + 1 <= 255)
        return *op = RDX_ISA_OP_DS_LOAD_2ADDR_B32, 2;
    return 0;
}

/* The offsets of a 2addr DS access of the two elements of u bytes (4 or 8) at byte offset
   c (a multiple of u; ds_form checked the range). */
static void set_2addr_offsets(cg_inst *in, int32_t c, int32_t u)
{
    in->in.mod[RDX_ISA_MOD_OFFSET] = 0;
    in->in.mod[RDX_ISA_MOD_OFFSET0] = c / u;
    in->in.mod[RDX_ISA_MOD_OFFSET1] = c / u + 1;
}

/* Remove the instructions merged into an earlier one (dead[i]) from block b; frees dead. */
static void drop_dead(cg_block *b, uint8_t *dead)
{
    size_t m = 0;
    for (size_t i = 0; i < b->n; i++)
        if (!dead[i]) {
            if (m != i)
                b->insts[m] = b->insts[i];
            m++;
        }
    b->n = m;
    free(dead);
}

/* ds_store_b32 of one block at offsets c, c+4, ... from the same address register whose data
   are consecutive dwords of one register (a merged global load's destination, e.g. the LDS
   OptOp's slot stores): one aligned ds_store_b64/b96/b128 (or 2addr form, as ds_form) at the
   first store's place.  The scan stops at any other LDS access, barrier, EXEC write, branch
   or write of the address or data register, so the later stores' data are the same there
   and no LDS read sees the stores in another order; the stores write distinct addresses. */
static int plain_ds_store(const cg_inst *in)
{
    return in->in.op == RDX_ISA_OP_DS_STORE_B32 && !(in->flags & CG_F_PARTIAL) && in->vr[0] &&
           in->vr[1] && in->in.opnd[1].count == 1;
}

static unsigned merge_ds_stores(cg_prog *p, known *K)
{
    unsigned merged = 0;
    for (size_t bi = 0; bi < p->nblocks; bi++) {
        cg_block *b = &p->blocks[bi];
        uint8_t *dead = b->n > 1 ? calloc(b->n, 1) : NULL;
        if (!dead)
            continue;
        for (size_t i = 0; i < b->n; i++) {
            cg_inst *first = &b->insts[i];
            if (dead[i] || !plain_ds_store(first))
                continue;
            uint32_t va = first->vr[0], dv = first->vr[1];
            unsigned areg = first->in.opnd[0].reg, dsub = first->in.opnd[1].reg;
            int32_t c = first->in.mod[RDX_ISA_MOD_OFFSET];
            size_t at[4] = { i, 0, 0, 0 };
            for (size_t j = i + 1; j < b->n && !(at[1] && at[2] && at[3]); j++) {
                const cg_inst *in = &b->insts[j];
                if (dead[j])
                    continue;
                int cand = plain_ds_store(in) && in->vr[0] == va && in->in.opnd[0].reg == areg &&
                           in->vr[1] == dv;
                if ((in->flags & (CG_F_BRANCH | CG_F_BARRIER)) || writes_exec(in) ||
                    writes(in, va) || writes(in, dv) || ((in->flags & CG_F_LGKM) && !cand))
                    break;
                if (!cand)
                    continue;
                int32_t d = in->in.mod[RDX_ISA_MOD_OFFSET] - c;
                if (d > 0 && d <= 12 && d % 4 == 0 && !at[d / 4] &&
                    in->in.opnd[1].reg == dsub + (unsigned)d / 4)
                    at[d / 4] = j;
            }
            unsigned n = 1;
            while (n < 4 && at[n])
                n++;
            rdx_isa_op op = RDX_ISA_OP_DS_LOAD_B32;
            if (n < 2 || !(n = ds_form(n, c, vreg_tz(K, va, 0), &op)))
                continue;
            first = &b->insts[i];
            switch (op) {
            case RDX_ISA_OP_DS_LOAD_2ADDR_B32:
            case RDX_ISA_OP_DS_LOAD_2ADDR_B64: {
                int32_t u = op == RDX_ISA_OP_DS_LOAD_2ADDR_B32 ? 4 : 8;
                unsigned w = (unsigned)u / 4;
                first->in.op =
                    u == 4 ? RDX_ISA_OP_DS_STORE_2ADDR_B32 : RDX_ISA_OP_DS_STORE_2ADDR_B64;
                first->in.opnd[1] = cg_vopnd(p, dv, dsub, w);
                first->in.opnd[2] = cg_vopnd(p, dv, dsub + w, w);
                first->vr[2] = dv;
                first->in.nopnd = 3;
                set_2addr_offsets(first, c, u);
                break;
            }
            default:
                first->in.op = op == RDX_ISA_OP_DS_LOAD_B64   ? RDX_ISA_OP_DS_STORE_B64
                               : op == RDX_ISA_OP_DS_LOAD_B96 ? RDX_ISA_OP_DS_STORE_B96
                                                              : RDX_ISA_OP_DS_STORE_B128;
                first->in.opnd[1] = cg_vopnd(p, dv, dsub, n);
            }
            for (unsigned k = 1; k < n; k++)
                dead[at[k]] = 1;
            merged++;
        }
        drop_dead(b, dead);
    }
    return merged;
}

unsigned cg_merge_loads(cg_prog *p)
{
    unsigned merged = 0;
    /* the vregs that exist now: only they can be renamed (merging adds new ones) */
    renames r = { calloc(p->nvregs + 1, sizeof *r.to), calloc(p->nvregs + 1, 1), p->nvregs };
    known K;
    memset(&K, 0, sizeof K);
    if (!r.to || !r.sub || !known_init(&K, p)) {
        free(r.to);
        free(r.sub);
        known_free(&K);
        return 0; /* no memory: the loads stay unmerged (correct, only slower) */
    }
    /* per vreg of the program at the start: its last def in the current block + 1 (0: none;
       reset after each block) */
    size_t nlast = p->nvregs + 1;
    uint32_t *lastdef = calloc(nlast, sizeof *lastdef);
    for (size_t bi = 0; bi < p->nblocks && lastdef; bi++) {
        cg_block *b = &p->blocks[bi];
        /* loads merged into an earlier one: dead, the block compacted at its end */
        uint8_t *dead = b->n > 1 ? calloc(2 * b->n, 1) : NULL;
        if (!dead)
            continue;
        /* the next instruction at or after each position that stops a global / an LDS
           load's scan, and the next global / LDS load (made with the shortcut below) */
        uint32_t *nx = NULL, *nstop = NULL, *ndstop = NULL, *nld = NULL, *ndld = NULL;
        /* what the scans ask of each instruction, classified once (an instruction the scans
           may still visit, j > i, is never changed: only the current first is) */
        enum { K_STOP = 1, K_LOAD = 2, K_DS_LOAD = 4, K_LDS = 8 };
        uint8_t *kind = dead + b->n;
        for (size_t j = 0; j < b->n; j++) {
            const cg_inst *in = &b->insts[j];
            kind[j] =
                (uint8_t)(((in->flags & (CG_F_VMEM_STORE | CG_F_BRANCH)) || writes_exec(in) ? K_STOP
                                                                                            : 0) |
                          (plain_load(in) ? K_LOAD : 0) | (plain_ds_load(in) ? K_DS_LOAD : 0) |
                          (in->flags & (CG_F_LGKM | CG_F_BARRIER) ? K_LDS : 0));
        }
        /* the shortcut below pays for its set-up only when the scans are long: it is built
           once they have visited twice the block (from the block as it is then: the scans
           only look at instructions after the current one, which are unchanged) */
        int fast_ok = 0;
        size_t steps = 0;
        for (size_t i = 0; i < b->n; i++) {
            cg_inst *first = &b->insts[i];
            int ds = (kind[i] & K_DS_LOAD) != 0;
            if (dead[i] || !(kind[i] & (K_LOAD | K_DS_LOAD)))
                continue;
            if (!fast_ok && !nx && steps > 2 * b->n &&
                (nx = malloc(4 * (b->n + 1) * sizeof *nx)) != NULL) {
                nstop = nx, ndstop = nx + (b->n + 1), nld = nx + 2 * (b->n + 1),
                ndld = nx + 3 * (b->n + 1);
                fast_ok = 1;
                for (size_t j = 0; j < b->n; j++)
                    for (int k = 0; k < b->insts[j].ndef; k++)
                        if (b->insts[j].vr[k] < nlast)
                            lastdef[b->insts[j].vr[k]] = (uint32_t)j + 1;
                nstop[b->n] = ndstop[b->n] = nld[b->n] = ndld[b->n] = (uint32_t)b->n;
                for (size_t j = b->n; j-- > 0;) {
                    unsigned kj = kind[j];
                    nstop[j] = (kj & K_STOP) ? (uint32_t)j : nstop[j + 1];
                    ndstop[j] = (kj & K_STOP) || ((kj & K_LDS) && !(kj & K_DS_LOAD))
                                    ? (uint32_t)j
                                    : ndstop[j + 1];
                    nld[j] = (kj & K_LOAD) ? (uint32_t)j : nld[j + 1];
                    ndld[j] = (kj & K_DS_LOAD) ? (uint32_t)j : ndld[j + 1];
                }
            }
            uint32_t va = first->vr[1], sa = ds ? 0 : first->vr[2];
            int32_t c = first->in.mod[RDX_ISA_MOD_OFFSET];
            size_t at[4] = { i, 0, 0, 0 };
            /* with the address registers not written after i, the scan ends at the next
               stopping instruction and only the loads before it can match: visit just those
               (in order, as the full scan would) */
            int fast = fast_ok && va < nlast && lastdef[va] <= i + 1 &&
                       (!sa || (sa < nlast && lastdef[sa] <= i + 1));
            const uint32_t *cand = ds ? ndld : nld;
            size_t end = fast ? (ds ? ndstop : nstop)[i + 1] : b->n;
            for (size_t j = fast ? cand[i + 1] : i + 1; j < end && !(at[1] && at[2] && at[3]);
                 j = fast ? cand[j + 1] : j + 1) {
                const cg_inst *in = &b->insts[j];
                steps++;
                if (dead[j])
                    continue;
                unsigned kj = kind[j];
                if ((kj & K_STOP) || writes(in, va) || (sa && writes(in, sa)) ||
                    (ds && (kj & K_LDS) && !(kj & K_DS_LOAD)))
                    break;
                if (ds ? !(kj & K_DS_LOAD) || in->vr[1] != va
                       : !(kj & K_LOAD) || in->vr[1] != va || in->vr[2] != sa)
                    continue;
                if (in->in.opnd[1].reg != first->in.opnd[1].reg)
                    continue;
                int32_t d = in->in.mod[RDX_ISA_MOD_OFFSET] - c;
                if (d > 0 && d <= 12 && d % 4 == 0 && !at[d / 4])
                    at[d / 4] = j;
            }
            unsigned n = 1;
            while (n < 4 && at[n])
                n++;
            rdx_isa_op dop = RDX_ISA_OP_DS_LOAD_B32;
            if (ds && n >= 2)
                n = ds_form(n, c, vreg_tz(&K, va, 0), &dop);
            if (n < 2 || c + 4 * (int32_t)(n - 1) > (ds ? 65535 : 4095))
                continue;
            uint32_t dst = cg_vreg_new(p, CG_V, n);
            if (!dst)
                break;
            first = &b->insts[i];
            for (unsigned k = 0; k < n; k++) {
                uint32_t old = b->insts[at[k]].vr[0];
                if (old < r.n) {
                    r.to[old] = dst;
                    r.sub[old] = (uint8_t)k;
                }
            }
            if (ds) {
                first->in.op = (uint16_t)dop;
                if (dop == RDX_ISA_OP_DS_LOAD_2ADDR_B32 || dop == RDX_ISA_OP_DS_LOAD_2ADDR_B64)
                    set_2addr_offsets(first, c, dop == RDX_ISA_OP_DS_LOAD_2ADDR_B32 ? 4 : 8);
            } else
                first->in.op = n == 2   ? RDX_ISA_OP_GLOBAL_LOAD_B64
                               : n == 3 ? RDX_ISA_OP_GLOBAL_LOAD_B96
                                        : RDX_ISA_OP_GLOBAL_LOAD_B128;
            first->in.opnd[0] = cg_vopnd(p, dst, 0, n);
            first->vr[0] = dst;
            for (unsigned k = 1; k < n; k++)
                dead[at[k]] = 1;
            merged++;
        }
        for (size_t j = 0; j < b->n && fast_ok; j++) /* lastdef back to 0 for the next block */
            for (int k = 0; k < b->insts[j].ndef; k++)
                if (b->insts[j].vr[k] < nlast)
                    lastdef[b->insts[j].vr[k]] = 0;
        free(nx);
        drop_dead(b, dead);
    }
    free(lastdef);
    rename_apply(p, &r);
    merged += merge_ds_stores(p, &K);
    free(r.to);
    free(r.sub);
    known_free(&K);
    return merged;
}
