/* tests/realize/cli_test.c — `rdx realize`, the thin command over
 * rdx_realize_run: the profile, ISA and BEAM options, input files, and its
 * usage errors. */
#include <stdlib.h>
#include <string.h>

#include "tests/realize/rz_test.h"

static rdx_test_proc run(const char *const *args)
{
    const char *argv[20];
    size_t n = 0;
    argv[n++] = rdx_test_rdx_path();
    for (; args[n - 1] && n < 19; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    rdx_test_proc p;
    rdx_test_run(argv, NULL, 0, &p);
    return p;
}

START_TEST(profile_isa_beam)
{
    rdx_test_proc p = run((const char *[]){ "realize", "--check", "--profile", "--isa", "0",
                                            "tests/data/codegen_front/softmax.uop", NULL });
    ck_assert_msg(p.status == 0, "%s", p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "1 kernels")); /* 5 rows: row-fused */
    ck_assert_ptr_nonnull(strstr(p.out, "memory plan: 2 buffers"));
    ck_assert_ptr_nonnull(strstr(p.out, "; ---- asm (kernel 0 "));
    ck_assert_ptr_null(strstr(p.out, "; ---- asm (kernel 1 "));
    ck_assert_ptr_nonnull(strstr(p.out, "s_endpgm"));
    ck_assert_ptr_nonnull(strstr(p.out, "output 0: matches the interpreter (185 elements)"));
    if (strstr(p.out, "GPU time on emu"))
        ck_assert_ptr_nonnull(strstr(p.out, "estimated cycles"));
    rdx_test_proc_free(&p);
    char *cache = rdx_test_tmp_path("cli.cache");
    p = run((const char *[]){ "realize", "--check", "--beam", "2", "--cache", cache,
                              "tests/data/ir/gemm.uop", NULL });
    ck_assert_msg(p.status == 0, "%s", p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "matches the interpreter (24 elements)"));
    size_t len = 0;
    free(rdx_test_read_file(cache, &len));
    ck_assert_uint_gt(len, 0);
    free(cache);
    rdx_test_proc_free(&p);
}
END_TEST

START_TEST(input_files)
{
    /* A = 1..20, B = identity-like 5x6 (B[k][n] = k == n): C = the first 5 columns of A, then 0 */
    float a[20], b[30] = { 0 };
    for (int i = 0; i < 20; i++)
        a[i] = (float)(i + 1);
    for (int k = 0; k < 5; k++)
        b[k * 6 + k] = 1;
    char *pa = rdx_test_tmp_path("A.bin"), *pb = rdx_test_tmp_path("B.bin");
    rdx_test_write_file(pa, a, sizeof a);
    rdx_test_write_file(pb, b, sizeof b);
    char ia[4200], ib[4200];
    snprintf(ia, sizeof ia, "0=%s", pa);
    snprintf(ib, sizeof ib, "1=%s", pb);
    rdx_test_proc p = run(
        (const char *[]){ "realize", "-p", "-i", ia, "-i", ib, "tests/data/ir/gemm.uop", NULL });
    ck_assert_msg(p.status == 0, "%s", p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "output 0: 1 2 3 4 5 0 6 7 8 9 10 0 11 12 13 14 15 0 "
                                        "16 17 18 19 20 0\n"));
    rdx_test_proc_free(&p);
    /* a file of the wrong size */
    snprintf(ib, sizeof ib, "1=%s", pa);
    p = run((const char *[]){ "realize", "-i", ib, "tests/data/ir/gemm.uop", NULL });
    ck_assert_int_eq(p.status, 1);
    ck_assert_ptr_nonnull(strstr(p.err, "input slot 1 needs 120"));
    rdx_test_proc_free(&p);
    free(pa);
    free(pb);
}
END_TEST

/* Nested reductions to few outputs (tests/data/realize/nested_reduction.uop): the heuristics
   group the outer REDUCE axis; a serial kernel ran past the emulated GPU's instruction budget
   (a "hang" fault). */
