/*
 * emu/core/wmma12.c — RDNA4 (gfx12) matrix ops, wave32 and wave64: the dense WMMAs
 * (v_wmma_*_16x16x16_* and v_wmma_i32_16x16x32_iu4) and the sparse SWMMACs
 * (v_swmmac_*_16x16x32_*, v_swmmac_i32_16x16x64_iu4).  D = A x B + C, every product exact,
 * summed exactly and rounded once (as gfx11's emu_v_wmma).
 *
 * Register layouts (docs/emu.md, RDNA4 WMMA): element k of row / column i of A / B is in
 * lane `lane` at slot `slot` of the operand's VGPRs (slot * bits / 32 is the VGPR, the rest
 * the bit offset); D / C element (m, n) in lane n + 16*m[3] (wave32) or n + 16*m[3] +
 * 32*m[2] (wave64), element m[2:0] (m[1:0] in wave64) of the lane's 32-bit VGPRs, two per
 * VGPR for 16-bit results.  The wave32 16-/8-bit dense layout is tinygrad's emulator's
 * (checked on RDNA4 hardware); iu4, wave64 and everything of SWMMAC (A's compressed
 * layout, the 2-bit index entries and which lane holds them) follow AMD's own emulator,
 * rocjitsu (ROCm rocm-systems emulation/rocjitsu, shared/mma/layout.h), not hardware.
 */
#include "emu/core/emu_int.h"
#include "emu/core/ops.h"
#include "emu/core/valu.h"
#include "emu/core/valu_fp8.h"

enum { F_F16, F_BF16, F_I8, F_I4, F_FP8, F_BF8 };
enum { O_F32, O_F16, O_BF16, O_I32 };

typedef struct wm_kind {
    uint8_t bits, K, out, fa, fb; /* K: the dense reduction length */
} wm_kind;

/* emu_v_wmma12's param: 0-5 are gfx11's names (emu_v_wmma's params), 6-10 gfx12's own */
static const wm_kind dense_kinds[] = {
    { 16, 16, O_F32, F_F16, F_F16 }, { 16, 16, O_F32, F_BF16, F_BF16 },
    { 16, 16, O_F16, F_F16, F_F16 }, { 16, 16, O_BF16, F_BF16, F_BF16 },
    { 8, 16, O_I32, F_I8, F_I8 },    { 4, 16, O_I32, F_I4, F_I4 },
    { 4, 32, O_I32, F_I4, F_I4 },    { 8, 16, O_F32, F_FP8, F_FP8 },
    { 8, 16, O_F32, F_FP8, F_BF8 },  { 8, 16, O_F32, F_BF8, F_FP8 },
    { 8, 16, O_F32, F_BF8, F_BF8 },
};

/* emu_v_swmmac's param */
static const wm_kind sparse_kinds[] = {
    { 16, 32, O_F32, F_F16, F_F16 }, { 16, 32, O_F32, F_BF16, F_BF16 },
    { 16, 32, O_F16, F_F16, F_F16 }, { 16, 32, O_BF16, F_BF16, F_BF16 },
    { 8, 32, O_I32, F_I8, F_I8 },    { 4, 32, O_I32, F_I4, F_I4 },
    { 4, 64, O_I32, F_I4, F_I4 },    { 8, 32, O_F32, F_FP8, F_FP8 },
    { 8, 32, O_F32, F_FP8, F_BF8 },  { 8, 32, O_F32, F_BF8, F_FP8 },
    { 8, 32, O_F32, F_BF8, F_BF8 },
};

typedef struct wm_loc {
    unsigned lane, slot;
} wm_loc;

static unsigned swap2(unsigned b)
{
    return ((b & 1) << 1) | (b >> 1);
}

/* Dense A / B: element k of row / column i. */
static wm_loc dense_loc(unsigned nl, unsigned K, unsigned bits, unsigned i, unsigned k)
{
    wm_loc r;
    if (nl == 32) {
        if (bits == 4 && K == 16) {
            r.lane = i + 16 * (k / 8);
            r.slot = k % 8;
        } else if (bits == 4) {
            r.lane = i + 16 * ((k / 8) & 1);
            r.slot = 8 * (k / 16) + k % 8;
        } else {
            r.lane = i + 16 * ((k >> 2) & 1);
            r.slot = (k & 3) | ((k >> 3) & 1) << 2;
        }
    } else if (bits == 4) {
        unsigned b = k / 8;
        r.lane = i + 16 * (K == 16 ? b : swap2(b));
        r.slot = k & 7;
    } else {
        r.lane = i + 16 * ((k >> 2) & 1) + 32 * ((k >> 3) & 1);
        r.slot = 2 * ((k >> 1) & 1) + (k & 1);
    }
    return r;
}

