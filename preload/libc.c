/*
 * preload/libc.c — the libc entry points librdx-emu.so defines.  Each serves the emulated
 * device's paths and fds and passes everything else to libc unchanged.  Calls from inside
 * this library go to libc directly (pl_from_self), so the emulated driver's own opens and
 * mmaps are never served by itself.
 *
 * Served: open, open64, openat, openat64 (and the _FORTIFY_SOURCE variants), close, dup,
 * dup2, dup3, fcntl (F_DUPFD*), ioctl, mmap, mmap64, munmap, stat/lstat/fstat/fstatat and their
 * 64-bit and
 * __xstat forms, access, faccessat, opendir, fopen, fopen64, readlink, and dlsym (libc's
 * functions looked up by name resolve to these).
 */
#include "preload/preload.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/kfd_ioctl.h>

#define CALLER __builtin_return_address(0)

/* Read open's mode argument when the flags need one. */
#define MODE_ARG(flags, mode)                    \
    do {                                         \
        if ((flags) & (O_CREAT | __O_TMPFILE)) { \
            va_list ap_;                         \
            va_start(ap_, flags);                \
            mode = (mode_t)va_arg(ap_, int);     \
            va_end(ap_);                         \
        }                                        \
    } while (0)

/* Paths the program names, as libc must see them: a sysfs path of the emulated device is
 * redirected to its private copy.  Only absolute paths (or relative ones that a dirfd
 * resolves inside the copy already) are ever redirected. */
static const char *route(int dirfd, const char *path, char *buf, size_t cap, const void *caller)
{
    if (!path || pl_from_self(caller) || (dirfd != AT_FDCWD && path[0] != '/'))
        return path;
    return pl_redirect(path, buf, cap);
}

static int served_device(const char *path, const void *caller)
{
    return path && !pl_from_self(caller) && pl_is_device_path(path);
}

static int open_common(int dirfd, const char *path, int flags, mode_t mode, const void *caller)
{
    pl_real_init();
    if (served_device(path, caller))
        return pl_device_open(path, flags);
    char buf[PATH_MAX];
    return pl_libc.openat(dirfd, route(dirfd, path, buf, sizeof buf, caller), flags, mode);
}

int open(const char *path, int flags, ...)
{
    mode_t mode = 0;
    MODE_ARG(flags, mode);
    return open_common(AT_FDCWD, path, flags, mode, CALLER);
}

int open64(const char *path, int flags, ...)
{
    mode_t mode = 0;
    MODE_ARG(flags, mode);
    return open_common(AT_FDCWD, path, flags, mode, CALLER);
}

int openat(int dirfd, const char *path, int flags, ...)
{
    mode_t mode = 0;
    MODE_ARG(flags, mode);
    return open_common(dirfd, path, flags, mode, CALLER);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
    mode_t mode = 0;
    MODE_ARG(flags, mode);
    return open_common(dirfd, path, flags, mode, CALLER);
}

int __open_2(const char *path, int flags);
int __open_2(const char *path, int flags)
{
    return open_common(AT_FDCWD, path, flags, 0, CALLER);
}

int __open64_2(const char *path, int flags);
int __open64_2(const char *path, int flags)
{
    return open_common(AT_FDCWD, path, flags, 0, CALLER);
}

int __openat_2(int dirfd, const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags)
{
    return open_common(dirfd, path, flags, 0, CALLER);
}

FILE *fopen(const char *path, const char *mode)
{
    pl_real_init();
    char buf[PATH_MAX];
    return pl_libc.fopen(route(AT_FDCWD, path, buf, sizeof buf, CALLER), mode);
}

FILE *fopen64(const char *path, const char *mode)
{
    pl_real_init();
    char buf[PATH_MAX];
    return pl_libc.fopen64(route(AT_FDCWD, path, buf, sizeof buf, CALLER), mode);
}

DIR *opendir(const char *path)
{
    pl_real_init();
    char buf[PATH_MAX];
    return pl_libc.opendir(route(AT_FDCWD, path, buf, sizeof buf, CALLER));
}

ssize_t readlink(const char *restrict path, char *restrict out, size_t cap)
{
    pl_real_init();
    char buf[PATH_MAX];
    return pl_libc.readlink(route(AT_FDCWD, path, buf, sizeof buf, CALLER), out, cap);
}

int close(int fd)
{
    pl_real_init();
    pl_device_close(fd);
    return pl_libc.close(fd);
}

int dup(int fd)
{
    pl_real_init();
    int r = pl_libc.dup(fd);
    if (r >= 0)
        pl_device_dup(fd, r);
    return r;
}

