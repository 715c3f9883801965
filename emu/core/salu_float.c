/*
 * emu/core/salu_float.c — the scalar float instructions of RDNA3.5 (gfx115x) and RDNA4
 * (gfx12): s_add/sub/mul/fmac/fmaak/fmamk/min/max_f32/f16, the gfx12 s_min/max_num and
 * s_minimum/maximum, s_cvt_*, s_ceil/floor/trunc/rndne and s_cmp_*_f32/f16.  Reference:
 * the pcode of each instruction in isa/data/rdna3.json / rdna4.json.
 *
 * MODE applies as it does to the VALU: f32 ops round in FP_ROUND[1:0] (the host FPU follows
 * it, emu_apply_round) and flush denormal inputs / outputs per FP_DENORM[5:4]; f16 ops are
 * computed exactly in double and rounded once to f16 in FP_ROUND[3:2], with denormals per
 * FP_DENORM[7:6].  An f16 result is written to bits 15:0 of the SGPR and bits 31:16 are
 * cleared (docs/emu.md, Targets).
 */
#include <math.h>

#include "emu/core/fp.h"
#include "emu/core/ops.h"
#include "emu/core/valu.h"

#define S0 emu_s32(w, &in->src[0])
#define S1 emu_s32(w, &in->src[1])

/* ------------------------------------------------------------ modes */

static uint32_t in32(const emu_wave *w, uint32_t u)
{
    return (emu_denorm32(w) & 1) ? u : f32_flush(u);
}
static float f32in(const emu_wave *w, uint32_t u)
{
    return f32_of(in32(w, u));
}
static void out32(emu_wave *w, const emu_inst *in, float f)
{
    uint32_t u = u32_of(f);
    emu_swrite32(w, &in->sdst, (emu_denorm32(w) & 2) ? u : f32_flush(u));
}
static uint16_t in16(const emu_wave *w, uint32_t u)
{
    uint16_t h = (uint16_t)u;
    return (emu_denorm64(w) & 1) ? h : f16_flush(h);
}
static double f16in(const emu_wave *w, uint32_t u)
{
    return f16_to_f32(in16(w, u));
}
static void out16h(emu_wave *w, const emu_inst *in, uint16_t h)
{
    emu_swrite32(w, &in->sdst, (emu_denorm64(w) & 2) ? h : f16_flush(h));
}
/* an exact (or round-to-odd) double rounded once to f16 in FP_ROUND[3:2] */
static void out16(emu_wave *w, const emu_inst *in, double d)
{
    out16h(w, in, f64_to_f16_rm(d, emu_round64(w)));
}

/* ------------------------------------------------------------ arithmetic */

void emu_s_fop_f32(emu_wave *w, const emu_inst *in)
{
    float x = f32in(w, S0), y = f32in(w, S1), r;
    switch (in->param) {
    case 0:
        r = x + y;
        break;
    case 1:
        r = x - y;
        break;
    case 2:
        r = x * y;
        break;
    case 3: /* s_fmac_f32: D = S0 * S1 + D */
        r = fmaf(x, y, f32in(w, emu_s32(w, &in->sdst)));
        break;
    case 4: /* s_fmaak_f32: D = S0 * S1 + K */
        r = fmaf(x, y, f32in(w, (uint32_t)in->src[2].val));
        break;
    default: /* s_fmamk_f32: D = S0 * K + S1 */
        r = fmaf(x, f32in(w, (uint32_t)in->src[2].val), y);
        break;
    }
    out32(w, in, r);
}

void emu_s_fop_f16(emu_wave *w, const emu_inst *in)
{
    double x = f16in(w, S0), y = f16in(w, S1);
    switch (in->param) {
    case 0:
        out16(w, in, x + y); /* exact in double */
        break;
    case 1:
        out16(w, in, x - y);
        break;
    case 2:
        out16(w, in, x * y);
        break;
    default: /* s_fmac_f16 */
        out16(w, in, f16_fma_rto(x, y, f16in(w, emu_s32(w, &in->sdst)), emu_round64(w)));
        break;
    }
}

/* ------------------------------------------------------------ min / max */

typedef struct fbits {
    uint32_t sign, qbit, expmask, mantmask;
} fbits;
static const fbits B32 = { 0x80000000u, 0x400000u, 0x7f800000u, 0x7fffffu };
static const fbits B16 = { 0x8000u, 0x200u, 0x7c00u, 0x3ffu };

static int is_nan(const fbits *b, uint32_t u)
{
    return (u & b->expmask) == b->expmask && (u & b->mantmask);
}
static int is_snan(const fbits *b, uint32_t u)
{
    return is_nan(b, u) && !(u & b->qbit);
}
static double fval(const fbits *b, uint32_t u)
{
    return b == &B32 ? (double)f32_of(u) : (double)f16_to_f32((uint16_t)u);
}
/* a < b with -0 < +0 (the pcode's LT_NEG_ZERO), for non-NaN a, b */
static int lt_nz(const fbits *b, uint32_t x, uint32_t y)
{
    double p = fval(b, x), q = fval(b, y);
    if (p == q)
        return (x & b->sign) && !(y & b->sign);
    return p < q;
}

/*
 * param: bit 0 max, bits 2:1 flavour: 0 s_min/max_f32/f16 (RDNA3.5: the VALU's IEEE-mode
 * rules), 1 s_min/max_num (gfx12: a NaN operand gives the other one), 2 s_minimum/maximum
 * (gfx12: a NaN operand is the result, quieted); bit 3 f16.
 */
