/* tests/emu/check_api.c — API errors, initial wave state, counters and determinism. */
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/emu/emu_test.h"

START_TEST(api_errors)
{
    rdx_emu *e = NULL;
    ck_assert_int_eq(rdx_emu_create("gfx1300", &e), RDX_ERR_UNSUPPORTED);
    ck_assert_ptr_null(e);
    ck_assert_msg(strstr(rdx_error_message(), "gfx1300"), "%s", rdx_error_message());
    /* RDNA3.5 and RDNA4 targets are emulated */
    static const char *const targets[] = { "gfx1150", "gfx1151", "gfx1152", "gfx1200", "gfx1201" };
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        ck_assert_msg(rdx_emu_create(targets[i], &e) == RDX_OK, "%s: %s", targets[i],
                      rdx_error_message());
        rdx_emu_destroy(e);
        e = NULL;
    }
    ck_assert_int_eq(rdx_emu_create("nonsense", &e), RDX_ERR_UNSUPPORTED);
    ck_assert_int_eq(rdx_emu_create(NULL, NULL), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_emu_create(NULL, &e), RDX_OK);
    static char mem[256];
    ck_assert_int_eq(rdx_emu_map(e, (uint64_t)(uintptr_t)mem, 128, RDX_EMU_RW), RDX_OK);
    ck_assert_int_eq(rdx_emu_map(e, (uint64_t)(uintptr_t)mem + 64, 128, RDX_EMU_RW),
                     RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_emu_map(e, 0, 0, RDX_EMU_RW), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_emu_map(e, 0x10000, 16, 0), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_emu_unmap(e, 0x12345), RDX_ERR_NOT_FOUND);
    ck_assert_int_eq(rdx_emu_unmap(e, (uint64_t)(uintptr_t)mem), RDX_OK);
    rdx_emu_dispatch d = { 0 };
    d.wg[0] = 2048;
    ck_assert_int_eq(rdx_emu_run(e, &d), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_emu_last_fault(e)->kind, RDX_EMU_FAULT_INVALID_DISPATCH);
    d.wg[0] = 64;
    d.group_segment_size = 70000;
    ck_assert_int_eq(rdx_emu_run(e, &d), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_emu_run(NULL, &d), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_emu_dispatch_from_descriptor(NULL, mem), RDX_ERR_INVALID);
    ck_assert_str_eq(rdx_emu_class_name(RDX_EMU_CLASS_WMMA), "wmma");
    ck_assert_str_eq(rdx_emu_class_name((rdx_emu_class)99), "?");
    rdx_emu_destroy(e);
    rdx_emu_destroy(NULL);
}
END_TEST

/*
 * Initial state per AMDGPUUsage: enabled user SGPRs in order (dispatch ptr,
 * queue ptr, kernarg ptr, dispatch id), then workgroup IDs after
 * USER_SGPR_COUNT, workgroup info; v0 = x | y << 10 | z << 20; EXEC = lanes
 * of the (possibly partial) workgroup.
 */
