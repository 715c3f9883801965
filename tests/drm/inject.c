/*
 * tests/drm/inject.c — failing DRM ioctls on demand in the backend children.
 *
 * libdrm_amdgpu makes its ioctls on the fd itself, so the in-process injection of the emulated
 * driver (rdx_emudev_inject) cannot reach the device that `rdx emu` serves.  This program
 * defines ioctl(): libdrm's calls and rdx's libc OS table bind to it before the interposer's
 * (the executable comes first in symbol lookup), it fails the chosen call and passes every
 * other to the next definition (the interposer's).  Armed by drm_inject_from_env
 * (RDX_DRM_INJECT="nr:nth:errno": the nth DRM request of number nr, in hex).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "tests/drm/drm_test.h"

static unsigned inject_nr, inject_left;
static int inject_err;

void drm_inject_from_env(void)
{
    const char *s = getenv("RDX_DRM_INJECT");
    unsigned nr, nth;
    int err;
    if (s && sscanf(s, "%x:%u:%d", &nr, &nth, &err) == 3 && nth > 0) {
        inject_nr = nr;
        inject_left = nth;
        inject_err = err;
    }
}

int ioctl(int fd, unsigned long request, ...)
{
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    static int (*next)(int, unsigned long, ...);
    if (!next) {
        /* the interposer's own ioctl (it also serves dlsym, so RTLD_NEXT is not asked) */
        const char *pre = getenv("LD_PRELOAD");
        void *lib = NULL;
        if (pre && strstr(pre, "librdx-emu.so")) {
            char path[4096];
            const char *end = strstr(pre, "librdx-emu.so") + strlen("librdx-emu.so");
            const char *start = end;
            while (start > pre && start[-1] != ':' && start[-1] != ' ')
                start--;
            snprintf(path, sizeof path, "%.*s", (int)(end - start), start);
            lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
        }
        next = (int (*)(int, unsigned long, ...))dlsym(lib ? lib : RTLD_NEXT, "ioctl");
    }
    if (inject_left && _IOC_TYPE(request) == 'd' && _IOC_NR(request) == inject_nr &&
        --inject_left == 0) {
        errno = inject_err;
        return -1;
    }
    return next(fd, request, arg);
}
