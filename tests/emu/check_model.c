/*
 * tests/emu/check_model.c — the kernel-level time estimate
 * (rdx_emu_counters.est_*, docs/emu.md "Kernel time estimate") on small
 * hand-assembled kernels whose figures are computed by hand from the
 * documented model: a latency-bound kernel whose waves overlap, an
 * issue-bound one whose waves do not, a streaming copy that hits the DRAM
 * term, occupancy limited by VGPRs and by LDS (WGP and CU mode), and the
 * estimate's independence of the host thread count.  The figures follow from
 * the constants of emu/core/timing.def (their values at the time of writing in
 * the comments); every wave's life on its SIMD is its cycles plus
 * EMU_T_WAVE_LAUNCH (585).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/model.h"
#include "emu/core/timing.h"
#include "tests/emu/emu_test.h"

/* rsrc1: wave32 VGPR granules - 1 in [5:0], IEEE + DX10 clamp, WGP mode (bit 29) when wgp. */
static uint32_t rsrc1_of(unsigned vgpr_granules, int wgp)
{
    return (vgpr_granules - 1) | 1u << 21 | 1u << 23 | (wgp ? 1u << 29 : 0);
}

typedef struct mk {
    const char *asm_text;
    unsigned groups; /* 1-D grid of single-wave (32 work-item) workgroups */
    uint32_t rsrc1, lds;
    unsigned threads;
    const char *target; /* NULL: gfx1100 */
} mk;

static uint32_t *g_in, *g_out; /* 6144 x 32 words each, page-aligned (see setup) */

/* Run kernel `k` with s[0:1] = input, s[2:3] = output and s4 = the workgroup id. */
static rdx_emu_counters run_mk(const mk *k)
{
    size_t len;
    uint8_t *bytes = et_assemble(k->asm_text, &len);
    uint8_t *code = aligned_alloc(4096, 4096);
    ck_assert_ptr_nonnull(code);
    memset(code, 0, 4096);
    ck_assert_uint_lt(len, 4096);
    memcpy(code, bytes, len);
    free(bytes);
    size_t n = (size_t)k->groups * 32 * 4;
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create(k->target, &e), RDX_OK);
    rdx_emu_set_threads(e, k->threads ? k->threads : 1);
    rdx_emu_dispatch d;
    memset(&d, 0, sizeof d);
    d.code = (uint64_t)(uintptr_t)code;
    d.rsrc1 = k->rsrc1;
    d.rsrc2 = 4u << 1 | 1u << 7; /* 4 user SGPRs, then the workgroup id X in s4 */
    d.code_properties = 1u << 10;
    d.grid[0] = k->groups * 32;
    d.wg[0] = 32;
    d.group_segment_size = k->lds;
    uint64_t in = (uint64_t)(uintptr_t)g_in, out = (uint64_t)(uintptr_t)g_out;
    d.user_sgpr[0] = (uint32_t)in;
    d.user_sgpr[1] = (uint32_t)(in >> 32);
    d.user_sgpr[2] = (uint32_t)out;
    d.user_sgpr[3] = (uint32_t)(out >> 32);
    d.user_sgpr_count = 4;
    ck_assert_int_eq(rdx_emu_map(e, d.code, 4096, RDX_EMU_READ), RDX_OK);
    ck_assert_int_eq(rdx_emu_map(e, in, n, RDX_EMU_READ), RDX_OK);
    ck_assert_int_eq(rdx_emu_map(e, out, n, RDX_EMU_RW), RDX_OK);
    ck_assert_msg(rdx_emu_run(e, &d) == RDX_OK, "%s", rdx_error_message());
    rdx_emu_counters c = *rdx_emu_get_counters(e);
    c.pcs = NULL;
    c.npc = 0;
    rdx_emu_destroy(e);
    free(code);
    return c;
}

static void setup(void)
{
    size_t n = (size_t)6144 * 32 * 4;
    g_in = aligned_alloc(4096, n);
    g_out = aligned_alloc(4096, n);
    ck_assert_ptr_nonnull(g_in);
    ck_assert_ptr_nonnull(g_out);
    for (size_t i = 0; i < n / 4; i++)
        g_in[i] = (uint32_t)i;
    memset(g_out, 0, n);
}