START_TEST(initial_wave_state)
{
    size_t len;
    uint8_t *bytes = et_assemble(
        "s_load_b64 s[20:21], s[4:5], 0x0\n s_waitcnt lgkmcnt(0)\n"
        "s_mul_i32 s22, s10, 3\n s_add_u32 s22, s22, s9\n s_mul_i32 s22, s22, 2\n"
        "s_add_u32 s22, s22, s8\n s_mul_i32 s22, s22, 64\n" /* (z*3+y)*2+x groups, 64 slots */
        "v_and_b32 v1, 0x3ff, v0\n v_bfe_u32 v2, v0, 10, 10\n v_bfe_u32 v3, v0, 20, 10\n"
        "v_lshlrev_b32 v4, 1, v2\n v_add_nc_u32 v4, v4, v1\n v_lshlrev_b32 v5, 2, v3\n"
        "v_add_nc_u32 v4, v4, v5\n" /* flat id in the 2x2x2 block */
        "v_lshlrev_b32 v4, 3, v4\n v_add_nc_u32 v4, s22, v4\n v_lshlrev_b32 v4, 2, v4\n"
        "v_mov_b32 v6, s0\n v_mov_b32 v7, s2\n v_mov_b32 v8, s6\n v_mov_b32 v9, s11\n"
        "v_mov_b32 v10, exec_lo\n v_mov_b32 v11, v0\n v_mov_b32 v12, s7\n"
        "global_store_b32 v4, v6, s[20:21]\n global_store_b32 v4, v7, s[20:21] offset:4\n"
        "global_store_b32 v4, v8, s[20:21] offset:8\n global_store_b32 v4, v9, s[20:21] offset:12\n"
        "global_store_b32 v4, v10, s[20:21] offset:16\n global_store_b32 v4, v11, s[20:21] "
        "offset:20\n"
        "global_store_b32 v4, v12, s[20:21] offset:24\n s_endpgm\n",
        &len);
    uint8_t *code = aligned_alloc(4096, 4096);
    memset(code, 0, 4096);
    memcpy(code, bytes, len);
    free(bytes);
    static uint32_t out[2 * 3 * 2 * 64 * 8];
    memset(out, 0xff, sizeof out);
    uint64_t karg[2] = { (uint64_t)(uintptr_t)out, 0 };
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create(NULL, &e), RDX_OK);
    rdx_emu_map(e, (uint64_t)(uintptr_t)code, 4096, RDX_EMU_READ);
    rdx_emu_map(e, (uint64_t)(uintptr_t)out, sizeof out, RDX_EMU_RW);
    rdx_emu_map(e, (uint64_t)(uintptr_t)karg, sizeof karg, RDX_EMU_READ);
    rdx_emu_dispatch d = { 0 };
    d.code = (uint64_t)(uintptr_t)code;
    d.code_properties =
        2 | 4 | 8 | 16 | 1u << 10; /* dispatch, queue, kernarg, dispatch id; wave32 */
    d.rsrc2 = 8u << 1 | 1u << 7 | 1u << 8 | 1u << 9 | 1u << 10 | 2u << 11;
    d.dispatch_ptr = 0x1111222233334444ull;
    d.queue_ptr = 0x5555666677778888ull;
    d.dispatch_id = 0x99;
    d.kernarg = (uint64_t)(uintptr_t)karg;
    d.grid[0] = 3; /* 2 groups in x: the second partial (1 of 2) */
    d.grid[1] = 6;
    d.grid[2] = 4;
    d.wg[0] = d.wg[1] = d.wg[2] = 2;
    rdx_emu_set_threads(e, 4);
    ck_assert_msg(rdx_emu_run(e, &d) == RDX_OK, "%s", rdx_error_message());
    const rdx_emu_counters *k = rdx_emu_get_counters(e);
    ck_assert_uint_eq(k->workgroups, 2 * 3 * 2);
    for (unsigned g = 0; g < 12; g++) {
        unsigned gx = g % 2;
        for (unsigned t = 0; t < 8; t++) {
            unsigned x = t & 1, y = (t >> 1) & 1, z = t >> 2;
            uint32_t *r = &out[(g * 64 + t * 8)];
            if (gx == 1 && x == 1) { /* outside the grid: no work-item */
                ck_assert_uint_eq(r[0], 0xffffffffu);
                continue;
            }
            ck_assert_uint_eq(r[0], 0x33334444u); /* s0: dispatch ptr lo */
            ck_assert_uint_eq(r[1], 0x77778888u); /* s2: queue ptr lo */
            ck_assert_uint_eq(r[2], 0x99u);       /* s6: dispatch id lo */
            /* s11: workgroup info = waves in the group */
            ck_assert_uint_eq(r[3], 1u);
            ck_assert_uint_eq(r[4], gx == 1 ? 0x0fu : 0xffu); /* exec: work-items of the group */
            ck_assert_uint_eq(r[5], x | y << 10 | z << 20);
            ck_assert_uint_eq(r[6], 0); /* s7: dispatch id hi */
        }
    }
    rdx_emu_destroy(e);
    free(code);
}
END_TEST

