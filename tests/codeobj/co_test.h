/*
 * tests/codeobj/co_test.h — helpers shared by the code-object tests: running
 * the LLVM oracles, compiling the OpenCL test kernels with clang-19, and
 * flattening metadata (llvm-readelf's YAML, rdx's MessagePack tree) into
 * sorted "path=value" lines so both can be compared entry by entry.
 */
#ifndef RDX_TESTS_CODEOBJ_CO_TEST_H
#define RDX_TESTS_CODEOBJ_CO_TEST_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/codeobj.h>

#include "isa/codeobj/msgpack.h"
#include "tests/harness/harness.h"

#define CO_KERNELS_CL "tests/data/codeobj/kernels.cl"

/* Run an LLVM tool ("llvm-readelf", ...) with arguments (NULL-terminated);
 * ck_assert that it exits 0; returns its malloc'd stdout. */
/* The LLVM release whose clang and tools the oracle helpers run (19 unless a
 * test sets it; each Check test runs in its own process). */
extern int co_llvm_major;

char *co_llvm(const char *tool, ...);

/* Compile CO_KERNELS_CL for `mcpu` with extra clang flags (space-separated,
 * may be ""); `reloc` adds -c.  Returns the malloc'd output path. */
char *co_compile(const char *mcpu, const char *extra, int reloc, const char *out_name);

/* The assembly clang emits for the same compile (-S), malloc'd. */
char *co_compile_asm(const char *mcpu, const char *extra);

/* A list of strings. */
typedef struct co_lines {
    char **v;
    size_t n, cap;
} co_lines;
void co_lines_add(co_lines *l, const char *s);
void co_lines_sort(co_lines *l);
void co_lines_free(co_lines *l);
/* ck_assert both sorted lists are equal, reporting the first difference. */
void co_lines_assert_equal(const co_lines *got, const co_lines *want, const char *what);

/* Flatten the YAML metadata that `llvm-readelf --notes` prints (between
 * "---" and "...") into "path=value" lines. */
void co_flatten_llvm_notes(const char *readelf_out, co_lines *out);
/* Flatten rdx's decoded metadata document the same way. */
void co_flatten_doc(const rdx_msgpack_node *n, co_lines *out);

/* One ".amdhsa_<name> <value>" or "; <NAME> <value>" line of a kernel block. */
typedef struct co_directive {
    char name[80]; /* without the leading '.'/"; ", lower-cased */
    long long value;
} co_directive;

/* The directives of kernel `kernel`'s ".amdhsa_kernel <kernel>" ...
 * ".end_amdhsa_kernel" block in `text` (clang -S or llvm-objdump -D output). */
size_t co_kernel_directives(const char *text, const char *kernel, co_directive *out, size_t max);

/*
 * Check every directive against rdx's descriptor: fields with a directive
 * name, the segment sizes, next_free_vgpr/next_free_sgpr(+reserve_vcc) via
 * the granule helpers, rsrc3 "; NAME value" comments.  Returns the number
 * of directives checked.
 */
size_t co_check_directives(const co_directive *d, size_t n, const rdx_kernel_descriptor *kd,
                           unsigned major, const char *what);

/* Bytes of section `sec` as `llvm-readelf -x sec` dumps them; *len gets the size. */
uint8_t *co_section_bytes(const char *path, const char *sec, uint64_t *addr, size_t *len);

#endif /* RDX_TESTS_CODEOBJ_CO_TEST_H */
