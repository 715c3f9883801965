/*
 * emu/core/valu_int.c — integer VALU ops: 32-bit, 64-bit and 16-bit
 * arithmetic, shifts (amounts masked to the width, as the hardware does),
 * bit fields, carries (VOP2 VCC / VOP3SD SGPR pairs), 24-bit multiplies,
 * mbcnt, v_cndmask, v_perm and friends.
 */
#include "emu/core/valu.h"

#define U2(NAME, EXPR)                                                   \
    void NAME(emu_wave *w, const emu_inst *in)                           \
    {                                                                    \
        uint32_t ta[EMU_MAX_LANES], tb[EMU_MAX_LANES], r[EMU_MAX_LANES]; \
        const uint32_t *A = vsrc(w, in, 0, ta), *B = vsrc(w, in, 1, tb); \
        LANES                                                            \
        {                                                                \
            uint32_t a = A[l], b = B[l];                                 \
            r[l] = (EXPR);                                               \
        }                                                                \
        vdst(w, in, r);                                                  \
    }
#define U1(NAME, EXPR)                                \
    void NAME(emu_wave *w, const emu_inst *in)        \
    {                                                 \
        uint32_t ta[EMU_MAX_LANES], r[EMU_MAX_LANES]; \
        const uint32_t *A = vsrc(w, in, 0, ta);       \
        LANES                                         \
        {                                             \
            uint32_t a = A[l];                        \
            r[l] = (EXPR);                            \
        }                                             \
        vdst(w, in, r);                               \
    }
#define U3(NAME, EXPR)                                                                            \
    void NAME(emu_wave *w, const emu_inst *in)                                                    \
    {                                                                                             \
        uint32_t ta[EMU_MAX_LANES], tb[EMU_MAX_LANES], tc[EMU_MAX_LANES], r[EMU_MAX_LANES];       \
        const uint32_t *A = vsrc(w, in, 0, ta), *B = vsrc(w, in, 1, tb), *C = vsrc(w, in, 2, tc); \
        LANES                                                                                     \
        {                                                                                         \
            uint32_t a = A[l], b = B[l], c = C[l];                                                \
            r[l] = (EXPR);                                                                        \
        }                                                                                         \
        vdst(w, in, r);                                                                           \
    }
/* 16-bit results into the destination half */
#define H2(NAME, EXPR)                                                 \
    void NAME(emu_wave *w, const emu_inst *in)                         \
    {                                                                  \
        uint32_t A[EMU_MAX_LANES], B[EMU_MAX_LANES], r[EMU_MAX_LANES]; \
        vsrc16(w, in, 0, A);                                           \
        vsrc16(w, in, 1, B);                                           \
        LANES                                                          \
        {                                                              \
            uint32_t a = A[l], b = B[l];                               \
            r[l] = (EXPR);                                             \
        }                                                              \
        vdst16(w, in, r);                                              \
    }
#define H3(NAME, EXPR)                                                                   \
    void NAME(emu_wave *w, const emu_inst *in)                                           \
    {                                                                                    \
        uint32_t A[EMU_MAX_LANES], B[EMU_MAX_LANES], C[EMU_MAX_LANES], r[EMU_MAX_LANES]; \
        vsrc16(w, in, 0, A);                                                             \
        vsrc16(w, in, 1, B);                                                             \
        vsrc16(w, in, 2, C);                                                             \
        LANES                                                                            \
        {                                                                                \
            uint32_t a = A[l], b = B[l], c = C[l];                                       \
            r[l] = (EXPR);                                                               \
        }                                                                                \
        vdst16(w, in, r);                                                                \
    }

