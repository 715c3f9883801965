/*
 * rdx/kfd.h — the kernel interface: AMD GPUs through /dev/kfd and the amdgpu
 * render node, with no vendor runtime.
 *
 * Everything goes through an OS interface table (rdx/os.h): rdx_os_linux()
 * drives a real card, rdx_emudev_os() (rdx/emudev.h) the emulated GPU; the
 * code here is the same for both.
 *
 * The same API also drives the amdgpu DRM submission path (docs/drm.md): with RDX_SUBMIT=drm,
 * or when there is no KFD but an amdgpu render node, on the libc OS table (libdrm_amdgpu makes
 * its ioctls on the fd itself), queues are amdgpu contexts whose submissions are IBs on the
 * compute / DMA rings, memory is GEM buffer objects, and the fault events fire when amdgpu
 * reports a context reset.  rdx_kfd_interface() says which path an rdx_kfd takes.
 *
 * Call sequence: rdx_kfd_open() discovers the KFD topology in sysfs, opens
 * /dev/kfd (AMDKFD_IOC_GET_VERSION) and, for every GPU node, its render node
 * (DRM_IOCTL_AMDGPU_INFO device info, AMDKFD_IOC_ACQUIRE_VM), then reads the
 * process apertures (AMDKFD_IOC_GET_PROCESS_APERTURES_NEW).  Memory, queues
 * and events are then created per GPU and must be destroyed before
 * rdx_kfd_close().
 *
 * Errors: every failing kernel call becomes an rdx_status whose message names
 * the call (e.g. "AMDKFD_IOC_ALLOC_MEMORY_OF_GPU") and the errno text.
 * EINTR and EAGAIN are retried in one place.
 *
 * Thread safety: an rdx_kfd may be used from several threads; each object
 * (memory, queue, event) must be destroyed by one thread once.
 */
#ifndef RDX_KFD_H
#define RDX_KFD_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/os.h>
#include <rdx/status.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RDX_KFD_MAX_MEM_BANKS 8
#define RDX_KFD_MAX_CACHES    16

/* One memory bank of a node (sysfs nodes/N/mem_banks/M/properties). */
typedef struct rdx_kfd_mem_bank {
    uint32_t heap_type; /* 0 system, 1 frame buffer public, 2 frame buffer private */
    uint64_t size_bytes;
    uint32_t width_bits;
    uint32_t mem_clk_max_mhz;
} rdx_kfd_mem_bank;

/* One cache of a node (sysfs nodes/N/caches/M/properties). */
typedef struct rdx_kfd_cache {
    uint32_t level;
    uint32_t size_kb;
    uint32_t line_bytes;
    uint32_t type; /* KFD cache type bits: 1 data, 2 instruction, 4 CPU, 8 HSA-CU */
} rdx_kfd_cache;

/* What discovery knows about one GPU node. */
typedef struct rdx_kfd_gpu_info {
    uint32_t node_id;            /* topology node number */
    uint32_t gpu_id;             /* KFD gpu_id used by every ioctl */
    uint32_t gfx_target_version; /* e.g. 110000 */
    char target[16];             /* e.g. "gfx1100" */
    char name[64];               /* sysfs nodes/N/name */
    uint32_t vendor_id, device_id, location_id, domain;
    uint32_t simd_count, simd_per_cu, cu_count; /* cu_count = simd_count / simd_per_cu */
    uint32_t array_count, simd_arrays_per_engine, cu_per_simd_array;
    uint32_t max_waves_per_simd, wave_front_size, lds_size_kb;
    uint32_t num_sdma_engines, num_sdma_xgmi_engines, num_cp_queues, num_xcc;
    uint32_t max_engine_clk_mhz;
    uint32_t drm_render_minor;  /* /dev/dri/renderD<minor> */
    uint32_t ctl_stack_size;    /* per compute queue, bytes */
    uint32_t cwsr_size;         /* context save area (ctl stack + wave state), bytes */
    uint32_t debug_memory_size; /* appended to the context save area, bytes */
    uint32_t eop_buffer_size;   /* bytes */
    uint32_t num_mem_banks, num_caches;
    rdx_kfd_mem_bank mem_banks[RDX_KFD_MAX_MEM_BANKS];
    rdx_kfd_cache caches[RDX_KFD_MAX_CACHES];
    uint64_t vram_size; /* sum of the frame-buffer banks, bytes */
    /* Links of the node (io_links_count / p2p_links_count; 0 when absent) and
     * the topology nodes they lead to (bit n: node n, for n < 64).  A GPU
     * node linked to another GPU node can reach its memory (peer access). */
    uint32_t io_link_count, p2p_link_count;
    uint64_t linked_nodes;
    /* From the render node (DRM_IOCTL_AMDGPU_INFO), filled by rdx_kfd_open
     * (zero in a bare rdx_kfd_topology_read): */
    uint32_t drm_family, drm_device_id, drm_num_shader_engines, drm_cu_active;
    uint32_t gpu_counter_freq_khz;
    uint64_t drm_max_engine_clock_khz;
    /* Process apertures (AMDKFD_IOC_GET_PROCESS_APERTURES_NEW), by rdx_kfd_open: */
    uint64_t gpuvm_base, gpuvm_limit, lds_base, scratch_base;
} rdx_kfd_gpu_info;

