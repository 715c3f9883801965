/*
 * emu/core/vop3p.c — packed math (VOP3P): v_pk_* on two 16-bit halves with
 * op_sel / op_sel_hi picking each source half and neg / neg_hi negating
 * them, the dot products, v_fma_mix*, and v_pk_fmac_f16 (VOP2).
 */
#include "emu/core/valu.h"

/* Half h (0 lo, 1 hi) of source i as raw 16 bits, per op_sel / op_sel_hi. */
static inline void half_src(emu_wave *w, const emu_inst *in, int i, int h, uint32_t *out)
{
    uint32_t tmp[EMU_MAX_LANES];
    const uint32_t *p = emu_v32(w, &in->src[i], tmp);
    int sel = h ? (in->opsel_hi >> i) & 1 : (in->opsel >> i) & 1;
    LANES
    out[l] = sel ? p[l] >> 16 : p[l] & 0xffff;
}

static inline float fneg_h(const emu_inst *in, int i, int h, uint32_t v)
{
    int n = h ? (in->neg_hi >> i) & 1 : (in->neg >> i) & 1;
    return f16_to_f32((uint16_t)(v ^ (n ? 0x8000u : 0)));
}

/* Packed f16 ops: param 0 add, 1 mul, 2 fma, 3 min, 4 max */
void emu_v_pk_f16(emu_wave *w, const emu_inst *in)
{
    uint32_t r[EMU_MAX_LANES];
    unsigned rm = (w->mode >> 2) & 3;
    int three = in->param == 2;
    uint32_t s[3][2][EMU_MAX_LANES];
    for (int h = 0; h < 2; h++)
        for (int i = 0; i < (three ? 3 : 2); i++)
            half_src(w, in, i, h, s[i][h]);
    LANES
    {
        uint32_t out = 0;
        for (int h = 0; h < 2; h++) {
            float x = fneg_h(in, 0, h, s[0][h][l]), y = fneg_h(in, 1, h, s[1][h][l]), z = 0;
            if (three)
                z = fneg_h(in, 2, h, s[2][h][l]);
            double v;
            switch (in->param) {
            case 0:
                v = f16_fma_rto(x, 1.0, y, rm); /* exact; -0 under RD */
                break;
            case 1:
                v = (double)x * y;
                break;
            case 2:
                v = f16_fma_rto(x, y, z, rm);
                break;
            case 3:
                v = f32_of(f32_min_hw(u32_of(x), u32_of(y), 0));
                break;
            case 4:
                v = f32_of(f32_max_hw(u32_of(x), u32_of(y), 0));
                break;
            default: /* 5 v_pk_minimum_f16, 6 v_pk_maximum_f16 (gfx12: a NaN operand gives a
                        quiet NaN, -0 < +0) */
                if (x != x || y != y)
                    v = x != x ? x : y;
                else if (x == y)
                    v = (signbit(x) != 0) == (in->param == 5) ? x : y;
                else
                    v = (x < y) == (in->param == 5) ? x : y;
                break;
            }
            if (in->clamp)
                v = v != v ? 0.0 : v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
            out |= (uint32_t)f64_to_f16_rm(v, rm) << (16 * h);
        }
        r[l] = out;
    }
    vdst(w, in, r);
}

