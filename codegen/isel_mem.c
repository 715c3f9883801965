/*
 * codegen/isel_mem.c — instruction selection for LOAD and STORE: global
 * buffers (SGPR base + 32-bit VGPR byte offset + folded constant offset),
 * LDS (DEFINE_LOCAL, ds_* with the offset field), register arrays
 * (DEFINE_REG), and gates as EXEC masks (s_and_saveexec ... restore).
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/isel.h"
#include "util/error.h"

/* Storage under AFTERs (lowering their dependencies first). */
static const rdx_uop *storage(isel *I, const rdx_uop *b)
{
    while (b->op == RDX_OP_AFTER) {
        for (uint32_t k = 1; k < b->nsrc; k++)
            cg_emit(I, b->src[k]);
        b = b->src[0];
    }
    return b;
}

/* Row-major linear element index of INDEX `ix` over storage `st` (built and simplified). */
static const rdx_uop *linear(isel *I, const rdx_uop *ix, const rdx_uop *st)
{
    uint32_t ni = ix->nsrc - 1;
    if (ni != st->ndim) {
        cg_fail(I, RDX_ERR_UNSUPPORTED, ix,
                "INDEX with %u indices into a rank-%u buffer (need one per dimension)", ni,
                st->ndim);
        return NULL;
    }
    if (ni == 0)
        return rdx_ir_int(I->ctx, 0);
    const rdx_uop *lin = NULL;
    for (uint32_t k = 0; k < ni; k++) {
        const rdx_uop *i = ix->src[1 + k];
        if (i->ndim) {
            cg_fail(I, RDX_ERR_UNSUPPORTED, ix, "index %u is not a scalar", k);
            return NULL;
        }
        if (i->dtype.scalar != RDX_INDEX)
            i = rdx_ir_cast(I->ctx, i, rdx_dtype_of(RDX_INDEX));
        lin = lin ? rdx_ir_add(I->ctx, rdx_ir_mul(I->ctx, lin, st->shape[k]), i) : i;
    }
    if (!lin) {
        I->st = RDX_ERR_INVALID;
        return NULL;
    }
    if (ni == 1)
        return lin;
    const rdx_uop *s;
    rdx_status e = rdx_ir_simplify(I->ctx, lin, &s);
    if (e) {
        I->st = e;
        return NULL;
    }
    return s;
}

const rdx_uop *cg_index_linear(isel *I, const rdx_uop *ix)
{
    const rdx_uop *st = ix->src[0];
    while (st->op == RDX_OP_AFTER)
        st = st->src[0];
    if (st->op == RDX_OP_DEFINE_REG)
        return NULL;
    return linear(I, ix, st);
}

typedef struct addr {
    int space; /* RDX_ADDR_GLOBAL / LOCAL / REG */
    const rdx_uop *st;
    cg_val base;  /* global: SGPR pair */
    cg_val voff;  /* VGPR byte offset (global: from base; LDS: address) */
    int32_t imm;  /* folded constant byte offset */
    int64_t elem; /* REG: element */
} addr;

static unsigned log2u(unsigned x)
{
    unsigned r = 0;
    while ((1u << r) < x)
        r++;
    return r;
}

static int lookup_local(isel *I, const rdx_uop *st, uint32_t *off)
{
    for (int i = 0; i < I->nlocals; i++)
        if (I->locals[i].node == st) {
            *off = I->locals[i].offset;
            return 1;
        }
    return 0;
}

static int reg_slot(isel *I, const rdx_uop *st)
{
    for (int i = 0; i < I->nregs; i++)
        if (I->regs[i].node == st)
            return i;
    if (I->nregs >= 32) {
        cg_fail(I, RDX_ERR_UNSUPPORTED, st, "more than 32 DEFINE_REGs");
        return -1;
    }
    int64_t n;
    if (!rdx_uop_numel(st, &n) || n < 1 || n > 256) {
        cg_fail(I, RDX_ERR_UNSUPPORTED, st,
                "DEFINE_REG must have 1..256 elements of constant count");
        return -1;
    }
    int i = I->nregs++;
    I->regs[i].node = st;
    I->regs[i].n = n;
    I->regs[i].vr = calloc((size_t)n, sizeof(uint32_t));
    if (!I->regs[i].vr) {
        I->st = rdx_fail(RDX_ERR_NOMEM, "isel: out of memory");
        return -1;
    }
    rdx_dtype d = st->arg.dtype;
    unsigned w = rdx_dtype_itemsize(d) > 4 ? 2 : 1;
    I->regs[i].words = (uint8_t)w;
    for (int64_t e = 0; e < n; e++)
        I->regs[i].vr[e] = cg_new(I, d.scalar == RDX_BOOL ? CG_S : CG_V, w);
    return i;
}

