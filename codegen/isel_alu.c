/*
 * codegen/isel_alu.c — instruction selection for the elementwise ops.
 *
 * Each (op, dtype) lowers to SALU when every source is uniform (an SGPR or a
 * constant) and SALU has the operation (32-bit integers and bools), else to
 * VALU (VOP3 forms; render does not shrink them yet).  Semantics follow the
 * IR evaluator: integer wrap-around, truncating division, shifts by >= the
 * width give 0 (SHL, unsigned SHR) or the sign (signed SHR), float -> int
 * casts truncate and saturate with NaN -> 0, MAX on floats is fmax.
 */
#include <string.h>

#include "codegen/isel.h"
#include "util/error.h"

typedef enum mk { K_BOOL, K_I32, K_U32, K_I64, K_U64, K_F16, K_BF16, K_F32, K_F64 } mk;

static mk kind_of(isel *I, rdx_dtype d, int narrow)
{
    (void)I;
    switch ((rdx_scalar)d.scalar) {
    case RDX_BOOL:
        return K_BOOL;
    case RDX_INT8:
    case RDX_INT16:
    case RDX_INT32:
        return K_I32;
    case RDX_UINT8:
    case RDX_UINT16:
    case RDX_UINT32:
        return K_U32;
    case RDX_INT64:
        return K_I64;
    case RDX_UINT64:
        return K_U64;
    case RDX_FLOAT16:
        return K_F16;
    case RDX_BFLOAT16:
        return K_BF16;
    case RDX_FLOAT32:
        return K_F32;
    case RDX_FLOAT64:
        return K_F64;
    case RDX_INDEX:
        return narrow ? K_I32 : K_I64;
    default:
        return K_I32;
    }
}

static int is64(mk k)
{
    return k == K_I64 || k == K_U64 || k == K_F64;
}
static int isint(mk k)
{
    return k == K_I32 || k == K_U32 || k == K_I64 || k == K_U64;
}
static int issigned(mk k)
{
    return k == K_I32 || k == K_I64;
}

static cg_val none(void)
{
    cg_val v;
    memset(&v, 0, sizeof v);
    return v;
}

/* A bool known to be the same in every lane. */
static int ubool(const cg_val *v)
{
    return v->kind == VK_CONST || v->umask;
}

static int uniform(const cg_val *v)
{
    return v->kind == VK_CONST || (v->kind == VK_REG && v->file == CG_S);
}

#define mask cg_mask

static cg_val low(isel *I, const cg_val *v)
{
    if (v->n == 1)
        return *v;
    if (v->kind == VK_CONST)
        return cg_const((uint64_t)(int64_t)(int32_t)(uint32_t)v->bits, 1);
    cg_val r = cg_reg(I, v->file, 1);
    if (v->file == CG_S)
        INS(I, S_MOV_B32, 1, cg_r(I, r.vr, 0, 1), cg_r(I, v->vr, 0, 1));
    else
        INS(I, V_MOV_B32, 1, cg_r(I, r.vr, 0, 1), cg_r(I, v->vr, 0, 1));
    return r;
}

/* Bring an integer value to the width of kind k (1 or 2 dwords). */
static cg_val fit(isel *I, const cg_val *v, mk k, int src_signed)
{
    if (is64(k))
        return v->n == 2 ? *v : cg_widen(I, v, src_signed);
    return v->n == 1 ? *v : low(I, v);
}

cg_val cg_normalise(isel *I, const cg_val *v, rdx_dtype d)
{
    unsigned bits = rdx_dtype_itemsize(d) * 8;
    if (!(rdx_dtype_is_int(d) && d.scalar != RDX_BOOL && bits < 32) || v->kind == VK_NONE)
        return *v;
    int sg = !rdx_dtype_is_unsigned(d);
    if (v->kind == VK_CONST) {
        uint64_t m = (1ull << bits) - 1, x = v->bits & m;
        if (sg && (x >> (bits - 1)))
            x |= ~m;
        return cg_const(x, 1);
    }
    cg_val r = cg_reg(I, v->file, 1);
    if (v->file == CG_S) {
        if (!sg)
            INS(I, S_AND_B32, 1, cg_r(I, r.vr, 0, 1), cg_r(I, v->vr, 0, 1),
                cg_i((int32_t)((1u << bits) - 1)));
        else if (bits == 8)
            INS(I, S_SEXT_I32_I8, 1, cg_r(I, r.vr, 0, 1), cg_r(I, v->vr, 0, 1));
        else
            INS(I, S_SEXT_I32_I16, 1, cg_r(I, r.vr, 0, 1), cg_r(I, v->vr, 0, 1));
    } else if (!sg)
        INS(I, V_AND_B32, 1, cg_r(I, r.vr, 0, 1), cg_i((int32_t)((1u << bits) - 1)),
            cg_r(I, v->vr, 0, 1));
    else
        INS(I, V_BFE_I32, 1, cg_r(I, r.vr, 0, 1), cg_r(I, v->vr, 0, 1), cg_i(0),
            cg_i((int32_t)bits));
    return r;
}

/* ------------------------------------------------------------- helpers */

#define D1(v) cg_r(I, (v).vr, 0, 1)
#define D2(v) cg_r(I, (v).vr, 0, 2)
#define LO(v) cg_src(I, &(v), 0)
#define HI(v) cg_src(I, &(v), 1)

static cg_val v1(isel *I)
{
    return cg_reg(I, CG_V, 1);
}
static cg_val s1(isel *I)
{
    return cg_reg(I, CG_S, 1);
}

/* VALU 32-bit two-source op into a fresh VGPR. */
static cg_val vop2(isel *I, rdx_isa_op op, xo a, xo b)
{
    cg_val r = v1(I);
    cg_ins(I, op, 1, 0, (xo[]){ D1(r), a, b }, 3);
    return r;
}
static cg_val vop1(isel *I, rdx_isa_op op, xo a)
{
    cg_val r = v1(I);
    cg_ins(I, op, 1, 0, (xo[]){ D1(r), a }, 2);
    return r;
}
static cg_val vop3(isel *I, rdx_isa_op op, xo a, xo b, xo c)
{
    cg_val r = v1(I);
    cg_ins(I, op, 1, 0, (xo[]){ D1(r), a, b, c }, 4);
    return r;
}
static cg_val sop2(isel *I, rdx_isa_op op, xo a, xo b)
{
    cg_val r = s1(I);
    cg_ins(I, op, 1, 0, (xo[]){ D1(r), a, b }, 3);
    return r;
}
/* 64-bit float VALU op. */
static cg_val vop2_64(isel *I, rdx_isa_op op, xo a, xo b)
{
    cg_val r = cg_reg(I, CG_V, 2);
    cg_ins(I, op, 1, 0, (xo[]){ D2(r), a, b }, 3);
    return r;
}
/* Lane mask from a VALU compare. */
static cg_val vcmp(isel *I, rdx_isa_op op, xo a, xo b)
{
    cg_val m = s1(I);
    cg_ins(I, op, 1, 0, (xo[]){ D1(m), a, b }, 3);
    return m;
}
/* Mask from an SALU compare (SCC -> all ones / zero). */
static cg_val scmp(isel *I, rdx_isa_op op, xo a, xo b)
{
    cg_ins(I, op, 0, 0, (xo[]){ a, b }, 2);
    cg_val m = s1(I);
    INS(I, S_CSELECT_B32, 1, D1(m), cg_i(-1), cg_i(0));
    m.umask = 1;
    return m;
}
/* c ? t : f, 32-bit, VALU. */
static cg_val vsel(isel *I, xo c, xo t, xo f)
{
    return vop3(I, RDX_ISA_OP_V_CNDMASK_B32, f, t, c);
}

/* --------------------------------------------------------- bf16 <-> f32 */

static cg_val bf16_to_f32(isel *I, const cg_val *v)
{
    return vop2(I, RDX_ISA_OP_V_LSHLREV_B32, cg_i(16), cg_src(I, v, 0));
}

static cg_val f32_to_bf16(isel *I, const cg_val *v)
{
    xo u = cg_src(I, v, 0);
    cg_val bit = vop3(I, RDX_ISA_OP_V_BFE_U32, u, cg_i(16), cg_i(1));
    cg_val r = vop3(I, RDX_ISA_OP_V_ADD3_U32, u, cg_i(0x7fff), D1(bit));
    cg_val rs = vop2(I, RDX_ISA_OP_V_LSHRREV_B32, cg_i(16), D1(r));
    cg_val q = vop2(I, RDX_ISA_OP_V_LSHRREV_B32, cg_i(16), u);
    cg_val qn = vop2(I, RDX_ISA_OP_V_OR_B32, cg_i(0x40), D1(q));
    cg_val nan = vcmp(I, RDX_ISA_OP_V_CMP_U_F32, u, u);
    return vsel(I, D1(nan), D1(qn), D1(rs));
}

