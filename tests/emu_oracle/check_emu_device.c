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

#include <rdx/codeobj.h>
#include <rdx/emu.h>
#include <rdx/isa.h>

#include "tests/emu_oracle/suite.h"
#include "tests/harness/harness.h"

typedef struct emu_run_ctx {
    rdx_emu *emu;
    uint8_t seen[RDX_ISA_OP_COUNT];
} emu_run_ctx;

/* Load the code object, register code/kernarg/buffers, dispatch, unregister. */
static int run_on_emu(void *user, const rdx_oracle_launch *l, char *msg, size_t msglen)
{
    emu_run_ctx *c = user;
    rdx_codeobj *co = NULL;
    if (rdx_codeobj_read(l->code, l->code_size, l->kernel_name, &co)) {
        snprintf(msg, msglen, "code object: %s", rdx_error_message());
        return 1;
    }
    const rdx_codeobj_kernel *k = NULL;
    for (size_t i = 0; i < co->num_kernels; i++)
        if (!strcmp(co->kernels[i].name, l->kernel_name))
            k = &co->kernels[i];
    size_t cap = (co->text_size + 4095) & ~(size_t)4095;
    uint8_t *code = k ? aligned_alloc(4096, cap ? cap : 4096) : NULL;
    uint8_t kd[64];
    if (!k || !code || rdx_codeobj_kd_pack(&k->kd, 11, kd)) {
        snprintf(msg, msglen, "kernel %s: %s", l->kernel_name,
                 k ? "cannot pack its descriptor" : "not in the code object");
        free(code);
        rdx_codeobj_free(co);
        return 1;
    }
    memset(code, 0, cap ? cap : 4096);
    memcpy(code, co->text, co->text_size);
    rdx_emu_dispatch d;
    memset(&d, 0, sizeof d);
    rdx_emu_dispatch_from_descriptor(&d, kd);
    d.code = (uint64_t)(uintptr_t)code + k->code_offset;
    rdx_codeobj_free(co);
    for (int i = 0; i < 3; i++) {
        d.grid[i] = l->grid[i];
        d.wg[i] = l->block[i];
    }
    d.kernarg = (uint64_t)(uintptr_t)l->kernarg;
    rdx_emu *e = c->emu;
    rdx_status st = rdx_emu_map(e, (uint64_t)(uintptr_t)code, cap ? cap : 4096, RDX_EMU_READ);
    if (!st && l->kernarg_size)
        st = rdx_emu_map(e, d.kernarg, l->kernarg_size, RDX_EMU_READ);
    int mapped = 0;
    for (; !st && mapped < l->nbufs; mapped++)
        if (l->bufs[mapped].size)
            st = rdx_emu_map(e, (uint64_t)(uintptr_t)l->bufs[mapped].data, l->bufs[mapped].size,
                             RDX_EMU_RW);
    if (!st)
        st = rdx_emu_run(e, &d);
    if (st)
        snprintf(msg, msglen, "%s", rdx_error_message());
    for (int i = 0; i < mapped; i++)
        if (l->bufs[i].size)
            rdx_emu_unmap(e, (uint64_t)(uintptr_t)l->bufs[i].data);
    if (l->kernarg_size)
        rdx_emu_unmap(e, d.kernarg);
    rdx_emu_unmap(e, (uint64_t)(uintptr_t)code);
    free(code);
    if (st)
        return 1;
    const rdx_emu_counters *cnt = rdx_emu_get_counters(e);
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
