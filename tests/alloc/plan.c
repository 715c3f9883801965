/*
 * tests/alloc/plan.c — the memory planner: hand cases with known optimal
 * arenas, and random schedules checked by a brute-force validator (no two
 * buffers live at the same step overlap; alignment; arena bounds) with the
 * quality measured against the live-bytes lower bound and the no-reuse sum.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tests/alloc/alloc_tests.h"
#include "tests/harness/harness.h"

/* Brute-force validity check; returns the arena the offsets imply. */
static uint64_t validate(const rdx_plan_buffer *b, size_t n, const uint64_t *off)
{
    uint64_t arena = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t a = b[i].align ? b[i].align : 1;
        ck_assert_msg(off[i] % a == 0, "buffer %zu misaligned", i);
        if (b[i].size && off[i] + b[i].size > arena)
            arena = off[i] + b[i].size;
        for (size_t j = 0; j < i; j++) {
            if (!b[i].size || !b[j].size || b[i].last < b[j].first || b[j].last < b[i].first)
                continue;
            ck_assert_msg(off[i] + b[i].size <= off[j] || off[j] + b[j].size <= off[i],
                          "buffers %zu [%u,%u] @%llu+%llu and %zu [%u,%u] @%llu+%llu overlap", i,
                          b[i].first, b[i].last, (unsigned long long)off[i],
                          (unsigned long long)b[i].size, j, b[j].first, b[j].last,
                          (unsigned long long)off[j], (unsigned long long)b[j].size);
        }
    }
    return arena;
}

START_TEST(plan_hand_cases)
{
    /* A [0,1], B [1,2], C [2,3], 100 bytes each: A and C share, B does not. */
    rdx_plan_buffer b[3] = { { 100, 0, 0, 1 }, { 100, 0, 1, 2 }, { 100, 0, 2, 3 } };
    uint64_t off[3];
    rdx_plan_stats st;
    ck_assert_int_eq(rdx_alloc_plan(b, 3, off, &st), RDX_OK);
    ck_assert_uint_eq(validate(b, 3, off), 200);
    ck_assert_uint_eq(st.arena, 200);
    ck_assert_uint_eq(st.lower_bound, 200);
    ck_assert_uint_eq(st.no_reuse, 300);
    ck_assert_uint_eq(off[0], off[2]);

    /* A chain of 64 equal buffers, each live for two steps: optimum is two slots. */
    rdx_plan_buffer chain[64];
    uint64_t coff[64];
    for (uint32_t i = 0; i < 64; i++)
        chain[i] = (rdx_plan_buffer){ 4096, 256, i, i + 1 };
    ck_assert_int_eq(rdx_alloc_plan(chain, 64, coff, &st), RDX_OK);
    validate(chain, 64, coff);
    ck_assert_uint_eq(st.arena, 8192);
    ck_assert_uint_eq(st.no_reuse, 64 * 4096);

    /* Alignment is honoured and counted in no_reuse; zero-size buffers take no room. */
    rdx_plan_buffer al[3] = { { 10, 0, 0, 5 }, { 10, 256, 0, 5 }, { 0, 0, 0, 5 } };
    ck_assert_int_eq(rdx_alloc_plan(al, 3, off, &st), RDX_OK);
    validate(al, 3, off);
    ck_assert_uint_eq(off[1] % 256, 0);
    ck_assert_uint_eq(off[2], 0);
    ck_assert_uint_eq(st.no_reuse, 10 + 256);
    ck_assert_uint_eq(st.arena, 266); /* the larger-aligned one at 0, the other after it */

    /* A small buffer fills the best gap between two longer-lived ones. */
    rdx_plan_buffer gap[4] = {
        { 1000, 0, 0, 9 }, /* long */
        { 300, 0, 0, 2 },  /* short: freed early */
        { 1000, 0, 0, 9 }, /* long */
        { 200, 0, 5, 6 },  /* reuses the short one's place */
    };
    uint64_t goff[4];
    ck_assert_int_eq(rdx_alloc_plan(gap, 4, goff, &st), RDX_OK);
    validate(gap, 4, goff);
    ck_assert_uint_eq(st.arena, 2300);
    ck_assert_uint_eq(st.lower_bound, 2300);

    ck_assert_int_eq(rdx_alloc_plan(NULL, 0, NULL, &st), RDX_OK);
    ck_assert_uint_eq(st.arena, 0);
}
END_TEST

