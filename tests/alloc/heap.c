/*
 * tests/alloc/heap.c — the sub-allocator against a reference model: a mock
 * backing made of malloc'd blocks that records every block it hands out, and
 * a list of live allocations checked for alignment, containment, overlap and
 * content integrity after every step.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/alloc/alloc_tests.h"
#include "tests/harness/harness.h"
#include "util/error.h"

/* ---- mock backing -------------------------------------------------------- */

typedef struct mock_block {
    rdx_alloc_block b;
    uint32_t kind;
    int live;
} mock_block;

typedef struct mock {
    mock_block blocks[4096];
    int n;
    int live;
    uint64_t next_addr;
    int fail_next;    /* obtain fails with RDX_ERR_NOMEM */
    int wrong_size;   /* obtain returns a block of the wrong size */
    int fail_release; /* release fails with RDX_ERR_DEVICE (after freeing) */
    uint64_t align;
    pthread_mutex_t mu;
} mock;

static rdx_status mock_obtain(void *user, uint32_t kind, uint64_t size, rdx_alloc_block *out)
{
    mock *m = user;
    pthread_mutex_lock(&m->mu);
    if (m->fail_next) {
        m->fail_next = 0;
        pthread_mutex_unlock(&m->mu);
        return rdx_fail(RDX_ERR_NOMEM, "mock: no memory for %llu bytes", (unsigned long long)size);
    }
    ck_assert_int_lt(m->n, 4096);
    ck_assert_uint_eq(size % m->align, 0);
    mock_block *mb = &m->blocks[m->n++];
    mb->b.size = m->wrong_size ? size / 2 : size;
    mb->b.addr = m->next_addr;
    mb->b.cpu = malloc(size);
    ck_assert_ptr_nonnull(mb->b.cpu);
    mb->b.handle = mb;
    mb->kind = kind;
    mb->live = 1;
    m->live++;
    /* leave a hole between blocks so block-crossing bugs show */
    m->next_addr += (size + m->align) & ~(m->align - 1);
    m->next_addr += m->align;
    *out = mb->b;
    pthread_mutex_unlock(&m->mu);
    return RDX_OK;
}

static rdx_status mock_release(void *user, uint32_t kind, const rdx_alloc_block *b)
{
    mock *m = user;
    pthread_mutex_lock(&m->mu);
    mock_block *mb = b->handle;
    ck_assert(mb->live);
    ck_assert_uint_eq(mb->kind, kind);
    ck_assert_uint_eq(mb->b.addr, b->addr);
    free(mb->b.cpu);
    mb->live = 0;
    m->live--;
    int fail = m->fail_release;
    pthread_mutex_unlock(&m->mu);
    if (fail)
        return rdx_fail(RDX_ERR_DEVICE, "mock: release of 0x%llx failed",
                        (unsigned long long)b->addr);
    return RDX_OK;
}

static mock *mock_new(uint64_t align)
{
    mock *m = calloc(1, sizeof *m);
    m->next_addr = 0x7f0000000000ull;
    m->align = align;
    pthread_mutex_init(&m->mu, NULL);
    return m;
}

static rdx_alloc *new_alloc(mock *m, uint64_t block_size, rdx_alloc_fit fit, uint32_t keep)
{
    rdx_alloc_backing be = { mock_obtain, mock_release, m };
    rdx_alloc_config cfg = { block_size, m->align, fit, keep };
    rdx_alloc *a;
    ck_assert_int_eq(rdx_alloc_create(&be, &cfg, &a), RDX_OK);
    return a;
}

static const mock_block *block_of(const mock *m, uint64_t addr, uint64_t size)
{
    for (int i = 0; i < m->n; i++) {
        const mock_block *mb = &m->blocks[i];
        if (mb->live && addr >= mb->b.addr && addr + size <= mb->b.addr + mb->b.size)
            return mb;
    }
    return NULL;
}

/* ---- reference model ------------------------------------------------------ */

typedef struct live_alloc {
    rdx_alloc_region r;
    uint8_t tag;
} live_alloc;

