/* tests/runtime/t_bounds.c — exact bounds on the emulated GPU: a kernel may
 * touch exactly the bytes of the buffers the runtime allocated (its heaps are
 * noted as pools through rdx_os.mem_note), not the rest of their 4 MiB
 * backing blocks; the fault names the nearest buffer, its label and the
 * offset.  RDX_EMU_BOUNDS=block (or the device's configuration) turns it off. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/runtime/rt_test.h"

static void detail(void *user, char *buf, size_t size)
{
    rdx_emudev_last_error(user, buf, size);
}

/* rt_open with the emulated device's bounds mode. */
static void open_bounds(rt_fixture *f, rdx_emudev_bounds bounds)
{
    memset(f, 0, sizeof *f);
    rdx_emudev_config cfg = { .bounds = bounds };
    RT_OK(rdx_emudev_create(&cfg, &f->emu));
    rdx_device_options o = { .os = rdx_emudev_os(f->emu),
                             .fault_detail = detail,
                             .fault_detail_user = f->emu };
    RT_OK(rdx_device_open(&o, &f->dev));
    RT_OK(rdx_program_load_file(f->dev, rt_kernels_co, &f->prog));
}

/* The error message of the last failed run. */
static char msg[2048];

/* Run `kernel` (one group of `block`) with args on a fresh queue; RDX_OK or
 * the wait's status (its message in msg). */
static rdx_status run(rt_fixture *f, const char *kernel, uint32_t block, rdx_arg *args,
                      uint32_t nargs)
{
    rdx_queue *q;
    RT_OK(rdx_queue_create(f->dev, RDX_QUEUE_COMPUTE, &q));
    rdx_launch l = rt_launch1(rt_kernel(f, kernel), 1, block, args, nargs);
    uint64_t t;
    RT_OK(rdx_queue_dispatch(q, &l, &t));
    rdx_status st = rdx_queue_wait(q, t, 20000);
    snprintf(msg, sizeof msg, "%s", st ? rdx_error_message() : "");
    RT_OK(rdx_queue_destroy(q));
    return st;
}

static void expect_in(const char *msg, const char *want)
{
    ck_assert_msg(strstr(msg, want), "expected \"%s\" in: %s", want, msg);
}

static rdx_buffer *host_buffer(rt_fixture *f, uint64_t size, const char *label)
{
    rdx_buffer *b;
    RT_OK(rdx_buffer_alloc(f->dev, size, RDX_MEM_HOST, &b));
    if (label)
        RT_OK(rdx_buffer_set_label(b, label));
    return b;
}

static unsigned long long addr(const rdx_buffer *b)
{
    return (unsigned long long)rdx_buffer_gpu_addr(b);
}

START_TEST(overrun_by_one_element_faults_with_the_buffer_and_offset)
{
    rt_fixture f;
    open_bounds(&f, RDX_EMUDEV_BOUNDS_DEFAULT);
    rdx_buffer *b = host_buffer(&f, 16 * 4, "buffer of argument 0");
    /* add_one: p[i] += 1 for i < n; n = 17 reads element 16, bytes [64, 68). */
    rdx_arg args[] = { rdx_arg_buffer(b), rdx_arg_i32(17) };
    ck_assert_int_eq(run(&f, "add_one", 32, args, 2), RDX_ERR_FAULT);
    char want[256];
    snprintf(want, sizeof want,
             "VM fault: read from global address 0x%llx (4 bytes past the end of the 64-byte "
             "buffer of argument 0 at 0x%llx (offset 64)) by 'global_load_b32",
             addr(b) + 64, addr(b));
    expect_in(msg, want);
    expect_in(msg, "lane 16");
    expect_in(msg, "(page not present)");
    /* Elements 0..15 were not written: the fault stops the lanes before any store. */
    const int32_t *p = rdx_buffer_cpu(b);
    for (int i = 0; i < 16; i++)
        ck_assert_int_eq(p[i], 0);
    rdx_buffer_free(b);
    rt_close(&f);
}
END_TEST

