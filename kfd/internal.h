/*
 * kfd/internal.h — shared internals of the kernel interface layer.
 */
#ifndef RDX_KFD_INTERNAL_H
#define RDX_KFD_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include <rdx/kfd.h>

#include "util/error.h"

#define RDX_KFD_PAGE     4096ull
#define RDX_KFD_TOPOLOGY "/sys/devices/virtual/kfd/kfd/topology"
/* The process doorbell slice of gfx9+ (1024 queues x 8 bytes). */
#define RDX_KFD_DOORBELL_SLICE 8192ull

typedef struct rdx_kfd_gpu_state {
    rdx_kfd_gpu_info info;
    int drm_fd;
    void *amdgpu;           /* DRM path: the amdgpu_device_handle, else NULL */
    uint32_t compute_rings; /* DRM path: available rings (AMDGPU_INFO_HW_IP_INFO) */
    uint32_t sdma_rings;
    uint32_t next_ring;     /* DRM path: rings handed to queues round-robin */
    rdx_kfd_mem *doorbells; /* doorbell slice, allocated with the first queue */
    uint32_t doorbell_users;
} rdx_kfd_gpu_state;

struct rdx_kfd {
    const rdx_os *os;
    int fd; /* /dev/kfd */
    uint32_t major, minor;
    uint32_t gpu_count;
    rdx_kfd_gpu_state *gpus;
    pthread_mutex_t lock;       /* doorbells, live counts (never held across kernel calls) */
    pthread_mutex_t event_lock; /* serialises handing the event page over */
    rdx_kfd_mem *event_page;    /* signal event slots, created with the first signal event */
    uint32_t live_mem, live_queues, live_events;
    struct rdx_kfd_drm *drm; /* the amdgpu DRM submission path (kfd/drm_*.c), or NULL: KFD */
};

struct rdx_kfd_mem {
    uint32_t gpu;
    rdx_kfd_mem_kind kind;
    uint64_t handle;
    uint64_t gpu_addr, size;
    void *cpu;           /* CPU view (== gpu_addr) or NULL */
    void *reserved;      /* the VA reservation we own, or NULL (USERPTR) */
    uint64_t map_off;    /* the mmap offset used for the CPU view */
    int all_gpus;        /* mapped into every GPU's VM */
    void *bo, *va_range; /* DRM path: amdgpu_bo_handle, amdgpu_va_handle */
};

struct rdx_kfd_queue {
    uint32_t gpu, id;
    rdx_kfd_queue_kind kind;
    rdx_kfd_mem *ring, *ptrs, *eop, *ctx;
    uint32_t *ring_cpu;
    uint32_t ring_dw;
    volatile uint64_t *rptr, *wptr; /* ptrs page: rptr at 0, wptr at 8 */
    volatile uint64_t *doorbell;
    uint64_t wptr_dw;
    struct rdx_kfd_drm_queue *drm; /* DRM path: context, IB ring, fences */
};

struct rdx_kfd_event {
    rdx_kfd_event_kind kind;
    uint32_t id, slot;
    uint64_t mailbox;
    int auto_reset; /* DRM path */
};

/*
 * The one place kernel calls are made: os->ioctl, retried on EINTR/EAGAIN.
 * On failure records "<name>: <strerror>" (name e.g. "AMDKFD_IOC_CREATE_QUEUE")
 * and returns RDX_ERR_DEVICE (RDX_ERR_NOMEM for ENOMEM).
 */
rdx_status rdx_kfd_ioctl(const rdx_os *os, int fd, unsigned long request, void *arg,
                         const char *name);
#define RDX_KFD_IOCTL(os, fd, req, arg) rdx_kfd_ioctl((os), (fd), (req), (arg), #req)

/* OS calls with messages naming the call. */
rdx_status rdx_kfd_os_mmap(const rdx_os *os, void *addr, size_t len, int prot, int flags, int fd,
                           uint64_t off, void **out, const char *what);
void rdx_kfd_os_munmap(const rdx_os *os, void *addr, size_t len);

/* The DRM path (kfd/drm_*.c): rdx_kfd_open with RDX_SUBMIT=drm, or when there is no KFD. */
rdx_status rdx_kfd_drm_open(const rdx_os *os, rdx_kfd **out);
void rdx_kfd_drm_close(rdx_kfd *k);
rdx_status rdx_kfd_drm_mem_alloc(rdx_kfd *k, uint32_t gpu, const rdx_kfd_mem_desc *d,
                                 rdx_kfd_mem **out);
rdx_status rdx_kfd_drm_mem_free(rdx_kfd *k, rdx_kfd_mem *m);
rdx_status rdx_kfd_drm_queue_create(rdx_kfd *k, uint32_t gpu, rdx_kfd_queue_kind kind,
                                    uint32_t ring_bytes, rdx_kfd_queue **out);
rdx_status rdx_kfd_drm_queue_destroy(rdx_kfd *k, rdx_kfd_queue *q);
rdx_status rdx_kfd_drm_queue_submit(rdx_kfd_queue *q, const uint32_t *dw, size_t ndw);
rdx_status rdx_kfd_drm_event_create(rdx_kfd *k, rdx_kfd_event_kind kind, int auto_reset,
                                    rdx_kfd_event **out);
rdx_status rdx_kfd_drm_event_destroy(rdx_kfd *k, rdx_kfd_event *e);
rdx_status rdx_kfd_drm_event_set(rdx_kfd *k, rdx_kfd_event *e, int set);
rdx_status rdx_kfd_drm_event_wait(rdx_kfd *k, rdx_kfd_event *const *events, uint32_t n,
                                  int wait_all, uint32_t timeout_ms);
rdx_status rdx_kfd_drm_clock_counters(rdx_kfd *k, uint32_t gpu, rdx_kfd_clocks *out);
/* A libdrm_amdgpu call's negative errno as an rdx_status naming the call. */
rdx_status rdx_kfd_drm_fail(int r, const char *call);

/* drm.c: DRM_IOCTL_AMDGPU_INFO device info into the gpu info. */
rdx_status rdx_kfd_drm_query(const rdx_os *os, int drm_fd, rdx_kfd_gpu_info *info);

#endif /* RDX_KFD_INTERNAL_H */
