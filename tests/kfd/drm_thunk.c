/*
 * tests/kfd/drm_thunk.c — what libdrm_amdgpu and libhsakmt ask of the driver before any
 * GPU work, as the Linux drivers answer it: DRM_IOCTL_VERSION, the AMDGPU_INFO queries of
 * amdgpu_device_initialize, AMDKFD_IOC_SET_MEMORY_POLICY, and the topology's per-bank and
 * per-cache folders.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include <linux/kfd_ioctl.h>

#include <libdrm/amdgpu_drm.h>
#include "kfd/compat/kfd_ioctl_flags.h"

#include "tests/kfd/kfd_test.h"

typedef struct dev2 {
    rdx_emudev *dev;
    const rdx_os *os;
    int kfd, drm;
} dev2;

static void dev_open(dev2 *d)
{
    ck_assert_int_eq(rdx_emudev_create(NULL, &d->dev), RDX_OK);
    d->os = rdx_emudev_os(d->dev);
    d->kfd = d->os->open(d->os->ctx, "/dev/kfd", O_RDWR);
    d->drm = d->os->open(d->os->ctx, "/dev/dri/renderD128", O_RDWR);
    ck_assert_int_ge(d->kfd, 0);
    ck_assert_int_ge(d->drm, 0);
}

static void dev_close(dev2 *d)
{
    ck_assert_int_eq(d->os->close(d->os->ctx, d->drm), 0);
    ck_assert_int_eq(d->os->close(d->os->ctx, d->kfd), 0);
    rdx_emudev_destroy(d->dev);
}

START_TEST(drm_version_as_drm_copy_field)
{
    dev2 d;
    dev_open(&d);
    /* first call: lengths only (libdrm's drmGetVersion asks with empty buffers) */
    struct drm_version v;
    memset(&v, 0, sizeof v);
    ck_assert_int_eq(d.os->ioctl(d.os->ctx, d.drm, DRM_IOCTL_VERSION, &v), 0);
    ck_assert_int_eq(v.version_major, 3);
    ck_assert_uint_eq(v.name_len, 6);
    ck_assert_uint_eq(v.date_len, 8);
    ck_assert_uint_eq(v.desc_len, 7);
    /* second call: a short name buffer gets what fits; the full length comes back */
    char name[4] = { 'x', 'x', 'x', 'x' }, date[16] = { 0 }, desc[16] = { 0 };
    v.name = name, v.name_len = 3;
    v.date = date, v.date_len = sizeof date;
    v.desc = desc, v.desc_len = sizeof desc;
    ck_assert_int_eq(d.os->ioctl(d.os->ctx, d.drm, DRM_IOCTL_VERSION, &v), 0);
    ck_assert_mem_eq(name, "amdx", 4);
    ck_assert_uint_eq(v.name_len, 6);
    ck_assert_str_eq(date, "20150101");
    ck_assert_str_eq(desc, "AMD GPU");
    /* an unwritable buffer: EFAULT */
    v.name = (char *)8, v.name_len = 6;
    ck_assert_int_eq(d.os->ioctl(d.os->ctx, d.drm, DRM_IOCTL_VERSION, &v), -EFAULT);
    dev_close(&d);
}
END_TEST

static int info(dev2 *d, uint32_t query, void *out, uint32_t size, uint32_t reg)
{
    struct drm_amdgpu_info q;
    memset(&q, 0, sizeof q);
    q.return_pointer = (uint64_t)(uintptr_t)out;
    q.return_size = size;
    q.query = query;
    q.read_mmr_reg.dword_offset = reg;
    q.read_mmr_reg.count = 1;
    q.read_mmr_reg.instance = 0xffffffff;
    return d->os->ioctl(d->os->ctx, d->drm, DRM_IOCTL_AMDGPU_INFO, &q);
}

START_TEST(amdgpu_info_queries_of_device_init)
{
    dev2 d;
    dev_open(&d);
    uint32_t w = 0;
    ck_assert_int_eq(info(&d, AMDGPU_INFO_ACCEL_WORKING, &w, 4, 0), 0);
    ck_assert_uint_eq(w, 1);
    struct drm_amdgpu_info_vram_gtt vg;
    ck_assert_int_eq(info(&d, AMDGPU_INFO_VRAM_GTT, &vg, sizeof vg, 0), 0);
    ck_assert_uint_gt(vg.vram_size, 0);
    ck_assert_uint_eq(vg.vram_cpu_accessible_size, vg.vram_size);
    w = 0;
    ck_assert_int_eq(info(&d, AMDGPU_INFO_READ_MMR_REG, &w, 4, 0x263e), 0); /* GB_ADDR_CONFIG */
    ck_assert_uint_ne(w, 0);
    /* a register off amdgpu's allow list: EINVAL */
    ck_assert_int_eq(info(&d, AMDGPU_INFO_READ_MMR_REG, &w, 4, 0x1234), -EINVAL);
    dev_close(&d);
}
END_TEST

