/*
 * tests/harness/harness.h — what every Check suite shares: temporary files,
 * running subprocesses (rdx itself and the LLVM oracles), and the suite main.
 *
 * Suites run from the repository root.  RDX_BUILD names the build directory
 * (default "build"); RDX_CC the C compiler the build used (default "cc");
 * RDX_SANITIZE the sanitizer flags of the build (empty unless `make asan`).
 */
#ifndef RDX_TESTS_HARNESS_H
#define RDX_TESTS_HARNESS_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

/* Captured result of a subprocess. */
typedef struct rdx_test_proc {
    int status; /* exit code; 128+signal if killed by a signal; -1 if it could not run */
    char *out;  /* stdout, NUL-terminated, malloc'd */
    size_t out_len;
    char *err; /* stderr, NUL-terminated, malloc'd */
    size_t err_len;
} rdx_test_proc;

/*
 * Run argv[0] (searched in PATH) with argv, feeding `in` (may be NULL) on
 * stdin, capturing stdout and stderr.  Returns p->status.  Free with
 * rdx_test_proc_free.
 */
int rdx_test_run(const char *const argv[], const void *in, size_t in_len, rdx_test_proc *p);
void rdx_test_proc_free(rdx_test_proc *p);

/* The build directory ("build" unless RDX_BUILD says otherwise). */
const char *rdx_test_build_dir(void);
/* Path of the rdx command under test (static storage). */
const char *rdx_test_rdx_path(void);
/* The C compiler the build used (RDX_CC, default "cc"). */
const char *rdx_test_cc(void);

/*
 * Path of an LLVM oracle tool ("llvm-mc", "clang", "ld.lld", "llvm-readelf",
 * "llvm-objdump", ...): LLVM 19's when installed (/usr/lib/llvm-19/bin), else
 * "<name>-19", else "<name>" from PATH.  Returns NULL when none exists (the
 * caller fails the test: a missing oracle is a broken setup, not a skip).
 */
const char *rdx_test_llvm_tool(const char *name);

/*
 * Path of LLVM `major`'s tool `name` (/usr/lib/llvm-<major>/bin/<name>), or
 * NULL when that version is not installed (the caller skips that comparison).
 * With CI=true a missing version fails the calling test instead: scripts/setup
 * installs 19 and 22, so there a skip would only hide a broken setup.  For tests
 * that check rdx against more than one LLVM release.
 */
const char *rdx_test_llvm_tool_version(const char *name, int major);

/*
 * A path "<tmpdir>/<name>" inside a private temporary directory created on
 * first use and removed, with everything in it, when the creating process
 * exits.  Returns a malloc'd string.
 */
char *rdx_test_tmp_path(const char *name);

/*
 * Build a gfx1100 code object before the suite runs (so without Check's assertions): `src`
 * ends in ".cl" (compiled by LLVM 19's clang as OpenCL C 2.0 with -O2 unless `flags` (a
 * NULL-terminated list, may be NULL) says otherwise) or ".s" (assembled by llvm-mc), then
 * linked by ld.lld into rdx_test_tmp_path(name).  Exits the process with the tool's stderr
 * on failure.  Returns the malloc'd path of the code object.
 */
char *rdx_test_prebuild(const char *src, const char *const *flags, const char *name);

/* Write / read whole files; abort the test (ck_abort) on failure. */
void rdx_test_write_file(const char *path, const void *data, size_t len);
/* Returns a malloc'd NUL-terminated buffer; *len (if non-NULL) gets the size. */
char *rdx_test_read_file(const char *path, size_t *len);

/* Run a suite with Check's normal output; returns the process exit code. */
int rdx_test_main(Suite *s);

#endif /* RDX_TESTS_HARNESS_H */
