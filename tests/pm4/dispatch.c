/*
 * tests/pm4/dispatch.c — the gfx11 compute dispatch sequence: exact dwords
 * written out by hand (register offsets from Mesa's R_00Bxxx byte offsets,
 * fields from gc_11_0_0_sh_mask.h / AMDGPUUsage), a golden disassembly, and
 * validation of the descriptor.
 *
 * Regenerate the golden file with RDX_UPDATE_GOLDEN=1 (then review the diff).
 */
#include <stdlib.h>
#include <string.h>

#include "tests/harness/harness.h"
#include "tests/pm4/pm4_tests.h"

#define GOLDEN "tests/data/pm4/dispatch.golden"

static rdx_pm4_dispatch_desc sample_desc(void)
{
    rdx_pm4_dispatch_desc d = {
        .code_addr = 0x7f0012345600ull,
        .rsrc1 = 0x60af0081,
        .rsrc2 = (4u << 1) | (1u << 7), /* USER_SGPR = 4, TGID_X_EN */
        .rsrc3 = 0,
        .user_sgpr = { 0x1000, 0x7f, 0x2000, 0x0 },
        .user_sgpr_count = 4,
        .grid = { 8, 4, 1 },
        .block = { 64, 2, 1 },
        .lds_bytes = 1000,
        .scratch_addr = 0x7e0000000000ull,
        .scratch_waves = 32,
        .scratch_wave_bytes = 1000,
        .resource_limits = 0,
        .wave32 = true,
        .acquire = true,
    };
    return d;
}

/* The sequence for sample_desc() + CS partial flush + signal, by hand. */
static const uint32_t want_sequence[] = {
    /* ACQUIRE_MEM, GCR_CNTL 0xc3b1 (amdgpu gfx11 emit_mem_sync) */
    0xc0065800,
    0,
    0xffffffff,
    0x00ffffff,
    0,
    0,
    0xa,
    0xc3b1,
    /* SET_SH_REG COMPUTE_PGM_LO (0xB830 -> 0x2e0c -> +0x20c): addr >> 8 */
    0xc0027602,
    0x20c,
    0x00123456,
    0x7f,
    /* COMPUTE_PGM_RSRC1 (0xB848 -> 0x212) with PRIV (bit 20) set on gfx11 (the CWSR
     * workaround), RSRC2 with LDS_SIZE = ceil(1000/512) = 2 << 15 */
    0xc0027602,
    0x212,
    0x60bf0081,
    0x00010088,
    /* COMPUTE_PGM_RSRC3 (0xB8A0 -> 0x228) */
    0xc0017602,
    0x228,
    0,
    /* COMPUTE_TMPRING_SIZE (0xB860 -> 0x218): WAVES 32 | WAVESIZE ceil(1000/256) = 4 << 12 */
    0xc0017602,
    0x218,
    0x4020,
    /* COMPUTE_DISPATCH_SCRATCH_BASE_LO/HI (0xB840 -> 0x210): 0x7e0000000000 >> 8 */
    0xc0027602,
    0x210,
    0,
    0x7e,
    /* COMPUTE_USER_DATA_0..3 (0xB900 -> 0x240) */
    0xc0047602,
    0x240,
    0x1000,
    0x7f,
    0x2000,
    0,
    /* COMPUTE_RESOURCE_LIMITS (0xB854 -> 0x215) */
    0xc0017602,
    0x215,
    0,
    /* COMPUTE_RESTART_X..Z (0xB86C -> 0x21b): 0 */
    0xc0037602,
    0x21b,
    0,
    0,
    0,
    /* COMPUTE_START_X..Z, NUM_THREAD_X..Z (0xB810 -> 0x204) */
    0xc0067602,
    0x204,
    0,
    0,
    0,
    64,
    2,
    1,
    /* DISPATCH_DIRECT 8x4x1, initiator COMPUTE_SHADER_EN | FORCE_START_AT_000 | CS_W32_EN */
    0xc0031502,
    8,
    4,
    1,
    0x8005,
    /* EVENT_WRITE CS_PARTIAL_FLUSH */
    0xc0004600,
    0x407,
    /* RELEASE_MEM signal (amdgpu gfx11 emit_fence, 64-bit, interrupt) */
    0xc0064900,
    0x06603514,
    0x42000000,
    0x00002000,
    0x7f,
    1,
    0,
    3,
};

static void build_sequence(rdx_pm4_cmdbuf *cb)
{
    rdx_pm4_dispatch_desc d = sample_desc();
    ck_assert_int_eq(rdx_pm4_dispatch(cb, &d), RDX_OK);
    rdx_pm4_cs_partial_flush(cb);
    rdx_pm4_signal(cb, 0x7f00002000ull, 1, true, 3);
}

