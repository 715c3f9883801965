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

START_TEST(corpus_on_emulator)
{
    const char *why = NULL;
    rdx_oracle *o = rdx_emu_oracle_suite_oracle(&why);
    ck_assert_msg(o != NULL, "oracle not prepared: %s", why ? why : "");
    emu_run_ctx *c = calloc(1, sizeof *c);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(rdx_emu_create("gfx1100", &c->emu), RDX_OK);
    rdx_oracle_summary sum;
    memset(&sum, 0, sizeof sum);
    int failed = rdx_oracle_run_all(o, run_on_emu, c, &sum, stdout);
    unsigned distinct = 0;
    for (unsigned i = 0; i < RDX_ISA_OP_COUNT; i++)
        distinct += c->seen[i];
    printf("emu_oracle on the emulator: %d launches (%d kernels x %d levels): %d passed, %d device "
           "failures, %d mismatches, %d skipped; %u distinct opcodes executed\n",
           sum.launches, rdx_oracle_count(o), RDX_ORACLE_NOPT, sum.passed, sum.device_failed,
           sum.mismatched, sum.skipped, distinct);
    printf("emu_oracle on the emulator: %d launches bit-identical on 1 and 4 host threads\n",
           c->thread_checked);
    if (getenv("RDX_EMU_LIST_OPS"))
        for (unsigned i = 0; i < RDX_ISA_OP_COUNT; i++)
            if (c->seen[i])
                printf("  %s\n", rdx_isa_op_name((rdx_isa_op)i));
    fflush(stdout);
    int checked = c->thread_checked;
    rdx_emu_destroy(c->emu);
    free(c);
    ck_assert_uint_ge(distinct, 60);
    ck_assert_msg(failed == 0, "%d kernel launches failed on the emulator (see above)", failed);
    ck_assert_int_eq(checked, sum.launches);
}
END_TEST

TCase *rdx_emu_oracle_device_tcase(void)
{
    TCase *tc = tcase_create("emulator");
    tcase_set_timeout(tc, 900);
    tcase_add_unchecked_fixture(tc, rdx_emu_oracle_suite_setup, NULL);
    tcase_add_test(tc, corpus_on_emulator);
    return tc;
}
