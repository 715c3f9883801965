/*
 * emu/dev/emudev.h — internals of the emulated GPU's kernel-driver model.
 *
 * One mutex (dev->lock) guards all state; the command processor thread holds
 * it while it executes packets and drops it between passes.
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
#define EMU_MMAP_GPU_ID_SHIFT  46
#define EMU_MMAP_GPU_ID(id)    (((uint64_t)(id) & 0xffffull) << EMU_MMAP_GPU_ID_SHIFT)

/* gfx1100 (Navi 31) shape. */
#define EMU_GFX_TARGET_VERSION 110000u
#define EMU_SIMD_PER_CU        2u
#define EMU_CU_COUNT           96u
#define EMU_ARRAY_COUNT        12u /* shader arrays: 6 SEs x 2 */
#define EMU_ARRAYS_PER_ENGINE  2u
#define EMU_CU_PER_ARRAY       8u
#define EMU_RENDER_MINOR_BASE  128u
/* NBIO 4.3 (Navi 31) BIF_BX_PF0_GPU_HDP_FLUSH_REQ / _DONE: NBIO_BASE segment 2 (0xd20)
 * + 0x106 / 0x107, dword register offsets. */
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
    uint32_t flags;    /* KFD_IOC_ALLOC_MEM_FLAGS_* */
    uint64_t pool_off; /* backing offset in the pool memfd (not for USERPTR) */
    uint64_t mmap_offset;
    int gpu_mapped; /* mapped to its GPU */
    int cpu_at_va;  /* the client mmapped it at va */
    int backed;     /* pool memory is mapped at va */
    int released;   /* the client munmapped va while the GPU still had it mapped */
    int pool;       /* RDX_OS_MEM_POOL: only its extents are allocated */
    emu_extent *extents;
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
    /* DESTROY_QUEUE (or the teardown of the process / device) is waiting for
     * the queue's running dispatch: atomic, also the wave emulator's cancel
     * flag (rdx_emu_dispatch.cancel), so a hung dispatch stops promptly. */
    int destroying;
    uint32_t sh_regs[EMU_SH_REG_COUNT];
    uint32_t *uconfig_regs; /* the UCONFIG window, lazily allocated */
    size_t ib_pos[4];       /* resume points inside nested indirect buffers */
    uint32_t *linear;       /* ring_size bytes, for packets that wrap around the ring */
} emu_queue;

typedef struct emu_event {
    uint32_t id, type, auto_reset, signaled;
    int used;
    struct kfd_hsa_memory_exception_data mem;
    struct kfd_hsa_hw_exception_data hw;
} emu_event;

typedef struct emu_gpu {
    uint32_t gpu_id, render_minor;
    uint64_t vram_used;
    uint64_t doorbell_off;       /* pool offset of the doorbell slice */
    volatile uint64_t *doorbell; /* the emulator's own view of it */
    int vm_fd;                   /* render fd given to ACQUIRE_VM, or -1 */
    struct rdx_emu *emu;         /* the wave emulator of this GPU */
} emu_gpu;

typedef struct emu_inject {
    unsigned long request;
    uint32_t remaining;
    int err;
} emu_inject;

struct rdx_emudev {
    rdx_os os;
    uint32_t num_gpus;
    uint64_t vram_size;
    int legacy_sysfs;
    emu_gpu gpus[EMU_MAX_GPUS];

    pthread_mutex_t lock;
    pthread_cond_t ev_cond;   /* an event was set */
    pthread_cond_t idle;      /* a dispatch finished */
    int dispatching;          /* a dispatch runs with the lock dropped */
    uint64_t wave_budget;     /* per-wave instruction budget (0: the emulator's default) */
    uint64_t dispatch_budget; /* per-dispatch wave-instruction budget (0: none) */
    int bounds_exact;         /* the wave emulator sees a pool's extents, not the whole BO */
    pthread_t cp_thread;
    int stop, kick;
    /* cp.c's sleep: an eventfd that kicks it, and a userfaultfd that write-protects the
     * client's doorbell mappings while it sleeps (cp_watch: 0 not opened yet, 1 in use,
     * -1 unavailable, -2 failed and still to be closed by the command processor). */
    int cp_evfd, cp_uffd, cp_watch, cp_sleeping;
    struct {
        uint64_t va, len; /* len 0: free */
    } cp_watched[EMU_MAX_WATCH];

    int pool_fd;
    uint64_t pool_next;

    emu_fd_kind fds[EMU_MAX_FDS];
    uint32_t fd_gpu[EMU_MAX_FDS];

    emu_bo *bos;
    uint32_t next_idr;
    uint64_t next_mmap_offset;
    emu_reservation *reservations;

    emu_queue *queues[EMU_MAX_QUEUES];
    emu_event *events;    /* EMU_MAX_EVENTS: [0,4096) signal ids, then non-signal */
    uint64_t *event_page; /* host view of the event page slots, or NULL */
    emu_bo *event_page_bo;
    uint64_t internal_page[KFD_SIGNAL_EVENT_LIMIT]; /* when no client page was given */
    uint32_t next_nonsignal;

    emu_inject inject[EMU_MAX_INJECT];
    rdx_emudev_stats stats;
    char last_error[2560]; /* a hang report with its PC histogram fits */
};

/* device.c */
/* Wait (lock held) until no dispatch runs: before anything that changes
 * mappings or queues the wave emulator may be using. */
void emu_wait_idle(rdx_emudev *dev);
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
uint32_t emu_ctl_stack_size(void);
uint32_t emu_cwsr_size(void);
uint32_t emu_debug_memory_size(void);
#define EMU_EOP_BUFFER_SIZE 4096u

/* mem.c */
int emu_ioctl_mem(rdx_emudev *dev, unsigned long request, void *arg);
int emu_mmap(rdx_emudev *dev, void *addr, size_t len, int prot, int flags, int fd, uint64_t off,
             void **out);
int emu_munmap(rdx_emudev *dev, void *addr, size_t len);
emu_bo *emu_bo_by_handle(rdx_emudev *dev, uint64_t handle);
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

/* drm.c */
int emu_ioctl_drm(rdx_emudev *dev, uint32_t gpu, unsigned long request, void *arg);

/* cp.c */
void *emu_cp_main(void *arg);
/* Wake the command processor for a pass over the queues (lock held). */
void emu_cp_kick(rdx_emudev *dev);
/* The client mapped doorbell pages at [va, va+len) (lock held): a store there wakes the
 * sleeping command processor. */
void emu_cp_watch_doorbells(rdx_emudev *dev, uint64_t va, uint64_t len);
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

/* exec_pm4.c, exec_sdma.c: run a queue until it caught up (1), blocked (0) or failed (-1). */
int emu_pm4_run(rdx_emudev *dev, emu_queue *q, uint64_t wptr);
int emu_sdma_run(rdx_emudev *dev, emu_queue *q, uint64_t wptr);

#endif /* RDX_EMU_DEV_EMUDEV_H */