static cg_val f16_to_f32(isel *I, const cg_val *v)
{
    return vop1(I, RDX_ISA_OP_V_CVT_F32_F16, cg_src(I, v, 0));
}
static cg_val f32_to_f16(isel *I, const cg_val *v)
{
    return vop1(I, RDX_ISA_OP_V_CVT_F16_F32, cg_src(I, v, 0));
}

/*
 * f64 -> f32 rounded to odd (truncate, then set the last bit when inexact):
 * a following rounding to f16/bf16 is then correctly rounded (24 >= 11 + 2).
 */
static cg_val f64_to_f32_odd(isel *I, const cg_val *a)
{
    xo x = cg_src64(I, a, 1);
    cg_val r = vop1(I, RDX_ISA_OP_V_CVT_F32_F64, x);
    cg_val back = cg_reg(I, CG_V, 2);
    INS(I, V_CVT_F64_F32, 1, D2(back), D1(r));
    cg_val inexact = vcmp(I, RDX_ISA_OP_V_CMP_NEQ_F64, D2(back), x);
    cg_val away = s1(I);
    cg_inst *in = INS(I, V_CMP_GT_F64, 1, D1(away), D2(back), x);
    if (in)
        in->in.mod[RDX_ISA_MOD_ABS] = 3;
    cg_val dec = vsel(I, D1(away), cg_i(1), cg_i(0));
    cg_val t = vop2(I, RDX_ISA_OP_V_SUB_NC_U32, D1(r), D1(dec));
    cg_val odd = vsel(I, D1(inexact), cg_i(1), cg_i(0));
    cg_val o = vop2(I, RDX_ISA_OP_V_OR_B32, D1(t), D1(odd));
    /* NaN stays the converted NaN; infinities are exact */
    cg_val nan = vcmp(I, RDX_ISA_OP_V_CMP_U_F64, x, x);
    return vsel(I, D1(nan), D1(r), D1(o));
}

/* Any float kind to f32 / from f32 (f64 narrows with one rounding). */
static cg_val to_f32(isel *I, const cg_val *v, mk k)
{
    switch (k) {
    case K_F16:
        return f16_to_f32(I, v);
    case K_BF16:
        return bf16_to_f32(I, v);
    case K_F64:
        return vop1(I, RDX_ISA_OP_V_CVT_F32_F64, cg_src64(I, v, 1));
    default:
        return *v;
    }
}

/* ---------------------------------------------------------- division */

/* Unsigned 32-bit x / y and x % y (general, VALU). */
static void udiv32(isel *I, xo x, xo y, cg_val *q, cg_val *r)
{
    cg_val fy = vop1(I, RDX_ISA_OP_V_CVT_F32_U32, y);
    cg_val rc = vop1(I, RDX_ISA_OP_V_RCP_IFLAG_F32, D1(fy));
    cg_val sc = vop2(I, RDX_ISA_OP_V_MUL_F32, D1(rc), cg_i(0x4f7ffffe));
    cg_val z = vop1(I, RDX_ISA_OP_V_CVT_U32_F32, D1(sc));
    cg_val ny = vop2(I, RDX_ISA_OP_V_SUB_NC_U32, cg_i(0), y);
    cg_val t = vop2(I, RDX_ISA_OP_V_MUL_LO_U32, D1(ny), D1(z));
    cg_val th = vop2(I, RDX_ISA_OP_V_MUL_HI_U32, D1(z), D1(t));
    cg_val z2 = vop2(I, RDX_ISA_OP_V_ADD_NC_U32, D1(z), D1(th));
    cg_val qq = vop2(I, RDX_ISA_OP_V_MUL_HI_U32, x, D1(z2));
    cg_val p = vop2(I, RDX_ISA_OP_V_MUL_LO_U32, D1(qq), y);
    cg_val rr = vop2(I, RDX_ISA_OP_V_SUB_NC_U32, x, D1(p));
    for (int step = 0; step < 2; step++) {
        cg_val c = vcmp(I, RDX_ISA_OP_V_CMP_GE_U32, D1(rr), y);
        cg_val q1 = vop2(I, RDX_ISA_OP_V_ADD_NC_U32, D1(qq), cg_i(1));
        cg_val r1 = vop2(I, RDX_ISA_OP_V_SUB_NC_U32, D1(rr), y);
        qq = vsel(I, D1(c), D1(q1), D1(qq));
        rr = vsel(I, D1(c), D1(r1), D1(rr));
    }
    *q = qq, *r = rr;
}

/* Magic multiplier for x / d with 0 <= x <= xmax: q = mulhi(x, m) >> s. */
static int magic(uint64_t d, uint64_t xmax, uint32_t *m, unsigned *s)
{
    for (unsigned sh = 0; sh <= 32; sh++) {
        unsigned __int128 p = (unsigned __int128)1 << (32 + sh);
        unsigned __int128 mm = (p + d - 1) / d;
        if (mm >> 32)
            continue;
        unsigned __int128 e = mm * d - p;
        if (e * xmax < p) {
            *m = (uint32_t)mm;
            *s = sh;
            return 1;
        }
    }
    return 0;
}

static cg_val divmod32(isel *I, const rdx_uop *u, mk k, const cg_val *a, const cg_val *b)
{
    int is_mod = u->op == RDX_OP_MOD;
    const rdx_uop *x = u->src[0], *y = u->src[1];
    int64_t dv;
    int xnonneg = x->vmin >= 0 || k == K_U32;
    uint64_t xmax = k == K_U32 && x->vmax > (int64_t)UINT32_MAX ? UINT32_MAX
                    : x->vmax < 0                               ? 0
                                                                : (uint64_t)x->vmax;
    if (b->kind == VK_CONST) {
        dv = k == K_U32 ? (int64_t)(uint32_t)b->bits : (int64_t)(int32_t)(uint32_t)b->bits;
        if (dv == 0)
            return cg_fail(I, RDX_ERR_INVALID, u, "integer division by the constant 0"), none();
        if (xnonneg && dv > 0 && xmax <= UINT32_MAX) {
            xo xs = cg_src(I, a, 0);
            if ((dv & (dv - 1)) == 0) {
                unsigned sh = 0;
                while ((1ll << sh) < dv)
                    sh++;
                if (uniform(a))
                    return is_mod ? sop2(I, RDX_ISA_OP_S_AND_B32, xs, cg_i((int32_t)(dv - 1)))
                                  : sop2(I, RDX_ISA_OP_S_LSHR_B32, xs, cg_i((int32_t)sh));
                return is_mod ? vop2(I, RDX_ISA_OP_V_AND_B32, cg_i((int32_t)(dv - 1)), xs)
                              : vop2(I, RDX_ISA_OP_V_LSHRREV_B32, cg_i((int32_t)sh), xs);
            }
            uint32_t m;
            unsigned s;
            if (magic((uint64_t)dv, xmax, &m, &s)) {
                cg_val q;
                if (uniform(a)) {
                    q = sop2(I, RDX_ISA_OP_S_MUL_HI_U32, xs, cg_i((int32_t)m));
                    if (s)
                        q = sop2(I, RDX_ISA_OP_S_LSHR_B32, D1(q), cg_i((int32_t)s));
                    if (!is_mod)
                        return q;
                    cg_val p = sop2(I, RDX_ISA_OP_S_MUL_I32, D1(q), cg_i((int32_t)dv));
                    return sop2(I, RDX_ISA_OP_S_SUB_U32, xs, D1(p));
                }
                q = vop2(I, RDX_ISA_OP_V_MUL_HI_U32, xs, cg_i((int32_t)m));
                if (s)
                    q = vop2(I, RDX_ISA_OP_V_LSHRREV_B32, cg_i((int32_t)s), D1(q));
                if (!is_mod)
                    return q;
                cg_val p = vop2(I, RDX_ISA_OP_V_MUL_LO_U32, D1(q), cg_i((int32_t)dv));
                return vop2(I, RDX_ISA_OP_V_SUB_NC_U32, xs, D1(p));
            }
        }
    }
    cg_val q, r;
    if (k == K_U32 || (xnonneg && y->vmin > 0)) {
        cg_val bv = cg_to_v(I, b);
        udiv32(I, cg_src(I, a, 0), D1(bv), &q, &r);
        return is_mod ? r : q;
    }
    /* signed: divide magnitudes, fix signs */
    xo xs = cg_src(I, a, 0), ys = cg_src(I, b, 0);
    cg_val sa = vop2(I, RDX_ISA_OP_V_ASHRREV_I32, cg_i(31), xs);
    cg_val sb = vop2(I, RDX_ISA_OP_V_ASHRREV_I32, cg_i(31), ys);
    cg_val ax = vop2(I, RDX_ISA_OP_V_ADD_NC_U32, xs, D1(sa));
    ax = vop2(I, RDX_ISA_OP_V_XOR_B32, D1(ax), D1(sa));
    cg_val ay = vop2(I, RDX_ISA_OP_V_ADD_NC_U32, ys, D1(sb));
    ay = vop2(I, RDX_ISA_OP_V_XOR_B32, D1(ay), D1(sb));
    udiv32(I, D1(ax), D1(ay), &q, &r);
    if (is_mod) {
        cg_val t = vop2(I, RDX_ISA_OP_V_XOR_B32, D1(r), D1(sa));
        return vop2(I, RDX_ISA_OP_V_SUB_NC_U32, D1(t), D1(sa));
    }
    cg_val sq = vop2(I, RDX_ISA_OP_V_XOR_B32, D1(sa), D1(sb));
    cg_val t = vop2(I, RDX_ISA_OP_V_XOR_B32, D1(q), D1(sq));
    return vop2(I, RDX_ISA_OP_V_SUB_NC_U32, D1(t), D1(sq));
}

