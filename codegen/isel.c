/*
 * codegen/isel.c — instruction selection: the kernel-form graph walk.
 *
 * Values are lowered on demand (memoised per node).  Loops are structured:
 * an END or REDUCE over LOOP/REDUCE ranges first lowers everything its body
 * needs that does not depend on those ranges (hoisting), then opens one block
 * per loop (SGPR counter), lowers the body, and closes the loop with the
 * back edge.  Values computed inside a loop are forgotten when it closes.
 * Kernel arguments, workgroup and thread ids are lowered in the entry block.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/isel.h"
#include "util/error.h"

/* ------------------------------------------------------------ errors */

int cg_fail(isel *I, rdx_status st, const rdx_uop *u, const char *fmt, ...)
{
    if (I->st)
        return 0;
    char msg[512], d[48];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (u)
        I->st = rdx_fail(st, "isel: node #%u (%s %s): %s", u->id, rdx_op_name((rdx_op)u->op),
                         rdx_dtype_str(u->dtype, d, sizeof d), msg);
    else
        I->st = rdx_fail(st, "isel: %s", msg);
    return 0;
}

/* --------------------------------------------------- registers, operands */

uint32_t cg_new(isel *I, int file, unsigned n)
{
    if (I->st)
        return 0;
    uint32_t v = cg_vreg_new(I->p, file, n);
    if (!v)
        I->st = RDX_ERR_NOMEM;
    return v;
}

xo cg_r(isel *I, uint32_t vr, unsigned sub, unsigned count)
{
    xo x;
    memset(&x, 0, sizeof x);
    if (!vr)
        return x;
    x.o = cg_vopnd(I->p, vr, sub, count);
    x.vr = vr;
    return x;
}

xo cg_k(rdx_isa_opnd o)
{
    xo x;
    memset(&x, 0, sizeof x);
    x.o = o;
    return x;
}

xo cg_i(int32_t v)
{
    rdx_isa_opnd o;
    if (rdx_isa_constant((uint32_t)v, 32, RDX_ISA_FMT_B, &o))
        o = rdx_isa_literal((uint32_t)v);
    return cg_k(o);
}

xo cg_mask(isel *I, const cg_val *v)
{
    if (v->kind == VK_CONST) {
        cg_val m = cg_reg(I, CG_S, 1);
        INS(I, S_MOV_B32, 1, cg_r(I, m.vr, 0, 1), cg_i(v->bits ? -1 : 0));
        return cg_r(I, m.vr, 0, 1);
    }
    return cg_src(I, v, 0);
}

xo cg_exec(void)
{
    return cg_k(rdx_isa_special(RDX_ISA_REG_EXEC_LO, 1));
}

cg_val cg_reg(isel *I, int file, unsigned n)
{
    cg_val v;
    memset(&v, 0, sizeof v);
    v.kind = VK_REG;
    v.file = (uint8_t)file;
    v.n = (uint8_t)n;
    v.vr = cg_new(I, file, n);
    return v;
}

cg_val cg_const(uint64_t bits, unsigned n)
{
    cg_val v;
    memset(&v, 0, sizeof v);
    v.kind = VK_CONST;
    v.n = (uint8_t)n;
    v.bits = bits;
    return v;
}

xo cg_src(isel *I, const cg_val *v, unsigned sub)
{
    if (v->kind == VK_CONST) {
        uint32_t w = (uint32_t)(v->bits >> (32 * sub));
        if (v->n == 1 && sub == 0)
            w = (uint32_t)v->bits;
        return cg_i((int32_t)w);
    }
    if (v->kind != VK_REG) {
        cg_fail(I, RDX_ERR_INVALID, NULL, "internal: operand without a value");
        return cg_i(0);
    }
    return cg_r(I, v->vr, sub, 1);
}

static cg_inst *push(isel *I, const cg_inst *in)
{
    if (I->st)
        return NULL;
    rdx_status st = cg_block_push(I->p, I->cur, in);
    if (st) {
        I->st = st;
        return NULL;
    }
    cg_block *b = &I->p->blocks[I->cur];
    return &b->insts[b->n - 1];
}

static int is_scalar_src(const cg_inst *in, int k)
{
    const rdx_isa_opnd *o = &in->in.opnd[k];
    return o->kind == RDX_ISA_OPND_SGPR || o->kind == RDX_ISA_OPND_LITERAL ||
           (o->kind == RDX_ISA_OPND_SPECIAL && o->reg != RDX_ISA_REG_NULL);
}

/* Scalar sources beyond the constant-bus limit (2; 1 for 64-bit shifts) and
   second distinct literals move to VGPRs (VALU) or SGPRs (SALU). */
static int legalize(isel *I, cg_inst *in, const rdx_isa_form_info *fi)
{
    int valu = in->in.form == RDX_ISA_FORM_E64;
    int salu =
        fi->enc == RDX_ISA_ENC_SOP1 || fi->enc == RDX_ISA_ENC_SOP2 || fi->enc == RDX_ISA_ENC_SOPC;
    if (!valu && !salu)
        return 1;
    rdx_isa_op op = (rdx_isa_op)in->in.op;
    int limit = (op == RDX_ISA_OP_V_LSHLREV_B64 || op == RDX_ISA_OP_V_LSHRREV_B64 ||
                 op == RDX_ISA_OP_V_ASHRREV_I64)
                    ? 1
                    : 2;
    for (int iter = 0; iter < 8; iter++) {
        int nscalar = 0, nlit = 0, worst = -1;
        uint32_t seen_vr[8];
        int32_t seen_lit[8];
        int nsv = 0, nsl = 0;
        for (int k = in->ndef; k < in->in.nopnd; k++) {
            const rdx_isa_opnd *o = &in->in.opnd[k];
            if (o->kind == RDX_ISA_OPND_LITERAL) {
                int dup = 0;
                for (int j = 0; j < nsl; j++)
                    dup |= seen_lit[j] == o->value;
                if (!dup) {
                    seen_lit[nsl++] = o->value;
                    nlit++, nscalar++;
                    if (nlit > 1 || (valu && nscalar > limit))
                        worst = k;
                }
            } else if (valu && is_scalar_src(in, k)) {
                int dup = 0;
                for (int j = 0; j < nsv; j++)
                    dup |= in->vr[k] && seen_vr[j] == in->vr[k];
                if (!dup) {
                    if (in->vr[k])
                        seen_vr[nsv++] = in->vr[k];
                    nscalar++;
                    int lanemask = k < fi->nopnd && fi->opnd[k].fmt == RDX_ISA_FMT_LANEMASK;
                    if (nscalar > limit && !lanemask)
                        worst = k;
                    else if (nscalar > limit)
                        worst = worst >= 0 ? worst : -2;
                }
            }
        }
        if (worst == -1)
            return 1;
        if (worst == -2) {
            /* over the limit only because of the lane mask: move the first scalar data source */
            for (int k = in->ndef; k < in->in.nopnd; k++)
                if (is_scalar_src(in, k) &&
                    !(k < fi->nopnd && fi->opnd[k].fmt == RDX_ISA_FMT_LANEMASK)) {
                    worst = k;
                    break;
                }
            if (worst < 0)
                return 1;
        }
        rdx_isa_opnd *o = &in->in.opnd[worst];
        int lit64 =
            o->kind == RDX_ISA_OPND_LITERAL && worst < fi->nopnd && fi->opnd[worst].bits == 64;
        unsigned cnt = lit64 ? 2 : o->kind == RDX_ISA_OPND_LITERAL ? 1 : (o->count ? o->count : 1);
        uint32_t nv = cg_new(I, valu ? CG_V : CG_S, cnt);
        if (!nv)
            return 0;
        for (unsigned w = 0; w < cnt; w++) {
            cg_inst mv;
            memset(&mv, 0, sizeof mv);
            mv.in.op = valu ? RDX_ISA_OP_V_MOV_B32 : RDX_ISA_OP_S_MOV_B32;
            mv.in.form = valu ? RDX_ISA_FORM_E32 : RDX_ISA_FORM_NATIVE;
            mv.in.nopnd = 2;
            mv.in.opnd[0] = cg_vopnd(I->p, nv, w, 1);
            mv.vr[0] = nv;
            mv.in.opnd[1] = *o;
            if (lit64 && w == 0)
                mv.in.opnd[1] = rdx_isa_int(0); /* a 64-bit float literal is the high half */
            if (o->kind != RDX_ISA_OPND_LITERAL) {
                mv.in.opnd[1].reg = (uint16_t)(o->reg + w);
                mv.in.opnd[1].count = 1;
            }
            mv.vr[1] = in->vr[worst];
            mv.ndef = 1;
            mv.flags = in->flags & CG_F_PARTIAL;
            mv.target = -1;
            if (!push(I, &mv))
                return 0;
        }
        *o = cg_vopnd(I->p, nv, 0, cnt);
        in->vr[worst] = nv;
    }
    return 1;
}

