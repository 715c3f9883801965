/*
 * tests/preload/check_preload.c — `rdx emu` and its interposer (librdx-emu.so): programs that
 * open /dev/kfd themselves reach the emulated GPU through plain libc calls.
 *
 * Clients: rdx itself with its default (libc) OS table (RDX_DEVICE=kfd: the path a real card
 * sees), tests/data/preload/client.c, a program that knows nothing of rdx, Debian's
 * libhsakmt (tests/data/preload/hsakmt_client.c), and a Python program that reaches libc
 * through ctypes as tinygrad's driver does (tests/data/preload/ctypes_client.py).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tests/harness/harness.h"

/* Run `rdx emu ARGS...` with RDX_DEVICE=kfd (rdx clients must take the driver path). */
static int emu_run(rdx_test_proc *p, const char *const *args, size_t n)
{
    const char *argv[32] = { "env", "RDX_DEVICE=kfd", rdx_test_rdx_path(), "emu" };
    size_t k = 4;
    for (size_t i = 0; i < n && k < 31; i++)
        argv[k++] = args[i];
    argv[k] = NULL;
    return rdx_test_run(argv, NULL, 0, p);
}

#define EMU(p, ...)                                  \
    emu_run(p, (const char *const[]){ __VA_ARGS__ }, \
            sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *))

static void assert_has(const char *text, const char *needle)
{
    ck_assert_msg(strstr(text, needle), "expected '%s' in:\n%s", needle, text);
}

START_TEST(rdx_info_through_kfd)
{
    rdx_test_proc p;
    const char *rdx = rdx_test_rdx_path();
    EMU(&p, "--gpus", "2", "--", rdx, "info");
    ck_assert_msg(p.status == 0, "status %d\n%s%s", p.status, p.out, p.err);
    /* the libc OS table found /dev/kfd: not rdx's in-process emulator */
    assert_has(p.out, "device: kfd (/dev/kfd)");
    assert_has(p.out, "2 GPUs");
    assert_has(p.out, "gpu 1: gfx1100");
    assert_has(p.out, "/dev/dri/renderD129");
    rdx_test_proc_free(&p);
}
END_TEST

/* 4 GPUs of `rdx emu --gpus 4` opened as 4 devices by one program through /dev/kfd (one KFD
 * process: a second ACQUIRE_VM of a GPU would be EBUSY), peer copies and all:
 * examples/mlp_dp's data-parallel step equals the 1-GPU step and the interpreter. */
/* The DRM submission path (no KFD topology) names a GPU from its GC IP version as KFD does:
 * Navi 32's GC 11.0.3 is gfx1101 (kgd2kfd_probe), not "gfx1103"; RDNA4's 12.0.1 is gfx1201. */
START_TEST(drm_path_names_the_target)
{
    static const struct {
        const char *arch, *want;
    } cases[] = { { "gfx1101", "gpu 0: gfx1101  (amdgpu 747e, gfx_target_version 110001" },
                  { "gfx1201", "gpu 0: gfx1201  (amdgpu 7550, gfx_target_version 120001" } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rdx_test_proc p;
        EMU(&p, "--arch", cases[i].arch, "--", "env", "RDX_SUBMIT=drm", rdx_test_rdx_path(), "info",
            "--device", "kfd");
        ck_assert_msg(p.status == 0, "status %d\n%s%s", p.status, p.out, p.err);
        assert_has(p.out, "device: drm");
        assert_has(p.out, cases[i].want);
        rdx_test_proc_free(&p);
    }
}
END_TEST

START_TEST(four_gpus_in_one_program)
{
    rdx_test_proc p;
    char path[4096];
    snprintf(path, sizeof path, "%s/examples/mlp_dp", rdx_test_build_dir());
    EMU(&p, "--gpus", "4", "--", path);
    ck_assert_msg(p.status == 0, "status %d\n%s%s", p.status, p.out, p.err);
    assert_has(p.out, "on 4 GPUs (linux gfx1100, 4 in the machine)");
    assert_has(p.out, "loss matches");
    assert_has(p.out, "updated weights on GPU 3 vs interpreter");
    ck_assert_ptr_null(strstr(p.out, "MISMATCH"));
    rdx_test_proc_free(&p);
}
END_TEST

