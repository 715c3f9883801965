/*
 * tests/runtime/t_targets.c — devices of other targets than gfx1100 (rdx_device_options.emu_arch,
 * RDX_EMU_ARCH): their info, a kernel assembled for the target dispatched through the gfx11 or
 * gfx12 PM4 sequence, a machine of mixed targets, and a code object of the wrong target
 * refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>

#include "tests/runtime/rt_test.h"

/* out[gid] = value + gid in workgroups of 64 (as tests/data/runtime/add_value.s), for `arch`;
 * gfx12 waits for the scalar load with s_wait_kmcnt (its split counters). */
static void assemble(const char *arch, uint8_t **elf, size_t *len)
{
    int gfx12 = !strncmp(arch, "gfx12", 5);
    char src[2048];
    snprintf(src, sizeof src,
             ".amdgcn_target \"amdgcn-amd-amdhsa--%s\"\n"
             ".text\n.globl add_value\n.p2align 8\n.type add_value,@function\n"
             "add_value:\n"
             "  s_load_b64 s[4:5], s[0:1], 0x0\n"
             "  s_load_b32 s6, s[0:1], 0x8\n"
             "  s_lshl_b32 s7, s2, 6\n"
             "  v_add_nc_u32 v0, s7, v0\n"
             "  %s\n"
             "  v_add_nc_u32 v1, s6, v0\n"
             "  v_lshlrev_b32 v0, 2, v0\n"
             "  global_store_b32 v0, v1, s[4:5]\n"
             "  s_endpgm\n"
             ".rodata\n.p2align 6\n.amdhsa_kernel add_value\n"
             "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
             "  .amdhsa_system_sgpr_workgroup_id_x 1\n"
             "  .amdhsa_next_free_vgpr 2\n  .amdhsa_next_free_sgpr 8\n"
             "  .amdhsa_kernarg_size 16\n.end_amdhsa_kernel\n",
             arch, gfx12 ? "s_wait_kmcnt 0" : "s_waitcnt lgkmcnt(0)");
    rdx_asm_options o = { .arch = arch };
    rdx_asm_result *r = NULL;
    rdx_status st = rdx_asm_assemble(src, strlen(src), &o, &r);
    ck_assert_msg(st == RDX_OK, "%s: %s", arch, rdx_error_message());
    RT_OK(rdx_asm_write_codeobj(r, elf, len));
    rdx_asm_free(r);
}

/* Dispatch add_value on dev: RDX_OK with the results checked, or the wait's status. */
static rdx_status run_add_value(rdx_device *dev, const char *arch)
{
    uint8_t *elf;
    size_t len;
    assemble(arch, &elf, &len);
    rdx_program *p;
    RT_OK(rdx_program_load(dev, elf, len, arch, &p));
    free(elf);
    const rdx_kernel *k;
    RT_OK(rdx_program_find(p, "add_value", &k));
    rdx_queue *q;
    RT_OK(rdx_queue_create(dev, RDX_QUEUE_COMPUTE, &q));
    rdx_buffer *out;
    RT_OK(rdx_buffer_alloc(dev, 2 * 64 * 4, RDX_MEM_HOST, &out));
    rdx_arg args[] = { rdx_arg_buffer(out), rdx_arg_u32(500) };
    rdx_launch l = rt_launch1(k, 2, 64, args, 2);
    uint64_t t;
    RT_OK(rdx_queue_dispatch(q, &l, &t));
    rdx_status st = rdx_queue_wait(q, t, 20000);
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", rdx_error_message());
    if (st == RDX_OK) {
        const uint32_t *o = rdx_buffer_cpu(out);
        for (uint32_t i = 0; i < 2 * 64; i++)
            ck_assert_uint_eq(o[i], 500 + i);
    }
    rdx_buffer_free(out);
    rdx_queue_destroy(q); /* a failed queue's status is not this test's */
    rdx_program_free(p);
    rdx_error_clear();
    if (st != RDX_OK)
        fprintf(stderr, "%s: %s\n", arch, msg);
    /* the wave emulator without this target, or without one of its instructions yet */
    ck_assert_msg(st == RDX_OK || strstr(msg, "unsupported by the wave emulator") ||
                      strstr(msg, "the emulator has no semantics for"),
                  "%s: %s", arch, msg);
    return st;
}

