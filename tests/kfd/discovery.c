/* tests/kfd/discovery.c — sysfs topology, render-node device info, version and apertures. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/kfd/kfd_test.h"

START_TEST(target_names)
{
    char b[16];
    ck_assert_str_eq(rdx_kfd_target_name(110000, b, sizeof b), "gfx1100");
    ck_assert_str_eq(rdx_kfd_target_name(90010, b, sizeof b), "gfx90a");
    ck_assert_str_eq(rdx_kfd_target_name(100302, b, sizeof b), "gfx1032");
    ck_assert_str_eq(rdx_kfd_target_name(110501, b, sizeof b), "gfx1151");
    ck_assert_str_eq(rdx_kfd_target_name(120001, b, sizeof b), "gfx1201");
}
END_TEST

/* Navi 31 by hand: 96 CUs, 3072 waves; control stack 40 + 3072*12 + 8 bytes
 * rounded to pages = 40960; wave state 96 * (0x60000+0x4000+0x10000+0x1000). */
#define WANT_CTL  40960u
#define WANT_CWSR (40960u + 96u * 0x75000u)
#define WANT_DBG  (3072u * 32u)

static void check_gfx1100(const rdx_kfd_gpu_info *g)
{
    ck_assert_str_eq(g->target, "gfx1100");
    ck_assert_uint_eq(g->gfx_target_version, 110000);
    ck_assert_uint_eq(g->simd_count, 192);
    ck_assert_uint_eq(g->cu_count, 96);
    ck_assert_uint_eq(g->wave_front_size, 32);
    ck_assert_uint_eq(g->lds_size_kb, 64);
    ck_assert_uint_eq(g->vendor_id, 0x1002);
    ck_assert_uint_eq(g->device_id, 0x744c);
    ck_assert_uint_eq(g->num_mem_banks, 1);
    ck_assert_uint_eq(g->mem_banks[0].heap_type, 1);
    ck_assert_uint_eq(g->mem_banks[0].size_bytes, 24ull << 30);
    ck_assert_uint_eq(g->vram_size, 24ull << 30);
    ck_assert_uint_eq(g->num_caches, 5);
    ck_assert_uint_eq(g->caches[3].level, 2);
    ck_assert_uint_eq(g->caches[3].size_kb, 6144);
    ck_assert_uint_eq(g->ctl_stack_size, WANT_CTL);
    ck_assert_uint_eq(g->cwsr_size, WANT_CWSR);
    ck_assert_uint_eq(g->debug_memory_size, WANT_DBG);
    ck_assert_uint_eq(g->eop_buffer_size, 4096);
    ck_assert_str_eq(g->name, "gfx1100");
}

START_TEST(topology_one_gpu)
{
    rdx_emudev *dev;
    ck_assert_int_eq(rdx_emudev_create(NULL, &dev), RDX_OK);
    rdx_kfd_topology *t;
    ck_assert_int_eq(rdx_kfd_topology_read(rdx_emudev_os(dev), &t), RDX_OK);
    ck_assert_uint_eq(t->cpu_node_count, 1);
    ck_assert_uint_eq(t->gpu_count, 1);
    check_gfx1100(&t->gpus[0]);
    ck_assert_uint_eq(t->gpus[0].node_id, 1);
    ck_assert_uint_eq(t->gpus[0].drm_render_minor, 128);
    ck_assert_uint_ne(t->gpus[0].gpu_id, 0);
    /* DRM fields are only filled by rdx_kfd_open. */
    ck_assert_uint_eq(t->gpus[0].drm_family, 0);
    rdx_kfd_topology_free(t);
    rdx_emudev_destroy(dev);
}
END_TEST

START_TEST(topology_legacy_kernel_derives_sizes)
{
    rdx_emudev_config cfg = { .num_gpus = 1, .vram_size = 0, .legacy_sysfs = 1 };
    rdx_emudev *dev;
    ck_assert_int_eq(rdx_emudev_create(&cfg, &dev), RDX_OK);
    rdx_kfd_topology *t;
    ck_assert_int_eq(rdx_kfd_topology_read(rdx_emudev_os(dev), &t), RDX_OK);
    check_gfx1100(&t->gpus[0]);
    rdx_kfd_topology_free(t);
    rdx_emudev_destroy(dev);
}
END_TEST