START_TEST(counters_and_determinism)
{
    et_case c = { 0 };
    c.nin = 1;
    for (unsigned l = 0; l < 32; l++)
        c.in[l][0] = l;
    c.body = "v_cmp_gt_u32_e32 vcc_lo, 8, v1\n s_and_saveexec_b32 s20, vcc_lo\n"
             "v_add_f32 v10, v1, v1\n v_exp_f32 v11, v1\n s_mov_b32 exec_lo, s20\n";
    c.nout = 2;
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create(NULL, &e), RDX_OK);
    ck_assert_int_eq(et_run_on(e, &c), RDX_OK);
    const rdx_emu_counters *k = rdx_emu_get_counters(e);
    ck_assert_uint_eq(k->waves, 1);
    ck_assert_uint_eq(k->by_class[RDX_EMU_CLASS_TRANS], 1);
    ck_assert_uint_eq(k->by_class[RDX_EMU_CLASS_VMEM], 3); /* 1 load, 2 stores */
    ck_assert_uint_ge(k->cycles, 400);                     /* the load's latency is waited for */
    uint64_t sum = 0;
    for (int i = 0; i < RDX_EMU_CLASS_COUNT; i++)
        sum += k->by_class[i];
    ck_assert_uint_eq(sum, k->wave_insts);
    ck_assert(k->avg_active_lanes > 8.0 && k->avg_active_lanes < 32.0);
    ck_assert_uint_eq(k->bytes_read, 32 * 4);
    ck_assert_uint_eq(k->bytes_written, 2 * 32 * 4);
    uint64_t pcsum = 0;
    for (size_t i = 0; i < k->npc; i++) {
        pcsum += k->pcs[i].count;
        if (i)
            ck_assert_uint_gt(k->pcs[i].pc, k->pcs[i - 1].pc);
    }
    ck_assert_uint_eq(pcsum, k->wave_insts);
    uint32_t first[32][2];
    for (unsigned l = 0; l < 32; l++) {
        first[l][0] = c.out[l][0];
        first[l][1] = c.out[l][1];
    }
    ck_assert_int_eq(et_run_on(e, &c), RDX_OK);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(c.out[l][0], first[l][0]);
        ck_assert_uint_eq(c.out[l][1], first[l][1]);
        if (l >= 8)
            ck_assert_uint_eq(c.out[l][0], 0); /* VGPRs start at 0: inactive lanes kept 0 */
    }
    rdx_emu_destroy(e);
}
END_TEST

