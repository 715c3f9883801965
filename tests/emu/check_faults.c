/*
 * tests/emu/check_faults.c — faults stop the dispatch with a report (VM
 * fault with address / direction / PC / instruction / workgroup / wave,
 * LDS and scratch bounds, invalid and unimplemented instructions, hangs
 * with a PC histogram); the host survives and the emulator stays usable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/emu/emu_test.h"

static rdx_emu *emu_new(void)
{
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create("gfx1100", &e), RDX_OK);
    return e;
}

START_TEST(oob_load_is_vm_fault)
{
    rdx_emu *e = emu_new();
    et_case c = { 0 };
    c.sgpr_in[0] = 0x1000; /* s4:s5 = 0x1000: never mapped */
    c.body = "v_mov_b32 v20, 8\n global_load_b32 v10, v20, s[4:5]\n s_waitcnt vmcnt(0)\n";
    c.nout = 1;
    rdx_status st = et_run_on(e, &c);
    ck_assert_int_eq(st, RDX_ERR_FAULT);
    const rdx_emu_fault *f = rdx_emu_last_fault(e);
    ck_assert_int_eq(f->kind, RDX_EMU_FAULT_VM);
    ck_assert_uint_eq(f->address, 0x1008);
    ck_assert_int_eq(f->write, 0);
    /* disassembled by the isa/ decoder and the asm printer */
    ck_assert_msg(strcmp(f->inst, "global_load_b32 v10, v20, s[4:5]") == 0, "inst: %s", f->inst);
    ck_assert_uint_eq(f->workgroup[0], 0);
    ck_assert_uint_eq(f->wave, 0);
    const char *m = rdx_error_message();
    ck_assert_msg(strstr(m, "VM fault") && strstr(m, "0x1008") && strstr(m, "global_load_b32") &&
                      strstr(m, "read"),
                  "message: %s", m);
    /* the emulator stays usable */
    et_case ok = { 0 };
    ok.body = "v_mov_b32 v10, 42\n";
    ok.nout = 1;
    ck_assert_int_eq(et_run_on(e, &ok), RDX_OK);
    ck_assert_uint_eq(ok.out[3][0], 42);
    ck_assert_int_eq(rdx_emu_last_fault(e)->kind, RDX_EMU_FAULT_NONE);
    rdx_emu_destroy(e);
}
END_TEST

START_TEST(oob_store_is_vm_write_fault)
{
    et_case c = { 0 };
    c.sgpr_in[0] = 0x2000;
    c.body = "v_mov_b32 v20, 4\n global_store_b32 v20, v20, s[4:5] offset:16\n";
    rdx_emu *e = emu_new();
    ck_assert_int_eq(et_run_on(e, &c), RDX_ERR_FAULT);
    const rdx_emu_fault *f = rdx_emu_last_fault(e);
    ck_assert_int_eq(f->kind, RDX_EMU_FAULT_VM);
    ck_assert_int_eq(f->write, 1);
    ck_assert_uint_eq(f->address, 0x2014);
    ck_assert_msg(strstr(f->message, "write"), "%s", f->message);
    rdx_emu_destroy(e);
}
END_TEST

START_TEST(lds_and_scratch_bounds)
{
    et_case c = { 0 };
    c.lds = 128;
    c.body = "v_mov_b32 v20, 128\n ds_store_b32 v20, v20\n s_waitcnt lgkmcnt(0)\n";
    rdx_emu *e = emu_new();
    ck_assert_int_eq(et_run_on(e, &c), RDX_ERR_FAULT);
    ck_assert_int_eq(rdx_emu_last_fault(e)->kind, RDX_EMU_FAULT_LDS);
    ck_assert_uint_eq(rdx_emu_last_fault(e)->address, 128);
    et_case s = { 0 };
    s.scratch = 64;
    s.body = "v_mov_b32 v20, 64\n scratch_load_b32 v10, v20, off\n s_waitcnt vmcnt(0)\n";
    ck_assert_int_eq(et_run_on(e, &s), RDX_ERR_FAULT);
    ck_assert_int_eq(rdx_emu_last_fault(e)->kind, RDX_EMU_FAULT_SCRATCH);
    rdx_emu_destroy(e);
}
END_TEST

START_TEST(unimplemented_instruction)
{
    et_case c = { 0 };
    c.body = "lds_direct_load v10\n";
    rdx_emu *e = emu_new();
    ck_assert_int_eq(et_run_on(e, &c), RDX_ERR_UNSUPPORTED);
    const rdx_emu_fault *f = rdx_emu_last_fault(e);
    ck_assert_int_eq(f->kind, RDX_EMU_FAULT_UNIMPLEMENTED);
    ck_assert_msg(strncmp(f->inst, "lds_direct_load v10", 19) == 0, "inst: %s", f->inst);
    ck_assert_uint_eq(f->nbytes, 4);
    ck_assert_uint_eq(f->bytes[3], 0xce);
    ck_assert_msg(strstr(f->message, "lds_direct_load") && strstr(f->message, "CE10000A"), "%s",
                  f->message);
    rdx_emu_destroy(e);
}
END_TEST