static void teardown(void)
{
    free(g_in);
    free(g_out);
}

/*
 * Latency kernel: one load of in[0] by every lane, waited for.  Per wave:
 * issue = VMEM 1 + s_waitcnt 1 + s_endpgm 1 = 3 cycles; the load completes at
 * 1 + 1118 = 1119, the wait ends there, s_endpgm makes it 1120 cycles (LAT_T);
 * on its SIMD the wave lives 1120 + 585 = 1705 (LAT_E).
 */
enum {
    LAT_I = EMU_T_ISSUE_VMEM + 2 * EMU_T_ISSUE_OTHER,
    LAT_T = EMU_T_ISSUE_VMEM + EMU_T_LAT_VMEM_LOAD + EMU_T_ISSUE_OTHER,
    LAT_E = LAT_T + EMU_T_WAVE_LAUNCH,
};
static const char *lat_kernel = "global_load_b32 v1, v2, s[0:1]\n"
                                "s_waitcnt vmcnt(0)\n"
                                "s_endpgm\n";

START_TEST(latency_waves_overlap)
{
    /* 192 groups over 48 WGPs: 4 per WGP, one wave on each of its 4 SIMDs -> 1705 */
    mk k = { lat_kernel, 192, rsrc1_of(1, 1), 0, 1, NULL };
    rdx_emu_counters c = run_mk(&k);
    ck_assert_uint_eq(c.max_wave_cycles, LAT_T);
    ck_assert_uint_eq(c.cycles, 192 * LAT_T);
    ck_assert_uint_eq(c.est_kernel_cycles, LAT_E);
    ck_assert_int_eq(c.est_bound, RDX_EMU_BOUND_LATENCY);
    ck_assert_uint_eq(c.est_waves_per_simd, 16);
    ck_assert_uint_eq(c.est_groups_per_wgp, 64); /* 4 SIMDs x 16 slots, 1 wave each */
    ck_assert_uint_eq(c.est_issue_cycles, LAT_I);
    ck_assert_uint_eq(c.est_dram_bytes, 128); /* one line, read by every wave */
    /* 3072 groups: 64 per WGP, 16 resident on each SIMD, all overlapping -> still 1705;
       the SIMD's issue load is 16 * 3 / 1705 < 1 */
    k.groups = 3072;
    c = run_mk(&k);
    ck_assert_uint_eq(c.cycles, 3072ull * LAT_T);
    ck_assert_uint_eq(c.est_kernel_cycles, LAT_E);
    ck_assert_uint_eq(c.est_issue_cycles, 16 * LAT_I);
    /* 6144 groups: 32 waves per SIMD, 16 resident at a time -> two rounds */
    k.groups = 6144;
    c = run_mk(&k);
    ck_assert_uint_eq(c.est_kernel_cycles, 2 * LAT_E);
}
END_TEST

/*
 * Issue-bound kernel: 100 iterations of v_add_f32 (VALU 1), s_sub_u32 and
 * s_cmp (SALU 1 + 1), s_cbranch_scc1 (BRANCH 3), after s_movk_i32 (1) and
 * before s_endpgm (1): 602 issue cycles and no waiting.  16 waves on a SIMD
 * share its issue slots: 16 * 602 = 9632, not 602 + 585 (their launches
 * overlap the others' issue).
 */
enum {
    LOOP_I = 100 * (EMU_T_ISSUE_VALU + 2 * EMU_T_ISSUE_SALU + EMU_T_ISSUE_BRANCH) +
             EMU_T_ISSUE_SALU + EMU_T_ISSUE_OTHER,
};
START_TEST(issue_bound_waves_serialize)
{
    mk k = { "s_movk_i32 s5, 100\n"
             "loop:\n"
             "v_add_f32 v1, v1, v1\n"
             "s_sub_u32 s5, s5, 1\n"
             "s_cmp_lg_u32 s5, 0\n"
             "s_cbranch_scc1 loop\n"
             "s_endpgm\n",
             3072,
             rsrc1_of(1, 1),
             0,
             1,
             NULL };
    rdx_emu_counters c = run_mk(&k);
    ck_assert_uint_eq(c.max_wave_cycles, LOOP_I);
    ck_assert_uint_eq(c.est_kernel_cycles, 16 * LOOP_I);
    ck_assert_uint_eq(c.est_issue_cycles, 16 * LOOP_I);
    ck_assert_int_eq(c.est_bound, RDX_EMU_BOUND_ISSUE);
    ck_assert_uint_eq(c.est_dram_bytes, 0);
}
END_TEST