static int address(isel *I, const rdx_uop *ix, addr *a)
{
    memset(a, 0, sizeof *a);
    if (ix->op != RDX_OP_INDEX) {
        cg_fail(I, RDX_ERR_UNSUPPORTED, ix, "LOAD/STORE target must be an INDEX");
        return 0;
    }
    const rdx_uop *st = storage(I, ix->src[0]);
    a->st = st;
    const rdx_uop *lin = linear(I, ix, st);
    if (!lin || I->st)
        return 0;
    unsigned size = rdx_dtype_itemsize(rdx_dtype_scalar(st->arg.dtype));
    if (st->op == RDX_OP_DEFINE_REG) {
        a->space = RDX_ADDR_REG;
        if (!rdx_uop_const_int(lin, &a->elem)) {
            cg_fail(I, RDX_ERR_UNSUPPORTED, ix, "DEFINE_REG indexed by a non-constant");
            return 0;
        }
        return 1;
    }
    int64_t c = 0;
    const rdx_uop *x = lin;
    if (rdx_uop_const_int(lin, &c))
        x = NULL;
    else if (lin->op == RDX_OP_ADD && rdx_uop_const_int(lin->src[1], &c) && lin->src[0]->vmin >= 0)
        /* The rest becomes an unsigned 32-bit offset: fold only when it cannot
         * be negative (FLIP gives e.g. 98 - 7r + j, whose rest 91 - 7r + j may be). */
        x = lin->src[0];
    else
        c = 0;
    int64_t lo, hi;
    uint32_t lbase = 0;
    if (st->op == RDX_OP_DEFINE_LOCAL) {
        a->space = RDX_ADDR_LOCAL;
        if (!lookup_local(I, st, &lbase)) {
            cg_fail(I, RDX_ERR_INVALID, st, "internal: unknown DEFINE_LOCAL");
            return 0;
        }
        lo = 0, hi = 65535;
    } else if ((st->op == RDX_OP_PARAM || st->op == RDX_OP_BUFFER) &&
               st->addrspace == RDX_ADDR_GLOBAL) {
        a->space = RDX_ADDR_GLOBAL;
        a->base = cg_emit(I, st);
        lo = -4096, hi = 4095;
        int64_t ne;
        if (rdx_uop_numel(st, &ne) && (uint64_t)ne * size >= (1ull << 32)) {
            cg_fail(I, RDX_ERR_UNSUPPORTED, st, "buffers of 4 GiB or more");
            return 0;
        }
    } else {
        cg_fail(I, RDX_ERR_UNSUPPORTED, st, "LOAD/STORE of this storage (%s)",
                rdx_addrspace_name((rdx_addrspace)st->addrspace));
        return 0;
    }
    int64_t imm = c * (int64_t)size + lbase;
    if (x && (imm < lo || imm > hi)) {
        x = lin;
        imm = lbase;
    }
    if (!x && (imm < lo || imm > hi)) {
        /* a constant index out of the offset field's range */
        a->voff = cg_to_v(I, &(cg_val){ .kind = VK_CONST, .n = 1, .bits = (uint64_t)imm });
        a->imm = 0;
        return !I->st;
    }
    a->imm = (int32_t)imm;
    if (!x) {
        a->voff = cg_to_v(I, &(cg_val){ .kind = VK_CONST, .n = 1, .bits = 0 });
        return !I->st;
    }
    /* the byte offset as a node, so accesses sharing it share one register (and merge) */
    int64_t xc;
    const rdx_uop *bx = x;
    if (size > 1 && x->op == RDX_OP_MUL && rdx_uop_const_int(x->src[1], &xc))
        bx = rdx_ir_mul(I->ctx, x->src[0], rdx_ir_const_int(I->ctx, x->src[1]->dtype, xc * size));
    else if (size > 1)
        bx = rdx_ir_mul(I->ctx, x, rdx_ir_const_int(I->ctx, x->dtype, size));
    if (!bx) {
        I->st = RDX_ERR_INVALID;
        return 0;
    }
    cg_val xv = cg_emit(I, bx);
    if (I->st)
        return 0;
    if (xv.kind == VK_REG && xv.file == CG_V && xv.n == 1) {
        a->voff = xv;
        return 1;
    }
    cg_val r = cg_reg(I, CG_V, 1);
    INS(I, V_MOV_B32, 1, cg_r(I, r.vr, 0, 1), cg_src(I, &xv, 0)); /* low dword: offsets < 2^32 */
    a->voff = r;
    (void)log2u;
    return !I->st;
}

