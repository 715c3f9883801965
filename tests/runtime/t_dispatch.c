/* tests/runtime/t_dispatch.c — dispatches: grids (partial workgroups
 * included) and hidden arguments against closed-form expectations, argument
 * layout by metadata and by natural packing, dynamic LDS, timestamps,
 * argument errors. */
#include <stdlib.h>
#include <string.h>

#include "tests/runtime/rt_test.h"

/* ids: out[y * gx + x] = x | y << 16 | local_size.x << 24 | num_groups.x << 12. */
static void check_ids(rt_fixture *f, rdx_queue *q, const uint32_t global[2],
                      const uint32_t block[2], int by_items)
{
    uint32_t gx = global[0], gy = global[1];
    rdx_buffer *out;
    RT_OK(rdx_buffer_alloc(f->dev, (uint64_t)gx * gy * 4, RDX_MEM_HOST, &out));
    rdx_arg a = rdx_arg_buffer(out);
    rdx_launch l;
    memset(&l, 0, sizeof l);
    l.kernel = rt_kernel(f, "ids");
    l.block[0] = block[0];
    l.block[1] = block[1];
    if (by_items) {
        l.global[0] = gx;
        l.global[1] = gy;
    } else {
        l.grid[0] = gx / block[0];
        l.grid[1] = gy / block[1];
    }
    l.args = &a;
    l.nargs = 1;
    uint64_t t;
    RT_OK(rdx_queue_dispatch(q, &l, &t));
    RT_OK(rdx_queue_wait(q, t, 10000));
    const uint32_t *o = rdx_buffer_cpu(out);
    uint32_t groups = (gx + block[0] - 1) / block[0];
    for (uint32_t y = 0; y < gy; y++)
        for (uint32_t x = 0; x < gx; x++) {
            uint32_t last = x / block[0] == groups - 1 && gx % block[0] ? gx % block[0] : block[0];
            uint32_t want = x | y << 16 | last << 24 | groups << 12;
            if (o[y * gx + x] != want)
                ck_abort_msg("(%u,%u): got 0x%x, want 0x%x", x, y, o[y * gx + x], want);
        }
    rdx_buffer_free(out);
}

START_TEST(grids_and_hidden_arguments)
{
    rt_fixture f;
    rt_open(&f, 1);
    rdx_queue *q;
    RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COMPUTE, &q));
    check_ids(&f, q, (const uint32_t[]){ 64, 8 }, (const uint32_t[]){ 16, 4 }, 0);
    check_ids(&f, q, (const uint32_t[]){ 70, 30 }, (const uint32_t[]){ 16, 8 }, 1);
    check_ids(&f, q, (const uint32_t[]){ 1000, 1 }, (const uint32_t[]){ 64, 1 }, 1);
    check_ids(&f, q, (const uint32_t[]){ 5, 3 }, (const uint32_t[]){ 256, 4 }, 1);
    RT_OK(rdx_queue_destroy(q));
    rt_close(&f);
}
END_TEST

START_TEST(arguments_of_every_size)
{
    rt_fixture f;
    rt_open(&f, 1);
    rdx_queue *q;
    RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COMPUTE, &q));
    rdx_buffer *out;
    RT_OK(rdx_buffer_alloc(f.dev, 64, RDX_MEM_DEVICE, &out));
    rdx_arg c = { RDX_ARG_VALUE, NULL, 0, 1, { { 0 } } };
    c.v.bytes[0] = (uint8_t)-5;
    rdx_arg s = { RDX_ARG_VALUE, NULL, 0, 2, { { 0 } } };
    int16_t sv = -1234;
    memcpy(s.v.bytes, &sv, 2);
    rdx_arg args[] = { rdx_arg_buffer(out), c, rdx_arg_f64(3.25), s, rdx_arg_u64((uint64_t)-77),
                       rdx_arg_f32(0.5f) };
    rdx_launch l = rt_launch1(rt_kernel(&f, "mixed"), 1, 32, args, 6);
    uint64_t t;
    RT_OK(rdx_queue_dispatch(q, &l, &t));
    RT_OK(rdx_queue_wait(q, t, 10000));
    double got[5];
    RT_OK(rdx_buffer_download(out, 0, got, sizeof got));
    const double want[] = { -5, 3.25, -1234, -77, 0.5 };
    for (int i = 0; i < 5; i++)
        ck_assert_msg(got[i] == want[i], "field %d: %g, want %g", i, got[i], want[i]);
    rdx_buffer_free(out);
    RT_OK(rdx_queue_destroy(q));
    rt_close(&f);
}
END_TEST

