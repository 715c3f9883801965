/*
 * tests/emu_oracle/check_emu_device.c — the emulator's test case in the oracle suite
 * (the hook of suite.h): every prepared corpus kernel at -O0, -O2 and -O3 runs on the
 * RDNA3 emulator (include/rdx/emu.h) and its outputs are compared with the host build
 * (bit-exact for integers, the manifest's tolerance for floats).  Prints the pass count
 * and the number of distinct opcodes the emulator executed (RDX_EMU_LIST_OPS=1 lists them).
 * Every launch runs twice, on 1 host thread and on 4, from the same inputs: the outputs
 * must be bit-identical and so must every counter (totals, classes, cycle estimate, kernel
 * time estimate and per-PC counts) — except for code with global compare-and-swap loops (any
 * *cmpswap* executed; clang -O0 expands atomic_min/max that way), whose retry counts depend on the
 * interleaving of workgroups.
 * Owned by the emulator (emu-core).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/emu.h>
#include <rdx/isa.h>

#include "tests/emu_oracle/suite.h"
#include "tests/harness/harness.h"

typedef struct emu_run_ctx {
    rdx_emu *emu;
    uint8_t seen[RDX_ISA_OP_COUNT];
    int thread_checked; /* launches compared between 1 and 4 host threads */
} emu_run_ctx;

/* Counters equal (pcs by content)?  Returns the name of the first differing field or NULL. */
static const char *counters_differ(const rdx_emu_counters *a, const rdx_emu_counters *b,
                                   const rdx_emu_pc_count *apcs)
{
    if (a->waves != b->waves || a->workgroups != b->workgroups)
        return "waves/workgroups";
    if (a->wave_insts != b->wave_insts || memcmp(a->by_class, b->by_class, sizeof a->by_class) != 0)
        return "wave-instructions";
    if (a->lane_ops != b->lane_ops || a->vector_insts != b->vector_insts)
        return "lane-ops";
    if (a->bytes_read != b->bytes_read || a->bytes_written != b->bytes_written ||
        a->lds_bytes != b->lds_bytes || a->scratch_bytes != b->scratch_bytes)
        return "bytes";
    if (a->vopd != b->vopd || a->cycles != b->cycles || a->max_wave_cycles != b->max_wave_cycles)
        return "cycles";
    if (a->est_kernel_cycles != b->est_kernel_cycles ||
        a->est_issue_cycles != b->est_issue_cycles || a->est_dram_bytes != b->est_dram_bytes ||
        a->est_bound != b->est_bound || a->est_waves_per_simd != b->est_waves_per_simd ||
        a->est_groups_per_wgp != b->est_groups_per_wgp)
        return "kernel time estimate";
    if (a->npc != b->npc)
        return "per-PC counts";
    /* field by field (the struct has padding); PCs relative to the first, as each run loads
     * the code object at a new address */
    for (size_t i = 0; i < a->npc; i++)
        if (apcs[i].pc - apcs[0].pc != b->pcs[i].pc - b->pcs[0].pc ||
            apcs[i].count != b->pcs[i].count || apcs[i].op != b->pcs[i].op)
            return "per-PC counts";
    return NULL;
}

/*
 * Run the launch on the emulator with 1 host thread, then again from the same inputs
 * with 4, compare, and note which ops it executed.  The 4-thread outputs stay for the
 * oracle's comparison with the host build.
 */