/* ------------------------------------------------------ 64-bit integers */

static cg_val add64(isel *I, const cg_val *a, const cg_val *b)
{
    cg_val r = cg_reg(I, CG_V, 2), c = s1(I), c2 = s1(I);
    INS(I, V_ADD_CO_U32, 2, cg_r(I, r.vr, 0, 1), D1(c), LO(*a), LO(*b));
    INS(I, V_ADD_CO_CI_U32, 2, cg_r(I, r.vr, 1, 1), D1(c2), HI(*a), HI(*b), D1(c));
    return r;
}

static cg_val mul64(isel *I, const cg_val *a, const cg_val *b)
{
    cg_val r = cg_reg(I, CG_V, 2);
    INS(I, V_MUL_LO_U32, 1, cg_r(I, r.vr, 0, 1), LO(*a), LO(*b));
    cg_val h = vop2(I, RDX_ISA_OP_V_MUL_HI_U32, LO(*a), LO(*b));
    cg_val t1 = vop2(I, RDX_ISA_OP_V_MUL_LO_U32, LO(*a), HI(*b));
    cg_val t2 = vop2(I, RDX_ISA_OP_V_MUL_LO_U32, HI(*a), LO(*b));
    INS(I, V_ADD3_U32, 1, cg_r(I, r.vr, 1, 1), D1(h), D1(t1), D1(t2));
    return r;
}

static cg_val bit64(isel *I, rdx_isa_op op, const cg_val *a, const cg_val *b)
{
    cg_val r = cg_reg(I, CG_V, 2);
    cg_ins(I, op, 1, 0, (xo[]){ cg_r(I, r.vr, 0, 1), LO(*a), LO(*b) }, 3);
    cg_ins(I, op, 1, 0, (xo[]){ cg_r(I, r.vr, 1, 1), HI(*a), HI(*b) }, 3);
    return r;
}

static cg_val sel64(isel *I, xo c, const cg_val *t, const cg_val *f)
{
    cg_val r = cg_reg(I, CG_V, 2);
    INS(I, V_CNDMASK_B32, 1, cg_r(I, r.vr, 0, 1), LO(*f), LO(*t), c);
    INS(I, V_CNDMASK_B32, 1, cg_r(I, r.vr, 1, 1), HI(*f), HI(*t), c);
    return r;
}

/* Unsigned 64-bit x / y, x % y: restoring division in a 64-iteration SALU-counted loop. */
static void udiv64(isel *I, const cg_val *x, const cg_val *y, cg_val *q, cg_val *r)
{
    cg_val xv = cg_to_v(I, x), yv = cg_to_v(I, y);
    cg_val qq = cg_reg(I, CG_V, 2), rr = cg_reg(I, CG_V, 2), z = cg_const(0, 2);
    cg_copy(I, &qq, &z);
    cg_copy(I, &rr, &z);
    cg_val cnt = s1(I);
    INS(I, S_MOV_B32, 1, D1(cnt), cg_i(63));
    int body = cg_block_new(I->p);
    if (body < 0) {
        I->st = RDX_ERR_NOMEM;
        return;
    }
    I->cur = body;
    INS(I, V_LSHLREV_B64, 1, D2(rr), cg_i(1), D2(rr));
    cg_val t = cg_reg(I, CG_V, 2);
    INS(I, V_LSHRREV_B64, 1, D2(t), D1(cnt), D2(xv));
    cg_val bit = vop2(I, RDX_ISA_OP_V_AND_B32, cg_i(1), cg_r(I, t.vr, 0, 1));
    INS(I, V_OR_B32, 1, cg_r(I, rr.vr, 0, 1), cg_r(I, rr.vr, 0, 1), D1(bit));
    cg_val ge = vcmp(I, RDX_ISA_OP_V_CMP_GE_U64, D2(rr), D2(yv));
    cg_val d = cg_reg(I, CG_V, 2), c = s1(I), c2 = s1(I);
    INS(I, V_SUB_CO_U32, 2, cg_r(I, d.vr, 0, 1), D1(c), cg_r(I, rr.vr, 0, 1), cg_r(I, yv.vr, 0, 1));
    INS(I, V_SUB_CO_CI_U32, 2, cg_r(I, d.vr, 1, 1), D1(c2), cg_r(I, rr.vr, 1, 1),
        cg_r(I, yv.vr, 1, 1), D1(c));
    INS(I, V_CNDMASK_B32, 1, cg_r(I, rr.vr, 0, 1), cg_r(I, rr.vr, 0, 1), cg_r(I, d.vr, 0, 1),
        D1(ge));
    INS(I, V_CNDMASK_B32, 1, cg_r(I, rr.vr, 1, 1), cg_r(I, rr.vr, 1, 1), cg_r(I, d.vr, 1, 1),
        D1(ge));
    INS(I, V_LSHLREV_B64, 1, D2(qq), cg_i(1), D2(qq));
    cg_val qb = vsel(I, D1(ge), cg_i(1), cg_i(0));
    INS(I, V_OR_B32, 1, cg_r(I, qq.vr, 0, 1), cg_r(I, qq.vr, 0, 1), D1(qb));
    INS(I, S_SUB_I32, 1, D1(cnt), D1(cnt), cg_i(1));
    INS(I, S_CMP_GE_I32, 0, D1(cnt), cg_i(0));
    cg_inst *b = INSF(I, S_CBRANCH_SCC1, 0, CG_F_BRANCH,
                      cg_k((rdx_isa_opnd){ RDX_ISA_OPND_BRANCH, 0, 0, 0 }));
    if (b)
        b->target = body;
    int exit = cg_block_new(I->p);
    if (exit < 0) {
        I->st = RDX_ERR_NOMEM;
        return;
    }
    I->cur = exit;
    *q = qq, *r = rr;
}

static cg_val neg64(isel *I, const cg_val *a)
{
    cg_val r = cg_reg(I, CG_V, 2), c = s1(I), c2 = s1(I);
    INS(I, V_SUB_CO_U32, 2, cg_r(I, r.vr, 0, 1), D1(c), cg_i(0), cg_src(I, a, 0));
    INS(I, V_SUB_CO_CI_U32, 2, cg_r(I, r.vr, 1, 1), D1(c2), cg_i(0), cg_src(I, a, 1), D1(c));
    return r;
}

static cg_val sel64(isel *I, xo c, const cg_val *t, const cg_val *f);