/* gfx1151 (RDNA3.5, run by the wave emulator today): info from its topology, a kernel of its
 * own target dispatched and checked, a gfx1100 code object refused. */
START_TEST(gfx1151_device_runs_its_code)
{
    rdx_device *dev;
    rdx_device_options o = { .kind = RDX_DEVICE_EMU, .emu_arch = "gfx1151", .quiet = true };
    RT_OK(rdx_device_open(&o, &dev));
    const rdx_device_info *i = rdx_device_get_info(dev);
    ck_assert_str_eq(i->target, "gfx1151");
    ck_assert_uint_eq(i->gfx_target_version, 110501);
    ck_assert_uint_eq(i->cu_count, 40);
    ck_assert_uint_eq(i->num_sdma_engines, 1);
    ck_assert_int_eq(run_add_value(dev, "gfx1151"), RDX_OK);
    rdx_program *p = NULL;
    ck_assert_int_eq(rdx_program_load_file(dev, rt_asm_co, &p), RDX_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "gfx1151"));
    RT_OK(rdx_device_close(dev));
}
END_TEST

/* gfx1201 (RDNA4): the device opens with its topology and the gfx12 dispatch sequence runs on
 * its command processor; the wave emulator runs the kernel once it knows gfx12 (results
 * checked), and until then the dispatch fails with a queue error saying it cannot (never
 * anything else). */
START_TEST(gfx1201_device_dispatches)
{
    rdx_device *dev;
    rdx_device_options o = { .kind = RDX_DEVICE_EMU, .emu_arch = "gfx1201", .quiet = true };
    RT_OK(rdx_device_open(&o, &dev));
    const rdx_device_info *i = rdx_device_get_info(dev);
    ck_assert_str_eq(i->target, "gfx1201");
    ck_assert_uint_eq(i->gfx_target_version, 120001);
    ck_assert_uint_eq(i->cu_count, 64);
    run_add_value(dev, "gfx1201");
    RT_OK(rdx_device_close(dev));
}
END_TEST

/* A machine of a gfx1100 and a gfx1151 (RDX_EMU_ARCH): each device its own target and code. */
START_TEST(mixed_machine_per_gpu_targets)
{
    setenv("RDX_EMU_ARCH", "gfx1100,gfx1151", 1);
    rdx_device *devs[2];
    rdx_device_options o = { .kind = RDX_DEVICE_EMU, .emu_gpus = 2, .quiet = true };
    RT_OK(rdx_device_open_all(&o, 2, devs));
    unsetenv("RDX_EMU_ARCH");
    ck_assert_str_eq(rdx_device_get_info(devs[0])->target, "gfx1100");
    ck_assert_str_eq(rdx_device_get_info(devs[1])->target, "gfx1151");
    ck_assert_int_eq(run_add_value(devs[0], "gfx1100"), RDX_OK);
    ck_assert_int_eq(run_add_value(devs[1], "gfx1151"), RDX_OK);
    RT_OK(rdx_device_close(devs[0]));
    RT_OK(rdx_device_close(devs[1]));
    /* a bad list fails the open, naming it */
    rdx_device *d = NULL;
    o.emu_gpus = 0;
    o.emu_arch = "gfx1100,gfx1201";
    ck_assert_int_eq(rdx_device_open(&o, &d), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "2 targets for 1 GPUs"));
}
END_TEST

/* `rdx run` of a gfx1151 code object on the emulated GPU: the device takes the code object's
 * target (no --arch, no RDX_EMU_ARCH), --arch names another and the load is refused, a bad
 * --arch is bad usage naming the valid targets; `rdx prof` profiles it as a gfx1151. */
