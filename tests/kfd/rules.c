/*
 * tests/kfd/rules.c — the validation rules of docs/kfd.md ("Validation rules"): each ioctl's
 * argument checks answered with the errno of the Linux amdkfd driver, through the emulated
 * device's ioctl entry point (raw <linux/kfd_ioctl.h> structures).  Comments name the rows
 * of the table (D1, P1, M1, K1, Q1, E1 …).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kfd/compat/kfd_ioctl_flags.h"

#include "tests/kfd/kfd_test.h"

/* Newer than this system's <linux/kfd_ioctl.h> (KFD 1.11). */
struct runtime_enable_args {
    uint64_t r_debug;
    uint32_t mode_mask, capabilities_mask;
};
#define IOC_RUNTIME_ENABLE _IOWR('K', 0x25, struct runtime_enable_args)
#define MMAP_GPU(id)       ((uint64_t)(id) << 46)
#define MMAP_DOORBELL      (3ull << 62)
#define MMAP_EVENTS        (2ull << 62)

typedef struct rig {
    rdx_emudev *dev;
    const rdx_os *os;
    int kfd, drm;
    uint32_t gpu_id;
    rdx_kfd_gpu_info info;
    void *va; /* a 64 MiB reservation buffers are placed in */
    uint64_t next;
} rig;

static void rig_open_arch(rig *r, int vm, int legacy, const char *arch)
{
    memset(r, 0, sizeof *r);
    rdx_emudev_config cfg = { .num_gpus = 1, .legacy_sysfs = legacy, .arch = arch };
    ck_assert_int_eq(rdx_emudev_create(&cfg, &r->dev), RDX_OK);
    r->os = rdx_emudev_os(r->dev);
    r->kfd = r->os->open(r->os->ctx, "/dev/kfd", O_RDWR);
    r->drm = r->os->open(r->os->ctx, "/dev/dri/renderD128", O_RDWR);
    ck_assert_int_ge(r->kfd, 0);
    rdx_kfd_topology *t;
    ck_assert_int_eq(rdx_kfd_topology_read(r->os, &t), RDX_OK);
    r->info = t->gpus[0];
    r->gpu_id = t->gpus[0].gpu_id;
    rdx_kfd_topology_free(t);
    ck_assert_int_eq(r->os->mmap(r->os->ctx, NULL, 64 << 20, PROT_NONE,
                                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0, &r->va),
                     0);
    r->next = (uint64_t)(uintptr_t)r->va;
    if (vm) {
        struct kfd_ioctl_acquire_vm_args a = { .drm_fd = (uint32_t)r->drm, .gpu_id = r->gpu_id };
        ck_assert_int_eq(r->os->ioctl(r->os->ctx, r->kfd, AMDKFD_IOC_ACQUIRE_VM, &a), 0);
    }
}

static void rig_open_cfg(rig *r, int vm, int legacy)
{
    rig_open_arch(r, vm, legacy, NULL);
}

static void rig_open(rig *r, int vm)
{
    rig_open_cfg(r, vm, 0);
}

static int io(rig *r, unsigned long req, void *arg)
{
    return r->os->ioctl(r->os->ctx, r->kfd, req, arg);
}

static void rig_close(rig *r)
{
    ck_assert_int_eq(r->os->munmap(r->os->ctx, r->va, 64 << 20), 0);
    ck_assert_int_eq(r->os->close(r->os->ctx, r->drm), 0);
    ck_assert_int_eq(r->os->close(r->os->ctx, r->kfd), 0);
    assert_device_empty(r->dev);
    rdx_emudev_destroy(r->dev);
}

/* Allocate (flags) size bytes at the next free VA of the reservation; returns the handle. */
static uint64_t alloc_at(rig *r, uint64_t size, uint32_t flags, uint64_t *va)
{
    struct kfd_ioctl_alloc_memory_of_gpu_args a = {
        .va_addr = r->next, .size = size, .gpu_id = r->gpu_id, .flags = flags
    };
    ck_assert_int_eq(io(r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
    *va = r->next;
    r->next += (size + 0xffff) & ~0xffffull;
    return a.handle;
}

static int map(rig *r, uint64_t handle, int on)
{
    uint32_t id = r->gpu_id;
    struct kfd_ioctl_map_memory_to_gpu_args m = { .handle = handle,
                                                  .device_ids_array_ptr = (uint64_t)(uintptr_t)&id,
                                                  .n_devices = 1 };
    return io(r, on ? AMDKFD_IOC_MAP_MEMORY_TO_GPU : AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &m);
}

static uint64_t buffer(rig *r, uint64_t size, uint64_t *va)
{
    uint64_t h = alloc_at(r, size, KFD_IOC_ALLOC_MEM_FLAGS_GTT | RDX_KFD_ALLOC_WRITABLE, va);
    ck_assert_int_eq(map(r, h, 1), 0);
    return h;
}

static void release(rig *r, uint64_t h)
{
    ck_assert_int_eq(map(r, h, 0), 0);
    struct kfd_ioctl_free_memory_of_gpu_args f = { .handle = h };
    ck_assert_int_eq(io(r, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), 0);
}

START_TEST(dispatch_by_number)
{
    rig r;
    rig_open(&r, 1);
    struct kfd_ioctl_get_version_args v = { 0 };
    /* D1: numbers 0 and >= 0x27 are ENOTTY, before the argument is looked at */
    ck_assert_int_eq(io(&r, _IOR('K', 0x00, struct kfd_ioctl_get_version_args), NULL), -ENOTTY);
    ck_assert_int_eq(io(&r, _IOR('K', 0x27, struct kfd_ioctl_get_version_args), NULL), -ENOTTY);
    /* D2: a number the emulated driver has no function for */
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SVM, &v), -EINVAL);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SET_CU_MASK, &v), -EINVAL);
    ck_assert_int_eq(io(&r, _IOWR('K', 0x26, struct kfd_ioctl_get_version_args), &v), -EINVAL);
    /* D3: by number, whatever the type byte; a larger caller structure is zeroed past the
     * driver's and copied back in full */
    uint32_t big[6] = { 7, 7, 7, 7, 7, 7 };
    ck_assert_int_eq(io(&r, _IOR('Z', 0x01, uint32_t[6]), big), 0);
    ck_assert_uint_eq(big[0], 1);
    ck_assert_uint_eq(big[1], 17); /* P1: KFD 1.17 */
    ck_assert_uint_eq(big[5], 0);
    /* a structure larger than 512 bytes is served too (GET_VERSION with 4 KiB) */
    uint32_t *huge = calloc(1024, 4);
    ck_assert_int_eq(io(&r, _IOC(_IOC_READ, 'K', 0x01, 4096), huge), 0);
    ck_assert_uint_eq(huge[1], 17);
    free(huge);
    /* D4, D4: unreadable / unwritable arguments */
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_EVENT, NULL), -EFAULT);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_GET_VERSION, NULL), -EFAULT);
    /* D5: the deprecated debugger ioctls */
    ck_assert_int_eq(io(&r, AMDKFD_IOC_DBG_REGISTER_DEPRECATED, &v), -EPERM);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_DBG_WAVE_CONTROL_DEPRECATED, &v), -EPERM);
    /* D6: CRIU needs CAP_CHECKPOINT_RESTORE, checked before the argument */
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CRIU_OP, NULL), -EACCES);
    rig_close(&r);
}
END_TEST

