/* tests/emu_oracle/oracle_int.h — helpers shared by the oracle's files. */
#ifndef RDX_TESTS_EMU_ORACLE_INT_H
#define RDX_TESTS_EMU_ORACLE_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "tests/emu_oracle/oracle.h"

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
    const char *in_path;
    const char *out_path;
    const char *err_path;
    int status;
} rdx_oracle_job;
void rdx_oracle_run_jobs(rdx_oracle_job *jobs, int n, int parallel);

/* Whole-file helpers (malloc'd, NUL-terminated; NULL on error). */
char *rdx_oracle_slurp(const char *path, size_t *len);
int rdx_oracle_spit(const char *path, const void *data, size_t len);

#endif /* RDX_TESTS_EMU_ORACLE_INT_H */