cg_inst *cg_ins(isel *I, rdx_isa_op op, int ndef, unsigned flags, const xo *ops, int n)
{
    if (I->st)
        return NULL;
    cg_inst in;
    memset(&in, 0, sizeof in);
    in.in.op = (uint16_t)op;
    const rdx_isa_form_info *fi = cg_form(I->p->tgt, op, RDX_ISA_FORM_AUTO);
    in.in.form = RDX_ISA_FORM_NATIVE;
    if (!fi && rdx_isa_op_form(I->p->tgt, op, RDX_ISA_FORM_AUTO, &fi)) {
        cg_fail(I, RDX_ERR_UNSUPPORTED, NULL, "internal: %s not on the target",
                rdx_isa_op_name(op));
        return NULL;
    }
    switch (fi->enc) {
    case RDX_ISA_ENC_VOP1:
    case RDX_ISA_ENC_VOP2:
    case RDX_ISA_ENC_VOPC:
    case RDX_ISA_ENC_VOP3:
    case RDX_ISA_ENC_VOP3SD:
    case RDX_ISA_ENC_VOP3P:
        in.in.form = RDX_ISA_FORM_E64;
        break;
    default:
        break;
    }
    in.in.nopnd = (uint8_t)n;
    for (int k = 0; k < n; k++) {
        in.in.opnd[k] = ops[k].o;
        in.vr[k] = ops[k].vr;
    }
    if (!legalize(I, &in, fi))
        return NULL;
    if (fi->enc == RDX_ISA_ENC_VOP3P)
        in.in.mod[RDX_ISA_MOD_OP_SEL_HI] = 7;
    in.ndef = (uint8_t)ndef;
    in.flags = (uint16_t)flags;
    in.target = -1;
    return push(I, &in);
}

/* Constant operand for a 64-bit slot, or a materialised SGPR pair. */
xo cg_src64(isel *I, const cg_val *v, int is_float)
{
    if (v->kind == VK_CONST) {
        rdx_isa_opnd o;
        /* 64-bit integer slots take inline constants only: how a 32-bit literal
           extends there is not something to rely on */
        if (!rdx_isa_constant(v->bits, 64, is_float ? RDX_ISA_FMT_F64 : RDX_ISA_FMT_B, &o) &&
            (is_float || o.kind != RDX_ISA_OPND_LITERAL))
            return cg_k(o);
        cg_val s = cg_to_s(I, v);
        return cg_r(I, s.vr, 0, 2);
    }
    if (v->n != 2) {
        cg_fail(I, RDX_ERR_INVALID, NULL, "internal: 64-bit operand of %u dwords", v->n);
        return cg_i(0);
    }
    return cg_r(I, v->vr, 0, 2);
}

void cg_copy(isel *I, const cg_val *dst, const cg_val *src)
{
    for (unsigned w = 0; w < dst->n; w++) {
        cg_val s1 = *src;
        xo s;
        if (src->kind == VK_CONST)
            s = cg_i((int32_t)(uint32_t)(src->bits >> (32 * w)));
        else if (w < src->n)
            s = cg_src(I, &s1, w);
        else
            s = cg_i(0);
        if (dst->file == CG_S)
            INS(I, S_MOV_B32, 1, cg_r(I, dst->vr, w, 1), s);
        else
            INS(I, V_MOV_B32, 1, cg_r(I, dst->vr, w, 1), s);
    }
}

cg_val cg_to_v(isel *I, const cg_val *v)
{
    if (v->kind == VK_REG && v->file == CG_V)
        return *v;
    cg_val r = cg_reg(I, CG_V, v->n ? v->n : 1);
    cg_copy(I, &r, v);
    return r;
}

cg_val cg_to_s(isel *I, const cg_val *v)
{
    if (v->kind == VK_REG && v->file == CG_S)
        return *v;
    if (v->kind == VK_REG) {
        cg_val r = cg_reg(I, CG_S, v->n);
        for (unsigned w = 0; w < v->n; w++)
            INS(I, V_READFIRSTLANE_B32, 1, cg_r(I, r.vr, w, 1), cg_r(I, v->vr, w, 1));
        return r;
    }
    cg_val r = cg_reg(I, CG_S, v->n ? v->n : 1);
    cg_copy(I, &r, v);
    return r;
}

cg_val cg_widen(isel *I, const cg_val *v, int is_signed)
{
    if (v->n == 2)
        return *v;
    if (v->kind == VK_CONST) {
        int64_t x = is_signed ? (int64_t)(int32_t)(uint32_t)v->bits : (int64_t)(uint32_t)v->bits;
        return cg_const((uint64_t)x, 2);
    }
    int f = v->file;
    cg_val r = cg_reg(I, f, 2);
    if (f == CG_S) {
        INS(I, S_MOV_B32, 1, cg_r(I, r.vr, 0, 1), cg_r(I, v->vr, 0, 1));
        if (is_signed)
            INS(I, S_ASHR_I32, 1, cg_r(I, r.vr, 1, 1), cg_r(I, v->vr, 0, 1), cg_i(31));
        else
            INS(I, S_MOV_B32, 1, cg_r(I, r.vr, 1, 1), cg_i(0));
    } else {
        INS(I, V_MOV_B32, 1, cg_r(I, r.vr, 0, 1), cg_r(I, v->vr, 0, 1));
        if (is_signed)
            INS(I, V_ASHRREV_I32, 1, cg_r(I, r.vr, 1, 1), cg_i(31), cg_r(I, v->vr, 0, 1));
        else
            INS(I, V_MOV_B32, 1, cg_r(I, r.vr, 1, 1), cg_i(0));
    }
    return r;
}

/* --------------------------------------------------------- node facts */

static int grow_to(isel *I, uint32_t id);

/* Room in the per-node arrays for node id (the check inlined: it runs for every visit). */
static inline int grow(isel *I, uint32_t id)
{
    return id < I->cap || grow_to(I, id);
}

static int grow_to(isel *I, uint32_t id)
{
    size_t nc = I->cap ? I->cap : 1024;
    /* room for every node of the context at once: ids arrive in no order, and growing
       step by step copies the arrays again at each doubling */
    size_t want = I->ctx ? rdx_ir_node_count(I->ctx) : 0;
    while (nc <= id || nc < want)
        nc *= 2;
    cg_val *v = realloc(I->val, nc * sizeof *v);
    if (v)
        I->val = v;
    uint8_t *h = realloc(I->have, nc);
    if (h)
        I->have = h;
    uint64_t *d = realloc(I->dep, nc * sizeof *d);
    if (d)
        I->dep = d;
    uint8_t *f = realloc(I->info, nc);
    if (f)
        I->info = f;
    uint32_t *sn = realloc(I->seen, nc * sizeof *sn);
    if (sn)
        I->seen = sn;
    if (!v || !h || !d || !f || !sn) {
        I->st = rdx_fail(RDX_ERR_NOMEM, "isel: out of memory");
        return 0;
    }
    memset(I->have + I->cap, 0, nc - I->cap);
    memset(I->info + I->cap, 0, nc - I->cap);
    memset(I->seen + I->cap, 0, (nc - I->cap) * sizeof *I->seen);
    I->cap = nc;
    return 1;
}

int cg_node_grow(isel *I, uint32_t id)
{
    return grow(I, id);
}

static int is_thread_range(const rdx_uop *u)
{
    return u->op == RDX_OP_RANGE && (u->arg.sub == RDX_AXIS_GLOBAL || u->arg.sub == RDX_AXIS_LOCAL);
}

static int loop_num(isel *I, const rdx_uop *r)
{
    for (int k = 0; k < I->nloops; k++)
        if (I->loops[k] == r)
            return k;
    if (I->nloops >= CG_MAX_LOOPS) {
        cg_fail(I, RDX_ERR_UNSUPPORTED, r, "more than %d loop ranges", CG_MAX_LOOPS);
        return 0;
    }
    I->loops[I->nloops] = r;
    return I->nloops++;
}

static uint64_t dep_slow(isel *I, const rdx_uop *u);

/* The loops u depends on (memoised; the lookup inline: every scope asks for every node). */
static inline uint64_t dep(isel *I, const rdx_uop *u)
{
    if (u->id < I->cap && (I->info[u->id] & 1))
        return I->dep[u->id];
    return dep_slow(I, u);
}

static uint64_t dep_slow(isel *I, const rdx_uop *u)
{
    if (!grow(I, u->id))
        return 0;
    if (I->info[u->id] & 1)
        return I->dep[u->id];
    uint64_t m = 0;
    for (uint32_t k = 0; k < u->nsrc; k++)
        m |= dep(I, u->src[k]);
    if (u->op == RDX_OP_RANGE && !is_thread_range(u))
        m |= 1ull << loop_num(I, u);
    if (u->op == RDX_OP_END || u->op == RDX_OP_REDUCE)
        for (uint32_t k = 1; k < u->nsrc; k++)
            if (!is_thread_range(u->src[k]))
                m &= ~(1ull << loop_num(I, u->src[k]));
    if (!grow(I, u->id))
        return 0;
    I->dep[u->id] = m;
    I->info[u->id] |= 1;
    return m;
}