static void check_region(const mock *m, const live_alloc *live, int nlive,
                         const rdx_alloc_region *r, uint64_t align)
{
    ck_assert_uint_eq(r->addr % align, 0);
    const mock_block *mb = block_of(m, r->addr, r->size);
    ck_assert_msg(mb != NULL, "0x%llx+%llu outside every block", (unsigned long long)r->addr,
                  (unsigned long long)r->size);
    ck_assert_uint_eq(mb->kind, r->kind);
    ck_assert_ptr_eq(r->cpu, (char *)mb->b.cpu + (r->addr - mb->b.addr));
    for (int i = 0; i < nlive; i++) {
        const rdx_alloc_region *o = &live[i].r;
        ck_assert_msg(r->addr + r->size <= o->addr || o->addr + o->size <= r->addr,
                      "overlap 0x%llx+%llu with 0x%llx+%llu", (unsigned long long)r->addr,
                      (unsigned long long)r->size, (unsigned long long)o->addr,
                      (unsigned long long)o->size);
    }
}

static void fill(const live_alloc *l)
{
    memset(l->r.cpu, l->tag, l->r.size < 64 ? l->r.size : 64);
    ((uint8_t *)l->r.cpu)[l->r.size - 1] = l->tag;
}

static void verify(const live_alloc *l)
{
    const uint8_t *p = l->r.cpu;
    for (uint64_t i = 0; i < (l->r.size < 64 ? l->r.size : 64); i++)
        ck_assert_uint_eq(p[i], l->tag);
    ck_assert_uint_eq(p[l->r.size - 1], l->tag);
}

static void check_stats(rdx_alloc *a, const live_alloc *live, int nlive)
{
    for (uint32_t k = 0; k < 3; k++) {
        uint64_t sum = 0, n = 0;
        for (int i = 0; i < nlive; i++)
            if (live[i].r.kind == k) {
                sum += live[i].r.size;
                n++;
            }
        rdx_alloc_stats s;
        rdx_alloc_get_stats(a, k, &s);
        ck_assert_uint_eq(s.in_use, sum);
        ck_assert_uint_eq(s.allocations, n);
        ck_assert_uint_le(s.in_use + s.free_bytes, s.backing);
        ck_assert_uint_ge(s.peak_in_use, s.in_use);
        ck_assert_uint_ge(s.peak_backing, s.backing);
    }
}

static void random_run(rdx_alloc_fit fit, uint32_t keep, unsigned seed)
{
    srand(seed);
    mock *m = mock_new(4096);
    rdx_alloc *a = new_alloc(m, 1 << 20, fit, keep);
    enum { N = 400 };
    live_alloc *live = calloc(N, sizeof *live);
    int nlive = 0;
    uint64_t peak = 0, cur = 0;
    for (int step = 0; step < 6000; step++) {
        bool do_alloc = nlive == 0 || (nlive < N && rand() % 100 < (step < 3000 ? 60 : 40));
        if (do_alloc) {
            uint32_t kind = (uint32_t)(rand() % 3);
            uint64_t size = rand() % 10 == 0 ? 1 + (uint64_t)(rand() % (3 << 20))
                                             : 1 + (uint64_t)(rand() % 20000);
            uint64_t align = 1ull << (rand() % 17);
            live_alloc l = { .tag = (uint8_t)(1 + rand() % 255) };
            ck_assert_int_eq(rdx_alloc_alloc(a, kind, size, align, &l.r), RDX_OK);
            ck_assert_uint_eq(l.r.size, size);
            ck_assert_uint_eq(l.r.kind, kind);
            check_region(m, live, nlive, &l.r, align);
            fill(&l);
            live[nlive++] = l;
            cur += size;
            if (cur > peak)
                peak = cur;
        } else {
            int i = rand() % nlive;
            verify(&live[i]);
            ck_assert_int_eq(rdx_alloc_free(a, live[i].r.kind, live[i].r.addr), RDX_OK);
            cur -= live[i].r.size;
            live[i] = live[--nlive];
        }
        if (step % 97 == 0)
            check_stats(a, live, nlive);
    }
    rdx_alloc_stats all;
    rdx_alloc_get_stats(a, UINT32_MAX, &all);
    ck_assert_uint_ge(all.peak_in_use, 1); /* per-kind peaks summed */
    while (nlive) {
        verify(&live[nlive - 1]);
        ck_assert_int_eq(rdx_alloc_free(a, live[nlive - 1].r.kind, live[nlive - 1].r.addr), RDX_OK);
        nlive--;
    }
    check_stats(a, live, 0);
    rdx_alloc_get_stats(a, UINT32_MAX, &all);
    ck_assert_uint_eq(all.in_use, 0);
    /* heaps shrink: only keep_empty blocks per kind remain */
    ck_assert_int_le(m->live, (int)(3 * keep));
    ck_assert_uint_eq(all.blocks, (uint64_t)m->live);
    rdx_alloc_trim(a);
    ck_assert_int_eq(m->live, 0);
    rdx_alloc_get_stats(a, UINT32_MAX, &all);
    ck_assert_uint_eq(all.backing, 0);
    rdx_alloc_destroy(a);
    free(live);
    free(m);
}

