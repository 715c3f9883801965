/*
 * tests/kfd/multi.c — a box of several emulated GPUs through the kfd layer:
 * the topology's links, distinct ids, render nodes and doorbells, one
 * allocation mapped into several GPUs' VMs, SDMA copies between GPUs'
 * memory, which GPU a fault belongs to, and the GPUs' command processors
 * running dispatches at the same time.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <linux/kfd_ioctl.h>

#include <rdx/isa.h>
#include <rdx/pm4.h>

#include "kfd/compat/kfd_ioctl_flags.h"
#include "kfd/internal.h"
#include "tests/kfd/kfd_test.h"

/* Every GPU node links to the CPU (io_links) and to every other GPU (p2p_links). */
START_TEST(topology_links_every_gpu)
{
    kfd_fixture f;
    fixture_open(&f, 4);
    const rdx_os *os = rdx_emudev_os(f.dev);
    char buf[1024];
    size_t len;
    ck_assert_int_eq(
        os->read_file(os->ctx,
                      "/sys/devices/virtual/kfd/kfd/topology/nodes/2/p2p_links/0/properties", buf,
                      sizeof buf, &len),
        0);
    ck_assert_msg(strstr(buf, "type 2\n") && strstr(buf, "node_from 2\n") &&
                      strstr(buf, "node_to 1\n") && strstr(buf, "flags 1\n"),
                  "%s", buf);
    ck_assert_int_eq(
        os->read_file(os->ctx,
                      "/sys/devices/virtual/kfd/kfd/topology/nodes/0/io_links/3/properties", buf,
                      sizeof buf, &len),
        0);
    ck_assert_msg(strstr(buf, "node_to 4\n"), "%s", buf);
    ck_assert_int_eq(
        os->read_file(os->ctx,
                      "/sys/devices/virtual/kfd/kfd/topology/nodes/1/p2p_links/3/properties", buf,
                      sizeof buf, &len),
        -ENOENT);
    for (uint32_t i = 0; i < 4; i++) {
        const rdx_kfd_gpu_info *g = rdx_kfd_gpu(f.kfd, i);
        ck_assert_uint_eq(g->io_link_count, 1);
        ck_assert_uint_eq(g->p2p_link_count, 3);
        /* the CPU node and the 3 other GPU nodes, not itself */
        ck_assert_uint_eq(g->linked_nodes, 0x1full & ~(1ull << g->node_id));
    }
    fixture_close(&f);
}
END_TEST

/* 8 GPUs: distinct gpu ids, render nodes and doorbell pages; a queue on each. */
START_TEST(eight_gpus_distinct)
{
    kfd_fixture f;
    fixture_open(&f, 8);
    ck_assert_uint_eq(rdx_kfd_gpu_count(f.kfd), 8);
    rdx_kfd_queue *q[8];
    for (uint32_t i = 0; i < 8; i++) {
        const rdx_kfd_gpu_info *g = rdx_kfd_gpu(f.kfd, i);
        ck_assert_uint_eq(g->drm_render_minor, 128 + i);
        for (uint32_t j = 0; j < i; j++)
            ck_assert_uint_ne(g->gpu_id, rdx_kfd_gpu(f.kfd, j)->gpu_id);
        ck_assert_int_eq(rdx_kfd_queue_create(f.kfd, i, RDX_KFD_QUEUE_COMPUTE, 4096, &q[i]),
                         RDX_OK);
    }
    for (uint32_t i = 0; i < 8; i++)
        for (uint32_t j = 0; j < i; j++)
            ck_assert_uint_ne((uint64_t)(uintptr_t)q[i]->doorbell & ~8191ull,
                              (uint64_t)(uintptr_t)q[j]->doorbell & ~8191ull);
    for (uint32_t i = 0; i < 8; i++)
        ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, q[i]), RDX_OK);
    fixture_close(&f);
}
END_TEST