static int fits32(const rdx_uop *u)
{
    return u->vmin >= INT32_MIN && u->vmax <= INT32_MAX;
}

int cg_narrow(isel *I, const rdx_uop *u)
{
    (void)I;
    return u->dtype.scalar == RDX_INDEX && fits32(u);
}

unsigned cg_words(isel *I, const rdx_uop *u)
{
    switch ((rdx_scalar)u->dtype.scalar) {
    case RDX_INT64:
    case RDX_UINT64:
    case RDX_FLOAT64:
        return 2;
    case RDX_INDEX:
        return cg_narrow(I, u) ? 1 : 2;
    default:
        return 1;
    }
}

static uint32_t f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static uint16_t f16_bits_of_f32(uint32_t b)
{
    uint32_t s = (b >> 16) & 0x8000, e = (b >> 23) & 0xff, m = b & 0x7fffff;
    if (e == 0xff)
        return (uint16_t)(s | 0x7c00 | (m ? 0x200 | (m >> 13) : 0));
    int ex = (int)e - 127 + 15;
    if (ex >= 31)
        return (uint16_t)(s | 0x7c00);
    if (ex <= 0) {
        if (ex < -10)
            return (uint16_t)s;
        m |= 0x800000;
        unsigned sh = (unsigned)(14 - ex);
        uint32_t q = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
        if (rem > half || (rem == half && (q & 1)))
            q++;
        return (uint16_t)(s | q);
    }
    uint32_t q = m >> 13, rem = m & 0x1fff;
    uint32_t r = s | ((uint32_t)ex << 10) | q;
    if (rem > 0x1000 || (rem == 0x1000 && (q & 1)))
        r++;
    return (uint16_t)r;
}

uint64_t cg_const_bits(const rdx_uop *u)
{
    switch ((rdx_scalar)u->dtype.scalar) {
    case RDX_FLOAT32:
        return f32_bits((float)u->arg.f);
    case RDX_FLOAT64: {
        uint64_t b;
        double d = u->arg.f;
        memcpy(&b, &d, 8);
        return b;
    }
    case RDX_FLOAT16:
        return f16_bits_of_f32(f32_bits((float)u->arg.f));
    case RDX_BFLOAT16:
        return f32_bits((float)u->arg.f) >> 16;
    case RDX_FP8E4M3:
    case RDX_FP8E5M2:
        return rdx_f64_to_fp8(u->arg.f, (rdx_scalar)u->dtype.scalar);
    case RDX_BOOL:
        return u->arg.i ? 1 : 0;
    default:
        return (uint64_t)u->arg.i;
    }
}

/* -------------------------------------------------------------- memo */

static void remember(isel *I, const rdx_uop *u, cg_val v)
{
    if (I->st || !grow(I, u->id))
        return;
    I->val[u->id] = v;
    I->have[u->id] = 1;
    if (I->nlog >= I->logcap) {
        size_t nc = I->logcap ? I->logcap * 2 : 256;
        uint32_t *n = realloc(I->log, nc * sizeof *n);
        if (!n) {
            I->st = rdx_fail(RDX_ERR_NOMEM, "isel: out of memory");
            return;
        }
        I->log = n, I->logcap = nc;
    }
    I->log[I->nlog++] = u->id;
}

static void forget_to(isel *I, size_t mark)
{
    while (I->nlog > mark)
        I->have[I->log[--I->nlog]] = 0;
}

/* ------------------------------------------------------------- loops */

typedef struct loop_state {
    const rdx_uop *r;
    cg_val cnt, bound;
    int pre_block, body_block;
    size_t guard_at; /* index of the guard branch in pre_block, or (size_t)-1 */
    size_t mark;
} loop_state;

static void open_loop(isel *I, loop_state *ls, const rdx_uop *r)
{
    ls->r = r;
    ls->bound = cg_emit(I, r->src[0]);
    if (I->st)
        return;
    if (ls->bound.kind == VK_REG && ls->bound.file != CG_S) {
        cg_fail(I, RDX_ERR_UNSUPPORTED, r, "loop bound is not uniform (per-lane trip counts)");
        return;
    }
    if (!fits32(r->src[0]) || !cg_narrow(I, r)) {
        cg_fail(I, RDX_ERR_UNSUPPORTED, r, "loop bound does not fit in int32");
        return;
    }
    ls->cnt = cg_reg(I, CG_S, 1);
    INS(I, S_MOV_B32, 1, cg_r(I, ls->cnt.vr, 0, 1), cg_i(0));
    ls->guard_at = (size_t)-1;
    ls->pre_block = I->cur;
    if (r->src[0]->vmin < 1) {
        INS(I, S_CMP_LE_I32, 0, cg_src(I, &ls->bound, 0), cg_i(0));
        cg_inst *b = INSF(I, S_CBRANCH_SCC1, 0, CG_F_BRANCH,
                          cg_k((rdx_isa_opnd){ RDX_ISA_OPND_BRANCH, 0, 0, 0 }));
        if (b)
            ls->guard_at = I->p->blocks[I->cur].n - 1;
    }
    int body = cg_block_new(I->p);
    if (body < 0) {
        I->st = RDX_ERR_NOMEM;
        return;
    }
    I->cur = body;
    ls->body_block = body;
    ls->mark = I->nlog;
    I->open |= 1ull << loop_num(I, r);
    remember(I, r, ls->cnt);
}

static void close_loop(isel *I, loop_state *ls)
{
    if (I->st)
        return;
    INS(I, S_ADD_I32, 1, cg_r(I, ls->cnt.vr, 0, 1), cg_r(I, ls->cnt.vr, 0, 1), cg_i(1));
    INS(I, S_CMP_LT_I32, 0, cg_r(I, ls->cnt.vr, 0, 1), cg_src(I, &ls->bound, 0));
    cg_inst *b = INSF(I, S_CBRANCH_SCC1, 0, CG_F_BRANCH,
                      cg_k((rdx_isa_opnd){ RDX_ISA_OPND_BRANCH, 0, 0, 0 }));
    if (b)
        b->target = ls->body_block;
    int exit = cg_block_new(I->p);
    if (exit < 0) {
        I->st = RDX_ERR_NOMEM;
        return;
    }
    if (ls->guard_at != (size_t)-1)
        I->p->blocks[ls->pre_block].insts[ls->guard_at].target = exit;
    I->cur = exit;
    I->open &= ~(1ull << loop_num(I, ls->r));
    forget_to(I, ls->mark);
}

static int is_pure(rdx_op op)
{
    return (rdx_op_info(op)->flags & RDX_OPF_ELEMENTWISE) || op == RDX_OP_BITCAST ||
           op == RDX_OP_CONST || op == RDX_OP_GEP;
}

static int param_load(const rdx_uop *u)
{
    return u->op == RDX_OP_LOAD && u->src[0]->op == RDX_OP_INDEX &&
           (u->src[0]->src[0]->op == RDX_OP_PARAM || u->src[0]->src[0]->op == RDX_OP_BUFFER);
}

/* A LOAD from a DEFINE_LOCAL (through AFTERs). */
static int lds_load(const rdx_uop *u)
{
    if (u->op != RDX_OP_LOAD || u->src[0]->op != RDX_OP_INDEX)
        return 0;
    const rdx_uop *b = u->src[0]->src[0];
    while (b->op == RDX_OP_AFTER)
        b = b->src[0];
    return b->op == RDX_OP_DEFINE_LOCAL;
}

static inline int in_scope(isel *I, const rdx_uop *u)
{
    return grow(I, u->id) && !I->have[u->id] && !(dep(I, u) & ~I->open);
}

/*
 * Lower everything under `root` that the current scope can compute (depends
 * on no loop that is not open), in topological order:
 *  - first the global loads straight from a PARAM/BUFFER, until their
 *    destinations reach SCOPE_LOAD_DWORDS registers (the rest below);
 *  - then the pure values and the global loads straight from a PARAM/BUFFER
 *    (loads are issued before the effects that use them: latencies overlap and
 *    adjacent ones merge; anything ordered by AFTER keeps its place), and the
 *    invariant terms of the row-major linearisation of each INDEX;
 *  - then the rest (stores, inner loops, barriers, register accesses).
 * Before a loop opens this hoists its invariants; it also keeps lowering from
 * recursing deeply (a long chain of ALU ops cannot exhaust the stack).
 */
#define SCOPE_LOAD_DWORDS 96

