/*
 * tests/prof/t_api.c — the emulator's profile (rdx/emu_prof.h) against counts
 * made independently: loop trip counts of a clang kernel, the stall split
 * summing to each wave's cycles, identity across host thread counts, LDS bank
 * conflicts and the L0 model on hand-written kernels, the occupancy rules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codeobj.h>

#include "emu/core/timing.h"
#include "tests/prof/prof_test.h"
#include "util/file.h"

/* loops.cl on `groups` workgroups of 64 with profiling on `threads` host threads. */
static rdx_emu *run_loops(const char *co, unsigned groups, unsigned threads, int profile)
{
    uint8_t *elf;
    size_t len;
    ck_assert_int_eq(rdx_file_read(co, &elf, &len), RDX_OK);
    /* 128-byte aligned: the memory lines counted do not depend on where malloc put it */
    uint32_t *out = aligned_alloc(128, (groups * 64 + 64) * 4);
    memset(out, 0, (groups * 64 + 64) * 4);
    rdx_emu_buffer b = { out, (groups * 64 + 64) * 4, RDX_EMU_RW };
    /* explicit arguments, then the hidden group size the kernel reads (rdx/opencl.h
       get_local_size: offset 0x1c); every other byte zero */
    uint8_t ka[256] = { 0 };
    uint32_t seed = 7;
    uint16_t gsize = 64;
    memcpy(ka, &out, sizeof out);
    memcpy(ka + 8, &seed, 4);
    memcpy(ka + 0x1c, &gsize, 2);
    rdx_emu_launch l = { .grid = { groups * 64 },
                         .wg = { 64 },
                         .kernarg = ka,
                         .kernarg_size = sizeof ka,
                         .bufs = &b,
                         .nbufs = 1 };
    rdx_emu *emu;
    ck_assert_int_eq(rdx_emu_create("gfx1100", &emu), RDX_OK);
    rdx_emu_set_threads(emu, threads);
    rdx_emu_set_profiling(emu, profile);
    ck_assert_msg(rdx_emu_run_codeobj(emu, elf, len, "loops", &l) == RDX_OK, "%s",
                  rdx_error_message());
    free(out);
    free(elf);
    return emu;
}

/* The branch at the loop's latch runs once per iteration of each wave: group g runs
   g + 1 iterations in both its waves, so it executes 2 * G (G + 1) / 2 times; every
   other instruction runs once per wave or once per iteration.  The per-PC counts also
   equal the emulator's own (rdx_emu_counters.pcs). */
START_TEST(counts_match_trip_counts)
{
    const unsigned G = 8;
    rdx_emu *emu = run_loops(pt_loops_co, G, 2, 1);
    const rdx_emu_counters *c = rdx_emu_get_counters(emu);
    const rdx_emu_profile *p = rdx_emu_get_profile(emu);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(p->npc, c->npc);
    uint64_t sum = 0, per_wave = 0, per_iter = 0, other = 0, latch = 0;
    const uint64_t waves = 2 * G, iters = (uint64_t)G * (G + 1);
    for (size_t i = 0; i < p->npc; i++) {
        ck_assert_uint_eq(p->pcs[i].pc, c->pcs[i].pc);
        ck_assert_uint_eq(p->pcs[i].count, c->pcs[i].count);
        sum += p->pcs[i].count;
        if (p->pcs[i].count == waves)
            per_wave++;
        else if (p->pcs[i].count == iters)
            per_iter++;
        else
            other++;
        if (p->pcs[i].cls == RDX_EMU_CLASS_BRANCH && p->pcs[i].count == iters)
            latch++;
    }
    ck_assert_uint_eq(sum, c->wave_insts);
    ck_assert_uint_eq(other, 0);
    ck_assert_uint_ge(per_iter, 3); /* the loop body: multiply-add, counter, compare, branch */
    ck_assert_uint_eq(latch, 1);
    ck_assert_uint_ge(per_wave, 10);
    /* no profile without profiling */
    rdx_emu_destroy(emu);
    emu = run_loops(pt_loops_co, G, 2, 0);
    ck_assert_ptr_null(rdx_emu_get_profile(emu));
    rdx_emu_destroy(emu);
}
END_TEST

