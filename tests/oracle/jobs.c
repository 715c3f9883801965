/*
 * tests/oracle/jobs.c — running compiler and host-kernel processes a few at a
 * time, and small file helpers.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/oracle/oracle_int.h"

extern char **environ;

int rdx_oracle_err(char *err, size_t len, const char *fmt, ...)
{
    if (err && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, len, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static pid_t spawn_job(const rdx_oracle_job *j)
{
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0)
        return -1;
    posix_spawn_file_actions_addopen(&fa, 0, j->in_path ? j->in_path : "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, j->out_path ? j->out_path : "/dev/null",
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (j->cwd)
        posix_spawn_file_actions_addchdir_np(&fa, j->cwd);
    if (j->err_path)
        posix_spawn_file_actions_addopen(&fa, 2, j->err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    else
        posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, j->argv[0], &fa, NULL, (char *const *)j->argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    return rc == 0 ? pid : -1;
}

void rdx_oracle_run_jobs(rdx_oracle_job *jobs, int n, int parallel)
{
    if (parallel < 1)
        parallel = 1;
    pid_t *pids = calloc((size_t)n + 1, sizeof *pids);
    int next = 0, running = 0;
    while (next < n || running > 0) {
        while (next < n && running < parallel) {
            pid_t pid = pids ? spawn_job(&jobs[next]) : -1;
            if (pid < 0) {
                jobs[next].status = 127;
            } else {
                pids[next] = pid;
                running++;
            }
            next++;
        }
        if (running == 0)
            continue;
        int st;
        pid_t done = waitpid(-1, &st, 0);
        if (done < 0) {
            if (errno == EINTR)
                continue;
            break; /* no children left: should not happen */
        }
        for (int i = 0; i < next; i++) {
            if (pids[i] != done)
                continue;
            pids[i] = 0;
            jobs[i].status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            running--;
            break;
        }
    }
    free(pids);
}

char *rdx_oracle_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *p = malloc(cap);
    while (p) {
        if (n + 1 >= cap) {
            char *q = realloc(p, cap * 2);
            if (!q) {
                free(p);
                p = NULL;
                break;
            }
            p = q;
            cap *= 2;
        }
        size_t r = fread(p + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0)
            break;
    }
    fclose(f);
    if (!p)
        return NULL;
    p[n] = 0;
    if (len)
        *len = n;
    return p;
}

int rdx_oracle_spit(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(data, 1, len, f) == len;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

char *rdx_oracle_head(const char *path, size_t max)
{
    size_t len;
    char *s = rdx_oracle_slurp(path, &len);
    if (s && len > max && max > 4)
        strcpy(s + max - 4, "...");
    return s ? s : strdup("");
}

char *rdx_oracle_dupf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    return s;
}

char *rdx_oracle_keep(rdx_oracle_strs *pool, char *s)
{
    if (!s) {
        pool->failed = 1;
        return NULL;
    }
    if (pool->n == pool->cap) {
        int cap = pool->cap ? pool->cap * 2 : 64;
        char **v = realloc(pool->v, (size_t)cap * sizeof *v);
        if (!v) {
            free(s);
            pool->failed = 1;
            return NULL;
        }
        pool->v = v;
        pool->cap = cap;
    }
    pool->v[pool->n++] = s;
    return s;
}

void rdx_oracle_strs_free(rdx_oracle_strs *pool)
{
    for (int i = 0; i < pool->n; i++)
        free(pool->v[i]);
    free(pool->v);
    *pool = (rdx_oracle_strs){ 0 };
}
