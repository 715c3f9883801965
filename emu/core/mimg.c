/*
 * emu/core/mimg.c — MIMG image instructions on linear, buffer-backed images:
 * image_load / _mip / _pck / _pck_sgn / _mip_pck / _mip_pck_sgn, image_store /
 * _mip / _pck / _mip_pck, image_atomic_* (32-bit formats), image_get_resinfo and
 * image_sample / _lz / _l with point filtering.
 *
 * Instruction fields come from the raw gfx11 MIMG encoding (dword 0: NSA [0], DIM
 * [4:2], UNORM [7], DMASK [11:8], SLC [12], DLC [13], GLC [14], R128 [15], A16 [16],
 * D16 [17], OP [25:18]; dword 1: VADDR [7:0], VDATA [15:8], SRSRC [20:16] (x4), TFE
 * [21], LWE [22], SSAMP [30:26] (x4); NSA dword 2: VADDR1..4 bytes).
 *
 * The T# (image resource, 8 SGPRs, 4 with R128; words 4-7 read as 0 then):
 *   word0        BASE_ADDRESS[39:8]
 *   word1 [7:0]  BASE_ADDRESS[47:40], [27:20] FORMAT (gfx11 unified format ids of
 *                buffmt.def), [31:30] WIDTH-1 [1:0]
 *   word2 [11:0] WIDTH-1 [13:2], [27:14] HEIGHT-1
 *   word3 [11:0] DST_SEL_X/Y/Z/W (0 = 0, 1 = 1, 4..7 = channel x..w), [15:12]
 *                BASE_LEVEL, [19:16] LAST_LEVEL, [24:20] SW_MODE (0 = linear, the only
 *                layout emulated), [31:28] TYPE (8 1D, 9 2D, 10 3D, 11 cube, 12 1D
 *                array, 13 2D array)
 *   word4 [12:0] DEPTH: 3D: depth-1; arrays and cubes: the last slice of the view;
 *                1D/2D: with bit 13 (PITCH_MSB) the row pitch-1 in texels (linear
 *                images on gfx10.3+; a pitch below the width means the width),
 *                [28:16] BASE_ARRAY (the first slice of the view)
 * Texel (x, y, z or slice s) of a linear image: base + ((s*height + y)*pitch + x)*bpp.
 * Only mip level 0 of the resource is addressed (BASE_LEVEL 0, or a mip argument
 * selecting level 0); other levels, tiled layouts, MSAA and unknown types stop the
 * dispatch with an UNIMPLEMENTED fault naming the field.  Coordinates outside the view
 * read 0 in every channel and drop stores and atomics.  DST_SEL applies to loads and
 * samples; stores write the dmask channels in order and keep the others.
 *
 * The S# (sampler, 4 SGPRs): word0 CLAMP_X [2:0], CLAMP_Y [5:3], CLAMP_Z [8:6],
 * FORCE_UNNORMALIZED [15]; word2 XY_MAG_FILTER [21:20], XY_MIN_FILTER [23:22],
 * Z_FILTER [25:24], MIP_FILTER [27:26]; word3 BORDER_COLOR_TYPE [31:30].  Emulated:
 * point filters (0) with clamp modes wrap (0), mirror (1), clamp to the last texel (2)
 * and border (6, transparent black: type 0); other settings fault as UNIMPLEMENTED.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emu/core/emu_int.h"
#include "emu/core/exec.h"
#include "emu/core/fp.h"
#include "emu/core/ops.h"

/* param: kind [3:0], MI_MIP [4], MI_PCK [5], MI_SGN [6], sample lod kind [9:8], atomic [15:10] */
enum { MI_LOAD, MI_STORE, MI_ATOMIC, MI_RESINFO, MI_SAMPLE };
#define MI_KIND(p) ((p) & 15u)
#define MI_MIP     (1u << 4)
#define MI_PCK     (1u << 5)
#define MI_SGN     (1u << 6)
#define MI_LOD(p)  (((p) >> 8) & 3u) /* sample: 0 implicit, 1 _lz, 2 _l */
#define MI_ATOM(p) (((p) >> 10) & 63u)
#define MI_CMPSWAP (1u << 16)

enum { T_1D = 8, T_2D = 9, T_3D = 10, T_CUBE = 11, T_1D_ARRAY = 12, T_2D_ARRAY = 13 };

typedef struct mimg {
    unsigned nsa, dim, unorm, dmask, glc, r128, a16, d16, tfe;
    unsigned vaddr[5], vdata, srsrc, ssamp;
} mimg;