/* U1/U2/U3 with a fast path (valu.h): VEXPR of a, b, c (emu_v4u) for plain instructions */
#define FAST_U(N, VEXPR)                                                                     \
    if ((in->flags & EMU_F_PLAIN) && in->dst.kind == EMU_K_VGPR) {                           \
        uint32_t ta_[EMU_MAX_LANES], tb_[EMU_MAX_LANES], tc_[EMU_MAX_LANES];                 \
        const uint32_t *A_ = fsrc32(w, &in->src[0], ta_);                                    \
        const uint32_t *B_ = N > 1 ? fsrc32(w, &in->src[1], tb_) : A_;                       \
        const uint32_t *C_ = N > 2 ? fsrc32(w, &in->src[2], tc_) : A_;                       \
        /* uniform sources (shift amounts) */                                                \
        const bool U0 = in->src[0].kind != EMU_K_VGPR, U1 = in->src[1].kind != EMU_K_VGPR;   \
        const uint32_t S0 = A_[0] & 31, S1 = B_[0] & 31;                                     \
        (void)U0;                                                                            \
        (void)U1;                                                                            \
        (void)S0;                                                                            \
        (void)S1;                                                                            \
        uint32_t *d_ = w->v[in->dst.reg];                                                    \
        if (w->wm_lanes == NL) {                                                             \
            VLANES                                                                           \
            {                                                                                \
                emu_v4u a = vld(A_ + l), b = vld(B_ + l), c = vld(C_ + l);                   \
                (void)b;                                                                     \
                (void)c;                                                                     \
                vst(d_ + l, (emu_v4u)(VEXPR));                                               \
            }                                                                                \
        } else {                                                                             \
            const uint32_t *m_ = w->wm;                                                      \
            VLANES                                                                           \
            {                                                                                \
                emu_v4u a = vld(A_ + l), b = vld(B_ + l), c = vld(C_ + l), mv = vld(m_ + l); \
                (void)b;                                                                     \
                (void)c;                                                                     \
                vst(d_ + l, ((emu_v4u)(VEXPR) & mv) | (vld(d_ + l) & ~mv));                  \
            }                                                                                \
        }                                                                                    \
        return;                                                                              \
    }
#define U1V(NAME, EXPR, VEXPR)                        \
    void NAME(emu_wave *w, const emu_inst *in)        \
    {                                                 \
        FAST_U(1, VEXPR)                              \
        uint32_t ta[EMU_MAX_LANES], r[EMU_MAX_LANES]; \
        const uint32_t *A = vsrc(w, in, 0, ta);       \
        LANES                                         \
        {                                             \
            uint32_t a = A[l];                        \
            r[l] = (EXPR);                            \
        }                                             \
        vdst(w, in, r);                               \
    }
#define U2V(NAME, EXPR, VEXPR)                                           \
    void NAME(emu_wave *w, const emu_inst *in)                           \
    {                                                                    \
        FAST_U(2, VEXPR)                                                 \
        uint32_t ta[EMU_MAX_LANES], tb[EMU_MAX_LANES], r[EMU_MAX_LANES]; \
        const uint32_t *A = vsrc(w, in, 0, ta), *B = vsrc(w, in, 1, tb); \
        LANES                                                            \
        {                                                                \
            uint32_t a = A[l], b = B[l];                                 \
            r[l] = (EXPR);                                               \
        }                                                                \
        vdst(w, in, r);                                                  \
    }
#define U3V(NAME, EXPR, VEXPR)                                                                    \
    void NAME(emu_wave *w, const emu_inst *in)                                                    \
    {                                                                                             \
        FAST_U(3, VEXPR)                                                                          \
        uint32_t ta[EMU_MAX_LANES], tb[EMU_MAX_LANES], tc[EMU_MAX_LANES], r[EMU_MAX_LANES];       \
        const uint32_t *A = vsrc(w, in, 0, ta), *B = vsrc(w, in, 1, tb), *C = vsrc(w, in, 2, tc); \
        LANES                                                                                     \
        {                                                                                         \
            uint32_t a = A[l], b = B[l], c = C[l];                                                \
            r[l] = (EXPR);                                                                        \
        }                                                                                         \
        vdst(w, in, r);                                                                           \
    }
/* vector forms: signed view, and select of a where m (all-ones lanes) */
#define VS(x)         ((emu_v4i)(x))
#define VSEL(m, x, y) (((emu_v4u)(m) & (x)) | (~(emu_v4u)(m) & (y)))

#define S(x)   ((int32_t)(x))
#define S16(x) ((int32_t)(int16_t)(x))
#define I24(x) ((int32_t)((x) << 8) >> 8)
#define U24(x) ((x) & 0xffffffu)

