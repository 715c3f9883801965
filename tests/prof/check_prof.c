/*
 * tests/prof/check_prof.c — the profiling suite: the emulator's profile
 * (rdx/emu_prof.h) against independent counts, and `rdx prof`'s report, JSON,
 * Chrome trace and comparison.  Builds tests/data/prof/loops.cl with clang-19
 * -g once (at -O2 and -O0).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rdx/asm.h>

#include "tests/prof/prof_test.h"

char *pt_loops_co, *pt_loops_o0_co;

uint8_t *pt_assemble(const char *src, size_t *len)
{
    rdx_asm_options o = { .filename = "test.s", .arch = "gfx1100" };
    rdx_asm_result *r = NULL;
    rdx_status st = rdx_asm_assemble(src, strlen(src), &o, &r);
    if (st && r)
        for (size_t i = 0; i < r->ndiags; i++)
            fprintf(stderr, "%s\n", r->diags[i].text);
    ck_assert_int_eq(st, RDX_OK);
    uint8_t *out = NULL;
    ck_assert_int_eq(rdx_asm_write_codeobj(r, &out, len), RDX_OK);
    rdx_asm_free(r);
    return out;
}

int pt_prof(const char *const *args, rdx_test_proc *p)
{
    const char *argv[48];
    int n = 0;
    argv[n++] = rdx_test_rdx_path();
    argv[n++] = "prof";
    for (; *args && n < 46; args++)
        argv[n++] = *args;
    argv[n] = NULL;
    return rdx_test_run(argv, NULL, 0, p);
}

/* Built before the suite runs, so without Check's assertions (they need a running
 * test): fork/exec into a private directory removed at exit. */
static char dir[64];
static pid_t owner;

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void cleanup(void)
{
    if (getpid() == owner)
        nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void run_tool(char *const *argv)
{
    pid_t pid = fork();
    if (pid == 0) {
        execv(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
        fprintf(stderr, "check_prof: %s failed (status %d)\n", argv[0], status);
        exit(1);
    }
}

static char *tool(const char *name)
{
    const char *t = rdx_test_llvm_tool(name);
    if (!t) {
        fprintf(stderr, "check_prof: %s (LLVM 19) is needed\n", name);
        exit(1);
    }
    return strdup(t);
}

static void build(const char *opt, char **out)
{
    char *clang = tool("clang"), *lld = tool("ld.lld");
    char obj[128];
    snprintf(obj, sizeof obj, "%s/loops%s.o", dir, opt);
    *out = malloc(128);
    snprintf(*out, 128, "%s/loops%s.co", dir, opt);
    char *cc[] = { clang,
                   "-x",
                   "cl",
                   "-cl-std=CL2.0",
                   "-target",
                   "amdgcn-amd-amdhsa",
                   "-mcpu=gfx1100",
                   "-nogpulib",
                   "-Iinclude",
                   "-g",
                   (char *)opt,
                   "-c",
                   "tests/data/prof/loops.cl",
                   "-o",
                   obj,
                   NULL };
    run_tool(cc);
    char *ld[] = { lld, "--no-undefined", "-shared", obj, "-o", *out, NULL };
    run_tool(ld);
    free(clang);
    free(lld);
}

int main(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/rdx-prof-XXXXXX", base && strlen(base) < 40 ? base : "/tmp");
    if (!mkdtemp(dir)) {
        perror("check_prof: mkdtemp");
        return 1;
    }
    owner = getpid();
    atexit(cleanup);
    build("-O2", &pt_loops_co);
    build("-O0", &pt_loops_o0_co);
    Suite *s = suite_create("prof");
    suite_add_tcase(s, pt_tcase_api());
    suite_add_tcase(s, pt_tcase_cli());
    suite_add_tcase(s, pt_tcase_sqtt());
    int rc = rdx_test_main(s);
    free(pt_loops_co);
    free(pt_loops_o0_co);
    return rc;
}