/* loads_only: just the loads-first pass (the caller lowers the values on demand, one
   after the other, so their temporaries do not all live at once), unless the graph is
   large enough for on-demand lowering to recurse deeply. */
#define SCOPE_ON_DEMAND_MAX 4096
static void scope_emit_topo(isel *I, const rdx_uop *const *topo, size_t n, int loads_only)
{
    /* pass 0: the global loads first (up to a budget of destination dwords), so
       their latencies overlap and the arithmetic waits as late as it can */
    unsigned budget = SCOPE_LOAD_DWORDS;
    for (size_t i = 0; i < n && !I->st && budget; i++) {
        const rdx_uop *u = topo[i];
        if (!param_load(u) || !in_scope(I, u) || u->dtype.count != 1 ||
            (I->info[u->id] & (CG_INFO_FRAG_MEMBER | CG_INFO_ACC_BOUND | CG_INFO_LAZY)))
            continue; /* WMMA fragment loads go with their fragment */
        unsigned w = rdx_dtype_itemsize(u->dtype) > 4 ? 2 : 1;
        if (w > budget)
            break;
        budget -= w;
        cg_emit(I, u);
    }
    /* then the LDS loads of the scope (codegen/lds_stage.c's staged tiles: their stores and
       barriers come with them), so their latencies overlap too */
    for (size_t i = 0; i < n && !I->st && budget; i++) {
        const rdx_uop *u = topo[i];
        if (!lds_load(u) || !in_scope(I, u) || u->dtype.count != 1 ||
            (I->info[u->id] & (CG_INFO_FRAG_MEMBER | CG_INFO_ACC_BOUND | CG_INFO_LAZY)))
            continue;
        unsigned w = rdx_dtype_itemsize(u->dtype) > 4 ? 2 : 1;
        if (w > budget)
            break;
        budget -= w;
        cg_emit(I, u);
    }
    for (int pass = 1; pass < 3 && !(loads_only && n <= SCOPE_ON_DEMAND_MAX); pass++)
        for (size_t i = 0; i < n && !I->st; i++) {
            const rdx_uop *u = topo[i];
            if ((!in_scope(I, u) && u->op != RDX_OP_INDEX) || (I->info[u->id] & CG_INFO_DEFERRED))
                continue;
            if (u->op == RDX_OP_RANGE || u->op == RDX_OP_DEFINE_LOCAL || u->op == RDX_OP_DEFINE_REG)
                continue;
            /* WMMA: fragment loads go with their fragment, accumulated tiles with their REDUCE */
            if ((I->info[u->id] & (CG_INFO_ACC_BOUND | CG_INFO_LAZY)) ||
                ((I->info[u->id] & CG_INFO_FRAG_MEMBER) && param_load(u)))
                continue;
            if (u->op == RDX_OP_INDEX) {
                if (pass > 1 || u->nsrc <= 2)
                    continue;
                const rdx_uop *lin = cg_index_linear(I, u), **lt;
                size_t ln;
                if (!lin || rdx_ir_toposort(lin, &lt, &ln))
                    continue;
                for (size_t q = 0; q < ln && !I->st; q++)
                    if (is_pure((rdx_op)lt[q]->op) && in_scope(I, lt[q]))
                        cg_emit(I, lt[q]);
                free(lt);
                continue;
            }
            if (pass == 1 && !is_pure((rdx_op)u->op) && !param_load(u) && !cg_wmma_frag_node(u))
                continue;
            switch ((rdx_op)u->op) {
            case RDX_OP_STACK: /* shape operands */
            case RDX_OP_SINK:
            case RDX_OP_GROUP:
                continue;
            default:
                cg_emit(I, u);
            }
        }
}

static int contractible(const rdx_uop *red)
{
    return red->arg.sub == RDX_RED_ADD && red->dtype.scalar == RDX_FLOAT32 && red->dtype.count == 1;
}

static int is_f32(const rdx_uop *u, rdx_op op)
{
    return u->op == op && u->dtype.scalar == RDX_FLOAT32 && u->dtype.count == 1;
}

/*
 * The terms of the float32 ADD tree v (ADDs computed already are terms
 * themselves) into terms[MAX_TERMS]; returns their count.  With `defer`, the
 * tree's ADDs and MUL terms get CG_INFO_DEFERRED: scope_emit_topo leaves them to the
 * contraction.
 */
#define MAX_TERMS 256
static size_t sum_terms(isel *I, const rdx_uop *v, const rdx_uop **terms, int defer)
{
    const rdx_uop *stk[MAX_TERMS];
    size_t sp = 0, nt = 0;
    stk[sp++] = v;
    while (sp && !I->st) {
        const rdx_uop *u = stk[--sp];
        if (!grow(I, u->id))
            return 0;
        int comp = I->have[u->id];
        if (is_f32(u, RDX_OP_ADD) && !comp && nt + sp + 2 <= MAX_TERMS) {
            stk[sp++] = u->src[1];
            stk[sp++] = u->src[0];
        } else
            terms[nt++] = u;
        if (defer && !comp && (is_f32(u, RDX_OP_ADD) || is_f32(u, RDX_OP_MUL)))
            I->info[u->id] |= CG_INFO_DEFERRED;
    }
    return nt;
}

/* acc OP= v, the result written straight into acc when the op is one instruction
   defining a fresh register nothing has read yet (no copy). */
static void acc_update(isel *I, const rdx_uop *red, rdx_op op, cg_val *acc, const cg_val *v)
{
    cg_block *bl = &I->p->blocks[I->cur];
    size_t mark = bl->n;
    cg_val t = cg_alu_binary(I, red, op, red->dtype, cg_narrow(I, red), acc, v);
    bl = &I->p->blocks[I->cur];
    if (I->st)
        return;
    if (t.kind == VK_REG && t.file == acc->file && t.n == acc->n && bl->n == mark + 1 &&
        bl->insts[mark].ndef == 1 && bl->insts[mark].vr[0] == t.vr &&
        !(bl->insts[mark].flags & CG_F_PARTIAL)) {
        int read = 0;
        for (int k = 1; k < bl->insts[mark].in.nopnd; k++)
            read |= bl->insts[mark].vr[k] == t.vr;
        if (!read) {
            bl->insts[mark].vr[0] = acc->vr;
            return;
        }
    }
    cg_copy(I, acc, &t);
}

/*
 * The update of REDUCE red's accumulator by one iteration's value.  A float32
 * sum of products (the value a tree of ADDs over MULs, as a matmul or an
 * unrolled dot product gives) is contracted: acc = fma(a, b, acc) per
 * product (one rounding per product, as fp-contract in C compilers), the other
 * terms added one by one.
 */
static void accumulate(isel *I, const rdx_uop *red, cg_val *acc)
{
    static const rdx_op ops[] = { RDX_OP_ADD, RDX_OP_MAX, RDX_OP_MUL, RDX_OP_COUNT };
    rdx_op op = ops[red->arg.sub];
    const rdx_uop *v0 = red->src[0];
    if (!contractible(red) || acc->file != CG_V || acc->n != 1) {
        cg_val v = cg_emit(I, v0);
        acc_update(I, red, op, acc, &v);
        return;
    }
    const rdx_uop *terms[MAX_TERMS];
    size_t nt = sum_terms(I, v0, terms, 0);
    for (size_t i = 0; i < nt && !I->st; i++) {
        const rdx_uop *u = terms[i];
        if (is_f32(u, RDX_OP_MUL) && !I->have[u->id]) {
            cg_val a = cg_emit(I, u->src[0]), b = cg_emit(I, u->src[1]);
            if (I->st)
                return;
            INS(I, V_FMA_F32, 1, cg_r(I, acc->vr, 0, 1), cg_src(I, &a, 0), cg_src(I, &b, 0),
                cg_r(I, acc->vr, 0, 1));
        } else {
            cg_val v = cg_emit(I, u);
            acc_update(I, red, op, acc, &v);
        }
    }
}

/* A scope's walk stops at nodes lowered already (their sources were lowered with
   them, or belong to a loop closed since): the ENDs of an upcast kernel's stores each
   lower their store in a scope of their own, and each walked the whole kernel again
   (32 stores of a fused softmax row: 32 walks of ~1800 nodes). */
static int lowered(void *user, const rdx_uop *u)
{
    const isel *I = user;
    return u->id < I->cap && I->have[u->id];
}

/*
 * Lower the effect/value `root` inside loops over ranges[0..n) (outermost
 * first).  With reds[0..nred) (REDUCEs over exactly these ranges whose values
 * `root` covers), one accumulator per REDUCE is kept in registers across the
 * loops and accs[] receives them.
 */
