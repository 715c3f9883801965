/*
 * emu/core/valu_cvt.c — conversions between f16, bf16, f32, f64 and
 * integers (saturating float->int with NaN -> 0, as the hardware does),
 * packing ops and the normalised / byte conversions.
 */
#include "emu/core/valu.h"

static inline uint32_t f2i(double x)
{
    if (x != x)
        return 0;
    if (x >= 2147483647.0)
        return 0x7fffffffu;
    if (x <= -2147483648.0)
        return 0x80000000u;
    return (uint32_t)(int32_t)x;
}
static inline uint32_t f2u(double x)
{
    if (x != x || x <= 0.0)
        return 0;
    if (x >= 4294967295.0)
        return 0xffffffffu;
    return (uint32_t)x;
}
static inline uint32_t f2i16(float x)
{
    if (x != x)
        return 0;
    if (x >= 32767.0f)
        return 0x7fff;
    if (x <= -32768.0f)
        return 0x8000;
    return (uint32_t)(int32_t)x & 0xffff;
}
static inline uint32_t f2u16(float x)
{
    if (x != x || x <= 0.0f)
        return 0;
    if (x >= 65535.0f)
        return 0xffff;
    return (uint32_t)x;
}

#define CVT_F_TO_I(NAME, EXPR)                 \
    void NAME(emu_wave *w, const emu_inst *in) \
    {                                          \
        float a[EMU_MAX_LANES];                \
        uint32_t r[EMU_MAX_LANES];             \
        vsrcf(w, in, 0, a);                    \
        LANES                                  \
        {                                      \
            float x = a[l];                    \
            r[l] = (EXPR);                     \
        }                                      \
        vdst(w, in, r);                        \
    }
CVT_F_TO_I(emu_v_cvt_i32_f32, f2i(x))
CVT_F_TO_I(emu_v_cvt_u32_f32, f2u(x))
CVT_F_TO_I(emu_v_cvt_nearest_i32_f32, f2i(floorf(x + 0.5f)))
CVT_F_TO_I(emu_v_cvt_floor_i32_f32, f2i(floorf(x)))

#define CVT_I_TO_F(NAME, EXPR)                 \
    void NAME(emu_wave *w, const emu_inst *in) \
    {                                          \
        uint32_t t[EMU_MAX_LANES];             \
        float r[EMU_MAX_LANES];                \
        const uint32_t *A = vsrc(w, in, 0, t); \
        LANES                                  \
        {                                      \
            uint32_t a = A[l];                 \
            r[l] = (EXPR);                     \
        }                                      \
        vdstf(w, in, r);                       \
    }
/* v_cvt_f32_i32 / v_cvt_f32_u32 (param 1): the fast path converts 4 lanes at once (u32
   lanes below 2^31 as i32; the others on the general path); no result is a NaN. */
static void cvt_f32_int(emu_wave *w, const emu_inst *in, int is_u32)
{
    if (emu_f32_plain(w, in)) {
        uint32_t ta[EMU_MAX_LANES], ur[EMU_MAX_LANES];
        const uint32_t *A = fsrc32(w, &in->src[0], ta);
        emu_v4i bad = { 0, 0, 0, 0 };
        VLANES
        {
            emu_v4i a = (emu_v4i)vld(A + l);
            if (is_u32)
                bad |= a < 0;
            vst(ur + l, (emu_v4u) __builtin_convertvector(a, emu_v4f));
        }
        if (!vany(bad)) {
            fdst32(w, in, ur);
            return;
        }
    }
    uint32_t t[EMU_MAX_LANES];
    float r[EMU_MAX_LANES];
    const uint32_t *A = vsrc(w, in, 0, t);
    LANES
    r[l] = is_u32 ? (float)A[l] : (float)(int32_t)A[l];
    vdstf(w, in, r);
}
void emu_v_cvt_f32_i32(emu_wave *w, const emu_inst *in)
{
    cvt_f32_int(w, in, 0);
}
void emu_v_cvt_f32_u32(emu_wave *w, const emu_inst *in)
{
    cvt_f32_int(w, in, 1);
}
CVT_I_TO_F(emu_v_cvt_f32_ubyte0, (float)(a & 255))
CVT_I_TO_F(emu_v_cvt_f32_ubyte1, (float)((a >> 8) & 255))
CVT_I_TO_F(emu_v_cvt_f32_ubyte2, (float)((a >> 16) & 255))
CVT_I_TO_F(emu_v_cvt_f32_ubyte3, (float)(a >> 24))
CVT_I_TO_F(emu_v_cvt_off_f32_i4, (float)((int32_t)(a << 28) >> 28) * 0.0625f)