/*
 * Streaming copy: out[i] = in[i] for 3072 * 32 floats, 128-byte aligned, so
 * every wave reads one line and writes one.  Per wave: v_lshlrev (VALU at 0),
 * s_lshl, v_add_nc_u32 (VALU at 2), the load waits for that VALU until 2 + 17
 * and is done at 20 + 1118 = 1138, s_waitcnt, the store at 1138 (done 1139 +
 * 315), s_endpgm waits for it: 1454 cycles (COPY_T), issue 7; 16 resident per
 * SIMD -> 1454 + 585 = 2039; L0: 64 waves x 2 lines x 128 B / (2 CUs x
 * 128 B/clk) = 64.  On a gfx1102 (32 CUs: 3 rounds of 2039 = 6117) DRAM: (3072 + 3072)
 * lines x 128 B / 108.5 B/clk = 7250 — the estimate (1125 MHz GDDR6 x 16 x 16 bytes per
 * second over a 2655 MHz engine clock, emu/dev/target.c's row; gfx1100's 386.5 B/clk would
 * give 2035, just under the waves' 2039).
 */
enum {
    COPY_T = 2 * EMU_T_ISSUE_VALU + EMU_T_VALU_FWD + EMU_T_ISSUE_VMEM + EMU_T_LAT_VMEM_LOAD +
             EMU_T_ISSUE_VMEM + EMU_T_LAT_VMEM_STORE,
};
static const char *copy_kernel = "v_lshlrev_b32 v1, 2, v0\n"
                                 "s_lshl_b32 s5, s4, 7\n"
                                 "v_add_nc_u32 v1, s5, v1\n"
                                 "global_load_b32 v2, v1, s[0:1]\n"
                                 "s_waitcnt vmcnt(0)\n"
                                 "global_store_b32 v1, v2, s[2:3]\n"
                                 "s_endpgm\n";

START_TEST(streaming_hits_dram_bound)
{
    mk k = { copy_kernel, 3072, rsrc1_of(1, 1), 0, 1, "gfx1102" };
    rdx_emu_counters c = run_mk(&k);
    for (size_t i = 0; i < 3072 * 32; i++)
        ck_assert_uint_eq(g_out[i], (uint32_t)i);
    ck_assert_uint_eq(c.max_wave_cycles, COPY_T);
    ck_assert_uint_eq(c.est_dram_bytes, 2 * 3072 * 128);
    emu_chip chip;
    emu_chip_of("gfx1102", &chip);
    ck_assert_uint_eq(c.est_kernel_cycles, (uint64_t)ceil(2.0 * 3072 * 128 / chip.dram_bpc));
    ck_assert_uint_eq(c.est_kernel_cycles, 7250);
    ck_assert_int_eq(c.est_bound, RDX_EMU_BOUND_DRAM);
    /* a tenth of the data: DRAM 205 (204.8 rounded up) < the 2039 of one wave */
    k.groups = 307;
    c = run_mk(&k);
    ck_assert_uint_eq(c.est_dram_bytes, 2 * 307 * 128);
    ck_assert_uint_eq(c.est_kernel_cycles, COPY_T + EMU_T_WAVE_LAUNCH);
    ck_assert_int_eq(c.est_bound, RDX_EMU_BOUND_LATENCY);
}
END_TEST

