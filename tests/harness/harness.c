/* tests/harness/harness.c — shared helpers of the Check suites. */
#include "tests/harness/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct grow {
    char *p;
    size_t len, cap;
} grow;

static void grow_add(grow *g, const char *d, size_t n)
{
    if (g->len + n + 1 > g->cap) {
        size_t cap = g->cap ? g->cap : 4096;
        while (cap < g->len + n + 1)
            cap *= 2;
        char *np = realloc(g->p, cap);
        ck_assert_msg(np != NULL, "out of memory capturing output");
        g->p = np;
        g->cap = cap;
    }
    memcpy(g->p + g->len, d, n);
    g->len += n;
    g->p[g->len] = 0;
}

int rdx_test_run(const char *const argv[], const void *in, size_t in_len, rdx_test_proc *p)
{
    memset(p, 0, sizeof *p);
    int pin[2], pout[2], perr[2];
    ck_assert_msg(pipe(pin) == 0 && pipe(pout) == 0 && pipe(perr) == 0, "pipe: %s",
                  strerror(errno));
    pid_t pid = fork();
    ck_assert_msg(pid >= 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        dup2(pin[0], 0);
        dup2(pout[1], 1);
        dup2(perr[1], 2);
        close(pin[0]);
        close(pin[1]);
        close(pout[0]);
        close(pout[1]);
        close(perr[0]);
        close(perr[1]);
        execvp(argv[0], (char *const *)argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(pin[0]);
    close(pout[1]);
    close(perr[1]);
    signal(SIGPIPE, SIG_IGN);
    grow out = { 0 }, err = { 0 };
    grow_add(&out, "", 0);
    grow_add(&err, "", 0);
    size_t written = 0;
    int in_fd = pin[1];
    if (!in || in_len == 0) {
        close(in_fd);
        in_fd = -1;
    } else {
        fcntl(in_fd, F_SETFL, O_NONBLOCK);
    }
    int open_fds = 2;
    while (open_fds > 0 || in_fd >= 0) {
        struct pollfd fds[3];
        int n = 0;
        if (pout[0] >= 0)
            fds[n++] = (struct pollfd){ .fd = pout[0], .events = POLLIN };
        if (perr[0] >= 0)
            fds[n++] = (struct pollfd){ .fd = perr[0], .events = POLLIN };
        if (in_fd >= 0)
            fds[n++] = (struct pollfd){ .fd = in_fd, .events = POLLOUT };
        if (poll(fds, (nfds_t)n, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < n; i++) {
            if (!fds[i].revents)
                continue;
            if (fds[i].fd == in_fd) {
                ssize_t w = write(in_fd, (const char *)in + written, in_len - written);
                if (w > 0)
                    written += (size_t)w;
                if (w < 0 || written == in_len) {
                    close(in_fd);
                    in_fd = -1;
                }
                continue;
            }
            char buf[65536];
            ssize_t r = read(fds[i].fd, buf, sizeof buf);
            if (r <= 0) {
                if (fds[i].fd == pout[0]) {
                    close(pout[0]);
                    pout[0] = -1;
                } else {
                    close(perr[0]);
                    perr[0] = -1;
                }
                open_fds--;
                continue;
            }
            grow_add(fds[i].fd == pout[0] ? &out : &err, buf, (size_t)r);
        }
    }
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    p->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : -1;
    p->out = out.p;
    p->out_len = out.len;
    p->err = err.p;
    p->err_len = err.len;
    return p->status;
}

void rdx_test_proc_free(rdx_test_proc *p)
{
    free(p->out);
    free(p->err);
    memset(p, 0, sizeof *p);
}

const char *rdx_test_build_dir(void)
{
    const char *b = getenv("RDX_BUILD");
    return b && *b ? b : "build";
}

const char *rdx_test_rdx_path(void)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/rdx", rdx_test_build_dir());
    return path;
}

const char *rdx_test_cc(void)
{
    const char *c = getenv("RDX_CC");
    return c && *c ? c : "cc";
}

static int in_path(const char *name, char *out, size_t cap)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    while (*path) {
        const char *e = strchr(path, ':');
        size_t n = e ? (size_t)(e - path) : strlen(path);
        snprintf(out, cap, "%.*s/%s", (int)n, path, name);
        if (access(out, X_OK) == 0)
            return 1;
        path += n + (e ? 1 : 0);
    }
    return 0;
}

const char *rdx_test_llvm_tool(const char *name)
{
    static _Thread_local char path[4096];
    snprintf(path, sizeof path, "/usr/lib/llvm-19/bin/%s", name);
    if (access(path, X_OK) == 0)
        return path;
    char versioned[256];
    snprintf(versioned, sizeof versioned, "%s-19", name);
    if (in_path(versioned, path, sizeof path))
        return path;
    if (in_path(name, path, sizeof path))
        return path;
    return NULL;
}

const char *rdx_test_llvm_tool_version(const char *name, int major)
{
    static _Thread_local char path[4096];
    snprintf(path, sizeof path, "/usr/lib/llvm-%d/bin/%s", major, name);
    if (access(path, X_OK) == 0)
        return path;
    /* scripts/setup installs every version the suites compare with: in CI a missing one is a
       broken setup, and skipping would let the comparison pass without running */
    const char *ci = getenv("CI");
    if (ci && !strcmp(ci, "true"))
        ck_abort_msg("%s: LLVM %d is not installed (CI=true; run scripts/setup)", path, major);
    return NULL;
}

static char tmp_root[256];
static pid_t tmp_owner;

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void tmp_cleanup(void)
{
    if (tmp_root[0] && getpid() == tmp_owner)
        nftw(tmp_root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The private temporary directory of this process (created on first use, removed when the
 * creating process exits), or NULL with errno set.  Check forks each test: a child gets its
 * own directory. */
static const char *tmp_dir(void)
{
    if (!tmp_root[0] || tmp_owner != getpid()) {
        const char *base = getenv("TMPDIR");
        snprintf(tmp_root, sizeof tmp_root, "%s/rdx-test-XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(tmp_root)) {
            tmp_root[0] = 0;
            return NULL;
        }
        if (tmp_owner == 0 || tmp_owner != getpid())
            atexit(tmp_cleanup);
        tmp_owner = getpid();
    }
    return tmp_root;
}

/* "<tmp_dir>/<name>", malloc'd, or NULL. */
static char *tmp_join(const char *name)
{
    const char *d = tmp_dir();
    if (!d)
        return NULL;
    size_t n = strlen(d) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", d, name);
    return p;
}

char *rdx_test_tmp_path(const char *name)
{
    char *p = tmp_join(name);
    ck_assert_msg(p != NULL, "temporary path %s: %s", name, strerror(errno));
    return p;
}

/* Run argv (its output goes to ours); on failure end the process: no test is running, so
 * Check's assertions (and rdx_test_run, which uses them) cannot report it. */
static void prebuild_step(const char *const *argv)
{
    if (!argv[0]) {
        fprintf(stderr, "tests: an LLVM 19 tool the suite needs is not installed\n");
        exit(1);
    }
    pid_t pid = fork();
    if (pid == 0) {
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
        fprintf(stderr, "tests: %s failed (status %d)\n", argv[0], status);
        exit(1);
    }
}

char *rdx_test_prebuild(const char *src, const char *const *flags, const char *name)
{
    char objname[256];
    snprintf(objname, sizeof objname, "%s.o", name);
    char *obj = tmp_join(objname), *out = tmp_join(name);
    if (!obj || !out) {
        fprintf(stderr, "tests: temporary path for %s: %s\n", name, strerror(errno));
        exit(1);
    }
    const char *argv[40];
    int n = 0;
    size_t len = strlen(src);
    if (len > 3 && !strcmp(src + len - 3, ".cl")) {
        const char *head[] = { rdx_test_llvm_tool("clang"),
                               "-x",
                               "cl",
                               "-cl-std=CL2.0",
                               "-target",
                               "amdgcn-amd-amdhsa",
                               "-mcpu=gfx1100",
                               "-nogpulib",
                               "-Iinclude" };
        for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
            argv[n++] = head[i];
        if (!flags || !flags[0])
            argv[n++] = "-O2";
        for (; flags && *flags && n < 32; flags++)
            argv[n++] = *flags;
        argv[n++] = "-c";
    } else {
        argv[n++] = rdx_test_llvm_tool("llvm-mc");
        argv[n++] = "-triple=amdgcn-amd-amdhsa";
        argv[n++] = "-mcpu=gfx1100";
        argv[n++] = "-filetype=obj";
    }
    argv[n++] = src;
    argv[n++] = "-o";
    argv[n++] = obj;
    argv[n] = NULL;
    prebuild_step(argv);
    const char *ld[] = {
        rdx_test_llvm_tool("ld.lld"), "--no-undefined", "-shared", obj, "-o", out, NULL
    };
    prebuild_step(ld);
    free(obj);
    return out;
}

void rdx_test_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f != NULL, "cannot create %s: %s", path, strerror(errno));
    ck_assert_msg(fwrite(data, 1, len, f) == len, "cannot write %s", path);
    ck_assert_msg(fclose(f) == 0, "cannot close %s", path);
}

char *rdx_test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s: %s", path, strerror(errno));
    grow g = { 0 };
    grow_add(&g, "", 0);
    char buf[65536];
    size_t r;
    while ((r = fread(buf, 1, sizeof buf, f)) > 0)
        grow_add(&g, buf, r);
    fclose(f);
    if (len)
        *len = g.len;
    return g.p;
}

int rdx_test_main(Suite *s)
{
    setenv("RDX_IR_VERIFY", "1", 0); /* IR rewrites verify their results in tests (docs/ir.md) */
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