void emu_v_cvt_f16_f32(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES];
    vsrcf(w, in, 0, a);
    vdsth(w, in, a);
}
void emu_v_cvt_f32_f16(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES];
    vsrch(w, in, 0, a);
    vdstf(w, in, a);
}
void emu_v_cvt_f32_f64(emu_wave *w, const emu_inst *in)
{
    double a[EMU_MAX_LANES];
    float r[EMU_MAX_LANES];
    vsrcd(w, in, 0, a);
    LANES
    r[l] = (float)a[l];
    vdstf(w, in, r);
}
void emu_v_cvt_f64_f32(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES];
    double r[EMU_MAX_LANES];
    vsrcf(w, in, 0, a);
    LANES
    r[l] = (double)a[l];
    vdstd(w, in, r);
}
void emu_v_cvt_i32_f64(emu_wave *w, const emu_inst *in)
{
    double a[EMU_MAX_LANES];
    uint32_t r[EMU_MAX_LANES];
    vsrcd(w, in, 0, a);
    LANES
    r[l] = f2i(a[l]);
    vdst(w, in, r);
}
void emu_v_cvt_u32_f64(emu_wave *w, const emu_inst *in)
{
    double a[EMU_MAX_LANES];
    uint32_t r[EMU_MAX_LANES];
    vsrcd(w, in, 0, a);
    LANES
    r[l] = f2u(a[l]);
    vdst(w, in, r);
}
void emu_v_cvt_f64_i32(emu_wave *w, const emu_inst *in)
{
    uint32_t t[EMU_MAX_LANES];
    double r[EMU_MAX_LANES];
    const uint32_t *A = vsrc(w, in, 0, t);
    LANES
    r[l] = (double)(int32_t)A[l];
    vdstd(w, in, r);
}
void emu_v_cvt_f64_u32(emu_wave *w, const emu_inst *in)
{
    uint32_t t[EMU_MAX_LANES];
    double r[EMU_MAX_LANES];
    const uint32_t *A = vsrc(w, in, 0, t);
    LANES
    r[l] = (double)A[l];
    vdstd(w, in, r);
}
void emu_v_cvt_f16_u16(emu_wave *w, const emu_inst *in)
{
    uint32_t a[EMU_MAX_LANES];
    float r[EMU_MAX_LANES];
    vsrc16(w, in, 0, a);
    LANES
    r[l] = (float)a[l];
    vdsth(w, in, r);
}
void emu_v_cvt_f16_i16(emu_wave *w, const emu_inst *in)
{
    uint32_t a[EMU_MAX_LANES];
    float r[EMU_MAX_LANES];
    vsrc16(w, in, 0, a);
    LANES
    r[l] = (float)(int16_t)a[l];
    vdsth(w, in, r);
}
void emu_v_cvt_u16_f16(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES];
    uint32_t r[EMU_MAX_LANES];
    vsrch(w, in, 0, a);
    LANES
    r[l] = f2u16(a[l]);
    vdst16(w, in, r);
}
void emu_v_cvt_i16_f16(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES];
    uint32_t r[EMU_MAX_LANES];
    vsrch(w, in, 0, a);
    LANES
    r[l] = f2i16(a[l]);
    vdst16(w, in, r);
}
void emu_v_cvt_norm_i16_f16(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES];
    uint32_t r[EMU_MAX_LANES];
    vsrch(w, in, 0, a);
    LANES
    r[l] = f2i16(rintf(fmaxf(-1.0f, fminf(1.0f, a[l])) * 32767.0f));
    vdst16(w, in, r);
}
void emu_v_cvt_norm_u16_f16(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES];
    uint32_t r[EMU_MAX_LANES];
    vsrch(w, in, 0, a);
    LANES
    r[l] = f2u16(rintf(fmaxf(0.0f, fminf(1.0f, a[l])) * 65535.0f));
    vdst16(w, in, r);
}

