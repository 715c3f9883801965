/* tests/emu/check_mem.c — SMEM, global/scratch loads/stores/atomics, LDS and barriers. */
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
    suite_add_tcase(s, t);
    return s;
}