static inline uint32_t smin(uint32_t a, uint32_t b)
{
    return S(a) < S(b) ? a : b;
}
static inline uint32_t smax(uint32_t a, uint32_t b)
{
    return S(a) > S(b) ? a : b;
}
static inline uint32_t umin(uint32_t a, uint32_t b)
{
    return a < b ? a : b;
}
static inline uint32_t umax(uint32_t a, uint32_t b)
{
    return a > b ? a : b;
}
static inline uint32_t umed3(uint32_t a, uint32_t b, uint32_t c)
{
    return umax(umin(a, b), umin(umax(a, b), c));
}
static inline uint32_t smed3(uint32_t a, uint32_t b, uint32_t c)
{
    return smax(smin(a, b), smin(smax(a, b), c));
}
static inline uint32_t bfe_u(uint32_t a, uint32_t o, uint32_t wd)
{
    o &= 31;
    wd &= 31;
    return wd == 0 ? 0 : (a >> o) & ((1u << wd) - 1);
}
static inline uint32_t bfe_i(uint32_t a, uint32_t o, uint32_t wd)
{
    o &= 31;
    wd &= 31;
    if (wd == 0)
        return 0;
    uint32_t x = (uint32_t)((int32_t)a >> o); /* arithmetic shift, per the pcode */
    return (uint32_t)((int32_t)(x << (32 - wd)) >> (32 - wd));
}
static inline uint32_t ad16(uint32_t a, uint32_t b)
{
    uint32_t x0 = a & 0xffff, y0 = b & 0xffff, x1 = a >> 16, y1 = b >> 16;
    return (x0 > y0 ? x0 - y0 : y0 - x0) + (x1 > y1 ? x1 - y1 : y1 - x1);
}
static inline uint32_t sad8(uint32_t a, uint32_t b)
{
    uint32_t s = 0;
    for (int i = 0; i < 32; i += 8) {
        uint32_t x = (a >> i) & 255, y = (b >> i) & 255;
        s += x > y ? x - y : y - x;
    }
    return s;
}
static inline uint32_t perm_byte(uint64_t d, uint32_t sel)
{
    sel &= 255;
    if (sel >= 13)
        return 0xff;
    if (sel == 12)
        return 0;
    if (sel >= 8) {
        unsigned b = (sel - 8) * 2 + 1; /* 8->1, 9->3, 10->5, 11->7 */
        return ((d >> (b * 8 + 7)) & 1) ? 0xff : 0;
    }
    return (uint32_t)(d >> (sel * 8)) & 255;
}
static inline uint32_t perm(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t d = (uint64_t)a << 32 | b;
    return perm_byte(d, c) | perm_byte(d, c >> 8) << 8 | perm_byte(d, c >> 16) << 16 |
           perm_byte(d, c >> 24) << 24;
}
static inline uint32_t brev(uint32_t a)
{
    a = ((a >> 1) & 0x55555555u) | ((a & 0x55555555u) << 1);
    a = ((a >> 2) & 0x33333333u) | ((a & 0x33333333u) << 2);
    a = ((a >> 4) & 0x0f0f0f0fu) | ((a & 0x0f0f0f0fu) << 4);
    a = ((a >> 8) & 0x00ff00ffu) | ((a & 0x00ff00ffu) << 8);
    return (a >> 16) | (a << 16);
}
static inline uint32_t cls(uint32_t a)
{
    if (a == 0 || a == 0xffffffffu)
        return 0xffffffffu;
    return (uint32_t)__builtin_clz((a >> 31) ? ~a : a);
}
static inline uint32_t satu(uint64_t x, int clamp)
{
    return clamp && x > 0xffffffffull ? 0xffffffffu : (uint32_t)x;
}
static inline uint32_t sati(int64_t x, int clamp)
{
    if (clamp && x > INT32_MAX)
        return (uint32_t)INT32_MAX;
    if (clamp && x < INT32_MIN)
        return (uint32_t)INT32_MIN;
    return (uint32_t)x;
}