/*
 * Occupancy.  VGPRs: 32 granules of 8 = 256 VGPRs, allocated in blocks of 24
 * -> 264, 1536 / 264 = 5 waves per SIMD; the 16 waves of each SIMD run as
 * 5 + 5 + 5 + 1 -> 4 x 1705.  LDS: 40000 bytes -> 79 blocks of 512 =
 * 40448, 131072 / 40448 = 3 groups per WGP -> ceil(64 / 3) = 22 rounds ->
 * 22 x 1705.  CU mode (rsrc1 bit 29 clear): 96 CUs of 2 SIMDs and 64 KiB, one
 * such group per CU, 32 groups each -> 32 x 1705.
 */
START_TEST(occupancy_limits)
{
    mk k = { lat_kernel, 3072, rsrc1_of(32, 1), 0, 1, NULL };
    rdx_emu_counters c = run_mk(&k);
    ck_assert_uint_eq(c.est_waves_per_simd, 5);
    ck_assert_uint_eq(c.est_groups_per_wgp, 20);
    ck_assert_uint_eq(c.est_kernel_cycles, 4 * LAT_E);
    k.rsrc1 = rsrc1_of(1, 1);
    k.lds = 40000;
    c = run_mk(&k);
    ck_assert_uint_eq(c.est_waves_per_simd, 16);
    ck_assert_uint_eq(c.est_groups_per_wgp, 3);
    ck_assert_uint_eq(c.est_kernel_cycles, 22 * LAT_E);
    k.rsrc1 = rsrc1_of(1, 0);
    c = run_mk(&k);
    ck_assert_uint_eq(c.est_groups_per_wgp, 1);
    ck_assert_uint_eq(c.est_kernel_cycles, 32 * LAT_E);
}
END_TEST

/*
 * The event model when waves differ.  Groups whose id has only bits 6 and 7
 * (0, 64, 128, 192) run a 100-iteration loop (s_and 1 + s_cmp 1 + s_cbranch
 * taken 3 + s_movk 1 + 100 x 6 + s_endpgm 1 = 607 issue cycles, no waiting:
 * I = T = 607, a life of 607 + 585 = 1192 on the SIMD); every other group
 * loads and waits (5 + load 1, done at 6 + 1118 = 1124, s_waitcnt, s_endpgm:
 * I = 8, T = 1125, life 1710).  385 groups: WGP 0 gets groups 0, 48, ..., 384
 * and SIMD 0 holds groups 0, 192 (loops) and 384 (load).  Their issue load is
 * 2 x 607/1192 + 8/1710 = 1.0231 > 1, so all three progress at 1/1.0231: the
 * loops end at 1192 x 1.0231 = 1219.58 and the load wave, 1710 - 1192 = 518
 * cycles behind alone, at 1737.58 -> 1738 (max(issue, latency) would say 1710).
 */
START_TEST(partial_overlap_event_model)
{
    mk k = { "s_and_b32 s6, s4, 0xffffff3f\n"
             "s_cmp_eq_u32 s6, 0\n"
             "s_cbranch_scc1 compute\n"
             "global_load_b32 v1, v2, s[0:1]\n"
             "s_waitcnt vmcnt(0)\n"
             "s_endpgm\n"
             "compute:\n"
             "s_movk_i32 s5, 100\n"
             "loop:\n"
             "v_add_f32 v1, v1, v1\n"
             "s_sub_u32 s5, s5, 1\n"
             "s_cmp_lg_u32 s5, 0\n"
             "s_cbranch_scc1 loop\n"
             "s_endpgm\n",
             385,
             rsrc1_of(1, 1),
             0,
             1,
             NULL };
    rdx_emu_counters c = run_mk(&k);
    /* the figures of the comment from the constants */
    const uint64_t tl = 5 + EMU_T_ISSUE_VMEM + EMU_T_LAT_VMEM_LOAD + EMU_T_ISSUE_OTHER;
    const double lc = 607.0 + EMU_T_WAVE_LAUNCH, ll = (double)tl + EMU_T_WAVE_LAUNCH;
    const double load = 2 * 607.0 / lc + 8.0 / ll;
    ck_assert(load > 1);
    ck_assert_uint_eq(c.max_wave_cycles, tl);
    ck_assert_uint_eq(c.cycles, 4 * 607 + 381 * tl);
    ck_assert_uint_eq(c.est_kernel_cycles, (uint64_t)ceil(lc * load + ll - lc));
    ck_assert_uint_eq(c.est_issue_cycles, 2 * 607 + 8);
    ck_assert_int_eq(c.est_bound, RDX_EMU_BOUND_LATENCY);
}
END_TEST