/* Issue + stall cycles: per wave equal to the wave model's cycles, over all PCs to
   rdx_emu_counters.cycles; the waves' placement lies inside the kernel estimate. */
START_TEST(stall_split_sums_to_cycles)
{
    rdx_emu *emu = run_loops(pt_loops_o0_co, 40, 2, 1);
    const rdx_emu_counters *c = rdx_emu_get_counters(emu);
    const rdx_emu_profile *p = rdx_emu_get_profile(emu);
    ck_assert_uint_eq(p->nwaves, c->waves);
    uint64_t tot = 0, stalls = 0;
    for (size_t w = 0; w < p->nwaves; w++) {
        const rdx_emu_prof_wave *x = &p->waves[w];
        uint64_t s = x->issue;
        for (int k = 0; k < RDX_EMU_STALL_COUNT; k++)
            s += x->stall[k];
        ck_assert_uint_eq(s, x->cycles);
        tot += x->cycles;
        ck_assert(x->start >= 0 && x->end >= x->start);
        ck_assert(x->end <= (double)c->est_kernel_cycles + 1e-6);
        ck_assert_uint_lt(x->simd, 4);
    }
    ck_assert_uint_eq(tot, c->cycles);
    uint64_t pcsum = 0;
    for (size_t i = 0; i < p->npc; i++) {
        pcsum += p->pcs[i].issue;
        for (int k = 0; k < RDX_EMU_STALL_COUNT; k++)
            pcsum += p->pcs[i].stall[k];
    }
    ck_assert_uint_eq(pcsum, c->cycles);
    for (int k = 0; k < RDX_EMU_STALL_COUNT; k++)
        stalls += p->stall[k];
    ck_assert_uint_eq(p->issue + stalls, c->cycles);
    /* the kernel waits on memory (lgkmcnt: kernarg loads, LDS) */
    ck_assert_uint_gt(p->stall[RDX_EMU_STALL_LGKMCNT], 0);
    rdx_emu_destroy(emu);
}
END_TEST

/* The profile is a function of the dispatch: identical on 1 and 3 host threads. */
START_TEST(identical_for_any_thread_count)
{
    rdx_emu *a = run_loops(pt_loops_co, 50, 1, 1), *b = run_loops(pt_loops_co, 50, 3, 1);
    const rdx_emu_profile *p = rdx_emu_get_profile(a), *q = rdx_emu_get_profile(b);
    ck_assert_uint_eq(p->npc, q->npc);
    ck_assert_uint_eq(p->nwaves, q->nwaves);
    for (size_t i = 0; i < p->npc; i++) { /* PCs differ by the code's address: compare offsets */
        rdx_emu_prof_pc x = p->pcs[i], y = q->pcs[i];
        ck_assert_uint_eq(x.pc - p->code, y.pc - q->code);
        x.pc = y.pc = 0;
        ck_assert(!memcmp(&x, &y, sizeof x));
    }
    ck_assert(!memcmp(p->waves, q->waves, p->nwaves * sizeof *p->waves));
    ck_assert_uint_eq(p->l0_hits, q->l0_hits);
    ck_assert_uint_eq(p->l2_hits, q->l2_hits);
    ck_assert_uint_eq(p->lds_conflicts, q->lds_conflicts);
    rdx_emu_destroy(a);
    rdx_emu_destroy(b);
}
END_TEST

static const rdx_emu_profile *run_group_asm(rdx_emu **emu, const char *body, void *buf, size_t blen,
                                            unsigned threads);

static const rdx_emu_profile *run_target_asm(rdx_emu **emu, const char *target, const char *body,
                                             void *buf, size_t blen, unsigned threads);

/* A one-wave kernel of `body` (wave32, 8 KiB LDS, v0 = lane id, s[0:1] = kernarg). */
static const rdx_emu_profile *run_kernel_asm(rdx_emu **emu, const char *body, void *buf,
                                             size_t blen)
{
    return run_group_asm(emu, body, buf, blen, 32);
}