START_TEST(process_ioctls)
{
    rig r;
    rig_open(&r, 0);
    /* P11, P11, P12: before ACQUIRE_VM the process is not bound to the device */
    struct kfd_ioctl_set_memory_policy_args mp = { .gpu_id = r.gpu_id };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SET_MEMORY_POLICY, &mp), -ESRCH);
    struct kfd_ioctl_set_trap_handler_args th = { .gpu_id = r.gpu_id, .tba_addr = 0x1000 };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SET_TRAP_HANDLER, &th), -ESRCH);
    struct kfd_ioctl_set_scratch_backing_va_args sb = { .gpu_id = r.gpu_id, .va_addr = 0x1000 };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SET_SCRATCH_BACKING_VA, &sb), -ENODEV);
    /* P2, P3, P4, P5: ACQUIRE_VM */
    struct kfd_ioctl_acquire_vm_args vm = { .drm_fd = 987654, .gpu_id = r.gpu_id };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ACQUIRE_VM, &vm), -EINVAL); /* no such fd */
    vm.drm_fd = (uint32_t)r.kfd;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ACQUIRE_VM, &vm), -EINVAL); /* not a render node */
    vm.drm_fd = (uint32_t)r.drm;
    vm.gpu_id = r.gpu_id + 1;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ACQUIRE_VM, &vm), -EINVAL); /* unknown gpu */
    vm.gpu_id = r.gpu_id;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ACQUIRE_VM, &vm), 0);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ACQUIRE_VM, &vm), 0); /* the same file again */
    int drm2 = r.os->open(r.os->ctx, "/dev/dri/renderD128", O_RDWR);
    vm.drm_fd = (uint32_t)drm2;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ACQUIRE_VM, &vm), -EBUSY); /* another file */
    ck_assert_int_eq(r.os->close(r.os->ctx, drm2), 0);
    /* P9, P10 */
    mp.default_policy = 2;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SET_MEMORY_POLICY, &mp), -EINVAL);
    mp.default_policy = 0;
    mp.alternate_policy = 7;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SET_MEMORY_POLICY, &mp), -EINVAL);
    mp.alternate_policy = 1;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SET_MEMORY_POLICY, &mp), 0);
    mp.gpu_id = 1;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SET_MEMORY_POLICY, &mp), -EINVAL);
    /* P10, P10 */
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SET_TRAP_HANDLER, &th), 0);
    th.gpu_id = 1;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SET_TRAP_HANDLER, &th), -EINVAL);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SET_SCRATCH_BACKING_VA, &sb), 0);
    sb.gpu_id = 1;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SET_SCRATCH_BACKING_VA, &sb), -EINVAL);
    /* P6, P6, P7: apertures */
    struct kfd_ioctl_get_process_apertures_new_args an = { 0 };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &an), 0);
    ck_assert_uint_eq(an.num_of_nodes, 1);
    struct kfd_process_device_apertures ap[3];
    an.num_of_nodes = 3;
    an.kfd_process_device_apertures_ptr = (uint64_t)(uintptr_t)ap;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &an), 0);
    ck_assert_uint_eq(an.num_of_nodes, 1);
    ck_assert_uint_eq(ap[0].gpu_id, r.gpu_id);
    an.kfd_process_device_apertures_ptr = 8;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &an), -EFAULT);
    struct kfd_ioctl_get_process_apertures_args old;
    memset(&old, 0xff, sizeof old);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_GET_PROCESS_APERTURES, &old), 0);
    ck_assert_uint_eq(old.num_of_nodes, 1);
    ck_assert_uint_eq(old.process_apertures[0].gpu_id, r.gpu_id);
    ck_assert_uint_eq(old.process_apertures[0].gpuvm_base, ap[0].gpuvm_base);
    /* P21: tile configuration: gfx11 has no tile tables; what fits is copied */
    uint32_t tiles[40], macro[20];
    memset(tiles, 0xcc, sizeof tiles);
    struct kfd_ioctl_get_tile_config_args tc = { .tile_config_ptr = (uint64_t)(uintptr_t)tiles,
                                                 .macro_tile_config_ptr =
                                                     (uint64_t)(uintptr_t)macro,
                                                 .num_tile_configs = 40,
                                                 .num_macro_tile_configs = 20,
                                                 .gpu_id = 1 };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_GET_TILE_CONFIG, &tc), -EINVAL);
    tc.gpu_id = r.gpu_id;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_GET_TILE_CONFIG, &tc), 0);
    ck_assert_uint_eq(tc.num_tile_configs, 32);
    ck_assert_uint_eq(tc.num_macro_tile_configs, 16);
    ck_assert_uint_ne(tc.gb_addr_config, 0);
    ck_assert_uint_eq(tiles[31], 0);
    ck_assert_uint_eq(tiles[32], 0xccccccccu);
    tc.tile_config_ptr = 8;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_GET_TILE_CONFIG, &tc), -EFAULT);
    ck_assert_uint_eq(tc.num_tile_configs, 0);
    /* P8: clock counters of a gpu id without a device: success, GPU counter 0 */
    struct kfd_ioctl_get_clock_counters_args cc = { .gpu_id = 1 };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_GET_CLOCK_COUNTERS, &cc), 0);
    ck_assert_uint_eq(cc.gpu_clock_counter, 0);
    ck_assert_uint_ne(cc.cpu_clock_counter, 0);
    ck_assert_uint_eq(cc.system_clock_freq, 1000000000u);
    /* P13: available memory */
    struct kfd_ioctl_get_available_memory_args am = { .gpu_id = 1 };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_AVAILABLE_MEMORY, &am), -EINVAL);
    am.gpu_id = r.gpu_id;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_AVAILABLE_MEMORY, &am), 0);
    uint64_t before = am.available;
    uint64_t va;
    uint64_t h = alloc_at(&r, 1 << 20, KFD_IOC_ALLOC_MEM_FLAGS_VRAM, &va);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_AVAILABLE_MEMORY, &am), 0);
    ck_assert_uint_eq(am.available, before - (1 << 20));
    struct kfd_ioctl_free_memory_of_gpu_args fr = { .handle = h };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr), 0);
    /* P14, P16: XNACK */
    struct kfd_ioctl_set_xnack_mode_args x = { .xnack_enabled = -1 };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SET_XNACK_MODE, &x), 0);
    ck_assert_int_eq(x.xnack_enabled, 0);
    x.xnack_enabled = 1;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SET_XNACK_MODE, &x), -EPERM);
    x.xnack_enabled = 0;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SET_XNACK_MODE, &x), 0);
    /* P17: SMI events: an fd that polls quiet */
    struct kfd_ioctl_smi_events_args smi = { .gpuid = 1 };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SMI_EVENTS, &smi), -EINVAL);
    smi.gpuid = r.gpu_id;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SMI_EVENTS, &smi), 0);
    struct pollfd pfd = { .fd = (int)smi.anon_fd, .events = POLLIN };
    ck_assert_int_eq(poll(&pfd, 1, 0), 0);
    uint64_t mask = 1;
    ck_assert_int_eq(write((int)smi.anon_fd, &mask, sizeof mask), (int)sizeof mask);
    close((int)smi.anon_fd);
    rig_close(&r);
}
END_TEST

