/*
 * tests/alloc/ring.c — the kernarg ring (hand-traced offsets, then a
 * simulated GPU completing fences in order against a model of the busy
 * ranges) and the signal pool.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/alloc/alloc_tests.h"
#include "tests/harness/harness.h"

static uint64_t ring_alloc_ok(rdx_kernarg_ring *r, uint64_t size, uint64_t align, uint64_t fence,
                              const char *mem, uint64_t base)
{
    uint64_t gpu;
    void *cpu;
    ck_assert_msg(rdx_kernarg_ring_alloc(r, size, align, fence, &gpu, &cpu) == RDX_OK, "%s",
                  rdx_error_message());
    ck_assert_ptr_eq(cpu, mem + (gpu - base));
    return gpu - base;
}

START_TEST(ring_hand_traced)
{
    static char mem[1024];
    const uint64_t base = 0x10000;
    rdx_kernarg_ring *r;
    ck_assert_int_eq(rdx_kernarg_ring_create(base, mem, sizeof mem, &r), RDX_OK);
    ck_assert_uint_eq(rdx_kernarg_ring_oldest_fence(r), UINT64_MAX);
    ck_assert_uint_eq(ring_alloc_ok(r, 100, 16, 1, mem, base), 0);
    ck_assert_uint_eq(ring_alloc_ok(r, 100, 16, 2, mem, base), 112); /* 100 -> 112 */
    ck_assert_uint_eq(ring_alloc_ok(r, 700, 16, 3, mem, base), 224); /* 212 -> 224 */
    ck_assert_uint_eq(rdx_kernarg_ring_busy(r), 924);
    uint64_t gpu;
    void *cpu;
    /* [928, 1128) passes the end and [0, 200) is busy: full, wait for fence 1 */
    ck_assert_int_eq(rdx_kernarg_ring_alloc(r, 200, 16, 4, &gpu, &cpu), RDX_ERR_RANGE);
    CHECK_MSG("kernarg ring full: 924 of 1024 bytes busy, need 200; wait for fence 1");
    ck_assert_uint_eq(rdx_kernarg_ring_oldest_fence(r), 1);
    rdx_kernarg_ring_complete(r, 1); /* frees [0, 100): still too small */
    ck_assert_int_eq(rdx_kernarg_ring_alloc(r, 200, 16, 4, &gpu, &cpu), RDX_ERR_RANGE);
    CHECK_MSG("wait for fence 2");
    rdx_kernarg_ring_complete(r, 2); /* frees up to 212: wraps to 0 */
    ck_assert_uint_eq(ring_alloc_ok(r, 200, 16, 4, mem, base), 0);
    ck_assert_uint_eq(rdx_kernarg_ring_busy(r), 712 + 100 + 200); /* skipped tail counted */
    /* the gap [200, 212) holds 12 bytes only at 208: no */
    ck_assert_int_eq(rdx_kernarg_ring_alloc(r, 12, 16, 5, &gpu, &cpu), RDX_ERR_RANGE);
    CHECK_MSG("wait for fence 3");
    ck_assert_uint_eq(ring_alloc_ok(r, 4, 16, 5, mem, base), 208);
    rdx_kernarg_ring_complete(r, 5); /* everything: idle again, restarts at 0 */
    ck_assert_uint_eq(rdx_kernarg_ring_busy(r), 0);
    ck_assert_uint_eq(ring_alloc_ok(r, 1024, 1, 6, mem, base), 0); /* whole ring */
    ck_assert_int_eq(rdx_kernarg_ring_alloc(r, 1, 1, 6, &gpu, &cpu), RDX_ERR_RANGE);
    /* errors */
    ck_assert_int_eq(rdx_kernarg_ring_alloc(r, 8, 16, 5, &gpu, &cpu), RDX_ERR_INVALID);
    CHECK_MSG("fence 5 is below the previous fence 6");
    ck_assert_int_eq(rdx_kernarg_ring_alloc(r, 1025, 1, 7, &gpu, &cpu), RDX_ERR_RANGE);
    CHECK_MSG("never fit");
    ck_assert_int_eq(rdx_kernarg_ring_alloc(r, 8, 24, 7, &gpu, &cpu), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_kernarg_ring_alloc(r, 0, 8, 7, &gpu, &cpu), RDX_ERR_INVALID);
    rdx_kernarg_ring_destroy(r);
    ck_assert_int_eq(rdx_kernarg_ring_create(base, NULL, 64, &r), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_kernarg_ring_create(base, mem, 0, &r), RDX_ERR_INVALID);
    rdx_kernarg_ring_destroy(NULL);
}
END_TEST

