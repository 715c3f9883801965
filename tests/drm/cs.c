/*
 * tests/drm/cs.c — command submission on the emulated amdgpu driver: CS argument checks,
 * IBs of PM4 on the compute ring and of SDMA on the DMA ring run by the same command
 * processor as KFD queues, WAIT_CS / WAIT_FENCES / sync objects, and what a fault, a hang and
 * a freed context do (guilty context, ETIME / ECANCELED, the device usable afterwards, nothing
 * left behind).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/pm4.h>

#include "tests/drm/drm_test.h"

#define PAGE 4096u
#define SEC  1000000000ull

/* An IB in b at dword `at`: WRITE_DATA of `value` to b's dword `slot`. */
static uint32_t ib_write(dx_buf *b, uint32_t at, uint32_t slot, uint32_t value)
{
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init_fixed(&cb, b->cpu + at, 64);
    ck_assert_int_eq(
        rdx_pm4_write_data(&cb, (uint64_t)(uintptr_t)(b->cpu + slot), &value, 1, false), RDX_OK);
    return (uint32_t)cb.len;
}

static uint64_t addr(dx_buf *b, uint32_t dw)
{
    return (uint64_t)(uintptr_t)(b->cpu + dw);
}

START_TEST(cs_rules)
{
    dx d;
    dx_open(&d);
    dx_buf b, other;
    dx_buf_new(&d, PAGE, 0, &b);
    dx_buf_new(&d, PAGE, 0, &other);
    uint32_t n = ib_write(&b, 0, 512, 1);
    uint32_t ctx = dx_ctx(&d);
    uint64_t seq;
    union drm_amdgpu_cs cs;
    memset(&cs, 0, sizeof cs);
    cs.in.ctx_id = ctx;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_CS, &cs), -EINVAL); /* no chunks */
    cs.in.num_chunks = 1;
    cs.in.chunks = 8; /* unreadable chunk array */
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_CS, &cs), -EFAULT);
    struct drm_amdgpu_cs_chunk ch = { 0x99, 4, 0 };
    uint64_t p = (uint64_t)(uintptr_t)&ch;
    cs.in.chunks = (uint64_t)(uintptr_t)&p;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_CS, &cs), -EINVAL); /* unknown chunk */
    struct drm_amdgpu_cs_chunk_ib ib = { 0 };
    ch = (struct drm_amdgpu_cs_chunk){ AMDGPU_CHUNK_ID_IB, 2, (uint64_t)(uintptr_t)&ib };
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_CS, &cs), -EINVAL); /* IB chunk too short */
    ck_assert_int_eq(dx_cs(&d, ctx + 9, AMDGPU_HW_IP_COMPUTE, 0, addr(&b, 0), n, 0, b.h, 0, &seq),
                     -EINVAL); /* unknown context */
    ck_assert_int_eq(dx_cs(&d, ctx, AMDGPU_HW_IP_NUM, 0, addr(&b, 0), n, 0, b.h, 0, &seq), -EINVAL);
    ck_assert_int_eq(dx_cs(&d, ctx, AMDGPU_HW_IP_COMPUTE, 4, addr(&b, 0), n, 0, b.h, 0, &seq),
                     -EINVAL); /* 4 compute entities */
    ck_assert_int_eq(dx_cs(&d, ctx, AMDGPU_HW_IP_DMA, 2, addr(&b, 0), n, 0, b.h, 0, &seq),
                     -EINVAL); /* 2 SDMA entities */
    ck_assert_int_eq(dx_cs(&d, ctx, AMDGPU_HW_IP_COMPUTE, 0, 0x10000, n, 0, b.h, 0, &seq),
                     -EINVAL); /* IB not mapped */
    ck_assert_int_eq(dx_cs(&d, ctx, AMDGPU_HW_IP_COMPUTE, 0, addr(&b, 1020), 64, 0, b.h, 0, &seq),
                     -EINVAL); /* IB past its mapping */
    ck_assert_int_eq(dx_cs(&d, ctx, AMDGPU_HW_IP_COMPUTE, 0, addr(&b, 0), n, 0, other.h, 0, &seq),
                     -EINVAL); /* the IB's object is not in the submission's list */
    ck_assert_int_eq(dx_cs(&d, ctx, AMDGPU_HW_IP_COMPUTE, 0, addr(&b, 0), n, 77, 0, 0, &seq),
                     -ENOENT); /* unknown list */
    ck_assert_int_eq(dx_cs(&d, ctx, AMDGPU_HW_IP_COMPUTE, 0, addr(&b, 0), n, 77, b.h, 0, &seq),
                     -EINVAL); /* a list handle and a BO_HANDLES chunk */
    ck_assert_int_eq(dx_cs(&d, ctx, AMDGPU_HW_IP_COMPUTE, 0, addr(&b, 0), n, 0, b.h, 99, &seq),
                     -EINVAL); /* unknown sync object */
    /* nothing of the refused ones ran or took a sequence number */
    ck_assert_int_eq(dx_cs(&d, ctx, AMDGPU_HW_IP_COMPUTE, 0, addr(&b, 0), n, 0, b.h, 0, &seq), 0);
    ck_assert_uint_eq(seq, 1);
    uint64_t busy = 9;
    ck_assert_int_eq(dx_wait(&d, ctx, AMDGPU_HW_IP_COMPUTE, 0, 1, UINT64_MAX, &busy), 0);
    ck_assert_uint_eq(busy, 0);
    ck_assert_uint_eq(b.cpu[512], 1);
    ck_assert_int_eq(dx_wait(&d, ctx, AMDGPU_HW_IP_COMPUTE, 0, 2, 0, &busy), -EINVAL);
    ck_assert_int_eq(dx_wait(&d, ctx + 9, AMDGPU_HW_IP_COMPUTE, 0, 1, 0, &busy), -EINVAL);
    ck_assert_int_eq(dx_wait(&d, ctx, AMDGPU_HW_IP_COMPUTE, 1, 1, 0, &busy), -EINVAL);
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_FREE_CTX, ctx, 0, NULL), 0);
    dx_buf_free(&d, &other);
    dx_buf_free(&d, &b);
    dx_close(&d);
}
END_TEST