/* The KFD topology: the GPU nodes found in sysfs (CPU nodes are counted). */
typedef struct rdx_kfd_topology {
    uint32_t cpu_node_count;
    uint32_t gpu_count;
    rdx_kfd_gpu_info *gpus; /* gpu_count entries, ordered by node number */
} rdx_kfd_topology;

/*
 * Read the KFD topology (/sys/devices/virtual/kfd/kfd/topology/nodes/...)
 * through `os`.  Nodes without a gpu_id are CPU nodes and are only counted.
 * On success *out is a new topology owned by the caller (rdx_kfd_topology_free).
 * Errors: RDX_ERR_NOT_FOUND when there is no KFD topology; RDX_ERR_PARSE
 * when a property file is malformed (the message names the file and line);
 * RDX_ERR_NOMEM.
 */
rdx_status rdx_kfd_topology_read(const rdx_os *os, rdx_kfd_topology **out);

/* Free a topology (NULL is a no-op). */
void rdx_kfd_topology_free(rdx_kfd_topology *topo);

/* "gfx1100" for 110000 etc.: writes the LLVM target name of a KFD
 * gfx_target_version into buf (size >= 16).  Returns buf. */
char *rdx_kfd_target_name(uint32_t gfx_target_version, char *buf, size_t size);

/* The gfx_target_version KFD gives a GC IP discovery version (major.minor.rev), as the
 * kernel's kgd2kfd_probe maps it: 11.0.3 → 110001 (gfx1101), 11.0.1 and 11.0.4 → 110003
 * (gfx1103), any other → major*10000 + minor*100 + rev (11.5.1 → 110501, 12.0.1 → 120001).
 * The DRM path (no KFD topology) names its GPUs with it. */
uint32_t rdx_kfd_gc_target_version(uint32_t major, uint32_t minor, uint32_t rev);

/* An open KFD process: all GPUs of the topology, with their VMs acquired. */
typedef struct rdx_kfd rdx_kfd;

/*
 * Discover, open /dev/kfd, check the ioctl version (major 1), open each GPU's
 * render node, query its device info, acquire its VM and read the process
 * apertures.  `os` must outlive the result.  Errors name the failing call.
 */
rdx_status rdx_kfd_open(const rdx_os *os, rdx_kfd **out);

/* Close everything rdx_kfd_open opened (always; NULL is a no-op).  Memory,
 * queues and events should be destroyed first (survivors are reported on
 * stderr; the kernel releases them with the process).  Returns the first
 * failing kernel call (unmapping the event page), RDX_OK otherwise. */
rdx_status rdx_kfd_close(rdx_kfd *kfd);

/* The KFD ioctl interface version reported by AMDKFD_IOC_GET_VERSION (on the DRM path: the
 * amdgpu DRM interface version, e.g. 3.54). */
void rdx_kfd_version(const rdx_kfd *kfd, uint32_t *major, uint32_t *minor);

/* How `kfd` submits work: "kfd" (KFD user-mode queues, /dev/kfd) or "drm" (amdgpu command
 * submission through libdrm_amdgpu on the render node, chosen by RDX_SUBMIT=drm or when there
 * is no KFD but an amdgpu render node; docs/drm.md).  Static storage. */
const char *rdx_kfd_interface(const rdx_kfd *kfd);

/* Number of GPUs and the info of GPU `index` (< count; owned by kfd). */
uint32_t rdx_kfd_gpu_count(const rdx_kfd *kfd);
const rdx_kfd_gpu_info *rdx_kfd_gpu(const rdx_kfd *kfd, uint32_t index);

/* Correlated clocks of GPU `gpu` (AMDKFD_IOC_GET_CLOCK_COUNTERS): the GPU
 * timestamp counter (ticks of gpu_counter_freq_khz), CLOCK_MONOTONIC_RAW and
 * CLOCK_BOOTTIME in ns, read together by the driver. */
typedef struct rdx_kfd_clocks {
    uint64_t gpu_counter;
    uint64_t cpu_raw_ns;
    uint64_t boottime_ns;
} rdx_kfd_clocks;
rdx_status rdx_kfd_clock_counters(rdx_kfd *kfd, uint32_t gpu, rdx_kfd_clocks *out);

