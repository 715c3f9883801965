/* isa/codeobj/memfd.c — the memfd a thread's code objects are written into (memfd.h). */
#include "isa/codeobj/memfd.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/error.h"

static _Thread_local int thread_fd = -1;
static pthread_key_t key;
static int key_ok;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Thread exit: the key's value is the descriptor + 1 (a destructor runs only for a
   non-NULL value). */
static void close_at_exit(void *v)
{
    close((int)((intptr_t)v - 1));
}

/* In a child made by fork(): the forking thread's descriptor is the parent's file. */
static void forked_child(void)
{
    if (thread_fd >= 0) {
        close(thread_fd);
        thread_fd = -1;
        if (key_ok)
            pthread_setspecific(key, NULL);
    }
}

static void init(void)
{
    key_ok = pthread_key_create(&key, close_at_exit) == 0;
    pthread_atfork(NULL, NULL, forked_child);
}

rdx_status rdx_codeobj_memfd(int *fd)
{
    if (thread_fd < 0) {
        pthread_once(&once, init);
        int f = memfd_create("rdx-codeobj", MFD_CLOEXEC);
        if (f < 0)
            return rdx_fail_errno(RDX_ERR_IO, errno, "memfd_create for a code object");
        /* Without the key (no thread-specific key left) it stays open at thread exit. */
        if (key_ok)
            pthread_setspecific(key, (void *)((intptr_t)f + 1));
        thread_fd = f;
    }
    *fd = thread_fd;
    return RDX_OK;
}
