/* tests/emu/check_mem.c — SMEM, global/scratch loads/stores/atomics, LDS and barriers. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/emu/emu_test.h"

START_TEST(smem_and_global_widths)
{
    et_case c = { 0 };
    c.nin = 4;
    for (unsigned l = 0; l < 32; l++)
        for (int i = 0; i < 4; i++)
            c.in[l][i] = 0x01020304u * (l + 1) + (uint32_t)i;
    /* s_load from the input buffer (lane 0's row), byte/short loads with sign extension */
    c.body = "s_load_b128 s[20:23], s[2:3], 0x0\n s_waitcnt lgkmcnt(0)\n"
             "v_mov_b32 v10, s20\n v_mov_b32 v11, s23\n"
             "global_load_i8 v12, v0, s[2:3] offset:3\n global_load_u16 v13, v0, s[2:3] offset:6\n"
             "global_load_b64 v[14:15], v0, s[2:3] offset:8\n s_waitcnt vmcnt(0)\n";
    c.nout = 6;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(c.out[l][0], c.in[0][0]);
        ck_assert_uint_eq(c.out[l][1], c.in[0][3]);
        ck_assert_uint_eq(c.out[l][2], (uint32_t)(int32_t)(int8_t)(c.in[l][0] >> 24));
        ck_assert_uint_eq(c.out[l][3], c.in[l][1] >> 16);
        ck_assert_uint_eq(c.out[l][4], c.in[l][2]);
        ck_assert_uint_eq(c.out[l][5], c.in[l][3]);
    }
}
END_TEST

START_TEST(global_atomics_return)
{
    et_case c = { 0 };
    c.nin = 1;
    for (unsigned l = 0; l < 32; l++)
        c.in[l][0] = l + 1;
    /* every lane adds its value to out[lane 0][15]; returning form gives the running prefix */
    c.body = "v_mov_b32 v20, 0\n v_mov_b32 v21, 0\n global_store_b32 v20, v21, s[0:1] offset:60\n"
             "s_waitcnt_vscnt null, 0\n"
             "global_atomic_add_u32 v10, v20, v1, s[0:1] offset:60 glc\n s_waitcnt vmcnt(0)\n"
             "global_atomic_max_u32 v20, v1, s[0:1] offset:56\n s_waitcnt vmcnt(0)\n";
    c.nout = 1;
    et_ok(&c);
    /* lanes run in order: lane l sees 1+2+...+l */
    for (unsigned l = 0; l < 32; l++)
        ck_assert_uint_eq(c.out[l][0], l * (l + 1) / 2);
    ck_assert_uint_eq(c.out[0][15], 32 * 33 / 2);
}
END_TEST

START_TEST(scratch_per_lane)
{
    et_case c = { 0 };
    c.nin = 1;
    c.scratch = 256;
    for (unsigned l = 0; l < 32; l++)
        c.in[l][0] = 0x1000 + l;
    c.body =
        "v_mov_b32 v20, 16\n scratch_store_b32 v20, v1, off offset:4\n"
        "scratch_store_b32 off, v1, off offset:200\n s_waitcnt_vscnt null, 0\n"
        "scratch_load_b32 v10, off, off offset:20\n scratch_load_b32 v11, v20, off offset:184\n"
        "s_waitcnt vmcnt(0)\n";
    c.nout = 2;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(c.out[l][0], 0x1000 + l);
        ck_assert_uint_eq(c.out[l][1], 0x1000 + l);
    }
}
END_TEST

