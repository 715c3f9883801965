/*
 * emu/dev/emudev.h — internals of the emulated GPU's kernel-driver model.
 *
 * One mutex (dev->lock) guards all state; each GPU's command processor thread holds
 * it while it executes packets and drops it between passes and while a dispatch runs.
 */
#ifndef RDX_EMU_DEV_EMUDEV_H
#define RDX_EMU_DEV_EMUDEV_H

#include <pthread.h>
#include <stdint.h>

#include <linux/kfd_ioctl.h>

#include <rdx/emudev.h>

#define EMU_PAGE             4096ull
#define EMU_MAX_GPUS         8
#define EMU_MAX_FDS          64
#define EMU_FD_BASE          1000
#define EMU_MAX_QUEUES       1024 /* KFD_MAX_NUM_OF_QUEUES_PER_PROCESS */
#define EMU_DOORBELL_SLICE   8192 /* 1024 doorbells of 8 bytes (gfx9+) */
#define EMU_MAX_EVENTS       8192
#define EMU_UNSIGNALED_SLOT  UINT64_MAX
#define EMU_NONSIGNAL_ID     0x80000000u /* first id of non-signal events */
#define EMU_MAX_INJECT       16
#define EMU_MAX_WATCH        32 /* client mappings of doorbell pages the CP watches */
#define EMU_SH_REG_BASE      0x2c00u
#define EMU_SH_REG_COUNT     0x400u
#define EMU_POOL_SIZE        (1ull << 40)
#define EMU_DRM_OFFSET_START (0x100000ull << 12) /* DRM_FILE_PAGE_OFFSET_START */

/* The kernel's mmap offset encoding for /dev/kfd (kfd_priv.h, not uapi). */
#define EMU_MMAP_TYPE_SHIFT    62
#define EMU_MMAP_TYPE_MASK     (0x3ull << EMU_MMAP_TYPE_SHIFT)
#define EMU_MMAP_TYPE_DOORBELL (0x3ull << EMU_MMAP_TYPE_SHIFT)
#define EMU_MMAP_TYPE_EVENTS   (0x2ull << EMU_MMAP_TYPE_SHIFT)
#define EMU_MMAP_TYPE_RESERVED (0x1ull << EMU_MMAP_TYPE_SHIFT)
#define EMU_MMAP_TYPE_MMIO     (0x0ull << EMU_MMAP_TYPE_SHIFT)
#define EMU_MMAP_GPU_ID_SHIFT  46
#define EMU_MMAP_GPU_ID(id)    (((uint64_t)(id) & 0xffffull) << EMU_MMAP_GPU_ID_SHIFT)
#define EMU_MMAP_GET_GPU_ID(o) ((uint32_t)(((o) >> EMU_MMAP_GPU_ID_SHIFT) & 0xffffull))

/* The KFD ioctl ABI of the modelled kernel (amdkfd of Linux 6.12+, KFD 1.17) beyond the 1.11
 * <linux/kfd_ioctl.h> of this system: the ioctls added since, the CREATE_QUEUE fields of 1.17,
 * the signal event age of 1.14.  Structures as the current uapi header lays them out. */
#define EMU_KFD_MINOR_CURRENT 17u
#define EMU_KFD_MINOR_LEGACY  11u /* Linux 6.1 (RDX_EMU_KERNEL=6.1) */
struct emu_kfd_runtime_enable_args {
    uint64_t r_debug;
    uint32_t mode_mask;
    uint32_t capabilities_mask;
};
#define EMU_RUNTIME_ENABLE_MODE_ENABLE_MASK 1u
#define EMU_IOC_EXPORT_DMABUF \
    _IOWR(AMDKFD_IOCTL_BASE, 0x24, struct kfd_ioctl_free_memory_of_gpu_args)
