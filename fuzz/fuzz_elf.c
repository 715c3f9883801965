/*
 * fuzz/fuzz_elf.c — libFuzzer target for the code-object reader.
 *
 * Every input is parsed with rdx_codeobj_read; a successful read is printed
 * (to /dev/null) and round-tripped through the writer when it has a known
 * target, so every decoded field is touched.  Build and run (from the
 * repository root):
 *
 *   clang-19 -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -I. \
 *       fuzz/fuzz_elf.c isa/codeobj/[a-z]*.c util/[a-z]*.c -lelf -o build/fuzz_elf
 *   mkdir -p build/fuzz_elf_corpus && cp SOME.co build/fuzz_elf_corpus/
 *   build/fuzz_elf build/fuzz_elf_corpus -max_total_time=60
 *
 * Seeds: any AMDGPU code objects, e.g. clang-19 builds of
 * tests/data/codeobj/kernels.cl (shared and -c) and objects rdx writes.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <rdx/codeobj.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *null;
    if (!null)
        null = fopen("/dev/null", "w");
    rdx_codeobj *co;
    if (rdx_codeobj_read(data, size, "fuzz", &co) != RDX_OK)
        return 0;
    if (null)
        rdx_codeobj_print(null, co);
    /* Write what was read back out (kernels at 256-aligned offsets only). */
    rdx_codeobj_image img = { .target = co->target->name,
                              .version = co->version == 4 ? 4 : 5,
                              .code = co->text,
                              .code_size = co->text_size,
                              .kernels = co->kernels,
                              .num_kernels = co->num_kernels };
    uint8_t *out;
    size_t len;
    if (rdx_codeobj_write(&img, &out, &len) == RDX_OK) {
        rdx_codeobj *again;
        if (rdx_codeobj_read(out, len, "fuzz-rewritten", &again) != RDX_OK)
            abort(); /* rdx must read what it wrote */
        if (again->num_kernels != co->num_kernels)
            abort();
        rdx_codeobj_free(again);
        free(out);
    }
    rdx_codeobj_free(co);
    return 0;
}
