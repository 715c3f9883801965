/*
 * tests/runtime/check_runtime.c — the runtime suite: everything through
 * rdx/runtime.h on the emulated GPU, down the same kfd/pm4 path a real card
 * takes.  Builds the test kernels once (clang-19, llvm-mc, ld.lld).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/runtime/rt_test.h"

char *rt_kernels_co, *rt_asm_co, *rt_spin_co;

/* Built before the suite runs, so without Check's assertions (they need a
 * running test): fork/exec, a private directory removed at exit. */
static char dir[64];

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static pid_t owner;

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
        fprintf(stderr, "check_runtime: %s failed (status %d)\n", argv[0], status);
        exit(1);
    }
}

static char *tool(const char *name)
{
    const char *t = rdx_test_llvm_tool(name);
    if (!t) {
        fprintf(stderr, "check_runtime: %s (LLVM 19) is needed\n", name);
        exit(1);
    }
    return strdup(t);
}

static char *in_dir(const char *name)
{
    char *p = malloc(strlen(dir) + strlen(name) + 2);
    sprintf(p, "%s/%s", dir, name);
    return p;
}

static void build_kernels(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/rdx-rt-XXXXXX", base && strlen(base) < 40 ? base : "/tmp");
    if (!mkdtemp(dir)) {
        perror("check_runtime: mkdtemp");
        exit(1);
    }
    owner = getpid();
    atexit(cleanup);
    char *clang = tool("clang"), *lld = tool("ld.lld"), *mc = tool("llvm-mc");
    char *obj = in_dir("kernels.o"), *aobj = in_dir("add_value.o"), *sobj = in_dir("spin.o");
    rt_kernels_co = in_dir("kernels.co");
    rt_asm_co = in_dir("add_value.co");
    rt_spin_co = in_dir("spin.co");
    char *cc[] = { clang,
                   "-x",
                   "cl",
                   "-cl-std=CL2.0",
                   "-target",
                   "amdgcn-amd-amdhsa",
                   "-mcpu=gfx1100",
                   "-nogpulib",
                   "-cl-kernel-arg-info",
                   "-O2",
                   "-Iinclude",
                   "-c",
                   "tests/data/runtime/kernels.cl",
                   "-o",
                   obj,
                   NULL };
    run_tool(cc);
    char *ld[] = { lld, "--no-undefined", "-shared", obj, "-o", rt_kernels_co, NULL };
    run_tool(ld);
    char *as[] = { mc,
                   "-triple=amdgcn-amd-amdhsa",
                   "-mcpu=gfx1100",
                   "-filetype=obj",
                   "tests/data/runtime/add_value.s",
                   "-o",
                   aobj,
                   NULL };
    run_tool(as);
    char *ld2[] = { lld, "-shared", aobj, "-o", rt_asm_co, NULL };
    run_tool(ld2);
    char *as3[] = { mc,
                    "-triple=amdgcn-amd-amdhsa",
                    "-mcpu=gfx1100",
                    "-filetype=obj",
                    "tests/data/runtime/spin.s",
                    "-o",
                    sobj,
                    NULL };
    run_tool(as3);
    char *ld3[] = { lld, "-shared", sobj, "-o", rt_spin_co, NULL };
    run_tool(ld3);
    free(sobj);
    free(obj);
    free(aobj);
    free(clang);
    free(lld);
    free(mc);
}

int main(void)
{
    build_kernels();
    Suite *s = suite_create("runtime");
    suite_add_tcase(s, rt_tcase_device());
    suite_add_tcase(s, rt_tcase_copy());
    suite_add_tcase(s, rt_tcase_dispatch());
    suite_add_tcase(s, rt_tcase_sync());
    suite_add_tcase(s, rt_tcase_oracle());
    suite_add_tcase(s, rt_tcase_faults());
    suite_add_tcase(s, rt_tcase_hang());
    suite_add_tcase(s, rt_tcase_inject());
    suite_add_tcase(s, rt_tcase_quiet());
    suite_add_tcase(s, rt_tcase_cli());
    suite_add_tcase(s, rt_tcase_bounds());
    suite_add_tcase(s, rt_tcase_stop());
    suite_add_tcase(s, rt_tcase_multi());
    int rc = rdx_test_main(s);
    free(rt_kernels_co);
    free(rt_asm_co);
    free(rt_spin_co);
    return rc;
}
