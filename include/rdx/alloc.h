/*
 * rdx/alloc.h — GPU memory: a sub-allocator over large backing blocks, a
 * kernel-argument ring, a signal pool, and the memory planner for schedules.
 *
 * None of these talk to a device.  The sub-allocator obtains and returns its
 * backing blocks through callbacks (kfd/ provides real KFD allocations, tests
 * provide malloc'd memory); the ring and the pool work inside a region the
 * caller hands them (usually one allocation from the sub-allocator); the
 * planner is pure arithmetic.
 *
 * Thread safety: rdx_alloc is internally locked (any thread may allocate and
 * free).  A kernarg ring and a signal pool are not: the owning queue
 * serialises its own calls.
 */
#ifndef RDX_ALLOC_H
#define RDX_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rdx/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Sub-allocator.                                                            */

/* Memory kinds are opaque small integers below RDX_ALLOC_MAX_KINDS; each kind
 * is a separate heap.  The conventional meanings (kfd/ decides the flags): */
#define RDX_ALLOC_MAX_KINDS 8
enum {
    RDX_ALLOC_KIND_VRAM = 0, /* device-local */
    RDX_ALLOC_KIND_GTT = 1,  /* host memory visible to the GPU (host-coherent) */
    RDX_ALLOC_KIND_VRAM_HOST_VISIBLE = 2,
};

/* A backing block handed out by the callbacks. */
typedef struct rdx_alloc_block {
    uint64_t addr; /* GPU virtual address of byte 0 */
    void *cpu;     /* CPU mapping of byte 0, or NULL when not host-visible */
    uint64_t size; /* bytes */
    void *handle;  /* the provider's own token (e.g. a KFD handle); opaque to rdx */
} rdx_alloc_block;

/* Where backing blocks come from. */
typedef struct rdx_alloc_backing {
    /*
     * Provide a block of exactly `size` bytes of memory kind `kind` whose
     * address is aligned to at least the config's block_align.  Fill *out and
     * return RDX_OK, or return an error status (recorded with rdx_fail),
     * which rdx_alloc_alloc passes on.
     */
    rdx_status (*obtain)(void *user, uint32_t kind, uint64_t size, rdx_alloc_block *out);
    /* Take back a block obtained earlier (called once per block).  Return
     * RDX_OK, or an error status (recorded with rdx_fail) when the provider
     * could not free it; the allocator forgets the block either way and
     * passes the error on (rdx_alloc_free, rdx_alloc_trim, rdx_alloc_destroy). */
    rdx_status (*release)(void *user, uint32_t kind, const rdx_alloc_block *block);
    void *user;
} rdx_alloc_backing;

typedef enum rdx_alloc_fit {
    RDX_ALLOC_BEST_FIT = 0,  /* smallest free range that fits (less fragmentation) */
    RDX_ALLOC_FIRST_FIT = 1, /* lowest address that fits (faster) */
} rdx_alloc_fit;

typedef struct rdx_alloc_config {
    uint64_t block_size;  /* default backing block size; 0 = 64 MiB */
    uint64_t block_align; /* block sizes are multiples of this and block addresses
                             aligned to it; power of two; 0 = 4096 */
    rdx_alloc_fit fit;
    uint32_t keep_empty; /* empty blocks kept per kind before releasing (0 = release
                            a block as soon as it is empty) */
} rdx_alloc_config;

/* One allocation. */
typedef struct rdx_alloc_region {
    uint64_t addr; /* GPU address, aligned as requested */
    void *cpu;     /* CPU address, or NULL when the block is not host-visible */
    uint64_t size; /* the size requested */
    uint32_t kind;
} rdx_alloc_region;