START_TEST(rdx_run_through_kfd)
{
    /* saxpy over 1000 floats: y = 3x + y, checked against the host */
    enum { N = 1000 };
    float x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)i * 0.5f, y[i] = (float)(N - i);
    char *xs = rdx_test_tmp_path("x.bin"), *ys = rdx_test_tmp_path("y.bin");
    char *out = rdx_test_tmp_path("out.bin"), *co = rdx_test_tmp_path("saxpy.co");
    rdx_test_write_file(xs, x, sizeof x);
    rdx_test_write_file(ys, y, sizeof y);
    rdx_test_proc p;
    const char *as[] = { rdx_test_rdx_path(), "as", "examples/saxpy.s", "-o", co, NULL };
    ck_assert_int_eq(rdx_test_run(as, NULL, 0, &p), 0);
    rdx_test_proc_free(&p);
    char xa[300], ya[300], oa[300];
    snprintf(xa, sizeof xa, "file:%s", xs);
    snprintf(ya, sizeof ya, "file:%s", ys);
    snprintf(oa, sizeof oa, "1:%s", out);
    EMU(&p, "--", rdx_test_rdx_path(), "run", co, "--grid", "4", "--block", "256", "--arg", xa,
        "--arg", ya, "--arg", "f32:3", "--arg", "u32:1000", "--out", oa);
    ck_assert_msg(p.status == 0, "status %d\n%s%s", p.status, p.out, p.err);
    assert_has(p.out, "dispatch 1");
    size_t len;
    float *r = (float *)rdx_test_read_file(out, &len);
    ck_assert_uint_eq(len, sizeof y);
    for (int i = 0; i < N; i++)
        ck_assert_msg(r[i] == 3.0f * x[i] + y[i], "y[%d] = %g, expected %g", i, (double)r[i],
                      (double)(3.0f * x[i] + y[i]));
    free(r);
    rdx_test_proc_free(&p);
    free(xs), free(ys), free(out), free(co);
}
END_TEST

START_TEST(gpu_fault_reaches_the_program)
{
    /* a kernel that writes to an unmapped page: the program learns of it as from the Linux
     * driver (a memory-exception event with the faulting address), and does not crash */
    char *co = rdx_test_tmp_path("fault.co");
    rdx_test_proc p;
    const char *as[] = { rdx_test_rdx_path(), "as", "tests/data/preload/fault.s", "-o", co, NULL };
    ck_assert_int_eq(rdx_test_run(as, NULL, 0, &p), 0);
    rdx_test_proc_free(&p);
    EMU(&p, "--", rdx_test_rdx_path(), "run", co, "--grid", "1", "--block", "32");
    ck_assert_msg(p.status == 1, "status %d\n%s%s", p.status, p.out, p.err);
    assert_has(p.err, "GPU memory fault");
    assert_has(p.err, "at address 0x1000 (page not present)");
    rdx_test_proc_free(&p);
    free(co);
}
END_TEST

/* Build tests/data/preload/client.c with the build's compiler (no rdx in it). */
static char *build_client(void)
{
    char *bin = rdx_test_tmp_path("client");
    rdx_test_proc p;
    const char *cc[] = { rdx_test_cc(), "-O1", "-Ikfd/compat",
                         "-o",          bin,   "tests/data/preload/client.c",
                         NULL };
    ck_assert_msg(rdx_test_run(cc, NULL, 0, &p) == 0, "cc: %s", p.err);
    rdx_test_proc_free(&p);
    return bin;
}

START_TEST(plain_libc_client)
{
    char *bin = build_client();
    for (int gpus = 1; gpus <= 3; gpus += 2) {
        char n[12];
        snprintf(n, sizeof n, "%d", gpus);
        rdx_test_proc p;
        EMU(&p, "--gpus", n, "--", bin, n);
        ck_assert_msg(p.status == 0, "%d GPU(s): status %d\n%s%s", gpus, p.status, p.out, p.err);
        assert_has(p.out, "client: ok");
        rdx_test_proc_free(&p);
    }
    free(bin);
}
END_TEST