START_TEST(invalid_instruction_bytes)
{
    /* a code buffer holding an undecodable dword */
    static uint32_t code[1024] __attribute__((aligned(4096)));
    code[0] = 0xffffffffu;
    rdx_emu *e = emu_new();
    rdx_emu_map(e, (uint64_t)(uintptr_t)code, sizeof code, RDX_EMU_READ);
    rdx_emu_dispatch d = { 0 };
    d.code = (uint64_t)(uintptr_t)code;
    d.code_properties = 1u << 10;
    d.grid[0] = d.wg[0] = 32;
    ck_assert_int_eq(rdx_emu_run(e, &d), RDX_ERR_UNSUPPORTED);
    const rdx_emu_fault *f = rdx_emu_last_fault(e);
    ck_assert_int_eq(f->kind, RDX_EMU_FAULT_INVALID_INST);
    ck_assert_uint_eq(f->pc, d.code);
    ck_assert_msg(strstr(f->message, "FFFFFFFF"), "%s", f->message);
    /* a PC in unmapped memory: instruction fetch fault */
    d.code = 0x5000;
    ck_assert_int_eq(rdx_emu_run(e, &d), RDX_ERR_FAULT);
    ck_assert_int_eq(rdx_emu_last_fault(e)->kind, RDX_EMU_FAULT_VM);
    rdx_emu_destroy(e);
}
END_TEST

START_TEST(infinite_loop_hangs_with_histogram)
{
    et_case c = { 0 };
    c.budget = 100000;
    c.body = "s_mov_b32 s20, 0\n LOOP:\n s_add_u32 s20, s20, 1\n s_nop 0\n s_branch LOOP\n";
    rdx_emu *e = emu_new();
    ck_assert_int_eq(et_run_on(e, &c), RDX_ERR_TIMEOUT);
    const rdx_emu_fault *f = rdx_emu_last_fault(e);
    ck_assert_int_eq(f->kind, RDX_EMU_FAULT_HANG);
    /* The histogram counts waves: the one wave, at one of the loop's instructions. */
    ck_assert_uint_eq(f->nhist, 1);
    ck_assert_uint_eq(f->hist[0].count, 1);
    ck_assert_msg(strstr(f->hist[0].inst, "s_add_u32") || strstr(f->hist[0].inst, "s_nop") ||
                      strstr(f->hist[0].inst, "s_branch"),
                  "%s", f->hist[0].inst);
    ck_assert_msg(strstr(f->message, "hang") && strstr(f->message, "PC histogram") &&
                      strstr(f->message, f->hist[0].inst) &&
                      strstr(f->message, "budget 100000 wave-instructions per wave"),
                  "%s", f->message);
    rdx_emu_destroy(e);
}
END_TEST

START_TEST(run_asm_compat)
{
    /* remu layout: kernarg pointer in s[0:1], workgroup id X in s15, packed v0 */
    size_t len;
    uint8_t *bytes = et_assemble("s_load_b64 s[2:3], s[0:1], 0x0\n s_waitcnt lgkmcnt(0)\n"
                                 "v_and_b32 v1, 0x3ff, v0\n s_lshl_b32 s4, s15, 5\n"
                                 "v_add_nc_u32 v2, s4, v1\n v_lshlrev_b32 v3, 2, v2\n"
                                 "global_store_b32 v3, v2, s[2:3]\n s_endpgm\n",
                                 &len);
    static uint32_t out[128];
    uint64_t args[1] = { (uint64_t)(uintptr_t)out };
    ck_assert_int_eq(
        run_asm((uint64_t)(uintptr_t)bytes, len, 4, 1, 1, 32, 1, 1, (uint64_t)(uintptr_t)args), 0);
    for (unsigned i = 0; i < 128; i++)
        ck_assert_uint_eq(out[i], i);
    /* the _ex form with explicit ranges: a store outside them faults with a message */
    rdx_emu_range r[2] = { { (uint64_t)(uintptr_t)args, sizeof args },
                           { (uint64_t)(uintptr_t)out, 64 } };
    int st = rdx_emu_run_asm_ex((uint64_t)(uintptr_t)bytes, len, 4, 1, 1, 32, 1, 1,
                                (uint64_t)(uintptr_t)args, 0, 0, 0, "gfx1100", NULL, 0, r, 2);
    ck_assert_int_eq(st, RDX_ERR_FAULT);
    ck_assert_msg(strstr(rdx_error_message(), "VM fault"), "%s", rdx_error_message());
    /* bad arguments */
    ck_assert_int_eq(rdx_emu_run_asm_ex((uint64_t)(uintptr_t)bytes, 6, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0,
                                        NULL, NULL, 0, NULL, 0),
                     RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_emu_run_asm_ex((uint64_t)(uintptr_t)bytes, len, 1, 1, 1, 1, 1, 1, 0, 0, 0,
                                        0, "gfx90a", NULL, 0, NULL, 0),
                     RDX_ERR_UNSUPPORTED);
    free(bytes);
}
END_TEST

