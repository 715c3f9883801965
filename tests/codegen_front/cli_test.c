/* tests/codegen_front/cli_test.c — `rdx compile` and `rdx realize --check`
 * (through the runtime) on tensor-level files (tests/data/codegen_front, tests/data/ir), usage and
 * failure exits. */
#include <stdlib.h>
#include <string.h>

#include "tests/codegen_front/cgf_test.h"

static rdx_test_proc run(const char *const *args)
{
    const char *argv[16];
    size_t n = 0;
    argv[n++] = rdx_test_rdx_path();
    for (; args[n - 1] && n < 15; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    rdx_test_proc p;
    rdx_test_run(argv, NULL, 0, &p);
    return p;
}

START_TEST(realize_check)
{
    rdx_test_proc p = run(
        (const char *[]){ "realize", "--check", "tests/data/codegen_front/softmax_row.uop", NULL });
    ck_assert_msg(p.status == 0, "%s", p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "3 kernels"));
    ck_assert_ptr_nonnull(strstr(p.out, "output 0: matches the interpreter (37 elements)"));
    rdx_test_proc_free(&p);
    p = run((const char *[]){ "realize", "--check", "--raw", "tests/data/ir/gemm.uop", NULL });
    ck_assert_msg(p.status == 0, "%s", p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "matches the interpreter (24 elements)"));
    rdx_test_proc_free(&p);
    /* FLIP: offsets whose non-constant part can be negative are not folded */
    for (int raw = 0; raw < 2; raw++) {
        p = run((const char *[]){ "realize", "--check", raw ? "--raw" : "--seed=3",
                                  "tests/data/codegen_front/flip.uop", NULL });
        ck_assert_msg(p.status == 0, "%s", p.err);
        ck_assert_ptr_nonnull(strstr(p.out, "matches the interpreter (105 elements)"));
        rdx_test_proc_free(&p);
    }
    /* a BUFFER of dtype index: 8-byte elements, loaded with global_load_b64 */
    p = run((const char *[]){ "realize", "--check", "--seed=5",
                              "tests/data/codegen_front/index_buffer.uop", NULL });
    ck_assert_msg(p.status == 0, "%s", p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "matches the interpreter (4 elements)"));
    rdx_test_proc_free(&p);
    /* REPLICATED (the spec's broadcast to two devices and back): copy 0 is read */
    p = run((const char *[]){ "realize", "--check", "tests/data/ir/replicated.uop", NULL });
    ck_assert_msg(p.status == 0, "%s", p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "matches the interpreter (4 elements)"));
    rdx_test_proc_free(&p);
    p = run((const char *[]){ "realize", "--check", "-v", "n=77",
                              "tests/data/codegen_front/sym_scale.uop", NULL });
    ck_assert_msg(p.status == 0, "%s", p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "(77 elements)"));
    rdx_test_proc_free(&p);
    /* --device emu: through the runtime on the emulated card, whatever RDX_DEVICE says */
    p = run((const char *[]){ "realize", "--check", "--device", "emu", "tests/data/ir/gemm.uop",
                              NULL });
    ck_assert_msg(p.status == 0, "%s", p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "GPU time on emu, 1 kernels"));
    ck_assert_ptr_nonnull(strstr(p.out, "matches the interpreter (24 elements)"));
    rdx_test_proc_free(&p);
    p = run((const char *[]){ "realize", "--device", "nope", "tests/data/ir/gemm.uop", NULL });
    ck_assert_int_eq(p.status, 2);
    ck_assert_ptr_nonnull(strstr(p.err, "unknown device 'nope'"));
    rdx_test_proc_free(&p);
    /* errors: a missing variable (exit 1), bad usage (exit 2) */
    p = run((const char *[]){ "realize", "tests/data/codegen_front/sym_scale.uop", NULL });
    ck_assert_int_eq(p.status, 1);
    ck_assert_ptr_nonnull(strstr(p.err, "variable 'n' needs a value"));
    rdx_test_proc_free(&p);
    p = run((const char *[]){ "realize", NULL });
    ck_assert_int_eq(p.status, 2);
    rdx_test_proc_free(&p);
    p = run((const char *[]){ "realize", "--help", NULL });
    ck_assert_int_eq(p.status, 0);
    ck_assert_ptr_nonnull(strstr(p.out, "Usage: rdx realize"));
    rdx_test_proc_free(&p);
}
END_TEST

