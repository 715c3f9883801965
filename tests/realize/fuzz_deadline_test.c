/* tests/realize/fuzz_deadline_test.c — build/fuzz-realize (fuzz/fuzz_realize.c) ends by
 * its deadline whatever a case does: a case that never ends (FUZZ_TEST_STALL=seed, as a
 * dispatch nothing bounds) is stopped at --case-time and reported SLOW with its seed, the
 * run goes on from the next seed; at --time the run stops mid-case and still prints its
 * summary; neither is a finding (exit status 0). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/realize/rz_test.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Run fuzz-realize with args (after the program and --out), FUZZ_TEST_STALL=stall; *secs
   gets the wall-clock time it took. */
static rdx_test_proc fuzz(const char *stall, const char *const *args, double *secs)
{
    char prog[512];
    snprintf(prog, sizeof prog, "%s/fuzz-realize", rdx_test_build_dir());
    char *out = rdx_test_tmp_path("fuzz-out");
    const char *argv[24];
    size_t n = 0;
    argv[n++] = prog;
    argv[n++] = "--out";
    argv[n++] = out;
    for (size_t k = 0; args[k] && n < 23; k++)
        argv[n++] = args[k];
    argv[n] = NULL;
    setenv("FUZZ_TEST_STALL", stall, 1); /* Check runs each test in its own process */
    rdx_test_proc p;
    double t0 = now_s();
    rdx_test_run(argv, NULL, 0, &p);
    *secs = now_s() - t0;
    unsetenv("FUZZ_TEST_STALL");
    free(out);
    return p;
}

START_TEST(case_over_its_time_is_slow)
{
    double secs = 0;
    rdx_test_proc p = fuzz("2",
                           (const char *[]){ "--seed", "1", "--count", "4", "--case-time", "1",
                                             "--maxops", "2", NULL },
                           &secs);
    ck_assert_msg(p.status == 0, "status %d\n%s%s", p.status, p.out, p.err);
    ck_assert_msg(secs < 30, "took %.1f s", secs);
    ck_assert_msg(strstr(p.out, "SLOW seed 2: the case ran over its time limit (1 s)"), "%s",
                  p.out);
    ck_assert_msg(strstr(p.out, "--seed 2 --count 1 --case-time 0"), "%s", p.out);
    ck_assert_msg(strstr(p.out, "fuzz_realize: 4 cases from seed 1 in "), "%s", p.out);
    ck_assert_msg(strstr(p.out, ", 0 findings\n"), "%s", p.out);
    ck_assert_msg(strstr(p.out, "1 slow cases (over the emulator budget or the per-case time "
                                "limit), seeds: 2\n"),
                  "%s", p.out);
    rdx_test_proc_free(&p);
}
END_TEST

START_TEST(deadline_stops_a_case_that_never_ends)
{
    double secs = 0;
    rdx_test_proc p = fuzz(
        "3",
        (const char *[]){ "--seed", "1", "--time", "2", "--case-time", "0", "--maxops", "2", NULL },
        &secs);
    ck_assert_msg(p.status == 0, "status %d\n%s%s", p.status, p.out, p.err);
    ck_assert_msg(secs >= 1.9 && secs < 10, "took %.1f s", secs);
    ck_assert_msg(strstr(p.out, "fuzz_realize: 2 cases from seed 1 in "), "%s", p.out);
    ck_assert_msg(strstr(p.out, "stopped in seed 3 (not counted; replay: --seed 3 --count 1)"),
                  "%s", p.out);
    rdx_test_proc_free(&p);
}
END_TEST

TCase *rz_tcase_fuzz_deadline(void)
{
    TCase *tc = tcase_create("fuzz_deadline");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, case_over_its_time_is_slow);
    tcase_add_test(tc, deadline_stops_a_case_that_never_ends);
    return tc;
}
