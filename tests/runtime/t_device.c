/* tests/runtime/t_device.c — opening devices, info, buffers, programs. */
#include <stdlib.h>
#include <string.h>

#include "tests/runtime/rt_test.h"

START_TEST(device_info_matches_the_emulated_card)
{
    rt_fixture f;
    rt_open(&f, 0);
    const rdx_device_info *i = rdx_device_get_info(f.dev);
    ck_assert_str_eq(i->target, "gfx1100");
    ck_assert_uint_eq(i->gfx_target_version, 110000);
    ck_assert_uint_gt(i->cu_count, 0);
    ck_assert_uint_gt(i->vram_bytes, 0);
    ck_assert_uint_gt(i->timestamp_khz, 0);
    ck_assert_str_eq(i->os_name, "emu");
    rt_close(&f);
}
END_TEST

START_TEST(device_selection_by_kind_and_environment)
{
    rdx_device *dev;
    rdx_device_options o = { .kind = RDX_DEVICE_EMU };
    RT_OK(rdx_device_open(&o, &dev));
    ck_assert_str_eq(rdx_device_get_info(dev)->os_name, "emu");
    RT_OK(rdx_device_close(dev));

    setenv("RDX_DEVICE", "emu", 1);
    RT_OK(rdx_device_open(NULL, &dev));
    ck_assert_str_eq(rdx_device_get_info(dev)->os_name, "emu");
    RT_OK(rdx_device_close(dev));

    setenv("RDX_DEVICE", "tpu", 1);
    ck_assert_int_eq(rdx_device_open(NULL, &dev), RDX_ERR_INVALID);
    ck_assert_ptr_null(dev);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "RDX_DEVICE='tpu'"));
    unsetenv("RDX_DEVICE");

    o.gpu = 3; /* the emulated driver has one card */
    ck_assert_int_eq(rdx_device_open(&o, &dev), RDX_ERR_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "no GPU 3"));
}
END_TEST

START_TEST(host_and_device_buffers_round_trip)
{
    rt_fixture f;
    rt_open(&f, 0);
    /* Sizes around the staging buffer (4 MiB) and odd offsets. */
    const uint64_t sizes[] = { 1, 3, 4096, 4097, (4u << 20) + 13 };
    for (int mem = 0; mem < 2; mem++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            uint64_t n = sizes[s];
            rdx_buffer *b;
            RT_OK(rdx_buffer_alloc(f.dev, n + 7, (rdx_mem)mem, &b));
            ck_assert_uint_eq(rdx_buffer_size(b), n + 7);
            ck_assert_uint_eq(rdx_buffer_gpu_addr(b) % 256, 0);
            ck_assert(mem == RDX_MEM_HOST ? rdx_buffer_cpu(b) != NULL : rdx_buffer_cpu(b) == NULL);
            uint8_t *in = malloc(n + 7), *out = malloc(n + 7);
            /* A new buffer reads as zeros. */
            RT_OK(rdx_buffer_download(b, 0, out, n + 7));
            uint64_t nonzero = 0;
            for (uint64_t i = 0; i < n + 7; i++)
                nonzero += out[i] != 0;
            ck_assert_uint_eq(nonzero, 0);
            for (uint64_t i = 0; i < n; i++)
                in[i] = (uint8_t)(i * 131 + s + 7 * (uint64_t)mem);
            RT_OK(rdx_buffer_upload(b, 5, in, n));
            memset(out, 0xee, n + 7);
            RT_OK(rdx_buffer_download(b, 0, out, n + 7));
            ck_assert_uint_eq(out[0], 0);
            ck_assert_uint_eq(out[4], 0);
            ck_assert_int_eq(memcmp(out + 5, in, n), 0);
            ck_assert_uint_eq(out[n + 5], 0);
            free(in);
            free(out);
            rdx_buffer_free(b);
        }
    rt_close(&f);
}
END_TEST

START_TEST(buffer_errors_are_reported)
{
    rt_fixture f;
    rt_open(&f, 0);
    rdx_buffer *b;
    ck_assert_int_eq(rdx_buffer_alloc(f.dev, 0, RDX_MEM_HOST, &b), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_buffer_alloc(f.dev, 16, (rdx_mem)7, &b), RDX_ERR_INVALID);
    RT_OK(rdx_buffer_alloc(f.dev, 100, RDX_MEM_DEVICE, &b));
    char tmp[200];
    ck_assert_int_eq(rdx_buffer_upload(b, 90, tmp, 11), RDX_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "[90, 101) outside the 100-byte buffer"));
    ck_assert_int_eq(rdx_buffer_download(b, 101, tmp, 0), RDX_ERR_RANGE);
    rdx_buffer_free(b);
    rdx_buffer_free(NULL);
    rt_close(&f);
}
END_TEST

