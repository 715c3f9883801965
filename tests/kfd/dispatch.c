/*
 * tests/kfd/dispatch.c — DISPATCH_DIRECT through the whole path: a kernel
 * assembled by llvm-mc (the oracle for the encoding), the pm4 layer's
 * dispatch sequence, a compute queue, the wave emulator, and the results
 * checked against a host computation; a faulting kernel reports its address.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdx/pm4.h>

#include "tests/kfd/kfd_test.h"

/* out[gid] = s2 + gid, gid = tgid.x * 64 + tid.x (s[0:1] = out, s2 = base, s3 = tgid.x). */
static const char kernel_src[] = "s_lshl_b32 s4, s3, 6\n"
                                 "v_add_nc_u32 v0, s4, v0\n"
                                 "v_add_nc_u32 v1, s2, v0\n"
                                 "v_lshlrev_b32 v0, 2, v0\n"
                                 "global_store_b32 v0, v1, s[0:1]\n"
                                 "s_endpgm\n";

/* Assemble with llvm-mc and collect the bytes of its "encoding: [...]" notes. */
static size_t assemble(const char *src, uint8_t *out, size_t cap)
{
    const char *mc = rdx_test_llvm_tool("llvm-mc");
    ck_assert_msg(mc != NULL, "llvm-mc not found");
    const char *argv[] = { mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-show-encoding",
                           NULL };
    rdx_test_proc p;
    ck_assert_int_eq(rdx_test_run(argv, src, strlen(src), &p), 0);
    size_t n = 0;
    for (const char *s = p.out; (s = strstr(s, "encoding: ["));) {
        s += strlen("encoding: [");
        while (*s && *s != ']') {
            unsigned v;
            int used;
            ck_assert_int_eq(sscanf(s, "0x%x%n", &v, &used), 1);
            ck_assert_uint_lt(n, cap);
            out[n++] = (uint8_t)v;
            s += used;
            if (*s == ',')
                s++;
        }
    }
    rdx_test_proc_free(&p);
    return n;
}

static rdx_kfd_mem *gtt(kfd_fixture *f, uint64_t size, uint32_t flags)
{
    rdx_kfd_mem_desc d = { .kind = RDX_KFD_MEM_GTT, .size = size, .flags = flags, .userptr = NULL };
    rdx_kfd_mem *m;
    ck_assert_int_eq(rdx_kfd_mem_alloc(f->kfd, 0, &d, &m), RDX_OK);
    return m;
}

static void build(rdx_pm4_cmdbuf *cb, uint64_t code, uint64_t out, uint32_t base, uint32_t groups)
{
    rdx_pm4_dispatch_desc d;
    memset(&d, 0, sizeof d);
    d.code_addr = code;
    d.rsrc1 = 0;
    d.rsrc2 = RDX_PM4_REG_PUT(COMPUTE_PGM_RSRC2, USER_SGPR, 3) |
              RDX_PM4_REG_PUT(COMPUTE_PGM_RSRC2, TGID_X_EN, 1);
    d.user_sgpr[0] = (uint32_t)out;
    d.user_sgpr[1] = (uint32_t)(out >> 32);
    d.user_sgpr[2] = base;
    d.user_sgpr_count = 3;
    d.grid[0] = groups;
    d.grid[1] = d.grid[2] = 1;
    d.block[0] = 64;
    d.block[1] = d.block[2] = 1;
    d.wave32 = true;
    d.acquire = true;
    ck_assert_int_eq(rdx_pm4_dispatch(cb, &d), RDX_OK);
    rdx_pm4_cs_partial_flush(cb);
}

