/*
 * tests/emu/check_mimg.c — MIMG on linear images: image_load / _mip / _pck,
 * image_store, image_atomic_*, image_get_resinfo and point-sampled image_sample,
 * hand-assembled (llvm-mc), with the T# in s[4:11].  Expected values come from
 * the image data indexed as plain C arrays (img[slice][y][x]) and the format
 * definitions (UNORM = v/255, f16 halves), out-of-view texels reading 0.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/emu/emu_test.h"

/* DST_SEL x, y, z, w = channels x, y, z, w */
#define SEL_XYZW (4u | 5u << 3 | 6u << 6 | 7u << 9)

enum { TY_1D = 8, TY_2D = 9, TY_3D = 10, TY_1D_ARRAY = 12, TY_2D_ARRAY = 13 };

/* A 256-bit T# for a linear image (fields as docs/emu.md lists them). */
static void make_tdesc(uint32_t *t, const void *base, unsigned fmt, unsigned w, unsigned h,
                       unsigned type, unsigned dfield, unsigned base_array, unsigned sel)
{
    uint64_t a = (uint64_t)(uintptr_t)base;
    ck_assert_uint_eq(a & 255, 0);
    memset(t, 0, 8 * sizeof *t);
    t[0] = (uint32_t)(a >> 8);
    t[1] = (uint32_t)((a >> 40) & 0xff) | fmt << 20 | ((w - 1) & 3) << 30;
    t[2] = (w - 1) >> 2 | (h - 1) << 14 | 1u << 31;
    t[3] = sel | (uint32_t)type << 28;
    t[4] = dfield | base_array << 16;
}

/* Image memory: 256-byte aligned (the T# base), size rounded up as aligned_alloc requires. */
static void *img_alloc(size_t bytes)
{
    void *p = aligned_alloc(256, (bytes + 255) & ~(size_t)255);
    ck_assert_ptr_nonnull(p);
    return p;
}

static rdx_emu *new_emu(void *img, size_t bytes)
{
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create("gfx1100", &e), RDX_OK);
    rdx_emu_set_threads(e, 1);
    ck_assert_int_eq(rdx_emu_map(e, (uint64_t)(uintptr_t)img, bytes, RDX_EMU_RW), RDX_OK);
    return e;
}

/* 2D RGBA f32, 13x7 with a row pitch of 16 texels: loads incl. out-of-range, swizzle. */
START_TEST(load_2d_rgba32f_pitch_and_swizzle)
{
    enum { W = 13, H = 7, P = 16 };
    float *img = img_alloc(P * H * 16);
    for (unsigned i = 0; i < P * H * 4; i++)
        img[i] = (float)i * 0.5f - 3.0f;
    rdx_emu *e = new_emu(img, P * H * 16);
    et_case c = { 0 };
    make_tdesc(c.sgpr_in, img, 63, W, H, TY_2D, P - 1, 0, SEL_XYZW);
    c.nin = 2;
    for (unsigned l = 0; l < 32; l++) {
        c.in[l][0] = (l * 5) % 15; /* x: 13, 14 out of range */
        c.in[l][1] = l % 8;        /* y: 7 out of range */
    }
    c.body = "image_load v[10:13], v[1:2], s[4:11] dmask:0xf dim:SQ_RSRC_IMG_2D\n"
             "s_mov_b32 s7, 0x90000000 | (7 | 6 << 3 | 5 << 6 | 4 << 9)\n" /* sel = w, z, y, x */
             "image_load v[14:15], v[1:2], s[4:11] dmask:0x5 dim:SQ_RSRC_IMG_2D\n"
             "s_waitcnt vmcnt(0)\n";
    c.nout = 6;
    ck_assert_int_eq(et_run_on(e, &c), RDX_OK);
    for (unsigned l = 0; l < 32; l++) {
        unsigned x = c.in[l][0], y = c.in[l][1];
        int in = x < W && y < H;
        for (unsigned ch = 0; ch < 4; ch++) {
            float want = in ? img[(y * P + x) * 4 + ch] : 0.0f;
            ck_assert_msg(c.out[l][ch] == et_f(want), "lane %u (%u,%u) ch %u: %08x want %g", l, x,
                          y, ch, c.out[l][ch], want);
        }
        /* dmask 0x5 after the swizzle (w, z, y, x): channels 0 and 2 = w and y */
        ck_assert_uint_eq(c.out[l][4], et_f(in ? img[(y * P + x) * 4 + 3] : 0.0f));
        ck_assert_uint_eq(c.out[l][5], et_f(in ? img[(y * P + x) * 4 + 1] : 0.0f));
    }
    rdx_emu_destroy(e);
    free(img);
}
END_TEST

