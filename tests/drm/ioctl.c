/*
 * tests/drm/ioctl.c — the emulated amdgpu driver's argument checks, one rule each, with the
 * errno Linux's amdgpu returns (amdgpu_gem.c, amdgpu_cs.c, amdgpu_ctx.c, amdgpu_bo_list.c,
 * amdgpu_kms.c, drm_gem.c, drm_syncobj.c), on raw ioctls through an in-process emulated GPU.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "tests/drm/drm_test.h"

#define PAGE 4096u

START_TEST(gem_create_rules)
{
    dx d;
    dx_open(&d);
    uint32_t h = 0;
    ck_assert_int_eq(dx_gem(&d, PAGE, AMDGPU_GEM_DOMAIN_GTT, 1ull << 20, &h), -EINVAL);
    ck_assert_int_eq(dx_gem(&d, PAGE, 1ull << 10, 0, &h), -EINVAL); /* unknown domain */
    ck_assert_int_eq(dx_gem(&d, PAGE, AMDGPU_GEM_DOMAIN_GTT, AMDGPU_GEM_CREATE_ENCRYPTED, &h),
                     -EINVAL); /* no TMZ */
    ck_assert_int_eq(dx_gem(&d, 0, AMDGPU_GEM_DOMAIN_GTT, 0, &h), -EINVAL);
    ck_assert_int_eq(dx_gem(&d, 1ull << 40, AMDGPU_GEM_DOMAIN_VRAM, 0, &h), -ENOMEM);
    ck_assert_int_eq(dx_gem(&d, 100, AMDGPU_GEM_DOMAIN_VRAM, 0, &h), 0);
    ck_assert_uint_ne(h, 0);
    struct drm_gem_close c = { .handle = h + 1000, .pad = 0 };
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_GEM_CLOSE, &c), -EINVAL);
    c.handle = h;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_GEM_CLOSE, &c), 0);
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_GEM_CLOSE, &c), -EINVAL); /* closed already */
    dx_close(&d);
}
END_TEST

START_TEST(gem_mmap_rules)
{
    dx d;
    dx_open(&d);
    uint32_t h, hv;
    union drm_amdgpu_gem_mmap m;
    memset(&m, 0, sizeof m);
    m.in.handle = 77;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_GEM_MMAP, &m), -ENOENT);
    ck_assert_int_eq(dx_gem(&d, PAGE, AMDGPU_GEM_DOMAIN_VRAM, AMDGPU_GEM_CREATE_NO_CPU_ACCESS, &hv),
                     0);
    m.in.handle = hv;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_GEM_MMAP, &m), -EPERM);
    /* a second file cannot name the first one's objects */
    int fd2 = d.os->open(d.os->ctx, "/dev/dri/renderD128", 0);
    ck_assert_int_ge(fd2, 0);
    ck_assert_int_eq(dx_gem(&d, PAGE, AMDGPU_GEM_DOMAIN_GTT, 0, &h), 0);
    memset(&m, 0, sizeof m);
    m.in.handle = h;
    ck_assert_int_eq(d.os->ioctl(d.os->ctx, fd2, DRM_IOCTL_AMDGPU_GEM_MMAP, &m), -ENOENT);
    ck_assert_int_eq(d.os->close(d.os->ctx, fd2), 0);
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_GEM_MMAP, &m), 0);
    ck_assert_uint_ne(m.out.addr_ptr, 0);
    struct drm_gem_close c = { .handle = h, .pad = 0 };
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_GEM_CLOSE, &c), 0);
    c.handle = hv;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_GEM_CLOSE, &c), 0);
    dx_close(&d);
}
END_TEST

