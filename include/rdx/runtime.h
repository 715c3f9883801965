/*
 * rdx/runtime.h — the API users call to run code on an AMD GPU (real or
 * emulated) with no vendor runtime: devices, buffers, programs, queues,
 * dispatches, fences, copies, recorded command buffers.
 *
 * Everything goes down one path: code objects are read by rdx/codeobj.h,
 * memory comes from the sub-allocator of rdx/alloc.h over KFD allocations,
 * command streams are built with rdx/pm4.h and submitted through the user
 * queues and doorbells of rdx/kfd.h, which reaches the OS through an
 * rdx_os table (rdx/os.h).  The emulated GPU (rdx/emudev.h) is just another
 * table: the runtime code is the same for both.
 *
 * Objects and ownership: a device owns nothing the caller created; buffers,
 * programs, queues, fences and command buffers are created from a device and
 * must be destroyed before rdx_device_close (survivors are freed with the
 * device and reported on stderr).  Every destroy accepts NULL.
 *
 * Errors: every fallible call returns rdx_status with a message
 * (rdx_error_message()).  A failing kernel call is reported by name and
 * errno ("AMDKFD_IOC_CREATE_QUEUE: Cannot allocate memory"); a GPU fault by
 * RDX_ERR_FAULT with the faulting address (and, when the device can tell,
 * the program counter and instruction); a wait that runs out of time by
 * RDX_ERR_TIMEOUT.  After a fault the queue that faulted is recreated on the
 * next submission and the device stays usable.
 *
 * Thread safety: a device, its buffers and programs may be used from any
 * thread.  Submissions to one queue are serialised by the queue's lock, so
 * several threads may dispatch to the same queue; waits never take the lock
 * for longer than a status check.
 */
#ifndef RDX_RUNTIME_H
#define RDX_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rdx/os.h>
#include <rdx/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ device */

typedef struct rdx_device rdx_device;

typedef enum rdx_device_kind {
    RDX_DEVICE_AUTO = 0, /* RDX_DEVICE=emu|kfd if set; else a supported card on /dev/kfd;
                            else the emulated GPU (with a one-line notice on stderr) */
    RDX_DEVICE_EMU,      /* the emulated GPU (rdx/emudev.h; gfx1100 unless RDX_EMU_ARCH or
                            rdx_device_options.emu_arch says), created with the device */
    RDX_DEVICE_KFD,      /* a real card through /dev/kfd */
} rdx_device_kind;

/* Extra detail about the last GPU fault (e.g. the program counter), written
 * into buf as text; "" when there is none. */
typedef void (*rdx_device_fault_detail_fn)(void *user, char *buf, size_t size);

typedef struct rdx_device_options {
    rdx_device_kind kind;
    uint32_t gpu; /* index among the GPUs the kernel interface lists */
    /* Use this OS table instead of choosing by `kind` (tests drive an
     * rdx_emudev of their own this way).  Must outlive the device. */
    const rdx_os *os;
    rdx_device_fault_detail_fn fault_detail; /* with `os`: optional */
    void *fault_detail_user;
    bool quiet; /* no notice when AUTO falls back to the emulator */
    /* When the runtime creates the emulated GPU itself (EMU, or AUTO falling
     * back; not with `os`): instructions one wave may run before its dispatch
     * is declared hung and fails with a hang fault report (PC histogram);
     * 0 = the emulator's default (2e8).  Ignored for a real card. */
    uint64_t emu_wave_budget;
    /* Likewise: bounds checking of kernels' memory accesses, a
     * rdx_emudev_bounds value (rdx/emudev.h): 0 = RDX_EMU_BOUNDS, else exact
     * (only the bytes of each buffer); 1 = exact; 2 = block (the whole 4 MiB
     * backing block, as on hardware).  Ignored for a real card. */
    uint32_t emu_bounds;
    /* Likewise, the wave-instructions one whole dispatch may run (all its
     * waves together; 0 = no limit): a dispatch over it fails (its wait
     * returns RDX_ERR_FAULT) with a "slow dispatch: ... dispatch exceeded its
     * budget of N wave-instructions; PC histogram: ..." report — a slow
     * kernel rather than a hung one.  Ignored for a real card. */
    uint64_t emu_dispatch_budget;
    /* Likewise, how many GPUs the emulated machine has (1..RDX_MAX_GPUS; 0 =
     * RDX_EMU_GPUS from the environment, else 1).  Devices of one process
     * that ask for a machine of several GPUs with the same emulator options
     * share it — one KFD process, GPU `gpu` each, as on a box of N cards —
     * so their memory is mapped into each other's GPUs (peer access).  A
     * one-GPU emulated device has a machine of its own.  Ignored for a real
     * card. */
    uint32_t emu_gpus;
    /* Likewise, the emulated GPUs' targets (rdx_emudev_config.arch: "gfx1201" for every GPU,
     * or "gfx1100,gfx1201" one per GPU; NULL or "" = RDX_EMU_ARCH, else gfx1100).  Must stay
     * valid while the device is open.  Ignored for a real card. */
    const char *emu_arch;
} rdx_device_options;