START_TEST(compile_stages)
{
    char *out = rdx_test_tmp_path("k.co");
    rdx_test_proc p = run((const char *[]){ "compile", "-o", out, "-p", "callify", "-p", "schedule",
                                            "-p", "expand", "-p", "asm",
                                            "tests/data/codegen_front/softmax_row.uop", NULL });
    ck_assert_msg(p.status == 0, "%s", p.err);
    /* callify: one FUNCTION whose argument is the input BUFFER, used inside as PARAM slot 0 */
    const char *cf = strstr(p.out, "; ---- callify\n");
    ck_assert_ptr_nonnull(cf);
    ck_assert_ptr_nonnull(strstr(cf, "= PARAM "));
    ck_assert_ptr_nonnull(strstr(cf, "= FUNCTION "));
    ck_assert_ptr_null(strstr(p.out, "; ---- callify (kernel"));
    ck_assert_ptr_nonnull(strstr(p.out, "schedule: 3 kernels"));
    ck_assert_ptr_nonnull(strstr(p.out, "; ---- expand (kernel 2)"));
    ck_assert_ptr_nonnull(strstr(p.out, "; ---- asm (kernel 0)"));
    ck_assert_ptr_nonnull(strstr(p.out, "s_endpgm"));
    rdx_test_proc_free(&p);
    /* three code objects, k.k0.co .. k.k2.co, readable */
    char *k2 = rdx_test_tmp_path("k.k2.co");
    p = run((const char *[]){ "readelf", k2, NULL });
    ck_assert_msg(p.status == 0, "%s", p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "gfx1100"));
    rdx_test_proc_free(&p);
    /* --beam: candidates timed on the wave emulator (realize's BEAM timer) */
    char *bk = rdx_test_tmp_path("beam.co");
    p = run((const char *[]){ "compile", "--beam", "2", "-o", bk, "tests/data/ir/gemm.uop", NULL });
    ck_assert_msg(p.status == 0, "%s", p.err);
    ck_assert_ptr_nonnull(strstr(p.err, "beam step 1:"));
    ck_assert_ptr_nonnull(strstr(p.err, "timed,"));
    ck_assert_ptr_nonnull(strstr(p.err, "budget 3 x the best cost"));
    rdx_test_proc_free(&p);
    /* --beam-time: the search ends after the starts, saying so */
    p = run((const char *[]){ "compile", "--beam", "2", "--beam-time", "1e-9", "-o", bk,
                              "tests/data/ir/gemm.uop", NULL });
    ck_assert_msg(p.status == 0, "%s", p.err);
    ck_assert_msg(strstr(p.err, "time limit 0.0 s reached"), "%s", p.err);
    rdx_test_proc_free(&p);
    p = run((const char *[]){ "compile", "--beam", "2", "--beam-budget", "0.5",
                              "tests/data/ir/gemm.uop", NULL });
    ck_assert_int_eq(p.status, 2);
    ck_assert_ptr_nonnull(strstr(p.err, "bad --beam-budget '0.5' (0 or >= 1)"));
    rdx_test_proc_free(&p);
    p = run((const char *[]){ "readelf", bk, NULL });
    ck_assert_msg(p.status == 0, "%s", p.err);
    rdx_test_proc_free(&p);
    free(bk);
    /* --opts: kernel 2's own opts, the heuristics' elsewhere; printed in the form read */
    p = run((const char *[]){ "compile", "-p", "optimize", "--opts", "2=SPLIT(0,37,l)",
                              "tests/data/codegen_front/softmax_row.uop", NULL });
    ck_assert_msg(p.status == 0, "%s", p.err);
    const char *o2 = strstr(p.out, "; opts: SPLIT(0,37,LOCAL)\n; ---- optimize (kernel 2)");
    ck_assert_msg(o2 != NULL, "%s", p.out);
    ck_assert_ptr_null(strstr(o2 + 1, "; opts: SPLIT(0,37,LOCAL)"));
    rdx_test_proc_free(&p);
    /* a kernel's own --opts win over a general one, whatever their order */
    p = run((const char *[]){ "compile", "-p", "optimize", "--opts", "2=SPLIT(0,37,l)", "--opts",
                              "", "tests/data/codegen_front/softmax_row.uop", NULL });
    ck_assert_msg(p.status == 0, "%s", p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "; opts: \n; ---- optimize (kernel 0)"));
    ck_assert_ptr_nonnull(strstr(p.out, "; opts: \n; ---- optimize (kernel 1)"));
    ck_assert_ptr_nonnull(strstr(p.out, "; opts: SPLIT(0,37,LOCAL)\n; ---- optimize (kernel 2)"));
    rdx_test_proc_free(&p);
    /* opts that do not fit a kernel: its optimize error; bad text: a usage error */
    p = run((const char *[]){ "compile", "--opts", "SPLIT(1,2,l)",
                              "tests/data/codegen_front/softmax_row.uop", NULL });
    ck_assert_int_eq(p.status, 1);
    ck_assert_msg(strstr(p.err, "kernel 0") && strstr(p.err, "SPLIT"), "%s", p.err);
    rdx_test_proc_free(&p);
    p = run((const char *[]){ "compile", "--opts", "SPLIT(1,2)", "tests/data/ir/gemm.uop", NULL });
    ck_assert_int_eq(p.status, 2);
    ck_assert_msg(strstr(p.err, "column 10 (opt 1): expected ','"), "%s", p.err);
    rdx_test_proc_free(&p);
    p = run((const char *[]){ "compile", "-p", "nope", "tests/data/ir/gemm.uop", NULL });
    ck_assert_int_eq(p.status, 2);
    ck_assert_ptr_nonnull(strstr(p.err, "unknown stage 'nope'"));
    rdx_test_proc_free(&p);
    p = run((const char *[]){ "compile", "tests/data/codegen_front/missing.uop", NULL });
    ck_assert_int_eq(p.status, 1);
    rdx_test_proc_free(&p);
    free(out);
    free(k2);
}
END_TEST

TCase *cgf_tcase_cli(void)
{
    TCase *tc = tcase_create("cli");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, realize_check);
    tcase_add_test(tc, compile_stages);
    return tc;
}
