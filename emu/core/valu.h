/*
 * emu/core/valu.h — operand access for the VALU semantics files: sources
 * with float input modifiers and denormal flushing, results with clamp,
 * output modifier and flushing, written under the lane write mask.  Every
 * handler works on whole waves with plain per-lane loops.
 */
#ifndef RDX_EMU_CORE_VALU_H
#define RDX_EMU_CORE_VALU_H

#include <fenv.h>
#include <math.h>

#include "emu/core/emu_int.h"
#include "emu/core/fp.h"
#include "emu/core/ops.h"

#define NL    (w->nl)
#define LANES for (unsigned l = 0; l < NL; l++)

/*
 * Fast paths, for instructions with EMU_F_PLAIN (emu_mark_plain): sources are VGPRs, SGPRs
 * or constants and there are no modifiers, so a handler can work on vectors of 4 lanes
 * (GCC/Clang vector extensions: SSE2 on baseline x86-64, plain C elsewhere) with no
 * per-lane branch, writing the VGPR under the write mask with a blend.  A float handler
 * also needs MODE's f32 denormals kept (emu_f32_plain); its fast path leaves the
 * instruction to the general path when a lane's result is a NaN (whose payload the
 * general path defines) or a lane needs a rule the vector form lacks, so both give
 * identical bits.
 */
typedef uint32_t emu_v4u __attribute__((vector_size(16)));
typedef int32_t emu_v4i __attribute__((vector_size(16)));
typedef float emu_v4f __attribute__((vector_size(16)));

/* 4 lanes at a time: 32-lane halves (1 for wave32, 2 for wave64), each a constant-count
   loop the compiler unrolls (a run-time lane count kept the loop and its branches) */
#define VLANES                               \
    for (unsigned h_ = 0; h_ < NL; h_ += 32) \
    _Pragma("GCC unroll 8") for (unsigned l = h_; l < h_ + 32; l += 4)

