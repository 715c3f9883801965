/*
 * runtime/internal.h — shared internals of the runtime (rdx/runtime.h).
 */
#ifndef RDX_RUNTIME_INTERNAL_H
#define RDX_RUNTIME_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include <rdx/alloc.h>
#include <rdx/emudev.h>
#include <rdx/kfd.h>
#include <rdx/pm4.h>
#include <rdx/runtime.h>

#include "util/error.h"

/* Heaps of the device's sub-allocator (rdx_alloc kinds). */
enum {
    RT_HEAP_DEVICE = 0, /* KFD VRAM: device-only buffers */
    RT_HEAP_HOST = 1,   /* KFD GTT: host-visible buffers, staging */
    RT_HEAP_SYNC = 2,   /* KFD GTT, uncached: signals, rings, kernargs, timestamps */
    RT_HEAP_CODE = 3,   /* KFD GTT, executable: code objects, recorded command buffers */
    RT_HEAP_COUNT
};

#define RT_BLOCK_BYTES      (4ull << 20) /* backing block size of every heap */
#define RT_SIGNAL_SLOTS     256          /* signal pool slots (one page of 64-byte slots x4) */
#define RT_RING_BYTES       (256u << 10) /* PM4 / SDMA ring per queue */
#define RT_KERNARG_BYTES    (1u << 20)   /* kernarg ring per compute queue */
#define RT_TS_SLOTS         1024         /* per-queue dispatch timestamp slots */
#define RT_STAGING_BYTES    (4ull << 20) /* staging buffer of device-buffer uploads */
#define RT_INTERNAL_WAIT_MS 10000        /* waits the runtime does on its own behalf */
#define RT_DETAIL_BYTES     2560 /* a device's fault detail (a hang report with its PC histogram) */
#define RT_CODE_TAIL        512u /* zeroed bytes after a program's image (prefetch) */
#define RT_MAX_DISPATCH_DW  160  /* dwords of one dispatch with its completion */

typedef struct rt_list {
    struct rt_list *prev, *next;
} rt_list;

void rt_list_init(rt_list *l);
void rt_list_add(rt_list *head, rt_list *n);
void rt_list_del(rt_list *n);

/* runtime/share.c: the KFD process of an OS table, shared by the devices of a process. */
typedef struct rt_share rt_share;
/* The share of table `os` (opened on first use), counted. */
rdx_status rt_share_os(const rdx_os *os, rt_share **out);
/* An emulated machine the runtime creates: shared by every device asking for the same
 * configuration when it has several GPUs, a machine of its own otherwise. */
rdx_status rt_share_emu(const rdx_emudev_config *cfg, rt_share **out);
rdx_kfd *rt_share_kfd(const rt_share *s);
rdx_emudev *rt_share_emudev(const rt_share *s);
/* Drop a reference (NULL: no-op); the last closes the KFD process (its status) and the
 * emulated machine. */
rdx_status rt_share_put(rt_share *s);

struct rdx_device {
    const rdx_os *os;
    void *emu;       /* the rdx_emudev behind the device when the runtime created it, or NULL */
    rt_share *share; /* the KFD process (and emulated machine) this device uses */
    bool peers;      /* its heaps are mapped into every GPU of the process (peer access) */
    rdx_kfd *kfd;
    uint32_t gpu;
    rdx_device_info info;
    const rdx_kfd_gpu_info *gpu_info;
    rdx_device_fault_detail_fn fault_detail;
    void *fault_detail_user;

    rdx_alloc *heap;

    pthread_mutex_t lock; /* lists, counts, signal pool, fault record */
    rt_list buffers, programs, queues, fences, cmdbufs;
    rdx_device_stats counts;

    rdx_alloc_region signal_mem;
    rdx_signal_pool *signals;

    /* Fault reporting: memory-fault and hardware-exception events (auto
     * reset).  The first waiter that sees one records it here and marks
     * every queue with work in flight as faulted. */
    rdx_kfd_event *ev_memory, *ev_hw;
    uint64_t fault_epoch;

    /* Uploads/downloads of device buffers: a copy queue and a staging buffer
     * (created on first use, serialised by staging_lock). */
    pthread_mutex_t staging_lock;
    rdx_queue *copy_queue;
    rdx_buffer *staging;
};

