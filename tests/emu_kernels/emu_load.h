/*
 * tests/emu_kernels/emu_load.h — load a clang-built code object and run one
 * of its kernels on the emulator (shared by the emulator's kernel suites and
 * the benchmark).
 */
#ifndef RDX_TESTS_EMU_LOAD_H
#define RDX_TESTS_EMU_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/emu.h>
#include <rdx/status.h>

/* A loaded program: code copied to an aligned host buffer, descriptors packed. */
typedef struct emu_prog {
    uint8_t *code; /* page-aligned copy of .text */
    size_t code_size;
    size_t nkernels;
    struct emu_prog_kernel {
        char name[128];
        uint64_t entry; /* host address */
        uint8_t kd[64]; /* packed descriptor */
        uint32_t kernarg_size;
    } *kernels;
} emu_prog;

/* Load a code object file; RDX_OK or an rdx_status with a message. */
rdx_status emu_prog_load(const char *path, emu_prog *p);
/* Load a code object from memory. */
rdx_status emu_prog_load_mem(const void *data, size_t len, emu_prog *p);
void emu_prog_free(emu_prog *p);
/* Kernel by name, or NULL. */
const struct emu_prog_kernel *emu_prog_kernel(const emu_prog *p, const char *name);

/*
 * Run kernel k with the global size grid[3] (work-items), workgroup wg[3],
 * kernarg (host memory, registered read-only), and the extra ranges
 * registered read/write.  Registers the code read-only.  Uses `emu`.
 */
rdx_status emu_prog_run(rdx_emu *emu, const emu_prog *p, const struct emu_prog_kernel *k,
                        const uint32_t grid[3], const uint32_t wg[3], const void *kernarg,
                        size_t kernarg_size, const rdx_emu_range *ranges, size_t nranges);

#endif