/* A compute queue's buffers on the rig, sized as the node wants them. */
typedef struct qbufs {
    uint64_t ring, ptrs, eop, ctx; /* handles */
    uint64_t ring_va, ptrs_va, eop_va, ctx_va;
} qbufs;

static void qbufs_make(rig *r, qbufs *b, uint64_t ring_size)
{
    b->ring = buffer(r, ring_size, &b->ring_va);
    b->ptrs = buffer(r, 4096, &b->ptrs_va);
    b->eop = buffer(r, r->info.eop_buffer_size, &b->eop_va);
    b->ctx = buffer(r, (uint64_t)r->info.cwsr_size + r->info.debug_memory_size, &b->ctx_va);
}

static void qbufs_free(rig *r, qbufs *b)
{
    release(r, b->ring);
    release(r, b->ptrs);
    release(r, b->eop);
    release(r, b->ctx);
}

static struct kfd_ioctl_create_queue_args queue_args(rig *r, const qbufs *b, uint32_t ring_size)
{
    struct kfd_ioctl_create_queue_args q = { 0 };
    q.gpu_id = r->gpu_id;
    q.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE;
    q.queue_percentage = 100;
    q.queue_priority = 7;
    q.ring_base_address = b->ring_va;
    q.ring_size = ring_size;
    q.read_pointer_address = b->ptrs_va;
    q.write_pointer_address = b->ptrs_va + 8;
    q.eop_buffer_address = b->eop_va;
    q.eop_buffer_size = r->info.eop_buffer_size;
    q.ctx_save_restore_address = b->ctx_va;
    q.ctx_save_restore_size = r->info.cwsr_size;
    q.ctl_stack_size = r->info.ctl_stack_size;
    return q;
}

static void destroy_queue(rig *r, uint32_t id)
{
    struct kfd_ioctl_destroy_queue_args d = { .queue_id = id };
    ck_assert_int_eq(io(r, AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
}

/* create_queue_rules' table: a rule of docs/kfd.md, how it breaks good arguments (for ring
 * buffers of 8192 bytes), and the errno. */
typedef struct create_rule {
    const char *what;
    void (*bad)(struct kfd_ioctl_create_queue_args *q, const rig *r, const qbufs *b);
    int err;
} create_rule;

#define BAD(name, body)                                                                         \
    static void bad_##name(struct kfd_ioctl_create_queue_args *q, const rig *r, const qbufs *b) \
    {                                                                                           \
        (void)r, (void)b;                                                                       \
        body;                                                                                   \
    }
/* Q1, Q2 (the percentage's upper bits are the PM4 target XCC) */
BAD(percentage, q->queue_percentage = 0x165)
BAD(priority, q->queue_priority = 16)
/* Q3: addresses above the user address space */
BAD(rptr_kernel, q->read_pointer_address = 0xffff800000000000ull)
BAD(ctx_kernel, q->ctx_save_restore_address = 0xffffffffffff0000ull)
/* Q4 */
BAD(ring_not_pow2, q->ring_size = 8192 + 4096)
/* Q5: an unknown type is ENOTSUPP (524), before the gpu is looked up */
BAD(type, (q->queue_type = 7, q->gpu_id = 1))
/* Q6 */
BAD(gpu, q->gpu_id = 1)
/* Q9: write and read pointers at the start of a one-page buffer */
BAD(wptr_inside, q->write_pointer_address = b->ring_va + 4096)
BAD(wptr_two_pages, q->write_pointer_address = b->ring_va)
BAD(rptr_unmapped, q->read_pointer_address = r->next)
/* Q10: the ring's buffer is exactly ring_size */
BAD(ring_size, q->ring_size = 4096)
BAD(ring_inside, q->ring_base_address = b->ring_va + 4096)
/* Q11 */
BAD(eop_size, q->eop_buffer_size = 2048)
/* Q12, Q13 */
BAD(ctl_stack, q->ctl_stack_size += 4096)
/* libhsakmt 5.2.3's gfx11 size (VGPR 0x40000 per CU instead of 0x60000) */
BAD(cwsr_hsakmt, q->ctx_save_restore_size = r->info.ctl_stack_size + 96 * 0x55000)
/* Q14: the context-save buffer is exactly ALIGN(cwsr + debug, page) */
BAD(ctx_buffer, q->ctx_save_restore_address = b->eop_va)
#undef BAD

static const create_rule create_rules[] = {
    { "Q1 percentage", bad_percentage, -EINVAL },
    { "Q2 priority", bad_priority, -EINVAL },
    { "Q3 read pointer", bad_rptr_kernel, -EFAULT },
    { "Q3 context save", bad_ctx_kernel, -EFAULT },
    { "Q4 ring size", bad_ring_not_pow2, -EINVAL },
    { "Q5 type", bad_type, -524 },
    { "Q6 gpu id", bad_gpu, -EINVAL },
    { "Q9 write pointer inside a buffer", bad_wptr_inside, -EINVAL },
    { "Q9 write pointer in a two-page buffer", bad_wptr_two_pages, -EINVAL },
    { "Q9 read pointer unmapped", bad_rptr_unmapped, -EINVAL },
    { "Q10 ring buffer size", bad_ring_size, -EINVAL },
    { "Q10 ring inside a buffer", bad_ring_inside, -EINVAL },
    { "Q11 EOP size", bad_eop_size, -EINVAL },
    { "Q12 control stack size", bad_ctl_stack, -EINVAL },
    { "Q13 context-save size", bad_cwsr_hsakmt, -EINVAL },
    { "Q14 context-save buffer", bad_ctx_buffer, -EINVAL },
};

START_TEST(create_queue_rules)
{
    rig r;
    rig_open(&r, 1);
    qbufs b;
    qbufs_make(&r, &b, 8192);
    struct kfd_ioctl_create_queue_args q = queue_args(&r, &b, 8192);
    q.queue_percentage = 0x164; /* Q1: 100%, the upper bits (the PM4 target XCC) ignored */
    q.queue_priority = 15;      /* Q2: the highest */
    /* Each row breaks one argument of good ones; the others stay good. */
    for (size_t i = 0; i < sizeof create_rules / sizeof create_rules[0]; i++) {
        struct kfd_ioctl_create_queue_args bad = q;
        create_rules[i].bad(&bad, &r, &b);
        ck_assert_msg(io(&r, AMDKFD_IOC_CREATE_QUEUE, &bad) == create_rules[i].err,
                      "%s: expected %d", create_rules[i].what, create_rules[i].err);
    }
    /* all good; an EOP buffer is optional */
    q.eop_buffer_address = 0;
    q.eop_buffer_size = 0;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q), 0);
    uint32_t id = q.queue_id;
    /* M24: a live queue's buffers stay mapped */
    ck_assert_int_eq(map(&r, b.ring, 0), -EBUSY);
    ck_assert_int_eq(map(&r, b.ptrs, 0), -EBUSY);
    ck_assert_int_eq(map(&r, b.ctx, 0), -EBUSY);
    ck_assert_int_eq(map(&r, b.eop, 0), 0); /* not given to the queue */
    ck_assert_int_eq(map(&r, b.eop, 1), 0);
    /* P15, P19: XNACK and RUNTIME_ENABLE refuse a process with queues */
    struct kfd_ioctl_set_xnack_mode_args x = { .xnack_enabled = 0 };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_SET_XNACK_MODE, &x), -EBUSY);
    struct runtime_enable_args re = { .mode_mask = 1 };
    ck_assert_int_eq(io(&r, IOC_RUNTIME_ENABLE, &re), -EEXIST);
    destroy_queue(&r, id);
    /* Q19 */
    struct kfd_ioctl_destroy_queue_args d = { .queue_id = id };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_DESTROY_QUEUE, &d), -EINVAL);
    /* Q4: a ring under 1 KiB is clamped to it (and then only the buffer's start is checked) */
    q.ring_size = 0;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q), 0);
    ck_assert_uint_eq(q.ring_size, 1024);
    destroy_queue(&r, q.queue_id);
    /* Q17: AQL (an emulator limit) */
    q.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE_AQL;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q), -EOPNOTSUPP);
    qbufs_free(&r, &b);
    rig_close(&r);
}
END_TEST