#define EMU_IOC_RUNTIME_ENABLE _IOWR(AMDKFD_IOCTL_BASE, 0x25, struct emu_kfd_runtime_enable_args)
#define EMU_IOC_DBG_TRAP_NR    0x26u
#define EMU_KFD_COUNT_CURRENT  0x27u /* AMDKFD_CORE_IOCTL_COUNT: ioctl numbers 1 .. 0x26 */
#define EMU_KFD_COUNT_LEGACY   0x24u /* Linux 6.1: 1 .. 0x23 (AVAILABLE_MEMORY) */
/* CREATE_QUEUE of KFD 1.17: the 1.11 structure + sdma_engine_id + pad (96 bytes). */
struct emu_create_queue_args {
    struct kfd_ioctl_create_queue_args base;
    uint32_t sdma_engine_id;
    uint32_t pad;
};
#define EMU_IOC_CREATE_QUEUE       _IOWR(AMDKFD_IOCTL_BASE, 0x02, struct emu_create_queue_args)
#define EMU_QUEUE_TYPE_SDMA_BY_ENG 4u
#define EMU_SDMA_QUEUES_PER_ENGINE 6u  /* num_sdma_queues_per_engine */
#define EMU_ENOTSUPP               524 /* the kernel's ENOTSUPP, as user space receives it */

/* One chip the emulated GPU can be (target.c holds the table; docs/kfd.md "Emulated
 * targets" cites the sources). */
typedef struct emu_target {
    const char *name;      /* LLVM processor, "gfx1100" */
    const char *chip;      /* "Navi 31" */
    const char *marketing; /* a product with that chip, "Radeon RX 7900 XTX" */
    uint32_t gfx_target_version;
    uint8_t gc[3], sdma[3], nbio[3]; /* IP discovery versions (major, minor, revision) */
    uint32_t sdma_engines;
    uint32_t device_id, revision; /* PCI */
    uint32_t shader_engines, arrays_per_engine, cu_per_array;
    uint32_t vgprs_per_simd; /* 1536 or 1024 */
    uint32_t waves_per_simd, lds_kb;
    uint32_t l2_kb, l3_kb; /* L3: the Infinity Cache (MALL), 0 when none */
    uint32_t max_clk_mhz, mem_clk_mhz, mem_width;
    uint64_t local_mem; /* VRAM (dGPU) or the carve-out (APU) when the config gives none */
    int apu;            /* an APU: the GPU shares the CPU's memory (gfx115x) */
} emu_target;

const emu_target *emu_target_find(const char *name); /* NULL if not modelled */
const emu_target *emu_target_at(uint32_t i);         /* i-th row, NULL past the end */
uint32_t emu_target_cus(const emu_target *t);
/* Parse a target list ("gfx1100" for every GPU or "gfx1100,gfx1201" one per GPU; NULL or ""
 * means gfx1100) into out[0..num_gpus-1]; `what` names the source in messages. */
rdx_status emu_target_parse(const char *what, const char *spec, uint32_t num_gpus,
                            const emu_target **out);
#define EMU_SIMD_PER_CU       2u /* RDNA: two SIMD32 per CU */
#define EMU_RENDER_MINOR_BASE 128u
/* NBIO 4.3 (Navi 31) BIF_BX_PF0_GPU_HDP_FLUSH_REQ / _DONE: NBIO_BASE segment 2 (0xd20)
 * + 0x106 / 0x107, dword register offsets. */
/* GB_ADDR_CONFIG: NUM_PIPES 5 (32), PIPE_INTERLEAVE 256 B, NUM_PKRS 5 — a plausible gfx11
 * value, not read off a card (AMDGPU_INFO READ_MMR_REG, GET_TILE_CONFIG). */
#define EMU_GB_ADDR_CONFIG 0x00000545u
#define EMU_HDP_FLUSH_REQ  0xe26u
#define EMU_HDP_FLUSH_DONE 0xe27u

typedef enum emu_fd_kind { EMU_FD_FREE, EMU_FD_KFD, EMU_FD_RENDER } emu_fd_kind;

/* An allocation inside a pool buffer object (RDX_OS_MEM_ALLOC notes). */
typedef struct emu_extent {
    struct emu_extent *next;
    uint64_t addr, size;
    char *label;
} emu_extent;