START_TEST(random_best_fit_against_model)
{
    random_run(RDX_ALLOC_BEST_FIT, 0, 1);
}
END_TEST

START_TEST(random_first_fit_keep_one_against_model)
{
    random_run(RDX_ALLOC_FIRST_FIT, 1, 2);
}
END_TEST

START_TEST(best_and_first_fit_choose_differently)
{
    for (int f = 0; f < 2; f++) {
        mock *m = mock_new(4096);
        rdx_alloc *a = new_alloc(m, 4096, f ? RDX_ALLOC_FIRST_FIT : RDX_ALLOC_BEST_FIT, 0);
        rdx_alloc_region r[4], x;
        const uint64_t sizes[4] = { 1000, 100, 2000, 100 };
        for (int i = 0; i < 4; i++)
            ck_assert_int_eq(rdx_alloc_alloc(a, 0, sizes[i], 1, &r[i]), RDX_OK);
        uint64_t base = r[0].addr;
        ck_assert_uint_eq(r[1].addr, base + 1000);
        ck_assert_uint_eq(r[2].addr, base + 1100);
        ck_assert_uint_eq(r[3].addr, base + 3100);
        rdx_alloc_free(a, 0, r[0].addr); /* free ranges: 1000 @0, 2000 @1100, 896 @3200 */
        rdx_alloc_free(a, 0, r[2].addr);
        rdx_alloc_stats s;
        rdx_alloc_get_stats(a, 0, &s);
        ck_assert_uint_eq(s.free_bytes, 3896);
        ck_assert_uint_eq(s.largest_free, 2000);
        ck_assert_double_eq_tol(s.fragmentation, 1.0 - 2000.0 / 3896.0, 1e-12);
        ck_assert_uint_eq(s.in_use, 200);
        ck_assert_uint_eq(s.peak_in_use, 3200);
        ck_assert_int_eq(rdx_alloc_alloc(a, 0, 800, 1, &x), RDX_OK);
        /* best fit takes the 896-byte tail, first fit the lowest range */
        ck_assert_uint_eq(x.addr, f ? base : base + 3200);
        ck_assert_int_eq(m->live, 1);
        rdx_alloc_destroy(a);
        ck_assert_int_eq(m->live, 0);
        free(m);
    }
}
END_TEST

START_TEST(coalescing_restores_one_range)
{
    mock *m = mock_new(4096);
    rdx_alloc *a = new_alloc(m, 1 << 16, RDX_ALLOC_BEST_FIT, 1);
    rdx_alloc_region r[16];
    for (int i = 0; i < 16; i++)
        rdx_alloc_alloc(a, 0, 4096, 4096, &r[i]);
    /* free in an order that needs both left and right merges */
    const int order[16] = { 1, 3, 5, 7, 9, 11, 13, 15, 0, 2, 4, 6, 8, 10, 12, 14 };
    for (int i = 0; i < 16; i++)
        ck_assert_int_eq(rdx_alloc_free(a, 0, r[order[i]].addr), RDX_OK);
    rdx_alloc_stats s;
    rdx_alloc_get_stats(a, 0, &s);
    ck_assert_uint_eq(s.blocks, 1); /* kept (keep_empty = 1) */
    ck_assert_uint_eq(s.largest_free, 1 << 16);
    ck_assert_uint_eq(s.free_bytes, 1 << 16);
    ck_assert_double_eq(s.fragmentation, 0.0);
    rdx_alloc_region big;
    ck_assert_int_eq(rdx_alloc_alloc(a, 0, 1 << 16, 1, &big), RDX_OK);
    ck_assert_int_eq(m->n, 1); /* the whole block is reused, no new backing */
    rdx_alloc_destroy(a);
    ck_assert_int_eq(m->live, 0);
    free(m);
}
END_TEST

START_TEST(large_and_overaligned_requests_get_own_blocks)
{
    mock *m = mock_new(4096);
    rdx_alloc *a = new_alloc(m, 1 << 16, RDX_ALLOC_BEST_FIT, 0);
    rdx_alloc_region r;
    ck_assert_int_eq(rdx_alloc_alloc(a, 1, (1 << 20) + 1, 1, &r), RDX_OK);
    ck_assert_uint_eq(m->blocks[0].b.size, (1 << 20) + 4096); /* rounded to block_align */
    ck_assert_int_eq(rdx_alloc_alloc(a, 1, 100, 1 << 20, &r), RDX_OK);
    ck_assert_uint_eq(r.addr % (1 << 20), 0);
    ck_assert_uint_eq(m->blocks[1].kind, 1);
    rdx_alloc_destroy(a);
    ck_assert_int_eq(m->live, 0);
    free(m);
}
END_TEST