/* Q8, Q16 on a GPU of `arch` with `engines` SDMA engines (2 on the dGPUs, 1 on the APUs:
 * kfd_device.c, amdgpu's sdma.num_instances); Q13 with the node's own context-save sizes. */
static void sdma_rules_on(const char *arch, uint32_t engines)
{
    rig r;
    rig_open_arch(&r, 1, 0, arch);
    qbufs b;
    qbufs_make(&r, &b, 4096);
    /* Q8: SDMA_BY_ENG_ID (KFD 1.17's 96-byte structure) names one of the engines */
    unsigned char q96[96];
    struct kfd_ioctl_create_queue_args q = queue_args(&r, &b, 4096);
    q.queue_type = 4;
    memset(q96, 0, sizeof q96);
    memcpy(q96, &q, sizeof q);
    uint32_t eng = engines;
    memcpy(q96 + 88, &eng, 4);
    unsigned long cq96 = _IOWR('K', 0x02, unsigned char[96]);
    ck_assert_int_eq(io(&r, cq96, q96), -EINVAL);
    eng = engines - 1;
    memcpy(q96 + 88, &eng, 4);
    ck_assert_int_eq(io(&r, cq96, q96), 0);
    memcpy(&q, q96, sizeof q);
    destroy_queue(&r, q.queue_id);
    /* Q16: engines x 6 queues, then ENOMEM */
    q.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;
    uint32_t ids[12];
    for (uint32_t i = 0; i < engines * 6; i++) {
        ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q), 0);
        ids[i] = q.queue_id;
    }
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q), -ENOMEM);
    for (uint32_t i = 0; i < engines * 6; i++)
        destroy_queue(&r, ids[i]);
    /* Q13: the node's cwsr_size is taken, a gfx1100's is not (unless this is one) */
    q = queue_args(&r, &b, 4096);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q), 0);
    destroy_queue(&r, q.queue_id);
    q.ctx_save_restore_size = 40960 + 96 * 0x75000;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q),
                     r.info.cwsr_size == q.ctx_save_restore_size ? 0 : -EINVAL);
    if (r.info.cwsr_size == q.ctx_save_restore_size)
        destroy_queue(&r, q.queue_id);
    qbufs_free(&r, &b);
    rig_close(&r);
}

START_TEST(sdma_queue_rules)
{
    sdma_rules_on(NULL, 2);
    sdma_rules_on("gfx1151", 1);
    sdma_rules_on("gfx1201", 2);
}
END_TEST

START_TEST(update_queue_rules)
{
    rig r;
    rig_open(&r, 1);
    qbufs b;
    qbufs_make(&r, &b, 4096);
    uint64_t ring2_va;
    uint64_t ring2 = buffer(&r, 8192, &ring2_va);
    struct kfd_ioctl_create_queue_args q = queue_args(&r, &b, 4096);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q), 0);
    struct kfd_ioctl_update_queue_args u = { .queue_id = q.queue_id,
                                             .ring_base_address = ring2_va,
                                             .ring_size = 8192,
                                             .queue_percentage = 100,
                                             .queue_priority = 7 };
    /* Q20 */
    u.queue_percentage = 101;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_UPDATE_QUEUE, &u), -EINVAL);
    u.queue_percentage = 100;
    u.queue_priority = 16;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_UPDATE_QUEUE, &u), -EINVAL);
    u.queue_priority = 7;
    u.ring_size = 3000;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_UPDATE_QUEUE, &u), -EINVAL);
    /* Q22: the new ring must be a GPU-mapped buffer of exactly its size */
    u.ring_size = 4096;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_UPDATE_QUEUE, &u), -EFAULT);
    u.ring_size = 8192;
    /* Q21 */
    u.queue_id = q.queue_id + 1;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_UPDATE_QUEUE, &u), -EFAULT);
    u.queue_id = q.queue_id;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_UPDATE_QUEUE, &u), 0);
    /* the queue holds the new ring, not the old one */
    ck_assert_int_eq(map(&r, ring2, 0), -EBUSY);
    ck_assert_int_eq(map(&r, b.ring, 0), 0);
    ck_assert_int_eq(map(&r, b.ring, 1), 0);
    /* Q23: no ring: the queue is inactive (checked with a packet in tests/kfd cp) */
    u.ring_base_address = 0;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_UPDATE_QUEUE, &u), 0);
    ck_assert_int_eq(map(&r, ring2, 0), 0);
    destroy_queue(&r, q.queue_id);
    struct kfd_ioctl_free_memory_of_gpu_args f = { .handle = ring2 };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), 0);
    qbufs_free(&r, &b);
    rig_close(&r);
}
END_TEST

