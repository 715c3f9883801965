/*
 * tests/kfd/targets.c — the emulated GPU of every target (RDX_EMU_ARCH, rdx_emudev_config.arch):
 * its KFD topology, IP discovery versions, DRM device info and queue sizes against facts from
 * public sources, the target list's errors, machines of mixed targets.
 *
 * Expected values are restated here by hand from the sources, not read from emu/dev/target.c:
 *  - gfx_target_version per GC IP: Linux amdkfd kfd_device.c kgd2kfd_probe;
 *  - SDMA IP versions: kfd_device.c kfd_device_info_set_sdma_info; 6 user SDMA queues per
 *    engine (8 less 2 reserved);
 *  - ctl_stack_size / cwsr_size / debug_memory_size: kfd_queue.c
 *    kfd_queue_ctx_save_restore_size, computed by hand below per CU count and VGPR area
 *    (0x60000 per CU for 110000, 110001, 110501, 120000, 120001; else 0x40000);
 *  - CU counts and PCI ids: AMD's product pages, the amdgpu.ids list (RX 7900 XTX 0x744c,
 *    RX 7800 XT 0x747e, RX 7600 0x7480, Radeon 890M 0x150e, Radeon 8060S 0x1586,
 *    RX 9060 XT 0x7590, RX 9070 XT 0x7550).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include <libdrm/amdgpu_drm.h>
#include <rdx/pm4.h>

#include "tests/kfd/kfd_test.h"

static const struct want {
    const char *name;
    uint32_t version, cus, arrays, arrays_per_se, cu_per_array, device, sdma;
    uint8_t gc[3], sdma_ip[3], nbio[3];
    uint32_t ctl, cwsr, dbg; /* kfd_queue.c by hand: see each row */
    uint64_t vram_gib;
    int apu;
} wants[] = {
    /* 96 CUs, 3072 waves: ctl align(40 + 3072*12 + 8) = 40960; 96 * 0x75000 */
    { "gfx1100",
      110000,
      96,
      12,
      2,
      8,
      0x744c,
      2,
      { 11, 0, 0 },
      { 6, 0, 0 },
      { 4, 3, 0 },
      40960,
      40960 + 96 * 0x75000,
      3072 * 32,
      24,
      0 },
    /* GC 11.0.3 is gfx1101 ("compiler version is 11.0.1 while HW version is 11.0.3");
     * 60 CUs, 1920 waves: ctl align(23088) = 24576 */
    { "gfx1101",
      110001,
      60,
      6,
      2,
      10,
      0x747e,
      2,
      { 11, 0, 3 },
      { 6, 0, 2 },
      { 4, 3, 0 },
      24576,
      24576 + 60 * 0x75000,
      1920 * 32,
      16,
      0 },
    /* 1024-entry VRGPR file: 0x40000 + 0x15000 = 0x55000 per CU; 32 CUs: ctl align(12336) */
    { "gfx1102",
      110002,
      32,
      4,
      2,
      8,
      0x7480,
      2,
      { 11, 0, 2 },
      { 6, 0, 3 },
      { 4, 3, 0 },
      16384,
      16384 + 32 * 0x55000,
      1024 * 32,
      8,
      0 },
    /* Strix Point: 16 CUs, one SDMA engine, an APU: ctl align(6192) = 8192 */
    { "gfx1150",
      110500,
      16,
      2,
      2,
      8,
      0x150e,
      1,
      { 11, 5, 0 },
      { 6, 1, 0 },
      { 7, 11, 0 },
      8192,
      8192 + 16 * 0x55000,
      512 * 32,
      16,
      1 },
    /* Strix Halo: 40 CUs, 1536 VGPRs (kfd_queue.c GFX_VERSION_GFX1151): ctl align(15408) */
    { "gfx1151",
      110501,
      40,
      4,
      2,
      10,
      0x1586,
      1,
      { 11, 5, 1 },
      { 6, 1, 1 },
      { 7, 11, 1 },
      16384,
      16384 + 40 * 0x75000,
      1280 * 32,
      64,
      1 },
    { "gfx1200",
      120000,
      32,
      4,
      2,
      8,
      0x7590,
      2,
      { 12, 0, 0 },
      { 7, 0, 0 },
      { 6, 3, 1 },
      16384,
      16384 + 32 * 0x75000,
      1024 * 32,
      16,
      0 },
    /* 64 CUs, 2048 waves: ctl align(24624) = 28672 */
    { "gfx1201",
      120001,
      64,
      8,
      2,
      8,
      0x7550,
      2,
      { 12, 0, 1 },
      { 7, 0, 1 },
      { 6, 3, 1 },
      28672,
      28672 + 64 * 0x75000,
      2048 * 32,
      16,
      0 },
};
#define NWANTS (sizeof wants / sizeof wants[0])

