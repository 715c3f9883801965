/*
 * tests/runtime/t_inject.c — injected kernel-call failures at every call
 * site the runtime reaches: for each kind of call (every KFD ioctl, the
 * render node's DRM_IOCTL_AMDGPU_INFO, open, mmap) and each n, the n-th such
 * call of a whole workload (open a device, queues, buffers, a program, a
 * fence, a dispatch, copies, close) fails with an errno.  The failure must
 * come back as an error naming the call and the errno, leak nothing in the
 * emulated driver, and leave the device usable.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/kfd_ioctl.h>
#include <xf86drm.h>
#include <amdgpu_drm.h>

#include "tests/runtime/rt_test.h"

typedef struct call {
    const char *name;
    unsigned long request;
    int teardown; /* fails while releasing: the object stays with the driver */
} call;

#define CALL(req, down) { #req, req, down }
static const call calls[] = {
    { "open", RDX_EMUDEV_OP_OPEN, 0 },
    { "mmap", RDX_EMUDEV_OP_MMAP, 0 },
    CALL(AMDKFD_IOC_GET_VERSION, 0),
    CALL(AMDKFD_IOC_ACQUIRE_VM, 0),
    CALL(AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, 0),
    CALL(DRM_IOCTL_AMDGPU_INFO, 0),
    CALL(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, 0),
    CALL(AMDKFD_IOC_MAP_MEMORY_TO_GPU, 0),
    CALL(AMDKFD_IOC_CREATE_QUEUE, 0),
    CALL(AMDKFD_IOC_CREATE_EVENT, 0),
    CALL(AMDKFD_IOC_SET_EVENT, 0),
    CALL(AMDKFD_IOC_WAIT_EVENTS, 0),
    CALL(AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, 1),
    CALL(AMDKFD_IOC_FREE_MEMORY_OF_GPU, 1),
    CALL(AMDKFD_IOC_DESTROY_QUEUE, 1),
    CALL(AMDKFD_IOC_DESTROY_EVENT, 1),
};

static void detail(void *user, char *buf, size_t size)
{
    rdx_emudev_last_error(user, buf, size);
}

/* Keep the first failure and its message. */
typedef struct result {
    rdx_status st;
    char msg[1024];
} result;

static void note(result *r, rdx_status st)
{
    if (st && !r->st) {
        r->st = st;
        snprintf(r->msg, sizeof r->msg, "%s", rdx_error_message());
    }
}

/* Everything a program does, on an open device; releases all it made. */
static void workload(rdx_device *dev, result *r)
{
    rdx_queue *q = NULL, *copy = NULL;
    rdx_buffer *host = NULL, *devbuf = NULL;
    rdx_program *p = NULL;
    rdx_fence *fe = NULL;
    const rdx_kernel *k;
    int32_t data[64];
    for (int i = 0; i < 64; i++)
        data[i] = i;
    rdx_status st = rdx_queue_create(dev, RDX_QUEUE_COMPUTE, &q);
    if (!st)
        st = rdx_buffer_alloc(dev, sizeof data, RDX_MEM_HOST, &host);
    if (!st)
        st = rdx_buffer_alloc(dev, sizeof data, RDX_MEM_DEVICE, &devbuf);
    if (!st)
        st = rdx_buffer_upload(devbuf, 0, data, sizeof data);
    if (!st)
        st = rdx_program_load_file(dev, rt_kernels_co, &p);
    if (!st)
        st = rdx_program_find(p, "add_one", &k);
    if (!st)
        st = rdx_fence_create(dev, 0, &fe);
    if (!st)
        st = rdx_fence_set(fe, 1);
    uint64_t t = 0;
    if (!st) {
        rdx_arg args[] = { rdx_arg_buffer(devbuf), rdx_arg_i32(64) };
        rdx_launch l = rt_launch1(k, 1, 64, args, 2);
        st = rdx_queue_wait_fence(q, fe, 1);
        if (!st)
            st = rdx_queue_dispatch(q, &l, &t);
        if (!st)
            st = rdx_queue_wait(q, t, 10000);
    }
    if (!st)
        st = rdx_queue_create(dev, RDX_QUEUE_COPY, &copy);
    if (!st)
        st = rdx_queue_copy(copy, host, 0, devbuf, 0, sizeof data, &t);
    if (!st)
        st = rdx_queue_wait(copy, t, 10000);
    if (!st) {
        const int32_t *h = rdx_buffer_cpu(host);
        for (int i = 0; i < 64; i++)
            ck_assert_int_eq(h[i], i + 1);
    }
    note(r, st);
    rdx_fence_destroy(fe);
    rdx_program_free(p);
    rdx_buffer_free(host);
    rdx_buffer_free(devbuf);
    note(r, rdx_queue_destroy(copy));
    note(r, rdx_queue_destroy(q));
}