START_TEST(access_ending_at_the_last_byte_runs)
{
    rt_fixture f;
    open_bounds(&f, RDX_EMUDEV_BOUNDS_DEFAULT);
    /* 68 bytes: not a multiple of the 256-byte allocation unit. */
    rdx_buffer *b = host_buffer(&f, 68, NULL);
    rdx_arg args[] = { rdx_arg_buffer(b), rdx_arg_i32(17) };
    RT_OK(run(&f, "add_one", 32, args, 2));
    const int32_t *p = rdx_buffer_cpu(b);
    for (int i = 0; i < 17; i++)
        ck_assert_int_eq(p[i], 1);
    /* poke writes p[16] (bytes 64..67, the last ones), then p[17] faults. */
    rdx_arg last[] = { rdx_arg_buffer(b), rdx_arg_u64(16) };
    RT_OK(run(&f, "poke", 32, last, 2));
    ck_assert_int_eq(p[16], 42);
    rdx_arg past[] = { rdx_arg_buffer(b), rdx_arg_u64(17) };
    ck_assert_int_eq(run(&f, "poke", 32, past, 2), RDX_ERR_FAULT);
    char want[200];
    snprintf(want, sizeof want,
             "write to global address 0x%llx (4 bytes past the end of the 68-byte buffer at "
             "0x%llx (offset 68))",
             addr(b) + 68, addr(b));
    expect_in(msg, want);
    expect_in(msg, "(page not present)");
    rdx_buffer_free(b);
    /* An access that starts inside and ends outside: 66 bytes, p[16] is 64..67. */
    b = host_buffer(&f, 66, NULL);
    rdx_arg across[] = { rdx_arg_buffer(b), rdx_arg_u64(16) };
    ck_assert_int_eq(run(&f, "poke", 32, across, 2), RDX_ERR_FAULT);
    snprintf(want, sizeof want,
             "write to global address 0x%llx (2 bytes past the end of the 66-byte buffer at "
             "0x%llx (offset 64))",
             addr(b) + 64, addr(b));
    expect_in(msg, want);
    expect_in(msg, "(page not present)"); /* not a read-only fault: the bytes are writable */
    rdx_buffer_free(b);
    rt_close(&f);
}
END_TEST

START_TEST(gap_between_two_buffers_faults)
{
    rt_fixture f;
    open_bounds(&f, RDX_EMUDEV_BOUNDS_DEFAULT);
    rdx_buffer *a = host_buffer(&f, 16, "first");
    rdx_buffer *b = host_buffer(&f, 16, "second");
    /* Sub-allocations of one block, 256 bytes apart: the gap is that block's memory. */
    ck_assert_uint_eq(addr(b), addr(a) + 256);
    char want[200];
    /* a + 128: 112 bytes after a's end, 128 before b's start: a is nearer. */
    rdx_arg mid[] = { rdx_arg_buffer(a), rdx_arg_u64(32) };
    ck_assert_int_eq(run(&f, "poke", 32, mid, 2), RDX_ERR_FAULT);
    snprintf(want, sizeof want,
             "(116 bytes past the end of the 16-byte first at 0x%llx (offset 128))", addr(a));
    expect_in(msg, want);
    /* a + 240: 16 bytes before b. */
    rdx_arg before[] = { rdx_arg_buffer(a), rdx_arg_u64(60) };
    ck_assert_int_eq(run(&f, "poke", 32, before, 2), RDX_ERR_FAULT);
    snprintf(want, sizeof want, "(16 bytes before the 16-byte second at 0x%llx (offset -16))",
             addr(b));
    expect_in(msg, want);
    /* A freed buffer is no longer accessible: b - 256 is a's first byte. */
    rdx_buffer_free(a);
    rdx_arg freed[] = { rdx_arg_buffer(b), rdx_arg_u64((uint64_t)-64) };
    ck_assert_int_eq(run(&f, "poke", 32, freed, 2), RDX_ERR_FAULT);
    snprintf(want, sizeof want, "(256 bytes before the 16-byte second at 0x%llx (offset -256))",
             addr(b));
    expect_in(msg, want);
    rdx_buffer_free(b);
    rt_close(&f);
}
END_TEST

START_TEST(scalar_load_past_the_end_faults)
{
    rt_fixture f;
    open_bounds(&f, RDX_EMUDEV_BOUNDS_DEFAULT);
    rdx_buffer *in = host_buffer(&f, 8, "input");
    rdx_buffer *out = host_buffer(&f, 4, NULL);
    int32_t v[2] = { 5, 7 };
    RT_OK(rdx_buffer_upload(in, 0, v, sizeof v));
    rdx_arg ok[] = { rdx_arg_buffer(in), rdx_arg_u64(1), rdx_arg_buffer(out) };
    RT_OK(run(&f, "peek_uniform", 32, ok, 3));
    ck_assert_int_eq(*(const int32_t *)rdx_buffer_cpu(out), 7);
    rdx_arg past[] = { rdx_arg_buffer(in), rdx_arg_u64(2), rdx_arg_buffer(out) };
    ck_assert_int_eq(run(&f, "peek_uniform", 32, past, 3), RDX_ERR_FAULT);
    char want[200];
    snprintf(want, sizeof want,
             "read from global address 0x%llx (4 bytes past the end of the 8-byte input at "
             "0x%llx (offset 8)) by 's_load_b32",
             addr(in) + 8, addr(in));
    expect_in(msg, want);
    rdx_buffer_free(in);
    rdx_buffer_free(out);
    rt_close(&f);
}
END_TEST

/* The overrun of the first test, allowed: within the buffer's block. */
static void overrun_runs(rt_fixture *f)
{
    rdx_buffer *b = host_buffer(f, 16 * 4, NULL);
    rdx_arg args[] = { rdx_arg_buffer(b), rdx_arg_i32(17) };
    RT_OK(run(f, "add_one", 32, args, 2));
    const int32_t *p = rdx_buffer_cpu(b);
    for (int i = 0; i < 17; i++) /* element 16 lies in the buffer's 256-byte unit */
        ck_assert_int_eq(p[i], 1);
    rdx_buffer_free(b);
}