START_TEST(nested_reduction)
{
    rdx_test_proc p = run((const char *[]){ "realize", "--check", "-p", "--profile",
                                            "tests/data/realize/nested_reduction.uop", NULL });
    ck_assert_msg(p.status == 0, "%s", p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "output 0: matches the interpreter (124645 elements)"));
    rdx_test_proc_free(&p);
}
END_TEST

/* A range closed by two REDUCEs (tests/data/realize/argmax_two_reduces.uop, fuzz seed
   1201641): expand lowers it (each REDUCE through its own LDS slot) and the heuristics
   group it, and the results match the interpreter.  Since row fusion starts at 2 rows
   (issue 22), the row max is inlined into the argmax kernel (its 20 rows were under the
   former 64): kernel 2, the last, is the one grouped (split to GROUP_REDUCE). */
START_TEST(argmax_two_reduces)
{
    rdx_test_proc p = run((const char *[]){ "realize", "--check",
                                            "tests/data/realize/argmax_two_reduces.uop", NULL });
    ck_assert_msg(p.status == 0, "%s", p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "output 0: matches the interpreter (20 elements)"));
    rdx_test_proc_free(&p);
    p = run((const char *[]){ "compile", "-p", "optimize",
                              "tests/data/realize/argmax_two_reduces.uop", NULL });
    ck_assert_msg(p.status == 0, "%s", p.err);
    int grouped = 0;
    for (const char *l = strstr(p.out, "; opts:"); l; l = strstr(l + 1, "; opts:")) {
        const char *e = strchr(l, '\n');
        const char *gr = strstr(l, "GROUP_REDUCE");
        grouped += gr && (!e || gr < e);
    }
    ck_assert_int_eq(grouped, 1);
    const char *k2 = strstr(p.out, "; ---- optimize (kernel 2)");
    ck_assert_ptr_nonnull(k2);
    ck_assert_ptr_null(strstr(p.out, "; ---- optimize (kernel 3)"));
    /* a kernel's opts line is printed just before its header */
    const char *k1 = strstr(p.out, "; ---- optimize (kernel 1)");
    ck_assert_ptr_nonnull(k1);
    const char *gr = strstr(k1, "GROUP_REDUCE");
    ck_assert(gr != NULL && gr < k2);
    rdx_test_proc_free(&p);
}
END_TEST

START_TEST(usage_errors)
{
    static const char *const bad[][3] = {
        { "--beam", "0", "bad beam width" },
        { "--beam", "17", "bad beam width" },
        { "--isa", "x", "bad kernel number" },
        { "--isa", "-2", "bad kernel number" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        rdx_test_proc p = run(
            (const char *[]){ "realize", bad[i][0], bad[i][1], "tests/data/ir/gemm.uop", NULL });
        ck_assert_int_eq(p.status, 2);
        ck_assert_ptr_nonnull(strstr(p.err, bad[i][2]));
        rdx_test_proc_free(&p);
    }
    rdx_test_proc p = run((const char *[]){ "realize", "--help", NULL });
    ck_assert_int_eq(p.status, 0);
    ck_assert_ptr_nonnull(strstr(p.out, "--profile"));
    ck_assert_ptr_nonnull(strstr(p.out, "--beam"));
    rdx_test_proc_free(&p);
    p = run((const char *[]){ "realize", "no/such/file.uop", NULL });
    ck_assert_int_eq(p.status, 1);
    rdx_test_proc_free(&p);
}
END_TEST

TCase *rz_tcase_cli(void)
{
    TCase *tc = tcase_create("cli");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, profile_isa_beam);
    tcase_add_test(tc, input_files);
    tcase_add_test(tc, usage_errors);
    tcase_add_test(tc, nested_reduction);
    tcase_add_test(tc, argmax_two_reduces);
    return tc;
}