int dup2(int fd, int to)
{
    pl_real_init();
    int r = pl_libc.dup2(fd, to);
    if (r >= 0)
        pl_device_dup(fd, r);
    return r;
}

int dup3(int fd, int to, int flags)
{
    pl_real_init();
    int r = pl_libc.dup3(fd, to, flags);
    if (r >= 0)
        pl_device_dup(fd, r);
    return r;
}

/* fcntl: F_DUPFD and F_DUPFD_CLOEXEC make dups like dup (libdrm dups the render node's fd);
 * the argument is passed on as the caller gave it (an int or a pointer, by command). */
static int fcntl_common(int fd, int cmd, void *arg)
{
    pl_real_init();
    int r = pl_libc.fcntl(fd, cmd, arg);
    if (r >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC))
        pl_device_dup(fd, r);
    return r;
}

int fcntl(int fd, int cmd, ...)
{
    va_list ap;
    va_start(ap, cmd);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    return fcntl_common(fd, cmd, arg);
}

int fcntl64(int fd, int cmd, ...)
{
    va_list ap;
    va_start(ap, cmd);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    return fcntl_common(fd, cmd, arg);
}

/* --- ioctl, mmap --- */

int ioctl(int fd, unsigned long request, ...)
{
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    pl_real_init();
    int efd = pl_device_fd(fd);
    if (efd < 0 && pl_device_inherited_kfd(fd)) {
        errno = EBADF; /* kfd_ioctl: "Using KFD FD in wrong process" */
        return -1;
    }
    if (efd < 0)
        return pl_libc.ioctl(fd, request, arg);
    /* The kernel takes the request as 32 bits (unsigned int cmd): callers that pass it as an
     * int through a variadic call (ctypes) leave the upper half undefined. */
    request = (uint32_t)request;
    const rdx_os *os = pl_os();
    int r;
    if (request == AMDKFD_IOC_ACQUIRE_VM && arg) {
        /* The argument names a render node by the program's fd: the driver's is behind it. */
        struct kfd_ioctl_acquire_vm_args a;
        memcpy(&a, arg, sizeof a);
        int drm = pl_device_fd((int)a.drm_fd);
        a.drm_fd = drm < 0 ? UINT32_MAX : (uint32_t)drm;
        r = os->ioctl(os->ctx, efd, request, &a);
    } else {
        r = os->ioctl(os->ctx, efd, request, arg);
    }
    if (pl_trace) {
        /* the request and its argument's words after the call */
        fprintf(stderr, "rdx emu: ioctl(%d, type '%c' nr 0x%02x size %u) = %d%s%s:", fd,
                (int)_IOC_TYPE(request), (unsigned)_IOC_NR(request), (unsigned)_IOC_SIZE(request),
                r, r < 0 ? " " : "", r < 0 ? strerror(-r) : "");
        for (unsigned i = 0; arg && i + 8 <= _IOC_SIZE(request) && i < 64; i += 8) {
            uint64_t w;
            memcpy(&w, (const char *)arg + i, 8);
            fprintf(stderr, " %#llx", (unsigned long long)w);
        }
        fputc('\n', stderr);
        pl_trace_device_error();
    }
    if (r < 0) {
        errno = -r;
        return -1;
    }
    return r;
}

static void *mmap_common(void *addr, size_t len, int prot, int flags, int fd, uint64_t off,
                         const void *caller)
{
    pl_real_init();
    if (!pl_from_self(caller)) {
        const rdx_os *os = pl_os();
        int efd = pl_device_fd(fd);
        /* The driver keeps track of the program's PROT_NONE reservations (GPU addresses
         * live in them) and of fixed mappings that replace them. */
        int anon = fd < 0 && (flags & MAP_ANONYMOUS) && (prot == PROT_NONE || (flags & MAP_FIXED));
        if (os && (efd >= 0 || anon)) {
            void *out;
            int r = os->mmap(os->ctx, addr, len, prot, flags, efd, off, &out);
            if (r < 0) {
                errno = -r;
                return MAP_FAILED;
            }
            pl_ranges_add(out, len);
            return out;
        }
    }
    return pl_libc.mmap(addr, len, prot, flags, fd, (off_t)off);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    return mmap_common(addr, len, prot, flags, fd, (uint64_t)off, CALLER);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off)
{
    return mmap_common(addr, len, prot, flags, fd, (uint64_t)off, CALLER);
}

