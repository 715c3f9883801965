/*
 * bench/isa/bench_isa.c — assembling and disassembling the whole llvm-mc
 * corpus (tests/data/isa/<target>.txt), rdx against llvm-mc, whole process
 * each (`rdx as` / `llvm-mc -filetype=obj`, `rdx dis --raw` / `llvm-mc
 * --disassemble`), best of 5 (rdx) / 3 (llvm-mc) runs; prints wall and CPU
 * times (CPU is steadier on a loaded machine) and llvm-mc/rdx ratios.
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Run argv with stdout/stderr to /dev/null; wall seconds (CPU seconds of the
   child in *cpu), or -1 on failure. */
static double run(char *const argv[], double *cpu)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", 1, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", 1, 0);
    pid_t pid;
    double t0 = now();
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int st;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return -1;
    double wall = now() - t0;
    *cpu = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
           (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
    return wall;
}

typedef struct timing {
    double wall, cpu;
} timing;

/* Best wall and best CPU time of n runs (wall < 0 on failure). */
static timing best_of(char *const argv[], int n)
{
    timing best = { -1, -1 };
    for (int i = 0; i < n; i++) {
        double cpu;
        double t = run(argv, &cpu);
        if (t < 0)
            return (timing){ -1, -1 };
        if (best.wall < 0 || t < best.wall)
            best.wall = t;
        if (best.cpu < 0 || cpu < best.cpu)
            best.cpu = cpu;
    }
    return best;
}

static void report(const char *what, timing r, timing m)
{
    printf("  %-12s rdx %7.3f s (cpu %6.3f)   llvm-mc %7.3f s (cpu %6.3f)   llvm-mc/rdx: "
           "wall %5.1fx, cpu %5.1fx\n",
           what, r.wall, r.cpu, m.wall, m.cpu, m.wall / r.wall, r.cpu > 0 ? m.cpu / r.cpu : 0.0);
}

static const char *llvm_mc(void)
{
    static const char *const c[] = { "/usr/lib/llvm-19/bin/llvm-mc", "/usr/bin/llvm-mc-19",
                                     "/usr/bin/llvm-mc" };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        if (access(c[i], X_OK) == 0)
            return c[i];
    return NULL;
}

static int hexval(int ch)
{
    return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : 0;
}

/* Write the corpus as assembly, raw bytes and llvm-mc disassembler input. */
static size_t prepare(const char *target, const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "tests/data/isa/%s.txt", target);
    FILE *in = fopen(path, "r");
    if (!in)
        return 0;
    snprintf(path, sizeof path, "%s/%s.s", dir, target);
    FILE *s = fopen(path, "w");
    snprintf(path, sizeof path, "%s/%s.bin", dir, target);
    FILE *b = fopen(path, "wb");
    snprintf(path, sizeof path, "%s/%s.hex", dir, target);
    FILE *h = fopen(path, "w");
    char line[1024];
    size_t n = 0;
    while (s && b && h && fgets(line, sizeof line, in)) {
        char *tab = strchr(line, '\t');
        if (line[0] == '#' || !tab)
            continue;
        fputs(tab + 1, s);
        for (char *p = line; p + 1 < tab; p += 2) {
            int v = hexval(p[0]) * 16 + hexval(p[1]);
            fputc(v, b);
            fprintf(h, "0x%02x ", v);
        }
        fputc('\n', h);
        n++;
    }
    fclose(in);
    if (s)
        fclose(s);
    if (b)
        fclose(b);
    if (h)
        fclose(h);
    return n;
}

int main(void)
{
    const char *mc = llvm_mc();
    const char *build = getenv("RDX_BUILD") ? getenv("RDX_BUILD") : "build";
    char rdx[512];
    snprintf(rdx, sizeof rdx, "%s/rdx", build);
    if (!mc || access(rdx, X_OK) != 0) {
        fprintf(stderr, "bench_isa: needs llvm-mc and %s\n", rdx);
        return 1;
    }
    char dir[] = "/tmp/rdx_bench_isa_XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    static const char *const targets[] = { "gfx1100", "gfx1201" };
    int rc = 0;
    for (size_t k = 0; k < 2; k++) {
        const char *t = targets[k];
        size_t n = prepare(t, dir);
        if (!n) {
            fprintf(stderr, "bench_isa: no corpus for %s\n", t);
            rc = 1;
            continue;
        }
        char s[512], bin[512], hex[512], out[512], mcpu[64], arch[64];
        snprintf(s, sizeof s, "%s/%s.s", dir, t);
        snprintf(bin, sizeof bin, "%s/%s.bin", dir, t);
        snprintf(hex, sizeof hex, "%s/%s.hex", dir, t);
        snprintf(out, sizeof out, "%s/out", dir);
        snprintf(mcpu, sizeof mcpu, "-mcpu=%s", t);
        snprintf(arch, sizeof arch, "%s", t);
        char *rdx_as[] = { rdx, "as", "--raw", "--arch", arch, s, "-o", out, NULL };
        char *mc_as[] = {
            (char *)mc, "-triple=amdgcn-amd-amdhsa", mcpu, "-filetype=obj", s, "-o", out, NULL
        };
        char *rdx_dis[] = { rdx, "dis", "--raw", "--no-addr", "--arch", arch, bin, NULL };
        char *mc_dis[] = {
            (char *)mc, "-triple=amdgcn-amd-amdhsa", mcpu, "--disassemble", hex, NULL
        };
        timing ra = best_of(rdx_as, 5), ma = best_of(mc_as, 3);
        timing rd = best_of(rdx_dis, 5), md = best_of(mc_dis, 3);
        if (ra.wall < 0 || ma.wall < 0 || rd.wall < 0 || md.wall < 0) {
            fprintf(stderr, "bench_isa: %s: a run failed\n", t);
            rc = 1;
            continue;
        }
        printf("%s: %zu instructions\n", t, n);
        report("assemble:", ra, ma);
        report("disassemble:", rd, md);
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        rc = 1;
    return rc;
}