typedef struct emu_bo {
    struct emu_bo *next;
    uint64_t handle; /* gpu_id << 32 | idr */
    uint32_t gpu;    /* index */
    uint64_t va, size;
    uint32_t flags;      /* KFD_IOC_ALLOC_MEM_FLAGS_* */
    uint64_t pool_off;   /* backing offset in the pool memfd (not for USERPTR) */
    uint32_t queue_refs; /* live queues using it (kfd_queue_acquire_buffers): unmap is EBUSY */
    uint64_t mmap_offset;
    int gpu_mapped; /* mapped to its GPU */
    int cpu_at_va;  /* the client mmapped it at va */
    int backed;     /* pool memory is mapped at va */
    int released;   /* the client munmapped va while the GPU still had it mapped */
    int pool;       /* RDX_OS_MEM_POOL: only its extents are allocated */
    emu_extent *extents;
    /* amdgpu GEM objects (emu/dev/drm_gem.c), when gem != 0: the render fd owning the handle */
    int gem_fd;
    uint32_t gem;          /* GEM handle (0: a KFD buffer object or a kernel ring) */
    uint32_t gem_flags;    /* AMDGPU_GEM_CREATE_* */
    uint32_t gem_va_flags; /* AMDGPU_VM_PAGE_* of its mapping */
} emu_bo;

typedef struct emu_reservation {
    struct emu_reservation *next;
    uint64_t start, len;
} emu_reservation;

/* Per-queue PM4 state the command processor keeps. */
typedef struct emu_queue {
    uint32_t id, gpu, type;
    uint64_t ring, ring_size; /* bytes */
    uint64_t rptr_addr, wptr_addr;
    uint32_t doorbell_index; /* 64-bit slot in the gpu's doorbell slice */
    uint64_t rptr;           /* dwords (PM4) or bytes (SDMA), unwrapped */
    int error;
    int inactive; /* UPDATE_QUEUE with no ring (or 0 %): the CP does not run it */
    uint32_t percent;
    emu_bo *bufs[5]; /* ring, rptr, wptr, EOP, context-save buffers it holds (or NULL) */
    /* DESTROY_QUEUE (or the teardown of the process / device) is waiting for
     * the queue's running dispatch: atomic, also the wave emulator's cancel
     * flag (rdx_emu_dispatch.cancel), so a hung dispatch stops promptly. */
    int destroying;
    int kernel; /* a kernel ring of the DRM path (drm_cs.c): not the process's KFD queue */
    uint32_t sh_regs[EMU_SH_REG_COUNT];
    uint32_t *uconfig_regs; /* the UCONFIG window, lazily allocated */
    size_t ib_pos[4];       /* resume points inside nested indirect buffers */
    uint32_t *linear;       /* ring_size bytes, for packets that wrap around the ring */
} emu_queue;

typedef struct emu_event {
    uint32_t id, type, auto_reset, signaled;
    uint64_t age; /* times set (KFD 1.14 event age) */
    int used;
    struct kfd_hsa_memory_exception_data mem;
    struct kfd_hsa_hw_exception_data hw;
} emu_event;

/* A GPU's command processor (cp.c): the thread that serves the GPU's queues, and its sleep:
 * an eventfd that kicks it, and a userfaultfd that write-protects the client's mappings of
 * the GPU's doorbell page while it sleeps (watch: 0 not opened yet, 1 in use, -1
 * unavailable, -2 failed and still to be closed by the thread).  Guarded by dev->lock. */
typedef struct emu_cp {
    struct rdx_emudev *dev;
    uint32_t gpu; /* the index of the GPU it serves */
    pthread_t thread;
    int started;
    int kick, sleeping;
    int evfd, uffd, watch;
    struct {
        uint64_t va, len; /* len 0: free */
    } watched[EMU_MAX_WATCH];
} emu_cp;

