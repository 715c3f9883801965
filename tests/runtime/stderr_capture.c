/* tests/runtime/stderr_capture.c — what the library prints on stderr during a
 * test, captured (for tests that expect it) instead of shown: a green suite's
 * output must not look like a failure. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tests/runtime/rt_test.h"

void rt_stderr_begin(rt_stderr *c)
{
    static unsigned serial;
    char name[64];
    snprintf(name, sizeof name, "stderr-%d-%u.txt", (int)getpid(), serial++);
    c->path = rdx_test_tmp_path(name);
    fflush(stderr);
    int fd = open(c->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    ck_assert_msg(fd >= 0, "cannot create %s", c->path);
    c->saved = dup(2);
    ck_assert_msg(c->saved >= 0 && dup2(fd, 2) == 2, "cannot redirect stderr");
    close(fd);
}

char *rt_stderr_end(rt_stderr *c)
{
    fflush(stderr);
    dup2(c->saved, 2);
    close(c->saved);
    char *text = rdx_test_read_file(c->path, NULL);
    unlink(c->path);
    free(c->path);
    c->path = NULL;
    return text;
}