/*
 * LDS bandwidth: 10 x ds_load_b128 of 32 lanes = 5120 LDS bytes per wave; 64
 * waves per WGP -> 327680 B / (2 CUs x 128 B/clk) = 1280 cycles, more than
 * the SIMDs need to issue them (16 waves x 63 issue cycles = 1 + 10 x (1 + 1 +
 * 1 + 3) + 2 = 1008, plus at most one wave's waits).
 */
START_TEST(lds_bandwidth_bound)
{
    mk k = { "s_movk_i32 s5, 10\n"
             "loop:\n"
             "ds_load_b128 v[4:7], v2\n"
             "s_sub_u32 s5, s5, 1\n"
             "s_cmp_lg_u32 s5, 0\n"
             "s_cbranch_scc1 loop\n"
             "s_waitcnt lgkmcnt(0)\n"
             "s_endpgm\n",
             3072,
             rsrc1_of(1, 1),
             512,
             1,
             NULL };
    rdx_emu_counters c = run_mk(&k);
    ck_assert_uint_eq(c.lds_bytes, 3072ull * 5120);
    ck_assert_uint_eq(c.est_issue_cycles, 16 * 63);
    ck_assert_uint_eq(c.est_kernel_cycles, 1280);
    ck_assert_int_eq(c.est_bound, RDX_EMU_BOUND_LDS);
}
END_TEST

/*
 * L0 requests: every lane loads from its own 128-byte line (address lane x
 * 128), 4 loads per wave: 4 x 32 = 128 line requests per wave, 64 waves per
 * WGP -> 8192 x 128 B / 256 B/clk = 4096 cycles; the same lines for every
 * wave, so DRAM sees 32 lines.  Coalesced (lane x 4) the same loads need one
 * line each: 64 x 4 x 128 / 256 = 128, and the waits dominate.
 */
START_TEST(l0_requests_bound)
{
    const char *fmt = "v_lshlrev_b32 v1, %u, v0\n"
                      "global_load_b32 v2, v1, s[0:1]\n"
                      "global_load_b32 v3, v1, s[0:1] offset:4\n"
                      "global_load_b32 v4, v1, s[0:1] offset:8\n"
                      "global_load_b32 v5, v1, s[0:1] offset:12\n"
                      "s_waitcnt vmcnt(0)\n"
                      "s_endpgm\n";
    char text[512];
    snprintf(text, sizeof text, fmt, 7u);
    mk k = { text, 3072, rsrc1_of(1, 1), 0, 1, NULL };
    rdx_emu_counters c = run_mk(&k);
    ck_assert_uint_eq(c.est_dram_bytes, 32 * 128);
    ck_assert_uint_eq(c.est_kernel_cycles, 4096);
    ck_assert_int_eq(c.est_bound, RDX_EMU_BOUND_L0);
    /* coalesced: v1 = lane x 4; one wave: the VALU at 0, the first load waits for it
       until 17 and the four issue at 17..20, the last done at 21 + 1118 = 1139,
       s_waitcnt, s_endpgm: 1140; all 16 per SIMD overlap: 1140 + 585 */
    snprintf(text, sizeof text, fmt, 2u);
    c = run_mk(&k);
    ck_assert_uint_eq(c.max_wave_cycles, EMU_T_VALU_FWD + 4 * EMU_T_ISSUE_VMEM +
                                             EMU_T_LAT_VMEM_LOAD + EMU_T_ISSUE_OTHER);
    ck_assert_uint_eq(c.est_kernel_cycles, EMU_T_VALU_FWD + 4 * EMU_T_ISSUE_VMEM +
                                               EMU_T_LAT_VMEM_LOAD + EMU_T_ISSUE_OTHER +
                                               EMU_T_WAVE_LAUNCH);
    ck_assert_int_eq(c.est_bound, RDX_EMU_BOUND_LATENCY);
}
END_TEST