typedef struct emu_gpu {
    uint32_t gpu_id, render_minor;
    uint64_t vram_size; /* the configuration's, else the target's local memory */
    uint64_t vram_used;
    uint64_t doorbell_off;       /* pool offset of the doorbell slice */
    uint64_t mmio_off;           /* pool offset of the HDP flush (MMIO_REMAP) page */
    volatile uint64_t *doorbell; /* the emulator's own view of it */
    int vm_fd;                   /* render fd given to ACQUIRE_VM, or -1 */
    int vm_file_closed;          /* that fd was closed since: the VM still holds the file */
    struct rdx_emu *emu;         /* the wave emulator of this GPU (NULL: not for this target) */
    const emu_target *t;         /* the chip it is */
    char emu_error[160];         /* why there is no wave emulator */
    struct emu_perf *perf;       /* perf counters and thread trace (perf.c), lazily */
    emu_cp cp;                   /* its command processor */
    int dispatching;             /* its dispatch runs with the lock dropped (0 or 1) */
    int idle_waiters;            /* threads waiting for it to be idle (emu_wait_gpus_idle) */
} emu_gpu;

/* ---- the amdgpu DRM submission path (emu/dev/drm_gem.c, drm_cs.c) ---- */
#define EMU_DRM_COMPUTE_RINGS 4 /* entities per context (amdgpu_ctx_num_entities) */
#define EMU_DRM_SDMA_RINGS    2
#define EMU_DRM_RING_BYTES    (64u << 10)
#define EMU_DRM_HANDLE_TAG    (1ull << 63) /* emu_bo.handle of GEM objects: never a KFD handle */

/* One CS job on a kernel ring. */
typedef struct emu_drm_job {
    struct emu_drm_job *next;
    int fd;
    uint32_t ctx, kind, ring; /* kind: 0 compute, 1 dma, 2 gfx */
    uint64_t seq;             /* the context entity's sequence number (what CS returns) */
    uint64_t kseq;            /* the kernel ring's fence value that completes it */
    uint64_t ib, ib_dw;
    uint64_t ring_at;     /* where its IB packet starts in the ring (unwrapped, the ring's units) */
    uint32_t syncobj_out; /* handle signalled when it completes (0: none) */
} emu_drm_job;

/* A kernel ring (gfx compute or SDMA) of one GPU: a queue the command processor serves like a
 * user queue, whose packets the driver writes (INDIRECT_BUFFER + fence), as amdgpu's rings. */
typedef struct emu_kring {
    emu_queue *q;
    emu_bo *bo;                /* ring | rptr, wptr, fence page */
    uint32_t *ring;            /* the driver's view */
    volatile uint64_t *fence;  /* last completed kseq (written by the ring's end-of-pipe packet) */
    uint64_t wptr;             /* dwords (PM4) or bytes (SDMA), unwrapped */
    uint64_t kseq;             /* last emitted */
    emu_drm_job *jobs, **tail; /* not yet retired, in ring order */
    uint64_t head_since_ns;    /* when the oldest job became the head */
    int kind;                  /* 0 compute, 1 SDMA, 2 gfx */
} emu_kring;

typedef struct emu_drm_ctx {
    struct emu_drm_ctx *next;
    int fd;
    uint32_t id, gpu;
    int guilty;
    uint32_t reset_counter;                       /* the device's when created */
    uint64_t seq[3][EMU_DRM_COMPUTE_RINGS];       /* [compute, dma, gfx][ring]: last handed out */
    uint64_t lost_from[3][EMU_DRM_COMPUTE_RINGS]; /* first sequence dropped by a reset (0: none) */
    uint64_t hung[3][EMU_DRM_COMPUTE_RINGS];      /* the sequence that hung or faulted (0: none) */
} emu_drm_ctx;

typedef struct emu_drm_bolist {
    struct emu_drm_bolist *next;
    int fd;
    uint32_t id, n;
    uint32_t *handles;
} emu_drm_bolist;

typedef struct emu_drm_syncobj {
    struct emu_drm_syncobj *next;
    int fd;
    uint32_t handle;
    int signaled, pending; /* a job will signal it */
} emu_drm_syncobj;