/* ---- memory ---- */

typedef enum rdx_kfd_mem_kind {
    RDX_KFD_MEM_VRAM,      /* device memory, not CPU-visible */
    RDX_KFD_MEM_VRAM_HOST, /* device memory, CPU-visible (PUBLIC) */
    RDX_KFD_MEM_GTT,       /* system memory mapped to the GPU, CPU-visible */
    RDX_KFD_MEM_USERPTR,   /* caller's memory registered with the GPU */
    RDX_KFD_MEM_DOORBELL,  /* the process's doorbell slice (size must match) */
} rdx_kfd_mem_kind;

/* Attribute bits for rdx_kfd_mem_desc.flags. */
enum {
    RDX_KFD_MEM_READONLY = 1u << 0,   /* GPU may not write */
    RDX_KFD_MEM_EXECUTABLE = 1u << 1, /* may hold shader code */
    RDX_KFD_MEM_UNCACHED = 1u << 2,   /* uncached / coherent (signals, rings) */
    RDX_KFD_MEM_ALL_GPUS = 1u << 3,   /* map into every GPU's VM, not only the owner's */
};

typedef struct rdx_kfd_mem_desc {
    rdx_kfd_mem_kind kind;
    uint64_t size;  /* bytes; rounded up to the page size */
    uint32_t flags; /* RDX_KFD_MEM_* attribute bits */
    void *userptr;  /* RDX_KFD_MEM_USERPTR: the caller's memory (size bytes) */
} rdx_kfd_mem_desc;

/* An allocation mapped to one GPU (or all, RDX_KFD_MEM_ALL_GPUS), and to the
 * CPU when host-visible. */
typedef struct rdx_kfd_mem rdx_kfd_mem;

/*
 * Allocate memory on GPU `gpu` (index), map it into the GPU's VM (every GPU's
 * with RDX_KFD_MEM_ALL_GPUS) and, for VRAM_HOST and GTT, into this process at
 * the same virtual address (reserve VA, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU,
 * AMDKFD_IOC_MAP_MEMORY_TO_GPU, mmap of the render node).  USERPTR memory
 * keeps the caller's address (the pages around it are registered); DOORBELL
 * memory gets no CPU view here (queues map theirs).  The result is owned by
 * the caller (rdx_kfd_mem_free).  Errors: RDX_ERR_INVALID (bad gpu index or
 * descriptor), RDX_ERR_RANGE (size beyond 2^47), RDX_ERR_NOMEM (ENOMEM from
 * the driver), RDX_ERR_DEVICE naming the failing call and its errno; nothing
 * is left allocated on failure.
 */
rdx_status rdx_kfd_mem_alloc(rdx_kfd *kfd, uint32_t gpu, const rdx_kfd_mem_desc *desc,
                             rdx_kfd_mem **out);

/* Unmap from the CPU and the GPU and free.  Everything is always released;
 * the first failing call is still reported (its name and errno). NULL: no-op. */
rdx_status rdx_kfd_mem_free(rdx_kfd *kfd, rdx_kfd_mem *mem);

/* GPU virtual address (equal to the CPU address when CPU-visible). */
uint64_t rdx_kfd_mem_gpu_addr(const rdx_kfd_mem *mem);
/* CPU pointer, or NULL for memory the CPU cannot see (RDX_KFD_MEM_VRAM). */
void *rdx_kfd_mem_cpu(const rdx_kfd_mem *mem);
/* Size in bytes (page-rounded). */
uint64_t rdx_kfd_mem_size(const rdx_kfd_mem *mem);
/* The KFD buffer handle. */
uint64_t rdx_kfd_mem_handle(const rdx_kfd_mem *mem);

/*
 * Tell a tool that checks GPU memory accesses which bytes of GPU memory are
 * handed out (rdx_os.mem_note; see rdx/os.h for `op`): RDX_OS_MEM_POOL for a
 * block from rdx_kfd_mem_alloc that a sub-allocator carves up, then
 * RDX_OS_MEM_ALLOC / RDX_OS_MEM_FREE per allocation in it, `label` naming it
 * in fault reports.  RDX_OK without a kernel call when the OS table has no
 * mem_note (a real card); RDX_ERR_DEVICE naming the note and the errno when
 * the listener refused it (no such pool or allocation, an overlap).
 */
rdx_status rdx_kfd_mem_note(rdx_kfd *kfd, rdx_os_mem_op op, uint64_t addr, uint64_t size,
                            const char *label);

/* ---- queues ---- */

typedef enum rdx_kfd_queue_kind {
    RDX_KFD_QUEUE_COMPUTE, /* PM4 compute queue */
    RDX_KFD_QUEUE_SDMA,    /* SDMA copy queue */
} rdx_kfd_queue_kind;

