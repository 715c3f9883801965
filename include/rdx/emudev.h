/*
 * rdx/emudev.h — the emulated GPU behind the kernel interface.
 *
 * An rdx_emudev is a model of the amdgpu/KFD kernel driver and of N AMD
 * cards, each of one target (gfx1100 by default; rdx_emudev_config.arch,
 * RDX_EMU_ARCH; docs/kfd.md "Emulated targets" lists the chips and their
 * topology).  rdx_emudev_os() returns an OS interface table (rdx/os.h) that
 * serves, with the exact structures and errno values of the Linux driver:
 *   - a virtual sysfs KFD topology (CPU node 0, GPU nodes 1..N);
 *   - /dev/kfd with the AMDKFD_IOC_* calls of a current kernel (docs/kfd.md,
 *     "Validation rules", lists which and every argument check), and
 *     /dev/dri/renderD<128+i> with DRM_IOCTL_AMDGPU_INFO;
 *   - mmap of buffer objects (render node) and doorbells (/dev/kfd);
 *   - memory notes (rdx_os.mem_note): in the exact bounds mode (the
 *     default) a kernel may only touch the allocations of a pool, not the
 *     rest of its buffer object.
 * GPU virtual addresses are host addresses: a buffer mapped to the GPU is
 * backed, at its GPU address, by shared memory, so the command processor and
 * the wave emulator read and write it directly.  Consequences: the GPU
 * address of VRAM/GTT memory must lie in a range the process reserved through
 * the same table (an anonymous PROT_NONE mmap), and USERPTR memory has GPU
 * address == CPU address.
 *
 * A command processor thread per GPU serves that GPU's queues (a doorbell
 * store or WAIT_EVENTS wakes it; docs/kfd.md) and executes PM4 compute
 * rings and SDMA rings; RELEASE_MEM/SDMA TRAP interrupts set KFD events;
 * faults put the queue in an error state and set memory-fault or
 * hardware-exception events.  Never crashes the host on bad packets.
 */
#ifndef RDX_EMUDEV_H
#define RDX_EMUDEV_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/os.h>
#include <rdx/status.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rdx_emudev rdx_emudev;

/* How exactly a kernel's global/scalar memory accesses are checked. */
typedef enum rdx_emudev_bounds {
    RDX_EMUDEV_BOUNDS_DEFAULT = 0, /* RDX_EMU_BOUNDS ("exact" or "block"), else exact */
    /* In a buffer object declared a pool (rdx_os.mem_note, as the runtime's
     * heaps are), only the bytes of its live allocations are accessible: an
     * access to any other byte faults, naming the nearest allocation. */
    RDX_EMUDEV_BOUNDS_EXACT = 1,
    RDX_EMUDEV_BOUNDS_BLOCK = 2, /* whole buffer objects are accessible (as on hardware) */
} rdx_emudev_bounds;

typedef struct rdx_emudev_config {
    uint32_t num_gpus;  /* 0 means 1 */
    uint64_t vram_size; /* per GPU, bytes; 0 means the chip's (24 GiB on gfx1100; see `arch`)
                           (advertised; host memory is used lazily) */
    /* Model Linux 6.1 (KFD 1.11, the kernel of libhsakmt 5.2.3's distribution) instead of a
     * current kernel (KFD 1.17): no cwsr_size/ctl_stack_size in the node properties, no
     * checks of the queue buffers (kfd_queue_acquire_buffers), no ioctls after
     * AVAILABLE_MEMORY (RUNTIME_ENABLE and later are ENOTTY).  0 here still lets
     * RDX_EMU_KERNEL=6.1 select it ("current" or unset: a current kernel). */
    int legacy_sysfs;
    uint64_t wave_budget; /* instructions a wave may run before the dispatch is
                             declared hung (0: the wave emulator's default) */
    /* Wave-instructions a whole dispatch may run (0: no limit): a dispatch
     * over it stops with a "slow dispatch: ... dispatch exceeded its budget
     * of N wave-instructions; PC histogram: ..." report (a hardware
     * exception, like a hang; rdx_emu_dispatch.dispatch_budget). */
    uint64_t dispatch_budget;
    rdx_emudev_bounds bounds; /* bounds checking of kernels' memory accesses */
    /* The GPUs' targets: one name for every GPU ("gfx1201") or one per GPU, comma-separated
     * ("gfx1100,gfx1201"); NULL or "" takes RDX_EMU_ARCH from the environment, else gfx1100.
     * The names are those of rdx_emudev_target_name.  vram_size 0 gives each GPU its chip's
     * memory (24 GiB on gfx1100; an APU's carve-out). */
    const char *arch;
} rdx_emudev_config;

