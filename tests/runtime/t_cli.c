/* tests/runtime/t_cli.c — `rdx run` end to end on the emulated GPU: outputs
 * checked against a host computation, usage errors (exit 2), a GPU fault
 * (exit 1 with the report). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/runtime/rt_test.h"

START_TEST(run_writes_outputs_and_times)
{
    int32_t in[100];
    for (int i = 0; i < 100; i++)
        in[i] = i * i - 50;
    char *inp = rdx_test_tmp_path("in.bin"), *outp = rdx_test_tmp_path("out.bin");
    rdx_test_write_file(inp, in, sizeof in);
    char argin[300], argout[300];
    snprintf(argin, sizeof argin, "file:%s", inp);
    snprintf(argout, sizeof argout, "0:%s", outp);
    const char *a[] = { rt_kernels_co, "--kernel", "add_one", "--grid", "2",       "--block",
                        "64",          "--arg",    argin,     "--arg",  "i32:100", "--out",
                        argout,        "--repeat", "3",       NULL };
    rdx_test_proc p;
    ck_assert_msg(rt_rdx_run(a, &p) == 0, "rdx run failed: %s", p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "device: "));
    ck_assert_ptr_nonnull(strstr(p.out, "dispatch 3: "));
    /* on the emulated GPU the time is the emulation's wall time, not a GPU
     * time, and the timing model's estimate stands beside it (issue 2.7) */
    ck_assert_msg(!strstr(p.out, "GPU time"), "stdout: %s", p.out);
    ck_assert_msg(strstr(p.out, "us emulated (wall time of the emulation); timing model "
                                "estimate "),
                  "stdout: %s", p.out);
    ck_assert_msg(strstr(p.out, "kernel time estimate: ") && strstr(p.out, "cycles at 2482 MHz"),
                  "stdout: %s", p.out);
    ck_assert_msg(strstr(p.out, "3 dispatches: "), "stdout: %s", p.out);
    ck_assert_ptr_nonnull(strstr(p.out, "wrote argument 0 (400 bytes)"));
    rdx_test_proc_free(&p);
    size_t len;
    int32_t *out = (int32_t *)rdx_test_read_file(outp, &len);
    ck_assert_uint_eq(len, sizeof in);
    for (int i = 0; i < 100; i++)
        ck_assert_int_eq(out[i], in[i] + 3);
    free(out);

    /* An llvm-mc kernel without metadata: arguments packed. */
    const char *b[] = { rt_asm_co,   "--grid", "2",     "--block", "64",   "--arg",
                        "zeros:512", "--arg",  "u32:9", "--out",   argout, NULL };
    ck_assert_msg(rt_rdx_run(b, &p) == 0, "rdx run failed: %s", p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "no metadata: packed"));
    ck_assert_msg(strstr(p.out, "timing model estimate "), "stdout: %s", p.out);
    rdx_test_proc_free(&p);
    out = (int32_t *)rdx_test_read_file(outp, &len);
    ck_assert_uint_eq(len, 512);
    for (int i = 0; i < 128; i++)
        ck_assert_int_eq(out[i], 9 + i);
    free(out);
    free(inp);
    free(outp);
}
END_TEST

/* --fidelity: the executed opcodes with their counts, each "hw-tested: <tests>" or
   "not hw-tested" (emu/core/fidelity.def), then the summary */
START_TEST(run_fidelity_lists_executed_ops)
{
    const char *a[] = { rt_kernels_co, "--kernel",   "add_one", "--grid",    "2",
                        "--block",     "64",         "--arg",   "zeros:400", "--arg",
                        "i32:100",     "--fidelity", NULL };
    rdx_test_proc p;
    ck_assert_msg(rt_rdx_run(a, &p) == 0, "rdx run failed: %s", p.err);
    ck_assert_msg(strstr(p.out, "fidelity: executed ops (wave-instructions)"), "%s", p.out);
    /* every kernel ends in s_endpgm, which every hardware test runs */
    const char *e = strstr(p.out, " s_endpgm ");
    ck_assert_msg(e && strstr(e, "hw-tested: tinygrad helpers.py::run_program"), "%s", p.out);
    ck_assert_msg(strstr(p.out, " executed ops hw-tested ("), "%s", p.out);
    /* the listed ops are what ran: 4 waves of wave32 (2 groups of 64) end once each */
    ck_assert_msg(strstr(e - 14, "4  s_endpgm"), "%s", p.out);
    rdx_test_proc_free(&p);
    /* without the option: no report */
    const char *b[] = { rt_kernels_co, "--kernel", "add_one",   "--grid", "2",       "--block",
                        "64",          "--arg",    "zeros:400", "--arg",  "i32:100", NULL };
    ck_assert_msg(rt_rdx_run(b, &p) == 0, "rdx run failed: %s", p.err);
    ck_assert_msg(!strstr(p.out, "fidelity:"), "%s", p.out);
    rdx_test_proc_free(&p);
}
END_TEST