START_TEST(cs_runs_on_compute_and_dma)
{
    dx d;
    dx_open(&d);
    dx_buf b, list_only;
    dx_buf_new(&d, 4 * PAGE, AMDGPU_GEM_CREATE_VM_ALWAYS_VALID, &b);
    dx_buf_new(&d, PAGE, 0, &list_only);
    uint32_t ctx = dx_ctx(&d);
    uint64_t seq = 0, busy = 9;
    /* 20 submissions on two compute rings; the last sequence of each covers the others */
    for (uint32_t i = 0; i < 20; i++) {
        uint32_t n = ib_write(&b, 16 * i, 2048 + i, 100 + i);
        ck_assert_int_eq(
            dx_cs(&d, ctx, AMDGPU_HW_IP_COMPUTE, i & 1, addr(&b, 16 * i), n, 0, 0, 0, &seq),
            0); /* VM_ALWAYS_VALID: no list needed */
        ck_assert_uint_eq(seq, i / 2 + 1);
    }
    ck_assert_int_eq(dx_wait(&d, ctx, AMDGPU_HW_IP_COMPUTE, 0, 10, 5 * SEC, &busy), 0);
    ck_assert_uint_eq(busy, 0);
    ck_assert_int_eq(dx_wait(&d, ctx, AMDGPU_HW_IP_COMPUTE, 1, 10, 5 * SEC, &busy), 0);
    for (uint32_t i = 0; i < 20; i++)
        ck_assert_uint_eq(b.cpu[2048 + i], 100 + i);
    /* an SDMA IB on the DMA ring: fill 64 bytes, through a BO list */
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init_fixed(&cb, b.cpu + 400, 64);
    ck_assert_int_eq(rdx_sdma_const_fill(&cb, addr(&b, 3000), 0x5a5a5a5a, 64), RDX_OK);
    struct drm_amdgpu_bo_list_entry e = { list_only.h, 0 };
    union drm_amdgpu_bo_list l;
    memset(&l, 0, sizeof l);
    l.in.operation = AMDGPU_BO_LIST_OP_CREATE;
    l.in.bo_number = 1;
    l.in.bo_info_size = sizeof e;
    l.in.bo_info_ptr = (uint64_t)(uintptr_t)&e;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_BO_LIST, &l), 0);
    ck_assert_int_eq(dx_cs(&d, ctx, AMDGPU_HW_IP_DMA, 1, addr(&b, 400), (uint32_t)cb.len,
                           l.out.list_handle, 0, 0, &seq),
                     0);
    ck_assert_uint_eq(seq, 1);
    ck_assert_int_eq(dx_wait(&d, ctx, AMDGPU_HW_IP_DMA, 1, 1, 5 * SEC, &busy), 0);
    ck_assert_uint_eq(busy, 0);
    for (uint32_t i = 0; i < 16; i++)
        ck_assert_uint_eq(b.cpu[3000 + i], 0x5a5a5a5a);
    ck_assert_uint_eq(b.cpu[3016], 0);
    /* WAIT_FENCES over both engines */
    struct drm_amdgpu_fence f[2] = { { ctx, AMDGPU_HW_IP_COMPUTE, 0, 0, 10 },
                                     { ctx, AMDGPU_HW_IP_DMA, 0, 1, 1 } };
    union drm_amdgpu_wait_fences wf;
    memset(&wf, 0, sizeof wf);
    wf.in.fences = (uint64_t)(uintptr_t)f;
    wf.in.fence_count = 2;
    wf.in.wait_all = 1;
    wf.in.timeout_ns = dx_now_ns() + SEC;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_WAIT_FENCES, &wf), 0);
    ck_assert_uint_eq(wf.out.status, 1);
    memset(&l, 0, sizeof l);
    l.in.operation = AMDGPU_BO_LIST_OP_DESTROY;
    l.in.list_handle = 1;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_BO_LIST, &l), 0);
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_FREE_CTX, ctx, 0, NULL), 0);
    dx_buf_free(&d, &list_only);
    dx_buf_free(&d, &b);
    dx_close(&d);
}
END_TEST