START_TEST(every_call_site_fails_cleanly)
{
    const call *c = &calls[_i];
    int fired = 0;
    for (uint32_t nth = 1; nth < 64; nth++) {
        int err = nth % 2 ? EIO : ENOMEM;
        rdx_emudev *emu;
        RT_OK(rdx_emudev_create(NULL, &emu));
        RT_OK(rdx_emudev_inject(emu, c->request, nth, err));
        result r = { RDX_OK, "" };
        rdx_device_options o = { .os = rdx_emudev_os(emu),
                                 .fault_detail = detail,
                                 .fault_detail_user = emu };
        rdx_device *dev = NULL;
        rt_stderr cap;
        rt_stderr_begin(&cap);
        note(&r, rdx_device_open(&o, &dev));
        if (dev) {
            workload(dev, &r);
            note(&r, rdx_device_close(dev));
        }
        char *printed = rt_stderr_end(&cap);
        int pending = rdx_emudev_inject_pending(emu) != 0;
        rdx_emudev_inject_clear(emu);
        if (!pending) {
            fired++;
            /* Failures while releasing inside the void free functions are
             * reported on stderr only (captured here, not shown: issue 2.9);
             * every other one must come back. */
            if (!c->teardown || r.st != RDX_OK) {
                ck_assert_msg(r.st != RDX_OK, "%s #%u failed with %s, but nothing reported it",
                              c->name, nth, strerror(err));
                ck_assert_msg(strstr(r.msg, c->name) && strstr(r.msg, strerror(err)),
                              "%s #%u: the error does not name the call and errno: %s", c->name,
                              nth, r.msg);
            } else {
                ck_assert_msg(!strncmp(printed, "rdx: ", 5) && strstr(printed, c->name) &&
                                  strstr(printed, strerror(err)),
                              "%s #%u failed with %s inside a void free function: stderr does "
                              "not name the call and errno: '%s'",
                              c->name, nth, strerror(err), printed);
            }
        }
        /* Whatever was printed is about the injected failure, and nothing is
         * printed when the injection did not fire. */
        ck_assert_msg(pending ? !*printed : !*printed || strstr(printed, c->name),
                      "%s #%u: unexpected stderr: '%s'", c->name, nth, printed);
        free(printed);
        /* Still usable: the whole workload runs again, leaving nothing behind. */
        rdx_emudev_stats before, after;
        rdx_emudev_get_stats(emu, &before);
        result again = { RDX_OK, "" };
        rt_stderr_begin(&cap);
        note(&again, rdx_device_open(&o, &dev));
        if (dev) {
            workload(dev, &again);
            note(&again, rdx_device_close(dev));
        }
        printed = rt_stderr_end(&cap);
        ck_assert_msg(!*printed, "%s #%u: a clean run printed '%s'", c->name, nth, printed);
        free(printed);
        ck_assert_msg(again.st == RDX_OK, "%s #%u: device unusable afterwards: %s", c->name, nth,
                      again.msg);
        rdx_emudev_get_stats(emu, &after);
        ck_assert_msg(after.bos == before.bos && after.gpu_mapped == before.gpu_mapped &&
                          after.queues == before.queues && after.events == before.events &&
                          after.open_fds == before.open_fds &&
                          after.reservations == before.reservations,
                      "%s #%u: a clean run leaked", c->name, nth);
        if (!c->teardown)
            ck_assert_msg(before.bos == 0 && before.gpu_mapped == 0 && before.queues == 0 &&
                              before.events == 0 && before.open_fds == 0 &&
                              before.reservations == 0,
                          "%s #%u leaked: %u bos, %u mapped, %u queues, %u events, %u fds, %u "
                          "reservations",
                          c->name, nth, before.bos, before.gpu_mapped, before.queues, before.events,
                          before.open_fds, before.reservations);
        rdx_emudev_destroy(emu);
        if (pending)
            break;
    }
    ck_assert_msg(fired > 0, "%s: no call of this kind happened", c->name);
}
END_TEST