START_TEST(dispatch_sequence_exact_dwords)
{
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    build_sequence(&cb);
    CHECK_DWORDS(&cb, want_sequence);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

START_TEST(dispatch_wave64_no_acquire_no_user_sgprs)
{
    rdx_pm4_dispatch_desc d = sample_desc();
    d.wave32 = false;
    d.acquire = false;
    d.user_sgpr_count = 0;
    d.rsrc2 = 0;
    d.lds_bytes = 0;
    d.scratch_addr = 0;
    d.scratch_waves = 0;
    d.scratch_wave_bytes = 0;
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    ck_assert_int_eq(rdx_pm4_dispatch(&cb, &d), RDX_OK);
    const uint32_t want[] = {
        0xc0027602, 0x20c, 0x00123456, 0x7f,       0xc0027602, 0x212,      0x60bf0081, 0,
        0xc0017602, 0x228, 0,          0xc0017602, 0x218,      0,          0xc0027602, 0x210,
        0,          0,     0xc0017602, 0x215,      0,          0xc0037602, 0x21b,      0,
        0,          0,     0xc0067602, 0x204,      0,          0,          0,          64,
        2,          1,     0xc0031502, 8,          4,          1,          0x5,
    };
    CHECK_DWORDS(&cb, want);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

/* gfx12 (gfx_major 12): rsrc1 as the descriptor has it (no forced PRIV: tinygrad sets it on
 * gfx11 only) and TMPRING_SIZE.WAVESIZE in 18 bits [29:12] (gc_12_0_0_sh_mask.h): a wave of
 * 0x1000000 bytes (0x10000 units of 256) fits on gfx12 and not on gfx11; gfx_major 13 is
 * refused. */
START_TEST(dispatch_gfx12_rsrc1_and_wavesize)
{
    rdx_pm4_dispatch_desc d = sample_desc();
    d.gfx_major = 12;
    d.scratch_wave_bytes = 0x1000000;
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    ck_assert_int_eq(rdx_pm4_dispatch(&cb, &d), RDX_OK);
    const uint32_t *w = cb.dw;
    /* ACQUIRE_MEM (8 dwords), PGM_LO/HI (4), then RSRC1/2 */
    ck_assert_uint_eq(w[12], 0xc0027602);
    ck_assert_uint_eq(w[13], 0x212);
    ck_assert_uint_eq(w[14], 0x60af0081); /* bit 20 stays clear */
    /* RSRC3 (3 dwords) then TMPRING_SIZE: WAVES 32 | 0x10000 << 12 */
    ck_assert_uint_eq(w[19], 0xc0017602);
    ck_assert_uint_eq(w[20], 0x218);
    ck_assert_uint_eq(w[21], 0x10000000u | 32u);
    rdx_pm4_cmdbuf_free(&cb);
    d.gfx_major = 11; /* the same size overflows gfx11's 15 bits */
    rdx_pm4_cmdbuf_init(&cb);
    ck_assert_int_eq(rdx_pm4_dispatch(&cb, &d), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "<= 8388352 (gfx11)"));
    rdx_pm4_cmdbuf_free(&cb);
    d.gfx_major = 13;
    rdx_pm4_cmdbuf_init(&cb);
    ck_assert_int_eq(rdx_pm4_dispatch(&cb, &d), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "gfx_major = 13"));
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

/* A grid of 100x3x5 work-items in 64x2x1 groups: DISPATCH_DIRECT counts
 * work-items, NUM_THREAD_X/Y carry the partial sizes 100 % 64 = 36 and
 * 3 % 2 = 1 in bits 16..31 (gc_11_0_0_sh_mask.h NUM_THREAD_PARTIAL), and the
 * initiator adds PARTIAL_TG_EN (bit 1) and USE_THREAD_DIMENSIONS (bit 5). */
START_TEST(dispatch_work_item_grid_with_partial_groups)
{
    rdx_pm4_dispatch_desc d = sample_desc();
    d.acquire = false;
    memset(d.grid, 0, sizeof d.grid);
    d.items[0] = 100;
    d.items[1] = 3;
    d.items[2] = 5;
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    ck_assert_int_eq(rdx_pm4_dispatch(&cb, &d), RDX_OK);
    const uint32_t want_tail[] = {
        0xc0067602, 0x204,      0,   0, 0, (36u << 16) | 64,    (1u << 16) | 2,
        1,          0xc0031502, 100, 3, 5, 0x8005 | 0x2 | 0x20,
    };
    size_t n = sizeof want_tail / sizeof want_tail[0];
    ck_assert_uint_ge(cb.len, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(cb.dw[cb.len - n + i] == want_tail[i], "tail dword %zu: 0x%08x, want 0x%08x",
                      i, cb.dw[cb.len - n + i], want_tail[i]);
    char *text = pm4_test_disasm(&cb, 0);
    CHECK_HAS(text, "NUM_THREAD_PARTIAL=0x24");
    CHECK_HAS(text, "USE_THREAD_DIMENSIONS=0x1");
    CHECK_HAS(text, "PARTIAL_TG_EN=0x1");
    free(text);
    rdx_pm4_cmdbuf_free(&cb);

    /* Work-items that fill whole groups: thread dimensions, no partial group. */
    d.items[0] = 128;
    d.items[1] = 4;
    rdx_pm4_cmdbuf_init(&cb);
    ck_assert_int_eq(rdx_pm4_dispatch(&cb, &d), RDX_OK);
    const uint32_t want_full[] = { 64, 2, 1, 0xc0031502, 128, 4, 5, 0x8005 | 0x20 };
    n = sizeof want_full / sizeof want_full[0];
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(cb.dw[cb.len - n + i] == want_full[i], "tail dword %zu: 0x%08x, want 0x%08x",
                      i, cb.dw[cb.len - n + i], want_full[i]);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

START_TEST(dispatch_golden_disassembly)
{
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    build_sequence(&cb);
    char *text = pm4_test_disasm(&cb, 0);
    if (getenv("RDX_UPDATE_GOLDEN"))
        rdx_test_write_file(GOLDEN, text, strlen(text));
    char *golden = rdx_test_read_file(GOLDEN, NULL);
    ck_assert_str_eq(text, golden);
    /* And the facts a reader needs are there by name. */
    CHECK_HAS(text, "COMPUTE_PGM_LO=0x00123456");
    CHECK_HAS(text, "COMPUTE_PGM_RSRC2=0x00010088 SCRATCH_EN=0x0 USER_SGPR=0x4");
    CHECK_HAS(text, "LDS_SIZE=0x2");
    CHECK_HAS(text, "COMPUTE_TMPRING_SIZE=0x00004020 WAVES=0x20 WAVESIZE=0x4");
    CHECK_HAS(text, "COMPUTE_USER_DATA_2=0x00002000");
    CHECK_HAS(text, "COMPUTE_NUM_THREAD_X=0x00000040 NUM_THREAD_FULL=0x40");
    CHECK_HAS(text, "DISPATCH_DIRECT count=3 compute");
    CHECK_HAS(text, "CS_W32_EN=0x1");
    CHECK_HAS(text, "EVENT_TYPE=0x7(CS_PARTIAL_FLUSH)");
    CHECK_HAS(text, "INT_SEL=0x2(INT_AFTER_WRITE_CONFIRM)");
    free(golden);
    free(text);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

START_TEST(dispatch_descriptor_errors)
{
    static const struct {
        int which;
        const char *needle;
    } cases[] = {
        { 0, "code_addr" },
        { 1, "user_sgpr_count = 3" },
        { 2, "grid[1] = 0" },
        { 3, "block[2] = 0" },
        { 4, "block[0]*block[1]*block[2] = 2048" },
        { 5, "lds_bytes" },
        { 6, "scratch_waves = 4096" },
        { 7, "scratch_wave_bytes" },
        { 8, "SCRATCH_EN" },
        { 9, "user_sgpr_count = 17" },
        { 10, "items[2] = 0" },
        { 11, "grid[0] = 8 (0x8), expected 0 when the grid is given in items[]" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rdx_pm4_dispatch_desc d = sample_desc();
        switch (cases[i].which) {
        case 0:
            d.code_addr += 4;
            break;
        case 1:
            d.user_sgpr_count = 3;
            break;
        case 2:
            d.grid[1] = 0;
            break;
        case 3:
            d.block[2] = 0;
            break;
        case 4:
            d.block[0] = 1024;
            d.block[1] = 2;
            break;
        case 5:
            d.lds_bytes = 65537;
            break;
        case 6:
            d.scratch_waves = 4096;
            break;
        case 7:
            d.scratch_wave_bytes = 0x7fff * 256 + 1;
            break;
        case 8:
            d.rsrc2 |= 1;
            d.scratch_addr = 0;
            break;
        case 9:
            d.user_sgpr_count = 17;
            break;
        case 10:
            memset(d.grid, 0, sizeof d.grid);
            d.items[0] = d.items[1] = 7;
            break;
        case 11:
            d.items[0] = d.items[1] = d.items[2] = 7;
            break;
        }
        rdx_pm4_cmdbuf cb;
        rdx_pm4_cmdbuf_init(&cb);
        ck_assert_int_eq(rdx_pm4_dispatch(&cb, &d), RDX_ERR_INVALID);
        CHECK_HAS(rdx_error_message(), cases[i].needle);
        ck_assert_uint_eq(cb.len, 0);
        rdx_pm4_cmdbuf_free(&cb);
    }
}
END_TEST

START_TEST(dispatch_into_small_fixed_buffer_leaves_nothing)
{
    uint32_t mem[20];
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init_fixed(&cb, mem, 20);
    rdx_pm4_dispatch_desc d = sample_desc();
    ck_assert_int_eq(rdx_pm4_dispatch(&cb, &d), RDX_ERR_RANGE);
    ck_assert_uint_eq(cb.len, 0);
}
END_TEST

TCase *pm4_dispatch_tcase(void)
{
    TCase *tc = tcase_create("dispatch");
    tcase_add_test(tc, dispatch_sequence_exact_dwords);
    tcase_add_test(tc, dispatch_wave64_no_acquire_no_user_sgprs);
    tcase_add_test(tc, dispatch_gfx12_rsrc1_and_wavesize);
    tcase_add_test(tc, dispatch_golden_disassembly);
    tcase_add_test(tc, dispatch_work_item_grid_with_partial_groups);
    tcase_add_test(tc, dispatch_descriptor_errors);
    tcase_add_test(tc, dispatch_into_small_fixed_buffer_leaves_nothing);
    return tc;
}