int munmap(void *addr, size_t len)
{
    pl_real_init();
    const rdx_os *os = pl_os();
    /* Only an munmap of memory the driver mapped or was shown concerns it (its lock, waiting
     * for a running dispatch); the program's other munmaps go to libc directly. */
    if (os && !pl_from_self(CALLER) && pl_ranges_overlap(addr, len)) {
        int r = os->munmap(os->ctx, addr, len);
        if (pl_trace)
            fprintf(stderr, "rdx emu: munmap(%p, %zu) = %d\n", addr, len, r);
        if (r < 0) {
            errno = -r;
            return -1;
        }
        pl_ranges_remove_covered(addr, len);
        return 0;
    }
    return pl_libc.munmap(addr, len);
}

/* --- stat, access --- */

/* A device path or fd: the attributes of a character device with the driver's number. */
static int device_stat(dev_t rdev, struct stat *st)
{
    int r = pl_libc.stat("/dev/null", st);
    if (r == 0) {
        st->st_rdev = rdev;
        st->st_mode = S_IFCHR | 0666;
        st->st_ino = 0x7d00 + (ino_t)rdev;
    }
    return r;
}

/* 1 when `path` is a device this process's emulated driver serves (starting it). */
static int device_exists(const char *path)
{
    char probe[32];
    if (pl_start())
        return 0;
    unsigned minor;
    if (sscanf(path, "/dev/dri/renderD%u", &minor) == 1) {
        snprintf(probe, sizeof probe, "/sys/class/drm/renderD%u", minor);
        char buf[PATH_MAX];
        struct stat st;
        return pl_libc.stat(pl_redirect(probe, buf, sizeof buf), &st) == 0;
    }
    return 1;
}

static int stat_common(int dirfd, const char *path, struct stat *st, int flags, const void *caller)
{
    pl_real_init();
    dev_t rdev;
    if (served_device(path, caller) && pl_device_path_rdev(path, &rdev)) {
        if (!device_exists(path)) {
            errno = ENOENT;
            return -1;
        }
        return device_stat(rdev, st);
    }
    char buf[PATH_MAX];
    return pl_libc.fstatat(dirfd, route(dirfd, path, buf, sizeof buf, caller), st, flags);
}

int stat(const char *restrict path, struct stat *restrict st)
{
    return stat_common(AT_FDCWD, path, st, 0, CALLER);
}

int stat64(const char *restrict path, struct stat64 *restrict st)
{
    return stat_common(AT_FDCWD, path, (struct stat *)st, 0, CALLER);
}

int lstat(const char *restrict path, struct stat *restrict st)
{
    return stat_common(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW, CALLER);
}

int lstat64(const char *restrict path, struct stat64 *restrict st)
{
    return stat_common(AT_FDCWD, path, (struct stat *)st, AT_SYMLINK_NOFOLLOW, CALLER);
}

int fstatat(int dirfd, const char *restrict path, struct stat *restrict st, int flags)
{
    return stat_common(dirfd, path, st, flags, CALLER);
}

int fstatat64(int dirfd, const char *restrict path, struct stat64 *restrict st, int flags)
{
    return stat_common(dirfd, path, (struct stat *)st, flags, CALLER);
}

int statx(int dirfd, const char *restrict path, int flags, unsigned mask, struct statx *restrict st)
{
    pl_real_init();
    const void *caller = CALLER;
    dev_t rdev;
    if (served_device(path, caller) && pl_device_path_rdev(path, &rdev)) {
        struct stat s;
        if (!device_exists(path)) {
            errno = ENOENT;
            return -1;
        }
        if (device_stat(rdev, &s))
            return -1;
        memset(st, 0, sizeof *st);
        st->stx_mask = STATX_BASIC_STATS;
        st->stx_mode = (uint16_t)s.st_mode;
        st->stx_nlink = 1;
        st->stx_uid = s.st_uid;
        st->stx_gid = s.st_gid;
        st->stx_ino = s.st_ino;
        st->stx_blksize = (uint32_t)s.st_blksize;
        st->stx_rdev_major = major(rdev);
        st->stx_rdev_minor = minor(rdev);
        st->stx_dev_major = major(s.st_dev);
        st->stx_dev_minor = minor(s.st_dev);
        return 0;
    }
    char buf[PATH_MAX];
    return pl_libc.statx(dirfd, route(dirfd, path, buf, sizeof buf, caller), flags, mask, st);
}

int fstat(int fd, struct stat *st)
{
    pl_real_init();
    dev_t rdev;
    if (pl_device_rdev(fd, &rdev))
        return device_stat(rdev, st);
    return pl_libc.fstat(fd, st);
}

int fstat64(int fd, struct stat64 *st)
{
    return fstat(fd, (struct stat *)st);
}