START_TEST(syncobjs)
{
    dx d;
    dx_open(&d);
    dx_buf b;
    dx_buf_new(&d, PAGE, AMDGPU_GEM_CREATE_VM_ALWAYS_VALID, &b);
    struct drm_syncobj_create sc = { 0, 1u << 5 };
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_SYNCOBJ_CREATE, &sc), -EINVAL); /* unknown flag */
    sc.flags = 0;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_SYNCOBJ_CREATE, &sc), 0);
    uint32_t h = sc.handle;
    struct drm_syncobj_wait w;
    memset(&w, 0, sizeof w);
    w.handles = (uint64_t)(uintptr_t)&h;
    w.count_handles = 1;
    w.timeout_nsec = (int64_t)(dx_now_ns() + SEC / 20);
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_SYNCOBJ_WAIT, &w), -EINVAL); /* no fence yet */
    w.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_SYNCOBJ_WAIT, &w), -ETIME);
    uint32_t ctx = dx_ctx(&d);
    uint32_t n = ib_write(&b, 0, 900, 42);
    ck_assert_int_eq(dx_cs(&d, ctx, AMDGPU_HW_IP_COMPUTE, 0, addr(&b, 0), n, 0, 0, h, NULL), 0);
    w.flags = 0;
    w.timeout_nsec = (int64_t)(dx_now_ns() + 5 * SEC);
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_SYNCOBJ_WAIT, &w), 0);
    ck_assert_uint_eq(b.cpu[900], 42);
    w.count_handles = 0;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_SYNCOBJ_WAIT, &w), -EINVAL);
    struct drm_syncobj_destroy sd = { h + 1, 0 };
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_SYNCOBJ_DESTROY, &sd), -EINVAL);
    sd.handle = h;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_SYNCOBJ_DESTROY, &sd), 0);
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_FREE_CTX, ctx, 0, NULL), 0);
    dx_buf_free(&d, &b);
    dx_close(&d);
}
END_TEST

/* A faulting IB (a write to an unmapped address): the job fails with ETIME, its context is
 * guilty (later CS: ECANCELED), another context sees the reset and keeps working. */