START_TEST(argument_errors_name_the_argument)
{
    rt_fixture f;
    rt_open(&f, 1);
    rdx_queue *q;
    RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COMPUTE, &q));
    rdx_buffer *b;
    RT_OK(rdx_buffer_alloc(f.dev, 64, RDX_MEM_HOST, &b));
    const rdx_kernel *k = rt_kernel(&f, "add_one");
    rdx_arg one[] = { rdx_arg_buffer(b) };
    rdx_launch l = rt_launch1(k, 1, 64, one, 1);
    ck_assert_int_eq(rdx_queue_dispatch(q, &l, NULL), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "takes 2 argument(s), 1 given"));
    rdx_arg wrong[] = { rdx_arg_buffer(b), rdx_arg_u64(5) };
    l = rt_launch1(k, 1, 64, wrong, 2);
    ck_assert_int_eq(rdx_queue_dispatch(q, &l, NULL), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "argument 1 (int n) takes 4 bytes"));
    rdx_arg swapped[] = { rdx_arg_u32(1), rdx_arg_buffer(b) };
    l = rt_launch1(k, 1, 64, swapped, 2);
    ck_assert_int_eq(rdx_queue_dispatch(q, &l, NULL), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "argument 0 (int* p)"));
    rdx_arg ok[] = { rdx_arg_buffer(b), rdx_arg_i32(16) };
    l = rt_launch1(k, 1, 2048, ok, 2);
    ck_assert_int_eq(rdx_queue_dispatch(q, &l, NULL), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "at most 1024"));
    l = rt_launch1(k, 1, 64, ok, 2);
    l.dynamic_lds = 70000;
    ck_assert_int_eq(rdx_queue_dispatch(q, &l, NULL), RDX_ERR_INVALID);
    l.kernel = NULL;
    ck_assert_int_eq(rdx_queue_dispatch(q, &l, NULL), RDX_ERR_INVALID);
    ck_assert_uint_eq(rdx_queue_submitted(q), 0);
    rdx_buffer_free(b);
    RT_OK(rdx_queue_destroy(q));
    rt_close(&f);
}
END_TEST

START_TEST(kernel_without_metadata_gets_packed_arguments)
{
    rt_fixture f;
    rt_open(&f, 0);
    rdx_program *p;
    RT_OK(rdx_program_load_file(f.dev, rt_asm_co, &p));
    const rdx_kernel *k;
    RT_OK(rdx_program_find(p, "add_value", &k));
    ck_assert(!rdx_kernel_has_metadata(k));
    rdx_queue *q;
    RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COMPUTE, &q));
    rdx_buffer *out;
    RT_OK(rdx_buffer_alloc(f.dev, 3 * 64 * 4, RDX_MEM_HOST, &out));
    rdx_arg args[] = { rdx_arg_buffer(out), rdx_arg_u32(1000) };
    uint8_t seg[64];
    uint32_t size;
    rdx_launch l = rt_launch1(k, 3, 64, args, 2);
    RT_OK(rdx_kernel_pack_args(k, &l, seg, sizeof seg, &size));
    ck_assert_uint_eq(size, 16); /* max(packed 12, descriptor's kernarg_size 16) */
    uint64_t addr;
    uint32_t v;
    memcpy(&addr, seg, 8);
    memcpy(&v, seg + 8, 4);
    ck_assert_uint_eq(addr, rdx_buffer_gpu_addr(out));
    ck_assert_uint_eq(v, 1000);
    uint64_t t;
    RT_OK(rdx_queue_dispatch(q, &l, &t));
    RT_OK(rdx_queue_wait(q, t, 10000));
    const uint32_t *o = rdx_buffer_cpu(out);
    for (uint32_t i = 0; i < 3 * 64; i++)
        ck_assert_uint_eq(o[i], 1000 + i);
    rdx_buffer_free(out);
    rdx_program_free(p);
    RT_OK(rdx_queue_destroy(q));
    rt_close(&f);
}
END_TEST

START_TEST(dynamic_lds_and_timestamps)
{
    rt_fixture f;
    rt_open(&f, 1);
    rdx_queue *q;
    RT_OK(rdx_queue_create(f.dev, RDX_QUEUE_COMPUTE, &q));
    const rdx_kernel *k = rt_kernel(&f, "lds_reverse");
    enum { N = 128, G = 4 };
    rdx_buffer *b;
    RT_OK(rdx_buffer_alloc(f.dev, N * G * 4, RDX_MEM_HOST, &b));
    int32_t *p = rdx_buffer_cpu(b);
    for (int i = 0; i < N * G; i++)
        p[i] = i * 3 - 7;
    /* The __local pointer is the offset of the dynamic LDS (after the static). */
    rdx_arg args[] = { rdx_arg_buffer(b), rdx_arg_u32(rdx_kernel_lds_bytes(k)) };
    rdx_launch l = rt_launch1(k, G, N, args, 2);
    l.dynamic_lds = N * 4;
    uint64_t t, ns = 0;
    ck_assert_int_eq(rdx_queue_dispatch_time(q, 1, &ns), RDX_ERR_INVALID);
    RT_OK(rdx_queue_dispatch(q, &l, &t));
    RT_OK(rdx_queue_wait(q, t, 10000));
    for (int g = 0; g < G; g++)
        for (int i = 0; i < N; i++)
            ck_assert_int_eq(p[g * N + i], (g * N + (N - 1 - i)) * 3 - 7);
    RT_OK(rdx_queue_dispatch_time(q, t, &ns));
    ck_assert_uint_gt(ns, 0);
    ck_assert_uint_lt(ns, 10000000000ull);
    ck_assert_int_eq(rdx_queue_dispatch_time(q, t + 1, &ns), RDX_ERR_INVALID);
    rdx_buffer_free(b);
    RT_OK(rdx_queue_destroy(q));
    rt_close(&f);
}
END_TEST

TCase *rt_tcase_dispatch(void)
{
    TCase *tc = tcase_create("dispatch");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, grids_and_hidden_arguments);
    tcase_add_test(tc, arguments_of_every_size);
    tcase_add_test(tc, argument_errors_name_the_argument);
    tcase_add_test(tc, kernel_without_metadata_gets_packed_arguments);
    tcase_add_test(tc, dynamic_lds_and_timestamps);
    return tc;
}