static void in_loops(isel *I, const rdx_uop *root, const rdx_uop *const *ranges, int n,
                     const rdx_uop *const *reds, int nred, cg_val *accs)
{
    loop_state ls[CG_MAX_LOOPS];
    int nl = 0;
    for (int k = 0; k < n; k++)
        if (!is_thread_range(ranges[k]))
            loop_num(I, ranges[k]); /* numbered outer first */
    const rdx_uop **topo = NULL;
    size_t ntopo = 0;
    rdx_status tst = rdx_ir_toposort_cut(root, lowered, I, &topo, &ntopo);
    if (tst) {
        I->st = tst;
        return;
    }
    /* WMMA tiles accumulated around the loops (such a REDUCE has a loop of its own) */
    int vred = nred == 1 && reds[0]->dtype.count > 1;
    for (int i = 0; i < nred && !I->st; i++) {
        const rdx_uop *red = reds[i];
        if (vred) {
            scope_emit_topo(I, topo, ntopo, 0);
            accs[i] = cg_wmma_acc_init(I, red);
            continue;
        }
        unsigned w = cg_words(I, red);
        int file = red->dtype.scalar == RDX_BOOL ? CG_S : CG_V;
        accs[i] = cg_reg(I, file, w);
        uint64_t id = cg_red_identity((rdx_redop)red->arg.sub, red->dtype);
        if (file == CG_S && id) /* a bool is a lane mask: true (MIN's identity) is every lane */
            id = 0xffffffffu;
        cg_val c = cg_const(id, w);
        cg_copy(I, &accs[i], &c);
    }
    for (int k = 0; k < n && !I->st; k++) {
        if (is_thread_range(ranges[k]))
            continue;
        scope_emit_topo(I, topo, ntopo, 0);
        open_loop(I, &ls[nl], ranges[k]);
        nl++;
    }
    const rdx_uop *terms[MAX_TERMS];
    for (int i = 0; i < nred && !I->st; i++)
        if (contractible(reds[i]) && (accs[i].file == CG_V && accs[i].n == 1))
            sum_terms(I, reds[i]->src[0], terms, 1);
    /* a reduction's terms are lowered one by one as they are accumulated */
    scope_emit_topo(I, topo, ntopo, nred > 0 && !vred);
    free(topo);
    if (!nred)
        cg_emit(I, root);
    for (int i = 0; i < nred && !I->st; i++) {
        if (vred)
            cg_wmma_acc_step(I, reds[i], &accs[i]);
        else
            accumulate(I, reds[i], &accs[i]);
    }
    /* (CG_INFO_DEFERRED stays on the contracted nodes: they have values until the loop
       closes and then depend on a closed range; it only stops eager lowering) */
    while (nl > 0)
        close_loop(I, &ls[--nl]);
}

/*
 * Mark (with a new stamp) the value graph of REDUCE r below the nodes that
 * already have values; 0 when it contains an effect or ordered storage access
 * (AFTER, STORE, END, BARRIER, WMMA, registers, LDS): such a REDUCE keeps its
 * own loop.
 */
static int mark_values(isel *I, const rdx_uop *const *r, int nr, const rdx_uop ***stk, size_t *cap);

static int mark_value(isel *I, const rdx_uop *r, const rdx_uop ***stk, size_t *cap)
{
    return mark_values(I, &r, 1, stk, cap);
}

/* Mark x with stamp s and push it on the walk's stack, unless marked already; 0 on failure. */
static int mark_push(isel *I, uint32_t s, const rdx_uop *x, const rdx_uop ***stk, size_t *cap,
                     size_t *sp)
{
    if (!grow(I, x->id))
        return 0;
    if (I->seen[x->id] == s)
        return 1;
    I->seen[x->id] = s;
    if (*sp == *cap) {
        size_t nc = *cap * 2;
        const rdx_uop **ns = realloc(*stk, nc * sizeof *ns);
        if (!ns) {
            I->st = rdx_fail(RDX_ERR_NOMEM, "isel: out of memory");
            return 0;
        }
        *stk = ns, *cap = nc;
    }
    (*stk)[(*sp)++] = x;
    return 1;
}

/* A node of the LDS staging the LDS OptOp builds (codegen/lds_stage.c): a DEFINE_LOCAL, an
   AFTER of one, a STORE into one, a BARRIER.  Its stores do not depend on the copies of an
   upcast REDUCE (one staging per iteration serves them all), so such REDUCEs may share a loop. */
static int lds_staging(const rdx_uop *u)
{
    const rdx_uop *b = u->op == RDX_OP_STORE ? u->src[0]->src[0] : u->op == RDX_OP_AFTER ? u : NULL;
    while (b && b->op == RDX_OP_AFTER)
        b = b->src[0];
    return u->op == RDX_OP_BARRIER || u->op == RDX_OP_DEFINE_LOCAL ||
           (b && b->op == RDX_OP_DEFINE_LOCAL);
}

/* mark_value of several REDUCEs under one stamp (the union of their value graphs). */
static int mark_values(isel *I, const rdx_uop *const *r, int nr, const rdx_uop ***stk, size_t *cap)
{
    uint32_t s = ++I->stamp;
    size_t sp = 0;
    int ok = 1;
    for (int i = 0; i < nr; i++)
        if (!mark_push(I, s, r[i]->src[0], stk, cap, &sp))
            return 0;
    while (sp && ok) {
        const rdx_uop *u = (*stk)[--sp];
        switch ((rdx_op)u->op) {
        case RDX_OP_ATOMICADD:
            ok = 0;
            continue;
        case RDX_OP_AFTER:
        case RDX_OP_STORE:
        case RDX_OP_BARRIER:
        case RDX_OP_DEFINE_LOCAL:
            if (lds_staging(u))
                break; /* LDS staging (codegen/lds_stage.c): shared, emitted once per iteration */
            ok = 0;
            continue;
        case RDX_OP_END:
        case RDX_OP_WMMA:
        case RDX_OP_DEFINE_REG:
            ok = 0;
            continue;
        default:
            break;
        }
        if (I->have[u->id])
            continue;
        for (uint32_t k = 0; k < u->nsrc && ok; k++)
            if (!mark_push(I, s, u->src[k], stk, cap, &sp))
                return 0;
    }
    return ok;
}

#define CG_MAX_RED_GROUP 64

/*
 * The REDUCEs that can share u's loops: over the same ranges, not lowered
 * yet, computable in the current scope, free of effects, and independent of
 * u and of each other (none reads another's result).  grp[0] = u.
 */
static int reduce_group(isel *I, const rdx_uop *u, const rdx_uop **grp)
{
    grp[0] = u;
    int ng = 1, nc = 1;
    size_t cap = 64;
    const rdx_uop **stk = malloc(cap * sizeof *stk), *cand[CG_MAX_RED_GROUP];
    if (!stk)
        return 1;
    cand[0] = u;
    for (size_t i = 0; i < I->nreds && nc < CG_MAX_RED_GROUP && !I->st; i++) {
        const rdx_uop *s = I->reds[i];
        if (s == u || s->nsrc != u->nsrc || s->arg.nints || !grow(I, s->id) || I->have[s->id])
            continue;
        int same = 1;
        for (uint32_t k = 1; k < u->nsrc && same; k++)
            same = s->src[k] == u->src[k];
        if (same && !(dep(I, s) & ~I->open))
            cand[nc++] = s;
    }
    /* the usual case (an upcast's copies): one walk over all values finds no effect and
       no candidate read by another; else the candidates are checked pairwise */
    if (nc > 1 && mark_values(I, cand, nc, &stk, &cap)) {
        int indep = 1;
        for (int j = 0; j < nc && indep; j++)
            indep = I->seen[cand[j]->id] != I->stamp;
        if (indep) {
            memcpy(grp, cand, (size_t)nc * sizeof *grp);
            free(stk);
            return nc;
        }
    }
    for (int i = 1; i < nc && !I->st; i++) {
        const rdx_uop *s = cand[i];
        if (ng == 1 && !mark_value(I, u, &stk, &cap))
            break; /* u itself has effects: no grouping */
        /* s must not read u or an earlier member, nor they s */
        int indep = mark_value(I, s, &stk, &cap);
        for (int j = 0; j < ng && indep; j++)
            indep = I->seen[grp[j]->id] != I->stamp;
        for (int j = 0; j < ng && indep; j++) {
            indep = mark_value(I, grp[j], &stk, &cap) && I->seen[s->id] != I->stamp;
        }
        if (indep)
            grp[ng++] = s;
    }
    free(stk);
    return ng;
}

/* ----------------------------------------------------------- ABI values */

static cg_val lid(isel *I, int d)
{
    if (I->lid_vr[d])
        return (cg_val){ .kind = VK_REG, .file = CG_V, .n = 1, .vr = I->lid_vr[d] };
    cg_val r = cg_reg(I, CG_V, 1);
    if (d == 0)
        INS(I, V_AND_B32, 1, cg_r(I, r.vr, 0, 1), cg_i(0x3ff), cg_r(I, I->tid_vr, 0, 1));
    else
        INS(I, V_BFE_U32, 1, cg_r(I, r.vr, 0, 1), cg_r(I, I->tid_vr, 0, 1), cg_i(10 * d), cg_i(10));
    I->lid_vr[d] = r.vr;
    return r;
}