/* 8_8_8_8 UNORM: load converts v/255; store rounds clamp(v)*255; d16 16_16_16_16 FLOAT. */
START_TEST(unorm8_and_f16_formats)
{
    enum { W = 9, H = 8 };
    uint8_t *img = img_alloc(4096);
    uint16_t *h16 = img_alloc(4096);
    for (unsigned i = 0; i < W * H * 4; i++)
        img[i] = (uint8_t)(i * 37 + 11);
    for (unsigned i = 0; i < W * H * 4; i++) {
        _Float16 f = (_Float16)((float)i * 0.25f - 7.0f);
        memcpy(&h16[i], &f, 2);
    }
    rdx_emu *e = new_emu(img, 4096);
    ck_assert_int_eq(rdx_emu_map(e, (uint64_t)(uintptr_t)h16, 4096, RDX_EMU_RW), RDX_OK);
    et_case c = { 0 };
    make_tdesc(c.sgpr_in, img, 42, W, H, TY_2D, 0, 0, SEL_XYZW);
    uint32_t t16[8];
    make_tdesc(t16, h16, 57, W, H, TY_2D, 0, 0, SEL_XYZW);
    char body[2048];
    snprintf(
        body, sizeof body,
        "image_load v[10:13], v[1:2], s[4:11] dmask:0xf dim:SQ_RSRC_IMG_2D\n"
        "s_waitcnt vmcnt(0)\n"
        "v_mov_b32 v20, v3\n v_mov_b32 v21, 0.5\n v_mov_b32 v22, -1.0\n v_mov_b32 v23, 2.0\n"
        "v_add_nc_u32 v24, 1, v1\n v_mov_b32 v25, v2\n" /* one texel to the right */
        "image_store v[20:23], v[24:25], s[4:11] dmask:0xf dim:SQ_RSRC_IMG_2D\n"
        "s_mov_b32 s20, 0x%x\n s_mov_b32 s21, 0x%x\n s_mov_b32 s22, 0x%x\n s_mov_b32 s23, 0x%x\n"
        "s_mov_b32 s24, 0x%x\n s_mov_b32 s25, 0\n s_mov_b32 s26, 0\n s_mov_b32 s27, 0\n"
        "image_load v[14:17], v[1:2], s[20:27] dmask:0xf dim:SQ_RSRC_IMG_2D\n"
        "image_load v[18:19], v[1:2], s[20:27] dmask:0xf dim:SQ_RSRC_IMG_2D d16\n"
        "s_waitcnt vmcnt(0)\n",
        t16[0], t16[1], t16[2], t16[3], t16[4]);
    c.body = body;
    c.nin = 3;
    for (unsigned l = 0; l < 32; l++) {
        c.in[l][0] = (l % 4) * 2; /* even x: the store at x+1 never hits another lane's load */
        c.in[l][1] = l / 4;       /* y 0..7: every lane its own texels */
        c.in[l][2] = et_f((float)l / 31.0f);
    }
    uint8_t before[W * H * 4];
    memcpy(before, img, sizeof before);
    c.nout = 10;
    ck_assert_int_eq(et_run_on(e, &c), RDX_OK);
    for (unsigned l = 0; l < 32; l++) {
        unsigned x = c.in[l][0], y = c.in[l][1];
        for (unsigned ch = 0; ch < 4; ch++) {
            float want = (float)(before[(y * W + x) * 4 + ch] / 255.0);
            ck_assert_msg(c.out[l][ch] == et_f(want), "unorm lane %u ch %u: %08x want %08x", l, ch,
                          c.out[l][ch], et_f(want));
            _Float16 hv;
            memcpy(&hv, &h16[(y * W + x) * 4 + ch], 2);
            ck_assert_uint_eq(c.out[l][4 + ch], et_f((float)hv));
        }
        /* d16: two halves per VGPR, the f16 bits themselves */
        const uint16_t *t = &h16[(y * W + x) * 4];
        ck_assert_uint_eq(c.out[l][8], t[0] | (uint32_t)t[1] << 16);
        ck_assert_uint_eq(c.out[l][9], t[2] | (uint32_t)t[3] << 16);
        /* the stored texel (x+1, y): r = l/31 rounded, g = 0.5 -> 128, b = clamp(-1) = 0,
         * a = clamp(2) = 255 */
        const uint8_t *s = &img[(y * W + x + 1) * 4];
        ck_assert_uint_eq(s[0], (unsigned)lrint((double)((float)l / 31.0f) * 255.0));
        ck_assert_uint_eq(s[1], 128);
        ck_assert_uint_eq(s[2], 0);
        ck_assert_uint_eq(s[3], 255);
    }
    rdx_emu_destroy(e);
    free(img);
    free(h16);
}
END_TEST