START_TEST(inactive_queue_is_not_run)
{
    /* Q23: a compute queue whose ring UPDATE_QUEUE took away is not served by the CP;
     * giving it back resumes it */
    rig r;
    rig_open(&r, 1);
    qbufs b;
    qbufs_make(&r, &b, 4096);
    uint64_t data_va;
    uint64_t data = buffer(&r, 4096, &data_va);
    struct kfd_ioctl_create_queue_args q = queue_args(&r, &b, 4096);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q), 0);
    struct kfd_ioctl_update_queue_args u = {
        .queue_id = q.queue_id, .ring_base_address = 0, .ring_size = 4096, .queue_percentage = 100
    };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_UPDATE_QUEUE, &u), 0);
    void *db;
    ck_assert_int_eq(r.os->mmap(r.os->ctx, NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, r.kfd,
                                q.doorbell_offset & ~8191ull, &db),
                     0);
    /* WRITE_DATA of 0x1234 to data (PM4 type 3, opcode 0x37, memory, write confirm) */
    uint32_t *ring = (uint32_t *)(uintptr_t)b.ring_va;
    const uint32_t pkt[] = { 0xC0033700u, (5u << 8) | (1u << 20), (uint32_t)data_va,
                             (uint32_t)(data_va >> 32), 0x1234 };
    memcpy(ring, pkt, sizeof pkt);
    volatile uint64_t *wptr = (volatile uint64_t *)(uintptr_t)(b.ptrs_va + 8);
    *wptr = 5;
    volatile uint64_t *bell = (volatile uint64_t *)((char *)db + (q.doorbell_offset & 8191));
    __atomic_store_n(bell, 5, __ATOMIC_RELEASE);
    volatile uint32_t *out = (volatile uint32_t *)(uintptr_t)data_va;
    usleep(50000);
    ck_assert_uint_eq(*out, 0); /* not run */
    u.ring_base_address = b.ring_va;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_UPDATE_QUEUE, &u), 0);
    for (int i = 0; i < 2000 && *out != 0x1234; i++)
        usleep(1000);
    ck_assert_uint_eq(*out, 0x1234);
    destroy_queue(&r, q.queue_id);
    ck_assert_int_eq(r.os->munmap(r.os->ctx, db, 8192), 0);
    release(&r, data);
    qbufs_free(&r, &b);
    rig_close(&r);
}
END_TEST

START_TEST(runtime_enable_rules)
{
    rig r;
    rig_open(&r, 1);
    struct runtime_enable_args re = { .mode_mask = 1 };
    ck_assert_int_eq(io(&r, IOC_RUNTIME_ENABLE, &re), 0);
    ck_assert_int_eq(io(&r, IOC_RUNTIME_ENABLE, &re), -EBUSY); /* P18 */
    re.mode_mask = 0;
    ck_assert_int_eq(io(&r, IOC_RUNTIME_ENABLE, &re), 0); /* P20 */
    re.mode_mask = 1;
    ck_assert_int_eq(io(&r, IOC_RUNTIME_ENABLE, &re), 0);
    rig_close(&r);
    /* P20, P1: the Linux 6.1 model has no RUNTIME_ENABLE and reports KFD 1.11 */
    rig_open_cfg(&r, 1, 1);
    ck_assert_int_eq(io(&r, IOC_RUNTIME_ENABLE, &re), -ENOTTY);
    ck_assert_int_eq(io(&r, _IOWR('K', 0x24, struct kfd_ioctl_get_version_args), &re), -ENOTTY);
    struct kfd_ioctl_get_version_args v;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_GET_VERSION, &v), 0);
    ck_assert_uint_eq(v.minor_version, 11);
    rig_close(&r);
}
END_TEST

START_TEST(kernel_model_from_the_environment)
{
    /* RDX_EMU_KERNEL selects the kernel modelled (P1) */
    rdx_emudev *dev;
    setenv("RDX_EMU_KERNEL", "5.4", 1);
    ck_assert_int_eq(rdx_emudev_create(NULL, &dev), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "RDX_EMU_KERNEL='5.4'"));
    setenv("RDX_EMU_KERNEL", "6.1", 1);
    ck_assert_int_eq(rdx_emudev_create(NULL, &dev), RDX_OK);
    unsetenv("RDX_EMU_KERNEL");
    const rdx_os *os = rdx_emudev_os(dev);
    int kfd = os->open(os->ctx, "/dev/kfd", O_RDWR);
    struct kfd_ioctl_get_version_args v;
    ck_assert_int_eq(os->ioctl(os->ctx, kfd, AMDKFD_IOC_GET_VERSION, &v), 0);
    ck_assert_uint_eq(v.minor_version, 11);
    char props[8192];
    size_t len;
    ck_assert_int_eq(os->read_file(os->ctx,
                                   "/sys/devices/virtual/kfd/kfd/topology/nodes/1/properties",
                                   props, sizeof props, &len),
                     0);
    ck_assert_ptr_null(strstr(props, "cwsr_size"));
    ck_assert_int_eq(os->close(os->ctx, kfd), 0);
    rdx_emudev_destroy(dev);
}
END_TEST

START_TEST(legacy_kernel_takes_any_queue_buffers)
{
    /* the Linux 6.1 model has no kfd_queue_acquire_buffers: a context-save size other than
     * the current kernel's (libhsakmt 5.2.3's for gfx11) and buffers of other sizes pass */
    rig r;
    rig_open_cfg(&r, 1, 1);
    qbufs b;
    qbufs_make(&r, &b, 8192);
    struct kfd_ioctl_create_queue_args q = queue_args(&r, &b, 4096);
    q.ctx_save_restore_size = q.ctl_stack_size + 96 * 0x55000;
    q.write_pointer_address = b.ring_va + 4096;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q), 0);
    ck_assert_int_eq(map(&r, b.ctx, 0), 0); /* no queue references either */
    ck_assert_int_eq(map(&r, b.ctx, 1), 0);
    destroy_queue(&r, q.queue_id);
    qbufs_free(&r, &b);
    rig_close(&r);
}
END_TEST

