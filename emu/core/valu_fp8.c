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
        return s | 0x7fc00000u;
    if (bf8 && e == 31) /* E5M2: infinity, or a NaN */
        return m ? s | 0x7fc00000u : s | 0x7f800000u;
    if (e == 0) { /* zero or denormal: m * 2^(1 - bias - mb), a normal f32 */
        if (!m)
            return s;
        unsigned k = 31 - (unsigned)__builtin_clz(m); /* leading bit of m */
        uint32_t exp = (uint32_t)(127 + 1 - bias - (int)mb + (int)k);
        return s | exp << 23 | ((m << (23 - k)) & 0x7fffffu);
    }
    return s | (uint32_t)(e + 127 - (unsigned)bias) << 23 | m << (23 - mb);
}

uint8_t emu_f8_of_f32(uint32_t u, int bf8, int sat)
{
    uint8_t s = (uint8_t)((u >> 24) & 0x80);
    uint32_t a = u & 0x7fffffffu;
    unsigned mb = bf8 ? 2 : 3;
    int emin = bf8 ? -14 : -6;         /* exponent of the smallest normal */
    unsigned maxc = bf8 ? 0x7b : 0x7e; /* the largest finite code */
    uint8_t ovf = bf8 ? 0x7c : 0x7f;   /* +Inf (BF8) / NaN (FP8) */
    if (a > 0x7f800000u)               /* NaN: 0x7f in both formats */
        return (uint8_t)(s | 0x7f);
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
        if (rem > half || (rem == half && (n & 1))) /* round to nearest, ties to even */
            n++;
    }
    uint32_t code = ((uint32_t)((E > emin ? E : emin) - emin) << mb) + n;
    if (code > maxc)
        return (uint8_t)(s | (sat ? maxc : ovf));
    return (uint8_t)(s | code);
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

/* MODE.FP16_OVFL (bit 23): a finite overflow saturates to the largest finite value */
static int f8_sat(const emu_wave *w)
{
    return (w->mode >> 23) & 1;
}

/*
 * v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32 (param 0 / 1): { f8(S1), f8(S0) } into D[15:0], or
 * D[31:16] with OPSEL[3]; the other half of D is kept.  Round to nearest even whatever MODE
 * says; MODE.FP16_OVFL saturates a finite overflow.  The clamp bit (which llvm-mc 19 does
 * not accept here) is ignored, as AMD's rocjitsu ignores it on gfx12.
 */
void emu_v_cvt_pk_f8_f32(emu_wave *w, const emu_inst *in)
{
    uint32_t a[EMU_MAX_LANES], b[EMU_MAX_LANES], r[EMU_MAX_LANES];
    f32_src(w, in, 0, a);
    f32_src(w, in, 1, b);
    int bf8 = in->param & 1, sat = f8_sat(w);
    LANES
    r[l] = emu_f8_of_f32(a[l], bf8, sat) | (uint32_t)emu_f8_of_f32(b[l], bf8, sat) << 8;
    emu_vwrite16(w, &in->dst, r, 0); /* OPSEL[3]: the dst is the high half (predecode) */
}

/*
 * Stochastic rounding of f32 bits u with the random word r: the significand aligned to the
 * result's precision (a normal result's 2^-mb steps, or its denormal steps), r's top 20
 * (FP8) / 21 (BF8) bits added below the kept bits (a carry moves up, into the exponent),
 * the rest dropped.  Overflow, NaN and Inf as emu_f8_of_f32.
 */
static uint8_t f8_sr(uint32_t u, uint32_t r, int bf8, int sat)
{
    uint8_t s = (uint8_t)((u >> 24) & 0x80);
    uint32_t a = u & 0x7fffffffu;
    unsigned mb = bf8 ? 2 : 3;
    int emin = bf8 ? -14 : -6, bias = bf8 ? 15 : 7;
    unsigned maxc = bf8 ? 0x7b : 0x7e;
    if (a >= 0x7f800000u || a == 0)
        return emu_f8_of_f32(u, bf8, sat);
    int E = (int)(a >> 23) - 127;
    uint32_t m = a & 0x7fffffu;
    unsigned code;
    if (E >= emin) {
        m += r >> (9 + mb);
        if (m >> 23) {
            E++;
            m &= 0x7fffffu;
        }
        code = (unsigned)(E + bias) << mb | m >> (23 - mb);
    } else {
        unsigned d = (unsigned)(emin - E);
        m = d >= 32 || !(a >> 23) ? 0 : (m | 0x800000u) >> d; /* f32 denormals: 0 */
        m += r >> (9 + mb);
        code = m >> (23 - mb); /* 2^mb: the smallest normal */
    }
    if (code > maxc)
        return (uint8_t)(s | (sat ? maxc : bf8 ? 0x7c : 0x7f));
    return (uint8_t)(s | code);
}

/*
 * v_cvt_sr_fp8_f32 / v_cvt_sr_bf8_f32 (param 0 / 1): f8_sr of S0 with S1 as the random
 * word, into the byte OPSEL[3:2] of D, the others kept.  The pcode writes the sum as
 * wrapping in the 23-bit mantissa and rounds it to nearest even; this follows AMD's own
 * emulator, rocjitsu (docs/emu.md, FP8/BF8).
 */
void emu_v_cvt_sr_f8_f32(emu_wave *w, const emu_inst *in)
{
    uint32_t a[EMU_MAX_LANES], t1[EMU_MAX_LANES], r[EMU_MAX_LANES];
    f32_src(w, in, 0, a);
    const uint32_t *s1 = vsrc(w, in, 1, t1);
    const uint32_t *d = w->v[in->dst.reg];
    int bf8 = in->param & 1, sat = f8_sat(w);
    unsigned byte = (in->opsel >> 2) & 3;
    LANES
    {
        uint32_t f = f8_sr(a[l], s1[l], bf8, sat);
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