/* Statistics of one kind (or, summed, of all). */
typedef struct rdx_alloc_stats {
    uint64_t in_use;       /* bytes handed out (requested sizes) */
    uint64_t peak_in_use;  /* high-water mark of in_use */
    uint64_t backing;      /* bytes of backing blocks held */
    uint64_t peak_backing; /* high-water mark of backing */
    uint64_t free_bytes;   /* backing bytes not handed out (incl. alignment padding) */
    uint64_t largest_free; /* largest free range */
    uint64_t allocations;  /* live allocations */
    uint64_t blocks;       /* backing blocks held */
    double fragmentation;  /* 1 - largest_free / free_bytes (0 when nothing is free) */
} rdx_alloc_stats;

typedef struct rdx_alloc rdx_alloc;

/* Create an allocator; `cfg` may be NULL for defaults.  Errors:
 * RDX_ERR_INVALID (missing callbacks, block_align not a power of two),
 * RDX_ERR_NOMEM.  The backing struct is copied. */
rdx_status rdx_alloc_create(const rdx_alloc_backing *backing, const rdx_alloc_config *cfg,
                            rdx_alloc **out);
/* Release every backing block (live allocations included) and the allocator.
 * NULL is ignored (RDX_OK).  Returns the first error of the backing's release
 * (everything is freed anyway). */
rdx_status rdx_alloc_destroy(rdx_alloc *a);

/*
 * Allocate `size` >= 1 bytes of `kind` aligned to `align` (power of two; 0
 * means 1).  Requests that fit no free range get a new backing block of
 * max(block_size, size rounded up to block_align) bytes.  Errors:
 * RDX_ERR_INVALID (bad kind/size/align), the backing's error when it cannot
 * provide a block, RDX_ERR_NOMEM.  On error nothing changes.
 */
rdx_status rdx_alloc_alloc(rdx_alloc *a, uint32_t kind, uint64_t size, uint64_t align,
                           rdx_alloc_region *out);
/* Free the allocation starting at `addr` of `kind`, coalescing with free
 * neighbours; a block left empty is released (see keep_empty).
 * RDX_ERR_INVALID when addr is not the start of a live allocation of that kind
 * (double free, wrong kind, foreign address); the backing's release error
 * when releasing the emptied block failed (the allocation is freed and the
 * block forgotten anyway). */
rdx_status rdx_alloc_free(rdx_alloc *a, uint32_t kind, uint64_t addr);
/* Release every empty backing block now.  Returns the first error of the
 * backing's release (every empty block is forgotten anyway). */
rdx_status rdx_alloc_trim(rdx_alloc *a);
/* Statistics of `kind`, or of all kinds summed when kind == UINT32_MAX
 * (fragmentation then uses the largest free range of any kind). */
void rdx_alloc_get_stats(rdx_alloc *a, uint32_t kind, rdx_alloc_stats *out);

/* ------------------------------------------------------------------------ */
/* Kernel-argument ring.                                                     */

/*
 * A ring over caller memory (gpu_addr/cpu, `size` bytes; not owned).  Each
 * allocation is tagged with the fence value (a monotonically non-decreasing
 * 64-bit signal value) after which the GPU no longer reads it; the caller
 * reports progress with rdx_kernarg_ring_complete and the space is reused.
 */
typedef struct rdx_kernarg_ring rdx_kernarg_ring;

/* Errors: RDX_ERR_INVALID (size 0, NULL cpu), RDX_ERR_NOMEM. */
rdx_status rdx_kernarg_ring_create(uint64_t gpu_addr, void *cpu, uint64_t size,
                                   rdx_kernarg_ring **out);
void rdx_kernarg_ring_destroy(rdx_kernarg_ring *r);
/*
 * Take `size` >= 1 bytes aligned to `align` (power of two, 0 = 16) that stay
 * busy until `fence` completes; *gpu_addr / *cpu receive the space.
 * Errors: RDX_ERR_RANGE when the ring has no room now (wait for
 * rdx_kernarg_ring_oldest_fence, complete it, retry) or can never hold the
 * request; RDX_ERR_INVALID when `fence` is below the last one given or the
 * arguments are bad; RDX_ERR_NOMEM.
 */