static rdx_kfd_mem *vram(kfd_fixture *f, uint32_t gpu, uint64_t size, const uint32_t *peers,
                         uint32_t npeers)
{
    rdx_kfd_mem_desc d = { .kind = RDX_KFD_MEM_VRAM, .size = size, .flags = 0, .userptr = NULL };
    rdx_kfd_mem *m;
    rdx_status st = rdx_kfd_mem_alloc(f->kfd, gpu, &d, &m);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    if (npeers) { /* MAP_MEMORY_TO_GPU with several gpu ids, as libhsakmt maps for peers */
        uint32_t ids[8];
        for (uint32_t i = 0; i < npeers; i++)
            ids[i] = rdx_kfd_gpu(f->kfd, peers[i])->gpu_id;
        struct kfd_ioctl_map_memory_to_gpu_args a = { .handle = rdx_kfd_mem_handle(m),
                                                      .device_ids_array_ptr =
                                                          (uint64_t)(uintptr_t)ids,
                                                      .n_devices = npeers };
        const rdx_os *os = f->kfd->os;
        ck_assert_int_eq(os->ioctl(os->ctx, f->kfd->fd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &a), 0);
        ck_assert_uint_eq(a.n_success, npeers);
    }
    return m;
}

static void unmap_peers(kfd_fixture *f, rdx_kfd_mem *m, const uint32_t *peers, uint32_t npeers)
{
    uint32_t ids[8];
    for (uint32_t i = 0; i < npeers; i++)
        ids[i] = rdx_kfd_gpu(f->kfd, peers[i])->gpu_id;
    struct kfd_ioctl_unmap_memory_from_gpu_args a = { .handle = rdx_kfd_mem_handle(m),
                                                      .device_ids_array_ptr =
                                                          (uint64_t)(uintptr_t)ids,
                                                      .n_devices = npeers };
    const rdx_os *os = f->kfd->os;
    ck_assert_int_eq(os->ioctl(os->ctx, f->kfd->fd, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &a), 0);
}

/* VRAM of GPU 0 and of GPU 3, both mapped into GPU 2: GPU 2's SDMA engine copies from one
 * card's memory to the other's; a compute queue of GPU 1, which has neither, faults and
 * the fault names GPU 1. */