/* The most GPUs a device set (and an emulated machine) has. */
#define RDX_MAX_GPUS 8

typedef struct rdx_emudev rdx_emudev;
typedef struct rdx_kfd rdx_kfd;

/*
 * The device policy, on its own (rdx_device_open uses it; so does `rdx info`):
 * for AUTO, RDX_DEVICE=emu|kfd decides when set; otherwise a real card is
 * used when /dev/kfd lists GPU `gpu` with a target rdx drives (gfx11/gfx12),
 * else the emulated GPU, with a one-line notice on stderr unless `quiet`.
 * EMU creates an emulated device with `emu_gpus` cards (0 = 1); KFD insists
 * on a real card.  On success *kfd is the open kernel interface and *emu the
 * emulated device behind it (NULL for a real card): close with
 * rdx_kfd_close(*kfd) and then rdx_emudev_destroy(*emu).
 * Errors: RDX_ERR_INVALID (RDX_DEVICE names an unknown kind; the message
 * quotes it), RDX_ERR_NOT_FOUND / RDX_ERR_UNSUPPORTED (KFD: no such GPU, or a
 * card rdx cannot drive), the failing kernel call.  Nothing is left open.
 */
rdx_status rdx_device_select(rdx_device_kind kind, uint32_t gpu, uint32_t emu_gpus, bool quiet,
                             rdx_emudev **emu, rdx_kfd **kfd);

/*
 * Open a device (opts may be NULL: AUTO, GPU 0).  Opens the kernel
 * interface, the memory heaps, the signal page and the fault events.
 * Errors: RDX_ERR_INVALID (RDX_DEVICE names an unknown kind), RDX_ERR_NOT_FOUND (no such GPU),
 * RDX_ERR_UNSUPPORTED (a card whose target rdx cannot drive), the failing
 * kernel call.  Nothing is left open on failure.
 */
rdx_status rdx_device_open(const rdx_device_options *opts, rdx_device **out);

/*
 * Open GPUs 0..n-1 (1 <= n <= RDX_MAX_GPUS) of one machine as n devices, with
 * the options of `opts` (NULL: AUTO) but `gpu`; on the emulated GPU the
 * machine has opts->emu_gpus GPUs, else RDX_EMU_GPUS's, else n.  The devices
 * share one KFD process (all devices of a process on one machine do: KFD
 * allows one per process), and each maps its memory into the GPUs of the
 * others when the topology links them (rdx_device_can_access_peer).  Close
 * each with rdx_device_close.  Errors: those of rdx_device_open, naming the
 * GPU; nothing is left open on failure.
 */
rdx_status rdx_device_open_all(const rdx_device_options *opts, uint32_t n, rdx_device **out);

/* Whether a kernel or copy on `dev` may read and write `peer`'s buffers
 * (true for dev == peer; for two devices of one machine whose GPUs the
 * topology links: every emulated machine, a real box per its io_links and
 * p2p_links).  Then rdx_queue_copy on a copy queue of either device copies
 * between their buffers (a peer copy), a kernel on one takes the other's
 * buffers as arguments, and rdx_queue_wait_queue / rdx_queue_wait_fence
 * make a queue of one wait for a queue or fence of the other. */
bool rdx_device_can_access_peer(const rdx_device *dev, const rdx_device *peer);

/* Close the device and everything it still owns.  NULL is a no-op.  Returns
 * the first failure of a kernel call while closing (everything is released
 * anyway). */