U1V(emu_v_mov_b32, a, a)
U1V(emu_v_not_b32, ~a, ~a)
U1(emu_v_bfrev_b32, brev(a))
U1(emu_v_clz_i32_u32, a ? (uint32_t)__builtin_clz(a) : 0xffffffffu)
U1(emu_v_ctz_i32_b32, a ? (uint32_t)__builtin_ctz(a) : 0xffffffffu)
U1(emu_v_cls_i32, cls(a))
U1(emu_v_cvt_i32_i16, (uint32_t)S16(a))
U1(emu_v_cvt_u32_u16, a & 0xffff)

U2V(emu_v_and_b32, a &b, a &b)
U2V(emu_v_or_b32, a | b, a | b)
U2V(emu_v_xor_b32, a ^ b, a ^ b)
U2(emu_v_xnor_b32, ~(a ^ b))
U2V(emu_v_lshlrev_b32, b << (a & 31), vshl(b, a & 31, U0, S0))
U2V(emu_v_lshrrev_b32, b >> (a & 31), vshr(b, a & 31, U0, S0))
U2V(emu_v_ashrrev_i32, (uint32_t)(S(b) >> (a & 31)), vsar(b, a & 31, U0, S0))
U2V(emu_v_add_nc_u32, satu((uint64_t)a + b, in->clamp), a + b)
U2V(emu_v_sub_nc_u32, in->clamp &&b > a ? 0 : a - b, a - b)
U2V(emu_v_subrev_nc_u32, in->clamp &&a > b ? 0 : b - a, b - a)
U2(emu_v_add_nc_i32, sati((int64_t)S(a) + S(b), in->clamp))
U2(emu_v_sub_nc_i32, sati((int64_t)S(a) - S(b), in->clamp))
U2V(emu_v_min_i32, smin(a, b), VSEL(VS(a) < VS(b), a, b))
U2V(emu_v_max_i32, smax(a, b), VSEL(VS(a) > VS(b), a, b))
U2V(emu_v_min_u32, umin(a, b), VSEL(a < b, a, b))
U2V(emu_v_max_u32, umax(a, b), VSEL(a > b, a, b))
U2(emu_v_mul_i32_i24, (uint32_t)((int64_t)I24(a) * I24(b)))
U2(emu_v_mul_hi_i32_i24, (uint32_t)(((int64_t)I24(a) * I24(b)) >> 32))
U2V(emu_v_mul_u32_u24, U24(a) * U24(b), (a & 0xffffffu) * (b & 0xffffffu))
U2(emu_v_mul_hi_u32_u24, (uint32_t)(((uint64_t)U24(a) * U24(b)) >> 32))
U2V(emu_v_mul_lo_u32, a *b, a *b)
U2(emu_v_mul_hi_u32, (uint32_t)(((uint64_t)a * b) >> 32))
U2(emu_v_mul_hi_i32, (uint32_t)((uint64_t)((int64_t)S(a) * S(b)) >> 32))
U2(emu_v_bfm_b32, ((1u << (a & 31)) - 1) << (b & 31))
U2(emu_v_bcnt_u32_b32, (uint32_t)__builtin_popcount(a) + b)
U2(emu_v_cvt_pk_u16_u32, (a & 0xffff) | b << 16)
U2(emu_v_cvt_pk_i16_i32, (a & 0xffff) | b << 16)