/* The same as one workgroup of `threads` work-items (wave32). */
static const rdx_emu_profile *run_group_asm(rdx_emu **emu, const char *body, void *buf, size_t blen,
                                            unsigned threads)
{
    return run_target_asm(emu, "gfx1100", body, buf, blen, threads);
}

/* The same on target's emulator. */
static const rdx_emu_profile *run_target_asm(rdx_emu **emu, const char *target, const char *body,
                                             void *buf, size_t blen, unsigned threads)
{
    char src[4096];
    snprintf(src, sizeof src,
             "  .amdgcn_target \"amdgcn-amd-amdhsa--%s\"\n  .text\n  .globl k\n"
             "  .p2align 8\nk:\n%s  s_endpgm\n  .rodata\n  .p2align 6\n  .amdhsa_kernel k\n"
             "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n  .amdhsa_kernarg_size 8\n"
             "  .amdhsa_group_segment_fixed_size 8192\n  .amdhsa_next_free_vgpr 8\n"
             "  .amdhsa_next_free_sgpr 16\n  .amdhsa_wavefront_size32 1\n  .end_amdhsa_kernel\n",
             target, body);
    size_t len;
    uint8_t *elf = pt_assemble_for(src, target, &len);
    void *ka = buf;
    rdx_emu_buffer b = { buf, blen, RDX_EMU_RW };
    rdx_emu_launch l = { .grid = { threads },
                         .wg = { threads },
                         .kernarg = &ka,
                         .kernarg_size = 8,
                         .bufs = &b,
                         .nbufs = buf ? 1 : 0 };
    ck_assert_int_eq(rdx_emu_create(target, emu), RDX_OK);
    rdx_emu_set_profiling(*emu, 1);
    ck_assert_msg(rdx_emu_run_codeobj(*emu, elf, len, "k", &l) == RDX_OK, "%s",
                  rdx_error_message());
    free(elf);
    return rdx_emu_get_profile(*emu);
}

/* Bank conflicts of ds_load_b32 at lane * stride bytes: 4 (one dword per bank: none), 8
   (two lanes per bank: 1 extra clock), 128 (every lane in bank 0: 31), 0 (one dword, a
   broadcast: none); ds_load_b64 at lane * 8 (16 lanes per 128-byte pass: none). */