/* 1D, 1D array, 2D array (with BASE_ARRAY) and 3D addressing with 32_32_UINT; NSA addresses. */
START_TEST(dims_and_arrays)
{
    enum { W = 5, H = 3, D = 4 };
    uint32_t *img = img_alloc(W * H * D * 8);
    for (unsigned i = 0; i < W * H * D * 2; i++)
        img[i] = 0x1000 + i;
    rdx_emu *e = new_emu(img, W * H * D * 8);
    et_case c = { 0 };
    c.nin = 3;
    for (unsigned l = 0; l < 32; l++) {
        c.in[l][0] = l % 6;       /* x (5 out of range) */
        c.in[l][1] = (l / 6) % 4; /* y (3 out of range) */
        c.in[l][2] = l % 5;       /* z / slice */
    }
    /* 3D: texel (x, y, z); slices z*H rows */
    make_tdesc(c.sgpr_in, img, 48, W, H, TY_3D, D - 1, 0, SEL_XYZW);
    c.body = "image_load v[10:11], [v1, v2, v3], s[4:11] dmask:0x3 dim:SQ_RSRC_IMG_3D\n"
             "s_waitcnt vmcnt(0)\n";
    c.nout = 2;
    ck_assert_int_eq(et_run_on(e, &c), RDX_OK);
    for (unsigned l = 0; l < 32; l++) {
        unsigned x = c.in[l][0], y = c.in[l][1], z = c.in[l][2];
        int in = x < W && y < H && z < D;
        ck_assert_uint_eq(c.out[l][0], in ? img[((z * H + y) * W + x) * 2] : 0);
        ck_assert_uint_eq(c.out[l][1], in ? img[((z * H + y) * W + x) * 2 + 1] : 0);
    }
    /* 2D array, view = slices 1..2 (BASE_ARRAY 1, DEPTH = last slice 2) */
    make_tdesc(c.sgpr_in, img, 48, W, H, TY_2D_ARRAY, 2, 1, SEL_XYZW);
    c.body = "image_load v[10:11], v[1:3], s[4:11] dmask:0x3 dim:SQ_RSRC_IMG_2D_ARRAY\n"
             "s_waitcnt vmcnt(0)\n";
    ck_assert_int_eq(et_run_on(e, &c), RDX_OK);
    for (unsigned l = 0; l < 32; l++) {
        unsigned x = c.in[l][0], y = c.in[l][1], s = c.in[l][2] + 1;
        int in = x < W && y < H && s <= 2;
        ck_assert_msg(c.out[l][0] == (in ? img[((s * H + y) * W + x) * 2] : 0u),
                      "2D array lane %u: %x", l, c.out[l][0]);
    }
    /* 1D array: (x, slice), rows of W texels */
    make_tdesc(c.sgpr_in, img, 48, W, 1, TY_1D_ARRAY, 3, 0, SEL_XYZW);
    c.body = "image_load v10, [v1, v3], s[4:11] dmask:0x2 dim:SQ_RSRC_IMG_1D_ARRAY\n"
             "s_waitcnt vmcnt(0)\n";
    c.nout = 1;
    ck_assert_int_eq(et_run_on(e, &c), RDX_OK);
    for (unsigned l = 0; l < 32; l++) {
        unsigned x = c.in[l][0], s = c.in[l][2];
        int in = x < W && s <= 3;
        ck_assert_uint_eq(c.out[l][0], in ? img[(s * W + x) * 2 + 1] : 0);
    }
    /* 1D, 32_UINT (format 20): x only; image_load_mip with mip 0 and mip 1 (> LAST_LEVEL) */
    make_tdesc(c.sgpr_in, img, 20, 20, 1, TY_1D, 0, 0, SEL_XYZW);
    c.body = "v_mov_b32 v20, v1\n v_mov_b32 v21, 0\n v_mov_b32 v22, v1\n v_mov_b32 v23, 1\n"
             "image_load v10, v1, s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_1D\n"
             "image_load_mip v11, v[20:21], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_1D\n"
             "image_load_mip v12, v[22:23], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_1D\n"
             "image_load v[13:14], v1, s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_1D tfe\n"
             "s_waitcnt vmcnt(0)\n";
    c.nout = 5;
    ck_assert_int_eq(et_run_on(e, &c), RDX_OK);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(c.out[l][0], img[c.in[l][0]]);
        ck_assert_uint_eq(c.out[l][1], img[c.in[l][0]]);
        ck_assert_uint_eq(c.out[l][2], 0);
        ck_assert_uint_eq(c.out[l][3], img[c.in[l][0]]);
        ck_assert_uint_eq(c.out[l][4], 0); /* TFE status: success */
    }
    rdx_emu_destroy(e);
    free(img);
}
END_TEST

