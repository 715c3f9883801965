/*
 * preload/preload.h — internals of librdx-emu.so, the interposer behind `rdx emu`.
 *
 * A program run with librdx-emu.so in LD_PRELOAD sees emulated AMD GPUs through the kernel
 * interface a real driver presents: /dev/kfd, /dev/dri/renderD128+i and the KFD topology in
 * sysfs.  The library defines the libc entry points that reach those (open, ioctl, mmap,
 * stat, opendir, fopen, …); each one hands the call to the emulated driver (emu/dev, through
 * its OS table, rdx/os.h) when it names one of the device's paths or fds, and to libc
 * otherwise.  Nothing is served until the program first touches a device path: then the
 * emulated driver is created (RDX_EMU_GPUS cards) and its sysfs tree is written to a private
 * temporary folder that the /sys paths are redirected to, so every libc call on a directory
 * or file there (readdir, fopen, fscanf, …) behaves as on a real filesystem.
 *
 * Calls made from inside this library (the emulated driver's own mmaps, opens and threads)
 * always go straight to libc: pl_from_self() tells them apart by return address.
 */
#ifndef RDX_PRELOAD_PRELOAD_H
#define RDX_PRELOAD_PRELOAD_H

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>

#include <rdx/emudev.h>

/* libc's own entry points (dlsym RTLD_NEXT), resolved once by pl_real_init. */
typedef struct pl_real {
    int (*open)(const char *, int, ...);
    int (*open64)(const char *, int, ...);
    int (*openat)(int, const char *, int, ...);
    int (*openat64)(int, const char *, int, ...);
    int (*close)(int);
    int (*ioctl)(int, unsigned long, ...);
    void *(*mmap)(void *, size_t, int, int, int, off_t);
    void *(*mmap64)(void *, size_t, int, int, int, off64_t);
    int (*munmap)(void *, size_t);
    int (*stat)(const char *, struct stat *);
    int (*lstat)(const char *, struct stat *);
    int (*fstat)(int, struct stat *);
    int (*fstatat)(int, const char *, struct stat *, int);
    int (*statx)(int, const char *, int, unsigned, struct statx *);
    int (*access)(const char *, int);
    int (*faccessat)(int, const char *, int, int);
    DIR *(*opendir)(const char *);
    FILE *(*fopen)(const char *, const char *);
    FILE *(*fopen64)(const char *, const char *);
    ssize_t (*readlink)(const char *, char *, size_t);
    int (*dup)(int);
    int (*dup2)(int, int);
    int (*dup3)(int, int, int);
    int (*fcntl)(int, int, ...);
} pl_real;

extern pl_real pl_libc;

/* Resolve pl_libc (idempotent, thread-safe). */
void pl_real_init(void);

/* 1 when `ret` (a return address) lies inside this library. */
int pl_from_self(const void *ret);

/* Create the emulated driver and its sysfs tree on first use.  Returns 0, or -errno with a
 * message on stderr (once).  Thread-safe. */
int pl_start(void);
/* The emulated driver's OS table once started, else NULL. */
const rdx_os *pl_os(void);
/* RDX_EMU_TRACE set: each served ioctl is printed on stderr. */
extern int pl_trace;
/* Print the emulated device's last error on stderr if it is new (for RDX_EMU_TRACE). */
void pl_trace_device_error(void);
/* The private folder holding the emulated sysfs tree ("" before pl_start). */
extern char pl_tree_root[];

/* --- device paths and fds (preload/fds.c) --- */

/* 1 when `path` is /dev/kfd or one of the emulated render nodes /dev/dri/renderD<128+i>
 * (or /dev/dri/card<i>, served as the render node). */
int pl_is_device_path(const char *path);
/* Open a device path: the emulated driver's fd behind a real fd of the process (a dup of
 * /dev/null) that the program holds.  Returns the real fd or -1 with errno set. */
int pl_device_open(const char *path, int flags);
/* The emulated driver's fd behind real fd `fd`, or -1 if `fd` is not a device fd. */
int pl_device_fd(int fd);
/* 1 and *rdev set when `fd` is a device fd (a character device's number for fstat). */
int pl_device_rdev(int fd, dev_t *rdev);
/* Forget real fd `fd` and close the emulated fd behind it; returns 1 if it was a device fd. */
int pl_device_close(int fd);
/* In a forked child: forget every device fd without closing anything (the parent's driver
 * is not the child's; the fds stay open as the /dev/null they are). */
void pl_device_forget_all(void);
/* In a forked child, before pl_device_forget_all: remember the device fds it inherited.  A
 * render-node fd among them becomes, when the child first uses it (pl_device_fd), a fresh
 * open of that render node on the child's own emulated device. */
void pl_device_mark_inherited(void);
/* Whether fd is a /dev/kfd fd the process inherited across fork and has not closed (its
 * driver stayed with the parent): an ioctl on it is EBADF, as kfd_ioctl answers a process that
 * did not open it. */
int pl_device_inherited_kfd(int fd);
/* A dup of a device fd shares the emulated fd (dup, dup2, dup3, F_DUPFD). */
void pl_device_dup(int from, int to);
/* The real fd of emulated fd `efd` (for arguments that carry fds back to the program). */
int pl_device_real_fd(int efd);
/* The character device number of a device path (/dev/kfd: 235:0, render nodes 226:128+i). */
int pl_device_path_rdev(const char *path, dev_t *rdev);

/* --- address ranges the driver knows (preload/ranges.c) --- */

/* Record [addr, addr+len) (page-rounded): a mapping the driver made or was shown. */
void pl_ranges_add(const void *addr, size_t len);
/* 1 when [addr, addr+len) overlaps a recorded range (an munmap the driver must see). */
int pl_ranges_overlap(const void *addr, size_t len);
/* Forget the recorded ranges [addr, addr+len) covers whole (after the driver unmapped it). */
void pl_ranges_remove_covered(const void *addr, size_t len);

/* --- sysfs redirection (preload/tree.c) --- */

/* When `path` lies under one of the sysfs folders the emulated driver serves, write the path
 * of its copy in the private tree to buf and return buf; otherwise return `path` unchanged.
 * Starts the emulated driver when needed.  Relative paths are never redirected. */
const char *pl_redirect(const char *path, char *buf, size_t cap);
/* Write the emulated driver's sysfs tree under `root` (a fresh folder).  0 or -errno. */
int pl_tree_write(const rdx_os *os, const char *root, unsigned num_gpus);
/* Remove the private tree (at exit). */
void pl_tree_remove(const char *root);

/* --- the CPUs' cache description when the host has none (preload/cpucache.c) --- */

/* Write cache folders for the host's CPUs under `root` when /sys/devices/system/cpu/cpu0/cache
 * does not exist (a generic description); nothing otherwise.  0 or -errno. */
int pl_cpu_cache_write(const char *root);
/* 1 when `path` is (under) a CPU's cache folder that the private tree serves. */
int pl_cpu_cache_path(const char *path);
/* 1 when the host lacks the CPU cache description (so the tree serves one). */
int pl_cpu_cache_probe(void);

#endif /* RDX_PRELOAD_PRELOAD_H */
