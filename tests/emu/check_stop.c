/*
 * tests/emu/check_stop.c — how a dispatch is stopped: the cancel hook ends a
 * huge grid of short waves (it stops between workgroups too, not only inside
 * long waves), the dispatch budget ends a dispatch of many bounded waves as a
 * slow dispatch (exactly at the budget it runs to the end), and every stop's
 * report counts the stopped waves per PC with each instruction disassembled.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/emu/emu_test.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Wave32 code from `text` in a 64 KiB page-aligned block, registered readable. */
typedef struct stop_code {
    uint8_t *mem;
    rdx_emu_dispatch d;
} stop_code;

static void code_load(rdx_emu *e, stop_code *c, const char *text)
{
    size_t len;
    uint8_t *bytes = et_assemble(text, &len);
    c->mem = aligned_alloc(4096, 65536);
    ck_assert_ptr_nonnull(c->mem);
    memset(c->mem, 0, 65536);
    ck_assert_uint_le(len, 65536);
    memcpy(c->mem, bytes, len);
    free(bytes);
    ck_assert_int_eq(rdx_emu_map(e, (uint64_t)(uintptr_t)c->mem, 65536, RDX_EMU_READ), RDX_OK);
    memset(&c->d, 0, sizeof c->d);
    c->d.code = (uint64_t)(uintptr_t)c->mem;
    c->d.code_properties = 1u << 10; /* wave32 */
}

static void code_free(rdx_emu *e, stop_code *c)
{
    ck_assert_int_eq(rdx_emu_unmap(e, (uint64_t)(uintptr_t)c->mem), RDX_OK);
    free(c->mem);
}

static rdx_emu *emu_new(unsigned threads)
{
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create("gfx1100", &e), RDX_OK);
    rdx_emu_set_threads(e, threads);
    return e;
}

/* The waves the report's histogram counts; every entry disassembled, in the message. */
static uint64_t hist_waves(const rdx_emu_fault *f)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < f->nhist; i++) {
        ck_assert_msg(f->hist[i].inst[0] && f->hist[i].inst[0] != '(', "entry %u: '%s'", i,
                      f->hist[i].inst);
        ck_assert_msg(strstr(f->message, f->hist[i].inst), "'%s' not in %s", f->hist[i].inst,
                      f->message);
        ck_assert_uint_ge(f->hist[i].count, 1);
        n += f->hist[i].count;
    }
    return n;
}

static void *cancel_later(void *flag)
{
    struct timespec ts = { 0, 100 * 1000 * 1000 };
    nanosleep(&ts, NULL);
    __atomic_store_n((int *)flag, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* 65535^3 workgroups of 1024 work-items whose waves run two instructions: before the
 * fix a cancel was only seen inside a wave after 4096 instructions, so this never
 * ended.  The test's timeout (tcase) is the "never". */
START_TEST(cancel_stops_a_huge_grid_of_short_waves)
{
    rdx_emu *e = emu_new(2);
    stop_code c;
    code_load(e, &c, "s_add_u32 s20, s20, 1\n s_endpgm\n");
    c.d.wg[0] = 1024;
    c.d.grid[0] = 65535u * 1024u;
    c.d.grid[1] = c.d.grid[2] = 65535;
    int flag = 0;
    c.d.cancel = &flag;
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, cancel_later, &flag), 0);
    double t0 = now_s();
    rdx_status st = rdx_emu_run(e, &c.d);
    double el = now_s() - t0;
    pthread_join(th, NULL);
    ck_assert_int_eq(st, RDX_ERR_TIMEOUT);
    ck_assert_msg(el < 5.0, "cancelling took %.2f s", el);
    const rdx_emu_fault *f = rdx_emu_last_fault(e);
    ck_assert_int_eq(f->kind, RDX_EMU_FAULT_HANG);
    ck_assert_msg(strstr(f->message, "cancelled by the caller") &&
                      strstr(f->message, "PC histogram") && !strstr(f->message, "budget"),
                  "%s", f->message);
    ck_assert_uint_le(hist_waves(f), 2 * 32); /* at most one group in flight per thread */
    ck_assert_uint_gt(rdx_emu_get_counters(e)->workgroups, 0);

    /* Already set: nothing starts, the report says so. */
    t0 = now_s();
    ck_assert_int_eq(rdx_emu_run(e, &c.d), RDX_ERR_TIMEOUT);
    ck_assert_msg(now_s() - t0 < 2.0, "a cancelled dispatch took %.2f s", now_s() - t0);
    f = rdx_emu_last_fault(e);
    ck_assert_int_eq(f->kind, RDX_EMU_FAULT_HANG);
    ck_assert_uint_eq(f->nhist, 0);
    ck_assert_msg(strstr(f->message, "cancelled by the caller, 0 of") &&
                      strstr(f->message, "no wave was running"),
                  "%s", f->message);

    /* Cleared: the emulator is usable, a small grid runs to its end. */
    flag = 0;
    c.d.grid[0] = 4096;
    c.d.grid[1] = c.d.grid[2] = 1;
    ck_assert_int_eq(rdx_emu_run(e, &c.d), RDX_OK);
    ck_assert_uint_eq(rdx_emu_get_counters(e)->wave_insts, 4096 / 32 * 2);
    code_free(e, &c);
    rdx_emu_destroy(e);
}
END_TEST

