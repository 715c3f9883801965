/*
 * tools/realize_cli.h — `rdx realize`'s command line as a function, shared with
 * `rdx prof FILE.uop` (which profiles every kernel of the schedule through the
 * realize profile hook, rdx_realize_options.profile_hook).
 */
#ifndef RDX_TOOLS_REALIZE_CLI_H
#define RDX_TOOLS_REALIZE_CLI_H

#include <stdio.h>

#include <rdx/realize.h>

typedef struct rdx_cli_realize_hook {
    /* rdx_realize_options.profile_hook and its user pointer */
    void (*fn)(void *user, size_t kernel, const char *name, const rdx_emu *emu, const void *elf,
               size_t elf_size, const uint32_t grid[3], const uint32_t wg[3]);
    void *user;
    FILE *out; /* where realize's own report goes; NULL: not printed (and no --check) */
} rdx_cli_realize_hook;

/* `rdx realize` with argv (argv[0] the subcommand); with hook, on the emulated GPU with
   every kernel profiled.  An exit status. */
int rdx_cli_realize(int argc, char **argv, const rdx_cli_realize_hook *hook);

#endif /* RDX_TOOLS_REALIZE_CLI_H */
