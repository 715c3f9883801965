/* kfd/ioctl.c — kernel calls through the OS table: the single EINTR/EAGAIN retry point. */
#include "kfd/internal.h"

#include <errno.h>

#define RDX_KFD_MAX_RETRIES 10000

rdx_status rdx_kfd_ioctl(const rdx_os *os, int fd, unsigned long request, void *arg,
                         const char *name)
{
    /* As libhsakmt: an interrupted or busy call is simply made again (bounded,
     * so a driver that always answers EAGAIN cannot hang us). */
    int r, tries = 0;
    do {
        r = os->ioctl(os->ctx, fd, request, arg);
    } while ((r == -EINTR || r == -EAGAIN) && ++tries < RDX_KFD_MAX_RETRIES);
    if (r >= 0)
        return RDX_OK;
    return rdx_fail_errno(r == -ENOMEM ? RDX_ERR_NOMEM : RDX_ERR_DEVICE, -r, "%s (%s) failed", name,
                          os->name);
}

rdx_status rdx_kfd_os_mmap(const rdx_os *os, void *addr, size_t len, int prot, int flags, int fd,
                           uint64_t off, void **out, const char *what)
{
    /* EINTR only: mmap's EAGAIN means "locked-memory limit", which does not pass. */
    int r, tries = 0;
    do {
        r = os->mmap(os->ctx, addr, len, prot, flags, fd, off, out);
    } while (r == -EINTR && ++tries < RDX_KFD_MAX_RETRIES);
    if (r == 0)
        return RDX_OK;
    return rdx_fail_errno(r == -ENOMEM ? RDX_ERR_NOMEM : RDX_ERR_DEVICE, -r,
                          "mmap of %s (%zu bytes, %s) failed", what, len, os->name);
}

void rdx_kfd_os_munmap(const rdx_os *os, void *addr, size_t len)
{
    /* munmap of a range we mapped cannot fail in a way we could act on. */
    (void)os->munmap(os->ctx, addr, len);
}