START_TEST(plan_errors)
{
    uint64_t off[2];
    rdx_plan_buffer bad1[2] = { { 8, 0, 0, 1 }, { 8, 0, 3, 2 } };
    ck_assert_int_eq(rdx_alloc_plan(bad1, 2, off, NULL), RDX_ERR_INVALID);
    CHECK_MSG("buffer 1: lifetime [3, 2] ends before it starts");
    rdx_plan_buffer bad2[1] = { { 8, 12, 0, 1 } };
    ck_assert_int_eq(rdx_alloc_plan(bad2, 1, off, NULL), RDX_ERR_INVALID);
    CHECK_MSG("buffer 0: alignment 12 is not a power of two");
    rdx_plan_buffer bad3[2] = { { UINT64_MAX - 4, 0, 0, 1 }, { 100, 0, 0, 1 } };
    ck_assert_int_eq(rdx_alloc_plan(bad3, 2, off, NULL), RDX_ERR_INVALID);
    CHECK_MSG("sizes overflow");
}
END_TEST

START_TEST(plan_random_valid_and_good)
{
    srand(11);
    enum { N = 80, TRIALS = 300 };
    rdx_plan_buffer b[N];
    uint64_t off[N];
    double worst = 1.0, sum_ratio = 0, sum_saving = 0;
    int counted = 0;
    for (int t = 0; t < TRIALS; t++) {
        size_t n = 1 + (size_t)(rand() % N);
        uint32_t steps = 1 + (uint32_t)(rand() % 120);
        for (size_t i = 0; i < n; i++) {
            uint32_t f = (uint32_t)(rand() % steps);
            uint32_t len = rand() % 4 == 0 ? (uint32_t)(rand() % steps) : (uint32_t)(rand() % 6);
            b[i].first = f;
            b[i].last = f + len;
            b[i].size = rand() % 8 == 0 ? 0 : 1 + (uint64_t)(rand() % (1 << (4 + rand() % 17)));
            b[i].align = 1ull << (rand() % 9);
        }
        rdx_plan_stats st;
        ck_assert_int_eq(rdx_alloc_plan(b, n, off, &st), RDX_OK);
        ck_assert_uint_eq(validate(b, n, off), st.arena);
        ck_assert_uint_le(st.arena, st.no_reuse);
        ck_assert_uint_ge(st.arena, st.lower_bound);
        if (st.lower_bound) {
            double ratio = (double)st.arena / (double)st.lower_bound;
            sum_ratio += ratio;
            if (ratio > worst)
                worst = ratio;
            sum_saving += 1.0 - (double)st.arena / (double)st.no_reuse;
            counted++;
        }
    }
    ck_assert_int_gt(counted, TRIALS / 2);
    double mean = sum_ratio / counted;
    printf("planner: arena/lower_bound mean %.3f worst %.3f; mean saving vs no reuse %.1f%%\n",
           mean, worst, 100.0 * sum_saving / counted);
    /* Greedy-by-size stays close to the bound on these schedules (measured mean
     * 1.006, worst 1.36 at seed 11, alignment padding included); a regression
     * shows here. */
    ck_assert_double_lt(mean, 1.2);
    ck_assert_double_lt(worst, 2.0);
}
END_TEST

TCase *alloc_plan_tcase(void)
{
    TCase *tc = tcase_create("plan");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, plan_hand_cases);
    tcase_add_test(tc, plan_errors);
    tcase_add_test(tc, plan_random_valid_and_good);
    return tc;
}
