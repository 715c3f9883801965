/* tests/oracle/oracle_int.h — helpers shared by the oracle's files. */
#ifndef RDX_TESTS_EMU_ORACLE_INT_H
#define RDX_TESTS_EMU_ORACLE_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "tests/oracle/oracle.h"

/* IEEE binary16 / bfloat16 <-> binary32/64 (round to nearest even, NaN kept quiet). */
uint16_t rdx_oracle_f32_to_f16(float f);
double rdx_oracle_f16_to_double(uint16_t h);
uint16_t rdx_oracle_f32_to_bf16(float f);
double rdx_oracle_bf16_to_double(uint16_t h);

/* Element `i` of a buffer of type t as a double (integers: exact up to 2^53). */
double rdx_oracle_load_double(rdx_oracle_type t, const void *p, size_t i);
/* Element `i` printed exactly (integers in decimal, floats as %.9g plus the bits). */
void rdx_oracle_format(rdx_oracle_type t, const void *p, size_t i, char *out, size_t len);

/* snprintf into err (when non-NULL) and return -1. */
int rdx_oracle_err(char *err, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A run of external commands, up to `jobs` at a time.  argv arrays are
 * NULL-terminated; out_path receives stdout+stderr (or stdout only when
 * err_path is given), in_path (may be NULL) is stdin.  status[i] gets the exit
 * status (128+signal when killed, 127 when it could not run). */
typedef struct rdx_oracle_job {
    const char *const *argv;
    const char *cwd; /* working directory (NULL: ours) */
    const char *in_path;
    const char *out_path;
    const char *err_path;
    int status;
} rdx_oracle_job;
void rdx_oracle_run_jobs(rdx_oracle_job *jobs, int n, int parallel);

/* Whole-file helpers (malloc'd, NUL-terminated; NULL on error). */
char *rdx_oracle_slurp(const char *path, size_t *len);
int rdx_oracle_spit(const char *path, const void *data, size_t len);
/* The first `max` bytes of a file (malloc'd; "" when unreadable). */
char *rdx_oracle_head(const char *path, size_t max);
/* A malloc'd formatted string (NULL when out of memory). */
char *rdx_oracle_dupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Strings owned by one phase of the preparation, freed together. */
typedef struct rdx_oracle_strs {
    char **v;
    int n, cap;
    int failed; /* an allocation failed */
} rdx_oracle_strs;
/* Record s (may be NULL: then `failed` is set); returns s. */
char *rdx_oracle_keep(rdx_oracle_strs *pool, char *s);
void rdx_oracle_strs_free(rdx_oracle_strs *pool);

/* One prepared manifest entry. */
typedef struct rdx_oracle_prepared {
    const rdx_oracle_kernel *k;
    char *host_err; /* NULL when the host side is ready */
    char *exe;      /* host executable */
    int exe_ok;     /* it was built */
    void *expected[RDX_ORACLE_MAX_ARGS];
    size_t expected_size[RDX_ORACLE_MAX_ARGS];
    char *co_path[RDX_ORACLE_NOPT];
    char *co_err[RDX_ORACLE_NOPT]; /* NULL when the code object is ready */
    uint8_t *code[RDX_ORACLE_NOPT];
    size_t code_size[RDX_ORACLE_NOPT];
    rdx_oracle_md md[RDX_ORACLE_NOPT];
} rdx_oracle_prepared;

struct rdx_oracle {
    char dir[256];      /* private temporary directory */
    char data_dir[512]; /* absolute path of tests/data/emu */
    char clang[512], lld[512], readelf[512], host_cc[256];
    char target[32];   /* -mcpu */
    unsigned elf_mach; /* EF_AMDGPU_MACH of the target */
    unsigned levels;   /* bit i: rdx_oracle_opts[i] compiled and run */
    rdx_oracle_prepared *ks;
    int nk;
    int jobs;
    double seconds;
    double phase[3]; /* compiles, metadata, host runs */
};

/* The clang flags every corpus compile uses (NULL-terminated). */
extern const char *const rdx_oracle_clang_flags[];

/*
 * Compile every (kernel, level) code object: clang -c in batches (one invocation
 * per level, flag set and CPU), ld.lld per code object, a single-kernel clang
 * driver run for any that failed (for its own diagnostics); `extra` jobs (the host
 * compiles) share the first round of processes.  Fills co_path, code, co_err.
 */
void rdx_oracle_compile_all(rdx_oracle *o, rdx_oracle_job *extra, int nextra);
/* Read every code object's metadata with one llvm-readelf and check it against
 * the manifest; sets co_err on mismatch. */
void rdx_oracle_read_metadata(rdx_oracle *o);
/* Run one tool process: the NULL-terminated `head` (program and options), then
 * every prepared code object's path; its output goes to <o->dir>/<out_name>.
 * Returns that output (malloc'd), or NULL with the exit status in *status. */
char *rdx_oracle_tool_on_code_objects(const rdx_oracle *o, const char *const *head,
                                      const char *out_name, int *status);

/* Write every entry's generated host source; add the host compile jobs (the runner
 * once, the entries batched with gcc -c) to jobs (room for o->jobs + 1); returns
 * their number.  Strings are kept in pool. */
int rdx_oracle_host_compile_jobs(rdx_oracle *o, rdx_oracle_strs *pool, rdx_oracle_job *jobs);
/* After those jobs ran: link each host executable (a failing entry is compiled
 * again alone for its diagnostics); sets exe_ok or host_err. */
void rdx_oracle_host_link(rdx_oracle *o);
/* Run every ready host executable on the manifest inputs; keep the outputs. */
int rdx_oracle_host_run_all(rdx_oracle *o);

#endif /* RDX_TESTS_EMU_ORACLE_INT_H */