START_TEST(ring_unaligned_base)
{
    static char mem[256];
    rdx_kernarg_ring *r;
    ck_assert_int_eq(rdx_kernarg_ring_create(0x10008, mem, sizeof mem, &r), RDX_OK);
    /* alignment is of GPU addresses: the first 16-aligned byte is offset 8 */
    ck_assert_uint_eq(ring_alloc_ok(r, 16, 16, 1, mem, 0x10008), 8);
    ck_assert_uint_eq(ring_alloc_ok(r, 1, 64, 1, mem, 0x10008), 0x38); /* 0x10040 */
    rdx_kernarg_ring_destroy(r);
}
END_TEST

typedef struct busy {
    uint64_t start, end, fence;
} busy;

START_TEST(ring_simulated_gpu)
{
    enum { RING = 4096 };
    static char mem[RING];
    const uint64_t base = 0x200000;
    rdx_kernarg_ring *r;
    ck_assert_int_eq(rdx_kernarg_ring_create(base, mem, RING, &r), RDX_OK);
    busy *live = calloc(100000, sizeof *live);
    size_t lo = 0, hi = 0; /* live[lo..hi) in fence order */
    uint64_t fence = 0, completed = 0, total = 0;
    srand(5);
    for (int step = 0; step < 20000; step++) {
        uint64_t size = 1 + (uint64_t)(rand() % 600), align = 1ull << (rand() % 9);
        fence++;
        uint64_t gpu;
        void *cpu;
        rdx_status st;
        int waits = 0;
        while ((st = rdx_kernarg_ring_alloc(r, size, align, fence, &gpu, &cpu)) == RDX_ERR_RANGE) {
            /* "wait" for the oldest fence, as a queue would */
            uint64_t f = rdx_kernarg_ring_oldest_fence(r);
            ck_assert_uint_ne(f, UINT64_MAX);
            ck_assert_uint_ge(f, completed);
            completed = f;
            rdx_kernarg_ring_complete(r, completed);
            while (lo < hi && live[lo].fence <= completed)
                lo++;
            ck_assert_int_lt(++waits, 1000);
        }
        ck_assert_int_eq(st, RDX_OK);
        ck_assert_uint_eq(gpu % align, 0);
        ck_assert_uint_ge(gpu, base);
        ck_assert_uint_le(gpu + size, base + RING);
        ck_assert_ptr_eq(cpu, mem + (gpu - base));
        for (size_t i = lo; i < hi; i++)
            ck_assert_msg(gpu + size <= live[i].start || live[i].end <= gpu,
                          "step %d: [%llx,%llx) overlaps busy [%llx,%llx) of fence %llu", step,
                          (unsigned long long)gpu, (unsigned long long)(gpu + size),
                          (unsigned long long)live[i].start, (unsigned long long)live[i].end,
                          (unsigned long long)live[i].fence);
        live[hi++] = (busy){ gpu, gpu + size, fence };
        total += size;
        /* the GPU makes some progress now and then */
        if (rand() % 3 == 0 && fence > 3) {
            uint64_t f = fence - (uint64_t)(rand() % 4);
            if (f > completed) {
                completed = f;
                rdx_kernarg_ring_complete(r, completed);
                while (lo < hi && live[lo].fence <= completed)
                    lo++;
            }
        }
        ck_assert_uint_le(rdx_kernarg_ring_busy(r), RING);
    }
    ck_assert_uint_gt(total, 100 * RING); /* the space was reused many times */
    rdx_kernarg_ring_complete(r, fence);
    ck_assert_uint_eq(rdx_kernarg_ring_busy(r), 0);
    free(live);
    rdx_kernarg_ring_destroy(r);
}
END_TEST