/* SWMMAC A: compressed element ck (of K/2) of row i. */
static wm_loc sparse_a_loc(unsigned nl, unsigned K, unsigned bits, unsigned i, unsigned ck)
{
    wm_loc r;
    unsigned g = ck / 2, s = ck & 1;
    if (bits == 4) {
        unsigned b = ck / 8;
        if (nl == 32) {
            r.lane = i + 16 * (K == 32 ? b : b & 1);
            r.slot = K == 32 ? ck % 8 : 8 * (ck / 16) + ck % 8;
        } else {
            r.lane = i + 16 * (K == 32 ? b : swap2(b));
            r.slot = ck & 7;
        }
    } else if (bits == 8) {
        if (nl == 32) {
            r.lane = i + 16 * (g / 4);
            r.slot = 2 * (g & 3) + s;
        } else {
            r.lane = i + 16 * (2 * ((g >> 1) & 1) + (g >> 2));
            r.slot = 2 * (g & 1) + s;
        }
    } else if (nl == 32) {
        r.lane = i + 16 * ((g / 2) & 1);
        r.slot = 2 * (2 * (g / 4) + (g & 1)) + s;
    } else {
        r.lane = i + 16 * (g >> 1);
        r.slot = 2 * (g & 1) + s;
    }
    return r;
}

/* SWMMAC B: dense element k of column i. */
static wm_loc sparse_b_loc(unsigned nl, unsigned K, unsigned bits, unsigned i, unsigned k)
{
    wm_loc r;
    if (nl == 32) {
        if (bits == 4 && K == 64) {
            r.lane = i + 16 * ((k / 16) & 1);
            r.slot = 16 * (k / 32) + k % 16;
        } else if (bits <= 8) {
            r.lane = i + 16 * (k / 16);
            r.slot = k % 16;
        } else {
            r.lane = i + 16 * ((k / 8) & 1);
            r.slot = 8 * (k / 16) + 2 * ((k / 2) & 3) + (k & 1);
        }
    } else if (bits == 4) {
        unsigned per = K == 32 ? 8 : 16;
        r.lane = i + 16 * swap2(k / per);
        r.slot = k % per;
    } else if (bits == 8) {
        r.lane = i + 32 * ((k >> 3) & 1) + 16 * (k >> 4);
        r.slot = 4 * ((k >> 2) & 1) + (k & 3);
    } else {
        r.lane = i + 16 * (k / 8);
        r.slot = k % 8;
    }
    return r;
}

/* SWMMAC index: the lane and entry (2 bits each) of compressed element ck of row i. */
static wm_loc sparse_index_loc(unsigned nl, unsigned K, unsigned bits, unsigned i, unsigned ck)
{
    if (bits == 4) /* the 2-bit entries sit where A's 4-bit elements do */
        return sparse_a_loc(nl, K, bits, i, ck);
    wm_loc r;
    unsigned g = ck / 2, s = ck & 1;
    if (nl == 32) {
        if (bits == 8) {
            r.lane = i + 16 * (ck / 8);
            r.slot = ck % 8;
        } else {
            r.lane = i + 16 * ((g / 2) & 1);
            r.slot = 2 * (g & 1) + 4 * (g / 4) + s;
        }
    } else {
        unsigned b = bits == 8 ? 2 * ((g >> 1) & 1) + (g >> 2) : g >> 1;
        r.lane = i + 16 * b;
        r.slot = 2 * (g & 1) + s;
    }
    return r;
}

static uint32_t wm_raw(const emu_wave *w, unsigned reg, wm_loc l, unsigned bits)
{
    unsigned bit = l.slot * bits;
    uint32_t word = w->v[(reg + bit / 32) & 255][l.lane];
    return (word >> (bit % 32)) & (bits == 32 ? 0xffffffffu : (1u << bits) - 1);
}

/* The value of a raw element; sgn: the integer formats are signed (neg bit) */
static double wm_val(uint32_t x, unsigned fmt, int sgn)
{
    switch (fmt) {
    case F_F16:
        return f16_to_f32((uint16_t)x);
    case F_BF16:
        return bf16_to_f32((uint16_t)x);
    case F_I8:
        return sgn ? (double)(int8_t)x : (double)x;
    case F_I4:
        return sgn ? (double)(int)((x ^ 8) - 8) : (double)x;
    case F_FP8:
        return f32_of(emu_f32_of_f8((uint8_t)x, 0));
    default:
        return f32_of(emu_f32_of_f8((uint8_t)x, 1));
    }
}

/* D / C element (m, n): lane, and element index within the lane's 32-bit elements. */
static wm_loc out_loc(unsigned nl, unsigned m, unsigned n)
{
    wm_loc r;
    if (nl == 32) {
        r.lane = n + 16 * (m >> 3);
        r.slot = m & 7;
    } else {
        r.lane = n + 16 * ((m >> 3) & 1) + 32 * ((m >> 2) & 1);
        r.slot = m & 3;
    }
    return r;
}

/* The C value of (m, n): cr is C's VGPR (or ~0u with the constant c). */
static double c_val(const emu_wave *w, const wm_kind *k, unsigned cr, uint32_t c, unsigned m,
                    unsigned n)
{
    wm_loc o = out_loc(w->nl, m, n);
    unsigned bits = k->out == O_F32 || k->out == O_I32 ? 32 : 16;
    uint32_t x = cr == ~0u ? (bits == 32 ? c : (uint16_t)(c >> (16 * (o.slot & 1))))
                           : wm_raw(w, cr, o, bits);
    switch (k->out) {
    case O_F32:
        return f32_of(x);
    case O_F16:
        return f16_to_f32((uint16_t)x);
    case O_BF16:
        return bf16_to_f32((uint16_t)x);
    default:
        return (int32_t)x;
    }
}