START_TEST(memory_rules)
{
    rig r;
    rig_open(&r, 1);
    uint64_t va = r.next;
    struct kfd_ioctl_alloc_memory_of_gpu_args a = {
        .va_addr = va, .size = 4096, .gpu_id = r.gpu_id, .flags = KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL
    };
    /* M4, M5 */
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), -EINVAL);
    a.flags = KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP;
    a.size = 8192;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), -EINVAL);
    /* M6: no domain; VRAM wins over GTT */
    a.flags = RDX_KFD_ALLOC_WRITABLE;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), -EINVAL);
    struct kfd_ioctl_get_available_memory_args am = { .gpu_id = r.gpu_id };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_AVAILABLE_MEMORY, &am), 0);
    a.flags = KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_VRAM;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
    uint64_t avail = am.available;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_AVAILABLE_MEMORY, &am), 0);
    ck_assert_uint_eq(am.available, avail - 8192);
    struct kfd_ioctl_free_memory_of_gpu_args f = { .handle = a.handle };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), 0);
    /* M7 */
    a.flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR;
    a.mmap_offset = 0;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), -EINVAL);
    /* M9 */
    ck_assert_int_eq(io(&r, AMDKFD_IOC_AVAILABLE_MEMORY, &am), 0);
    a.flags = KFD_IOC_ALLOC_MEM_FLAGS_VRAM;
    a.size = am.available + 4096;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), -ENOMEM);
    /* M21: VRAM without a VA is allocated, but cannot be mapped; an unaligned VA neither */
    a.size = 8192;
    a.va_addr = 0;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
    ck_assert_int_eq(map(&r, a.handle, 1), -EINVAL);
    f.handle = a.handle;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), 0);
    a.va_addr = va + 512;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
    ck_assert_int_eq(map(&r, a.handle, 1), -EINVAL);
    f.handle = a.handle;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), 0);
    /* M22: mapping twice is no error */
    uint64_t bva;
    uint64_t h = buffer(&r, 4096, &bva);
    ck_assert_int_eq(map(&r, h, 1), 0);
    /* M17, M19, M19: the handle's gpu, then the handle */
    ck_assert_int_eq(map(&r, h ^ (1ull << 40), 1), -EINVAL);
    ck_assert_int_eq(map(&r, h + 1000, 1), -ENOMEM);
    ck_assert_int_eq(map(&r, h + 1000, 0), -ENOMEM);
    /* M13 */
    f.handle = h + 1000;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), -EINVAL);
    release(&r, h);
    rig_close(&r);
    /* M3, M18: no VM */
    rig_open(&r, 0);
    a.va_addr = r.next;
    a.flags = KFD_IOC_ALLOC_MEM_FLAGS_GTT;
    a.gpu_id = r.gpu_id;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), -ENODEV);
    rig_close(&r);
}
END_TEST

START_TEST(mmio_remap_hdp_flush)
{
    /* M5, M11, K1, K3: the HDP flush page: allocated as MMIO_REMAP (one page), mapped
     * through /dev/kfd at the returned offset, written by the CPU; a GPU mapping too */
    rig r;
    rig_open(&r, 1);
    uint64_t va = r.next;
    struct kfd_ioctl_alloc_memory_of_gpu_args a = { .va_addr = va,
                                                    .size = 4096,
                                                    .gpu_id = r.gpu_id,
                                                    .flags = KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP |
                                                             RDX_KFD_ALLOC_WRITABLE |
                                                             KFD_IOC_ALLOC_MEM_FLAGS_COHERENT };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
    ck_assert_uint_eq(a.mmap_offset, MMAP_GPU(r.gpu_id)); /* KFD_MMAP_TYPE_MMIO is 0 */
    void *p;
    ck_assert_int_eq(r.os->mmap(r.os->ctx, (void *)(uintptr_t)va, 8192, PROT_READ | PROT_WRITE,
                                MAP_SHARED | MAP_FIXED, r.kfd, a.mmap_offset, &p),
                     -EINVAL);
    ck_assert_int_eq(r.os->mmap(r.os->ctx, (void *)(uintptr_t)va, 4096, PROT_READ | PROT_WRITE,
                                MAP_SHARED | MAP_FIXED, r.kfd, MMAP_GPU(0x7777), &p),
                     -ENODEV);
    ck_assert_int_eq(r.os->mmap(r.os->ctx, (void *)(uintptr_t)va, 4096, PROT_READ | PROT_WRITE,
                                MAP_SHARED | MAP_FIXED, r.kfd, a.mmap_offset, &p),
                     0);
    ck_assert_ptr_eq(p, (void *)(uintptr_t)va);
    volatile uint32_t *hdp = p;
    hdp[0] = 1; /* HDP_MEM_FLUSH_CNTL */
    hdp[1] = 1; /* HDP_REG_FLUSH_CNTL */
    ck_assert_int_eq(map(&r, a.handle, 1), 0);
    ck_assert_int_eq(map(&r, a.handle, 0), 0);
    ck_assert_int_eq(r.os->munmap(r.os->ctx, p, 4096), 0);
    /* the VA is gone from the reservation now: re-reserve it for rig_close's munmap */
    void *again;
    ck_assert_int_eq(r.os->mmap(r.os->ctx, (void *)(uintptr_t)va, 4096, PROT_NONE,
                                MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0,
                                &again),
                     0);
    struct kfd_ioctl_free_memory_of_gpu_args f = { .handle = a.handle };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), 0);
    /* K2: the doorbell slice is 8 KiB; K4a: the events type before there is an event page */
    ck_assert_int_eq(r.os->mmap(r.os->ctx, NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, r.kfd,
                                MMAP_DOORBELL | MMAP_GPU(r.gpu_id), &p),
                     -EINVAL);
    ck_assert_int_eq(r.os->mmap(r.os->ctx, NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, r.kfd,
                                MMAP_EVENTS, &p),
                     -EINVAL);
    rig_close(&r);
}
END_TEST

static uint32_t make_event(rig *r, uint32_t type, uint64_t page)
{
    struct kfd_ioctl_create_event_args c = { .event_type = type, .event_page_offset = page };
    ck_assert_int_eq(io(r, AMDKFD_IOC_CREATE_EVENT, &c), 0);
    return c.event_id;
}

static int event_op(rig *r, unsigned long req, uint32_t id)
{
    struct kfd_ioctl_destroy_event_args a = { .event_id = id };
    return io(r, req, &a);
}

