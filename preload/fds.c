/*
 * preload/fds.c — the program's device fds: each is a real fd of the process (a dup of
 * /dev/null, so the number is the program's own and poll/close/exec behave) with the
 * emulated driver's fd behind it.  dup'ed fds share the emulated fd, which is closed with
 * the last of them.
 *
 * The table belongs to the process that opened the devices (owner).  A child made with
 * vfork (Python's subprocess, posix_spawn) shares the parent's memory but has an fd table of
 * its own: its closes (closing every fd before exec) and dups must not touch the parent's
 * devices, as they would not on the real driver.
 */
#include "preload/preload.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MAX_FDS     256
#define KFD_MAJOR   235 /* what /dev/kfd gets on most systems (a dynamic major) */
#define DRM_MAJOR   226
#define RENDER_BASE 128

typedef struct dev_fd {
    int real, emu;
    dev_t rdev;
} dev_fd;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static dev_fd fds[MAX_FDS];
static int nfds;
static pid_t owner; /* the process whose table this is (0: none yet) */

/* Whether this is the table's process (not a vfork child running in its memory). */
static int owned(void)
{
    return getpid() == owner;
}
/* In a forked child: the device fds it inherited (their driver stayed with the parent),
 * until it closes them or, for a render node, uses it.  Only the child's own thread runs when
 * it is filled. */
static struct {
    int fd;
    dev_t rdev;
} inherited[MAX_FDS];
static int ninherited;

static int parse_render(const char *path, unsigned *minor)
{
    char tail;
    return sscanf(path, "/dev/dri/renderD%u%c", minor, &tail) == 1;
}

int pl_is_device_path(const char *path)
{
    unsigned minor;
    return path && (!strcmp(path, "/dev/kfd") || parse_render(path, &minor));
}

int pl_device_path_rdev(const char *path, dev_t *rdev)
{
    unsigned minor;
    if (!strcmp(path, "/dev/kfd")) {
        *rdev = makedev(KFD_MAJOR, 0);
        return 1;
    }
    if (parse_render(path, &minor)) {
        *rdev = makedev(DRM_MAJOR, minor);
        return 1;
    }
    return 0;
}

int pl_device_open(const char *path, int flags)
{
    int r = pl_start();
    if (r) {
        errno = -r;
        return -1;
    }
    const rdx_os *os = pl_os();
    int efd = os->open(os->ctx, path, flags);
    if (efd < 0) {
        errno = -efd;
        return -1;
    }
    int real = pl_libc.open("/dev/null", O_RDWR | (flags & O_CLOEXEC));
    if (real < 0) {
        int e = errno;
        os->close(os->ctx, efd);
        errno = e;
        return -1;
    }
    pthread_mutex_lock(&lock);
    if (nfds == MAX_FDS) {
        pthread_mutex_unlock(&lock);
        pl_libc.close(real);
        os->close(os->ctx, efd);
        errno = EMFILE;
        return -1;
    }
    if (!nfds)
        owner = getpid();
    fds[nfds].real = real;
    fds[nfds].emu = efd;
    pl_device_path_rdev(path, &fds[nfds].rdev);
    nfds++;
    pthread_mutex_unlock(&lock);
    return real;
}

static int find(int real)
{
    for (int i = 0; i < nfds; i++)
        if (fds[i].real == real)
            return i;
    return -1;
}

void pl_device_mark_inherited(void)
{
    ninherited = 0;
    for (int i = 0; i < nfds; i++) {
        inherited[ninherited].fd = fds[i].real;
        inherited[ninherited++].rdev = fds[i].rdev;
    }
}

/* The inherited device fd `fd` of major `major_` that is still the /dev/null it was (dup2 may
 * have put another file there): its index, or -1. */
static int inherited_index(int fd, unsigned major_)
{
    for (int i = 0; i < __atomic_load_n(&ninherited, __ATOMIC_RELAXED); i++)
        if (inherited[i].fd == fd && major(inherited[i].rdev) == major_) {
            struct stat st;
            return pl_libc.fstat && !pl_libc.fstat(fd, &st) && S_ISCHR(st.st_mode) &&
                           st.st_rdev == makedev(1, 3)
                       ? i
                       : -1;
        }
    return -1;
}

int pl_device_inherited_kfd(int fd)
{
    return inherited_index(fd, KFD_MAJOR) >= 0;
}