START_TEST(sdma_copies_between_gpus)
{
    kfd_fixture f;
    fixture_open(&f, 4);
    const uint32_t peers[] = { 2, 1 };
    rdx_kfd_mem *a = vram(&f, 0, 1 << 20, peers, 1), *b = vram(&f, 3, 1 << 20, peers, 1);
    rdx_kfd_mem_desc d = { .kind = RDX_KFD_MEM_GTT, .size = 1 << 20, .flags = 0, .userptr = NULL };
    rdx_kfd_mem *src, *out;
    ck_assert_int_eq(rdx_kfd_mem_alloc(f.kfd, 0, &d, &src), RDX_OK);
    d.flags = RDX_KFD_MEM_ALL_GPUS;
    ck_assert_int_eq(rdx_kfd_mem_alloc(f.kfd, 2, &d, &out), RDX_OK);
    uint8_t *s = rdx_kfd_mem_cpu(src);
    for (int i = 0; i < 1 << 20; i++)
        s[i] = (uint8_t)(i * 7 + 3);
    rdx_kfd_queue *q0, *q2;
    ck_assert_int_eq(rdx_kfd_queue_create(f.kfd, 0, RDX_KFD_QUEUE_SDMA, 4096, &q0), RDX_OK);
    ck_assert_int_eq(rdx_kfd_queue_create(f.kfd, 2, RDX_KFD_QUEUE_SDMA, 4096, &q2), RDX_OK);
    rdx_kfd_event *ev;
    ck_assert_int_eq(rdx_kfd_event_create(f.kfd, RDX_KFD_EVENT_SIGNAL, 1, &ev), RDX_OK);
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    /* GPU 0 fills its VRAM from host memory */
    rdx_sdma_copy_linear(&cb, rdx_kfd_mem_gpu_addr(a), rdx_kfd_mem_gpu_addr(src), 1 << 20);
    rdx_sdma_fence(&cb, rdx_kfd_mem_gpu_addr(out) + 4, 1);
    rdx_sdma_fence(&cb, rdx_kfd_event_mailbox(ev), rdx_kfd_event_id(ev));
    rdx_sdma_trap(&cb, rdx_kfd_event_id(ev));
    ck_assert_int_eq(rdx_kfd_queue_submit(q0, cb.dw, cb.len), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, &ev, 1, 0, 5000), RDX_OK);
    rdx_pm4_cmdbuf_reset(&cb);
    /* GPU 2: GPU 0's VRAM -> GPU 3's VRAM (odd size and offsets), then to host-visible memory */
    rdx_sdma_copy_linear(&cb, rdx_kfd_mem_gpu_addr(b) + 5, rdx_kfd_mem_gpu_addr(a) + 3,
                         (1 << 20) - 8);
    rdx_sdma_copy_linear(&cb, rdx_kfd_mem_gpu_addr(out), rdx_kfd_mem_gpu_addr(b), 1 << 20);
    rdx_sdma_fence(&cb, rdx_kfd_event_mailbox(ev), rdx_kfd_event_id(ev));
    rdx_sdma_trap(&cb, rdx_kfd_event_id(ev));
    ck_assert_int_eq(rdx_kfd_queue_submit(q2, cb.dw, cb.len), RDX_OK);
    char err[512];
    rdx_status st = rdx_kfd_event_wait(f.kfd, &ev, 1, 0, 5000);
    rdx_emudev_last_error(f.dev, err, sizeof err);
    ck_assert_msg(st == RDX_OK, "%s / %s", rdx_error_message(), err);
    const uint8_t *o = rdx_kfd_mem_cpu(out);
    for (int i = 0; i < (1 << 20) - 8; i++)
        ck_assert_uint_eq(o[i + 5], (uint8_t)((i + 3) * 7 + 3));
    rdx_pm4_cmdbuf_reset(&cb);

    /* GPU 1 was given a's mapping too (peers[1]) but not b's: writing b faults on GPU 1. */
    rdx_kfd_mem *a1 = vram(&f, 0, 4096, peers + 1, 1);
    rdx_kfd_queue *q1;
    ck_assert_int_eq(rdx_kfd_queue_create(f.kfd, 1, RDX_KFD_QUEUE_COMPUTE, 4096, &q1), RDX_OK);
    rdx_kfd_event *mem;
    ck_assert_int_eq(rdx_kfd_event_create(f.kfd, RDX_KFD_EVENT_MEMORY, 1, &mem), RDX_OK);
    const uint32_t v = 5;
    rdx_pm4_write_data(&cb, rdx_kfd_mem_gpu_addr(a1), &v, 1, false);
    rdx_pm4_write_data(&cb, rdx_kfd_mem_gpu_addr(b), &v, 1, false);
    ck_assert_int_eq(rdx_kfd_queue_submit(q1, cb.dw, cb.len), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_wait(f.kfd, &mem, 1, 0, 5000), RDX_ERR_FAULT);
    char want[64];
    snprintf(want, sizeof want, "on gpu %u ", rdx_kfd_gpu(f.kfd, 1)->gpu_id);
    ck_assert_msg(strstr(rdx_error_message(), want), "%s", rdx_error_message());
    ck_assert_uint_eq(rdx_kfd_last_fault_gpu(), rdx_kfd_gpu(f.kfd, 1)->gpu_id);
    rdx_pm4_cmdbuf_free(&cb);

    ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, q1), RDX_OK);
    ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, q0), RDX_OK);
    ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, q2), RDX_OK);
    unmap_peers(&f, a, peers, 1);
    unmap_peers(&f, b, peers, 1);
    unmap_peers(&f, a1, peers + 1, 1);
    ck_assert_int_eq(rdx_kfd_mem_free(f.kfd, a), RDX_OK);
    ck_assert_int_eq(rdx_kfd_mem_free(f.kfd, b), RDX_OK);
    ck_assert_int_eq(rdx_kfd_mem_free(f.kfd, a1), RDX_OK);
    ck_assert_int_eq(rdx_kfd_mem_free(f.kfd, src), RDX_OK);
    ck_assert_int_eq(rdx_kfd_mem_free(f.kfd, out), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_destroy(f.kfd, mem), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_destroy(f.kfd, ev), RDX_OK);
    fixture_close(&f);
}
END_TEST

