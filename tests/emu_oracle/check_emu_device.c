/*
 * tests/emu_oracle/check_emu_device.c — the emulator's test case in the oracle suite
 * (the hook of suite.h): every prepared corpus kernel at -O0, -O2 and -O3 runs on the
 * RDNA3 emulator (include/rdx/emu.h) and its outputs are compared with the host build
 * (bit-exact for integers, the manifest's tolerance for floats).  Prints the pass count
 * and the number of distinct opcodes the emulator executed (RDX_EMU_LIST_OPS=1 lists them).
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
} emu_run_ctx;

/* Run the launch on the emulator and note which ops it executed. */
static int run_on_emu(void *user, const rdx_oracle_launch *l, char *msg, size_t msglen)
{
    emu_run_ctx *c = user;
    if (rdx_oracle_run_on_emu(c->emu, l, msg, msglen))
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
    if (getenv("RDX_EMU_LIST_OPS"))
        for (unsigned i = 0; i < RDX_ISA_OP_COUNT; i++)
            if (c->seen[i])
                printf("  %s\n", rdx_isa_op_name((rdx_isa_op)i));
    fflush(stdout);
    rdx_emu_destroy(c->emu);
    free(c);
    ck_assert_uint_ge(distinct, 60);
    ck_assert_msg(failed == 0, "%d kernel launches failed on the emulator (see above)", failed);
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
