/*
 * tests/kernel_headers/check_kernel_headers.c — kernels built without ROCm:
 * OpenCL C with rdx/opencl.h and HIP with rdx/hip.h, compiled by clang-19
 * with the commands README's "Running your own kernel" gives (no device
 * libraries, no HIP headers), loaded by the runtime on the emulated GPU and
 * compared with what the host computes for the same launch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/emudev.h>
#include <rdx/runtime.h>

#include "tests/harness/harness.h"

/* The documented commands, less the source and output (README shows them
 * with `clang-19`, `<prefix>/include` in place of include/ and k.cl / k.hip). */
#define CL_FLAGS                                                                             \
    "-x", "cl", "-cl-std=CL2.0", "--target=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-nogpulib", \
        "-O2", "-Iinclude", "-include", "rdx/opencl.h"
#define HIP_FLAGS                                                                          \
    "-x", "hip", "--cuda-device-only", "-nogpulib", "-nogpuinc", "--no-gpu-bundle-output", \
        "--offload-arch=gfx1100", "-O2", "-Iinclude", "-include", "rdx/hip.h"
#define README_CL                                                                              \
    "clang-19 -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=gfx1100 -nogpulib -O2 \\\n" \
    "    -I<prefix>/include -include rdx/opencl.h k.cl -o k.co"
#define README_HIP                                                                       \
    "clang-19 -x hip --cuda-device-only -nogpulib -nogpuinc --no-gpu-bundle-output \\\n" \
    "    --offload-arch=gfx1100 -O2 -I<prefix>/include -include rdx/hip.h k.hip -o k.co"

#define OK(expr)                                                                \
    do {                                                                        \
        rdx_status st_ = (expr);                                                \
        ck_assert_msg(st_ == RDX_OK, "%s: %s: %s", #expr, rdx_status_name(st_), \
                      rdx_error_message());                                     \
    } while (0)

/* Compile `src` with the flags (plus `opt` and the warnings as errors) into a
 * code object; returns its malloc'd path. */
static char *compile(const char *const *flags, const char *opt, const char *src, const char *name)
{
    const char *clang = rdx_test_llvm_tool("clang");
    ck_assert_msg(clang != NULL, "clang (LLVM 19) not found (run scripts/setup)");
    char *co = rdx_test_tmp_path(name);
    const char *argv[32];
    int n = 0;
    argv[n++] = clang;
    for (; *flags; flags++)
        argv[n++] = strcmp(*flags, "-O2") ? *flags : opt;
    const char *tail[] = { "-Wall", "-Wextra", "-Werror", src, "-o", co, NULL };
    for (int i = 0; tail[i]; i++)
        argv[n++] = tail[i];
    argv[n] = NULL;
    rdx_test_proc p;
    int rc = rdx_test_run(argv, NULL, 0, &p);
    ck_assert_msg(rc == 0, "%s %s %s failed (exit %d):\n%s", clang, opt, src, rc, p.err);
    rdx_test_proc_free(&p);
    return co;
}

typedef struct dev {
    rdx_emudev *emu;
    rdx_device *dev;
    rdx_program *prog;
    rdx_queue *q;
} dev;

static void open_dev(dev *d, const char *co)
{
    memset(d, 0, sizeof *d);
    OK(rdx_emudev_create(NULL, &d->emu));
    rdx_device_options o = { .os = rdx_emudev_os(d->emu) };
    OK(rdx_device_open(&o, &d->dev));
    OK(rdx_program_load_file(d->dev, co, &d->prog));
    OK(rdx_queue_create(d->dev, RDX_QUEUE_COMPUTE, &d->q));
}

static void close_dev(dev *d)
{
    OK(rdx_queue_destroy(d->q));
    rdx_program_free(d->prog);
    OK(rdx_device_close(d->dev));
    rdx_emudev_destroy(d->emu);
}

/* A device buffer of `size` bytes holding `init` (or zeros). */
static rdx_buffer *buffer(dev *d, size_t size, const void *init)
{
    rdx_buffer *b;
    OK(rdx_buffer_alloc(d->dev, size, RDX_MEM_DEVICE, &b));
    void *z = init ? NULL : calloc(1, size);
    OK(rdx_buffer_upload(b, 0, init ? init : z, size));
    free(z);
    return b;
}

/* Run kernel `name` with the launch's grid (l->kernel, args filled here). */
static void run(dev *d, const char *name, rdx_launch *l, rdx_buffer **bufs, uint32_t nbufs)
{
    rdx_arg args[4];
    for (uint32_t i = 0; i < nbufs; i++)
        args[i] = rdx_arg_buffer(bufs[i]);
    OK(rdx_program_find(d->prog, name, &l->kernel));
    l->args = args;
    l->nargs = nbufs;
    uint64_t t;
    OK(rdx_queue_dispatch(d->q, l, &t));
    OK(rdx_queue_wait(d->q, t, 60000));
}

static void *download(rdx_buffer *b, size_t size)
{
    void *h = malloc(size);
    OK(rdx_buffer_download(b, 0, h, size));
    rdx_buffer_free(b);
    return h;
}