U3(emu_v_mad_i32_i24, (uint32_t)((int64_t)I24(a) * I24(b)) + c)
U3(emu_v_mad_u32_u24, U24(a) * U24(b) + c)
U3(emu_v_bfe_u32, bfe_u(a, b, c))
U3(emu_v_bfe_i32, bfe_i(a, b, c))
U3V(emu_v_bfi_b32, (a & b) | (~a & c), (a & b) | (~a & c))
U3(emu_v_alignbit_b32, (uint32_t)((((uint64_t)a << 32) | b) >> (c & 31)))
U3(emu_v_alignbyte_b32, (uint32_t)((((uint64_t)a << 32) | b) >> ((c & 3) * 8)))
U3(emu_v_min3_i32, smin(smin(a, b), c))
U3(emu_v_max3_i32, smax(smax(a, b), c))
U3(emu_v_min3_u32, umin(umin(a, b), c))
U3(emu_v_max3_u32, umax(umax(a, b), c))
U3(emu_v_med3_i32, smed3(a, b, c))
U3(emu_v_med3_u32, umed3(a, b, c))
U3(emu_v_minmax_i32, smax(smin(a, b), c))
U3(emu_v_maxmin_i32, smin(smax(a, b), c))
U3(emu_v_minmax_u32, umax(umin(a, b), c))
U3(emu_v_maxmin_u32, umin(umax(a, b), c))
U3(emu_v_sad_u8, sad8(a, b) + c)
U3(emu_v_sad_hi_u8, (sad8(a, b) << 16) + c)
U3(emu_v_sad_u16, ad16(a, b) + c)
U3(emu_v_sad_u32, (a > b ? a - b : b - a) + c)
U3V(emu_v_xor3_b32, a ^ b ^ c, a ^ b ^ c)
U3V(emu_v_or3_b32, a | b | c, a | b | c)
U3V(emu_v_and_or_b32, (a & b) | c, (a & b) | c)
U3V(emu_v_lshl_or_b32, (a << (b & 31)) | c, vshl(a, b & 31, U1, S1) | c)
U3V(emu_v_lshl_add_u32, (a << (b & 31)) + c, vshl(a, b & 31, U1, S1) + c)
U3V(emu_v_add_lshl_u32, (a + b) << (c & 31), (a + b) << (c & 31))
U3V(emu_v_add3_u32, a + b + c, a + b + c)
U3V(emu_v_xad_u32, (a ^ b) + c, (a ^ b) + c)
U3(emu_v_perm_b32, perm(a, b, c))
U3(emu_v_mad_u32_u16, (a & 0xffff) * (b & 0xffff) + c)
U3(emu_v_mad_i32_i16, (uint32_t)(S16(a) * S16(b)) + c)
U3(emu_v_lerp_u8, ((((a & 255) + (b & 255) + (c & 1)) >> 1) & 255) |
                      (((((a >> 8) & 255) + ((b >> 8) & 255) + ((c >> 8) & 1)) >> 1) & 255) << 8 |
                      (((((a >> 16) & 255) + ((b >> 16) & 255) + ((c >> 16) & 1)) >> 1) & 255)
                          << 16 |
                      ((((a >> 24) + (b >> 24) + ((c >> 24) & 1)) >> 1) & 255) << 24)

/* 16-bit integer ops */
H2(emu_v_add_nc_u16, in->clamp &&a + b > 0xffff ? 0xffff : a + b)
H2(emu_v_sub_nc_u16, in->clamp &&b > a ? 0 : a - b)
H2(emu_v_add_nc_i16, (uint32_t)(in->clamp ? (S16(a) + S16(b) > 32767    ? 32767
                                             : S16(a) + S16(b) < -32768 ? -32768
                                                                        : S16(a) + S16(b))
                                          : S16(a) + S16(b)))
H2(emu_v_sub_nc_i16, (uint32_t)(in->clamp ? (S16(a) - S16(b) > 32767    ? 32767
                                             : S16(a) - S16(b) < -32768 ? -32768
                                                                        : S16(a) - S16(b))
                                          : S16(a) - S16(b)))
H2(emu_v_mul_lo_u16, a *b)
H2(emu_v_max_u16, a > b ? a : b)
H2(emu_v_min_u16, a < b ? a : b)
H2(emu_v_max_i16, S16(a) > S16(b) ? a : b)
H2(emu_v_min_i16, S16(a) < S16(b) ? a : b)
H2(emu_v_lshlrev_b16, b << (a & 15))
H2(emu_v_lshrrev_b16, b >> (a & 15))
H2(emu_v_ashrrev_i16, (uint32_t)(S16(b) >> (a & 15)))
H2(emu_v_and_b16, a &b)
H2(emu_v_or_b16, a | b)
H2(emu_v_xor_b16, a ^ b)
/* clamp saturates the 16-bit result (silicon: tinygrad test/amd/hw test_vop3.py
   TestVOP3ClampMAD, 0xffff * 2 + 0 -> 0xffff) */