/* Many workgroups on 1 and 3 host threads: identical results and counters. */
START_TEST(threads_deterministic)
{
    size_t len;
    uint8_t *bytes =
        et_assemble("s_lshl_b32 s4, s2, 6\n v_add_nc_u32 v1, s4, v0\n" /* global id */
                    "v_and_b32 v2, 15, v1\n v_lshlrev_b32 v2, 2, v2\n v_mov_b32 v3, 1\n"
                    "global_atomic_add_u32 v2, v3, s[0:1]\n" /* 16 bins */
                    "v_mul_lo_u32 v4, v1, v1\n v_lshlrev_b32 v5, 2, v1\n"
                    "global_store_b32 v5, v4, s[0:1] offset:64\n s_endpgm\n",
                    &len);
    uint8_t *code = aligned_alloc(4096, 4096);
    memset(code, 0, 4096);
    memcpy(code, bytes, len);
    free(bytes);
    static uint32_t out[2][16 + 64 * 300];
    uint64_t insts[2], wr[2];
    for (int run = 0; run < 2; run++) {
        rdx_emu *e;
        ck_assert_int_eq(rdx_emu_create(NULL, &e), RDX_OK);
        rdx_emu_set_threads(e, run ? 3 : 1);
        rdx_emu_map(e, (uint64_t)(uintptr_t)code, 4096, RDX_EMU_READ);
        rdx_emu_map(e, (uint64_t)(uintptr_t)out[run], sizeof out[run], RDX_EMU_RW);
        rdx_emu_dispatch d = { 0 };
        d.code = (uint64_t)(uintptr_t)code;
        d.code_properties = 1u << 10;
        d.rsrc2 = 2u << 1 | 1u << 7;
        d.grid[0] = 64 * 300;
        d.wg[0] = 64;
        d.user_sgpr[0] = (uint32_t)(uintptr_t)out[run];
        d.user_sgpr[1] = (uint32_t)((uint64_t)(uintptr_t)out[run] >> 32);
        d.user_sgpr_count = 2;
        ck_assert_msg(rdx_emu_run(e, &d) == RDX_OK, "%s", rdx_error_message());
        insts[run] = rdx_emu_get_counters(e)->wave_insts;
        wr[run] = rdx_emu_get_counters(e)->bytes_written;
        ck_assert_uint_eq(rdx_emu_get_counters(e)->workgroups, 300);
        rdx_emu_destroy(e);
    }
    ck_assert_int_eq(memcmp(out[0], out[1], sizeof out[0]), 0);
    for (int b = 0; b < 16; b++)
        ck_assert_uint_eq(out[0][b], 64 * 300 / 16);
    for (unsigned i = 0; i < 64 * 300; i++)
        ck_assert_uint_eq(out[0][16 + i], i * i);
    ck_assert_uint_eq(insts[0], insts[1]);
    ck_assert_uint_eq(wr[0], wr[1]);
    free(code);
}
END_TEST

/* One dispatch of `code` (a 64-lane wave32 kernel writing out, see below) on e. */
static void run_store_kernel(rdx_emu *e, const uint8_t *code, uint32_t *out, unsigned groups)
{
    rdx_emu_dispatch d = { 0 };
    d.code = (uint64_t)(uintptr_t)code;
    d.code_properties = 1u << 10;
    d.rsrc2 = 2u << 1 | 1u << 7;
    d.grid[0] = 64 * groups;
    d.wg[0] = 64;
    d.user_sgpr[0] = (uint32_t)(uintptr_t)out;
    d.user_sgpr[1] = (uint32_t)((uint64_t)(uintptr_t)out >> 32);
    d.user_sgpr_count = 2;
    ck_assert_msg(rdx_emu_run(e, &d) == RDX_OK, "%s", rdx_error_message());
}

/* Every counter of the last dispatch, the PC histogram and the estimate, as one hash. */
static uint64_t counters_hash(const rdx_emu *e)
{
    const rdx_emu_counters *c = rdx_emu_get_counters(e);
    uint64_t f[] = { c->waves,
                     c->workgroups,
                     c->wave_insts,
                     c->lane_ops,
                     c->vector_insts,
                     c->bytes_read,
                     c->bytes_written,
                     c->cycles,
                     c->max_wave_cycles,
                     c->est_kernel_cycles,
                     c->est_issue_cycles,
                     c->est_dram_bytes,
                     c->npc };
    uint64_t h = 1469598103934665603ull;
    for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
        h = (h ^ f[k]) * 1099511628211ull;
    for (int k = 0; k < RDX_EMU_CLASS_COUNT; k++)
        h = (h ^ c->by_class[k]) * 1099511628211ull;
    for (size_t k = 0; k < c->npc; k++)
        h = (h ^ c->pcs[k].count ^ c->pcs[k].pc << 20) * 1099511628211ull;
    return h;
}

/* One emulator, dispatch after dispatch on 2, 1, 3 and 2 host threads (its threads and
   their records are kept between dispatches): every dispatch's results and counters are
   those of a fresh 1-thread emulator, and code rewritten in place between two dispatches
   runs as rewritten (nothing decoded by an earlier dispatch is reused). */