typedef struct emu_drm {
    emu_drm_ctx *ctxs;
    emu_drm_bolist *lists;
    emu_drm_syncobj *syncobjs;
    uint32_t next_id, next_gem;
    uint32_t reset_counter;  /* bumped by every ring reset */
    uint64_t job_timeout_ns; /* a job at a ring's head longer than this is a hang */
    emu_kring rings[EMU_MAX_GPUS][3][EMU_DRM_COMPUTE_RINGS];
} emu_drm;

typedef struct emu_inject {
    unsigned long request;
    uint32_t remaining;
    int err;
} emu_inject;

struct rdx_emudev {
    rdx_os os;
    uint32_t num_gpus;
    int legacy_sysfs;          /* a Linux 6.1 kernel (KFD 1.11): see rdx_emudev_config */
    uint32_t runtime_enabled;  /* RUNTIME_ENABLE state of the process */
    int smi_fds[EMU_MAX_GPUS]; /* the driver's end of SMI event fds handed out, or -1 */
    emu_gpu gpus[EMU_MAX_GPUS];

    pthread_mutex_t lock;
    pthread_cond_t ev_cond;   /* an event was set */
    pthread_cond_t idle;      /* a dispatch finished, or no thread waits for idle any more */
    int dispatching;          /* dispatches running with the lock dropped (one per GPU at most) */
    uint64_t wave_budget;     /* per-wave instruction budget (0: the emulator's default) */
    uint64_t dispatch_budget; /* per-dispatch wave-instruction budget (0: none) */
    int bounds_exact;         /* the wave emulator sees a pool's extents, not the whole BO */
    int stop;                 /* the command processors end (teardown) */

    int pool_fd;
    uint64_t pool_next;

    emu_fd_kind fds[EMU_MAX_FDS];
    uint32_t fd_gpu[EMU_MAX_FDS];

    emu_bo *bos;
    uint32_t next_idr;
    uint64_t next_mmap_offset;
    emu_reservation *reservations;

    emu_queue *queues[EMU_MAX_QUEUES];
    emu_event *events;      /* EMU_MAX_EVENTS: [0,4096) signal ids, then non-signal */
    uint64_t *event_page;   /* host view of the event page slots, or NULL */
    uint32_t event_slots;   /* slots of that page signal events may use (ids below it) */
    uint32_t signal_events; /* live signal events + 1 (id 0 is reserved, as in the kernel) */
    emu_bo *event_page_bo;
    /* The kernel's own event page when no client page was given (KFD_SIGNAL_EVENT_LIMIT
     * slots at pool offset internal_off, so that mmap of /dev/kfd at KFD_MMAP_TYPE_EVENTS
     * shares it with the client as kfd_event_mmap does). */
    uint64_t *internal_page;
    uint64_t internal_off;
    uint32_t next_nonsignal;

    emu_inject inject[EMU_MAX_INJECT];
    emu_drm drm;
    rdx_emudev_stats stats;
    char last_error[2560]; /* a hang report with its PC histogram fits */
};

/* device.c */
/* Wait (lock held) until no dispatch runs: before anything that changes
 * mappings or queues the wave emulator may be using. */
void emu_wait_idle(rdx_emudev *dev);
/* The same for the dispatches of the GPUs in `mask` only (bit g: GPU g; EMU_ALL_GPUS: every
 * GPU), before a change that only their command processors could be using (their queues,
 * their GPU mappings). */