struct rdx_buffer {
    rt_list link;
    rdx_device *dev;
    rdx_alloc_region r;
    uint32_t heap;
    uint64_t size;
    bool internal; /* the device's own (staging): not counted in the stats */
};

/* One hidden argument the metadata lists. */
typedef struct rt_hidden {
    uint32_t kind; /* rt_hidden_kind */
    uint32_t offset, size;
} rt_hidden;

struct rdx_kernel {
    rdx_program *prog;
    char *name;
    uint64_t code_addr;
    uint32_t rsrc1, rsrc2, rsrc3;
    uint32_t props; /* kernel_code_properties */
    bool wave32;
    uint32_t user_sgprs; /* rsrc2.USER_SGPR */
    uint32_t lds_bytes, scratch_per_item;
    uint32_t kernarg_size, kernarg_align;
    uint32_t max_flat_wg; /* .max_flat_workgroup_size; 0 = no limit given */
    uint32_t reqd_wg[3];  /* .reqd_workgroup_size; all 0 = none */
    bool has_meta;
    rdx_kernel_arg *args;
    uint32_t nargs;
    rt_hidden *hidden;
    uint32_t nhidden;
    char *strings; /* names of args (one allocation) */
};

struct rdx_program {
    rt_list link;
    rdx_device *dev;
    rdx_alloc_region code;
    rdx_kernel *kernels;
    size_t nkernels;
};

struct rdx_queue {
    rt_list link;
    rdx_device *dev;
    rdx_queue_kind kind;
    rdx_kfd_queue *kq;
    pthread_mutex_t lock; /* submissions */

    rdx_signal timeline;               /* value = last completed ticket */
    rdx_kfd_event *ev;                 /* raised with every completion */
    uint64_t submitted;                /* last ticket handed out */
    uint64_t failed_from, failed_upto; /* tickets in [from, upto] were lost to the last fault */
    int faulted;                       /* recreate the KFD queue before the next submission */
    int timed_out; /* a wait on this queue ran out of time (the GPU looked hung) */
    char fault_msg[RT_DETAIL_BYTES + 512];

    /* compute queues */
    rdx_alloc_region aux; /* kernarg ring | timestamps | queue block */
    rdx_kernarg_ring *kernargs;
    uint64_t *ts_cpu; /* RT_TS_SLOTS x {start, end} */
    uint64_t ts_gpu;
    uint64_t ts_ticket[RT_TS_SLOTS];
    uint64_t queue_block;     /* zeroed 256 bytes, the queue_ptr SGPRs' target */
    rdx_alloc_region scratch; /* device heap; grown on demand */
    uint32_t scratch_wave_bytes, scratch_waves;
    uint64_t dispatch_id;
    struct rt_qprof *prof; /* a running rdx_queue_profile_begin (runtime/prof.c), or NULL */
};

struct rdx_fence {
    rt_list link;
    rdx_device *dev;
    rdx_signal sig;
    rdx_kfd_event *ev;
};

struct rdx_cmdbuf {
    rt_list link;
    rdx_device *dev;
    rdx_pm4_cmdbuf pm4;    /* host copy while recording */
    rdx_alloc_region ib;   /* GPU copy (made at the first replay) */
    uint64_t ib_dw;        /* dwords in the GPU copy */
    rdx_buffer **kernargs; /* one per recorded dispatch */
    size_t nkernargs;
    rdx_queue *scratch_owner; /* not used; recorded dispatches need no scratch */
};

/* device.c */
/* Sub-allocate from a heap; the allocation is noted (rdx_kfd_mem_note) with
 * the heap's label ("runtime memory" ...), all `size` bytes in use. */
rdx_status rt_heap_alloc(rdx_device *dev, uint32_t heap, uint64_t size, uint64_t align,
                         rdx_alloc_region *out);
/* rt_heap_alloc of which only the first `used` (<= size) bytes are noted as
 * allocated, under `label`. */
rdx_status rt_heap_alloc_used(rdx_device *dev, uint32_t heap, uint64_t size, uint64_t align,
                              uint64_t used, const char *label, rdx_alloc_region *out);
rdx_status rt_heap_free(rdx_device *dev, uint32_t heap, rdx_alloc_region *r);
/* rt_heap_free for callers that cannot return an error (the void free
 * functions of the API): a failure is printed on stderr. */