START_TEST(lds_ops)
{
    et_case c = { 0 };
    c.nin = 1;
    c.lds = 4096;
    for (unsigned l = 0; l < 32; l++)
        c.in[l][0] = 3 * l + 1;
    c.body = "v_lshlrev_b32 v20, 2, v0\n v_lshrrev_b32 v20, 6, v0\n v_lshlrev_b32 v20, 2, v20\n"
             "ds_store_b32 v20, v1\n s_waitcnt lgkmcnt(0)\n"
             "ds_load_2addr_b32 v[10:11], v20 offset0:1 offset1:31\n"
             "v_mov_b32 v21, 0\n ds_add_rtn_u32 v12, v21, v1 offset:1024\n"
             "ds_swizzle_b32 v13, v1 offset:swizzle(SWAP,1)\n"
             "v_lshlrev_b32 v22, 2, v20\n v_xor_b32 v22, 4, v20\n ds_bpermute_b32 v14, v22, v1\n"
             "s_waitcnt lgkmcnt(0)\n";
    c.nout = 5;
    et_ok(&c);
    uint32_t prefix = 0;
    for (unsigned l = 0; l < 32; l++) {
        uint32_t want0 = l + 1 < 32 ? 3 * (l + 1) + 1 : 0; /* LDS beyond 32 words is 0 */
        ck_assert_uint_eq(c.out[l][0], want0);
        uint32_t want1 = l + 31 < 32 ? 3 * (l + 31) + 1 : 0;
        ck_assert_uint_eq(c.out[l][1], want1);
        ck_assert_uint_eq(c.out[l][2], prefix);
        prefix += 3 * l + 1;
        ck_assert_uint_eq(c.out[l][3], 3 * (l ^ 1) + 1);
        ck_assert_uint_eq(c.out[l][4], 3 * (l ^ 1) + 1);
    }
}
END_TEST

/* Two waves exchange data through LDS across s_barrier (wave64 of 2 x wave32 lanes). */
START_TEST(barrier_between_waves)
{
    uint8_t *code;
    size_t len;
    static const char *src =
        "v_lshlrev_b32 v1, 2, v0\n ds_store_b32 v1, v0\n"
        "s_waitcnt lgkmcnt(0)\n s_barrier\n"
        "v_sub_nc_u32 v2, 63, v0\n v_lshlrev_b32 v2, 2, v2\n ds_load_b32 v3, v2\n"
        "s_waitcnt lgkmcnt(0)\n global_store_b32 v1, v3, s[0:1]\n s_endpgm\n";
    code = et_assemble(src, &len);
    uint8_t *buf = aligned_alloc(4096, 4096);
    memset(buf, 0, 4096);
    memcpy(buf, code, len);
    free(code);
    static uint32_t out[64];
    rdx_emu *emu;
    ck_assert_int_eq(rdx_emu_create(NULL, &emu), RDX_OK);
    rdx_emu_map(emu, (uint64_t)(uintptr_t)buf, 4096, RDX_EMU_READ);
    rdx_emu_map(emu, (uint64_t)(uintptr_t)out, sizeof out, RDX_EMU_RW);
    rdx_emu_dispatch d = { 0 };
    d.code = (uint64_t)(uintptr_t)buf;
    d.code_properties = 1u << 10;
    d.rsrc2 = 2u << 1;
    d.grid[0] = d.wg[0] = 64;
    d.group_segment_size = 256;
    d.user_sgpr[0] = (uint32_t)(uintptr_t)out;
    d.user_sgpr[1] = (uint32_t)((uint64_t)(uintptr_t)out >> 32);
    d.user_sgpr_count = 2;
    ck_assert_msg(rdx_emu_run(emu, &d) == RDX_OK, "%s", rdx_error_message());
    for (unsigned l = 0; l < 64; l++)
        ck_assert_uint_eq(out[l], 63 - l);
    const rdx_emu_counters *k = rdx_emu_get_counters(emu);
    ck_assert_uint_eq(k->waves, 2);
    ck_assert_uint_eq(k->by_class[RDX_EMU_CLASS_LDS], 4);
    ck_assert_uint_eq(k->lds_bytes, 2 * 64 * 4);
    rdx_emu_destroy(emu);
    free(buf);
}
END_TEST