static cg_val divmod64(isel *I, rdx_op op, int sg, const cg_val *a, const cg_val *b)
{
    cg_val q, r;
    if (!sg) {
        udiv64(I, a, b, &q, &r);
        return op == RDX_OP_IDIV ? q : r;
    }
    cg_val z = cg_const(0, 2);
    cg_val na = vcmp(I, RDX_ISA_OP_V_CMP_LT_I64, cg_src64(I, a, 0), cg_i(0));
    cg_val nb = vcmp(I, RDX_ISA_OP_V_CMP_LT_I64, cg_src64(I, b, 0), cg_i(0));
    cg_val ma = neg64(I, a), mb = neg64(I, b);
    cg_val aa = sel64(I, D1(na), &ma, a), ab = sel64(I, D1(nb), &mb, b);
    udiv64(I, &aa, &ab, &q, &r);
    (void)z;
    if (op == RDX_OP_MOD) {
        cg_val nr = neg64(I, &r);
        return sel64(I, D1(na), &nr, &r);
    }
    cg_val ns = sop2(I, RDX_ISA_OP_S_XOR_B32, D1(na), D1(nb));
    cg_val nq = neg64(I, &q);
    return sel64(I, D1(ns), &nq, &q);
}

/* ----------------------------------------------------------- binaries */

/* Shift count fix-up: counts >= the machine width give 0 / the sign. */
static cg_val shift(isel *I, const rdx_uop *u, rdx_op op, mk k, const cg_val *a, const cg_val *b)
{
    unsigned W = is64(k) ? 64 : 32;
    const rdx_uop *cnt = u && u->nsrc == 2 ? u->src[1] : NULL;
    int safe = cnt && cnt->vmin >= 0 && cnt->vmax < (int64_t)W;
    if (b->kind == VK_CONST)
        safe = (uint64_t)b->bits < W;
    cg_val bl = low(I, b);
    xo s = cg_src(I, &bl, 0);
    int arith = op == RDX_OP_SHR && issigned(k);
    if (!safe && arith) {
        /* clamp the count to W-1 */
        cg_val c = vop2(I, RDX_ISA_OP_V_MIN_U32, s, cg_i((int32_t)(W - 1)));
        s = D1(c);
    }
    cg_val r;
    if (!is64(k)) {
        if (safe && uniform(a) && uniform(b))
            r = sop2(I,
                     op == RDX_OP_SHL ? RDX_ISA_OP_S_LSHL_B32
                     : arith          ? RDX_ISA_OP_S_ASHR_I32
                                      : RDX_ISA_OP_S_LSHR_B32,
                     cg_src(I, a, 0), s);
        else
            r = vop2(I,
                     op == RDX_OP_SHL ? RDX_ISA_OP_V_LSHLREV_B32
                     : arith          ? RDX_ISA_OP_V_ASHRREV_I32
                                      : RDX_ISA_OP_V_LSHRREV_B32,
                     s, cg_src(I, a, 0));
    } else
        r = vop2_64(I,
                    op == RDX_OP_SHL ? RDX_ISA_OP_V_LSHLREV_B64
                    : arith          ? RDX_ISA_OP_V_ASHRREV_I64
                                     : RDX_ISA_OP_V_LSHRREV_B64,
                    s, cg_src64(I, a, 0));
    if (!safe && !arith) {
        cg_val ok = vcmp(I, RDX_ISA_OP_V_CMP_GT_U32, cg_i((int32_t)W), cg_src(I, &bl, 0));
        if (is64(k)) {
            cg_val z = cg_const(0, 2);
            r = sel64(I, D1(ok), &r, &z);
        } else
            r = vsel(I, D1(ok), D1(r), cg_i(0));
    }
    return r;
}

#define CG_OP_MIN RDX_OP_COUNT

