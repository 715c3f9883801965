/*
 * rdx/os.h — the OS interface: the only way the device layer (kfd/) reaches
 * the operating system.
 *
 * A table of functions — open, close, ioctl, mmap, munmap, reading a (sysfs)
 * file and listing a directory — with an opaque context.  rdx_os_linux() is
 * libc over the real filesystem and kernel; the emulated GPU
 * (rdx/emudev.h) provides another table serving the same kernel ABI
 * (<linux/kfd_ioctl.h>, the amdgpu DRM header, the KFD sysfs topology).
 *
 * Conventions shared by every entry: errors are returned as a negative errno
 * value (like the kernel's own return convention), never through the global
 * errno, so a table can be called from any thread.  Arguments have the
 * meaning of the libc call of the same name.
 */
#ifndef RDX_OS_H
#define RDX_OS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Called once per directory entry (never "." or ".."); return 0 to go on,
 * anything else to stop the listing (list_dir then returns that value). */
typedef int (*rdx_os_dir_fn)(void *user, const char *name);

/* What a memory note (rdx_os.mem_note) says about [addr, addr+size). */
typedef enum rdx_os_mem_op {
    /* The GPU-mapped block starting at addr is a pool: its bytes are not
     * allocated until RDX_OS_MEM_ALLOC marks them. */
    RDX_OS_MEM_POOL = 1,
    /* [addr, addr+size) of a pool is allocated; `label` names it ("buffer"). */
    RDX_OS_MEM_ALLOC = 2,
    /* The allocation starting at addr is free again (size and label unused). */
    RDX_OS_MEM_FREE = 3,
} rdx_os_mem_op;

typedef struct rdx_os {
    /* Short name for messages: "linux", "emu". */
    const char *name;
    /* Passed as the first argument of every entry. */
    void *ctx;
    /* open(2): returns a file descriptor >= 0, or -errno. */
    int (*open)(void *ctx, const char *path, int flags);
    /* close(2): 0 or -errno. */
    int (*close)(void *ctx, int fd);
    /* ioctl(2) with a pointer argument: 0 (or the call's non-negative
     * result) or -errno.  EINTR/EAGAIN are returned as is; the caller
     * decides whether to retry. */
    int (*ioctl)(void *ctx, int fd, unsigned long request, void *arg);
    /* mmap(2): on success stores the mapping's address in *out and returns
     * 0; on failure returns -errno and leaves *out untouched.  fd is -1
     * for anonymous mappings. */
    int (*mmap)(void *ctx, void *addr, size_t len, int prot, int flags, int fd, uint64_t offset,
                void **out);
    /* munmap(2): 0 or -errno. */
    int (*munmap)(void *ctx, void *addr, size_t len);
    /* Read the whole (small) file `path` into buf (at most cap-1 bytes, then
     * a NUL); *len gets the byte count.  Returns 0, -errno, or -EFBIG when
     * the file does not fit. */
    int (*read_file)(void *ctx, const char *path, char *buf, size_t cap, size_t *len);
    /* Call fn for each entry of directory `path` (order unspecified).
     * Returns 0, -errno, or the first non-zero value fn returned. */
    int (*list_dir)(void *ctx, const char *path, rdx_os_dir_fn fn, void *user);
    /* Optional (NULL: nobody listens, as in rdx_os_linux): a note to a tool
     * that checks the GPU's memory accesses about which bytes of GPU memory
     * the process has handed out, like a memory checker's client requests
     * (Valgrind's mempool requests, ASan's poisoning).  The kernel ABI is
     * unchanged: a note is never a kernel call.  The emulated GPU
     * (rdx/emudev.h) faults on a kernel's access to pool bytes not allocated
     * and names the nearest allocation with its label in the report.  Returns
     * 0 or -errno (-EINVAL: no such pool or allocation, an overlap). */
    int (*mem_note)(void *ctx, rdx_os_mem_op op, uint64_t addr, uint64_t size, const char *label);
} rdx_os;

/* The default table: libc and the real filesystem.  Static; never NULL. */
const rdx_os *rdx_os_linux(void);

#ifdef __cplusplus
}
#endif

#endif /* RDX_OS_H */