static uint32_t minmax(const emu_wave *w, unsigned p, uint32_t a, uint32_t b)
{
    const fbits *fb = (p & 8) ? &B16 : &B32;
    int max = p & 1;
    unsigned fl = (p >> 1) & 3;
    /* max(a, b) is min with the comparison reversed */
    int pick_a_cmp = max ? lt_nz(fb, b, a) : lt_nz(fb, a, b);
    if (fl == 0) {
        if (emu_ieee(w)) {
            if (is_snan(fb, a))
                return a | fb->qbit;
            if (is_snan(fb, b))
                return b | fb->qbit;
        }
        if (is_nan(fb, b))
            return a;
        if (is_nan(fb, a))
            return b;
        return pick_a_cmp ? a : b;
    }
    if (fl == 1) {
        if (is_nan(fb, a) && is_nan(fb, b))
            return a | fb->qbit;
        if (is_nan(fb, a))
            return b;
        if (is_nan(fb, b))
            return a;
        return pick_a_cmp ? a : b;
    }
    if (is_snan(fb, a))
        return a | fb->qbit;
    if (is_snan(fb, b))
        return b | fb->qbit;
    if (is_nan(fb, a))
        return a;
    if (is_nan(fb, b))
        return b;
    return pick_a_cmp ? a : b;
}

void emu_s_fminmax(emu_wave *w, const emu_inst *in)
{
    if (in->param & 8) {
        uint32_t r = minmax(w, in->param, in16(w, S0), in16(w, S1));
        out16h(w, in, (uint16_t)r);
    } else {
        uint32_t r = minmax(w, in->param, in32(w, S0), in32(w, S1));
        emu_swrite32(w, &in->sdst, (emu_denorm32(w) & 2) ? r : f32_flush(r));
    }
}

/* ------------------------------------------------------------ rounding */

/* param: 0 ceil, 1 floor, 2 trunc, 3 rndne; bit 2 f16 */
void emu_s_fround(emu_wave *w, const emu_inst *in)
{
    unsigned k = in->param & 3;
    double x = (in->param & 4) ? f16in(w, S0) : (double)f32in(w, S0);
    double r = k == 0 ? ceil(x) : k == 1 ? floor(x) : k == 2 ? trunc(x) : fp_rne(x);
    if (in->param & 4)
        out16(w, in, r);
    else
        out32(w, in, (float)r);
}

/* ------------------------------------------------------------ conversions */

static uint32_t sat_i32(double x)
{
    if (x != x)
        return 0;
    if (x >= 2147483647.0)
        return 0x7fffffffu;
    if (x <= -2147483648.0)
        return 0x80000000u;
    return (uint32_t)(int32_t)x;
}
static uint32_t sat_u32(double x)
{
    if (x != x || x <= 0.0)
        return 0;
    if (x >= 4294967295.0)
        return 0xffffffffu;
    return (uint32_t)x;
}

void emu_s_fcvt(emu_wave *w, const emu_inst *in)
{
    switch (in->param) {
    case 0: /* s_cvt_f32_i32 (rounds in FP_ROUND[1:0]) */
        out32(w, in, (float)(int32_t)S0);
        break;
    case 1: /* s_cvt_f32_u32 */
        out32(w, in, (float)S0);
        break;
    case 2: /* s_cvt_i32_f32 */
        emu_swrite32(w, &in->sdst, sat_i32(f32in(w, S0)));
        break;
    case 3: /* s_cvt_u32_f32 */
        emu_swrite32(w, &in->sdst, sat_u32(f32in(w, S0)));
        break;
    case 4: /* s_cvt_f16_f32: the f16 rounding mode, f16 output denormals */
        out16h(w, in, f32_to_f16_rm(f32in(w, S0), emu_round64(w)));
        break;
    case 5: /* s_cvt_f32_f16 */
        out32(w, in, (float)f16in(w, S0));
        break;
    case 6: /* s_cvt_hi_f32_f16 */
        out32(w, in, (float)f16in(w, S0 >> 16));
        break;
    default: { /* s_cvt_pk_rtz_f16_f32: round toward zero whatever the mode */
        uint16_t lo = f32_to_f16_rm(f32in(w, S0), 3), hi = f32_to_f16_rm(f32in(w, S1), 3);
        if (!(emu_denorm64(w) & 2))
            lo = f16_flush(lo), hi = f16_flush(hi);
        emu_swrite32(w, &in->sdst, (uint32_t)lo | (uint32_t)hi << 16);
        break;
    }
    }
}

/* ------------------------------------------------------------ compares */

/* param: condition in the VOPC float order (f lt eq le gt lg ge o u nge nlg ngt nle neq nlt t),
   bit 4 f16 */
void emu_s_fcmp(emu_wave *w, const emu_inst *in)
{
    double a, b;
    if (in->param & 16)
        a = f16in(w, S0), b = f16in(w, S1);
    else
        a = f32in(w, S0), b = f32in(w, S1);
    int un = a != a || b != b, r;
    switch (in->param & 15) {
    case 1:
        r = a < b;
        break;
    case 2:
        r = a == b;
        break;
    case 3:
        r = a <= b;
        break;
    case 4:
        r = a > b;
        break;
    case 5:
        r = a < b || a > b;
        break;
    case 6:
        r = a >= b;
        break;
    case 7:
        r = !un;
        break;
    case 8:
        r = un;
        break;
    case 9:
        r = !(a >= b);
        break;
    case 10:
        r = !(a < b || a > b);
        break;
    case 11:
        r = !(a > b);
        break;
    case 12:
        r = !(a <= b);
        break;
    case 13:
        r = !(a == b);
        break;
    case 14:
        r = !(a < b);
        break;
    default:
        r = (in->param & 15) == 15;
        break;
    }
    w->scc = (uint32_t)r;
}