cg_val cg_alu_binary(isel *I, const rdx_uop *u, rdx_op op, rdx_dtype d, int narrow,
                     const cg_val *a0, const cg_val *b0)
{
    if (I->st)
        return none();
    mk k = kind_of(I, d, narrow);
    cg_val a = *a0, b = *b0;
    if (isint(k)) {
        int sg = d.scalar == RDX_INDEX || !rdx_dtype_is_unsigned(d);
        a = fit(I, &a, k, sg);
        b = fit(I, &b, k, sg);
    }
    int uni = uniform(&a) && uniform(&b);
    cg_val r = none();
    switch (k) {
    case K_BOOL: {
        xo x = mask(I, &a), y = mask(I, &b);
        int um = ubool(&a) && ubool(&b);
        switch ((int)op) {
        case RDX_OP_ADD:
        case RDX_OP_OR:
        case RDX_OP_MAX:
            r = sop2(I, RDX_ISA_OP_S_OR_B32, x, y);
            r.umask = (uint8_t)um;
            return r;
        case RDX_OP_MUL:
        case RDX_OP_AND:
        case CG_OP_MIN:
            r = sop2(I, RDX_ISA_OP_S_AND_B32, x, y);
            r.umask = (uint8_t)um;
            return r;
        case RDX_OP_XOR:
        case RDX_OP_CMPNE:
            r = sop2(I, RDX_ISA_OP_S_XOR_B32, x, y);
            r.umask = (uint8_t)um;
            return r;
        case RDX_OP_CMPLT: /* !a & b */
            r = sop2(I, RDX_ISA_OP_S_AND_NOT1_B32, y, x);
            r.umask = (uint8_t)um;
            return r;
        default:
            break;
        }
        break;
    }
    case K_I32:
    case K_U32: {
        int sg = k == K_I32;
        xo x = cg_src(I, &a, 0), y = cg_src(I, &b, 0);
        switch ((int)op) {
        case RDX_OP_ADD:
            r = uni ? sop2(I, RDX_ISA_OP_S_ADD_I32, x, y) : vop2(I, RDX_ISA_OP_V_ADD_NC_U32, x, y);
            return cg_normalise(I, &r, d);
        case RDX_OP_MUL:
            if (b.kind == VK_CONST && (uint32_t)b.bits &&
                !((uint32_t)b.bits & ((uint32_t)b.bits - 1))) {
                int sh = __builtin_ctz((uint32_t)b.bits); /* by a power of two: a shift */
                r = uni ? sop2(I, RDX_ISA_OP_S_LSHL_B32, x, cg_i(sh))
                        : vop2(I, RDX_ISA_OP_V_LSHLREV_B32, cg_i(sh), x);
            } else
                r = uni ? sop2(I, RDX_ISA_OP_S_MUL_I32, x, y)
                        : vop2(I, RDX_ISA_OP_V_MUL_LO_U32, x, y);
            return cg_normalise(I, &r, d);
        case RDX_OP_AND:
            return uni ? sop2(I, RDX_ISA_OP_S_AND_B32, x, y) : vop2(I, RDX_ISA_OP_V_AND_B32, x, y);
        case RDX_OP_OR:
            return uni ? sop2(I, RDX_ISA_OP_S_OR_B32, x, y) : vop2(I, RDX_ISA_OP_V_OR_B32, x, y);
        case RDX_OP_XOR:
            return uni ? sop2(I, RDX_ISA_OP_S_XOR_B32, x, y) : vop2(I, RDX_ISA_OP_V_XOR_B32, x, y);
        case RDX_OP_MAX:
            return uni ? sop2(I, sg ? RDX_ISA_OP_S_MAX_I32 : RDX_ISA_OP_S_MAX_U32, x, y)
                       : vop2(I, sg ? RDX_ISA_OP_V_MAX_I32 : RDX_ISA_OP_V_MAX_U32, x, y);
        case CG_OP_MIN:
            return uni ? sop2(I, sg ? RDX_ISA_OP_S_MIN_I32 : RDX_ISA_OP_S_MIN_U32, x, y)
                       : vop2(I, sg ? RDX_ISA_OP_V_MIN_I32 : RDX_ISA_OP_V_MIN_U32, x, y);
        case RDX_OP_CMPLT:
            return uni ? scmp(I, sg ? RDX_ISA_OP_S_CMP_LT_I32 : RDX_ISA_OP_S_CMP_LT_U32, x, y)
                       : vcmp(I, sg ? RDX_ISA_OP_V_CMP_LT_I32 : RDX_ISA_OP_V_CMP_LT_U32, x, y);
        case RDX_OP_CMPNE:
            return uni ? scmp(I, RDX_ISA_OP_S_CMP_LG_U32, x, y)
                       : vcmp(I, RDX_ISA_OP_V_CMP_NE_U32, x, y);
        case RDX_OP_SHL:
            r = shift(I, u, op, k, &a, &b);
            return cg_normalise(I, &r, d);
        case RDX_OP_SHR:
            return shift(I, u, op, k, &a, &b);
        case RDX_OP_IDIV:
        case RDX_OP_MOD:
            if (!u || u->op != op)
                break;
            r = divmod32(I, u, k, &a, &b);
            return cg_normalise(I, &r, d);
        default:
            break;
        }
        break;
    }
    case K_I64:
    case K_U64: {
        int sg = k == K_I64;
        switch ((int)op) {
        case RDX_OP_ADD:
            return add64(I, &a, &b);
        case RDX_OP_MUL:
            return mul64(I, &a, &b);
        case RDX_OP_AND:
            return bit64(I, RDX_ISA_OP_V_AND_B32, &a, &b);
        case RDX_OP_OR:
            return bit64(I, RDX_ISA_OP_V_OR_B32, &a, &b);
        case RDX_OP_XOR:
            return bit64(I, RDX_ISA_OP_V_XOR_B32, &a, &b);
        case RDX_OP_CMPLT:
            return vcmp(I, sg ? RDX_ISA_OP_V_CMP_LT_I64 : RDX_ISA_OP_V_CMP_LT_U64,
                        cg_src64(I, &a, 0), cg_src64(I, &b, 0));
        case RDX_OP_CMPNE:
            return vcmp(I, RDX_ISA_OP_V_CMP_NE_U64, cg_src64(I, &a, 0), cg_src64(I, &b, 0));
        case RDX_OP_MAX:
        case CG_OP_MIN: {
            cg_val c = vcmp(I, sg ? RDX_ISA_OP_V_CMP_LT_I64 : RDX_ISA_OP_V_CMP_LT_U64,
                            cg_src64(I, &a, 0), cg_src64(I, &b, 0));
            return op == RDX_OP_MAX ? sel64(I, D1(c), &b, &a) : sel64(I, D1(c), &a, &b);
        }
        case RDX_OP_SHL:
        case RDX_OP_SHR:
            return shift(I, u, op, k, &a, &b);
        case RDX_OP_IDIV:
        case RDX_OP_MOD:
            if (u && u->op == op &&
                !(u->src[0]->vmin >= 0 && u->src[1]->vmin > 0 &&
                  u->src[0]->vmax <= (int64_t)UINT32_MAX && u->src[1]->vmax <= (int64_t)UINT32_MAX))
                return divmod64(I, op, sg, &a, &b);
            if (u && u->op == op && u->src[0]->vmin >= 0 && u->src[1]->vmin > 0 &&
                u->src[0]->vmax <= (int64_t)UINT32_MAX && u->src[1]->vmax <= (int64_t)UINT32_MAX) {
                cg_val al = low(I, &a), bl = low(I, &b), q, rr;
                cg_val bv = cg_to_v(I, &bl);
                udiv32(I, cg_src(I, &al, 0), D1(bv), &q, &rr);
                cg_val res = op == RDX_OP_IDIV ? q : rr;
                return cg_widen(I, &res, 0);
            }
            return cg_fail(I, RDX_ERR_UNSUPPORTED, u,
                           "64-bit %s whose operands are not known to fit in uint32",
                           rdx_op_name(op)),
                   none();
        default:
            break;
        }
        break;
    }
    case K_F32:
    case K_F16: {
        int h = k == K_F16;
        xo x = cg_src(I, &a, 0), y = cg_src(I, &b, 0);
        if (h) {
            /* 16-bit constants: the literal/inline form of the half pattern */
            rdx_isa_opnd o;
            if (a.kind == VK_CONST && !rdx_isa_constant(a.bits & 0xffff, 16, RDX_ISA_FMT_F16, &o))
                x = cg_k(o);
            if (b.kind == VK_CONST && !rdx_isa_constant(b.bits & 0xffff, 16, RDX_ISA_FMT_F16, &o))
                y = cg_k(o);
        } else {
            rdx_isa_opnd o;
            if (a.kind == VK_CONST && !rdx_isa_constant(a.bits, 32, RDX_ISA_FMT_F32, &o))
                x = cg_k(o);
            if (b.kind == VK_CONST && !rdx_isa_constant(b.bits, 32, RDX_ISA_FMT_F32, &o))
                y = cg_k(o);
        }
        switch ((int)op) {
        case RDX_OP_ADD:
            return vop2(I, h ? RDX_ISA_OP_V_ADD_F16 : RDX_ISA_OP_V_ADD_F32, x, y);
        case RDX_OP_MUL:
            return vop2(I, h ? RDX_ISA_OP_V_MUL_F16 : RDX_ISA_OP_V_MUL_F32, x, y);
        case RDX_OP_MAX:
            return vop2(I, h ? RDX_ISA_OP_V_MAX_F16 : RDX_ISA_OP_V_MAX_F32, x, y);
        case CG_OP_MIN:
            return vop2(I, h ? RDX_ISA_OP_V_MIN_F16 : RDX_ISA_OP_V_MIN_F32, x, y);
        case RDX_OP_CMPLT:
            return vcmp(I, h ? RDX_ISA_OP_V_CMP_LT_F16 : RDX_ISA_OP_V_CMP_LT_F32, x, y);
        case RDX_OP_CMPNE:
            return vcmp(I, h ? RDX_ISA_OP_V_CMP_NEQ_F16 : RDX_ISA_OP_V_CMP_NEQ_F32, x, y);
        default:
            break;
        }
        break;
    }
    case K_BF16: {
        cg_val fa = bf16_to_f32(I, &a), fb = bf16_to_f32(I, &b);
        rdx_dtype f = rdx_dtype_of(RDX_FLOAT32);
        cg_val t = cg_alu_binary(I, NULL, op, f, 0, &fa, &fb);
        if (op == RDX_OP_CMPLT || op == RDX_OP_CMPNE)
            return t;
        return f32_to_bf16(I, &t);
    }
    case K_F64: {
        xo x = cg_src64(I, &a, 1), y = cg_src64(I, &b, 1);
        switch ((int)op) {
        case RDX_OP_ADD:
            return vop2_64(I, RDX_ISA_OP_V_ADD_F64, x, y);
        case RDX_OP_MUL:
            return vop2_64(I, RDX_ISA_OP_V_MUL_F64, x, y);
        case RDX_OP_MAX:
            return vop2_64(I, RDX_ISA_OP_V_MAX_F64, x, y);
        case CG_OP_MIN:
            return vop2_64(I, RDX_ISA_OP_V_MIN_F64, x, y);
        case RDX_OP_CMPLT:
            return vcmp(I, RDX_ISA_OP_V_CMP_LT_F64, x, y);
        case RDX_OP_CMPNE:
            return vcmp(I, RDX_ISA_OP_V_CMP_NEQ_F64, x, y);
        default:
            break;
        }
        break;
    }
    }
    char dd[48];
    return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "%s on %s is not supported by the back end",
                   (int)op == CG_OP_MIN ? "MIN" : rdx_op_name(op), rdx_dtype_str(d, dd, sizeof dd)),
           none();
}

uint64_t cg_red_identity(rdx_redop op, rdx_dtype d)
{
    mk k = kind_of(NULL, d, 1);
    int64_t lo, hi;
    rdx_dtype_range(d, &lo, &hi, NULL, NULL);
    switch (op) {
    case RDX_RED_ADD:
        return 0;
    case RDX_RED_MUL:
        return k == K_F32    ? 0x3f800000u
               : k == K_F16  ? 0x3c00
               : k == K_BF16 ? 0x3f80
               : k == K_F64  ? 0x3ff0000000000000ull
                             : 1;
    case RDX_RED_MAX:
        return k == K_F32               ? 0xff800000u
               : k == K_F16             ? 0xfc00
               : k == K_BF16            ? 0xff80
               : k == K_F64             ? 0xfff0000000000000ull
               : k == K_BOOL            ? 0
               : d.scalar == RDX_UINT64 ? 0
                                        : (uint64_t)lo;
    case RDX_RED_MIN:
        return k == K_F32               ? 0x7f800000u
               : k == K_F16             ? 0x7c00
               : k == K_BF16            ? 0x7f80
               : k == K_F64             ? 0x7ff0000000000000ull
               : k == K_BOOL            ? 1
               : d.scalar == RDX_UINT64 ? ~0ull
                                        : (uint64_t)hi;
    default:
        return 0;
    }
}

/* --------------------------------------------------------------- WHERE */