/* Packed integer ops: param low bits select, bit 8 = three sources */
enum {
    PK_ADD_U,
    PK_SUB_U,
    PK_ADD_I,
    PK_SUB_I,
    PK_MUL_LO,
    PK_LSHL,
    PK_LSHR,
    PK_ASHR,
    PK_MAX_I,
    PK_MIN_I,
    PK_MAX_U,
    PK_MIN_U,
    PK_MAD_U,
    PK_MAD_I
};
void emu_v_pk_int(emu_wave *w, const emu_inst *in)
{
    uint32_t r[EMU_MAX_LANES];
    uint32_t s[3][2][EMU_MAX_LANES];
    unsigned op = in->param;
    int three = op == PK_MAD_U || op == PK_MAD_I;
    for (int h = 0; h < 2; h++)
        for (int i = 0; i < (three ? 3 : 2); i++)
            half_src(w, in, i, h, s[i][h]);
    LANES
    {
        uint32_t out = 0;
        for (int h = 0; h < 2; h++) {
            uint32_t a = s[0][h][l], b = s[1][h][l], c = three ? s[2][h][l] : 0;
            int32_t sa = (int16_t)a, sb = (int16_t)b;
            int32_t v;
            switch (op) {
            case PK_ADD_U:
                v = (int32_t)(a + b);
                if (in->clamp && a + b > 0xffff)
                    v = 0xffff;
                break;
            case PK_SUB_U:
                v = (int32_t)(a - b);
                if (in->clamp && b > a)
                    v = 0;
                break;
            case PK_ADD_I:
                v = sa + sb;
                if (in->clamp)
                    v = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
                break;
            case PK_SUB_I:
                v = sa - sb;
                if (in->clamp)
                    v = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
                break;
            case PK_MUL_LO:
                v = (int32_t)(a * b);
                break;
            case PK_LSHL:
                v = (int32_t)(b << (a & 15));
                break;
            case PK_LSHR:
                v = (int32_t)(b >> (a & 15));
                break;
            case PK_ASHR:
                v = sb >> (a & 15);
                break;
            case PK_MAX_I:
                v = sa > sb ? sa : sb;
                break;
            case PK_MIN_I:
                v = sa < sb ? sa : sb;
                break;
            case PK_MAX_U:
                v = (int32_t)(a > b ? a : b);
                break;
            case PK_MIN_U:
                v = (int32_t)(a < b ? a : b);
                break;
            case PK_MAD_U: /* clamp saturates, as v_mad_u16 on silicon */
                v = (int32_t)(a * b + c);
                if (in->clamp && a * b + c > 0xffff)
                    v = 0xffff;
                break;
            default:
                v = sa * sb + (int16_t)c;
                if (in->clamp)
                    v = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
                break;
            }
            out |= ((uint32_t)v & 0xffff) << (16 * h);
        }
        r[l] = out;
    }
    vdst(w, in, r);
}

/* v_pk_fmac_f16 (VOP2): both halves D = fma(S0, S1, D) */
void emu_v_pk_fmac_f16(emu_wave *w, const emu_inst *in)
{
    uint32_t ta[EMU_MAX_LANES], tb[EMU_MAX_LANES], r[EMU_MAX_LANES];
    const uint32_t *A = vsrc(w, in, 0, ta), *B = vsrc(w, in, 1, tb);
    const uint32_t *D = w->v[in->dst.reg];
    unsigned rm = (w->mode >> 2) & 3;
    LANES
    {
        uint32_t out = 0;
        for (int h = 0; h < 2; h++) {
            float x = f16_to_f32((uint16_t)(A[l] >> (16 * h)));
            float y = f16_to_f32((uint16_t)(B[l] >> (16 * h)));
            float z = f16_to_f32((uint16_t)(D[l] >> (16 * h)));
            out |= (uint32_t)f64_to_f16_rm(f16_fma_rto(x, y, z, rm), rm) << (16 * h);
        }
        r[l] = out;
    }
    vdst(w, in, r);
}

/* Dot products: param 0 dot2_f32_f16, 1 dot2_f32_bf16, 2 dot4_i32_iu8, 3 dot4_u32_u8,
   4 dot8_i32_iu4, 5 dot8_u32_u4, 6 dot2acc_f32_f16 (VOP2), 7 dot2_f16_f16, 8 dot2_bf16_bf16,
   9 dot2acc_f32_bf16 */