/* Only the program's munmaps of memory the driver mapped or was shown reach the driver
 * (RDX_EMU_TRACE prints those); the others go to libc without its lock, so they never wait
 * for a running dispatch. */
START_TEST(unrelated_munmap_bypasses_the_driver)
{
    char *bin = build_client();
    rdx_test_proc p;
    EMU(&p, "--", "env", "RDX_EMU_TRACE=1", bin, "1");
    ck_assert_msg(p.status == 0, "status %d\n%s%s", p.status, p.out, p.err);
    const char *line = strstr(p.out, "client: buffer ");
    ck_assert_ptr_nonnull(line);
    char buffer[32], plain[32], want[64];
    ck_assert_int_eq(sscanf(line, "client: buffer %31[^,], plain mapping %31s", buffer, plain), 2);
    snprintf(want, sizeof want, "rdx emu: munmap(%s, ", buffer);
    assert_has(p.err, want);
    snprintf(want, sizeof want, "rdx emu: munmap(%s, ", plain);
    ck_assert_msg(!strstr(p.err, want), "the plain mapping's munmap went to the driver:\n%s",
                  p.err);
    rdx_test_proc_free(&p);
    free(bin);
}
END_TEST

START_TEST(libhsakmt_client)
{
    /* libhsakmt (Debian's libhsakmt1 5.2.3, the official KFD thunk) through its public API:
     * open, the topology (libdrm_amdgpu, sysfs, the CPU caches), VRAM/GTT/userptr memory, an
     * event, a compute queue, a dispatch built with rdx's PM4 builders, the wait, teardown.
     * On the current kernel model the queue is refused (libhsakmt 5.2.3's gfx11 context-save
     * size, as a kernel 6.12+ refuses it: docs/kfd.md, rule Q13); on the Linux 6.1 model it
     * runs.  Not in `make asan`: libnuma's constructor calls fopen before the sanitizer
     * runtime that the sanitized interposer needs has started. */
    const char *san = getenv("RDX_SANITIZE");
    if (san && *san)
        return;
    char *bin = rdx_test_tmp_path("hsakmt_client");
    char lib[512];
    snprintf(lib, sizeof lib, "%s/librdx.a", rdx_test_build_dir());
    rdx_test_proc p;
    const char *cc[] = { rdx_test_cc(),
                         "-O1",
                         "-Iinclude",
                         "-Ikfd/compat",
                         "-o",
                         bin,
                         "tests/data/preload/hsakmt_client.c",
                         lib,
                         "-lhsakmt",
                         "-ldrm",
                         "-ldrm_amdgpu",
                         "-lelf",
                         "-lpthread",
                         "-lm",
                         NULL };
    ck_assert_msg(rdx_test_run(cc, NULL, 0, &p) == 0, "cc: %s", p.err);
    rdx_test_proc_free(&p);
    EMU(&p, "--gpus", "2", "--", bin, "2", "refused");
    ck_assert_msg(p.status == 0, "status %d\n%s%s", p.status, p.out, p.err);
    assert_has(p.out, "hsakmt: io links");
    assert_has(p.out, "hsakmt: map userptr");
    assert_has(p.out, "hsakmt: create queue refused");
    assert_has(p.out, "hsakmt: ok");
    rdx_test_proc_free(&p);
    /* a gfx1201 node and a mixed gfx1100 + gfx1201 machine, as libhsakmt reads them (its
     * EngineId is the node's gfx_target_version) */
    EMU(&p, "--arch", "gfx1201", "--", bin, "1", "topology", "gfx1201");
    ck_assert_msg(p.status == 0, "status %d\n%s%s", p.status, p.out, p.err);
    assert_has(p.out, "hsakmt: node 1 is gfx1201");
    assert_has(p.out, "hsakmt: ok");
    rdx_test_proc_free(&p);
    EMU(&p, "--gpus", "2", "--arch", "gfx1100,gfx1201", "--", bin, "2", "topology",
        "gfx1100,gfx1201");
    ck_assert_msg(p.status == 0, "status %d\n%s%s", p.status, p.out, p.err);
    assert_has(p.out, "hsakmt: node 1 is gfx1100");
    assert_has(p.out, "hsakmt: node 2 is gfx1201");
    assert_has(p.out, "hsakmt: ok");
    rdx_test_proc_free(&p);
    EMU(&p, "--arch", "gfx1151", "--", bin, "1", "topology", "gfx1151");
    ck_assert_msg(p.status == 0, "status %d\n%s%s", p.status, p.out, p.err);
    assert_has(p.out, "hsakmt: node 1 is gfx1151");
    rdx_test_proc_free(&p);
    EMU(&p, "--gpus", "2", "--", "env", "RDX_EMU_KERNEL=6.1", bin, "2", "dispatch");
    ck_assert_msg(p.status == 0, "status %d\n%s%s", p.status, p.out, p.err);
    assert_has(p.out, "hsakmt: create queue\n");
    assert_has(p.out, "hsakmt: dispatch results");
    assert_has(p.out, "hsakmt: destroy queue");
    assert_has(p.out, "hsakmt: ok");
    rdx_test_proc_free(&p);
    free(bin);
}
END_TEST

