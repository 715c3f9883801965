/*
 * kfd/drm_internal.h — the amdgpu DRM submission path's state (kfd/drm_*.c).
 */
#ifndef RDX_KFD_DRM_INTERNAL_H
#define RDX_KFD_DRM_INTERNAL_H

#include "kfd/internal.h"

#define RDX_DRM_EVENT_SLOTS 4096u /* signal-event mailboxes, as KFD's event page */
#define RDX_DRM_INFLIGHT    512u  /* submissions a queue tracks for its IB space */
#define RDX_DRM_MAX_GPUS    64u   /* renderD128 .. renderD191 */

struct rdx_kfd_drm_queue {
    struct rdx_kfd_drm_queue *next; /* the process's queues (rdx_kfd_drm.queues) */
    rdx_kfd_queue *kq;
    void *ctx; /* amdgpu_context_handle */
    uint32_t ip, ring;
    uint64_t last_seq, done_seq; /* last submitted; last known complete */
    struct {
        uint64_t seq, end; /* a submission and where its IB ends (dwords, unwrapped) */
    } fl[RDX_DRM_INFLIGHT];
    uint32_t fl_head, fl_count;
    uint64_t rptr_dw; /* IB space given back (dwords, unwrapped) */
    int lost;         /* a submission was refused: the context is lost (ECANCELED) */
    int reported;     /* its loss was reported as a fault */
};

typedef struct rdx_kfd_drm {
    pthread_mutex_t lock; /* queues list, event slots, waiters */
    pthread_cond_t idle;  /* waiters dropped to 0 */
    uint32_t waiters;     /* threads in amdgpu_cs_wait_fences on the queues' contexts */
    struct rdx_kfd_drm_queue *queues;
    uint8_t slot_used[RDX_DRM_EVENT_SLOTS];
    uint32_t next_nonsignal;
    uint32_t next_queue_id;
} rdx_kfd_drm;

#endif /* RDX_KFD_DRM_INTERNAL_H */