void rt_heap_free_or_warn(rdx_device *dev, uint32_t heap, rdx_alloc_region *r);
/* Record a fault reported by WAIT_EVENTS (the message is the current error
 * message): marks every queue with work in flight as faulted. */
bool rt_device_record_fault(rdx_device *dev);
/* runtime/prof.c: free the queue's unfinished profile (its memory) when the queue goes. */
void rt_queue_prof_release(rdx_queue *q);
/* runtime/peer.c: whether GPU `gpu` of k is linked to every other GPU of k (then a device
 * maps its memory into all of them: peer access). */
bool rt_peers_linked(const rdx_kfd *k, uint32_t gpu);

/* queue.c */
/* With q->lock held: recreate the KFD queue if it faulted. */
rdx_status rt_queue_ready(rdx_queue *q);
/* With q->lock held: append the timeline completion for a new ticket to cb
 * (already holding the work), submit it, return the ticket. */
rdx_status rt_queue_submit(rdx_queue *q, rdx_pm4_cmdbuf *cb, uint64_t *ticket);
/* Append: write `value` to addr once earlier work is done, then raise ev
 * (its mailbox slot and an interrupt). */
void rt_emit_signal(rdx_pm4_cmdbuf *cb, rdx_queue_kind kind, uint64_t addr, uint64_t value,
                    rdx_kfd_event *ev);
/* The next ticket (what rt_queue_submit will hand out). */
static inline uint64_t rt_queue_next_ticket(const rdx_queue *q)
{
    return q->submitted + 1;
}
/* Wait for a 64-bit value >= target, with the fault events. */
rdx_status rt_wait_value(rdx_device *dev, rdx_queue *q, const volatile uint64_t *value,
                         uint64_t target, rdx_kfd_event *ev, uint32_t timeout_ms);
/* Monotonic nanoseconds. */
uint64_t rt_now_ns(void);

/* args.c */
/* The grid of a launch: workgroups (with partial ones) and work-items. */
typedef struct rt_grid {
    uint32_t block[3];
    uint32_t groups[3]; /* including a partial last one */
    uint32_t items[3];  /* work-items */
    bool partial;
} rt_grid;

/* Fill the user SGPRs of a dispatch of k (kernarg at `kernarg`, dispatch
 * packet at `packet` when k asks for one). */
void rt_user_sgprs(const rdx_kernel *k, const rdx_queue *q, uint64_t kernarg, uint64_t packet,
                   uint64_t dispatch_id, uint32_t *sgprs);
/* The kernarg segment of k for launch l (q may be NULL: no queue pointer). */
rdx_status rt_pack_args(const rdx_kernel *k, const rdx_launch *l, const rdx_queue *q,
                        const rt_grid *g, void *out, size_t cap, uint32_t *size);
/* Space a dispatch of k needs in the kernarg ring: the AQL-style dispatch
 * packet (64 bytes, when asked for) followed by the arguments. */
uint32_t rt_kernarg_bytes(const rdx_kernel *k, uint32_t args_size);
void rt_write_dispatch_packet(const rdx_kernel *k, const rdx_launch *l, void *cpu,
                              uint64_t kernarg);
rdx_status rt_launch_grid(const rdx_launch *l, rt_grid *g);

/* dispatch.c */
/* Build one dispatch of l into cb (kernarg already written at `kernarg`;
 * scratch from q when the kernel needs it). */
rdx_status rt_build_dispatch(rdx_queue *q, const rdx_launch *l, const rt_grid *g, uint64_t kernarg,
                             uint64_t packet, rdx_pm4_cmdbuf *cb);
/* Scratch of a queue on GPU g for waves of wave_bytes (a multiple of 256):
 * *waves_per_se for COMPUTE_TMPRING_SIZE.WAVES (per shader engine on gfx11) and the
 * *bytes the buffer needs (WAVES x shader engines x wave_bytes). */
void rt_scratch_size(const rdx_kfd_gpu_info *g, uint32_t wave_bytes, uint32_t *waves_per_se,
                     uint64_t *bytes);
/* Ensure q has scratch for k (with q->lock held; waits for q to go idle when
 * it must grow). */
rdx_status rt_queue_scratch(rdx_queue *q, const rdx_kernel *k);

#endif /* RDX_RUNTIME_INTERNAL_H */