static inline uint32_t sat_u16(uint32_t x, int clamp)
{
    return clamp && x > 0xffffu ? 0xffffu : x;
}
static inline uint32_t sat_i16(int32_t x, int clamp)
{
    return (uint32_t)(clamp ? (x > 32767 ? 32767 : x < -32768 ? -32768 : x) : x);
}
H3(emu_v_mad_u16, sat_u16(a *b + c, in->clamp))
H3(emu_v_mad_i16, sat_i16(S16(a) * S16(b) + S16(c), in->clamp))
H3(emu_v_min3_i16,
   (uint32_t)(S16(a) < S16(b) ? (S16(a) < S16(c) ? a : c) : (S16(b) < S16(c) ? b : c)))
H3(emu_v_max3_i16,
   (uint32_t)(S16(a) > S16(b) ? (S16(a) > S16(c) ? a : c) : (S16(b) > S16(c) ? b : c)))
H3(emu_v_min3_u16, umin(umin(a, b), c))
H3(emu_v_max3_u16, umax(umax(a, b), c))
H3(emu_v_med3_u16, umed3(a, b, c))
H3(emu_v_med3_i16, (uint32_t)smed3((uint32_t)S16(a), (uint32_t)S16(b), (uint32_t)S16(c)))

void emu_v_mov_b16(emu_wave *w, const emu_inst *in)
{
    uint32_t r[EMU_MAX_LANES];
    vsrc16(w, in, 0, r);
    vdst16(w, in, r);
}
void emu_v_not_b16(emu_wave *w, const emu_inst *in)
{
    uint32_t r[EMU_MAX_LANES];
    vsrc16(w, in, 0, r);
    LANES
    r[l] = ~r[l] & 0xffff;
    vdst16(w, in, r);
}

/* v_cndmask_b32: D = VCC/SSRC2 lane bit ? S1 : S0 */
void emu_v_cndmask_b32(emu_wave *w, const emu_inst *in)
{
    if ((in->flags & EMU_F_PLAIN) && in->dst.kind == EMU_K_VGPR) { /* no abs/neg, no DPP */
        uint32_t ta_[EMU_MAX_LANES], tb_[EMU_MAX_LANES], r_[EMU_MAX_LANES];
        const uint32_t *A_ = fsrc32(w, &in->src[0], ta_), *B_ = fsrc32(w, &in->src[1], tb_);
        uint64_t m_ = in->src[2].kind == EMU_K_NONE
                          ? (w->s[EMU_VCC] | (NL == 64 ? (uint64_t)w->s[EMU_VCC + 1] << 32 : 0))
                          : emu_sread_mask(w, &in->src[2]);
        const emu_v4u sh = { 0, 1, 2, 3 };
        VLANES
        {
            uint32_t mw = (uint32_t)(m_ >> (l & 32)) >> (l & 31);
            emu_v4u sel = -((emu_v4u){ mw, mw, mw, mw } >> sh & 1u);
            vst(r_ + l, (vld(B_ + l) & sel) | (vld(A_ + l) & ~sel));
        }
        fdst32(w, in, r_);
        return;
    }
    uint32_t ta[EMU_MAX_LANES], tb[EMU_MAX_LANES], r[EMU_MAX_LANES];
    uint32_t A[EMU_MAX_LANES], B[EMU_MAX_LANES];
    const uint32_t *pa = vsrc(w, in, 0, ta), *pb = vsrc(w, in, 1, tb);
    uint32_t ca = (in->abs & 1) ? 0x7fffffffu : ~0u, na = (in->neg & 1) ? 0x80000000u : 0;
    uint32_t cb = (in->abs & 2) ? 0x7fffffffu : ~0u, nb = (in->neg & 2) ? 0x80000000u : 0;
    LANES
    {
        A[l] = (pa[l] & ca) ^ na;
        B[l] = (pb[l] & cb) ^ nb;
    }
    /* e32 and VOPD forms read VCC implicitly */
    uint64_t m = in->src[2].kind == EMU_K_NONE
                     ? (w->s[EMU_VCC] | (w->nl == 64 ? (uint64_t)w->s[EMU_VCC + 1] << 32 : 0))
                     : emu_sread_mask(w, &in->src[2]);
    LANES
    r[l] = ((m >> l) & 1) ? B[l] : A[l];
    vdst(w, in, r);
}
void emu_v_cndmask_b16(emu_wave *w, const emu_inst *in)
{
    uint32_t A[EMU_MAX_LANES], B[EMU_MAX_LANES], r[EMU_MAX_LANES];
    vsrc16(w, in, 0, A);
    vsrc16(w, in, 1, B);
    uint64_t m = emu_sread_mask(w, &in->src[2]);
    LANES
    {
        uint32_t a = (A[l] & ((in->abs & 1) ? 0x7fffu : 0xffffu)) ^ ((in->neg & 1) ? 0x8000u : 0);
        uint32_t b = (B[l] & ((in->abs & 2) ? 0x7fffu : 0xffffu)) ^ ((in->neg & 2) ? 0x8000u : 0);
        r[l] = ((m >> l) & 1) ? b : a;
    }
    vdst16(w, in, r);
}