/* Round the exact sums D[m][n] and write them to vdst (every lane, as gfx11's). */
static void wm_write(emu_wave *w, const emu_inst *in, const wm_kind *k, double D[16][16])
{
    unsigned nl = w->nl, bits = k->out == O_F32 || k->out == O_I32 ? 32 : 16;
    unsigned nregs = 16 * 16 * bits / 32 / nl;
    uint32_t out[8][EMU_MAX_LANES];
    memset(out, 0, sizeof out);
    for (unsigned m = 0; m < 16; m++)
        for (unsigned n = 0; n < 16; n++) {
            wm_loc o = out_loc(nl, m, n);
            double s = D[m][n];
            uint32_t r;
            if (k->out == O_I32) {
                if (in->clamp)
                    s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                r = (uint32_t)(int64_t)s;
            } else if (k->out == O_F32) {
                r = u32_of((float)s);
            } else {
                r = k->out == O_F16 ? f32_to_f16((float)s) : f32_to_bf16((float)s);
            }
            unsigned bit = o.slot * bits;
            out[bit / 32][o.lane] |= r << (bit % 32);
        }
    for (unsigned v = 0; v < nregs; v++)
        for (unsigned l = 0; l < nl; l++)
            w->v[(in->dst.reg + v) & 255][l] = out[v][l];
}

/* v_wmma_* on gfx12 (param: dense_kinds) */
void emu_v_wmma12(emu_wave *w, const emu_inst *in)
{
    const wm_kind *k = &dense_kinds[in->param];
    unsigned nl = w->nl, ar = in->src[0].reg, br = in->src[1].reg;
    int sa = in->neg & 1, sb = (in->neg >> 1) & 1;
    double A[16][32], B[32][16], D[16][16];
    for (unsigned i = 0; i < 16; i++)
        for (unsigned kk = 0; kk < k->K; kk++) {
            wm_loc l = dense_loc(nl, k->K, k->bits, i, kk);
            A[i][kk] = wm_val(wm_raw(w, ar, l, k->bits), k->fa, sa);
            B[kk][i] = wm_val(wm_raw(w, br, l, k->bits), k->fb, sb);
        }
    unsigned cr = in->src[2].kind == EMU_K_VGPR ? in->src[2].reg : ~0u;
    for (unsigned m = 0; m < 16; m++)
        for (unsigned n = 0; n < 16; n++) {
            double s = c_val(w, k, cr, (uint32_t)in->src[2].val, m, n);
            for (unsigned kk = 0; kk < k->K; kk++)
                s += A[m][kk] * B[kk][n];
            D[m][n] = s;
        }
    wm_write(w, in, k, D);
}

/*
 * v_swmmac_* (param: sparse_kinds): A is the 16 x K/2 compressed matrix, two values of each
 * group of four along K; index entry ck (2 bits, of the 16-bit half op_sel[0] (index_key)
 * selects of the index VGPR, src2) names the position within its group of A's element ck:
 * B row (ck / 2) * 4 + entry.  C is D itself.
 */
void emu_v_swmmac(emu_wave *w, const emu_inst *in)
{
    const wm_kind *k = &sparse_kinds[in->param];
    unsigned nl = w->nl, ar = in->src[0].reg, br = in->src[1].reg, ir = in->src[2].reg;
    unsigned Kc = k->K / 2, key = in->opsel & 1;
    int sa = in->neg & 1, sb = (in->neg >> 1) & 1;
    double A[16][32], B[64][16], D[16][16];
    unsigned dk[16][32];
    for (unsigned i = 0; i < 16; i++)
        for (unsigned ck = 0; ck < Kc; ck++) {
            A[i][ck] =
                wm_val(wm_raw(w, ar, sparse_a_loc(nl, k->K, k->bits, i, ck), k->bits), k->fa, sa);
            wm_loc x = sparse_index_loc(nl, k->K, k->bits, i, ck);
            uint32_t set = w->v[ir & 255][x.lane];
            if (key)
                set >>= 16;
            dk[i][ck] = (ck / 2) * 4 + (x.slot < (key ? 8u : 16u) ? (set >> (2 * x.slot)) & 3 : 0);
        }
    for (unsigned kk = 0; kk < k->K; kk++)
        for (unsigned n = 0; n < 16; n++)
            B[kk][n] =
                wm_val(wm_raw(w, br, sparse_b_loc(nl, k->K, k->bits, n, kk), k->bits), k->fb, sb);
    for (unsigned m = 0; m < 16; m++)
        for (unsigned n = 0; n < 16; n++) {
            double s = c_val(w, k, in->dst.reg, 0, m, n);
            for (unsigned ck = 0; ck < Kc; ck++)
                s += A[m][ck] * B[dk[m][ck]][n];
            D[m][n] = s;
        }
    wm_write(w, in, k, D);
}
