/*
 * codegen/isel_fp8.c — fp8e4m3 / fp8e5m2 values (docs/codegen-backend.md, "fp8"): an fp8 value
 * is its code in the low byte of a dword (upper bits undefined, as a BITCAST from int8 leaves
 * them; every consumer reads the low byte).  On gfx12, CAST from fp8 is v_cvt_f32_fp8/bf8 (exact)
 * then the float32 cast; CAST to fp8 is the float32 value (float64 rounded to odd, so the
 * result is rounded once) clamped to the largest finite value when finite (tinygrad's
 * saturation: the conversion alone gives NaN/inf on overflow unless MODE.FP16_OVFL is set,
 * which rdx does not rely on), then v_cvt_pk_fp8/bf8_f32 (nearest even; inf and NaN as
 * tinygrad wants them).  Arithmetic on fp8 is done in float32 and rounded back; WHERE and
 * BITCAST move codes.  gfx11 has no fp8 conversions: a compile error names the node and the
 * target.
 */
#include <string.h>

#include "codegen/isel.h"

static int is_fp8(rdx_dtype d)
{
    return d.ptr == RDX_ADDR_NONE && (d.scalar == RDX_FP8E4M3 || d.scalar == RDX_FP8E5M2);
}

int cg_fp8_node(const rdx_uop *u)
{
    if (u->op == RDX_OP_WHERE || u->op == RDX_OP_BITCAST) /* codes move as 1-byte integers */
        return 0;
    if (is_fp8(u->dtype))
        return 1;
    for (uint32_t k = 0; k < u->nsrc; k++)
        if (is_fp8(u->src[k]->dtype))
            return 1;
    return 0;
}

static cg_val none(void)
{
    cg_val v = { 0 };
    return v;
}

#define D1(v) cg_r(I, (v).vr, 0, 1)

/* fp8 code (low byte of a dword) -> float32, exact. */
static cg_val fp8_to_f32(isel *I, const cg_val *a, rdx_scalar s)
{
    cg_val r = cg_reg(I, CG_V, 1);
    cg_ins(I, s == RDX_FP8E5M2 ? RDX_ISA_OP_V_CVT_F32_BF8 : RDX_ISA_OP_V_CVT_F32_FP8, 1, 0,
           (xo[]){ D1(r), cg_src(I, a, 0) }, 2);
    return r;
}

/* float32 -> fp8 code zero-extended, with tinygrad's saturation of finite values. */
static cg_val f32_to_fp8(isel *I, const cg_val *a, rdx_scalar s)
{
    int e5 = s == RDX_FP8E5M2;
    float maxv = e5 ? 57344.0f : 448.0f;
    uint32_t mb;
    memcpy(&mb, &maxv, 4);
    xo x = cg_src(I, a, 0);
    /* NaN and +-inf (class bits 0, 1, 2, 9) go to the conversion as they are */
    cg_val sp = cg_reg(I, CG_S, 1);
    INS(I, V_CMP_CLASS_F32, 1, D1(sp), x, cg_i(0x207));
    cg_val lo = cg_reg(I, CG_V, 1), hi = cg_reg(I, CG_V, 1), y = cg_reg(I, CG_V, 1);
    INS(I, V_MAX_F32, 1, D1(lo), cg_i((int32_t)(mb | 0x80000000u)), x);
    INS(I, V_MIN_F32, 1, D1(hi), cg_i((int32_t)mb), D1(lo));
    INS(I, V_CNDMASK_B32, 1, D1(y), D1(hi), x, D1(sp));
    /* the conversion writes D[15:0] ({fp8(S1) = 0, fp8(S0)}) and keeps D[31:16]: zero first */
    cg_val r = cg_reg(I, CG_V, 1);
    INS(I, V_MOV_B32, 1, D1(r), cg_i(0));
    cg_ins(I, e5 ? RDX_ISA_OP_V_CVT_PK_BF8_F32 : RDX_ISA_OP_V_CVT_PK_FP8_F32, 1, 0,
           (xo[]){ D1(r), D1(y), cg_i(0) }, 3);
    return r;
}

/* The float32 value of operand a of dtype d (an fp8 converted, a float32 kept). */
static cg_val as_f32(isel *I, const cg_val *a, rdx_dtype d, int narrow)
{
    if (is_fp8(d))
        return fp8_to_f32(I, a, (rdx_scalar)d.scalar);
    if (d.scalar == RDX_FLOAT32)
        return *a;
    if (d.scalar == RDX_FLOAT64)
        return cg_f64_to_f32_odd(I, a); /* one rounding in all: 24 bits >= 4 + 2 */
    return cg_cast_dt(I, d, narrow, rdx_dtype_of(RDX_FLOAT32), 1, a);
}

cg_val cg_fp8_alu(isel *I, const rdx_uop *u, const cg_val *s)
{
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32);
    const rdx_uop *x = u->src[0];
    if (I->p->ct->major < 12) {
        char d[48];
        const rdx_uop *f = is_fp8(u->dtype) ? u : x;
        return cg_fail(I, RDX_ERR_UNSUPPORTED, u,
                       "%s has no fp8 conversions (%s: gfx12 only, docs/codegen-backend.md)",
                       I->p->ct->name, rdx_dtype_str(f->dtype, d, sizeof d)),
               none();
    }
    if (u->op == RDX_OP_CAST) {
        rdx_dtype from = x->dtype, to = u->dtype;
        if (rdx_dtype_eq(from, to))
            return s[0];
        if (is_fp8(to)) {
            cg_val f = as_f32(I, &s[0], from, cg_narrow(I, x));
            return f32_to_fp8(I, &f, (rdx_scalar)to.scalar);
        }
        cg_val f = fp8_to_f32(I, &s[0], (rdx_scalar)from.scalar);
        return to.scalar == RDX_FLOAT32 ? f : cg_cast_dt(I, f32, 1, to, cg_narrow(I, u), &f);
    }
    /* arithmetic and compares in float32, rounded back once */
    if (u->op == RDX_OP_RECIP || u->op == RDX_OP_TRUNC || u->nsrc != 2 || !is_fp8(x->dtype))
        return cg_fail(I, RDX_ERR_UNSUPPORTED, u, "%s on fp8 (cast to float32 first)",
                       rdx_op_name((rdx_op)u->op)),
               none();
    cg_val a = fp8_to_f32(I, &s[0], (rdx_scalar)x->dtype.scalar);
    cg_val b = fp8_to_f32(I, &s[1], (rdx_scalar)u->src[1]->dtype.scalar);
    cg_val r = cg_alu_binary(I, u, (rdx_op)u->op, f32, 1, &a, &b);
    if (u->op == RDX_OP_CMPLT || u->op == RDX_OP_CMPNE)
        return r;
    return f32_to_fp8(I, &r, (rdx_scalar)u->dtype.scalar);
}