START_TEST(cpu_caches_described)
{
    /* a CPU cache folder exists under `rdx emu` whether the host describes its caches or not
     * (the interposer serves a generic description only where the host has none) */
    struct stat st;
    int host = stat("/sys/devices/system/cpu/cpu0/cache", &st) == 0;
    rdx_test_proc p;
    EMU(&p, "--", "sh", "-c",
        "cat /sys/devices/system/cpu/cpu0/cache/index0/level "
        "/sys/devices/system/cpu/cpu0/cache/index0/shared_cpu_list && "
        "ls /sys/devices/system/cpu/cpu0/cache | grep -c index && "
        "cat /sys/devices/system/cpu/cpu0/cache/index3/size");
    ck_assert_msg(p.status == 0, "status %d\n%s%s", p.status, p.out, p.err);
    if (!host) /* the interposer's description */
        assert_has(p.out, "1\n0\n4\n16384K\n");
    rdx_test_proc_free(&p);
}
END_TEST

START_TEST(python_ctypes_client)
{
    /* the way tinygrad's driver reaches the kernel: os.open, fcntl.ioctl, os.listdir, and
     * libc's mmap/ioctl through ctypes (dlsym on libc's handle; the request as a C int).
     * A sanitized interposer does not serve dlsym (preload/libc.c): not in `make asan`. */
    const char *san = getenv("RDX_SANITIZE");
    if (san && *san)
        return;
    rdx_test_proc p;
    EMU(&p, "--", "python3", "tests/data/preload/ctypes_client.py");
    ck_assert_msg(p.status == 0, "status %d\n%s%s", p.status, p.out, p.err);
    assert_has(p.out, "ctypes: ok");
    rdx_test_proc_free(&p);
}
END_TEST

START_TEST(no_device_outside_emu)
{
    /* the same client without `rdx emu` finds no GPU on this machine: the test above is not
     * passing by accident (on a machine with a card, it would find that card instead) */
    char *bin = build_client();
    rdx_test_proc p;
    const char *argv[] = { bin, "1", NULL };
    rdx_test_run(argv, NULL, 0, &p);
    if (access("/dev/kfd", F_OK) != 0) /* no card here: the client must fail, and say where */
        assert_has(p.out, "access /dev/kfd");
    rdx_test_proc_free(&p);
    free(bin);
}
END_TEST

