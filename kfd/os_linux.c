/* kfd/os_linux.c — the default OS interface table: libc and the real filesystem. */
#include <rdx/os.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static int linux_open(void *ctx, const char *path, int flags)
{
    (void)ctx;
    int fd = open(path, flags | O_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

static int linux_close(void *ctx, int fd)
{
    (void)ctx;
    return close(fd) < 0 ? -errno : 0;
}

static int linux_ioctl(void *ctx, int fd, unsigned long request, void *arg)
{
    (void)ctx;
    int r = ioctl(fd, request, arg);
    return r < 0 ? -errno : r;
}

static int linux_mmap(void *ctx, void *addr, size_t len, int prot, int flags, int fd,
                      uint64_t offset, void **out)
{
    (void)ctx;
    void *p = mmap(addr, len, prot, flags, fd, (off_t)offset);
    if (p == MAP_FAILED)
        return -errno;
    *out = p;
    return 0;
}

static int linux_munmap(void *ctx, void *addr, size_t len)
{
    (void)ctx;
    return munmap(addr, len) < 0 ? -errno : 0;
}

static int linux_read_file(void *ctx, const char *path, char *buf, size_t cap, size_t *len)
{
    (void)ctx;
    if (cap == 0)
        return -EFBIG;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    size_t n = 0;
    for (;;) {
        if (n == cap - 1) {
            char extra;
            ssize_t r = read(fd, &extra, 1);
            close(fd);
            return r == 0 ? (buf[n] = 0, *len = n, 0) : -EFBIG;
        }
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            close(fd);
            return -e;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    buf[n] = 0;
    *len = n;
    return 0;
}

static int linux_list_dir(void *ctx, const char *path, rdx_os_dir_fn fn, void *user)
{
    (void)ctx;
    DIR *d = opendir(path);
    if (!d)
        return -errno;
    int ret = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        ret = fn(user, e->d_name);
        if (ret)
            break;
    }
    closedir(d);
    return ret;
}

static const rdx_os linux_os = {
    .name = "linux",
    .ctx = NULL,
    .open = linux_open,
    .close = linux_close,
    .ioctl = linux_ioctl,
    .mmap = linux_mmap,
    .munmap = linux_munmap,
    .read_file = linux_read_file,
    .list_dir = linux_list_dir,
};

const rdx_os *rdx_os_linux(void)
{
    return &linux_os;
}