typedef struct tdesc {
    uint64_t base;
    unsigned fmt, bpp, width, height, depth, pitch, type, swmode, sel[4];
    unsigned base_level, last_level, first_slice, last_slice;
} tdesc;

static void decode_fields(const emu_inst *in, mimg *m)
{
    uint32_t d0, d1, d2 = 0;
    memcpy(&d0, in->raw, 4);
    memcpy(&d1, in->raw + 4, 4);
    if (in->size >= 12)
        memcpy(&d2, in->raw + 8, 4);
    m->nsa = d0 & 1;
    m->dim = (d0 >> 2) & 7;
    m->unorm = (d0 >> 7) & 1;
    m->dmask = (d0 >> 8) & 15;
    m->glc = (d0 >> 14) & 1;
    m->r128 = (d0 >> 15) & 1;
    m->a16 = (d0 >> 16) & 1;
    m->d16 = (d0 >> 17) & 1;
    m->vaddr[0] = d1 & 255;
    m->vdata = (d1 >> 8) & 255;
    m->srsrc = ((d1 >> 16) & 31) << 2;
    m->tfe = (d1 >> 21) & 1;
    m->ssamp = ((d1 >> 26) & 31) << 2;
    for (unsigned i = 1; i < 5; i++)
        m->vaddr[i] = (d2 >> (8 * (i - 1))) & 255;
}

/* Address component i of lane l (32-bit, or the 16-bit half with a16). */
static uint32_t addr_comp(const emu_wave *w, const mimg *m, unsigned i, unsigned l)
{
    unsigned slot = m->a16 ? i / 2 : i;
    unsigned reg = m->nsa ? (slot < 5 ? m->vaddr[slot] : m->vaddr[0] + slot) : m->vaddr[0] + slot;
    uint32_t v = w->v[reg & 255][l];
    if (m->a16)
        v = (i & 1) ? v >> 16 : v & 0xffff;
    return v;
}

/* Coordinates the instruction's DIM passes (before mip / lod). */
static unsigned dim_coords(unsigned dim)
{
    static const unsigned n[8] = { 1, 2, 3, 3, 2, 3, 3, 4 };
    return n[dim & 7];
}

static int read_tdesc(emu_wave *w, const emu_inst *in, const mimg *m, tdesc *t)
{
    uint32_t r[8] = { 0 };
    for (unsigned i = 0; i < (m->r128 ? 4u : 8u); i++)
        r[i] = w->s[(m->srsrc + i) % EMU_NSGPR];
    t->base = ((uint64_t)r[0] | (uint64_t)(r[1] & 0xff) << 32) << 8;
    t->fmt = (r[1] >> 20) & 0xff;
    t->width = (((r[1] >> 30) & 3) | (r[2] & 0xfff) << 2) + 1;
    t->height = ((r[2] >> 14) & 0x3fff) + 1;
    for (unsigned c = 0; c < 4; c++)
        t->sel[c] = (r[3] >> (3 * c)) & 7;
    t->base_level = (r[3] >> 12) & 15;
    t->last_level = (r[3] >> 16) & 15;
    t->swmode = (r[3] >> 20) & 31;
    t->type = r[3] >> 28;
    unsigned dfield = r[4] & 0x1fff;
    t->first_slice = (r[4] >> 16) & 0x1fff;
    t->last_slice = dfield;
    t->depth = t->type == T_3D ? dfield + 1 : 1;
    t->pitch = t->width;
    if (t->type == T_1D || t->type == T_2D) {
        unsigned p = (r[4] & 0x3fff) + 1;
        t->pitch = p > t->width ? p : t->width;
        t->first_slice = t->last_slice = 0;
    }
    if (t->type == T_3D)
        t->first_slice = t->last_slice = 0;
    unsigned comps, bytes;
    char why[96];
    if (!emu_buffmt(t->fmt, &comps, &bytes)) {
        snprintf(why, sizeof why, "image format %u is not one of the emulated formats", t->fmt);
        emu_fault(w, in, RDX_EMU_FAULT_UNIMPLEMENTED, 0, 0, 0, why);
        return 0;
    }
    t->bpp = bytes;
    if (t->type < T_1D || t->type > T_2D_ARRAY) {
        snprintf(why, sizeof why, "image resource type %u is not emulated (1D..2D array)", t->type);
        emu_fault(w, in, RDX_EMU_FAULT_UNIMPLEMENTED, 0, 0, 0, why);
        return 0;
    }
    if (t->swmode != 0) {
        snprintf(why, sizeof why, "swizzle mode %u images are not emulated (only linear)",
                 t->swmode);
        emu_fault(w, in, RDX_EMU_FAULT_UNIMPLEMENTED, 0, 0, 0, why);
        return 0;
    }
    return 1;
}