START_TEST(event_rules)
{
    rig r;
    rig_open(&r, 1);
    /* E1, E1: ids */
    uint32_t other = make_event(&r, 77, 0);
    ck_assert_uint_ge(other, 0x80000000u);
    uint32_t sig = make_event(&r, KFD_IOC_EVENT_SIGNAL, 0);
    ck_assert_uint_eq(sig, 1); /* id 0 is reserved */
    uint32_t dbg = make_event(&r, KFD_IOC_EVENT_DEBUG_EVENT, 0);
    ck_assert_uint_eq(dbg, 2);
    /* E9: only signal events are set and reset from the CPU */
    ck_assert_int_eq(event_op(&r, AMDKFD_IOC_SET_EVENT, dbg), -EINVAL);
    ck_assert_int_eq(event_op(&r, AMDKFD_IOC_RESET_EVENT, other), -EINVAL);
    ck_assert_int_eq(event_op(&r, AMDKFD_IOC_SET_EVENT, sig), 0);
    ck_assert_int_eq(event_op(&r, AMDKFD_IOC_RESET_EVENT, sig), 0);
    /* E8 */
    ck_assert_int_eq(event_op(&r, AMDKFD_IOC_SET_EVENT, 0), -EINVAL);
    ck_assert_int_eq(event_op(&r, AMDKFD_IOC_DESTROY_EVENT, 4000), -EINVAL);
    /* E2: the kernel made its own page with the first signal event: no page afterwards */
    uint64_t pva;
    uint64_t page = buffer(&r, 32768, &pva);
    struct kfd_ioctl_create_event_args c = { .event_type = KFD_IOC_EVENT_SIGNAL,
                                             .event_page_offset = page };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_EVENT, &c), -EINVAL);
    /* E7: that page has 256 slots, id 0 reserved: 255 signal events */
    uint32_t ids[255];
    ids[0] = sig, ids[1] = dbg;
    for (int i = 2; i < 255; i++)
        ids[i] = make_event(&r, KFD_IOC_EVENT_SIGNAL, 0);
    c.event_page_offset = 0;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_EVENT, &c), -ENOSPC);
    /* E12, E13, E10, E11 */
    struct kfd_event_data d[2];
    memset(d, 0, sizeof d);
    d[0].event_id = sig;
    struct kfd_ioctl_wait_events_args w = { .events_ptr = (uint64_t)(uintptr_t)d };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_WAIT_EVENTS, &w), 0);
    ck_assert_uint_eq(w.wait_result, KFD_IOC_WAIT_RESULT_COMPLETE); /* no events */
    w.num_events = 1;
    w.timeout = 0;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_WAIT_EVENTS, &w), 0);
    ck_assert_uint_eq(w.wait_result, KFD_IOC_WAIT_RESULT_TIMEOUT);
    d[0].event_id = 3999;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_WAIT_EVENTS, &w), -EINVAL);
    ck_assert_uint_eq(w.wait_result, KFD_IOC_WAIT_RESULT_FAIL);
    w.events_ptr = 16;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_WAIT_EVENTS, &w), -EFAULT);
    w.events_ptr = (uint64_t)(uintptr_t)d;
    /* E16 */
    w.num_events = 1u << 20;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_WAIT_EVENTS, &w), -ENOMEM);
    /* E14: KFD 1.14 event age: an age other than the event's completes at once, and the
     * event's age comes back */
    w.num_events = 1;
    d[0].event_id = sig;
    ck_assert_int_eq(event_op(&r, AMDKFD_IOC_SET_EVENT, sig), 0);
    ck_assert_int_eq(event_op(&r, AMDKFD_IOC_RESET_EVENT, sig), 0);
    uint64_t age = 1;
    memcpy(&d[0].memory_exception_data, &age, 8);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_WAIT_EVENTS, &w), 0);
    ck_assert_uint_eq(w.wait_result, KFD_IOC_WAIT_RESULT_COMPLETE);
    memcpy(&age, &d[0].memory_exception_data, 8);
    ck_assert_uint_eq(age, 2);                               /* set twice (once above in E9) */
    ck_assert_int_eq(io(&r, AMDKFD_IOC_WAIT_EVENTS, &w), 0); /* the same age: waits */
    ck_assert_uint_eq(w.wait_result, KFD_IOC_WAIT_RESULT_TIMEOUT);
    for (int i = 0; i < 255; i++)
        ck_assert_int_eq(event_op(&r, AMDKFD_IOC_DESTROY_EVENT, ids[i]), 0);
    ck_assert_int_eq(event_op(&r, AMDKFD_IOC_DESTROY_EVENT, other), 0);
    release(&r, page);
    rig_close(&r);
}
END_TEST

START_TEST(event_page_rules)
{
    rig r;
    rig_open(&r, 1);
    uint64_t pva, uva;
    uint64_t page = buffer(&r, 32768, &pva);
    /* E3, E5: the page's gpu, the handle, the kind */
    struct kfd_ioctl_create_event_args c = { .event_type = KFD_IOC_EVENT_SIGNAL,
                                             .event_page_offset = page ^ (3ull << 40) };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_EVENT, &c), -EINVAL);
    c.event_page_offset = page + 100;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_EVENT, &c), -EINVAL);
    void *user = mmap((void *)(uintptr_t)r.next, 32768, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    ck_assert_ptr_ne(user, MAP_FAILED);
    struct kfd_ioctl_alloc_memory_of_gpu_args ua = { .va_addr = r.next,
                                                     .mmap_offset = r.next,
                                                     .size = 32768,
                                                     .gpu_id = r.gpu_id,
                                                     .flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &ua), 0);
    uva = r.next;
    r.next += 65536;
    c.event_page_offset = ua.handle;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_EVENT, &c), -EINVAL); /* userptr */
    c.event_page_offset = page;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_EVENT, &c), 0);
    ck_assert_uint_eq(c.event_id, 1);
    /* M12: the event page cannot be freed */
    ck_assert_int_eq(map(&r, page, 0), 0);
    struct kfd_ioctl_free_memory_of_gpu_args f = { .handle = page };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), -EPERM);
    /* E7: with a 32 KiB page, ids 1 .. 4095 */
    uint32_t n = 1;
    struct kfd_ioctl_create_event_args more = { .event_type = KFD_IOC_EVENT_SIGNAL };
    while (io(&r, AMDKFD_IOC_CREATE_EVENT, &more) == 0)
        n++;
    ck_assert_uint_eq(n, 4095);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_EVENT, &more), -ENOSPC);
    (void)uva;
    f.handle = ua.handle;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), 0);
    /* closing the device releases events and the page */
    ck_assert_int_eq(r.os->munmap(r.os->ctx, r.va, 64 << 20), 0);
    ck_assert_int_eq(r.os->close(r.os->ctx, r.drm), 0);
    ck_assert_int_eq(r.os->close(r.os->ctx, r.kfd), 0);
    assert_device_empty(r.dev);
    rdx_emudev_destroy(r.dev);
}
END_TEST