START_TEST(programs_list_kernels_and_arguments)
{
    rt_fixture f;
    rt_open(&f, 1);
    ck_assert_uint_eq(rdx_program_kernel_count(f.prog), 7);
    const rdx_kernel *k;
    ck_assert_int_eq(rdx_program_find(f.prog, "nope", &k), RDX_ERR_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "no kernel 'nope'"));
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "add_one"));
    /* mixed(double *out, char c, double d, short s, long l, float f): the
     * OpenCL ABI places each at its natural alignment (an independent
     * expectation, not read back from the metadata). */
    k = rt_kernel(&f, "mixed");
    ck_assert(rdx_kernel_has_metadata(k));
    ck_assert_uint_eq(rdx_kernel_arg_count(k), 6);
    const uint32_t off[] = { 0, 8, 16, 24, 32, 40 }, size[] = { 8, 1, 8, 2, 8, 4 };
    const char *names[] = { "out", "c", "d", "s", "l", "f" };
    for (uint32_t i = 0; i < 6; i++) {
        const rdx_kernel_arg *a = rdx_kernel_arg_at(k, i);
        ck_assert_uint_eq(a->offset, off[i]);
        ck_assert_uint_eq(a->size, size[i]);
        ck_assert_str_eq(a->name, names[i]);
        ck_assert_int_eq(a->kind, i == 0 ? RDX_ARG_BUFFER : RDX_ARG_VALUE);
    }
    ck_assert_ptr_null(rdx_kernel_arg_at(k, 6));
    ck_assert_uint_eq(rdx_kernel_wave_size(k), 32);
    ck_assert_uint_eq(rdx_kernel_scratch_bytes(rt_kernel(&f, "empty")), 0);

    rdx_program *p;
    ck_assert_int_eq(rdx_program_load(f.dev,
                                      "\x7f"
                                      "ELF",
                                      4, "junk.co", &p),
                     RDX_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "junk.co"));
    ck_assert_int_ne(rdx_program_load_file(f.dev, "/nonexistent.co", &p), RDX_OK);
    rt_close(&f);
}
END_TEST

START_TEST(create_destroy_loops_leave_nothing)
{
    rt_fixture f;
    rt_open(&f, 0);
    rdx_emudev_stats before, after;
    /* A warm-up round fills the heaps' kept empty blocks; the next must not grow. */
    for (int round = 0; round < 2; round++) {
        if (round == 1)
            rdx_emudev_get_stats(f.emu, &before);
        for (int i = 0; i < 30; i++) {
            rdx_queue *q;
            rdx_buffer *b;
            rdx_program *p;
            rdx_fence *fe;
            RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COMPUTE, &q));
            RT_OK(rdx_buffer_alloc(f.dev, 1000 + i, RDX_MEM_HOST, &b));
            RT_OK(rdx_program_load_file(f.dev, rt_asm_co, &p));
            RT_OK(rdx_fence_create(f.dev, 0, &fe));
            rdx_fence_destroy(fe);
            rdx_program_free(p);
            rdx_buffer_free(b);
            RT_OK(rdx_queue_destroy(q));
        }
    }
    rdx_emudev_get_stats(f.emu, &after);
    ck_assert_uint_eq(after.bos, before.bos);
    ck_assert_uint_eq(after.queues, before.queues);
    ck_assert_uint_eq(after.events, before.events);
    rdx_device_stats s;
    rdx_device_get_stats(f.dev, &s);
    ck_assert_uint_eq(s.bytes_in_use, 256 * 64); /* the signal pool only */
    rt_close(&f);
}
END_TEST

TCase *rt_tcase_device(void)
{
    TCase *tc = tcase_create("device");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, device_info_matches_the_emulated_card);
    tcase_add_test(tc, device_selection_by_kind_and_environment);
    tcase_add_test(tc, host_and_device_buffers_round_trip);
    tcase_add_test(tc, buffer_errors_are_reported);
    tcase_add_test(tc, programs_list_kernels_and_arguments);
    tcase_add_test(tc, create_destroy_loops_leave_nothing);
    return tc;
}