START_TEST(threads_kept_between_dispatches)
{
    const char *src[2] = { "s_lshl_b32 s4, s2, 6\n v_add_nc_u32 v1, s4, v0\n"
                           "v_mul_lo_u32 v4, v1, v1\n v_lshlrev_b32 v5, 2, v1\n"
                           "global_store_b32 v5, v4, s[0:1]\n s_endpgm\n",
                           "s_lshl_b32 s4, s2, 6\n v_add_nc_u32 v1, s4, v0\n"
                           "v_add_nc_u32 v4, 7, v1\n v_lshlrev_b32 v5, 2, v1\n"
                           "global_store_b32 v5, v4, s[0:1]\n s_endpgm\n" };
    uint8_t *code = aligned_alloc(4096, 4096);
    /* the same alignment for all three: the DRAM-bytes estimate counts 128-byte lines, and a
       buffer that starts mid-line touches one more (ASan's layout of statics showed it) */
    static _Alignas(4096) uint32_t out[64 * 200];
    static _Alignas(4096) uint32_t ref[2][64 * 200];
    uint64_t ref_hash[2];
    for (int k = 0; k < 2; k++) { /* references: a fresh emulator on 1 thread */
        size_t len;
        uint8_t *bytes = et_assemble(src[k], &len);
        memset(code, 0, 4096);
        memcpy(code, bytes, len);
        free(bytes);
        rdx_emu *e;
        ck_assert_int_eq(rdx_emu_create(NULL, &e), RDX_OK);
        rdx_emu_set_threads(e, 1);
        rdx_emu_map(e, (uint64_t)(uintptr_t)code, 4096, RDX_EMU_READ);
        rdx_emu_map(e, (uint64_t)(uintptr_t)ref[k], sizeof ref[k], RDX_EMU_RW);
        run_store_kernel(e, code, ref[k], 200);
        ref_hash[k] = counters_hash(e);
        rdx_emu_destroy(e);
    }
    ck_assert_uint_eq(ref[0][5], 25);
    ck_assert_uint_eq(ref[1][5], 12);
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create(NULL, &e), RDX_OK);
    rdx_emu_map(e, (uint64_t)(uintptr_t)code, 4096, RDX_EMU_READ);
    rdx_emu_map(e, (uint64_t)(uintptr_t)out, sizeof out, RDX_EMU_RW);
    const unsigned threads[] = { 2, 1, 3, 2, 2, 1 };
    for (unsigned i = 0; i < sizeof threads / sizeof threads[0]; i++) {
        int k = (i / 2) & 1; /* the code changes every second dispatch, at the same address */
        size_t len;
        uint8_t *bytes = et_assemble(src[k], &len);
        memcpy(code, bytes, len);
        free(bytes);
        memset(out, 0, sizeof out);
        rdx_emu_set_threads(e, threads[i]);
        run_store_kernel(e, code, out, 200);
        ck_assert_msg(!memcmp(out, ref[k], sizeof out), "dispatch %u (%u threads): results", i,
                      threads[i]);
        ck_assert_msg(counters_hash(e) == ref_hash[k], "dispatch %u (%u threads): counters", i,
                      threads[i]);
    }
    rdx_emu_destroy(e);
    free(code);
}
END_TEST

/* A forked child dispatches on 2 threads with the emulator its parent ran on 2 threads (the
   parent's host threads do not exist in the child: it must start its own, not wait for
   them). */