static void usage(const char *const *args, const char *expect)
{
    rdx_test_proc p;
    int rc = rt_rdx_run(args, &p);
    ck_assert_msg(rc == 2, "exit %d, want 2 (stderr: %s)", rc, p.err);
    ck_assert_msg(strstr(p.err, expect), "stderr lacks '%s': %s", expect, p.err);
    rdx_test_proc_free(&p);
}

START_TEST(run_usage_errors_exit_2)
{
    const char *co = rt_kernels_co;
    usage((const char *[]){ "--grid", "1", "--block", "1", NULL }, "no code object");
    usage((const char *[]){ co, "--block", "1", NULL }, "--grid and --block are required");
    usage((const char *[]){ co, "--grid", "0", "--block", "1", NULL }, "--grid 0");
    usage((const char *[]){ co, "--grid", "1,2,3,4", "--block", "1", NULL }, "--grid");
    usage((const char *[]){ co, "--grid", "1", "--block", "1", "--arg", "bogus:1", NULL },
          "unknown kind 'bogus'");
    usage((const char *[]){ co, "--grid", "1", "--block", "1", "--arg", "u32:-1", NULL },
          "unsigned 32-bit");
    /* a finite number beyond the type's range was taken as inf */
    usage((const char *[]){ co, "--grid", "1", "--block", "1", "--arg", "f32:1e39", NULL },
          "--arg f32:1e39: 1e39 does not fit a 32-bit float");
    usage((const char *[]){ co, "--grid", "1", "--block", "1", "--arg", "f64:1e999", NULL },
          "--arg f64:1e999: 1e999 does not fit a 64-bit float");
    usage((const char *[]){ co, "--grid", "1", "--block", "1", "--arg", "file:/nonexistent", NULL },
          "/nonexistent");
    usage((const char *[]){ co, "--grid", "1", "--block", "1", NULL }, "choose one with --kernel");
    usage((const char *[]){ co, "--kernel", "nope", "--grid", "1", "--block", "1", NULL },
          "no kernel 'nope'");
    usage((const char *[]){ co, "--kernel", "add_one", "--grid", "1", "--block", "1", "--arg",
                            "zeros:64", NULL },
          "add_one(int* p [8 bytes], int n [4 bytes])");
    usage((const char *[]){ co, "--kernel", "add_one", "--grid", "1", "--block", "1", "--arg",
                            "zeros:64", "--arg", "u64:1", NULL },
          "takes 4 bytes");
    usage((const char *[]){ co, "--kernel", "add_one", "--grid", "1", "--block", "1", "--arg",
                            "zeros:64", "--arg", "i32:1", "--out", "1:x.bin", NULL },
          "argument 1 (--arg i32:1) is a value, not a buffer");
    usage((const char *[]){ co, "--kernel", "add_one", "--grid", "1", "--block", "1", "--out",
                            "x.bin", NULL },
          "--out x.bin: expected N:FILE");
    usage((const char *[]){ co, "--grid", "1", "--block", "1", "--repeat", "0", NULL },
          "--repeat 0");
    usage((const char *[]){ co, "--frobnicate", NULL }, "unknown or incomplete option");

    rdx_test_proc p;
    const char *h[] = { rdx_test_rdx_path(), "run", "--help", NULL };
    ck_assert_int_eq(rdx_test_run(h, NULL, 0, &p), 0);
    ck_assert_ptr_nonnull(strstr(p.out, "Usage: rdx run CODEOBJ"));
    ck_assert_msg(strstr(p.out, "wall time of the emulation") &&
                      strstr(p.out, "timing-model estimate") &&
                      strstr(p.out, "no empty field or trailing comma"),
                  "help: %s", p.out);
    rdx_test_proc_free(&p);
}
END_TEST

/* Issue 2.7: an --out index past the kernel's arguments does not exist (it
 * was "not a buffer argument"); each malformed N:FILE says what is wrong. */
