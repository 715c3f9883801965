/* tests/interp/cli_test.c — `rdx eval`: outputs, inputs in text and raw form, saving, errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/interp/interp_test.h"

static int run(const char *const *args, rdx_test_proc *p)
{
    const char *argv[16] = { rdx_test_rdx_path(), "eval" };
    size_t n = 2;
    for (; args[n - 2]; n++)
        argv[n] = args[n - 2];
    argv[n] = NULL;
    return rdx_test_run(argv, NULL, 0, p);
}

START_TEST(eval_prints_the_spec_prefix_sum_and_a_function)
{
    rdx_test_proc p;
    const char *a1[] = { "tests/data/ir/prefix_sum.uop", "-i", "0=tests/data/tensor/ramp4.txt",
                         "--print", NULL };
    ck_assert_int_eq(run(a1, &p), 0);
    ck_assert_str_eq(p.out, "output 0: float32[4,1] = 1 3 6 10\n");
    rdx_test_proc_free(&p);
    const char *a2[] = { "tests/data/tensor/function.uop", "--input", "0=tests/data/tensor/x3.txt",
                         "-p", NULL };
    ck_assert_int_eq(run(a2, &p), 0);
    ck_assert_str_eq(p.out, "output 0: float32[3] = 3 -4 8\n");
    rdx_test_proc_free(&p);
    const char *a3[] = { "tests/data/tensor/halves.uop",
                         "-i",
                         "0=tests/data/tensor/halves_a.txt",
                         "-i",
                         "1=tests/data/tensor/halves_b.txt",
                         "-p",
                         NULL };
    ck_assert_int_eq(run(a3, &p), 0);
    ck_assert_str_eq(p.out, "output 0: float16[2] = 1 1.00195312\n");
    rdx_test_proc_free(&p);
    const char *a5[] = { "tests/data/tensor/symbolic.uop", "-v", "n=3", "-i",
                         "0=tests/data/tensor/x3.txt",     "-p", NULL };
    ck_assert_int_eq(run(a5, &p), 0);
    ck_assert_str_eq(p.out, "output 0: float32[1] = 22.25\n");
    rdx_test_proc_free(&p);
    const char *a6[] = { "tests/data/tensor/symbolic.uop", "-i", "0=tests/data/tensor/x3.txt",
                         NULL };
    ck_assert_int_eq(run(a6, &p), 1);
    ck_assert_ptr_nonnull(strstr(p.err, "'n' is not bound"));
    rdx_test_proc_free(&p);
    const char *a7[] = { "tests/data/tensor/symbolic.uop", "-v", "m=3", NULL };
    ck_assert_int_eq(run(a7, &p), 2);
    rdx_test_proc_free(&p);
    /* the spec's broadcast to two devices, REPLICATED back: the tensor itself */
    const char *a8[] = { "tests/data/ir/replicated.uop", "-i", "0=tests/data/tensor/ramp4.txt",
                         "-p", NULL };
    ck_assert_int_eq(run(a8, &p), 0);
    ck_assert_str_eq(p.out, "output 0: float32[4] = 1 2 3 4\n");
    rdx_test_proc_free(&p);
    /* without --print: dtype and shape only; unbound buffers read as zeros */
    const char *a4[] = { "tests/data/ir/gemm.uop", NULL };
    ck_assert_int_eq(run(a4, &p), 0);
    ck_assert_str_eq(p.out, "output 0: float32[4,6]\n");
    rdx_test_proc_free(&p);
}
END_TEST

START_TEST(eval_reads_raw_inputs_and_saves_outputs)
{
    float a[20], b[30];
    for (int k = 0; k < 20; k++)
        a[k] = (float)k * 0.5f;
    for (int k = 0; k < 30; k++)
        b[k] = (float)(k % 7) - 3;
    char *pa = rdx_test_tmp_path("a.bin"), *pb = rdx_test_tmp_path("b.bin");
    char *pre = rdx_test_tmp_path("out");
    rdx_test_write_file(pa, a, sizeof a);
    rdx_test_write_file(pb, b, sizeof b);
    char ia[4200], ib[4200];
    snprintf(ia, sizeof ia, "0=%s", pa);
    snprintf(ib, sizeof ib, "1=%s", pb);
    const char *args[] = { "tests/data/ir/gemm.uop", "-i", ia, "-i", ib, "-o", pre, NULL };
    rdx_test_proc p;
    ck_assert_int_eq(run(args, &p), 0);
    rdx_test_proc_free(&p);
    char outp[4200];
    snprintf(outp, sizeof outp, "%s0.bin", pre);
    size_t len;
    char *data = rdx_test_read_file(outp, &len);
    ck_assert_uint_eq(len, 24 * sizeof(float));
    float c[24];
    memcpy(c, data, sizeof c);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++) {
            float acc = 0;
            for (int k = 0; k < 5; k++) {
                float pr = a[i * 5 + k] * b[k * 6 + j];
                acc = acc + pr;
            }
            ck_assert_float_eq(c[i * 6 + j], acc);
        }
    free(data);
    free(pa);
    free(pb);
    free(pre);
}
END_TEST

START_TEST(eval_reports_bad_usage_and_bad_inputs)
{
    rdx_test_proc p;
    const char *a1[] = { NULL };
    ck_assert_int_eq(run(a1, &p), 2);
    rdx_test_proc_free(&p);
    const char *a2[] = { "tests/data/ir/gemm.uop", "-i", "zero=x", NULL };
    ck_assert_int_eq(run(a2, &p), 2);
    ck_assert_ptr_nonnull(strstr(p.err, "SLOT=FILE"));
    rdx_test_proc_free(&p);
    const char *a3[] = { "tests/data/ir/gemm.uop", "-i", "7=tests/data/tensor/x3.txt", NULL };
    ck_assert_int_eq(run(a3, &p), 1);
    ck_assert_ptr_nonnull(strstr(p.err, "no BUFFER or PARAM with slot 7"));
    rdx_test_proc_free(&p);
    /* 3 numbers for a 20-element buffer */
    const char *a4[] = { "tests/data/ir/gemm.uop", "-i", "0=tests/data/tensor/x3.txt", NULL };
    ck_assert_int_eq(run(a4, &p), 1);
    ck_assert_ptr_nonnull(strstr(p.err, "bound data has 12 bytes"));
    rdx_test_proc_free(&p);
    const char *a5[] = { "tests/data/tensor/missing.uop", NULL };
    ck_assert_int_eq(run(a5, &p), 1);
    rdx_test_proc_free(&p);
    const char *a7[] = { "tests/data/tensor/huge.uop", NULL };
    ck_assert_int_eq(run(a7, &p), 1);
    ck_assert_ptr_nonnull(strstr(p.err, "too large"));
    rdx_test_proc_free(&p);
    const char *a6[] = { "--help", NULL };
    ck_assert_int_eq(run(a6, &p), 0);
    ck_assert_ptr_nonnull(strstr(p.out, "Usage: rdx eval"));
    rdx_test_proc_free(&p);
}
END_TEST

TCase *interp_tcase_cli(void)
{
    TCase *tc = tcase_create("cli");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, eval_prints_the_spec_prefix_sum_and_a_function);
    tcase_add_test(tc, eval_reads_raw_inputs_and_saves_outputs);
    tcase_add_test(tc, eval_reports_bad_usage_and_bad_inputs);
    return tc;
}