static int special_dim(const char *s, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(s, prefix, n) || !s[n] || s[n + 1] || s[n] < '0' || s[n] > '2')
        return -1;
    return s[n] - '0';
}

/* Thread-id values: kind 0 gidx, 1 lidx, 2 idx in dimension d. */
static cg_val thread_value(isel *I, const rdx_uop *u, int kind, int d)
{
    if (!fits32(u)) {
        cg_fail(I, RDX_ERR_UNSUPPORTED, u, "thread index range exceeds int32");
        return cg_const(0, 1);
    }
    if (kind == 0)
        return (cg_val){ .kind = VK_REG, .file = CG_S, .n = 1, .vr = I->wgid_vr[d] };
    if (kind == 1)
        return lid(I, d);
    cg_val base = cg_reg(I, CG_S, 1), r = cg_reg(I, CG_V, 1);
    cg_val l = lid(I, d);
    INS(I, S_MUL_I32, 1, cg_r(I, base.vr, 0, 1), cg_r(I, I->wgid_vr[d], 0, 1),
        cg_i((int32_t)I->wg[d]));
    INS(I, V_ADD_NC_U32, 1, cg_r(I, r.vr, 0, 1), cg_r(I, base.vr, 0, 1), cg_r(I, l.vr, 0, 1));
    return r;
}

/* ---------------------------------------------------------------- emit */

static cg_val none(void)
{
    cg_val v;
    memset(&v, 0, sizeof v);
    return v;
}

static cg_val emit_param(isel *I, const rdx_uop *u)
{
    struct rdx_codegen_kernel *k = I->k;
    for (size_t a = 0; a < k->nargs; a++) {
        if (k->args[a].node != u)
            continue;
        const rdx_codegen_arg *ar = &k->args[a];
        unsigned words = ar->size > 4 ? 2 : 1;
        cg_val r = cg_reg(I, CG_S, words);
        int blk = I->cur;
        I->cur = I->entry_block;
        if (words == 2)
            INSF(I, S_LOAD_B64, 1, CG_F_LGKM | CG_F_SMEM, cg_r(I, r.vr, 0, 2),
                 cg_r(I, I->kernarg_vr, 0, 2), cg_k(rdx_isa_imm((int32_t)ar->offset)));
        else
            INSF(I, S_LOAD_B32, 1, CG_F_LGKM | CG_F_SMEM, cg_r(I, r.vr, 0, 1),
                 cg_r(I, I->kernarg_vr, 0, 2), cg_k(rdx_isa_imm((int32_t)(ar->offset & ~3u))));
        if (words == 1 && (ar->offset & 3)) {
            /* SMEM ignores an offset's low two bits: a 1- or 2-byte argument at offset
               4n + b is byte b of the dword loaded from 4n */
            cg_val sh = cg_reg(I, CG_S, 1);
            INS(I, S_LSHR_B32, 1, cg_r(I, sh.vr, 0, 1), cg_r(I, r.vr, 0, 1),
                cg_i((int32_t)(ar->offset & 3) * 8));
            r = sh;
        }
        if (ar->kind != RDX_CG_ARG_BUFFER && ar->size < 4) {
            rdx_dtype d = ar->dtype;
            if (d.scalar == RDX_BOOL) {
                cg_val m = cg_reg(I, CG_S, 1);
                INS(I, S_AND_B32, 1, cg_r(I, m.vr, 0, 1), cg_r(I, r.vr, 0, 1), cg_i(0xff));
                INS(I, S_CMP_LG_U32, 0, cg_r(I, m.vr, 0, 1), cg_i(0));
                INS(I, S_CSELECT_B32, 1, cg_r(I, m.vr, 0, 1), cg_i(-1), cg_i(0));
                m.umask = 1;
                r = m;
            } else if (rdx_dtype_is_int(d)) {
                cg_val m = cg_reg(I, CG_S, 1);
                unsigned bits = ar->size * 8;
                if (rdx_dtype_is_unsigned(d))
                    INS(I, S_AND_B32, 1, cg_r(I, m.vr, 0, 1), cg_r(I, r.vr, 0, 1),
                        cg_i((int32_t)((1u << bits) - 1)));
                else if (bits == 8)
                    INS(I, S_SEXT_I32_I8, 1, cg_r(I, m.vr, 0, 1), cg_r(I, r.vr, 0, 1));
                else
                    INS(I, S_SEXT_I32_I16, 1, cg_r(I, m.vr, 0, 1), cg_r(I, r.vr, 0, 1));
                r = m;
            }
        }
        I->cur = blk;
        if (u->op == RDX_OP_DEFINE_VAR && cg_words(I, u) == 1 && words == 2) {
            cg_val lo = cg_reg(I, CG_S, 1);
            INS(I, S_MOV_B32, 1, cg_r(I, lo.vr, 0, 1), cg_r(I, r.vr, 0, 1));
            r = lo;
        }
        return r;
    }
    cg_fail(I, RDX_ERR_INVALID, u, "not a kernel argument");
    return none();
}

static cg_val emit_after(isel *I, const rdx_uop *u)
{
    for (uint32_t k = 1; k < u->nsrc; k++)
        cg_emit(I, u->src[k]);
    return cg_emit(I, u->src[0]);
}

static cg_val emit_end(isel *I, const rdx_uop *u)
{
    /* Close ranges in source order: the first is the outermost. */
    in_loops(I, u->src[0], u->src + 1, (int)u->nsrc - 1, NULL, 0, NULL);
    return none();
}

/* A REDUCE, together with the other REDUCEs over the same ranges that can share its loops
   (e.g. the copies of an upcast axis): one loop nest, one accumulator each. */
static cg_val emit_reduce(isel *I, const rdx_uop *u)
{
    if (u->arg.nints)
        return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "tensor-level REDUCE (axes) in a kernel"), none();
    const rdx_uop *grp[CG_MAX_RED_GROUP], *vals[CG_MAX_RED_GROUP];
    cg_val accs[CG_MAX_RED_GROUP];
    int ng = reduce_group(I, u, grp);
    const rdx_uop *root = u->src[0];
    if (ng > 1) {
        for (int i = 0; i < ng; i++)
            vals[i] = grp[i]->src[0];
        root = rdx_ir_node(I->ctx, RDX_OP_GROUP, vals, (size_t)ng, NULL);
        if (!root) {
            I->st = rdx_fail(RDX_ERR_NOMEM, "isel: grouping REDUCE node %%%u", u->id);
            return none();
        }
    }
    in_loops(I, root, u->src + 1, (int)u->nsrc - 1, grp, ng, accs);
    for (int i = 1; i < ng; i++)
        remember(I, grp[i], accs[i]);
    return accs[0];
}

static cg_val emit_barrier(isel *I, const rdx_uop *u)
{
    for (uint32_t k = 0; k < u->nsrc; k++)
        cg_emit(I, u->src[k]);
    if (I->p->ct->major >= 12) { /* gfx12 splits the barrier: signal, then wait */
        INSF(I, S_BARRIER_SIGNAL, 0, CG_F_BARRIER, cg_k(rdx_isa_int(-1)));
        INS(I, S_BARRIER_WAIT, 0, cg_k(rdx_isa_imm(0xffff))); /* -1 */
    } else
        INS0(I, S_BARRIER, CG_F_BARRIER);
    return none();
}

static cg_val emit_vectorlike(isel *I, const rdx_uop *u)
{
    return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "op not supported by the back end yet"), none();
}