static rdx_isa_op gload_op(rdx_dtype d)
{
    if (rdx_dtype_itemsize(d) == 8) /* int64/uint64/float64 and index (stored as int64) */
        return RDX_ISA_OP_GLOBAL_LOAD_B64;
    switch ((rdx_scalar)d.scalar) {
    case RDX_BOOL:
    case RDX_UINT8:
    case RDX_FP8E4M3:
    case RDX_FP8E5M2:
        return RDX_ISA_OP_GLOBAL_LOAD_U8;
    case RDX_INT8:
        return RDX_ISA_OP_GLOBAL_LOAD_I8;
    case RDX_INT16:
        return RDX_ISA_OP_GLOBAL_LOAD_I16;
    case RDX_UINT16:
    case RDX_FLOAT16:
    case RDX_BFLOAT16:
        return RDX_ISA_OP_GLOBAL_LOAD_U16;
    default:
        return RDX_ISA_OP_GLOBAL_LOAD_B32;
    }
}

static rdx_isa_op lload_op(rdx_dtype d)
{
    if (rdx_dtype_itemsize(d) == 8)
        return RDX_ISA_OP_DS_LOAD_B64;
    switch ((rdx_scalar)d.scalar) {
    case RDX_BOOL:
    case RDX_UINT8:
    case RDX_FP8E4M3:
    case RDX_FP8E5M2:
        return RDX_ISA_OP_DS_LOAD_U8;
    case RDX_INT8:
        return RDX_ISA_OP_DS_LOAD_I8;
    case RDX_INT16:
        return RDX_ISA_OP_DS_LOAD_I16;
    case RDX_UINT16:
    case RDX_FLOAT16:
    case RDX_BFLOAT16:
        return RDX_ISA_OP_DS_LOAD_U16;
    default:
        return RDX_ISA_OP_DS_LOAD_B32;
    }
}

static rdx_isa_op store_op(rdx_dtype d, int lds)
{
    unsigned s = rdx_dtype_itemsize(d);
    if (lds)
        return s == 1   ? RDX_ISA_OP_DS_STORE_B8
               : s == 2 ? RDX_ISA_OP_DS_STORE_B16
               : s == 8 ? RDX_ISA_OP_DS_STORE_B64
                        : RDX_ISA_OP_DS_STORE_B32;
    return s == 1   ? RDX_ISA_OP_GLOBAL_STORE_B8
           : s == 2 ? RDX_ISA_OP_GLOBAL_STORE_B16
           : s == 8 ? RDX_ISA_OP_GLOBAL_STORE_B64
                    : RDX_ISA_OP_GLOBAL_STORE_B32;
}

/* Narrow EXEC to `gate` (an SGPR mask or constant); returns the saved mask vreg (0: no gate). */
static uint32_t gate_begin(isel *I, const cg_val *g)
{
    cg_val saved = cg_reg(I, CG_S, 1);
    INS(I, S_AND_SAVEEXEC_B32, 1, cg_r(I, saved.vr, 0, 1), cg_mask(I, g));
    return saved.vr;
}

static void gate_end(isel *I, uint32_t saved)
{
    INS(I, S_MOV_B32, 0, cg_exec(), cg_r(I, saved, 0, 1));
}

static void mem_load(isel *I, const addr *a, rdx_dtype d, const cg_val *dst, unsigned flags)
{
    unsigned w = dst->n;
    if (a->space == RDX_ADDR_GLOBAL) {
        cg_inst *in = cg_ins(
            I, gload_op(d), 1, CG_F_VMEM_LOAD | flags,
            (xo[]){ cg_r(I, dst->vr, 0, w), cg_r(I, a->voff.vr, 0, 1), cg_r(I, a->base.vr, 0, 2) },
            3);
        if (in)
            in->in.mod[RDX_ISA_MOD_OFFSET] = a->imm;
    } else {
        cg_inst *in = cg_ins(I, lload_op(d), 1, CG_F_LGKM | flags,
                             (xo[]){ cg_r(I, dst->vr, 0, w), cg_r(I, a->voff.vr, 0, 1) }, 2);
        if (in)
            in->in.mod[RDX_ISA_MOD_OFFSET] = a->imm;
    }
}