rdx_status rdx_device_close(rdx_device *dev);

typedef struct rdx_device_info {
    char name[64];   /* marketing / sysfs name */
    char target[16]; /* the GPU's target, "gfx1100", "gfx1201", ... */
    uint32_t gfx_target_version;
    uint32_t cu_count, simd_per_cu, max_waves_per_simd, wave_size;
    uint32_t lds_kb;
    uint32_t num_sdma_engines;
    uint64_t vram_bytes;
    uint32_t timestamp_khz; /* frequency of the GPU timestamps of rdx_queue_dispatch_time */
    const char *os_name;    /* "linux" for a real card, "emu" for the emulated GPU */
    uint32_t gpu_index;     /* the GPU's index among the machine's (rdx_device_options.gpu) */
    uint32_t gpu_id;        /* its KFD gpu_id (named in fault reports: "on gpu N") */
    uint32_t gpu_count;     /* GPUs of the machine (the KFD process) the device belongs to */
} rdx_device_info;

/* The device's description (owned by the device). */
const rdx_device_info *rdx_device_get_info(const rdx_device *dev);

/* Live object counts of a device (for leak checks). */
typedef struct rdx_device_stats {
    uint32_t buffers, programs, queues, fences, cmdbufs;
    uint64_t bytes_in_use;     /* sub-allocated bytes (all heaps) */
    uint64_t bytes_backing;    /* KFD allocations held by the heaps */
    uint64_t queue_recoveries; /* queues recreated after a fault */
} rdx_device_stats;
void rdx_device_get_stats(rdx_device *dev, rdx_device_stats *out);

/* ----------------------------------------------------------------- buffers */

typedef enum rdx_mem {
    RDX_MEM_DEVICE = 0, /* device memory the CPU cannot see (uploads go through SDMA) */
    RDX_MEM_HOST = 1,   /* host memory the GPU reads and writes (CPU pointer available) */
} rdx_mem;

typedef struct rdx_buffer rdx_buffer;

/* Allocate `size` >= 1 bytes (256-byte aligned GPU address), zero-filled.
 * On the emulated GPU a kernel may touch exactly these `size` bytes (the
 * default exact bounds mode, docs/emu.md "Bounds checking"); on a real card
 * the rest of the backing block is accessible too.
 * Errors: RDX_ERR_INVALID, the failing KFD allocation. */
rdx_status rdx_buffer_alloc(rdx_device *dev, uint64_t size, rdx_mem mem, rdx_buffer **out);
/* Name the buffer in fault reports of a tool that checks GPU memory accesses
 * (the emulated GPU): an access outside it is described as, e.g., "4 bytes
 * past the end of the 16-byte <label> at 0x..." (default label "buffer";
 * `label` is copied; at most 63 bytes are kept).  No effect on a real card.
 * Errors: RDX_ERR_INVALID (NULL label), the listener's refusal. */
rdx_status rdx_buffer_set_label(rdx_buffer *buf, const char *label);
/* Free a buffer (NULL is a no-op).  The caller makes sure no queued GPU work
 * still uses it (wait first). */
void rdx_buffer_free(rdx_buffer *buf);
uint64_t rdx_buffer_gpu_addr(const rdx_buffer *buf);
uint64_t rdx_buffer_size(const rdx_buffer *buf);
/* CPU pointer (== GPU address) of RDX_MEM_HOST buffers, NULL for RDX_MEM_DEVICE. */
void *rdx_buffer_cpu(const rdx_buffer *buf);
/*
 * Copy `n` bytes between host memory and the buffer at `offset`.  Host
 * buffers are copied by the CPU; device buffers through a staging buffer and
 * an SDMA copy the call waits for (timeout 10 s).  Ordering against GPU work
 * is the caller's: wait for dispatches that write the buffer before reading.
 * Errors: RDX_ERR_RANGE (outside the buffer), copy and wait errors.
 */
rdx_status rdx_buffer_upload(rdx_buffer *buf, uint64_t offset, const void *src, uint64_t n);
rdx_status rdx_buffer_download(rdx_buffer *buf, uint64_t offset, void *dst, uint64_t n);

/* ---------------------------------------------------------------- programs */

typedef struct rdx_program rdx_program;
typedef struct rdx_kernel rdx_kernel;

