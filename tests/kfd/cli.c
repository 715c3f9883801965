/* tests/kfd/cli.c — `rdx info` on the emulated device and its usage errors. */
#include <string.h>

#include "tests/kfd/kfd_test.h"

static int run(const char *const argv[], rdx_test_proc *p)
{
    return rdx_test_run(argv, NULL, 0, p);
}

START_TEST(info_lists_emulated_gpus)
{
    rdx_test_proc p;
    const char *argv[] = {
        "env", "RDX_DEVICE=emu", rdx_test_rdx_path(), "info", "--gpus", "2", NULL
    };
    ck_assert_int_eq(run(argv, &p), 0);
    ck_assert_ptr_nonnull(strstr(p.out, "device: emulated"));
    ck_assert_ptr_nonnull(strstr(p.out, "2 GPUs"));
    ck_assert_ptr_nonnull(strstr(p.out, "gpu 1: gfx1100"));
    ck_assert_ptr_nonnull(strstr(p.out, "compute units: 96"));
    ck_assert_ptr_nonnull(strstr(p.out, "24.0 GiB"));
    ck_assert_ptr_nonnull(strstr(p.out, "/dev/dri/renderD129"));
    ck_assert_str_eq(p.err, ""); /* chosen explicitly: no notice */
    rdx_test_proc_free(&p);
}
END_TEST

/* rdx info --arch: each GPU its target, its gfx_target_version and its limits; a bad list is
 * bad usage naming the valid targets; RDX_EMU_ARCH likewise. */
START_TEST(info_shows_each_gpus_target)
{
    rdx_test_proc p;
    const char *argv[] = { "env", "RDX_DEVICE=emu", rdx_test_rdx_path(), "info", "--gpus",
                           "2",   "--arch",         "gfx1100,gfx1201",   NULL };
    ck_assert_int_eq(run(argv, &p), 0);
    ck_assert_msg(strstr(p.out, "gpu 0: gfx1100  (gfx1100, gfx_target_version 110000,"), "%s",
                  p.out);
    ck_assert_msg(strstr(p.out, "gpu 1: gfx1201  (gfx1201, gfx_target_version 120001,"), "%s",
                  p.out);
    ck_assert_msg(strstr(p.out, "compute units: 64 (128 SIMDs, 2 per CU; 4 shader engines, 8 "
                                "arrays x 8 CUs)"),
                  "%s", p.out);
    ck_assert_msg(strstr(p.out, "L2 8192 KiB"), "%s", p.out);
    rdx_test_proc_free(&p);
    const char *env[] = {
        "env", "RDX_DEVICE=emu", "RDX_EMU_ARCH=gfx1151", rdx_test_rdx_path(), "info", NULL
    };
    ck_assert_int_eq(run(env, &p), 0);
    ck_assert_msg(strstr(p.out, "gpu 0: gfx1151") && strstr(p.out, "compute units: 40") &&
                      strstr(p.out, "1 SDMA engines"),
                  "%s", p.out);
    rdx_test_proc_free(&p);
    const char *bad[] = { "env", "RDX_DEVICE=emu", rdx_test_rdx_path(), "info", "--arch", "gfx9",
                          NULL };
    ck_assert_int_eq(run(bad, &p), 2);
    ck_assert_msg(strstr(p.err, "--arch='gfx9'") &&
                      strstr(p.err, "valid targets: gfx1100, gfx1101, gfx1102, gfx1150, "
                                    "gfx1151, gfx1200, gfx1201"),
                  "%s", p.err);
    rdx_test_proc_free(&p);
    const char *bad_env[] = {
        "env", "RDX_DEVICE=emu", "RDX_EMU_ARCH=gfx1100,gfx1201", rdx_test_rdx_path(), "info", NULL
    };
    ck_assert_int_eq(run(bad_env, &p), 2);
    ck_assert_msg(strstr(p.err, "RDX_EMU_ARCH='gfx1100,gfx1201': 2 targets for 1 GPUs"), "%s",
                  p.err);
    rdx_test_proc_free(&p);
}
END_TEST

START_TEST(info_usage_errors)
{
    rdx_test_proc p;
    const char *bad_env[] = { "env", "RDX_DEVICE=gpu9", rdx_test_rdx_path(), "info", NULL };
    ck_assert_int_eq(run(bad_env, &p), 2);
    ck_assert_ptr_nonnull(strstr(p.err, "RDX_DEVICE='gpu9'"));
    rdx_test_proc_free(&p);
    const char *bad_gpus[] = { rdx_test_rdx_path(), "info", "--gpus", "0", NULL };
    ck_assert_int_eq(run(bad_gpus, &p), 2);
    rdx_test_proc_free(&p);
    const char *extra[] = { rdx_test_rdx_path(), "info", "x", NULL };
    ck_assert_int_eq(run(extra, &p), 2);
    rdx_test_proc_free(&p);
    const char *help[] = { rdx_test_rdx_path(), "info", "--help", NULL };
    ck_assert_int_eq(run(help, &p), 0);
    ck_assert_ptr_nonnull(strstr(p.out, "Usage: rdx info"));
    rdx_test_proc_free(&p);
}
END_TEST

TCase *kfd_tcase_cli(void)
{
    TCase *tc = tcase_create("cli");
    tcase_add_test(tc, info_lists_emulated_gpus);
    tcase_add_test(tc, info_usage_errors);
    tcase_add_test(tc, info_shows_each_gpus_target);
    return tc;
}