/* MUBUF through a buffer resource: in-range lanes load, out-of-range lanes read 0. */
START_TEST(buffer_resource_loads_stores)
{
    et_case c = { 0 };
    c.nin = 1;
    for (unsigned l = 0; l < 32; l++)
        c.in[l][0] = 0xabc00000u + l;
    c.body =
        "s_mov_b32 s8, s2\n s_and_b32 s9, s3, 0xffff\n s_mov_b32 s10, 1024\n s_mov_b32 s11, 0\n"
        "buffer_load_b32 v10, v0, s[8:11], 0 offen\n"
        "buffer_load_b32 v11, v0, s[8:11], 0 offen offset:4\n"
        "v_mov_b32 v20, 3\n buffer_load_b32 v12, v20, s[8:11], 0 idxen\n"
        "s_waitcnt vmcnt(0)\n"
        "s_mov_b32 s12, s0\n s_and_b32 s13, s1, 0xffff\n s_mov_b32 s14, 4096\n s_mov_b32 s15, 0\n"
        "v_mov_b32 v21, 0x77\n buffer_store_b32 v21, v0, s[12:15], 0 offen offset:60\n"
        "v_mov_b32 v22, 1\n v_mov_b32 v23, 0\n"
        "buffer_atomic_add_u32 v22, v23, s[12:15], 0 offen offset:56 glc\n"
        "s_waitcnt vmcnt(0)\n v_mov_b32 v13, v22\n";
    c.nout = 4;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        uint32_t want = l * 64 < 1024 ? 0xabc00000u + l : 0; /* num_records = 1024 bytes */
        ck_assert_uint_eq(c.out[l][0], want);
        ck_assert_uint_eq(c.out[l][1], 0);               /* slot 1 of the input is 0 */
        ck_assert_uint_eq(c.out[l][2], 0xabc00000u);     /* idxen with stride 0: byte 0 */
        ck_assert_uint_eq(c.out[l][3], 0xdeadbeefu + l); /* lanes add 1 in order */
        ck_assert_uint_eq(c.out[l][15], 0x77);
    }
    ck_assert_uint_eq(c.out[0][14], 0xdeadbeefu + 32); /* the buffer starts filled */
}
END_TEST

/* DS atomics with and without return, 64-bit, cmpstore, and f32 add */
START_TEST(ds_atomics)
{
    et_case c = { 0 };
    c.nin = 1;
    c.lds = 256;
    for (unsigned l = 0; l < 32; l++)
        c.in[l][0] = l;
    c.body =
        "v_mov_b32 v20, 0\n v_mov_b32 v21, 100\n ds_store_b32 v20, v21\n"
        "ds_store_b32 v20, v20 offset:4\n ds_store_b32 v20, v20 offset:8\n"
        "ds_max_rtn_u32 v10, v20, v1\n ds_min_i32 v20, v1 offset:4\n"
        "v_cvt_f32_u32 v22, v1\n ds_add_f32 v20, v22 offset:8\n"
        "v_mov_b32 v23, 5\n ds_cmpstore_rtn_b32 v11, v20, v1, v23 offset:16\n"
        "s_waitcnt lgkmcnt(0)\n ds_load_b32 v12, v20 offset:4\n ds_load_b32 v13, v20 offset:8\n"
        "ds_load_b32 v14, v20\n ds_load_b32 v15, v20 offset:16\n s_waitcnt lgkmcnt(0)\n";
    c.nout = 6;
    et_ok(&c);
    uint32_t mx = 100;
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(c.out[l][0], mx); /* returns the old value, lanes in order */
        mx = l > mx ? l : mx;
        ck_assert_uint_eq(c.out[l][2], 0);
        ck_assert_uint_eq(c.out[l][3], et_f(496.0f)); /* 0+1+...+31, exact in f32 */
        ck_assert_uint_eq(c.out[l][4], 100);
    }
    /* cmpstore: only lane 0 sees 0 (== cmp? no: cmp 5); memory stays 0 unless old == 5 */
    ck_assert_uint_eq(c.out[0][1], 0);
    ck_assert_uint_eq(c.out[0][5], 0);
}
END_TEST