/* The pre-2.33 glibc entry points that older binaries call. */
int __xstat(int ver, const char *path, struct stat *st);
int __xstat(int ver, const char *path, struct stat *st)
{
    (void)ver;
    return stat_common(AT_FDCWD, path, st, 0, CALLER);
}

int __xstat64(int ver, const char *path, struct stat64 *st);
int __xstat64(int ver, const char *path, struct stat64 *st)
{
    (void)ver;
    return stat_common(AT_FDCWD, path, (struct stat *)st, 0, CALLER);
}

int __lxstat(int ver, const char *path, struct stat *st);
int __lxstat(int ver, const char *path, struct stat *st)
{
    (void)ver;
    return stat_common(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW, CALLER);
}

int __lxstat64(int ver, const char *path, struct stat64 *st);
int __lxstat64(int ver, const char *path, struct stat64 *st)
{
    (void)ver;
    return stat_common(AT_FDCWD, path, (struct stat *)st, AT_SYMLINK_NOFOLLOW, CALLER);
}

int __fxstat(int ver, int fd, struct stat *st);
int __fxstat(int ver, int fd, struct stat *st)
{
    (void)ver;
    return fstat(fd, st);
}

int __fxstat64(int ver, int fd, struct stat64 *st);
int __fxstat64(int ver, int fd, struct stat64 *st)
{
    (void)ver;
    return fstat(fd, (struct stat *)st);
}

static int access_common(int dirfd, const char *path, int mode, int flags, const void *caller)
{
    pl_real_init();
    if (served_device(path, caller)) {
        if (!device_exists(path)) {
            errno = ENOENT;
            return -1;
        }
        return 0;
    }
    char buf[PATH_MAX];
    return pl_libc.faccessat(dirfd, route(dirfd, path, buf, sizeof buf, caller), mode, flags);
}

int access(const char *path, int mode)
{
    return access_common(AT_FDCWD, path, mode, 0, CALLER);
}

int faccessat(int dirfd, const char *path, int mode, int flags)
{
    return access_common(dirfd, path, mode, flags, CALLER);
}

/* --- dlsym --- */

/* Not in sanitized builds: a sanitizer runtime resolves its REAL() functions with
 * dlsym(RTLD_NEXT) before it has started, and through this function RTLD_NEXT would be taken
 * relative to this library, not to the runtime (its own interceptors come back). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PL_NO_DLSYM 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PL_NO_DLSYM 1
#endif
#endif

#ifndef PL_NO_DLSYM

/* A program that looks libc's functions up itself (dlsym on libc's handle, as Python's
 * ctypes does for CDLL("libc.so.6").mmap) gets this library's entry point, as a program
 * linked against libc does. */
static void *(*real_dlsym)(void *, const char *);

static void resolve_dlsym(void)
{
    real_dlsym = (void *(*)(void *, const char *))dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
    if (!real_dlsym)
        real_dlsym = (void *(*)(void *, const char *))dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
}

void *dlsym(void *restrict handle, const char *restrict name)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, resolve_dlsym);
    if (!real_dlsym)
        return NULL;
    void *p = real_dlsym(handle, name);
    if (!p || handle == RTLD_NEXT || handle == RTLD_DEFAULT)
        return p;
    pl_real_init();
#define SERVE(fn, real)                            \
    if (!strcmp(name, #fn) && p == (void *)(real)) \
        return (void *)fn;
    SERVE(open, pl_libc.open);
    SERVE(open64, pl_libc.open64);
    SERVE(openat, pl_libc.openat);
    SERVE(openat64, pl_libc.openat64);
    SERVE(close, pl_libc.close);
    SERVE(dup, pl_libc.dup);
    SERVE(dup2, pl_libc.dup2);
    SERVE(dup3, pl_libc.dup3);
    SERVE(fcntl, pl_libc.fcntl);
    SERVE(ioctl, pl_libc.ioctl);
    SERVE(mmap, pl_libc.mmap);
    SERVE(mmap64, pl_libc.mmap64);
    SERVE(munmap, pl_libc.munmap);
    SERVE(stat, pl_libc.stat);
    SERVE(lstat, pl_libc.lstat);
    SERVE(fstat, pl_libc.fstat);
    SERVE(fstatat, pl_libc.fstatat);
    SERVE(statx, pl_libc.statx);
    SERVE(access, pl_libc.access);
    SERVE(faccessat, pl_libc.faccessat);
    SERVE(opendir, pl_libc.opendir);
    SERVE(fopen, pl_libc.fopen);
    SERVE(fopen64, pl_libc.fopen64);
    SERVE(readlink, pl_libc.readlink);
#undef SERVE
    return p;
}
#endif /* PL_NO_DLSYM */