/*
 * Load a code object (rdx's own or LLVM's: ld.lld-linked shared objects or
 * clang -c relocatable objects) for this device's target into GPU memory.
 * The bytes are copied.  Errors: RDX_ERR_PARSE (the message names `what`),
 * RDX_ERR_UNSUPPORTED (another target, relocations rdx cannot apply,
 * kernels not 256-byte aligned), allocation failures.
 */
rdx_status rdx_program_load(rdx_device *dev, const void *elf, size_t len, const char *what,
                            rdx_program **out);
rdx_status rdx_program_load_file(rdx_device *dev, const char *path, rdx_program **out);
/* Free a program (NULL is a no-op); no queued dispatch may still use it. */
void rdx_program_free(rdx_program *prog);

size_t rdx_program_kernel_count(const rdx_program *prog);
const rdx_kernel *rdx_program_kernel_at(const rdx_program *prog, size_t i);
/* The kernel `name`; RDX_ERR_NOT_FOUND listing the names there are. */
rdx_status rdx_program_find(const rdx_program *prog, const char *name, const rdx_kernel **out);

/* How an argument is passed. */
typedef enum rdx_arg_kind {
    RDX_ARG_BUFFER, /* a pointer: global_buffer (or an address by value) */
    RDX_ARG_VALUE,  /* bytes by value */
} rdx_arg_kind;

/* One explicit (non-hidden) kernel argument, from the metadata. */
typedef struct rdx_kernel_arg {
    const char *name;       /* may be "" */
    const char *type_name;  /* "float*", "int", ... or "" */
    const char *value_kind; /* metadata .value_kind ("global_buffer", "by_value", ...) */
    rdx_arg_kind kind;
    uint32_t offset, size; /* in the kernarg segment */
} rdx_kernel_arg;

const char *rdx_kernel_name(const rdx_kernel *k);
/* Explicit arguments (hidden ones are the runtime's). */
uint32_t rdx_kernel_arg_count(const rdx_kernel *k);
const rdx_kernel_arg *rdx_kernel_arg_at(const rdx_kernel *k, uint32_t i);
/* Whether the code object's metadata describes the kernel's arguments (else
 * they are packed with natural alignment, see rdx_arg).  Metadata that lists
 * no arguments for a non-empty kernarg segment — what an assembler writes for
 * hand-written code without .amdgpu_metadata — counts as not describing them. */
bool rdx_kernel_has_metadata(const rdx_kernel *k);
/* Wave size (32 or 64), static LDS bytes, scratch bytes per work-item. */
uint32_t rdx_kernel_wave_size(const rdx_kernel *k);
uint32_t rdx_kernel_lds_bytes(const rdx_kernel *k);
uint32_t rdx_kernel_scratch_bytes(const rdx_kernel *k);

/* ---------------------------------------------------------------- dispatch */

/* An argument value for a dispatch.  Use the constructors below. */
typedef struct rdx_arg {
    rdx_arg_kind kind;
    const rdx_buffer *buffer; /* RDX_ARG_BUFFER: address = buffer + offset */
    uint64_t offset;
    uint32_t size; /* RDX_ARG_VALUE: bytes in `bytes` (1..16) */
    union {
        uint8_t bytes[16];
        uint64_t u64;
        uint32_t u32;
        int32_t i32;
        float f32;
        double f64;
    } v;
} rdx_arg;

static inline rdx_arg rdx_arg_buffer(const rdx_buffer *b)
{
    rdx_arg a = { RDX_ARG_BUFFER, b, 0, 8, { { 0 } } };
    return a;
}
static inline rdx_arg rdx_arg_u32(uint32_t x)
{
    rdx_arg a = { RDX_ARG_VALUE, NULL, 0, 4, { { 0 } } };
    a.v.u32 = x;
    return a;
}
static inline rdx_arg rdx_arg_i32(int32_t x)
{
    rdx_arg a = { RDX_ARG_VALUE, NULL, 0, 4, { { 0 } } };
    a.v.i32 = x;
    return a;
}
static inline rdx_arg rdx_arg_u64(uint64_t x)
{
    rdx_arg a = { RDX_ARG_VALUE, NULL, 0, 8, { { 0 } } };
    a.v.u64 = x;
    return a;
}
static inline rdx_arg rdx_arg_f32(float x)
{
    rdx_arg a = { RDX_ARG_VALUE, NULL, 0, 4, { { 0 } } };
    a.v.f32 = x;
    return a;
}
static inline rdx_arg rdx_arg_f64(double x)
{
    rdx_arg a = { RDX_ARG_VALUE, NULL, 0, 8, { { 0 } } };
    a.v.f64 = x;
    return a;
}