int cg_global_addr(isel *I, const rdx_uop *ix, uint32_t *base, uint32_t *voff, int32_t *imm)
{
    addr a;
    if (!address(I, ix, &a))
        return 0;
    if (a.space != RDX_ADDR_GLOBAL)
        return cg_fail(I, RDX_ERR_INVALID, ix, "internal: not a global buffer access");
    *base = a.base.vr, *voff = a.voff.vr, *imm = a.imm;
    return 1;
}

cg_val cg_load(isel *I, const rdx_uop *u)
{
    cg_val none;
    memset(&none, 0, sizeof none);
    rdx_dtype d = u->dtype;
    if (d.count != 1)
        return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "vector LOAD"), none;
    const rdx_uop *gate = u->nsrc == 3 ? u->src[2] : u->nsrc == 2 ? u->src[1] : NULL;
    const rdx_uop *alt = u->nsrc == 3 ? u->src[1] : NULL;
    cg_val g = gate ? cg_emit(I, gate) : cg_const(1, 1);
    if (I->st)
        return none;
    unsigned w = cg_words(I, u);
    cg_val altv = alt ? cg_emit(I, alt) : cg_const(0, w);
    if (g.kind == VK_CONST && !g.bits)
        return altv;
    int gated = !(g.kind == VK_CONST && g.bits);
    addr a;
    if (!address(I, u->src[0], &a))
        return none;
    if (a.space == RDX_ADDR_REG) {
        int ri = reg_slot(I, a.st);
        if (ri < 0)
            return none;
        if (a.elem < 0 || a.elem >= I->regs[ri].n)
            return cg_fail(I, RDX_ERR_INVALID, u, "register element %lld out of range",
                           (long long)a.elem),
                   none;
        cg_val src = { .kind = VK_REG,
                       .file = I->p->vregs[I->regs[ri].vr[a.elem]].file,
                       .n = I->regs[ri].words,
                       .vr = I->regs[ri].vr[a.elem] };
        cg_val r = cg_reg(I, src.file, src.n);
        cg_copy(I, &r, &src);
        if (gated)
            return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "gated LOAD of a register"), none;
        return r;
    }
    int isbool = d.scalar == RDX_BOOL;
    unsigned mw = rdx_dtype_itemsize(d) > 4 ? 2 : 1;
    cg_val dst = cg_reg(I, CG_V, mw);
    if (gated) {
        if (isbool) {
            xo as = cg_mask(I, &altv);
            INS(I, V_CNDMASK_B32, 1, cg_r(I, dst.vr, 0, 1), cg_i(0), cg_i(1), as);
        } else
            cg_copy(I, &dst, &altv);
        uint32_t saved = gate_begin(I, &g);
        mem_load(I, &a, d, &dst, CG_F_PARTIAL);
        gate_end(I, saved);
    } else
        mem_load(I, &a, d, &dst, 0);
    if (isbool) {
        cg_val m = cg_reg(I, CG_S, 1);
        INS(I, V_CMP_NE_U32, 1, cg_r(I, m.vr, 0, 1), cg_i(0), cg_r(I, dst.vr, 0, 1));
        return m;
    }
    if (d.scalar == RDX_INDEX && w == 1 && mw == 2) {
        cg_val lo = cg_reg(I, CG_V, 1);
        INS(I, V_MOV_B32, 1, cg_r(I, lo.vr, 0, 1), cg_r(I, dst.vr, 0, 1));
        return lo;
    }
    return dst;
}