START_TEST(dispatch_runs_kernel_and_faults_cleanly)
{
    kfd_fixture f;
    fixture_open(&f, 1);
    uint8_t code[256];
    size_t n = assemble(kernel_src, code, sizeof code);
    ck_assert_uint_eq(n, 28); /* 4+4+4+4+8+4 bytes */
    rdx_kfd_mem *codem = gtt(&f, 4096, RDX_KFD_MEM_EXECUTABLE | RDX_KFD_MEM_READONLY);
    memcpy(rdx_kfd_mem_cpu(codem), code, n);
    rdx_kfd_mem *outm = gtt(&f, 4096, 0);
    rdx_kfd_queue *q;
    ck_assert_int_eq(rdx_kfd_queue_create(f.kfd, 0, RDX_KFD_QUEUE_COMPUTE, 4096, &q), RDX_OK);
    rdx_kfd_event *done, *mem;
    ck_assert_int_eq(rdx_kfd_event_create(f.kfd, RDX_KFD_EVENT_SIGNAL, 1, &done), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_create(f.kfd, RDX_KFD_EVENT_MEMORY, 1, &mem), RDX_OK);
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    build(&cb, rdx_kfd_mem_gpu_addr(codem), rdx_kfd_mem_gpu_addr(outm), 1000, 4);
    rdx_pm4_signal(&cb, rdx_kfd_event_mailbox(done), rdx_kfd_event_id(done), true,
                   rdx_kfd_event_id(done));
    ck_assert_int_eq(rdx_kfd_queue_submit(q, cb.dw, cb.len), RDX_OK);
    rdx_pm4_cmdbuf_reset(&cb);
    rdx_kfd_event *both[] = { done, mem };
    rdx_status st = rdx_kfd_event_wait(f.kfd, both, 2, 0, 10000);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    const uint32_t *out = rdx_kfd_mem_cpu(outm);
    for (uint32_t i = 0; i < 256; i++)
        ck_assert_uint_eq(out[i], 1000 + i);
    ck_assert_uint_eq(out[256], 0);

    /* DISPATCH_INDIRECT: the same registers, dimensions read from memory (2 groups). */
    memset(rdx_kfd_mem_cpu(outm), 0, 4096);
    uint32_t *dims = (uint32_t *)rdx_kfd_mem_cpu(outm) + 1000;
    dims[0] = 2, dims[1] = 1, dims[2] = 1;
    rdx_pm4_dispatch_indirect(&cb, rdx_kfd_mem_gpu_addr(outm) + 4000,
                              rdx_pm4_dispatch_initiator(true));
    rdx_pm4_signal(&cb, rdx_kfd_event_mailbox(done), rdx_kfd_event_id(done), true,
                   rdx_kfd_event_id(done));
    ck_assert_int_eq(rdx_kfd_queue_submit(q, cb.dw, cb.len), RDX_OK);
    rdx_pm4_cmdbuf_reset(&cb);
    st = rdx_kfd_event_wait(f.kfd, both, 2, 0, 10000);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    for (uint32_t i = 0; i < 128; i++)
        ck_assert_uint_eq(out[i], 1000 + i);
    ck_assert_uint_eq(out[128], 0);

    /* The same kernel storing to freed memory: a VM fault with its address. */
    rdx_kfd_mem *gone = gtt(&f, 8192, 0);
    uint64_t where = rdx_kfd_mem_gpu_addr(gone);
    ck_assert_int_eq(rdx_kfd_mem_free(f.kfd, gone), RDX_OK);
    build(&cb, rdx_kfd_mem_gpu_addr(codem), where, 0, 1);
    ck_assert_int_eq(rdx_kfd_queue_submit(q, cb.dw, cb.len), RDX_OK);
    st = rdx_kfd_event_wait(f.kfd, &mem, 1, 0, 10000);
    ck_assert_int_eq(st, RDX_ERR_FAULT);
    char want[64];
    snprintf(want, sizeof want, "at address 0x%llx", (unsigned long long)where);
    ck_assert_msg(strstr(rdx_error_message(), want), "'%s' lacks '%s'", rdx_error_message(), want);
    char err[512];
    rdx_emudev_last_error(f.dev, err, sizeof err);
    ck_assert_msg(strstr(err, "dispatch 1x1x1 faulted"), "%s", err);

    rdx_pm4_cmdbuf_free(&cb);
    ck_assert_int_eq(rdx_kfd_event_destroy(f.kfd, done), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_destroy(f.kfd, mem), RDX_OK);
    ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, q), RDX_OK);
    ck_assert_int_eq(rdx_kfd_mem_free(f.kfd, outm), RDX_OK);
    ck_assert_int_eq(rdx_kfd_mem_free(f.kfd, codem), RDX_OK);
    fixture_close(&f);
}
END_TEST

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