START_TEST(run_out_names_the_missing_argument)
{
    const char *co = rt_kernels_co;
    /* issue 2.7: an index past the kernel's arguments does not exist (it was
     * "not a buffer argument"); each malformed N:FILE says what is wrong */
    usage((const char *[]){ co, "--kernel", "add_one", "--grid", "1", "--block", "1", "--arg",
                            "zeros:64", "--arg", "i32:1", "--out", "9:x.bin", NULL },
          "--out 9:x.bin: argument 9 does not exist: kernel add_one has 2 arguments (0..1)");
    usage((const char *[]){ rt_asm_co, "--grid", "1", "--block", "1", "--arg", "zeros:64", "--out",
                            "1:x.bin", NULL },
          "--out 1:x.bin: argument 1 does not exist: 1 --arg option was given (0..0)");
    usage((const char *[]){ co, "--grid", "1", "--block", "1", "--out", "9:", NULL },
          "--out 9:: no FILE after '9:'");
    usage((const char *[]){ co, "--grid", "1", "--block", "1", "--out", "x:f", NULL },
          "--out x:f: 'x' is not an argument index");
    usage((const char *[]){ co, "--grid", "1", "--block", "1", "--out", ":f", NULL },
          "--out :f: expected N:FILE, N an argument index");
    usage((const char *[]){ co, "--grid", "1", "--block", "1", "--out", "4294967296:f", NULL },
          "'4294967296' is not an argument index");
}
END_TEST

/* Issue 2.7: every field of --grid / --block is an integer >= 1 ("1,,2" was
 * read as 1x2x1 and "4," accepted as 4). */
START_TEST(run_comma_lists_are_strict)
{
    const char *co = rt_kernels_co;
    /* issue 2.7: every field of a comma list is an integer >= 1 (1,,2 was read as 1x2x1, 4, as 4)
     */
    usage((const char *[]){ co, "--grid", "1,,2", "--block", "1", NULL },
          "--grid 1,,2: dimension 2 (Y) is empty, expected an integer >= 1");
    usage((const char *[]){ co, "--grid", "4,", "--block", "1", NULL },
          "--grid 4,: dimension 2 (Y) is empty (a trailing comma)");
    usage((const char *[]){ co, "--grid", ",4", "--block", "1", NULL },
          "--grid ,4: dimension 1 (X) is empty");
    usage((const char *[]){ co, "--grid", "1", "--block", "2,x", NULL },
          "--block 2,x: dimension 2 (Y) 'x' is not a number");
    usage((const char *[]){ co, "--grid", "1", "--block", "1,1,0", NULL },
          "--block 1,1,0: dimension 3 (Z) is 0, expected 1..4294967295");
    usage((const char *[]){ co, "--grid", "4294967296", "--block", "1", NULL },
          "--grid 4294967296: dimension 1 (X) is 4294967296, expected 1..4294967295");
    usage((const char *[]){ co, "--grid", "1,99999999999999999999999", "--block", "1", NULL },
          "dimension 2 (Y) 99999999999999999999999 is too large");
    usage((const char *[]){ co, "--grid", "1,2,3,4", "--block", "1", NULL },
          "--grid 1,2,3,4: more than 3 dimensions");
    usage((const char *[]){ co, "--grid", "", "--block", "1", NULL }, "--grid '': expected");
    usage((const char *[]){ co, "--grid", "1, 2", "--block", "1", NULL },
          "dimension 2 (Y) ' 2' is not a number");
    usage((const char *[]){ co, "--grid", "-1", "--block", "1", NULL },
          "dimension 1 (X) '-1' is not a number");
}
END_TEST

START_TEST(run_gpu_fault_exits_1_with_the_report)
{
    const char *a[] = { rt_kernels_co, "--kernel", "poke",  "--grid",          "1", "--block", "32",
                        "--arg",       "zeros:64", "--arg", "u64:68719476736", NULL };
    rdx_test_proc p;
    int rc = rt_rdx_run(a, &p);
    ck_assert_msg(rc == 1, "exit %d, want 1 (stderr: %s)", rc, p.err);
    ck_assert_msg(strstr(p.err, "GPU memory fault") && strstr(p.err, "pc"), "stderr: %s", p.err);
    rdx_test_proc_free(&p);
    /* A missing code object is a failure of the work (exit 1). */
    const char *b[] = { "/nonexistent.co", "--grid", "1", "--block", "1", NULL };
    ck_assert_int_eq(rt_rdx_run(b, &p), 1);
    rdx_test_proc_free(&p);
}
END_TEST

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* An endless kernel (tests/data/runtime/spin.s): --wave-budget turns it into a
 * hang report with the PC histogram, quickly, exit 1; with a budget too large
 * to matter, --timeout abandons the dispatch and rdx exits promptly (the
 * queue reset cancels the emulated dispatch). */