/* The i-th target the emulated GPU models ("gfx1100", "gfx1101", "gfx1102", "gfx1150",
 * "gfx1151", "gfx1200", "gfx1201"), NULL past the last. */
const char *rdx_emudev_target_name(uint32_t i);

/* Check a target list as rdx_emudev_config.arch takes it for a machine of num_gpus GPUs
 * (1..8): RDX_OK, or RDX_ERR_INVALID with a message that starts with `what` (NULL: "arch";
 * e.g. "RDX_EMU_ARCH" or "--arch"), quotes the list, names the bad entry and its position
 * and lists the valid targets (or says how many targets were given for how many GPUs).
 * NULL or "" is valid (gfx1100).  RDX_ERR_RANGE for num_gpus outside 1..8. */
rdx_status rdx_emudev_check_arch(const char *what, const char *spec, uint32_t num_gpus);

/* Create an emulated driver with its cards (cfg may be NULL for defaults) and
 * start its command processor.  Free with rdx_emudev_destroy.  RDX_ERR_INVALID
 * for an RDX_EMU_BOUNDS value other than "exact" or "block", an RDX_EMU_KERNEL
 * value other than "current" or "6.1", or a bad target list (cfg->arch or RDX_EMU_ARCH;
 * rdx_emudev_check_arch).  A GPU whose target the wave emulator (rdx/emu.h) cannot run yet
 * is still created: its dispatches fail with a queue error saying so. */
rdx_status rdx_emudev_create(const rdx_emudev_config *cfg, rdx_emudev **out);

/* Stop the command processor and free everything, including what a client
 * left open (like process exit closes its fds).  NULL is a no-op. */
void rdx_emudev_destroy(rdx_emudev *dev);

/* The OS interface table of this device (valid until rdx_emudev_destroy). */
const rdx_os *rdx_emudev_os(rdx_emudev *dev);

/* Pseudo request codes for fault injection on calls that are not ioctls. */
#define RDX_EMUDEV_OP_OPEN 1ul
#define RDX_EMUDEV_OP_MMAP 2ul

/*
 * Fault injection: make the `nth` (1-based, counted from now) call of kind
 * `request` — an ioctl request code such as AMDKFD_IOC_CREATE_QUEUE, or
 * RDX_EMUDEV_OP_OPEN / RDX_EMUDEV_OP_MMAP (mmap of a device fd) — fail with
 * errno `err` (positive), without side effects.  Up to 16 pending rules;
 * RDX_ERR_RANGE when full, RDX_ERR_INVALID for nth == 0 or err <= 0.
 */
rdx_status rdx_emudev_inject(rdx_emudev *dev, unsigned long request, uint32_t nth, int err);
/* Drop all pending injection rules. */
void rdx_emudev_inject_clear(rdx_emudev *dev);
/* Number of injection rules that have not fired yet. */
uint32_t rdx_emudev_inject_pending(rdx_emudev *dev);

/* Live object counts, for leak checks in tests. */
typedef struct rdx_emudev_stats {
    uint32_t open_fds;     /* /dev/kfd and render fds open */
    uint32_t bos;          /* buffer objects allocated */
    uint32_t gpu_mapped;   /* buffer objects mapped to a GPU */
    uint32_t queues;       /* user queues */
    uint32_t events;       /* KFD events */
    uint32_t reservations; /* anonymous PROT_NONE VA reservations tracked */
    uint64_t ioctls;       /* ioctl calls served */
    uint64_t packets;      /* PM4 + SDMA packets executed */

    /* Waking the command processor (docs/kfd.md): the times its thread woke from a sleep,
     * and whether a doorbell store wakes it (1: userfaultfd write protection; 0: no doorbell
     * mapped yet, or unavailable, and the idle thread polls every 20 µs to 1 ms). */
    uint64_t cp_wakeups;
    uint32_t doorbell_watch;
    /* Dispatches running now, and the most that ever ran at once (each GPU has its own
     * command processor thread, which runs one dispatch at a time). */
    uint32_t dispatches_running;
    uint32_t dispatches_max;
} rdx_emudev_stats;

void rdx_emudev_get_stats(rdx_emudev *dev, rdx_emudev_stats *out);

/* The last queue error the command processor recorded (a packet it could
 * not execute, a GPU fault, a hang or slow-dispatch report, or where the
 * waves of a dispatch stopped by DESTROY_QUEUE were), "" if none.  Copied
 * into buf (NUL-terminated; 2560 bytes hold any report). */
void rdx_emudev_last_error(rdx_emudev *dev, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* RDX_EMUDEV_H */