START_TEST(rdx_run_follows_the_code_object)
{
    uint8_t *elf;
    size_t len;
    assemble("gfx1151", &elf, &len);
    char *co = rdx_test_tmp_path("add_value_gfx1151.co"), *outp = rdx_test_tmp_path("o.bin");
    rdx_test_write_file(co, elf, len);
    free(elf);
    char argout[300];
    snprintf(argout, sizeof argout, "0:%s", outp);
    unsetenv("RDX_EMU_ARCH");
    const char *a[] = { co,          "--grid", "2",     "--block", "64",   "--arg",
                        "zeros:512", "--arg",  "u32:9", "--out",   argout, NULL };
    rdx_test_proc p;
    ck_assert_msg(rt_rdx_run(a, &p) == 0, "rdx run failed: %s", p.err);
    ck_assert_msg(strstr(p.out, "device: gfx1151 (gfx1151, 40 CUs, emu)"), "%s", p.out);
    /* the estimate is the gfx1151's own chip's, at its engine clock */
    ck_assert_msg(strstr(p.out, "cycles at 2900 MHz") &&
                      strstr(p.out, "timing model of a gfx1151)"),
                  "%s", p.out);
    rdx_test_proc_free(&p);
    size_t n;
    uint32_t *out = (uint32_t *)rdx_test_read_file(outp, &n);
    ck_assert_uint_eq(n, 512);
    for (uint32_t i = 0; i < 128; i++)
        ck_assert_uint_eq(out[i], 9 + i);
    free(out);
    const char *b[] = { co,   "--arch", "gfx1100",   "--grid", "1",     "--block",
                        "64", "--arg",  "zeros:256", "--arg",  "u32:9", NULL };
    ck_assert_int_eq(rt_rdx_run(b, &p), 1);
    ck_assert_msg(strstr(p.err, "code object for gfx1151, the device is a gfx1100"), "%s", p.err);
    rdx_test_proc_free(&p);
    const char *c[] = { co, "--arch", "gfx1300", "--grid", "1", "--block", "64", NULL };
    ck_assert_int_eq(rt_rdx_run(c, &p), 2);
    ck_assert_msg(strstr(p.err, "--arch='gfx1300'") && strstr(p.err, "valid targets: gfx1100"),
                  "%s", p.err);
    rdx_test_proc_free(&p);
    /* rdx prof profiles it on an emulator of its target and says which */
    const char *pr[] = {
        rdx_test_rdx_path(), "prof",  co,      "--grid", "2", "--block", "64", "--arg",
        "zeros:512",         "--arg", "u32:9", NULL
    };
    ck_assert_msg(rdx_test_run(pr, NULL, 0, &p) == 0, "rdx prof: %s", p.err);
    ck_assert_msg(strstr(p.out, "(emulated gfx1151;"), "%s", p.out);
    rdx_test_proc_free(&p);
    const char *pj[] = {
        rdx_test_rdx_path(), "prof",  "--json", co,  "--grid", "2", "--block", "64", "--arg",
        "zeros:512",         "--arg", "u32:9",  NULL
    };
    ck_assert_msg(rdx_test_run(pj, NULL, 0, &p) == 0, "rdx prof --json: %s", p.err);
    ck_assert_msg(strstr(p.out, "\"target\":\"gfx1151\""), "%s", p.out);
    rdx_test_proc_free(&p);
    free(co);
    free(outp);
}
END_TEST

TCase *rt_tcase_targets(void)
{
    TCase *tc = tcase_create("targets");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, gfx1151_device_runs_its_code);
    tcase_add_test(tc, gfx1201_device_dispatches);
    tcase_add_test(tc, mixed_machine_per_gpu_targets);
    tcase_add_test(tc, rdx_run_follows_the_code_object);
    return tc;
}