/* image_atomic_add (all lanes on 4 texels), returning add (distinct texels), cmpswap,
 * umax; image_get_resinfo. */
START_TEST(atomics_pck_resinfo)
{
    enum { W = 40, H = 2 };
    uint32_t *img = img_alloc(W * H * 4);
    for (unsigned i = 0; i < W * H; i++)
        img[i] = i * 3;
    uint32_t orig[W * H];
    memcpy(orig, img, sizeof orig);
    rdx_emu *e = new_emu(img, W * H * 4);
    et_case c = { 0 };
    make_tdesc(c.sgpr_in, img, 20, W, H, TY_2D, 0, 0, SEL_XYZW);
    c.nin = 2;
    for (unsigned l = 0; l < 32; l++) {
        c.in[l][0] = l;
        c.in[l][1] = 1;
    }
    c.body = "v_mov_b32 v20, v1\n v_mov_b32 v21, 1\n" /* (l, 1): distinct texels */
             "v_mov_b32 v10, 5\n"
             "image_atomic_add v10, v[20:21], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D glc\n"
             "v_and_b32 v22, 3, v1\n v_mov_b32 v23, 0\n" /* (l%4, 0): shared texels */
             "v_mov_b32 v24, v1\n"
             "image_atomic_add v24, v[22:23], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D\n"
             /* texel (32+l, 0) holds 96+3l: lanes compare with 96+3l (even lanes: swap to 777)
              * or 95+3l (odd lanes: no swap) */
             "v_mov_b32 v11, 777\n v_mul_u32_u24 v12, 3, v1\n v_add_nc_u32 v12, 96, v12\n"
             "v_and_b32 v30, 1, v1\n v_sub_nc_u32 v12, v12, v30\n"
             "v_add_nc_u32 v25, 32, v1\n v_mov_b32 v26, 0\n"
             "image_atomic_cmpswap v[11:12], v[25:26], s[4:11] dmask:0x3 dim:SQ_RSRC_IMG_2D glc\n"
             "s_waitcnt vmcnt(0)\n"
             "v_mov_b32 v13, 0x7fffffff\n v_mov_b32 v27, 39\n v_mov_b32 v28, 0\n"
             "image_atomic_umax v13, v[27:28], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D\n"
             "v_mov_b32 v29, 0\n"
             "image_get_resinfo v[14:17], v29, s[4:11] dmask:0xf dim:SQ_RSRC_IMG_2D\n"
             "s_waitcnt vmcnt(0)\n";
    c.nout = 8;
    ck_assert_int_eq(et_run_on(e, &c), RDX_OK);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(c.out[l][0], orig[W + l]); /* old value returned */
        ck_assert_uint_eq(img[W + l], orig[W + l] + 5);
        ck_assert_uint_eq(c.out[l][4], W);
        ck_assert_uint_eq(c.out[l][5], H);
        ck_assert_uint_eq(c.out[l][6], 1);
        ck_assert_uint_eq(c.out[l][7], 1);
    }
    /* shared texels (k, 0): + sum of lanes l with l%4 == k */
    for (unsigned k = 0; k < 4; k++) {
        uint32_t s = 0;
        for (unsigned l = k; l < 32; l += 4)
            s += l;
        ck_assert_uint_eq(img[k], orig[k] + s);
    }
    /* cmpswap on texels 32..39 (lanes 0..7; lanes 8+ out of range: x >= 40) */
    for (unsigned l = 0; l < 32; l++) {
        unsigned x = 32 + l;
        if (x >= W) {
            ck_assert_uint_eq(c.out[l][1], 0); /* out of range: returns 0 */
            continue;
        }
        ck_assert_uint_eq(c.out[l][1], orig[x]); /* old */
        if (x < 39)
            ck_assert_uint_eq(img[x], l % 2 ? orig[x] : 777);
    }
    ck_assert_uint_eq(img[39], 0x7fffffffu); /* umax after the odd lane 7 kept 117 */
    rdx_emu_destroy(e);
    free(img);
}
END_TEST