START_TEST(run_hang_reports_at_the_wave_budget)
{
    rdx_test_proc p;
    double t0 = now_s();
    const char *a[] = {
        rt_spin_co, "--grid", "2", "--block", "32", "--wave-budget", "100000", NULL
    };
    int rc = rt_rdx_run(a, &p);
    double el = now_s() - t0;
    ck_assert_msg(rc == 1, "exit %d, want 1 (stderr: %s)", rc, p.err);
    ck_assert_msg(strstr(p.err, "hang") && strstr(p.err, "PC histogram") &&
                      strstr(p.err, "budget 100000 wave-instructions") && strstr(p.err, "code+0x0"),
                  "stderr: %s", p.err);
    ck_assert_msg(el < 10.0, "the hang report took %.1f s", el);
    rdx_test_proc_free(&p);

    t0 = now_s();
    const char *b[] = { rt_spin_co,      "--grid",        "1",         "--block", "32",
                        "--wave-budget", "1000000000000", "--timeout", "200",     NULL };
    rc = rt_rdx_run(b, &p);
    el = now_s() - t0;
    ck_assert_msg(rc == 1, "exit %d, want 1 (stderr: %s)", rc, p.err);
    ck_assert_msg(strstr(p.err, "not reached after 200 ms"), "stderr: %s", p.err);
    ck_assert_msg(el < 8.0, "rdx run took %.1f s to give up on a hung dispatch", el);
    rdx_test_proc_free(&p);

    const char *c[] = { rt_spin_co, "--grid", "1", "--block", "32", "--wave-budget", "0", NULL };
    ck_assert_int_eq(rt_rdx_run(c, &p), 2);
    ck_assert_msg(strstr(p.err, "--wave-budget 0"), "stderr: %s", p.err);
    rdx_test_proc_free(&p);
}
END_TEST

/* The whole end-to-end path (device open, device buffers and SDMA uploads,
 * program load, dispatch, wait, download, close) under valgrind: no invalid
 * access, no leak.  Skipped (with a note) where valgrind is not installed. */
START_TEST(run_is_valgrind_clean)
{
    if (access("/usr/bin/valgrind", X_OK) != 0) {
        printf("run_is_valgrind_clean: /usr/bin/valgrind not installed, skipped\n");
        return;
    }
    if (getenv("RDX_SANITIZE") && *getenv("RDX_SANITIZE"))
        return; /* ASan builds cannot run under valgrind */
    char *outp = rdx_test_tmp_path("vg.bin");
    char argout[300];
    snprintf(argout, sizeof argout, "0:%s", outp);
    const char *argv[] = { "/usr/bin/valgrind",
                           "-q",
                           "--error-exitcode=9",
                           "--leak-check=full",
                           "--errors-for-leak-kinds=definite,indirect",
                           rdx_test_rdx_path(),
                           "run",
                           rt_kernels_co,
                           "--kernel",
                           "add_one",
                           "--grid",
                           "1",
                           "--block",
                           "64",
                           "--arg",
                           "zeros:256",
                           "--arg",
                           "i32:64",
                           "--out",
                           argout,
                           "--device",
                           "emu",
                           NULL };
    rdx_test_proc p;
    int rc = rdx_test_run(argv, NULL, 0, &p);
    ck_assert_msg(rc == 0, "valgrind exit %d:\n%s", rc, p.err);
    rdx_test_proc_free(&p);
    size_t len;
    int32_t *out = (int32_t *)rdx_test_read_file(outp, &len);
    ck_assert_uint_eq(len, 256);
    for (int i = 0; i < 64; i++)
        ck_assert_int_eq(out[i], 1);
    free(out);
    free(outp);
}
END_TEST

TCase *rt_tcase_cli(void)
{
    TCase *tc = tcase_create("cli");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, run_writes_outputs_and_times);
    tcase_add_test(tc, run_usage_errors_exit_2);
    tcase_add_test(tc, run_fidelity_lists_executed_ops);
    tcase_add_test(tc, run_out_names_the_missing_argument);
    tcase_add_test(tc, run_comma_lists_are_strict);
    tcase_add_test(tc, run_gpu_fault_exits_1_with_the_report);
    tcase_add_test(tc, run_hang_reports_at_the_wave_budget);
    tcase_add_test(tc, run_is_valgrind_clean);
    return tc;
}