/* buffmt.def ids agree with llvm-mc's BUF_FMT_* encodings (bits 25:19 of the first dword) */
START_TEST(buffer_format_table_matches_llvm)
{
    static const struct {
        unsigned id;
        const char *name;
    } tab[] = {
#define BUFFMT(id, name, n, bx, by, bz, bw, nf) { id, #name },
#include "emu/core/buffmt.def"
#undef BUFFMT
    };
    size_t n = sizeof tab / sizeof tab[0];
    char *src = malloc(n * 96);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += (size_t)sprintf(
            src + k, "tbuffer_load_format_x v1, off, s[0:3], 0 format:[BUF_FMT_%s]\n", tab[i].name);
    size_t len;
    uint8_t *bytes = et_assemble(src, &len);
    free(src);
    ck_assert_uint_eq(len, n * 8);
    for (size_t i = 0; i < n; i++) {
        uint32_t d0;
        memcpy(&d0, bytes + 8 * i, 4);
        ck_assert_msg(((d0 >> 19) & 0x7f) == tab[i].id, "BUF_FMT_%s: llvm-mc %u, table %u",
                      tab[i].name, (d0 >> 19) & 0x7f, tab[i].id);
    }
    free(bytes);
}
END_TEST

/* Formatted loads and stores convert per the format */
START_TEST(buffer_formats_convert)
{
    et_case c = { 0 };
    c.nin = 2;
    for (unsigned l = 0; l < 32; l++) {
        c.in[l][0] = 0x01020304u * (l + 1);             /* four UNORM bytes */
        c.in[l][1] = 0x3c00u | (uint32_t)0xc000u << 16; /* f16 1.0, -2.0 */
    }
    /* V# over the input buffer; 32-bit float format in word 3 for buffer_load_format_x */
    c.body =
        "s_mov_b32 s8, s2\n s_and_b32 s9, s3, 0xffff\n s_mov_b32 s10, 8192\n"
        "s_mov_b32 s11, 22 << 12\n"
        "tbuffer_load_format_xyzw v[10:13], v0, s[8:11], 0 format:[BUF_FMT_8_8_8_8_UNORM] offen\n"
        "tbuffer_load_format_xy v[14:15], v0, s[8:11], 0 format:[BUF_FMT_16_16_FLOAT] offen "
        "offset:4\n"
        "tbuffer_load_format_xyzw v[16:19], v0, s[8:11], 0 format:[BUF_FMT_16_SINT] offen "
        "offset:4\n"
        "buffer_load_format_x v20, v0, s[8:11], 0 offen\n"
        "v_mov_b32 v21, 0\n tbuffer_load_d16_format_xy v21, v0, s[8:11], 0 "
        "format:[BUF_FMT_8_8_UINT] offen\n"
        "s_waitcnt vmcnt(0)\n"
        "s_mov_b32 s12, s0\n s_and_b32 s13, s1, 0xffff\n s_mov_b32 s14, 8192\n s_mov_b32 s15, 0\n"
        "v_mov_b32 v22, 0.5\n v_mov_b32 v23, -1.0\n"
        "tbuffer_store_format_xy v[22:23], v0, s[12:15], 0 format:[BUF_FMT_16_16_FLOAT] offen "
        "offset:60\n"
        "v_mov_b32 v14, v14\n";
    c.nout = 12;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        uint32_t x = c.in[l][0];
        for (int k = 0; k < 4; k++)
            ck_assert_uint_eq(c.out[l][k], et_f((float)((x >> (8 * k)) & 255) / 255.0f));
        ck_assert_uint_eq(c.out[l][4], et_f(1.0f));
        ck_assert_uint_eq(c.out[l][5], et_f(-2.0f));
        ck_assert_uint_eq(c.out[l][6], 0x3c00u); /* 16_SINT: one component, sign-extended */
        ck_assert_uint_eq(c.out[l][7], 0);       /* missing y, z read 0 */
        ck_assert_uint_eq(c.out[l][8], 0);
        ck_assert_uint_eq(c.out[l][9], 1);  /* missing w reads 1 */
        ck_assert_uint_eq(c.out[l][10], x); /* 32_FLOAT from the V# format: raw */
        ck_assert_uint_eq(c.out[l][11], (x & 255) | ((x >> 8) & 255) << 16);
        ck_assert_uint_eq(c.out[l][15], 0x3800u | 0xbc00u << 16); /* f16 0.5, -1.0 */
    }
}
END_TEST