static inline emu_v4u vld(const uint32_t *p)
{
    emu_v4u v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void vst(uint32_t *p, emu_v4u v)
{
    memcpy(p, &v, sizeof v);
}
static inline bool vany(emu_v4i m)
{
    return (m[0] | m[1] | m[2] | m[3]) != 0;
}
/* lanes of v4 (4 x f32 bits) that hold a NaN */
static inline emu_v4i vnan(emu_v4u a)
{
    return (emu_v4i)((a & 0x7fffffffu) > 0x7f800000u);
}

static inline bool emu_f32_plain(const emu_wave *w, const emu_inst *in)
{
    return (in->flags & EMU_F_PLAIN) && emu_denorm32(w) == 3;
}

/* 32-bit source of a plain instruction: the VGPR's lanes, or tmp holding the scalar. */
static inline const uint32_t *fsrc32(emu_wave *w, const emu_opnd *o, uint32_t *tmp)
{
    if (o->kind == EMU_K_VGPR)
        return w->v[o->reg];
    uint32_t x = o->kind == EMU_K_CONST ? (uint32_t)o->val : w->s[o->reg];
    emu_v4u v = { x, x, x, x };
    VLANES
    vst(tmp + l, v);
    return tmp;
}

/* Write 32-bit lane results of a plain instruction under the write mask. */
static inline void fdst32(emu_wave *w, const emu_inst *in, const uint32_t *r)
{
    if (in->dst.kind != EMU_K_VGPR)
        return;
    uint32_t *d = w->v[in->dst.reg];
    const uint32_t *m = w->wm;
    if (w->wm_lanes == NL) { /* every lane written */
        VLANES
        vst(d + l, vld(r + l));
        return;
    }
    VLANES
    {
        emu_v4u mv = vld(m + l);
        vst(d + l, (vld(r + l) & mv) | (vld(d + l) & ~mv));
    }
}

/* x << n, x >> n of each lane; uni: every n is un (an SGPR or constant shift amount). */
static inline emu_v4u vshl(emu_v4u x, emu_v4u n, bool uni, uint32_t un)
{
    return uni ? x << un : x << n;
}
static inline emu_v4u vshr(emu_v4u x, emu_v4u n, bool uni, uint32_t un)
{
    return uni ? x >> un : x >> n;
}
static inline emu_v4u vsar(emu_v4u x, emu_v4u n, bool uni, uint32_t un)
{
    return (emu_v4u)(uni ? (emu_v4i)x >> (int)un : (emu_v4i)x >> (emu_v4i)n);
}

/* Fast path of a 2-source f32 op: VEXPR of x, y (emu_v4f) and a, b (their bits) gives the
   result as emu_v4f; bad (emu_v4i) may be or-ed with lanes to leave to the general path. */
#define FAST_F2(VEXPR)                                                                       \
    if (emu_f32_plain(w, in) && in->dst.kind == EMU_K_VGPR) {                                \
        uint32_t ta_[EMU_MAX_LANES], tb_[EMU_MAX_LANES], ur_[EMU_MAX_LANES];                 \
        const uint32_t *A_ = fsrc32(w, &in->src[0], ta_), *B_ = fsrc32(w, &in->src[1], tb_); \
        uint32_t *d_ = w->v[in->dst.reg];                                                    \
        /* every lane written and no source overwritten: straight into the VGPR (a NaN       \
           then reruns the instruction on the general path, which writes every lane) */      \
        uint32_t *o_ = w->wm_lanes == NL && A_ != d_ && B_ != d_ ? d_ : ur_;                 \
        emu_v4i bad = { 0, 0, 0, 0 };                                                        \
        VLANES                                                                               \
        {                                                                                    \
            emu_v4u a = vld(A_ + l), b = vld(B_ + l);                                        \
            emu_v4f x = (emu_v4f)a, y = (emu_v4f)b;                                          \
            (void)x;                                                                         \
            (void)y;                                                                         \
            emu_v4f r_ = (emu_v4f)(VEXPR);                                                   \
            bad |= r_ != r_;                                                                 \
            vst(o_ + l, (emu_v4u)r_);                                                        \
        }                                                                                    \
        if (!vany(bad)) {                                                                    \
            if (o_ == ur_)                                                                   \
                fdst32(w, in, ur_);                                                          \
            return;                                                                          \
        }                                                                                    \
    }

/* Raw 32-bit source i. */
static inline const uint32_t *vsrc(emu_wave *w, const emu_inst *in, int i, uint32_t *tmp)
{
    return emu_v32(w, &in->src[i], tmp);
}

/* f32 source i with abs/neg applied and input denormals flushed per MODE. */
static inline void vsrcf(emu_wave *w, const emu_inst *in, int i, float *out)
{
    uint32_t tmp[EMU_MAX_LANES];
    const uint32_t *p = emu_v32(w, &in->src[i], tmp);
    uint32_t clr = (in->abs >> i & 1) ? 0x7fffffffu : 0xffffffffu;
    uint32_t flip = (in->neg >> i & 1) ? 0x80000000u : 0;
    if (!(emu_denorm32(w) & 1)) {
        LANES
        {
            uint32_t u = f32_flush(p[l]);
            out[l] = f32_of((u & clr) ^ flip);
        }
    } else {
        LANES
        out[l] = f32_of((p[l] & clr) ^ flip);
    }
}

/* f64 source i with modifiers. */
static inline void vsrcd(emu_wave *w, const emu_inst *in, int i, double *out)
{
    uint64_t tmp[EMU_MAX_LANES];
    emu_v64(w, &in->src[i], tmp);
    uint64_t clr = (in->abs >> i & 1) ? 0x7fffffffffffffffull : ~0ull;
    uint64_t flip = (in->neg >> i & 1) ? 0x8000000000000000ull : 0;
    int fl = !(emu_denorm64(w) & 1);
    LANES
    {
        uint64_t u = fl ? f64_flush(tmp[l]) : tmp[l];
        out[l] = f64_of((u & clr) ^ flip);
    }
}

/* f16 source i (low half, or high half for .h / op_sel) as float, with modifiers. */
static inline void vsrch(emu_wave *w, const emu_inst *in, int i, float *out)
{
    uint32_t tmp[EMU_MAX_LANES];
    const uint32_t *p = emu_v32(w, &in->src[i], tmp);
    uint16_t clr = (in->abs >> i & 1) ? 0x7fff : 0xffff;
    uint16_t flip = (in->neg >> i & 1) ? 0x8000 : 0;
    int fl = !(emu_denorm64(w) & 1);
    LANES
    {
        uint16_t h = (uint16_t)p[l];
        if (fl)
            h = f16_flush(h);
        out[l] = f16_to_f32((uint16_t)((h & clr) ^ flip));
    }
}

/*
 * omod is ignored while MODE.IEEE is set (LLVM's SIFoldOperands folds omod only with IEEE
 * off: "omod is ignored by hardware if IEEE bit is enabled"; silicon: tinygrad test/amd/hw
 * test_vop3.py test_omod_ignored, 3 + 1 with mul:2 gives 4.0).
 */
static inline unsigned emu_omod(const emu_wave *w, const emu_inst *in)
{
    return emu_ieee(w) ? 0 : in->omod;
}

static inline float omod_clamp(const emu_wave *w, const emu_inst *in, float r)
{
    switch (emu_omod(w, in)) {
    case 1:
        r *= 2.0f;
        break;
    case 2:
        r *= 4.0f;
        break;
    case 3:
        r *= 0.5f;
        break;
    default:
        break;
    }
    if (in->clamp) {
        if (r != r)
            r = emu_dx10(w) ? 0.0f : r;
        else
            r = r < 0.0f ? 0.0f : r > 1.0f ? 1.0f : r;
    }
    return r;
}

/* Write f32 results: omod, clamp, output flush, canonical NaN, write mask. */
static inline void vdstf(emu_wave *w, const emu_inst *in, const float *r)
{
    uint32_t out[EMU_MAX_LANES];
    int fl = !(emu_denorm32(w) & 2);
    if (in->omod || in->clamp) {
        LANES
        out[l] = u32_of(omod_clamp(w, in, r[l]));
    } else {
        LANES
        out[l] = u32_of(r[l]);
    }
    if (fl) {
        LANES
        out[l] = f32_flush(out[l]);
    }
    emu_vwrite32(w, &in->dst, out);
}

/* omod and clamp of an f16/f64 result computed in double. */
static inline double omod_clamp_d(const emu_wave *w, const emu_inst *in, double x)
{
    unsigned om = emu_omod(w, in);
    if (om == 1)
        x *= 2.0;
    else if (om == 2)
        x *= 4.0;
    else if (om == 3)
        x *= 0.5;
    if (in->clamp)
        x = x != x ? (emu_dx10(w) ? 0.0 : x) : x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
    return x;
}

/* MODE's f16/f64 rounding mode (FP_ROUND[3:2]). */
static inline unsigned emu_round64(const emu_wave *w)
{
    return (w->mode >> 2) & 3;
}

/*
 * Write f16 results to the dst half: each double (exact, or rounded to odd at 53 bits)
 * is rounded once to f16 in MODE's f16/f64 rounding mode; output denormals flushed per
 * FP_DENORM[7:6].
 */
static inline void vdsthd(emu_wave *w, const emu_inst *in, const double *r)
{
    uint32_t out[EMU_MAX_LANES];
    unsigned rm = emu_round64(w);
    int fl = !(emu_denorm64(w) & 2);
    LANES
    {
        uint16_t h = f64_to_f16_rm(omod_clamp_d(w, in, r[l]), rm);
        out[l] = fl ? f16_flush(h) : h;
    }
    emu_vwrite16(w, &in->dst, out, 0);
}

/* The same for results held exactly in f32 (conversions from f32 / integers). */
static inline void vdsth(emu_wave *w, const emu_inst *in, const float *r)
{
    double d[EMU_MAX_LANES];
    LANES
    d[l] = r[l];
    vdsthd(w, in, d);
}

/*
 * f64 ops round in MODE's f16/f64 mode, while the host FPU holds the f32 mode
 * (emu_apply_round): f64_round_enter switches the host FPU when the two differ and
 * f64_round_leave switches back.  The empty asm statements take the operand and
 * result arrays so the compiler cannot move the arithmetic across the mode switches.
 */
int emu_fe_mode(unsigned rm);
static inline int f64_round_enter(const emu_wave *w, const void *a, const void *b, const void *c)
{
    __asm__ volatile("" : : "r"(a), "r"(b), "r"(c) : "memory");
    if (emu_round64(w) == emu_round32(w))
        return 0;
    fesetround(emu_fe_mode(emu_round64(w)));
    __asm__ volatile("" : : "r"(a), "r"(b), "r"(c) : "memory");
    return 1;
}
static inline void f64_round_leave(const emu_wave *w, int entered, const void *r)
{
    __asm__ volatile("" : : "r"(r) : "memory");
    if (entered)
        fesetround(emu_fe_mode(emu_round32(w)));
}

static inline void vdstd(emu_wave *w, const emu_inst *in, const double *r)
{
    uint64_t out[EMU_MAX_LANES];
    int fl = !(emu_denorm64(w) & 2);
    LANES
    {
        out[l] = u64_of(omod_clamp_d(w, in, r[l]));
        if (fl)
            out[l] = f64_flush(out[l]);
    }
    emu_vwrite64(w, &in->dst, out);
}

/* Integer results. */
static inline void vdst(emu_wave *w, const emu_inst *in, const uint32_t *r)
{
    emu_vwrite32(w, &in->dst, r);
}

static inline void vdst16(emu_wave *w, const emu_inst *in, const uint32_t *r)
{
    emu_vwrite16(w, &in->dst, r, 0);
}

/* Lane mask results of compares / carries: bit per lane, inactive lanes 0. */
static inline void sdst_mask(emu_wave *w, const emu_inst *in, uint64_t m)
{
    emu_swrite_mask(w, &in->sdst, m & emu_wm_bits(w));
}

/* 16-bit integer source as uint32 (low 16 bits meaningful). */
static inline void vsrc16(emu_wave *w, const emu_inst *in, int i, uint32_t *out)
{
    uint32_t tmp[EMU_MAX_LANES];
    const uint32_t *p = emu_v32(w, &in->src[i], tmp);
    LANES
    out[l] = p[l] & 0xffff;
}

#endif /* RDX_EMU_CORE_VALU_H */