static rdx_emudev *create(const char *arch, uint32_t gpus, int legacy)
{
    rdx_emudev_config cfg = { .num_gpus = gpus, .arch = arch, .legacy_sysfs = legacy };
    rdx_emudev *dev = NULL;
    rdx_status st = rdx_emudev_create(&cfg, &dev);
    ck_assert_msg(st == RDX_OK, "%s: %s", arch, rdx_error_message());
    return dev;
}

static void check_gpu(const rdx_kfd_gpu_info *g, const struct want *w)
{
    ck_assert_str_eq(g->target, w->name);
    ck_assert_str_eq(g->name, w->name);
    ck_assert_uint_eq(g->gfx_target_version, w->version);
    ck_assert_uint_eq(g->cu_count, w->cus);
    ck_assert_uint_eq(g->simd_per_cu, 2);
    ck_assert_uint_eq(g->array_count, w->arrays);
    ck_assert_uint_eq(g->simd_arrays_per_engine, w->arrays_per_se);
    ck_assert_uint_eq(g->cu_per_simd_array, w->cu_per_array);
    ck_assert_uint_eq(g->max_waves_per_simd, 16);
    ck_assert_uint_eq(g->wave_front_size, 32);
    ck_assert_uint_eq(g->lds_size_kb, 64);
    ck_assert_uint_eq(g->device_id, w->device);
    ck_assert_uint_eq(g->num_sdma_engines, w->sdma);
    ck_assert_uint_eq(g->ctl_stack_size, w->ctl);
    ck_assert_uint_eq(g->cwsr_size, w->cwsr);
    ck_assert_uint_eq(g->debug_memory_size, w->dbg);
    ck_assert_uint_eq(g->vram_size, w->vram_gib << 30);
    ck_assert_uint_eq(g->mem_banks[0].heap_type, 1); /* FB_PUBLIC: dGPU large BAR, APU */
}

/* Every target's node as rdx's topology reader sees it; again on the Linux 6.1 model, whose
 * sysfs has no cwsr_size/ctl_stack_size, so that kfd/topology.c derives them by the kernel's
 * rules (gfx1151's 0x60000 VGPR area was 0x40000 before the fix). */
START_TEST(topology_per_target)
{
    for (int legacy = 0; legacy < 2; legacy++)
        for (size_t i = 0; i < NWANTS; i++) {
            rdx_emudev *dev = create(wants[i].name, 1, legacy);
            rdx_kfd_topology *t;
            ck_assert_int_eq(rdx_kfd_topology_read(rdx_emudev_os(dev), &t), RDX_OK);
            ck_assert_uint_eq(t->gpu_count, 1);
            check_gpu(&t->gpus[0], &wants[i]);
            rdx_kfd_topology_free(t);
            rdx_emudev_destroy(dev);
        }
}
END_TEST

static void read_ip(const rdx_os *os, uint32_t minor, const char *hw, const char *file,
                    unsigned want)
{
    char path[160], buf[32], w[16];
    size_t len;
    snprintf(path, sizeof path, "/sys/class/drm/renderD%u/device/ip_discovery/die/0/%s/0/%s", minor,
             hw, file);
    ck_assert_msg(os->read_file(os->ctx, path, buf, sizeof buf, &len) == 0, "%s", path);
    snprintf(w, sizeof w, "%u\n", want);
    ck_assert_msg(!strcmp(buf, w), "%s: %s, expected %u", path, buf, want);
}

static int count(void *user, const char *name)
{
    (void)name;
    ++*(int *)user;
    return 0;
}

/* GC, SDMA and NBIO/NBIF versions per target, by number and by name; APUs have one SDMA. */
START_TEST(ip_discovery_per_target)
{
    for (size_t i = 0; i < NWANTS; i++) {
        const struct want *w = &wants[i];
        rdx_emudev *dev = create(w->name, 1, 0);
        const rdx_os *os = rdx_emudev_os(dev);
        static const char *const f[3] = { "major", "minor", "revision" };
        for (int k = 0; k < 3; k++) {
            read_ip(os, 128, "11", f[k], w->gc[k]);
            read_ip(os, 128, "GC", f[k], w->gc[k]);
            read_ip(os, 128, "SDMA0", f[k], w->sdma_ip[k]);
            read_ip(os, 128, "108", f[k], w->nbio[k]);
        }
        int n = 0;
        int r = os->list_dir(os->ctx, "/sys/class/drm/renderD128/device/ip_discovery/die/0/43",
                             count, &n);
        ck_assert_int_eq(r, w->sdma == 2 ? 0 : -ENOENT);
        rdx_emudev_destroy(dev);
    }
}
END_TEST

