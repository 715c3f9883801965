/* tests/runtime/fixture.c — shared fixtures of the runtime suite. */
#include <string.h>
#include <time.h>

#include "tests/runtime/rt_test.h"

static void detail(void *user, char *buf, size_t size)
{
    rdx_emudev_last_error(user, buf, size);
}

void rt_open(rt_fixture *f, int load)
{
    memset(f, 0, sizeof *f);
    RT_OK(rdx_emudev_create(NULL, &f->emu));
    rdx_device_options o = { .os = rdx_emudev_os(f->emu),
                             .fault_detail = detail,
                             .fault_detail_user = f->emu };
    RT_OK(rdx_device_open(&o, &f->dev));
    if (load)
        RT_OK(rdx_program_load_file(f->dev, rt_kernels_co, &f->prog));
}

void rt_close(rt_fixture *f)
{
    rdx_program_free(f->prog);
    f->prog = NULL;
    rdx_device_stats s;
    rdx_device_get_stats(f->dev, &s);
    ck_assert_uint_eq(s.buffers, 0);
    ck_assert_uint_eq(s.programs, 0);
    ck_assert_uint_eq(s.fences, 0);
    ck_assert_uint_eq(s.cmdbufs, 0);
    /* Only the device's own copy queue may remain. */
    ck_assert_uint_le(s.queues, 1);
    RT_OK(rdx_device_close(f->dev));
    rdx_emudev_stats e;
    rdx_emudev_get_stats(f->emu, &e);
    ck_assert_uint_eq(e.open_fds, 0);
    ck_assert_uint_eq(e.bos, 0);
    ck_assert_uint_eq(e.gpu_mapped, 0);
    ck_assert_uint_eq(e.queues, 0);
    ck_assert_uint_eq(e.events, 0);
    ck_assert_uint_eq(e.reservations, 0);
    rdx_emudev_destroy(f->emu);
    memset(f, 0, sizeof *f);
}

const rdx_kernel *rt_kernel(rt_fixture *f, const char *name)
{
    const rdx_kernel *k;
    RT_OK(rdx_program_find(f->prog, name, &k));
    return k;
}

rdx_launch rt_launch1(const rdx_kernel *k, uint32_t groups, uint32_t block, const rdx_arg *args,
                      uint32_t nargs)
{
    rdx_launch l;
    memset(&l, 0, sizeof l);
    l.kernel = k;
    l.grid[0] = groups;
    l.block[0] = block;
    l.args = args;
    l.nargs = nargs;
    return l;
}

int rt_rdx_run(const char *const *args, rdx_test_proc *p)
{
    const char *argv[40];
    int n = 0;
    argv[n++] = rdx_test_rdx_path();
    argv[n++] = "run";
    for (; *args && n < 36; args++)
        argv[n++] = *args;
    argv[n++] = "--device";
    argv[n++] = "emu";
    argv[n] = NULL;
    return rdx_test_run(argv, NULL, 0, p);
}

double rt_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