/* two f32 sources -> packed pair; param selects: 0 rtz f16, 1 norm i16, 2 norm u16, 3 i16, 4 u16 */
void emu_v_cvt_pk_f32(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES], b[EMU_MAX_LANES];
    uint32_t r[EMU_MAX_LANES];
    vsrcf(w, in, 0, a);
    vsrcf(w, in, 1, b);
    LANES
    {
        float x = a[l], y = b[l];
        uint32_t lo, hi;
        switch (in->param) {
        case 0:
            lo = f32_to_f16_rm(x, 3);
            hi = f32_to_f16_rm(y, 3);
            break;
        case 1:
            lo = f2i16(rintf(fmaxf(-1.0f, fminf(1.0f, x)) * 32767.0f));
            hi = f2i16(rintf(fmaxf(-1.0f, fminf(1.0f, y)) * 32767.0f));
            break;
        case 2:
            lo = f2u16(rintf(fmaxf(0.0f, fminf(1.0f, x)) * 65535.0f));
            hi = f2u16(rintf(fmaxf(0.0f, fminf(1.0f, y)) * 65535.0f));
            break;
        case 3:
            lo = f2i16(x);
            hi = f2i16(y);
            break;
        default:
            lo = f2u16(x);
            hi = f2u16(y);
            break;
        }
        r[l] = (lo & 0xffff) | hi << 16;
    }
    vdst(w, in, r);
}

/* v_pack_b32_f16: D = { S1.f16, S0.f16 } (with op_sel halves and neg/abs) */
void emu_v_pack_b32_f16(emu_wave *w, const emu_inst *in)
{
    uint32_t a[EMU_MAX_LANES], b[EMU_MAX_LANES], r[EMU_MAX_LANES];
    vsrc16(w, in, 0, a);
    vsrc16(w, in, 1, b);
    uint32_t ca = (in->abs & 1) ? 0x7fff : 0xffff, na = (in->neg & 1) ? 0x8000 : 0;
    uint32_t cb = (in->abs & 2) ? 0x7fff : 0xffff, nb = (in->neg & 2) ? 0x8000 : 0;
    LANES
    r[l] = ((a[l] & ca) ^ na) | ((b[l] & cb) ^ nb) << 16;
    vdst(w, in, r);
}

/* v_cvt_pk_u8_f32: D = S2 with byte S1[1:0] replaced by u8(S0) */
void emu_v_cvt_pk_u8_f32(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES];
    uint32_t tb[EMU_MAX_LANES], tc[EMU_MAX_LANES], r[EMU_MAX_LANES];
    vsrcf(w, in, 0, a);
    const uint32_t *B = vsrc(w, in, 1, tb), *C = vsrc(w, in, 2, tc);
    LANES
    {
        uint32_t v = f2u(rintf(a[l]));
        v = v > 255 ? 255 : v;
        unsigned sh = (B[l] & 3) * 8;
        r[l] = (C[l] & ~(255u << sh)) | v << sh;
    }
    vdst(w, in, r);
}

/* v_sat_pk_u8_i16: two signed 16-bit halves saturated to u8 in the low 16 bits */
void emu_v_sat_pk_u8_i16(emu_wave *w, const emu_inst *in)
{
    uint32_t t[EMU_MAX_LANES], r[EMU_MAX_LANES];
    const uint32_t *A = vsrc(w, in, 0, t);
    LANES
    {
        int32_t lo = (int16_t)A[l], hi = (int16_t)(A[l] >> 16);
        lo = lo < 0 ? 0 : lo > 255 ? 255 : lo;
        hi = hi < 0 ? 0 : hi > 255 ? 255 : hi;
        r[l] = (uint32_t)lo | (uint32_t)hi << 8;
    }
    vdst16(w, in, r);
}