static int level_zero_only(emu_wave *w, const emu_inst *in, unsigned level)
{
    if (level == 0)
        return 1;
    char why[96];
    snprintf(why, sizeof why, "mip level %u: only level 0 of linear images is emulated", level);
    emu_fault(w, in, RDX_EMU_FAULT_UNIMPLEMENTED, 0, 0, 0, why);
    return 0;
}

/* Byte offset of texel (x, y, z/slice) or -1 when outside the view. */
static int64_t texel_offset(const tdesc *t, uint32_t x, uint32_t y, uint32_t zs)
{
    uint64_t row = 0;
    switch (t->type) {
    case T_1D:
        y = 0;
        break;
    case T_2D:
        if (y >= t->height)
            return -1;
        row = y;
        break;
    case T_3D:
        if (y >= t->height || zs >= t->depth)
            return -1;
        row = (uint64_t)zs * t->height + y;
        break;
    case T_1D_ARRAY: /* the slice is the second coordinate */
        zs = y + t->first_slice;
        if (zs > t->last_slice)
            return -1;
        row = zs;
        break;
    default: /* 2D array, cube */
        zs += t->first_slice;
        if (y >= t->height || zs > t->last_slice)
            return -1;
        row = (uint64_t)zs * t->height + y;
        break;
    }
    if (x >= t->width)
        return -1;
    return (int64_t)((row * t->pitch + x) * t->bpp);
}

/* Channel value after DST_SEL. */
static uint32_t swizzled(const uint32_t ch[4], unsigned sel, int isf)
{
    switch (sel) {
    case 0:
        return 0;
    case 1:
        return isf ? 0x3f800000u : 1u;
    case 4:
    case 5:
    case 6:
    case 7:
        return ch[sel - 4];
    default:
        return 0;
    }
}

/* Write the dmask channels of a lane's result (d16: two per VGPR), then TFE's status dword. */
static void write_result(emu_wave *w, const mimg *m, unsigned l, const uint32_t v[4], int isf)
{
    unsigned k = 0;
    for (unsigned c = 0; c < 4; c++) {
        if (!((m->dmask >> c) & 1))
            continue;
        if (m->d16) {
            uint32_t h = isf ? f32_to_f16(f32_of(v[c])) : (v[c] & 0xffff);
            uint32_t *reg = &w->v[(m->vdata + k / 2) & 255][l];
            *reg = (k & 1) ? (*reg & 0xffffu) | h << 16 : (*reg & 0xffff0000u) | h;
        } else {
            w->v[(m->vdata + k) & 255][l] = v[c];
        }
        k++;
    }
    if (m->tfe)
        w->v[(m->vdata + (m->d16 ? (k + 1) / 2 : k)) & 255][l] = 0;
}

/* Store data channel c of lane l (the k-th dmask channel) as a 32-bit value. */
static uint32_t store_chan(const emu_wave *w, const mimg *m, unsigned l, unsigned k, int isf)
{
    if (!m->d16)
        return w->v[(m->vdata + k) & 255][l];
    uint32_t reg = w->v[(m->vdata + k / 2) & 255][l];
    uint32_t h = (k & 1) ? reg >> 16 : reg & 0xffff;
    return isf ? u32_of(f16_to_f32((uint16_t)h)) : h;
}

/* Clamp / wrap an integer texel coordinate into [0, n) per the sampler's clamp mode; -1 = border.
 */
static int64_t wrap_coord(int64_t i, unsigned n, unsigned mode)
{
    int64_t N = n;
    switch (mode) {
    case 0: /* wrap */
        i %= N;
        return i < 0 ? i + N : i;
    case 1: { /* mirror */
        int64_t p = 2 * N, j = i % p;
        if (j < 0)
            j += p;
        return j < N ? j : p - 1 - j;
    }
    case 2: /* clamp to the last texel */
        return i < 0 ? 0 : i >= N ? N - 1 : i;
    default: /* 6: border */
        return i < 0 || i >= N ? -1 : i;
    }
}