static cg_val where(isel *I, const rdx_uop *u, const cg_val *c, const cg_val *t, const cg_val *f)
{
    mk k = kind_of(I, u->dtype, cg_narrow(I, u));
    cg_val a = *t, b = *f;
    if (isint(k)) {
        a = fit(I, &a, k, 1);
        b = fit(I, &b, k, 1);
    }
    if (c->kind == VK_CONST)
        return c->bits ? a : b;
    xo m = mask(I, c);
    if (k == K_BOOL) {
        /* (c & t) | (~c & f) */
        cg_val x = sop2(I, RDX_ISA_OP_S_AND_B32, m, mask(I, &a));
        cg_val y = sop2(I, RDX_ISA_OP_S_AND_NOT1_B32, mask(I, &b), m);
        cg_val r = sop2(I, RDX_ISA_OP_S_OR_B32, D1(x), D1(y));
        r.umask = (uint8_t)(ubool(c) && ubool(&a) && ubool(&b));
        return r;
    }
    if (is64(k))
        return sel64(I, m, &a, &b);
    if (ubool(c) && uniform(&a) && uniform(&b)) {
        INS(I, S_CMP_LG_U32, 0, m, cg_i(0));
        return sop2(I, RDX_ISA_OP_S_CSELECT_B32, cg_src(I, &a, 0), cg_src(I, &b, 0));
    }
    return vsel(I, m, cg_src(I, &a, 0), cg_src(I, &b, 0));
}

/* --------------------------------------------------------- RECIP, TRUNC */

/*
 * 1/x correctly rounded (IEEE division 1.0 / x): v_div_scale, reciprocal and
 * Newton refinement, v_div_fmas (reads VCC, written by the numerator's
 * v_div_scale just before; nothing else in generated code writes VCC) and
 * v_div_fixup for the special cases, as compilers expand fdiv.
 */
static xo vcc(void)
{
    return cg_k(rdx_isa_special(RDX_ISA_REG_VCC_LO, 1));
}

static cg_inst *fma_neg0(isel *I, rdx_isa_op op, xo d, xo a, xo b, xo c)
{
    cg_inst *in = cg_ins(I, op, 1, 0, (xo[]){ d, a, b, c }, 4);
    if (in)
        in->in.mod[RDX_ISA_MOD_NEG] = 1;
    return in;
}

static cg_val recip_f32(isel *I, xo x)
{
    xo one = cg_k(rdx_isa_float(RDX_ISA_FCONST_1_0));
    cg_val ds = v1(I), ns = v1(I), junk = s1(I), r = v1(I), e = v1(I), r2 = v1(I), m = v1(I),
           e2 = v1(I), m2 = v1(I), e3 = v1(I), f = v1(I), out = v1(I);
    INS(I, V_DIV_SCALE_F32, 2, D1(ds), D1(junk), x, x, one);
    INS(I, V_RCP_F32, 1, D1(r), D1(ds));
    fma_neg0(I, RDX_ISA_OP_V_FMA_F32, D1(e), D1(ds), D1(r), one);
    INS(I, V_FMA_F32, 1, D1(r2), D1(e), D1(r), D1(r));
    INS(I, V_DIV_SCALE_F32, 2, D1(ns), vcc(), one, x, one);
    INS(I, V_MUL_F32, 1, D1(m), D1(ns), D1(r2));
    fma_neg0(I, RDX_ISA_OP_V_FMA_F32, D1(e2), D1(ds), D1(m), D1(ns));
    INS(I, V_FMA_F32, 1, D1(m2), D1(e2), D1(r2), D1(m));
    fma_neg0(I, RDX_ISA_OP_V_FMA_F32, D1(e3), D1(ds), D1(m2), D1(ns));
    INS(I, V_DIV_FMAS_F32, 1, D1(f), D1(e3), D1(r2), D1(m2));
    INS(I, V_DIV_FIXUP_F32, 1, D1(out), D1(f), x, one);
    return out;
}

static cg_val recip_f64(isel *I, xo x)
{
    xo one = cg_k(rdx_isa_float(RDX_ISA_FCONST_1_0));
    cg_val ds = cg_reg(I, CG_V, 2), junk = s1(I), r = cg_reg(I, CG_V, 2), e = cg_reg(I, CG_V, 2),
           r2 = cg_reg(I, CG_V, 2), e2 = cg_reg(I, CG_V, 2), r3 = cg_reg(I, CG_V, 2),
           ns = cg_reg(I, CG_V, 2), m = cg_reg(I, CG_V, 2), e3 = cg_reg(I, CG_V, 2),
           f = cg_reg(I, CG_V, 2), out = cg_reg(I, CG_V, 2);
    INS(I, V_DIV_SCALE_F64, 2, D2(ds), D1(junk), x, x, one);
    INS(I, V_RCP_F64, 1, D2(r), D2(ds));
    fma_neg0(I, RDX_ISA_OP_V_FMA_F64, D2(e), D2(ds), D2(r), one);
    INS(I, V_FMA_F64, 1, D2(r2), D2(r), D2(e), D2(r));
    fma_neg0(I, RDX_ISA_OP_V_FMA_F64, D2(e2), D2(ds), D2(r2), one);
    INS(I, V_FMA_F64, 1, D2(r3), D2(r2), D2(e2), D2(r2));
    INS(I, V_DIV_SCALE_F64, 2, D2(ns), vcc(), one, x, one);
    INS(I, V_MUL_F64, 1, D2(m), D2(ns), D2(r3));
    fma_neg0(I, RDX_ISA_OP_V_FMA_F64, D2(e3), D2(ds), D2(m), D2(ns));
    INS(I, V_DIV_FMAS_F64, 1, D2(f), D2(e3), D2(r3), D2(m));
    INS(I, V_DIV_FIXUP_F64, 1, D2(out), D2(f), x, one);
    return out;
}

static cg_val unary(isel *I, const rdx_uop *u, const cg_val *a)
{
    mk k = kind_of(I, u->dtype, cg_narrow(I, u));
    if (u->op == RDX_OP_TRUNC) {
        switch (k) {
        case K_F32:
            return vop1(I, RDX_ISA_OP_V_TRUNC_F32, cg_src(I, a, 0));
        case K_F16:
            return vop1(I, RDX_ISA_OP_V_TRUNC_F16, cg_src(I, a, 0));
        case K_F64: {
            cg_val r = cg_reg(I, CG_V, 2);
            INS(I, V_TRUNC_F64, 1, D2(r), cg_src64(I, a, 1));
            return r;
        }
        case K_BF16: {
            cg_val f = bf16_to_f32(I, a);
            cg_val t = vop1(I, RDX_ISA_OP_V_TRUNC_F32, D1(f));
            return f32_to_bf16(I, &t);
        }
        default:
            return *a; /* integers: identity */
        }
    }
    /* RECIP */
    switch (k) {
    case K_F32:
        return recip_f32(I, cg_src(I, a, 0));
    case K_F16: {
        cg_val f = f16_to_f32(I, a);
        cg_val r = recip_f32(I, D1(f));
        return f32_to_f16(I, &r);
    }
    case K_BF16: {
        cg_val f = bf16_to_f32(I, a);
        cg_val r = recip_f32(I, D1(f));
        return f32_to_bf16(I, &r);
    }
    case K_F64: {
        cg_val xv = cg_to_v(I, a);
        return recip_f64(I, D2(xv));
    }
    default:
        break;
    }
    char dd[48];
    return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "RECIP on %s",
                   rdx_dtype_str(u->dtype, dd, sizeof dd)),
           none();
}

/* ---------------------------------------------------------- CAST */

/* Saturating float (f32 register or operand) -> 32-bit int kind, to the range of dtype d. */
static cg_val f32_to_int32(isel *I, xo f, rdx_dtype d)
{
    int sg = !rdx_dtype_is_unsigned(d);
    cg_val r = vop1(I, sg ? RDX_ISA_OP_V_CVT_I32_F32 : RDX_ISA_OP_V_CVT_U32_F32, f);
    unsigned bits = rdx_dtype_itemsize(d) * 8;
    if (bits < 32) {
        int64_t lo, hi;
        rdx_dtype_range(d, &lo, &hi, NULL, NULL);
        r = vop3(I, sg ? RDX_ISA_OP_V_MED3_I32 : RDX_ISA_OP_V_MED3_U32, D1(r), cg_i((int32_t)lo),
                 cg_i((int32_t)hi));
    }
    return r;
}