START_TEST(by_hand_ld_preload)
{
    char lib[512];
    snprintf(lib, sizeof lib, "%s/librdx-emu.so", rdx_test_build_dir());
    char pre[600];
    snprintf(pre, sizeof pre, "LD_PRELOAD=%s", lib);
    rdx_test_proc p;
    const char *argv[] = { "env",  pre, "RDX_EMU_GPUS=2", "RDX_DEVICE=kfd", rdx_test_rdx_path(),
                           "info", NULL };
    rdx_test_run(argv, NULL, 0, &p);
    ck_assert_msg(p.status == 0, "status %d\n%s%s", p.status, p.out, p.err);
    assert_has(p.out, "2 GPUs");
    rdx_test_proc_free(&p);
    const char *bad[] = { "env",  pre, "RDX_EMU_GPUS=nine", "RDX_DEVICE=kfd", rdx_test_rdx_path(),
                          "info", NULL };
    rdx_test_run(bad, NULL, 0, &p);
    ck_assert_int_ne(p.status, 0);
    assert_has(p.err, "RDX_EMU_GPUS='nine': expected a number from 1 to 8");
    rdx_test_proc_free(&p);
}
END_TEST

START_TEST(bad_usage)
{
    static const struct {
        const char *a, *b, *c;
        int status;
        const char *msg;
    } cases[] = {
        { NULL, NULL, NULL, 2, "no command to run" },
        { "--gpus", "9", "true", 2, "--gpus '9': expected a number from 1 to 8" },
        { "--gpus", "0", "true", 2, "--gpus '0'" },
        { "--arch", "gfx906", "true", 2,
          "--arch='gfx906': target 1 ('gfx906' at offset 0) is not one the emulated GPU models; "
          "valid targets: gfx1100, gfx1101, gfx1102, gfx1150, gfx1151, gfx1200, gfx1201" },
        { "--arch", "gfx1100,gfx1201", "true", 2,
          "--arch='gfx1100,gfx1201': 2 targets for 1 GPUs; expected one target for every GPU or "
          "one per GPU" },
        { "--wave-budget", "x", "true", 2, "--wave-budget 'x'" },
        { "--bogus", "true", NULL, 2, "unknown option '--bogus'" },
        { "--", "/nonexistent/prog", NULL, 127, "cannot run '/nonexistent/prog'" },
        { "--gpus", NULL, NULL, 2, "--gpus needs a value" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *argv[8] = { rdx_test_rdx_path(), "emu" };
        int k = 2;
        if (cases[i].a)
            argv[k++] = cases[i].a;
        if (cases[i].b)
            argv[k++] = cases[i].b;
        if (cases[i].c)
            argv[k++] = cases[i].c;
        argv[k] = NULL;
        rdx_test_proc p;
        rdx_test_run(argv, NULL, 0, &p);
        ck_assert_msg(p.status == cases[i].status, "case %zu: status %d, expected %d\n%s", i,
                      p.status, cases[i].status, p.err);
        assert_has(p.err, cases[i].msg);
        rdx_test_proc_free(&p);
    }
    /* the command's own exit status comes back */
    const char *argv[] = { rdx_test_rdx_path(), "emu", "sh", "-c", "exit 7", NULL };
    rdx_test_proc p;
    ck_assert_int_eq(rdx_test_run(argv, NULL, 0, &p), 7);
    rdx_test_proc_free(&p);
}
END_TEST

int main(void)
{
    /* In `make asan` the interposer is itself sanitized: preloaded into programs that are not,
     * ASan must not insist on coming first (it does not affect the other builds). */
    setenv("ASAN_OPTIONS", "verify_asan_link_order=0", 0);
    Suite *s = suite_create("preload");
    TCase *tc = tcase_create("preload");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, rdx_info_through_kfd);
    tcase_add_test(tc, drm_path_names_the_target);
    tcase_add_test(tc, rdx_run_through_kfd);
    tcase_add_test(tc, four_gpus_in_one_program);
    tcase_add_test(tc, gpu_fault_reaches_the_program);
    tcase_add_test(tc, plain_libc_client);
    tcase_add_test(tc, unrelated_munmap_bypasses_the_driver);
    tcase_add_test(tc, libhsakmt_client);
    tcase_add_test(tc, cpu_caches_described);
    tcase_add_test(tc, python_ctypes_client);
    tcase_add_test(tc, no_device_outside_emu);
    tcase_add_test(tc, by_hand_ld_preload);
    tcase_add_test(tc, bad_usage);
    suite_add_tcase(s, tc);
    return rdx_test_main(s);
}