START_TEST(lds_bank_conflicts)
{
    static const struct {
        const char *load;
        unsigned stride, want;
    } cases[] = {
        { "ds_load_b32 v2, v1", 4, 0 },     { "ds_load_b32 v2, v1", 8, 1 },
        { "ds_load_b32 v2, v1", 128, 31 },  { "ds_load_b32 v2, v1", 0, 0 },
        { "ds_load_b64 v[2:3], v1", 8, 0 }, { "ds_load_b64 v[2:3], v1", 16, 2 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char body[256];
        snprintf(body, sizeof body, "  v_mul_u32_u24 v1, %u, v0\n  %s\n  s_waitcnt lgkmcnt(0)\n",
                 cases[i].stride, cases[i].load);
        rdx_emu *emu;
        const rdx_emu_profile *p = run_kernel_asm(&emu, body, NULL, 0);
        ck_assert_msg(p->lds_conflicts == cases[i].want,
                      "%s stride %u: %llu conflict cycles, want %u", cases[i].load, cases[i].stride,
                      (unsigned long long)p->lds_conflicts, cases[i].want);
        ck_assert_uint_eq(p->lds_insts, 1);
        rdx_emu_destroy(emu);
    }
}
END_TEST

/* A DS address that wraps past 2^32 (v = -4, offset 8: byte 4) reads LDS byte 4; the
   emulator used to read 4 GiB beyond the LDS (a crash; clang emits such addresses for
   tile[63 - l], see loops.cl). */
START_TEST(ds_address_wraps)
{
    uint32_t out[32] = { 0 };
    rdx_emu *emu;
    run_kernel_asm(&emu,
                   "  s_load_b64 s[2:3], s[0:1], 0\n"
                   "  v_mov_b32 v3, 4\n  v_mov_b32 v4, 0x1234\n  ds_store_b32 v3, v4\n"
                   "  v_mov_b32 v1, -4\n  v_mov_b32 v3, 3\n  v_mov_b32 v5, 0\n"
                   "  ds_load_u8 v2, v1 offset:8\n  s_waitcnt lgkmcnt(0)\n"
                   "  v_lshlrev_b32 v6, 2, v0\n  global_store_b32 v6, v2, s[2:3]\n",
                   out, sizeof out);
    ck_assert_uint_eq(out[0], 0x34);
    ck_assert_uint_eq(out[31], 0x34);
    rdx_emu_destroy(emu);
}
END_TEST

/* The L0 model: the same 128-byte line loaded twice by a wave is one miss and one hit;
   a store goes to L2 (no L0 traffic). */
START_TEST(l0_cache_model)
{
    uint32_t *buf = aligned_alloc(128, 256); /* one line per access */
    memset(buf, 0, 256);
    rdx_emu *emu;
    const rdx_emu_profile *p =
        run_kernel_asm(&emu,
                       "  s_load_b64 s[2:3], s[0:1], 0\n  s_waitcnt lgkmcnt(0)\n"
                       "  v_lshlrev_b32 v1, 2, v0\n"
                       "  global_load_b32 v2, v1, s[2:3]\n"
                       "  global_load_b32 v3, v1, s[2:3]\n"
                       "  s_waitcnt vmcnt(0)\n"
                       "  global_store_b32 v1, v3, s[2:3] offset:128\n",
                       buf, 256);
    ck_assert_uint_eq(p->l0_misses, 1);
    ck_assert_uint_eq(p->l0_hits, 1);
    /* L2: the kernarg's scalar load, the L0 miss and the store; three new lines: three
       DRAM lines, no L2 hit */
    ck_assert_uint_eq(p->l2_misses + p->l2_hits, 3);
    ck_assert_uint_eq(p->l2_hits, 0);
    rdx_emu_destroy(emu);
    free(buf);
}
END_TEST

/* Occupancy by the kernel time model's rules (docs/emu.md examples). */
START_TEST(occupancy_limits)
{
    rdx_emu_profile p;
    rdx_emu_occupancy o;
    memset(&p, 0, sizeof p);
    p.wave_size = 32;
    p.group_waves = 1;
    p.wgp_mode = 1;
    p.vgprs = 256; /* 5 waves per SIMD; 240 VGPRs would give 6 */
    rdx_emu_occupancy_of(&p, &o);
    ck_assert_uint_eq(o.waves_per_simd, 5);
    ck_assert_int_eq(o.limit, RDX_EMU_OCC_VGPRS);
    ck_assert_uint_eq(o.vgprs_for_more, 240);
    p.vgprs = 16;
    p.lds_bytes = 40000; /* 3 groups per WGP */
    p.group_waves = 4;
    rdx_emu_occupancy_of(&p, &o);
    ck_assert_uint_eq(o.groups_per_unit, 3);
    ck_assert_uint_eq(o.waves_per_simd, 3);
    ck_assert_int_eq(o.limit, RDX_EMU_OCC_LDS);
    ck_assert_uint_eq(o.lds_for_more, 32768); /* 4 groups: 128 KiB / 4 */
    p.lds_bytes = 0;
    p.group_waves = 20; /* 3 groups of 20 = 60 of 64 slots: 15 per SIMD */
    rdx_emu_occupancy_of(&p, &o);
    ck_assert_uint_eq(o.waves_per_simd, 15);
    ck_assert_int_eq(o.limit, RDX_EMU_OCC_GROUP_SIZE);
    p.group_waves = 2; /* 32 barriers per WGP: 32 groups of 2 = 16 per SIMD, no limit */
    rdx_emu_occupancy_of(&p, &o);
    ck_assert_uint_eq(o.waves_per_simd, 16);
    ck_assert_int_eq(o.limit, RDX_EMU_OCC_WAVE_SLOTS);
    p.wgp_mode = 0; /* CU mode: 16 barriers, 2 SIMDs: 16 groups of 2 = 16 per SIMD */
    rdx_emu_occupancy_of(&p, &o);
    ck_assert_uint_eq(o.waves_per_simd, 16);
    p.group_waves = 1;
    p.wave_size = 64;
    p.vgprs = 128; /* wave64: 768 / 132 -> 5 */
    rdx_emu_occupancy_of(&p, &o);
    ck_assert_uint_eq(o.waves_per_simd, 5);
    ck_assert_str_eq(rdx_emu_occ_limit_name(o.limit), "VGPRs");
}
END_TEST

/* Profiling observes and changes nothing: the same dispatch with and without it gives the
   same counters — classes, cycles, the estimate and its terms, the per-PC counts — and the
   profile's cycles equal them.  (What profiling costs in CPU time is bench/prof's figure, not
   a test's.) */
START_TEST(profiling_changes_no_counter)
{
    rdx_emu *a = run_loops(pt_loops_co, 16, 1, 0), *b = run_loops(pt_loops_co, 16, 1, 1);
    const rdx_emu_counters *x = rdx_emu_get_counters(a), *y = rdx_emu_get_counters(b);
    ck_assert_ptr_null(rdx_emu_get_profile(a));
    ck_assert_ptr_nonnull(rdx_emu_get_profile(b));
    ck_assert_uint_eq(x->waves, y->waves);
    ck_assert_uint_eq(x->wave_insts, y->wave_insts);
    for (int c = 0; c < RDX_EMU_CLASS_COUNT; c++)
        ck_assert_uint_eq(x->by_class[c], y->by_class[c]);
    ck_assert_uint_eq(x->cycles, y->cycles);
    ck_assert_uint_eq(x->max_wave_cycles, y->max_wave_cycles);
    ck_assert_uint_eq(x->est_kernel_cycles, y->est_kernel_cycles);
    ck_assert_uint_eq(x->est_issue_cycles, y->est_issue_cycles);
    ck_assert_uint_eq(x->est_dram_bytes, y->est_dram_bytes);
    ck_assert_int_eq(x->est_bound, y->est_bound);
    ck_assert_uint_eq(x->npc, y->npc);
    for (size_t i = 0; i < x->npc; i++) {
        ck_assert_uint_eq(x->pcs[i].pc - x->pcs[0].pc, y->pcs[i].pc - y->pcs[0].pc);
        ck_assert_uint_eq(x->pcs[i].count, y->pcs[i].count);
    }
    const rdx_emu_profile *p = rdx_emu_get_profile(b);
    uint64_t sum = p->issue;
    for (int s = 0; s < RDX_EMU_STALL_COUNT; s++)
        sum += p->stall[s];
    ck_assert_uint_eq(sum, y->cycles);
    ck_assert_str_eq(p->target, "gfx1100");
    rdx_emu_destroy(a);
    rdx_emu_destroy(b);
}
END_TEST

/* The calibrated dependency rules (emu/core/timing.def), clock by clock: s_delay_alu makes
   the VALU it guards issue EMU_T_VALU_DEP after the one it names (instid0 and, through
   instskip, instid1), a store issues EMU_T_VALU_FWD after the last VALU, s_endpgm waits for
   the store, and the instruction trace times s_waitcnt when its wait is over. */
START_TEST(timing_rules_calibrated)
{
    uint32_t buf[4] = { 0 };
    rdx_emu *emu;
    const rdx_emu_profile *p = run_kernel_asm(
        &emu,
        "  s_load_b64 s[2:3], s[0:1], 0x0\n"                                         /* 0 */
        "  v_add_f32 v1, v1, v1\n"                                                   /* 1 */
        "  s_delay_alu instid0(VALU_DEP_1)\n"                                        /* 2 -> 6 */
        "  v_add_f32 v1, v1, v1\n"                                                   /* 6 */
        "  s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)\n" /* 7 */
        "  v_add_f32 v1, v1, v1\n"                                                   /* 11 */
        "  v_add_f32 v1, v1, v1\n"                                                   /* 16 */
        "  s_waitcnt lgkmcnt(0)\n"                                                   /* 1 + 1320 */
        "  v_mov_b32 v2, 0\n"                                                        /* 1321 */
        "  global_store_b32 v2, v1, s[2:3]\n",                                       /* 1321 + 17 */
        buf, sizeof buf);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(p->nwaves, 1);
    const uint64_t vd = EMU_T_VALU_DEP, sm = 1 + EMU_T_LAT_SMEM, st = sm + EMU_T_VALU_FWD;
    const uint64_t want[][2] = {
        { 0x08, 1 },          { 0x10, 1 + vd },
        { 0x18, 1 + 2 * vd }, { 0x1c, 1 + 3 * vd },
        { 0x20, sm - 1 },     { 0x24, sm },
        { 0x28, st },         { 0x30, st + EMU_T_ISSUE_VMEM + EMU_T_LAT_VMEM_STORE - 1 },
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        size_t k = 0;
        while (k < p->ntrace && p->trace[k].pc - p->code != want[i][0])
            k++;
        ck_assert_msg(k < p->ntrace, "no instruction at 0x%llx in the trace",
                      (unsigned long long)want[i][0]);
        ck_assert_msg(p->trace[k].cycle == want[i][1], "0x%llx issued at %llu, expected %llu",
                      (unsigned long long)want[i][0], (unsigned long long)p->trace[k].cycle,
                      (unsigned long long)want[i][1]);
    }
    const rdx_emu_prof_wave *w = &p->waves[0];
    ck_assert_uint_eq(w->cycles, st + EMU_T_ISSUE_VMEM + EMU_T_LAT_VMEM_STORE);
    /* depend: each s_delay_alu's clock and its wait (4 + 4), the instid1 wait (4), the
       store's wait for the VALU (17 - 1) */
    ck_assert_uint_eq(w->stall[RDX_EMU_STALL_DEPEND], 3 * (vd - 1) + EMU_T_VALU_FWD - 1);
    ck_assert_uint_eq(w->stall[RDX_EMU_STALL_VMCNT], EMU_T_LAT_VMEM_STORE - 1);
    uint64_t sum = w->issue;
    for (int s = 0; s < RDX_EMU_STALL_COUNT; s++)
        sum += w->stall[s];
    ck_assert_uint_eq(sum, w->cycles);
    rdx_emu_destroy(emu);
}
END_TEST

/* s_barrier: the group's waves go on EMU_T_BARRIER_RELEASE clocks after the last one
   arrived (booked as barrier stall), as the sync example's waves do on a card. */
START_TEST(barrier_release_calibrated)
{
    rdx_emu *emu;
    const rdx_emu_profile *p = run_group_asm(&emu, "  s_barrier\n", NULL, 0, 64);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(p->nwaves, 2);
    for (size_t i = 0; i < 2; i++) {
        ck_assert_uint_eq(p->waves[i].cycles, 2 * EMU_T_ISSUE_OTHER + EMU_T_BARRIER_RELEASE);
        ck_assert_uint_eq(p->waves[i].stall[RDX_EMU_STALL_BARRIER], EMU_T_BARRIER_RELEASE);
    }
    for (size_t k = 0; k < p->ntrace; k++)
        if (p->trace[k].pc - p->code == 4) /* s_endpgm */
            ck_assert_uint_eq(p->trace[k].cycle, EMU_T_ISSUE_OTHER + EMU_T_BARRIER_RELEASE);
    rdx_emu_destroy(emu);
}
END_TEST

/* The trace clock at which the instruction at code offset off issued (the first time). */
static uint64_t issued_at(const rdx_emu_profile *p, uint64_t off)
{
    for (size_t k = 0; k < p->ntrace; k++)
        if (p->trace[k].pc - p->code == off)
            return p->trace[k].cycle;
    ck_abort_msg("no instruction at 0x%llx in the trace", (unsigned long long)off);
    return 0;
}

/* The constants per family (emu/core/timing.def): a scalar load's latency is gfx11's on a
   gfx1100 and RDNA4's on a gfx1200; an SMEM that does not directly follow the previous one
   issues SMEM_GAP after it, one in a clause the next clock; scalar transcendentals
   (v_s_exp_f32) issue in 1 clock like VALU, a vector one (v_rcp_f32) in ISSUE_TRANS. */
START_TEST(timing_per_family)
{
    uint32_t buf[4] = { 0 };
    rdx_emu *emu;
    const char *gap = "  s_load_b32 s4, s[0:1], 0x0\n" /* 0 */
                      "  s_mov_b32 s5, 0\n"            /* 1 */
                      "  s_load_b32 s6, s[0:1], 0x4\n" /* SMEM_GAP */
                      "%s\n";                          /* SMEM_GAP + LAT_SMEM */
    char body[256];
    snprintf(body, sizeof body, gap, "  s_waitcnt lgkmcnt(0)");
    const rdx_emu_profile *p = run_target_asm(&emu, "gfx1100", body, buf, sizeof buf, 32);
    ck_assert_uint_eq(issued_at(p, 0xc), EMU_T_SMEM_GAP);
    ck_assert_uint_eq(issued_at(p, 0x14), EMU_T_SMEM_GAP + EMU_T_LAT_SMEM);
    ck_assert_uint_eq(p->waves[0].stall[RDX_EMU_STALL_DEPEND], EMU_T_SMEM_GAP - 2);
    rdx_emu_destroy(emu);
    snprintf(body, sizeof body, gap, "  s_wait_kmcnt 0x0");
    p = run_target_asm(&emu, "gfx1200", body, buf, sizeof buf, 32);
    ck_assert_uint_eq(issued_at(p, 0xc), EMU_T12_SMEM_GAP);
    ck_assert_uint_eq(issued_at(p, 0x14), EMU_T12_SMEM_GAP + EMU_T12_LAT_SMEM);
    ck_assert_uint_ne(EMU_T12_LAT_SMEM, EMU_T_LAT_SMEM);
    rdx_emu_destroy(emu);
    p = run_kernel_asm(&emu,
                       "  s_clause 0x1\n"
                       "  s_load_b32 s4, s[0:1], 0x0\n"
                       "  s_load_b32 s6, s[0:1], 0x4\n",
                       buf, sizeof buf);
    ck_assert_uint_eq(issued_at(p, 0xc), 2); /* the clause's loads: back to back */
    rdx_emu_destroy(emu);
    p = run_target_asm(&emu, "gfx1200",
                       "  v_s_exp_f32 s7, s8\n" /* 0 */
                       "  v_s_rcp_f32 s9, s8\n" /* 1 */
                       "  v_rcp_f32 v1, v2\n"   /* 2 */
                       "  s_nop 0\n",           /* 2 + ISSUE_TRANS */
                       buf, sizeof buf, 32);
    ck_assert_uint_eq(issued_at(p, 0x8), 1);
    ck_assert_uint_eq(issued_at(p, 0x10), 2);
    ck_assert_uint_eq(issued_at(p, 0x14), 2 + EMU_T12_ISSUE_TRANS);
    rdx_emu_destroy(emu);
}
END_TEST

TCase *pt_tcase_api(void)
{
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, counts_match_trip_counts);
    tcase_add_test(tc, stall_split_sums_to_cycles);
    tcase_add_test(tc, identical_for_any_thread_count);
    tcase_add_test(tc, lds_bank_conflicts);
    tcase_add_test(tc, ds_address_wraps);
    tcase_add_test(tc, l0_cache_model);
    tcase_add_test(tc, occupancy_limits);
    tcase_add_test(tc, profiling_changes_no_counter);
    tcase_add_test(tc, timing_rules_calibrated);
    tcase_add_test(tc, barrier_release_calibrated);
    tcase_add_test(tc, timing_per_family);
    return tc;
}
