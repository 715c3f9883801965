/* tests/ir/cli_test.c — `rdx uop check|print|simplify`: outputs, errors and exit codes. */
#include <stdlib.h>
#include <string.h>

#include "tests/ir/ir_test.h"

static int run(const char *a1, const char *a2, const char *a3, rdx_test_proc *p)
{
    const char *argv[] = { rdx_test_rdx_path(), "uop", a1, a2, a3, NULL };
    return rdx_test_run(argv, NULL, 0, p);
}

START_TEST(check_prints_output_properties)
{
    rdx_test_proc p;
    ck_assert_int_eq(run("check", "tests/data/ir/gemm.uop", NULL, &p), 0);
    ck_assert_str_eq(p.out, "output 0: RESHAPE float32[4,6] device=AMD min_max=[-inf,inf]\n");
    rdx_test_proc_free(&p);
    ck_assert_int_eq(run("check", "tests/data/ir/prefix_sum.uop", NULL, &p), 0);
    ck_assert_str_eq(p.out, "output 0: REDUCE float32[4,1] device=AMD min_max=[-inf,inf]\n");
    rdx_test_proc_free(&p);
    ck_assert_int_eq(run("check", "tests/data/ir/index.uop", NULL, &p), 0);
    ck_assert_str_eq(p.out, "output 0: ADD index[] min_max=[0,83]\n");
    rdx_test_proc_free(&p);
    /* the spec's broadcast collective ends in REPLICATED: (2,4) on 2 devices -> (4,) */
    ck_assert_int_eq(run("check", "tests/data/ir/replicated.uop", NULL, &p), 0);
    ck_assert_str_eq(p.out, "output 0: REPLICATED float32[4] device=(AMD:0,AMD:1) addr=global "
                            "min_max=[-inf,inf]\n");
    rdx_test_proc_free(&p);
}
END_TEST

START_TEST(simplify_folds_the_index_expression)
{
    rdx_test_proc p;
    ck_assert_int_eq(run("simplify", "tests/data/ir/index.uop", NULL, &p), 0);
    ck_assert_str_eq(p.out, "%0 = DEFINE_VAR name=\"x\" min=0 max=20\n"
                            "%1 = CONST dtype=index value=4\n"
                            "%2 = MUL %0, %1\n"
                            "%3 = RANGE %1 axis=0 type=LOOP\n"
                            "%4 = ADD %2, %3\n"
                            "return %4\n");
    rdx_test_proc_free(&p);
}
END_TEST

START_TEST(print_is_canonical)
{
    rdx_test_proc p, q;
    ck_assert_int_eq(run("print", "tests/data/ir/kernel.uop", NULL, &p), 0);
    char *path = rdx_test_tmp_path("k.uop");
    rdx_test_write_file(path, p.out, p.out_len);
    ck_assert_int_eq(run("print", path, NULL, &q), 0);
    ck_assert_str_eq(p.out, q.out);
    rdx_test_proc_free(&q);
    ck_assert_int_eq(run("--annotate", "print", path, &q), 0);
    ck_assert(strstr(q.out, "; float16[n] addr=global"));
    rdx_test_proc_free(&p);
    rdx_test_proc_free(&q);
    free(path);
}
END_TEST

START_TEST(errors_and_usage)
{
    rdx_test_proc p;
    ck_assert_int_eq(run("check", "tests/data/ir/bad_broadcast.uop", NULL, &p), 1);
    ck_assert_str_eq(p.err, "rdx uop: tests/data/ir/bad_broadcast.uop:7: ADD(float32[3,4], "
                            "float32[3]): [broadcast failure] axis 1: shapes [3,4] and [3] are "
                            "neither equal nor 1\n");
    rdx_test_proc_free(&p);
    ck_assert_int_eq(run("check", "tests/data/ir/missing.uop", NULL, &p), 1);
    ck_assert(strstr(p.err, "missing.uop"));
    rdx_test_proc_free(&p);
    ck_assert_int_eq(run("frob", "x", NULL, &p), 2);
    ck_assert(strstr(p.err, "unknown action 'frob'"));
    rdx_test_proc_free(&p);
    ck_assert_int_eq(run("check", NULL, NULL, &p), 2);
    rdx_test_proc_free(&p);
    ck_assert_int_eq(run("--help", NULL, NULL, &p), 0);
    ck_assert(strstr(p.out, "Usage: rdx uop check FILE"));
    rdx_test_proc_free(&p);
}
END_TEST

TCase *ir_tcase_cli(void)
{
    TCase *tc = tcase_create("cli");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, check_prints_output_properties);
    tcase_add_test(tc, simplify_folds_the_index_expression);
    tcase_add_test(tc, print_is_canonical);
    tcase_add_test(tc, errors_and_usage);
    return tc;
}
