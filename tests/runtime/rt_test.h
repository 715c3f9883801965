/* tests/runtime/rt_test.h — shared fixtures of the runtime suite: an emulated
 * GPU (rdx/emudev.h) driven through the whole kfd/pm4 path by rdx/runtime.h. */
#ifndef RDX_TESTS_RT_TEST_H
#define RDX_TESTS_RT_TEST_H

#include <rdx/emudev.h>
#include <rdx/runtime.h>

#include "tests/harness/harness.h"

/* Code objects built once by main (clang-19 + ld.lld, llvm-mc + ld.lld). */
extern char *rt_kernels_co; /* tests/data/runtime/kernels.cl, -O2 */
extern char *rt_asm_co;     /* tests/data/runtime/add_value.s (no metadata) */
extern char *rt_spin_co;    /* tests/data/runtime/spin.s (an endless s_branch loop) */

typedef struct rt_fixture {
    rdx_emudev *emu;
    rdx_device *dev;
    rdx_program *prog; /* rt_kernels_co */
} rt_fixture;

/* Open an emulated device (and load rt_kernels_co when `load`). */
void rt_open(rt_fixture *f, int load);
/* Free the program, check that the device holds no object, close it and check
 * that the emulated driver holds nothing (no leak through the kernel ABI). */
void rt_close(rt_fixture *f);
/* The kernel `name` of f->prog. */
const rdx_kernel *rt_kernel(rt_fixture *f, const char *name);
/* Assert st == RDX_OK, printing the error message otherwise. */
#define RT_OK(expr)                                                             \
    do {                                                                        \
        rdx_status st_ = (expr);                                                \
        ck_assert_msg(st_ == RDX_OK, "%s: %s: %s", #expr, rdx_status_name(st_), \
                      rdx_error_message());                                     \
    } while (0)

/* A launch of k with grid groups x block (1-D). */
rdx_launch rt_launch1(const rdx_kernel *k, uint32_t groups, uint32_t block, const rdx_arg *args,
                      uint32_t nargs);

/* Capture what is written to stderr (fd 2) between rt_stderr_begin and
 * rt_stderr_end, which returns it (malloc'd, NUL-terminated) and restores
 * stderr.  For tests that expect the library to report something there: they
 * assert on the text instead of letting a green run print error lines. */
typedef struct rt_stderr {
    int saved;  /* the original fd 2 */
    char *path; /* the capture file */
} rt_stderr;
void rt_stderr_begin(rt_stderr *c);
char *rt_stderr_end(rt_stderr *c);

TCase *rt_tcase_device(void);
TCase *rt_tcase_copy(void);
TCase *rt_tcase_dispatch(void);
TCase *rt_tcase_sync(void);
TCase *rt_tcase_oracle(void);
TCase *rt_tcase_faults(void);
TCase *rt_tcase_hang(void);
TCase *rt_tcase_inject(void);
TCase *rt_tcase_quiet(void);
TCase *rt_tcase_cli(void);
TCase *rt_tcase_targets(void); /* t_targets.c: devices of other targets */
TCase *rt_tcase_bounds(void);
TCase *rt_tcase_multi(void); /* t_multi.c: several GPUs of one machine */
TCase *rt_tcase_stop(void);  /* t_stop.c: reset/destroy/timeout of huge grids, dispatch budget */

/* `rdx run ARGS... --device emu` (args NULL-terminated, at most 35), captured. */
int rt_rdx_run(const char *const *args, rdx_test_proc *p);

/* Monotonic time in seconds. */
double rt_now_s(void);

#endif