/* AMDGPU_INFO_DEV_INFO and HW_IP_INFO on the render node follow the target: PCI id, CUs, the
 * amdgpu family, the APU flag, the GC and SDMA IP major/minor. */
START_TEST(drm_info_per_target)
{
    for (size_t i = 0; i < NWANTS; i++) {
        const struct want *w = &wants[i];
        rdx_emudev *dev = create(w->name, 1, 0);
        const rdx_os *os = rdx_emudev_os(dev);
        int fd = os->open(os->ctx, "/dev/dri/renderD128", O_RDWR);
        ck_assert_int_ge(fd, 0);
        struct drm_amdgpu_info_device d;
        struct drm_amdgpu_info q = { .return_pointer = (uint64_t)(uintptr_t)&d,
                                     .return_size = sizeof d,
                                     .query = AMDGPU_INFO_DEV_INFO };
        ck_assert_int_eq(os->ioctl(os->ctx, fd, DRM_IOCTL_AMDGPU_INFO, &q), 0);
        ck_assert_uint_eq(d.device_id, w->device);
        ck_assert_uint_eq(d.cu_active_number, w->cus);
        ck_assert_uint_eq(d.num_shader_engines, w->arrays / w->arrays_per_se);
        ck_assert_uint_eq(d.num_cu_per_sh, w->cu_per_array);
        /* AMDGPU_FAMILY_GC_11_0_0 145, _GC_11_5_0 150, _GC_12_0_0 152 (amdgpu_drm.h) */
        ck_assert_uint_eq(d.family, w->gc[0] == 12 ? 152 : w->gc[1] == 5 ? 150 : 145);
        ck_assert_uint_eq(d.ids_flags & 1u, (unsigned)w->apu); /* AMDGPU_IDS_FLAGS_FUSION */
        struct drm_amdgpu_info_hw_ip ip;
        q = (struct drm_amdgpu_info){ .return_pointer = (uint64_t)(uintptr_t)&ip,
                                      .return_size = sizeof ip,
                                      .query = AMDGPU_INFO_HW_IP_INFO };
        q.query_hw_ip.type = AMDGPU_HW_IP_COMPUTE;
        ck_assert_int_eq(os->ioctl(os->ctx, fd, DRM_IOCTL_AMDGPU_INFO, &q), 0);
        ck_assert_uint_eq(ip.hw_ip_version_major, w->gc[0]);
        ck_assert_uint_eq(ip.hw_ip_version_minor, w->gc[1]);
        q.query_hw_ip.type = AMDGPU_HW_IP_DMA;
        ck_assert_int_eq(os->ioctl(os->ctx, fd, DRM_IOCTL_AMDGPU_INFO, &q), 0);
        ck_assert_uint_eq(ip.hw_ip_version_major, w->sdma_ip[0]);
        os->close(os->ctx, fd);
        rdx_emudev_destroy(dev);
    }
}
END_TEST

/* GC IP → gfx_target_version as kgd2kfd_probe maps it (the DRM path names GPUs with it). */
START_TEST(gc_ip_to_target_version)
{
    static const struct {
        uint32_t major, minor, rev, version;
    } rows[] = {
        { 11, 0, 0, 110000 }, { 11, 0, 3, 110001 }, { 11, 0, 2, 110002 }, { 11, 0, 1, 110003 },
        { 11, 0, 4, 110003 }, { 11, 5, 1, 110501 }, { 12, 0, 1, 120001 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        ck_assert_msg(
            rdx_kfd_gc_target_version(rows[i].major, rows[i].minor, rows[i].rev) == rows[i].version,
            "GC %u.%u.%u: expected %u", rows[i].major, rows[i].minor, rows[i].rev, rows[i].version);
}
END_TEST

static void expect_bad(const char *arch, uint32_t gpus, const char *needle)
{
    rdx_emudev_config cfg = { .num_gpus = gpus, .arch = arch };
    rdx_emudev *dev = NULL;
    ck_assert_int_eq(rdx_emudev_create(&cfg, &dev), RDX_ERR_INVALID);
    ck_assert_ptr_null(dev);
    ck_assert_msg(strstr(rdx_error_message(), needle), "'%s': %s", arch, rdx_error_message());
    ck_assert_int_eq(rdx_emudev_check_arch("--arch", arch, gpus), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), needle), "'%s': %s", arch, rdx_error_message());
    ck_assert_msg(!strncmp(rdx_error_message(), "--arch='", 8), "%s", rdx_error_message());
}