static void do_sample(emu_wave *w, const emu_inst *in, const mimg *m, const tdesc *t, uint64_t exec)
{
    uint32_t s[4];
    for (unsigned i = 0; i < 4; i++)
        s[i] = w->s[(m->ssamp + i) % EMU_NSGPR];
    unsigned clamp[3] = { s[0] & 7, (s[0] >> 3) & 7, (s[0] >> 6) & 7 };
    unsigned unnorm = m->unorm | ((s[0] >> 15) & 1);
    unsigned filt = (s[2] >> 20) & 0xff; /* mag, min, z, mip filters: all point (0) */
    char why[128];
    for (unsigned i = 0; i < 3; i++)
        if (clamp[i] > 2 && clamp[i] != 6) {
            snprintf(why, sizeof why,
                     "sampler clamp mode %u is not emulated (wrap, mirror, "
                     "clamp, border)",
                     clamp[i]);
            emu_fault(w, in, RDX_EMU_FAULT_UNIMPLEMENTED, 0, 0, 0, why);
            return;
        }
    if (filt != 0) {
        snprintf(why, sizeof why, "sampler filters 0x%x are not emulated (point sampling only)",
                 filt);
        emu_fault(w, in, RDX_EMU_FAULT_UNIMPLEMENTED, 0, 0, 0, why);
        return;
    }
    if (t->last_level != t->base_level || !level_zero_only(w, in, t->base_level)) {
        if (!w->stop)
            emu_fault(w, in, RDX_EMU_FAULT_UNIMPLEMENTED, 0, 0, 0,
                      "sampling mipmapped images is not emulated");
        return;
    }
    if (((s[3] >> 30) & 3) != 0 && (clamp[0] == 6 || clamp[1] == 6 || clamp[2] == 6)) {
        emu_fault(w, in, RDX_EMU_FAULT_UNIMPLEMENTED, 0, 0, 0,
                  "border colours other than transparent black are not emulated");
        return;
    }
    unsigned nc = dim_coords(m->dim);
    unsigned size[3] = { t->width, t->height, t->type == T_3D ? t->depth : 1 };
    int is_array = t->type == T_1D_ARRAY || t->type == T_2D_ARRAY || t->type == T_CUBE;
    for (unsigned l = 0; l < w->nl; l++) {
        if (!((exec >> l) & 1))
            continue;
        int64_t ic[3] = { 0, 0, 0 };
        int border = 0;
        for (unsigned i = 0; i < nc && i < 3; i++) {
            uint32_t raw = addr_comp(w, m, i, l);
            float f = m->a16 ? f16_to_f32((uint16_t)raw) : f32_of(raw);
            int slice = is_array && i == nc - 1;
            if (slice) { /* the array slice: rounded, clamped to the view */
                double r = fp_rne((double)f);
                int64_t last = (int64_t)t->last_slice - t->first_slice;
                ic[i] = r != r || r<0 ? 0 : r>(double) last ? last : (int64_t)r;
                continue;
            }
            double u = unnorm ? (double)f : (double)f * size[i];
            double fl = floor(u);
            int64_t k = u != u       ? 0
                        : fl < -1e15 ? -1000000000000000ll
                        : fl > 1e15  ? 1000000000000000ll
                                     : (int64_t)fl;
            k = wrap_coord(k, size[i], clamp[i]);
            if (k < 0)
                border = 1;
            ic[i] = k;
        }
        uint32_t v[4] = { 0, 0, 0, 0 }, ch[4];
        int isf = 1;
        if (!border) {
            int64_t off = t->type == T_1D_ARRAY
                              ? texel_offset(t, (uint32_t)ic[0], (uint32_t)ic[1], 0)
                              : texel_offset(t, (uint32_t)ic[0], (uint32_t)ic[1], (uint32_t)ic[2]);
            if (off >= 0) {
                uint64_t a = t->base + (uint64_t)off;
                if (!emu_mem_ok(w, a, t->bpp, RDX_EMU_READ)) {
                    emu_vm_fault(w, in, a, t->bpp, 0, l);
                    return;
                }
                emu_touch(w, a, t->bpp, 1, 1);
                emu_fmt_read(t->fmt, (const uint8_t *)(uintptr_t)a, ch, &isf);
                for (unsigned c = 0; c < 4; c++)
                    v[c] = swizzled(ch, t->sel[c], isf);
            }
        }
        write_result(w, m, l, v, 1);
    }
}