START_TEST(fault_makes_context_guilty)
{
    dx d;
    dx_open(&d);
    dx_buf b;
    dx_buf_new(&d, PAGE, AMDGPU_GEM_CREATE_VM_ALWAYS_VALID, &b);
    uint32_t bad = dx_ctx(&d), good = dx_ctx(&d);
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init_fixed(&cb, b.cpu, 64);
    uint32_t v = 1;
    ck_assert_int_eq(rdx_pm4_write_data(&cb, 0x10000, &v, 1, false), RDX_OK);
    uint64_t seq, busy;
    ck_assert_int_eq(
        dx_cs(&d, bad, AMDGPU_HW_IP_COMPUTE, 0, addr(&b, 0), (uint32_t)cb.len, 0, 0, 0, &seq), 0);
    uint64_t t0 = dx_now_ns();
    ck_assert_int_eq(dx_wait(&d, bad, AMDGPU_HW_IP_COMPUTE, 0, seq, 10 * SEC, &busy), -ETIME);
    ck_assert_uint_lt(dx_now_ns() - t0, 5 * SEC);
    union drm_amdgpu_ctx c;
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_QUERY_STATE2, bad, 0, &c), 0);
    ck_assert_uint_eq(c.out.state.flags,
                      AMDGPU_CTX_QUERY2_FLAGS_RESET | AMDGPU_CTX_QUERY2_FLAGS_GUILTY);
    ck_assert_int_eq(
        dx_cs(&d, bad, AMDGPU_HW_IP_COMPUTE, 0, addr(&b, 0), (uint32_t)cb.len, 0, 0, 0, &seq),
        -ECANCELED);
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_QUERY_STATE2, good, 0, &c), 0);
    ck_assert_uint_eq(c.out.state.flags, AMDGPU_CTX_QUERY2_FLAGS_RESET);
    uint32_t n = ib_write(&b, 64, 800, 7);
    ck_assert_int_eq(dx_cs(&d, good, AMDGPU_HW_IP_COMPUTE, 0, addr(&b, 64), n, 0, 0, 0, &seq), 0);
    ck_assert_int_eq(dx_wait(&d, good, AMDGPU_HW_IP_COMPUTE, 0, seq, 5 * SEC, &busy), 0);
    ck_assert_uint_eq(busy, 0);
    ck_assert_uint_eq(b.cpu[800], 7);
    char err[256];
    rdx_emudev_last_error(d.emu, err, sizeof err);
    ck_assert_msg(strstr(err, "GPU memory fault"), "%s", err);
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_FREE_CTX, bad, 0, NULL), 0);
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_FREE_CTX, good, 0, NULL), 0);
    dx_buf_free(&d, &b);
    dx_close(&d);
}
END_TEST

/* A job waiting forever on memory: the job timeout resets the ring (ETIME, guilty), the waiter
 * of a later job of the same ring on another context sees it run. */
START_TEST(hang_times_out)
{
    setenv("RDX_EMU_JOB_TIMEOUT_MS", "200", 1); /* read by the driver at its first job */
    dx d;
    dx_open(&d);
    dx_buf b;
    dx_buf_new(&d, PAGE, AMDGPU_GEM_CREATE_VM_ALWAYS_VALID, &b);
    uint32_t hung = dx_ctx(&d), after = dx_ctx(&d);
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init_fixed(&cb, b.cpu, 64);
    ck_assert_int_eq(
        rdx_pm4_wait_mem32(&cb, addr(&b, 1000), 1, 0xffffffffu, RDX_PM4_V_WAIT_FUNC_EQ, 10),
        RDX_OK);
    uint64_t seq, seq2, busy;
    ck_assert_int_eq(
        dx_cs(&d, hung, AMDGPU_HW_IP_COMPUTE, 0, addr(&b, 0), (uint32_t)cb.len, 0, 0, 0, &seq), 0);
    uint32_t n = ib_write(&b, 64, 900, 5);
    ck_assert_int_eq(dx_cs(&d, after, AMDGPU_HW_IP_COMPUTE, 0, addr(&b, 64), n, 0, 0, 0, &seq2), 0);
    ck_assert_int_eq(dx_wait(&d, hung, AMDGPU_HW_IP_COMPUTE, 0, seq, 0, &busy), 0);
    ck_assert_uint_eq(busy, 1); /* still running */
    uint64_t t0 = dx_now_ns();
    ck_assert_int_eq(dx_wait(&d, after, AMDGPU_HW_IP_COMPUTE, 0, seq2, 10 * SEC, &busy), 0);
    ck_assert_uint_eq(busy, 0);
    ck_assert_uint_eq(b.cpu[900], 5); /* ran again after the reset */
    ck_assert_uint_lt(dx_now_ns() - t0, 5 * SEC);
    ck_assert_int_eq(dx_wait(&d, hung, AMDGPU_HW_IP_COMPUTE, 0, seq, 0, &busy), -ETIME);
    union drm_amdgpu_ctx c;
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_QUERY_STATE, hung, 0, &c), 0);
    ck_assert_uint_eq(c.out.state.reset_status, AMDGPU_CTX_GUILTY_RESET);
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_QUERY_STATE, after, 0, &c), 0);
    ck_assert_uint_eq(c.out.state.reset_status, AMDGPU_CTX_INNOCENT_RESET);
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_FREE_CTX, hung, 0, NULL), 0);
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_FREE_CTX, after, 0, NULL), 0);
    dx_buf_free(&d, &b);
    dx_close(&d);
    unsetenv("RDX_EMU_JOB_TIMEOUT_MS");
}
END_TEST