START_TEST(set_memory_policy_rules)
{
    dev2 d;
    dev_open(&d);
    rdx_kfd_topology *t;
    ck_assert_int_eq(rdx_kfd_topology_read(d.os, &t), RDX_OK);
    struct kfd_ioctl_set_memory_policy_args a = { .gpu_id = t->gpus[0].gpu_id,
                                                  .default_policy = KFD_IOC_CACHE_POLICY_COHERENT,
                                                  .alternate_policy =
                                                      KFD_IOC_CACHE_POLICY_NONCOHERENT };
    rdx_kfd_topology_free(t);
    /* before ACQUIRE_VM kfd_bind_process_to_device fails: ESRCH */
    ck_assert_int_eq(d.os->ioctl(d.os->ctx, d.kfd, AMDKFD_IOC_SET_MEMORY_POLICY, &a), -ESRCH);
    struct kfd_ioctl_acquire_vm_args vm = { .drm_fd = (uint32_t)d.drm, .gpu_id = a.gpu_id };
    ck_assert_int_eq(d.os->ioctl(d.os->ctx, d.kfd, AMDKFD_IOC_ACQUIRE_VM, &vm), 0);
    ck_assert_int_eq(d.os->ioctl(d.os->ctx, d.kfd, AMDKFD_IOC_SET_MEMORY_POLICY, &a), 0);
    a.default_policy = 2;
    ck_assert_int_eq(d.os->ioctl(d.os->ctx, d.kfd, AMDKFD_IOC_SET_MEMORY_POLICY, &a), -EINVAL);
    a.default_policy = 0;
    a.gpu_id ^= 1;
    ck_assert_int_eq(d.os->ioctl(d.os->ctx, d.kfd, AMDKFD_IOC_SET_MEMORY_POLICY, &a), -EINVAL);
    dev_close(&d);
}
END_TEST

static int count(void *user, const char *name)
{
    (void)name;
    ++*(int *)user;
    return 0;
}

START_TEST(bank_and_cache_folders_list_their_file)
{
    dev2 d;
    dev_open(&d);
    const char *topo = "/sys/devices/virtual/kfd/kfd/topology/nodes/1";
    char path[128];
    int n = 0;
    snprintf(path, sizeof path, "%s/mem_banks/0", topo);
    ck_assert_int_eq(d.os->list_dir(d.os->ctx, path, count, &n), 0);
    ck_assert_int_eq(n, 1);
    n = 0;
    snprintf(path, sizeof path, "%s/caches/0", topo);
    ck_assert_int_eq(d.os->list_dir(d.os->ctx, path, count, &n), 0);
    ck_assert_int_eq(n, 1);
    snprintf(path, sizeof path, "%s/caches/99", topo);
    ck_assert_int_eq(d.os->list_dir(d.os->ctx, path, count, &n), -ENOENT);
    snprintf(path, sizeof path, "%s/mem_banks/1", topo);
    ck_assert_int_eq(d.os->list_dir(d.os->ctx, path, count, &n), -ENOENT);
    dev_close(&d);
}
END_TEST

static int collect(void *user, const char *name)
{
    char *out = user;
    strcat(out, name);
    strcat(out, " ");
    return 0;
}

START_TEST(ip_discovery_table)
{
    /* what tinygrad's driver reads to choose register layouts (Navi 31: GC 11.0.0,
     * SDMA 6.0.0, NBIF 4.3.0; hardware ids from amdgpu's soc15_hw_ip.h) */
    dev2 d;
    dev_open(&d);
    const char *base = "/sys/class/drm/renderD128/device/ip_discovery";
    char path[160], names[128] = "", buf[32];
    size_t len;
    ck_assert_int_eq(d.os->list_dir(d.os->ctx, base, collect, names), 0);
    ck_assert_str_eq(names, "die ");
    snprintf(path, sizeof path, "%s/die/0", base);
    names[0] = 0;
    ck_assert_int_eq(d.os->list_dir(d.os->ctx, path, collect, names), 0);
    ck_assert_str_eq(names, "11 GC 42 SDMA0 43 SDMA1 108 NBIF "); /* numbers and named links */
    static const struct {
        unsigned hw;
        const char *file, *want;
    } reads[] = { { 11, "major", "11\n" }, { 11, "minor", "0\n" },  { 42, "major", "6\n" },
                  { 108, "major", "4\n" }, { 108, "minor", "3\n" }, { 11, "hw_id", "11\n" } };
    for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++) {
        snprintf(path, sizeof path, "%s/die/0/%u/0/%s", base, reads[i].hw, reads[i].file);
        ck_assert_int_eq(d.os->read_file(d.os->ctx, path, buf, sizeof buf, &len), 0);
        ck_assert_str_eq(buf, reads[i].want);
    }
    snprintf(path, sizeof path, "%s/die/0/GC/0/minor", base); /* by name, as amdgpu links it */
    ck_assert_int_eq(d.os->read_file(d.os->ctx, path, buf, sizeof buf, &len), 0);
    ck_assert_str_eq(buf, "0\n");
    snprintf(path, sizeof path, "%s/die/0/12/0/major", base); /* no such IP */
    ck_assert_int_eq(d.os->read_file(d.os->ctx, path, buf, sizeof buf, &len), -ENOENT);
    ck_assert_int_eq(d.os->list_dir(d.os->ctx,
                                    "/sys/class/drm/renderD129/device/ip_discovery/die/0", collect,
                                    names),
                     -ENOENT); /* one GPU only */
    dev_close(&d);
}
END_TEST

