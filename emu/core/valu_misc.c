/*
 * emu/core/valu_misc.c — the less common VALU ops: masked and quad SADs
 * (v_msad_u8, v_qsad_pk_u16_u8, v_mqsad_pk_u16_u8, v_mqsad_u32_u8),
 * v_mullit_f32 and the cube-map helpers, per the ISA pseudocode.
 */
#include "emu/core/valu.h"

static inline uint32_t absdiff8(uint32_t x, uint32_t y)
{
    return x > y ? x - y : y - x;
}

/* v_sad_u8 / v_msad_u8 of four bytes (masked: bytes where S1 is 0 count 0) */
static inline uint32_t sad4(uint32_t a, uint32_t b, uint32_t acc, int masked)
{
    for (int i = 0; i < 32; i += 8) {
        uint32_t x = (a >> i) & 255, y = (b >> i) & 255;
        if (!(masked && y == 0))
            acc += absdiff8(x, y);
    }
    return acc;
}

void emu_v_msad_u8(emu_wave *w, const emu_inst *in)
{
    uint32_t ta[EMU_MAX_LANES], tb[EMU_MAX_LANES], tc[EMU_MAX_LANES], r[EMU_MAX_LANES];
    const uint32_t *A = vsrc(w, in, 0, ta), *B = vsrc(w, in, 1, tb), *C = vsrc(w, in, 2, tc);
    LANES
    r[l] = sad4(A[l], B[l], C[l], 1);
    vdst(w, in, r);
}

/*
 * Quad SADs: S0 is 64 bits, S1 32 bits, S2 the 64-bit (qsad/mqsad_pk: four 16-bit) or
 * 128-bit (mqsad_u32: four 32-bit) accumulators.  param 0 qsad_pk, 1 mqsad_pk, 2 mqsad_u32.
 */
void emu_v_qsad(emu_wave *w, const emu_inst *in)
{
    uint64_t a[EMU_MAX_LANES];
    uint32_t tb[EMU_MAX_LANES];
    emu_v64(w, &in->src[0], a);
    const uint32_t *B = vsrc(w, in, 1, tb);
    int masked = in->param != 0;
    if (in->param == 2) {
        uint32_t out[4][EMU_MAX_LANES];
        for (int k = 0; k < 4; k++) {
            emu_opnd c = in->src[2];
            if (c.kind == EMU_K_VGPR)
                c.reg = (uint16_t)((c.reg + k) & 255);
            uint32_t tc[EMU_MAX_LANES];
            const uint32_t *C = emu_v32(w, &c, tc);
            LANES
            out[k][l] = sad4((uint32_t)(a[l] >> (8 * k)), B[l], C[l], masked);
        }
        for (int k = 0; k < 4; k++) {
            emu_opnd d = in->dst;
            d.reg = (uint16_t)((d.reg + k) & 255);
            emu_vwrite32(w, &d, out[k]);
        }
        return;
    }
    uint64_t c[EMU_MAX_LANES], r[EMU_MAX_LANES];
    emu_v64(w, &in->src[2], c);
    LANES
    {
        uint64_t t = 0;
        for (int k = 0; k < 4; k++) {
            uint32_t acc = (uint32_t)(c[l] >> (16 * k)) & 0xffff;
            uint32_t s = sad4((uint32_t)(a[l] >> (8 * k)), B[l], acc, masked) & 0xffff;
            t |= (uint64_t)s << (16 * k);
        }
        r[l] = t;
    }
    emu_vwrite64(w, &in->dst, r);
}

void emu_v_mullit_f32(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES], b[EMU_MAX_LANES], c[EMU_MAX_LANES], r[EMU_MAX_LANES];
    vsrcf(w, in, 0, a);
    vsrcf(w, in, 1, b);
    vsrcf(w, in, 2, c);
    LANES
    {
        float y = b[l], z = c[l];
        if (y == -0x1.fffffep127f || y == -INFINITY || y != y || z <= 0.0f || z != z)
            r[l] = -0x1.fffffep127f;
        else
            r[l] = a[l] * y;
    }
    vdstf(w, in, r);
}

/* Cube map helpers: param 0 id, 1 sc, 2 tc, 3 ma */
void emu_v_cube(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES], b[EMU_MAX_LANES], c[EMU_MAX_LANES], r[EMU_MAX_LANES];
    vsrcf(w, in, 0, a);
    vsrcf(w, in, 1, b);
    vsrcf(w, in, 2, c);
    LANES
    {
        float x = a[l], y = b[l], z = c[l], d;
        int zmaj = fabsf(z) >= fabsf(x) && fabsf(z) >= fabsf(y);
        int ymaj = !zmaj && fabsf(y) >= fabsf(x);
        switch (in->param) {
        case 0:
            d = zmaj ? (z < 0 ? 5.0f : 4.0f) : ymaj ? (y < 0 ? 3.0f : 2.0f) : (x < 0 ? 1.0f : 0.0f);
            break;
        case 1:
            d = zmaj ? (z < 0 ? -x : x) : ymaj ? x : (x < 0 ? z : -z);
            break;
        case 2:
            d = zmaj ? -y : ymaj ? (y < 0 ? -z : z) : -y;
            break;
        default:
            d = 2.0f * (zmaj ? z : ymaj ? y : x);
            break;
        }
        r[l] = d;
    }
    vdstf(w, in, r);
}
