/* tests/drm/drm_test.h — shared helpers of the DRM-path suite: raw amdgpu ioctls on an
 * in-process emulated GPU (rdx_emudev's OS table), and children run under `rdx emu`. */
#ifndef RDX_TESTS_DRM_TEST_H
#define RDX_TESTS_DRM_TEST_H

#include <stdint.h>

#include <libdrm/amdgpu_drm.h>

#include <rdx/emudev.h>
#include <rdx/os.h>

#include "tests/harness/harness.h"

/* An emulated GPU and one open render node. */
typedef struct dx {
    rdx_emudev *emu;
    const rdx_os *os;
    int fd;
} dx;

void dx_open(dx *d);
/* Close the render node, check that the driver holds nothing, destroy the device. */
void dx_close(dx *d);
/* The raw ioctl: 0 or -errno. */
int dx_io(dx *d, unsigned long req, void *arg);
/* GEM_CREATE: 0 or -errno, *h the handle. */
int dx_gem(dx *d, uint64_t size, uint64_t domains, uint64_t flags, uint32_t *h);
/* A PROT_NONE reservation of the client (the GPU address space the emulator backs). */
void *dx_reserve(dx *d, uint64_t size);
void dx_unreserve(dx *d, void *p, uint64_t size);
/* GEM_VA: 0 or -errno. */
int dx_va(dx *d, uint32_t h, uint32_t op, uint32_t flags, uint64_t va, uint64_t off, uint64_t size);
/* A GTT buffer mapped for the GPU (read/write/execute) and the CPU at one address. */
typedef struct dx_buf {
    uint32_t h;
    uint64_t size;
    uint32_t *cpu; /* == GPU address */
} dx_buf;
void dx_buf_new(dx *d, uint64_t size, uint64_t gem_flags, dx_buf *b);
void dx_buf_free(dx *d, dx_buf *b);
/* CTX ALLOC / FREE / QUERY_STATE2 */
uint32_t dx_ctx(dx *d);
int dx_ctx_op(dx *d, uint32_t op, uint32_t id, int32_t prio, union drm_amdgpu_ctx *out);
/* CS of one IB (ndw dwords at va) on (ip, ring), with a BO list handle (0: none) and the IB's
 * buffer in a BO_HANDLES chunk when `bo` != 0; a SYNCOBJ_OUT chunk when `sync` != 0.  0 or
 * -errno; *seq the sequence. */
int dx_cs(dx *d, uint32_t ctx, uint32_t ip, uint32_t ring, uint64_t va, uint32_t ndw, uint32_t list,
          uint32_t bo, uint32_t sync, uint64_t *seq);
/* WAIT_CS with a timeout in ns from now (UINT64_MAX: forever): 0 or -errno, *busy. */
int dx_wait(dx *d, uint32_t ctx, uint32_t ip, uint32_t ring, uint64_t seq, uint64_t timeout_ns,
            uint64_t *busy);
uint64_t dx_now_ns(void);

TCase *drm_tcase_ioctl(void);
TCase *drm_tcase_cs(void);
TCase *drm_tcase_backend(void);

/* Child scenarios (run under `rdx emu` by the backend cases): 0 when they pass. */
int drm_child(const char *name);
/* The ioctl() of this program fails the nth DRM request of number `nr` with errno `err`
 * (tests/drm/inject.c): RDX_DRM_INJECT="nr:nth:errno" in the environment. */
void drm_inject_from_env(void);

#endif /* RDX_TESTS_DRM_TEST_H */