START_TEST(topology_four_gpus)
{
    rdx_emudev_config cfg = { .num_gpus = 4, .vram_size = 1ull << 30, .legacy_sysfs = 0 };
    rdx_emudev *dev;
    ck_assert_int_eq(rdx_emudev_create(&cfg, &dev), RDX_OK);
    rdx_kfd_topology *t;
    ck_assert_int_eq(rdx_kfd_topology_read(rdx_emudev_os(dev), &t), RDX_OK);
    ck_assert_uint_eq(t->gpu_count, 4);
    for (uint32_t i = 0; i < 4; i++) {
        ck_assert_uint_eq(t->gpus[i].node_id, i + 1);
        ck_assert_uint_eq(t->gpus[i].drm_render_minor, 128 + i);
        ck_assert_uint_eq(t->gpus[i].vram_size, 1ull << 30);
        for (uint32_t j = 0; j < i; j++)
            ck_assert_uint_ne(t->gpus[i].gpu_id, t->gpus[j].gpu_id);
    }
    rdx_kfd_topology_free(t);
    rdx_emudev_destroy(dev);
}
END_TEST

static int count_entry(void *user, const char *name);

START_TEST(io_links_join_cpu_and_gpus)
{
    /* the CPU node has an io link to each GPU and each GPU one back, as io_links_count says
     * (libhsakmt reads them; it failed on the empty folders) */
    rdx_emudev_config cfg = { .num_gpus = 3 };
    rdx_emudev *dev;
    ck_assert_int_eq(rdx_emudev_create(&cfg, &dev), RDX_OK);
    const rdx_os *os = rdx_emudev_os(dev);
    char buf[2048], path[160];
    size_t len;
    for (unsigned node = 0; node <= 3; node++) {
        int n = 0;
        snprintf(path, sizeof path, "/sys/devices/virtual/kfd/kfd/topology/nodes/%u/io_links",
                 node);
        ck_assert_int_eq(os->list_dir(os->ctx, path, count_entry, &n), 0);
        ck_assert_int_eq(n, node ? 1 : 3);
        for (int i = 0; i < n; i++) {
            snprintf(path, sizeof path,
                     "/sys/devices/virtual/kfd/kfd/topology/nodes/%u/io_links/%d/properties", node,
                     i);
            ck_assert_int_eq(os->read_file(os->ctx, path, buf, sizeof buf, &len), 0);
            char want[64];
            snprintf(want, sizeof want, "node_from %u\nnode_to %u\n", node,
                     node ? 0u : (unsigned)i + 1);
            ck_assert_msg(strstr(buf, want), "%s:\n%s", path, buf);
            ck_assert_ptr_nonnull(strstr(buf, "type 2\n"));
        }
        snprintf(path, sizeof path,
                 "/sys/devices/virtual/kfd/kfd/topology/nodes/%u/io_links/%d/properties", node, n);
        ck_assert_int_eq(os->read_file(os->ctx, path, buf, sizeof buf, &len), -ENOENT);
    }
    rdx_emudev_destroy(dev);
}
END_TEST

START_TEST(open_reads_drm_and_apertures)
{
    kfd_fixture f;
    fixture_open(&f, 2);
    uint32_t major, minor;
    rdx_kfd_version(f.kfd, &major, &minor);
    ck_assert_uint_eq(major, 1);
    ck_assert_uint_ge(minor, 1);
    ck_assert_uint_eq(rdx_kfd_gpu_count(f.kfd), 2);
    for (uint32_t i = 0; i < 2; i++) {
        const rdx_kfd_gpu_info *g = rdx_kfd_gpu(f.kfd, i);
        check_gfx1100(g);
        ck_assert_uint_eq(g->drm_family, 145); /* AMDGPU_FAMILY_GC_11_0_0 */
        ck_assert_uint_eq(g->drm_device_id, 0x744c);
        ck_assert_uint_eq(g->drm_cu_active, 96);
        ck_assert_uint_eq(g->drm_num_shader_engines, 6);
        ck_assert_uint_eq(g->gpu_counter_freq_khz, 100000);
        ck_assert_uint_lt(g->gpuvm_base, 0x1000000);
        ck_assert_uint_eq(g->gpuvm_limit, 0x7fffffffffffull);
        ck_assert_uint_eq(g->lds_base, 1ull << 48);
        ck_assert_uint_eq(g->scratch_base, 2ull << 48);
    }
    ck_assert_ptr_null(rdx_kfd_gpu(f.kfd, 2));
    /* Clocks: the GPU counter runs at 100 MHz against CLOCK_MONOTONIC_RAW. */
    rdx_kfd_clocks c0, c1;
    ck_assert_int_eq(rdx_kfd_clock_counters(f.kfd, 1, &c0), RDX_OK);
    struct timespec ts = { 0, 20 * 1000 * 1000 };
    nanosleep(&ts, NULL);
    ck_assert_int_eq(rdx_kfd_clock_counters(f.kfd, 1, &c1), RDX_OK);
    double gpu_ns = (double)(c1.gpu_counter - c0.gpu_counter) * 10.0;
    double cpu_ns = (double)(c1.cpu_raw_ns - c0.cpu_raw_ns);
    ck_assert_double_ge(cpu_ns, 20e6);
    ck_assert_double_lt(gpu_ns / cpu_ns, 1.05);
    ck_assert_double_gt(gpu_ns / cpu_ns, 0.95);
    ck_assert_uint_gt(c1.boottime_ns, c0.boottime_ns);
    ck_assert_int_eq(rdx_kfd_clock_counters(f.kfd, 2, &c0), RDX_ERR_INVALID);
    fixture_close(&f);
}
END_TEST

