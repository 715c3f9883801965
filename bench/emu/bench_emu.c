/*
 * bench/emu/bench_emu.c — emulator throughput on clang-compiled saxpy and
 * tiled matmul kernels (gfx1100, -O3): wave-instructions/s and lane-ops/s
 * with 1 host thread and with all threads, printed with ratios against a
 * plain C saxpy loop measured in the same run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdx/codeobj.h>
#include <rdx/emu.h>

static const char *kernels_cl =
    "__kernel void saxpy(__global float *y, __global const float *x, float a, int n) {\n"
    "  int i = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();\n"
    "  if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(16, 16, 1)))\n"
    "void matmul(__global float *c, __global const float *a, __global const float *b, int n) {\n"
    "  __local float ta[16][16], tb[16][16];\n"
    "  int tx = __builtin_amdgcn_workitem_id_x(), ty = __builtin_amdgcn_workitem_id_y();\n"
    "  int col = __builtin_amdgcn_workgroup_id_x() * 16 + tx;\n"
    "  int row = __builtin_amdgcn_workgroup_id_y() * 16 + ty;\n"
    "  float s = 0.0f;\n"
    "  for (int k0 = 0; k0 < n; k0 += 16) {\n"
    "    ta[ty][tx] = a[row * n + k0 + tx];\n"
    "    tb[ty][tx] = b[(k0 + ty) * n + col];\n"
    "    __builtin_amdgcn_s_barrier();\n"
    "    for (int k = 0; k < 16; k++) s += ta[ty][k] * tb[k][tx];\n"
    "    __builtin_amdgcn_s_barrier();\n"
    "  }\n"
    "  c[row * n + col] = s;\n"
    "}\n";

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* CPU seconds of the whole process (all threads): rates per CPU-second stay meaningful on a
   shared machine where wall time includes waiting for a core. */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct prog {
    uint8_t *code;
    size_t size;
    uint64_t entry[2];
    uint8_t kd[2][64];
} prog;

static int build(prog *p)
{
    char dir[] = "/tmp/rdx_bench_emu_XXXXXX";
    if (!mkdtemp(dir))
        return -1;
    char src[128], obj[128], cmd[512];
    snprintf(src, sizeof src, "%s/k.cl", dir);
    snprintf(obj, sizeof obj, "%s/k.o", dir);
    FILE *f = fopen(src, "w");
    if (!f)
        return -1;
    fputs(kernels_cl, f);
    fclose(f);
    const char *clang =
        access("/usr/lib/llvm-19/bin/clang", X_OK) == 0 ? "/usr/lib/llvm-19/bin/clang" : "clang-19";
    snprintf(cmd, sizeof cmd,
             "%s -target amdgcn-amd-amdhsa -mcpu=gfx1100 -nogpulib -O3 -c %s -o %s", clang, src,
             obj);
    int rc = system(cmd);
    rdx_codeobj *co = NULL;
    if (rc == 0 && rdx_codeobj_read_file(obj, &co) != RDX_OK)
        rc = -1;
    remove(src);
    remove(obj);
    rmdir(dir);
    if (rc)
        return -1;
    p->size = (co->text_size + 4095) & ~(size_t)4095;
    p->code = aligned_alloc(4096, p->size);
    memset(p->code, 0, p->size);
    memcpy(p->code, co->text, co->text_size);
    static const char *names[2] = { "saxpy", "matmul" };
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < co->num_kernels; i++)
            if (!strcmp(co->kernels[i].name, names[k])) {
                p->entry[k] = (uint64_t)(uintptr_t)p->code + co->kernels[i].code_offset;
                rdx_codeobj_kd_pack(&co->kernels[i].kd, 11, p->kd[k]);
            }
    rdx_codeobj_free(co);
    return p->entry[0] && p->entry[1] ? 0 : -1;
}

typedef struct result {
    double secs, cpu, wave_insts, lane_ops;
} result;

static int run(rdx_emu *e, prog *p, int k, const uint32_t grid[3], const uint32_t wg[3], void *args,
               size_t argsz, result *r)
{
    rdx_emu_dispatch d;
    memset(&d, 0, sizeof d);
    rdx_emu_dispatch_from_descriptor(&d, p->kd[k]);
    d.code = p->entry[k];
    memcpy(d.grid, grid, sizeof d.grid);
    memcpy(d.wg, wg, sizeof d.wg);
    d.kernarg = (uint64_t)(uintptr_t)args;
    (void)argsz;
    double t0 = now(), c0 = cpu_now();
    rdx_status st = rdx_emu_run(e, &d);
    r->secs = now() - t0;
    r->cpu = cpu_now() - c0;
    if (st) {
        fprintf(stderr, "bench_emu: %s\n", rdx_error_message());
        return -1;
    }
    const rdx_emu_counters *c = rdx_emu_get_counters(e);
    r->wave_insts = (double)c->wave_insts;
    r->lane_ops = (double)c->lane_ops;
    return 0;
}