/* 64-bit global atomics: cmpswap and add, returning the old value */
START_TEST(global_atomics_64)
{
    et_case c = { 0 };
    c.nin = 2;
    for (unsigned l = 0; l < 32; l++) {
        c.in[l][0] = 0xffffffffu - l;
        c.in[l][1] = l;
    }
    /* every lane works on its own output slots 8..9 (a 64-bit word) */
    c.body =
        "v_mov_b32 v20, v1\n v_mov_b32 v21, v2\n global_store_b64 v0, v[20:21], s[0:1] offset:32\n"
        "s_waitcnt_vscnt null, 0\n v_mov_b32 v22, 5\n v_mov_b32 v23, 0\n"
        "global_atomic_add_u64 v[10:11], v0, v[22:23], s[0:1] offset:32 glc\n s_waitcnt vmcnt(0)\n"
        /* DATA[63:0] = the new value, DATA[127:64] = the compare value (pcode) */
        "v_add_co_u32 v26, vcc_lo, v10, 5\n v_add_co_ci_u32_e32 v27, vcc_lo, 0, v11, vcc_lo\n"
        "v_mov_b32 v24, 0x1234\n v_mov_b32 v25, 0x5678\n"
        "global_atomic_cmpswap_b64 v[12:13], v0, v[24:27], s[0:1] offset:32 glc\n"
        "s_waitcnt vmcnt(0)\n";
    c.nout = 4;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        uint64_t init = (uint64_t)(0xffffffffu - l) | (uint64_t)l << 32;
        ck_assert_uint_eq(c.out[l][0] | (uint64_t)c.out[l][1] << 32, init);
        ck_assert_uint_eq(c.out[l][2] | (uint64_t)c.out[l][3] << 32, init + 5);
        /* the compare matched (old == init + 5): the swap value is in memory */
        ck_assert_uint_eq(c.out[l][8], 0x1234);
        ck_assert_uint_eq(c.out[l][9], 0x5678);
    }
}
END_TEST

/* LDS alignment (docs/emu.md "LDS alignment"): the device runs in the amdgpu driver's
   SH_MEM_CONFIG.alignment_mode = UNALIGNED, so a ds_load_b128 / b96 / b64 at an address that is
   not a multiple of its natural alignment (16 / 16 / 8) reads exactly the addressed bytes; each
   such lane access is counted in lds_misaligned, aligned ones are not.  Lane l's 8 dwords at
   LDS byte 64 l are l << 8 | i (stored with two aligned ds_store_b128). */
static const rdx_emu_counters *lds_align_run(rdx_emu *e, et_case *c, const char *loads)
{
    static char body[512];
    memset(c, 0, sizeof *c);
    c->lds = 2048;
    c->nin = 8;
    for (unsigned l = 0; l < 32; l++)
        for (unsigned i = 0; i < 8; i++)
            c->in[l][i] = l << 8 | i;
    snprintf(body, sizeof body,
             "ds_store_b128 v0, v[1:4]\n ds_store_b128 v0, v[5:8] offset:16\n"
             "s_waitcnt lgkmcnt(0)\n %s s_waitcnt lgkmcnt(0)\n",
             loads);
    c->body = body;
    c->nout = 9;
    ck_assert_int_eq(et_run_on(e, c), RDX_OK);
    return rdx_emu_get_counters(e);
}