cg_val cg_emit(isel *I, const rdx_uop *u)
{
    if (I->st || !grow(I, u->id))
        return none();
    if (I->have[u->id])
        return I->val[u->id];
    cg_val v = none();
    switch ((rdx_op)u->op) {
    case RDX_OP_CONST:
        v = cg_const(cg_const_bits(u), cg_words(I, u));
        break;
    case RDX_OP_PARAM:
    case RDX_OP_BUFFER:
    case RDX_OP_DEFINE_VAR:
        v = emit_param(I, u);
        break;
    case RDX_OP_BIND:
        v = cg_emit(I, u->src[1]);
        break;
    case RDX_OP_SPECIAL: {
        const char *s = u->arg.str;
        int d;
        if ((d = special_dim(s, "gidx")) >= 0)
            v = thread_value(I, u, 0, d);
        else if ((d = special_dim(s, "lidx")) >= 0)
            v = thread_value(I, u, 1, d);
        else if ((d = special_dim(s, "idx")) >= 0)
            v = thread_value(I, u, 2, d);
        else
            cg_fail(I, RDX_ERR_UNSUPPORTED, u, "SPECIAL \"%s\" (expected gidxN, lidxN, idxN)", s);
        break;
    }
    case RDX_OP_RANGE:
        if (is_thread_range(u)) {
            /* mapped in the prepass: look it up there */
            cg_fail(I, RDX_ERR_INVALID, u, "internal: thread range without a dimension");
        } else
            cg_fail(I, RDX_ERR_INVALID, u, "RANGE used outside its loop");
        break;
    case RDX_OP_DEFINE_LOCAL:
    case RDX_OP_DEFINE_REG:
    case RDX_OP_INDEX:
        break; /* storage: used through LOAD / STORE */
    case RDX_OP_AFTER:
        v = emit_after(I, u);
        break;
    case RDX_OP_LOAD:
        v = cg_load(I, u);
        break;
    case RDX_OP_STORE:
        cg_store(I, u);
        break;
    case RDX_OP_ATOMICADD:
        cg_atomic_add(I, u);
        break;
    case RDX_OP_END:
        v = emit_end(I, u);
        break;
    case RDX_OP_REDUCE:
        v = emit_reduce(I, u);
        break;
    case RDX_OP_BARRIER:
        v = emit_barrier(I, u);
        break;
    case RDX_OP_SINK:
    case RDX_OP_GROUP:
        for (uint32_t k = 0; k < u->nsrc; k++)
            cg_emit(I, u->src[k]);
        break;
    case RDX_OP_ADD:
    case RDX_OP_MUL:
    case RDX_OP_MAX:
    case RDX_OP_MOD:
    case RDX_OP_IDIV:
    case RDX_OP_CMPLT:
    case RDX_OP_CMPNE:
    case RDX_OP_XOR:
    case RDX_OP_OR:
    case RDX_OP_AND:
    case RDX_OP_SHR:
    case RDX_OP_SHL:
    case RDX_OP_WHERE:
    case RDX_OP_RECIP:
    case RDX_OP_TRUNC:
    case RDX_OP_CAST:
    case RDX_OP_BITCAST:
        if (u->dtype.count != 1)
            return emit_vectorlike(I, u);
        v = cg_alu(I, u);
        break;
    case RDX_OP_WMMA:
        v = cg_wmma(I, u);
        break;
    case RDX_OP_GEP:
        v = cg_wmma_gep(I, u);
        break;
    case RDX_OP_VECTORIZE: /* WMMA operands: fragments of halves, or lanes (C) */
        if (u->nsrc == 16 && (u->dtype.scalar == RDX_FLOAT16 || u->dtype.scalar == RDX_BFLOAT16)) {
            v = cg_wmma_frag(I, u);
            break;
        }
        for (uint32_t k = 0; k < u->nsrc; k++)
            cg_emit(I, u->src[k]);
        break;
    default:
        return emit_vectorlike(I, u);
    }
    if (!I->st && u->op != RDX_OP_RANGE)
        remember(I, u, v);
    return v;
}

/* ---------------------------------------------------------- prepass */

static int cmp_axis_desc(const void *a, const void *b)
{
    const rdx_uop *x = *(const rdx_uop *const *)a, *y = *(const rdx_uop *const *)b;
    return x->arg.i < y->arg.i ? 1 : x->arg.i > y->arg.i ? -1 : 0;
}

static int cmp_slot(const void *a, const void *b)
{
    const rdx_uop *x = *(const rdx_uop *const *)a, *y = *(const rdx_uop *const *)b;
    return x->arg.i < y->arg.i ? -1 : x->arg.i > y->arg.i;
}

static int cmp_var(const void *a, const void *b)
{
    const rdx_uop *x = *(const rdx_uop *const *)a, *y = *(const rdx_uop *const *)b;
    return strcmp(x->arg.str, y->arg.str);
}

static rdx_status add_arg(struct rdx_codegen_kernel *k, rdx_codegen_arg a, uint32_t *off)
{
    rdx_codegen_arg *n = realloc(k->args, (k->nargs + 1) * sizeof *n);
    if (!n)
        return rdx_fail(RDX_ERR_NOMEM, "isel: out of memory");
    k->args = n;
    uint32_t al = a.size >= 8 ? 8 : a.size >= 4 ? 4 : a.size;
    *off = (*off + al - 1) / al * al;
    a.offset = *off;
    *off += a.size;
    k->args[k->nargs++] = a;
    return RDX_OK;
}