START_TEST(errors_leave_state_unchanged)
{
    mock *m = mock_new(4096);
    rdx_alloc *a = new_alloc(m, 1 << 16, RDX_ALLOC_BEST_FIT, 0);
    rdx_alloc_region r, x;
    ck_assert_int_eq(rdx_alloc_alloc(a, 0, 100, 16, &r), RDX_OK);
    ck_assert_int_eq(rdx_alloc_free(a, 0, r.addr + 16), RDX_ERR_INVALID);
    CHECK_MSG("is not the start of a live allocation of kind 0");
    ck_assert_int_eq(rdx_alloc_free(a, 1, r.addr), RDX_ERR_INVALID); /* wrong kind */
    ck_assert_int_eq(rdx_alloc_free(a, 0, 0x1234), RDX_ERR_INVALID); /* foreign */
    ck_assert_int_eq(rdx_alloc_free(a, 9, r.addr), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_alloc_alloc(a, 0, 0, 1, &x), RDX_ERR_INVALID);
    CHECK_MSG("size 0");
    ck_assert_int_eq(rdx_alloc_alloc(a, 0, 8, 3, &x), RDX_ERR_INVALID);
    CHECK_MSG("alignment 3 is not a power of two");
    ck_assert_int_eq(rdx_alloc_alloc(a, RDX_ALLOC_MAX_KINDS, 8, 1, &x), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_alloc_alloc(a, 0, UINT64_MAX - 10, 1, &x), RDX_ERR_INVALID);
    CHECK_MSG("overflow");
    /* the backing fails: its error comes back with context, nothing changes */
    m->fail_next = 1;
    ck_assert_int_eq(rdx_alloc_alloc(a, 2, 100, 1, &x), RDX_ERR_NOMEM);
    CHECK_MSG("allocating a 65536-byte backing block of kind 2: mock: no memory");
    /* the backing misbehaves: the block is returned and a device error reported */
    m->wrong_size = 1;
    ck_assert_int_eq(rdx_alloc_alloc(a, 2, 100, 1, &x), RDX_ERR_DEVICE);
    CHECK_MSG("backing returned block");
    m->wrong_size = 0;
    ck_assert_int_eq(m->live, 1);
    rdx_alloc_stats s;
    rdx_alloc_get_stats(a, UINT32_MAX, &s);
    ck_assert_uint_eq(s.in_use, 100);
    ck_assert_uint_eq(s.allocations, 1);
    ck_assert_int_eq(rdx_alloc_free(a, 0, r.addr), RDX_OK);
    ck_assert_int_eq(rdx_alloc_free(a, 0, r.addr), RDX_ERR_INVALID); /* double free */
    ck_assert_int_eq(m->live, 0);
    rdx_alloc_destroy(a);
    free(m);

    rdx_alloc *b;
    rdx_alloc_backing none = { 0 };
    ck_assert_int_eq(rdx_alloc_create(&none, NULL, &b), RDX_ERR_INVALID);
    ck_assert_ptr_null(b);
    rdx_alloc_backing be = { mock_obtain, mock_release, NULL };
    rdx_alloc_config bad = { .block_align = 3000 };
    ck_assert_int_eq(rdx_alloc_create(&be, &bad, &b), RDX_ERR_INVALID);
    CHECK_MSG("block_align 3000");
    rdx_alloc_destroy(NULL);
}
END_TEST

START_TEST(create_destroy_loops_release_everything)
{
    mock *m = mock_new(4096);
    for (int loop = 0; loop < 300; loop++) {
        rdx_alloc *a =
            new_alloc(m, 1 << 14, loop & 1 ? RDX_ALLOC_FIRST_FIT : RDX_ALLOC_BEST_FIT, loop % 3);
        rdx_alloc_region r;
        for (int i = 0; i < 20; i++)
            rdx_alloc_alloc(a, (uint32_t)(i % 3), 1000 + 100 * (uint64_t)i, 64, &r);
        if (loop % 2)
            rdx_alloc_free(a, r.kind, r.addr);
        rdx_alloc_destroy(a); /* live allocations and cached blocks included */
        ck_assert_int_eq(m->live, 0);
        m->n = 0;
    }
    free(m);
}
END_TEST