/* Freeing a context whose job blocks the ring drops the job at once; closing the file frees
 * everything it owns (contexts, lists, sync objects, objects). */
START_TEST(free_and_close_release)
{
    dx d;
    dx_open(&d);
    dx_buf b;
    dx_buf_new(&d, PAGE, AMDGPU_GEM_CREATE_VM_ALWAYS_VALID, &b);
    uint32_t stuck = dx_ctx(&d), next = dx_ctx(&d);
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init_fixed(&cb, b.cpu, 64);
    ck_assert_int_eq(
        rdx_pm4_wait_mem32(&cb, addr(&b, 1000), 1, 0xffffffffu, RDX_PM4_V_WAIT_FUNC_EQ, 10),
        RDX_OK);
    uint64_t seq, busy;
    ck_assert_int_eq(
        dx_cs(&d, stuck, AMDGPU_HW_IP_COMPUTE, 2, addr(&b, 0), (uint32_t)cb.len, 0, 0, 0, &seq), 0);
    uint64_t t0 = dx_now_ns();
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_FREE_CTX, stuck, 0, NULL), 0);
    ck_assert_uint_lt(dx_now_ns() - t0, 2 * SEC);
    uint32_t n = ib_write(&b, 64, 900, 9);
    ck_assert_int_eq(dx_cs(&d, next, AMDGPU_HW_IP_COMPUTE, 2, addr(&b, 64), n, 0, 0, 0, &seq), 0);
    ck_assert_int_eq(dx_wait(&d, next, AMDGPU_HW_IP_COMPUTE, 2, seq, 5 * SEC, &busy), 0);
    ck_assert_uint_eq(b.cpu[900], 9);
    union drm_amdgpu_ctx c;
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_QUERY_STATE2, next, 0, &c), 0);
    ck_assert_uint_eq(c.out.state.flags, 0); /* a freed context is no GPU reset */
    /* leave a pending job, a list, a sync object and the buffer to the close */
    cb.len = 0;
    ck_assert_int_eq(dx_cs(&d, next, AMDGPU_HW_IP_COMPUTE, 2, addr(&b, 0), 7, 0, 0, 0, &seq), 0);
    struct drm_syncobj_create sc = { 0, DRM_SYNCOBJ_CREATE_SIGNALED };
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_SYNCOBJ_CREATE, &sc), 0);
    struct drm_amdgpu_bo_list_entry e = { b.h, 0 };
    union drm_amdgpu_bo_list l;
    memset(&l, 0, sizeof l);
    l.in.operation = AMDGPU_BO_LIST_OP_CREATE;
    l.in.bo_number = 1;
    l.in.bo_info_size = sizeof e;
    l.in.bo_info_ptr = (uint64_t)(uintptr_t)&e;
    ck_assert_int_eq(dx_io(&d, DRM_IOCTL_AMDGPU_BO_LIST, &l), 0);
    void *res = b.cpu;
    uint64_t size = b.size;
    ck_assert_int_eq(d.os->munmap(d.os->ctx, res, size), 0); /* the client's view goes first */
    dx_close(&d); /* asserts that the driver holds nothing */
}
END_TEST

/* Freeing a context whose job waits behind another context's job: that job never runs, the
 * other context is neither guilty nor reset and finishes once released. */