START_TEST(lds_alignment)
{
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create("gfx1100", &e), RDX_OK);
    et_case c;
    /* aligned: b128 at 64 l and 64 l + 16, b96 at 64 l + 16, b64 at 64 l + 8 */
    const rdx_emu_counters *k =
        lds_align_run(e, &c,
                      "ds_load_b128 v[10:13], v0\n ds_load_b96 v[14:16], v0 offset:16\n"
                      "ds_load_b64 v[17:18], v0 offset:24\n");
    ck_assert_uint_eq(k->lds_misaligned, 0);
    for (unsigned l = 0; l < 32; l++) {
        for (unsigned i = 0; i < 4; i++)
            ck_assert_uint_eq(c.out[l][i], l << 8 | i);
        for (unsigned i = 0; i < 3; i++)
            ck_assert_uint_eq(c.out[l][4 + i], l << 8 | (4 + i));
        ck_assert_uint_eq(c.out[l][7], l << 8 | 6);
        ck_assert_uint_eq(c.out[l][8], l << 8 | 7);
    }
    /* misaligned: b128 at 64 l + 4 (dword aligned only), b96 at 64 l + 8 (8 but not 16),
       b64 at 64 l + 18 (2-byte aligned): the addressed bytes, 3 counts per lane */
    k = lds_align_run(e, &c,
                      "ds_load_b128 v[10:13], v0 offset:4\n ds_load_b96 v[14:16], v0 offset:8\n"
                      "ds_load_b64 v[17:18], v0 offset:18\n");
    ck_assert_uint_eq(k->lds_misaligned, 3 * 32);
    for (unsigned l = 0; l < 32; l++) {
        for (unsigned i = 0; i < 4; i++)
            ck_assert_uint_eq(c.out[l][i], l << 8 | (1 + i));
        for (unsigned i = 0; i < 3; i++)
            ck_assert_uint_eq(c.out[l][4 + i], l << 8 | (2 + i));
        uint32_t d4 = l << 8 | 4, d5 = l << 8 | 5, d6 = l << 8 | 6;
        ck_assert_uint_eq(c.out[l][7], d4 >> 16 | d5 << 16);
        ck_assert_uint_eq(c.out[l][8], d5 >> 16 | d6 << 16);
    }
    /* 2addr forms count each address: b32 pairs at 4-aligned addresses are aligned, b64 pairs
       at 64 l + 4 and 64 l + 12 are not */
    k = lds_align_run(e, &c,
                      "ds_load_2addr_b32 v[10:11], v0 offset0:1 offset1:3\n"
                      "v_add_nc_u32 v20, 4, v0\n ds_load_2addr_b64 v[12:15], v20 offset1:1\n");
    ck_assert_uint_eq(k->lds_misaligned, 2 * 32);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(c.out[l][0], l << 8 | 1);
        ck_assert_uint_eq(c.out[l][1], l << 8 | 3);
        for (unsigned i = 0; i < 4; i++)
            ck_assert_uint_eq(c.out[l][2 + i], l << 8 | (1 + i));
    }
    /* atomics must be aligned to their data size in every mode: a MEMVIOL, here a fault */
    static const struct {
        const char *body;
        uint32_t addr;
    } bad[] = {
        { "v_mov_b32 v20, 6\n ds_add_u32 v20, v1\n s_waitcnt lgkmcnt(0)\n", 6 },
        { "v_mov_b32 v20, 4\n ds_add_u64 v20, v[1:2]\n s_waitcnt lgkmcnt(0)\n", 4 },
        { "v_mov_b32 v20, 0\n ds_max_rtn_u32 v10, v20, v1 offset:2\n s_waitcnt lgkmcnt(0)\n", 2 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        memset(&c, 0, sizeof c);
        c.lds = 64;
        c.nin = 2;
        c.body = bad[i].body;
        ck_assert_int_eq(et_run_on(e, &c), RDX_ERR_FAULT);
        const rdx_emu_fault *f = rdx_emu_last_fault(e);
        ck_assert_int_eq(f->kind, RDX_EMU_FAULT_LDS);
        ck_assert_uint_eq(f->address, bad[i].addr);
        ck_assert_msg(strstr(f->message, "misaligned atomic"), "%s", f->message);
    }
    /* an aligned one runs */
    memset(&c, 0, sizeof c);
    c.lds = 64;
    c.nin = 2;
    c.body = "v_mov_b32 v20, 8\n ds_add_u64 v20, v[1:2]\n s_waitcnt lgkmcnt(0)\n";
    ck_assert_int_eq(et_run_on(e, &c), RDX_OK);
    rdx_emu_destroy(e);
}
END_TEST