/* One dispatch. */
typedef struct rdx_launch {
    const rdx_kernel *kernel;
    uint32_t grid[3];  /* workgroups per dimension (0 is taken as 1) */
    uint32_t block[3]; /* work-items per workgroup (0 is taken as 1) */
    /* When any is non-zero: the grid in work-items instead (OpenCL's global
     * size); the last workgroup of a dimension may be partial. */
    uint32_t global[3];
    const rdx_arg *args; /* the kernel's explicit arguments, in order */
    uint32_t nargs;
    uint32_t dynamic_lds; /* bytes of LDS added to the kernel's static LDS */
} rdx_launch;

/*
 * The arguments laid out: with metadata, each explicit argument at its .args
 * offset and size (buffers as 64-bit addresses; a value smaller than the
 * slot is zero-extended, a larger one is an error), and the hidden arguments
 * the metadata lists filled as LLVM's code object v5 expects
 * (hidden_block_count_x/y/z = full workgroups, hidden_group_size_x/y/z,
 * hidden_remainder_x/y/z, hidden_grid_dims, hidden_global_offset_* = 0, the
 * rest 0).  Without metadata, arguments are packed in order, each at its
 * natural alignment.  Writes at most `cap` bytes to `out` and the segment
 * size to *size.  Errors: RDX_ERR_INVALID naming the argument (count or
 * size mismatch, a value where a buffer is expected), RDX_ERR_RANGE.
 */
rdx_status rdx_kernel_pack_args(const rdx_kernel *k, const rdx_launch *l, void *out, size_t cap,
                                uint32_t *size);

/* ------------------------------------------------------------------ queues */

typedef struct rdx_queue rdx_queue;

typedef enum rdx_queue_kind {
    RDX_QUEUE_COMPUTE = 0, /* PM4 compute queue: dispatches, waits, signals, timestamps */
    RDX_QUEUE_COPY = 1,    /* SDMA queue: copies and fills */
} rdx_queue_kind;

/* Create a queue (its ring, kernarg ring, timeline fence and timestamp
 * slots).  Errors: the failing kernel call. */
rdx_status rdx_queue_create(rdx_device *dev, rdx_queue_kind kind, rdx_queue **out);
/* Wait (up to 10 s) for the queue's work, then destroy it.  NULL: no-op.
 * Returns the wait's error when it did not finish (the queue is destroyed anyway).
 * When a wait on this queue already timed out and its work is still not done,
 * the work is abandoned without a further wait (destroying the queue preempts
 * it) and the call succeeds. */
rdx_status rdx_queue_destroy(rdx_queue *q);

/*
 * Every submission to a queue is numbered: it completes the queue's
 * timeline value *ticket (1, 2, ...; may be NULL).  Submissions of one queue
 * run in order.
 *
 * Dispatch `l` on a compute queue: kernel arguments into the queue's
 * kernarg ring, the gfx11 dispatch sequence, a CS partial flush, GPU
 * timestamps before and after, and an end-of-pipe signal of the timeline
 * with an interrupt.  Waits (without timeout) for ring space when the GPU
 * is behind.  Errors: RDX_ERR_INVALID (argument layout, wrong queue kind,
 * bad sizes, a workgroup larger than the code object's .max_flat_workgroup_size
 * or other than its .reqd_workgroup_size), RDX_ERR_FAULT when the queue had faulted and could not
 * be recreated.
 */
rdx_status rdx_queue_dispatch(rdx_queue *q, const rdx_launch *l, uint64_t *ticket);

/* Wait until the timeline reaches `ticket` (UINT32_MAX ms: forever).
 * RDX_ERR_FAULT with the fault report when the queue faulted before
 * completing it (the queue is recreated on the next submission);
 * RDX_ERR_TIMEOUT. */