/* image_sample with point filtering: unnormalized coordinates, and normalized ones with
 * wrap / clamp / mirror / border addressing. */
START_TEST(sample_point)
{
    enum { W = 8, H = 4 };
    float *img = img_alloc(W * H * 4);
    for (unsigned i = 0; i < W * H; i++)
        img[i] = 10.0f + (float)i;
    rdx_emu *e = new_emu(img, W * H * 4);
    static const unsigned modes[4] = { 0, 1, 2, 6 };
    for (unsigned mi = 0; mi < 4; mi++) {
        et_case c = { 0 };
        make_tdesc(c.sgpr_in, img, 22, W, H, TY_2D, 0, 0, SEL_XYZW);
        c.nin = 2;
        for (unsigned l = 0; l < 32; l++) {
            c.in[l][0] = et_f(((float)l - 12.0f) * 0.11f); /* -1.32 .. 2.09 */
            c.in[l][1] = et_f((float)(l % 5) * 0.3f - 0.2f);
        }
        unsigned m = modes[mi];
        char body[1024];
        snprintf(body, sizeof body,
                 "s_mov_b32 s20, 0x%x\n s_mov_b32 s21, 0\n s_mov_b32 s22, 0\n s_mov_b32 s23, 0\n"
                 "image_sample v10, v[1:2], s[4:11], s[20:23] dmask:0x1 dim:SQ_RSRC_IMG_2D\n"
                 "v_mul_f32 v20, 0x41000000, v1\n v_mul_f32 v21, 4.0, v2\n"
                 "s_mov_b32 s20, 0x%x\n" /* FORCE_UNNORMALIZED */
                 "image_sample v11, v[20:21], s[4:11], s[20:23] dmask:0x1 dim:SQ_RSRC_IMG_2D\n"
                 "s_waitcnt vmcnt(0)\n",
                 m | m << 3 | m << 6, m | m << 3 | m << 6 | 1u << 15);
        c.body = body;
        c.nout = 2;
        ck_assert_int_eq(et_run_on(e, &c), RDX_OK);
        for (unsigned l = 0; l < 32; l++) {
            float u = et_uf(c.in[l][0]), v = et_uf(c.in[l][1]);
            long coord[2] = { (long)floor((double)(u * 8.0f)), (long)floor((double)(v * 4.0f)) };
            long n[2] = { W, H };
            int border = 0;
            for (int i = 0; i < 2; i++) {
                long k = coord[i], N = n[i];
                if (m == 0)
                    k = ((k % N) + N) % N;
                else if (m == 1) {
                    long j = ((k % (2 * N)) + 2 * N) % (2 * N);
                    k = j < N ? j : 2 * N - 1 - j;
                } else if (m == 2)
                    k = k < 0 ? 0 : k >= N ? N - 1 : k;
                else if (k < 0 || k >= N)
                    border = 1;
                coord[i] = k;
            }
            float want = border ? 0.0f : img[coord[1] * W + coord[0]];
            ck_assert_msg(c.out[l][0] == et_f(want), "mode %u lane %u (%g,%g): %g want %g", m, l, u,
                          v, et_uf(c.out[l][0]), want);
            ck_assert_msg(c.out[l][1] == et_f(want), "mode %u unnorm lane %u: %g want %g", m, l,
                          et_uf(c.out[l][1]), want);
        }
    }
    rdx_emu_destroy(e);
    free(img);
}
END_TEST