/* Body of one memory fast-path case: the address shape `addr` (v20 = the lane's offset,
   v21 = lane * 4), then the loads and stores under test, each either with every lane
   active (the fast paths) or in two halves of EXEC (the general path).  Stores go to
   the output rows of lanes 32..63, which a wave32 case's epilogue does not write. */
static char *mem_case_body(const char *addr, bool split)
{
    static const char *ops[] = {
        "global_load_b32 v10, v20, s[2:3]",
        "global_load_b64 v[11:12], v20, s[2:3] offset:16",
        "global_load_b128 v[13:16], v20, s[2:3] offset:32",
        "global_load_u16 v17, v20, s[2:3] offset:2",
        "global_load_b32 v18, v[22:23], off offset:4",
        "global_store_b32 v34, v1, s[0:1] offset:2048",
        "global_store_b64 v34, v[2:3], s[0:1] offset:2560",
        "global_store_b16 v[24:25], v1, off offset:3000",
        "ds_store_b32 v26, v1",
        "ds_store_2addr_b32 v26, v2, v3 offset0:64 offset1:200",
        "ds_store_b64 v27, v[2:3] offset:1024",
        "ds_load_b32 v19, v26 offset:4",
        "ds_load_2addr_b32 v[28:29], v26 offset0:64 offset1:201",
        "ds_load_b128 v[30:33], v27 offset:1024",
    };
    size_t cap = 8192, k = 0;
    char *b = malloc(cap);
    ck_assert_ptr_nonnull(b);
    k += (size_t)snprintf(
        b + k, cap - k,
        "v_lshrrev_b32 v21, 4, v0\n%s\n"
        "v_add_co_u32 v22, vcc_lo, s2, v20\n v_add_co_ci_u32 v23, vcc_lo, s3, 0, vcc_lo\n"
        "v_and_b32 v34, 0x1fe, v20\n v_add_co_u32 v24, vcc_lo, s0, v34\n v_add_co_ci_u32 v25, "
        "vcc_lo, s1, 0, vcc_lo\n"
        "v_and_b32 v26, 0x3fc, v20\n v_and_b32 v27, 0x3f8, v20\n",
        addr);
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (split)
            k += (size_t)snprintf(b + k, cap - k,
                                  "s_mov_b32 exec_lo, 0xffff\n%s\n s_mov_b32 exec_lo, 0xffff0000\n"
                                  "%s\n s_mov_b32 exec_lo, -1\n",
                                  ops[i], ops[i]);
        else
            k += (size_t)snprintf(b + k, cap - k, "%s\n", ops[i]);
        k += (size_t)snprintf(b + k, cap - k,
                              "s_waitcnt vmcnt(0) lgkmcnt(0)\n s_waitcnt_vscnt null, 0\n");
    }
    k += (size_t)snprintf(b + k, cap - k,
                          "v_mov_b32 v11, v28\n v_mov_b32 v12, v29\n v_xor_b32 v13, v13, v30\n"
                          "v_xor_b32 v14, v14, v33\n");
    ck_assert_uint_lt(k, cap);
    return b;
}

START_TEST(mem_fast_paths_match_general)
{
    /* lane offsets: contiguous, uniform, descending, strided, overlapping (stride 2 and 0
       for stores too), a stride beyond a line, scattered (no fast path), and two rows of
       16 lanes, contiguous or uniform within each (a tile's rows) */
    static const char *addr[] = {
        "v_mov_b32 v20, v21",
        "v_mov_b32 v20, 40",
        "v_sub_nc_u32 v20, 0x1f0, v21",
        "v_lshlrev_b32 v20, 1, v21",
        "v_lshrrev_b32 v20, 1, v21",
        "v_lshrrev_b32 v20, 2, v21\n v_mul_u32_u24 v20, 0x82, v20",
        "v_mul_u32_u24 v20, v21, v21\n v_and_b32 v20, 0x1fc, v20",
        "v_and_b32 v20, 60, v21\n v_lshrrev_b32 v35, 6, v21\n v_lshl_add_u32 v20, v35, 8, v20",
        "v_lshrrev_b32 v20, 6, v21\n v_mul_u32_u24 v20, 0x44, v20",
    };
    for (size_t a = 0; a < sizeof addr / sizeof addr[0]; a++) {
        et_case c[2];
        for (int split = 0; split < 2; split++) {
            memset(&c[split], 0, sizeof c[split]);
            c[split].nin = 3;
            c[split].lds = 4096;
            for (unsigned l = 0; l < 64; l++)
                for (unsigned i = 0; i < ET_SLOTS; i++)
                    c[split].in[l][i] = 0x9e3779b9u * (l * ET_SLOTS + i + 1);
            char *body = mem_case_body(addr[a], split);
            c[split].body = body;
            c[split].nout = 10;
            et_ok(&c[split]);
            free(body);
        }
        for (unsigned l = 0; l < 64; l++)
            for (unsigned i = 0; i < ET_SLOTS; i++)
                if (c[0].out[l][i] != c[1].out[l][i])
                    ck_abort_msg("address shape %zu: out[%u][%u] 0x%08x with full EXEC, 0x%08x in "
                                 "halves",
                                 a, l, i, c[0].out[l][i], c[1].out[l][i]);
    }
}
END_TEST