int main(void)
{
    prog p;
    memset(&p, 0, sizeof p);
    if (build(&p)) {
        fprintf(stderr, "bench_emu: cannot build the kernels with clang-19\n");
        return 1;
    }
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned all = ncpu > 0 ? (unsigned)ncpu : 1;

    /* baseline: host saxpy */
    int n = 1 << 24;
    float *x = malloc(sizeof(float) * (size_t)n), *y = malloc(sizeof(float) * (size_t)n);
    for (int i = 0; i < n; i++) {
        x[i] = (float)i * 0.5f;
        y[i] = 1.0f;
    }
    double t0 = now();
    int reps = 50;
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < n; i++)
            y[i] = 1.0001f * x[i] + y[i];
        __asm__ volatile("" ::"r"(y) : "memory");
    }
    double host_eps = (double)n * reps / (now() - t0);
    printf("baseline: host C saxpy %.1f M elements/s\n", host_eps / 1e6);

    rdx_emu *e;
    if (rdx_emu_create("gfx1100", &e))
        return 1;
    rdx_emu_map(e, (uint64_t)(uintptr_t)p.code, p.size, RDX_EMU_READ);
    rdx_emu_map(e, (uint64_t)(uintptr_t)x, sizeof(float) * (size_t)n, RDX_EMU_RW);
    rdx_emu_map(e, (uint64_t)(uintptr_t)y, sizeof(float) * (size_t)n, RDX_EMU_RW);
    struct {
        float *y;
        float *x;
        float a;
        int n;
    } sargs = { y, x, 2.0f, n };
    rdx_emu_map(e, (uint64_t)(uintptr_t)&sargs, sizeof sargs, RDX_EMU_READ);

    int mn = 384;
    float *a = malloc(sizeof(float) * (size_t)mn * mn),
          *b = malloc(sizeof(float) * (size_t)mn * mn),
          *c = malloc(sizeof(float) * (size_t)mn * mn);
    for (int i = 0; i < mn * mn; i++) {
        a[i] = (float)(i % 7);
        b[i] = (float)(i % 5);
    }
    rdx_emu_map(e, (uint64_t)(uintptr_t)a, sizeof(float) * (size_t)mn * mn, RDX_EMU_RW);
    rdx_emu_map(e, (uint64_t)(uintptr_t)b, sizeof(float) * (size_t)mn * mn, RDX_EMU_RW);
    rdx_emu_map(e, (uint64_t)(uintptr_t)c, sizeof(float) * (size_t)mn * mn, RDX_EMU_RW);
    struct {
        float *c, *a, *b;
        int n;
    } margs = { c, a, b, mn };
    rdx_emu_map(e, (uint64_t)(uintptr_t)&margs, sizeof margs, RDX_EMU_READ);

    float *c1 = malloc(sizeof(float) * (size_t)mn * mn); /* the 1-thread matmul result */
    int differ = 0;
    unsigned threads[2] = { 1, all };
    double lane1[2] = { 0, 0 }, cpu1[2] = { 0, 0 };
    for (int t = 0; t < (all > 1 ? 2 : 1); t++) {
        rdx_emu_set_threads(e, threads[t]);
        result r;
        uint32_t g[3] = { (uint32_t)n, 1, 1 }, w[3] = { 256, 1, 1 };
        if (run(e, &p, 0, g, w, &sargs, sizeof sargs, &r))
            return 1;
        double eps = (double)n / r.secs;
        printf("saxpy  n=%d threads=%u: %.2f s (%.2f CPU-s), %.1f M wave-insts/s, %.1f M "
               "lane-ops/s, %.1f M lane-ops per CPU-second, %.4fx host C saxpy\n",
               n, threads[t], r.secs, r.cpu, r.wave_insts / r.secs / 1e6, r.lane_ops / r.secs / 1e6,
               r.lane_ops / r.cpu / 1e6, eps / host_eps);
        if (t == 0) {
            lane1[0] = r.lane_ops / r.secs;
            cpu1[0] = r.cpu;
        } else {
            printf("saxpy  scaling %u threads: %.2fx of 1 thread wall-clock; CPU-seconds %.2fx of "
                   "1 thread (1.00 = no parallel overhead)\n",
                   threads[t], r.lane_ops / r.secs / lane1[0], r.cpu / cpu1[0]);
        }
        uint32_t mg[3] = { (uint32_t)mn, (uint32_t)mn, 1 }, mw[3] = { 16, 16, 1 };
        if (run(e, &p, 1, mg, mw, &margs, sizeof margs, &r))
            return 1;
        printf("matmul n=%d threads=%u: %.2f s (%.2f CPU-s), %.1f M wave-insts/s, %.1f M "
               "lane-ops/s, %.1f M lane-ops per CPU-second, %.4fx host C saxpy (FMAs/s vs "
               "elements/s)\n",
               mn, threads[t], r.secs, r.cpu, r.wave_insts / r.secs / 1e6,
               r.lane_ops / r.secs / 1e6, r.lane_ops / r.cpu / 1e6,
               (double)mn * mn * mn / r.secs / host_eps);
        if (t == 0) {
            lane1[1] = r.lane_ops / r.secs;
            cpu1[1] = r.cpu;
            if (c1)
                memcpy(c1, c, sizeof(float) * (size_t)mn * mn);
        } else {
            differ = c1 && memcmp(c1, c, sizeof(float) * (size_t)mn * mn) != 0;
            printf("matmul scaling %u threads: %.2fx of 1 thread wall-clock; CPU-seconds %.2fx of "
                   "1 thread; result %s the 1-thread result\n",
                   threads[t], r.lane_ops / r.secs / lane1[1], r.cpu / cpu1[1],
                   differ ? "DIFFERS from" : "bit-identical to");
        }
    }
    int bad = 0;
    for (int i = 0; i < mn && !bad; i++) {
        float s = 0;
        for (int k = 0; k < mn; k++)
            s += a[i * mn + k] * b[k * mn + 5];
        bad = c[i * mn + 5] != s;
    }
    if (bad)
        fprintf(stderr, "bench_emu: matmul result is wrong\n");
    if (differ) {
        fprintf(stderr, "bench_emu: matmul results differ between 1 and %u threads\n", all);
        bad = 1;
    }
    free(c1);
    rdx_emu_destroy(e);
    free(x);
    free(y);
    free(a);
    free(b);
    free(c);
    free(p.code);
    return bad;
}
