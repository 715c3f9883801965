/*
 * tests/data/preload/client.c — a program that knows nothing of rdx: it drives /dev/kfd and
 * the KFD sysfs topology with plain libc calls, as a driver would.  tests/preload runs it
 * under `rdx emu`.  Prints "client: ok" and exits 0 when every step did what the Linux
 * driver does; otherwise prints the first step that did not and exits 1.
 *
 * Usage: client NUM_GPUS
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/kfd_ioctl.h>
#include <libdrm/amdgpu_drm.h>

#define CHECK(cond, ...)                           \
    do {                                           \
        if (!(cond)) {                             \
            printf("client: line %d: ", __LINE__); \
            printf(__VA_ARGS__);                   \
            printf(" (errno %d)\n", errno);        \
            exit(1);                               \
        }                                          \
    } while (0)

#define TOPO "/sys/devices/virtual/kfd/kfd/topology"

static long prop(const char *path, const char *name)
{
    FILE *f = fopen(path, "r");
    CHECK(f, "fopen %s", path);
    char key[128];
    long long v;
    long found = -1;
    while (fscanf(f, "%127s %lld", key, &v) == 2)
        if (!strcmp(key, name))
            found = (long)v;
    fclose(f);
    return found;
}

int main(int argc, char **argv)
{
    int gpus = argc > 1 ? atoi(argv[1]) : 1;
    struct stat st;

    CHECK(access("/dev/kfd", R_OK | W_OK) == 0, "access /dev/kfd");
    CHECK(stat("/dev/kfd", &st) == 0 && S_ISCHR(st.st_mode), "stat /dev/kfd: a char device");
    CHECK(stat("/dev/dri/renderD128", &st) == 0 && S_ISCHR(st.st_mode) &&
              major(st.st_rdev) == 226 && minor(st.st_rdev) == 128,
          "stat renderD128: char device 226:128");
    char path[256];
    snprintf(path, sizeof path, "/dev/dri/renderD%d", 128 + gpus);
    CHECK(stat(path, &st) < 0 && errno == ENOENT, "%s must not exist", path);

    /* the topology, through opendir/readdir and stdio */
    DIR *d = opendir(TOPO "/nodes");
    CHECK(d, "opendir nodes");
    int nodes = 0;
    for (struct dirent *e; (e = readdir(d));)
        nodes += e->d_name[0] != '.';
    closedir(d);
    CHECK(nodes == gpus + 1, "%d nodes, expected %d", nodes, gpus + 1);
    CHECK(prop(TOPO "/nodes/1/properties", "gfx_target_version") == 110000,
          "gfx_target_version of node 1");
    CHECK(prop(TOPO "/nodes/1/properties", "simd_count") > 0, "simd_count of node 1");
    CHECK(prop(TOPO "/nodes/1/mem_banks/0/properties", "heap_type") >= 0, "mem_banks/0");
    CHECK(access("/sys/class/kfd/kfd/topology/nodes/1/gpu_id", R_OK) == 0, "/sys/class/kfd link");
    FILE *f = fopen(TOPO "/nodes/1/gpu_id", "r");
    unsigned gpu_id = 0;
    CHECK(f && fscanf(f, "%u", &gpu_id) == 1 && gpu_id, "gpu_id");
    fclose(f);
    CHECK(prop(TOPO "/nodes/1/properties", "drm_render_minor") == 128, "drm_render_minor");

    /* the device */
    int kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
    CHECK(kfd >= 0, "open /dev/kfd");
    CHECK(fstat(kfd, &st) == 0 && S_ISCHR(st.st_mode), "fstat kfd");
    struct kfd_ioctl_get_version_args ver = { 0 };
    CHECK(ioctl(kfd, AMDKFD_IOC_GET_VERSION, &ver) == 0 && ver.major_version == 1, "GET_VERSION");
    int drm = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
    CHECK(drm >= 0, "open renderD128");
    struct kfd_ioctl_acquire_vm_args vm = { .drm_fd = (uint32_t)drm, .gpu_id = gpu_id };
    CHECK(ioctl(kfd, AMDKFD_IOC_ACQUIRE_VM, &vm) == 0, "ACQUIRE_VM");
    vm.drm_fd = (uint32_t)kfd; /* kfd_ioctl_acquire_vm: the VM is another file's already */
    CHECK(ioctl(kfd, AMDKFD_IOC_ACQUIRE_VM, &vm) < 0 && errno == EBUSY,
          "ACQUIRE_VM with another fd once acquired: EBUSY");

    /* memory: reserve VA, allocate VRAM there, map it for the CPU and the GPU */
    size_t size = 1 << 21;
    void *va = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    CHECK(va != MAP_FAILED, "reserve VA");
    struct kfd_ioctl_alloc_memory_of_gpu_args al = {
        .va_addr = (uint64_t)(uintptr_t)va,
        .size = size,
        .gpu_id = gpu_id,
        .flags = KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC |
                 KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE,
    };
    CHECK(ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al) == 0, "ALLOC_MEMORY_OF_GPU");
    void *cpu =
        mmap(va, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, drm, (off_t)al.mmap_offset);
    CHECK(cpu == va, "mmap the VRAM buffer at its GPU address");
    memset(cpu, 0x5a, size);
    struct kfd_ioctl_map_memory_to_gpu_args map = {
        .handle = al.handle,
        .device_ids_array_ptr = (uint64_t)(uintptr_t)&gpu_id,
        .n_devices = 1,
    };
    CHECK(ioctl(kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &map) == 0 && map.n_success == 1,
          "MAP_MEMORY_TO_GPU");
    CHECK(((unsigned char *)cpu)[size - 1] == 0x5a, "the buffer keeps its bytes");
    struct kfd_ioctl_unmap_memory_from_gpu_args um = {
        .handle = al.handle,
        .device_ids_array_ptr = (uint64_t)(uintptr_t)&gpu_id,
        .n_devices = 1,
    };
    CHECK(ioctl(kfd, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &um) == 0, "UNMAP_MEMORY_FROM_GPU");
    /* memory the driver never saw: its munmap goes to libc, not through the driver */
    void *plain = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(plain != MAP_FAILED, "a plain anonymous mapping");
    CHECK(munmap(plain, 65536) == 0, "munmap of the plain mapping");
    printf("client: buffer %p, plain mapping %p\n", cpu, plain);
    CHECK(munmap(cpu, size) == 0, "munmap");
    struct kfd_ioctl_free_memory_of_gpu_args fr = { .handle = al.handle };
    CHECK(ioctl(kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr) == 0, "FREE_MEMORY_OF_GPU");
    CHECK(ioctl(kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr) < 0 && errno == EINVAL,
          "freeing twice: EINVAL");

    /* fork: the child does not share the parent's device (an ioctl on its inherited fd is
     * EBADF, as Linux's kfd_ioctl answers a process that did not open the fd) but may open
     * one of its own; the parent's goes on working */
    pid_t child = fork();
    CHECK(child >= 0, "fork");
    if (child == 0) {
        /* kfd_ioctl: the fd's process is not the caller ("Using KFD FD in wrong process") */
        struct kfd_ioctl_get_version_args cv = { 0 };
        if (ioctl(kfd, AMDKFD_IOC_GET_VERSION, &cv) == 0)
            _exit(2);
        if (errno != EBADF)
            _exit(4);
        /* an inherited render node stays usable (Linux shares the DRM file): here it is a
         * fresh open of the same node on the child's own device — its queries answer, the
         * parent's GEM handles are not in it (an unknown handle: EINVAL) */
        struct drm_amdgpu_info_device di;
        memset(&di, 0, sizeof di);
        struct drm_amdgpu_info rq = { .return_pointer = (uint64_t)(uintptr_t)&di,
                                      .return_size = sizeof di,
                                      .query = AMDGPU_INFO_DEV_INFO };
        if (ioctl(drm, DRM_IOCTL_AMDGPU_INFO, &rq) != 0 || !di.device_id)
            _exit(5);
        struct stat dst;
        if (fstat(drm, &dst) != 0 || major(dst.st_rdev) != 226 || minor(dst.st_rdev) != 128)
            _exit(6);
        struct drm_gem_close gc = { .handle = 1, .pad = 0 };
        if (ioctl(drm, DRM_IOCTL_GEM_CLOSE, &gc) == 0 || errno != EINVAL)
            _exit(7);
        int k = open("/dev/kfd", O_RDWR | O_CLOEXEC);
        if (k < 0 || ioctl(k, AMDKFD_IOC_GET_VERSION, &cv) != 0 || cv.major_version != 1)
            _exit(3);
        close(k);
        _exit(0);
    }
    int wst;
    CHECK(waitpid(child, &wst, 0) == child && WIFEXITED(wst) && WEXITSTATUS(wst) == 0,
          "the forked child: status %d", wst);
    memset(&ver, 0, sizeof ver);
    CHECK(ioctl(kfd, AMDKFD_IOC_GET_VERSION, &ver) == 0, "the parent's fd after a fork");

    /* vfork (Python's subprocess, posix_spawn): the child runs in the parent's memory with an
     * fd table of its own; closing its copies of the device fds (as a child does before exec)
     * leaves the parent's devices open */
    child = vfork();
    CHECK(child >= 0, "vfork");
    if (child == 0) {
        close(kfd);
        close(drm);
        _exit(0);
    }
    CHECK(waitpid(child, &wst, 0) == child && WIFEXITED(wst) && WEXITSTATUS(wst) == 0,
          "the vforked child: status %d", wst);
    memset(&ver, 0, sizeof ver);
    CHECK(ioctl(kfd, AMDKFD_IOC_GET_VERSION, &ver) == 0 && ver.major_version == 1,
          "the parent's kfd fd after a vfork child closed its copy");
    CHECK(fstat(drm, &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == 226 &&
              minor(st.st_rdev) == 128,
          "the parent's render node fd after a vfork child closed its copy");

    /* fds: a dup serves like the original; a closed fd is EBADF */
    int kfd2 = dup(kfd);
    CHECK(kfd2 >= 0, "dup");
    close(kfd);
    memset(&ver, 0, sizeof ver);
    CHECK(ioctl(kfd2, AMDKFD_IOC_GET_VERSION, &ver) == 0 && ver.major_version == 1,
          "GET_VERSION on a dup after the original closed");
    close(drm);
    close(kfd2);
    CHECK(ioctl(kfd2, AMDKFD_IOC_GET_VERSION, &ver) < 0 && errno == EBADF, "closed fd: EBADF");

    /* other paths pass through */
    CHECK(access("/etc/passwd", R_OK) == 0, "a path the device does not serve");
    printf("client: ok\n");
    return 0;
}
