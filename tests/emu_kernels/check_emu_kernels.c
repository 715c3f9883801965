/*
 * tests/emu_kernels/check_emu_kernels.c — the clang-compiled OpenCL kernel
 * oracle (tests/emu_oracle) run on the emulator: every manifest kernel at
 * -O0, -O2 and -O3, outputs compared with the host build of the same source
 * (bit-exact for integers, within the manifest's tolerance for floats).
 * Prints the pass count per level and the number of distinct opcodes the
 * emulator executed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/emu.h>
#include <rdx/isa.h>

#include "tests/emu_kernels/emu_load.h"
#include "tests/emu_oracle/oracle.h"
#include "tests/harness/harness.h"

typedef struct run_ctx {
    rdx_emu *emu;
    uint8_t seen[RDX_ISA_OP_COUNT];
    int pass[RDX_ORACLE_NOPT], total[RDX_ORACLE_NOPT];
    char failures[8192];
} run_ctx;

static int run_on_emu(void *user, const rdx_oracle_launch *l, char *msg, size_t msglen)
{
    run_ctx *c = user;
    emu_prog p;
    if (emu_prog_load_mem(l->code, l->code_size, &p)) {
        snprintf(msg, msglen, "load: %s", rdx_error_message());
        return 1;
    }
    const struct emu_prog_kernel *k = emu_prog_kernel(&p, l->kernel_name);
    if (!k) {
        snprintf(msg, msglen, "kernel %s not in the code object", l->kernel_name);
        emu_prog_free(&p);
        return 1;
    }
    rdx_emu_range r[RDX_ORACLE_MAX_ARGS];
    size_t n = 0;
    for (int i = 0; i < l->nbufs; i++)
        if (l->bufs[i].size)
            r[n++] = (rdx_emu_range){ (uint64_t)(uintptr_t)l->bufs[i].data, l->bufs[i].size };
    rdx_status st =
        emu_prog_run(c->emu, &p, k, l->grid, l->block, l->kernarg, l->kernarg_size, r, n);
    emu_prog_free(&p);
    if (st) {
        snprintf(msg, msglen, "%s", rdx_error_message());
        return 1;
    }
    const rdx_emu_counters *cnt = rdx_emu_get_counters(c->emu);
    for (size_t i = 0; i < cnt->npc; i++)
        if (cnt->pcs[i].op < RDX_ISA_OP_COUNT)
            c->seen[cnt->pcs[i].op] = 1;
    return 0;
}

START_TEST(oracle_kernels_on_emulator)
{
    char err[1024];
    rdx_oracle *o = rdx_oracle_prepare(NULL, err, sizeof err);
    ck_assert_msg(o != NULL, "oracle: %s", err);
    run_ctx *c = calloc(1, sizeof *c);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(rdx_emu_create("gfx1100", &c->emu), RDX_OK);
    rdx_oracle_summary sum;
    int failed = rdx_oracle_run_all(o, run_on_emu, c, &sum, stdout);
    unsigned distinct = 0;
    for (unsigned i = 0; i < RDX_ISA_OP_COUNT; i++)
        distinct += c->seen[i];
    if (getenv("RDX_EMU_LIST_OPS"))
        for (unsigned i = 0; i < RDX_ISA_OP_COUNT; i++)
            if (c->seen[i])
                printf("  %s\n", rdx_isa_op_name((rdx_isa_op)i));
    printf("emu_kernels: %d launches (%d kernels x %d levels): %d passed, %d device failures, "
           "%d mismatches, %d skipped; %u distinct opcodes executed\n",
           sum.launches, rdx_oracle_count(o), RDX_ORACLE_NOPT, sum.passed, sum.device_failed,
           sum.mismatched, sum.skipped, distinct);
    fflush(stdout);
    rdx_emu_destroy(c->emu);
    free(c);
    rdx_oracle_free(o);
    ck_assert_int_ge(distinct, 60);
    ck_assert_msg(failed == 0, "%d kernel launches failed on the emulator (see above)", failed);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("emu_kernels");
    TCase *tc = tcase_create("oracle");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, oracle_kernels_on_emulator);
    suite_add_tcase(s, tc);
    return rdx_test_main(s);
}