typedef struct thread_arg {
    rdx_alloc *a;
    unsigned seed;
} thread_arg;

static void *hammer(void *p)
{
    thread_arg *t = p;
    rdx_alloc_region r[32];
    int n = 0;
    unsigned s = t->seed;
    for (int i = 0; i < 3000; i++) {
        s = s * 1103515245u + 12345u;
        if (n < 32 && (n == 0 || (s >> 16) % 2)) {
            if (rdx_alloc_alloc(t->a, (s >> 8) % 2, 1 + (s >> 12) % 5000, 16, &r[n]) == RDX_OK)
                n++;
        } else {
            n--;
            rdx_alloc_free(t->a, r[n].kind, r[n].addr);
        }
    }
    while (n--)
        rdx_alloc_free(t->a, r[n].kind, r[n].addr);
    return NULL;
}

START_TEST(concurrent_alloc_free)
{
    mock *m = mock_new(4096);
    rdx_alloc *a = new_alloc(m, 1 << 16, RDX_ALLOC_BEST_FIT, 0);
    pthread_t th[4];
    thread_arg args[4];
    for (int i = 0; i < 4; i++) {
        args[i] = (thread_arg){ a, (unsigned)i * 7919u + 1 };
        pthread_create(&th[i], NULL, hammer, &args[i]);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    rdx_alloc_stats s;
    rdx_alloc_get_stats(a, UINT32_MAX, &s);
    ck_assert_uint_eq(s.in_use, 0);
    ck_assert_uint_eq(s.allocations, 0);
    ck_assert_int_eq(m->live, 0);
    rdx_alloc_destroy(a);
    free(m);
}
END_TEST

static void check_release_error(void)
{
    const char *msg = rdx_error_message();
    ck_assert_msg(
        strstr(msg, "releasing the 65536-byte backing block at 0x7f0000000000 of kind 1") &&
            strstr(msg, "mock: release of 0x7f0000000000 failed"),
        "message: %s", msg);
}

/* A backing whose release fails: free, trim and destroy pass the error on,
 * and the allocator forgets the block anyway. */
START_TEST(release_failures_are_passed_on)
{
    for (int how = 0; how < 3; how++) {
        mock *m = mock_new(4096);
        rdx_alloc *a = new_alloc(m, 65536, RDX_ALLOC_BEST_FIT, how == 1 ? 1 : 0);
        rdx_alloc_region r;
        ck_assert_int_eq(rdx_alloc_alloc(a, 1, 100, 0, &r), RDX_OK);
        ck_assert_int_eq(m->live, 1);
        if (how != 2) /* 0: the free releases the block; 1: it is kept */
            m->fail_release = how == 0;
        if (how != 2)
            ck_assert_int_eq(rdx_alloc_free(a, 1, r.addr), how == 0 ? RDX_ERR_DEVICE : RDX_OK);
        if (how == 0)
            check_release_error();
        m->fail_release = 1;
        if (how == 1) {
            ck_assert_int_eq(rdx_alloc_trim(a), RDX_ERR_DEVICE);
            check_release_error();
        }
        rdx_alloc_stats st;
        rdx_alloc_get_stats(a, 1, &st);
        ck_assert_uint_eq(st.blocks, how == 2 ? 1 : 0);
        ck_assert_uint_eq(st.backing, how == 2 ? 65536 : 0);
        ck_assert_int_eq(m->live, how == 2 ? 1 : 0);
        /* The allocation is gone whatever the backing said. */
        if (how != 2)
            ck_assert_int_eq(rdx_alloc_free(a, 1, r.addr), RDX_ERR_INVALID);
        ck_assert_int_eq(rdx_alloc_destroy(a), how == 2 ? RDX_ERR_DEVICE : RDX_OK);
        if (how == 2)
            check_release_error();
        ck_assert_int_eq(m->live, 0);
        free(m);
    }
}
END_TEST

TCase *alloc_heap_tcase(void)
{
    TCase *tc = tcase_create("heap");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, random_best_fit_against_model);
    tcase_add_test(tc, random_first_fit_keep_one_against_model);
    tcase_add_test(tc, best_and_first_fit_choose_differently);
    tcase_add_test(tc, coalescing_restores_one_range);
    tcase_add_test(tc, large_and_overaligned_requests_get_own_blocks);
    tcase_add_test(tc, errors_leave_state_unchanged);
    tcase_add_test(tc, create_destroy_loops_release_everything);
    tcase_add_test(tc, concurrent_alloc_free);
    tcase_add_test(tc, release_failures_are_passed_on);
    return tc;
}