static void detail_fn(void *user, char *buf, size_t size)
{
    rdx_emudev_last_error(user, buf, size);
}

/* A KFD free that fails while the device closes (the heaps give their blocks
 * back through alloc/'s release callback) is returned by rdx_device_close. */
START_TEST(free_failure_at_close_is_returned)
{
    int heap_block_seen = 0;
    for (uint32_t nth = 1; nth <= 12; nth++) {
        rdx_emudev *emu;
        RT_OK(rdx_emudev_create(NULL, &emu));
        rdx_device_options o = { .os = rdx_emudev_os(emu),
                                 .fault_detail = detail_fn,
                                 .fault_detail_user = emu };
        rdx_device *dev;
        RT_OK(rdx_device_open(&o, &dev));
        rdx_buffer *b;
        RT_OK(rdx_buffer_alloc(dev, 4096, RDX_MEM_DEVICE, &b));
        rdx_buffer_free(b);
        RT_OK(rdx_emudev_inject(emu, AMDKFD_IOC_FREE_MEMORY_OF_GPU, nth, EIO));
        rdx_status st = rdx_device_close(dev);
        int fired = rdx_emudev_inject_pending(emu) == 0;
        /* Every failed free is reported; none is swallowed. */
        ck_assert_int_eq(st != RDX_OK, fired);
        if (fired) {
            const char *m = rdx_error_message();
            ck_assert_msg(strstr(m, "AMDKFD_IOC_FREE_MEMORY_OF_GPU"), "message: %s", m);
            heap_block_seen |= strstr(m, "releasing the") != NULL;
        }
        rdx_emudev_stats e;
        rdx_emudev_get_stats(emu, &e);
        ck_assert_uint_eq(e.open_fds, 0);
        ck_assert_uint_eq(e.bos, 0);
        rdx_emudev_destroy(emu);
    }
    ck_assert_msg(heap_block_seen, "no failed heap block release was reported");
}
END_TEST

/* Issue 2.9: the injection tests expect the library to report failures on
 * stderr, and used to let those lines through, so a green run printed
 * "... (emu) failed: Cannot allocate memory".  The inject test case, run as
 * its own process, must pass with nothing on its output that reads like a
 * failure (Check's "Failures: 0, Errors: 0" summary aside). */
START_TEST(green_inject_run_prints_no_error_lines)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    ck_assert_msg(n > 0, "cannot find the suite's own binary");
    exe[n] = 0;
    setenv("CK_RUN_SUITE", "runtime", 1);
    setenv("CK_RUN_CASE", "inject", 1);
    const char *argv[] = { exe, NULL };
    rdx_test_proc p;
    int rc = rdx_test_run(argv, NULL, 0, &p);
    ck_assert_msg(rc == 0, "the inject case failed (exit %d):\n%s%s", rc, p.out, p.err);
    ck_assert_msg(strstr(p.out, "Failures: 0, Errors: 0"), "stdout: %s", p.out);
    const char *outs[] = { p.out, p.err };
    for (int i = 0; i < 2; i++) {
        for (const char *line = outs[i]; *line;) {
            const char *end = strchr(line, '\n');
            size_t len = end ? (size_t)(end - line) : strlen(line);
            char buf[1024];
            snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), line);
            ck_assert_msg(
                strstr(buf, "Failures: 0, Errors: 0") ||
                    (!strstr(buf, "failed") && !strstr(buf, "error") && !strstr(buf, "rdx: ")),
                "a green inject run printed on std%s: '%s'", i ? "err" : "out", buf);
            line += len + (end != NULL);
        }
    }
    rdx_test_proc_free(&p);
}
END_TEST

/* The test above, in a test case of its own (it runs the "inject" case). */
TCase *rt_tcase_quiet(void)
{
    TCase *tc = tcase_create("quiet");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, green_inject_run_prints_no_error_lines);
    return tc;
}

TCase *rt_tcase_inject(void)
{
    TCase *tc = tcase_create("inject");
    tcase_set_timeout(tc, 240);
    tcase_add_loop_test(tc, every_call_site_fails_cleanly, 0, (int)(sizeof calls / sizeof *calls));
    tcase_add_test(tc, free_failure_at_close_is_returned);
    return tc;
}
