/*
 * preload/start.c — librdx-emu.so's state: libc's entry points, the library's own address
 * range, and the emulated driver with its sysfs tree, created on first use.
 *
 * Environment (set by `rdx emu`, or by hand):
 *   RDX_EMU_GPUS         number of emulated GPUs, 1-8 (default 1)
 *   RDX_EMU_ARCH         the GPUs' target, one for all or one per GPU ("gfx1100,gfx1201");
 *                        default gfx1100 (rdx_emudev_create reads it)
 *   RDX_EMU_WAVE_BUDGET  instructions a wave may run before a dispatch is declared hung
 *   RDX_EMU_TRACE        if set (non-empty): print each ioctl served, with its result, and
 *                        each new error of the emulated device (a packet it refused, a fault)
 */
#include "preload/preload.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdx/status.h>

pl_real pl_libc;

static pthread_once_t real_once = PTHREAD_ONCE_INIT;
static uintptr_t self_lo, self_hi;

#define RESOLVE(field, name) (*(void **)&pl_libc.field = dlsym(RTLD_NEXT, name))

static int find_self(struct dl_phdr_info *info, size_t size, void *user)
{
    (void)size;
    uintptr_t probe = (uintptr_t)user;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t a = info->dlpi_addr + ph->p_vaddr;
        if (a < lo)
            lo = a;
        if (a + ph->p_memsz > hi)
            hi = a + ph->p_memsz;
    }
    if (probe >= lo && probe < hi) {
        self_lo = lo;
        self_hi = hi;
        return 1;
    }
    return 0;
}

static void real_init_once(void)
{
    RESOLVE(open, "open");
    RESOLVE(open64, "open64");
    RESOLVE(openat, "openat");
    RESOLVE(openat64, "openat64");
    RESOLVE(close, "close");
    RESOLVE(ioctl, "ioctl");
    RESOLVE(mmap, "mmap");
    RESOLVE(mmap64, "mmap64");
    RESOLVE(munmap, "munmap");
    RESOLVE(stat, "stat");
    RESOLVE(lstat, "lstat");
    RESOLVE(fstat, "fstat");
    RESOLVE(fstatat, "fstatat");
    RESOLVE(statx, "statx");
    RESOLVE(access, "access");
    RESOLVE(faccessat, "faccessat");
    RESOLVE(opendir, "opendir");
    RESOLVE(fopen, "fopen");
    RESOLVE(fopen64, "fopen64");
    RESOLVE(readlink, "readlink");
    RESOLVE(dup, "dup");
    RESOLVE(dup2, "dup2");
    RESOLVE(dup3, "dup3");
    RESOLVE(fcntl, "fcntl");
    dl_iterate_phdr(find_self, (void *)(uintptr_t)&real_init_once);
}

void pl_real_init(void)
{
    pthread_once(&real_once, real_init_once);
}

int pl_from_self(const void *ret)
{
    pl_real_init();
    uintptr_t a = (uintptr_t)ret;
    return a >= self_lo && a < self_hi;
}

/* --- the emulated driver --- */

static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
static rdx_emudev *emu_dev;
static const rdx_os *emu_os;
static int start_err; /* a failed start is not retried */
static pid_t tree_owner;
char pl_tree_root[PATH_MAX];
int pl_trace;

/* A forked child starts without a device: the parent's driver (its command processor thread,
 * its fds) does not cross fork.  If the child opens the device, it gets GPUs of its own. */
static void forked_child(void)
{
    pthread_mutex_init(&start_lock, NULL);
    emu_dev = NULL;
    __atomic_store_n(&emu_os, NULL, __ATOMIC_RELEASE);
    start_err = 0;
    pl_device_mark_inherited(); /* on /dev/kfd an ioctl is EBADF, as in Linux */
    pl_device_forget_all();
}

static void stop_at_exit(void)
{
    if (tree_owner == getpid() && pl_tree_root[0])
        pl_tree_remove(pl_tree_root);
    /* The emulated driver is left to process exit: other atexit handlers and threads of the
     * program may still be using their device fds. */
}

static int env_u32(const char *name, uint32_t lo, uint32_t hi, uint32_t dflt, uint32_t *out)
{
    const char *s = getenv(name);
    if (!s || !*s) {
        *out = dflt;
        return 0;
    }
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || *end || v < lo || v > hi) {
        fprintf(stderr, "rdx emu: %s='%s': expected a number from %u to %u\n", name, s, lo, hi);
        return -EINVAL;
    }
    *out = (uint32_t)v;
    return 0;
}

static int start_locked(void)
{
    uint32_t gpus;
    if (env_u32("RDX_EMU_GPUS", 1, 8, 1, &gpus))
        return -EINVAL;
    uint64_t budget = 0;
    const char *b = getenv("RDX_EMU_WAVE_BUDGET");
    if (b && *b) {
        char *end;
        errno = 0;
        budget = strtoull(b, &end, 10);
        if (errno || *end || !budget) {
            fprintf(stderr, "rdx emu: RDX_EMU_WAVE_BUDGET='%s': expected a positive number\n", b);
            return -EINVAL;
        }
    }
    const char *trace = getenv("RDX_EMU_TRACE");
    pl_trace = trace && *trace;
    rdx_emudev_config cfg = { .num_gpus = gpus, .wave_budget = budget };
    rdx_emudev *dev;
    if (rdx_emudev_create(&cfg, &dev)) {
        fprintf(stderr, "rdx emu: %s\n", rdx_error_message());
        return -ENODEV;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(pl_tree_root, sizeof pl_tree_root, "%s/rdx-emu.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(pl_tree_root)) {
        int e = errno;
        fprintf(stderr, "rdx emu: cannot make a folder for the emulated sysfs (%s): %s\n",
                pl_tree_root, strerror(e));
        pl_tree_root[0] = 0;
        rdx_emudev_destroy(dev);
        return -e;
    }
    tree_owner = getpid();
    static int registered;
    if (!registered) {
        registered = 1;
        atexit(stop_at_exit);
        pthread_atfork(NULL, NULL, forked_child);
    }
    int r = pl_tree_write(rdx_emudev_os(dev), pl_tree_root, gpus);
    if (r) {
        fprintf(stderr, "rdx emu: writing the emulated sysfs under %s: %s\n", pl_tree_root,
                strerror(-r));
        rdx_emudev_destroy(dev);
        return r;
    }
    emu_dev = dev;
    emu_os = rdx_emudev_os(dev);
    return 0;
}

int pl_start(void)
{
    pl_real_init();
    if (__atomic_load_n(&emu_os, __ATOMIC_ACQUIRE))
        return 0;
    pthread_mutex_lock(&start_lock);
    int r = start_err;
    if (!r && !emu_os) {
        r = start_locked();
        start_err = r;
    }
    pthread_mutex_unlock(&start_lock);
    return r;
}

void pl_trace_device_error(void)
{
    static char last[512];
    char now[512];
    rdx_emudev *dev = __atomic_load_n(&emu_dev, __ATOMIC_ACQUIRE);
    if (!dev)
        return;
    rdx_emudev_last_error(dev, now, sizeof now);
    if (now[0] && strcmp(now, last)) {
        fprintf(stderr, "rdx emu: device error: %s\n", now);
        snprintf(last, sizeof last, "%s", now);
    }
}

const rdx_os *pl_os(void)
{
    return __atomic_load_n(&emu_os, __ATOMIC_ACQUIRE);
}