void emu_mimg(emu_wave *w, const emu_inst *in)
{
    mimg m;
    tdesc t;
    decode_fields(in, &m);
    unsigned p = in->param, kind = MI_KIND(p);
    uint64_t exec = emu_exec(w);
    if (!read_tdesc(w, in, &m, &t))
        return;
    w->wk->c.lane_ops += emu_popcount(exec);
    w->wk->c.vector_insts++;
    emu_cycle_vm(w, kind == MI_STORE ? EMU_TM(w)->LAT_VMEM_STORE : EMU_TM(w)->LAT_VMEM_LOAD);
    emu_touch_begin(w);
    if (kind == MI_SAMPLE) {
        do_sample(w, in, &m, &t, exec);
        return;
    }
    unsigned nc = dim_coords(m.dim);
    if (kind == MI_RESINFO) { /* vaddr: the mip level */
        for (unsigned l = 0; l < w->nl; l++) {
            if (!((exec >> l) & 1))
                continue;
            uint32_t mip = addr_comp(w, &m, 0, l);
            uint32_t wd = t.width >> mip, ht = t.height >> mip, dp = t.depth >> mip;
            uint32_t v[4];
            int arr1 = t.type == T_1D_ARRAY, arr2 = t.type == T_2D_ARRAY || t.type == T_CUBE;
            uint32_t layers = t.last_slice - t.first_slice + 1;
            v[0] = wd ? wd : 1;                                        /* width */
            v[1] = arr1 ? layers : t.type == T_1D ? 1 : ht ? ht : 1;   /* height or layers */
            v[2] = t.type == T_3D ? (dp ? dp : 1) : arr2 ? layers : 1; /* depth or layers */
            v[3] = t.last_level - t.base_level + 1;                    /* mip levels */
            write_result(w, &m, l, v, 0);
        }
        return;
    }
    uint64_t moved = 0;
    for (unsigned l = 0; l < w->nl; l++) {
        if (!((exec >> l) & 1))
            continue;
        uint32_t c[4] = { 0, 0, 0, 0 };
        for (unsigned i = 0; i < nc; i++)
            c[i] = addr_comp(w, &m, i, l);
        uint32_t mip = (p & MI_MIP) ? addr_comp(w, &m, nc, l) : 0;
        unsigned level = t.base_level + mip;
        if (level > t.last_level) { /* no such level: reads 0, writes dropped */
            if (kind == MI_LOAD || (kind == MI_ATOMIC && m.glc)) {
                uint32_t z[4] = { 0, 0, 0, 0 };
                write_result(w, &m, l, z, 0);
            }
            continue;
        }
        if (!level_zero_only(w, in, level))
            return;
        int64_t off = texel_offset(&t, c[0], c[1], c[2]);
        if (off < 0) {
            if (kind == MI_LOAD || (kind == MI_ATOMIC && m.glc)) {
                uint32_t z[4] = { 0, 0, 0, 0 };
                write_result(w, &m, l, z, 0);
            }
            continue;
        }
        uint64_t a = t.base + (uint64_t)off;
        int write = kind != MI_LOAD;
        if (!emu_mem_ok(w, a, t.bpp, write ? RDX_EMU_WRITE | RDX_EMU_READ : RDX_EMU_READ)) {
            emu_vm_fault(w, in, a, t.bpp, write, l);
            return;
        }
        uint8_t *elem = (uint8_t *)(uintptr_t)a;
        emu_touch(w, a, t.bpp, kind == MI_LOAD ? 1u : kind == MI_STORE ? 2u : 3u, 1);
        moved += t.bpp;
        if (kind == MI_LOAD) {
            uint32_t ch[4], v[4];
            int isf = 0;
            if (p & MI_PCK) {
                for (unsigned k = 0; k < 4; k++)
                    ch[k] = emu_fmt_raw(t.fmt, elem, k, (p & MI_SGN) != 0);
            } else {
                emu_fmt_read(t.fmt, elem, ch, &isf);
            }
            for (unsigned k = 0; k < 4; k++)
                v[k] = (p & MI_PCK) ? ch[k] : swizzled(ch, t.sel[k], isf);
            write_result(w, &m, l, v, isf && !(p & MI_PCK));
        } else if (kind == MI_STORE) {
            uint32_t v[4] = { 0, 0, 0, 0 };
            int isf = 0;
            uint32_t tmp[4];
            emu_fmt_read(t.fmt, elem, tmp, &isf); /* the format's numeric kind */
            unsigned k = 0;
            for (unsigned ch = 0; ch < 4; ch++)
                if ((m.dmask >> ch) & 1)
                    v[ch] = store_chan(w, &m, l, k++, isf && !(p & MI_PCK));
            if (p & MI_PCK) { /* raw bits: write them through an integer view */
                unsigned comps, bytes;
                emu_buffmt(t.fmt, &comps, &bytes);
                uint64_t np = 0;
                unsigned shift = 0, bits = t.bpp * 8 / (comps ? comps : 1);
                memcpy(&np, elem, t.bpp < 8 ? t.bpp : 8);
                for (unsigned ch = 0; ch < comps && bits < 32; ch++, shift += bits)
                    if ((m.dmask >> ch) & 1)
                        np = (np & ~(((1ull << bits) - 1) << shift)) |
                             ((uint64_t)(v[ch] & ((1u << bits) - 1)) << shift);
                if (bits < 32)
                    memcpy(elem, &np, t.bpp < 8 ? t.bpp : 8);
                else
                    for (unsigned ch = 0; ch < comps; ch++)
                        if ((m.dmask >> ch) & 1)
                            memcpy(elem + 4 * ch, &v[ch], 4);
            } else {
                emu_fmt_write(t.fmt, elem, v, m.dmask);
            }
        } else { /* atomic on a 32-bit texel */
            if (t.bpp != 4) {
                emu_fault(w, in, RDX_EMU_FAULT_UNIMPLEMENTED, 0, 0, 0,
                          "image atomics on formats other than 32-bit are not emulated");
                return;
            }
            uint32_t x = w->v[m.vdata][l], cmp = 0;
            if (p & MI_CMPSWAP) {
                cmp = w->v[(m.vdata + 1) & 255][l];
            }
            uint32_t old = emu_vm_atomic32(MI_ATOM(p), (uint32_t *)(void *)elem, x, cmp, 1);
            if (m.glc)
                w->v[m.vdata][l] = old;
        }
    }
    if (kind == MI_LOAD)
        w->wk->c.bytes_read += moved;
    else
        w->wk->c.bytes_written += moved;
}