START_TEST(free_behind_another_context)
{
    dx d;
    dx_open(&d);
    dx_buf b;
    dx_buf_new(&d, PAGE, AMDGPU_GEM_CREATE_VM_ALWAYS_VALID, &b);
    uint32_t first = dx_ctx(&d), behind = dx_ctx(&d);
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init_fixed(&cb, b.cpu, 64);
    ck_assert_int_eq(
        rdx_pm4_wait_mem32(&cb, addr(&b, 1000), 1, 0xffffffffu, RDX_PM4_V_WAIT_FUNC_EQ, 10),
        RDX_OK);
    uint32_t v = 77;
    ck_assert_int_eq(rdx_pm4_write_data(&cb, addr(&b, 901), &v, 1, false), RDX_OK);
    uint64_t s1, s2, busy;
    ck_assert_int_eq(
        dx_cs(&d, first, AMDGPU_HW_IP_COMPUTE, 3, addr(&b, 0), (uint32_t)cb.len, 0, 0, 0, &s1), 0);
    uint32_t n = ib_write(&b, 64, 900, 5);
    ck_assert_int_eq(dx_cs(&d, behind, AMDGPU_HW_IP_COMPUTE, 3, addr(&b, 64), n, 0, 0, 0, &s2), 0);
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_FREE_CTX, behind, 0, NULL), 0);
    __atomic_store_n(&b.cpu[1000], 1, __ATOMIC_RELEASE); /* release the first job */
    ck_assert_int_eq(dx_wait(&d, first, AMDGPU_HW_IP_COMPUTE, 3, s1, 5 * SEC, &busy), 0);
    ck_assert_uint_eq(busy, 0);
    ck_assert_uint_eq(b.cpu[901], 77);
    /* a later job on the ring runs; the freed context's never did */
    n = ib_write(&b, 128, 902, 6);
    ck_assert_int_eq(dx_cs(&d, first, AMDGPU_HW_IP_COMPUTE, 3, addr(&b, 128), n, 0, 0, 0, &s1), 0);
    ck_assert_int_eq(dx_wait(&d, first, AMDGPU_HW_IP_COMPUTE, 3, s1, 5 * SEC, &busy), 0);
    ck_assert_uint_eq(b.cpu[902], 6);
    ck_assert_uint_eq(b.cpu[900], 0);
    union drm_amdgpu_ctx c;
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_QUERY_STATE2, first, 0, &c), 0);
    ck_assert_uint_eq(c.out.state.flags, 0);
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_FREE_CTX, first, 0, NULL), 0);
    dx_buf_free(&d, &b);
    dx_close(&d);
}
END_TEST

START_TEST(injected_failure_has_no_effect)
{
    dx d;
    dx_open(&d);
    dx_buf b;
    dx_buf_new(&d, PAGE, AMDGPU_GEM_CREATE_VM_ALWAYS_VALID, &b);
    uint32_t ctx = dx_ctx(&d);
    uint32_t n = ib_write(&b, 0, 900, 3);
    ck_assert_int_eq(rdx_emudev_inject(d.emu, DRM_IOCTL_AMDGPU_CS, 1, EIO), RDX_OK);
    uint64_t seq = 0, busy;
    ck_assert_int_eq(dx_cs(&d, ctx, AMDGPU_HW_IP_COMPUTE, 0, addr(&b, 0), n, 0, 0, 0, &seq), -EIO);
    ck_assert_int_eq(dx_cs(&d, ctx, AMDGPU_HW_IP_COMPUTE, 0, addr(&b, 0), n, 0, 0, 0, &seq), 0);
    ck_assert_uint_eq(seq, 1); /* the failed one took no sequence number */
    ck_assert_int_eq(dx_wait(&d, ctx, AMDGPU_HW_IP_COMPUTE, 0, seq, 5 * SEC, &busy), 0);
    ck_assert_uint_eq(b.cpu[900], 3);
    ck_assert_int_eq(dx_ctx_op(&d, AMDGPU_CTX_OP_FREE_CTX, ctx, 0, NULL), 0);
    dx_buf_free(&d, &b);
    dx_close(&d);
}
END_TEST

TCase *drm_tcase_cs(void)
{
    TCase *tc = tcase_create("cs");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, cs_rules);
    tcase_add_test(tc, cs_runs_on_compute_and_dma);
    tcase_add_test(tc, syncobjs);
    tcase_add_test(tc, fault_makes_context_guilty);
    tcase_add_test(tc, hang_times_out);
    tcase_add_test(tc, free_and_close_release);
    tcase_add_test(tc, free_behind_another_context);
    tcase_add_test(tc, injected_failure_has_no_effect);
    return tc;
}