/* Each wave runs 3002 instructions (1 + 1000 x 3 + 1), far under the per-wave budget. */
static const char *const bounded_loop = "s_mov_b32 s20, 0\n"
                                        "L:\n s_add_u32 s20, s20, 1\n s_cmp_lt_u32 s20, 1000\n"
                                        " s_cbranch_scc1 L\n s_endpgm\n";

START_TEST(dispatch_budget_stops_a_slow_dispatch)
{
    rdx_emu *e = emu_new(2);
    stop_code c;
    code_load(e, &c, bounded_loop);
    c.d.wg[0] = 32;
    c.d.grid[0] = 1000 * 32; /* 1000 single-wave groups: 3,002,000 wave-instructions */
    c.d.dispatch_budget = 100000;
    ck_assert_int_eq(rdx_emu_run(e, &c.d), RDX_ERR_TIMEOUT);
    const rdx_emu_fault *f = rdx_emu_last_fault(e);
    ck_assert_int_eq(f->kind, RDX_EMU_FAULT_DISPATCH_BUDGET);
    ck_assert_msg(strstr(f->message, "slow dispatch: ") &&
                      strstr(f->message, "dispatch exceeded its budget of 100000 "
                                         "wave-instructions") &&
                      strstr(f->message, "PC histogram") && !strstr(f->message, "hang"),
                  "%s", f->message);
    ck_assert_str_eq(rdx_error_message(), f->message);
    hist_waves(f);
    /* It stopped soon after the budget: at most a wave per thread more. */
    const rdx_emu_counters *k = rdx_emu_get_counters(e);
    ck_assert_uint_le(k->wave_insts, 100000 + 2 * 3002);
    ck_assert_uint_lt(k->workgroups, 1000);

    /* Exactly the dispatch's total: it runs to the end.  One less: a dispatch that
     * finished over its budget is reported all the same (the outcome does not depend on
     * when the threads looked). */
    c.d.dispatch_budget = 3002000;
    ck_assert_int_eq(rdx_emu_run(e, &c.d), RDX_OK);
    ck_assert_uint_eq(rdx_emu_get_counters(e)->wave_insts, 3002000);
    c.d.dispatch_budget = 3001999;
    ck_assert_int_eq(rdx_emu_run(e, &c.d), RDX_ERR_TIMEOUT);
    ck_assert_int_eq(rdx_emu_last_fault(e)->kind, RDX_EMU_FAULT_DISPATCH_BUDGET);
    /* No budget: the whole dispatch, as before. */
    c.d.dispatch_budget = 0;
    ck_assert_int_eq(rdx_emu_run(e, &c.d), RDX_OK);
    code_free(e, &c);
    rdx_emu_destroy(e);
}
END_TEST

/* The per-wave budget's hang report counts the group's waves (all four live, the one
 * over its budget included) per PC, each instruction disassembled. */
START_TEST(wave_budget_report_counts_waves_per_pc)
{
    rdx_emu *e = emu_new(1);
    stop_code c;
    code_load(e, &c, "L:\n s_add_u32 s20, s20, 1\n s_branch L\n");
    c.d.wg[0] = c.d.grid[0] = 128; /* one group of four waves */
    c.d.budget = 10000;
    ck_assert_int_eq(rdx_emu_run(e, &c.d), RDX_ERR_TIMEOUT);
    const rdx_emu_fault *f = rdx_emu_last_fault(e);
    ck_assert_int_eq(f->kind, RDX_EMU_FAULT_HANG);
    ck_assert_uint_eq(hist_waves(f), 4);
    for (unsigned i = 0; i < f->nhist; i++)
        ck_assert_msg(strstr(f->hist[i].inst, "s_add_u32 s20, s20, 1") ||
                          strstr(f->hist[i].inst, "s_branch"),
                      "%s", f->hist[i].inst);
    ck_assert_msg(strstr(f->message, "budget 10000 wave-instructions per wave") &&
                      strstr(f->message, "PC histogram"),
                  "%s", f->message);
    /* The wave over its budget stopped at it, not hundreds of instructions later. */
    ck_assert_uint_le(rdx_emu_get_counters(e)->wave_insts, 4 * 10000);
    code_free(e, &c);
    rdx_emu_destroy(e);
}
END_TEST

Suite *et_suite_stop(void)
{
    Suite *s = suite_create("emu_stop");
    TCase *t = tcase_create("stop");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, cancel_stops_a_huge_grid_of_short_waves);
    tcase_add_test(t, dispatch_budget_stops_a_slow_dispatch);
    tcase_add_test(t, wave_budget_report_counts_waves_per_pc);
    suite_add_tcase(s, t);
    return s;
}