rdx_status rdx_queue_wait(rdx_queue *q, uint64_t ticket, uint32_t timeout_ms);
/* Wait for everything submitted so far. */
rdx_status rdx_queue_finish(rdx_queue *q, uint32_t timeout_ms);
/*
 * Abandon the queue's unfinished work (after a timeout, say): its KFD queue
 * is destroyed — which stops a hung wave or a queue stuck waiting — and
 * created again; waits for the abandoned tickets fail with RDX_ERR_FAULT.
 */
rdx_status rdx_queue_reset(rdx_queue *q);

/* The last submitted / last completed timeline value. */
uint64_t rdx_queue_submitted(const rdx_queue *q);
uint64_t rdx_queue_completed(const rdx_queue *q);

/* GPU time of a completed dispatch `ticket` in nanoseconds (from its two
 * timestamps).  RDX_ERR_INVALID when ticket is not a dispatch of this queue
 * among its last 1024 submissions or has not completed. */
rdx_status rdx_queue_dispatch_time(rdx_queue *q, uint64_t ticket, uint64_t *ns);

/* SDMA copy of `n` bytes between buffers (any offsets and sizes) on a copy
 * queue. */
rdx_status rdx_queue_copy(rdx_queue *q, rdx_buffer *dst, uint64_t dst_off, const rdx_buffer *src,
                          uint64_t src_off, uint64_t n, uint64_t *ticket);
/* SDMA fill of `n` bytes (multiple of 4) at dst_off (4-aligned) with the
 * dword `value`, on a copy queue. */
rdx_status rdx_queue_fill(rdx_queue *q, rdx_buffer *dst, uint64_t dst_off, uint32_t value,
                          uint64_t n, uint64_t *ticket);

/*
 * Make `q`'s later work wait on the GPU (WAIT_REG_MEM64 on compute queues,
 * POLL_REGMEM on copy queues) until `other`'s timeline reaches `ticket`.
 * The host does not block.
 */
rdx_status rdx_queue_wait_queue(rdx_queue *q, rdx_queue *other, uint64_t ticket);

/* ------------------------------------------------------------------ fences */

/* A 64-bit value in GPU memory with a KFD event: set by queues or the host,
 * waited for by the host or by queues. */
typedef struct rdx_fence rdx_fence;
rdx_status rdx_fence_create(rdx_device *dev, uint64_t initial, rdx_fence **out);
void rdx_fence_destroy(rdx_fence *f);
uint64_t rdx_fence_value(const rdx_fence *f);
/* Set the value from the host (and wake waiters). */
rdx_status rdx_fence_set(rdx_fence *f, uint64_t value);
/* Host wait until value >= `value`.  RDX_ERR_TIMEOUT. */
rdx_status rdx_fence_wait(rdx_fence *f, uint64_t value, uint32_t timeout_ms);
/* The queue writes `value` to the fence once all its earlier work is done
 * (compute: RELEASE_MEM with an interrupt). */
rdx_status rdx_queue_signal(rdx_queue *q, rdx_fence *f, uint64_t value, uint64_t *ticket);
/* The queue waits on the GPU until the fence reaches `value`. */
rdx_status rdx_queue_wait_fence(rdx_queue *q, rdx_fence *f, uint64_t value);

/* ---------------------------------------------------------- command buffers */

/*
 * A recorded command buffer: dispatches recorded once into GPU memory and
 * replayed any number of times with INDIRECT_BUFFER.  Arguments are laid out
 * at record time (each recorded dispatch owns its kernarg space).
 */
typedef struct rdx_cmdbuf rdx_cmdbuf;
rdx_status rdx_cmdbuf_create(rdx_device *dev, rdx_cmdbuf **out);
void rdx_cmdbuf_destroy(rdx_cmdbuf *cb);
/* Append a dispatch (followed by a CS partial flush, so recorded dispatches
 * run in order).  Not allowed after the first replay. */
rdx_status rdx_cmdbuf_dispatch(rdx_cmdbuf *cb, const rdx_launch *l);
/* Replay on a compute queue (INDIRECT_BUFFER + timeline signal). */
rdx_status rdx_queue_replay(rdx_queue *q, rdx_cmdbuf *cb, uint64_t *ticket);

#ifdef __cplusplus
}
#endif

#endif /* RDX_RUNTIME_H */