START_TEST(block_mode_turns_it_off)
{
    rt_fixture f;
    open_bounds(&f, RDX_EMUDEV_BOUNDS_BLOCK);
    overrun_runs(&f);
    rt_close(&f);
    /* The environment variable when the configuration leaves it open. */
    setenv("RDX_EMU_BOUNDS", "block", 1);
    open_bounds(&f, RDX_EMUDEV_BOUNDS_DEFAULT);
    overrun_runs(&f);
    rt_close(&f);
    /* The configuration wins over the environment. */
    open_bounds(&f, RDX_EMUDEV_BOUNDS_EXACT);
    rdx_buffer *b = host_buffer(&f, 16 * 4, NULL);
    rdx_arg args[] = { rdx_arg_buffer(b), rdx_arg_i32(17) };
    ck_assert_int_eq(run(&f, "add_one", 32, args, 2), RDX_ERR_FAULT);
    rdx_buffer_free(b);
    rt_close(&f);
    setenv("RDX_EMU_BOUNDS", "loose", 1);
    rdx_emudev *e = NULL;
    ck_assert_int_eq(rdx_emudev_create(NULL, &e), RDX_ERR_INVALID);
    expect_in(rdx_error_message(), "RDX_EMU_BOUNDS='loose': expected 'exact' or 'block'");
    unsetenv("RDX_EMU_BOUNDS");
}
END_TEST

/* An OS table without mem_note (as rdx_os_linux() has none): the runtime
 * works the same, no note is made, and whole blocks stay accessible. */
START_TEST(table_without_mem_note_changes_nothing_else)
{
    rt_fixture f;
    memset(&f, 0, sizeof f);
    RT_OK(rdx_emudev_create(NULL, &f.emu));
    rdx_os os = *rdx_emudev_os(f.emu);
    ck_assert_ptr_nonnull(os.mem_note);
    os.mem_note = NULL;
    ck_assert_ptr_null(rdx_os_linux()->mem_note);
    rdx_device_options o = { .os = &os, .fault_detail = detail, .fault_detail_user = f.emu };
    RT_OK(rdx_device_open(&o, &f.dev));
    RT_OK(rdx_program_load_file(f.dev, rt_kernels_co, &f.prog));
    overrun_runs(&f);
    rdx_buffer *b = host_buffer(&f, 16, "unheard");
    rdx_buffer_free(b);
    rt_close(&f);
}
END_TEST

/* rdx_device_options.emu_bounds when the runtime creates the emulated GPU. */
static rdx_status overrun_on_own_device(uint32_t bounds)
{
    rt_fixture f;
    memset(&f, 0, sizeof f);
    rdx_device_options o = { .kind = RDX_DEVICE_EMU, .emu_bounds = bounds };
    rdx_status st = rdx_device_open(&o, &f.dev);
    if (st)
        return st;
    RT_OK(rdx_program_load_file(f.dev, rt_kernels_co, &f.prog));
    rdx_buffer *b = host_buffer(&f, 16 * 4, NULL);
    rdx_arg args[] = { rdx_arg_buffer(b), rdx_arg_i32(17) };
    st = run(&f, "add_one", 32, args, 2);
    rdx_buffer_free(b);
    rdx_program_free(f.prog);
    RT_OK(rdx_device_close(f.dev));
    return st;
}

START_TEST(device_option_chooses_the_mode)
{
    ck_assert_int_eq(overrun_on_own_device(RDX_EMUDEV_BOUNDS_DEFAULT), RDX_ERR_FAULT);
    expect_in(msg, "4 bytes past the end of the 64-byte buffer at");
    ck_assert_int_eq(overrun_on_own_device(RDX_EMUDEV_BOUNDS_EXACT), RDX_ERR_FAULT);
    ck_assert_int_eq(overrun_on_own_device(RDX_EMUDEV_BOUNDS_BLOCK), RDX_OK);
    ck_assert_int_eq(overrun_on_own_device(7), RDX_ERR_INVALID);
    expect_in(rdx_error_message(), "bounds mode 7, expected 0, 1 or 2");
}
END_TEST

TCase *rt_tcase_bounds(void)
{
    TCase *tc = tcase_create("bounds");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, overrun_by_one_element_faults_with_the_buffer_and_offset);
    tcase_add_test(tc, access_ending_at_the_last_byte_runs);
    tcase_add_test(tc, gap_between_two_buffers_faults);
    tcase_add_test(tc, scalar_load_past_the_end_faults);
    tcase_add_test(tc, block_mode_turns_it_off);
    tcase_add_test(tc, table_without_mem_note_changes_nothing_else);
    tcase_add_test(tc, device_option_chooses_the_mode);
    return tc;
}