/* LLVM's getNumWavesPerEUWithNumVGPRs for gfx1100 (granule 24 / 12, 1536 / 768 VGPRs) and
   gfx1102 (16 / 8, 1024 / 512). */
START_TEST(waves_per_simd_table)
{
    emu_chip c;
    emu_chip_of("gfx1100", &c);
    ck_assert_uint_eq(emu_model_waves_per_simd(&c, 32, 8), 16);
    ck_assert_uint_eq(emu_model_waves_per_simd(&c, 32, 96), 16);  /* 1536 / 96 */
    ck_assert_uint_eq(emu_model_waves_per_simd(&c, 32, 104), 12); /* 1536 / 120 */
    ck_assert_uint_eq(emu_model_waves_per_simd(&c, 32, 128), 10); /* 1536 / 144 */
    ck_assert_uint_eq(emu_model_waves_per_simd(&c, 32, 256), 5);  /* 1536 / 264 */
    ck_assert_uint_eq(emu_model_waves_per_simd(&c, 64, 48), 16);  /* 768 / 48 */
    ck_assert_uint_eq(emu_model_waves_per_simd(&c, 64, 128), 5);  /* 768 / 132 */
    ck_assert_uint_eq(emu_model_waves_per_simd(&c, 64, 256), 2);  /* 768 / 264 */
    /* a 1024-entry VGPR file (gfx1102, gfx1150): granule 16, 256 VGPRs give 4 waves */
    emu_chip_of("gfx1102", &c);
    ck_assert_uint_eq(c.vgprs_per_simd, 1024);
    ck_assert_uint_eq(emu_model_waves_per_simd(&c, 32, 256), 4);
    ck_assert_uint_eq(emu_model_waves_per_simd(&c, 32, 104), 9); /* 1024 / 112 */
    ck_assert_uint_eq(emu_model_waves_per_simd(&c, 64, 48), 10); /* 512 / 48 */
}
END_TEST

/* The model runs on the target's own chip (emu/dev/target.c): 3072 single-wave groups of
   the latency kernel fill gfx1100's 192 SIMDs x 16 slots in one round (LAT_E), gfx1102's 64
   SIMDs in three, gfx1151's 80 SIMDs in three (2 x 1280 + 512); an RDNA4 chip launches its
   waves in WAVE_LAUNCH's gfx12 value.  A gfx1102 wave of 256 VGPRs gets 4 slots, a gfx1100
   one 5; the DRAM term uses the chip's bandwidth per engine clock. */
START_TEST(model_takes_the_targets_chip)
{
    mk k = { lat_kernel, 3072, rsrc1_of(1, 1), 0, 1, "gfx1102" };
    rdx_emu_counters c = run_mk(&k);
    ck_assert_uint_eq(c.max_wave_cycles, LAT_T);
    ck_assert_uint_eq(c.est_kernel_cycles, 3 * LAT_E);
    k.target = "gfx1151";
    c = run_mk(&k);
    ck_assert_uint_eq(c.est_kernel_cycles, 3 * LAT_E);
    k.target = "gfx1102";
    k.rsrc1 = rsrc1_of(32, 1); /* 256 VGPRs */
    k.groups = 64;
    c = run_mk(&k);
    ck_assert_uint_eq(c.est_waves_per_simd, 4);
    k.target = NULL;
    c = run_mk(&k);
    ck_assert_uint_eq(c.est_waves_per_simd, 5);
    emu_chip a, b;
    emu_chip_of("gfx1201", &a);
    emu_chip_of("gfx1200", &b);
    ck_assert_uint_eq(a.cus, 64);
    ck_assert_uint_eq(b.cus, 32);
    ck_assert(a.gfx12 && b.gfx12);
    ck_assert(fabs(a.dram_bpc - 640e9 / 2.97e9) < 0.5); /* RX 9070 XT: 640 GB/s */
    ck_assert(fabs(b.dram_bpc - 320e9 / 3.13e9) < 0.5); /* RX 9060 XT: 320 GB/s */
    ck_assert_uint_eq(emu_timing_for(1)->WAVE_LAUNCH, EMU_T12_WAVE_LAUNCH);
}
END_TEST