/* fd is closed (or replaced by dup2): it no longer names an inherited device fd. */
static void forget_inherited(int fd)
{
    for (int i = 0; i < ninherited; i++)
        if (inherited[i].fd == fd)
            inherited[i--] = inherited[--ninherited];
}

/* An inherited render-node fd the child uses becomes a file of the child's own device: a
 * fresh open of the same render node (its queries answer as the parent's did; the parent's
 * GEM handles, contexts, BO lists and sync objects are not in it).  Its driver fd, or -1. */
static int adopt_render(int fd)
{
    int i = inherited_index(fd, DRM_MAJOR);
    if (i < 0)
        return -1;
    char path[48];
    snprintf(path, sizeof path, "/dev/dri/renderD%u", minor(inherited[i].rdev));
    dev_t rdev = inherited[i].rdev;
    forget_inherited(fd);
    if (pl_start())
        return -1;
    const rdx_os *os = pl_os();
    int efd = os->open(os->ctx, path, O_RDWR);
    if (efd < 0)
        return -1;
    pthread_mutex_lock(&lock);
    if (nfds == MAX_FDS) {
        pthread_mutex_unlock(&lock);
        os->close(os->ctx, efd);
        return -1;
    }
    if (!nfds)
        owner = getpid();
    fds[nfds++] = (dev_fd){ .real = fd, .emu = efd, .rdev = rdev };
    pthread_mutex_unlock(&lock);
    return efd;
}

void pl_device_forget_all(void)
{
    pthread_mutex_init(&lock, NULL);
    nfds = 0;
    owner = 0;
}

int pl_device_fd(int fd)
{
    if (fd < 0)
        return -1;
    int efd = -1;
    if (__atomic_load_n(&nfds, __ATOMIC_RELAXED)) {
        pthread_mutex_lock(&lock);
        int i = find(fd);
        efd = i < 0 ? -1 : fds[i].emu;
        pthread_mutex_unlock(&lock);
    }
    if (efd < 0 && __atomic_load_n(&ninherited, __ATOMIC_RELAXED))
        efd = adopt_render(fd);
    return efd;
}

int pl_device_real_fd(int efd)
{
    pthread_mutex_lock(&lock);
    int real = -1;
    for (int i = 0; i < nfds && real < 0; i++)
        if (fds[i].emu == efd)
            real = fds[i].real;
    pthread_mutex_unlock(&lock);
    return real;
}

int pl_device_rdev(int fd, dev_t *rdev)
{
    int k = fd < 0 ? -1 : inherited_index(fd, DRM_MAJOR);
    if (k >= 0) { /* an inherited render node is still that file */
        *rdev = inherited[k].rdev;
        return 1;
    }
    if (fd < 0 || !__atomic_load_n(&nfds, __ATOMIC_RELAXED))
        return 0;
    pthread_mutex_lock(&lock);
    int i = find(fd);
    if (i >= 0)
        *rdev = fds[i].rdev;
    pthread_mutex_unlock(&lock);
    return i >= 0;
}

int pl_device_close(int fd)
{
    if (__atomic_load_n(&ninherited, __ATOMIC_RELAXED))
        forget_inherited(fd);
    if (fd < 0 || !__atomic_load_n(&nfds, __ATOMIC_RELAXED))
        return 0;
    pthread_mutex_lock(&lock);
    int i = find(fd);
    if (i < 0 || !owned()) { /* a vfork child closes its own copy of the fd only */
        pthread_mutex_unlock(&lock);
        return 0;
    }
    int efd = fds[i].emu, shared = 0;
    fds[i] = fds[--nfds];
    for (int j = 0; j < nfds; j++)
        shared |= fds[j].emu == efd;
    pthread_mutex_unlock(&lock);
    if (!shared) {
        const rdx_os *os = pl_os();
        os->close(os->ctx, efd);
    }
    return 1;
}

void pl_device_dup(int from, int to)
{
    if (from < 0 || to < 0 || from == to || !__atomic_load_n(&nfds, __ATOMIC_RELAXED) || !owned())
        return;
    pl_device_close(to); /* dup2 onto a device fd closed it */
    pthread_mutex_lock(&lock);
    int i = find(from);
    if (i >= 0 && nfds < MAX_FDS)
        fds[nfds++] = (dev_fd){ .real = to, .emu = fds[i].emu, .rdev = fds[i].rdev };
    pthread_mutex_unlock(&lock);
}