/* A bad target list names the entry and lists the valid targets; a count that is neither
 * one nor the GPUs' says so; RDX_EMU_ARCH is read when the configuration gives none. */
START_TEST(arch_errors)
{
    const char *valid = "valid targets: gfx1100, gfx1101, gfx1102, gfx1150, gfx1151, gfx1200, "
                        "gfx1201";
    static const struct {
        const char *arch;
        uint32_t gpus;
        const char *needle; /* NULL: the list of valid targets */
    } bad[] = {
        { "gfx1300", 1, "target 1 ('gfx1300' at offset 0) is not one the emulated GPU models; " },
        { "gfx1300", 1, NULL },
        { "gfx1100,gfx90a", 2, "target 2 ('gfx90a' at offset 8)" },
        { "gfx1100,", 2, "target 2 ('' at offset 8)" },
        { "GFX1100", 1, NULL }, /* names are case-sensitive, as LLVM's */
        { "gfx1100,gfx1201", 3,
          "2 targets for 3 GPUs; expected one target for every GPU or one per GPU" },
        { "gfx1100,gfx1100,gfx1100,gfx1100,gfx1100,gfx1100,gfx1100,gfx1100,gfx1100", 8,
          "more than 8 targets" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_bad(bad[i].arch, bad[i].gpus, bad[i].needle ? bad[i].needle : valid);
    ck_assert_int_eq(rdx_emudev_check_arch(NULL, "gfx1100,gfx1201", 2), RDX_OK);
    ck_assert_int_eq(rdx_emudev_check_arch(NULL, NULL, 2), RDX_OK);
    ck_assert_int_eq(rdx_emudev_check_arch(NULL, "gfx1201", 0), RDX_ERR_RANGE);
    ck_assert_int_eq(rdx_emudev_check_arch(NULL, "gfx1201", 9), RDX_ERR_RANGE);

    setenv("RDX_EMU_ARCH", "gfx9000", 1);
    rdx_emudev *dev = NULL;
    ck_assert_int_eq(rdx_emudev_create(NULL, &dev), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "RDX_EMU_ARCH='gfx9000'"), "%s", rdx_error_message());
    /* the configuration's list wins over the environment */
    dev = create("gfx1102", 1, 0);
    rdx_kfd_topology *t;
    ck_assert_int_eq(rdx_kfd_topology_read(rdx_emudev_os(dev), &t), RDX_OK);
    ck_assert_str_eq(t->gpus[0].target, "gfx1102");
    rdx_kfd_topology_free(t);
    rdx_emudev_destroy(dev);
    setenv("RDX_EMU_ARCH", "gfx1151", 1);
    dev = create(NULL, 1, 0);
    ck_assert_int_eq(rdx_kfd_topology_read(rdx_emudev_os(dev), &t), RDX_OK);
    ck_assert_str_eq(t->gpus[0].target, "gfx1151");
    rdx_kfd_topology_free(t);
    rdx_emudev_destroy(dev);
    unsetenv("RDX_EMU_ARCH");
    for (uint32_t i = 0; i < NWANTS; i++)
        ck_assert_str_eq(rdx_emudev_target_name(i), wants[i].name);
    ck_assert_ptr_null(rdx_emudev_target_name(NWANTS));
}
END_TEST

/* One machine of three different GPUs: each node its own target, sizes and links. */
START_TEST(mixed_targets)
{
    rdx_emudev *dev = create("gfx1100,gfx1201,gfx1151", 3, 0);
    rdx_kfd_topology *t;
    ck_assert_int_eq(rdx_kfd_topology_read(rdx_emudev_os(dev), &t), RDX_OK);
    ck_assert_uint_eq(t->gpu_count, 3);
    check_gpu(&t->gpus[0], &wants[0]);
    check_gpu(&t->gpus[1], &wants[6]);
    check_gpu(&t->gpus[2], &wants[4]);
    for (uint32_t i = 0; i < 3; i++) {
        ck_assert_uint_eq(t->gpus[i].node_id, i + 1);
        ck_assert_uint_eq(t->gpus[i].drm_render_minor, 128 + i);
    }
    rdx_kfd_topology_free(t);
    /* each render node answers for its own chip */
    const rdx_os *os = rdx_emudev_os(dev);
    read_ip(os, 129, "GC", "major", 12);
    read_ip(os, 130, "GC", "minor", 5);
    read_ip(os, 128, "GC", "major", 11);
    rdx_emudev_destroy(dev);
}
END_TEST

/* On every target, the whole kfd/ path of a queue: a compute queue with the node's context-save
 * sizes, tinygrad's HDP flush (WAIT_REG_MEM on BIF_BX_PF{0,1}_GPU_HDP_FLUSH_REQ/DONE: dword
 * 0xe26/0xe27 on NBIO 4.3, NBIO 7.11 (PF1) and NBIF 6.3.1 alike), a WRITE_DATA and the signal,
 * and an SDMA queue's copy. */
START_TEST(queues_run_on_every_target)
{
    for (size_t i = 0; i < NWANTS; i++) {
        rdx_emudev_config cfg = { .num_gpus = 1, .arch = wants[i].name };
        kfd_fixture f;
        ck_assert_int_eq(rdx_emudev_create(&cfg, &f.dev), RDX_OK);
        ck_assert_int_eq(rdx_kfd_open(rdx_emudev_os(f.dev), &f.kfd), RDX_OK);
        rdx_kfd_event *ev;
        ck_assert_int_eq(rdx_kfd_event_create(f.kfd, RDX_KFD_EVENT_SIGNAL, 1, &ev), RDX_OK);
        rdx_kfd_mem_desc d = { .kind = RDX_KFD_MEM_GTT, .size = 4096 };
        rdx_kfd_mem *m;
        ck_assert_int_eq(rdx_kfd_mem_alloc(f.kfd, 0, &d, &m), RDX_OK);
        volatile uint32_t *cpu = rdx_kfd_mem_cpu(m);
        rdx_kfd_queue *q, *s;
        ck_assert_msg(rdx_kfd_queue_create(f.kfd, 0, RDX_KFD_QUEUE_COMPUTE, 4096, &q) == RDX_OK,
                      "%s: %s", wants[i].name, rdx_error_message());
        ck_assert_int_eq(rdx_kfd_queue_create(f.kfd, 0, RDX_KFD_QUEUE_SDMA, 4096, &s), RDX_OK);
        rdx_pm4_cmdbuf cb;
        rdx_pm4_cmdbuf_init(&cb);
        const uint32_t w[] = { RDX_PM4_HEADER(RDX_PM4_OP_WAIT_REG_MEM, 5, false),
                               3u | (1u << 6),
                               0xe26,
                               0xe27,
                               1u,
                               1u,
                               0x20 };
        rdx_pm4_emit(&cb, w, 7);
        const uint32_t marker = 0x600d0000u + (uint32_t)i;
        rdx_pm4_write_data(&cb, rdx_kfd_mem_gpu_addr(m), &marker, 1, true);
        rdx_pm4_signal(&cb, rdx_kfd_event_mailbox(ev), rdx_kfd_event_id(ev), true,
                       rdx_kfd_event_id(ev));
        ck_assert_int_eq(rdx_kfd_queue_submit(q, cb.dw, cb.len), RDX_OK);
        ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, &ev, 1, 0, 5000), RDX_OK);
        ck_assert_uint_eq(cpu[0], marker);
        /* SDMA (v6 packets on SDMA 6.x and 7.x): copy the marker one dword on */
        rdx_pm4_cmdbuf_reset(&cb);
        rdx_sdma_copy_linear(&cb, rdx_kfd_mem_gpu_addr(m) + 4, rdx_kfd_mem_gpu_addr(m), 4);
        rdx_sdma_fence(&cb, rdx_kfd_mem_gpu_addr(m) + 8, 1);
        ck_assert_int_eq(rdx_kfd_queue_submit(s, cb.dw, cb.len), RDX_OK);
        for (int spin = 0; spin < 5000 && cpu[2] != 1; spin++)
            usleep(1000);
        ck_assert_uint_eq(cpu[2], 1);
        ck_assert_uint_eq(cpu[1], marker);
        rdx_pm4_cmdbuf_free(&cb);
        ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, s), RDX_OK);
        ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, q), RDX_OK);
        ck_assert_int_eq(rdx_kfd_mem_free(f.kfd, m), RDX_OK);
        ck_assert_int_eq(rdx_kfd_event_destroy(f.kfd, ev), RDX_OK);
        fixture_close(&f);
    }
}
END_TEST

TCase *kfd_tcase_targets(void)
{
    TCase *tc = tcase_create("targets");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, topology_per_target);
    tcase_add_test(tc, ip_discovery_per_target);
    tcase_add_test(tc, drm_info_per_target);
    tcase_add_test(tc, gc_ip_to_target_version);
    tcase_add_test(tc, arch_errors);
    tcase_add_test(tc, mixed_targets);
    tcase_add_test(tc, queues_run_on_every_target);
    return tc;
}