START_TEST(gem_va_rules)
{
    dx d;
    dx_open(&d);
    uint32_t h, h2;
    ck_assert_int_eq(dx_gem(&d, 2 * PAGE, AMDGPU_GEM_DOMAIN_GTT, 0, &h), 0);
    ck_assert_int_eq(dx_gem(&d, 2 * PAGE, AMDGPU_GEM_DOMAIN_GTT, 0, &h2), 0);
    void *p = dx_reserve(&d, 4 * PAGE);
    uint64_t va = (uint64_t)(uintptr_t)p;
    uint32_t rw = AMDGPU_VM_PAGE_READABLE | AMDGPU_VM_PAGE_WRITEABLE;
    ck_assert_int_eq(dx_va(&d, h, AMDGPU_VA_OP_MAP, rw, 0x1000, 0, 2 * PAGE), -EINVAL);
    ck_assert_int_eq(dx_va(&d, h, AMDGPU_VA_OP_MAP, rw, 0x0000900000000000ull, 0, 2 * PAGE),
                     -EINVAL); /* in the hole */
    ck_assert_int_eq(dx_va(&d, h, AMDGPU_VA_OP_MAP, 1u << 20, va, 0, 2 * PAGE), -EINVAL);
    ck_assert_int_eq(dx_va(&d, h, 9, rw, va, 0, 2 * PAGE), -EINVAL);
    ck_assert_int_eq(dx_va(&d, 999, AMDGPU_VA_OP_MAP, rw, va, 0, 2 * PAGE), -ENOENT);
    ck_assert_int_eq(dx_va(&d, h, AMDGPU_VA_OP_MAP, rw, va + 8, 0, 2 * PAGE), -EINVAL);
    ck_assert_int_eq(dx_va(&d, h, AMDGPU_VA_OP_MAP, rw, va, 0, 3 * PAGE), -EINVAL); /* > object */
    ck_assert_int_eq(dx_va(&d, h, AMDGPU_VA_OP_MAP, rw, va, PAGE, 2 * PAGE), -EINVAL);
    ck_assert_int_eq(dx_va(&d, h, AMDGPU_VA_OP_MAP, rw, va, 0, 0), -EINVAL);
    ck_assert_int_eq(dx_va(&d, h, AMDGPU_VA_OP_MAP, rw, va, 0, 2 * PAGE), 0);
    /* a conflict with that mapping */
    ck_assert_int_eq(dx_va(&d, h2, AMDGPU_VA_OP_MAP, rw, va + PAGE, 0, 2 * PAGE), -EINVAL);
    ck_assert_int_eq(dx_va(&d, h2, AMDGPU_VA_OP_MAP, rw, va + 2 * PAGE, 0, 2 * PAGE), 0);
    ck_assert_int_eq(dx_va(&d, h, AMDGPU_VA_OP_UNMAP, 0, va + PAGE, 0, 0), -ENOENT);
    ck_assert_int_eq(dx_va(&d, h, AMDGPU_VA_OP_UNMAP, 0, va, 0, 0), 0);
    ck_assert_int_eq(dx_va(&d, h, AMDGPU_VA_OP_UNMAP, 0, va, 0, 0), -ENOENT);
    ck_assert_int_eq(dx_va(&d, h2, AMDGPU_VA_OP_UNMAP, 0, va + 2 * PAGE, 0, 0), 0);
    struct drm_gem_close c = { .handle = h, .pad = 0 };
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_GEM_CLOSE, &c), 0);
    c.handle = h2;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_GEM_CLOSE, &c), 0);
    dx_unreserve(&d, p, 4 * PAGE);
    dx_close(&d);
}
END_TEST

START_TEST(gem_va_needs_reserved_va)
{
    /* the emulator's one rule beyond amdgpu's: pool memory goes only where the client reserved
     * address space (rdx's backend reserves it and hands it to amdgpu_va_range_alloc) */
    dx d;
    dx_open(&d);
    uint32_t h;
    ck_assert_int_eq(dx_gem(&d, PAGE, AMDGPU_GEM_DOMAIN_GTT, 0, &h), 0);
    void *p = dx_reserve(&d, PAGE);
    dx_unreserve(&d, p, PAGE);
    ck_assert_int_eq(
        dx_va(&d, h, AMDGPU_VA_OP_MAP, AMDGPU_VM_PAGE_READABLE, (uint64_t)(uintptr_t)p, 0, PAGE),
        -EINVAL);
    struct drm_gem_close c = { .handle = h, .pad = 0 };
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_GEM_CLOSE, &c), 0);
    dx_close(&d);
}
END_TEST

START_TEST(gem_cpu_and_gpu_share)
{
    dx d;
    dx_open(&d);
    dx_buf b;
    dx_buf_new(&d, 3 * PAGE, 0, &b);
    b.cpu[5] = 0xdeadbeef;
    /* a second CPU view (what amdgpu_bo_cpu_map makes) sees the same memory */
    union drm_amdgpu_gem_mmap m;
    memset(&m, 0, sizeof m);
    m.in.handle = b.h;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_GEM_MMAP, &m), 0);
    void *q = NULL;
    ck_assert_int_eq(d.os->mmap(d.os->ctx, NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, d.fd,
                                m.out.addr_ptr, &q),
                     0);
    ck_assert_uint_eq(((uint32_t *)q)[5], 0xdeadbeef);
    ck_assert_int_eq(d.os->munmap(d.os->ctx, q, 3 * PAGE), 0);
    dx_buf_free(&d, &b);
    dx_close(&d);
}
END_TEST