/* reverse: every group of `block` items reverses its slice (n items in all,
 * the last group possibly partial: it reverses the items it has). */
static void check_reverse(dev *d, const char *what, uint32_t n, uint32_t block, int by_items)
{
    int32_t *in = malloc(n * sizeof *in);
    for (uint32_t i = 0; i < n; i++)
        in[i] = (int32_t)(i * 7 + 3);
    rdx_buffer *b[2] = { buffer(d, n * 4, in), buffer(d, n * 4, NULL) };
    rdx_launch l;
    memset(&l, 0, sizeof l);
    l.block[0] = block;
    if (by_items)
        l.global[0] = n;
    else
        l.grid[0] = n / block;
    run(d, "reverse", &l, b, 2);
    rdx_buffer_free(b[0]);
    int32_t *out = download(b[1], n * 4);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t base = i / block * block, len = n - base < block ? n - base : block;
        ck_assert_msg(out[i] == in[base + len - 1 - (i - base)], "%s reverse: out[%u] = %d", what,
                      i, out[i]);
    }
    free(out);
    free(in);
}

START_TEST(opencl_kernel_without_rocm_matches_the_host)
{
    static const char *const flags[] = { CL_FLAGS, NULL };
    static const char *const opts[] = { "-O0", "-O2" };
    enum { REC = 18 };
    for (int o = 0; o < 2; o++) {
        char name[32];
        snprintf(name, sizeof name, "items%s.co", opts[o]);
        char *co = compile(flags, opts[o], "tests/data/kernel_headers/items.cl", name);
        dev d;
        open_dev(&d, co);

        /* 2-D, given in work-items: 37 x 5 in groups of 8 x 2, the last group
         * of each dimension partial (5 of 8, 1 of 2). */
        const uint32_t gx = 37, gy = 5, bx = 8, by = 2;
        size_t size = (size_t)gx * gy * REC * 4;
        rdx_buffer *rec = buffer(&d, size, NULL);
        rdx_launch l;
        memset(&l, 0, sizeof l);
        l.global[0] = gx;
        l.global[1] = gy;
        l.block[0] = bx;
        l.block[1] = by;
        run(&d, "items", &l, &rec, 1);
        uint32_t *r = download(rec, size);
        for (uint32_t y = 0; y < gy; y++)
            for (uint32_t x = 0; x < gx; x++) {
                const uint32_t *w = r + REC * (y * gx + x);
                uint32_t lx = x % bx, ly = y % by, grx = x / bx, gry = y / by;
                uint32_t lsx = grx < gx / bx ? bx : gx % bx, lsy = gry < gy / by ? by : gy % by;
                const uint32_t want[REC] = { x,
                                             y,
                                             lx,
                                             ly,
                                             grx,
                                             gry,
                                             lsx,
                                             lsy,
                                             bx,
                                             by,
                                             (gx + bx - 1) / bx,
                                             (gy + by - 1) / by,
                                             gx,
                                             gy,
                                             2,
                                             y * gx + x,
                                             ly * lsx + lx,
                                             1 };
                for (int i = 0; i < REC; i++)
                    ck_assert_msg(w[i] == want[i], "%s: item (%u,%u) field %d: %u, want %u",
                                  opts[o], x, y, i, w[i], want[i]);
            }
        free(r);

        /* 1-D in whole groups: get_work_dim() is 1 */
        rec = buffer(&d, 64 * REC * 4, NULL);
        memset(&l, 0, sizeof l);
        l.grid[0] = 2;
        l.block[0] = 32;
        run(&d, "items", &l, &rec, 1);
        r = download(rec, 64 * REC * 4);
        for (uint32_t x = 0; x < 64; x++)
            ck_assert_msg(r[REC * x + 14] == 1 && r[REC * x] == x && r[REC * x + 10] == 2,
                          "%s: 1-D item %u: work_dim %u, id %u, groups %u", opts[o], x,
                          r[REC * x + 14], r[REC * x], r[REC * x + 10]);
        free(r);

        check_reverse(&d, opts[o], 4 * 256, 256, 0);
        check_reverse(&d, opts[o], 100, 32, 1); /* a partial last group of 4 */

        const uint32_t n = 300;
        uint32_t cinit[6] = { 0, 0, 0xffffffffu, 0, 0, 0 };
        rdx_buffer *cb[2] = { buffer(&d, sizeof cinit, cinit), buffer(&d, 8, NULL) };
        memset(&l, 0, sizeof l);
        l.global[0] = n;
        l.block[0] = 64;
        run(&d, "atomics", &l, cb, 2);
        uint32_t *c = download(cb[0], sizeof cinit);
        uint64_t *c64 = download(cb[1], 8);
        uint32_t x = 0;
        for (uint32_t i = 0; i < n; i++)
            x ^= i;
        ck_assert_msg(c[0] == n && c[1] == n - 1 && c[2] == 0 && c[3] == x && c[4] >= 1 &&
                          c[4] <= n && c[5] == 1 && c64[0] == n,
                      "%s atomics: %u %u %u %u %u %u %llu", opts[o], c[0], c[1], c[2], c[3], c[4],
                      c[5], (unsigned long long)c64[0]);
        free(c);
        free(c64);
        close_dev(&d);
        free(co);
    }
}
END_TEST

