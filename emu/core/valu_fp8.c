/*
 * emu/core/valu_fp8.c — RDNA4's 8-bit float formats (OCP FP8: FP8 = E4M3FN, BF8 = E5M2) and
 * the VALU ops on them: v_cvt_f32_fp8/bf8, v_cvt_pk_f32_fp8/bf8, v_cvt_pk_fp8/bf8_f32,
 * v_cvt_sr_fp8/bf8_f32 and v_dot4_f32_{fp8,bf8}_{fp8,bf8}.  Reference: the pcode in
 * isa/data/rdna4.json (byte and word selects); the rounding, overflow and NaN rules are in
 * docs/emu.md (RDNA4, FP8/BF8), with which of them hardware results back.
 */
#include "emu/core/emu_int.h"
#include "emu/core/ops.h"
#include "emu/core/valu.h"
#include "emu/core/valu_fp8.h"

/* ------------------------------------------------------------ formats */

uint32_t emu_f32_of_f8(uint8_t c, int bf8)
{
    uint32_t s = (uint32_t)(c & 0x80) << 24;
    unsigned mb = bf8 ? 2 : 3, e = (c & 0x7f) >> mb, m = c & ((1u << mb) - 1);
    int bias = bf8 ? 15 : 7;
    if (!bf8 && (c & 0x7f) == 0x7f) /* E4M3FN: the only NaN, no infinity */
        return s | 0x7fc00000u | m << 20;
    if (bf8 && e == 31) /* E5M2: infinity, or a NaN (quieted, its payload kept) */
        return m ? s | 0x7fc00000u | m << 21 : s | 0x7f800000u;
    if (e == 0) { /* zero or denormal: m * 2^(1 - bias - mb), a normal f32 */
        if (!m)
            return s;
        unsigned k = 31 - (unsigned)__builtin_clz(m); /* leading bit of m */
        uint32_t exp = (uint32_t)(127 + 1 - bias - (int)mb + (int)k);
        return s | exp << 23 | ((m << (23 - k)) & 0x7fffffu);
    }
    return s | (uint32_t)(e + 127 - (unsigned)bias) << 23 | m << (23 - mb);
}

static uint8_t f8_round(uint32_t u, int bf8, int sat, int rtz)
{
    uint8_t s = (uint8_t)((u >> 24) & 0x80);
    uint32_t a = u & 0x7fffffffu;
    unsigned mb = bf8 ? 2 : 3;
    int emin = bf8 ? -14 : -6;         /* exponent of the smallest normal */
    unsigned maxc = bf8 ? 0x7b : 0x7e; /* the largest finite code */
    uint8_t ovf = bf8 ? 0x7c : 0x7f;   /* +Inf (BF8) / NaN (FP8) */
    if (a > 0x7f800000u)               /* NaN: FP8's NaN; BF8 keeps 2 payload bits, quiet */
        return (uint8_t)(s | (bf8 ? 0x7e | ((a >> 21) & 1) : 0x7f));
    if (a == 0x7f800000u)
        return (uint8_t)(s | ovf);
    if (a == 0)
        return s;
    /* a = M * 2^(E - 23) with M the 24-bit significand */
    int E = (int)(a >> 23) - 127;
    uint32_t M = a & 0x7fffffu;
    if (a >> 23)
        M |= 0x800000u;
    else
        E = -126;
    int q = (E > emin ? E : emin) - (int)mb; /* the result's quantum is 2^q */
    int sh = q - E + 23;                     /* >= 23 - mb */
    uint32_t n = 0;
    if (sh < 32) {
        uint32_t rem = M & ((1u << sh) - 1), half = 1u << (sh - 1);
        n = M >> sh;
        if (!rtz && (rem > half || (rem == half && (n & 1)))) /* nearest, ties to even */
            n++;
    }
    uint32_t code = ((uint32_t)((E > emin ? E : emin) - emin) << mb) + n;
    if (code > maxc)
        return (uint8_t)(s | (sat ? maxc : ovf));
    return (uint8_t)(s | code);
}

uint8_t emu_f8_of_f32(uint32_t u, int bf8, int sat)
{
    return f8_round(u, bf8, sat, 0);
}

/* ------------------------------------------------------------ conversions */

/*
 * v_cvt_f32_fp8 / v_cvt_f32_bf8 (param 0 / 1): byte OPSEL[0] << 1 | OPSEL[1] of S0 ("byte
 * select bits are reversed"; LLVM's byte_sel:N); the VOP1 form reads byte 0.
 * v_cvt_pk_f32_fp8 / bf8 (param 2 / 3): the two bytes of the word OPSEL[0] selects into
 * D[31:0] and D[63:32].
 */
void emu_v_cvt_f32_f8(emu_wave *w, const emu_inst *in)
{
    uint32_t tmp[EMU_MAX_LANES];
    const uint32_t *p = vsrc(w, in, 0, tmp);
    int bf8 = in->param & 1;
    if (in->param & 2) {
        uint64_t r[EMU_MAX_LANES];
        /* OPSEL[0] with a VGPR or constant: predecode already gives the high half */
        int pre = in->src[0].kind == EMU_K_VHI || in->src[0].kind == EMU_K_CONST;
        unsigned sh = (in->opsel & 1) && !pre ? 16 : 0;
        LANES
        {
            uint32_t x = p[l] >> sh;
            float lo = omod_clamp(w, in, f32_of(emu_f32_of_f8((uint8_t)x, bf8)));
            float hi = omod_clamp(w, in, f32_of(emu_f32_of_f8((uint8_t)(x >> 8), bf8)));
            r[l] = u32_of(lo) | (uint64_t)u32_of(hi) << 32;
        }
        emu_vwrite64(w, &in->dst, r);
        return;
    }
    unsigned byte = (in->opsel & 1) << 1 | ((in->opsel >> 1) & 1);
    float r[EMU_MAX_LANES];
    LANES
    r[l] = f32_of(emu_f32_of_f8((uint8_t)(p[l] >> (8 * byte)), bf8));
    vdstf(w, in, r);
}