static int run_on_emu(void *user, const rdx_oracle_launch *l, char *msg, size_t msglen)
{
    emu_run_ctx *c = user;
    void *saved[RDX_ORACLE_MAX_ARGS] = { 0 }, *one[RDX_ORACLE_MAX_ARGS] = { 0 };
    rdx_emu_counters c1;
    rdx_emu_pc_count *pcs1 = NULL;
    int rc = 1;
    for (int i = 0; i < l->nbufs; i++) {
        saved[i] = malloc(l->bufs[i].size ? l->bufs[i].size : 1);
        one[i] = malloc(l->bufs[i].size ? l->bufs[i].size : 1);
        if (!saved[i] || !one[i]) {
            snprintf(msg, msglen, "out of memory");
            goto out;
        }
        memcpy(saved[i], l->bufs[i].data, l->bufs[i].size);
    }
    rdx_emu_set_threads(c->emu, 1);
    if (rdx_oracle_run_on_emu(c->emu, l, msg, msglen))
        goto out;
    c1 = *rdx_emu_get_counters(c->emu);
    pcs1 = malloc((c1.npc ? c1.npc : 1) * sizeof *pcs1);
    if (!pcs1) {
        snprintf(msg, msglen, "out of memory");
        goto out;
    }
    memcpy(pcs1, c1.pcs, c1.npc * sizeof *pcs1);
    for (int i = 0; i < l->nbufs; i++) {
        memcpy(one[i], l->bufs[i].data, l->bufs[i].size);
        memcpy(l->bufs[i].data, saved[i], l->bufs[i].size);
    }
    rdx_emu_set_threads(c->emu, 4);
    if (rdx_oracle_run_on_emu(c->emu, l, msg, msglen))
        goto out;
    for (int i = 0; i < l->nbufs; i++)
        if (memcmp(one[i], l->bufs[i].data, l->bufs[i].size) != 0) {
            snprintf(msg, msglen, "buffer %d differs between 1 and 4 host threads", i);
            goto out;
        }
    const char *d = counters_differ(&c1, rdx_emu_get_counters(c->emu), pcs1);
    int cas = 0;
    for (size_t i = 0; i < c1.npc; i++)
        cas |= pcs1[i].op < RDX_ISA_OP_COUNT &&
               strstr(rdx_isa_op_name((rdx_isa_op)pcs1[i].op), "cmpswap") != NULL;
    if (d && !cas) {
        snprintf(msg, msglen, "counters (%s) differ between 1 and 4 host threads", d);
        goto out;
    }
    c->thread_checked++;
    rc = 0;
out:
    for (int i = 0; i < l->nbufs; i++) {
        free(saved[i]);
        free(one[i]);
    }
    free(pcs1);
    if (rc)
        return 1;
    const rdx_emu_counters *cnt = rdx_emu_get_counters(c->emu);
    for (size_t i = 0; i < cnt->npc; i++)
        if (cnt->pcs[i].op < RDX_ISA_OP_COUNT)
            c->seen[cnt->pcs[i].op] = 1;
    return 0;
}

/*
 * Entries a target cannot compile, with the reason: the WMMA kernel calls gfx11's WMMA
 * builtins, whose operand types gfx12 changed (clang-19 for gfx12: "Cannot select: intrinsic
 * llvm.amdgcn.wmma.f32.16x16x16.f16"); gfx12's own WMMA is tested in tests/emu.
 */
static const char *not_applicable(const char *target, const rdx_oracle_kernel *k)
{
    if (!strncmp(target, "gfx12", 5) && !strcmp(k->file, "wmma.cl"))
        return "gfx11 WMMA builtins, which clang-19 cannot select for gfx12";
    return NULL;
}

/* Run every prepared launch of oracle o on an emulator of o's target; prints the counts. */
static void corpus_on(rdx_oracle *o)
{
    const char *target = rdx_oracle_target(o);
    emu_run_ctx *c = calloc(1, sizeof *c);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(rdx_emu_create(target, &c->emu), RDX_OK);
    rdx_oracle_summary sum;
    memset(&sum, 0, sizeof sum);
    int failed = 0, na = 0;
    for (int i = 0; i < rdx_oracle_count(o); i++) {
        if (not_applicable(target, rdx_oracle_kernel_at(o, i))) {
            na++;
            continue;
        }
        for (int opt = 0; opt < RDX_ORACLE_NOPT; opt++)
            if (rdx_oracle_level_on(o, opt))
                failed += rdx_oracle_run_one(o, i, opt, run_on_emu, c, &sum, stdout) != 0;
    }
    unsigned distinct = 0, levels = 0;
    for (unsigned i = 0; i < RDX_ISA_OP_COUNT; i++)
        distinct += c->seen[i];
    for (int i = 0; i < RDX_ORACLE_NOPT; i++)
        levels += (unsigned)rdx_oracle_level_on(o, i);
    printf("emu_oracle on the %s emulator: %d launches (%d kernels x %u levels): %d passed, %d "
           "device failures, %d mismatches, %d skipped; %u distinct opcodes executed; %d "
           "kernels not applicable to the target\n",
           target, sum.launches, rdx_oracle_count(o) - na, levels, sum.passed, sum.device_failed,
           sum.mismatched, sum.skipped, distinct, na);
    printf("emu_oracle on the %s emulator: %d launches bit-identical on 1 and 4 host threads\n",
           target, c->thread_checked);
    if (getenv("RDX_EMU_LIST_OPS"))
        for (unsigned i = 0; i < RDX_ISA_OP_COUNT; i++)
            if (c->seen[i])
                printf("  %s\n", rdx_isa_op_name((rdx_isa_op)i));
    fflush(stdout);
    int checked = c->thread_checked;
    rdx_emu_destroy(c->emu);
    free(c);
    ck_assert_uint_ge(distinct, 60);
    ck_assert_msg(failed == 0, "%d kernel launches failed on the %s emulator (see above)", failed,
                  target);
    ck_assert_int_eq(checked, sum.launches);
}