void emu_v_dot(emu_wave *w, const emu_inst *in)
{
    uint32_t ta[EMU_MAX_LANES], tb[EMU_MAX_LANES], tc[EMU_MAX_LANES], r[EMU_MAX_LANES];
    const uint32_t *A = vsrc(w, in, 0, ta), *B = vsrc(w, in, 1, tb);
    const uint32_t *C = (in->param == 6 || in->param == 9) ? w->v[in->dst.reg] : vsrc(w, in, 2, tc);
    unsigned p = in->param;
    int sa = (in->neg & 1) != 0, sb = (in->neg & 2) != 0; /* iu: neg bits mean signed */
    LANES
    {
        uint32_t a = A[l], b = B[l], c = C[l];
        switch (p) {
        case 0:
        case 6: {
            float x0 = f16_to_f32((uint16_t)a), x1 = f16_to_f32((uint16_t)(a >> 16));
            float y0 = f16_to_f32((uint16_t)b), y1 = f16_to_f32((uint16_t)(b >> 16));
            if (in->neg & 1)
                x0 = -x0;
            if (in->neg_hi & 1)
                x1 = -x1;
            if (in->neg & 2)
                y0 = -y0;
            if (in->neg_hi & 2)
                y1 = -y1;
            r[l] = u32_of((float)((double)f32_of(c) + (double)x0 * y0 + (double)x1 * y1));
            break;
        }
        case 1:
        case 9: {
            float x0 = bf16_to_f32((uint16_t)a), x1 = bf16_to_f32((uint16_t)(a >> 16));
            float y0 = bf16_to_f32((uint16_t)b), y1 = bf16_to_f32((uint16_t)(b >> 16));
            r[l] = u32_of((float)((double)f32_of(c) + (double)x0 * y0 + (double)x1 * y1));
            break;
        }
        case 2:
        case 3: {
            int64_t acc = p == 2 ? (int32_t)c : (int64_t)c;
            for (int k = 0; k < 4; k++) {
                int32_t x = (a >> (8 * k)) & 255, y = (b >> (8 * k)) & 255;
                if (p == 2 && sa)
                    x = (int8_t)x;
                if (p == 2 && sb)
                    y = (int8_t)y;
                acc += (int64_t)x * y;
            }
            if (in->clamp)
                acc = p == 2 ? (acc > INT32_MAX   ? INT32_MAX
                                : acc < INT32_MIN ? INT32_MIN
                                                  : acc)
                             : (acc > UINT32_MAX ? UINT32_MAX : acc);
            r[l] = (uint32_t)acc;
            break;
        }
        case 4:
        case 5: {
            int64_t acc = p == 4 ? (int32_t)c : (int64_t)c;
            for (int k = 0; k < 8; k++) {
                int32_t x = (a >> (4 * k)) & 15, y = (b >> (4 * k)) & 15;
                if (p == 4 && sa)
                    x = (x ^ 8) - 8;
                if (p == 4 && sb)
                    y = (y ^ 8) - 8;
                acc += (int64_t)x * y;
            }
            if (in->clamp)
                acc = p == 4 ? (acc > INT32_MAX   ? INT32_MAX
                                : acc < INT32_MIN ? INT32_MIN
                                                  : acc)
                             : (acc > UINT32_MAX ? UINT32_MAX : acc);
            r[l] = (uint32_t)acc;
            break;
        }
        case 7: {
            float s = f16_to_f32((uint16_t)c) + f16_to_f32((uint16_t)a) * f16_to_f32((uint16_t)b) +
                      f16_to_f32((uint16_t)(a >> 16)) * f16_to_f32((uint16_t)(b >> 16));
            r[l] = (c & 0xffff0000u) | f32_to_f16(s);
            break;
        }
        default: {
            float s = bf16_to_f32((uint16_t)c) +
                      bf16_to_f32((uint16_t)a) * bf16_to_f32((uint16_t)b) +
                      bf16_to_f32((uint16_t)(a >> 16)) * bf16_to_f32((uint16_t)(b >> 16));
            r[l] = (c & 0xffff0000u) | f32_to_bf16(s);
            break;
        }
        }
    }
    vdst(w, in, r);
}

/* v_fma_mix_f32 / v_fma_mixlo_f16 / v_fma_mixhi_f16: param 0/1/2 */
void emu_v_fma_mix(emu_wave *w, const emu_inst *in)
{
    uint32_t t[3][EMU_MAX_LANES], r[EMU_MAX_LANES];
    const uint32_t *S[3];
    for (int i = 0; i < 3; i++)
        S[i] = vsrc(w, in, i, t[i]);
    unsigned rm = (w->mode >> 2) & 3;
    LANES
    {
        float v[3];
        for (int i = 0; i < 3; i++) {
            uint32_t u = S[i][l];
            float x;
            if (!((in->opsel_hi >> i) & 1))
                x = f32_of(u);
            else
                x = f16_to_f32((uint16_t)(((in->opsel >> i) & 1) ? u >> 16 : u));
            if ((in->abs >> i) & 1) /* neg_hi carries abs for fma_mix */
                x = fabsf(x);
            if ((in->neg_hi >> i) & 1)
                x = fabsf(x);
            if ((in->neg >> i) & 1)
                x = -x;
            v[i] = x;
        }
        if (in->param == 0) {
            float res = fmaf(v[0], v[1], v[2]);
            if (in->clamp)
                res = res != res ? 0.0f : res < 0 ? 0 : res > 1 ? 1 : res;
            r[l] = u32_of(res);
            continue;
        }
        /* f16 result: one rounding from the exact fma (rounded to odd in double first) */
        double res = fma_rto(v[0], v[1], v[2], rm);
        if (in->clamp)
            res = res != res ? 0.0 : res < 0 ? 0 : res > 1 ? 1 : res;
        uint32_t h = f64_to_f16_rm(res, rm);
        if (in->param == 1)
            r[l] = (w->v[in->dst.reg][l] & 0xffff0000u) | h;
        else
            r[l] = (w->v[in->dst.reg][l] & 0xffffu) | h << 16;
    }
    vdst(w, in, r);
}