/* f32 source i with abs/neg (the conversions to FP8 read S0/S1 as f32; input denormals
   round to a signed zero in either format whatever MODE says, so no flush is needed) */
static void f32_src(emu_wave *w, const emu_inst *in, int i, uint32_t *out)
{
    uint32_t tmp[EMU_MAX_LANES];
    const uint32_t *p = vsrc(w, in, i, tmp);
    uint32_t clr = (in->abs >> i & 1) ? 0x7fffffffu : 0xffffffffu;
    uint32_t flip = (in->neg >> i & 1) ? 0x80000000u : 0;
    LANES
    out[l] = (p[l] & clr) ^ flip;
}

/*
 * v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32 (param 0 / 1): { f8(S1), f8(S0) } into D[15:0], or
 * D[31:16] with OPSEL[3]; the other half of D is kept.  Round to nearest even whatever MODE
 * says; clamp saturates a finite overflow to the largest finite value.
 */
void emu_v_cvt_pk_f8_f32(emu_wave *w, const emu_inst *in)
{
    uint32_t a[EMU_MAX_LANES], b[EMU_MAX_LANES], r[EMU_MAX_LANES];
    f32_src(w, in, 0, a);
    f32_src(w, in, 1, b);
    int bf8 = in->param & 1;
    LANES
    r[l] = emu_f8_of_f32(a[l], bf8, in->clamp) | (uint32_t)emu_f8_of_f32(b[l], bf8, in->clamp) << 8;
    emu_vwrite16(w, &in->dst, r, 0); /* OPSEL[3]: the dst is the high half (predecode) */
}

/*
 * v_cvt_sr_fp8_f32 / v_cvt_sr_bf8_f32 (param 0 / 1): stochastic rounding — S1[31:12] (FP8) /
 * S1[31:11] (BF8), the bits below the result's mantissa of a normal result, added to S0's
 * magnitude (a carry moves into the exponent), then truncated; a finite value beyond the
 * largest finite one gives NaN (FP8) / Inf (BF8), or it with clamp; Inf and NaN convert as
 * v_cvt_pk_* does.  The byte OPSEL[3:2] of D is written, the others kept.  The pcode
 * writes the sum as wrapping in the 23-bit mantissa and converts it to nearest even; AMD's
 * emulator (rocjitsu) and every stochastic-rounding reading carry and truncate, which this
 * follows (docs/emu.md, FP8/BF8).
 */
void emu_v_cvt_sr_f8_f32(emu_wave *w, const emu_inst *in)
{
    uint32_t a[EMU_MAX_LANES], t1[EMU_MAX_LANES], r[EMU_MAX_LANES];
    f32_src(w, in, 0, a);
    const uint32_t *s1 = vsrc(w, in, 1, t1);
    const uint32_t *d = w->v[in->dst.reg];
    int bf8 = in->param & 1;
    unsigned byte = (in->opsel >> 2) & 3, sh = bf8 ? 11 : 12;
    LANES
    {
        uint32_t x = a[l], mag = x & 0x7fffffffu, f;
        if (mag >= 0x7f800000u) {
            f = emu_f8_of_f32(x, bf8, in->clamp);
        } else {
            mag += s1[l] >> sh;
            if (mag >= 0x7f800000u) /* carried past the largest finite f32 */
                mag = 0x7f7fffffu;
            f = f8_round((x & 0x80000000u) | mag, bf8, in->clamp, 1);
        }
        r[l] = (d[l] & ~(0xffu << (8 * byte))) | f << (8 * byte);
    }
    vdst(w, in, r);
}

/*
 * v_dot4_f32_fp8_fp8 (param 0), _fp8_bf8 (1: S1 BF8), _bf8_fp8 (2: S0 BF8), _bf8_bf8 (3):
 * S2 + the four byte products, each exact, summed exactly and rounded once (as v_dot2's).
 */
void emu_v_dot4_f8(emu_wave *w, const emu_inst *in)
{
    uint32_t ta[EMU_MAX_LANES], tb[EMU_MAX_LANES];
    const uint32_t *A = vsrc(w, in, 0, ta), *B = vsrc(w, in, 1, tb);
    float c[EMU_MAX_LANES], r[EMU_MAX_LANES];
    vsrcf(w, in, 2, c);
    int abf = (in->param >> 1) & 1, bbf = in->param & 1;
    LANES
    {
        double s = c[l];
        for (unsigned k = 0; k < 4; k++)
            s += (double)f32_of(emu_f32_of_f8((uint8_t)(A[l] >> (8 * k)), abf)) *
                 (double)f32_of(emu_f32_of_f8((uint8_t)(B[l] >> (8 * k)), bbf));
        r[l] = (float)s;
    }
    vdstf(w, in, r);
}
