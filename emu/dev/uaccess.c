/*
 * emu/dev/uaccess.c — copying from and to client memory the way the kernel
 * does (copy_from_user / copy_to_user): an unreadable or unwritable client
 * address gives EFAULT instead of crashing the process.  Uses
 * process_vm_readv/writev on our own pid; where those are unavailable
 * (seccomp, old kernels) it falls back to plain copies.
 */
#include "emu/dev/emudev.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

int emu_copy_from_user(void *dst, uint64_t src, size_t n)
{
    if (!n)
        return 0;
    if (!src)
        return -EFAULT;
    struct iovec local = { dst, n }, remote = { (void *)(uintptr_t)src, n };
    ssize_t r = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
    if (r == (ssize_t)n)
        return 0;
    if (r < 0 && (errno == ENOSYS || errno == EPERM)) {
        memcpy(dst, (const void *)(uintptr_t)src, n);
        return 0;
    }
    return -EFAULT;
}

int emu_copy_to_user(uint64_t dst, const void *src, size_t n)
{
    if (!n)
        return 0;
    if (!dst)
        return -EFAULT;
    struct iovec local = { (void *)src, n }, remote = { (void *)(uintptr_t)dst, n };
    ssize_t r = process_vm_writev(getpid(), &local, 1, &remote, 1, 0);
    if (r == (ssize_t)n)
        return 0;
    if (r < 0 && (errno == ENOSYS || errno == EPERM)) {
        memcpy((void *)(uintptr_t)dst, src, n);
        return 0;
    }
    return -EFAULT;
}