START_TEST(sub_page_and_private_vram_buffers_map_as_on_linux)
{
    /* what tinygrad's driver does: a 0x100-byte reservation and buffer (the kernel works in
     * whole pages), and a CPU mapping of VRAM allocated without PUBLIC (KFD does not create
     * it NO_CPU_ACCESS) */
    dev2 d;
    dev_open(&d);
    rdx_kfd_topology *t;
    ck_assert_int_eq(rdx_kfd_topology_read(d.os, &t), RDX_OK);
    uint32_t gpu_id = t->gpus[0].gpu_id;
    rdx_kfd_topology_free(t);
    struct kfd_ioctl_acquire_vm_args vm = { .drm_fd = (uint32_t)d.drm, .gpu_id = gpu_id };
    ck_assert_int_eq(d.os->ioctl(d.os->ctx, d.kfd, AMDKFD_IOC_ACQUIRE_VM, &vm), 0);
    static const struct {
        uint64_t size;
        uint32_t flags;
    } bufs[] = {
        { 0x100, KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_UNCACHED |
                     KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE },
        { 0x3000, KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE },
    };
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) {
        void *va;
        ck_assert_int_eq(d.os->mmap(d.os->ctx, NULL, bufs[i].size, PROT_NONE,
                                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0, &va),
                         0);
        struct kfd_ioctl_alloc_memory_of_gpu_args a = { .va_addr = (uint64_t)(uintptr_t)va,
                                                        .size = bufs[i].size,
                                                        .gpu_id = gpu_id,
                                                        .flags = bufs[i].flags };
        ck_assert_int_eq(d.os->ioctl(d.os->ctx, d.kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
        void *cpu;
        ck_assert_int_eq(d.os->mmap(d.os->ctx, va, bufs[i].size, PROT_READ | PROT_WRITE,
                                    MAP_SHARED | MAP_FIXED, d.drm, a.mmap_offset, &cpu),
                         0);
        ck_assert_ptr_eq(cpu, va);
        memset(cpu, 0x5a, bufs[i].size);
        struct kfd_ioctl_map_memory_to_gpu_args m = {
            .handle = a.handle,
            .device_ids_array_ptr = (uint64_t)(uintptr_t)&gpu_id,
            .n_devices = 1,
        };
        ck_assert_int_eq(d.os->ioctl(d.os->ctx, d.kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m), 0);
        ck_assert_uint_eq(((unsigned char *)cpu)[bufs[i].size - 1], 0x5a);
        m.n_success = 0;
        ck_assert_int_eq(d.os->ioctl(d.os->ctx, d.kfd, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &m), 0);
        ck_assert_int_eq(d.os->munmap(d.os->ctx, cpu, bufs[i].size), 0);
        struct kfd_ioctl_free_memory_of_gpu_args f = { .handle = a.handle };
        ck_assert_int_eq(d.os->ioctl(d.os->ctx, d.kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), 0);
    }
    dev_close(&d);
}
END_TEST

TCase *kfd_tcase_drm_thunk(void)
{
    TCase *tc = tcase_create("drm_thunk");
    tcase_add_test(tc, drm_version_as_drm_copy_field);
    tcase_add_test(tc, amdgpu_info_queries_of_device_init);
    tcase_add_test(tc, set_memory_policy_rules);
    tcase_add_test(tc, bank_and_cache_folders_list_their_file);
    tcase_add_test(tc, ip_discovery_table);
    tcase_add_test(tc, sub_page_and_private_vram_buffers_map_as_on_linux);
    return tc;
}