/* Collect arguments, dimensions, LDS; lower the ABI values in the entry block. */
static rdx_status prepass(isel *I, const rdx_uop *const *topo, size_t n,
                          const rdx_codegen_options *o)
{
    struct rdx_codegen_kernel *k = I->k;
    const rdx_uop *params[256], *vars[64], *gr[3], *lr[3];
    size_t np = 0, nv = 0, ng = 0, nl = 0;
    int has_special = 0;
    const rdx_uop *sp[3][3]; /* [kind][dim] */
    memset(sp, 0, sizeof sp);
    for (size_t i = 0; i < n; i++) {
        const rdx_uop *u = topo[i];
        switch ((rdx_op)u->op) {
        case RDX_OP_PARAM:
        case RDX_OP_BUFFER:
            if (np >= 256)
                return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "more than 256 parameters"), I->st;
            params[np++] = u;
            break;
        case RDX_OP_REDUCE:
            I->reds[I->nreds++] = u;
            break;
        case RDX_OP_DEFINE_VAR:
            if (nv >= 64)
                return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "more than 64 variables"), I->st;
            vars[nv++] = u;
            break;
        case RDX_OP_RANGE:
            if (u->arg.sub == RDX_AXIS_GLOBAL || u->arg.sub == RDX_AXIS_LOCAL) {
                if ((u->arg.sub == RDX_AXIS_GLOBAL ? ng : nl) >= 3)
                    return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "more than 3 %s ranges",
                                   rdx_axistype_name((rdx_axistype)u->arg.sub)),
                           I->st;
                if (u->arg.sub == RDX_AXIS_GLOBAL)
                    gr[ng++] = u;
                else
                    lr[nl++] = u;
            } else if (u->arg.sub != RDX_AXIS_LOOP && u->arg.sub != RDX_AXIS_REDUCE &&
                       u->arg.sub != RDX_AXIS_GROUP_REDUCE) {
                return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "RANGE of axis type %s (expand first)",
                               rdx_axistype_name((rdx_axistype)u->arg.sub)),
                       I->st;
            }
            break;
        case RDX_OP_SPECIAL: {
            const char *s = u->arg.str;
            int d, kind = -1;
            if ((d = special_dim(s, "gidx")) >= 0)
                kind = 0;
            else if ((d = special_dim(s, "lidx")) >= 0)
                kind = 1;
            else if ((d = special_dim(s, "idx")) >= 0)
                kind = 2;
            if (kind < 0)
                return cg_fail(I, RDX_ERR_UNSUPPORTED, u,
                               "SPECIAL \"%s\" (expected gidxN, lidxN, idxN)", s),
                       I->st;
            if (sp[kind][d] && sp[kind][d] != u)
                return cg_fail(I, RDX_ERR_INVALID, u, "two different SPECIAL \"%s\"", s), I->st;
            sp[kind][d] = u;
            has_special = 1;
            break;
        }
        default:
            break;
        }
    }
    if (has_special && (ng || nl))
        return cg_fail(I, RDX_ERR_INVALID, NULL,
                       "SPECIAL and GLOBAL/LOCAL RANGEs mixed in one kernel"),
               I->st;
    /* kernel arguments */
    uint32_t off = 0;
    qsort(params, np, sizeof *params, cmp_slot);
    for (size_t i = 0; i < np; i++) {
        const rdx_uop *u = params[i];
        if (i && params[i - 1]->arg.i == u->arg.i)
            return cg_fail(I, RDX_ERR_INVALID, u, "two parameters with slot %lld",
                           (long long)u->arg.i),
                   I->st;
        if (u->arg.i < 0 || u->arg.i > 255)
            return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "parameter slot %lld (0..255)",
                           (long long)u->arg.i),
                   I->st;
        rdx_codegen_arg a;
        memset(&a, 0, sizeof a);
        a.slot = u->arg.i;
        a.dtype = u->arg.dtype;
        a.node = u;
        if (u->addrspace == RDX_ADDR_GLOBAL) {
            a.kind = RDX_CG_ARG_BUFFER;
            a.size = 8;
        } else if (u->addrspace == RDX_ADDR_NONE && u->ndim == 0) {
            a.kind = RDX_CG_ARG_VALUE;
            a.size = rdx_dtype_itemsize(a.dtype);
            if (a.dtype.count != 1 || a.dtype.scalar == RDX_INDEX)
                return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "value parameter of this dtype"), I->st;
        } else
            return cg_fail(I, RDX_ERR_UNSUPPORTED, u,
                           "parameter must be a global buffer or a shape-() value"),
                   I->st;
        if ((I->st = add_arg(k, a, &off)))
            return I->st;
    }
    qsort(vars, nv, sizeof *vars, cmp_var);
    for (size_t i = 0; i < nv; i++) {
        rdx_codegen_arg a;
        memset(&a, 0, sizeof a);
        a.kind = RDX_CG_ARG_VAR;
        a.slot = -1;
        a.name = vars[i]->arg.str;
        int small = vars[i]->arg.i >= INT32_MIN && vars[i]->arg.j <= INT32_MAX;
        a.dtype = rdx_dtype_of(small ? RDX_INT32 : RDX_INT64);
        a.size = small ? 4 : 8;
        a.node = vars[i];
        if ((I->st = add_arg(k, a, &off)))
            return I->st;
    }
    k->kernarg_size = (off + 7) / 8 * 8;
    /* dimensions */
    qsort(gr, ng, sizeof *gr, cmp_axis_desc);
    qsort(lr, nl, sizeof *lr, cmp_axis_desc);
    for (size_t d = 0; d < ng; d++)
        sp[nl ? 0 : 2][d] = gr[d];
    for (size_t d = 0; d < nl; d++)
        sp[1][d] = lr[d];
    uint32_t wgtotal = 1;
    k->ndims = 1;
    for (int d = 0; d < 3; d++) {
        const rdx_uop *g = sp[0][d], *l = sp[1][d], *x = sp[2][d];
        if (x && (g || l))
            return cg_fail(I, RDX_ERR_INVALID, x, "idx%d mixed with gidx%d/lidx%d", d, d, d), I->st;
        uint32_t wg = 1;
        const rdx_uop *grid = rdx_ir_int(I->ctx, 1);
        if (x) {
            wg = (o && o->wg_size ? o->wg_size : 256) / wgtotal;
            wg = wg ? wg : 1;
            if (x->src[0]->vmax < (int64_t)wg)
                wg = (uint32_t)(x->src[0]->vmax < 1 ? 1 : x->src[0]->vmax);
            grid = x->src[0];
        } else if (l) {
            int64_t c;
            if (!rdx_uop_const_int(l->src[0], &c) || c < 1 || c > 1024)
                return cg_fail(I, RDX_ERR_UNSUPPORTED, l,
                               "workgroup size must be a CONST in 1..1024"),
                       I->st;
            wg = (uint32_t)c;
            grid = g ? rdx_ir_mul(I->ctx, g->src[0], l->src[0]) : l->src[0];
        } else if (g)
            grid = g->src[0];
        if (!grid)
            return I->st = RDX_ERR_NOMEM;
        if (g || l || x)
            k->ndims = (unsigned)d + 1;
        I->wg[d] = wg;
        wgtotal *= wg;
        k->dims[d].grid = grid;
        k->dims[d].wg = wg;
        if (g || x)
            I->p->wgid_enable[d] = 1;
        if (l || x)
            I->p->tid_dims = (uint32_t)d + 1 > I->p->tid_dims ? (uint32_t)d + 1 : I->p->tid_dims;
    }
    if (wgtotal > 1024)
        return cg_fail(I, RDX_ERR_UNSUPPORTED, NULL, "workgroup of %u work-items (max 1024)",
                       wgtotal),
               I->st;
    I->p->wg_items = wgtotal; /* bounds the VGPRs (cg_max_vgprs) */
    /* ABI registers: s[0:1] kernarg, v0 thread ids, and the enabled workgroup ids in
       s[16-n .. 15]: gfx1100/gfx1102 in wave32 need at least 16 user + system SGPRs
       (LLVM's UserSGPRInit16Bug), so the user SGPRs are padded to 16 - n (render.c) */
    I->kernarg_vr = cg_new(I, CG_S, 2);
    if (I->st)
        return I->st;
    I->p->vregs[I->kernarg_vr].phys = 0;
    I->p->vregs[I->kernarg_vr].fixed = 1;
    I->p->wgid_enable[0] = 1; /* X is always enabled (LLVM's default) */
    int next = (int)cg_user_sgprs(I->p);
    for (int d = 0; d < 3; d++) {
        if (!I->p->wgid_enable[d])
            continue;
        I->wgid_vr[d] = cg_new(I, CG_S, 1);
        if (I->st)
            return I->st;
        if (I->p->ct->major >= 12) {
            /* gfx12 (architected SGPRs, as clang-19 reads them): X in ttmp9, Y in
               ttmp7[15:0], Z in ttmp7[31:16]; the descriptor still enables them */
            xo id = cg_r(I, I->wgid_vr[d], 0, 1);
            if (d == 0)
                INS(I, S_MOV_B32, 1, id, cg_k(rdx_isa_ttmp(9, 1)));
            else if (d == 1)
                INS(I, S_AND_B32, 1, id, cg_k(rdx_isa_ttmp(7, 1)), cg_i(0xffff));
            else
                INS(I, S_LSHR_B32, 1, id, cg_k(rdx_isa_ttmp(7, 1)), cg_i(16));
            continue;
        }
        I->p->vregs[I->wgid_vr[d]].phys = (int16_t)next++;
        I->p->vregs[I->wgid_vr[d]].fixed = 1;
    }
    I->tid_vr = cg_new(I, CG_V, 1);
    if (I->st)
        return I->st;
    I->p->vregs[I->tid_vr].phys = 0;
    I->p->vregs[I->tid_vr].fixed = 1;
    /* thread values of the dims, in the entry block */
    for (int kind = 0; kind < 3; kind++)
        for (int d = 0; d < 3; d++)
            if (sp[kind][d]) {
                cg_val v = thread_value(I, sp[kind][d], kind, d);
                remember(I, sp[kind][d], v);
            }
    /* LDS */
    uint32_t lds = 0;
    for (size_t i = 0; i < n; i++) {
        const rdx_uop *u = topo[i];
        if (u->op != RDX_OP_DEFINE_LOCAL)
            continue;
        int64_t ne;
        if (!rdx_uop_numel(u, &ne))
            return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "DEFINE_LOCAL of symbolic size"), I->st;
        if (I->nlocals >= 16)
            return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "more than 16 DEFINE_LOCALs"), I->st;
        lds = (lds + 15) / 16 * 16;
        I->locals[I->nlocals].node = u;
        I->locals[I->nlocals++].offset = lds;
        uint64_t bytes = (uint64_t)ne * rdx_dtype_itemsize(u->arg.dtype);
        if (bytes + lds > 65536)
            return cg_fail(I, RDX_ERR_RANGE, u, "LDS use exceeds 64 KiB"), I->st;
        lds += (uint32_t)bytes;
    }
    I->p->lds_size = lds;
    k->lds_size = lds;
    return I->st;
}

rdx_status cg_isel(rdx_ir_ctx *ctx, const rdx_uop *sink, const rdx_codegen_options *o, cg_prog *p,
                   struct rdx_codegen_kernel *k)
{
    if (!sink || sink->op != RDX_OP_SINK)
        return rdx_fail(RDX_ERR_INVALID, "isel: the kernel root must be a SINK, got %s",
                        sink ? rdx_op_name((rdx_op)sink->op) : "NULL");
    /* the input check re-derives every node: with verification on (RDX_IR_VERIFY, the
       test suites); the pipeline's own kernels and parsed graphs are verified already */
    rdx_status st = rdx_ir_ctx_verify(ctx) ? rdx_ir_verify(ctx, sink) : RDX_OK;
    if (st)
        return st;
    const rdx_uop **topo = NULL;
    size_t n = 0;
    if ((st = cg_devectorize(ctx, sink, &sink, &topo, &n)))
        return st;
    if (!topo && (st = rdx_ir_toposort(sink, &topo, &n))) /* devectorized: a new graph */
        return st;
    isel I;
    memset(&I, 0, sizeof I);
    I.ctx = ctx, I.p = p, I.k = k;
    I.entry_block = cg_block_new(p);
    I.cur = I.entry_block;
    if (I.entry_block < 0)
        I.st = RDX_ERR_NOMEM;
    else if (!(I.reds = malloc((n + 1) * sizeof *I.reds)))
        I.st = rdx_fail(RDX_ERR_NOMEM, "isel: out of memory");
    else
        cg_wmma_mark(&I, topo, n);
    if (!I.st && !prepass(&I, topo, n, o)) {
        int body = cg_block_new(p);
        if (body < 0)
            I.st = RDX_ERR_NOMEM;
        I.cur = body;
        scope_emit_topo(&I, topo, n, 0); /* the kernel's order, sorted once above */
        cg_emit(&I, sink);
        INS0(&I, S_ENDPGM, 0);
    }
    if (!I.st)
        cg_dce(p); /* hoisted values that ended up unused */
    free(topo);
    for (int r = 0; r < I.nregs; r++)
        free(I.regs[r].vr);
    free(I.val);
    free(I.have);
    free(I.dep);
    free(I.info);
    free(I.seen);
    free(I.log);
    free(I.reds);
    free(I.frags);
    return I.st;
}
