/*
 * tests/drm/backend.c — rdx's DRM backend (kfd/drm_*.c) end to end: the runtime on the
 * emulated GPU through libdrm_amdgpu and `rdx emu`'s interposer (RDX_SUBMIT=drm,
 * RDX_DEVICE=kfd).  Each test runs one child scenario of this program under `rdx emu` and
 * checks its exit status and output; the scenarios use only the public API.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libdrm/amdgpu_drm.h>

#include <rdx/asm.h>
#include <rdx/kfd.h>
#include <rdx/runtime.h>

#include "tests/drm/drm_test.h"

/* ---- children (run under rdx emu) ---- */

#define CHECK(cond, ...)                                          \
    do {                                                          \
        if (!(cond)) {                                            \
            fprintf(stderr, "child %s:%d: ", __func__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                         \
            fprintf(stderr, " [%s]\n", rdx_error_message());      \
            return 1;                                             \
        }                                                         \
    } while (0)
#define CHECK_OK(expr) CHECK((expr) == RDX_OK, "%s failed", #expr)

/* out[gid] = value + gid; arguments packed (out at 0, value at 8), workgroups of 64. */
static const char add_value_s[] = ".amdgcn_target \"amdgcn-amd-amdhsa--gfx1100\"\n"
                                  ".text\n.globl add_value\n.p2align 8\n"
                                  ".type add_value,@function\nadd_value:\n"
                                  "  s_load_b64 s[4:5], s[0:1], 0x0\n"
                                  "  s_load_b32 s6, s[0:1], 0x8\n"
                                  "  s_lshl_b32 s7, s2, 6\n"
                                  "  v_add_nc_u32 v0, s7, v0\n"
                                  "  s_waitcnt lgkmcnt(0)\n"
                                  "  v_add_nc_u32 v1, s6, v0\n"
                                  "  v_lshlrev_b32 v0, 2, v0\n"
                                  "  global_store_b32 v0, v1, s[4:5]\n"
                                  "  s_endpgm\n"
                                  ".rodata\n.p2align 6\n.amdhsa_kernel add_value\n"
                                  "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
                                  "  .amdhsa_system_sgpr_workgroup_id_x 1\n"
                                  "  .amdhsa_next_free_vgpr 2\n"
                                  "  .amdhsa_next_free_sgpr 8\n"
                                  "  .amdhsa_kernarg_size 16\n"
                                  ".end_amdhsa_kernel\n";
static const char spin_s[] = ".amdgcn_target \"amdgcn-amd-amdhsa--gfx1100\"\n"
                             ".text\n.globl spin\n.p2align 8\n.type spin,@function\n"
                             "spin:\n  s_branch spin\n  s_endpgm\n"
                             ".rodata\n.p2align 6\n.amdhsa_kernel spin\n"
                             "  .amdhsa_next_free_vgpr 1\n  .amdhsa_next_free_sgpr 1\n"
                             ".end_amdhsa_kernel\n";

static rdx_status load(rdx_device *dev, const char *src, rdx_program **prog)
{
    rdx_asm_result *r = NULL;
    rdx_status st = rdx_asm_assemble(src, strlen(src), NULL, &r);
    uint8_t *elf = NULL;
    size_t len = 0;
    if (st == RDX_OK)
        st = rdx_asm_write_codeobj(r, &elf, &len);
    if (st == RDX_OK)
        st = rdx_program_load(dev, elf, len, "test kernel", prog);
    free(elf);
    rdx_asm_free(r);
    return st;
}

static rdx_status open_dev(rdx_device **dev)
{
    rdx_device_options o;
    memset(&o, 0, sizeof o);
    o.kind = RDX_DEVICE_KFD;
    o.quiet = true;
    return rdx_device_open(&o, dev);
}

/* One add_value dispatch of `groups` x 64 into b (out) and its check. */
static rdx_status add_value(rdx_queue *q, const rdx_kernel *k, rdx_buffer *b, uint64_t ptr,
                            uint32_t groups, uint32_t value, uint64_t *ticket)
{
    rdx_arg args[2] = { b ? rdx_arg_buffer(b) : rdx_arg_u64(ptr), rdx_arg_u32(value) };
    rdx_launch l;
    memset(&l, 0, sizeof l);
    l.kernel = k;
    l.grid[0] = groups;
    l.block[0] = 64;
    l.args = args;
    l.nargs = 2;
    return rdx_queue_dispatch(q, &l, ticket);
}

static int check_values(rdx_buffer *b, uint32_t n, uint32_t value)
{
    uint32_t *h = malloc(n * 4);
    CHECK(h, "malloc");
    CHECK_OK(rdx_buffer_download(b, 0, h, n * 4));
    for (uint32_t i = 0; i < n; i++)
        if (h[i] != value + i) {
            fprintf(stderr, "element %u is %u, expected %u\n", i, h[i], value + i);
            free(h);
            return 1;
        }
    free(h);
    return 0;
}

static int child_info(void)
{
    rdx_emudev *emu;
    rdx_kfd *k;
    CHECK_OK(rdx_device_select(RDX_DEVICE_KFD, 0, 1, true, &emu, &k));
    CHECK(!emu, "an in-process emulated device");
    CHECK(!strcmp(rdx_kfd_interface(k), "drm"), "interface %s", rdx_kfd_interface(k));
    const rdx_kfd_gpu_info *g = rdx_kfd_gpu(k, 0);
    CHECK(!strcmp(g->target, "gfx1100"), "target %s", g->target);
    CHECK(g->cu_count == 96 && g->drm_num_shader_engines == 6, "%u CUs", g->cu_count);
    rdx_kfd_clocks c1, c2;
    CHECK_OK(rdx_kfd_clock_counters(k, 0, &c1));
    CHECK_OK(rdx_kfd_clock_counters(k, 0, &c2));
    CHECK(c2.gpu_counter >= c1.gpu_counter && c1.gpu_counter, "clocks");
    /* memory of the three kinds: CPU pointer == GPU address for the visible ones */
    rdx_kfd_mem *m[3];
    rdx_kfd_mem_kind kinds[3] = { RDX_KFD_MEM_VRAM, RDX_KFD_MEM_VRAM_HOST, RDX_KFD_MEM_GTT };
    for (int i = 0; i < 3; i++) {
        rdx_kfd_mem_desc d = { .kind = kinds[i], .size = 5000, .flags = 0, .userptr = NULL };
        CHECK_OK(rdx_kfd_mem_alloc(k, 0, &d, &m[i]));
        CHECK(rdx_kfd_mem_size(m[i]) == 8192, "size");
        if (i)
            CHECK(rdx_kfd_mem_cpu(m[i]) == (void *)(uintptr_t)rdx_kfd_mem_gpu_addr(m[i]), "cpu");
        else
            CHECK(!rdx_kfd_mem_cpu(m[i]), "VRAM has no CPU view");
    }
    rdx_kfd_mem_desc bad = {
        .kind = RDX_KFD_MEM_DOORBELL, .size = 8192, .flags = 0, .userptr = NULL
    };
    rdx_kfd_mem *none = NULL;
    CHECK(rdx_kfd_mem_alloc(k, 0, &bad, &none) == RDX_ERR_UNSUPPORTED, "doorbells");
    for (int i = 0; i < 3; i++)
        CHECK_OK(rdx_kfd_mem_free(k, m[i]));
    CHECK_OK(rdx_kfd_close(k));
    printf("drm path: %s, %u CUs\n", g ? "gfx1100" : "?", 96u);
    return 0;
}

/* Dispatches (more than one lap of the IB buffer), SDMA uploads and downloads, timestamps,
 * two queues ordered on the GPU, nothing left. */
static int child_dispatch(void)
{
    rdx_device *dev;
    CHECK_OK(open_dev(&dev));
    rdx_program *prog;
    CHECK_OK(load(dev, add_value_s, &prog));
    const rdx_kernel *k;
    CHECK_OK(rdx_program_find(prog, "add_value", &k));
    rdx_buffer *b, *h;
    CHECK_OK(rdx_buffer_alloc(dev, 64 * 64 * 4, RDX_MEM_DEVICE, &b));
    CHECK_OK(rdx_buffer_alloc(dev, 64 * 64 * 4, RDX_MEM_HOST, &h));
    rdx_queue *q, *q2;
    CHECK_OK(rdx_queue_create(dev, RDX_QUEUE_COMPUTE, &q));
    CHECK_OK(rdx_queue_create(dev, RDX_QUEUE_COMPUTE, &q2));
    uint64_t t = 0;
    for (uint32_t i = 0; i < 3000; i++)
        CHECK_OK(add_value(q, k, b, 0, 64, i, &t));
    CHECK_OK(rdx_queue_wait(q, t, 30000));
    if (check_values(b, 64 * 64, 2999))
        return 1;
    uint64_t ns = 0;
    CHECK_OK(rdx_queue_dispatch_time(q, t, &ns));
    CHECK(ns > 0, "dispatch time 0");
    /* q2 waits on the GPU for q's next dispatch, then overwrites the host buffer */
    CHECK_OK(add_value(q, k, h, 0, 64, 5, &t));
    CHECK_OK(rdx_queue_wait_queue(q2, q, t));
    uint64_t t2;
    CHECK_OK(add_value(q2, k, h, 0, 64, 9, &t2));
    CHECK_OK(rdx_queue_wait(q2, t2, 30000));
    if (check_values(h, 64 * 64, 9))
        return 1;
    CHECK_OK(rdx_queue_destroy(q2));
    CHECK_OK(rdx_queue_destroy(q));
    rdx_buffer_free(h);
    rdx_buffer_free(b);
    rdx_program_free(prog);
    rdx_device_stats s;
    rdx_device_get_stats(dev, &s);
    CHECK(s.buffers == 0 && s.programs == 0, "left: %u buffers", s.buffers);
    CHECK_OK(rdx_device_close(dev));
    printf("dispatch: ok\n");
    return 0;
}

/* A kernel writing through a bad pointer: the wait fails naming amdgpu's context reset; the
 * queue is recreated and works, twice. */
static int child_fault(void)
{
    rdx_device *dev;
    CHECK_OK(open_dev(&dev));
    rdx_program *prog;
    CHECK_OK(load(dev, add_value_s, &prog));
    const rdx_kernel *k;
    CHECK_OK(rdx_program_find(prog, "add_value", &k));
    rdx_buffer *b;
    CHECK_OK(rdx_buffer_alloc(dev, 64 * 4, RDX_MEM_HOST, &b));
    rdx_queue *q;
    CHECK_OK(rdx_queue_create(dev, RDX_QUEUE_COMPUTE, &q));
    for (int round = 0; round < 2; round++) {
        uint64_t t, t2;
        CHECK_OK(add_value(q, k, NULL, 0x1000, 1, 0, &t));
        /* submitted behind the fault on the same context: lost with it */
        CHECK_OK(add_value(q, k, b, 0, 1, 1, &t2));
        rdx_status st = rdx_queue_wait(q, t2, 20000);
        CHECK(st == RDX_ERR_FAULT, "wait: %s", rdx_status_name(st));
        printf("fault: %s\n", rdx_error_message());
        CHECK(strstr(rdx_error_message(), "amdgpu reset the context"), "message");
        /* the context is lost: a submission before anyone waits is refused by amdgpu
         * (ECANCELED) and reported by the next wait, like the fault itself */
        CHECK_OK(add_value(q, k, b, 0, 1, 40, &t));
        CHECK_OK(rdx_queue_wait(q, t, 20000));
        if (check_values(b, 64, 40))
            return 1;
    }
    rdx_device_stats s;
    rdx_device_get_stats(dev, &s);
    CHECK(s.queue_recoveries >= 2, "%llu recoveries", (unsigned long long)s.queue_recoveries);
    CHECK_OK(rdx_queue_destroy(q));
    rdx_buffer_free(b);
    rdx_program_free(prog);
    CHECK_OK(rdx_device_close(dev));
    return 0;
}

/* An endless kernel: amdgpu's job timeout (RDX_EMU_JOB_TIMEOUT_MS in the emulated driver)
 * resets the ring: the wait fails with the context reset, the queue recovers; a wait that
 * gives up first (rdx_queue_reset frees the context) also leaves the device usable. */
static int child_hang(void)
{
    rdx_device *dev;
    CHECK_OK(open_dev(&dev));
    rdx_program *prog, *spin;
    CHECK_OK(load(dev, add_value_s, &prog));
    CHECK_OK(load(dev, spin_s, &spin));
    const rdx_kernel *k, *ks;
    CHECK_OK(rdx_program_find(prog, "add_value", &k));
    CHECK_OK(rdx_program_find(spin, "spin", &ks));
    rdx_buffer *b;
    CHECK_OK(rdx_buffer_alloc(dev, 64 * 4, RDX_MEM_HOST, &b));
    rdx_queue *q;
    CHECK_OK(rdx_queue_create(dev, RDX_QUEUE_COMPUTE, &q));
    rdx_launch l;
    memset(&l, 0, sizeof l);
    l.kernel = ks;
    l.grid[0] = 1;
    l.block[0] = 32;
    uint64_t t;
    CHECK_OK(rdx_queue_dispatch(q, &l, &t));
    struct timespec a, z;
    clock_gettime(CLOCK_MONOTONIC, &a);
    rdx_status st = rdx_queue_wait(q, t, 20000);
    clock_gettime(CLOCK_MONOTONIC, &z);
    CHECK(st == RDX_ERR_FAULT, "wait: %s", rdx_status_name(st));
    CHECK(z.tv_sec - a.tv_sec < 10, "the job timeout took %ld s", (long)(z.tv_sec - a.tv_sec));
    printf("hang: %s\n", rdx_error_message());
    CHECK_OK(add_value(q, k, b, 0, 1, 7, &t));
    CHECK_OK(rdx_queue_wait(q, t, 20000));
    if (check_values(b, 64, 7))
        return 1;
    /* give up before the job timeout: reset the queue */
    CHECK_OK(rdx_queue_dispatch(q, &l, &t));
    st = rdx_queue_wait(q, t, 50);
    CHECK(st == RDX_ERR_TIMEOUT, "short wait: %s", rdx_status_name(st));
    CHECK_OK(rdx_queue_reset(q));
    CHECK_OK(add_value(q, k, b, 0, 1, 11, &t));
    CHECK_OK(rdx_queue_wait(q, t, 20000));
    if (check_values(b, 64, 11))
        return 1;
    CHECK_OK(rdx_queue_destroy(q));
    rdx_buffer_free(b);
    rdx_program_free(spin);
    rdx_program_free(prog);
    CHECK_OK(rdx_device_close(dev));
    return 0;
}

/* A workload for the injection runs: open, upload through SDMA, dispatch, download, close.
 * Exit 0 when it passed, 3 when it failed cleanly (an error naming a call and its errno,
 * printed), 1 on anything else. */
static int child_workload(void)
{
    rdx_device *dev;
    rdx_status st = open_dev(&dev);
    if (st) {
        printf("error: %s\n", rdx_error_message());
        return 3;
    }
    rdx_program *prog = NULL;
    rdx_buffer *b = NULL;
    rdx_queue *q = NULL;
    const rdx_kernel *k;
    uint64_t t;
    uint32_t data[64] = { 0 };
    if ((st = load(dev, add_value_s, &prog)) || (st = rdx_program_find(prog, "add_value", &k)) ||
        (st = rdx_buffer_alloc(dev, 64 * 4, RDX_MEM_DEVICE, &b)) ||
        (st = rdx_buffer_upload(b, 0, data, sizeof data)) ||
        (st = rdx_queue_create(dev, RDX_QUEUE_COMPUTE, &q)) ||
        (st = add_value(q, k, b, 0, 1, 3, &t)) || (st = rdx_queue_wait(q, t, 20000)) ||
        (st = rdx_buffer_download(b, 0, data, sizeof data)))
        printf("error: %s\n", rdx_error_message());
    for (uint32_t i = 0; !st && i < 64; i++)
        CHECK(data[i] == 3 + i, "element %u is %u", i, data[i]);
    rdx_status d = rdx_queue_destroy(q);
    if (d && !st)
        st = d, printf("error: %s\n", rdx_error_message());
    rdx_buffer_free(b);
    rdx_program_free(prog);
    d = rdx_device_close(dev);
    if (d && !st)
        st = d, printf("error: %s\n", rdx_error_message());
    return st ? 3 : 0;
}

int drm_child(const char *name)
{
    if (!strcmp(name, "info"))
        return child_info();
    if (!strcmp(name, "dispatch"))
        return child_dispatch();
    if (!strcmp(name, "fault"))
        return child_fault();
    if (!strcmp(name, "hang"))
        return child_hang();
    if (!strcmp(name, "workload"))
        return child_workload();
    fprintf(stderr, "no child scenario '%s'\n", name);
    return 2;
}

/* ---- the tests (parents) ---- */

static char self[4096];

/* Run this program's child scenario `name` under rdx emu on the DRM path. */
static int run_child(rdx_test_proc *p, const char *name, const char *extra_env,
                     const char *timeout_env)
{
    if (!self[0]) {
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        ck_assert_int_gt(n, 0);
        self[n] = 0;
    }
    const char *argv[] = { "env",
                           "RDX_DEVICE=kfd",
                           "RDX_SUBMIT=drm",
                           timeout_env ? timeout_env : "RDX_EMU_JOB_TIMEOUT_MS=",
                           "ASAN_OPTIONS=verify_asan_link_order=0",
                           extra_env ? extra_env : "RDX_DRM_INJECT=",
                           rdx_test_rdx_path(),
                           "emu",
                           "--",
                           self,
                           "--child",
                           name,
                           NULL };
    return rdx_test_run(argv, NULL, 0, p);
}

#define CHILD_OK(name)                                                                      \
    do {                                                                                    \
        rdx_test_proc p_;                                                                   \
        run_child(&p_, name, NULL, NULL);                                                   \
        ck_assert_msg(p_.status == 0, "child %s: status %d\n%s%s", name, p_.status, p_.out, \
                      p_.err);                                                              \
        ck_assert_msg(!strstr(p_.err, "still alive"), "leak: %s", p_.err);                  \
        rdx_test_proc_free(&p_);                                                            \
    } while (0)

START_TEST(backend_info)
{
    CHILD_OK("info");
    rdx_test_proc p;
    const char *argv[] = { "env",
                           "RDX_SUBMIT=drm",
                           "ASAN_OPTIONS=verify_asan_link_order=0",
                           rdx_test_rdx_path(),
                           "emu",
                           "--",
                           rdx_test_rdx_path(),
                           "info",
                           "--device",
                           "kfd",
                           NULL };
    ck_assert_int_eq(rdx_test_run(argv, NULL, 0, &p), 0);
    ck_assert_msg(strstr(p.out, "device: drm (amdgpu command submission"), "%s", p.out);
    ck_assert_msg(strstr(p.out, "gpu 0: gfx1100"), "%s", p.out);
    rdx_test_proc_free(&p);
    /* a bad RDX_SUBMIT is named */
    const char *bad[] = { "env",
                          "RDX_SUBMIT=pcie",
                          "ASAN_OPTIONS=verify_asan_link_order=0",
                          rdx_test_rdx_path(),
                          "emu",
                          "--",
                          rdx_test_rdx_path(),
                          "info",
                          "--device",
                          "kfd",
                          NULL };
    ck_assert_int_ne(rdx_test_run(bad, NULL, 0, &p), 0);
    ck_assert_msg(strstr(p.err, "RDX_SUBMIT='pcie'"), "%s", p.err);
    rdx_test_proc_free(&p);
}
END_TEST

START_TEST(backend_dispatch)
{
    CHILD_OK("dispatch");
}
END_TEST

START_TEST(backend_gfx_ring)
{
    /* RDX_DRM_RING=gfx: the compute queues submit on the GFX ring */
    rdx_test_proc p;
    run_child(&p, "dispatch", "RDX_DRM_RING=gfx", NULL);
    ck_assert_msg(p.status == 0, "status %d\n%s%s", p.status, p.out, p.err);
    rdx_test_proc_free(&p);
}
END_TEST

START_TEST(backend_fault)
{
    CHILD_OK("fault");
}
END_TEST

START_TEST(backend_hang)
{
    /* the emulated driver's job timeout short (amdgpu's is 60 s for compute) */
    rdx_test_proc p;
    run_child(&p, "hang", NULL, "RDX_EMU_JOB_TIMEOUT_MS=1000");
    ck_assert_msg(p.status == 0, "status %d\n%s%s", p.status, p.out, p.err);
    ck_assert_msg(!strstr(p.err, "still alive"), "leak: %s", p.err);
    rdx_test_proc_free(&p);
}
END_TEST

/* Every DRM ioctl of the workload failed at its 1st, 2nd, ... call: a clean error naming the
 * call and the errno, no survivor reported at close, and the next clean run passes. */
START_TEST(backend_inject)
{
    static const struct {
        unsigned nr;
        const char *name;
    } calls[] = {
        { 0x40 + DRM_AMDGPU_GEM_CREATE, "GEM_CREATE" }, { 0x40 + DRM_AMDGPU_GEM_VA, "GEM_VA" },
        { 0x40 + DRM_AMDGPU_GEM_MMAP, "GEM_MMAP" },     { 0x40 + DRM_AMDGPU_CTX, "AMDGPU_CTX" },
        { 0x40 + DRM_AMDGPU_WAIT_CS, "WAIT_CS" },       { 0x40 + DRM_AMDGPU_CS, "AMDGPU_CS" },
        { 0x40 + DRM_AMDGPU_INFO, "AMDGPU_INFO" },
    };
    int failures = 0;
    for (size_t c = 0; c < sizeof calls / sizeof calls[0]; c++) {
        for (unsigned nth = 1; nth <= 12; nth++) {
            char env[64];
            snprintf(env, sizeof env, "RDX_DRM_INJECT=%x:%u:%d", calls[c].nr, nth, EIO);
            rdx_test_proc p;
            run_child(&p, "workload", env, NULL);
            ck_assert_msg(p.status == 0 || p.status == 3, "%s #%u: status %d\n%s%s", calls[c].name,
                          nth, p.status, p.out, p.err);
            ck_assert_msg(!strstr(p.err, "still alive"), "%s #%u leaked: %s", calls[c].name, nth,
                          p.err);
            if (p.status == 3) {
                failures++;
                ck_assert_msg(strstr(p.out, "Input/output error"), "%s #%u: %s", calls[c].name, nth,
                              p.out);
                ck_assert_msg(strstr(p.out, "(drm) failed") || strstr(p.out, "(linux) failed"),
                              "%s #%u does not name the call: %s", calls[c].name, nth, p.out);
            }
            rdx_test_proc_free(&p);
        }
    }
    ck_assert_int_gt(failures, 20); /* the injections hit */
    CHILD_OK("workload");
}
END_TEST

TCase *drm_tcase_backend(void)
{
    TCase *tc = tcase_create("backend");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, backend_info);
    tcase_add_test(tc, backend_dispatch);
    tcase_add_test(tc, backend_gfx_ring);
    tcase_add_test(tc, backend_fault);
    tcase_add_test(tc, backend_hang);
    tcase_add_test(tc, backend_inject);
    return tc;
}