START_TEST(threads_after_fork)
{
    size_t len;
    uint8_t *bytes = et_assemble("s_lshl_b32 s4, s2, 6\n v_add_nc_u32 v1, s4, v0\n"
                                 "v_lshlrev_b32 v5, 2, v1\n"
                                 "global_store_b32 v5, v1, s[0:1]\n s_endpgm\n",
                                 &len);
    uint8_t *code = aligned_alloc(4096, 4096);
    memset(code, 0, 4096);
    memcpy(code, bytes, len);
    free(bytes);
    static uint32_t out[64 * 50];
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create(NULL, &e), RDX_OK);
    rdx_emu_set_threads(e, 2);
    rdx_emu_map(e, (uint64_t)(uintptr_t)code, 4096, RDX_EMU_READ);
    rdx_emu_map(e, (uint64_t)(uintptr_t)out, sizeof out, RDX_EMU_RW);
    run_store_kernel(e, code, out, 50);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        memset(out, 0, sizeof out);
        rdx_emu_dispatch d = { 0 };
        d.code = (uint64_t)(uintptr_t)code;
        d.code_properties = 1u << 10;
        d.rsrc2 = 2u << 1 | 1u << 7;
        d.grid[0] = 64 * 50;
        d.wg[0] = 64;
        d.user_sgpr[0] = (uint32_t)(uintptr_t)out;
        d.user_sgpr[1] = (uint32_t)((uint64_t)(uintptr_t)out >> 32);
        d.user_sgpr_count = 2;
        int ok = rdx_emu_run(e, &d) == RDX_OK && out[64 * 50 - 1] == 64 * 50 - 1 &&
                 rdx_emu_get_counters(e)->workgroups == 50;
        rdx_emu_destroy(e);
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    pid_t got = 0;
    for (int i = 0; i < 2000 && !got; i++) {  /* 20 s: a child waiting for threads it does */
        got = waitpid(pid, &status, WNOHANG); /* not have is ended here */
        if (!got)
            usleep(10000);
    }
    if (!got) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        ck_abort_msg("the child's dispatch hung");
    }
    ck_assert_int_eq(got, pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "the child's dispatch failed or hung (status 0x%x)", status);
    run_store_kernel(e, code, out, 50); /* the parent's threads still serve it */
    ck_assert_uint_eq(out[64 * 50 - 1], 64 * 50 - 1);
    rdx_emu_destroy(e);
    free(code);
}
END_TEST

/* The number of threads of this process (/proc/self/task), or -1. */
static int task_count(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* With the default thread count, a caller pinned to one core runs the dispatch on its own
   thread: no host thread is started to take turns with it on that core. */
START_TEST(threads_default_follows_affinity)
{
    cpu_set_t set;
    ck_assert_int_eq(sched_getaffinity(0, sizeof set, &set), 0);
    int cpu = 0;
    while (!CPU_ISSET(cpu, &set))
        cpu++;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    ck_assert_int_eq(sched_setaffinity(0, sizeof set, &set), 0);
    size_t len;
    uint8_t *bytes = et_assemble("s_lshl_b32 s4, s2, 6\n v_add_nc_u32 v1, s4, v0\n"
                                 "v_lshlrev_b32 v5, 2, v1\n"
                                 "global_store_b32 v5, v1, s[0:1]\n s_endpgm\n",
                                 &len);
    uint8_t *code = aligned_alloc(4096, 4096);
    memset(code, 0, 4096);
    memcpy(code, bytes, len);
    free(bytes);
    static uint32_t out[64 * 50];
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create(NULL, &e), RDX_OK);
    rdx_emu_map(e, (uint64_t)(uintptr_t)code, 4096, RDX_EMU_READ);
    rdx_emu_map(e, (uint64_t)(uintptr_t)out, sizeof out, RDX_EMU_RW);
    int before = task_count();
    run_store_kernel(e, code, out, 50);
    ck_assert_uint_eq(out[64 * 50 - 1], 64 * 50 - 1);
    ck_assert_int_eq(task_count(), before); /* parked pool threads would show here */
    rdx_emu_destroy(e);
    free(code);
}
END_TEST

Suite *et_suite_api(void)
{
    Suite *s = suite_create("emu_api");
    TCase *t = tcase_create("api");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, api_errors);
    tcase_add_test(t, initial_wave_state);
    tcase_add_test(t, counters_and_determinism);
    tcase_add_test(t, threads_deterministic);
    tcase_add_test(t, threads_kept_between_dispatches);
    tcase_add_test(t, threads_after_fork);
    tcase_add_test(t, threads_default_follows_affinity);
    suite_add_tcase(s, t);
    return s;
}