START_TEST(hip_kernel_without_rocm_matches_the_host)
{
    static const char *const flags[] = { HIP_FLAGS, NULL };
    static const char *const opts[] = { "-O0", "-O2" };
    enum { REC = 9 };
    for (int o = 0; o < 2; o++) {
        char name[32];
        snprintf(name, sizeof name, "items%s.hipco", opts[o]);
        char *co = compile(flags, opts[o], "tests/data/kernel_headers/items.hip", name);
        dev d;
        open_dev(&d, co);

        /* a 3 x 2 grid of 16 x 4 blocks */
        const uint32_t nbx = 3, nby = 2, bx = 16, by = 4, w = nbx * bx, h = nby * by;
        size_t size = (size_t)w * h * REC * 4;
        rdx_buffer *rec = buffer(&d, size, NULL);
        rdx_launch l;
        memset(&l, 0, sizeof l);
        l.grid[0] = nbx;
        l.grid[1] = nby;
        l.block[0] = bx;
        l.block[1] = by;
        run(&d, "items", &l, &rec, 1);
        uint32_t *r = download(rec, size);
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                const uint32_t *t = r + REC * (y * w + x);
                const uint32_t want[REC] = { x % bx, y % by, x / bx, y / by,       bx,
                                             by,     nbx,    nby,    32 + 1000 * 2 };
                for (int i = 0; i < REC; i++)
                    ck_assert_msg(t[i] == want[i], "%s: thread (%u,%u) field %d: %u, want %u",
                                  opts[o], x, y, i, t[i], want[i]);
            }
        free(r);

        check_reverse(&d, opts[o], 3 * 256, 256, 0);
        check_reverse(&d, opts[o], 4 * 64, 64, 0);

        const uint32_t n = 5 * 64;
        uint32_t cinit[6] = { 0, 0, 0xffffffffu, 0, 0, 0 };
        rdx_buffer *cb[2] = { buffer(&d, sizeof cinit, cinit), buffer(&d, 4, NULL) };
        memset(&l, 0, sizeof l);
        l.grid[0] = 5;
        l.block[0] = 64;
        run(&d, "atomics", &l, cb, 2);
        uint32_t *c = download(cb[0], sizeof cinit);
        float *f = download(cb[1], 4);
        uint32_t x = 0;
        for (uint32_t i = 0; i < n; i++)
            x ^= i;
        ck_assert_msg(c[0] == n && c[1] == n - 1 && c[2] == 0 && c[3] == x && c[4] >= 1 &&
                          c[4] <= n && c[5] == 1 && f[0] == 0.5f * n,
                      "%s atomics: %u %u %u %u %u %u %g", opts[o], c[0], c[1], c[2], c[3], c[4],
                      c[5], (double)f[0]);
        free(c);
        free(f);
        close_dev(&d);
        free(co);
    }
}
END_TEST

/* README's commands are the ones tested above (same flags, same order). */
START_TEST(readme_gives_the_tested_commands)
{
    char *readme = rdx_test_read_file("README.md", NULL);
    ck_assert_msg(strstr(readme, README_CL), "README.md lacks the OpenCL command:\n%s", README_CL);
    ck_assert_msg(strstr(readme, README_HIP), "README.md lacks the HIP command:\n%s", README_HIP);
    free(readme);
}
END_TEST

/* Read by a C or C++ compiler (a host program including them by mistake),
 * the device headers declare nothing: a program may define the same names. */
START_TEST(device_headers_are_empty_for_host_compilers)
{
    const char *src = "#include <rdx/opencl.h>\n#include <rdx/hip.h>\n"
                      "int get_global_id(int d) { return d; }\n"
                      "int threadIdx = 1, barrier = 2, atomic_add = 3, __syncthreads = 4;\n";
    const char *cc = rdx_test_cc();
    const char *compilers[][2] = { { cc, "c" },
                                   { strstr(cc, "clang") ? "clang++" : "g++", "c++" } };
    for (int i = 0; i < 2; i++) {
        const char *argv[] = { compilers[i][0], "-x",        compilers[i][1], "-Wall", "-Wextra",
                               "-Werror",       "-Iinclude", "-fsyntax-only", "-",     NULL };
        rdx_test_proc p;
        int rc = rdx_test_run(argv, src, strlen(src), &p);
        ck_assert_msg(rc == 0, "%s -x %s: %s", compilers[i][0], compilers[i][1], p.err);
        rdx_test_proc_free(&p);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("kernel_headers");
    TCase *tc = tcase_create("kernel_headers");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, opencl_kernel_without_rocm_matches_the_host);
    tcase_add_test(tc, hip_kernel_without_rocm_matches_the_host);
    tcase_add_test(tc, readme_gives_the_tested_commands);
    tcase_add_test(tc, device_headers_are_empty_for_host_compilers);
    suite_add_tcase(s, tc);
    return rdx_test_main(s);
}