static cg_val f64_to_int(isel *I, const cg_val *a, rdx_dtype d)
{
    int sg = !rdx_dtype_is_unsigned(d);
    unsigned bits = rdx_dtype_itemsize(d) * 8;
    if (bits <= 32) {
        cg_val r =
            vop1(I, sg ? RDX_ISA_OP_V_CVT_I32_F64 : RDX_ISA_OP_V_CVT_U32_F64, cg_src64(I, a, 1));
        if (bits < 32) {
            int64_t lo, hi;
            rdx_dtype_range(d, &lo, &hi, NULL, NULL);
            r = vop3(I, sg ? RDX_ISA_OP_V_MED3_I32 : RDX_ISA_OP_V_MED3_U32, D1(r),
                     cg_i((int32_t)lo), cg_i((int32_t)hi));
        }
        return r;
    }
    /* 64-bit: t = trunc(x); hi = floor(t * 2^-32); lo = t - hi * 2^32 */
    cg_val t = cg_reg(I, CG_V, 2), h = cg_reg(I, CG_V, 2), hf = cg_reg(I, CG_V, 2),
           l = cg_reg(I, CG_V, 2);
    INS(I, V_TRUNC_F64, 1, D2(t), cg_src64(I, a, 1));
    INS(I, V_LDEXP_F64, 1, D2(h), D2(t), cg_i(-32));
    INS(I, V_FLOOR_F64, 1, D2(hf), D2(h));
    INS(I, V_FMA_F64, 1, D2(l), D2(hf),
        cg_src64(I, &(cg_val){ .kind = VK_CONST, .n = 2, .bits = 0xc1f0000000000000ull }, 1),
        D2(t));
    cg_val r = cg_reg(I, CG_V, 2);
    INS(I, V_CVT_U32_F64, 1, cg_r(I, r.vr, 0, 1), D2(l));
    cg_ins(I, sg ? RDX_ISA_OP_V_CVT_I32_F64 : RDX_ISA_OP_V_CVT_U32_F64, 1, 0,
           (xo[]){ cg_r(I, r.vr, 1, 1), D2(hf) }, 2);
    /* saturation and NaN */
    double lim = sg ? 9223372036854775808.0 : 18446744073709551616.0;
    uint64_t limb;
    memcpy(&limb, &lim, 8);
    cg_val big = vcmp(I, RDX_ISA_OP_V_CMP_NGT_F64,
                      cg_src64(I, &(cg_val){ .kind = VK_CONST, .n = 2, .bits = limb }, 1), D2(t));
    cg_val maxv = cg_const(sg ? (uint64_t)INT64_MAX : ~0ull, 2);
    r = sel64(I, D1(big), &maxv, &r);
    if (sg) {
        double nl = -9223372036854775808.0;
        uint64_t nb;
        memcpy(&nb, &nl, 8);
        cg_val small =
            vcmp(I, RDX_ISA_OP_V_CMP_NLT_F64,
                 cg_src64(I, &(cg_val){ .kind = VK_CONST, .n = 2, .bits = nb }, 1), D2(t));
        cg_val minv = cg_const((uint64_t)INT64_MIN, 2);
        r = sel64(I, D1(small), &minv, &r);
    } else {
        cg_val neg = vcmp(I, RDX_ISA_OP_V_CMP_GE_F64, cg_i(0), D2(t));
        cg_val z = cg_const(0, 2);
        r = sel64(I, D1(neg), &z, &r);
    }
    cg_val nan = vcmp(I, RDX_ISA_OP_V_CMP_U_F64, D2(t), D2(t));
    cg_val z = cg_const(0, 2);
    return sel64(I, D1(nan), &z, &r);
}

/* int (kind k, value a) -> f64 register */
static cg_val int_to_f64(isel *I, const cg_val *a, mk k)
{
    cg_val r = cg_reg(I, CG_V, 2);
    if (!is64(k)) {
        cg_ins(I, k == K_I32 ? RDX_ISA_OP_V_CVT_F64_I32 : RDX_ISA_OP_V_CVT_F64_U32, 1, 0,
               (xo[]){ D2(r), cg_src(I, a, 0) }, 2);
        return r;
    }
    cg_val h = cg_reg(I, CG_V, 2), hs = cg_reg(I, CG_V, 2), l = cg_reg(I, CG_V, 2);
    cg_ins(I, k == K_I64 ? RDX_ISA_OP_V_CVT_F64_I32 : RDX_ISA_OP_V_CVT_F64_U32, 1, 0,
           (xo[]){ D2(h), cg_src(I, a, 1) }, 2);
    INS(I, V_LDEXP_F64, 1, D2(hs), D2(h), cg_i(32));
    INS(I, V_CVT_F64_U32, 1, D2(l), cg_src(I, a, 0));
    INS(I, V_ADD_F64, 1, D2(r), D2(hs), D2(l));
    return r;
}

/*
 * 64-bit int -> f64 rounded to odd: s = hi*2^32 + lo (one rounding), its exact
 * error by TwoSum, and when inexact an even s moves one ulp toward the exact
 * value.  Narrowing that to f32 (or, rounded to odd again, to f16/bf16) is
 * then correctly rounded.
 */
static cg_val int64_to_f64_odd(isel *I, const cg_val *a, mk k)
{
    cg_val h = cg_reg(I, CG_V, 2), hs = cg_reg(I, CG_V, 2), l = cg_reg(I, CG_V, 2),
           sum = cg_reg(I, CG_V, 2), bb = cg_reg(I, CG_V, 2), t1 = cg_reg(I, CG_V, 2),
           t2 = cg_reg(I, CG_V, 2), t3 = cg_reg(I, CG_V, 2), e = cg_reg(I, CG_V, 2);
    cg_ins(I, k == K_I64 ? RDX_ISA_OP_V_CVT_F64_I32 : RDX_ISA_OP_V_CVT_F64_U32, 1, 0,
           (xo[]){ D2(h), cg_src(I, a, 1) }, 2);
    INS(I, V_LDEXP_F64, 1, D2(hs), D2(h), cg_i(32));
    INS(I, V_CVT_F64_U32, 1, D2(l), cg_src(I, a, 0));
    INS(I, V_ADD_F64, 1, D2(sum), D2(hs), D2(l));
    cg_inst *in = INS(I, V_ADD_F64, 1, D2(bb), D2(sum), D2(hs)); /* bb = s - h */
    if (in)
        in->in.mod[RDX_ISA_MOD_NEG] = 2;
    in = INS(I, V_ADD_F64, 1, D2(t1), D2(sum), D2(bb)); /* s - bb */
    if (in)
        in->in.mod[RDX_ISA_MOD_NEG] = 2;
    in = INS(I, V_ADD_F64, 1, D2(t2), D2(hs), D2(t1)); /* h - (s - bb) */
    if (in)
        in->in.mod[RDX_ISA_MOD_NEG] = 2;
    in = INS(I, V_ADD_F64, 1, D2(t3), D2(l), D2(bb)); /* l - bb */
    if (in)
        in->in.mod[RDX_ISA_MOD_NEG] = 2;
    INS(I, V_ADD_F64, 1, D2(e), D2(t2), D2(t3));
    cg_val inexact = vcmp(I, RDX_ISA_OP_V_CMP_NEQ_F64, D2(e), cg_i(0));
    cg_val even = vcmp(I, RDX_ISA_OP_V_CMP_EQ_U32, cg_i(0),
                       D1(vop2(I, RDX_ISA_OP_V_AND_B32, cg_i(1), cg_r(I, sum.vr, 0, 1))));
    cg_val adj = sop2(I, RDX_ISA_OP_S_AND_B32, D1(inexact), D1(even));
    /* toward the exact value: +1 in magnitude when e and s have the same sign */
    cg_val es = vop2(I, RDX_ISA_OP_V_XOR_B32, cg_r(I, e.vr, 1, 1), cg_r(I, sum.vr, 1, 1));
    cg_val same = vcmp(I, RDX_ISA_OP_V_CMP_LE_I32, cg_i(0), D1(es));
    cg_val dlo = vsel(I, D1(same), cg_i(1), cg_i(-1));
    cg_val dhi = vsel(I, D1(same), cg_i(0), cg_i(-1));
    cg_val dz = vsel(I, D1(adj), D1(dlo), cg_i(0)), dzh = vsel(I, D1(adj), D1(dhi), cg_i(0));
    cg_val r = cg_reg(I, CG_V, 2), c = s1(I), c2 = s1(I);
    INS(I, V_ADD_CO_U32, 2, cg_r(I, r.vr, 0, 1), D1(c), cg_r(I, sum.vr, 0, 1), D1(dz));
    INS(I, V_ADD_CO_CI_U32, 2, cg_r(I, r.vr, 1, 1), D1(c2), cg_r(I, sum.vr, 1, 1), D1(dzh), D1(c));
    return r;
}