void emu_wait_gpus_idle(rdx_emudev *dev, uint32_t mask);
int emu_fd_kind_of(rdx_emudev *dev, int fd, uint32_t *gpu);
int emu_gpu_by_id(rdx_emudev *dev, uint32_t gpu_id); /* index or -1 */
void emu_set_error(rdx_emudev *dev, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* uaccess.c: 0 or -EFAULT, like the kernel's copy_{from,to}_user. */
int emu_copy_from_user(void *dst, uint64_t src, size_t n);
int emu_copy_to_user(uint64_t dst, const void *src, size_t n);

/* sysfs_ip.c: the IP discovery table under /sys/class/drm/renderD<m>/device/ip_discovery. */
int emu_sysfs_ip_read(rdx_emudev *dev, const char *path, char *buf, size_t cap, size_t *len);
int emu_sysfs_ip_list(rdx_emudev *dev, const char *path, rdx_os_dir_fn fn, void *user);
/* sysfs.c: the KFD topology (other paths go to sysfs_ip.c) */
int emu_sysfs_read(rdx_emudev *dev, const char *path, char *buf, size_t cap, size_t *len);
int emu_sysfs_list(rdx_emudev *dev, const char *path, rdx_os_dir_fn fn, void *user);
/* sysfs_link.c: io_links and p2p_links of node `node` (rest: the path after nodes/<n>). */
uint32_t emu_sysfs_link_count(const rdx_emudev *dev, uint32_t node, int p2p);
int emu_sysfs_link_read(rdx_emudev *dev, uint32_t node, const char *rest, char *buf, size_t cap,
                        size_t *len);
int emu_sysfs_link_list(rdx_emudev *dev, uint32_t node, const char *rest, rdx_os_dir_fn fn,
                        void *user);
/* The queue context-save sizes KFD computes for a node of target t (kfd_queue.c). */
uint32_t emu_ctl_stack_size(const emu_target *t);
uint32_t emu_cwsr_size(const emu_target *t);
uint32_t emu_debug_memory_size(const emu_target *t);
#define EMU_EOP_BUFFER_SIZE 4096u

/* queue.c, mem.c: the GPUs (a mask, as emu_wait_gpus_idle's) whose dispatches a queue or
 * memory ioctl must wait for (EMU_ALL_GPUS when its arguments cannot be read). */
uint32_t emu_queue_ioctl_gpus(rdx_emudev *dev, unsigned long request, const void *arg);
uint32_t emu_mem_ioctl_gpus(rdx_emudev *dev, unsigned long request, const void *arg);
/* mem.c: the GPUs that map memory in [start, start+len) (a munmap there changes what they see). */
uint32_t emu_range_gpus(rdx_emudev *dev, uint64_t start, uint64_t len);
/* ioctl.c: a KFD ioctl on a /dev/kfd fd, as kfd_ioctl dispatches it (lock held). */
int emu_kfd_ioctl(rdx_emudev *dev, unsigned long request, void *user_arg);
/* Whether the process has a VM on gpu index g (ACQUIRE_VM done). */
int emu_vm_bound(rdx_emudev *dev, uint32_t g);
/* The SMI event fds' driver ends are closed (process teardown). */
void emu_smi_release_all(rdx_emudev *dev);

/* mem.c */
int emu_ioctl_mem(rdx_emudev *dev, unsigned long request, void *arg);
int emu_mmap(rdx_emudev *dev, void *addr, size_t len, int prot, int flags, int fd, uint64_t off,
             void **out);
int emu_munmap(rdx_emudev *dev, void *addr, size_t len);
emu_bo *emu_bo_by_handle(rdx_emudev *dev, uint64_t handle);
/* mem.c, for KFD's buffers and the DRM path's GEM objects alike: a new buffer object of gpu g
 * in `domain` (one KFD_IOC_ALLOC_MEM_FLAGS_* domain bit: pool memory, its mmap offset, VRAM
 * accounted) or NULL (out of memory); making the pool pages present at b->va exactly while a
 * GPU or the client maps it there (0 or -errno; -EINVAL: the VA is not the client's
 * reservation); freeing one (its mappings, backing, pool pages); whether [va, va+len) is VA
 * the client reserved. */
emu_bo *emu_bo_new(rdx_emudev *dev, uint32_t g, uint64_t size, uint32_t domain);
int emu_bo_update_backing(rdx_emudev *dev, emu_bo *b);
void emu_bo_free(rdx_emudev *dev, emu_bo *b);
int emu_reserved(rdx_emudev *dev, uint64_t va, uint64_t len);
/* The GPU-mapped buffer of gpu `gpu` holding [va, va+len), or NULL. */
emu_bo *emu_bo_find(rdx_emudev *dev, uint32_t gpu, uint64_t va, uint64_t len);
/* Whether va is a byte gpu's wave emulator may read but not write (of a
 * GPU-mapped read-only buffer object; of one of its allocations when it is a
 * pool and bounds are exact): a faulting write there is a read-only fault,
 * every other VM fault one of a page not present. */
int emu_gpu_read_only_at(rdx_emudev *dev, uint32_t gpu, uint64_t va);
/* A memory note (rdx_os.mem_note), with the lock held and no dispatch running. */
int emu_mem_note(rdx_emudev *dev, rdx_os_mem_op op, uint64_t addr, uint64_t size,
                 const char *label);
/* Free every buffer object (and forget the VA reservations when asked). */
void emu_mem_release_all(rdx_emudev *dev, int reservations_too);
/* The last /dev/kfd fd was closed: drop queues, events and buffers. */
void emu_process_teardown(rdx_emudev *dev);

/* queue.c */
int emu_ioctl_queue(rdx_emudev *dev, unsigned long request, void *arg);
/* Queues of the process (RUNTIME_ENABLE refuses to start with some). */
uint32_t emu_queue_count(rdx_emudev *dev);
/* Before DESTROY_QUEUE waits for a running dispatch: mark the queue (args of
 * DESTROY_QUEUE; an unknown id is ignored) so that dispatch ends without a
 * fault report, as KFD preempts a destroyed queue's waves silently. */
void emu_queue_mark_destroying(rdx_emudev *dev, const void *arg);
/* Mark every queue destroying: the process or the device goes away. */
void emu_queue_cancel_all(rdx_emudev *dev);
void emu_queue_release_all(rdx_emudev *dev);
void emu_event_release_all(rdx_emudev *dev);

/* event.c */
int emu_ioctl_event(rdx_emudev *dev, unsigned long request, void *arg);
/* An interrupt with context id `ctxid` of `valid_bits` significant bits. */
void emu_event_interrupt(rdx_emudev *dev, uint32_t ctxid, uint32_t valid_bits);
void emu_event_memory_fault(rdx_emudev *dev, uint32_t gpu, uint64_t va, int write, int present);
void emu_event_hw_exception(rdx_emudev *dev, uint32_t gpu);
/* Drop the driver's view of a client event page. */
void emu_event_page_release(rdx_emudev *dev);
/* mmap of /dev/kfd at KFD_MMAP_TYPE_EVENTS (kfd_event_mmap): the process's event page. */
int emu_event_mmap(rdx_emudev *dev, void *addr, size_t len, int prot, int flags, void **out);

/* drm.c: the render node's ioctls (fd: the render fd, for objects it owns) */
int emu_ioctl_drm(rdx_emudev *dev, int fd, uint32_t gpu, unsigned long request, void *arg);
/* drm_gem.c: GEM_CREATE, GEM_MMAP, GEM_VA, GEM_CLOSE, BO_LIST */
int emu_drm_gem_ioctl(rdx_emudev *dev, int fd, uint32_t gpu, unsigned long request, void *arg);
emu_bo *emu_drm_gem_lookup(rdx_emudev *dev, int fd, uint32_t handle);
/* Free the GEM objects and BO lists of render fd `fd` (every fd when fd < 0). */
void emu_drm_gem_release(rdx_emudev *dev, int fd);
/* drm_cs.c: CTX, CS, WAIT_CS, WAIT_FENCES, SYNCOBJ_* (may drop the lock while waiting) */
int emu_drm_cs_ioctl(rdx_emudev *dev, int fd, uint32_t gpu, unsigned long request, void *arg);
/* Free the contexts and sync objects of render fd `fd` (every fd and the kernel rings when
 * fd < 0). */
void emu_drm_cs_release(rdx_emudev *dev, int fd);
/* The kernel rings' jobs touching GEM objects must be done or dropped before they go. */
void emu_drm_release_all(rdx_emudev *dev);

/* cp.c */
/* Start (lock not held) and stop (lock not held; dev->stop set) every GPU's command processor. */
int emu_cp_start(rdx_emudev *dev);
void emu_cp_join(rdx_emudev *dev);
#define EMU_ALL_GPUS UINT32_MAX
/* Wake GPU g's command processor (every GPU's: EMU_ALL_GPUS) for a pass over its queues
 * (lock held). */
void emu_cp_kick(rdx_emudev *dev, uint32_t g);
/* The client mapped GPU g's doorbell pages at [va, va+len) (lock held): a store there wakes
 * that GPU's sleeping command processor. */
void emu_cp_watch_doorbells(rdx_emudev *dev, uint32_t g, uint64_t va, uint64_t len);
/* Pointer to [va, va+len) of gpu `gpu` if mapped (and writable when `write`),
 * else NULL after raising a memory fault and failing the queue. */
void *emu_cp_access(rdx_emudev *dev, emu_queue *q, uint64_t va, uint64_t len, int write);
void emu_queue_fail(rdx_emudev *dev, emu_queue *q, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
uint64_t emu_gpu_clock(void);
/* The n pending dwords of q's ring from dword `start` as one array (copied
 * to q->linear when they wrap around the end), or NULL after failing q. */
const uint32_t *emu_ring_pending(rdx_emudev *dev, emu_queue *q, size_t start, size_t n);
/* Advance q's read pointer by `by` (dwords for PM4, bytes for SDMA) and
 * publish it at the client's read-pointer address. */
void emu_ring_advance(rdx_emudev *dev, emu_queue *q, uint64_t by);
/* The comparison `func` of WAIT_REG_MEM (RDX_PM4_V_WAIT_FUNC_*) and SDMA
 * POLL_REGMEM (RDX_PM4_V_SDMA_FUNC_*, the same encoding) of v against ref:
 * 1 true, 0 false, -1 a reserved function. */
int emu_wait_compare(uint32_t func, uint64_t v, uint64_t ref);

/* A 64-bit GPU address from the packet's low and high dwords. */
static inline uint64_t emu_addr64(uint32_t lo, uint32_t hi)
{
    return (uint64_t)hi << 32 | lo;
}

/* dispatch.c: DISPATCH_DIRECT of dim x/y/z workgroups on the wave emulator
 * with the queue's shadow registers: 1 done, -1 failed (fault raised). */
int emu_dispatch(rdx_emudev *dev, emu_queue *q, uint32_t x, uint32_t y, uint32_t z,
                 uint32_t initiator);
/* The wave emulator instance of gpu `gpu` follows the buffer mappings. */
void emu_gpu_map_notify(rdx_emudev *dev, emu_bo *b, uint32_t gpu, int mapped);

/* perf.c: the GPU's SQ/GRBM performance counters and SQ thread trace registers
 * (docs/prof.md "On the queue").  Writes and reads of registers it serves: 1 served,
 * 0 not one of its registers (the caller uses the queue's shadow registers). */
int emu_perf_write(rdx_emudev *dev, emu_queue *q, uint32_t reg, uint32_t val);
int emu_perf_read(rdx_emudev *dev, emu_queue *q, uint32_t reg, uint32_t *val);
/* EVENT_WRITE of event type `ev`: THREAD_TRACE_FINISH starts the trace's flush. */
void emu_perf_event(rdx_emudev *dev, emu_queue *q, uint32_t ev);
/* Around a dispatch: whether it is counted or traced (then it runs with profiling on),
 * and the accounting after it ran (counters, the trace written to the buffers):
 * 1 done, -1 failed (a fault of the trace buffer). */
int emu_perf_dispatch_begin(rdx_emudev *dev, emu_queue *q);
int emu_perf_dispatch_end(rdx_emudev *dev, emu_queue *q, uint32_t initiator);
void emu_perf_free(struct emu_perf *p);

/* exec_pm4.c, exec_sdma.c: run a queue until it caught up (1), blocked (0) or failed (-1). */
int emu_pm4_run(rdx_emudev *dev, emu_queue *q, uint64_t wptr);
int emu_sdma_run(rdx_emudev *dev, emu_queue *q, uint64_t wptr);

#endif /* RDX_EMU_DEV_EMUDEV_H */