START_TEST(second_gpu_without_vm)
{
    /* M18: mapping to a GPU the process has no VM on; E4: an event page whose gpu has none */
    rdx_emudev_config cfg = { .num_gpus = 2 };
    rdx_emudev *dev;
    ck_assert_int_eq(rdx_emudev_create(&cfg, &dev), RDX_OK);
    const rdx_os *os = rdx_emudev_os(dev);
    int kfd = os->open(os->ctx, "/dev/kfd", O_RDWR);
    int drm = os->open(os->ctx, "/dev/dri/renderD128", O_RDWR);
    rdx_kfd_topology *t;
    ck_assert_int_eq(rdx_kfd_topology_read(os, &t), RDX_OK);
    uint32_t g0 = t->gpus[0].gpu_id, g1 = t->gpus[1].gpu_id;
    rdx_kfd_topology_free(t);
    struct kfd_ioctl_acquire_vm_args vm = { .drm_fd = (uint32_t)drm, .gpu_id = g0 };
    ck_assert_int_eq(os->ioctl(os->ctx, kfd, AMDKFD_IOC_ACQUIRE_VM, &vm), 0);
    void *va;
    ck_assert_int_eq(os->mmap(os->ctx, NULL, 1 << 20, PROT_NONE,
                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0, &va),
                     0);
    struct kfd_ioctl_alloc_memory_of_gpu_args a = { .va_addr = (uint64_t)(uintptr_t)va,
                                                    .size = 32768,
                                                    .gpu_id = g0,
                                                    .flags = KFD_IOC_ALLOC_MEM_FLAGS_GTT };
    ck_assert_int_eq(os->ioctl(os->ctx, kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
    uint32_t ids[2] = { g0, g1 };
    struct kfd_ioctl_map_memory_to_gpu_args m = { .handle = a.handle,
                                                  .device_ids_array_ptr = (uint64_t)(uintptr_t)ids,
                                                  .n_devices = 2 };
    ck_assert_int_eq(os->ioctl(os->ctx, kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m), -ENODEV);
    ck_assert_uint_eq(m.n_success, 1);
    struct kfd_ioctl_create_event_args c = { .event_type = KFD_IOC_EVENT_SIGNAL,
                                             .event_page_offset = ((uint64_t)g1 << 32) | 1 };
    ck_assert_int_eq(os->ioctl(os->ctx, kfd, AMDKFD_IOC_CREATE_EVENT, &c), -ENODEV);
    ck_assert_int_eq(os->munmap(os->ctx, va, 1 << 20), 0);
    ck_assert_int_eq(os->close(os->ctx, drm), 0);
    ck_assert_int_eq(os->close(os->ctx, kfd), 0);
    assert_device_empty(dev);
    rdx_emudev_destroy(dev);
}
END_TEST

START_TEST(queue_and_page_limits)
{
    /* Q15: 1024 queues per process (buffers may be shared between queues) */
    rig r;
    rig_open(&r, 1);
    qbufs b;
    qbufs_make(&r, &b, 4096);
    struct kfd_ioctl_create_queue_args q = queue_args(&r, &b, 4096);
    for (int i = 0; i < 1024; i++)
        ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q), 0);
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q), -ENOMEM);
    for (uint32_t i = 0; i < 1024; i++)
        destroy_queue(&r, i);
    /* E6: an event page smaller than 32 KiB (the emulator's rule) */
    uint64_t pva;
    uint64_t small = buffer(&r, 4096, &pva);
    struct kfd_ioctl_create_event_args c = { .event_type = KFD_IOC_EVENT_SIGNAL,
                                             .event_page_offset = small };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_EVENT, &c), -EINVAL);
    release(&r, small);
    qbufs_free(&r, &b);
    rig_close(&r);
    /* Q18: on the 6.1 model the ring must still be GPU-mapped for the emulated CP */
    rig_open_cfg(&r, 1, 1);
    qbufs_make(&r, &b, 4096);
    q = queue_args(&r, &b, 4096);
    q.ring_base_address = r.next;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_CREATE_QUEUE, &q), -EINVAL);
    qbufs_free(&r, &b);
    rig_close(&r);
}
END_TEST

START_TEST(reservation_survives_partial_unmap)
{
    /* a client that reserves more VA than it needs and unmaps the ends to align it (libhsakmt's
     * aperture allocation) keeps the middle reserved: buffers can be placed there */
    rig r;
    rig_open(&r, 1);
    void *p;
    ck_assert_int_eq(r.os->mmap(r.os->ctx, NULL, 3 << 16, PROT_NONE,
                                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0, &p),
                     0);
    char *c = p;
    ck_assert_int_eq(r.os->munmap(r.os->ctx, c, 1 << 16), 0);
    ck_assert_int_eq(r.os->munmap(r.os->ctx, c + (2 << 16), 1 << 16), 0);
    ck_assert_int_eq(r.os->munmap(r.os->ctx, c + (1 << 16) + 4096, 4096), 0); /* a hole */
    struct kfd_ioctl_alloc_memory_of_gpu_args a = { .va_addr = (uint64_t)(uintptr_t)(c + (1 << 16)),
                                                    .size = 4096,
                                                    .gpu_id = r.gpu_id,
                                                    .flags = KFD_IOC_ALLOC_MEM_FLAGS_GTT };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
    struct kfd_ioctl_free_memory_of_gpu_args f = { .handle = a.handle };
    ck_assert_int_eq(io(&r, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), 0);
    a.va_addr += 8192; /* after the hole */
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
    f.handle = a.handle;
    ck_assert_int_eq(io(&r, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), 0);
    a.va_addr -= 4096; /* the hole is not reserved any more */
    ck_assert_int_eq(io(&r, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), -EINVAL);
    ck_assert_int_eq(r.os->munmap(r.os->ctx, c + (1 << 16), 4096), 0);
    ck_assert_int_eq(r.os->munmap(r.os->ctx, c + (1 << 16) + 8192, (1 << 16) - 8192), 0);
    rig_close(&r);
}
END_TEST

TCase *kfd_tcase_rules(void)
{
    TCase *tc = tcase_create("rules");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, dispatch_by_number);
    tcase_add_test(tc, process_ioctls);
    tcase_add_test(tc, create_queue_rules);
    tcase_add_test(tc, sdma_queue_rules);
    tcase_add_test(tc, update_queue_rules);
    tcase_add_test(tc, inactive_queue_is_not_run);
    tcase_add_test(tc, runtime_enable_rules);
    tcase_add_test(tc, kernel_model_from_the_environment);
    tcase_add_test(tc, legacy_kernel_takes_any_queue_buffers);
    tcase_add_test(tc, memory_rules);
    tcase_add_test(tc, mmio_remap_hdp_flush);
    tcase_add_test(tc, event_rules);
    tcase_add_test(tc, event_page_rules);
    tcase_add_test(tc, reservation_survives_partial_unmap);
    tcase_add_test(tc, second_gpu_without_vm);
    tcase_add_test(tc, queue_and_page_limits);
    return tc;
}
