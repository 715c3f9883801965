/* tests/drm/dx.c — raw amdgpu ioctls on an in-process emulated GPU. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "tests/drm/drm_test.h"

uint64_t dx_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void dx_open(dx *d)
{
    memset(d, 0, sizeof *d);
    ck_assert_int_eq(rdx_emudev_create(NULL, &d->emu), RDX_OK);
    d->os = rdx_emudev_os(d->emu);
    d->fd = d->os->open(d->os->ctx, "/dev/dri/renderD128", O_RDWR);
    ck_assert_int_ge(d->fd, 0);
}

void dx_close(dx *d)
{
    ck_assert_int_eq(d->os->close(d->os->ctx, d->fd), 0);
    rdx_emudev_stats s;
    rdx_emudev_get_stats(d->emu, &s);
    ck_assert_uint_eq(s.open_fds, 0);
    ck_assert_uint_eq(s.bos, 0);
    ck_assert_uint_eq(s.gpu_mapped, 0);
    ck_assert_uint_eq(s.queues, 0);
    ck_assert_uint_eq(s.reservations, 0);
    rdx_emudev_destroy(d->emu);
    memset(d, 0, sizeof *d);
}

int dx_io(dx *d, unsigned long req, void *arg)
{
    return d->os->ioctl(d->os->ctx, d->fd, req, arg);
}

int dx_gem(dx *d, uint64_t size, uint64_t domains, uint64_t flags, uint32_t *h)
{
    union drm_amdgpu_gem_create c;
    memset(&c, 0, sizeof c);
    c.in.bo_size = size;
    c.in.alignment = 4096;
    c.in.domains = domains;
    c.in.domain_flags = flags;
    int r = dx_io(d, DRM_IOCTL_AMDGPU_GEM_CREATE, &c);
    if (!r && h)
        *h = c.out.handle;
    return r;
}

void *dx_reserve(dx *d, uint64_t size)
{
    void *p = NULL;
    ck_assert_int_eq(d->os->mmap(d->os->ctx, NULL, size, PROT_NONE,
                                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0, &p),
                     0);
    return p;
}

void dx_unreserve(dx *d, void *p, uint64_t size)
{
    ck_assert_int_eq(d->os->munmap(d->os->ctx, p, size), 0);
}

int dx_va(dx *d, uint32_t h, uint32_t op, uint32_t flags, uint64_t va, uint64_t off, uint64_t size)
{
    struct drm_amdgpu_gem_va a;
    memset(&a, 0, sizeof a);
    a.handle = h;
    a.operation = op;
    a.flags = flags;
    a.va_address = va;
    a.offset_in_bo = off;
    a.map_size = size;
    return dx_io(d, DRM_IOCTL_AMDGPU_GEM_VA, &a);
}

void dx_buf_new(dx *d, uint64_t size, uint64_t gem_flags, dx_buf *b)
{
    memset(b, 0, sizeof *b);
    b->size = size;
    ck_assert_int_eq(dx_gem(d, size, AMDGPU_GEM_DOMAIN_GTT, gem_flags, &b->h), 0);
    void *p = dx_reserve(d, size);
    ck_assert_int_eq(
        dx_va(d, b->h, AMDGPU_VA_OP_MAP,
              AMDGPU_VM_PAGE_READABLE | AMDGPU_VM_PAGE_WRITEABLE | AMDGPU_VM_PAGE_EXECUTABLE,
              (uint64_t)(uintptr_t)p, 0, size),
        0);
    union drm_amdgpu_gem_mmap m;
    memset(&m, 0, sizeof m);
    m.in.handle = b->h;
    ck_assert_int_eq(dx_io(d, DRM_IOCTL_AMDGPU_GEM_MMAP, &m), 0);
    void *q = NULL;
    ck_assert_int_eq(d->os->mmap(d->os->ctx, p, size, PROT_READ | PROT_WRITE,
                                 MAP_SHARED | MAP_FIXED, d->fd, m.out.addr_ptr, &q),
                     0);
    ck_assert_ptr_eq(q, p);
    b->cpu = p;
}

void dx_buf_free(dx *d, dx_buf *b)
{
    ck_assert_int_eq(dx_va(d, b->h, AMDGPU_VA_OP_UNMAP, 0, (uint64_t)(uintptr_t)b->cpu, 0, b->size),
                     0);
    struct drm_gem_close c = { .handle = b->h, .pad = 0 };
    ck_assert_int_eq(dx_io(d, DRM_IOCTL_GEM_CLOSE, &c), 0);
    dx_unreserve(d, b->cpu, b->size);
    memset(b, 0, sizeof *b);
}

int dx_ctx_op(dx *d, uint32_t op, uint32_t id, int32_t prio, union drm_amdgpu_ctx *out)
{
    union drm_amdgpu_ctx c;
    memset(&c, 0, sizeof c);
    c.in.op = op;
    c.in.ctx_id = id;
    c.in.priority = prio;
    int r = dx_io(d, DRM_IOCTL_AMDGPU_CTX, &c);
    if (out)
        *out = c;
    return r;
}

uint32_t dx_ctx(dx *d)
{
    union drm_amdgpu_ctx c;
    ck_assert_int_eq(dx_ctx_op(d, AMDGPU_CTX_OP_ALLOC_CTX, 0, AMDGPU_CTX_PRIORITY_NORMAL, &c), 0);
    return c.out.alloc.ctx_id;
}

int dx_cs(dx *d, uint32_t ctx, uint32_t ip, uint32_t ring, uint64_t va, uint32_t ndw, uint32_t list,
          uint32_t bo, uint32_t sync, uint64_t *seq)
{
    struct drm_amdgpu_cs_chunk_ib ib;
    memset(&ib, 0, sizeof ib);
    ib.va_start = va;
    ib.ib_bytes = ndw * 4;
    ib.ip_type = ip;
    ib.ring = ring;
    struct drm_amdgpu_bo_list_entry e = { .bo_handle = bo, .bo_priority = 0 };
    struct drm_amdgpu_bo_list_in in = { .operation = 0,
                                        .list_handle = 0,
                                        .bo_number = 1,
                                        .bo_info_size = sizeof e,
                                        .bo_info_ptr = (uint64_t)(uintptr_t)&e };
    struct drm_amdgpu_cs_chunk_sem sem = { .handle = sync };
    struct drm_amdgpu_cs_chunk ch[3];
    uint64_t ptrs[3];
    uint32_t n = 0;
    ch[n] =
        (struct drm_amdgpu_cs_chunk){ AMDGPU_CHUNK_ID_IB, sizeof ib / 4, (uint64_t)(uintptr_t)&ib };
    n++;
    if (bo) {
        ch[n] = (struct drm_amdgpu_cs_chunk){ AMDGPU_CHUNK_ID_BO_HANDLES, sizeof in / 4,
                                              (uint64_t)(uintptr_t)&in };
        n++;
    }
    if (sync) {
        ch[n] = (struct drm_amdgpu_cs_chunk){ AMDGPU_CHUNK_ID_SYNCOBJ_OUT, sizeof sem / 4,
                                              (uint64_t)(uintptr_t)&sem };
        n++;
    }
    for (uint32_t i = 0; i < n; i++)
        ptrs[i] = (uint64_t)(uintptr_t)&ch[i];
    union drm_amdgpu_cs cs;
    memset(&cs, 0, sizeof cs);
    cs.in.ctx_id = ctx;
    cs.in.bo_list_handle = list;
    cs.in.num_chunks = n;
    cs.in.chunks = (uint64_t)(uintptr_t)ptrs;
    int r = dx_io(d, DRM_IOCTL_AMDGPU_CS, &cs);
    if (!r && seq)
        *seq = cs.out.handle;
    return r;
}

int dx_wait(dx *d, uint32_t ctx, uint32_t ip, uint32_t ring, uint64_t seq, uint64_t timeout_ns,
            uint64_t *busy)
{
    union drm_amdgpu_wait_cs w;
    memset(&w, 0, sizeof w);
    w.in.handle = seq;
    w.in.timeout = timeout_ns == UINT64_MAX ? UINT64_MAX : dx_now_ns() + timeout_ns;
    w.in.ip_type = ip;
    w.in.ring = ring;
    w.in.ctx_id = ctx;
    int r = dx_io(d, DRM_IOCTL_AMDGPU_WAIT_CS, &w);
    if (busy)
        *busy = w.out.status;
    return r;
}