/* Carry ops: param bit0 = subtract, bit1 = reversed operands, bit2 = with carry in. */
void emu_v_addsub_co(emu_wave *w, const emu_inst *in)
{
    uint32_t ta[EMU_MAX_LANES], tb[EMU_MAX_LANES], r[EMU_MAX_LANES], co[EMU_MAX_LANES];
    uint32_t ci[EMU_MAX_LANES];
    const uint32_t *A = vsrc(w, in, 0, ta), *B = vsrc(w, in, 1, tb);
    unsigned p = in->param;
    if (p & 2) {
        const uint32_t *t = A;
        A = B;
        B = t;
    }
    uint64_t cin = (p & 4) ? emu_sread_mask(w, &in->src[2]) : 0;
    if (cin) {
        LANES
        ci[l] = (uint32_t)(cin >> l) & 1;
    } else {
        memset(ci, 0, sizeof ci);
    }
    if (p & 1) {
        LANES
        {
            uint64_t d = (uint64_t)A[l] - B[l] - ci[l];
            r[l] = (uint32_t)d;
            co[l] = (uint32_t)(d >> 63);
        }
        if (in->clamp)
            LANES
        r[l] = co[l] ? 0 : r[l];
    } else {
        LANES
        {
            uint64_t d = (uint64_t)A[l] + B[l] + ci[l];
            r[l] = (uint32_t)d;
            co[l] = (uint32_t)(d >> 32);
        }
        if (in->clamp)
            LANES
        r[l] = co[l] ? 0xffffffffu : r[l];
    }
    /* carry-out mask, 8 lanes per step: the 0/1 bytes gathered by a multiply */
    uint64_t cout = 0;
    for (unsigned g = 0; g < NL; g += 8) {
        uint64_t bytes = 0;
        for (unsigned k = 0; k < 8; k++)
            bytes |= (uint64_t)co[g + k] << (8 * k);
        cout |= ((bytes * 0x0102040810204080ull) >> 56) << g;
    }
    vdst(w, in, r);
    sdst_mask(w, in, cout);
}

/* v_mbcnt_lo/hi_u32_b32: param 0 lo (lanes 0..31), 1 hi (lanes 32..63) */
void emu_v_mbcnt(emu_wave *w, const emu_inst *in)
{
    uint32_t ta[EMU_MAX_LANES], tb[EMU_MAX_LANES], r[EMU_MAX_LANES];
    const uint32_t *A = vsrc(w, in, 0, ta), *B = vsrc(w, in, 1, tb);
    LANES
    {
        uint64_t tm = l >= 64 ? ~0ull : (1ull << l) - 1;
        uint32_t m = in->param ? (uint32_t)(tm >> 32) : (uint32_t)tm;
        r[l] = (uint32_t)__builtin_popcount(A[l] & m) + B[l];
    }
    vdst(w, in, r);
}

/* 64-bit shifts: D = S1 shifted by S0[5:0] */
void emu_v_shift64(emu_wave *w, const emu_inst *in)
{
    uint32_t ta[EMU_MAX_LANES];
    uint64_t b[EMU_MAX_LANES], r[EMU_MAX_LANES];
    const uint32_t *A = vsrc(w, in, 0, ta);
    emu_v64(w, &in->src[1], b);
    switch (in->param) {
    case 0:
        LANES
        r[l] = b[l] << (A[l] & 63);
        break;
    case 1:
        LANES
        r[l] = b[l] >> (A[l] & 63);
        break;
    default:
        LANES
        r[l] = (uint64_t)((int64_t)b[l] >> (A[l] & 63));
        break;
    }
    emu_vwrite64(w, &in->dst, r);
}