START_TEST(corpus_on_emulator)
{
    const char *why = NULL;
    rdx_oracle *o = rdx_emu_oracle_suite_oracle(&why);
    ck_assert_msg(o != NULL, "oracle not prepared: %s", why ? why : "");
    corpus_on(o);
}
END_TEST

/*
 * The corpus compiled by clang-19 for RDNA3.5 (gfx1151) and RDNA4 (gfx1201) on the emulator
 * of that target.  Every run compiles and runs all kernels at -O2; RDX_EMU_ORACLE_FULL=1
 * adds -O0 and -O3 (docs/emu-tests.md).
 */
static void corpus_on_target(const char *target)
{
    rdx_oracle_options opts = { 0 };
    opts.target = target;
    const char *full = getenv("RDX_EMU_ORACLE_FULL");
    opts.levels = full && *full && strcmp(full, "0") ? 0 : 1u << 1; /* -O2 */
    const char *why = NULL;
    opts.host_from = rdx_emu_oracle_suite_oracle(&why); /* the host side is the same */
    ck_assert_msg(opts.host_from != NULL, "oracle not prepared: %s", why ? why : "");
    char err[1024];
    rdx_oracle *o = rdx_oracle_prepare(&opts, err, sizeof err);
    ck_assert_msg(o != NULL, "oracle for %s not prepared: %s", target, err);
    printf("emu_oracle: %d kernels prepared for %s in %.1f s\n", rdx_oracle_count(o), target,
           rdx_oracle_prepare_seconds(o, NULL));
    for (int i = 0; i < rdx_oracle_count(o); i++)
        for (int opt = 0; opt < RDX_ORACLE_NOPT; opt++) {
            const char *st =
                rdx_oracle_level_on(o, opt) && !not_applicable(target, rdx_oracle_kernel_at(o, i))
                    ? rdx_oracle_status(o, i, opt)
                    : NULL;
            ck_assert_msg(st == NULL, "%s: %s", target, st);
        }
    corpus_on(o);
    rdx_oracle_free(o);
}

START_TEST(corpus_on_gfx1151)
{
    corpus_on_target("gfx1151");
}
END_TEST

START_TEST(corpus_on_gfx1201)
{
    corpus_on_target("gfx1201");
}
END_TEST

TCase *rdx_emu_oracle_targets_tcase(void)
{
    TCase *tc = tcase_create("targets");
    tcase_set_timeout(tc, 900);
    tcase_add_unchecked_fixture(tc, rdx_emu_oracle_suite_setup, NULL);
    tcase_add_test(tc, corpus_on_gfx1151);
    tcase_add_test(tc, corpus_on_gfx1201);
    return tc;
}

TCase *rdx_emu_oracle_device_tcase(void)
{
    TCase *tc = tcase_create("emulator");
    tcase_set_timeout(tc, 900);
    tcase_add_unchecked_fixture(tc, rdx_emu_oracle_suite_setup, NULL);
    tcase_add_test(tc, corpus_on_emulator);
    return tc;
}