cg_val cg_cast_dt(isel *I, rdx_dtype from, int nf, rdx_dtype to, int nt, const cg_val *a)
{
    mk kf = kind_of(I, from, nf), kt = kind_of(I, to, nt);
    if (kt == K_BOOL) {
        switch (kf) {
        case K_BOOL:
            return *a;
        case K_I32:
        case K_U32:
            if (uniform(a))
                return scmp(I, RDX_ISA_OP_S_CMP_LG_U32, cg_src(I, a, 0), cg_i(0));
            return vcmp(I, RDX_ISA_OP_V_CMP_NE_U32, cg_src(I, a, 0), cg_i(0));
        case K_I64:
        case K_U64:
            return vcmp(I, RDX_ISA_OP_V_CMP_NE_U64, cg_src64(I, a, 0), cg_i(0));
        case K_F32:
            return vcmp(I, RDX_ISA_OP_V_CMP_NEQ_F32, cg_src(I, a, 0), cg_i(0));
        case K_F16:
            return vcmp(I, RDX_ISA_OP_V_CMP_NEQ_F16, cg_src(I, a, 0), cg_i(0));
        case K_BF16: {
            cg_val m = vop2(I, RDX_ISA_OP_V_AND_B32, cg_i(0x7fff), cg_src(I, a, 0));
            return vcmp(I, RDX_ISA_OP_V_CMP_NE_U32, D1(m), cg_i(0));
        }
        case K_F64:
            return vcmp(I, RDX_ISA_OP_V_CMP_NEQ_F64, cg_src64(I, a, 1), cg_i(0));
        }
    }
    if (kf == K_BOOL) {
        xo m = mask(I, a);
        uint32_t one = kt == K_F32 ? 0x3f800000u : kt == K_F16 ? 0x3c00 : kt == K_BF16 ? 0x3f80 : 1;
        if (kt == K_F64) {
            cg_val r = cg_reg(I, CG_V, 2);
            INS(I, V_MOV_B32, 1, cg_r(I, r.vr, 0, 1), cg_i(0));
            INS(I, V_CNDMASK_B32, 1, cg_r(I, r.vr, 1, 1), cg_i(0), cg_i(0x3ff00000), m);
            return r;
        }
        cg_val r;
        if (a->umask && isint(kt)) {
            INS(I, S_CMP_LG_U32, 0, m, cg_i(0));
            r = sop2(I, RDX_ISA_OP_S_CSELECT_B32, cg_i(1), cg_i(0));
        } else
            r = vsel(I, m, cg_i((int32_t)one), cg_i(0));
        if (is64(kt))
            return cg_widen(I, &r, 0);
        return r;
    }
    if (isint(kf) && isint(kt)) {
        int sg = issigned(kf);
        if (is64(kt))
            return a->n == 2 ? *a : cg_widen(I, a, sg);
        cg_val l = low(I, a);
        return cg_normalise(I, &l, to);
    }
    if (isint(kf)) { /* int -> float */
        if (kt == K_F64)
            return int_to_f64(I, a, kf);
        cg_val f;
        if (is64(kf) || kt == K_BF16) {
            /* through f64 (exact for 32-bit ints, rounded to odd for 64-bit ones), rounded
               to odd again before a 16-bit float */
            cg_val d = is64(kf) ? int64_to_f64_odd(I, a, kf) : int_to_f64(I, a, kf);
            f = kt == K_F32 ? vop1(I, RDX_ISA_OP_V_CVT_F32_F64, D2(d)) : f64_to_f32_odd(I, &d);
        } else
            f = vop1(I, kf == K_I32 ? RDX_ISA_OP_V_CVT_F32_I32 : RDX_ISA_OP_V_CVT_F32_U32,
                     cg_src(I, a, 0));
        if (kt == K_F16)
            return f32_to_f16(I, &f);
        if (kt == K_BF16)
            return f32_to_bf16(I, &f);
        return f;
    }
    if (isint(kt)) { /* float -> int */
        if (kf == K_F64)
            return f64_to_int(I, a, to);
        cg_val f = to_f32(I, a, kf);
        if (is64(kt)) {
            cg_val d = cg_reg(I, CG_V, 2);
            INS(I, V_CVT_F64_F32, 1, D2(d), cg_src(I, &f, 0));
            return f64_to_int(I, &d, to);
        }
        return f32_to_int32(I, cg_src(I, &f, 0), to);
    }
    /* float -> float */
    if (kf == kt)
        return *a;
    if (kt == K_F64) {
        cg_val f = to_f32(I, a, kf);
        cg_val r = cg_reg(I, CG_V, 2);
        INS(I, V_CVT_F64_F32, 1, D2(r), cg_src(I, &f, 0));
        return r;
    }
    cg_val f = kf == K_F64 && kt != K_F32 ? f64_to_f32_odd(I, a) : to_f32(I, a, kf);
    if (kt == K_F16)
        return f32_to_f16(I, &f);
    if (kt == K_BF16)
        return f32_to_bf16(I, &f);
    return f;
}

static cg_val bitcast(isel *I, const rdx_uop *u, const cg_val *a)
{
    rdx_dtype from = u->src[0]->dtype, to = u->dtype;
    unsigned sf = rdx_dtype_itemsize(from), st = rdx_dtype_itemsize(to);
    if (sf != st || from.scalar == RDX_BOOL || to.scalar == RDX_BOOL || from.scalar == RDX_INDEX ||
        to.scalar == RDX_INDEX) {
        char d0[48], d1[48];
        return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "BITCAST %s -> %s",
                       rdx_dtype_str(from, d0, sizeof d0), rdx_dtype_str(to, d1, sizeof d1)),
               none();
    }
    if (sf >= 4)
        return *a;
    /* 8/16-bit: re-normalise for the target (floats keep the low bits) */
    if (rdx_dtype_is_int(to))
        return cg_normalise(I,
                            &(cg_val){ .kind = a->kind == VK_CONST ? VK_CONST : VK_REG,
                                       .file = a->file,
                                       .n = 1,
                                       .vr = a->vr,
                                       .bits = a->bits },
                            to);
    return *a;
}

cg_val cg_alu(isel *I, const rdx_uop *u)
{
    cg_val s[3];
    for (uint32_t k = 0; k < u->nsrc && k < 3; k++)
        s[k] = cg_emit(I, u->src[k]);
    if (I->st)
        return none();
    if (cg_fp8_node(u)) /* isel_fp8.c */
        return cg_fp8_alu(I, u, s);
    for (uint32_t k = 0; k < u->nsrc; k++)
        if (u->src[k]->dtype.count != 1)
            return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "vector operand"), none();
    switch ((rdx_op)u->op) {
    case RDX_OP_CAST:
        return cg_cast_dt(I, u->src[0]->dtype, cg_narrow(I, u->src[0]), u->dtype, cg_narrow(I, u),
                          &s[0]);
    case RDX_OP_BITCAST:
        return bitcast(I, u, &s[0]);
    case RDX_OP_WHERE:
        return where(I, u, &s[0], &s[1], &s[2]);
    case RDX_OP_RECIP:
    case RDX_OP_TRUNC:
        return unary(I, u, &s[0]);
    case RDX_OP_CMPLT:
    case RDX_OP_CMPNE: {
        const rdx_uop *x = u->src[0], *y = u->src[1];
        int narrow = 1;
        if (x->dtype.scalar == RDX_INDEX)
            narrow = cg_narrow(I, x) && cg_narrow(I, y);
        return cg_alu_binary(I, u, (rdx_op)u->op, x->dtype, narrow, &s[0], &s[1]);
    }
    default: {
        int narrow = cg_narrow(I, u);
        if (u->dtype.scalar == RDX_INDEX && narrow && u->op != RDX_OP_ADD && u->op != RDX_OP_MUL &&
            u->op != RDX_OP_AND && u->op != RDX_OP_OR && u->op != RDX_OP_XOR && u->op != RDX_OP_SHL)
            for (uint32_t k = 0; k < u->nsrc; k++)
                if (u->src[k]->dtype.scalar == RDX_INDEX && !cg_narrow(I, u->src[k]))
                    narrow = 0;
        cg_val r = cg_alu_binary(I, u, (rdx_op)u->op, u->dtype, narrow, &s[0], &s[1]);
        if (u->dtype.scalar == RDX_INDEX && !narrow && cg_narrow(I, u))
            r = low(I, &r);
        return r;
    }
    }
}

cg_val cg_f64_to_f32_odd(isel *I, const cg_val *a)
{
    return f64_to_f32_odd(I, a);
}