/* The estimate does not depend on the host thread count (nor on the order groups finish). */
START_TEST(thread_determinism)
{
    const char *mixed = "s_movk_i32 s5, 20\n"
                        "v_lshlrev_b32 v1, 2, v0\n"
                        "s_lshl_b32 s6, s4, 7\n"
                        "v_add_nc_u32 v1, s6, v1\n"
                        "loop:\n"
                        "global_load_b32 v2, v1, s[0:1]\n"
                        "v_exp_f32 v3, v3\n"
                        "s_and_b32 s7, s4, 7\n"
                        "s_cmp_eq_u32 s7, 0\n"
                        "s_cbranch_scc0 skip\n"
                        "s_waitcnt vmcnt(0)\n"
                        "skip:\n"
                        "s_sub_u32 s5, s5, 1\n"
                        "s_cmp_lg_u32 s5, 0\n"
                        "s_cbranch_scc1 loop\n"
                        "s_waitcnt vmcnt(0)\n"
                        "global_store_b32 v1, v2, s[2:3]\n"
                        "s_endpgm\n";
    mk k = { mixed, 1000, rsrc1_of(12, 1), 3000, 1, NULL };
    rdx_emu_counters a = run_mk(&k);
    k.threads = 4;
    rdx_emu_counters b = run_mk(&k);
    ck_assert_uint_gt(a.est_kernel_cycles, 0);
    ck_assert_uint_eq(a.est_kernel_cycles, b.est_kernel_cycles);
    ck_assert_uint_eq(a.est_issue_cycles, b.est_issue_cycles);
    ck_assert_uint_eq(a.est_dram_bytes, b.est_dram_bytes);
    ck_assert_uint_eq(a.est_dram_bytes, 2 * 1000 * 128);
    ck_assert_int_eq(a.est_bound, b.est_bound);
    ck_assert_uint_eq(a.est_waves_per_simd, 16); /* 96 VGPRs */
    /* the overlap never makes it slower than running the waves one after another */
    ck_assert_uint_le(a.est_kernel_cycles, a.cycles);
    ck_assert_uint_ge(a.est_kernel_cycles, a.max_wave_cycles);
}
END_TEST

START_TEST(bound_names)
{
    ck_assert_str_eq(rdx_emu_bound_name(RDX_EMU_BOUND_NONE), "none");
    ck_assert_str_eq(rdx_emu_bound_name(RDX_EMU_BOUND_ISSUE), "issue");
    ck_assert_str_eq(rdx_emu_bound_name(RDX_EMU_BOUND_LATENCY), "latency");
    ck_assert_str_eq(rdx_emu_bound_name(RDX_EMU_BOUND_L0), "l0");
    ck_assert_str_eq(rdx_emu_bound_name(RDX_EMU_BOUND_LDS), "lds");
    ck_assert_str_eq(rdx_emu_bound_name(RDX_EMU_BOUND_DRAM), "dram");
    ck_assert_str_eq(rdx_emu_bound_name((rdx_emu_bound)99), "?");
}
END_TEST

Suite *et_suite_model(void)
{
    Suite *s = suite_create("emu-model");
    TCase *tc = tcase_create("model");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, latency_waves_overlap);
    tcase_add_test(tc, issue_bound_waves_serialize);
    tcase_add_test(tc, streaming_hits_dram_bound);
    tcase_add_test(tc, occupancy_limits);
    tcase_add_test(tc, partial_overlap_event_model);
    tcase_add_test(tc, lds_bandwidth_bound);
    tcase_add_test(tc, l0_requests_bound);
    tcase_add_test(tc, waves_per_simd_table);
    tcase_add_test(tc, model_takes_the_targets_chip);
    tcase_add_test(tc, thread_determinism);
    tcase_add_test(tc, bound_names);
    suite_add_tcase(s, tc);
    return s;
}