/* v_mad_u64_u32 / v_mad_i64_i32 (VOP3SD): D64 = S0*S1 + S2(64); carry out to sdst */
void emu_v_mad64(emu_wave *w, const emu_inst *in)
{
    uint32_t ta[EMU_MAX_LANES], tb[EMU_MAX_LANES];
    uint64_t c[EMU_MAX_LANES], r[EMU_MAX_LANES], co = 0;
    const uint32_t *A = vsrc(w, in, 0, ta), *B = vsrc(w, in, 1, tb);
    emu_v64(w, &in->src[2], c);
    if (in->param) {
        LANES
        {
            __int128 p = (__int128)((int64_t)S(A[l]) * S(B[l])) + (int64_t)c[l];
            r[l] = (uint64_t)p;
            co |= (uint64_t)(p > INT64_MAX || p < INT64_MIN) << l;
        }
    } else {
        LANES
        {
            unsigned __int128 p = (unsigned __int128)((uint64_t)A[l] * B[l]) + c[l];
            r[l] = (uint64_t)p;
            co |= (uint64_t)(p >> 64 != 0) << l;
        }
    }
    emu_vwrite64(w, &in->dst, r);
    sdst_mask(w, in, co);
}

/* v_swap_b32: exchange vdst and src0 (both VGPRs) */
void emu_v_swap_b32(emu_wave *w, const emu_inst *in)
{
    uint32_t *a = w->v[in->dst.reg], *b = w->v[in->src[0].reg];
    LANES
    {
        if (w->wm[l]) {
            uint32_t t = a[l];
            a[l] = b[l];
            b[l] = t;
        }
    }
}
/* v_swaprel_b32: swap v[D + M0[25:16]] and v[S0 + M0[9:0]] in the active lanes. */
void emu_v_swaprel_b32(emu_wave *w, const emu_inst *in)
{
    uint32_t m0 = w->s[EMU_M0];
    uint32_t *a = w->v[(in->dst.reg + ((m0 >> 16) & 0x3ff)) & 255];
    uint32_t *b = w->v[(in->src[0].reg + (m0 & 0x3ff)) & 255];
    LANES
    {
        if (w->wm[l]) {
            uint32_t t = a[l];
            a[l] = b[l];
            b[l] = t;
        }
    }
}
void emu_v_swap_b16(emu_wave *w, const emu_inst *in)
{
    uint32_t A[EMU_MAX_LANES], D[EMU_MAX_LANES];
    vsrc16(w, in, 0, A);
    emu_opnd d = in->dst;
    uint32_t tmp[EMU_MAX_LANES];
    const uint32_t *pd = emu_v32(w, &d, tmp);
    LANES
    D[l] = pd[l] & 0xffff;
    emu_vwrite16(w, &in->dst, A, 0);
    emu_opnd s = in->src[0];
    emu_vwrite16(w, &s, D, 0);
}

/*
 * v_movrels (param 0: D = v[S0+M0]), v_movreld (1: v[D+M0] = S0), v_movrelsd (2: both),
 * v_movrelsd_2 (3: v[D + M0[25:16]] = v[S0 + M0[9:0]])
 */
void emu_v_movrel(emu_wave *w, const emu_inst *in)
{
    uint32_t m0 = w->s[EMU_M0];
    uint32_t ms = in->param == 3 ? m0 & 0x3ff : m0, md = in->param == 3 ? (m0 >> 16) & 0x3ff : m0;
    emu_opnd s = in->src[0], d = in->dst;
    if (in->param != 1 && s.kind == EMU_K_VGPR)
        s.reg = (uint16_t)((s.reg + ms) & 255);
    if (in->param != 0 && d.kind == EMU_K_VGPR)
        d.reg = (uint16_t)((d.reg + md) & 255);
    uint32_t tmp[EMU_MAX_LANES], r[EMU_MAX_LANES];
    const uint32_t *p = emu_v32(w, &s, tmp);
    LANES
    r[l] = p[l];
    emu_vwrite32(w, &d, r);
}

void emu_v_nop(emu_wave *w, const emu_inst *in)
{
    (void)w;
    (void)in;
}