/* The VM of a GPU keeps the render file ACQUIRE_VM was given after its fd is closed (KFD's
 * process device data holds a reference until the process goes): memory of that GPU can still
 * be allocated (was EINVAL: tinygrad's driver closes those fds on a box of several GPUs), and
 * another file is refused with EBUSY; after the process (the last /dev/kfd fd) is gone, a new
 * one acquires the VM afresh. */
START_TEST(vm_outlives_the_render_fd)
{
    rdx_emudev *dev;
    rdx_emudev_config cfg = { .num_gpus = 2 };
    ck_assert_int_eq(rdx_emudev_create(&cfg, &dev), RDX_OK);
    const rdx_os *os = rdx_emudev_os(dev);
    for (int round = 0; round < 2; round++) {
        int kfd = os->open(os->ctx, "/dev/kfd", O_RDWR);
        int drm = os->open(os->ctx, "/dev/dri/renderD129", O_RDWR);
        ck_assert_int_ge(kfd, 0);
        ck_assert_int_ge(drm, 0);
        char buf[64];
        size_t len;
        ck_assert_int_eq(os->read_file(os->ctx,
                                       "/sys/devices/virtual/kfd/kfd/topology/nodes/2/gpu_id", buf,
                                       sizeof buf, &len),
                         0);
        uint32_t gpu_id = (uint32_t)strtoul(buf, NULL, 10);
        struct kfd_ioctl_acquire_vm_args vm = { .drm_fd = (uint32_t)drm, .gpu_id = gpu_id };
        ck_assert_int_eq(os->ioctl(os->ctx, kfd, AMDKFD_IOC_ACQUIRE_VM, &vm), 0);
        ck_assert_int_eq(os->close(os->ctx, drm), 0);
        void *va;
        ck_assert_int_eq(os->mmap(os->ctx, NULL, 65536, PROT_NONE,
                                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0, &va),
                         0);
        struct kfd_ioctl_alloc_memory_of_gpu_args a = {
            .va_addr = (uint64_t)(uintptr_t)va,
            .size = 65536,
            .gpu_id = gpu_id,
            .flags = KFD_IOC_ALLOC_MEM_FLAGS_VRAM | RDX_KFD_ALLOC_WRITABLE,
        };
        ck_assert_int_eq(os->ioctl(os->ctx, kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
        int drm2 = os->open(os->ctx, "/dev/dri/renderD129", O_RDWR);
        vm.drm_fd = (uint32_t)drm2;
        ck_assert_int_eq(os->ioctl(os->ctx, kfd, AMDKFD_IOC_ACQUIRE_VM, &vm), -EBUSY);
        struct kfd_ioctl_free_memory_of_gpu_args f = { .handle = a.handle };
        ck_assert_int_eq(os->ioctl(os->ctx, kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), 0);
        ck_assert_int_eq(os->munmap(os->ctx, va, 65536), 0);
        ck_assert_int_eq(os->close(os->ctx, drm2), 0);
        ck_assert_int_eq(os->close(os->ctx, kfd), 0); /* the process goes: the next round */
    }
    assert_device_empty(dev);
    rdx_emudev_destroy(dev);
}
END_TEST

/* Each GPU has its own command processor: a kernel that never ends on GPU 0 does not keep
 * GPU 1's from starting, both dispatches run at once (structural: the device counts the
 * dispatches running, no timing), and destroying the queues stops both promptly. */
START_TEST(gpus_dispatch_at_the_same_time)
{
    /* No hang report ends the kernels: they run until their queues go. */
    rdx_emudev_config cfg = { .num_gpus = 2, .wave_budget = UINT64_MAX / 2 };
    kfd_fixture f;
    ck_assert_int_eq(rdx_emudev_create(&cfg, &f.dev), RDX_OK);
    ck_assert_int_eq(rdx_kfd_open(rdx_emudev_os(f.dev), &f.kfd), RDX_OK);
    const rdx_isa_target *t = rdx_isa_target_find("gfx1100");
    rdx_isa_inst in;
    memset(&in, 0, sizeof in);
    in.op = RDX_ISA_OP_S_BRANCH; /* s_branch -1: to itself, for ever */
    in.nopnd = 1;
    in.opnd[0] = (rdx_isa_opnd){ RDX_ISA_OPND_BRANCH, 0, 0, -1 };
    uint8_t code[32];
    size_t n;
    rdx_status est = rdx_isa_encode(t, &in, code, &n);
    ck_assert_msg(est == RDX_OK, "%s", rdx_error_message());
    ck_assert_uint_eq(n, 4);
    rdx_kfd_mem *codem[2];
    rdx_kfd_queue *q[2];
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    for (uint32_t g = 0; g < 2; g++) {
        rdx_kfd_mem_desc d = { .kind = RDX_KFD_MEM_GTT,
                               .size = 4096,
                               .flags = RDX_KFD_MEM_EXECUTABLE | RDX_KFD_MEM_READONLY,
                               .userptr = NULL };
        ck_assert_int_eq(rdx_kfd_mem_alloc(f.kfd, g, &d, &codem[g]), RDX_OK);
        memcpy(rdx_kfd_mem_cpu(codem[g]), code, n);
        ck_assert_int_eq(rdx_kfd_queue_create(f.kfd, g, RDX_KFD_QUEUE_COMPUTE, 4096, &q[g]),
                         RDX_OK);
    }
    for (uint32_t g = 0; g < 2; g++) { /* (memory calls would wait for a running kernel) */
        rdx_pm4_dispatch_desc dd;
        memset(&dd, 0, sizeof dd);
        dd.code_addr = rdx_kfd_mem_gpu_addr(codem[g]);
        dd.grid[0] = dd.grid[1] = dd.grid[2] = 1;
        dd.block[0] = 32;
        dd.block[1] = dd.block[2] = 1;
        dd.wave32 = true;
        ck_assert_int_eq(rdx_pm4_dispatch(&cb, &dd), RDX_OK);
        ck_assert_int_eq(rdx_kfd_queue_submit(q[g], cb.dw, cb.len), RDX_OK);
        rdx_pm4_cmdbuf_reset(&cb);
    }
    rdx_emudev_stats s;
    for (int i = 0; i < 3000; i++) { /* up to 30 s for both threads to get a CPU */
        rdx_emudev_get_stats(f.dev, &s);
        if (s.dispatches_running == 2)
            break;
        struct timespec ts = { 0, 10000000 };
        nanosleep(&ts, NULL);
    }
    char err[512];
    rdx_emudev_last_error(f.dev, err, sizeof err);
    ck_assert_msg(s.dispatches_running == 2, "%u dispatches running (%s; code %02x%02x%02x%02x)",
                  s.dispatches_running, err, code[3], code[2], code[1], code[0]);
    ck_assert_uint_eq(s.dispatches_max, 2);
    /* Destroying GPU 0's queue stops its kernel and waits for GPU 0 alone (GPU 1's kernel
     * still runs); memory calls wait for every GPU, so they come last. */
    ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, q[0]), RDX_OK);
    rdx_emudev_get_stats(f.dev, &s);
    ck_assert_uint_eq(s.dispatches_running, 1);
    ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, q[1]), RDX_OK);
    rdx_emudev_get_stats(f.dev, &s);
    ck_assert_uint_eq(s.dispatches_running, 0);
    for (uint32_t g = 0; g < 2; g++)
        ck_assert_int_eq(rdx_kfd_mem_free(f.kfd, codem[g]), RDX_OK);
    rdx_pm4_cmdbuf_free(&cb);
    fixture_close(&f);
}
END_TEST

TCase *kfd_tcase_multi(void)
{
    TCase *tc = tcase_create("multi");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, topology_links_every_gpu);
    tcase_add_test(tc, eight_gpus_distinct);
    tcase_add_test(tc, sdma_copies_between_gpus);
    tcase_add_test(tc, vm_outlives_the_render_fd);
    tcase_add_test(tc, gpus_dispatch_at_the_same_time);
    return tc;
}