/* Random code never crashes the host: every run ends in success or a reported fault. */
START_TEST(random_code_is_contained)
{
    static uint32_t code[1024] __attribute__((aligned(4096)));
    static uint32_t data[256];
    rdx_emu *e = emu_new();
    rdx_emu_set_threads(e, 1);
    ck_assert_int_eq(rdx_emu_map(e, (uint64_t)(uintptr_t)code, sizeof code, RDX_EMU_READ), RDX_OK);
    ck_assert_int_eq(rdx_emu_map(e, (uint64_t)(uintptr_t)data, sizeof data, RDX_EMU_RW), RDX_OK);
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    int outcomes[16] = { 0 };
    for (int run = 0; run < 300; run++) {
        for (int i = 0; i < 1024; i++) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            code[i] = (uint32_t)seed;
        }
        /* bias toward valid VALU/SALU/memory encodings: keep some top bits from real ops */
        for (int i = 0; i < 1024; i += 2) {
            static const uint32_t tops[] = { 0x7e000000u, 0xbe800000u, 0xd7000000u, 0xdc500000u,
                                             0xd8d80000u, 0x80000000u, 0xf4000000u, 0x4a000000u };
            code[i] = (code[i] & 0x01ffffffu) | tops[(code[i] >> 27) & 7];
        }
        code[1023] = 0xbfb00000u; /* s_endpgm at the end */
        rdx_emu_dispatch d = { 0 };
        d.code = (uint64_t)(uintptr_t)code;
        d.code_properties = (run & 1) ? 1u << 10 : 0; /* wave32 and wave64 */
        d.rsrc2 = 4u << 1 | 1u << 7;
        d.grid[0] = 128;
        d.wg[0] = 64;
        d.group_segment_size = 256;
        d.private_segment_size = 64;
        d.budget = 20000;
        d.user_sgpr[0] = (uint32_t)(uintptr_t)data;
        d.user_sgpr[1] = (uint32_t)((uint64_t)(uintptr_t)data >> 32);
        d.user_sgpr_count = 4;
        rdx_status st = rdx_emu_run(e, &d);
        ck_assert(st == RDX_OK || st == RDX_ERR_FAULT || st == RDX_ERR_UNSUPPORTED ||
                  st == RDX_ERR_TIMEOUT || st == RDX_ERR_INVALID);
        /* RDX_ERR_INVALID only for an operand-rule fault (a random VOP3 with three SGPRs) */
        if (st == RDX_ERR_INVALID)
            ck_assert_int_eq(rdx_emu_last_fault(e)->kind, RDX_EMU_FAULT_OPERAND_RULE);
        if (st)
            ck_assert_int_ne(rdx_emu_last_fault(e)->kind, RDX_EMU_FAULT_NONE);
        outcomes[st & 15]++;
    }
    printf("random code: %d ok, %d faults, %d invalid/unimplemented, %d hangs of 300\n",
           outcomes[RDX_OK], outcomes[RDX_ERR_FAULT], outcomes[RDX_ERR_UNSUPPORTED],
           outcomes[RDX_ERR_TIMEOUT]);
    /* faults of several kinds happened, and the emulator still runs a good kernel */
    ck_assert_int_gt(outcomes[RDX_ERR_UNSUPPORTED], 0);
    memset(code, 0, sizeof code);
    code[0] = 0xbfb00000u;
    rdx_emu_dispatch d = { 0 };
    d.code = (uint64_t)(uintptr_t)code;
    d.code_properties = 1u << 10;
    d.grid[0] = d.wg[0] = 32;
    ck_assert_int_eq(rdx_emu_run(e, &d), RDX_OK);
    rdx_emu_destroy(e);
}
END_TEST