/* Unsupported layouts and unmapped images stop the dispatch with a report. */
START_TEST(mimg_faults)
{
    uint32_t *img = img_alloc(4096);
    memset(img, 0, 4096);
    rdx_emu *e = new_emu(img, 4096);
    et_case c = { 0 };
    make_tdesc(c.sgpr_in, img, 20, 16, 16, TY_2D, 0, 0, SEL_XYZW);
    c.sgpr_in[3] |= 9u << 20; /* a tiled swizzle mode */
    c.body =
        "v_mov_b32 v20, 0\n v_mov_b32 v21, 0\n"
        "image_load v10, v[20:21], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D\n s_waitcnt vmcnt(0)\n";
    ck_assert_int_eq(et_run_on(e, &c), RDX_ERR_UNSUPPORTED);
    ck_assert_int_eq(rdx_emu_last_fault(e)->kind, RDX_EMU_FAULT_UNIMPLEMENTED);
    ck_assert_msg(strstr(rdx_error_message(), "swizzle mode 9") &&
                      strstr(rdx_error_message(), "image_load"),
                  "%s", rdx_error_message());
    /* a texel beyond the registered memory: VM fault with its address */
    make_tdesc(c.sgpr_in, img, 20, 2048, 16384, TY_2D, 0, 0, SEL_XYZW);
    c.body =
        "v_mov_b32 v20, 0\n v_mov_b32 v21, 10000\n"
        "image_load v10, v[20:21], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D\n s_waitcnt vmcnt(0)\n";
    ck_assert_int_eq(et_run_on(e, &c), RDX_ERR_FAULT);
    const rdx_emu_fault *f = rdx_emu_last_fault(e);
    ck_assert_int_eq(f->kind, RDX_EMU_FAULT_VM);
    ck_assert_uint_eq(f->address, (uint64_t)(uintptr_t)img + 10000ull * 2048 * 4);
    /* an MSAA resource type */
    make_tdesc(c.sgpr_in, img, 20, 16, 16, 14, 0, 0, SEL_XYZW);
    ck_assert_int_eq(et_run_on(e, &c), RDX_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(rdx_error_message(), "resource type 14"), "%s", rdx_error_message());
    rdx_emu_destroy(e);
    free(img);
}
END_TEST

Suite *et_suite_mimg(void)
{
    Suite *s = suite_create("emu_mimg");
    TCase *t = tcase_create("mimg");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, load_2d_rgba32f_pitch_and_swizzle);
    tcase_add_test(t, unorm8_and_f16_formats);
    tcase_add_test(t, dims_and_arrays);
    tcase_add_test(t, atomics_pck_resinfo);
    tcase_add_test(t, sample_point);
    tcase_add_test(t, mimg_faults);
    suite_add_tcase(s, t);
    return s;
}