/* Family parser: image_load*, image_store*, image_atomic_*, image_get_resinfo,
 * image_sample[_lz|_l]. */
int emu_mimg_family(const char *name, emu_opinfo *oi)
{
    static const struct {
        const char *n;
        unsigned p;
    } tab[] = {
        { "image_load", MI_LOAD },
        { "image_load_mip", MI_LOAD | MI_MIP },
        { "image_load_pck", MI_LOAD | MI_PCK },
        { "image_load_pck_sgn", MI_LOAD | MI_PCK | MI_SGN },
        { "image_load_mip_pck", MI_LOAD | MI_MIP | MI_PCK },
        { "image_load_mip_pck_sgn", MI_LOAD | MI_MIP | MI_PCK | MI_SGN },
        { "image_store", MI_STORE },
        { "image_store_mip", MI_STORE | MI_MIP },
        { "image_store_pck", MI_STORE | MI_PCK },
        { "image_store_mip_pck", MI_STORE | MI_MIP | MI_PCK },
        { "image_get_resinfo", MI_RESINFO },
        { "image_sample", MI_SAMPLE },
        { "image_sample_lz", MI_SAMPLE | 1u << 8 },
        { "image_sample_l", MI_SAMPLE | 2u << 8 },
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (!strcmp(name, tab[i].n)) {
            oi->fn = emu_mimg;
            oi->param = tab[i].p;
            oi->cls = RDX_EMU_CLASS_VMEM;
            return 1;
        }
    if (strncmp(name, "image_atomic_", 13))
        return 0;
    static const struct {
        const char *n, *as;
    } atoms[] = {
        { "swap", "swap_b32" }, { "cmpswap", "cmpswap_b32" }, { "add", "add_u32" },
        { "sub", "sub_u32" },   { "smin", "min_i32" },        { "umin", "min_u32" },
        { "smax", "max_i32" },  { "umax", "max_u32" },        { "and", "and_b32" },
        { "or", "or_b32" },     { "xor", "xor_b32" },         { "inc", "inc_u32" },
        { "dec", "dec_u32" },
    };
    for (size_t i = 0; i < sizeof atoms / sizeof atoms[0]; i++)
        if (!strcmp(name + 13, atoms[i].n)) {
            unsigned a, is64;
            if (!emu_vm_parse_atomic(atoms[i].as, &a, &is64))
                return 0;
            oi->fn = emu_mimg;
            oi->param = MI_ATOMIC | a << 10 | (i == 1 ? MI_CMPSWAP : 0);
            oi->cls = RDX_EMU_CLASS_VMEM;
            return 1;
        }
    return 0;
}