typedef struct rdx_kfd_queue rdx_kfd_queue;

/*
 * Create a user-mode queue on GPU `gpu`: allocates the ring (ring_bytes, a
 * power of two >= 1024), the read/write pointer page, and for compute queues
 * the EOP buffer and the context-save area sized from the node's
 * ctl_stack_size/cwsr_size; AMDKFD_IOC_CREATE_QUEUE; maps the doorbell.
 */
rdx_status rdx_kfd_queue_create(rdx_kfd *kfd, uint32_t gpu, rdx_kfd_queue_kind kind,
                                uint32_t ring_bytes, rdx_kfd_queue **out);

/* AMDKFD_IOC_DESTROY_QUEUE and free the queue's memory. NULL: no-op. */
rdx_status rdx_kfd_queue_destroy(rdx_kfd *kfd, rdx_kfd_queue *queue);

/*
 * Copy `ndw` dwords into the ring at the write pointer (wrapping), advance
 * it and ring the doorbell with a 64-bit store.  Fails with RDX_ERR_RANGE
 * when the ring has not room for them now (the GPU has not read far
 * enough).  Not thread-safe per queue.
 */
rdx_status rdx_kfd_queue_submit(rdx_kfd_queue *queue, const uint32_t *dw, size_t ndw);

/* Write pointer and GPU-reported read pointer, in dwords since creation.  A compute queue's
 * CP reports its read pointer as a 32-bit dword offset that wraps at the ring's size: the
 * count is rebuilt from the write pointer (the ring keeps one dword free so that a full ring
 * cannot read as empty). */
uint64_t rdx_kfd_queue_wptr(const rdx_kfd_queue *queue);
uint64_t rdx_kfd_queue_rptr(const rdx_kfd_queue *queue);
/* The KFD queue id. */
uint32_t rdx_kfd_queue_id(const rdx_kfd_queue *queue);

/* ---- events ---- */

typedef enum rdx_kfd_event_kind {
    RDX_KFD_EVENT_SIGNAL,       /* set by the GPU (RELEASE_MEM interrupt) or the host */
    RDX_KFD_EVENT_MEMORY,       /* a GPU memory fault */
    RDX_KFD_EVENT_HW_EXCEPTION, /* a queue/GPU error */
} rdx_kfd_event_kind;

typedef struct rdx_kfd_event rdx_kfd_event;

/* AMDKFD_IOC_CREATE_EVENT.  Signal events use the process event page (a GTT
 * allocation on the first GPU, created with the first signal event). */
rdx_status rdx_kfd_event_create(rdx_kfd *kfd, rdx_kfd_event_kind kind, int auto_reset,
                                rdx_kfd_event **out);
/* AMDKFD_IOC_DESTROY_EVENT. NULL: no-op. */
rdx_status rdx_kfd_event_destroy(rdx_kfd *kfd, rdx_kfd_event *event);
/* AMDKFD_IOC_SET_EVENT / AMDKFD_IOC_RESET_EVENT (signal events). */
rdx_status rdx_kfd_event_set(rdx_kfd *kfd, rdx_kfd_event *event);
rdx_status rdx_kfd_event_reset(rdx_kfd *kfd, rdx_kfd_event *event);
/* KFD event id: the interrupt context id a RELEASE_MEM packet sends. */
uint32_t rdx_kfd_event_id(const rdx_kfd_event *event);
/* GPU address of the signal event's 64-bit mailbox slot in the event page
 * (RELEASE_MEM writes the event id there); 0 for other kinds. */
uint64_t rdx_kfd_event_mailbox(const rdx_kfd_event *event);

/*
 * AMDKFD_IOC_WAIT_EVENTS on `n` events: any one (wait_all 0) or all of them,
 * timeout_ms (UINT32_MAX waits forever).  Returns RDX_OK when the wait
 * completed, RDX_ERR_TIMEOUT on timeout, RDX_ERR_FAULT when a memory-fault
 * or hardware-exception event is among those that fired (the message
 * names the faulting address, gpu and the kind of fault).
 */
rdx_status rdx_kfd_event_wait(rdx_kfd *kfd, rdx_kfd_event *const *events, uint32_t n, int wait_all,
                              uint32_t timeout_ms);
/* The gpu_id of the GPU whose fault the calling thread's last RDX_ERR_FAULT
 * from rdx_kfd_event_wait reported (KFD's events belong to the process, so
 * in a process driving several GPUs every fault event fires for a fault on
 * any of them); 0 before any. */
uint32_t rdx_kfd_last_fault_gpu(void);

#ifdef __cplusplus
}
#endif

#endif /* RDX_KFD_H */