/* One-wave groups of a SALU loop of `iters` iterations (s_sub, s_cmp, s_cbranch) on `e`. */
static rdx_status run_loop_groups(rdx_emu *e, uint32_t groups, uint32_t iters, uint64_t limit)
{
    char text[256];
    snprintf(text, sizeof text,
             "s_mov_b32 s20, %u\nLOOP:\n s_sub_u32 s20, s20, 1\n s_cmp_lg_u32 s20, 0\n"
             " s_cbranch_scc1 LOOP\n s_endpgm\n",
             iters);
    size_t len;
    uint8_t *bytes = et_assemble(text, &len);
    static uint32_t code[1024] __attribute__((aligned(4096)));
    ck_assert_uint_lt(len, sizeof code);
    memcpy(code, bytes, len);
    free(bytes);
    rdx_emu_dispatch d = { 0 };
    d.code = (uint64_t)(uintptr_t)code;
    d.code_properties = 1u << 10;
    d.grid[0] = 32 * groups;
    d.wg[0] = 32;
    d.cycle_limit = limit;
    ck_assert_int_eq(rdx_emu_map(e, d.code, sizeof code, RDX_EMU_READ), RDX_OK);
    rdx_status st = rdx_emu_run(e, &d);
    ck_assert_int_eq(rdx_emu_unmap(e, d.code), RDX_OK);
    return st;
}

/* The cycle limit (BEAM's budget): a lower bound of the kernel estimate past the limit ends
   the dispatch as a hang naming the limit; a limit at the estimate never stops it; the
   emulator stays usable. */
START_TEST(cycle_limit_stops_dispatch)
{
    rdx_emu *e = emu_new();
    rdx_emu_set_threads(e, 2);
    /* one wave's cycles: an endless loop stopped long before its instruction budget */
    ck_assert_int_eq(run_loop_groups(e, 1, 0, 50000), RDX_ERR_TIMEOUT); /* 0: 2^32 turns */
    const rdx_emu_fault *f = rdx_emu_last_fault(e);
    ck_assert_int_eq(f->kind, RDX_EMU_FAULT_HANG);
    ck_assert_msg(strstr(f->message, "cycle limit 50000 exceeded"), "%s", f->message);
    ck_assert_uint_lt(rdx_emu_get_counters(e)->wave_insts, 100000);
    /* the sums: 400 waves of ~1200 issue cycles each, under the limit one by one; the issue
       cycles of all of them over 192 SIMDs (~2500) are not */
    ck_assert_int_eq(run_loop_groups(e, 400, 300, 0), RDX_OK);
    uint64_t est = rdx_emu_get_counters(e)->est_kernel_cycles,
             wmax = rdx_emu_get_counters(e)->max_wave_cycles;
    ck_assert_uint_gt(est, 2000);
    ck_assert_uint_lt(wmax, 2000);
    ck_assert_int_eq(run_loop_groups(e, 400, 300, 2000), RDX_ERR_TIMEOUT);
    ck_assert_msg(strstr(rdx_emu_last_fault(e)->message, "cycle limit 2000"), "%s",
                  rdx_emu_last_fault(e)->message);
    /* a limit at the estimate: never stopped (the bounds are lower bounds) */
    ck_assert_int_eq(run_loop_groups(e, 400, 300, est), RDX_OK);
    ck_assert_uint_eq(rdx_emu_get_counters(e)->est_kernel_cycles, est);
    rdx_emu_destroy(e);
}
END_TEST

/* The sums' bound counts the target's own SIMDs: a gfx1150 has 32 (16 CUs), so the 400
   waves' ~480000 issue cycles are ~15000 cycles at least there — a limit of 5000 stops the
   dispatch (over gfx1100's 192 SIMDs the bound, ~2500, would let it run to its end) — and
   a limit at its estimate still never does. */
START_TEST(cycle_limit_counts_the_chips_simds)
{
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create("gfx1150", &e), RDX_OK);
    ck_assert_int_eq(run_loop_groups(e, 400, 300, 0), RDX_OK);
    uint64_t est = rdx_emu_get_counters(e)->est_kernel_cycles;
    ck_assert_uint_gt(est, 12000);
    ck_assert_uint_lt(rdx_emu_get_counters(e)->max_wave_cycles, 5000);
    ck_assert_int_eq(run_loop_groups(e, 400, 300, 5000), RDX_ERR_TIMEOUT);
    ck_assert_msg(strstr(rdx_emu_last_fault(e)->message, "cycle limit 5000"), "%s",
                  rdx_emu_last_fault(e)->message);
    ck_assert_int_eq(run_loop_groups(e, 400, 300, est), RDX_OK);
    rdx_emu_destroy(e);
}
END_TEST

Suite *et_suite_faults(void)
{
    Suite *s = suite_create("emu_faults");
    TCase *t = tcase_create("faults");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, oob_load_is_vm_fault);
    tcase_add_test(t, oob_store_is_vm_write_fault);
    tcase_add_test(t, lds_and_scratch_bounds);
    tcase_add_test(t, unimplemented_instruction);
    tcase_add_test(t, invalid_instruction_bytes);
    tcase_add_test(t, infinite_loop_hangs_with_histogram);
    tcase_add_test(t, run_asm_compat);
    tcase_add_test(t, random_code_is_contained);
    tcase_add_test(t, cycle_limit_stops_dispatch);
    tcase_add_test(t, cycle_limit_counts_the_chips_simds);
    suite_add_tcase(s, t);
    return s;
}