void cg_store(isel *I, const rdx_uop *u)
{
    const rdx_uop *ix = u->src[0];
    rdx_dtype d = u->src[1]->dtype;
    if (d.count != 1) {
        cg_fail(I, RDX_ERR_UNSUPPORTED, u, "vector STORE");
        return;
    }
    cg_val g = u->nsrc == 3 ? cg_emit(I, u->src[2]) : cg_const(1, 1);
    cg_val v = cg_emit(I, u->src[1]);
    if (I->st || (g.kind == VK_CONST && !g.bits))
        return;
    int gated = !(g.kind == VK_CONST && g.bits);
    addr a;
    if (!address(I, ix, &a))
        return;
    if (a.space == RDX_ADDR_REG) {
        int ri = reg_slot(I, a.st);
        if (ri < 0)
            return;
        if (a.elem < 0 || a.elem >= I->regs[ri].n) {
            cg_fail(I, RDX_ERR_INVALID, u, "register element %lld out of range", (long long)a.elem);
            return;
        }
        if (gated) {
            cg_fail(I, RDX_ERR_UNSUPPORTED, u, "gated STORE to a register");
            return;
        }
        cg_val dst = { .kind = VK_REG,
                       .file = I->p->vregs[I->regs[ri].vr[a.elem]].file,
                       .n = I->regs[ri].words,
                       .vr = I->regs[ri].vr[a.elem] };
        if (v.kind == VK_REG && v.file == CG_V && dst.file == CG_S) {
            cg_fail(I, RDX_ERR_INVALID, u, "internal: vector value into a scalar register");
            return;
        }
        cg_copy(I, &dst, &v);
        return;
    }
    cg_val data;
    unsigned mw = rdx_dtype_itemsize(d) > 4 ? 2 : 1;
    if (d.scalar == RDX_BOOL) {
        data = cg_reg(I, CG_V, 1);
        INS(I, V_CNDMASK_B32, 1, cg_r(I, data.vr, 0, 1), cg_i(0), cg_i(1), cg_mask(I, &v));
    } else {
        data = cg_to_v(I, &v);
        if (data.n < mw)
            data = cg_widen(I, &data, 1);
    }
    uint32_t saved = gated ? gate_begin(I, &g) : 0;
    unsigned fl = gated ? CG_F_PARTIAL : 0;
    cg_inst *in;
    if (a.space == RDX_ADDR_GLOBAL)
        in = cg_ins(
            I, store_op(d, 0), 0, CG_F_VMEM_STORE | fl,
            (xo[]){ cg_r(I, a.voff.vr, 0, 1), cg_r(I, data.vr, 0, mw), cg_r(I, a.base.vr, 0, 2) },
            3);
    else
        in = cg_ins(I, store_op(d, 1), 0, CG_F_LGKM | fl,
                    (xo[]){ cg_r(I, a.voff.vr, 0, 1), cg_r(I, data.vr, 0, mw) }, 2);
    if (in)
        in->in.mod[RDX_ISA_MOD_OFFSET] = a.imm;
    if (gated)
        gate_end(I, saved);
}

/* ATOMICADD(idx, value): buf[idx] += value, atomically, without a returned value (the
   spec's codegen op).  Global memory: global_atomic_add_{f32,u32,u64}; LDS:
   ds_add_{f32,u32,u64}.  Other dtypes are refused (RDNA3 has no such atomic). */
void cg_atomic_add(isel *I, const rdx_uop *u)
{
    rdx_dtype d = u->src[1]->dtype;
    rdx_scalar sc = (rdx_scalar)d.scalar;
    int f32 = sc == RDX_FLOAT32, i32 = sc == RDX_INT32 || sc == RDX_UINT32;
    int i64 = sc == RDX_INT64 || sc == RDX_UINT64;
    if (d.count != 1 || (!f32 && !i32 && !i64)) {
        cg_fail(I, RDX_ERR_UNSUPPORTED, u,
                "ATOMICADD of this dtype (float32, int32, uint32, int64, uint64 are)");
        return;
    }
    cg_val v = cg_emit(I, u->src[1]);
    if (I->st)
        return;
    addr a;
    if (!address(I, u->src[0], &a))
        return;
    if (a.space == RDX_ADDR_REG) {
        cg_fail(I, RDX_ERR_UNSUPPORTED, u, "ATOMICADD to a register");
        return;
    }
    unsigned mw = i64 ? 2 : 1;
    cg_val data = cg_to_v(I, &v);
    if (data.n < mw)
        data = cg_widen(I, &data, 1);
    cg_inst *in;
    if (a.space == RDX_ADDR_GLOBAL)
        in = cg_ins(
            I,
            f32   ? RDX_ISA_OP_GLOBAL_ATOMIC_ADD_F32
            : i64 ? RDX_ISA_OP_GLOBAL_ATOMIC_ADD_U64
                  : RDX_ISA_OP_GLOBAL_ATOMIC_ADD_U32,
            0, CG_F_VMEM_STORE,
            (xo[]){ cg_r(I, a.voff.vr, 0, 1), cg_r(I, data.vr, 0, mw), cg_r(I, a.base.vr, 0, 2) },
            3);
    else
        in = cg_ins(I,
                    f32   ? RDX_ISA_OP_DS_ADD_F32
                    : i64 ? RDX_ISA_OP_DS_ADD_U64
                          : RDX_ISA_OP_DS_ADD_U32,
                    0, CG_F_LGKM, (xo[]){ cg_r(I, a.voff.vr, 0, 1), cg_r(I, data.vr, 0, mw) }, 2);
    if (in)
        in->in.mod[RDX_ISA_MOD_OFFSET] = a.imm;
}