rdx_status rdx_kernarg_ring_alloc(rdx_kernarg_ring *r, uint64_t size, uint64_t align,
                                  uint64_t fence, uint64_t *gpu_addr, void **cpu);
/* Every allocation whose fence is <= `completed` may be reused. */
void rdx_kernarg_ring_complete(rdx_kernarg_ring *r, uint64_t completed);
/* Fence of the oldest busy allocation (what to wait for), or UINT64_MAX when idle. */
uint64_t rdx_kernarg_ring_oldest_fence(const rdx_kernarg_ring *r);
/* Bytes currently busy (allocations plus space skipped at the wrap). */
uint64_t rdx_kernarg_ring_busy(const rdx_kernarg_ring *r);

/* ------------------------------------------------------------------------ */
/* Signal pool.                                                              */

/* Memory layout of one signal slot (64 bytes, one cache line). */
typedef struct rdx_signal_slot {
    volatile uint64_t value; /* the 64-bit signal value the GPU writes */
    uint32_t event_id;       /* KFD event raised with it (0 = none) */
    uint32_t reserved0;
    uint64_t reserved[6];
} rdx_signal_slot;

#define RDX_SIGNAL_SLOT_BYTES 64

/* A signal handed out by the pool. */
typedef struct rdx_signal {
    uint32_t index;      /* slot index */
    uint32_t generation; /* bumps on every acquire of the slot (catches stale handles) */
    uint64_t gpu_addr;   /* address of the slot's value (8-aligned) */
    rdx_signal_slot *slot;
} rdx_signal;

typedef struct rdx_signal_pool rdx_signal_pool;

/* A pool of size / 64 slots over caller memory (gpu_addr 64-aligned; not
 * owned).  Errors: RDX_ERR_INVALID (no room for one slot, misaligned,
 * NULL cpu), RDX_ERR_NOMEM. */
rdx_status rdx_signal_pool_create(uint64_t gpu_addr, void *cpu, uint64_t size,
                                  rdx_signal_pool **out);
void rdx_signal_pool_destroy(rdx_signal_pool *p);
/* Take a free slot, set its value to `initial` and event id to `event_id`.
 * RDX_ERR_RANGE when every slot is taken. */
rdx_status rdx_signal_pool_acquire(rdx_signal_pool *p, uint64_t initial, uint32_t event_id,
                                   rdx_signal *out);
/* Give a slot back.  RDX_ERR_INVALID for a handle that is not currently held
 * (double release, stale generation, foreign index). */
rdx_status rdx_signal_pool_release(rdx_signal_pool *p, const rdx_signal *s);
/* Slots in use / in total. */
uint32_t rdx_signal_pool_in_use(const rdx_signal_pool *p);
uint32_t rdx_signal_pool_capacity(const rdx_signal_pool *p);

/* ------------------------------------------------------------------------ */
/* Memory planner.                                                           */

/* A buffer of a schedule: live from step `first` to step `last` inclusive. */
typedef struct rdx_plan_buffer {
    uint64_t size;  /* bytes (0 allowed: offset 0, takes no room) */
    uint64_t align; /* power of two; 0 = 1 */
    uint32_t first, last;
} rdx_plan_buffer;

typedef struct rdx_plan_stats {
    uint64_t arena;       /* bytes the plan needs (max offset + size) */
    uint64_t no_reuse;    /* sum of sizes rounded up to their alignment */
    uint64_t lower_bound; /* max over steps of the bytes live at that step */
} rdx_plan_stats;

/*
 * Assign offsets[i] to each of the n buffers so that buffers whose lifetimes
 * overlap never overlap in memory, offsets respect alignment, and the arena
 * stays small (greedy by size, best-fitting gap).  stats may be NULL.
 * Errors: RDX_ERR_INVALID naming the buffer (first > last, bad alignment,
 * size overflow), RDX_ERR_NOMEM.
 */
rdx_status rdx_alloc_plan(const rdx_plan_buffer *bufs, size_t n, uint64_t *offsets,
                          rdx_plan_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* RDX_ALLOC_H */
