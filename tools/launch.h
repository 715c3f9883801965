/*
 * tools/launch.h — what `rdx run` and `rdx prof` share: the launch options
 * (--kernel, --grid, --block, --arg), choosing the kernel of a program, the
 * usage line of a kernel's signature, and one run of the kernel on a private
 * wave emulator over host copies of the arguments' buffers.
 */
#ifndef RDX_TOOLS_LAUNCH_H
#define RDX_TOOLS_LAUNCH_H

#include <getopt.h>
#include <stdint.h>

#include <rdx/emu.h>
#include <rdx/runtime.h>

#define RDX_CLI_MAX_ARGS 64

/* One --arg: the value, or the buffer to create. */
typedef struct rdx_cli_arg {
    const char *spec;
    int is_buffer;
    uint8_t *data; /* file: contents (owned) */
    uint64_t size;
    rdx_arg arg;
    rdx_buffer *buf;
} rdx_cli_arg;

/* The launch as the options give it. */
typedef struct rdx_cli_launch {
    const char *kname; /* --kernel, or NULL */
    rdx_launch l;      /* grid and block */
    int have_grid, have_block;
    rdx_cli_arg args[RDX_CLI_MAX_ARGS];
    int nargs;
} rdx_cli_launch;

/* getopt_long entries of the launch options (values 'k', 'g', 'b', 'a'). */
#define RDX_CLI_LAUNCH_OPTS                                                               \
    { "kernel", required_argument, NULL, 'k' }, { "grid", required_argument, NULL, 'g' }, \
        { "block", required_argument, NULL, 'b' }, { "arg", required_argument, NULL, 'a' }

/* The help text of the launch options. */
#define RDX_CLI_LAUNCH_HELP                                                         \
    "  --kernel NAME     the kernel (default: the only one in CODEOBJ)\n"           \
    "  --grid X[,Y[,Z]]  workgroups per dimension (integers >= 1; a missing Y or\n" \
    "                    Z is 1; no empty field or trailing comma)\n"               \
    "  --block X[,Y[,Z]] work-items per workgroup (the same form)\n"                \
    "  --arg SPEC        the next kernel argument, in order:\n"                     \
    "                      file:PATH    a buffer holding the bytes of PATH\n"       \
    "                      zeros:BYTES  a zero-filled buffer of BYTES bytes\n"      \
    "                      u32:V i32:V u64:V f32:V f64:V   a value\n"

/* Handle launch option c ('k', 'g', 'b', 'a') with its argument: an exit status
   (RDX_EXIT_OK, or RDX_EXIT_USAGE after printing why). */
int rdx_cli_launch_option(const char *cmd, int c, const char *optarg, rdx_cli_launch *L);

/* Free what the options allocated (file contents). */
void rdx_cli_launch_free(rdx_cli_launch *L);

/* The kernel of prog that L names (or the only one); an exit status. */
int rdx_cli_pick_kernel(const char *cmd, const rdx_program *prog, const char *path,
                        const rdx_cli_launch *L, const rdx_kernel **out);

/* Describe the kernel's explicit arguments for a usage message. */
void rdx_cli_signature(const rdx_kernel *k, char *buf, size_t size);

/*
 * One dispatch of kernel k (of the code object elf) with L's grid, block and
 * arguments on emu, over host copies of the buffers' initial contents (64
 * spare bytes each), so device buffers and outputs are untouched.
 */
rdx_status rdx_cli_emu_launch(rdx_emu *emu, const rdx_cli_launch *L, const uint8_t *elf,
                              size_t elf_size, const rdx_kernel *k, uint64_t wave_budget);

/*
 * The emulated GPU's target when neither --arch nor RDX_EMU_ARCH chose one: the
 * target of the code object at path when the emulated GPU models it, written to
 * buf; else NULL (the device's default, gfx1100).  Never fails: an unreadable
 * file gives NULL and leaves no error set (the caller's own load reports it).
 */
const char *rdx_cli_codeobj_arch(const char *path, char *buf, size_t size);
/* The same from a code object already in memory (elf, len bytes: a file's, or an assembly
   file's as assembled), so its file is not read twice. */
const char *rdx_cli_codeobj_arch_of(const void *elf, size_t len, char *buf, size_t size);

#endif /* RDX_TOOLS_LAUNCH_H */
