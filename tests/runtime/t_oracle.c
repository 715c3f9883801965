/*
 * tests/runtime/t_oracle.c — the emulator suite's clang-compiled OpenCL
 * kernels (tests/oracle: every manifest kernel at -O0, -O2, -O3) loaded
 * by the runtime, their arguments laid out by the runtime from the code
 * object's metadata, dispatched through kfd/pm4 on the emulated GPU and
 * compared with the host build of the same source.
 *
 * Each launch also runs directly on the wave emulator with the oracle's own
 * kernarg segment (packed by tests/oracle from the metadata,
 * independently of the runtime): the runtime's outputs must equal those
 * bit for bit, so any difference is the runtime's (argument layout, grid,
 * copies), while a kernel the emulator itself gets wrong fails the host
 * comparison on both paths (it is reported as such in the summary line).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/emu.h>

#include "tests/oracle/oracle.h"
#include "tests/runtime/rt_test.h"

static rdx_arg scalar(const rdx_oracle_arg *a)
{
    rdx_arg r = { RDX_ARG_VALUE, NULL, 0, (uint32_t)rdx_oracle_type_size(a->type), { { 0 } } };
    if (a->type == RDX_ORACLE_F32)
        r.v.f32 = (float)a->fval;
    else if (a->type == RDX_ORACLE_F64)
        r.v.f64 = a->fval;
    else
        memcpy(r.v.bytes, &a->ival, r.size); /* little-endian truncation */
    return r;
}

typedef struct ctx {
    rdx_device *dev;
    rdx_queue *q;
    rdx_emu *emu;
    int disagreements;
} ctx;

/* Run l directly on the emulator, in place on l's buffers.  0 or -1. */
static int run_direct(ctx *c, const rdx_oracle_launch *l)
{
    char msg[512];
    return rdx_oracle_run_on_emu(c->emu, l, msg, sizeof msg) ? -1 : 0;
}

static int run_runtime(ctx *c, const rdx_oracle_launch *l, char *msg, size_t msglen);

static int run_both(void *user, const rdx_oracle_launch *l, char *msg, size_t msglen)
{
    ctx *c = user;
    void *in[RDX_ORACLE_MAX_ARGS] = { 0 }, *direct[RDX_ORACLE_MAX_ARGS] = { 0 };
    for (int i = 0; i < l->nbufs; i++) {
        in[i] = malloc(l->bufs[i].size + 1);
        memcpy(in[i], l->bufs[i].data, l->bufs[i].size);
    }
    int direct_ok = run_direct(c, l) == 0;
    for (int i = 0; i < l->nbufs; i++) {
        direct[i] = malloc(l->bufs[i].size + 1);
        memcpy(direct[i], l->bufs[i].data, l->bufs[i].size);
        memcpy(l->bufs[i].data, in[i], l->bufs[i].size); /* fresh inputs again */
    }
    int rc = run_runtime(c, l, msg, msglen);
    for (int i = 0; rc == 0 && direct_ok && i < l->nbufs; i++)
        if (memcmp(direct[i], l->bufs[i].data, l->bufs[i].size)) {
            c->disagreements++;
            snprintf(msg, msglen,
                     "buffer argument %d differs between the runtime path and the direct "
                     "emulator run",
                     l->bufs[i].arg);
            rc = 1;
        }
    for (int i = 0; i < l->nbufs; i++) {
        free(in[i]);
        free(direct[i]);
    }
    return rc;
}

static int run_runtime(ctx *c, const rdx_oracle_launch *l, char *msg, size_t msglen)
{
    rdx_program *p = NULL;
    rdx_buffer *bufs[RDX_ORACLE_MAX_ARGS] = { 0 };
    int rc = 1;
    const rdx_kernel *k;
    if (rdx_program_load(c->dev, l->code, l->code_size, l->kernel->id, &p) ||
        rdx_program_find(p, l->kernel_name, &k))
        goto out;
    rdx_arg args[RDX_ORACLE_MAX_ARGS];
    for (int i = 0; i < l->kernel->nargs; i++)
        args[i] = scalar(&l->kernel->args[i]);
    for (int i = 0; i < l->nbufs; i++) {
        const rdx_oracle_buffer *b = &l->bufs[i];
        if (rdx_buffer_alloc(c->dev, b->size ? b->size : 4, RDX_MEM_DEVICE, &bufs[b->arg]) ||
            rdx_buffer_upload(bufs[b->arg], 0, b->data, b->size))
            goto out;
        args[b->arg] = rdx_arg_buffer(bufs[b->arg]);
    }
    rdx_launch ln;
    memset(&ln, 0, sizeof ln);
    ln.kernel = k;
    for (int i = 0; i < 3; i++) {
        ln.global[i] = l->grid[i];
        ln.block[i] = l->block[i];
    }
    ln.args = args;
    ln.nargs = (uint32_t)l->kernel->nargs;
    uint64_t t;
    if (rdx_queue_dispatch(c->q, &ln, &t) || rdx_queue_wait(c->q, t, 60000))
        goto out;
    for (int i = 0; i < l->nbufs; i++)
        if (l->bufs[i].is_output &&
            rdx_buffer_download(bufs[l->bufs[i].arg], 0, l->bufs[i].data, l->bufs[i].size))
            goto out;
    rc = 0;
out:
    if (rc)
        snprintf(msg, msglen, "%s", rdx_error_message());
    for (int i = 0; i < RDX_ORACLE_MAX_ARGS; i++)
        rdx_buffer_free(bufs[i]);
    rdx_program_free(p);
    return rc;
}

START_TEST(clang_kernels_match_the_host_oracle)
{
    char err[512];
    rdx_oracle *o = rdx_oracle_prepare(NULL, err, sizeof err);
    ck_assert_msg(o != NULL, "oracle setup: %s", err);
    rt_fixture f;
    rt_open(&f, 0);
    ctx c = { f.dev, NULL, NULL, 0 };
    RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COMPUTE, &c.q));
    RT_OK(rdx_emu_create("gfx1100", &c.emu));
    rdx_oracle_summary sum;
    /* The per-launch log is shown when the runtime path fails; host mismatches
     * that the direct emulator run shares are the emulator's (emu-core). */
    char *log = NULL;
    size_t loglen = 0;
    FILE *lf = open_memstream(&log, &loglen);
    ck_assert_ptr_nonnull(lf);
    rdx_oracle_run_all(o, run_both, &c, &sum, lf);
    fclose(lf);
    if (sum.device_failed)
        fputs(log, stdout);
    free(log);
    printf("runtime oracle: %d launches: %d match the host, %d runtime failures or "
           "disagreements with the direct emulator run (%d), %d host mismatches shared with "
           "the direct run (emulator defects), %d skipped\n",
           sum.launches, sum.passed, sum.device_failed, c.disagreements, sum.mismatched,
           sum.skipped);
    fflush(stdout);
    ck_assert_int_ge(sum.launches, 90);
    ck_assert_int_eq(sum.skipped, 0);
    ck_assert_msg(sum.device_failed == 0, "%d launches failed on the runtime path (see above)",
                  sum.device_failed);
    /* The emulator gets every kernel right on its own (tests/emu_kernels). */
    ck_assert_int_eq(sum.passed, sum.launches);
    rdx_emu_destroy(c.emu);
    RT_OK(rdx_queue_destroy(c.q));
    rdx_oracle_free(o);
    rt_close(&f);
}
END_TEST

TCase *rt_tcase_oracle(void)
{
    TCase *tc = tcase_create("oracle");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, clang_kernels_match_the_host_oracle);
    return tc;
}