static int count_entry(void *user, const char *name)
{
    (void)name;
    (*(int *)user)++;
    return 0;
}

START_TEST(virtual_sysfs_files)
{
    rdx_emudev *dev;
    ck_assert_int_eq(rdx_emudev_create(NULL, &dev), RDX_OK);
    const rdx_os *os = rdx_emudev_os(dev);
    char buf[4096];
    size_t len;
    ck_assert_int_eq(os->read_file(os->ctx, "/sys/devices/virtual/kfd/kfd/topology/nodes/0/gpu_id",
                                   buf, sizeof buf, &len),
                     0);
    ck_assert_str_eq(buf, "0\n");
    ck_assert_int_eq(os->read_file(os->ctx,
                                   "/sys/devices/virtual/kfd/kfd/topology/nodes/1/properties", buf,
                                   sizeof buf, &len),
                     0);
    ck_assert_ptr_nonnull(strstr(buf, "gfx_target_version 110000\n"));
    ck_assert_ptr_nonnull(strstr(buf, "drm_render_minor 128\n"));
    ck_assert_uint_eq(len, strlen(buf));
    /* Too small a buffer, and files that do not exist. */
    ck_assert_int_eq(os->read_file(os->ctx,
                                   "/sys/devices/virtual/kfd/kfd/topology/nodes/1/properties", buf,
                                   64, &len),
                     -EFBIG);
    ck_assert_int_eq(os->read_file(os->ctx, "/sys/devices/virtual/kfd/kfd/topology/nodes/2/gpu_id",
                                   buf, sizeof buf, &len),
                     -ENOENT);
    ck_assert_int_eq(os->read_file(os->ctx, "/etc/passwd", buf, sizeof buf, &len), -ENOENT);
    int n = 0;
    ck_assert_int_eq(
        os->list_dir(os->ctx, "/sys/devices/virtual/kfd/kfd/topology/nodes", count_entry, &n), 0);
    ck_assert_int_eq(n, 2);
    n = 0;
    ck_assert_int_eq(os->list_dir(os->ctx, "/sys/devices/virtual/kfd/kfd/topology/nodes/1/caches",
                                  count_entry, &n),
                     0);
    ck_assert_int_eq(n, 5);
    ck_assert_int_eq(os->list_dir(os->ctx, "/nope", count_entry, &n), -ENOENT);
    rdx_emudev_destroy(dev);
}
END_TEST

START_TEST(linux_table_reads_real_files)
{
    /* The default table over the real filesystem, against libc's view. */
    const rdx_os *os = rdx_os_linux();
    char buf[256];
    size_t len;
    char *path = rdx_test_tmp_path("props");
    rdx_test_write_file(path, "simd_count 4\n", 13);
    ck_assert_int_eq(os->read_file(os->ctx, path, buf, sizeof buf, &len), 0);
    ck_assert_str_eq(buf, "simd_count 4\n");
    ck_assert_int_eq(os->read_file(os->ctx, path, buf, 5, &len), -EFBIG);
    ck_assert_int_eq(os->read_file(os->ctx, "/nonexistent/x", buf, sizeof buf, &len), -ENOENT);
    ck_assert_int_lt(os->open(os->ctx, "/nonexistent/kfd", 0), 0);
    /* list_dir sees the file (and only the entries, not . and ..). */
    char *dir = strdup(path);
    *strrchr(dir, '/') = 0;
    int n = 0;
    ck_assert_int_eq(os->list_dir(os->ctx, dir, count_entry, &n), 0);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(os->list_dir(os->ctx, "/nonexistent/dir", count_entry, &n), -ENOENT);
    free(dir);
    free(path);
}
END_TEST

TCase *kfd_tcase_discovery(void)
{
    TCase *tc = tcase_create("discovery");
    tcase_add_test(tc, target_names);
    tcase_add_test(tc, topology_one_gpu);
    tcase_add_test(tc, topology_legacy_kernel_derives_sizes);
    tcase_add_test(tc, topology_four_gpus);
    tcase_add_test(tc, io_links_join_cpu_and_gpus);
    tcase_add_test(tc, open_reads_drm_and_apertures);
    tcase_add_test(tc, virtual_sysfs_files);
    tcase_add_test(tc, linux_table_reads_real_files);
    return tc;
}