/* A full-EXEC contiguous load or DS load whose upper lanes run off the buffer faults at the
   first lane outside it, as the lane-by-lane check did (the fast path checks the wave). */
START_TEST(mem_fast_path_faults_at_first_lane)
{
    static const struct {
        const char *body;
        rdx_emu_fault_kind kind;
        uint64_t addr; /* LDS faults: the address */
    } cases[] = {
        { "v_lshrrev_b32 v20, 4, v0\n global_load_b32 v10, v20, s[2:3] offset:4032\n"
          "s_waitcnt vmcnt(0)",
          RDX_EMU_FAULT_VM, 4096 },
        { "v_lshrrev_b32 v20, 4, v0\n ds_load_b32 v10, v20 offset:448\n s_waitcnt lgkmcnt(0)",
          RDX_EMU_FAULT_LDS, 512 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        et_case c = { 0 };
        c.lds = 512;
        c.body = cases[i].body;
        rdx_emu *emu;
        ck_assert_int_eq(rdx_emu_create("gfx1100", &emu), RDX_OK);
        rdx_emu_set_threads(emu, 1);
        ck_assert_int_ne(et_run_on(emu, &c), RDX_OK);
        const rdx_emu_fault *f = rdx_emu_last_fault(emu);
        ck_assert_int_eq(f->kind, cases[i].kind);
        ck_assert_uint_eq(f->lane, 16);
        /* the faulting instruction's PC: after the prologue's shift, wait and v20's shift */
        ck_assert_ptr_nonnull(strstr(f->message, "(code+0xc)"));
        if (cases[i].kind == RDX_EMU_FAULT_LDS)
            ck_assert_uint_eq(f->address, cases[i].addr);
        else /* the input buffer is 4096 bytes */
            ck_assert_ptr_nonnull(strstr(f->message, "(offset 4096)"));
        rdx_emu_destroy(emu);
    }
}
END_TEST

Suite *et_suite_mem(void)
{
    Suite *s = suite_create("emu_mem");
    TCase *t = tcase_create("mem");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, smem_and_global_widths);
    tcase_add_test(t, global_atomics_return);
    tcase_add_test(t, scratch_per_lane);
    tcase_add_test(t, lds_ops);
    tcase_add_test(t, barrier_between_waves);
    tcase_add_test(t, buffer_resource_loads_stores);
    tcase_add_test(t, ds_atomics);
    tcase_add_test(t, buffer_format_table_matches_llvm);
    tcase_add_test(t, buffer_formats_convert);
    tcase_add_test(t, global_atomics_64);
    tcase_add_test(t, lds_alignment);
    tcase_add_test(t, mem_fast_path_faults_at_first_lane);
    suite_add_tcase(s, t);
    /* 18 kernels assembled by llvm-mc: more time on a loaded machine */
    TCase *f = tcase_create("mem_fast");
    tcase_set_timeout(f, 300);
    tcase_add_test(f, mem_fast_paths_match_general);
    suite_add_tcase(s, f);
    return s;
}