START_TEST(hung_kernel_times_out_then_reports_hang)
{
    /* A kernel that never ends, with a budget small enough to end the test. */
    rdx_emudev_config cfg = {
        .num_gpus = 1, .vram_size = 0, .legacy_sysfs = 0, .wave_budget = 30000000
    };
    kfd_fixture f;
    ck_assert_int_eq(rdx_emudev_create(&cfg, &f.dev), RDX_OK);
    ck_assert_int_eq(rdx_kfd_open(rdx_emudev_os(f.dev), &f.kfd), RDX_OK);
    uint8_t code[64];
    size_t n = assemble("s_add_u32 s5, s5, 1\ns_branch 0xfffe\ns_endpgm\n" /* branch to itself-1 */,
                        code, sizeof code);
    ck_assert_uint_eq(n, 12);
    rdx_kfd_mem *codem = gtt(&f, 4096, RDX_KFD_MEM_EXECUTABLE | RDX_KFD_MEM_READONLY);
    memcpy(rdx_kfd_mem_cpu(codem), code, n);
    rdx_kfd_mem *outm = gtt(&f, 4096, 0);
    rdx_kfd_queue *q;
    ck_assert_int_eq(rdx_kfd_queue_create(f.kfd, 0, RDX_KFD_QUEUE_COMPUTE, 4096, &q), RDX_OK);
    rdx_kfd_event *done, *hw;
    ck_assert_int_eq(rdx_kfd_event_create(f.kfd, RDX_KFD_EVENT_SIGNAL, 1, &done), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_create(f.kfd, RDX_KFD_EVENT_HW_EXCEPTION, 1, &hw), RDX_OK);
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    build(&cb, rdx_kfd_mem_gpu_addr(codem), rdx_kfd_mem_gpu_addr(outm), 0, 1);
    rdx_pm4_signal(&cb, rdx_kfd_event_mailbox(done), rdx_kfd_event_id(done), true,
                   rdx_kfd_event_id(done));
    ck_assert_int_eq(rdx_kfd_queue_submit(q, cb.dw, cb.len), RDX_OK);
    /* While the kernel spins, a short wait ends in a timeout, promptly. */
    double t0 = now_ms();
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, &done, 1, 0, 10), RDX_ERR_TIMEOUT);
    ck_assert_double_lt(now_ms() - t0, 300.0); /* the dispatch takes ~1 s */
    /* Then the budget runs out: a hardware exception, and the signal never comes. */
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, &hw, 1, 0, 60000), RDX_ERR_FAULT);
    char err[512];
    rdx_emudev_last_error(f.dev, err, sizeof err);
    ck_assert_msg(strstr(err, "dispatch 1x1x1 faulted"), "%s", err);
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, &done, 1, 0, 0), RDX_ERR_TIMEOUT);
    /* A queue destroyed while its kernel spins: DESTROY_QUEUE waits for the
     * dispatch, which then ends without a hardware exception (KFD preempts a
     * destroyed queue's waves). */
    rdx_kfd_queue *q2;
    ck_assert_int_eq(rdx_kfd_queue_create(f.kfd, 0, RDX_KFD_QUEUE_COMPUTE, 4096, &q2), RDX_OK);
    ck_assert_int_eq(rdx_kfd_queue_submit(q2, cb.dw, cb.len), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, &done, 1, 0, 10), RDX_ERR_TIMEOUT);
    ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, q2), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, &hw, 1, 0, 50), RDX_ERR_TIMEOUT);
    rdx_pm4_cmdbuf_free(&cb);
    ck_assert_int_eq(rdx_kfd_event_destroy(f.kfd, done), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_destroy(f.kfd, hw), RDX_OK);
    ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, q), RDX_OK);
    ck_assert_int_eq(rdx_kfd_mem_free(f.kfd, outm), RDX_OK);
    ck_assert_int_eq(rdx_kfd_mem_free(f.kfd, codem), RDX_OK);
    fixture_close(&f);
}
END_TEST

TCase *kfd_tcase_dispatch(void)
{
    TCase *tc = tcase_create("dispatch");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, dispatch_runs_kernel_and_faults_cleanly);
    tcase_add_test(tc, hung_kernel_times_out_then_reports_hang);
    return tc;
}