START_TEST(signal_pool)
{
    static rdx_signal_slot mem[8];
    const uint64_t base = 0x300000;
    rdx_signal_pool *p;
    ck_assert_int_eq(rdx_signal_pool_create(base, mem, sizeof mem - 1, &p), RDX_OK);
    ck_assert_uint_eq(rdx_signal_pool_capacity(p), 7); /* whole 64-byte slots only */
    rdx_signal s[8];
    for (int i = 0; i < 7; i++) {
        ck_assert_int_eq(rdx_signal_pool_acquire(p, 100 + (uint64_t)i, 40 + (uint32_t)i, &s[i]),
                         RDX_OK);
        ck_assert_uint_eq(s[i].index, (uint32_t)i);
        ck_assert_uint_eq(s[i].gpu_addr, base + 64 * (uint64_t)i);
        ck_assert_ptr_eq(s[i].slot, &mem[i]);
        ck_assert_uint_eq(mem[i].value, 100 + (uint64_t)i);
        ck_assert_uint_eq(mem[i].event_id, 40 + (uint32_t)i);
    }
    ck_assert_uint_eq(rdx_signal_pool_in_use(p), 7);
    ck_assert_int_eq(rdx_signal_pool_acquire(p, 0, 0, &s[7]), RDX_ERR_RANGE);
    CHECK_MSG("all 7 slots in use");
    ck_assert_int_eq(rdx_signal_pool_release(p, &s[3]), RDX_OK);
    ck_assert_int_eq(rdx_signal_pool_release(p, &s[3]), RDX_ERR_INVALID);
    CHECK_MSG("slot 3 generation 1 is not held");
    rdx_signal again;
    ck_assert_int_eq(rdx_signal_pool_acquire(p, 7, 0, &again), RDX_OK);
    ck_assert_uint_eq(again.index, 3); /* recycled */
    ck_assert_uint_ne(again.generation, s[3].generation);
    ck_assert_int_eq(rdx_signal_pool_release(p, &s[3]), RDX_ERR_INVALID); /* stale handle */
    rdx_signal bogus = { .index = 99, .generation = 1 };
    ck_assert_int_eq(rdx_signal_pool_release(p, &bogus), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_signal_pool_release(p, &again), RDX_OK);
    for (int i = 0; i < 7; i++)
        if (i != 3)
            ck_assert_int_eq(rdx_signal_pool_release(p, &s[i]), RDX_OK);
    ck_assert_uint_eq(rdx_signal_pool_in_use(p), 0);
    rdx_signal_pool_destroy(p);
    ck_assert_int_eq(rdx_signal_pool_create(base + 8, mem, sizeof mem, &p), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_signal_pool_create(base, mem, 63, &p), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_signal_pool_create(base, NULL, 640, &p), RDX_ERR_INVALID);
    rdx_signal_pool_destroy(NULL);
}
END_TEST

START_TEST(ring_and_pool_create_destroy_loops)
{
    static char mem[4096] __attribute__((aligned(64)));
    for (int i = 0; i < 500; i++) {
        rdx_kernarg_ring *r;
        rdx_signal_pool *p;
        ck_assert_int_eq(rdx_kernarg_ring_create(0x1000, mem, sizeof mem, &r), RDX_OK);
        ck_assert_int_eq(rdx_signal_pool_create(0x1000, mem, sizeof mem, &p), RDX_OK);
        uint64_t g;
        void *c;
        for (int k = 0; k < 100; k++)
            rdx_kernarg_ring_alloc(r, 64, 16, (uint64_t)k, &g, &c);
        rdx_signal s;
        rdx_signal_pool_acquire(p, 1, 0, &s);
        rdx_kernarg_ring_destroy(r);
        rdx_signal_pool_destroy(p);
    }
}
END_TEST

TCase *alloc_ring_tcase(void)
{
    TCase *tc = tcase_create("ring");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, ring_hand_traced);
    tcase_add_test(tc, ring_unaligned_base);
    tcase_add_test(tc, ring_simulated_gpu);
    tcase_add_test(tc, signal_pool);
    tcase_add_test(tc, ring_and_pool_create_destroy_loops);
    return tc;
}