START_TEST(ctx_rules)
{
    dx d;
    dx_open(&d);
    union drm_amdgpu_ctx c;
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_ALLOC_CTX, 0, 7, &c), -EINVAL); /* priority */
    uint32_t id = dx_ctx(&d);
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_QUERY_STATE2, id, 0, &c), 0);
    ck_assert_uint_eq(c.out.state.flags, 0);
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_QUERY_STATE, id, 0, &c), 0);
    ck_assert_uint_eq(c.out.state.reset_status, AMDGPU_CTX_NO_RESET);
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_QUERY_STATE2, id + 5, 0, NULL), -EINVAL);
    ck_assert_int_eq(dx_ctx_op(&d, 99, id, 0, NULL), -EINVAL);
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_FREE_CTX, id + 5, 0, NULL), -EINVAL);
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_FREE_CTX, id, 0, NULL), 0);
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_FREE_CTX, id, 0, NULL), -EINVAL);
    dx_close(&d);
}
END_TEST

START_TEST(bo_list_rules)
{
    dx d;
    dx_open(&d);
    uint32_t h;
    ck_assert_int_eq(dx_gem(&d, PAGE, AMDGPU_GEM_DOMAIN_GTT, 0, &h), 0);
    struct drm_amdgpu_bo_list_entry e[2] = { { h, 0 }, { h + 50, 0 } };
    union drm_amdgpu_bo_list l;
    memset(&l, 0, sizeof l);
    l.in.operation = AMDGPU_BO_LIST_OP_CREATE;
    l.in.bo_number = 2;
    l.in.bo_info_size = sizeof e[0];
    l.in.bo_info_ptr = (uint64_t)(uintptr_t)e;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_BO_LIST, &l), -ENOENT);
    l.in.bo_info_ptr = 8; /* a bad user pointer */
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_BO_LIST, &l), -EFAULT);
    memset(&l, 0, sizeof l);
    l.in.operation = 7;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_BO_LIST, &l), -EINVAL);
    memset(&l, 0, sizeof l);
    l.in.operation = AMDGPU_BO_LIST_OP_CREATE;
    l.in.bo_number = 1;
    l.in.bo_info_size = sizeof e[0];
    l.in.bo_info_ptr = (uint64_t)(uintptr_t)e;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_BO_LIST, &l), 0);
    uint32_t id = l.out.list_handle;
    ck_assert_uint_ne(id, 0);
    memset(&l, 0, sizeof l);
    l.in.operation = AMDGPU_BO_LIST_OP_DESTROY;
    l.in.list_handle = id;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_BO_LIST, &l), 0);
    struct drm_gem_close c = { .handle = h, .pad = 0 };
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_GEM_CLOSE, &c), 0);
    dx_close(&d);
}
END_TEST

START_TEST(info_queries)
{
    dx d;
    dx_open(&d);
    struct drm_amdgpu_info_hw_ip ip;
    struct drm_amdgpu_info q;
    memset(&q, 0, sizeof q);
    q.return_pointer = (uint64_t)(uintptr_t)&ip;
    q.return_size = sizeof ip;
    q.query = AMDGPU_INFO_HW_IP_INFO;
    q.query_hw_ip.type = AMDGPU_HW_IP_COMPUTE;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_INFO, &q), 0);
    ck_assert_uint_eq(ip.hw_ip_version_major, 11);
    ck_assert_uint_eq(ip.available_rings, 0xf);
    q.query_hw_ip.type = AMDGPU_HW_IP_DMA;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_INFO, &q), 0);
    ck_assert_uint_eq(ip.hw_ip_version_major, 6);
    ck_assert_uint_eq(ip.available_rings, 0x3);
    q.query_hw_ip.type = AMDGPU_HW_IP_NUM;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_INFO, &q), -EINVAL);
    q.query_hw_ip.type = AMDGPU_HW_IP_COMPUTE;
    q.query_hw_ip.ip_instance = AMDGPU_HW_IP_INSTANCE_MAX_COUNT;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_INFO, &q), -EINVAL);
    uint64_t t1 = 0, t2 = 0;
    memset(&q, 0, sizeof q);
    q.return_pointer = (uint64_t)(uintptr_t)&t1;
    q.return_size = 8;
    q.query = AMDGPU_INFO_TIMESTAMP;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_INFO, &q), 0);
    q.return_pointer = (uint64_t)(uintptr_t)&t2;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_INFO, &q), 0);
    ck_assert_uint_gt(t1, 0);
    ck_assert_uint_ge(t2, t1);
    dx_close(&d);
}
END_TEST

TCase *drm_tcase_ioctl(void)
{
    TCase *tc = tcase_create("ioctl");
    tcase_add_test(tc, gem_create_rules);
    tcase_add_test(tc, gem_mmap_rules);
    tcase_add_test(tc, gem_va_rules);
    tcase_add_test(tc, gem_va_needs_reserved_va);
    tcase_add_test(tc, gem_cpu_and_gpu_share);
    tcase_add_test(tc, ctx_rules);
    tcase_add_test(tc, bo_list_rules);
    tcase_add_test(tc, info_queries);
    return tc;
}
